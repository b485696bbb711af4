/* The cell painters: tiles with Tiled's flips, the far-zoom average-colour
 * path, the material overlay and the collision outlines. The chunk cache and
 * the direct (uncached) path call the same functions, so they agree. */
#include <stdio.h>
#include <string.h>

#include "render_private.h"

/* An affine map of normalised tile coordinates (u, v in 0..1):
 * u' = a u + b v + e, v' = c u + d v + f. */
typedef struct NormMap {
  double a, b, c, d, e, f;
} NormMap;

/* Where a point of the drawn (destination) tile comes from in the source
 * tile. Tiled applies diagonal, then horizontal, then vertical to the
 * source; the inverse undoes them in the opposite order. */
static NormMap flips_inverse(TessCell cell) {
  NormMap m = {1, 0, 0, 1, 0, 0};
  if (cell & TESS_CELL_FLIP_V) {
    m.c = -m.c;
    m.d = -m.d;
    m.f = 1 - m.f;
  }
  if (cell & TESS_CELL_FLIP_H) {
    m.a = -m.a;
    m.b = -m.b;
    m.e = 1 - m.e;
  }
  if (cell & TESS_CELL_FLIP_D) {
    NormMap t = m;
    m.a = t.c;
    m.b = t.d;
    m.e = t.f;
    m.c = t.a;
    m.d = t.b;
    m.f = t.e;
  }
  return m;
}

void render_paint_missing_tile(cairo_t *cr, double x, double y, double w, double h) {
  cairo_set_source_rgba(cr, 1.0, 0.0, 1.0, 0.85);
  cairo_rectangle(cr, x, y, w / 2, h / 2);
  cairo_rectangle(cr, x + w / 2, y + h / 2, w / 2, h / 2);
  cairo_fill(cr);
  cairo_set_source_rgba(cr, 0.1, 0.0, 0.1, 0.85);
  cairo_rectangle(cr, x + w / 2, y, w / 2, h / 2);
  cairo_rectangle(cr, x, y + h / 2, w / 2, h / 2);
  cairo_fill(cr);
}

/* Draws the source tile at (sx, sy) of size stw x sth in `pattern` into the
 * destination rectangle, with the cell's flips. */
static void paint_tile_from(cairo_t *cr, cairo_pattern_t *pattern, double sx, double sy, double stw, double sth,
                            TessCell cell, double x, double y, double w, double h) {
  NormMap m = flips_inverse(cell);
  /* pattern = origin + tile_size * (M * ((P - (x, y)) / (w, h)) + offset) */
  double xx = m.a * stw / w, xy = m.b * stw / h;
  double yx = m.c * sth / w, yy = m.d * sth / h;
  cairo_matrix_t pm;
  cairo_matrix_init(&pm, xx, yx, xy, yy, sx + stw * m.e - xx * x - xy * y, sy + sth * m.f - yx * x - yy * y);
  cairo_pattern_set_matrix(pattern, &pm);
  cairo_set_source(cr, pattern);
  cairo_rectangle(cr, x, y, w, h);
  cairo_fill(cr);
}

void render_paint_tile(cairo_t *cr, const TessTileset *ts, TessTileSurface *surf, TessCell cell, double x, double y,
                       double w, double h) {
  uint32_t tile = TESS_CELL_TILE(cell);
  if (!ts || !surf || !surf->pattern || tile >= ts->tile_count) {
    render_paint_missing_tile(cr, x, y, w, h);
    return;
  }
  uint32_t sx, sy;
  tess_tileset_tile_origin(ts, tile, &sx, &sy);
  paint_tile_from(cr, surf->pattern, sx, sy, ts->tile_w, ts->tile_h, cell, x, y, w, h);
}

/* Looks up a tileset and its surface, remembering the last one (cells of a
 * chunk mostly share a tileset). */
typedef struct TilesetMemo {
  uint32_t id;
  const TessTileset *ts;
  TessTileSurface *surf;
  cairo_pattern_t *mip; /* the box-filtered copy at the LOD being drawn, if any */
} TilesetMemo;

