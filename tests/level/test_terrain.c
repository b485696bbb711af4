/* core/level terrain: the Wang fill's promises. On complete sets every shared
 * corner and edge agrees after random strokes, rectangles and fills; on
 * incomplete sets the tile matching the most positions wins; the same
 * stroke gives the same tiles; a stroke is one undo step that restores the
 * exact cells; chosen tiles carry their collision and material; the set's
 * own edits validate, copy and undo. */
#include "fixture.h"
#include "terrain_fixture.h"

#define LW 48
#define LH 40

typedef struct World {
  TessProject *p;
  TessId tileset, level, layer;
} World;

static void world_make(World *w, const TessTerrainSet *set, uint32_t width, uint32_t height) {
  TessError err;
  w->p = tess_project_create();
  w->tileset = terrain_fixture_tileset(w->p, set);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  s.width = width;
  s.height = height;
  CHECK_OK(tess_edit_level_add(w->p, &s, &w->level, &err), &err);
  const TessLevel *level = tess_project_level(w->p, w->level);
  w->layer = level->layers[0]->props.id;
}

static const TessTerrainSet *world_set(const World *w) { return &tess_project_tileset(w->p, w->tileset)->terrains[0]; }
static const TessLayer *world_layer(const World *w) {
  return tess_level_layer(tess_project_level(w->p, w->level), w->layer);
}

/* Every pair of neighbouring labelled cells agrees on what they share:
 * returns the number of disagreements (and prints the first). */
static int mismatches(const World *w, uint32_t width, uint32_t height) {
  const TessTerrainSet *set = world_set(w);
  const TessLayer *L = world_layer(w);
  int bad = 0;
  /* (dx, dy) of the neighbour, then pairs (my position, its position). */
  static const struct {
    int dx, dy, n;
    int a[3], b[3];
  } rel[] = {{1, 0, 3, {2, 1, 3}, {6, 7, 5}}, {0, 1, 3, {4, 5, 3}, {0, 7, 1}}, {1, 1, 1, {3}, {7}}, {-1, 1, 1, {5}, {1}}};
  for (uint32_t y = 0; y < height; y++)
    for (uint32_t x = 0; x < width; x++) {
      uint8_t a[8], b[8];
      if (!tess_terrain_cell_labels(set, w->tileset, tess_layer_cell(L, x, y), a)) continue;
      for (size_t r = 0; r < sizeof rel / sizeof rel[0]; r++) {
        int64_t nx = (int64_t)x + rel[r].dx, ny = (int64_t)y + rel[r].dy;
        if (nx < 0 || nx >= width || ny >= height) continue;
        if (!tess_terrain_cell_labels(set, w->tileset, tess_layer_cell(L, (uint32_t)nx, (uint32_t)ny), b)) continue;
        for (int k = 0; k < rel[r].n; k++)
          if (a[rel[r].a[k]] != b[rel[r].b[k]]) {
            if (!bad)
              fprintf(stderr, "  cell (%u,%u) position %d = %u, cell (%lld,%lld) position %d = %u\n", x, y,
                      rel[r].a[k], a[rel[r].a[k]], (long long)nx, (long long)ny, rel[r].b[k], b[rel[r].b[k]]);
            bad++;
          }
      }
    }
  return bad;
}

/* Every labelled position of a painted cell has the painted colour. */
static bool all_color(const World *w, uint32_t x, uint32_t y, uint32_t color) {
  uint8_t lab[8];
  const TessTerrainSet *set = world_set(w);
  if (!tess_terrain_cell_labels(set, w->tileset, tess_layer_cell(world_layer(w), x, y), lab)) return false;
  uint8_t mask = tess_terrain_kind_mask((TessTerrainKind)set->kind);
  for (int k = 0; k < 8; k++)
    if ((mask >> k) & 1 && lab[k] != color) return false;
  return true;
}

