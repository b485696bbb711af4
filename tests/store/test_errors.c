/* Files that are not what they should be: each refused with its own code
 * and a message that names the file and the problem. And the migration
 * migrations: the real step 1 -> 2 (pin motors) on a schema-1 file, and the
 * mechanism itself with a test step 2 -> 3. */
#include <sqlite3.h>
#include <unistd.h>

#include "store_migrate.h"
#include "store_tests.h"

static void write_bytes(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  CHECK(fwrite(data, 1, size, f) == size);
  fclose(f);
}

/* Opens (read-only) expecting failure; checks the code, that err names the file, and that the detail holds `needle`. */
static void expect_open_error(const char *path, TessStoreMode mode, TessResult code, const char *needle) {
  TessStore *st = NULL;
  TessError err;
  memset(&err, 0, sizeof err);
  TessResult r = tess_store_open(path, mode, &st, &err);
  CHECK_MSG(r == code, "%s: got %s, expected %s (%s)", path, tess_result_string(r), tess_result_string(code),
            err.detail);
  CHECK(st == NULL);
  if (st) tess_store_close(st);
  CHECK_MSG(strcmp(err.file, path) == 0, "error names %s, not %s", err.file, path);
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  CHECK_MSG(strstr(err.detail, name) != NULL, "detail does not name the file: %s", err.detail);
  CHECK_MSG(strstr(err.detail, needle) != NULL, "detail lacks \"%s\": %s", needle, err.detail);
}

/* A small valid project file at tmp/name. */
static void make_project(const char *name, char *path, size_t size, TessProject **keep) {
  tess_test_path(path, size, name);
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  if (keep)
    *keep = p;
  else
    tess_project_destroy(p);
}

void error_newer_schema(void) {
  char path[512];
  make_project("newer.tessera", path, sizeof path, NULL);
  CHECK(sql_exec(path, "UPDATE meta SET value = 99 WHERE key = 'schema_version'"));
  char needle[160];
  snprintf(needle, sizeof needle, "newer.tessera was saved by a newer Tessera (schema 99, this one reads up to %d)",
           TESS_STORE_SCHEMA_VERSION);
  expect_open_error(path, TESS_STORE_READ_ONLY, TESS_ERR_VERSION, needle);
  expect_open_error(path, TESS_STORE_READ_WRITE, TESS_ERR_VERSION, "schema 99");
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == 99); /* untouched */
}

void error_not_sqlite(void) {
  char path[512];
  tess_test_path(path, sizeof path, "notes.tessera");
  const char text[] = "name,x,y\nhero,1,2\nslime,40,2\n";
  write_bytes(path, text, sizeof text - 1);
  expect_open_error(path, TESS_STORE_READ_ONLY, TESS_ERR_FORMAT, "is not an SQLite database");
  expect_open_error(path, TESS_STORE_READ_WRITE, TESS_ERR_FORMAT, "looks like text, starting \"name,x,y");
  /* A PNG saved under the wrong name. */
  tess_test_path(path, sizeof path, "picture.tessera");
  const uint8_t png[16] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
  write_bytes(path, png, sizeof png);
  expect_open_error(path, TESS_STORE_READ_ONLY, TESS_ERR_FORMAT, "it is a PNG image");
}

void error_empty_file(void) {
  char path[512];
  tess_test_path(path, sizeof path, "empty.tessera");
  write_bytes(path, "", 0);
  expect_open_error(path, TESS_STORE_READ_WRITE, TESS_ERR_FORMAT, "is empty (0 bytes)");
}

void error_missing_file(void) {
  char path[512];
  tess_test_path(path, sizeof path, "nowhere.tessera");
  expect_open_error(path, TESS_STORE_READ_ONLY, TESS_ERR_NOT_FOUND, "No such file");
}

static uint8_t *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *data = malloc((size_t)n);
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

