/* Persisting a project: everything at once (save_all), or the pending
 * changes of the last edits (flush), each in one transaction.
 *
 * flush reads the current state of whatever a change names: the row is
 * upserted when the thing exists and deleted when it does not. It never
 * trusts that the change list is complete for structure: a level or layer
 * whose row is missing (an undone removal) is written whole with its
 * content, a resized level has its chunks rewritten, and positions (the
 * order of levels, of a level's layers, of a layer's objects) are brought
 * in line with memory wherever something was added or removed. */
#include <string.h>

#include "store_private.h"

static TessResult readonly_error(TessStore *s, TessError *err) {
  return tess_error_set(err, TESS_ERR_READONLY, s->path, "%s was opened read-only: nothing can be written",
                        s->name);
}

static TessResult begin(TessStore *s, TessError *err) {
  TessResult r = store_log_guard(s, err);
  return r == TESS_OK ? store_run(s, STMT_BEGIN, err) : r;
}

/* Commits, or rolls back (keeping the caller's error) when r is an error. */
static TessResult finish(TessStore *s, TessResult r, TessError *err) {
  if (r == TESS_OK) r = store_run(s, STMT_COMMIT, err);
  if (r != TESS_OK) {
    if (!sqlite3_get_autocommit(s->db)) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return r;
  }
  s->stats.transactions++;
  /* A log removed during the commit: its frames are folded into the file now. */
  return store_log_guard(s, err);
}

static const TessStmt CLEAR_ORDER[] = {STMT_CLEAR_PROPS, STMT_CLEAR_OBJECTS, STMT_CLEAR_CHUNKS,
                                       STMT_CLEAR_LAYERS, STMT_CLEAR_LEVELS, STMT_CLEAR_SPRITES,
                                       STMT_CLEAR_TILESETS, STMT_CLEAR_MATERIALS};

TessResult tess_store_save_all(TessStore *s, TessProject *p, TessError *err) {
  if (s->read_only) return readonly_error(s, err);
  TessId saved[TESS_ID_KIND_COUNT];
  memcpy(saved, s->saved_next_id, sizeof saved);
  TessResult r = begin(s, err);
  if (r != TESS_OK) return r;
  for (size_t i = 0; r == TESS_OK && i < sizeof CLEAR_ORDER / sizeof CLEAR_ORDER[0]; i++)
    r = store_run(s, CLEAR_ORDER[i], err);
  for (uint32_t i = 0; r == TESS_OK && i < p->material_count; i++)
    r = store_write_material(s, &p->materials[i], err);
  for (uint32_t i = 0; r == TESS_OK && i < p->tileset_count; i++)
    r = store_write_tileset(s, p->tilesets[i], err);
  for (uint32_t i = 0; r == TESS_OK && i < p->sprite_count; i++) r = store_write_sprite(s, p->sprites[i], err);
  for (uint32_t i = 0; r == TESS_OK && i < p->level_count; i++) r = store_write_level(s, p->levels[i], i, err);
  if (r == TESS_OK) {
    for (int k = 0; k < TESS_ID_KIND_COUNT; k++) s->saved_next_id[k] = ~p->next_id[k]; /* write every counter */
    r = store_write_next_ids(s, p, err);
  }
  r = finish(s, r, err);
  if (r != TESS_OK) {
    memcpy(s->saved_next_id, saved, sizeof saved);
    return r;
  }
  memcpy(s->saved_next_id, p->next_id, sizeof saved);
  tess_project_clear_changes(p);
  return TESS_OK;
}

/* ---- flush ---------------------------------------------------------------- */

typedef struct IdPair {
  TessId level, layer;
} IdPair;

typedef struct FlushState {
  TessStore *s;
  TessProject *p;
  bool levels_reordered;
  TESS_ARRAY(TessId)
  layer_order; /* levels whose layers' positions must match memory */
  TESS_ARRAY(IdPair)
  object_order; /* layers whose objects' positions must match memory */
  TESS_ARRAY(TessId)
  written_whole; /* layers written with all their content in this flush */
} FlushState;

