/* What the pipeline's CLI tests share: running tessera-pipeline as a user
 * would (a child process, no display), reading files whole, and projects
 * made from the pack fixture and written through the store. */
#ifndef TESS_TEST_PIPELINE_RUN_H
#define TESS_TEST_PIPELINE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tessera/level.h"

/* $TESS_PIPELINE (the tests' environment); NULL when unset. */
const char *pipeline_exe(void);

typedef struct PipelineRun {
  int kill_after_us;       /* >= 0: SIGKILL the child after this long */
  uid_t uid;               /* != 0: run as this user and group (the caller is root) */
  const char *stdout_path; /* NULL: tmpdir/stdout.txt; "/dev/full" tests a failed write */
} PipelineRun;

/* Runs the pipeline with args (NULL-terminated, without the program), no
 * DISPLAY or WAYLAND_DISPLAY; stdout and stderr go to tmpdir/stdout.txt and
 * stderr.txt (read back into out / err when given). Returns the exit status,
 * or -signal; 126 when the child could not become `uid`. */
int pipeline_run_with(const PipelineRun *how, const char *const *args, char *out, size_t out_size, char *err,
                      size_t err_size);
int pipeline_run(const char *const *args, char *out, size_t out_size);
/* The whole file, NUL-terminated (malloc), or NULL. */
char *slurp(const char *path, size_t *size);
/* A project of `levels` random levels of side x side*3/4 cells. */
TessProject *fixture(uint64_t seed, uint32_t levels, uint32_t side);
/* Writes p into a new file at path (an old one is removed); false after a failed CHECK. */
bool save_project(TessProject *p, const char *path);
/* Opens path read-only and loads it; NULL after a failed CHECK. */
TessProject *load_project(const char *path);

#endif