void error_truncated(void) {
  char path[512], cut[512];
  make_project("whole.tessera", path, sizeof path, NULL);
  size_t size = 0;
  uint8_t *data = read_all(path, &size);
  CHECK(data && size > 100000);
  if (!data) return;
  tess_test_path(cut, sizeof cut, "cut.tessera");
  write_bytes(cut, data, size / 2);
  expect_open_error(cut, TESS_STORE_READ_ONLY, TESS_ERR_FORMAT, "is truncated");
  TessStore *st = NULL;
  TessError err;
  CHECK(tess_store_open(cut, TESS_STORE_READ_ONLY, &st, &err) == TESS_ERR_FORMAT);
  CHECK(err.place_kind == TESS_PLACE_OFFSET && err.place == size / 2);
  write_bytes(cut, data, 60); /* inside the header */
  expect_open_error(cut, TESS_STORE_READ_WRITE, TESS_ERR_FORMAT, "inside the 100-byte database header");
  write_bytes(cut, data, size - 1000); /* not a whole page */
  expect_open_error(cut, TESS_STORE_READ_ONLY, TESS_ERR_FORMAT, "is truncated");
  free(data);
}

void error_random_garbage(void) {
  char path[512];
  tess_test_path(path, sizeof path, "noise.tessera");
  TessTestRng rng = {0x5eed1234abcdull};
  static uint8_t noise[100000];
  for (size_t i = 0; i < sizeof noise; i++) noise[i] = (uint8_t)tess_rng_next(&rng);
  write_bytes(path, noise, sizeof noise);
  expect_open_error(path, TESS_STORE_READ_ONLY, TESS_ERR_FORMAT, "not an SQLite database (its first bytes are");
  /* Noise behind a valid SQLite header: the header passes, the pages do not. */
  char proj[512];
  make_project("noisy.tessera", proj, sizeof proj, NULL);
  size_t size = 0;
  uint8_t *data = read_all(proj, &size);
  if (!data) return;
  for (size_t i = 100; i < size; i++) data[i] = (uint8_t)tess_rng_next(&rng);
  write_bytes(proj, data, size);
  free(data);
  expect_open_error(proj, TESS_STORE_READ_ONLY, TESS_ERR_FORMAT, "is damaged");
}

void error_damaged_pages(void) {
  char path[512];
  TessProject *p = NULL;
  make_project("damaged.tessera", path, sizeof path, &p);
  /* Grow the file with a big level so most pages hold chunks, then damage one of those. */
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err), &err);
  if (!st) {
    tess_project_destroy(p);
    return;
  }
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  ls.width = ls.height = 512;
  TessId level = 0;
  CHECK_OK(tess_edit_level_add(p, &ls, &level, &err), &err);
  TessLevel *lv = tess_project_level(p, level);
  TessId ground = lv ? lv->layers[0]->props.id : 0;
  CHECK_OK(tess_edit_fill_rect(p, level, ground, 0, 0, 512, 512, TESS_CELL_MAKE(p->tilesets[0]->id, 1, 0), 0, &err),
           &err);
  CHECK_OK(tess_store_flush(st, p, &err), &err);
  tess_store_close(st);
  tess_project_destroy(p);

  size_t size = 0;
  uint8_t *data = read_all(path, &size);
  if (!data) return;
  int64_t page = sql_int(path, "PRAGMA page_size");
  size_t at = (size * 3 / 4) / (size_t)page * (size_t)page;
  TessTestRng rng = {77};
  for (size_t i = at; i < at + (size_t)page && i < size; i++) data[i] = (uint8_t)tess_rng_next(&rng);
  write_bytes(path, data, size);
  free(data);

  /* Closed cleanly, so opening trusts it; the check and the load find the damage. */
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &st, &err), &err);
  if (st) {
    CHECK(tess_store_quick_check(st, &err) == TESS_ERR_FORMAT);
    CHECK_MSG(strstr(err.detail, "damaged.tessera is damaged") != NULL, "%s", err.detail);
    TessProject *q = NULL;
    CHECK(tess_store_load(st, &q, &err) == TESS_ERR_FORMAT);
    CHECK(q == NULL);
    CHECK_MSG(strstr(err.detail, "is damaged") != NULL, "%s", err.detail);
    tess_store_close(st);
  }
  /* Not closed cleanly: the check runs on open, which refuses. */
  CHECK(sql_exec(path, "UPDATE meta SET value = 0 WHERE key = 'clean_close'"));
  expect_open_error(path, TESS_STORE_READ_WRITE, TESS_ERR_FORMAT, "is damaged");
}

