/* Contact manifolds (up to 2 points) between rounded convex polygons, and
 * between a shape and one full map cell whose shared edges and corners are
 * switched off (the Infiniworld rule: a feature two solid cells share never
 * collides, so nothing bumps on a seam). All in world coordinates. */
#include "physics_private.h"

#define SLOP 0.005f
#define CELL_TOL 0.1f

static void add_point(Manifold *m, TessVec2 p, float sep, uint32_t id) {
  m->p[m->count].point = p;
  m->p[m->count].separation = sep;
  m->p[m->count].id = id;
  m->count++;
}

/* When, as a fraction of the step, a point moving from c by `sweep` first comes within r of q
 * (at most 2); -1 if it does not (it passes by, moves away, or is within r already: then the
 * normal from where they are stands).
 *
 * A speculative contact is a half-plane: the solver lets the bodies close the gap along the
 * normal, no more. Taken from where the bodies are at the step's start, a round feature's normal
 * (a corner, a circle) points along the line between them then, not at the moment they meet: a
 * ball passing close over a corner was turned by a normal that pointed mostly back along its
 * path (20 m/s, 0.2 m above the corner: (3.0, -7.1) m/s out, where (12.8, -9.6) is exact). The
 * normal at the impact gives the half-plane that touches the corner where the ball meets it and
 * that its path does not cross before. */
static float sweep_time(TessVec2 c, TessVec2 sweep, TessVec2 q, float r) {
  TessVec2 f = tess_v2_sub(c, q);
  float a = tess_v2_dot(sweep, sweep), b = tess_v2_dot(f, sweep), cc = tess_v2_dot(f, f) - r * r;
  /* touching already (resting, rolling over the feature): the start's normal is the meeting's */
  if (!(a > 1e-12f) || b >= 0.0f || cc <= (r + 0.1f * SLOP) * (r + 0.1f * SLOP) - r * r) return -1.0f;
  float disc = b * b - a * cc;
  if (disc < 0.0f) return -1.0f;
  float t = (-b - sqrtf(disc)) / a;
  if (t < 0.0f) return -1.0f;
  /* a meeting early next step too: the relaxation's speculative stop at the end of this one
   * acts along this normal; past that, the straight path says little */
  if (t > 2.0f) t = 2.0f;
  /* a graze (the path nearly along the surface where it meets it): the normals differ little,
   * and a ball rolling over a vertex level with the surface it sinks into by its resting
   * penetration would meet it at a slant and be lifted (a bump) */
  TessVec2 m = tess_v2_mul_add(f, t, sweep);
  float along = -tess_v2_dot(m, sweep);
  if (along * along < 0.0625f * tess_v2_dot(m, m) * a) return -1.0f; /* cos < 1/4 */
  return t;
}

static void circles(TessVec2 ca, float ra, TessVec2 cb, float rb, float margin, TessVec2 sweep, Manifold *m) {
  TessVec2 d = tess_v2_sub(cb, ca);
  /* Far apart, no contact either way, and no square root spent on finding that out: the start's
   * separation is over the margin, and the meeting's is at least a quarter of the start's
   * (sweep_time turns away meetings more grazing than cos 1/4, and the path to the meeting is at
   * least the gap), so over 4 margins there is none. 4.5 leaves rounding room. */
  float reach = ra + rb + 4.5f * margin;
  if (margin >= 0.0f && tess_v2_dot(d, d) > reach * reach) return;
  float when = sweep.x != 0.0f || sweep.y != 0.0f ? sweep_time(cb, sweep, ca, ra + rb) : -1.0f;
  if (when >= 0.0f) {
    TessVec2 meet = tess_v2_sub(tess_v2_mul_add(cb, when, sweep), ca);
    float len = tess_v2_length(meet);
    if (len > 1e-9f) {
      /* the separation now along the normal at the meeting */
      TessVec2 n = tess_v2_scale(1.0f / len, meet);
      float sep = tess_v2_dot(d, n) - ra - rb;
      if (sep > margin) return;
      m->normal = n;
      add_point(m, tess_v2_mul_add(ca, ra + 0.5f * sep, n), sep, 0);
      return;
    }
  }
  float dist = tess_v2_length(d);
  float sep = dist - ra - rb;
  if (sep > margin) return;
  TessVec2 n = dist > 1e-9f ? tess_v2_scale(1.0f / dist, d) : tess_v2(0.0f, -1.0f);
  m->normal = n;
  add_point(m, tess_v2_mul_add(ca, ra + 0.5f * sep, n), sep, 0);
}

