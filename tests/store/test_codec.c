/* The BLOB layouts: explicit little-endian bytes whatever the host, and
 * decoders that refuse every truncation and every trailing byte. */
#include "store_codec.h"
#include "store_tests.h"

void codec_layouts_are_little_endian(void) {
  uint32_t cells[TESS_CHUNK_CELLS];
  for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++) cells[i] = 0x11223344u + i;
  static uint8_t bytes[TESS_CHUNK_CELLS * 4];
  store_codec_put_cells(bytes, cells);
  CHECK(bytes[0] == 0x44 && bytes[1] == 0x33 && bytes[2] == 0x22 && bytes[3] == 0x11);
  CHECK(bytes[4] == 0x45 && bytes[7] == 0x11);
  uint32_t back[TESS_CHUNK_CELLS];
  store_codec_get_cells(back, bytes);
  CHECK(memcmp(back, cells, sizeof cells) == 0);

  /* One polygon: count 3, then (x, y) as IEEE-754 binary32, little-endian. */
  TessPolygon tri;
  memset(&tri, 0, sizeof tri);
  tri.count = 3;
  tri.v[0] = tess_v2(1.0f, -2.0f);
  tri.v[1] = tess_v2(0.5f, 0.0f);
  tri.v[2] = tess_v2(-0.0f, 16.0f);
  uint8_t poly[64];
  CHECK(store_codec_polygons_size(&tri, 1) == 4 + 4 + 24);
  uint8_t *end = store_codec_put_polygons(poly, &tri, 1);
  CHECK(end - poly == 32);
  static const uint8_t expected[32] = {1, 0, 0, 0, 3, 0, 0, 0,           /* 1 polygon of 3 */
                                       0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0,  /* 1, -2 */
                                       0, 0, 0, 0x3F, 0, 0, 0, 0,        /* 0.5, 0 */
                                       0, 0, 0, 0x80, 0, 0, 0x80, 0x41}; /* -0, 16 */
  CHECK(memcmp(poly, expected, 32) == 0);

  /* Tiles: a traced tile with two pieces and a plain one. */
  TessPolygon pieces[2] = {tri, tri};
  pieces[1].count = 1;
  TessTileInfo tiles[2];
  memset(tiles, 0, sizeof tiles);
  tiles[0].material = 0x0102;
  tiles[0].collision = TESS_TILE_COLLISION_TRACED;
  tiles[0].one_way = 1;
  tiles[0].piece_count = 2;
  tiles[0].pieces = pieces;
  tiles[1].collision = TESS_TILE_COLLISION_FULL;
  size_t size = store_codec_tiles_size(tiles, 2);
  CHECK(size == 4 + (8 + 28 + 12) + 8);
  uint8_t blob[128];
  CHECK((size_t)(store_codec_put_tiles(blob, tiles, 2) - blob) == size);
  CHECK(blob[0] == 2 && blob[4] == 0x02 && blob[5] == 0x01 && blob[8] == 2 && blob[9] == 1 && blob[10] == 2);
  TessTileInfo *decoded = NULL;
  const char *why = NULL;
  CHECK(store_codec_get_tiles(blob, size, 2, &decoded, &why));
  if (decoded) {
    CHECK(decoded[0].material == 0x0102 && decoded[0].one_way == 1 && decoded[0].piece_count == 2);
    CHECK(decoded[0].pieces[0].count == 3 && signbit(decoded[0].pieces[0].v[2].x));
    CHECK(decoded[0].pieces[1].count == 1 && decoded[1].collision == TESS_TILE_COLLISION_FULL && !decoded[1].pieces);
    store_codec_free_tiles(decoded, 2);
  }
  /* Every shorter prefix and a trailing byte are refused, with a reason and nothing allocated. */
  blob[size] = 0;
  for (size_t n = 0; n <= size + 1; n++) {
    if (n == size) continue;
    decoded = NULL;
    why = NULL;
    CHECK_MSG(!store_codec_get_tiles(blob, n, 2, &decoded, &why) && decoded == NULL && why, "tiles prefix %zu", n);
  }
  CHECK(!store_codec_get_tiles(blob, size, 3, &decoded, &why)); /* the tileset says 3 tiles */
  /* A count that claims more polygons than there are bytes is refused before allocating. */
  static const uint8_t huge[8] = {0xFF, 0xFF, 0xFF, 0xFF, 3, 0, 0, 0};
  TessPolygon *polys = NULL;
  uint32_t count = 0;
  CHECK(!store_codec_get_polygons(huge, sizeof huge, &polys, &count, &why) && polys == NULL);
  for (size_t n = 0; n < 32; n++)
    CHECK_MSG(!store_codec_get_polygons(expected, n, &polys, &count, &why) && polys == NULL, "polygons prefix %zu", n);
  CHECK(store_codec_get_polygons(expected, 32, &polys, &count, &why) && count == 1 && polys[0].v[1].x == 0.5f);
  tess_free(polys);
  TessVec2 *pts = NULL;
  CHECK(!store_codec_get_points(expected, 12, &pts, &count, &why));
  CHECK(store_codec_get_points(expected + 8, 24, &pts, &count, &why) && count == 3 && pts[0].y == -2.0f);
  tess_free(pts);
}
