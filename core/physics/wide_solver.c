/* The contact solver, eight constraints at a time (Box2D v3's graph-coloured
 * solver, in the shape of this engine).
 *
 * Colouring: a constraint takes one of 32 colours that neither of its
 * dynamic bodies has yet (one OR of two per-body bit masks, so colouring is
 * linear in the constraints and rebuilt every step): the lowest free one
 * between two dynamic bodies, the highest against a fixed or kinematic body.
 * Fixed and kinematic bodies are never written by the solver, so they may
 * appear in any number of constraints of one colour. Within a colour no
 * dynamic body appears twice, so its constraints can be solved side by side
 * in the lanes of one batch: the result is the same as solving them one
 * after another. A
 * constraint for which all 32 colours are taken goes to the overflow list,
 * solved one at a time by contact_solver.c before the colours.
 *
 * Batches: per colour, the one-point constraints first, then the two-point
 * ones (a circle's contacts have one point: no lane does a second point's
 * work for nothing). A batch is a WideHead and one or two WidePoints of 8
 * lanes, structure-of-arrays, in one buffer walked forwards; a lane left
 * empty names the fixed state 0 with zero masses and computes only zeros.
 *
 * The passes (physics_wide_kernel.h) are written with the compiler's generic
 * vectors and compiled twice: 8 lanes with AVX2 where the processor has it,
 * and 4 lanes (SSE2 on x86-64, plain lanes elsewhere) run on each half of a
 * batch. Neither uses fused multiply-adds and every lane does the same
 * operations in the same order, so both give the same bits: a world steps
 * the same on any x86-64 (TESS_PHYSICS_SIMD=sse2 forces the 4-lane code,
 * for checking exactly that). */
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "physics_private.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define SPIN_PAUSE() _mm_pause()
#else
#define SPIN_PAUSE() ((void)0)
#endif

#define COLORS 32u
#define LANES 8u
/* batches a thread takes at a time from a part of a colour, and bodies from a part of a body loop */
#define BLOCK 4u
#define OWNED_BLOCK 256u
/* constraints a thread takes at a time into their lanes */
#define FILL_BLOCK 64u
/* a colour of fewer batches is not split (add_color_unit) */
#define TINY_BATCHES 16u
/* pauses (some 10-40 us) a thread waits for the others' blocks before it yields its processor:
 * on a machine with more threads than processors the one it waits for may be waiting for it */
#define WAIT_SPINS 1000u

typedef struct WideHead {
  uint32_t a[LANES], b[LANES]; /* solver states; 0 (the fixed one) in an empty lane */
  uint32_t offset[LANES];      /* the constraint in cbuf, TESS_NULL_INDEX in an empty lane */
  uint32_t contact[LANES];     /* its contact */
  float nx[LANES], ny[LANES], friction[LANES];
  float ma[LANES], ia[LANES], mb[LANES], ib[LANES];
  float bias_rate[LANES], mass_scale[LANES], impulse_scale[LANES]; /* stiffer against a fixed body */
  float closing[LANES];                                            /* physics_contact_closing: for the speed of a new impact */
} WideHead;

typedef struct WidePoint {
  float ax[LANES], ay[LANES], bx[LANES], by[LANES];     /* anchors from the centres of mass */
  float sax[LANES], say[LANES], sbx[LANES], sby[LANES]; /* the cores' anchors (ContactPoint.sa, .sb) */
  float base_separation[LANES], normal_mass[LANES], tangent_mass[LANES];
  float normal_impulse[LANES], tangent_impulse[LANES], max_normal_impulse[LANES];
  float relative_velocity[LANES], tangent_velocity[LANES];
  int32_t gap_open[LANES]; /* all ones when the gap was open at the step's start */
} WidePoint;

_Static_assert(sizeof(WideHead) % 32 == 0 && sizeof(WidePoint) % 32 == 0, "batches stay 32-byte aligned");

static inline size_t batch_size(uint32_t points) { return sizeof(WideHead) + points * sizeof(WidePoint); }

/* ---- Four lanes --------------------------------------------------------- */

typedef float f4 __attribute__((vector_size(16), may_alias));
typedef int32_t m4 __attribute__((vector_size(16), may_alias));

#if defined(__SSE2__)
static inline f4 max_f4(f4 a, f4 b) { return _mm_max_ps(a, b); }
static inline f4 min_f4(f4 a, f4 b) { return _mm_min_ps(a, b); }
static inline f4 sqrt_f4(f4 a) { return _mm_sqrt_ps(a); }
#else
static inline f4 max_f4(f4 a, f4 b) { return (f4)(((a > b) & (m4)a) | (~(a > b) & (m4)b)); }
static inline f4 min_f4(f4 a, f4 b) { return (f4)(((a < b) & (m4)a) | (~(a < b) & (m4)b)); }
static inline f4 sqrt_f4(f4 a) {
  for (int i = 0; i < 4; i++) a[i] = sqrtf(a[i]);
  return a;
}
#endif

#define V f4
#define VM m4
#define VLANES 4
#define KFN(name) name##_4
#define KATTR
#define VMAX max_f4
#define VMIN min_f4
#define VSQRT sqrt_f4
#define VGATHER gather_4
#define VSCATTER scatter_4

