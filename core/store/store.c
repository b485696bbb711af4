/* Opening and closing a project file, and the operations on the file as a
 * whole: checkpoint, quick_check, save a copy.
 *
 * Connection settings, and why:
 * - WAL journal: the pipeline reads while the editor writes; a commit is an
 *   append to the log.
 * - synchronous = NORMAL: in WAL mode a commit survives the application
 *   crashing at any moment (the log is in the operating system's hands
 *   before the commit returns); only a power cut can lose the last commits,
 *   and never corrupts the file.
 * - foreign_keys = ON: removals cascade (level -> layers -> chunks, objects).
 * - busy_timeout: a writer waits for another writer instead of failing.
 * - 4 KiB pages (SQLite's default), set explicitly: a chunk row spills
 *   into one overflow page, but loading a 4096 x 4096 x 3 level cost the
 *   same CPU time with 8, 32 and 64 KiB pages (measured with
 *   tests/bench/store), while small pages keep small projects small
 *   (8 KiB pages would double the file: one 4 KiB row per page) and make
 *   each commit write the least. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_private.h"

#define TESS_STORE_PAGE_SIZE 4096
#define TESS_STORE_CLOSE_WAIT_MS 1000
#define TESS_STORE_CACHE_KIB 16384
#define TESS_STORE_MMAP_BYTES ((int64_t)1 << 30)
/* The editor folds the log in when idle (tess_store_checkpoint); SQLite's
 * own checkpoint, which runs inside a commit (and so inside an edit), is
 * only the safety net for a log that grew past 64 MiB without a pause. */
#define TESS_STORE_AUTOCHECKPOINT_PAGES 16384

