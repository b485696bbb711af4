/* Convex decomposition of traced islands: holes bridged into their outer
 * loop, ear clipping into triangles, then Hertel-Mehlhorn: remove a
 * diagonal whenever the two pieces it separates form a convex polygon of at
 * most N vertices. Longer diagonals go first (they tend to merge bigger
 * pieces). Pieces of one island do not overlap, so their mass properties
 * add up. */
#include <stdlib.h>
#include <string.h>

#include "mask_private.h"

#define EPS_AREA 1e-10

static bool same_point(TessDVec2 a, TessDVec2 b) { return a.x == b.x && a.y == b.y; }

/* True when segments pq and ab cross at a point interior to both. */
static bool segments_cross(TessDVec2 p, TessDVec2 q, TessDVec2 a, TessDVec2 b) {
  double d1 = tess_d2_orient(p, q, a), d2 = tess_d2_orient(p, q, b);
  double d3 = tess_d2_orient(a, b, p), d4 = tess_d2_orient(a, b, q);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/* True when c lies strictly inside segment ab (collinear). */
static bool on_open_segment(TessDVec2 a, TessDVec2 b, TessDVec2 c) {
  if (same_point(a, c) || same_point(b, c)) return false;
  TessDVec2 ab = tess_d2_sub(b, a), ac = tess_d2_sub(c, a);
  double len2 = tess_d2_dot(ab, ab);
  if (fabs(tess_d2_cross(ab, ac)) > 1e-9 * sqrt(len2)) return false;
  double t = tess_d2_dot(ab, ac);
  return t > 0 && t < len2;
}

typedef struct HoleRef {
  uint32_t first, count; /* in w->poly */
  double max_x;
  double box[4]; /* min x, min y, max x, max y */
} HoleRef;

static int compare_holes(const void *a, const void *b) {
  const HoleRef *x = a, *y = b;
  return x->max_x > y->max_x ? -1 : x->max_x < y->max_x ? 1
                                                        : 0;
}

/* Is the bridge m-v free of the ring's edges and of the holes still waiting? */
static bool bridge_clear(const MaskWork *w, TessDVec2 m, TessDVec2 v, const HoleRef *holes, uint32_t from,
                         uint32_t hole_count) {
  const TessDVec2 *P = w->poly.data;
  const uint32_t *ring = w->ring.data;
  size_t n = w->ring.count;
  /* An edge can only cross m-v, or have its first end on it, when its
   * bounding box meets m-v's (widened by far more than on_open_segment's
   * slack): the cheap test first. */
  const double slack = 1e-6 * (1.0 + fabs(m.x) + fabs(m.y) + fabs(v.x) + fabs(v.y));
  const double x0 = mask_min(m.x, v.x) - slack, x1 = mask_max(m.x, v.x) + slack;
  const double y0 = mask_min(m.y, v.y) - slack, y1 = mask_max(m.y, v.y) + slack;
#define EDGE_AWAY(a, b) \
  (mask_max((a).x, (b).x) < x0 || mask_min((a).x, (b).x) > x1 || mask_max((a).y, (b).y) < y0 || mask_min((a).y, (b).y) > y1)
  for (size_t i = 0; i < n; i++) {
    TessDVec2 a = P[ring[i]], b = P[ring[i + 1 < n ? i + 1 : 0]];
    if (EDGE_AWAY(a, b)) continue;
    if (segments_cross(m, v, a, b) || on_open_segment(m, v, a)) return false;
  }
  for (uint32_t h = from; h < hole_count; h++) {
    const double *hb = holes[h].box;
    if (hb[2] < x0 || hb[0] > x1 || hb[3] < y0 || hb[1] > y1) continue;
    for (uint32_t i = 0; i < holes[h].count; i++) {
      TessDVec2 a = P[holes[h].first + i], b = P[holes[h].first + (i + 1 < holes[h].count ? i + 1 : 0)];
      if (EDGE_AWAY(a, b)) continue;
      if (segments_cross(m, v, a, b) || on_open_segment(m, v, a)) return false;
    }
  }
#undef EDGE_AWAY
  return true;
}

/* Does the direction from ring position pos towards m enter the polygon's
 * interior there? (The interior of a counter-clockwise ring is on the
 * left: the wedge turning counter-clockwise from the outgoing edge to the
 * incoming one.) This also picks the right copy of a vertex that a
 * previous bridge made appear twice. */
static bool bridge_enters(const MaskWork *w, size_t pos, TessDVec2 m) {
  const TessDVec2 *P = w->poly.data;
  size_t n = w->ring.count;
  TessDVec2 v = P[w->ring.data[pos]];
  TessDVec2 a = tess_d2_sub(P[w->ring.data[(pos + 1) % n]], v);
  TessDVec2 b = tess_d2_sub(P[w->ring.data[(pos + n - 1) % n]], v);
  TessDVec2 d = tess_d2_sub(m, v);
  if (tess_d2_cross(a, b) >= 0.0) return tess_d2_cross(a, d) > 0.0 && tess_d2_cross(d, b) > 0.0;
  return tess_d2_cross(a, d) > 0.0 || tess_d2_cross(d, b) > 0.0;
}

typedef struct Cand {
  double d2;
  uint32_t pos;
} Cand;

/* Candidates in a binary min-heap by distance: the nearest usually makes
 * a clear bridge, so building the heap (linear) and popping a few beats
 * sorting every ring vertex for every hole. */
/* Nearer first; among equals the earlier ring position (the order a
 * stable sort gave). */
static bool cand_before(Cand a, Cand b) { return a.d2 < b.d2 || (a.d2 == b.d2 && a.pos < b.pos); }

static void cand_sift_down(Cand *h, size_t n, size_t i) {
  Cand it = h[i];
  for (;;) {
    size_t l = 2 * i + 1, best = l;
    if (l >= n) break;
    if (l + 1 < n && cand_before(h[l + 1], h[l])) best = l + 1;
    if (!cand_before(h[best], it)) break;
    h[i] = h[best];
    i = best;
  }
  h[i] = it;
}

/* Splices every hole into w->ring. */
static bool bridge_holes(MaskWork *w, HoleRef *holes, uint32_t hole_count) {
  if (hole_count == 0) return true;
  qsort(holes, hole_count, sizeof *holes, compare_holes);
  for (uint32_t h = 0; h < hole_count; h++) {
    const TessDVec2 *P = w->poly.data;
    uint32_t mi = 0;
    for (uint32_t i = 1; i < holes[h].count; i++)
      if (P[holes[h].first + i].x > P[holes[h].first + mi].x) mi = i;
    uint32_t midx = holes[h].first + mi;
    TessDVec2 m = P[midx];
    size_t n = w->ring.count;
    /* The nearest vertex (the earlier on a tie, as the heap pops them)
     * nearly always makes a clear bridge: try it before building the heap. */
    Cand near = {INFINITY, 0};
    for (size_t i = 0; i < n; i++) { /* strictly nearer: ties keep the earlier position */
      TessDVec2 d = tess_d2_sub(P[w->ring.data[i]], m);
      double d2 = tess_d2_dot(d, d);
      if (d2 < near.d2) {
        near.d2 = d2;
        near.pos = (uint32_t)i;
      }
    }
    uint32_t pos = near.pos; /* fallback: the nearest vertex */
    if (!bridge_enters(w, near.pos, m) || !bridge_clear(w, m, P[w->ring.data[near.pos]], holes, h, hole_count)) {
      Cand *cand = tess_alloc(sizeof *cand * n);
      if (!cand) return false;
      for (size_t i = 0; i < n; i++) {
        TessDVec2 d = tess_d2_sub(P[w->ring.data[i]], m);
        cand[i].d2 = tess_d2_dot(d, d);
        cand[i].pos = (uint32_t)i;
      }
      for (size_t i = n / 2; i-- > 0;) cand_sift_down(cand, n, i);
      for (size_t left = n; left > 0;) {
        Cand c = cand[0];
        if (bridge_enters(w, c.pos, m) && bridge_clear(w, m, P[w->ring.data[c.pos]], holes, h, hole_count)) {
          pos = c.pos;
          break;
        }
        cand[0] = cand[--left];
        if (left) cand_sift_down(cand, left, 0);
      }
      tess_free(cand);
    }
    /* ring: ... v, m, h1, ..., m, v, ... */
    uint32_t extra = holes[h].count + 2;
    if (!TESS_ARRAY_RESERVE(&w->ring, n + extra)) return false;
    uint32_t *r = w->ring.data;
    memmove(r + pos + 1 + extra, r + pos + 1, sizeof *r * (n - pos - 1));
    uint32_t k = pos + 1;
    for (uint32_t i = 0; i <= holes[h].count; i++) r[k++] = holes[h].first + (mi + i) % holes[h].count;
    r[k++] = r[pos];
    w->ring.count = n + extra;
  }
  return true;
}

/* ---- Ear clipping ----------------------------------------------------- */

/* A vertex of the ring is an ear when its triangle turns left and no other
 * ring point lies inside it (or on the closing diagonal). Testing every
 * ring point makes clipping quadratic: a plate with a few dozen holes
 * bridged in has hundreds of ring points. Above ZORDER_MIN points, the
 * ring positions are also kept in z-order (Morton order of their
 * quantised coordinates, as earcut does): every point inside the
 * triangle's bounding box has a z-code between those of the box's corners,
 * so only that stretch of the z-ordered list is walked. The test is the
 * same, on the same points that can lie in the triangle, so the
 * triangulation is the same as with the full scan. */
#define ZORDER_MIN 64u
#define ZNONE UINT32_MAX

typedef struct ZFrame {
  double minx, miny, inv; /* quantisation: (x - minx) * inv in [0, 65535] */
} ZFrame;

static uint32_t spread_bits(uint32_t v) { /* 16 bits to the even bits of 32 */
  v = (v | (v << 8)) & 0x00FF00FFu;
  v = (v | (v << 4)) & 0x0F0F0F0Fu;
  v = (v | (v << 2)) & 0x33333333u;
  v = (v | (v << 1)) & 0x55555555u;
  return v;
}

static uint32_t quantise(double v) { return v <= 0.0 ? 0u : v >= 65535.0 ? 65535u
                                                                         : (uint32_t)v; }

/* Monotone in x and in y: a point in a box has a z-code between the box corners'. */
static uint32_t zorder(const ZFrame *f, TessDVec2 p) {
  return spread_bits(quantise((p.x - f->minx) * f->inv)) | (spread_bits(quantise((p.y - f->miny) * f->inv)) << 1);
}

static bool blocks_ear(TessDVec2 a, TessDVec2 b, TessDVec2 c, TessDVec2 p) {
  if (same_point(p, a) || same_point(p, b) || same_point(p, c)) return false;
  return tess_d2_orient(a, b, p) > 0 && tess_d2_orient(b, c, p) > 0 && tess_d2_orient(c, a, p) >= 0;
}

static bool is_ear(const MaskWork *w, uint32_t i) {
  const TessDVec2 *P = w->poly.data;
  const uint32_t *ring = w->ring.data, *prev = w->prev.data, *next = w->next.data;
  uint32_t ip = prev[i], in = next[i];
  TessDVec2 a = P[ring[ip]], b = P[ring[i]], c = P[ring[in]];
  if (tess_d2_orient(a, b, c) <= EPS_AREA) return false;
  for (uint32_t j = next[in]; j != ip; j = next[j])
    if (blocks_ear(a, b, c, P[ring[j]])) return false;
  return true;
}

/* is_ear through the z-ordered list (zprev/znext over the live positions). */
static bool is_ear_z(const MaskWork *w, const ZFrame *f, uint32_t i) {
  const TessDVec2 *P = w->poly.data;
  const uint32_t *ring = w->ring.data, *zc = w->zcode.data, *zp = w->zprev.data, *zn = w->znext.data;
  uint32_t ip = w->prev.data[i], in = w->next.data[i];
  TessDVec2 a = P[ring[ip]], b = P[ring[i]], c = P[ring[in]];
  if (tess_d2_orient(a, b, c) <= EPS_AREA) return false;
  double x0 = mask_min(a.x, mask_min(b.x, c.x)), x1 = mask_max(a.x, mask_max(b.x, c.x));
  double y0 = mask_min(a.y, mask_min(b.y, c.y)), y1 = mask_max(a.y, mask_max(b.y, c.y));
  uint32_t zlo = zorder(f, tess_d2(x0, y0)), zhi = zorder(f, tess_d2(x1, y1));
  /* b is a corner of the box, so the stretch [zlo, zhi] runs through i. */
  for (int dir = 0; dir < 2; dir++) {
    for (uint32_t j = dir ? zp[i] : zn[i]; j != ZNONE; j = dir ? zp[j] : zn[j]) {
      if (dir ? zc[j] < zlo : zc[j] > zhi) break;
      if (j == ip || j == in) continue;
      TessDVec2 p = P[ring[j]];
      if (p.x < x0 || p.x > x1 || p.y < y0 || p.y > y1) continue;
      if (blocks_ear(a, b, c, p)) return false;
    }
  }
  return true;
}

/* Builds the z-ordered list of ring positions 0..n). */
static bool zorder_build(MaskWork *w, uint32_t n, ZFrame *f) {
  if (!TESS_ARRAY_RESERVE(&w->zcode, n) || !TESS_ARRAY_RESERVE(&w->zprev, n) || !TESS_ARRAY_RESERVE(&w->znext, n) ||
      !TESS_ARRAY_RESERVE(&w->edges, 2 * (size_t)n) || !TESS_ARRAY_RESERVE(&w->sort_tmp, 2 * (size_t)n))
    return false;
  const TessDVec2 *P = w->poly.data;
  const uint32_t *ring = w->ring.data;
  double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
  for (uint32_t i = 0; i < n; i++) {
    TessDVec2 p = P[ring[i]];
    minx = mask_min(minx, p.x);
    maxx = mask_max(maxx, p.x);
    miny = mask_min(miny, p.y);
    maxy = mask_max(maxy, p.y);
  }
  double size = mask_max(maxx - minx, maxy - miny);
  f->minx = minx;
  f->miny = miny;
  f->inv = size > 0.0 ? 65535.0 / size : 0.0;
  uint64_t *kv = w->edges.data;
  for (uint32_t i = 0; i < n; i++) {
    w->zcode.data[i] = zorder(f, P[ring[i]]);
    kv[2 * i] = w->zcode.data[i];
    kv[2 * i + 1] = i;
  }
  mask_sort_pairs(kv, w->sort_tmp.data, n);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = (uint32_t)kv[2 * k + 1];
    w->zprev.data[i] = k ? (uint32_t)kv[2 * (k - 1) + 1] : ZNONE;
    w->znext.data[i] = k + 1 < n ? (uint32_t)kv[2 * (k + 1) + 1] : ZNONE;
  }
  return true;
}

