/* The contact solver, four constraints at a time (Box2D v3's graph-coloured
 * solver, in the shape of this engine).
 *
 * Colouring: a constraint takes the lowest of 32 colours that neither of its
 * dynamic bodies has yet (one OR of two per-body bit masks, so colouring is
 * linear in the constraints and rebuilt every step). Fixed and kinematic
 * bodies are never written by the solver, so they may appear in any number
 * of constraints of one colour. Within a colour no dynamic body appears
 * twice, so its constraints can be solved side by side in the four lanes of
 * one batch: the result is the same as solving them one after another. A
 * constraint for which all 32 colours are taken goes to the overflow list,
 * solved one at a time by contact_solver.c before the colours.
 *
 * Batches: per colour, the one-point constraints first, then the two-point
 * ones (a circle's contacts have one point: no lane does a second point's
 * work for nothing). A batch is a WideHead and one or two WidePoints,
 * structure-of-arrays, in one buffer walked forwards; a lane left empty
 * names the fixed state 0 with zero masses and computes nothing but zeros.
 *
 * The arithmetic is written with the compiler's generic vectors (SSE on
 * x86-64, plain lanes elsewhere), without fused multiply-adds, so every
 * build computes the same bits; only the body gather and scatter use SSE
 * intrinsics where they exist. */
#include <string.h>

#include "physics_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef float f4 __attribute__((vector_size(16)));
typedef int32_t m4 __attribute__((vector_size(16)));

#define COLORS 32u
#define NO_COLOR 0xFFu

typedef struct WideHead {
  uint32_t a[4], b[4];   /* solver states; 0 (the fixed one) in an empty lane */
  uint32_t offset[4];    /* the constraint in cbuf, TESS_NULL_INDEX in an empty lane */
  f4 nx, ny, friction;
  f4 ma, ia, mb, ib;
  f4 bias_rate, mass_scale, impulse_scale; /* the softness: stiffer against a fixed body */
} WideHead;

typedef struct WidePoint {
  f4 ax, ay, bx, by;     /* anchors from the centres of mass */
  f4 sax, say, sbx, sby; /* the cores' anchors (ContactPoint.sa, .sb) */
  f4 base_separation, normal_mass, tangent_mass;
  f4 normal_impulse, tangent_impulse, max_normal_impulse;
  f4 relative_velocity, tangent_velocity;
  m4 gap_open;           /* all ones when the gap was open at the step's start */
} WidePoint;

_Static_assert(sizeof(WideHead) % 16 == 0 && sizeof(WidePoint) % 16 == 0, "batches stay 16-byte aligned");

static inline size_t batch_size(uint32_t points) { return sizeof(WideHead) + points * sizeof(WidePoint); }

static inline f4 splat(float x) { return (f4){x, x, x, x}; }

static inline f4 select4(m4 m, f4 a, f4 b) { return (f4)((m & (m4)a) | (~m & (m4)b)); }

static inline f4 max4(f4 a, f4 b) {
#if defined(__SSE2__)
  return _mm_max_ps(a, b);
#else
  return select4(a > b, a, b);
#endif
}

static inline f4 min4(f4 a, f4 b) {
#if defined(__SSE2__)
  return _mm_min_ps(a, b);
#else
  return select4(a < b, a, b);
#endif
}

/* Four bodies' velocities (and, for the solve, their position deltas), lane i from state idx[i]. */
typedef struct Lanes {
  f4 vx, vy, w, flags; /* flags: BodyState.dynamic, carried through untouched */
  f4 dpx, dpy, qc, qs;
} Lanes;

