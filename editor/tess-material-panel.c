/* TessMaterialPanel: material palette and inspector. */
#include "tess-material-panel.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tess-ui.h"

struct _TessMaterialPanel {
  GtkBox parent_instance;

  /* template widgets */
  GtkListBox *list;
  GtkWidget *inspector;
  GtkWidget *name, *color, *kind, *friction, *restitution, *tangential, *density;
  GtkWidget *restitution_scale, *tangential_scale; /* on their fields' adjustments */
  GtkWidget *duplicate_button, *remove_button;

  /* owned */
  TessDocument *doc;
  GArray *ids;

  TessId selected;
  gboolean dirty, syncing;
  /* Changes of one field in quick succession (a slider drag, an arrow held
   * down) are one undo step. */
  GtkWidget *merge_field;
  guint32 merge_key;
  gint64 merge_time;
  gulong changed_handler, committed_handler;
};

G_DEFINE_FINAL_TYPE(TessMaterialPanel, tess_material_panel, GTK_TYPE_BOX)

enum { SIGNAL_MATERIAL_SELECTED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

/* "selected": the chosen material's id (0: none). The inspector and the
 * Duplicate and Delete buttons are sensitive through bindings on it in
 * tess-material-panel.ui. */
enum { PROP_0,
       PROP_SELECTED,
       N_PROPS };
static GParamSpec *props[N_PROPS];

static void set_selected(TessMaterialPanel *self, TessId id) {
  if (self->selected == id) return;
  self->selected = id;
  g_object_notify_by_pspec(G_OBJECT(self), props[PROP_SELECTED]);
}

/* The template's closure: a material is chosen. */
static gboolean id_is_set(gpointer unused, guint id) { return id != 0; }

static TessProject *project(TessMaterialPanel *self) { return self->doc ? tess_document_get_project(self->doc) : NULL; }

static const TessMaterial *selected(TessMaterialPanel *self) {
  return project(self) ? tess_project_material(project(self), self->selected) : NULL;
}

static const char *kind_name(uint8_t kind) {
  switch (kind) {
    case TESS_MATERIAL_FLOOR: return _("Floor");
    case TESS_MATERIAL_FLUID: return _("Fluid");
    default: return _("Solid");
  }
}

/* ---- Sync ------------------------------------------------------------------ */

static void sync_inspector(TessMaterialPanel *self) {
  const TessMaterial *m = selected(self);
  if (!m) return;
  self->syncing = TRUE;
  if (!gtk_widget_has_focus(self->name) && strcmp(gtk_editable_get_text(GTK_EDITABLE(self->name)), m->name) != 0)
    gtk_editable_set_text(GTK_EDITABLE(self->name), m->name);
  GdkRGBA rgba;
  tess_ui_rgba_from_u32(m->color, &rgba);
  gtk_color_chooser_set_rgba(GTK_COLOR_CHOOSER(self->color), &rgba);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(self->kind), m->kind);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->friction), m->friction);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->restitution), m->restitution);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->tangential), m->tangential);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->density), m->density);
  self->syncing = FALSE;
}

