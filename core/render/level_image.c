/* A whole level as one image: the pipeline's `render` and the tests. */
#include <math.h>
#include <string.h>

#include "render_private.h"

#define LEVEL_IMAGE_MAX_SIDE 16384.0
#define LEVEL_IMAGE_MAX_BYTES ((double)(1u << 30))

TessResult tess_render_level_to_surface(const TessProject *p, const TessLevel *level, double scale,
                                        const TessRenderOptions *options, cairo_surface_t **out, TessError *err) {
  if (!isfinite(scale) || !(scale > 0.0)) return tess_error_set(err, TESS_ERR_INVALID, "", "render scale %g is not positive", scale);
  double w = ceil(level->settings.width * (double)level->settings.tile_w * scale);
  double h = ceil(level->settings.height * (double)level->settings.tile_h * scale);
  if (w < 1 || h < 1 || w > LEVEL_IMAGE_MAX_SIDE || h > LEVEL_IMAGE_MAX_SIDE || w * h * 4 > LEVEL_IMAGE_MAX_BYTES)
    return tess_error_set(err, TESS_ERR_LIMIT, level->settings.name,
                          "a %.0f x %.0f image is beyond the 16384 px per side limit; use a smaller scale", w, h);
  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    return tess_error_set(err, TESS_ERR_NOMEM, level->settings.name, "no memory for a %.0f x %.0f image", w, h);
  }
  TessRenderer *r = tess_renderer_create(p);
  if (!r) {
    cairo_surface_destroy(surface);
    return tess_error_set(err, TESS_ERR_NOMEM, "", "no memory for the renderer");
  }
  /* In strips, so that the chunk cache of a huge level is trimmed as the
   * drawing goes down the image instead of holding every block at once. */
  tess_renderer_set_cache_limit(r, (size_t)128 * 1024 * 1024);
  cairo_t *cr = cairo_create(surface);
  TessResult res = TESS_OK;
  const int strip = 1024;
  for (int y = 0; y < (int)h; y += strip) {
    TessRenderView view = {0.0, y / scale, scale, (int)w, (int)h - y < strip ? (int)h - y : strip};
    /* The renderer rounds origin * scale to whole pixels: y itself. */
    cairo_save(cr);
    cairo_translate(cr, 0, y);
    TessError strip_err;
    TessResult sr = tess_renderer_draw(r, cr, level, &view, options, &strip_err);
    cairo_restore(cr);
    if (sr != TESS_OK && res == TESS_OK) {
      res = sr;
      if (err) *err = strip_err;
    }
  }
  cairo_destroy(cr);
  tess_renderer_destroy(r);
  cairo_surface_flush(surface);
  /* A tileset that failed is drawn as a magenta check and reported, but the
   * image is still made: the caller decides whether that is fatal. */
  if (res != TESS_OK && res != TESS_ERR_FORMAT && res != TESS_ERR_LIMIT) {
    cairo_surface_destroy(surface);
    return res;
  }
  *out = surface;
  return res;
}

TessResult tess_render_surface_to_image(cairo_surface_t *surface, TessImage *out, TessError *err) {
  if (cairo_image_surface_get_format(surface) != CAIRO_FORMAT_ARGB32)
    return tess_error_set(err, TESS_ERR_INVALID, "", "surface is not ARGB32");
  int w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface);
  TessImage img;
  TessResult res = tess_image_create((uint32_t)w, (uint32_t)h, &img, err);
  if (res != TESS_OK) return res;
  cairo_surface_flush(surface);
  const uint8_t *data = cairo_image_surface_get_data(surface);
  int stride = cairo_image_surface_get_stride(surface);
  for (int y = 0; y < h; y++) {
    const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
    uint8_t *dst = img.pixels + (size_t)y * img.stride;
    for (int x = 0; x < w; x++) {
      uint32_t p = row[x], a = p >> 24;
      uint32_t r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
      if (a && a != 255) {
        r = (r * 255 + a / 2) / a;
        g = (g * 255 + a / 2) / a;
        b = (b * 255 + a / 2) / a;
      }
      dst[4 * x] = (uint8_t)(r > 255 ? 255 : r);
      dst[4 * x + 1] = (uint8_t)(g > 255 ? 255 : g);
      dst[4 * x + 2] = (uint8_t)(b > 255 ? 255 : b);
      dst[4 * x + 3] = (uint8_t)a;
    }
  }
  *out = img;
  return TESS_OK;
}

TessResult tess_render_level_to_png(const TessProject *p, const TessLevel *level, double scale,
                                    const TessRenderOptions *options, const char *path, TessError *err) {
  cairo_surface_t *surface = NULL;
  TessResult res = tess_render_level_to_surface(p, level, scale, options, &surface, err);
  if (!surface) return res;
  TessImage img;
  TessResult conv = tess_render_surface_to_image(surface, &img, err);
  cairo_surface_destroy(surface);
  if (conv != TESS_OK) return conv;
  TessError save_err;
  TessResult saved = tess_png_save(tess_image_view(&img), path, err ? err : &save_err);
  tess_image_clear(&img);
  return saved != TESS_OK ? saved : res;
}
