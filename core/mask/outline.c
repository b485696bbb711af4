/* Outline loops along pixel edges, and their simplification.
 *
 * Tracing is marching squares with the samples at the pixels and the
 * contour on the pixel edges (a "crack" outline), so an exact outline
 * encloses exactly the opaque pixels: walking with the opaque pixel on the
 * right (screen), at each grid corner the two pixels ahead decide: turn
 * right when the one ahead-right is transparent, left when both are
 * opaque, else go straight. The saddle (two diagonal opaque pixels) turns
 * right, so pixels touching only at a corner are separate islands. Every
 * loop has at least one top edge, so scanning the runs for unvisited top
 * edges finds them all; the first loop met of each 4-connected component
 * (found by union-find over the runs) is its outer loop, later ones are its
 * holes.
 *
 * Simplification: Douglas-Peucker over the loop's corners, a chord
 * accepted when the marching-squares contour it replaces (through the
 * midpoints of the pixel edges, where a slanted digital line is straight)
 * lies within `tolerance` of it; then every chord is pushed outwards (away
 * from the opaque side) to touch the outermost corner it replaces, and
 * consecutive chords are intersected. The simplified loop therefore
 * encloses the opaque pixels of its chain and
 * stays within `tolerance` of the exact outline along each edge. */
#include <string.h>

#include "mask_private.h"

#define PIX_OPAQUE 1u

/* k mod m for k < 2m: loop indices wrap at most once, and a division per
 * step was a tenth of the tracing time. */
static inline uint32_t wrap(uint32_t k, uint32_t m) { return k >= m ? k - m : k; }

static uint32_t uf_find(uint32_t *parent, uint32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

static void uf_union(uint32_t *parent, uint32_t a, uint32_t b) {
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a == b) return;
  if (a < b) parent[b] = a;
  else parent[a] = b;
}

/* Pixels ahead-right and ahead-left of a corner for each direction
 * (0: +x, 1: +y, 2: -x, 3: -y), as offsets of the grid pixel whose
 * top-left corner is the corner. */
static const int AR_DX[4] = {0, -1, -1, 0}, AR_DY[4] = {0, 0, -1, -1};
static const int AL_DX[4] = {0, 0, -1, -1}, AL_DY[4] = {-1, 0, 0, -1};
static const int MOVE_DX[4] = {1, 0, -1, 0}, MOVE_DY[4] = {0, 1, 0, -1};

/* Where two opaque pixels touch only at a corner, the outline passes that
 * corner twice. Each visit's vertex is nudged a hair (2^-16 px along the
 * diagonal) into the pixel it walks around, so every loop is strictly
 * simple and loops never share a point: the decomposition then never sees
 * a pinched polygon. The area changes by about 1e-5 px^2 per such corner. */
#define PINCH_NUDGE (1.0 / 65536.0)

static bool push_corner(MaskWork *w, const uint8_t *g, uint32_t gw, int32_t cx, int32_t cy, int din) {
  bool tl = g[(size_t)(cy - 1) * gw + (size_t)(cx - 1)] & PIX_OPAQUE, tr = g[(size_t)(cy - 1) * gw + (size_t)cx] & PIX_OPAQUE;
  bool bl = g[(size_t)cy * gw + (size_t)(cx - 1)] & PIX_OPAQUE, br = g[(size_t)cy * gw + (size_t)cx] & PIX_OPAQUE;
  double x = cx - 1, y = cy - 1;
  if ((tl && br && !tr && !bl) || (tr && bl && !tl && !br)) {
    /* The pixel behind on the right of the arriving edge. */
    int px = cx + AR_DX[din] - MOVE_DX[din], py = cy + AR_DY[din] - MOVE_DY[din];
    x += (px + 0.5 - cx) * 2.0 * PINCH_NUDGE;
    y += (py + 0.5 - cy) * 2.0 * PINCH_NUDGE;
  }
  return TESS_ARRAY_PUSH(&w->points, tess_d2(x, y));
}

