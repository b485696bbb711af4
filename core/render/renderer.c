/* TessRenderer: draws a view of a level, through the chunk cache when it
 * can, straight from the cells otherwise, then the vector overlays. */
#include <math.h>
#include <string.h>

#include "render_private.h"

void tess_render_options_default(TessRenderOptions *o) {
  memset(o, 0, sizeof *o);
  o->flags = TESS_RENDER_DEFAULT;
  o->material_alpha = 0.5;
  o->background = 0x202428FFu;
  o->grid_color = 0xFFFFFF40u;
  o->collision_color = 0x30E0FFFFu;
  o->use_cache = true;
}

TessRenderer *tess_renderer_create(const TessProject *project) {
  TessRenderer *r = tess_calloc(1, sizeof *r);
  if (!r) return NULL;
  r->project = project;
  r->cache_limit = (size_t)256 * 1024 * 1024;
  return r;
}

void tess_renderer_destroy(TessRenderer *r) {
  if (!r) return;
  render_cache_drop_all(r);
  tess_free(r->buckets);
  render_drop_surfaces(r);
  TESS_ARRAY_FREE(&r->sprites);
  tess_free(r);
}

void tess_renderer_set_cache_limit(TessRenderer *r, size_t bytes) {
  r->cache_limit = bytes;
  r->frame++;
  render_cache_trim(r);
}

void tess_renderer_invalidate(TessRenderer *r, const TessChange *change) {
  switch ((TessChangeKind)change->kind) {
    case TESS_CHANGE_CHUNK: {
      const TessLevel *level = tess_project_level(r->project, change->level);
      if (level) render_cache_mark_chunk(r, level, change->chunk_x, change->chunk_y);
      else render_cache_drop_level(r, change->level);
      break;
    }
    case TESS_CHANGE_LAYER:
    case TESS_CHANGE_LEVEL:
      render_cache_drop_level(r, change->level);
      break;
    case TESS_CHANGE_TILESET:
      /* Tiles, their default materials and their shapes all come from it. */
      render_drop_tileset(r, change->id);
      render_cache_drop_all(r);
      break;
    case TESS_CHANGE_MATERIAL:
      /* Walls made by a solid material alone are hatched in its colour. */
      render_cache_drop_content(r, TESS_RENDER_MATERIALS | TESS_RENDER_COLLISION | TESS_RENDER_WALLS);
      break;
    case TESS_CHANGE_SPRITE:
      render_drop_sprite(r, change->id);
      break;
    case TESS_CHANGE_OBJECT:
    case TESS_CHANGE_COUNT:
      break;
  }
}

void tess_renderer_invalidate_all(TessRenderer *r) {
  render_cache_drop_all(r);
  render_drop_surfaces(r);
}

void tess_renderer_stats(const TessRenderer *r, TessRenderStats *out) {
  *out = r->stats;
  out->cache_bytes = r->cache_bytes;
}

void tess_render_view_translation(const TessRenderView *view, double *tx, double *ty) {
  *tx = round(-view->origin_x * view->zoom);
  *ty = round(-view->origin_y * view->zoom);
}

bool tess_renderer_frame_complete(const TessRenderer *r) { return !r->frame_incomplete; }

void tess_renderer_reset_stats(TessRenderer *r) { memset(&r->stats, 0, sizeof r->stats); }

void tess_renderer_draw_cell(TessRenderer *r, cairo_t *cr, TessCell cell, double x, double y, double w, double h,
                             double alpha) {
  if (!cell) return;
  const TessTileset *ts = tess_project_tileset(r->project, TESS_CELL_TILESET(cell));
  TessTileSurface *surf = ts ? render_tileset(r, ts->id) : NULL;
  cairo_save(cr);
  cairo_rectangle(cr, x, y, w, h);
  cairo_clip(cr);
  if (alpha < 1.0) cairo_push_group(cr);
  if (surf && surf->pattern) cairo_pattern_set_filter(surf->pattern, CAIRO_FILTER_NEAREST);
  render_paint_tile(cr, ts, surf, cell, x, y, w, h);
  if (alpha < 1.0) {
    cairo_pop_group_to_source(cr);
    cairo_paint_with_alpha(cr, alpha);
  }
  cairo_restore(cr);
}