/* The feature of polygon p (radius ignored) nearest the point c outside it: its best face e and,
 * when c lies beyond one of that face's ends, the vertex there (*vertex, else UINT32_MAX). */
static float poly_feature(const PhysPoly *p, TessVec2 c, uint32_t *face, uint32_t *vertex) {
  float best = -FLT_MAX;
  uint32_t e = 0;
  for (uint32_t i = 0; i < p->count; i++) {
    float s = tess_v2_dot(p->n[i], tess_v2_sub(c, p->v[i]));
    if (s > best) {
      best = s;
      e = i;
    }
  }
  TessVec2 v1 = p->v[e], v2 = p->v[(e + 1) % p->count];
  float u1 = tess_v2_dot(tess_v2_sub(c, v1), tess_v2_sub(v2, v1));
  float u2 = tess_v2_dot(tess_v2_sub(c, v2), tess_v2_sub(v1, v2));
  bool outside = p->count == 2 || best > 0.0f;
  *face = e;
  *vertex = !(outside && (u1 < 0.0f || u2 < 0.0f)) ? UINT32_MAX : (u1 < 0.0f ? e : (e + 1) % p->count);
  return best;
}

/* Rounded polygon p against a circle (c, rc) that moves by `sweep` relative to p over the step:
 * normal from p to the circle. */
static void poly_vs_circle(const PhysPoly *p, TessVec2 c, float rc, float margin, TessVec2 sweep, Manifold *m) {
  if (p->count == 1) {
    circles(p->v[0], p->radius, c, rc, margin, sweep, m);
    return;
  }
  float best = -FLT_MAX;
  uint32_t e = 0;
  for (uint32_t i = 0; i < p->count; i++) {
    float s = tess_v2_dot(p->n[i], tess_v2_sub(c, p->v[i]));
    if (s > best) {
      best = s;
      e = i;
    }
  }
  float r = p->radius + rc;
  if (best > r + margin) return;
  TessVec2 v1 = p->v[e], v2 = p->v[(e + 1) % p->count];
  float u1 = tess_v2_dot(tess_v2_sub(c, v1), tess_v2_sub(v2, v1));
  float u2 = tess_v2_dot(tess_v2_sub(c, v2), tess_v2_sub(v1, v2));
  bool outside = p->count == 2 || best > 0.0f;
  TessVec2 n;
  float sep;
  uint32_t id;
  if (outside && (u1 < 0.0f || u2 < 0.0f)) {
    TessVec2 q = u1 < 0.0f ? v1 : v2;
    TessVec2 d = tess_v2_sub(c, q);
    float dist = tess_v2_length(d);
    sep = dist - r;
    if (sep > margin) return;
    n = dist > 1e-9f ? tess_v2_scale(1.0f / dist, d) : p->n[e];
    id = 0x100u | (u1 < 0.0f ? e : (e + 1) % p->count);
    float when = sweep.x != 0.0f || sweep.y != 0.0f ? sweep_time(c, sweep, q, r) : -1.0f;
    if (when >= 0.0f) {
      /* the normal where the circle meets the polygon (sweep_time says why): at the vertex, or
       * on the face it has come over by then */
      TessVec2 meet = tess_v2_mul_add(c, when, sweep);
      uint32_t face, vertex;
      poly_feature(p, meet, &face, &vertex);
      TessVec2 mq = vertex == UINT32_MAX ? p->v[face] : p->v[vertex];
      TessVec2 md = tess_v2_sub(meet, mq);
      float mlen = tess_v2_length(md);
      TessVec2 mn = vertex == UINT32_MAX ? p->n[face] : tess_v2_scale(1.0f / (mlen > 1e-9f ? mlen : 1.0f), md);
      float msep = tess_v2_dot(tess_v2_sub(c, mq), mn) - r;
      /* a face's half-plane that the circle already crosses beside the face is not the one it meets */
      if ((vertex == UINT32_MAX && msep >= 0.0f) || (vertex != UINT32_MAX && mlen > 1e-9f)) {
        n = mn;
        sep = msep;
        if (sep > margin) return;
        id = vertex == UINT32_MAX ? face : 0x100u | vertex;
      }
    }
  } else {
    n = p->n[e];
    sep = best - r;
    id = e;
  }
  m->normal = n;
  add_point(m, tess_v2_mul_add(c, -(rc + 0.5f * sep), n), sep, id);
}

