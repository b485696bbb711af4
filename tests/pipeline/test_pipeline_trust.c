/* What no pipeline command may do, whatever it is given: write over one of
 * its inputs or over a project, write a .tlv its own reader refuses, report
 * success when its output was lost, send a name's control characters to the
 * terminal or invalid UTF-8 into JSON, or leave a killed export's temporary
 * files behind for ever. Each case runs tessera-pipeline as a user would,
 * on real files. */
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pipeline_run.h"
#include "tessera/image.h"
#include "tessera/store.h"
#include "tlv_reader.h"

static char out[65536], err[65536];

static int run2(const char *const *args) {
  PipelineRun how = {-1, 0, NULL};
  return pipeline_run_with(&how, args, out, sizeof out, err, sizeof err);
}

static bool same_bytes(const char *a, size_t an, const char *b, size_t bn) { return an == bn && memcmp(a, b, an) == 0; }

/* The project still opens and holds what it held, byte for byte. */
static void check_intact(const char *path, const char *before, size_t before_size) {
  size_t n = 0;
  char *now = slurp(path, &n);
  CHECK_MSG(now && same_bytes(now, n, before, before_size), "%s was changed", path);
  free(now);
  TessProject *p = load_project(path);
  tess_project_destroy(p);
}

static bool sql(const char *path, const char *statement) {
  sqlite3 *db = NULL;
  bool ok = sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, statement, NULL, NULL, NULL) == SQLITE_OK;
  if (!ok) fprintf(stderr, "sql on %s: %s\n", path, db ? sqlite3_errmsg(db) : "?");
  sqlite3_close(db);
  return ok;
}

static void outputs_never_overwrite_inputs(void) {
  char project[1024], dir[1024], link[1024], dotdot[2048], other[1024], png[1024];
  tess_test_path(project, sizeof project, "keep.tessera");
  tess_test_path(dir, sizeof dir, "keep-out");
  tess_test_path(link, sizeof link, "link.png");
  tess_test_path(other, sizeof other, "other.tessera");
  tess_test_path(png, sizeof png, "fine.png");
  TessProject *p = fixture(21, 2, 12);
  CHECK(p && save_project(p, project) && save_project(p, other));
  tess_project_destroy(p);
  mkdir(dir, 0755);
  snprintf(dotdot, sizeof dotdot, "%s/../keep.tessera", dir);
  CHECK(symlink(project, link) == 0);
  size_t size = 0, other_size = 0;
  char *before = slurp(project, &size), *other_before = slurp(other, &other_size);

  /* render -o the project itself, through "..", through a symlink. */
  const char *same[] = {"render", project, "--level", "Level 1", "-o", project, NULL};
  const char *up[] = {"render", project, "--level", "Level 1", "-o", dotdot, NULL};
  const char *via_link[] = {"render", project, "--level", "Level 1", "-o", link, NULL};
  const char *const *renders[] = {same, up, via_link};
  for (int i = 0; i < 3; i++) {
    CHECK_MSG(run2(renders[i]) == 1, "render -o %s: exit not 1", renders[i][5]);
    CHECK_MSG(strstr(err, renders[i][5]) && strstr(err, "same file as the input") && strstr(err, project), "%s", err);
    check_intact(project, before, size);
  }
  /* Another project is never overwritten either, input or not. */
  const char *over_other[] = {"render", project, "--level", "Level 1", "-o", other, NULL};
  CHECK(run2(over_other) == 1 && strstr(err, other) && strstr(err, "SQLite"));
  check_intact(other, other_before, other_size);
  /* The depfile: directly and through "..". */
  const char *dep[] = {"export", project, "-o", dir, "--depfile", project, NULL};
  const char *dep_up[] = {"export", project, "-o", dir, "--depfile", dotdot, NULL};
  CHECK(run2(dep) == 1 && strstr(err, "same file as the input"));
  check_intact(project, before, size);
  CHECK(run2(dep_up) == 1 && strstr(err, dotdot) && strstr(err, project));
  check_intact(project, before, size);
  /* A .tlv or the manifest that is the project (a symlink in the output folder). */
  char tlv_link[2048], manifest_link[2048];
  snprintf(tlv_link, sizeof tlv_link, "%s/Level_1.tlv", dir);
  snprintf(manifest_link, sizeof manifest_link, "%s/manifest.json", dir);
  CHECK(symlink(project, tlv_link) == 0);
  const char *exp[] = {"export", project, "-o", dir, "--json", NULL};
  CHECK(run2(exp) == 1);
  CHECK_MSG(strstr(out, "\"failed\": 1") && strstr(out, "same file as the input"), "%s", out);
  check_intact(project, before, size);
  unlink(tlv_link);
  unlink(manifest_link);
  CHECK(symlink(project, manifest_link) == 0);
  CHECK(run2(exp) == 1 && strstr(err, "manifest.json") && strstr(err, project));
  check_intact(project, before, size);
  unlink(manifest_link);
  /* A project where a level's file goes: refused as a project. */
  char squatter[2048];
  snprintf(squatter, sizeof squatter, "%s/Level_2.tlv", dir);
  CHECK(rename(other, squatter) == 0);
  CHECK(run2(exp) == 1 && strstr(out, "\"failed\": 1") && strstr(out, "SQLite"));
  check_intact(squatter, other_before, other_size);
  /* And the ordinary case still works. */
  unlink(squatter);
  CHECK(run2(exp) == 0 && strstr(out, "\"failed\": 0"));
  const char *fine[] = {"render", project, "--level", "Level 1", "-o", png, NULL};
  CHECK(run2(fine) == 0 && access(png, F_OK) == 0);
  CHECK(run2(fine) == 0); /* replacing its own earlier PNG is fine */
  free(before);
  free(other_before);
}

