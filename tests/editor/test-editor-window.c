/* Widget tests of the editor window and its panels, linked against the real
 * tess-editor library, run under Xvfb. Each case checks the level in memory
 * AND the project file (reopened with core/store as another process would). */
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <zlib.h>

#include "editor_fixture.h"
#include "tess-layers-panel.h"
#include "tess-level-properties-dialog.h"
#include "tess-map-view.h"
#include "tess-material-panel.h"
#include "tess-object-inspector.h"
#include "tess-scroll-area.h"
#include "tess-tile-palette.h"
#include "tess-tileset-dialog.h"
#include "tess-ui.h"
#include "tessera/image.h"

/* ---- Document ----------------------------------------------------------- */

/* A painted cell reaches the file at commit; undo and redo reach it too. */
static void document_commit_undo_redo(void) {
  g_autofree char *path = fixture_copy_demo("doc.tessera");
  g_autoptr(GError) error = NULL;
  TessDocument *doc = tess_document_open(path, &error);
  CHECK(doc != NULL);
  if (!doc) return;
  TessProject *p = tess_document_get_project(doc);
  TessLevel *level = p->levels[0];
  TessLayer *layer = fixture_tile_layer(level);
  TessCell before = tess_layer_cell(layer, 3, 2);
  TessCell cell = TESS_CELL_MAKE(p->tilesets[0]->id, 5, 0);
  if (before == cell) cell = TESS_CELL_MAKE(p->tilesets[0]->id, 6, 0);
  int committed = 0;
  g_signal_connect_swapped(doc, "committed", G_CALLBACK(g_atomic_int_inc), &committed);
  TessError err = {0};
  CHECK_OK(tess_edit_paint(p, level->id, layer->props.id, 3, 2, 1, 1, &cell, 0, &err), &err);
  CHECK(tess_document_commit(doc, &error));
  CHECK(committed == 1);

  TessProject *disk = fixture_load(path);
  CHECK(disk && tess_layer_cell(tess_level_layer(disk->levels[0], layer->props.id), 3, 2) == cell);
  if (disk) tess_project_destroy(disk);

  CHECK(tess_document_undo(doc, &error));
  CHECK(tess_layer_cell(layer, 3, 2) == before);
  disk = fixture_load(path);
  CHECK(disk && tess_layer_cell(tess_level_layer(disk->levels[0], layer->props.id), 3, 2) == before);
  if (disk) tess_project_destroy(disk);

  CHECK(tess_document_redo(doc, &error));
  disk = fixture_load(path);
  CHECK(disk && tess_layer_cell(tess_level_layer(disk->levels[0], layer->props.id), 3, 2) == cell);
  if (disk) tess_project_destroy(disk);
  CHECK(committed == 3);
  g_object_unref(doc);
}

/* Save a Copy of a healthy project: SQLite's backup of the file; the copy
 * loads to the same project (content hash), and the document stays on the
 * original. */
static void document_save_copy(void) {
  g_autofree char *path = fixture_copy_demo("original.tessera");
  g_autoptr(GError) error = NULL;
  TessDocument *doc = tess_document_open(path, &error);
  CHECK(doc != NULL);
  if (!doc) return;
  TessProject *p = tess_document_get_project(doc);
  TessLevel *level = p->levels[0];
  TessCell cell = TESS_CELL_MAKE(p->tilesets[0]->id, 3, TESS_CELL_FLIP_V);
  TessError err = {0};
  CHECK_OK(tess_edit_paint(p, level->id, fixture_tile_layer(level)->props.id, 9, 9, 1, 1, &cell, 0, &err), &err);
  CHECK(tess_document_commit(doc, NULL));
  char buf[1024];
  const char *copy = tess_test_path(buf, sizeof buf, "copy.tessera");
  CHECK(tess_document_save_copy(doc, copy, &error));
  CHECK(strcmp(tess_document_get_path(doc), path) == 0);
  TessProject *disk = fixture_load(copy);
  CHECK(disk && tess_project_hash(disk) == tess_project_hash(p));
  if (disk) tess_project_destroy(disk);
  /* Saving over an existing copy replaces it. */
  CHECK(tess_document_save_copy(doc, copy, &error));
  g_object_unref(doc);
}

/* A new project has a material and a level, on disk. */
static void document_new_project(void) {
  char buf[1024];
  const char *path = tess_test_path(buf, sizeof buf, "new.tessera");
  g_autoptr(GError) error = NULL;
  TessDocument *doc = tess_document_new_project(path, &error);
  CHECK(doc != NULL);
  if (!doc) return;
  g_autofree char *name = tess_document_dup_name(doc);
  CHECK(strcmp(name, "new") == 0);
  CHECK(!tess_project_can_undo(tess_document_get_project(doc)));
  g_object_unref(doc);
  TessProject *disk = fixture_load(path);
  CHECK(disk && disk->material_count == 1 && disk->level_count == 1 && disk->levels[0]->layer_count >= 1);
  if (disk) tess_project_destroy(disk);
  /* Never overwrites an existing file. */
  TessDocument *again = tess_document_new_project(path, &error);
  CHECK(again == NULL && error != NULL);
  if (again) g_object_unref(again);
}

static char *write_file(const char *name, const void *data, size_t size) {
  char buf[1024];
  char *path = g_strdup(tess_test_path(buf, sizeof buf, name));
  g_file_set_contents(path, data, (gssize)size, NULL);
  return path;
}

/* Not SQLite, a newer schema, a damaged file: each refused by name, with a reason. */
static void document_open_refuses_bad_files(void) {
  g_autofree char *text = write_file("notes.tessera", "these are not the bytes of a database\n", 38);
  g_autoptr(GError) e1 = NULL;
  CHECK(tess_document_open(text, &e1) == NULL);
  CHECK(e1 && strstr(e1->message, "notes.tessera") != NULL);

  g_autofree char *newer = fixture_copy_demo("newer.tessera");
  sqlite3 *db = NULL;
  CHECK(sqlite3_open(newer, &db) == SQLITE_OK);
  CHECK(sqlite3_exec(db, "UPDATE meta SET value = 99 WHERE key = 'schema_version'", NULL, NULL, NULL) == SQLITE_OK);
  sqlite3_close(db);
  g_autoptr(GError) e2 = NULL;
  CHECK(tess_document_open(newer, &e2) == NULL);
  CHECK(e2 && e2->code == TESS_ERR_VERSION && strstr(e2->message, "newer.tessera") != NULL);
  CHECK(e2 && strstr(e2->message, "newer version") != NULL);

  /* The first half of a real project. */
  g_autofree char *demo = fixture_copy_demo("whole.tessera");
  g_autofree char *bytes = NULL;
  gsize size = 0;
  g_file_get_contents(demo, &bytes, &size, NULL);
  g_autofree char *half = write_file("half.tessera", bytes, size / 2);
  g_autoptr(GError) e3 = NULL;
  TessDocument *d3 = tess_document_open(half, &e3);
  CHECK(d3 == NULL && e3 && strstr(e3->message, "half.tessera") != NULL);
  if (d3) g_object_unref(d3);
}

/* ---- Window --------------------------------------------------------------- */

/* A file that fails to open shows a dialog naming it; the window stays usable. */
static void window_open_error_dialog(void) {
  g_autofree char *bad = write_file("broken.tessera", "SQLite format 2\0garbage", 23);
  TessWindow *w = fixture_window(NULL);
  CHECK(!tess_window_open_path(w, bad));
  fixture_spin();
  GtkWindow *dialog = tess_window_get_last_dialog(w);
  CHECK(GTK_IS_MESSAGE_DIALOG(dialog));
  g_autofree char *text = fixture_dialog_text(dialog);
  CHECK_MSG(strstr(text, "broken.tessera") != NULL, "dialog text: %s", text);
  CHECK(tess_window_get_document(w) == NULL);
  if (dialog) gtk_window_destroy(dialog);
  /* Still usable: a good project opens in the same window. */
  g_autofree char *good = fixture_copy_demo("good.tessera");
  CHECK(tess_window_open_path(w, good));
  CHECK(tess_window_get_document(w) != NULL);
  const char *title = gtk_window_get_title(GTK_WINDOW(w));
  CHECK_MSG(strstr(title, "good") && strstr(title, fixture_level(w)->settings.name), "title: %s", title);
  fixture_close(w);
}

