/* TessWindow's actions: the win.* action entries, the single-key tool
 * shortcuts and the tool bar above the map view (see tess-window-private.h). */
#include "tess-window-private.h"

/* Short local names for the shared helpers (tess-window-private.h). */
#define project _tess_window_project
#define current_level _tess_window_current_level
#define show_side _tess_window_show_side
#define remember_dialog _tess_window_remember_dialog
#define update_title _tess_window_update_title
#define update_actions _tess_window_update_actions
#define map _tess_window_map

static void on_action_state_changed(GActionGroup *group, const char *name, GVariant *state, TessWindow *self);
static void install_tool_keys(TessWindow *self);

static void action_set_enabled(TessWindow *self, const char *name, gboolean enabled) {
  GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), name);
  if (a) g_simple_action_set_enabled(G_SIMPLE_ACTION(a), enabled);
}

static const struct {
  const char *name;
  TessTool tool;
  guint key;
} tools[] = {
    {"brush", TESS_TOOL_BRUSH, GDK_KEY_b},
    {"eraser", TESS_TOOL_ERASER, GDK_KEY_e},
    {"rectangle", TESS_TOOL_RECTANGLE, GDK_KEY_r},
    {"bucket", TESS_TOOL_BUCKET, GDK_KEY_g},
    {"picker", TESS_TOOL_PICKER, GDK_KEY_i},
    {"material", TESS_TOOL_MATERIAL_BRUSH, GDK_KEY_m},
    {"select", TESS_TOOL_SELECT, GDK_KEY_s},
    {"object", TESS_TOOL_OBJECT, GDK_KEY_o},
};

static void on_save_copy_response(GtkNativeDialog *native, int response, TessWindow *self) {
  if (response == GTK_RESPONSE_ACCEPT && self->doc) {
    g_autoptr(GFile) file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(native));
    g_autofree char *chosen = file ? g_file_get_path(file) : NULL;
    if (chosen) {
      g_autofree char *path = g_str_has_suffix(chosen, ".tessera") ? g_strdup(chosen) : g_strconcat(chosen, ".tessera", NULL);
      g_autoptr(GError) error = NULL;
      if (!tess_document_save_copy(self->doc, path, &error)) {
        g_autofree char *name = g_filename_display_name(path);
        g_autofree char *primary = g_strdup_printf(_("Could not save a copy as “%s”"), name);
        remember_dialog(self, tess_ui_error_dialog(GTK_WINDOW(self), primary, error->message));
      } else {
        GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
        if (TESS_IS_APPLICATION(app)) tess_application_add_recent(TESS_APPLICATION(app), path);
        update_title(self);
      }
    }
  }
  g_object_unref(native);
}

static void report_error(TessWindow *self, GError *error) {
  if (error) tess_window_report(self, error->message);
}

static void action_undo(GSimpleAction *a, GVariant *p, gpointer user) {
  TessWindow *self = user;
  g_autoptr(GError) error = NULL;
  if (self->doc && !tess_document_undo(self->doc, &error)) report_error(self, error);
}

static void action_redo(GSimpleAction *a, GVariant *p, gpointer user) {
  TessWindow *self = user;
  g_autoptr(GError) error = NULL;
  if (self->doc && !tess_document_redo(self->doc, &error)) report_error(self, error);
}

static void action_save_copy(GSimpleAction *a, GVariant *p, gpointer user) {
  TessWindow *self = user;
  if (!self->doc) return;
  GtkFileChooserNative *native = gtk_file_chooser_native_new(_("Save a Copy"), GTK_WINDOW(self),
                                                             GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  g_autofree char *name = tess_document_dup_name(self->doc);
  g_autofree char *suggested = g_strdup_printf(_("%s (copy).tessera"), name);
  gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(native), suggested);
  g_signal_connect(native, "response", G_CALLBACK(on_save_copy_response), self);
  gtk_native_dialog_show(GTK_NATIVE_DIALOG(native));
}

static void action_level_properties(GSimpleAction *a, GVariant *p, gpointer user) {
  TessWindow *self = user;
  if (!current_level(self)) return;
  GtkWidget *dialog = tess_level_properties_dialog_new(GTK_WINDOW(self), self->doc, self->level);
  remember_dialog(self, dialog);
  gtk_window_present(GTK_WINDOW(dialog));
}

