/* TessMapView's state, shared by the view and its tool files. */
#pragma once

#include "tess-map-view.h"
#include "tessera/render.h"

typedef enum { OBJECT_DRAG_NONE,
               OBJECT_DRAG_MOVE,
               OBJECT_DRAG_ROTATE } ObjectDrag;

struct _TessMapView {
  GtkWidget parent_instance;

  /* owned references */
  TessDocument *doc;
  TessRenderer *renderer;
  gulong changed_handler;
  guint redraw_idle; /* a redraw to finish filling the chunk cache */

  /* what is edited */
  TessId level_id, layer_id;
  TessTool tool;
  uint32_t stamp_w, stamp_h;
  TessCell *stamp; /* g_malloc'd */
  TessId material;
  TessTerrainBrush terrain; /* color 0: no terrain chosen (the tile tools paint the stamp) */
  uint32_t brush_size;
  TessObject template_obj; /* deep copy (core allocator) */
  gboolean has_template;
  TessId selected_object;

  /* the view */
  double zoom, origin_x, origin_y;
  gboolean show_grid, show_materials, show_collision, snap;
  gboolean placed;        /* the origin was set for the current level */
  gboolean fitting;       /* whole level in view, refitted on resize, until the user zooms or pans */
  guint zoom_notify_idle; /* a fit during layout tells "zoom-changed" from an idle */

  /* the pointer */
  double pointer_x, pointer_y;
  gboolean pointer_inside;
  int hover_cx, hover_cy; /* -1 outside */

  /* a drag of the primary button */
  gboolean dragging;
  TessTool drag_tool; /* the tool for this drag (PICKER for Alt-click) */
  int press_cx, press_cy, last_cx, last_cy;
  double press_lx, press_ly; /* level px */
  uint32_t merge;
  gboolean drag_refused; /* the edit was refused: ignore the rest of the drag */
  gboolean drag_changed; /* something was edited during the drag */

  /* panning (middle drag, Space+drag) */
  gboolean panning, space_down;
  double pan_start_x, pan_start_y, pan_origin_x, pan_origin_y;

  /* pinch */
  gboolean pinch_active;
  double pinch_zoom0;

  /* selection and clipboard (cells) */
  gboolean has_selection;
  int sel_x, sel_y;
  uint32_t sel_w, sel_h;
  gboolean moving_selection;
  int move_dx, move_dy;
  TessCell *move_cells; /* g_malloc'd, sel_w * sel_h */
  uint32_t clip_w, clip_h;
  TessCell *clip; /* g_malloc'd */

  /* the material legend, kept while the visible cells and the project stay the same */
  gboolean legend_valid;
  TessId legend_level;
  uint32_t legend_x0, legend_y0, legend_x1, legend_y1;
  TessLegendEntry legend[16];
  size_t legend_count;

  /* the object tool */
  ObjectDrag object_drag;
  TessVec2 grab_offset; /* object pos minus the press point */
  TessId joint_body_a;  /* first body picked for a joint */
  char *hint;           /* what the tool expects next (property "hint"), NULL when nothing */
};

/* ---- shared helpers (tess-map-view.c) ---- */
TessProject *tess_map_view_project(TessMapView *v);
TessLevel *tess_map_view_level(TessMapView *v);
TessLayer *tess_map_view_edit_layer(TessMapView *v);
/* Reports a refused edit (tess_ui_notify: the window's toast), from a message or a failed TessResult. */
void tess_map_view_refuse(TessMapView *v, const char *message);
void tess_map_view_refuse_result(TessMapView *v, TessResult r, const TessError *err);
/* Commits pending edits to the project file; reports a failure. */
void tess_map_view_commit(TessMapView *v);
/* Checks that the edit layer is a tile layer that accepts edits; refuses visibly otherwise. */
gboolean tess_map_view_check_tile_layer(TessMapView *v);
void tess_map_view_emit_stamp_picked(TessMapView *v);
void tess_map_view_emit_object_selected(TessMapView *v);

/* ---- stamps (tess-stamp.c): pure functions on a w x h array ---- */
TessCell tess_stamp_cell_flip(TessCell cell, gboolean horizontal);
TessCell tess_stamp_cell_rotate(TessCell cell); /* 90 degrees clockwise */
void tess_stamp_flip(uint32_t w, uint32_t h, TessCell *cells, gboolean horizontal);
/* Rotates into `out` (h x w cells). */
void tess_stamp_rotate(uint32_t w, uint32_t h, const TessCell *cells, TessCell *out);

/* ---- tile tools (tess-tool-tiles.c) ---- */
void tess_tool_tiles_press(TessMapView *v, int cx, int cy);
void tess_tool_tiles_drag(TessMapView *v, int cx, int cy);
void tess_tool_tiles_release(TessMapView *v, int cx, int cy);
void tess_tool_tiles_draw(TessMapView *v, cairo_t *cr);

/* ---- terrain tools (tess-tool-terrain.c): brush, rectangle, bucket with a terrain colour ---- */
gboolean tess_tool_terrain_applies(TessMapView *v, TessTool tool);
void tess_tool_terrain_press(TessMapView *v, int cx, int cy);
void tess_tool_terrain_drag(TessMapView *v, int cx, int cy);
void tess_tool_terrain_release(TessMapView *v, int cx, int cy);
void tess_tool_terrain_draw(TessMapView *v, cairo_t *cr, TessTool tool);

/* ---- select tool (tess-tool-select.c) ---- */
void tess_tool_select_press(TessMapView *v, int cx, int cy);
void tess_tool_select_drag(TessMapView *v, int cx, int cy);
void tess_tool_select_release(TessMapView *v, int cx, int cy);
void tess_tool_select_draw(TessMapView *v, cairo_t *cr);
void tess_tool_select_clear(TessMapView *v);

/* ---- object tool (tess-tool-object.c) ---- */
/* Recomputes the "hint" property (tess_tool_object_hint) and notifies when it changed. */
void tess_map_view_sync_hint(TessMapView *v);
/* What the object tool expects next with a joint template (translated,
 * static): the first body, or the second; NULL with any other tool or template. */
const char *tess_tool_object_hint(TessMapView *v);
void tess_tool_object_press(TessMapView *v, double lx, double ly);
void tess_tool_object_drag(TessMapView *v, double lx, double ly);
void tess_tool_object_release(TessMapView *v, double lx, double ly);
void tess_tool_object_draw(TessMapView *v, cairo_t *cr);
gboolean tess_tool_object_delete(TessMapView *v);
