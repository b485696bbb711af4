/* FORMAT.md's rules read back from real files: the demo's exports (the
 * golden files, which pack-golden proves are the writer's output) and
 * generated levels written now. Each rule is checked by this file's own
 * code from the bytes, not by asking the reader:
 *   - every polygon has a positive shoelace sum (clockwise on screen, y down);
 *   - solid lies to the right of every loop edge and not to its left; outer
 *     outlines run clockwise (positive sum), holes counter-clockwise;
 *   - the header checksum covers header_size bytes, not only 64;
 *   - a pin's anchor b: an auto-pin repeats a, a level's pin stores its
 *     object's own second anchor in metres;
 *   - 3.1 files (either winding) still load, and simulate exactly as the 3.2
 *     files of the same levels (the winding change moved no body);
 *   - a diagonal flip of a non-square tile places pieces as the spec says. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "project_fixture.h"
#include "pack_fixture.h"
#include "tessera/pack.h"
#include "tessera/physics.h"
#include "tessera/scene.h"
#include "tessera/store.h"
#include "tlv_reader.h"
#include "tlv_reseal.h"

static uint8_t *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = n > 0 ? malloc((size_t)n) : NULL;
  *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  return buf;
}

static uint8_t *source_file(const char *rel, size_t *size) {
  const char *src = getenv("TESS_SOURCE_ROOT");
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", src ? src : ".", rel);
  uint8_t *data = slurp(path, size);
  CHECK_MSG(data != NULL, "%s missing", path);
  return data;
}

/* A section's bytes, found in the table by this file's own walk. */
typedef struct Sec {
  const uint8_t *p;
  uint32_t count, stride;
} Sec;

static Sec sec(const uint8_t *d, size_t size, uint32_t type) {
  Sec s = {NULL, 0, 0};
  size_t e = tlv_find_entry(d, size, type);
  if (!e) return s;
  s.p = d + tlv_get64(d + e + 8);
  s.stride = (uint32_t)(d[e + 6] | d[e + 7] << 8);
  s.count = tlv_get32(d + e + 24);
  return s;
}

static float getf(const uint8_t *p) {
  uint32_t u = tlv_get32(p);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* ---- Winding ------------------------------------------------------------- */

/* Polygons with a negative and a positive shoelace sum; every turn of a
 * polygon must agree with its sum's sign. */
static void count_windings(const uint8_t *d, size_t size, uint32_t *neg, uint32_t *pos, const char *what) {
  Sec poly = sec(d, size, TLV_SEC_POLYGONS), vert = sec(d, size, TLV_SEC_VERTICES);
  for (uint32_t i = 0; i < poly.count; i++) {
    uint32_t first = tlv_get32(poly.p + (size_t)i * poly.stride), n = tlv_get32(poly.p + (size_t)i * poly.stride + 4);
    double x[8], y[8], sum = 0.0;
    CHECK(n >= 3 && n <= 8 && (uint64_t)first + n <= vert.count);
    if (n < 3 || n > 8 || (uint64_t)first + n > vert.count) continue;
    for (uint32_t k = 0; k < n; k++) {
      x[k] = getf(vert.p + (size_t)(first + k) * vert.stride);
      y[k] = getf(vert.p + (size_t)(first + k) * vert.stride + 4);
    }
    for (uint32_t k = 0; k < n; k++) sum += x[k] * y[(k + 1) % n] - x[(k + 1) % n] * y[k];
    for (uint32_t k = 0; k < n; k++) {
      uint32_t a = (k + n - 1) % n, b = (k + 1) % n;
      double cr = (x[k] - x[a]) * (y[b] - y[k]) - (y[k] - y[a]) * (x[b] - x[k]);
      CHECK_MSG(cr * sum >= 0.0, "%s: polygon %u turns against its winding at vertex %u", what, i, k);
    }
    if (sum < 0.0) (*neg)++;
    else (*pos)++;
  }
}

static const char *GOLDEN[] = {"tests/golden/demo/Side.tlv", "tests/golden/demo/Top-down.tlv"};

/* Generated levels: traced tiles in every flip, walls with holes, bodies. */
static uint8_t *fixture_tlv(uint64_t seed, bool noise, size_t *size) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.width = 24;
  spec.height = 16;
  spec.tile_layers = 2;
  spec.bodies = 6;
  spec.joints = 3;
  spec.noise = noise;
  TessProject *p = pack_fixture_project(seed, &spec);
  CHECK(p != NULL);
  if (!p) return NULL;
  uint8_t *data = NULL;
  TessError err;
  CHECK_OK(tess_pack_write(p, p->levels[0], NULL, &data, size, &err), &err);
  tess_project_destroy(p);
  return data;
}