static void memo_get(TessRenderer *r, TilesetMemo *memo, uint32_t id) {
  if (memo->id == id) return;
  memo->id = id;
  memo->ts = tess_project_tileset(r->project, id);
  memo->surf = memo->ts ? render_tileset(r, id) : NULL;
  if (memo->surf && !memo->surf->surface && !r->failed_tileset) r->failed_tileset = id;
}

/* Draws one cell's tile where the cell draws it (tess_tile_place: its own
 * size from the cell's bottom-left corner, or scaled into the cell). */
static void paint_cell(TessRenderer *r, cairo_t *cr, TilesetMemo *memo, TessCell cell, uint32_t x, uint32_t y,
                       double tw, double th, int lod, cairo_filter_t filter) {
  memo_get(r, memo, TESS_CELL_TILESET(cell));
  if (!memo->ts) {
    render_paint_missing_tile(cr, x * tw, y * th, tw, th);
    return;
  }
  TessTilePlace pl;
  tess_tile_place(memo->ts, cell, (uint32_t)tw, (uint32_t)th, &pl);
  const double dx = x * tw + pl.x, dy = y * th + pl.y;
  uint32_t tile = TESS_CELL_TILE(cell);
  if (lod > 0 && memo->mip && tile < memo->ts->tile_count) {
    /* Device pixels map one to one onto the reduced copy: an exact blit. */
    const uint32_t f = 1u << (2 * lod);
    uint32_t mw = memo->ts->tile_w / f, mh = memo->ts->tile_h / f;
    paint_tile_from(cr, memo->mip, (tile % memo->ts->columns) * mw, (tile / memo->ts->columns) * mh, mw, mh, cell, dx, dy,
                    pl.w, pl.h);
    return;
  }
  if (memo->surf && memo->surf->pattern) cairo_pattern_set_filter(memo->surf->pattern, filter);
  render_paint_tile(cr, memo->ts, memo->surf, cell, dx, dy, pl.w, pl.h);
}

/* The cells whose tiles may be drawn into cells [x0, x1) x [y0, y1): those
 * cells and the neighbours within the tiles' reach (tess_tile_reach). */
void render_reach_cells(const TessRenderer *r, const TessLevel *level, uint32_t *x0, uint32_t *y0, uint32_t *x1,
                        uint32_t *y1) {
  TessTileReach reach;
  const uint32_t tw = level->settings.tile_w, th = level->settings.tile_h;
  tess_tile_reach(r->project, tw, th, &reach);
  /* A tile reaching right is drawn from a cell to the left, and so on. */
  uint32_t l = (reach.right + tw - 1) / tw, rr = (reach.left + tw - 1) / tw;
  uint32_t t = (reach.bottom + th - 1) / th, b = (reach.top + th - 1) / th;
  *x0 = *x0 > l ? *x0 - l : 0;
  *y0 = *y0 > t ? *y0 - t : 0;
  *x1 = level->settings.width - *x1 > rr ? *x1 + rr : level->settings.width;
  *y1 = level->settings.height - *y1 > b ? *y1 + b : level->settings.height;
}

