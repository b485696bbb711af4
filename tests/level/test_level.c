/* core/level: validation, the collision rule, flips, the change log,
 * structural edits and their undo. The random edit sequences, merged drags
 * and the history bound are in test_history.c. */
#include "fixture.h"

void random_edit_sequences_undo_to_start(void);
void merged_drag_undoes_as_one_step(void);
void history_bound_drops_oldest_steps(void);
void random_edits_under_a_tight_history_bound(void);
void flood_fill_matches_reference(void);

static bool detail_has(const TessError *err, const char *word) { return strstr(err->detail, word) != NULL; }

static void material_validation_names_the_field(void) {
  TessMaterial m;
  TessError err;
  tess_material_default(&m);
  CHECK_OK(tess_material_validate(&m, &err), &err);
  struct {
    float *field;
    float value;
    const char *name;
  } bad[] = {
      {&m.friction, NAN, "friction"},
      {&m.friction, INFINITY, "friction"},
      {&m.friction, -0.1f, "friction"},
      {&m.friction, 101.0f, "friction"},
      {&m.restitution, NAN, "restitution"},
      {&m.restitution, -INFINITY, "restitution"},
      {&m.restitution, 1.5f, "restitution"},
      {&m.restitution, -1.0f, "restitution"},
      {&m.tangential, NAN, "tangential"},
      {&m.tangential, 2.0f, "tangential"},
      {&m.tangential, -0.5f, "tangential"},
      {&m.density, 0.0f, "density"},
      {&m.density, -1.0f, "density"},
      {&m.density, INFINITY, "density"},
      {&m.density, NAN, "density"},
      {&m.density, 2e6f, "density"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tess_material_default(&m);
    float *field = (float *)((char *)&m + ((char *)bad[i].field - (char *)&m));
    *field = bad[i].value;
    TessResult r = tess_material_validate(&m, &err);
    CHECK_MSG(r == TESS_ERR_INVALID, "case %zu: %s", i, tess_result_string(r));
    CHECK_MSG(detail_has(&err, bad[i].name), "case %zu detail '%s' lacks %s", i, err.detail, bad[i].name);
  }
  tess_material_default(&m);
  m.kind = (TessMaterialKind)7;
  CHECK(tess_material_validate(&m, &err) == TESS_ERR_INVALID && detail_has(&err, "kind"));
  /* The edit refuses it too and leaves the project alone. */
  Fixture f;
  fixture_make(&f);
  uint64_t before = tess_project_hash(f.p);
  tess_material_default(&m);
  m.friction = NAN;
  CHECK(tess_edit_material_add(f.p, &m, NULL, &err) == TESS_ERR_INVALID);
  CHECK(tess_project_hash(f.p) == before);
  CHECK(!tess_project_can_undo(f.p));
  fixture_free(&f);
}

static void level_size_limits(void) {
  TessLevelSettings s;
  TessError err;
  tess_level_settings_default(&s);
  CHECK_OK(tess_level_settings_validate(&s, &err), &err);
  s.width = 0;
  CHECK(tess_level_settings_validate(&s, &err) != TESS_OK && detail_has(&err, "width"));
  s.width = 16385;
  CHECK(tess_level_settings_validate(&s, &err) != TESS_OK && detail_has(&err, "width"));
  s.width = 10;
  s.height = 0;
  CHECK(tess_level_settings_validate(&s, &err) != TESS_OK && detail_has(&err, "height"));
  s.height = 16385;
  CHECK(tess_level_settings_validate(&s, &err) != TESS_OK && detail_has(&err, "height"));
  tess_level_settings_default(&s);
  s.ppm = NAN;
  CHECK(tess_level_settings_validate(&s, &err) == TESS_ERR_INVALID && detail_has(&err, "ppm"));
  tess_level_settings_default(&s);
  s.gravity.y = INFINITY;
  CHECK(tess_level_settings_validate(&s, &err) == TESS_ERR_INVALID && detail_has(&err, "gravity"));
  tess_level_settings_default(&s);
  s.floor_drag = -1;
  CHECK(tess_level_settings_validate(&s, &err) == TESS_ERR_INVALID && detail_has(&err, "floor_drag"));

  /* The largest levels (16384 a side, TESS_LEVEL_MAX_AREA cells) are
   * accepted and cost nothing until painted. */
  TessProject *p = tess_project_create();
  tess_level_settings_default(&s);
  s.width = 16384;
  s.height = TESS_LEVEL_MAX_AREA / 16384;
  TessId id = 0;
  CHECK_OK(tess_edit_level_add(p, &s, &id, &err), &err);
  TessLevel *level = tess_project_level(p, id);
  CHECK(level != NULL);
  if (level) {
    CHECK(level->layers[0]->chunks_x == 512 && level->layers[0]->chunks_y == 32);
    CHECK(tess_level_memory_bytes(level) < 4096);
    CHECK_OK(tess_edit_fill_rect(p, id, level->layers[1]->props.id, 16383, 1023, 5, 5, 0, 0, &err), &err);
  }
  /* One cell more than the area limit, and the 16384 x 16384 level that
   * cost 47 s and 5.8 GB per export job, are refused with the limit named
   * before anything is allocated; so is a resize to it. */
  s.height = TESS_LEVEL_MAX_AREA / 16384 + 1;
  CHECK(tess_edit_level_add(p, &s, NULL, &err) == TESS_ERR_LIMIT && detail_has(&err, "16777216"));
  s.height = 16384;
  int64_t before = tess_alloc_live_bytes();
  CHECK(tess_edit_level_add(p, &s, NULL, &err) == TESS_ERR_LIMIT && detail_has(&err, "16384x16384"));
  CHECK(tess_edit_level_set(p, id, &s, 0, 0, &err) == TESS_ERR_LIMIT);
  CHECK(tess_alloc_live_bytes() == before);
  /* Pixels: 4096 cells of 4096 px is 2^24 px, the float limit; one more cell is refused. */
  s.width = 4096;
  s.height = 16;
  s.tile_w = 4096;
  CHECK_OK(tess_level_settings_validate(&s, &err), &err);
  s.width = 4097;
  CHECK(tess_level_settings_validate(&s, &err) == TESS_ERR_LIMIT && detail_has(&err, "px"));
  tess_level_settings_default(&s);
  s.ppm = TESS_LEVEL_MIN_PPM / 2;
  CHECK(tess_level_settings_validate(&s, &err) == TESS_ERR_INVALID && detail_has(&err, "ppm"));
  s.width = 16385;
  CHECK(tess_edit_level_add(p, &s, NULL, &err) == TESS_ERR_LIMIT);
  s.width = 0;
  CHECK(tess_edit_level_add(p, &s, NULL, &err) == TESS_ERR_LIMIT);
  tess_project_destroy(p);
}

static void check_point(TessCell flips, TessVec2 in, float w, float h, float ex, float ey) {
  TessVec2 q = tess_cell_transform_point(TESS_CELL_MAKE(1, 0, flips), in, w, h);
  CHECK_MSG(q.x == ex && q.y == ey, "flips %08x (%g,%g) -> (%g,%g), expected (%g,%g)", flips, (double)in.x,
            (double)in.y, (double)q.x, (double)q.y, (double)ex, (double)ey);
}

static void cell_flips_move_points(void) {
  const TessCell H = TESS_CELL_FLIP_H, V = TESS_CELL_FLIP_V, D = TESS_CELL_FLIP_D;
  TessVec2 p = tess_v2(3, 5);
  /* Square 16 px tile, by hand: D swaps x and y, then H mirrors x, V mirrors y. */
  check_point(0, p, 16, 16, 3, 5);
  check_point(H, p, 16, 16, 13, 5);
  check_point(V, p, 16, 16, 3, 11);
  check_point(H | V, p, 16, 16, 13, 11);
  check_point(D, p, 16, 16, 5, 3);
  check_point(D | H, p, 16, 16, 11, 3); /* 90 degrees clockwise */
  check_point(D | V, p, 16, 16, 5, 13); /* 90 degrees anticlockwise */
  check_point(D | H | V, p, 16, 16, 11, 13);
  /* D|H is a quarter turn clockwise: the top-left corner goes top-right. */
  check_point(D | H, tess_v2(0, 0), 16, 16, 16, 0);
  /* A 32 x 16 tile transposed spans 16 x 32. */
  check_point(D | H, tess_v2(4, 2), 32, 16, 14, 4);
  check_point(D | V, tess_v2(4, 2), 32, 16, 2, 28);
}

/* The rule as DESIGN.md states it, from the layers' cells: the reference
 * collision_rows_match_cells checks the library's runs against. */
static void collision_reference(const TessProject *p, const TessLevel *level, uint32_t x, uint32_t y,
                                TessCellCollision *out) {
  memset(out, 0, sizeof *out);
  if (x >= level->settings.width || y >= level->settings.height) return;
  TessId override = 0;
  for (uint32_t i = 0; i < level->layer_count; i++) /* a level has one material layer (the lowest counts) */
    if (level->layers[i]->props.kind == TESS_LAYER_MATERIAL) {
      override = tess_layer_cell(level->layers[i], x, y);
      break;
    }
  for (uint32_t i = level->layer_count; i-- > 0;) {
    const TessLayer *layer = level->layers[i];
    if (layer->props.kind != TESS_LAYER_TILES || !layer->props.collides) continue;
    TessCell cell = tess_layer_cell(layer, x, y);
    const TessTileInfo *tile = cell ? tess_project_tile(p, cell) : NULL;
    if (!tile) continue;
    out->cell = cell;
    out->tile = tile;
    out->kind = tile->collision;
    out->one_way = tile->one_way;
    out->material = tile->material;
    break;
  }
  if (override) out->material = override;
  const TessMaterial *m = out->material ? tess_project_material(p, out->material) : NULL;
  if (!m) out->material = 0;
  if (m && m->kind == TESS_MATERIAL_SOLID && out->kind == TESS_TILE_COLLISION_NONE) {
    out->kind = TESS_TILE_COLLISION_FULL;
    out->one_way = 0;
  }
}

/* tess_level_collision_row over runs (starting mid-chunk, crossing chunk
 * columns, running off the level) and the single-cell call give what the
 * rule, restated here from DESIGN.md, gives cell by cell,
 * on random layers: several colliding tile layers and one that does not,
 * flips, material overrides. */
static void collision_rows_match_cells(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessProject *p = f.p;
  TessTileset edit;
  CHECK_OK(tess_tileset_copy(&edit, tess_project_tileset(p, f.tileset)), &err);
  for (uint32_t t = 0; t < edit.tile_count; t++) {
    edit.tiles[t].collision = (uint8_t)(t % 3);
    edit.tiles[t].one_way = t % 5 == 0;
    edit.tiles[t].material = t % 4 == 0 ? 0 : t % 4 == 1 ? f.stone
                                          : t % 4 == 2   ? f.grass
                                                         : f.water;
  }
  CHECK_OK(tess_edit_tileset_set(p, &edit, 0, &err), &err);
  tess_tileset_clear(&edit);
  TessId upper = 0, deco = 0;
  CHECK_OK(tess_edit_layer_add(p, f.level, TESS_LAYER_TILES, "Upper", 1, &upper, &err), &err);
  CHECK_OK(tess_edit_layer_add(p, f.level, TESS_LAYER_TILES, "Deco", 2, &deco, &err), &err);
  TessLevel *level = tess_project_level(p, f.level);
  TessLayerProps props = tess_level_layer(level, deco)->props;
  props.collides = false;
  CHECK_OK(tess_edit_layer_set_props(p, f.level, &props, 0, &err), &err);
  TessTestRng rng = {0xc011151011ull};
  uint32_t W = level->settings.width, H = level->settings.height;
  TessCell *cells = tess_alloc((size_t)W * H * sizeof *cells);
  TessId layers[3] = {f.ground, upper, deco};
  for (int l = 0; l < 3; l++) {
    for (size_t i = 0; i < (size_t)W * H; i++) {
      uint32_t r = tess_rng_below(&rng, 10);
      uint32_t tile = tess_rng_below(&rng, 16);
      cells[i] = r < 4 ? 0 : TESS_CELL_MAKE(f.tileset, tile, tess_rng_below(&rng, 8) << 29);
    }
    CHECK_OK(tess_edit_set_cells(p, f.level, layers[l], 0, 0, W, H, cells, 0, &err), &err);
  }
  tess_free(cells);
  TessId mats[4] = {0, f.stone, f.grass, f.water};
  for (int k = 0; k < 40; k++)
    CHECK_OK(tess_edit_paint_material(p, f.level, (int32_t)tess_rng_below(&rng, W), (int32_t)tess_rng_below(&rng, H),
                                      1 + tess_rng_below(&rng, 20), 1 + tess_rng_below(&rng, 20),
                                      mats[tess_rng_below(&rng, 4)], 0, &err),
             &err);
  level = tess_project_level(p, f.level);
  TessCellCollision *row = tess_alloc((size_t)(W + 40) * sizeof *row);
  uint32_t mismatches = 0, solid = 0, traced = 0;
  for (uint32_t y = 0; y < H + 2; y++) {
    uint32_t x0 = y % 3 == 0 ? 0 : tess_rng_below(&rng, W), count = y % 3 == 0 ? W : 1 + tess_rng_below(&rng, W + 30 - x0);
    tess_level_collision_row(p, level, x0, y, count, row);
    for (uint32_t k = 0; k < count; k++) {
      TessCellCollision c, one;
      collision_reference(p, level, x0 + k, y, &c);
      tess_level_cell_collision(p, level, x0 + k, y, &one);
      mismatches += c.kind != one.kind || c.one_way != one.one_way || c.material != one.material || c.cell != one.cell ||
                    c.tile != one.tile;
      mismatches += c.kind != row[k].kind || c.one_way != row[k].one_way || c.material != row[k].material ||
                    c.cell != row[k].cell || c.tile != row[k].tile;
      solid += c.kind == TESS_TILE_COLLISION_FULL;
      traced += c.kind == TESS_TILE_COLLISION_TRACED;
    }
  }
  CHECK_MSG(mismatches == 0, "%u cells differ between the row and the single-cell rule", mismatches);
  CHECK(solid > 100 && traced > 100);
  tess_free(row);
  fixture_free(&f);
}

static void collision_rule_cases(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessProject *p = f.p;
  TessTileset *ts = tess_project_tileset(p, f.tileset);
  TessLevel *level = tess_project_level(p, f.level);
  /* Tiles: 0 full (stone), 1 none (grass: decoration), 2 traced slope (stone, one-way), 3 full one-way (no material). */
  TessTileset edit;
  CHECK_OK(tess_tileset_copy(&edit, ts), &err);
  edit.tiles[1].collision = TESS_TILE_COLLISION_NONE;
  edit.tiles[1].material = f.grass;
  edit.tiles[2].collision = TESS_TILE_COLLISION_TRACED;
  TessPolygon slope = {3, {{0, 16}, {16, 16}, {16, 0}}};
  edit.tiles[2].piece_count = 1;
  edit.tiles[2].pieces = tess_alloc(sizeof slope);
  memcpy(edit.tiles[2].pieces, &slope, sizeof slope);
  edit.tiles[3].material = 0;
  edit.tiles[3].one_way = 1;
  CHECK_OK(tess_edit_tileset_set(p, &edit, 0, &err), &err);
  tess_tileset_clear(&edit);
  TessId upper = 0;
  CHECK_OK(tess_edit_layer_add(p, f.level, TESS_LAYER_TILES, "Upper", 1, &upper, &err), &err);
  TessCellCollision c;

  /* Empty cell: nothing. */
  tess_level_cell_collision(p, level, 0, 0, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_NONE && c.material == 0 && c.cell == 0 && c.tile == NULL);

  /* A full tile gives its shape and default material. */
  TessCell full = TESS_CELL_MAKE(f.tileset, 0, 0);
  CHECK_OK(tess_edit_fill_rect(p, f.level, f.ground, 1, 0, 1, 1, full, 0, &err), &err);
  tess_level_cell_collision(p, level, 1, 0, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_FULL && c.material == f.stone && c.cell == full && c.tile == &ts->tiles[0]);

  /* The layer's collides flag off: that tile does not count. */
  TessLayerProps props = tess_level_layer(level, f.ground)->props;
  props.collides = false;
  CHECK_OK(tess_edit_layer_set_props(p, f.level, &props, 0, &err), &err);
  tess_level_cell_collision(p, level, 1, 0, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_NONE && c.material == 0 && c.cell == 0);
  props.collides = true;
  CHECK_OK(tess_edit_layer_set_props(p, f.level, &props, 0, &err), &err);

  /* Topmost tile wins: a decoration (no shape) above the wall hides it... */
  TessCell deco = TESS_CELL_MAKE(f.tileset, 1, 0);
  CHECK_OK(tess_edit_fill_rect(p, f.level, upper, 1, 0, 1, 1, deco, 0, &err), &err);
  tess_level_cell_collision(p, level, 1, 0, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_NONE && c.material == f.grass && c.cell == deco);
  /* ...unless its layer does not collide. */
  TessLayerProps up = tess_level_layer(level, upper)->props;
  up.collides = false;
  CHECK_OK(tess_edit_layer_set_props(p, f.level, &up, 0, &err), &err);
  tess_level_cell_collision(p, level, 1, 0, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_FULL && c.cell == full && c.material == f.stone);
  up.collides = true;
  CHECK_OK(tess_edit_layer_set_props(p, f.level, &up, 0, &err), &err);

  /* Material override beats the tile's default; a solid override makes a wall of the decoration. */
  CHECK_OK(tess_edit_paint_material(p, f.level, 1, 0, 1, 1, f.stone, 0, &err), &err);
  tess_level_cell_collision(p, level, 1, 0, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_FULL && c.material == f.stone && c.cell == deco);
  CHECK_OK(tess_edit_paint_material(p, f.level, 1, 0, 1, 1, f.water, 0, &err), &err);
  tess_level_cell_collision(p, level, 1, 0, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_NONE && c.material == f.water);

  /* A solid material without a tile is a full square; a fluid one is not. */
  CHECK_OK(tess_edit_paint_material(p, f.level, 5, 5, 1, 1, f.stone, 0, &err), &err);
  tess_level_cell_collision(p, level, 5, 5, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_FULL && c.material == f.stone && c.cell == 0 && c.tile == NULL);
  CHECK_OK(tess_edit_paint_material(p, f.level, 6, 5, 1, 1, f.water, 0, &err), &err);
  tess_level_cell_collision(p, level, 6, 5, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_NONE && c.material == f.water);

  /* A full tile without a default material and no override: shape without material; one-way kept. */
  TessCell oneway = TESS_CELL_MAKE(f.tileset, 3, 0);
  CHECK_OK(tess_edit_fill_rect(p, f.level, f.ground, 7, 7, 1, 1, oneway, 0, &err), &err);
  tess_level_cell_collision(p, level, 7, 7, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_FULL && c.material == 0 && c.one_way == 1);

  /* Traced tiles keep their shape under a solid material and carry their flips. */
  const TessCell flips[8] = {0,
                             TESS_CELL_FLIP_H,
                             TESS_CELL_FLIP_V,
                             TESS_CELL_FLIP_H | TESS_CELL_FLIP_V,
                             TESS_CELL_FLIP_D,
                             TESS_CELL_FLIP_D | TESS_CELL_FLIP_H,
                             TESS_CELL_FLIP_D | TESS_CELL_FLIP_V,
                             TESS_CELL_FLIPS};
  /* The slope's vertices (0,16), (16,16), (16,0) under each flip, by hand. */
  const float expect[8][3][2] = {
      {{0, 16}, {16, 16}, {16, 0}}, /* none: solid bottom-right */
      {{16, 16}, {0, 16}, {0, 0}},  /* H: bottom-left */
      {{0, 0}, {16, 0}, {16, 16}},  /* V: top-right */
      {{16, 0}, {0, 0}, {0, 16}},   /* HV: top-left */
      {{16, 0}, {16, 16}, {0, 16}}, /* D: transpose of bottom-right is bottom-right */
      {{0, 0}, {0, 16}, {16, 16}},  /* DH (90 cw): bottom-left */
      {{16, 16}, {16, 0}, {0, 0}},  /* DV (90 ccw): top-right */
      {{0, 16}, {0, 0}, {16, 0}},   /* DHV: top-left */
  };
  for (int i = 0; i < 8; i++) {
    TessCell cell = TESS_CELL_MAKE(f.tileset, 2, flips[i]);
    CHECK_OK(tess_edit_fill_rect(p, f.level, f.ground, 10 + i, 10, 1, 1, cell, 0, &err), &err);
    tess_level_cell_collision(p, level, 10 + (uint32_t)i, 10, &c);
    CHECK(c.kind == TESS_TILE_COLLISION_TRACED && c.material == f.stone && c.cell == cell);
    if (!c.tile || c.tile->piece_count != 1) {
      CHECK(c.tile && c.tile->piece_count == 1);
      continue;
    }
    for (int v = 0; v < 3; v++) {
      TessVec2 q = tess_cell_transform_point(c.cell, c.tile->pieces[0].v[v], 16, 16);
      CHECK_MSG(q.x == expect[i][v][0] && q.y == expect[i][v][1], "flip %d vertex %d: (%g, %g)", i, v, (double)q.x,
                (double)q.y);
    }
  }
  /* Outside the level: nothing. */
  tess_level_cell_collision(p, level, 100, 0, &c);
  CHECK(c.kind == 0 && c.material == 0);
  fixture_free(&f);
}

typedef struct Heard {
  size_t calls;
} Heard;

static void listen(const TessChange *c, void *user) { ((Heard *)user)->calls++; }

static bool has_chunk(const TessChange *ch, size_t n, TessId layer, uint32_t cx, uint32_t cy) {
  for (size_t i = 0; i < n; i++)
    if (ch[i].kind == TESS_CHANGE_CHUNK && ch[i].layer == layer && ch[i].chunk_x == cx && ch[i].chunk_y == cy)
      return true;
  return false;
}

static void change_log_reports_touched_chunks_once(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  Heard heard = {0};
  tess_project_set_listener(f.p, listen, &heard);
  const TessChange *ch;
  CHECK(tess_project_changes(f.p, &ch) == 0);
  /* A 40 x 40 fill at (30, 30) spans chunks 0..2 on each axis. */
  TessCell cell = TESS_CELL_MAKE(f.tileset, 5, 0);
  CHECK_OK(tess_edit_fill_rect(f.p, f.level, f.ground, 30, 30, 40, 40, cell, 0, &err), &err);
  size_t n = tess_project_changes(f.p, &ch);
  CHECK_MSG(n == 9, "%zu changes", n);
  for (uint32_t cy = 0; cy < 3; cy++)
    for (uint32_t cx = 0; cx < 3; cx++) CHECK(has_chunk(ch, n, f.ground, cx, cy));
  for (size_t i = 0; i < n; i++) CHECK(ch[i].level == f.level && ch[i].kind == TESS_CHANGE_CHUNK);
  CHECK(heard.calls == 9);
  tess_project_clear_changes(f.p);

  /* A drag touching one chunk 1000 times: one entry; the listener hears every edit. */
  uint32_t key = tess_project_new_merge_key(f.p);
  heard.calls = 0;
  size_t changing = 0;
  const TessLayer *ground = tess_level_layer(tess_project_level(f.p, f.level), f.ground);
  for (int i = 0; i < 1000; i++) {
    TessCell c = TESS_CELL_MAKE(f.tileset, (uint32_t)(i + i / 64) % 16, 0);
    changing += tess_layer_cell(ground, 40 + i % 8, 40 + (i / 8) % 8) != c;
    CHECK_OK(tess_edit_paint(f.p, f.level, f.ground, 40 + i % 8, 40 + (i / 8) % 8, 1, 1, &c, key, &err), &err);
  }
  n = tess_project_changes(f.p, &ch);
  CHECK_MSG(n == 1 && has_chunk(ch, n, f.ground, 1, 1), "%zu changes", n);
  /* The listener hears every stroke that changed its cell. */
  CHECK_MSG(heard.calls == changing && changing > 900, "%zu calls for %zu changing strokes", heard.calls, changing);
  tess_project_clear_changes(f.p);

  /* An edit that changes nothing reports nothing and makes no undo step. */
  CHECK_OK(tess_edit_fill_rect(f.p, f.level, f.ground, 30, 30, 2, 2, cell, 0, &err), &err);
  CHECK(tess_project_changes(f.p, NULL) == 0);

  /* Undo reports the chunks it restores. */
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  n = tess_project_changes(f.p, &ch);
  CHECK(n == 1 && has_chunk(ch, n, f.ground, 1, 1));
  tess_project_clear_changes(f.p);

  /* Objects, materials and layers report their own kinds. */
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  TessId oid = 0;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &oid, &err), &err);
  n = tess_project_changes(f.p, &ch);
  CHECK(n == 1 && ch[0].kind == TESS_CHANGE_OBJECT && ch[0].id == oid && ch[0].layer == f.objects);
  tess_project_clear_changes(f.p);
  TessMaterial m = *tess_project_material(f.p, f.grass);
  m.friction = 0.5f;
  CHECK_OK(tess_edit_material_set(f.p, &m, 0, &err), &err);
  n = tess_project_changes(f.p, &ch);
  CHECK(n == 1 && ch[0].kind == TESS_CHANGE_MATERIAL && ch[0].id == f.grass);
  tess_project_set_listener(f.p, NULL, NULL);
  fixture_free(&f);
}