static GtkWidget *material_row_new(const TessMaterial *m) {
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_margin_start(box, 6);
  gtk_widget_set_margin_top(box, 3);
  gtk_widget_set_margin_bottom(box, 3);
  gtk_box_append(GTK_BOX(box), tess_ui_swatch_new(m->color));
  GtkWidget *name = gtk_label_new(m->name);
  gtk_label_set_xalign(GTK_LABEL(name), 0);
  gtk_label_set_ellipsize(GTK_LABEL(name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand(name, TRUE);
  gtk_box_append(GTK_BOX(box), name);
  GtkWidget *kind = gtk_label_new(kind_name(m->kind));
  gtk_widget_add_css_class(kind, "dim-label");
  gtk_widget_add_css_class(kind, "caption");
  gtk_widget_set_margin_end(kind, 6);
  gtk_box_append(GTK_BOX(box), kind);
  return box;
}

static void panel_sync(TessMaterialPanel *self) {
  TessProject *p = project(self);
  self->syncing = TRUE;
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->list))) != NULL) gtk_list_box_remove(self->list, child);
  g_array_set_size(self->ids, 0);
  guint n = p ? p->material_count : 0;
  int sel = -1;
  for (guint i = 0; i < n; i++) {
    gtk_list_box_append(self->list, material_row_new(&p->materials[i]));
    g_array_append_val(self->ids, p->materials[i].id);
    if (p->materials[i].id == self->selected) sel = (int)i;
  }
  if (sel < 0 && n > 0) sel = 0;
  TessId id = sel >= 0 ? g_array_index(self->ids, TessId, sel) : 0;
  gtk_list_box_select_row(self->list, sel >= 0 ? gtk_list_box_get_row_at_index(self->list, sel) : NULL);
  self->syncing = FALSE;
  self->dirty = FALSE;
  if (id != self->selected) {
    set_selected(self, id);
    g_signal_emit(self, signals[SIGNAL_MATERIAL_SELECTED], 0, (guint)id);
  }
  sync_inspector(self);
}

/* ---- Editing ---------------------------------------------------------------- */

static gboolean store_merged(TessMaterialPanel *self, const TessMaterial *m, uint32_t merge);
static gboolean store(TessMaterialPanel *self, const TessMaterial *m) { return store_merged(self, m, 0); }

/* Validates (core names the bad field) before anything is stored. */
static gboolean store_merged(TessMaterialPanel *self, const TessMaterial *m, uint32_t merge) {
  TessError err = {0};
  TessResult r = tess_material_validate(m, &err);
  if (r == TESS_OK) r = tess_edit_material_set(project(self), m, merge, &err);
  gboolean ok = tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
  if (!ok) sync_inspector(self); /* show what is really stored */
  return ok;
}

static void on_name_done(TessMaterialPanel *self) {
  const TessMaterial *cur = selected(self);
  if (self->syncing || !cur) return;
  TessMaterial m = *cur;
  if (!tess_ui_copy_name(m.name, gtk_editable_get_text(GTK_EDITABLE(self->name)))) {
    gtk_editable_set_text(GTK_EDITABLE(self->name), cur->name);
    return;
  }
  if (strcmp(m.name, cur->name) != 0) store(self, &m);
}

static void on_name_activate(GtkEntry *entry, TessMaterialPanel *self) { on_name_done(self); }

static void on_name_focus_leave(GtkEventControllerFocus *c, TessMaterialPanel *self) { on_name_done(self); }

static void on_color_set(GtkColorButton *button, TessMaterialPanel *self) {
  const TessMaterial *cur = selected(self);
  if (self->syncing || !cur) return;
  TessMaterial m = *cur;
  GdkRGBA rgba;
  gtk_color_chooser_get_rgba(GTK_COLOR_CHOOSER(button), &rgba);
  m.color = tess_ui_rgba_to_u32(&rgba);
  if (m.color != cur->color) store(self, &m);
}

static void on_kind_selected(GtkDropDown *dd, GParamSpec *pspec, TessMaterialPanel *self) {
  const TessMaterial *cur = selected(self);
  if (self->syncing || !cur) return;
  guint kind = gtk_drop_down_get_selected(dd);
  if (kind > TESS_MATERIAL_FLUID || kind == (guint)cur->kind) return;
  TessMaterial m = *cur;
  m.kind = (TessMaterialKind)kind;
  store(self, &m);
}

