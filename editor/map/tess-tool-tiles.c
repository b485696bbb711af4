/* The tile tools: brush, eraser, rectangle, bucket fill, picker and the
 * material brush. Each press takes a fresh merge key, so a whole drag is one
 * undo step; every dab is committed to the project file at once. */
#include <glib/gi18n.h>
#include <math.h>

#include "tess-map-view-private.h"

static TessLevel *level_of(TessMapView *v) { return tess_map_view_level(v); }

static void stamp_origin(TessMapView *v, int cx, int cy, uint32_t w, uint32_t h, int *x, int *y) {
  /* The pointer holds the stamp's centre cell (top-left of the middle for even sizes). */
  *x = cx - (int)(w - 1) / 2;
  *y = cy - (int)(h - 1) / 2;
}

static void report(TessMapView *v, TessResult r, const TessError *err) {
  tess_map_view_refuse_result(v, r, err);
  v->drag_refused = TRUE;
}

static void paint_stamp_at(TessMapView *v, int cx, int cy) {
  int x, y;
  stamp_origin(v, cx, cy, v->stamp_w, v->stamp_h, &x, &y);
  TessError err;
  TessResult r = tess_edit_paint(tess_map_view_project(v), v->level_id, v->layer_id, x, y, v->stamp_w, v->stamp_h,
                                 v->stamp, v->merge, &err);
  if (r != TESS_OK) report(v, r, &err);
  else v->drag_changed = TRUE;
}

static void erase_at(TessMapView *v, int cx, int cy) {
  int x, y;
  stamp_origin(v, cx, cy, v->brush_size, v->brush_size, &x, &y);
  TessError err;
  TessResult r = tess_edit_erase(tess_map_view_project(v), v->level_id, v->layer_id, x, y, v->brush_size,
                                 v->brush_size, v->merge, &err);
  if (r != TESS_OK) report(v, r, &err);
  else v->drag_changed = TRUE;
}

static void material_at(TessMapView *v, int cx, int cy) {
  int x, y;
  stamp_origin(v, cx, cy, v->brush_size, v->brush_size, &x, &y);
  TessError err;
  TessResult r = tess_edit_paint_material(tess_map_view_project(v), v->level_id, x, y, v->brush_size, v->brush_size,
                                          v->material, v->merge, &err);
  if (r == TESS_ERR_LOCKED) {
    TessLayer *ml = tess_level_material_layer(level_of(v));
    g_autofree char *msg = g_strdup_printf(_("The layer “%s” is locked"), ml ? ml->props.name : _("Materials"));
    tess_map_view_refuse(v, msg);
    v->drag_refused = TRUE;
  } else if (r != TESS_OK) {
    report(v, r, &err);
  } else {
    v->drag_changed = TRUE;
  }
}

/* Applies `dab` at every cell of the segment from the last cell to (cx, cy)
 * (Bresenham), so a fast drag leaves no gaps. */
static void along_line(TessMapView *v, int cx, int cy, void (*dab)(TessMapView *, int, int)) {
  int x = v->last_cx, y = v->last_cy;
  int dx = abs(cx - x), dy = -abs(cy - y), sx = x < cx ? 1 : -1, sy = y < cy ? 1 : -1, e = dx + dy;
  while (!(x == cx && y == cy) && !v->drag_refused) {
    int e2 = 2 * e;
    if (e2 >= dy) {
      e += dy;
      x += sx;
    }
    if (e2 <= dx) {
      e += dx;
      y += sy;
    }
    dab(v, x, y);
  }
}

static gboolean material_layer_ok(TessMapView *v) {
  TessLayer *ml = tess_level_material_layer(level_of(v));
  if (ml && ml->props.locked) {
    g_autofree char *msg = g_strdup_printf(_("The layer “%s” is locked"), ml->props.name);
    tess_map_view_refuse(v, msg);
    return FALSE;
  }
  return TRUE;
}

/* The layer the picker reads: the edited tile layer, else the topmost
 * visible tile layer with a tile under the press. */
static TessLayer *pick_layer(TessMapView *v, int cx, int cy) {
  TessLayer *layer = tess_map_view_edit_layer(v);
  if (layer && layer->props.kind == TESS_LAYER_TILES) return layer;
  TessLevel *level = level_of(v);
  for (uint32_t i = level->layer_count; i-- > 0;) {
    TessLayer *l = level->layers[i];
    if (l->props.kind == TESS_LAYER_TILES && l->props.visible && cx >= 0 && cy >= 0 &&
        tess_layer_cell(l, (uint32_t)cx, (uint32_t)cy))
      return l;
  }
  return NULL;
}

