#include "editor_fixture.h"

#include <glib/gstdio.h>

#include "tess-i18n.h"
#include "level_fixture.h"
#include "project_fixture.h"

void fixture_spin(void) {
  for (int i = 0; i < 1000 && g_main_context_iteration(NULL, FALSE); i++) {
  }
}

gboolean fixture_wait(gboolean *flag, guint ms) {
  gint64 end = g_get_monotonic_time() + (gint64)ms * 1000;
  while (!*flag && g_get_monotonic_time() < end) {
    if (!g_main_context_iteration(NULL, FALSE)) g_usleep(1000);
  }
  return *flag;
}

char *fixture_copy_demo(const char *name) {
  const char *build = g_getenv("TESS_BUILD_ROOT");
  g_autofree char *demo = g_build_filename(build ? build : ".", "data", "demo", "demo.tessera", NULL);
  char buf[1024];
  char *dest = g_strdup(tess_test_path(buf, sizeof buf, name));
  g_autofree char *bytes = NULL;
  gsize size = 0;
  g_autoptr(GError) error = NULL;
  if (!g_file_get_contents(demo, &bytes, &size, &error) || !g_file_set_contents(dest, bytes, (gssize)size, &error)) {
    fprintf(stderr, "cannot copy the demo project %s: %s\n", demo, error->message);
    exit(1);
  }
  return dest;
}

TessWindow *fixture_window(const char *path) {
  TessWindow *w = tess_window_new(NULL);
  gtk_window_present(GTK_WINDOW(w));
  if (path) CHECK(tess_window_open_path(w, path));
  fixture_spin();
  return w;
}

void fixture_close(TessWindow *window) {
  TessDocument *doc = tess_window_get_document(window);
  if (doc) g_object_add_weak_pointer(G_OBJECT(doc), (gpointer *)&doc);
  GtkWindow *dialog = tess_window_get_last_dialog(window);
  if (dialog) gtk_window_destroy(dialog);
  gtk_window_destroy(GTK_WINDOW(window));
  for (int i = 0; i < 200 && doc; i++) {
    fixture_spin();
    if (doc) g_usleep(1000);
  }
  CHECK_MSG(doc == NULL, "the window's document outlived the window");
  if (doc) g_object_remove_weak_pointer(G_OBJECT(doc), (gpointer *)&doc);
}

TessProject *fixture_load(const char *path) { return tess_test_load_read_only(path); }

TessLevel *fixture_level(TessWindow *w) {
  return tess_project_level(tess_document_get_project(tess_window_get_document(w)), tess_window_get_level(w));
}

TessId fixture_add_object(TessWindow *w, const TessObject *obj) {
  TessDocument *doc = tess_window_get_document(w);
  TessLevel *level = fixture_level(w);
  TessId layer = tess_test_object_layer_id(level);
  CHECK_MSG(layer != 0, "the level shown has no object layer");
  if (!layer) return 0;
  TessId id = 0;
  TessError err = {0};
  CHECK_OK(tess_edit_object_add(tess_document_get_project(doc), level->id, layer, obj, &id, &err), &err);
  g_autoptr(GError) error = NULL;
  CHECK_MSG(tess_document_commit(doc, &error), "%s", error ? error->message : "the commit was refused");
  return id;
}

GtkWidget *fixture_find_named(GtkWidget *root, const char *name) {
  if (g_strcmp0(gtk_widget_get_name(root), name) == 0) return root;
  for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
    GtkWidget *hit = fixture_find_named(c, name);
    if (hit) return hit;
  }
  return NULL;
}

void fixture_type_into(GtkWidget *spin, const char *text) {
  gtk_editable_set_text(GTK_EDITABLE(spin), text);
  gtk_spin_button_update(GTK_SPIN_BUTTON(spin));
  fixture_spin();
}

TessDocument *fixture_new_document(const char *name) {
  char buf[1024];
  g_autoptr(GError) error = NULL;
  TessDocument *doc = tess_document_new_project(tess_test_path(buf, sizeof buf, name), &error);
  CHECK_MSG(doc != NULL, "%s", error ? error->message : "no document");
  return doc;
}

GtkWindow *fixture_host(GtkWidget *child, int w, int h) {
  GtkWindow *win = GTK_WINDOW(gtk_window_new());
  gtk_window_set_default_size(win, w, h);
  gtk_window_set_child(win, child);
  gtk_window_present(win);
  for (int i = 0; i < 500 && gtk_widget_get_width(child) == 0; i++) {
    fixture_spin();
    g_usleep(1000);
  }
  fixture_spin();
  return win;
}

gboolean fixture_have_program(const char *name) {
  g_autofree char *path = g_find_program_in_path(name); /* owned: freed, or LeakSanitizer reports it */
  return path != NULL;
}

TessLayer *fixture_tile_layer(TessLevel *level) {
  for (int i = (int)level->layer_count - 1; i >= 0; i--)
    if (level->layers[i]->props.kind == TESS_LAYER_TILES) return level->layers[i];
  return NULL;
}

char *fixture_dialog_text(GtkWindow *dialog) {
  if (!GTK_IS_MESSAGE_DIALOG(dialog)) return g_strdup("");
  g_autofree char *text = NULL, *secondary = NULL;
  g_object_get(dialog, "text", &text, "secondary-text", &secondary, NULL);
  return g_strdup_printf("%s\n%s", text ? text : "", secondary ? secondary : "");
}

int fixture_main(int argc, char **argv, const TessTestCase *cases, size_t count) {
  tess_i18n_init();
  gtk_init();
  return tess_test_run(argc, argv, cases, count);
}
