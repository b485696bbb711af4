/* TessTilesetCollision: every tile of a tileset with its collision shape,
 * side by side. One button traces every tile (core/mask's per-tile call:
 * transparent tiles none, opaque tiles full, the rest traced into convex
 * pieces) and stores the shapes in one undoable edit; per tile the user
 * overrides the result: none, full square, traced, or one-way platform. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_TILESET_COLLISION (tess_tileset_collision_get_type())
G_DECLARE_FINAL_TYPE(TessTilesetCollision, tess_tileset_collision, TESS, TILESET_COLLISION, GtkBox)

typedef enum TessTileOverride {
  TESS_TILE_OVERRIDE_NONE = 0,
  TESS_TILE_OVERRIDE_FULL = 1,
  TESS_TILE_OVERRIDE_TRACED = 2,
  TESS_TILE_OVERRIDE_ONE_WAY = 3, /* a full square that collides only from above */
} TessTileOverride;

GtkWidget *tess_tileset_collision_new(void);
void tess_tileset_collision_set_document(TessTilesetCollision *self, TessDocument *doc);
void tess_tileset_collision_set_tileset(TessTilesetCollision *self, TessId tileset);
TessId tess_tileset_collision_get_tileset(TessTilesetCollision *self);

/* Traces every tile with the threshold, max vertices and tolerance shown;
 * one undo step. FALSE with a translated message on failure. */
gboolean tess_tileset_collision_trace_all(TessTilesetCollision *self, GError **error);
/* The same on a worker thread (the Trace All button): a progress row with
 * Cancel shows meanwhile; the window stays live. Cancelled (the row's
 * button, the cancellable, or the widget disposed): G_IO_ERROR_CANCELLED
 * and the project unchanged. The traced tiles equal the synchronous call's. */
void tess_tileset_collision_trace_all_async(TessTilesetCollision *self, GCancellable *cancellable,
                                            GAsyncReadyCallback callback, gpointer user_data);
gboolean tess_tileset_collision_trace_all_finish(TessTilesetCollision *self, GAsyncResult *result, GError **error);
gboolean tess_tileset_collision_is_tracing(TessTilesetCollision *self);
/* The progress bar's fraction, and the Cancel button's action (tests). */
double tess_tileset_collision_get_trace_progress(TessTilesetCollision *self);
void tess_tileset_collision_cancel_trace(TessTilesetCollision *self);
/* Tests: hold the next trace's worker part-way through, or release it. */
void tess_tileset_collision_set_trace_hold(TessTilesetCollision *self, gboolean hold);
/* Tiles whose collision the user chose (none, full, one-way in a tileset
 * that is not as added); Trace All keeps them unless retrace is set (the
 * "Retrace tiles set by hand" check box). */
guint tess_tileset_collision_count_hand_set(TessTilesetCollision *self);
void tess_tileset_collision_set_retrace_hand_set(TessTilesetCollision *self, gboolean retrace);
/* Overrides one tile (one undo step). */
gboolean tess_tileset_collision_set_override(TessTilesetCollision *self, guint tile, TessTileOverride how,
                                             GError **error);
void tess_tileset_collision_select_tile(TessTilesetCollision *self, guint tile);
guint tess_tileset_collision_get_selected_tile(TessTilesetCollision *self);
/* The summary line under the grid (tests). */
const char *tess_tileset_collision_get_summary(TessTilesetCollision *self);
/* The grid of tiles (a TessScrollArea: only the tiles in view are drawn). */
GtkWidget *tess_tileset_collision_get_grid(TessTilesetCollision *self);
/* How many tiles the grid's last frame painted (tests). */
guint tess_tileset_collision_get_drawn_tiles(TessTilesetCollision *self);
/* The tileset dropdown, and how many times a tileset was loaded (tests). */
GtkDropDown *tess_tileset_collision_get_tileset_choice(TessTilesetCollision *self);
guint tess_tileset_collision_get_load_count(TessTilesetCollision *self);

/* A window with one TessTilesetCollision (the "Tileset Collision…" menu item). */
GtkWindow *tess_tileset_collision_window_new(GtkWindow *parent, TessDocument *doc, TessId tileset);

G_END_DECLS
