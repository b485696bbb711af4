/* The rectangular selection: drag to select, drag inside it to move the
 * cells (one undo step), cut / copy / paste / delete. */
#include <glib/gi18n.h>
#include <math.h>

#include "tess-map-view-private.h"

void tess_tool_select_clear(TessMapView *v) {
  v->has_selection = FALSE;
  v->moving_selection = FALSE;
  g_clear_pointer(&v->move_cells, g_free);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

gboolean tess_map_view_get_selection(TessMapView *v, int *x, int *y, uint32_t *w, uint32_t *h) {
  if (!v->has_selection) return FALSE;
  *x = v->sel_x;
  *y = v->sel_y;
  *w = v->sel_w;
  *h = v->sel_h;
  return TRUE;
}

static void set_rect_clipped(TessMapView *v, int x0, int y0, int x1, int y1) {
  TessLevel *level = tess_map_view_level(v);
  int ax = MAX(MIN(x0, x1), 0), ay = MAX(MIN(y0, y1), 0);
  int bx = MIN(MAX(x0, x1), (int)level->settings.width - 1), by = MIN(MAX(y0, y1), (int)level->settings.height - 1);
  if (bx < ax || by < ay) {
    v->has_selection = FALSE;
    return;
  }
  v->has_selection = TRUE;
  v->sel_x = ax;
  v->sel_y = ay;
  v->sel_w = (uint32_t)(bx - ax + 1);
  v->sel_h = (uint32_t)(by - ay + 1);
}

void tess_map_view_set_selection(TessMapView *v, int x, int y, uint32_t w, uint32_t h) {
  tess_tool_select_clear(v);
  if (w == 0 || h == 0 || !tess_map_view_level(v)) return;
  set_rect_clipped(v, x, y, x + (int)w - 1, y + (int)h - 1);
}

static TessCell *read_cells(TessLayer *layer, int x, int y, uint32_t w, uint32_t h) {
  TessCell *cells = g_new0(TessCell, (gsize)w * h);
  for (uint32_t j = 0; j < h; j++)
    for (uint32_t i = 0; i < w; i++) cells[j * w + i] = tess_layer_cell(layer, (uint32_t)(x + (int)i), (uint32_t)(y + (int)j));
  return cells;
}

static gboolean inside_selection(TessMapView *v, int cx, int cy) {
  return v->has_selection && cx >= v->sel_x && cy >= v->sel_y && cx < v->sel_x + (int)v->sel_w &&
         cy < v->sel_y + (int)v->sel_h;
}

void tess_tool_select_press(TessMapView *v, int cx, int cy) {
  if (inside_selection(v, cx, cy)) {
    TessLayer *layer = tess_map_view_edit_layer(v);
    if (!layer || layer->props.kind != TESS_LAYER_TILES) {
      tess_map_view_check_tile_layer(v);
      v->drag_refused = TRUE;
      return;
    }
    g_free(v->move_cells);
    v->move_cells = read_cells(layer, v->sel_x, v->sel_y, v->sel_w, v->sel_h);
    v->moving_selection = TRUE;
    v->move_dx = v->move_dy = 0;
    return;
  }
  v->moving_selection = FALSE;
  set_rect_clipped(v, cx, cy, cx, cy);
}

void tess_tool_select_drag(TessMapView *v, int cx, int cy) {
  if (v->drag_refused) return;
  if (v->moving_selection) {
    v->move_dx = cx - v->press_cx;
    v->move_dy = cy - v->press_cy;
  } else {
    set_rect_clipped(v, v->press_cx, v->press_cy, cx, cy);
  }
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_tool_select_release(TessMapView *v, int cx, int cy) {
  if (v->drag_refused) return;
  if (!v->moving_selection) {
    /* A click without a drag clears the selection, as in Tiled. */
    if (cx == v->press_cx && cy == v->press_cy) tess_tool_select_clear(v);
    else set_rect_clipped(v, v->press_cx, v->press_cy, cx, cy);
    return;
  }
  v->move_dx = cx - v->press_cx;
  v->move_dy = cy - v->press_cy;
  v->moving_selection = FALSE;
  if ((v->move_dx == 0 && v->move_dy == 0) || !tess_map_view_check_tile_layer(v)) {
    g_clear_pointer(&v->move_cells, g_free);
    return;
  }
  TessProject *p = tess_map_view_project(v);
  TessError err;
  /* Erase where it was, set where it goes: one merge key, one undo step. */
  TessResult r = tess_edit_erase(p, v->level_id, v->layer_id, v->sel_x, v->sel_y, v->sel_w, v->sel_h, v->merge, &err);
  if (r == TESS_OK)
    r = tess_edit_set_cells(p, v->level_id, v->layer_id, v->sel_x + v->move_dx, v->sel_y + v->move_dy, v->sel_w,
                            v->sel_h, v->move_cells, v->merge, &err);
  g_clear_pointer(&v->move_cells, g_free);
  if (r != TESS_OK) {
    tess_map_view_refuse_result(v, r, &err);
  } else {
    set_rect_clipped(v, v->sel_x + v->move_dx, v->sel_y + v->move_dy, v->sel_x + v->move_dx + (int)v->sel_w - 1,
                     v->sel_y + v->move_dy + (int)v->sel_h - 1);
  }
  tess_map_view_commit(v);
}

void tess_map_view_copy(TessMapView *v) {
  TessLayer *layer = tess_map_view_edit_layer(v);
  if (!v->has_selection || !layer || layer->props.kind != TESS_LAYER_TILES) return;
  g_free(v->clip);
  v->clip = read_cells(layer, v->sel_x, v->sel_y, v->sel_w, v->sel_h);
  v->clip_w = v->sel_w;
  v->clip_h = v->sel_h;
}

void tess_map_view_cut(TessMapView *v) {
  if (!v->has_selection || !tess_map_view_check_tile_layer(v)) return;
  tess_map_view_copy(v);
  TessError err;
  TessResult r = tess_edit_erase(tess_map_view_project(v), v->level_id, v->layer_id, v->sel_x, v->sel_y, v->sel_w,
                                 v->sel_h, 0, &err);
  if (r != TESS_OK) tess_map_view_refuse_result(v, r, &err);
  tess_map_view_commit(v);
}

void tess_map_view_paste(TessMapView *v) {
  if (!v->clip || !tess_map_view_level(v) || !tess_map_view_check_tile_layer(v)) return;
  TessLevel *level = tess_map_view_level(v);
  int x, y;
  if (v->pointer_inside && v->hover_cx >= 0) {
    x = v->hover_cx;
    y = v->hover_cy;
  } else if (v->has_selection) {
    x = v->sel_x;
    y = v->sel_y;
  } else {
    double lx, ly;
    tess_map_view_widget_to_level(v, 0, 0, &lx, &ly);
    x = MAX(0, (int)ceil(lx / level->settings.tile_w));
    y = MAX(0, (int)ceil(ly / level->settings.tile_h));
  }
  TessError err;
  TessResult r = tess_edit_set_cells(tess_map_view_project(v), v->level_id, v->layer_id, x, y, v->clip_w, v->clip_h,
                                     v->clip, 0, &err);
  if (r != TESS_OK) {
    tess_map_view_refuse_result(v, r, &err);
    return;
  }
  tess_map_view_commit(v);
  tess_map_view_set_selection(v, x, y, v->clip_w, v->clip_h);
}

void tess_tool_select_draw(TessMapView *v, cairo_t *cr) {
  TessLevel *level = tess_map_view_level(v);
  if (!v->has_selection || !level) return;
  int dx = v->moving_selection ? v->move_dx : 0, dy = v->moving_selection ? v->move_dy : 0;
  double x0, y0, x1, y1;
  tess_map_view_level_to_widget(v, (double)(v->sel_x + dx) * level->settings.tile_w,
                                (double)(v->sel_y + dy) * level->settings.tile_h, &x0, &y0);
  tess_map_view_level_to_widget(v, (double)(v->sel_x + dx + (int)v->sel_w) * level->settings.tile_w,
                                (double)(v->sel_y + dy + (int)v->sel_h) * level->settings.tile_h, &x1, &y1);
  if (v->moving_selection && v->move_cells && (uint64_t)v->sel_w * v->sel_h <= 65536) {
    double cw = (x1 - x0) / v->sel_w, ch = (y1 - y0) / v->sel_h;
    const uint32_t tw = level->settings.tile_w, th = level->settings.tile_h;
    /* the group is the selection's size (grown by the reach of tiles larger than the grid), not the view's */
    TessTileReach reach;
    tess_tile_reach(tess_map_view_project(v), tw, th, &reach);
    const double kx = cw / tw, ky = ch / th;
    cairo_save(cr);
    cairo_rectangle(cr, floor(x0 - reach.left * kx), floor(y0 - reach.top * ky),
                    ceil(x1 - x0 + (reach.left + reach.right) * kx) + 1, ceil(y1 - y0 + (reach.top + reach.bottom) * ky) + 1);
    cairo_clip(cr);
    cairo_push_group(cr);
    for (uint32_t j = 0; j < v->sel_h; j++)
      for (uint32_t i = 0; i < v->sel_w; i++)
        tess_renderer_draw_cell_placed(v->renderer, cr, v->move_cells[j * v->sel_w + i], tw, th, x0 + i * cw, y0 + j * ch, cw,
                                       ch, 1.0);
    cairo_pop_group_to_source(cr);
    cairo_paint_with_alpha(cr, 0.8);
    cairo_restore(cr);
  }
  cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
  cairo_set_source_rgba(cr, 0.3, 0.55, 1.0, 0.18);
  cairo_fill(cr);
  cairo_rectangle(cr, floor(x0) + 0.5, floor(y0) + 0.5, floor(x1 - x0), floor(y1 - y0));
  static const double dash[] = {4.0, 4.0};
  cairo_set_dash(cr, dash, 2, 0);
  cairo_set_line_width(cr, 1.0);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_stroke_preserve(cr);
  cairo_set_dash(cr, dash, 2, 4.0);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
}
