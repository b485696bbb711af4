/* core/store private: the store's state, its cached statements and the
 * helpers shared by open, load, save and flush. */
#ifndef TESS_STORE_PRIVATE_H
#define TESS_STORE_PRIVATE_H

#include <sqlite3.h>
#include <sys/types.h>

#include "tessera/store.h"
#include "store_migrate.h"

/* PRAGMA application_id of every Tessera project: 'TESS' in ASCII. */
#define TESS_STORE_APPLICATION_ID 0x54455353

/* How long a connection waits for another writer or a checkpointing reader. */
#define TESS_STORE_BUSY_MS 5000

/* Bytes of one chunk's cells BLOB: TESS_CHUNK_CELLS little-endian uint32. */
#define TESS_STORE_CHUNK_BYTES (TESS_CHUNK_CELLS * 4)

/* Every statement the store runs, prepared once on first use and kept.
 * The SQL text lives in statements.c; values are always bound, never
 * spliced into the text. */
typedef enum TessStmt {
  STMT_META_GET,
  STMT_META_SET,
  STMT_MATERIAL_UPSERT,
  STMT_MATERIAL_DELETE,
  STMT_MATERIAL_SELECT_ALL,
  STMT_TILESET_UPSERT,
  STMT_TILESET_DELETE,
  STMT_TILESET_SELECT_ALL,
  STMT_SPRITE_UPSERT,
  STMT_SPRITE_DELETE,
  STMT_SPRITE_SELECT_ALL,
  STMT_LEVEL_UPSERT,
  STMT_LEVEL_DELETE,
  STMT_LEVEL_SIZE,
  STMT_LEVEL_SET_POSITION,
  STMT_LEVEL_SELECT_ALL,
  STMT_LAYER_UPSERT,
  STMT_LAYER_DELETE,
  STMT_LAYER_EXISTS,
  STMT_LAYER_SET_POSITION,
  STMT_LAYER_SELECT_ALL,
  STMT_CHUNK_UPSERT,
  STMT_CHUNK_DELETE,
  STMT_CHUNK_DELETE_LAYER,
  STMT_CHUNK_SELECT_ALL,
  STMT_OBJECT_UPSERT,
  STMT_OBJECT_DELETE,
  STMT_OBJECT_LOCATE,
  STMT_OBJECT_SET_POSITION,
  STMT_OBJECT_SELECT_ALL,
  STMT_OBJECT_SELECT_ALL_SCHEMA1,  /* a schema-1 file read in place: no motor columns */
  STMT_OBJECT_SELECT_ALL_SCHEMA4,  /* a schema-2..4 file read in place: no depth or integrator column */
  STMT_OBJECT_SELECT_ALL_SCHEMA5,  /* a schema-5 or -6 file read in place: no integrator column */
  STMT_OBJECT_SELECT_ALL_SCHEMA7,  /* a schema-7 file read in place: no launcher columns */
  STMT_OBJECT_SELECT_ALL_SCHEMA8,  /* a schema-8 file read in place: no body_pixels column */
  STMT_LAYER_SELECT_ALL_SCHEMA4,   /* a schema-1..4 file read in place: no y_sort column */
  STMT_TILESET_SELECT_ALL_SCHEMA2, /* a schema-1 or -2 file read in place: no terrain sets, offset 0 */
  STMT_TILESET_SELECT_ALL_SCHEMA3, /* a schema-3 file read in place: no offset or fit_cell columns */
  STMT_LAYER_SELECT_ALL_SCHEMA5,   /* a schema-5 file read in place: no layer collides by pixels */
  STMT_PROP_DELETE_OBJECT,
  STMT_PROP_INSERT,
  STMT_PROP_SELECT,
  STMT_CLEAR_PROPS,
  STMT_CLEAR_OBJECTS,
  STMT_CLEAR_CHUNKS,
  STMT_CLEAR_LAYERS,
  STMT_CLEAR_LEVELS,
  STMT_CLEAR_SPRITES,
  STMT_CLEAR_TILESETS,
  STMT_CLEAR_MATERIALS,
  STMT_APPLICATION_ID,
  STMT_HAS_META,
  STMT_JOURNAL_WAL,
  STMT_QUICK_CHECK,
  STMT_FOREIGN_KEY_CHECK,
  STMT_BEGIN,
  STMT_BEGIN_READ,
  STMT_COMMIT,
  STMT_ROLLBACK,
  STMT_COUNT
} TessStmt;

