/* Loading a project: one read transaction (a consistent snapshot even while
 * another connection writes), one pass over each table, every value checked
 * for type and range and every BLOB for length before it reaches the model.
 * A bad value is TESS_ERR_FORMAT naming the table, the row and the column. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_codec.h"
#include "store_codec_terrain.h"
#include "store_private.h"

/* One row being read; the first problem is kept in `r`. */
typedef struct Row {
  TessStore *s;
  sqlite3_stmt *st;
  const char *table;
  int64_t id;
  TessError *err;
  TessResult r;
} Row;

static Row row_begin(TessStore *s, sqlite3_stmt *st, const char *table, TessError *err) {
  Row w = {s, st, table, sqlite3_column_int64(st, 0), err, TESS_OK};
  return w;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void
row_fail(Row *w, TessResult code, int col, const char *fmt, ...) {
  if (w->r != TESS_OK) return;
  char why[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  const char *column = col >= 0 ? sqlite3_column_name(w->st, col) : NULL;
  if (column)
    w->r = tess_error_set(w->err, code, w->s->path, "%s is damaged: %s row %lld, %s: %s", w->s->name, w->table,
                          (long long)w->id, column, why);
  else
    w->r = tess_error_set(w->err, code, w->s->path, "%s is damaged: %s row %lld: %s", w->s->name, w->table,
                          (long long)w->id, why);
}

static int64_t row_int(Row *w, int col, int64_t min, int64_t max) {
  if (sqlite3_column_type(w->st, col) != SQLITE_INTEGER) {
    row_fail(w, TESS_ERR_FORMAT, col, "not an integer");
    return min;
  }
  int64_t v = sqlite3_column_int64(w->st, col);
  if (v < min || v > max) {
    row_fail(w, TESS_ERR_FORMAT, col, "%lld is outside %lld..%lld", (long long)v, (long long)min, (long long)max);
    return min;
  }
  return v;
}

static uint32_t row_u32(Row *w, int col) { return (uint32_t)row_int(w, col, 0, UINT32_MAX); }
static uint8_t row_u8(Row *w, int col, uint8_t max) { return (uint8_t)row_int(w, col, 0, max); }

/* SQLite stores NaN as NULL: a NULL float reads back as NaN. */
static double row_f64(Row *w, int col) {
  switch (sqlite3_column_type(w->st, col)) {
    case SQLITE_FLOAT:
    case SQLITE_INTEGER: return sqlite3_column_double(w->st, col);
    case SQLITE_NULL: return NAN;
    default: row_fail(w, TESS_ERR_FORMAT, col, "not a number"); return 0.0;
  }
}
static float row_f32(Row *w, int col) { return (float)row_f64(w, col); }

static void row_name(Row *w, int col, char *dst) {
  dst[0] = '\0';
  if (sqlite3_column_type(w->st, col) != SQLITE_TEXT) {
    row_fail(w, TESS_ERR_FORMAT, col, "not text");
    return;
  }
  const unsigned char *text = sqlite3_column_text(w->st, col);
  int n = sqlite3_column_bytes(w->st, col);
  if (!text || n < 0 || n >= TESS_NAME_MAX || memchr(text, 0, (size_t)n)) {
    row_fail(w, TESS_ERR_FORMAT, col, "a name of %d bytes (at most %d)", n, TESS_NAME_MAX - 1);
    return;
  }
  /* Names reach file names, JSON and terminals: text only (the NUL was checked above). */
  for (int i = 0; i < n;) {
    size_t k = tess_utf8_sequence((const char *)text + i);
    if (k == 0) {
      row_fail(w, TESS_ERR_FORMAT, col, "a name that is not valid UTF-8 (byte %d)", i);
      return;
    }
    i += (int)k;
  }
  memcpy(dst, text, (size_t)n);
  dst[n] = '\0';
}

/* Text or NULL; the pointer is valid until the statement moves on. Text
 * reaches labels and file names: valid UTF-8 only, as names. */
static const char *row_text_or_null(Row *w, int col) {
  int type = sqlite3_column_type(w->st, col);
  if (type == SQLITE_NULL) return NULL;
  if (type != SQLITE_TEXT) {
    row_fail(w, TESS_ERR_FORMAT, col, "not text");
    return NULL;
  }
  const char *text = (const char *)sqlite3_column_text(w->st, col);
  if (text && !tess_utf8_valid(text)) {
    row_fail(w, TESS_ERR_FORMAT, col, "text that is not valid UTF-8");
    return NULL;
  }
  return text;
}

/* A BLOB or NULL (size 0); the pointer is valid until the statement moves on. */
static const uint8_t *row_blob(Row *w, int col, size_t *size) {
  *size = 0;
  int type = sqlite3_column_type(w->st, col);
  if (type == SQLITE_NULL) return NULL;
  if (type != SQLITE_BLOB) {
    row_fail(w, TESS_ERR_FORMAT, col, "not a BLOB");
    return NULL;
  }
  const uint8_t *p = sqlite3_column_blob(w->st, col);
  *size = (size_t)sqlite3_column_bytes(w->st, col);
  return p;
}

/* An error from a tess_project_insert_* call, restated with the table and row. */
static void row_insert_failed(Row *w, TessResult code, const TessError *inner) {
  row_fail(w, code == TESS_ERR_NOMEM ? TESS_ERR_NOMEM : TESS_ERR_FORMAT, -1, "%s",
           inner->detail[0] ? inner->detail : tess_result_string(code));
}

static TessResult step_error(TessStore *s, int rc, TessError *err) {
  return store_db_error(s, rc, "reading", err);
}

#define GET_STMT(var, which)                       \
  sqlite3_stmt *var = store_stmt(s, (which), err); \
  if (!var) return err ? err->code : TESS_ERR_DATABASE

/* ---- materials, tilesets, sprites ------------------------------------------- */

static TessResult load_materials(TessStore *s, TessProject *p, TessError *err) {
  GET_STMT(st, STMT_MATERIAL_SELECT_ALL);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row w = row_begin(s, st, "materials", err);
    TessMaterial m;
    tess_material_default(&m);
    m.id = (TessId)row_int(&w, 0, 1, TESS_MATERIAL_ID_MAX);
    row_name(&w, 1, m.name);
    m.color = row_u32(&w, 2);
    m.friction = row_f32(&w, 3);
    m.restitution = row_f32(&w, 4);
    m.tangential = row_f32(&w, 5);
    m.density = row_f32(&w, 6);
    m.kind = (TessMaterialKind)row_int(&w, 7, TESS_MATERIAL_SOLID, TESS_MATERIAL_FLUID);
    if (w.r == TESS_OK) {
      TessError inner = {0};
      TessResult r = tess_project_insert_material(p, &m, &inner);
      if (r != TESS_OK) row_insert_failed(&w, r, &inner);
    }
    if (w.r != TESS_OK) return w.r;
  }
  return rc == SQLITE_DONE ? TESS_OK : step_error(s, rc, err);
}

static TessResult load_tilesets(TessStore *s, TessProject *p, TessError *err) {
  GET_STMT(st, s->file_schema >= 4   ? STMT_TILESET_SELECT_ALL
               : s->file_schema == 3 ? STMT_TILESET_SELECT_ALL_SCHEMA3
                                     : STMT_TILESET_SELECT_ALL_SCHEMA2);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row w = row_begin(s, st, "tilesets", err);
    TessTileset ts;
    memset(&ts, 0, sizeof ts);
    ts.id = (TessId)row_int(&w, 0, 1, TESS_TILESET_ID_MAX);
    row_name(&w, 1, ts.name);
    ts.source_path = (char *)row_text_or_null(&w, 2);
    ts.png = (uint8_t *)row_blob(&w, 3, &ts.png_size);
    ts.image_w = row_u32(&w, 4);
    ts.image_h = row_u32(&w, 5);
    ts.tile_w = row_u32(&w, 6);
    ts.tile_h = row_u32(&w, 7);
    ts.margin = row_u32(&w, 8);
    ts.spacing = row_u32(&w, 9);
    ts.columns = row_u32(&w, 10);
    ts.tile_count = (uint32_t)row_int(&w, 11, 0, 65536);
    ts.alpha_threshold = row_u8(&w, 12, 255);
    ts.offset_x = (int32_t)row_int(&w, 15, -TESS_TILE_OFFSET_MAX, TESS_TILE_OFFSET_MAX);
    ts.offset_y = (int32_t)row_int(&w, 16, -TESS_TILE_OFFSET_MAX, TESS_TILE_OFFSET_MAX);
    ts.fit_cell = row_u8(&w, 17, 1);
    size_t tiles_size;
    const uint8_t *tiles = row_blob(&w, 13, &tiles_size);
    const char *why = NULL;
    if (w.r == TESS_OK && !store_codec_get_tiles(tiles, tiles_size, ts.tile_count, &ts.tiles, &why))
      row_fail(&w, strcmp(why, "out of memory") == 0 ? TESS_ERR_NOMEM : TESS_ERR_FORMAT, 13, "%s (%zu bytes)", why,
               tiles_size);
    size_t terrains_size;
    const uint8_t *terrains = row_blob(&w, 14, &terrains_size);
    if (w.r == TESS_OK && !store_codec_get_terrains(terrains, terrains_size, &ts.terrains, &ts.terrain_count, &why))
      row_fail(&w, strcmp(why, "out of memory") == 0 ? TESS_ERR_NOMEM : TESS_ERR_FORMAT, 14, "%s (%zu bytes)", why,
               terrains_size);
    if (w.r == TESS_OK) {
      TessError inner = {0};
      TessResult r = tess_project_insert_tileset(p, &ts, &inner);
      if (r != TESS_OK) row_insert_failed(&w, r, &inner);
    }
    store_codec_free_tiles(ts.tiles, ts.tile_count);
    tess_terrain_sets_free(ts.terrains, ts.terrain_count);
    if (w.r != TESS_OK) return w.r;
  }
  return rc == SQLITE_DONE ? TESS_OK : step_error(s, rc, err);
}

