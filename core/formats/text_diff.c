/* tess_project_diff: what changed between two projects, in words a designer
 * reads ("level 'Side': layer 'Ground': 12 cells changed in x 4..9, y 10..11").
 * Items are matched by id, so a rename reads as a rename, not as a removal
 * and an addition. Fields are compared through their printed values. */
#include <inttypes.h>
#include <stdlib.h>

#include "formats_text.h"

typedef struct Diff {
  TessDiffLineFn fn;
  void *user;
  size_t lines;
} Diff;

static void say(Diff *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(Diff *d, const char *fmt, ...) {
  char line[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  d->fn(line, d->user);
  d->lines++;
}

/* A list of "field: old -> new" built up for one item. */
typedef struct Changes {
  char text[1536];
  size_t len;
  int count;
} Changes;

static void change(Changes *c, const char *field, const char *a, const char *b) {
  if (!strcmp(a, b)) return;
  int n = snprintf(c->text + c->len, sizeof c->text - c->len, "%s%s %s -> %s", c->count ? ", " : "", field, a, b);
  if (n > 0 && c->len + (size_t)n < sizeof c->text) c->len += (size_t)n;
  c->count++;
}

static void change_int(Changes *c, const char *field, int32_t a, int32_t b) {
  char x[16], y[16];
  snprintf(x, sizeof x, "%d", (int)a);
  snprintf(y, sizeof y, "%d", (int)b);
  change(c, field, x, y);
}

static void change_f32(Changes *c, const char *field, float a, float b) {
  char x[TESS_NUMBER_BUF], y[TESS_NUMBER_BUF];
  tess_format_f32(a, x);
  tess_format_f32(b, y);
  change(c, field, x, y);
}

static void change_u32(Changes *c, const char *field, uint32_t a, uint32_t b) {
  char x[16], y[16];
  snprintf(x, sizeof x, "%" PRIu32, a);
  snprintf(y, sizeof y, "%" PRIu32, b);
  change(c, field, x, y);
}

static void change_name(Changes *c, const char *field, const char *a, const char *b) {
  char x[80], y[80];
  snprintf(x, sizeof x, "'%s'", a);
  snprintf(y, sizeof y, "'%s'", b);
  change(c, field, x, y);
}

static void change_vec(Changes *c, const char *field, TessVec2 a, TessVec2 b) {
  char ax[TESS_NUMBER_BUF], ay[TESS_NUMBER_BUF], bx[TESS_NUMBER_BUF], by[TESS_NUMBER_BUF], x[80], y[80];
  tess_format_f32(a.x, ax);
  tess_format_f32(a.y, ay);
  tess_format_f32(b.x, bx);
  tess_format_f32(b.y, by);
  snprintf(x, sizeof x, "(%s, %s)", ax, ay);
  snprintf(y, sizeof y, "(%s, %s)", bx, by);
  change(c, field, x, y);
}

#define CHANGE_WORD(c, field, table, a, b) change(c, field, TEXT_WORD(table, a), TEXT_WORD(table, b))

/* ---- materials, tilesets, sprites ---- */

static void diff_materials(Diff *d, const TessProject *a, const TessProject *b) {
  for (uint32_t i = 0; i < a->material_count; i++)
    if (!tess_project_material(b, a->materials[i].id))
      say(d, "material '%s' (id %" PRIu32 ") removed", a->materials[i].name, a->materials[i].id);
  for (uint32_t i = 0; i < b->material_count; i++) {
    const TessMaterial *n = &b->materials[i], *o = tess_project_material(a, n->id);
    if (!o) {
      say(d, "material '%s' (id %" PRIu32 ") added: %s, friction %g, restitution %g, density %g", n->name, n->id,
          TEXT_WORD(TEXT_MATERIAL_KINDS, n->kind), (double)n->friction, (double)n->restitution, (double)n->density);
      continue;
    }
    Changes c = {.len = 0};
    char x[16], y[16];
    change_name(&c, "name", o->name, n->name);
    CHANGE_WORD(&c, "kind", TEXT_MATERIAL_KINDS, o->kind, n->kind);
    snprintf(x, sizeof x, "#%08" PRIx32, o->color);
    snprintf(y, sizeof y, "#%08" PRIx32, n->color);
    change(&c, "colour", x, y);
    change_f32(&c, "friction", o->friction, n->friction);
    change_f32(&c, "restitution", o->restitution, n->restitution);
    change_f32(&c, "tangential", o->tangential, n->tangential);
    change_f32(&c, "density", o->density, n->density);
    if (c.count) say(d, "material '%s' (id %" PRIu32 ") changed: %s", n->name, n->id, c.text);
  }
}

static bool same_polys(const TessPolygon *a, uint32_t na, const TessPolygon *b, uint32_t nb) {
  if (na != nb) return false;
  for (uint32_t i = 0; i < na; i++)
    if (a[i].count != b[i].count || memcmp(a[i].v, b[i].v, sizeof(TessVec2) * (a[i].count <= TESS_POLY_MAX ? a[i].count : 0)))
      return false;
  return true;
}

static bool same_png(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  return na == nb && (na == 0 || memcmp(a, b, na) == 0);
}

static void diff_tilesets(Diff *d, const TessProject *a, const TessProject *b) {
  for (uint32_t i = 0; i < a->tileset_count; i++)
    if (!tess_project_tileset(b, a->tilesets[i]->id))
      say(d, "tileset '%s' (id %" PRIu32 ") removed", a->tilesets[i]->name, a->tilesets[i]->id);
  for (uint32_t i = 0; i < b->tileset_count; i++) {
    const TessTileset *n = b->tilesets[i], *o = tess_project_tileset(a, n->id);
    if (!o) {
      say(d, "tileset '%s' (id %" PRIu32 ") added: %" PRIu32 " tiles of %" PRIu32 " x %" PRIu32 " px", n->name, n->id,
          n->tile_count, n->tile_w, n->tile_h);
      continue;
    }
    Changes c = {.len = 0};
    change_name(&c, "name", o->name, n->name);
    if (!same_png(o->png, o->png_size, n->png, n->png_size)) change(&c, "image", "old", "new");
    change_u32(&c, "tile width", o->tile_w, n->tile_w);
    change_u32(&c, "tile height", o->tile_h, n->tile_h);
    change_u32(&c, "tiles", o->tile_count, n->tile_count);
    uint32_t tiles = 0, first = 0;
    for (uint32_t t = 0; t < o->tile_count && t < n->tile_count; t++) {
      const TessTileInfo *x = &o->tiles[t], *y = &n->tiles[t];
      if (x->material != y->material || x->collision != y->collision || x->one_way != y->one_way ||
          !same_polys(x->pieces, x->piece_count, y->pieces, y->piece_count)) {
        if (!tiles) first = t;
        tiles++;
      }
    }
    if (tiles) {
      char what[64];
      snprintf(what, sizeof what, "%" PRIu32 " tiles (first: tile %" PRIu32 ")", tiles, first);
      change(&c, "material or collision of", "", what);
    }
    if (c.count) say(d, "tileset '%s' (id %" PRIu32 ") changed: %s", n->name, n->id, c.text);
  }
}

static void diff_sprites(Diff *d, const TessProject *a, const TessProject *b) {
  for (uint32_t i = 0; i < a->sprite_count; i++)
    if (!tess_project_sprite(b, a->sprites[i]->id))
      say(d, "sprite '%s' (id %" PRIu32 ") removed", a->sprites[i]->name, a->sprites[i]->id);
  for (uint32_t i = 0; i < b->sprite_count; i++) {
    const TessSprite *n = b->sprites[i], *o = tess_project_sprite(a, n->id);
    if (!o) {
      say(d, "sprite '%s' (id %" PRIu32 ") added: %" PRIu32 " x %" PRIu32 " px, %" PRIu32 " frames", n->name, n->id,
          n->image_w, n->image_h, n->frame_count);
      continue;
    }
    Changes c = {.len = 0};
    change_name(&c, "name", o->name, n->name);
    if (!same_png(o->png, o->png_size, n->png, n->png_size)) change(&c, "image", "old", "new");
    change_u32(&c, "frames", o->frame_count, n->frame_count);
    change_f32(&c, "frame rate", o->frame_rate, n->frame_rate);
    change_vec(&c, "anchor", o->anchor, n->anchor);
    CHANGE_WORD(&c, "mask", TEXT_MASK_MODES, o->mask.mode, n->mask.mode);
    change_u32(&c, "alpha threshold", o->mask.threshold, n->mask.threshold);
    if (!same_polys(o->mask.pieces, o->mask.piece_count, n->mask.pieces, n->mask.piece_count) ||
        o->mask.hull_count != n->mask.hull_count || o->mask.circle_radius != n->mask.circle_radius)
      change(&c, "collision shape", "old", "new");
    if (c.count) say(d, "sprite '%s' (id %" PRIu32 ") changed: %s", n->name, n->id, c.text);
  }
}

/* ---- levels ---- */

static uint32_t level_objects(const TessLevel *level) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < level->layer_count; i++) n += level->layers[i]->object_count;
  return n;
}

