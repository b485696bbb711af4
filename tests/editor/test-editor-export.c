/* File > Export... (win.export): the dialog exports on a GTask worker
 * through core/pack's tess_export_* into a folder; the files validate with
 * the reader and are byte for byte what `tessera-pipeline export` writes;
 * Cancel stops between levels and leaves no partial file. */
#include <string.h>

#include "editor_fixture.h"
#include "tess-export-dialog.h"
#include "tlv_reader.h"

typedef struct Finished {
  gboolean done, ok, cancelled;
} Finished;

static void on_finished(TessExportDialog *d, gboolean ok, gboolean cancelled, Finished *f) {
  f->done = TRUE;
  f->ok = ok;
  f->cancelled = cancelled;
}

static TessExportDialog *open_dialog(TessWindow *w) {
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.export", NULL));
  fixture_spin();
  GtkWindow *dialog = tess_window_get_last_dialog(w);
  CHECK(dialog && TESS_IS_EXPORT_DIALOG(dialog));
  return dialog && TESS_IS_EXPORT_DIALOG(dialog) ? TESS_EXPORT_DIALOG(dialog) : NULL;
}

static int by_name(gconstpointer a, gconstpointer b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The .tlv files in dir (sorted names); counts *.tmp files too. */
static GPtrArray *tlv_files(const char *dir, guint *tmp_count) {
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  *tmp_count = 0;
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name(d))) {
    if (g_str_has_suffix(n, ".tlv")) g_ptr_array_add(names, g_strdup(n));
    if (g_str_has_suffix(n, ".tmp")) (*tmp_count)++;
  }
  if (d) g_dir_close(d);
  g_ptr_array_sort(names, by_name);
  return names;
}

static gboolean validates(const char *path) {
  g_autofree char *data = NULL;
  gsize size = 0;
  if (!g_file_get_contents(path, &data, &size, NULL)) return FALSE;
  TlvLevel lv;
  TlvError err;
  return tlv_open((const uint8_t *)data, size, 0, &lv, &err) == TLV_OK;
}

