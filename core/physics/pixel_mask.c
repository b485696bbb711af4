/* Pixel-mask collision (the Pixelated Martini Roller seed): a circle tests
 * the solid pixels it covers. Each boundary pixel near the circle blocks the
 * directions it is seen in, in 360 one-degree buckets around the centre; the
 * middle of the widest open run is the normal; the depth is the farthest
 * along that normal the circle must move so that no pixel it overlaps stays
 * inside it. Beyond the seed: a pixel is the disc of half a pixel about its
 * centre (a flat pixel floor is then a plane at the pixels' top edge, and a
 * staircase looks the same from uphill and downhill: squares' closest points
 * would tilt a slope's normal downhill by a degree or two, and the ball would
 * roll 4% too fast); a pixel blocks a cone of directions that narrows with
 * its distance rather than only its own bucket; and the depth comes from the
 * pixels themselves rather than from one value per bucket.
 *
 * The response runs once per step after the solver (the seed's order: move,
 * then get out and fix the velocity), for circles of awake dynamic bodies,
 * in body slot order, so it is as deterministic as the rest of the step. */
#include <stddef.h>
#include <string.h>

#include "physics_private.h"
#include "physics_pixel_mask.h"

#define BUCKETS 360
#define BUCKET_WORDS ((BUCKETS + 63) / 64)
#define CANDIDATES 128
/* How far beyond the radius pixels still shape the normal: half the radius (at least a pixel).
 * A pixel staircase is bumpy at the scale of a pixel; seen over half the radius its normal is the
 * slope's within a few degrees (tests/physics/test_pixel_mask.c). */
#define BAND_OF_RADIUS 0.5f
#define DEEP 0.25f /* of the radius: a sample of a fast circle's path this deep has hit something */

/* ---- Bits ---------------------------------------------------------------- */

static inline uint64_t *mask_row(const PixelMask *m, uint32_t y) { return m->bits + (size_t)y * m->words; }

static inline bool mask_bit(const PixelMask *m, uint32_t x, uint32_t y) {
  return (mask_row(m, y)[x >> 6] >> (x & 63)) & 1u;
}

/* Word k of row y's boundary pixels: solid with an empty (or outside) 4-neighbour. Interior
 * pixels never decide anything: along any direction a boundary pixel is nearer the centre. */
static uint64_t boundary_word(const PixelMask *m, uint32_t y, uint32_t k) {
  const uint64_t *row = mask_row(m, y);
  uint64_t cur = row[k];
  if (!cur) return 0;
  uint64_t up = y > 0 ? mask_row(m, y - 1)[k] : 0;
  uint64_t down = y + 1 < m->height ? mask_row(m, y + 1)[k] : 0;
  uint64_t left = (cur << 1) | (k > 0 ? row[k - 1] >> 63 : 0);
  uint64_t right = (cur >> 1) | (k + 1 < m->words ? row[k + 1] << 63 : 0);
  return cur & ~(up & down & left & right);
}

/* The boundary pixels of word k of row y that lie in columns x0..x1 (clipped to the mask). */
static inline uint64_t boundary_span(const PixelMask *m, uint32_t y, uint32_t k, int64_t x0, int64_t x1) {
  uint64_t word = boundary_word(m, y, k);
  uint32_t lo = k == (uint32_t)(x0 >> 6) ? (uint32_t)(x0 & 63) : 0;
  uint32_t hi = k == (uint32_t)(x1 >> 6) ? (uint32_t)(x1 & 63) : 63;
  return word & (~0ull << lo) & (~0ull >> (63 - hi));
}

/* ---- The coarse level ------------------------------------------------------ */

void physics_pixel_mask_coarse_update(PixelMask *m, uint32_t k0, uint32_t k1, uint32_t y0, uint32_t y1) {
  for (uint32_t ty = y0 / PIXEL_MASK_TILE; ty <= y1 / PIXEL_MASK_TILE; ty++) {
    uint32_t ya = ty * PIXEL_MASK_TILE, yb = ya + PIXEL_MASK_TILE < m->height ? ya + PIXEL_MASK_TILE : m->height;
    uint64_t *crow = m->coarse + (size_t)ty * m->coarse_words;
    for (uint32_t k = k0; k <= k1; k++) {
      uint64_t v = 0;
      for (uint32_t y = ya; y < yb; y++) v |= mask_row(m, y)[k];
      uint64_t tiles = 0;
      for (uint32_t j = 0; j < 8; j++) tiles |= (uint64_t)(((v >> (8 * j)) & 0xffu) != 0) << j;
      uint32_t at = 8 * k;
      crow[at >> 6] = (crow[at >> 6] & ~(0xffull << (at & 63))) | (tiles << (at & 63));
    }
  }
}

/* The 8 tiles under word k of tile row ty, one a bit. */
static inline uint32_t coarse_byte(const PixelMask *m, uint32_t ty, uint32_t k) {
  return (uint32_t)(m->coarse[(size_t)ty * m->coarse_words + ((8 * k) >> 6)] >> ((8 * k) & 63)) & 0xffu;
}

/* Whether tile row ty has a solid pixel in columns x0..x1. */
static inline bool coarse_row_any(const PixelMask *m, uint32_t ty, uint32_t x0, uint32_t x1) {
  const uint64_t *crow = m->coarse + (size_t)ty * m->coarse_words;
  uint32_t t0 = x0 / PIXEL_MASK_TILE, t1 = x1 / PIXEL_MASK_TILE;
  for (uint32_t k = t0 >> 6; k <= t1 >> 6; k++) {
    uint64_t word = crow[k];
    if (k == t0 >> 6) word &= ~0ull << (t0 & 63);
    if (k == t1 >> 6) word &= ~0ull >> (63 - (t1 & 63));
    if (word) return true;
  }
  return false;
}

/* Whether any tile under pixels [x0, x1] x [y0, y1] (within the mask) has a solid pixel. A box
 * whose tiles fall in one coarse word (nearly every circle's) tests a masked word per tile row. */
static inline bool coarse_box_any(const PixelMask *m, int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  if (x0 > x1 || y0 > y1) return false;
  uint32_t t0 = (uint32_t)x0 / PIXEL_MASK_TILE, t1 = (uint32_t)x1 / PIXEL_MASK_TILE;
  uint32_t ty0 = (uint32_t)y0 / PIXEL_MASK_TILE, ty1 = (uint32_t)y1 / PIXEL_MASK_TILE;
  if (t0 >> 6 != t1 >> 6) {
    for (uint32_t ty = ty0; ty <= ty1; ty++)
      if (coarse_row_any(m, ty, (uint32_t)x0, (uint32_t)x1)) return true;
    return false;
  }
  uint64_t sel = (~0ull << (t0 & 63)) & (~0ull >> (63 - (t1 & 63)));
  const uint64_t *c = m->coarse + (size_t)ty0 * m->coarse_words + (t0 >> 6);
  for (uint32_t ty = ty0; ty <= ty1; ty++, c += m->coarse_words)
    if (*c & sel) return true;
  return false;
}

/* ---- The probe ------------------------------------------------------------- */

/* Which masks a search looks at: masks first..end-1, but the moving ones only when `moving` (a
 * fast circle's path is swept against the masks at rest in the world's frame, and against each
 * moving mask in its own). */
typedef struct Sel {
  uint32_t first, end;
  bool moving;
} Sel;

static inline Sel all_masks(const TessWorld *w) { return (Sel){0, w->pmask_count, true}; }
static inline bool skips(const PixelMask *m, Sel sel) { return m->moving && !sel.moving; }

/* What the scan of one circle found, in world units. */
typedef struct Probe {
  TessVec2 c;                     /* centre, world */
  float r;                        /* radius, world */
  uint64_t blocked[BUCKET_WORDS]; /* bucket i blocked: bit i & 63 of word i >> 6 */
  bool any;                       /* some pixel within the band */
  float min_d;                    /* world distance to the nearest pixel */
  uint32_t mask;                  /* the nearest pixel's mask */
  TessVec2 n;                     /* the way out */
  float depth;
  uint32_t open;
  bool buried;
  /* The pixels inside the circle met by the first pass (mask, and centre relative to the circle's
   * in that mask's pixels), so that the depth needs no second pass over the masks' words; past
   * CANDIDATES the second pass runs as before. Not cleared between probes: cand_count says. */
  uint32_t cand_count;
  bool cand_overflow;
  uint32_t cand_mask[CANDIDATES];
  float cand_x[CANDIDATES], cand_y[CANDIDATES];
} Probe;

/* Sets bits lo..hi (lo <= hi) of a bit row. */
static inline void set_bits(uint64_t *bits, uint32_t lo, uint32_t hi) {
  uint32_t k0 = lo >> 6, k1 = hi >> 6;
  uint64_t first = ~0ull << (lo & 63), last = ~0ull >> (63 - (hi & 63));
  if (k0 == k1) { /* most cones: one word */
    bits[k0] |= first & last;
    return;
  }
  bits[k0] |= first;
  for (uint32_t k = k0 + 1; k < k1; k++) bits[k] = ~0ull;
  bits[k1] |= last;
}

/* A bucket index at most two turns off 0..BUCKETS-1 brought into it: (b + 2 BUCKETS) % BUCKETS without
 * dividing. A cone's ends are within a turn and a quarter (an angle in [-pi, pi], plus the mask's,
 * plus or minus at most a quarter turn). */
static inline int32_t wrap_bucket(int32_t b) {
  if (b < 0) b += BUCKETS;
  if (b < 0) b += BUCKETS;
  if (b >= BUCKETS) b -= BUCKETS;
  if (b >= BUCKETS) b -= BUCKETS;
  return b;
}