static TessResult load_sprites(TessStore *s, TessProject *p, TessError *err) {
  GET_STMT(st, STMT_SPRITE_SELECT_ALL);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row w = row_begin(s, st, "sprites", err);
    TessSprite sp;
    memset(&sp, 0, sizeof sp);
    TessSpriteMask *m = &sp.mask;
    tess_sprite_mask_default(m);
    int c = 0;
    sp.id = (TessId)row_int(&w, c++, 1, UINT32_MAX);
    row_name(&w, c++, sp.name);
    sp.source_path = (char *)row_text_or_null(&w, c++);
    sp.png = (uint8_t *)row_blob(&w, c++, &sp.png_size);
    sp.image_w = row_u32(&w, c++);
    sp.image_h = row_u32(&w, c++);
    sp.frame_count = row_u32(&w, c++);
    sp.frame_rate = row_f32(&w, c++);
    sp.anchor.x = row_f32(&w, c++);
    sp.anchor.y = row_f32(&w, c++);
    m->threshold = row_u8(&w, c++, 255);
    m->mode = row_u8(&w, c++, TESS_MASK_BOX);
    m->manual = row_u8(&w, c++, 1);
    m->largest_island_only = row_u8(&w, c++, 1);
    m->max_vertices = row_u32(&w, c++);
    m->tolerance = row_f32(&w, c++);
    int hull_col = c++, pieces_col = c++;
    m->circle_center.x = row_f32(&w, c++);
    m->circle_center.y = row_f32(&w, c++);
    m->circle_radius = row_f32(&w, c++);
    m->area = row_f64(&w, c++);
    m->centroid_x = row_f64(&w, c++);
    m->centroid_y = row_f64(&w, c++);
    m->inertia = row_f64(&w, c++);
    m->shape_area = row_f64(&w, c++);
    m->shape_centroid_x = row_f64(&w, c++);
    m->shape_centroid_y = row_f64(&w, c++);
    m->shape_inertia = row_f64(&w, c++);
    m->added_area = row_f64(&w, c++);
    m->uncovered_area = row_f64(&w, c++);
    size_t hull_size, pieces_size;
    const uint8_t *hull = row_blob(&w, hull_col, &hull_size);
    const uint8_t *pieces = row_blob(&w, pieces_col, &pieces_size);
    const char *why = NULL;
    if (w.r == TESS_OK && !store_codec_get_points(hull, hull_size, &m->hull, &m->hull_count, &why))
      row_fail(&w, TESS_ERR_FORMAT, hull_col, "%s (%zu bytes)", why, hull_size);
    if (w.r == TESS_OK && !store_codec_get_polygons(pieces, pieces_size, &m->pieces, &m->piece_count, &why))
      row_fail(&w, TESS_ERR_FORMAT, pieces_col, "%s (%zu bytes)", why, pieces_size);
    if (w.r == TESS_OK) {
      TessError inner = {0};
      TessResult r = tess_project_insert_sprite(p, &sp, &inner);
      if (r != TESS_OK) row_insert_failed(&w, r, &inner);
    }
    tess_free(m->hull);
    tess_free(m->pieces);
    if (w.r != TESS_OK) return w.r;
  }
  return rc == SQLITE_DONE ? TESS_OK : step_error(s, rc, err);
}