struct Lanes_4;
static inline void gather_4(const BodyState *st, const uint32_t idx[4], struct Lanes_4 *l, bool positions);
static inline void scatter_4(BodyState *st, const uint32_t idx[4], const struct Lanes_4 *l);
#include "physics_wide_kernel.h"

/* Four bodies' velocities (and, for the solve, their position deltas), lane i from state idx[i]. */
static inline void gather_4(const BodyState *st, const uint32_t idx[4], Lanes_4 *l, bool positions) {
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

static inline void scatter_4(BodyState *st, const uint32_t idx[4], const Lanes_4 *l) {
#if defined(__SSE2__)
  __m128 r0 = l->vx, r1 = l->vy, r2 = l->w, r3 = l->flags;
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  if (st[idx[0]].dynamic) _mm_store_ps(&st[idx[0]].v.x, r0);
  if (st[idx[1]].dynamic) _mm_store_ps(&st[idx[1]].v.x, r1);
  if (st[idx[2]].dynamic) _mm_store_ps(&st[idx[2]].v.x, r2);
  if (st[idx[3]].dynamic) _mm_store_ps(&st[idx[3]].v.x, r3);
#else
  for (int i = 0; i < 4; i++) {
    BodyState *s = &st[idx[i]];
    if (!s->dynamic) continue;
    s->v.x = l->vx[i];
    s->v.y = l->vy[i];
    s->w = l->w[i];
  }
#endif
}

/* ---- Eight lanes (AVX2) ------------------------------------------------- */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_WIDE8 1
#include <immintrin.h>

typedef float f8 __attribute__((vector_size(32), may_alias));
typedef int32_t m8 __attribute__((vector_size(32), may_alias));

#define AVX2 __attribute__((target("avx2")))

static inline AVX2 f8 max_f8(f8 a, f8 b) { return _mm256_max_ps(a, b); }
static inline AVX2 f8 min_f8(f8 a, f8 b) { return _mm256_min_ps(a, b); }
static inline AVX2 f8 sqrt_f8(f8 a) { return _mm256_sqrt_ps(a); } /* correctly rounded, as sqrtps and sqrtf */

#define V f8
#define VM m8
#define VLANES 8
#define KFN(name) name##_8
#define KATTR AVX2
#define VMAX max_f8
#define VMIN min_f8
#define VSQRT sqrt_f8
#define VGATHER gather_8
#define VSCATTER scatter_8

struct Lanes_8;
static inline AVX2 void gather_8(const BodyState *st, const uint32_t idx[8], struct Lanes_8 *l, bool positions);
static inline AVX2 void scatter_8(BodyState *st, const uint32_t idx[8], const struct Lanes_8 *l);
#include "physics_wide_kernel.h"

/* Rows 0..3 of the four 16-byte quarters at `field` of bodies idx[0..3] and idx[4..7]. */
static inline AVX2 void transpose_in(const BodyState *st, const uint32_t idx[8], size_t field, f8 out[4]) {
  const char *base = (const char *)st;
  __m128 r0 = _mm_load_ps((const float *)(base + idx[0] * sizeof(BodyState) + field));
  __m128 r1 = _mm_load_ps((const float *)(base + idx[1] * sizeof(BodyState) + field));
  __m128 r2 = _mm_load_ps((const float *)(base + idx[2] * sizeof(BodyState) + field));
  __m128 r3 = _mm_load_ps((const float *)(base + idx[3] * sizeof(BodyState) + field));
  __m128 r4 = _mm_load_ps((const float *)(base + idx[4] * sizeof(BodyState) + field));
  __m128 r5 = _mm_load_ps((const float *)(base + idx[5] * sizeof(BodyState) + field));
  __m128 r6 = _mm_load_ps((const float *)(base + idx[6] * sizeof(BodyState) + field));
  __m128 r7 = _mm_load_ps((const float *)(base + idx[7] * sizeof(BodyState) + field));
  __m256 t0 = _mm256_insertf128_ps(_mm256_castps128_ps256(r0), r4, 1);
  __m256 t1 = _mm256_insertf128_ps(_mm256_castps128_ps256(r1), r5, 1);
  __m256 t2 = _mm256_insertf128_ps(_mm256_castps128_ps256(r2), r6, 1);
  __m256 t3 = _mm256_insertf128_ps(_mm256_castps128_ps256(r3), r7, 1);
  __m256 u0 = _mm256_unpacklo_ps(t0, t1), u1 = _mm256_unpackhi_ps(t0, t1);
  __m256 u2 = _mm256_unpacklo_ps(t2, t3), u3 = _mm256_unpackhi_ps(t2, t3);
  out[0] = _mm256_shuffle_ps(u0, u2, 0x44);
  out[1] = _mm256_shuffle_ps(u0, u2, 0xEE);
  out[2] = _mm256_shuffle_ps(u1, u3, 0x44);
  out[3] = _mm256_shuffle_ps(u1, u3, 0xEE);
}

static inline AVX2 void gather_8(const BodyState *st, const uint32_t idx[8], Lanes_8 *l, bool positions) {
  f8 r[4];
  transpose_in(st, idx, offsetof(BodyState, v), r);
  l->vx = r[0];
  l->vy = r[1];
  l->w = r[2];
  l->flags = r[3];
  if (!positions) return;
  transpose_in(st, idx, offsetof(BodyState, dp), r);
  l->dpx = r[0];
  l->dpy = r[1];
  l->qc = r[2];
  l->qs = r[3];
}

static inline AVX2 void scatter_8(BodyState *st, const uint32_t idx[8], const Lanes_8 *l) {
  __m256 u0 = _mm256_unpacklo_ps(l->vx, l->vy), u1 = _mm256_unpackhi_ps(l->vx, l->vy);
  __m256 u2 = _mm256_unpacklo_ps(l->w, l->flags), u3 = _mm256_unpackhi_ps(l->w, l->flags);
  __m256 t0 = _mm256_shuffle_ps(u0, u2, 0x44), t1 = _mm256_shuffle_ps(u0, u2, 0xEE);
  __m256 t2 = _mm256_shuffle_ps(u1, u3, 0x44), t3 = _mm256_shuffle_ps(u1, u3, 0xEE);
  if (st[idx[0]].dynamic) _mm_store_ps(&st[idx[0]].v.x, _mm256_castps256_ps128(t0));
  if (st[idx[1]].dynamic) _mm_store_ps(&st[idx[1]].v.x, _mm256_castps256_ps128(t1));
  if (st[idx[2]].dynamic) _mm_store_ps(&st[idx[2]].v.x, _mm256_castps256_ps128(t2));
  if (st[idx[3]].dynamic) _mm_store_ps(&st[idx[3]].v.x, _mm256_castps256_ps128(t3));
  if (st[idx[4]].dynamic) _mm_store_ps(&st[idx[4]].v.x, _mm256_extractf128_ps(t0, 1));
  if (st[idx[5]].dynamic) _mm_store_ps(&st[idx[5]].v.x, _mm256_extractf128_ps(t1, 1));
  if (st[idx[6]].dynamic) _mm_store_ps(&st[idx[6]].v.x, _mm256_extractf128_ps(t2, 1));
  if (st[idx[7]].dynamic) _mm_store_ps(&st[idx[7]].v.x, _mm256_extractf128_ps(t3, 1));
}

#endif

bool physics_wide8_available(void) {
#if defined(HAVE_WIDE8)
  const char *force = getenv("TESS_PHYSICS_SIMD");
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && !(force && strcmp(force, "sse2") == 0);
#else
  return false;
#endif
}

/* ---- Building the batches ---------------------------------------------- */

static void write_lane(const TessWorld *w, WideHead *h, WidePoint *pts, uint32_t lane, const Constraint *k,
                       uint32_t offset, const Softness *soft, const Softness *soft_static) {
  h->a[lane] = k->state_a;
  h->b[lane] = k->state_b;
  h->offset[lane] = offset;
  h->contact[lane] = k->contact;
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
  h->closing[lane] = physics_contact_closing(w, k);
  const ContactPoint *cp = physics_constraint_points((Constraint *)k);
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
    PointStart s = physics_contact_point_start(w, k, c);
    p->normal_mass[lane] = s.normal_mass;
    p->tangent_mass[lane] = s.tangent_mass;
    p->normal_impulse[lane] = c->normal_impulse;
    p->tangent_impulse[lane] = c->tangent_impulse;
    p->max_normal_impulse[lane] = 0.0f;
    p->relative_velocity[lane] = s.relative_velocity;
    p->tangent_velocity[lane] = s.tangent_velocity;
    p->gap_open[lane] = k->gap_open[q] ? -1 : 0;
  }
}

