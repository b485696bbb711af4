/* Round trips through Tiled (issue 12):
 * - every demo level, Tessera -> TMJ -> Tessera and Tessera -> TMX ->
 *   Tessera into a new project, has its level content hash back (materials,
 *   tilesets with their tiles' collision, sprites with their masks, the
 *   level's ids, layers, cells, material layer, objects and properties);
 * - exported again, that project writes the very same map bytes;
 * - imported into a project that already has those ids, the level gets new
 *   ids and its joints still join the same bodies;
 * - a Tiled export cleans the temporary files a killed export left in its
 *   tilesets/ folder, as the .tlv export does in its own;
 * - a static body colliding by its pixels keeps its flag; the flag where it
 *   cannot act is one warning and is ignored. */
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "project_fixture.h"
#include "tessera/formats.h"
#include "tessera/image.h"
#include "tessera/pack.h"
#include "tessera/store.h"
#include "tessera/textform.h"

static TessProject *load_demo(void) {
  const char *path = getenv("TESS_DEMO_PROJECT");
  CHECK_MSG(path != NULL, "TESS_DEMO_PROJECT not set");
  if (!path) return NULL;
  return tess_test_load_read_only(path);
}

static void print_line(const char *line, void *user) {
  int *n = user;
  if ((*n)++ < 40) fprintf(stderr, "    %s\n", line);
}

static char *slurp(const char *path, size_t *size) {
  uint8_t *data = NULL;
  TessError err;
  if (tess_file_read(path, (size_t)1 << 30, &data, size, &err)) return NULL;
  return (char *)data;
}

/* Writes `level` of p as a map, reads it back into `into` (a new project when NULL); returns the project. */
static TessProject *through(const TessProject *p, const TessLevel *level, TessTiledFlavor f, const char *dir,
                            TessProject *into, TessId *level_out, char *map, size_t map_size) {
  TessError err;
  snprintf(map, map_size, "%s/%u.%s", dir, level->id, f == TESS_TILED_TMJ ? "tmj" : "tmx");
  CHECK_OK(tess_tiled_write_level(p, level, f, map, &err), &err);
  TessMapImport *imp = NULL;
  CHECK_OK(tess_map_read(map, NULL, &imp, &err), &err);
  if (!imp) return NULL;
  for (uint32_t i = 0; i < imp->warning_count; i++) fprintf(stderr, "  %s: warning: %s\n", map, imp->warnings[i]);
  CHECK_MSG(imp->warning_count == 0, "level '%s': Tessera's own map gives %u warnings", level->settings.name,
            imp->warning_count);
  TessProject *q = into ? into : tess_project_create();
  CHECK_OK(tess_map_import_apply(q, imp, into ? "again" : NULL, level_out, &err), &err);
  tess_map_import_destroy(imp);
  return q;
}

static void round_trip(TessTiledFlavor f) {
  TessProject *p = load_demo();
  if (!p) return;
  char dir[1024], map[1200], again[1200];
  snprintf(dir, sizeof dir, "%s/%s", tess_test_tmpdir(), f == TESS_TILED_TMJ ? "tmj" : "tmx");
  mkdir(dir, 0777);
  CHECK(p->level_count >= 2);
  for (uint32_t i = 0; i < p->level_count; i++) {
    const TessLevel *level = p->levels[i];
    TessId id = 0;
    TessProject *q = through(p, level, f, dir, NULL, &id, map, sizeof map);
    if (!q) continue;
    const TessLevel *back = tess_project_level(q, id);
    CHECK(back != NULL && id == level->id);
    uint64_t want = tess_level_content_hash(p, level), got = back ? tess_level_content_hash(q, back) : 0;
    CHECK_MSG(want == got, "level '%s' through %s: content hash %016llx, back %016llx", level->settings.name, map,
              (unsigned long long)want, (unsigned long long)got);
    if (want != got) {
      int n = 0;
      tess_project_diff(p, q, print_line, &n);
    }
    /* The imported project writes the same map again, byte for byte. */
    if (back) {
      snprintf(again, sizeof again, "%s/again-%u.%s", dir, level->id, f == TESS_TILED_TMJ ? "tmj" : "tmx");
      TessError err;
      CHECK_OK(tess_tiled_write_level(q, back, f, again, &err), &err);
      size_t a = 0, b = 0;
      char *x = slurp(map, &a), *y = slurp(again, &b);
      CHECK_MSG(x && y && a == b && memcmp(x, y, a) == 0, "level '%s': %s and %s differ", level->settings.name, map, again);
      tess_free(x);
      tess_free(y);
    }
    tess_project_destroy(q);
  }
  tess_project_destroy(p);
}

