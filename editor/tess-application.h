/* TessApplication: the GtkApplication. Owns the settings (window size,
 * recent projects), the app-level actions and their accelerators. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TESS_APPLICATION_ID "org.tessera.Editor"

#define TESS_TYPE_APPLICATION (tess_application_get_type())
G_DECLARE_FINAL_TYPE(TessApplication, tess_application, TESS, APPLICATION, GtkApplication)

TessApplication *tess_application_new(void);

/* The editor's settings, or NULL when the schema is not installed (then
 * recent projects live in memory for this session). */
GSettings *tess_application_get_settings(TessApplication *app);

/* Recent projects, most recent first (NULL-terminated, owned by the app). */
const char *const *tess_application_get_recent(TessApplication *app);
void tess_application_add_recent(TessApplication *app, const char *path);
void tess_application_remove_recent(TessApplication *app, const char *path);

/* Opens a project file in a window: an empty window of this application
 * when there is one, else a new window. Errors are shown in a dialog on that
 * window (which stays usable). Returns the window. */
GtkWindow *tess_application_open_path(TessApplication *app, const char *path);

G_END_DECLS
