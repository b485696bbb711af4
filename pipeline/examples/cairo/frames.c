/* frames: a game's debug view, drawn by libtessera-draw (the painter the
 * editor's Play mode uses) into PNG frames.
 *
 *   frames LEVEL.tlv OUT_DIR [FRAMES]
 *
 * Loads the level, steps it with the fixed-step clock at 30 frames per
 * second, and writes FRAMES (default 30) PNGs of 16 pixels per metre: the
 * colliding cells, every body at its interpolated transform in its
 * material's colour (its sprite when the .tlv embeds the image), zones,
 * pins and contacts. Prints each file. */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/draw.h"
#include "tessera/runtime.h"

#define PPM 16.0

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *buf = NULL;
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) buf = malloc((size_t)n);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = buf ? (size_t)n : 0;
  return buf;
}

typedef struct Bytes {
  const uint8_t *p;
  size_t left;
} Bytes;

static cairo_status_t read_bytes(void *closure, unsigned char *out, unsigned int n) {
  Bytes *b = closure;
  if (n > b->left) return CAIRO_STATUS_READ_ERROR;
  memcpy(out, b->p, n);
  b->p += n;
  b->left -= n;
  return CAIRO_STATUS_SUCCESS;
}

/* Each body's colour (its material's) and sprite (when the file embeds its
 * PNG, decoded by cairo), keyed by the file's 1-based sprite index. */
static void style_bodies(const TlvLevel *lv, const TessScene *scene, TessDraw *draw, TessDrawBodyStyle *styles) {
  for (uint32_t i = 0; i < scene->body_count; i++) {
    TlvBody b;
    TlvMaterial m;
    TlvSprite s;
    if (!tlv_body(lv, i, &b)) continue;
    if (b.material && tlv_material(lv, b.material - 1, &m)) styles[i].color = m.color;
    if (!b.sprite || !tlv_sprite(lv, b.sprite - 1, &s)) continue;
    if (!tess_draw_has_sprite(draw, b.sprite) && s.image_size) {
      Bytes png = {tlv_blob(lv, s.image_offset, s.image_size), s.image_size};
      cairo_surface_t *img = png.p ? cairo_image_surface_create_from_png_stream(read_bytes, &png) : NULL;
      if (img && tess_draw_set_sprite_surface(draw, b.sprite, img, s.frame_count ? s.frame_count : 1, s.frame_rate,
                                              NULL) != TESS_OK)
        fprintf(stderr, "sprite %u: not drawn (its image is not ARGB32)\n", b.sprite);
      if (img) cairo_surface_destroy(img);
    }
    styles[i].sprite = b.sprite;
    styles[i].sprite_origin = tess_v2(-s.anchor_x / scene->ppm, -s.anchor_y / scene->ppm);
  }
}

/* The level's draw order (.tlv 3.5; older files: body order), as the
 * editor draws it. */
static void order_bodies(const TlvLevel *lv, const TessScene *scene, TessDraw *draw) {
  int32_t *depth = calloc(scene->body_count + 1, sizeof *depth);
  uint8_t *y_sort = calloc(scene->body_count + 1, 1);
  for (uint32_t i = 0; depth && y_sort && i < scene->body_count; i++) {
    TlvBodyDraw d;
    if (!tlv_body_draw(lv, i, &d)) continue;
    depth[i] = tess_depth_key(d.layer, d.depth);
    y_sort[i] = d.y_sort;
  }
  if (depth && y_sort) tess_draw_set_order(draw, depth, y_sort, scene->body_count, NULL);
  free(depth);
  free(y_sort);
}

static int write_frame(TessDraw *draw, const TessScene *scene, TessWorld *world, const TessBodyId *ids,
                       const TessDrawBodyStyle *styles, float alpha, const char *path) {
  TessDrawView view = {0.0, 0.0, PPM / scene->ppm, (int)(scene->width * scene->cell_w * PPM),
                       (int)(scene->height * scene->cell_h * PPM)};
  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, view.width, view.height);
  cairo_t *cr = cairo_create(surface);
  tess_draw_world(draw, cr, scene, world, ids, styles, alpha, &view,
                  TESS_DRAW_OVERLAY_ZONES | TESS_DRAW_OVERLAY_PINS | TESS_DRAW_OVERLAY_CONTACTS);
  cairo_destroy(cr);
  int ok = cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS;
  if (ok) printf("%s %dx%d\n", path, view.width, view.height);
  else fprintf(stderr, "%s: cannot write the PNG\n", path);
  cairo_surface_destroy(surface);
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: %s LEVEL.tlv OUT_DIR [FRAMES]\n", argv[0]);
    return 2;
  }
  long frames = argc == 4 ? strtol(argv[3], NULL, 10) : 30;
  if (frames < 1 || frames > 100000) {
    fprintf(stderr, "%s: frames must be 1..100000\n", argv[0]);
    return 2;
  }
  size_t size = 0;
  unsigned char *data = read_file(argv[1], &size);
  TlvLevel lv;
  TlvError terr;
  if (!data || tlv_open(data, size, 0, &lv, &terr) != TLV_OK) {
    fprintf(stderr, "%s: %s\n", argv[1], data ? terr.message : "cannot read the file");
    free(data);
    return 1;
  }
  TessScene *scene = NULL;
  TessWorld *world = NULL;
  TessError err;
  tess_error_clear(&err);
  TessBodyId *ids = NULL;
  TessDrawBodyStyle *styles = NULL;
  TessDraw *draw = tess_draw_create();
  TessClock clock;
  TessClockDef cdef;
  tess_clock_def_default(&cdef);
  cdef.hz = lv.settings.physics_hz;
  TessResult r = draw ? tess_scene_from_pack(&lv, &scene, &err) : TESS_ERR_NOMEM;
  if (r == TESS_OK && (!(ids = calloc(scene->body_count + 1, sizeof *ids)) ||
                       !(styles = calloc(scene->body_count + 1, sizeof *styles))))
    r = TESS_ERR_NOMEM;
  if (r == TESS_OK) r = tess_world_create_from_scene(scene, NULL, &world, ids, &err);
  if (r == TESS_OK) r = tess_clock_init(&clock, &cdef, &err);
  if (r == TESS_OK) style_bodies(&lv, scene, draw, styles);
  if (r == TESS_OK) order_bodies(&lv, scene, draw);
  for (long f = 0; r == TESS_OK && f < frames; f++) { /* the game loop */
    uint32_t due = tess_clock_advance(&clock, 1.0 / 30.0, 1.0);
    for (uint32_t k = 0; k < due && r == TESS_OK; k++) {
      r = tess_world_step(world, 1.0f / cdef.hz, &err);
      tess_draw_collect_world_impacts(draw, world);
    }
    tess_draw_advance_animation(draw, due / (double)cdef.hz);
    char path[4096];
    snprintf(path, sizeof path, "%s/frame-%04ld.png", argv[2], f);
    if (r == TESS_OK && !write_frame(draw, scene, world, ids, styles, (float)tess_clock_alpha(&clock), path))
      r = TESS_ERR_IO;
  }
  if (r != TESS_OK && err.code != TESS_OK) {
    char msg[1200];
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s: %s\n", argv[1], msg);
  }
  tess_draw_destroy(draw);
  tess_world_destroy(world);
  tess_scene_destroy(scene);
  free(styles);
  free(ids);
  free(data);
  return r == TESS_OK ? 0 : 1;
}