static void locked_layers_refuse_edits(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessLevel *level = tess_project_level(f.p, f.level);
  for (uint32_t i = 0; i < level->layer_count; i++) {
    TessLayerProps props = level->layers[i]->props;
    props.locked = true;
    CHECK_OK(tess_edit_layer_set_props(f.p, f.level, &props, 0, &err), &err);
  }
  uint64_t h = tess_project_hash(f.p);
  TessCell cell = TESS_CELL_MAKE(f.tileset, 1, 0);
  CHECK(tess_edit_paint(f.p, f.level, f.ground, 0, 0, 1, 1, &cell, 0, &err) == TESS_ERR_LOCKED);
  CHECK(tess_edit_fill_rect(f.p, f.level, f.ground, 0, 0, 3, 3, cell, 0, &err) == TESS_ERR_LOCKED);
  CHECK(tess_edit_erase(f.p, f.level, f.ground, 0, 0, 3, 3, 0, &err) == TESS_ERR_LOCKED);
  CHECK(tess_edit_set_cells(f.p, f.level, f.ground, 0, 0, 1, 1, &cell, 0, &err) == TESS_ERR_LOCKED);
  CHECK(tess_edit_flood_fill(f.p, f.level, f.ground, 0, 0, cell, 0, &err) == TESS_ERR_LOCKED);
  CHECK(tess_edit_paint_material(f.p, f.level, 0, 0, 1, 1, f.stone, 0, &err) == TESS_ERR_LOCKED);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  CHECK(tess_edit_object_add(f.p, f.level, f.objects, &o, NULL, &err) == TESS_ERR_LOCKED);
  CHECK(err.code == TESS_ERR_LOCKED && detail_has(&err, "locked"));
  CHECK(tess_project_hash(f.p) == h);
  /* Bad input elsewhere: unknown tiles, reserved bits, object layers. */
  TessProject *p = f.p;
  TessLayerProps props = tess_level_layer(level, f.ground)->props;
  props.locked = false;
  CHECK_OK(tess_edit_layer_set_props(p, f.level, &props, 0, &err), &err);
  TessCell bad = TESS_CELL_MAKE(f.tileset, 16, 0);
  CHECK(tess_edit_fill_rect(p, f.level, f.ground, 0, 0, 1, 1, bad, 0, &err) == TESS_ERR_NOT_FOUND);
  bad = TESS_CELL_MAKE(f.tileset, 1, 0) | TESS_CELL_RESERVED;
  CHECK(tess_edit_fill_rect(p, f.level, f.ground, 0, 0, 1, 1, bad, 0, &err) == TESS_ERR_INVALID);
  CHECK(tess_edit_fill_rect(p, f.level, f.objects, 0, 0, 1, 1, cell, 0, &err) != TESS_OK);
  CHECK(tess_edit_flood_fill(p, f.level, f.ground, 100, 0, cell, 0, &err) == TESS_ERR_INVALID);
  fixture_free(&f);
}

