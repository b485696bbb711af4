/* The editor keeps a text dump beside the project (issue 16): a project
 * setting, off by default, saved in the project file; when on, the dump is
 * written on a worker after edits settle and loads back to the project the
 * file holds (equal content hashes). Real files throughout: the demo copy,
 * the dump folder, a read-only store opened as another program would. */
#include <glib/gstdio.h>
#include <string.h>

#include "editor_fixture.h"
#include "tessera/textform.h"

/* Paints one cell of the first level's top tile layer and commits it. */
static void paint(TessWindow *w, int x, int y, uint16_t tile) {
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  TessLevel *level = p->levels[0];
  TessLayer *layer = fixture_tile_layer(level);
  TessCell cell = TESS_CELL_MAKE(p->tilesets[0]->id, tile, 0);
  TessError err = {0};
  CHECK_OK(tess_edit_paint(p, level->id, layer->props.id, x, y, 1, 1, &cell, 0, &err), &err);
  CHECK(tess_document_commit(doc, NULL));
}

/* The dump on disk, loaded; 0 when it is missing or refused. */
static uint64_t dump_hash(const char *dir) {
  TessProject *p = NULL;
  TessError err = {0};
  TessTextLoadDef def;
  tess_text_load_def_default(&def);
  if (tess_text_load(dir, &def, &p, &err) != TESS_OK) return 0;
  uint64_t h = tess_project_hash(p);
  tess_project_destroy(p);
  return h;
}

static uint64_t file_hash(const char *path) {
  TessProject *p = fixture_load(path);
  uint64_t h = p ? tess_project_hash(p) : 0;
  if (p) tess_project_destroy(p);
  return h;
}

/* No file of an interrupted write (tess_text_dump's "NAME.tmpPID") anywhere in the dump. */
static gboolean no_tmp_files(const char *dir) {
  g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
  const char *name;
  gboolean ok = d != NULL;
  while (ok && d && (name = g_dir_read_name(d))) {
    g_autofree char *full = g_build_filename(dir, name, NULL);
    if (strstr(name, ".tmp")) ok = FALSE;
    else if (g_file_test(full, G_FILE_TEST_IS_DIR)) ok = no_tmp_files(full);
  }
  return ok;
}

static gboolean keeper_idle(TessWindow *w, guint ms) {
  gint64 until = g_get_monotonic_time() + (gint64)ms * 1000;
  while (tess_dump_keeper_get_busy(tess_window_get_dump_keeper(w)) && g_get_monotonic_time() < until) {
    fixture_spin();
    g_usleep(10000);
  }
  return !tess_dump_keeper_get_busy(tess_window_get_dump_keeper(w));
}

static gboolean action_state(TessWindow *w, const char *name) {
  g_autoptr(GVariant) state = g_action_group_get_action_state(G_ACTION_GROUP(w), name);
  return state && g_variant_get_boolean(state);
}

