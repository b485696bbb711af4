/* The Tiled model into a Tessera plan: orientation, tilesets (images read,
 * `trans` keyed to alpha, grids checked), gids resolved to Tessera cells,
 * infinite maps cut to their used bounds, layers and their objects. What
 * Tessera cannot hold is refused (the map) or listed as a warning (a
 * detail), never dropped in silence. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/image.h"
#include "tessera/mask.h"
#include "formats_tiled.h"

static TessResult nomem(const char *file, TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory"); }

/* Paths may leave the map's folder (shared tilesets are common); they are
 * resolved and reported so the designer knows what the project took in. */
static void report_escape(TiledMap *m, const char *written, const char *resolved, const char *what) {
  char base[PATH_MAX], full[PATH_MAX];
  if (!realpath(m->dir, base) || !realpath(resolved, full)) return;
  size_t n = strlen(base);
  if (strncmp(full, base, n) == 0 && (full[n] == '/' || full[n] == 0)) return;
  tess_map_import_warn(m->plan, "%s '%s' resolves to '%s', outside the map's folder", what, written, full);
}

static TessResult check_orientation(TiledMap *m, TessError *err) {
  const char *o = m->orientation ? m->orientation : "orthogonal";
  if (strcmp(o, "orthogonal") == 0) return TESS_OK;
  if (strcmp(o, "isometric") == 0 || strcmp(o, "staggered") == 0 || strcmp(o, "hexagonal") == 0)
    return tess_error_set(err, TESS_ERR_FORMAT, m->path,
                          "%s maps are not supported: Tessera levels are orthogonal grids", o);
  return tess_error_set(err, TESS_ERR_FORMAT, m->path, "unknown orientation '%s'", o);
}

/* Pixels whose colour is the tileset's `trans` become fully transparent, as Tiled draws them. */
static TessResult apply_trans(TessImportTileset *out, uint32_t trans, const char *path, TessError *err) {
  TessImage img;
  TessResult r = tess_png_decode(out->png, out->png_size, path, &img, err);
  if (r) return r;
  uint8_t tr = (uint8_t)(trans >> 16), tg = (uint8_t)(trans >> 8), tb = (uint8_t)trans;
  for (uint32_t y = 0; y < img.height; y++) {
    uint8_t *row = img.pixels + (size_t)y * img.stride;
    for (uint32_t x = 0; x < img.width; x++)
      if (row[4 * x] == tr && row[4 * x + 1] == tg && row[4 * x + 2] == tb) row[4 * x + 3] = 0;
  }
  uint8_t *png = NULL;
  size_t size = 0;
  r = tess_png_encode(tess_image_view(&img), &png, &size, err);
  tess_image_clear(&img);
  if (r) return r;
  tess_free(out->png);
  out->png = png;
  out->png_size = size;
  return TESS_OK;
}

static int by_id(const void *a, const void *b) {
  uint32_t x = ((const TiledTile *)a)->id, y = ((const TiledTile *)b)->id;
  return x < y ? -1 : x > y;
}

/* An image collection (one image per tile) packed into a square-ish atlas,
 * tiles in the order of their ids. Images of different sizes each get a
 * cell of the largest width and height and sit at its bottom-left corner,
 * where Tiled anchors a tile; their sizes are kept (atlas_size) so a tile
 * object of one becomes a sprite of exactly its image. */