static void rect_of(TessMapView *v, int cx, int cy, int *x, int *y, uint32_t *w, uint32_t *h) {
  int x0 = MIN(v->press_cx, cx), x1 = MAX(v->press_cx, cx), y0 = MIN(v->press_cy, cy), y1 = MAX(v->press_cy, cy);
  *x = x0;
  *y = y0;
  *w = (uint32_t)(x1 - x0 + 1);
  *h = (uint32_t)(y1 - y0 + 1);
}

/* Clips a rectangle of cells to the level; FALSE when nothing is left. */
static gboolean clip_rect(TessLevel *level, int *x, int *y, uint32_t *w, uint32_t *h) {
  int64_t x0 = MAX(*x, 0), y0 = MAX(*y, 0);
  int64_t x1 = MIN((int64_t)*x + *w, (int64_t)level->settings.width);
  int64_t y1 = MIN((int64_t)*y + *h, (int64_t)level->settings.height);
  if (x1 <= x0 || y1 <= y0) return FALSE;
  *x = (int)x0;
  *y = (int)y0;
  *w = (uint32_t)(x1 - x0);
  *h = (uint32_t)(y1 - y0);
  return TRUE;
}

void tess_tool_tiles_press(TessMapView *v, int cx, int cy) {
  if (tess_tool_terrain_applies(v, v->drag_tool)) return tess_tool_terrain_press(v, cx, cy);
  switch (v->drag_tool) {
    case TESS_TOOL_BRUSH:
    case TESS_TOOL_RECTANGLE:
    case TESS_TOOL_BUCKET:
      if (!tess_map_view_check_tile_layer(v)) {
        v->drag_refused = TRUE;
        return;
      }
      if (!v->stamp) {
        tess_map_view_refuse(v, _("Pick a tile in the palette first"));
        v->drag_refused = TRUE;
        return;
      }
      if (v->drag_tool == TESS_TOOL_BRUSH) {
        paint_stamp_at(v, cx, cy);
      } else if (v->drag_tool == TESS_TOOL_BUCKET) {
        TessLevel *level = level_of(v);
        if (cx < 0 || cy < 0 || (uint32_t)cx >= level->settings.width || (uint32_t)cy >= level->settings.height) return;
        TessError err;
        TessResult r = tess_edit_flood_fill(tess_map_view_project(v), v->level_id, v->layer_id, (uint32_t)cx,
                                            (uint32_t)cy, v->stamp[0], v->merge, &err);
        if (r != TESS_OK) report(v, r, &err);
        else v->drag_changed = TRUE;
      }
      break;
    case TESS_TOOL_ERASER:
      if (!tess_map_view_check_tile_layer(v)) {
        v->drag_refused = TRUE;
        return;
      }
      erase_at(v, cx, cy);
      break;
    case TESS_TOOL_MATERIAL_BRUSH:
      if (!material_layer_ok(v)) {
        v->drag_refused = TRUE;
        return;
      }
      material_at(v, cx, cy);
      break;
    default:
      break;
  }
  if (v->drag_changed) tess_map_view_commit(v);
}

void tess_tool_tiles_drag(TessMapView *v, int cx, int cy) {
  if (tess_tool_terrain_applies(v, v->drag_tool)) return tess_tool_terrain_drag(v, cx, cy);
  if (v->drag_refused || (cx == v->last_cx && cy == v->last_cy)) return;
  gboolean before = v->drag_changed;
  v->drag_changed = FALSE;
  switch (v->drag_tool) {
    case TESS_TOOL_BRUSH: along_line(v, cx, cy, paint_stamp_at); break;
    case TESS_TOOL_ERASER: along_line(v, cx, cy, erase_at); break;
    case TESS_TOOL_MATERIAL_BRUSH: along_line(v, cx, cy, material_at); break;
    default: break; /* rectangle and picker show a preview until release */
  }
  if (v->drag_changed) tess_map_view_commit(v);
  v->drag_changed = v->drag_changed || before;
}

