/* TessLayersPanel: levels and layers of the open project. */
#include "tess-layers-panel.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tess-ui.h"

struct _TessLayersPanel {
  GtkBox parent_instance;

  /* template widgets */
  GtkListBox *levels;
  GtkListBox *layers;
  GtkWidget *remove_level_button, *add_layer_button, *remove_layer_button, *up_button, *down_button;

  /* owned */
  TessDocument *doc;
  GArray *level_ids; /* TessId per row of `levels` */
  GArray *layer_ids; /* TessId per row of `layers` (top layer first) */

  TessId level, layer;
  gboolean structure_dirty; /* a level or layer changed since the last sync */
  gboolean syncing;
  gulong changed_handler, committed_handler;
};

G_DEFINE_FINAL_TYPE(TessLayersPanel, tess_layers_panel, GTK_TYPE_BOX)

enum { SIGNAL_LEVEL_SELECTED,
       SIGNAL_LAYER_SELECTED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

static void panel_sync(TessLayersPanel *self);

/* ---- Helpers ------------------------------------------------------------ */

static TessProject *project(TessLayersPanel *self) { return self->doc ? tess_document_get_project(self->doc) : NULL; }

static TessLevel *current_level(TessLayersPanel *self) {
  TessProject *p = project(self);
  return p ? tess_project_level(p, self->level) : NULL;
}

static const char *layer_kind_name(uint8_t kind) {
  switch (kind) {
    case TESS_LAYER_MATERIAL: return _("Materials");
    case TESS_LAYER_OBJECTS: return _("Objects");
    default: return _("Tiles");
  }
}

/* Changes one layer's props (the row's widgets call it). */
static gboolean set_props(TessLayersPanel *self, const TessLayerProps *props, uint32_t merge) {
  TessError err = {0};
  TessResult r = tess_edit_layer_set_props(project(self), self->level, props, merge, &err);
  return tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

static TessLayer *row_layer(TessLayersPanel *self, GtkWidget *w, TessLayerProps *props) {
  TessId id = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(w), "tess-layer"));
  TessLevel *level = current_level(self);
  TessLayer *layer = level ? tess_level_layer(level, id) : NULL;
  if (layer && props) *props = layer->props;
  return layer;
}

/* ---- Row widgets --------------------------------------------------------- */

static void on_visible_toggled(GtkToggleButton *button, TessLayersPanel *self) {
  TessLayerProps props;
  if (self->syncing || !row_layer(self, GTK_WIDGET(button), &props)) return;
  props.visible = gtk_toggle_button_get_active(button);
  set_props(self, &props, 0);
}

static void on_locked_toggled(GtkToggleButton *button, TessLayersPanel *self) {
  TessLayerProps props;
  if (self->syncing || !row_layer(self, GTK_WIDGET(button), &props)) return;
  props.locked = gtk_toggle_button_get_active(button);
  set_props(self, &props, 0);
}

static void on_collides_toggled(GtkCheckButton *button, TessLayersPanel *self) {
  TessLayerProps props;
  if (self->syncing || !row_layer(self, GTK_WIDGET(button), &props)) return;
  props.collides = gtk_check_button_get_active(button);
  set_props(self, &props, 0);
}

static void on_y_sort_toggled(GtkCheckButton *button, TessLayersPanel *self) {
  TessLayerProps props;
  if (self->syncing || !row_layer(self, GTK_WIDGET(button), &props)) return;
  props.y_sort = gtk_check_button_get_active(button);
  set_props(self, &props, 0);
}

static void on_pixels_toggled(GtkCheckButton *button, TessLayersPanel *self) {
  TessLayerProps props;
  if (self->syncing || !row_layer(self, GTK_WIDGET(button), &props)) return;
  props.collide_pixels = gtk_check_button_get_active(button);
  set_props(self, &props, 0);
}

