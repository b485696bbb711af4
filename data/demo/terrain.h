/* The demo tileset's layout (art/terrain.png, 8 x 4 tiles of 32 px), shared
 * by draw-demo-art.c, which draws it, and make-demo.c, which gives each tile
 * its material and collision shape. */
#ifndef TESS_DEMO_TERRAIN_H
#define TESS_DEMO_TERRAIN_H

#define TERRAIN_COLUMNS 8
#define TERRAIN_ROWS 4

enum {
  TILE_ROCK = 0,          /* solid rock, full square */
  TILE_SAND = 1,          /* sand, full square */
  TILE_ICE = 2,           /* ice, full square */
  TILE_RUBBER = 3,        /* rubber, full square */
  TILE_WOOD = 4,          /* wooden planks, full square */
  TILE_WATER_SURFACE = 5, /* shallow water with its surface: fluid, no shape */
  TILE_WATER_DEEP = 6,    /* deep water: fluid, no shape */
  TILE_STONE_FLOOR = 7,   /* top-down flagstones: floor */
  TILE_ROCK_SLOPE = 8,    /* 45-degree rock slope rising to the right: traced */
  TILE_ROUND_CORNER = 9,  /* quarter disc of rock (rounded top-right): traced */
  TILE_PLANK = 10,        /* one-way wooden plank, top 8 px: traced */
  TILE_ICE_FLOOR = 11,    /* top-down ice: floor */
  TILE_SAND_FLOOR = 12,   /* top-down sand: floor */
  TILE_GRASS_ROCK = 13,   /* rock with a grass top, full square */
  TILE_BACKGROUND = 14,   /* dim bricks for a background layer: no shape, no material */
  TILE_SAND_SLOPE = 15,   /* 45-degree sand slope: traced */
  /* Rows 3-4: the "Cave" terrain set (a corner set of rock and air): tile
   * TILE_CAVE + code has rock in the quarters whose corner bit is set (bit 0
   * top-right, 1 bottom-right, 2 bottom-left, 3 top-left, Tiled's corner
   * order), air (transparent) elsewhere; traced, so a painted cave collides
   * where its rock is drawn. */
  TILE_CAVE = 16,
  TERRAIN_TILE_COUNT = 32
};

#endif
