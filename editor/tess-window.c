/* TessWindow: the editor window. */
#include "tess-window-private.h"
#include "tess-icon-guard.h"
#include "tess-problems.h"

G_DEFINE_FINAL_TYPE(TessWindow, tess_window, GTK_TYPE_APPLICATION_WINDOW)

/* Short local names for the shared helpers (tess-window-private.h). */
#define project _tess_window_project
#define current_level _tess_window_current_level
#define show_side _tess_window_show_side
#define remember_dialog _tess_window_remember_dialog
#define update_title _tess_window_update_title
#define update_actions _tess_window_update_actions
#define map _tess_window_map

static TessDocument *preview_query(gpointer user, TessId *level, const TessObject **spawn) {
  TessWindow *self = user;
  *level = self->level;
  *spawn = tess_object_inspector_get_template(self->object_inspector); /* what a click drops */
  return self->doc;
}

/* ---- Small helpers --------------------------------------------------------- */

void tess_window_report(TessWindow *self, const char *message) {
  g_return_if_fail(TESS_IS_WINDOW(self));
  g_free(self->reported);
  self->reported = g_strdup(message);
  gtk_label_set_text(self->message_label, message);
  gboolean unsaved = self->doc && tess_document_get_unsaved(self->doc);
  gtk_info_bar_set_message_type(self->message_bar, unsaved ? GTK_MESSAGE_ERROR : GTK_MESSAGE_WARNING);
  gtk_widget_set_visible(self->save_copy_button, unsaved);
  gtk_info_bar_set_revealed(self->message_bar, TRUE);
}

void tess_window_notify(TessWindow *self, const char *message, const char *button_label, const char *action_name) {
  g_return_if_fail(TESS_IS_WINDOW(self));
  g_free(self->reported);
  self->reported = g_strdup(message);
  tess_toast_show(self->toast, message, button_label, action_name);
}

GtkWidget *tess_window_get_toast(TessWindow *self) { return GTK_WIDGET(self->toast); }

const char *tess_window_get_reported(TessWindow *self) { return self->reported; }

static void on_message_response(GtkInfoBar *bar, int response, TessWindow *self) {
  if (response == GTK_RESPONSE_CLOSE) gtk_info_bar_set_revealed(bar, FALSE);
}

/* ---- Title, status ---------------------------------------------------------- */

void _tess_window_update_title(TessWindow *self) {
  if (!self->doc) {
    gtk_window_set_title(GTK_WINDOW(self), _("Tessera"));
    return;
  }
  g_autofree char *name = tess_document_dup_name(self->doc);
  TessLevel *level = current_level(self);
  /* "project — level", as GNOME applications title a document and its part. */
  g_autofree char *title = level ? g_strdup_printf(_("%s — %s"), name, level->settings.name) : g_strdup(name);
  gtk_window_set_title(GTK_WINDOW(self), title);
}

static void set_zoom_label(TessWindow *self, double zoom) {
  g_autofree char *text = g_strdup_printf(_("Zoom %.0f %%"), zoom * 100.0);
  gtk_label_set_text(self->status_zoom, text);
}

static void show_cell(TessWindow *self, int x, int y) {
  TessProject *p = project(self);
  TessLevel *level = current_level(self);
  if (!p || !level || x < 0 || y < 0 || (uint32_t)x >= level->settings.width || (uint32_t)y >= level->settings.height) {
    gtk_label_set_text(self->status_cell, "");
    gtk_label_set_text(self->status_tile, "");
    gtk_label_set_text(self->status_material, "");
    return;
  }
  g_autofree char *cell_text = g_strdup_printf(_("Cell %d, %d"), x, y);
  gtk_label_set_text(self->status_cell, cell_text);

  /* The tile of the layer being edited, else the one that gives the cell its shape. */
  TessCellCollision col;
  tess_level_cell_collision(p, level, (uint32_t)x, (uint32_t)y, &col);
  TessLayer *layer = tess_level_layer(level, self->layer);
  TessCell cell = (layer && layer->props.kind == TESS_LAYER_TILES) ? tess_layer_cell(layer, (uint32_t)x, (uint32_t)y) : 0;
  if (!cell) cell = col.cell;
  g_autofree char *tile_text = NULL;
  if (cell) {
    TessTileset *ts = tess_project_tileset(p, TESS_CELL_TILESET(cell));
    tile_text = g_strdup_printf(_("Tile %s #%u"), ts ? ts->name : "?", TESS_CELL_TILE(cell));
  } else {
    tile_text = g_strdup(_("No tile"));
  }
  gtk_label_set_text(self->status_tile, tile_text);

  const TessMaterial *m = col.material ? tess_project_material(p, col.material) : NULL;
  g_autofree char *mat_text = m ? g_strdup_printf(_("Material %s"), m->name) : g_strdup(_("No material"));
  gtk_label_set_text(self->status_material, mat_text);
}

const char *tess_window_get_status(TessWindow *self, const char *which) {
  if (g_str_equal(which, "cell")) return gtk_label_get_text(self->status_cell);
  if (g_str_equal(which, "tile")) return gtk_label_get_text(self->status_tile);
  if (g_str_equal(which, "material")) return gtk_label_get_text(self->status_material);
  if (g_str_equal(which, "zoom")) return gtk_label_get_text(self->status_zoom);
  if (g_str_equal(which, "hint")) return gtk_label_get_text(self->status_hint);
  return NULL;
}