static void zorder_remove(MaskWork *w, uint32_t i) {
  uint32_t p = w->zprev.data[i], n = w->znext.data[i];
  if (p != ZNONE) w->znext.data[p] = n;
  if (n != ZNONE) w->zprev.data[n] = p;
}

static bool triangulate(MaskWork *w) {
  uint32_t n = (uint32_t)w->ring.count;
  w->tri.count = 0;
  if (!TESS_ARRAY_RESERVE(&w->prev, n) || !TESS_ARRAY_RESERVE(&w->next, n)) return false;
  for (uint32_t i = 0; i < n; i++) {
    w->prev.data[i] = i ? i - 1 : n - 1;
    w->next.data[i] = i + 1 < n ? i + 1 : 0;
  }
  ZFrame frame;
  bool hashed = n > ZORDER_MIN;
  if (hashed && !zorder_build(w, n, &frame)) return false;
  const TessDVec2 *P = w->poly.data;
  uint32_t *prev = w->prev.data, *next = w->next.data;
  const uint32_t *ring = w->ring.data;
  uint32_t cur = 0, left = n, misses = 0;
  while (left > 3) {
    uint32_t ip = prev[cur], in = next[cur];
    double o = tess_d2_orient(P[ring[ip]], P[ring[cur]], P[ring[in]]);
    bool clip = false, emit = false;
    if (fabs(o) <= EPS_AREA) {
      clip = true; /* straight vertex or zero-width spike: drop it */
    } else if (hashed ? is_ear_z(w, &frame, cur) : is_ear(w, cur)) {
      clip = emit = true;
    } else if (misses > left) {
      /* No ear in a full turn: the outline touches itself. Clip the most
       * convex vertex anyway so the decomposition always finishes. */
      uint32_t best = cur, j = cur;
      double bo = -INFINITY;
      do {
        double oj = tess_d2_orient(P[ring[prev[j]]], P[ring[j]], P[ring[next[j]]]);
        if (oj > bo) {
          bo = oj;
          best = j;
        }
        j = next[j];
      } while (j != cur);
      cur = best;
      ip = prev[cur];
      in = next[cur];
      clip = true;
      emit = bo > EPS_AREA;
    }
    if (clip) {
      if (emit) {
        if (!TESS_ARRAY_RESERVE(&w->tri, w->tri.count + 3)) return false;
        w->tri.data[w->tri.count++] = ring[ip];
        w->tri.data[w->tri.count++] = ring[cur];
        w->tri.data[w->tri.count++] = ring[in];
      }
      next[ip] = in;
      prev[in] = ip;
      if (hashed) zorder_remove(w, cur);
      left--;
      misses = 0;
      cur = w->ear_forward ? in : ip;
    } else {
      cur = in;
      misses++;
    }
  }
  uint32_t ip = prev[cur], in = next[cur];
  if (tess_d2_orient(P[ring[ip]], P[ring[cur]], P[ring[in]]) > EPS_AREA) {
    if (!TESS_ARRAY_RESERVE(&w->tri, w->tri.count + 3)) return false;
    w->tri.data[w->tri.count++] = ring[ip];
    w->tri.data[w->tri.count++] = ring[cur];
    w->tri.data[w->tri.count++] = ring[in];
  }
  return true;
}

