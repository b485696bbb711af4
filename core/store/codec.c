/* The BLOB layouts of store_codec.h. */
#include "store_codec.h"

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TESS_HOST_LITTLE_ENDIAN 1
#else
#define TESS_HOST_LITTLE_ENDIAN 0
#endif

void store_codec_put_cells(uint8_t *dst, const uint32_t *cells) {
#if TESS_HOST_LITTLE_ENDIAN
  memcpy(dst, cells, (size_t)TESS_CHUNK_CELLS * 4);
#else
  for (size_t i = 0; i < TESS_CHUNK_CELLS; i++) store_le_put_u32(dst + 4 * i, cells[i]);
#endif
}

void store_codec_get_cells(uint32_t *cells, const uint8_t *src) {
#if TESS_HOST_LITTLE_ENDIAN
  memcpy(cells, src, (size_t)TESS_CHUNK_CELLS * 4);
#else
  for (size_t i = 0; i < TESS_CHUNK_CELLS; i++) cells[i] = store_le_get_u32(src + 4 * i);
#endif
}

static size_t polygon_size(const TessPolygon *poly) { return 4 + (size_t)poly->count * 8; }

size_t store_codec_polygons_size(const TessPolygon *polys, uint32_t count) {
  size_t n = 4;
  for (uint32_t i = 0; i < count; i++) n += polygon_size(&polys[i]);
  return n;
}

size_t store_codec_tiles_size(const TessTileInfo *tiles, uint32_t count) {
  size_t n = 4;
  for (uint32_t i = 0; i < count; i++) {
    n += 8;
    for (uint32_t k = 0; k < tiles[i].piece_count; k++) n += polygon_size(&tiles[i].pieces[k]);
  }
  return n;
}

uint8_t *store_codec_put_points(uint8_t *dst, const TessVec2 *pts, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    store_le_put_f32(dst, pts[i].x);
    store_le_put_f32(dst + 4, pts[i].y);
    dst += 8;
  }
  return dst;
}

static uint8_t *put_polygon(uint8_t *dst, const TessPolygon *poly) {
  uint32_t n = poly->count <= TESS_POLY_MAX ? poly->count : TESS_POLY_MAX;
  store_le_put_u32(dst, n);
  return store_codec_put_points(dst + 4, poly->v, n);
}

uint8_t *store_codec_put_polygons(uint8_t *dst, const TessPolygon *polys, uint32_t count) {
  store_le_put_u32(dst, count);
  dst += 4;
  for (uint32_t i = 0; i < count; i++) dst = put_polygon(dst, &polys[i]);
  return dst;
}

uint8_t *store_codec_put_tiles(uint8_t *dst, const TessTileInfo *tiles, uint32_t count) {
  store_le_put_u32(dst, count);
  dst += 4;
  for (uint32_t i = 0; i < count; i++) {
    const TessTileInfo *t = &tiles[i];
    store_le_put_u32(dst, t->material);
    dst[4] = t->collision;
    dst[5] = t->one_way;
    dst[6] = (uint8_t)t->piece_count;
    dst[7] = (uint8_t)(t->piece_count >> 8);
    dst += 8;
    for (uint32_t k = 0; k < t->piece_count; k++) dst = put_polygon(dst, &t->pieces[k]);
  }
  return dst;
}

bool store_codec_get_points(const uint8_t *src, size_t size, TessVec2 **out, uint32_t *count, const char **why) {
  *out = NULL;
  *count = 0;
  if (size % 8 != 0) {
    *why = "its length is not a whole number of points (8 bytes each)";
    return false;
  }
  size_t n = size / 8;
  if (n > UINT32_MAX) {
    *why = "it holds too many points";
    return false;
  }
  if (n == 0) return true;
  TessVec2 *pts = tess_calloc(n, sizeof *pts);
  if (!pts) {
    *why = "out of memory";
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    pts[i].x = store_le_get_f32(src + 8 * i);
    pts[i].y = store_le_get_f32(src + 8 * i + 4);
  }
  *out = pts;
  *count = (uint32_t)n;
  return true;
}