/* ---- The map view ------------------------------------------------------------ */

static void on_cursor_moved(TessMapView *v, int x, int y, TessWindow *self) {
  self->cursor_x = x;
  self->cursor_y = y;
  show_cell(self, x, y);
}

/* The zoom of the page shown: the map's, or Play's canvas (which zooms on its own). */
static void show_zoom(TessWindow *self) {
  if (gtk_stack_get_visible_child(self->map_stack) == self->preview_view)
    set_zoom_label(self, tess_preview_view_get_zoom(TESS_PREVIEW_VIEW(self->preview_view)));
  else set_zoom_label(self, tess_map_view_get_zoom(map(self)));
}
static void on_zoom_changed(GtkWidget *view, TessWindow *self) { show_zoom(self); }
static void on_page_shown(GtkStack *stack, GParamSpec *pspec, TessWindow *self) {
  show_zoom(self);
  /* The map's tool waits while Play shows: its hint would speak of clicks Play does not take. */
  gtk_widget_set_visible(GTK_WIDGET(self->status_hint), gtk_stack_get_visible_child(stack) != self->preview_view);
}

static void on_object_selected(TessMapView *v, guint id, TessWindow *self) {
  tess_object_inspector_set_object(self->object_inspector, self->level, id);
  if (id) show_side(self, 2);
}

/* For the end-to-end test (TESS_TEST_GEOMETRY_FILE): where the level's
 * (0, 0) corner is in the X window's coordinates, the zoom and the tile
 * size, rewritten whenever they change, so xdotool can aim at cells
 * whatever the layout and the fitted zoom; and the map's tool (a TessTool
 * number), so a test waits for a tool key to arrive instead of sleeping. */
static gboolean write_test_geometry(GtkWidget *widget, GdkFrameClock *clock, gpointer user) {
  TessWindow *self = user;
  const char *path = g_getenv("TESS_TEST_GEOMETRY_FILE");
  TessLevel *level = current_level(self);
  GtkNative *native = gtk_widget_get_native(widget);
  if (!path || !level || !native || gtk_widget_get_width(widget) <= 0) return G_SOURCE_CONTINUE;
  double lx, ly, sx, sy;
  tess_map_view_level_to_widget(map(self), 0, 0, &lx, &ly);
  graphene_point_t in = GRAPHENE_POINT_INIT((float)lx, (float)ly), out;
  if (!gtk_widget_compute_point(widget, GTK_WIDGET(native), &in, &out)) return G_SOURCE_CONTINUE;
  gtk_native_get_surface_transform(native, &sx, &sy);
  g_autofree char *text = g_strdup_printf("origin_x=%.2f\norigin_y=%.2f\nzoom=%.6f\ntile_w=%u\ntile_h=%u\ntool=%d\n",
                                          out.x + sx, out.y + sy, tess_map_view_get_zoom(map(self)),
                                          level->settings.tile_w, level->settings.tile_h,
                                          (int)tess_map_view_get_tool(map(self)));
  const char *last = g_object_get_data(G_OBJECT(widget), "tess-test-geometry");
  if (g_strcmp0(last, text) != 0) {
    g_file_set_contents(path, text, -1, NULL);
    g_object_set_data_full(G_OBJECT(widget), "tess-test-geometry", g_strdup(text), g_free);
  }
  return G_SOURCE_CONTINUE;
}

static void on_template_changed(TessObjectInspector *insp, TessWindow *self) {
  tess_map_view_set_object_template(map(self), tess_object_inspector_get_template(insp));
}

static void push_stamp(TessWindow *self) {
  uint32_t w, h;
  const TessCell *cells;
  if (tess_tile_palette_get_stamp(self->tile_palette, &w, &h, &cells)) tess_map_view_set_stamp(map(self), w, h, cells);
}

static void on_stamp_picked(TessMapView *v, TessWindow *self) {
  /* The picker chose tiles on the map: the palette shows them when it can. */
  uint32_t w, h;
  const TessCell *cells;
  if (tess_map_view_get_stamp(v, &w, &h, &cells)) tess_tile_palette_follow_stamp(self->tile_palette, w, h, cells);
  show_side(self, 0);
}

/* The palette's terrain colour (or none) is what the brush, rectangle and
 * bucket paint; choosing one means painting with it next. */
static void on_terrain_changed(TessTilePalette *palette, TessWindow *self) {
  TessId tileset = 0;
  uint32_t set = 0, color = 0;
  gboolean on = tess_tile_palette_get_terrain(palette, &tileset, &set, &color);
  tess_map_view_set_terrain(map(self), tileset, set, on ? color : 0);
  if (!on) return;
  GVariant *state = g_action_get_state(G_ACTION(g_action_map_lookup_action(G_ACTION_MAP(self), "tool")));
  const char *tool = g_variant_get_string(state, NULL);
  if (!g_str_equal(tool, "brush") && !g_str_equal(tool, "rectangle") && !g_str_equal(tool, "bucket"))
    g_action_group_activate_action(G_ACTION_GROUP(self), "tool", g_variant_new_string("brush"));
  g_variant_unref(state);
}

