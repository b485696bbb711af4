/* core/image: PNG <-> RGBA8. Inputs of every colour type are written here with
 * libpng directly, so the decoder is checked against an independent encoder. */
#include <dirent.h>
#include <fcntl.h>
#include <png.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tessera/image.h"

/* ---- helpers ------------------------------------------------------------ */

typedef struct Bytes {
  uint8_t *data;
  size_t size;
} Bytes;

static void bytes_append(png_structp png, png_bytep src, size_t n) {
  Bytes *b = png_get_io_ptr(png);
  b->data = realloc(b->data, b->size + n);
  memcpy(b->data + b->size, src, n);
  b->size += n;
}
static void bytes_flush(png_structp png) { (void)png; }

/* A PNG written by libpng itself: rows of `depth`-bit samples already packed
 * as PNG stores them. Optional palette and tRNS. */
typedef struct PngSpec {
  uint32_t width, height;
  int depth, colour, interlace;
  const png_color *palette;
  int palette_count;
  const uint8_t *trns_alpha; /* palette alpha */
  int trns_count;
  const png_color_16 *trns_colour; /* grey or RGB transparent colour */
  const uint8_t *rows;             /* packed rows, row_bytes apart */
  size_t row_bytes;
} PngSpec;

static Bytes write_png_with_libpng(const PngSpec *spec) {
  Bytes out = {NULL, 0};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    fprintf(stderr, "test helper: libpng failed to write\n");
    abort();
  }
  png_set_write_fn(png, &out, bytes_append, bytes_flush);
  png_set_IHDR(png, info, spec->width, spec->height, spec->depth, spec->colour, spec->interlace,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (spec->palette) png_set_PLTE(png, info, spec->palette, spec->palette_count);
  if (spec->trns_alpha || spec->trns_colour)
    png_set_tRNS(png, info, spec->trns_alpha, spec->trns_count, spec->trns_colour);
  png_write_info(png, info);
  if (spec->depth == 16) png_set_swap(png); /* our rows hold 16-bit samples in host (little-endian) order */
  png_bytep *rows = malloc(spec->height * sizeof *rows);
  for (uint32_t y = 0; y < spec->height; y++) rows[y] = (png_bytep)spec->rows + y * spec->row_bytes;
  png_write_image(png, rows); /* handles the Adam7 passes when interlaced */
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(rows);
  return out;
}

static const uint8_t *pixel(const TessImage *img, uint32_t x, uint32_t y) {
  return img->pixels + (size_t)y * img->stride + (size_t)x * 4;
}

static bool pixel_is(const TessImage *img, uint32_t x, uint32_t y, int r, int g, int b, int a) {
  const uint8_t *p = pixel(img, x, y);
  if (p[0] == r && p[1] == g && p[2] == b && p[3] == a) return true;
  fprintf(stderr, "pixel (%u,%u) = %d %d %d %d, expected %d %d %d %d\n", x, y, p[0], p[1], p[2], p[3], r, g, b, a);
  return false;
}

static void random_image(TessImage *img, uint32_t w, uint32_t h, uint64_t seed) {
  TessError err;
  CHECK_OK(tess_image_create(w, h, img, &err), &err);
  TessTestRng rng = {seed};
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w * 4; x++) img->pixels[y * img->stride + x] = (uint8_t)tess_rng_below(&rng, 256);
}

static uint32_t crc32_of(const uint8_t *p, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return c ^ 0xffffffffu;
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Offset of the first chunk of `type` (its length field), or 0. */
static size_t find_chunk(const uint8_t *png, size_t size, const char *type) {
  size_t pos = 8;
  while (pos + 12 <= size) {
    uint32_t len = get_be32(png + pos);
    if (memcmp(png + pos + 4, type, 4) == 0) return pos;
    pos += 12 + (size_t)len;
  }
  return 0;
}

/* The formatted error ("file:place: detail") names the file. */
static bool message_names(const TessError *err, const char *name) {
  char buf[1200];
  tess_error_format(err, buf, sizeof buf);
  if (strstr(buf, name)) return true;
  fprintf(stderr, "message does not name %s: %s\n", name, buf);
  return false;
}

/* Runs decode with stderr redirected to a file, and says whether anything
 * was printed there (libpng must never print). */
static TessResult decode_silently(const uint8_t *data, size_t size, const char *name, TessImage *img, TessError *err,
                                  bool *printed) {
  char path[1024];
  tess_test_path(path, sizeof path, "stderr.txt");
  fflush(stderr);
  int saved = dup(STDERR_FILENO);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(fd, STDERR_FILENO);
  close(fd);
  TessResult r = tess_png_decode(data, size, name, img, err);
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  struct stat st;
  *printed = stat(path, &st) == 0 && st.st_size > 0;
  return r;
}

static void write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (size) fwrite(data, 1, size, f);
  fclose(f);
}