static void ids_are_never_reused(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  TessId a = 0, b = 0;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &a, &err), &err);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &b, &err), &err);
  CHECK(a != 0 && b != 0 && a != b);
  TessMaterial m;
  tess_material_default(&m);
  TessId m1 = 0, m2 = 0;
  CHECK_OK(tess_edit_material_add(f.p, &m, &m1, &err), &err);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK(tess_project_material(f.p, m1) == NULL);
  CHECK_OK(tess_edit_material_add(f.p, &m, &m2, &err), &err);
  CHECK(m2 == m1 + 1);
  /* Redo after a new edit is gone. */
  CHECK(!tess_project_can_redo(f.p));
  fixture_free(&f);
}

static void hash_covers_content_not_history(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessCell cell = TESS_CELL_MAKE(f.tileset, 2, TESS_CELL_FLIP_H);
  CHECK_OK(tess_edit_fill_rect(f.p, f.level, f.ground, 3, 3, 10, 10, cell, 0, &err), &err);
  uint64_t h = tess_project_hash(f.p);
  tess_project_clear_changes(f.p);
  tess_project_clear_history(f.p);
  f.p->next_id[TESS_ID_OBJECT] += 100;
  CHECK(tess_project_hash(f.p) == h);
  /* One flip bit, one tile info field, one PNG byte, one property: each changes it. */
  TessCell other = TESS_CELL_MAKE(f.tileset, 2, 0);
  CHECK_OK(tess_edit_fill_rect(f.p, f.level, f.ground, 3, 3, 1, 1, other, 0, &err), &err);
  CHECK(tess_project_hash(f.p) != h);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK(tess_project_hash(f.p) == h);
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(f.p, f.tileset)), &err);
  ts.png[3] ^= 1;
  CHECK_OK(tess_edit_tileset_set(f.p, &ts, 0, &err), &err);
  CHECK(tess_project_hash(f.p) != h);
  ts.png[3] ^= 1;
  ts.tiles[4].one_way = 1;
  CHECK_OK(tess_edit_tileset_set(f.p, &ts, 0, &err), &err);
  CHECK(tess_project_hash(f.p) != h);
  tess_tileset_clear(&ts);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK(tess_project_hash(f.p) == h);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  TessProperty prop;
  memset(&prop, 0, sizeof prop);
  snprintf(prop.name, sizeof prop.name, "team");
  prop.type = TESS_PROP_STRING;
  prop.v.s = "red";
  CHECK_OK(tess_object_set_property(&o, &prop), &err);
  TessId id = 0;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &id, &err), &err);
  uint64_t with_red = tess_project_hash(f.p);
  prop.v.s = "blue";
  CHECK_OK(tess_object_set_property(&o, &prop), &err);
  o.id = id;
  CHECK_OK(tess_edit_object_set(f.p, f.level, &o, 0, &err), &err);
  CHECK(tess_project_hash(f.p) != with_red);
  CHECK(strcmp(tess_object_property(tess_level_object(tess_project_level(f.p, f.level), id, NULL), "team")->v.s,
               "blue") == 0);
  tess_object_clear(&o);
  /* The level hash ignores an unrelated sprite; the project hash does not. */
  TessLevel *level = tess_project_level(f.p, f.level);
  uint64_t lh = tess_level_content_hash(f.p, level), ph = tess_project_hash(f.p);
  TessSprite s = *tess_project_sprite(f.p, f.sprite);
  s.frame_rate = 3;
  CHECK_OK(tess_edit_sprite_set(f.p, &s, 0, &err), &err);
  CHECK(tess_level_content_hash(f.p, level) == lh);
  CHECK(tess_project_hash(f.p) != ph);
  fixture_free(&f);
}