/* win.undo / win.redo (what Ctrl+Z and Ctrl+Shift+Z activate) reach the file. */
static void window_undo_redo_actions(void) {
  g_autofree char *path = fixture_copy_demo("undo.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  TessLevel *level = fixture_level(w);
  TessId layer = tess_window_get_layer(w);
  CHECK(layer != 0 && tess_level_layer(level, layer)->props.kind == TESS_LAYER_TILES);
  CHECK(!g_action_group_get_action_enabled(G_ACTION_GROUP(w), "undo"));

  TessCell cells[2] = {TESS_CELL_MAKE(p->tilesets[0]->id, 1, 0), TESS_CELL_MAKE(p->tilesets[0]->id, 2, TESS_CELL_FLIP_H)};
  TessCell before[2] = {tess_layer_cell(tess_level_layer(level, layer), 10, 1),
                        tess_layer_cell(tess_level_layer(level, layer), 11, 1)};
  TessError err = {0};
  CHECK_OK(tess_edit_paint(p, level->id, layer, 10, 1, 2, 1, cells, 0, &err), &err);
  CHECK(tess_document_commit(doc, NULL));
  fixture_spin();
  CHECK(g_action_group_get_action_enabled(G_ACTION_GROUP(w), "undo"));

  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  TessProject *disk = fixture_load(path);
  TessLayer *dl = disk ? tess_level_layer(tess_project_level(disk, level->id), layer) : NULL;
  CHECK(dl && tess_layer_cell(dl, 10, 1) == before[0] && tess_layer_cell(dl, 11, 1) == before[1]);
  if (disk) tess_project_destroy(disk);
  CHECK(g_action_group_get_action_enabled(G_ACTION_GROUP(w), "redo"));

  /* While the level plays, undo and redo wait (the project underneath is not edited). */
  if (g_action_group_has_action(G_ACTION_GROUP(w), "play")) {
    g_action_group_change_action_state(G_ACTION_GROUP(w), "play", g_variant_new_boolean(TRUE));
    fixture_spin();
    CHECK(!g_action_group_get_action_enabled(G_ACTION_GROUP(w), "redo"));
    g_action_group_change_action_state(G_ACTION_GROUP(w), "play", g_variant_new_boolean(FALSE));
    fixture_spin();
    CHECK(g_action_group_get_action_enabled(G_ACTION_GROUP(w), "redo"));
  }

  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.redo", NULL));
  fixture_spin();
  disk = fixture_load(path);
  dl = disk ? tess_level_layer(tess_project_level(disk, level->id), layer) : NULL;
  CHECK(dl && tess_layer_cell(dl, 10, 1) == cells[0] && tess_layer_cell(dl, 11, 1) == cells[1]);
  if (disk) tess_project_destroy(disk);
  fixture_close(w);
}

/* Add, rename, raise, hide, lock, set the opacity of, and remove a layer. */
static void window_layers_panel(void) {
  g_autofree char *path = fixture_copy_demo("layers.tessera");
  TessWindow *w = fixture_window(path);
  TessLayersPanel *panel = TESS_LAYERS_PANEL(tess_window_get_layers_panel(w));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLevel *level = fixture_level(w);
  uint32_t count = level->layer_count;

  CHECK(tess_layers_panel_add_layer(panel, TESS_LAYER_TILES));
  fixture_spin();
  CHECK(level->layer_count == count + 1);
  TessId added = tess_layers_panel_get_layer(panel);
  CHECK(added != 0 && tess_window_get_layer(w) == added);
  int index = tess_level_layer_index(level, added);
  CHECK(tess_layers_panel_rename_layer(panel, added, "  Décor  "));
  CHECK(strcmp(tess_level_layer(level, added)->props.name, "Décor") == 0);
  CHECK(tess_layers_panel_move_layer(panel, -1));
  CHECK(tess_level_layer_index(level, added) == index - 1);

  TessLayerProps props = tess_level_layer(level, added)->props;
  props.visible = false;
  props.locked = true;
  props.opacity = 0.25f;
  props.collides = false;
  TessError err = {0};
  CHECK_OK(tess_edit_layer_set_props(p, level->id, &props, 0, &err), &err);
  CHECK(tess_document_commit(tess_window_get_document(w), NULL));
  fixture_spin();

  TessProject *disk = fixture_load(path);
  TessLayer *dl = disk ? tess_level_layer(tess_project_level(disk, level->id), added) : NULL;
  CHECK(dl && strcmp(dl->props.name, "Décor") == 0 && !dl->props.visible && dl->props.locked && !dl->props.collides);
  CHECK(dl && dl->props.opacity > 0.24f && dl->props.opacity < 0.26f);
  CHECK(disk && tess_level_layer_index(tess_project_level(disk, level->id), added) == index - 1);
  if (disk) tess_project_destroy(disk);

  /* A locked layer refuses paint, visibly. */
  TessCell cell = TESS_CELL_MAKE(p->tilesets[0]->id, 1, 0);
  TessResult r = tess_edit_paint(p, level->id, added, 0, 0, 1, 1, &cell, 0, &err);
  CHECK(r == TESS_ERR_LOCKED);

  CHECK(tess_layers_panel_remove_layer(panel));
  fixture_spin();
  CHECK(tess_level_layer(level, added) == NULL && level->layer_count == count);
  CHECK(tess_window_get_layer(w) != added && tess_window_get_layer(w) != 0);
  disk = fixture_load(path);
  CHECK(disk && tess_project_level(disk, level->id)->layer_count == count);
  if (disk) tess_project_destroy(disk);

  /* Levels: add one, it becomes the current level and the title follows. */
  uint32_t levels = p->level_count;
  CHECK(tess_layers_panel_add_level(panel));
  fixture_spin();
  CHECK(p->level_count == levels + 1 && tess_window_get_level(w) == p->levels[levels]->id);
  CHECK(strstr(gtk_window_get_title(GTK_WINDOW(w)), p->levels[levels]->settings.name) != NULL);
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  CHECK(p->level_count == levels);
  fixture_close(w);
}

/* The material inspector refuses letters, NaN and out-of-range text in its
 * fields: nothing reaches the material or the file. Good text does. */
static void window_material_inspector(void) {
  g_autofree char *path = fixture_copy_demo("materials.tessera");
  TessWindow *w = fixture_window(path);
  TessMaterialPanel *panel = TESS_MATERIAL_PANEL(tess_window_get_material_panel(w));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessId id = p->materials[1].id;
  tess_material_panel_select(panel, id);
  float density = tess_project_material(p, id)->density;
  float friction = tess_project_material(p, id)->friction;
  GtkSpinButton *density_spin = GTK_SPIN_BUTTON(tess_material_panel_get_field(panel, "density"));
  GtkSpinButton *friction_spin = GTK_SPIN_BUTTON(tess_material_panel_get_field(panel, "friction"));

  const char *bad[] = {"nan", "NaN", "abc", "1e999", "inf", "-inf", "2.5kg", ""};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    gtk_editable_set_text(GTK_EDITABLE(density_spin), bad[i]);
    gtk_spin_button_update(density_spin);
    gtk_editable_set_text(GTK_EDITABLE(friction_spin), bad[i]);
    gtk_spin_button_update(friction_spin);
    fixture_spin();
    CHECK_MSG(tess_project_material(p, id)->density == density, "density after \"%s\"", bad[i]);
    CHECK_MSG(tess_project_material(p, id)->friction == friction, "friction after \"%s\"", bad[i]);
  }
  CHECK(!tess_project_can_undo(p));

  gtk_editable_set_text(GTK_EDITABLE(density_spin), "2.5");
  gtk_spin_button_update(density_spin);
  fixture_spin();
  CHECK_NEAR(tess_project_material(p, id)->density, 2.5, 1e-6);
  TessProject *disk = fixture_load(path);
  CHECK(disk && fabs(tess_project_material(disk, id)->density - 2.5) < 1e-6);
  CHECK(disk && tess_project_material(disk, id)->friction == friction);
  if (disk) tess_project_destroy(disk);

  /* A slider drag (values in quick succession) is one undo step. */
  GtkSpinButton *rest = GTK_SPIN_BUTTON(tess_material_panel_get_field(panel, "restitution"));
  float restitution = tess_project_material(p, id)->restitution;
  gtk_spin_button_set_value(rest, 0.31);
  gtk_spin_button_set_value(rest, 0.42);
  gtk_spin_button_set_value(rest, 0.53);
  CHECK_NEAR(tess_project_material(p, id)->restitution, 0.53, 1e-6);
  CHECK(tess_document_undo(tess_window_get_document(w), NULL));
  fixture_spin();
  CHECK(tess_project_material(p, id)->restitution == restitution);
  CHECK_NEAR(tess_project_material(p, id)->density, 2.5, 1e-6);
  CHECK_NEAR(gtk_spin_button_get_value(rest), restitution, 1e-3);

  /* Name and kind; add, duplicate and delete (cells get the replacement). */
  GtkEditable *name = GTK_EDITABLE(tess_material_panel_get_field(panel, "name"));
  gtk_editable_set_text(name, "Granite");
  g_signal_emit_by_name(name, "activate");
  CHECK(strcmp(tess_project_material(p, id)->name, "Granite") == 0);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(tess_material_panel_get_field(panel, "kind")), TESS_MATERIAL_FLUID);
  CHECK(tess_project_material(p, id)->kind == TESS_MATERIAL_FLUID);
  uint32_t n = p->material_count;
  CHECK(tess_material_panel_duplicate(panel));
  CHECK(p->material_count == n + 1);
  TessId copy = tess_material_panel_get_selected(panel);
  CHECK(copy != id && tess_project_material(p, copy)->kind == TESS_MATERIAL_FLUID);
  TessLevel *level = fixture_level(w);
  TessError err = {0};
  CHECK_OK(tess_edit_paint_material(p, level->id, 0, 0, 2, 2, copy, 0, &err), &err);
  CHECK(tess_document_commit(tess_window_get_document(w), NULL));
  CHECK(tess_material_panel_remove(panel, id));
  fixture_spin();
  CHECK(tess_project_material(p, copy) == NULL && p->material_count == n);
  CHECK(tess_layer_cell(tess_level_material_layer(level), 1, 1) == id);
  disk = fixture_load(path);
  CHECK(disk && tess_project_material(disk, copy) == NULL);
  CHECK(disk && tess_layer_cell(tess_level_material_layer(tess_project_level(disk, level->id)), 1, 1) == id);
  if (disk) tess_project_destroy(disk);
  fixture_close(w);
}

