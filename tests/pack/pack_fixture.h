/* Randomly generated projects for the pack tests and benchmarks, built
 * through the tess_edit_* API as the editor would. Deterministic per seed. */
#ifndef TESS_PACK_FIXTURE_H
#define TESS_PACK_FIXTURE_H

#include "tessera/level.h"

typedef struct PackFixtureSpec {
  uint32_t width, height; /* cells */
  uint32_t tile_layers;   /* >= 1 */
  uint32_t bodies, joints, zones, spawns;
  uint32_t levels;   /* levels in the project (each random) */
  bool noise;        /* random tiles everywhere (many distinct cells) */
  bool terrain_only; /* walls and floors only, no scattered tiles (contiguous solids) */
  bool pixel_layer;  /* the top tile layer collides by pixels (a pixel mask, format 3.6) */
  bool pixel_body;   /* a static sprite body (a real PNG: a ramp) that collides by pixels, turned (format 3.9) */
} PackFixtureSpec;

void pack_fixture_spec_default(PackFixtureSpec *spec);
/* NULL on failure (the reason printed to stderr). History is cleared. */
TessProject *pack_fixture_project(uint64_t seed, const PackFixtureSpec *spec);

#endif
