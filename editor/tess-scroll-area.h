/* TessScrollArea: a drawing area for content far larger than the screen (a
 * big tileset's grid of tiles, a tileset zoomed in). It implements
 * GtkScrollable, so a GtkScrolledWindow scrolls it, and its draw function
 * paints only what shows, into a surface the size of the widget. (A
 * GtkDrawingArea of the content's size in a GtkScrolledWindow has GTK draw
 * the whole content into one cairo surface: 13,830 px square, 765 MB, for
 * the 65,536 tiles of a 4096 x 4096 tileset of 16 px tiles.) */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TESS_TYPE_SCROLL_AREA (tess_scroll_area_get_type())
G_DECLARE_FINAL_TYPE(TessScrollArea, tess_scroll_area, TESS, SCROLL_AREA, GtkWidget)

/* Draws the visible part of the content: `cr` is translated so that content
 * coordinates land where they show; (x, y, width, height) is the visible
 * rectangle, in content coordinates. */
typedef void (*TessScrollAreaDrawFunc)(TessScrollArea *area, cairo_t *cr, double x, double y, int width, int height,
                                       gpointer user_data);

GtkWidget *tess_scroll_area_new(void);
void tess_scroll_area_set_draw_func(TessScrollArea *area, TessScrollAreaDrawFunc draw, gpointer user_data,
                                    GDestroyNotify destroy);
/* The whole content's size in widget pixels (the scrollbars' range). */
void tess_scroll_area_set_content_size(TessScrollArea *area, int width, int height);
void tess_scroll_area_get_content_size(TessScrollArea *area, int *width, int *height);
/* The content point under widget point (x, y): what a click there is on. */
void tess_scroll_area_widget_to_content(TessScrollArea *area, double x, double y, double *cx, double *cy);
/* Scrolls so that content point (cx, cy) shows at widget point (x, y), as
 * far as the content allows (a zoom keeps the point under the pointer). */
void tess_scroll_area_scroll_to(TessScrollArea *area, double cx, double cy, double x, double y);
/* The top-left content point shown. */
void tess_scroll_area_get_offset(TessScrollArea *area, double *x, double *y);

/* Draws what the widget shows now (its size, at its scroll offset) into cr:
 * tests and screenshots read the pixels a frame has. */
void tess_scroll_area_draw_view(TessScrollArea *area, cairo_t *cr);

G_END_DECLS
