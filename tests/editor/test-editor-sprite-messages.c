/* Every refusal of the sprite tools names the sprite (and the file, where
 * that is what to look at) and says what to do: read from the real widgets
 * as the user sees them (the mask editor's message line, the window's
 * message bar), word for word, after the real action that is refused. */
#include <glib/gstdio.h>
#include <string.h>

#include "editor_fixture.h"
#include "tess-mask-editor.h"
#include "tess-mask-view.h"
#include "png_fixture.h"
#include "tess-sprite-panel.h"
#include "tess-tileset-collision.h"

/* The window's sprite panel imports `png`; the sprite's id, 0 if refused. */
static TessId import(TessWindow *w, const char *png) {
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_window_get_sprite_panel(w));
  GSList *files = g_slist_prepend(NULL, g_file_new_for_path(png));
  g_autoptr(GError) error = NULL;
  guint n = tess_sprite_panel_import(panel, files, &error);
  g_slist_free_full(files, g_object_unref);
  fixture_spin();
  return n == 1 ? tess_sprite_panel_get_selected(panel) : 0;
}

/* A window on a copy of the demo, with the w x h sprite `png` (a rectangle
 * [x0, x1) x [y0, y1) of alpha `a`) imported by its sprite panel: its id in *id. */
static TessWindow *window_with_sprite(const char *project, const char *png, uint32_t w, uint32_t h, uint32_t x0,
                                      uint32_t y0, uint32_t x1, uint32_t y1, uint8_t a, TessId *id) {
  g_autofree char *path = fixture_copy_demo(project);
  g_autofree char *file = tess_test_write_rect_png(png, w, h, x0, y0, x1, y1, a);
  TessWindow *win = fixture_window(path);
  *id = import(win, file);
  CHECK(*id != 0);
  return win;
}

/* The sprite's mask editor window, shown. */
static GtkWindow *open_mask(TessWindow *w, TessId id) {
  GtkWindow *mask = tess_mask_editor_window_new(GTK_WINDOW(w), tess_window_get_document(w), id);
  gtk_window_present(mask);
  fixture_spin();
  return mask;
}

/* The mask editor's message line, as shown ("" when hidden). */
static const char *editor_message(GtkWindow *window) {
  TessMaskEditor *editor = TESS_MASK_EDITOR(gtk_window_get_child(window));
  GObject *label = gtk_widget_get_template_child(GTK_WIDGET(editor), TESS_TYPE_MASK_EDITOR, "message");
  CHECK(GTK_IS_LABEL(label));
  return gtk_widget_get_visible(GTK_WIDGET(label)) ? gtk_label_get_text(GTK_LABEL(label)) : "";
}

#define CHECK_TEXT(got, want) CHECK_MSG(g_strcmp0((got), (want)) == 0, "\n  got:  %s\n  want: %s", (got), (want))

/* The alpha threshold above every pixel: the sprite named, what to do, the mask kept. */
static void mask_threshold_names_sprite(void) {
  TessId id = 0;
  TessWindow *w = window_with_sprite("threshold.tessera", "lantern.png", 40, 30, 4, 4, 36, 26, 150, &id);
  TessDocument *doc = tess_window_get_document(w);
  GtkWindow *mask = open_mask(w, id);
  CHECK_TEXT(editor_message(mask), "");
  TessMaskEditor *editor = TESS_MASK_EDITOR(gtk_window_get_child(mask));
  double area = tess_mask_editor_get_mask(editor)->area;
  CHECK(area == 32 * 22);
  gtk_range_set_value(tess_mask_editor_get_threshold(editor), 151);
  fixture_spin();
  CHECK_TEXT(editor_message(mask),
             "Sprite “lantern” has no pixel with an alpha of 151 or more, so there is no shape to trace: lower the "
             "alpha threshold. Its mask is unchanged.");
  CHECK(tess_project_sprite(tess_document_get_project(doc), id)->mask.area == area);
  /* In sight whatever the controls' column is scrolled to: outside that
   * scrolled column, and inside the window. */
  GtkWidget *label = GTK_WIDGET(gtk_widget_get_template_child(GTK_WIDGET(editor), TESS_TYPE_MASK_EDITOR, "message"));
  for (int i = 0; i < 500 && gtk_widget_get_height(label) == 0; i++) {
    fixture_spin();
    g_usleep(1000);
  }
  CHECK(gtk_widget_get_ancestor(label, GTK_TYPE_SCROLLED_WINDOW) == NULL);
  graphene_rect_t r;
  CHECK(gtk_widget_compute_bounds(label, GTK_WIDGET(mask), &r));
  CHECK_MSG(r.size.height > 0 && r.origin.y >= 0 && r.origin.y + r.size.height <= gtk_widget_get_height(GTK_WIDGET(mask)),
            "the message at y %g..%g, the window %d px high", r.origin.y, r.origin.y + r.size.height,
            gtk_widget_get_height(GTK_WIDGET(mask)));
  /* Back at 150 the block is traced again and the message goes. */
  gtk_range_set_value(tess_mask_editor_get_threshold(editor), 150);
  fixture_spin();
  CHECK_TEXT(editor_message(mask), "");
  gtk_window_destroy(mask);
  fixture_close(w);
}