static void on_number_changed(GtkSpinButton *spin, TessMaterialPanel *self) {
  /* A value typed and committed is a step of its own (two typed edits of a
   * field were undone by one Ctrl+Z); steps of a drag or a held arrow merge. */
  gboolean typed = tess_ui_number_take_typed(GTK_WIDGET(spin));
  const TessMaterial *cur = selected(self);
  if (self->syncing || !cur) return;
  TessMaterial m = *cur;
  float v = (float)gtk_spin_button_get_value(spin);
  if (GTK_WIDGET(spin) == self->friction) m.friction = v;
  else if (GTK_WIDGET(spin) == self->restitution) m.restitution = v;
  else if (GTK_WIDGET(spin) == self->tangential) m.tangential = v;
  else if (GTK_WIDGET(spin) == self->density) m.density = v;
  if (memcmp(&m, cur, sizeof m) == 0) return;
  gint64 now = g_get_monotonic_time();
  if (typed || self->merge_field != GTK_WIDGET(spin) || now - self->merge_time > 800000 || self->merge_key == 0)
    self->merge_key = tess_project_new_merge_key(project(self));
  self->merge_field = typed ? NULL : GTK_WIDGET(spin);
  self->merge_time = now;
  store_merged(self, &m, self->merge_key);
}

/* ---- Palette operations ---------------------------------------------------- */

static void on_row_selected(GtkListBox *box, GtkListBoxRow *row, TessMaterialPanel *self) {
  if (self->syncing || !row) return;
  tess_material_panel_select(self, g_array_index(self->ids, TessId, gtk_list_box_row_get_index(row)));
}

TessId tess_material_panel_get_selected(TessMaterialPanel *self) { return self->selected; }

void tess_material_panel_select(TessMaterialPanel *self, TessId id) {
  g_return_if_fail(TESS_IS_MATERIAL_PANEL(self));
  if (id == self->selected) return;
  set_selected(self, id);
  g_signal_emit(self, signals[SIGNAL_MATERIAL_SELECTED], 0, (guint)id);
  panel_sync(self);
}

GtkWidget *tess_material_panel_get_field(TessMaterialPanel *self, const char *field) {
  if (g_str_equal(field, "name")) return self->name;
  if (g_str_equal(field, "color")) return self->color;
  if (g_str_equal(field, "kind")) return self->kind;
  if (g_str_equal(field, "friction")) return self->friction;
  if (g_str_equal(field, "restitution")) return self->restitution;
  if (g_str_equal(field, "tangential")) return self->tangential;
  if (g_str_equal(field, "density")) return self->density;
  return NULL;
}

static gboolean add_material(TessMaterialPanel *self, const TessMaterial *m) {
  TessError err = {0};
  TessId id = 0;
  TessResult r = tess_edit_material_add(project(self), m, &id, &err);
  if (!tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err)) return FALSE;
  tess_material_panel_select(self, id);
  return TRUE;
}

gboolean tess_material_panel_add(TessMaterialPanel *self) {
  if (!project(self)) return FALSE;
  TessMaterial m;
  tess_material_default(&m);
  g_snprintf(m.name, sizeof m.name, _("Material %u"), project(self)->material_count + 1);
  return add_material(self, &m);
}

gboolean tess_material_panel_duplicate(TessMaterialPanel *self) {
  const TessMaterial *cur = selected(self);
  if (!cur) return FALSE;
  TessMaterial m = *cur;
  g_autofree char *name = g_strdup_printf(_("%s (copy)"), cur->name);
  tess_ui_copy_name(m.name, name);
  return add_material(self, &m);
}