void error_foreign_sqlite(void) {
  char path[512];
  tess_test_path(path, sizeof path, "contacts.tessera");
  unlink(path);
  sqlite3 *db = NULL;
  CHECK(sqlite3_open(path, &db) == SQLITE_OK);
  CHECK(sqlite3_exec(db, "CREATE TABLE contacts (name TEXT, phone TEXT); INSERT INTO contacts VALUES ('Ada', '1');",
                     NULL, NULL, NULL) == SQLITE_OK);
  sqlite3_close(db);
  expect_open_error(path, TESS_STORE_READ_ONLY, TESS_ERR_FORMAT, "is an SQLite database but not a Tessera project");
  expect_open_error(path, TESS_STORE_READ_WRITE, TESS_ERR_FORMAT, "application id 0x00000000");
  /* Tessera's id but no meta table. */
  CHECK(sql_exec(path, "PRAGMA application_id = 1413829459"));
  expect_open_error(path, TESS_STORE_READ_ONLY, TESS_ERR_FORMAT, "has no meta table");
}

/* Loads a damaged copy of `good`, expecting TESS_ERR_FORMAT naming table, row and column. */
static void expect_load_error(const char *good, const char *sql, const char *needle1, const char *needle2) {
  char path[512];
  tess_test_path(path, sizeof path, "bad-blob.tessera");
  unlink(path);
  copy_file(good, path);
  CHECK(sql_exec(path, sql));
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &st, &err), &err);
  if (!st) return;
  TessProject *q = NULL;
  TessResult r = tess_store_load(st, &q, &err);
  CHECK_MSG(r == TESS_ERR_FORMAT, "%s: %s", sql, tess_result_string(r));
  CHECK(q == NULL);
  if (q) tess_project_destroy(q);
  CHECK_MSG(strstr(err.detail, needle1) && strstr(err.detail, needle2) && strstr(err.detail, "bad-blob.tessera"),
            "%s: %s", sql, err.detail);
  tess_store_close(st);
}

void error_wrong_blob_sizes(void) {
  char good[512], sql[300];
  make_project("good.tessera", good, sizeof good, NULL);
  int64_t chunk = sql_int(good, "SELECT min(id) FROM chunks");
  char row[64];
  snprintf(row, sizeof row, "chunks row %lld, cells", (long long)chunk);
  snprintf(sql, sizeof sql, "UPDATE chunks SET cells = zeroblob(100) WHERE id = %lld", (long long)chunk);
  expect_load_error(good, sql, row, "100 bytes, a chunk has 4096");
  snprintf(sql, sizeof sql, "UPDATE chunks SET cells = CAST(cells || x'00' AS BLOB) WHERE id = %lld", (long long)chunk);
  expect_load_error(good, sql, row, "4097 bytes");
  snprintf(sql, sizeof sql, "UPDATE chunks SET cells = 'text' WHERE id = %lld", (long long)chunk);
  expect_load_error(good, sql, row, "not a BLOB");
  snprintf(sql, sizeof sql, "UPDATE chunks SET cx = 4000 WHERE id = %lld", (long long)chunk);
  expect_load_error(good, sql, "chunks row", ", cx: 4000 is outside");

  int64_t ts = sql_int(good, "SELECT min(id) FROM tilesets");
  snprintf(row, sizeof row, "tilesets row %lld, tiles", (long long)ts);
  expect_load_error(good, "UPDATE tilesets SET tiles = substr(tiles, 1, length(tiles) - 3)", row, "ends inside");
  expect_load_error(good, "UPDATE tilesets SET tiles = CAST(tiles || x'00' AS BLOB)", row, "bytes after its last tile");
  expect_load_error(good, "UPDATE tilesets SET tile_count = tile_count + 1", row, "tile count differs");

  int64_t sp = sql_int(good, "SELECT min(id) FROM sprites");
  snprintf(row, sizeof row, "sprites row %lld, mask_hull", (long long)sp);
  expect_load_error(good, "UPDATE sprites SET mask_hull = substr(mask_hull, 1, 12)", row, "whole number of points");
  snprintf(row, sizeof row, "sprites row %lld, mask_pieces", (long long)sp);
  expect_load_error(good, "UPDATE sprites SET mask_pieces = CAST(x'0100000009000000' || zeroblob(72) AS BLOB)", row, "outside 1..8");

  expect_load_error(good, "UPDATE materials SET name = printf('%0100d', 1) WHERE id = (SELECT min(id) FROM materials)",
                    "materials row", "name: a name of 100 bytes");
  expect_load_error(good, "UPDATE objects SET kind = 9 WHERE id = (SELECT min(id) FROM objects)", "objects row",
                    "kind: 9 is outside");
  expect_load_error(good, "UPDATE object_props SET value = 'seven' WHERE type = 1", "object_props row",
                    "value: not an integer");
}

