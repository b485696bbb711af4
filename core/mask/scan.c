/* The one pass over the alpha bytes: runs of opaque pixels per row, the
 * rows' extents, and exact pixel mass properties from integer sums.
 *
 * Per run [a, b) the sums of x and x^2 have closed forms, so the work per
 * pixel is one compare; all sums are exact 64-bit integers (a 32768 x 32768
 * image stays below 2^63), and the centroid and inertia are formed from
 * them at the end with a 128-bit product, so the result is exact up to the
 * final rounding to double. */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "mask_private.h"

TessResult mask_check_view(TessImageView img, TessError *err) {
  if (img.width == 0 || img.height == 0)
    return tess_error_set(err, TESS_ERR_EMPTY, "", "the image has no pixels (%ux%u)", img.width, img.height);
  if (img.width > TESS_IMAGE_MAX_SIDE || img.height > TESS_IMAGE_MAX_SIDE)
    return tess_error_set(err, TESS_ERR_LIMIT, "", "image %ux%u exceeds the %u px limit per side", img.width,
                          img.height, TESS_IMAGE_MAX_SIDE);
  if (!img.pixels) return tess_error_set(err, TESS_ERR_INVALID, "", "image without pixels");
  if (img.stride < (size_t)img.width * 4)
    return tess_error_set(err, TESS_ERR_INVALID, "", "stride %zu below width x 4 = %zu", img.stride,
                          (size_t)img.width * 4);
  return TESS_OK;
}

TessResult mask_empty_error(TessError *err, uint8_t threshold) {
  return tess_error_set(err, TESS_ERR_EMPTY, "", "no opaque pixel at threshold %u", (unsigned)threshold);
}

void mask_scan_free(MaskScan *s) {
  tess_free(s->left);
  tess_free(s->right);
  tess_free(s->row_start);
  tess_free(s->runs);
  memset(s, 0, sizeof *s);
}

static uint64_t sum_sq_below(uint64_t k) { /* 0^2 + 1^2 + ... + (k-1)^2 */
  return k == 0 ? 0 : (k - 1) * k * (2 * k - 1) / 6;
}

#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 wide_t;
#else
typedef long double wide_t;
#endif

/* N * sum(d^2) = N * S2 - S1^2, exact with 128-bit integers. */
static double spread(uint64_t n, uint64_t s1, uint64_t s2) {
  wide_t v = (wide_t)s2 * n - (wide_t)s1 * s1;
  return (double)v / (double)n;
}

/* N * sum(dx dy) = N * Sxy - Sx Sy (of either sign), exact with 128-bit integers. */
static double co_spread(uint64_t n, uint64_t sx, uint64_t sy, uint64_t sxy) {
#if defined(__SIZEOF_INT128__)
  __int128 v = (__int128)((unsigned __int128)sxy * n) - (__int128)((unsigned __int128)sx * sy);
#else
  long double v = (long double)sxy * n - (long double)sx * sy;
#endif
  return (double)v / (double)n;
}

typedef struct RowAcc {
  uint64_t rc, rsx, rsxx;
  int32_t first, last;
} RowAcc;

/* One run [x0, x1) of a row: closed-form sums, extents, and the run list. */
static inline bool add_run(MaskScan *s, bool want_runs, RowAcc *acc, uint32_t x0, uint32_t x1) {
  uint64_t len = x1 - x0;
  acc->rc += len;
  acc->rsx += (uint64_t)(x0 + x1 - 1) * len / 2;
  acc->rsxx += sum_sq_below(x1) - sum_sq_below(x0);
  if (acc->first < 0) acc->first = (int32_t)x0;
  acc->last = (int32_t)x1;
  s->runs_seen++;
  if (want_runs && s->run_limit && s->run_count >= s->run_limit) s->over = true;
  if (want_runs && !s->over) {
    if (s->run_count == s->run_cap &&
        !tess_array_reserve((void **)&s->runs, &s->run_cap, s->run_count + 1, sizeof *s->runs))
      return false;
    s->runs[s->run_count].x0 = x0;
    s->runs[s->run_count].x1 = x1;
    s->run_count++;
  }
  return true;
}

/* Sums of sixteen pixels at once, for rows whose runs are not kept: per
 * byte of the opaque mask, its pixel count, the sum of its set bits'
 * positions and of their squares (constant tables, built by the
 * preprocessor), so a chunk costs the same whatever its runs: a
 * checkerboard row has a run every other pixel, and summing run by run
 * made the scan ten times the plain read of the bytes. */
