/* A streaming 64-bit content hash (FNV-1a over bytes, finished with a
 * SplitMix64 avalanche). Not cryptographic: it names content for caching,
 * undo checks and world-state comparison. Values are hashed as little-endian
 * bytes so the result is the same on every machine. */
#include <string.h>
#include <time.h>

#include "tessera/base.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

void tess_hasher_init(TessHasher *h) {
  h->state = FNV_OFFSET;
  h->length = 0;
}

void tess_hasher_bytes(TessHasher *h, const void *data, size_t size) {
  const unsigned char *p = data;
  uint64_t s = h->state;
  h->length += size;
  /* Eight bytes per round: the multiply chain is the cost, so fold words. */
  while (size >= 8) {
    uint64_t w = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
                 (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
    s = (s ^ w) * FNV_PRIME;
    s ^= s >> 29;
    p += 8;
    size -= 8;
  }
  while (size--) s = (s ^ *p++) * FNV_PRIME;
  h->state = s;
}

void tess_hasher_u32(TessHasher *h, uint32_t v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
  tess_hasher_bytes(h, b, 4);
}

void tess_hasher_u64(TessHasher *h, uint64_t v) {
  tess_hasher_u32(h, (uint32_t)v);
  tess_hasher_u32(h, (uint32_t)(v >> 32));
}

void tess_hasher_f32(TessHasher *h, float v) {
  uint32_t bits;
  memcpy(&bits, &v, sizeof bits);
  tess_hasher_u32(h, bits);
}

void tess_hasher_f64(TessHasher *h, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  tess_hasher_u64(h, bits);
}

void tess_hasher_str(TessHasher *h, const char *s) {
  size_t n = s ? strlen(s) : 0;
  tess_hasher_u64(h, (uint64_t)n);
  if (n) tess_hasher_bytes(h, s, n);
}

uint64_t tess_hasher_finish(const TessHasher *h) {
  uint64_t z = h->state + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t tess_hash_bytes(const void *data, size_t size) {
  TessHasher h;
  tess_hasher_init(&h);
  tess_hasher_bytes(&h, data, size);
  return tess_hasher_finish(&h);
}

double tess_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
