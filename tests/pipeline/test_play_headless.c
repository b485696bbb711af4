/* pipeline/examples/play_headless: a .tlv loaded by the reader alone and
 * simulated for 600 steps gives the same world hash as the level simulated
 * from the project (scene from the level, as the editor's preview does). */
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "project_fixture.h"
#include "pack_fixture.h"
#include "tessera/pack.h"
#include "tessera/physics.h"
#include "tessera/scene.h"
#include "tessera/store.h"

static const char *example;

static uint64_t hash_from_project(const TessProject *p, const TessLevel *level, int steps) {
  TessScene *scene = NULL;
  TessWorld *world = NULL;
  TessError err;
  uint64_t h = 0;
  CHECK_OK(tess_scene_from_level(p, level, &scene, &err), &err);
  if (scene) CHECK_OK(tess_world_create_from_scene(scene, NULL, &world, NULL, &err), &err);
  float dt = 1.0f / level->settings.physics_hz;
  for (int i = 0; world && i < steps; i++) CHECK_OK(tess_world_step(world, dt, &err), &err);
  if (world) h = tess_world_hash(world);
  tess_world_destroy(world);
  tess_scene_destroy(scene);
  return h;
}

/* Runs the example on `path`; returns the hash it printed (0 on failure). */
static uint64_t hash_from_example(const char *path) {
  int fds[2];
  if (pipe(fds) != 0) return 0;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    unsetenv("DISPLAY");
    execl(example, example, path, "600", (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  char out[1024];
  size_t n = 0;
  ssize_t k;
  while (n < sizeof out - 1 && (k = read(fds[0], out + n, sizeof out - 1 - n)) > 0) n += (size_t)k;
  out[n] = 0;
  close(fds[0]);
  int status;
  waitpid(pid, &status, 0);
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "play_headless %s failed: %s", path, out);
  const char *at = strstr(out, "world hash ");
  uint64_t h = 0;
  if (at) sscanf(at + 11, "%" SCNx64, &h);
  return h;
}

static void check_project(const TessProject *p, const char *tag) {
  for (uint32_t i = 0; i < p->level_count; i++) {
    char path[1024], name[128];
    snprintf(name, sizeof name, "%s-%u.tlv", tag, i);
    tess_test_path(path, sizeof path, name);
    TessError err;
    CHECK_OK(tess_pack_write_file(p, p->levels[i], NULL, path, &err), &err);
    uint64_t game = hash_from_example(path), preview = hash_from_project(p, p->levels[i], 600);
    printf("  %s level '%s': game %016" PRIx64 ", preview %016" PRIx64 "\n", tag, p->levels[i]->settings.name, game, preview);
    CHECK(game != 0 && game == preview);
  }
}

static void demo_levels_simulate_alike(void) {
  const char *root = getenv("TESS_BUILD_ROOT");
  char demo[1024];
  snprintf(demo, sizeof demo, "%s/data/demo/demo.tessera", root ? root : ".");
  if (access(demo, R_OK) != 0) {
    printf("  (no demo project: skipped)\n");
    return;
  }
  TessProject *p = tess_test_load_read_only(demo);
  if (p) check_project(p, "demo");
  tess_project_destroy(p);
}

static void generated_levels_simulate_alike(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.levels = 2;
  spec.width = 48;
  spec.height = 32;
  TessProject *p = pack_fixture_project(31, &spec);
  CHECK(p != NULL);
  if (p) check_project(p, "generated");
  tess_project_destroy(p);
}

int main(int argc, char **argv) {
  example = getenv("TESS_PLAY_HEADLESS");
  if (!example) {
    fprintf(stderr, "TESS_PLAY_HEADLESS is not set\n");
    return 1;
  }
  static const TessTestCase cases[] = {TEST(demo_levels_simulate_alike), TEST(generated_levels_simulate_alike)};
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
