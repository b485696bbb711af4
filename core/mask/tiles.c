/* Every tile of a tileset traced in one call, with one scratch space. */
#include <string.h>

#include "mask-private.h"

typedef struct TileResult {
  uint8_t collision;
  uint16_t piece_count;
  TessPolygon *pieces;
} TileResult;

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

TessResult tess_mask_trace_tiles(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                 uint32_t spacing, const TessMaskSettings *settings, TessTileInfo *tiles,
                                 uint32_t tile_count, TessError *err) {
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
  TileResult *res = tess_calloc(tile_count ? tile_count : 1, sizeof *res);
  if (!res) return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for %u tiles", tile_count);
  MaskWork w;
  memset(&w, 0, sizeof w);
  const uint64_t full = (uint64_t)tile_w * tile_h;
  for (uint32_t i = 0; i < tile_count; i++) {
    uint64_t px = margin + (i % columns) * ((uint64_t)tile_w + spacing);
    uint64_t py = margin + (i / columns) * ((uint64_t)tile_h + spacing);
    TessImageView t = {tile_w, tile_h, img.stride, img.pixels + py * img.stride + px * 4};
    TessError scan_err;
    r = mask_scan(t, s.threshold, true, &w.scan, &scan_err);
    if (r == TESS_ERR_EMPTY) {
      res[i].collision = TESS_TILE_COLLISION_NONE;
      continue;
    }
    if (r != TESS_OK) {
      if (err) *err = scan_err;
      goto fail;
    }
    if (w.scan.count == full) {
      res[i].collision = TESS_TILE_COLLISION_FULL;
      continue;
    }
    r = mask_trace_outline(&w, s.tolerance, err);
    if (r == TESS_OK) r = mask_decompose(&w, s.max_vertices, s.largest_island_only, err);
    if (r != TESS_OK) goto fail;
    uint32_t np = 0;
    if (!clip_to_tile(&w, tile_w, tile_h, s.max_vertices, &res[i].pieces, &np)) {
      r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for tile %u", i);
      goto fail;
    }
    res[i].collision = np ? TESS_TILE_COLLISION_TRACED : TESS_TILE_COLLISION_NONE;
    res[i].piece_count = (uint16_t)np;
  }
  mask_work_free(&w);
  for (uint32_t i = 0; i < tile_count; i++) {
    tess_free(tiles[i].pieces);
    tiles[i].collision = res[i].collision;
    tiles[i].piece_count = res[i].piece_count;
    tiles[i].pieces = res[i].pieces;
  }
  tess_free(res);
  return TESS_OK;
fail:
  mask_work_free(&w);
  for (uint32_t i = 0; i < tile_count; i++) tess_free(res[i].pieces);
  tess_free(res);
  return r;
}
