/* The exact convex hull of the opaque pixel squares, and pixel mass alone.
 *
 * Only the leftmost and rightmost opaque pixel of each row can put a corner
 * on the hull. At each horizontal grid line y the candidate corners are the
 * least left edge and the greatest right edge of rows y - 1 and y, so the
 * candidates come out already sorted by (y, x) and a monotone chain builds
 * the hull in linear time. */
#include <string.h>

#include "mask_private.h"

TessResult mask_hull_from_scan(const MaskScan *s, TessDVec2 **out, uint32_t *count, TessError *err) {
  size_t levels = (size_t)(s->y1 - s->y0) + 1;
  TessDVec2 *pts = tess_alloc(sizeof *pts * levels * 2);
  TessDVec2 *hull = tess_alloc(sizeof *hull * levels * 2);
  if (!pts || !hull) {
    tess_free(pts);
    tess_free(hull);
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the hull");
  }
  uint32_t n = 0;
  for (uint32_t y = s->y0; y <= s->y1; y++) {
    int32_t lo = INT32_MAX, hi = -1;
    if (y > s->y0 && s->left[y - 1] >= 0) {
      lo = s->left[y - 1];
      hi = s->right[y - 1];
    }
    if (y < s->y1 && s->left[y] >= 0) {
      if (s->left[y] < lo) lo = s->left[y];
      if (s->right[y] > hi) hi = s->right[y];
    }
    if (hi < 0) continue;
    pts[n++] = tess_d2(lo, y);
    pts[n++] = tess_d2(hi, y);
  }
  uint32_t k = tess_convex_hull_sorted(pts, n, hull);
  tess_free(pts);
  if (k < 3) {
    tess_free(hull);
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the hull");
  }
  *out = hull;
  *count = k;
  return TESS_OK;
}

TessResult tess_mask_hull(TessImageView img, uint8_t threshold, TessMaskHull *out, TessError *err) {
  MaskScan scan;
  memset(&scan, 0, sizeof scan);
  TessResult r = mask_scan(img, threshold, false, &scan, err);
  TessDVec2 *v = NULL;
  uint32_t count = 0;
  if (r == TESS_OK) r = mask_hull_from_scan(&scan, &v, &count, err);
  if (r == TESS_OK) {
    out->count = count;
    out->v = v;
    out->pixels = scan.mass;
    out->x0 = scan.x0;
    out->y0 = scan.y0;
    out->x1 = scan.x1;
    out->y1 = scan.y1;
  }
  mask_scan_free(&scan);
  return r;
}

void tess_mask_hull_clear(TessMaskHull *hull) {
  if (!hull) return;
  tess_free(hull->v);
  memset(hull, 0, sizeof *hull);
}

TessResult tess_mask_pixel_mass(TessImageView img, uint8_t threshold, TessMassProps *out, TessError *err) {
  MaskScan scan;
  memset(&scan, 0, sizeof scan);
  TessResult r = mask_scan(img, threshold, false, &scan, err);
  if (r == TESS_OK) *out = scan.mass;
  mask_scan_free(&scan);
  return r;
}

TessResult tess_mask_pixel_moments(TessImageView img, uint8_t threshold, TessMaskSecondMoments *out, TessError *err) {
  MaskScan scan;
  memset(&scan, 0, sizeof scan);
  TessResult r = mask_scan(img, threshold, false, &scan, err);
  if (r == TESS_OK) {
    TessMaskSecondMoments m;
    double n = scan.mass.area;
    m.area = n;
    m.cx = scan.mass.cx;
    m.cy = scan.mass.cy;
    /* A unit square adds 1/12 along each axis about its own centre. */
    m.ixx = scan.sxx + n / 12.0;
    m.iyy = scan.syy + n / 12.0;
    m.ixy = scan.sxy;
    m.inertia = scan.mass.inertia;
    /* Eigen-decomposition of [[ixx, ixy], [ixy, iyy]]; the half-difference
     * form keeps the smaller eigenvalue accurate. */
    double mean = 0.5 * (m.ixx + m.iyy), half = 0.5 * (m.ixx - m.iyy), rad = hypot(half, m.ixy);
    m.major = mean + rad;
    m.minor = mean - rad;
    if (m.ixy == 0.0) { /* axis-aligned: exact, without the cancellation above */
      m.major = fmax(m.ixx, m.iyy);
      m.minor = fmin(m.ixx, m.iyy);
    }
    m.angle = 0.5 * atan2(2.0 * m.ixy, m.ixx - m.iyy);
    if (m.angle <= -M_PI / 2) m.angle += M_PI;
    *out = m;
  }
  mask_scan_free(&scan);
  return r;
}

void tess_mask_fit_circle(const TessMaskHull *hull, TessDVec2 *center, double *radius) {
  tess_min_enclosing_circle(hull->v, hull->count, center, radius);
}

void tess_mask_fit_box(const TessMaskHull *hull, TessDVec2 box[4]) {
  box[0] = tess_d2(hull->x0, hull->y0);
  box[1] = tess_d2(hull->x1, hull->y0);
  box[2] = tess_d2(hull->x1, hull->y1);
  box[3] = tess_d2(hull->x0, hull->y1);
}
