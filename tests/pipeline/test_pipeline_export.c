/* tessera-pipeline export, info and validate on real files, run as a
 * user would run them (a child process, DISPLAY unset): deterministic
 * across --jobs, incremental, atomic under SIGKILL, safe file names, exit
 * codes, and .tlv files that read back as the project's levels. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "pack_check.h"
#include "pack_fixture.h"
#include "tessera/image.h"
#include "tessera/pack.h"
#include "tessera/store.h"
#include "tlv_reader.h"

#include "pipeline_run.h"

static int run_full(const char *const *args, char *out, size_t out_size, int kill_after_us) {
  PipelineRun how = {kill_after_us, 0, NULL};
  return pipeline_run_with(&how, args, out, out_size, NULL, 0);
}

static int run(const char *const *args, char *out, size_t out_size) { return pipeline_run(args, out, out_size); }

/* Every .tlv in dir validates; returns how many there are. */
static int all_tlv_valid(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 4, ".tlv") != 0) continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    size_t size = 0;
    char *data = slurp(path, &size);
    TlvLevel lv;
    TlvError err;
    CHECK_MSG(data && tlv_open(data, size, 0, &lv, &err) == TLV_OK, "%s does not validate", path);
    free(data);
    n++;
  }
  closedir(d);
  return n;
}

static bool same_file(const char *a, const char *b) {
  size_t na = 0, nb = 0;
  char *x = slurp(a, &na), *y = slurp(b, &nb);
  bool same = x && y && na == nb && memcmp(x, y, na) == 0;
  free(x);
  free(y);
  return same;
}

/* Each level reads back as the level it came from. */
static void check_export_dir(const char *project_path, const char *dir) {
  TessProject *p = load_project(project_path);
  if (!p) return;
  size_t msize = 0;
  char mpath[2048];
  snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
  char *manifest = slurp(mpath, &msize);
  CHECK(manifest != NULL);
  for (uint32_t i = 0; i < p->level_count; i++) {
    char needle[256];
    snprintf(needle, sizeof needle, "\"id\": %u, \"file\": \"", p->levels[i]->id);
    const char *at = manifest ? strstr(manifest, needle) : NULL;
    CHECK_MSG(at != NULL, "level %u missing from the manifest", p->levels[i]->id);
    if (!at) continue;
    at += strlen(needle);
    char file[512];
    size_t k = 0;
    while (at[k] && at[k] != '"' && k < sizeof file - 1) file[k] = at[k], k++;
    file[k] = 0;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t size = 0;
    char *data = slurp(path, &size);
    TlvLevel lv;
    TlvError err;
    CHECK_MSG(data && tlv_open(data, size, 0, &lv, &err) == TLV_OK, "%s", path);
    if (data && lv.size) {
      pack_check_level(p, p->levels[i], &lv);
      CHECK(lv.header.content_hash == tess_pack_content_hash(p, p->levels[i], NULL));
    }
    free(data);
  }
  free(manifest);
  tess_project_destroy(p);
}

static void export_is_identical_across_jobs(void) {
  char project[1024], d1[1024], d2[1024], d8[1024];
  tess_test_path(project, sizeof project, "jobs.tessera");
  TessProject *p = fixture(5, 7, 40);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  tess_test_path(d1, sizeof d1, "jobs1");
  tess_test_path(d2, sizeof d2, "jobs2");
  tess_test_path(d8, sizeof d8, "jobs8");
  const char *a1[] = {"export", project, "-o", d1, "--jobs", "1", NULL};
  const char *a2[] = {"export", project, "-o", d2, "--jobs", "2", NULL};
  const char *a8[] = {"export", project, "-o", d8, "--jobs", "8", NULL};
  CHECK(run(a1, NULL, 0) == 0);
  CHECK(run(a2, NULL, 0) == 0);
  CHECK(run(a8, NULL, 0) == 0);
  CHECK(all_tlv_valid(d1) == 7);
  DIR *d = opendir(d1);
  struct dirent *e;
  int compared = 0;
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char x[2048], y[2048], z[2048];
    snprintf(x, sizeof x, "%s/%s", d1, e->d_name);
    snprintf(y, sizeof y, "%s/%s", d2, e->d_name);
    snprintf(z, sizeof z, "%s/%s", d8, e->d_name);
    CHECK_MSG(same_file(x, y) && same_file(x, z), "%s differs between --jobs 1, 2 and 8", e->d_name);
    compared++;
  }
  if (d) closedir(d);
  CHECK(compared == 8); /* 7 levels + manifest.json */
  check_export_dir(project, d1);
}