static void on_opacity_changed(GtkRange *range, TessLayersPanel *self) {
  TessLayerProps props;
  if (self->syncing || !row_layer(self, GTK_WIDGET(range), &props)) return;
  /* One drag of the slider is one undo step: the key is taken when the popover opens. */
  uint32_t merge = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(range), "tess-merge"));
  props.opacity = (float)gtk_range_get_value(range);
  set_props(self, &props, merge);
}

static void on_popover_show(GtkPopover *popover, TessLayersPanel *self) {
  GtkWidget *scale = g_object_get_data(G_OBJECT(popover), "tess-scale");
  if (project(self)) g_object_set_data(G_OBJECT(scale), "tess-merge",
                                       GUINT_TO_POINTER(tess_project_new_merge_key(project(self))));
}

static void on_name_activate(GtkEntry *entry, TessLayersPanel *self) {
  TessId id = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(entry), "tess-layer"));
  tess_layers_panel_rename_layer(self, id, gtk_editable_get_text(GTK_EDITABLE(entry)));
  GtkWidget *popover = gtk_widget_get_ancestor(GTK_WIDGET(entry), GTK_TYPE_POPOVER);
  if (popover) gtk_popover_popdown(GTK_POPOVER(popover));
}

static void tag(GtkWidget *w, TessId id) { g_object_set_data(G_OBJECT(w), "tess-layer", GUINT_TO_POINTER(id)); }

/* A row from tess-layer-row.ui: its handlers get the panel, and each widget
 * carries the layer's id. Returns a reference the caller drops once the row
 * is in the list (the builder's own goes with it). */
static GtkWidget *layer_row_new(TessLayersPanel *self, const TessLayer *layer) {
  TessId id = layer->props.id;
  g_autoptr(GtkBuilder) builder = gtk_builder_new();
  g_autoptr(GtkBuilderScope) scope = gtk_builder_cscope_new();
  gtk_builder_cscope_add_callback(scope, on_visible_toggled);
  gtk_builder_cscope_add_callback(scope, on_locked_toggled);
  gtk_builder_cscope_add_callback(scope, on_collides_toggled);
  gtk_builder_cscope_add_callback(scope, on_pixels_toggled);
  gtk_builder_cscope_add_callback(scope, on_y_sort_toggled);
  gtk_builder_cscope_add_callback(scope, on_opacity_changed);
  gtk_builder_cscope_add_callback(scope, on_popover_show);
  gtk_builder_cscope_add_callback(scope, on_name_activate);
  gtk_builder_set_scope(builder, scope);
  gtk_builder_set_current_object(builder, G_OBJECT(self));
  g_autoptr(GError) error = NULL;
  if (!gtk_builder_add_from_resource(builder, "/org/tessera/Editor/tess-layer-row.ui", &error))
    g_error("tess-layer-row.ui: %s", error->message); /* compiled in: a broken file is a build bug */
  GtkWidget *row = g_object_ref(GTK_WIDGET(gtk_builder_get_object(builder, "row")));
  static const char *const parts[] = {"eye", "lock", "label", "entry", "scale", "collides", "y_sort", "pixels"};
  for (guint i = 0; i < G_N_ELEMENTS(parts); i++) {
    GObject *part = gtk_builder_get_object(builder, parts[i]);
    tag(GTK_WIDGET(part), id);
    g_object_set_data(G_OBJECT(row), parts[i], part);
  }
  tag(row, id);
  gtk_label_set_text(GTK_LABEL(gtk_builder_get_object(builder, "kind")), layer_kind_name(layer->props.kind));
  gtk_entry_set_max_length(GTK_ENTRY(gtk_builder_get_object(builder, "entry")), TESS_NAME_MAX - 1);
  gtk_widget_set_sensitive(GTK_WIDGET(gtk_builder_get_object(builder, "collides")), layer->props.kind == TESS_LAYER_TILES);
  gtk_widget_set_visible(GTK_WIDGET(gtk_builder_get_object(builder, "pixels")), layer->props.kind == TESS_LAYER_TILES);
  gtk_widget_set_visible(GTK_WIDGET(gtk_builder_get_object(builder, "y_sort")), layer->props.kind == TESS_LAYER_OBJECTS);
  g_object_set_data(gtk_builder_get_object(builder, "popover"), "tess-scale", gtk_builder_get_object(builder, "scale"));
  return row;
}

