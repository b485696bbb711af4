/* Every tile of a tileset traced in one call, with one scratch space. */
#include <string.h>

#include "mask_private.h"

typedef struct PolygonList {
  TessPolygon *data;
  size_t count, cap;
} PolygonList;

/* Appends one convex polygon as float pieces, cut into parts of at most
 * max_n vertices (mask_cut_convex). Coordinates are clamped to the tile
 * (the clip may leave a vertex 1e-15 px past the square's side). */
static bool append_parts(PolygonList *out, TessDVec2 *v, uint32_t k, uint32_t max_n, TessDVec2 *tmp, double tw,
                         double th) {
  while (k >= 3) {
    TessDVec2 part[TESS_MASK_MAX_VERTICES];
    uint32_t n = k;
    if (k > max_n) {
      k = mask_cut_convex(v, k, max_n, part, tmp);
      n = max_n;
    } else {
      memcpy(part, v, sizeof *part * k);
      k = 0;
    }
    if (tess_poly_signed_area(part, n) <= 1e-9) continue;
    TessPolygon p;
    memset(&p, 0, sizeof p);
    for (uint32_t i = 0; i < n; i++)
      p.v[p.count++] = tess_v2((float)fmin(fmax(part[i].x, 0.0), tw), (float)fmin(fmax(part[i].y, 0.0), th));
    if (!TESS_ARRAY_PUSH(out, p)) return false;
  }
  return true;
}

/* The traced pieces (already inside the exact hull of their island's
 * pixels, so inside the tile) clipped to the tile square all the same:
 * a shape must never reach into the neighbouring cells. */
static bool clip_to_tile(MaskWork *w, uint32_t tile_w, uint32_t tile_h, uint32_t max_n, TessPolygon **pieces,
                         uint32_t *count) {
  PolygonList out = {NULL, 0, 0};
  uint32_t np = (uint32_t)w->out_start.count - 1;
  const TessDVec2 box[4] = {{0, 0}, {tile_w, 0}, {tile_w, tile_h}, {0, tile_h}};
  for (uint32_t p = 0; p < np; p++) {
    uint32_t a = w->out_start.data[p], n = w->out_start.data[p + 1] - a;
    TessDVec2 v[TESS_MASK_MAX_VERTICES + 4], tmp[TESS_MASK_MAX_VERTICES + 4];
    double d[TESS_MASK_MAX_VERTICES + 4];
    memcpy(v, w->out_v.data + a, sizeof *v * n);
    uint32_t k = mask_clip_convex(v, n, box, 4, tmp, d);
    if (k < 3 || tess_poly_signed_area(v, k) <= 1e-9) continue;
    if (!append_parts(&out, v, k, max_n, tmp, tile_w, tile_h)) {
      TESS_ARRAY_FREE(&out);
      return false;
    }
  }
  if (out.count > UINT16_MAX) out.count = UINT16_MAX;
  *pieces = out.data;
  *count = (uint32_t)out.count;
  return true;
}

/* The budget over the whole tileset: the largest run count c such that the
 * tiles of at most c runs hold at most `budget` runs together (tiles of more
 * are given their simplified hull instead of pieces). One sort, so the
 * choice depends on the tiles, not on their order. */
static uint64_t tile_run_cap(const uint64_t *runs, uint32_t count, uint64_t budget) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < count; i++) total += runs[i];
  if (total <= budget) return UINT64_MAX;
  uint64_t *sorted = tess_alloc(sizeof *sorted * 2 * (count ? count : 1));
  if (!sorted) return 0;
  for (uint32_t i = 0; i < count; i++) {
    sorted[2 * i] = runs[i];
    sorted[2 * i + 1] = i;
  }
  uint64_t *tmp = tess_alloc(sizeof *tmp * 2 * (count ? count : 1));
  if (!tmp) {
    tess_free(sorted);
    return 0;
  }
  mask_sort_pairs(sorted, tmp, count);
  uint64_t cap = 0, sum = 0;
  for (uint32_t i = 0; i < count;) {
    uint32_t j = i;
    uint64_t group = 0;
    while (j < count && sorted[2 * j] == sorted[2 * i]) group += sorted[2 * j++];
    if (sum + group > budget) break;
    sum += group;
    cap = sorted[2 * i];
    i = j;
  }
  tess_free(tmp);
  tess_free(sorted);
  return cap;
}

