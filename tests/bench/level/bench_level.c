/* core/level benchmark: a 4096 x 4096 level with three fully painted tile
 * layers. Prints memory per cell per layer (target <= 5 bytes), the time of
 * one 64-cell brush stroke, a flood fill of 1,000,000 cells with its undo
 * record (target well under 100 ms), and the project hash beside a plain
 * memory scan of the same cell bytes (the physical limit). Asserts no
 * timings; it checks that the work it timed did what it should. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/level.h"

#define SIDE 4096u
#define LAYERS 3u

static int failures;
#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                         \
    }                                                                     \
  } while (0)

static double ms_since(double t0) { return (tess_now_seconds() - t0) * 1000.0; }

int main(void) {
  TessError err;
  TessProject *p = tess_project_create();
  static uint8_t png[] = {0x89, 'P', 'N', 'G'};
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Bench";
  def.png = png;
  def.png_size = sizeof png;
  def.image_w = def.image_h = 256;
  def.tile_w = def.tile_h = 16; /* 256 tiles */
  TessId ts = 0, level_id = 0;
  EXPECT(tess_edit_tileset_add(p, &def, &ts, &err) == TESS_OK);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  s.width = s.height = SIDE;
  EXPECT(tess_edit_level_add(p, &s, &level_id, &err) == TESS_OK);
  TessLevel *level = tess_project_level(p, level_id);
  TessId layer_ids[LAYERS];
  layer_ids[0] = level->layers[0]->props.id;
  EXPECT(tess_edit_layer_add(p, level_id, TESS_LAYER_TILES, "Middle", -1, &layer_ids[1], &err) == TESS_OK);
  EXPECT(tess_edit_layer_add(p, level_id, TESS_LAYER_TILES, "Top", -1, &layer_ids[2], &err) == TESS_OK);
  tess_project_clear_history(p);

  /* Paint every cell of the three layers (a file load's path: chunk by chunk). */
  int64_t live0 = tess_alloc_live_bytes();
  size_t mem0 = tess_level_memory_bytes(level);
  double t0 = tess_now_seconds();
  static uint32_t cells[TESS_CHUNK_CELLS];
  for (uint32_t l = 0; l < LAYERS; l++) {
    TessLayer *layer = tess_level_layer(level, layer_ids[l]);
    for (uint32_t cy = 0; cy < SIDE / TESS_CHUNK_SIZE; cy++)
      for (uint32_t cx = 0; cx < SIDE / TESS_CHUNK_SIZE; cx++) {
        for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++)
          cells[i] = TESS_CELL_MAKE(ts, (cx + cy + i + l) % 255 + 1, 0);
        EXPECT(tess_layer_insert_chunk(layer, cx, cy, cells, &err) == TESS_OK);
      }
  }
  double paint_ms = ms_since(t0);
  double cell_layers = (double)SIDE * SIDE * LAYERS;
  size_t mem = tess_level_memory_bytes(level) - mem0;
  int64_t live = tess_alloc_live_bytes() - live0;
  printf("level %ux%u, %u tile layers fully painted (%.0f ms to load)\n", SIDE, SIDE, LAYERS, paint_ms);
  printf("  memory: %.3f bytes per cell per layer (allocator live bytes: %.3f)   target <= 5.000, raw cell 4.000\n",
         (double)mem / cell_layers, (double)live / cell_layers);

  /* One 64-cell brush stroke (8 x 8 stamp), in a drag and as separate steps. */
  TessCell stamp[64];
  for (int i = 0; i < 64; i++) stamp[i] = TESS_CELL_MAKE(ts, (uint32_t)i + 1, TESS_CELL_FLIP_H);
  uint32_t seed = 12345;
  const int strokes = 2000;
  uint32_t key = tess_project_new_merge_key(p);
  t0 = tess_now_seconds();
  for (int i = 0; i < strokes; i++) {
    seed = seed * 1664525u + 1013904223u;
    int32_t x = (int32_t)(seed >> 8) % 4000, y = (int32_t)((seed >> 4) * 7u % 4000u);
    EXPECT(tess_edit_paint(p, level_id, layer_ids[1], x, y, 8, 8, stamp, key, &err) == TESS_OK);
  }
  double drag_ms = ms_since(t0) / strokes;
  t0 = tess_now_seconds();
  for (int i = 0; i < strokes; i++) {
    seed = seed * 1664525u + 1013904223u;
    int32_t x = (int32_t)(seed >> 8) % 4000, y = (int32_t)((seed >> 4) * 7u % 4000u);
    EXPECT(tess_edit_paint(p, level_id, layer_ids[2], x, y, 8, 8, stamp, 0, &err) == TESS_OK);
  }
  double step_ms = ms_since(t0) / strokes;
  printf("  brush stroke of 64 cells: %.4f ms in a drag, %.4f ms as its own undo step   (a 60 Hz frame: 16.7 ms)\n",
         drag_ms, step_ms);
  tess_project_clear_history(p);
  tess_project_clear_changes(p);

  /* Flood fill of exactly 1,000,000 cells: a 1000 x 1000 square of one tile,
   * not aligned to chunks, in a layer where every other cell differs. */
  TessLayer *ground = tess_level_layer(level, layer_ids[0]);
  TessCell inside = TESS_CELL_MAKE(ts, 1, 0), border = TESS_CELL_MAKE(ts, 2, 0), fill = TESS_CELL_MAKE(ts, 3, 0);
  t0 = tess_now_seconds();
  EXPECT(tess_edit_fill_rect(p, level_id, layer_ids[0], 0, 0, SIDE, SIDE, border, 0, &err) == TESS_OK);
  double whole_ms = ms_since(t0);
  printf("  fill of the whole %ux%u layer with undo record: %.1f ms (record %.2f MiB for %.1f MiB of cells changed)\n",
         SIDE, SIDE, whole_ms, (double)tess_project_history_bytes(p) / (1024.0 * 1024.0),
         (double)SIDE * SIDE * 4.0 / (1024.0 * 1024.0));
  EXPECT(tess_edit_fill_rect(p, level_id, layer_ids[0], 1013, 517, 1000, 1000, inside, 0, &err) == TESS_OK);
  tess_project_clear_history(p);
  size_t hist0 = tess_project_history_bytes(p);
  t0 = tess_now_seconds();
  EXPECT(tess_edit_flood_fill(p, level_id, layer_ids[0], 1500, 1000, fill, 0, &err) == TESS_OK);
  double fill_ms = ms_since(t0);
  size_t fill_hist = tess_project_history_bytes(p) - hist0;
  size_t filled = 0;
  for (uint32_t y = 500; y < 1600; y++)
    for (uint32_t x = 1000; x < 2100; x++) filled += tess_layer_cell(ground, x, y) == fill;
  EXPECT(filled == 1000000);
  EXPECT(tess_layer_cell(ground, 1012, 1000) == border && tess_layer_cell(ground, 2013, 1000) == border);
  t0 = tess_now_seconds();
  EXPECT(tess_project_undo(p, &err) == TESS_OK);
  double undo_ms = ms_since(t0);
  EXPECT(tess_layer_cell(ground, 1500, 1000) == inside);
  /* The peer: the same fill on a flat array with no undo and no chunks (a plain
   * scanline over 1000 rows of 1000 cells) is the lower bound. */
  uint32_t *flat = malloc((size_t)1100 * 1100 * sizeof *flat);
  for (size_t i = 0; i < (size_t)1100 * 1100; i++) flat[i] = border;
  for (uint32_t y = 50; y < 1050; y++)
    for (uint32_t x = 50; x < 1050; x++) flat[y * 1100 + x] = inside;
  t0 = tess_now_seconds();
  size_t flat_filled = 0;
  for (uint32_t y = 0; y < 1100; y++)
    for (uint32_t x = 0; x < 1100; x++)
      if (flat[y * 1100 + x] == inside) {
        flat[y * 1100 + x] = fill;
        flat_filled++;
      }
  double flat_ms = ms_since(t0);
  EXPECT(flat_filled == 1000000);
  free(flat);
  printf(
      "  flood fill of %zu cells with undo record: %.1f ms (record %.1f MiB, undo %.1f ms)   target < 100 ms; "
      "flat-array rewrite of the same cells: %.2f ms\n",
      filled, fill_ms, (double)fill_hist / (1024.0 * 1024.0), undo_ms, flat_ms);

  /* Project hash beside a plain scan of the same chunk bytes. */
  t0 = tess_now_seconds();
  uint64_t h1 = tess_project_hash(p);
  double hash_ms = ms_since(t0);
  EXPECT(h1 == tess_project_hash(p));
  t0 = tess_now_seconds();
  uint64_t sum = 0;
  size_t bytes = 0;
  for (uint32_t l = 0; l < LAYERS; l++) {
    const TessLayer *layer = tess_level_layer(level, layer_ids[l]);
    for (uint32_t i = 0; i < layer->chunks_x * layer->chunks_y; i++) {
      const TessChunk *c = layer->chunks[i];
      if (!c) continue;
      const uint64_t *w = (const uint64_t *)c->cells;
      for (uint32_t k = 0; k < TESS_CHUNK_CELLS / 2; k++) sum += w[k];
      bytes += sizeof c->cells;
    }
  }
  double scan_ms = ms_since(t0);
  printf(
      "  project hash: %.1f ms over %.0f MiB of cells (%.2f GB/s)   memory scan of the same bytes: %.1f ms "
      "(%.2f GB/s) [sum %llu]\n",
      hash_ms, (double)bytes / (1024.0 * 1024.0), (double)bytes / (hash_ms * 1e6), scan_ms,
      (double)bytes / (scan_ms * 1e6), (unsigned long long)(sum & 0xFF));
  uint64_t lh = 0;
  t0 = tess_now_seconds();
  lh = tess_level_content_hash(p, level);
  printf("  level content hash: %.1f ms [%016llx]\n", ms_since(t0), (unsigned long long)lh);

  tess_project_destroy(p);
  EXPECT(tess_alloc_live_bytes() == 0);
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