/* ---- Hertel-Mehlhorn ---------------------------------------------------- */

#define PSTRIDE TESS_MASK_MAX_VERTICES

static uint32_t owner_find(uint32_t *owner, uint32_t i) {
  while (owner[i] != i) {
    owner[i] = owner[owner[i]];
    i = owner[i];
  }
  return i;
}

typedef struct Diag {
  double len2;
  uint32_t u, v; /* point indices, u -> v in piece a */
  uint32_t a, b; /* triangles on either side */
} Diag;

/* Sort key putting longer diagonals first: the bits of a double >= 0
 * order like the number, so their complement orders it downwards. */
static uint64_t longer_first(double len2) {
  uint64_t bits;
  memcpy(&bits, &len2, sizeof bits);
  return ~bits;
}

/* Tries to merge piece q into piece p across u->v (in p) / v->u (in q). */
static bool try_merge(MaskWork *w, uint32_t p, uint32_t q, uint32_t u, uint32_t v, uint32_t max_n) {
  uint32_t *A = w->piece_idx.data + (size_t)p * PSTRIDE, na = w->piece_len.data[p];
  uint32_t *B = w->piece_idx.data + (size_t)q * PSTRIDE, nb = w->piece_len.data[q];
  uint32_t ia = UINT32_MAX, ib = UINT32_MAX;
  for (uint32_t i = 0; i < na; i++)
    if (A[i] == u && A[(i + 1) % na] == v) {
      ia = i;
      break;
    }
  for (uint32_t i = 0; i < nb; i++)
    if (B[i] == v && B[(i + 1) % nb] == u) {
      ib = i;
      break;
    }
  if (ia == UINT32_MAX || ib == UINT32_MAX) return false;
  uint32_t m[2 * PSTRIDE], n = 0;
  /* p from v around to u, then q strictly between u and v. */
  for (uint32_t k = 0; k < na; k++) m[n++] = A[(ia + 1 + k) % na];
  for (uint32_t k = 2; k < nb; k++) m[n++] = B[(ib + k) % nb];
  const TessDVec2 *P = w->poly.data;
  /* Drop straight vertices (they only cost a vertex), refuse reflex ones
   * and repeated points. */
  uint32_t out[2 * PSTRIDE], k = 0;
  for (uint32_t i = 0; i < n; i++) {
    TessDVec2 a = P[m[(i + n - 1) % n]], b = P[m[i]], c = P[m[(i + 1) % n]];
    double o = tess_d2_orient(a, b, c);
    TessDVec2 ab = tess_d2_sub(b, a), bc = tess_d2_sub(c, b);
    double scale = sqrt(tess_d2_dot(ab, ab) * tess_d2_dot(bc, bc));
    if (o < -1e-12 * scale) return false;
    if (o <= 1e-12 * scale) {
      if (tess_d2_dot(ab, bc) <= 0.0) return false; /* a spike */
      continue;
    }
    out[k++] = m[i];
  }
  if (k < 3 || k > max_n) return false;
  for (uint32_t i = 0; i < k; i++)
    for (uint32_t j = i + 1; j < k; j++)
      if (same_point(P[out[i]], P[out[j]])) return false;
  memcpy(A, out, sizeof *out * k);
  w->piece_len.data[p] = k;
  w->piece_len.data[q] = 0;
  w->owner.data[q] = p;
  return true;
}

