/* Pure geometry of rounded convex polygons: normals, mass, bounds, point
 * and ray tests, and clipped area (for buoyancy). No world needed. */
#include "physics_private.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define PI_F 3.14159265358979f

void physics_poly_finish(PhysPoly *p) {
  if (p->count == 1) {
    p->n[0] = tess_v2(0.0f, 0.0f);
    return;
  }
  for (uint32_t i = 0; i < p->count; i++) {
    TessVec2 e = tess_v2_sub(p->v[(i + 1) % p->count], p->v[i]);
    p->n[i] = tess_v2_normalize(tess_v2_cross_vs(e, 1.0f));
  }
}

void physics_poly_transform(const PhysPoly *in, TessTransform xf, PhysPoly *out) {
  out->count = in->count;
  out->radius = in->radius;
  if (in->count == 1) { /* a circle: its centre; its normal is unused and zero */
    out->v[0] = tess_transform_point(xf, in->v[0]);
    out->n[0] = in->n[0];
    return;
  }
#if defined(__SSE2__)
  /* Two vertices a register, (x, y) -> (c x + -(s y), c y + s x) + p: the scalar products and
   * sums (a - b is a + -b exactly), all 8 slots with no loop to mispredict. A shape's slots past
   * its count are zero, and what lands in out's is never read. */
  __m128 c = _mm_set1_ps(xf.q.c), s = _mm_set1_ps(xf.q.s), p = _mm_setr_ps(xf.p.x, xf.p.y, xf.p.x, xf.p.y);
  __m128 flip = _mm_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f);
  for (int k = 0; k < TESS_POLY_MAX; k += 2) {
    __m128 v = _mm_loadu_ps(&in->v[k].x), n = _mm_loadu_ps(&in->n[k].x);
    __m128 vs = _mm_xor_ps(_mm_mul_ps(s, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1))), flip);
    __m128 ns = _mm_xor_ps(_mm_mul_ps(s, _mm_shuffle_ps(n, n, _MM_SHUFFLE(2, 3, 0, 1))), flip);
    _mm_storeu_ps(&out->v[k].x, _mm_add_ps(_mm_add_ps(_mm_mul_ps(c, v), vs), p));
    _mm_storeu_ps(&out->n[k].x, _mm_add_ps(_mm_mul_ps(c, n), ns));
  }
#else
  for (uint32_t i = 0; i < in->count; i++) {
    out->v[i] = tess_transform_point(xf, in->v[i]);
    out->n[i] = tess_rot_apply(xf.q, in->n[i]);
  }
#endif
}

/* physics_poly_transform, and the result's box (radius included) from the same registers: the
 * least and most of every x and y, a slot past the count standing in for vertex 0 (which changes
 * no extreme), so no loop over the count for the branch predictor to miss (3 to 8 vertices, a
 * different count shape after shape). The extremes of the same values the scalar loop compares,
 * so the same box, up to the sign of an exact zero. */
