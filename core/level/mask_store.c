/* A traced sprite or tileset stored into the level model: core/mask returns
 * plain results (TessMaskTrace, TessMaskTile) and knows nothing of sprites
 * or tilesets; this is where they become a TessSpriteMask or TessTileInfo. */
#include <string.h>

#include "tessera/level.h"

TessResult tess_sprite_mask_trace(TessImageView frame, TessSpriteMask *mask, TessError *err) {
  return tess_sprite_mask_trace_report(frame, mask, NULL, err);
}

TessResult tess_sprite_mask_trace_report(TessImageView frame, TessSpriteMask *mask, TessMaskTraceReport *report,
                                         TessError *err) {
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  s.threshold = mask->threshold;
  s.mode = mask->mode;
  s.max_vertices = mask->max_vertices;
  s.tolerance = mask->tolerance;
  s.largest_island_only = mask->largest_island_only != 0;
  /* A sprite's pieces are TessPolygons: say so before mask's own check. */
  if (s.max_vertices < 3 || s.max_vertices > TESS_POLY_MAX)
    return tess_error_set(err, TESS_ERR_INVALID, "", "max vertices %u is outside 3..%d for a sprite", s.max_vertices,
                          TESS_POLY_MAX);
  TessMaskTrace t;
  TessResult r = tess_mask_trace(frame, &s, &t, err);
  if (r != TESS_OK) return r;
  tess_free(mask->hull);
  tess_free(mask->pieces);
  mask->manual = 0;
  mask->hull_count = t.hull_count;
  mask->hull = t.hull;
  mask->piece_count = t.piece_count;
  mask->pieces = t.pieces;
  mask->circle_center = t.circle_center;
  mask->circle_radius = t.circle_radius;
  mask->area = t.pixels.area;
  mask->centroid_x = t.pixels.cx;
  mask->centroid_y = t.pixels.cy;
  mask->inertia = t.pixels.inertia;
  mask->shape_area = t.shape.area;
  mask->shape_centroid_x = t.shape.cx;
  mask->shape_centroid_y = t.shape.cy;
  mask->shape_inertia = t.shape.inertia;
  mask->added_area = t.added_area;
  mask->uncovered_area = t.uncovered_area;
  if (report) *report = t.report;
  return TESS_OK;
}

TessResult tess_mask_trace_tiles(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                 uint32_t spacing, const TessMaskSettings *settings, TessTileInfo *tiles,
                                 uint32_t tile_count, TessError *err) {
  return tess_mask_trace_tiles_report(img, tile_w, tile_h, margin, spacing, settings, tiles, tile_count, NULL, err);
}

static uint8_t tile_collision(uint8_t kind) {
  switch ((TessMaskTileKind)kind) {
    case TESS_MASK_TILE_FULL:
      return TESS_TILE_COLLISION_FULL;
    case TESS_MASK_TILE_TRACED:
      return TESS_TILE_COLLISION_TRACED;
    case TESS_MASK_TILE_EMPTY:
      break;
  }
  return TESS_TILE_COLLISION_NONE;
}

TessResult tess_mask_trace_tiles_report(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                        uint32_t spacing, const TessMaskSettings *settings, TessTileInfo *tiles,
                                        uint32_t tile_count, uint32_t *simplified, TessError *err) {
  return tess_mask_trace_tiles_watched(img, tile_w, tile_h, margin, spacing, settings, tiles, tile_count, simplified,
                                       NULL, err);
}

TessResult tess_mask_trace_tiles_watched(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                         uint32_t spacing, const TessMaskSettings *settings, TessTileInfo *tiles,
                                         uint32_t tile_count, uint32_t *simplified, const TessMaskWatch *watch,
                                         TessError *err) {
  TessMaskTile *traced = NULL;
  TessResult r = tess_mask_trace_tile_grid_watched(img, tile_w, tile_h, margin, spacing, settings, tile_count, &traced,
                                                   simplified, watch, err);
  if (r != TESS_OK) return r;
  for (uint32_t i = 0; i < tile_count; i++) {
    tess_free(tiles[i].pieces);
    tiles[i].collision = tile_collision(traced[i].kind);
    tiles[i].piece_count = traced[i].piece_count;
    tiles[i].pieces = traced[i].pieces; /* taken over */
  }
  tess_free(traced);
  return TESS_OK;
}