/* ---- levels and layers --------------------------------------------------- */

/* Layers by id, for the chunk and object passes. */
typedef struct LayerRef {
  TessId id;
  TessLevel *level;
  TessLayer *layer;
} LayerRef;
typedef TESS_ARRAY(LayerRef) LayerIndex;

static int compare_layer_ref(const void *a, const void *b) {
  TessId x = ((const LayerRef *)a)->id, y = ((const LayerRef *)b)->id;
  return x < y ? -1 : x > y;
}

static const LayerRef *find_layer(const LayerIndex *index, int64_t id) {
  LayerRef key = {(TessId)id, NULL, NULL};
  if (id < 0 || id > UINT32_MAX || index->count == 0) return NULL;
  return bsearch(&key, index->data, index->count, sizeof key, compare_layer_ref);
}

static TessResult load_levels(TessStore *s, TessProject *p, TessError *err) {
  GET_STMT(st, STMT_LEVEL_SELECT_ALL);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row w = row_begin(s, st, "levels", err);
    TessLevelSettings ls;
    tess_level_settings_default(&ls);
    TessId id = (TessId)row_int(&w, 0, 1, UINT32_MAX);
    row_name(&w, 1, ls.name);
    ls.width = (uint32_t)row_int(&w, 2, 1, TESS_LEVEL_MAX_CELLS);
    ls.height = (uint32_t)row_int(&w, 3, 1, TESS_LEVEL_MAX_CELLS);
    ls.tile_w = row_u32(&w, 4);
    ls.tile_h = row_u32(&w, 5);
    ls.ppm = row_f32(&w, 6);
    ls.gravity.x = row_f32(&w, 7);
    ls.gravity.y = row_f32(&w, 8);
    ls.view = row_u8(&w, 9, TESS_VIEW_TOP_DOWN);
    ls.physics_hz = row_f32(&w, 10);
    ls.substeps = row_u32(&w, 11);
    ls.floor_drag = row_f32(&w, 12);
    if (w.r == TESS_OK) {
      TessError inner = {0};
      TessLevel *level = NULL;
      TessResult r = tess_project_insert_level(p, id, &ls, &level, &inner);
      if (r != TESS_OK) row_insert_failed(&w, r, &inner);
    }
    if (w.r != TESS_OK) return w.r;
  }
  return rc == SQLITE_DONE ? TESS_OK : step_error(s, rc, err);
}