static bool written_whole(const FlushState *f, TessId layer) {
  for (size_t i = 0; i < f->written_whole.count; i++)
    if (f->written_whole.data[i] == layer) return true;
  return false;
}

/* A layer's row, chunks and objects; later changes inside it in this flush have nothing left to do. */
static TessResult write_layer_whole(FlushState *f, const TessLevel *level, const TessLayer *layer, uint32_t position,
                                    TessError *err) {
  TessResult r = store_write_layer_content(f->s, level, layer, position, err);
  if (r == TESS_OK && !TESS_ARRAY_PUSH(&f->written_whole, layer->props.id))
    r = tess_error_set(err, TESS_ERR_NOMEM, f->s->path, "%s: out of memory while saving", f->s->name);
  return r;
}

static bool add_unique_id(FlushState *f, TessId level) {
  for (size_t i = 0; i < f->layer_order.count; i++)
    if (f->layer_order.data[i] == level) return true;
  return TESS_ARRAY_PUSH(&f->layer_order, level);
}

static bool add_unique_pair(FlushState *f, TessId level, TessId layer) {
  for (size_t i = 0; i < f->object_order.count; i++)
    if (f->object_order.data[i].layer == layer) return true;
  IdPair pair = {level, layer};
  return TESS_ARRAY_PUSH(&f->object_order, pair);
}

static TessResult no_memory(TessStore *s, TessError *err) {
  return tess_error_set(err, TESS_ERR_NOMEM, s->path, "%s: out of memory while saving", s->name);
}

static uint32_t level_index(const TessProject *p, const TessLevel *level) {
  for (uint32_t i = 0; i < p->level_count; i++)
    if (p->levels[i] == level) return i;
  return 0;
}