/* The build's steps plus `extra` (from the build's version): the real
 * mechanism with a test step on top. steps must hold STEP_COUNT_MAX. */
#define STEP_COUNT_MAX 16
static TessStoreSchema schema_plus(TessStoreMigration *steps, TessStoreMigration extra) {
  const TessStoreSchema *cur = store_schema_current();
  CHECK(cur->step_count + 1 <= STEP_COUNT_MAX);
  for (uint32_t i = 0; i < cur->step_count; i++) steps[i] = cur->steps[i];
  extra.from_version = cur->version;
  steps[cur->step_count] = extra;
  TessStoreSchema s = {cur->version + 1, steps, cur->step_count + 1};
  return s;
}

/* The names of a table's columns, in order, joined by commas. */
static void column_names(const char *path, const char *table, char *out, size_t size) {
  char sql[256];
  snprintf(sql, sizeof sql, "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('%s') ORDER BY cid)",
           table);
  sqlite3 *db = NULL;
  out[0] = 0;
  CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
  sqlite3_stmt *st = NULL;
  if (db && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
      sqlite3_column_text(st, 0))
    snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
}

/* One writer at a time: a second open for writing of a file already open
 * for writing is refused with a message naming the file, and nothing is
 * lost; readers come and go alongside; once the writer closes, the file
 * opens for writing again. */
void second_writer_is_refused(void) {
  char path[512];
  TessProject *p = NULL;
  make_project("two-writers.tessera", path, sizeof path, &p);
  TessStore *first = NULL, *second = NULL, *reader = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &first, &err), &err);
  TessResult r = tess_store_open(path, TESS_STORE_READ_WRITE, &second, &err);
  CHECK_MSG(r == TESS_ERR_LOCKED && second == NULL, "%s", tess_result_string(r));
  CHECK_MSG(strstr(err.detail, "two-writers.tessera") && strstr(err.detail, "already open for writing"), "%s",
            err.detail);
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &reader, &err), &err);
  if (reader) {
    TessProject *q = NULL;
    CHECK_OK(tess_store_load(reader, &q, &err), &err);
    CHECK(q && tess_project_hash(q) == tess_project_hash(p));
    if (q) tess_project_destroy(q);
    tess_store_close(reader);
  }
  if (first) tess_store_close(first);
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &second, &err), &err);
  if (second) tess_store_close(second);
  tess_project_destroy(p);
}

/* The file at path opens in `mode` and loads exactly project p. */
static void opens_as(const char *path, TessStoreMode mode, const TessProject *p) {
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, mode, &st, &err), &err);
  if (!st) return;
  TessProject *q = NULL;
  CHECK_OK(tess_store_load(st, &q, &err), &err);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  tess_store_close(st);
}

/* The real step 1 -> 2. A file of schema 1 holding the whole sample project
 * (every kind of object, a pin with limits) is made from a current file by
 * dropping the columns step 2 adds; its tables are checked to be exactly
 * those a schema-1 build creates. Opened read-only it is read in place,
 * untouched; opened for writing it is upgraded in one go; either way it
 * keeps every edit and its pins read with the motor off. */
