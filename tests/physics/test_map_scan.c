/* The tile collider's scan of the cells under a shape (tilemap.c, physics_map_collide_shape):
 * the cell range under its box in lanes, widened by the traced pieces' reach; a row's non-empty
 * cells from the map's filled bits a 64-bit word at a time, their hot words (kind, sides,
 * corners, material) and run starts by rank; the body shape made ready once (lanes and extremes)
 * for all its cells. Checked against the plainest reading of the map: every cell of the map in
 * order, its kind, sides, corners, material and runs from the cell itself, the shape against it
 * through physics_collide_cell_swept. A map 100 cells wide puts row starts and word edges in
 * every position, so a slip at a word's edge or in the rank names a wrong cell, a wrong material
 * or a missed hit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "phys_util.h"
#include "physics_private.h"
#include "tessera/physics.h"

#define W 100u
#define H 24u

static uint32_t rng = 12345u;
static float rnd(void) { /* [0, 1) */
  rng = rng * 1664525u + 1013904223u;
  return (float)(rng >> 8) / 16777216.0f;
}

/* A regular polygon of n vertices (1: a circle) of radius r about c, turned by a. */
static PhysPoly shape_at(uint32_t n, TessVec2 c, float r, float a) {
  PhysPoly p;
  memset(&p, 0, sizeof p);
  p.count = n;
  if (n == 1) {
    p.v[0] = c;
    p.radius = r;
  } else {
    for (uint32_t i = 0; i < n; i++) {
      float t = a + 6.2831853f * (float)i / (float)n;
      p.v[i] = tess_v2(c.x + r * cosf(t), c.y + r * sinf(t));
    }
  }
  physics_poly_finish(&p);
  return p;
}

static int cmp_hit_cell(const void *a, const void *b) {
  uint32_t x = ((const MapHit *)a)->cell, y = ((const MapHit *)b)->cell;
  return x < y ? -1 : x > y;
}

/* The scan's hits for shape p moving by sweep (box: the region it is asked about) against every
 * full cell of the map tried one by one; returns the number of hits. */
static uint32_t compare_with_every_cell(TessWorld *w, const PhysPoly *p, TessAABB box, float margin, TessVec2 sweep,
                                        const char *what) {
  TessVec2 *paths = w->paths;
  w->paths = &sweep; /* body 0's path, read by the scan */
  MapHits got = {0};
  CHECK(physics_map_collide_shape(w, 7u, p, box, margin, 0u, &got));
  w->paths = paths;
  if (got.count > 0) /* qsort's array may not be NULL, even for no items */
    qsort(got.hits, got.count, sizeof *got.hits, cmp_hit_cell);
  const TileMap *m = &w->map;
  uint32_t k = 0;
  for (uint32_t ci = 0; ci < W * H; ci++) {
    const MapCell *c = &m->cells[ci];
    if (c->kind != TESS_MAP_FULL) continue;
    TessAABB cb = {{(float)(ci % W), (float)(ci / W)}, {(float)(ci % W) + 1.0f, (float)(ci / W) + 1.0f}};
    Manifold want;
    physics_collide_cell_swept(p, cb, c->free_sides, c->corners, margin, sweep, &want);
    if (want.count == 0) continue;
    if (k >= got.count || got.hits[k].cell != ci) {
      CHECK_MSG(false, "%s: cell %u (%u, %u) missed (%u hits found)", what, ci, ci % W, ci / W, got.count);
      break;
    }
    const MapHit *h = &got.hits[k++];
    CHECK_MSG(h->shape == 7u && h->material == c->material, "%s: cell %u: shape %u, material %u, the cell's %u", what,
              ci, h->shape, h->material, c->material);
    /* a hit along a face names its run's first cell, as the cell has it (here every run is one cell long) */
    if (h->along != TESS_NULL_INDEX) {
      uint32_t f = h->piece - 8u, s = c->run_start[f];
      uint32_t key = (f & 1u) == 0 ? (ci / W) * W + s : s * W + ci % W;
      CHECK_MSG(h->key_cell == key && key == ci, "%s: cell %u: run key %u, the cell's %u", what, ci, h->key_cell, key);
    }
    CHECK_MSG(h->manifold.count == want.count && h->manifold.normal.x == want.normal.x &&
                  h->manifold.normal.y == want.normal.y &&
                  memcmp(h->manifold.p, want.p, want.count * sizeof want.p[0]) == 0,
              "%s: cell %u: another manifold than the cell's own", what, ci);
  }
  CHECK_MSG(k == got.count, "%s: %u hits, %u of them on cells that give none", what, got.count, got.count - k);
  tess_free(got.hits);
  return k;
}

