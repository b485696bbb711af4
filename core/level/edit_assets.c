/* Asset edits: materials, tilesets and sprites, added, set and removed.
 * Removing an asset also rewrites what uses it, in the same undo step:
 * a material's cells, tile defaults and bodies get the replacement; a
 * tileset's cells are erased or remapped; a sprite's bodies go. */
#include "level_private.h"

static TessResult nomem(TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory"); }

static TessResult apply_or_abort(TessProject *p, TessStep *step, TessOp *op, TessError *err) {
  TessResult r = level_step_apply(p, step, op, err);
  if (r) level_step_abort(p, step);
  return r;
}

/* Rewrites every non-zero cell of a layer through `map` (returns the new value). */
static TessResult remap_layer(TessProject *p, TessStep *step, TessLevel *level, TessLayer *layer,
                              uint32_t (*map)(const TessProject *, uint32_t, const void *), const void *ctx,
                              TessError *err) {
  if (!layer->chunks) return TESS_OK;
  TessCellWriter *w = level_cell_writer_begin(p, level, layer);
  if (!w) return nomem(err);
  for (uint32_t cy = 0; cy < layer->chunks_y; cy++)
    for (uint32_t cx = 0; cx < layer->chunks_x; cx++) {
      for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++) {
        /* The chunk may be freed by our own writes: look it up each time. */
        const TessChunk *c = layer->chunks[(size_t)cy * layer->chunks_x + cx];
        if (!c) break;
        uint32_t v = c->cells[i];
        if (!v) continue;
        uint32_t nv = map(p, v, ctx);
        if (nv != v && !level_cell_writer_set(w, cx * TESS_CHUNK_SIZE + i % TESS_CHUNK_SIZE,
                                              cy * TESS_CHUNK_SIZE + i / TESS_CHUNK_SIZE, nv)) {
          level_cell_writer_abort(w);
          return nomem(err);
        }
      }
    }
  TessOp *op = NULL;
  TessResult r = level_cell_writer_finish(w, &op, err);
  if (r) return r;
  if (op && !level_step_add_applied(step, op)) {
    op->cls->apply(p, op, false);
    op->cls->destroy(op, true);
    return nomem(err);
  }
  return TESS_OK;
}

/* ---- materials ---- */

TessResult tess_edit_material_add(TessProject *p, const TessMaterial *m, TessId *id_out, TessError *err) {
  TessMaterial copy = *m;
  copy.id = 0;
  TessResult r = tess_material_validate(&copy, err);
  if (r) return r;
  copy.id = level_project_take_id(p, TESS_ID_MATERIAL, TESS_MATERIAL_ID_MAX);
  if (!copy.id) return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "no material ids left (at most %u)", TESS_MATERIAL_ID_MAX);
  TessStep *step = level_step_begin("Add material", 0);
  if (!step) return nomem(err);
  if ((r = apply_or_abort(p, step, level_op_material_presence(&copy, true), err))) return r;
  level_step_commit(p, step);
  if (id_out) *id_out = copy.id;
  return TESS_OK;
}

TessResult tess_edit_material_set(TessProject *p, const TessMaterial *m, uint32_t merge, TessError *err) {
  if (!tess_project_material(p, m->id))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "material %u does not exist", m->id);
  TessResult r = tess_material_validate(m, err);
  if (r) return r;
  TessStep *step = level_step_begin("Edit material", merge);
  if (!step) return nomem(err);
  if ((r = apply_or_abort(p, step, level_op_material_swap(m), err))) return r;
  level_step_commit(p, step);
  return TESS_OK;
}

typedef struct MaterialSwapCtx {
  TessId from, to;
} MaterialSwapCtx;

static uint32_t map_material(const TessProject *p, uint32_t v, const void *ctx) {
  const MaterialSwapCtx *c = ctx;
  return v == c->from ? c->to : v;
}

