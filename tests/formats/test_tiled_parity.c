/* The exported Tiled maps drawn by the real tool: Debian's tmxrasterizer
 * (Tiled 1.8.2's own renderer) loads every demo level written as TMJ and as
 * TMX, plus a generated level with flipped and rotated tiles from several
 * layers, and must draw the same picture as core/render draws the level's
 * tile layers (no overlays, no background): equal size, and at most 0.5%
 * of pixels differing by more than 8/255 in any channel (premultiplied).
 * Object layers are hidden in tmxrasterizer (--hide-layer) since Tessera's
 * tile render has none; the material layer is hidden in the map itself.
 * Skips (77) when tmxrasterizer is not installed. */
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "project_fixture.h"
#include "pack_fixture.h"
#include "tessera/image.h"
#include "tessera/render.h"
#include "tessera/store.h"
#include "tessera/formats.h"

static const char *rasterizer;

static TessProject *load_demo(void) {
  const char *path = getenv("TESS_DEMO_PROJECT");
  CHECK_MSG(path != NULL, "TESS_DEMO_PROJECT not set");
  if (!path) return NULL;
  char copy[1024], cmd[2300];
  tess_test_path(copy, sizeof copy, "demo.tessera");
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
  CHECK(system(cmd) == 0);
  return tess_test_load_read_only(copy);
}