void render_paint_tiles(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                        uint32_t y1, int lod, bool smooth) {
  const double tw = level->settings.tile_w, th = level->settings.tile_h;
  cairo_filter_t filter = smooth ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_NEAREST;
  /* Tiles larger than the grid overlap their neighbours: the cells around
   * the region are drawn too, and every cell in Tiled's right-down order
   * (row by row), so overlaps come out the same whatever the region. */
  uint32_t ex0 = x0, ey0 = y0, ex1 = x1, ey1 = y1;
  render_reach_cells(r, level, &ex0, &ey0, &ex1, &ey1);
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    if (layer->props.kind != TESS_LAYER_TILES || !layer->props.visible || !(layer->props.opacity > 0.0f)) continue;
    bool group = layer->props.opacity < 1.0f;
    if (group) {
      cairo_save(cr);
      cairo_rectangle(cr, x0 * tw, y0 * th, (x1 - x0) * tw, (y1 - y0) * th);
      cairo_clip(cr);
      cairo_push_group(cr);
    }
    TilesetMemo memo = {0, NULL, NULL, NULL};
    uint32_t memo_mip_id = 0;
    for (uint32_t y = ey0; y < ey1; y++) {
      const uint32_t cy = y / TESS_CHUNK_SIZE;
      for (uint32_t cx = ex0 / TESS_CHUNK_SIZE; cx * TESS_CHUNK_SIZE < ex1; cx++) {
        const TessChunk *chunk = tess_layer_chunk(layer, cx, cy);
        if (!chunk) continue;
        uint32_t xa = cx * TESS_CHUNK_SIZE > ex0 ? cx * TESS_CHUNK_SIZE : ex0;
        uint32_t xb = (cx + 1) * TESS_CHUNK_SIZE < ex1 ? (cx + 1) * TESS_CHUNK_SIZE : ex1;
        const uint32_t *row = chunk->cells + (y - cy * TESS_CHUNK_SIZE) * TESS_CHUNK_SIZE;
        for (uint32_t x = xa; x < xb; x++) {
          TessCell cell = row[x - cx * TESS_CHUNK_SIZE];
          if (!cell) continue;
          memo_get(r, &memo, TESS_CELL_TILESET(cell));
          if (lod > 0 && memo_mip_id != memo.id) {
            memo_mip_id = memo.id;
            memo.mip = memo.surf ? render_tileset_mip(memo.surf, memo.ts, lod) : NULL;
          }
          paint_cell(r, cr, &memo, cell, x, y, tw, th, lod, filter);
        }
      }
    }
    if (group) {
      cairo_pop_group_to_source(cr);
      cairo_paint_with_alpha(cr, layer->props.opacity);
      cairo_restore(cr);
    }
  }
}

static inline uint32_t mul_un8(uint32_t a, uint32_t b) {
  uint32_t t = a * b + 0x80;
  return ((t >> 8) + t) >> 8;
}

static inline uint32_t over_premul(uint32_t src, uint32_t dst) {
  uint32_t ia = 255 - (src >> 24);
  if (ia == 0) return src;
  uint32_t out = 0;
  for (int shift = 24; shift >= 0; shift -= 8) {
    uint32_t s = (src >> shift) & 0xFF, d = (dst >> shift) & 0xFF;
    uint32_t v = s + mul_un8(d, ia);
    out |= (v > 255 ? 255 : v) << shift;
  }
  return out;
}

static inline uint32_t scale_premul(uint32_t c, uint32_t a8) {
  uint32_t out = 0;
  for (int shift = 24; shift >= 0; shift -= 8) out |= mul_un8((c >> shift) & 0xFF, a8) << shift;
  return out;
}

void render_paint_tiles_average(TessRenderer *r, cairo_surface_t *target, int ox, int oy, int w, int h,
                                const TessLevel *level, uint32_t cx, uint32_t cy, double scale) {
  const double cw = level->settings.tile_w * scale, ch = level->settings.tile_h * scale;
  uint8_t col_of[TESS_RENDER_BLOCK_MAX_PX];
  if (w > TESS_RENDER_BLOCK_MAX_PX) w = TESS_RENDER_BLOCK_MAX_PX;
  for (int px = 0; px < w; px++) {
    int lx = (int)((px + 0.5) / cw);
    col_of[px] = (uint8_t)(lx < TESS_CHUNK_SIZE ? lx : TESS_CHUNK_SIZE - 1);
  }
  cairo_surface_flush(target);
  uint8_t *data = cairo_image_surface_get_data(target);
  int stride = cairo_image_surface_get_stride(target);
  const uint32_t magenta = 0xFFFF00FFu;
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    if (layer->props.kind != TESS_LAYER_TILES || !layer->props.visible || !(layer->props.opacity > 0.0f)) continue;
    const TessChunk *chunk = tess_layer_chunk(layer, cx, cy);
    if (!chunk) continue;
    uint32_t a8 = (uint32_t)(layer->props.opacity * 255.0f + 0.5f);
    TilesetMemo memo = {0, NULL, NULL, NULL};
    for (int py = 0; py < h; py++) {
      int ly = (int)((py + 0.5) / ch);
      if (ly >= TESS_CHUNK_SIZE) ly = TESS_CHUNK_SIZE - 1;
      const uint32_t *cells = chunk->cells + ly * TESS_CHUNK_SIZE;
      uint32_t *row = (uint32_t *)(void *)(data + (size_t)(oy + py) * (size_t)stride) + ox;
      for (int px = 0; px < w; px++) {
        TessCell cell = cells[col_of[px]];
        if (!cell) continue;
        memo_get(r, &memo, TESS_CELL_TILESET(cell));
        uint32_t tile = TESS_CELL_TILE(cell), c;
        if (memo.surf && memo.surf->average && tile < memo.surf->tile_count)
          c = memo.surf->average[tile];
        else
          c = magenta;
        if (a8 < 255) c = scale_premul(c, a8);
        row[px] = over_premul(c, row[px]);
      }
    }
  }
  cairo_surface_mark_dirty_rectangle(target, ox, oy, w, h);
}