static float max_separation(const PhysPoly *p1, const PhysPoly *p2, uint32_t *edge) {
  float best = -FLT_MAX;
  for (uint32_t i = 0; i < p1->count; i++) {
    TessVec2 n = p1->n[i], v = p1->v[i];
    float si = FLT_MAX;
    for (uint32_t j = 0; j < p2->count; j++) {
      float s = tess_v2_dot(n, tess_v2_sub(p2->v[j], v));
      if (s < si) si = s;
    }
    if (si > best) {
      best = si;
      *edge = i;
    }
  }
  return best;
}

/* Closest points of segments p1-q1 and p2-q2 (Ericson 5.1.9). */
static void segment_distance(TessVec2 p1, TessVec2 q1, TessVec2 p2, TessVec2 q2, float *s_out, float *t_out,
                             TessVec2 *c1, TessVec2 *c2) {
  TessVec2 d1 = tess_v2_sub(q1, p1), d2 = tess_v2_sub(q2, p2), r = tess_v2_sub(p1, p2);
  float a = tess_v2_dot(d1, d1), e = tess_v2_dot(d2, d2), f = tess_v2_dot(d2, r);
  float s, t;
  const float eps = 1e-12f;
  if (a <= eps && e <= eps) {
    s = t = 0.0f;
  } else if (a <= eps) {
    s = 0.0f;
    t = f / e;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  } else {
    float c = tess_v2_dot(d1, r);
    if (e <= eps) {
      t = 0.0f;
      s = -c / a;
      s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
    } else {
      float b = tess_v2_dot(d1, d2);
      float denom = a * e - b * b;
      s = denom > eps ? (b * f - c * e) / denom : 0.0f;
      s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
      t = (b * s + f) / e;
      if (t < 0.0f) {
        t = 0.0f;
        s = -c / a;
        s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
      } else if (t > 1.0f) {
        t = 1.0f;
        s = (b - c) / a;
        s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
      }
    }
  }
  *s_out = s;
  *t_out = t;
  *c1 = tess_v2_mul_add(p1, s, d1);
  *c2 = tess_v2_mul_add(p2, t, d2);
}

typedef struct CellFilter {
  uint32_t free_sides, corners;
} CellFilter;

static bool cell_admits(const CellFilter *f, TessVec2 n) {
  if (n.x > CELL_TOL && !(f->free_sides & SIDE_RIGHT)) return false;
  if (n.x < -CELL_TOL && !(f->free_sides & SIDE_LEFT)) return false;
  if (n.y > CELL_TOL && !(f->free_sides & SIDE_BOTTOM)) return false;
  if (n.y < -CELL_TOL && !(f->free_sides & SIDE_TOP)) return false;
  if (fabsf(n.x) > CELL_TOL && fabsf(n.y) > CELL_TOL) {
    uint32_t bit = n.y < 0.0f ? (n.x < 0.0f ? 1u : 2u) : (n.x > 0.0f ? 4u : 8u);
    if (!(f->corners & bit)) return false;
  }
  return true;
}

