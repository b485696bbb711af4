/* Hand edits of a sprite's collision shape (see tessera/level.h). */
#include "tessera/level.h"

#include <math.h>
#include <string.h>

#include "tessera/geom.h"

/* Indices come from the caller's own picks: one past the mask is a mistake
 * (asserts in debug builds; off, the edit is refused). */
static bool valid(const TessSpriteMask *mask, uint32_t piece, uint32_t vertex) {
  TESS_ASSERT(piece < mask->piece_count && vertex < mask->pieces[piece].count && "mask piece or vertex out of range");
  return piece < mask->piece_count && vertex < mask->pieces[piece].count;
}

/* Physics takes convex pieces: a move that would fold one is refused. */
static bool piece_convex(const TessPolygon *p) {
  TessDVec2 pts[TESS_POLY_MAX];
  for (uint32_t i = 0; i < p->count; i++) pts[i] = tess_d2(p->v[i].x, p->v[i].y);
  double area = tess_poly_signed_area(pts, p->count);
  if (fabs(area) < 1e-6) return false;
  if (area < 0)
    for (uint32_t i = 0; i < p->count / 2; i++) {
      TessDVec2 t = pts[i];
      pts[i] = pts[p->count - 1 - i];
      pts[p->count - 1 - i] = t;
    }
  return tess_poly_is_convex(pts, p->count, 1e-6);
}

bool tess_mask_shape_move_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t vertex, float x, float y) {
  if (!valid(mask, piece, vertex) || !isfinite(x) || !isfinite(y)) return false;
  TessVec2 old = mask->pieces[piece].v[vertex];
  mask->pieces[piece].v[vertex] = tess_v2(x, y);
  if (!piece_convex(&mask->pieces[piece])) {
    mask->pieces[piece].v[vertex] = old;
    return false;
  }
  return true;
}

bool tess_mask_shape_insert_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t after, float x, float y) {
  if (!valid(mask, piece, after) || !isfinite(x) || !isfinite(y)) return false;
  TessPolygon *p = &mask->pieces[piece];
  if (p->count >= TESS_POLY_MAX) return false;
  memmove(p->v + after + 2, p->v + after + 1, sizeof p->v[0] * (p->count - after - 1));
  p->v[after + 1] = tess_v2(x, y);
  p->count++;
  return true;
}

bool tess_mask_shape_remove_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t vertex) {
  if (!valid(mask, piece, vertex)) return false;
  TessPolygon *p = &mask->pieces[piece];
  if (p->count <= 3) return false;
  memmove(p->v + vertex, p->v + vertex + 1, sizeof p->v[0] * (p->count - vertex - 1));
  p->count--;
  return true;
}

static uint32_t piece_points(const TessPolygon *p, TessDVec2 *out) {
  for (uint32_t i = 0; i < p->count; i++) out[i] = tess_d2(p->v[i].x, p->v[i].y);
  return p->count;
}

/* Area of the part of polygon `a` (either orientation, convex or not, a hand
 * edit can make it concave) inside the convex counter-clockwise `clip`:
 * Sutherland-Hodgman against each edge of `clip`. Exact for convex `a`. */