/* Full cells at random, none beside another (so no two hits join into one run's contact), each
 * of one of 8 materials; circles and polygons of 3 to 8 vertices at random over the map, each
 * asked about its own swept box and about the whole map (every row's cells across two or three
 * words). */
static void map_scan_finds_every_cell_the_cells_give(void) {
  TessWorldDef def;
  tess_world_def_default(&def);
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create(&def, &w, &err), &err);
  TestMap tm;
  test_map_init(&tm, W, H, 1.0f);
  uint16_t mats[8];
  mats[0] = 0;
  for (uint32_t i = 1; i < 8; i++) mats[i] = test_map_material(&tm, 0.1f * (float)i, 0.0f, 1.0f, 1000.0f, TESS_MAP_MATERIAL_SOLID);
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = (y & 1u); x < W; x += 2) /* a checkerboard's black cells: no two share a side */
      if (rnd() < 0.6f || (y * W + x) % 64 == 63 || (y * W + x) % 64 == 0) test_map_set(&tm, x, y, TESS_MAP_FULL, mats[(x * 7 + y) % 8]);
  CHECK_OK(test_map_apply(&tm, w, &err), &err);
  test_map_free(&tm);
  uint32_t hits = 0, probes = 0;
  for (uint32_t i = 0; i < 3000; i++) {
    uint32_t n = 1 + (uint32_t)(rnd() * 8.0f);
    if (n == 2) n = 1;
    float r = 0.15f + 0.6f * rnd();
    /* every fourth shape centred on a word's edge: cell 64k - 1 or 64k, wherever its row starts */
    TessVec2 c = tess_v2(rnd() * (float)W, rnd() * (float)H);
    if (i % 4 == 0) {
      uint32_t edge = 64u * (1u + (uint32_t)(rnd() * (float)(W * H / 64 - 1))) - (i % 8 == 0);
      c = tess_v2((float)(edge % W) + rnd(), (float)(edge / W) + rnd());
    }
    PhysPoly p = shape_at(n, c, r, rnd() * 6.2831853f);
    TessVec2 sweep = tess_v2(0.3f * (rnd() - 0.5f), 0.3f * (rnd() - 0.5f));
    float margin = 0.02f + 0.05f * rnd();
    TessAABB b = physics_poly_aabb(&p, tess_transform_identity());
    float grow = margin + tess_v2_length(sweep);
    b.lower = tess_v2(b.lower.x - grow, b.lower.y - grow);
    b.upper = tess_v2(b.upper.x + grow, b.upper.y + grow);
    char what[64];
    snprintf(what, sizeof what, "shape %u (%u vertices at %.2f, %.2f)", i, n, c.x, c.y);
    hits += compare_with_every_cell(w, &p, b, margin, sweep, what);
    TessAABB all = {{0.0f, 0.0f}, {(float)W, (float)H}};
    hits += compare_with_every_cell(w, &p, all, margin, sweep, what);
    probes += 2;
  }
  /* the shapes do meet cells: the comparison is not of two empty lists */
  CHECK_MSG(hits > probes / 2, "%u hits over %u probes", hits, probes);
  tess_world_destroy(w);
}

typedef struct Seen {
  uint32_t count, x0, y0, x1, y1;
} Seen;

static bool seen_cell(uint32_t x, uint32_t y, void *user) {
  Seen *s = user;
  if (s->count == 0 || x < s->x0) s->x0 = x;
  if (s->count == 0 || y < s->y0) s->y0 = y;
  if (s->count == 0 || x > s->x1) s->x1 = x;
  if (s->count == 0 || y > s->y1) s->y1 = y;
  s->count++;
  return true;
}

/* The cells under a box (cell_range, which the scan starts from, in lanes) widen by the reach of
 * a traced piece drawn past its cell, each side by its own: a piece reaching 1 cell left, 2 up, 3
 * right and 4 down of its cell on a map of 0.5 m cells at (3, -2), every other cell full, so the
 * cells a query reports are the whole rectangle, clamped to the map: for boxes inside, across
 * the edges and outside, the rectangle the scalar steps give (the box less the right reach on the
 * left, and so on; floor; clamp). A side's reach taken for another's moves an edge. */
