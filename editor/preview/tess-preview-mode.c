/* Play mode in the window: the win.play action with F5 (the Play button
 * in the window's tool bar is in tess-window.ui); the window's template
 * places the map view and the preview as the two pages of one stack. Kept out of tess-window.c so that the window needs
 * one call. */
#include "tess-preview-mode.h"

#include <glib/gi18n.h>

#include "tess-preview-view.h"

typedef struct PreviewMode {
  GtkWindow *window; /* borrowed: it owns us */
  GtkWidget *stack, *map_view, *preview;
  TessPreviewModeQuery query;
  gpointer user;
  GSimpleAction *play;
} PreviewMode;

static void show_error(PreviewMode *m, const GError *error) {
  GtkWidget *d = gtk_message_dialog_new(m->window, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                        GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", _("This level cannot be played"));
  gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s", error ? error->message : "");
  g_signal_connect(d, "response", G_CALLBACK(gtk_window_destroy), NULL);
  gtk_window_present(GTK_WINDOW(d));
}

static void on_play_change_state(GSimpleAction *action, GVariant *value, gpointer user) {
  PreviewMode *m = user;
  gboolean on = g_variant_get_boolean(value);
  TessPreviewView *pv = TESS_PREVIEW_VIEW(m->preview);
  if (on) {
    TessId level = 0;
    const TessObject *spawn = NULL;
    TessDocument *doc = m->query(m->user, &level, &spawn);
    tess_preview_view_set_spawn_template(pv, spawn);
    GError *error = NULL;
    if (!doc || !tess_preview_view_start(pv, doc, level, &error)) {
      if (doc) show_error(m, error);
      g_clear_error(&error);
      g_simple_action_set_state(action, g_variant_new_boolean(FALSE));
      return;
    }
    gtk_stack_set_visible_child(GTK_STACK(m->stack), m->preview);
    gtk_widget_grab_focus(tess_preview_view_get_canvas(pv));
    /* Play means play (the README's F5 "runs the level's physics"): a
     * preview that opened paused at "Step 0 of 0" looked broken. Pausing is
     * one key away (Space). */
    tess_preview_view_set_playing(pv, TRUE);
  } else {
    /* The preview never wrote the project: the map view shows it as it was. */
    tess_preview_view_stop(pv);
    gtk_stack_set_visible_child(GTK_STACK(m->stack), m->map_view);
    gtk_widget_grab_focus(m->map_view);
  }
  g_simple_action_set_state(action, value);
}

static void on_leave_requested(TessPreviewView *pv, PreviewMode *m) {
  g_action_change_state(G_ACTION(m->play), g_variant_new_boolean(FALSE));
}

void tess_preview_mode_install(GtkWindow *window, GtkStack *stack, GtkWidget *map_view, GtkWidget *preview,
                               TessPreviewModeQuery query, gpointer user) {
  PreviewMode *m = g_new0(PreviewMode, 1);
  m->window = window;
  m->query = query;
  m->user = user;
  m->stack = GTK_WIDGET(stack);
  m->map_view = map_view;
  m->preview = preview;
  g_signal_connect(m->preview, "leave-requested", G_CALLBACK(on_leave_requested), m);
  gtk_stack_set_visible_child(stack, map_view);

  m->play = g_simple_action_new_stateful("play", NULL, g_variant_new_boolean(FALSE));
  g_signal_connect(m->play, "change-state", G_CALLBACK(on_play_change_state), m);
  g_action_map_add_action(G_ACTION_MAP(window), G_ACTION(m->play));

  GtkEventController *c = gtk_shortcut_controller_new();
  gtk_event_controller_set_propagation_phase(c, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(c),
                                       gtk_shortcut_new(gtk_keyval_trigger_new(GDK_KEY_F5, 0),
                                                        gtk_named_action_new("win.play")));
  gtk_widget_add_controller(GTK_WIDGET(window), c);

  g_object_set_data_full(G_OBJECT(window), "tess-preview-mode", m, g_free);
  g_object_unref(m->play); /* the window's action map holds it */
}

GtkWidget *tess_preview_mode_get_view(GtkWindow *window) {
  PreviewMode *m = g_object_get_data(G_OBJECT(window), "tess-preview-mode");
  return m ? m->preview : NULL;
}
