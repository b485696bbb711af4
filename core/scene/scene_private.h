/* Private helpers of core/scene. */
#ifndef TESS_SCENE_PRIVATE_H
#define TESS_SCENE_PRIVATE_H

#include "tessera/scene.h"

/* Drops repeated and collinear vertices in place; returns the new count. */
uint32_t scene_clean_polygon(TessVec2 *v, uint32_t n, float eps);
/* Reverses a polygon whose shoelace sum is negative (v[n-1-k], as the physics does). */
void scene_orient_polygon(TessVec2 *v, uint32_t n);
/* Pin-on-overlap: adds a pin joint for each overlapping pair where a body asks for it. */
TessResult scene_resolve_pins(TessScene *s, TessError *err);
/* The same, clipping every pair that may pin (no bounding-circle culling):
 * the reference tests compare scene_resolve_pins with. */
TessResult scene_resolve_pins_all_pairs(TessScene *s, TessError *err);

#endif
