/* Death tests for TESS_ASSERT (programmer mistakes: a stale handle, a call
 * during a locked step, an index past the end). `misuse` runs in a forked
 * child with its stderr in a pipe. With assertions on (debug and CI builds)
 * the child must die of SIGABRT and print "assertion failed" and `words`;
 * with them off (-Db_ndebug=true) the call goes on to its documented answer,
 * and `misuse` returns true when it saw exactly that answer. Header-only. */
#ifndef TESS_TEST_DEATH_H
#define TESS_TEST_DEATH_H

#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static inline void expect_assert(bool (*misuse)(void), const char *words) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    _exit(misuse() ? 0 : 4);
  }
  close(fds[1]);
  char buf[1024] = {0};
  size_t got = 0;
  ssize_t n;
  while (got + 1 < sizeof buf && (n = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0) got += (size_t)n;
  close(fds[0]);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
#if TESS_ENABLE_ASSERT
  CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "status %d: %s", status, buf);
  CHECK_MSG(strstr(buf, "assertion failed") && strstr(buf, words), "%s", buf);
#else
  (void)words;
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d: %s", status, buf);
#endif
}

#endif
