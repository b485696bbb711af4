/* The tests' one way to write a small PNG sprite to a file: a transparent
 * image with one rectangle of a given alpha (a sprite whose mask is known
 * in advance: area, bounds, the threshold above which nothing is left).
 * Header-only, as project_fixture.h: a test that links core/image has it
 * with nothing more to build. Failures are CHECK failures. */
#ifndef TESS_TEST_PNG_FIXTURE_H
#define TESS_TEST_PNG_FIXTURE_H

#include "check.h"
#include "tessera/image.h"

/* Fills [x0, x1) x [y0, y1) of `img` with one colour at alpha `a`. */
static inline void tess_test_fill_rect(TessImage *img, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, uint8_t a) {
  for (uint32_t y = y0; y < y1 && y < img->height; y++)
    for (uint32_t x = x0; x < x1 && x < img->width; x++) {
      uint8_t *px = img->pixels + (size_t)y * img->stride + 4 * (size_t)x;
      px[0] = 200, px[1] = 80, px[2] = 40, px[3] = a;
    }
}

/* A w x h PNG at tmpdir/name, transparent but for [x0, x1) x [y0, y1) at
 * alpha `a` (an empty rectangle: all transparent). Returns the path (g_free
 * or free it). */
static inline char *tess_test_write_rect_png(const char *name, uint32_t w, uint32_t h, uint32_t x0, uint32_t y0,
                                             uint32_t x1, uint32_t y1, uint8_t a) {
  TessImage img;
  TessError err = {0};
  char buf[1024];
  const char *path = tess_test_path(buf, sizeof buf, name);
  CHECK_OK(tess_image_create(w, h, &img, &err), &err);
  tess_test_fill_rect(&img, x0, y0, x1, y1, a);
  CHECK_OK(tess_png_save(tess_image_view(&img), path, &err), &err);
  tess_image_clear(&img);
  return strdup(path);
}

#endif
