/* The editor's Tiled import (File → Import Tiled Map…, drag and drop):
 * the same core code on a worker thread, with progress and Cancel. A map
 * dropped on the window becomes a new level in one undo step and is in the
 * project file; Cancel and a bad map leave the project as it was. */
#include <string.h>

#include "check.h"
#include "editor_fixture.h"
#include "maps.h"
#include "tess-window.h"
#include "tessera/store.h"

static const char *write_map(char *path, size_t size, const char *name, const char *cells) {
  const char *dir = tess_test_tmpdir();
  char png[700];
  snprintf(png, sizeof png, "%s/imp.png", dir);
  maps_write_tileset_png(png, 4, 2, 16, 16, 0, 0, 9, -1);
  char *map = maps_printf("<map orientation=\"orthogonal\" width=\"4\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">\n"
                          "<tileset firstgid=\"1\" name=\"imp\" tilewidth=\"16\" tileheight=\"16\"><image source=\"imp.png\"/></tileset>\n"
                          "<layer name=\"ground\" width=\"4\" height=\"2\"><data encoding=\"csv\">%s</data></layer>\n"
                          "<objectgroup name=\"things\"><object id=\"1\" name=\"start\" x=\"8\" y=\"8\"><point/></object></objectgroup></map>",
                          cells);
  maps_write_file(path, size, dir, name, map);
  free(map);
  return path;
}

static gboolean drop(TessWindow *w, const char *path) {
  g_autoptr(GFile) file = g_file_new_for_path(path);
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_FILE);
  g_value_set_object(&value, file);
  gboolean accepted = FALSE;
  g_signal_emit_by_name(tess_window_get_drop_target(w), "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset(&value);
  return accepted;
}

static void wait_import(TessWindow *w) {
  gint64 end = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
  while (tess_window_import_running(w) && g_get_monotonic_time() < end)
    if (!g_main_context_iteration(NULL, FALSE)) g_usleep(1000);
  CHECK(!tess_window_import_running(w));
  fixture_spin();
}

static void import_by_drop_is_one_undo_step(void) {
  g_autofree char *project = fixture_copy_demo("import.tessera");
  TessWindow *w = fixture_window(project);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  uint32_t levels = p->level_count, tilesets = p->tileset_count;
  char map[700];
  write_map(map, sizeof map, "dropped.tmx", "1,2,3,4,5,6,7,8");
  CHECK(drop(w, map));
  wait_import(w);
  CHECK(p->level_count == levels + 1 && p->tileset_count == tilesets + 1);
  TessLevel *lv = tess_project_level_by_name(p, "dropped");
  CHECK(lv != NULL);
  CHECK(tess_window_get_reported(w) && strstr(tess_window_get_reported(w), "Imported “dropped.tmx” as level “dropped”"));
  /* In the file as soon as it is in the window. */
  TessProject *disk = fixture_load(project);
  CHECK(disk && tess_project_level_by_name(disk, "dropped"));
  if (disk) tess_project_destroy(disk);
  /* The same map again: a second level with a free name, the tileset reused. */
  CHECK(drop(w, map));
  wait_import(w);
  CHECK(tess_project_level_by_name(p, "dropped 2") && p->tileset_count == tilesets + 1);
  /* One undo takes one import away, tileset included when it came with it. */
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  CHECK(!tess_project_level_by_name(p, "dropped 2") && tess_project_level_by_name(p, "dropped"));
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  CHECK(p->level_count == levels && p->tileset_count == tilesets);
  fixture_close(w);
}

static void import_cancel_and_bad_map(void) {
  g_autofree char *project = fixture_copy_demo("cancel.tessera");
  TessWindow *w = fixture_window(project);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  uint64_t before = tess_project_hash(p);
  char map[700];
  write_map(map, sizeof map, "held.tmx", "1,2,3,4,5,6,7,8");
  /* The worker waits; Cancel in the progress window stops it before it reads. */
  tess_window_set_import_hold(w, TRUE);
  CHECK(tess_window_import_map(w, map));
  fixture_spin();
  GtkWindow *progress = tess_window_get_last_dialog(w);
  CHECK(progress && tess_window_import_running(w));
  GtkWidget *cancel = progress ? gtk_widget_get_last_child(gtk_window_get_child(progress)) : NULL;
  CHECK(cancel && GTK_IS_BUTTON(cancel));
  if (cancel) gtk_widget_activate(cancel);
  wait_import(w);
  tess_window_set_import_hold(w, FALSE);
  CHECK(tess_project_hash(p) == before);
  CHECK(tess_window_get_reported(w) && strstr(tess_window_get_reported(w), "cancelled: the project is unchanged"));
  /* A map with a gid beyond its tileset: an error dialog naming the map, nothing changed. */
  write_map(map, sizeof map, "bad.tmx", "1,2,3,4,5,6,7,99");
  CHECK(drop(w, map));
  wait_import(w);
  CHECK(tess_project_hash(p) == before);
  GtkWindow *dialog = tess_window_get_last_dialog(w);
  g_autofree char *text = dialog ? fixture_dialog_text(dialog) : NULL;
  CHECK(text && strstr(text, "Could not import “bad.tmx”") && strstr(text, "gid 99"));
  if (dialog) gtk_window_destroy(dialog);
  fixture_close(w);
}

static const TessTestCase cases[] = {
    TEST(import_by_drop_is_one_undo_step),
    TEST(import_cancel_and_bad_map),
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