TessResult tess_edit_material_remove(TessProject *p, TessId material, TessId replacement, TessError *err) {
  const TessMaterial *m = tess_project_material(p, material);
  if (!m) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "material %u does not exist", material);
  if (replacement == material)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "material %u cannot replace itself", material);
  if (replacement && !tess_project_material(p, replacement))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "replacement material %u does not exist", replacement);
  TessStep *step = level_step_begin("Remove material", 0);
  if (!step) return nomem(err);
  TessResult r;
  MaterialSwapCtx ctx = {material, replacement};
  for (uint32_t l = 0; l < p->level_count; l++) {
    TessLevel *level = p->levels[l];
    TessLayer *ml = tess_level_material_layer(level);
    if (ml && (r = remap_layer(p, step, level, ml, map_material, &ctx, err))) {
      level_step_abort(p, step);
      return r;
    }
  }
  for (uint32_t t = 0; t < p->tileset_count; t++) {
    TessTileset *ts = p->tilesets[t];
    TESS_ARRAY(uint32_t)
    tiles = {0};
    for (uint32_t i = 0; i < ts->tile_count; i++)
      if (ts->tiles[i].material == material && !TESS_ARRAY_PUSH(&tiles, i)) {
        TESS_ARRAY_FREE(&tiles);
        level_step_abort(p, step);
        return nomem(err);
      }
    if (tiles.count) {
      r = apply_or_abort(p, step, level_op_tile_material(ts->id, material, replacement, tiles.data, (uint32_t)tiles.count), err);
      TESS_ARRAY_FREE(&tiles);
      if (r) return r;
    }
  }
  for (uint32_t l = 0; l < p->level_count; l++) {
    TessLevel *level = p->levels[l];
    for (uint32_t k = 0; k < level->layer_count; k++) {
      TessLayer *layer = level->layers[k];
      for (uint32_t i = 0; i < layer->object_count; i++) {
        const TessObject *o = &layer->objects[i];
        if (o->kind != TESS_OBJECT_BODY || o->u.body.material != material) continue;
        TessObject copy;
        if (tess_object_copy(&copy, o) != TESS_OK) {
          level_step_abort(p, step);
          return nomem(err);
        }
        copy.u.body.material = replacement;
        if ((r = apply_or_abort(p, step, level_op_object_swap(level->id, &copy), err))) return r;
      }
    }
  }
  if ((r = apply_or_abort(p, step, level_op_material_presence(m, false), err))) return r;
  level_step_commit(p, step);
  return TESS_OK;
}

/* ---- tilesets ---- */

