/* TessTilePalette: the tilesets of the project, drawn from their PNG bytes;
 * a click picks one tile, a drag picks a rectangle of tiles (the brush's
 * stamp). Rename and remove a tileset from its menu. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_TILE_PALETTE (tess_tile_palette_get_type())
G_DECLARE_FINAL_TYPE(TessTilePalette, tess_tile_palette, TESS, TILE_PALETTE, GtkBox)

GtkWidget *tess_tile_palette_new(void);
void tess_tile_palette_set_document(TessTilePalette *self, TessDocument *doc);
TessId tess_tile_palette_get_tileset(TessTilePalette *self);
void tess_tile_palette_set_tileset(TessTilePalette *self, TessId tileset);
/* Selects the tiles in columns x..x+w-1, rows y..y+h-1 of the current
 * tileset (clipped) and emits "stamp-changed". */
void tess_tile_palette_select(TessTilePalette *self, uint32_t x, uint32_t y, uint32_t w, uint32_t h);
/* The selected stamp (borrowed cells, w * h, row-major); FALSE when none. */
gboolean tess_tile_palette_get_stamp(TessTilePalette *self, uint32_t *w, uint32_t *h, const TessCell **cells);

/* After the picker: shows the picked tiles as the palette's selection when
 * they form a rectangle of one tileset without flips (as Tiled does), without
 * emitting "stamp-changed" (the map view already has that stamp). Returns
 * whether they did. */
gboolean tess_tile_palette_follow_stamp(TessTilePalette *self, uint32_t w, uint32_t h, const TessCell *cells);

/* Tileset operations (the palette's menu). */
gboolean tess_tile_palette_rename_tileset(TessTilePalette *self, TessId tileset, const char *name);
/* Removes a tileset: its cells are erased (remap_to 0) or remapped to the same index of remap_to. */
gboolean tess_tile_palette_remove_tileset(TessTilePalette *self, TessId tileset, TessId remap_to);

/* The zoom: screen pixels per tileset pixel, a whole number from
 * TESS_TILE_PALETTE_ZOOM_MIN to _MAX (nearest-pixel scaling: pixel art
 * stays sharp). The zoom buttons and Ctrl+scroll change it; it is kept in
 * the project (TESS_DOCUMENT_SETTING_PALETTE_ZOOM). Until the user chooses
 * one, small tiles (under 24 px) show at 2, others at 1. */
#define TESS_TILE_PALETTE_ZOOM_MIN 1
#define TESS_TILE_PALETTE_ZOOM_MAX 8
int tess_tile_palette_get_zoom(TessTilePalette *self);
void tess_tile_palette_set_zoom(TessTilePalette *self, int zoom);
/* The tileset view (a TessScrollArea), for tests. */
GtkWidget *tess_tile_palette_get_view(TessTilePalette *self);

/* The cached cairo surface of a tileset (borrowed), decoding it on first use. */
cairo_surface_t *tess_tile_palette_get_surface(TessTilePalette *self, TessId tileset);

/* Terrain mode (a mode of the tileset view, tess-tile-palette-terrain.c):
 * the tileset's terrain sets and their colours; a click on a tile's corner
 * or edge (a 3 x 3 grid for mixed sets, the centre for the whole tile)
 * labels it with the chosen colour, the secondary button clears it. The
 * chosen colour is what the map's brush, rectangle and bucket paint. */
void tess_tile_palette_set_terrain_mode(TessTilePalette *self, gboolean on);
gboolean tess_tile_palette_get_terrain_mode(TessTilePalette *self);
/* The chosen terrain colour (1..) of set `set` of the current tileset; FALSE when none (or not in terrain mode). */
gboolean tess_tile_palette_get_terrain(TessTilePalette *self, TessId *tileset, uint32_t *set, uint32_t *color);
void tess_tile_palette_choose_terrain(TessTilePalette *self, uint32_t set, uint32_t color);
/* Edits (one undo step each): a new set of `kind`, a new colour of the chosen set, one label. */
gboolean tess_tile_palette_add_terrain_set(TessTilePalette *self, const char *name, TessTerrainKind kind);
gboolean tess_tile_palette_add_terrain_color(TessTilePalette *self, const char *name, uint32_t rgba);
gboolean tess_tile_palette_label_tile(TessTilePalette *self, uint32_t tile, int position, uint32_t color, uint32_t merge);

/* Signal "stamp-changed" (no arguments). */

G_END_DECLS
