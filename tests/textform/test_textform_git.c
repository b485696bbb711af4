/* The text form with the command line and real git: two branches that edit
 * different levels, non-adjacent rows of one layer and add different
 * objects merge with git's ordinary merge and load into a project holding
 * both; copies loaded with the same counters collide and load refuses the
 * conflict; load writes nothing on bad input and replaces only with
 * --force; `git diff` on a .tessera shows the words through the driver. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "project_fixture.h"
#include "textform_util.h"
#include "tessera/store.h"
#include "tessera/textform.h"

static const char *demo_path(char *buf, size_t size) {
  const char *root = getenv("TESS_BUILD_ROOT");
  snprintf(buf, size, "%s/data/demo/demo.tessera", root ? root : "build");
  return buf;
}

/* git with no user configuration of this machine. */
static void git_env(void) {
  setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
  setenv("HOME", tess_test_tmpdir(), 1);
  setenv("GIT_AUTHOR_NAME", "Tess", 1);
  setenv("GIT_AUTHOR_EMAIL", "tess@example.org", 1);
  setenv("GIT_COMMITTER_NAME", "Tess", 1);
  setenv("GIT_COMMITTER_EMAIL", "tess@example.org", 1);
}

static TessProject *open_rw(const char *path, TessStore **store) {
  TessError err;
  TessProject *p = NULL;
  *store = NULL;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, store, &err), &err);
  if (*store) CHECK_OK(tess_store_load(*store, &p, &err), &err);
  return p;
}

static void save_close(TessStore *store, TessProject *p) {
  TessError err;
  if (store && p) CHECK_OK(tess_store_flush(store, p, &err), &err);
  if (store) tess_store_close(store);
  tess_project_destroy(p);
}

static TessProject *read_only(const char *path) { return tess_test_load_read_only(path); }

typedef struct Lines {
  char text[8192];
  size_t len;
} Lines;

static void collect(const char *line, void *user) {
  Lines *l = user;
  int n = snprintf(l->text + l->len, sizeof l->text - l->len, "%s\n", line);
  if (n > 0 && l->len + (size_t)n < sizeof l->text) l->len += (size_t)n;
}

static TessLayer *layer_named(TessLevel *level, const char *name) {
  for (uint32_t i = 0; level && i < level->layer_count; i++)
    if (!strcmp(level->layers[i]->props.name, name)) return level->layers[i];
  return NULL;
}

static void paint_row(TessProject *p, const char *level_name, uint32_t x, uint32_t y, uint32_t tile) {
  TessError err;
  TessLevel *level = tess_project_level_by_name(p, level_name);
  TessLayer *ground = layer_named(level, "Ground");
  CHECK(ground != NULL);
  if (!ground) return;
  TessCell stamp[3];
  for (int i = 0; i < 3; i++) stamp[i] = TESS_CELL_MAKE(p->tilesets[0]->id, tile, 0);
  CHECK_OK(tess_edit_paint(p, level->id, ground->props.id, (int32_t)x, (int32_t)y, 3, 1, stamp, 0, &err), &err);
}

static TessId add_crate(TessProject *p, const char *level_name, const char *name) {
  TessError err;
  TessLevel *level = tess_project_level_by_name(p, level_name);
  TessLayer *objs = layer_named(level, "Objects");
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "%s", name);
  o.pos = tess_v2(300, 200);
  TessId id = 0;
  if (objs) CHECK_OK(tess_edit_object_add(p, level->id, objs->props.id, &o, &id, &err), &err);
  tess_object_clear(&o);
  return id;
}

static const TessObject *object_named(const TessProject *p, const char *name) {
  for (uint32_t i = 0; i < p->level_count; i++)
    for (uint32_t l = 0; l < p->levels[i]->layer_count; l++)
      for (uint32_t k = 0; k < p->levels[i]->layers[l]->object_count; k++)
        if (!strcmp(p->levels[i]->layers[l]->objects[k].name, name)) return &p->levels[i]->layers[l]->objects[k];
  return NULL;
}