/* A pin's motor: off by default, refused when not finite (or a negative
 * torque) with the project untouched, hashed, and undone / redone whole. */
static void joint_motor_validates_hashes_and_undoes(void) {
  TessObject o;
  TessError err;
  tess_object_default(&o, TESS_OBJECT_JOINT);
  CHECK(o.u.joint.motor_enabled == 0 && o.u.joint.motor_speed == 0.0f && o.u.joint.motor_torque == 0.0f);
  CHECK_OK(tess_object_validate(&o, &err), &err);
  Fixture f;
  fixture_make(&f);
  TessId id = 0;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &id, &err), &err);
  o.id = id;
  uint64_t off = tess_project_hash(f.p);
  struct {
    float speed, torque;
    uint8_t enabled;
    const char *word;
  } bad[] = {{NAN, 1.0f, 1, "speed"}, {INFINITY, 1.0f, 1, "speed"}, {1.0f, NAN, 1, "torque"}, {1.0f, -0.5f, 1, "torque"}, {1.0f, INFINITY, 0, "torque"}, {1.0f, 1.0f, 2, "motor"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    TessObject b = o;
    b.u.joint.motor_speed = bad[i].speed;
    b.u.joint.motor_torque = bad[i].torque;
    b.u.joint.motor_enabled = bad[i].enabled;
    TessResult r = tess_edit_object_set(f.p, f.level, &b, 0, &err);
    CHECK_MSG(r == TESS_ERR_INVALID, "case %zu: %s", i, tess_result_string(r));
    CHECK_MSG(detail_has(&err, bad[i].word), "case %zu detail '%s' lacks %s", i, err.detail, bad[i].word);
    CHECK(tess_project_hash(f.p) == off);
  }
  TessObject m = o;
  m.u.joint.motor_enabled = 1;
  m.u.joint.motor_speed = -6.25f;
  m.u.joint.motor_torque = 40.0f;
  CHECK_OK(tess_edit_object_set(f.p, f.level, &m, 0, &err), &err);
  uint64_t on = tess_project_hash(f.p);
  CHECK(on != off);
  const TessLevel *level = tess_project_level(f.p, f.level);
  const TessJointObject *j = &tess_level_object(level, id, NULL)->u.joint;
  CHECK(j->motor_enabled == 1 && j->motor_speed == -6.25f && j->motor_torque == 40.0f);
  /* Each field alone moves the hash. */
  m.u.joint.motor_torque = 41.0f;
  CHECK_OK(tess_edit_object_set(f.p, f.level, &m, 0, &err), &err);
  CHECK(tess_project_hash(f.p) != on);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK(tess_project_hash(f.p) == on);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK(tess_project_hash(f.p) == off);
  j = &tess_level_object(tess_project_level(f.p, f.level), id, NULL)->u.joint;
  CHECK(j->motor_enabled == 0 && j->motor_speed == 0.0f && j->motor_torque == 0.0f);
  CHECK_OK(tess_project_redo(f.p, &err), &err);
  CHECK(tess_project_hash(f.p) == on);
  j = &tess_level_object(tess_project_level(f.p, f.level), id, NULL)->u.joint;
  CHECK(j->motor_enabled == 1 && j->motor_speed == -6.25f && j->motor_torque == 40.0f);
  fixture_free(&f);
}

