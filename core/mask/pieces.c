/* Settings, the outline and pieces entry points, and the scratch space. */
#include <string.h>

#include "mask_private.h"

void tess_mask_settings_default(TessMaskSettings *s) {
  memset(s, 0, sizeof *s);
  s->threshold = 1;
  s->mode = TESS_MASK_SIMPLIFIED;
  s->largest_island_only = false;
  s->max_vertices = 8;
  s->tolerance = 1.0;
  s->run_budget = TESS_MASK_RUN_BUDGET;
}

TessResult tess_mask_settings_validate(const TessMaskSettings *s, TessError *err) {
  if (s->max_vertices < 3 || s->max_vertices > TESS_MASK_MAX_VERTICES)
    return tess_error_set(err, TESS_ERR_INVALID, "", "max vertices %u is outside 3..%u", s->max_vertices,
                          TESS_MASK_MAX_VERTICES);
  if (!(s->tolerance >= 0.0) || !isfinite(s->tolerance))
    return tess_error_set(err, TESS_ERR_INVALID, "", "tolerance %g is not a finite number >= 0", s->tolerance);
  if (s->mode > TESS_MASK_BOX) return tess_error_set(err, TESS_ERR_INVALID, "", "unknown mask mode %u", s->mode);
  return TESS_OK;
}

void mask_work_free(MaskWork *w) {
  mask_scan_free(&w->scan);
  tess_free(w->grid);
  TESS_ARRAY_FREE(&w->points);
  TESS_ARRAY_FREE(&w->loop_start);
  TESS_ARRAY_FREE(&w->simple);
  TESS_ARRAY_FREE(&w->simple_start);
  TESS_ARRAY_FREE(&w->keep);
  TESS_ARRAY_FREE(&w->stack);
  TESS_ARRAY_FREE(&w->kept_idx);
  TESS_ARRAY_FREE(&w->kept_shift);
  TESS_ARRAY_FREE(&w->island);
  TESS_ARRAY_FREE(&w->loop_area);
  TESS_ARRAY_FREE(&w->run_island);
  TESS_ARRAY_FREE(&w->poly);
  TESS_ARRAY_FREE(&w->ring);
  TESS_ARRAY_FREE(&w->prev);
  TESS_ARRAY_FREE(&w->next);
  TESS_ARRAY_FREE(&w->tri);
  TESS_ARRAY_FREE(&w->piece_idx);
  TESS_ARRAY_FREE(&w->piece_len);
  TESS_ARRAY_FREE(&w->owner);
  TESS_ARRAY_FREE(&w->edges);
  TESS_ARRAY_FREE(&w->sort_tmp);
  TESS_ARRAY_FREE(&w->zcode);
  TESS_ARRAY_FREE(&w->zprev);
  TESS_ARRAY_FREE(&w->znext);
  TESS_ARRAY_FREE(&w->run_cover);
  TESS_ARRAY_FREE(&w->hole_link);
  TESS_ARRAY_FREE(&w->hull_v);
  TESS_ARRAY_FREE(&w->hull_start);
  TESS_ARRAY_FREE(&w->hull_fill);
  TESS_ARRAY_FREE(&w->hull_rows);
  TESS_ARRAY_FREE(&w->clip);
  TESS_ARRAY_FREE(&w->clip_d);
  TESS_ARRAY_FREE(&w->out_v);
  TESS_ARRAY_FREE(&w->out_start);
  tess_free(w->bound);
  memset(w, 0, sizeof *w);
}

static uint32_t run_budget(const TessMaskSettings *s) {
  return s->run_budget ? s->run_budget : TESS_MASK_RUN_BUDGET;
}

TessResult mask_pieces_work(MaskWork *w, TessImageView img, const TessMaskSettings *s, TessError *err) {
  TessResult r = tess_mask_settings_validate(s, err);
  if (r != TESS_OK) return r;
  double tolerance = 0.0;
  r = mask_budget_outline(w, img, s->threshold, s->tolerance, run_budget(s), &tolerance, err);
  if (r != TESS_OK) return r;
  if (mask_needs_split(w)) r = mask_pieces_split(w, tolerance, s->max_vertices, s->largest_island_only, err);
  else r = mask_decompose(w, s->max_vertices, s->largest_island_only, err);
  if (r == TESS_OK && w->block > 1) r = mask_uncoarsen(w, s->max_vertices, err);
  return r;
}

/* The scan (runs kept up to the budget), the blocks when over it, and the
 * outline, whose tolerance (pixels) becomes *tolerance in blocks. */