/* A random walk of dabs (a stroke), each dab one call with the drag's key. */
static void random_stroke(World *w, TessTestRng *rng, const TessTerrainBrush *brush, uint32_t dabs) {
  TessError err;
  uint32_t key = tess_project_new_merge_key(w->p);
  int64_t x = tess_rng_below(rng, LW), y = tess_rng_below(rng, LH);
  for (uint32_t d = 0; d < dabs; d++) {
    uint32_t xy[2] = {(uint32_t)x, (uint32_t)y};
    CHECK_OK(tess_edit_terrain_cells(w->p, w->level, w->layer, brush, xy, 1, key, &err), &err);
    CHECK_MSG(all_color(w, xy[0], xy[1], brush->color), "dab (%u,%u) is not all colour %u", xy[0], xy[1], brush->color);
    x += (int64_t)tess_rng_below(rng, 3) - 1;
    y += (int64_t)tess_rng_below(rng, 3) - 1;
    x = x < 0 ? 0 : x >= LW ? LW - 1
                            : x;
    y = y < 0 ? 0 : y >= LH ? LH - 1
                            : y;
  }
}

static void complete_sets_match_every_neighbour(void) {
  TessTestRng rng = {0xC0FFEE};
  static const struct {
    TessTerrainKind kind;
    uint32_t colors;
  } kinds[] = {{TESS_TERRAIN_CORNER, 2}, {TESS_TERRAIN_CORNER, 3}, {TESS_TERRAIN_EDGE, 2}, {TESS_TERRAIN_EDGE, 3}, {TESS_TERRAIN_MIXED, 2}};
  TessError err;
  for (int round = 0; round < 20; round++) {
    TessTerrainSet set;
    size_t k = (size_t)round % (sizeof kinds / sizeof kinds[0]);
    terrain_fixture_set(&set, &rng, kinds[k].kind, kinds[k].colors, 1.0, kinds[k].kind == TESS_TERRAIN_MIXED ? 0 : 30);
    CHECK(tess_terrain_set_complete(&set));
    World w;
    world_make(&w, &set, LW, LH);
    TessTerrainBrush brush = {w.tileset, 0, 1, (uint32_t)round};
    for (int op = 0; op < 30; op++) {
      brush.color = tess_rng_below(&rng, set.color_count) + 1;
      uint32_t what = tess_rng_below(&rng, 5);
      if (what <= 2) {
        random_stroke(&w, &rng, &brush, 1 + tess_rng_below(&rng, 40));
      } else if (what == 3) {
        int32_t x = (int32_t)tess_rng_below(&rng, LW + 8) - 4, y = (int32_t)tess_rng_below(&rng, LH + 8) - 4;
        uint32_t rw = 1 + tess_rng_below(&rng, 20), rh = 1 + tess_rng_below(&rng, 20);
        CHECK_OK(tess_edit_terrain_rect(w.p, w.level, w.layer, &brush, x, y, rw, rh, 0, &err), &err);
        for (int64_t yy = y < 0 ? 0 : y; yy < (int64_t)y + rh && yy < LH; yy++)
          for (int64_t xx = x < 0 ? 0 : x; xx < (int64_t)x + rw && xx < LW; xx++)
            CHECK(all_color(&w, (uint32_t)xx, (uint32_t)yy, brush.color));
      } else {
        CHECK_OK(tess_edit_terrain_fill(w.p, w.level, w.layer, &brush, tess_rng_below(&rng, LW),
                                        tess_rng_below(&rng, LH), 0, &err),
                 &err);
      }
      int bad = mismatches(&w, LW, LH);
      CHECK_MSG(bad == 0, "round %d (kind %d, %u colours) op %d: %d shared corners/edges disagree", round,
                kinds[k].kind, kinds[k].colors, op, bad);
      if (bad) break;
    }
    tess_terrain_set_clear(&set);
    tess_project_destroy(w.p);
  }
}

/* A corner set with grass (1), water (2) and one transition: water in the
 * top-left corner only. Painting water on one cell of a grass field needs,
 * on its right neighbour, water on the left corners and grass on the right:
 * no tile has that; all-grass and all-water match 2 corners, the transition
 * matches 3 (its top-left, and both right ones), and wins. */
