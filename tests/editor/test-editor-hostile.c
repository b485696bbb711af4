/* The editor's loader on the hostile corpus of tests/pipeline (SQL-edited
 * and byte-flipped copies of the demo project): opening any of them in a
 * real window either refuses with a dialog naming the file, or opens it,
 * draws it, and says in the message bar what core's level checks found.
 * Never a crash, never a GTK warning (fatal here). Issue 11's "the editor
 * must survive the same corpus". */
#include "editor_fixture.h"
#include "hostile_corpus.h"
#include "tess-problems.h"

/* One window for the whole corpus (a new window per file costs the X server
 * far more than the loading under test). */
static void open_one(TessWindow *w, const char *what, const char *path) {
  gboolean opened = tess_window_open_path(w, path);
  fixture_spin();
  if (!opened) {
    GtkWindow *dialog = tess_window_get_last_dialog(w);
    CHECK_MSG(GTK_IS_MESSAGE_DIALOG(dialog), "%s: refused without a dialog", what);
    g_autofree char *text = dialog ? fixture_dialog_text(dialog) : NULL;
    g_autofree char *base = g_path_get_basename(path);
    CHECK_MSG(text && strstr(text, base), "%s: the dialog does not name the file: %s", what, text ? text : "");
    CHECK(tess_window_get_document(w) == NULL);
    if (dialog) gtk_window_destroy(dialog);
    return;
  }
  TessDocument *doc = tess_window_get_document(w);
  CHECK(doc != NULL);
  /* The map view draws the level as it opened. */
  gtk_test_widget_wait_for_draw(GTK_WIDGET(w));
  guint errors = 0, warnings = 0;
  g_autofree char *list = doc ? tess_problems_list(tess_document_get_project(doc), &errors, &warnings) : NULL;
  const char *reported = tess_window_get_reported(w);
  if (errors + warnings)
    CHECK_MSG(reported && strstr(reported, "needs attention"), "%s: %u errors and %u warnings, reported: %s", what,
              errors, warnings, reported ? reported : "(nothing)");
  /* Back to the start page: the document (and its store) must go. */
  g_object_add_weak_pointer(G_OBJECT(doc), (gpointer *)&doc);
  tess_window_set_document(w, NULL);
  for (int i = 0; i < 200 && doc; i++) fixture_spin();
  CHECK_MSG(doc == NULL, "%s: the document outlived its window", what);
  if (doc) g_object_remove_weak_pointer(G_OBJECT(doc), (gpointer *)&doc);
}

static void hostile_sql_files_open_or_are_refused(void) {
  g_autofree char *demo = fixture_copy_demo("base.tessera");
  TessWindow *w = fixture_window(NULL);
  for (size_t i = 0; i < hostile_sql_count(); i++) {
    g_autofree char *path = g_strdup_printf("%s/sql-%zu.tessera", tess_test_tmpdir(), i);
    const char *what = NULL;
    CHECK(hostile_make_sql(demo, path, i, &what));
    open_one(w, what, path);
  }
  fixture_close(w);
}

static void flipped_files_open_or_are_refused(void) {
  g_autofree char *demo = fixture_copy_demo("base.tessera");
  TessWindow *w = fixture_window(NULL);
  for (uint32_t i = 0; i < HOSTILE_FLIP_FILES; i++) {
    g_autofree char *path = g_strdup_printf("%s/flip-%u.tessera", tess_test_tmpdir(), i);
    g_autofree char *what = g_strdup_printf("flipped bytes, seed %u", i);
    CHECK(hostile_make_flipped(demo, path, i));
    open_one(w, what, path);
  }
  fixture_close(w);
}

/* The problem list on a project that only core's checks reject: a joint
 * joining a body to itself opens, and the bar says export will refuse it. */
static void problems_are_reported_on_open(void) {
  g_autofree char *demo = fixture_copy_demo("base.tessera");
  g_autofree char *path = g_strdup_printf("%s/self-joint.tessera", tess_test_tmpdir());
  CHECK(hostile_copy(demo, path));
  CHECK(hostile_sql_blob(path,
                         "UPDATE objects SET joint_body_b = joint_body_a WHERE id = "
                         "(SELECT min(id) FROM objects WHERE kind = 1 AND joint_body_a > 0)",
                         NULL, 0));
  TessWindow *w = fixture_window(path);
  const char *reported = tess_window_get_reported(w);
  CHECK_MSG(reported && strstr(reported, "stops the export") && strstr(reported, "to itself"), "%s",
            reported ? reported : "(nothing)");
  fixture_close(w);
  /* The demo itself has none: no bar. */
  TessWindow *clean = fixture_window(demo);
  CHECK(tess_window_get_reported(clean) == NULL);
  fixture_close(clean);
}

static const TessTestCase cases[] = {
    TEST(problems_are_reported_on_open),
    TEST(hostile_sql_files_open_or_are_refused),
    TEST(flipped_files_open_or_are_refused),
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