/* Marks buckets b0..b1 (b0 <= b1, at most a turn past either end of 0..BUCKETS-1) as blocked: one or
 * two runs of bits (a bucket is a bit: blocking a cone is a few word operations, and clearing the
 * buckets for the next circle 48 bytes). */
static inline void block(uint64_t *blocked, int32_t b0, int32_t b1) {
  if (b1 - b0 >= BUCKETS - 1) {
    set_bits(blocked, 0, BUCKETS - 1);
    return;
  }
  b0 = wrap_bucket(b0);
  b1 = wrap_bucket(b1);
  if (b0 <= b1) {
    set_bits(blocked, (uint32_t)b0, (uint32_t)b1);
  } else {
    set_bits(blocked, (uint32_t)b0, BUCKETS - 1);
    set_bits(blocked, 0, (uint32_t)b1);
  }
}

static inline float max_f(float a, float b) { return a > b ? a : b; } /* inline, unlike fmaxf: no NaN here */
static inline float min_f(float a, float b) { return a < b ? a : b; }

/* floorf(x) as an integer, for |x| < 2^63: the same value, without a call to libm. */
static inline int64_t floor_i64(float x) {
  int64_t i = (int64_t)x;
  return i - (x < (float)i);
}

/* Where a circle's reach falls on a mask, in the mask's pixels. */
typedef struct Window {
  float ux, uy;           /* the centre */
  float r, band, reach;   /* the radius, the band beyond it that shapes the normal, their sum */
  int64_t x0, y0, x1, y1; /* the pixels under the reach, clipped to the mask */
} Window;

/* The window of a circle at c of radius rw on mask m; false when the reach holds no solid pixel.
 * First the mask's world box (a few compares before the turn into the mask's frame), then the
 * coarse tiles under the reach: a circle in open air stops here. In pixel units from here on:
 * the centre relative to the mask is exact enough in float up to the largest mask side. */
static bool window(const PixelMask *m, TessVec2 c, float rw, Window *win) {
  if (m->removed) return false;
  float reach_w = rw + max_f(m->pixel_size, BAND_OF_RADIUS * rw); /* the reach below, in metres */
  if (c.x + reach_w < m->bounds.lower.x || c.x - reach_w > m->bounds.upper.x || c.y + reach_w < m->bounds.lower.y ||
      c.y - reach_w > m->bounds.upper.y)
    return false;
  float inv = m->inv_pixel;
  TessVec2 lc = tess_rot_apply_inv(m->q, tess_v2_sub(c, m->origin)); /* the circle in the mask's frame */
  float ux = lc.x * inv, uy = lc.y * inv;
  float r = rw * inv, band = max_f(1.0f, BAND_OF_RADIUS * r), reach = r + band;
  if (ux + reach < 0.0f || uy + reach < 0.0f || ux - reach > (float)m->width || uy - reach > (float)m->height) return false;
  /* floor, then clipped to the mask: ux + reach and uy + reach are >= 0 here, where floor is the
   * conversion's truncation, and below 0 the low ends clip to 0 whatever their floor */
  float lx = ux - reach, ly = uy - reach;
  int64_t x0 = lx < 0.0f ? 0 : (int64_t)lx, x1 = (int64_t)(ux + reach);
  int64_t y0 = ly < 0.0f ? 0 : (int64_t)ly, y1 = (int64_t)(uy + reach);
  if (x1 >= (int64_t)m->width) x1 = (int64_t)m->width - 1;
  if (y1 >= (int64_t)m->height) y1 = (int64_t)m->height - 1;
  *win = (Window){ux, uy, r, band, reach, x0, y0, x1, y1};
  return coarse_box_any(m, x0, y0, x1, y1);
}

typedef enum ScanMode { SCAN_BUCKETS,
                        SCAN_DEPTH } ScanMode;

/* What a pass over a mask's pixels needs of the circle, in the mask's pixels. */
typedef struct Scan {
  const PixelMask *m;
  uint32_t mi;
  ScanMode mode;
  float r, band, reach, big2, to_bucket;
  TessVec2 n, t; /* the way out, in the mask's frame (SCAN_DEPTH) */
  /* pixels whose cones wait to be worked out four at a time (centre from the circle's, distance to
   * the disc); blocking is an OR, so when a cone is blocked does not change the buckets */
  uint32_t lanes;
  float lane_x[4], lane_y[4], lane_d[4];
} Scan;

/* ---- Cones, four at a time ------------------------------------------------------
 * The cone arithmetic of four pixels in vector lanes: the same float operations in the same order
 * as one pixel at a time (no fused multiply-adds: C11 mode contracts nothing), each correctly
 * rounded, so each lane gives the bits one pixel alone would. */

typedef float pf4 __attribute__((vector_size(16)));
typedef int32_t pi4 __attribute__((vector_size(16)));

static inline pf4 splat4(float x) { return (pf4){x, x, x, x}; }
static inline pf4 select4(pi4 m, pf4 a, pf4 b) { return (pf4)((m & (pi4)a) | (~m & (pi4)b)); }
static inline pf4 abs4(pf4 a) { return (pf4)((pi4)a & 0x7fffffff); }
#if defined(__SSE2__)
#include <emmintrin.h>
static inline pf4 sqrt4(pf4 a) { return (pf4)_mm_sqrt_ps((__m128)a); }
#else
static inline pf4 sqrt4(pf4 a) {
  for (int i = 0; i < 4; i++) a[i] = sqrtf(a[i]);
  return a;
}
#endif

/* floor_i64 of each lane (|x| well below 2^31 here) */
static inline pi4 floor4(pf4 x) {
  pi4 i = __builtin_convertvector(x, pi4);
  return i + (x < __builtin_convertvector(i, pf4)); /* a true compare is -1 */
}

/* atan2 to about 1e-5 rad (a bucket is 0.017), plain float arithmetic: the same bits on every
 * run, and several times cheaper than libm's. */
static inline pf4 fast_atan2_4(pf4 y, pf4 x) {
  pf4 ax = abs4(x), ay = abs4(y);
  pi4 xbig = ax > ay;
  pf4 hi = select4(xbig, ax, ay), lo = select4(xbig, ay, ax);
  pf4 a = lo / hi, s = a * a;
  pf4 r = ((splat4(-0.0464964749f) * s + 0.15931422f) * s - 0.327622764f) * s * a + a;
  r = select4(ay > ax, 1.57079637f - r, r);
  r = select4(x < 0.0f, 3.14159274f - r, r);
  return select4(y < 0.0f, -r, r);
}

/* acos(x) for x in [0, 1] (Abramowitz and Stegun 4.4.46), about 15 float operations. Checked over
 * every float in [0, 1) against glibc's acosf: they differ by at most 2.4e-7. */
#define ACOS_POLY_ERR 2e-6f /* 8x that: room for a libm a few ulps off glibc's */
static inline pf4 acos_poly4(pf4 x) {
  pf4 p = splat4(-0.0012624911f) * x + 0.0066700901f;
  p = p * x - 0.0170881256f;
  p = p * x + 0.0308918810f;
  p = p * x - 0.0501743046f;
  p = p * x + 0.0889789874f;
  p = p * x - 0.2145988016f;
  p = p * x + 1.5707963050f;
  return sqrt4(1.0f - x) * p;
}

/* The cones of the waiting pixels, blocked. A cone's ends are the buckets floor((angle -+ h) *
 * to_bucket) for h = acosf(cb), the same integers as with libm's acosf, which is called only when
 * the polynomial's h +- its error straddles a bucket's edge (about 1 pixel in 2,000). Exact because
 * every float operation here rounds monotonically: h in [lo, hi] puts each end between the buckets
 * lo and hi give, and where those agree, so does h. */
static void block_lanes(Scan *sc, Probe *pr) {
  uint32_t n = sc->lanes;
  sc->lanes = 0;
  for (uint32_t k = n; k < 4; k++) /* spare lanes repeat the first pixel */
    sc->lane_x[k] = sc->lane_x[0], sc->lane_y[k] = sc->lane_y[0], sc->lane_d[k] = sc->lane_d[0];
  pf4 x = {sc->lane_x[0], sc->lane_x[1], sc->lane_x[2], sc->lane_x[3]};
  pf4 y = {sc->lane_y[0], sc->lane_y[1], sc->lane_y[2], sc->lane_y[3]};
  pf4 d = {sc->lane_d[0], sc->lane_d[1], sc->lane_d[2], sc->lane_d[3]};
  pf4 r = splat4(sc->r), band = splat4(sc->band), tb = splat4(sc->to_bucket);
  pf4 cb = (d * d - r * r + band * band) / (2.0f * band * d);
  pi4 open = cb >= 1.0f; /* the band's edge: no cone */
  cb = select4(cb <= 0.0f, splat4(0.0f), cb);
  pf4 angle = fast_atan2_4(y, x) + sc->m->angle;
  pf4 h = acos_poly4(cb), lo = h - ACOS_POLY_ERR, hi = h + ACOS_POLY_ERR;
  pi4 a0 = floor4((angle - hi) * tb), a1 = floor4((angle - lo) * tb);
  pi4 c0 = floor4((angle + lo) * tb), c1 = floor4((angle + hi) * tb);
  for (uint32_t k = 0; k < n; k++) {
    if (open[k]) continue;
    int32_t b0 = a0[k], b1 = c1[k];
    if (a0[k] != a1[k] || c0[k] != c1[k]) { /* near a bucket's edge: libm decides */
      float half = acosf(cb[k]);
      b0 = (int32_t)floor_i64((angle[k] - half) * sc->to_bucket);
      b1 = (int32_t)floor_i64((angle[k] + half) * sc->to_bucket);
    }
    block(pr->blocked, b0, b1);
  }
}