static void export_matches_the_cli(void) {
  g_autofree char *project = fixture_copy_demo("export.tessera");
  TessWindow *w = fixture_window(project);
  TessExportDialog *d = open_dialog(w);
  if (!d) {
    fixture_close(w);
    return;
  }
  CHECK(tess_export_dialog_get_level_count(d) == 3); /* the demo's levels, all selected */
  CHECK(tess_export_dialog_get_jobs(d) == g_get_num_processors());
  char gui[1024], cli[1024];
  tess_test_path(gui, sizeof gui, "gui");
  tess_test_path(cli, sizeof cli, "cli");
  /* Not started without a folder. */
  CHECK(!tess_export_dialog_start(d) && strlen(tess_export_dialog_get_message(d)) > 0);
  tess_export_dialog_set_folder(d, gui);
  /* Issue 14 item 10: the request for a folder goes once one is chosen. */
  CHECK_MSG(strcmp(tess_export_dialog_get_message(d), "") == 0, "%s", tess_export_dialog_get_message(d));
  tess_export_dialog_set_jobs(d, 2);
  Finished f = {0};
  g_signal_connect(d, "finished", G_CALLBACK(on_finished), &f);
  CHECK(tess_export_dialog_start(d));
  CHECK(tess_export_dialog_is_running(d));
  CHECK(!tess_export_dialog_start(d)); /* one at a time */
  /* The main loop keeps turning while the worker writes. */
  CHECK(fixture_wait(&f.done, 60000));
  CHECK(f.ok && !f.cancelled);
  CHECK(!tess_export_dialog_is_running(d));
  CHECK_NEAR(tess_export_dialog_get_fraction(d), 1.0, 1e-9);
  CHECK_MSG(strstr(tess_export_dialog_get_progress_text(d), "3 / 3"), "%s", tess_export_dialog_get_progress_text(d));

  /* The CLI on the same file. */
  const char *root = g_getenv("TESS_BUILD_ROOT");
  g_autofree char *exe = g_build_filename(root ? root : ".", "pipeline", "tessera-pipeline", NULL);
  char *argv[] = {exe, "export", project, "-o", cli, "--jobs", "1", NULL};
  int status = -1;
  CHECK(g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &status, NULL));
  CHECK(g_spawn_check_wait_status(status, NULL));
  guint tmp_gui = 0, tmp_cli = 0;
  g_autoptr(GPtrArray) a = tlv_files(gui, &tmp_gui);
  g_autoptr(GPtrArray) b = tlv_files(cli, &tmp_cli);
  CHECK(a->len == 3 && b->len == 3 && tmp_gui == 0);
  for (guint i = 0; i < a->len && i < b->len; i++) {
    CHECK(g_str_equal(a->pdata[i], b->pdata[i]));
    g_autofree char *pa = g_build_filename(gui, a->pdata[i], NULL);
    g_autofree char *pb = g_build_filename(cli, b->pdata[i], NULL);
    g_autofree char *da = NULL, *db = NULL;
    gsize na = 0, nb = 0;
    CHECK(g_file_get_contents(pa, &da, &na, NULL) && g_file_get_contents(pb, &db, &nb, NULL));
    CHECK_MSG(na == nb && da && db && memcmp(da, db, na) == 0, "%s differs from the CLI's", (char *)a->pdata[i]);
    CHECK(validates(pa));
  }
  /* The manifests too. */
  g_autofree char *ma = g_build_filename(gui, "manifest.json", NULL), *mb = g_build_filename(cli, "manifest.json", NULL);
  g_autofree char *ta = NULL, *tb = NULL;
  CHECK(g_file_get_contents(ma, &ta, NULL, NULL) && g_file_get_contents(mb, &tb, NULL, NULL));
  CHECK(ta && tb && g_str_equal(ta, tb));

  /* Again: both levels are up to date now. */
  f.done = FALSE;
  CHECK(tess_export_dialog_start(d));
  CHECK(fixture_wait(&f.done, 60000));
  CHECK_MSG(f.ok && strstr(tess_export_dialog_get_message(d), "0 exported, 3 up to date"), "%s",
            tess_export_dialog_get_message(d));

  /* Only the levels ticked: the second one, into another folder. */
  char some[1024];
  tess_test_path(some, sizeof some, "some");
  tess_export_dialog_set_folder(d, some);
  tess_export_dialog_set_level_selected(d, 0, FALSE);
  tess_export_dialog_set_level_selected(d, 2, FALSE);
  f.done = FALSE;
  CHECK(tess_export_dialog_start(d));
  CHECK(fixture_wait(&f.done, 60000));
  guint tmp_some = 0;
  g_autoptr(GPtrArray) c = tlv_files(some, &tmp_some);
  CHECK_MSG(f.ok && c->len == 1 && g_str_equal(c->pdata[0], "Top-down.tlv"), "%u files", c->len);
  /* None ticked: refused, with a reason. */
  tess_export_dialog_set_level_selected(d, 1, FALSE);
  CHECK(!tess_export_dialog_start(d) && strlen(tess_export_dialog_get_message(d)) > 0);
  gtk_window_destroy(GTK_WINDOW(d));
  fixture_close(w);
}