/* Level Properties: resize anchored at the bottom right, rename, gravity; refusals stay in the dialog. */
static void window_level_properties(void) {
  g_autofree char *path = fixture_copy_demo("props.tessera");
  TessWindow *w = fixture_window(path);
  TessLevel *level = fixture_level(w);
  TessLayer *layer = fixture_tile_layer(level);
  uint32_t old_w = level->settings.width, old_h = level->settings.height;
  /* A cell to follow through the resize. */
  uint32_t fx = old_w - 1, fy = old_h - 1;
  TessCell corner = tess_layer_cell(layer, fx, fy);

  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.level-properties", NULL));
  fixture_spin();
  GtkWindow *dialog = tess_window_get_last_dialog(w);
  CHECK(TESS_IS_LEVEL_PROPERTIES_DIALOG(dialog));
  if (!TESS_IS_LEVEL_PROPERTIES_DIALOG(dialog)) return;
  TessLevelPropertiesDialog *d = TESS_LEVEL_PROPERTIES_DIALOG(dialog);

  /* An empty name is refused, with a reason, and nothing changes. */
  gtk_editable_set_text(GTK_EDITABLE(tess_level_properties_dialog_get_field(d, "name")), "   ");
  CHECK(!tess_level_properties_dialog_apply(d));
  CHECK(strlen(tess_level_properties_dialog_get_message(d)) > 0);
  /* Letters in a number field are refused in the field. */
  gtk_editable_set_text(GTK_EDITABLE(tess_level_properties_dialog_get_field(d, "ppm")), "nan");

  gtk_editable_set_text(GTK_EDITABLE(tess_level_properties_dialog_get_field(d, "name")), "Caves");
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(tess_level_properties_dialog_get_field(d, "width")), old_w + 8);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(tess_level_properties_dialog_get_field(d, "height")), old_h + 4);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(tess_level_properties_dialog_get_field(d, "anchor-x")), 2);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(tess_level_properties_dialog_get_field(d, "anchor-y")), 2);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(tess_level_properties_dialog_get_field(d, "gravity-y")), 5.0);
  float ppm = level->settings.ppm;
  CHECK(tess_level_properties_dialog_apply(d));
  gtk_window_destroy(dialog);
  fixture_spin();

  CHECK(strcmp(level->settings.name, "Caves") == 0);
  CHECK(level->settings.width == old_w + 8 && level->settings.height == old_h + 4);
  CHECK(level->settings.ppm == ppm);
  CHECK_NEAR(level->settings.gravity.y, 5.0, 1e-6);
  /* Anchored at the bottom right: the old corner cell moved by the growth. */
  CHECK(tess_layer_cell(layer, fx + 8, fy + 4) == corner);
  CHECK(strstr(gtk_window_get_title(GTK_WINDOW(w)), "Caves") != NULL);
  TessProject *disk = fixture_load(path);
  TessLevel *dl = disk ? tess_project_level(disk, level->id) : NULL;
  CHECK(dl && strcmp(dl->settings.name, "Caves") == 0 && dl->settings.width == old_w + 8);
  CHECK(dl && tess_layer_cell(tess_level_layer(dl, layer->props.id), fx + 8, fy + 4) == corner);
  if (disk) tess_project_destroy(disk);

  /* One undo step brings everything back. */
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  CHECK(level->settings.width == old_w && tess_layer_cell(layer, fx, fy) == corner);
  fixture_close(w);
}

/* Drag and drop: the drop target's signal, as a file manager's drop emits it. */
static void window_drop_file(void) {
  g_autofree char *path = fixture_copy_demo("dropped.tessera");
  TessWindow *w = fixture_window(NULL);
  GtkDropTarget *target = tess_window_get_drop_target(w);
  CHECK(target != NULL);
  g_autoptr(GFile) file = g_file_new_for_path(path);
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_FILE);
  g_value_set_object(&value, file);
  gboolean accepted = FALSE;
  g_signal_emit_by_name(target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset(&value);
  CHECK(accepted);
  TessDocument *doc = tess_window_get_document(w);
  CHECK(doc && strcmp(tess_document_get_path(doc), path) == 0);

  /* Something that is not a project is refused with a message. */
  g_autofree char *png = write_file("picture.png", "\x89PNG", 4);
  g_autoptr(GFile) other = g_file_new_for_path(png);
  g_value_init(&value, G_TYPE_FILE);
  g_value_set_object(&value, other);
  accepted = TRUE;
  g_signal_emit_by_name(target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset(&value);
  CHECK(!accepted);
  CHECK(tess_window_get_reported(w) && strstr(tess_window_get_reported(w), "picture.png"));
  CHECK(tess_window_get_document(w) == doc);
  fixture_close(w);
}

/* Add Tileset: bad PNGs are refused with a dialog naming the file and the
 * reason; a good one is added (grid checked) and reaches the file. */
static char *png_file(const char *name, uint32_t w, uint32_t h) {
  TessImage img = {0};
  TessError err = {0};
  CHECK_OK(tess_image_create(w, h, &img, &err), &err);
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint8_t *px = img.pixels + y * img.stride + 4 * x;
      px[0] = (uint8_t)(x * 7), px[1] = (uint8_t)(y * 5), px[2] = 200, px[3] = 255;
    }
  char buf[1024];
  char *path = g_strdup(tess_test_path(buf, sizeof buf, name));
  CHECK_OK(tess_png_save(tess_image_view(&img), path, &err), &err);
  tess_image_clear(&img);
  return path;
}

/* A PNG header claiming 60,000 x 16 pixels (IHDR with a valid CRC). */
static char *huge_png_file(void) {
  uint8_t bytes[33] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                       0, 0, 0xEA, 0x60, 0, 0, 0, 16, 8, 6, 0, 0, 0};
  uint32_t crc = (uint32_t)crc32(0, bytes + 12, 17);
  bytes[29] = (uint8_t)(crc >> 24), bytes[30] = (uint8_t)(crc >> 16), bytes[31] = (uint8_t)(crc >> 8), bytes[32] = (uint8_t)crc;
  return write_file("wide.png", bytes, sizeof bytes);
}

static void expect_refused(TessWindow *w, const char *path, const char *name) {
  GtkWidget *dialog = tess_window_add_tileset_from(w, path);
  fixture_spin();
  CHECK_MSG(GTK_IS_MESSAGE_DIALOG(dialog), "%s was not refused", name);
  g_autofree char *text = fixture_dialog_text(GTK_WINDOW(dialog));
  CHECK_MSG(strstr(text, name) != NULL, "dialog for %s says: %s", name, text);
  gtk_window_destroy(GTK_WINDOW(dialog));
}

