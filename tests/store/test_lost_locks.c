/* A writer whose SQLite locks were dropped behind its back.
 *
 * POSIX drops every fcntl lock a process holds on a file as soon as any
 * descriptor of that file closes in the process. SQLite's locks are fcntl
 * locks, so when something else in the editor's process opens and closes the
 * project file (GTK's file chooser browsing the project's folder does), the
 * editor keeps its connection but no longer holds its locks. Another program
 * that then reads the file believes it is the last one using it: on closing
 * it folds the write-ahead log into the file and deletes the log. The
 * editor's next commits used to go into the deleted log, where no other
 * program could see them and a crash would lose them.
 *
 * "Another program" is this executable run again (--another-program): it
 * must be a separate process, since a second connection in the same process
 * shares SQLite's lock bookkeeping and never deletes the log. It opens the
 * file read-write as the sqlite3 shell or a database browser would. */
#include <fcntl.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store_tests.h"

/* The other program: prints the integer `sql` returns, then closes. */
static int another_program(const char *path, const char *sql) {
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
  sqlite3_stmt *st = NULL;
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) printf("%lld\n", (long long)sqlite3_column_int64(st, 0));
  else fprintf(stderr, "another program: %s\n", sqlite3_errmsg(db));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return rc == SQLITE_OK ? 0 : 1;
}

static const char *self_exe;

/* Runs the other program on path and returns what it printed (-1 on failure). */
static long long read_from_another_process(const char *path, const char *sql) {
  int out[2];
  if (pipe(out) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    execl(self_exe, self_exe, "--another-program", path, sql, (char *)NULL);
    _exit(127);
  }
  close(out[1]);
  char buf[64] = {0};
  ssize_t n = read(out[0], buf, sizeof buf - 1);
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return atoll(buf);
}

/* What GTK's file chooser does to the project file: open, read a little, close. */
static void open_and_close_elsewhere_in_this_process(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  CHECK(fd >= 0);
  char head[16];
  if (fd >= 0) {
    CHECK(read(fd, head, sizeof head) == (ssize_t)sizeof head);
    close(fd);
  }
}

static TessId add_spawn(TessProject *p, const Sample *ids, const char *name) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  snprintf(o.name, sizeof o.name, "%s", name);
  TessId id = 0;
  TessError err = {0};
  CHECK_OK(tess_edit_object_add(p, ids->level, ids->objects, &o, &id, &err), &err);
  tess_object_clear(&o);
  return id;
}

static long long spawns_named(const char *path, const char *name) {
  char sql[160];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM objects WHERE name = '%s'", name);
  return read_from_another_process(path, sql);
}

void commits_after_lost_locks_reach_the_file(void) {
  char path[512], wal[560];
  tess_test_path(path, sizeof path, "lost-locks.tessera");
  snprintf(wal, sizeof wal, "%s-wal", path);
  TessProject *p = tess_project_create();
  Sample ids;
  build_sample_project(p, &ids);
  create_and_flush(path, p);
  tess_project_destroy(p);

  TessStore *s = NULL;
  TessError err = {0};
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &s, &err), &err);
  if (!s) return;
  p = NULL;
  CHECK_OK(tess_store_load(s, &p, &err), &err);
  if (!p) return;

  add_spawn(p, &ids, "before");
  CHECK_OK(tess_store_flush(s, p, &err), &err);
  CHECK(spawns_named(path, "before") == 1);
  CHECK(file_exists(wal)); /* the editor's locks held: the reader left the log alone */

  open_and_close_elsewhere_in_this_process(path);
  CHECK(spawns_named(path, "before") == 1);
  /* The scenario itself: the other program took the file for its own and deleted the log. */
  CHECK(!file_exists(wal));

  add_spawn(p, &ids, "after");
  CHECK_OK(tess_store_flush(s, p, &err), &err);
  CHECK(spawns_named(path, "after") == 1);
  add_spawn(p, &ids, "later");
  CHECK_OK(tess_store_flush(s, p, &err), &err);
  CHECK(spawns_named(path, "later") == 1);

  /* A second loss, with the reader running between two edits of one cell. */
  open_and_close_elsewhere_in_this_process(path);
  CHECK(spawns_named(path, "later") == 1);
  TessCell cell = TESS_CELL_MAKE(ids.tileset, 3, 0);
  CHECK_OK(tess_edit_paint(p, ids.level, ids.ground, 0, 0, 1, 1, &cell, 0, &err), &err);
  CHECK_OK(tess_store_flush(s, p, &err), &err);

  /* A crash now (no close, no checkpoint) must lose nothing: the file and its
   * log as they are on disk, copied and opened afresh, are the editor's whole project. */
  uint64_t want = tess_project_hash(p);
  TessProject *seen = NULL;
  char copy[512];
  tess_test_path(copy, sizeof copy, "lost-locks-copy.tessera");
  copy_file(path, copy);
  char side_from[560], side_to[560];
  snprintf(side_from, sizeof side_from, "%s-wal", path);
  snprintf(side_to, sizeof side_to, "%s-wal", copy);
  if (file_exists(side_from)) copy_file(side_from, side_to);
  else unlink(side_to);
  seen = load_file(copy);
  CHECK(seen && tess_project_hash(seen) == want);
  if (seen) tess_project_destroy(seen);

  TessStoreStats stats;
  tess_store_stats(s, &stats);
  CHECK(stats.logs_recovered == 2);
  tess_store_close(s);
  seen = load_file(path);
  CHECK(seen && tess_project_hash(seen) == want);
  if (seen) tess_project_destroy(seen);
  tess_project_destroy(p);
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--another-program") == 0) return another_program(argv[2], argv[3]);
  self_exe = "/proc/self/exe";
  static const TessTestCase cases[] = {TEST(commits_after_lost_locks_reach_the_file)};
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
