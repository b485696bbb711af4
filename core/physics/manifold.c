/* Contact manifolds (up to 2 points) between rounded convex polygons, and
 * between a shape and one full map cell whose shared edges and corners are
 * switched off (the Infiniworld rule: a feature two solid cells share never
 * collides, so nothing bumps on a seam). All in world coordinates. */
#include "physics_poly_lanes.h"

#define SLOP 0.005f
#define CELL_TOL 0.1f

/* The vertex after i around a polygon of `count` (a compare, not the division `%` costs; and a
 * mask, not a branch: whether the face is the last is anybody's guess). */
static inline uint32_t next_vertex(uint32_t i, uint32_t count) { return (i + 1) & -(uint32_t)(i + 1 < count); }

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
static inline float sweep_time(TessVec2 c, TessVec2 sweep, TessVec2 q, float r) {
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
  TessVec2 v1 = p->v[e], v2 = p->v[next_vertex(e, p->count)];
  float u1 = tess_v2_dot(tess_v2_sub(c, v1), tess_v2_sub(v2, v1));
  float u2 = tess_v2_dot(tess_v2_sub(c, v2), tess_v2_sub(v1, v2));
  bool outside = p->count == 2 || best > 0.0f;
  *face = e;
  *vertex = !(outside && (u1 < 0.0f || u2 < 0.0f)) ? UINT32_MAX : (u1 < 0.0f ? e : next_vertex(e, p->count));
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
  TessVec2 v1 = p->v[e], v2 = p->v[next_vertex(e, p->count)];
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
    id = 0x100u | (u1 < 0.0f ? e : next_vertex(e, p->count));
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

static inline bool cell_admits(const CellFilter *f, TessVec2 n) {
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

/* cell_admits for the faces of a shape (as lanes) seen from the cell (the normals negated), one
 * bit per face, among the faces `on`. A normal beyond the tolerance on both axes is a slant one,
 * and its signs name the corner: the tolerance tests alone decide, as in cell_admits. (No shortcut
 * for a cell open on every side and at every corner, which admits every face anyway: whether the
 * cell is one was a branch mispredicted some 770 times a step in the 2,000-polygon pile, by
 * callgrind's branch simulation.) */
static inline uint32_t cell_admits_bits(const CellFilter *f, const PolyLanes *ls) {
  uint32_t on = physics_lane_bits(ls->on[0]) | physics_lane_bits(ls->on[1]) << 4;
  PhysF4 tol = physics_lane_splat(CELL_TOL), ntol = physics_lane_splat(-CELL_TOL);
  /* the cell's normal is -n: -n.x > tol is n.x < -tol, and so on */
  uint32_t right = physics_lane_bits(ls->nx[0] < ntol) | physics_lane_bits(ls->nx[1] < ntol) << 4;
  uint32_t left = physics_lane_bits(ls->nx[0] > tol) | physics_lane_bits(ls->nx[1] > tol) << 4;
  uint32_t down = physics_lane_bits(ls->ny[0] < ntol) | physics_lane_bits(ls->ny[1] < ntol) << 4;
  uint32_t up = physics_lane_bits(ls->ny[0] > tol) | physics_lane_bits(ls->ny[1] > tol) << 4;
  uint32_t bad = (f->free_sides & SIDE_RIGHT ? 0u : right) | (f->free_sides & SIDE_LEFT ? 0u : left) |
                 (f->free_sides & SIDE_BOTTOM ? 0u : down) | (f->free_sides & SIDE_TOP ? 0u : up);
  bad |= (f->corners & 1u ? 0u : up & left) | (f->corners & 2u ? 0u : up & right) | (f->corners & 4u ? 0u : down & right) |
         (f->corners & 8u ? 0u : down & left);
  return on & ~bad;
}

/* The incident edge against reference face n of p1 (starting at v11, running along t to upper1):
 * the most anti-parallel edge of p2 among those that lie across the reference face. The
 * one-sided test against a cell can choose a face that the most anti-parallel edge does not
 * reach at all (a box on its corner over the neighbouring cell), and clipping that edge to the
 * face would extrapolate it into a deep penetration that is not there. l2: p2 as lanes. */
static uint32_t incident_edge(const PolyLanes *l2, uint32_t count2, TessVec2 v11, TessVec2 n, TessVec2 t, float upper1) {
  const float lower1 = 0.0f;
  PhysF4 along[2], next[2], d[2];
  PhysM4 last[2], across[2], scratch[2];
  physics_lane_masks(count2, scratch, last);
  PhysF4 ox = physics_lane_splat(v11.x), oy = physics_lane_splat(v11.y), tx = physics_lane_splat(t.x), ty = physics_lane_splat(t.y);
  PhysF4 nx = physics_lane_splat(n.x), ny = physics_lane_splat(n.y);
  for (int h = 0; h < 2; h++) {
    along[h] = (l2->x[h] - ox) * tx + (l2->y[h] - oy) * ty; /* each vertex along the face */
    d[h] = nx * l2->nx[h] + ny * l2->ny[h];
  }
  physics_lane_next(along, last, next);
  for (int h = 0; h < 2; h++) {
    PhysM4 before = physics_lane_max(along[h], next[h]) < physics_lane_splat(lower1);
    PhysM4 beyond = physics_lane_min(along[h], next[h]) > physics_lane_splat(upper1);
    across[h] = l2->on[h] & ~(before | beyond);
  }
  float min_dot = 0.0f, facing_dot = 0.0f;
  /* (the edge across the face first: it is the answer almost always, and the other search is
   * then not needed) */
  uint32_t facing = physics_lane_first_least(d, across, &facing_dot);
  if (facing != UINT32_MAX && facing_dot < 0.0f) return facing;
  uint32_t i21 = physics_lane_first_least(d, l2->on, &min_dot);
  return i21 == UINT32_MAX ? 0 : i21;
}

/* Given the reference face i11 of p1 (separation `sep` along its normal),
 * builds the manifold against p2 (l2: p2 as lanes). flip: report the normal
 * from p2 to p1. `filter` (with flip meaning p2 is the cell) rejects vertex
 * normals that would come from a shared corner. */
static void finish_polys(const PhysPoly *p1, uint32_t i11, const PhysPoly *p2, const PolyLanes *l2, float sep, bool flip,
                         float margin, const CellFilter *filter, bool cell_is_p1, Manifold *m) {
  uint32_t i12 = next_vertex(i11, p1->count);
  TessVec2 v11 = p1->v[i11], v12 = p1->v[i12];
  TessVec2 n = p1->n[i11];
  TessVec2 t = tess_v2_cross_sv(1.0f, n);
  float lower1 = 0.0f, upper1 = tess_v2_dot(tess_v2_sub(v12, v11), t);
  uint32_t i21 = incident_edge(l2, p2->count, v11, n, t, upper1);
  uint32_t i22 = next_vertex(i21, p2->count);
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
  float span = upper2 - lower2;
  /* Clipped to the reference face, never past the incident edge's own ends: both ends at once,
   * lanes (lower x, lower y, upper x, upper y), each the scalar lerp and clamp; an end the face
   * does not cut keeps its vertex (so which it is costs no branch to mispredict). */
  PhysF4 from = {v22.x, v22.y, v22.x, v22.y}, to = {v21.x, v21.y, v21.x, v21.y};
  PhysF4 f = ((PhysF4){lower1, lower1, upper1, upper1} - physics_lane_splat(lower2)) / physics_lane_splat(span);
  PhysF4 f_lo = physics_lane_min(f, physics_lane_splat(1.0f)), f_hi = physics_lane_max(f, physics_lane_splat(0.0f));
  PhysF4 lerp = from + (PhysF4){f_lo[0], f_lo[1], f_hi[2], f_hi[3]} * (to - from);
  PhysM4 cut = ((PhysF4){lower2, lower2, upper1, upper1} < (PhysF4){lower1, lower1, upper2, upper2}) &
               (physics_lane_splat(span) > physics_lane_splat(FLT_EPSILON));
  PhysF4 ends = physics_lane_select(cut, lerp, (PhysF4){v22.x, v22.y, v21.x, v21.y});
  PhysF4 along_n = (ends - (PhysF4){v11.x, v11.y, v11.x, v11.y}) * (PhysF4){n.x, n.y, n.x, n.y};
  TessVec2 v_lower = tess_v2(ends[0], ends[1]), v_upper = tess_v2(ends[2], ends[3]);
  float sep_lower = along_n[0] + along_n[1], sep_upper = along_n[2] + along_n[3];
  m->normal = flip ? tess_v2_neg(n) : n;
  /* Each end within the margin is a point, the lower first: both written, and the count says
   * which are points (a slot past it is never read), since whether an end is in reach is
   * anybody's guess for a branch. (m holds no point yet.) */
  uint32_t keep_lower = sep_lower - radius <= margin, keep_upper = sep_upper - radius <= margin;
  ManifoldPoint lower = {tess_v2_mul_add(v_lower, 0.5f * (r1 - r2 - sep_lower), n), sep_lower - radius, fl | (i11 << 4) | i22};
  ManifoldPoint upper = {tess_v2_mul_add(v_upper, 0.5f * (r1 - r2 - sep_upper), n), sep_upper - radius,
                         fl | 0x400u | (i12 << 4) | i21};
  m->p[0] = lower;
  m->p[keep_lower] = upper;
  m->count = keep_lower + keep_upper;
}

/* Polygons meet on a face, and a speculative contact is a half-plane too: the face has to be the
 * one they meet on, not the one that separates them most at the step's start. A box coming down
 * at a slant onto a tile just past its corner is more beside the tile than above it at the start
 * (then the tile's side face would stop it where it should land and slide on); a box falling past
 * a corner 2 cm beside it is more above than beside (then the top face would catch it). The
 * relative motion over the step is a translation `sweep`: face f's separation goes from sep[f] to
 * sep[f] + t rate[f] at t steps on. Convex shapes are within reach while every face's separation
 * is, so they meet when the last face to close (the face they meet on) closes before the first
 * that opens again. */
#define SWEEP_WINDOW 2.0f /* steps ahead; past that the straight path says little (sweep_time) */
#define SWEPT_FACES (2 * TESS_POLY_MAX)

typedef struct SweptFaces {
  float sep[SWEPT_FACES], rate[SWEPT_FACES];
  bool usable[SWEPT_FACES]; /* may be a contact's face (a cell's closed side may not) */
  uint32_t count;
} SweptFaces;

/* Each face of p1 (as lanes) against the vertices of p2: the face's separation, the least of
 * its vertices' (the loop `if (d < si) si = d`, a face in each lane). */
static inline void faces_sep(const PolyLanes *l1, const PhysPoly *p2, PhysF4 out[2]) {
  PhysF4 s0 = physics_lane_splat(FLT_MAX), s1 = s0;
  for (uint32_t j = 0; j < p2->count; j++) {
    PhysF4 vx = physics_lane_splat(p2->v[j].x), vy = physics_lane_splat(p2->v[j].y);
    s0 = physics_lane_min(l1->nx[0] * (vx - l1->x[0]) + l1->ny[0] * (vy - l1->y[0]), s0);
    s1 = physics_lane_min(l1->nx[1] * (vx - l1->x[1]) + l1->ny[1] * (vy - l1->y[1]), s1);
  }
  out[0] = s0;
  out[1] = s1;
}

/* Some face among the lanes `on` apart by more than `limit`: no contact (most pairs the broad
 * phase finds end here). */
static inline bool lanes_over(const PhysF4 sep[2], const PhysM4 on[2], float limit) {
  PhysF4 l = physics_lane_splat(limit);
  return (physics_lane_bits((sep[0] > l) & on[0]) | physics_lane_bits((sep[1] > l) & on[1])) != 0;
}

/* The faces of a polygon (l, count faces, separations sep) moving by `sweep` relative to the other
 * shape: appended to f, usable. (A lane store writes 8 entries: f's arrays have room for them
 * past the last face, since a shape has at most 8 faces and a cell 4.) */
static void swept_faces_put(SweptFaces *f, const PolyLanes *l, uint32_t count, const PhysF4 sep[2], TessVec2 sweep) {
  PhysF4 sx = physics_lane_splat(sweep.x), sy = physics_lane_splat(sweep.y);
  for (int h = 0; h < 2; h++) {
    PhysF4 rate = l->nx[h] * sx + l->ny[h] * sy;
    __builtin_memcpy(f->sep + f->count + 4 * h, &sep[h], sizeof sep[h]);
    __builtin_memcpy(f->rate + f->count + 4 * h, &rate, sizeof rate);
  }
  /* all 8 as one store, not a loop of `count` (a call to memset, as the compiler wrote it) */
  __builtin_memset(f->usable + f->count, true, 8);
  f->count += count;
}

/* Apart by `gap` (> 0) along the face the start would choose, and the path can close that within
 * the window: only then may the face they meet on be another (most pairs near each other are
 * neighbours in a pile, slightly apart and hardly moving: the start's face stays apart all along). */
static bool path_may_close(float gap, TessVec2 sweep) {
  return gap > 0.1f * SLOP && gap * gap <= SWEEP_WINDOW * SWEEP_WINDOW * tess_v2_dot(sweep, sweep);
}

/* The first of 16 lanes (4 x 4) holding the most value among the lanes `on`, and that value;
 * UINT32_MAX when none is on. */
static inline uint32_t first_most16(const PhysF4 v[4], const PhysM4 on[4], float *most) {
  const PhysF4 ninf = physics_lane_splat(-INFINITY);
  PhysF4 w[4];
  for (int g = 0; g < 4; g++) w[g] = physics_lane_select(on[g], v[g], ninf);
  PhysF4 m = physics_lane_hmax(physics_lane_max(physics_lane_max(w[0], w[1]), physics_lane_max(w[2], w[3])));
  uint32_t bits = 0;
  for (int g = 0; g < 4; g++) bits |= physics_lane_bits((w[g] == m) & on[g]) << (4 * g);
  if (!bits) return UINT32_MAX;
  *most = m[0];
  return (uint32_t)__builtin_ctz(bits);
}

/* The face a speculative contact acts along, and *when (steps ahead, <= SWEEP_WINDOW) they meet
 * on it, or *when = -1 for a usable face that keeps them apart over the whole window (the widest).
 * -1 when the start's choice stands (within reach already: resting, sliding, pushing; or they
 * meet on a face that may not collide); -2 when they stay apart only along a face that may not
 * collide (no contact); -3 when the path misses with no face apart all along (across_path).
 * Every face at once, as lanes: the loop it replaces took a branch or two per face on the signs
 * of separations and rates, and a pile's are coin tosses. Each lane computes what the loop did,
 * the same operations on the same values; the first face of the most or least, as the loop's
 * strict compares keep it. */
static int swept_face(const SweptFaces *f, float radius, float *when) {
  static const int32_t ones[32] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const PhysF4 tol = physics_lane_splat(0.1f * SLOP), zero = physics_lane_splat(0.0f), rad = physics_lane_splat(radius);
  const PhysF4 big = physics_lane_splat(FLT_MAX);
  PhysF4 s[4], r[4], t_in[4];
  PhysM4 on[4], in[4], out[4];
  float t_out = FLT_MAX;
  for (int g = 0; g < 4; g++) {
    __builtin_memcpy(&on[g], ones + 16 - f->count + 4 * g, sizeof on[g]);
    PhysF4 sep, rate;
    __builtin_memcpy(&sep, f->sep + 4 * g, sizeof sep);
    __builtin_memcpy(&rate, f->rate + 4 * g, sizeof rate);
    /* (lanes past the count hold whatever the stack did: zeros instead, never a denormal) */
    s[g] = (PhysF4)((PhysM4)sep & on[g]) - rad;
    r[g] = (PhysF4)((PhysM4)rate & on[g]);
    PhysM4 apart = s[g] > tol;
    /* closing: it meets this face's line at t (none when it does not close: FLT_MAX); t > 0 */
    t_in[g] = physics_lane_select(r[g] < zero, s[g] / -r[g], big);
    in[g] = on[g] & apart & (t_in[g] > zero);
    /* within reach and opening: it leaves at t */
    out[g] = on[g] & ~apart & (r[g] > zero);
    PhysF4 t = physics_lane_select(out[g], physics_lane_select(s[g] < zero, -s[g], zero) / r[g], big);
    t_out = physics_minf(t_out, physics_lane_hmin(t)[0]);
  }
  float first_in = 0.0f;
  uint32_t in_face = first_most16(t_in, in, &first_in);
  if (in_face == UINT32_MAX) return -1;
  if (first_in <= t_out && first_in <= SWEEP_WINDOW) {
    *when = first_in;
    return f->usable[in_face] ? (int)in_face : -1;
  }
  PhysF4 least[4];
  PhysM4 wide[4];
  for (int g = 0; g < 4; g++) {
    least[g] = physics_lane_min(s[g] + physics_lane_splat(SWEEP_WINDOW) * r[g], s[g]);
    wide[g] = on[g] & (least[g] > tol);
  }
  float widest = 0.0f;
  uint32_t apart = first_most16(least, wide, &widest);
  if (apart == UINT32_MAX) return -3;
  *when = -1.0f;
  return f->usable[apart] ? (int)apart : -2;
}

/* A path that passes a corner at a slant, no face apart all along (the box's corner going by the
 * tile's 2 cm off, down and sideways): the two stay apart across the path, along the normal of
 * the sweep, which the motion never closes. One point between the nearest vertices across it, if
 * within the margin; false when they are not apart that way either (or the cell's corner may not
 * collide): the start's choice stands. */
static bool across_path(const PhysPoly *a, const PhysPoly *b, TessVec2 sweep, float margin, const CellFilter *filter,
                        Manifold *m) {
  float len = tess_v2_length(sweep);
  if (!(len > 1e-9f)) return false;
  TessVec2 u = tess_v2(-sweep.y / len, sweep.x / len);
  float amin = FLT_MAX, amax = -FLT_MAX, bmin = FLT_MAX, bmax = -FLT_MAX;
  uint32_t ia_min = 0, ia_max = 0, ib_min = 0, ib_max = 0;
  for (uint32_t i = 0; i < a->count; i++) {
    float d = tess_v2_dot(u, a->v[i]);
    if (d < amin) amin = d, ia_min = i;
    if (d > amax) amax = d, ia_max = i;
  }
  for (uint32_t j = 0; j < b->count; j++) {
    float d = tess_v2_dot(u, b->v[j]);
    if (d < bmin) bmin = d, ib_min = j;
    if (d > bmax) bmax = d, ib_max = j;
  }
  float radius = a->radius + b->radius;
  bool above = bmin - amax >= amin - bmax;
  float sep = (above ? bmin - amax : amin - bmax) - radius;
  if (!(sep > 0.1f * SLOP)) return false;
  TessVec2 n = above ? u : tess_v2_neg(u);
  if (filter && !cell_admits(filter, n)) return false;
  if (sep > margin) return true;
  uint32_t ia = above ? ia_max : ia_min, ib = above ? ib_min : ib_max;
  TessVec2 pa = tess_v2_mul_add(a->v[ia], a->radius, n), pb = tess_v2_mul_add(b->v[ib], -b->radius, n);
  m->normal = n;
  add_point(m, tess_v2_scale(0.5f, tess_v2_add(pa, pb)), sep, 0x200u | (ia << 4) | ib);
  return true;
}

/* finish_polys with p2 (l2: as lanes) moved by d2 (to where they meet), then every point taken
 * back to now: the incident points ride with p2, halfway between the surfaces, the separation
 * grows by what the move closed. */
static void finish_polys_at(const PhysPoly *p1, uint32_t i11, const PhysPoly *p2, const PolyLanes *l2, TessVec2 d2,
                            bool flip, float margin, const CellFilter *filter, bool cell_is_p1, Manifold *m) {
  PhysPoly moved = *p2;
  for (uint32_t j = 0; j < moved.count; j++) moved.v[j] = tess_v2_add(moved.v[j], d2);
  PolyLanes lm = *l2;
  TessVec2 n = p1->n[i11], o = p1->v[i11];
  PhysF4 d[2];
  for (int h = 0; h < 2; h++) {
    lm.x[h] = l2->x[h] + physics_lane_splat(d2.x);
    lm.y[h] = l2->y[h] + physics_lane_splat(d2.y);
    d[h] = physics_lane_splat(n.x) * (lm.x[h] - physics_lane_splat(o.x)) + physics_lane_splat(n.y) * (lm.y[h] - physics_lane_splat(o.y));
  }
  float sep = FLT_MAX;
  physics_lane_first_least(d, lm.on, &sep);
  /* the margin at the meeting: what it has left after the move */
  float closed = -tess_v2_dot(d2, n);
  finish_polys(p1, i11, &moved, &lm, sep, flip, margin - closed, filter, cell_is_p1, m);
  TessVec2 n1 = flip ? tess_v2_neg(m->normal) : m->normal;
  float dn = tess_v2_dot(d2, n1);
  for (uint32_t k = 0; k < m->count; k++) {
    m->p[k].point = tess_v2_mul_add(tess_v2_sub(m->p[k].point, d2), 0.5f * dn, n1);
    m->p[k].separation -= dn;
  }
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
  float radius = a->radius + b->radius, limit = radius + margin;
  PolyLanes la, lb;
  PhysF4 sep_a[2], sep_b[2];
  physics_poly_lanes(a, &la);
  faces_sep(&la, b, sep_a);
  if (lanes_over(sep_a, la.on, limit)) return;
  physics_poly_lanes(b, &lb);
  faces_sep(&lb, a, sep_b);
  if (lanes_over(sep_b, lb.on, limit)) return;
  float sa = -FLT_MAX, sb = -FLT_MAX;
  uint32_t ea = physics_lane_first_most(sep_a, la.on, &sa), eb = physics_lane_first_most(sep_b, lb.on, &sb);
  ea = ea == UINT32_MAX ? 0 : ea;
  eb = eb == UINT32_MAX ? 0 : eb;
  if (path_may_close((sa > sb ? sa : sb) - radius, sweep)) {
    SweptFaces f;
    f.count = 0;
    swept_faces_put(&f, &la, a->count, sep_a, sweep);
    swept_faces_put(&f, &lb, b->count, sep_b, tess_v2_neg(sweep));
    float when = -1.0f;
    int face = swept_face(&f, radius, &when);
    if (face == -2 || (face == -3 && across_path(a, b, sweep, margin, NULL, m))) return;
    if (face >= 0) {
      bool on_b = (uint32_t)face >= a->count;
      uint32_t e = on_b ? (uint32_t)face - a->count : (uint32_t)face;
      TessVec2 d2 = when > 0.0f ? tess_v2_scale(on_b ? -when : when, sweep) : tess_v2(0.0f, 0.0f);
      if (on_b)
        finish_polys_at(b, e, a, &la, d2, true, margin, NULL, false, m);
      else
        finish_polys_at(a, e, b, &lb, d2, false, margin, NULL, false, m);
      return;
    }
  }
  if (sb > sa + 0.1f * SLOP)
    finish_polys(b, eb, a, &la, sb, true, margin, NULL, false, m);
  else
    finish_polys(a, ea, b, &lb, sa, false, margin, NULL, false, m);
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

/* The cell [lo, hi] as a polygon (faces top, right, bottom, left), and as lanes. */
static void cell_box(TessVec2 lo, TessVec2 hi, PhysPoly *box, PolyLanes *l) {
  box->count = 4;
  box->radius = 0.0f;
  box->v[0] = lo;
  box->v[1] = tess_v2(hi.x, lo.y);
  box->v[2] = hi;
  box->v[3] = tess_v2(lo.x, hi.y);
  box->n[0] = tess_v2(0.0f, -1.0f);
  box->n[1] = tess_v2(1.0f, 0.0f);
  box->n[2] = tess_v2(0.0f, 1.0f);
  box->n[3] = tess_v2(-1.0f, 0.0f);
  PhysF4 zero = physics_lane_splat(0.0f);
  l->x[0] = (PhysF4){lo.x, hi.x, hi.x, lo.x};
  l->y[0] = (PhysF4){lo.y, lo.y, hi.y, hi.y};
  l->nx[0] = (PhysF4){0.0f, 1.0f, 0.0f, -1.0f};
  l->ny[0] = (PhysF4){-1.0f, 0.0f, 1.0f, 0.0f};
  l->x[1] = l->y[1] = l->nx[1] = l->ny[1] = zero;
  physics_lane_masks(4, l->on, NULL);
}

/* The separations of the cell [lo, hi]'s faces (top, right, bottom, left) from the shape (ls),
 * and of the shape's faces from the cell, without the 4 x count and count x 4 products of the
 * general test: along a cell face only one coordinate counts, so the nearest vertex of the shape
 * is its extreme one; and a shape face is nearest the cell's corner that lies furthest back along
 * its normal. The same values (rounding is monotone, so the least of the rounded products is the
 * rounded extreme), up to the sign of an exact zero. False as soon as one is over `limit`. */
static bool cell_faces_sep(TessVec2 lo, TessVec2 hi, const PhysCellShape *cs, float limit, float cell_sep[4],
                           PhysF4 shape_sep[2]) {
  const PolyLanes *ls = &cs->ls;
  cell_sep[0] = lo.y - cs->ymax;
  cell_sep[1] = cs->xmin - hi.x;
  cell_sep[2] = cs->ymin - hi.y;
  cell_sep[3] = lo.x - cs->xmax;
  for (uint32_t k = 0; k < 4; k++)
    if (cell_sep[k] > limit) return false;
  PhysF4 zero = physics_lane_splat(0.0f);
  for (int h = 0; h < 2; h++) {
    PhysF4 cx = physics_lane_select(ls->nx[h] > zero, physics_lane_splat(lo.x), physics_lane_splat(hi.x));
    PhysF4 cy = physics_lane_select(ls->ny[h] > zero, physics_lane_splat(lo.y), physics_lane_splat(hi.y));
    shape_sep[h] = ls->nx[h] * (cx - ls->x[h]) + ls->ny[h] * (cy - ls->y[h]);
  }
  return !lanes_over(shape_sep, ls->on, limit);
}

void physics_cell_shape(const PhysPoly *poly, PhysCellShape *cs) {
  cs->poly = poly;
  if (poly->count == 1) return; /* a circle's test needs neither */
  const PolyLanes *ls = &cs->ls;
  physics_poly_lanes(poly, &cs->ls);
  PhysF4 inf = physics_lane_splat(INFINITY), ninf = physics_lane_splat(-INFINITY);
  cs->xmin = physics_lane_hmin(physics_lane_min(physics_lane_select(ls->on[0], ls->x[0], inf), physics_lane_select(ls->on[1], ls->x[1], inf)))[0];
  cs->ymin = physics_lane_hmin(physics_lane_min(physics_lane_select(ls->on[0], ls->y[0], inf), physics_lane_select(ls->on[1], ls->y[1], inf)))[0];
  cs->xmax = physics_lane_hmax(physics_lane_max(physics_lane_select(ls->on[0], ls->x[0], ninf), physics_lane_select(ls->on[1], ls->x[1], ninf)))[0];
  cs->ymax = physics_lane_hmax(physics_lane_max(physics_lane_select(ls->on[0], ls->y[0], ninf), physics_lane_select(ls->on[1], ls->y[1], ninf)))[0];
}

void physics_collide_cell(const PhysPoly *shape, TessAABB cell, uint32_t free_sides, uint32_t corners, float margin,
                          Manifold *m) {
  physics_collide_cell_swept(shape, cell, free_sides, corners, margin, tess_v2(0.0f, 0.0f), m);
}

void physics_collide_cell_swept(const PhysPoly *shape, TessAABB cell, uint32_t free_sides, uint32_t corners, float margin,
                                TessVec2 sweep, Manifold *m) {
  PhysCellShape cs;
  physics_cell_shape(shape, &cs);
  physics_collide_cell_shape_swept(&cs, cell, free_sides, corners, margin, sweep, m);
}

void physics_collide_cell_shape_swept(const PhysCellShape *cs, TessAABB cell, uint32_t free_sides, uint32_t corners,
                                      float margin, TessVec2 sweep, Manifold *m) {
  const PhysPoly *shape = cs->poly;
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

  const PolyLanes *ls = &cs->ls;
  static const uint32_t face_bits[4] = {SIDE_TOP, SIDE_RIGHT, SIDE_BOTTOM, SIDE_LEFT};
  CellFilter filter = {free_sides, corners};

  /* Separated along any axis at all: no contact (the one-sided test below
   * only chooses the normal). Every face's separation, the cell's then the
   * shape's. */
  float radius = shape->radius, cell_sep[4];
  PhysF4 shape_sep[2];
  if (!cell_faces_sep(lo, hi, cs, radius + margin, cell_sep, shape_sep)) return;
  float any_best = -FLT_MAX; /* the least penetration over every axis, open or not */
  for (uint32_t k = 0; k < 4; k++) any_best = physics_maxf(any_best, cell_sep[k]);
  float shape_best = -FLT_MAX;
  physics_lane_first_most(shape_sep, ls->on, &shape_best);
  any_best = physics_maxf(any_best, shape_best);

  /* One-sided SAT: only open cell faces, and only shape faces whose normal
   * (seen from the cell) points out through open geometry. */
  uint32_t admitted = cell_admits_bits(&filter, ls);
  PhysM4 usable[2];
  physics_lane_masks_of(admitted, usable);
  float best_cell = -FLT_MAX, best_shape = -FLT_MAX;
  uint32_t shape_edge = 0;
  /* the first open cell face of the most separation, as lanes (which face it is, is anybody's
   * guess for a branch); its value read back from cell_sep, the loop's to the sign of a zero */
  PhysF4 cell_lanes[2] = {{cell_sep[0], cell_sep[1], cell_sep[2], cell_sep[3]}, physics_lane_splat(0.0f)};
  PhysM4 open[2];
  physics_lane_masks_of((free_sides & SIDE_TOP ? 1u : 0u) | (free_sides & SIDE_RIGHT ? 2u : 0u) |
                            (free_sides & SIDE_BOTTOM ? 4u : 0u) | (free_sides & SIDE_LEFT ? 8u : 0u),
                        open);
  uint32_t cell_edge = physics_lane_first_most(cell_lanes, open, &best_cell);
  if (cell_edge == UINT32_MAX) return; /* buried cell: its neighbours do the work */
  best_cell = cell_sep[cell_edge];
  shape_edge = physics_lane_first_most(shape_sep, usable, &best_shape);
  if (shape_edge == UINT32_MAX) shape_edge = 0;
  if (best_cell > radius + margin || best_shape > radius + margin) return;
  /* A shape that only touches the cell through a shared (closed) face would
   * be pushed out through a far open face: that is its neighbours' business. */
  float open_best = best_cell > best_shape ? best_cell : best_shape;
  float half_cell = 0.5f * physics_minf(hi.x - lo.x, hi.y - lo.y);
  if (open_best < -half_cell && any_best > open_best + SLOP) return;
  /* the cell as a polygon only now: most cells tried are out of reach */
  PhysPoly box;
  PolyLanes lbox;
  cell_box(lo, hi, &box, &lbox);
  if (any_best > radius + 0.1f * SLOP && path_may_close(open_best - radius, sweep)) {
    /* every face, the cell's then the shape's, with how the motion changes it */
    SweptFaces f;
    for (uint32_t k = 0; k < 4; k++) {
      f.sep[k] = cell_sep[k];
      f.rate[k] = tess_v2_dot(box.n[k], sweep);
      f.usable[k] = (free_sides & face_bits[k]) != 0;
    }
    f.count = 4;
    swept_faces_put(&f, ls, shape->count, shape_sep, tess_v2_neg(sweep));
    for (uint32_t i = 0; i < 8; i++) f.usable[4 + i] = (admitted >> i) & 1u; /* (none past the count) */
    float when = -1.0f;
    int face = swept_face(&f, radius, &when);
    if (face == -2 || (face == -3 && across_path(&box, shape, sweep, margin, &filter, m))) return;
    if (face >= 0) {
      TessVec2 d2 = when > 0.0f ? tess_v2_scale(face >= 4 ? -when : when, sweep) : tess_v2(0.0f, 0.0f);
      if (face >= 4)
        finish_polys_at(shape, (uint32_t)face - 4, &box, &lbox, d2, true, margin, &filter, false, m);
      else
        finish_polys_at(&box, (uint32_t)face, shape, ls, d2, false, margin, &filter, true, m);
      return;
    }
  }
  if (best_shape > best_cell + 0.1f * SLOP)
    finish_polys(shape, shape_edge, &box, &lbox, best_shape, true, margin, &filter, false, m);
  else
    finish_polys(&box, cell_edge, shape, ls, best_cell, false, margin, &filter, true, m);
}