static void layer_row_update(GtkWidget *row, const TessLayer *layer) {
  const TessLayerProps *p = &layer->props;
  GtkWidget *eye = g_object_get_data(G_OBJECT(row), "eye");
  gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(eye), p->visible);
  gtk_button_set_icon_name(GTK_BUTTON(eye), p->visible ? "view-reveal-symbolic" : "view-conceal-symbolic");
  GtkWidget *lock = g_object_get_data(G_OBJECT(row), "lock");
  gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(lock), p->locked);
  /* One padlock, faint when open: themes draw "changes-allow" too much like a closed lock. */
  if (p->locked) gtk_widget_remove_css_class(lock, "tess-off");
  else gtk_widget_add_css_class(lock, "tess-off");
  /* Closed, it is drawn in the accent colour: a grey padlock among grey eyes
   * was hard to see. */
  if (p->locked) gtk_widget_add_css_class(lock, "tess-locked");
  else gtk_widget_remove_css_class(lock, "tess-locked");
  gtk_widget_set_tooltip_text(lock, p->locked ? _("Locked: click to allow edits") : _("Lock the layer against edits"));
  gtk_label_set_text(g_object_get_data(G_OBJECT(row), "label"), p->name);
  GtkWidget *entry = g_object_get_data(G_OBJECT(row), "entry");
  if (!gtk_widget_has_focus(entry) && g_strcmp0(gtk_editable_get_text(GTK_EDITABLE(entry)), p->name) != 0)
    gtk_editable_set_text(GTK_EDITABLE(entry), p->name);
  GtkRange *scale = g_object_get_data(G_OBJECT(row), "scale");
  if (gtk_range_get_value(scale) != p->opacity) gtk_range_set_value(scale, p->opacity);
  gtk_check_button_set_active(g_object_get_data(G_OBJECT(row), "collides"), p->collides);
  gtk_check_button_set_active(g_object_get_data(G_OBJECT(row), "pixels"), p->collide_pixels);
  gtk_widget_set_sensitive(g_object_get_data(G_OBJECT(row), "pixels"), p->collides);
  gtk_check_button_set_active(g_object_get_data(G_OBJECT(row), "y_sort"), p->y_sort);
  gtk_widget_set_opacity(gtk_list_box_row_get_child(GTK_LIST_BOX_ROW(row)), p->visible ? 1.0 : 0.55);
}

/* ---- Sync with the project ---------------------------------------------- */

static void clear_list(GtkListBox *list) {
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child(GTK_WIDGET(list))) != NULL) gtk_list_box_remove(list, child);
}

static void update_buttons(TessLayersPanel *self) {
  TessLevel *level = current_level(self);
  TessProject *p = project(self);
  int index = level ? tess_level_layer_index(level, self->layer) : -1;
  TessLayer *layer = level && index >= 0 ? level->layers[index] : NULL;
  gtk_widget_set_sensitive(self->remove_level_button, p && p->level_count > 1);
  gtk_widget_set_sensitive(self->add_layer_button, level != NULL);
  gtk_widget_set_sensitive(self->remove_layer_button, layer != NULL);
  gtk_widget_set_sensitive(self->up_button, layer && index + 1 < (int)level->layer_count);
  gtk_widget_set_sensitive(self->down_button, layer && index > 0);
}

/* The Levels list has room for LEVEL_ROWS rows, measured on a real row (it
 * showed two and a half, so a project's levels meant scrolling). */