static void resize_keeps_content_anchored(void) {
  TessProject *p = tess_project_create();
  TessError err;
  TessMaterial m;
  tess_material_default(&m);
  TessId stone;
  CHECK_OK(tess_edit_material_add(p, &m, &stone, &err), &err);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  s.width = s.height = 10;
  s.tile_w = s.tile_h = 8;
  TessId id;
  CHECK_OK(tess_edit_level_add(p, &s, &id, &err), &err);
  TessLevel *level = tess_project_level(p, id);
  TessId mat_layer = level->layers[1]->props.id, obj_layer = level->layers[2]->props.id;
  CHECK_OK(tess_edit_paint_material(p, id, 0, 0, 1, 1, stone, 0, &err), &err);
  CHECK_OK(tess_edit_paint_material(p, id, 9, 9, 1, 1, stone, 0, &err), &err);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  o.pos = tess_v2(12, 20);
  TessId oid;
  CHECK_OK(tess_edit_object_add(p, id, obj_layer, &o, &oid, &err), &err);
  uint64_t before = tess_project_hash(p);
  /* Grow to 20 x 20 about the centre: everything moves by 5 cells (40 px). */
  s.width = s.height = 20;
  CHECK_OK(tess_edit_level_set(p, id, &s, 1, 1, &err), &err);
  TessLayer *ml = tess_level_layer(level, mat_layer);
  CHECK(ml->chunks_x == 1 && level->settings.width == 20);
  CHECK(tess_layer_cell(ml, 5, 5) == stone && tess_layer_cell(ml, 14, 14) == stone && tess_layer_cell(ml, 0, 0) == 0);
  TessObject *moved = tess_level_object(level, oid, NULL);
  CHECK(moved && moved->pos.x == 52 && moved->pos.y == 60);
  check_layer_invariants(p);
  /* Shrink to 16 x 16 anchored right/bottom: everything moves by -4 cells. */
  s.width = s.height = 16;
  CHECK_OK(tess_edit_level_set(p, id, &s, 2, 2, &err), &err);
  CHECK(tess_layer_cell(ml, 1, 1) == stone && tess_layer_cell(ml, 10, 10) == stone && tess_layer_cell(ml, 5, 5) == 0);
  moved = tess_level_object(level, oid, NULL); /* a resize replaces the layer's object array */
  CHECK(moved && moved->pos.x == 52 - 32 && moved->pos.y == 60 - 32);
  /* Shrink to 4 x 4 anchored left/top: (10, 10) falls off. */
  s.width = s.height = 4;
  CHECK_OK(tess_edit_level_set(p, id, &s, 0, 0, &err), &err);
  CHECK(tess_layer_cell(ml, 1, 1) == stone && tess_layer_chunk(ml, 0, 0)->used == 1);
  /* Grow to 1000 wide anchored left: chunks_x grows, cells stay. */
  s.width = 1000;
  CHECK_OK(tess_edit_level_set(p, id, &s, 0, 0, &err), &err);
  CHECK(ml->chunks_x == 32 && tess_layer_cell(ml, 1, 1) == stone);
  check_layer_invariants(p);
  for (int i = 0; i < 4; i++) CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == before);
  CHECK(tess_layer_cell(ml, 0, 0) == stone && tess_layer_cell(ml, 9, 9) == stone);
  tess_project_destroy(p);
}

