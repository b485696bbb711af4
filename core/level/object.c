/* Objects: defaults per kind, validation, deep copies, typed properties. */
#include "level_private.h"
#include <float.h>

void tess_object_default(TessObject *obj, TessObjectKind kind) {
  memset(obj, 0, sizeof *obj);
  obj->kind = (uint8_t)kind;
  switch (kind) {
    case TESS_OBJECT_BODY:
      memcpy(obj->name, "Body", 5);
      obj->u.body.shape = TESS_BODY_CIRCLE;
      obj->u.body.type = TESS_BODY_DYNAMIC;
      obj->u.body.radius = 16.0f; /* a 32 px circle */
      obj->u.body.width = 32.0f;
      obj->u.body.height = 32.0f;
      obj->u.body.category = 0x1u;
      obj->u.body.mask = 0xFFFFFFFFu;
      break;
    case TESS_OBJECT_JOINT:
      memcpy(obj->name, "Joint", 6);
      obj->u.joint.kind = TESS_JOINT_PIN;
      obj->u.joint.lower = -3.14159265f;
      obj->u.joint.upper = 3.14159265f;
      break;
    case TESS_OBJECT_ZONE:
      memcpy(obj->name, "Wind", 5);
      obj->u.zone.kind = TESS_ZONE_ACCELERATION;
      obj->u.zone.width = 128.0f;
      obj->u.zone.height = 128.0f;
      obj->u.zone.vector = tess_v2(5.0f, 0.0f);
      break;
    case TESS_OBJECT_LAUNCHER:
      memcpy(obj->name, "Launcher", 9);
      obj->u.launcher.speed = 12.0f;
      obj->u.launcher.radius = 8.0f;
      break;
    case TESS_OBJECT_SPAWN:
    default:
      memcpy(obj->name, "Spawn", 6);
      break;
  }
}

TessRange tess_object_range(TessObjectRange which) {
  TessRange r = {0.0, TESS_OBJECT_MAX_PX, false};
  switch (which) {
    case TESS_OBJECT_RANGE_COORD: r.lo = -TESS_OBJECT_MAX_PX; break;
    case TESS_OBJECT_RANGE_EXTENT: r.lo_open = true; break;
    case TESS_OBJECT_RANGE_TORQUE: r.hi = FLT_MAX; break;
    case TESS_OBJECT_RANGE_SPRING: r.hi = 1e6; break;
    case TESS_OBJECT_RANGE_SPEED: r.hi = 1000.0; break; /* far past any bullet the solver keeps out of walls */
    case TESS_OBJECT_RANGE_LENGTH:
    default: break;
  }
  return r;
}

static bool finite_nonneg(float v) { return isfinite(v) && v >= 0.0f; }
/* A length in pixels within the documented bound (TESS_OBJECT_MAX_PX). */
static bool size_ok(float v) { return tess_range_contains(tess_object_range(TESS_OBJECT_RANGE_LENGTH), v); }
static bool coord_ok(float v) { return tess_range_contains(tess_object_range(TESS_OBJECT_RANGE_COORD), v); }
static bool point_ok(TessVec2 v) { return coord_ok(v.x) && coord_ok(v.y); }
#define MAX_PX_TEXT "16777216 px"