static void every_polygon_is_clockwise(void) {
  uint32_t neg = 0, pos = 0;
  for (size_t i = 0; i < 2; i++) {
    size_t size = 0;
    uint8_t *d = source_file(GOLDEN[i], &size);
    if (!d) continue;
    CHECK(tlv_get32(d + 8) == (TLV_VERSION_MAJOR | TLV_VERSION_MINOR << 16));
    count_windings(d, size, &neg, &pos, GOLDEN[i]);
    free(d);
  }
  for (uint64_t seed = 1; seed <= 6; seed++) {
    size_t size = 0;
    uint8_t *d = fixture_tlv(seed, seed % 2 == 0, &size);
    if (!d) continue;
    count_windings(d, size, &neg, &pos, "fixture");
    tess_free(d);
  }
  printf("  %u polygons, %u of them counter-clockwise\n", neg + pos, neg);
  CHECK(pos > 100 && neg == 0);
  /* The 3.1 seed kept as it was written: flipped tiles' pieces the other way round. */
  size_t size = 0;
  uint8_t *old = source_file("tests/golden/format-3.1/seed-2.tlv", &size);
  if (old) {
    uint32_t oneg = 0, opos = 0;
    count_windings(old, size, &oneg, &opos, "3.1 seed");
    CHECK_MSG(oneg > 0, "the 3.1 seed should hold counter-clockwise pieces (it exercises the old winding)");
    free(old);
  }
}

/* ---- Loops ---------------------------------------------------------------- */

typedef struct Grid {
  Sec cpal, cgrd;
  uint32_t w, h;
} Grid;

/* Solid as LOOP means it: a full-square, two-way cell. Outside the level: not solid. */
static bool solid(const Grid *g, int64_t x, int64_t y) {
  if (x < 0 || y < 0 || x >= g->w || y >= g->h) return false;
  size_t i = (size_t)y * g->w + (size_t)x;
  uint32_t e = g->cgrd.stride == 1 ? g->cgrd.p[i] : g->cgrd.stride == 2 ? (uint32_t)(g->cgrd.p[2 * i] | g->cgrd.p[2 * i + 1] << 8)
                                                                        : tlv_get32(g->cgrd.p + 4 * i);
  const uint8_t *r = g->cpal.p + (size_t)e * g->cpal.stride;
  return r[8] == 1 && r[9] == 0;
}