static void resize_reports_old_and_new_chunks(void) {
  TessProject *p = tess_project_create();
  TessError err;
  TessMaterial m;
  tess_material_default(&m);
  TessId stone, id;
  CHECK_OK(tess_edit_material_add(p, &m, &stone, &err), &err);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  s.width = 64;
  s.height = 32;
  CHECK_OK(tess_edit_level_add(p, &s, &id, &err), &err);
  TessId ml = tess_project_level(p, id)->layers[1]->props.id;
  CHECK_OK(tess_edit_paint_material(p, id, 40, 0, 1, 1, stone, 0, &err), &err);
  tess_project_clear_changes(p);
  /* Shrinking to one chunk drops the cell in chunk (1, 0): the store must hear of that chunk. */
  s.width = 32;
  CHECK_OK(tess_edit_level_set(p, id, &s, 0, 0, &err), &err);
  const TessChange *ch;
  size_t n = tess_project_changes(p, &ch);
  bool level_seen = false;
  CHECK(has_chunk(ch, n, ml, 1, 0));
  for (size_t i = 0; i < n; i++) level_seen |= ch[i].kind == TESS_CHANGE_LEVEL && ch[i].id == id;
  CHECK(level_seen);
  CHECK(tess_layer_chunk(tess_level_layer(tess_project_level(p, id), ml), 1, 0) == NULL);
  tess_project_clear_changes(p);
  CHECK_OK(tess_project_undo(p, &err), &err);
  n = tess_project_changes(p, &ch);
  CHECK(has_chunk(ch, n, ml, 1, 0));
  CHECK(tess_layer_cell(tess_level_layer(tess_project_level(p, id), ml), 40, 0) == stone);
  tess_project_destroy(p);
}

