/* TessLevelPropertiesDialog. */
#include "tess-level-properties-dialog.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tess-ui.h"

struct _TessLevelPropertiesDialog {
  GtkDialog parent_instance;

  /* widgets */
  GtkWidget *name, *width, *height, *anchor_x, *anchor_y, *tile_w, *tile_h, *ppm, *gravity_x, *gravity_y;
  GtkWidget *view, *physics_hz, *substeps, *floor_drag;
  GtkLabel *message;

  /* owned */
  TessDocument *doc;
  TessId level;
};

G_DEFINE_FINAL_TYPE(TessLevelPropertiesDialog, tess_level_properties_dialog, GTK_TYPE_DIALOG)

static double spin(GtkWidget *w) {
  /* Text typed but not yet activated counts (and bad text is refused by the spin's input handler). */
  gtk_spin_button_update(GTK_SPIN_BUTTON(w));
  return gtk_spin_button_get_value(GTK_SPIN_BUTTON(w));
}

gboolean tess_level_properties_dialog_apply(TessLevelPropertiesDialog *self) {
  TessProject *p = tess_document_get_project(self->doc);
  TessLevel *level = tess_project_level(p, self->level);
  if (!level) return FALSE;
  TessLevelSettings s = level->settings;
  if (!tess_ui_copy_name(s.name, gtk_editable_get_text(GTK_EDITABLE(self->name)))) {
    gtk_label_set_text(self->message, _("The level needs a name."));
    return FALSE;
  }
  s.width = (uint32_t)spin(self->width);
  s.height = (uint32_t)spin(self->height);
  s.tile_w = (uint32_t)spin(self->tile_w);
  s.tile_h = (uint32_t)spin(self->tile_h);
  s.ppm = (float)spin(self->ppm);
  s.gravity.x = (float)spin(self->gravity_x);
  s.gravity.y = (float)spin(self->gravity_y);
  s.view = (uint8_t)gtk_drop_down_get_selected(GTK_DROP_DOWN(self->view));
  s.physics_hz = (float)spin(self->physics_hz);
  s.substeps = (uint32_t)spin(self->substeps);
  s.floor_drag = (float)spin(self->floor_drag);

  TessError err = {0};
  TessResult r = tess_level_settings_validate(&s, &err);
  if (r == TESS_OK)
    r = tess_edit_level_set(p, self->level, &s, (int)gtk_drop_down_get_selected(GTK_DROP_DOWN(self->anchor_x)),
                            (int)gtk_drop_down_get_selected(GTK_DROP_DOWN(self->anchor_y)), &err);
  if (r != TESS_OK) {
    g_autofree char *msg = tess_document_describe_error(r, &err);
    gtk_label_set_text(self->message, msg);
    return FALSE;
  }
  g_autoptr(GError) error = NULL;
  if (!tess_document_commit(self->doc, &error)) tess_ui_report(GTK_WIDGET(gtk_window_get_transient_for(GTK_WINDOW(self))), error->message);
  gtk_label_set_text(self->message, "");
  return TRUE;
}

const char *tess_level_properties_dialog_get_message(TessLevelPropertiesDialog *self) {
  return gtk_label_get_text(self->message);
}

GtkWidget *tess_level_properties_dialog_get_field(TessLevelPropertiesDialog *self, const char *f) {
  if (g_str_equal(f, "name")) return self->name;
  if (g_str_equal(f, "width")) return self->width;
  if (g_str_equal(f, "height")) return self->height;
  if (g_str_equal(f, "anchor-x")) return self->anchor_x;
  if (g_str_equal(f, "anchor-y")) return self->anchor_y;
  if (g_str_equal(f, "tile-width")) return self->tile_w;
  if (g_str_equal(f, "tile-height")) return self->tile_h;
  if (g_str_equal(f, "ppm")) return self->ppm;
  if (g_str_equal(f, "gravity-x")) return self->gravity_x;
  if (g_str_equal(f, "gravity-y")) return self->gravity_y;
  if (g_str_equal(f, "view")) return self->view;
  if (g_str_equal(f, "physics-hz")) return self->physics_hz;
  if (g_str_equal(f, "substeps")) return self->substeps;
  if (g_str_equal(f, "floor-drag")) return self->floor_drag;
  return NULL;
}

static void on_response(GtkDialog *dialog, int response, gpointer user) {
  TessLevelPropertiesDialog *self = TESS_LEVEL_PROPERTIES_DIALOG(dialog);
  if (response == GTK_RESPONSE_APPLY && !tess_level_properties_dialog_apply(self)) return; /* stays open, says why */
  gtk_window_destroy(GTK_WINDOW(dialog));
}

static void tess_level_properties_dialog_dispose(GObject *object) {
  g_clear_object(&TESS_LEVEL_PROPERTIES_DIALOG(object)->doc);
  G_OBJECT_CLASS(tess_level_properties_dialog_parent_class)->dispose(object);
}

static void tess_level_properties_dialog_class_init(TessLevelPropertiesDialogClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = tess_level_properties_dialog_dispose;
}

static void tess_level_properties_dialog_init(TessLevelPropertiesDialog *self) {}

static int grid_row;
static void row(GtkGrid *grid, const char *mnemonic, GtkWidget *editor, const char *unit) {
  GtkWidget *label = gtk_label_new_with_mnemonic(mnemonic);
  gtk_label_set_xalign(GTK_LABEL(label), 1);
  gtk_label_set_mnemonic_widget(GTK_LABEL(label), editor);
  gtk_widget_set_hexpand(editor, TRUE);
  gtk_grid_attach(grid, label, 0, grid_row, 1, 1);
  gtk_grid_attach(grid, editor, 1, grid_row, 1, 1);
  if (unit) {
    GtkWidget *u = gtk_label_new(unit);
    gtk_label_set_xalign(GTK_LABEL(u), 0);
    gtk_widget_add_css_class(u, "dim-label");
    gtk_grid_attach(grid, u, 2, grid_row, 1, 1);
  }
  grid_row++;
}