static TessResult load_layers(TessStore *s, TessProject *p, LayerIndex *index, TessError *err) {
  GET_STMT(st, s->file_schema >= 6   ? STMT_LAYER_SELECT_ALL
               : s->file_schema == 5 ? STMT_LAYER_SELECT_ALL_SCHEMA5
                                     : STMT_LAYER_SELECT_ALL_SCHEMA4);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row w = row_begin(s, st, "layers", err);
    TessLayerProps lp;
    memset(&lp, 0, sizeof lp);
    lp.id = (TessId)row_int(&w, 0, 1, UINT32_MAX);
    int64_t level_id = row_int(&w, 1, 1, UINT32_MAX);
    row_name(&w, 2, lp.name);
    lp.kind = row_u8(&w, 3, TESS_LAYER_OBJECTS);
    lp.visible = row_int(&w, 4, 0, 1) != 0;
    lp.locked = row_int(&w, 5, 0, 1) != 0;
    lp.collides = row_int(&w, 6, 0, 1) != 0;
    lp.opacity = row_f32(&w, 7);
    lp.y_sort = row_int(&w, 8, 0, 1) != 0;
    lp.collide_pixels = row_int(&w, 9, 0, 1) != 0;
    TessLevel *level = w.r == TESS_OK ? tess_project_level(p, (TessId)level_id) : NULL;
    if (w.r == TESS_OK && !level) row_fail(&w, TESS_ERR_FORMAT, 1, "level %lld does not exist", (long long)level_id);
    TessLayer *layer = NULL;
    if (w.r == TESS_OK) {
      TessError inner = {0};
      TessResult r = tess_level_insert_layer(p, level, &lp, &layer, &inner);
      if (r != TESS_OK) row_insert_failed(&w, r, &inner);
    }
    if (w.r == TESS_OK) {
      LayerRef ref = {lp.id, level, layer};
      if (!TESS_ARRAY_PUSH(index, ref)) row_fail(&w, TESS_ERR_NOMEM, -1, "out of memory");
    }
    if (w.r != TESS_OK) return w.r;
  }
  if (rc != SQLITE_DONE) return step_error(s, rc, err);
  if (index->count > 1) qsort(index->data, index->count, sizeof *index->data, compare_layer_ref);
  return TESS_OK;
}