/* Traces one loop from the top edge of grid pixel (gx, gy). */
static bool trace_loop(MaskWork *w, uint32_t gw, uint32_t gx, uint32_t gy) {
  uint8_t *g = w->grid;
  const int32_t sx = (int32_t)gx, sy = (int32_t)gy;
  g[(size_t)gy * gw + gx] |= (uint8_t)(2u << 0);
  int32_t cx = sx + 1, cy = sy;
  int din = 0;
  for (;;) {
    size_t ar = (size_t)(cy + AR_DY[din]) * gw + (size_t)(cx + AR_DX[din]);
    size_t al = (size_t)(cy + AL_DY[din]) * gw + (size_t)(cx + AL_DX[din]);
    int nd;
    if (!(g[ar] & PIX_OPAQUE)) nd = (din + 1) & 3;
    else if (g[al] & PIX_OPAQUE) nd = (din + 3) & 3;
    else nd = din;
    if (cx == sx && cy == sy && nd == 0) {
      if (din != 0 && !push_corner(w, g, gw, cx, cy, din)) return false;
      return true;
    }
    if (nd != din && !push_corner(w, g, gw, cx, cy, din)) return false;
    size_t owner = (size_t)(cy + AR_DY[nd]) * gw + (size_t)(cx + AR_DX[nd]);
    g[owner] |= (uint8_t)(2u << nd);
    cx += MOVE_DX[nd];
    cy += MOVE_DY[nd];
    din = nd;
  }
}

/* ---- Simplification --------------------------------------------------- */

/* Signed distance of p from the line a->b, positive on the opaque (left) side. */
static double side(TessDVec2 a, TessDVec2 b, double inv_len, TessDVec2 p) {
  return tess_d2_orient(a, b, p) * inv_len;
}

/* Largest distance from the chord a->b of the marching-squares contour
 * between exact corners i and j: the points half a pixel in from each end
 * of every straight run of pixel edges. A straight digital line is
 * straight there (not a zigzag of stair steps), so the tolerance measures
 * real departures from the outline. */
static double midpoint_error(const TessDVec2 *pts, uint32_t m, uint32_t i, uint32_t j, TessDVec2 a, TessDVec2 b,
                             double inv_len) {
  double worst = 0.0;
  for (uint32_t k = i; k < j; k++) {
    TessDVec2 p = pts[wrap(k, m)], q = pts[wrap(k + 1, m)], d = tess_d2_sub(q, p);
    double len = fabs(d.x) + fabs(d.y); /* runs are axis-aligned */
    TessDVec2 u = tess_d2(0.5 * d.x / len, 0.5 * d.y / len);
    double e1 = fabs(side(a, b, inv_len, tess_d2_add(p, u)));
    double e2 = fabs(side(a, b, inv_len, tess_d2_sub(q, u)));
    if (e1 > worst) worst = e1;
    if (e2 > worst) worst = e2;
  }
  return worst;
}

/* Marks the corners to keep of the closed exact loop pts[0..m): Douglas-
 * Peucker over the corners, a chord accepted when the midpoint contour it
 * replaces is within tol, anchored at corner 0 and the corner farthest
 * from it. */
static bool dp_loop(MaskWork *w, const TessDVec2 *pts, uint32_t m, double tol, uint8_t *keep) {
  memset(keep, 0, m);
  if (m <= 3) {
    memset(keep, 1, m);
    return true;
  }
  uint32_t far = 0;
  double best = -1.0;
  for (uint32_t i = 1; i < m; i++) {
    TessDVec2 d = tess_d2_sub(pts[i], pts[0]);
    double dd = tess_d2_dot(d, d);
    if (dd > best) {
      best = dd;
      far = i;
    }
  }
  keep[0] = keep[far] = 1;
  w->stack.count = 0;
  if (!TESS_ARRAY_PUSH(&w->stack, 0u) || !TESS_ARRAY_PUSH(&w->stack, far) || !TESS_ARRAY_PUSH(&w->stack, far) ||
      !TESS_ARRAY_PUSH(&w->stack, m))
    return false;
  while (w->stack.count) {
    uint32_t j = w->stack.data[--w->stack.count];
    uint32_t i = w->stack.data[--w->stack.count];
    if (j - i < 2) continue;
    TessDVec2 a = pts[i], b = pts[wrap(j, m)];
    TessDVec2 ab = tess_d2_sub(b, a);
    double len = sqrt(tess_d2_dot(ab, ab));
    uint32_t split = 0;
    if (len < 1e-12) {
      split = (i + j) / 2; /* degenerate chord: just halve */
    } else {
      double inv = 1.0 / len;
      if (midpoint_error(pts, m, i, j, a, b, inv) <= tol) continue;
      double worst = -1.0;
      for (uint32_t k = i + 1; k < j; k++) {
        double d = fabs(side(a, b, inv, pts[wrap(k, m)]));
        if (d > worst) {
          worst = d;
          split = k;
        }
      }
    }
    keep[wrap(split, m)] = 1;
    if (!TESS_ARRAY_PUSH(&w->stack, i) || !TESS_ARRAY_PUSH(&w->stack, split) ||
        !TESS_ARRAY_PUSH(&w->stack, split) || !TESS_ARRAY_PUSH(&w->stack, j))
      return false;
  }
  return true;
}

