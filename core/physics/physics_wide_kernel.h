/* The wide solver's two passes for one vector width, included by
 * wide_solver.c once per width. Before including, define:
 *   V, VM        the float vector and its lane mask type (generic vectors)
 *   VLANES       lanes per vector (4 or 8)
 *   KFN(name)    the name of a function of this width
 *   KATTR        attributes of its functions (the instruction set)
 *   VMAX, VMIN   lane-wise maximum and minimum; VSQRT lane-wise square root
 *   VGATHER(st, idx, lanes, positions), VSCATTER(st, idx, lanes)
 * A batch has 8 lanes; a kernel of 4 lanes is run on each half (lane0 0 or
 * 4). The lanes of one batch share no dynamic body, so the halves may be
 * solved in either order with the same result, and so may the widths. */

/* clang-format 14 reads KFN(name)(...) as a call followed by a parenthesised
 * expression and splits every kernel call and declaration in two: this file
 * is formatted by hand, in the tree's style. */
// clang-format off

typedef struct KFN(Lanes) {
  V vx, vy, w, flags; /* flags: BodyState.dynamic, carried through untouched */
  V dpx, dpy, qc, qs;
} KFN(Lanes);

#define LD(field) (*(const V *)&(field)[lane0])
#define ST(field) (*(V *)&(field)[lane0])

static inline KATTR V KFN(splat)(float x) {
  V v;
  for (int i = 0; i < VLANES; i++) v[i] = x;
  return v;
}

static inline KATTR V KFN(select)(VM m, V a, V b) { return (V)((m & (VM)a) | (~m & (VM)b)); }

/* The impulse (px, py) at anchors (ax, ay) of a and (bx, by) of b: -P on a, +P on b. */
static inline KATTR void KFN(apply)(KFN(Lanes) *A, KFN(Lanes) *B, V ma, V ia, V mb, V ib, V ax, V ay, V bx, V by,
                                     V px, V py) {
  A->vx -= ma * px;
  A->vy -= ma * py;
  A->w -= ia * (ax * py - ay * px);
  B->vx += mb * px;
  B->vy += mb * py;
  B->w += ib * (bx * py - by * px);
}

static inline KATTR void KFN(warm_start)(BodyState *st, const WideHead *h, const WidePoint *pts, uint32_t points,
                                          uint32_t lane0) {
  KFN(Lanes) A, B;
  VGATHER(st, &h->a[lane0], &A, false);
  VGATHER(st, &h->b[lane0], &B, false);
  V nx = LD(h->nx), ny = LD(h->ny), tx = ny, ty = -nx;
  V ma = LD(h->ma), ia = LD(h->ia), mb = LD(h->mb), ib = LD(h->ib);
  for (uint32_t q = 0; q < points; q++) {
    const WidePoint *p = &pts[q];
    V ni = LD(p->normal_impulse), ti = LD(p->tangent_impulse);
    KFN(apply)(&A, &B, ma, ia, mb, ib, LD(p->ax), LD(p->ay), LD(p->bx), LD(p->by), ni * nx + ti * tx, ni * ny + ti * ty);
  }
  VSCATTER(st, &h->a[lane0], &A);
  VSCATTER(st, &h->b[lane0], &B);
}