struct TessStore {
  sqlite3 *db;
  char *path;
  const char *name; /* base name within path, for messages */
  bool read_only;
  bool immutable;      /* read-only media or folder: SQLite's immutable mode (no -shm, no locks) */
  int64_t file_schema; /* the schema the file is at (older than the program's only when read-only) */
  int writer_lock;     /* fd holding flock(LOCK_EX) on the file while open for writing, or -1 */
  /* The writer's "<path>-wal", as last seen (log_guard.c says why). */
  bool log_known;
  dev_t log_dev;
  ino_t log_ino;
  sqlite3_stmt *stmts[STMT_COUNT];
  TessStoreStats stats;
  /* The next_id counters as last written to meta, so a flush writes them only when they moved. */
  TessId saved_next_id[TESS_ID_KIND_COUNT];
  /* Encoding buffers, reused. */
  uint8_t chunk_bytes[TESS_STORE_CHUNK_BYTES];
  uint8_t *scratch;
  size_t scratch_cap;
};

/* ---- statements.c -------------------------------------------------------- */

/* The cached statement, reset and with its bindings cleared; NULL on failure (err filled). */
sqlite3_stmt *store_stmt(TessStore *s, TessStmt which, TessError *err);
void store_finalize_all(TessStore *s);
/* Steps a statement that returns no rows and resets it. */
TessResult store_exec_stmt(TessStore *s, sqlite3_stmt *st, TessError *err);
/* Runs one of the fixed statements that take no parameters (BEGIN, COMMIT, CLEAR_...). */
TessResult store_run(TessStore *s, TessStmt which, TessError *err);
/* Fills err from SQLite's last error on s->db, with `what` naming the operation. */
TessResult store_db_error(TessStore *s, int rc, const char *what, TessError *err);
/* The one error mapping from SQLite result codes to ours (file named by path). */
TessResult store_sqlite_error(sqlite3 *db, const char *path, const char *name, int rc, const char *what,
                              TessError *err);

/* ---- store.c, log_guard.c ----------------------------------------------- */

/* The pragmas of every connection, and a writer's switch to the log. */
TessResult store_configure_connection(TessStore *s, TessError *err);
/* Remembers which file the writer's log is (after the writer's first commit). */
void store_log_note(TessStore *s);
/* Before and after each write: when the log is no longer the file this
 * writer writes (another program removed it), folds the old connection's
 * commits into the project file and reconnects. */
TessResult store_log_guard(TessStore *s, TessError *err);

/* ---- meta.c -------------------------------------------------------------- */

/* Reads an integer from meta; TESS_ERR_NOT_FOUND when the key is absent. */
TessResult store_meta_get(TessStore *s, const char *key, int64_t *out, TessError *err);
TessResult store_meta_set(TessStore *s, const char *key, int64_t value, TessError *err);
/* Writes the project's next_id counters when they differ from what meta holds. */
TessResult store_write_next_ids(TessStore *s, const TessProject *p, TessError *err);
TessResult store_read_next_ids(TessStore *s, TessProject *p, TessError *err);

/* ---- schema.c ------------------------------------------------------------ */

/* Creates the version-1 tables in an empty database (inside the caller's transaction). */
TessResult store_create_schema(TessStore *s, TessError *err);
/* Applies the steps from the file's version up to schema->version, all in one transaction. */
TessResult store_migrate(TessStore *s, const TessStoreSchema *schema, TessError *err);

/* ---- probe.c ------------------------------------------------------------- */

/* Before opening: the path exists and is not a folder. */
TessResult store_probe_path(const char *path, const char *name, TessError *err);
/* After sqlite3_open (which reads nothing yet): looks at the file's bytes
 * through SQLite's handle: empty, not SQLite, truncated. */
TessResult store_probe_file(sqlite3 *db, const char *path, const char *name, TessError *err);

/* ---- write.c: one row (and its children) each ---------------------------- */

TessResult store_write_material(TessStore *s, const TessMaterial *m, TessError *err);
TessResult store_write_tileset(TessStore *s, const TessTileset *ts, TessError *err);
TessResult store_write_sprite(TessStore *s, const TessSprite *sp, TessError *err);
TessResult store_write_level_row(TessStore *s, const TessLevel *level, uint32_t position, TessError *err);
TessResult store_write_layer_row(TessStore *s, const TessLevel *level, const TessLayer *layer,
                                 uint32_t position, TessError *err);
/* Upserts the chunk's row, or deletes it when the chunk is empty (NULL). */
TessResult store_write_chunk(TessStore *s, const TessLevel *level, const TessLayer *layer, uint32_t cx,
                             uint32_t cy, TessError *err);
TessResult store_write_object(TessStore *s, const TessLevel *level, const TessLayer *layer,
                              const TessObject *obj, uint32_t position, TessError *err);
/* A layer's row, every non-empty chunk and every object. */
TessResult store_write_layer_content(TessStore *s, const TessLevel *level, const TessLayer *layer,
                                     uint32_t position, TessError *err);
/* A level's row and all its layers with their content. */
TessResult store_write_level(TessStore *s, const TessLevel *level, uint32_t position, TessError *err);
TessResult store_delete_row(TessStore *s, TessStmt which, int64_t id, TessError *err);

/* Makes s->scratch hold at least `need` bytes. */
bool store_scratch(TessStore *s, size_t need);

#endif
