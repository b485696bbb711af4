/* core/pack benchmark (prints figures; asserts nothing about time).
 *  1. Export 1,000 generated levels of 256 x 256 cells, 3 tile layers and
 *     200 bodies, at 1 and 2 jobs: levels per second (target > 200/s on 2
 *     cores). In process (writer + atomic file write, as the CLI's workers
 *     do) over 1,000 jobs cycling through 20 distinct levels (1,000 distinct
 *     256x256x4 levels would need a gigabyte of memory), and the CLI end to
 *     end on a saved project of those 20 levels (load included).
 *  2. Open + validate + first access of a 16 MiB .tlv, next to memcpy of
 *     the same bytes in the same run (target >= 4 GB/s) and next to parsing
 *     the same level written as Tiled-style JSON with CSV cell arrays through
 *     json-glib (target >= 10x faster); the .tlv's size next to the JSON's. */
#define _GNU_SOURCE /* syncfs */
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pack_fixture.h"
#include "tessera/pack.h"
#include "tessera/store.h"
#include "tlv_reader.h"

#define DISTINCT_LEVELS 20
#define EXPORTS 1000

typedef struct Pool {
  const TessProject *p;
  const char *dir;
  int next;
  int failures;
  pthread_mutex_t lock;
} Pool;

static void *export_worker(void *arg) {
  Pool *pool = arg;
  for (;;) {
    pthread_mutex_lock(&pool->lock);
    int i = pool->next < EXPORTS ? pool->next++ : -1;
    pthread_mutex_unlock(&pool->lock);
    if (i < 0) return NULL;
    const TessLevel *level = pool->p->levels[i % pool->p->level_count];
    char path[1024];
    snprintf(path, sizeof path, "%s/level-%d.tlv", pool->dir, i % (int)pool->p->level_count);
    TessError err;
    uint8_t *data = NULL;
    size_t size = 0;
    bool ok = tess_pack_write(pool->p, level, NULL, &data, &size, &err) == TESS_OK;
    /* As the CLI writes: a temporary name, then rename (one syncfs at the end). */
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, i);
    FILE *f = ok ? fopen(tmp, "wb") : NULL;
    ok = f && fwrite(data, 1, size, f) == size;
    if (f) ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    tess_free(data);
    if (!ok) {
      pthread_mutex_lock(&pool->lock);
      pool->failures++;
      pthread_mutex_unlock(&pool->lock);
    }
  }
}

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static double last_cpu_ms_per_level;

static double export_in_process(const TessProject *p, const char *dir, int jobs) {
  Pool pool = {p, dir, 0, 0, PTHREAD_MUTEX_INITIALIZER};
  pthread_t t[8];
  double c0 = cpu_seconds();
  double t0 = tess_now_seconds();
  for (int i = 0; i < jobs; i++) pthread_create(&t[i], NULL, export_worker, &pool);
  for (int i = 0; i < jobs; i++) pthread_join(t[i], NULL);
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    syncfs(fd);
    close(fd);
  }
  double dt = tess_now_seconds() - t0;
  last_cpu_ms_per_level = (cpu_seconds() - c0) * 1e3 / EXPORTS;
  if (pool.failures) printf("  %d exports failed\n", pool.failures);
  return EXPORTS / dt;
}

static double export_cli(const char *exe, const char *project, const char *dir, const char *jobs) {
  double t0 = tess_now_seconds();
  pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stderr);
    execl(exe, exe, "export", project, "-o", dir, "--force", "--jobs", jobs, (char *)NULL);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  double dt = tess_now_seconds() - t0;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) printf("  CLI export failed (status %d)\n", status);
  return DISTINCT_LEVELS / dt;
}

/* ---- The 16 MiB level as Tiled-style JSON -------------------------------- */

