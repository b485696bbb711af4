/* What the sprite tools say when they refuse something: one sentence that
 * names the sprite (and its file where that is what to look at), says what
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

G_END_DECLS