static void export_is_incremental(void) {
  char project[1024], dir[1024], out[8192];
  tess_test_path(project, sizeof project, "incr.tessera");
  tess_test_path(dir, sizeof dir, "incr");
  TessProject *p = fixture(6, 4, 24);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  const char *args[] = {"export", project, "-o", dir, "--json", NULL};
  CHECK(run(args, out, sizeof out) == 0);
  CHECK_MSG(strstr(out, "\"exported\": 4") && strstr(out, "\"up_to_date\": 0"), "%s", out);
  CHECK(run(args, out, sizeof out) == 0);
  CHECK_MSG(strstr(out, "\"exported\": 0") && strstr(out, "\"up_to_date\": 4"), "%s", out);
  /* Change one level in the project file: only that level is written again. */
  TessStore *store = NULL;
  TessProject *q = NULL;
  TessError err;
  CHECK_OK(tess_store_open(project, TESS_STORE_READ_WRITE, &store, &err), &err);
  CHECK_OK(tess_store_load(store, &q, &err), &err);
  if (q) {
    TessLevel *level = q->levels[2];
    CHECK_OK(tess_edit_paint_material(q, level->id, 1, 1, 2, 2, q->materials[1].id, 0, &err), &err);
    CHECK_OK(tess_store_flush(store, q, &err), &err);
    tess_project_destroy(q);
  }
  tess_store_close(store);
  CHECK(run(args, out, sizeof out) == 0);
  CHECK_MSG(strstr(out, "\"exported\": 1") && strstr(out, "\"up_to_date\": 3"), "%s", out);
  const char *force[] = {"export", project, "-o", dir, "--json", "--force", NULL};
  CHECK(run(force, out, sizeof out) == 0);
  CHECK_MSG(strstr(out, "\"exported\": 4"), "%s", out);
  /* A damaged output is not "up to date". */
  char victim[2048];
  snprintf(victim, sizeof victim, "%s/Level_1.tlv", dir);
  FILE *f = fopen(victim, "r+b");
  CHECK(f != NULL);
  if (f) {
    fseek(f, 200, SEEK_SET);
    fputc(0x5A, f);
    fclose(f);
  }
  CHECK(run(args, out, sizeof out) == 0);
  CHECK_MSG(strstr(out, "\"exported\": 1"), "%s", out);
  check_export_dir(project, dir);
  /* --level picks levels by name; the manifest still lists every current file. */
  const char *one[] = {"export", project, "-o", dir, "--json", "--force", "--level", "Level 2", NULL};
  CHECK(run(one, out, sizeof out) == 0);
  CHECK_MSG(strstr(out, "\"exported\": 1") && strstr(out, "Level_2.tlv"), "%s", out);
  char mpath[2048];
  size_t n = 0;
  snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
  char *manifest = slurp(mpath, &n);
  CHECK(manifest && strstr(manifest, "Level_4.tlv") && strstr(manifest, "\"content_hash\": \""));
  free(manifest);
}