static void removing_assets_rewrites_their_users(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessProject *p = f.p;
  TessLevel *level = tess_project_level(p, f.level);
  /* A second tileset to remap onto, with only 4 tiles. */
  static uint8_t png[] = {1, 2, 3};
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Small";
  def.png = png;
  def.png_size = sizeof png;
  def.image_w = 64;
  def.image_h = 16;
  def.tile_w = def.tile_h = 16;
  TessId small;
  CHECK_OK(tess_edit_tileset_add(p, &def, &small, &err), &err);
  TessCell a = TESS_CELL_MAKE(f.tileset, 2, TESS_CELL_FLIP_V), b = TESS_CELL_MAKE(f.tileset, 9, 0);
  CHECK_OK(tess_edit_fill_rect(p, f.level, f.ground, 0, 0, 1, 1, a, 0, &err), &err);
  CHECK_OK(tess_edit_fill_rect(p, f.level, f.ground, 1, 0, 1, 1, b, 0, &err), &err);
  CHECK_OK(tess_edit_paint_material(p, f.level, 0, 1, 3, 1, f.grass, 0, &err), &err);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.u.body.material = f.grass;
  TessId body;
  CHECK_OK(tess_edit_object_add(p, f.level, f.objects, &o, &body, &err), &err);
  o.u.body.shape = TESS_BODY_SPRITE;
  o.u.body.sprite = f.sprite;
  o.u.body.material = 0;
  TessId sprite_body, sprite_body2;
  CHECK_OK(tess_edit_object_add(p, f.level, f.objects, &o, &sprite_body, &err), &err);
  CHECK_OK(tess_edit_object_add(p, f.level, f.objects, &o, &sprite_body2, &err), &err);
  TessTileset *cave = tess_project_tileset(p, f.tileset);
  TessTileset edit;
  CHECK_OK(tess_tileset_copy(&edit, cave), &err);
  edit.tiles[7].material = f.grass;
  CHECK_OK(tess_edit_tileset_set(p, &edit, 0, &err), &err);
  tess_tileset_clear(&edit);
  uint64_t start = tess_project_hash(p);

  /* Material removed with a replacement: overrides, tile defaults and bodies follow. */
  CHECK_OK(tess_edit_material_remove(p, f.grass, f.water, &err), &err);
  TessLayer *ml = tess_level_material_layer(level);
  CHECK(tess_project_material(p, f.grass) == NULL);
  CHECK(tess_layer_cell(ml, 0, 1) == f.water && tess_layer_cell(ml, 2, 1) == f.water);
  CHECK(cave->tiles[7].material == f.water);
  CHECK(tess_level_object(level, body, NULL)->u.body.material == f.water);
  check_layer_invariants(p);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == start);
  CHECK(tess_layer_cell(ml, 0, 1) == f.grass && cave->tiles[7].material == f.grass);
  /* With no replacement the overrides are cleared. */
  CHECK_OK(tess_edit_material_remove(p, f.grass, 0, &err), &err);
  CHECK(tess_layer_cell(ml, 0, 1) == 0 && cave->tiles[7].material == 0);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == start);

  /* Tileset removed with a remap: same index, flips kept; indices beyond the new tileset are erased. */
  TessLayer *ground = tess_level_layer(level, f.ground);
  CHECK_OK(tess_edit_tileset_remove(p, f.tileset, small, &err), &err);
  CHECK(tess_layer_cell(ground, 0, 0) == TESS_CELL_MAKE(small, 2, TESS_CELL_FLIP_V));
  CHECK(tess_layer_cell(ground, 1, 0) == 0);
  CHECK(tess_project_tileset(p, f.tileset) == NULL);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == start);
  CHECK(tess_project_tileset(p, f.tileset) == cave); /* the same tileset came back */
  CHECK_OK(tess_edit_tileset_remove(p, f.tileset, 0, &err), &err);
  CHECK(tess_layer_cell(ground, 0, 0) == 0 && tess_layer_chunk(ground, 0, 0) == NULL);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == start);

  /* Sprite removed: its bodies go, and come back in their places. */
  CHECK_OK(tess_edit_sprite_remove(p, f.sprite, &err), &err);
  CHECK(tess_level_object(level, sprite_body, NULL) == NULL && tess_level_object(level, sprite_body2, NULL) == NULL);
  CHECK(tess_level_object(level, body, NULL) != NULL);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == start);
  CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK(tess_project_sprite(p, f.sprite) == NULL);
  /* Layers and levels. */
  uint64_t h = tess_project_hash(p);
  CHECK_OK(tess_edit_layer_move(p, f.level, f.ground, -1, &err), &err);
  CHECK(level->layers[level->layer_count - 1]->props.id == f.ground);
  CHECK_OK(tess_edit_layer_remove(p, f.level, f.ground, &err), &err);
  CHECK(tess_level_layer(level, f.ground) == NULL);
  CHECK_OK(tess_edit_level_remove(p, f.level, &err), &err);
  CHECK(p->level_count == 0);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == h);
  fixture_free(&f);
}

