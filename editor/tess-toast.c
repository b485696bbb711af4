/* TessToast: see tess-toast.h. A GtkRevealer around a box in the theme's
 * "app-notification" style: label, optional button, close button
 * (tess-toast.ui). */
#include "tess-toast.h"

#include <glib/gi18n.h>

#define TOAST_SECONDS 4
#define TOAST_BUTTON_SECONDS 8 /* time to reach the Undo button */

struct _TessToast {
  GtkWidget parent_instance;

  /* template widgets */
  GtkWidget *revealer, *label, *button;
  char *message;
  guint timeout;
};

G_DEFINE_FINAL_TYPE(TessToast, tess_toast, GTK_TYPE_WIDGET)

static gboolean on_timeout(gpointer user) {
  TessToast *self = user;
  self->timeout = 0;
  tess_toast_dismiss(self);
  return G_SOURCE_REMOVE;
}

void tess_toast_show(TessToast *self, const char *message, const char *button_label, const char *action_name) {
  g_return_if_fail(TESS_IS_TOAST(self));
  g_free(self->message);
  self->message = g_strdup(message);
  gtk_label_set_text(GTK_LABEL(self->label), message);
  gboolean with_button = button_label && action_name;
  gtk_widget_set_visible(self->button, with_button);
  if (with_button) {
    gtk_button_set_label(GTK_BUTTON(self->button), button_label);
    gtk_actionable_set_action_name(GTK_ACTIONABLE(self->button), action_name);
  } else {
    gtk_actionable_set_action_name(GTK_ACTIONABLE(self->button), NULL);
  }
  gtk_widget_set_visible(GTK_WIDGET(self), TRUE);
  gtk_revealer_set_reveal_child(GTK_REVEALER(self->revealer), TRUE);
  g_clear_handle_id(&self->timeout, g_source_remove);
  self->timeout = g_timeout_add_seconds(with_button ? TOAST_BUTTON_SECONDS : TOAST_SECONDS, on_timeout, self);
}

void tess_toast_dismiss(TessToast *self) {
  g_return_if_fail(TESS_IS_TOAST(self));
  g_clear_handle_id(&self->timeout, g_source_remove);
  g_clear_pointer(&self->message, g_free);
  gtk_revealer_set_reveal_child(GTK_REVEALER(self->revealer), FALSE);
}

const char *tess_toast_get_message(TessToast *self) { return self->message; }
GtkWidget *tess_toast_get_button(TessToast *self) { return self->button; }

/* Hidden once folded away, so the overlay passes clicks through to the map. */
static void on_child_revealed(GtkRevealer *r, GParamSpec *pspec, TessToast *self) {
  if (!gtk_revealer_get_child_revealed(r) && !gtk_revealer_get_reveal_child(r))
    gtk_widget_set_visible(GTK_WIDGET(self), FALSE);
}

static void on_button_clicked(GtkButton *b, TessToast *self) { tess_toast_dismiss(self); }
static void on_close_clicked(GtkButton *b, TessToast *self) { tess_toast_dismiss(self); }

static void tess_toast_init(TessToast *self) { gtk_widget_init_template(GTK_WIDGET(self)); }

static void tess_toast_dispose(GObject *object) {
  TessToast *self = TESS_TOAST(object);
  g_clear_handle_id(&self->timeout, g_source_remove);
  g_clear_pointer(&self->message, g_free);
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_TOAST);
  G_OBJECT_CLASS(tess_toast_parent_class)->dispose(object);
}

static void tess_toast_class_init(TessToastClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = tess_toast_dispose;
  gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "tess-toast");
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-toast.ui");
  gtk_widget_class_bind_template_child(widget_class, TessToast, revealer);
  gtk_widget_class_bind_template_child(widget_class, TessToast, label);
  gtk_widget_class_bind_template_child(widget_class, TessToast, button);
  gtk_widget_class_bind_template_callback(widget_class, on_child_revealed);
  gtk_widget_class_bind_template_callback(widget_class, on_button_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_close_clicked);
}

GtkWidget *tess_toast_new(void) { return g_object_new(TESS_TYPE_TOAST, NULL); }
