/* The sprite tools' refusals (tess-sprite-messages.h). Whole sentences per
 * case, not pieces glued together, so a translation can order its words. */
#include "tess-sprite-messages.h"

#include <glib/gi18n.h>

#include "tess-document.h"

/* Core's detail, when it says more than the sentence: the place or the number. */
static const char *detail_of(TessResult r, const TessError *err) {
  return err && err->detail[0] ? err->detail : tess_result_string(r);
}

char *tess_sprite_message_trace(const char *name, guint threshold, TessResult r, const TessError *err) {
  switch (r) {
    case TESS_ERR_EMPTY:
      return g_strdup_printf(_("Sprite “%s” has no pixel with an alpha of %u or more, so there is no shape to trace: "
                               "lower the alpha threshold. Its mask is unchanged."),
                             name, threshold);
    case TESS_ERR_LIMIT:
      return g_strdup_printf(_("Sprite “%s” is too large to trace (%s): use a smaller image. Its mask is unchanged."),
                             name, detail_of(r, err));
    case TESS_ERR_NOMEM:
      return g_strdup_printf(_("There was not enough memory to trace sprite “%s”: close other work and retrace it. "
                               "Its mask is unchanged."),
                             name);
    default: {
      g_autofree char *why = tess_document_describe_error(r, err);
      return g_strdup_printf(_("Sprite “%s” could not be traced: %s Its mask is unchanged."), name, why);
    }
  }
}

char *tess_sprite_message_frames(const char *name, guint frames, guint threshold, TessResult r, const TessError *err) {
  if (r == TESS_ERR_EMPTY)
    return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
                                       "Sprite “%s” as %u frame has no pixel with an alpha of %u or more in its first "
                                       "frame: choose another frame count, or lower the alpha threshold in its "
                                       "collision mask. Nothing was changed.",
                                       "Sprite “%s” as %u frames has no pixel with an alpha of %u or more in its "
                                       "first frame: choose another frame count, or lower the alpha threshold in its "
                                       "collision mask. Nothing was changed.",
                                       frames),
                           name, frames, threshold);
  g_autofree char *why = tess_document_describe_error(r, err);
  return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
                                     "Sprite “%s” could not be cut into %u frame: %s Choose another frame count; "
                                     "nothing was changed.",
                                     "Sprite “%s” could not be cut into %u frames: %s Choose another frame count; "
                                     "nothing was changed.",
                                     frames),
                         name, frames, why);
}

char *tess_sprite_message_image(const TessSprite *sp, TessResult r, const TessError *err) {
  g_autofree char *why = tess_document_describe_error(r, err);
  if (sp->source_path && sp->source_path[0]) {
    g_autofree char *file = g_filename_display_basename(sp->source_path);
    return g_strdup_printf(_("The image of sprite “%s” cannot be read: %s Remove the sprite and import “%s” again."),
                           sp->name, why, file);
  }
  return g_strdup_printf(_("The image of sprite “%s” cannot be read: %s Remove the sprite and import its PNG again."),
                         sp->name, why);
}

char *tess_sprite_message_edit(const char *name, TessResult r, const TessError *err) {
  g_autofree char *why = tess_document_describe_error(r, err);
  if (r == TESS_ERR_READONLY)
    return g_strdup_printf(_("Sprite “%s” was not changed: %s Save a copy of the project to edit it."), name, why);
  if (r == TESS_ERR_NOT_FOUND)
    return g_strdup_printf(_("Sprite “%s” was not changed: it is no longer in the project (%s)."), name,
                           detail_of(r, err));
  return g_strdup_printf(_("Sprite “%s” was not changed: %s Undo the last change or choose another value."), name,
                         why);
}

char *tess_sprite_message_vertex_limit(const char *name, gboolean adding, guint max) {
  if (adding)
    return g_strdup_printf(_("A piece of sprite “%s” has at most %u vertices: remove one before adding another."),
                           name, max);
  return g_strdup_printf(_("A piece of sprite “%s” needs at least 3 vertices: add one before removing this one."),
                         name);
}

char *tess_sprite_message_import(const char *path, guint threshold, TessResult r, const TessError *err) {
  g_autofree char *file = g_filename_display_basename(path);
  if (r == TESS_ERR_EMPTY)
    return g_strdup_printf(_("“%s” was not imported: it has no pixel with an alpha of %u or more to trace a collision "
                             "mask from. Give the image opaque pixels, then import it again."),
                           file, threshold);
  g_autofree char *why = tess_document_describe_error(r, err);
  return g_strdup_printf(_("“%s” was not imported: %s Fix the file, then import it again."), file, why);
}