bool render_soft_ok(TessRenderer *r, const TessLevel *level, int lod) {
  /* Every tileset's tiles must be the level's cells, and divide at this
   * scale (a failed one is drawn as a magenta check either way). */
  for (uint32_t i = 0; i < r->project->tileset_count; i++) {
    const TessTileset *ts = r->project->tilesets[i];
    if (ts->tile_w != level->settings.tile_w || ts->tile_h != level->settings.tile_h) return false;
    if (!tess_tileset_on_grid(ts, level->settings.tile_w, level->settings.tile_h)) return false;
    TessTileSurface *surf = render_tileset(r, ts->id);
    if (!surf || !surf->surface) continue;
    if (lod > 0 && !render_tileset_mip(surf, ts, lod)) return false;
  }
  return true;
}

void render_paint_tiles_soft(TessRenderer *r, cairo_surface_t *target, int ox, int oy, const TessLevel *level,
                             uint32_t cx, uint32_t cy, uint32_t nx, uint32_t ny, int lod) {
  const uint32_t f = lod > 0 ? 1u << (2 * lod) : 1u;
  const uint32_t mw = level->settings.tile_w / f, mh = level->settings.tile_h / f;
  cairo_surface_flush(target);
  uint8_t *data = cairo_image_surface_get_data(target);
  const int stride = cairo_image_surface_get_stride(target);
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    if (layer->props.kind != TESS_LAYER_TILES || !layer->props.visible || !(layer->props.opacity > 0.0f)) continue;
    const TessChunk *chunk = tess_layer_chunk(layer, cx, cy);
    if (!chunk) continue;
    const uint32_t a8 = (uint32_t)(layer->props.opacity * 255.0f + 0.5f);
    TilesetMemo memo = {0, NULL, NULL, NULL};
    uint32_t memo_src_id = 0;
    const uint8_t *src = NULL;
    int sstride = 0;
    for (uint32_t ly = 0; ly < ny; ly++) {
      for (uint32_t lx = 0; lx < nx; lx++) {
        TessCell cell = chunk->cells[ly * TESS_CHUNK_SIZE + lx];
        if (!cell) continue;
        memo_get(r, &memo, TESS_CELL_TILESET(cell));
        if (memo_src_id != memo.id) {
          memo_src_id = memo.id;
          src = NULL;
          cairo_surface_t *ss = NULL;
          if (memo.surf && memo.surf->surface) ss = lod > 0 ? memo.surf->mip[lod] : memo.surf->surface;
          if (ss && memo.ts->tile_w / f == mw && memo.ts->tile_h / f == mh) {
            cairo_surface_flush(ss);
            src = cairo_image_surface_get_data(ss);
            sstride = cairo_image_surface_get_stride(ss);
          }
        }
        uint32_t tile = TESS_CELL_TILE(cell);
        const int dx0 = ox + (int)(lx * mw), dy0 = oy + (int)(ly * mh);
        if (!src || tile >= memo.ts->tile_count) {
          /* The magenta check of a tile that cannot be drawn. */
          for (uint32_t j = 0; j < mh; j++) {
            uint32_t *row = (uint32_t *)(void *)(data + (size_t)(dy0 + (int)j) * (size_t)stride) + dx0;
            for (uint32_t i = 0; i < mw; i++) {
              bool first = (i < mw / 2) == (j < mh / 2);
              uint32_t c = first ? 0xD9D900D9u : 0xD9150015u;
              row[i] = over_premul(a8 < 255 ? scale_premul(c, a8) : c, row[i]);
            }
          }
          continue;
        }
        uint32_t sx, sy;
        if (lod > 0) {
          sx = (tile % memo.ts->columns) * mw;
          sy = (tile / memo.ts->columns) * mh;
        } else {
          tess_tileset_tile_origin(memo.ts, tile, &sx, &sy);
        }
        const NormMap m = flips_inverse(cell);
        for (uint32_t j = 0; j < mh; j++) {
          uint32_t *row = (uint32_t *)(void *)(data + (size_t)(dy0 + (int)j) * (size_t)stride) + dx0;
          const double v = (j + 0.5) / mh;
          if (!(cell & TESS_CELL_FLIPS)) {
            const uint32_t *srow = (const uint32_t *)(const void *)(src + (size_t)(sy + j) * (size_t)sstride) + sx;
            for (uint32_t i = 0; i < mw; i++) {
              uint32_t c = srow[i];
              if (!c) continue;
              row[i] = over_premul(a8 < 255 ? scale_premul(c, a8) : c, row[i]);
            }
            continue;
          }
          for (uint32_t i = 0; i < mw; i++) {
            /* The source pixel whose centre lands on this one (what cairo's nearest filter takes). */
            const double u = (i + 0.5) / mw;
            int si = (int)((m.a * u + m.b * v + m.e) * mw), sj = (int)((m.c * u + m.d * v + m.f) * mh);
            if (si < 0) si = 0;
            if (si >= (int)mw) si = (int)mw - 1;
            if (sj < 0) sj = 0;
            if (sj >= (int)mh) sj = (int)mh - 1;
            uint32_t c = ((const uint32_t *)(const void *)(src + (size_t)(sy + (uint32_t)sj) * (size_t)sstride))[sx + (uint32_t)si];
            if (!c) continue;
            row[i] = over_premul(a8 < 255 ? scale_premul(c, a8) : c, row[i]);
          }
        }
      }
    }
  }
  cairo_surface_mark_dirty_rectangle(target, ox, oy, (int)(nx * mw), (int)(ny * mh));
}