static void diff_cells(Diff *d, const TessLevel *lo, const TessLevel *ln, const TessLayer *o, const TessLayer *n) {
  uint32_t w = lo->settings.width > ln->settings.width ? lo->settings.width : ln->settings.width;
  uint32_t h = lo->settings.height > ln->settings.height ? lo->settings.height : ln->settings.height;
  uint64_t changed = 0;
  uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
  for (uint32_t cy = 0; cy * TESS_CHUNK_SIZE < h; cy++)
    for (uint32_t cx = 0; cx * TESS_CHUNK_SIZE < w; cx++) {
      const TessChunk *a = tess_layer_chunk(o, cx, cy), *b = tess_layer_chunk(n, cx, cy);
      if (!a && !b) continue;
      if (a && b && !memcmp(a->cells, b->cells, sizeof a->cells)) continue;
      for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++) {
        uint32_t va = a ? a->cells[i] : 0, vb = b ? b->cells[i] : 0;
        if (va == vb) continue;
        uint32_t x = cx * TESS_CHUNK_SIZE + i % TESS_CHUNK_SIZE, y = cy * TESS_CHUNK_SIZE + i / TESS_CHUNK_SIZE;
        changed++;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  if (changed)
    say(d, "level '%s': layer '%s': %" PRIu64 " %s changed in x %" PRIu32 "..%" PRIu32 ", y %" PRIu32 "..%" PRIu32,
        ln->settings.name, n->props.name, changed, changed == 1 ? "cell" : "cells", x0, x1, y0, y1);
}

static void prop_value(const TessProperty *p, char *buf, size_t size) {
  switch (p->type) {
    case TESS_PROP_STRING: snprintf(buf, size, "\"%s\"", p->v.s ? p->v.s : ""); break;
    case TESS_PROP_INT: snprintf(buf, size, "%" PRId64, p->v.i); break;
    case TESS_PROP_FLOAT: tess_format_f64(p->v.f, buf); break;
    case TESS_PROP_BOOL: snprintf(buf, size, "%s", p->v.b ? "true" : "false"); break;
    case TESS_PROP_COLOR: snprintf(buf, size, "#%08" PRIx32, p->v.color); break;
    default: snprintf(buf, size, "?"); break;
  }
}

static void diff_props(Changes *c, const TessObject *o, const TessObject *n) {
  char field[96], x[256], y[256];
  for (uint32_t i = 0; i < o->prop_count; i++) {
    const TessProperty *po = &o->props[i], *pn = tess_object_property(n, po->name);
    snprintf(field, sizeof field, "property '%s'", po->name);
    prop_value(po, x, sizeof x);
    if (pn) prop_value(pn, y, sizeof y);
    change(c, field, x, pn ? y : "(none)");
  }
  for (uint32_t i = 0; i < n->prop_count; i++) {
    if (tess_object_property(o, n->props[i].name)) continue;
    snprintf(field, sizeof field, "property '%s'", n->props[i].name);
    prop_value(&n->props[i], y, sizeof y);
    change(c, field, "(none)", y);
  }
}

static void diff_object(Diff *d, const TessLevel *level, const TessObject *o, const TessObject *n, TessId lo, TessId ln) {
  Changes c = {.len = 0};
  change_name(&c, "name", o->name, n->name);
  change_u32(&c, "layer", lo, ln);
  CHANGE_WORD(&c, "kind", TEXT_OBJECT_KINDS, o->kind, n->kind);
  change_vec(&c, "position", o->pos, n->pos);
  change_f32(&c, "angle", o->angle, n->angle);
  change_int(&c, "depth", o->depth, n->depth);
  if (o->kind == n->kind && o->kind == TESS_OBJECT_BODY) {
    const TessBodyObject *a = &o->u.body, *b = &n->u.body;
    CHANGE_WORD(&c, "shape", TEXT_BODY_SHAPES, a->shape, b->shape);
    CHANGE_WORD(&c, "type", TEXT_BODY_TYPES, a->type, b->type);
    CHANGE_WORD(&c, "pin", TEXT_PIN_MODES, a->pin, b->pin);
    change(&c, "sensor", a->sensor ? "yes" : "no", b->sensor ? "yes" : "no");
    change_u32(&c, "sprite", a->sprite, b->sprite);
    change_u32(&c, "material", a->material, b->material);
    change_f32(&c, "radius", a->radius, b->radius);
    change_f32(&c, "width", a->width, b->width);
    change_f32(&c, "height", a->height, b->height);
    change_u32(&c, "category", a->category, b->category);
    change_u32(&c, "mask", a->mask, b->mask);
    CHANGE_WORD(&c, "integrator", TEXT_INTEGRATORS, a->integrator, b->integrator);
    change(&c, "collides by pixels", a->collide_pixels ? "yes" : "no", b->collide_pixels ? "yes" : "no");
  } else if (o->kind == n->kind && o->kind == TESS_OBJECT_JOINT) {
    const TessJointObject *a = &o->u.joint, *b = &n->u.joint;
    CHANGE_WORD(&c, "joint", TEXT_JOINT_KINDS, a->kind, b->kind);
    change_u32(&c, "body a", a->body_a, b->body_a);
    change_u32(&c, "body b", a->body_b, b->body_b);
    change_vec(&c, "anchor b", a->anchor_b, b->anchor_b);
    change_f32(&c, "length", a->length, b->length);
    change(&c, "limit", a->limit_enabled ? "on" : "off", b->limit_enabled ? "on" : "off");
    change_f32(&c, "lower", a->lower, b->lower);
    change_f32(&c, "upper", a->upper, b->upper);
    change(&c, "motor", a->motor_enabled ? "on" : "off", b->motor_enabled ? "on" : "off");
    change_f32(&c, "motor speed", a->motor_speed, b->motor_speed);
    change_f32(&c, "motor torque", a->motor_torque, b->motor_torque);
  } else if (o->kind == n->kind && o->kind == TESS_OBJECT_ZONE) {
    const TessZoneObject *a = &o->u.zone, *b = &n->u.zone;
    CHANGE_WORD(&c, "zone", TEXT_ZONE_KINDS, a->kind, b->kind);
    change_f32(&c, "width", a->width, b->width);
    change_f32(&c, "height", a->height, b->height);
    change_vec(&c, "vector", a->vector, b->vector);
    change_f32(&c, "strength", a->strength, b->strength);
    change_f32(&c, "radius", a->radius, b->radius);
  } else if (o->kind == n->kind && o->kind == TESS_OBJECT_LAUNCHER) {
    const TessLauncherObject *a = &o->u.launcher, *b = &n->u.launcher;
    change_f32(&c, "speed", a->speed, b->speed);
    change_f32(&c, "radius", a->radius, b->radius);
    change_u32(&c, "material", a->material, b->material);
    change_u32(&c, "sprite", a->sprite, b->sprite);
  }
  diff_props(&c, o, n);
  if (c.count)
    say(d, "level '%s': %s '%s' (id %" PRIu32 ") changed: %s", level->settings.name, TEXT_WORD(TEXT_OBJECT_KINDS, n->kind),
        n->name, n->id, c.text);
}

static void object_words(const TessObject *o, char *buf, size_t size) {
  char x[TESS_NUMBER_BUF], y[TESS_NUMBER_BUF];
  tess_format_f32(o->pos.x, x);
  tess_format_f32(o->pos.y, y);
  if (o->kind == TESS_OBJECT_BODY)
    snprintf(buf, size, "%s %s at (%s, %s)", TEXT_WORD(TEXT_BODY_TYPES, o->u.body.type),
             TEXT_WORD(TEXT_BODY_SHAPES, o->u.body.shape), x, y);
  else
    snprintf(buf, size, "at (%s, %s)", x, y);
}

static void diff_objects(Diff *d, const TessLevel *lo, const TessLevel *ln) {
  char words[160];
  for (uint32_t i = 0; i < lo->layer_count; i++)
    for (uint32_t k = 0; k < lo->layers[i]->object_count; k++) {
      const TessObject *o = &lo->layers[i]->objects[k];
      TessLayer *where = NULL;
      const TessObject *n = tess_level_object(ln, o->id, &where);
      if (!n) {
        object_words(o, words, sizeof words);
        say(d, "level '%s': %s '%s' (id %" PRIu32 ") removed (was %s)", ln->settings.name, TEXT_WORD(TEXT_OBJECT_KINDS, o->kind),
            o->name, o->id, words);
      } else {
        diff_object(d, ln, o, n, lo->layers[i]->props.id, where->props.id);
      }
    }
  for (uint32_t i = 0; i < ln->layer_count; i++)
    for (uint32_t k = 0; k < ln->layers[i]->object_count; k++) {
      const TessObject *n = &ln->layers[i]->objects[k];
      if (tess_level_object(lo, n->id, NULL)) continue;
      object_words(n, words, sizeof words);
      say(d, "level '%s': %s '%s' (id %" PRIu32 ") added in layer '%s': %s", ln->settings.name,
          TEXT_WORD(TEXT_OBJECT_KINDS, n->kind), n->name, n->id, ln->layers[i]->props.name, words);
    }
}

static void diff_layers(Diff *d, const TessLevel *lo, const TessLevel *ln) {
  const char *name = ln->settings.name;
  for (uint32_t i = 0; i < lo->layer_count; i++)
    if (!tess_level_layer(ln, lo->layers[i]->props.id))
      say(d, "level '%s': layer '%s' (id %" PRIu32 ") removed", name, lo->layers[i]->props.name, lo->layers[i]->props.id);
  for (uint32_t i = 0; i < ln->layer_count; i++) {
    const TessLayer *n = ln->layers[i], *o = tess_level_layer(lo, n->props.id);
    if (!o) {
      say(d, "level '%s': layer '%s' (id %" PRIu32 ", %s) added at position %" PRIu32, name, n->props.name, n->props.id,
          TEXT_WORD(TEXT_LAYER_KINDS, n->props.kind), i + 1);
      continue;
    }
    Changes c = {.len = 0};
    change_name(&c, "name", o->props.name, n->props.name);
    change_u32(&c, "position", (uint32_t)tess_level_layer_index(lo, o->props.id) + 1, i + 1);
    change(&c, "visible", o->props.visible ? "yes" : "no", n->props.visible ? "yes" : "no");
    change(&c, "locked", o->props.locked ? "yes" : "no", n->props.locked ? "yes" : "no");
    change(&c, "collides", o->props.collides ? "yes" : "no", n->props.collides ? "yes" : "no");
    change(&c, "collides by pixels", o->props.collide_pixels ? "yes" : "no", n->props.collide_pixels ? "yes" : "no");
    change_f32(&c, "opacity", o->props.opacity, n->props.opacity);
    change(&c, "sort by y", o->props.y_sort ? "yes" : "no", n->props.y_sort ? "yes" : "no");
    if (c.count) say(d, "level '%s': layer '%s' changed: %s", name, n->props.name, c.text);
    if (n->props.kind != TESS_LAYER_OBJECTS && o->props.kind == n->props.kind) diff_cells(d, lo, ln, o, n);
  }
}

static void diff_level(Diff *d, const TessLevel *lo, const TessLevel *ln) {
  const TessLevelSettings *a = &lo->settings, *b = &ln->settings;
  Changes c = {.len = 0};
  change_name(&c, "name", a->name, b->name);
  change_u32(&c, "width", a->width, b->width);
  change_u32(&c, "height", a->height, b->height);
  change_u32(&c, "tile width", a->tile_w, b->tile_w);
  change_u32(&c, "tile height", a->tile_h, b->tile_h);
  change_f32(&c, "pixels per metre", a->ppm, b->ppm);
  change_vec(&c, "gravity", a->gravity, b->gravity);
  CHANGE_WORD(&c, "view", TEXT_VIEWS, a->view, b->view);
  change_f32(&c, "physics rate", a->physics_hz, b->physics_hz);
  change_u32(&c, "sub-steps", a->substeps, b->substeps);
  change_f32(&c, "floor drag", a->floor_drag, b->floor_drag);
  if (c.count) say(d, "level '%s' (id %" PRIu32 ") changed: %s", b->name, ln->id, c.text);
  diff_layers(d, lo, ln);
  diff_objects(d, lo, ln);
}

size_t tess_project_diff(const TessProject *a, const TessProject *b, TessDiffLineFn fn, void *user) {
  Diff d = {fn, user, 0};
  TextLocale loc;
  text_locale_push(&loc);
  diff_materials(&d, a, b);
  diff_tilesets(&d, a, b);
  diff_sprites(&d, a, b);
  for (uint32_t i = 0; i < a->level_count; i++)
    if (!tess_project_level(b, a->levels[i]->id))
      say(&d, "level '%s' (id %" PRIu32 ") removed", a->levels[i]->settings.name, a->levels[i]->id);
  for (uint32_t i = 0; i < b->level_count; i++) {
    const TessLevel *n = b->levels[i], *o = tess_project_level(a, n->id);
    if (o) diff_level(&d, o, n);
    else
      say(&d, "level '%s' (id %" PRIu32 ") added: %" PRIu32 " x %" PRIu32 " cells, %" PRIu32 " layers, %" PRIu32 " objects",
          n->settings.name, n->id, n->settings.width, n->settings.height, n->layer_count, level_objects(n));
  }
  text_locale_pop(&loc);
  return d.lines;
}
