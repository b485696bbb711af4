#include "check.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

int tess_test_failures;

static char tmpdir[512];

static void remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (!d) {
    unlink(path);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char child[1024];
    snprintf(child, sizeof child, "%s/%s", path, e->d_name);
    struct stat st;
    if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
      remove_tree(child);
    else
      unlink(child);
  }
  closedir(d);
  rmdir(path);
}

const char *tess_test_tmpdir(void) {
  if (!tmpdir[0]) {
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/tessera-test-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
      perror("mkdtemp");
      exit(1);
    }
  }
  return tmpdir;
}

const char *tess_test_path(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s/%s", tess_test_tmpdir(), name);
  return buf;
}

int tess_test_run(int argc, char **argv, const TessTestCase *cases, size_t count) {
  const char *only = argc > 1 ? argv[1] : NULL;
  int ran = 0;
  for (size_t i = 0; i < count; i++) {
    if (only && strcmp(only, cases[i].name) != 0) continue;
    int before = tess_test_failures;
    int64_t live_before = tess_alloc_live_bytes();
    double t0 = tess_now_seconds();
    cases[i].fn();
    double t1 = tess_now_seconds();
    int64_t live_after = tess_alloc_live_bytes();
    if (live_after != live_before) {
      fprintf(stderr, "%s: leaked %lld bytes\n", cases[i].name, (long long)(live_after - live_before));
      tess_test_failures++;
    }
    printf("%s %s (%.3f s)\n", tess_test_failures == before ? "ok  " : "FAIL", cases[i].name, t1 - t0);
    fflush(stdout);
    ran++;
  }
  if (only && ran == 0) {
    fprintf(stderr, "no test named %s\n", only);
    return 2;
  }
  if (tess_alloc_live_bytes() != 0) {
    fprintf(stderr, "live bytes at exit: %lld\n", (long long)tess_alloc_live_bytes());
    tess_test_failures++;
  }
  if (tess_test_failures == 0 && tmpdir[0]) remove_tree(tmpdir);
  return tess_test_failures ? 1 : 0;
}

const char *tess_test_pipeline(void) {
  const char *p = getenv("TESS_PIPELINE");
  return p ? p : "tessera-pipeline";
}

int tess_test_system(const char *fmt, ...) {
  char cmd[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
