/* The demo project for the preview tests: a private copy of the file the
 * build made (TESS_DEMO_PROJECT), loaded read-only. */
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "project_fixture.h"
#include "tessera/store.h"

static inline TessProject *load_demo(void) {
  const char *path = getenv("TESS_DEMO_PROJECT");
  CHECK_MSG(path != NULL, "TESS_DEMO_PROJECT not set");
  if (!path) return NULL;
  /* A private copy: even a read-only SQLite open may leave side files. */
  char copy[1024];
  tess_test_path(copy, sizeof copy, "demo.tessera");
  FILE *in = fopen(path, "rb"), *out = fopen(copy, "wb");
  CHECK(in && out);
  if (in && out) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) CHECK(fwrite(buf, 1, n, out) == n);
  }
  if (in) fclose(in);
  if (out) fclose(out);
  return tess_test_load_read_only(copy);
}