static char *tiled_json(const TessProject *p, const TessLevel *level, size_t *size) {
  size_t cap = 64u << 20, n = 0;
  char *s = malloc(cap);
#define PUT(...) n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__)
  PUT("{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":%u,\"height\":%u,\"tilewidth\":%u,\"tileheight\":%u,"
      "\"layers\":[",
      level->settings.width, level->settings.height, level->settings.tile_w, level->settings.tile_h);
  bool first = true;
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    if (layer->props.kind == TESS_LAYER_OBJECTS) {
      PUT("%s{\"type\":\"objectgroup\",\"name\":\"%s\",\"objects\":[", first ? "" : ",", layer->props.name);
      for (uint32_t i = 0; i < layer->object_count; i++) {
        const TessObject *o = &layer->objects[i];
        PUT("%s{\"id\":%u,\"name\":\"%s\",\"x\":%.9g,\"y\":%.9g,\"rotation\":%.9g,\"width\":%.9g,\"height\":%.9g}",
            i ? "," : "", o->id, o->name, (double)o->pos.x, (double)o->pos.y, (double)o->angle, (double)o->u.body.width,
            (double)o->u.body.height);
      }
      PUT("]}");
    } else {
      PUT("%s{\"type\":\"tilelayer\",\"name\":\"%s\",\"width\":%u,\"height\":%u,\"encoding\":\"csv\",\"data\":\"",
          first ? "" : ",", layer->props.name, level->settings.width, level->settings.height);
      for (uint32_t y = 0; y < level->settings.height; y++)
        for (uint32_t x = 0; x < level->settings.width; x++) {
          if (cap - n < 64) {
            cap *= 2;
            s = realloc(s, cap);
          }
          PUT("%s%u", x || y ? "," : "", tess_layer_cell(layer, x, y));
        }
      PUT("\"}");
    }
    first = false;
  }
  PUT("],\"tilesets\":[");
  for (uint32_t i = 0; i < p->tileset_count; i++)
    PUT("%s{\"firstgid\":%u,\"name\":\"%s\",\"tilecount\":%u}", i ? "," : "", p->tilesets[i]->id << 16,
        p->tilesets[i]->name, p->tilesets[i]->tile_count);
  PUT("]}");
#undef PUT
  *size = n;
  return s;
}

/* Parses the JSON and decodes every CSV cell array into integers (what a
 * loader must do before the cells are usable). Returns the cells decoded. */
static uint64_t parse_tiled_json(const char *text, size_t size, uint32_t *cells, size_t cell_cap) {
  JsonParser *parser = json_parser_new();
  uint64_t count = 0;
  if (json_parser_load_from_data(parser, text, (gssize)size, NULL)) {
    JsonObject *map = json_node_get_object(json_parser_get_root(parser));
    JsonArray *layers = json_object_get_array_member(map, "layers");
    for (guint i = 0; i < json_array_get_length(layers); i++) {
      JsonObject *layer = json_array_get_object_element(layers, i);
      if (!json_object_has_member(layer, "data")) continue;
      const char *c = json_object_get_string_member(layer, "data");
      size_t k = 0;
      while (*c && k < cell_cap) {
        char *end;
        cells[k++] = (uint32_t)strtoul(c, &end, 10);
        c = *end == ',' ? end + 1 : end;
      }
      count += k;
    }
  }
  g_object_unref(parser);
  return count;
}

