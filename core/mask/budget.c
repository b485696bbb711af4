/* The work budget of outlines and pieces: an image with more runs of
 * opaque pixels than the budget is traced on a grid of b x b pixel blocks
 * instead of pixels.
 *
 * Tracing and decomposition cost about 2 us and 600 bytes per run at
 * worst (a checkerboard: every pixel its own island), so a 4096 x 4096
 * checkerboard's 8 million runs took 57 s and 4.6 GB. The scan that finds
 * the runs is linear and cheap; it stops keeping runs at the budget and
 * only counts them. Past it, the opaque pixels are gathered into blocks (a
 * block is opaque when any of its pixels is), doubling b until the blocks'
 * runs fit, and the blocks are traced as if they were pixels. Every opaque
 * pixel lies in an opaque block, so the pieces still cover every pixel;
 * scaled back to pixels, each piece is clipped to the exact hull of all
 * opaque pixels (from the fine scan's row extents), so none reaches past
 * it. Mass properties of the pixels stay exact (the fine scan's sums). */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "mask_private.h"

static uint64_t count_runs(const uint8_t *cells, uint32_t w, uint32_t h) {
  uint64_t n = 0;
  for (uint32_t y = 0; y < h; y++) {
    const uint8_t *row = cells + (size_t)y * w;
    uint8_t before = 0;
    for (uint32_t x = 0; x < w; x++) {
      n += row[x] && !before;
      before = row[x];
    }
  }
  return n;
}

/* One row's pixels into blocks of 2: with SSE2 sixteen alpha bytes at a
 * time become a bit mask (as in scan.c) whose bit pairs are ORed, so this
 * pass costs about what the scan does. */
static void blocks_of_row(const uint8_t *px, uint32_t x0, uint32_t x1, uint8_t t, uint8_t *row) {
  uint32_t x = x0 & ~1u;
#if defined(__SSE2__)
  const __m128i tv = _mm_set1_epi8((char)t);
  for (; x + 16 <= x1; x += 16) {
    const __m128i *p = (const __m128i *)(px + (size_t)x * 4);
    __m128i a0 = _mm_srli_epi32(_mm_loadu_si128(p), 24), a1 = _mm_srli_epi32(_mm_loadu_si128(p + 1), 24);
    __m128i a2 = _mm_srli_epi32(_mm_loadu_si128(p + 2), 24), a3 = _mm_srli_epi32(_mm_loadu_si128(p + 3), 24);
    __m128i alpha = _mm_packus_epi16(_mm_packs_epi32(a0, a1), _mm_packs_epi32(a2, a3));
    uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(alpha, tv), alpha));
    if (!m) continue;
    m = (m | (m >> 1)) & 0x5555u;
    for (uint32_t k = 0; k < 8; k++) row[x / 2 + k] |= (uint8_t)((m >> (2 * k)) & 1u);
  }
#endif
  for (; x < x1; x++) row[x / 2] |= px[(size_t)x * 4 + 3] >= t;
}

/* Blocks of 2 x 2 pixels from the image, within the fine scan's rows. */
static uint8_t *first_level(const MaskScan *fine, TessImageView img, uint8_t t, uint32_t *cw, uint32_t *ch) {
  *cw = img.width / 2 + (img.width & 1);
  *ch = img.height / 2 + (img.height & 1);
  uint8_t *cells = tess_calloc((size_t)*cw * *ch, 1);
  if (!cells) return NULL;
  for (uint32_t y = fine->y0; y < fine->y1; y++) {
    if (fine->left[y] < 0) continue;
    blocks_of_row(img.pixels + (size_t)y * img.stride, (uint32_t)fine->left[y], (uint32_t)fine->right[y], t,
                  cells + (size_t)(y / 2) * *cw);
  }
  return cells;
}

/* The next level: blocks of 2 x 2 blocks. */
static uint8_t *next_level(const uint8_t *cells, uint32_t w, uint32_t h, uint32_t *nw, uint32_t *nh) {
  *nw = w / 2 + (w & 1);
  *nh = h / 2 + (h & 1);
  uint8_t *up = tess_calloc((size_t)*nw * *nh, 1);
  if (!up) return NULL;
  for (uint32_t y = 0; y < h; y++) {
    const uint8_t *row = cells + (size_t)y * w;
    uint8_t *dst = up + (size_t)(y / 2) * *nw;
    for (uint32_t x = 0; x < w; x++) dst[x / 2] |= row[x];
  }
  return up;
}

TessResult mask_coarsen(MaskWork *w, TessImageView img, uint8_t threshold, TessError *err) {
  MaskScan *fine = &w->scan;
  size_t limit = fine->run_limit;
  w->fine_mass = fine->mass;
  w->fine_runs = fine->runs_seen;
  tess_free(w->bound);
  w->bound = NULL;
  TessResult r = mask_hull_from_scan(fine, &w->bound, &w->bound_count, err);
  if (r != TESS_OK) return r;
  uint32_t cw, ch, b = 2;
  uint8_t *cells = first_level(fine, img, threshold, &cw, &ch);
  while (cells && count_runs(cells, cw, ch) > limit) {
    uint32_t nw, nh;
    uint8_t *up = next_level(cells, cw, ch, &nw, &nh);
    tess_free(cells);
    cells = up;
    cw = nw;
    ch = nh;
    b *= 2;
  }
  if (!cells)
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the blocks of a %ux%u image", img.width,
                          img.height);
  mask_scan_free(fine);
  r = mask_scan_cells(cells, cw, ch, fine, err);
  tess_free(cells);
  if (r != TESS_OK) return r;
  w->block = b;
  return TESS_OK;
}

TessResult mask_uncoarsen(MaskWork *w, uint32_t max_vertices, TessError *err) {
  const double b = w->block;
  double covered = mask_covered_area(w);
  double unc = (w->scan.mass.area - covered) * b * b;
  w->block_uncovered = unc < 0.0 ? 0.0 : unc > w->fine_mass.area ? w->fine_mass.area
                                                                 : unc;
  /* The blocks' pieces move out of the way; scaled and clipped ones take their place. */
  TESS_ARRAY(TessDVec2)
  v = {w->out_v.data, w->out_v.count, w->out_v.cap};
  TESS_ARRAY(uint32_t)
  start = {w->out_start.data, w->out_start.count, w->out_start.cap};
  memset(&w->out_v, 0, sizeof w->out_v);
  memset(&w->out_start, 0, sizeof w->out_start);
  bool ok = TESS_ARRAY_PUSH(&w->out_start, 0u);
  for (size_t p = 0; ok && p + 1 < start.count; p++) {
    TessDVec2 piece[TESS_MASK_MAX_VERTICES];
    uint32_t n = start.data[p + 1] - start.data[p];
    for (uint32_t k = 0; k < n; k++) piece[k] = tess_d2(v.data[start.data[p] + k].x * b, v.data[start.data[p] + k].y * b);
    ok = mask_push_clipped(w, piece, n, w->bound, w->bound_count, max_vertices);
  }
  TESS_ARRAY_FREE(&v);
  TESS_ARRAY_FREE(&start);
  w->scan.mass = w->fine_mass;
  if (!ok) return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the pieces");
  return TESS_OK;
}