/* One boundary pixel, its centre at (rx, ry) from the circle's. */
static inline void scan_pixel(Scan *sc, Probe *pr, float rx, float ry) {
  float r = sc->r;
  float dc = sqrtf(rx * rx + ry * ry), d = dc - 0.5f; /* to the pixel's disc */
  if (d > sc->reach || !(d > 0.0f)) return;           /* out of reach, or the centre is inside this pixel */
  if (sc->mode == SCAN_BUCKETS) {
    pr->any = true;
    if (d < r) {
      if (pr->cand_count < CANDIDATES) {
        pr->cand_mask[pr->cand_count] = sc->mi;
        pr->cand_x[pr->cand_count] = rx;
        pr->cand_y[pr->cand_count++] = ry;
      } else {
        pr->cand_overflow = true;
      }
    }
    if (d * sc->m->pixel_size < pr->min_d) {
      pr->min_d = d * sc->m->pixel_size;
      pr->mask = sc->mi;
    }
    /* the directions a move of at most `band` towards which would hit this pixel: a cone,
     * a half plane for a pixel the circle touches, closing to nothing at the band's edge
     * (so far pixels weigh little and near ones decide); block_lanes works them out */
    sc->lane_x[sc->lanes] = rx, sc->lane_y[sc->lanes] = ry, sc->lane_d[sc->lanes] = d;
    if (++sc->lanes == 4) block_lanes(sc, pr);
  } else if (d < r) {
    /* moving by s along n takes the pixel's centre out of the circle grown by the disc's
     * radius when (a - s)^2 + b^2 >= (r + 1/2)^2 */
    float a = rx * sc->n.x + ry * sc->n.y, b = rx * sc->t.x + ry * sc->t.y;
    if (a >= 0.0f || b * b >= sc->big2) return; /* ahead of the way out: moving on would not clear it */
    float s = (a + sqrtf(sc->big2 - b * b)) * sc->m->pixel_size;
    if (s > pr->depth) pr->depth = s;
  }
}

/* Columns xs..xs+63 of each row as one word (bit i: column xs + i), for xs >= -1: the two mask
 * words they straddle, either absent (NULL: column -1, or columns the window does not need). */
typedef struct Strip {
  const uint64_t *lo, *hi; /* in row 0 */
  size_t stride;
  uint32_t sh;
} Strip;

/* The strip of a window's columns x0..x1 and the one either side. */
static inline Strip strip_of(const PixelMask *m, int64_t x0, int64_t x1) {
  int64_t xs = x0 - 1, kl = xs >> 6; /* -1 for xs = -1 */
  Strip st = {NULL, NULL, m->words, (uint32_t)(xs & 63)};
  if (kl >= 0) st.lo = m->bits + kl;
  if ((x1 + 1) >> 6 > kl && kl + 1 < (int64_t)m->words) st.hi = m->bits + kl + 1;
  return st;
}

static inline uint64_t strip_read(const Strip *st, int64_t y) {
  size_t at = (size_t)y * st->stride;
  uint64_t lo = st->lo ? st->lo[at] : 0, hi = st->hi ? st->hi[at] : 0;
  return (lo >> st->sh) | ((hi << 1) << (63 - st->sh)); /* sh = 0 takes nothing of hi */
}

/* The widest window whose rows are read as one strip word each: its columns and the one either
 * side (their neighbours) in 64 bits. */
#define STRIP_MAX_COLUMNS 62

/* Calls visit(context, x, y) for each boundary pixel (x, y) of rows y0..y1, columns x0..x1 (within
 * the mask), row by row and in each row from left to right. A window of at most STRIP_MAX_COLUMNS
 * reads each row once, as one strip word, and finds its boundary pixels with a few word operations;
 * a wider one goes by the mask's words, skipping the rows and words of empty coarse tiles (they
 * hold no boundary pixel: the same pixels in the same order). */
