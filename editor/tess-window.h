/* TessWindow: one project in a window. Header bar, start page with recent
 * projects, levels and layers on the left, the map view in the centre, the
 * tile palette, materials and object inspector on the right, a status bar. */
#pragma once

#include <gtk/gtk.h>

#include "tess-application.h"
#include "tess-document.h"
#include "tess-dump-keeper.h"

G_BEGIN_DECLS

#define TESS_TYPE_WINDOW (tess_window_get_type())
G_DECLARE_FINAL_TYPE(TessWindow, tess_window, TESS, WINDOW, GtkApplicationWindow)

TessWindow *tess_window_new(TessApplication *app);

TessDocument *tess_window_get_document(TessWindow *self); /* borrowed, NULL on the start page */
/* Opens a project file here; on failure shows a dialog naming the file and
 * the reason, and the window stays as it was. */
gboolean tess_window_open_path(TessWindow *self, const char *path);
void tess_window_set_document(TessWindow *self, TessDocument *doc);

/* File choosers (GtkFileChooserNative). */
void tess_window_choose_open(TessWindow *self);
void tess_window_choose_new(TessWindow *self);

/* Shows a message in the window's bar (errors of edits, refused edits). */
void tess_window_report(TessWindow *self, const char *message);
const char *tess_window_get_reported(TessWindow *self); /* the message shown, or NULL */
/* A short message in a toast over the map (never moves the layout), with an
 * optional button activating `action_name` ("win.undo"). */
void tess_window_notify(TessWindow *self, const char *message, const char *button_label, const char *action_name);
GtkWidget *tess_window_get_toast(TessWindow *self);

/* The level and layer being edited. */
TessId tess_window_get_level(TessWindow *self);
TessId tess_window_get_layer(TessWindow *self);

/* Parts, for tests. */
GtkWidget *tess_window_get_map_view(TessWindow *self);
GtkWidget *tess_window_get_layers_panel(TessWindow *self);
GtkWidget *tess_window_get_tile_palette(TessWindow *self);
GtkWidget *tess_window_get_material_panel(TessWindow *self);
GtkWidget *tess_window_get_object_inspector(TessWindow *self);
GtkWidget *tess_window_get_sprite_panel(TessWindow *self);
GtkDropTarget *tess_window_get_drop_target(TessWindow *self);
/* The last dialog the window opened (error, level properties, tileset...), or NULL. */
GtkWindow *tess_window_get_last_dialog(TessWindow *self);
/* Status bar text: "cell", "tile", "material", "hint" (what the tool expects next), "zoom". */
const char *tess_window_get_status(TessWindow *self, const char *which);

/* Tilesets whose source PNG changed on disk (checked when the window regains
 * focus): shows the reload bar; returns how many changed. */
guint tess_window_check_sources(TessWindow *self);
/* Reloads the changed tilesets (the bar's button). */
void tess_window_reload_sources(TessWindow *self);
/* Reopens the project when another file now sits at its path (a `tessera-pipeline
 * load --force`); the window also looks by itself every second. TRUE if it did. */
gboolean tess_window_reload_if_replaced(TessWindow *self);
/* Keeps the text dump beside the project while its keep-dump setting is on
 * (main menu: Keep a Text Dump). Borrowed; NULL with no project open. */
TessDumpKeeper *tess_window_get_dump_keeper(TessWindow *self);

/* Add Tileset… after the PNG was chosen: the tileset dialog, or an error
 * dialog naming the file and the reason when the PNG is refused. Returns the
 * dialog shown. */
GtkWidget *tess_window_add_tileset_from(TessWindow *self, const char *path);
/* Imports a Tiled map (.tmx, .tmj) as a new level: read on a worker thread
 * with progress and Cancel, applied as one undo step. FALSE when it cannot
 * start (no project open, an import running): the reason is reported. */
gboolean tess_window_import_map(TessWindow *self, const char *path);
gboolean tess_window_import_running(TessWindow *self);
void tess_window_set_import_hold(TessWindow *self, gboolean hold); /* tests */
gboolean tess_window_import_applying(TessWindow *self);            /* the read is done and the map is being added, slice by slice */
guint tess_window_import_slices(TessWindow *self);                 /* tests: main-loop slices of the running (or last) apply */

G_END_DECLS