void render_paint_materials(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1, double alpha) {
  const double tw = level->settings.tile_w, th = level->settings.tile_h;
  const TessProject *p = r->project;
  for (uint32_t y = y0; y < y1; y++) {
    uint32_t run_start = x0;
    TessId run_mat = 0;
    for (uint32_t x = x0; x <= x1; x++) {
      TessId mat = 0;
      if (x < x1) {
        TessCellCollision cc;
        tess_level_cell_collision(p, level, x, y, &cc);
        mat = cc.material;
      }
      if (x < x1 && mat == run_mat) continue;
      if (run_mat) {
        const TessMaterial *m = tess_project_material(p, run_mat);
        if (m) {
          render_set_rgba(cr, m->color, alpha);
          cairo_rectangle(cr, run_start * tw, y * th, (x - run_start) * tw, th);
          cairo_fill(cr);
        }
      }
      run_start = x;
      run_mat = mat;
    }
  }
}

/* A wall made by a solid material alone (no colliding tile) shows nothing of
 * itself: a hero resting on it seemed to float. Each such cell is hatched in
 * its material's colour, overlay or not, by every view that draws tiles.
 * The hatch is diagonal lines a quarter of a cell apart and a half-strength
 * wash, so it reads as "a wall, of this material" at any zoom. */