void physics_poly_transform_bounds(const PhysPoly *in, TessTransform xf, PhysPoly *out, TessAABB *bounds) {
#if defined(__SSE2__)
  if (in->count >= 2) {
    static const int32_t slots[32] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const int32_t *valid = slots + 16 - 2 * in->count; /* valid[s]: float slot s is a vertex's */
    out->count = in->count;
    out->radius = in->radius;
    __m128 c = _mm_set1_ps(xf.q.c), s = _mm_set1_ps(xf.q.s), p = _mm_setr_ps(xf.p.x, xf.p.y, xf.p.x, xf.p.y);
    __m128 flip = _mm_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f);
    __m128 first = _mm_setzero_ps(), lo = first, hi = first;
    for (int k = 0; k < TESS_POLY_MAX; k += 2) {
      __m128 v = _mm_loadu_ps(&in->v[k].x), n = _mm_loadu_ps(&in->n[k].x);
      __m128 vs = _mm_xor_ps(_mm_mul_ps(s, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1))), flip);
      __m128 ns = _mm_xor_ps(_mm_mul_ps(s, _mm_shuffle_ps(n, n, _MM_SHUFFLE(2, 3, 0, 1))), flip);
      __m128 w = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c, v), vs), p);
      _mm_storeu_ps(&out->v[k].x, w);
      _mm_storeu_ps(&out->n[k].x, _mm_add_ps(_mm_mul_ps(c, n), ns));
      if (k == 0) {
        first = _mm_movelh_ps(w, w); /* vertex 0 twice */
        lo = hi = w;                 /* vertices 0 and 1: a shape has 2 at least here */
      } else {
        __m128 keep = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(valid + 2 * k)));
        w = _mm_or_ps(_mm_and_ps(keep, w), _mm_andnot_ps(keep, first));
        lo = _mm_min_ps(lo, w);
        hi = _mm_max_ps(hi, w);
      }
    }
    lo = _mm_min_ps(lo, _mm_movehl_ps(lo, lo));
    hi = _mm_max_ps(hi, _mm_movehl_ps(hi, hi));
    float r = in->radius;
    bounds->lower = tess_v2(_mm_cvtss_f32(lo) - r, _mm_cvtss_f32(_mm_shuffle_ps(lo, lo, _MM_SHUFFLE(1, 1, 1, 1))) - r);
    bounds->upper = tess_v2(_mm_cvtss_f32(hi) + r, _mm_cvtss_f32(_mm_shuffle_ps(hi, hi, _MM_SHUFFLE(1, 1, 1, 1))) + r);
    return;
  }
#endif
  physics_poly_transform(in, xf, out);
  TessVec2 lo = out->v[0], hi = out->v[0];
  for (uint32_t k = 1; k < out->count; k++) {
    lo = physics_v2_min(lo, out->v[k]);
    hi = physics_v2_max(hi, out->v[k]);
  }
  bounds->lower = tess_v2(lo.x - out->radius, lo.y - out->radius);
  bounds->upper = tess_v2(hi.x + out->radius, hi.y + out->radius);
}

/* geom's one shape-mass implementation, rounded to the world's floats. */
void physics_poly_mass(const PhysPoly *p, float *area, TessVec2 *centroid, float *inertia_c) {
  TessMassProps m;
  if (p->count == 1)
    m = tess_circle_mass(tess_d2(p->v[0].x, p->v[0].y), p->radius);
  else if (p->count == 2)
    m = tess_capsule_mass(tess_d2(p->v[0].x, p->v[0].y), tess_d2(p->v[1].x, p->v[1].y), p->radius);
  else
    m = tess_polygon_mass(p->v, p->count);
  *area = (float)m.area;
  *centroid = tess_v2((float)m.cx, (float)m.cy);
  *inertia_c = (float)m.inertia;
}

TessAABB physics_poly_aabb(const PhysPoly *p, TessTransform xf) {
  TessVec2 lo = tess_transform_point(xf, p->v[0]), hi = lo;
  for (uint32_t i = 1; i < p->count; i++) {
    TessVec2 q = tess_transform_point(xf, p->v[i]);
    lo = physics_v2_min(lo, q);
    hi = physics_v2_max(hi, q);
  }
  TessAABB box = {{lo.x - p->radius, lo.y - p->radius}, {hi.x + p->radius, hi.y + p->radius}};
  return box;
}

static TessVec2 closest_on_segment(TessVec2 a, TessVec2 b, TessVec2 q) {
  TessVec2 e = tess_v2_sub(b, a);
  float ee = tess_v2_dot(e, e);
  if (ee <= 0.0f) return a;
  float t = tess_v2_dot(tess_v2_sub(q, a), e) / ee;
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return tess_v2_mul_add(a, t, e);
}

