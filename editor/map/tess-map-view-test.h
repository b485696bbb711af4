/* Test hooks: the same handlers the gestures call, so widget tests drive the
 * tools with synthetic pointer events (xdotool cannot pinch under Xvfb). */
#pragma once

#include "tess-map-view.h"

/* Widget coordinates; button 1 primary, 2 middle. `state` holds GdkModifierType bits. */
void tess_map_view_test_press(TessMapView *v, int button, double x, double y, GdkModifierType state);
void tess_map_view_test_motion(TessMapView *v, double x, double y, GdkModifierType state);
void tess_map_view_test_release(TessMapView *v, int button, double x, double y, GdkModifierType state);
/* A wheel step (dy > 0 scrolls down / zooms out with Ctrl) at the pointer. */
void tess_map_view_test_scroll(TessMapView *v, double x, double y, double dx, double dy, GdkModifierType state);
void tess_map_view_test_key(TessMapView *v, guint keyval, gboolean pressed);
/* The zoom gesture, for emitting its signals. */
GtkGesture *tess_map_view_test_zoom_gesture(TessMapView *v);
/* The renderer's counters (chunks redrawn since the last reset). */
void tess_map_view_test_render_stats(TessMapView *v, uint64_t *chunks_rendered, gboolean reset);
/* Draws the view into cr (device pixels 0..width, 0..height), as the snapshot does. */
void tess_map_view_test_draw(TessMapView *v, cairo_t *cr, int width, int height);
/* Draws the view into an offscreen surface of its size (what the snapshot draws). */
cairo_surface_t *tess_map_view_test_render(TessMapView *v, int width, int height);
