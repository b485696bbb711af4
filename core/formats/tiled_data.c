/* Tiled layer data: CSV, or base64 of little-endian uint32 gids, plain or
 * compressed with zlib, gzip or zstd. The decoded size must be exactly
 * what the layer's width x height asks for; every failure names the layer. */
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "formats_tiled.h"

bool tiled_encoding_parse(const char *s, int *out) {
  if (!s || !*s) *out = TILED_ENC_XML;
  else if (strcmp(s, "csv") == 0) *out = TILED_ENC_CSV;
  else if (strcmp(s, "base64") == 0) *out = TILED_ENC_BASE64;
  else return false;
  return true;
}

bool tiled_compression_parse(const char *s, int *out) {
  if (!s || !*s) *out = TILED_COMP_NONE;
  else if (strcmp(s, "zlib") == 0) *out = TILED_COMP_ZLIB;
  else if (strcmp(s, "gzip") == 0) *out = TILED_COMP_GZIP;
  else if (strcmp(s, "zstd") == 0) *out = TILED_COMP_ZSTD;
  else return false;
  return true;
}

static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* Whitespace anywhere is skipped (Tiled indents the text); '=' only at the end. */
static TessResult b64_decode(const char *text, size_t len, uint8_t **out, size_t *out_len, const char *file,
                             uint64_t line, const char *what, TessError *err) {
  uint8_t *buf = tess_alloc(len / 4 * 3 + 3);
  if (!buf) return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory");
  size_t n = 0, pad = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      pad++;
      continue;
    }
    int v = b64_value(c);
    if (v < 0 || pad) {
      tess_free(buf);
      return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                               "layer '%s': corrupt base64 data (character 0x%02x at offset %zu)", what, c, i);
    }
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      buf[n++] = (uint8_t)(acc >> bits);
    }
  }
  if (pad > 2 || (bits >= 6)) {
    tess_free(buf);
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line, "layer '%s': corrupt base64 data (bad length)", what);
  }
  *out = buf;
  *out_len = n;
  return TESS_OK;
}

static TessResult inflate_exact(const uint8_t *in, size_t in_len, bool gzip, uint8_t *out, size_t out_len, const char *file,
                                uint64_t line, const char *what, TessError *err) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, gzip ? 15 + 16 : 15) != Z_OK) return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory");
  zs.next_in = (Bytef *)(uintptr_t)in;
  zs.avail_in = (uInt)in_len;
  zs.next_out = out;
  zs.avail_out = (uInt)out_len;
  int rc = inflate(&zs, Z_FINISH);
  size_t produced = out_len - zs.avail_out;
  /* Z_BUF_ERROR with a full buffer: the stream holds more than the layer. */
  bool more = rc == Z_BUF_ERROR && zs.avail_out == 0;
  inflateEnd(&zs);
  const char *name = gzip ? "gzip" : "zlib";
  if (rc == Z_STREAM_END && produced == out_len) return TESS_OK;
  if (rc == Z_STREAM_END || more)
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                             "layer '%s': %s data holds %s bytes than the layer's %zu", what, name,
                             more ? "more" : "fewer", out_len);
  return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line, "layer '%s': corrupt %s data (%s)", what, name,
                           zs.msg ? zs.msg : "truncated stream");
}

