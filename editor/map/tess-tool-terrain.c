/* The terrain tools: while a terrain colour is chosen (the tile palette's
 * terrain mode), the brush, rectangle and bucket paint that colour with
 * core's Wang fill (tess_edit_terrain_*), which picks the tiles. A drag is
 * one undo step (the view's merge key); each motion paints the cells of the
 * segment since the last one in one call, so a fast drag leaves no gaps. */
#include <glib/gi18n.h>
#include <math.h>

#include "tess-map-view-private.h"

gboolean tess_tool_terrain_applies(TessMapView *v, TessTool tool) {
  return v->terrain.color != 0 &&
         (tool == TESS_TOOL_BRUSH || tool == TESS_TOOL_RECTANGLE || tool == TESS_TOOL_BUCKET);
}

static void report(TessMapView *v, TessResult r, const TessError *err) {
  tess_map_view_refuse_result(v, r, err);
  v->drag_refused = TRUE;
}

/* Paints the cells from the last cell to (cx, cy) (Bresenham), the first one
 * included when `first`. */
static void paint_segment(TessMapView *v, int cx, int cy, gboolean first) {
  GArray *xy = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  int x = first ? cx : v->last_cx, y = first ? cy : v->last_cy;
  int dx = abs(cx - x), dy = -abs(cy - y), sx = x < cx ? 1 : -1, sy = y < cy ? 1 : -1, e = dx + dy;
  for (;;) {
    if (first || !(x == v->last_cx && y == v->last_cy)) {
      if (x >= 0 && y >= 0) {
        uint32_t p[2] = {(uint32_t)x, (uint32_t)y};
        g_array_append_vals(xy, p, 2);
      }
    }
    if (x == cx && y == cy) break;
    int e2 = 2 * e;
    if (e2 >= dy) {
      e += dy;
      x += sx;
    }
    if (e2 <= dx) {
      e += dx;
      y += sy;
    }
  }
  TessError err;
  TessResult r = tess_edit_terrain_cells(tess_map_view_project(v), v->level_id, v->layer_id, &v->terrain,
                                         (const uint32_t *)(void *)xy->data, xy->len / 2, v->merge, &err);
  g_array_unref(xy);
  if (r != TESS_OK) report(v, r, &err);
  else v->drag_changed = TRUE;
}

void tess_tool_terrain_press(TessMapView *v, int cx, int cy) {
  if (!tess_map_view_check_tile_layer(v)) {
    v->drag_refused = TRUE;
    return;
  }
  TessLevel *level = tess_map_view_level(v);
  gboolean inside = cx >= 0 && cy >= 0 && (uint32_t)cx < level->settings.width && (uint32_t)cy < level->settings.height;
  if (v->drag_tool == TESS_TOOL_BRUSH) {
    paint_segment(v, cx, cy, TRUE);
  } else if (v->drag_tool == TESS_TOOL_BUCKET && inside) {
    TessError err;
    TessResult r = tess_edit_terrain_fill(tess_map_view_project(v), v->level_id, v->layer_id, &v->terrain,
                                          (uint32_t)cx, (uint32_t)cy, v->merge, &err);
    if (r != TESS_OK) report(v, r, &err);
    else v->drag_changed = TRUE;
  }
  if (v->drag_changed) tess_map_view_commit(v);
}

void tess_tool_terrain_drag(TessMapView *v, int cx, int cy) {
  if (v->drag_refused || v->drag_tool != TESS_TOOL_BRUSH || (cx == v->last_cx && cy == v->last_cy)) return;
  gboolean before = v->drag_changed;
  v->drag_changed = FALSE;
  paint_segment(v, cx, cy, FALSE);
  if (v->drag_changed) tess_map_view_commit(v);
  v->drag_changed = v->drag_changed || before;
}

void tess_tool_terrain_release(TessMapView *v, int cx, int cy) {
  if (v->drag_refused || v->drag_tool != TESS_TOOL_RECTANGLE) return;
  int x = MIN(v->press_cx, cx), y = MIN(v->press_cy, cy);
  uint32_t w = (uint32_t)(MAX(v->press_cx, cx) - x + 1), h = (uint32_t)(MAX(v->press_cy, cy) - y + 1);
  TessError err;
  TessResult r = tess_edit_terrain_rect(tess_map_view_project(v), v->level_id, v->layer_id, &v->terrain, x, y, w, h,
                                        v->merge, &err);
  if (r != TESS_OK) report(v, r, &err);
  else tess_map_view_commit(v);
}

/* The colour under the pointer (the rectangle while dragging), outlined. */
void tess_tool_terrain_draw(TessMapView *v, cairo_t *cr, TessTool tool) {
  TessLevel *level = tess_map_view_level(v);
  double lx, ly;
  tess_map_view_widget_to_level(v, v->pointer_x, v->pointer_y, &lx, &ly);
  int cx = (int)floor(lx / level->settings.tile_w), cy = (int)floor(ly / level->settings.tile_h);
  int x = cx, y = cy, x1 = cx, y1 = cy;
  if (tool == TESS_TOOL_RECTANGLE && v->dragging) {
    x = MIN(v->press_cx, cx), y = MIN(v->press_cy, cy);
    x1 = MAX(v->press_cx, cx), y1 = MAX(v->press_cy, cy);
  }
  double ax, ay, bx, by;
  tess_map_view_level_to_widget(v, (double)x * level->settings.tile_w, (double)y * level->settings.tile_h, &ax, &ay);
  tess_map_view_level_to_widget(v, (double)(x1 + 1) * level->settings.tile_w, (double)(y1 + 1) * level->settings.tile_h,
                                &bx, &by);
  const TessTileset *ts = tess_project_tileset(tess_map_view_project(v), v->terrain.tileset);
  uint32_t rgba = 0xffffffffu;
  if (ts && v->terrain.set < ts->terrain_count && v->terrain.color <= ts->terrains[v->terrain.set].color_count)
    rgba = ts->terrains[v->terrain.set].colors[v->terrain.color - 1].color;
  cairo_rectangle(cr, ax, ay, bx - ax, by - ay);
  cairo_set_source_rgba(cr, ((rgba >> 24) & 0xFF) / 255.0, ((rgba >> 16) & 0xFF) / 255.0, ((rgba >> 8) & 0xFF) / 255.0, 0.35);
  cairo_fill_preserve(cr);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.95);
  cairo_set_line_width(cr, 1.5);
  cairo_stroke(cr);
  if (tool == TESS_TOOL_BUCKET) { /* a small drop marks the fill */
    cairo_arc(cr, (ax + bx) / 2, (ay + by) / 2, MAX(2.0, (bx - ax) / 6), 0, 2 * G_PI);
    cairo_fill(cr);
  }
}
