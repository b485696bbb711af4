/* The file as a whole: complete without its log after close or checkpoint,
 * copies, read-only use, creation, the check after an unclean close. */
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store_tests.h"

static off_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? st.st_size : -1;
}

static void check_loads_as(const char *path, const TessProject *p) {
  TessProject *q = load_file(path);
  CHECK_MSG(q && tess_project_hash(q) == tess_project_hash(p), "%s does not hold the project", path);
  if (q) tess_project_destroy(q);
}

/* Copies only the .tessera file (no -wal, no -shm) into a fresh folder. */
static void copy_alone(const char *src, const char *folder, char *dst, size_t size) {
  char dir[512];
  tess_test_path(dir, sizeof dir, folder);
  mkdir(dir, 0755);
  snprintf(dst, size, "%s/alone.tessera", dir);
  unlink(dst);
  copy_file(src, dst);
}

void closed_file_alone_is_complete(void) {
  char path[512], wal[600], alone[600];
  tess_test_path(path, sizeof path, "alone.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  snprintf(wal, sizeof wal, "%s-wal", path);
  CHECK(file_size(wal) <= 0); /* folded in and gone (or empty) */
  copy_alone(path, "alone1", alone, sizeof alone);
  check_loads_as(alone, p);
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(alone, TESS_STORE_READ_ONLY, &st, &err), &err);
  if (st) {
    TessStoreStats stats;
    tess_store_stats(st, &stats);
    CHECK(!stats.opened_after_unclean_close && stats.quick_checks == 0);
    tess_store_close(st);
  }
  tess_project_destroy(p);
}

void checkpoint_makes_file_complete(void) {
  char path[512], alone[600];
  tess_test_path(path, sizeof path, "checkpoint.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err), &err);
  if (!st) {
    tess_project_destroy(p);
    return;
  }
  CHECK_OK(tess_edit_fill_rect(p, s.level, s.ground, 0, 0, 100, 30, TESS_CELL_MAKE(s.tileset, 7, 0), 0, &err), &err);
  CHECK_OK(tess_edit_object_remove(p, s.level, s.zone_attractor, &err), &err);
  CHECK_OK(tess_store_flush(st, p, &err), &err);
  /* The editor is idle: after the checkpoint the main file alone holds everything, while still open. */
  CHECK_OK(tess_store_checkpoint(st, &err), &err);
  copy_alone(path, "alone2", alone, sizeof alone);
  check_loads_as(alone, p);
  tess_store_close(st);
  tess_project_destroy(p);
}

void save_copy_reopens_identical(void) {
  char path[512], copy[512];
  tess_test_path(path, sizeof path, "original.tessera");
  tess_test_path(copy, sizeof copy, "copy.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err), &err);
  if (!st) {
    tess_project_destroy(p);
    return;
  }
  /* Edits that live only in the log so far. */
  CHECK_OK(tess_edit_fill_rect(p, s.level, s.decor, 0, 0, 64, 64, TESS_CELL_MAKE(s.tileset, 2, 0), 0, &err), &err);
  CHECK_OK(tess_store_flush(st, p, &err), &err);
  CHECK_OK(tess_store_save_copy(st, copy, &err), &err);
  check_loads_as(copy, p);
  TessStore *c = NULL;
  CHECK_OK(tess_store_open(copy, TESS_STORE_READ_ONLY, &c, &err), &err);
  if (c) {
    TessStoreStats stats;
    tess_store_stats(c, &stats);
    CHECK(!stats.opened_after_unclean_close); /* a copy is a cleanly closed file */
    tess_store_close(c);
  }
  /* A copy over an older copy replaces it; a copy over itself is refused. */
  CHECK_OK(tess_edit_erase(p, s.level, s.decor, 0, 0, 10, 10, 0, &err), &err);
  CHECK_OK(tess_store_flush(st, p, &err), &err);
  CHECK_OK(tess_store_save_copy(st, copy, &err), &err);
  check_loads_as(copy, p);
  CHECK(tess_store_save_copy(st, path, &err) == TESS_ERR_INVALID);
  tess_store_close(st);
  check_loads_as(path, p);
  tess_project_destroy(p);
}

static uint64_t file_hash(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  TessHasher h;
  tess_hasher_init(&h);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) tess_hasher_bytes(&h, buf, n);
  fclose(f);
  return tess_hasher_finish(&h);
}

void read_only_refuses_writes(void) {
  char path[512];
  tess_test_path(path, sizeof path, "readonly.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  uint64_t bytes_before = file_hash(path);
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &st, &err), &err);
  if (st) {
    CHECK(tess_store_read_only(st));
    CHECK(strcmp(tess_store_path(st), path) == 0);
    TessProject *q = NULL;
    CHECK_OK(tess_store_load(st, &q, &err), &err);
    if (q) {
      CHECK_OK(tess_edit_fill_rect(q, s.level, s.ground, 0, 0, 5, 5, TESS_CELL_MAKE(s.tileset, 1, 0), 0, &err), &err);
      CHECK(tess_store_flush(st, q, &err) == TESS_ERR_READONLY);
      CHECK(err.code == TESS_ERR_READONLY && strstr(err.detail, "read-only") && strstr(err.detail, "readonly.tessera"));
      const TessChange *c;
      CHECK(tess_project_changes(q, &c) > 0);
      CHECK(tess_store_save_all(st, q, &err) == TESS_ERR_READONLY);
      tess_project_destroy(q);
    }
    CHECK(tess_store_checkpoint(st, &err) == TESS_ERR_READONLY);
    CHECK_OK(tess_store_quick_check(st, &err), &err);
    tess_store_close(st);
  }
  CHECK(file_hash(path) == bytes_before);
  tess_project_destroy(p);
}