/* Taking a piece below 3 vertices or above 8: the sprite named, the piece kept. */
static void mask_vertex_limits_name_sprite(void) {
  TessId id = 0;
  TessWindow *w = window_with_sprite("vertices.tessera", "plank.png", 48, 16, 0, 4, 48, 12, 255, &id);
  GtkWindow *mask = open_mask(w, id);
  TessMaskEditor *editor = TESS_MASK_EDITOR(gtk_window_get_child(mask));
  TessMaskView *view = tess_mask_editor_get_view(editor);
  gtk_drop_down_set_selected(tess_mask_editor_get_mode(editor), TESS_MASK_BOX);
  fixture_spin();
  const TessSpriteMask *m = tess_mask_editor_get_mask(editor);
  CHECK(m->piece_count == 1 && m->pieces[0].count == 4);
  if (m->piece_count != 1) goto out;

  /* 4 -> 3 vertices is allowed; 3 -> 2 is refused. */
  g_signal_emit_by_name(view, "vertex-removed", 0u, 0u);
  fixture_spin();
  CHECK(m->pieces[0].count == 3);
  CHECK_TEXT(editor_message(mask), "");
  g_signal_emit_by_name(view, "vertex-removed", 0u, 0u);
  fixture_spin();
  CHECK(m->pieces[0].count == 3);
  CHECK_TEXT(editor_message(mask),
             "A piece of sprite “plank” needs at least 3 vertices: add one before removing this one.");

  /* Up to 8 by inserting each edge's midpoint after its first vertex; the 9th is refused. */
  for (guint n = 3; n < TESS_POLY_MAX; n++) {
    TessVec2 a = m->pieces[0].v[0], b = m->pieces[0].v[1];
    g_signal_emit_by_name(view, "vertex-inserted", 0u, 0u, 0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
    fixture_spin();
    CHECK(m->pieces[0].count == n + 1);
  }
  CHECK_TEXT(editor_message(mask), "");
  TessVec2 a = m->pieces[0].v[0], b = m->pieces[0].v[1];
  g_signal_emit_by_name(view, "vertex-inserted", 0u, 0u, 0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
  fixture_spin();
  CHECK(m->pieces[0].count == TESS_POLY_MAX);
  CHECK_TEXT(editor_message(mask),
             "A piece of sprite “plank” has at most 8 vertices: remove one before adding another.");
out:
  gtk_window_destroy(mask);
  fixture_close(w);
}

/* A frame count whose first frame is empty, and an anchor past every limit:
 * the message bar names the sprite; nothing changed. */
static void panel_refusals_name_sprite(void) {
  /* Two 24 px frames: the first transparent, the second opaque. */
  TessId id = 0;
  TessWindow *w = window_with_sprite("frames.tessera", "blink.png", 48, 24, 24, 0, 48, 24, 255, &id);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_window_get_sprite_panel(w));
  CHECK(!tess_sprite_panel_set_frames(panel, 2, 8.0));
  fixture_spin();
  CHECK_TEXT(tess_window_get_reported(w),
             "Sprite “blink” as 2 frames has no pixel with an alpha of 1 or more in its first frame: choose another "
             "frame count, or lower the alpha threshold in its collision mask. Nothing was changed.");
  CHECK(tess_project_sprite(p, id)->frame_count == 1);

  CHECK(!tess_sprite_panel_set_anchor(panel, 1e9f, 0));
  fixture_spin();
  const char *said = tess_window_get_reported(w);
  CHECK_MSG(said && g_str_has_prefix(said,
                                     "Sprite “blink” was not changed: A size or count is larger than Tessera "
                                     "accepts. (sprite blink anchor is beyond ") &&
                g_str_has_suffix(said, " px) Undo the last change or choose another value."),
            "%s", said);
  CHECK(tess_project_sprite(p, id)->anchor.x < 48);
  fixture_close(w);
}

/* A PNG with nothing opaque is refused by its file name, saying what to do. */
static void import_refusal_names_file(void) {
  g_autofree char *path = fixture_copy_demo("import.tessera");
  g_autofree char *png = tess_test_write_rect_png("ghost.png", 8, 8, 0, 0, 0, 0, 0);
  TessWindow *w = fixture_window(path);
  uint32_t before = tess_document_get_project(tess_window_get_document(w))->sprite_count;
  CHECK(import(w, png) == 0);
  CHECK_TEXT(tess_window_get_reported(w),
             "“ghost.png” was not imported: it has no pixel with an alpha of 1 or more to trace a collision mask "
             "from. Give the image opaque pixels, then import it again.");
  CHECK(tess_document_get_project(tess_window_get_document(w))->sprite_count == before);
  fixture_close(w);
}

/* A sprite whose stored PNG is damaged: the mask editor names the sprite and
 * the file to import again. */
static void damaged_image_names_file(void) {
  TessId id = 0;
  TessWindow *w = window_with_sprite("damaged.tessera", "rock.png", 16, 16, 2, 2, 14, 14, 255, &id);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  TessSprite copy;
  CHECK(tess_sprite_copy(&copy, tess_project_sprite(p, id)) == TESS_OK);
  /* The last data chunk's CRC (before the 12 bytes of IEND): the header stays readable. */
  copy.png[copy.png_size - 14] ^= 0xff;
  TessError err = {0};
  CHECK_OK(tess_edit_sprite_set(p, &copy, 0, &err), &err);
  tess_sprite_clear(&copy);
  GtkWindow *mask = open_mask(w, id);
  const char *said = editor_message(mask);
  CHECK_MSG(g_str_has_prefix(said,
                             "The image of sprite “rock” cannot be read: “rock” is not in the expected format "
                             "or is damaged.") &&
                g_str_has_suffix(said, "Remove the sprite and import “rock.png” again."),
            "%s", said);
  gtk_window_destroy(mask);
  fixture_close(w);
}

/* ---- The tileset collision editor ------------------------------------------ */

static void close_tileset(GtkWindow *win) {
  gtk_window_destroy(win);
  fixture_spin();
}

/* A Trace All asked for while one runs: refused at once, naming the tileset being traced. */
static void on_second_trace(GObject *source, GAsyncResult *result, gpointer data) {
  g_autoptr(GError) error = NULL;
  CHECK(!tess_tileset_collision_trace_all_finish(TESS_TILESET_COLLISION(source), result, &error) && error);
  CHECK_TEXT(error ? error->message : "",
             "Tileset “moss” is being traced already: wait for that trace to finish, or cancel it.");
  *(gboolean *)data = TRUE;
}

/* A new project tmpdir/project holding tileset `name`: four 16 px tiles from
 * the 64 x 16 PNG tmpdir/png, the first transparent, the others opaque, all
 * full squares as added (Trace All makes the first none). Its id in *id. */
static TessDocument *document_with_tileset(const char *project, const char *name, const char *png, TessId *id) {
  TessDocument *doc = fixture_new_document(project);
  g_autofree char *file = tess_test_write_rect_png(png, 64, 16, 16, 0, 64, 16, 255);
  g_autofree char *bytes = NULL;
  gsize size = 0;
  CHECK(g_file_get_contents(file, &bytes, &size, NULL));
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = name;
  def.source_path = file;
  def.png = (const uint8_t *)bytes;
  def.png_size = size;
  def.image_w = 64;
  def.image_h = 16;
  def.tile_w = def.tile_h = 16;
  TessError err = {0};
  CHECK_OK(tess_edit_tileset_add(tess_document_get_project(doc), &def, id, &err), &err);
  g_autoptr(GError) error = NULL;
  CHECK_MSG(tess_document_commit(doc, &error), "%s", error ? error->message : "");
  return doc;
}

/* The panel on `doc`'s tileset `id`, in a window of its own. */
static TessTilesetCollision *open_tileset(TessDocument *doc, TessId id, GtkWindow **win) {
  TessTilesetCollision *tc = TESS_TILESET_COLLISION(tess_tileset_collision_new());
  *win = fixture_host(GTK_WIDGET(tc), 800, 500);
  tess_tileset_collision_set_document(tc, doc);
  tess_tileset_collision_set_tileset(tc, id);
  fixture_spin();
  return tc;
}

/* The panel's message line, as shown ("" when hidden). */
static const char *tileset_message(TessTilesetCollision *tc) {
  GObject *label = gtk_widget_get_template_child(GTK_WIDGET(tc), TESS_TYPE_TILESET_COLLISION, "message");
  CHECK(GTK_IS_LABEL(label));
  return gtk_widget_get_visible(GTK_WIDGET(label)) ? gtk_label_get_text(GTK_LABEL(label)) : "";
}

/* Presses Trace All as the user does and waits for the worker to finish. */
static void press_trace_all(TessTilesetCollision *tc) {
  GObject *button = gtk_widget_get_template_child(GTK_WIDGET(tc), TESS_TYPE_TILESET_COLLISION, "trace_button");
  CHECK(GTK_IS_BUTTON(button));
  g_signal_emit_by_name(button, "clicked");
  for (int i = 0; i < 20000 && tess_tileset_collision_is_tracing(tc); i++) {
    fixture_spin();
    g_usleep(1000);
  }
  CHECK(!tess_tileset_collision_is_tracing(tc));
  fixture_spin();
}

/* Whether every tile of tileset `id` has collision `kind` in the project in memory. */
static gboolean tiles_all(TessDocument *doc, TessId id, TessTileCollision kind) {
  const TessTileset *ts = tess_project_tileset(tess_document_get_project(doc), id);
  for (uint32_t i = 0; ts && i < ts->tile_count; i++)
    if (ts->tiles[i].collision != kind) return FALSE;
  return ts != NULL;
}

/* The project file replaced on disk under the panel (a `load --force`, a
 * pull): Trace All's store is refused, and the message names the tileset and
 * says why, in one sentence; a tile traced on its own likewise names the tile. */
static void tileset_store_refused_names_tileset(void) {
  TessId id = 0;
  TessDocument *doc = document_with_tileset("replaced.tessera", "cliffs", "cliffs.png", &id);
  GtkWindow *win = NULL;
  TessTilesetCollision *tc = open_tileset(doc, id, &win);
  CHECK_TEXT(tileset_message(tc), "");
  /* another file at the path: a copy of the project, renamed over it */
  const char *path = tess_document_get_path(doc);
  g_autofree char *other = g_strconcat(path, ".pulled", NULL);
  g_autofree char *bytes = NULL;
  gsize size = 0;
  CHECK(g_file_get_contents(path, &bytes, &size, NULL) && g_file_set_contents(other, bytes, (gssize)size, NULL));
  CHECK(g_rename(other, path) == 0);

  press_trace_all(tc);
  CHECK_TEXT(tileset_message(tc),
             "The traced shapes of tileset “cliffs” could not be saved: “replaced.tessera” was replaced on disk (by a "
             "load or a pull) before this edit was saved, so the edit was not applied. The new file is being "
             "reloaded: make the edit again there.");
  TessProject *disk = fixture_load(path);
  const TessTileset *dts = disk ? tess_project_tileset(disk, id) : NULL;
  CHECK(dts && dts->tiles[0].collision == TESS_TILE_COLLISION_FULL && dts->tiles[1].collision == TESS_TILE_COLLISION_FULL);
  if (disk) tess_project_destroy(disk);

  g_autoptr(GError) error = NULL;
  CHECK(!tess_tileset_collision_set_override(tc, 2, TESS_TILE_OVERRIDE_ONE_WAY, &error) && error);
  CHECK_TEXT(error ? error->message : "",
             "The new collision of tile 2 of tileset “cliffs” could not be saved: “replaced.tessera” was replaced on "
             "disk (by a load or a pull) before this edit was saved, so the edit was not applied. The new file is "
             "being reloaded: make the edit again there.");
  g_clear_error(&error);
  CHECK(!tess_tileset_collision_set_override(tc, 7, TESS_TILE_OVERRIDE_FULL, &error) && error);
  CHECK_TEXT(error ? error->message : "", "Tileset “cliffs” has no tile 7: it has 4 tiles.");
  close_tileset(win);
  g_object_unref(doc);
}

/* A tile with no opaque pixel traced on its own, a trace cancelled, a second
 * trace asked for while one runs: each names the tileset (and the tile). */
static void tileset_trace_refusals_name_tileset(void) {
  TessId id = 0;
  TessDocument *doc = document_with_tileset("refusals.tessera", "moss", "moss.png", &id);
  GtkWindow *win = NULL;
  TessTilesetCollision *tc = open_tileset(doc, id, &win);
  g_autoptr(GError) error = NULL;
  CHECK(!tess_tileset_collision_set_override(tc, 0, TESS_TILE_OVERRIDE_TRACED, &error) && error);
  CHECK_TEXT(error ? error->message : "",
             "Tile 0 of tileset “moss” has no pixel with an alpha of 1 or more: lower the alpha threshold, or give "
             "the tile no collision.");
  g_clear_error(&error);

  /* held part-way: a second trace is refused, then Cancel */
  tess_tileset_collision_set_trace_hold(tc, TRUE);
  GObject *button = gtk_widget_get_template_child(GTK_WIDGET(tc), TESS_TYPE_TILESET_COLLISION, "trace_button");
  g_signal_emit_by_name(button, "clicked");
  fixture_spin();
  CHECK(tess_tileset_collision_is_tracing(tc));
  gboolean done = FALSE;
  tess_tileset_collision_trace_all_async(tc, NULL, on_second_trace, &done);
  CHECK(fixture_wait(&done, 5000));
  tess_tileset_collision_cancel_trace(tc);
  for (int i = 0; i < 20000 && tess_tileset_collision_is_tracing(tc); i++) {
    fixture_spin();
    g_usleep(1000);
  }
  fixture_spin();
  CHECK_TEXT(tileset_message(tc), "Tracing tileset “moss” was cancelled: its tiles are unchanged.");
  CHECK(tiles_all(doc, id, TESS_TILE_COLLISION_FULL));
  tess_tileset_collision_set_trace_hold(tc, FALSE);
  close_tileset(win);
  g_object_unref(doc);
}

/* A tileset whose stored PNG is damaged: the panel names the tileset and the
 * file to add again, and Trace All and tracing one tile say the same instead
 * of a generic refusal; nothing changes. */
static void damaged_tileset_image_names_tileset(void) {
  TessId id = 0;
  TessDocument *doc = document_with_tileset("damaged-tiles.tessera", "ruins", "ruins.png", &id);
  TessProject *p = tess_document_get_project(doc);
  TessTileset copy;
  CHECK(tess_tileset_copy(&copy, tess_project_tileset(p, id)) == TESS_OK);
  copy.png[copy.png_size - 14] ^= 0xff; /* the last data chunk's CRC: the header stays readable */
  TessError err = {0};
  CHECK_OK(tess_edit_tileset_set(p, &copy, 0, &err), &err);
  tess_tileset_clear(&copy);
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_commit(doc, &error));
  GtkWindow *win = NULL;
  TessTilesetCollision *tc = open_tileset(doc, id, &win);
  g_autofree char *shown = g_strdup(tileset_message(tc));
  CHECK_MSG(g_str_has_prefix(shown,
                             "The image of tileset “ruins” cannot be read, so its tiles cannot be shown or "
                             "traced: “ruins” is not in the expected format or is damaged.") &&
                g_str_has_suffix(shown, "Remove the tileset and add “ruins.png” again."),
            "%s", shown);
  press_trace_all(tc);
  CHECK_TEXT(tileset_message(tc), shown);
  CHECK(!tess_tileset_collision_set_override(tc, 1, TESS_TILE_OVERRIDE_TRACED, &error) && error);
  CHECK_TEXT(error ? error->message : "", shown);
  CHECK(tiles_all(doc, id, TESS_TILE_COLLISION_FULL));
  close_tileset(win);
  g_object_unref(doc);
}

static const TessTestCase cases[] = {TEST(mask_threshold_names_sprite), TEST(mask_vertex_limits_name_sprite),
                                     TEST(panel_refusals_name_sprite), TEST(import_refusal_names_file),
                                     TEST(damaged_image_names_file), TEST(tileset_store_refused_names_tileset),
                                     TEST(tileset_trace_refusals_name_tileset),
                                     TEST(damaged_tileset_image_names_tileset)};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