static int count_dir_entries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
  closedir(d);
  return n;
}

/* ---- round trips -------------------------------------------------------- */

static void rgba_round_trips_through_memory_and_file(void) {
  TessImage img;
  random_image(&img, 37, 23, 42);
  TessError err;
  uint8_t *png = NULL;
  size_t size = 0;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &png, &size, &err), &err);
  CHECK(size > 33 && png[1] == 'P');
  TessImage back = {0};
  CHECK_OK(tess_png_decode(png, size, "round.png", &back, &err), &err);
  CHECK(back.width == 37 && back.height == 23 && back.stride == 37 * 4);
  for (uint32_t y = 0; y < 23; y++) CHECK(memcmp(pixel(&img, 0, y), pixel(&back, 0, y), 37 * 4) == 0);
  uint32_t w = 0, h = 0;
  CHECK_OK(tess_png_info(png, size, "round.png", &w, &h, &err), &err);
  CHECK(w == 37 && h == 23);
  tess_free(png);
  tess_image_clear(&back);
  CHECK(back.pixels == NULL && back.width == 0);

  /* Through a file, saved twice over the same path: the second replaces the
   * first, and no temporary file is left behind. */
  char dir[1024], path[1100];
  tess_test_path(dir, sizeof dir, "roundtrip");
  mkdir(dir, 0755);
  snprintf(path, sizeof path, "%s/out.png", dir);
  CHECK_OK(tess_png_save(tess_image_view(&img), path, &err), &err);
  TessImage other;
  random_image(&other, 5, 4, 7);
  CHECK_OK(tess_png_save(tess_image_view(&other), path, &err), &err);
  CHECK(count_dir_entries(dir) == 1);
  CHECK_OK(tess_png_load(path, &back, &err), &err);
  CHECK(back.width == 5 && back.height == 4);
  for (uint32_t y = 0; y < 4; y++) CHECK(memcmp(pixel(&other, 0, y), pixel(&back, 0, y), 5 * 4) == 0);
  tess_image_clear(&back);
  tess_image_clear(&other);

  /* A view with padding between rows (stride > width * 4) encodes only the pixels. */
  TessImageView sub = {10, 10, img.stride, pixel(&img, 3, 2)};
  CHECK_OK(tess_png_encode(sub, &png, &size, &err), &err);
  CHECK_OK(tess_png_decode(png, size, "sub.png", &back, &err), &err);
  for (uint32_t y = 0; y < 10; y++) CHECK(memcmp(pixel(&img, 3, 2 + y), pixel(&back, 0, y), 40) == 0);
  tess_free(png);
  tess_image_clear(&back);
  tess_image_clear(&img);
}

/* ---- every colour type to RGBA8 ---------------------------------------- */

