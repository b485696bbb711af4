/* Terrain brush benchmark on a 4096 x 4096 level held in a real project file:
 * a 1,000,000-cell terrain fill (target < 200 ms; the plain fill of the same
 * rectangle beside it as the peer), and a 64-cell terrain stroke plus the
 * store's commit (target < 5 ms; the plain brush stroke beside it). Checks
 * that the work it timed did what it should; asserts no timings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "project_fixture.h"
#include "tessera/store.h"

#define SIDE 4096
#define FILL 1000

static void die(const char *what, const TessError *err) {
  char buf[1200];
  tess_error_format(err, buf, sizeof buf);
  fprintf(stderr, "bench-terrain: %s: %s\n", what, buf);
  exit(1);
}

static double ms_since(double t0) { return (tess_now_seconds() - t0) * 1e3; }

static double median(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
      double t = v[k];
      v[k] = v[k - 1];
      v[k - 1] = t;
    }
  return v[n / 2];
}

/* A complete corner set of 3 colours (81 tiles) and 40 weighted variants. */
static void make_set(TessTerrainSet *set) {
  TessError err;
  tess_terrain_set_init(set, "Ground", TESS_TERRAIN_CORNER);
  const char *names[] = {"Grass", "Dirt", "Water"};
  for (int c = 0; c < 3; c++)
    if (tess_terrain_set_add_color(set, names[c], 0x808080ffu, NULL, &err)) die("colour", &err);
  uint32_t tile = 0;
  for (uint32_t code = 0; code < 81; code++) {
    uint8_t wang[8] = {0};
    for (int k = 0, rest = (int)code; k < 4; k++, rest /= 3) wang[2 * k + 1] = (uint8_t)(rest % 3 + 1);
    if (tess_terrain_set_label(set, tile++, wang, 1.0f, &err)) die("label", &err);
  }
  for (uint32_t v = 0; v < 40; v++) {
    uint8_t wang[8] = {0};
    for (int k = 0; k < 4; k++) wang[2 * k + 1] = (uint8_t)((v >> k) % 3 + 1);
    if (tess_terrain_set_label(set, tile++, wang, 0.25f, &err)) die("label", &err);
  }
}