static void action_export(GSimpleAction *a, GVariant *p, gpointer user) {
  TessWindow *self = user;
  if (!self->doc) return;
  GtkWidget *dialog = tess_export_dialog_new(GTK_WINDOW(self), self->doc);
  remember_dialog(self, dialog);
  gtk_window_present(GTK_WINDOW(dialog));
}

static void on_tileset_png_response(GtkNativeDialog *native, int response, TessWindow *self) {
  if (response == GTK_RESPONSE_ACCEPT && self->doc) {
    g_autoptr(GFile) file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(native));
    g_autofree char *path = file ? g_file_get_path(file) : NULL;
    if (path) {
      GtkWidget *dialog = tess_window_add_tileset_from(self, path);
      (void)dialog;
    }
  }
  g_object_unref(native);
}

static void action_add_tileset(GSimpleAction *a, GVariant *p, gpointer user) {
  TessWindow *self = user;
  if (!self->doc) return;
  GtkFileChooserNative *native = gtk_file_chooser_native_new(_("Add Tileset"), GTK_WINDOW(self),
                                                             GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new();
  gtk_file_filter_set_name(filter, _("PNG images"));
  gtk_file_filter_add_mime_type(filter, "image/png");
  gtk_file_filter_add_pattern(filter, "*.png");
  gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(native), filter);
  g_object_unref(filter);
  g_signal_connect(native, "response", G_CALLBACK(on_tileset_png_response), self);
  gtk_native_dialog_show(GTK_NATIVE_DIALOG(native));
}

static void action_import_map(GSimpleAction *a, GVariant *p, gpointer user) {
  TessWindow *self = user;
  if (self->doc) _tess_window_choose_import(self);
}

static void action_close(GSimpleAction *a, GVariant *p, gpointer user) { gtk_window_close(GTK_WINDOW(user)); }

static void action_reload_images(GSimpleAction *a, GVariant *p, gpointer user) { tess_window_reload_sources(user); }

static void action_tool(GSimpleAction *a, GVariant *value, gpointer user) {
  TessWindow *self = user;
  const char *name = g_variant_get_string(value, NULL);
  for (guint i = 0; i < G_N_ELEMENTS(tools); i++)
    if (g_str_equal(tools[i].name, name)) {
      tess_map_view_set_tool(map(self), tools[i].tool);
      g_simple_action_set_state(a, value);
      if (tools[i].tool == TESS_TOOL_MATERIAL_BRUSH) show_side(self, 1);
      else if (tools[i].tool == TESS_TOOL_OBJECT) show_side(self, 2);
      else if (tools[i].tool != TESS_TOOL_SELECT) show_side(self, 0);
    }
}

static void action_toggle(GSimpleAction *a, GVariant *p, gpointer user) {
  GVariant *state = g_action_get_state(G_ACTION(a));
  g_action_change_state(G_ACTION(a), g_variant_new_boolean(!g_variant_get_boolean(state)));
  g_variant_unref(state);
}

static void change_show_grid(GSimpleAction *a, GVariant *value, gpointer user) {
  tess_map_view_set_show_grid(map(user), g_variant_get_boolean(value));
  g_simple_action_set_state(a, value);
}

/* The project's "keep a text dump beside it" setting: saved in the project
 * file, so the action's state follows the document (update_actions). */
static void change_keep_dump(GSimpleAction *a, GVariant *value, gpointer user) {
  TessWindow *self = user;
  if (!self->doc) return;
  g_autoptr(GError) error = NULL;
  if (!tess_document_set_keep_dump(self->doc, g_variant_get_boolean(value), &error)) {
    tess_window_report(self, error->message);
    return;
  }
  g_simple_action_set_state(a, value);
}

static void change_show_materials(GSimpleAction *a, GVariant *value, gpointer user) {
  tess_map_view_set_show_materials(map(user), g_variant_get_boolean(value));
  g_simple_action_set_state(a, value);
}

static void action_flip_x(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_flip_stamp(map(user), TRUE); }
static void action_flip_y(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_flip_stamp(map(user), FALSE); }
static void action_rotate(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_rotate_stamp(map(user)); }
static void action_copy(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_copy(map(user)); }
static void action_cut(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_cut(map(user)); }
static void action_paste(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_paste(map(user)); }
static void action_delete(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_delete_selection(map(user)); }
static void zoom_by(TessWindow *self, double factor) {
  double z = tess_map_view_get_zoom(map(self)) * factor;
  tess_map_view_set_zoom(map(self), CLAMP(z, 1.0 / 16.0, 16.0));
}
static void action_zoom_in(GSimpleAction *a, GVariant *p, gpointer user) { zoom_by(user, 2.0); }
static void action_zoom_out(GSimpleAction *a, GVariant *p, gpointer user) { zoom_by(user, 0.5); }
static void action_zoom_reset(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_set_zoom(map(user), 1.0); }
static void action_zoom_fit(GSimpleAction *a, GVariant *p, gpointer user) { tess_map_view_fit(map(user)); }