static void test_demo_round_trip_tmj(void) { round_trip(TESS_TILED_TMJ); }
static void test_demo_round_trip_tmx(void) { round_trip(TESS_TILED_TMX); }

/* A body on RK4 and a spring zone (with a reach, and unbounded) come back exactly through TMJ and
 * TMX; the map names them in the tessera vocabulary; a word the importer does not know as an
 * integrator is refused, naming the object. */
static void integrator_and_spring(TessTiledFlavor f) {
  TessProject *p = load_demo();
  if (!p) return;
  TessLevel *level = p->levels[0];
  TessId layer = 0;
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) layer = level->layers[i]->props.id;
  TessError err;
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "Bob");
  o.pos = tess_v2(101.25f, 70.5f);
  o.angle = 0.1f;
  o.u.body.integrator = TESS_INTEGRATOR_RK4;
  TessId bob = 0;
  CHECK_OK(tess_edit_object_add(p, level->id, layer, &o, &bob, &err), &err);
  for (int k = 0; k < 2; k++) {
    tess_object_default(&o, TESS_OBJECT_ZONE);
    snprintf(o.name, sizeof o.name, "Spring %d", k);
    o.pos = tess_v2(200.0f + 0.1f * (float)k, 80.3f);
    o.angle = 0.25f;
    o.u.zone.kind = TESS_ZONE_SPRING;
    o.u.zone.strength = 1.0f / 3.0f + (float)k;
    o.u.zone.radius = k ? 0.0f : 77.7f;
    CHECK_OK(tess_edit_object_add(p, level->id, layer, &o, NULL, &err), &err);
  }
  char dir[1024], map[1200];
  snprintf(dir, sizeof dir, "%s/springs-%s", tess_test_tmpdir(), f == TESS_TILED_TMJ ? "tmj" : "tmx");
  mkdir(dir, 0777);
  TessId id = 0;
  TessProject *q = through(p, level, f, dir, NULL, &id, map, sizeof map);
  const TessLevel *back = q ? tess_project_level(q, id) : NULL;
  uint64_t want = tess_level_content_hash(p, level), got = back ? tess_level_content_hash(q, back) : 0;
  CHECK_MSG(want == got, "through %s: content hash %016llx, back %016llx", map, (unsigned long long)want,
            (unsigned long long)got);
  if (want != got && q) {
    int n = 0;
    tess_project_diff(p, q, print_line, &n);
  }
  size_t size = 0;
  char *text = slurp(map, &size);
  CHECK(text && strstr(text, "tessera.integrator") && strstr(text, "rk4") && strstr(text, "spring"));
  tess_free(text);
  if (q) tess_project_destroy(q);
  /* a bad word */
  CHECK(tess_test_system("sed -i 's/\"rk4\"/\"leapfrog\"/' '%s'", map) == 0);
  TessMapImport *imp = NULL;
  CHECK(tess_map_read(map, NULL, &imp, &err) == TESS_ERR_FORMAT && imp == NULL);
  char owner[64];
  snprintf(owner, sizeof owner, "object %u: ", bob);
  CHECK_MSG(strstr(err.file, map) && strstr(err.detail, owner) &&
                strstr(err.detail, "tessera.integrator is \"leapfrog\", not euler or rk4"),
            "%s: %s", err.file, err.detail);
  tess_project_destroy(p);
}

