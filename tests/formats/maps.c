/* Test map helpers (see maps.h). The compression goes through zlib and
 * libzstd directly, independently of the reader under test. */
#include "maps.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "tessera/image.h"

void maps_write_tileset_png(const char *path, uint32_t cols, uint32_t rows, uint32_t tw, uint32_t th, uint32_t margin,
                            uint32_t spacing, uint32_t seed, int32_t key) {
  uint32_t w = 2 * margin + cols * tw + (cols - 1) * spacing, h = 2 * margin + rows * th + (rows - 1) * spacing;
  TessImage img;
  if (tess_image_create(w, h, &img, NULL)) abort();
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint8_t *px = img.pixels + (size_t)y * img.stride + 4 * x;
      if (key >= 0) {
        px[0] = (uint8_t)(key >> 16), px[1] = (uint8_t)(key >> 8), px[2] = (uint8_t)key, px[3] = 255;
      }
    }
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      uint32_t t = r * cols + c, ox = margin + c * (tw + spacing), oy = margin + r * (th + spacing);
      uint32_t base = (t * 2654435761u) ^ (seed * 40503u);
      for (uint32_t y = 0; y < th; y++)
        for (uint32_t x = 0; x < tw; x++) {
          uint8_t *px = img.pixels + (size_t)(oy + y) * img.stride + 4 * (ox + x);
          /* Colour per tile, brightness ramps along x and y differently: every flip changes the pixels. */
          px[0] = (uint8_t)((base & 0xFF) / 2 + x * 96 / tw);
          px[1] = (uint8_t)(((base >> 8) & 0xFF) / 2 + y * 112 / th);
          px[2] = (uint8_t)(((base >> 16) & 0x7F) + (x < tw / 3 && y < th / 2 ? 120 : 0));
          px[3] = 255;
          if (key >= 0 && x == tw - 1 && y == 0) {
            px[0] = (uint8_t)(key >> 16), px[1] = (uint8_t)(key >> 8), px[2] = (uint8_t)key;
          }
        }
    }
  if (tess_png_save(tess_image_view(&img), path, NULL)) abort();
  tess_image_clear(&img);
}

static char *base64(const uint8_t *d, size_t n) {
  static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
    *o++ = tab[v >> 18 & 63];
    *o++ = tab[v >> 12 & 63];
    *o++ = i + 1 < n ? tab[v >> 6 & 63] : '=';
    *o++ = i + 2 < n ? tab[v & 63] : '=';
  }
  *o = 0;
  return out;
}

char *maps_encode(const uint32_t *gids, size_t n, const char *encoding, const char *compression) {
  if (strcmp(encoding, "csv") == 0) {
    char *out = malloc(n * 11 + 2), *o = out;
    for (size_t i = 0; i < n; i++) o += sprintf(o, "%u%s", gids[i], i + 1 < n ? "," : "");
    *o = 0;
    return out;
  }
  uint8_t *raw = malloc(n * 4 + 1);
  for (size_t i = 0; i < n; i++)
    for (int b = 0; b < 4; b++) raw[4 * i + b] = (uint8_t)(gids[i] >> (8 * b));
  size_t len = n * 4;
  uint8_t *packed = raw;
  if (compression && strcmp(compression, "zstd") == 0) {
    size_t cap = ZSTD_compressBound(len);
    packed = malloc(cap);
    len = ZSTD_compress(packed, cap, raw, len, 3);
  } else if (compression && compression[0]) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int gz = strcmp(compression, "gzip") == 0;
    deflateInit2(&zs, 6, Z_DEFLATED, gz ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&zs, (uLong)len) + 32;
    packed = malloc(cap);
    zs.next_in = raw;
    zs.avail_in = (uInt)len;
    zs.next_out = packed;
    zs.avail_out = (uInt)cap;
    deflate(&zs, Z_FINISH);
    len = cap - zs.avail_out;
    deflateEnd(&zs);
  }
  char *out = base64(packed, len);
  if (packed != raw) free(packed);
  free(raw);
  return out;
}

const char *maps_write_file(char *buf, size_t size, const char *dir, const char *name, const char *text) {
  snprintf(buf, size, "%s/%s", dir, name);
  FILE *f = fopen(buf, "wb");
  if (!f) abort();
  fputs(text, f);
  fclose(f);
  return buf;
}

char *maps_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  /* A one-byte buffer rather than NULL: gcc 12 with -fsanitize=undefined
   * misreads vsnprintf(NULL, 0, ...) as a null format string. */
  char probe[1];
  int n = vsnprintf(probe, sizeof probe, fmt, ap);
  va_end(ap);
  if (n < 0) abort();
  char *s = malloc((size_t)n + 1);
  if (!s) abort();
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}