/* Given the reference face i11 of p1 (separation `sep` along its normal),
 * builds the manifold against p2. flip: report the normal from p2 to p1.
 * `filter` (with flip meaning p2 is the cell) rejects vertex normals that
 * would come from a shared corner. */
static void finish_polys(const PhysPoly *p1, uint32_t i11, const PhysPoly *p2, float sep, bool flip, float margin,
                         const CellFilter *filter, bool cell_is_p1, Manifold *m) {
  uint32_t i12 = (i11 + 1) % p1->count;
  TessVec2 v11 = p1->v[i11], v12 = p1->v[i12];
  TessVec2 n = p1->n[i11];
  TessVec2 t = tess_v2_cross_sv(1.0f, n);
  float lower1 = 0.0f, upper1 = tess_v2_dot(tess_v2_sub(v12, v11), t);
  /* The incident edge: the most anti-parallel edge of p2 among those that lie
   * across the reference face. The one-sided test against a cell can choose
   * a face that the most anti-parallel edge does not reach at all (a box on
   * its corner over the neighbouring cell), and clipping that edge to the
   * face would extrapolate it into a deep penetration that is not there. */
  uint32_t i21 = 0, facing = UINT32_MAX;
  float min_dot = FLT_MAX, facing_dot = FLT_MAX;
  for (uint32_t j = 0; j < p2->count; j++) {
    float d = tess_v2_dot(n, p2->n[j]);
    if (d < min_dot) {
      min_dot = d;
      i21 = j;
    }
    float ta = tess_v2_dot(tess_v2_sub(p2->v[j], v11), t);
    float tb = tess_v2_dot(tess_v2_sub(p2->v[(j + 1) % p2->count], v11), t);
    if (fmaxf(ta, tb) < lower1 || fminf(ta, tb) > upper1) continue;
    if (d < facing_dot) {
      facing_dot = d;
      facing = j;
    }
  }
  if (facing != UINT32_MAX && facing_dot < 0.0f) i21 = facing;
  uint32_t i22 = (i21 + 1) % p2->count;
  TessVec2 v21 = p2->v[i21], v22 = p2->v[i22];
  float r1 = p1->radius, r2 = p2->radius, radius = r1 + r2;
  uint32_t fl = flip ? 0x10000u : 0u;

  if (radius > 0.0f && sep > 0.1f * SLOP) {
    float f1, f2;
    TessVec2 c1, c2;
    segment_distance(v11, v12, v21, v22, &f1, &f2, &c1, &c2);
    bool vertex1 = f1 == 0.0f || f1 == 1.0f, vertex2 = f2 == 0.0f || f2 == 1.0f;
    if (vertex1 && vertex2) {
      TessVec2 d = tess_v2_sub(c2, c1);
      float dist = tess_v2_length(d);
      if (dist > 1e-9f) {
        TessVec2 nn = tess_v2_scale(1.0f / dist, d);
        TessVec2 reported = flip ? tess_v2_neg(nn) : nn;
        TessVec2 from_cell = cell_is_p1 ? nn : tess_v2_neg(nn);
        if (!filter || cell_admits(filter, from_cell)) {
          float s = dist - radius;
          if (s > margin) return;
          m->normal = reported;
          uint32_t a = f1 == 0.0f ? i11 : i12, b = f2 == 0.0f ? i21 : i22;
          add_point(m, tess_v2_mul_add(c1, r1 + 0.5f * s, nn), s, fl | 0x200u | (a << 4) | b);
          return;
        }
      }
    }
  }

  float upper2 = tess_v2_dot(tess_v2_sub(v21, v11), t), lower2 = tess_v2_dot(tess_v2_sub(v22, v11), t);
  TessVec2 v_lower, v_upper;
  float span = upper2 - lower2;
  /* clipped to the reference face, never past the incident edge's own ends */
  if (lower2 < lower1 && span > FLT_EPSILON)
    v_lower = tess_v2_lerp(v22, v21, fminf((lower1 - lower2) / span, 1.0f));
  else
    v_lower = v22;
  if (upper2 > upper1 && span > FLT_EPSILON)
    v_upper = tess_v2_lerp(v22, v21, fmaxf((upper1 - lower2) / span, 0.0f));
  else
    v_upper = v21;
  float sep_lower = tess_v2_dot(tess_v2_sub(v_lower, v11), n);
  float sep_upper = tess_v2_dot(tess_v2_sub(v_upper, v11), n);
  m->normal = flip ? tess_v2_neg(n) : n;
  if (sep_lower - radius <= margin)
    add_point(m, tess_v2_mul_add(v_lower, 0.5f * (r1 - r2 - sep_lower), n), sep_lower - radius,
              fl | (i11 << 4) | i22);
  if (sep_upper - radius <= margin)
    add_point(m, tess_v2_mul_add(v_upper, 0.5f * (r1 - r2 - sep_upper), n), sep_upper - radius,
              fl | 0x400u | (i12 << 4) | i21);
}

