/* A body's shapes: the one polygon validation and the one shape-mass
 * implementation that physics, the pack writer and the editor share. */
#include <string.h>

#include "tessera/geom.h"

#define GEOM_PI 3.14159265358979323846

uint32_t tess_polygon_clean(TessVec2 *v, uint32_t n, float eps) {
  bool changed = true;
  while (changed && n >= 3) {
    changed = false;
    for (uint32_t i = 0; i < n && n >= 3; i++) {
      TessVec2 a = v[(i + n - 1) % n], b = v[i], c = v[(i + 1) % n];
      TessVec2 e1 = tess_v2_sub(b, a), e2 = tess_v2_sub(c, b);
      float l1 = tess_v2_length(e1), l2 = tess_v2_length(e2);
      bool drop = l1 < eps || fabsf(tess_v2_cross(e1, e2)) <= 1e-4f * l1 * l2;
      if (drop) {
        memmove(&v[i], &v[i + 1], (n - i - 1) * sizeof *v);
        n--;
        changed = true;
        break;
      }
    }
  }
  return n;
}

/* One orientation for every polygon of a scene (FORMAT.md 3.2): a
 * positive shoelace sum, clockwise on screen with y down. A polygon the
 * other way round is reversed as v[n-1-k], exactly as the physics reverses
 * it when it makes a shape or a tile piece, so the world gets the same
 * vertices in the same order either way. */
void tess_polygon_orient(TessVec2 *v, uint32_t n) {
  double area = 0.0;
  for (uint32_t i = 0; i < n; i++) {
    TessVec2 a = v[i], c = v[(i + 1) % n];
    area += (double)a.x * c.y - (double)c.x * a.y;
  }
  if (area >= 0.0) return;
  for (uint32_t i = 0; i < n / 2; i++) {
    TessVec2 t = v[i];
    v[i] = v[n - 1 - i];
    v[n - 1 - i] = t;
  }
}

TessResult tess_polygon_check(const TessVec2 *pts, uint32_t count, TessError *err) {
  if (!pts || count < 3 || count > TESS_POLY_MAX)
    return tess_error_set(err, TESS_ERR_INVALID, "polygon", "a polygon needs 3..%d points, got %u", TESS_POLY_MAX,
                          count);
  for (uint32_t i = 0; i < count; i++)
    if (!tess_v2_is_finite(pts[i]) || fabsf(pts[i].x) > 1e6f || fabsf(pts[i].y) > 1e6f)
      return tess_error_set(err, TESS_ERR_INVALID, "polygon", "point %u is not finite", i);
  double area = 0.0, turning = 0.0;
  int sign = 0;
  for (uint32_t i = 0; i < count; i++) {
    TessVec2 a = pts[i], b = pts[(i + 1) % count], c = pts[(i + 2) % count];
    TessVec2 e1 = tess_v2_sub(b, a), e2 = tess_v2_sub(c, b);
    float l1 = tess_v2_length(e1), l2 = tess_v2_length(e2);
    if (l1 < 1e-4f) return tess_error_set(err, TESS_ERR_INVALID, "polygon", "points %u and %u coincide", i, (i + 1) % count);
    float cr = tess_v2_cross(e1, e2);
    if (fabsf(cr) <= 1e-4f * l1 * l2)
      return tess_error_set(err, TESS_ERR_INVALID, "polygon", "point %u is collinear with its neighbours", (i + 1) % count);
    int sg = cr > 0.0f ? 1 : -1;
    if (sign == 0) sign = sg;
    if (sg != sign) return tess_error_set(err, TESS_ERR_INVALID, "polygon", "polygon is not convex at point %u", (i + 1) % count);
    turning += atan2((double)cr, (double)tess_v2_dot(e1, e2));
    area += (double)a.x * b.y - (double)b.x * a.y;
  }
  /* A star passes every local test above; its turning number gives it away. */
  if (fabs(fabs(turning) - 2.0 * 3.14159265358979) > 1e-3)
    return tess_error_set(err, TESS_ERR_INVALID, "polygon", "polygon intersects itself");
  if (fabs(area) < 1e-8) return tess_error_set(err, TESS_ERR_INVALID, "polygon", "polygon has no area");
  return TESS_OK;
}

TessMassProps tess_circle_mass(TessDVec2 center, double r) {
  TessMassProps m;
  m.area = GEOM_PI * r * r;
  m.cx = center.x;
  m.cy = center.y;
  m.inertia = 0.5 * m.area * r * r;
  return m;
}

/* A rectangle 2r x length plus two half discs; each half disc's centroid
 * lies 4r / (3 pi) beyond its end of the segment. */
TessMassProps tess_capsule_mass(TessDVec2 a, TessDVec2 b, double r) {
  double len = sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
  double circle = GEOM_PI * r * r, box = 2.0 * r * len;
  double lc = 4.0 * r / (3.0 * GEOM_PI), h = 0.5 * len;
  TessMassProps m;
  m.area = circle + box;
  m.cx = 0.5 * (a.x + b.x);
  m.cy = 0.5 * (a.y + b.y);
  m.inertia = circle * (0.5 * r * r + h * h + 2.0 * h * lc) + box * (4.0 * r * r + len * len) / 12.0;
  return m;
}

TessMassProps tess_polygon_mass(const TessVec2 *v, uint32_t n) {
  TessMassProps zero = {0.0, 0.0, 0.0, 0.0};
  if (n < 3 || n > TESS_POLY_MAX) return zero;
  TessDVec2 d[TESS_POLY_MAX];
  for (uint32_t i = 0; i < n; i++) d[i] = tess_d2(v[i].x, v[i].y);
  TessMassProps m = tess_poly_mass(d, n);
  return m.area > 0.0 ? m : zero;
}
