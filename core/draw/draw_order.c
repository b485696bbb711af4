/* Depth order (the SLRBS z-sort): bodies are drawn by depth, lower first;
 * within a depth, bodies that sort by y are drawn top of the screen first, so
 * that in a top-down level what stands lower (nearer the viewer) covers what
 * stands behind it; ties keep body order, so the order is total and the same
 * on every run. */
#include <stdlib.h>
#include <string.h>

#include "draw_private.h"

typedef struct OrderKey {
  int32_t depth;
  uint32_t late; /* 1: spawned after the order was set: after all */
  float y;       /* 0 unless the body sorts by y */
  uint32_t index;
} OrderKey;

static int compare_keys(const void *pa, const void *pb) {
  const OrderKey *a = pa, *b = pb;
  if (a->late != b->late) return a->late < b->late ? -1 : 1;
  if (a->depth != b->depth) return a->depth < b->depth ? -1 : 1;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

TessResult tess_draw_set_order(TessDraw *d, const int32_t *depth, const uint8_t *y_sort, uint32_t count,
                               TessError *err) {
  d->depth.count = 0;
  d->y_sort.count = 0;
  if (!count) return TESS_OK;
  if (!TESS_ARRAY_RESERVE(&d->depth, count) || !TESS_ARRAY_RESERVE(&d->y_sort, count))
    return tess_error_set(err, TESS_ERR_NOMEM, "draw", "no memory for the order of %u bodies", count);
  for (uint32_t i = 0; i < count; i++) {
    d->depth.data[i] = depth ? depth[i] : 0;
    d->y_sort.data[i] = y_sort ? (y_sort[i] != 0) : 0;
  }
  d->depth.count = d->y_sort.count = count;
  return TESS_OK;
}

/* Fills d->order with the bodies of `src` in drawing order; false when out
 * of memory (then d->order is body order, as far as it goes). */
bool draw_order(TessDraw *d, const DrawBodies *src) {
  d->order.count = 0;
  if (!TESS_ARRAY_RESERVE(&d->order, src->count)) return false;
  for (uint32_t i = 0; i < src->count; i++) d->order.data[i] = i;
  d->order.count = src->count;
  if (!d->depth.count || src->count < 2) return true;
  OrderKey *keys = tess_alloc((size_t)src->count * sizeof *keys);
  if (!keys) return false;
  for (uint32_t i = 0; i < src->count; i++) {
    OrderKey *k = &keys[i];
    memset(k, 0, sizeof *k);
    k->index = i;
    if (i >= d->depth.count) {
      k->late = 1;
      continue;
    }
    k->depth = d->depth.data[i];
    TessTransform xf;
    if (d->y_sort.data[i] && src->transform(src->ctx, i, &xf) && isfinite(xf.p.y)) k->y = xf.p.y;
  }
  qsort(keys, src->count, sizeof *keys, compare_keys);
  for (uint32_t i = 0; i < src->count; i++) d->order.data[i] = keys[i].index;
  tess_free(keys);
  return true;
}

uint32_t tess_draw_last_order(const TessDraw *d, uint32_t *out, uint32_t max) {
  for (size_t i = 0; i < d->order.count && i < max; i++) out[i] = d->order.data[i];
  return (uint32_t)d->order.count;
}