static void loops_of(const uint8_t *d, size_t size, uint32_t *outer, uint32_t *holes, const char *what) {
  Grid g;
  g.cpal = sec(d, size, TLV_SEC_COLLISION_PALETTE);
  g.cgrd = sec(d, size, TLV_SEC_COLLISION_GRID);
  Sec sett = sec(d, size, TLV_SEC_SETTINGS), loops = sec(d, size, TLV_SEC_LOOPS), crnr = sec(d, size, TLV_SEC_CORNERS);
  g.w = tlv_get32(sett.p);
  g.h = tlv_get32(sett.p + 4);
  static const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  for (uint32_t l = 0; l < loops.count; l++) {
    uint32_t first = tlv_get32(loops.p + (size_t)l * loops.stride), n = tlv_get32(loops.p + (size_t)l * loops.stride + 4);
    int64_t sum = 0, top_x = INT64_MAX, top_y = INT64_MAX;
    uint32_t top_dir = 0;
    for (uint32_t k = 0; k < n; k++) {
      const uint8_t *c = crnr.p + (size_t)(first + k) * crnr.stride, *c2 = crnr.p + (size_t)(first + (k + 1) % n) * crnr.stride;
      uint32_t rx = (uint32_t)(c[0] | c[1] << 8), ry = (uint32_t)(c[2] | c[3] << 8);
      uint32_t nx = (uint32_t)(c2[0] | c2[1] << 8) & 0x7FFF, ny = (uint32_t)(c2[2] | c2[3] << 8) & 0x7FFF;
      uint32_t dir = (rx >> 15) | (ry >> 15) << 1, x = rx & 0x7FFF, y = ry & 0x7FFF;
      sum += (int64_t)x * ny - (int64_t)nx * y;
      if (y < top_y || (y == top_y && x < top_x)) {
        top_x = x;
        top_y = y;
        top_dir = dir;
      }
      /* Walk the edge a lattice step at a time: the cell on its right is
       * solid, the one on its left is not (screen, y down). */
      int64_t px = x, py = y;
      uint32_t steps = 0;
      while ((px != nx || py != ny) && steps++ <= 32768) {
        int64_t qx = px + dx[dir], qy = py + dy[dir];
        /* the unit edge (px,py)-(qx,qy): its right-hand and left-hand cells */
        int64_t rxc = dir == 0 ? px : dir == 1 ? px - 1
                                  : dir == 2   ? qx
                                               : px,
                ryc = dir == 0 ? py : dir == 1 ? py
                                  : dir == 2   ? py - 1
                                               : qy;
        int64_t lxc = dir == 0 ? px : dir == 1 ? px
                                  : dir == 2   ? qx
                                               : px - 1,
                lyc = dir == 0 ? py - 1 : dir == 1 ? py
                                      : dir == 2   ? py
                                                   : qy;
        CHECK_MSG(solid(&g, rxc, ryc) && !solid(&g, lxc, lyc), "%s: loop %u corner %u: solid is not on the right of the edge at (%lld, %lld)",
                  what, l, k, (long long)px, (long long)py);
        px = qx;
        py = qy;
      }
      CHECK_MSG(px == nx && py == ny, "%s: loop %u corner %u: the edge heading %u does not reach the next corner", what, l, k, dir);
    }
    /* At the loop's top-left corner, an outer outline has solid inside,
     * below-right of it; a hole has it outside. */
    bool is_outer = solid(&g, top_x, top_y);
    CHECK_MSG(is_outer ? sum > 0 : sum < 0, "%s: loop %u (%s) has shoelace sum %lld", what, l, is_outer ? "outer" : "hole", (long long)sum);
    CHECK(top_dir == (is_outer ? 0u : 1u)); /* clockwise leaves the top-left corner east; counter-clockwise, south */
    if (is_outer) (*outer)++;
    else (*holes)++;
  }
}

static void loops_keep_solid_on_the_right(void) {
  uint32_t outer = 0, holes = 0;
  for (size_t i = 0; i < 2; i++) {
    size_t size = 0;
    uint8_t *d = source_file(GOLDEN[i], &size);
    if (!d) continue;
    loops_of(d, size, &outer, &holes, GOLDEN[i]);
    free(d);
  }
  for (uint64_t seed = 1; seed <= 6; seed++) {
    size_t size = 0;
    uint8_t *d = fixture_tlv(seed, false, &size);
    if (!d) continue;
    loops_of(d, size, &outer, &holes, "fixture");
    tess_free(d);
  }
  printf("  %u outer outlines, %u holes\n", outer, holes);
  CHECK(outer > 0 && holes > 0);
}