static void level_names_become_safe_file_names(void) {
  char project[1024], dir[1024];
  tess_test_path(project, sizeof project, "names.tessera");
  tess_test_path(dir, sizeof dir, "names");
  TessProject *p = fixture(8, 7, 10);
  static const char *names[] = {"../../escape", "a/b\\c", "con", "tab\there", "Same", "same", ".hidden"};
  for (uint32_t i = 0; p && i < 7; i++) {
    TessLevelSettings st = p->levels[i]->settings;
    snprintf(st.name, sizeof st.name, "%s", names[i]);
    TessError err;
    CHECK_OK(tess_edit_level_set(p, p->levels[i]->id, &st, 0, 0, &err), &err);
  }
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  const char *args[] = {"export", project, "-o", dir, NULL};
  CHECK(run(args, NULL, 0) == 0);
  CHECK(all_tlv_valid(dir) == 7);
  DIR *d = opendir(dir);
  struct dirent *e;
  int files = 0;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    files++;
    CHECK_MSG(e->d_name[0] != '.', "hidden output %s", e->d_name);
    for (const char *c = e->d_name; *c; c++) CHECK_MSG((unsigned char)*c >= 0x20 && *c != '\\', "bad byte in %s", e->d_name);
  }
  if (d) closedir(d);
  CHECK(files == 8);
  char parent[1024];
  tess_test_path(parent, sizeof parent, "escape.tlv");
  CHECK(access(parent, F_OK) != 0);
  char con[2048];
  snprintf(con, sizeof con, "%s/_con.tlv", dir);
  CHECK(access(con, F_OK) == 0);
  check_export_dir(project, dir);
}

static void sigkill_never_leaves_a_partial_tlv(void) {
  char project[1024], dir[1024];
  tess_test_path(project, sizeof project, "kill.tessera");
  tess_test_path(dir, sizeof dir, "kill");
  TessProject *p = fixture(9, 12, 160);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  TessTestRng rng = {4242};
  int killed = 0;
  for (int round = 0; round < 12; round++) {
    const char *args[] = {"export", project, "-o", dir, "--force", "--jobs", round % 2 ? "2" : "1", NULL};
    int status = run_full(args, NULL, 0, (int)tess_rng_below(&rng, 250000));
    killed += status == -SIGKILL;
    all_tlv_valid(dir);
  }
  printf("  killed %d of 12 exports mid-way\n", killed);
  CHECK(killed > 0);
  const char *args[] = {"export", project, "-o", dir, NULL};
  CHECK(run(args, NULL, 0) == 0);
  CHECK(all_tlv_valid(dir) == 12);
}

static void a_failing_level_does_not_stop_the_others(void) {
  char project[1024], dir[1024], blocker[2048], out[8192];
  tess_test_path(project, sizeof project, "fail.tessera");
  tess_test_path(dir, sizeof dir, "fail");
  TessProject *p = fixture(10, 3, 12);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  mkdir(dir, 0755);
  snprintf(blocker, sizeof blocker, "%s/Level_2.tlv", dir);
  mkdir(blocker, 0755); /* a directory where the file should go: the rename fails */
  const char *args[] = {"export", project, "-o", dir, "--json", NULL};
  CHECK(run(args, out, sizeof out) == 1);
  CHECK_MSG(strstr(out, "\"exported\": 2") && strstr(out, "\"failed\": 1") && strstr(out, "\"error\""), "%s", out);
  CHECK(all_tlv_valid(dir) == 2);
  rmdir(blocker);
}

