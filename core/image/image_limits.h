/* Private to core/image: the one place the size limits are checked. */
#ifndef TESS_IMAGE_LIMITS_H
#define TESS_IMAGE_LIMITS_H

#include <inttypes.h>

#include "tessera/image.h"

/* Checks width and height against TESS_IMAGE_MAX_SIDE and the RGBA8 byte count
 * against TESS_IMAGE_MAX_BYTES, multiplying only with overflow checks. Fills
 * the RGBA8 row stride and total bytes on success; `name` goes into `err`. */
TessResult image_check_size(uint32_t width, uint32_t height, const char *name, size_t *stride,
                            size_t *bytes, TessError *err);

#endif