int main(void) {
  char dir[] = "/tmp/tessera-bench-terrain-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char path[600];
  snprintf(path, sizeof path, "%s/terrain.tessera", dir);
  TessError err;
  TessProject *p = tess_project_create();
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Terrain";
  def.image_w = def.image_h = 256;
  def.tile_w = def.tile_h = 16;
  TessId ts = 0, level_id = 0;
  if (tess_edit_tileset_add(p, &def, &ts, &err)) die("tileset", &err);
  TessTileset copy;
  if (tess_tileset_copy(&copy, tess_project_tileset(p, ts))) return 1;
  copy.terrain_count = 1;
  copy.terrains = tess_calloc(1, sizeof *copy.terrains);
  make_set(&copy.terrains[0]);
  if (tess_edit_tileset_set(p, &copy, 0, &err)) die("terrain set", &err);
  tess_tileset_clear(&copy);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  ls.width = ls.height = SIDE;
  if (tess_edit_level_add(p, &ls, &level_id, &err)) die("level", &err);
  TessLevel *level = tess_project_level(p, level_id);
  TessId ground = level->layers[0]->props.id, second;
  if (tess_edit_layer_add(p, level_id, TESS_LAYER_TILES, "Plain", -1, &second, &err)) die("layer", &err);
  TessStore *store = NULL;
  if (tess_store_open(path, TESS_STORE_CREATE, &store, &err)) die("create", &err);
  if (tess_store_save_all(store, p, &err)) die("save_all", &err);
  tess_project_clear_changes(p);
  TessTerrainBrush brush = {ts, 0, 1, 2026};

  /* ---- 1,000,000 cells: terrain rectangle, then terrain flood fill -------- */
  double t0 = tess_now_seconds();
  if (tess_edit_terrain_rect(p, level_id, ground, &brush, 10, 10, FILL, FILL, 0, &err)) die("rect", &err);
  double t_rect = ms_since(t0);
  t0 = tess_now_seconds();
  if (tess_store_flush(store, p, &err)) die("flush", &err);
  double t_rect_commit = ms_since(t0);
  /* The flood fill: on a second layer, an empty 1000 x 1000 square walled
   * in by a painted frame. */
  TessCell wall = TESS_CELL_MAKE(ts, 0, 0);
  if (tess_edit_fill_rect(p, level_id, second, 0, 0, FILL + 2, FILL + 2, wall, 0, &err)) die("frame", &err);
  if (tess_edit_erase(p, level_id, second, 1, 1, FILL, FILL, 0, &err)) die("frame", &err);
  if (tess_store_flush(store, p, &err)) die("flush", &err);
  brush.color = 2;
  t0 = tess_now_seconds();
  if (tess_edit_terrain_fill(p, level_id, second, &brush, 500, 500, 0, &err)) die("fill", &err);
  double t_fill = ms_since(t0);
  t0 = tess_now_seconds();
  if (tess_store_flush(store, p, &err)) die("flush", &err);
  double t_fill_commit = ms_since(t0);
  /* Check: the square is dirt inside, the plain fill of the same size as peer. */
  const TessTerrainSet *set = &tess_project_tileset(p, ts)->terrains[0];
  const TessLayer *L2 = tess_level_layer(level, second);
  uint8_t lab[8];
  if (!tess_terrain_cell_labels(set, ts, tess_layer_cell(L2, 500, 500), lab) || lab[1] != 2 || lab[7] != 2) {
    fprintf(stderr, "bench-terrain: the fill did not paint dirt\n");
    return 1;
  }
  t0 = tess_now_seconds();
  if (tess_edit_fill_rect(p, level_id, second, 1, 1, FILL, FILL, TESS_CELL_MAKE(ts, 5, 0), 0, &err)) die("plain", &err);
  double t_plain = ms_since(t0);
  if (tess_store_flush(store, p, &err)) die("flush", &err);

  /* ---- a 64-cell terrain stroke + commit, median of 15 ------------------ */
  double strokes[15], commits[15], plain[15];
  brush.color = 3;
  for (int run = 0; run < 15; run++) {
    uint32_t merge = tess_project_new_merge_key(p);
    t0 = tess_now_seconds();
    for (uint32_t i = 0; i < 64; i++) { /* a diagonal drag across chunk borders, over the painted square */
      uint32_t xy[2] = {200 + (uint32_t)run * 40 + i, 300 + i / 2};
      if (tess_edit_terrain_cells(p, level_id, ground, &brush, xy, 1, merge, &err)) die("stroke", &err);
    }
    double t1 = tess_now_seconds();
    if (tess_store_flush(store, p, &err)) die("flush", &err);
    strokes[run] = ms_since(t0);
    commits[run] = ms_since(t1);
    TessCell c = TESS_CELL_MAKE(ts, 7, 0);
    merge = tess_project_new_merge_key(p);
    t0 = tess_now_seconds();
    for (int i = 0; i < 64; i++)
      if (tess_edit_paint(p, level_id, second, 2000 + run * 40 + i, 2000 + i / 2, 1, 1, &c, merge, &err))
        die("paint", &err);
    if (tess_store_flush(store, p, &err)) die("flush", &err);
    plain[run] = ms_since(t0);
  }
  if (!tess_terrain_cell_labels(set, ts, tess_layer_cell(tess_level_layer(level, ground), 220, 310), lab) ||
      lab[1] != 3) {
    fprintf(stderr, "bench-terrain: the stroke did not paint water\n");
    return 1;
  }
  printf("terrain brush on a %d x %d level (corner set, 3 colours, %u tiles), real project file\n", SIDE, SIDE,
         set->tile_count);
  printf("  %-46s %8.1f ms  %-9s commit %.1f ms\n", "terrain rectangle 1,000,000 cells", t_rect, "< 200 ms",
         t_rect_commit);
  printf("  %-46s %8.1f ms  %-9s commit %.1f ms; plain fill_rect of the same cells %.1f ms\n",
         "terrain flood fill 1,000,000 cells", t_fill, "< 200 ms", t_fill_commit, t_plain);
  printf("  %-46s %8.2f ms  %-9s commit alone %.2f ms; plain 64-cell brush stroke + commit %.2f ms\n",
         "terrain stroke 64 cells + commit (median of 15)", median(strokes, 15), "< 5 ms", median(commits, 15),
         median(plain, 15));
  tess_store_close(store);
  tess_project_destroy(p);
  tess_test_remove_project(path);
  rmdir(dir);
  return 0;
}
