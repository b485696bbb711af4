/* Play mode in the editor window: the map view and the preview are the two
 * pages of one GtkStack (placed by the window's template); the stateful window action win.play (F5, and the Play toggle
 * button tess-window.ui puts at the end of the tool bar) swaps them; Escape or the preview's
 * Back to Editing leave. The window supplies the document and level. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

/* Returns the open document (borrowed, may be NULL), sets *level and *spawn
 * (the object template a click in the preview drops, borrowed, may be NULL). */
typedef TessDocument *(*TessPreviewModeQuery)(gpointer user, TessId *level, const TessObject **spawn);

/* `map_view` and `preview` (a TessPreviewView) are pages of `stack`; win.play
 * shows one or the other. Adds win.play to `window` and F5. */
void tess_preview_mode_install(GtkWindow *window, GtkStack *stack, GtkWidget *map_view, GtkWidget *preview,
                               TessPreviewModeQuery query, gpointer user);
/* The preview widget installed in `window` (NULL when none). */
GtkWidget *tess_preview_mode_get_view(GtkWindow *window);

G_END_DECLS