static void palette_with_trns_decodes_to_rgba(void) {
  static const png_color palette[4] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {10, 20, 30}};
  static const uint8_t alpha[2] = {0, 128}; /* entries 2, 3 opaque (no tRNS entry) */
  /* 5 x 2 pixels at 2 bits: indices row 0: 0 1 2 3 0, row 1: 3 2 1 0 3 */
  const uint8_t rows[2][2] = {{0x1b, 0x00}, {0xe4, 0xc0}};
  PngSpec spec = {5, 2, 2, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, palette, 4, alpha, 2, NULL, &rows[0][0], 2};
  Bytes png = write_png_with_libpng(&spec);
  TessImage img;
  TessError err;
  CHECK_OK(tess_png_decode(png.data, png.size, "palette.png", &img, &err), &err);
  CHECK(img.width == 5 && img.height == 2);
  CHECK(pixel_is(&img, 0, 0, 255, 0, 0, 0));
  CHECK(pixel_is(&img, 1, 0, 0, 255, 0, 128));
  CHECK(pixel_is(&img, 2, 0, 0, 0, 255, 255));
  CHECK(pixel_is(&img, 3, 0, 10, 20, 30, 255));
  CHECK(pixel_is(&img, 4, 0, 255, 0, 0, 0));
  CHECK(pixel_is(&img, 0, 1, 10, 20, 30, 255));
  CHECK(pixel_is(&img, 3, 1, 255, 0, 0, 0));
  CHECK(pixel_is(&img, 4, 1, 10, 20, 30, 255));
  tess_image_clear(&img);
  free(png.data);
}

static void opaque_palette_and_interlaced_palette_decode(void) {
  /* No tRNS: every entry opaque. 8-bit indices, Adam7, 9 x 9. */
  static const png_color palette[3] = {{1, 2, 3}, {200, 100, 50}, {0, 255, 128}};
  uint8_t rows[9][9];
  for (int y = 0; y < 9; y++)
    for (int x = 0; x < 9; x++) rows[y][x] = (uint8_t)((x + 2 * y) % 3);
  PngSpec spec = {9, 9, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_ADAM7, palette, 3, NULL, 0, NULL, &rows[0][0], 9};
  Bytes png = write_png_with_libpng(&spec);
  TessImage img;
  TessError err;
  CHECK_OK(tess_png_decode(png.data, png.size, "palette7.png", &img, &err), &err);
  int bad = 0;
  for (uint32_t y = 0; y < 9; y++)
    for (uint32_t x = 0; x < 9; x++) {
      const png_color *c = &palette[rows[y][x]];
      if (!pixel_is(&img, x, y, c->red, c->green, c->blue, 255)) bad++;
    }
  CHECK(bad == 0);
  tess_image_clear(&img);
  free(png.data);

  /* 16-bit RGB without alpha: scaled to 8 bits, alpha filled opaque. */
  const uint16_t rgb16[6] = {0, 65535, 257 * 9, 257 * 250, 257 * 128, 1};
  PngSpec deep = {2, 1, 16, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL,
                  (const uint8_t *)rgb16, sizeof rgb16};
  png = write_png_with_libpng(&deep);
  CHECK_OK(tess_png_decode(png.data, png.size, "rgb16.png", &img, &err), &err);
  CHECK(pixel_is(&img, 0, 0, 0, 255, 9, 255));
  CHECK(pixel_is(&img, 1, 0, 250, 128, 0, 255));
  tess_image_clear(&img);
  free(png.data);
}

static void grey_decodes_to_opaque_rgba(void) {
  /* 8-bit grey, 3 x 2 */
  const uint8_t grey8[2][3] = {{0, 100, 255}, {7, 128, 254}};
  PngSpec spec = {3, 2, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL, &grey8[0][0], 3};
  Bytes png = write_png_with_libpng(&spec);
  TessImage img;
  TessError err;
  CHECK_OK(tess_png_decode(png.data, png.size, "grey.png", &img, &err), &err);
  for (uint32_t y = 0; y < 2; y++)
    for (uint32_t x = 0; x < 3; x++) CHECK(pixel_is(&img, x, y, grey8[y][x], grey8[y][x], grey8[y][x], 255));
  tess_image_clear(&img);
  free(png.data);

  /* 1-bit grey, 10 x 1: bits 1011001110 -> 255 or 0 */
  const uint8_t grey1[2] = {0xb3, 0x80};
  PngSpec one = {10, 1, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL, grey1, 2};
  png = write_png_with_libpng(&one);
  CHECK_OK(tess_png_decode(png.data, png.size, "grey1.png", &img, &err), &err);
  const int bits[10] = {1, 0, 1, 1, 0, 0, 1, 1, 1, 0};
  for (uint32_t x = 0; x < 10; x++) {
    int v = bits[x] ? 255 : 0;
    CHECK(pixel_is(&img, x, 0, v, v, v, 255));
  }
  tess_image_clear(&img);
  free(png.data);

  /* 8-bit grey with a transparent grey value (tRNS) */
  png_color_16 transparent = {0};
  transparent.gray = 100;
  PngSpec keyed = {3, 2, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, &transparent, &grey8[0][0], 3};
  png = write_png_with_libpng(&keyed);
  CHECK_OK(tess_png_decode(png.data, png.size, "keyed.png", &img, &err), &err);
  CHECK(pixel_is(&img, 0, 0, 0, 0, 0, 255));
  CHECK(pixel_is(&img, 1, 0, 100, 100, 100, 0));
  CHECK(pixel_is(&img, 2, 1, 254, 254, 254, 255));
  tess_image_clear(&img);
  free(png.data);
}

