/* TessToast: a short message floating over the map (the HIG's in-app
 * notification; libadwaita's AdwToast is 1.2+ API beyond GTK 4.8's reach),
 * with an optional button (Undo) bound to an action. It sits in a GtkOverlay,
 * so showing it never moves the layout under the pointer, and it hides
 * itself after a few seconds. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TESS_TYPE_TOAST (tess_toast_get_type())
G_DECLARE_FINAL_TYPE(TessToast, tess_toast, TESS, TOAST, GtkWidget)

GtkWidget *tess_toast_new(void);
/* Shows `message`; with a button labelled `button_label` activating
 * `action_name` ("win.undo") when both are given. Replaces what was shown. */
void tess_toast_show(TessToast *self, const char *message, const char *button_label, const char *action_name);
void tess_toast_dismiss(TessToast *self);
/* The message shown now, or NULL when the toast is hidden. */
const char *tess_toast_get_message(TessToast *self);
/* The toast's button (tests click it), hidden when there is none. */
GtkWidget *tess_toast_get_button(TessToast *self);

G_END_DECLS
