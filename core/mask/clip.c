/* Pieces kept inside the exact hull of their island's pixels.
 *
 * The one-sided simplification pushes each chord outwards until it passes
 * every pixel corner it replaces, and two pushed chords meeting at a sharp
 * corner meet far beyond the pixels (the demo star's tips: 2.65 px past
 * the exact hull). Every opaque pixel of an island lies inside that
 * island's exact hull, so intersecting each convex piece with the hull
 * (convex with convex stays convex) keeps every pixel the piece covered and
 * only trims area over transparent pixels: no piece reaches past the
 * pixels' hull, and a tile's pieces stay in the tile's square (the hull of
 * a tile's pixels lies inside it).
 *
 * The clip adds a vertex where it crosses the hull, and follows the hull's
 * corners in between. A piece left with more than N vertices is cut along
 * chords between its own vertices (parts of a convex polygon, so they do
 * not overlap and cover exactly what the clipped piece covered): each
 * time the chord that closes N consecutive vertices and is shortest, which
 * cuts off the narrowest part. Shrinking instead (dropping a corner) would
 * uncover the pixel at that hull corner; growing (extending two edges to
 * meet) would leave the hull. */
#include <string.h>

#include "mask_private.h"

#define OUT_EPS 1e-9 /* px: a vertex this close outside a hull edge is left alone */

/* ---- Exact hull of each island ------------------------------------------ */

bool mask_island_hulls(MaskWork *w) {
  const MaskScan *s = &w->scan;
  uint32_t loops = (uint32_t)w->loop_start.count - 1;
  size_t nr = s->run_count;
  w->hull_v.count = 0;
  if (!TESS_ARRAY_RESERVE(&w->hull_start, (size_t)loops + 1) || !TESS_ARRAY_RESERVE(&w->hull_fill, loops + 1u) ||
      !TESS_ARRAY_RESERVE(&w->hull_rows, nr ? nr : 1))
    return false;
  /* Runs per island (an upper bound on its rows), then each island's rows
   * in order: the runs come row by row, left to right. */
  uint32_t *off = w->hull_start.data, *fill = w->hull_fill.data;
  memset(off, 0, sizeof *off * ((size_t)loops + 1));
  for (size_t i = 0; i < nr; i++) off[w->run_island.data[i] + 1]++;
  for (uint32_t o = 0; o < loops; o++) off[o + 1] += off[o];
  memcpy(fill, off, sizeof *fill * loops);
  MaskRowExtent *rows = w->hull_rows.data;
  for (uint32_t y = 0; y < s->height; y++)
    for (uint32_t r = s->row_start[y]; r < s->row_start[y + 1]; r++) {
      uint32_t o = (uint32_t)w->run_island.data[r];
      if (fill[o] > off[o] && rows[fill[o] - 1].y == y) {
        rows[fill[o] - 1].x1 = s->runs[r].x1;
      } else {
        MaskRowExtent e = {y, s->runs[r].x0, s->runs[r].x1};
        rows[fill[o]++] = e;
      }
    }
  /* Each island's hull from its rows' ends (as tess_mask_hull does for
   * the whole image): at grid line y the candidates are the least left end
   * and the greatest right end of rows y - 1 and y; an island's rows are
   * consecutive, so the candidates come sorted by (y, x). */
  TESS_ARRAY(TessDVec2)
  pts = {0};
  /* start[] is off[] rewritten in place: island o's rows are read from
   * off[o] before start[o] replaces it, and later entries are untouched. */
  uint32_t *start = w->hull_start.data;
  uint32_t prev_end = 0;
  for (uint32_t o = 0; o < loops; o++) {
    uint32_t a = off[o], b = fill[o];
    start[o] = prev_end;
    if (a == b) continue;
    pts.count = 0;
    if (!TESS_ARRAY_RESERVE(&pts, 2 * ((size_t)(b - a) + 1))) goto nomem;
    for (uint32_t j = a; j <= b; j++) {
      uint32_t lo = UINT32_MAX, hi = 0;
      if (j > a) {
        lo = rows[j - 1].x0;
        hi = rows[j - 1].x1;
      }
      if (j < b) {
        if (rows[j].x0 < lo) lo = rows[j].x0;
        if (rows[j].x1 > hi) hi = rows[j].x1;
      }
      double y = j < b ? rows[j].y : rows[j - 1].y + 1.0;
      pts.data[pts.count++] = tess_d2(lo, y);
      pts.data[pts.count++] = tess_d2(hi, y);
    }
    if (!TESS_ARRAY_RESERVE(&w->hull_v, w->hull_v.count + pts.count)) goto nomem;
    uint32_t k = tess_convex_hull_sorted(pts.data, (uint32_t)pts.count, w->hull_v.data + w->hull_v.count);
    w->hull_v.count += k;
    prev_end = (uint32_t)w->hull_v.count;
  }
  start[loops] = prev_end;
  TESS_ARRAY_FREE(&pts);
  return true;
nomem:
  TESS_ARRAY_FREE(&pts);
  return false;
}

