/* What the window says and how it looks while it says it (issue 14), in the
 * real window laid out under Xvfb: a stroke on a locked layer is refused in
 * a toast that leaves every widget where it was (the message bar pushed the
 * layout down 43 px, and the next click hit something else); deleting a
 * level says so with Undo; the Levels list has room for five rows; a locked
 * layer's padlock stands out. */
#include <string.h>

#include "editor_fixture.h"
#include "tess-layers-panel.h"
#include "tess-map-view-test.h"
#include "tess-map-view.h"
#include "tess-toast.h"

/* Lays the window out and lets revealer transitions (250 ms) finish. */
static void settle(TessWindow *w) {
  gint64 until = g_get_monotonic_time() + 700 * 1000;
  while (g_get_monotonic_time() < until) {
    g_main_context_iteration(NULL, FALSE);
    g_usleep(5000);
  }
  gtk_test_widget_wait_for_draw(GTK_WIDGET(w));
  fixture_spin();
}

static graphene_rect_t bounds_in(GtkWidget *widget, TessWindow *w) {
  graphene_rect_t r;
  if (!gtk_widget_compute_bounds(widget, GTK_WIDGET(w), &r)) graphene_rect_init(&r, -1, -1, -1, -1);
  return r;
}

static gboolean same_rect(graphene_rect_t a, graphene_rect_t b) {
  return a.origin.x == b.origin.x && a.origin.y == b.origin.y && a.size.width == b.size.width &&
         a.size.height == b.size.height;
}

/* Item 9. */
static void locked_layer_keeps_layout_still(void) {
  g_autofree char *path = fixture_copy_demo("locked.tessera");
  TessWindow *w = fixture_window(path);
  gtk_window_set_default_size(GTK_WINDOW(w), 1280, 760);
  settle(w);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  TessLevel *level = fixture_level(w);
  TessLayer *layer = tess_level_layer(level, tess_window_get_layer(w));
  CHECK(layer && layer->props.kind == TESS_LAYER_TILES);
  TessLayerProps props = layer->props;
  props.locked = true;
  TessError err = {0};
  CHECK_OK(tess_edit_layer_set_props(p, level->id, &props, 0, &err), &err);
  CHECK(tess_document_commit(doc, NULL));
  settle(w);
  uint64_t hash = tess_level_content_hash(p, level);

  TessMapView *map = TESS_MAP_VIEW(tess_window_get_map_view(w));
  GtkWidget *watched[] = {GTK_WIDGET(map), tess_window_get_layers_panel(w), tess_window_get_tile_palette(w)};
  graphene_rect_t before[G_N_ELEMENTS(watched)];
  for (guint i = 0; i < G_N_ELEMENTS(watched); i++) before[i] = bounds_in(watched[i], w);

  tess_map_view_set_tool(map, TESS_TOOL_BRUSH);
  double x = gtk_widget_get_width(GTK_WIDGET(map)) / 2.0, y = gtk_widget_get_height(GTK_WIDGET(map)) / 2.0;
  tess_map_view_test_press(map, 1, x, y, 0);
  tess_map_view_test_release(map, 1, x, y, 0);
  settle(w);

  /* Refused, and said. */
  CHECK(tess_level_content_hash(p, level) == hash);
  const char *said = tess_window_get_reported(w);
  CHECK_MSG(said && strstr(said, "locked"), "%s", said ? said : "(nothing said)");
  TessToast *toast = TESS_TOAST(tess_window_get_toast(w));
  CHECK(tess_toast_get_message(toast) && strstr(tess_toast_get_message(toast), "locked"));
  CHECK(gtk_widget_get_mapped(GTK_WIDGET(toast)));
  /* Nothing moved. */
  for (guint i = 0; i < G_N_ELEMENTS(watched); i++) {
    graphene_rect_t after = bounds_in(watched[i], w);
    CHECK_MSG(same_rect(before[i], after), "%s moved from (%g, %g) %g x %g to (%g, %g) %g x %g",
              G_OBJECT_TYPE_NAME(watched[i]), before[i].origin.x, before[i].origin.y, before[i].size.width,
              before[i].size.height, after.origin.x, after.origin.y, after.size.width, after.size.height);
  }
  fixture_close(w);
}