TessResult tess_object_validate(const TessObject *obj, TessError *err) {
  TessResult nr = level_name_check(obj->name, true, "object", err);
  if (nr != TESS_OK) return nr;
  if (obj->kind > TESS_OBJECT_LAUNCHER)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object kind %u is unknown", obj->kind);
  if (!tess_v2_is_finite(obj->pos))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s pos is not finite", obj->name);
  if (!point_ok(obj->pos))
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "object %s position (%g, %g) is beyond " MAX_PX_TEXT,
                          obj->name, (double)obj->pos.x, (double)obj->pos.y);
  if (!isfinite(obj->angle))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s angle is not finite", obj->name);
  if (obj->depth < TESS_OBJECT_DEPTH_MIN || obj->depth > TESS_OBJECT_DEPTH_MAX)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s depth %d is outside %d..%d", obj->name,
                          (int)obj->depth, TESS_OBJECT_DEPTH_MIN, TESS_OBJECT_DEPTH_MAX);
  if (obj->kind == TESS_OBJECT_BODY) {
    const TessBodyObject *b = &obj->u.body;
    if (b->shape > TESS_BODY_SPRITE || b->type > TESS_BODY_DYNAMIC || b->pin > TESS_PIN_AT_OVERLAP_CENTRE)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "body %s shape, type or pin is unknown", obj->name);
    if (!finite_nonneg(b->radius))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "body %s radius is not finite and >= 0", obj->name);
    if (!finite_nonneg(b->width) || !finite_nonneg(b->height))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "body %s width or height is not finite and >= 0",
                            obj->name);
    if (!size_ok(b->radius) || !size_ok(b->width) || !size_ok(b->height))
      return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "body %s size (radius %g, %g x %g) is beyond " MAX_PX_TEXT,
                            obj->name, (double)b->radius, (double)b->width, (double)b->height);
    if (b->shape == TESS_BODY_CIRCLE && !(b->radius > 0))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "body %s radius must be > 0", obj->name);
    if ((b->shape == TESS_BODY_BOX || b->shape == TESS_BODY_CAPSULE) && !(b->width > 0 && b->height > 0))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "body %s width and height must be > 0", obj->name);
    if (b->shape == TESS_BODY_SPRITE && b->sprite == 0)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "body %s has no sprite", obj->name);
    if (b->integrator > TESS_INTEGRATOR_RK4)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "body %s integrator %u is unknown", obj->name,
                            b->integrator);
  } else if (obj->kind == TESS_OBJECT_JOINT) {
    const TessJointObject *j = &obj->u.joint;
    if (j->kind > TESS_JOINT_DISTANCE)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "joint %s kind is unknown", obj->name);
    if (!tess_v2_is_finite(j->anchor_b) || !finite_nonneg(j->length) || !isfinite(j->lower) || !isfinite(j->upper))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "joint %s anchor, length or limits not finite",
                            obj->name);
    if (!point_ok(j->anchor_b) || !size_ok(j->length))
      return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "joint %s anchor or length is beyond " MAX_PX_TEXT,
                            obj->name);
    if (!isfinite(j->motor_speed) ||
        !tess_range_contains(tess_object_range(TESS_OBJECT_RANGE_TORQUE), j->motor_torque))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "joint %s motor speed not finite or torque not finite and >= 0",
                            obj->name);
    if (j->motor_enabled > 1)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "joint %s motor flag is not 0 or 1", obj->name);
    if (j->limit_enabled && j->lower > j->upper)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "joint %s lower limit above upper", obj->name);
  } else if (obj->kind == TESS_OBJECT_ZONE) {
    const TessZoneObject *z = &obj->u.zone;
    if (z->kind > TESS_ZONE_SPRING)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "zone %s kind is unknown", obj->name);
    if (!finite_nonneg(z->width) || !finite_nonneg(z->height) || !finite_nonneg(z->radius))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "zone %s width, height or radius not finite and >= 0",
                            obj->name);
    if (!size_ok(z->width) || !size_ok(z->height) || !size_ok(z->radius))
      return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "zone %s width, height or radius is beyond " MAX_PX_TEXT,
                            obj->name);
    if (!tess_v2_is_finite(z->vector) || !isfinite(z->strength))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "zone %s vector or strength not finite", obj->name);
    if (z->kind == TESS_ZONE_SPRING &&
        !tess_range_contains(tess_object_range(TESS_OBJECT_RANGE_SPRING), z->strength))
      return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "spring zone %s strength %g is outside [0, 1e6] 1/s^2",
                            obj->name, (double)z->strength);
  } else if (obj->kind == TESS_OBJECT_LAUNCHER) {
    const TessLauncherObject *l = &obj->u.launcher;
    if (!tess_range_contains(tess_object_range(TESS_OBJECT_RANGE_SPEED), l->speed))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "launcher %s speed %g is not within 0..1000 m/s",
                            obj->name, (double)l->speed);
    if (!tess_range_contains(tess_object_range(TESS_OBJECT_RANGE_EXTENT), l->radius))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "launcher %s projectile radius must be > 0 and <= " MAX_PX_TEXT,
                            obj->name);
  }
  if (obj->prop_count && !obj->props)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s: property count without data", obj->name);
  for (uint32_t i = 0; i < obj->prop_count; i++) {
    const TessProperty *pr = &obj->props[i];
    if (!level_name_valid(pr->name) || pr->name[0] == 0)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s property %u has no name", obj->name, i);
    if (pr->type > TESS_PROP_COLOR)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s property %s type is unknown", obj->name,
                            pr->name);
    if (pr->type == TESS_PROP_FLOAT && !isfinite(pr->v.f))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s property %s is not finite", obj->name,
                            pr->name);
    for (uint32_t k = 0; k < i; k++)
      if (strcmp(obj->props[k].name, pr->name) == 0)
        return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s property %s appears twice", obj->name,
                              pr->name);
  }
  return TESS_OK;
}

