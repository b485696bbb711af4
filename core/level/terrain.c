/* Terrain sets as data: copies, validation, labelling a tile, completeness. */
#include <stdio.h>

#include "level_private.h"

uint8_t tess_terrain_kind_mask(TessTerrainKind kind) {
  switch (kind) {
    case TESS_TERRAIN_CORNER: return 0xAA; /* positions 1, 3, 5, 7 */
    case TESS_TERRAIN_EDGE: return 0x55;   /* positions 0, 2, 4, 6 */
    default: return 0xFF;
  }
}

void tess_terrain_set_init(TessTerrainSet *set, const char *name, TessTerrainKind kind) {
  memset(set, 0, sizeof *set);
  snprintf(set->name, sizeof set->name, "%s", name ? name : "");
  set->kind = (uint8_t)kind;
  set->tile = -1;
}

void tess_terrain_set_clear(TessTerrainSet *set) {
  if (!set) return;
  tess_free(set->colors);
  tess_free(set->tiles);
  memset(set, 0, sizeof *set);
}

TessResult tess_terrain_set_copy(TessTerrainSet *dst, const TessTerrainSet *src) {
  TessTerrainSet t = *src;
  t.colors = NULL;
  t.tiles = NULL;
  if (src->color_count && !(t.colors = tess_calloc(src->color_count, sizeof *t.colors))) return TESS_ERR_NOMEM;
  if (src->tile_count && !(t.tiles = tess_calloc(src->tile_count, sizeof *t.tiles))) {
    tess_free(t.colors);
    return TESS_ERR_NOMEM;
  }
  if (src->color_count) memcpy(t.colors, src->colors, src->color_count * sizeof *t.colors);
  if (src->tile_count) memcpy(t.tiles, src->tiles, src->tile_count * sizeof *t.tiles);
  *dst = t;
  return TESS_OK;
}

void tess_terrain_sets_free(TessTerrainSet *sets, uint32_t count) {
  if (!sets) return;
  for (uint32_t i = 0; i < count; i++) tess_terrain_set_clear(&sets[i]);
  tess_free(sets);
}

TessResult tess_terrain_sets_copy(TessTerrainSet **dst, const TessTerrainSet *src, uint32_t count) {
  *dst = NULL;
  if (!count || !src) return TESS_OK;
  TessTerrainSet *out = tess_calloc(count, sizeof *out);
  if (!out) return TESS_ERR_NOMEM;
  for (uint32_t i = 0; i < count; i++)
    if (tess_terrain_set_copy(&out[i], &src[i])) {
      tess_terrain_sets_free(out, i);
      return TESS_ERR_NOMEM;
    }
  *dst = out;
  return TESS_OK;
}

static bool probability_ok(float v) { return isfinite(v) && v >= 0.0f && v <= 1e6f; }

TessResult tess_terrain_set_validate(const TessTerrainSet *set, uint32_t tile_count, const char *where,
                                     TessError *err) {
  char what[TESS_NAME_MAX + 64];
  snprintf(what, sizeof what, "terrain set of tileset %s", where);
  TessResult r = level_name_check(set->name, false, what, err);
  if (r) return r;
  if (set->kind > TESS_TERRAIN_MIXED)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s: kind %u is unknown", where,
                          set->name, set->kind);
  if (set->tile >= 0 && (uint32_t)set->tile >= tile_count)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s: icon tile %d is not in the tileset",
                          where, set->name, set->tile);
  if (set->color_count > TESS_TERRAIN_MAX_COLORS)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "tileset %s terrain set %s has %u colours (at most %d)",
                          where, set->name, set->color_count, TESS_TERRAIN_MAX_COLORS);
  if ((set->color_count && !set->colors) || (set->tile_count && !set->tiles))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s: arrays missing", where,
                          set->name);
  for (uint32_t c = 0; c < set->color_count; c++) {
    const TessTerrainColor *col = &set->colors[c];
    snprintf(what, sizeof what, "colour %u of terrain set %s", c + 1, set->name);
    if ((r = level_name_check(col->name, false, what, err))) return r;
    if (!probability_ok(col->probability))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s colour %s: probability is not in 0..1e6",
                            where, set->name, col->name);
    if (col->tile >= 0 && (uint32_t)col->tile >= tile_count)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s colour %s: tile %d is not in the tileset",
                            where, set->name, col->name, col->tile);
  }
  for (uint32_t i = 0; i < set->tile_count; i++) {
    const TessTerrainTile *t = &set->tiles[i];
    if (t->tile >= tile_count)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s labels tile %u, beyond its %u tiles",
                            where, set->name, t->tile, tile_count);
    if (i && t->tile <= set->tiles[i - 1].tile)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s: tile %u is out of order or twice",
                            where, set->name, t->tile);
    if (!probability_ok(t->probability))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s tile %u: probability is not in 0..1e6",
                            where, set->name, t->tile);
    for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++)
      if (t->wang[k] > set->color_count)
        return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s terrain set %s tile %u: colour %u at position %d (the set has %u)",
                              where, set->name, t->tile, t->wang[k], k, set->color_count);
  }
  return TESS_OK;
}