static void action_report(GSimpleAction *a, GVariant *p, gpointer user) {
  tess_window_report(user, g_variant_get_string(p, NULL));
}

static void action_notify(GSimpleAction *a, GVariant *p, gpointer user) {
  const char *message, *button, *action;
  g_variant_get(p, "(&s&s&s)", &message, &button, &action);
  tess_window_notify(user, message, *button ? button : NULL, *action ? action : NULL);
}

static const GActionEntry win_actions[] = {
    {"report", action_report, "s", NULL, NULL, {0}},
    {"notify", action_notify, "(sss)", NULL, NULL, {0}},
    {"undo", action_undo, NULL, NULL, NULL, {0}},
    {"redo", action_redo, NULL, NULL, NULL, {0}},
    {"save-copy", action_save_copy, NULL, NULL, NULL, {0}},
    {"export", action_export, NULL, NULL, NULL, {0}},
    {"import-map", action_import_map, NULL, NULL, NULL, {0}},
    {"level-properties", action_level_properties, NULL, NULL, NULL, {0}},
    {"add-tileset", action_add_tileset, NULL, NULL, NULL, {0}},
    {"close", action_close, NULL, NULL, NULL, {0}},
    {"reload-images", action_reload_images, NULL, NULL, NULL, {0}},
    {"tool", action_tool, "s", "'brush'", action_tool, {0}},
    {"show-grid", action_toggle, NULL, "true", change_show_grid, {0}},
    {"show-materials", action_toggle, NULL, "false", change_show_materials, {0}},
    {"keep-dump", action_toggle, NULL, "false", change_keep_dump, {0}},
    {"flip-x", action_flip_x, NULL, NULL, NULL, {0}},
    {"flip-y", action_flip_y, NULL, NULL, NULL, {0}},
    {"rotate", action_rotate, NULL, NULL, NULL, {0}},
    {"copy", action_copy, NULL, NULL, NULL, {0}},
    {"cut", action_cut, NULL, NULL, NULL, {0}},
    {"paste", action_paste, NULL, NULL, NULL, {0}},
    {"delete", action_delete, NULL, NULL, NULL, {0}},
    {"zoom-in", action_zoom_in, NULL, NULL, NULL, {0}},
    {"zoom-out", action_zoom_out, NULL, NULL, NULL, {0}},
    {"zoom-reset", action_zoom_reset, NULL, NULL, NULL, {0}},
    {"zoom-fit", action_zoom_fit, NULL, NULL, NULL, {0}},
};

static const char *const doc_actions[] = {"save-copy", "export", "import-map", "level-properties", "add-tileset", "tileset-collision", "tool",
                                          "show-grid", "show-materials", "flip-x", "flip-y", "rotate", "copy", "cut",
                                          "paste", "delete", "zoom-in", "zoom-out", "zoom-reset",
                                          "zoom-fit"};

/* Core names its undo steps in English; the editor translates them by key. */
static const char *undo_label(const char *label) {
  static const char *const known[] = {
      N_("Add layer"),
      N_("Add level"),
      N_("Add material"),
      N_("Add object"),
      N_("Add sprite"),
      N_("Add tileset"),
      N_("Import map"),
      N_("Edit material"),
      N_("Edit object"),
      N_("Edit sprite"),
      N_("Edit tileset"),
      N_("Erase"),
      N_("Fill rectangle"),
      N_("Flood fill"),
      N_("Layer properties"),
      N_("Level settings"),
      N_("Move layer"),
      N_("Paint material"),
      N_("Paint tiles"),
      N_("Remove layer"),
      N_("Remove level"),
      N_("Remove material"),
      N_("Remove object"),
      N_("Remove sprite"),
      N_("Remove tileset"),
      N_("Set cells"),
  };
  for (guint i = 0; label && i < G_N_ELEMENTS(known); i++)
    if (strcmp(label, known[i]) == 0) return _(known[i]);
  return label;
}

/* While the level plays (win.play, editor/preview), the project underneath
 * is not edited: undo and redo wait for the return to editing. */