static TessResult pack_collection(TiledMap *m, TiledTileset *ts, TessImportTileset *out, TessError *err) {
  const char *where = ts->source_resolved ? ts->source_resolved : m->path;
  const char *name = ts->name ? ts->name : "";
  uint32_t n = ts->tile_count_listed;
  if (n > 65536) return tess_error_set(err, TESS_ERR_LIMIT, where, "image collection '%s' has %u tiles; Tessera holds 65536", name, n);
  qsort(ts->tiles, n, sizeof *ts->tiles, by_id);
  for (uint32_t i = 0; i < n; i++)
    if (!ts->tiles[i].image)
      return tess_error_set(err, TESS_ERR_FORMAT, where, "image collection '%s': tile %u has no image", name, ts->tiles[i].id);
  char *dir = ts->source_resolved ? tiled_path_dir(ts->source_resolved) : tess_strdup(m->dir);
  TessImage *imgs = tess_calloc(n, sizeof *imgs);
  ts->atlas_ids = ts->tiles[n - 1].id + 1;
  ts->atlas_index = tess_alloc((size_t)ts->atlas_ids * sizeof *ts->atlas_index);
  ts->atlas_size = tess_calloc(n, sizeof *ts->atlas_size);
  TessResult r = dir && imgs && ts->atlas_index && ts->atlas_size ? TESS_OK : nomem(where, err);
  uint32_t tw = 0, th = 0;
  bool mixed = false;
  for (uint32_t i = 0; i < n && !r; i++) {
    char *path = tiled_path_join(dir, ts->tiles[i].image);
    TessError ierr;
    tess_error_clear(&ierr);
    if (!path) r = nomem(where, err);
    else if (tess_png_load(path, &imgs[i], &ierr))
      r = tess_error_set(err, ierr.code, where, "image collection '%s' tile %u: cannot read its image '%s' (resolved to '%s'): %s",
                         name, ts->tiles[i].id, ts->tiles[i].image, path, ierr.detail);
    else if (imgs[i].width > 65535 || imgs[i].height > 65535)
      r = tess_error_set(err, TESS_ERR_LIMIT, where, "image collection '%s' tile %u: %ux%u px is beyond 65535 px", name,
                         ts->tiles[i].id, imgs[i].width, imgs[i].height);
    else if (i == 0 && !(out->source_path = tess_strdup(path))) r = nomem(where, err);
    if (!r) {
      mixed |= i && (imgs[i].width != tw || imgs[i].height != th);
      tw = imgs[i].width > tw ? imgs[i].width : tw;
      th = imgs[i].height > th ? imgs[i].height : th;
      ts->atlas_size[i] = imgs[i].width << 16 | imgs[i].height;
    }
    if (path && !r) report_escape(m, ts->tiles[i].image, path, "tile image");
    tess_free(path);
  }
  uint32_t cols = 1;
  while ((uint64_t)cols * cols < n) cols++;
  uint32_t rows = (n + cols - 1) / cols;
  TessImage atlas = {0};
  if (!r && ((uint64_t)cols * tw > TESS_IMAGE_MAX_SIDE || (uint64_t)rows * th > TESS_IMAGE_MAX_SIDE))
    r = tess_error_set(err, TESS_ERR_LIMIT, where, "image collection '%s' does not fit one %u px atlas", name, TESS_IMAGE_MAX_SIDE);
  if (!r) r = tess_image_create(cols * tw, rows * th, &atlas, err);
  if (!r) {
    for (uint32_t i = 0; i < ts->atlas_ids; i++) ts->atlas_index[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
      ts->atlas_index[ts->tiles[i].id] = i;
      uint32_t top = (i / cols) * th + (th - imgs[i].height); /* bottom-left of the cell */
      for (uint32_t y = 0; y < imgs[i].height; y++)
        memcpy(atlas.pixels + (size_t)(top + y) * atlas.stride + (size_t)(i % cols) * tw * 4,
               imgs[i].pixels + (size_t)y * imgs[i].stride, (size_t)imgs[i].width * 4);
    }
    r = tess_png_encode(tess_image_view(&atlas), &out->png, &out->png_size, err);
  }
  tess_image_clear(&atlas);
  for (uint32_t i = 0; imgs && i < n; i++) tess_image_clear(&imgs[i]);
  tess_free(imgs);
  tess_free(dir);
  if (r) return r;
  out->image_w = cols * tw;
  out->image_h = rows * th;
  ts->tile_w = tw;
  ts->tile_h = th;
  ts->margin = ts->spacing = 0;
  tess_map_import_warn(m->plan, "image collection '%s': %u images packed into one %ux%u tileset image%s", name, n, out->image_w,
                       out->image_h, mixed ? " (images of different sizes at the bottom-left of their cells)" : "");
  return TESS_OK;
}

