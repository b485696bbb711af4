/* A polygon's vertices and face normals as lanes (every x side by side, then every y), so that
 * the manifold code takes every face against one vertex, or one face against every vertex, in a
 * few vector operations instead of loops whose trip count (3 to 8, a different one in each pair)
 * the branch predictor keeps missing.
 *
 * Each lane computes exactly what the scalar code computes (the same products and sums of the
 * same operands; a minimum is `a < b ? a : b`, as the scalar loops keep it), so a manifold made
 * through lanes is bit-identical to one made vertex by vertex. Lanes past the polygon's count
 * hold zeros (never whatever the unused vertices hold: a denormal would cost a microcode assist)
 * and are masked off by `on`. */
#ifndef TESS_PHYSICS_PHYSICS_POLY_LANES_H
#define TESS_PHYSICS_PHYSICS_POLY_LANES_H

#include "physics_private.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define PHYS_LANES4 __attribute__((vector_size(16), may_alias))
typedef float PhysF4 PHYS_LANES4;
typedef int32_t PhysM4 PHYS_LANES4;

typedef struct PolyLanes {
  PhysF4 x[2], y[2];   /* vertices 0-3, 4-7 */
  PhysF4 nx[2], ny[2]; /* face normals: face i from vertex i to vertex i + 1 */
  PhysM4 on[2];        /* all ones in the lanes below the count */
} PolyLanes;

static inline PhysF4 physics_lane_splat(float s) { return (PhysF4){s, s, s, s}; }
static inline PhysM4 physics_lane_splat_m(bool b) { return (PhysM4){-(int32_t)b, -(int32_t)b, -(int32_t)b, -(int32_t)b}; }
static inline PhysF4 physics_lane_select(PhysM4 m, PhysF4 a, PhysF4 b) { return (PhysF4)((m & (PhysM4)a) | (~m & (PhysM4)b)); }

