/* How the sprite tools plug into the editor window with three calls from
 * tess-window.c: a "Sprites" page in the right-side notebook, a
 * "Tileset Collision…" item in the main menu (action win.tileset-collision),
 * and "Place on the Map" giving the map view's object tool the sprite body. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

/* `map_view` is the TessMapView (may be NULL). The main menu is the one of
 * the first GtkMenuButton in the window's title bar. */
void tess_sprites_hook_install(GtkWindow *window, GtkNotebook *side, GtkWidget *map_view);
void tess_sprites_hook_set_document(GtkWindow *window, TessDocument *doc);
/* The installed panel (tests). */
GtkWidget *tess_sprites_hook_get_panel(GtkWindow *window);

G_END_DECLS
