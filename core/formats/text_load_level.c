/* The text form's levels back into a project: level.json (settings and
 * layers), a rows file per tile or material layer, one file per object. */
#include <inttypes.h>
#include <stdlib.h>

#include "formats_text_load.h"

static bool id_seen(const TessId *ids, size_t n, TessId id) {
  for (size_t i = 0; i < n; i++)
    if (ids[i] == id) return true;
  return false;
}

static TessResult read_settings(const Json *j, TessLevelSettings *s) {
  TessResult r = text_load_name(j, j->root, "name", 1, s->name);
  if (r == TESS_OK) r = text_load_u32(j, j->root, "width", 1, &s->width);
  if (r == TESS_OK) r = text_load_u32(j, j->root, "height", 1, &s->height);
  if (r == TESS_OK) r = text_load_u32(j, j->root, "tile_w", 1, &s->tile_w);
  if (r == TESS_OK) r = text_load_u32(j, j->root, "tile_h", 1, &s->tile_h);
  if (r == TESS_OK) r = text_load_f32(j, j->root, "ppm", 1, &s->ppm);
  if (r == TESS_OK) r = text_load_vec(j, j->root, "gravity", 1, &s->gravity);
  if (r == TESS_OK) r = TL_WORD(j, j->root, "view", 1, TEXT_VIEWS, &s->view);
  if (r == TESS_OK) r = text_load_f32(j, j->root, "physics_hz", 1, &s->physics_hz);
  if (r == TESS_OK) r = text_load_u32(j, j->root, "substeps", 1, &s->substeps);
  if (r == TESS_OK) r = text_load_f32(j, j->root, "floor_drag", 1, &s->floor_drag);
  if (r == TESS_OK && (r = tess_level_settings_validate(s, j->l->err)) != TESS_OK) r = text_load_rehome(j->l, j->rel, 1, r);
  return r;
}

/* ---- objects ---- */

static TessResult read_body(const Json *j, json_t *b, TessBodyObject *body) {
  uint64_t at = text_load_line_of(j, "body", 1);
  bool sensor = false;
  TessResult r = TL_WORD(j, b, "shape", at, TEXT_BODY_SHAPES, &body->shape);
  if (r == TESS_OK) r = TL_WORD(j, b, "type", at, TEXT_BODY_TYPES, &body->type);
  if (r == TESS_OK) r = TL_WORD(j, b, "pin", at, TEXT_PIN_MODES, &body->pin);
  if (r == TESS_OK) r = text_load_bool(j, b, "sensor", at, &sensor);
  if (r == TESS_OK) r = text_load_u32(j, b, "sprite", at, &body->sprite);
  if (r == TESS_OK) r = text_load_u32(j, b, "material", at, &body->material);
  if (r == TESS_OK) r = text_load_f32(j, b, "radius", at, &body->radius);
  if (r == TESS_OK) r = text_load_f32(j, b, "width", at, &body->width);
  if (r == TESS_OK) r = text_load_f32(j, b, "height", at, &body->height);
  if (r == TESS_OK) r = text_load_u32(j, b, "category", at, &body->category);
  if (r == TESS_OK) r = text_load_u32(j, b, "mask", at, &body->mask);
  /* optional: absent in dumps of Euler bodies (the default) */
  if (r == TESS_OK && json_object_get(b, "integrator"))
    r = TL_WORD(j, b, "integrator", at, TEXT_INTEGRATORS, &body->integrator);
  /* optional: absent where the body collides by its traced shapes (the default) */
  if (r == TESS_OK && json_object_get(b, "collide_pixels")) r = text_load_bool(j, b, "collide_pixels", at, &body->collide_pixels);
  body->sensor = sensor;
  return r;
}