void migration_real_step_adds_pin_motors(void) {
  char path[512], v1[512];
  TessProject *p = NULL;
  make_project("schema1.tessera", path, sizeof path, &p);
  /* What a schema-1 build creates (the create path stops at version 1). */
  static const TessStoreSchema SCHEMA_1 = {1, NULL, 0};
  tess_test_path(v1, sizeof v1, "empty-schema1.tessera");
  unlink(v1);
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(store_open_with_schema(v1, TESS_STORE_CREATE, &SCHEMA_1, &st, &err), &err);
  if (st) tess_store_close(st);
  CHECK(sql_int(v1, "SELECT value FROM meta WHERE key = 'schema_version'") == 1);
  CHECK(sql_int(v1, "SELECT count(*) FROM pragma_table_info('objects') WHERE name LIKE 'joint_motor%'") == 0);
  /* The sample's pin has a motor: the schema-1 file cannot hold it. */
  CHECK(sql_int(path, "SELECT count(*) FROM objects WHERE joint_motor_enabled = 1") >= 1);
  CHECK(schema_downgrade(path, 1));
  static const char *const TABLES[] = {"meta", "materials", "tilesets", "sprites", "levels",
                                       "layers", "chunks", "objects", "object_props"};
  for (size_t i = 0; i < sizeof TABLES / sizeof TABLES[0]; i++) {
    char a[2048], b[2048];
    column_names(path, TABLES[i], a, sizeof a);
    column_names(v1, TABLES[i], b, sizeof b);
    CHECK_MSG(a[0] && strcmp(a, b) == 0, "table %s: %s vs schema 1's %s", TABLES[i], a, b);
  }
  /* What the upgraded file must hold: the sample with every motor off. */
  uint32_t pins = 0;
  for (uint32_t li = 0; li < p->level_count; li++) {
    TessLevel *l = p->levels[li];
    for (uint32_t k = 0; k < l->layer_count; k++) {
      TessLayer *layer = l->layers[k];
      for (uint32_t o = 0; o < layer->object_count; o++) {
        if (layer->objects[o].kind != TESS_OBJECT_JOINT || !layer->objects[o].u.joint.motor_enabled) continue;
        TessObject off;
        CHECK_OK(tess_object_copy(&off, &layer->objects[o]), &err);
        off.u.joint.motor_enabled = 0;
        off.u.joint.motor_speed = 0.0f;
        off.u.joint.motor_torque = 0.0f;
        CHECK_OK(tess_edit_object_set(p, l->id, &off, 0, &err), &err);
        tess_object_clear(&off);
        pins++;
      }
    }
  }
  CHECK(pins >= 1);
  CHECK(forget_integrators(p) >= 1); /* and every body on Euler, as the step to schema 7 sets it */
  /* Read-only, the file is read as it is (so the pipeline can export an old project): every
   * edit, every motor off, and the file left at schema 1 byte for byte. */
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  static unsigned char before[1 << 20], after[1 << 20];
  size_t nbefore = f ? fread(before, 1, sizeof before, f) : 0;
  if (f) fclose(f);
  CHECK(nbefore > 0 && nbefore < sizeof before);
  opens_as(path, TESS_STORE_READ_ONLY, p);
  f = fopen(path, "rb");
  size_t nafter = f ? fread(after, 1, sizeof after, f) : 0;
  if (f) fclose(f);
  CHECK(nafter == nbefore && memcmp(before, after, nbefore) == 0);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == 1);
  /* Opened for writing it is upgraded. */
  opens_as(path, TESS_STORE_READ_WRITE, p);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == TESS_STORE_SCHEMA_VERSION);
  CHECK(sql_int(path, "SELECT count(*) FROM pragma_table_info('objects') WHERE name LIKE 'joint_motor%'") == 3);
  CHECK(sql_int(path,
                "SELECT count(*) FROM objects WHERE joint_motor_enabled IS NOT 0 OR joint_motor_speed IS NOT 0 "
                "OR joint_motor_torque IS NOT 0") == 0);
  /* The upgraded file has the columns a new file has, in the same order. */
  char fresh[512], a[2048], b[2048];
  tess_test_path(fresh, sizeof fresh, "fresh-schema2.tessera");
  unlink(fresh);
  CHECK_OK(tess_store_open(fresh, TESS_STORE_CREATE, &st, &err), &err);
  if (st) tess_store_close(st);
  column_names(path, "objects", a, sizeof a);
  column_names(fresh, "objects", b, sizeof b);
  CHECK_MSG(strcmp(a, b) == 0, "upgraded %s vs new %s", a, b);
  /* Now a current file: it opens read-only, and a motor set on it stays. */
  TessProject *q = load_file(path);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  tess_project_destroy(p);
}