#define FOR_BOUNDARY_PIXELS(m, x0, y0, x1, y1, x, y, ...)                                    \
  do {                                                                                       \
    if ((x1) - (x0) < STRIP_MAX_COLUMNS) {                                                   \
      int64_t xs_ = (x0)-1;                                                                  \
      uint64_t keep_ = (~0ull >> (63 - ((x1) - (x0)))) << 1; /* columns x0..x1 */            \
      Strip st_ = strip_of(m, (x0), (x1));                                                   \
      uint64_t up_ = (y0) > 0 ? strip_read(&st_, (y0)-1) : 0, cur_ = strip_read(&st_, (y0)); \
      for (int64_t y = (y0); y <= (y1); y++) {                                               \
        uint64_t down_ = y + 1 < (int64_t)m->height ? strip_read(&st_, y + 1) : 0;           \
        uint64_t word_ = cur_ & keep_ & ~(up_ & down_ & (cur_ << 1) & (cur_ >> 1));          \
        up_ = cur_, cur_ = down_;                                                            \
        while (word_) {                                                                      \
          int64_t x = xs_ + __builtin_ctzll(word_);                                          \
          word_ &= word_ - 1;                                                                \
          __VA_ARGS__                                                                        \
        }                                                                                    \
      }                                                                                      \
      break;                                                                                 \
    }                                                                                        \
    uint32_t ty_ = UINT32_MAX;                                                               \
    bool tile_row_ = false;                                                                  \
    for (int64_t y = (y0); y <= (y1); y++) {                                                 \
      if ((uint32_t)y / PIXEL_MASK_TILE != ty_) {                                            \
        ty_ = (uint32_t)y / PIXEL_MASK_TILE;                                                 \
        tile_row_ = coarse_row_any(m, ty_, (uint32_t)(x0), (uint32_t)(x1));                  \
      }                                                                                      \
      if (!tile_row_) {                                                                      \
        y = (int64_t)(ty_ + 1) * PIXEL_MASK_TILE - 1;                                        \
        continue;                                                                            \
      }                                                                                      \
      for (uint32_t k_ = (uint32_t)((x0) >> 6); k_ <= (uint32_t)((x1) >> 6); k_++) {         \
        if (!coarse_byte(m, ty_, k_)) continue;                                              \
        uint64_t word_ = boundary_span(m, (uint32_t)y, k_, (x0), (x1));                      \
        while (word_) {                                                                      \
          int64_t x = (int64_t)(k_ << 6) + __builtin_ctzll(word_);                           \
          word_ &= word_ - 1;                                                                \
          __VA_ARGS__                                                                        \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  } while (0)

/* One pass over mask m's boundary pixels in the circle's window. */
static void scan_mask(const PixelMask *m, uint32_t mi, const Window *win, Probe *pr, ScanMode mode) {
  Scan sc = {m, mi, mode, win->r, win->band, win->reach, (win->r + 0.5f) * (win->r + 0.5f), (float)BUCKETS / 6.28318531f, tess_rot_apply_inv(m->q, pr->n), tess_v2(0.0f, 0.0f), 0, {0}, {0}, {0}};
  sc.t = tess_v2_perp(sc.n);
  float ux = win->ux, uy = win->uy;
  FOR_BOUNDARY_PIXELS(m, win->x0, win->y0, win->x1, win->y1, x, y,
                      { scan_pixel(&sc, pr, (float)x + 0.5f - ux, (float)y + 0.5f - uy); });
  if (sc.lanes) block_lanes(&sc, pr);
}

/* The first position in from..end-1 whose bit is `one`, or end. */
static inline uint32_t next_bit(const uint64_t *d, uint32_t from, uint32_t end, bool one) {
  while (from < end) {
    uint32_t k = from >> 6;
    uint64_t w = (one ? d[k] : ~d[k]) & (~0ull << (from & 63));
    if (w) {
      uint32_t p = (k << 6) + (uint32_t)__builtin_ctzll(w);
      return p < end ? p : end;
    }
    from = (k + 1) << 6;
  }
  return end;
}

/* The middle of the widest run of open buckets (wrapping round; of equal runs, the first after the
 * first blocked bucket). False when nothing or everything is blocked. The buckets are laid twice
 * end to end, so that a run across bucket 0 is one run of bits. */
static bool widest_open_arc(Probe *pr) {
  uint64_t d[2 * BUCKET_WORDS + 1];
  memset(d, 0, sizeof d);
  const uint32_t shift = BUCKETS & 63, at = BUCKETS >> 6; /* bucket 0's second copy: bit `shift` of word `at` */
  for (uint32_t k = 0; k < BUCKET_WORDS; k++) {
    uint64_t w = pr->blocked[k];
    d[k] |= w;
    d[k + at] |= w << shift;
    if (shift) d[k + at + 1] |= w >> (64 - shift);
  }
  uint32_t first = next_bit(d, 0, BUCKETS, true);
  if (first == BUCKETS) return false;
  uint32_t best = 0, best_start = 0, end = first + BUCKETS; /* bucket `end` is `first`: blocked, it closes the last run */
  for (uint32_t p = first; p < end;) {
    uint32_t open = next_bit(d, p, end, false);
    if (open == end) break;
    uint32_t shut = next_bit(d, open, end, true);
    if (shut - open > best) {
      best = shut - open;
      best_start = open % BUCKETS;
    }
    p = shut;
  }
  pr->open = best;
  if (best == 0) {
    pr->buried = true;
    return false;
  }
  float mid = ((float)best_start + 0.5f * (float)best) * (6.28318531f / (float)BUCKETS);
  pr->n = tess_v2(cosf(mid), sinf(mid));
  return true;
}

/* The depth from the pixels the first pass kept: the same arithmetic as scan_mask's SCAN_DEPTH. */
static void depth_from_candidates(const TessWorld *w, Probe *pr) {
  uint32_t at_mask = UINT32_MAX;
  TessVec2 n = pr->n, t = n;
  float big2 = 0.0f, pixel = 0.0f;
  for (uint32_t k = 0; k < pr->cand_count; k++) {
    if (pr->cand_mask[k] != at_mask) {
      const PixelMask *m = &w->pmasks[pr->cand_mask[k]];
      at_mask = pr->cand_mask[k];
      n = tess_rot_apply_inv(m->q, pr->n), t = tess_v2_perp(n);
      float rp = pr->r * m->inv_pixel;
      big2 = (rp + 0.5f) * (rp + 0.5f);
      pixel = m->pixel_size;
    }
    float rx = pr->cand_x[k], ry = pr->cand_y[k];
    float a = rx * n.x + ry * n.y, b = rx * t.x + ry * t.y;
    if (a >= 0.0f || b * b >= big2) continue;
    float s = (a + sqrtf(big2 - b * b)) * pixel;
    if (s > pr->depth) pr->depth = s;
  }
}

/* A mask's window that a test just before the probe worked out for the same circle (pixel_within): the
 * probe takes it rather than working it out again. */
typedef struct Known {
  uint32_t mask;
  Window win;
} Known;

static inline bool window_of(const TessWorld *w, uint32_t i, TessVec2 c, float r, const Known *known, Window *win) {
  if (known && known->mask == i) {
    *win = known->win;
    return true;
  }
  return window(&w->pmasks[i], c, r, win);
}

/* `known` may be NULL. */
static bool probe(const TessWorld *w, TessVec2 c, float r, Probe *pr, Sel sel, const Known *known) {
  bool started = false;
  for (uint32_t i = sel.first; i < sel.end; i++) {
    Window win;
    if (skips(&w->pmasks[i], sel) || !window_of(w, i, c, r, known, &win)) continue;
    if (!started) {                              /* most circles see no mask: they never pay for this */
      memset(pr, 0, offsetof(Probe, cand_mask)); /* the scalars and buckets; the candidates are counted */
      pr->c = c;
      pr->r = r;
      pr->min_d = FLT_MAX;
      started = true;
    }
    scan_mask(&w->pmasks[i], i, &win, pr, SCAN_BUCKETS);
  }
  if (!started) {
    pr->any = pr->buried = false;
    pr->mask = 0;
    return false;
  }
  if (!pr->any || !widest_open_arc(pr)) return false;
  if (!pr->cand_overflow) {
    depth_from_candidates(w, pr);
    return true;
  }
  for (uint32_t i = sel.first; i < sel.end; i++) {
    Window win;
    if (!skips(&w->pmasks[i], sel) && window_of(w, i, c, r, known, &win)) scan_mask(&w->pmasks[i], i, &win, pr, SCAN_DEPTH);
  }
  return true;
}

TessPixelMaskHit tess_world_pixel_mask_probe(const TessWorld *w, TessVec2 center, float radius) {
  TessPixelMaskHit h;
  memset(&h, 0, sizeof h);
  if (!tess_v2_is_finite(center) || !(radius > 0.0f) || !isfinite(radius)) return h;
  Probe pr;
  bool found = probe(w, center, radius, &pr, all_masks(w), NULL);
  h.hit = pr.any;
  h.buried = pr.buried;
  h.mask = pr.mask;
  if (found) {
    h.normal = pr.n;
    h.depth = pr.depth;
    h.open_arc = pr.open;
  }
  return h;
}

/* ---- The response ---------------------------------------------------------- */

static void apply_impulse(Body *b, TessVec2 ra, TessVec2 impulse) {
  b->v = tess_v2_mul_add(b->v, b->inv_mass, impulse);
  b->w += b->inv_inertia * tess_v2_cross(ra, impulse);
}

static TessVec2 point_velocity(const Body *b, TessVec2 ra) { return tess_v2_add(b->v, tess_v2_cross_sv(b->w, ra)); }

/* The point's velocity relative to a surface moving at vs (at rest: the point's own, untouched). */
static TessVec2 relative_velocity(const Body *b, TessVec2 ra, bool moving, TessVec2 vs) {
  TessVec2 v = point_velocity(b, ra);
  return moving ? tess_v2_sub(v, vs) : v;
}

/* Moves the body (and its circle) by d. */
static void shift_body(Body *b, TessVec2 d) {
  b->center = tess_v2_add(b->center, d);
  b->xf.p = tess_v2_add(b->xf.p, d);
}

/* Velocity into the surface turned round (impact) or removed (resting), the tangential
 * efficiency at an impact, then Coulomb friction up to mu times the normal impulse. Returns
 * the restitution used (0 without a bounce). The circle's and the mask's surfaces combine as
 * every other contact's do (DESIGN.md). */
static float respond(const TessWorld *w, Body *b, const Shape *s, const Probe *pr, float depth) {
  TessSurface own = {s->friction, s->restitution, s->tangential};
  TessSurface mix = tess_surface_mix(own, w->pmasks[pr->mask].surface);
  TessVec2 n = pr->n, t = tess_v2_perp(n);
  TessVec2 at = tess_v2_mul_add(pr->c, -pr->r, n), ra = tess_v2_sub(at, b->center);
  const PixelMask *m = &w->pmasks[pr->mask];
  TessVec2 vs = tess_v2(0.0f, 0.0f); /* the surface's own velocity there */
  if (m->moving) {
    vs = tess_v2_add(m->body_v, tess_v2_cross_sv(m->body_w, tess_v2_sub(at, m->body_center)));
    b->sleep_time = 0.0f; /* carried: it must not fall asleep on a moving surface */
  }
  float vn = tess_v2_dot(relative_velocity(b, ra, m->moving, vs), n);
  if (vn >= 0.0f) return 0.0f; /* leaving already */
  float rn = tess_v2_cross(ra, n), rt = tess_v2_cross(ra, t);
  float kn = b->inv_mass + b->inv_inertia * rn * rn, kt = b->inv_mass + b->inv_inertia * rt * rt;
  float approach = -vn, e = mix.restitution, target = 0.0f;
  bool impact = approach > w->def.restitution_threshold;
  if (impact && e > 0.0f) {
    /* the step ends `depth` past the surface: the speed at the moment of impact, then what is
     * left of e times it when the circle is back out at e times that depth (energy, under the
     * body's own acceleration along the normal) */
    float acc = -tess_v2_dot(tess_v2_scale(b->gravity_scale, w->def.gravity), n);
    float meet2 = approach * approach - 2.0f * acc * depth;
    float out2 = e * e * (meet2 > 0.0f ? meet2 : 0.0f) - 2.0f * acc * e * depth;
    target = out2 > 0.0f ? sqrtf(out2) : 0.0f;
  }
  float jn = (target - vn) / kn;
  apply_impulse(b, ra, tess_v2_scale(jn, n));
  float vt = tess_v2_dot(relative_velocity(b, ra, m->moving, vs), t);
  if (impact && mix.tangential < 1.0f) {
    float jt = (mix.tangential - 1.0f) * vt / kt;
    apply_impulse(b, ra, tess_v2_scale(jt, t));
    vt = tess_v2_dot(relative_velocity(b, ra, m->moving, vs), t);
  }
  float jt = -vt / kt, limit = mix.friction * jn;
  if (jt > limit) jt = limit;
  if (jt < -limit) jt = -limit;
  apply_impulse(b, ra, tess_v2_scale(jt, t));
  return target > 0.0f ? e : 0.0f;
}

/* A circle that moved more than half its radius this step is walked along its path first:
 * the first sample that sits deep in the pixels is where it met them (a thin wall is never
 * crossed in one step, the seed's max dt = (r - eps) / |v| bound done by sampling). */
/* Whether any mask has a solid pixel in the world box lo..hi (grown by a pixel). One pass over
 * the words under the box: a falling circle's path through open air costs this, not a probe per
 * sample. */
static bool any_solid(const TessWorld *w, TessVec2 lo, TessVec2 hi, Sel sel) {
  for (uint32_t i = sel.first; i < sel.end; i++) {
    const PixelMask *m = &w->pmasks[i];
    if (m->removed || skips(m, sel) || !tess_aabb_overlaps((TessAABB){lo, hi}, m->bounds)) continue;
    float lx, ly, hx, hy;
    if (m->q.c == 1.0f && m->q.s == 0.0f) { /* unturned: the box's corners stay its corners */
      lx = (lo.x - m->origin.x) * m->inv_pixel, ly = (lo.y - m->origin.y) * m->inv_pixel;
      hx = (hi.x - m->origin.x) * m->inv_pixel, hy = (hi.y - m->origin.y) * m->inv_pixel;
    } else {
      TessVec2 c[4] = {lo, hi, tess_v2(lo.x, hi.y), tess_v2(hi.x, lo.y)};
      lx = ly = FLT_MAX, hx = hy = -FLT_MAX;
      for (int k = 0; k < 4; k++) {
        TessVec2 u = tess_v2_scale(m->inv_pixel, tess_rot_apply_inv(m->q, tess_v2_sub(c[k], m->origin)));
        lx = min_f(lx, u.x), ly = min_f(ly, u.y), hx = max_f(hx, u.x), hy = max_f(hy, u.y);
      }
    }
    if (hx < -1.0f || hy < -1.0f || lx > (float)m->width + 1.0f || ly > (float)m->height + 1.0f) continue;
    int64_t x0 = floor_i64(lx) - 1, x1 = floor_i64(hx) + 1, y0 = floor_i64(ly) - 1, y1 = floor_i64(hy) + 1;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 >= (int64_t)m->width) x1 = (int64_t)m->width - 1;
    if (y1 >= (int64_t)m->height) y1 = (int64_t)m->height - 1;
    if (!coarse_box_any(m, x0, y0, x1, y1)) continue; /* most paths through open air stop here */
    for (int64_t y = y0; y <= y1; y++) {
      uint32_t ty = (uint32_t)y / PIXEL_MASK_TILE;
      if (!coarse_row_any(m, ty, (uint32_t)x0, (uint32_t)x1)) { /* a row of empty tiles: its 8 rows are empty */
        y = (int64_t)(ty + 1) * PIXEL_MASK_TILE - 1;
        continue;
      }
      const uint64_t *row = mask_row(m, (uint32_t)y);
      for (uint32_t k = (uint32_t)(x0 >> 6); k <= (uint32_t)(x1 >> 6); k++) {
        uint64_t word = row[k];
        if (k == (uint32_t)(x0 >> 6)) word &= ~0ull << (x0 & 63);
        if (k == (uint32_t)(x1 >> 6)) word &= ~0ull >> (63 - (x1 & 63));
        if (word) return true;
      }
    }
  }
  return false;
}

/* What a probe of the step must find to matter: a pixel it touches (a response), or, for a sample
 * of a fast circle's path, one that could make it deep. */
typedef enum Need { NEED_TOUCH,
                    NEED_DEEP } Need;

/* Whether some boundary pixel of a mask lies near enough a circle at c of radius r for a probe
 * there to matter; a pass over the pixels under a box no wider than the circle, with no square
 * roots and no cones. Where it says no, the probe would say the same: it only spares the work.
 *  - NEED_TOUCH: a response needs a pixel whose disc is within the slop of the circle (min_d <= r
 *    + slop) or inside it (a depth): every pixel centre is then within r + slop + 1/2 pixel.
 *  - NEED_DEEP: the depth comes from pixels inside the circle, each asking a move along the normal
 *    below sqrt((r + 1/2)^2 - dc^2) for its centre dc from the circle's (a pixel at the side asks
 *    most), so a depth past DEEP r needs a centre with dc^2 < (r + 1/2)^2 - (DEEP r)^2.
 * Both limits are widened a little, so that float rounding in the probe cannot cross them. */
static bool pixel_within(const TessWorld *w, const PixelMask *m, TessVec2 c, float rw, Need need, Window *window_out) {
  {
    Window win;
    if (!window(m, c, rw, &win)) return false;
    *window_out = win;
    float big = win.r + 0.5f, lim2;
    if (need == NEED_TOUCH) {
      float lim = ((rw + w->def.linear_slop) * m->inv_pixel + 0.5f) * 1.001f + 0.01f;
      lim2 = lim * lim;
    } else {
      float deep = DEEP * win.r;
      lim2 = big * big - deep * deep * 0.99f + 0.01f;
    }
    float lim = sqrtf(lim2);
    int64_t x0 = floor_i64(win.ux - lim - 0.5f), x1 = floor_i64(win.ux + lim);
    int64_t y0 = floor_i64(win.uy - lim - 0.5f), y1 = floor_i64(win.uy + lim);
    if (x0 < win.x0) x0 = win.x0;
    if (y0 < win.y0) y0 = win.y0;
    if (x1 > win.x1) x1 = win.x1;
    if (y1 > win.y1) y1 = win.y1;
    if (x0 > x1 || y0 > y1) return false;
    FOR_BOUNDARY_PIXELS(m, x0, y0, x1, y1, x, y, {
      float rx = (float)x + 0.5f - win.ux, ry = (float)y + 0.5f - win.uy;
      if (rx * rx + ry * ry <= lim2) return true;
    });
  }
  return false;
}

/* On true, `known` holds the window of the mask that said so. */
static bool any_pixel_within(const TessWorld *w, TessVec2 c, float rw, Need need, Sel sel, Known *known) {
  for (uint32_t i = sel.first; i < sel.end; i++)
    if (!skips(&w->pmasks[i], sel) && pixel_within(w, &w->pmasks[i], c, rw, need, &known->win)) {
      known->mask = i;
      return true;
    }
  return false;
}

/* The path from..to against the masks `sel`; true when a sample stopped the circle there. */
static bool sweep_along(const TessWorld *w, Body *b, TessVec2 from, TessVec2 to, float r, Sel sel) {
  TessVec2 path = tess_v2_sub(to, from);
  float spacing = 0.5f * r, len2 = tess_v2_length_sq(path);
  if (len2 < 0.99f * spacing * spacing) return false; /* the length below is short too: no square root for most */
  float len = sqrtf(len2);
  if (!(len > spacing)) return false;
  /* a sample stops the circle only where pixels lie within r of it */
  TessVec2 grow = tess_v2(r, r);
  TessVec2 lo = tess_v2(min_f(from.x, to.x), min_f(from.y, to.y)), hi = tess_v2(max_f(from.x, to.x), max_f(from.y, to.y));
  if (!any_solid(w, tess_v2_sub(lo, grow), tess_v2_add(hi, grow), sel))
    return false;
  uint32_t n = (uint32_t)ceilf(len / spacing);
  if (n > 1024) n = 1024;
  for (uint32_t i = 1; i < n; i++) {
    TessVec2 at = tess_v2_mul_add(from, (float)i / (float)n, path);
    Probe pr;
    Known known;
    if (any_pixel_within(w, at, r, NEED_DEEP, sel, &known) && probe(w, at, r, &pr, sel, &known) && pr.depth > DEEP * r) {
      shift_body(b, tess_v2_sub(at, to));
      return true;
    }
  }
  return false;
}

/* The masks at rest see the path in the world; a moving mask sees it in its own frame, from where
 * the start was relative to the mask before the step (else a circle carried along with the mask
 * would meet the pixels that have moved into its path behind it). */
static void sweep_path(const TessWorld *w, Body *b, TessVec2 from, TessVec2 to, float r, bool any_moving) {
  if (sweep_along(w, b, from, to, r, (Sel){0, w->pmask_count, !any_moving})) return;
  for (uint32_t i = 0; any_moving && i < w->pmask_count; i++) {
    const PixelMask *m = &w->pmasks[i];
    if (!m->moving || m->removed) continue;
    TessVec2 rel = tess_rot_apply(m->q, tess_rot_apply_inv(m->prev_q, tess_v2_sub(from, m->prev_origin)));
    if (sweep_along(w, b, tess_v2_add(m->origin, rel), to, r, (Sel){i, i + 1, true})) return;
  }
}

/* ---- A circle's room ----------------------------------------------------------
 * Most circles of a rain or a pile are nowhere near a boundary pixel, step after step: a resting
 * ball on top of others, one falling through open air. Each circle keeps the room it had when it was
 * last found clear (PixelMaskRoom): while its path stays inside it, the look at the pixels is
 * skipped, because it would find nothing; the room is worked out again where it runs out. */

#define ROOM_FAR 64.0f                      /* pixels: first asked of the coarse tiles (a circle in open air) */
#define ROOM_NEAR_PIXELS 16                 /* an int, for the static assertion below (C11 wants integers there) */
#define ROOM_NEAR ((float)ROOM_NEAR_PIXELS) /* pixels: else of the boundary pixels themselves */
/* A pixel_within test (NEED_TOUCH, the wider limit; NEED_DEEP's is narrower) finds a boundary pixel
 * centre within ((r + slop) / pixel + 1/2) 1.001 + 0.01 pixels: so its disc of half a pixel within (r +
 * slop) 1.001 + 0.0105 pixels. The room counts to the discs less ROOM_SLACK pixels, more than float
 * rounding could move a centre or a distance here (about 1e-3 pixel on the largest masks), and
 * circles test their need with 1.002, not 1.001. */
#define ROOM_SLACK 0.05f

/* The nearest boundary pixel centre to (ux, uy) among rows y0..y1, columns x0..x1 of mask m (fewer than
 * STRIP_MAX_COLUMNS), as a squared distance in pixels, or `best` if none is nearer. Rows go out from
 * the centre's and stop where the row alone is farther than the best; in a row only the boundary
 * pixels either side of the centre's column can be the nearest. */
static float nearest_boundary2(const PixelMask *m, float ux, float uy, int64_t x0, int64_t y0, int64_t x1, int64_t y1, float best) {
  Strip st = strip_of(m, x0, x1);
  int64_t xs = x0 - 1, cu = floor_i64(ux) - xs; /* the centre's column, as a bit of the strip */
  uint64_t keep = (~0ull >> (63 - (x1 - x0))) << 1;
  uint64_t left = cu < 0 ? 0 : cu >= 63 ? ~0ull
                                        : (2ull << cu) - 1,
           right = cu < 0 ? ~0ull : cu > 63 ? 0
                                            : ~0ull << cu;
  int64_t yc = floor_i64(uy);
  yc = yc < y0 ? y0 : yc > y1 ? y1
                              : yc;
  for (int dir = 1; dir >= -1; dir -= 2) {
    for (int64_t y = dir > 0 ? yc : yc - 1; y >= y0 && y <= y1; y += dir) {
      float ry = (float)y + 0.5f - uy;
      if (ry * ry >= best) break;
      uint64_t cur = strip_read(&st, y), up = y > 0 ? strip_read(&st, y - 1) : 0;
      uint64_t down = y + 1 < (int64_t)m->height ? strip_read(&st, y + 1) : 0;
      uint64_t word = cur & keep & ~(up & down & (cur << 1) & (cur >> 1));
      uint64_t l = word & left, r = word & right;
      if (l) {
        float rx = (float)(xs + 63 - __builtin_clzll(l)) + 0.5f - ux;
        best = min_f(best, rx * rx + ry * ry);
      }
      if (r) {
        float rx = (float)(xs + __builtin_ctzll(r)) + 0.5f - ux;
        best = min_f(best, rx * rx + ry * ry);
      }
    }
  }
  return best;
}

/* The room of the point c (world) from mask m's boundary pixel discs, in metres: at most ROOM_FAR pixels
 * (a bound, not the distance: only what can be told cheaply). */
static float mask_room(const PixelMask *m, TessVec2 c) {
  if (m->removed) return FLT_MAX;
  float px = m->pixel_size;
  /* the mask's box holds its pixels: the distance to it bounds theirs */
  float gx = max_f(m->bounds.lower.x - c.x, c.x - m->bounds.upper.x), gy = max_f(m->bounds.lower.y - c.y, c.y - m->bounds.upper.y);
  float off = max_f(gx, gy);
  if (off > ROOM_FAR * px) return off - (0.5f + ROOM_SLACK) * px;
  TessVec2 lc = tess_rot_apply_inv(m->q, tess_v2_sub(c, m->origin));
  float ux = lc.x * m->inv_pixel, uy = lc.y * m->inv_pixel, clear = ROOM_NEAR;
  for (int pass = 0; pass < 2; pass++) {
    float h = pass ? ROOM_FAR : ROOM_NEAR;
    /* the pixels whose centres may lie within h of (ux, uy), clipped to the mask */
    int64_t x0 = floor_i64(ux - h - 0.5f), x1 = floor_i64(ux + h), y0 = floor_i64(uy - h - 0.5f), y1 = floor_i64(uy + h);
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 >= (int64_t)m->width) x1 = (int64_t)m->width - 1;
    if (y1 >= (int64_t)m->height) y1 = (int64_t)m->height - 1;
    if (!coarse_box_any(m, x0, y0, x1, y1)) { /* no solid pixel at all there */
      clear = h;
      continue;
    }
    if (!pass) clear = sqrtf(nearest_boundary2(m, ux, uy, x0, y0, x1, y1, ROOM_NEAR * ROOM_NEAR));
    break;
  }
  return (clear - 0.5f - ROOM_SLACK) * px;
}

_Static_assert(2 * ROOM_NEAR_PIXELS + 2 < STRIP_MAX_COLUMNS, "a near room's columns are read as one strip word a row");

/* Works out the circle's room at c (awake circles only: their masks are at rest this step). */
static void room_at(const TessWorld *w, PixelMaskRoom *room, TessVec2 c) {
  float least = FLT_MAX;
  for (uint32_t i = 0; i < w->pmask_count; i++) least = min_f(least, mask_room(&w->pmasks[i], c));
  *room = (PixelMaskRoom){c.x, c.y, least, w->pmask_epoch};
}

/* Whether a circle at p that looks `need` metres about it stays inside the room. */
static inline bool in_room(const PixelMaskRoom *room, TessVec2 p, float need) {
  float dx = p.x - room->x, dy = p.y - room->y, left = room->room - need;
  return left > 0.0f && dx * dx + dy * dy < left * left;
}

void physics_pixel_masks_changed(TessWorld *w) {
  if (++w->pmask_epoch == 0) { /* after 2^32 changes: no room from before may pass for new */
    if (w->pmask_room) memset(w->pmask_room, 0, (size_t)w->pmask_room_cap * sizeof *w->pmask_room);
    w->pmask_epoch = 1;
  }
}

/* The rooms of the world's shape slots, grown with them (NULL, and no rooms kept, if out of memory). */
static PixelMaskRoom *rooms(TessWorld *w) {
  uint32_t old = w->pmask_room_cap;
  if (!PHYS_GROW(w->pmask_room, &w->pmask_room_cap, w->shape_count)) return NULL;
  if (w->pmask_room_cap > old) memset(w->pmask_room + old, 0, (size_t)(w->pmask_room_cap - old) * sizeof *w->pmask_room);
  return w->pmask_room;
}

/* A room's mark for a circle that touched the pixels in its last step: it most likely touches them
 * again, so the next step probes at once, without the test whether any pixel is near (that test only
 * spares a probe that would find nothing to answer; the probe gives the same answer without it). */
#define ROOM_TOUCHING (-1.0f)

/* Whether the circle's path in this step stays inside its room (room may be NULL: none kept). */
static inline bool stays_in_room(const TessWorld *w, const Body *b, const Shape *s, const PixelMaskRoom *room) {
  if (!room || room->epoch != w->pmask_epoch || room->room == ROOM_TOUCHING) return false;
  TessVec2 local = s->poly.v[0];
  /* every sample of the path and the test in circle_against_masks look at most this far */
  float need = (s->poly.radius + w->def.linear_slop) * 1.002f;
  return in_room(room, tess_transform_point(b->xf, local), need) && in_room(room, tess_transform_point(b->xf_prev, local), need);
}

/* `room` is the circle's (NULL: kept by none, as when a mask moves in this step). */
static void circle_against_masks(TessWorld *w, Body *b, const Shape *s, bool any_moving, PixelMaskRoom *room) {
  TessVec2 local = s->poly.v[0];
  float r = s->poly.radius;
  bool touched = room && room->epoch == w->pmask_epoch && room->room == ROOM_TOUCHING;
  sweep_path(w, b, tess_transform_point(b->xf_prev, local), tess_transform_point(b->xf, local), r, any_moving);
  TessVec2 c = tess_transform_point(b->xf, local);
  Known known;
  if (!touched && !any_pixel_within(w, c, r, NEED_TOUCH, all_masks(w), &known)) { /* not touching: no response */
    if (room) room_at(w, room, c);
    return;
  }
  Probe pr;
  float slop = w->def.linear_slop;
  if (!probe(w, c, r, &pr, all_masks(w), touched ? NULL : &known)) { /* nothing near enough to answer */
    if (room) room_at(w, room, c);
    return;
  }
  if (pr.min_d > r + slop && pr.depth <= 0.0f) { /* near, not touching: no room worth keeping */
    if (room) room->epoch = 0;
    return;
  }
  if (room) *room = (PixelMaskRoom){c.x, c.y, ROOM_TOUCHING, w->pmask_epoch};
  float e = respond(w, b, s, &pr, pr.depth);
  if (pr.depth > 0.0f) shift_body(b, tess_v2_scale(pr.depth * (1.0f + e), pr.n));
}

/* The body mask m is laid on, or NULL (none, or gone: a body destroyed from a callback is still
 * there until the step's end, and so is its mask). */
static Body *mask_body(const TessWorld *w, const PixelMask *m) {
  if (tess_body_id_is_null(m->body) || m->body.index1 > w->body_count) return NULL;
  Body *b = &w->bodies[m->body.index1 - 1];
  return b->in_use && b->generation == m->body.generation ? b : NULL;
}

static void lay_on(PixelMask *m, TessTransform xf); /* below, with the masks */

/* Masks on kinematic bodies are laid where the solver has taken their bodies; true if any moved. */
static bool follow_kinematic(TessWorld *w) {
  bool any = false;
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    PixelMask *m = &w->pmasks[i];
    m->moving = 0;
    const Body *b = m->removed ? NULL : mask_body(w, m);
    if (!b || b->type != TESS_BODY_KINEMATIC || (b->v.x == 0.0f && b->v.y == 0.0f && b->w == 0.0f)) continue;
    m->prev_origin = m->origin;
    m->prev_q = m->q;
    lay_on(m, b->xf);
    m->moving = 1;
    m->body_v = b->v;
    m->body_w = b->w;
    m->body_center = b->center;
    any = true;
  }
  return any;
}