/* ---- The header checksum covers header_size bytes ---------------------- */

static void header_checksum_covers_header_size(void) {
  size_t size = 0;
  uint8_t *d = source_file(GOLDEN[0], &size);
  if (!d) return;
  /* The same file with an 80-byte header: 16 zero bytes after byte 64, every section 16 bytes later. */
  size_t big = size + 16;
  uint8_t *b = calloc(1, big);
  memcpy(b, d, 64);
  memcpy(b + 80, d + 64, size - 64);
  tlv_put32(b + 16, 80);
  tlv_put64(b + 24, big);
  uint32_t n = tlv_get32(b + 20);
  for (uint32_t i = 0; i < n; i++) tlv_put64(b + 80 + 32 * (size_t)i + 8, tlv_get64(b + 80 + 32 * (size_t)i + 8) + 16);
  tlv_reseal(b, big); /* the header checksum over all 80 bytes */
  TlvLevel lv;
  TlvError err;
  CHECK_MSG(tlv_open(b, big, 0, &lv, &err) == TLV_OK, "80-byte header: %s", err.message);
  /* A checksum over the first 64 bytes only is refused. */
  uint8_t head[64];
  memcpy(head, b, 64);
  memset(head + 52, 0, 4);
  tlv_put32(b + 52, tlv_checksum(head, 64) ^ tlv_checksum(b + 80, (size_t)n * 32));
  CHECK(tlv_open(b, big, 0, &lv, &err) == TLV_ERR_CHECKSUM && err.offset == 52);
  free(b);
  free(d);
}

/* ---- Pin anchors ------------------------------------------------------------ */

static void pin_anchor_b_is_what_the_spec_says(void) {
  const char *build = getenv("TESS_BUILD_ROOT");
  char demo[2048];
  snprintf(demo, sizeof demo, "%s/data/demo/demo.tessera", build ? build : ".");
  if (access(demo, R_OK) != 0) {
    printf("  (no demo project at %s: skipped)\n", demo);
    return;
  }
  TessProject *p = tess_test_load_read_only(demo);
  TessError err;
  if (!p) return;
  uint32_t pins = 0, auto_pins = 0;
  for (uint32_t li = 0; li < p->level_count; li++) {
    const TessLevel *level = p->levels[li];
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK_OK(tess_pack_write(p, level, NULL, &data, &size, &err), &err);
    if (!data) continue;
    TlvLevel lv;
    TlvError terr;
    CHECK(tlv_open(data, size, 0, &lv, &terr) == TLV_OK);
    float inv_ppm = 1.0f / level->settings.ppm;
    for (uint32_t i = 0; i < lv.joints.count; i++) {
      TlvJoint j;
      CHECK(tlv_joint(&lv, i, &j));
      if (j.kind != TLV_JOINT_PIN) continue;
      if (j.flags & TLV_JOINT_AUTO_PIN) {
        CHECK(j.object_id == 0 && j.bx == j.ax && j.by == j.ay);
        auto_pins++;
      } else {
        const TessObject *o = tess_level_object(level, j.object_id, NULL);
        CHECK(o && o->kind == TESS_OBJECT_JOINT);
        if (!o) continue;
        CHECK(j.bx == o->u.joint.anchor_b.x * inv_ppm && j.by == o->u.joint.anchor_b.y * inv_ppm);
        pins++;
      }
    }
    tess_free(data);
  }
  printf("  %u level pins, %u auto-pins\n", pins, auto_pins);
  CHECK(pins > 0);
  tess_project_destroy(p);
}

/* ---- Older files ------------------------------------------------------------- */

