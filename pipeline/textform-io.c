/* Reading a project from a file or a dump, writing one atomically. */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "textform-io.h"
#include "tessera/store.h"
#include "tessera/textform.h"

int tess_cli_fail(const TessError *err) {
  char msg[1400];
  tess_error_format(err, msg, sizeof msg);
  fprintf(stderr, "%s\n", msg);
  return TESS_EXIT_FAIL;
}

TessResult tess_cli_read_project(const char *path, TessProject **out, TessError *err) {
  struct stat st;
  if (strcmp(path, "/dev/null") == 0) {
    *out = tess_project_create();
    return *out ? TESS_OK : tess_error_set(err, TESS_ERR_NOMEM, path, "out of memory");
  }
  if (stat(path, &st) != 0) return tess_error_set(err, TESS_ERR_NOT_FOUND, path, "cannot open: %s", strerror(errno));
  if (S_ISDIR(st.st_mode)) return tess_text_load(path, NULL, out, err);
  TessStore *store = NULL;
  TessResult r = tess_store_open(path, TESS_STORE_READ_ONLY, &store, err);
  if (r == TESS_OK) r = tess_store_load(store, out, err);
  if (store) tess_store_close(store);
  return r;
}

static void fold_wal(const char *path) {
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
    sqlite3_busy_timeout(db, 2000);
    /* A read first: until then the connection has not seen that the file is in WAL mode. */
    sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
  }
  sqlite3_close(db);
}

static void remove_db(const char *path) {
  char side[4400];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

/* The settings of the file being replaced (the editor's "keep a text dump")
 * are the team's choice, not the dump's content: the new file keeps them. An
 * old file that cannot be read has none to keep. */
static void keep_settings(TessStore *to, const char *old_path) {
  TessStore *old = NULL;
  if (access(old_path, F_OK) != 0 || tess_store_open(old_path, TESS_STORE_READ_ONLY, &old, NULL) != TESS_OK) return;
  (void)tess_store_copy_settings(to, old, NULL);
  tess_store_close(old);
}

TessResult tess_cli_write_project(TessProject *p, const char *path, bool force, TessError *err) {
  struct stat st;
  if (stat(path, &st) == 0) {
    if (!force)
      return tess_error_set(err, TESS_ERR_INVALID, path, "already exists: --force replaces it (nothing was written)");
    if (!S_ISREG(st.st_mode)) return tess_error_set(err, TESS_ERR_INVALID, path, "exists and is not a file");
    /* An editor writing the project keeps recent edits in PATH-wal until it
     * is idle for a moment; a new file under that log would read its pages.
     * Fold the log into the old file first (SQLite lets any connection
     * checkpoint; the editor's edits stay in the file it has open), then
     * check that it is empty. */
    char wal[4200];
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(wal, &st) == 0 && st.st_size > 0) fold_wal(path);
    if (stat(wal, &st) == 0 && st.st_size > 0)
      return tess_error_set(err, TESS_ERR_LOCKED, path,
                            "an editor has edits of it not yet folded into the file (%s): try again in a few seconds",
                            wal);
  }
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.load-%ld-%ld", path, (long)getpid(), (long)time(NULL));
  remove_db(tmp);
  TessStore *store = NULL;
  TessResult r = tess_store_open(tmp, TESS_STORE_CREATE, &store, err);
  if (r == TESS_OK) r = tess_store_save_all(store, p, err);
  if (r == TESS_OK && force) keep_settings(store, path);
  if (store) tess_store_close(store); /* checkpoints: tmp alone is the whole project */
  if (r == TESS_OK && rename(tmp, path) != 0)
    r = tess_error_set(err, TESS_ERR_IO, path, "cannot replace: %s", strerror(errno));
  if (r != TESS_OK) remove_db(tmp);
  return r;
}
