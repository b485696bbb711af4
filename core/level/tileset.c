/* Tilesets: grid arithmetic, validation, deep copies. */
#include "level_private.h"

void tess_tileset_def_default(TessTilesetDef *def) {
  memset(def, 0, sizeof *def);
  def->name = "Tileset";
  def->tile_w = 32;
  def->tile_h = 32;
  def->default_collision = TESS_TILE_COLLISION_FULL;
}

TessResult tess_tileset_grid(uint32_t image_w, uint32_t image_h, uint32_t tile_w, uint32_t tile_h,
                             uint32_t margin, uint32_t spacing, uint32_t *columns, uint32_t *rows,
                             TessError *err) {
  if (tile_w == 0 || tile_h == 0)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tile size %ux%u has a zero side", tile_w, tile_h);
  if (image_w == 0 || image_h == 0)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset image %ux%u is empty", image_w, image_h);
  /* 64-bit sums: margins and spacings near UINT32_MAX must not wrap. */
  uint64_t need_w = 2ull * margin + tile_w, need_h = 2ull * margin + tile_h;
  if (need_w > image_w || need_h > image_h)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE,
                          "tile %ux%u with margin %u does not fit in the %ux%u image", tile_w, tile_h, margin,
                          image_w, image_h);
  uint64_t cols = ((uint64_t)image_w - 2ull * margin + spacing) / ((uint64_t)tile_w + spacing);
  uint64_t rws = ((uint64_t)image_h - 2ull * margin + spacing) / ((uint64_t)tile_h + spacing);
  if (cols * rws > 65536u)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "tileset has %llu tiles (at most 65536)",
                          (unsigned long long)(cols * rws));
  if (columns) *columns = (uint32_t)cols;
  if (rows) *rows = (uint32_t)rws;
  return TESS_OK;
}

void tess_tileset_tile_origin(const TessTileset *ts, uint32_t tile, uint32_t *px, uint32_t *py) {
  uint32_t cols = ts->columns ? ts->columns : 1;
  if (px) *px = ts->margin + (tile % cols) * (ts->tile_w + ts->spacing);
  if (py) *py = ts->margin + (tile / cols) * (ts->tile_h + ts->spacing);
}

TessResult level_polygon_validate(const TessPolygon *poly, const char *what, TessError *err) {
  if (poly->count < 3 || poly->count > TESS_POLY_MAX)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s has %u vertices (3..%d)", what, poly->count,
                          TESS_POLY_MAX);
  for (uint32_t i = 0; i < poly->count; i++)
    if (!tess_v2_is_finite(poly->v[i]) || fabsf(poly->v[i].x) > TESS_OBJECT_MAX_PX ||
        fabsf(poly->v[i].y) > TESS_OBJECT_MAX_PX)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s vertex %u is not finite or beyond %g px", what, i,
                            (double)TESS_OBJECT_MAX_PX);
  return TESS_OK;
}

