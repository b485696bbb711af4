/* core/store private: the `tilesets.terrains` BLOB (layout in codec_terrain.c). */
#ifndef TESS_STORE_CODEC_TERRAIN_H
#define TESS_STORE_CODEC_TERRAIN_H

#include "tessera/level.h"

size_t store_codec_terrains_size(const TessTerrainSet *sets, uint32_t count);
/* Writes exactly store_codec_terrains_size bytes; returns the end. */
uint8_t *store_codec_put_terrains(uint8_t *dst, const TessTerrainSet *sets, uint32_t count);
/* NULL or empty src: no sets. On failure *why says what is wrong ("out of
 * memory" when it is that) and nothing is allocated. Free with
 * tess_terrain_sets_free. */
bool store_codec_get_terrains(const uint8_t *src, size_t size, TessTerrainSet **out, uint32_t *count,
                              const char **why);

#endif
