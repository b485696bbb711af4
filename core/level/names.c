/* Names: bounded, NUL-terminated, well-formed UTF-8 fields. A name reaches
 * file names (export), JSON (manifest.json, --json) and terminals, so bytes
 * that are not text are refused where a name enters: every edit and every
 * load goes through these checks. */
#include "level_private.h"

/* Well-formed UTF-8 up to the NUL (tess_utf8_sequence, the one decoder); on
 * false *bad is the offset of the first byte that does not fit. */
static bool utf8_ok(const char *s, size_t *bad) {
  size_t i = 0;
  while (s[i]) {
    size_t n = tess_utf8_sequence(s + i);
    if (n == 0) {
      if (bad) *bad = i;
      return false;
    }
    i += n;
  }
  return true;
}

TessResult level_name_copy(char dst[TESS_NAME_MAX], const char *src, bool allow_empty, const char *what,
                           TessError *err) {
  if (!src) src = "";
  size_t n = strlen(src), bad = 0;
  if (n >= TESS_NAME_MAX)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "%s name is %zu bytes long (at most %d)", what, n,
                          TESS_NAME_MAX - 1);
  if (n == 0 && !allow_empty) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s name is empty", what);
  if (!utf8_ok(src, &bad))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s name is not valid UTF-8 (byte %zu)", what, bad);
  memset(dst, 0, TESS_NAME_MAX);
  memcpy(dst, src, n);
  return TESS_OK;
}

bool level_name_valid(const char name[TESS_NAME_MAX]) {
  const char *end = memchr(name, 0, TESS_NAME_MAX);
  return end && utf8_ok(name, NULL);
}

TessResult level_name_check(const char name[TESS_NAME_MAX], bool allow_empty, const char *what, TessError *err) {
  const char *end = memchr(name, 0, TESS_NAME_MAX);
  size_t bad = 0;
  if (!end) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s name is not terminated", what);
  if (end == name && !allow_empty) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s name is empty", what);
  if (!utf8_ok(name, &bad))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s name is not valid UTF-8 (byte %zu)", what, bad);
  return TESS_OK;
}