static void map_query_widens_each_side_by_its_reach(void) {
  enum { MW = 40,
         MH = 30 };
  TessWorldDef def;
  tess_world_def_default(&def);
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create(&def, &w, &err), &err);
  static uint8_t kinds[MW * MH];
  static uint32_t start[MW * MH + 1];
  uint32_t traced = 12u * MW + 17u;
  for (uint32_t i = 0; i < MW * MH; i++) kinds[i] = i == traced ? TESS_MAP_TRACED : TESS_MAP_FULL;
  for (uint32_t i = 0; i <= MW * MH; i++) start[i] = i > traced ? 1u : 0u;
  TessPolygon piece = {4, {{-0.25f, -0.75f}, {1.75f, -0.75f}, {1.75f, 2.1f}, {-0.25f, 2.1f}}};
  TessMapMaterial mat = {0};
  mat.friction = 0.5f;
  mat.tangential = 1.0f;
  mat.density = 1000.0f;
  mat.kind = TESS_MAP_MATERIAL_SOLID;
  TessTileMapDef d;
  memset(&d, 0, sizeof d);
  d.width = MW;
  d.height = MH;
  d.cell_w = d.cell_h = 0.5f;
  d.origin = tess_v2(3.0f, -2.0f);
  d.kinds = kinds;
  d.material_count = 1;
  d.material_list = &mat;
  d.piece_start = start;
  d.pieces = &piece;
  CHECK_OK(tess_world_set_tile_map(w, &d, &err), &err);
  CHECK_MSG(w->map.reach_l == 1 && w->map.reach_t == 2 && w->map.reach_r == 3 && w->map.reach_b == 4,
            "reach l %u t %u r %u b %u, the piece's 1 2 3 4", w->map.reach_l, w->map.reach_t, w->map.reach_r,
            w->map.reach_b);
  uint32_t inside = 0, clamped = 0, missed = 0;
  for (uint32_t i = 0; i < 4000; i++) {
    TessVec2 lo = tess_v2(3.0f + (rnd() * 1.4f - 0.2f) * 20.0f, -2.0f + (rnd() * 1.4f - 0.2f) * 15.0f);
    TessAABB box = {lo, tess_v2(lo.x + 3.0f * rnd(), lo.y + 3.0f * rnd())};
    Seen seen = {0};
    tess_world_query_map_aabb(w, box, seen_cell, &seen);
    /* the scalar steps: each side less the reach of the other side's pieces, in cells, floored */
    float lx = ((box.lower.x - 3.0f * 0.5f) - 3.0f) * 2.0f, ux = ((box.upper.x + 1.0f * 0.5f) - 3.0f) * 2.0f;
    float ly = ((box.lower.y - 4.0f * 0.5f) + 2.0f) * 2.0f, uy = ((box.upper.y + 2.0f * 0.5f) + 2.0f) * 2.0f;
    if (!(ux >= 0.0f) || !(uy >= 0.0f) || !(lx < (float)MW) || !(ly < (float)MH)) {
      CHECK_MSG(seen.count == 0, "box %u: %u cells reported for a box off the map", i, seen.count);
      missed++;
      continue;
    }
    uint32_t x0 = lx < 0.0f ? 0u : (uint32_t)floorf(lx), y0 = ly < 0.0f ? 0u : (uint32_t)floorf(ly);
    uint32_t x1 = ux >= (float)MW ? MW - 1u : (uint32_t)floorf(ux), y1 = uy >= (float)MH ? MH - 1u : (uint32_t)floorf(uy);
    bool edge = lx < 0.0f || ly < 0.0f || ux >= (float)MW || uy >= (float)MH;
    clamped += edge;
    inside += !edge;
    CHECK_MSG(seen.count == (x1 - x0 + 1) * (y1 - y0 + 1) && seen.x0 == x0 && seen.y0 == y0 && seen.x1 == x1 &&
                  seen.y1 == y1,
              "box %u: cells %u..%u x %u..%u (%u), expected %u..%u x %u..%u", i, seen.x0, seen.x1, seen.y0, seen.y1,
              seen.count, x0, x1, y0, y1);
  }
  CHECK_MSG(inside > 100 && clamped > 100 && missed > 100, "boxes inside %u, across an edge %u, off the map %u", inside,
            clamped, missed);
  tess_world_destroy(w);
}

TESS_TEST_MAIN(TEST(map_scan_finds_every_cell_the_cells_give), TEST(map_query_widens_each_side_by_its_reach))
