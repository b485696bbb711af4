/* flush: only what changed is written, emptied chunks lose their rows, and
 * a flush is one transaction (all of it lands, or none). */
#include "store_tests.h"

/* Counts every INSERT and UPDATE on chunks inside the file itself, through
 * triggers added by an independent connection: the store's own statistics
 * are checked against SQLite's view of what happened. */
static void install_chunk_counter(const char *path) {
  CHECK(sql_exec(path,
                 "CREATE TABLE chunk_writes (n INTEGER NOT NULL); INSERT INTO chunk_writes VALUES (0);"
                 "CREATE TRIGGER chunk_ins AFTER INSERT ON chunks BEGIN UPDATE chunk_writes SET n = n + 1; END;"
                 "CREATE TRIGGER chunk_upd AFTER UPDATE ON chunks BEGIN UPDATE chunk_writes SET n = n + 1; END;"));
}

static int64_t chunk_writes(const char *path) { return sql_int(path, "SELECT n FROM chunk_writes"); }

static TessStore *open_rw(const char *path) {
  TessStore *s = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &s, &err), &err);
  return s;
}

void flush_writes_only_touched_chunks(void) {
  char path[512];
  tess_test_path(path, sizeof path, "touched.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  int64_t rows = sql_int(path, "SELECT count(*) FROM chunks");
  CHECK(rows > 10);
  install_chunk_counter(path);
  TessStore *store = open_rw(path);
  if (!store) {
    tess_project_destroy(p);
    return;
  }
  TessError err;
  TessStoreStats before, after;
  TessCell c = TESS_CELL_MAKE(s.tileset, 3, 0);

  /* One cell: one chunk row. */
  tess_store_stats(store, &before);
  CHECK_OK(tess_edit_fill_rect(p, s.level, s.ground, 5, 5, 1, 1, c, 0, &err), &err);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  tess_store_stats(store, &after);
  CHECK(after.chunk_rows_written - before.chunk_rows_written == 1);
  CHECK(after.transactions - before.transactions == 1);
  CHECK(chunk_writes(path) == 1);

  /* A 4x4 square on the corner of four chunks: four rows, all new. */
  tess_store_stats(store, &before);
  CHECK_OK(tess_edit_fill_rect(p, s.level, s.decor, 2 * TESS_CHUNK_SIZE - 2, 2 * TESS_CHUNK_SIZE - 2, 4, 4, c, 0, &err),
           &err);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  tess_store_stats(store, &after);
  CHECK(after.chunk_rows_written - before.chunk_rows_written == 4);
  CHECK(chunk_writes(path) == 5);

  /* A brush drag of 64 cells inside one chunk, flushed once per dab as the editor does: one row per dab. */
  uint32_t drag = tess_project_new_merge_key(p);
  tess_store_stats(store, &before);
  for (int i = 0; i < 64; i++) {
    CHECK_OK(tess_edit_paint(p, s.level, s.ground, 64 + i % 8, 8 + i / 8, 1, 1, &c, drag, &err), &err);
    CHECK_OK(tess_store_flush(store, p, &err), &err);
  }
  tess_store_stats(store, &after);
  CHECK(after.chunk_rows_written - before.chunk_rows_written == 64);
  CHECK(chunk_writes(path) == 69);

  /* Editing an object writes no chunk at all. */
  TessObject o;
  CHECK_OK(tess_object_copy(&o, tess_level_object(tess_project_level(p, s.level), s.spawn, NULL)), &err);
  o.pos.x += 1.0f;
  CHECK_OK(tess_edit_object_set(p, s.level, &o, 0, &err), &err);
  tess_object_clear(&o);
  tess_store_stats(store, &before);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  tess_store_stats(store, &after);
  CHECK(after.chunk_rows_written == before.chunk_rows_written);
  CHECK(chunk_writes(path) == 69);
  CHECK(sql_int(path, "SELECT count(*) FROM chunks") == rows + 4);

  /* Nothing pending: no transaction at all. */
  tess_store_stats(store, &before);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  tess_store_stats(store, &after);
  CHECK(after.transactions == before.transactions);
  tess_store_close(store);

  TessProject *q = load_file(path);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  tess_project_destroy(p);
}

void flush_deletes_emptied_chunk_rows(void) {
  char path[512];
  tess_test_path(path, sizeof path, "emptied.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  TessStore *store = open_rw(path);
  if (!store) {
    tess_project_destroy(p);
    return;
  }
  TessError err;
  char sql[200];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM chunks WHERE layer_id = %u", s.decor);
  int64_t decor_rows = sql_int(path, sql);
  CHECK(decor_rows == 1); /* the 20 x 20 fill at (40, 0) lies inside chunk (1, 0) */

  /* Erase all of it: the row goes. */
  TessStoreStats before, after;
  tess_store_stats(store, &before);
  CHECK_OK(tess_edit_erase(p, s.level, s.decor, 0, 0, 100, 70, 0, &err), &err);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  tess_store_stats(store, &after);
  CHECK(after.chunk_rows_deleted - before.chunk_rows_deleted == 1);
  CHECK(sql_int(path, sql) == 0);

  /* Undo brings the row back, redo takes it away again. */
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  CHECK(sql_int(path, sql) == 1);
  CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  CHECK(sql_int(path, sql) == 0);

  /* Removing a level removes all of its rows (cascade). */
  snprintf(sql, sizeof sql, "SELECT count(*) FROM chunks WHERE level_id = %u", s.level);
  int64_t level_rows = sql_int(path, sql);
  CHECK(level_rows > 3);
  CHECK_OK(tess_edit_level_remove(p, s.level, &err), &err);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  CHECK(sql_int(path, sql) == 0);
  /* Undoing the removal writes each of its chunks once, however the changes name them. */
  tess_store_stats(store, &before);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  tess_store_stats(store, &after);
  CHECK(sql_int(path, sql) == level_rows);
  CHECK_MSG(after.chunk_rows_written - before.chunk_rows_written == (uint64_t)level_rows, "%llu chunk rows for %lld",
            (unsigned long long)(after.chunk_rows_written - before.chunk_rows_written), (long long)level_rows);
  CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  CHECK(sql_int(path, sql) == 0);
  snprintf(sql, sizeof sql, "SELECT count(*) FROM objects WHERE level_id = %u", s.level);
  CHECK(sql_int(path, sql) == 0);
  CHECK(sql_int(path, "SELECT count(*) FROM object_props") == 0); /* only `level` had properties */
  snprintf(sql, sizeof sql, "SELECT count(*) FROM layers WHERE level_id = %u", s.level);
  CHECK(sql_int(path, sql) == 0);
  tess_store_close(store);
  TessProject *q = load_file(path);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  tess_project_destroy(p);
}

void flush_is_one_transaction(void) {
  char path[512];
  tess_test_path(path, sizeof path, "atomic.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  uint64_t saved = tess_project_hash(p);
  /* A trigger that refuses one object name makes the flush fail halfway through. */
  CHECK(sql_exec(path,
                 "CREATE TRIGGER refuse BEFORE INSERT ON objects WHEN new.name = 'Poison' "
                 "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;"));
  TessStore *store = open_rw(path);
  if (!store) {
    tess_project_destroy(p);
    return;
  }
  TessError err;
  CHECK_OK(tess_edit_fill_rect(p, s.level, s.ground, 0, 0, 100, 70, TESS_CELL_MAKE(s.tileset, 1, 0), 0, &err), &err);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  snprintf(o.name, sizeof o.name, "Poison");
  TessId id;
  CHECK_OK(tess_edit_object_add(p, s.level, s.objects, &o, &id, &err), &err);
  tess_object_clear(&o);
  const TessChange *changes;
  size_t pending = tess_project_changes(p, &changes);
  CHECK(pending > 1);
  TessResult r = tess_store_flush(store, p, &err);
  CHECK(r == TESS_ERR_DATABASE);
  CHECK_MSG(strstr(err.detail, "refused by the test") != NULL, "%s", err.detail);
  CHECK(tess_project_changes(p, &changes) == pending); /* still pending, for a later try */

  /* Nothing of the failed flush is in the file: the cells are as before. */
  TessProject *q = load_file(path);
  CHECK(q && tess_project_hash(q) == saved);
  if (q) tess_project_destroy(q);

  CHECK(sql_exec(path, "DROP TRIGGER refuse"));
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  tess_store_close(store);
  q = load_file(path);
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  tess_project_destroy(p);
}