gboolean tess_material_panel_remove(TessMaterialPanel *self, TessId replacement) {
  const TessMaterial *cur = selected(self);
  if (!cur) return FALSE;
  TessError err = {0};
  TessResult r = tess_edit_material_remove(project(self), cur->id, replacement, &err);
  return tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

static void on_remove_response(GtkDialog *dialog, int response, TessMaterialPanel *self) {
  if (response == GTK_RESPONSE_ACCEPT) {
    GtkDropDown *dd = g_object_get_data(G_OBJECT(dialog), "replacement");
    GArray *ids = g_object_get_data(G_OBJECT(dialog), "ids");
    guint sel = gtk_drop_down_get_selected(dd);
    TessId replacement = (sel != GTK_INVALID_LIST_POSITION && sel > 0 && sel - 1 < ids->len)
                             ? g_array_index(ids, TessId, sel - 1)
                             : 0;
    tess_material_panel_remove(self, replacement);
  }
  gtk_window_destroy(GTK_WINDOW(dialog));
}

/* Deleting asks what becomes of the cells and bodies that use the material. */
static void on_remove_clicked(GtkButton *b, TessMaterialPanel *self) {
  const TessMaterial *cur = selected(self);
  TessProject *p = project(self);
  if (!cur) return;
  g_autofree char *title = g_strdup_printf(_("Delete “%s”?"), cur->name);
  GtkWidget *dialog = gtk_message_dialog_new(GTK_WINDOW(gtk_widget_get_root(GTK_WIDGET(self))),
                                             GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT, GTK_MESSAGE_QUESTION,
                                             GTK_BUTTONS_NONE, "%s", title);
  gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s",
                                           _("Cells, tiles and bodies that use it lose it, or get another material."));
  gtk_dialog_add_buttons(GTK_DIALOG(dialog), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Delete"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_widget_add_css_class(gtk_dialog_get_widget_for_response(GTK_DIALOG(dialog), GTK_RESPONSE_ACCEPT),
                           "destructive-action");
  GtkStringList *names = gtk_string_list_new(NULL);
  gtk_string_list_append(names, _("Leave them without a material"));
  GArray *ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  for (uint32_t i = 0; i < p->material_count; i++) {
    if (p->materials[i].id == cur->id) continue;
    g_autofree char *label = g_strdup_printf(_("Give them “%s”"), p->materials[i].name);
    gtk_string_list_append(names, label);
    g_array_append_val(ids, p->materials[i].id);
  }
  GtkWidget *dd = gtk_drop_down_new(G_LIST_MODEL(names), NULL);
  gtk_box_append(GTK_BOX(gtk_message_dialog_get_message_area(GTK_MESSAGE_DIALOG(dialog))), dd);
  g_object_set_data(G_OBJECT(dialog), "replacement", dd);
  g_object_set_data_full(G_OBJECT(dialog), "ids", ids, (GDestroyNotify)g_array_unref);
  g_signal_connect(dialog, "response", G_CALLBACK(on_remove_response), self);
  gtk_window_present(GTK_WINDOW(dialog));
}

static void on_add_clicked(GtkButton *b, TessMaterialPanel *self) { tess_material_panel_add(self); }
static void on_duplicate_clicked(GtkButton *b, TessMaterialPanel *self) { tess_material_panel_duplicate(self); }

/* ---- Document ------------------------------------------------------------- */

static void on_doc_changed(TessDocument *doc, gpointer change_ptr, TessMaterialPanel *self) {
  if (((const TessChange *)change_ptr)->kind == TESS_CHANGE_MATERIAL) self->dirty = TRUE;
}

static void on_doc_committed(TessDocument *doc, TessMaterialPanel *self) {
  if (self->dirty) panel_sync(self);
}

void tess_material_panel_set_document(TessMaterialPanel *self, TessDocument *doc) {
  g_return_if_fail(TESS_IS_MATERIAL_PANEL(self));
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  set_selected(self, 0);
  if (doc) {
    self->doc = g_object_ref(doc);
    self->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_doc_changed), self);
    self->committed_handler = g_signal_connect(doc, "committed", G_CALLBACK(on_doc_committed), self);
  }
  panel_sync(self);
}

/* ---- Construction ----------------------------------------------------------- */

static void tess_material_panel_dispose(GObject *object) {
  TessMaterialPanel *self = TESS_MATERIAL_PANEL(object);
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_MATERIAL_PANEL);
  G_OBJECT_CLASS(tess_material_panel_parent_class)->dispose(object);
}