static void on_stamp_changed(TessTilePalette *palette, TessWindow *self) {
  push_stamp(self);
  /* Picking tiles means painting them next. */
  GVariant *state = g_action_get_state(G_ACTION(g_action_map_lookup_action(G_ACTION_MAP(self), "tool")));
  const char *tool = g_variant_get_string(state, NULL);
  if (g_str_equal(tool, "eraser") || g_str_equal(tool, "picker") || g_str_equal(tool, "material") ||
      g_str_equal(tool, "object") || g_str_equal(tool, "select"))
    g_action_group_activate_action(G_ACTION_GROUP(self), "tool", g_variant_new_string("brush"));
  g_variant_unref(state);
}

static void on_material_selected(TessMaterialPanel *panel, guint id, TessWindow *self) {
  tess_map_view_set_material(map(self), id);
}

static void on_level_selected(TessLayersPanel *panel, guint id, TessWindow *self) {
  self->level = id;
  tess_map_view_set_level(map(self), id);
  tess_object_inspector_set_object(self->object_inspector, id, 0);
  update_title(self);
}

static void on_layer_selected(TessLayersPanel *panel, guint id, TessWindow *self) {
  self->layer = id;
  tess_map_view_set_layer(map(self), id);
}

GtkWidget *tess_window_get_map_view(TessWindow *self) { return self->map_view; }
GtkWidget *tess_window_get_layers_panel(TessWindow *self) { return GTK_WIDGET(self->layers_panel); }
GtkWidget *tess_window_get_tile_palette(TessWindow *self) { return GTK_WIDGET(self->tile_palette); }
GtkWidget *tess_window_get_material_panel(TessWindow *self) { return GTK_WIDGET(self->material_panel); }
GtkWidget *tess_window_get_object_inspector(TessWindow *self) { return GTK_WIDGET(self->object_inspector); }
GtkDropTarget *tess_window_get_drop_target(TessWindow *self) { return self->drop_target; }
GtkWindow *tess_window_get_last_dialog(TessWindow *self) { return self->last_dialog; }
TessId tess_window_get_level(TessWindow *self) { return self->level; }
TessId tess_window_get_layer(TessWindow *self) { return self->layer; }

/* ---- Document ------------------------------------------------------------------ */

static void on_committed(TessDocument *doc, TessWindow *self) {
  /* SQLite keeps writing into a file deleted under it: look at the path
   * itself (one stat) so the user hears of it at the next edit. */
  if (!tess_document_get_unsaved(doc)) tess_document_check_file(doc);
  /* A toast's Undo undoes the step it announced: a later edit takes it away. */
  if (tess_toast_get_message(self->toast) && gtk_widget_get_visible(tess_toast_get_button(self->toast)))
    tess_toast_dismiss(self->toast);
  /* The cell under the pointer may have just been painted: its tile and material change. */
  show_cell(self, self->cursor_x, self->cursor_y);
  update_actions(self);
  update_title(self);
  /* Fold the WAL into the file after a few idle seconds. */
  if (self->checkpoint_source) g_source_remove(self->checkpoint_source);
  self->checkpoint_source = 0;
}

static gboolean checkpoint_idle(gpointer user) {
  TessWindow *self = user;
  self->checkpoint_source = 0;
  if (self->doc) tess_document_checkpoint(self->doc);
  return G_SOURCE_REMOVE;
}

void _tess_window_schedule_checkpoint(TessWindow *self) {
  if (self->checkpoint_source) g_source_remove(self->checkpoint_source);
  self->checkpoint_source = g_timeout_add_seconds(3, checkpoint_idle, self);
}

static void show_open_error(TessWindow *self, const char *path, const char *reason);

/* The project file was replaced on disk (a `load --force` after a pull):
 * close ours first, so no SQLite connection to the old file shares the
 * path's -wal and -shm with the new one, then open the new file. Every edit
 * was already committed, so nothing is lost. */
gboolean tess_window_reload_if_replaced(TessWindow *self) {
  g_return_val_if_fail(TESS_IS_WINDOW(self), FALSE);
  if (!self->doc || tess_document_get_unsaved(self->doc) || !tess_document_file_replaced(self->doc)) return FALSE;
  g_autofree char *path = g_strdup(tess_document_get_path(self->doc));
  g_autofree char *level = NULL;
  TessLevel *current = tess_project_level(tess_document_get_project(self->doc), self->level);
  if (current) level = g_strdup(current->settings.name);
  guint refused = tess_document_get_refused_edits(self->doc);
  tess_window_set_document(self, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TessDocument) doc = tess_document_open(path, &error);
  if (!doc) {
    show_open_error(self, path, error->message);
    return TRUE;
  }
  tess_window_set_document(self, doc);
  TessLevel *again = level ? tess_project_level_by_name(tess_document_get_project(doc), level) : NULL;
  if (again) tess_layers_panel_select_level(self->layers_panel, again->id);
  g_autofree char *name = g_filename_display_basename(path);
  g_autofree char *msg =
      refused ? g_strdup_printf(_("“%s” was replaced on disk and has been reloaded. Your last edit came after it was "
                                  "replaced and was not applied: make it again."),
                                name)
              : g_strdup_printf(_("“%s” was replaced on disk and has been reloaded."), name);
  tess_window_report(self, msg);
  return TRUE;
}

