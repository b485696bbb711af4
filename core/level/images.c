/* PNG bytes of tilesets and sprites against the size the project declares
 * (see level_private.h): only the header is read, so the check costs
 * microseconds on every edit and load. */
#include "level_private.h"
#include "tessera/image.h"

TessResult level_image_bytes_check(const uint8_t *png, size_t size, uint32_t image_w, uint32_t image_h,
                                   const char *what, const char *name, TessError *err) {
  if (!png || size == 0) return TESS_OK;
  uint32_t w = 0, h = 0;
  TessError inner;
  tess_error_clear(&inner);
  TessResult r = tess_png_info(png, size, name, &w, &h, &inner);
  /* No readable PNG header (or one beyond the image limits): undecodable
   * everywhere, drawn as a placeholder and reported by validate. */
  if (r != TESS_OK) return TESS_OK;
  if (w != image_w || h != image_h)
    return tess_error_set(err, TESS_ERR_FORMAT, LEVEL_FILE,
                          "%s '%s': the image is %ux%u px but the project declares %ux%u (replaced PNG bytes?)", what,
                          name, w, h, image_w, image_h);
  return TESS_OK;
}
