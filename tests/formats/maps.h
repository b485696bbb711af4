/* Test maps: tileset PNGs with a distinct, asymmetric pattern per tile (so
 * flips and wrong tiles show), and layer data in every Tiled encoding, so
 * the tests write the maps they read. */
#ifndef TESS_TEST_MAPS_H
#define TESS_TEST_MAPS_H

#include <stdint.h>
#include <stdio.h>

/* A cols x rows tileset of tw x th tiles with `margin` and `spacing`, seeded
 * so two tilesets differ; `key` (0xRRGGBB, or -1 for none) fills the
 * margins, spacing and one corner pixel of each tile (a `trans` colour). */
void maps_write_tileset_png(const char *path, uint32_t cols, uint32_t rows, uint32_t tw, uint32_t th, uint32_t margin,
                            uint32_t spacing, uint32_t seed, int32_t key);
/* gids as Tiled writes them: encoding "csv", "base64" (compression "",
 * "zlib", "gzip", "zstd"). Returns a malloc'd string. */
char *maps_encode(const uint32_t *gids, size_t n, const char *encoding, const char *compression);
/* Writes `text` to dir/name; returns the path in buf. */
const char *maps_write_file(char *buf, size_t size, const char *dir, const char *name, const char *text);
/* malloc'd printf. */
char *maps_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
