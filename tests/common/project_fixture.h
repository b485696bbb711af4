/* The tests' one way to load a project read-only (open, load, close), for
 * every test that reads a project it does not change. Header-only, so a test
 * that links core/store has it with nothing more to build. Failures are
 * CHECK failures naming the file and the place; NULL then. */
#ifndef TESS_TEST_PROJECT_FIXTURE_H
#define TESS_TEST_PROJECT_FIXTURE_H

#include "check.h"
#include "tessera/store.h"

static inline TessProject *tess_test_load_read_only(const char *path) {
  TessStore *store = NULL;
  TessProject *project = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &store, &err), &err);
  if (!store) return NULL;
  CHECK_OK(tess_store_load(store, &project, &err), &err);
  tess_store_close(store);
  return project;
}

#endif
