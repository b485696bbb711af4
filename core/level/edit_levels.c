/* Level edits: add (with its three starting layers), set (a resize keeps
 * the content anchored), remove. */
#include <stdio.h>

#include "level_private.h"

static TessResult nomem(TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory"); }

static TessLayer *starting_layer(TessProject *p, const TessLevelSettings *s, TessLayerKind kind, const char *name) {
  TessLayerProps props;
  memset(&props, 0, sizeof props);
  snprintf(props.name, sizeof props.name, "%s", name);
  props.kind = (uint8_t)kind;
  props.visible = true;
  props.collides = kind != TESS_LAYER_OBJECTS;
  props.opacity = kind == TESS_LAYER_MATERIAL ? 0.5f : 1.0f;
  props.id = level_project_take_id(p, TESS_ID_LAYER, UINT32_MAX - 1);
  return props.id ? level_layer_new(&props, s->width, s->height) : NULL;
}

TessResult tess_edit_level_add(TessProject *p, const TessLevelSettings *s, TessId *id_out, TessError *err) {
  TessResult r = tess_level_settings_validate(s, err);
  if (r) return r;
  TessId id = level_project_take_id(p, TESS_ID_LEVEL, UINT32_MAX - 1);
  if (!id) return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "no level ids left");
  TessLevel *level = level_new(id, s);
  if (!level) return nomem(err);
  static const struct {
    TessLayerKind kind;
    const char *name;
  } start[] = {{TESS_LAYER_TILES, "Ground"}, {TESS_LAYER_MATERIAL, "Materials"}, {TESS_LAYER_OBJECTS, "Objects"}};
  for (size_t i = 0; i < sizeof start / sizeof start[0]; i++) {
    TessLayer *layer = starting_layer(p, s, start[i].kind, start[i].name);
    if (!layer || !level_insert_layer_at(level, layer, level->layer_count)) {
      level_layer_free(layer);
      level_free(level);
      return nomem(err);
    }
  }
  TessStep *step = level_step_begin("Add level", 0);
  if (!step) {
    level_free(level);
    return nomem(err);
  }
  if ((r = level_step_apply(p, step, level_op_level_presence(level, p->level_count, true), err))) {
    level_step_abort(p, step);
    return r;
  }
  level_step_commit(p, step);
  if (id_out) *id_out = id;
  return TESS_OK;
}

static int32_t anchor_offset(uint32_t old_size, uint32_t new_size, int anchor) {
  int64_t d = (int64_t)new_size - (int64_t)old_size;
  if (anchor == 1) return (int32_t)(d / 2);
  if (anchor == 2) return (int32_t)d;
  return 0;
}

/* The layer's cells moved by (dx, dy) cells into a grid of the new size. */
static bool shifted_cells(const TessLayer *layer, uint32_t w, uint32_t h, int32_t dx, int32_t dy,
                          TessLayerContent *out) {
  out->chunks_x = level_chunks_for(w);
  out->chunks_y = level_chunks_for(h);
  if (!layer->chunks) return true;
  out->chunks = tess_calloc((size_t)out->chunks_x * out->chunks_y, sizeof *out->chunks);
  if (!out->chunks) return false;
  for (uint32_t cy = 0; cy < layer->chunks_y; cy++)
    for (uint32_t cx = 0; cx < layer->chunks_x; cx++) {
      const TessChunk *c = layer->chunks[(size_t)cy * layer->chunks_x + cx];
      if (!c) continue;
      for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++) {
        if (!c->cells[i]) continue;
        int64_t x = (int64_t)cx * TESS_CHUNK_SIZE + i % TESS_CHUNK_SIZE + dx;
        int64_t y = (int64_t)cy * TESS_CHUNK_SIZE + i / TESS_CHUNK_SIZE + dy;
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        size_t key = (size_t)(y / TESS_CHUNK_SIZE) * out->chunks_x + (size_t)(x / TESS_CHUNK_SIZE);
        TessChunk *nc = out->chunks[key];
        if (!nc && !(nc = out->chunks[key] = tess_calloc(1, sizeof *nc))) return false;
        nc->cells[(y % TESS_CHUNK_SIZE) * TESS_CHUNK_SIZE + x % TESS_CHUNK_SIZE] = c->cells[i];
        nc->used++;
      }
    }
  return true;
}

static bool shifted_objects(const TessLayer *layer, float px, float py, TessLayerContent *out) {
  if (!layer->object_count) return true;
  out->objects = tess_calloc(layer->object_count, sizeof *out->objects);
  if (!out->objects) return false;
  for (uint32_t i = 0; i < layer->object_count; i++) {
    if (tess_object_copy(&out->objects[i], &layer->objects[i]) != TESS_OK) return false;
    out->object_count = i + 1;
    TessObject *o = &out->objects[i];
    o->pos = tess_v2_add(o->pos, tess_v2(px, py));
    if (o->kind == TESS_OBJECT_JOINT) o->u.joint.anchor_b = tess_v2_add(o->u.joint.anchor_b, tess_v2(px, py));
  }
  return true;
}

TessResult tess_edit_level_set(TessProject *p, TessId level_id, const TessLevelSettings *s, int anchor_x,
                               int anchor_y, TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  TessResult r = tess_level_settings_validate(s, err);
  if (r) return r;
  if (anchor_x < 0 || anchor_x > 2 || anchor_y < 0 || anchor_y > 2)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "anchor (%d, %d) is outside 0..2", anchor_x, anchor_y);
  const TessLevelSettings *old = &level->settings;
  TessLayerContent *contents = NULL;
  uint32_t count = 0;
  if (s->width != old->width || s->height != old->height) {
    int32_t dx = anchor_offset(old->width, s->width, anchor_x), dy = anchor_offset(old->height, s->height, anchor_y);
    float px = (float)dx * (float)s->tile_w, py = (float)dy * (float)s->tile_h;
    contents = tess_calloc(level->layer_count ? level->layer_count : 1, sizeof *contents);
    if (!contents) return nomem(err);
    for (uint32_t i = 0; i < level->layer_count; i++) {
      const TessLayer *layer = level->layers[i];
      TessLayerContent *c = &contents[count];
      c->layer = layer->props.id;
      bool ok;
      if (level_layer_has_cells(layer)) {
        ok = shifted_cells(layer, s->width, s->height, dx, dy, c);
      } else {
        if (dx == 0 && dy == 0) continue; /* objects stay where they are */
        ok = shifted_objects(layer, px, py, c);
      }
      count++;
      if (!ok) {
        for (uint32_t k = 0; k < count; k++) level_layer_content_free(&contents[k]);
        tess_free(contents);
        return nomem(err);
      }
    }
  }
  TessStep *step = level_step_begin("Level settings", 0);
  if (!step) {
    for (uint32_t k = 0; k < count; k++) level_layer_content_free(&contents[k]);
    tess_free(contents);
    return nomem(err);
  }
  if ((r = level_step_apply(p, step, level_op_level_swap(level->id, s, contents, count), err))) {
    level_step_abort(p, step);
    return r;
  }
  level_step_commit(p, step);
  return TESS_OK;
}

TessResult tess_edit_level_remove(TessProject *p, TessId level_id, TessError *err) {
  int i = level_project_level_index(p, level_id);
  if (i < 0) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  TessStep *step = level_step_begin("Remove level", 0);
  if (!step) return nomem(err);
  TessResult r = level_step_apply(p, step, level_op_level_presence(p->levels[i], (uint32_t)i, false), err);
  if (r) {
    level_step_abort(p, step);
    return r;
  }
  level_step_commit(p, step);
  return TESS_OK;
}