static TessCell cell_at(const TessProject *p, const char *level_name, uint32_t x, uint32_t y) {
  TessLevel *level = tess_project_level_by_name(p, level_name);
  TessLayer *ground = layer_named(level, "Ground");
  return ground ? tess_layer_cell(ground, x, y) : 0;
}

/* One designer's turn: load the dump (the CLI picks a random salt), edit, dump, commit. */
static void designer(const char *repo, const char *branch, const char *work, void (*edit)(TessProject *)) {
  CHECK(tess_test_system("cd '%s' && git checkout -q -b %s base", repo, branch) == 0);
  CHECK(tess_test_system("'%s' load '%s/proj' -o '%s' --force", tess_test_pipeline(), repo, work) == 0);
  TessStore *store;
  TessProject *p = open_rw(work, &store);
  if (p) edit(p);
  save_close(store, p);
  CHECK(tess_test_system("'%s' dump '%s' -o '%s/proj'", tess_test_pipeline(), work, repo) == 0);
  CHECK(tess_test_system("cd '%s' && git add -A && git commit -qm '%s'", repo, branch) == 0);
}

static void edit_a(TessProject *p) {
  paint_row(p, "Side", 10, 3, 9);
  paint_row(p, "Side", 10, 4, 9);
  add_crate(p, "Side", "A's crate");
}

static void edit_b(TessProject *p) {
  paint_row(p, "Side", 40, 20, 10);
  add_crate(p, "Side", "B's crate");
  paint_row(p, p->levels[1]->settings.name, 2, 2, 11);
}

static void branches_merge_with_git_and_load_both_edits(void) {
  git_env();
  char repo[1024], demo[1024], a[1024], b[1024], merged[1024];
  tess_test_path(repo, sizeof repo, "repo");
  tess_test_path(a, sizeof a, "a.tessera");
  tess_test_path(b, sizeof b, "b.tessera");
  tess_test_path(merged, sizeof merged, "merged.tessera");
  demo_path(demo, sizeof demo);
  CHECK(tess_test_system("mkdir -p '%s' && cd '%s' && git init -q && '%s' dump '%s' -o proj && git add -A && git commit -qm base && "
                         "git branch base",
                         repo, repo, tess_test_pipeline(), demo) == 0);
  designer(repo, "a", a, edit_a);
  designer(repo, "b", b, edit_b);
  /* git's own merge, no driver: clean. */
  int merge = tess_test_system("cd '%s' && git checkout -q a && git merge -q --no-edit b", repo);
  CHECK_MSG(merge == 0, "git merge exited %d", merge);
  CHECK(tess_test_system("'%s' load '%s/proj' -o '%s'", tess_test_pipeline(), repo, merged) == 0);
  TessProject *m = read_only(merged);
  if (!m) return;
  CHECK(TESS_CELL_TILE(cell_at(m, "Side", 11, 3)) == 9 && TESS_CELL_TILE(cell_at(m, "Side", 11, 4)) == 9);
  CHECK(TESS_CELL_TILE(cell_at(m, "Side", 41, 20)) == 10);
  CHECK(TESS_CELL_TILE(cell_at(m, m->levels[1]->settings.name, 3, 2)) == 11);
  const TessObject *oa = object_named(m, "A's crate"), *ob = object_named(m, "B's crate");
  CHECK(oa && ob && oa->id != ob->id);
  /* Nothing else changed: the demo and the merge differ by exactly these edits. */
  TessProject *d = read_only(demo);
  Lines l = {.len = 0};
  size_t n = d ? tess_project_diff(d, m, collect, &l) : 0;
  CHECK_MSG(n == 4, "%zu differences:\n%s", n, l.text);
  CHECK_MSG(strstr(l.text, "level 'Side': layer 'Ground': 9 cells changed in x 10..42, y 3..20"), "%s", l.text);
  CHECK_MSG(strstr(l.text, "'A's crate'") && strstr(l.text, "'B's crate'"), "%s", l.text);
  tess_project_destroy(d);
  tess_project_destroy(m);
}

