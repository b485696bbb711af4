/* A small project the level tests share: three materials (stone: solid,
 * grass: floor, water: fluid), a 4x4 tileset of 16 px tiles, a sprite, and
 * one level with the three starting layers. */
#ifndef TESS_TEST_LEVEL_FIXTURE_H
#define TESS_TEST_LEVEL_FIXTURE_H

#include "check.h"
#include "tessera/level.h"

typedef struct Fixture {
  TessProject *p;
  TessId stone, grass, water;
  TessId tileset;
  TessId sprite;
  TessId level;
  TessId ground, materials, objects; /* layer ids */
} Fixture;

void fixture_make(Fixture *f);
void fixture_free(Fixture *f);
/* Every chunk's `used` equals its non-zero cells and no empty chunk is kept. */
void check_layer_invariants(const TessProject *p);
/* A sprite with a small mask. */
void fixture_sprite(TessSprite *s, const char *name);

#endif