static gboolean replaced_poll(gpointer user) {
  tess_window_reload_if_replaced(user);
  return G_SOURCE_CONTINUE;
}

/* A commit was refused because the file had been replaced: reload now, not
 * at the next poll (the refusal is reported by the widget that committed). */
static gboolean replaced_now(gpointer user) {
  TessWindow *self = user;
  self->replaced_idle = 0;
  tess_window_reload_if_replaced(self);
  return G_SOURCE_REMOVE;
}

static void on_replaced(TessDocument *doc, TessWindow *self) {
  if (!self->replaced_idle) self->replaced_idle = g_idle_add(replaced_now, self);
}

static void on_dump_failed(TessDumpKeeper *keeper, const char *message, TessWindow *self) {
  tess_window_report(self, message);
}

/* Stops the keeper of the document being let go: its last edits reach the dump first. */
static void drop_dump_keeper(TessWindow *self) {
  if (!self->dump_keeper) return;
  g_signal_handlers_disconnect_by_data(self->dump_keeper, self);
  tess_dump_keeper_finish(self->dump_keeper);
  g_clear_object(&self->dump_keeper);
}

TessDumpKeeper *tess_window_get_dump_keeper(TessWindow *self) {
  g_return_val_if_fail(TESS_IS_WINDOW(self), NULL);
  return self->dump_keeper;
}

static void on_unsaved(TessDocument *doc, GParamSpec *pspec, TessWindow *self) {
  if (tess_document_get_unsaved(doc)) {
    g_autofree char *msg = g_strdup_printf(_("%s Use Save a Copy… to keep your work."),
                                           tess_document_get_unsaved_reason(doc));
    tess_window_report(self, msg);
  } else {
    gtk_widget_set_visible(self->save_copy_button, FALSE);
    gtk_info_bar_set_revealed(self->message_bar, FALSE);
  }
  update_title(self);
}

void tess_window_set_document(TessWindow *self, TessDocument *doc) {
  g_return_if_fail(TESS_IS_WINDOW(self));
  drop_dump_keeper(self);
  if (self->doc) {
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_signal_handler(&self->unsaved_handler, self->doc);
    g_clear_signal_handler(&self->replaced_handler, self->doc);
    tess_document_checkpoint(self->doc);
    g_clear_object(&self->doc);
  }
  if (doc && !self->replaced_source) self->replaced_source = g_timeout_add_seconds(1, replaced_poll, self);
  if (doc) {
    self->doc = g_object_ref(doc);
    self->committed_handler = g_signal_connect(doc, "committed", G_CALLBACK(on_committed), self);
    self->unsaved_handler = g_signal_connect(doc, "notify::unsaved", G_CALLBACK(on_unsaved), self);
    self->replaced_handler = g_signal_connect(doc, "replaced", G_CALLBACK(on_replaced), self);
    self->dump_keeper = tess_dump_keeper_new(doc);
    g_signal_connect(self->dump_keeper, "failed", G_CALLBACK(on_dump_failed), self);
  }
  self->level = self->layer = 0;
  self->cursor_x = self->cursor_y = -1;
  gtk_info_bar_set_revealed(self->message_bar, FALSE);
  gtk_info_bar_set_revealed(self->reload_bar, FALSE);
  if (doc && tess_document_get_read_only(doc)) {
    g_autofree char *name = g_filename_display_basename(tess_document_get_path(doc));
    g_autofree char *msg = g_strdup_printf(_("“%s” is on read-only media or in a folder you cannot write, so it is "
                                             "open read-only. Use Save a Copy… to edit a copy."),
                                           name);
    tess_window_report(self, msg);
    gtk_widget_set_visible(self->save_copy_button, TRUE);
  } else if (doc) {
    /* Core's level checks, as validate and export see them: say so now,
     * not when an export fails. */
    g_autofree char *problems = tess_problems_summary(tess_document_get_project(doc));
    if (problems) tess_window_report(self, problems);
  }
  tess_map_view_set_document(map(self), doc);
  tess_material_panel_set_document(self->material_panel, doc);
  tess_tile_palette_set_document(self->tile_palette, doc);
  tess_object_inspector_set_document(self->object_inspector, doc);
  tess_layers_panel_set_document(self->layers_panel, doc); /* selects a level and a layer */
  tess_sprite_panel_set_document(self->sprite_panel, doc);
  push_stamp(self);
  tess_map_view_set_material(map(self), tess_material_panel_get_selected(self->material_panel));
  gtk_stack_set_visible_child_name(self->stack, doc ? "editor" : "start");
  gtk_widget_set_visible(self->status_bar, doc != NULL);
  if (doc && self->map_view) gtk_widget_grab_focus(self->map_view);
  update_actions(self);
  update_title(self);
}

TessDocument *tess_window_get_document(TessWindow *self) { return self->doc; }

static void show_open_error(TessWindow *self, const char *path, const char *reason) {
  g_autofree char *name = g_filename_display_name(path);
  g_autofree char *primary = g_strdup_printf(_("Could not open “%s”"), name);
  remember_dialog(self, tess_ui_error_dialog(GTK_WINDOW(self), primary, reason));
}