/* A tile over the budget: its exact hull simplified to max_vertices, in the tile. */
static bool hull_piece(MaskWork *w, uint32_t tile_w, uint32_t tile_h, uint32_t max_n, TessPolygon **pieces,
                       uint32_t *count) {
  TessDVec2 *hull = NULL;
  uint32_t hc = 0, n = 0;
  double added;
  if (mask_hull_from_scan(&w->scan, &hull, &hc, NULL) != TESS_OK) return false;
  TessDVec2 *simple = tess_alloc(sizeof *simple * (hc + 3));
  bool ok = simple && tess_mask_simplify_hull(hull, hc, max_n, simple, &n, &added, NULL) == TESS_OK;
  w->out_v.count = 0;
  w->out_start.count = 0;
  ok = ok && TESS_ARRAY_PUSH(&w->out_start, 0u) && mask_push_clipped(w, simple, n, NULL, 0, max_n);
  tess_free(simple);
  tess_free(hull);
  return ok && clip_to_tile(w, tile_w, tile_h, max_n, pieces, count);
}

static TessImageView tile_view(TessImageView img, uint32_t i, uint64_t columns, uint32_t tile_w, uint32_t tile_h,
                               uint32_t margin, uint32_t spacing) {
  uint64_t px = margin + (i % columns) * ((uint64_t)tile_w + spacing);
  uint64_t py = margin + (i / columns) * ((uint64_t)tile_h + spacing);
  TessImageView t = {tile_w, tile_h, img.stride, img.pixels + py * img.stride + px * 4};
  return t;
}

void tess_mask_tiles_free(TessMaskTile *tiles, uint32_t tile_count) {
  if (!tiles) return;
  for (uint32_t i = 0; i < tile_count; i++) tess_free(tiles[i].pieces);
  tess_free(tiles);
}

TessResult tess_mask_trace_tile_grid(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                     uint32_t spacing, const TessMaskSettings *settings, uint32_t tile_count,
                                     TessMaskTile **out, uint32_t *simplified, TessError *err) {
  return tess_mask_trace_tile_grid_watched(img, tile_w, tile_h, margin, spacing, settings, tile_count, out, simplified,
                                           NULL, err);
}

static bool watch_cancelled(const TessMaskWatch *watch) { return watch && watch->cancel && *watch->cancel; }

/* The scan of every tile counts for the first tenth of the work, the
 * tracing for the rest: the scan keeps no runs and is the cheap part. */
static void watch_progress(const TessMaskWatch *watch, double fraction) {
  if (watch && watch->progress) watch->progress(fraction, watch->user);
}

