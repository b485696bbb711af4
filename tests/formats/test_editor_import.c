/* The editor's Tiled import (File → Import Tiled Map…, drag and drop):
 * the same core code on a worker thread, with progress and Cancel. A map
 * dropped on the window becomes a new level in one undo step and is in the
 * project file; Cancel and a bad map leave the project as it was. A big
 * map (4 layers of 512 x 512, 4000 objects) is applied in slices between
 * main-loop turns, so the window keeps drawing, and Cancel in the middle of
 * the apply leaves the project file byte for byte as it was. */
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
  char *map = maps_printf(
      "<map orientation=\"orthogonal\" width=\"4\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">\n"
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

/* 4 tile layers of SIDE x SIDE (zlib) and an object layer of OBJECTS boxes. */
#define SIDE 512
#define OBJECTS 4000
static const char *write_big_map(char *path, size_t size) {
  const char *dir = tess_test_tmpdir();
  char png[700];
  snprintf(png, sizeof png, "%s/big.png", dir);
  maps_write_tileset_png(png, 8, 8, 16, 16, 0, 0, 5, -1);
  GString *map = g_string_new(NULL);
  g_string_append_printf(map,
                         "<map orientation=\"orthogonal\" width=\"%d\" height=\"%d\" tilewidth=\"16\" tileheight=\"16\">\n"
                         "<tileset firstgid=\"1\" name=\"big\" tilewidth=\"16\" tileheight=\"16\"><image source=\"big.png\"/></tileset>\n",
                         SIDE, SIDE);
  uint32_t *gids = g_new(uint32_t, SIDE * SIDE);
  for (int l = 0; l < 4; l++) {
    for (uint32_t i = 0; i < SIDE * SIDE; i++) gids[i] = (i * 2654435761u >> (8 + l)) % (l ? 130 : 64) <= 64 ? 1 + (i + l) % 64 : 0;
    char *data = maps_encode(gids, SIDE * SIDE, "base64", "zlib");
    g_string_append_printf(map,
                           "<layer name=\"l%d\" width=\"%d\" height=\"%d\"><data encoding=\"base64\" "
                           "compression=\"zlib\">%s</data></layer>\n",
                           l, SIDE, SIDE, data);
    free(data);
  }
  g_free(gids);
  g_string_append(map, "<objectgroup name=\"things\">\n");
  for (int i = 0; i < OBJECTS; i++)
    g_string_append_printf(map, "<object id=\"%d\" name=\"box%d\" x=\"%d\" y=\"%d\" width=\"8\" height=\"8\"/>\n", i + 1, i,
                           (i * 37) % (SIDE * 16), (i * 91) % (SIDE * 16));
  g_string_append(map, "</objectgroup></map>\n");
  maps_write_file(path, size, dir, "big.tmx", map->str);
  g_string_free(map, TRUE);
  return path;
}

typedef struct Ticks {
  gint64 last, max_gap;
  gboolean measuring;
} Ticks;

static gboolean on_tick(gpointer data) {
  Ticks *t = data;
  gint64 now = g_get_monotonic_time();
  if (t->measuring && t->last && now - t->last > t->max_gap) t->max_gap = now - t->last;
  t->last = now;
  return G_SOURCE_CONTINUE;
}

static void big_import_stays_responsive(void) {
  g_autofree char *project = fixture_copy_demo("big.tessera");
  TessWindow *w = fixture_window(project);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  char map[700];
  write_big_map(map, sizeof map);
  Ticks ticks = {0};
  guint source = g_timeout_add(2, on_tick, &ticks);
  gint64 t0 = g_get_monotonic_time(), applying = 0;
  CHECK(tess_window_import_map(w, map));
  gint64 end = t0 + 60 * G_USEC_PER_SEC;
  while (tess_window_import_running(w) && g_get_monotonic_time() < end) {
    if (!applying && tess_window_import_applying(w)) {
      applying = g_get_monotonic_time();
      ticks.measuring = TRUE;
      ticks.last = 0;
    }
    g_main_context_iteration(NULL, TRUE);
  }
  gint64 t1 = g_get_monotonic_time();
  ticks.measuring = FALSE;
  g_source_remove(source);
  CHECK(!tess_window_import_running(w));
  TessLevel *lv = tess_project_level_by_name(p, "big");
  CHECK(lv && lv->layer_count == 6);
  guint slices = tess_window_import_slices(w);
  fprintf(stderr, "big import: read %.0f ms, apply and commit %.0f ms in %u slices, longest main-loop gap %.1f ms\n",
          applying ? (applying - t0) / 1e3 : -1.0, applying ? (t1 - applying) / 1e3 : -1.0, slices, ticks.max_gap / 1e3);
  /* Spread over main-loop turns (a slice is about 6 ms of edits), the window drawing between them: the longest
   * stand-still (the final commit, one SQLite transaction) is well short of the whole apply, which is what a
   * one-go apply would freeze for. */
  CHECK_MSG(applying && slices >= 3, "the apply took %u slices", slices);
  CHECK_MSG(applying && ticks.max_gap < 0.75 * (double)(t1 - applying), "the main loop stood still for %.0f ms of %.0f ms",
            ticks.max_gap / 1e3, (t1 - applying) / 1e3);
  /* One undo step, in the file. */
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  CHECK(!tess_project_level_by_name(p, "big"));
  fixture_close(w);
}

static char *file_bytes(const char *path, gsize *size) {
  char *data = NULL;
  *size = 0;
  if (!g_file_get_contents(path, &data, size, NULL)) return NULL;
  return data;
}

static void big_import_cancel_mid_apply(void) {
  g_autofree char *project = fixture_copy_demo("bigcancel.tessera");
  TessWindow *w = fixture_window(project);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  char map[700];
  write_big_map(map, sizeof map);
  /* Everything already written reaches the main file first, so its bytes are the project's. */
  tess_document_checkpoint(doc);
  gsize before_size = 0, after_size = 0;
  g_autofree char *before = file_bytes(project, &before_size);
  uint64_t hash = tess_project_hash(p);
  uint32_t levels = p->level_count;
  CHECK(tess_window_import_map(w, map));
  gint64 end = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;
  /* Into the apply, past its first slices: then Cancel. */
  while ((!tess_window_import_applying(w) || tess_window_import_slices(w) < 5) && tess_window_import_running(w) &&
         g_get_monotonic_time() < end)
    g_main_context_iteration(NULL, TRUE);
  CHECK_MSG(tess_window_import_applying(w), "the apply is running");
  CHECK(p->level_count == levels + 1); /* the level is being built */
  GtkWindow *progress = tess_window_get_last_dialog(w);
  GtkWidget *cancel = progress ? gtk_widget_get_last_child(gtk_window_get_child(progress)) : NULL;
  CHECK(cancel && GTK_IS_BUTTON(cancel));
  /* "clicked" at once: a button's activation plays out over 250 ms, which the apply may not need. */
  if (cancel) g_signal_emit_by_name(cancel, "clicked");
  wait_import(w);
  CHECK(p->level_count == levels && tess_project_hash(p) == hash);
  CHECK(tess_window_get_reported(w) && strstr(tess_window_get_reported(w), "cancelled: the project is unchanged"));
  CHECK(!tess_project_can_undo(p) || strcmp(tess_project_undo_label(p), "Import map") != 0);
  tess_document_checkpoint(doc);
  g_autofree char *after = file_bytes(project, &after_size);
  CHECK_MSG(before && after && before_size == after_size && memcmp(before, after, before_size) == 0,
            "the project file changed (%zu -> %zu bytes)", (size_t)before_size, (size_t)after_size);
  fixture_close(w);
  TessProject *disk = fixture_load(project);
  CHECK(disk && tess_project_hash(disk) == hash);
  if (disk) tess_project_destroy(disk);
}

static const TessTestCase cases[] = {
    TEST(big_import_stays_responsive),
    TEST(big_import_cancel_mid_apply),
    TEST(import_by_drop_is_one_undo_step),
    TEST(import_cancel_and_bad_map),
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