static void incomplete_set_takes_the_most_matching_tile(void) {
  TessError err;
  TessTerrainSet set;
  tess_terrain_set_init(&set, "Pond", TESS_TERRAIN_CORNER);
  CHECK_OK(tess_terrain_set_add_color(&set, "Grass", 0x00ff00ff, NULL, &err), &err);
  CHECK_OK(tess_terrain_set_add_color(&set, "Water", 0x0000ffff, NULL, &err), &err);
  const uint8_t grass[8] = {0, 1, 0, 1, 0, 1, 0, 1}, water[8] = {0, 2, 0, 2, 0, 2, 0, 2};
  const uint8_t tl_water[8] = {0, 1, 0, 1, 0, 1, 0, 2};
  CHECK_OK(tess_terrain_set_label(&set, 10, grass, 1, &err), &err);
  CHECK_OK(tess_terrain_set_label(&set, 20, water, 1, &err), &err);
  CHECK_OK(tess_terrain_set_label(&set, 30, tl_water, 1, &err), &err);
  CHECK(!tess_terrain_set_complete(&set));
  World w;
  world_make(&w, &set, 8, 8);
  TessTerrainBrush brush = {w.tileset, 0, 1, 7};
  CHECK_OK(tess_edit_terrain_rect(w.p, w.level, w.layer, &brush, 0, 0, 8, 8, 0, &err), &err);
  for (uint32_t y = 0; y < 8; y++)
    for (uint32_t x = 0; x < 8; x++) CHECK(tess_layer_cell(world_layer(&w), x, y) == TESS_CELL_MAKE(w.tileset, 10, 0));
  brush.color = 2;
  uint32_t xy[2] = {3, 3};
  CHECK_OK(tess_edit_terrain_cells(w.p, w.level, w.layer, &brush, xy, 1, 0, &err), &err);
  const TessLayer *L = world_layer(&w);
  CHECK(tess_layer_cell(L, 3, 3) == TESS_CELL_MAKE(w.tileset, 20, 0));
  /* Bottom-right neighbour: water top-left only, an exact match. */
  CHECK(tess_layer_cell(L, 4, 4) == TESS_CELL_MAKE(w.tileset, 30, 0));
  /* Right neighbour (4,3): 3 of 4 with the transition (the row order chose it first). */
  CHECK(tess_layer_cell(L, 4, 3) == TESS_CELL_MAKE(w.tileset, 30, 0));
  /* Cells two away are untouched. */
  CHECK(tess_layer_cell(L, 5, 3) == TESS_CELL_MAKE(w.tileset, 10, 0));
  CHECK(tess_layer_cell(L, 1, 1) == TESS_CELL_MAKE(w.tileset, 10, 0));
  tess_terrain_set_clear(&set);
  tess_project_destroy(w.p);
}

/* On random incomplete sets, each painted cell (every position required to
 * be the colour) holds a tile with the most positions of that colour. */
static void incomplete_sets_paint_the_best_tile(void) {
  TessTestRng rng = {99};
  TessError err;
  for (int round = 0; round < 12; round++) {
    TessTerrainSet set;
    TessTerrainKind kind = (TessTerrainKind)(round % 3);
    terrain_fixture_set(&set, &rng, kind, kind == TESS_TERRAIN_MIXED ? 2 : 3, 0.3, 5);
    World w;
    world_make(&w, &set, LW, LH);
    TessTerrainBrush brush = {w.tileset, 0, 1, 3};
    uint8_t mask = tess_terrain_kind_mask(kind);
    for (int op = 0; op < 10; op++) {
      brush.color = tess_rng_below(&rng, set.color_count) + 1;
      int best = 0;
      for (uint32_t i = 0; i < set.tile_count; i++) {
        int n = 0;
        for (int k = 0; k < 8; k++) n += (mask >> k) & 1 && set.tiles[i].wang[k] == brush.color;
        best = n > best ? n : best;
      }
      uint32_t x = tess_rng_below(&rng, LW), y = tess_rng_below(&rng, LH);
      uint32_t xy[2] = {x, y};
      CHECK_OK(tess_edit_terrain_cells(w.p, w.level, w.layer, &brush, xy, 1, 0, &err), &err);
      uint8_t lab[8];
      CHECK(tess_terrain_cell_labels(world_set(&w), w.tileset, tess_layer_cell(world_layer(&w), x, y), lab));
      int n = 0;
      for (int k = 0; k < 8; k++) n += (mask >> k) & 1 && lab[k] == brush.color;
      CHECK_MSG(n == best, "round %d: painted cell has %d positions of colour %u, the best tile %d", round, n,
                brush.color, best);
    }
    tess_terrain_set_clear(&set);
    tess_project_destroy(w.p);
  }
}

static uint64_t layer_hash(const World *w) {
  TessHasher h;
  tess_hasher_init(&h);
  for (uint32_t y = 0; y < LH; y++)
    for (uint32_t x = 0; x < LW; x++) tess_hasher_u32(&h, tess_layer_cell(world_layer(w), x, y));
  return tess_hasher_finish(&h);
}

