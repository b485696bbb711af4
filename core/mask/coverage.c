/* Opaque area the pieces cover, for TessMaskPieces.uncovered_area.
 *
 * Each piece is cut into its slices of one pixel row, and each slice's
 * area is credited to the runs of opaque pixels of that row it overlaps;
 * a run's credit is capped at its length, so pieces of islands closer than
 * the tolerance, which may overlap, never count a pixel twice.
 *
 * A slice's area and x extent come from walking the piece's two y-monotone
 * chains (a convex piece has a left and a right one) down the rows: the
 * width between them is linear between vertex heights, so the slice's
 * area is a sum of trapezoids, and the whole piece costs its vertex count
 * plus its row count. A run that holds the whole slice gets its area, a
 * run within the x range the slice holds at every height gets its own
 * length times the band's height; only a run across the slice's slanted
 * side needs the slice clipped as a polygon. */
#include <string.h>

#include "mask_private.h"

/* The part of convex v[0..n) with x (axis 0) or y (axis 1) in [lo, hi]
 * (out has room for n + 2, tmp for n + 1): one pass per side, none when
 * every vertex is already on the inner side. */
static uint32_t clip_band(const TessDVec2 *v, uint32_t n, int axis, double lo, double hi, TessDVec2 *tmp,
                          TessDVec2 *out) {
  const TessDVec2 *in = v;
  for (int side = 0; side < 2; side++) {
    double lim = side ? hi : lo, sign = side ? -1.0 : 1.0;
    TessDVec2 *dst = side ? out : tmp;
    bool all = true;
    for (uint32_t i = 0; i < n && all; i++) all = sign * ((axis ? in[i].y : in[i].x) - lim) >= 0.0;
    if (all) {
      if (in != dst) memcpy(dst, in, sizeof *dst * n);
      in = dst;
      continue;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
      TessDVec2 a = in[i], b = in[i + 1 < n ? i + 1 : 0];
      double da = sign * ((axis ? a.y : a.x) - lim), db = sign * ((axis ? b.y : b.x) - lim);
      if (da >= 0.0) dst[m++] = a;
      if ((da >= 0.0) != (db >= 0.0)) {
        double t = da / (da - db);
        dst[m++] = tess_d2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
      }
    }
    in = dst;
    n = m;
    if (n < 3) return 0;
  }
  return n;
}

/* One y-monotone chain of a convex piece, its horizontal edges left out:
 * the remaining segments follow each other in y without gaps. */
typedef struct Chain {
  TessDVec2 p[TESS_MASK_MAX_VERTICES + 1];
  double slope[TESS_MASK_MAX_VERTICES]; /* dx / dy of segment k */
  uint32_t count;                       /* points; segment k is p[k] -> p[k + 1] */
  uint32_t at;                          /* the segment reached by the walk down the rows */
} Chain;

/* From vertex `top` to vertex `bottom` of v[0..n), stepping by step (1 or n - 1). */
static void chain_build(Chain *c, const TessDVec2 *v, uint32_t n, uint32_t top, uint32_t bottom, uint32_t step) {
  c->count = 0;
  c->at = 0;
  for (uint32_t i = top;; i = (i + step) % n) {
    /* A horizontal edge (only at the top or the bottom of a convex piece)
     * is left out: at the top its far end starts the chain, at the bottom
     * its near end ends it. */
    bool flat = c->count > 0 && v[i].y == c->p[c->count - 1].y;
    if (!flat) c->p[c->count++] = v[i];
    else if (c->count == 1) c->p[0] = v[i];
    if (i == bottom) break;
  }
  for (uint32_t k = 0; k + 1 < c->count; k++)
    c->slope[k] = (c->p[k + 1].x - c->p[k].x) / (c->p[k + 1].y - c->p[k].y);
}

static double chain_x(const Chain *c, uint32_t k, double y) { return c->p[k].x + (y - c->p[k].y) * c->slope[k]; }

/* What one row band [y0, y1] of a piece holds. */
typedef struct Band {
  double area;         /* of the slice */
  double lo, hi;       /* its x extent */
  double in_lo, in_hi; /* x range the slice holds at every height of the band (may be empty) */
} Band;

/* The band's slice, walking both chains forward from the segments reached
 * so far. The left side of a convex piece is a convex function of y and
 * the right side a concave one, so the x range held at every height is
 * bounded by their values at the band's two ends. */
