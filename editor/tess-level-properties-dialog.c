/* TessLevelPropertiesDialog. */
#include "tess-level-properties-dialog.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tess-ui.h"

struct _TessLevelPropertiesDialog {
  GtkDialog parent_instance;

  /* template widgets */
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
  gtk_widget_dispose_template(GTK_WIDGET(object), TESS_TYPE_LEVEL_PROPERTIES_DIALOG);
  G_OBJECT_CLASS(tess_level_properties_dialog_parent_class)->dispose(object);
}

static void tess_level_properties_dialog_class_init(TessLevelPropertiesDialogClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = tess_level_properties_dialog_dispose;
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-level-properties-dialog.ui");
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, name);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, width);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, height);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, anchor_x);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, anchor_y);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, tile_w);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, tile_h);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, ppm);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, gravity_x);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, gravity_y);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, view);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, physics_hz);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, substeps);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, floor_drag);
  gtk_widget_class_bind_template_child(widget_class, TessLevelPropertiesDialog, message);
}

static void tess_level_properties_dialog_init(TessLevelPropertiesDialog *self) {
  gtk_widget_init_template(GTK_WIDGET(self));
}

/* A number field with its range and the level's value. */
static void spin_with(GtkWidget *s, double value, double lo, double hi, double step, guint digits) {
  tess_ui_spin_setup(s, lo, hi, step, digits);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), value);
}

GtkWidget *tess_level_properties_dialog_new(GtkWindow *parent, TessDocument *doc, TessId level_id) {
  TessLevelPropertiesDialog *self = g_object_new(TESS_TYPE_LEVEL_PROPERTIES_DIALOG, "transient-for", parent, "modal",
                                                 TRUE, "destroy-with-parent", TRUE, "use-header-bar", TRUE, NULL);
  self->doc = g_object_ref(doc);
  self->level = level_id;
  const TessLevel *level = tess_project_level(tess_document_get_project(doc), level_id);
  TessLevelSettings s;
  if (level) s = level->settings;
  else tess_level_settings_default(&s);

  gtk_dialog_add_buttons(GTK_DIALOG(self), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Apply"), GTK_RESPONSE_APPLY, NULL);
  gtk_dialog_set_default_response(GTK_DIALOG(self), GTK_RESPONSE_APPLY);
  gtk_widget_add_css_class(gtk_dialog_get_widget_for_response(GTK_DIALOG(self), GTK_RESPONSE_APPLY), "suggested-action");

  gtk_entry_set_max_length(GTK_ENTRY(self->name), TESS_NAME_MAX - 1);
  gtk_editable_set_text(GTK_EDITABLE(self->name), s.name);
  spin_with(self->width, s.width, 1, TESS_LEVEL_MAX_CELLS, 1, 0);
  spin_with(self->height, s.height, 1, TESS_LEVEL_MAX_CELLS, 1, 0);
  spin_with(self->tile_w, s.tile_w, 1, 1024, 1, 0);
  spin_with(self->tile_h, s.tile_h, 1, 1024, 1, 0);
  spin_with(self->ppm, s.ppm, 0.01, 10000, 1, 2);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(self->view), s.view);
  spin_with(self->gravity_x, s.gravity.x, -1000, 1000, 0.1, 2);
  spin_with(self->gravity_y, s.gravity.y, -1000, 1000, 0.1, 2);
  spin_with(self->physics_hz, s.physics_hz, 1, 1000, 1, 1);
  spin_with(self->substeps, s.substeps, 1, 64, 1, 0);
  spin_with(self->floor_drag, s.floor_drag, 0, 1000, 0.1, 2);
  g_signal_connect(self, "response", G_CALLBACK(on_response), NULL);
  return GTK_WIDGET(self);
}