static bool merge_pieces(MaskWork *w, uint32_t max_n) {
  uint32_t nt = (uint32_t)(w->tri.count / 3);
  if (!TESS_ARRAY_RESERVE(&w->piece_idx, (size_t)nt * PSTRIDE) || !TESS_ARRAY_RESERVE(&w->piece_len, nt) ||
      !TESS_ARRAY_RESERVE(&w->owner, nt) || !TESS_ARRAY_RESERVE(&w->edges, (size_t)nt * 3 * 2) ||
      !TESS_ARRAY_RESERVE(&w->sort_tmp, (size_t)nt * 3 * 2))
    return false;
  for (uint32_t t = 0; t < nt; t++) {
    memcpy(w->piece_idx.data + (size_t)t * PSTRIDE, w->tri.data + 3 * t, 3 * sizeof(uint32_t));
    w->piece_len.data[t] = 3;
    w->owner.data[t] = t;
  }
  /* Edge records: key (min, max) then (u, v, triangle). */
  uint64_t *e = w->edges.data;
  uint32_t ne = 0;
  for (uint32_t t = 0; t < nt; t++)
    for (uint32_t k = 0; k < 3; k++) {
      uint32_t u = w->tri.data[3 * t + k], v = w->tri.data[3 * t + (k + 1) % 3];
      uint32_t lo = u < v ? u : v, hi = u < v ? v : u;
      e[2 * ne] = ((uint64_t)lo << 32) | hi;
      e[2 * ne + 1] = ((uint64_t)t << 1) | (u < v ? 0u : 1u);
      ne++;
    }
  mask_sort_pairs(e, w->sort_tmp.data, ne);
  Diag *diags = tess_alloc(sizeof *diags * (ne / 2 + 1));
  if (!diags) return false;
  uint32_t nd = 0;
  const TessDVec2 *P = w->poly.data;
  for (uint32_t i = 0; i + 1 < ne; i++) {
    if (e[2 * i] != e[2 * (i + 1)]) continue;
    uint32_t ta = (uint32_t)(e[2 * i + 1] >> 1), tb = (uint32_t)(e[2 * i + 3] >> 1);
    if ((e[2 * i + 1] & 1) == (e[2 * i + 3] & 1)) continue; /* same direction: not a shared diagonal */
    uint32_t lo = (uint32_t)(e[2 * i] >> 32), hi = (uint32_t)e[2 * i];
    Diag d;
    /* In triangle ta the edge runs lo->hi when its flag is 0. */
    if ((e[2 * i + 1] & 1) == 0) {
      d.u = lo;
      d.v = hi;
      d.a = ta;
      d.b = tb;
    } else {
      d.u = lo;
      d.v = hi;
      d.a = tb;
      d.b = ta;
    }
    TessDVec2 dd = tess_d2_sub(P[hi], P[lo]);
    d.len2 = tess_d2_dot(dd, dd);
    diags[nd++] = d;
    i++;
  }
  /* The edge records are no longer needed: their room takes the order. */
  uint64_t *order = w->edges.data;
  for (uint32_t i = 0; i < nd; i++) {
    order[2 * i] = longer_first(diags[i].len2);
    order[2 * i + 1] = i;
  }
  mask_sort_pairs(order, w->sort_tmp.data, nd);
  for (uint32_t k = 0; k < nd; k++) {
    const Diag *d = &diags[order[2 * k + 1]];
    uint32_t p = owner_find(w->owner.data, d->a), q = owner_find(w->owner.data, d->b);
    if (p == q) continue;
    try_merge(w, p, q, d->u, d->v, max_n);
  }
  tess_free(diags);
  return true;
}

