/* See pipeline_run.h. */
#include "pipeline_run.h"

#include "project_fixture.h"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pack_fixture.h"
#include "tessera/store.h"

const char *pipeline_exe(void) { return getenv("TESS_PIPELINE"); }

static void read_back(const char *path, char *buf, size_t size) {
  if (!buf || !size) return;
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, size - 1, f) : 0;
  buf[n] = 0;
  if (f) fclose(f);
}

int pipeline_run_with(const PipelineRun *how, const char *const *args, char *out, size_t out_size, char *err,
                      size_t err_size) {
  char out_path[1024], err_path[1024];
  tess_test_path(out_path, sizeof out_path, "stdout.txt");
  tess_test_path(err_path, sizeof err_path, "stderr.txt");
  const char *exe = pipeline_exe();
  pid_t pid = fork();
  if (pid == 0) {
    int fo = open(how->stdout_path ? how->stdout_path : out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fo, 1);
    dup2(fe, 2);
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
    if (how->uid != 0 && (setgroups(0, NULL) != 0 || setgid(how->uid) != 0 || setuid(how->uid) != 0)) _exit(126);
    /* LeakSanitizer aborts when it cannot read its suppressions file, which
     * another user may not reach (the source tree of a private clone): that
     * user's runs then go without the suppressions rather than fail. */
    const char *lsan = getenv("LSAN_OPTIONS"), *supp = lsan ? strstr(lsan, "suppressions=") : NULL;
    if (how->uid != 0 && supp) {
      char file[1024];
      snprintf(file, sizeof file, "%.*s", (int)strcspn(supp + 13, ":"), supp + 13);
      if (access(file, R_OK) != 0) unsetenv("LSAN_OPTIONS");
    }
    const char *argv[64];
    int n = 0;
    argv[n++] = exe;
    for (int i = 0; args[i] && n < 63; i++) argv[n++] = args[i];
    argv[n] = NULL;
    execv(exe, (char *const *)argv);
    _exit(127);
  }
  if (how->kill_after_us >= 0) {
    usleep((useconds_t)how->kill_after_us);
    kill(pid, SIGKILL);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  read_back(out_path, out, out_size);
  read_back(err_path, err, err_size);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

int pipeline_run(const char *const *args, char *out, size_t out_size) {
  PipelineRun how = {-1, 0, NULL};
  return pipeline_run_with(&how, args, out, out_size, NULL, 0);
}

char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  if (n < 0) {
    fclose(f);
    return NULL;
  }
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  *size = fread(buf, 1, (size_t)n, f);
  buf[*size] = 0;
  fclose(f);
  return buf;
}

TessProject *fixture(uint64_t seed, uint32_t levels, uint32_t side) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.levels = levels;
  spec.width = side;
  spec.height = side * 3 / 4;
  return pack_fixture_project(seed, &spec);
}

bool save_project(TessProject *p, const char *path) {
  TessStore *store = NULL;
  TessError err;
  unlink(path);
  TessResult r = tess_store_open(path, TESS_STORE_CREATE, &store, &err);
  if (r == TESS_OK) r = tess_store_save_all(store, p, &err);
  if (store) tess_store_close(store);
  CHECK_OK(r, &err);
  return r == TESS_OK;
}

TessProject *load_project(const char *path) { return tess_test_load_read_only(path); }