#define PC2(n) n, n + 1, n + 1, n + 2
#define PC4(n) PC2(n), PC2(n + 1), PC2(n + 1), PC2(n + 2)
#define PC6(n) PC4(n), PC4(n + 1), PC4(n + 1), PC4(n + 2)
static const uint8_t bits_count[256] = {PC6(0), PC6(1), PC6(1), PC6(2)};
#define S1_2(n) n, n, n + 1, n + 1
#define S1_4(n) S1_2(n), S1_2(n + 2), S1_2(n + 3), S1_2(n + 5)
#define S1_6(n) S1_4(n), S1_4(n + 4), S1_4(n + 5), S1_4(n + 9)
static const uint8_t bits_sum[256] = {S1_6(0), S1_6(6), S1_6(7), S1_6(13)};
#define S2_2(n) n, n, n + 1, n + 1
#define S2_4(n) S2_2(n), S2_2(n + 4), S2_2(n + 9), S2_2(n + 13)
#define S2_6(n) S2_4(n), S2_4(n + 16), S2_4(n + 25), S2_4(n + 41)
static const uint8_t bits_sum_sq[256] = {S2_6(0), S2_6(36), S2_6(49), S2_6(85)};

/* The sixteen pixels x .. x + 15 whose opaque bits are m (bit i: pixel x + i);
 * `before` is whether pixel x - 1 was opaque. */
static inline void add_chunk(MaskScan *s, RowAcc *acc, uint32_t x, uint32_t m, bool before) {
  uint32_t starts = m & ~((m << 1) | (before ? 1u : 0u));
  s->runs_seen += (uint64_t)bits_count[starts & 0xFF] + bits_count[starts >> 8];
  if (!m) return;
  uint64_t c, s1, s2;
  if (m == 0xFFFFu) {
    c = 16, s1 = 120, s2 = 1240;
  } else {
    uint32_t lo = m & 0xFF, hi = m >> 8;
    uint64_t ch = bits_count[hi], s1h = bits_sum[hi];
    c = bits_count[lo] + ch;
    s1 = bits_sum[lo] + s1h + 8 * ch;
    s2 = (uint64_t)bits_sum_sq[lo] + bits_sum_sq[hi] + 16 * s1h + 64 * ch;
  }
  acc->rc += c;
  acc->rsx += c * x + s1;
  acc->rsxx += c * x * x + 2 * (uint64_t)x * s1 + s2;
  if (acc->first < 0) acc->first = (int32_t)(x + (uint32_t)__builtin_ctz(m));
  acc->last = (int32_t)(x + 32 - (uint32_t)__builtin_clz(m));
}

/* The runs of one row. With SSE2, sixteen pixels at a time: their alpha
 * bytes packed into one register, compared with the threshold, and the
 * sixteen answers as a bit mask whose changes are the runs' ends, so the
 * work per pixel stays below the cost of reading it. */
static bool scan_row(MaskScan *s, bool want_runs, const uint8_t *row, uint32_t w, uint8_t t, RowAcc *acc) {
  uint32_t x = 0, start = 0;
  bool in_run = false;
  /* Runs not kept (or past the budget at the row's start): sums by chunk. */
  const bool by_chunk = !want_runs || s->over;
#if defined(__SSE2__)
  const __m128i tv = _mm_set1_epi8((char)t);
  for (; x + 16 <= w; x += 16) {
    const __m128i *p = (const __m128i *)(row + (size_t)x * 4);
    __m128i a0 = _mm_srli_epi32(_mm_loadu_si128(p), 24), a1 = _mm_srli_epi32(_mm_loadu_si128(p + 1), 24);
    __m128i a2 = _mm_srli_epi32(_mm_loadu_si128(p + 2), 24), a3 = _mm_srli_epi32(_mm_loadu_si128(p + 3), 24);
    __m128i alpha = _mm_packus_epi16(_mm_packs_epi32(a0, a1), _mm_packs_epi32(a2, a3));
    uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(alpha, tv), alpha));
    if (by_chunk) {
      add_chunk(s, acc, x, m, in_run);
      in_run = (m >> 15) & 1u;
      continue;
    }
    /* Bits where a pixel differs from the one before it. */
    uint32_t flips = (m ^ ((m << 1) | (in_run ? 1u : 0u))) & 0xFFFFu;
    while (flips) {
      uint32_t i = (uint32_t)__builtin_ctz(flips);
      flips &= flips - 1;
      if (in_run) {
        if (!add_run(s, want_runs, acc, start, x + i)) return false;
      } else {
        start = x + i;
      }
      in_run = !in_run;
    }
  }
