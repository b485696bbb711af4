/* TessMapView: the level canvas. Draws through core/render (only the
 * visible cells, from cached chunks), zooms around the pointer (Ctrl+wheel,
 * pinch; 1/16 to 16x), pans (middle drag, Space+drag, scroll), and runs the
 * tools. Every edit goes through tess_edit_*() with one merge key per drag
 * and is committed with tess_document_commit(). */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"
#include "tess-tool.h"
#include "tessera/level.h"

G_BEGIN_DECLS

#define TESS_TYPE_MAP_VIEW (tess_map_view_get_type())
G_DECLARE_FINAL_TYPE(TessMapView, tess_map_view, TESS, MAP_VIEW, GtkWidget)

#define TESS_MAP_VIEW_ZOOM_MIN (1.0 / 16.0)
#define TESS_MAP_VIEW_ZOOM_MAX 16.0

GtkWidget *tess_map_view_new(void);

void tess_map_view_set_document(TessMapView *v, TessDocument *doc); /* NULL clears */
TessDocument *tess_map_view_get_document(TessMapView *v);
void tess_map_view_set_level(TessMapView *v, TessId level);
TessId tess_map_view_get_level(TessMapView *v);
void tess_map_view_set_layer(TessMapView *v, TessId layer); /* the layer tools edit */
TessId tess_map_view_get_layer(TessMapView *v);
void tess_map_view_set_tool(TessMapView *v, TessTool tool);
TessTool tess_map_view_get_tool(TessMapView *v);

/* The brush stamp: w x h cells, row-major; 0 cells are transparent. Copied. */
void tess_map_view_set_stamp(TessMapView *v, uint32_t w, uint32_t h, const TessCell *cells);
/* The current stamp (after the picker, "stamp-picked"); borrowed. */
gboolean tess_map_view_get_stamp(TessMapView *v, uint32_t *w, uint32_t *h, const TessCell **cells);
/* As Tiled's X / Y: mirror the stamp (cells and their flip bits). */
void tess_map_view_flip_stamp(TessMapView *v, gboolean horizontal);
/* As Tiled's Z: rotate the stamp 90 degrees clockwise (flip bits incl. diagonal). */
void tess_map_view_rotate_stamp(TessMapView *v);

void tess_map_view_set_material(TessMapView *v, TessId material); /* material brush; 0 clears overrides */
/* A terrain colour (1..) of a tileset's terrain set: the brush, rectangle and
 * bucket then paint terrain (core's Wang fill) instead of the stamp; color 0
 * turns that off. */
void tess_map_view_set_terrain(TessMapView *v, TessId tileset, uint32_t set, uint32_t color);
gboolean tess_map_view_get_terrain(TessMapView *v, TessId *tileset, uint32_t *set, uint32_t *color);
void tess_map_view_set_brush_size(TessMapView *v, uint32_t cells);
uint32_t tess_map_view_get_brush_size(TessMapView *v);

/* Zoom keeps the view's centre; the pointer-anchored zoom is the wheel's and the pinch's. */
void tess_map_view_set_zoom(TessMapView *v, double zoom);
double tess_map_view_get_zoom(TessMapView *v);
/* Zooms by `factor` keeping the level point under widget point (x, y) in place. */
void tess_map_view_zoom_at(TessMapView *v, double factor, double x, double y);
/* Shows the whole level, centred (zoom up to 4x), and keeps it so as the view
 * resizes until the user zooms or pans. A level set with set_level opens so. */
void tess_map_view_fit(TessMapView *v);
gboolean tess_map_view_get_fitting(TessMapView *v);
/* Level pixel shown at the widget's top-left corner. */
void tess_map_view_set_origin(TessMapView *v, double level_x, double level_y);
void tess_map_view_get_origin(TessMapView *v, double *level_x, double *level_y);
/* Widget point -> level pixel, and the cell there (FALSE outside the level). */
void tess_map_view_widget_to_level(TessMapView *v, double x, double y, double *lx, double *ly);
gboolean tess_map_view_widget_to_cell(TessMapView *v, double x, double y, int *cx, int *cy);
void tess_map_view_level_to_widget(TessMapView *v, double lx, double ly, double *x, double *y);

void tess_map_view_set_show_grid(TessMapView *v, gboolean show);
gboolean tess_map_view_get_show_grid(TessMapView *v);
void tess_map_view_set_show_materials(TessMapView *v, gboolean show); /* overlay + legend */
gboolean tess_map_view_get_show_materials(TessMapView *v);
void tess_map_view_set_show_collision(TessMapView *v, gboolean show);
void tess_map_view_set_snap_to_grid(TessMapView *v, gboolean snap);
gboolean tess_map_view_get_snap_to_grid(TessMapView *v);

/* What the object tool places (a body of any shape, a joint, a zone, a spawn). Copied. */
void tess_map_view_set_object_template(TessMapView *v, const TessObject *tmpl);
TessId tess_map_view_get_selected_object(TessMapView *v);
/* What the tool expects next, for the status bar (property "hint"): with a
 * joint template, "Click the first body, then the second", then "Now click
 * the second body (Esc cancels)"; "" when the tool needs no hint. */
const char *tess_map_view_get_hint(TessMapView *v);
void tess_map_view_select_object(TessMapView *v, TessId id);

/* The rectangular selection (select tool), in cells. */
gboolean tess_map_view_get_selection(TessMapView *v, int *x, int *y, uint32_t *w, uint32_t *h);
void tess_map_view_set_selection(TessMapView *v, int x, int y, uint32_t w, uint32_t h); /* w or h 0 clears */
void tess_map_view_copy(TessMapView *v);
void tess_map_view_cut(TessMapView *v);
/* Pastes at the cell under the pointer (else at the selection, else the view's top-left cell). */
void tess_map_view_paste(TessMapView *v);
/* Erases the selected cells, or removes the selected object (object tool). */
void tess_map_view_delete_selection(TessMapView *v);

G_END_DECLS