static void grey_alpha_decodes_to_rgba(void) {
  const uint8_t ga[1][8] = {{0, 0, 50, 60, 200, 255, 255, 1}};
  PngSpec spec = {4, 1, 8, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL, &ga[0][0], 8};
  Bytes png = write_png_with_libpng(&spec);
  TessImage img;
  TessError err;
  CHECK_OK(tess_png_decode(png.data, png.size, "ga.png", &img, &err), &err);
  CHECK(pixel_is(&img, 0, 0, 0, 0, 0, 0));
  CHECK(pixel_is(&img, 1, 0, 50, 50, 50, 60));
  CHECK(pixel_is(&img, 2, 0, 200, 200, 200, 255));
  CHECK(pixel_is(&img, 3, 0, 255, 255, 255, 1));
  tess_image_clear(&img);
  free(png.data);
}

static void sixteen_bit_scales_to_eight(void) {
  /* RGBA 16-bit, 64 x 1, samples near multiples of 257 (where 8-bit b is
   * exactly b * 257); the expected value is the rounded v * 255 / 65535. */
  enum { W = 64 };
  uint16_t row[W * 4];
  TessTestRng rng = {99};
  for (int i = 0; i < W * 4; i++) {
    int b = (int)tess_rng_below(&rng, 256);
    int d = (int)tess_rng_below(&rng, 101) - 50; /* within +-128 of b * 257 so the rounding is unambiguous */
    int v = b * 257 + d;
    row[i] = (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535
                                              : v);
  }
  PngSpec spec = {W, 1, 16, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL,
                  (const uint8_t *)row, sizeof row};
  Bytes png = write_png_with_libpng(&spec);
  TessImage img;
  TessError err;
  CHECK_OK(tess_png_decode(png.data, png.size, "deep.png", &img, &err), &err);
  for (int i = 0; i < W * 4; i++) {
    int expected = (int)((row[i] * 255u + 32767u) / 65535u);
    CHECK_MSG(img.pixels[i] == expected, "sample %d: %u -> %d, expected %d", i, row[i], img.pixels[i], expected);
  }
  tess_image_clear(&img);
  free(png.data);

  /* 16-bit grey + alpha */
  const uint16_t ga[4] = {65535, 0, 257 * 77, 257 * 200};
  PngSpec grey = {2, 1, 16, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL,
                  (const uint8_t *)ga, sizeof ga};
  png = write_png_with_libpng(&grey);
  CHECK_OK(tess_png_decode(png.data, png.size, "deepgrey.png", &img, &err), &err);
  CHECK(pixel_is(&img, 0, 0, 255, 255, 255, 0));
  CHECK(pixel_is(&img, 1, 0, 77, 77, 77, 200));
  tess_image_clear(&img);
  free(png.data);
}

