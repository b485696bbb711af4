/* Level checks: the one list of what keeps a level from exporting (errors)
 * and what is probably a mistake (warnings), shared by `validate`, export and
 * the editor's problem list (tessera/level.h). Errors cover every refusal of
 * the scene and the pack writer that a project can reach through its data:
 * settings and objects out of range or beyond the documented limits, bodies
 * naming a sprite that does not exist or has no mask, joints to missing
 * bodies or to themselves, masses a float cannot hold, too many colliding
 * layers. */
#include <stdarg.h>
#include <stdio.h>

#include "level_private.h"
#include "tessera/image.h"

#define CHECK_PI 3.14159265358979323846

typedef struct Ctx {
  const TessProject *p;
  const TessLevel *level; /* NULL for project problems */
  TessProblemFn fn;
  void *user;
  uint32_t errors;
  TessProblem first; /* the first error, for tess_level_check_errors */
} Ctx;

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void
report(Ctx *c, TessProblemSeverity severity, TessResult code, TessId object, const char *fmt, ...) {
  TessProblem pb;
  memset(&pb, 0, sizeof pb);
  pb.severity = (uint8_t)severity;
  pb.code = code;
  pb.level = c->level ? c->level->id : 0;
  pb.object = object;
  int n = c->level ? snprintf(pb.detail, sizeof pb.detail, "level '%s': ", c->level->settings.name) : 0;
  if (n < 0 || (size_t)n >= sizeof pb.detail) n = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(pb.detail + n, sizeof pb.detail - (size_t)n, fmt, ap);
  va_end(ap);
  if (severity == TESS_PROBLEM_ERROR && c->errors++ == 0) c->first = pb;
  if (c->fn) c->fn(&pb, c->user);
}

static const char *kind_word(const TessObject *o) {
  static const char *words[] = {"body", "joint", "zone", "spawn", "launcher"};
  return o->kind <= TESS_OBJECT_LAUNCHER ? words[o->kind] : "object";
}

/* ---- launchers ----------------------------------------------------------- */

/* What a launcher fires falls back to a ball of its radius (and the
 * project's first material) when its sprite or material is gone: a
 * warning, the level still plays and exports. */
static void check_launcher(Ctx *c, const TessObject *o) {
  const TessLauncherObject *l = &o->u.launcher;
  if (l->sprite && !tess_project_sprite(c->p, l->sprite))
    report(c, TESS_PROBLEM_WARNING, TESS_ERR_NOT_FOUND, o->id,
           "launcher '%s' (id %u): sprite %u does not exist (it fires balls)", o->name, o->id, l->sprite);
  if (l->material && !tess_project_material(c->p, l->material))
    report(c, TESS_PROBLEM_WARNING, TESS_ERR_NOT_FOUND, o->id,
           "launcher '%s' (id %u): material %u does not exist (the default material is used)", o->name, o->id,
           l->material);
}

/* ---- bodies ------------------------------------------------------------- */

/* The density the scene gives a body: its material, else the project's
 * first; a material id that does not exist gets the scene's default (1). */
static double body_density(const TessProject *p, TessId material) {
  if (material == 0) return p->material_count ? p->materials[0].density : 1.0;
  const TessMaterial *m = tess_project_material(p, material);
  return m ? m->density : 1.0;
}

static bool sprite_has_shape(const TessSprite *s) {
  const TessSpriteMask *m = &s->mask;
  if (m->mode == TESS_MASK_CIRCLE && m->circle_radius > 0.0f) return true;
  return m->piece_count > 0 || m->hull_count >= 3;
}

static double dist(double x, double y) { return sqrt(x * x + y * y); }

/* Radius (px) of the disc around the anchor that holds the sprite's shape. */
static double sprite_reach(const TessSprite *s) {
  const TessSpriteMask *m = &s->mask;
  double ax = s->anchor.x, ay = s->anchor.y, r = 0;
  if (m->mode == TESS_MASK_CIRCLE && m->circle_radius > 0.0f)
    return dist(m->circle_center.x - ax, m->circle_center.y - ay) + m->circle_radius;
  for (uint32_t i = 0; i < m->piece_count; i++)
    for (uint32_t k = 0; k < m->pieces[i].count && k < TESS_POLY_MAX; k++)
      r = fmax(r, dist(m->pieces[i].v[k].x - ax, m->pieces[i].v[k].y - ay));
  if (m->piece_count == 0)
    for (uint32_t i = 0; i < m->hull_count; i++) r = fmax(r, dist(m->hull[i].x - ax, m->hull[i].y - ay));
  return r;
}