static void tess_material_panel_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  TessMaterialPanel *self = TESS_MATERIAL_PANEL(object);
  switch (id) {
    case PROP_SELECTED: g_value_set_uint(value, self->selected); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_material_panel_finalize(GObject *object) {
  g_array_unref(TESS_MATERIAL_PANEL(object)->ids);
  G_OBJECT_CLASS(tess_material_panel_parent_class)->finalize(object);
}

static void tess_material_panel_class_init(TessMaterialPanelClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  object_class->dispose = tess_material_panel_dispose;
  object_class->finalize = tess_material_panel_finalize;
  object_class->get_property = tess_material_panel_get_property;
  props[PROP_SELECTED] = g_param_spec_uint("selected", NULL, NULL, 0, G_MAXUINT, 0,
                                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(object_class, N_PROPS, props);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-material-panel.ui");
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, list);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, inspector);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, name);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, color);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, kind);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, friction);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, restitution);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, tangential);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, density);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, restitution_scale);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, tangential_scale);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, duplicate_button);
  gtk_widget_class_bind_template_child(widget_class, TessMaterialPanel, remove_button);
  gtk_widget_class_bind_template_callback(widget_class, on_add_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_duplicate_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_remove_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_row_selected);
  gtk_widget_class_bind_template_callback(widget_class, on_name_activate);
  gtk_widget_class_bind_template_callback(widget_class, on_name_focus_leave);
  gtk_widget_class_bind_template_callback(widget_class, on_color_set);
  gtk_widget_class_bind_template_callback(widget_class, on_kind_selected);
  gtk_widget_class_bind_template_callback(widget_class, id_is_set);
  signals[SIGNAL_MATERIAL_SELECTED] = g_signal_new("material-selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
                                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void tess_material_panel_init(TessMaterialPanel *self) {
  self->ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  gtk_widget_init_template(GTK_WIDGET(self));
  gtk_entry_set_max_length(GTK_ENTRY(self->name), TESS_NAME_MAX - 1);
  /* The ranges core accepts (tess_material_validate), asked of core; the
   * efficiencies' sliders share their fields' adjustments in the template. */
  tess_ui_number_setup(self->friction, tess_surface_range(TESS_SURFACE_FRICTION), 0.05, 3, _("Friction"));
  tess_ui_number_setup(self->restitution, tess_surface_range(TESS_SURFACE_RESTITUTION), 0.05, 3, _("Restitution"));
  tess_ui_number_setup(self->tangential, tess_surface_range(TESS_SURFACE_TANGENTIAL), 0.05, 3, _("Tangential efficiency"));
  tess_ui_number_setup(self->density, tess_material_density_range(), 0.1, 3, _("Density"));
  /* The template's tooltips say what each number is; the range, core's,
   * is added here, once, and the sliders say what their fields say. */
  GtkWidget *fields[] = {self->friction, self->restitution, self->tangential, self->density};
  for (guint i = 0; i < G_N_ELEMENTS(fields); i++) {
    g_autofree char *about = g_strdup(gtk_widget_get_tooltip_text(fields[i]));
    tess_ui_number_set_tooltip(fields[i], about);
  }
  g_object_bind_property(self->restitution, "tooltip-text", self->restitution_scale, "tooltip-text", G_BINDING_SYNC_CREATE);
  g_object_bind_property(self->tangential, "tooltip-text", self->tangential_scale, "tooltip-text", G_BINDING_SYNC_CREATE);
  /* Connected after the field's own checks, which run first. */
  GtkWidget *spins[] = {self->friction, self->restitution, self->tangential, self->density};
  for (guint i = 0; i < G_N_ELEMENTS(spins); i++)
    g_signal_connect(spins[i], "value-changed", G_CALLBACK(on_number_changed), self);
  panel_sync(self);
}

GtkWidget *tess_material_panel_new(void) { return g_object_new(TESS_TYPE_MATERIAL_PANEL, NULL); }
