/* Terrain sets for tests: complete sets (every combination of colours over
 * the kind's positions, plus weighted variants) and incomplete ones, on a
 * 16 x 16 tileset of 16 px tiles whose tiles are dealt out in a shuffled
 * order, so that tile index and labels have nothing to do with each other. */
#ifndef TESS_TEST_TERRAIN_FIXTURE_H
#define TESS_TEST_TERRAIN_FIXTURE_H

#include "check.h"
#include "tessera/level.h"

#define TERRAIN_FIXTURE_TILES 256

/* Fills `set` (caller clears it) with a random set of `kind` and `colors`
 * colours: complete when keep == 1.0, else each combination kept with
 * probability keep (at least one tile). `variants` extra tiles repeat
 * random labellings with random probabilities. */
void terrain_fixture_set(TessTerrainSet *set, TessTestRng *rng, TessTerrainKind kind, uint32_t colors, double keep,
                         uint32_t variants);
/* Adds a 256-tile tileset carrying `set` (copied) to p; returns its id. */
TessId terrain_fixture_tileset(TessProject *p, const TessTerrainSet *set);

#endif