gboolean tess_window_open_path(TessWindow *self, const char *path) {
  g_return_val_if_fail(TESS_IS_WINDOW(self), FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TessDocument) doc = tess_document_open(path, &error);
  if (!doc) {
    show_open_error(self, path, error->message);
    return FALSE;
  }
  tess_window_set_document(self, doc);
  GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
  if (TESS_IS_APPLICATION(app)) tess_application_add_recent(TESS_APPLICATION(app), path);
  return TRUE;
}

/* ---- File choosers ---------------------------------------------------------------- */

static GtkFileFilter *project_filter(void) {
  GtkFileFilter *filter = gtk_file_filter_new();
  gtk_file_filter_set_name(filter, _("Tessera projects"));
  gtk_file_filter_add_pattern(filter, "*.tessera");
  return filter;
}

static void on_open_response(GtkNativeDialog *native, int response, TessWindow *self) {
  if (response == GTK_RESPONSE_ACCEPT) {
    g_autoptr(GFile) file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(native));
    g_autofree char *path = file ? g_file_get_path(file) : NULL;
    if (path) tess_window_open_path(self, path);
  }
  g_object_unref(native);
}

void tess_window_choose_open(TessWindow *self) {
  GtkFileChooserNative *native = gtk_file_chooser_native_new(_("Open Project"), GTK_WINDOW(self),
                                                             GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  g_autoptr(GtkFileFilter) filter = project_filter();
  gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(native), filter);
  g_signal_connect(native, "response", G_CALLBACK(on_open_response), self);
  gtk_native_dialog_show(GTK_NATIVE_DIALOG(native));
}

static void on_new_response(GtkNativeDialog *native, int response, TessWindow *self) {
  if (response == GTK_RESPONSE_ACCEPT) {
    g_autoptr(GFile) file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(native));
    g_autofree char *chosen = file ? g_file_get_path(file) : NULL;
    if (chosen) {
      g_autofree char *path = g_str_has_suffix(chosen, ".tessera") ? g_strdup(chosen) : g_strconcat(chosen, ".tessera", NULL);
      /* The chooser confirmed overwriting; a project file is replaced, never merged. */
      if (g_file_test(path, G_FILE_TEST_EXISTS)) g_unlink(path);
      g_autoptr(GError) error = NULL;
      g_autoptr(TessDocument) doc = tess_document_new_project(path, &error);
      if (doc) {
        tess_window_set_document(self, doc);
        GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
        if (TESS_IS_APPLICATION(app)) tess_application_add_recent(TESS_APPLICATION(app), path);
      } else {
        g_autofree char *name = g_filename_display_name(path);
        g_autofree char *primary = g_strdup_printf(_("Could not create “%s”"), name);
        remember_dialog(self, tess_ui_error_dialog(GTK_WINDOW(self), primary, error->message));
      }
    }
  }
  g_object_unref(native);
}

void tess_window_choose_new(TessWindow *self) {
  GtkFileChooserNative *native = gtk_file_chooser_native_new(_("New Project"), GTK_WINDOW(self),
                                                             GTK_FILE_CHOOSER_ACTION_SAVE, _("_Create"), _("_Cancel"));
  gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(native), _("Untitled.tessera"));
  g_autoptr(GtkFileFilter) filter = project_filter();
  gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(native), filter);
  g_signal_connect(native, "response", G_CALLBACK(on_new_response), self);
  gtk_native_dialog_show(GTK_NATIVE_DIALOG(native));
}

/* ---- Recent projects --------------------------------------------------------------- */

static void on_recent_activated(GtkListBox *box, GtkListBoxRow *row, TessWindow *self) {
  const char *path = g_object_get_data(G_OBJECT(row), "path");
  if (!path) return;
  g_autofree char *copy = g_strdup(path);
  if (!g_file_test(copy, G_FILE_TEST_EXISTS)) {
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    show_open_error(self, copy, _("The file does not exist any more."));
    if (TESS_IS_APPLICATION(app)) tess_application_remove_recent(TESS_APPLICATION(app), copy);
    return;
  }
  tess_window_open_path(self, copy);
}

static void fill_recent(TessWindow *self) {
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->recent_list))) != NULL)
    gtk_list_box_remove(self->recent_list, child);
  GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
  const char *const *recent = TESS_IS_APPLICATION(app) ? tess_application_get_recent(TESS_APPLICATION(app)) : NULL;
  guint n = 0;
  for (; recent && recent[n]; n++) {
    g_autofree char *base = g_filename_display_basename(recent[n]);
    g_autofree char *dir = g_path_get_dirname(recent[n]);
    g_autofree char *dir_display = g_filename_display_name(dir);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_widget_set_margin_start(box, 12);
    gtk_widget_set_margin_end(box, 12);
    gtk_widget_set_margin_top(box, 8);
    gtk_widget_set_margin_bottom(box, 8);
    GtkWidget *name = gtk_label_new(base);
    gtk_label_set_xalign(GTK_LABEL(name), 0);
    GtkWidget *where = gtk_label_new(dir_display);
    gtk_label_set_xalign(GTK_LABEL(where), 0);
    gtk_label_set_ellipsize(GTK_LABEL(where), PANGO_ELLIPSIZE_MIDDLE);
    gtk_widget_add_css_class(where, "dim-label");
    gtk_widget_add_css_class(where, "caption");
    gtk_box_append(GTK_BOX(box), name);
    gtk_box_append(GTK_BOX(box), where);
    GtkWidget *row = gtk_list_box_row_new();
    gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(row), box);
    gtk_list_box_row_set_activatable(GTK_LIST_BOX_ROW(row), TRUE);
    g_object_set_data_full(G_OBJECT(row), "path", g_strdup(recent[n]), g_free);
    gtk_list_box_append(self->recent_list, row);
  }
  gtk_widget_set_visible(GTK_WIDGET(self->recent_list), n > 0);
  gtk_widget_set_visible(self->recent_empty, n == 0);
}