static void test_integrator_and_spring_tmj(void) { integrator_and_spring(TESS_TILED_TMJ); }
static void test_integrator_and_spring_tmx(void) { integrator_and_spring(TESS_TILED_TMX); }

/* A static sprite body colliding by its pixels (issue 15) comes back exactly through TMJ and TMX with no
 * warning, and writes the same map again; the map names the flag once, only on that body. The flag on a
 * dynamic box (a hand-edited map) is one warning naming the object, and is ignored there. */
static void pixel_body(TessTiledFlavor f) {
  TessProject *p = load_demo();
  if (!p) return;
  CHECK(p->sprite_count > 0);
  if (!p->sprite_count) {
    tess_project_destroy(p);
    return;
  }
  TessLevel *level = p->levels[0];
  TessId layer = 0;
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) layer = level->layers[i]->props.id;
  TessError err;
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "Rock");
  o.pos = tess_v2(150.5f, 90.25f);
  o.angle = 0.3f;
  o.u.body.shape = TESS_BODY_SPRITE;
  o.u.body.type = TESS_BODY_STATIC;
  o.u.body.sprite = p->sprites[0]->id;
  o.u.body.collide_pixels = true;
  TessId rock = 0;
  CHECK_OK(tess_edit_object_add(p, level->id, layer, &o, &rock, &err), &err);
  /* A dynamic box with a bool property one letter short of the flag: the sed below makes it the flag. */
  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "Crate");
  o.pos = tess_v2(220.0f, 40.0f);
  o.u.body.shape = TESS_BODY_BOX;
  o.u.body.type = TESS_BODY_DYNAMIC;
  o.u.body.width = o.u.body.height = 16.0f;
  TessProperty prop;
  memset(&prop, 0, sizeof prop);
  snprintf(prop.name, sizeof prop.name, "collide_pixel");
  prop.type = TESS_PROP_BOOL;
  prop.v.b = true;
  CHECK(tess_object_set_property(&o, &prop) == 0);
  TessId crate = 0;
  CHECK_OK(tess_edit_object_add(p, level->id, layer, &o, &crate, &err), &err);
  tess_object_clear(&o);
  char dir[1024], map[1200], again[1200];
  snprintf(dir, sizeof dir, "%s/pixels-%s", tess_test_tmpdir(), f == TESS_TILED_TMJ ? "tmj" : "tmx");
  mkdir(dir, 0777);
  TessId id = 0;
  TessProject *q = through(p, level, f, dir, NULL, &id, map, sizeof map);
  const TessLevel *back = q ? tess_project_level(q, id) : NULL;
  uint64_t want = tess_level_content_hash(p, level), got = back ? tess_level_content_hash(q, back) : 0;
  CHECK_MSG(want == got, "through %s: content hash %016llx, back %016llx", map, (unsigned long long)want,
            (unsigned long long)got);
  TessLayer *in = NULL;
  const TessObject *r = back ? tess_level_object(back, rock, &in) : NULL;
  CHECK(r && r->u.body.collide_pixels && r->u.body.type == TESS_BODY_STATIC && r->u.body.shape == TESS_BODY_SPRITE);
  CHECK(r && tess_object_property(r, "collide_pixels") == NULL);
  if (back) {
    snprintf(again, sizeof again, "%s/again.%s", dir, f == TESS_TILED_TMJ ? "tmj" : "tmx");
    CHECK_OK(tess_tiled_write_level(q, back, f, again, &err), &err);
    size_t a = 0, b = 0;
    char *x = slurp(map, &a), *y = slurp(again, &b);
    CHECK_MSG(x && y && a == b && memcmp(x, y, a) == 0, "%s and %s differ", map, again);
    tess_free(x);
    tess_free(y);
  }
  size_t size = 0;
  char *text = slurp(map, &size);
  const char *at = text ? strstr(text, "collide_pixels\"") : NULL;
  CHECK_MSG(at && !strstr(at + 1, "collide_pixels\""), "%s names collide_pixels once", map);
  tess_free(text);
  if (q) tess_project_destroy(q);
  /* The flag on the dynamic box: one warning naming it; the box comes in without it, the rock keeps its own. */
  CHECK(tess_test_system("sed -i 's/collide_pixel\"/collide_pixels\"/' '%s'", map) == 0);
  TessMapImport *imp = NULL;
  CHECK_OK(tess_map_read(map, NULL, &imp, &err), &err);
  if (imp) {
    CHECK_MSG(imp->warning_count == 1, "%s: %u warnings", map, imp->warning_count);
    char crate_owner[64];
    snprintf(crate_owner, sizeof crate_owner, "object %u 'Crate': ", crate);
    for (uint32_t i = 0; i < imp->warning_count; i++)
      CHECK_MSG(strstr(imp->warnings[i], crate_owner) &&
                    strstr(imp->warnings[i], "collide_pixels is for static sprite bodies only, ignored on this dynamic box body"),
                "%s", imp->warnings[i]);
    q = tess_project_create();
    TessId id2 = 0;
    CHECK_OK(tess_map_import_apply(q, imp, NULL, &id2, &err), &err);
    back = tess_project_level(q, id2);
    const TessObject *c = back ? tess_level_object(back, crate, &in) : NULL;
    r = back ? tess_level_object(back, rock, &in) : NULL;
    CHECK(c && !c->u.body.collide_pixels && c->u.body.type == TESS_BODY_DYNAMIC && !tess_object_property(c, "collide_pixels") &&
          !tess_object_property(c, "collide_pixel"));
    CHECK(r && r->u.body.collide_pixels);
    tess_map_import_destroy(imp);
    tess_project_destroy(q);
  }
  tess_project_destroy(p);
}

