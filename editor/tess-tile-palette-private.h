/* TessTilePalette's state, shared by the palette and its terrain mode
 * (tess-tile-palette-terrain.c). */
#pragma once

#include "tess-tile-palette.h"

struct _TessTilePalette {
  GtkBox parent_instance;

  /* template widgets (tess-tile-palette.ui) */
  GtkDropDown *tilesets;
  GtkStringList *tileset_names;
  GtkWidget *area; /* a TessScrollArea: draws only what shows, at any zoom */
  GtkWidget *menu_button;

  /* owned */
  TessDocument *doc;
  GHashTable *surfaces; /* TessId -> cairo_surface_t */
  GArray *tileset_ids;  /* per dropdown item */
  TessCell *stamp;
  uint32_t stamp_w, stamp_h;

  TessId tileset;
  uint32_t sel_x, sel_y, sel_w, sel_h; /* selection in tile columns and rows */
  double drag_x, drag_y;               /* where a drag began, in content pixels */
  double pointer_x, pointer_y;         /* the pointer over the view (Ctrl+wheel zooms there) */
  double scale;                        /* screen px per tileset px: the zoom, a whole number */
  int zoom;                            /* the zoom the user chose (kept in the project), 0 = automatic */
  gboolean tilesets_dirty, syncing;
  gboolean quiet; /* selecting without emitting "stamp-changed" */
  gulong changed_handler, committed_handler;

  /* terrain mode (tess-tile-palette-terrain.c) */
  gboolean terrain_mode;
  uint32_t terrain_set;   /* index into the tileset's terrain sets */
  uint32_t terrain_color; /* 1.., 0 = none chosen */
  uint32_t terrain_merge; /* one drag of labelling = one undo step */
  gboolean terrain_syncing;
  GtkWidget *terrain_colors, *terrain_hint;
  GtkDropDown *terrain_sets, *terrain_kind;
  GtkStringList *terrain_set_names;
};

TessProject *tess_tile_palette_project(TessTilePalette *self);
TessTileset *tess_tile_palette_current(TessTilePalette *self);
/* Pixel position of a tile's top-left in the tileset image. */
void tess_tile_palette_tile_origin(const TessTileset *ts, uint32_t col, uint32_t row, double *x, double *y);

/* ---- terrain mode (tess-tile-palette-terrain.c) ---- */
/* Binds the terrain controls of the template and their handlers. */
void tess_tile_palette_terrain_class_init(GtkWidgetClass *widget_class);
/* Rebuilds the set list and colour buttons from the project. */
void tess_tile_palette_terrain_sync(TessTilePalette *self);
void tess_tile_palette_terrain_draw(TessTilePalette *self, cairo_t *cr, const TessTileset *ts);
/* A press (or drag) at widget point (x, y): labels the position under it with
 * the chosen colour (clear: colour 0). */
void tess_tile_palette_terrain_press(TessTilePalette *self, double x, double y, gboolean clear, gboolean new_drag);