/* ---- chunks: the bulk of a level's bytes, decoded straight into place ---- */

static TessResult load_chunks(TessStore *s, const LayerIndex *index, TessError *err) {
  GET_STMT(st, STMT_CHUNK_SELECT_ALL);
  /* Cells go straight from SQLite's page to the chunk when the bytes are
   * already little-endian and aligned; otherwise through this buffer. */
  const bool host_le = store_host_little_endian();
  uint32_t *aligned = tess_alloc(TESS_STORE_CHUNK_BYTES);
  if (!aligned) return tess_error_set(err, TESS_ERR_NOMEM, s->path, "out of memory loading %s", s->name);
  const LayerRef *ref = NULL;
  int rc;
  TessResult result = TESS_OK;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row w = row_begin(s, st, "chunks", err);
    int64_t level_id = sqlite3_column_int64(st, 1);
    int64_t layer_id = sqlite3_column_int64(st, 2);
    if (!ref || ref->id != layer_id) ref = find_layer(index, layer_id);
    if (!ref) {
      row_fail(&w, TESS_ERR_FORMAT, 2, "layer %lld does not exist", (long long)layer_id);
    } else if (ref->level->id != level_id) {
      row_fail(&w, TESS_ERR_FORMAT, 1, "level %lld, but layer %lld belongs to level %u", (long long)level_id,
               (long long)layer_id, ref->level->id);
    } else if (ref->layer->props.kind == TESS_LAYER_OBJECTS) {
      row_fail(&w, TESS_ERR_FORMAT, 2, "layer %lld holds objects, not cells", (long long)layer_id);
    }
    uint32_t cx = 0, cy = 0;
    if (w.r == TESS_OK) {
      cx = (uint32_t)row_int(&w, 3, 0, (int64_t)ref->layer->chunks_x - 1);
      cy = (uint32_t)row_int(&w, 4, 0, (int64_t)ref->layer->chunks_y - 1);
    }
    size_t size = 0;
    const uint8_t *bytes = w.r == TESS_OK ? row_blob(&w, 5, &size) : NULL;
    if (w.r == TESS_OK && (!bytes || size != TESS_STORE_CHUNK_BYTES))
      row_fail(&w, TESS_ERR_FORMAT, 5, "%zu bytes, a chunk has %d", size, TESS_STORE_CHUNK_BYTES);
    if (w.r == TESS_OK) {
      const uint32_t *cells;
      if (host_le && ((uintptr_t)bytes % _Alignof(uint32_t)) == 0) {
        cells = (const uint32_t *)(const void *)bytes;
      } else {
        store_codec_get_cells(aligned, bytes);
        cells = aligned;
      }
      TessError inner = {0};
      TessResult r = tess_layer_insert_chunk(ref->layer, cx, cy, cells, &inner);
      if (r != TESS_OK) row_insert_failed(&w, r, &inner);
    }
    if (w.r != TESS_OK) {
      result = w.r;
      break;
    }
  }
  tess_free(aligned);
  if (result != TESS_OK) return result;
  return rc == SQLITE_DONE ? TESS_OK : step_error(s, rc, err);
}

