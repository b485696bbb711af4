/* core/store benchmark: a 4096 x 4096 level with three full tile layers.
 * Prints each figure beside its target and the physical limit where one
 * applies (reading the same bytes with read(), copying them with memcpy).
 * Asserts nothing about time. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "project_fixture.h"
#include "tessera/store.h"

#define SIDE 4096
#define LAYERS 3
#define FILL_SIDE 1000 /* the flood-filled square: 1,000,000 cells */

/* CPU seconds of this process (user + system): steadier than wall time on a shared machine. */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const TessError *err) {
  char buf[1200];
  tess_error_format(err, buf, sizeof buf);
  fprintf(stderr, "bench-store: %s: %s\n", what, buf);
  exit(1);
}

static double median(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
      double t = v[k];
      v[k] = v[k - 1];
      v[k - 1] = t;
    }
  return v[n / 2];
}

/* Seconds to read the whole file with read() (warm cache), and to memcpy as many bytes. */
static void physical_limits(const char *path, double *read_s, double *copy_s, size_t *bytes) {
  int fd = open(path, O_RDONLY);
  struct stat st;
  fstat(fd, &st);
  *bytes = (size_t)st.st_size;
  char *buf = malloc(*bytes), *dst = malloc(*bytes);
  memset(buf, 1, *bytes); /* fault the pages in first: measure reading and copying, not the kernel's zeroing */
  memset(dst, 2, *bytes);
  double t0 = tess_now_seconds();
  size_t got = 0;
  ssize_t n;
  while (got < *bytes && (n = read(fd, buf + got, *bytes - got)) > 0) got += (size_t)n;
  *read_s = tess_now_seconds() - t0;
  close(fd);
  t0 = tess_now_seconds();
  memcpy(dst, buf, got);
  *copy_s = tess_now_seconds() - t0;
  if (dst[got / 2] != buf[got / 2]) abort();
  free(buf);
  free(dst);
}

static void remove_project(const char *path) { tess_test_remove_project(path); }

