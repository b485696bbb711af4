/* libFuzzer target: PNG import (tess_png_decode and tess_png_info) on
 * arbitrary bytes. Must never crash, leak or print; an accepted image must
 * have the size its header claims and be within the limits. */
#include <stdint.h>
#include <stdlib.h>

#include "tessera/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  TessError err;
  uint32_t w = 0, h = 0;
  TessResult info = tess_png_info(data, size, "fuzz.png", &w, &h, &err);
  TessImage img = {0};
  TessResult r = tess_png_decode(data, size, "fuzz.png", &img, &err);
  if (r == TESS_OK) {
    /* A decodable file has a readable header giving the same size. */
    if (info != TESS_OK || img.width != w || img.height != h) abort();
    if (img.width == 0 || img.height == 0 || img.width > TESS_IMAGE_MAX_SIDE || img.height > TESS_IMAGE_MAX_SIDE)
      abort();
    /* Touch every byte, so a short buffer shows up under ASan. */
    volatile uint8_t sink = 0;
    for (uint32_t y = 0; y < img.height; y++)
      for (size_t x = 0; x < (size_t)img.width * 4; x++) sink ^= img.pixels[(size_t)y * img.stride + x];
    (void)sink;
    tess_image_clear(&img);
  } else if (img.pixels != NULL) {
    abort(); /* outputs are written only on success */
  }
  if (tess_alloc_live_bytes() != 0) abort(); /* nothing of a partial decode left behind */
  return 0;
}