int main(int argc, char **argv) {
  /* --reader: only the reader's figures (part 2 up to the per-cell read), quick to repeat. */
  bool reader_only = argc > 1 && strcmp(argv[1], "--reader") == 0;
  const char *exe = argc > 1 && !reader_only ? argv[1] : getenv("TESS_PIPELINE");
  printf("core/pack benchmark (%ld cores online)\n\n", sysconf(_SC_NPROCESSORS_ONLN));

  /* 1. Export. */
  PackFixtureSpec spec;
  TessProject *p = NULL;
  TessError err;
  if (!reader_only) {
    pack_fixture_spec_default(&spec);
    spec.width = 256;
    spec.height = 256;
    spec.tile_layers = 3;
    spec.bodies = 200;
    spec.joints = 20;
    spec.levels = DISTINCT_LEVELS;
    double t0 = tess_now_seconds();
    p = pack_fixture_project(2024, &spec);
    if (!p) return 1;
    printf("generated %d levels of 256x256 cells, 3 tile layers, 200 bodies in %.2f s\n", DISTINCT_LEVELS,
           tess_now_seconds() - t0);
    char dir[1024], project[1024];
    tess_test_path(dir, sizeof dir, "out");
    mkdir(dir, 0755);
    uint8_t *one = NULL;
    size_t one_size = 0;
    tess_pack_write(p, p->levels[0], NULL, &one, &one_size, &err);
    printf("one level: %zu bytes as .tlv\n", one_size);
    tess_free(one);
    double l1 = export_in_process(p, dir, 1);
    double cpu1 = last_cpu_ms_per_level;
    double l2 = export_in_process(p, dir, 2);
    double load[3] = {0, 0, 0};
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
      if (fscanf(lf, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = 0;
      fclose(lf);
    }
    printf("  CPU time per level (write + file): %.2f ms, i.e. %.0f levels/s per idle core; load average now %.2f\n", cpu1,
           1000.0 / cpu1, load[0]);
    printf(
        "export %d levels in process (write, rename, one syncfs): %8.1f levels/s at 1 job, %8.1f levels/s at 2 jobs"
        "   [target > 200/s on 2 cores]\n",
        EXPORTS, l1, l2);
    tess_test_path(project, sizeof project, "bench.tessera");
    TessStore *store = NULL;
    if (exe && tess_store_open(project, TESS_STORE_CREATE, &store, &err) == TESS_OK &&
        tess_store_save_all(store, p, &err) == TESS_OK) {
      tess_store_close(store);
      double c1 = export_cli(exe, project, dir, "1"), c2 = export_cli(exe, project, dir, "2");
      printf(
          "tessera-pipeline export of %d levels end to end (project load included): %8.1f levels/s at 1 job, "
          "%8.1f at 2 jobs\n",
          DISTINCT_LEVELS, c1, c2);
    } else {
      if (store) tess_store_close(store);
      printf("(tessera-pipeline not given: CLI figure skipped)\n");
    }
    tess_project_destroy(p);
  }

  /* 2. A 16 MiB .tlv: 1180 x 1180 cells, 3 tile layers, walls and scattered tiles. */
  pack_fixture_spec_default(&spec);
  spec.width = 1180;
  spec.height = 1180;
  spec.tile_layers = 3;
  spec.bodies = 200;
  spec.noise = false;
  p = pack_fixture_project(77, &spec);
  if (!p) return 1;
  uint8_t *tlv = NULL;
  size_t tlv_size = 0;
  if (tess_pack_write(p, p->levels[0], NULL, &tlv, &tlv_size, &err) != TESS_OK) return 1;
  /* A 16-byte aligned private copy, as mmap would give. */
  uint8_t *buf = aligned_alloc(64, (tlv_size + 63) & ~(size_t)63), *dst = aligned_alloc(64, (tlv_size + 63) & ~(size_t)63);
  memcpy(buf, tlv, tlv_size);
  memset(dst, 1, tlv_size);
  const int reps = 40;
  TlvLevel lv;
  TlvError terr;
  uint64_t sink = 0;
  double best_open = 1e9, best_copy = 1e9;
  for (int r = 0; r < reps; r++) {
    double a = tess_now_seconds();
    if (tlv_open(buf, tlv_size, 0, &lv, &terr) != TLV_OK) {
      printf("open failed: %s\n", terr.message);
      return 1;
    }
    TlvLayer layer;
    TlvBody body;
    tlv_layer(&lv, 0, &layer);
    tlv_body(&lv, 0, &body);
    sink += tlv_layer_cell(&lv, &layer, 590, 590) + body.object_id;
    double b = tess_now_seconds();
    memcpy(dst, buf, tlv_size);
    sink += dst[r * 977 % tlv_size];
    double c = tess_now_seconds();
    if (b - a < best_open) best_open = b - a;
    if (c - b < best_copy) best_copy = c - b;
  }
  double mib = tlv_size / 1048576.0;
  printf("\n.tlv of %.1f MiB (%u x %u, %u layers, %u bodies)\n", mib, lv.settings.width, lv.settings.height,
         lv.layers.count, lv.bodies.count);
  printf("open + validate (checksums, every index and cell) + first access: %8.3f ms = %6.2f GB/s   [target >= 4 GB/s]\n",
         best_open * 1e3, tlv_size / best_open / 1e9);
  printf("memcpy of the same bytes (same run):                              %8.3f ms = %6.2f GB/s\n", best_copy * 1e3,
         tlv_size / best_copy / 1e9);
  double best_nocheck = 1e9;
  for (int r = 0; r < reps; r++) {
    double a = tess_now_seconds();
    tlv_open(buf, tlv_size, TLV_OPEN_SKIP_CHECKSUMS, &lv, &terr);
    double b = tess_now_seconds();
    if (b - a < best_nocheck) best_nocheck = b - a;
  }
  printf("open + structure checks only (TLV_OPEN_SKIP_CHECKSUMS):         %8.3f ms = %6.2f GB/s\n", best_nocheck * 1e3,
         tlv_size / best_nocheck / 1e9);

  /* The game's per-cell read: grid -> entry (-> material layer under paint). */
  double best_cells = 1e9;
  for (int r = 0; r < 5; r++) {
    double a = tess_now_seconds();
    for (uint32_t y = 0; y < lv.settings.height; y++)
      for (uint32_t x = 0; x < lv.settings.width; x++) {
        TlvCollisionEntry e;
        if (tlv_collision_cell(&lv, x, y, &e)) sink += e.material + e.kind;
      }
    double b = tess_now_seconds();
    if (b - a < best_cells) best_cells = b - a;
  }
  printf("every cell's collision entry and material (tlv_collision_cell):  %8.3f ms = %5.2f ns per cell\n",
         best_cells * 1e3, best_cells * 1e9 / ((double)lv.settings.width * lv.settings.height));
  if (getenv("TESS_BENCH_SAVE_TLV")) { /* the level itself, to time other readers on the same bytes */
    FILE *f = fopen(getenv("TESS_BENCH_SAVE_TLV"), "wb");
    if (f) {
      fwrite(tlv, 1, tlv_size, f);
      fclose(f);
    }
  }
  if (reader_only) {
    printf("(sink %llu)\n", (unsigned long long)sink);
    free(buf);
    free(dst);
    tess_free(tlv);
    tess_project_destroy(p);
    return 0;
  }

  size_t json_size = 0;
  char *json = tiled_json(p, p->levels[0], &json_size);
  size_t cell_cap = (size_t)spec.width * spec.height;
  uint32_t *cells = malloc(cell_cap * sizeof *cells);
  double best_json = 1e9;
  for (int r = 0; r < 3; r++) {
    double a = tess_now_seconds();
    sink += parse_tiled_json(json, json_size, cells, cell_cap);
    double b = tess_now_seconds();
    if (b - a < best_json) best_json = b - a;
  }
  printf(
      "Tiled-style JSON (CSV cells) parsed by json-glib + cells decoded: %8.3f ms = %6.2f GB/s   -> .tlv is %.0fx faster "
      "[target >= 10x]\n",
      best_json * 1e3, json_size / best_json / 1e9, best_json / best_open);
  uint64_t cell_bytes = 0;
  for (uint32_t i = 0; i < lv.layers.count; i++) {
    TlvLayer layer;
    tlv_layer(&lv, i, &layer);
    cell_bytes += (uint64_t)layer.cell_width * lv.settings.width * lv.settings.height;
  }
  printf("size: .tlv %.2f MiB, JSON %.2f MiB (%.2fx larger)   [target: .tlv smaller]\n", mib, json_size / 1048576.0,
         (double)json_size / tlv_size);
  printf(
      "      (the .tlv also holds what the JSON lacks: collision grid %.2f MiB, merged loops and rectangles %.2f MiB;"
      " its layers alone take %.2f MiB)\n",
      lv.collision_grid.size / 1048576.0, (lv.loops.size + lv.corners.size + lv.rects.size) / 1048576.0,
      cell_bytes / 1048576.0);
  printf(
      "      (collision palette %u entries, grid %u byte(s) per cell; %u loops, %u corners (%u bytes each), %u rectangles"
      " (%u bytes each))\n",
      lv.collision_palette.count, lv.collision_grid.stride, lv.loops.count, lv.corners.count, lv.corners.stride,
      lv.rects.count, lv.rects.stride);
  /* The same comparison on a level of contiguous terrain (walls, floors,
   * decoration rows, no scattered solid tiles): what most levels look like. */
  {
    PackFixtureSpec t;
    pack_fixture_spec_default(&t);
    t.width = 1180;
    t.height = 1180;
    t.tile_layers = 3;
    t.bodies = 200;
    t.terrain_only = true;
    TessProject *tp = pack_fixture_project(78, &t);
    uint8_t *tt = NULL;
    size_t tt_size = 0, tj_size = 0;
    if (tp && tess_pack_write(tp, tp->levels[0], NULL, &tt, &tt_size, &err) == TESS_OK) {
      char *tj = tiled_json(tp, tp->levels[0], &tj_size);
      printf("terrain level of the same size: .tlv %.2f MiB, JSON %.2f MiB (%.1fx larger)\n", tt_size / 1048576.0,
             tj_size / 1048576.0, (double)tj_size / tt_size);
      free(tj);
    }
    tess_free(tt);
    tess_project_destroy(tp);
  }
  printf("(sink %llu)\n", (unsigned long long)sink);
  free(json);
  free(cells);
  free(buf);
  free(dst);
  tess_free(tlv);
  tess_project_destroy(p);
  return 0;
}
