/* Private helpers of core/scene. */
#ifndef TESS_SCENE_PRIVATE_H
#define TESS_SCENE_PRIVATE_H

#include "tessera/scene.h"

/* Pin-on-overlap (tess_scene_resolve_pins is the public name). */
TessResult scene_resolve_pins(TessScene *s, TessError *err);
/* The same, clipping every pair that may pin (no bounding-circle culling):
 * the reference tests compare scene_resolve_pins with. */
TessResult scene_resolve_pins_all_pairs(TessScene *s, TessError *err);

#endif