static bool push_simple(MaskWork *w, TessDVec2 p) {
  if (w->simple.count > w->simple_start.data[w->simple_start.count - 1]) {
    TessDVec2 q = w->simple.data[w->simple.count - 1];
    if (fabs(p.x - q.x) < 1e-9 && fabs(p.y - q.y) < 1e-9) return true;
  }
  return TESS_ARRAY_PUSH(&w->simple, p);
}

/* Drops repeated and collinear vertices of the last simplified loop. */
static void clean_last_loop(MaskWork *w) {
  uint32_t s = w->simple_start.data[w->simple_start.count - 1];
  TessDVec2 *p = w->simple.data + s;
  uint32_t n = (uint32_t)(w->simple.count - s);
  bool changed = true;
  while (changed && n >= 3) {
    changed = false;
    for (uint32_t i = 0; i < n && n >= 3; i++) {
      TessDVec2 a = p[wrap(i + n - 1, n)], b = p[i], c = p[wrap(i + 1, n)];
      TessDVec2 ab = tess_d2_sub(b, a), bc = tess_d2_sub(c, b);
      double scale = sqrt(tess_d2_dot(ab, ab) * tess_d2_dot(bc, bc));
      bool dup = tess_d2_dot(ab, ab) < 1e-18;
      bool straight = fabs(tess_d2_cross(ab, bc)) <= 1e-12 * scale && tess_d2_dot(ab, bc) > 0.0;
      if (dup || straight) {
        memmove(p + i, p + i + 1, sizeof *p * (n - i - 1));
        n--;
        changed = true;
      }
    }
  }
  w->simple.count = s + n;
}

/* Simplifies the exact loop pts[0..m) (pixel corners, one per turn) into a
 * new loop of w->simple: the corners dp_loop keeps, each chord then pushed
 * outwards just enough to have every corner it replaces on its opaque
 * side, and consecutive pushed chords intersected, so the loop encloses its
 * pixels. */