/* Upper bounds (kg, kg m^2 about the body's origin) of what the scene and
 * the pack writer compute: a shape inside a box or a disc has at most its
 * mass and moment. Doubles, so the bound itself never overflows. */
static void body_mass_bound(const TessProject *p, const TessObject *o, double ppm, double *mass, double *inertia) {
  const TessBodyObject *b = &o->u.body;
  double rho = body_density(p, b->material), m = 0, i = 0;
  if (b->shape == TESS_BODY_CIRCLE) {
    double r = b->radius / ppm;
    m = rho * CHECK_PI * r * r;
    i = 0.5 * m * r * r;
  } else if (b->shape == TESS_BODY_BOX || b->shape == TESS_BODY_CAPSULE) {
    double w = b->width / ppm, h = b->height / ppm;
    m = rho * w * h;
    i = m * (w * w + h * h) / 12.0;
  } else if (b->shape == TESS_BODY_SPRITE) {
    const TessSprite *s = tess_project_sprite(p, b->sprite);
    if (!s) return;
    double r = sprite_reach(s) / ppm;
    m = rho * CHECK_PI * r * r;
    i = m * r * r;
    const TessSpriteMask *mk = &s->mask;
    /* Dynamic sprite bodies take the mask's pixel mass properties. */
    m = fmax(m, rho * fabs(mk->area) / (ppm * ppm));
    i = fmax(i, rho * fabs(mk->inertia) / (ppm * ppm * ppm * ppm));
  }
  *mass = m;
  *inertia = i;
}

static void check_body(Ctx *c, const TessObject *o) {
  const TessBodyObject *b = &o->u.body;
  const TessLevelSettings *st = &c->level->settings;
  if (b->shape == TESS_BODY_SPRITE) {
    const TessSprite *s = tess_project_sprite(c->p, b->sprite);
    if (!s) {
      report(c, TESS_PROBLEM_ERROR, TESS_ERR_NOT_FOUND, o->id, "body '%s' (id %u): sprite %u does not exist", o->name,
             o->id, b->sprite);
      return;
    }
    bool by_pixels = b->collide_pixels && b->type == TESS_BODY_STATIC; /* its pixels collide, not a traced shape */
    if (!sprite_has_shape(s) && !by_pixels) {
      report(c, TESS_PROBLEM_ERROR, TESS_ERR_INVALID, o->id,
             "body '%s' (id %u): sprite '%s' (id %u) has no collision mask", o->name, o->id, s->name, s->id);
      return;
    }
  }
  if (b->material && !tess_project_material(c->p, b->material))
    report(c, TESS_PROBLEM_WARNING, TESS_ERR_NOT_FOUND, o->id,
           "body '%s' (id %u): material %u does not exist (the default material is used)", o->name, o->id,
           b->material);
  double mass = 0, inertia = 0;
  body_mass_bound(c->p, o, st->ppm, &mass, &inertia);
  if (!(mass <= TESS_BODY_MAX_MASS) || !(inertia <= TESS_BODY_MAX_MASS))
    report(c, TESS_PROBLEM_ERROR, TESS_ERR_LIMIT, o->id,
           "body '%s' (id %u): its mass (%.3g kg) or moment of inertia (%.3g kg m^2) is beyond %.0e, more than a "
           "float holds: make it smaller or raise the pixels per metre",
           o->name, o->id, mass, inertia, TESS_BODY_MAX_MASS);
  double cx = floor(o->pos.x / st->tile_w), cy = floor(o->pos.y / st->tile_h);
  if (cx >= 0 && cy >= 0 && cx < st->width && cy < st->height) {
    TessCellCollision cc;
    tess_level_cell_collision(c->p, c->level, (uint32_t)cx, (uint32_t)cy, &cc);
    if (cc.kind == TESS_TILE_COLLISION_FULL)
      report(c, TESS_PROBLEM_WARNING, TESS_ERR_INVALID, o->id,
             "body '%s' (id %u) at (%g, %g) px is inside the solid cell (%u, %u)", o->name, o->id, (double)o->pos.x,
             (double)o->pos.y, (unsigned)cx, (unsigned)cy);
  }
}