static void on_recent_changed(TessApplication *app, TessWindow *self) { fill_recent(self); }

/* ---- Source images changed on disk; the file under us --------------------------- */

guint tess_window_check_sources(TessWindow *self) {
  TessProject *p = project(self);
  g_array_set_size(self->changed_sources, 0);
  if (!p) return 0;
  GString *names = g_string_new(NULL);
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    const TessTileset *ts = p->tilesets[i];
    if (!ts->source_path || !g_file_test(ts->source_path, G_FILE_TEST_IS_REGULAR)) continue;
    g_autofree char *bytes = NULL;
    gsize size = 0;
    if (!g_file_get_contents(ts->source_path, &bytes, &size, NULL)) continue;
    if (size == ts->png_size && memcmp(bytes, ts->png, size) == 0) continue;
    g_array_append_val(self->changed_sources, ts->id);
    if (names->len) g_string_append(names, ", ");
    g_string_append(names, ts->name);
  }
  guint n = self->changed_sources->len;
  if (n) {
    g_autofree char *msg = g_strdup_printf(
        g_dngettext(GETTEXT_PACKAGE, "The image of tileset %s changed on disk.", "The images of tilesets %s changed on disk.", n),
        names->str);
    gtk_label_set_text(self->reload_label, msg);
  }
  gtk_info_bar_set_revealed(self->reload_bar, n > 0);
  g_string_free(names, TRUE);
  return n;
}

/* A reloaded image may hold more or fewer tiles: keep the per-tile info of
 * the tiles that remain; new tiles take the first tile's material and a
 * full-square collision when the tileset collides at all. */
static TessResult resize_tiles(TessTileset *ts, uint32_t cols, uint32_t rows) {
  size_t count;
  if (!tess_size_mul(cols, rows, &count) || count > 0xFFFF) return TESS_ERR_LIMIT;
  if (count == ts->tile_count && cols == ts->columns) return TESS_OK;
  TessTileInfo *tiles = tess_calloc(count ? count : 1, sizeof *tiles);
  if (!tiles) return TESS_ERR_NOMEM;
  TessTileInfo first = ts->tile_count ? ts->tiles[0] : (TessTileInfo){0};
  for (size_t i = 0; i < count; i++) {
    if (i < ts->tile_count) {
      tiles[i] = ts->tiles[i];
    } else {
      tiles[i].material = first.material;
      tiles[i].collision = first.collision != TESS_TILE_COLLISION_NONE ? TESS_TILE_COLLISION_FULL : TESS_TILE_COLLISION_NONE;
    }
  }
  for (size_t i = count; i < ts->tile_count; i++) tess_free(ts->tiles[i].pieces);
  tess_free(ts->tiles);
  ts->tiles = tiles;
  ts->tile_count = (uint32_t)count;
  ts->columns = cols;
  return TESS_OK;
}

static void report_error(TessWindow *self, GError *error) {
  if (error) tess_window_report(self, error->message);
}

void tess_window_reload_sources(TessWindow *self) {
  TessProject *p = project(self);
  if (!p) return;
  for (guint i = 0; i < self->changed_sources->len; i++) {
    TessTileset *ts = tess_project_tileset(p, g_array_index(self->changed_sources, TessId, i));
    if (!ts || !ts->source_path) continue;
    TessError err = {0};
    uint8_t *data = NULL;
    size_t size = 0;
    uint32_t w = 0, h = 0, cols = 0, rows = 0;
    TessResult r = tess_file_read(ts->source_path, IMAGE_MAX_BYTES, &data, &size, &err);
    if (r == TESS_OK) r = tess_png_info(data, size, ts->source_path, &w, &h, &err);
    if (r == TESS_OK) {
      TessImage img = {0};
      r = tess_png_decode(data, size, ts->source_path, &img, &err); /* refuse a truncated file now */
      tess_image_clear(&img);
    }
    if (r == TESS_OK) {
      r = tess_tileset_grid(w, h, ts->tile_w, ts->tile_h, ts->margin, ts->spacing, &cols, &rows, &err);
      if (r != TESS_OK && err.file[0] == '\0') g_strlcpy(err.file, ts->source_path, sizeof err.file);
    }
    if (r == TESS_OK) {
      TessTileset copy;
      r = tess_tileset_copy(&copy, ts);
      if (r == TESS_OK) {
        tess_free(copy.png);
        copy.png = data;
        copy.png_size = size;
        data = NULL;
        copy.image_w = w;
        copy.image_h = h;
        r = resize_tiles(&copy, cols, rows);
        if (r == TESS_OK) r = tess_edit_tileset_set(p, &copy, 0, &err);
        tess_tileset_clear(&copy);
      }
    }
    tess_free(data);
    if (r != TESS_OK) {
      g_autofree char *reason = tess_document_describe_error(r, &err);
      g_autofree char *name = g_filename_display_name(ts->source_path);
      g_autofree char *primary = g_strdup_printf(_("Could not reload “%s”"), name);
      remember_dialog(self, tess_ui_error_dialog(GTK_WINDOW(self), primary, reason));
    }
  }
  g_autoptr(GError) error = NULL;
  if (!tess_document_commit(self->doc, &error)) report_error(self, error);
  g_array_set_size(self->changed_sources, 0);
  gtk_info_bar_set_revealed(self->reload_bar, FALSE);
}

