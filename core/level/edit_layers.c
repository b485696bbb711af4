/* Layer edits: add, change properties, reorder, remove. */
#include "level_private.h"

static TessResult nomem(TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory"); }

static TessResult commit_one(TessProject *p, const char *label, uint32_t merge, TessOp *op, TessError *err) {
  TessStep *step = level_step_begin(label, merge);
  if (!step) {
    if (op) op->cls->destroy(op, true);
    return nomem(err);
  }
  TessResult r = level_step_apply(p, step, op, err);
  if (r) {
    level_step_abort(p, step);
    return r;
  }
  level_step_commit(p, step);
  return TESS_OK;
}

TessResult tess_edit_layer_add(TessProject *p, TessId level_id, TessLayerKind kind, const char *name, int index,
                               TessId *id_out, TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  if ((unsigned)kind > TESS_LAYER_OBJECTS)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer kind %u is unknown", (unsigned)kind);
  if (kind == TESS_LAYER_MATERIAL && tess_level_material_layer(level))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level %s already has a material layer",
                          level->settings.name);
  TessLayerProps props;
  memset(&props, 0, sizeof props);
  TessResult r = level_name_copy(props.name, name, false, "layer", err);
  if (r) return r;
  props.kind = (uint8_t)kind;
  props.visible = true;
  props.collides = kind != TESS_LAYER_OBJECTS;
  props.opacity = kind == TESS_LAYER_MATERIAL ? 0.5f : 1.0f;
  props.id = level_project_take_id(p, TESS_ID_LAYER, UINT32_MAX - 1);
  if (!props.id) return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "no layer ids left");
  uint32_t at = (index < 0 || (uint32_t)index > level->layer_count) ? level->layer_count : (uint32_t)index;
  TessLayer *layer = level_layer_new(&props, level->settings.width, level->settings.height);
  if (!layer) return nomem(err);
  if ((r = commit_one(p, "Add layer", 0, level_op_layer_presence(level->id, layer, at, true), err))) return r;
  if (id_out) *id_out = props.id;
  return TESS_OK;
}

TessResult tess_edit_layer_set_props(TessProject *p, TessId level_id, const TessLayerProps *props, uint32_t merge,
                                     TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  TessLayer *layer = tess_level_layer(level, props->id);
  if (!layer) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "layer %u is not in this level", props->id);
  TessResult r = level_layer_props_validate(props, err);
  if (r) return r;
  if (props->kind != layer->props.kind)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s cannot change its kind", layer->props.name);
  return commit_one(p, "Layer properties", merge, level_op_layer_props(level->id, props), err);
}

TessResult tess_edit_layer_move(TessProject *p, TessId level_id, TessId layer_id, int new_index, TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  int from = tess_level_layer_index(level, layer_id);
  if (from < 0) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "layer %u is not in this level", layer_id);
  if (new_index < 0) new_index = (int)level->layer_count - 1;
  if ((uint32_t)new_index >= level->layer_count)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer index %d is outside 0..%u", new_index,
                          level->layer_count - 1);
  if (new_index == from) return TESS_OK;
  return commit_one(p, "Move layer", 0, level_op_layer_move(level->id, layer_id, (uint32_t)from, (uint32_t)new_index),
                    err);
}

TessResult tess_edit_layer_remove(TessProject *p, TessId level_id, TessId layer_id, TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  int i = tess_level_layer_index(level, layer_id);
  if (i < 0) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "layer %u is not in this level", layer_id);
  return commit_one(p, "Remove layer", 0,
                    level_op_layer_presence(level->id, level->layers[i], (uint32_t)i, false), err);
}