void physics_pixel_masks_step(TessWorld *w, float dt) {
  (void)dt;
  if (w->pmask_count == 0) return;
  bool any_moving = follow_kinematic(w);
  if (any_moving) physics_pixel_masks_changed(w);
  PixelMaskRoom *room = any_moving ? NULL : rooms(w); /* a moving mask's pixels meet paths in its own frame */
  for (uint32_t i = 0; i < w->body_count; i++) {
    Body *b = &w->bodies[i];
    if (!b->in_use || b->type != TESS_BODY_DYNAMIC || !b->awake) continue;
    for (uint32_t si = b->shape_head; si != TESS_NULL_INDEX; si = w->shapes[si].next) {
      const Shape *s = &w->shapes[si];
      if (s->type != TESS_SHAPE_CIRCLE || s->sensor || stays_in_room(w, b, s, room ? room + si : NULL)) continue;
      circle_against_masks(w, b, s, any_moving, room ? room + si : NULL);
    }
  }
}

/* ---- The masks --------------------------------------------------------------- */

void tess_pixel_mask_def_default(TessPixelMaskDef *def) {
  memset(def, 0, sizeof *def);
  def->pixel_size = 1.0f / 32.0f;
  def->surface = tess_surface_default();
}

/* The world box of the mask's rectangle of pixels, grown by two pixels (any_solid looks a pixel
 * or two past its box) and by float rounding far from the origin. */
