/* The editor and the text form: a project replaced on disk by
 * `tessera-pipeline load --force` (after a pull) is noticed by the window
 * that has it open, which reopens it on the level it showed; edits then go
 * to the new file. */
#include <glib/gstdio.h>
#include <string.h>

#include "editor_fixture.h"
#include "level_fixture.h"
#include "tess-layers-panel.h"
#include "tessera/textform.h"

static gboolean has_object(TessWindow *w, const char *name) {
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = doc ? tess_document_get_project(doc) : NULL;
  for (uint32_t i = 0; p && i < p->level_count; i++)
    for (uint32_t l = 0; l < p->levels[i]->layer_count; l++)
      for (uint32_t k = 0; k < p->levels[i]->layers[l]->object_count; k++)
        if (!strcmp(p->levels[i]->layers[l]->objects[k].name, name)) return TRUE;
  return FALSE;
}

static void window_reloads_a_replaced_project(void) {
  g_autofree char *path = fixture_copy_demo("pulled.tessera");
  TessWindow *w = fixture_window(path);
  /* A weak pointer, not an address to compare: the new document may well be
   * allocated where the old one was freed. */
  TessDocument *old = tess_window_get_document(w);
  g_object_add_weak_pointer(G_OBJECT(old), (gpointer *)&old);
  /* Show the second level, so the reload has a place to come back to. */
  TessProject *p = tess_document_get_project(old);
  TessId second = p->levels[1]->id;
  char level_name[TESS_NAME_MAX];
  g_strlcpy(level_name, p->levels[1]->settings.name, sizeof level_name);
  GtkWidget *panel = tess_window_get_layers_panel(w);
  tess_layers_panel_select_level(TESS_LAYERS_PANEL(panel), second);
  fixture_spin();
  CHECK(tess_window_get_level(w) == second);

  /* Someone else's work arrives as a dump; load --force puts it in place. */
  TessProject *theirs = fixture_load(path);
  TessError err = {0};
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  g_strlcpy(o.name, "Pulled crate", sizeof o.name);
  TessLevel *side = theirs->levels[0];
  TessId objects = tess_test_object_layer_id(side);
  CHECK_OK(tess_edit_object_add(theirs, side->id, objects, &o, NULL, &err), &err);
  tess_object_clear(&o);
  char dump[1024];
  tess_test_path(dump, sizeof dump, "pulled-dump");
  CHECK_OK(tess_text_dump(theirs, dump, &err), &err);
  tess_project_destroy(theirs);
  g_autofree char *cmd = g_strdup_printf("'%s' load '%s' -o '%s' --force", g_getenv("TESS_PIPELINE"), dump, path);
  CHECK(system(cmd) == 0);

  /* The window looks every second. */
  gint64 until = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;
  while (!has_object(w, "Pulled crate") && g_get_monotonic_time() < until) {
    fixture_spin();
    g_usleep(20000);
  }
  CHECK(has_object(w, "Pulled crate"));
  TessDocument *doc = tess_window_get_document(w);
  CHECK(doc && old == NULL); /* the old document was let go */
  const char *said = tess_window_get_reported(w);
  CHECK_MSG(said && strstr(said, "“pulled.tessera” was replaced on disk and has been reloaded."), "%s", said ? said : "");
  TessLevel *shown = tess_project_level(tess_document_get_project(doc), tess_window_get_level(w));
  CHECK(shown && !strcmp(shown->settings.name, level_name));
  CHECK(!tess_window_reload_if_replaced(w)); /* once */

  /* An edit now reaches the new file. */
  TessProject *now = tess_document_get_project(doc);
  TessLevel *level = now->levels[0];
  TessLayer *layer = fixture_tile_layer(level);
  TessCell cell = TESS_CELL_MAKE(now->tilesets[0]->id, 3, 0);
  CHECK_OK(tess_edit_paint(now, level->id, layer->props.id, 7, 7, 1, 1, &cell, 0, &err), &err);
  CHECK(tess_document_commit(doc, NULL));
  TessId level_id = level->id, layer_id = layer->props.id;
  fixture_close(w);
  TessProject *disk = fixture_load(path);
  CHECK(disk && tess_layer_cell(tess_level_layer(tess_project_level(disk, level_id), layer_id), 7, 7) == cell);
  if (disk) tess_project_destroy(disk);
}

