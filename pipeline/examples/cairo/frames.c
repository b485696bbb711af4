/* frames: the runtime drawn with cairo into PNG frames, as a game's debug
 * view would draw it (cairo is the example's own dependency, not the
 * runtime's).
 *
 *   frames LEVEL.tlv OUT_DIR [FRAMES]
 *
 * Loads the level, steps it with the fixed-step clock at 30 frames per
 * second, and writes FRAMES (default 30) PNGs: the solid cells, then every
 * body's shapes at its interpolated transform (dynamic bodies orange,
 * static grey, sensors outlined), 16 pixels per metre. Prints each file. */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>

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

static void draw_cells(cairo_t *cr, const TessScene *s) {
  cairo_set_source_rgb(cr, 0.35, 0.38, 0.42);
  for (uint32_t y = 0; y < s->height; y++)
    for (uint32_t x = 0; x < s->width; x++)
      if (s->cell_kind[y * s->width + x] != TESS_MAP_EMPTY)
        cairo_rectangle(cr, x * s->cell_w, y * s->cell_h, s->cell_w, s->cell_h);
  cairo_fill(cr);
}

static void shape_path(cairo_t *cr, const TessSceneShape *sh) {
  if (sh->type == TESS_SHAPE_CIRCLE) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, sh->v[0].x, sh->v[0].y, sh->radius, 0, 6.283185307);
  } else if (sh->type == TESS_SHAPE_CAPSULE) {
    TessVec2 d = tess_v2_sub(sh->v[1], sh->v[0]);
    double a = atan2(d.y, d.x);
    cairo_new_sub_path(cr);
    cairo_arc(cr, sh->v[1].x, sh->v[1].y, sh->radius, a - 1.5707963, a + 1.5707963);
    cairo_arc(cr, sh->v[0].x, sh->v[0].y, sh->radius, a + 1.5707963, a + 4.7123890);
    cairo_close_path(cr);
  } else {
    for (uint32_t k = 0; k < sh->count; k++) cairo_line_to(cr, sh->v[k].x, sh->v[k].y);
    cairo_close_path(cr);
  }
}

static void draw_bodies(cairo_t *cr, const TessScene *s, TessWorld *w, const TessBodyId *ids, float alpha) {
  for (uint32_t i = 0; i < s->body_count; i++) {
    const TessSceneBody *b = &s->bodies[i];
    if (!tess_body_is_valid(w, ids[i])) continue;
    TessTransform xf = tess_body_interpolated_transform(w, ids[i], alpha);
    cairo_save(cr);
    cairo_translate(cr, xf.p.x, xf.p.y);
    cairo_rotate(cr, tess_rot_angle(xf.q));
    for (uint32_t k = 0; k < b->shape_count; k++) shape_path(cr, &s->shapes[b->first_shape + k]);
    if (b->type == TESS_BODY_DYNAMIC)
      cairo_set_source_rgb(cr, 0.95, 0.55, 0.15);
    else
      cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    if (b->sensor) {
      cairo_set_line_width(cr, 1.5 / PPM);
      cairo_stroke(cr);
    } else {
      cairo_fill(cr);
    }
    cairo_restore(cr);
  }
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
  TessBodyId *ids = NULL;
  TessClock clock;
  TessClockDef cdef;
  tess_clock_def_default(&cdef);
  cdef.hz = lv.settings.physics_hz;
  TessResult r = tess_scene_from_pack(&lv, &scene, &err);
  if (r == TESS_OK && !(ids = calloc(scene->body_count + 1, sizeof *ids))) r = TESS_ERR_NOMEM;
  if (r == TESS_OK) r = tess_world_create_from_scene(scene, NULL, &world, ids, &err);
  if (r == TESS_OK) r = tess_clock_init(&clock, &cdef, &err);
  int width = scene ? (int)(scene->width * scene->cell_w * PPM) : 0, height = scene ? (int)(scene->height * scene->cell_h * PPM) : 0;
  for (long f = 0; r == TESS_OK && f < frames; f++) {
    uint32_t due = tess_clock_advance(&clock, 1.0 / 30.0, 1.0);
    for (uint32_t k = 0; k < due && r == TESS_OK; k++) r = tess_world_step(world, 1.0f / cdef.hz, &err);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 0.1, 0.12, 0.16);
    cairo_paint(cr);
    cairo_scale(cr, PPM, PPM);
    draw_cells(cr, scene);
    draw_bodies(cr, scene, world, ids, (float)tess_clock_alpha(&clock));
    cairo_destroy(cr);
    char path[4096];
    snprintf(path, sizeof path, "%s/frame-%04ld.png", argv[2], f);
    if (cairo_surface_write_to_png(surface, path) != CAIRO_STATUS_SUCCESS) {
      fprintf(stderr, "%s: cannot write the PNG\n", path);
      r = TESS_ERR_IO;
      tess_error_clear(&err);
    } else {
      printf("%s %dx%d step %llu\n", path, width, height, (unsigned long long)clock.step);
    }
    cairo_surface_destroy(surface);
  }
  if (r != TESS_OK && err.code != TESS_OK) {
    char msg[1200];
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s: %s\n", argv[1], msg);
  }
  tess_world_destroy(world);
  tess_scene_destroy(scene);
  free(ids);
  free(data);
  return r == TESS_OK ? 0 : 1;
}
