/* A project on read-only media or in a folder the user cannot write: read
 * in full (SQLite's immutable mode when the -shm cannot be made), refused
 * with a message when its -wal holds changes that cannot be replayed there,
 * and never read stale.
 *
 * Permissions do not stop root, so the reading happens in a child that runs
 * as an unprivileged user (nobody) when the test runs as root; as any other
 * user the folder's permissions are enough. The test is skipped (exit 77)
 * only when it runs as root and cannot become another user (a container
 * without CAP_SETUID). */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store_tests.h"

static uid_t reader_uid;   /* 0: the test is not root, read as ourselves */
static char root_dir[512]; /* a folder everyone can traverse */

/* Runs fn in a child as the reader; returns its exit status (0 = all checks
 * passed), 77 when it could not become the reader. */
static int as_reader(int (*fn)(const char *), const char *path) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (reader_uid && (setgroups(0, NULL) != 0 || setgid(reader_uid) != 0 || setuid(reader_uid) != 0)) _exit(77);
    _exit(fn(path));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A folder under root_dir holding a copy of the files named, then made
 * read-only (0555, files 0444). */
static void read_only_folder(char *dir, size_t size, const char *name, const char *src, const char *const *suffixes) {
  snprintf(dir, size, "%s/%s", root_dir, name);
  mkdir(dir, 0755);
  for (int i = 0; suffixes[i]; i++) {
    char from[1024], to[1024];
    snprintf(from, sizeof from, "%s%s", src, suffixes[i]);
    snprintf(to, sizeof to, "%s/p.tessera%s", dir, suffixes[i]);
    copy_file(from, to);
    chmod(to, 0444);
  }
  chmod(dir, 0555);
}

static uint64_t expected_hash[8];
static uint32_t expected_levels;

static uint64_t project_hash(const TessProject *p) {
  uint64_t h = p->level_count;
  for (uint32_t i = 0; i < p->level_count; i++) h = h * 31 + tess_level_content_hash(p, p->levels[i]);
  return h;
}

/* In the child: the project opens read-only, immutable, and loads whole;
 * writing is refused with a message. */
static int read_whole(const char *path) {
  TessStore *s = NULL;
  TessProject *p = NULL;
  TessError err;
  tess_error_clear(&err);
  TessResult r = tess_store_open(path, TESS_STORE_READ_ONLY, &s, &err);
  if (r == TESS_OK) r = tess_store_load(s, &p, &err);
  if (r != TESS_OK) {
    char msg[1400];
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "reader: %s\n", msg);
    return 1;
  }
  int bad = 0;
  if (!tess_store_immutable(s)) bad |= 2, fprintf(stderr, "reader: not opened immutable\n");
  if (project_hash(p) != expected_hash[0]) bad |= 4, fprintf(stderr, "reader: the project read differs\n");
  if (p->level_count != expected_levels) bad |= 8;
  tess_project_destroy(p);
  tess_store_close(s);
  TessStore *w = NULL;
  r = tess_store_open(path, TESS_STORE_READ_WRITE, &w, &err);
  if (r != TESS_ERR_READONLY || !strstr(err.detail, "p.tessera")) {
    fprintf(stderr, "reader: open for writing gave %s: %s\n", tess_result_string(r), err.detail);
    bad |= 16;
  }
  if (w) tess_store_close(w);
  /* Nothing was created beside it (no -wal, no -shm). */
  char side[1200];
  snprintf(side, sizeof side, "%s-shm", path);
  if (access(side, F_OK) == 0) bad |= 32;
  return bad;
}

/* In the child: refused with a message naming the log, or read with the log's changes; never stale. */
static int refused_or_current(const char *path) {
  TessStore *s = NULL;
  TessProject *p = NULL;
  TessError err;
  tess_error_clear(&err);
  TessResult r = tess_store_open(path, TESS_STORE_READ_ONLY, &s, &err);
  if (r == TESS_OK) r = tess_store_load(s, &p, &err);
  int status;
  if (r == TESS_OK) {
    status = project_hash(p) == expected_hash[1] ? 100 : 1; /* 100: read, with the log */
    if (status == 1) fprintf(stderr, "reader: read stale data (without the log's commits)\n");
  } else {
    status = r == TESS_ERR_READONLY && strstr(err.detail, "p.tessera-wal") && strstr(err.file, "p.tessera") ? 101 : 2;
    if (status == 2) fprintf(stderr, "reader: refused with %s: %s\n", tess_result_string(r), err.detail);
  }
  tess_project_destroy(p);
  if (s) tess_store_close(s);
  return status;
}