static Band chains_band(Chain *l, Chain *r, double y0, double y1) {
  double area = 0.0, lo = INFINITY, hi = -INFINITY, ya = y0;
  double l_top = 0.0, r_top = 0.0, l_end = 0.0, r_end = 0.0;
  while (l->at + 2 < l->count && l->p[l->at + 1].y <= ya) l->at++;
  while (r->at + 2 < r->count && r->p[r->at + 1].y <= ya) r->at++;
  for (bool first = true;; first = false) {
    const TessDVec2 *lb = &l->p[l->at + 1], *rb = &r->p[r->at + 1];
    double yb = mask_min(y1, mask_min(lb->y, rb->y));
    double xl0 = chain_x(l, l->at, ya), xl1 = chain_x(l, l->at, yb);
    double xr0 = chain_x(r, r->at, ya), xr1 = chain_x(r, r->at, yb);
    if (first) {
      l_top = xl0;
      r_top = xr0;
    }
    l_end = xl1;
    r_end = xr1;
    area += 0.5 * ((xr0 - xl0) + (xr1 - xl1)) * (yb - ya);
    lo = mask_min(lo, mask_min(mask_min(xl0, xl1), mask_min(xr0, xr1)));
    hi = mask_max(hi, mask_max(mask_max(xl0, xl1), mask_max(xr0, xr1)));
    if (yb >= y1) break;
    /* yb < y1 <= the bottom: the chain whose segment ends there has another. */
    bool moved = false;
    if (lb->y <= yb && l->at + 2 < l->count) l->at++, moved = true;
    if (rb->y <= yb && r->at + 2 < r->count) r->at++, moved = true;
    if (!moved) break;
    ya = yb;
  }
  Band b = {fabs(area), lo, hi, 0.0, 0.0};
  if (area < 0.0) { /* the chain called l runs on the right */
    double t = l_top;
    l_top = r_top;
    r_top = t;
    t = l_end;
    l_end = r_end;
    r_end = t;
  }
  b.in_lo = mask_max(l_top, l_end);
  b.in_hi = mask_min(r_top, r_end);
  return b;
}

double mask_covered_area(MaskWork *w) {
  const MaskScan *s = &w->scan;
  if (!TESS_ARRAY_RESERVE(&w->run_cover, s->run_count ? s->run_count : 1)) return 0.0;
  double *cover = w->run_cover.data;
  for (size_t i = 0; i < s->run_count; i++) cover[i] = 0.0;
  uint32_t np = (uint32_t)w->out_start.count - 1;
  for (uint32_t p = 0; p < np; p++) {
    const TessDVec2 *v = w->out_v.data + w->out_start.data[p];
    uint32_t n = w->out_start.data[p + 1] - w->out_start.data[p];
    uint32_t top = 0, bottom = 0;
    double minx = v[0].x, maxx = v[0].x;
    for (uint32_t k = 1; k < n; k++) {
      if (v[k].y < v[top].y) top = k;
      if (v[k].y > v[bottom].y) bottom = k;
      minx = mask_min(minx, v[k].x);
      maxx = mask_max(maxx, v[k].x);
    }
    double ytop = v[top].y, ybot = v[bottom].y;
    if (!(ybot > ytop)) continue;
    Chain l, r;
    chain_build(&l, v, n, top, bottom, 1);
    chain_build(&r, v, n, top, bottom, n - 1);
    TessDVec2 slice[TESS_MASK_MAX_VERTICES + 4], tmp[TESS_MASK_MAX_VERTICES + 4], part[TESS_MASK_MAX_VERTICES + 8];
    uint32_t hint = 0; /* the first run's place in the row above */
    double fy0 = floor(ytop), fy1 = ceil(ybot);
    if (fy0 < 0) fy0 = 0;
    if (fy1 > s->height) fy1 = s->height;
    for (uint32_t y = (uint32_t)fy0; y < (uint32_t)fy1; y++) {
      /* Runs are sorted along the row: find the first that reaches minx,
       * first where it was in the row above (rows alike: the usual case). */
      uint32_t first = s->row_start[y], end = s->row_start[y + 1], lo = first + hint;
      if (!(lo < end && s->runs[lo].x1 > minx && (lo == first || s->runs[lo - 1].x1 <= minx))) {
        uint32_t hi = end;
        lo = first;
        while (lo < hi) {
          uint32_t mid = lo + (hi - lo) / 2;
          if (s->runs[mid].x1 <= minx) lo = mid + 1;
          else hi = mid;
        }
      }
      hint = lo - first;
      if (lo >= end || s->runs[lo].x0 >= maxx) continue;
      double b0 = mask_max(ytop, (double)y), b1 = mask_min(ybot, y + 1.0);
      if (!(b1 > b0)) continue;
      Band q = chains_band(&l, &r, b0, b1);
      uint32_t qn = UINT32_MAX; /* the slice as a polygon, made when first needed */
      for (uint32_t k = lo; k < end && s->runs[k].x0 < q.hi; k++) {
        if (s->runs[k].x1 <= q.lo) continue;
        if (s->runs[k].x0 <= q.lo && s->runs[k].x1 >= q.hi) { /* the run holds the slice */
          cover[k] += q.area;
          continue;
        }
        if (s->runs[k].x0 >= q.in_lo && s->runs[k].x1 <= q.in_hi) { /* the slice holds the run */
          cover[k] += (double)(s->runs[k].x1 - s->runs[k].x0) * (b1 - b0);
          continue;
        }
        if (qn == UINT32_MAX) qn = clip_band(v, n, 1, y, y + 1.0, tmp, slice);
        if (qn < 3) break;
        uint32_t pn = clip_band(slice, qn, 0, s->runs[k].x0, s->runs[k].x1, tmp, part);
        if (pn >= 3) cover[k] += fabs(tess_poly_signed_area(part, pn));
      }
    }
  }
  double covered = 0.0;
  for (size_t i = 0; i < s->run_count; i++) {
    double len = s->runs[i].x1 - s->runs[i].x0;
    covered += cover[i] < len ? cover[i] : len;
  }
  return covered;
}