/* The part of solver state s: the awake bodies cut into w->parts equal runs of solver states (as
 * physics_wide_run cuts the body loops; a body near a cut may land in the next part: that moves
 * only where the work is done, never a result). */
static inline uint32_t state_part(const TessWorld *w, uint32_t s) {
  uint32_t o = (uint32_t)(((uint64_t)(s - 1u) * w->part_scale) >> 32); /* (s - 1) parts / count, nearly */
  return o < w->parts ? o : w->parts - 1u;
}

/* The part constraint `in` of colour `color` is solved in, among those of its dynamic bodies: the
 * one with fewer of the colour's constraints so far, so a colour's parts come out even (the
 * constraints between two parts' bodies would all land in the lower part otherwise, and the
 * threads then take each other's blocks, bodies and all). Where a constraint is solved changes
 * no result: a colour's constraints share no dynamic body. */
static inline uint32_t part_of(const TessWorld *w, const ColorIn *in, uint32_t spare, const uint32_t (*count)[2]) {
  if (w->parts < 2) return 0;
  if (in->b == spare) return state_part(w, in->a);
  if (in->a == spare) return state_part(w, in->b);
  uint32_t oa = state_part(w, in->a), ob = state_part(w, in->b), p = in->points - 1u;
  return count[ob][p] < count[oa][p] ? ob : oa;
}

/* constraint_slot: the place in its group in the low bits, its part above */
#define SLOT_BITS 28u

