/* The one pass over the alpha bytes: runs of opaque pixels per row, the
 * rows' extents, and exact pixel mass properties from integer sums.
 *
 * Per run [a, b) the sums of x and x^2 have closed forms, so the work per
 * pixel is one compare; all sums are exact 64-bit integers (a 32768 x 32768
 * image stays below 2^63), and the centroid and inertia are formed from
 * them at the end with a 128-bit product, so the result is exact up to the
 * final rounding to double. */
#include <string.h>

#include "mask-private.h"

TessResult mask_check_view(TessImageView img, TessError *err) {
  if (img.width == 0 || img.height == 0)
    return tess_error_set(err, TESS_ERR_EMPTY, "", "the image has no pixels (%ux%u)", img.width, img.height);
  if (img.width > TESS_IMAGE_MAX_SIDE || img.height > TESS_IMAGE_MAX_SIDE)
    return tess_error_set(err, TESS_ERR_LIMIT, "", "image %ux%u exceeds the %u px limit per side", img.width,
                          img.height, TESS_IMAGE_MAX_SIDE);
  if (!img.pixels) return tess_error_set(err, TESS_ERR_INVALID, "", "image without pixels");
  if (img.stride < (size_t)img.width * 4)
    return tess_error_set(err, TESS_ERR_INVALID, "", "stride %zu below width x 4 = %zu", img.stride,
                          (size_t)img.width * 4);
  return TESS_OK;
}

TessResult mask_empty_error(TessError *err, uint8_t threshold) {
  return tess_error_set(err, TESS_ERR_EMPTY, "", "no opaque pixel at threshold %u", (unsigned)threshold);
}

void mask_scan_free(MaskScan *s) {
  tess_free(s->left);
  tess_free(s->right);
  tess_free(s->row_start);
  tess_free(s->runs);
  memset(s, 0, sizeof *s);
}

static uint64_t sum_sq_below(uint64_t k) { /* 0^2 + 1^2 + ... + (k-1)^2 */
  return k == 0 ? 0 : (k - 1) * k * (2 * k - 1) / 6;
}

#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 wide_t;
#else
typedef long double wide_t;
#endif

/* N * sum(d^2) = N * S2 - S1^2, exact with 128-bit integers. */
static double spread(uint64_t n, uint64_t s1, uint64_t s2) {
  wide_t v = (wide_t)s2 * n - (wide_t)s1 * s1;
  return (double)v / (double)n;
}

TessResult mask_scan(TessImageView img, uint8_t threshold, bool want_runs, MaskScan *s, TessError *err) {
  TessResult r = mask_check_view(img, err);
  if (r != TESS_OK) return r;
  const uint32_t w = img.width, h = img.height;
  s->width = w;
  s->height = h;
  if (!tess_array_reserve((void **)&s->left, &s->extents_cap, h, sizeof *s->left)) goto nomem;
  {
    int32_t *right = tess_realloc(s->right, sizeof *right * s->extents_cap);
    if (!right) goto nomem;
    s->right = right;
  }
  if (want_runs) {
    if (!tess_array_reserve((void **)&s->row_start, &s->row_start_cap, (size_t)h + 1, sizeof *s->row_start))
      goto nomem;
  }
  s->run_count = 0;

  uint64_t n = 0, sx = 0, sxx = 0, sy = 0, syy = 0;
  uint32_t bx0 = w, bx1 = 0, by0 = h, by1 = 0;
  const uint8_t t = threshold;
  for (uint32_t y = 0; y < h; y++) {
    const uint8_t *a = img.pixels + (size_t)y * img.stride + 3;
    if (want_runs) s->row_start[y] = (uint32_t)s->run_count;
    uint64_t rc = 0, rsx = 0, rsxx = 0;
    int32_t first = -1, last = -1;
    uint32_t x = 0;
    while (x < w) {
      while (x < w && a[(size_t)x * 4] < t) x++;
      if (x == w) break;
      uint32_t x0 = x;
      while (x < w && a[(size_t)x * 4] >= t) x++;
      /* run [x0, x) */
      uint64_t len = x - x0;
      rc += len;
      rsx += (uint64_t)(x0 + x - 1) * len / 2;
      rsxx += sum_sq_below(x) - sum_sq_below(x0);
      if (first < 0) first = (int32_t)x0;
      last = (int32_t)x;
      if (want_runs) {
        if (s->run_count == s->run_cap &&
            !tess_array_reserve((void **)&s->runs, &s->run_cap, s->run_count + 1, sizeof *s->runs))
          goto nomem;
        s->runs[s->run_count].x0 = x0;
        s->runs[s->run_count].x1 = x;
        s->run_count++;
      }
    }
    s->left[y] = first;
    s->right[y] = last;
    if (rc) {
      n += rc;
      sx += rsx;
      sxx += rsxx;
      sy += rc * y;
      syy += rc * (uint64_t)y * y;
      if ((uint32_t)first < bx0) bx0 = (uint32_t)first;
      if ((uint32_t)last > bx1) bx1 = (uint32_t)last;
      if (y < by0) by0 = y;
      by1 = y + 1;
    }
  }
  if (want_runs) s->row_start[h] = (uint32_t)s->run_count;
  s->count = n;
  s->x0 = bx0;
  s->x1 = bx1;
  s->y0 = by0;
  s->y1 = by1;
  memset(&s->mass, 0, sizeof s->mass);
  if (n == 0) return mask_empty_error(err, threshold);
  double dn = (double)n;
  s->mass.area = dn;
  s->mass.cx = (double)sx / dn + 0.5;
  s->mass.cy = (double)sy / dn + 0.5;
  /* Each unit square adds (1 + 1) / 12 = 1/6 about its own centre. */
  s->mass.inertia = spread(n, sx, sxx) + spread(n, sy, syy) + dn / 6.0;
  return TESS_OK;
nomem:
  return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory scanning a %ux%u image", w, h);
}
