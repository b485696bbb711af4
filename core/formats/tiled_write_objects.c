/* Tessera objects as Tiled objects (core/formats/README.md has the table):
 * bodies are ellipses, rectangles or tile objects of their sprite's
 * tileset; joints are points (pin) or two-point polylines (distance) whose
 * `object` properties name the bodies; zones are rectangles or, for an
 * attractor or a spring, an ellipse of its reach; spawns and launchers are points. The object's id is
 * Tessera's (unique in the project, so unique in the map).
 *
 * Tiled places a rectangle or ellipse by its top-left corner and a tile
 * object by its bottom-left, and turns it about that point (degrees,
 * clockwise on screen); Tessera places an object by its centre (a sprite by
 * its anchor) and turns it about that, in radians, clockwise on screen too
 * (y down). The corner is computed in double from the float fields, so an
 * importer doing the inverse in double gets the floats back exactly.
 *
 * Fields that a kind does not use are written (prefixed "tessera.") only
 * when they differ from tess_object_default()'s, so nothing is lost and
 * a plain object stays plain. */
#include <math.h>
#include <string.h>

#include "formats_tiled_write_build.h"

#define TW_PI 3.14159265358979323846

static void corner(const TessObject *o, double dx, double dy, TwObject *out) {
  double x = dx, y = dy;
  if (o->angle != 0.0f) {
    double c = cos((double)o->angle), s = sin((double)o->angle);
    x = c * dx - s * dy;
    y = s * dx + c * dy;
  }
  out->x = (double)o->pos.x + x;
  out->y = (double)o->pos.y + y;
  out->rotation = (double)o->angle * (180.0 / TW_PI);
}

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void extra_float(TwMap *m, TwProps *pr, const char *name, float v, float def) {
  if (!same_bits(v, def)) tiled_write_prop_float(m, pr, name, v);
}

static const char *body_type_name(uint8_t t) {
  return t == TESS_BODY_STATIC ? "static" : t == TESS_BODY_KINEMATIC ? "kinematic"
                                                                     : "dynamic";
}

static const char *pin_name(uint8_t p) {
  return p == TESS_PIN_AT_SMALLER_CENTROID ? "smaller_centroid" : p == TESS_PIN_AT_OVERLAP_CENTRE ? "overlap_centre"
                                                                                                  : "none";
}

static const TwMass *find_mass(const TwMass *masses, size_t count, TessId id) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (masses[mid].object < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && masses[lo].object == id ? &masses[lo] : NULL;
}

static void body(TwMap *m, const TessProject *p, const TwMass *masses, size_t mass_count, const TessObject *o,
                 const uint32_t *sprite_firstgid, TwObject *t) {
  const TessBodyObject *b = &o->u.body;
  TessObject def;
  tess_object_default(&def, TESS_OBJECT_BODY);
  const TessBodyObject *d = &def.u.body;
  TwProps *pr = &t->props;
  t->type = "body";
  static const char *shapes[] = {"circle", "box", "capsule", "sprite"};
  tiled_write_prop_string(m, pr, "shape", b->shape < 4 ? shapes[b->shape] : "circle");
  tiled_write_prop_string(m, pr, "body_type", body_type_name(b->type));
  const TessMaterial *mat = b->material ? tess_project_material(p, b->material)
                                        : (p->material_count ? &p->materials[0] : NULL);
  if (mat) tiled_write_prop_string(m, pr, "material", mat->name);
  tiled_write_prop_int(m, pr, "tessera.material_id", b->material);
  tiled_write_prop_bool(m, pr, "sensor", b->sensor != 0);
  tiled_write_prop_string(m, pr, "pin", pin_name(b->pin));
  /* Tiled's ints are 32-bit signed: the bit patterns go as such (0xFFFFFFFF is -1). */
  tiled_write_prop_int(m, pr, "category", (int32_t)b->category);
  tiled_write_prop_int(m, pr, "mask", (int32_t)b->mask);
  /* only when not the default, so a level with no RK4 body exports as it did */
  if (b->integrator == TESS_INTEGRATOR_RK4) tiled_write_prop_string(m, pr, "tessera.integrator", "rk4");
  /* Only when set, and only where it acts (a static sprite body's pixels): the importer warns about it anywhere else. */
  if (b->collide_pixels && b->type == TESS_BODY_STATIC && b->shape == TESS_BODY_SPRITE)
    tiled_write_prop_bool(m, pr, "collide_pixels", true);
  switch (b->shape) {
    case TESS_BODY_BOX:
    case TESS_BODY_CAPSULE:
      t->shape = TW_RECT;
      t->width = b->width;
      t->height = b->height;
      corner(o, -0.5 * b->width, -0.5 * b->height, t);
      extra_float(m, pr, "tessera.radius", b->radius, d->radius);
      break;
    case TESS_BODY_SPRITE: {
      const TessSprite *s = tess_project_sprite(p, b->sprite);
      uint32_t idx = 0;
      while (idx < p->sprite_count && p->sprites[idx]->id != b->sprite) idx++;
      if (s) tiled_write_prop_string(m, pr, "sprite", s->name);
      tiled_write_prop_int(m, pr, "tessera.sprite_id", b->sprite);
      if (s && idx < p->sprite_count && sprite_firstgid[idx]) {
        uint32_t frames = s->frame_count ? s->frame_count : 1;
        t->shape = TW_TILE;
        t->gid = sprite_firstgid[idx];
        t->width = s->image_w / frames;
        t->height = s->image_h;
        corner(o, -(double)s->anchor.x, t->height - (double)s->anchor.y, t);
      } else {
        t->shape = TW_POINT; /* a sprite the project lacks: its place only */
        corner(o, 0.0, 0.0, t);
      }
      extra_float(m, pr, "tessera.radius", b->radius, d->radius);
      extra_float(m, pr, "tessera.width", b->width, d->width);
      extra_float(m, pr, "tessera.height", b->height, d->height);
      break;
    }
    case TESS_BODY_CIRCLE:
    default:
      t->shape = TW_ELLIPSE;
      t->width = t->height = 2.0 * b->radius;
      corner(o, -(double)b->radius, -(double)b->radius, t);
      extra_float(m, pr, "tessera.width", b->width, d->width);
      extra_float(m, pr, "tessera.height", b->height, d->height);
      break;
  }
  const TwMass *mass = find_mass(masses, mass_count, o->id);
  if (mass) { /* what the physics uses: kg, kg m^2 about the centre of mass, metres */
    tiled_write_prop_float(m, pr, "mass", mass->mass);
    tiled_write_prop_float(m, pr, "inertia", mass->inertia);
    tiled_write_prop_float(m, pr, "center_x", mass->center.x);
    tiled_write_prop_float(m, pr, "center_y", mass->center.y);
  }
}