static void interlaced_decodes_like_progressive(void) {
  /* RGB 8-bit, Adam7, an odd size so every pass has partial blocks. */
  enum { W = 13,
         H = 11 };
  uint8_t rgb[H][W * 3];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      rgb[y][x * 3 + 0] = (uint8_t)(x * 19);
      rgb[y][x * 3 + 1] = (uint8_t)(y * 23);
      rgb[y][x * 3 + 2] = (uint8_t)((x * y) ^ 0x5a);
    }
  PngSpec spec = {W, H, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_ADAM7, NULL, 0, NULL, 0, NULL, &rgb[0][0], W * 3};
  Bytes png = write_png_with_libpng(&spec);
  CHECK(png.data[8 + 8 + 12] == 1); /* the IHDR's interlace byte: really Adam7 */
  TessImage img;
  TessError err;
  CHECK_OK(tess_png_decode(png.data, png.size, "adam7.png", &img, &err), &err);
  CHECK(img.width == W && img.height == H);
  int bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (!pixel_is(&img, (uint32_t)x, (uint32_t)y, rgb[y][x * 3], rgb[y][x * 3 + 1], rgb[y][x * 3 + 2], 255)) bad++;
  CHECK(bad == 0);
  tess_image_clear(&img);
  free(png.data);
}

/* ---- refusals ------------------------------------------------------------ */

static void truncated_files_are_refused_at_every_length(void) {
  TessImage img;
  random_image(&img, 20, 20, 3);
  TessError err;
  uint8_t *png;
  size_t size;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &png, &size, &err), &err);
  tess_image_clear(&img);
  int wrong = 0, printed_any = 0;
  const int64_t live_with_png = tess_alloc_live_bytes();
  for (size_t len = 0; len < size; len++) {
    TessImage out = {0};
    bool printed = false;
    TessResult r = decode_silently(png, len, "cut.png", &out, &err, &printed);
    if (r != TESS_ERR_FORMAT || err.code != TESS_ERR_FORMAT || !message_names(&err, "cut.png") || out.pixels) {
      fprintf(stderr, "length %zu of %zu: %s\n", len, size, tess_result_string(r));
      wrong++;
    }
    if (printed) printed_any++;
    CHECK(tess_alloc_live_bytes() == live_with_png); /* nothing of the partial decode left */
  }
  CHECK(wrong == 0);
  CHECK(printed_any == 0);
  tess_free(png);
}

static void corrupt_bytes_are_refused(void) {
  TessImage img;
  random_image(&img, 16, 16, 5);
  TessError err;
  uint8_t *png;
  size_t size;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &png, &size, &err), &err);
  tess_image_clear(&img);
  size_t idat = find_chunk(png, size, "IDAT");
  CHECK(idat > 0);
  uint32_t idat_len = get_be32(png + idat);
  uint8_t *copy = tess_alloc(size);
  TessImage out = {0};
  bool printed;

  /* A flipped bit in the pixel data: zlib's check (or the chunk CRC, which
   * libpng reads after the data) refuses it. */
  memcpy(copy, png, size);
  copy[idat + 8 + idat_len / 2] ^= 0x10;
  CHECK(decode_silently(copy, size, "flip.png", &out, &err, &printed) == TESS_ERR_FORMAT);
  CHECK(message_names(&err, "flip.png"));
  CHECK(!printed && out.pixels == NULL);

  /* Intact data, wrong IDAT CRC. */
  memcpy(copy, png, size);
  copy[idat + 8 + idat_len] ^= 0x01;
  CHECK(decode_silently(copy, size, "crc.png", &out, &err, &printed) == TESS_ERR_FORMAT);
  CHECK(message_names(&err, "crc.png"));
  CHECK_MSG(strstr(err.detail, "CRC") != NULL, "%s", err.detail);
  CHECK(!printed && out.pixels == NULL);

  /* A bad IHDR CRC. */
  memcpy(copy, png, size);
  copy[29] ^= 0xff;
  CHECK(decode_silently(copy, size, "ihdr.png", &out, &err, &printed) == TESS_ERR_FORMAT);
  CHECK(message_names(&err, "ihdr.png"));
  CHECK(!printed);

  /* Garbage inside IDAT with a correct CRC: libpng gets past the chunk layer
   * and zlib refuses the stream. */
  memcpy(copy, png, size);
  TessTestRng rng = {11};
  for (uint32_t i = 2; i < idat_len; i++) copy[idat + 8 + i] = (uint8_t)tess_rng_next(&rng);
  put_be32(copy + idat + 8 + idat_len, crc32_of(copy + idat + 4, 4 + (size_t)idat_len));
  CHECK(decode_silently(copy, size, "garbage.png", &out, &err, &printed) == TESS_ERR_FORMAT);
  CHECK(message_names(&err, "garbage.png"));
  CHECK(!printed && out.pixels == NULL);

  /* Random garbage bytes anywhere after the signature, many times: never a
   * crash, never a leak, and every failure a format error. */
  int wrong = 0;
  for (int trial = 0; trial < 300; trial++) {
    memcpy(copy, png, size);
    int flips = 1 + (int)tess_rng_below(&rng, 4);
    for (int k = 0; k < flips; k++) copy[8 + tess_rng_below(&rng, (uint32_t)size - 8)] = (uint8_t)tess_rng_next(&rng);
    TessResult r = decode_silently(copy, size, "fuzzed.png", &out, &err, &printed);
    if (r == TESS_OK) {
      tess_image_clear(&out); /* a flip in an ancillary place can be harmless */
    } else if (r != TESS_ERR_FORMAT && r != TESS_ERR_LIMIT) {
      wrong++;
    }
    if (printed) wrong++;
  }
  CHECK(wrong == 0);
  tess_free(copy);
  tess_free(png);
}