#define LEVEL_ROWS 5
static void size_levels(TessLayersPanel *self) {
  GtkListBoxRow *row = gtk_list_box_get_row_at_index(self->levels, 0);
  GtkWidget *scroll = gtk_widget_get_ancestor(GTK_WIDGET(self->levels), GTK_TYPE_SCROLLED_WINDOW);
  if (!row || !scroll) return;
  int natural = 0;
  gtk_widget_measure(GTK_WIDGET(row), GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  int list_min = 0, row_min = 0;
  gtk_widget_measure(GTK_WIDGET(self->levels), GTK_ORIENTATION_VERTICAL, -1, &list_min, NULL, NULL, NULL);
  gtk_widget_measure(GTK_WIDGET(row), GTK_ORIENTATION_VERTICAL, -1, &row_min, NULL, NULL, NULL);
  int rows = (int)self->level_ids->len;
  /* The list's own padding, beyond its rows. */
  int padding = MAX(0, list_min - rows * row_min);
  gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroll), LEVEL_ROWS * natural + padding);
}

int tess_layers_panel_get_level_row_height(TessLayersPanel *self) {
  GtkListBoxRow *row = gtk_list_box_get_row_at_index(self->levels, 0);
  return row ? gtk_widget_get_height(GTK_WIDGET(row)) : 0;
}

GtkWidget *tess_layers_panel_get_levels_view(TessLayersPanel *self) {
  return gtk_widget_get_ancestor(GTK_WIDGET(self->levels), GTK_TYPE_SCROLLED_WINDOW);
}

static void sync_levels(TessLayersPanel *self) {
  TessProject *p = project(self);
  guint n = p ? p->level_count : 0;
  gboolean same = n == self->level_ids->len;
  for (guint i = 0; same && i < n; i++) same = g_array_index(self->level_ids, TessId, i) == p->levels[i]->id;
  if (!same) {
    clear_list(self->levels);
    g_array_set_size(self->level_ids, 0);
    for (guint i = 0; i < n; i++) {
      GtkWidget *label = gtk_label_new(p->levels[i]->settings.name);
      gtk_label_set_xalign(GTK_LABEL(label), 0);
      gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_margin_start(label, 8);
      gtk_widget_set_margin_top(label, 4);
      gtk_widget_set_margin_bottom(label, 4);
      gtk_list_box_append(self->levels, label);
      g_array_append_val(self->level_ids, p->levels[i]->id);
    }
  } else {
    for (guint i = 0; i < n; i++) {
      GtkWidget *row = GTK_WIDGET(gtk_list_box_get_row_at_index(self->levels, (int)i));
      gtk_label_set_text(GTK_LABEL(gtk_list_box_row_get_child(GTK_LIST_BOX_ROW(row))), p->levels[i]->settings.name);
    }
  }
  size_levels(self);
  /* Keep the chosen level, or fall back to the first. */
  int sel = -1;
  for (guint i = 0; i < n; i++)
    if (g_array_index(self->level_ids, TessId, i) == self->level) sel = (int)i;
  if (sel < 0 && n > 0) sel = 0;
  TessId level = sel >= 0 ? g_array_index(self->level_ids, TessId, sel) : 0;
  gtk_list_box_select_row(self->levels, sel >= 0 ? gtk_list_box_get_row_at_index(self->levels, sel) : NULL);
  if (level != self->level) {
    self->level = level;
    self->layer = 0;
    g_signal_emit(self, signals[SIGNAL_LEVEL_SELECTED], 0, (guint)level);
  }
}

static TessId default_layer(const TessLevel *level) {
  for (int i = (int)level->layer_count - 1; i >= 0; i--)
    if (level->layers[i]->props.kind == TESS_LAYER_TILES) return level->layers[i]->props.id;
  return level->layer_count ? level->layers[level->layer_count - 1]->props.id : 0;
}