static bool manifest_lists(const char *dir, const char *file) {
  char path[2048];
  snprintf(path, sizeof path, "%s/manifest.json", dir);
  size_t n = 0;
  char *text = slurp(path, &n);
  bool found = text && strstr(text, file);
  free(text);
  return found;
}

/* A body of 2e12 px radius has an inertia that is not a finite float: the
 * reader refuses the .tlv, so export must refuse to write it. */
static void export_refuses_what_its_reader_refuses(void) {
  char project[1024], dir[1024], victim[2048];
  tess_test_path(project, sizeof project, "huge.tessera");
  tess_test_path(dir, sizeof dir, "huge-out");
  TessProject *p = fixture(22, 3, 12);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  /* Written into the file as another tool (or an older version) could have. */
  CHECK(sql(project,
            "UPDATE objects SET body_radius = 2e12, body_shape = 0 WHERE kind = 0 AND "
            "level_id = (SELECT id FROM levels WHERE name = 'Level 2')"));
  const char *exp[] = {"export", project, "-o", dir, "--json", NULL};
  CHECK(run2(exp) == 1);
  if (strstr(out, "\"exported\"")) {
    CHECK_MSG(strstr(out, "\"exported\": 2") && strstr(out, "\"failed\": 1"), "%s", out);
    CHECK_MSG(strstr(err, "FAILED Level 2") && strstr(err, "left out of manifest.json"), "%s", err);
  } else {
    CHECK_MSG(strstr(err, project), "a refusal names the project: %s", err); /* refused on load */
  }
  snprintf(victim, sizeof victim, "%s/Level_2.tlv", dir);
  CHECK_MSG(access(victim, F_OK) != 0, "%s was written", victim);
  CHECK(!manifest_lists(dir, "Level_2.tlv"));
  if (strstr(out, "\"exported\"")) CHECK(manifest_lists(dir, "Level_1.tlv") && manifest_lists(dir, "Level_3.tlv"));
}

static void failed_stdout_is_a_failure(void) {
  if (access("/dev/full", W_OK) != 0) {
    printf("  (no writable /dev/full: skipped)\n");
    return;
  }
  char project[1024], dir[1024], tlv[2048], png[1024];
  tess_test_path(project, sizeof project, "full.tessera");
  tess_test_path(dir, sizeof dir, "full-out");
  tess_test_path(png, sizeof png, "sprite.png");
  TessProject *p = fixture(23, 1, 10);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  const char *exp[] = {"export", project, "-o", dir, NULL};
  CHECK(run2(exp) == 0);
  snprintf(tlv, sizeof tlv, "%s/Level_1.tlv", dir);
  const char *info[] = {"info", tlv, NULL};
  const char *info_json[] = {"info", tlv, "--json", NULL};
  const char *export_json[] = {"export", project, "-o", dir, "--json", NULL};
  const char *validate[] = {"validate", project, NULL};
  const char *diff[] = {"diff", project, project, NULL};
  const char *const *cases[] = {info, info_json, export_json, validate, diff};
  PipelineRun full = {-1, 0, "/dev/full"}, fine = {-1, 0, NULL};
  for (int i = 0; i < 5; i++) {
    int ok = pipeline_run_with(&fine, cases[i], out, sizeof out, err, sizeof err);
    int lost = pipeline_run_with(&full, cases[i], NULL, 0, err, sizeof err);
    CHECK_MSG(lost == 1 && strstr(err, "stdout"), "%s %s > /dev/full: exit %d (%d when written): %s", cases[i][0],
              cases[i][2] ? cases[i][2] : "", lost, ok, err);
  }
}