static bool simplify_loop(MaskWork *w, const TessDVec2 *pts, uint32_t m, double tol) {
  if (!TESS_ARRAY_PUSH(&w->simple_start, (uint32_t)w->simple.count)) return false;
  if (!TESS_ARRAY_RESERVE(&w->keep, m)) return false;
  uint8_t *keep = w->keep.data;
  if (tol <= 0.0) memset(keep, 1, m);
  else if (!dp_loop(w, pts, m, tol, keep)) return false;
  uint32_t kn = 0;
  for (uint32_t i = 0; i < m; i++) kn += keep[i];
  if (kn == m) { /* nothing removed: the exact outline */
    for (uint32_t i = 0; i < m; i++)
      if (!TESS_ARRAY_PUSH(&w->simple, pts[i])) return false;
    return true;
  }
  /* Scratch kept in w: thousands of loops are simplified per call. */
  if (!TESS_ARRAY_RESERVE(&w->kept_idx, kn) || !TESS_ARRAY_RESERVE(&w->kept_shift, kn)) return false;
  uint32_t *idx = w->kept_idx.data, kept = 0;
  double *shift = w->kept_shift.data;
  for (uint32_t i = 0; i < m; i++)
    if (keep[i]) idx[kept++] = i;
  for (uint32_t e = 0; e < kn; e++) {
    uint32_t i = idx[e], j = e + 1 < kn ? idx[e + 1] : idx[0] + m;
    TessDVec2 a = pts[i], b = pts[wrap(j, m)], ab = tess_d2_sub(b, a);
    double len = sqrt(tess_d2_dot(ab, ab)), lo = 0.0;
    if (len > 0.0)
      for (uint32_t k = i + 1; k < j; k++) {
        double sd = side(a, b, 1.0 / len, pts[wrap(k, m)]);
        if (sd < lo) lo = sd;
      }
    shift[e] = -lo;
  }
  /* Vertex between chord e-1 and chord e: the pushed lines' intersection,
   * or, where they are near parallel or meet far away, the kept corner
   * pushed out along each chord's normal. */
  for (uint32_t e = 0; e < kn; e++) {
    uint32_t ep = (e + kn - 1) % kn;
    TessDVec2 k0 = pts[idx[ep]], k1 = pts[idx[e]], k2 = pts[idx[(e + 1) % kn]];
    if (shift[ep] == 0.0 && shift[e] == 0.0) {
      if (!push_simple(w, k1)) return false;
      continue;
    }
    TessDVec2 d0 = tess_d2_sub(k1, k0), d1 = tess_d2_sub(k2, k1);
    double l0 = sqrt(tess_d2_dot(d0, d0)), l1 = sqrt(tess_d2_dot(d1, d1));
    /* Outward normal: right of the direction (the opaque side is left). */
    TessDVec2 n0 = l0 > 0 ? tess_d2(d0.y / l0, -d0.x / l0) : tess_d2(0, 0);
    TessDVec2 n1 = l1 > 0 ? tess_d2(d1.y / l1, -d1.x / l1) : tess_d2(0, 0);
    TessDVec2 p0 = tess_d2(k1.x + shift[ep] * n0.x, k1.y + shift[ep] * n0.y);
    TessDVec2 p1 = tess_d2(k1.x + shift[e] * n1.x, k1.y + shift[e] * n1.y);
    TessDVec2 q;
    bool met = l0 > 0 && l1 > 0 && tess_line_intersect(p0, tess_d2_add(p0, d0), p1, tess_d2_add(p1, d1), &q);
    double reach = 2.0 * tol + 2.0;
    if (met) {
      TessDVec2 dq = tess_d2_sub(q, k1);
      met = tess_d2_dot(dq, dq) <= reach * reach;
    }
    if (met) {
      if (!push_simple(w, q)) return false;
    } else {
      if (!push_simple(w, p0) || !push_simple(w, p1)) return false;
    }
  }
  {
    uint32_t s = w->simple_start.data[w->simple_start.count - 1];
    if (w->simple.count - s >= 2) {
      TessDVec2 f = w->simple.data[s], l = w->simple.data[w->simple.count - 1];
      if (fabs(f.x - l.x) < 1e-9 && fabs(f.y - l.y) < 1e-9) w->simple.count--;
    }
  }
  clean_last_loop(w);
  return true;
}

/* ---- The whole outline --------------------------------------------------- */

