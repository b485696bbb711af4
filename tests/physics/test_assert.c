/* Debug assertions on misuse (TESS_ASSERT): a call that changes a world
 * during its own step. In a forked child the misuse must abort with
 * SIGABRT and name the mistake on stderr when assertions are on (debug and
 * CI builds); with them off it returns TESS_ERR_LOCKED as documented. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tessera/physics.h"

typedef enum Misuse { STEP_INSIDE, CREATE_BODY_INSIDE } Misuse;

static TessResult misuse_result;

static void misuse(TessWorld *w, const TessContactEvent *ev, void *user) {
  (void)ev;
  TessError err;
  if (*(const Misuse *)user == STEP_INSIDE) {
    misuse_result = tess_world_step(w, 1.0f / 60.0f, &err);
  } else {
    TessBodyDef bd;
    tess_body_def_default(&bd);
    TessBodyId id;
    misuse_result = tess_body_create(w, &bd, &id, &err);
  }
}

/* A ball dropped on a static box: its first contact runs the callback. */
static void run_misuse(Misuse m) {
  TessWorldDef def;
  tess_world_def_default(&def);
  def.contact_begin_fn = misuse;
  def.callback_user = &m;
  TessWorld *w = NULL;
  TessError err;
  if (tess_world_create(&def, &w, &err) != TESS_OK) _exit(3);
  TessBodyDef bd;
  tess_body_def_default(&bd);
  bd.type = TESS_BODY_STATIC;
  bd.position = tess_v2(0, 2);
  TessBodyId ground, ball;
  tess_body_create(w, &bd, &ground, &err);
  tess_shape_create_box(w, ground, NULL, 5.0f, 0.5f, tess_v2(0, 0), 0.0f, NULL, &err);
  bd.type = TESS_BODY_DYNAMIC;
  bd.position = tess_v2(0, 0);
  tess_body_create(w, &bd, &ball, &err);
  tess_shape_create_circle(w, ball, NULL, tess_v2(0, 0), 0.5f, NULL, &err);
  misuse_result = TESS_OK;
  for (int i = 0; i < 120 && misuse_result == TESS_OK; i++) tess_world_step(w, 1.0f / 60.0f, &err);
  tess_world_destroy(w);
  _exit(misuse_result == TESS_ERR_LOCKED ? 0 : 4);
}

/* Forks, runs the misuse in the child with its stderr in a pipe. */
static void expect_abort(Misuse m, const char *words) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    run_misuse(m);
  }
  close(fds[1]);
  char buf[512] = {0};
  size_t got = 0;
  ssize_t n;
  while (got + 1 < sizeof buf && (n = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0) got += (size_t)n;
  close(fds[0]);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
#if TESS_ENABLE_ASSERT
  CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "status %d", status);
  CHECK_MSG(strstr(buf, "assertion failed") && strstr(buf, words), "%s", buf);
#else
  (void)words;
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
#endif
}

static void step_inside_a_step_asserts(void) { expect_abort(STEP_INSIDE, "tess_world_step called during a step"); }
static void body_created_inside_a_step_asserts(void) {
  expect_abort(CREATE_BODY_INSIDE, "tess_body_create called during a step");
}

TESS_TEST_MAIN(TEST(step_inside_a_step_asserts), TEST(body_created_inside_a_step_asserts))