void create_refuses_existing_file(void) {
  char path[512];
  tess_test_path(path, sizeof path, "exists.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  uint64_t bytes_before = file_hash(path);
  TessStore *st = NULL;
  TessError err;
  CHECK(tess_store_open(path, TESS_STORE_CREATE, &st, &err) == TESS_ERR_IO);
  CHECK(st == NULL);
  CHECK_MSG(strstr(err.detail, "already exists") && strcmp(err.file, path) == 0, "%s", err.detail);
  CHECK(file_hash(path) == bytes_before);
  check_loads_as(path, p);
  tess_project_destroy(p);
}

void quick_check_after_unclean_close(void) {
  char path[512];
  tess_test_path(path, sizeof path, "unclean.tessera");
  unlink(path);
  fflush(NULL);
  int failures_before = tess_test_failures;
  pid_t pid = fork();
  if (pid == 0) {
    /* The editor: creates, edits, flushes, and dies without closing. */
    TessProject *p = tess_project_create();
    Sample s;
    build_sample_project(p, &s);
    TessStore *st = NULL;
    TessError err;
    int ok = tess_store_open(path, TESS_STORE_CREATE, &st, &err) == TESS_OK && tess_store_flush(st, p, &err) == TESS_OK;
    if (!ok) fprintf(stderr, "child: %s\n", err.detail);
    fflush(stderr);
    _exit(ok && tess_test_failures == failures_before ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);

  TessProject *p = tess_project_create(); /* the same project, built the same way */
  Sample s;
  build_sample_project(p, &s);
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err), &err);
  if (st) {
    TessStoreStats stats;
    tess_store_stats(st, &stats);
    CHECK(stats.opened_after_unclean_close && stats.quick_checks == 1);
    TessProject *q = NULL;
    CHECK_OK(tess_store_load(st, &q, &err), &err);
    CHECK(q && tess_project_hash(q) == tess_project_hash(p));
    if (q) tess_project_destroy(q);
    tess_store_close(st);
  }
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err), &err);
  if (st) {
    TessStoreStats stats;
    tess_store_stats(st, &stats);
    CHECK(!stats.opened_after_unclean_close && stats.quick_checks == 0);
    CHECK_OK(tess_store_quick_check(st, &err), &err);
    tess_store_stats(st, &stats);
    CHECK(stats.quick_checks == 1);
    tess_store_close(st);
  }
  tess_project_destroy(p);
}

/* The pipeline reads while the editor writes: WAL lets both go on, a
 * reader sees each commit whole, and a checkpoint waits for readers. */
void reader_while_writer_writes(void) {
  char path[512];
  tess_test_path(path, sizeof path, "shared.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  TessStore *writer = NULL, *reader = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &writer, &err), &err);
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &reader, &err), &err);
  if (!writer || !reader) {
    if (writer) tess_store_close(writer);
    if (reader) tess_store_close(reader);
    tess_project_destroy(p);
    return;
  }
  /* Another program holds a read transaction on the current snapshot. */
  sqlite3 *db = NULL;
  CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
  CHECK(sqlite3_exec(db, "BEGIN; SELECT count(*) FROM chunks;", NULL, NULL, NULL) == SQLITE_OK);
  uint64_t before = tess_project_hash(p);

  CHECK_OK(tess_edit_fill_rect(p, s.level, s.ground, 0, 0, 100, 70, TESS_CELL_MAKE(s.tileset, 6, 0), 0, &err), &err);
  CHECK_OK(tess_store_flush(writer, p, &err), &err); /* not blocked by the reader */
  TessProject *q = NULL;
  CHECK_OK(tess_store_load(reader, &q, &err), &err);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p) && tess_project_hash(q) != before);
  if (q) tess_project_destroy(q);
  /* The old snapshot is still being read: the log cannot be folded in yet. */
  CHECK(tess_store_checkpoint(writer, &err) == TESS_ERR_LOCKED);
  CHECK_MSG(strstr(err.detail, "a reader holds the log") != NULL, "%s", err.detail);
  CHECK(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK);
  sqlite3_close(db);
  CHECK_OK(tess_store_checkpoint(writer, &err), &err);
  tess_store_close(reader);
  tess_store_close(writer);
  TessProject *r = load_file(path);
  CHECK(r && tess_project_hash(r) == tess_project_hash(p));
  if (r) tess_project_destroy(r);
  tess_project_destroy(p);
}

/* True when another process sees a lock on SQLite's shared-lock bytes of
 * the file (which every connection in WAL mode holds while open). */
static bool other_process_sees_shared_lock(const char *path) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(path, O_RDWR);
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = 0x40000000 + 2; /* SQLite's SHARED_FIRST */
    fl.l_len = 510;              /* SHARED_SIZE */
    int locked = fd >= 0 && fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
    _exit(locked ? 0 : 1);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Opening the same project a second time in one process (a preview beside
 * the editor) must not drop the first connection's locks: closing any
 * descriptor of a file releases all of the process's POSIX locks on it. */
void second_open_keeps_first_locks(void) {
  char path[512];
  tess_test_path(path, sizeof path, "locks.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  TessStore *writer = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &writer, &err), &err);
  if (writer) {
    CHECK(other_process_sees_shared_lock(path));
    for (int i = 0; i < 3; i++) {
      TessStore *other = NULL;
      CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &other, &err), &err);
      if (other) tess_store_close(other);
      CHECK_MSG(other_process_sees_shared_lock(path), "open %d dropped the writer's lock", i);
    }
    tess_store_close(writer);
  }
  tess_project_destroy(p);
}
