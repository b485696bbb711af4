/* Polygon area, centroid, inertia, convexity and containment in double. */
#include "tessera/geom.h"

double tess_poly_signed_area(const TessDVec2 *v, uint32_t count) {
  if (count < 3) return 0.0;
  /* Relative to the first vertex: cancellation stays small for far-off polygons. */
  TessDVec2 o = v[0];
  double sum = 0.0;
  for (uint32_t i = 1; i + 1 < count; i++) sum += tess_d2_cross(tess_d2_sub(v[i], o), tess_d2_sub(v[i + 1], o));
  return 0.5 * sum;
}

TessMassProps tess_poly_mass(const TessDVec2 *v, uint32_t count) {
  TessMassProps m = {0.0, 0.0, 0.0, 0.0};
  if (count == 0) return m;
  TessDVec2 o = v[0];
  double a2 = 0.0, sx = 0.0, sy = 0.0, si = 0.0;
  for (uint32_t i = 0; i < count; i++) {
    TessDVec2 p = tess_d2_sub(v[i], o);
    TessDVec2 q = tess_d2_sub(v[(i + 1) % count], o);
    double a = tess_d2_cross(p, q);
    a2 += a;
    sx += a * (p.x + q.x);
    sy += a * (p.y + q.y);
    si += a * (tess_d2_dot(p, p) + tess_d2_dot(p, q) + tess_d2_dot(q, q));
  }
  if (a2 == 0.0) {
    double mx = 0.0, my = 0.0;
    for (uint32_t i = 0; i < count; i++) {
      mx += v[i].x;
      my += v[i].y;
    }
    m.cx = mx / count;
    m.cy = my / count;
    return m;
  }
  double area = 0.5 * a2;
  double cx = sx / (3.0 * a2), cy = sy / (3.0 * a2);
  double inertia_o = si / 12.0; /* about the first vertex, sign follows orientation */
  double inertia = inertia_o - area * (cx * cx + cy * cy);
  if (area < 0.0) {
    area = -area;
    inertia = -inertia;
  }
  m.area = area;
  m.cx = cx + o.x;
  m.cy = cy + o.y;
  m.inertia = inertia;
  return m;
}

TessMassProps tess_mass_combine(const TessMassProps *parts, uint32_t count) {
  TessMassProps m = {0.0, 0.0, 0.0, 0.0};
  double sx = 0.0, sy = 0.0;
  for (uint32_t i = 0; i < count; i++) {
    m.area += parts[i].area;
    sx += parts[i].area * parts[i].cx;
    sy += parts[i].area * parts[i].cy;
  }
  if (m.area <= 0.0) return m;
  m.cx = sx / m.area;
  m.cy = sy / m.area;
  for (uint32_t i = 0; i < count; i++) {
    double dx = parts[i].cx - m.cx, dy = parts[i].cy - m.cy;
    m.inertia += parts[i].inertia + parts[i].area * (dx * dx + dy * dy);
  }
  return m;
}

double tess_mass_inertia_about(const TessMassProps *m, TessDVec2 point) {
  double dx = m->cx - point.x, dy = m->cy - point.y;
  return m->inertia + m->area * (dx * dx + dy * dy);
}

bool tess_poly_is_convex(const TessDVec2 *v, uint32_t count, double eps) {
  if (count < 3) return false;
  if (tess_poly_signed_area(v, count) <= 0.0) return false;
  for (uint32_t i = 0; i < count; i++) {
    TessDVec2 a = v[i], b = v[(i + 1) % count], c = v[(i + 2) % count];
    if (tess_d2_orient(a, b, c) < -eps) return false;
  }
  return true;
}

bool tess_convex_contains(const TessDVec2 *v, uint32_t count, TessDVec2 p, double eps) {
  for (uint32_t i = 0; i < count; i++) {
    TessDVec2 a = v[i], b = v[(i + 1) % count];
    TessDVec2 e = tess_d2_sub(b, a);
    double len = sqrt(tess_d2_dot(e, e));
    if (len == 0.0) continue;
    if (tess_d2_orient(a, b, p) / len < -eps) return false;
  }
  return true;
}

bool tess_poly_contains(const TessDVec2 *v, uint32_t count, TessDVec2 p) {
  bool inside = false;
  for (uint32_t i = 0, j = count - 1; i < count; j = i++) {
    if ((v[i].y > p.y) != (v[j].y > p.y)) {
      double x = v[j].x + (p.y - v[j].y) * (v[i].x - v[j].x) / (v[i].y - v[j].y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

/* Keeps the part of the polygon where sign * (coord - value) >= 0 along axis. */
static uint32_t clip_axis(const TessDVec2 *in, uint32_t n, TessDVec2 *out, int axis, double value, double sign) {
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    TessDVec2 a = in[i], b = in[(i + 1) % n];
    double da = sign * ((axis ? a.y : a.x) - value);
    double db = sign * ((axis ? b.y : b.x) - value);
    if (da >= 0.0) out[m++] = a;
    if ((da >= 0.0) != (db >= 0.0)) {
      double t = da / (da - db);
      out[m++] = tess_d2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
    }
  }
  return m;
}

uint32_t tess_convex_clip_rect(const TessDVec2 *v, uint32_t count, double x0, double y0, double x1, double y1,
                               TessDVec2 *out) {
  if (count < 3) return 0;
  /* A convex polygon clipped by four half-planes gains at most four vertices. */
  TessDVec2 stack_a[72];
  TessDVec2 *a = stack_a;
  if (count + 4 > 72) {
    a = tess_alloc(sizeof *a * (count + 4));
    if (!a) return 0;
  }
  uint32_t n = clip_axis(v, count, out, 0, x0, 1.0);
  if (n) n = clip_axis(out, n, a, 0, x1, -1.0);
  if (n) n = clip_axis(a, n, out, 1, y0, 1.0);
  if (n) n = clip_axis(out, n, a, 1, y1, -1.0);
  for (uint32_t i = 0; i < n; i++) out[i] = a[i];
  if (a != stack_a) tess_free(a);
  return n;
}

double tess_convex_clip_rect_area(const TessDVec2 *v, uint32_t count, double x0, double y0, double x1, double y1) {
  if (count < 3) return 0.0;
  TessDVec2 stack_out[72];
  TessDVec2 *out = stack_out;
  if (count + 4 > 72) {
    out = tess_alloc(sizeof *out * (count + 4));
    if (!out) return 0.0;
  }
  uint32_t n = tess_convex_clip_rect(v, count, x0, y0, x1, y1, out);
  double area = n >= 3 ? fabs(tess_poly_signed_area(out, n)) : 0.0;
  if (out != stack_out) tess_free(out);
  return area;
}

bool tess_line_intersect(TessDVec2 a, TessDVec2 b, TessDVec2 c, TessDVec2 d, TessDVec2 *out) {
  TessDVec2 r = tess_d2_sub(b, a), s = tess_d2_sub(d, c);
  double den = tess_d2_cross(r, s);
  double scale = sqrt(tess_d2_dot(r, r) * tess_d2_dot(s, s));
  if (scale == 0.0 || fabs(den) <= 1e-12 * scale) return false;
  double t = tess_d2_cross(tess_d2_sub(c, a), s) / den;
  *out = tess_d2(a.x + t * r.x, a.y + t * r.y);
  return true;
}
