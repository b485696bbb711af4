/* The one allocator. Each block carries a 16-byte header holding its size,
 * so the live byte count stays exact and blocks stay 16-byte aligned. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/base.h"

#define HEADER 16u

static atomic_llong live_bytes;
/* The live count's high-water mark since the last tess_alloc_peak_reset: how
 * tests bound the working memory of one call (part of the same counter, not
 * a second piece of global state with its own meaning). */
static atomic_llong peak_bytes;

static void count_grow(long long delta) {
  long long now = atomic_fetch_add(&live_bytes, delta) + delta;
  long long peak = atomic_load(&peak_bytes);
  while (now > peak && !atomic_compare_exchange_weak(&peak_bytes, &peak, now)) {
  }
}

void *tess_alloc(size_t size) {
  size_t total;
  if (!tess_size_add(size, HEADER, &total)) return NULL;
  unsigned char *block = malloc(total);
  if (!block) return NULL;
  memcpy(block, &size, sizeof size);
  count_grow((long long)size);
  return block + HEADER;
}

void *tess_calloc(size_t count, size_t size) {
  size_t bytes;
  if (!tess_size_mul(count, size, &bytes)) return NULL;
  void *p = tess_alloc(bytes);
  if (p) memset(p, 0, bytes);
  return p;
}

void *tess_realloc(void *ptr, size_t size) {
  if (!ptr) return tess_alloc(size);
  if (size == 0) {
    tess_free(ptr);
    return NULL;
  }
  unsigned char *block = (unsigned char *)ptr - HEADER;
  size_t old;
  memcpy(&old, block, sizeof old);
  size_t total;
  if (!tess_size_add(size, HEADER, &total)) return NULL;
  unsigned char *grown = realloc(block, total);
  if (!grown) return NULL;
  memcpy(grown, &size, sizeof size);
  count_grow((long long)size - (long long)old);
  return grown + HEADER;
}

void tess_free(void *ptr) {
  if (!ptr) return;
  unsigned char *block = (unsigned char *)ptr - HEADER;
  size_t size;
  memcpy(&size, block, sizeof size);
  atomic_fetch_sub(&live_bytes, (long long)size);
  free(block);
}

char *tess_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = tess_alloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

int64_t tess_alloc_live_bytes(void) { return (int64_t)atomic_load(&live_bytes); }

int64_t tess_alloc_peak_bytes(void) { return (int64_t)atomic_load(&peak_bytes); }

void tess_alloc_peak_reset(void) { atomic_store(&peak_bytes, atomic_load(&live_bytes)); }
