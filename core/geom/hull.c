/* Convex hulls (Andrew's monotone chain) and the smallest enclosing circle. */
#include <stdlib.h>
#include <string.h>

#include "tessera/geom.h"

uint32_t tess_convex_hull_sorted(const TessDVec2 *p, uint32_t n, TessDVec2 *out) {
  if (n == 0) return 0;
  if (n == 1) {
    out[0] = p[0];
    return 1;
  }
  /* The chain may hold up to 2n points while points of the first half are
   * pushed and popped again on the way back. */
  size_t room;
  if (!tess_size_mul((size_t)n, 2 * sizeof(TessDVec2), &room)) return 0;
  TessDVec2 *h = tess_alloc(room + sizeof(TessDVec2));
  if (!h) return 0;
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    while (k >= 2 && tess_d2_orient(h[k - 2], h[k - 1], p[i]) <= 0.0) k--;
    h[k++] = p[i];
  }
  for (uint32_t i = n - 1, t = k + 1; i-- > 0;) {
    while (k >= t && tess_d2_orient(h[k - 2], h[k - 1], p[i]) <= 0.0) k--;
    h[k++] = p[i];
  }
  k--;               /* the first point was added again at the end */
  if (k == 0) k = 1; /* all points equal */
  /* Sorting by (y, x) instead of (x, y) mirrors the orientation. */
  if (k >= 3 && tess_poly_signed_area(h, k) < 0.0) {
    for (uint32_t i = 0; i < k; i++) out[i] = h[k - 1 - i];
  } else {
    memcpy(out, h, sizeof *h * k);
  }
  tess_free(h);
  return k;
}

static int compare_yx(const void *pa, const void *pb) {
  const TessDVec2 *a = pa, *b = pb;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return 0;
}

uint32_t tess_convex_hull(TessDVec2 *points, uint32_t count, TessDVec2 *out) {
  qsort(points, count, sizeof *points, compare_yx);
  return tess_convex_hull_sorted(points, count, out);
}

/* ---- Smallest enclosing circle ----------------------------------------- */

static bool in_circle(TessDVec2 c, double r, TessDVec2 p) {
  double dx = p.x - c.x, dy = p.y - c.y;
  return sqrt(dx * dx + dy * dy) <= r * (1.0 + 1e-12) + 1e-9;
}

static void circle_two(TessDVec2 a, TessDVec2 b, TessDVec2 *c, double *r) {
  *c = tess_d2(0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
  *r = 0.5 * sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
}

static void circle_three(TessDVec2 a, TessDVec2 b, TessDVec2 c, TessDVec2 *center, double *r) {
  TessDVec2 ab = tess_d2_sub(b, a), ac = tess_d2_sub(c, a);
  double d = 2.0 * tess_d2_cross(ab, ac);
  if (fabs(d) < 1e-12) { /* collinear: the widest pair decides */
    TessDVec2 c1;
    double r1;
    circle_two(a, b, center, r);
    circle_two(a, c, &c1, &r1);
    if (r1 > *r) {
      *center = c1;
      *r = r1;
    }
    circle_two(b, c, &c1, &r1);
    if (r1 > *r) {
      *center = c1;
      *r = r1;
    }
    return;
  }
  double b2 = tess_d2_dot(ab, ab), c2 = tess_d2_dot(ac, ac);
  double ux = (ac.y * b2 - ab.y * c2) / d, uy = (ab.x * c2 - ac.x * b2) / d;
  *center = tess_d2(a.x + ux, a.y + uy);
  *r = sqrt(ux * ux + uy * uy);
}

void tess_min_enclosing_circle(const TessDVec2 *points, uint32_t count, TessDVec2 *center, double *radius) {
  *center = tess_d2(0.0, 0.0);
  *radius = 0.0;
  if (count == 0) return;
  /* A shuffled copy gives Welzl's expected linear time; fall back to the
   * given order when memory is short (still correct, only slower). */
  TessDVec2 *p = tess_alloc(sizeof *p * count);
  const TessDVec2 *q = points;
  if (p) {
    memcpy(p, points, sizeof *p * count);
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (uint32_t i = count - 1; i > 0; i--) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t j = (uint32_t)((s >> 33) % (i + 1));
      TessDVec2 t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    q = p;
  }
  TessDVec2 c = q[0];
  double r = 0.0;
  for (uint32_t i = 1; i < count; i++) {
    if (in_circle(c, r, q[i])) continue;
    c = q[i];
    r = 0.0;
    for (uint32_t j = 0; j < i; j++) {
      if (in_circle(c, r, q[j])) continue;
      circle_two(q[i], q[j], &c, &r);
      for (uint32_t k = 0; k < j; k++) {
        if (in_circle(c, r, q[k])) continue;
        circle_three(q[i], q[j], q[k], &c, &r);
      }
    }
  }
  tess_free(p);
  *center = c;
  *radius = r;
}