void tess_renderer_draw_cell_placed(TessRenderer *r, cairo_t *cr, TessCell cell, uint32_t cell_w, uint32_t cell_h, double x,
                                    double y, double w, double h, double alpha) {
  if (!cell || !cell_w || !cell_h) return;
  const TessTileset *ts = tess_project_tileset(r->project, TESS_CELL_TILESET(cell));
  if (!ts) {
    tess_renderer_draw_cell(r, cr, cell, x, y, w, h, alpha);
    return;
  }
  TessTilePlace pl;
  tess_tile_place(ts, cell, cell_w, cell_h, &pl);
  const double sx = w / cell_w, sy = h / cell_h;
  tess_renderer_draw_cell(r, cr, cell, x + pl.x * sx, y + pl.y * sy, pl.w * sx, pl.h * sy, alpha);
}

/* Cells range of the level visible in the view. */
typedef struct Visible {
  double tx, ty, zoom;       /* device = level * zoom + t */
  double lx0, ly0, lx1, ly1; /* level pixels */
  uint32_t x0, y0, x1, y1;   /* cells, half-open */
} Visible;

static uint32_t clamp_cell(double v, uint32_t max) {
  if (!(v > 0)) return 0;
  if (v >= max) return max;
  return (uint32_t)v;
}

static bool chunk_has_cells(const TessLevel *level, uint32_t cx, uint32_t cy) {
  for (uint32_t i = 0; i < level->layer_count; i++) {
    const TessLayer *l = level->layers[i];
    if (l->props.kind == TESS_LAYER_OBJECTS) continue;
    if (tess_layer_chunk(l, cx, cy)) return true;
  }
  return false;
}

/* A chunk has something to draw: its own cells, or a neighbour's tile
 * that reaches into it (tiles larger than the grid). */
static bool chunk_shows_cells(const TessRenderer *r, const TessLevel *level, uint32_t cx, uint32_t cy) {
  if (chunk_has_cells(level, cx, cy)) return true;
  uint32_t x0 = cx * TESS_CHUNK_SIZE, y0 = cy * TESS_CHUNK_SIZE, x1 = x0 + TESS_CHUNK_SIZE, y1 = y0 + TESS_CHUNK_SIZE;
  if (x0 >= level->settings.width || y0 >= level->settings.height) return false;
  if (x1 > level->settings.width) x1 = level->settings.width;
  if (y1 > level->settings.height) y1 = level->settings.height;
  uint32_t ex0 = x0, ey0 = y0, ex1 = x1, ey1 = y1;
  render_reach_cells(r, level, &ex0, &ey0, &ex1, &ey1);
  if (ex0 == x0 && ey0 == y0 && ex1 == x1 && ey1 == y1) return false;
  for (uint32_t y = ey0 / TESS_CHUNK_SIZE; y * TESS_CHUNK_SIZE < ey1; y++)
    for (uint32_t x = ex0 / TESS_CHUNK_SIZE; x * TESS_CHUNK_SIZE < ex1; x++)
      if (chunk_has_cells(level, x, y)) return true;
  return false;
}

static void paint_direct(TessRenderer *r, cairo_t *cr, const TessLevel *level, const Visible *v, uint8_t content,
                         const TessRenderOptions *o) {
  cairo_save(cr);
  cairo_translate(cr, v->tx, v->ty);
  cairo_scale(cr, v->zoom, v->zoom);
  if (content & TESS_RENDER_TILES) render_paint_tiles(r, cr, level, v->x0, v->y0, v->x1, v->y1, -1, v->zoom < 1.0);
  if (content & TESS_RENDER_WALLS) render_paint_material_walls(r, cr, level, v->x0, v->y0, v->x1, v->y1);
  if (content & TESS_RENDER_MATERIALS) render_paint_materials(r, cr, level, v->x0, v->y0, v->x1, v->y1, o->material_alpha);
  if (content & TESS_RENDER_COLLISION)
    render_paint_collision(r, cr, level, v->x0, v->y0, v->x1, v->y1, o->collision_color, 1.0 / v->zoom);
  cairo_restore(cr);
  r->stats.cells_direct += (uint64_t)(v->x1 - v->x0) * (v->y1 - v->y0);
}

