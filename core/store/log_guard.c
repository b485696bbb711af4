/* A writer keeps its write-ahead log its own.
 *
 * POSIX drops every fcntl lock a process holds on a file as soon as any
 * descriptor of that file closes anywhere in the process, and SQLite's locks
 * are fcntl locks. When code that is not SQLite opens and closes the project
 * file in the editor's process (GTK's file chooser does, browsing the
 * project's folder), the writer keeps its connection but loses its locks.
 * The next program that reads the file then believes it is the only one
 * using it: on closing, it folds the log into the file and deletes the log.
 * The writer's later commits went into the deleted log: no other program saw
 * them, and a crash lost them.
 *
 * So before and after each write the writer checks that the log at
 * "<project>-wal" is still the file it writes (device and inode). When it is
 * not, the old connection first folds its own log into the project file (a
 * checkpoint on the old connection writes every frame it committed, the
 * deleted log's included, into the file: nothing is lost whoever deleted
 * it), then is closed without SQLite's closing checkpoint (which would
 * delete "<project>-wal" by name, by then possibly another program's log),
 * and a new connection takes fresh locks.
 *
 * Limits: a second connection to the same file inside this process keeps
 * SQLite's shared lock bookkeeping alive, so the new connection would inherit
 * it; Tessera's writer is the only long-lived connection of its process (the
 * editor's dump keeper opens its own only while it reads). Between the loss
 * and the next write, another program may read the file without the writer's
 * locks; what it reads is complete (it replays the log) but can be a commit
 * behind. */
#include <stdio.h>
#include <sys/stat.h>

#include "store_private.h"

static bool log_identity(const TessStore *s, dev_t *dev, ino_t *ino) {
  char wal[4200];
  snprintf(wal, sizeof wal, "%s-wal", s->path);
  struct stat st;
  if (stat(wal, &st) != 0) return false;
  *dev = st.st_dev;
  *ino = st.st_ino;
  return true;
}

void store_log_note(TessStore *s) { s->log_known = log_identity(s, &s->log_dev, &s->log_ino); }

static bool log_lost(const TessStore *s) {
  if (s->read_only || !s->log_known) return false;
  dev_t dev;
  ino_t ino;
  return !log_identity(s, &dev, &ino) || dev != s->log_dev || ino != s->log_ino;
}

TessResult store_log_guard(TessStore *s, TessError *err) {
  if (!log_lost(s)) return TESS_OK;
  s->stats.logs_recovered++;
  /* The old connection's log and index are its own now (unlinked): a full
   * checkpoint copies every frame it committed into the project file. */
  int frames = 0, done = 0;
  int rc = sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_FULL, &frames, &done);
  if (rc != SQLITE_OK || done != frames)
    return tess_error_set(err, TESS_ERR_IO, s->path,
                          "%s: another program removed the project's write-ahead log while this one wrote to it, "
                          "and its last %d changes could not be written into the file (%s); keep the project open "
                          "and save a copy (File > Save a Copy)",
                          s->name, frames - done, sqlite3_errstr(rc));
  sqlite3_db_config(s->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
  store_finalize_all(s);
  sqlite3_close_v2(s->db);
  s->db = NULL;
  rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK) return store_db_error(s, rc, "reopening after its write-ahead log was removed", err);
  sqlite3_extended_result_codes(s->db, 1);
  sqlite3_busy_timeout(s->db, TESS_STORE_BUSY_MS);
  TessResult r = store_configure_connection(s, err);
  /* The log exists again once the new connection has read the file. */
  if (r == TESS_OK) r = store_meta_set(s, "clean_close", 0, err);
  if (r == TESS_OK) store_log_note(s);
  return r;
}