/* Two projects, the same strokes: the same cells (variants with weights make
 * the choice random, so this is about the seeded generator); another seed
 * gives other cells. */
static void same_stroke_gives_same_tiles(void) {
  uint64_t hashes[3];
  for (int run = 0; run < 3; run++) {
    TessTestRng set_rng = {5}, stroke_rng = {11};
    TessTerrainSet set;
    terrain_fixture_set(&set, &set_rng, TESS_TERRAIN_CORNER, 2, 1.0, 60);
    World w;
    world_make(&w, &set, LW, LH);
    TessTerrainBrush brush = {w.tileset, 0, 1, run == 2 ? 1234u : 42u};
    TessError err;
    CHECK_OK(tess_edit_terrain_rect(w.p, w.level, w.layer, &brush, 0, 0, LW, LH, 0, &err), &err);
    brush.color = 2;
    random_stroke(&w, &stroke_rng, &brush, 60);
    hashes[run] = layer_hash(&w);
    tess_terrain_set_clear(&set);
    tess_project_destroy(w.p);
  }
  CHECK(hashes[0] == hashes[1]);
  CHECK(hashes[0] != hashes[2]);
}

/* A stroke of many dabs is one undo step; undo gives back every cell exactly,
 * redo the stroke's cells exactly. */
static void stroke_is_one_step_and_undo_is_exact(void) {
  TessTestRng rng = {77};
  TessTerrainSet set;
  terrain_fixture_set(&set, &rng, TESS_TERRAIN_MIXED, 2, 1.0, 20);
  World w;
  world_make(&w, &set, LW, LH);
  TessError err;
  TessTerrainBrush brush = {w.tileset, 0, 1, 9};
  CHECK_OK(tess_edit_terrain_rect(w.p, w.level, w.layer, &brush, 2, 2, 30, 20, 0, &err), &err);
  brush.color = 2;
  random_stroke(&w, &rng, &brush, 25);
  static uint32_t before[LW * LH], after[LW * LH];
  for (uint32_t i = 0; i < LW * LH; i++) before[i] = tess_layer_cell(world_layer(&w), i % LW, i / LW);
  uint64_t project_before = tess_project_hash(w.p);
  /* A diagonal drag across the empty border, the rectangle and the water. */
  brush.color = 1;
  uint32_t key = tess_project_new_merge_key(w.p);
  for (uint32_t d = 0; d < 38; d++) {
    uint32_t xy[2] = {d, d};
    CHECK_OK(tess_edit_terrain_cells(w.p, w.level, w.layer, &brush, xy, 1, key, &err), &err);
  }
  for (uint32_t i = 0; i < LW * LH; i++) after[i] = tess_layer_cell(world_layer(&w), i % LW, i / LW);
  CHECK(memcmp(before, after, sizeof before) != 0);
  CHECK_OK(tess_project_undo(w.p, &err), &err);
  int differ = 0;
  for (uint32_t i = 0; i < LW * LH; i++) differ += tess_layer_cell(world_layer(&w), i % LW, i / LW) != before[i];
  CHECK_MSG(differ == 0, "%d cells differ after undo", differ);
  CHECK(tess_project_hash(w.p) == project_before);
  CHECK(strcmp(tess_project_redo_label(w.p), "Paint terrain") == 0);
  CHECK_OK(tess_project_redo(w.p, &err), &err);
  differ = 0;
  for (uint32_t i = 0; i < LW * LH; i++) differ += tess_layer_cell(world_layer(&w), i % LW, i / LW) != after[i];
  CHECK_MSG(differ == 0, "%d cells differ after redo", differ);
  tess_terrain_set_clear(&set);
  tess_project_destroy(w.p);
}

/* Tiles chosen by the brush bring their collision and material: water tiles
 * are fluid with no shape, grass tiles solid squares, transitions traced. */