/* A project that could not be created leaves nothing behind. */
static void remove_with_side_files(const char *path) {
  char side[4200];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static TessResult exec_sql(TessStore *s, const char *sql, const char *what, TessError *err) {
  int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
  return rc == SQLITE_OK ? TESS_OK : store_db_error(s, rc, what, err);
}

/* A cached statement that returns one integer. */
static TessResult query_int(TessStore *s, TessStmt which, int64_t *out, TessError *err) {
  sqlite3_stmt *st = store_stmt(s, which, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  int rc = sqlite3_step(st);
  *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return store_db_error(s, rc, "reading the database header", err);
  return TESS_OK;
}

/* WAL is what lets the pipeline read while the editor writes; a file
 * system that cannot share memory between processes refuses it. */
static TessResult use_wal(TessStore *s, TessError *err) {
  sqlite3_stmt *st = store_stmt(s, STMT_JOURNAL_WAL, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  int rc = sqlite3_step(st);
  bool wal = false;
  if (rc == SQLITE_ROW) {
    const char *mode = (const char *)sqlite3_column_text(st, 0);
    wal = mode && strcmp(mode, "wal") == 0;
    rc = SQLITE_OK;
  }
  sqlite3_reset(st);
  if (rc != SQLITE_OK) return store_db_error(s, rc, "switching to a write-ahead log", err);
  if (!wal)
    return tess_error_set(err, TESS_ERR_IO, s->path,
                          "%s: the file system refuses SQLite's write-ahead log (a network drive?); "
                          "copy the project to a local disk",
                          s->name);
  return TESS_OK;
}

/* The settings of every connection (the file comment says why); a writer's also switch to the log. */
TessResult store_configure_connection(TessStore *s, TessError *err) {
  TessResult r = s->read_only ? TESS_OK : use_wal(s, err);
  if (r == TESS_OK) {
    char sql[200];
    snprintf(sql, sizeof sql,
             "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -%d; "
             "PRAGMA mmap_size = %lld; PRAGMA wal_autocheckpoint = %d",
             TESS_STORE_CACHE_KIB, (long long)TESS_STORE_MMAP_BYTES, TESS_STORE_AUTOCHECKPOINT_PAGES);
    r = exec_sql(s, sql, "configuring the connection", err);
  }
  return r;
}

/* "file:" + the path with every byte a URI could misread percent-encoded. */
static char *file_uri(const char *path, const char *query) {
  size_t n = strlen(path);
  char *uri = tess_alloc(5 + 3 * n + strlen(query) + 1);
  if (!uri) return NULL;
  char *o = uri + sprintf(uri, "file:");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if (isalnum(*p) || strchr("/-._~", *p)) *o++ = (char)*p;
    else o += sprintf(o, "%%%02X", *p);
  }
  strcpy(o, query);
  return uri;
}

/* A reader's first read. SQLite reads a WAL-mode file through its -shm
 * index, which it creates beside the file; on read-only media, or in a
 * folder this user cannot write, that fails (SQLITE_READONLY_* or
 * SQLITE_CANTOPEN) before a single page is read. The file is then read in
 * SQLite's immutable mode: no -shm, no locks, the file taken as it is. That
 * is only right when the file alone is the whole project: a non-empty -wal
 * holds commits that are not in it yet and that nobody can replay here, so
 * the project is refused rather than read stale. (A folder where the -shm
 * and -wal can at least be read is read normally, log included.) */
static TessResult first_read(TessStore *s, TessError *err) {
  int rc = sqlite3_exec(s->db, "PRAGMA schema_version", NULL, NULL, NULL);
  if (rc == SQLITE_OK) return TESS_OK;
  if ((rc & 0xFF) != SQLITE_READONLY && (rc & 0xFF) != SQLITE_CANTOPEN) return store_db_error(s, rc, "reading", err);
  TessError first;
  store_db_error(s, rc, "reading", &first);
  char wal[4200];
  snprintf(wal, sizeof wal, "%s-wal", s->path);
  struct stat st;
  if (stat(wal, &st) == 0 && st.st_size > 0)
    return tess_error_set(err, TESS_ERR_READONLY, s->path,
                          "%s cannot be read here: its write-ahead log %s-wal holds changes that are not in the "
                          "file yet, and this folder cannot be written, so they cannot be replayed; open the "
                          "project once where it can be written (closing it folds the log in), or copy the "
                          "folder to a writable disk",
                          s->name, s->name);
  char *uri = file_uri(s->path, "?immutable=1");
  if (!uri) return tess_error_set(err, TESS_ERR_NOMEM, s->path, "out of memory opening %s", s->name);
  sqlite3_close_v2(s->db);
  s->db = NULL;
  rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
  tess_free(uri);
  if (rc == SQLITE_OK) rc = sqlite3_exec(s->db, "PRAGMA schema_version", NULL, NULL, NULL);
  if (rc != SQLITE_OK) {
    if (err) *err = first;
    return first.code;
  }
  sqlite3_extended_result_codes(s->db, 1);
  s->immutable = true;
  return TESS_OK;
}

static void store_free(TessStore *s) {
  if (!s) return;
  store_finalize_all(s);
  if (s->db) sqlite3_close_v2(s->db);
  if (s->writer_lock >= 0) close(s->writer_lock); /* releases the flock */
  tess_free(s->scratch);
  tess_free(s->path);
  tess_free(s);
}

/* Runs PRAGMA quick_check; a damaged file gives TESS_ERR_FORMAT with SQLite's first finding. */
static TessResult run_quick_check(TessStore *s, TessError *err) {
  s->stats.quick_checks++;
  sqlite3_stmt *st = store_stmt(s, STMT_QUICK_CHECK, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  int rc = sqlite3_step(st);
  TessResult r = TESS_OK;
  if (rc == SQLITE_ROW) {
    const char *verdict = (const char *)sqlite3_column_text(st, 0);
    if (!verdict || strcmp(verdict, "ok") != 0)
      r = tess_error_set(err, TESS_ERR_FORMAT, s->path, "%s is damaged: %s", s->name, verdict ? verdict : "?");
  } else {
    r = store_db_error(s, rc, "checking the file", err);
  }
  sqlite3_reset(st);
  return r;
}

/* A new file: page size, application id, WAL, the tables, then every migration step. */
static TessResult create_project(TessStore *s, const TessStoreSchema *schema, TessError *err) {
  char sql[128];
  snprintf(sql, sizeof sql, "PRAGMA page_size = %d", TESS_STORE_PAGE_SIZE);
  TessResult r = exec_sql(s, sql, "setting the page size", err);
  if (r == TESS_OK) {
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d", TESS_STORE_APPLICATION_ID);
    r = exec_sql(s, sql, "marking the file as a Tessera project", err);
  }
  if (r == TESS_OK) r = use_wal(s, err);
  if (r == TESS_OK) r = exec_sql(s, "BEGIN IMMEDIATE", "creating the project", err);
  if (r == TESS_OK) {
    r = store_create_schema(s, err);
    if (r == TESS_OK)
      r = exec_sql(s, "COMMIT", "creating the project", err);
    else
      sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
  }
  if (r == TESS_OK && schema->version > 1) r = store_migrate(s, schema, err);
  return r;
}

/* An existing file: a Tessera project of a version this build reads (or
 * can upgrade: *upgrade is set, the caller migrates once the file is known sound). */
static TessResult check_project(TessStore *s, const TessStoreSchema *schema, bool *upgrade, TessError *err) {
  int64_t app_id = 0;
  TessResult r = query_int(s, STMT_APPLICATION_ID, &app_id, err);
  if (r != TESS_OK) return r;
  if (app_id != TESS_STORE_APPLICATION_ID)
    return tess_error_set(err, TESS_ERR_FORMAT, s->path,
                          "%s is an SQLite database but not a Tessera project (application id 0x%08llx, "
                          "a project has 0x%08x)",
                          s->name, (unsigned long long)(uint32_t)app_id, TESS_STORE_APPLICATION_ID);
  int64_t has_meta = 0;
  r = query_int(s, STMT_HAS_META, &has_meta, err);
  if (r != TESS_OK) return r;
  if (!has_meta)
    return tess_error_set(err, TESS_ERR_FORMAT, s->path, "%s is damaged: it has no meta table", s->name);
  int64_t version = 0;
  r = store_meta_get(s, "schema_version", &version, err);
  if (r == TESS_ERR_NOT_FOUND)
    return tess_error_set(err, TESS_ERR_FORMAT, s->path, "%s is damaged: it has no schema version", s->name);
  if (r != TESS_OK) return r;
  if (version < 1)
    return tess_error_set(err, TESS_ERR_FORMAT, s->path, "%s is damaged: schema version %lld", s->name,
                          (long long)version);
  if (version > (int64_t)schema->version)
    return tess_error_set(err, TESS_ERR_VERSION, s->path,
                          "%s was saved by a newer Tessera (schema %lld, this one reads up to %u)", s->name,
                          (long long)version, schema->version);
  s->file_schema = version;
  if (version < (int64_t)schema->version) {
    /* Read-only, the file is read as it is: the loader knows every real schema (a column a
     * later step added takes the value that step gives it), so exporting an old project does
     * not have to write it. Only a schema other than the program's own (a test's) cannot be. */
    if (s->read_only && schema->version != TESS_STORE_SCHEMA_VERSION)
      return tess_error_set(err, TESS_ERR_VERSION, s->path,
                            "%s uses the older schema %lld; open it once for writing to upgrade it to %u", s->name,
                            (long long)version, schema->version);
    if (!s->read_only) *upgrade = true;
  }
  return TESS_OK;
}

TessResult store_open_with_schema(const char *path, TessStoreMode mode, const TessStoreSchema *schema,
                                  TessStore **out, TessError *err) {
  if (!path || !*path || !out) return tess_error_set(err, TESS_ERR_INVALID, path, "no project path given");
  const char *name = base_name(path);
  bool created = false;
  if (mode == TESS_STORE_CREATE) {
    /* Claim the name atomically: a project is never overwritten. */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      int e = errno;
      if (e == EEXIST)
        return tess_error_set(err, TESS_ERR_IO, path, "%s already exists; a new project needs a new file", name);
      return tess_error_set(err, TESS_ERR_IO, path, "cannot create %s: %s", name, strerror(e));
    }
    close(fd);
    created = true;
  } else {
    TessResult r = store_probe_path(path, name, err);
    if (r != TESS_OK) return r;
  }

  TessStore *s = tess_calloc(1, sizeof *s);
  if (s) s->path = tess_strdup(path);
  if (!s || !s->path) {
    tess_free(s);
    if (created) unlink(path);
    return tess_error_set(err, TESS_ERR_NOMEM, path, "out of memory opening %s", name);
  }
  s->name = base_name(s->path);
  s->read_only = mode == TESS_STORE_READ_ONLY;
  s->writer_lock = -1;
  if (!s->read_only) {
    /* One writer at a time: two editors on one file would each write their own picture of
     * it over the other's. An advisory flock on the file, taken before SQLite opens it (it
     * uses fcntl locks, which flock does not touch); readers (export, render) take none. */
    s->writer_lock = open(path, O_RDONLY | O_CLOEXEC);
    if (s->writer_lock >= 0 && flock(s->writer_lock, LOCK_EX | LOCK_NB) != 0) {
      bool busy = errno == EWOULDBLOCK;
      close(s->writer_lock);
      s->writer_lock = -1;
      if (busy) {
        store_free(s);
        return tess_error_set(err, TESS_ERR_LOCKED, path,
                              "%s is already open for writing (another Tessera window or program has it); "
                              "close it there first",
                              name);
      }
    }
  }

  int flags = (s->read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path, &s->db, flags, NULL);
  TessResult r = TESS_OK;
  if (rc != SQLITE_OK) {
    r = store_db_error(s, rc, "opening", err);
  } else {
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, TESS_STORE_BUSY_MS);
    if (!s->read_only && sqlite3_db_readonly(s->db, "main") == 1)
      r = tess_error_set(err, TESS_ERR_READONLY, path, "%s cannot be written (no permission); open it read-only",
                         name);
  }
  if (r == TESS_OK && !created) r = store_probe_file(s->db, path, name, err);
  if (r == TESS_OK && s->read_only) r = first_read(s, err);
  bool upgrade = false;
  if (r == TESS_OK) r = created ? create_project(s, schema, err) : check_project(s, schema, &upgrade, err);
  if (r == TESS_OK && created) s->file_schema = schema->version;
  if (r == TESS_OK) r = store_configure_connection(s, err);
  int64_t clean = 0;
  bool marked_open = false;
  if (r == TESS_OK) {
    r = store_meta_get(s, "clean_close", &clean, err);
    if (r == TESS_ERR_NOT_FOUND) r = TESS_OK, clean = 0;
    /* The last writer did not close (crash, or still open elsewhere): look before trusting the file. */
    if (r == TESS_OK && !clean && !created) {
      s->stats.opened_after_unclean_close = true;
      r = run_quick_check(s, err);
    }
    if (r == TESS_OK && !s->read_only) {
      r = store_meta_set(s, "clean_close", 0, err);
      marked_open = r == TESS_OK;
      if (marked_open) store_log_note(s);
    }
  }
  /* Upgrade only a file known to be sound (checked above if it was not closed cleanly). */
  if (r == TESS_OK && upgrade) r = store_migrate(s, schema, err);
  if (r == TESS_OK && upgrade) s->file_schema = schema->version;
  if (r != TESS_OK) {
    /* Refused (a failed upgrade): leave the file as it was found. */
    if (marked_open && clean) store_meta_set(s, "clean_close", 1, NULL);
    store_free(s);
    if (created) remove_with_side_files(path);
    return r;
  }
  *out = s;
  return TESS_OK;
}

TessResult tess_store_open(const char *path, TessStoreMode mode, TessStore **out, TessError *err) {
  return store_open_with_schema(path, mode, store_schema_current(), out, err);
}

void tess_store_close(TessStore *s) {
  if (!s) return;
  if (!s->read_only && s->db) {
    if (sqlite3_get_autocommit(s->db) == 0) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    store_log_guard(s, NULL); /* a lost log's commits reach the file before it is marked closed */
    /* Mark the clean close, then fold the log into the file so the .tessera
     * alone is complete. A reader may hold the log: wait a little for it,
     * not long (nothing is lost if the log stays; the next open folds it in). */
    if (store_meta_set(s, "clean_close", 1, NULL) == TESS_OK) {
      sqlite3_busy_timeout(s->db, TESS_STORE_CLOSE_WAIT_MS);
      sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    }
  }
  store_free(s);
}

const char *tess_store_path(const TessStore *s) { return s->path; }
bool tess_store_read_only(const TessStore *s) { return s->read_only; }
bool tess_store_immutable(const TessStore *s) { return s->immutable; }
void tess_store_stats(const TessStore *s, TessStoreStats *out) { *out = s->stats; }

TessResult tess_store_checkpoint(TessStore *s, TessError *err) {
  if (s->read_only)
    return tess_error_set(err, TESS_ERR_READONLY, s->path, "%s is open read-only: nothing to checkpoint", s->name);
  TessResult guarded = store_log_guard(s, err);
  if (guarded != TESS_OK) return guarded;
  int log_frames = 0, done_frames = 0;
  /* Called from the editor's idle timer: never wait for a reader, try again later instead. */
  sqlite3_busy_timeout(s->db, 0);
  int rc = sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, &log_frames, &done_frames);
  sqlite3_busy_timeout(s->db, TESS_STORE_BUSY_MS);
  if (rc == SQLITE_BUSY)
    return tess_error_set(err, TESS_ERR_LOCKED, s->path,
                          "%s: a reader holds the log; %d of %d pages were folded in, try again later", s->name,
                          done_frames, log_frames);
  if (rc != SQLITE_OK) return store_db_error(s, rc, "checkpointing", err);
  return TESS_OK;
}