static void sync_layers(TessLayersPanel *self) {
  TessLevel *level = current_level(self);
  guint n = level ? level->layer_count : 0;
  /* Rows show the top layer first. */
  gboolean same = n == self->layer_ids->len;
  for (guint i = 0; same && i < n; i++)
    same = g_array_index(self->layer_ids, TessId, i) == level->layers[n - 1 - i]->props.id;
  if (!same) {
    clear_list(self->layers);
    g_array_set_size(self->layer_ids, 0);
    for (guint i = 0; i < n; i++) {
      const TessLayer *layer = level->layers[n - 1 - i];
      GtkWidget *row = layer_row_new(self, layer);
      gtk_list_box_append(self->layers, row);
      g_object_unref(row);
      g_array_append_val(self->layer_ids, layer->props.id);
    }
  }
  for (guint i = 0; i < n; i++)
    layer_row_update(GTK_WIDGET(gtk_list_box_get_row_at_index(self->layers, (int)i)), level->layers[n - 1 - i]);

  TessId layer = (level && tess_level_layer(level, self->layer)) ? self->layer : (level ? default_layer(level) : 0);
  int sel = -1;
  for (guint i = 0; i < n; i++)
    if (g_array_index(self->layer_ids, TessId, i) == layer) sel = (int)i;
  gtk_list_box_select_row(self->layers, sel >= 0 ? gtk_list_box_get_row_at_index(self->layers, sel) : NULL);
  if (layer != self->layer) {
    self->layer = layer;
    g_signal_emit(self, signals[SIGNAL_LAYER_SELECTED], 0, (guint)layer);
  }
}

static void panel_sync(TessLayersPanel *self) {
  self->syncing = TRUE;
  sync_levels(self);
  sync_layers(self);
  update_buttons(self);
  self->syncing = FALSE;
  self->structure_dirty = FALSE;
}

static void on_doc_changed(TessDocument *doc, gpointer change_ptr, TessLayersPanel *self) {
  const TessChange *change = change_ptr;
  if (change->kind == TESS_CHANGE_LEVEL || change->kind == TESS_CHANGE_LAYER) self->structure_dirty = TRUE;
}

static void on_doc_committed(TessDocument *doc, TessLayersPanel *self) {
  if (self->structure_dirty) panel_sync(self);
}

/* ---- Selection ----------------------------------------------------------- */

static void on_level_row_selected(GtkListBox *box, GtkListBoxRow *row, TessLayersPanel *self) {
  if (self->syncing || row == NULL) return;
  TessId id = g_array_index(self->level_ids, TessId, gtk_list_box_row_get_index(row));
  tess_layers_panel_select_level(self, id);
}

static void on_layer_row_selected(GtkListBox *box, GtkListBoxRow *row, TessLayersPanel *self) {
  if (self->syncing || row == NULL) return;
  TessId id = g_array_index(self->layer_ids, TessId, gtk_list_box_row_get_index(row));
  tess_layers_panel_select_layer(self, id);
}

void tess_layers_panel_select_level(TessLayersPanel *self, TessId level) {
  g_return_if_fail(TESS_IS_LAYERS_PANEL(self));
  if (level == self->level) return;
  self->level = level;
  self->layer = 0;
  g_signal_emit(self, signals[SIGNAL_LEVEL_SELECTED], 0, (guint)level);
  panel_sync(self);
}

void tess_layers_panel_select_layer(TessLayersPanel *self, TessId layer) {
  g_return_if_fail(TESS_IS_LAYERS_PANEL(self));
  if (layer == self->layer) return;
  self->layer = layer;
  g_signal_emit(self, signals[SIGNAL_LAYER_SELECTED], 0, (guint)layer);
  panel_sync(self);
}

TessId tess_layers_panel_get_level(TessLayersPanel *self) { return self->level; }
TessId tess_layers_panel_get_layer(TessLayersPanel *self) { return self->layer; }

/* ---- Operations ---------------------------------------------------------- */

gboolean tess_layers_panel_add_layer(TessLayersPanel *self, TessLayerKind kind) {
  TessLevel *level = current_level(self);
  if (!level) return FALSE;
  int index = tess_level_layer_index(level, self->layer);
  g_autofree char *name = g_strdup_printf(kind == TESS_LAYER_OBJECTS ? _("Objects %u") : _("Tiles %u"),
                                          level->layer_count + 1);
  TessError err = {0};
  TessId id = 0;
  TessResult r = tess_edit_layer_add(project(self), self->level, kind, name, index >= 0 ? index + 1 : -1, &id, &err);
  if (!tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err)) return FALSE;
  tess_layers_panel_select_layer(self, id);
  return TRUE;
}

