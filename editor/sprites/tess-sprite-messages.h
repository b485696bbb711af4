/* What the sprite tools say when they refuse something: one sentence that
 * names the sprite or the tileset and tile (and the file where that is what
 * to look at), says what
 * went wrong in the user's words, and what to do about it; core's English
 * detail follows in brackets where it adds a place or a number. Every
 * function returns a newly allocated, translated string. */
#pragma once

#include <glib.h>

#include "tessera/level.h"

G_BEGIN_DECLS

/* Tracing sprite `name`'s frame at `threshold` was refused (nothing was changed). */
char *tess_sprite_message_trace(const char *name, guint threshold, TessResult r, const TessError *err);
/* Cutting sprite `name` into `frames` frames was refused: its first frame could not be traced. */
char *tess_sprite_message_frames(const char *name, guint frames, guint threshold, TessResult r, const TessError *err);
/* The sprite's stored PNG cannot be decoded: nothing can be traced from it. */
char *tess_sprite_message_image(const TessSprite *sp, TessResult r, const TessError *err);
/* An edit of sprite `name` was refused by the project (core/level). */
char *tess_sprite_message_edit(const char *name, TessResult r, const TessError *err);
/* A vertex edit in the mask editor: a piece already has `max` vertices (adding), or only 3 (removing). */
char *tess_sprite_message_vertex_limit(const char *name, gboolean adding, guint max);
/* Importing the PNG at `path` was refused (read, decoded or traced with `threshold`). */
char *tess_sprite_message_import(const char *path, guint threshold, TessResult r, const TessError *err);
/* A tile of tileset `tileset` traced at `threshold` has no opaque pixel. */
char *tess_sprite_message_empty_tile(const char *tileset, guint tile, guint threshold);

/* The tileset collision editor's refusals. `tile` is the tile concerned, or
 * TESS_SPRITE_MESSAGE_ALL_TILES for Trace All. */
#define TESS_SPRITE_MESSAGE_ALL_TILES G_MAXUINT
/* The tileset's stored PNG cannot be decoded: its tiles can be neither shown nor traced. */
char *tess_sprite_message_tileset_image(const TessTileset *ts, TessResult r, const TessError *err);
/* Tracing tileset `name`'s tiles failed in core (nothing was changed). */
char *tess_sprite_message_tileset_trace(const char *name, TessResult r, const TessError *err);
/* The project refused the new collision of tileset `name` (nothing was changed). */
char *tess_sprite_message_tileset_refused(const char *name, guint tile, TessResult r, const TessError *err);
/* The new collision of tileset `name` is in the project but its file did not
 * take it: `why` is the document's sentence, `r` its code. */
char *tess_sprite_message_tileset_unsaved(const char *name, guint tile, TessResult r, const char *why);
/* Trace All pressed while tileset `name` is being traced. */
char *tess_sprite_message_tileset_busy(const char *name);
/* The tiles of tileset `name` changed size or count while it was traced. */
char *tess_sprite_message_tileset_changed(const char *name);
/* The user cancelled tracing tileset `name`. */
char *tess_sprite_message_tileset_cancelled(const char *name);
/* Tile `tile` is past tileset `name`'s `count` tiles. */
char *tess_sprite_message_tileset_no_tile(const char *name, guint tile, guint count);
/* Memory ran out copying tileset `name` for an edit or a trace. */
char *tess_sprite_message_tileset_nomem(const char *name);

G_END_DECLS