static TessResult load_image(TiledMap *m, TiledTileset *ts, TessImportTileset *out, TessError *err) {
  const char *where = ts->source_resolved ? ts->source_resolved : m->path;
  if (!ts->image) {
    if (ts->tile_count_listed) {
      TessResult r = pack_collection(m, ts, out, err);
      if (!r && ts->has_trans) r = apply_trans(out, ts->trans, where, err);
      return r;
    }
    return tess_error_set(err, TESS_ERR_FORMAT, where, "tileset '%s' has no image", ts->name ? ts->name : "");
  }
  TessError ferr;
  tess_error_clear(&ferr);
  if (tess_file_read(ts->image_resolved, (size_t)1 << 30, &out->png, &out->png_size, &ferr))
    return tess_error_set(err, ferr.code, where, "tileset '%s': cannot read its image '%s' (resolved to '%s'): %s",
                          ts->name ? ts->name : "", ts->image, ts->image_resolved, ferr.detail);
  report_escape(m, ts->image, ts->image_resolved, "tileset image");
  TessResult r = tess_png_info(out->png, out->png_size, ts->image_resolved, &out->image_w, &out->image_h, err);
  if (r) return r;
  if ((ts->image_w && ts->image_w != out->image_w) || (ts->image_h && ts->image_h != out->image_h))
    tess_map_import_warn(m->plan, "tileset '%s': image '%s' is %ux%u, the tileset says %ux%u (the image's size is used)",
                         ts->name ? ts->name : "", ts->image, out->image_w, out->image_h, ts->image_w, ts->image_h);
  if (ts->has_trans && (r = apply_trans(out, ts->trans, ts->image_resolved, err))) return r;
  if (!(out->source_path = tess_strdup(ts->image_resolved))) return nomem(where, err);
  return TESS_OK;
}

/* Tile properties core/formats turns into collision and materials (README.md). */
static bool convention_prop(const char *name) {
  static const char *const known[] = {"material", "friction", "restitution", "tangential", "density",
                                      "material_kind", "material_color", "collision", "one_way"};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcmp(name, known[i]) == 0) return true;
  return strncmp(name, "tessera.", 8) == 0; /* Tessera's own (tiled_tessera.c) */
}