static void window_add_tileset(void) {
  g_autofree char *path = fixture_copy_demo("tilesets.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  uint32_t count = p->tileset_count;

  g_autofree char *good = png_file("good.png", 64, 48);
  g_autofree char *bytes = NULL;
  gsize size = 0;
  g_file_get_contents(good, &bytes, &size, NULL);
  g_autofree char *truncated = write_file("truncated.png", bytes, size / 2);
  expect_refused(w, truncated, "truncated.png");
  g_autofree char *wide = huge_png_file();
  expect_refused(w, wide, "wide.png");
  g_autofree char *text = write_file("text.png", "hello", 5);
  expect_refused(w, text, "text.png");

  /* A tile larger than the image: the dialog says why and refuses to add it. */
  g_autofree char *small = png_file("small.png", 16, 16);
  GtkWidget *dialog = tess_window_add_tileset_from(w, small);
  CHECK(TESS_IS_TILESET_DIALOG(dialog));
  if (TESS_IS_TILESET_DIALOG(dialog)) {
    TessTilesetDialog *td = TESS_TILESET_DIALOG(dialog);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(tess_tileset_dialog_get_field(td, "tile-width")), 32);
    CHECK(!tess_tileset_dialog_apply(td, NULL));
    CHECK(p->tileset_count == count);
    gtk_window_destroy(GTK_WINDOW(dialog));
  }
  fixture_spin();
  GList *tops = gtk_window_list_toplevels();
  for (GList *l = tops; l; l = l->next)
    if (GTK_IS_MESSAGE_DIALOG(l->data)) {
      g_autofree char *t = fixture_dialog_text(l->data);
      CHECK_MSG(strstr(t, "small.png") != NULL, "refusal says: %s", t);
      gtk_window_destroy(l->data);
    }
  g_list_free(tops);

  dialog = tess_window_add_tileset_from(w, good);
  CHECK(TESS_IS_TILESET_DIALOG(dialog));
  TessId id = 0;
  if (TESS_IS_TILESET_DIALOG(dialog)) {
    TessTilesetDialog *td = TESS_TILESET_DIALOG(dialog);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(tess_tileset_dialog_get_field(td, "tile-width")), 16);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(tess_tileset_dialog_get_field(td, "tile-height")), 16);
    CHECK(strstr(tess_tileset_dialog_get_message(td), "4 × 3") != NULL);
    CHECK(tess_tileset_dialog_apply(td, &id));
    gtk_window_destroy(GTK_WINDOW(dialog));
  }
  fixture_spin();
  TessTileset *ts = tess_project_tileset(p, id);
  CHECK(ts && ts->columns == 4 && ts->tile_count == 12 && strcmp(ts->name, "good") == 0);
  /* Issue 14: the tileset just added is the one the palette shows (the demo's stays in the project). */
  CHECK(p->tileset_count == count + 1);
  CHECK(tess_tile_palette_get_tileset(TESS_TILE_PALETTE(tess_window_get_tile_palette(w))) == id);
  TessProject *disk = fixture_load(path);
  TessTileset *dts = disk ? tess_project_tileset(disk, id) : NULL;
  CHECK(dts && dts->tile_count == 12 && dts->png_size == size && memcmp(dts->png, bytes, size) == 0);
  if (disk) tess_project_destroy(disk);

  /* The source PNG changes on disk: the window offers to reload it. */
  g_autofree char *changed = png_file("good2.png", 64, 64);
  g_autofree char *new_bytes = NULL;
  gsize new_size = 0;
  g_file_get_contents(changed, &new_bytes, &new_size, NULL);
  g_file_set_contents(good, new_bytes, (gssize)new_size, NULL);
  CHECK(tess_window_check_sources(w) == 1);
  tess_window_reload_sources(w);
  fixture_spin();
  ts = tess_project_tileset(p, id);
  CHECK(ts && ts->image_h == 64 && ts->tile_count == 16);
  CHECK(tess_window_check_sources(w) == 0);

  /* Rename, then remove (its cells erased), through the palette. */
  TessTilePalette *palette = TESS_TILE_PALETTE(tess_window_get_tile_palette(w));
  CHECK(tess_tile_palette_rename_tileset(palette, id, "Bricks"));
  CHECK(strcmp(tess_project_tileset(p, id)->name, "Bricks") == 0);
  TessLevel *level = fixture_level(w);
  TessLayer *layer = fixture_tile_layer(level);
  TessCell cell = TESS_CELL_MAKE(id, 3, 0);
  TessError err = {0};
  CHECK_OK(tess_edit_paint(p, level->id, layer->props.id, 1, 1, 1, 1, &cell, 0, &err), &err);
  CHECK(tess_document_commit(tess_window_get_document(w), NULL));
  CHECK(tess_tile_palette_remove_tileset(palette, id, 0));
  CHECK(tess_project_tileset(p, id) == NULL && tess_layer_cell(layer, 1, 1) == 0);
  disk = fixture_load(path);
  CHECK(disk && tess_project_tileset(disk, id) == NULL);
  if (disk) tess_project_destroy(disk);
  fixture_close(w);
}

/* Removing a tileset can hand its cells to another tileset (same tile index). */
static void window_remove_tileset_remap(void) {
  g_autofree char *path = fixture_copy_demo("remap.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  g_autofree char *a_png = png_file("alpha.png", 64, 32);
  g_autofree char *b_png = png_file("beta.png", 64, 32);
  TessId ids[2] = {0, 0};
  const char *pngs[2] = {a_png, b_png};
  for (int i = 0; i < 2; i++) {
    GtkWidget *dialog = tess_window_add_tileset_from(w, pngs[i]);
    CHECK(TESS_IS_TILESET_DIALOG(dialog));
    if (!TESS_IS_TILESET_DIALOG(dialog)) return;
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(tess_tileset_dialog_get_field(TESS_TILESET_DIALOG(dialog), "tile-width")), 16);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(tess_tileset_dialog_get_field(TESS_TILESET_DIALOG(dialog), "tile-height")), 16);
    CHECK(tess_tileset_dialog_apply(TESS_TILESET_DIALOG(dialog), &ids[i]));
    gtk_window_destroy(GTK_WINDOW(dialog));
  }
  TessLevel *level = fixture_level(w);
  TessLayer *layer = fixture_tile_layer(level);
  TessCell cell = TESS_CELL_MAKE(ids[0], 5, TESS_CELL_FLIP_H);
  TessError err = {0};
  CHECK_OK(tess_edit_paint(p, level->id, layer->props.id, 2, 2, 1, 1, &cell, 0, &err), &err);
  CHECK(tess_document_commit(tess_window_get_document(w), NULL));
  TessTilePalette *palette = TESS_TILE_PALETTE(tess_window_get_tile_palette(w));
  CHECK(tess_tile_palette_remove_tileset(palette, ids[0], ids[1]));
  fixture_spin();
  CHECK(tess_layer_cell(layer, 2, 2) == TESS_CELL_MAKE(ids[1], 5, TESS_CELL_FLIP_H));
  TessProject *disk = fixture_load(path);
  CHECK(disk && tess_project_tileset(disk, ids[0]) == NULL);
  CHECK(disk && tess_layer_cell(tess_level_layer(tess_project_level(disk, level->id), layer->props.id), 2, 2) ==
                    TESS_CELL_MAKE(ids[1], 5, TESS_CELL_FLIP_H));
  if (disk) tess_project_destroy(disk);
  /* One undo brings the tileset and its cells back. */
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  CHECK(tess_project_tileset(p, ids[0]) != NULL && tess_layer_cell(layer, 2, 2) == cell);
  fixture_close(w);
}

/* The palette: a drag over 2 x 2 tiles makes a 2 x 2 stamp. */
static void window_tile_palette_stamp(void) {
  g_autofree char *path = fixture_copy_demo("palette.tessera");
  TessWindow *w = fixture_window(path);
  TessTilePalette *palette = TESS_TILE_PALETTE(tess_window_get_tile_palette(w));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessTileset *ts = tess_project_tileset(p, tess_tile_palette_get_tileset(palette));
  CHECK(ts != NULL);
  if (!ts) return;
  tess_tile_palette_select(palette, 1, 0, 2, 2);
  uint32_t sw = 0, sh = 0;
  const TessCell *cells = NULL;
  CHECK(tess_tile_palette_get_stamp(palette, &sw, &sh, &cells));
  CHECK(sw == 2 && sh == 2);
  CHECK(cells && cells[0] == TESS_CELL_MAKE(ts->id, 1, 0) && cells[1] == TESS_CELL_MAKE(ts->id, 2, 0));
  CHECK(cells && cells[2] == TESS_CELL_MAKE(ts->id, ts->columns + 1, 0));
  /* The picker's stamp shows up in the palette, without replacing the map view's stamp. */
  int emitted = 0;
  g_signal_connect_swapped(palette, "stamp-changed", G_CALLBACK(g_atomic_int_inc), &emitted);
  TessCell picked[2] = {TESS_CELL_MAKE(ts->id, ts->columns + 2, 0), TESS_CELL_MAKE(ts->id, ts->columns + 3, 0)};
  CHECK(tess_tile_palette_follow_stamp(palette, 2, 1, picked));
  CHECK(tess_tile_palette_get_stamp(palette, &sw, &sh, &cells) && sw == 2 && sh == 1 && cells[0] == picked[0]);
  CHECK(emitted == 0);
  TessCell flipped = TESS_CELL_MAKE(ts->id, 1, TESS_CELL_FLIP_H);
  CHECK(!tess_tile_palette_follow_stamp(palette, 1, 1, &flipped));
  TessCell scattered[2] = {TESS_CELL_MAKE(ts->id, 0, 0), TESS_CELL_MAKE(ts->id, 5, 0)};
  CHECK(!tess_tile_palette_follow_stamp(palette, 2, 1, scattered));
  /* Clipped to the tileset. */
  tess_tile_palette_select(palette, ts->columns - 1, 0, 5, 1);
  CHECK(tess_tile_palette_get_stamp(palette, &sw, &sh, &cells) && sw == 1 && sh == 1);
  fixture_close(w);
}

/* The palette's button whose tooltip starts with `tip` (depth-first). */
static GtkWidget *button_with_tip(GtkWidget *root, const char *tip) {
  if (GTK_IS_BUTTON(root) && g_str_has_prefix(gtk_widget_get_tooltip_text(root) ? gtk_widget_get_tooltip_text(root) : "", tip))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
    GtkWidget *hit = button_with_tip(c, tip);
    if (hit) return hit;
  }
  return NULL;
}