static inline void gather(const BodyState *st, const uint32_t idx[4], Lanes *l, bool positions) {
#if defined(__SSE2__)
  __m128 r0 = _mm_load_ps(&st[idx[0]].v.x), r1 = _mm_load_ps(&st[idx[1]].v.x);
  __m128 r2 = _mm_load_ps(&st[idx[2]].v.x), r3 = _mm_load_ps(&st[idx[3]].v.x);
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  l->vx = r0;
  l->vy = r1;
  l->w = r2;
  l->flags = r3;
  if (!positions) return;
  r0 = _mm_load_ps(&st[idx[0]].dp.x);
  r1 = _mm_load_ps(&st[idx[1]].dp.x);
  r2 = _mm_load_ps(&st[idx[2]].dp.x);
  r3 = _mm_load_ps(&st[idx[3]].dp.x);
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  l->dpx = r0;
  l->dpy = r1;
  l->qc = r2;
  l->qs = r3;
#else
  for (int i = 0; i < 4; i++) {
    const BodyState *s = &st[idx[i]];
    l->vx[i] = s->v.x;
    l->vy[i] = s->v.y;
    l->w[i] = s->w;
    l->flags[i] = 0.0f;
    if (!positions) continue;
    l->dpx[i] = s->dp.x;
    l->dpy[i] = s->dp.y;
    l->qc[i] = s->dq.c;
    l->qs[i] = s->dq.s;
  }
#endif
}

static inline void scatter(BodyState *st, const uint32_t idx[4], const Lanes *l) {
#if defined(__SSE2__)
  __m128 r0 = l->vx, r1 = l->vy, r2 = l->w, r3 = l->flags;
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  _mm_store_ps(&st[idx[0]].v.x, r0);
  _mm_store_ps(&st[idx[1]].v.x, r1);
  _mm_store_ps(&st[idx[2]].v.x, r2);
  _mm_store_ps(&st[idx[3]].v.x, r3);
#else
  for (int i = 0; i < 4; i++) {
    BodyState *s = &st[idx[i]];
    s->v.x = l->vx[i];
    s->v.y = l->vy[i];
    s->w = l->w[i];
  }
#endif
}

/* ---- Building the batches ---------------------------------------------- */

static void write_lane(WideHead *h, WidePoint *pts, uint32_t lane, const Constraint *k, uint32_t offset,
                       const Softness *soft, const Softness *soft_static) {
  h->a[lane] = k->state_a;
  h->b[lane] = k->state_b;
  h->offset[lane] = offset;
  h->nx[lane] = k->normal.x;
  h->ny[lane] = k->normal.y;
  h->friction[lane] = k->friction;
  h->ma[lane] = k->ma;
  h->ia[lane] = k->ia;
  h->mb[lane] = k->mb;
  h->ib[lane] = k->ib;
  const Softness *ks = (k->ma == 0.0f || k->mb == 0.0f) ? soft_static : soft;
  h->bias_rate[lane] = ks->bias_rate;
  h->mass_scale[lane] = ks->mass_scale;
  h->impulse_scale[lane] = ks->impulse_scale;
  const ContactPoint *cp = constraint_points((Constraint *)k);
  for (uint32_t q = 0; q < k->point_count; q++) {
    WidePoint *p = &pts[q];
    const ContactPoint *c = &cp[q];
    p->ax[lane] = c->ra.x;
    p->ay[lane] = c->ra.y;
    p->bx[lane] = c->rb.x;
    p->by[lane] = c->rb.y;
    p->sax[lane] = c->sa.x;
    p->say[lane] = c->sa.y;
    p->sbx[lane] = c->sb.x;
    p->sby[lane] = c->sb.y;
    p->base_separation[lane] = c->base_separation;
    p->normal_mass[lane] = c->normal_mass;
    p->tangent_mass[lane] = c->tangent_mass;
    p->normal_impulse[lane] = c->normal_impulse;
    p->tangent_impulse[lane] = c->tangent_impulse;
    p->max_normal_impulse[lane] = c->max_normal_impulse;
    p->relative_velocity[lane] = c->relative_velocity;
    p->tangent_velocity[lane] = c->tangent_velocity;
    p->gap_open[lane] = k->gap_open[q] ? -1 : 0;
  }
}

