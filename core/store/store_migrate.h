/* core/store private: the schema's version history.
 *
 * A project file records its schema version in meta. Opening a file for
 * writing whose version is older than the build's runs the steps from its
 * version up to the build's, one transaction for all of them (a failing step
 * leaves the file exactly as it was). A file from a newer version is refused.
 *
 * tess_store_open() uses store_schema_current(); tests open with a
 * schema that carries an extra step, to exercise the same mechanism on a
 * real file. */
#ifndef TESS_STORE_MIGRATE_H
#define TESS_STORE_MIGRATE_H

#include "tessera/store.h"

typedef struct TessStoreMigration {
  uint32_t from_version; /* the step turns from_version into from_version + 1 */
  const char *what;      /* English, for error messages */
  const char *sql;       /* fixed statements, run with sqlite3_exec */
} TessStoreMigration;

typedef struct TessStoreSchema {
  uint32_t version;                /* what this build reads and writes */
  const TessStoreMigration *steps; /* one for each version from 1 to version - 1, in order */
  uint32_t step_count;
} TessStoreSchema;

/* Version TESS_STORE_SCHEMA_VERSION with every real step (1 -> 2: pin joint motors). */
const TessStoreSchema *store_schema_current(void);

/* tess_store_open() with an explicit schema history. */
TessResult store_open_with_schema(const char *path, TessStoreMode mode, const TessStoreSchema *schema,
                                  TessStore **out, TessError *err);

#endif
