/* Names: bounded, NUL-terminated UTF-8 fields. */
#include "level_private.h"

TessResult tess_name_copy(char dst[TESS_NAME_MAX], const char *src, bool allow_empty, const char *what,
                          TessError *err) {
  if (!src) src = "";
  size_t n = strlen(src);
  if (n >= TESS_NAME_MAX)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "%s name is %zu bytes long (at most %d)", what, n,
                          TESS_NAME_MAX - 1);
  if (n == 0 && !allow_empty) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s name is empty", what);
  memset(dst, 0, TESS_NAME_MAX);
  memcpy(dst, src, n);
  return TESS_OK;
}

bool tess_name_valid(const char name[TESS_NAME_MAX]) { return memchr(name, 0, TESS_NAME_MAX) != NULL; }