/* JSON text: parses, and every string in it is valid UTF-8 (jansson checks). */
static bool valid_json(const char *text) {
  json_error_t jerr;
  json_t *doc = json_loads(text, 0, &jerr);
  if (!doc) fprintf(stderr, "not JSON (line %d: %s):\n%s\n", jerr.line, jerr.text, text);
  json_decref(doc);
  return doc != NULL;
}

static bool has_raw_control(const char *text) {
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    if ((*c < 0x20 && *c != '\n' && *c != '\t') || *c == 0x7F) return true;
    if (c[0] == 0xC2 && c[1] >= 0x80 && c[1] < 0xA0) return true; /* a C1 control */
  }
  return false;
}

static void names_are_escaped_everywhere(void) {
  char project[1024], dir[1024], path[2048];
  tess_test_path(project, sizeof project, "names.tessera");
  tess_test_path(dir, sizeof dir, "names-out");
  TessProject *p = fixture(24, 3, 10);
  static const char *names[] = {"\033[2J\033[31mred",
                                "csi\xc2\x9b"
                                "2J",
                                "bell\a\"quote\\"};
  for (uint32_t i = 0; p && i < 3; i++) {
    TessLevelSettings st = p->levels[i]->settings;
    snprintf(st.name, sizeof st.name, "%s", names[i]);
    TessError e;
    CHECK_OK(tess_edit_level_set(p, p->levels[i]->id, &st, 0, 0, &e), &e);
  }
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  const char *exp[] = {"export", project, "-o", dir, "--json", "--jobs", "1", NULL};
  CHECK(run2(exp) == 0);
  CHECK_MSG(!has_raw_control(err), "export's stderr: %s", err);
  CHECK(valid_json(out) && !has_raw_control(out));
  CHECK_MSG(strstr(err, "exported \\x1b[2J\\x1b[31mred") && strstr(err, "csi\\xc2\\x9b2J"), "%s", err);
  snprintf(path, sizeof path, "%s/manifest.json", dir);
  size_t n = 0;
  char *manifest = slurp(path, &n);
  CHECK(manifest && valid_json(manifest) && !has_raw_control(manifest));
  const char *val[] = {"validate", project, NULL};
  run2(val);
  CHECK_MSG(!has_raw_control(out) && !has_raw_control(err), "validate: %s %s", out, err);
  /* Back from JSON, the name is the name; info shows it from the .tlv, as text and as JSON. */
  json_t *doc = manifest ? json_loads(manifest, 0, NULL) : NULL;
  json_t *levels = json_object_get(doc, "levels");
  CHECK(json_array_size(levels) == 3);
  for (size_t i = 0; i < json_array_size(levels); i++) {
    json_t *level = json_array_get(levels, i);
    const char *name = json_string_value(json_object_get(level, "name"));
    CHECK_MSG(name && strcmp(name, names[i]) == 0, "name %zu", i);
    char tlv[2048];
    snprintf(tlv, sizeof tlv, "%s/%s", dir, json_string_value(json_object_get(level, "file")));
    const char *info[] = {"info", tlv, NULL};
    const char *info_json[] = {"info", tlv, "--json", NULL};
    CHECK_MSG(run2(info) == 0 && !has_raw_control(out) && strstr(out, "\\x"), "info %s: %s", tlv, out);
    CHECK_MSG(run2(info_json) == 0 && valid_json(out) && !has_raw_control(out), "info --json %s", tlv);
    json_t *about = json_loads(out, 0, NULL);
    name = json_string_value(json_object_get(json_object_get(about, "level"), "name"));
    CHECK_MSG(name && strcmp(name, names[i]) == 0, "info --json name %zu", i);
    json_decref(about);
  }
  json_decref(doc);
  free(manifest);
  /* A name that is not UTF-8 at all, put into the file behind the edit API's
   * back: either refused with a message, or every output stays valid. */
  CHECK(sql(project, "UPDATE levels SET name = CAST(X'4C76FF80C0AF2E2E' AS TEXT) WHERE position = 0"));
  int status = run2(exp);
  if (status == 0) {
    CHECK(valid_json(out) && !has_raw_control(err));
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    manifest = slurp(path, &n);
    CHECK(manifest && valid_json(manifest));
    free(manifest);
  } else {
    CHECK_MSG(status == 1 && strstr(err, project), "export of a non-UTF-8 name: exit %d: %s", status, err);
  }
  /* trace --json names its file: a path that is not UTF-8, with an escape, stays valid JSON. */
  char png[1024];
  tess_test_path(png, sizeof png, "odd\033[1m\xff.png");
  TessImage img;
  TessError ie;
  CHECK_OK(tess_image_create(8, 8, &img, &ie), &ie);
  memset(img.pixels, 255, (size_t)img.stride * 8);
  CHECK_OK(tess_png_save(tess_image_view(&img), png, &ie), &ie);
  tess_image_clear(&img);
  const char *trace[] = {"trace", png, "--json", NULL};
  CHECK_MSG(run2(trace) == 0 && valid_json(out) && !has_raw_control(out), "trace --json: %s", out);
  /* No file name that is not UTF-8 was made. */
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) CHECK_MSG(tess_utf8_valid(e->d_name), "file name %s is not UTF-8", e->d_name);
  if (d) closedir(d);
}

