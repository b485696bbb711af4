#include "map_view_harness.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "tessera/store.h"

/* The window's "win.notify" action, which the view's refusals activate. */
static void on_refused(GSimpleAction *a, GVariant *note, gpointer user) {
  Harness *h = user;
  const char *msg, *button, *action;
  g_variant_get(note, "(&s&s&s)", &msg, &button, &action);
  h->refused++;
  g_strlcpy(h->last_refused, msg, sizeof h->last_refused);
}
static void on_picked(TessMapView *v, Harness *h) { h->picked++; }
static void on_zoom(TessMapView *v, Harness *h) { h->zoom_changes++; }
static void on_selected(TessMapView *v, guint id, Harness *h) { h->selected = id; }
static void on_cursor(TessMapView *v, int x, int y, Harness *h) {
  h->cursor_x = x;
  h->cursor_y = y;
}

void harness_open(Harness *h, const char *name) {
  memset(h, 0, sizeof *h);
  tess_test_path(h->path, sizeof h->path, name);
  TessProject *p = fixture_project();
  fixture_small_level(p);
  TessStore *store = NULL;
  TessError err;
  CHECK_OK(tess_store_open(h->path, TESS_STORE_CREATE, &store, &err), &err);
  if (store) {
    CHECK_OK(tess_store_save_all(store, p, &err), &err);
    tess_store_close(store);
  }
  tess_project_destroy(p);
  GError *error = NULL;
  h->doc = tess_document_open(h->path, &error);
  CHECK_MSG(h->doc != NULL, "open: %s", error ? error->message : "?");
  g_clear_error(&error);
  h->view = TESS_MAP_VIEW(g_object_ref_sink(tess_map_view_new()));
  GSimpleActionGroup *win = g_simple_action_group_new();
  const GActionEntry report[] = {{"notify", on_refused, "(sss)", NULL, NULL, {0}}};
  g_action_map_add_action_entries(G_ACTION_MAP(win), report, 1, h);
  gtk_widget_insert_action_group(GTK_WIDGET(h->view), "win", G_ACTION_GROUP(win));
  g_object_unref(win);
  g_signal_connect(h->view, "stamp-picked", G_CALLBACK(on_picked), h);
  g_signal_connect(h->view, "zoom-changed", G_CALLBACK(on_zoom), h);
  g_signal_connect(h->view, "object-selected", G_CALLBACK(on_selected), h);
  g_signal_connect(h->view, "cursor-moved", G_CALLBACK(on_cursor), h);
  tess_map_view_set_document(h->view, h->doc);
  tess_map_view_set_level(h->view, FIX_SMALL_LEVEL);
  tess_map_view_set_layer(h->view, FIX_LAYER_GROUND);
  /* Zoom before the origin: set_zoom keeps the (zero-sized) widget's centre. */
  tess_map_view_set_zoom(h->view, 2.0);
  tess_map_view_set_origin(h->view, 0, 0);
  h->zoom_changes = 0;
}

void harness_close(Harness *h) {
  if (h->view) {
    tess_map_view_set_document(h->view, NULL);
    g_object_unref(h->view);
  }
  g_clear_object(&h->doc);
}

TessProject *harness_project(Harness *h) { return tess_document_get_project(h->doc); }
TessLevel *harness_level(Harness *h) { return tess_project_level(harness_project(h), FIX_SMALL_LEVEL); }

void harness_cell_center(Harness *h, int cx, int cy, double *x, double *y) {
  tess_map_view_level_to_widget(h->view, cx * 16 + 8, cy * 16 + 8, x, y);
}

void harness_drag(Harness *h, int button, GdkModifierType state, int ax, int ay, int bx, int by) {
  double x, y;
  harness_cell_center(h, ax, ay, &x, &y);
  tess_map_view_test_press(h->view, button, x, y, state);
  int steps = MAX(abs(bx - ax), abs(by - ay));
  for (int i = 1; i <= steps; i++) {
    harness_cell_center(h, ax + (bx - ax) * i / steps, ay + (by - ay) * i / steps, &x, &y);
    tess_map_view_test_motion(h->view, x, y, state);
  }
  harness_cell_center(h, bx, by, &x, &y);
  tess_map_view_test_release(h->view, button, x, y, state);
}

void harness_click(Harness *h, int cx, int cy) { harness_drag(h, GDK_BUTTON_PRIMARY, 0, cx, cy, cx, cy); }

static TessProject *load_stored(Harness *h, TessStore **store) {
  TessError err;
  TessProject *p = NULL;
  *store = NULL;
  if (tess_store_open(h->path, TESS_STORE_READ_ONLY, store, &err) != TESS_OK) {
    CHECK_MSG(0, "reopen: %s", err.detail);
    return NULL;
  }
  if (tess_store_load(*store, &p, &err) != TESS_OK) {
    CHECK_MSG(0, "load: %s", err.detail);
    tess_store_close(*store);
    *store = NULL;
    return NULL;
  }
  return p;
}

TessCell harness_stored_cell(Harness *h, TessId layer, uint32_t x, uint32_t y) {
  TessStore *store;
  TessProject *p = load_stored(h, &store);
  if (!p) return 0xFFFFFFFFu;
  TessLevel *level = tess_project_level(p, FIX_SMALL_LEVEL);
  TessLayer *l = level ? tess_level_layer(level, layer) : NULL;
  TessCell c = l ? tess_layer_cell(l, x, y) : 0;
  tess_project_destroy(p);
  tess_store_close(store);
  return c;
}

static uint32_t count_objects(const TessLevel *level) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < level->layer_count; i++) n += level->layers[i]->object_count;
  return n;
}

uint32_t harness_stored_object_count(Harness *h) {
  TessStore *store;
  TessProject *p = load_stored(h, &store);
  if (!p) return 0;
  uint32_t n = count_objects(tess_project_level(p, FIX_SMALL_LEVEL));
  tess_project_destroy(p);
  tess_store_close(store);
  return n;
}

gboolean harness_stored_object(Harness *h, TessId id, TessObject *out) {
  TessStore *store;
  TessProject *p = load_stored(h, &store);
  if (!p) return FALSE;
  const TessObject *o = tess_level_object(tess_project_level(p, FIX_SMALL_LEVEL), id, NULL);
  if (o) {
    *out = *o;
    out->props = NULL;
    out->prop_count = 0;
  }
  tess_project_destroy(p);
  tess_store_close(store);
  return o != NULL;
}

void harness_undo(Harness *h) {
  GError *error = NULL;
  CHECK(tess_document_undo(h->doc, &error));
  g_clear_error(&error);
}

void harness_redo(Harness *h) {
  GError *error = NULL;
  CHECK(tess_document_redo(h->doc, &error));
  g_clear_error(&error);
}