static void on_reload_response(GtkInfoBar *bar, int response, TessWindow *self) {
  if (response == GTK_RESPONSE_CLOSE) gtk_info_bar_set_revealed(bar, FALSE);
}

static void on_active_changed(TessWindow *self, GParamSpec *pspec, gpointer user) {
  if (!gtk_window_is_active(GTK_WINDOW(self)) || !self->doc) return;
  if (tess_window_reload_if_replaced(self)) return;
  tess_document_check_file(self->doc);
  tess_window_check_sources(self);
}

/* ---- Adding a tileset ---------------------------------------------------------------- */

GtkWidget *tess_window_add_tileset_from(TessWindow *self, const char *path) {
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog = tess_tileset_dialog_new(GTK_WINDOW(self), self->doc, path, &error);
  if (!dialog) {
    g_autofree char *name = g_filename_display_name(path);
    g_autofree char *primary = g_strdup_printf(_("“%s” cannot be used as a tileset"), name);
    dialog = tess_ui_error_dialog(GTK_WINDOW(self), primary, error->message);
  } else {
    gtk_window_present(GTK_WINDOW(dialog));
  }
  remember_dialog(self, dialog);
  return dialog;
}

/* ---- Life cycle ------------------------------------------------------------------------- */

static gboolean on_close_request(GtkWindow *window, gpointer user) {
  TessWindow *self = TESS_WINDOW(window);
  GtkApplication *app = gtk_window_get_application(window);
  GSettings *settings = TESS_IS_APPLICATION(app) ? tess_application_get_settings(TESS_APPLICATION(app)) : NULL;
  if (settings) {
    int w, h;
    gtk_window_get_default_size(window, &w, &h);
    g_settings_set(settings, "window-size", "(ii)", w, h);
    g_settings_set_boolean(settings, "window-maximized", gtk_window_is_maximized(window));
  }
  if (self->doc) tess_document_checkpoint(self->doc);
  return FALSE;
}

static void tess_window_dispose(GObject *object) {
  TessWindow *self = TESS_WINDOW(object);
  if (self->replaced_source) {
    g_source_remove(self->replaced_source);
    self->replaced_source = 0;
  }
  if (self->checkpoint_source) {
    g_source_remove(self->checkpoint_source);
    self->checkpoint_source = 0;
  }
  g_clear_handle_id(&self->replaced_idle, g_source_remove);
  drop_dump_keeper(self);
  GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
  if (app && self->recent_handler) g_clear_signal_handler(&self->recent_handler, app);
  if (self->doc) {
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_signal_handler(&self->unsaved_handler, self->doc);
    g_clear_signal_handler(&self->replaced_handler, self->doc);
    g_clear_object(&self->doc);
  }
  g_clear_weak_pointer(&self->last_dialog);
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_WINDOW);
  G_OBJECT_CLASS(tess_window_parent_class)->dispose(object);
}

static void tess_window_finalize(GObject *object) {
  TessWindow *self = TESS_WINDOW(object);
  g_array_unref(self->changed_sources);
  g_free(self->reported);
  G_OBJECT_CLASS(tess_window_parent_class)->finalize(object);
}

static void tess_window_class_init(TessWindowClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  object_class->dispose = tess_window_dispose;
  object_class->finalize = tess_window_finalize;

  /* Referencing the bundle keeps it linked from the static library; its
   * constructor registered it before main(). */
  (void)tess_get_resource();
  /* Before the first window's icons: GTK 4.8 must not finalize one on its loader thread. */
  tess_icon_guard_install();
  g_type_ensure(TESS_TYPE_MAP_VIEW);
  g_type_ensure(TESS_TYPE_PREVIEW_VIEW);
  g_type_ensure(TESS_TYPE_LAYERS_PANEL);
  g_type_ensure(TESS_TYPE_TILE_PALETTE);
  g_type_ensure(TESS_TYPE_MATERIAL_PANEL);
  g_type_ensure(TESS_TYPE_OBJECT_INSPECTOR);
  g_type_ensure(TESS_TYPE_SPRITE_PANEL);
  g_type_ensure(TESS_TYPE_TOAST);

  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-window.ui");
  gtk_widget_class_bind_template_child(widget_class, TessWindow, stack);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, recent_list);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, recent_empty);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, reload_bar);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, reload_label);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, message_bar);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, message_label);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, save_copy_button);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, map_stack);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, map_view);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, preview_view);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, toast);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, layers_panel);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, tile_palette);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, material_panel);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, object_inspector);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, sprite_panel);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, side_notebook);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, status_bar);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, status_cell);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, status_tile);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, status_material);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, status_hint);
  gtk_widget_class_bind_template_child(widget_class, TessWindow, status_zoom);
}