static TessResult read_joint(const Json *j, json_t *b, TessJointObject *joint) {
  uint64_t at = text_load_line_of(j, "joint", 1);
  bool limit = false, motor = false;
  TessResult r = TL_WORD(j, b, "kind", at, TEXT_JOINT_KINDS, &joint->kind);
  if (r == TESS_OK) r = text_load_u32(j, b, "body_a", at, &joint->body_a);
  if (r == TESS_OK) r = text_load_u32(j, b, "body_b", at, &joint->body_b);
  if (r == TESS_OK) r = text_load_vec(j, b, "anchor_b", at, &joint->anchor_b);
  if (r == TESS_OK) r = text_load_f32(j, b, "length", at, &joint->length);
  if (r == TESS_OK) r = text_load_bool(j, b, "limit", at, &limit);
  if (r == TESS_OK) r = text_load_f32(j, b, "lower", at, &joint->lower);
  if (r == TESS_OK) r = text_load_f32(j, b, "upper", at, &joint->upper);
  if (r == TESS_OK) r = text_load_bool(j, b, "motor", at, &motor);
  if (r == TESS_OK) r = text_load_f32(j, b, "motor_speed", at, &joint->motor_speed);
  if (r == TESS_OK) r = text_load_f32(j, b, "motor_torque", at, &joint->motor_torque);
  joint->limit_enabled = limit;
  joint->motor_enabled = motor;
  return r;
}

static TessResult read_zone(const Json *j, json_t *b, TessZoneObject *zone) {
  uint64_t at = text_load_line_of(j, "zone", 1);
  TessResult r = TL_WORD(j, b, "kind", at, TEXT_ZONE_KINDS, &zone->kind);
  if (r == TESS_OK) r = text_load_f32(j, b, "width", at, &zone->width);
  if (r == TESS_OK) r = text_load_f32(j, b, "height", at, &zone->height);
  if (r == TESS_OK) r = text_load_vec(j, b, "vector", at, &zone->vector);
  if (r == TESS_OK) r = text_load_f32(j, b, "strength", at, &zone->strength);
  if (r == TESS_OK) r = text_load_f32(j, b, "radius", at, &zone->radius);
  return r;
}

static TessResult read_launcher(const Json *j, json_t *b, TessLauncherObject *l) {
  uint64_t at = text_load_line_of(j, "launcher", 1);
  TessResult r = text_load_f32(j, b, "speed", at, &l->speed);
  if (r == TESS_OK) r = text_load_f32(j, b, "radius", at, &l->radius);
  if (r == TESS_OK) r = text_load_u32(j, b, "material", at, &l->material);
  if (r == TESS_OK) r = text_load_u32(j, b, "sprite", at, &l->sprite);
  return r;
}

static TessResult read_props(const Json *j, TessObject *o) {
  json_t *list;
  uint64_t at = text_load_line_of(j, "properties", 1);
  TessResult r = text_load_array(j, j->root, "properties", 1, &list);
  if (r) return r;
  size_t n = json_array_size(list);
  if (n > 4096) return text_load_fail(j->l, j->rel, at, TESS_ERR_LIMIT, "more than 4096 properties");
  o->props = n ? tess_calloc(n, sizeof *o->props) : NULL;
  if (n && !o->props) return tess_error_set(j->l->err, TESS_ERR_NOMEM, j->rel, "out of memory");
  for (size_t i = 0; r == TESS_OK && i < n; i++) {
    json_t *pj = json_array_get(list, i);
    uint64_t line = at + 1 + i;
    TessProperty *pr = &o->props[i];
    if (!json_is_object(pj)) return text_load_fail(j->l, j->rel, line, TESS_ERR_FORMAT, "a property must be an object");
    r = text_load_name(j, pj, "name", line, pr->name);
    if (r == TESS_OK) r = TL_WORD(j, pj, "type", line, TEXT_PROP_TYPES, &pr->type);
    if (r) break;
    json_t *v = json_object_get(pj, "value");
    bool ok = v != NULL;
    switch (pr->type) {
      case TESS_PROP_STRING:
        ok = ok && json_is_string(v) && strlen(json_string_value(v)) == json_string_length(v);
        if (ok && !(pr->v.s = tess_strdup(json_string_value(v)))) return tess_error_set(j->l->err, TESS_ERR_NOMEM, j->rel, "out of memory");
        break;
      case TESS_PROP_INT:
        ok = ok && json_is_integer(v);
        if (ok) pr->v.i = json_integer_value(v);
        break;
      case TESS_PROP_FLOAT: r = text_load_f64(j, pj, "value", line, &pr->v.f); break;
      case TESS_PROP_BOOL:
        ok = ok && json_is_boolean(v);
        if (ok) pr->v.b = json_is_true(v);
        break;
      case TESS_PROP_COLOR: r = text_load_color(j, pj, "value", line, &pr->v.color); break;
      default: break;
    }
    o->prop_count = (uint32_t)(i + 1); /* so a failure frees what was read */
    if (r == TESS_OK && !ok)
      r = text_load_fail(j->l, j->rel, line, TESS_ERR_INVALID, "property \"%s\": the value is not a %s", pr->name,
                         TEXT_WORD(TEXT_PROP_TYPES, pr->type));
  }
  return r;
}

