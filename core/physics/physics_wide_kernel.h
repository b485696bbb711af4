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

/* What point p's normal row asks now: its separation s (from the cores moved with their
 * bodies), the bias and softness for it (speculative while apart: may close the gap, no more),
 * and the normal and tangent relative velocities. */
typedef struct KFN(Row) {
  V s, bias, mass_scale, impulse_scale, vn, vt;
} KFN(Row);

static inline KATTR KFN(Row) KFN(row)(const KFN(Lanes) *A, const KFN(Lanes) *B, const WideHead *h, const WidePoint *p,
                                       uint32_t lane0, V inv_h, V max_push, bool use_bias) {
  const V zero = KFN(splat)(0.0f), one = KFN(splat)(1.0f);
  V nx = LD(h->nx), ny = LD(h->ny);
  V ax = LD(p->ax), ay = LD(p->ay), bx = LD(p->bx), by = LD(p->by);
  V sbx = LD(p->sbx), sby = LD(p->sby), sax = LD(p->sax), say = LD(p->say);
  V prbx = B->qc * sbx - B->qs * sby, prby = B->qs * sbx + B->qc * sby;
  V prax = A->qc * sax - A->qs * say, pray = A->qs * sax + A->qc * say;
  V dx = (B->dpx - A->dpx) + (prbx - prax), dy = (B->dpy - A->dpy) + (prby - pray);
  KFN(Row) r;
  r.s = dx * nx + dy * ny + LD(p->base_separation);
  VM apart = r.s > zero;
  r.mass_scale = one;
  r.impulse_scale = zero;
  if (use_bias) {
    r.bias = KFN(select)(apart, r.s * inv_h, VMAX(LD(h->bias_rate) * r.s, -max_push));
    r.mass_scale = KFN(select)(apart, one, LD(h->mass_scale));
    r.impulse_scale = KFN(select)(apart, zero, LD(h->impulse_scale));
  } else {
    r.bias = KFN(select)(apart, r.s * inv_h, zero);
  }
  V dvx = (B->vx - B->w * by) - (A->vx - A->w * ay);
  V dvy = (B->vy + B->w * bx) - (A->vy + A->w * ax);
  r.vn = dvx * nx + dvy * ny;
  r.vt = dvx * ny - dvy * nx;
  return r;
}

/* Point p's new accumulated normal impulse `total` (from `ni`), with the impact bookkeeping: a new
 * impact (the gap was open at the step's start) takes as its speed the one the bodies meet at,
 * from the sub-step where the contact first acts, in either pass (physics_meet_speed). */
static inline KATTR void KFN(store_normal)(const WideHead *h, WidePoint *p, uint32_t lane0, const KFN(Row) *r, V ni,
                                            V total, float h_s, bool use_bias) {
  const V zero = KFN(splat)(0.0f);
  V rel = LD(p->relative_velocity);
  VM impact = (total - ni > zero) & (LD(p->max_normal_impulse) == zero) & *(const VM *)&p->gap_open[lane0] & (r->vn < rel);
  V a = LD(h->closing), half = KFN(splat)(0.5f * h_s) * a;
  V lag = use_bias ? (zero - r->vn) - half : (zero - r->vn) + half;
  V meet2 = lag * lag + KFN(splat)(2.0f) * a * VMAX(r->s, zero);
  ST(p->relative_velocity) = KFN(select)(impact, zero - VSQRT(VMAX(meet2, zero)), rel);
  ST(p->tangent_velocity) = KFN(select)(impact, r->vt, LD(p->tangent_velocity));
  ST(p->normal_impulse) = total;
  ST(p->max_normal_impulse) = VMAX(LD(p->max_normal_impulse), total);
}

/* The two normal rows of a two-point constraint solved together, as one 2x2 linear
 * complementarity problem (Box2D 2.4's block solver, with the soft step's softness). Solved one
 * after the other, the first point's impulse turns the body so that the second is hit harder and
 * overshoots: a box landing flat left its first sub-step turning, and came off the ground with
 * 1.75-3.8% of its impact speed at restitution 0. A soft row, x = ni - ms/k (vn + bias) - is ni, is
 * the row of a compliance g = k is / ms (ms + is = 1); with both rows, the new impulses x solve
 * w = (K + G) x + q, q = vn + bias - K ni, with x >= 0, w >= 0, x w = 0. The cases in order: both
 * points push, the first alone, the second alone, neither. When K + G is near singular (the points
 * nearly one: a short face, a body that cannot turn) the case of both is skipped, and when no case
 * holds (rounding) the rows are solved one after the other as before. A lone point (K diagonal)
 * comes out as the one-point row. Every lane does the same operations in the same order, so the
 * widths give the same bits. */