/* A well-formed PNG chunk stream whose header claims width x height, with an
 * empty IDAT (so the header reads, but there are no pixels). */
static size_t craft_header_only_png(uint8_t *buf, uint32_t width, uint32_t height) {
  static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  memcpy(buf, sig, 8);
  put_be32(buf + 8, 13);
  memcpy(buf + 12, "IHDR", 4);
  put_be32(buf + 16, width);
  put_be32(buf + 20, height);
  buf[24] = 8; /* depth */
  buf[25] = 6; /* RGBA */
  buf[26] = buf[27] = buf[28] = 0;
  put_be32(buf + 29, crc32_of(buf + 12, 17));
  put_be32(buf + 33, 0);
  memcpy(buf + 37, "IDAT", 4);
  put_be32(buf + 41, crc32_of(buf + 37, 4));
  put_be32(buf + 45, 0);
  memcpy(buf + 49, "IEND", 4);
  put_be32(buf + 53, crc32_of(buf + 49, 4));
  return 57;
}

static void huge_headers_are_refused_before_allocating(void) {
  uint8_t buf[64];
  TessError err;
  TessImage out = {0};
  uint32_t w = 1, h = 1;
  const uint32_t sizes[][2] = {{100000, 100000}, {TESS_IMAGE_MAX_SIDE + 1, 1}, {1, TESS_IMAGE_MAX_SIDE + 1}, {20000, 20000} /* sides allowed, but 1.6 GB of RGBA */, {TESS_IMAGE_MAX_SIDE, TESS_IMAGE_MAX_SIDE}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    size_t n = craft_header_only_png(buf, sizes[i][0], sizes[i][1]);
    CHECK(crc32_of((const uint8_t *)"IEND", 4) == 0xae426082u); /* the CRC helper matches PNG's */
    CHECK_MSG(tess_png_decode(buf, n, "huge.png", &out, &err) == TESS_ERR_LIMIT, "%u x %u", sizes[i][0], sizes[i][1]);
    CHECK(message_names(&err, "huge.png"));
    CHECK(out.pixels == NULL);
    CHECK(tess_png_info(buf, n, "huge.png", &w, &h, &err) == TESS_ERR_LIMIT);
    CHECK(w == 1 && h == 1); /* outputs untouched on failure */
  }
  /* The crafted stream itself is well formed: at a legal size, the header
   * reads and decoding fails only for the missing pixel data. */
  size_t n = craft_header_only_png(buf, 300, 200);
  CHECK_OK(tess_png_info(buf, n, "small.png", &w, &h, &err), &err);
  CHECK(w == 300 && h == 200);
  CHECK(tess_png_decode(buf, n, "small.png", &out, &err) == TESS_ERR_FORMAT);
  CHECK(out.pixels == NULL);
  /* A zero side is a format error. */
  n = craft_header_only_png(buf, 0, 5);
  CHECK(tess_png_decode(buf, n, "zero.png", &out, &err) == TESS_ERR_FORMAT);

  /* tess_image_create applies the same limits. */
  CHECK(tess_image_create(100000, 100000, &out, &err) == TESS_ERR_LIMIT);
  CHECK(tess_image_create(0, 4, &out, &err) == TESS_ERR_INVALID);
  CHECK(out.pixels == NULL);
}