static void test_pixel_body_tmj(void) { pixel_body(TESS_TILED_TMJ); }
static void test_pixel_body_tmx(void) { pixel_body(TESS_TILED_TMX); }

/* Into a project that already holds the level: every id is taken, so the
 * import gets new ones, and joints follow their bodies to them. */
static void test_ids_taken(void) {
  TessProject *p = load_demo();
  if (!p) return;
  char dir[1024], map[1200];
  snprintf(dir, sizeof dir, "%s/taken", tess_test_tmpdir());
  mkdir(dir, 0777);
  uint32_t joints = 0;
  uint32_t levels = p->level_count;
  for (uint32_t i = 0; i < levels; i++) {
    const TessLevel *level = p->levels[i];
    TessId id = 0;
    if (!through(p, level, TESS_TILED_TMJ, dir, p, &id, map, sizeof map)) break;
    const TessLevel *back = tess_project_level(p, id);
    CHECK(back && back->id != level->id && back->layer_count == level->layer_count);
    for (uint32_t l = 0; back && l < level->layer_count && l < back->layer_count; l++) {
      const TessLayer *a = level->layers[l], *b = back->layers[l];
      CHECK(a->props.id != b->props.id && a->object_count == b->object_count);
      for (uint32_t k = 0; k < a->object_count && k < b->object_count; k++) {
        const TessObject *oa = &a->objects[k], *ob = &b->objects[k];
        CHECK(oa->id != ob->id && oa->kind == ob->kind);
        if (oa->kind != TESS_OBJECT_JOINT || ob->kind != TESS_OBJECT_JOINT) continue;
        joints++;
        /* The body each end names is, in the copy, at the same layer and index as in the original. */
        TessId ends_a[2] = {oa->u.joint.body_a, oa->u.joint.body_b}, ends_b[2] = {ob->u.joint.body_a, ob->u.joint.body_b};
        for (int e = 0; e < 2; e++) {
          TessLayer *la = NULL, *lb = NULL;
          const TessObject *ba = ends_a[e] ? tess_level_object(level, ends_a[e], &la) : NULL;
          const TessObject *bb = ends_b[e] ? tess_level_object(back, ends_b[e], &lb) : NULL;
          CHECK(!ba == !bb);
          if (ba && bb)
            CHECK(ba - la->objects == bb - lb->objects && tess_level_layer_index(level, la->props.id) ==
                                                              tess_level_layer_index(back, lb->props.id));
        }
      }
    }
    /* Undo takes the whole import away in one step. */
    TessError err;
    CHECK(tess_project_can_undo(p));
    CHECK_OK(tess_project_undo(p, &err), &err);
    CHECK(tess_project_level(p, id) == NULL && p->level_count == levels);
  }
  CHECK_MSG(joints > 0, "the demo has joints to follow");
  tess_project_destroy(p);
}

