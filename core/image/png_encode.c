/* RGBA8 -> PNG bytes through libpng, and the atomic save built on it. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "image_limits.h"
#include "image_png_glue.h"
#include "tessera/image.h"

/* The growing buffer libpng writes into. */
typedef struct PngSink {
  uint8_t *data;
  size_t size, cap;
} PngSink;

static void write_to_sink(png_structp png, png_bytep bytes, size_t length) {
  PngSink *sink = png_get_io_ptr(png);
  size_t need;
  if (!tess_size_add(sink->size, length, &need)) png_error(png, "PNG output too large");
  if (need > sink->cap) {
    size_t cap = sink->cap ? sink->cap : 4096;
    while (cap < need) {
      if (!tess_size_mul(cap, 2, &cap)) png_error(png, "PNG output too large");
    }
    uint8_t *grown = tess_realloc(sink->data, cap);
    if (!grown) {
      TessPngGlue *glue = png_get_error_ptr(png);
      glue->out_of_memory = true;
      png_error(png, "out of memory");
    }
    sink->data = grown;
    sink->cap = cap;
  }
  memcpy(sink->data + sink->size, bytes, length);
  sink->size += length;
}

static void flush_sink(png_structp png) { (void)png; }

TessResult tess_png_encode(TessImageView img, uint8_t **data, size_t *size, TessError *err) {
  const char *name = "PNG encoder";
  if (!data || !size || !img.pixels) return tess_error_set(err, TESS_ERR_INVALID, name, "no image or no output");
  size_t stride, bytes;
  TessResult r = image_check_size(img.width, img.height, name, &stride, &bytes, err);
  if (r != TESS_OK) return r;
  if (img.stride < stride)
    return tess_error_set(err, TESS_ERR_INVALID, name, "row stride %zu is shorter than a row of %zu bytes",
                          img.stride, stride);

  TessPngGlue glue;
  memset(&glue, 0, sizeof glue);
  PngSink sink = {NULL, 0, 0};
  png_structp png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &glue, image_png_glue_error,
                                              image_png_glue_warning, &glue, image_png_glue_malloc,
                                              image_png_glue_free);
  if (!png) return tess_error_set(err, TESS_ERR_NOMEM, name, "out of memory creating the PNG writer");
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    return tess_error_set(err, TESS_ERR_NOMEM, name, "out of memory creating the PNG writer");
  }
  png_set_write_fn(png, &sink, write_to_sink, flush_sink);
  if (setjmp(png_jmpbuf(png))) {
    /* The sink and glue are read through libpng's stored pointers: locals
     * changed after setjmp are not reliable after the jump. */
    TessPngGlue *g = png_get_error_ptr(png);
    PngSink *s = png_get_io_ptr(png);
    tess_free(s->data);
    r = g->out_of_memory ? tess_error_set(err, TESS_ERR_NOMEM, name, "out of memory while encoding the PNG")
                         : tess_error_set(err, TESS_ERR_FORMAT, name, "libpng could not encode: %s", g->message);
    png_destroy_write_struct(&png, &info);
    return r;
  }
  png_set_IHDR(png, info, img.width, img.height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < img.height; y++) png_write_row(png, img.pixels + (size_t)y * img.stride);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);

  *data = sink.data;
  *size = sink.size;
  return TESS_OK;
}

TessResult tess_png_save(TessImageView img, const char *path, TessError *err) {
  uint8_t *data = NULL;
  size_t size = 0;
  TessResult r = tess_png_encode(img, &data, &size, err);
  if (r != TESS_OK) {
    if (err) snprintf(err->file, sizeof err->file, "%s", path ? path : "");
    return r;
  }
  r = tess_file_write_atomic(path, data, size, err);
  tess_free(data);
  return r;
}
