/* core/store private: the BLOB layouts, little-endian and explicit, so a
 * project written on any machine reads on any other.
 *
 *   chunk cells : TESS_CHUNK_CELLS x u32 (row-major)
 *   points      : n x (f32 x, f32 y)                      (sprite hull)
 *   polygons    : u32 count, then count x polygon          (sprite pieces)
 *   polygon     : u32 n (1..8), then n x (f32 x, f32 y)
 *   tiles       : u32 tile_count, then per tile:
 *                 u32 material, u8 collision, u8 one_way, u16 piece_count,
 *                 then piece_count x polygon
 *
 * Every decoder checks every count against the bytes that are there and
 * demands that the BLOB ends exactly where its content does. */
#ifndef TESS_STORE_CODEC_H
#define TESS_STORE_CODEC_H

#include <string.h>

#include "tessera/level.h"

static inline void store_le_put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t store_le_get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline void store_le_put_f32(uint8_t *p, float f) {
  uint32_t bits;
  memcpy(&bits, &f, 4);
  store_le_put_u32(p, bits);
}
static inline float store_le_get_f32(const uint8_t *p) {
  uint32_t bits = store_le_get_u32(p);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/* True when the machine stores uint32 little-endian, as the file does. */
static inline bool store_host_little_endian(void) {
  const uint32_t one = 1;
  uint8_t first;
  memcpy(&first, &one, 1);
  return first == 1;
}

/* Chunk cells to and from TESS_CHUNK_CELLS * 4 bytes. */
void store_codec_put_cells(uint8_t *dst, const uint32_t *cells);
void store_codec_get_cells(uint32_t *cells, const uint8_t *src);

/* A reader over a BLOB: every get checks the remaining length; the first
 * shortfall sets `bad` and later gets return zeros. */
typedef struct TessBlobReader {
  const uint8_t *p;
  size_t left;
  bool bad;
} TessBlobReader;

static inline bool store_blob_take(TessBlobReader *r, size_t n, const uint8_t **out) {
  if (r->bad || r->left < n) {
    r->bad = true;
    return false;
  }
  *out = r->p;
  r->p += n;
  r->left -= n;
  return true;
}

/* Sizes of the encodings, for the caller's buffer. */
size_t store_codec_polygons_size(const TessPolygon *polys, uint32_t count);
size_t store_codec_tiles_size(const TessTileInfo *tiles, uint32_t count);

/* Encoders write exactly the size above and return the end pointer. */
uint8_t *store_codec_put_points(uint8_t *dst, const TessVec2 *pts, uint32_t count);
uint8_t *store_codec_put_polygons(uint8_t *dst, const TessPolygon *polys, uint32_t count);
uint8_t *store_codec_put_tiles(uint8_t *dst, const TessTileInfo *tiles, uint32_t count);

/* Decoders allocate with tess_alloc (NULL for zero items). They return
 * NULL-or-result and set *why to an English reason on a bad BLOB, or to
 * "out of memory". */
bool store_codec_get_points(const uint8_t *src, size_t size, TessVec2 **out, uint32_t *count, const char **why);
bool store_codec_get_polygons(const uint8_t *src, size_t size, TessPolygon **out, uint32_t *count,
                              const char **why);
/* tile_count must match the BLOB's own count. On success *out has
 * tile_count entries with their own pieces; free with store_codec_free_tiles. */
bool store_codec_get_tiles(const uint8_t *src, size_t size, uint32_t tile_count, TessTileInfo **out,
                           const char **why);
void store_codec_free_tiles(TessTileInfo *tiles, uint32_t count);

#endif