static void set_bounds(PixelMask *m) {
  float wd = (float)m->width * m->pixel_size, ht = (float)m->height * m->pixel_size;
  TessVec2 corners[3] = {tess_v2(wd, 0.0f), tess_v2(0.0f, ht), tess_v2(wd, ht)};
  TessAABB b = {m->origin, m->origin};
  for (int k = 0; k < 3; k++) {
    TessVec2 p = tess_v2_add(m->origin, tess_rot_apply(m->q, corners[k]));
    b.lower = tess_v2_min(b.lower, p);
    b.upper = tess_v2_max(b.upper, p);
  }
  float far = fmaxf(fmaxf(fabsf(b.lower.x), fabsf(b.upper.x)), fmaxf(fabsf(b.lower.y), fabsf(b.upper.y)));
  float grow = 2.0f * m->pixel_size + 1e-5f * far;
  b.lower = tess_v2_sub(b.lower, tess_v2(grow, grow));
  b.upper = tess_v2_add(b.upper, tess_v2(grow, grow));
  m->bounds = b;
}

/* Lays a body's mask by the body's transform. With no turn of its own its angle is atan2 of the
 * body's rotation, which is the angle a world mask made at the body's angle gets (the scene's
 * masks were once laid so; the same bits). */
static void lay_on(PixelMask *m, TessTransform xf) {
  TessRot q = m->local_angle == 0.0f ? xf.q : tess_rot_mul(xf.q, tess_rot(m->local_angle));
  m->angle = atan2f(q.s, q.c);
  m->q = m->angle == 0.0f ? tess_rot_identity() : tess_rot(m->angle);
  m->origin = tess_transform_point(xf, m->local_origin);
  set_bounds(m);
}