static double clipped_area(const TessDVec2 *a, uint32_t n, const TessDVec2 *clip, uint32_t m) {
  uint32_t cap = n + m + 2;
  TessDVec2 *cur = tess_alloc(sizeof *cur * cap * 2);
  if (!cur) return 0.0;
  TessDVec2 *next = cur + cap;
  memcpy(cur, a, sizeof *a * n);
  if (tess_poly_signed_area(cur, n) < 0) /* the clip keeps the left side: orient `a` the same way */
    for (uint32_t i = 0; i < n / 2; i++) {
      TessDVec2 t = cur[i];
      cur[i] = cur[n - 1 - i];
      cur[n - 1 - i] = t;
    }
  uint32_t count = n;
  for (uint32_t e = 0; e < m && count > 0; e++) {
    TessDVec2 c0 = clip[e], c1 = clip[(e + 1) % m];
    uint32_t out = 0;
    for (uint32_t i = 0; i < count && out + 2 <= cap; i++) {
      TessDVec2 p = cur[i], q = cur[(i + 1) % count];
      double sp = tess_d2_orient(c0, c1, p), sq = tess_d2_orient(c0, c1, q);
      if (sp >= 0) next[out++] = p;
      if ((sp >= 0) != (sq >= 0)) {
        double t = sp / (sp - sq);
        next[out++] = tess_d2(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y));
      }
    }
    TessDVec2 *swap = cur;
    cur = next;
    next = swap;
    count = out;
  }
  double area = count >= 3 ? fabs(tess_poly_signed_area(cur, count)) : 0.0;
  tess_free(cur < next ? cur : next);
  return area;
}

void tess_mask_shape_update(TessSpriteMask *mask, TessImageView frame) {
  mask->manual = 1;
  /* The exact hull, counter-clockwise in geom.h's sense. */
  TessDVec2 *hull = tess_alloc(sizeof *hull * (mask->hull_count ? mask->hull_count : 1));
  if (!hull) return;
  for (uint32_t i = 0; i < mask->hull_count; i++) hull[i] = tess_d2(mask->hull[i].x, mask->hull[i].y);
  double hull_area = mask->hull_count >= 3 ? tess_poly_signed_area(hull, mask->hull_count) : 0.0;
  if (hull_area < 0) {
    for (uint32_t i = 0; i < mask->hull_count / 2; i++) {
      TessDVec2 t = hull[i];
      hull[i] = hull[mask->hull_count - 1 - i];
      hull[mask->hull_count - 1 - i] = t;
    }
    hull_area = -hull_area;
  }

  if (mask->mode == TESS_MASK_CIRCLE) {
    TessMassProps circle = tess_circle_mass(tess_d2(mask->circle_center.x, mask->circle_center.y), mask->circle_radius);
    mask->shape_area = circle.area;
    mask->shape_centroid_x = circle.cx;
    mask->shape_centroid_y = circle.cy;
    mask->shape_inertia = circle.inertia;
    mask->added_area = mask->shape_area - hull_area;
    mask->uncovered_area = 0.0;
    tess_free(hull);
    return;
  }

  TessMassProps *parts = tess_alloc(sizeof *parts * (mask->piece_count ? mask->piece_count : 1));
  if (!parts) {
    tess_free(hull);
    return;
  }
  double added = 0.0;
  TessDVec2 pts[TESS_POLY_MAX];
  for (uint32_t i = 0; i < mask->piece_count; i++) {
    uint32_t n = piece_points(&mask->pieces[i], pts);
    parts[i] = tess_polygon_mass(mask->pieces[i].v, mask->pieces[i].count);
    if (mask->hull_count >= 3) added += parts[i].area - clipped_area(pts, n, hull, mask->hull_count);
  }
  TessMassProps shape = tess_mass_combine(parts, mask->piece_count);
  tess_free(parts);
  tess_free(hull);
  mask->shape_area = shape.area;
  mask->shape_centroid_x = shape.cx;
  mask->shape_centroid_y = shape.cy;
  mask->shape_inertia = shape.inertia;
  mask->added_area = added > 0 ? added : 0.0;

  /* Uncovered: each opaque pixel's area not covered by any piece. The
   * pieces of a decomposition are disjoint, so their coverages add up; a
   * hand edit may overlap them, hence the clamp at one. */
  if (!frame.pixels || frame.width == 0 || frame.height == 0) return;
  float *cover = tess_calloc((size_t)frame.width * frame.height, sizeof *cover);
  if (!cover) return;
  for (uint32_t i = 0; i < mask->piece_count; i++) {
    uint32_t n = piece_points(&mask->pieces[i], pts);
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (uint32_t k = 0; k < n; k++) {
      x0 = fmin(x0, pts[k].x), x1 = fmax(x1, pts[k].x);
      y0 = fmin(y0, pts[k].y), y1 = fmax(y1, pts[k].y);
    }
    if (tess_poly_signed_area(pts, n) < 0)
      for (uint32_t k = 0; k < n / 2; k++) {
        TessDVec2 t = pts[k];
        pts[k] = pts[n - 1 - k];
        pts[n - 1 - k] = t;
      }
    bool convex = tess_poly_is_convex(pts, n, 1e-9);
    int32_t ix0 = (int32_t)fmax(0, floor(x0)), iy0 = (int32_t)fmax(0, floor(y0));
    int32_t ix1 = (int32_t)fmin(frame.width, ceil(x1)), iy1 = (int32_t)fmin(frame.height, ceil(y1));
    for (int32_t y = iy0; y < iy1; y++) {
      const uint8_t *row = frame.pixels + (size_t)y * frame.stride;
      for (int32_t x = ix0; x < ix1; x++) {
        if (row[4 * (size_t)x + 3] < mask->threshold) continue;
        double a;
        if (convex) {
          a = tess_convex_clip_rect_area(pts, n, x, y, x + 1, y + 1);
        } else { /* a concave hand-edited piece: sample the pixel centre */
          a = tess_poly_contains(pts, n, tess_d2(x + 0.5, y + 0.5)) ? 1.0 : 0.0;
        }
        cover[(size_t)y * frame.width + x] += (float)a;
      }
    }
  }
  double uncovered = 0.0;
  for (uint32_t y = 0; y < frame.height; y++) {
    const uint8_t *row = frame.pixels + (size_t)y * frame.stride;
    for (uint32_t x = 0; x < frame.width; x++) {
      if (row[4 * (size_t)x + 3] < mask->threshold) continue;
      double c = cover[(size_t)y * frame.width + x];
      uncovered += c >= 1.0 ? 0.0 : 1.0 - c;
    }
  }
  tess_free(cover);
  mask->uncovered_area = uncovered;
}

