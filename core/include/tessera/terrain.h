/* Tessera core/level: terrain sets (Tiled's Wang sets) on a tileset, and the
 * Wang fill that chooses tiles whose labels match their neighbours.
 *
 * A terrain set names colours (grass, water, wall) and labels tiles of its
 * tileset with the colour of each corner and edge, in Tiled's wangid order:
 *
 *     7 0 1      0 top edge, 1 top-right corner, 2 right edge,
 *     6 . 2      3 bottom-right corner, 4 bottom edge, 5 bottom-left corner,
 *     5 4 3      6 left edge, 7 top-left corner
 *
 * Colour 0 is "no colour". A corner set looks at corners only, an edge set at
 * edges only, a mixed set at both (Tiled's three kinds). Included by level.h;
 * the types depend on base.h only so that store, pack and formats read them
 * as plain data. */
#ifndef TESSERA_TERRAIN_H
#define TESSERA_TERRAIN_H

#include "tessera/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESS_TERRAIN_MAX_SETS 255   /* per tileset */
#define TESS_TERRAIN_MAX_COLORS 254 /* per set: what one byte per corner/edge holds, Tiled's own limit */
#define TESS_TERRAIN_POSITIONS 8

typedef enum TessTerrainKind {
  TESS_TERRAIN_CORNER = 0,
  TESS_TERRAIN_EDGE = 1,
  TESS_TERRAIN_MIXED = 2,
} TessTerrainKind;

typedef struct TessTerrainColor {
  char name[TESS_NAME_MAX];
  uint32_t color;    /* 0xRRGGBBAA, how the editor shows it */
  float probability; /* > = 0, default 1: weighs every tile that uses the colour */
  int32_t tile;      /* the tile that stands for it in lists, -1 = none */
} TessTerrainColor;

/* One labelled tile. */
typedef struct TessTerrainTile {
  uint32_t tile;                        /* index in the tileset */
  uint8_t wang[TESS_TERRAIN_POSITIONS]; /* colour per position (0 = none), order above */
  float probability;                    /* >= 0, default 1: weighs this tile among equal matches */
} TessTerrainTile;

typedef struct TessTerrainSet {
  char name[TESS_NAME_MAX];
  uint8_t kind;             /* TessTerrainKind */
  int32_t tile;             /* the set's icon, -1 = none */
  uint32_t color_count;     /* colours 1..color_count */
  TessTerrainColor *colors; /* color_count entries; colors[0] is colour 1 */
  uint32_t tile_count;      /* labelled tiles, sorted by tile index, each at most once */
  TessTerrainTile *tiles;
} TessTerrainSet;

/* Which positions a kind looks at (bit i = position i). */
uint8_t tess_terrain_kind_mask(TessTerrainKind kind);
/* A set with no colours and no tiles: name copied (truncated to fit). */
void tess_terrain_set_init(TessTerrainSet *set, const char *name, TessTerrainKind kind);
/* Deep copy and free of one set (the struct itself is the caller's). */
TessResult tess_terrain_set_copy(TessTerrainSet *dst, const TessTerrainSet *src);
void tess_terrain_set_clear(TessTerrainSet *set);
/* Arrays of sets. */
TessResult tess_terrain_sets_copy(TessTerrainSet **dst, const TessTerrainSet *src, uint32_t count);
void tess_terrain_sets_free(TessTerrainSet *sets, uint32_t count);
/* Names, kinds, probabilities (finite, >= 0), colours in range, tiles below
 * tile_count, sorted and unique; `where` names the tileset in the message. */
TessResult tess_terrain_set_validate(const TessTerrainSet *set, uint32_t tile_count, const char *where,
                                     TessError *err);

/* Adds a colour (returns its number, 1..) or sets a tile's labels: the tile
 * is added (sorted) when new, and removed when every label is 0. */
TessResult tess_terrain_set_add_color(TessTerrainSet *set, const char *name, uint32_t rgba, uint32_t *color_out,
                                      TessError *err);
TessResult tess_terrain_set_label(TessTerrainSet *set, uint32_t tile, const uint8_t wang[TESS_TERRAIN_POSITIONS],
                                  float probability, TessError *err);
/* The labelled tile, or NULL. */
const TessTerrainTile *tess_terrain_set_find(const TessTerrainSet *set, uint32_t tile);
/* Which position of a tile a point (u, v in [0, 1], y down) names for a set
 * of `kind`: corner sets the nearest corner, edge sets the nearest edge, mixed
 * sets a 3 x 3 grid (corners, edges, and -1 for the centre: the whole tile).
 * What the editor's terrain mode labels on a click. */
int tess_terrain_position_at(TessTerrainKind kind, float u, float v);

/* True when every combination of colours over the kind's positions has a tile
 * (what guarantees that every painted cell matches all its neighbours). */
bool tess_terrain_set_complete(const TessTerrainSet *set);

#ifdef __cplusplus
}
#endif
#endif