void render_paint_material_walls(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0,
                                 uint32_t x1, uint32_t y1) {
  const double tw = level->settings.tile_w, th = level->settings.tile_h;
  const TessProject *p = r->project;
  const TessLayer *mat_layer = tess_level_material_layer(level);
  if (!mat_layer) return; /* without overrides only tiles make walls, and tiles are drawn */
  for (uint32_t y = y0; y < y1; y++) {
    for (uint32_t x = x0; x < x1; x++) {
      if (!tess_layer_cell(mat_layer, x, y)) continue;
      TessCellCollision cc;
      tess_level_cell_collision(p, level, x, y, &cc);
      if (cc.cell || cc.kind != TESS_TILE_COLLISION_FULL) continue;
      const TessMaterial *m = tess_project_material(p, cc.material);
      if (!m || m->kind != TESS_MATERIAL_SOLID) continue;
      double cx = x * tw, cy = y * th;
      cairo_save(cr);
      cairo_rectangle(cr, cx, cy, tw, th);
      cairo_clip(cr);
      render_set_rgba(cr, m->color, 0.35);
      cairo_paint(cr);
      for (int k = -3; k <= 4; k++) { /* lines x - y = const, a quarter cell apart */
        double o = k * tw / 4.0;
        cairo_move_to(cr, cx + o, cy + th);
        cairo_line_to(cr, cx + o + th, cy);
      }
      render_set_rgba(cr, m->color, 1.0);
      cairo_set_line_width(cr, fmax(tw, th) / 10.0);
      cairo_stroke(cr);
      cairo_restore(cr);
    }
  }
}

/* A full tile drawn off its cell collides as the rectangle it is drawn in
 * (core/scene's rule), so it is outlined as a piece, not as a square. */
static bool off_grid_full(const TessProject *p, const TessLevel *level, const TessCellCollision *cc) {
  if (!cc->tile || cc->tile->collision != TESS_TILE_COLLISION_FULL) return false;
  const TessTileset *ts = tess_project_tileset(p, TESS_CELL_TILESET(cc->cell));
  return ts && !tess_tile_on_cell(ts, cc->cell, level->settings.tile_w, level->settings.tile_h);
}

/* Adds one cell's collision pieces, where its tile is drawn, to the path. */
static void path_cell_pieces(cairo_t *cr, const TessProject *p, const TessLevel *level, const TessCellCollision *cc,
                             uint32_t x, uint32_t y) {
  const bool traced = cc->kind == TESS_TILE_COLLISION_TRACED && cc->tile;
  if (!traced && !(cc->kind == TESS_TILE_COLLISION_FULL && off_grid_full(p, level, cc))) return;
  const TessTileset *ts = tess_project_tileset(p, TESS_CELL_TILESET(cc->cell));
  if (!ts) return;
  const double tw = level->settings.tile_w, th = level->settings.tile_h;
  TessTilePlace pl;
  tess_tile_place(ts, cc->cell, level->settings.tile_w, level->settings.tile_h, &pl);
  TessPolygon rect;
  memset(&rect, 0, sizeof rect);
  rect.count = 4;
  rect.v[1].x = rect.v[2].x = (float)ts->tile_w;
  rect.v[2].y = rect.v[3].y = (float)ts->tile_h;
  uint32_t n = traced ? cc->tile->piece_count : 1;
  for (uint32_t k = 0; k < n; k++) {
    const TessPolygon *poly = traced ? &cc->tile->pieces[k] : &rect;
    for (uint32_t v = 0; v < poly->count; v++) {
      TessVec2 q = tess_tile_place_point(&pl, cc->cell, ts, poly->v[v]);
      double px = x * tw + q.x, py = y * th + q.y;
      if (v == 0)
        cairo_move_to(cr, px, py);
      else
        cairo_line_to(cr, px, py);
    }
    cairo_close_path(cr);
  }
}

/* The pieces of the cells in the region and of the neighbours whose tiles reach into it. */
static void paint_pieces(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                         uint32_t y1) {
  uint32_t ex0 = x0, ey0 = y0, ex1 = x1, ey1 = y1;
  render_reach_cells(r, level, &ex0, &ey0, &ex1, &ey1);
  TessCellCollision *row = tess_alloc((size_t)(ex1 - ex0) * sizeof *row);
  if (!row) return;
  for (uint32_t y = ey0; y < ey1; y++) {
    tess_level_collision_row(r->project, level, ex0, y, ex1 - ex0, row);
    for (uint32_t x = ex0; x < ex1; x++) path_cell_pieces(cr, r->project, level, &row[x - ex0], x, y);
  }
  tess_free(row);
}