TessResult tess_store_quick_check(TessStore *s, TessError *err) { return run_quick_check(s, err); }

TessResult tess_store_save_copy(TessStore *s, const char *dest_path, TessError *err) {
  if (!dest_path || !*dest_path) return tess_error_set(err, TESS_ERR_INVALID, s->path, "no destination given");
  struct stat a, b;
  if (stat(s->path, &a) == 0 && stat(dest_path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
    return tess_error_set(err, TESS_ERR_INVALID, dest_path, "cannot save %s as a copy over itself", s->name);
  const char *dest_name = base_name(dest_path);
  /* Copy into a temporary file beside the destination, then rename: the
   * destination is either the old file or the complete copy. */
  size_t n = strlen(dest_path) + 16;
  char *tmp = tess_alloc(n);
  if (!tmp) return tess_error_set(err, TESS_ERR_NOMEM, dest_path, "out of memory");
  snprintf(tmp, n, "%s.part", dest_path);
  unlink(tmp);

  sqlite3 *dst = NULL;
  TessResult r = TESS_OK;
  int rc = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(dst, TESS_STORE_BUSY_MS);
    sqlite3_backup *bk = sqlite3_backup_init(dst, "main", s->db, "main");
    if (!bk) {
      rc = sqlite3_errcode(dst);
    } else {
      do {
        rc = sqlite3_backup_step(bk, -1);
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) sqlite3_sleep(5);
      } while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
      if (rc == SQLITE_DONE) rc = SQLITE_OK;
      int rc2 = sqlite3_backup_finish(bk);
      if (rc == SQLITE_OK) rc = rc2;
    }
  }
  if (rc == SQLITE_OK) {
    /* The copy is complete and consistent: mark it closed cleanly, and fold its log in. */
    rc = sqlite3_exec(dst, "UPDATE meta SET value = 1 WHERE key = 'clean_close'", NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_wal_checkpoint_v2(dst, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
  }
  if (rc != SQLITE_OK) r = store_sqlite_error(dst, dest_path, dest_name, rc, "saving a copy", err);
  if (sqlite3_close(dst) != SQLITE_OK && r == TESS_OK)
    r = tess_error_set(err, TESS_ERR_IO, dest_path, "cannot finish writing %s", dest_name);
  if (r == TESS_OK) {
    int fd = open(tmp, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      fsync(fd);
      close(fd);
    }
    if (rename(tmp, dest_path) != 0)
      r = tess_error_set(err, TESS_ERR_IO, dest_path, "cannot write %s: %s", dest_name, strerror(errno));
  }
  if (r != TESS_OK) unlink(tmp);
  char side[4200];
  snprintf(side, sizeof side, "%s-wal", tmp);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", tmp);
  unlink(side);
  tess_free(tmp);
  return r;
}