/* A counter the threads of a pass share, on a cache line of its own. */
typedef struct PassSync {
  atomic_uint n;
  char pad[64 - sizeof(atomic_uint)];
} PassSync;

static bool grow_pass_sync(TessWorld *w, uint32_t need) {
  if (need <= w->pass_sync_cap) return true;
  uint32_t cap = need < 64u ? 64u : need;
  void *raw = tess_realloc(NULL, cap * sizeof(PassSync) + 64u);
  if (!raw) return false;
  tess_free(w->pass_sync_raw);
  w->pass_sync_raw = raw;
  w->pass_sync = (PassSync *)(((uintptr_t)raw + 63u) & ~(uintptr_t)63u);
  w->pass_sync_cap = cap;
  return true;
}

static void reset_sync(PassSync *sync, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) atomic_store_explicit(&sync[i].n, 0u, memory_order_relaxed);
}

static _Thread_local char stepping_mark;
/* constraints prepared (and then coloured) at a time */
#define PREP_CHUNK 256u

typedef struct BuildJob {
  TessWorld *w;
  /* the prepare and the colouring: chunks of PREP_CHUNK constraints; sync[0] the next chunk to
   * prepare, sync[1 + c] set once chunk c is prepared */
  PassSync *sync;
  uint32_t chunks, colored;
  const void *stepping;
  /* constraints per colour, part and point count: the colouring's counters, on lines of their own
   * (off the line of the fields above, which the other threads read as they prepare) */
  _Alignas(64) uint32_t count[COLORS][PHYS_PARTS][2];
} BuildJob;

/* Constraints [begin, end) of coff: what the colouring reads of each (its bodies' solver states,
 * the dynamic ones, and its point count). With no restitution pass to come, a coloured constraint's
 * head (solver states, masses, k->solve) is prepared by the thread that fills its lane (fill_one),
 * in that thread's cache and on the lines the fill reads next, not written here by another thread;
 * one left to the one-at-a-time passes is prepared whole by the colouring. With a restitution pass,
 * every constraint is prepared whole here (the restitution reads their points in cbuf). */
static void prepare_range(const BuildJob *j, uint32_t begin, uint32_t end) {
  TessWorld *w = j->w;
  const BodyState *st = w->states;
  const uint32_t *state_of = w->state_of;
  uint32_t spare = w->active_count + 1; /* the state_colors slot of a fixed side */
  bool whole = w->any_impact_material;
  for (uint32_t ci = begin; ci < end; ci++) {
    Constraint *k = (Constraint *)(w->cbuf + w->coff[ci]);
    ColorIn *in = &w->color_in[ci];
    if (whole) {
      physics_contact_prepare(w, k);
      in->points = k->solve ? k->point_count : 0;
      in->a = st[k->state_a].dynamic ? k->state_a : spare;
      in->b = st[k->state_b].dynamic ? k->state_b : spare;
      continue;
    }
    /* the solver states as physics_contact_prepare_head finds them, cbuf left as it is */
    uint32_t sa = k->state_a == TESS_NULL_INDEX ? 0 : state_of[k->state_a];
    uint32_t sb = k->state_b == TESS_NULL_INDEX ? 0 : state_of[k->state_b];
    bool da = st[sa].dynamic, db = st[sb].dynamic;
    in->points = da || db ? k->point_count : 0;
    in->a = da ? sa : spare;
    in->b = db ? sb : spare;
    if ((da || db) && k->point_count == 0) physics_contact_prepare_head(w, k); /* solved, yet coloured never */
  }
}

/* Batch i cleared: lanes left empty stay zero, on the fixed state. */
static void clear_batch(TessWorld *w, uint32_t i) {
  uint32_t b = w->batches[i];
  uint8_t *base = w->wbuf + (b & ~1u);
  memset(base, 0, batch_size((b & 1u) + 1u));
  for (uint32_t lane = 0; lane < LANES; lane++) ((WideHead *)base)->offset[lane] = TESS_NULL_INDEX;
}

/* Coloured constraint ci (coff order) into its lane. */
static inline void fill_one(TessWorld *w, uint32_t ci, const Softness soft[2]) {
  uint32_t c = w->constraint_color[ci];
  Constraint *k = (Constraint *)(w->cbuf + w->coff[ci]);
  if (!w->any_impact_material) physics_contact_prepare_head(w, k); /* prepare_range says why here */
  uint32_t p = k->point_count - 1, slot = w->constraint_slot[ci] & ((1u << SLOT_BITS) - 1u), o = w->constraint_slot[ci] >> SLOT_BITS;
  uint8_t *base = w->wbuf + (w->batches[w->group_first[c][o][p] + slot / LANES] & ~1u);
  write_lane(w, (WideHead *)base, (WidePoint *)(base + sizeof(WideHead)), slot % LANES, k, w->coff[ci], &soft[0], &soft[1]);
}

/* All the coloured constraints into their lanes, in coff order (on one thread). */
static void fill_all(TessWorld *w, const Softness soft[2]) {
  for (uint32_t ci = 0; ci < w->coff_count; ci++)
    if (w->constraint_color[ci] != PHYS_NO_COLOR) fill_one(w, ci, soft);
}