/* ---- objects and their properties ------------------------------------------ */

static void free_props(TessProperty *props, uint32_t count) {
  for (uint32_t i = 0; props && i < count; i++)
    if (props[i].type == TESS_PROP_STRING) tess_free(props[i].v.s);
  tess_free(props);
}

static TessResult load_props(TessStore *s, TessObject *obj, TessError *err) {
  GET_STMT(st, STMT_PROP_SELECT);
  sqlite3_bind_int64(st, 1, obj->id);
  TESS_ARRAY(TessProperty)
  props = {0};
  int rc;
  TessResult result = TESS_OK;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row w = {s, st, "object_props", obj->id, err, TESS_OK};
    TessProperty prop;
    memset(&prop, 0, sizeof prop);
    if (row_int(&w, 0, 0, UINT32_MAX) != (int64_t)props.count)
      row_fail(&w, TESS_ERR_FORMAT, 0, "property positions are not 0, 1, 2...");
    row_name(&w, 1, prop.name);
    prop.type = row_u8(&w, 2, TESS_PROP_COLOR);
    if (w.r == TESS_OK) {
      switch (prop.type) {
        case TESS_PROP_STRING:
          if (sqlite3_column_type(st, 3) != SQLITE_TEXT) {
            row_fail(&w, TESS_ERR_FORMAT, 3, "a string property's value is not text");
          } else if (!tess_utf8_valid((const char *)sqlite3_column_text(st, 3))) {
            row_fail(&w, TESS_ERR_FORMAT, 3, "a string property's value is not valid UTF-8");
          } else {
            prop.v.s = tess_strdup((const char *)sqlite3_column_text(st, 3));
            if (!prop.v.s) row_fail(&w, TESS_ERR_NOMEM, -1, "out of memory");
          }
          break;
        case TESS_PROP_INT: prop.v.i = row_int(&w, 3, INT64_MIN, INT64_MAX); break;
        case TESS_PROP_FLOAT: prop.v.f = row_f64(&w, 3); break;
        case TESS_PROP_BOOL: prop.v.b = row_int(&w, 3, 0, 1) != 0; break;
        case TESS_PROP_COLOR: prop.v.color = row_u32(&w, 3); break;
        default: break;
      }
    }
    if (w.r == TESS_OK && !TESS_ARRAY_PUSH(&props, prop)) {
      if (prop.type == TESS_PROP_STRING) tess_free(prop.v.s);
      row_fail(&w, TESS_ERR_NOMEM, -1, "out of memory");
    }
    if (w.r != TESS_OK) {
      result = w.r;
      break;
    }
  }
  sqlite3_reset(st);
  if (result == TESS_OK && rc != SQLITE_DONE) result = step_error(s, rc, err);
  if (result != TESS_OK) {
    free_props(props.data, (uint32_t)props.count);
    return result;
  }
  obj->props = props.data;
  obj->prop_count = (uint32_t)props.count;
  return TESS_OK;
}