static void chosen_tiles_carry_collision_and_material(void) {
  TessError err;
  TessProject *p = tess_project_create();
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "Ground");
  TessId ground, water;
  CHECK_OK(tess_edit_material_add(p, &m, &ground, &err), &err);
  snprintf(m.name, sizeof m.name, "Water");
  m.kind = TESS_MATERIAL_FLUID;
  CHECK_OK(tess_edit_material_add(p, &m, &water, &err), &err);
  TessTestRng rng = {3};
  TessTerrainSet set;
  terrain_fixture_set(&set, &rng, TESS_TERRAIN_CORNER, 2, 1.0, 0);
  World w = {p, 0, 0, 0};
  w.tileset = terrain_fixture_tileset(p, &set);
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(p, w.tileset)), &err);
  static TessPolygon tri = {3, {{0, 16}, {16, 16}, {16, 0}}};
  for (uint32_t i = 0; i < set.tile_count; i++) {
    TessTileInfo *t = &ts.tiles[set.tiles[i].tile];
    int waters = 0;
    for (int k = 1; k < 8; k += 2) waters += set.tiles[i].wang[k] == 2;
    t->material = waters == 4 ? water : ground;
    t->collision = waters == 4 ? TESS_TILE_COLLISION_NONE : waters == 0 ? TESS_TILE_COLLISION_FULL
                                                                        : TESS_TILE_COLLISION_TRACED;
    if (t->collision == TESS_TILE_COLLISION_TRACED) {
      t->piece_count = 1;
      t->pieces = tess_calloc(1, sizeof(TessPolygon));
      t->pieces[0] = tri;
    }
  }
  CHECK_OK(tess_edit_tileset_set(p, &ts, 0, &err), &err);
  tess_tileset_clear(&ts);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  s.width = 16;
  s.height = 16;
  CHECK_OK(tess_edit_level_add(p, &s, &w.level, &err), &err);
  TessLevel *level = tess_project_level(p, w.level);
  w.layer = level->layers[0]->props.id;
  TessTerrainBrush brush = {w.tileset, 0, 1, 0};
  CHECK_OK(tess_edit_terrain_rect(p, w.level, w.layer, &brush, 0, 0, 16, 16, 0, &err), &err);
  brush.color = 2;
  CHECK_OK(tess_edit_terrain_rect(p, w.level, w.layer, &brush, 4, 4, 6, 6, 0, &err), &err);
  TessCellCollision c;
  tess_level_cell_collision(p, level, 6, 6, &c);
  CHECK(c.material == water && c.kind == TESS_TILE_COLLISION_NONE);
  tess_level_cell_collision(p, level, 0, 0, &c);
  CHECK(c.material == ground && c.kind == TESS_TILE_COLLISION_FULL);
  tess_level_cell_collision(p, level, 3, 6, &c); /* left of the pond: a transition */
  CHECK(c.material == ground && c.kind == TESS_TILE_COLLISION_TRACED && c.tile && c.tile->piece_count == 1);
  tess_terrain_set_clear(&set);
  tess_project_destroy(p);
}

/* The set's own edits: labels sorted, unlabelled tiles leave, validation
 * names what is wrong, a tileset edit with terrain sets undoes. */