static void off_by_default_writes_nothing(void) {
  g_autofree char *path = fixture_copy_demo("quiet.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  CHECK(!tess_document_get_keep_dump(doc));
  CHECK(!action_state(w, "keep-dump"));
  g_autofree char *dir = tess_document_dup_dump_dir(doc);
  CHECK(g_str_has_suffix(dir, "/quiet"));
  paint(w, 3, 3, 1);
  paint(w, 4, 3, 1);
  /* Nothing is even waiting, and nothing appears after the settle time. */
  CHECK(!tess_dump_keeper_get_busy(tess_window_get_dump_keeper(w)));
  gint64 until = g_get_monotonic_time() + (TESS_DUMP_KEEPER_SETTLE_MS + 500) * 1000;
  while (g_get_monotonic_time() < until) {
    fixture_spin();
    g_usleep(20000);
  }
  CHECK(!g_file_test(dir, G_FILE_TEST_EXISTS));
  CHECK(tess_dump_keeper_get_written(tess_window_get_dump_keeper(w)) == 0);
  fixture_close(w);
  CHECK(!g_file_test(dir, G_FILE_TEST_EXISTS));
}

static void dump_follows_edits_after_they_settle(void) {
  g_autofree char *path = fixture_copy_demo("kept.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  g_autofree char *dir = tess_document_dup_dump_dir(doc);

  /* Turned on from the main menu's action: saved in the project file. */
  g_action_group_activate_action(G_ACTION_GROUP(w), "keep-dump", NULL);
  CHECK(tess_document_get_keep_dump(doc));
  CHECK(action_state(w, "keep-dump"));
  TessStore *reader = NULL;
  TessError err = {0};
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &reader, &err), &err);
  int64_t saved = 0;
  CHECK_OK(tess_store_setting_get(reader, TESS_DOCUMENT_SETTING_KEEP_DUMP, &saved, &err), &err);
  CHECK(saved == 1);
  tess_store_close(reader);

  /* Turning it on writes the dump once, at the default settle time. */
  TessDumpKeeper *keeper = tess_window_get_dump_keeper(w);
  gint64 t0 = g_get_monotonic_time();
  CHECK(keeper_idle(w, 10000));
  CHECK(g_get_monotonic_time() - t0 >= (TESS_DUMP_KEEPER_SETTLE_MS - 50) * 1000);
  CHECK(tess_dump_keeper_get_written(keeper) == 1);
  uint64_t before = tess_project_hash(tess_document_get_project(doc));
  CHECK(dump_hash(dir) == before);

  /* A burst of edits: the dump waits until they settle, then one dump holds them all. */
  tess_dump_keeper_set_settle_ms(keeper, 400);
  for (int i = 0; i < 5; i++) {
    paint(w, 10 + i, 2, 2);
    fixture_spin();
    g_usleep(100000);
    CHECK(dump_hash(dir) == before); /* not yet: the edits have not settled */
  }
  uint64_t after = tess_project_hash(tess_document_get_project(doc));
  CHECK(after != before);
  CHECK(keeper_idle(w, 10000));
  CHECK(tess_dump_keeper_get_written(keeper) == 2);
  CHECK(dump_hash(dir) == after);
  CHECK(file_hash(path) == after);
  /* No temporary file is left in the dump. */
  g_autofree char *marker = g_build_filename(dir, TESS_TEXTFORM_MARKER, NULL);
  CHECK(g_file_test(marker, G_FILE_TEST_EXISTS));
  CHECK(no_tmp_files(dir));

  /* Closing with a dump still waiting writes it before the project goes. */
  paint(w, 20, 2, 3);
  uint64_t last = tess_project_hash(tess_document_get_project(doc));
  CHECK(tess_dump_keeper_get_busy(keeper));
  fixture_close(w);
  CHECK(dump_hash(dir) == last);

  /* The setting comes back with the project. */
  w = fixture_window(path);
  CHECK(tess_document_get_keep_dump(tess_window_get_document(w)));
  CHECK(action_state(w, "keep-dump"));
  /* Off again: edits no longer reach the dump. */
  g_action_group_activate_action(G_ACTION_GROUP(w), "keep-dump", NULL);
  CHECK(!tess_document_get_keep_dump(tess_window_get_document(w)));
  paint(w, 21, 2, 3);
  CHECK(!tess_dump_keeper_get_busy(tess_window_get_dump_keeper(w)));
  fixture_close(w);
  CHECK(dump_hash(dir) == last);
}

/* A folder of other things where the dump would go is left alone, and the window says why. */
static void foreign_folder_is_refused_by_name(void) {
  g_autofree char *path = fixture_copy_demo("busy.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  g_autofree char *dir = tess_document_dup_dump_dir(doc);
  CHECK(g_mkdir_with_parents(dir, 0755) == 0);
  g_autofree char *notes = g_build_filename(dir, "notes.txt", NULL);
  CHECK(g_file_set_contents(notes, "mine\n", -1, NULL));
  tess_dump_keeper_set_settle_ms(tess_window_get_dump_keeper(w), 50);
  g_action_group_activate_action(G_ACTION_GROUP(w), "keep-dump", NULL);
  CHECK(keeper_idle(w, 10000));
  CHECK(tess_dump_keeper_get_written(tess_window_get_dump_keeper(w)) == 0);
  const char *said = tess_window_get_reported(w);
  CHECK_MSG(said && strstr(said, "The text dump") && strstr(said, "busy"), "%s", said ? said : "(nothing)");
  g_autofree char *text = NULL;
  CHECK(g_file_get_contents(notes, &text, NULL, NULL) && !strcmp(text, "mine\n"));
  g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
  int n = 0;
  while (d && g_dir_read_name(d)) n++;
  CHECK(n == 1);
  fixture_close(w);
}

/* After a pull, `load --force` rebuilds the file from the dump: the setting
 * is not in the dump, so the pipeline carries it over from the file it
 * replaces, and the team's dump keeps being kept. */
static void setting_survives_load_force(void) {
  g_autofree char *path = fixture_copy_demo("pulled.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  tess_dump_keeper_set_settle_ms(tess_window_get_dump_keeper(w), 50);
  g_action_group_activate_action(G_ACTION_GROUP(w), "keep-dump", NULL);
  CHECK(keeper_idle(w, 10000));
  g_autofree char *dir = tess_document_dup_dump_dir(doc);
  CHECK(dump_hash(dir) == tess_project_hash(tess_document_get_project(doc)));
  fixture_close(w);

  g_autofree char *cmd = g_strdup_printf("'%s' load '%s' -o '%s' --force", g_getenv("TESS_PIPELINE"), dir, path);
  CHECK(system(cmd) == 0);
  w = fixture_window(path);
  CHECK(tess_document_get_keep_dump(tess_window_get_document(w)));
  CHECK(action_state(w, "keep-dump"));
  fixture_close(w);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {
      TEST(off_by_default_writes_nothing),
      TEST(dump_follows_edits_after_they_settle),
      TEST(foreign_folder_is_refused_by_name),
      TEST(setting_survives_load_force),
  };
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