static inline KATTR void KFN(solve)(BodyState *st, WideHead *h, WidePoint *pts, uint32_t points, uint32_t lane0,
                                     float inv_h_s, float h_s, float max_push_s, bool use_bias) {
  KFN(Lanes) A, B;
  VGATHER(st, &h->a[lane0], &A, true);
  VGATHER(st, &h->b[lane0], &B, true);
  const V zero = KFN(splat)(0.0f), one = KFN(splat)(1.0f);
  const V inv_h = KFN(splat)(inv_h_s), max_push = KFN(splat)(max_push_s);
  V nx = LD(h->nx), ny = LD(h->ny), tx = ny, ty = -nx;
  V ma = LD(h->ma), ia = LD(h->ia), mb = LD(h->mb), ib = LD(h->ib);
  V dpx = B.dpx - A.dpx, dpy = B.dpy - A.dpy;
  for (uint32_t q = 0; q < points; q++) {
    WidePoint *p = &pts[q];
    V ax = LD(p->ax), ay = LD(p->ay), bx = LD(p->bx), by = LD(p->by);
    /* the separation now, from the cores moved with their bodies */
    V sbx = LD(p->sbx), sby = LD(p->sby), sax = LD(p->sax), say = LD(p->say);
    V prbx = B.qc * sbx - B.qs * sby, prby = B.qs * sbx + B.qc * sby;
    V prax = A.qc * sax - A.qs * say, pray = A.qs * sax + A.qc * say;
    V dx = dpx + (prbx - prax), dy = dpy + (prby - pray);
    V s = dx * nx + dy * ny + LD(p->base_separation);
    VM apart = s > zero; /* speculative: may close the gap, no more */
    V bias, mass_scale = one, impulse_scale = zero;
    if (use_bias) {
      bias = KFN(select)(apart, s * inv_h, VMAX(LD(h->bias_rate) * s, -max_push));
      mass_scale = KFN(select)(apart, one, LD(h->mass_scale));
      impulse_scale = KFN(select)(apart, zero, LD(h->impulse_scale));
    } else {
      bias = KFN(select)(apart, s * inv_h, zero);
    }
    V dvx = (B.vx - B.w * by) - (A.vx - A.w * ay);
    V dvy = (B.vy + B.w * bx) - (A.vy + A.w * ax);
    V vn = dvx * nx + dvy * ny;
    V ni = LD(p->normal_impulse);
    V impulse = -LD(p->normal_mass) * mass_scale * (vn + bias) - impulse_scale * ni;
    V total = VMAX(ni + impulse, zero);
    impulse = total - ni;
    {
      /* a new impact (the gap was open at the step's start): the speed the bodies meet at, from
       * the sub-step where the contact first acts, in either pass (physics_meet_speed) */
      V rel = LD(p->relative_velocity);
      VM impact = (impulse > zero) & (LD(p->max_normal_impulse) == zero) & *(const VM *)&p->gap_open[lane0] &
                  (vn < rel);
      V a = LD(h->closing), half = KFN(splat)(0.5f * h_s) * a;
      V lag = use_bias ? (zero - vn) - half : (zero - vn) + half;
      V meet2 = lag * lag + KFN(splat)(2.0f) * a * VMAX(s, zero);
      ST(p->relative_velocity) = KFN(select)(impact, zero - VSQRT(VMAX(meet2, zero)), rel);
      ST(p->tangent_velocity) = KFN(select)(impact, dvx * tx + dvy * ty, LD(p->tangent_velocity));
    }
    ST(p->normal_impulse) = total;
    ST(p->max_normal_impulse) = VMAX(LD(p->max_normal_impulse), total);
    KFN(apply)(&A, &B, ma, ia, mb, ib, ax, ay, bx, by, impulse * nx, impulse * ny);
  }
  V friction = LD(h->friction);
  for (uint32_t q = 0; q < points; q++) {
    WidePoint *p = &pts[q];
    V ax = LD(p->ax), ay = LD(p->ay), bx = LD(p->bx), by = LD(p->by);
    V dvx = (B.vx - B.w * by) - (A.vx - A.w * ay);
    V dvy = (B.vy + B.w * bx) - (A.vy + A.w * ax);
    V vt = dvx * tx + dvy * ty;
    V ti = LD(p->tangent_impulse);
    V impulse = -LD(p->tangent_mass) * vt;
    V max_f = friction * LD(p->normal_impulse);
    V total = VMIN(VMAX(ti + impulse, -max_f), max_f);
    impulse = total - ti;
    ST(p->tangent_impulse) = total;
    KFN(apply)(&A, &B, ma, ia, mb, ib, ax, ay, bx, by, impulse * tx, impulse * ty);
  }
  VSCATTER(st, &h->a[lane0], &A);
  VSCATTER(st, &h->b[lane0], &B);
}

/* One pass over batches [begin, end); `solve` false is the warm start. */
static KATTR void KFN(pass)(TessWorld *w, bool solve, float inv_h, bool use_bias, uint32_t begin, uint32_t end) {
  BodyState *st = w->states;
  float push = w->def.max_push_velocity;
  float sub = inv_h > 0.0f ? 1.0f / inv_h : 0.0f; /* the sub-step */
  for (uint32_t i = begin; i < end; i++) {
    uint32_t b = w->batches[i];
    uint8_t *base = w->wbuf + (b & ~1u);
    WideHead *h = (WideHead *)base;
    WidePoint *pts = (WidePoint *)(base + sizeof(WideHead));
    for (uint32_t lane0 = 0; lane0 < LANES; lane0 += VLANES) {
      if (h->a[lane0] == 0 && h->b[lane0] == 0) break; /* an empty half: filled lanes come first */
      /* each case with its point count and pass fixed, so the compiler drops what it does not use */
      if (!solve) {
        if (b & 1u)
          KFN(warm_start)(st, h, pts, 2, lane0);
        else
          KFN(warm_start)(st, h, pts, 1, lane0);
      } else if (use_bias) {
        if (b & 1u)
          KFN(solve)(st, h, pts, 2, lane0, inv_h, sub, push, true);
        else
          KFN(solve)(st, h, pts, 1, lane0, inv_h, sub, push, true);
      } else {
        if (b & 1u)
          KFN(solve)(st, h, pts, 2, lane0, inv_h, sub, push, false);
        else
          KFN(solve)(st, h, pts, 1, lane0, inv_h, sub, push, false);
      }
    }
  }
}

#undef LD
#undef ST
/* the parameters, so the next width defines its own */
#undef V
#undef VM
#undef VLANES
#undef KFN
#undef KATTR
#undef VMAX
#undef VMIN
#undef VSQRT
#undef VGATHER
#undef VSCATTER
// clang-format on