void tess_tool_tiles_release(TessMapView *v, int cx, int cy) {
  if (tess_tool_terrain_applies(v, v->drag_tool)) return tess_tool_terrain_release(v, cx, cy);
  if (v->drag_refused) return;
  TessLevel *level = level_of(v);
  if (v->drag_tool == TESS_TOOL_RECTANGLE) {
    int x, y;
    uint32_t w, h;
    rect_of(v, cx, cy, &x, &y, &w, &h);
    if (!clip_rect(level, &x, &y, &w, &h)) return;
    TessError err;
    TessResult r;
    if (v->stamp_w == 1 && v->stamp_h == 1) {
      r = tess_edit_fill_rect(tess_map_view_project(v), v->level_id, v->layer_id, x, y, w, h, v->stamp[0], v->merge,
                              &err);
    } else {
      /* A multi-tile stamp tiles the rectangle, aligned to where the drag began. */
      TessCell *cells = g_new(TessCell, (gsize)w * h);
      for (uint32_t j = 0; j < h; j++)
        for (uint32_t i = 0; i < w; i++) {
          int sx = ((x + (int)i - v->press_cx) % (int)v->stamp_w + (int)v->stamp_w) % (int)v->stamp_w;
          int sy = ((y + (int)j - v->press_cy) % (int)v->stamp_h + (int)v->stamp_h) % (int)v->stamp_h;
          cells[j * w + i] = v->stamp[sy * (int)v->stamp_w + sx];
        }
      r = tess_edit_paint(tess_map_view_project(v), v->level_id, v->layer_id, x, y, w, h, cells, v->merge, &err);
      g_free(cells);
    }
    if (r != TESS_OK) report(v, r, &err);
    else tess_map_view_commit(v);
  } else if (v->drag_tool == TESS_TOOL_PICKER) {
    int x, y;
    uint32_t w, h;
    rect_of(v, cx, cy, &x, &y, &w, &h);
    if (!clip_rect(level, &x, &y, &w, &h)) return;
    TessLayer *layer = pick_layer(v, v->press_cx, v->press_cy);
    TessCell *cells = g_new0(TessCell, (gsize)w * h);
    if (layer)
      for (uint32_t j = 0; j < h; j++)
        for (uint32_t i = 0; i < w; i++) cells[j * w + i] = tess_layer_cell(layer, (uint32_t)x + i, (uint32_t)y + j);
    tess_map_view_set_stamp(v, w, h, cells);
    g_free(cells);
    tess_map_view_emit_stamp_picked(v);
  }
}

/* ---- preview ---- */

static void cell_rect(TessMapView *v, int x, int y, uint32_t w, uint32_t h, double *rx, double *ry, double *rw,
                      double *rh) {
  TessLevel *level = level_of(v);
  double x0, y0, x1, y1;
  tess_map_view_level_to_widget(v, (double)x * level->settings.tile_w, (double)y * level->settings.tile_h, &x0, &y0);
  tess_map_view_level_to_widget(v, (double)(x + (int)w) * level->settings.tile_w,
                                (double)(y + (int)h) * level->settings.tile_h, &x1, &y1);
  *rx = x0;
  *ry = y0;
  *rw = x1 - x0;
  *rh = y1 - y0;
}

/* Cells (x, y, w, h) of the stamp tiled from (ax, ay), translucent. */
static void draw_stamp(TessMapView *v, cairo_t *cr, int x, int y, uint32_t w, uint32_t h, int ax, int ay,
                       double alpha) {
  if (!v->stamp || (uint64_t)w * h > 16384) return;
  /* One group for the whole stamp, made translucent at once; clipped to the
   * stamp so the group is its size, not the view's. */
  TessLevel *level = tess_map_view_level(v);
  if (!level) return;
  const uint32_t tw = level->settings.tile_w, th = level->settings.tile_h;
  double gx, gy, gw, gh;
  cell_rect(v, x, y, w, h, &gx, &gy, &gw, &gh);
  /* Tiles larger than the grid reach beyond the stamp's cells: the group grows by as much. */
  TessTileReach reach;
  tess_tile_reach(tess_map_view_project(v), tw, th, &reach);
  const double kx = gw / ((double)w * tw), ky = gh / ((double)h * th);
  gx -= reach.left * kx;
  gy -= reach.top * ky;
  gw += (reach.left + reach.right) * kx;
  gh += (reach.top + reach.bottom) * ky;
  cairo_save(cr);
  cairo_rectangle(cr, floor(gx), floor(gy), ceil(gw) + 1, ceil(gh) + 1);
  cairo_clip(cr);
  cairo_push_group(cr);
  for (uint32_t j = 0; j < h; j++)
    for (uint32_t i = 0; i < w; i++) {
      int sw = (int)v->stamp_w, sh = (int)v->stamp_h;
      int sx = ((x + (int)i - ax) % sw + sw) % sw, sy = ((y + (int)j - ay) % sh + sh) % sh;
      TessCell c = v->stamp[sy * (int)v->stamp_w + sx];
      if (!c) continue;
      double rx, ry, rw, rh;
      cell_rect(v, x + (int)i, y + (int)j, 1, 1, &rx, &ry, &rw, &rh);
      tess_renderer_draw_cell_placed(v->renderer, cr, c, tw, th, rx, ry, rw, rh, 1.0);
    }
  cairo_pop_group_to_source(cr);
  cairo_paint_with_alpha(cr, alpha);
  cairo_restore(cr);
}

