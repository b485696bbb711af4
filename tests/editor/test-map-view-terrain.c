/* The terrain tools in the map view under Xvfb, and the tile palette's
 * terrain mode. The fixture tileset's 16 tiles get a complete corner set of
 * two colours (tile i has colour 2 at corner k when bit k of i is set), so
 * every painted cell must agree with its neighbours on every shared corner.
 * A drag is one undo step that restores the exact cells; what the view shows
 * is what the project file holds; labels are clicked onto tile corners. */
#include <math.h>

#include "check.h"
#include "map_view_harness.h"
#include "tess-tile-palette.h"

/* Corner k of tile i (k: 0 top-right, 1 bottom-right, 2 bottom-left, 3 top-left = positions 1, 3, 5, 7). */
static void add_corner_set(Harness *h) {
  TessProject *p = harness_project(h);
  TessError err;
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(p, FIX_TILESET)), &err);
  ts.terrain_count = 1;
  ts.terrains = tess_calloc(1, sizeof *ts.terrains);
  tess_terrain_set_init(&ts.terrains[0], "Meadow", TESS_TERRAIN_CORNER);
  CHECK_OK(tess_terrain_set_add_color(&ts.terrains[0], "Grass", 0x40a040ffu, NULL, &err), &err);
  CHECK_OK(tess_terrain_set_add_color(&ts.terrains[0], "Water", 0x3070e0ffu, NULL, &err), &err);
  for (uint32_t t = 0; t < 16; t++) {
    uint8_t wang[8] = {0};
    for (int k = 0; k < 4; k++) wang[2 * k + 1] = (uint8_t)(1 + ((t >> k) & 1));
    CHECK_OK(tess_terrain_set_label(&ts.terrains[0], t, wang, 1.0f, &err), &err);
  }
  CHECK_OK(tess_edit_tileset_set(p, &ts, 0, &err), &err);
  tess_tileset_clear(&ts);
  GError *error = NULL;
  CHECK(tess_document_commit(h->doc, &error));
  g_clear_error(&error);
}

static const TessTerrainSet *meadow(Harness *h) { return &tess_project_tileset(harness_project(h), FIX_TILESET)->terrains[0]; }

static int disagreements(Harness *h) {
  const TessLevel *lv = harness_level(h);
  const TessLayer *L = tess_level_layer(lv, FIX_LAYER_GROUND);
  int bad = 0;
  for (uint32_t y = 0; y < lv->settings.height; y++)
    for (uint32_t x = 0; x < lv->settings.width; x++) {
      uint8_t a[8], r[8], d[8];
      if (!tess_terrain_cell_labels(meadow(h), FIX_TILESET, tess_layer_cell(L, x, y), a)) continue;
      if (x + 1 < lv->settings.width && tess_terrain_cell_labels(meadow(h), FIX_TILESET, tess_layer_cell(L, x + 1, y), r))
        bad += a[1] != r[7] || a[3] != r[5];
      if (y + 1 < lv->settings.height && tess_terrain_cell_labels(meadow(h), FIX_TILESET, tess_layer_cell(L, x, y + 1), d))
        bad += a[5] != d[7] || a[3] != d[1];
    }
  return bad;
}

static void snapshot(Harness *h, TessCell *out) {
  const TessLevel *lv = harness_level(h);
  const TessLayer *L = tess_level_layer(lv, FIX_LAYER_GROUND);
  for (uint32_t y = 0; y < lv->settings.height; y++)
    for (uint32_t x = 0; x < lv->settings.width; x++) out[y * lv->settings.width + x] = tess_layer_cell(L, x, y);
}