/* Draws the dirty chunks of a block into its surface. */
static void repaint_block(TessRenderer *r, TessBlock *b, const TessLevel *level, const TessRenderOptions *o) {
  const double s = tess_render_lod_scale[b->lod];
  const uint32_t tw = level->settings.tile_w, th = level->settings.tile_h;
  const int cpw = (int)lround(TESS_CHUNK_SIZE * tw * s), cph = (int)lround(TESS_CHUNK_SIZE * th * s);
  const bool average = tw * s < 4.0 || th * s < 4.0;
  /* Whole-pixel tiles are blitted in C: the cairo path costs a couple of
   * microseconds per tile, which adds up to a visible stall on a cold cache. */
  const bool soft = !average && render_soft_ok(r, level, b->lod);
  cairo_t *cr = cairo_create(b->surface);
  for (uint32_t k = 0; k < (uint32_t)b->span * b->span; k++) {
    if (!(b->dirty & (1ull << k))) continue;
    uint32_t cx = b->bx * b->span + k % b->span, cy = b->by * b->span + k / b->span;
    int ox = (int)(k % b->span) * cpw, oy = (int)(k / b->span) * cph;
    cairo_save(cr);
    cairo_rectangle(cr, ox, oy, cpw, cph);
    cairo_clip(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    uint32_t x0 = cx * TESS_CHUNK_SIZE, y0 = cy * TESS_CHUNK_SIZE;
    if (x0 < level->settings.width && y0 < level->settings.height && chunk_shows_cells(r, level, cx, cy)) {
      uint32_t x1 = x0 + TESS_CHUNK_SIZE < level->settings.width ? x0 + TESS_CHUNK_SIZE : level->settings.width;
      uint32_t y1 = y0 + TESS_CHUNK_SIZE < level->settings.height ? y0 + TESS_CHUNK_SIZE : level->settings.height;
      if ((b->content & TESS_RENDER_TILES) && average) {
        cairo_surface_flush(b->surface);
        render_paint_tiles_average(r, b->surface, ox, oy, cpw, cph, level, cx, cy, s);
      } else if ((b->content & TESS_RENDER_TILES) && soft) {
        cairo_surface_flush(b->surface);
        render_paint_tiles_soft(r, b->surface, ox, oy, level, cx, cy, x1 - x0, y1 - y0, b->lod);
      }
      cairo_translate(cr, ox, oy);
      cairo_scale(cr, s, s);
      cairo_translate(cr, -(double)x0 * tw, -(double)y0 * th);
      if ((b->content & TESS_RENDER_TILES) && !average && !soft) render_paint_tiles(r, cr, level, x0, y0, x1, y1, b->lod, s < 1.0);
      if (b->content & TESS_RENDER_WALLS) render_paint_material_walls(r, cr, level, x0, y0, x1, y1);
      if (b->content & TESS_RENDER_MATERIALS) render_paint_materials(r, cr, level, x0, y0, x1, y1, o->material_alpha);
      if (b->content & TESS_RENDER_COLLISION)
        render_paint_collision(r, cr, level, x0, y0, x1, y1, o->collision_color, 1.0 / s);
    }
    cairo_restore(cr);
    r->stats.chunks_rendered++;
  }
  b->dirty = 0;
  cairo_destroy(cr);
  cairo_surface_flush(b->surface);
}

/* Returns false when the block would be too large (huge tiles up close). */
static bool paint_cached(TessRenderer *r, cairo_t *cr, const TessLevel *level, const Visible *v, uint8_t content,
                         const TessRenderOptions *o) {
  int lod = 0;
  for (int l = 1; l < TESS_RENDER_LOD_COUNT; l++)
    if (tess_render_lod_scale[l] >= v->zoom * (1.0 - 1e-9)) lod = l;
  const double s = tess_render_lod_scale[lod];
  const uint32_t tw = level->settings.tile_w, th = level->settings.tile_h;
  const uint8_t span = render_cache_span(level, lod);
  const int cpw = (int)lround(TESS_CHUNK_SIZE * tw * s), cph = (int)lround(TESS_CHUNK_SIZE * th * s);
  if (cpw * span > TESS_RENDER_BLOCK_MAX_PX || cph * span > TESS_RENDER_BLOCK_MAX_PX || cpw < 1 || cph < 1) return false;
  const uint32_t cx0 = v->x0 / TESS_CHUNK_SIZE, cy0 = v->y0 / TESS_CHUNK_SIZE;
  const uint32_t cx1 = (v->x1 + TESS_CHUNK_SIZE - 1) / TESS_CHUNK_SIZE, cy1 = (v->y1 + TESS_CHUNK_SIZE - 1) / TESS_CHUNK_SIZE;
  const double bpw = (double)span * TESS_CHUNK_SIZE * tw, bph = (double)span * TESS_CHUNK_SIZE * th; /* level px */
  const double k = s / v->zoom;
  const bool exact = fabs(k - 1.0) < 1e-9;
  bool made_one = false;
  for (uint32_t by = cy0 / span; by * span < cy1; by++) {
    for (uint32_t bx = cx0 / span; bx * span < cx1; bx++) {
      bool any = false;
      for (uint32_t j = 0; j < span && !any; j++)
        for (uint32_t i = 0; i < span && !any; i++) any = chunk_shows_cells(r, level, bx * span + i, by * span + j);
      if (!any) continue;
      TessBlock *b = render_cache_find(r, level->id, (uint8_t)lod, content, bx, by);
      if (!b && made_one && o->time_budget_ms > 0 &&
          (tess_now_seconds() - r->frame_start) * 1e3 > o->time_budget_ms) {
        r->frame_incomplete = true;
        r->stats.blocks_deferred++;
        continue;
      }
      if (!b) {
        made_one = true;
        b = render_cache_insert(r, level->id, (uint8_t)lod, content, bx, by, span, cpw * span, cph * span);
        if (!b) continue;
      } else if (!b->dirty) {
        r->stats.block_hits++;
      }
      b->used = r->frame;
      if (b->dirty) repaint_block(r, b, level, o);
      /* Integer device edges computed the same way for neighbours: no seams. */
      double dx0 = v->tx + round(bx * bpw * v->zoom), dx1 = v->tx + round((bx + 1) * bpw * v->zoom);
      double dy0 = v->ty + round(by * bph * v->zoom), dy1 = v->ty + round((by + 1) * bph * v->zoom);
      cairo_pattern_t *pat = cairo_pattern_create_for_surface(b->surface);
      cairo_matrix_t m;
      cairo_matrix_init(&m, k, 0, 0, k, -v->tx * k - bx * (double)span * cpw, -v->ty * k - by * (double)span * cph);
      cairo_pattern_set_matrix(pat, &m);
      cairo_pattern_set_filter(pat, (exact || k < 1.0) ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR);
      if (!exact) cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
      cairo_set_source(cr, pat);
      cairo_rectangle(cr, dx0, dy0, dx1 - dx0, dy1 - dy0);
      cairo_fill(cr);
      cairo_pattern_destroy(pat);
    }
  }
  return true;
}

static void paint_bounds(cairo_t *cr, const Visible *v, const TessLevel *level) {
  double w = round(level->settings.width * (double)level->settings.tile_w * v->zoom);
  double h = round(level->settings.height * (double)level->settings.tile_h * v->zoom);
  cairo_rectangle(cr, v->tx - 0.5, v->ty - 0.5, w + 1, h + 1);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.6);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
}