static void empty_and_foreign_files_are_refused_with_their_name(void) {
  char path[1024];
  TessError err;
  TessImage out = {0};
  tess_test_path(path, sizeof path, "empty.png");
  write_file(path, "", 0);
  CHECK(tess_png_load(path, &out, &err) == TESS_ERR_FORMAT);
  CHECK(message_names(&err, path));
  CHECK(strstr(err.detail, "empty") != NULL);

  tess_test_path(path, sizeof path, "notes.png");
  const char *text = "This is a text file, not an image.\n";
  write_file(path, text, strlen(text));
  CHECK(tess_png_load(path, &out, &err) == TESS_ERR_FORMAT);
  CHECK(message_names(&err, path));
  CHECK(strstr(err.detail, "not a PNG") != NULL);

  /* A JPEG's first bytes. */
  const uint8_t jpeg[] = {0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0};
  CHECK(tess_png_decode(jpeg, sizeof jpeg, "photo.jpg", &out, &err) == TESS_ERR_FORMAT);
  CHECK(message_names(&err, "photo.jpg"));

  tess_test_path(path, sizeof path, "missing.png");
  CHECK(tess_png_load(path, &out, &err) == TESS_ERR_IO);
  CHECK(message_names(&err, path));
  CHECK(out.pixels == NULL);
}

/* ---- files --------------------------------------------------------------- */

static void atomic_write_replaces_whole_files(void) {
  char dir[1024], path[1100];
  tess_test_path(dir, sizeof dir, "atomic");
  mkdir(dir, 0755);
  snprintf(path, sizeof path, "%s/data.bin", dir);
  TessError err;
  CHECK_OK(tess_file_write_atomic(path, "first version", 13, &err), &err);
  CHECK_OK(tess_file_write_atomic(path, "second", 6, &err), &err);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_file_read(path, 1000, &data, &size, &err), &err);
  CHECK(size == 6 && memcmp(data, "second", 6) == 0);
  tess_free(data);
  CHECK(count_dir_entries(dir) == 1);

  /* Over the read limit. */
  CHECK(tess_file_read(path, 5, &data, &size, &err) == TESS_ERR_LIMIT);
  CHECK(message_names(&err, path));
  CHECK_OK(tess_file_read(path, 6, &data, &size, &err), &err);
  CHECK(size == 6);
  tess_free(data);

  /* An empty file reads as zero bytes. */
  CHECK_OK(tess_file_write_atomic(path, NULL, 0, &err), &err);
  CHECK_OK(tess_file_read(path, 10, &data, &size, &err), &err);
  CHECK(size == 0);
  tess_free(data);

  /* A directory that does not exist: an I/O error, nothing created. */
  char bad[1200];
  snprintf(bad, sizeof bad, "%s/no/such/dir/x.png", dir);
  TessImage img;
  random_image(&img, 2, 2, 1);
  CHECK(tess_png_save(tess_image_view(&img), bad, &err) == TESS_ERR_IO);
  CHECK(message_names(&err, bad));
  tess_image_clear(&img);
  CHECK(tess_file_read(dir, 100, &data, &size, &err) == TESS_ERR_IO);
  CHECK(count_dir_entries(dir) == 1);
}

TESS_TEST_MAIN(TEST(rgba_round_trips_through_memory_and_file), TEST(palette_with_trns_decodes_to_rgba), TEST(opaque_palette_and_interlaced_palette_decode),
               TEST(grey_decodes_to_opaque_rgba), TEST(grey_alpha_decodes_to_rgba), TEST(sixteen_bit_scales_to_eight),
               TEST(interlaced_decodes_like_progressive), TEST(truncated_files_are_refused_at_every_length),
               TEST(corrupt_bytes_are_refused), TEST(huge_headers_are_refused_before_allocating),
               TEST(empty_and_foreign_files_are_refused_with_their_name), TEST(atomic_write_replaces_whole_files))
