/* Crash safety: a child process edits and flushes in a loop, reporting each
 * edit's number through a pipe only after its flush returned; the parent
 * kills it with SIGKILL at random moments. After every kill the file must
 * pass integrity_check and hold every reported edit, in order, with no
 * gap (and at most one more: committed, killed before it could report). */
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store_tests.h"

#define CRASH_ROUNDS 60
#define CRASH_SIDE 256 /* level cells per side: edit k paints cell k */

typedef struct CrashIds {
  TessId tileset, level, ground, objects;
} CrashIds;

static TessCell edit_cell(const CrashIds *ids, uint32_t k) {
  return TESS_CELL_MAKE(ids->tileset, k % 1000 + 1, (k % 3 == 0) ? TESS_CELL_FLIP_H : 0);
}

/* Edit k: one cell, and every 16th edit also an object, in one flush. */
static TessResult apply_edit(TessProject *p, const CrashIds *ids, uint32_t k, TessError *err) {
  TessCell c = edit_cell(ids, k);
  TessResult r = tess_edit_paint(p, ids->level, ids->ground, (int32_t)(k % CRASH_SIDE), (int32_t)(k / CRASH_SIDE), 1,
                                 1, &c, 0, err);
  if (r == TESS_OK && k % 16 == 15) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_SPAWN);
    snprintf(o.name, sizeof o.name, "edit %u", k);
    o.pos = tess_v2((float)k, 1.0f);
    TessId id;
    r = tess_edit_object_add(p, ids->level, ids->objects, &o, &id, err);
    tess_object_clear(&o);
  }
  return r;
}

static void sleep_ms(double ms) {
  struct timespec ts = {(time_t)(ms / 1000.0), (long)(((long)(ms * 1000.0) % 1000000) * 1000)};
  nanosleep(&ts, NULL);
}

/* The editor: never returns. */
static void child_edit_forever(const char *path, const CrashIds *ids, uint32_t first, int out_fd) {
  TessStore *st = NULL;
  TessProject *p = NULL;
  TessError err;
  if (tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err) != TESS_OK || tess_store_load(st, &p, &err) != TESS_OK)
    _exit(3);
  for (uint32_t k = first; k < CRASH_SIDE * CRASH_SIDE; k++) {
    if (apply_edit(p, ids, k, &err) != TESS_OK || tess_store_flush(st, p, &err) != TESS_OK) _exit(4);
    uint32_t done = k + 1;
    if (write(out_fd, &done, sizeof done) != (ssize_t)sizeof done) _exit(5);
  }
  _exit(0);
}

static bool integrity_ok(const char *path) {
  sqlite3 *db = NULL;
  bool ok = false;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      const char *v = (const char *)sqlite3_column_text(st, 0);
      ok = v && strcmp(v, "ok") == 0;
      if (!ok) fprintf(stderr, "integrity_check: %s\n", v ? v : "?");
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return ok;
}

/* How many edits the file holds (a prefix), checking that nothing follows the prefix. */
static uint32_t edits_present(const TessProject *p, const CrashIds *ids, bool *consistent) {
  const TessLevel *level = tess_project_level(p, ids->level);
  const TessLayer *ground = level ? tess_level_layer(level, ids->ground) : NULL;
  const TessLayer *objects = level ? tess_level_layer(level, ids->objects) : NULL;
  *consistent = ground && objects;
  if (!*consistent) return 0;
  uint32_t n = 0;
  while (n < CRASH_SIDE * CRASH_SIDE && tess_layer_cell(ground, n % CRASH_SIDE, n / CRASH_SIDE) == edit_cell(ids, n))
    n++;
  for (uint32_t k = n; k < CRASH_SIDE * CRASH_SIDE; k++)
    if (tess_layer_cell(ground, k % CRASH_SIDE, k / CRASH_SIDE) != 0) *consistent = false;
  /* One object per 16 edits, named after its edit, in order. */
  uint32_t expected_objects = n / 16;
  if (objects->object_count != expected_objects) *consistent = false;
  for (uint32_t i = 0; i < objects->object_count && i < expected_objects; i++) {
    char name[TESS_NAME_MAX];
    snprintf(name, sizeof name, "edit %u", i * 16 + 15);
    if (strcmp(objects->objects[i].name, name) != 0) *consistent = false;
  }
  return n;
}