static uint64_t world_hash(const uint8_t *d, size_t size, int steps) {
  TlvLevel lv;
  TlvError terr;
  if (tlv_open(d, size, 0, &lv, &terr) != TLV_OK) {
    CHECK_MSG(0, "%s", terr.message);
    return 0;
  }
  TessScene *scene = NULL;
  TessWorld *world = NULL;
  TessError err;
  uint64_t h = 0;
  CHECK_OK(tess_scene_from_pack(&lv, &scene, &err), &err);
  if (scene) CHECK_OK(tess_world_create_from_scene(scene, NULL, &world, NULL, &err), &err);
  for (int i = 0; world && i < steps; i++) tess_world_step(world, 1.0f / lv.settings.physics_hz, &err);
  if (world) h = tess_world_hash(world);
  tess_world_destroy(world);
  tess_scene_destroy(scene);
  return h;
}

/* The demo's golden files of an older minor version still load, and their
 * worlds step exactly as the current files' of the same levels do. The demo's
 * Top-down level has since gained a turnstile, and its Side level a ragdoll:
 * their current-format files from before that (format 3.4) stand in for them. */
static void old_demo_files_simulate_alike(const char *const old[2], uint16_t minor) {
  static const char *same[] = {"tests/golden/format-3.4/Side.tlv", "tests/golden/format-3.4/Top-down.tlv"};
  for (size_t i = 0; i < 2; i++) {
    size_t osize = 0, nsize = 0;
    uint8_t *o = source_file(old[i], &osize), *n = source_file(same[i], &nsize);
    if (o && n) {
      TlvLevel lv;
      TlvError err;
      CHECK_MSG(tlv_open(o, osize, 0, &lv, &err) == TLV_OK, "%s: %s", old[i], err.message);
      CHECK(lv.header.major == 3 && lv.header.minor == minor);
      uint64_t ho = world_hash(o, osize, 600), hn = world_hash(n, nsize, 600);
      CHECK_MSG(ho == hn && ho != 0, "%s: world hash %016llx after 600 steps, the current file's %016llx", old[i], (unsigned long long)ho,
                (unsigned long long)hn);
    }
    free(o);
    free(n);
  }
}

/* 3.4 places tiles at their own size (TSET grows to 72 bytes): a 3.2 file,
 * whose tilesets all read as scaled into the cell, still loads, its
 * tilesets say so, and its world is the current file's (the demo's tiles
 * are the grid's size, so both placements put them on the cell). */
static void format_3_2_files_load_and_simulate_alike(void) {
  static const char *old[] = {"tests/golden/format-3.2/Side.tlv", "tests/golden/format-3.2/Top-down.tlv"};
  old_demo_files_simulate_alike(old, 2);
  size_t size = 0;
  uint8_t *d = source_file(old[0], &size);
  if (!d) return;
  TlvLevel lv;
  TlvError err;
  CHECK_MSG(tlv_open(d, size, 0, &lv, &err) == TLV_OK, "%s", err.message);
  CHECK(lv.tilesets.stride == TLV_TILESET_SIZE && lv.tilesets.count > 0);
  for (uint32_t i = 0; i < lv.tilesets.count; i++) {
    TlvTileset tt;
    CHECK(tlv_tileset(&lv, i, &tt) && tt.placement == TLV_PLACE_FIT_CELL && tt.offset_x == 0 && tt.offset_y == 0);
  }
  free(d);
}

/* 3.5 (draw order) and 3.6 (pixel masks) add sections (PMSK, PBIT): the demo's last 3.4 files (tests/golden/format-3.4/last,
 * written by writer 8 just before) still load and step exactly as the current files of the same
 * levels do. The demo's Top-down level has since gained a grove and its Runner: its 3.8 file from
 * before that (tests/golden/format-3.8, exported by writer 12) stands in for it. */