/* Lanes below `count` (0..8), as two masks; and the lane count - 1 alone. */
static inline void physics_lane_masks(uint32_t count, PhysM4 on[2], PhysM4 last[2]) {
  static const int32_t ones[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  static const int32_t one[16] = {0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int h = 0; h < 2; h++) {
    __builtin_memcpy(&on[h], ones + 8 - count + 4 * h, sizeof on[h]);
    if (last) __builtin_memcpy(&last[h], one + 8 - count + 4 * h, sizeof last[h]);
  }
}

/* The masks of the lanes whose bit is set in `bits` (lane k: bit k, 0..7). */
static inline void physics_lane_masks_of(uint32_t bits, PhysM4 m[2]) {
  static const int32_t table[16][4] = {
      {0, 0, 0, 0}, {-1, 0, 0, 0}, {0, -1, 0, 0}, {-1, -1, 0, 0}, {0, 0, -1, 0}, {-1, 0, -1, 0}, {0, -1, -1, 0}, {-1, -1, -1, 0}, {0, 0, 0, -1}, {-1, 0, 0, -1}, {0, -1, 0, -1}, {-1, -1, 0, -1}, {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1}};
  __builtin_memcpy(&m[0], table[bits & 15u], sizeof m[0]);
  __builtin_memcpy(&m[1], table[(bits >> 4) & 15u], sizeof m[1]);
}

static inline PhysF4 physics_lane_min(PhysF4 a, PhysF4 b) {
#if defined(__SSE2__)
  return _mm_min_ps(a, b);
#else
  return physics_lane_select(a < b, a, b);
#endif
}

static inline PhysF4 physics_lane_max(PhysF4 a, PhysF4 b) {
#if defined(__SSE2__)
  return _mm_max_ps(a, b);
#else
  return physics_lane_select(a > b, a, b);
#endif
}

/* One bit per lane whose mask is set. */
static inline uint32_t physics_lane_bits(PhysM4 m) {
#if defined(__SSE2__)
  return (uint32_t)_mm_movemask_ps((__m128)m);
#else
  return (m[0] ? 1u : 0u) | (m[1] ? 2u : 0u) | (m[2] ? 4u : 0u) | (m[3] ? 8u : 0u);
#endif
}

/* The least (most) of the four lanes, in every lane. */
static inline PhysF4 physics_lane_hmin(PhysF4 v) {
#if defined(__SSE2__)
  v = _mm_min_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
  return _mm_min_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
#else
  float m = v[0];
  for (int k = 1; k < 4; k++) m = v[k] < m ? v[k] : m;
  return physics_lane_splat(m);
#endif
}

static inline PhysF4 physics_lane_hmax(PhysF4 v) {
#if defined(__SSE2__)
  v = _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
  return _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
#else
  float m = v[0];
  for (int k = 1; k < 4; k++) m = v[k] > m ? v[k] : m;
  return physics_lane_splat(m);
#endif
}

static inline void physics_poly_lanes(const PhysPoly *p, PolyLanes *l) {
  physics_lane_masks(p->count, l->on, NULL);
#if defined(__SSE2__)
  const float *v = &p->v[0].x, *n = &p->n[0].x;
  for (int h = 0; h < 2; h++) {
    __m128 a = _mm_loadu_ps(v + 8 * h), b = _mm_loadu_ps(v + 8 * h + 4);
    l->x[h] = _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    l->y[h] = _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    a = _mm_loadu_ps(n + 8 * h);
    b = _mm_loadu_ps(n + 8 * h + 4);
    l->nx[h] = _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    l->ny[h] = _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
  }
#else
  for (int k = 0; k < 8; k++) {
    l->x[k >> 2][k & 3] = p->v[k].x;
    l->y[k >> 2][k & 3] = p->v[k].y;
    l->nx[k >> 2][k & 3] = p->n[k].x;
    l->ny[k >> 2][k & 3] = p->n[k].y;
  }
#endif
  for (int h = 0; h < 2; h++) {
    l->x[h] = (PhysF4)((PhysM4)l->x[h] & l->on[h]);
    l->y[h] = (PhysF4)((PhysM4)l->y[h] & l->on[h]);
    l->nx[h] = (PhysF4)((PhysM4)l->nx[h] & l->on[h]);
    l->ny[h] = (PhysF4)((PhysM4)l->ny[h] & l->on[h]);
  }
}

/* The first lane holding the least value among the lanes `on` (UINT32_MAX when none is on),
 * and that value: what a scalar loop `if (v[i] < least) ...` finds, up to the sign of a zero
 * (-0 and +0 are equal, and the callers only compare the value). */
static inline uint32_t physics_lane_first_least(const PhysF4 v[2], const PhysM4 on[2], float *least) {
  const PhysF4 inf = physics_lane_splat(INFINITY);
  PhysF4 w0 = physics_lane_select(on[0], v[0], inf), w1 = physics_lane_select(on[1], v[1], inf);
  PhysF4 m = physics_lane_hmin(physics_lane_min(w0, w1));
  uint32_t bits = physics_lane_bits((w0 == m) & on[0]) | physics_lane_bits((w1 == m) & on[1]) << 4;
  if (!bits) return UINT32_MAX;
  *least = m[0];
  return (uint32_t)__builtin_ctz(bits);
}

static inline uint32_t physics_lane_first_most(const PhysF4 v[2], const PhysM4 on[2], float *most) {
  const PhysF4 inf = physics_lane_splat(-INFINITY);
  PhysF4 w0 = physics_lane_select(on[0], v[0], inf), w1 = physics_lane_select(on[1], v[1], inf);
  PhysF4 m = physics_lane_hmax(physics_lane_max(w0, w1));
  uint32_t bits = physics_lane_bits((w0 == m) & on[0]) | physics_lane_bits((w1 == m) & on[1]) << 4;
  if (!bits) return UINT32_MAX;
  *most = m[0];
  return (uint32_t)__builtin_ctz(bits);
}

/* Lane k holds v's lane k + 1 for k < count - 1, and lane count - 1 holds lane 0: the value at
 * each face's second vertex, when v holds it at each face's first. */
static inline void physics_lane_next(const PhysF4 v[2], const PhysM4 last[2], PhysF4 out[2]) {
#if defined(__SSE2__)
  __m128 t = _mm_move_ss(v[0], v[1]);
  out[0] = _mm_shuffle_ps(t, t, _MM_SHUFFLE(0, 3, 2, 1));
  out[1] = _mm_shuffle_ps(v[1], v[1], _MM_SHUFFLE(0, 3, 2, 1));
#else
  out[0] = (PhysF4){v[0][1], v[0][2], v[0][3], v[1][0]};
  out[1] = (PhysF4){v[1][1], v[1][2], v[1][3], v[1][0]};
#endif
  PhysF4 first = physics_lane_splat(v[0][0]);
  out[0] = physics_lane_select(last[0], first, out[0]);
  out[1] = physics_lane_select(last[1], first, out[1]);
}

/* A body shape made ready for the cells of the map it is tested against (physics_map_collide_shape
 * tries it against several): its lanes and the least and most of its vertices' x and y, worked
 * out once per shape instead of once per cell (the same values, so the same manifolds). */
typedef struct PhysCellShape {
  const PhysPoly *poly;
  PolyLanes ls;                 /* only when poly->count > 1 */
  float xmin, ymin, xmax, ymax; /* of the vertices, radius not included */
} PhysCellShape;

void physics_cell_shape(const PhysPoly *poly, PhysCellShape *cs);
/* physics_collide_cell_swept for a shape made ready by physics_cell_shape. */
void physics_collide_cell_shape_swept(const PhysCellShape *cs, TessAABB cell, uint32_t free_sides, uint32_t corners,
                                      float margin, TessVec2 sweep, Manifold *m);

#endif