/* Position, angle and the columns of the object's kind (see write.c for the numbering). */
static void read_object_fields(Row *w, TessObject *obj) {
  obj->pos.x = row_f32(w, 6);
  obj->pos.y = row_f32(w, 7);
  obj->angle = row_f32(w, 8);
  obj->depth = (int32_t)row_int(w, 39, TESS_OBJECT_DEPTH_MIN, TESS_OBJECT_DEPTH_MAX);
  switch (obj->kind) {
    case TESS_OBJECT_BODY: {
      TessBodyObject *b = &obj->u.body;
      b->shape = row_u8(w, 9, TESS_BODY_SPRITE);
      b->type = row_u8(w, 10, TESS_BODY_DYNAMIC);
      b->pin = row_u8(w, 11, TESS_PIN_AT_OVERLAP_CENTRE);
      b->sensor = row_u8(w, 12, 1);
      b->sprite = row_u32(w, 13);
      b->material = row_u32(w, 14);
      b->radius = row_f32(w, 15);
      b->width = row_f32(w, 16);
      b->height = row_f32(w, 17);
      b->category = row_u32(w, 18);
      b->mask = row_u32(w, 19);
      b->integrator = row_u8(w, 40, TESS_INTEGRATOR_RK4);
      b->collide_pixels = row_u8(w, 45, 1) != 0; /* schema 9 */
      break;
    }
    case TESS_OBJECT_JOINT: {
      TessJointObject *j = &obj->u.joint;
      j->kind = row_u8(w, 20, TESS_JOINT_DISTANCE);
      j->limit_enabled = row_u8(w, 21, 1);
      j->body_a = row_u32(w, 22);
      j->body_b = row_u32(w, 23);
      j->anchor_b.x = row_f32(w, 24);
      j->anchor_b.y = row_f32(w, 25);
      j->length = row_f32(w, 26);
      j->lower = row_f32(w, 27);
      j->upper = row_f32(w, 28);
      j->motor_enabled = row_u8(w, 36, 1);
      j->motor_speed = row_f32(w, 37);
      j->motor_torque = row_f32(w, 38);
      break;
    }
    case TESS_OBJECT_ZONE: {
      TessZoneObject *z = &obj->u.zone;
      z->kind = row_u8(w, 29, TESS_ZONE_SPRING);
      z->width = row_f32(w, 30);
      z->height = row_f32(w, 31);
      z->vector.x = row_f32(w, 32);
      z->vector.y = row_f32(w, 33);
      z->strength = row_f32(w, 34);
      z->radius = row_f32(w, 35);
      break;
    }
    case TESS_OBJECT_LAUNCHER: {
      TessLauncherObject *l = &obj->u.launcher;
      l->speed = row_f32(w, 41);
      l->radius = row_f32(w, 42);
      l->material = row_u32(w, 43);
      l->sprite = row_u32(w, 44);
      break;
    }
    default: break;
  }
}