bool phys_wide_build(TessWorld *w, Softness soft, Softness soft_static) {
  uint32_t nstates = w->active_count + 1;
  if (!PHYS_GROW(w->state_colors, &w->state_colors_cap, nstates) ||
      !PHYS_GROW(w->constraint_color, &w->constraint_color_cap, w->coff_count + 1) ||
      !PHYS_GROW(w->overflow, &w->overflow_cap, w->coff_count + 1))
    return false;
  memset(w->state_colors, 0, nstates * sizeof *w->state_colors);
  const BodyState *st = w->states;
  uint32_t count[COLORS][2];
  memset(count, 0, sizeof count);
  w->overflow_count = 0;
  for (uint32_t ci = 0; ci < w->coff_count; ci++) {
    const Constraint *k = (const Constraint *)(w->cbuf + w->coff[ci]);
    w->constraint_color[ci] = NO_COLOR;
    if (!k->solve || k->point_count == 0) continue;
    bool da = st[k->state_a].dynamic != 0, db = st[k->state_b].dynamic != 0;
    uint32_t used = (da ? w->state_colors[k->state_a] : 0u) | (db ? w->state_colors[k->state_b] : 0u);
    if (used == UINT32_MAX) {
      w->overflow[w->overflow_count++] = w->coff[ci];
      continue;
    }
    /* constraints between two dynamic bodies take the lowest free colour, those against a fixed
     * or kinematic body the highest: they are solved last, so they have the last word (a pile
     * rests on the ground rather than the ground on the pile), as when the tile map's contacts
     * were solved after the bodies' */
    uint32_t color = (da && db) ? (uint32_t)__builtin_ctz(~used) : 31u - (uint32_t)__builtin_clz(~used);
    uint32_t bit = 1u << color;
    if (da) w->state_colors[k->state_a] |= bit;
    if (db) w->state_colors[k->state_b] |= bit;
    w->constraint_color[ci] = (uint8_t)color;
    count[color][k->point_count - 1]++;
  }

  /* the batches: colour by colour, one-point groups before two-point ones */
  uint32_t first[COLORS][2], batches = 0;
  size_t bytes = 0;
  for (uint32_t c = 0; c < COLORS; c++)
    for (uint32_t p = 0; p < 2; p++) {
      uint32_t n = (count[c][p] + 3u) / 4u;
      first[c][p] = batches;
      batches += n;
      bytes += n * batch_size(p + 1);
    }
  if (bytes > UINT32_MAX || !PHYS_GROW(w->batches, &w->batch_cap, batches + 1)) return false;
  if (bytes > w->wbuf_cap) {
    size_t cap = w->wbuf_cap ? w->wbuf_cap : 4096;
    while (cap < bytes) cap *= 2;
    uint8_t *raw = tess_realloc(NULL, cap + 64);
    if (!raw) return false;
    tess_free(w->wbuf_raw);
    w->wbuf_raw = raw;
    w->wbuf = (uint8_t *)(((uintptr_t)raw + 63u) & ~(uintptr_t)63u);
    w->wbuf_cap = cap;
  }
  size_t at = 0;
  for (uint32_t c = 0; c < COLORS; c++)
    for (uint32_t p = 0; p < 2; p++) {
      uint32_t n = (count[c][p] + 3u) / 4u;
      for (uint32_t i = 0; i < n; i++) {
        w->batches[first[c][p] + i] = (uint32_t)at | p; /* batches start 16-aligned: bit 0 says two points */
        at += batch_size(p + 1);
      }
    }
  w->batch_count = batches;

  uint32_t filled[COLORS][2]; /* constraints placed so far per group */
  memset(filled, 0, sizeof filled);
  for (uint32_t ci = 0; ci < w->coff_count; ci++) {
    uint32_t c = w->constraint_color[ci];
    if (c == NO_COLOR) continue;
    const Constraint *k = (const Constraint *)(w->cbuf + w->coff[ci]);
    uint32_t p = k->point_count - 1, slot = filled[c][p]++;
    uint8_t *base = w->wbuf + (w->batches[first[c][p] + slot / 4u] & ~1u);
    if (slot % 4u == 0) {
      /* a new batch: lanes left empty stay zero, on the fixed state */
      memset(base, 0, batch_size(p + 1));
      for (uint32_t lane = 0; lane < 4; lane++) ((WideHead *)base)->offset[lane] = TESS_NULL_INDEX;
    }
    write_lane((WideHead *)base, (WidePoint *)(base + sizeof(WideHead)), slot % 4u, k, w->coff[ci], &soft,
               &soft_static);
  }
  return true;
}