void crash_kill_during_flushes(void) {
  char path[512];
  tess_test_path(path, sizeof path, "crash.tessera");
  CrashIds ids;
  memset(&ids, 0, sizeof ids);
  {
    TessProject *p = tess_project_create();
    TessError err;
    TessTilesetDef def;
    tess_tileset_def_default(&def);
    def.name = "Tiles";
    def.image_w = def.image_h = 512;
    def.tile_w = def.tile_h = 16;
    CHECK_OK(tess_edit_tileset_add(p, &def, &ids.tileset, &err), &err);
    TessLevelSettings ls;
    tess_level_settings_default(&ls);
    ls.width = ls.height = CRASH_SIDE;
    CHECK_OK(tess_edit_level_add(p, &ls, &ids.level, &err), &err);
    TessLevel *level = tess_project_level(p, ids.level);
    for (uint32_t i = 0; level && i < level->layer_count; i++) {
      if (level->layers[i]->props.kind == TESS_LAYER_TILES && !ids.ground) ids.ground = level->layers[i]->props.id;
      if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) ids.objects = level->layers[i]->props.id;
    }
    CHECK(ids.ground && ids.objects);
    create_and_flush(path, p);
    tess_project_destroy(p);
  }

  TessTestRng rng = {0xC0FFEEull};
  uint32_t committed = 0;
  int kills = 0, unclean_opens = 0, midstream_rounds = 0;
  double t0 = tess_now_seconds();
  for (int round = 0; round < CRASH_ROUNDS; round++) {
    int fds[2];
    CHECK(pipe(fds) == 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      child_edit_forever(path, &ids, committed, fds[1]);
    }
    close(fds[1]);
    /* Mostly mid-stream, now and then right at the start (during open or load).
     * A mid-stream round lets the child commit a random number of edits
     * (counted from its reports, not timed, so neither a slow nor a fast
     * machine changes what is tested), then kills it a random fraction of a
     * millisecond or two later: inside a later edit or flush. */
    bool midstream = round % 10 != 0;
    uint32_t reported = committed, v;
    if (midstream) {
      midstream_rounds++;
      uint32_t target = 1 + tess_rng_below(&rng, 64);
      for (uint32_t seen = 0; seen < target && read(fds[0], &v, sizeof v) == (ssize_t)sizeof v; seen++)
        reported = v;
    }
    sleep_ms(tess_rng_unit(&rng) * 2.0);
    CHECK(kill(pid, SIGKILL) == 0);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      kills++;
    } else {
      CHECK_MSG(false, "round %d: the child ended on its own (status %d)", round, status);
    }
    while (read(fds[0], &v, sizeof v) == (ssize_t)sizeof v) reported = v;
    close(fds[0]);

    CHECK_MSG(integrity_ok(path), "round %d: integrity_check failed", round);
    TessStore *st = NULL;
    TessError err;
    TessResult r = tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err);
    CHECK_OK(r, &err);
    if (r != TESS_OK) break;
    TessStoreStats stats;
    tess_store_stats(st, &stats);
    unclean_opens += stats.opened_after_unclean_close;
    /* A child that reported an edit had opened the file for writing and never closed it. */
    if (reported > committed)
      CHECK_MSG(stats.opened_after_unclean_close, "round %d: a killed writer's file was not checked on open", round);
    TessProject *p = NULL;
    CHECK_OK(tess_store_load(st, &p, &err), &err);
    tess_store_close(st);
    if (!p) break;
    bool consistent = false;
    uint32_t present = edits_present(p, &ids, &consistent);
    tess_project_destroy(p);
    CHECK_MSG(consistent, "round %d: the file is not a prefix of the edits", round);
    CHECK_MSG(present >= reported && present <= reported + 1,
              "round %d: %u edits reported committed, the file holds %u", round, reported, present);
    if (present < reported || !consistent) break;
    committed = present;
  }
  CHECK(kills >= 50);
  /* Every mid-stream round saw at least one more edit committed. */
  CHECK_MSG(committed >= (uint32_t)midstream_rounds, "%u edits committed over %d mid-stream rounds", committed,
            midstream_rounds);
  printf("  crash: %d kills, %u edits committed and verified, %d checked opens, %.1f s\n", kills, committed,
         unclean_opens, tess_now_seconds() - t0);
}
