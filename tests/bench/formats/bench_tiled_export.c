/* Tiled export benchmark (prints figures; asserts nothing about time):
 * the demo project and a large generated level (1024 x 1024 cells, 4 tile
 * layers, 8 tilesets, a material layer, 200 bodies) exported as TMJ and TMX
 * through the same machinery as the .tlv export, next to the .tlv export of
 * the same levels in the same run (--force, so every level is written; best
 * of several runs), with the output sizes; and, as the peer the issue names,
 * tmxrasterizer loading and drawing the large TMJ (fitted in 1024 px). */
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "project_fixture.h"
#include "pack_fixture.h"
#include "tessera/formats.h"
#include "tessera/image.h"
#include "tessera/store.h"

static char large_map[1200]; /* the large level's TMJ, for tmxrasterizer */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static TessProject *load(const char *path) { return tess_test_load_read_only(path); }

/* Seconds for one forced export of every level; *bytes: the level files'. */
static double export_once(const TessProject *p, const TessExportWriter *writer, const char *dir, unsigned jobs,
                          uint64_t *bytes) {
  TessExportSpec spec;
  memset(&spec, 0, sizeof spec);
  tess_pack_options_default(&spec.options);
  spec.dir = dir;
  spec.jobs = jobs;
  spec.force = true;
  spec.writer = writer;
  TessExport *ex = NULL;
  TessError err;
  double t0 = now();
  CHECK_OK(tess_export_create(p, &spec, &ex, &err), &err);
  if (ex) CHECK_OK(tess_export_run(ex, &err), &err);
  double t = now() - t0;
  *bytes = 0;
  for (size_t i = 0; ex && i < tess_export_job_count(ex); i++) {
    CHECK(tess_export_job(ex, i)->state == TESS_EXPORT_EXPORTED);
    *bytes += tess_export_job(ex, i)->size;
    if (writer == tess_tiled_export_writer(TESS_TILED_TMJ))
      snprintf(large_map, sizeof large_map, "%s", tess_export_job(ex, i)->path);
  }
  tess_export_destroy(ex);
  return t;
}

static void compare(const char *what, const TessProject *p, int runs) {
  static const char *names[3] = {"tlv", "tmj", "tmx"};
  for (unsigned jobs = 1; jobs <= 2; jobs++) {
    printf("%-34s jobs %u:", what, jobs);
    for (int f = 0; f < 3; f++) {
      const TessExportWriter *w = f ? tess_tiled_export_writer(f == 1 ? TESS_TILED_TMJ : TESS_TILED_TMX) : NULL;
      char dir[1024];
      snprintf(dir, sizeof dir, "%s/%s-%s-%u", tess_test_tmpdir(), what[0] == 'd' ? "demo" : "large", names[f], jobs);
      double best = 1e9;
      uint64_t bytes = 0;
      for (int r = 0; r < runs; r++) {
        double t = export_once(p, w, dir, jobs, &bytes);
        if (t < best) best = t;
      }
      printf("  %s %8.1f ms (%6.2f MB)", names[f], best * 1e3, (double)bytes / 1e6);
    }
    printf("\n");
  }
}

