/* TessSpritePanel: the project's sprites. Import one or many PNGs (file
 * chooser with multi-select, or drop PNG files on the panel): each becomes
 * a sprite stored in the project with its source path and a traced mask.
 * A list with thumbnails; per sprite its name, anchor point and frame
 * strip (frame count, frame rate); a button opens the collision mask
 * editor; the object tool places the selected sprite as a body
 * (static / kinematic / dynamic, a material).
 * Signals: "sprite-selected" (guint id, 0 = none), "place-requested" (the
 * user asked to place the sprite: the window gives the map view the
 * template and picks the object tool), "template-changed". */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_SPRITE_PANEL (tess_sprite_panel_get_type())
G_DECLARE_FINAL_TYPE(TessSpritePanel, tess_sprite_panel, TESS, SPRITE_PANEL, GtkBox)

GtkWidget *tess_sprite_panel_new(void);
void tess_sprite_panel_set_document(TessSpritePanel *self, TessDocument *doc);

/* Imports PNG files (a list of GFile): one sprite each, traced with the
 * default mask settings, one undo step each, committed together. Returns
 * how many were imported; the files that could not be read (or that have
 * no opaque pixel) are named in *error. The last one imported is selected. */
guint tess_sprite_panel_import(TessSpritePanel *self, GSList *files, GError **error);
/* The same on a worker thread (the Import button and drops): reading,
 * decoding and tracing run there while a progress row with Cancel shows;
 * the sprites are added on the main thread. _finish gives the count; 0
 * with G_IO_ERROR_CANCELLED when cancelled (the project unchanged), or the
 * failures when none was imported. */
void tess_sprite_panel_import_async(TessSpritePanel *self, GSList *files, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data);
guint tess_sprite_panel_import_finish(TessSpritePanel *self, GAsyncResult *result, GError **error);
gboolean tess_sprite_panel_is_importing(TessSpritePanel *self);
/* The progress bar's fraction, and the Cancel button's action (tests). */
double tess_sprite_panel_get_import_progress(TessSpritePanel *self);
void tess_sprite_panel_cancel_import(TessSpritePanel *self);
/* Opens the file chooser (multi-select, PNG filter). */
void tess_sprite_panel_choose_files(TessSpritePanel *self);
GtkDropTarget *tess_sprite_panel_get_drop_target(TessSpritePanel *self);

TessId tess_sprite_panel_get_selected(TessSpritePanel *self);
void tess_sprite_panel_select(TessSpritePanel *self, TessId sprite);
/* Rows in the list (tests). */
guint tess_sprite_panel_get_row_count(TessSpritePanel *self);

/* Settings of the selected sprite (each a one-step undoable edit). */
gboolean tess_sprite_panel_set_anchor(TessSpritePanel *self, float x, float y);
gboolean tess_sprite_panel_set_frames(TessSpritePanel *self, guint frame_count, double frame_rate);
GtkSpinButton *tess_sprite_panel_get_spin(TessSpritePanel *self, const char *which); /* "anchor-x", "anchor-y", "frames", "fps" */

/* What the object tool places: a TESS_BODY_SPRITE body of the selected
 * sprite with the chosen type and material; NULL without a sprite. */
const TessObject *tess_sprite_panel_get_template(TessSpritePanel *self);
void tess_sprite_panel_set_body_type(TessSpritePanel *self, TessBodyType type);
/* Opens the collision mask editor window for the selected sprite. */
GtkWindow *tess_sprite_panel_edit_mask(TessSpritePanel *self);

G_END_DECLS