char *tess_sprite_message_empty_tile(const char *tileset, guint tile, guint threshold) {
  return g_strdup_printf(_("Tile %u of tileset “%s” has no pixel with an alpha of %u or more: lower the alpha "
                           "threshold, or give the tile no collision."),
                         tile, tileset, threshold);
}

char *tess_sprite_message_tileset_image(const TessTileset *ts, TessResult r, const TessError *err) {
  g_autofree char *why = tess_document_describe_error(r, err);
  if (ts->source_path && ts->source_path[0]) {
    g_autofree char *file = g_filename_display_basename(ts->source_path);
    return g_strdup_printf(_("The image of tileset “%s” cannot be read, so its tiles cannot be shown or traced: %s "
                             "Remove the tileset and add “%s” again."),
                           ts->name, why, file);
  }
  return g_strdup_printf(_("The image of tileset “%s” cannot be read, so its tiles cannot be shown or traced: %s "
                           "Remove the tileset and add its PNG again."),
                         ts->name, why);
}

char *tess_sprite_message_tileset_trace(const char *name, TessResult r, const TessError *err) {
  if (r == TESS_ERR_NOMEM)
    return g_strdup_printf(_("There was not enough memory to trace tileset “%s”: close other work and trace it "
                             "again. Its tiles are unchanged."),
                           name);
  if (r == TESS_ERR_LIMIT)
    return g_strdup_printf(_("Tileset “%s” is too large to trace (%s): use a smaller image. Its tiles are "
                             "unchanged."),
                           name, detail_of(r, err));
  g_autofree char *why = tess_document_describe_error(r, err);
  return g_strdup_printf(_("Tileset “%s” could not be traced: %s Its tiles are unchanged."), name, why);
}

char *tess_sprite_message_tileset_refused(const char *name, guint tile, TessResult r, const TessError *err) {
  g_autofree char *why = tess_document_describe_error(r, err);
  if (tile == TESS_SPRITE_MESSAGE_ALL_TILES)
    return g_strdup_printf(_("The traced shapes of tileset “%s” were not stored: %s Its tiles are unchanged."), name,
                           why);
  return g_strdup_printf(_("Tile %u of tileset “%s” was not changed: %s"), tile, name, why);
}

char *tess_sprite_message_tileset_unsaved(const char *name, guint tile, TessResult r, const char *why) {
  gboolean all = tile == TESS_SPRITE_MESSAGE_ALL_TILES;
  if (r == TESS_ERR_READONLY)
    return all ? g_strdup_printf(_("The traced shapes of tileset “%s” could not be saved: %s They are kept until you "
                                   "close the project: save a copy of it to keep them."),
                                 name, why)
               : g_strdup_printf(_("The new collision of tile %u of tileset “%s” could not be saved: %s It is kept "
                                   "until you close the project: save a copy of it to keep it."),
                                 tile, name, why);
  return all ? g_strdup_printf(_("The traced shapes of tileset “%s” could not be saved: %s"), name, why)
             : g_strdup_printf(_("The new collision of tile %u of tileset “%s” could not be saved: %s"), tile, name,
                               why);
}

char *tess_sprite_message_tileset_busy(const char *name) {
  return g_strdup_printf(_("Tileset “%s” is being traced already: wait for that trace to finish, or cancel it."),
                         name);
}

char *tess_sprite_message_tileset_changed(const char *name) {
  return g_strdup_printf(_("The tiles of tileset “%s” changed while it was traced, so the trace was not stored: "
                           "trace it again."),
                         name);
}

char *tess_sprite_message_tileset_cancelled(const char *name) {
  return g_strdup_printf(_("Tracing tileset “%s” was cancelled: its tiles are unchanged."), name);
}

char *tess_sprite_message_tileset_no_tile(const char *name, guint tile, guint count) {
  return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "Tileset “%s” has no tile %u: it has %u tile.",
                                     "Tileset “%s” has no tile %u: it has %u tiles.", count),
                         name, tile, count);
}

char *tess_sprite_message_tileset_nomem(const char *name) {
  return g_strdup_printf(_("There was not enough memory to change tileset “%s”: close other work and try again. Its "
                           "tiles are unchanged."),
                         name);
}