static void touch(const char *dir, const char *name) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f) fputs("partial", f);
  if (f) fclose(f);
}

static bool exists_in(const char *dir, const char *name) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat st;
  return lstat(path, &st) == 0;
}

static void stale_temporaries_are_removed(void) {
  char project[1024], dir[1024], outside[1024];
  tess_test_path(project, sizeof project, "stale.tessera");
  tess_test_path(dir, sizeof dir, "stale-out");
  tess_test_path(outside, sizeof outside, "outside.tlv.1-2.tmp");
  TessProject *p = fixture(25, 2, 10);
  CHECK(p && save_project(p, project));
  tess_project_destroy(p);
  mkdir(dir, 0755);
  /* What killed exports leave (the names their writers give), and what is not ours. */
  static const char *ours[] = {"Level_1.tlv.4a2f-1.tmp", "Big_009.tlv.46e0-c.tmp", "manifest.json.9e3779b9.tmp"};
  static const char *theirs[] = {"notes.tmp", "Level_1.tlv.tmp", "Level_1.tlv.zz-1.tmp", "manifest.json.tmp",
                                 "keep.txt", "Level_1.tlv.4a2f-1.tmp.bak", "manifest.json.12.tmp.old"};
  for (int i = 0; i < 3; i++) touch(dir, ours[i]);
  for (int i = 0; i < 7; i++) touch(dir, theirs[i]);
  touch(dir, "x");
  char link[2048];
  snprintf(link, sizeof link, "%s/linked.tlv.1-2.tmp", dir);
  touch(tess_test_tmpdir(), "outside.tlv.1-2.tmp");
  CHECK(symlink(outside, link) == 0);
  /* While another export runs in the folder (it holds the folder shared), nothing is removed. */
  int busy = open(dir, O_RDONLY | O_DIRECTORY);
  CHECK(busy >= 0 && flock(busy, LOCK_SH) == 0);
  const char *exp[] = {"export", project, "-o", dir, NULL};
  CHECK(run2(exp) == 0);
  for (int i = 0; i < 3; i++) CHECK_MSG(exists_in(dir, ours[i]), "%s removed under a running export", ours[i]);
  close(busy);
  /* Alone, the next export removes exactly its own leftovers. */
  CHECK(run2(exp) == 0);
  CHECK_MSG(strstr(err, "removed 3 temporary files"), "%s", err);
  for (int i = 0; i < 3; i++) CHECK_MSG(!exists_in(dir, ours[i]), "%s was left", ours[i]);
  for (int i = 0; i < 7; i++) CHECK_MSG(exists_in(dir, theirs[i]), "%s was removed", theirs[i]);
  CHECK(exists_in(dir, "linked.tlv.1-2.tmp") && access(outside, F_OK) == 0); /* a symlink is not ours */
  CHECK(exists_in(dir, "Level_1.tlv") && exists_in(dir, "manifest.json"));
}

int main(int argc, char **argv) {
  if (!pipeline_exe()) {
    fprintf(stderr, "TESS_PIPELINE is not set\n");
    return 1;
  }
  static const TessTestCase cases[] = {
      TEST(outputs_never_overwrite_inputs),
      TEST(export_refuses_what_its_reader_refuses),
      TEST(failed_stdout_is_a_failure),
      TEST(names_are_escaped_everywhere),
      TEST(stale_temporaries_are_removed),
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