/* ---- Driver ---------------------------------------------------------------- */

/* Each merged piece clipped to its island's exact hull (clip.c), parts of
 * at most max_n vertices. */
static bool emit_pieces(MaskWork *w, uint32_t island, uint32_t max_n) {
  uint32_t nt = (uint32_t)(w->tri.count / 3);
  const TessDVec2 *P = w->poly.data;
  uint32_t h0 = w->hull_start.data[island], hn = w->hull_start.data[island + 1] - h0;
  for (uint32_t t = 0; t < nt; t++) {
    uint32_t len = w->piece_len.data[t];
    if (len < 3) continue;
    const uint32_t *idx = w->piece_idx.data + (size_t)t * PSTRIDE;
    TessDVec2 tmp[PSTRIDE];
    for (uint32_t k = 0; k < len; k++) tmp[k] = P[idx[k]];
    if (tess_poly_signed_area(tmp, len) <= EPS_AREA) continue;
    if (!mask_push_clipped(w, tmp, len, w->hull_v.data + h0, hn, max_n)) return false;
  }
  return true;
}

TessResult mask_decompose(MaskWork *w, uint32_t max_n, bool largest_only, TessError *err) {
  uint32_t loops = (uint32_t)w->loop_start.count - 1;
  w->out_v.count = 0;
  w->out_start.count = 0;
  w->island_count = 0;
  if (!TESS_ARRAY_PUSH(&w->out_start, 0u)) goto nomem;
  int32_t largest = -1;
  if (largest_only) {
    for (uint32_t i = 0; i < loops; i++)
      if (w->island.data[i] == (int32_t)i && (largest < 0 || w->loop_area.data[i] > w->loop_area.data[largest]))
        largest = (int32_t)i;
  }
  if (!mask_island_hulls(w)) goto nomem;
  TESS_ARRAY(HoleRef)
  holes = {0};
  /* Each island's holes as a list (first_hole, next_hole), so finding them
   * costs nothing per island even with a hundred thousand islands. */
  if (!TESS_ARRAY_RESERVE(&w->hole_link, 2 * (size_t)loops + 1)) goto nomem;
  int32_t *first_hole = (int32_t *)w->hole_link.data, *next_hole = first_hole + loops;
  for (uint32_t i = 0; i < loops; i++) first_hole[i] = next_hole[i] = -1;
  for (uint32_t i = loops; i-- > 0;) {
    int32_t o = w->island.data[i];
    if (o != (int32_t)i) {
      next_hole[i] = first_hole[o];
      first_hole[o] = (int32_t)i;
    }
  }
  for (uint32_t o = 0; o < loops; o++) {
    if (w->island.data[o] != (int32_t)o) continue;
    if (largest_only && (int32_t)o != largest) continue;
    const uint32_t *ss = w->simple_start.data;
    uint32_t on = ss[o + 1] - ss[o];
    if (on < 3 || tess_poly_signed_area(w->simple.data + ss[o], on) <= EPS_AREA) continue;
    w->poly.count = 0;
    w->ring.count = 0;
    holes.count = 0;
    for (uint32_t i = 0; i < on; i++) {
      if (!TESS_ARRAY_PUSH(&w->poly, w->simple.data[ss[o] + i]) || !TESS_ARRAY_PUSH(&w->ring, i)) goto nomem_holes;
    }
    for (int32_t hi = first_hole[o]; hi >= 0; hi = next_hole[hi]) {
      uint32_t hl = (uint32_t)hi;
      uint32_t hn = ss[hl + 1] - ss[hl];
      /* A hole the simplification closed up (or turned inside out) is dropped: the pieces cover it. */
      if (hn < 3 || tess_poly_signed_area(w->simple.data + ss[hl], hn) >= -EPS_AREA) continue;
      HoleRef ref = {(uint32_t)w->poly.count, hn, -INFINITY, {INFINITY, INFINITY, -INFINITY, -INFINITY}};
      for (uint32_t i = 0; i < hn; i++) {
        TessDVec2 p = w->simple.data[ss[hl] + i];
        if (p.x > ref.max_x) ref.max_x = p.x;
        ref.box[0] = mask_min(ref.box[0], p.x);
        ref.box[1] = mask_min(ref.box[1], p.y);
        ref.box[2] = mask_max(ref.box[2], p.x);
        ref.box[3] = mask_max(ref.box[3], p.y);
        if (!TESS_ARRAY_PUSH(&w->poly, p)) goto nomem_holes;
      }
      if (!TESS_ARRAY_PUSH(&holes, ref)) goto nomem_holes;
    }
    if (!bridge_holes(w, holes.data, (uint32_t)holes.count)) goto nomem_holes;
    if (!triangulate(w)) goto nomem_holes;
    if (!merge_pieces(w, max_n)) goto nomem_holes;
    if (!emit_pieces(w, o, max_n)) goto nomem_holes;
    w->island_count++;
  }
  TESS_ARRAY_FREE(&holes);
  return TESS_OK;
nomem_holes:
  TESS_ARRAY_FREE(&holes);
nomem:
  return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory decomposing the outline");
}