TessResult mask_budget_outline(MaskWork *w, TessImageView img, uint8_t threshold, double tolerance, uint32_t budget,
                               double *traced_tolerance, TessError *err) {
  w->block = 1;
  w->scan.run_limit = budget;
  TessResult r = mask_scan(img, threshold, true, &w->scan, err);
  if (r != TESS_OK) return r;
  w->fine_runs = w->scan.runs_seen;
  if (w->scan.over) {
    r = mask_coarsen(w, img, threshold, err);
    if (r != TESS_OK) return r;
    tolerance /= w->block;
  }
  *traced_tolerance = tolerance;
  return mask_trace_outline(w, tolerance, err);
}

TessResult tess_mask_pieces(TessImageView img, const TessMaskSettings *settings, TessMaskPieces *out,
                            TessError *err) {
  MaskWork w;
  memset(&w, 0, sizeof w);
  TessResult r = mask_pieces_work(&w, img, settings, err);
  if (r != TESS_OK) {
    mask_work_free(&w);
    return r;
  }
  uint32_t np = (uint32_t)w.out_start.count - 1;
  TessMaskPieces p;
  memset(&p, 0, sizeof p);
  p.count = np;
  p.start = tess_alloc(sizeof *p.start * (np + 1));
  p.v = tess_alloc(sizeof *p.v * (w.out_v.count ? w.out_v.count : 1));
  TessMassProps *parts = tess_alloc(sizeof *parts * (np ? np : 1));
  if (!p.start || !p.v || !parts) {
    tess_free(p.start);
    tess_free(p.v);
    tess_free(parts);
    mask_work_free(&w);
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for %u pieces", np);
  }
  memcpy(p.start, w.out_start.data, sizeof *p.start * (np + 1));
  memcpy(p.v, w.out_v.data, sizeof *p.v * w.out_v.count);
  for (uint32_t i = 0; i < np; i++) parts[i] = tess_poly_mass(p.v + p.start[i], p.start[i + 1] - p.start[i]);
  p.shape = tess_mass_combine(parts, np);
  tess_free(parts);
  p.island_count = w.island_count;
  p.pixels = w.scan.mass;
  p.runs = w.fine_runs;
  p.block = w.block;
  double uncovered = w.block > 1 ? w.block_uncovered : w.scan.mass.area - mask_covered_area(&w);
  p.uncovered_area = uncovered > 0.0 ? uncovered : 0.0;
  double added = p.shape.area - (w.scan.mass.area - p.uncovered_area);
  p.added_area = added > 0.0 ? added : 0.0;
  mask_work_free(&w);
  *out = p;
  return TESS_OK;
}

void tess_mask_pieces_clear(TessMaskPieces *p) {
  if (!p) return;
  tess_free(p->start);
  tess_free(p->v);
  memset(p, 0, sizeof *p);
}

TessResult tess_mask_outline(TessImageView img, uint8_t threshold, double tolerance, TessMaskOutline *out,
                             TessError *err) {
  if (!(tolerance >= 0.0) || !isfinite(tolerance))
    return tess_error_set(err, TESS_ERR_INVALID, "", "tolerance %g is not a finite number >= 0", tolerance);
  MaskWork w;
  memset(&w, 0, sizeof w);
  double traced_tolerance;
  TessResult r = mask_budget_outline(&w, img, threshold, tolerance, TESS_MASK_RUN_BUDGET, &traced_tolerance, err);
  if (r != TESS_OK) {
    mask_work_free(&w);
    return r;
  }
  uint32_t loops = (uint32_t)w.simple_start.count - 1;
  TessMaskOutline o;
  memset(&o, 0, sizeof o);
  o.loop_count = loops;
  o.start = tess_alloc(sizeof *o.start * (loops + 1));
  o.v = tess_alloc(sizeof *o.v * (w.simple.count ? w.simple.count : 1));
  o.hole = tess_alloc(sizeof *o.hole * (loops ? loops : 1));
  o.island = tess_alloc(sizeof *o.island * (loops ? loops : 1));
  if (!o.start || !o.v || !o.hole || !o.island) {
    tess_mask_outline_clear(&o);
    mask_work_free(&w);
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the outline");
  }
  memcpy(o.start, w.simple_start.data, sizeof *o.start * (loops + 1));
  memcpy(o.v, w.simple.data, sizeof *o.v * w.simple.count);
  o.block = w.block;
  for (size_t i = 0; w.block > 1 && i < w.simple.count; i++) o.v[i] = tess_d2(o.v[i].x * w.block, o.v[i].y * w.block);
  for (uint32_t i = 0; i < loops; i++) {
    o.hole[i] = w.island.data[i] != (int32_t)i;
    o.island[i] = w.island.data[i];
  }
  mask_work_free(&w);
  *out = o;
  return TESS_OK;
}

void tess_mask_outline_clear(TessMaskOutline *o) {
  if (!o) return;
  tess_free(o->start);
  tess_free(o->v);
  tess_free(o->hole);
  tess_free(o->island);
  memset(o, 0, sizeof *o);
}