static bool exists(const char *dir, const char *name) {
  char path[1400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat st;
  return lstat(path, &st) == 0;
}

static void touch(const char *dir, const char *name) {
  char path[1400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) fclose(f);
}

static size_t export_tiled(const TessProject *p, const char *dir, TessTiledFlavor f) {
  TessExportSpec spec;
  memset(&spec, 0, sizeof spec);
  spec.dir = dir;
  spec.jobs = 2;
  spec.writer = tess_tiled_export_writer(f);
  TessExport *ex = NULL;
  TessError err;
  CHECK_OK(tess_export_create(p, &spec, &ex, &err), &err);
  if (!ex) return 0;
  CHECK_OK(tess_export_run(ex, &err), &err);
  size_t removed = tess_export_stale_removed(ex);
  tess_export_destroy(ex);
  return removed;
}

static void test_stale_tileset_temporaries(void) {
  TessProject *p = load_demo();
  if (!p) return;
  for (int f = 0; f < 2; f++) {
    char dir[1024], sets[1100], outside[1100], link[1300];
    snprintf(dir, sizeof dir, "%s/stale-%d", tess_test_tmpdir(), f);
    snprintf(sets, sizeof sets, "%s/tilesets", dir);
    CHECK(export_tiled(p, dir, (TessTiledFlavor)f) == 0);
    const char *ts = f == TESS_TILED_TMJ ? "tsj" : "tsx";
    char a[64], b[64], wrong[64], foreign[64];
    /* What write_atomic names them (a killed export's pid and counter), and look-alikes that are not ours. */
    snprintf(a, sizeof a, "Terrain.%s.1f3a-2.tmp", ts);
    snprintf(b, sizeof b, "Crate.png.7b-10.tmp");
    snprintf(wrong, sizeof wrong, "Terrain.%s.zz-1.tmp", ts);
    snprintf(foreign, sizeof foreign, "notes.txt.1-2.tmp");
    touch(sets, a);
    touch(sets, b);
    touch(sets, wrong);
    touch(sets, foreign);
    snprintf(outside, sizeof outside, "%s/keep.png", tess_test_tmpdir());
    touch(tess_test_tmpdir(), "keep.png");
    snprintf(link, sizeof link, "%s/Coin.png.aa-1.tmp", sets);
    CHECK(symlink(outside, link) == 0);
    size_t removed = export_tiled(p, dir, (TessTiledFlavor)f);
    CHECK_MSG(removed == 2, "%zu stale files removed, expected 2", removed);
    CHECK(!exists(sets, a) && !exists(sets, b));
    CHECK(exists(sets, wrong) && exists(sets, foreign) && exists(sets, "Coin.png.aa-1.tmp"));
    CHECK(exists(tess_test_tmpdir(), "keep.png"));
    /* A second run finds nothing left of its own. */
    CHECK(export_tiled(p, dir, (TessTiledFlavor)f) == 0);
  }
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(test_demo_round_trip_tmj), TEST(test_demo_round_trip_tmx), TEST(test_ids_taken),
               TEST(test_stale_tileset_temporaries), TEST(test_integrator_and_spring_tmj),
               TEST(test_integrator_and_spring_tmx), TEST(test_pixel_body_tmj), TEST(test_pixel_body_tmx))