TessResult mask_trace_outline(MaskWork *w, double tolerance, TessError *err) {
  MaskScan *s = &w->scan;
  const uint32_t gw = s->width + 2, gh = s->height + 2;
  size_t cells;
  if (!tess_size_mul(gw, gh, &cells)) return tess_error_set(err, TESS_ERR_LIMIT, "", "image too large to trace");
  /* Exactly the cells (not doubled, as arrays grow): at 16384 x 16384 the
   * grid alone is 256 MiB, and doubling would make it 512. */
  if (cells > w->grid_cap) {
    uint8_t *grid = tess_realloc(w->grid, cells);
    if (!grid) goto nomem;
    w->grid = grid;
    w->grid_cap = cells;
  }
  memset(w->grid, 0, cells);
  for (uint32_t y = 0; y < s->height; y++) {
    uint8_t *row = w->grid + (size_t)(y + 1) * gw + 1;
    for (uint32_t r = s->row_start[y]; r < s->row_start[y + 1]; r++)
      memset(row + s->runs[r].x0, PIX_OPAQUE, s->runs[r].x1 - s->runs[r].x0);
  }
  /* 4-connected components over the runs. */
  size_t nr = s->run_count;
  if (!TESS_ARRAY_RESERVE(&w->owner, nr ? nr : 1)) goto nomem;
  uint32_t *parent = w->owner.data;
  for (size_t i = 0; i < nr; i++) parent[i] = (uint32_t)i;
  for (uint32_t y = 1; y < s->height; y++) {
    uint32_t a = s->row_start[y - 1], ae = s->row_start[y], b = s->row_start[y], be = s->row_start[y + 1];
    while (a < ae && b < be) {
      MaskRun ra = s->runs[a], rb = s->runs[b];
      if (ra.x0 < rb.x1 && rb.x0 < ra.x1) uf_union(parent, a, b);
      if (ra.x1 < rb.x1) a++;
      else b++;
    }
  }
  /* Loops, found from unvisited top edges in raster order. */
  w->points.count = 0;
  w->loop_start.count = 0;
  w->island.count = 0;
  w->loop_area.count = 0;
  TESS_ARRAY(int32_t)
  comp_outer = {0};
  TESS_ARRAY(double)
  comp_pixels = {0};
  if (!TESS_ARRAY_RESERVE(&comp_outer, nr ? nr : 1) || !TESS_ARRAY_RESERVE(&comp_pixels, nr ? nr : 1)) {
    TESS_ARRAY_FREE(&comp_outer);
    TESS_ARRAY_FREE(&comp_pixels);
    goto nomem;
  }
  for (size_t i = 0; i < nr; i++) {
    comp_outer.data[i] = -1;
    comp_pixels.data[i] = 0.0;
  }
  for (size_t i = 0; i < nr; i++) comp_pixels.data[uf_find(parent, (uint32_t)i)] += s->runs[i].x1 - s->runs[i].x0;
  for (uint32_t y = 0; y < s->height; y++) {
    uint8_t *row = w->grid + (size_t)(y + 1) * gw + 1;
    /* Top edges are where the row above is transparent: the parts of each
     * run that no run of the row above covers (walked along with them), so
     * the work follows the outline's length, not the opaque area. */
    uint32_t a = y ? s->row_start[y - 1] : 0, ae = y ? s->row_start[y] : 0;
    for (uint32_t r = s->row_start[y]; r < s->row_start[y + 1]; r++) {
      for (uint32_t x = s->runs[r].x0; x < s->runs[r].x1; x++) {
        while (a < ae && s->runs[a].x1 <= x) a++;
        if (a < ae && s->runs[a].x0 <= x) {
          x = s->runs[a].x1 - 1; /* covered from above up to there */
          continue;
        }
        if (row[x] & 2u) continue;
        uint32_t loop = (uint32_t)w->loop_start.count;
        if (!TESS_ARRAY_PUSH(&w->loop_start, (uint32_t)w->points.count)) goto nomem_loops;
        if (!trace_loop(w, gw, x + 1, y + 1)) goto nomem_loops;
        uint32_t comp = uf_find(parent, r);
        if (comp_outer.data[comp] < 0) comp_outer.data[comp] = (int32_t)loop;
        if (!TESS_ARRAY_PUSH(&w->island, comp_outer.data[comp])) goto nomem_loops;
        uint32_t st = w->loop_start.data[loop];
        double area = tess_poly_signed_area(w->points.data + st, (uint32_t)(w->points.count - st));
        /* Outer loops carry their island's pixel count (for "largest island"). */
        if (comp_outer.data[comp] == (int32_t)loop) area = comp_pixels.data[comp];
        else area = -fabs(area);
        if (!TESS_ARRAY_PUSH(&w->loop_area, area)) goto nomem_loops;
      }
    }
  }
  /* Each run's island (the index of its outer loop), for splitting. */
  if (!TESS_ARRAY_RESERVE(&w->run_island, nr ? nr : 1)) goto nomem_loops;
  for (size_t i = 0; i < nr; i++) w->run_island.data[i] = comp_outer.data[uf_find(parent, (uint32_t)i)];
  w->run_island.count = nr;
  TESS_ARRAY_FREE(&comp_outer);
  TESS_ARRAY_FREE(&comp_pixels);
  if (!TESS_ARRAY_PUSH(&w->loop_start, (uint32_t)w->points.count)) goto nomem;
  /* Simplify every loop. */
  w->simple.count = 0;
  w->simple_start.count = 0;
  uint32_t loops = (uint32_t)w->loop_start.count - 1;
  for (uint32_t i = 0; i < loops; i++) {
    uint32_t st = w->loop_start.data[i], m = w->loop_start.data[i + 1] - st;
    if (!simplify_loop(w, w->points.data + st, m, tolerance)) goto nomem;
  }
  if (!TESS_ARRAY_PUSH(&w->simple_start, (uint32_t)w->simple.count)) goto nomem;
  return TESS_OK;
nomem_loops:
  TESS_ARRAY_FREE(&comp_outer);
  TESS_ARRAY_FREE(&comp_pixels);
nomem:
  return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory tracing the outline");
}