static bool get_polygon(TessBlobReader *r, TessPolygon *poly, const char **why) {
  const uint8_t *p;
  if (!store_blob_take(r, 4, &p)) {
    *why = "it ends inside a polygon's vertex count";
    return false;
  }
  uint32_t n = store_le_get_u32(p);
  if (n == 0 || n > TESS_POLY_MAX) {
    *why = "a polygon has a vertex count outside 1..8";
    return false;
  }
  if (!store_blob_take(r, (size_t)n * 8, &p)) {
    *why = "it ends inside a polygon's vertices";
    return false;
  }
  memset(poly, 0, sizeof *poly);
  poly->count = n;
  for (uint32_t i = 0; i < n; i++) {
    poly->v[i].x = store_le_get_f32(p + 8 * i);
    poly->v[i].y = store_le_get_f32(p + 8 * i + 4);
  }
  return true;
}

/* Reads `count` polygons into a fresh array. */
static bool get_polygon_array(TessBlobReader *r, uint32_t count, TessPolygon **out, const char **why) {
  *out = NULL;
  if (count == 0) return true;
  /* Each polygon takes at least 12 bytes: refuse a count the bytes cannot hold before allocating. */
  if (count > r->left / 12) {
    *why = "its polygon count is larger than its bytes can hold";
    return false;
  }
  TessPolygon *polys = tess_calloc(count, sizeof *polys);
  if (!polys) {
    *why = "out of memory";
    return false;
  }
  for (uint32_t i = 0; i < count; i++) {
    if (!get_polygon(r, &polys[i], why)) {
      tess_free(polys);
      return false;
    }
  }
  *out = polys;
  return true;
}

bool store_codec_get_polygons(const uint8_t *src, size_t size, TessPolygon **out, uint32_t *count,
                              const char **why) {
  TessBlobReader r = {src, size, false};
  const uint8_t *p;
  *out = NULL;
  *count = 0;
  if (!store_blob_take(&r, 4, &p)) {
    *why = "it is shorter than its 4-byte count";
    return false;
  }
  uint32_t n = store_le_get_u32(p);
  TessPolygon *polys = NULL;
  if (!get_polygon_array(&r, n, &polys, why)) return false;
  if (r.left != 0) {
    tess_free(polys);
    *why = "it has bytes after its last polygon";
    return false;
  }
  *out = polys;
  *count = n;
  return true;
}

void store_codec_free_tiles(TessTileInfo *tiles, uint32_t count) {
  if (!tiles) return;
  for (uint32_t i = 0; i < count; i++) tess_free(tiles[i].pieces);
  tess_free(tiles);
}

bool store_codec_get_tiles(const uint8_t *src, size_t size, uint32_t tile_count, TessTileInfo **out,
                           const char **why) {
  TessBlobReader r = {src, size, false};
  const uint8_t *p;
  *out = NULL;
  if (!store_blob_take(&r, 4, &p)) {
    *why = "it is shorter than its 4-byte count";
    return false;
  }
  if (store_le_get_u32(p) != tile_count) {
    *why = "its tile count differs from the tileset's";
    return false;
  }
  if (tile_count == 0) {
    if (r.left != 0) {
      *why = "it has bytes after its last tile";
      return false;
    }
    return true;
  }
  if (tile_count > r.left / 8) {
    *why = "it is too short for its tile count";
    return false;
  }
  TessTileInfo *tiles = tess_calloc(tile_count, sizeof *tiles);
  if (!tiles) {
    *why = "out of memory";
    return false;
  }
  for (uint32_t i = 0; i < tile_count; i++) {
    if (!store_blob_take(&r, 8, &p)) {
      *why = "it ends inside a tile";
      store_codec_free_tiles(tiles, tile_count);
      return false;
    }
    TessTileInfo *t = &tiles[i];
    t->material = store_le_get_u32(p);
    t->collision = p[4];
    t->one_way = p[5];
    uint16_t pieces = (uint16_t)(p[6] | (p[7] << 8));
    if (t->collision > TESS_TILE_COLLISION_TRACED) {
      *why = "a tile has an unknown collision kind";
      store_codec_free_tiles(tiles, tile_count);
      return false;
    }
    if (!get_polygon_array(&r, pieces, &t->pieces, why)) {
      store_codec_free_tiles(tiles, tile_count);
      return false;
    }
    t->piece_count = pieces;
  }
  if (r.left != 0) {
    *why = "it has bytes after its last tile";
    store_codec_free_tiles(tiles, tile_count);
    return false;
  }
  *out = tiles;
  return true;
}
