/* Every tile of a tileset traced in one call, with one scratch space. */
#include <string.h>

#include "mask-private.h"

typedef struct TileResult {
  uint8_t collision;
  uint16_t piece_count;
  TessPolygon *pieces;
} TileResult;

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
      *err = scan_err;
      goto fail;
    }
    if (w.scan.count == full) {
      res[i].collision = TESS_TILE_COLLISION_FULL;
      continue;
    }
    r = mask_trace_outline(&w, s.tolerance, err);
    if (r == TESS_OK) r = mask_decompose(&w, s.max_vertices, s.largest_island_only, err);
    if (r != TESS_OK) goto fail;
    uint32_t np = (uint32_t)w.out_start.count - 1;
    if (np > UINT16_MAX) np = UINT16_MAX;
    res[i].collision = TESS_TILE_COLLISION_TRACED;
    res[i].piece_count = (uint16_t)np;
    res[i].pieces = tess_alloc(sizeof *res[i].pieces * (np ? np : 1));
    if (!res[i].pieces) {
      r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for tile %u", i);
      goto fail;
    }
    for (uint32_t p = 0; p < np; p++) {
      TessPolygon *poly = &res[i].pieces[p];
      memset(poly, 0, sizeof *poly);
      uint32_t a = w.out_start.data[p], b = w.out_start.data[p + 1];
      poly->count = b - a;
      for (uint32_t k = a; k < b; k++) poly->v[k - a] = tess_v2((float)w.out_v.data[k].x, (float)w.out_v.data[k].y);
    }
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