static void tess_window_init(TessWindow *self) {
  gtk_widget_init_template(GTK_WIDGET(self));
  /* The tool icons live in the resource bundle (GtkApplication adds this
   * path too; a window made without one, as in the tests, needs it here). */
  static gboolean icons_added = FALSE;
  if (!icons_added) {
    gtk_icon_theme_add_resource_path(gtk_icon_theme_get_for_display(gtk_widget_get_display(GTK_WIDGET(self))),
                                     "/org/tessera/Editor/icons");
    icons_added = TRUE;
  }
  self->changed_sources = g_array_new(FALSE, FALSE, sizeof(TessId));
  self->cursor_x = self->cursor_y = -1;

  _tess_window_actions_init(self);

  g_signal_connect(self->map_view, "cursor-moved", G_CALLBACK(on_cursor_moved), self);
  g_signal_connect(self->map_view, "zoom-changed", G_CALLBACK(on_zoom_changed), self);
  g_signal_connect(self->preview_view, "zoom-changed", G_CALLBACK(on_zoom_changed), self);
  g_signal_connect(self->map_stack, "notify::visible-child", G_CALLBACK(on_page_shown), self);
  g_signal_connect(self->map_view, "object-selected", G_CALLBACK(on_object_selected), self);
  g_object_bind_property(self->map_view, "hint", self->status_hint, "label", G_BINDING_SYNC_CREATE);
  g_signal_connect(self->map_view, "stamp-picked", G_CALLBACK(on_stamp_picked), self);
  g_signal_connect(self->object_inspector, "template-changed", G_CALLBACK(on_template_changed), self);
  tess_map_view_set_object_template(map(self), tess_object_inspector_get_template(self->object_inspector));
  tess_map_view_set_tool(map(self), TESS_TOOL_BRUSH);
  tess_map_view_set_show_grid(map(self), TRUE);
  set_zoom_label(self, tess_map_view_get_zoom(map(self)));
  if (g_getenv("TESS_TEST_GEOMETRY_FILE")) gtk_widget_add_tick_callback(self->map_view, write_test_geometry, self, NULL);
  /* Play mode (issue 7): F5 / the Play button show the live preview's page of the map stack. */
  tess_preview_mode_install(GTK_WINDOW(self), self->map_stack, self->map_view, self->preview_view, preview_query,
                            self);

  _tess_window_sprites_init(self);
  g_signal_connect(self->layers_panel, "level-selected", G_CALLBACK(on_level_selected), self);
  g_signal_connect(self->layers_panel, "layer-selected", G_CALLBACK(on_layer_selected), self);
  g_signal_connect(self->tile_palette, "stamp-changed", G_CALLBACK(on_stamp_changed), self);
  g_signal_connect(self->tile_palette, "terrain-changed", G_CALLBACK(on_terrain_changed), self);
  g_signal_connect(self->material_panel, "material-selected", G_CALLBACK(on_material_selected), self);
  g_signal_connect(self->message_bar, "response", G_CALLBACK(on_message_response), self);
  g_signal_connect(self->reload_bar, "response", G_CALLBACK(on_reload_response), self);
  g_signal_connect(self->recent_list, "row-activated", G_CALLBACK(on_recent_activated), self);
  g_signal_connect(self, "notify::is-active", G_CALLBACK(on_active_changed), NULL);
  g_signal_connect(self, "close-request", G_CALLBACK(on_close_request), NULL);

  _tess_window_dnd_init(self);

  gtk_widget_set_visible(self->status_bar, FALSE);
  update_actions(self);
}

/* A size remembered on a larger screen (or the default) never exceeds the
 * largest monitor: the window would open with its panels off screen. */
static void clamp_to_monitors(GtkWidget *widget, int *w, int *h) {
  GListModel *monitors = gdk_display_get_monitors(gtk_widget_get_display(widget));
  int mw = 0, mh = 0;
  for (guint i = 0; monitors && i < g_list_model_get_n_items(monitors); i++) {
    g_autoptr(GdkMonitor) m = g_list_model_get_item(monitors, i);
    GdkRectangle geo;
    gdk_monitor_get_geometry(m, &geo);
    mw = MAX(mw, geo.width);
    mh = MAX(mh, geo.height);
  }
  if (mw > 0) *w = MIN(*w, mw);
  if (mh > 0) *h = MIN(*h, mh);
}

TessWindow *tess_window_new(TessApplication *app) {
  TessWindow *self = g_object_new(TESS_TYPE_WINDOW, "application", app, NULL);
  GSettings *settings = app ? tess_application_get_settings(app) : NULL;
  int w = 1400, h = 900;
  if (settings) {
    int sw = 0, sh = 0;
    g_settings_get(settings, "window-size", "(ii)", &sw, &sh);
    if (sw > 200 && sh > 200) w = sw, h = sh;
  }
  clamp_to_monitors(GTK_WIDGET(self), &w, &h);
  gtk_window_set_default_size(GTK_WINDOW(self), w, h);
  if (settings && g_settings_get_boolean(settings, "window-maximized")) gtk_window_maximize(GTK_WINDOW(self));
  if (app) self->recent_handler = g_signal_connect(app, "recent-changed", G_CALLBACK(on_recent_changed), self);
  fill_recent(self);
  return self;
}