static void joint(TwMap *m, const TessObject *o, TwObject *t) {
  const TessJointObject *j = &o->u.joint;
  TessObject def;
  tess_object_default(&def, TESS_OBJECT_JOINT);
  const TessJointObject *d = &def.u.joint;
  TwProps *pr = &t->props;
  t->type = "joint";
  corner(o, 0.0, 0.0, t);
  tiled_write_prop_string(m, pr, "kind", j->kind == TESS_JOINT_DISTANCE ? "distance" : "pin");
  tiled_write_prop_object(m, pr, "body_a", j->body_a);
  tiled_write_prop_object(m, pr, "body_b", j->body_b);
  if (j->kind == TESS_JOINT_DISTANCE) {
    /* A two-point polyline from the anchor on body a to the one on body b,
     * in the object's turned frame (Tiled turns the points with it). */
    t->shape = TW_POLYLINE;
    TwPoint *pts = tiled_write_points(m, t, 2);
    if (pts) {
      double dx = (double)j->anchor_b.x - o->pos.x, dy = (double)j->anchor_b.y - o->pos.y;
      if (o->angle != 0.0f) {
        double c = cos((double)o->angle), s = sin((double)o->angle), x = c * dx + s * dy, y = -s * dx + c * dy;
        dx = x;
        dy = y;
      }
      pts[1].x = dx;
      pts[1].y = dy;
    }
    tiled_write_prop_float(m, pr, "length", j->length);
    if (j->limit_enabled) tiled_write_prop_bool(m, pr, "tessera.limit_enabled", true);
    extra_float(m, pr, "tessera.lower", j->lower, d->lower);
    extra_float(m, pr, "tessera.upper", j->upper, d->upper);
    if (j->motor_enabled) tiled_write_prop_bool(m, pr, "tessera.motor_enabled", true);
    extra_float(m, pr, "tessera.motor_speed", j->motor_speed, 0.0f);
    extra_float(m, pr, "tessera.motor_torque", j->motor_torque, 0.0f);
    return;
  }
  t->shape = TW_POINT;
  tiled_write_prop_bool(m, pr, "limit_enabled", j->limit_enabled != 0);
  tiled_write_prop_float(m, pr, "lower", j->lower);
  tiled_write_prop_float(m, pr, "upper", j->upper);
  tiled_write_prop_bool(m, pr, "motor_enabled", j->motor_enabled != 0);
  tiled_write_prop_float(m, pr, "motor_speed", j->motor_speed);
  tiled_write_prop_float(m, pr, "motor_torque", j->motor_torque);
  extra_float(m, pr, "tessera.anchor_b_x", j->anchor_b.x, 0.0f);
  extra_float(m, pr, "tessera.anchor_b_y", j->anchor_b.y, 0.0f);
  extra_float(m, pr, "tessera.length", j->length, 0.0f);
}

