/* PNG bytes -> RGBA8 through libpng.
 *
 * Every colour type, bit depth and interlacing becomes 8-bit straight RGBA.
 * The header is checked against the limits before libpng sees the data, and
 * again after libpng parsed it, so nothing is allocated for an image we
 * refuse. libpng reports errors by longjmp: only run_libpng calls setjmp, what
 * its error path must free lives outside its frame, and every path destroys
 * the libpng structures. */
#include <setjmp.h>
#include <string.h>

#include "image_limits.h"
#include "image_png_glue.h"
#include "tessera/image.h"

static const uint8_t png_signature_bytes[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/* The in-memory source libpng reads through. */
typedef struct PngSource {
  const uint8_t *data;
  size_t size;
  size_t pos;
  bool truncated;
} PngSource;

static void read_from_source(png_structp png, png_bytep dest, size_t length) {
  PngSource *src = png_get_io_ptr(png);
  if (length > src->size - src->pos) {
    src->truncated = true;
    png_error(png, "unexpected end of data");
  }
  memcpy(dest, src->data + src->pos, length);
  src->pos += length;
}

static uint32_t read_be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* Signature and IHDR, read by hand before libpng: an empty file, a file that is
 * not a PNG and a header that claims too many pixels are refused here with a
 * clear message (and nothing allocated). */
static TessResult precheck_header(const uint8_t *data, size_t size, const char *name, uint32_t *width,
                                  uint32_t *height, TessError *err) {
  if (size == 0) return tess_error_set(err, TESS_ERR_FORMAT, name, "the file is empty, not a PNG image");
  if (size < sizeof png_signature_bytes || memcmp(data, png_signature_bytes, sizeof png_signature_bytes) != 0)
    return tess_error_set_at(err, TESS_ERR_FORMAT, name, TESS_PLACE_OFFSET, 0,
                             "not a PNG image (the PNG signature is missing)");
  /* 8 signature + 4 length + 4 type + 13 IHDR data + 4 CRC */
  if (size < 33)
    return tess_error_set_at(err, TESS_ERR_FORMAT, name, TESS_PLACE_OFFSET, (uint64_t)size,
                             "the PNG file is truncated inside its header");
  if (read_be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0)
    return tess_error_set_at(err, TESS_ERR_FORMAT, name, TESS_PLACE_OFFSET, 8,
                             "the PNG file does not start with a valid IHDR chunk");
  uint32_t w = read_be32(data + 16), h = read_be32(data + 20);
  size_t stride, bytes;
  TessResult r = image_check_size(w, h, name, &stride, &bytes, err);
  if (r == TESS_ERR_INVALID) return tess_error_set_at(err, TESS_ERR_FORMAT, name, TESS_PLACE_OFFSET, 16,
                                                      "the PNG header gives an empty size %" PRIu32 " x %" PRIu32,
                                                      w, h);
  if (r != TESS_OK) return r;
  *width = w;
  *height = h;
  return TESS_OK;
}

static TessResult libpng_failure(const TessPngGlue *glue, const PngSource *src, const char *name, TessError *err) {
  if (glue->out_of_memory) return tess_error_set(err, TESS_ERR_NOMEM, name, "out of memory while decoding the PNG");
  if (src->truncated)
    return tess_error_set_at(err, TESS_ERR_FORMAT, name, TESS_PLACE_OFFSET, (uint64_t)src->size,
                             "the PNG file is truncated (it ends at byte %zu)", src->size);
  return tess_error_set_at(err, TESS_ERR_FORMAT, name, TESS_PLACE_OFFSET, (uint64_t)src->pos,
                           "corrupt PNG data: %s", glue->message[0] ? glue->message : "unknown libpng error");
}

/* Creates the read structures wired to our glue and source. */
static TessResult create_reader(TessPngGlue *glue, PngSource *src, const char *name, png_structp *png_out,
                                png_infop *info_out, TessError *err) {
  png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, glue, image_png_glue_error, image_png_glue_warning,
                                             glue, image_png_glue_malloc, image_png_glue_free);
  if (!png) return tess_error_set(err, TESS_ERR_NOMEM, name, "out of memory creating the PNG reader");
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    return tess_error_set(err, TESS_ERR_NOMEM, name, "out of memory creating the PNG reader");
  }
  png_set_read_fn(png, src, read_from_source);
  /* Second line of defence after precheck_header: libpng refuses larger sides itself. */
  png_set_user_limits(png, TESS_IMAGE_MAX_SIDE, TESS_IMAGE_MAX_SIDE);
  /* Ancillary chunks (text, ICC profiles) are bounded too: a compressed
   * text chunk must not inflate without limit, nor thousands of them pile up. */
  png_set_chunk_malloc_max(png, (png_alloc_size_t)8 * 1024 * 1024);
  png_set_chunk_cache_max(png, 1000);
  *png_out = png;
  *info_out = info;
  return TESS_OK;
}

/* What the libpng phase produces and what its error path must free. It lives
 * in the caller's frame, not in the frame that calls setjmp, so a longjmp
 * cannot leave it stale (the pixel pointers are volatile besides). */