/* The gap between `load --force` and the window's next look (up to a
 * second): an edit made there used to be committed into the old, unlinked
 * file and dropped by the reload without a word. Now the commit sees the
 * replacement, refuses the edit with a message, and the window reloads at
 * once; the edit made again reaches the new file. */
static void edit_after_replacement_is_refused_not_lost(void) {
  g_autofree char *path = fixture_copy_demo("raced.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *old = tess_window_get_document(w);
  g_object_add_weak_pointer(G_OBJECT(old), (gpointer *)&old);

  /* Their version, put in place while the window does not run its loop. */
  char dump[1024];
  tess_test_path(dump, sizeof dump, "raced-dump");
  TessProject *theirs = fixture_load(path);
  TessError err = {0};
  CHECK_OK(tess_edit_level_remove(theirs, theirs->levels[theirs->level_count - 1]->id, &err), &err);
  CHECK_OK(tess_text_dump(theirs, dump, &err), &err);
  uint64_t their_hash = tess_project_hash(theirs);
  tess_project_destroy(theirs);
  g_autofree char *cmd = g_strdup_printf("'%s' load '%s' -o '%s' --force", g_getenv("TESS_PIPELINE"), dump, path);
  CHECK(system(cmd) == 0);

  /* Our edit, at once (no poll has run). */
  TessProject *p = tess_document_get_project(old);
  TessLevel *level = p->levels[0];
  TessLayer *layer = fixture_tile_layer(level);
  TessId level_id = level->id, layer_id = layer->props.id;
  TessCell cell = TESS_CELL_MAKE(p->tilesets[0]->id, 5, 0);
  CHECK_OK(tess_edit_paint(p, level_id, layer_id, 9, 9, 1, 1, &cell, 0, &err), &err);
  g_autoptr(GError) error = NULL;
  CHECK(!tess_document_commit(old, &error));
  CHECK(error && strstr(error->message, "“raced.tessera” was replaced on disk"));
  CHECK(error && strstr(error->message, "not applied"));
  CHECK(tess_document_get_refused_edits(old) == 1);
  CHECK(!tess_document_get_unsaved(old)); /* nothing is wrong with the file: it is newer */

  /* The window reloads on the refusal, without waiting for its poll, and says what happened. */
  gint64 until = g_get_monotonic_time() + 500 * 1000;
  while (old != NULL && g_get_monotonic_time() < until) {
    fixture_spin();
    g_usleep(5000);
  }
  CHECK(old == NULL);
  TessDocument *doc = tess_window_get_document(w);
  CHECK(doc != NULL);
  CHECK(tess_project_hash(tess_document_get_project(doc)) == their_hash);
  const char *said = tess_window_get_reported(w);
  CHECK_MSG(said && strstr(said, "was not applied: make it again"), "%s", said ? said : "");

  /* The file is theirs, untouched by our refused edit; made again, the edit reaches it. */
  TessProject *disk = fixture_load(path);
  CHECK(disk && tess_project_hash(disk) == their_hash);
  if (disk) tess_project_destroy(disk);
  TessProject *now = tess_document_get_project(doc);
  CHECK_OK(tess_edit_paint(now, level_id, layer_id, 9, 9, 1, 1, &cell, 0, &err), &err);
  CHECK(tess_document_commit(doc, NULL));
  fixture_close(w);
  disk = fixture_load(path);
  CHECK(disk && tess_layer_cell(tess_level_layer(tess_project_level(disk, level_id), layer_id), 9, 9) == cell);
  if (disk) tess_project_destroy(disk);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(window_reloads_a_replaced_project),
                                       TEST(edit_after_replacement_is_refused_not_lost)};
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