/* Reads one object file; *layer_id says where it goes. */
static TessResult read_object(Load *l, const char *rel, TessId named, TessObject *o, TessId *layer_id) {
  Json j;
  TessResult r = text_load_parse(l, rel, &j);
  if (r) return r;
  uint8_t kind = 0;
  r = text_load_named_id(&j, named, "file", &o->id);
  if (r == TESS_OK) r = text_load_u32(&j, j.root, "layer", 1, layer_id);
  if (r == TESS_OK) r = TL_WORD(&j, j.root, "kind", 1, TEXT_OBJECT_KINDS, &kind);
  if (r == TESS_OK) {
    TessId id = o->id;
    tess_object_default(o, (TessObjectKind)kind);
    o->id = id;
  }
  if (r == TESS_OK) r = text_load_name(&j, j.root, "name", 1, o->name);
  if (r == TESS_OK) r = text_load_vec(&j, j.root, "pos", 1, &o->pos);
  if (r == TESS_OK) r = text_load_f32(&j, j.root, "angle", 1, &o->angle);
  if (r == TESS_OK) r = text_load_depth(&j, j.root, &o->depth);
  static const char *const parts[] = {"body", "joint", "zone", NULL, "launcher"};
  json_t *part = r == TESS_OK && parts[kind] ? json_object_get(j.root, parts[kind]) : NULL;
  if (r == TESS_OK && parts[kind] && !json_is_object(part))
    r = text_load_fail(l, rel, 1, TESS_ERR_FORMAT, "a %s needs its \"%s\" object", parts[kind], parts[kind]);
  if (r == TESS_OK && kind == TESS_OBJECT_BODY) r = read_body(&j, part, &o->u.body);
  if (r == TESS_OK && kind == TESS_OBJECT_JOINT) r = read_joint(&j, part, &o->u.joint);
  if (r == TESS_OK && kind == TESS_OBJECT_ZONE) r = read_zone(&j, part, &o->u.zone);
  if (r == TESS_OK && kind == TESS_OBJECT_LAUNCHER) r = read_launcher(&j, part, &o->u.launcher);
  if (r == TESS_OK) r = read_props(&j, o);
  if (r == TESS_OK && (r = tess_object_validate(o, l->err)) != TESS_OK) r = text_load_rehome(l, rel, 0, r);
  text_load_json_free(&j);
  return r;
}

typedef struct PendingObject {
  TessObject obj;
  TessId layer;
  char rel[128];
} PendingObject;

static int cmp_pending(const void *a, const void *b) {
  const PendingObject *x = a, *y = b;
  return x->obj.id < y->obj.id ? -1 : x->obj.id > y->obj.id;
}