static void outline(cairo_t *cr, double x, double y, double w, double h, double r, double g, double b) {
  cairo_rectangle(cr, floor(x) + 0.5, floor(y) + 0.5, floor(w), floor(h));
  cairo_set_source_rgba(cr, r, g, b, 0.95);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
}

void tess_tool_tiles_draw(TessMapView *v, cairo_t *cr) {
  if (!v->pointer_inside && !v->dragging) return;
  TessLevel *level = level_of(v);
  int cx, cy;
  double lx, ly;
  tess_map_view_widget_to_level(v, v->pointer_x, v->pointer_y, &lx, &ly);
  cx = (int)floor(lx / level->settings.tile_w);
  cy = (int)floor(ly / level->settings.tile_h);
  TessTool tool = v->dragging ? v->drag_tool : v->tool;
  double rx, ry, rw, rh;
  int x, y;
  uint32_t w, h;
  /* On a layer that would refuse the edit, the preview is a red outline only. */
  TessLayer *layer = tess_map_view_edit_layer(v);
  gboolean tile_tool = tool == TESS_TOOL_BRUSH || tool == TESS_TOOL_ERASER || tool == TESS_TOOL_RECTANGLE ||
                       tool == TESS_TOOL_BUCKET;
  if (tile_tool && (!layer || layer->props.kind != TESS_LAYER_TILES || layer->props.locked)) {
    uint32_t n = tool == TESS_TOOL_ERASER ? v->brush_size : 1;
    stamp_origin(v, cx, cy, n, n, &x, &y);
    cell_rect(v, x, y, n, n, &rx, &ry, &rw, &rh);
    outline(cr, rx, ry, rw, rh, 0.95, 0.25, 0.2);
    cairo_move_to(cr, rx + 2, ry + 2);
    cairo_line_to(cr, rx + rw - 2, ry + rh - 2);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    return;
  }
  if (tess_tool_terrain_applies(v, tool)) return tess_tool_terrain_draw(v, cr, tool);
  switch (tool) {
    case TESS_TOOL_BRUSH:
      if (!v->stamp) return;
      stamp_origin(v, cx, cy, v->stamp_w, v->stamp_h, &x, &y);
      draw_stamp(v, cr, x, y, v->stamp_w, v->stamp_h, x, y, 0.6);
      cell_rect(v, x, y, v->stamp_w, v->stamp_h, &rx, &ry, &rw, &rh);
      outline(cr, rx, ry, rw, rh, 1, 1, 1);
      break;
    case TESS_TOOL_ERASER:
    case TESS_TOOL_MATERIAL_BRUSH: {
      stamp_origin(v, cx, cy, v->brush_size, v->brush_size, &x, &y);
      cell_rect(v, x, y, v->brush_size, v->brush_size, &rx, &ry, &rw, &rh);
      const TessMaterial *m =
          tool == TESS_TOOL_MATERIAL_BRUSH ? tess_project_material(tess_map_view_project(v), v->material) : NULL;
      if (m) {
        cairo_set_source_rgba(cr, ((m->color >> 24) & 0xFF) / 255.0, ((m->color >> 16) & 0xFF) / 255.0,
                              ((m->color >> 8) & 0xFF) / 255.0, 0.5);
      } else {
        cairo_set_source_rgba(cr, 0.9, 0.2, 0.2, 0.3);
      }
      cairo_rectangle(cr, rx, ry, rw, rh);
      cairo_fill(cr);
      outline(cr, rx, ry, rw, rh, 1, 1, 1);
      break;
    }
    case TESS_TOOL_RECTANGLE:
    case TESS_TOOL_PICKER:
      if (v->dragging) {
        rect_of(v, cx, cy, &x, &y, &w, &h);
      } else {
        x = cx;
        y = cy;
        w = h = 1;
      }
      if (tool == TESS_TOOL_RECTANGLE && v->dragging && v->stamp)
        draw_stamp(v, cr, x, y, w, h, v->press_cx, v->press_cy, 0.5);
      cell_rect(v, x, y, w, h, &rx, &ry, &rw, &rh);
      if (tool == TESS_TOOL_PICKER) outline(cr, rx, ry, rw, rh, 1.0, 0.85, 0.2);
      else outline(cr, rx, ry, rw, rh, 1, 1, 1);
      break;
    case TESS_TOOL_BUCKET:
      cell_rect(v, cx, cy, 1, 1, &rx, &ry, &rw, &rh);
      if (v->stamp) draw_stamp(v, cr, cx, cy, 1, 1, cx, cy, 0.6);
      outline(cr, rx, ry, rw, rh, 1, 1, 1);
      break;
    default:
      break;
  }
}