/* How many opaque tileset pixels (away from tile edges and the selected
 * tile) show in the view as exact zoom x zoom squares of themselves; -1
 * when one does not. */
static int whole_step_pixels(TessTilePalette *palette, const TessTileset *ts, int zoom) {
  GtkWidget *view = tess_tile_palette_get_view(palette);
  int vw = gtk_widget_get_width(view), vh = gtk_widget_get_height(view);
  cairo_surface_t *shot = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, vw, vh);
  cairo_t *cr = cairo_create(shot);
  tess_scroll_area_draw_view(TESS_SCROLL_AREA(view), cr);
  cairo_destroy(cr);
  cairo_surface_flush(shot);
  cairo_surface_t *src = tess_tile_palette_get_surface(palette, ts->id);
  const uint8_t *sp = cairo_image_surface_get_data(src), *dp = cairo_image_surface_get_data(shot);
  int ss = cairo_image_surface_get_stride(src), ds = cairo_image_surface_get_stride(shot), checked = 0;
  for (int y = 0; y < vh / zoom && y < (int)ts->image_h; y++)
    for (int x = 0; x < vw / zoom && x < (int)ts->image_w; x++) {
      int lx = ((int)x - (int)ts->margin) % (int)(ts->tile_w + ts->spacing);
      int ly = ((int)y - (int)ts->margin) % (int)(ts->tile_h + ts->spacing);
      int col = (x - (int)ts->margin) / (int)(ts->tile_w + ts->spacing), row = (y - (int)ts->margin) / (int)(ts->tile_h + ts->spacing);
      if (lx < 2 || ly < 2 || lx >= (int)ts->tile_w - 2 || ly >= (int)ts->tile_h - 2 || (col == 0 && row == 0)) continue;
      uint32_t want = *(const uint32_t *)(sp + (size_t)y * ss + 4 * x);
      if ((want >> 24) != 255) continue;
      for (int j = 0; j < zoom; j++)
        for (int i = 0; i < zoom; i++)
          if (*(const uint32_t *)(dp + (size_t)(y * zoom + j) * ds + 4 * (x * zoom + i)) != want) {
            cairo_surface_destroy(shot);
            return -1;
          }
      checked++;
    }
  cairo_surface_destroy(shot);
  return checked;
}

/* Issue 14: the palette zooms in whole steps (buttons, clamped to 1..8),
 * each tileset pixel a square of zoom x zoom screen pixels, only the view
 * drawn; the zoom is kept in the project and comes back when it reopens. */
static void window_tile_palette_zoom(void) {
  g_autofree char *path = fixture_copy_demo("palette-zoom.tessera");
  TessWindow *w = fixture_window(path);
  TessTilePalette *palette = TESS_TILE_PALETTE(tess_window_get_tile_palette(w));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  const TessTileset *ts = tess_project_tileset(p, tess_tile_palette_get_tileset(palette));
  CHECK(ts != NULL);
  if (!ts) return;
  GtkWidget *view = tess_tile_palette_get_view(palette);
  gtk_test_widget_wait_for_draw(view);
  /* Until the user chooses: 2 for small tiles, else 1. */
  int start = ts->tile_w < 24 ? 2 : 1;
  CHECK_MSG(tess_tile_palette_get_zoom(palette) == start, "zoom %d", tess_tile_palette_get_zoom(palette));
  GtkWidget *in = button_with_tip(GTK_WIDGET(palette), "Zoom the tileset in");
  GtkWidget *out = button_with_tip(GTK_WIDGET(palette), "Zoom the tileset out");
  CHECK(in && out);
  if (!in || !out) goto done;
  g_signal_emit_by_name(in, "clicked");
  g_signal_emit_by_name(in, "clicked");
  fixture_spin();
  CHECK(tess_tile_palette_get_zoom(palette) == start + 2);
  int cw, ch;
  tess_scroll_area_get_content_size(TESS_SCROLL_AREA(view), &cw, &ch);
  CHECK_MSG(cw == (int)ts->image_w * (start + 2) && ch == (int)ts->image_h * (start + 2), "content %d x %d", cw, ch);
  gtk_adjustment_set_value(gtk_scrollable_get_hadjustment(GTK_SCROLLABLE(view)), 0);
  gtk_adjustment_set_value(gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(view)), 0);
  int n = whole_step_pixels(palette, ts, start + 2);
  CHECK_MSG(n >= 100, "%d tileset pixels checked as %d x %d squares", n, start + 2, start + 2);
  g_signal_emit_by_name(out, "clicked");
  CHECK(tess_tile_palette_get_zoom(palette) == start + 1);
  /* Whole steps from 1 to 8, no further; the buttons say so. */
  tess_tile_palette_set_zoom(palette, 99);
  CHECK(tess_tile_palette_get_zoom(palette) == TESS_TILE_PALETTE_ZOOM_MAX && !gtk_widget_get_sensitive(in));
  tess_tile_palette_set_zoom(palette, -3);
  CHECK(tess_tile_palette_get_zoom(palette) == TESS_TILE_PALETTE_ZOOM_MIN && !gtk_widget_get_sensitive(out));
  tess_tile_palette_set_zoom(palette, 3);
  fixture_close(w);
  /* Reopened: the palette shows the zoom chosen last. */
  w = fixture_window(path);
  palette = TESS_TILE_PALETTE(tess_window_get_tile_palette(w));
  CHECK_MSG(tess_tile_palette_get_zoom(palette) == 3, "zoom %d after reopening", tess_tile_palette_get_zoom(palette));
done:
  fixture_close(w);
}

