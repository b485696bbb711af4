/* TessLayersPanel: levels and layers of the open project. */
#include "tess-layers-panel.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tess-ui.h"

struct _TessLayersPanel {
  GtkBox parent_instance;

  /* widgets */
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

static GtkWidget *layer_row_new(TessLayersPanel *self, const TessLayer *layer) {
  TessId id = layer->props.id;
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_margin_start(box, 4);
  gtk_widget_set_margin_end(box, 4);

  GtkWidget *eye = gtk_toggle_button_new();
  gtk_button_set_icon_name(GTK_BUTTON(eye), "view-reveal-symbolic");
  gtk_widget_set_tooltip_text(eye, _("Show or hide the layer"));
  gtk_widget_add_css_class(eye, "flat");
  gtk_widget_add_css_class(eye, "tess-layer-toggle");
  tag(eye, id);
  g_signal_connect(eye, "toggled", G_CALLBACK(on_visible_toggled), self);
  gtk_box_append(GTK_BOX(box), eye);

  GtkWidget *lock = gtk_toggle_button_new();
  gtk_button_set_icon_name(GTK_BUTTON(lock), "changes-prevent-symbolic");
  gtk_widget_set_tooltip_text(lock, _("Lock the layer against edits"));
  gtk_widget_add_css_class(lock, "flat");
  gtk_widget_add_css_class(lock, "tess-layer-toggle");
  tag(lock, id);
  g_signal_connect(lock, "toggled", G_CALLBACK(on_locked_toggled), self);
  gtk_box_append(GTK_BOX(box), lock);

  GtkWidget *label = gtk_label_new(NULL);
  gtk_label_set_xalign(GTK_LABEL(label), 0);
  gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand(label, TRUE);
  gtk_box_append(GTK_BOX(box), label);

  GtkWidget *kind = gtk_label_new(layer_kind_name(layer->props.kind));
  gtk_widget_add_css_class(kind, "dim-label");
  gtk_widget_add_css_class(kind, "caption");
  gtk_box_append(GTK_BOX(box), kind);

  /* Rename, opacity and collides in a popover: they are set rarely. */
  GtkWidget *grid = gtk_grid_new();
  gtk_grid_set_row_spacing(GTK_GRID(grid), 6);
  gtk_grid_set_column_spacing(GTK_GRID(grid), 6);
  GtkWidget *name_label = gtk_label_new_with_mnemonic(_("_Name"));
  gtk_label_set_xalign(GTK_LABEL(name_label), 1);
  GtkWidget *entry = gtk_entry_new();
  gtk_entry_set_max_length(GTK_ENTRY(entry), TESS_NAME_MAX - 1);
  gtk_label_set_mnemonic_widget(GTK_LABEL(name_label), entry);
  tag(entry, id);
  g_signal_connect(entry, "activate", G_CALLBACK(on_name_activate), self);
  gtk_grid_attach(GTK_GRID(grid), name_label, 0, 0, 1, 1);
  gtk_grid_attach(GTK_GRID(grid), entry, 1, 0, 1, 1);

  GtkWidget *opacity_label = gtk_label_new_with_mnemonic(_("_Opacity"));
  gtk_label_set_xalign(GTK_LABEL(opacity_label), 1);
  GtkWidget *scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0.0, 1.0, 0.05);
  gtk_scale_set_draw_value(GTK_SCALE(scale), TRUE);
  gtk_scale_set_digits(GTK_SCALE(scale), 2);
  gtk_widget_set_size_request(scale, 160, -1);
  gtk_label_set_mnemonic_widget(GTK_LABEL(opacity_label), scale);
  tag(scale, id);
  g_signal_connect(scale, "value-changed", G_CALLBACK(on_opacity_changed), self);
  gtk_grid_attach(GTK_GRID(grid), opacity_label, 0, 1, 1, 1);
  gtk_grid_attach(GTK_GRID(grid), scale, 1, 1, 1, 1);

  GtkWidget *collides = gtk_check_button_new_with_mnemonic(_("_Collides"));
  gtk_widget_set_tooltip_text(collides, _("Tiles of this layer give the cells their collision shape"));
  tag(collides, id);
  g_signal_connect(collides, "toggled", G_CALLBACK(on_collides_toggled), self);
  gtk_widget_set_sensitive(collides, layer->props.kind == TESS_LAYER_TILES);
  gtk_grid_attach(GTK_GRID(grid), collides, 1, 2, 1, 1);

  GtkWidget *popover = gtk_popover_new();
  gtk_popover_set_child(GTK_POPOVER(popover), grid);
  g_object_set_data(G_OBJECT(popover), "tess-scale", scale);
  g_signal_connect(popover, "show", G_CALLBACK(on_popover_show), self);
  GtkWidget *menu = gtk_menu_button_new();
  gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(menu), "document-properties-symbolic");
  gtk_menu_button_set_popover(GTK_MENU_BUTTON(menu), popover);
  gtk_widget_set_tooltip_text(menu, _("Layer properties"));
  gtk_widget_add_css_class(menu, "flat");
  gtk_box_append(GTK_BOX(box), menu);

  GtkWidget *row = gtk_list_box_row_new();
  gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(row), box);
  tag(row, id);
  g_object_set_data(G_OBJECT(row), "eye", eye);
  g_object_set_data(G_OBJECT(row), "lock", lock);
  g_object_set_data(G_OBJECT(row), "label", label);
  g_object_set_data(G_OBJECT(row), "entry", entry);
  g_object_set_data(G_OBJECT(row), "scale", scale);
  g_object_set_data(G_OBJECT(row), "collides", collides);
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
      gtk_list_box_append(self->layers, layer_row_new(self, layer));
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