/* The real step 3 -> 4: a schema-3 file (the sample, made from a current
 * file by dropping the three tileset columns step 4 adds) reads in place
 * with every tileset at offset 0 and at its own size, as before, and is
 * upgraded when opened for writing; a current file keeps an offset and
 * fit_cell through a save and a load. */
void migration_real_step_adds_tileset_offsets(void) {
  char path[512];
  TessProject *p = NULL;
  make_project("schema3.tessera", path, sizeof path, &p);
  CHECK(p && p->tileset_count >= 1);
  if (!p) return;
  CHECK(schema_downgrade(path, 3));
  CHECK(forget_integrators(p) >= 1);
  opens_as(path, TESS_STORE_READ_ONLY, p);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == 3);
  opens_as(path, TESS_STORE_READ_WRITE, p);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == TESS_STORE_SCHEMA_VERSION);
  CHECK(sql_int(path, "SELECT count(*) FROM pragma_table_info('tilesets') WHERE name IN ('offset_x', 'offset_y', 'fit_cell')") == 3);
  tess_project_destroy(p);

  /* A current file keeps them. */
  p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  p->tilesets[0]->offset_x = -3;
  p->tilesets[0]->offset_y = 17;
  p->tilesets[0]->fit_cell = 1;
  tess_test_path(path, sizeof path, "offsets.tessera");
  create_and_flush(path, p);
  TessProject *q = load_file(path);
  CHECK(q && q->tilesets[0]->offset_x == -3 && q->tilesets[0]->offset_y == 17 && q->tilesets[0]->fit_cell == 1);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  tess_project_destroy(p);
}

/* The real step 6 -> 7: a schema-6 file (the sample, made from a current file by dropping the
 * column step 7 adds) reads in place with every body on Euler, the file untouched byte for byte,
 * and is upgraded when opened for writing, with a new file's columns; a current file keeps a
 * body's RK4 and the spring zone through a flush and a load. */