/* The fixture's tilesets and sprites have no pixels; a Tiled map needs them. */
static void give_pixels(TessProject *p) {
  TessError err;
  for (uint32_t i = 0; i < p->tileset_count + p->sprite_count; i++) {
    bool tileset = i < p->tileset_count;
    uint32_t w = tileset ? p->tilesets[i]->image_w : p->sprites[i - p->tileset_count]->image_w;
    uint32_t h = tileset ? p->tilesets[i]->image_h : p->sprites[i - p->tileset_count]->image_h;
    TessImage img;
    CHECK_OK(tess_image_create(w, h, &img, &err), &err);
    for (size_t k = 0; k < img.stride * img.height; k++) img.pixels[k] = (uint8_t)(k * 7 + i * 31);
    uint8_t *png = NULL;
    size_t size = 0;
    CHECK_OK(tess_png_encode(tess_image_view(&img), &png, &size, &err), &err);
    tess_image_clear(&img);
    if (tileset) {
      TessTileset c;
      CHECK_OK(tess_tileset_copy(&c, p->tilesets[i]), &err);
      tess_free(c.png);
      c.png = png;
      c.png_size = size;
      CHECK_OK(tess_edit_tileset_set(p, &c, 0, &err), &err);
      tess_tileset_clear(&c);
    } else {
      TessSprite c;
      CHECK_OK(tess_sprite_copy(&c, p->sprites[i - p->tileset_count]), &err);
      tess_free(c.png);
      c.png = png;
      c.png_size = size;
      CHECK_OK(tess_edit_sprite_set(p, &c, 0, &err), &err);
      tess_sprite_clear(&c);
    }
  }
}

static void rasterizer_peer(const char *map) {
  const char *exe = "/usr/bin/tmxrasterizer";
  if (access(exe, X_OK) != 0) {
    printf("tmxrasterizer: not installed\n");
    return;
  }
  char out[1300];
  snprintf(out, sizeof out, "%s.png", map);
  double t0 = now();
  pid_t pid = fork();
  if (pid == 0) {
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    freopen("/dev/null", "w", stderr);
    execl(exe, exe, "--size", "1024", map, out, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  printf("tmxrasterizer (Tiled 1.8.2) load + draw of the large TMJ (fitted in 1024 px): %.1f ms, exit %d\n",
         (now() - t0) * 1e3, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void bench(void) {
  const char *demo = getenv("TESS_DEMO_PROJECT");
  if (demo) {
    char copy[1024], cmd[2200];
    tess_test_path(copy, sizeof copy, "demo.tessera");
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", demo, copy);
    CHECK(system(cmd) == 0);
    TessProject *p = load(copy);
    if (p) compare("demo (3 levels)", p, 20);
    tess_project_destroy(p);
  }
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.width = spec.height = 1024;
  spec.tile_layers = 4;
  spec.bodies = 200;
  TessProject *p = pack_fixture_project(11, &spec);
  CHECK(p != NULL);
  if (!p) return;
  give_pixels(p);
  /* 8 tilesets: copies of the fixture's, each painted on its own band of rows of the top layer. */
  TessError err;
  while (p->tileset_count < 8) {
    TessTilesetDef def;
    tess_tileset_def_default(&def);
    const TessTileset *src = p->tilesets[0];
    char name[32];
    snprintf(name, sizeof name, "extra %u", p->tileset_count);
    def.name = name;
    def.png = src->png;
    def.png_size = src->png_size;
    def.image_w = src->image_w;
    def.image_h = src->image_h;
    def.tile_w = src->tile_w;
    def.tile_h = src->tile_h;
    TessId id = 0;
    CHECK_OK(tess_edit_tileset_add(p, &def, &id, &err), &err);
    if (!id) break;
    TessLevel *level = p->levels[0];
    TessId layer = 0;
    for (uint32_t l = 0; l < level->layer_count; l++)
      if (level->layers[l]->props.kind == TESS_LAYER_TILES) layer = level->layers[l]->props.id;
    uint32_t band = p->tileset_count - 1;
    CHECK_OK(tess_edit_fill_rect(p, level->id, layer, 0, (int32_t)(band * 100), 1024, 40, TESS_CELL_MAKE(id, band, 0), 0,
                                 &err),
             &err);
  }
  printf("large level: %ux%u cells, %u layers, %u tilesets, %u sprites\n", p->levels[0]->settings.width,
         p->levels[0]->settings.height, p->levels[0]->layer_count, p->tileset_count, p->sprite_count);
  compare("large (1024x1024, 4 tile layers)", p, 3);
  rasterizer_peer(large_map);
  tess_project_destroy(p);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {{"tiled_export", bench}};
  return tess_test_run(argc, argv, cases, 1);
}
