/* Second moments of the opaque pixels (see tess-mask-moments.h). */
#include "tess-mask-moments.h"

#include <math.h>

bool tess_mask_moments(TessImageView img, uint8_t threshold, TessMaskMoments *out) {
  /* Row by row: sums relative to the image origin would lose precision for
   * big sprites (x^2 summed over 16M pixels), so each row's sums are taken
   * in integers and folded in with a running mean (Chan's update). */
  double n = 0, cx = 0, cy = 0, sxx = 0, syy = 0, sxy = 0;
  uint8_t t = threshold ? threshold : 1;
  for (uint32_t y = 0; y < img.height; y++) {
    const uint8_t *row = img.pixels + (size_t)y * img.stride;
    /* Runs of opaque pixels, each summed in closed form: a sprite's rows
     * hold a few long runs, so the loop is a predictable scan for edges. */
    double rn = 0, rsx = 0, rsxx = 0;
    uint32_t x = 0;
    while (x < img.width) {
      while (x < img.width && row[4 * (size_t)x + 3] < t) x++;
      uint32_t a = x;
      while (x < img.width && row[4 * (size_t)x + 3] >= t) x++;
      if (x == a) break;
      /* sum of k and k^2 over k in [a, x) */
      double len = x - a, s1 = ((double)a + x - 1) * len / 2.0;
      double b = x - 1.0, s2 = (b * (b + 1) * (2 * b + 1) - (a - 1.0) * a * (2.0 * a - 1)) / 6.0;
      rn += len;
      rsx += s1;
      rsxx += s2;
    }
    if (rn == 0) continue;
    double rcx = rsx / rn + 0.5, rcy = y + 0.5;
    double rmxx = rsxx - rsx * rsx / rn; /* the row's own spread in x */
    double total = n + rn;
    double dx = rcx - cx, dy = rcy - cy;
    sxx += rmxx + dx * dx * n * rn / total;
    syy += dy * dy * n * rn / total;
    sxy += dx * dy * n * rn / total;
    cx += dx * rn / total;
    cy += dy * rn / total;
    n = total;
  }
  if (n == 0) return false;
  out->area = n;
  out->cx = cx;
  out->cy = cy;
  out->ixx = sxx + n / 12.0;
  out->iyy = syy + n / 12.0;
  out->ixy = sxy;
  return true;
}

void tess_mask_principal_axes(const TessMaskMoments *m, double *angle, double *spread_major, double *spread_minor) {
  double mean = 0.5 * (m->ixx + m->iyy);
  double half = 0.5 * (m->ixx - m->iyy);
  double r = sqrt(half * half + m->ixy * m->ixy);
  *angle = 0.5 * atan2(2.0 * m->ixy, m->ixx - m->iyy);
  *spread_major = mean + r;
  *spread_minor = mean - r;
}
