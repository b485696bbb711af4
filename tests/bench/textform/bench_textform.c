/* The text form on the benchmark project of tests/bench/store: a 4096 x 4096
 * level with three full tile layers (one of two tiles in large runs, two of
 * distinct tiles with flips: the worst case for runs). Prints the time to
 * dump and to load (target: each under 2 s) and the dump's size beside the
 * .tessera file's and the packed level's. Asserts only that the round trip
 * is exact. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tessera/pack.h"
#include "tessera/store.h"
#include "tessera/textform.h"

#define SIDE 4096
#define LAYERS 3
#define FILL_SIDE 1000

static void die(const char *what, const TessError *err) {
  char buf[1200];
  tess_error_format(err, buf, sizeof buf);
  fprintf(stderr, "bench-textform: %s: %s\n", what, buf);
  exit(1);
}

/* The same level as bench_store.c builds. */
static TessProject *build(void) {
  TessError err;
  TessProject *p = tess_project_create();
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Tiles";
  def.image_w = def.image_h = 512;
  def.tile_w = def.tile_h = 16;
  TessId ts = 0, level_id = 0, extra;
  if (tess_edit_tileset_add(p, &def, &ts, &err)) die("tileset", &err);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  ls.width = ls.height = SIDE;
  if (tess_edit_level_add(p, &ls, &level_id, &err)) die("level", &err);
  if (tess_edit_layer_add(p, level_id, TESS_LAYER_TILES, "Walls", -1, &extra, &err)) die("layer", &err);
  if (tess_edit_layer_add(p, level_id, TESS_LAYER_TILES, "Decor", -1, &extra, &err)) die("layer", &err);
  TessLevel *level = tess_project_level(p, level_id);
  TessLayer *tile_layers[LAYERS];
  int found = 0;
  for (uint32_t i = 0; i < level->layer_count && found < LAYERS; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_TILES) tile_layers[found++] = level->layers[i];
  uint32_t *cells = malloc(sizeof(uint32_t) * TESS_CHUNK_CELLS);
  TessCell inside = TESS_CELL_MAKE(ts, 1, 0), outside = TESS_CELL_MAKE(ts, 2, 0);
  for (int l = 0; l < LAYERS; l++)
    for (uint32_t cy = 0; cy < SIDE / TESS_CHUNK_SIZE; cy++)
      for (uint32_t cx = 0; cx < SIDE / TESS_CHUNK_SIZE; cx++) {
        for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++) {
          uint32_t x = cx * TESS_CHUNK_SIZE + i % TESS_CHUNK_SIZE, y = cy * TESS_CHUNK_SIZE + i / TESS_CHUNK_SIZE;
          if (l == 0) cells[i] = (x < FILL_SIDE && y < FILL_SIDE) ? inside : outside;
          else cells[i] = TESS_CELL_MAKE(ts, (x * 7 + y * 13 + (uint32_t)l) % 1024, (x ^ y) & 1 ? TESS_CELL_FLIP_H : 0);
        }
        if (tess_layer_insert_chunk(tile_layers[l], cx, cy, cells, &err)) die("chunk", &err);
      }
  free(cells);
  tess_project_clear_history(p);
  tess_project_clear_changes(p);
  return p;
}

static uint64_t tree_bytes(const char *path, int *files) {
  struct stat st;
  if (lstat(path, &st) != 0) return 0;
  if (!S_ISDIR(st.st_mode)) {
    (*files)++;
    return (uint64_t)st.st_size;
  }
  uint64_t total = 0;
  DIR *d = opendir(path);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char child[2048];
    snprintf(child, sizeof child, "%s/%s", path, e->d_name);
    total += tree_bytes(child, files);
  }
  if (d) closedir(d);
  return total;
}

static double best(double *v, int n) {
  double b = v[0];
  for (int i = 1; i < n; i++) b = v[i] < b ? v[i] : b;
  return b;
}

int main(void) {
  char dir[] = "/tmp/tessera-bench-textform-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char project[600], dump[600], tlv[600];
  snprintf(project, sizeof project, "%s/big.tessera", dir);
  snprintf(dump, sizeof dump, "%s/big-dump", dir);
  snprintf(tlv, sizeof tlv, "%s/big.tlv", dir);
  TessError err;
  TessProject *p = build();
  uint64_t hash = tess_project_hash(p);

  TessStore *store = NULL;
  if (tess_store_open(project, TESS_STORE_CREATE, &store, &err) || tess_store_save_all(store, p, &err)) die("store", &err);
  tess_store_close(store);
  uint8_t *packed = NULL;
  size_t packed_size = 0;
  if (tess_pack_write(p, p->levels[0], NULL, &packed, &packed_size, &err)) die("pack", &err);
  tess_free(packed);

  enum { RUNS = 3 };
  double dumps[RUNS], redumps[RUNS], loads[RUNS];
  for (int r = 0; r < RUNS; r++) {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dump);
    if (system(cmd) != 0) return 1;
    double t0 = tess_now_seconds();
    if (tess_text_dump(p, dump, &err)) die("dump", &err);
    dumps[r] = tess_now_seconds() - t0;
    t0 = tess_now_seconds(); /* into the existing dump: every file compared, none written */
    if (tess_text_dump(p, dump, &err)) die("dump again", &err);
    redumps[r] = tess_now_seconds() - t0;
  }
  TessProject *back = NULL;
  for (int r = 0; r < RUNS; r++) {
    tess_project_destroy(back);
    back = NULL;
    double t0 = tess_now_seconds();
    if (tess_text_load(dump, NULL, &back, &err)) die("load", &err);
    loads[r] = tess_now_seconds() - t0;
  }
  bool exact = tess_project_hash(back) == hash;
  tess_project_destroy(back);
  tess_project_destroy(p);

  struct stat st;
  stat(project, &st);
  int files = 0;
  uint64_t dump_bytes = tree_bytes(dump, &files);
  printf("text form of a 4096 x 4096 level, 3 full tile layers (50M cells), best of %d\n", RUNS);
  printf("  dump            %6.2f s   [target < 2 s]\n", best(dumps, RUNS));
  printf("  dump unchanged  %6.2f s   (into the same dump: compares, writes nothing)\n", best(redumps, RUNS));
  printf("  load            %6.2f s   [target < 2 s]   round trip %s\n", best(loads, RUNS), exact ? "exact" : "DIFFERS");
  printf("  sizes: dump %.1f MB in %d files; .tessera %.1f MB; .tlv %.1f MB\n", dump_bytes / 1e6, files,
         (double)st.st_size / 1e6, (double)packed_size / 1e6);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) return 1;
  return exact ? 0 : 1;
}
