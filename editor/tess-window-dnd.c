/* TessWindow's drop target: a .tessera file dropped on the window opens,
 * a Tiled map (.tmx, .tmj) is imported into the open project as a new
 * level (see tess-window-import.c); anything else is refused with a message. */
#include "tess-window-private.h"

#include "tessera/formats.h"

static gboolean on_drop(GtkDropTarget *target, const GValue *value, double x, double y, TessWindow *self) {
  GFile *file = NULL;
  if (G_VALUE_HOLDS(value, G_TYPE_FILE)) {
    file = g_value_get_object(value);
  } else if (G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST)) {
    GSList *files = gdk_file_list_get_files(g_value_get_boxed(value));
    file = files ? files->data : NULL;
    g_slist_free(files);
  }
  g_autofree char *path = file ? g_file_get_path(file) : NULL;
  if (!path) return FALSE;
  if (tess_map_format_for_path(path)) return tess_window_import_map(self, path);
  if (!g_str_has_suffix(path, ".tessera")) {
    g_autofree char *name = g_filename_display_name(path);
    g_autofree char *msg = g_strdup_printf(_("“%s” is not a Tessera project (.tessera) or a Tiled map (.tmx, .tmj)."), name);
    tess_window_report(self, msg);
    return FALSE;
  }
  return tess_window_open_path(self, path);
}

void _tess_window_dnd_init(TessWindow *self) {
  self->drop_target = gtk_drop_target_new(G_TYPE_INVALID, GDK_ACTION_COPY);
  GType types[] = {GDK_TYPE_FILE_LIST, G_TYPE_FILE};
  gtk_drop_target_set_gtypes(self->drop_target, types, G_N_ELEMENTS(types));
  g_signal_connect(self->drop_target, "drop", G_CALLBACK(on_drop), self);
  gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(self->drop_target));
}