/* Entries [begin, end) of the part lists into their lanes: the stage PHYS_STAGE_FILL of the
 * solver's run, part by part, so the thread that solves a part's batches first has filled them
 * (in its cache), and no two threads write one batch. */
static void fill_listed(TessWorld *w, uint32_t begin, uint32_t end, const Softness soft[2]) {
  if (w->parts < 2u) { /* one part: no lists, the constraints [begin, end) */
    for (uint32_t ci = begin; ci < end; ci++)
      if (w->constraint_color[ci] != PHYS_NO_COLOR) fill_one(w, ci, soft);
    return;
  }
  for (uint32_t i = begin; i < end; i++) fill_one(w, w->part_list[i], soft);
}

/* The colouring of constraints [begin, end), one after another (a colour depends on those
 * before): the fixed sides all name the spare slot, which is cleared again after each. The
 * arrays and counts it writes are held in locals: its one-byte colour stores may alias anything,
 * and the compiler would otherwise read every pointer and count back from the world after each. */
static void color_range(BuildJob *j, uint32_t begin, uint32_t end) {
  TessWorld *w = j->w;
  uint32_t *colors = w->state_colors, spare = w->active_count + 1, parts = w->parts;
  const ColorIn *in = w->color_in;
  uint8_t *color_of = w->constraint_color;
  uint32_t *slot_of = w->constraint_slot, *list = w->part_list, stride = w->part_list_stride;
  uint32_t listed[PHYS_PARTS];
  memcpy(listed, w->part_list_count, sizeof listed);
  for (uint32_t ci = begin; ci < end; ci++) {
    uint32_t points = in[ci].points, a = in[ci].a, b = in[ci].b;
    uint32_t used = colors[a] | colors[b];
    if (points == 0 || used == UINT32_MAX) {
      color_of[ci] = PHYS_NO_COLOR;
      if (points == 0) continue;
      if (!w->any_impact_material) physics_contact_prepare(w, (Constraint *)(w->cbuf + w->coff[ci]));
      w->overflow[w->overflow_count++] = w->coff[ci];
      continue;
    }
    /* constraints between two dynamic bodies take the lowest free colour, those against a fixed
     * or kinematic body the highest: they are solved last, so they have the last word (a pile
     * rests on the ground rather than the ground on the pile), as when the tile map's contacts
     * were solved after the bodies' */
    uint32_t color = (a != spare && b != spare) ? (uint32_t)__builtin_ctz(~used) : 31u - (uint32_t)__builtin_clz(~used);
    uint32_t bit = 1u << color;
    colors[a] |= bit;
    colors[b] |= bit;
    colors[spare] = 0;
    color_of[ci] = (uint8_t)color;
    uint32_t o = part_of(w, &in[ci], spare, j->count[color]);
    slot_of[ci] = j->count[color][o][points - 1]++ | o << SLOT_BITS; /* its place in its group, its part */
    if (parts > 1u) list[o * stride + listed[o]++] = ci;
  }
  memcpy(w->part_list_count, listed, sizeof listed);
}

/* Chunk c prepared by whoever takes it first. */
static bool prepare_next(BuildJob *j) {
  uint32_t c = atomic_fetch_add_explicit(&j->sync[0].n, 1u, memory_order_relaxed);
  if (c >= j->chunks) return false;
  uint32_t end = (c + 1u) * PREP_CHUNK < j->w->coff_count ? (c + 1u) * PREP_CHUNK : j->w->coff_count;
  prepare_range(j, c * PREP_CHUNK, end);
  atomic_store_explicit(&j->sync[1u + c].n, 1u, memory_order_release);
  return true;
}

/* The chunks not yet coloured, in order, each once it is prepared (by this thread, when none
 * other has taken it). Only the stepping thread colours. */
static void color_chunks(BuildJob *j) {
  for (; j->colored < j->chunks; j->colored++) {
    uint32_t c = j->colored;
    for (uint32_t spins = 0; !atomic_load_explicit(&j->sync[1u + c].n, memory_order_acquire);)
      if (!prepare_next(j)) { /* another thread is preparing it */
        SPIN_PAUSE();
        if (++spins == WAIT_SPINS) {
          sched_yield();
          spins = 0;
        }
      }
    uint32_t end = (c + 1u) * PREP_CHUNK < j->w->coff_count ? (c + 1u) * PREP_CHUNK : j->w->coff_count;
    color_range(j, c * PREP_CHUNK, end);
  }
}

/* The serial colouring overlaps the prepare: the stepping thread colours the chunks in order
 * while the others prepare ahead of it (and prepares a chunk itself when none is ready). */
static void prepare_task(void *ctx, uint32_t begin, uint32_t end) {
  (void)begin;
  (void)end;
  BuildJob *j = ctx;
  if (j->stepping == &stepping_mark) color_chunks(j);
  while (prepare_next(j)) {
  }
}

static void add_color_unit(TessWorld *w, uint32_t c);