/* Puts the objects in their layers: in id order, or as the layer's "object_order" says. */
static TessResult place_objects(Load *l, const Json *lj, json_t *layers_json, TessLevel *level, PendingObject *objs,
                                size_t n) {
  TessResult r = TESS_OK;
  for (size_t i = 0; r == TESS_OK && i < n; i++)
    if (!tess_level_layer(level, objs[i].layer) || tess_level_layer(level, objs[i].layer)->props.kind != TESS_LAYER_OBJECTS)
      r = text_load_fail(l, objs[i].rel, 0, TESS_ERR_INVALID, "\"layer\" %" PRIu32 " is not an object layer of this level",
                         objs[i].layer);
  uint64_t layers_at = text_load_line_of(lj, "layers", 1);
  for (uint32_t li = 0; r == TESS_OK && li < level->layer_count; li++) {
    TessLayer *layer = level->layers[li];
    if (layer->props.kind != TESS_LAYER_OBJECTS) continue;
    json_t *order = json_object_get(json_array_get(layers_json, li), "object_order");
    size_t mine = 0;
    for (size_t i = 0; i < n; i++) mine += objs[i].layer == layer->props.id;
    if (order) {
      uint64_t line = layers_at + 1 + li;
      if (!json_is_array(order) || json_array_size(order) != mine)
        r = text_load_fail(l, lj->rel, line, TESS_ERR_INVALID, "\"object_order\" must list the layer's %zu objects", mine);
      for (size_t k = 0; r == TESS_OK && k < mine; k++) {
        json_t *v = json_array_get(order, k);
        size_t hit = n;
        for (size_t i = 0; json_is_integer(v) && i < n; i++)
          if (objs[i].layer == layer->props.id && (json_int_t)objs[i].obj.id == json_integer_value(v)) hit = i;
        if (hit == n)
          r = text_load_fail(l, lj->rel, line, TESS_ERR_INVALID, "\"object_order\" item %zu is not an object of this layer", k);
        else if ((r = tess_layer_insert_object(l->p, layer, &objs[hit].obj, l->err)) != TESS_OK)
          r = text_load_rehome(l, objs[hit].rel, 0, r);
      }
      /* A repeated id would leave another out: the counts then differ. */
      if (r == TESS_OK && layer->object_count != mine)
        r = text_load_fail(l, lj->rel, line, TESS_ERR_INVALID, "\"object_order\" repeats an object");
      continue;
    }
    for (size_t i = 0; r == TESS_OK && i < n; i++)
      if (objs[i].layer == layer->props.id && (r = tess_layer_insert_object(l->p, layer, &objs[i].obj, l->err)) != TESS_OK)
        r = text_load_rehome(l, objs[i].rel, 0, r);
  }
  return r;
}

static TessResult load_objects(Load *l, const Json *lj, json_t *layers_json, TessLevel *level) {
  char dir[128];
  text_path_objects_dir(dir, sizeof dir, level->id);
  TessId *ids;
  size_t n;
  TessResult r = text_load_list_ids(l, dir, ".json", &ids, &n);
  if (r) return r;
  PendingObject *objs = n ? tess_calloc(n, sizeof *objs) : NULL;
  if (n && !objs) r = tess_error_set(l->err, TESS_ERR_NOMEM, l->dir, "out of memory");
  for (size_t i = 0; r == TESS_OK && i < n; i++) {
    text_path_object(objs[i].rel, sizeof objs[i].rel, level->id, ids[i]);
    r = read_object(l, objs[i].rel, ids[i], &objs[i].obj, &objs[i].layer);
    if (r == TESS_OK && id_seen(l->object_ids.data, l->object_ids.count, ids[i]))
      r = text_load_fail(l, objs[i].rel, 2, TESS_ERR_INVALID, "object id %" PRIu32 " is used twice (also in another level)", ids[i]);
    if (r == TESS_OK && !TESS_ARRAY_PUSH(&l->object_ids, ids[i])) r = tess_error_set(l->err, TESS_ERR_NOMEM, l->dir, "out of memory");
  }
  if (r == TESS_OK && n) {
    qsort(objs, n, sizeof *objs, cmp_pending);
    r = place_objects(l, lj, layers_json, level, objs, n);
  }
  for (size_t i = 0; i < n; i++) tess_object_clear(&objs[i].obj);
  tess_free(objs);
  tess_free(ids);
  return r;
}

/* ---- layers and the level ---- */