static void cancel_leaves_no_partial_file(void) {
  g_autofree char *project = fixture_copy_demo("cancel.tessera");
  TessWindow *w = fixture_window(project);
  TessExportDialog *d = open_dialog(w);
  if (!d) {
    fixture_close(w);
    return;
  }
  char dir[1024];
  tess_test_path(dir, sizeof dir, "cancelled");
  tess_export_dialog_set_folder(d, dir);
  tess_export_dialog_set_jobs(d, 1);
  Finished f = {0};
  g_signal_connect(d, "finished", G_CALLBACK(on_finished), &f);
  /* The worker is held after loading the project, so the cancel lands
   * before the first level whatever the machine's load: no level starts. */
  tess_export_dialog_hold_for_test(d, TRUE);
  CHECK(tess_export_dialog_start(d));
  tess_export_dialog_cancel(d);
  CHECK(fixture_wait(&f.done, 60000));
  CHECK(f.cancelled && f.ok);
  guint tmp = 0;
  g_autoptr(GPtrArray) files = tlv_files(dir, &tmp);
  CHECK_MSG(files->len == 0, "%u files after a cancel", files->len);
  CHECK(tmp == 0);
  for (guint i = 0; i < files->len; i++) {
    g_autofree char *path = g_build_filename(dir, files->pdata[i], NULL);
    CHECK(validates(path));
  }
  CHECK_MSG(strstr(tess_export_dialog_get_message(d), "Cancelled"), "%s", tess_export_dialog_get_message(d));
  /* Closing a running export cancels it too and finishes cleanly. */
  f.done = FALSE;
  tess_export_dialog_set_force(d, TRUE);
  CHECK(tess_export_dialog_start(d));
  g_object_ref(d);
  gtk_window_close(GTK_WINDOW(d));
  CHECK(fixture_wait(&f.done, 60000));
  g_object_unref(d);
  files = (g_ptr_array_unref(files), tlv_files(dir, &tmp));
  CHECK(tmp == 0);
  for (guint i = 0; i < files->len; i++) {
    g_autofree char *path = g_build_filename(dir, files->pdata[i], NULL);
    CHECK(validates(path));
  }
  fixture_close(w);
}

/* The Format list offers .tlv and the Tiled maps core can write; a TMX
 * export from the dialog is byte for byte the CLI's --format tmx, tilesets
 * and manifest included. */
static void export_tiled_maps(void) {
  g_autofree char *project = fixture_copy_demo("tiled.tessera");
  TessWindow *w = fixture_window(project);
  TessExportDialog *d = open_dialog(w);
  if (!d) {
    fixture_close(w);
    return;
  }
  CHECK(g_str_equal(tess_export_dialog_get_format(d), "tlv")); /* the default */
  CHECK(!tess_export_dialog_set_format(d, "svg"));
  CHECK(tess_export_dialog_set_format(d, "tmj") && g_str_equal(tess_export_dialog_get_format(d), "tmj"));
  CHECK(tess_export_dialog_set_format(d, "tmx"));
  char gui[1024], cli[1024];
  tess_test_path(gui, sizeof gui, "tiled-gui");
  tess_test_path(cli, sizeof cli, "tiled-cli");
  tess_export_dialog_set_folder(d, gui);
  Finished f = {0};
  g_signal_connect(d, "finished", G_CALLBACK(on_finished), &f);
  CHECK(tess_export_dialog_start(d));
  CHECK(fixture_wait(&f.done, 60000));
  CHECK_MSG(f.ok && strstr(tess_export_dialog_get_message(d), "3 exported"), "%s", tess_export_dialog_get_message(d));
  const char *root = g_getenv("TESS_BUILD_ROOT");
  g_autofree char *exe = g_build_filename(root ? root : ".", "pipeline", "tessera-pipeline", NULL);
  char *argv[] = {exe, "export", "--format", "tmx", project, "-o", cli, NULL};
  int status = -1;
  CHECK(g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &status, NULL));
  CHECK(g_spawn_check_wait_status(status, NULL));
  const char *files[] = {"manifest.json", "Side.tmx", "Top-down.tmx", "tilesets/Terrain.tsx", "tilesets/Terrain.png",
                         "tilesets/materials-32x32.tsx", "tilesets/materials-32x32.png"};
  for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *pa = g_build_filename(gui, files[i], NULL), *pb = g_build_filename(cli, files[i], NULL);
    g_autofree char *da = NULL, *db = NULL;
    gsize na = 0, nb = 0;
    CHECK_MSG(g_file_get_contents(pa, &da, &na, NULL) && g_file_get_contents(pb, &db, &nb, NULL), "%s", files[i]);
    CHECK_MSG(na == nb && da && db && memcmp(da, db, na) == 0, "%s differs from the CLI's", files[i]);
  }
  gtk_window_destroy(GTK_WINDOW(d));
  fixture_close(w);
}

static const TessTestCase cases[] = {
    TEST(export_matches_the_cli),
    TEST(export_tiled_maps),
    TEST(cancel_leaves_no_partial_file),
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