static void usage_errors_and_help(void) {
  char project[1024], dir[1024], out[8192];
  tess_test_path(project, sizeof project, "usage.tessera");
  tess_test_path(dir, sizeof dir, "usage");
  TessProject *p = fixture(11, 1, 8);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  const char *none[] = {"export", NULL};
  const char *bad_opt[] = {"export", project, "--frobnicate", NULL};
  const char *bad_jobs[] = {"export", project, "--jobs", "0", NULL};
  const char *bad_jobs2[] = {"export", project, "--jobs", "two", NULL};
  const char *no_level[] = {"export", project, "-o", dir, "--level", "Nope", NULL};
  const char *missing[] = {"export", "/nonexistent/x.tessera", "-o", dir, NULL};
  const char *help[] = {"export", "--help", NULL};
  const char *version[] = {"--version", NULL};
  CHECK(run(none, NULL, 0) == 2);
  CHECK(run(bad_opt, NULL, 0) == 2);
  CHECK(run(bad_jobs, NULL, 0) == 2);
  CHECK(run(bad_jobs2, NULL, 0) == 2);
  CHECK(run(no_level, NULL, 0) == 2);
  CHECK(run(missing, NULL, 0) == 1);
  CHECK(run(help, out, sizeof out) == 0 && strstr(out, "--jobs"));
  CHECK(run(version, out, sizeof out) == 0 && strstr(out, "tessera-pipeline"));
  const char *export_version[] = {"export", "--version", NULL};
  char format_line[64];
  snprintf(format_line, sizeof format_line, "packed level format %u.%u", TLV_VERSION_MAJOR, TLV_VERSION_MINOR);
  CHECK(run(export_version, out, sizeof out) == 0 && strstr(out, format_line));
  /* depfile: the manifest depends on the project. */
  char dep[1024];
  tess_test_path(dep, sizeof dep, "export.d");
  const char *with_dep[] = {"export", project, "-o", dir, "--depfile", dep, NULL};
  CHECK(run(with_dep, NULL, 0) == 0);
  size_t n = 0;
  char *text = slurp(dep, &n);
  CHECK(text && strstr(text, "manifest.json: ") && strstr(text, "usage.tessera"));
  free(text);
}

static void info_describes_and_validates(void) {
  char project[1024], dir[1024], path[2048], out[16384];
  tess_test_path(project, sizeof project, "info.tessera");
  tess_test_path(dir, sizeof dir, "info");
  TessProject *p = fixture(12, 1, 16);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  const char *args[] = {"export", project, "-o", dir, NULL};
  CHECK(run(args, NULL, 0) == 0);
  snprintf(path, sizeof path, "%s/Level_1.tlv", dir);
  const char *info[] = {"info", path, NULL};
  CHECK(run(info, out, sizeof out) == 0);
  CHECK_MSG(strstr(out, "valid: yes") && strstr(out, "BODY") && strstr(out, "16 x 12 cells"), "%s", out);
  const char *json[] = {"info", path, "--json", NULL};
  CHECK(run(json, out, sizeof out) == 0 && strstr(out, "\"valid\": true"));
  FILE *f = fopen(path, "r+b");
  fseek(f, 1000, SEEK_SET);
  fputc(0xEE, f);
  fclose(f);
  CHECK(run(info, out, sizeof out) == 1 && strstr(out, "valid: no"));
}