bool physics_wide_build(TessWorld *w) {
  uint32_t nstates = w->active_count + 1;
  if (!PHYS_GROW(w->state_colors, &w->state_colors_cap, nstates + 1) ||
      !PHYS_GROW(w->constraint_color, &w->constraint_color_cap, w->coff_count + 1) ||
      !PHYS_GROW(w->constraint_slot, &w->constraint_slot_cap, w->coff_count + 1) ||
      !PHYS_GROW(w->color_in, &w->color_in_cap, w->coff_count + 1) ||
      !PHYS_GROW(w->overflow, &w->overflow_cap, w->coff_count + 1))
    return false;
  uint32_t *colors = w->state_colors;
  memset(colors, 0, (nstates + 1) * sizeof *colors);
  /* one part in a step the pool runs on the caller (physics_tasks_step_shared) */
  uint32_t parts = physics_tasks_step_shared(w->tasks) ? physics_tasks_threads(w->tasks) : 1u;
  if (parts > PHYS_PARTS) parts = PHYS_PARTS;
  w->parts = parts < 1u ? 1u : parts;
  w->part_scale = w->active_count ? ((uint64_t)w->parts << 32) / w->active_count : 0;
  w->overflow_count = 0;
  w->part_list_stride = w->coff_count;
  memset(w->part_list_count, 0, sizeof w->part_list_count);
  if (w->parts > 1u && !PHYS_GROW(w->part_list, &w->part_list_cap, w->parts * w->coff_count + 1u)) return false;
  BuildJob job = {w, NULL, (w->coff_count + PREP_CHUNK - 1u) / PREP_CHUNK, 0, &stepping_mark, {{{0}}}};
  if (!grow_pass_sync(w, job.chunks + 1u)) return false;
  job.sync = w->pass_sync;
  reset_sync(job.sync, job.chunks + 1u);
  /* the stepping thread colours the chunks in order as they are prepared, every other thread
   * prepares ahead of it (one item each); what the pool ran elsewhere (a game's scheduler may
   * run no item on this thread) is coloured here after */
  uint32_t items = w->coff_count < 4u * PREP_CHUNK ? 1u : (w->parts < 2u ? 2u : w->parts);
  physics_parallel_for(w->tasks, items, 1, prepare_task, &job);
  color_chunks(&job);
  uint32_t(*count)[PHYS_PARTS][2] = job.count;

  /* the batches: colour by colour, part by part, one-point groups before two-point ones (the
   * order of a colour's constraints changes no result: they share no dynamic body) */
  uint32_t first[COLORS][PHYS_PARTS][2], batches = 0;
  size_t bytes = 0;
  for (uint32_t c = 0; c < COLORS; c++)
    for (uint32_t o = 0; o < w->parts; o++)
      for (uint32_t p = 0; p < 2; p++) {
        uint32_t n = (count[c][o][p] + LANES - 1u) / LANES;
        first[c][o][p] = batches;
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
    for (uint32_t o = 0; o < w->parts; o++)
      for (uint32_t p = 0; p < 2; p++) {
        uint32_t n = (count[c][o][p] + LANES - 1u) / LANES;
        for (uint32_t i = 0; i < n; i++) {
          w->batches[first[c][o][p] + i] = (uint32_t)at | p; /* batches start 16-aligned: bit 0 says two points */
          at += batch_size(p + 1);
        }
      }
  w->batch_count = batches;
  w->used_color_count = 0;
  for (uint32_t c = 0; c < COLORS; c++) w->color_first[c] = first[c][0][0];
  w->color_first[COLORS] = batches;
  for (uint32_t c = 0; c < COLORS; c++)
    if (w->color_first[c + 1] > w->color_first[c]) add_color_unit(w, c);

  /* the last batch of each group cleared (the lanes it leaves empty; a filled lane has every
   * field written); the lanes are filled by the solver's first stage (PHYS_STAGE_FILL), each
   * part's by the thread that solves it. (The parts add a few part-filled batches.) */
  uint32_t one_part = 0;
  for (uint32_t c = 0; c < COLORS; c++)
    for (uint32_t p = 0; p < 2; p++) {
      uint32_t n = 0;
      for (uint32_t o = 0; o < w->parts; o++) {
        n += count[c][o][p];
        if (count[c][o][p] % LANES) clear_batch(w, first[c][o][p] + count[c][o][p] / LANES);
      }
      one_part += (n + LANES - 1u) / LANES;
    }
  w->batch_count_one_part = one_part;
  memcpy(w->group_first, first, sizeof first);
  return true;
}

/* Colour c (with batches) into the passes' units: a colour of few batches joins the unit of
 * the few-batch colours just before it, run on one thread in one go (splitting it would cost the
 * threads more in waiting than it saves); colours in order, so the same order of work. */
static void add_color_unit(TessWorld *w, uint32_t c) {
  uint32_t k = w->used_color_count, n = w->color_first[c + 1] - w->color_first[c];
  bool tiny = n < TINY_BATCHES;
  if (tiny && k > 0 && w->unit_tiny[k - 1] && w->color_first[c + 1] - w->color_first[w->used_colors[k - 1]] <= 2u * TINY_BATCHES) {
    w->unit_last[k - 1] = (uint8_t)c;
    return;
  }
  w->used_colors[k] = (uint8_t)c;
  w->unit_last[k] = (uint8_t)c;
  w->unit_tiny[k] = tiny;
  w->used_color_count++;
}

/* ---- The passes --------------------------------------------------------- */

/* Which part a thread takes first: the stepping thread (its mark named in the job) the first,
 * every other thread one of the others, the same from pass to pass. Any thread may take any
 * part's blocks once its own are taken, so the answer changes only where the work is done. */
static _Thread_local uint32_t worker_number;
static atomic_uint workers_seen;

static uint32_t own_part(const void *stepping, uint32_t parts) {
  if (stepping == &stepping_mark || parts < 2) return 0;
  if (worker_number == 0) worker_number = 1u + atomic_fetch_add_explicit(&workers_seen, 1u, memory_order_relaxed);
  return 1u + (worker_number - 1u) % (parts - 1u);
}

/* The impulses and impact speeds of batches [begin, end) back into cbuf, and into the contacts
 * when no restitution pass follows: in the last relaxation, each block right after it is relaxed
 * (its lanes are final then, and in this thread's cache). Each lane writes its own contact and
 * constraint. */
static void store_batches(TessWorld *w, uint32_t begin, uint32_t end) {
  /* with no restitution pass to come the impulses are final: they go into the contacts
   * (warm starting and touching), which spares contact_events a walk through these
   * constraints, and into cbuf only for a contact that begins to touch */
  bool final = !w->any_impact_material;
  for (uint32_t i = begin; i < end; i++) {
    uint32_t b = w->batches[i], points = (b & 1u) + 1u;
    uint8_t *base = w->wbuf + (b & ~1u);
    const WideHead *h = (const WideHead *)base;
    const WidePoint *pts = (const WidePoint *)(base + sizeof(WideHead));
    for (uint32_t lane = 0; lane < LANES; lane++) {
      if (h->offset[lane] == TESS_NULL_INDEX) break; /* filled lanes come first */
      if (final) {
        Contact *c = &w->contacts[h->contact[lane]];
        bool touching = false;
        for (uint32_t q = 0; q < points; q++) {
          c->normal_impulse[q] = pts[q].normal_impulse[lane];
          c->tangent_impulse[q] = pts[q].tangent_impulse[lane];
          touching = touching || pts[q].max_normal_impulse[lane] > 0.0f;
        }
        if (touching) c->flags |= CONTACT_TOUCHING;
        /* the points in cbuf matter only to a begin event (its impact speed) */
        if (!(c->flags & CONTACT_TOUCHING) || (c->flags & CONTACT_WAS_TOUCHING)) continue;
      }
      ContactPoint *cp = physics_constraint_points((Constraint *)(w->cbuf + h->offset[lane]));
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

static void pass_range(TessWorld *w, bool solve, float inv_h, bool use_bias, uint32_t begin, uint32_t end) {
#if defined(HAVE_WIDE8)
  if (w->wide8) {
    pass_8(w, solve, inv_h, use_bias, begin, end);
    return;
  }
#endif
  pass_4(w, solve, inv_h, use_bias, begin, end);
}

/* Where part o of `count` items begins: item i is in part i * parts / count. */
static inline uint32_t item_part_first(uint32_t count, uint32_t o, uint32_t parts) {
  return (uint32_t)(((uint64_t)o * count + parts - 1u) / parts);
}

typedef struct RunJob {
  TessWorld *w;
  const PhysicsStage *stages;
  uint32_t count;
  float inv_h;
  const void *stepping;
} RunJob;

/* One unit of a stage: a colour of a pass (k its place among the used colours), or a whole
 * stage of another kind. Part o of it is the blocks [first, last) of `size` items or batches. */
static inline void unit_part(const TessWorld *w, const PhysicsStage *s, uint32_t k, uint32_t o, uint32_t *first,
                             uint32_t *last, uint32_t *size) {
  uint32_t parts = w->parts;
  if (s->kind == PHYS_STAGE_BODIES) {
    *first = item_part_first(s->count, o, parts);
    *last = item_part_first(s->count, o + 1u, parts);
    *size = OWNED_BLOCK;
  } else if (s->kind == PHYS_STAGE_SERIAL) {
    *first = 0;
    *last = o == 0 ? 1u : 0u;
    *size = 1;
  } else if (s->kind == PHYS_STAGE_FILL) {
    *first = o * w->part_list_stride;
    *last = *first + (parts < 2u ? w->coff_count : w->part_list_count[o]);
    *size = FILL_BLOCK;
  } else {
    uint32_t c = w->used_colors[k];
    if (w->unit_tiny[k]) { /* one block, on the first part's thread */
      *first = w->color_first[c];
      *last = o == 0 ? w->color_first[w->unit_last[k] + 1u] : *first;
      *size = *last > *first ? *last - *first : 1u;
      return;
    }
    *first = w->group_first[c][o][0];
    *last = o + 1u < parts ? w->group_first[c][o + 1u][0] : w->color_first[c + 1u];
    *size = BLOCK;
  }
}

static inline void run_block(const RunJob *j, const PhysicsStage *s, uint32_t begin, uint32_t end) {
  if (s->kind == PHYS_STAGE_BODIES || s->kind == PHYS_STAGE_SERIAL)
    s->fn(s->ctx, begin, end);
  else if (s->kind == PHYS_STAGE_FILL)
    fill_listed(j->w, begin, end, s->ctx);
  else {
    pass_range(j->w, s->kind != PHYS_STAGE_WARM_START, j->inv_h, s->kind == PHYS_STAGE_SOLVE, begin, end);
    if (s->kind == PHYS_STAGE_RELAX_STORE) store_batches(j->w, begin, end);
  }
}

/* One thread's share of the stages, unit after unit, Box2D v3's way: the blocks of its own part
 * first (the bodies it integrates, the constraints of those bodies), then any left in the
 * others'; then it waits until every block of the unit is done (the next reads what this one
 * wrote). A thread waits only for blocks another has taken and is running, so a thread the
 * machine does not run holds up nothing it has not begun, and the stepping thread alone does
 * all when no other comes. The units run in the order one thread would run them, each body
 * meets its constraints in the same order: the same bits with any number of threads. */
static void run_task(void *ctx, uint32_t begin, uint32_t end) {
  (void)begin;
  (void)end;
  const RunJob *j = ctx;
  TessWorld *w = j->w;
  uint32_t parts = w->parts, me = own_part(j->stepping, parts), unit = 0;
  for (uint32_t si = 0; si < j->count; si++) {
    const PhysicsStage *s = &j->stages[si];
    uint32_t units = s->kind >= PHYS_STAGE_WARM_START ? w->used_color_count : 1u;
    for (uint32_t k = 0; k < units; k++, unit++) {
      PassSync *line = w->pass_sync + unit * (parts + 1u);
      uint32_t ran = 0, blocks = 0;
      for (uint32_t r = 0; r < parts; r++) {
        uint32_t o = (me + r) % parts, first, last, size, i;
        unit_part(w, s, k, o, &first, &last, &size);
        blocks += (last - first + size - 1u) / size;
        while ((i = first + size * atomic_fetch_add_explicit(&line[o].n, 1u, memory_order_relaxed)) < last) {
          run_block(j, s, i, i + size < last ? i + size : last);
          ran++;
        }
      }
      if (si + 1u == j->count && k + 1u == units) return; /* the loop's end waits for the last */
      if (ran) atomic_fetch_add_explicit(&line[parts].n, ran, memory_order_release);
      for (uint32_t spins = 0; atomic_load_explicit(&line[parts].n, memory_order_acquire) < blocks; spins++) {
        SPIN_PAUSE();
        if (spins == WAIT_SPINS) { /* the other thread was descheduled in its block: let it run */
          sched_yield();
          spins = 0;
        }
      }
    }
  }
}

/* The stages one after another on this thread; a profile counts the colours' passes, the fill and the
 * body loops among the loops the threads share (as they are when there are several). */
static void run_alone(TessWorld *w, const PhysicsStage *stages, uint32_t count, float inv_h) {
  for (uint32_t si = 0; si < count; si++) {
    const PhysicsStage *s = &stages[si];
    if (s->kind == PHYS_STAGE_BODIES) {
      physics_parallel_for(NULL, s->count, OWNED_BLOCK, s->fn, s->ctx);
    } else if (s->kind == PHYS_STAGE_SERIAL) {
      s->fn(s->ctx, 0, 1);
    } else {
      double *sink = physics_profile_parallel, t0 = sink ? physics_profile_now() : 0.0;
      if (s->kind == PHYS_STAGE_FILL) {
        fill_all(w, s->ctx);
      } else {
        pass_range(w, s->kind != PHYS_STAGE_WARM_START, inv_h, s->kind == PHYS_STAGE_SOLVE, 0, w->batch_count);
        if (s->kind == PHYS_STAGE_RELAX_STORE) store_batches(w, 0, w->batch_count);
      }
      if (sink) *sink += physics_profile_now() - t0;
    }
  }
}

void physics_wide_run(TessWorld *w, const PhysicsStage *stages, uint32_t count, float inv_h) {
  uint32_t units = 0, bodies = 0;
  for (uint32_t si = 0; si < count; si++) {
    units += stages[si].kind >= PHYS_STAGE_WARM_START ? w->used_color_count : 1u;
    if (stages[si].kind == PHYS_STAGE_BODIES && stages[si].count > bodies) bodies = stages[si].count;
  }
  /* handed over, or not, whatever the thread count, as every loop of the step (a game's
   * scheduler of one thread sees the same loops as one of many) */
  if (!physics_tasks_step_shared(w->tasks) || (w->coff_count < 4u * BLOCK * LANES && bodies < 2u * OWNED_BLOCK) ||
      !grow_pass_sync(w, units * (w->parts + 1u))) {
    run_alone(w, stages, count, inv_h);
  } else {
    RunJob j = {w, stages, count, inv_h, &stepping_mark};
    reset_sync(w->pass_sync, units * (w->parts + 1u));
    physics_parallel_for(w->tasks, w->parts < 2 ? 2u : w->parts, 1, run_task, &j);
  }
  w->states[0].v = tess_v2(0.0f, 0.0f);
  w->states[0].w = 0.0f;
}