TessResult tess_renderer_draw(TessRenderer *r, cairo_t *cr, const TessLevel *level, const TessRenderView *view,
                              const TessRenderOptions *options, TessError *err) {
  TessRenderOptions defaults;
  if (!options) {
    tess_render_options_default(&defaults);
    options = &defaults;
  }
  if (!level || !view || !isfinite(view->zoom) || !(view->zoom > 0.0) || !isfinite(view->origin_x) ||
      !isfinite(view->origin_y) || view->width < 0 || view->height < 0)
    return tess_error_set(err, TESS_ERR_INVALID, "", "render view is not valid (zoom %g)", view ? view->zoom : 0.0);
  const uint32_t tw = level->settings.tile_w, th = level->settings.tile_h;
  if (tw == 0 || th == 0) return tess_error_set(err, TESS_ERR_INVALID, "", "level has a zero tile size");
  r->frame++;
  r->failed_tileset = 0;
  r->frame_incomplete = false;
  r->frame_start = tess_now_seconds();
  if (options->material_alpha != r->baked_material_alpha) {
    render_cache_drop_content(r, TESS_RENDER_MATERIALS);
    r->baked_material_alpha = options->material_alpha;
  }
  if (options->collision_color != r->baked_collision_color) {
    render_cache_drop_content(r, TESS_RENDER_COLLISION);
    r->baked_collision_color = options->collision_color;
  }
  Visible v;
  v.zoom = view->zoom;
  tess_render_view_translation(view, &v.tx, &v.ty);
  v.lx0 = -v.tx / v.zoom;
  v.ly0 = -v.ty / v.zoom;
  v.lx1 = (view->width - v.tx) / v.zoom;
  v.ly1 = (view->height - v.ty) / v.zoom;
  v.x0 = clamp_cell(floor(v.lx0 / tw), level->settings.width);
  v.y0 = clamp_cell(floor(v.ly0 / th), level->settings.height);
  v.x1 = clamp_cell(ceil(v.lx1 / tw), level->settings.width);
  v.y1 = clamp_cell(ceil(v.ly1 / th), level->settings.height);
  const uint32_t flags = options->flags;

  cairo_save(cr);
  cairo_rectangle(cr, 0, 0, view->width, view->height);
  cairo_clip(cr);
  if (flags & TESS_RENDER_BACKGROUND) {
    render_set_rgba(cr, options->background, 1.0);
    cairo_rectangle(cr, v.tx, v.ty, round(level->settings.width * (double)tw * v.zoom),
                    round(level->settings.height * (double)th * v.zoom));
    cairo_fill(cr);
  }
  uint8_t content = (uint8_t)(flags & (TESS_RENDER_TILES | TESS_RENDER_MATERIALS | TESS_RENDER_WALLS));
  /* Far away, collision outlines are baked into the cached blocks; close up
   * they are drawn live so that lines stay one device pixel wide. */
  bool collision_baked = (flags & TESS_RENDER_COLLISION) && options->use_cache && v.zoom < 0.25 - 1e-9;
  if (collision_baked) content |= TESS_RENDER_COLLISION;
  if (content && v.x1 > v.x0 && v.y1 > v.y0) {
    if (!options->use_cache || !paint_cached(r, cr, level, &v, content, options))
      paint_direct(r, cr, level, &v, content, options);
  }
  if ((flags & TESS_RENDER_COLLISION) && !collision_baked && v.x1 > v.x0 && v.y1 > v.y0) {
    cairo_save(cr);
    cairo_translate(cr, v.tx, v.ty);
    cairo_scale(cr, v.zoom, v.zoom);
    render_paint_collision(r, cr, level, v.x0, v.y0, v.x1, v.y1, options->collision_color, 1.0 / v.zoom);
    cairo_restore(cr);
  }
  if (flags & TESS_RENDER_GRID) render_paint_grid(cr, level, v.tx, v.ty, v.zoom, v.x0, v.y0, v.x1, v.y1, options->grid_color);
  if (flags & TESS_RENDER_BOUNDS) paint_bounds(cr, &v, level);
  if (flags & TESS_RENDER_OBJECTS) render_paint_objects(r, cr, level, v.tx, v.ty, v.zoom, v.lx0, v.ly0, v.lx1, v.ly1, options);
  cairo_restore(cr);
  render_cache_trim(r);
  if (r->failed_tileset) {
    const TessTileset *ts = tess_project_tileset(r->project, r->failed_tileset);
    TessTileSurface *surf = r->tilesets[r->failed_tileset];
    return tess_error_set(err, surf ? surf->failure : TESS_ERR_FORMAT, ts ? ts->name : "", "%s",
                          surf ? surf->failure_detail : "tileset image cannot be decoded");
  }
  return TESS_OK;
}