static bool setup(void) {
  reader_uid = 0;
  if (geteuid() == 0) {
    struct passwd *pw = getpwnam("nobody");
    reader_uid = pw ? pw->pw_uid : 65534;
  }
  snprintf(root_dir, sizeof root_dir, "/tmp/tessera-ro-XXXXXX");
  if (!mkdtemp(root_dir)) return false;
  chmod(root_dir, 0755);
  return true;
}

static int fails;

static void report(const char *what, int status, int want1, int want2) {
  if (status == want1 || status == want2) {
    printf("ok   %s\n", what);
  } else {
    printf("FAIL %s (child status %d)\n", what, status);
    fails++;
  }
}

int main(void) {
  if (!setup()) {
    fprintf(stderr, "cannot make a folder under /tmp: %s\n", strerror(errno));
    return 1;
  }
  char src[1024], dir[1024], path[1200];
  snprintf(src, sizeof src, "%s/src.tessera", root_dir);
  TessProject *p = tess_project_create();
  Sample ids;
  build_sample_project(p, &ids);
  create_and_flush(src, p);
  expected_hash[0] = project_hash(p);
  expected_levels = p->level_count;

  /* 1. A cleanly closed project (no -wal) in a read-only folder. */
  static const char *const main_only[] = {"", NULL};
  read_only_folder(dir, sizeof dir, "clean", src, main_only);
  snprintf(path, sizeof path, "%s/p.tessera", dir);
  int status = as_reader(read_whole, path);
  if (status == 77) {
    printf(
        "SKIP: running as root and cannot become user %u (setuid refused): no way to test without write "
        "permission\n",
        (unsigned)reader_uid);
    tess_project_destroy(p);
    return 77;
  }
  report("a cleanly closed project in a read-only folder reads whole, immutable", status, 0, 0);

  /* 2. A writer with commits still in its log: the file alone is stale. */
  TessStore *w = NULL;
  TessError err;
  CHECK_OK(tess_store_open(src, TESS_STORE_READ_WRITE, &w, &err), &err);
  TessLevelSettings st = p->levels[0]->settings;
  snprintf(st.name, sizeof st.name, "Renamed while the log holds it");
  CHECK_OK(tess_edit_level_set(p, p->levels[0]->id, &st, 0, 0, &err), &err);
  CHECK_OK(tess_store_flush(w, p, &err), &err);
  expected_hash[1] = project_hash(p);
  char wal[1100];
  snprintf(wal, sizeof wal, "%s-wal", src);
  struct stat ws;
  CHECK(stat(wal, &ws) == 0 && ws.st_size > 0);
  /* The file and its log, without the -shm (copied off a live disk, or the
   * -shm cannot be read): SQLite cannot replay the log here. */
  static const char *const with_wal[] = {"", "-wal", NULL};
  read_only_folder(dir, sizeof dir, "wal", src, with_wal);
  snprintf(path, sizeof path, "%s/p.tessera", dir);
  report("a project whose -wal cannot be replayed is refused, naming the log", as_reader(refused_or_current, path),
         101, 101);
  /* With its -shm too: read with the log's commits, or refused; never stale. */
  static const char *const with_shm[] = {"", "-wal", "-shm", NULL};
  read_only_folder(dir, sizeof dir, "shm", src, with_shm);
  snprintf(path, sizeof path, "%s/p.tessera", dir);
  report("a project with -wal and -shm is read current or refused", as_reader(refused_or_current, path), 100, 101);
  tess_store_close(w);
  tess_project_destroy(p);

  /* Leave nothing behind: the folders are made writable again and removed. */
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", root_dir, root_dir);
  if (fails == 0 && tess_test_failures == 0 && system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root_dir);
  return fails || tess_test_failures ? 1 : 0;
}