TessResult tess_mask_trace_tile_grid_watched(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                             uint32_t spacing, const TessMaskSettings *settings, uint32_t tile_count,
                                             TessMaskTile **out, uint32_t *simplified, const TessMaskWatch *watch,
                                             TessError *err) {
  TessResult r = mask_check_view(img, err);
  if (r != TESS_OK) return r;
  TessMaskSettings s = *settings;
  if (s.max_vertices > TESS_POLY_MAX) s.max_vertices = TESS_POLY_MAX;
  r = tess_mask_settings_validate(&s, err);
  if (r != TESS_OK) return r;
  if (tile_w == 0 || tile_h == 0) return tess_error_set(err, TESS_ERR_INVALID, "", "tile size %ux%u", tile_w, tile_h);
  uint64_t usable_w = img.width >= 2ull * margin ? img.width - 2ull * margin : 0;
  uint64_t usable_h = img.height >= 2ull * margin ? img.height - 2ull * margin : 0;
  uint64_t columns = usable_w >= tile_w ? (usable_w - tile_w) / ((uint64_t)tile_w + spacing) + 1 : 0;
  uint64_t rows = usable_h >= tile_h ? (usable_h - tile_h) / ((uint64_t)tile_h + spacing) + 1 : 0;
  if ((uint64_t)tile_count > columns * rows)
    return tess_error_set(err, TESS_ERR_INVALID, "", "%u tiles asked, the %ux%u image holds %llu of %ux%u",
                          tile_count, img.width, img.height, (unsigned long long)(columns * rows), tile_w, tile_h);
  TessMaskTile *res = tess_calloc(tile_count ? tile_count : 1, sizeof *res);
  uint64_t *runs = tess_calloc(tile_count ? tile_count : 1, sizeof *runs);
  if (!res || !runs) {
    tess_free(res);
    tess_free(runs);
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for %u tiles", tile_count);
  }
  MaskWork w;
  memset(&w, 0, sizeof w);
  const uint64_t full = (uint64_t)tile_w * tile_h;
  /* First the runs of every tile to trace (a scan that keeps none), against the budget. */
  for (uint32_t i = 0; i < tile_count; i++) {
    TessImageView t = tile_view(img, i, columns, tile_w, tile_h, margin, spacing);
    if (mask_scan(t, s.threshold, false, &w.scan, NULL) == TESS_OK && w.scan.count < full) runs[i] = w.scan.runs_seen;
  }
  watch_progress(watch, 0.1);
  uint64_t cap = tile_run_cap(runs, tile_count, s.run_budget ? s.run_budget : TESS_MASK_RUN_BUDGET);
  uint32_t over = 0;
  for (uint32_t i = 0; i < tile_count; i++) {
    if (watch_cancelled(watch)) {
      r = tess_error_set(err, TESS_ERR_EMPTY, "", "cancelled at tile %u of %u", i, tile_count);
      goto fail;
    }
    /* Every 64th tile: a callback per tile would cost more than a small tile's trace. */
    if ((i & 63) == 0) watch_progress(watch, 0.1 + 0.9 * i / tile_count);
    TessImageView t = tile_view(img, i, columns, tile_w, tile_h, margin, spacing);
    bool hull_only = runs[i] > cap;
    TessError scan_err;
    r = mask_scan(t, s.threshold, !hull_only, &w.scan, &scan_err);
    if (r == TESS_ERR_EMPTY) {
      res[i].kind = TESS_MASK_TILE_EMPTY;
      continue;
    }
    if (r != TESS_OK) {
      if (err) *err = scan_err;
      goto fail;
    }
    if (w.scan.count == full) {
      res[i].kind = TESS_MASK_TILE_FULL;
      continue;
    }
    uint32_t np = 0;
    if (hull_only) {
      over++;
      if (!hull_piece(&w, tile_w, tile_h, s.max_vertices, &res[i].pieces, &np)) {
        r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for tile %u", i);
        goto fail;
      }
      res[i].kind = np ? TESS_MASK_TILE_TRACED : TESS_MASK_TILE_EMPTY;
      res[i].piece_count = (uint16_t)np;
      continue;
    }
    r = mask_trace_outline(&w, s.tolerance, err);
    if (r == TESS_OK) r = mask_decompose(&w, s.max_vertices, s.largest_island_only, err);
    if (r != TESS_OK) goto fail;
    if (!clip_to_tile(&w, tile_w, tile_h, s.max_vertices, &res[i].pieces, &np)) {
      r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for tile %u", i);
      goto fail;
    }
    res[i].kind = np ? TESS_MASK_TILE_TRACED : TESS_MASK_TILE_EMPTY;
    res[i].piece_count = (uint16_t)np;
  }
  mask_work_free(&w);
  tess_free(runs);
  watch_progress(watch, 1.0);
  if (simplified) *simplified = over;
  *out = res;
  return TESS_OK;
fail:
  mask_work_free(&w);
  tess_free(runs);
  for (uint32_t i = 0; i < tile_count; i++) tess_free(res[i].pieces);
  tess_free(res);
  return r;
}
