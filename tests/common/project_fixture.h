/* The tests' one way to load a project read-only (open, load, close), for
 * every test that reads a project it does not change, and to remove one with
 * its side files. Header-only, so a test
 * that links core/store has it with nothing more to build. Failures are
 * CHECK failures naming the file and the place; NULL then. */
#ifndef TESS_TEST_PROJECT_FIXTURE_H
#define TESS_TEST_PROJECT_FIXTURE_H

#include <stdio.h>
#include <unistd.h>

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

/* Removes a project file and the SQLite side files (-wal, -shm) a writer
 * may leave beside it, so the next create starts from nothing. */
static inline void tess_test_remove_project(const char *path) {
  char side[4096];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

#endif
