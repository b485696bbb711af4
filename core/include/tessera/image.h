/* Tessera core/image: PNG to RGBA8 and back, through libpng. */
#ifndef TESSERA_IMAGE_H
#define TESSERA_IMAGE_H

#include "tessera/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits checked before anything is allocated. */
#define TESS_IMAGE_MAX_SIDE 32768u
#define TESS_IMAGE_MAX_BYTES ((size_t)1 << 30) /* of decoded RGBA */

/* An RGBA8 image, straight (not premultiplied) alpha. */
typedef struct TessImage {
  uint32_t width, height;
  size_t stride;   /* bytes per row, >= width * 4 */
  uint8_t *pixels; /* owned when it came from tess_image_* */
} TessImage;

/* A borrowed view of RGBA8 pixels (what core/mask takes). */
typedef struct TessImageView {
  uint32_t width, height;
  size_t stride;
  const uint8_t *pixels;
} TessImageView;

static inline TessImageView tess_image_view(const TessImage *img) {
  TessImageView v = {img->width, img->height, img->stride, img->pixels};
  return v;
}

TessResult tess_image_create(uint32_t width, uint32_t height, TessImage *out, TessError *err); /* zeroed */
void tess_image_clear(TessImage *img);

/* `name` is used in error messages only (a file path, or "tileset.png"). Any
 * PNG colour type, bit depth and interlacing becomes RGBA8: palette entries
 * and tRNS become RGBA, grey is copied to R, G and B, 16-bit samples round
 * to v * 255 / 65535, and a missing alpha is 255. Colour values are taken as
 * stored (no gamma or ICC conversion). The size limits are checked on the
 * header before anything is allocated (TESS_ERR_LIMIT); an empty, truncated,
 * corrupt or non-PNG input gives TESS_ERR_FORMAT, with the byte offset where
 * known. libpng's messages go into `err`, never to stderr. `out` is written
 * only on success. */
TessResult tess_png_decode(const uint8_t *data, size_t size, const char *name, TessImage *out, TessError *err);
TessResult tess_png_load(const char *path, TessImage *out, TessError *err);
/* Reads just the header (and checks the limits): for tileset grids and previews. */
TessResult tess_png_info(const uint8_t *data, size_t size, const char *name, uint32_t *width, uint32_t *height,
                         TessError *err);
/* Encodes RGBA8 to PNG bytes (tess_free them). */
TessResult tess_png_encode(TessImageView img, uint8_t **data, size_t *size, TessError *err);
/* Writes under a temporary name, then renames: never a partial file. */
TessResult tess_png_save(TessImageView img, const char *path, TessError *err);

/* Whole-file read with a size limit (for PNG bytes to store in a project). */
TessResult tess_file_read(const char *path, size_t max_bytes, uint8_t **data, size_t *size, TessError *err);
/* Atomic write: temporary file in the same directory, fsync, rename. */
TessResult tess_file_write_atomic(const char *path, const void *data, size_t size, TessError *err);

#ifdef __cplusplus
}
#endif
#endif