static void terrain_sets_validate_copy_and_undo(void) {
  TessError err;
  TessTerrainSet set;
  tess_terrain_set_init(&set, "Ground", TESS_TERRAIN_MIXED);
  CHECK_OK(tess_terrain_set_add_color(&set, "Dirt", 0x805020ff, NULL, &err), &err);
  uint8_t a[8] = {1, 1, 1, 1, 1, 1, 1, 1}, none[8] = {0};
  CHECK_OK(tess_terrain_set_label(&set, 9, a, 1, &err), &err);
  CHECK_OK(tess_terrain_set_label(&set, 2, a, 0.5f, &err), &err);
  CHECK(set.tile_count == 2 && set.tiles[0].tile == 2 && set.tiles[1].tile == 9);
  CHECK(tess_terrain_set_find(&set, 9) && !tess_terrain_set_find(&set, 3));
  CHECK_OK(tess_terrain_set_label(&set, 2, none, 1, &err), &err);
  CHECK(set.tile_count == 1 && set.tiles[0].tile == 9);
  uint8_t bad[8] = {3};
  CHECK(tess_terrain_set_label(&set, 4, bad, 1, &err) == TESS_ERR_INVALID && strstr(err.detail, "colour 3"));
  CHECK(tess_terrain_set_label(&set, 4, a, NAN, &err) == TESS_ERR_INVALID && strstr(err.detail, "probability"));
  CHECK_OK(tess_terrain_set_validate(&set, 16, "T", &err), &err);
  CHECK(tess_terrain_set_validate(&set, 9, "T", &err) == TESS_ERR_INVALID && strstr(err.detail, "tile 9"));
  set.colors[0].probability = -1;
  CHECK(tess_terrain_set_validate(&set, 16, "T", &err) == TESS_ERR_INVALID && strstr(err.detail, "Dirt"));
  set.colors[0].probability = 1;

  Fixture f;
  fixture_make(&f);
  uint64_t before = tess_project_hash(f.p);
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(f.p, f.tileset)), &err);
  ts.terrains = tess_calloc(1, sizeof *ts.terrains);
  ts.terrain_count = 1;
  CHECK_OK(tess_terrain_set_copy(&ts.terrains[0], &set), &err);
  ts.terrains[0].tiles[0].tile = 99; /* the fixture's tileset has 16 tiles */
  CHECK(tess_edit_tileset_set(f.p, &ts, 0, &err) == TESS_ERR_INVALID && strstr(err.detail, "Cave"));
  ts.terrains[0].tiles[0].tile = 9;
  CHECK_OK(tess_edit_tileset_set(f.p, &ts, 0, &err), &err);
  tess_tileset_clear(&ts);
  uint64_t with = tess_project_hash(f.p);
  CHECK(with != before);
  CHECK(tess_project_tileset(f.p, f.tileset)->terrain_count == 1);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK(tess_project_tileset(f.p, f.tileset)->terrain_count == 0 && tess_project_hash(f.p) == before);
  CHECK_OK(tess_project_redo(f.p, &err), &err);
  CHECK(tess_project_hash(f.p) == with);
  /* Brush errors name what is missing. */
  TessTerrainBrush brush = {f.tileset, 1, 1, 0};
  CHECK(tess_edit_terrain_rect(f.p, f.level, f.ground, &brush, 0, 0, 2, 2, 0, &err) == TESS_ERR_NOT_FOUND);
  brush.set = 0;
  brush.color = 5;
  CHECK(tess_edit_terrain_rect(f.p, f.level, f.ground, &brush, 0, 0, 2, 2, 0, &err) == TESS_ERR_INVALID &&
        strstr(err.detail, "colour 5"));
  brush.color = 1;
  CHECK(tess_edit_terrain_rect(f.p, f.level, f.materials, &brush, 0, 0, 2, 2, 0, &err) == TESS_ERR_INVALID);
  CHECK(tess_project_hash(f.p) == with);
  fixture_free(&f);
  tess_terrain_set_clear(&set);
}

/* The position a click names: corners by quadrant, edges by the triangles
 * the diagonals cut, mixed by a 3 x 3 grid with the centre for the whole tile. */
static void clicks_name_corners_and_edges(void) {
  CHECK(tess_terrain_position_at(TESS_TERRAIN_CORNER, 0.1f, 0.2f) == 7);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_CORNER, 0.9f, 0.2f) == 1);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_CORNER, 0.9f, 0.8f) == 3);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_CORNER, 0.1f, 0.8f) == 5);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_EDGE, 0.5f, 0.1f) == 0);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_EDGE, 0.9f, 0.5f) == 2);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_EDGE, 0.5f, 0.9f) == 4);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_EDGE, 0.1f, 0.5f) == 6);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_MIXED, 0.5f, 0.5f) == -1);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_MIXED, 0.9f, 0.1f) == 1);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_MIXED, 0.5f, 0.95f) == 4);
  CHECK(tess_terrain_position_at(TESS_TERRAIN_MIXED, 0.05f, 0.5f) == 6);
  /* Every position of each kind is reachable, and only those the kind looks at. */
  for (int k = 0; k < 3; k++) {
    uint8_t seen = 0;
    for (int i = 0; i <= 20; i++)
      for (int j = 0; j <= 20; j++) {
        int pos = tess_terrain_position_at((TessTerrainKind)k, (float)i / 20, (float)j / 20);
        if (pos >= 0) seen |= (uint8_t)(1u << pos);
      }
    CHECK_MSG(seen == tess_terrain_kind_mask((TessTerrainKind)k), "kind %d reaches 0x%02x", k, seen);
  }
}

TESS_TEST_MAIN(TEST(clicks_name_corners_and_edges), TEST(complete_sets_match_every_neighbour), TEST(incomplete_set_takes_the_most_matching_tile),
               TEST(incomplete_sets_paint_the_best_tile), TEST(same_stroke_gives_same_tiles),
               TEST(stroke_is_one_step_and_undo_is_exact), TEST(chosen_tiles_carry_collision_and_material),
               TEST(terrain_sets_validate_copy_and_undo))