static TessResult zstd_exact(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len, const char *file, uint64_t line,
                             const char *what, TessError *err) {
  /* Streaming, so a frame that does not declare its size still decodes, and a frame too large stops at the layer's size. */
  ZSTD_DCtx *dc = ZSTD_createDCtx();
  if (!dc) return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory");
  ZSTD_inBuffer ib = {in, in_len, 0};
  ZSTD_outBuffer ob = {out, out_len, 0};
  size_t rc = 1;
  while (ib.pos < ib.size) {
    rc = ZSTD_decompressStream(dc, &ob, &ib);
    if (ZSTD_isError(rc) || (ob.pos == ob.size && rc != 0) || (rc != 0 && ib.pos == ib.size)) break;
  }
  uint8_t extra;
  ZSTD_outBuffer probe = {&extra, 1, 0};
  bool more = !ZSTD_isError(rc) && ob.pos == ob.size && ib.pos < ib.size;
  if (!ZSTD_isError(rc) && rc != 0 && ob.pos == ob.size) {
    size_t r2 = ZSTD_decompressStream(dc, &probe, &ib);
    if (!ZSTD_isError(r2) && probe.pos) more = true;
  }
  ZSTD_freeDCtx(dc);
  if (ZSTD_isError(rc))
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line, "layer '%s': corrupt zstd data (%s)", what,
                             ZSTD_getErrorName(rc));
  if (more)
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                             "layer '%s': zstd data holds more bytes than the layer's %zu", what, out_len);
  if (rc != 0)
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line, "layer '%s': corrupt zstd data (truncated frame)", what);
  if (ob.pos != out_len)
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                             "layer '%s': zstd data holds %zu bytes, the layer needs %zu", what, ob.pos, out_len);
  return TESS_OK;
}

static TessResult csv_decode(const char *text, size_t len, uint32_t *out, size_t count, const char *file, uint64_t line,
                             const char *what, TessError *err) {
  size_t n = 0, i = 0;
  while (i < len) {
    while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) i++;
    if (i >= len) break;
    if (text[i] < '0' || text[i] > '9')
      return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                               "layer '%s': CSV data: expected a number at offset %zu", what, i);
    uint64_t v = 0;
    while (i < len && text[i] >= '0' && text[i] <= '9') {
      v = v * 10 + (uint64_t)(text[i++] - '0');
      if (v > UINT32_MAX)
        return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                                 "layer '%s': CSV data: number beyond 32 bits at offset %zu", what, i);
    }
    if (n >= count)
      return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                               "layer '%s': CSV data holds more than the layer's %zu cells", what, count);
    out[n++] = (uint32_t)v;
    while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) i++;
    if (i < len) {
      if (text[i] != ',')
        return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                                 "layer '%s': CSV data: expected ',' at offset %zu", what, i);
      i++;
    }
  }
  if (n != count)
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                             "layer '%s': CSV data holds %zu cells, the layer has %zu", what, n, count);
  return TESS_OK;
}

TessResult tiled_decode_data(const char *text, size_t len, int encoding, int compression, uint32_t *out, size_t count,
                             const char *file, uint64_t line, const char *what, TessError *err) {
  if (encoding == TILED_ENC_CSV) {
    if (compression != TILED_COMP_NONE)
      return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line, "layer '%s': CSV data cannot be compressed", what);
    return csv_decode(text, len, out, count, file, line, what, err);
  }
  if (encoding != TILED_ENC_BASE64)
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line, "layer '%s': unsupported data encoding", what);
  uint8_t *raw = NULL;
  size_t raw_len = 0;
  TessResult r = b64_decode(text, len, &raw, &raw_len, file, line, what, err);
  if (r) return r;
  size_t need = count * 4;
  uint8_t *bytes = raw;
  if (compression == TILED_COMP_NONE) {
    if (raw_len != need)
      r = tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, line,
                            "layer '%s': data holds %zu bytes, the layer needs %zu (%zu cells)", what, raw_len, need, count);
  } else {
    bytes = tess_alloc(need ? need : 1);
    if (!bytes) r = tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory");
    else if (compression == TILED_COMP_ZSTD) r = zstd_exact(raw, raw_len, bytes, need, file, line, what, err);
    else r = inflate_exact(raw, raw_len, compression == TILED_COMP_GZIP, bytes, need, file, line, what, err);
  }
  if (r == TESS_OK)
    for (size_t i = 0; i < count; i++)
      out[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 | (uint32_t)bytes[4 * i + 2] << 16 |
               (uint32_t)bytes[4 * i + 3] << 24;
  if (bytes != raw) tess_free(bytes);
  tess_free(raw);
  return r;
}