/* ---- The passes --------------------------------------------------------- */

static inline __attribute__((always_inline)) void warm_start_batch(BodyState *st, const WideHead *h,
                                                                   const WidePoint *pts, uint32_t points) {
  Lanes A, B;
  gather(st, h->a, &A, false);
  gather(st, h->b, &B, false);
  f4 nx = h->nx, ny = h->ny, tx = ny, ty = -nx;
  for (uint32_t q = 0; q < points; q++) {
    const WidePoint *p = &pts[q];
    f4 px = p->normal_impulse * nx + p->tangent_impulse * tx;
    f4 py = p->normal_impulse * ny + p->tangent_impulse * ty;
    A.w -= h->ia * (p->ax * py - p->ay * px);
    A.vx -= h->ma * px;
    A.vy -= h->ma * py;
    B.w += h->ib * (p->bx * py - p->by * px);
    B.vx += h->mb * px;
    B.vy += h->mb * py;
  }
  scatter(st, h->a, &A);
  scatter(st, h->b, &B);
}

static inline __attribute__((always_inline)) void solve_batch(BodyState *st, WideHead *h, WidePoint *pts,
                                                              uint32_t points, f4 inv_h, f4 max_push,
                                                              bool use_bias) {
  Lanes A, B;
  gather(st, h->a, &A, true);
  gather(st, h->b, &B, true);
  const f4 zero = splat(0.0f), one = splat(1.0f);
  f4 nx = h->nx, ny = h->ny, tx = ny, ty = -nx;
  f4 ma = h->ma, ia = h->ia, mb = h->mb, ib = h->ib;
  f4 dpx = B.dpx - A.dpx, dpy = B.dpy - A.dpy;
  for (uint32_t q = 0; q < points; q++) {
    WidePoint *p = &pts[q];
    /* the separation now, from the cores moved with their bodies */
    f4 prbx = B.qc * p->sbx - B.qs * p->sby, prby = B.qs * p->sbx + B.qc * p->sby;
    f4 prax = A.qc * p->sax - A.qs * p->say, pray = A.qs * p->sax + A.qc * p->say;
    f4 dx = dpx + (prbx - prax), dy = dpy + (prby - pray);
    f4 s = dx * nx + dy * ny + p->base_separation;
    m4 apart = s > zero; /* speculative: may close the gap, no more */
    f4 bias, mass_scale = one, impulse_scale = zero;
    if (use_bias) {
      bias = select4(apart, s * inv_h, max4(h->bias_rate * s, -max_push));
      mass_scale = select4(apart, one, h->mass_scale);
      impulse_scale = select4(apart, zero, h->impulse_scale);
    } else {
      bias = select4(apart, s * inv_h, zero);
    }
    f4 dvx = (B.vx - B.w * p->by) - (A.vx - A.w * p->ay);
    f4 dvy = (B.vy + B.w * p->bx) - (A.vy + A.w * p->ax);
    f4 vn = dvx * nx + dvy * ny;
    f4 impulse = -p->normal_mass * mass_scale * (vn + bias) - impulse_scale * p->normal_impulse;
    f4 total = max4(p->normal_impulse + impulse, zero);
    impulse = total - p->normal_impulse;
    if (use_bias) {
      /* a new impact (the gap was open at the step's start): its speed is the approach speed
       * in the sub-step where the contact first acts */
      m4 impact = (impulse > zero) & (p->max_normal_impulse == zero) & p->gap_open & (vn < p->relative_velocity);
      p->relative_velocity = select4(impact, vn, p->relative_velocity);
      p->tangent_velocity = select4(impact, dvx * tx + dvy * ty, p->tangent_velocity);
    }
    p->normal_impulse = total;
    p->max_normal_impulse = max4(p->max_normal_impulse, total);
    f4 px = impulse * nx, py = impulse * ny;
    A.vx -= ma * px;
    A.vy -= ma * py;
    A.w -= ia * (p->ax * py - p->ay * px);
    B.vx += mb * px;
    B.vy += mb * py;
    B.w += ib * (p->bx * py - p->by * px);
  }
  f4 friction = h->friction;
  for (uint32_t q = 0; q < points; q++) {
    WidePoint *p = &pts[q];
    f4 dvx = (B.vx - B.w * p->by) - (A.vx - A.w * p->ay);
    f4 dvy = (B.vy + B.w * p->bx) - (A.vy + A.w * p->ax);
    f4 vt = dvx * tx + dvy * ty;
    f4 impulse = -p->tangent_mass * vt;
    f4 max_f = friction * p->normal_impulse;
    f4 total = min4(max4(p->tangent_impulse + impulse, -max_f), max_f);
    impulse = total - p->tangent_impulse;
    p->tangent_impulse = total;
    f4 px = impulse * tx, py = impulse * ty;
    A.vx -= ma * px;
    A.vy -= ma * py;
    A.w -= ia * (p->ax * py - p->ay * px);
    B.vx += mb * px;
    B.vy += mb * py;
    B.w += ib * (p->bx * py - p->by * px);
  }
  scatter(st, h->a, &A);
  scatter(st, h->b, &B);
}