static inline KATTR void KFN(normal_pair)(KFN(Lanes) *A, KFN(Lanes) *B, const WideHead *h, WidePoint *pts,
                                           uint32_t lane0, V inv_h, float h_s, V max_push, bool use_bias) {
  const V zero = KFN(splat)(0.0f);
  WidePoint *p1 = &pts[0], *p2 = &pts[1];
  KFN(Row) r1 = KFN(row)(A, B, h, p1, lane0, inv_h, max_push, use_bias);
  KFN(Row) r2 = KFN(row)(A, B, h, p2, lane0, inv_h, max_push, use_bias);
  V nx = LD(h->nx), ny = LD(h->ny);
  V ma = LD(h->ma), ia = LD(h->ia), mb = LD(h->mb), ib = LD(h->ib);
  V a1x = LD(p1->ax), a1y = LD(p1->ay), b1x = LD(p1->bx), b1y = LD(p1->by);
  V a2x = LD(p2->ax), a2y = LD(p2->ay), b2x = LD(p2->bx), b2y = LD(p2->by);
  V rna1 = a1x * ny - a1y * nx, rnb1 = b1x * ny - b1y * nx;
  V rna2 = a2x * ny - a2y * nx, rnb2 = b2x * ny - b2y * nx;
  V m = ma + mb;
  V k11 = m + ia * rna1 * rna1 + ib * rnb1 * rnb1;
  V k22 = m + ia * rna2 * rna2 + ib * rnb2 * rnb2;
  V k12 = m + ia * rna1 * rna2 + ib * rnb1 * rnb2;
  V a11 = k11 + k11 * r1.impulse_scale / r1.mass_scale, a22 = k22 + k22 * r2.impulse_scale / r2.mass_scale;
  V n1 = LD(p1->normal_impulse), n2 = LD(p2->normal_impulse);
  V q1 = (r1.vn + r1.bias) - (k11 * n1 + k12 * n2);
  V q2 = (r2.vn + r2.bias) - (k12 * n1 + k22 * n2);
  V det = a11 * a22 - k12 * k12;
  V both1 = (k12 * q2 - a22 * q1) / det, both2 = (k12 * q1 - a11 * q2) / det;
  VM both = (KFN(splat)(1000.0f) * det > a11 * a22) & (both1 >= zero) & (both2 >= zero);
  V only1 = (zero - q1) / a11, only2 = (zero - q2) / a22;
  VM first = (only1 >= zero) & (k12 * only1 + q2 >= zero);
  VM second = (only2 >= zero) & (k12 * only2 + q1 >= zero);
  VM neither = (q1 >= zero) & (q2 >= zero);
  V seq1 = VMAX((zero - (q1 + k12 * n2)) / a11, zero);
  V seq2 = VMAX((zero - (q2 + k12 * seq1)) / a22, zero);
  V x1 = KFN(select)(both, both1, KFN(select)(first, only1, KFN(select)(second | neither, zero, seq1)));
  V x2 = KFN(select)(both, both2, KFN(select)(first | neither, zero, KFN(select)(second, only2, seq2)));
  KFN(store_normal)(h, p1, lane0, &r1, n1, x1, h_s, use_bias);
  KFN(store_normal)(h, p2, lane0, &r2, n2, x2, h_s, use_bias);
  V d1 = x1 - n1, d2 = x2 - n2;
  KFN(apply)(A, B, ma, ia, mb, ib, a1x, a1y, b1x, b1y, d1 * nx, d1 * ny);
  KFN(apply)(A, B, ma, ia, mb, ib, a2x, a2y, b2x, b2y, d2 * nx, d2 * ny);
}

static inline KATTR void KFN(solve)(BodyState *st, WideHead *h, WidePoint *pts, uint32_t points, uint32_t lane0,
                                     float inv_h_s, float h_s, float max_push_s, bool use_bias) {
  KFN(Lanes) A, B;
  VGATHER(st, &h->a[lane0], &A, true);
  VGATHER(st, &h->b[lane0], &B, true);
  const V zero = KFN(splat)(0.0f);
  const V inv_h = KFN(splat)(inv_h_s), max_push = KFN(splat)(max_push_s);
  V nx = LD(h->nx), ny = LD(h->ny), tx = ny, ty = -nx;
  V ma = LD(h->ma), ia = LD(h->ia), mb = LD(h->mb), ib = LD(h->ib);
  if (points == 2) {
    KFN(normal_pair)(&A, &B, h, pts, lane0, inv_h, h_s, max_push, use_bias);
  } else {
    WidePoint *p = &pts[0];
    KFN(Row) r = KFN(row)(&A, &B, h, p, lane0, inv_h, max_push, use_bias);
    V ni = LD(p->normal_impulse);
    V impulse = -LD(p->normal_mass) * r.mass_scale * (r.vn + r.bias) - r.impulse_scale * ni;
    V total = VMAX(ni + impulse, zero);
    KFN(store_normal)(h, p, lane0, &r, ni, total, h_s, use_bias);
    impulse = total - ni;
    KFN(apply)(&A, &B, ma, ia, mb, ib, LD(p->ax), LD(p->ay), LD(p->bx), LD(p->by), impulse * nx, impulse * ny);
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