bool tess_mask_shape_pick_vertex(const TessSpriteMask *mask, float x, float y, float radius, uint32_t *piece,
                                 uint32_t *vertex) {
  double best = (double)radius * radius;
  bool found = false;
  for (uint32_t i = 0; i < mask->piece_count; i++)
    for (uint32_t k = 0; k < mask->pieces[i].count; k++) {
      double dx = mask->pieces[i].v[k].x - x, dy = mask->pieces[i].v[k].y - y;
      if (dx * dx + dy * dy <= best) {
        best = dx * dx + dy * dy;
        *piece = i;
        *vertex = k;
        found = true;
      }
    }
  return found;
}

bool tess_mask_shape_pick_edge(const TessSpriteMask *mask, float x, float y, float radius, uint32_t *piece,
                               uint32_t *vertex) {
  double best = radius;
  bool found = false;
  for (uint32_t i = 0; i < mask->piece_count; i++) {
    const TessPolygon *p = &mask->pieces[i];
    for (uint32_t k = 0; k < p->count; k++) {
      TessDVec2 a = tess_d2(p->v[k].x, p->v[k].y), b = tess_d2(p->v[(k + 1) % p->count].x, p->v[(k + 1) % p->count].y);
      TessDVec2 ab = tess_d2_sub(b, a), ap = tess_d2_sub(tess_d2(x, y), a);
      double len2 = tess_d2_dot(ab, ab);
      double t = len2 > 0 ? tess_d2_dot(ap, ab) / len2 : 0.0;
      t = t < 0 ? 0 : t > 1 ? 1
                            : t;
      double dx = a.x + t * ab.x - x, dy = a.y + t * ab.y - y;
      double d = sqrt(dx * dx + dy * dy);
      if (d <= best) {
        best = d;
        *piece = i;
        *vertex = k;
        found = true;
      }
    }
  }
  return found;
}
