/* The order a layer's objects are drawn in, for the map view, `render` and
 * Play (which hands it to libtessera-draw): depth first, then y where the
 * layer sorts by y (top-down levels: what stands lower covers what stands
 * behind), then object order, so the order is total and the same on every
 * run. */
#include <math.h>
#include <stdlib.h>

#include "level_private.h"

typedef struct DrawKey {
  int32_t depth;
  float y;
  uint32_t index;
} DrawKey;

static int compare_keys(const void *pa, const void *pb) {
  const DrawKey *a = pa, *b = pb;
  if (a->depth != b->depth) return a->depth < b->depth ? -1 : 1;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

TessResult tess_layer_draw_order(const TessLayer *layer, uint32_t *out, TessError *err) {
  uint32_t n = layer->object_count;
  if (n == 0) return TESS_OK;
  DrawKey *keys = tess_calloc(n, sizeof *keys);
  if (!keys) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "no memory to order %u objects", n);
  for (uint32_t i = 0; i < n; i++) {
    const TessObject *o = &layer->objects[i];
    keys[i].depth = o->depth;
    keys[i].y = layer->props.y_sort && isfinite(o->pos.y) ? o->pos.y : 0.0f;
    keys[i].index = i;
  }
  qsort(keys, n, sizeof *keys, compare_keys);
  for (uint32_t i = 0; i < n; i++) out[i] = keys[i].index;
  tess_free(keys);
  return TESS_OK;
}

uint32_t tess_level_object_layer_rank(const TessLevel *level, const TessLayer *layer) {
  uint32_t rank = 0;
  for (uint32_t i = 0; i < level->layer_count; i++) {
    if (level->layers[i] == layer) return rank;
    if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) rank++;
  }
  return 0;
}