TessResult tess_world_add_pixel_mask(TessWorld *w, const TessPixelMaskDef *def, uint32_t *index_out,
                                     TessError *err) {
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "pixel mask", "cannot add a mask during a step");
  if (def->width == 0 || def->height == 0 || def->width > TESS_PIXEL_MASK_MAX_SIDE ||
      def->height > TESS_PIXEL_MASK_MAX_SIDE)
    return tess_error_set(err, TESS_ERR_LIMIT, "pixel mask", "mask of %u x %u pixels: each side must be 1..%u",
                          def->width, def->height, TESS_PIXEL_MASK_MAX_SIDE);
  if (!isfinite(def->pixel_size) || !(def->pixel_size > 0.0f) || !tess_v2_is_finite(def->origin) ||
      !isfinite(def->angle))
    return tess_error_set(err, TESS_ERR_INVALID, "pixel mask",
                          "pixel size must be finite and > 0, origin and angle finite");
  TessResult r = tess_surface_check(def->surface, "pixel mask", "pixel mask", err);
  if (r != TESS_OK) return r;
  const Body *body = NULL;
  if (!tess_body_id_is_null(def->body)) {
    body = physics_body_get(w, def->body);
    if (!body || body->type == TESS_BODY_DYNAMIC)
      return tess_error_set(err, TESS_ERR_INVALID, "pixel mask",
                            "body %u is not a live static or kinematic body: a mask follows only those",
                            def->body.index1 ? def->body.index1 - 1 : 0);
  }
  if (!PHYS_GROW(w->pmasks, &w->pmask_cap, w->pmask_count + 1))
    return tess_error_set(err, TESS_ERR_NOMEM, "pixel mask", "out of memory");
  PixelMask m;
  memset(&m, 0, sizeof m);
  m.width = def->width;
  m.height = def->height;
  m.words = (def->width + 63) / 64;
  m.pixel_size = def->pixel_size;
  m.inv_pixel = 1.0f / def->pixel_size;
  m.origin = def->origin;
  m.angle = atan2f(sinf(def->angle), cosf(def->angle)); /* in [-pi, pi]: a bucket index stays within a turn */
  m.q = def->angle == 0.0f ? tess_rot_identity() : tess_rot(m.angle);
  m.body = body ? def->body : (TessBodyId){0, 0};
  m.local_origin = def->origin;
  m.local_angle = def->angle;
  if (body) lay_on(&m, body->xf);
  else set_bounds(&m);
  m.surface = def->surface;
  m.user_data = def->user_data;
  m.bits = tess_calloc((size_t)m.words * m.height, sizeof(uint64_t));
  m.coarse_words = (m.words + 7) / 8;
  m.coarse_rows = (m.height + PIXEL_MASK_TILE - 1) / PIXEL_MASK_TILE;
  m.coarse = m.bits ? tess_calloc((size_t)m.coarse_words * m.coarse_rows, sizeof(uint64_t)) : NULL;
  if (!m.bits || !m.coarse) {
    tess_free(m.bits);
    return tess_error_set(err, TESS_ERR_NOMEM, "pixel mask", "out of memory");
  }
  if (def->bits) {
    size_t stride = (def->width + 7) / 8;
    for (uint32_t y = 0; y < m.height; y++) {
      const uint8_t *src = def->bits + (size_t)y * stride;
      uint64_t *row = m.bits + (size_t)y * m.words;
      for (size_t i = 0; i < stride; i++) row[i >> 3] |= (uint64_t)src[i] << (8 * (i & 7));
      if (def->width & 63) row[m.words - 1] &= ~0ull >> (64 - (def->width & 63)); /* keep bits past the width 0 */
    }
    physics_pixel_mask_coarse_update(&m, 0, m.words - 1, 0, m.height - 1);
  }
  w->pmasks[w->pmask_count] = m;
  if (index_out) *index_out = w->pmask_count;
  w->pmask_count++;
  physics_pixel_masks_changed(w);
  return TESS_OK;
}

uint32_t tess_world_pixel_mask_count(const TessWorld *w) { return w->pmask_count; }

bool tess_pixel_mask_info(const TessWorld *w, uint32_t mask, TessPixelMaskInfo *out) {
  if (mask >= w->pmask_count) return false;
  const PixelMask *m = &w->pmasks[mask];
  out->width = m->width;
  out->height = m->height;
  out->pixel_size = m->pixel_size;
  out->origin = m->origin;
  out->angle = m->angle;
  out->surface = m->surface;
  out->user_data = m->user_data;
  out->edits = m->edits;
  out->body = m->body;
  out->bounds = m->bounds;
  out->removed = m->removed;
  return true;
}

bool tess_pixel_mask_get(const TessWorld *w, uint32_t mask, uint32_t x, uint32_t y) {
  if (mask >= w->pmask_count) return false;
  const PixelMask *m = &w->pmasks[mask];
  return x < m->width && y < m->height && mask_bit(m, x, y);
}

size_t tess_pixel_mask_copy_bits(const TessWorld *w, uint32_t mask, uint8_t *out, size_t size) {
  if (mask >= w->pmask_count) return 0;
  const PixelMask *m = &w->pmasks[mask];
  size_t stride = (m->width + 7) / 8, need = stride * m->height;
  if (!out || size < need) return need;
  for (uint32_t y = 0; y < m->height; y++) {
    const uint64_t *row = mask_row(m, y);
    for (size_t i = 0; i < stride; i++) out[(size_t)y * stride + i] = (uint8_t)(row[i >> 3] >> (8 * (i & 7)));
  }
  return need;
}

size_t tess_pixel_mask_memory_bytes(const TessWorld *w, uint32_t mask) {
  if (mask >= w->pmask_count) return 0;
  const PixelMask *m = &w->pmasks[mask];
  return (size_t)m->words * m->height * sizeof(uint64_t);
}

/* Sleeping bodies whose box reaches the changed pixels wake, so a carved floor drops them. */
static void wake_over(TessWorld *w, TessAABB box) {
  for (uint32_t i = 0; i < w->body_count; i++) {
    Body *b = &w->bodies[i];
    if (!b->in_use || b->type != TESS_BODY_DYNAMIC || b->awake) continue;
    for (uint32_t si = b->shape_head; si != TESS_NULL_INDEX; si = w->shapes[si].next) {
      TessAABB a = physics_poly_aabb(&w->shapes[si].poly, b->xf);
      a.lower = tess_v2_sub(a.lower, tess_v2(w->def.linear_slop, w->def.linear_slop));
      a.upper = tess_v2_add(a.upper, tess_v2(w->def.linear_slop, w->def.linear_slop));
      if (tess_aabb_overlaps(a, box)) {
        b->awake = 1;
        b->sleep_time = 0.0f;
        break;
      }
    }
  }
}

void physics_pixel_masks_body_moved(TessWorld *w, TessBodyId id) {
  const Body *b = physics_body_get(w, id);
  for (uint32_t i = 0; b && i < w->pmask_count; i++) {
    PixelMask *m = &w->pmasks[i];
    if (!tess_body_id_equal(m->body, id)) continue;
    TessAABB old = m->bounds;
    lay_on(m, b->xf);
    physics_pixel_masks_changed(w);
    wake_over(w, old); /* what rested on it falls */
    wake_over(w, m->bounds);
  }
}

/* A mask stops colliding: what rested on it wakes and falls. */
static void remove_now(TessWorld *w, PixelMask *m) {
  m->remove_pending = 0;
  if (m->removed) return;
  m->removed = 1;
  physics_pixel_masks_changed(w);
  wake_over(w, m->bounds);
}

TessResult tess_world_remove_pixel_mask(TessWorld *w, uint32_t mask) {
  if (mask >= w->pmask_count || w->pmasks[mask].removed) return TESS_ERR_NOT_FOUND;
  if (w->locked)
    w->pmasks[mask].remove_pending = 1; /* the step reading the masks finishes with it */
  else
    remove_now(w, &w->pmasks[mask]);
  return TESS_OK;
}

void physics_pixel_masks_body_destroyed(TessWorld *w, TessBodyId id) {
  for (uint32_t i = 0; i < w->pmask_count; i++)
    if (tess_body_id_equal(w->pmasks[i].body, id)) remove_now(w, &w->pmasks[i]);
}

/* A mask that moved in the step wakes the sleeping circles it touches now or touched before (it
 * came into them, or went from under them). Only circles meet masks; the test is the pixels', so
 * bodies asleep on other ground inside a large moving mask's box sleep on. */
static void wake_touching(TessWorld *w, const PixelMask *now) {
  PixelMask then = *now; /* the same bits where they were */
  then.origin = now->prev_origin;
  then.q = now->prev_q;
  set_bounds(&then);
  TessAABB box = {tess_v2_min(now->bounds.lower, then.bounds.lower), tess_v2_max(now->bounds.upper, then.bounds.upper)};
  for (uint32_t i = 0; i < w->body_count; i++) {
    Body *b = &w->bodies[i];
    if (!b->in_use || b->type != TESS_BODY_DYNAMIC || b->awake) continue;
    for (uint32_t si = b->shape_head; si != TESS_NULL_INDEX; si = w->shapes[si].next) {
      const Shape *s = &w->shapes[si];
      if (s->type != TESS_SHAPE_CIRCLE || s->sensor) continue;
      TessVec2 c = tess_transform_point(b->xf, s->poly.v[0]), e = tess_v2(s->poly.radius, s->poly.radius);
      if (!tess_aabb_overlaps((TessAABB){tess_v2_sub(c, e), tess_v2_add(c, e)}, box)) continue;
      Window win;
      if (pixel_within(w, now, c, s->poly.radius, NEED_TOUCH, &win) ||
          pixel_within(w, &then, c, s->poly.radius, NEED_TOUCH, &win)) {
        b->awake = 1;
        b->sleep_time = 0.0f;
        break;
      }
    }
  }
}