static TessResult flush_level(FlushState *f, const TessChange *c, TessError *err) {
  TessStore *s = f->s;
  TessLevel *level = tess_project_level(f->p, c->id);
  f->levels_reordered = true;
  if (!level) return store_delete_row(s, STMT_LEVEL_DELETE, c->id, err); /* cascades */
  uint32_t position = level_index(f->p, level);

  sqlite3_stmt *st = store_stmt(s, STMT_LEVEL_SIZE, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  sqlite3_bind_int64(st, 1, level->id);
  int rc = sqlite3_step(st);
  bool exists = rc == SQLITE_ROW;
  int64_t old_w = exists ? sqlite3_column_int64(st, 0) : 0, old_h = exists ? sqlite3_column_int64(st, 1) : 0;
  sqlite3_reset(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return store_db_error(s, rc, "reading a level", err);

  TessResult r = store_write_level_row(s, level, position, err);
  if (r != TESS_OK) return r;
  if (!exists) {
    /* New, or an undone removal: everything in it. */
    for (uint32_t i = 0; r == TESS_OK && i < level->layer_count; i++)
      r = write_layer_whole(f, level, level->layers[i], i, err);
  } else if (old_w != (int64_t)level->settings.width || old_h != (int64_t)level->settings.height) {
    /* A resize moves content (anchoring) and changes the chunk grid: write the layers anew. */
    for (uint32_t i = 0; r == TESS_OK && i < level->layer_count; i++) {
      r = store_delete_row(s, STMT_CHUNK_DELETE_LAYER, level->layers[i]->props.id, err);
      if (r == TESS_OK) r = write_layer_whole(f, level, level->layers[i], i, err);
    }
  }
  if (r == TESS_OK && !add_unique_id(f, level->id)) r = no_memory(s, err);
  return r;
}

static TessResult flush_layer(FlushState *f, const TessChange *c, TessError *err) {
  TessStore *s = f->s;
  TessLevel *level = tess_project_level(f->p, c->level);
  TessLayer *layer = level ? tess_level_layer(level, c->layer) : NULL;
  if (!layer) {
    TessResult r = store_delete_row(s, STMT_LAYER_DELETE, c->layer, err); /* cascades */
    if (r == TESS_OK && level && !add_unique_id(f, level->id)) r = no_memory(s, err);
    return r;
  }
  int index = tess_level_layer_index(level, layer->props.id);
  if (written_whole(f, layer->props.id)) return store_write_layer_row(s, level, layer, (uint32_t)index, err);
  sqlite3_stmt *st = store_stmt(s, STMT_LAYER_EXISTS, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  sqlite3_bind_int64(st, 1, layer->props.id);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return store_db_error(s, rc, "reading a layer", err);
  TessResult r = rc == SQLITE_ROW ? store_write_layer_row(s, level, layer, (uint32_t)index, err)
                                  : write_layer_whole(f, level, layer, (uint32_t)index, err);
  /* Adding, removing or moving a layer shifts its neighbours. */
  if (r == TESS_OK && !add_unique_id(f, level->id)) r = no_memory(s, err);
  return r;
}

static TessResult flush_chunk(FlushState *f, const TessChange *c, TessError *err) {
  TessLevel *level = tess_project_level(f->p, c->level);
  TessLayer *layer = level ? tess_level_layer(level, c->layer) : NULL;
  if (!layer) return TESS_OK; /* its layer's row went with the layer */
  if (written_whole(f, layer->props.id)) return TESS_OK;
  return store_write_chunk(f->s, level, layer, c->chunk_x, c->chunk_y, err);
}

static TessResult flush_object(FlushState *f, const TessChange *c, TessError *err) {
  TessStore *s = f->s;
  TessLevel *level = tess_project_level(f->p, c->level);
  TessLayer *layer = NULL;
  TessObject *obj = level ? tess_level_object(level, c->id, &layer) : NULL;
  if (obj && written_whole(f, layer->props.id)) return TESS_OK;

  /* Where the row is now. After every flush a row's position is its
   * object's index in its layer; only changes that shift neighbours
   * (a removal or an insertion before the end) need the layer renumbered. */
  sqlite3_stmt *st = store_stmt(s, STMT_OBJECT_LOCATE, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  sqlite3_bind_int64(st, 1, c->id);
  int rc = sqlite3_step(st);
  bool exists = rc == SQLITE_ROW;
  int64_t old_layer = exists ? sqlite3_column_int64(st, 0) : 0, old_position = exists ? sqlite3_column_int64(st, 1) : 0;
  sqlite3_reset(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return store_db_error(s, rc, "reading an object", err);

  if (!obj) {
    if (!exists) return TESS_OK;
    TessResult r = store_delete_row(s, STMT_OBJECT_DELETE, c->id, err); /* cascades to properties */
    TessLayer *from = level ? tess_level_layer(level, (TessId)old_layer) : NULL;
    bool was_last = from && old_position == (int64_t)from->object_count;
    if (r == TESS_OK && from && !was_last && !add_unique_pair(f, level->id, from->props.id)) r = no_memory(s, err);
    return r;
  }
  uint32_t index = (uint32_t)(obj - layer->objects);
  bool in_place = exists && old_layer == (int64_t)layer->props.id && old_position == (int64_t)index;
  bool appended = !exists && index + 1 == layer->object_count;
  TessResult r = store_write_object(s, level, layer, obj, index, err);
  if (r == TESS_OK && !in_place && !appended && !add_unique_pair(f, level->id, layer->props.id)) r = no_memory(s, err);
  return r;
}

static TessResult set_position(TessStore *s, TessStmt which, TessId id, uint32_t position, TessError *err) {
  sqlite3_stmt *st = store_stmt(s, which, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_int64(st, 2, position);
  TessResult r = store_exec_stmt(s, st, err);
  if (r == TESS_OK) s->stats.rows_written += (uint64_t)sqlite3_changes(s->db);
  return r;
}

static TessResult fix_positions(FlushState *f, TessError *err) {
  TessResult r = TESS_OK;
  if (f->levels_reordered)
    for (uint32_t i = 0; r == TESS_OK && i < f->p->level_count; i++)
      r = set_position(f->s, STMT_LEVEL_SET_POSITION, f->p->levels[i]->id, i, err);
  for (size_t k = 0; r == TESS_OK && k < f->layer_order.count; k++) {
    TessLevel *level = tess_project_level(f->p, f->layer_order.data[k]);
    for (uint32_t i = 0; r == TESS_OK && level && i < level->layer_count; i++)
      r = set_position(f->s, STMT_LAYER_SET_POSITION, level->layers[i]->props.id, i, err);
  }
  for (size_t k = 0; r == TESS_OK && k < f->object_order.count; k++) {
    TessLevel *level = tess_project_level(f->p, f->object_order.data[k].level);
    TessLayer *layer = level ? tess_level_layer(level, f->object_order.data[k].layer) : NULL;
    for (uint32_t i = 0; r == TESS_OK && layer && i < layer->object_count; i++)
      r = set_position(f->s, STMT_OBJECT_SET_POSITION, layer->objects[i].id, i, err);
  }
  return r;
}

static TessResult flush_one(FlushState *f, const TessChange *c, TessError *err) {
  TessStore *s = f->s;
  switch (c->kind) {
    case TESS_CHANGE_MATERIAL: {
      const TessMaterial *m = tess_project_material(f->p, c->id);
      return m ? store_write_material(s, m, err) : store_delete_row(s, STMT_MATERIAL_DELETE, c->id, err);
    }
    case TESS_CHANGE_TILESET: {
      const TessTileset *ts = tess_project_tileset(f->p, c->id);
      return ts ? store_write_tileset(s, ts, err) : store_delete_row(s, STMT_TILESET_DELETE, c->id, err);
    }
    case TESS_CHANGE_SPRITE: {
      const TessSprite *sp = tess_project_sprite(f->p, c->id);
      return sp ? store_write_sprite(s, sp, err) : store_delete_row(s, STMT_SPRITE_DELETE, c->id, err);
    }
    case TESS_CHANGE_LEVEL: return flush_level(f, c, err);
    case TESS_CHANGE_LAYER: return flush_layer(f, c, err);
    case TESS_CHANGE_CHUNK: return flush_chunk(f, c, err);
    case TESS_CHANGE_OBJECT: return flush_object(f, c, err);
    default:
      return tess_error_set(err, TESS_ERR_INVALID, s->path, "%s: unknown change kind %u", s->name, c->kind);
  }
}

TessResult tess_store_flush(TessStore *s, TessProject *p, TessError *err) {
  if (s->read_only) return readonly_error(s, err);
  const TessChange *changes = NULL;
  size_t count = tess_project_changes(p, &changes);
  if (count == 0 && memcmp(s->saved_next_id, p->next_id, sizeof s->saved_next_id) == 0) return TESS_OK;

  FlushState f = {.s = s, .p = p};
  TessResult r = begin(s, err);
  if (r != TESS_OK) return r;
  /* By kind, in dependency order: a new level's row before its layers', a
   * layer's before its chunks and objects. Within a kind, as recorded. */
  for (int kind = 0; r == TESS_OK && kind < TESS_CHANGE_COUNT; kind++)
    for (size_t i = 0; r == TESS_OK && i < count; i++)
      if (changes[i].kind == kind) r = flush_one(&f, &changes[i], err);
  for (size_t i = 0; r == TESS_OK && i < count; i++)
    if (changes[i].kind >= TESS_CHANGE_COUNT) r = flush_one(&f, &changes[i], err);
  if (r == TESS_OK) r = fix_positions(&f, err);
  if (r == TESS_OK) r = store_write_next_ids(s, p, err);
  TESS_ARRAY_FREE(&f.layer_order);
  TESS_ARRAY_FREE(&f.object_order);
  TESS_ARRAY_FREE(&f.written_whole);
  r = finish(s, r, err);
  if (r != TESS_OK) return r; /* the changes stay pending: a later flush can persist them */
  memcpy(s->saved_next_id, p->next_id, sizeof s->saved_next_id);
  s->stats.changes_flushed += count;
  tess_project_clear_changes(p);
  return TESS_OK;
}