static void validate_reports_level_problems(void) {
  char project[1024], out[16384];
  tess_test_path(project, sizeof project, "problems.tessera");
  TessProject *p = tess_project_create();
  TessError err;
  TessMaterial m;
  TessId stone, unused, level, sprite;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "Stone");
  CHECK_OK(tess_edit_material_add(p, &m, &stone, &err), &err);
  snprintf(m.name, sizeof m.name, "Gold");
  CHECK_OK(tess_edit_material_add(p, &m, &unused, &err), &err);
  TessSprite s;
  memset(&s, 0, sizeof s);
  snprintf(s.name, sizeof s.name, "ghost");
  s.image_w = s.image_h = 8;
  s.frame_count = 1;
  tess_sprite_mask_default(&s.mask);
  CHECK_OK(tess_edit_sprite_add(p, &s, &sprite, &err), &err);
  TessLevelSettings st;
  tess_level_settings_default(&st);
  snprintf(st.name, sizeof st.name, "Cave");
  st.width = 10;
  st.height = 10;
  CHECK_OK(tess_edit_level_add(p, &st, &level, &err), &err);
  CHECK_OK(tess_edit_paint_material(p, level, 0, 5, 10, 5, stone, 0, &err), &err);
  TessLevel *lv = tess_project_level(p, level);
  TessId objects = 0;
  for (uint32_t i = 0; i < lv->layer_count; i++)
    if (lv->layers[i]->props.kind == TESS_LAYER_OBJECTS) objects = lv->layers[i]->props.id;
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "buried");
  o.pos = tess_v2(3 * 32 + 16, 7 * 32 + 16);
  TessId body;
  CHECK_OK(tess_edit_object_add(p, level, objects, &o, &body, &err), &err);
  /* A joint whose second body is later deleted (the edit API refuses to
   * make one directly; a project written by an older version may have one). */
  TessId doomed;
  o.pos = tess_v2(40, 40);
  snprintf(o.name, sizeof o.name, "doomed");
  CHECK_OK(tess_edit_object_add(p, level, objects, &o, &doomed, &err), &err);
  tess_object_default(&o, TESS_OBJECT_JOINT);
  snprintf(o.name, sizeof o.name, "dangling");
  o.u.joint.body_a = body;
  o.u.joint.body_b = doomed;
  CHECK_OK(tess_edit_object_add(p, level, objects, &o, NULL, &err), &err);
  CHECK_OK(tess_edit_object_remove(p, level, doomed, &err), &err);
  if (!tess_level_object(lv, 0, NULL)) {
    /* Removal kept the joint consistent: put one in as a file load would. */
    bool have = false;
    for (uint32_t i = 0; i < lv->layer_count; i++)
      for (uint32_t k = 0; k < lv->layers[i]->object_count; k++)
        have = have || lv->layers[i]->objects[k].kind == TESS_OBJECT_JOINT;
    if (!have) {
      TessLayer *layer = tess_level_layer(lv, objects);
      o.id = 9000;
      CHECK_OK(tess_layer_insert_object(p, layer, &o, &err), &err);
    }
  }
  CHECK(save_project(p, project));
  tess_project_destroy(p);
  const char *args[] = {"validate", project, NULL};
  CHECK(run(args, out, sizeof out) == 1);
  CHECK_MSG(strstr(out, "body 'buried'") && strstr(out, "inside the solid cell (3, 7)"), "%s", out);
  CHECK_MSG(strstr(out, "joint 'dangling'") && strstr(out, "does not exist"), "%s", out);
  CHECK_MSG(strstr(out, "sprite 'ghost'") && strstr(out, "no collision mask"), "%s", out);
  CHECK_MSG(strstr(out, "material 'Gold'") && strstr(out, "not used") && !strstr(out, "material 'Stone'"), "%s", out);
  int lines = 0;
  for (const char *c = out; *c; c++) lines += *c == '\n';
  CHECK_MSG(lines == 4, "%d lines: %s", lines, out);
}

static void demo_project_exports_and_reads_back(void) {
  const char *root = getenv("TESS_BUILD_ROOT");
  char demo[1024], dir[1024];
  snprintf(demo, sizeof demo, "%s/data/demo/demo.tessera", root ? root : ".");
  if (access(demo, R_OK) != 0) {
    printf("  (no demo project at %s: skipped)\n", demo);
    return;
  }
  tess_test_path(dir, sizeof dir, "demo");
  const char *args[] = {"export", demo, "-o", dir, NULL};
  CHECK(run(args, NULL, 0) == 0);
  CHECK(all_tlv_valid(dir) >= 1);
  check_export_dir(demo, dir);
  const char *val[] = {"validate", demo, NULL};
  char out[8192];
  int status = run(val, out, sizeof out);
  CHECK_MSG(status == 0 || status == 1, "validate exit %d", status);
}

/* On a terminal the export draws a progress bar (redrawn in place) instead
 * of one line per level. util-linux `script` gives the child a terminal. */
