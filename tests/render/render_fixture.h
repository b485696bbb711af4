/* A project built in code for the render tests and benchmarks: four
 * materials, a 16 px tileset whose tiles are asymmetric (so flips show), a
 * small level using every feature, and big filled levels. */
#ifndef TESS_RENDER_FIXTURE_H
#define TESS_RENDER_FIXTURE_H

#include "tessera/image.h"
#include "tessera/level.h"

enum {
  FIX_STONE = 1,
  FIX_GRASS = 2,
  FIX_WATER = 3,
  FIX_ICE = 4, /* material ids */
  FIX_TILESET = 1,
  FIX_SPRITE = 1,
  FIX_SMALL_LEVEL = 1,
  FIX_LAYER_GROUND = 1,
  FIX_LAYER_DECOR = 2,
  FIX_LAYER_MATERIAL = 3,
  FIX_LAYER_OBJECTS = 4,
};

/* The tileset image: 4 x 4 tiles of 16 px, each a colour with a dark bar on
 * its left edge, a light bar on its top edge and a dot near the top-left. */
TessResult fixture_tileset_image(TessImage *out, TessError *err);
/* A project with the materials, the tileset (tile 4 traced as a slope) and a sprite. */
TessProject *fixture_project(void);
/* The small level (12 x 8 cells) with ground, a half-opaque decor layer
 * with flipped tiles, material overrides and one object of every kind. */
TessLevel *fixture_small_level(TessProject *p);
/* A width x height level (cells of tile px) whose "Ground" layer is full of
 * varied tiles with flips; id given. */
TessLevel *fixture_big_level(TessProject *p, TessId id, uint32_t width, uint32_t height, uint32_t tile);

#endif