static void format_3_4_files_load_and_simulate_alike(void) {
  static const char *old[] = {"tests/golden/format-3.4/last/Side.tlv", "tests/golden/format-3.4/last/Top-down.tlv"};
  static const char *now[] = {"tests/golden/demo/Side.tlv", "tests/golden/format-3.8/Top-down.tlv"};
  for (size_t i = 0; i < 2; i++) {
    size_t osize = 0, nsize = 0;
    uint8_t *o = source_file(old[i], &osize), *n = source_file(now[i], &nsize);
    if (o && n) {
      TlvLevel lv;
      TlvError err;
      CHECK_MSG(tlv_open(o, osize, 0, &lv, &err) == TLV_OK, "%s: %s", old[i], err.message);
      CHECK(lv.header.major == 3 && lv.header.minor == 4);
      uint64_t ho = world_hash(o, osize, 600), hn = world_hash(n, nsize, 600);
      CHECK_MSG(ho == hn && ho != 0, "%s: world hash %016llx after 600 steps, the current file's %016llx", old[i],
                (unsigned long long)ho, (unsigned long long)hn);
    }
    CHECK(o && n);
    free(o);
    free(n);
  }
}

/* 3.3 (terrain sets) kept TSET at 64 bytes: its files read as scaled into the cell too. */
static void format_3_3_files_load_and_simulate_alike(void) {
  static const char *old[] = {"tests/golden/format-3.3/Side.tlv", "tests/golden/format-3.3/Top-down.tlv"};
  old_demo_files_simulate_alike(old, 3);
  size_t size = 0;
  uint8_t *d = source_file(old[1], &size);
  if (!d) return;
  TlvLevel lv;
  TlvError err;
  CHECK_MSG(tlv_open(d, size, 0, &lv, &err) == TLV_OK, "%s", err.message);
  CHECK(lv.tilesets.stride == TLV_TILESET_SIZE);
  for (uint32_t i = 0; i < lv.tilesets.count; i++) {
    TlvTileset tt;
    CHECK(tlv_tileset(&lv, i, &tt) && tt.placement == TLV_PLACE_FIT_CELL);
  }
  free(d);
}

/* 3.6 (per-body integrator in BODY byte 73, spring zones) changed no record's size: the demo's
 * 3.4 files load with every body on Euler, and step exactly as the same bytes marked 3.6 do (where
 * byte 73 of their bodies, 0, now says Euler). */
static void format_3_4_files_read_every_body_on_euler(void) {
  static const char *old[] = {"tests/golden/format-3.4/Side.tlv", "tests/golden/format-3.4/Top-down.tlv"};
  for (size_t i = 0; i < 2; i++) {
    size_t size = 0;
    uint8_t *o = source_file(old[i], &size);
    if (!o) continue;
    TlvLevel lv;
    TlvError err;
    CHECK_MSG(tlv_open(o, size, 0, &lv, &err) == TLV_OK, "%s: %s", old[i], err.message);
    CHECK(lv.header.major == 3 && lv.header.minor == 4 && lv.bodies.count > 0);
    for (uint32_t k = 0; k < lv.bodies.count; k++) {
      TlvBody b;
      CHECK(tlv_body(&lv, k, &b) && b.integrator == TLV_INTEGRATOR_EULER);
    }
    uint64_t ho = world_hash(o, size, 600);
    o[10] = (uint8_t)TLV_VERSION_MINOR;
    tlv_reseal(o, size);
    CHECK_MSG(tlv_open(o, size, 0, &lv, &err) == TLV_OK && lv.header.minor == TLV_VERSION_MINOR, "%s as the current minor: %s", old[i], err.message);
    uint64_t hn = world_hash(o, size, 600);
    CHECK_MSG(ho == hn && ho != 0, "%s: world hash %016llx after 600 steps, as the current minor %016llx", old[i], (unsigned long long)ho,
              (unsigned long long)hn);
    free(o);
  }
}

