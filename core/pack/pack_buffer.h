/* Byte buffers, string tables and a small integer map for the .tlv writer.
 * Every value is appended little-endian whatever the host, so the output
 * is the same on every machine. */
#ifndef TESS_PACK_BUFFER_H
#define TESS_PACK_BUFFER_H

#include "tessera/base.h"

typedef struct PackBuf {
  uint8_t *data;
  size_t size, cap;
  bool failed; /* an allocation failed: the buffer is unusable, checked once at the end */
} PackBuf;

void pack_buf_free(PackBuf *b);
uint8_t *pack_buf_grow(PackBuf *b, size_t n); /* n more zeroed bytes, or NULL (and failed) */
uint8_t *pack_buf_append_slow(PackBuf *b, size_t n);
/* n more bytes for the caller to fill (not zeroed), or NULL (and failed).
 * The common case, room left, is inline: the writer appends millions of small values. */
static inline uint8_t *pack_buf_append(PackBuf *b, size_t n) {
  if (b->cap - b->size >= n && !b->failed) {
    uint8_t *p = b->data + b->size;
    b->size += n;
    return p;
  }
  return pack_buf_append_slow(b, n);
}
static inline void pack_set_u16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void pack_set_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}
static inline void pack_set_u64(uint8_t *p, uint64_t v) {
  pack_set_u32(p, (uint32_t)v);
  pack_set_u32(p + 4, (uint32_t)(v >> 32));
}
static inline void pack_put_u8(PackBuf *b, uint8_t v) {
  uint8_t *p = pack_buf_append(b, 1);
  if (p) p[0] = v;
}
static inline void pack_put_u16(PackBuf *b, uint16_t v) {
  uint8_t *p = pack_buf_append(b, 2);
  if (p) pack_set_u16(p, v);
}
static inline void pack_put_u32(PackBuf *b, uint32_t v) {
  uint8_t *p = pack_buf_append(b, 4);
  if (p) pack_set_u32(p, v);
}
static inline void pack_put_u64(PackBuf *b, uint64_t v) {
  uint8_t *p = pack_buf_append(b, 8);
  if (p) pack_set_u64(p, v);
}
void pack_put_f32(PackBuf *b, float v);
void pack_put_f64(PackBuf *b, double v);
void pack_put_bytes(PackBuf *b, const void *data, size_t n);
void pack_pad(PackBuf *b, size_t align); /* zero bytes up to a multiple of align */

/* u64 -> u32 map (open addressing), insertion-ordered values are the caller's. */
typedef struct PackMap {
  uint64_t *keys;
  uint32_t *values;
  uint8_t *used;
  size_t cap, count;
  bool failed;
} PackMap;

void pack_map_free(PackMap *m);
/* Returns true and *value if key is present. */
bool pack_map_get(const PackMap *m, uint64_t key, uint32_t *value);
bool pack_map_put(PackMap *m, uint64_t key, uint32_t value);

/* String table: offset 0 is "", each string once, in order of first use. */
typedef struct PackStrings {
  PackBuf bytes;
  uint32_t *offsets; /* hash slots: offset + 1, 0 = empty */
  size_t cap, count;
  bool failed;
} PackStrings;

void pack_strings_init(PackStrings *s);
void pack_strings_free(PackStrings *s);
uint32_t pack_string(PackStrings *s, const char *str); /* NULL -> "" */

#endif