/* The object inspector: body fields and typed custom properties. */
static void window_object_inspector(void) {
  g_autofree char *path = fixture_copy_demo("objects.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLevel *level = fixture_level(w);
  TessObject obj;
  tess_object_default(&obj, TESS_OBJECT_BODY);
  tess_ui_copy_name(obj.name, "Crate");
  obj.pos = tess_v2(100, 50);
  TessId id = fixture_add_object(w, &obj);
  tess_object_clear(&obj);
  if (!id) return;

  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_object(insp, level->id, id);
  CHECK(tess_object_inspector_get_object(insp) == id);
  TessObject copy;
  CHECK_OK(tess_object_copy(&copy, tess_level_object(level, id, NULL)), NULL);
  copy.u.body.type = TESS_BODY_KINEMATIC;
  copy.u.body.sensor = 1;
  copy.u.body.category = 0x4;
  copy.u.body.mask = 0xFFFF00FF;
  copy.u.body.pin = TESS_PIN_AT_OVERLAP_CENTRE;
  copy.u.body.material = p->materials[2].id;
  CHECK(tess_object_inspector_apply(insp, &copy));
  tess_object_clear(&copy);
  /* A NaN radius is refused (validated before the edit). */
  CHECK_OK(tess_object_copy(&copy, tess_level_object(level, id, NULL)), NULL);
  copy.u.body.radius = NAN;
  CHECK(!tess_object_inspector_apply(insp, &copy));
  tess_object_clear(&copy);

  TessProperty prop;
  memset(&prop, 0, sizeof prop);
  g_strlcpy(prop.name, "score", sizeof prop.name);
  prop.type = TESS_PROP_INT;
  prop.v.i = 250;
  CHECK(tess_object_inspector_set_property(insp, &prop));
  g_strlcpy(prop.name, "label", sizeof prop.name);
  prop.type = TESS_PROP_STRING;
  prop.v.s = (char *)"Bonus crate";
  CHECK(tess_object_inspector_set_property(insp, &prop));
  g_strlcpy(prop.name, "tint", sizeof prop.name);
  prop.type = TESS_PROP_COLOR;
  prop.v.color = 0xFF8000FF;
  CHECK(tess_object_inspector_set_property(insp, &prop));
  g_strlcpy(prop.name, "fragile", sizeof prop.name);
  prop.type = TESS_PROP_BOOL;
  prop.v.b = true;
  CHECK(tess_object_inspector_set_property(insp, &prop));
  g_strlcpy(prop.name, "mass scale", sizeof prop.name);
  prop.type = TESS_PROP_FLOAT;
  prop.v.f = 1.5;
  CHECK(tess_object_inspector_set_property(insp, &prop));
  CHECK(tess_object_inspector_remove_property(insp, "fragile"));
  fixture_spin();

  TessProject *disk = fixture_load(path);
  const TessObject *o = disk ? tess_level_object(tess_project_level(disk, level->id), id, NULL) : NULL;
  CHECK(o && o->u.body.type == TESS_BODY_KINEMATIC && o->u.body.sensor && o->u.body.category == 0x4);
  CHECK(o && o->u.body.mask == 0xFFFF00FF && o->u.body.pin == TESS_PIN_AT_OVERLAP_CENTRE);
  CHECK(o && o->u.body.material == p->materials[2].id && isfinite(o->u.body.radius));
  const TessProperty *pp = o ? tess_object_property(o, "score") : NULL;
  CHECK(pp && pp->type == TESS_PROP_INT && pp->v.i == 250);
  pp = o ? tess_object_property(o, "label") : NULL;
  CHECK(pp && pp->type == TESS_PROP_STRING && strcmp(pp->v.s, "Bonus crate") == 0);
  pp = o ? tess_object_property(o, "tint") : NULL;
  CHECK(pp && pp->type == TESS_PROP_COLOR && pp->v.color == 0xFF8000FF);
  pp = o ? tess_object_property(o, "mass scale") : NULL;
  CHECK(pp && pp->type == TESS_PROP_FLOAT && pp->v.f == 1.5);
  CHECK(o && tess_object_property(o, "fragile") == NULL);
  if (disk) tess_project_destroy(disk);
  fixture_close(w);
}

/* The project file deleted while open: the window says so, offers Save a
 * Copy, and the copy holds the work done since. */
static void window_file_deleted(void) {
  g_autofree char *path = fixture_copy_demo("deleted.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  g_unlink(path);
  g_autofree char *wal = g_strconcat(path, "-wal", NULL);
  g_autofree char *shm = g_strconcat(path, "-shm", NULL);
  g_unlink(wal);
  g_unlink(shm);
  /* The next edit notices (no focus change needed). */
  TessLevel *level0 = fixture_level(w);
  TessCell c0 = TESS_CELL_MAKE(p->tilesets[0]->id, 2, 0);
  TessError err0 = {0};
  CHECK_OK(tess_edit_paint(p, level0->id, fixture_tile_layer(level0)->props.id, 6, 6, 1, 1, &c0, 0, &err0), &err0);
  tess_document_commit(doc, NULL);
  fixture_spin();
  CHECK(tess_document_get_unsaved(doc));
  CHECK(!tess_document_check_file(doc));
  CHECK(tess_window_get_reported(w) && strstr(tess_window_get_reported(w), "deleted.tessera") != NULL);

  TessLevel *level = fixture_level(w);
  TessLayer *layer = fixture_tile_layer(level);
  TessCell cell = TESS_CELL_MAKE(p->tilesets[0]->id, 4, 0);
  TessError err = {0};
  CHECK_OK(tess_edit_paint(p, level->id, layer->props.id, 5, 5, 1, 1, &cell, 0, &err), &err);
  tess_document_commit(doc, NULL);

  char buf[1024];
  const char *rescue = tess_test_path(buf, sizeof buf, "rescued.tessera");
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_save_copy(doc, rescue, &error));
  CHECK(!tess_document_get_unsaved(doc));
  TessProject *disk = fixture_load(rescue);
  CHECK(disk && tess_layer_cell(tess_level_layer(tess_project_level(disk, level->id), layer->props.id), 5, 5) == cell);
  CHECK(disk && tess_layer_cell(tess_level_layer(tess_project_level(disk, level->id), layer->props.id), 6, 6) == c0);
  CHECK(disk && disk->material_count == p->material_count && disk->tileset_count == p->tileset_count);
  if (disk) tess_project_destroy(disk);
  fixture_close(w);
}

/* The status bar follows the map view's pointer: cell, tile, effective material, zoom. */
static void window_status_bar(void) {
  g_autofree char *path = fixture_copy_demo("status.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLevel *level = fixture_level(w);
  GtkWidget *view = tess_window_get_map_view(w);
  /* A wall cell of the demo (the level's left column) and an empty one. */
  uint32_t wx = 0, wy = 3;
  TessCellCollision col;
  tess_level_cell_collision(p, level, wx, wy, &col);
  CHECK(col.cell != 0 && col.material != 0);
  g_signal_emit_by_name(view, "cursor-moved", (int)wx, (int)wy);
  CHECK(strcmp(tess_window_get_status(w, "cell"), "Cell 0, 3") == 0);
  const TessTileset *ts = tess_project_tileset(p, TESS_CELL_TILESET(col.cell));
  g_autofree char *tile = g_strdup_printf("Tile %s #%u", ts->name, TESS_CELL_TILE(col.cell));
  CHECK_MSG(strcmp(tess_window_get_status(w, "tile"), tile) == 0, "tile: %s", tess_window_get_status(w, "tile"));
  g_autofree char *mat = g_strdup_printf("Material %s", tess_project_material(p, col.material)->name);
  CHECK_MSG(strcmp(tess_window_get_status(w, "material"), mat) == 0, "material: %s", tess_window_get_status(w, "material"));
  /* An edit under a still pointer shows at once (the pointer did not move). */
  uint32_t ex = 5, ey = 5;
  TessLayer *ground = tess_level_layer(level, tess_window_get_layer(w));
  CHECK(ground && ground->props.kind == TESS_LAYER_TILES && tess_layer_cell(ground, ex, ey) == 0);
  g_signal_emit_by_name(view, "cursor-moved", (int)ex, (int)ey);
  CHECK(strcmp(tess_window_get_status(w, "tile"), "No tile") == 0);
  TessError err = {0};
  TessCell painted = col.cell;
  CHECK_OK(tess_edit_paint(p, level->id, ground->props.id, ex, ey, 1, 1, &painted, 0, &err), &err);
  CHECK(tess_document_commit(tess_window_get_document(w), NULL));
  g_autofree char *painted_text = g_strdup_printf("Tile %s #%u", ts->name, TESS_CELL_TILE(col.cell));
  CHECK_MSG(strcmp(tess_window_get_status(w, "tile"), painted_text) == 0, "after the edit: %s",
            tess_window_get_status(w, "tile"));
  g_signal_emit_by_name(view, "cursor-moved", -1, -1);
  CHECK(strcmp(tess_window_get_status(w, "cell"), "") == 0);
  /* Zoom in doubles the zoom the level opened with (fitted to the view). */
  double zoom0 = tess_map_view_get_zoom(TESS_MAP_VIEW(view));
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.zoom-in", NULL));
  fixture_spin();
  g_autofree char *zoom_text = g_strdup_printf("Zoom %.0f %%", zoom0 * 200.0);
  CHECK_MSG(strcmp(tess_window_get_status(w, "zoom"), zoom_text) == 0, "zoom: %s", tess_window_get_status(w, "zoom"));

  /* Tool keys are window actions; the object tool places what the inspector says. */
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.tool", "s", "eraser"));
  g_autoptr(GVariant) state = g_action_group_get_action_state(G_ACTION_GROUP(w), "tool");
  CHECK(strcmp(g_variant_get_string(state, NULL), "eraser") == 0);
  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_template_kind(insp, 1);
  const TessObject *tmpl = tess_object_inspector_get_template(insp);
  CHECK(tmpl->kind == TESS_OBJECT_BODY && tmpl->u.body.shape == TESS_BODY_BOX);
  tess_object_inspector_set_template_kind(insp, 4);
  CHECK(tess_object_inspector_get_template(insp)->kind == TESS_OBJECT_ZONE);
  fixture_close(w);
}

/* Recent projects are kept in GSettings (memory backend in tests). */
static void application_recent_projects(void) {
  TessApplication *app = tess_application_new();
  GSettings *settings = tess_application_get_settings(app);
  CHECK_MSG(settings != NULL, "the GSettings schema was not found (GSETTINGS_SCHEMA_DIR)");
  tess_application_add_recent(app, "/tmp/a.tessera");
  tess_application_add_recent(app, "/tmp/b.tessera");
  tess_application_add_recent(app, "/tmp/a.tessera");
  const char *const *recent = tess_application_get_recent(app);
  CHECK(recent[0] && strcmp(recent[0], "/tmp/a.tessera") == 0 && recent[1] && strcmp(recent[1], "/tmp/b.tessera") == 0 && !recent[2]);
  if (settings) {
    g_auto(GStrv) stored = g_settings_get_strv(settings, "recent-projects");
    CHECK(g_strv_length(stored) == 2 && strcmp(stored[0], "/tmp/a.tessera") == 0);
  }
  for (int i = 0; i < 15; i++) {
    g_autofree char *name = g_strdup_printf("/tmp/p%d.tessera", i);
    tess_application_add_recent(app, name);
  }
  CHECK(g_strv_length((GStrv)tess_application_get_recent(app)) == 10);
  tess_application_remove_recent(app, "/tmp/p14.tessera");
  CHECK(strcmp(tess_application_get_recent(app)[0], "/tmp/p13.tessera") == 0);
  g_object_unref(app);
}

/* The window's size is kept in GSettings when it closes and used by the next window. */
static void application_window_size(void) {
  TessApplication *app = tess_application_new();
  g_autoptr(GError) error = NULL;
  CHECK(g_application_register(G_APPLICATION(app), NULL, &error));
  GSettings *settings = tess_application_get_settings(app);
  CHECK(settings != NULL);
  if (!settings) {
    g_object_unref(app);
    return;
  }
  TessWindow *w = tess_window_new(app);
  gtk_window_set_default_size(GTK_WINDOW(w), 900, 640);
  gtk_window_present(GTK_WINDOW(w));
  fixture_spin();
  gtk_window_close(GTK_WINDOW(w));
  fixture_spin();
  int sw = 0, sh = 0;
  g_settings_get(settings, "window-size", "(ii)", &sw, &sh);
  CHECK_MSG(sw == 900 && sh == 640, "saved %d x %d", sw, sh);
  TessWindow *w2 = tess_window_new(app);
  int dw = 0, dh = 0;
  gtk_window_get_default_size(GTK_WINDOW(w2), &dw, &dh);
  CHECK(dw == 900 && dh == 640);
  gtk_window_destroy(GTK_WINDOW(w2));
  fixture_spin();
  g_object_unref(app);
}

/* The whole level in view, centred, when a level opens or another is
 * selected; Ctrl+1 is actual size, Ctrl+0 fits again; a user zoom stops the
 * fit following the view's size. */
static gboolean level_fits(TessWindow *w, TessId level_id) {
  TessMapView *v = TESS_MAP_VIEW(tess_window_get_map_view(w));
  TessLevel *level = tess_project_level(tess_document_get_project(tess_window_get_document(w)), level_id);
  if (!level) return FALSE;
  double x0, y0, x1, y1;
  tess_map_view_level_to_widget(v, 0, 0, &x0, &y0);
  tess_map_view_level_to_widget(v, (double)level->settings.width * level->settings.tile_w,
                                (double)level->settings.height * level->settings.tile_h, &x1, &y1);
  int vw = gtk_widget_get_width(GTK_WIDGET(v)), vh = gtk_widget_get_height(GTK_WIDGET(v));
  /* Inside the view, and touching its margin on one axis at least (not just small). */
  gboolean inside = x0 >= -1 && y0 >= -1 && x1 <= vw + 1 && y1 <= vh + 1;
  gboolean snug = (x0 < 24 && vw - x1 < 24) || (y0 < 24 && vh - y1 < 24);
  /* Centred within a pixel or two. */
  gboolean centred = fabs(x0 - (vw - x1)) < 2.5 && fabs(y0 - (vh - y1)) < 2.5;
  return inside && snug && centred;
}

/* Runs the main loop for `ms` (a resize needs the X server's answer and a frame). */
static void spin_for(guint ms) {
  gint64 end = g_get_monotonic_time() + (gint64)ms * 1000;
  while (g_get_monotonic_time() < end)
    if (!g_main_context_iteration(NULL, FALSE)) g_usleep(2000);
}

static int map_width(TessWindow *w) { return gtk_widget_get_width(tess_window_get_map_view(w)); }

static gboolean zoom_shown(TessWindow *w) {
  g_autofree char *text =
      g_strdup_printf("Zoom %.0f %%", tess_map_view_get_zoom(TESS_MAP_VIEW(tess_window_get_map_view(w))) * 100.0);
  return g_str_equal(tess_window_get_status(w, "zoom"), text);
}

/* Runs the main loop until the map view is no longer `old_width` wide (the
 * X server answered the resize and a frame was laid out) and, when `fit`,
 * the level fits it as the status bar says; at most 20 s: a loaded machine
 * takes its time, where a fixed 300 ms wait failed now and then. */
static void spin_until_resized(TessWindow *w, int old_width, gboolean fit) {
  gint64 end = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
  while (g_get_monotonic_time() < end &&
         !(map_width(w) != old_width && (!fit || (level_fits(w, tess_window_get_level(w)) && zoom_shown(w)))))
    if (!g_main_context_iteration(NULL, FALSE)) g_usleep(2000);
  CHECK_MSG(map_width(w) != old_width, "the map view is still %d px wide", old_width);
}

static void window_fit_level(void) {
  g_autofree char *path = fixture_copy_demo("fit.tessera");
  TessWindow *w = fixture_window(path);
  int width = map_width(w);
  gtk_window_set_default_size(GTK_WINDOW(w), 1100, 700);
  spin_until_resized(w, width, TRUE);
  TessMapView *v = TESS_MAP_VIEW(tess_window_get_map_view(w));
  CHECK(gtk_widget_get_width(GTK_WIDGET(v)) > 100);
  CHECK_MSG(level_fits(w, tess_window_get_level(w)), "zoom %g", tess_map_view_get_zoom(v));
  CHECK(tess_map_view_get_zoom(v) < 1.0); /* the demo level is larger than the view */
  /* The status bar tells the fitted zoom. */
  g_autofree char *zoom_text = g_strdup_printf("Zoom %.0f %%", tess_map_view_get_zoom(v) * 100.0);
  CHECK_MSG(g_str_equal(tess_window_get_status(w, "zoom"), zoom_text), "%s vs %s", tess_window_get_status(w, "zoom"),
            zoom_text);

  /* The window grows: the fit follows. */
  double before = tess_map_view_get_zoom(v);
  width = map_width(w);
  gtk_window_set_default_size(GTK_WINDOW(w), 1300, 860);
  spin_until_resized(w, width, TRUE);
  CHECK(level_fits(w, tess_window_get_level(w)));
  CHECK(tess_map_view_get_zoom(v) > before);

  /* Actual size, then fit again. */
  g_action_group_activate_action(G_ACTION_GROUP(w), "zoom-reset", NULL);
  fixture_spin();
  CHECK_NEAR(tess_map_view_get_zoom(v), 1.0, 1e-9);
  CHECK(!tess_map_view_get_fitting(v));
  g_action_group_activate_action(G_ACTION_GROUP(w), "zoom-fit", NULL);
  fixture_spin();
  CHECK(level_fits(w, tess_window_get_level(w)));

  /* A user zoom stays when the window resizes. */
  g_action_group_activate_action(G_ACTION_GROUP(w), "zoom-in", NULL);
  double user_zoom = tess_map_view_get_zoom(v);
  width = map_width(w);
  gtk_window_set_default_size(GTK_WINDOW(w), 1100, 700);
  spin_until_resized(w, width, FALSE);
  fixture_spin();
  CHECK_NEAR(tess_map_view_get_zoom(v), user_zoom, 1e-9);

  /* Another level opens whole in view. */
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  CHECK(p->level_count >= 2);
  TessId other = p->levels[0]->id == tess_window_get_level(w) ? p->levels[1]->id : p->levels[0]->id;
  tess_layers_panel_select_level(TESS_LAYERS_PANEL(tess_window_get_layers_panel(w)), other);
  fixture_spin();
  CHECK(tess_window_get_level(w) == other);
  CHECK(level_fits(w, other));
  fixture_close(w);
}

/* Play mode fits between the side panels of a 1200 px wide window: the
 * right-hand panel stays whole inside the window. */
static gboolean right_panel_inside(TessWindow *w) {
  GtkWidget *palette = tess_window_get_tile_palette(w);
  graphene_rect_t r;
  if (!gtk_widget_compute_bounds(palette, GTK_WIDGET(w), &r)) return FALSE;
  return r.size.width > 100 && r.origin.x + r.size.width <= gtk_widget_get_width(GTK_WIDGET(w));
}

static void window_play_fits(void) {
  g_autofree char *path = fixture_copy_demo("play-fits.tessera");
  TessWindow *w = fixture_window(path);
  gtk_window_set_default_size(GTK_WINDOW(w), 1200, 760);
  /* The X server's answer first (it may be slow to come on a loaded machine). */
  gint64 end = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
  while (gtk_widget_get_width(GTK_WIDGET(w)) > 1200 && g_get_monotonic_time() < end)
    if (!g_main_context_iteration(NULL, FALSE)) g_usleep(2000);
  spin_for(300);
  CHECK(right_panel_inside(w));
  if (g_action_group_has_action(G_ACTION_GROUP(w), "play")) {
    g_action_group_change_action_state(G_ACTION_GROUP(w), "play", g_variant_new_boolean(TRUE));
    spin_for(300);
    CHECK_MSG(gtk_widget_get_width(GTK_WIDGET(w)) <= 1200, "window %d px wide in Play mode", gtk_widget_get_width(GTK_WIDGET(w)));
    CHECK(right_panel_inside(w));
    g_action_group_change_action_state(G_ACTION_GROUP(w), "play", g_variant_new_boolean(FALSE));
    spin_for(100);
  }
  fixture_close(w);
}

static const TessJointObject *joint_of(TessWindow *w, TessId id) {
  const TessObject *o = tess_level_object(fixture_level(w), id, NULL);
  return o ? &o->u.joint : NULL;
}

/* The object inspector's pin rows: the motor switched on and set in rpm and
 * N m, limits in degrees kept lower <= upper, letters and NaN refused; each
 * change one undo step; the file holds what the model holds. A distance
 * joint shows its length. */
static void window_pin_joint_inspector(void) {
  g_autofree char *path = fixture_copy_demo("pin.tessera");
  TessWindow *w = fixture_window(path);
  TessLevel *level = fixture_level(w);
  TessObject obj;
  tess_object_default(&obj, TESS_OBJECT_BODY);
  tess_ui_copy_name(obj.name, "Wheel");
  obj.pos = tess_v2(120, 40);
  TessId wheel = fixture_add_object(w, &obj);
  tess_object_default(&obj, TESS_OBJECT_JOINT);
  tess_ui_copy_name(obj.name, "Axle");
  obj.pos = tess_v2(120, 40);
  obj.u.joint.body_b = wheel;
  TessId pin = fixture_add_object(w, &obj);
  tess_object_default(&obj, TESS_OBJECT_JOINT);
  tess_ui_copy_name(obj.name, "Rod");
  obj.u.joint.kind = TESS_JOINT_DISTANCE;
  obj.pos = tess_v2(120, 40);
  obj.u.joint.anchor_b = tess_v2(120, 10);
  obj.u.joint.body_a = wheel;
  TessId rod = fixture_add_object(w, &obj);
  if (!wheel || !pin || !rod) {
    fixture_close(w);
    return;
  }

  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_object(insp, level->id, pin);
  fixture_spin();
  GtkWidget *root = GTK_WIDGET(insp);
  GtkWidget *motor = fixture_find_named(root, "joint-motor"), *speed = fixture_find_named(root, "joint-motor-speed");
  GtkWidget *torque = fixture_find_named(root, "joint-motor-torque"), *limits = fixture_find_named(root, "joint-limit");
  GtkWidget *lower = fixture_find_named(root, "joint-lower"), *upper = fixture_find_named(root, "joint-upper");
  CHECK(motor && speed && torque && limits && lower && upper && !fixture_find_named(root, "joint-length"));
  if (!(motor && speed && torque && limits && lower && upper)) {
    fixture_close(w);
    return;
  }
  /* Off by default: the motor's fields wait for the switch. The limits show the default ±180°. */
  CHECK(!gtk_check_button_get_active(GTK_CHECK_BUTTON(motor)) && !gtk_widget_get_sensitive(speed));
  CHECK_NEAR(gtk_spin_button_get_value(GTK_SPIN_BUTTON(lower)), -180.0, 1e-3);
  CHECK_NEAR(gtk_spin_button_get_value(GTK_SPIN_BUTTON(upper)), 180.0, 1e-3);

  gtk_check_button_set_active(GTK_CHECK_BUTTON(motor), TRUE);
  fixture_spin();
  CHECK(joint_of(w, pin)->motor_enabled == 1 && gtk_widget_get_sensitive(speed) && gtk_widget_get_sensitive(torque));
  fixture_type_into(speed, "60"); /* one turn a second */
  CHECK_NEAR(joint_of(w, pin)->motor_speed, 2.0 * G_PI, 1e-5);
  fixture_type_into(torque, "250");
  CHECK(joint_of(w, pin)->motor_torque == 250.0f);
  /* Letters, NaN and a negative torque are refused; the model keeps its values. */
  const char *bad[] = {"fast", "nan", "NaN", "1e400", "--3"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    fixture_type_into(speed, bad[i]);
    fixture_type_into(torque, bad[i]);
    CHECK_MSG(fabs(joint_of(w, pin)->motor_speed - 2.0 * G_PI) < 1e-5,
              "'%s' changed the speed to %g", bad[i], joint_of(w, pin)->motor_speed);
    CHECK_MSG(joint_of(w, pin)->motor_torque == 250.0f, "'%s' changed the torque to %g", bad[i], joint_of(w, pin)->motor_torque);
  }
  fixture_type_into(torque, "-5");
  CHECK(joint_of(w, pin)->motor_torque >= 0.0f && isfinite(joint_of(w, pin)->motor_torque));
  fixture_type_into(torque, "250");
  fixture_type_into(speed, "-30"); /* backwards, half a turn a second */
  CHECK_NEAR(joint_of(w, pin)->motor_speed, -G_PI, 1e-5);
  /* One undo step per change: undo brings back 60 rpm and leaves the torque. */
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  CHECK_NEAR(joint_of(w, pin)->motor_speed, 2.0 * G_PI, 1e-5);
  CHECK(joint_of(w, pin)->motor_torque == 250.0f && joint_of(w, pin)->motor_enabled == 1);
  /* The inspector rebuilt after the undo shows the model's value. */
  speed = fixture_find_named(root, "joint-motor-speed");
  CHECK(speed && fabs(gtk_spin_button_get_value(GTK_SPIN_BUTTON(speed)) - 60.0) < 0.05);

  /* Limits in degrees; lower never passes upper. */
  limits = fixture_find_named(root, "joint-limit");
  lower = fixture_find_named(root, "joint-lower");
  upper = fixture_find_named(root, "joint-upper");
  CHECK(limits && lower && upper);
  if (limits && lower && upper) {
    CHECK(!gtk_widget_get_sensitive(lower));
    gtk_check_button_set_active(GTK_CHECK_BUTTON(limits), TRUE);
    fixture_spin();
    CHECK(joint_of(w, pin)->limit_enabled == 1 && gtk_widget_get_sensitive(lower));
    fixture_type_into(lower, "-30");
    CHECK_NEAR(joint_of(w, pin)->lower, -G_PI / 6.0, 1e-5);
    fixture_type_into(upper, "-60"); /* typed below lower: refused */
    CHECK_NEAR(joint_of(w, pin)->upper, G_PI, 1e-5);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(upper), -60.0); /* stepped below lower: held at lower */
    fixture_spin();
    CHECK(joint_of(w, pin)->upper >= joint_of(w, pin)->lower);
    CHECK_NEAR(joint_of(w, pin)->upper, -G_PI / 6.0, 1e-5);
    fixture_type_into(upper, "90");
    CHECK_NEAR(joint_of(w, pin)->upper, G_PI / 2.0, 1e-5);
    fixture_type_into(lower, "120"); /* typed above upper: refused */
    CHECK_NEAR(joint_of(w, pin)->lower, -G_PI / 6.0, 1e-5);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(lower), 120.0); /* held at upper */
    fixture_spin();
    CHECK(joint_of(w, pin)->lower <= joint_of(w, pin)->upper);
    CHECK_NEAR(joint_of(w, pin)->lower, G_PI / 2.0, 1e-5);
    fixture_type_into(lower, "-45");
    CHECK_NEAR(joint_of(w, pin)->lower, -G_PI / 4.0, 1e-5);
    fixture_type_into(lower, "abc");
    CHECK_NEAR(joint_of(w, pin)->lower, -G_PI / 4.0, 1e-5);
  }

  /* The file (read as another process would) holds the same joint. */
  TessProject *disk = fixture_load(path);
  const TessObject *o = disk ? tess_level_object(tess_project_level(disk, level->id), pin, NULL) : NULL;
  CHECK(o && o->u.joint.motor_enabled == 1 && o->u.joint.motor_torque == 250.0f);
  CHECK(o && fabs(o->u.joint.motor_speed - 2.0 * G_PI) < 1e-5);
  CHECK(o && o->u.joint.limit_enabled == 1 && fabs(o->u.joint.lower + G_PI / 4.0) < 1e-5 &&
        fabs(o->u.joint.upper - G_PI / 2.0) < 1e-5);
  if (disk) tess_project_destroy(disk);

  /* Switching the motor off keeps its settings for later. */
  motor = fixture_find_named(root, "joint-motor");
  if (motor) gtk_check_button_set_active(GTK_CHECK_BUTTON(motor), FALSE);
  fixture_spin();
  CHECK(joint_of(w, pin)->motor_enabled == 0 && joint_of(w, pin)->motor_torque == 250.0f);

  /* A distance joint: its length, no pin rows. */
  tess_object_inspector_set_object(insp, level->id, rod);
  fixture_spin();
  GtkWidget *length = fixture_find_named(root, "joint-length");
  CHECK(length && !fixture_find_named(root, "joint-motor") && !fixture_find_named(root, "joint-limit"));
  if (length) {
    fixture_type_into(length, "80");
    CHECK(joint_of(w, rod)->length == 80.0f);
    fixture_type_into(length, "long");
    CHECK(joint_of(w, rod)->length == 80.0f);
  }
  disk = fixture_load(path);
  o = disk ? tess_level_object(tess_project_level(disk, level->id), rod, NULL) : NULL;
  CHECK(o && o->u.joint.length == 80.0f);
  if (disk) tess_project_destroy(disk);
  tess_object_clear(&obj);
  fixture_close(w);
}

static const TessTestCase cases[] = {
    TEST(document_commit_undo_redo),
    TEST(document_save_copy),
    TEST(document_new_project),
    TEST(document_open_refuses_bad_files),
    TEST(window_open_error_dialog),
    TEST(window_undo_redo_actions),
    TEST(window_layers_panel),
    TEST(window_material_inspector),
    TEST(window_level_properties),
    TEST(window_drop_file),
    TEST(window_add_tileset),
    TEST(window_remove_tileset_remap),
    TEST(window_tile_palette_stamp),
    TEST(window_tile_palette_zoom),
    TEST(window_object_inspector),
    TEST(window_pin_joint_inspector),
    TEST(window_file_deleted),
    TEST(window_status_bar),
    TEST(application_recent_projects),
    TEST(application_window_size),
    TEST(window_fit_level),
    TEST(window_play_fits),
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