TessResult tess_edit_tileset_add(TessProject *p, const TessTilesetDef *def, TessId *id_out, TessError *err) {
  uint32_t columns, rows;
  TessResult r = tess_tileset_grid(def->image_w, def->image_h, def->tile_w, def->tile_h, def->margin, def->spacing,
                                   &columns, &rows, err);
  if (r) return r;
  if (def->png_size && !def->png)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset: png_size without bytes");
  r = level_image_bytes_check(def->png, def->png_size, def->image_w, def->image_h, "tileset", def->name ? def->name : "",
                              err);
  if (r) return r;
  if (def->default_material && !tess_project_material(p, def->default_material))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "tileset default material %u does not exist",
                          def->default_material);
  if (def->offset_x < -TESS_TILE_OFFSET_MAX || def->offset_x > TESS_TILE_OFFSET_MAX ||
      def->offset_y < -TESS_TILE_OFFSET_MAX || def->offset_y > TESS_TILE_OFFSET_MAX)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "tileset offset (%d, %d) is beyond +-%d px",
                          (int)def->offset_x, (int)def->offset_y, TESS_TILE_OFFSET_MAX);
  if ((unsigned)def->default_collision > TESS_TILE_COLLISION_TRACED)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset default collision %u is unknown",
                          (unsigned)def->default_collision);
  TessTileset *ts = tess_calloc(1, sizeof *ts);
  if (!ts) return nomem(err);
  if ((r = level_name_copy(ts->name, def->name, false, "tileset", err))) {
    tess_free(ts);
    return r;
  }
  ts->image_w = def->image_w;
  ts->image_h = def->image_h;
  ts->tile_w = def->tile_w;
  ts->tile_h = def->tile_h;
  ts->margin = def->margin;
  ts->spacing = def->spacing;
  ts->columns = columns;
  ts->tile_count = columns * rows;
  ts->alpha_threshold = 1;
  ts->offset_x = def->offset_x;
  ts->offset_y = def->offset_y;
  ts->fit_cell = def->fit_cell ? 1 : 0;
  bool ok = (ts->tiles = tess_calloc(ts->tile_count, sizeof *ts->tiles)) != NULL;
  if (ok && def->source_path) ok = (ts->source_path = tess_strdup(def->source_path)) != NULL;
  if (ok && def->png_size) {
    ok = (ts->png = tess_alloc(def->png_size)) != NULL;
    if (ok) {
      memcpy(ts->png, def->png, def->png_size);
      ts->png_size = def->png_size;
    }
  }
  if (!ok) {
    tess_tileset_clear(ts);
    tess_free(ts);
    return nomem(err);
  }
  for (uint32_t i = 0; i < ts->tile_count; i++) {
    ts->tiles[i].material = def->default_material;
    ts->tiles[i].collision = (uint8_t)def->default_collision;
  }
  ts->id = level_project_take_id(p, TESS_ID_TILESET, TESS_TILESET_ID_MAX);
  if (!ts->id) {
    tess_tileset_clear(ts);
    tess_free(ts);
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "no tileset ids left (at most %u)", TESS_TILESET_ID_MAX);
  }
  TessId id = ts->id;
  TessStep *step = level_step_begin("Add tileset", 0);
  if (!step) {
    tess_tileset_clear(ts);
    tess_free(ts);
    return nomem(err);
  }
  if ((r = apply_or_abort(p, step, level_op_tileset_presence(ts, true), err))) return r;
  level_step_commit(p, step);
  if (id_out) *id_out = id;
  return TESS_OK;
}

TessResult tess_edit_tileset_set(TessProject *p, const TessTileset *ts, uint32_t merge, TessError *err) {
  if (!tess_project_tileset(p, ts->id))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "tileset %u does not exist", ts->id);
  TessResult r = level_tileset_validate(p, ts, err);
  if (r) return r;
  TessTileset *copy = tess_calloc(1, sizeof *copy);
  if (!copy || tess_tileset_copy(copy, ts) != TESS_OK) {
    tess_free(copy);
    return nomem(err);
  }
  TessStep *step = level_step_begin("Edit tileset", merge);
  if (!step) {
    tess_tileset_clear(copy);
    tess_free(copy);
    return nomem(err);
  }
  if ((r = apply_or_abort(p, step, level_op_tileset_swap(copy), err))) return r;
  level_step_commit(p, step);
  return TESS_OK;
}

typedef struct TilesetRemap {
  TessId from, to;
} TilesetRemap;

static uint32_t map_tileset(const TessProject *p, uint32_t v, const void *ctx) {
  const TilesetRemap *c = ctx;
  if (TESS_CELL_TILESET(v) != c->from) return v;
  if (!c->to) return 0;
  /* The same tile index of the new tileset, flips kept; erased if it has no such tile. */
  TessCell nv = TESS_CELL_MAKE(c->to, TESS_CELL_TILE(v), v & TESS_CELL_FLIPS);
  return tess_project_tile(p, nv) ? nv : 0;
}