bool physics_poly_contains(const PhysPoly *p, TessVec2 q) {
  if (p->count == 1) return tess_v2_length_sq(tess_v2_sub(q, p->v[0])) <= p->radius * p->radius;
  if (p->count == 2) {
    TessVec2 c = closest_on_segment(p->v[0], p->v[1], q);
    return tess_v2_length_sq(tess_v2_sub(q, c)) <= p->radius * p->radius;
  }
  for (uint32_t i = 0; i < p->count; i++)
    if (tess_v2_dot(p->n[i], tess_v2_sub(q, p->v[i])) > p->radius) return false;
  return true;
}

float physics_poly_inner_radius(const PhysPoly *p, TessVec2 c) {
  if (p->count < 3) return p->radius;
  float m = FLT_MAX;
  for (uint32_t i = 0; i < p->count; i++) {
    float d = tess_v2_dot(p->n[i], tess_v2_sub(p->v[i], c));
    if (d < m) m = d;
  }
  return (m > 0.0f ? m : 0.0f) + p->radius;
}

static bool ray_circle(TessVec2 o, TessVec2 d, TessVec2 c, float r, float *t_out) {
  TessVec2 m = tess_v2_sub(o, c);
  float cc = tess_v2_dot(m, m) - r * r;
  if (cc < 0.0f) return false; /* starts inside */
  float a = tess_v2_dot(d, d);
  if (a <= 0.0f) return false;
  float b = tess_v2_dot(m, d);
  if (b >= 0.0f) return false; /* moving away */
  float disc = b * b - a * cc;
  if (disc < 0.0f) return false;
  *t_out = (-b - sqrtf(disc)) / a;
  return true;
}

bool physics_poly_ray(const PhysPoly *p, TessVec2 o, TessVec2 d, float max_fraction, float *fraction,
                      TessVec2 *normal) {
  if (p->radius == 0.0f && p->count >= 3) {
    /* Cyrus-Beck clipping against the faces. */
    float lower = 0.0f, upper = max_fraction;
    int index = -1;
    for (uint32_t i = 0; i < p->count; i++) {
      float num = tess_v2_dot(p->n[i], tess_v2_sub(p->v[i], o));
      float den = tess_v2_dot(p->n[i], d);
      if (den == 0.0f) {
        if (num < 0.0f) return false;
      } else if (den < 0.0f && num < lower * den) {
        lower = num / den;
        index = (int)i;
      } else if (den > 0.0f && num < upper * den) {
        upper = num / den;
      }
      if (upper < lower) return false;
    }
    if (index < 0) return false;
    *fraction = lower;
    *normal = p->n[index];
    return true;
  }
  float best = max_fraction;
  bool hit = false;
  TessVec2 best_n = {0, 0};
  float r = p->radius;
  if (p->count >= 2) {
    for (uint32_t i = 0; i < p->count; i++) {
      TessVec2 n = p->n[i];
      float den = tess_v2_dot(d, n);
      if (den >= 0.0f) continue;
      TessVec2 a = tess_v2_mul_add(p->v[i], r, n);
      TessVec2 b = tess_v2_mul_add(p->v[(i + 1) % p->count], r, n);
      float t = tess_v2_dot(tess_v2_sub(a, o), n) / den;
      if (t < 0.0f || t >= best) continue;
      TessVec2 q = tess_v2_mul_add(o, t, d);
      TessVec2 e = tess_v2_sub(b, a);
      float s = tess_v2_dot(tess_v2_sub(q, a), e);
      if (s < 0.0f || s > tess_v2_dot(e, e)) continue;
      best = t;
      best_n = n;
      hit = true;
    }
  }
  for (uint32_t i = 0; i < p->count; i++) {
    float t;
    if (ray_circle(o, d, p->v[i], r, &t) && t >= 0.0f && t < best) {
      best = t;
      best_n = tess_v2_normalize(tess_v2_sub(tess_v2_mul_add(o, t, d), p->v[i]));
      hit = true;
    }
  }
  if (hit) {
    *fraction = best;
    *normal = best_n;
  }
  return hit;
}