static void property_clear(TessProperty *pr) {
  if (pr->type == TESS_PROP_STRING) tess_free(pr->v.s);
  pr->v.s = NULL;
}

static TessResult property_copy(TessProperty *dst, const TessProperty *src) {
  *dst = *src;
  if (src->type == TESS_PROP_STRING) {
    dst->v.s = NULL;
    if (src->v.s && !(dst->v.s = tess_strdup(src->v.s))) return TESS_ERR_NOMEM;
  }
  return TESS_OK;
}

void tess_object_clear(TessObject *obj) {
  if (!obj) return;
  for (uint32_t i = 0; i < obj->prop_count; i++) property_clear(&obj->props[i]);
  tess_free(obj->props);
  obj->props = NULL;
  obj->prop_count = 0;
}

TessResult tess_object_copy(TessObject *dst, const TessObject *src) {
  TessObject o = *src;
  o.props = NULL;
  o.prop_count = 0;
  if (src->prop_count && src->props) {
    o.props = tess_calloc(src->prop_count, sizeof *o.props);
    if (!o.props) return TESS_ERR_NOMEM;
    for (uint32_t i = 0; i < src->prop_count; i++) {
      if (property_copy(&o.props[i], &src->props[i]) != TESS_OK) {
        tess_object_clear(&o);
        return TESS_ERR_NOMEM;
      }
      o.prop_count = i + 1;
    }
  }
  *dst = o;
  return TESS_OK;
}

TessResult tess_object_set_property(TessObject *obj, const TessProperty *prop) {
  if (!level_name_valid(prop->name) || prop->name[0] == 0 || prop->type > TESS_PROP_COLOR) return TESS_ERR_INVALID;
  TessProperty copy;
  if (property_copy(&copy, prop) != TESS_OK) return TESS_ERR_NOMEM;
  for (uint32_t i = 0; i < obj->prop_count; i++) {
    if (strcmp(obj->props[i].name, prop->name) == 0) {
      property_clear(&obj->props[i]);
      obj->props[i] = copy;
      return TESS_OK;
    }
  }
  TessProperty *grown = tess_realloc(obj->props, (obj->prop_count + 1) * sizeof *grown);
  if (!grown) {
    property_clear(&copy);
    return TESS_ERR_NOMEM;
  }
  obj->props = grown;
  obj->props[obj->prop_count++] = copy;
  return TESS_OK;
}

const TessProperty *tess_object_property(const TessObject *obj, const char *name) {
  for (uint32_t i = 0; i < obj->prop_count; i++)
    if (strcmp(obj->props[i].name, name) == 0) return &obj->props[i];
  return NULL;
}
