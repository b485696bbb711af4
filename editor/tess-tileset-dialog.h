/* TessTilesetDialog: adds a tileset from a PNG: name, tile size, margin,
 * spacing, what the tiles collide as, with a live preview of the grid. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_TILESET_DIALOG (tess_tileset_dialog_get_type())
G_DECLARE_FINAL_TYPE(TessTilesetDialog, tess_tileset_dialog, TESS, TILESET_DIALOG, GtkDialog)

/* Reads and decodes the PNG first: a file that is not a usable PNG
 * (truncated, too large, not a PNG) gives NULL and a translated error naming
 * the file and the reason. */
GtkWidget *tess_tileset_dialog_new(GtkWindow *parent, TessDocument *doc, const char *png_path, GError **error);
/* "name", "tile-width", "tile-height", "margin", "spacing", "collision". */
GtkWidget *tess_tileset_dialog_get_field(TessTilesetDialog *self, const char *field);
/* The grid the current values give ("8 × 4 tiles"), or the reason they are refused. */
const char *tess_tileset_dialog_get_message(TessTilesetDialog *self);
/* Adds the tileset (one undoable edit); FALSE and an error dialog naming the
 * file and the reason when the grid is refused. Returns the new id in *id. */
gboolean tess_tileset_dialog_apply(TessTilesetDialog *self, TessId *id);

G_END_DECLS