/* ---- joints ------------------------------------------------------------- */

static bool is_body(const TessLevel *level, TessId id) {
  const TessObject *o = tess_level_object(level, id, NULL);
  return o && o->kind == TESS_OBJECT_BODY;
}

static void check_joint(Ctx *c, const TessObject *o) {
  const TessJointObject *j = &o->u.joint;
  const TessId ends[2] = {j->body_a, j->body_b};
  bool missing = false;
  for (int k = 0; k < 2; k++) {
    if (ends[k] && !is_body(c->level, ends[k])) {
      report(c, TESS_PROBLEM_ERROR, TESS_ERR_NOT_FOUND, o->id,
             "joint '%s' (id %u) is attached to body %u, which does not exist", o->name, o->id, ends[k]);
      missing = true;
    }
  }
  if (!missing && j->body_a == j->body_b) {
    if (j->body_a)
      report(c, TESS_PROBLEM_ERROR, TESS_ERR_INVALID, o->id, "joint '%s' (id %u) joins body %u to itself", o->name,
             o->id, j->body_a);
    else
      report(c, TESS_PROBLEM_ERROR, TESS_ERR_INVALID, o->id, "joint '%s' (id %u) joins no body: both ends are the world",
             o->name, o->id);
  }
}

/* ---- a level ------------------------------------------------------------ */

static void check_level(Ctx *c) {
  const TessLevel *lv = c->level;
  TessError e;
  tess_error_clear(&e);
  TessResult r = tess_level_settings_validate(&lv->settings, &e);
  if (r != TESS_OK) {
    /* Everything below reads the settings (cell size, pixels per metre). */
    report(c, TESS_PROBLEM_ERROR, r, 0, "settings: %s", e.detail);
    return;
  }
  uint32_t colliders = 0;
  for (uint32_t li = 0; li < lv->layer_count; li++)
    if (lv->layers[li]->props.kind == TESS_LAYER_TILES && lv->layers[li]->props.collides && !lv->layers[li]->props.collide_pixels) colliders++;
  if (colliders > TESS_LEVEL_MAX_COLLIDING_LAYERS)
    report(c, TESS_PROBLEM_ERROR, TESS_ERR_LIMIT, 0, "%u tile layers collide (at most %d)", colliders,
           TESS_LEVEL_MAX_COLLIDING_LAYERS);
  for (uint32_t li = 0; li < lv->layer_count; li++) {
    const TessLayer *layer = lv->layers[li];
    if (layer->props.kind != TESS_LAYER_OBJECTS) continue;
    for (uint32_t i = 0; i < layer->object_count; i++) {
      const TessObject *o = &layer->objects[i];
      tess_error_clear(&e);
      r = tess_object_validate(o, &e);
      if (r != TESS_OK) {
        report(c, TESS_PROBLEM_ERROR, r, o->id, "%s '%s' (id %u): %s", kind_word(o), o->name, o->id, e.detail);
        continue;
      }
      if (o->kind == TESS_OBJECT_BODY) check_body(c, o);
      else if (o->kind == TESS_OBJECT_JOINT) check_joint(c, o);
      else if (o->kind == TESS_OBJECT_LAUNCHER) check_launcher(c, o);
    }
  }
}

/* With no error named above, the scene export builds next is built here
 * too: whatever else it refuses (a sprite piece that is not convex once
 * cleaned, for one) is an error of this list as well, word for word. Export
 * itself skips this step (tess_level_check_errors): it builds that very
 * scene right after. */
static void check_scene(Ctx *c) {
  TessScene *scene = NULL;
  TessError e;
  tess_error_clear(&e);
  TessResult r = tess_scene_from_level(c->p, c->level, &scene, &e);
  if (r == TESS_OK) {
    tess_scene_destroy(scene);
    return;
  }
  if (r == TESS_ERR_NOMEM) return;                     /* not a property of the level */
  report(c, TESS_PROBLEM_ERROR, r, 0, "%s", e.detail); /* e.file is the level's name: report() names it */
}