gboolean tess_layers_panel_remove_layer(TessLayersPanel *self) {
  if (!current_level(self) || !self->layer) return FALSE;
  TessError err = {0};
  TessResult r = tess_edit_layer_remove(project(self), self->level, self->layer, &err);
  return tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

gboolean tess_layers_panel_move_layer(TessLayersPanel *self, int delta) {
  TessLevel *level = current_level(self);
  int index = level ? tess_level_layer_index(level, self->layer) : -1;
  if (index < 0) return FALSE;
  int target = index + delta;
  if (target < 0 || target >= (int)level->layer_count) return FALSE;
  TessError err = {0};
  TessResult r = tess_edit_layer_move(project(self), self->level, self->layer, target, &err);
  return tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

gboolean tess_layers_panel_rename_layer(TessLayersPanel *self, TessId id, const char *name) {
  TessLevel *level = current_level(self);
  TessLayer *layer = level ? tess_level_layer(level, id) : NULL;
  if (!layer || name == NULL) return FALSE;
  TessLayerProps props = layer->props;
  if (!tess_ui_copy_name(props.name, name) || strcmp(props.name, layer->props.name) == 0) return FALSE;
  return set_props(self, &props, 0);
}

gboolean tess_layers_panel_add_level(TessLayersPanel *self) {
  TessProject *p = project(self);
  if (!p) return FALSE;
  TessLevelSettings s;
  tess_level_settings_default(&s);
  TessLevel *current = current_level(self);
  if (current) { /* a new level looks like the one in front of the user */
    s = current->settings;
  }
  g_snprintf(s.name, sizeof s.name, _("Level %u"), p->level_count + 1);
  TessError err = {0};
  TessId id = 0;
  TessResult r = tess_edit_level_add(p, &s, &id, &err);
  if (!tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err)) return FALSE;
  panel_sync(self);
  tess_layers_panel_select_level(self, id);
  return TRUE;
}

gboolean tess_layers_panel_remove_level(TessLayersPanel *self) {
  TessProject *p = project(self);
  if (!p || p->level_count <= 1 || !self->level) return FALSE;
  TessError err = {0};
  TessLevel *level = tess_project_level(p, self->level);
  g_autofree char *name = g_strdup(level ? level->settings.name : "");
  TessResult r = tess_edit_level_remove(p, self->level, &err);
  if (!tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err)) return FALSE;
  /* Deleting asks nothing (Tiled and LDtk do not either) but says what went,
   * with Undo one click away. */
  g_autofree char *msg = g_strdup_printf(_("Level “%s” deleted"), name);
  tess_ui_notify(GTK_WIDGET(self), msg, _("Undo"), "win.undo");
  return TRUE;
}

static void on_add_tile_layer(GtkButton *b, TessLayersPanel *self) { tess_layers_panel_add_layer(self, TESS_LAYER_TILES); }
static void on_add_object_layer(GtkButton *b, TessLayersPanel *self) {
  GtkWidget *popover = gtk_widget_get_ancestor(GTK_WIDGET(b), GTK_TYPE_POPOVER);
  if (popover) gtk_popover_popdown(GTK_POPOVER(popover));
  tess_layers_panel_add_layer(self, TESS_LAYER_OBJECTS);
}
static void on_add_tile_layer_menu(GtkButton *b, TessLayersPanel *self) {
  GtkWidget *popover = gtk_widget_get_ancestor(GTK_WIDGET(b), GTK_TYPE_POPOVER);
  if (popover) gtk_popover_popdown(GTK_POPOVER(popover));
  on_add_tile_layer(b, self);
}
static void on_remove_layer(GtkButton *b, TessLayersPanel *self) { tess_layers_panel_remove_layer(self); }
static void on_up(GtkButton *b, TessLayersPanel *self) { tess_layers_panel_move_layer(self, +1); }
static void on_down(GtkButton *b, TessLayersPanel *self) { tess_layers_panel_move_layer(self, -1); }
static void on_add_level(GtkButton *b, TessLayersPanel *self) { tess_layers_panel_add_level(self); }
static void on_remove_level(GtkButton *b, TessLayersPanel *self) { tess_layers_panel_remove_level(self); }