/* tmxrasterizer MAP OUT with every object layer hidden; exit status. */
static int rasterize(const TessLevel *level, const char *map, const char *out) {
  const char *argv[80];
  int n = 0;
  argv[n++] = rasterizer;
  for (uint32_t i = 0; i < level->layer_count && n < 74; i++) {
    if (level->layers[i]->props.kind != TESS_LAYER_OBJECTS) continue;
    argv[n++] = "--hide-layer";
    argv[n++] = level->layers[i]->props.name;
  }
  argv[n++] = map;
  argv[n++] = out;
  argv[n] = NULL;
  pid_t pid = fork();
  if (pid == 0) {
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    freopen("/dev/null", "w", stderr);
    execv(rasterizer, (char *const *)argv);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static uint8_t premul(uint8_t c, uint8_t a) { return (uint8_t)((c * a + 127) / 255); }

/* Pixels of Tessera's tile render differing from tmxrasterizer's by more
 * than 8/255 in a channel; -1 when the sizes differ. */
static long differing(const TessProject *p, const TessLevel *level, const char *png, long *total, int *worst) {
  TessRenderOptions opt;
  tess_render_options_default(&opt);
  opt.flags = TESS_RENDER_TILES;
  cairo_surface_t *s = NULL;
  TessError err;
  CHECK_OK(tess_render_level_to_surface(p, level, 1.0, &opt, &s, &err), &err);
  TessImage img = {0};
  CHECK_OK(tess_png_load(png, &img, &err), &err);
  long bad = -1;
  *worst = 0;
  if (s && img.pixels && (uint32_t)cairo_image_surface_get_width(s) == img.width &&
      (uint32_t)cairo_image_surface_get_height(s) == img.height) {
    cairo_surface_flush(s);
    const uint8_t *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    bad = 0;
    *total = (long)img.width * img.height;
    for (uint32_t y = 0; y < img.height; y++)
      for (uint32_t x = 0; x < img.width; x++) {
        uint32_t t;
        memcpy(&t, data + (size_t)y * stride + x * 4, 4);
        const uint8_t *q = img.pixels + (size_t)y * img.stride + x * 4;
        int ours[4] = {(int)(t >> 16 & 255), (int)(t >> 8 & 255), (int)(t & 255), (int)(t >> 24)};
        int theirs[4] = {premul(q[0], q[3]), premul(q[1], q[3]), premul(q[2], q[3]), q[3]};
        int d = 0;
        for (int c = 0; c < 4; c++) {
          int e = abs(ours[c] - theirs[c]);
          if (e > d) d = e;
        }
        if (d > *worst) *worst = d;
        bad += d > 8;
      }
  } else if (s && img.pixels) {
    fprintf(stderr, "  sizes differ: ours %dx%d, tmxrasterizer %ux%u\n", cairo_image_surface_get_width(s),
            cairo_image_surface_get_height(s), img.width, img.height);
  }
  if (s) cairo_surface_destroy(s);
  tess_image_clear(&img);
  return bad;
}

static void check_level(const TessProject *p, const TessLevel *level, const char *tag) {
  static const char *ext[2] = {"tmj", "tmx"};
  for (int f = 0; f < 2; f++) {
    char dir[1024], map[1100], png[1100];
    snprintf(dir, sizeof dir, "%s/%s-%s", tess_test_tmpdir(), tag, ext[f]);
    mkdir(dir, 0777);
    snprintf(map, sizeof map, "%s/level.%s", dir, ext[f]);
    snprintf(png, sizeof png, "%s/tiled.png", dir);
    TessError err;
    CHECK_OK(tess_tiled_write_level(p, level, f ? TESS_TILED_TMX : TESS_TILED_TMJ, map, &err), &err);
    int rc = rasterize(level, map, png);
    CHECK_MSG(rc == 0, "tmxrasterizer %s exited %d", map, rc);
    if (rc != 0) continue;
    long total = 0;
    int worst = 0;
    long bad = differing(p, level, png, &total, &worst);
    CHECK_MSG(bad >= 0, "%s: image sizes differ", map);
    if (bad < 0) continue;
    double share = 100.0 * (double)bad / (double)total;
    printf("parity %-10s %s: %ld of %ld pixels differ by more than 8/255 (%.4f%%), largest difference %d/255\n",
           level->settings.name, ext[f], bad, total, share, worst);
    CHECK_MSG(share <= 0.5, "%s: %.3f%% of pixels differ", map, share);
  }
}

static void test_demo_levels(void) {
  TessProject *p = load_demo();
  if (!p) return;
  CHECK(p->level_count >= 2);
  for (uint32_t i = 0; i < p->level_count; i++) {
    char tag[32];
    snprintf(tag, sizeof tag, "demo%u", i);
    check_level(p, p->levels[i], tag);
  }
  tess_project_destroy(p);
}

/* The fixture's tilesets have no pixels: give each an image whose tiles
 * are all different and asymmetric (so a wrong flip shows). */
static void paint_tilesets(TessProject *p) {
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    const TessTileset *ts = p->tilesets[i];
    TessImage img;
    TessError err;
    CHECK_OK(tess_image_create(ts->image_w, ts->image_h, &img, &err), &err);
    if (!img.pixels) continue;
    for (uint32_t y = 0; y < img.height; y++)
      for (uint32_t x = 0; x < img.width; x++) {
        uint8_t *px = img.pixels + (size_t)y * img.stride + x * 4;
        uint32_t tx = x % ts->tile_w, ty = y % ts->tile_h, tile = (y / ts->tile_h) * 16 + x / ts->tile_w;
        px[0] = (uint8_t)(tx * 255 / ts->tile_w);
        px[1] = (uint8_t)(ty * 255 / ts->tile_h);
        px[2] = (uint8_t)(tile * 37 + (tx > ty ? 90 : 0));
        px[3] = (uint8_t)(tx + ty < 3 ? 0 : 255); /* a transparent corner */
      }
    TessTileset copy;
    CHECK_OK(tess_tileset_copy(&copy, ts), &err);
    tess_free(copy.png);
    copy.png = NULL;
    CHECK_OK(tess_png_encode(tess_image_view(&img), &copy.png, &copy.png_size, &err), &err);
    CHECK_OK(tess_edit_tileset_set(p, &copy, 0, &err), &err);
    tess_tileset_clear(&copy);
    tess_image_clear(&img);
  }
  for (uint32_t i = 0; i < p->sprite_count; i++) { /* sprite bodies are tile objects: they need pixels too */
    const TessSprite *sp = p->sprites[i];
    TessImage img;
    TessError err;
    CHECK_OK(tess_image_create(sp->image_w, sp->image_h, &img, &err), &err);
    if (!img.pixels) continue;
    memset(img.pixels, 200, img.stride * img.height);
    TessSprite copy;
    CHECK_OK(tess_sprite_copy(&copy, sp), &err);
    tess_free(copy.png);
    copy.png = NULL;
    CHECK_OK(tess_png_encode(tess_image_view(&img), &copy.png, &copy.png_size, &err), &err);
    CHECK_OK(tess_edit_sprite_set(p, &copy, 0, &err), &err);
    tess_sprite_clear(&copy);
    tess_image_clear(&img);
  }
}

/* Random tiles with every flip combination on three layers, some
 * translucent or hidden: the gid flip bits and layer flags as Tiled reads them. */
static void test_flipped_tiles(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.width = 40;
  spec.height = 30;
  spec.tile_layers = 3;
  spec.noise = true;
  TessProject *p = pack_fixture_project(7, &spec);
  CHECK(p != NULL);
  if (!p) return;
  paint_tilesets(p);
  TessLevel *level = p->levels[0];
  uint32_t flipped = 0;
  for (uint32_t l = 0; l < level->layer_count; l++)
    for (uint32_t y = 0; y < level->settings.height; y++)
      for (uint32_t x = 0; x < level->settings.width; x++)
        flipped += (tess_layer_cell(level->layers[l], x, y) & TESS_CELL_FLIPS) != 0;
  CHECK_MSG(flipped > 50, "the fixture has %u flipped cells", flipped);
  check_level(p, level, "flips");
  tess_project_destroy(p);
}

int main(int argc, char **argv) {
  rasterizer = getenv("TESS_TMXRASTERIZER");
  if (!rasterizer || !rasterizer[0]) rasterizer = "/usr/bin/tmxrasterizer";
  if (access(rasterizer, X_OK) != 0) {
    printf("tmxrasterizer not found at %s: skipped\n", rasterizer);
    return 77;
  }
  static const TessTestCase cases[] = {
      {"demo_levels", test_demo_levels},
      {"flipped_tiles", test_flipped_tiles},
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