/* Without the salt both copies hand out the same next id: git then stops at
 * an add/add conflict in the object's file, and load refuses the markers. */
static void same_counters_conflict_and_load_refuses(void) {
  git_env();
  char repo[1024], demo[1024], work[1024], out[1024];
  tess_test_path(repo, sizeof repo, "repo-same");
  tess_test_path(work, sizeof work, "same.tessera");
  tess_test_path(out, sizeof out, "never.tessera");
  demo_path(demo, sizeof demo);
  CHECK(tess_test_system("mkdir -p '%s' && cd '%s' && git init -q && '%s' dump '%s' -o proj && git add -A && git commit -qm base && "
                         "git branch base",
                         repo, repo, tess_test_pipeline(), demo) == 0);
  TessId ids[2] = {0, 0};
  for (int side = 0; side < 2; side++) {
    CHECK(tess_test_system("cd '%s' && git checkout -q -b s%d base", repo, side) == 0);
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/proj", repo);
    TessError err;
    TessProject *p = NULL;
    CHECK_OK(tess_text_load(dir, NULL, &p, &err), &err); /* salt 0: the same counters on both sides */
    if (!p) return;
    ids[side] = add_crate(p, "Side", side ? "B's crate" : "A's crate");
    CHECK_OK(tess_text_dump(p, dir, &err), &err);
    tess_project_destroy(p);
    CHECK(tess_test_system("cd '%s' && git add -A && git commit -qm s%d", repo, side) == 0);
  }
  CHECK(ids[0] == ids[1]);
  CHECK(tess_test_system("cd '%s' && git checkout -q s0 && git merge -q --no-edit s1 >/dev/null 2>&1", repo) != 0);
  char cmd_err[1100];
  tess_test_path(cmd_err, sizeof cmd_err, "same.err");
  CHECK(tess_test_system("'%s' load '%s/proj' -o '%s' 2>'%s'", tess_test_pipeline(), repo, out, cmd_err) == 1);
  char *msg = tf_read(cmd_err, NULL);
  char want[128];
  snprintf(want, sizeof want, "objects/%u.json:5: a merge conflict marker", ids[0]); /* the name line: the rest is equal */
  CHECK_MSG(msg && strstr(msg, want), "%s", msg ? msg : "(no message)");
  tess_free(msg);
  CHECK(access(out, F_OK) != 0);
}