static TessResult read_layer(Load *l, const Json *j, json_t *lj, uint64_t line, TessLevel *level, TessLayer **out) {
  TessLayerProps pr;
  memset(&pr, 0, sizeof pr);
  if (!json_is_object(lj)) return text_load_fail(l, j->rel, line, TESS_ERR_FORMAT, "a layer must be an object");
  TessResult r = text_load_u32(j, lj, "id", line, &pr.id);
  if (r == TESS_OK) r = text_load_name(j, lj, "name", line, pr.name);
  if (r == TESS_OK) r = TL_WORD(j, lj, "kind", line, TEXT_LAYER_KINDS, &pr.kind);
  if (r == TESS_OK) r = text_load_bool(j, lj, "visible", line, &pr.visible);
  if (r == TESS_OK) r = text_load_bool(j, lj, "locked", line, &pr.locked);
  if (r == TESS_OK) r = text_load_bool(j, lj, "collides", line, &pr.collides);
  if (r == TESS_OK && json_object_get(lj, "collide_pixels")) r = text_load_bool(j, lj, "collide_pixels", line, &pr.collide_pixels);
  if (r == TESS_OK) r = text_load_f32(j, lj, "opacity", line, &pr.opacity);
  if (r == TESS_OK && json_object_get(lj, "sort_by_y")) r = text_load_bool(j, lj, "sort_by_y", line, &pr.y_sort);
  if (r == TESS_OK && (pr.id == 0 || id_seen(l->layer_ids.data, l->layer_ids.count, pr.id)))
    r = text_load_fail(l, j->rel, line, TESS_ERR_INVALID, "layer id %" PRIu32 " is used twice", pr.id);
  if (r == TESS_OK && !TESS_ARRAY_PUSH(&l->layer_ids, pr.id)) r = tess_error_set(l->err, TESS_ERR_NOMEM, l->dir, "out of memory");
  if (r == TESS_OK && (r = tess_level_insert_layer(l->p, level, &pr, out, l->err)) != TESS_OK) r = text_load_rehome(l, j->rel, line, r);
  if (r || pr.kind == TESS_LAYER_OBJECTS) return r;
  const char *cells = NULL;
  char want[64], rel[256];
  snprintf(want, sizeof want, "layer-%" PRIu32 ".rows", pr.id);
  r = text_load_str(j, lj, "cells", line, false, &cells);
  if (r == TESS_OK && strcmp(cells, want) != 0)
    r = text_load_fail(l, j->rel, line, TESS_ERR_INVALID, "\"cells\" must be \"%s\"", want);
  text_path_rows(rel, sizeof rel, level->id, pr.id);
  if (r == TESS_OK) r = text_load_rows(l, rel, level, *out);
  return r;
}

TessResult text_load_level(Load *l, TessId named) {
  char rel[256];
  text_path_level(rel, sizeof rel, named);
  Json j;
  TessResult r = text_load_parse(l, rel, &j);
  if (r) return r;
  TessLevelSettings s;
  memset(&s, 0, sizeof s);
  uint32_t id = 0;
  json_t *layers = NULL;
  TessLevel *level = NULL;
  r = text_load_named_id(&j, named, "directory", &id);
  if (r == TESS_OK) r = read_settings(&j, &s);
  if (r == TESS_OK) r = text_load_array(&j, j.root, "layers", 1, &layers);
  if (r == TESS_OK && (r = tess_project_insert_level(l->p, id, &s, &level, l->err)) != TESS_OK) r = text_load_rehome(l, rel, 1, r);
  uint64_t at = r == TESS_OK ? text_load_line_of(&j, "layers", 1) : 0;
  for (size_t i = 0; r == TESS_OK && i < json_array_size(layers); i++) {
    TessLayer *layer = NULL;
    r = read_layer(l, &j, json_array_get(layers, i), at + 1 + i, level, &layer);
  }
  if (r == TESS_OK) r = load_objects(l, &j, layers, level);
  text_load_json_free(&j);
  return r;
}

/* A body names a material and (sprite bodies) a sprite that exist. */
TessResult text_load_check_references(Load *l) {
  const TessProject *p = l->p;
  for (uint32_t i = 0; i < p->level_count; i++) {
    const TessLevel *level = p->levels[i];
    for (uint32_t li = 0; li < level->layer_count; li++) {
      const TessLayer *layer = level->layers[li];
      for (uint32_t k = 0; k < layer->object_count; k++) {
        const TessObject *o = &layer->objects[k];
        if (o->kind != TESS_OBJECT_BODY) continue;
        char rel[128];
        text_path_object(rel, sizeof rel, level->id, o->id);
        if (o->u.body.material && !tess_project_material(p, o->u.body.material))
          return text_load_fail(l, rel, 0, TESS_ERR_NOT_FOUND, "the body's material %" PRIu32 " does not exist", o->u.body.material);
        if (o->u.body.shape == TESS_BODY_SPRITE && !tess_project_sprite(p, o->u.body.sprite))
          return text_load_fail(l, rel, 0, TESS_ERR_NOT_FOUND, "the body's sprite %" PRIu32 " does not exist", o->u.body.sprite);
      }
    }
  }
  return TESS_OK;
}
