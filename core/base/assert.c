/* The one place core prints and aborts: a failed TESS_ASSERT, which marks a
 * programmer mistake (never bad input, which returns a TessResult). */
#include <stdio.h>
#include <stdlib.h>

#include "tessera/base.h"

void tess_assert_fail(const char *expr, const char *file, int line) {
  fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, expr);
  fflush(stderr);
  abort();
}