static TessResult convert_tileset(TiledMap *m, TiledTileset *ts, TessImportTileset *out, TessError *err) {
  TessMapImport *plan = m->plan;
  const char *where = ts->source_resolved ? ts->source_resolved : m->path;
  tiled_name_copy(plan, out->name, ts->name && ts->name[0] ? ts->name : "tileset", "tileset name");
  if (ts->source) report_escape(m, ts->source, ts->source_resolved, "tileset");
  TessResult r = load_image(m, ts, out, err);
  if (r) return r;
  uint32_t cols = 0, rows = 0;
  if ((r = tess_tileset_grid(out->image_w, out->image_h, ts->tile_w, ts->tile_h, ts->margin, ts->spacing, &cols, &rows, err)))
    return tess_error_set(err, r, where, "tileset '%s': %s", out->name, err ? err->detail : "bad grid");
  if ((uint64_t)cols * rows > 65536)
    return tess_error_set(err, TESS_ERR_LIMIT, where, "tileset '%s' has %llu tiles; Tessera holds 65536 per tileset",
                          out->name, (unsigned long long)cols * rows);
  out->tile_w = ts->tile_w;
  out->tile_h = ts->tile_h;
  out->margin = ts->margin;
  out->spacing = ts->spacing;
  out->tile_count = cols * rows;
  if (ts->columns && ts->columns != cols)
    tess_map_import_warn(plan, "tileset '%s': %u columns declared, the image holds %u", out->name, ts->columns, cols);
  /* Tiles of another size than the grid are kept as they are: Tessera draws
   * them at their own size from the cell's bottom-left corner, moved by the
   * tile offset, as Tiled does (core/level's tess_tile_place). */
  if (ts->offset_x < -TESS_TILE_OFFSET_MAX || ts->offset_x > TESS_TILE_OFFSET_MAX || ts->offset_y < -TESS_TILE_OFFSET_MAX ||
      ts->offset_y > TESS_TILE_OFFSET_MAX)
    return tess_error_set(err, TESS_ERR_LIMIT, where, "tileset '%s': tile offset (%d, %d) beyond +-%d px", out->name,
                          ts->offset_x, ts->offset_y, TESS_TILE_OFFSET_MAX);
  out->offset_x = ts->offset_x;
  out->offset_y = ts->offset_y;
  out->fit_cell = ts->fit_grid ? 1 : 0;
  if (ts->fit_grid && (ts->offset_x || ts->offset_y))
    tess_map_import_warn(plan, "tileset '%s': tile offset (%d, %d) dropped (its tiles are scaled to the grid)", out->name,
                         ts->offset_x, ts->offset_y);
  uint32_t unknown = 0;
  for (uint32_t i = 0; i < ts->props.count; i++) {
    const char *n = ts->props.items[i].name;
    unknown += strncmp(n, "tessera.", 8) != 0 && strcmp(n, "alpha_threshold") != 0 && strcmp(n, "kind") != 0;
  }
  if (unknown)
    tess_map_import_warn(plan, "tileset '%s': %u properties dropped (Tessera tilesets hold none)", out->name, unknown);
  if (!(out->tiles = tess_calloc(out->tile_count, sizeof *out->tiles))) return nomem(where, err);
  uint32_t dropped = 0;
  for (uint32_t i = 0; i < ts->tile_count_listed; i++) {
    const TiledTile *t = &ts->tiles[i];
    uint32_t index = ts->atlas_index ? ts->atlas_index[t->id] : t->id;
    if (index >= out->tile_count) {
      tess_map_import_warn(plan, "tileset '%s': tile %u lies beyond the image's %u tiles (dropped)", out->name, t->id,
                           out->tile_count);
      continue;
    }
    TessTileInfo *info = &out->tiles[index];
    char owner[160];
    snprintf(owner, sizeof owner, "tileset '%s' tile %u", out->name, t->id);
    if ((r = tiled_tile_shapes(plan, t, out->name, ts->tile_w, ts->tile_h, info, err))) return r;
    if (ts->atlas_size) { /* a collection image's collision is in its own pixels; it sits at its cell's bottom-left */
      float dy = (float)(ts->tile_h - (ts->atlas_size[index] & 0xFFFFu));
      for (uint32_t k = 0; k < info->piece_count; k++)
        for (uint32_t v = 0; v < info->pieces[k].count; v++) info->pieces[k].v[v].y += dy;
    }
    if ((r = tiled_material_from_props(plan, &t->props, owner, &info->material, err))) return r;
    const TiledProp *col = tiled_prop(&t->props, "collision");
    if (col && strcmp(col->value, "full") == 0) info->collision = TESS_TILE_COLLISION_FULL;
    const TiledProp *ow = tiled_prop(&t->props, "one_way");
    if (ow && strcmp(ow->value, "true") == 0) info->one_way = 1;
    for (uint32_t k = 0; k < t->props.count; k++)
      if (!convention_prop(t->props.items[k].name)) dropped++;
    if (t->cls && t->cls[0]) dropped++;
  }
  if (dropped)
    tess_map_import_warn(plan,
                         "tileset '%s': %u tile properties and classes dropped (Tessera tiles keep only the "
                         "collision and material convention)",
                         out->name, dropped);
  return tiled_wang_convert(plan, ts, out, where, err);
}

/* The tileset a gid falls in: the one with the largest firstgid <= gid. */
static int tileset_for_gid(const TiledMap *m, uint32_t gid) {
  int best = -1;
  for (uint32_t i = 0; i < m->tileset_count; i++)
    if (m->tilesets[i].firstgid <= gid && (best < 0 || m->tilesets[i].firstgid > m->tilesets[best].firstgid)) best = (int)i;
  return best;
}