static GtkWidget *icon_button(const char *icon, const char *tooltip, GCallback cb, gpointer self) {
  GtkWidget *b = gtk_button_new_from_icon_name(icon);
  gtk_widget_set_tooltip_text(b, tooltip);
  gtk_widget_add_css_class(b, "flat");
  g_signal_connect(b, "clicked", cb, self);
  return b;
}

static GtkWidget *section(const char *title, GtkWidget *list, GtkWidget *toolbar) {
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *head = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *label = gtk_label_new(title);
  gtk_widget_add_css_class(label, "heading");
  gtk_label_set_xalign(GTK_LABEL(label), 0);
  gtk_widget_set_hexpand(label, TRUE);
  gtk_widget_set_margin_start(label, 6);
  gtk_box_append(GTK_BOX(head), label);
  gtk_box_append(GTK_BOX(head), toolbar);
  gtk_box_append(GTK_BOX(box), head);
  GtkWidget *scroll = gtk_scrolled_window_new();
  gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), list);
  gtk_widget_set_vexpand(scroll, TRUE);
  gtk_widget_add_css_class(list, "navigation-sidebar");
  gtk_box_append(GTK_BOX(box), scroll);
  return box;
}

static void tess_layers_panel_dispose(GObject *object) {
  TessLayersPanel *self = TESS_LAYERS_PANEL(object);
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
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
  signals[SIGNAL_LEVEL_SELECTED] = g_signal_new("level-selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_LAYER_SELECTED] = g_signal_new("layer-selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void tess_layers_panel_init(TessLayersPanel *self) {
  self->level_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  self->layer_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  gtk_orientable_set_orientation(GTK_ORIENTABLE(self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing(GTK_BOX(self), 8);

  self->levels = GTK_LIST_BOX(gtk_list_box_new());
  g_signal_connect(self->levels, "row-selected", G_CALLBACK(on_level_row_selected), self);
  GtkWidget *level_tools = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append(GTK_BOX(level_tools), icon_button("list-add-symbolic", _("Add a level"), G_CALLBACK(on_add_level), self));
  self->remove_level_button = icon_button("list-remove-symbolic", _("Remove the level"), G_CALLBACK(on_remove_level), self);
  gtk_box_append(GTK_BOX(level_tools), self->remove_level_button);
  GtkWidget *levels_section = section(_("Levels"), GTK_WIDGET(self->levels), level_tools);
  gtk_widget_set_vexpand(levels_section, FALSE);
  gtk_box_append(GTK_BOX(self), levels_section);

  self->layers = GTK_LIST_BOX(gtk_list_box_new());
  g_signal_connect(self->layers, "row-selected", G_CALLBACK(on_layer_row_selected), self);
  GtkWidget *layer_tools = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *add_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *add_tiles = gtk_button_new_with_mnemonic(_("_Tile Layer"));
  gtk_widget_add_css_class(add_tiles, "flat");
  g_signal_connect(add_tiles, "clicked", G_CALLBACK(on_add_tile_layer_menu), self);
  GtkWidget *add_objects = gtk_button_new_with_mnemonic(_("_Object Layer"));
  gtk_widget_add_css_class(add_objects, "flat");
  g_signal_connect(add_objects, "clicked", G_CALLBACK(on_add_object_layer), self);
  gtk_box_append(GTK_BOX(add_box), add_tiles);
  gtk_box_append(GTK_BOX(add_box), add_objects);
  GtkWidget *add_popover = gtk_popover_new();
  gtk_popover_set_child(GTK_POPOVER(add_popover), add_box);
  self->add_layer_button = gtk_menu_button_new();
  gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(self->add_layer_button), "list-add-symbolic");
  gtk_menu_button_set_popover(GTK_MENU_BUTTON(self->add_layer_button), add_popover);
  gtk_widget_set_tooltip_text(self->add_layer_button, _("Add a layer"));
  gtk_widget_add_css_class(self->add_layer_button, "flat");
  gtk_box_append(GTK_BOX(layer_tools), self->add_layer_button);
  self->remove_layer_button = icon_button("list-remove-symbolic", _("Remove the layer"), G_CALLBACK(on_remove_layer), self);
  gtk_box_append(GTK_BOX(layer_tools), self->remove_layer_button);
  self->up_button = icon_button("go-up-symbolic", _("Raise the layer"), G_CALLBACK(on_up), self);
  gtk_box_append(GTK_BOX(layer_tools), self->up_button);
  self->down_button = icon_button("go-down-symbolic", _("Lower the layer"), G_CALLBACK(on_down), self);
  gtk_box_append(GTK_BOX(layer_tools), self->down_button);
  gtk_box_append(GTK_BOX(self), section(_("Layers"), GTK_WIDGET(self->layers), layer_tools));
  update_buttons(self);
}

GtkWidget *tess_layers_panel_new(void) { return g_object_new(TESS_TYPE_LAYERS_PANEL, NULL); }