/* ---- Convex clip ------------------------------------------------------------ */

uint32_t mask_clip_convex(TessDVec2 *v, uint32_t n, const TessDVec2 *bound, uint32_t bn, TessDVec2 *tmp, double *d) {
  TessDVec2 *cur = v, *nxt = tmp;
  for (uint32_t i = 0; i < bn && n >= 3; i++) {
    TessDVec2 a = bound[i], b = bound[i + 1 < bn ? i + 1 : 0], e = tess_d2_sub(b, a);
    double len = sqrt(tess_d2_dot(e, e));
    if (len == 0.0) continue;
    double inv = 1.0 / len;
    bool cut = false;
    for (uint32_t k = 0; k < n; k++) {
      d[k] = tess_d2_orient(a, b, cur[k]) * inv; /* > 0 inside */
      cut |= d[k] < -OUT_EPS;
    }
    if (!cut) continue;
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
      uint32_t k1 = k + 1 < n ? k + 1 : 0;
      if (d[k] >= 0.0) nxt[m++] = cur[k];
      if ((d[k] >= 0.0) != (d[k1] >= 0.0)) {
        double t = d[k] / (d[k] - d[k1]);
        nxt[m++] = tess_d2(cur[k].x + t * (cur[k1].x - cur[k].x), cur[k].y + t * (cur[k1].y - cur[k].y));
      }
    }
    TessDVec2 *sw = cur;
    cur = nxt;
    nxt = sw;
    n = m;
  }
  if (cur != v) memcpy(v, cur, sizeof *v * n);
  return mask_clean_convex(v, n);
}

uint32_t mask_clean_convex(TessDVec2 *v, uint32_t k) {
  bool changed = true;
  while (changed && k >= 3) {
    changed = false;
    for (uint32_t i = 0; i < k && k >= 3; i++) {
      TessDVec2 prev = v[(i + k - 1) % k], next = v[(i + 1) % k], d = tess_d2_sub(v[i], next);
      if (tess_d2_dot(d, d) < 1e-18 || fabs(tess_d2_orient(prev, v[i], next)) <= 1e-9) {
        memmove(v + i, v + i + 1, sizeof *v * (k - i - 1));
        k--;
        changed = true;
      }
    }
  }
  return k >= 3 ? k : 0;
}

uint32_t mask_cut_convex(TessDVec2 *v, uint32_t k, uint32_t max_n, TessDVec2 *part, TessDVec2 *tmp) {
  uint32_t best = 0;
  double bd = INFINITY;
  for (uint32_t i = 0; i < k; i++) {
    TessDVec2 d = tess_d2_sub(v[(i + max_n - 1) % k], v[i]);
    double dd = tess_d2_dot(d, d);
    if (dd < bd) {
      bd = dd;
      best = i;
    }
  }
  for (uint32_t j = 0; j < max_n; j++) part[j] = v[(best + j) % k];
  /* What is left: from the chord's far end around to its near end. */
  uint32_t left = k - (max_n - 2);
  for (uint32_t j = 0; j < left; j++) tmp[j] = v[(best + max_n - 1 + j) % k];
  memcpy(v, tmp, sizeof *v * left);
  return left;
}

static bool push_piece(MaskWork *w, const TessDVec2 *v, uint32_t n) {
  if (n < 3 || tess_poly_signed_area(v, n) <= 1e-10) return true;
  for (uint32_t k = 0; k < n; k++)
    if (!TESS_ARRAY_PUSH(&w->out_v, v[k])) return false;
  return TESS_ARRAY_PUSH(&w->out_start, (uint32_t)w->out_v.count);
}

bool mask_push_clipped(MaskWork *w, const TessDVec2 *piece, uint32_t n, const TessDVec2 *bound, uint32_t bn,
                       uint32_t max_n) {
  size_t room = (size_t)n + bn + 1;
  if (!TESS_ARRAY_RESERVE(&w->clip, 2 * room) || !TESS_ARRAY_RESERVE(&w->clip_d, room)) return false;
  TessDVec2 *v = w->clip.data, *tmp = v + room;
  memcpy(v, piece, sizeof *v * n);
  uint32_t k = bn >= 3 ? mask_clip_convex(v, n, bound, bn, tmp, w->clip_d.data) : mask_clean_convex(v, n);
  while (k > max_n) {
    TessDVec2 part[TESS_MASK_MAX_VERTICES];
    k = mask_cut_convex(v, k, max_n, part, tmp);
    if (!push_piece(w, part, max_n)) return false;
  }
  return push_piece(w, v, k);
}
