/* Object edits: add, set (move, rotate, any field), remove. */
#include "level_private.h"

static TessResult check_refs(const TessProject *p, const TessLevel *level, const TessObject *obj, TessError *err) {
  if (obj->kind == TESS_OBJECT_BODY) {
    const TessBodyObject *b = &obj->u.body;
    if (b->shape == TESS_BODY_SPRITE && !tess_project_sprite(p, b->sprite))
      return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "body %s: sprite %u does not exist", obj->name,
                            b->sprite);
    if (b->material && !tess_project_material(p, b->material))
      return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "body %s: material %u does not exist", obj->name,
                            b->material);
  } else if (obj->kind == TESS_OBJECT_JOINT) {
    const TessJointObject *j = &obj->u.joint;
    TessId ends[2] = {j->body_a, j->body_b};
    for (int i = 0; i < 2; i++) {
      const TessObject *o = ends[i] ? tess_level_object(level, ends[i], NULL) : NULL;
      if (ends[i] && (!o || o->kind != TESS_OBJECT_BODY))
        return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "joint %s: body %u is not a body of this level",
                              obj->name, ends[i]);
    }
  }
  return TESS_OK;
}

TessResult tess_edit_object_add(TessProject *p, TessId level_id, TessId layer_id, const TessObject *obj,
                                TessId *id_out, TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  TessLayer *layer = tess_level_layer(level, layer_id);
  if (!layer) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "layer %u is not in this level", layer_id);
  if (layer->props.kind != TESS_LAYER_OBJECTS)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s does not hold objects", layer->props.name);
  if (layer->props.locked)
    return tess_error_set(err, TESS_ERR_LOCKED, LEVEL_FILE, "layer %s is locked", layer->props.name);
  TessResult r = tess_object_validate(obj, err);
  if (r || (r = check_refs(p, level, obj, err))) return r;
  TessObject copy;
  if (tess_object_copy(&copy, obj) != TESS_OK) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  copy.id = level_project_take_id(p, TESS_ID_OBJECT, UINT32_MAX - 1);
  if (!copy.id) {
    tess_object_clear(&copy);
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "no object ids left");
  }
  TessStep *step = level_step_begin("Add object", 0);
  if (!step) {
    tess_object_clear(&copy);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  TessId id = copy.id;
  if ((r = level_step_apply(p, step, level_op_object_presence(level->id, layer_id, layer->object_count, &copy, true),
                            err))) {
    level_step_abort(p, step);
    return r;
  }
  level_step_commit(p, step);
  if (id_out) *id_out = id;
  return TESS_OK;
}

TessResult tess_edit_object_set(TessProject *p, TessId level_id, const TessObject *obj, uint32_t merge,
                                TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  TessLayer *layer = NULL;
  if (!tess_level_object(level, obj->id, &layer))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "object %u is not in level %s", obj->id,
                          level->settings.name);
  if (layer->props.locked)
    return tess_error_set(err, TESS_ERR_LOCKED, LEVEL_FILE, "layer %s is locked", layer->props.name);
  TessResult r = tess_object_validate(obj, err);
  if (r || (r = check_refs(p, level, obj, err))) return r;
  TessObject copy;
  if (tess_object_copy(&copy, obj) != TESS_OK) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  TessStep *step = level_step_begin("Edit object", merge);
  if (!step) {
    tess_object_clear(&copy);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  if ((r = level_step_apply(p, step, level_op_object_swap(level->id, &copy), err))) {
    level_step_abort(p, step);
    return r;
  }
  level_step_commit(p, step);
  return TESS_OK;
}

TessResult tess_edit_object_remove(TessProject *p, TessId level_id, TessId object, TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  TessLayer *layer = NULL;
  TessObject *live = tess_level_object(level, object, &layer);
  if (!live) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "object %u is not in this level", object);
  if (layer->props.locked)
    return tess_error_set(err, TESS_ERR_LOCKED, LEVEL_FILE, "layer %s is locked", layer->props.name);
  TessStep *step = level_step_begin("Remove object", 0);
  if (!step) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  TessObject shallow = *live; /* the op takes the live object when it applies */
  TessResult r = level_step_apply(
      p, step, level_op_object_presence(level->id, layer->props.id, (uint32_t)(live - layer->objects), &shallow, false),
      err);
  if (r) {
    level_step_abort(p, step);
    return r;
  }
  level_step_commit(p, step);
  return TESS_OK;
}