TessResult level_tileset_validate(const TessProject *p, const TessTileset *ts, TessError *err) {
  if (ts->id == 0 || ts->id > TESS_TILESET_ID_MAX)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "tileset id %u is outside 1..%u", ts->id,
                          TESS_TILESET_ID_MAX);
  TessResult nr = level_name_check(ts->name, false, "tileset", err);
  if (nr != TESS_OK) return nr;
  if (ts->png_size && !ts->png)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s: png_size without bytes", ts->name);
  TessResult r = level_image_bytes_check(ts->png, ts->png_size, ts->image_w, ts->image_h, "tileset", ts->name, err);
  if (r != TESS_OK) return r;
  uint32_t cols, rows;
  r = tess_tileset_grid(ts->image_w, ts->image_h, ts->tile_w, ts->tile_h, ts->margin, ts->spacing,
                        &cols, &rows, err);
  if (r) return r;
  if (cols != ts->columns || cols * rows != ts->tile_count)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE,
                          "tileset %s: columns %u and tile_count %u do not match the grid (%u x %u)", ts->name,
                          ts->columns, ts->tile_count, cols, rows);
  if (ts->tile_count && !ts->tiles)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s has no tile info", ts->name);
  if (ts->offset_x < -TESS_TILE_OFFSET_MAX || ts->offset_x > TESS_TILE_OFFSET_MAX || ts->offset_y < -TESS_TILE_OFFSET_MAX ||
      ts->offset_y > TESS_TILE_OFFSET_MAX || ts->fit_cell > 1)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "tileset %s: offset (%d, %d) beyond +-%d px, or fit_cell %u",
                          ts->name, (int)ts->offset_x, (int)ts->offset_y, TESS_TILE_OFFSET_MAX, (unsigned)ts->fit_cell);
  for (uint32_t i = 0; i < ts->tile_count; i++) {
    const TessTileInfo *t = &ts->tiles[i];
    if (t->collision > TESS_TILE_COLLISION_TRACED)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s tile %u: collision %u is unknown",
                            ts->name, i, t->collision);
    if (t->material && p && !tess_project_material(p, t->material))
      return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "tileset %s tile %u: material %u does not exist",
                            ts->name, i, t->material);
    if (t->piece_count && !t->pieces)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %s tile %u: pieces missing", ts->name, i);
    for (uint32_t k = 0; k < t->piece_count; k++) {
      r = level_polygon_validate(&t->pieces[k], "tile piece", err);
      if (r) return r;
    }
  }
  if (ts->terrain_count > TESS_TERRAIN_MAX_SETS || (ts->terrain_count && !ts->terrains))
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "tileset %s has %u terrain sets (at most %d)", ts->name,
                          ts->terrain_count, TESS_TERRAIN_MAX_SETS);
  for (uint32_t i = 0; i < ts->terrain_count; i++)
    if ((r = tess_terrain_set_validate(&ts->terrains[i], ts->tile_count, ts->name, err))) return r;
  return TESS_OK;
}

void tess_tileset_clear(TessTileset *ts) {
  if (!ts) return;
  tess_free(ts->source_path);
  tess_free(ts->png);
  if (ts->tiles)
    for (uint32_t i = 0; i < ts->tile_count; i++) tess_free(ts->tiles[i].pieces);
  tess_free(ts->tiles);
  tess_terrain_sets_free(ts->terrains, ts->terrain_count);
  memset(ts, 0, sizeof *ts);
}

TessResult tess_tileset_copy(TessTileset *dst, const TessTileset *src) {
  TessTileset t = *src;
  t.source_path = NULL;
  t.png = NULL;
  t.tiles = NULL;
  t.terrains = NULL;
  bool ok = tess_terrain_sets_copy(&t.terrains, src->terrains, src->terrain_count) == TESS_OK;
  if (src->source_path) ok = ok && (t.source_path = tess_strdup(src->source_path)) != NULL;
  if (ok && src->png_size) {
    t.png = tess_alloc(src->png_size);
    ok = t.png != NULL;
    if (ok) memcpy(t.png, src->png, src->png_size);
  }
  if (ok && src->tile_count && src->tiles) {
    t.tiles = tess_calloc(src->tile_count, sizeof *t.tiles);
    ok = t.tiles != NULL;
    for (uint32_t i = 0; ok && i < src->tile_count; i++) {
      t.tiles[i] = src->tiles[i];
      t.tiles[i].pieces = NULL;
      if (src->tiles[i].piece_count && src->tiles[i].pieces) {
        t.tiles[i].pieces = tess_calloc(src->tiles[i].piece_count, sizeof(TessPolygon));
        ok = t.tiles[i].pieces != NULL;
        if (ok) memcpy(t.tiles[i].pieces, src->tiles[i].pieces, src->tiles[i].piece_count * sizeof(TessPolygon));
      }
    }
  } else if (!src->tiles) {
    t.tile_count = src->tile_count;
  }
  if (!ok) {
    tess_tileset_clear(&t);
    return TESS_ERR_NOMEM;
  }
  *dst = t;
  return TESS_OK;
}