void physics_pixel_masks_end_step(TessWorld *w) {
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    PixelMask *m = &w->pmasks[i];
    if (m->remove_pending) remove_now(w, m);
    if (m->moving && !m->removed) wake_touching(w, m);
  }
}

void physics_pixel_masks_follow_bodies(TessWorld *w) {
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    PixelMask *m = &w->pmasks[i];
    const Body *b = tess_body_id_is_null(m->body) ? NULL : physics_body_get(w, m->body);
    if (b) lay_on(m, b->xf); /* a body gone in the restored world leaves its mask where it was */
  }
  physics_pixel_masks_changed(w);
}

/* The pixels [x0, x1] x [y0, y1] whose centres may lie in the box (lx, ly)-(hx, hy) of the mask's
 * own frame, in pixels; false if none. */
static bool pixel_range(const PixelMask *m, float lx, float ly, float hx, float hy, int64_t *x0, int64_t *y0,
                        int64_t *x1, int64_t *y1) {
  lx -= 0.5f, hx -= 0.5f, ly -= 0.5f, hy -= 0.5f; /* of the pixels' centres */
  if (hx < 0.0f || hy < 0.0f || lx > (float)m->width || ly > (float)m->height) return false;
  *x0 = lx < 0.0f ? 0 : (int64_t)ceilf(lx);
  *y0 = ly < 0.0f ? 0 : (int64_t)ceilf(ly);
  *x1 = (int64_t)floorf(hx);
  *y1 = (int64_t)floorf(hy);
  if (*x1 >= (int64_t)m->width) *x1 = (int64_t)m->width - 1;
  if (*y1 >= (int64_t)m->height) *y1 = (int64_t)m->height - 1;
  return *x0 <= *x1 && *y0 <= *y1;
}

/* A world point in the mask's frame, in pixels. */
static TessVec2 to_pixels(const PixelMask *m, TessVec2 p) {
  return tess_v2_scale(m->inv_pixel, tess_rot_apply_inv(m->q, tess_v2_sub(p, m->origin)));
}

/* Before the first edit the bits as created are kept (a snapshot restores an edited block from
 * them), and the rows y0..y1, words k0..k1 are marked edited. */
static TessResult edit_begin(PixelMask *m) {
  if (m->orig) return TESS_OK;
  size_t words = (size_t)m->words * m->height;
  m->orig = tess_alloc(words * sizeof(uint64_t));
  m->touched = tess_calloc((physics_pixel_mask_block_count(m) + 63) / 64, sizeof(uint64_t));
  if (!m->orig || !m->touched) {
    tess_free(m->orig);
    tess_free(m->touched);
    m->orig = m->touched = NULL;
    return TESS_ERR_NOMEM;
  }
  memcpy(m->orig, m->bits, words * sizeof(uint64_t));
  return TESS_OK;
}

static void touch(PixelMask *m, int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  for (uint32_t by = (uint32_t)y0 / PIXEL_MASK_BLOCK_ROWS; by <= (uint32_t)y1 / PIXEL_MASK_BLOCK_ROWS; by++)
    for (uint32_t k = (uint32_t)(x0 >> 6); k <= (uint32_t)(x1 >> 6); k++) {
      uint32_t b = by * m->words + k;
      m->touched[b >> 6] |= 1ull << (b & 63);
    }
}

static TessResult check_edit(TessWorld *w, uint32_t mask) {
  TESS_ASSERT(!w->locked && "pixel mask changed during a step");
  if (w->locked) return TESS_ERR_LOCKED;
  if (mask >= w->pmask_count || w->pmasks[mask].removed) return TESS_ERR_NOT_FOUND;
  physics_pixel_masks_changed(w); /* the bits may change: the rooms go */
  return edit_begin(&w->pmasks[mask]);
}

static inline void put_bit(uint64_t *row, int64_t x, bool solid) {
  uint64_t bit = 1ull << (x & 63);
  row[x >> 6] = solid ? row[x >> 6] | bit : row[x >> 6] & ~bit;
}

TessResult tess_pixel_mask_set_rect(TessWorld *w, uint32_t mask, TessAABB box, bool solid) {
  if (!tess_v2_is_finite(box.lower) || !tess_v2_is_finite(box.upper)) return TESS_ERR_INVALID;
  TessResult r = check_edit(w, mask);
  if (r != TESS_OK) return r;
  PixelMask *m = &w->pmasks[mask];
  /* the box's corners in the mask's frame bound the pixels to test */
  TessVec2 c[4] = {to_pixels(m, box.lower), to_pixels(m, box.upper), to_pixels(m, tess_v2(box.lower.x, box.upper.y)),
                   to_pixels(m, tess_v2(box.upper.x, box.lower.y))};
  float lx = c[0].x, hx = c[0].x, ly = c[0].y, hy = c[0].y;
  for (int i = 1; i < 4; i++) {
    lx = fminf(lx, c[i].x), hx = fmaxf(hx, c[i].x);
    ly = fminf(ly, c[i].y), hy = fmaxf(hy, c[i].y);
  }
  int64_t x0, y0, x1, y1;
  if (!pixel_range(m, lx, ly, hx, hy, &x0, &y0, &x1, &y1)) return TESS_OK;
  touch(m, x0, y0, x1, y1);
  m->edits++;
  bool axis_aligned = m->q.s == 0.0f && m->q.c == 1.0f;
  for (int64_t y = y0; y <= y1; y++) {
    uint64_t *row = mask_row(m, (uint32_t)y);
    if (axis_aligned) { /* the range is exactly the pixels whose centres are in the box: whole words */
      for (uint32_t k = (uint32_t)(x0 >> 6); k <= (uint32_t)(x1 >> 6); k++) {
        uint32_t lo = k == (uint32_t)(x0 >> 6) ? (uint32_t)(x0 & 63) : 0;
        uint32_t hi = k == (uint32_t)(x1 >> 6) ? (uint32_t)(x1 & 63) : 63;
        uint64_t span = (~0ull << lo) & (~0ull >> (63 - hi));
        row[k] = solid ? row[k] | span : row[k] & ~span;
      }
      continue;
    }
    for (int64_t x = x0; x <= x1; x++) { /* a turned mask: each pixel's centre in the world box */
      TessVec2 p = tess_v2(((float)x + 0.5f) * m->pixel_size, ((float)y + 0.5f) * m->pixel_size);
      p = tess_v2_add(m->origin, tess_rot_apply(m->q, p));
      if (p.x >= box.lower.x && p.x <= box.upper.x && p.y >= box.lower.y && p.y <= box.upper.y)
        put_bit(row, x, solid);
    }
  }
  physics_pixel_mask_coarse_update(m, (uint32_t)(x0 >> 6), (uint32_t)(x1 >> 6), (uint32_t)y0, (uint32_t)y1);
  wake_over(w, box);
  return TESS_OK;
}

TessResult tess_pixel_mask_set_circle(TessWorld *w, uint32_t mask, TessVec2 center, float radius, bool solid) {
  if (!tess_v2_is_finite(center) || !isfinite(radius) || radius < 0.0f) return TESS_ERR_INVALID;
  TessResult r = check_edit(w, mask);
  if (r != TESS_OK) return r;
  PixelMask *m = &w->pmasks[mask];
  TessVec2 u = to_pixels(m, center); /* a circle is a circle in any frame */
  float ru = radius * m->inv_pixel;
  int64_t x0, y0, x1, y1;
  if (pixel_range(m, u.x - ru, u.y - ru, u.x + ru, u.y + ru, &x0, &y0, &x1, &y1)) {
    touch(m, x0, y0, x1, y1);
    m->edits++;
    for (int64_t y = y0; y <= y1; y++) {
      uint64_t *row = mask_row(m, (uint32_t)y);
      float dy = (float)y + 0.5f - u.y;
      for (int64_t x = x0; x <= x1; x++) {
        float dx = (float)x + 0.5f - u.x;
        if (dx * dx + dy * dy <= ru * ru) put_bit(row, x, solid);
      }
    }
    physics_pixel_mask_coarse_update(m, (uint32_t)(x0 >> 6), (uint32_t)(x1 >> 6), (uint32_t)y0, (uint32_t)y1);
  }
  wake_over(w, (TessAABB){tess_v2_sub(center, tess_v2(radius, radius)), tess_v2_add(center, tess_v2(radius, radius))});
  return TESS_OK;
}

void physics_pixel_masks_free(TessWorld *w) {
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    tess_free(w->pmasks[i].bits);
    tess_free(w->pmasks[i].orig);
    tess_free(w->pmasks[i].touched);
    tess_free(w->pmasks[i].coarse);
  }
  tess_free(w->pmasks);
  w->pmasks = NULL;
  w->pmask_count = w->pmask_cap = 0;
  tess_free(w->pmask_room);
  w->pmask_room = NULL;
  w->pmask_room_cap = 0;
}

size_t physics_pixel_masks_bytes(const TessWorld *w) {
  size_t n = (size_t)w->pmask_cap * sizeof(PixelMask) + (size_t)w->pmask_room_cap * sizeof(PixelMaskRoom);
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    const PixelMask *m = &w->pmasks[i];
    n += tess_pixel_mask_memory_bytes(w, i) + (size_t)m->coarse_words * m->coarse_rows * sizeof(uint64_t);
    if (m->orig) n += tess_pixel_mask_memory_bytes(w, i) + (physics_pixel_mask_block_count(m) + 63) / 64 * sizeof(uint64_t);
  }
  return n;
}