/* The Tessera tile index of gid `id` in tileset t (through the atlas of an image collection). */
static bool local_tile(const TiledMap *m, uint32_t t, uint32_t id, uint32_t *out) {
  const TiledTileset *ts = &m->tilesets[t];
  uint32_t local = id - ts->firstgid;
  if (ts->atlas_index) {
    if (local >= ts->atlas_ids || ts->atlas_index[local] == UINT32_MAX) return false;
    local = ts->atlas_index[local];
  }
  if (local >= m->plan->tilesets[t].tile_count) return false;
  *out = local;
  return true;
}

/* A gid (with flips) into a plan cell. */
static TessResult gid_to_cell(TiledMap *m, uint32_t gid, const char *layer, int64_t x, int64_t y, TessCell *out,
                              TessError *err) {
  if (gid == 0) {
    *out = 0;
    return TESS_OK;
  }
  if (gid & TILED_ROT_HEX)
    return tess_error_set(err, TESS_ERR_FORMAT, m->path,
                          "layer '%s' cell (%lld, %lld): the hexagonal 120-degree rotation flag (bit 28) is not "
                          "supported in an orthogonal level",
                          layer, (long long)x, (long long)y);
  uint32_t id = gid & TILED_GID_MASK, local = 0;
  int t = id ? tileset_for_gid(m, id) : -1;
  if (t < 0 || !local_tile(m, (uint32_t)t, id, &local))
    return tess_error_set(err, TESS_ERR_FORMAT, m->path, "layer '%s' cell (%lld, %lld): gid %u is beyond every tileset", layer,
                          (long long)x, (long long)y, id);
  *out = TESS_CELL_MAKE((uint32_t)t + 1, local, gid & TESS_CELL_FLIPS);
  return TESS_OK;
}

/* Infinite maps: the union of the chunks (Tiled's own bounds, chunk-aligned). */
static void used_bounds(const TiledMap *m, int64_t *x0, int64_t *y0, int64_t *x1, int64_t *y1) {
  bool any = false;
  for (uint32_t i = 0; i < m->layer_count; i++)
    for (uint32_t k = 0; k < m->layers[i].chunk_count; k++) {
      const TiledChunk *c = &m->layers[i].chunks[k];
      if (!c->w || !c->h) continue;
      int64_t a = c->x, b = c->y, e = (int64_t)c->x + c->w, f = (int64_t)c->y + c->h;
      if (!any || a < *x0) *x0 = a;
      if (!any || b < *y0) *y0 = b;
      if (!any || e > *x1) *x1 = e;
      if (!any || f > *y1) *y1 = f;
      any = true;
    }
  if (!any) *x0 = *y0 = 0, *x1 = *y1 = 1;
}

static TessResult convert_tile_layer(TiledMap *m, const TiledLayer *l, TessImportLayer *out, TessError *err) {
  TessMapImport *plan = m->plan;
  uint32_t w = plan->settings.width, h = plan->settings.height;
  if (!(out->cells = tess_calloc((size_t)w * h, sizeof *out->cells))) return nomem(m->path, err);
  TessResult r;
  if (m->infinite) {
    for (uint32_t k = 0; k < l->chunk_count; k++) {
      const TiledChunk *c = &l->chunks[k];
      for (uint32_t j = 0; j < c->h; j++)
        for (uint32_t i = 0; i < c->w; i++) {
          int64_t x = (int64_t)c->x + i, y = (int64_t)c->y + j;
          TessCell cell;
          if ((r = gid_to_cell(m, c->gids[(size_t)j * c->w + i], l->name, x, y, &cell, err))) return r;
          x -= plan->origin_x;
          y -= plan->origin_y;
          if (cell && x >= 0 && y >= 0 && x < w && y < h) out->cells[(size_t)y * w + (size_t)x] = cell;
        }
    }
    return TESS_OK;
  }
  /* A <layer> (or TMJ tilelayer) that gives a size but no <data>: nothing to read its cells from. */
  if (!l->gids && l->width && l->height)
    return tess_error_set(err, TESS_ERR_FORMAT, m->path, "layer '%s' is %ux%u but has no tile data", l->name, l->width,
                          l->height);
  if (l->width != w || l->height != h)
    tess_map_import_warn(plan, "layer '%s' is %ux%u in a %ux%u map: cut to the map", l->name, l->width, l->height, w, h);
  for (uint32_t y = 0; y < l->height; y++)
    for (uint32_t x = 0; x < l->width; x++) {
      TessCell cell;
      if ((r = gid_to_cell(m, l->gids[(size_t)y * l->width + x], l->name, x, y, &cell, err))) return r;
      if (x < w && y < h) out->cells[(size_t)y * w + x] = cell;
    }
  return TESS_OK;
}

