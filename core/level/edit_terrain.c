/* The terrain edits: which cells a brush dab, a rectangle or a fill paints,
 * as a bitmap handed to the Wang fill (terrain_fill.c). */
#include "level_private.h"

static TessResult resolve(TessProject *p, TessId level_id, TessId layer_id, TessLevel **level, TessLayer **layer,
                          TessError *err) {
  *level = tess_project_level(p, level_id);
  if (!*level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  *layer = tess_level_layer(*level, layer_id);
  if (!*layer)
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "layer %u is not in level %s", layer_id,
                          (*level)->settings.name);
  if ((*layer)->props.kind != TESS_LAYER_TILES)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s holds no tiles", (*layer)->props.name);
  if ((*layer)->props.locked)
    return tess_error_set(err, TESS_ERR_LOCKED, LEVEL_FILE, "layer %s is locked", (*layer)->props.name);
  return TESS_OK;
}

static TessResult no_memory(TessError *err) {
  return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
}

TessResult tess_edit_terrain_cells(TessProject *p, TessId level_id, TessId layer_id, const TessTerrainBrush *brush,
                                   const uint32_t *xy, uint32_t count, uint32_t merge, TessError *err) {
  TessLevel *level;
  TessLayer *layer;
  TessResult r = resolve(p, level_id, layer_id, &level, &layer, err);
  if (r) return r;
  const uint32_t W = level->settings.width, H = level->settings.height;
  uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t x = xy[2 * i], y = xy[2 * i + 1];
    if (x >= W || y >= H) continue;
    x0 = x < x0 ? x : x0;
    y0 = y < y0 ? y : y0;
    x1 = x > x1 ? x : x1;
    y1 = y > y1 ? y : y1;
  }
  if (x0 == UINT32_MAX) /* nothing inside: still checks the brush */
    return level_terrain_apply(p, level, layer, brush, NULL, 0, 0, 0, 0, "Paint terrain", merge, err);
  uint32_t mw = x1 - x0 + 1, mh = y1 - y0 + 1;
  uint8_t *bits = tess_calloc((size_t)mw * mh, 1);
  if (!bits) return no_memory(err);
  for (uint32_t i = 0; i < count; i++) {
    uint32_t x = xy[2 * i], y = xy[2 * i + 1];
    if (x < W && y < H) bits[(size_t)(y - y0) * mw + (x - x0)] = 1;
  }
  r = level_terrain_apply(p, level, layer, brush, bits, x0, y0, mw, mh, "Paint terrain", merge, err);
  tess_free(bits);
  return r;
}

TessResult tess_edit_terrain_rect(TessProject *p, TessId level_id, TessId layer_id, const TessTerrainBrush *brush,
                                  int32_t x, int32_t y, uint32_t w, uint32_t h, uint32_t merge, TessError *err) {
  TessLevel *level;
  TessLayer *layer;
  TessResult r = resolve(p, level_id, layer_id, &level, &layer, err);
  if (r) return r;
  int64_t x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
  int64_t x1 = (int64_t)x + w, y1 = (int64_t)y + h;
  if (x1 > level->settings.width) x1 = level->settings.width;
  if (y1 > level->settings.height) y1 = level->settings.height;
  if (x0 >= x1 || y0 >= y1)
    return level_terrain_apply(p, level, layer, brush, NULL, 0, 0, 0, 0, "Terrain rectangle", merge, err);
  size_t n = (size_t)(x1 - x0) * (size_t)(y1 - y0);
  uint8_t *bits = tess_alloc(n);
  if (!bits) return no_memory(err);
  memset(bits, 1, n);
  r = level_terrain_apply(p, level, layer, brush, bits, (uint32_t)x0, (uint32_t)y0, (uint32_t)(x1 - x0),
                          (uint32_t)(y1 - y0), "Terrain rectangle", merge, err);
  tess_free(bits);
  return r;
}

/* Marks the 4-connected region of cells equal to the one at (x, y) in a
 * level-sized bitmap, scanline by scanline (runs on a stack, no recursion),
 * and returns its bounding box. */
static bool flood_region(const TessLayer *layer, uint32_t W, uint32_t H, uint32_t x, uint32_t y, uint8_t *bits,
                         uint32_t box[4]) {
  const uint32_t target = tess_layer_cell(layer, x, y);
  TESS_ARRAY(uint32_t)
  stack = {0};
  if (!TESS_ARRAY_PUSH(&stack, x) || !TESS_ARRAY_PUSH(&stack, y)) {
    TESS_ARRAY_FREE(&stack);
    return false;
  }
  box[0] = box[2] = x;
  box[1] = box[3] = y;
  bool ok = true;
  while (ok && stack.count) {
    uint32_t sy = stack.data[--stack.count];
    uint32_t sx = stack.data[--stack.count];
    uint8_t *row = &bits[(size_t)sy * W];
    if (row[sx]) continue;
    uint32_t lx = sx, rx = sx;
    while (lx > 0 && !row[lx - 1] && tess_layer_cell(layer, lx - 1, sy) == target) lx--;
    while (rx + 1 < W && !row[rx + 1] && tess_layer_cell(layer, rx + 1, sy) == target) rx++;
    memset(&row[lx], 1, rx - lx + 1);
    if (lx < box[0]) box[0] = lx;
    if (rx > box[2]) box[2] = rx;
    if (sy < box[1]) box[1] = sy;
    if (sy > box[3]) box[3] = sy;
    for (int d = -1; d <= 1 && ok; d += 2) {
      if ((d < 0 && sy == 0) || (d > 0 && sy + 1 >= H)) continue;
      uint32_t ny = (uint32_t)((int64_t)sy + d);
      const uint8_t *nrow = &bits[(size_t)ny * W];
      bool in_run = false;
      for (uint32_t xx = lx; xx <= rx && ok; xx++) {
        bool match = !nrow[xx] && tess_layer_cell(layer, xx, ny) == target;
        if (match && !in_run) ok = TESS_ARRAY_PUSH(&stack, xx) && TESS_ARRAY_PUSH(&stack, ny);
        in_run = match;
      }
    }
  }
  TESS_ARRAY_FREE(&stack);
  return ok;
}

TessResult tess_edit_terrain_fill(TessProject *p, TessId level_id, TessId layer_id, const TessTerrainBrush *brush,
                                  uint32_t x, uint32_t y, uint32_t merge, TessError *err) {
  TessLevel *level;
  TessLayer *layer;
  TessResult r = resolve(p, level_id, layer_id, &level, &layer, err);
  if (r) return r;
  const uint32_t W = level->settings.width, H = level->settings.height;
  if (x >= W || y >= H)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "terrain fill at (%u, %u) is outside the %u x %u level",
                          x, y, W, H);
  uint8_t *bits = tess_calloc((size_t)W * H, 1);
  uint32_t box[4];
  if (!bits || !flood_region(layer, W, H, x, y, bits, box)) {
    tess_free(bits);
    return no_memory(err);
  }
  /* The region's box as its own bitmap (rows moved down in place). */
  uint32_t mw = box[2] - box[0] + 1, mh = box[3] - box[1] + 1;
  for (uint32_t yy = 0; yy < mh; yy++)
    memmove(&bits[(size_t)yy * mw], &bits[(size_t)(box[1] + yy) * W + box[0]], mw);
  r = level_terrain_apply(p, level, layer, brush, bits, box[0], box[1], mw, mh, "Terrain fill", merge, err);
  tess_free(bits);
  return r;
}
