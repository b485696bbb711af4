/* Widget-test harness for TessMapView: a project file made from the render
 * fixture, opened as a TessDocument, a map view on its small level, and
 * helpers that drive the view with synthetic pointer events and read back
 * what the project file holds. */
#pragma once

#include <gtk/gtk.h>

#include "render_fixture.h"
#include "tess-document.h"
#include "tess-map-view-test.h"
#include "tess-map-view.h"

typedef struct Harness {
  char path[1024];
  TessDocument *doc;
  TessMapView *view;
  int refused;
  char last_refused[512];
  int picked;
  int zoom_changes;
  guint selected;
  int cursor_x, cursor_y;
} Harness;

/* Zoom 2, level origin at the widget's top-left: cell (x, y) spans widget
 * pixels [32x, 32x + 32) x [32y, 32y + 32). */
void harness_open(Harness *h, const char *name);
void harness_close(Harness *h);
TessProject *harness_project(Harness *h);
TessLevel *harness_level(Harness *h);
void harness_cell_center(Harness *h, int cx, int cy, double *x, double *y);
/* Press at cell a, move through the cells on the way to b, release at b. */
void harness_drag(Harness *h, int button, GdkModifierType state, int ax, int ay, int bx, int by);
void harness_click(Harness *h, int cx, int cy);
/* A cell of a layer as the project file holds it (read through a second, read-only connection). */
TessCell harness_stored_cell(Harness *h, TessId layer, uint32_t x, uint32_t y);
/* Objects of the small level in the file. */
uint32_t harness_stored_object_count(Harness *h);
gboolean harness_stored_object(Harness *h, TessId id, TessObject *out); /* shallow copy, props dropped */
void harness_undo(Harness *h);
void harness_redo(Harness *h);
