/* libtessera-draw's pixel-mask colliders: a mask's solid pixels are drawn
 * tinted where the world has them (a layer's on the axes, a turned one
 * turned), the empty ones not at all; carving shows on the next frame, and
 * restoring a snapshot from before the carve shows the pixels again. */
#include <string.h>

#include "check.h"
#include "tessera/draw.h"

#define PPM 16.0f
static const TessDrawView VIEW = {0.0, 0.0, 1.0, 160, 128}; /* one device pixel per level pixel */

/* A 10 x 8 m scene with no cells and no bodies, and one mask: 64 x 32 pixels of 1/16 m at (1, 1) m,
 * solid in its lower half. */
static TessScene *scene_with_mask(void) {
  TessScene *s = tess_scene_create();
  s->width = 10;
  s->height = 8;
  s->cell_w = s->cell_h = 1.0f;
  s->ppm = PPM;
  s->physics_hz = 60.0f;
  s->substeps = 4;
  s->cell_kind = tess_calloc((size_t)s->width * s->height, 1);
  s->material_count = 1;
  s->materials = tess_calloc(1, sizeof *s->materials);
  tess_scene_material_default(&s->materials[0]);
  s->pixel_mask_count = 1;
  s->pixel_masks = tess_calloc(1, sizeof *s->pixel_masks);
  TessScenePixelMask *m = &s->pixel_masks[0];
  m->layer = 1;
  m->width = 64;
  m->height = 32;
  m->pixel_size = 1.0f / PPM;
  m->origin = tess_v2(1.0f, 1.0f);
  s->pixel_bits_size = 8 * 32;
  s->pixel_bits = tess_calloc(1, (size_t)s->pixel_bits_size);
  memset(s->pixel_bits + 8 * 16, 0xff, 8 * 16);
  return s;
}

static uint32_t pixel(cairo_surface_t *s, int x, int y) {
  cairo_surface_flush(s);
  const unsigned char *d = cairo_image_surface_get_data(s);
  return *(const uint32_t *)(const void *)(d + (size_t)y * (size_t)cairo_image_surface_get_stride(s) + 4 * (size_t)x);
}

static cairo_surface_t *paint(TessDraw *d, const TessScene *s, const TessWorld *w) {
  cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, VIEW.width, VIEW.height);
  cairo_t *cr = cairo_create(surf);
  tess_draw_world(d, cr, s, w, NULL, NULL, 1.0f, &VIEW, 0);
  cairo_destroy(cr);
  return surf;
}

static void masks_are_drawn_as_the_world_has_them(void) {
  TessScene *s = scene_with_mask();
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, NULL, &err), &err);
  if (!w) return;
  /* a second mask, 8 x 40 pixels, turned a quarter turn about (9, 1) m: it lies from x = 6.5 to 9 m,
   * y = 1 to 1.5 m in the world */
  uint8_t bits[40];
  memset(bits, 0xff, sizeof bits);
  TessPixelMaskDef pd;
  tess_pixel_mask_def_default(&pd);
  pd.width = 8;
  pd.height = 40;
  pd.pixel_size = 1.0f / PPM;
  pd.origin = tess_v2(9.0f, 1.0f);
  pd.angle = 1.57079633f;
  pd.bits = bits;
  CHECK_OK(tess_world_add_pixel_mask(w, &pd, NULL, &err), &err);
  TessDraw *d = tess_draw_create();
  cairo_surface_t *a = paint(d, s, w);
  uint32_t ground = pixel(a, 2, 2); /* no mask there */
  /* the first mask: solid rows 16..31 are at device y 32..47, x 16..79 */
  CHECK(pixel(a, 40, 40) != ground && pixel(a, 17, 46) != ground);
  CHECK(pixel(a, 40, 24) == ground && pixel(a, 90, 40) == ground);
  /* the turned one: its x axis points down the screen, its y axis left: device x 104..143, y 16..23 */
  CHECK_MSG(pixel(a, 120, 20) != ground, "the turned mask is not drawn where it lies");
  CHECK(pixel(a, 120, 30) == ground && pixel(a, 150, 20) == ground);

  /* carve a hole of 0.5 m at (3, 2.5) m: device (48, 40) empties, (20, 40) stays */
  size_t size = tess_world_snapshot_size(w);
  void *snap = malloc(size);
  CHECK_OK(tess_world_snapshot(w, snap, size, &err), &err);
  uint32_t solid = pixel(a, 48, 40);
  CHECK(tess_pixel_mask_set_circle(w, 0, tess_v2(3.0f, 2.5f), 0.5f, false) == TESS_OK);
  cairo_surface_t *b = paint(d, s, w);
  CHECK_MSG(pixel(b, 48, 40) == ground, "the carved hole is still drawn");
  CHECK(pixel(b, 20, 40) == solid);
  /* Play's rewind: the snapshot from before the carve draws the pixels again */
  CHECK_OK(tess_world_restore(w, snap, size, &err), &err);
  cairo_surface_t *c = paint(d, s, w);
  CHECK(pixel(c, 48, 40) == solid);
  free(snap);
  cairo_surface_destroy(a);
  cairo_surface_destroy(b);
  cairo_surface_destroy(c);
  tess_draw_destroy(d);
  tess_world_destroy(w);
  tess_scene_destroy(s);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {
      {"masks_are_drawn_as_the_world_has_them", masks_are_drawn_as_the_world_has_them},
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
