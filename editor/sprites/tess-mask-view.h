/* TessMaskView: one sprite frame over a checkerboard, zoomable, with the
 * collision overlays: exact hull (dashed), simplified hull, the shape's
 * convex pieces (each its own colour) or fitted circle, the pixel
 * centroid and the principal axes of inertia. Hand edits: drag a vertex,
 * double-click an edge to add one, right-click a vertex to remove it; the
 * view only reports them (signals) and the owner applies them. */
#pragma once

#include <gtk/gtk.h>

#include "tessera/geom.h"
#include "tessera/image.h"
#include "tessera/level.h"
#include "tessera/mask.h" /* TessMaskSecondMoments */

G_BEGIN_DECLS

#define TESS_TYPE_MASK_VIEW (tess_mask_view_get_type())
G_DECLARE_FINAL_TYPE(TessMaskView, tess_mask_view, TESS, MASK_VIEW, GtkWidget)

typedef enum TessMaskOverlay {
  TESS_MASK_OVERLAY_HULL = 1 << 0,
  TESS_MASK_OVERLAY_SIMPLIFIED = 1 << 1,
  TESS_MASK_OVERLAY_SHAPE = 1 << 2, /* pieces, box or circle */
  TESS_MASK_OVERLAY_CENTROID = 1 << 3,
  TESS_MASK_OVERLAY_AXES = 1 << 4,
  TESS_MASK_OVERLAY_ALL = 0x1f,
} TessMaskOverlay;

GtkWidget *tess_mask_view_new(void);
/* Copies the frame's pixels (NULL pixels clears). */
void tess_mask_view_set_frame(TessMaskView *v, TessImageView frame);
/* Borrowed until the next call: the owner calls again after each change. */
void tess_mask_view_set_mask(TessMaskView *v, const TessSpriteMask *mask, const TessMaskSecondMoments *moments,
                             const TessDVec2 *simplified, uint32_t simplified_count);
void tess_mask_view_set_overlays(TessMaskView *v, guint overlays);
guint tess_mask_view_get_overlays(TessMaskView *v);
/* Whether vertices can be edited (the shape is made of pieces). */
void tess_mask_view_set_editable(TessMaskView *v, gboolean editable);
/* The sprite's anchor (the body's origin), frame pixels. */
void tess_mask_view_set_anchor(TessMaskView *v, gboolean show, double x, double y);
/* 0 = fit the frame into the widget (and centre it again). A drag away
 * from the vertices or a scroll pans; Ctrl+scroll zooms about the pointer. */
void tess_mask_view_set_zoom(TessMaskView *v, double zoom);
double tess_mask_view_get_zoom(TessMaskView *v); /* the effective scale: property "zoom" */

/* Frame pixels <-> widget coordinates for the current size. */
void tess_mask_view_frame_to_widget(TessMaskView *v, double fx, double fy, double *wx, double *wy);
void tess_mask_view_widget_to_frame(TessMaskView *v, double wx, double wy, double *fx, double *fy);

/* Draws into any cairo context of the given size (the widget's snapshot
 * and the tests' offscreen renders use it). */
void tess_mask_view_draw(TessMaskView *v, cairo_t *cr, int width, int height);

/* The gestures' actions, callable directly (tests, keyboard). Positions in
 * widget coordinates; each emits the matching signal when it hits. */
gboolean tess_mask_view_press_vertex(TessMaskView *v, double wx, double wy); /* starts a drag */
void tess_mask_view_drag_to(TessMaskView *v, double wx, double wy, gboolean final);
gboolean tess_mask_view_insert_at(TessMaskView *v, double wx, double wy); /* double-click on an edge */
gboolean tess_mask_view_remove_at(TessMaskView *v, double wx, double wy); /* right-click on a vertex */
/* Dragging the anchor (signal "anchor-moved": double x, double y, gboolean final; frame pixels). */
gboolean tess_mask_view_press_anchor(TessMaskView *v, double wx, double wy);
void tess_mask_view_drag_anchor_to(TessMaskView *v, double wx, double wy, gboolean final);

G_END_DECLS
