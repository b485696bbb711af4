/* One call that traces a sprite frame into plain results (TessMaskTrace);
 * core/level stores them in a sprite's mask. */
#include <string.h>

#include "mask_private.h"

static TessPolygon polygon_from(const TessDVec2 *v, uint32_t n) {
  TessPolygon p;
  memset(&p, 0, sizeof p);
  p.count = n;
  for (uint32_t i = 0; i < n && i < TESS_POLY_MAX; i++) p.v[i] = tess_v2((float)v[i].x, (float)v[i].y);
  return p;
}

void tess_mask_trace_clear(TessMaskTrace *trace) {
  tess_free(trace->hull);
  tess_free(trace->pieces);
  memset(trace, 0, sizeof *trace);
}

TessResult tess_mask_trace(TessImageView frame, const TessMaskSettings *settings, TessMaskTrace *out, TessError *err) {
  TessMaskTraceReport rep = {false, 1, 0};
  TessMaskSettings s = *settings;
  if (s.max_vertices > TESS_POLY_MAX) /* pieces are TessPolygons */
    return tess_error_set(err, TESS_ERR_INVALID, "", "max vertices %u is more than a polygon's %d", s.max_vertices,
                          TESS_POLY_MAX);
  TessResult r = tess_mask_settings_validate(&s, err);
  if (r != TESS_OK) return r;

  TessMaskHull hull;
  memset(&hull, 0, sizeof hull);
  r = tess_mask_hull(frame, s.threshold, &hull, err);
  if (r != TESS_OK) return r;

  TessVec2 *hull_f = tess_alloc(sizeof *hull_f * hull.count);
  TessPolygon *pieces = NULL;
  uint32_t piece_count = 0;
  TessMassProps shape = tess_poly_mass(hull.v, hull.count);
  double added = 0.0, uncovered = 0.0;
  TessDVec2 center;
  double radius;
  tess_mask_fit_circle(&hull, &center, &radius);
  if (!hull_f) {
    r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the hull");
    goto fail;
  }
  for (uint32_t i = 0; i < hull.count; i++) hull_f[i] = tess_v2((float)hull.v[i].x, (float)hull.v[i].y);

  switch ((TessMaskMode)s.mode) {
    case TESS_MASK_HULL:
      break;
    case TESS_MASK_SIMPLIFIED: {
      TessDVec2 *simple = tess_alloc(sizeof *simple * hull.count);
      uint32_t n = 0;
      if (!simple) {
        r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the simplified hull");
        goto fail;
      }
      r = tess_mask_simplify_hull(hull.v, hull.count, s.max_vertices, simple, &n, &added, err);
      if (r == TESS_OK) {
        pieces = tess_alloc(sizeof *pieces);
        if (!pieces) r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the simplified hull");
      }
      if (r == TESS_OK) {
        pieces[0] = polygon_from(simple, n);
        piece_count = 1;
        shape = tess_poly_mass(simple, n);
      }
      tess_free(simple);
      if (r != TESS_OK) goto fail;
      break;
    }
    case TESS_MASK_PIECES: {
      TessMaskPieces p;
      r = tess_mask_pieces(frame, &s, &p, err);
      if (r != TESS_OK) goto fail;
      pieces = tess_alloc(sizeof *pieces * (p.count ? p.count : 1));
      if (!pieces) {
        tess_mask_pieces_clear(&p);
        r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for %u pieces", p.count);
        goto fail;
      }
      for (uint32_t i = 0; i < p.count; i++) pieces[i] = polygon_from(p.v + p.start[i], p.start[i + 1] - p.start[i]);
      piece_count = p.count;
      rep.simplified = p.block > 1;
      rep.block = p.block;
      rep.runs = p.runs;
      shape = p.shape;
      uncovered = p.uncovered_area;
      added = p.added_area;
      tess_mask_pieces_clear(&p);
      break;
    }
    case TESS_MASK_CIRCLE:
      shape.area = M_PI * radius * radius;
      shape.cx = center.x;
      shape.cy = center.y;
      shape.inertia = 0.5 * shape.area * radius * radius;
      added = shape.area - tess_poly_mass(hull.v, hull.count).area;
      break;
    case TESS_MASK_BOX: {
      TessDVec2 box[4];
      tess_mask_fit_box(&hull, box);
      pieces = tess_alloc(sizeof *pieces);
      if (!pieces) {
        r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the box");
        goto fail;
      }
      pieces[0] = polygon_from(box, 4);
      piece_count = 1;
      shape = tess_poly_mass(box, 4);
      added = shape.area - tess_poly_mass(hull.v, hull.count).area;
      break;
    }
  }

  out->hull_count = hull.count;
  out->hull = hull_f;
  out->piece_count = piece_count;
  out->pieces = pieces;
  out->circle_center = tess_v2((float)center.x, (float)center.y);
  out->circle_radius = (float)radius;
  out->pixels = hull.pixels;
  out->shape = shape;
  out->added_area = added;
  out->uncovered_area = uncovered;
  out->report = rep;
  tess_mask_hull_clear(&hull);
  return TESS_OK;
fail:
  tess_free(hull_f);
  tess_free(pieces);
  tess_mask_hull_clear(&hull);
  return r;
}