typedef struct DecodeState {
  const char *name;
  TessError *err;
  bool header_only;
  uint32_t width, height;
  size_t stride, bytes;
  uint8_t *volatile pixels;
  png_bytep *volatile rows;
  TessResult result; /* for failures that are not libpng's */
} DecodeState;

typedef enum DecodeOutcome { DECODE_DONE,
                             DECODE_LIBPNG_ERROR,
                             DECODE_REFUSED } DecodeOutcome;

/* The only function that calls setjmp. Its parameters are never changed, and
 * everything it changes lives in *st. */
static DecodeOutcome run_libpng(png_structp png, png_infop info, DecodeState *st) {
  if (setjmp(png_jmpbuf(png))) return DECODE_LIBPNG_ERROR;

  png_read_info(png, info);
  png_uint_32 width, height;
  int depth, colour, interlace;
  png_get_IHDR(png, info, &width, &height, &depth, &colour, &interlace, NULL, NULL);
  st->result = image_check_size(width, height, st->name, &st->stride, &st->bytes, st->err);
  if (st->result != TESS_OK) return DECODE_REFUSED;
  st->width = width;
  st->height = height;
  if (st->header_only) return DECODE_DONE;

  /* Everything to 8-bit RGBA. */
  bool has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (colour == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (has_trns) png_set_tRNS_to_alpha(png);
  if (depth == 16) png_set_scale_16(png); /* rounds v * 255 / 65535, unlike strip_16's truncation */
  if (colour == PNG_COLOR_TYPE_GRAY || colour == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  if (!(colour & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != st->stride || png_get_bit_depth(png, info) != 8) {
    st->result = tess_error_set(st->err, TESS_ERR_FORMAT, st->name,
                                "unsupported PNG layout (colour type %d, depth %d)", colour, depth);
    return DECODE_REFUSED;
  }

  st->pixels = tess_alloc(st->bytes);
  st->rows = tess_calloc(height, sizeof(png_bytep));
  if (!st->pixels || !st->rows) {
    st->result = tess_error_set(st->err, TESS_ERR_NOMEM, st->name, "no memory for %zu bytes of pixels", st->bytes);
    return DECODE_REFUSED;
  }
  for (png_uint_32 y = 0; y < height; y++) st->rows[y] = st->pixels + (size_t)y * st->stride;
  png_read_image(png, st->rows);
  /* Reads the chunks after the image up to IEND, so a file cut short after
   * its pixel data is refused too. */
  png_read_end(png, NULL);
  return DECODE_DONE;
}

static TessResult decode(const uint8_t *data, size_t size, DecodeState *st) {
  if (!data && size) return tess_error_set(st->err, TESS_ERR_INVALID, st->name, "no data");
  uint32_t w = 0, h = 0;
  TessResult r = precheck_header(data, size, st->name, &w, &h, st->err);
  if (r != TESS_OK) return r;

  TessPngGlue glue;
  memset(&glue, 0, sizeof glue);
  PngSource src = {data, size, 0, false};
  png_structp png;
  png_infop info;
  r = create_reader(&glue, &src, st->name, &png, &info, st->err);
  if (r != TESS_OK) return r;
  DecodeOutcome outcome = run_libpng(png, info, st);
  png_destroy_read_struct(&png, &info, NULL);
  tess_free(st->rows);
  st->rows = NULL;
  if (outcome == DECODE_DONE) return TESS_OK;
  tess_free(st->pixels);
  st->pixels = NULL;
  if (outcome == DECODE_REFUSED) return st->result;
  return libpng_failure(&glue, &src, st->name, st->err);
}

TessResult tess_png_info(const uint8_t *data, size_t size, const char *name, uint32_t *width, uint32_t *height,
                         TessError *err) {
  DecodeState st = {.name = name ? name : "PNG", .err = err, .header_only = true};
  TessResult r = decode(data, size, &st);
  if (r != TESS_OK) return r;
  if (width) *width = st.width;
  if (height) *height = st.height;
  return TESS_OK;
}

TessResult tess_png_decode(const uint8_t *data, size_t size, const char *name, TessImage *out, TessError *err) {
  if (!out) return tess_error_set(err, TESS_ERR_INVALID, name, "no output image");
  DecodeState st = {.name = name ? name : "PNG", .err = err, .header_only = false};
  TessResult r = decode(data, size, &st);
  if (r != TESS_OK) return r;
  out->width = st.width;
  out->height = st.height;
  out->stride = st.stride;
  out->pixels = st.pixels;
  return TESS_OK;
}

TessResult tess_png_load(const char *path, TessImage *out, TessError *err) {
  uint8_t *data = NULL;
  size_t size = 0;
  TessResult r = tess_file_read(path, TESS_IMAGE_MAX_BYTES, &data, &size, err);
  if (r != TESS_OK) return r;
  r = tess_png_decode(data, size, path, out, err);
  tess_free(data);
  return r;
}