static void progress_bar_on_a_terminal(void) {
  if (access("/usr/bin/script", X_OK) != 0) {
    printf("  (no /usr/bin/script: skipped)\n");
    return;
  }
  char project[1024], dir[1024], cmd[4096], log[1024];
  tess_test_path(project, sizeof project, "tty.tessera");
  tess_test_path(dir, sizeof dir, "tty");
  tess_test_path(log, sizeof log, "tty.log");
  TessProject *p = fixture(14, 3, 16);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  snprintf(cmd, sizeof cmd, "script -qec '%s export %s -o %s --jobs 1' %s > /dev/null 2>&1", pipeline_exe(), project, dir, log);
  CHECK(system(cmd) == 0);
  size_t n = 0;
  char *text = slurp(log, &n);
  CHECK_MSG(text && strstr(text, "\r\033[K[") && strstr(text, "3/3") && strstr(text, "ETA") && !strstr(text, "exported Level"),
            "%s", text ? text : "(no log)");
  CHECK(text && strstr(text, "3 exported, 0 up to date, 0 failed"));
  free(text);
  /* Not a terminal: one line per level. */
  char out[4096];
  const char *args[] = {"export", project, "-o", dir, "--force", NULL};
  CHECK(run(args, out, sizeof out) == 0);
  char err_path[1024];
  tess_test_path(err_path, sizeof err_path, "stderr.txt");
  text = slurp(err_path, &n);
  CHECK(text && strstr(text, "exported Level 1 -> ") && strstr(text, "exported Level 3 -> ") && !strstr(text, "\033[K"));
  free(text);
}

static void render_draws_projects_and_tlv_files(void) {
  char project[1024], dir[1024], png[1024], tlv[2048];
  tess_test_path(project, sizeof project, "render.tessera");
  tess_test_path(dir, sizeof dir, "render");
  tess_test_path(png, sizeof png, "level.png");
  TessProject *p = fixture(13, 2, 20);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  const char *from_project[] = {"render", project, "--level", "Level 2", "-o", png, "--overlay", "materials,collision,bodies", NULL};
  CHECK(run(from_project, NULL, 0) == 0);
  TessImage img;
  TessError err;
  CHECK_OK(tess_png_load(png, &img, &err), &err);
  CHECK(img.width == 20 * 16 && img.height == 15 * 16);
  tess_image_clear(&img);
  const char *exp[] = {"export", project, "-o", dir, NULL};
  CHECK(run(exp, NULL, 0) == 0);
  snprintf(tlv, sizeof tlv, "%s/Level_1.tlv", dir);
  const char *from_tlv[] = {"render", tlv, "-o", png, "--overlay", "collision", "--scale", "0.5", NULL};
  CHECK(run(from_tlv, NULL, 0) == 0);
  CHECK_OK(tess_png_load(png, &img, &err), &err);
  CHECK(img.width == 10 * 16 && img.height == 15 * 8);
  tess_image_clear(&img);
  const char *ambiguous[] = {"render", project, "-o", png, NULL};
  const char *bad_overlay[] = {"render", tlv, "-o", png, "--overlay", "sparkles", NULL};
  const char *no_out[] = {"render", tlv, NULL};
  CHECK(run(ambiguous, NULL, 0) == 2);
  CHECK(run(bad_overlay, NULL, 0) == 2);
  CHECK(run(no_out, NULL, 0) == 2);
}

int main(int argc, char **argv) {
  if (!pipeline_exe()) {
    fprintf(stderr, "TESS_PIPELINE is not set\n");
    return 1;
  }
  static const TessTestCase cases[] = {
      TEST(export_is_identical_across_jobs),
      TEST(export_is_incremental),
      TEST(level_names_become_safe_file_names),
      TEST(sigkill_never_leaves_a_partial_tlv),
      TEST(a_failing_level_does_not_stop_the_others),
      TEST(usage_errors_and_help),
      TEST(info_describes_and_validates),
      TEST(validate_reports_level_problems),
      TEST(demo_project_exports_and_reads_back),
      TEST(render_draws_projects_and_tlv_files),
      TEST(progress_bar_on_a_terminal),
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
