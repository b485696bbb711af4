/* Private helpers of core/scene. */
#ifndef TESS_SCENE_PRIVATE_H
#define TESS_SCENE_PRIVATE_H

#include "tessera/scene.h"

/* Pin-on-overlap (tess_scene_resolve_pins is the public name). */
TessResult scene_resolve_pins(TessScene *s, TessError *err);
/* The same, clipping every pair that may pin (no bounding-circle culling):
 * the reference tests compare scene_resolve_pins with. */
TessResult scene_resolve_pins_all_pairs(TessScene *s, TessError *err);

/* The shape group of every body (body_count entries): bodies joined by pins
 * made on overlap, dynamic ones only, share a non-zero group and never
 * collide with each other (assemblies.c). */
TessResult scene_assembly_groups(const TessScene *s, uint16_t *groups, TessError *err);

#endif
