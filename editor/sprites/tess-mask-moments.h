/* Second moments of a sprite's opaque pixels, for the principal axes of
 * inertia the mask view draws. core/mask reports the polar moment only
 * (sum of 1/6 + d^2); the axes need the full tensor, so this takes the
 * same single pass over the alpha bytes and keeps xx, yy and xy apart.
 * Plain C over core types (no GTK), so the tests check it directly. */
#pragma once

#include <stdbool.h>

#include "tessera/image.h"

typedef struct TessMaskMoments {
  double area;          /* opaque pixel count */
  double cx, cy;        /* mean of the pixel centres */
  /* Central second moments of the union of unit squares (per unit density):
   * ixx = sum (x - cx)^2 + 1/12, iyy = sum (y - cy)^2 + 1/12, ixy = sum (x - cx)(y - cy).
   * ixx + iyy is core/mask's polar inertia. */
  double ixx, iyy, ixy;
} TessMaskMoments;

/* False when no pixel has alpha >= threshold. */
bool tess_mask_moments(TessImageView img, uint8_t threshold, TessMaskMoments *out);

/* Principal axes: `angle` (radians, in the image's x-right y-down frame) of
 * the axis along which the mass spreads most; `spread_major` >= `spread_minor`
 * are the second moments along that axis and across it. */
void tess_mask_principal_axes(const TessMaskMoments *m, double *angle, double *spread_major, double *spread_minor);