/* The plan sprite for tile `tile` of plan tileset `t` (made once): the
 * tile's pixels as a PNG, anchored at its centre, its mask traced. */
static TessResult tile_sprite(TiledMap *m, uint32_t t, uint32_t tile, TessId *out, TessError *err) {
  TessMapImport *plan = m->plan;
  const TessImportTileset *ts = &plan->tilesets[t];
  char name[TESS_NAME_MAX];
  snprintf(name, sizeof name, "%.40s #%u", ts->name, tile);
  for (uint32_t i = 0; i < plan->sprite_count; i++)
    if (strcmp(plan->sprites[i].name, name) == 0) {
      *out = i + 1;
      return TESS_OK;
    }
  /* A collection's tile is its own image, at the bottom-left of its cell. */
  const TiledTileset *mt = &m->tilesets[t];
  uint32_t cw = ts->tile_w, ch = ts->tile_h;
  if (mt->atlas_size) cw = mt->atlas_size[tile] >> 16, ch = mt->atlas_size[tile] & 0xFFFFu;
  TessImage img, cut;
  TessResult r = tess_png_decode(ts->png, ts->png_size, ts->source_path, &img, err);
  if (r) return r;
  if ((r = tess_image_create(cw, ch, &cut, err))) {
    tess_image_clear(&img);
    return r;
  }
  uint32_t cols = (ts->image_w - 2 * ts->margin + ts->spacing) / (ts->tile_w + ts->spacing);
  uint32_t px = ts->margin + (tile % cols) * (ts->tile_w + ts->spacing), py = ts->margin + (tile / cols) * (ts->tile_h + ts->spacing);
  py += ts->tile_h - ch;
  for (uint32_t y = 0; y < ch; y++)
    memcpy(cut.pixels + (size_t)y * cut.stride, img.pixels + (size_t)(py + y) * img.stride + 4 * (size_t)px, 4 * (size_t)cw);
  tess_image_clear(&img);
  TessSprite sp;
  memset(&sp, 0, sizeof sp);
  snprintf(sp.name, sizeof sp.name, "%s", name);
  sp.image_w = cw;
  sp.image_h = ch;
  sp.frame_count = 1;
  sp.anchor = tess_v2(cw / 2.0f, ch / 2.0f);
  tess_sprite_mask_default(&sp.mask);
  r = tess_png_encode(tess_image_view(&cut), &sp.png, &sp.png_size, err);
  if (!r && !(sp.source_path = tess_strdup(ts->source_path ? ts->source_path : ""))) r = nomem(m->path, err);
  if (!r && tess_sprite_mask_trace(tess_image_view(&cut), &sp.mask, NULL) != TESS_OK)
    tess_map_import_warn(plan, "sprite '%s': the tile has no opaque pixel, so no collision mask", name);
  tess_image_clear(&cut);
  TessSprite *n = r ? NULL : tess_realloc(plan->sprites, ((size_t)plan->sprite_count + 1) * sizeof *n);
  if (!n) {
    tess_sprite_clear(&sp);
    return r ? r : nomem(m->path, err);
  }
  plan->sprites = n;
  n[plan->sprite_count++] = sp;
  *out = plan->sprite_count;
  return TESS_OK;
}