static void insert_builds_a_project_without_history(void) {
  TessProject *p = tess_project_create();
  TessError err;
  TessMaterial m;
  tess_material_default(&m);
  m.id = 7;
  CHECK_OK(tess_project_insert_material(p, &m, &err), &err);
  m.id = 3;
  CHECK_OK(tess_project_insert_material(p, &m, &err), &err);
  CHECK(tess_project_insert_material(p, &m, &err) == TESS_ERR_INVALID); /* twice */
  CHECK(p->material_count == 2 && p->materials[0].id == 3 && p->next_id[TESS_ID_MATERIAL] == 8);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  TessLevel *level;
  CHECK_OK(tess_project_insert_level(p, 40, &s, &level, &err), &err);
  TessLayerProps props;
  memset(&props, 0, sizeof props);
  props.id = 41;
  snprintf(props.name, sizeof props.name, "Ground");
  props.opacity = 1;
  props.collides = true;
  TessLayer *layer;
  CHECK_OK(tess_level_insert_layer(p, level, &props, &layer, &err), &err);
  uint32_t cells[TESS_CHUNK_CELLS] = {0};
  CHECK_OK(tess_layer_insert_chunk(layer, 1, 0, cells, &err), &err); /* all empty: not kept */
  CHECK(tess_layer_chunk(layer, 1, 0) == NULL);
  cells[33] = 7;
  CHECK_OK(tess_layer_insert_chunk(layer, 1, 0, cells, &err), &err);
  CHECK(tess_layer_cell(layer, 33, 1) == 7 && tess_layer_chunk(layer, 1, 0)->used == 1);
  CHECK(tess_layer_insert_chunk(layer, 2, 0, cells, &err) == TESS_ERR_INVALID); /* 64 wide: 2 chunks */
  props.id = 42;
  props.kind = TESS_LAYER_OBJECTS;
  CHECK_OK(tess_level_insert_layer(p, level, &props, &layer, &err), &err);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_ZONE);
  o.id = 99;
  CHECK_OK(tess_layer_insert_object(p, layer, &o, &err), &err);
  CHECK(p->next_id[TESS_ID_OBJECT] == 100 && p->next_id[TESS_ID_LAYER] == 43 && p->next_id[TESS_ID_LEVEL] == 41);
  CHECK(!tess_project_can_undo(p) && tess_project_changes(p, NULL) == 0);
  CHECK(tess_project_level_by_name(p, "Level") == level);
  CHECK(tess_project_material_by_name(p, "Default") != NULL);
  tess_project_destroy(p);
}

static void chunks_are_freed_when_empty(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessLayer *ground = tess_level_layer(tess_project_level(f.p, f.level), f.ground);
  TessCell cell = TESS_CELL_MAKE(f.tileset, 1, 0);
  CHECK_OK(tess_edit_fill_rect(f.p, f.level, f.ground, 0, 0, 64, 32, cell, 0, &err), &err);
  CHECK(tess_layer_chunk(ground, 0, 0) && tess_layer_chunk(ground, 0, 0)->used == 1024);
  CHECK(tess_layer_chunk(ground, 1, 0) && tess_layer_chunk(ground, 2, 0) == NULL);
  CHECK_OK(tess_edit_erase(f.p, f.level, f.ground, 0, 0, 32, 32, 0, &err), &err);
  CHECK(tess_layer_chunk(ground, 0, 0) == NULL && tess_layer_chunk(ground, 1, 0) != NULL);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK(tess_layer_chunk(ground, 0, 0) && tess_layer_chunk(ground, 0, 0)->used == 1024);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  CHECK(tess_layer_chunk(ground, 0, 0) == NULL && tess_layer_chunk(ground, 1, 0) == NULL);
  check_layer_invariants(f.p);
  fixture_free(&f);
}

static void painted_cells_cost_at_most_5_bytes(void) {
  TessProject *p = tess_project_create();
  TessError err;
  TessLevelSettings s;
  tess_level_settings_default(&s);
  s.width = s.height = 512;
  TessId id;
  CHECK_OK(tess_edit_level_add(p, &s, &id, &err), &err);
  TessLevel *level = tess_project_level(p, id);
  TessMaterial m;
  tess_material_default(&m);
  TessId stone;
  CHECK_OK(tess_edit_material_add(p, &m, &stone, &err), &err);
  size_t empty = tess_level_memory_bytes(level);
  CHECK_OK(tess_edit_paint_material(p, id, 0, 0, 512, 512, stone, 0, &err), &err);
  double per_cell = (double)(tess_level_memory_bytes(level) - empty) / (512.0 * 512.0);
  CHECK_MSG(per_cell >= 4.0 && per_cell <= 5.0, "%.3f bytes per cell", per_cell);
  /* The undo record of painting one value over empty cells: a mask and one value per chunk. */
  size_t hist = tess_project_history_bytes(p);
  CHECK_MSG(hist < 256u * 200u, "%zu history bytes for a uniform fill of 256 chunks", hist);
  /* Cells of differing values cost 4 bytes each once the record must hold them. */
  TessId grass;
  snprintf(m.name, sizeof m.name, "Grass");
  CHECK_OK(tess_edit_material_add(p, &m, &grass, &err), &err);
  TessLayer *ml = tess_level_material_layer(level);
  CHECK_OK(tess_edit_paint_material(p, id, 0, 0, 512, 512, 0, 0, &err), &err); /* erase */
  for (uint32_t y = 0; y < 512; y += 2) CHECK_OK(tess_edit_paint_material(p, id, 0, (int32_t)y, 512, 1, grass, 0, &err), &err);
  tess_project_clear_history(p);
  /* Now every chunk holds stripes: repainting it whole keeps the stripes for undo. */
  CHECK_OK(tess_edit_paint_material(p, id, 0, 0, 512, 512, stone, 0, &err), &err);
  hist = tess_project_history_bytes(p);
  CHECK_MSG(hist > 512u * 512u * 4u && hist < 512u * 512u * 5u, "%zu history bytes for striped cells", hist);
  /* After undo the record holds the uniform repaint: small again, and counted so. */
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_layer_cell(ml, 0, 0) == grass && tess_layer_cell(ml, 0, 1) == 0);
  CHECK_MSG(tess_project_history_bytes(p) < 256u * 200u, "%zu bytes after undo", tess_project_history_bytes(p));
  CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK_MSG(tess_project_history_bytes(p) > 512u * 512u * 4u, "%zu bytes after redo", tess_project_history_bytes(p));
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(material_validation_names_the_field), TEST(joint_motor_validates_hashes_and_undoes), TEST(level_size_limits), TEST(cell_flips_move_points),
               TEST(collision_rule_cases), TEST(collision_rows_match_cells), TEST(change_log_reports_touched_chunks_once),
               TEST(locked_layers_refuse_edits), TEST(ids_are_never_reused), TEST(hash_covers_content_not_history),
               TEST(resize_keeps_content_anchored), TEST(resize_reports_old_and_new_chunks), TEST(removing_assets_rewrites_their_users),
               TEST(insert_builds_a_project_without_history), TEST(chunks_are_freed_when_empty),
               TEST(flood_fill_matches_reference), TEST(merged_drag_undoes_as_one_step),
               TEST(history_bound_drops_oldest_steps), TEST(random_edit_sequences_undo_to_start),
               TEST(random_edits_under_a_tight_history_bound), TEST(painted_cells_cost_at_most_5_bytes))