void physics_collide(const PhysPoly *a, const PhysPoly *b, float margin, Manifold *m) {
  physics_collide_swept(a, b, margin, tess_v2(0.0f, 0.0f), m);
}

void physics_collide_swept(const PhysPoly *a, const PhysPoly *b, float margin, TessVec2 sweep, Manifold *m) {
  m->count = 0;
  if (b->count == 1) {
    poly_vs_circle(a, b->v[0], b->radius, margin, sweep, m);
    return;
  }
  if (a->count == 1) {
    poly_vs_circle(b, a->v[0], a->radius, margin, tess_v2_neg(sweep), m);
    m->normal = tess_v2_neg(m->normal);
    return;
  }
  uint32_t ea = 0, eb = 0;
  float sa = max_separation(a, b, &ea);
  float sb = max_separation(b, a, &eb);
  float radius = a->radius + b->radius;
  if (sa > radius + margin || sb > radius + margin) return;
  if (sb > sa + 0.1f * SLOP)
    finish_polys(b, eb, a, sb, true, margin, NULL, false, m);
  else
    finish_polys(a, ea, b, sa, false, margin, NULL, false, m);
}

/* The Voronoi region of point c against the cell [lo, hi]: -1, 0, 1 on each axis. */
static void cell_region(TessVec2 c, TessVec2 lo, TessVec2 hi, int *rx, int *ry) {
  *rx = c.x < lo.x ? -1 : (c.x > hi.x ? 1 : 0);
  *ry = c.y < lo.y ? -1 : (c.y > hi.y ? 1 : 0);
}

/* A circle centred at c, in corner region (rx, ry) of the cell [lo, hi] at the step's start and
 * moving by `sweep`: the normal where it meets the cell (sweep_time says why), at the corner or
 * on the open face it has come over by then. False when that feature may not collide (a closed
 * side): the start's corner normal stands. */
static bool cell_corner_swept(TessVec2 c, float r, TessVec2 sweep, TessVec2 lo, TessVec2 hi, TessVec2 q,
                              uint32_t free_sides, uint32_t corners, TessVec2 *n, float *sep, uint32_t *id) {
  float when = sweep_time(c, sweep, q, r);
  if (when < 0.0f) return false;
  TessVec2 meet = tess_v2_mul_add(c, when, sweep);
  int mx, my;
  cell_region(meet, lo, hi, &mx, &my);
  if (mx != 0 && my != 0) {
    uint32_t bit = my < 0 ? (mx < 0 ? 1u : 2u) : (mx > 0 ? 4u : 8u);
    TessVec2 mq = tess_v2(mx < 0 ? lo.x : hi.x, my < 0 ? lo.y : hi.y);
    TessVec2 d = tess_v2_sub(meet, mq);
    float len = tess_v2_length(d);
    if (!(corners & bit) || !(len > 1e-9f)) return false;
    *n = tess_v2_scale(1.0f / len, d);
    *sep = tess_v2_dot(tess_v2_sub(c, mq), *n) - r;
    *id = 0x100u | bit;
    return true;
  }
  /* a face: only if the circle is clear of its line now (else it is beside the face, not over it) */
  if (mx != 0 && my == 0) {
    float s = (mx < 0 ? lo.x - c.x : c.x - hi.x) - r;
    if (!(free_sides & (mx < 0 ? SIDE_LEFT : SIDE_RIGHT)) || s < 0.0f) return false;
    *n = tess_v2((float)mx, 0.0f);
    *sep = s;
    *id = mx < 0 ? 3u : 1u;
    return true;
  }
  if (my != 0 && mx == 0) {
    float s = (my < 0 ? lo.y - c.y : c.y - hi.y) - r;
    if (!(free_sides & (my < 0 ? SIDE_TOP : SIDE_BOTTOM)) || s < 0.0f) return false;
    *n = tess_v2(0.0f, (float)my);
    *sep = s;
    *id = my < 0 ? 0u : 2u;
    return true;
  }
  return false; /* it would be inside by then: through a face first, faster than a step can tell */
}

