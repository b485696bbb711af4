/* Private side of the pixel-mask collider (pixel_mask.c): the masks a world
 * holds, and the one call the step makes. */
#ifndef TESS_PHYSICS_PIXEL_MASK_H
#define TESS_PHYSICS_PIXEL_MASK_H

#include "tessera/physics.h"

/* One mask: rows of 64-bit words, pixel x of row y in bit (x & 63) of word
 * y * words + (x >> 6); bits past the width are always 0, so a row's words
 * can be tested whole. */
typedef struct PixelMask {
  uint32_t width, height, words;
  float pixel_size, inv_pixel;
  TessVec2 origin;
  TessSurface surface;
  uint64_t user_data;
  uint64_t *bits;
} PixelMask;

/* After the solver has moved the bodies: every circle of an awake dynamic
 * body against the masks (push out, then the velocity response). */
void physics_pixel_masks_step(TessWorld *w, float dt);
void physics_pixel_masks_free(TessWorld *w);
size_t physics_pixel_masks_bytes(const TessWorld *w);

#endif
