/* Hostile and inconsistent projects through validate, export, render and
 * info, run as a user would (child processes): the demo project edited with
 * SQL into every kind of bad value (NaN, infinities, negative and huge
 * sizes, a 16384 x 16384 level, names that are not UTF-8, missing and
 * replaced images, dangling references) and with bytes flipped anywhere in
 * the SQLite file. For every file and command: no signal, no sanitizer
 * report, a refusal always says why, and a project validate passes always
 * exports. Also the regressions of issue 11 one by one: a tileset whose PNG
 * is 1x1 (refused by load, never drawn out of bounds) and a .tlv whose
 * embedded tileset image is another size than its record says. The same
 * corpus goes through the editor's loader in tests/editor. */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "project_fixture.h"
#include "check.h"
#include "hostile_corpus.h"
#include "tessera/image.h"
#include "tessera/level.h"
#include "tessera/store.h"
#include "tlv_reseal.h"

static const char *pipeline_exe;

/* Runs the pipeline; stdout and stderr together into out. Exit status, or -signal. */
static int run(const char *const *args, char *out, size_t out_size) {
  char log[1024];
  tess_test_path(log, sizeof log, "output.txt");
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
    const char *argv[32];
    int n = 0;
    argv[n++] = pipeline_exe;
    for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
    argv[n] = NULL;
    execv(pipeline_exe, (char *const *)argv);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  FILE *f = fopen(log, "r");
  size_t n = f ? fread(out, 1, out_size - 1, f) : 0;
  out[n] = 0;
  if (f) fclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

/* The rules every command keeps on any input. Returns the exit status. */
static int run_checked(const char *what, const char *const *args) {
  static char out[65536];
  int status = run(args, out, sizeof out);
  CHECK_MSG(status >= 0, "%s: %s %s died of signal %d:\n%s", what, args[0], args[1], -status, out);
  CHECK_MSG(!strstr(out, "Sanitizer") && !strstr(out, "runtime error:"), "%s: %s %s: sanitizer report:\n%s", what,
            args[0], args[1], out);
  CHECK_MSG(status == 0 || status == 1, "%s: %s %s exit %d:\n%s", what, args[0], args[1], status, out);
  CHECK_MSG(status == 0 || strlen(out) > 10, "%s: %s %s refused without a message", what, args[0], args[1]);
  return status;
}

static void rm_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char path[2048];
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

/* validate, export (and each .tlv it wrote through info and render), render. */
static void run_all_commands(const char *what, const char *project) {
  char dir[1024], png[1024];
  tess_test_path(dir, sizeof dir, "out");
  tess_test_path(png, sizeof png, "render.png");
  rm_tree(dir);
  const char *validate[] = {"validate", project, NULL};
  const char *export[] = {"export", project, "-o", dir, "--jobs", "1", "--embed-images", NULL};
  /* A quarter scale: the cache's reduced tiles and the soft painter, in a tenth of the time. */
  const char *render[] = {"render", project, "--level", "Side", "-o", png, "--scale", "0.25", "--overlay",
                          "materials,collision,bodies", NULL};
  int v = run_checked(what, validate);
  int e = run_checked(what, export);
  CHECK_MSG(v != 0 || e == 0, "%s: validate passed but export failed", what);
  run_checked(what, render);
  DIR *d = opendir(dir);
  struct dirent *ent;
  char tlv[2048];
  while (d && (ent = readdir(d))) {
    size_t n = strlen(ent->d_name);
    if (n < 5 || strcmp(ent->d_name + n - 4, ".tlv") != 0) continue;
    snprintf(tlv, sizeof tlv, "%s/%s", dir, ent->d_name);
    const char *info[] = {"info", tlv, NULL};
    const char *draw[] = {"render", tlv, "-o", png, "--scale", "0.25", "--overlay", "materials,collision,bodies", NULL};
    run_checked(what, info);
    run_checked(what, draw);
  }
  if (d) closedir(d);
}

static bool demo_path(char *buf, size_t size) {
  const char *root = getenv("TESS_BUILD_ROOT");
  snprintf(buf, size, "%s/data/demo/demo.tessera", root ? root : ".");
  if (access(buf, R_OK) == 0) return true;
  printf("  (no demo project at %s: skipped)\n", buf);
  return false;
}

/* ---- the regressions of issue 11, item 1 ---------------------------------- */

static void one_pixel_tileset_is_refused_not_drawn(void) {
  char demo[1024], project[1024], out[16384];
  if (!demo_path(demo, sizeof demo)) return;
  tess_test_path(project, sizeof project, "one-pixel.tessera");
  CHECK(hostile_copy(demo, project));
  uint8_t *png = NULL;
  size_t size = 0;
  CHECK(hostile_png(1, 1, 0, &png, &size));
  CHECK(hostile_sql_blob(project, "UPDATE tilesets SET png = ?1 WHERE id = (SELECT min(id) FROM tilesets)", png, size));
  tess_free(png);
  const char *validate[] = {"validate", project, NULL};
  CHECK(run(validate, out, sizeof out) == 1);
  CHECK_MSG(strstr(out, "tileset") && strstr(out, "1x1") && strstr(out, "declares"), "%s", out);
  char target[1024];
  tess_test_path(target, sizeof target, "one-pixel.png");
  const char *render[] = {"render", project, "--level", "Side", "-o", target, NULL};
  CHECK(run(render, out, sizeof out) == 1);
  CHECK_MSG(strstr(out, "1x1") && strstr(out, "declares") && access(target, F_OK) != 0, "%s", out);
  run_all_commands("one-pixel tileset", project);
}

/* A .tlv whose embedded tileset PNG decodes to 1x1 while its record says
 * otherwise: info may call the structure valid, render must refuse it. */
static void tlv_with_a_replaced_embedded_image_is_refused(void) {
  char demo[1024], dir[1024], tlv[2048], out[16384], png_out[1024];
  if (!demo_path(demo, sizeof demo)) return;
  tess_test_path(dir, sizeof dir, "embed");
  tess_test_path(png_out, sizeof png_out, "embed.png");
  const char *export[] = {"export", demo, "-o", dir, "--embed-images", NULL};
  CHECK(run(export, out, sizeof out) == 0);
  snprintf(tlv, sizeof tlv, "%s/Side.tlv", dir);
  TessProject *p = tess_test_load_read_only(demo);
  if (!p || p->tileset_count == 0) {
    tess_project_destroy(p);
    return;
  }
  const TessTileset *ts = p->tilesets[0];
  size_t size = 0;
  uint8_t *data = hostile_read(tlv, &size);
  uint8_t *at = data ? memmem(data, size, ts->png, ts->png_size) : NULL;
  CHECK_MSG(at != NULL, "the tileset's PNG is not embedded in %s", tlv);
  uint8_t *small = NULL;
  size_t small_size = 0;
  /* A 1x1 PNG padded with a text chunk to the very same length. */
  CHECK(hostile_png(1, 1, ts->png_size, &small, &small_size) && small_size == ts->png_size);
  if (at && small && small_size == ts->png_size) {
    memcpy(at, small, small_size);
    tlv_reseal(data, size);
    CHECK(hostile_write(tlv, data, size));
    const char *render[] = {"render", tlv, "-o", png_out, NULL};
    int status = run(render, out, sizeof out);
    CHECK_MSG(status == 1 && strstr(out, "1x1") && strstr(out, "declares"), "exit %d: %s", status, out);
    const char *info[] = {"info", tlv, NULL};
    run_checked("replaced embedded image", info);
  }
  tess_free(small);
  free(data);
  tess_project_destroy(p);
}

/* ---- the torture corpus ---------------------------------------------------- */

static void sql_corpus_never_crashes_and_validate_implies_export(void) {
  char demo[1024];
  if (!demo_path(demo, sizeof demo)) return;
  size_t count = hostile_sql_count();
  for (size_t i = 0; i < count; i++) {
    char project[1024];
    const char *what = NULL;
    tess_test_path(project, sizeof project, "sql.tessera");
    CHECK(hostile_make_sql(demo, project, i, &what));
    run_all_commands(what, project);
  }
}

static void flipped_bytes_never_crash(void) {
  char demo[1024];
  if (!demo_path(demo, sizeof demo)) return;
  for (uint32_t i = 0; i < HOSTILE_FLIP_FILES; i++) {
    char project[1024], what[64];
    tess_test_path(project, sizeof project, "flipped.tessera");
    snprintf(what, sizeof what, "flipped bytes, seed %u", i);
    CHECK(hostile_make_flipped(demo, project, i));
    run_all_commands(what, project);
  }
}

int main(int argc, char **argv) {
  pipeline_exe = getenv("TESS_PIPELINE");
  if (!pipeline_exe) {
    fprintf(stderr, "TESS_PIPELINE is not set\n");
    return 1;
  }
  static const TessTestCase cases[] = {
      TEST(one_pixel_tileset_is_refused_not_drawn),
      TEST(tlv_with_a_replaced_embedded_image_is_refused),
      TEST(sql_corpus_never_crashes_and_validate_implies_export),
      TEST(flipped_bytes_never_crash),
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