static TessResult convert_object_layer(TiledMap *m, const TiledLayer *l, TessImportLayer *out, TessError *err) {
  TessMapImport *plan = m->plan;
  if (!(out->objects = tess_calloc(l->objects.count ? l->objects.count : 1, sizeof *out->objects))) return nomem(m->path, err);
  double dx = l->offset_x - (double)plan->origin_x * m->tile_w, dy = l->offset_y - (double)plan->origin_y * m->tile_h;
  for (uint32_t i = 0; i < l->objects.count; i++) {
    bool keep = false;
    TessObject *o = &out->objects[out->object_count];
    const TiledObject *ob = &l->objects.items[i];
    TessId sprite = 0;
    TessResult r = TESS_OK;
    if (ob->gid) {
      uint32_t id = ob->gid & TILED_GID_MASK, local = 0;
      int t = id ? tileset_for_gid(m, id) : -1;
      if (t < 0 || !local_tile(m, (uint32_t)t, id, &local))
        return tess_error_set(err, TESS_ERR_FORMAT, m->path, "layer '%s' object %u: gid %u is beyond every tileset", l->name,
                              ob->id, id);
      if (plan->tilesets[t].role == TESS_IMPORT_SPRITE) sprite = plan->tilesets[t].sprite;
      else if ((r = tile_sprite(m, (uint32_t)t, local, &sprite, err))) return r;
    } else if (ob->shape == TILED_POLYGON) {
      if ((r = tiled_polygon_sprite(plan, ob, l->name, &sprite, err))) return r;
      if (!sprite) continue; /* refused, with a warning naming it */
    }
    r = tiled_object_convert(plan, ob, dx, dy, l->name, sprite, o, &keep, err);
    if (r) return r;
    if (keep && (r = tiled_note_refs(plan, plan->layer_count - 1, out->object_count, ob, err))) return r;
    if (keep) out->object_count++;
  }
  return TESS_OK;
}

static TessResult convert_layer(TiledMap *m, const TiledLayer *l, TessError *err) {
  TessMapImport *plan = m->plan;
  if (l->kind == TILED_IMAGE) {
    tess_map_import_warn(plan, "image layer '%s' dropped (Tessera has no image layers)", l->name);
    return TESS_OK;
  }
  TessImportLayer *out = &plan->layers[plan->layer_count++];
  out->props.id = l->id;
  tiled_name_copy(plan, out->props.name, l->name, "layer name");
  out->props.visible = l->visible;
  out->props.locked = l->locked;
  out->props.opacity = (float)l->opacity;
  out->props.kind = l->kind == TILED_TILES ? TESS_LAYER_TILES : TESS_LAYER_OBJECTS;
  out->props.collides = l->kind == TILED_TILES;
  out->props.y_sort = l->kind == TILED_OBJECTS && l->topdown; /* Tiled's draworder="topdown" */
  const TiledProp *col = tiled_prop(&l->props, "collides");
  if (col) out->props.collides = strcmp(col->value, "true") == 0;
  const TiledProp *pix = tiled_prop(&l->props, "collide_pixels"); /* Tessera's: collides by its tiles' pixels */
  out->props.collide_pixels = l->kind == TILED_TILES && pix && strcmp(pix->value, "true") == 0;
  if (l->kind == TILED_TILES && (l->offset_x != 0 || l->offset_y != 0))
    tess_map_import_warn(plan, "layer '%s': offset (%g, %g) dropped (Tessera tile layers sit on the grid)", l->name,
                         l->offset_x, l->offset_y);
  if (l->parallax_x != 1 || l->parallax_y != 1)
    tess_map_import_warn(plan, "layer '%s': parallax factor dropped", l->name);
  if (l->has_tint) tess_map_import_warn(plan, "layer '%s': tint colour dropped", l->name);
  bool materials = tiled_tessera_is_material_layer(l);
  uint32_t kept = (col ? 1u : 0u) + (materials ? 1u + (tiled_prop(&l->props, "tessera.visible") != NULL) : 0u);
  if (l->props.count > kept)
    tess_map_import_warn(plan, "layer '%s': %u properties dropped (Tessera layers hold none)", l->name, l->props.count - kept);
  if (l->kind != TILED_TILES) return convert_object_layer(m, l, out, err);
  TessResult r = convert_tile_layer(m, l, out, err);
  return r || !materials ? r : tiled_tessera_material_layer(m, l, out, err);
}