/* load: nothing written on bad input, an existing project replaced only with --force (atomically). */
static void load_writes_nothing_on_failure_and_replaces_only_with_force(void) {
  char demo[1024], dir[1024], proj[1024], bad[1024], errf[1024];
  demo_path(demo, sizeof demo);
  tess_test_path(dir, sizeof dir, "cli-dump");
  tess_test_path(proj, sizeof proj, "cli.tessera");
  tess_test_path(bad, sizeof bad, "cli-bad");
  tess_test_path(errf, sizeof errf, "cli.err");
  CHECK(tess_test_system("'%s' dump '%s' -o '%s'", tess_test_pipeline(), demo, dir) == 0);
  /* A second dump into the same directory: the same bytes. */
  char again[1100];
  snprintf(again, sizeof again, "%s-again", dir);
  CHECK(tess_test_system("'%s' dump '%s' -o '%s'", tess_test_pipeline(), demo, again) == 0);
  CHECK(tf_same_tree(dir, again));
  /* A row one cell short: exit 1, the file and line, no project, no temporary left. */
  tf_copy_tree(dir, bad);
  char rows[1200];
  snprintf(rows, sizeof rows, "%s/levels/1/layer-1.rows", bad);
  CHECK(tf_replace_in_file(rows, "1:0 .*62 1:0\n", "1:0 .*61 1:0\n"));
  CHECK(tess_test_system("'%s' load '%s' -o '%s' 2>'%s'", tess_test_pipeline(), bad, proj, errf) == 1);
  char *msg = tf_read(errf, NULL);
  CHECK_MSG(msg && strstr(msg, "levels/1/layer-1.rows:1: row 0 has 63 cells; the level is 64 wide"), "%s", msg ? msg : "");
  tess_free(msg);
  CHECK(access(proj, F_OK) != 0);
  CHECK(tess_test_system("ls '%s' | grep -q 'cli.tessera'", tess_test_tmpdir()) != 0);
  /* A good load; then the same path again: refused without --force, bytes untouched. */
  CHECK(tess_test_system("'%s' load '%s' -o '%s'", tess_test_pipeline(), dir, proj) == 0);
  TessProject *p = read_only(proj), *d = read_only(demo);
  CHECK(p && d && tf_same_hashes(p, d));
  tess_project_destroy(p);
  struct stat before, after;
  stat(proj, &before);
  CHECK(tess_test_system("'%s' load '%s' -o '%s' 2>'%s'", tess_test_pipeline(), dir, proj, errf) == 1);
  msg = tf_read(errf, NULL);
  CHECK_MSG(msg && strstr(msg, "already exists: --force replaces it"), "%s", msg ? msg : "");
  tess_free(msg);
  stat(proj, &after);
  CHECK(before.st_ino == after.st_ino && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
  /* --force: a new file in its place (a rename: the old inode is left to whoever holds it). */
  CHECK(tess_test_system("'%s' load '%s' -o '%s' --force", tess_test_pipeline(), dir, proj) == 0);
  stat(proj, &after);
  CHECK(before.st_ino != after.st_ino);
  p = read_only(proj);
  CHECK(p && d && tf_same_hashes(p, d));
  tess_project_destroy(p);
  tess_project_destroy(d);
}

/* `git diff` on a .tessera through the README's driver recipe shows the words. */
static void git_diff_on_a_project_shows_words(void) {
  git_env();
  char repo[1024], demo[1024], out[1024];
  tess_test_path(repo, sizeof repo, "repo-diff");
  tess_test_path(out, sizeof out, "git-diff.txt");
  demo_path(demo, sizeof demo);
  CHECK(tess_test_system("mkdir -p '%s' && cd '%s' && git init -q && cp '%s' level.tessera && "
                         "echo '*.tessera diff=tessera' > .gitattributes && "
                         "git config diff.tessera.command '%s diff' && git add -A && git commit -qm base",
                         repo, repo, demo, tess_test_pipeline()) == 0);
  char path[1100];
  snprintf(path, sizeof path, "%s/level.tessera", repo);
  TessStore *store;
  TessProject *p = open_rw(path, &store);
  if (p) {
    paint_row(p, "Side", 20, 9, 9);
    add_crate(p, "Side", "New crate");
  }
  save_close(store, p);
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s/git-tmp", tess_test_tmpdir());
  CHECK(tess_test_system("mkdir -p '%s' && cd '%s' && TMPDIR='%s' git diff > '%s'", tmp, repo, tmp, out) == 0);
  /* The driver leaves nothing in git's temporary directory (SQLite's -shm beside a blob). */
  CHECK(tess_test_system("test -z \"$(ls -A '%s')\"", tmp) == 0);
  char *text = tf_read(out, NULL);
  CHECK_MSG(text && strstr(text, "tessera diff level.tessera") &&
                strstr(text, "level 'Side': layer 'Ground': 3 cells changed in x 20..22, y 9..9") &&
                strstr(text, "body 'New crate'") && !strstr(text, "Binary files"),
            "git diff printed:\n%s", text ? text : "");
  tess_free(text);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(branches_merge_with_git_and_load_both_edits),
                                       TEST(same_counters_conflict_and_load_refuses),
                                       TEST(load_writes_nothing_on_failure_and_replaces_only_with_force),
                                       TEST(git_diff_on_a_project_shows_words)};
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