static void zone(TwMap *m, const TessObject *o, TwObject *t) {
  const TessZoneObject *z = &o->u.zone;
  TessObject def;
  tess_object_default(&def, TESS_OBJECT_ZONE);
  const TessZoneObject *d = &def.u.zone;
  TwProps *pr = &t->props;
  t->type = "zone";
  static const char *kinds[] = {"force", "acceleration", "attractor", "spring"};
  tiled_write_prop_string(m, pr, "kind", z->kind < 4 ? kinds[z->kind] : "force");
  if (z->kind == TESS_ZONE_ATTRACTOR || z->kind == TESS_ZONE_SPRING) {
    if (z->radius > 0.0f) {
      t->shape = TW_ELLIPSE;
      t->width = t->height = 2.0 * z->radius;
      corner(o, -(double)z->radius, -(double)z->radius, t);
    } else {
      t->shape = TW_POINT;
      corner(o, 0.0, 0.0, t);
    }
    tiled_write_prop_float(m, pr, "strength", z->strength);
    tiled_write_prop_float(m, pr, "radius", z->radius);
    extra_float(m, pr, "tessera.width", z->width, d->width);
    extra_float(m, pr, "tessera.height", z->height, d->height);
    extra_float(m, pr, "tessera.vector_x", z->vector.x, d->vector.x);
    extra_float(m, pr, "tessera.vector_y", z->vector.y, d->vector.y);
    return;
  }
  t->shape = TW_RECT;
  t->width = z->width;
  t->height = z->height;
  corner(o, -0.5 * z->width, -0.5 * z->height, t);
  tiled_write_prop_float(m, pr, "vector_x", z->vector.x);
  tiled_write_prop_float(m, pr, "vector_y", z->vector.y);
  extra_float(m, pr, "tessera.strength", z->strength, d->strength);
  extra_float(m, pr, "tessera.radius", z->radius, d->radius);
}

/* A launcher: a point with its speed (m/s, 0 = any), ball radius (px), and
 * what it fires by name with the Tessera ids beside them (as a body's). */
static void launcher(TwMap *m, const TessProject *p, const TessObject *o, TwObject *t) {
  const TessLauncherObject *l = &o->u.launcher;
  TwProps *pr = &t->props;
  t->type = "launcher";
  t->shape = TW_POINT;
  corner(o, 0.0, 0.0, t);
  tiled_write_prop_float(m, pr, "speed", l->speed);
  tiled_write_prop_float(m, pr, "radius", l->radius);
  const TessMaterial *mat = l->material ? tess_project_material(p, l->material)
                                        : (p->material_count ? &p->materials[0] : NULL);
  if (mat) tiled_write_prop_string(m, pr, "material", mat->name);
  tiled_write_prop_int(m, pr, "tessera.material_id", l->material);
  const TessSprite *s = l->sprite ? tess_project_sprite(p, l->sprite) : NULL;
  if (s) tiled_write_prop_string(m, pr, "sprite", s->name);
  tiled_write_prop_int(m, pr, "tessera.sprite_id", l->sprite);
}

static void user_props(TwMap *m, const TessObject *o, TwProps *pr) {
  for (uint32_t i = 0; o->props && i < o->prop_count; i++) {
    const TessProperty *u = &o->props[i];
    switch (u->type) {
      case TESS_PROP_INT:
        /* Tiled's ints are 32-bit: a wider value goes as its exact decimal text. */
        if (u->v.i >= INT32_MIN && u->v.i <= INT32_MAX) tiled_write_prop_int(m, pr, u->name, u->v.i);
        else tiled_write_prop_string(m, pr, u->name, tiled_write_printf(m, "%lld", (long long)u->v.i));
        break;
      case TESS_PROP_FLOAT: tiled_write_prop_float(m, pr, u->name, u->v.f); break;
      case TESS_PROP_BOOL: tiled_write_prop_bool(m, pr, u->name, u->v.b); break;
      case TESS_PROP_COLOR: tiled_write_prop_color(m, pr, u->name, u->v.color); break;
      case TESS_PROP_STRING:
      default: tiled_write_prop_string(m, pr, u->name, u->v.s ? u->v.s : ""); break;
    }
  }
}

void tiled_write_build_object(TwMap *m, const TessProject *p, const TwMass *masses, size_t mass_count, const TessObject *o,
                              const uint32_t *sprite_firstgid, TwObjects *out) {
  TwObject *t = tiled_write_object_add(m, out);
  if (!t) return;
  t->id = o->id;
  t->name = o->name;
  switch (o->kind) {
    case TESS_OBJECT_BODY: body(m, p, masses, mass_count, o, sprite_firstgid, t); break;
    case TESS_OBJECT_JOINT: joint(m, o, t); break;
    case TESS_OBJECT_ZONE: zone(m, o, t); break;
    case TESS_OBJECT_LAUNCHER: launcher(m, p, o, t); break;
    case TESS_OBJECT_SPAWN:
    default:
      t->type = "spawn";
      t->shape = TW_POINT;
      corner(o, 0.0, 0.0, t);
      break;
  }
  if (o->depth) tiled_write_prop_int(m, &t->props, "tessera.depth", o->depth);
  user_props(m, o, &t->props);
}