TessResult tiled_convert(TiledMap *m, TessMapImport *plan, const TessMapReadOptions *opt, TessError *err) {
  TessResult r = check_orientation(m, err);
  if (r) return r;
  if (!m->tile_w || !m->tile_h) return tess_error_set(err, TESS_ERR_FORMAT, m->path, "the map's tile size must be at least 1x1");
  if (m->tileset_count && !(plan->tilesets = tess_calloc(m->tileset_count, sizeof *plan->tilesets))) return nomem(m->path, err);
  if ((r = tiled_tessera_materials(m, err))) return r;
  for (uint32_t i = 0; i < m->tileset_count; i++) {
    plan->tileset_count = i + 1;
    uint32_t warned = plan->warning_count;
    if ((r = convert_tileset(m, &m->tilesets[i], &plan->tilesets[i], err))) return r;
    /* Tessera's materials and sprite tilesets are data, read in full by tiled_tessera.c: what the
     * generic reading says about them as tilesets (their size, properties) does not apply. */
    TiledTessRole role = tiled_tessera_role(&m->tilesets[i]);
    while ((role == TILED_TESS_MATERIALS || role == TILED_TESS_SPRITE) && plan->warning_count > warned)
      tess_free(plan->warnings[--plan->warning_count]);
    if ((r = tiled_tessera_tileset(m, &m->tilesets[i], &plan->tilesets[i], err))) return r;
    if (opt && opt->cancel && *opt->cancel) return tess_error_set(err, TESS_ERR_EMPTY, m->path, "cancelled");
    if (opt && opt->progress) opt->progress(0.5 * (i + 1) / m->tileset_count, opt->user);
  }
  TessLevelSettings *s = &plan->settings;
  if (m->infinite) {
    int64_t x0, y0, x1, y1;
    used_bounds(m, &x0, &y0, &x1, &y1);
    if (x1 - x0 > TESS_LEVEL_MAX_CELLS || y1 - y0 > TESS_LEVEL_MAX_CELLS)
      return tess_error_set(err, TESS_ERR_LIMIT, m->path, "the infinite map's used area is %lldx%lld cells; Tessera holds %u per side",
                            (long long)(x1 - x0), (long long)(y1 - y0), TESS_LEVEL_MAX_CELLS);
    plan->origin_x = (int32_t)x0;
    plan->origin_y = (int32_t)y0;
    s->width = (uint32_t)(x1 - x0);
    s->height = (uint32_t)(y1 - y0);
  } else {
    s->width = m->width;
    s->height = m->height;
  }
  s->tile_w = m->tile_w;
  s->tile_h = m->tile_h;
  if ((r = tess_level_settings_validate(s, err))) return tess_error_set(err, r, m->path, "%s", err ? err->detail : "bad map size");
  if ((r = tiled_tessera_settings(m, s, err))) return r;
  if (m->layer_count && !(plan->layers = tess_calloc(m->layer_count, sizeof *plan->layers))) return nomem(m->path, err);
  for (uint32_t i = 0; i < m->layer_count; i++) {
    if ((r = convert_layer(m, &m->layers[i], err))) return r;
    if (opt && opt->cancel && *opt->cancel) return tess_error_set(err, TESS_ERR_EMPTY, m->path, "cancelled");
    if (opt && opt->progress) opt->progress(0.5 + 0.5 * (i + 1) / m->layer_count, opt->user);
  }
  return tiled_resolve_refs(plan, err);
}