static GtkWidget *spin_with(double value, double lo, double hi, double step, guint digits) {
  GtkWidget *s = tess_ui_spin_new(lo, hi, step, digits);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), value);
  return s;
}

GtkWidget *tess_level_properties_dialog_new(GtkWindow *parent, TessDocument *doc, TessId level_id) {
  TessLevelPropertiesDialog *self = g_object_new(TESS_TYPE_LEVEL_PROPERTIES_DIALOG, "transient-for", parent, "modal",
                                                 TRUE, "destroy-with-parent", TRUE, "use-header-bar", TRUE, "title",
                                                 _("Level Properties"), NULL);
  self->doc = g_object_ref(doc);
  self->level = level_id;
  const TessLevel *level = tess_project_level(tess_document_get_project(doc), level_id);
  TessLevelSettings s;
  if (level) s = level->settings;
  else tess_level_settings_default(&s);

  gtk_dialog_add_buttons(GTK_DIALOG(self), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Apply"), GTK_RESPONSE_APPLY, NULL);
  gtk_dialog_set_default_response(GTK_DIALOG(self), GTK_RESPONSE_APPLY);
  gtk_widget_add_css_class(gtk_dialog_get_widget_for_response(GTK_DIALOG(self), GTK_RESPONSE_APPLY), "suggested-action");

  GtkGrid *grid = GTK_GRID(gtk_grid_new());
  gtk_grid_set_row_spacing(grid, 8);
  gtk_grid_set_column_spacing(grid, 10);
  gtk_widget_set_margin_start(GTK_WIDGET(grid), 18);
  gtk_widget_set_margin_end(GTK_WIDGET(grid), 18);
  gtk_widget_set_margin_top(GTK_WIDGET(grid), 18);
  gtk_widget_set_margin_bottom(GTK_WIDGET(grid), 18);
  grid_row = 0;

  self->name = gtk_entry_new();
  gtk_entry_set_max_length(GTK_ENTRY(self->name), TESS_NAME_MAX - 1);
  gtk_editable_set_text(GTK_EDITABLE(self->name), s.name);
  gtk_entry_set_activates_default(GTK_ENTRY(self->name), TRUE);
  row(grid, _("_Name"), self->name, NULL);
  self->width = spin_with(s.width, 1, TESS_LEVEL_MAX_CELLS, 1, 0);
  row(grid, _("_Width"), self->width, _("cells"));
  self->height = spin_with(s.height, 1, TESS_LEVEL_MAX_CELLS, 1, 0);
  row(grid, _("_Height"), self->height, _("cells"));
  const char *ax[] = {_("Keep the left edge"), _("Keep the centre"), _("Keep the right edge"), NULL};
  self->anchor_x = gtk_drop_down_new_from_strings(ax);
  row(grid, _("Resize _horizontally"), self->anchor_x, NULL);
  const char *ay[] = {_("Keep the top edge"), _("Keep the centre"), _("Keep the bottom edge"), NULL};
  self->anchor_y = gtk_drop_down_new_from_strings(ay);
  row(grid, _("Resize _vertically"), self->anchor_y, NULL);
  self->tile_w = spin_with(s.tile_w, 1, 1024, 1, 0);
  row(grid, _("_Tile width"), self->tile_w, _("px"));
  self->tile_h = spin_with(s.tile_h, 1, 1024, 1, 0);
  row(grid, _("T_ile height"), self->tile_h, _("px"));
  self->ppm = spin_with(s.ppm, 0.01, 10000, 1, 2);
  row(grid, _("_Pixels per metre"), self->ppm, NULL);
  const char *views[] = {_("Side view (gravity)"), _("Top-down (floor drag)"), NULL};
  self->view = gtk_drop_down_new_from_strings(views);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(self->view), s.view);
  row(grid, _("_View"), self->view, NULL);
  self->gravity_x = spin_with(s.gravity.x, -1000, 1000, 0.1, 2);
  row(grid, _("_Gravity x"), self->gravity_x, _("m/s²"));
  self->gravity_y = spin_with(s.gravity.y, -1000, 1000, 0.1, 2);
  row(grid, _("Gravity _y"), self->gravity_y, _("m/s²"));
  self->physics_hz = spin_with(s.physics_hz, 1, 1000, 1, 1);
  row(grid, _("Physics _rate"), self->physics_hz, _("Hz"));
  self->substeps = spin_with(s.substeps, 1, 64, 1, 0);
  row(grid, _("_Sub-steps"), self->substeps, NULL);
  self->floor_drag = spin_with(s.floor_drag, 0, 1000, 0.1, 2);
  row(grid, _("_Floor drag"), self->floor_drag, NULL);

  self->message = GTK_LABEL(gtk_label_new(""));
  gtk_label_set_wrap(self->message, TRUE);
  gtk_label_set_max_width_chars(self->message, 40);
  gtk_widget_add_css_class(GTK_WIDGET(self->message), "error");
  gtk_grid_attach(grid, GTK_WIDGET(self->message), 0, grid_row, 3, 1);

  gtk_box_append(GTK_BOX(gtk_dialog_get_content_area(GTK_DIALOG(self))), GTK_WIDGET(grid));
  g_signal_connect(self, "response", G_CALLBACK(on_response), NULL);
  return GTK_WIDGET(self);
}
