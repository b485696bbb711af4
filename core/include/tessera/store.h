/* Tessera core/store: the project file, an SQLite database.
 *
 * Every edit is persisted at the moment it is applied: after tess_edit_*()
 * (or undo/redo) the owner calls tess_store_flush(), which writes the
 * project's pending changes (TessChange) in one transaction and clears them.
 * There is no Save and nothing to lose. */
#ifndef TESSERA_STORE_H
#define TESSERA_STORE_H

#include "tessera/base.h"
#include "tessera/level.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESS_STORE_SCHEMA_VERSION 9

typedef struct TessStore TessStore;

typedef enum TessStoreMode {
  TESS_STORE_READ_WRITE = 0, /* an existing project */
  TESS_STORE_READ_ONLY = 1,  /* export, validate, render: never writes */
  TESS_STORE_CREATE = 2,     /* a new project; refuses to overwrite an existing file */
} TessStoreMode;

/* Opens (or creates) a project file. A file that is not SQLite, not a
 * Tessera project, from a newer schema, or damaged is refused by name. When
 * the previous session did not close cleanly, a full quick_check runs.
 * TESS_STORE_READ_ONLY also reads a project on read-only media or in a
 * read-only folder; one whose -wal holds changes that cannot be replayed
 * there is refused (TESS_ERR_READONLY) rather than read stale. */
TessResult tess_store_open(const char *path, TessStoreMode mode, TessStore **out, TessError *err);
/* Closes: checkpoints the WAL into the main file and marks a clean close. */
void tess_store_close(TessStore *store);
const char *tess_store_path(const TessStore *store);
bool tess_store_read_only(const TessStore *store);
/* True when a read-only open found the project on read-only media or in a
 * folder it cannot write, and reads it in SQLite's immutable mode (see
 * core/store/README.md, "Read-only media"). */
bool tess_store_immutable(const TessStore *store);

/* Loads the whole project. */
TessResult tess_store_load(TessStore *store, TessProject **out, TessError *err);
/* Writes everything in the project (a newly created file, or an import). Clears pending changes. */
TessResult tess_store_save_all(TessStore *store, TessProject *project, TessError *err);
/* Persists the project's pending changes in one transaction, then clears them. */
TessResult tess_store_flush(TessStore *store, TessProject *project, TessError *err);

/* Copies the database through SQLite's backup API (Save a Copy...). */
TessResult tess_store_save_copy(TessStore *store, const char *dest_path, TessError *err);
/* Folds the WAL back into the main file; the editor calls it after a few idle seconds. */
TessResult tess_store_checkpoint(TessStore *store, TessError *err);
/* PRAGMA quick_check (the pipeline's validate). */
TessResult tess_store_quick_check(TessStore *store, TessError *err);

/* Preferences of the tools that open this project, kept with it (the
 * editor's "keep a text dump beside the project"): rows "setting.<name>" of
 * the file's meta table. They are not the project's content (no hash, dump,
 * export or undo), so changing one is not an edit. `name` is at most 48
 * bytes. get: TESS_ERR_NOT_FOUND when never set; set: TESS_ERR_READONLY on
 * a read-only store. */
TessResult tess_store_setting_get(TessStore *store, const char *name, int64_t *out, TessError *err);
TessResult tess_store_setting_set(TessStore *store, const char *name, int64_t value, TessError *err);
/* Every setting of `from` into `to` (a project rebuilt in place by `load
 * --force` keeps the settings of the file it replaces). */
TessResult tess_store_copy_settings(TessStore *to, TessStore *from, TessError *err);

/* What the store has written since it was opened (tests, benchmarks, the
 * editor's status line). A row counts when SQLite reports it changed. */
typedef struct TessStoreStats {
  uint64_t transactions;       /* committed by save_all and flush */
  uint64_t changes_flushed;    /* TessChange entries persisted */
  uint64_t chunk_rows_written; /* inserted or updated */
  uint64_t chunk_rows_deleted; /* emptied chunks (not counting cascades) */
  uint64_t rows_written;       /* every table, chunks included */
  uint64_t rows_deleted;
  uint32_t quick_checks;           /* PRAGMA quick_check runs (on open, tess_store_quick_check) */
  uint32_t logs_recovered;         /* times another program removed the writer's log (core/store/log_guard.c) */
  bool opened_after_unclean_close; /* the previous writer did not close: the file was checked on open */
} TessStoreStats;
void tess_store_stats(const TessStore *store, TessStoreStats *out);

#ifdef __cplusplus
}
#endif
#endif