TessResult tess_terrain_set_add_color(TessTerrainSet *set, const char *name, uint32_t rgba, uint32_t *color_out,
                                      TessError *err) {
  if (set->color_count >= TESS_TERRAIN_MAX_COLORS)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "terrain set %s already has %d colours", set->name,
                          TESS_TERRAIN_MAX_COLORS);
  TessTerrainColor *grown = tess_realloc(set->colors, (set->color_count + 1) * sizeof *grown);
  if (!grown) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  set->colors = grown;
  TessTerrainColor *c = &grown[set->color_count];
  memset(c, 0, sizeof *c);
  TessResult r = level_name_copy(c->name, name, false, "terrain colour", err);
  if (r) return r;
  c->color = rgba;
  c->probability = 1.0f;
  c->tile = -1;
  set->color_count++;
  if (color_out) *color_out = set->color_count;
  return TESS_OK;
}

/* Index of the first tile entry >= tile. */
static uint32_t lower_bound(const TessTerrainSet *set, uint32_t tile) {
  uint32_t lo = 0, hi = set->tile_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (set->tiles[mid].tile < tile) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const TessTerrainTile *tess_terrain_set_find(const TessTerrainSet *set, uint32_t tile) {
  uint32_t i = lower_bound(set, tile);
  return i < set->tile_count && set->tiles[i].tile == tile ? &set->tiles[i] : NULL;
}

TessResult tess_terrain_set_label(TessTerrainSet *set, uint32_t tile, const uint8_t wang[TESS_TERRAIN_POSITIONS],
                                  float probability, TessError *err) {
  bool any = false;
  for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++) {
    if (wang[k] > set->color_count)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "terrain set %s has no colour %u", set->name, wang[k]);
    any = any || wang[k];
  }
  if (!probability_ok(probability))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "terrain set %s tile %u: probability is not in 0..1e6",
                          set->name, tile);
  uint32_t i = lower_bound(set, tile);
  bool present = i < set->tile_count && set->tiles[i].tile == tile;
  if (!any) { /* no label left: the tile leaves the set */
    if (present) {
      memmove(&set->tiles[i], &set->tiles[i + 1], (set->tile_count - i - 1) * sizeof *set->tiles);
      set->tile_count--;
    }
    return TESS_OK;
  }
  if (!present) {
    TessTerrainTile *grown = tess_realloc(set->tiles, (set->tile_count + 1) * sizeof *grown);
    if (!grown) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
    set->tiles = grown;
    memmove(&grown[i + 1], &grown[i], (set->tile_count - i) * sizeof *grown);
    set->tile_count++;
  }
  set->tiles[i].tile = tile;
  memcpy(set->tiles[i].wang, wang, TESS_TERRAIN_POSITIONS);
  set->tiles[i].probability = probability;
  return TESS_OK;
}

bool tess_terrain_cell_labels(const TessTerrainSet *set, TessId tileset, TessCell cell,
                              uint8_t wang[TESS_TERRAIN_POSITIONS]) {
  memset(wang, 0, TESS_TERRAIN_POSITIONS);
  if (!cell || (cell & TESS_CELL_FLIPS) || TESS_CELL_TILESET(cell) != tileset) return false;
  const TessTerrainTile *t = tess_terrain_set_find(set, TESS_CELL_TILE(cell));
  if (!t) return false;
  uint8_t mask = tess_terrain_kind_mask((TessTerrainKind)set->kind);
  for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++) wang[k] = (mask >> k) & 1 ? t->wang[k] : 0;
  return true;
}

int tess_terrain_position_at(TessTerrainKind kind, float u, float v) {
  u = u < 0 ? 0 : u > 1 ? 1
                        : u;
  v = v < 0 ? 0 : v > 1 ? 1
                        : v;
  if (kind == TESS_TERRAIN_CORNER) return v < 0.5f ? (u < 0.5f ? 7 : 1) : (u < 0.5f ? 5 : 3);
  if (kind == TESS_TERRAIN_EDGE) {
    /* The diagonals cut the tile into four triangles, one per edge. */
    bool above_main = v < u, above_anti = v < 1.0f - u;
    if (above_main && above_anti) return 0;
    if (above_main) return 2;
    if (above_anti) return 6;
    return 4;
  }
  int col = u < 1.0f / 3 ? 0 : u < 2.0f / 3 ? 1
                                            : 2,
      row = v < 1.0f / 3 ? 0 : v < 2.0f / 3 ? 1
                                            : 2;
  static const int grid[3][3] = {{7, 0, 1}, {6, -1, 2}, {5, 4, 3}};
  return grid[row][col];
}

/* Every combination of colours 1..n over the kind's positions has a tile:
 * count the distinct full labellings (no 0 where the kind looks). */
bool tess_terrain_set_complete(const TessTerrainSet *set) {
  uint32_t n = set->color_count;
  if (n == 0) return false;
  uint8_t mask = tess_terrain_kind_mask((TessTerrainKind)set->kind);
  int positions = 0;
  for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++) positions += (mask >> k) & 1;
  double need = pow((double)n, positions);
  if (need > 1e6) return false;
  uint8_t *seen = tess_calloc((size_t)need, 1);
  if (!seen) return false;
  uint32_t distinct = 0;
  for (uint32_t i = 0; i < set->tile_count; i++) {
    uint64_t code = 0;
    bool full = true;
    for (int k = 0; k < TESS_TERRAIN_POSITIONS && full; k++) {
      if (!((mask >> k) & 1)) continue;
      uint8_t c = set->tiles[i].wang[k];
      full = c >= 1;
      code = code * n + (uint64_t)(c - 1);
    }
    if (full && !seen[code]) {
      seen[code] = 1;
      distinct++;
    }
  }
  tess_free(seen);
  return distinct == (uint32_t)need;
}