void migration_real_step_adds_body_integrator(void) {
  char path[512];
  TessProject *p = NULL;
  make_project("schema6.tessera", path, sizeof path, &p);
  CHECK(p != NULL);
  if (!p) return;
  CHECK(sql_int(path, "SELECT count(*) FROM objects WHERE body_integrator = 1") == 1);
  CHECK(sql_int(path, "SELECT count(*) FROM objects WHERE zone_kind = 3") == 1); /* the spring */
  TessProject *q = load_file(path);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  CHECK(schema_downgrade(path, 6));
  uint64_t rk4_hash = tess_project_hash(p);
  CHECK(forget_integrators(p) == 1);
  CHECK(tess_project_hash(p) != rk4_hash);
  FILE *f = fopen(path, "rb");
  static unsigned char before[1 << 20], after[1 << 20];
  size_t nbefore = f ? fread(before, 1, sizeof before, f) : 0;
  if (f) fclose(f);
  CHECK(nbefore > 0 && nbefore < sizeof before);
  opens_as(path, TESS_STORE_READ_ONLY, p);
  f = fopen(path, "rb");
  size_t nafter = f ? fread(after, 1, sizeof after, f) : 0;
  if (f) fclose(f);
  CHECK(nafter == nbefore && memcmp(before, after, nbefore) == 0);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == 6);
  opens_as(path, TESS_STORE_READ_WRITE, p);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == TESS_STORE_SCHEMA_VERSION);
  CHECK(sql_int(path, "SELECT count(*) FROM objects WHERE kind = 0 AND body_integrator IS NOT 0") == 0);
  char fresh[512], a[2048], b[2048];
  tess_test_path(fresh, sizeof fresh, "fresh-schema7.tessera");
  unlink(fresh);
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(fresh, TESS_STORE_CREATE, &st, &err), &err);
  if (st) tess_store_close(st);
  column_names(path, "objects", a, sizeof a);
  column_names(fresh, "objects", b, sizeof b);
  CHECK_MSG(strcmp(a, b) == 0, "upgraded %s vs new %s", a, b);
  /* A value the model does not know is refused, naming the table and column. */
  CHECK(sql_exec(path, "UPDATE objects SET body_integrator = 2 WHERE kind = 0"));
  CHECK(tess_store_open(path, TESS_STORE_READ_ONLY, &st, &err) == TESS_OK);
  if (st) {
    TessProject *bad = NULL;
    TessResult r = tess_store_load(st, &bad, &err);
    CHECK_MSG(r == TESS_ERR_FORMAT && bad == NULL && strstr(err.detail, "objects") && strstr(err.detail, "body_integrator"),
              "%s: %s", tess_result_string(r), err.detail);
    if (bad) tess_project_destroy(bad);
    tess_store_close(st);
  }
  tess_project_destroy(p);
}

/* A schema one past the build's, adding a column and a table on top of the real steps. */
void migration_applies_step(void) {
  TessStoreMigration steps[STEP_COUNT_MAX];
  const TessStoreSchema next = schema_plus(
      steps, (TessStoreMigration){0, "add notes",
                                  "ALTER TABLE materials ADD COLUMN note TEXT NOT NULL DEFAULT '';"
                                  "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
                                  "INSERT INTO notes (text) SELECT name FROM levels;"});
  const uint32_t now = TESS_STORE_SCHEMA_VERSION;
  char path[512], needle[160];
  TessProject *p = NULL;
  make_project("migrate.tessera", path, sizeof path, &p);
  TessStore *st = NULL;
  TessError err;
  /* Read-only cannot upgrade. */
  CHECK(store_open_with_schema(path, TESS_STORE_READ_ONLY, &next, &st, &err) == TESS_ERR_VERSION);
  snprintf(needle, sizeof needle, "older schema %u", now);
  CHECK_MSG(strstr(err.detail, needle), "%s", err.detail);
  CHECK_OK(store_open_with_schema(path, TESS_STORE_READ_WRITE, &next, &st, &err), &err);
  if (st) {
    TessProject *q = NULL;
    CHECK_OK(tess_store_load(st, &q, &err), &err);
    CHECK(q && tess_project_hash(q) == tess_project_hash(p));
    if (q) tess_project_destroy(q);
    tess_store_close(st);
  }
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == now + 1);
  CHECK(sql_int(path, "SELECT count(*) FROM pragma_table_info('materials') WHERE name = 'note'") == 1);
  CHECK(sql_int(path, "SELECT count(*) FROM notes") == 2);
  /* This build reads up to `now`: the upgraded file is now from a newer Tessera. */
  snprintf(needle, sizeof needle, "newer Tessera (schema %u, this one reads up to %u)", now + 1, now);
  expect_open_error(path, TESS_STORE_READ_ONLY, TESS_ERR_VERSION, needle);
  /* Opening again with the next schema changes nothing. */
  CHECK_OK(store_open_with_schema(path, TESS_STORE_READ_ONLY, &next, &st, &err), &err);
  if (st) tess_store_close(st);
  CHECK(sql_int(path, "SELECT count(*) FROM notes") == 2);
  /* A new file made by that build is at its version at once, through every step. */
  char fresh[512];
  tess_test_path(fresh, sizeof fresh, "fresh-next.tessera");
  unlink(fresh);
  CHECK_OK(store_open_with_schema(fresh, TESS_STORE_CREATE, &next, &st, &err), &err);
  if (st) tess_store_close(st);
  CHECK(sql_int(fresh, "SELECT value FROM meta WHERE key = 'schema_version'") == now + 1);
  CHECK(sql_int(fresh, "SELECT count(*) FROM pragma_table_info('objects') WHERE name = 'joint_motor_torque'") == 1);
  /* A build two versions on with no step from now + 1 refuses, naming the gap. */
  const TessStoreSchema gap = {next.version + 1, next.steps, next.step_count};
  TessResult r = store_open_with_schema(path, TESS_STORE_READ_WRITE, &gap, &st, &err);
  snprintf(needle, sizeof needle, "no step upgrades it to %u", now + 2);
  CHECK(r == TESS_ERR_VERSION && strstr(err.detail, needle));
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == now + 1);
  tess_project_destroy(p);
}