int main(void) {
  char dir[] = "/tmp/tessera-bench-store-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char path[600];
  snprintf(path, sizeof path, "%s/big.tessera", dir);
  TessError err;

  /* ---- build the level in memory and write it ------------------------- */
  TessProject *p = tess_project_create();
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Tiles";
  def.image_w = def.image_h = 512;
  def.tile_w = def.tile_h = 16;
  TessId ts = 0, level_id = 0;
  if (tess_edit_tileset_add(p, &def, &ts, &err)) die("tileset", &err);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  ls.width = ls.height = SIDE;
  if (tess_edit_level_add(p, &ls, &level_id, &err)) die("level", &err);
  TessId extra;
  if (tess_edit_layer_add(p, level_id, TESS_LAYER_TILES, "Walls", -1, &extra, &err)) die("layer", &err);
  if (tess_edit_layer_add(p, level_id, TESS_LAYER_TILES, "Decor", -1, &extra, &err)) die("layer", &err);
  TessLevel *level = tess_project_level(p, level_id);
  TessLayer *tile_layers[LAYERS];
  int found = 0;
  for (uint32_t i = 0; i < level->layer_count && found < LAYERS; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_TILES) tile_layers[found++] = level->layers[i];
  if (found != LAYERS) return 1;
  uint32_t *cells = malloc(sizeof(uint32_t) * TESS_CHUNK_CELLS);
  TessCell inside = TESS_CELL_MAKE(ts, 1, 0), outside = TESS_CELL_MAKE(ts, 2, 0);
  for (int l = 0; l < LAYERS; l++)
    for (uint32_t cy = 0; cy < SIDE / TESS_CHUNK_SIZE; cy++)
      for (uint32_t cx = 0; cx < SIDE / TESS_CHUNK_SIZE; cx++) {
        for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++) {
          uint32_t x = cx * TESS_CHUNK_SIZE + i % TESS_CHUNK_SIZE, y = cy * TESS_CHUNK_SIZE + i / TESS_CHUNK_SIZE;
          if (l == 0)
            cells[i] = (x < FILL_SIDE && y < FILL_SIDE) ? inside : outside;
          else
            cells[i] = TESS_CELL_MAKE(ts, (x * 7 + y * 13 + (uint32_t)l) % 1024, (x ^ y) & 1 ? TESS_CELL_FLIP_H : 0);
        }
        if (tess_layer_insert_chunk(tile_layers[l], cx, cy, cells, &err)) die("chunk", &err);
      }
  free(cells);
  remove_project(path);
  TessStore *store = NULL;
  double t0 = tess_now_seconds();
  if (tess_store_open(path, TESS_STORE_CREATE, &store, &err)) die("create", &err);
  if (tess_store_save_all(store, p, &err)) die("save_all", &err);
  double t_save = tess_now_seconds() - t0;
  t0 = tess_now_seconds();
  tess_store_close(store);
  store = NULL;
  double t_close = tess_now_seconds() - t0;
  uint64_t built_hash = tess_project_hash(p);
  tess_project_destroy(p);

  double read_s, copy_s;
  size_t file_bytes;
  physical_limits(path, &read_s, &copy_s, &file_bytes);

  /* ---- open + load (warm cache), best of 3 ------------------------------ */
  double loads[3], load_cpu[3];
  p = NULL;
  for (int run = 0; run < 3; run++) {
    if (p) tess_project_destroy(p);
    if (store) tess_store_close(store);
    double c0 = cpu_seconds();
    t0 = tess_now_seconds();
    if (tess_store_open(path, TESS_STORE_READ_WRITE, &store, &err)) die("open", &err);
    if (tess_store_load(store, &p, &err)) die("load", &err);
    loads[run] = tess_now_seconds() - t0;
    load_cpu[run] = cpu_seconds() - c0;
  }
  if (tess_project_hash(p) != built_hash) {
    fprintf(stderr, "bench-store: the loaded level differs from the one written\n");
    return 1;
  }
  level = tess_project_level(p, level_id);
  TessId ground = level->layers[0]->props.id;
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_TILES) {
      ground = level->layers[i]->props.id;
      break;
    }
  size_t mem = tess_level_memory_bytes(level);
  double bytes_per_cell = (double)mem / ((double)SIDE * SIDE * LAYERS);

  /* ---- a brush stroke of 64 cells, then one commit; median of 15 --------- */
  double strokes[15], commits[15];
  TessStoreStats before, after;
  tess_store_stats(store, &before);
  for (int run = 0; run < 15; run++) {
    uint32_t merge = tess_project_new_merge_key(p);
    TessCell c = TESS_CELL_MAKE(ts, 100 + (uint32_t)run, 0);
    t0 = tess_now_seconds();
    for (int i = 0; i < 64; i++) /* a diagonal drag across chunk borders */
      if (tess_edit_paint(p, level_id, ground, 2000 + run * 3 + i, 2000 + i / 2, 1, 1, &c, merge, &err))
        die("paint", &err);
    double t1 = tess_now_seconds();
    if (tess_store_flush(store, p, &err)) die("flush", &err);
    strokes[run] = tess_now_seconds() - t0;
    commits[run] = tess_now_seconds() - t1;
  }
  tess_store_stats(store, &after);
  double stroke_chunks = (double)(after.chunk_rows_written - before.chunk_rows_written) / 15.0;

  /* The same stroke, committed after every dab (the editor's live mode). */
  double dab_total = 0;
  {
    uint32_t merge = tess_project_new_merge_key(p);
    TessCell c = TESS_CELL_MAKE(ts, 200, 0);
    t0 = tess_now_seconds();
    for (int i = 0; i < 64; i++) {
      if (tess_edit_paint(p, level_id, ground, 3000 + i, 3000 + i / 2, 1, 1, &c, merge, &err)) die("paint", &err);
      if (tess_store_flush(store, p, &err)) die("flush", &err);
    }
    dab_total = tess_now_seconds() - t0;
  }

  /* ---- flood fill 1,000,000 cells + commit -------------------------------- */
  TessCell filled = TESS_CELL_MAKE(ts, 3, TESS_CELL_FLIP_V);
  tess_store_stats(store, &before);
  t0 = tess_now_seconds();
  if (tess_edit_flood_fill(p, level_id, ground, 0, 0, filled, 0, &err)) die("flood fill", &err);
  double t_fill = tess_now_seconds() - t0;
  if (tess_store_flush(store, p, &err)) die("flush", &err);
  double t_fill_total = tess_now_seconds() - t0;
  tess_store_stats(store, &after);
  TessLayer *gl = tess_level_layer(level, ground);
  if (tess_layer_cell(gl, 999, 999) != filled || tess_layer_cell(gl, 1000, 999) != outside) {
    fprintf(stderr, "bench-store: the flood fill did not cover exactly the square\n");
    return 1;
  }
  uint64_t fill_chunks = after.chunk_rows_written - before.chunk_rows_written;

  t0 = tess_now_seconds();
  if (tess_store_checkpoint(store, &err)) die("checkpoint", &err);
  double t_ckpt = tess_now_seconds() - t0;
  uint64_t edited_hash = tess_project_hash(p);
  tess_store_close(store);
  tess_project_destroy(p);
  store = NULL;
  /* Everything committed is there. */
  if (tess_store_open(path, TESS_STORE_READ_ONLY, &store, &err)) die("reopen", &err);
  if (tess_store_load(store, &p, &err)) die("reload", &err);
  int same = tess_project_hash(p) == edited_hash;
  tess_project_destroy(p);
  tess_store_close(store);
  remove_project(path);
  rmdir(dir);

  double mb = (double)file_bytes / (1024.0 * 1024.0);
  printf("core/store: %d x %d level, %d full tile layers, %.1f MiB file (%zu chunk rows)\n", SIDE, SIDE, LAYERS, mb,
         (size_t)LAYERS * (SIDE / TESS_CHUNK_SIZE) * (SIDE / TESS_CHUNK_SIZE));
  printf("  %-44s %9s  %-10s %s\n", "figure", "measured", "target", "limit / peer");
  int best = 0;
  for (int i = 1; i < 3; i++)
    if (loads[i] < loads[best]) best = i;
  printf("  %-44s %7.1f ms  %-10s read() of the file %.1f ms, memcpy %.1f ms\n", "open + load (best of 3, warm cache)",
         1e3 * loads[best], "< 300 ms", 1e3 * read_s, 1e3 * copy_s);
  printf("  %-44s %7.1f ms\n", "  of which CPU time (user + system)", 1e3 * load_cpu[best]);
  printf("  %-44s %7.2f ms  %-10s commit alone %.2f ms, %.1f chunk rows\n", "brush stroke 64 cells + commit (median)",
         1e3 * median(strokes, 15), "< 5 ms", 1e3 * median(commits, 15), stroke_chunks);
  printf("  %-44s %7.2f ms  %-10s %.3f ms per dab\n", "same stroke, committed after every dab", 1e3 * dab_total, "-",
         1e3 * dab_total / 64);
  printf("  %-44s %7.1f ms  %-10s fill alone %.1f ms, %llu chunk rows (%.1f MiB)\n",
         "flood fill 1,000,000 cells + commit", 1e3 * t_fill_total, "< 100 ms", 1e3 * t_fill,
         (unsigned long long)fill_chunks, (double)fill_chunks * 4096 / (1024.0 * 1024.0));
  printf("  %-44s %7.2f B    %-10s 4 B (one uint32 per cell)\n", "memory per cell per layer", bytes_per_cell,
         "<= 5 B");
  printf("  %-44s %7.1f ms\n", "save_all of the whole level (setup)", 1e3 * t_save);
  printf("  %-44s %7.1f ms\n", "close: checkpoint of that (setup)", 1e3 * t_close);
  printf("  %-44s %7.1f ms\n", "checkpoint after the edits", 1e3 * t_ckpt);
  printf("  reopened after the edits: %s\n", same ? "identical" : "DIFFERENT");
  return same ? 0 : 1;
}