uint32_t tess_level_check(const TessProject *p, const TessLevel *level, TessProblemFn fn, void *user) {
  Ctx c;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.level = level;
  c.fn = fn;
  c.user = user;
  check_level(&c);
  if (c.errors == 0) check_scene(&c);
  return c.errors;
}

TessResult tess_level_check_errors(const TessProject *p, const TessLevel *level, TessError *err) {
  Ctx c;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.level = level;
  check_level(&c);
  if (c.errors == 0) return TESS_OK;
  return tess_error_set(err, c.first.code, level->settings.name, "%s", c.first.detail);
}

/* ---- the project -------------------------------------------------------- */

/* Bytes that declare a PNG of the project's size (checked on every load and
 * edit) can still fail to decode further on: say so before render does. */
static void check_image(Ctx *c, const uint8_t *png, size_t size, const char *what, const char *name, TessId id) {
  if (!png || size == 0) return;
  TessImage img;
  TessError e;
  tess_error_clear(&e);
  if (tess_png_decode(png, size, name, &img, &e) == TESS_OK) {
    tess_image_clear(&img);
    return;
  }
  report(c, TESS_PROBLEM_WARNING, TESS_ERR_FORMAT, 0, "%s '%s' (id %u): its image cannot be decoded (%s); it is drawn as a placeholder",
         what, name, id, e.detail);
}

static void mark_used(const TessProject *p, TessId material, bool *used) {
  int i = material ? level_project_material_index(p, material) : -1;
  if (i >= 0) used[i] = true;
}

static void mark_level_materials(const TessProject *p, const TessLevel *level, bool *used) {
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    if (layer->props.kind == TESS_LAYER_MATERIAL) {
      for (uint32_t cy = 0; cy < layer->chunks_y; cy++)
        for (uint32_t cx = 0; cx < layer->chunks_x; cx++) {
          const TessChunk *ch = tess_layer_chunk(layer, cx, cy);
          if (!ch) continue;
          TessId last = 0;
          for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++)
            if (ch->cells[i] && ch->cells[i] != last) mark_used(p, last = ch->cells[i], used);
        }
    }
    for (uint32_t i = 0; i < layer->object_count; i++) {
      const TessObject *o = &layer->objects[i];
      if (o->kind != TESS_OBJECT_BODY) continue;
      if (o->u.body.material) mark_used(p, o->u.body.material, used);
      else if (p->material_count) used[0] = true;
    }
  }
}

static void check_materials_used(Ctx *c) {
  const TessProject *p = c->p;
  if (p->material_count == 0) return;
  bool *used = tess_calloc(p->material_count, sizeof *used);
  if (!used) return;
  for (uint32_t i = 0; i < p->level_count; i++) mark_level_materials(p, p->levels[i], used);
  for (uint32_t t = 0; t < p->tileset_count; t++)
    for (uint32_t k = 0; k < p->tilesets[t]->tile_count; k++) mark_used(p, p->tilesets[t]->tiles[k].material, used);
  for (uint32_t i = 0; i < p->material_count; i++)
    if (!used[i])
      report(c, TESS_PROBLEM_WARNING, TESS_ERR_INVALID, 0, "material '%s' (id %u) is not used", p->materials[i].name,
             p->materials[i].id);
  tess_free(used);
}

uint32_t tess_project_check(const TessProject *p, TessProblemFn fn, void *user) {
  uint32_t errors = 0;
  for (uint32_t i = 0; i < p->level_count; i++) errors += tess_level_check(p, p->levels[i], fn, user);
  Ctx c;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.fn = fn;
  c.user = user;
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    const TessTileset *ts = p->tilesets[i];
    check_image(&c, ts->png, ts->png_size, "tileset", ts->name, ts->id);
  }
  for (uint32_t i = 0; i < p->sprite_count; i++) {
    const TessSprite *s = p->sprites[i];
    check_image(&c, s->png, s->png_size, "sprite", s->name, s->id);
    if (!sprite_has_shape(s))
      report(&c, TESS_PROBLEM_WARNING, TESS_ERR_INVALID, 0, "sprite '%s' (id %u) has no collision mask", s->name, s->id);
  }
  check_materials_used(&c);
  return errors + c.errors;
}