void render_paint_collision(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1, uint32_t color, double line_width) {
  if (x1 <= x0 || y1 <= y0) return;
  const double tw = level->settings.tile_w, th = level->settings.tile_h;
  const TessProject *p = r->project;
  /* Shape kinds with a one-cell border, so edges between walls are skipped. */
  size_t gw = (size_t)(x1 - x0) + 2, gh = (size_t)(y1 - y0) + 2;
  uint8_t *full = tess_calloc(gw * gh, 1);
  if (!full) return;
  for (size_t gy = 0; gy < gh; gy++) {
    int64_t y = (int64_t)y0 + (int64_t)gy - 1;
    if (y < 0 || y >= (int64_t)level->settings.height) continue;
    for (size_t gx = 0; gx < gw; gx++) {
      int64_t x = (int64_t)x0 + (int64_t)gx - 1;
      if (x < 0 || x >= (int64_t)level->settings.width) continue;
      TessCellCollision cc;
      tess_level_cell_collision(p, level, (uint32_t)x, (uint32_t)y, &cc);
      /* 1: a wall; 2: a one-way platform (solid only from above), drawn as its top edge. */
      full[gy * gw + gx] = (uint8_t)(cc.kind == TESS_TILE_COLLISION_FULL && !off_grid_full(p, level, &cc) ? (cc.one_way ? 2 : 1) : 0);
    }
  }
  paint_pieces(r, cr, level, x0, y0, x1, y1);
  /* Traced pieces: translucent fill and outline. */
  render_set_rgba(cr, color, 0.25);
  cairo_fill_preserve(cr);
  render_set_rgba(cr, color, 1.0);
  cairo_set_line_width(cr, line_width);
  cairo_stroke(cr);
  /* Full squares: fill runs, then outline the boundary between wall and not. */
  for (size_t gy = 1; gy + 1 < gh; gy++) {
    size_t run = 0;
    for (size_t gx = 1; gx < gw; gx++) {
      bool f = gx + 1 < gw && full[gy * gw + gx] == 1;
      if (f && !run) run = gx;
      if (!f && run) {
        cairo_rectangle(cr, (x0 + run - 1) * tw, (y0 + gy - 1) * th, (double)(gx - run) * tw, th);
        run = 0;
      }
    }
  }
  render_set_rgba(cr, color, 0.25);
  cairo_fill(cr);
  for (size_t gy = 1; gy + 1 < gh; gy++) {
    for (size_t gx = 1; gx + 1 < gw; gx++) {
      double x = (x0 + gx - 1) * tw, y = (y0 + gy - 1) * th;
      if (full[gy * gw + gx] == 2) {
        /* The platform's top, with ticks showing the side that stops bodies. */
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + tw, y);
        for (int k = 1; k <= 3; k++) {
          cairo_move_to(cr, x + tw * k / 4.0, y);
          cairo_line_to(cr, x + tw * k / 4.0, y + th * 0.25);
        }
        continue;
      }
      if (full[gy * gw + gx] != 1) continue;
      if (full[(gy - 1) * gw + gx] != 1) {
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + tw, y);
      }
      if (full[(gy + 1) * gw + gx] != 1) {
        cairo_move_to(cr, x, y + th);
        cairo_line_to(cr, x + tw, y + th);
      }
      if (full[gy * gw + gx - 1] != 1) {
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x, y + th);
      }
      if (full[gy * gw + gx + 1] != 1) {
        cairo_move_to(cr, x + tw, y);
        cairo_line_to(cr, x + tw, y + th);
      }
    }
  }
  render_set_rgba(cr, color, 1.0);
  cairo_set_line_width(cr, line_width);
  cairo_stroke(cr);
  tess_free(full);
}