/* ---- Clipped area (buoyancy) ------------------------------------------ */

#define OUTLINE_MAX 48

/* Outline of the rounded polygon as a plain polygon; circles and capsule
 * ends are polygonised with the radius scaled so the area stays exact. */
static uint32_t outline(const PhysPoly *p, TessVec2 *out) {
  if (p->radius == 0.0f) {
    for (uint32_t i = 0; i < p->count; i++) out[i] = p->v[i];
    return p->count;
  }
  if (p->count == 1) {
    const uint32_t n = 32;
    float scale = sqrtf(PI_F / (0.5f * (float)n * sinf(2.0f * PI_F / (float)n)));
    float r = p->radius * scale;
    for (uint32_t i = 0; i < n; i++) {
      float a = 2.0f * PI_F * (float)i / (float)n;
      out[i] = tess_v2(p->v[0].x + r * cosf(a), p->v[0].y + r * sinf(a));
    }
    return n;
  }
  if (p->count == 2) {
    /* Two half circles of 12 segments each around the segment. */
    const uint32_t n = 12;
    float scale = sqrtf(PI_F / (0.5f * (float)(2 * n) * sinf(PI_F / (float)n)));
    float r = p->radius * scale;
    TessVec2 axis = tess_v2_normalize(tess_v2_sub(p->v[1], p->v[0]));
    float base = atan2f(axis.y, axis.x);
    uint32_t k = 0;
    for (uint32_t i = 0; i <= n; i++) {
      float a = base - 0.5f * PI_F + PI_F * (float)i / (float)n;
      out[k++] = tess_v2(p->v[1].x + r * cosf(a), p->v[1].y + r * sinf(a));
    }
    for (uint32_t i = 0; i <= n; i++) {
      float a = base + 0.5f * PI_F + PI_F * (float)i / (float)n;
      out[k++] = tess_v2(p->v[0].x + r * cosf(a), p->v[0].y + r * sinf(a));
    }
    return k;
  }
  for (uint32_t i = 0; i < p->count; i++) out[i] = p->v[i];
  return p->count;
}

/* Keeps the part of `in` where sign * (coord - value) <= 0 along axis. */
static uint32_t clip_axis(const TessVec2 *in, uint32_t n, TessVec2 *out, int axis, float value, float sign) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    TessVec2 a = in[i], b = in[(i + 1) % n];
    float da = sign * ((axis ? a.y : a.x) - value);
    float db = sign * ((axis ? b.y : b.x) - value);
    if (da <= 0.0f) out[k++] = a;
    if ((da < 0.0f && db > 0.0f) || (da > 0.0f && db < 0.0f)) {
      float t = da / (da - db);
      out[k++] = tess_v2_lerp(a, b, t);
    }
  }
  return k;
}

float physics_clip_area_rect(const PhysPoly *p, TessAABB r, TessVec2 *centroid) {
  TessVec2 a[OUTLINE_MAX * 2], b[OUTLINE_MAX * 2];
  uint32_t n = outline(p, a);
  n = clip_axis(a, n, b, 0, r.lower.x, -1.0f);
  n = clip_axis(b, n, a, 0, r.upper.x, 1.0f);
  n = clip_axis(a, n, b, 1, r.lower.y, -1.0f);
  n = clip_axis(b, n, a, 1, r.upper.y, 1.0f);
  if (n < 3) return 0.0f;
  double area = 0.0, cx = 0.0, cy = 0.0;
  for (uint32_t i = 0; i < n; i++) {
    TessVec2 u = a[i], v = a[(i + 1) % n];
    double c = (double)u.x * v.y - (double)v.x * u.y;
    area += c;
    cx += (u.x + v.x) * c;
    cy += (u.y + v.y) * c;
  }
  area *= 0.5;
  if (fabs(area) < 1e-12) return 0.0f;
  *centroid = tess_v2((float)(cx / (6.0 * area)), (float)(cy / (6.0 * area)));
  return (float)fabs(area);
}