static TessResult load_objects(TessStore *s, TessProject *p, const LayerIndex *index, TessError *err) {
  GET_STMT(st, s->file_schema >= 9   ? STMT_OBJECT_SELECT_ALL
               : s->file_schema >= 8 ? STMT_OBJECT_SELECT_ALL_SCHEMA8
               : s->file_schema >= 7 ? STMT_OBJECT_SELECT_ALL_SCHEMA7
               : s->file_schema >= 5 ? STMT_OBJECT_SELECT_ALL_SCHEMA5
               : s->file_schema >= 2 ? STMT_OBJECT_SELECT_ALL_SCHEMA4
                                     : STMT_OBJECT_SELECT_ALL_SCHEMA1);
  const LayerRef *ref = NULL;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    Row w = row_begin(s, st, "objects", err);
    int64_t level_id = sqlite3_column_int64(st, 1);
    int64_t layer_id = sqlite3_column_int64(st, 2);
    if (!ref || ref->id != layer_id) ref = find_layer(index, layer_id);
    if (!ref)
      row_fail(&w, TESS_ERR_FORMAT, 2, "layer %lld does not exist", (long long)layer_id);
    else if (ref->level->id != level_id)
      row_fail(&w, TESS_ERR_FORMAT, 1, "level %lld, but layer %lld belongs to level %u", (long long)level_id,
               (long long)layer_id, ref->level->id);
    else if (ref->layer->props.kind != TESS_LAYER_OBJECTS)
      row_fail(&w, TESS_ERR_FORMAT, 2, "layer %lld is not an object layer", (long long)layer_id);
    TessObject obj;
    uint8_t kind = row_u8(&w, 4, TESS_OBJECT_LAUNCHER);
    tess_object_default(&obj, (TessObjectKind)kind);
    obj.id = (TessId)row_int(&w, 0, 1, UINT32_MAX);
    row_name(&w, 5, obj.name);
    read_object_fields(&w, &obj);
    obj.prop_count = 0;
    obj.props = NULL;
    if (w.r == TESS_OK) {
      TessResult r = load_props(s, &obj, err);
      if (r != TESS_OK) return r;
      TessError inner = {0};
      r = tess_layer_insert_object(p, ref->layer, &obj, &inner);
      if (r != TESS_OK) row_insert_failed(&w, r, &inner);
      free_props(obj.props, obj.prop_count);
    }
    if (w.r != TESS_OK) return w.r;
  }
  return rc == SQLITE_DONE ? TESS_OK : step_error(s, rc, err);
}

/* ---- the whole project ------------------------------------------------------ */

TessResult tess_store_load(TessStore *s, TessProject **out, TessError *err) {
  TessProject *p = tess_project_create();
  if (!p) return tess_error_set(err, TESS_ERR_NOMEM, s->path, "out of memory loading %s", s->name);
  LayerIndex index = {0};
  TessResult r = store_run(s, STMT_BEGIN_READ, err);
  if (r != TESS_OK) {
    tess_project_destroy(p);
    return r;
  }
  r = load_materials(s, p, err);
  if (r == TESS_OK) r = load_tilesets(s, p, err);
  if (r == TESS_OK) r = load_sprites(s, p, err);
  if (r == TESS_OK) r = load_levels(s, p, err);
  if (r == TESS_OK) r = load_layers(s, p, &index, err);
  if (r == TESS_OK) r = load_chunks(s, &index, err);
  if (r == TESS_OK) r = load_objects(s, p, &index, err);
  if (r == TESS_OK) r = store_read_next_ids(s, p, err);
  /* Statements that stopped early still hold the read snapshot: reset before ending it. */
  for (int i = 0; i < STMT_COUNT; i++)
    if (s->stmts[i]) sqlite3_reset(s->stmts[i]);
  TessResult end = store_run(s, STMT_COMMIT, r == TESS_OK ? err : NULL);
  if (r == TESS_OK) r = end;
  TESS_ARRAY_FREE(&index);
  if (r != TESS_OK) {
    tess_project_destroy(p);
    return r;
  }
  /* Building from a file is not an edit. */
  tess_project_clear_changes(p);
  *out = p;
  return TESS_OK;
}