/* Friction list: deleting a level says so, with Undo one click away. */
static void deleted_level_toast_undoes(void) {
  g_autofree char *path = fixture_copy_demo("dellevel.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLayersPanel *panel = TESS_LAYERS_PANEL(tess_window_get_layers_panel(w));
  uint32_t n = p->level_count;
  CHECK(n >= 2);
  TessId gone = tess_window_get_level(w);
  g_autofree char *name = g_strdup(tess_project_level(p, gone)->settings.name);
  uint64_t project_hash = tess_project_hash(p);
  CHECK(tess_layers_panel_remove_level(panel));
  fixture_spin();
  CHECK(p->level_count == n - 1 && tess_project_level(p, gone) == NULL);
  TessToast *toast = TESS_TOAST(tess_window_get_toast(w));
  const char *msg = tess_toast_get_message(toast);
  CHECK_MSG(msg && strstr(msg, name) && strstr(msg, "deleted"), "%s", msg ? msg : "(no toast)");
  GtkWidget *undo = tess_toast_get_button(toast);
  CHECK(gtk_widget_get_visible(undo));
  CHECK(g_strcmp0(gtk_button_get_label(GTK_BUTTON(undo)), "Undo") == 0);
  /* The file no longer has it... */
  TessProject *disk = fixture_load(path);
  CHECK(disk && disk->level_count == n - 1);
  if (disk) tess_project_destroy(disk);
  /* ...until Undo in the toast. */
  g_signal_emit_by_name(undo, "clicked");
  fixture_spin();
  CHECK(p->level_count == n && tess_project_level(p, gone) != NULL);
  CHECK(tess_project_hash(p) == project_hash);
  CHECK(tess_toast_get_message(toast) == NULL);
  disk = fixture_load(path);
  CHECK(disk && disk->level_count == n && tess_project_level(disk, gone) != NULL);
  if (disk) tess_project_destroy(disk);

  /* A later edit takes the Undo away: it would undo that edit instead. */
  CHECK(tess_layers_panel_remove_level(panel));
  fixture_spin();
  CHECK(tess_toast_get_message(toast) != NULL);
  CHECK(tess_layers_panel_add_level(panel));
  fixture_spin();
  CHECK(tess_toast_get_message(toast) == NULL);
  fixture_close(w);
}

/* Friction list: the Levels list has room for five rows (it showed 2.5). */
static void levels_list_shows_five_rows(void) {
  g_autofree char *path = fixture_copy_demo("rows.tessera");
  TessWindow *w = fixture_window(path);
  gtk_window_set_default_size(GTK_WINDOW(w), 1280, 760);
  settle(w);
  TessLayersPanel *panel = TESS_LAYERS_PANEL(tess_window_get_layers_panel(w));
  int row = tess_layers_panel_get_level_row_height(panel);
  int view = gtk_widget_get_height(tess_layers_panel_get_levels_view(panel));
  CHECK(row > 10);
  CHECK_MSG(view >= 5 * row, "the Levels list is %d px high, %d px a row (%.1f rows)", view, row, (double)view / row);
  fixture_close(w);
}

static GtkWidget *find_with_class(GtkWidget *root, const char *css_class) {
  if (gtk_widget_has_css_class(root, css_class)) return root;
  for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
    GtkWidget *hit = find_with_class(c, css_class);
    if (hit) return hit;
  }
  return NULL;
}

/* The colour GTK draws a widget's icon in (GTK 4.8: the style context). */
static GdkRGBA icon_color(GtkWidget *button) {
  GtkWidget *image = gtk_widget_get_first_child(button);
  GdkRGBA c = {0};
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (image) gtk_style_context_get_color(gtk_widget_get_style_context(image), &c);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return c;
}

/* Friction list: a locked layer's padlock is drawn in the accent colour,
 * unlike the open ones and the eyes. */
static void locked_padlock_stands_out(void) {
  /* The application's style sheet, as TessApplication loads it at startup. */
  GtkCssProvider *css = gtk_css_provider_new();
  gtk_css_provider_load_from_resource(css, "/org/tessera/Editor/style.css");
  gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_autofree char *path = fixture_copy_demo("padlock.tessera");
  TessWindow *w = fixture_window(path);
  settle(w);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  TessLevel *level = fixture_level(w);
  GtkWidget *panel = tess_window_get_layers_panel(w);
  GtkWidget *open_lock = find_with_class(panel, "tess-off");
  CHECK(open_lock != NULL && find_with_class(panel, "tess-locked") == NULL);
  GdkRGBA open_color = open_lock ? icon_color(open_lock) : (GdkRGBA){0};
  TessLayerProps props = level->layers[0]->props;
  props.locked = true;
  TessError err = {0};
  CHECK_OK(tess_edit_layer_set_props(p, level->id, &props, 0, &err), &err);
  CHECK(tess_document_commit(doc, NULL));
  settle(w);
  GtkWidget *closed = find_with_class(panel, "tess-locked");
  CHECK(closed != NULL);
  if (closed) {
    CHECK(!gtk_widget_has_css_class(closed, "tess-off"));
    GdkRGBA c = icon_color(closed);
    CHECK_MSG(!gdk_rgba_equal(&c, &open_color), "the locked padlock is drawn like an open one");
    /* A strong blue, not white on the row's light grey (what @accent_color gave). */
    CHECK_MSG(c.blue > 0.7f && c.red < 0.3f && c.alpha > 0.9f, "padlock colour %g %g %g %g", c.red, c.green, c.blue,
              c.alpha);
  }
  fixture_close(w);
  gtk_style_context_remove_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css));
  g_object_unref(css);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(locked_layer_keeps_layout_still), TEST(deleted_level_toast_undoes),
                                       TEST(levels_list_shows_five_rows), TEST(locked_padlock_stands_out)};
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
