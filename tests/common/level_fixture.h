/* The tests' one way to find a level's object layer (where a test adds the
 * bodies, joints and zones it checks). Header-only, as project_fixture.h. */
#ifndef TESS_TEST_LEVEL_FIXTURE_H
#define TESS_TEST_LEVEL_FIXTURE_H

#include <stddef.h>

#include "tessera/level.h"

/* The topmost object layer of `level` (the last in its order), NULL if it has none. */
static inline TessLayer *tess_test_object_layer(const TessLevel *level) {
  for (uint32_t i = level ? level->layer_count : 0; i-- > 0;)
    if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) return level->layers[i];
  return NULL;
}

/* Its id, 0 if it has none. */
static inline TessId tess_test_object_layer_id(const TessLevel *level) {
  const TessLayer *layer = tess_test_object_layer(level);
  return layer ? layer->props.id : 0;
}

#endif