static void format_3_1_files_load_and_simulate_alike(void) {
  static const char *old[] = {"tests/golden/format-3.1/Side.tlv", "tests/golden/format-3.1/Top-down.tlv"};
  old_demo_files_simulate_alike(old, 1);
  /* The 3.1 seed with its counter-clockwise pieces: fine as 3.1, refused as 3.2. */
  size_t size = 0;
  uint8_t *d = source_file("tests/golden/format-3.1/seed-2.tlv", &size);
  if (!d) return;
  TlvLevel lv;
  TlvError err;
  CHECK_MSG(tlv_open(d, size, 0, &lv, &err) == TLV_OK, "3.1 seed: %s", err.message);
  d[10] = 2;
  tlv_reseal(d, size);
  CHECK(tlv_open(d, size, 0, &lv, &err) == TLV_ERR_VALUE && strstr(err.message, "counter-clockwise") != NULL);
  free(d);
}

/* ---- Flips of a non-square tile ------------------------------------------ */

/* A 16 x 8 tile traced with one triangle, placed in all eight flips on a
 * level of 16 x 16 cells: each collision entry's piece is FORMAT.md's
 * placement (transpose first, then the mirrors within the transposed
 * extent), clockwise. Scaled into the cell (fit_cell, every file before
 * 3.4): the per-axis scale to the cell, and with the diagonal flip the
 * piece spans 8 x 32 level pixels (th * tile_w / tw by tw * tile_h / th),
 * not the cell. At its own size (3.4): from the drawn rectangle, whose
 * bottom-left corner is the cell's moved by the offset, turned or not
 * (a turned 16 x 8 tile spans 8 x 16 from there). */