void phys_wide_warm_start(TessWorld *w) {
  BodyState *st = w->states;
  for (uint32_t i = 0; i < w->batch_count; i++) {
    uint32_t b = w->batches[i];
    uint8_t *base = w->wbuf + (b & ~1u);
    const WideHead *h = (const WideHead *)base;
    const WidePoint *pts = (const WidePoint *)(base + sizeof(WideHead));
    if (b & 1u)
      warm_start_batch(st, h, pts, 2);
    else
      warm_start_batch(st, h, pts, 1);
  }
  st[0].v = tess_v2(0.0f, 0.0f);
  st[0].w = 0.0f;
}

void phys_wide_solve(TessWorld *w, float inv_h, bool use_bias) {
  BodyState *st = w->states;
  f4 ih = splat(inv_h), push = splat(w->def.max_push_velocity);
  for (uint32_t i = 0; i < w->batch_count; i++) {
    uint32_t b = w->batches[i];
    uint8_t *base = w->wbuf + (b & ~1u);
    WideHead *h = (WideHead *)base;
    WidePoint *pts = (WidePoint *)(base + sizeof(WideHead));
    /* four copies of the kernel, each with its point count and pass fixed */
    if (use_bias) {
      if (b & 1u)
        solve_batch(st, h, pts, 2, ih, push, true);
      else
        solve_batch(st, h, pts, 1, ih, push, true);
    } else {
      if (b & 1u)
        solve_batch(st, h, pts, 2, ih, push, false);
      else
        solve_batch(st, h, pts, 1, ih, push, false);
    }
  }
  st[0].v = tess_v2(0.0f, 0.0f);
  st[0].w = 0.0f;
}

void phys_wide_store(TessWorld *w) {
  for (uint32_t i = 0; i < w->batch_count; i++) {
    uint32_t b = w->batches[i], points = (b & 1u) + 1u;
    uint8_t *base = w->wbuf + (b & ~1u);
    const WideHead *h = (const WideHead *)base;
    const WidePoint *pts = (const WidePoint *)(base + sizeof(WideHead));
    for (uint32_t lane = 0; lane < 4; lane++) {
      if (h->offset[lane] == TESS_NULL_INDEX) continue;
      ContactPoint *cp = constraint_points((Constraint *)(w->cbuf + h->offset[lane]));
      for (uint32_t q = 0; q < points; q++) {
        cp[q].normal_impulse = pts[q].normal_impulse[lane];
        cp[q].tangent_impulse = pts[q].tangent_impulse[lane];
        cp[q].max_normal_impulse = pts[q].max_normal_impulse[lane];
        cp[q].relative_velocity = pts[q].relative_velocity[lane];
        cp[q].tangent_velocity = pts[q].tangent_velocity[lane];
      }
    }
  }
}