void migration_failure_rolls_back(void) {
  char path[512];
  TessProject *p = NULL;
  make_project("migrate-fail.tessera", path, sizeof path, &p);
  TessStoreMigration steps[STEP_COUNT_MAX];
  const TessStoreSchema BAD_SCHEMA = schema_plus(
      steps, (TessStoreMigration){0, "a step that fails halfway",
                                  "CREATE TABLE notes (x); INSERT INTO no_such_table VALUES (1);"});
  const uint32_t now = TESS_STORE_SCHEMA_VERSION;
  char needle[160];
  snprintf(needle, sizeof needle, "from schema %u to %u (a step that fails halfway) failed", now, now + 1);
  TessStore *st = NULL;
  TessError err;
  TessResult r = store_open_with_schema(path, TESS_STORE_READ_WRITE, &BAD_SCHEMA, &st, &err);
  CHECK(r == TESS_ERR_DATABASE && st == NULL);
  CHECK_MSG(strstr(err.detail, needle) &&
                strstr(err.detail, "no_such_table"),
            "%s", err.detail);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == now);
  CHECK(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'notes'") == 0);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'clean_close'") == 1); /* as it was found */
  TessProject *q = load_file(path);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  tess_project_destroy(p);
}

/* The real step 4 -> 5: a schema-4 file (the sample without the depth and
 * y_sort columns) reads in place with every depth 0 and no layer sorted by
 * y, and is upgraded when opened for writing; a current file keeps a depth
 * and a y-sorted layer through a save and a load (and the project hash sees
 * them). */
void migration_real_step_adds_draw_depth(void) {
  char path[512];
  TessProject *p = NULL;
  make_project("schema4.tessera", path, sizeof path, &p);
  if (!p) return;
  CHECK(schema_downgrade(path, 4));
  CHECK(forget_integrators(p) >= 1);
  opens_as(path, TESS_STORE_READ_ONLY, p);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == 4);
  opens_as(path, TESS_STORE_READ_WRITE, p);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == TESS_STORE_SCHEMA_VERSION);
  CHECK(sql_int(path, "SELECT count(*) FROM pragma_table_info('objects') WHERE name = 'depth'") == 1);
  CHECK(sql_int(path, "SELECT count(*) FROM pragma_table_info('layers') WHERE name = 'y_sort'") == 1);
  tess_project_destroy(p);

  p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  uint64_t before = tess_project_hash(p);
  TessLayer *layer = NULL;
  TessObject *o = tess_level_object(tess_project_level(p, s.level), s.body_circle, &layer);
  CHECK(o && layer);
  if (!o || !layer) {
    tess_project_destroy(p);
    return;
  }
  o->depth = -7;
  layer->props.y_sort = true;
  CHECK(tess_project_hash(p) != before);
  tess_test_path(path, sizeof path, "depth.tessera");
  create_and_flush(path, p);
  TessProject *q = load_file(path);
  TessLayer *ql = NULL;
  TessObject *qo = q ? tess_level_object(tess_project_level(q, s.level), s.body_circle, &ql) : NULL;
  CHECK(qo && qo->depth == -7 && ql && ql->props.y_sort);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  tess_project_destroy(p);
}