static void non_square_tiles_flip_as_the_spec_says_with(bool fit, int32_t ox, int32_t oy) {
  TessProject *p = tess_project_create();
  TessError err;
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "wide";
  def.source_path = "wide.png";
  def.image_w = 32;
  def.image_h = 8;
  def.tile_w = 16;
  def.tile_h = 8;
  def.default_collision = TESS_TILE_COLLISION_FULL;
  def.fit_cell = fit ? 1 : 0;
  def.offset_x = ox;
  def.offset_y = oy;
  TessId ts = 0;
  CHECK_OK(tess_edit_tileset_add(p, &def, &ts, &err), &err);
  TessTileset copy;
  memset(&copy, 0, sizeof copy);
  CHECK_OK(tess_tileset_copy(&copy, tess_project_tileset(p, ts)), &err);
  TessPolygon tri = {3, {{0, 0}, {12, 0}, {0, 6}}};
  copy.tiles[0].collision = TESS_TILE_COLLISION_TRACED;
  copy.tiles[0].piece_count = 1;
  copy.tiles[0].pieces = tess_alloc(sizeof tri);
  copy.tiles[0].pieces[0] = tri;
  CHECK_OK(tess_edit_tileset_set(p, &copy, 0, &err), &err);
  tess_tileset_clear(&copy);
  TessLevelSettings st;
  tess_level_settings_default(&st);
  snprintf(st.name, sizeof st.name, "Flips");
  st.width = 8;
  st.height = 1;
  st.tile_w = 16;
  st.tile_h = 16;
  st.ppm = 16.0f;
  TessId level = 0, layer = 0;
  CHECK_OK(tess_edit_level_add(p, &st, &level, &err), &err);
  TessLevel *lv = tess_project_level(p, level);
  for (uint32_t i = 0; lv && i < lv->layer_count; i++)
    if (lv->layers[i]->props.kind == TESS_LAYER_TILES && lv->layers[i]->props.collides) layer = lv->layers[i]->props.id;
  CHECK(layer != 0);
  TessCell cells[8];
  for (uint32_t f = 0; f < 8; f++) cells[f] = TESS_CELL_MAKE(ts, 0, f << 29);
  CHECK_OK(tess_edit_set_cells(p, level, layer, 0, 0, 8, 1, cells, 0, &err), &err);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(p, lv, NULL, &data, &size, &err), &err);
  TlvLevel t;
  TlvError terr;
  CHECK_MSG(data && tlv_open(data, size, 0, &t, &terr) == TLV_OK, "%s", data ? terr.message : "no file");
  uint32_t seen = 0;
  bool tall = false;
  for (uint32_t e = 0; data && e < t.collision_palette.count; e++) {
    TlvCollisionEntry ce;
    CHECK(tlv_collision_entry(&t, e, &ce));
    if (ce.kind != 2) continue;
    CHECK(ce.polygon_count == 1);
    /* the spec's placement, by this test's own arithmetic */
    double x[3], y[3], sum = 0;
    for (int k = 0; k < 3; k++) {
      double px = tri.v[k].x, py = tri.v[k].y, W = 16, H = 8;
      if (ce.cell & TESS_CELL_FLIP_D) px = tri.v[k].y, py = tri.v[k].x, W = 8, H = 16;
      if (ce.cell & TESS_CELL_FLIP_H) px = W - px;
      if (ce.cell & TESS_CELL_FLIP_V) py = H - py;
      if (fit) {
        x[k] = px * (16.0 / 16.0) / 16.0;
        y[k] = py * (16.0 / 8.0) / 16.0;
      } else {
        double x0 = ox, y0 = 16.0 - H + oy;
        x[k] = (x0 + px) / 16.0;
        y[k] = (y0 + py) / 16.0;
      }
    }
    for (int k = 0; k < 3; k++) sum += x[k] * y[(k + 1) % 3] - x[(k + 1) % 3] * y[k];
    TlvPolygon poly;
    CHECK(tlv_polygon(&t, ce.polygon_first, &poly) && poly.vertex_count == 3);
    for (uint32_t k = 0; k < 3; k++) {
      TlvVec2 v;
      uint32_t want = sum < 0 ? 2 - k : k;
      CHECK(tlv_vertex(&t, poly.vertex_first + k, &v));
      CHECK_MSG(fabs(v.x - x[want]) < 1e-6 && fabs(v.y - y[want]) < 1e-6, "flips 0x%x vertex %u: (%g, %g), the spec says (%g, %g)",
                ce.cell >> 29, k, v.x, v.y, x[want], y[want]);
      if ((ce.cell & TESS_CELL_FLIP_D) && (v.y > 1.0 + 1e-6 || v.y < -1e-6)) tall = true; /* beyond the 1 m cell */
    }
    seen |= 1u << (ce.cell >> 29);
  }
  CHECK_MSG(seen == 0xFF, "all eight flips seen (0x%x)", seen);
  /* Past the cell: scaled and turned, or moved up by the offset; the turned 8 x 16 tile at its own size stays in. */
  CHECK(tall == (fit || oy != 0));
  /* The placement the file says, read back. */
  TlvTileset tt;
  CHECK(data && tlv_tileset(&t, 0, &tt));
  CHECK(tt.placement == (fit ? TLV_PLACE_FIT_CELL : TLV_PLACE_NATIVE) && tt.offset_x == (fit ? 0 : ox) && tt.offset_y == (fit ? 0 : oy));
  tess_free(data);
  tess_project_destroy(p);
}

static void non_square_tiles_flip_as_the_spec_says(void) {
  non_square_tiles_flip_as_the_spec_says_with(true, 0, 0);
  non_square_tiles_flip_as_the_spec_says_with(false, 0, 0);
  non_square_tiles_flip_as_the_spec_says_with(false, 3, -5);
}

TESS_TEST_MAIN(TEST(every_polygon_is_clockwise), TEST(loops_keep_solid_on_the_right), TEST(header_checksum_covers_header_size),
               TEST(pin_anchor_b_is_what_the_spec_says), TEST(format_3_1_files_load_and_simulate_alike),
               TEST(format_3_2_files_load_and_simulate_alike), TEST(format_3_3_files_load_and_simulate_alike),
               TEST(format_3_4_files_load_and_simulate_alike), TEST(format_3_4_files_read_every_body_on_euler),
               TEST(non_square_tiles_flip_as_the_spec_says))