TessResult tess_edit_tileset_remove(TessProject *p, TessId tileset, TessId remap_to, TessError *err) {
  TessTileset *ts = tess_project_tileset(p, tileset);
  if (!ts) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "tileset %u does not exist", tileset);
  if (remap_to == tileset)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset %u cannot be remapped to itself", tileset);
  if (remap_to && !tess_project_tileset(p, remap_to))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "tileset %u does not exist", remap_to);
  TessStep *step = level_step_begin("Remove tileset", 0);
  if (!step) return nomem(err);
  TilesetRemap ctx = {tileset, remap_to};
  TessResult r;
  for (uint32_t l = 0; l < p->level_count; l++) {
    TessLevel *level = p->levels[l];
    for (uint32_t k = 0; k < level->layer_count; k++) {
      TessLayer *layer = level->layers[k];
      if (layer->props.kind != TESS_LAYER_TILES) continue;
      if ((r = remap_layer(p, step, level, layer, map_tileset, &ctx, err))) {
        level_step_abort(p, step);
        return r;
      }
    }
  }
  if ((r = apply_or_abort(p, step, level_op_tileset_presence(ts, false), err))) return r;
  level_step_commit(p, step);
  return TESS_OK;
}

/* ---- sprites ---- */

TessResult tess_edit_sprite_add(TessProject *p, const TessSprite *s, TessId *id_out, TessError *err) {
  TessResult r = level_sprite_validate(s, err);
  if (r) return r;
  TessSprite *copy = tess_calloc(1, sizeof *copy);
  if (!copy || tess_sprite_copy(copy, s) != TESS_OK) {
    tess_free(copy);
    return nomem(err);
  }
  copy->id = level_project_take_id(p, TESS_ID_SPRITE, UINT32_MAX - 1);
  TessId id = copy->id;
  TessStep *step = level_step_begin("Add sprite", 0);
  if (!step || !id) {
    tess_free(step);
    tess_sprite_clear(copy);
    tess_free(copy);
    return id ? nomem(err) : tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "no sprite ids left");
  }
  if ((r = apply_or_abort(p, step, level_op_sprite_presence(copy, true), err))) return r;
  level_step_commit(p, step);
  if (id_out) *id_out = id;
  return TESS_OK;
}

TessResult tess_edit_sprite_set(TessProject *p, const TessSprite *s, uint32_t merge, TessError *err) {
  if (!tess_project_sprite(p, s->id))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "sprite %u does not exist", s->id);
  TessResult r = level_sprite_validate(s, err);
  if (r) return r;
  TessSprite *copy = tess_calloc(1, sizeof *copy);
  if (!copy || tess_sprite_copy(copy, s) != TESS_OK) {
    tess_free(copy);
    return nomem(err);
  }
  TessStep *step = level_step_begin("Edit sprite", merge);
  if (!step) {
    tess_sprite_clear(copy);
    tess_free(copy);
    return nomem(err);
  }
  if ((r = apply_or_abort(p, step, level_op_sprite_swap(copy), err))) return r;
  level_step_commit(p, step);
  return TESS_OK;
}

TessResult tess_edit_sprite_remove(TessProject *p, TessId sprite, TessError *err) {
  TessSprite *s = tess_project_sprite(p, sprite);
  if (!s) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "sprite %u does not exist", sprite);
  TessStep *step = level_step_begin("Remove sprite", 0);
  if (!step) return nomem(err);
  TessResult r;
  for (uint32_t l = 0; l < p->level_count; l++) {
    TessLevel *level = p->levels[l];
    for (uint32_t k = 0; k < level->layer_count; k++) {
      TessLayer *layer = level->layers[k];
      for (uint32_t i = layer->object_count; i-- > 0;) {
        TessObject *o = &layer->objects[i];
        if (o->kind != TESS_OBJECT_BODY || o->u.body.shape != TESS_BODY_SPRITE || o->u.body.sprite != sprite) continue;
        TessObject shallow = *o;
        if ((r = apply_or_abort(p, step, level_op_object_presence(level->id, layer->props.id, i, &shallow, false), err)))
          return r;
      }
    }
  }
  if ((r = apply_or_abort(p, step, level_op_sprite_presence(s, false), err))) return r;
  level_step_commit(p, step);
  return TESS_OK;
}
