/* Writing rows: one function per kind of thing, each an upsert of its
 * current state through a cached statement. */
#include <string.h>

#include "store_codec.h"
#include "store_codec_terrain.h"
#include "store_private.h"

bool store_scratch(TessStore *s, size_t need) {
  if (need <= s->scratch_cap) return true;
  size_t cap = s->scratch_cap ? s->scratch_cap : 4096;
  while (cap < need) {
    if (cap > SIZE_MAX / 2) return false;
    cap *= 2;
  }
  uint8_t *p = tess_realloc(s->scratch, cap);
  if (!p) return false;
  s->scratch = p;
  s->scratch_cap = cap;
  return true;
}

static void bind_name(sqlite3_stmt *st, int col, const char *name) {
  sqlite3_bind_text(st, col, name, (int)strnlen(name, TESS_NAME_MAX - 1), SQLITE_STATIC);
}

static void bind_text_or_null(sqlite3_stmt *st, int col, const char *text) {
  if (text)
    sqlite3_bind_text(st, col, text, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null(st, col);
}

/* A BLOB of zero bytes is stored as NULL and loads as (NULL, 0). */
static void bind_blob_or_null(sqlite3_stmt *st, int col, const void *data, size_t size) {
  if (data && size)
    sqlite3_bind_blob64(st, col, data, size, SQLITE_STATIC);
  else
    sqlite3_bind_null(st, col);
}

/* Steps an upsert/delete and counts what SQLite says changed. */
static TessResult step_write(TessStore *s, sqlite3_stmt *st, bool is_delete, TessError *err) {
  TessResult r = store_exec_stmt(s, st, err);
  if (r != TESS_OK) return r;
  int n = sqlite3_changes(s->db);
  if (is_delete)
    s->stats.rows_deleted += (uint64_t)n;
  else
    s->stats.rows_written += (uint64_t)n;
  return TESS_OK;
}

static TessResult no_memory(TessStore *s, TessError *err) {
  return tess_error_set(err, TESS_ERR_NOMEM, s->path, "%s: out of memory while writing", s->name);
}

#define GET_STMT(var, which)                       \
  sqlite3_stmt *var = store_stmt(s, (which), err); \
  if (!var) return err ? err->code : TESS_ERR_DATABASE

TessResult store_delete_row(TessStore *s, TessStmt which, int64_t id, TessError *err) {
  GET_STMT(st, which);
  sqlite3_bind_int64(st, 1, id);
  return step_write(s, st, true, err);
}

TessResult store_write_material(TessStore *s, const TessMaterial *m, TessError *err) {
  GET_STMT(st, STMT_MATERIAL_UPSERT);
  sqlite3_bind_int64(st, 1, m->id);
  bind_name(st, 2, m->name);
  sqlite3_bind_int64(st, 3, m->color);
  sqlite3_bind_double(st, 4, m->friction);
  sqlite3_bind_double(st, 5, m->restitution);
  sqlite3_bind_double(st, 6, m->tangential);
  sqlite3_bind_double(st, 7, m->density);
  sqlite3_bind_int(st, 8, (int)m->kind);
  return step_write(s, st, false, err);
}

TessResult store_write_tileset(TessStore *s, const TessTileset *ts, TessError *err) {
  uint32_t tile_count = ts->tiles ? ts->tile_count : 0;
  size_t tiles_size = store_codec_tiles_size(ts->tiles, tile_count);
  uint32_t terrain_count = ts->terrains ? ts->terrain_count : 0;
  size_t terrains_size = terrain_count ? store_codec_terrains_size(ts->terrains, terrain_count) : 0, total;
  if (!tess_size_add(tiles_size, terrains_size, &total) || !store_scratch(s, total)) return no_memory(s, err);
  store_codec_put_tiles(s->scratch, ts->tiles, tile_count);
  if (terrain_count) store_codec_put_terrains(s->scratch + tiles_size, ts->terrains, terrain_count);
  GET_STMT(st, STMT_TILESET_UPSERT);
  sqlite3_bind_int64(st, 1, ts->id);
  bind_name(st, 2, ts->name);
  bind_text_or_null(st, 3, ts->source_path);
  bind_blob_or_null(st, 4, ts->png, ts->png_size);
  sqlite3_bind_int64(st, 5, ts->image_w);
  sqlite3_bind_int64(st, 6, ts->image_h);
  sqlite3_bind_int64(st, 7, ts->tile_w);
  sqlite3_bind_int64(st, 8, ts->tile_h);
  sqlite3_bind_int64(st, 9, ts->margin);
  sqlite3_bind_int64(st, 10, ts->spacing);
  sqlite3_bind_int64(st, 11, ts->columns);
  sqlite3_bind_int64(st, 12, tile_count);
  sqlite3_bind_int(st, 13, ts->alpha_threshold);
  sqlite3_bind_blob64(st, 14, s->scratch, tiles_size, SQLITE_STATIC);
  bind_blob_or_null(st, 15, terrain_count ? s->scratch + tiles_size : NULL, terrains_size);
  sqlite3_bind_int64(st, 16, ts->offset_x);
  sqlite3_bind_int64(st, 17, ts->offset_y);
  sqlite3_bind_int(st, 18, ts->fit_cell);
  return step_write(s, st, false, err);
}

TessResult store_write_sprite(TessStore *s, const TessSprite *sp, TessError *err) {
  const TessSpriteMask *m = &sp->mask;
  uint32_t hull_count = m->hull ? m->hull_count : 0;
  uint32_t piece_count = m->pieces ? m->piece_count : 0;
  size_t hull_size = (size_t)hull_count * 8;
  size_t pieces_size = store_codec_polygons_size(m->pieces, piece_count);
  size_t total;
  if (!tess_size_add(hull_size, pieces_size, &total) || !store_scratch(s, total)) return no_memory(s, err);
  store_codec_put_points(s->scratch, m->hull, hull_count);
  store_codec_put_polygons(s->scratch + hull_size, m->pieces, piece_count);

  GET_STMT(st, STMT_SPRITE_UPSERT);
  int c = 1;
  sqlite3_bind_int64(st, c++, sp->id);
  bind_name(st, c++, sp->name);
  bind_text_or_null(st, c++, sp->source_path);
  bind_blob_or_null(st, c++, sp->png, sp->png_size);
  sqlite3_bind_int64(st, c++, sp->image_w);
  sqlite3_bind_int64(st, c++, sp->image_h);
  sqlite3_bind_int64(st, c++, sp->frame_count);
  sqlite3_bind_double(st, c++, sp->frame_rate);
  sqlite3_bind_double(st, c++, sp->anchor.x);
  sqlite3_bind_double(st, c++, sp->anchor.y);
  sqlite3_bind_int(st, c++, m->threshold);
  sqlite3_bind_int(st, c++, m->mode);
  sqlite3_bind_int(st, c++, m->manual);
  sqlite3_bind_int(st, c++, m->largest_island_only);
  sqlite3_bind_int64(st, c++, m->max_vertices);
  sqlite3_bind_double(st, c++, m->tolerance);
  bind_blob_or_null(st, c++, s->scratch, hull_size);
  sqlite3_bind_blob64(st, c++, s->scratch + hull_size, pieces_size, SQLITE_STATIC);
  sqlite3_bind_double(st, c++, m->circle_center.x);
  sqlite3_bind_double(st, c++, m->circle_center.y);
  sqlite3_bind_double(st, c++, m->circle_radius);
  sqlite3_bind_double(st, c++, m->area);
  sqlite3_bind_double(st, c++, m->centroid_x);
  sqlite3_bind_double(st, c++, m->centroid_y);
  sqlite3_bind_double(st, c++, m->inertia);
  sqlite3_bind_double(st, c++, m->shape_area);
  sqlite3_bind_double(st, c++, m->shape_centroid_x);
  sqlite3_bind_double(st, c++, m->shape_centroid_y);
  sqlite3_bind_double(st, c++, m->shape_inertia);
  sqlite3_bind_double(st, c++, m->added_area);
  sqlite3_bind_double(st, c++, m->uncovered_area);
  return step_write(s, st, false, err);
}

TessResult store_write_level_row(TessStore *s, const TessLevel *level, uint32_t position, TessError *err) {
  const TessLevelSettings *ls = &level->settings;
  GET_STMT(st, STMT_LEVEL_UPSERT);
  sqlite3_bind_int64(st, 1, level->id);
  sqlite3_bind_int64(st, 2, position);
  bind_name(st, 3, ls->name);
  sqlite3_bind_int64(st, 4, ls->width);
  sqlite3_bind_int64(st, 5, ls->height);
  sqlite3_bind_int64(st, 6, ls->tile_w);
  sqlite3_bind_int64(st, 7, ls->tile_h);
  sqlite3_bind_double(st, 8, ls->ppm);
  sqlite3_bind_double(st, 9, ls->gravity.x);
  sqlite3_bind_double(st, 10, ls->gravity.y);
  sqlite3_bind_int(st, 11, ls->view);
  sqlite3_bind_double(st, 12, ls->physics_hz);
  sqlite3_bind_int64(st, 13, ls->substeps);
  sqlite3_bind_double(st, 14, ls->floor_drag);
  return step_write(s, st, false, err);
}

TessResult store_write_layer_row(TessStore *s, const TessLevel *level, const TessLayer *layer,
                                 uint32_t position, TessError *err) {
  const TessLayerProps *lp = &layer->props;
  GET_STMT(st, STMT_LAYER_UPSERT);
  sqlite3_bind_int64(st, 1, lp->id);
  sqlite3_bind_int64(st, 2, level->id);
  sqlite3_bind_int64(st, 3, position);
  bind_name(st, 4, lp->name);
  sqlite3_bind_int(st, 5, lp->kind);
  sqlite3_bind_int(st, 6, lp->visible ? 1 : 0);
  sqlite3_bind_int(st, 7, lp->locked ? 1 : 0);
  sqlite3_bind_int(st, 8, lp->collides ? 1 : 0);
  sqlite3_bind_double(st, 9, lp->opacity);
  sqlite3_bind_int(st, 10, lp->y_sort ? 1 : 0);
  sqlite3_bind_int(st, 11, lp->collide_pixels ? 1 : 0);
  return step_write(s, st, false, err);
}

TessResult store_write_chunk(TessStore *s, const TessLevel *level, const TessLayer *layer, uint32_t cx,
                             uint32_t cy, TessError *err) {
  const TessChunk *chunk = tess_layer_chunk(layer, cx, cy);
  if (!chunk) {
    GET_STMT(st, STMT_CHUNK_DELETE);
    sqlite3_bind_int64(st, 1, layer->props.id);
    sqlite3_bind_int64(st, 2, cy);
    sqlite3_bind_int64(st, 3, cx);
    TessResult r = step_write(s, st, true, err);
    if (r == TESS_OK) s->stats.chunk_rows_deleted += (uint64_t)sqlite3_changes(s->db);
    return r;
  }
  store_codec_put_cells(s->chunk_bytes, chunk->cells);
  GET_STMT(st, STMT_CHUNK_UPSERT);
  sqlite3_bind_int64(st, 1, level->id);
  sqlite3_bind_int64(st, 2, layer->props.id);
  sqlite3_bind_int64(st, 3, cx);
  sqlite3_bind_int64(st, 4, cy);
  sqlite3_bind_blob(st, 5, s->chunk_bytes, TESS_STORE_CHUNK_BYTES, SQLITE_STATIC);
  TessResult r = step_write(s, st, false, err);
  if (r == TESS_OK) s->stats.chunk_rows_written += (uint64_t)sqlite3_changes(s->db);
  return r;
}

static TessResult write_props(TessStore *s, const TessObject *obj, TessError *err) {
  TessResult r = store_delete_row(s, STMT_PROP_DELETE_OBJECT, obj->id, err);
  for (uint32_t i = 0; r == TESS_OK && i < obj->prop_count; i++) {
    const TessProperty *prop = &obj->props[i];
    GET_STMT(st, STMT_PROP_INSERT);
    sqlite3_bind_int64(st, 1, obj->id);
    sqlite3_bind_int64(st, 2, i);
    bind_name(st, 3, prop->name);
    sqlite3_bind_int(st, 4, prop->type);
    switch (prop->type) {
      case TESS_PROP_STRING: sqlite3_bind_text(st, 5, prop->v.s ? prop->v.s : "", -1, SQLITE_STATIC); break;
      case TESS_PROP_INT: sqlite3_bind_int64(st, 5, prop->v.i); break;
      case TESS_PROP_FLOAT: sqlite3_bind_double(st, 5, prop->v.f); break;
      case TESS_PROP_BOOL: sqlite3_bind_int(st, 5, prop->v.b ? 1 : 0); break;
      case TESS_PROP_COLOR: sqlite3_bind_int64(st, 5, prop->v.color); break;
      default:
        return tess_error_set(err, TESS_ERR_INVALID, s->path, "%s: object %u property '%s' has unknown type %u",
                              s->name, obj->id, prop->name, prop->type);
    }
    r = step_write(s, st, false, err);
  }
  return r;
}

TessResult store_write_object(TessStore *s, const TessLevel *level, const TessLayer *layer,
                              const TessObject *obj, uint32_t position, TessError *err) {
  GET_STMT(st, STMT_OBJECT_UPSERT);
  sqlite3_bind_int64(st, 1, obj->id);
  sqlite3_bind_int64(st, 2, level->id);
  sqlite3_bind_int64(st, 3, layer->props.id);
  sqlite3_bind_int64(st, 4, position);
  sqlite3_bind_int(st, 5, obj->kind);
  bind_name(st, 6, obj->name);
  sqlite3_bind_double(st, 7, obj->pos.x);
  sqlite3_bind_double(st, 8, obj->pos.y);
  sqlite3_bind_double(st, 9, obj->angle);
  sqlite3_bind_int(st, 40, obj->depth);
  /* Columns 10..39 and 41..45 stay NULL except those of the object's kind
   * (37..39, the joint's motor, came with schema 2 and so sit after the
   * zone's; 41, the body's integrator, with schema 7; 42..45, the
   * launcher's, with schema 8; 46, the body's pixel collision, with schema 9). */
  switch (obj->kind) {
    case TESS_OBJECT_BODY: {
      const TessBodyObject *b = &obj->u.body;
      sqlite3_bind_int(st, 10, b->shape);
      sqlite3_bind_int(st, 11, b->type);
      sqlite3_bind_int(st, 12, b->pin);
      sqlite3_bind_int(st, 13, b->sensor);
      sqlite3_bind_int64(st, 14, b->sprite);
      sqlite3_bind_int64(st, 15, b->material);
      sqlite3_bind_double(st, 16, b->radius);
      sqlite3_bind_double(st, 17, b->width);
      sqlite3_bind_double(st, 18, b->height);
      sqlite3_bind_int64(st, 19, b->category);
      sqlite3_bind_int64(st, 20, b->mask);
      sqlite3_bind_int(st, 41, b->integrator);
      sqlite3_bind_int(st, 46, b->collide_pixels ? 1 : 0);
      break;
    }
    case TESS_OBJECT_JOINT: {
      const TessJointObject *j = &obj->u.joint;
      sqlite3_bind_int(st, 21, j->kind);
      sqlite3_bind_int(st, 22, j->limit_enabled);
      sqlite3_bind_int64(st, 23, j->body_a);
      sqlite3_bind_int64(st, 24, j->body_b);
      sqlite3_bind_double(st, 25, j->anchor_b.x);
      sqlite3_bind_double(st, 26, j->anchor_b.y);
      sqlite3_bind_double(st, 27, j->length);
      sqlite3_bind_double(st, 28, j->lower);
      sqlite3_bind_double(st, 29, j->upper);
      sqlite3_bind_int(st, 37, j->motor_enabled);
      sqlite3_bind_double(st, 38, j->motor_speed);
      sqlite3_bind_double(st, 39, j->motor_torque);
      break;
    }
    case TESS_OBJECT_ZONE: {
      const TessZoneObject *z = &obj->u.zone;
      sqlite3_bind_int(st, 30, z->kind);
      sqlite3_bind_double(st, 31, z->width);
      sqlite3_bind_double(st, 32, z->height);
      sqlite3_bind_double(st, 33, z->vector.x);
      sqlite3_bind_double(st, 34, z->vector.y);
      sqlite3_bind_double(st, 35, z->strength);
      sqlite3_bind_double(st, 36, z->radius);
      break;
    }
    case TESS_OBJECT_LAUNCHER: {
      const TessLauncherObject *l = &obj->u.launcher;
      sqlite3_bind_double(st, 42, l->speed);
      sqlite3_bind_double(st, 43, l->radius);
      sqlite3_bind_int64(st, 44, l->material);
      sqlite3_bind_int64(st, 45, l->sprite);
      break;
    }
    default: break; /* spawn points have no fields of their own */
  }
  TessResult r = step_write(s, st, false, err);
  if (r == TESS_OK) r = write_props(s, obj, err);
  return r;
}

TessResult store_write_layer_content(TessStore *s, const TessLevel *level, const TessLayer *layer,
                                     uint32_t position, TessError *err) {
  TessResult r = store_write_layer_row(s, level, layer, position, err);
  if (r != TESS_OK) return r;
  if (layer->chunks) {
    for (uint32_t cy = 0; cy < layer->chunks_y; cy++)
      for (uint32_t cx = 0; cx < layer->chunks_x; cx++) {
        if (!layer->chunks[(size_t)cy * layer->chunks_x + cx]) continue;
        r = store_write_chunk(s, level, layer, cx, cy, err);
        if (r != TESS_OK) return r;
      }
  }
  for (uint32_t i = 0; i < layer->object_count; i++) {
    r = store_write_object(s, level, layer, &layer->objects[i], i, err);
    if (r != TESS_OK) return r;
  }
  return TESS_OK;
}

TessResult store_write_level(TessStore *s, const TessLevel *level, uint32_t position, TessError *err) {
  TessResult r = store_write_level_row(s, level, position, err);
  for (uint32_t i = 0; r == TESS_OK && i < level->layer_count; i++)
    r = store_write_layer_content(s, level, level->layers[i], i, err);
  return r;
}