void physics_collide_cell(const PhysPoly *shape, TessAABB cell, uint32_t free_sides, uint32_t corners, float margin,
                          Manifold *m) {
  physics_collide_cell_swept(shape, cell, free_sides, corners, margin, tess_v2(0.0f, 0.0f), m);
}

void physics_collide_cell_swept(const PhysPoly *shape, TessAABB cell, uint32_t free_sides, uint32_t corners, float margin,
                                TessVec2 sweep, Manifold *m) {
  m->count = 0;
  TessVec2 lo = cell.lower, hi = cell.upper;
  if (shape->count == 1) {
    /* Voronoi regions of the cell: inside, one of 4 edges, one of 4 corners. */
    TessVec2 c = shape->v[0];
    float r = shape->radius;
    int rx = c.x < lo.x ? -1 : (c.x > hi.x ? 1 : 0);
    int ry = c.y < lo.y ? -1 : (c.y > hi.y ? 1 : 0);
    TessVec2 n;
    float sep;
    uint32_t id;
    if (rx == 0 && ry == 0) {
      float depth[4] = {c.y - lo.y, hi.x - c.x, hi.y - c.y, c.x - lo.x}; /* top, right, bottom, left */
      static const uint32_t bits[4] = {SIDE_TOP, SIDE_RIGHT, SIDE_BOTTOM, SIDE_LEFT};
      static const float nx[4] = {0, 1, 0, -1}, ny[4] = {-1, 0, 1, 0};
      int best = -1;
      for (int k = 0; k < 4; k++)
        if ((free_sides & bits[k]) && (best < 0 || depth[k] < depth[best])) best = k;
      if (best < 0) return;
      n = tess_v2(nx[best], ny[best]);
      sep = -depth[best] - r;
      id = (uint32_t)best;
    } else if (ry == 0) {
      if (!(free_sides & (rx < 0 ? SIDE_LEFT : SIDE_RIGHT))) return;
      sep = (rx < 0 ? lo.x - c.x : c.x - hi.x) - r;
      n = tess_v2((float)rx, 0.0f);
      id = rx < 0 ? 3u : 1u;
    } else if (rx == 0) {
      if (!(free_sides & (ry < 0 ? SIDE_TOP : SIDE_BOTTOM))) return;
      sep = (ry < 0 ? lo.y - c.y : c.y - hi.y) - r;
      n = tess_v2(0.0f, (float)ry);
      id = ry < 0 ? 0u : 2u;
    } else {
      uint32_t bit = ry < 0 ? (rx < 0 ? 1u : 2u) : (rx > 0 ? 4u : 8u);
      if (!(corners & bit)) return;
      TessVec2 q = tess_v2(rx < 0 ? lo.x : hi.x, ry < 0 ? lo.y : hi.y);
      TessVec2 d = tess_v2_sub(c, q);
      float dist = tess_v2_length(d);
      sep = dist - r;
      if (sep > margin) return;
      n = tess_v2_scale(1.0f / dist, d);
      id = 0x100u | bit;
      if (sweep.x != 0.0f || sweep.y != 0.0f)
        cell_corner_swept(c, r, sweep, lo, hi, q, free_sides, corners, &n, &sep, &id);
    }
    if (sep > margin) return;
    m->normal = n;
    add_point(m, tess_v2_mul_add(c, -(r + 0.5f * sep), n), sep, id);
    return;
  }

  PhysPoly box;
  box.count = 4;
  box.radius = 0.0f;
  box.v[0] = lo;
  box.v[1] = tess_v2(hi.x, lo.y);
  box.v[2] = hi;
  box.v[3] = tess_v2(lo.x, hi.y);
  box.n[0] = tess_v2(0.0f, -1.0f);
  box.n[1] = tess_v2(1.0f, 0.0f);
  box.n[2] = tess_v2(0.0f, 1.0f);
  box.n[3] = tess_v2(-1.0f, 0.0f);
  static const uint32_t face_bits[4] = {SIDE_TOP, SIDE_RIGHT, SIDE_BOTTOM, SIDE_LEFT};
  CellFilter filter = {free_sides, corners};

  /* Separated along any axis at all: no contact (the one-sided test below
   * only chooses the normal). */
  float radius0 = shape->radius + margin;
  float any_best = -FLT_MAX; /* the least penetration over every axis, open or not */
  for (uint32_t k = 0; k < 4; k++) {
    float s = FLT_MAX;
    for (uint32_t j = 0; j < shape->count; j++) {
      float d = tess_v2_dot(box.n[k], tess_v2_sub(shape->v[j], box.v[k]));
      if (d < s) s = d;
    }
    if (s > radius0) return;
    if (s > any_best) any_best = s;
  }
  for (uint32_t i = 0; i < shape->count; i++) {
    float s = FLT_MAX;
    for (uint32_t k = 0; k < 4; k++) {
      float d = tess_v2_dot(shape->n[i], tess_v2_sub(box.v[k], shape->v[i]));
      if (d < s) s = d;
    }
    if (s > radius0) return;
    if (s > any_best) any_best = s;
  }

  /* One-sided SAT: only open cell faces, and only shape faces whose normal
   * (seen from the cell) points out through open geometry. */
  float best_cell = -FLT_MAX, best_shape = -FLT_MAX;
  uint32_t cell_edge = 0, shape_edge = 0;
  for (uint32_t k = 0; k < 4; k++) {
    if (!(free_sides & face_bits[k])) continue;
    float s = FLT_MAX;
    for (uint32_t j = 0; j < shape->count; j++) {
      float d = tess_v2_dot(box.n[k], tess_v2_sub(shape->v[j], box.v[k]));
      if (d < s) s = d;
    }
    if (s > best_cell) {
      best_cell = s;
      cell_edge = k;
    }
  }
  if (best_cell == -FLT_MAX) return; /* buried cell: its neighbours do the work */
  for (uint32_t i = 0; i < shape->count; i++) {
    if (!cell_admits(&filter, tess_v2_neg(shape->n[i]))) continue;
    float s = FLT_MAX;
    for (uint32_t k = 0; k < 4; k++) {
      float d = tess_v2_dot(shape->n[i], tess_v2_sub(box.v[k], shape->v[i]));
      if (d < s) s = d;
    }
    if (s > best_shape) {
      best_shape = s;
      shape_edge = i;
    }
  }
  float radius = shape->radius;
  if (best_cell > radius + margin || best_shape > radius + margin) return;
  /* A shape that only touches the cell through a shared (closed) face would
   * be pushed out through a far open face: that is its neighbours' business. */
  float open_best = best_cell > best_shape ? best_cell : best_shape;
  float half_cell = 0.5f * fminf(hi.x - lo.x, hi.y - lo.y);
  if (open_best < -half_cell && any_best > open_best + SLOP) return;
  if (best_shape > best_cell + 0.1f * SLOP)
    finish_polys(shape, shape_edge, &box, best_shape, true, margin, &filter, false, m);
  else
    finish_polys(&box, cell_edge, shape, best_cell, false, margin, &filter, true, m);
}
