/* Growth of dynamic arrays: doubling, with overflow checks. */
#include "tessera/base.h"

bool tess_array_reserve(void **data, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t grown = *cap < 8 ? 8 : *cap;
  while (grown < need) {
    if (grown > SIZE_MAX / 2) return false;
    grown *= 2;
  }
  size_t bytes;
  if (!tess_size_mul(grown, elem, &bytes)) return false;
  void *p = tess_realloc(*data, bytes);
  if (!p) return false;
  *data = p;
  *cap = grown;
  return true;
}