static void terrain_tools_paint_matching_tiles(void) {
  Harness h;
  harness_open(&h, "terrain.tessera");
  add_corner_set(&h);
  const TessLevel *lv = harness_level(&h);
  uint32_t W = lv->settings.width, H = lv->settings.height, n = W * H;
  /* Bucket: grass everywhere the ground's region reaches, then a rectangle covering the level. */
  tess_map_view_set_terrain(h.view, FIX_TILESET, 0, 1);
  tess_map_view_set_tool(h.view, TESS_TOOL_RECTANGLE);
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 0, 0, (int)W - 1, (int)H - 1);
  CHECK(h.refused == 0);
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++)
      CHECK(tess_layer_cell(tess_level_layer(lv, FIX_LAYER_GROUND), x, y) == TESS_CELL_MAKE(FIX_TILESET, 0, 0));
  TessCell *before = g_new(TessCell, n), *after = g_new(TessCell, n);
  snapshot(&h, before);
  /* A water stroke: one undo step; every shared corner agrees; the file holds the same cells. */
  tess_map_view_set_terrain(h.view, FIX_TILESET, 0, 2);
  tess_map_view_set_tool(h.view, TESS_TOOL_BRUSH);
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 2, 2, 7, 5);
  CHECK(h.refused == 0);
  CHECK(tess_layer_cell(tess_level_layer(lv, FIX_LAYER_GROUND), 2, 2) == TESS_CELL_MAKE(FIX_TILESET, 15, 0));
  CHECK_MSG(disagreements(&h) == 0, "%d corners disagree", disagreements(&h));
  snapshot(&h, after);
  int stored_differ = 0;
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) stored_differ += harness_stored_cell(&h, FIX_LAYER_GROUND, x, y) != after[y * W + x];
  CHECK_MSG(stored_differ == 0, "%d cells differ in the file", stored_differ);
  harness_undo(&h);
  TessCell *now = g_new(TessCell, n);
  snapshot(&h, now);
  CHECK(memcmp(now, before, n * sizeof *now) == 0);
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 2, 2) == before[2 * W + 2]);
  harness_redo(&h);
  snapshot(&h, now);
  CHECK(memcmp(now, after, n * sizeof *now) == 0);
  /* Bucket: water floods the grass region around the pond, which stays. */
  tess_map_view_set_tool(h.view, TESS_TOOL_BUCKET);
  harness_click(&h, 0, 0);
  CHECK(disagreements(&h) == 0);
  CHECK(tess_layer_cell(tess_level_layer(lv, FIX_LAYER_GROUND), 0, 0) == TESS_CELL_MAKE(FIX_TILESET, 15, 0));
  /* No terrain chosen: the brush paints the stamp again. */
  tess_map_view_set_terrain(h.view, 0, 0, 0);
  TessCell stamp = TESS_CELL_MAKE(FIX_TILESET, 9, 0);
  tess_map_view_set_stamp(h.view, 1, 1, &stamp);
  tess_map_view_set_tool(h.view, TESS_TOOL_BRUSH);
  harness_click(&h, 1, 1);
  CHECK(tess_layer_cell(tess_level_layer(lv, FIX_LAYER_GROUND), 1, 1) == stamp);
  g_free(before);
  g_free(after);
  g_free(now);
  harness_close(&h);
}

/* The palette's terrain mode: a new set and colour through the palette's
 * own calls, and a label clicked onto a tile's top-right corner (widget
 * point inside the tile's top-right quadrant), undone as one step. */
static void count_change(int *n) { (*n)++; }

static void palette_labels_tile_corners(void) {
  Harness h;
  harness_open(&h, "palette.tessera");
  TessTilePalette *pal = TESS_TILE_PALETTE(tess_tile_palette_new());
  g_object_ref_sink(pal);
  tess_tile_palette_set_document(pal, h.doc);
  int changes = 0;
  g_signal_connect_swapped(pal, "terrain-changed", G_CALLBACK(count_change), &changes);
  tess_tile_palette_set_terrain_mode(pal, TRUE);
  CHECK(tess_tile_palette_add_terrain_set(pal, "Cliffs", TESS_TERRAIN_CORNER));
  CHECK(tess_tile_palette_add_terrain_color(pal, "Rock", 0x808080ffu));
  TessId ts_id = 0;
  uint32_t set = 9, color = 0;
  CHECK(tess_tile_palette_get_terrain(pal, &ts_id, &set, &color) && ts_id == FIX_TILESET && set == 0 && color == 1);
  CHECK(changes >= 2);
  /* Tile 5 (column 1, row 1 of 16 px tiles, shown at scale 2): its top-right quadrant. */
  CHECK(tess_tile_palette_label_tile(pal, 5, tess_terrain_position_at(TESS_TERRAIN_CORNER, 0.8f, 0.2f), 1, 0));
  const TessTileset *ts = tess_project_tileset(harness_project(&h), FIX_TILESET);
  const TessTerrainTile *t = ts->terrain_count ? tess_terrain_set_find(&ts->terrains[0], 5) : NULL;
  CHECK(t && t->wang[1] == 1 && t->wang[3] == 0 && t->wang[7] == 0);
  harness_undo(&h);
  ts = tess_project_tileset(harness_project(&h), FIX_TILESET);
  CHECK(ts->terrain_count == 1 && !tess_terrain_set_find(&ts->terrains[0], 5));
  tess_tile_palette_set_terrain_mode(pal, FALSE);
  CHECK(!tess_tile_palette_get_terrain(pal, NULL, NULL, NULL));
  tess_tile_palette_set_document(pal, NULL);
  g_object_unref(pal);
  harness_close(&h);
}

int main(int argc, char **argv) {
  gtk_init();
  static const TessTestCase cases[] = {TEST(terrain_tools_paint_matching_tiles), TEST(palette_labels_tile_corners)};
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
