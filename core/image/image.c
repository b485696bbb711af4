/* Owned RGBA8 images: creation with the size limits checked first. */
#include <string.h>

#include "image_limits.h"
#include "tessera/image.h"

TessResult image_check_size(uint32_t width, uint32_t height, const char *name, size_t *stride,
                            size_t *bytes, TessError *err) {
  if (width == 0 || height == 0)
    return tess_error_set(err, TESS_ERR_INVALID, name, "image size %" PRIu32 " x %" PRIu32 " is empty", width,
                          height);
  if (width > TESS_IMAGE_MAX_SIDE || height > TESS_IMAGE_MAX_SIDE)
    return tess_error_set(err, TESS_ERR_LIMIT, name,
                          "image size %" PRIu32 " x %" PRIu32 " exceeds the limit of %u pixels per side", width,
                          height, TESS_IMAGE_MAX_SIDE);
  size_t row, total;
  if (!tess_size_mul((size_t)width, 4, &row) || !tess_size_mul(row, (size_t)height, &total) ||
      total > TESS_IMAGE_MAX_BYTES)
    return tess_error_set(err, TESS_ERR_LIMIT, name,
                          "image size %" PRIu32 " x %" PRIu32 " needs more than the limit of %zu bytes", width,
                          height, (size_t)TESS_IMAGE_MAX_BYTES);
  *stride = row;
  *bytes = total;
  return TESS_OK;
}

TessResult tess_image_create(uint32_t width, uint32_t height, TessImage *out, TessError *err) {
  size_t stride, bytes;
  TessResult r = image_check_size(width, height, "image", &stride, &bytes, err);
  if (r != TESS_OK) return r;
  uint8_t *pixels = tess_calloc(bytes, 1);
  if (!pixels)
    return tess_error_set(err, TESS_ERR_NOMEM, "image", "no memory for %zu bytes of pixels", bytes);
  out->width = width;
  out->height = height;
  out->stride = stride;
  out->pixels = pixels;
  return TESS_OK;
}

void tess_image_clear(TessImage *img) {
  if (!img) return;
  tess_free(img->pixels);
  memset(img, 0, sizeof *img);
}