static gboolean playing(TessWindow *self) {
  GAction *play = g_action_map_lookup_action(G_ACTION_MAP(self), "play");
  if (!play) return FALSE;
  g_autoptr(GVariant) state = g_action_get_state(play);
  return state && g_variant_is_of_type(state, G_VARIANT_TYPE_BOOLEAN) && g_variant_get_boolean(state);
}

static void on_action_state_changed(GActionGroup *group, const char *name, GVariant *state, TessWindow *self) {
  if (g_str_equal(name, "play")) update_actions(self);
}

void _tess_window_update_actions(TessWindow *self) {
  TessProject *p = project(self);
  gboolean editing = !playing(self);
  action_set_enabled(self, "undo", editing && p && tess_project_can_undo(p));
  action_set_enabled(self, "redo", editing && p && tess_project_can_redo(p));
  for (guint i = 0; i < G_N_ELEMENTS(doc_actions); i++) action_set_enabled(self, doc_actions[i], p != NULL);
  /* The undo button names the step ("Undo Paint tiles"). */
  const char *label = p ? undo_label(tess_project_undo_label(p)) : NULL;
  GtkWidget *undo = GTK_WIDGET(gtk_widget_get_template_child(GTK_WIDGET(self), TESS_TYPE_WINDOW, "undo_button"));
  g_autofree char *tip = label ? g_strdup_printf(_("Undo %s (Ctrl+Z)"), label) : g_strdup(_("Undo (Ctrl+Z)"));
  if (undo) gtk_widget_set_tooltip_text(undo, tip);
  GAction *keep = g_action_map_lookup_action(G_ACTION_MAP(self), "keep-dump");
  if (keep) {
    g_simple_action_set_state(G_SIMPLE_ACTION(keep),
                              g_variant_new_boolean(self->doc && tess_document_get_keep_dump(self->doc)));
    g_simple_action_set_enabled(G_SIMPLE_ACTION(keep), p && !tess_document_get_read_only(self->doc));
  }
  if (p) _tess_window_schedule_checkpoint(self);
}

/* Single-key tool shortcuts on the window, in the bubble phase: a focused
 * text field takes its letters first, so typing a name never changes tools. */
static void add_key(GtkShortcutController *c, guint key, const char *action, GVariant *arg) {
  GtkShortcut *s = gtk_shortcut_new(gtk_keyval_trigger_new(key, 0), gtk_named_action_new(action));
  if (arg) gtk_shortcut_set_arguments(s, arg);
  gtk_shortcut_controller_add_shortcut(c, s);
}

static void install_tool_keys(TessWindow *self) {
  GtkEventController *c = gtk_shortcut_controller_new();
  gtk_event_controller_set_propagation_phase(c, GTK_PHASE_BUBBLE);
  GtkShortcutController *sc = GTK_SHORTCUT_CONTROLLER(c);
  add_key(sc, GDK_KEY_b, "win.tool", g_variant_new_string("brush"));
  add_key(sc, GDK_KEY_e, "win.tool", g_variant_new_string("eraser"));
  add_key(sc, GDK_KEY_r, "win.tool", g_variant_new_string("rectangle"));
  add_key(sc, GDK_KEY_g, "win.tool", g_variant_new_string("bucket"));
  add_key(sc, GDK_KEY_i, "win.tool", g_variant_new_string("picker"));
  add_key(sc, GDK_KEY_m, "win.tool", g_variant_new_string("material"));
  add_key(sc, GDK_KEY_s, "win.tool", g_variant_new_string("select"));
  add_key(sc, GDK_KEY_o, "win.tool", g_variant_new_string("object"));
  add_key(sc, GDK_KEY_x, "win.flip-x", NULL);
  add_key(sc, GDK_KEY_y, "win.flip-y", NULL);
  add_key(sc, GDK_KEY_z, "win.rotate", NULL);
  add_key(sc, GDK_KEY_h, "win.show-grid", NULL);
  add_key(sc, GDK_KEY_t, "win.show-materials", NULL);
  add_key(sc, GDK_KEY_Delete, "win.delete", NULL);
  gtk_widget_add_controller(GTK_WIDGET(self), c);
}

void _tess_window_actions_init(TessWindow *self) {
  g_action_map_add_action_entries(G_ACTION_MAP(self), win_actions, G_N_ELEMENTS(win_actions), self);
  install_tool_keys(self);
  g_signal_connect(self, "action-state-changed", G_CALLBACK(on_action_state_changed), self);
}
