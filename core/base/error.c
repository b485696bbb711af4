/* Results and the caller-owned error record. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tessera/base.h"

static void fill(TessError *err, TessResult code, const char *file, TessPlaceKind kind, uint64_t place,
                 const char *fmt, va_list ap) {
  err->code = code;
  err->place_kind = kind;
  err->place = place;
  snprintf(err->file, sizeof err->file, "%s", file ? file : "");
  vsnprintf(err->detail, sizeof err->detail, fmt, ap);
}

TessResult tess_error_set(TessError *err, TessResult code, const char *file, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, file, TESS_PLACE_NONE, 0, fmt, ap);
    va_end(ap);
  }
  return code;
}

TessResult tess_error_set_at(TessError *err, TessResult code, const char *file, TessPlaceKind kind,
                             uint64_t place, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, file, kind, place, fmt, ap);
    va_end(ap);
  }
  return code;
}

void tess_error_clear(TessError *err) {
  if (err) memset(err, 0, sizeof *err);
}

const char *tess_result_string(TessResult code) {
  switch (code) {
    case TESS_OK: return "ok";
    case TESS_ERR_IO: return "input/output error";
    case TESS_ERR_FORMAT: return "format error";
    case TESS_ERR_VERSION: return "unsupported version";
    case TESS_ERR_LIMIT: return "limit exceeded";
    case TESS_ERR_NOMEM: return "out of memory";
    case TESS_ERR_INVALID: return "invalid value";
    case TESS_ERR_NOT_FOUND: return "not found";
    case TESS_ERR_LOCKED: return "locked";
    case TESS_ERR_READONLY: return "read-only";
    case TESS_ERR_EMPTY: return "empty";
    case TESS_ERR_DATABASE: return "database error";
    case TESS_ERR_COUNT: break;
  }
  return "unknown error";
}

void tess_error_format(const TessError *err, char *buf, size_t size) {
  if (!buf || size == 0) return;
  if (!err) {
    snprintf(buf, size, "unknown error");
    return;
  }
  const char *file = err->file[0] ? err->file : "tessera";
  switch (err->place_kind) {
    case TESS_PLACE_LINE:
      snprintf(buf, size, "%s:%llu: %s", file, (unsigned long long)err->place, err->detail);
      break;
    case TESS_PLACE_OFFSET:
      snprintf(buf, size, "%s:byte %llu: %s", file, (unsigned long long)err->place, err->detail);
      break;
    default:
      snprintf(buf, size, "%s: %s", file, err->detail);
      break;
  }
}