#endif
  const uint8_t *a = row + 3;
  if (by_chunk) {
    /* The last pixels, one at a time (a chunk's sums with one bit). */
    for (; x < w; x++) {
      bool on = a[(size_t)x * 4] >= t;
      add_chunk(s, acc, x, on ? 1u : 0u, in_run);
      in_run = on;
    }
    return true;
  }
  for (; x < w; x++) {
    bool on = a[(size_t)x * 4] >= t;
    if (on != in_run) {
      if (in_run) {
        if (!add_run(s, want_runs, acc, start, x)) return false;
      } else {
        start = x;
      }
      in_run = on;
    }
  }
  if (in_run && !add_run(s, want_runs, acc, start, w)) return false;
  return true;
}

/* The runs of one row of cells (one byte each, non-zero = opaque). */
static bool scan_cells_row(MaskScan *s, const uint8_t *row, uint32_t w, RowAcc *acc) {
  uint32_t x = 0;
  while (x < w) {
    while (x < w && !row[x]) x++;
    uint32_t start = x;
    while (x < w && row[x]) x++;
    if (x > start && !add_run(s, true, acc, start, x)) return false;
  }
  return true;
}

static TessResult scan_rows(const uint8_t *base, size_t stride, uint32_t w, uint32_t h, bool cells,
                            uint8_t threshold, bool want_runs, MaskScan *s, TessError *err);

TessResult mask_scan_cells(const uint8_t *cells, uint32_t w, uint32_t h, MaskScan *s, TessError *err) {
  return scan_rows(cells, w, w, h, true, 1, true, s, err);
}

TessResult mask_scan(TessImageView img, uint8_t threshold, bool want_runs, MaskScan *s, TessError *err) {
  TessResult r = mask_check_view(img, err);
  if (r != TESS_OK) return r;
  return scan_rows(img.pixels, img.stride, img.width, img.height, false, threshold, want_runs, s, err);
}

static TessResult scan_rows(const uint8_t *base, size_t stride, uint32_t w, uint32_t h, bool cells,
                            uint8_t threshold, bool want_runs, MaskScan *s, TessError *err) {
  s->width = w;
  s->height = h;
  if (!tess_array_reserve((void **)&s->left, &s->extents_cap, h, sizeof *s->left)) goto nomem;
  {
    int32_t *right = tess_realloc(s->right, sizeof *right * s->extents_cap);
    if (!right) goto nomem;
    s->right = right;
  }
  if (want_runs) {
    if (!tess_array_reserve((void **)&s->row_start, &s->row_start_cap, (size_t)h + 1, sizeof *s->row_start))
      goto nomem;
  }
  s->run_count = 0;
  s->runs_seen = 0;
  s->over = false;

  uint64_t n = 0, sx = 0, sxx = 0, sy = 0, syy = 0, sxy = 0; /* sxy < 2^61 at 32768 x 32768 */
  uint32_t bx0 = w, bx1 = 0, by0 = h, by1 = 0;
  for (uint32_t y = 0; y < h; y++) {
    if (want_runs) s->row_start[y] = (uint32_t)s->run_count;
    RowAcc acc = {0, 0, 0, -1, -1};
    const uint8_t *row = base + (size_t)y * stride;
    if (!(cells ? scan_cells_row(s, row, w, &acc) : scan_row(s, want_runs, row, w, threshold, &acc))) goto nomem;
    s->left[y] = acc.first;
    s->right[y] = acc.last;
    if (acc.rc) {
      n += acc.rc;
      sx += acc.rsx;
      sxx += acc.rsxx;
      sy += acc.rc * y;
      syy += acc.rc * (uint64_t)y * y;
      sxy += acc.rsx * y;
      if ((uint32_t)acc.first < bx0) bx0 = (uint32_t)acc.first;
      if ((uint32_t)acc.last > bx1) bx1 = (uint32_t)acc.last;
      if (y < by0) by0 = y;
      by1 = y + 1;
    }
  }
  if (want_runs) s->row_start[h] = (uint32_t)s->run_count;
  s->count = n;
  s->x0 = bx0;
  s->x1 = bx1;
  s->y0 = by0;
  s->y1 = by1;
  memset(&s->mass, 0, sizeof s->mass);
  if (n == 0) return mask_empty_error(err, threshold);
  double dn = (double)n;
  s->mass.area = dn;
  s->mass.cx = (double)sx / dn + 0.5;
  s->mass.cy = (double)sy / dn + 0.5;
  /* Each unit square adds (1 + 1) / 12 = 1/6 about its own centre. */
  s->sxx = spread(n, sx, sxx);
  s->syy = spread(n, sy, syy);
  s->sxy = co_spread(n, sx, sy, sxy);
  s->mass.inertia = s->sxx + s->syy + dn / 6.0;
  return TESS_OK;
nomem:
  return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory scanning a %ux%u image", w, h);
}