/* ---- Document ------------------------------------------------------------ */

void tess_layers_panel_set_document(TessLayersPanel *self, TessDocument *doc) {
  g_return_if_fail(TESS_IS_LAYERS_PANEL(self));
  if (self->doc == doc) return;
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  if (doc) {
    self->doc = g_object_ref(doc);
    self->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_doc_changed), self);
    self->committed_handler = g_signal_connect(doc, "committed", G_CALLBACK(on_doc_committed), self);
  }
  self->level = 0;
  self->layer = 0;
  g_array_set_size(self->level_ids, 0);
  g_array_set_size(self->layer_ids, 0);
  clear_list(self->levels);
  clear_list(self->layers);
  panel_sync(self);
}

/* ---- Construction -------------------------------------------------------- */

static void tess_layers_panel_dispose(GObject *object) {
  TessLayersPanel *self = TESS_LAYERS_PANEL(object);
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_LAYERS_PANEL);
  G_OBJECT_CLASS(tess_layers_panel_parent_class)->dispose(object);
}

static void tess_layers_panel_finalize(GObject *object) {
  TessLayersPanel *self = TESS_LAYERS_PANEL(object);
  g_array_unref(self->level_ids);
  g_array_unref(self->layer_ids);
  G_OBJECT_CLASS(tess_layers_panel_parent_class)->finalize(object);
}

static void tess_layers_panel_class_init(TessLayersPanelClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  object_class->dispose = tess_layers_panel_dispose;
  object_class->finalize = tess_layers_panel_finalize;
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-layers-panel.ui");
  gtk_widget_class_bind_template_child(widget_class, TessLayersPanel, levels);
  gtk_widget_class_bind_template_child(widget_class, TessLayersPanel, layers);
  gtk_widget_class_bind_template_child(widget_class, TessLayersPanel, remove_level_button);
  gtk_widget_class_bind_template_child(widget_class, TessLayersPanel, add_layer_button);
  gtk_widget_class_bind_template_child(widget_class, TessLayersPanel, remove_layer_button);
  gtk_widget_class_bind_template_child(widget_class, TessLayersPanel, up_button);
  gtk_widget_class_bind_template_child(widget_class, TessLayersPanel, down_button);
  gtk_widget_class_bind_template_callback(widget_class, on_add_level);
  gtk_widget_class_bind_template_callback(widget_class, on_remove_level);
  gtk_widget_class_bind_template_callback(widget_class, on_add_tile_layer_menu);
  gtk_widget_class_bind_template_callback(widget_class, on_add_object_layer);
  gtk_widget_class_bind_template_callback(widget_class, on_remove_layer);
  gtk_widget_class_bind_template_callback(widget_class, on_up);
  gtk_widget_class_bind_template_callback(widget_class, on_down);
  gtk_widget_class_bind_template_callback(widget_class, on_level_row_selected);
  gtk_widget_class_bind_template_callback(widget_class, on_layer_row_selected);
  signals[SIGNAL_LEVEL_SELECTED] = g_signal_new("level-selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_LAYER_SELECTED] = g_signal_new("layer-selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void tess_layers_panel_init(TessLayersPanel *self) {
  self->level_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  self->layer_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  gtk_widget_init_template(GTK_WIDGET(self));
  update_buttons(self);
}

GtkWidget *tess_layers_panel_new(void) { return g_object_new(TESS_TYPE_LAYERS_PANEL, NULL); }
