/* A level resolved for simulation (tessera/scene.h has the rules): the
 * scene built from the level model. It lives with level so that scene, and
 * a game that builds its scene from a .tlv, never see the level model. */
#include <stdio.h>
#include <string.h>

#include "level_private.h"
#include "tessera/scene.h"

/* ---- Growing arrays ---------------------------------------------------- */

static bool grow(void **data, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t c = *cap ? *cap : 8;
  while (c < need) c *= 2;
  if (c > UINT32_MAX) return false;
  size_t bytes;
  if (!tess_size_mul(c, elem, &bytes)) return false;
  void *p = tess_realloc(*data, bytes);
  if (!p) return false;
  *data = p;
  *cap = (uint32_t)c;
  return true;
}
#define GROW(arr, capp, need) grow((void **)&(arr), (capp), (need), sizeof(*(arr)))

typedef struct Builder {
  TessScene *s;
  uint32_t shape_cap, body_cap, joint_cap, zone_cap, spawn_cap, launcher_cap, piece_cap;
  const TessProject *p;
  const TessLevel *level;
  TessError *err;
} Builder;

static TessResult nomem(Builder *b) { return tess_error_set(b->err, TESS_ERR_NOMEM, b->level->settings.name, "out of memory"); }

static TessResult add_polygon(Builder *b, const TessVec2 *pts, uint32_t n, const char *what, TessId id) {
  TessVec2 v[TESS_POLY_MAX];
  if (n > TESS_POLY_MAX) return tess_error_set(b->err, TESS_ERR_INVALID, b->level->settings.name, "%s %u: piece of %u vertices", what, id, n);
  memcpy(v, pts, n * sizeof *v);
  n = tess_polygon_clean(v, n, 1e-4f);
  TessError e;
  if (tess_polygon_check(v, n, &e) != TESS_OK)
    return tess_error_set(b->err, TESS_ERR_INVALID, b->level->settings.name, "%s %u: %s", what, id, e.detail);
  tess_polygon_orient(v, n);
  if (!GROW(b->s->shapes, &b->shape_cap, b->s->shape_count + 1)) return nomem(b);
  TessSceneShape *sh = &b->s->shapes[b->s->shape_count++];
  memset(sh, 0, sizeof *sh);
  sh->type = TESS_SHAPE_POLYGON;
  sh->count = (uint8_t)n;
  memcpy(sh->v, v, n * sizeof *v);
  return TESS_OK;
}

/* A convex polygon of any size, split into fans of at most 8 vertices. */
static TessResult add_convex(Builder *b, const TessVec2 *pts, uint32_t n, const char *what, TessId id) {
  if (n <= TESS_POLY_MAX) return add_polygon(b, pts, n, what, id);
  uint32_t i = 1;
  while (i + 1 < n) {
    TessVec2 piece[TESS_POLY_MAX];
    uint32_t k = 0;
    piece[k++] = pts[0];
    uint32_t j = i;
    while (k < TESS_POLY_MAX && j < n) piece[k++] = pts[j++];
    TessResult r = add_polygon(b, piece, k, what, id);
    if (r != TESS_OK) return r;
    i = j - 1;
  }
  return TESS_OK;
}

static TessResult add_circle(Builder *b, TessVec2 c, float r) {
  if (!GROW(b->s->shapes, &b->shape_cap, b->s->shape_count + 1)) return nomem(b);
  TessSceneShape *sh = &b->s->shapes[b->s->shape_count++];
  memset(sh, 0, sizeof *sh);
  sh->type = TESS_SHAPE_CIRCLE;
  sh->count = 1;
  sh->v[0] = c;
  sh->radius = r;
  return TESS_OK;
}

static TessResult add_capsule(Builder *b, TessVec2 p1, TessVec2 p2, float r) {
  if (!GROW(b->s->shapes, &b->shape_cap, b->s->shape_count + 1)) return nomem(b);
  TessSceneShape *sh = &b->s->shapes[b->s->shape_count++];
  memset(sh, 0, sizeof *sh);
  sh->type = TESS_SHAPE_CAPSULE;
  sh->count = 2;
  sh->v[0] = p1;
  sh->v[1] = p2;
  sh->radius = r;
  return TESS_OK;
}

/* ---- Materials --------------------------------------------------------- */

static uint32_t material_index(const TessScene *s, TessId id) {
  for (uint32_t i = 1; i < s->material_count; i++)
    if (s->materials[i].id == id) return i;
  return 0;
}

static TessResult build_materials(Builder *b) {
  const TessProject *p = b->p;
  TessScene *s = b->s;
  s->materials = tess_calloc((size_t)p->material_count + 1, sizeof(TessSceneMaterial));
  if (!s->materials) return nomem(b);
  s->material_count = p->material_count + 1;
  tess_scene_material_default(&s->materials[0]);
  for (uint32_t i = 0; i < p->material_count; i++) {
    const TessMaterial *m = &p->materials[i];
    TessError e;
    if (tess_material_validate(m, &e) != TESS_OK)
      return tess_error_set(b->err, TESS_ERR_INVALID, b->level->settings.name, "material %u: %s", m->id, e.detail);
    TessSceneMaterial *sm = &s->materials[i + 1];
    sm->id = m->id;
    sm->friction = m->friction;
    sm->restitution = m->restitution;
    sm->tangential = m->tangential;
    sm->density = m->density;
    sm->kind = (uint8_t)m->kind;
  }
  return TESS_OK;
}

/* ---- Cells ------------------------------------------------------------- */

/* Traced pieces per distinct cell value (tile and flips), in metres. */
typedef struct TracedEntry {
  TessCell cell;
  uint32_t first, count; /* range in TracedMemo.pieces */
  bool used;
} TracedEntry;

typedef struct TracedMemo {
  TracedEntry *slots;
  uint32_t slot_cap, entry_count;
  TessPolygon *pieces;
  uint32_t piece_count, piece_cap;
} TracedMemo;

static void traced_memo_free(TracedMemo *m) {
  tess_free(m->slots);
  tess_free(m->pieces);
}

static uint32_t cell_slot(TessCell cell, uint32_t cap) { return (uint32_t)((cell * 2654435761u) >> 7) & (cap - 1); }

/* The pieces of a traced tile placed where the cell draws it
 * (tess_tile_place: its own size from the cell's bottom-left, with its
 * flips, or scaled into the cell for a fit_cell tileset): tileset pixels ->
 * level pixels from the cell's top-left -> metres; slivers too thin to
 * collide are left out. A full tile off the grid is its own rectangle.
 * NULL when out of memory. */
static const TracedEntry *traced_pieces(Builder *b, TracedMemo *m, TessCell cell, const TessTileInfo *tile,
                                        float inv_ppm) {
  if (m->slot_cap) {
    for (uint32_t k = cell_slot(cell, m->slot_cap);; k = (k + 1) & (m->slot_cap - 1)) {
      if (!m->slots[k].used) break;
      if (m->slots[k].cell == cell) return &m->slots[k];
    }
  }
  if ((m->entry_count + 1) * 2 > m->slot_cap) {
    uint32_t cap = m->slot_cap ? m->slot_cap * 2 : 64;
    TracedEntry *slots = tess_calloc(cap, sizeof *slots);
    if (!slots) return NULL;
    for (uint32_t k = 0; k < m->slot_cap; k++) {
      if (!m->slots[k].used) continue;
      uint32_t j = cell_slot(m->slots[k].cell, cap);
      while (slots[j].used) j = (j + 1) & (cap - 1);
      slots[j] = m->slots[k];
    }
    tess_free(m->slots);
    m->slots = slots;
    m->slot_cap = cap;
  }
  uint32_t k = cell_slot(cell, m->slot_cap);
  while (m->slots[k].used) k = (k + 1) & (m->slot_cap - 1);
  TracedEntry *e = &m->slots[k];
  e->cell = cell;
  e->first = m->piece_count;
  e->count = 0;
  e->used = true;
  m->entry_count++;
  const TessLevelSettings *ls = &b->level->settings;
  const TessTileset *ts = tess_project_tileset(b->p, TESS_CELL_TILESET(cell));
  if (!ts) return e;
  TessTilePlace pl;
  tess_tile_place(ts, cell, ls->tile_w, ls->tile_h, &pl);
  TessPolygon rect;
  const TessPolygon *pieces = tile->pieces;
  uint32_t piece_count = tile->piece_count;
  if (tile->collision == TESS_TILE_COLLISION_FULL) {
    memset(&rect, 0, sizeof rect);
    rect.count = 4;
    rect.v[1].x = rect.v[2].x = (float)ts->tile_w;
    rect.v[2].y = rect.v[3].y = (float)ts->tile_h;
    pieces = &rect;
    piece_count = 1;
  }
  for (uint32_t p = 0; p < piece_count; p++) {
    const TessPolygon *src = &pieces[p];
    if (src->count > TESS_POLY_MAX) continue;
    TessPolygon dst;
    memset(&dst, 0, sizeof dst);
    for (uint32_t j = 0; j < src->count; j++) {
      TessVec2 q = tess_tile_place_point(&pl, cell, ts, src->v[j]);
      dst.v[j] = tess_v2(q.x * inv_ppm, q.y * inv_ppm);
    }
    dst.count = tess_polygon_clean(dst.v, src->count, 1e-5f);
    if (tess_polygon_check(dst.v, dst.count, NULL) != TESS_OK) continue; /* a sliver too thin to collide */
    tess_polygon_orient(dst.v, dst.count);                               /* a flip of odd parity turns a piece over */
    if (!GROW(m->pieces, &m->piece_cap, m->piece_count + 1)) return NULL;
    m->pieces[m->piece_count++] = dst;
    e->count++;
  }
  return e;
}

/* True when the cell collides through pieces: a traced tile with pieces,
 * or a full tile drawn off the grid (tess_tile_place), which collides as
 * the rectangle it is drawn in rather than as the cell. */
static bool has_pieces(const Builder *b, const TessCellCollision *cc) {
  if (!cc->tile) return false;
  if (cc->kind == TESS_TILE_COLLISION_TRACED) return cc->tile->piece_count > 0;
  if (cc->kind != TESS_TILE_COLLISION_FULL || cc->tile->collision != TESS_TILE_COLLISION_FULL) return false;
  const TessTileset *ts = tess_project_tileset(b->p, TESS_CELL_TILESET(cc->cell));
  return ts && !tess_tile_on_cell(ts, cc->cell, b->level->settings.tile_w, b->level->settings.tile_h);
}

static TessResult build_cells(Builder *b) {
  TessScene *s = b->s;
  const TessLevelSettings *ls = &b->level->settings;
  size_t n = (size_t)ls->width * ls->height;
  s->cell_kind = tess_calloc(n, 1);
  s->cell_one_way = tess_calloc(n, 1);
  s->cell_material = tess_calloc(n, sizeof(uint16_t));
  if (!s->cell_kind || !s->cell_one_way || !s->cell_material) return nomem(b);
  /* The collision rule runs once per cell, a row at a time. piece_start exists when some
   * cell's tile is traced with pieces (even if every piece turns out too
   * thin): it is made at the first such cell, the cells before it starting
   * at piece 0. */
  bool traced = false;
  float inv_ppm = 1.0f / ls->ppm;
  TessId last_material = 0;
  uint16_t last_index = 0;
  TracedMemo memo;
  memset(&memo, 0, sizeof memo);
  TessCellCollision *row = tess_alloc((size_t)ls->width * sizeof *row);
  if (!row) return nomem(b);
  for (uint32_t y = 0; y < ls->height; y++) {
    tess_level_collision_row(b->p, b->level, 0, y, ls->width, row);
    for (uint32_t x = 0; x < ls->width; x++) {
      size_t i = (size_t)y * ls->width + x;
      const TessCellCollision cc = row[x];
      const bool pieces = has_pieces(b, &cc);
      if (!traced && pieces) {
        s->piece_start = tess_calloc(n + 1, sizeof(uint32_t));
        if (!s->piece_start) {
          tess_free(row);
          return nomem(b);
        }
        traced = true;
      }
      if (traced) s->piece_start[i] = s->piece_count;
      if (cc.material != last_material || i == 0) {
        last_material = cc.material;
        last_index = (uint16_t)material_index(s, cc.material);
      }
      s->cell_material[i] = last_index;
      s->cell_one_way[i] = cc.one_way ? 1 : 0;
      uint8_t kind = TESS_MAP_EMPTY;
      if (cc.kind == TESS_TILE_COLLISION_FULL) kind = TESS_MAP_FULL;
      if (pieces) {
        kind = TESS_MAP_EMPTY; /* a full tile off the grid whose rectangle is too thin collides as nothing */
        /* A cell's pieces depend only on its tile and flips: made once per
         * distinct cell value, then copied. */
        const TracedEntry *e = traced_pieces(b, &memo, cc.cell, cc.tile, inv_ppm);
        if (!e) {
          traced_memo_free(&memo);
          tess_free(row);
          return nomem(b);
        }
        if (e->count) {
          if (!GROW(s->pieces, &b->piece_cap, s->piece_count + e->count)) {
            traced_memo_free(&memo);
            tess_free(row);
            return nomem(b);
          }
          memcpy(&s->pieces[s->piece_count], &memo.pieces[e->first], e->count * sizeof *s->pieces);
          s->piece_count += e->count;
          kind = TESS_MAP_TRACED;
        }
      }
      s->cell_kind[i] = kind;
    }
  }
  if (traced) s->piece_start[n] = s->piece_count;
  traced_memo_free(&memo);
  tess_free(row);
  return TESS_OK;
}

/* ---- Bodies ------------------------------------------------------------ */

static TessResult build_body(Builder *b, const TessObject *o) {
  const TessBodyObject *bo = &o->u.body;
  const TessLevelSettings *ls = &b->level->settings;
  float inv_ppm = 1.0f / ls->ppm;
  TessScene *s = b->s;
  if (!GROW(s->bodies, &b->body_cap, s->body_count + 1)) return nomem(b);
  TessSceneBody body;
  memset(&body, 0, sizeof body);
  body.object = o->id;
  body.type = bo->type;
  body.sensor = bo->sensor ? 1 : 0;
  body.pin = bo->pin;
  body.position = tess_v2(o->pos.x * inv_ppm, o->pos.y * inv_ppm);
  body.angle = o->angle;
  TessId mat = bo->material;
  if (mat == 0 && b->p->material_count > 0) mat = b->p->materials[0].id;
  body.material = material_index(s, mat);
  body.category = bo->category;
  body.mask = bo->mask;
  body.integrator = bo->integrator;
  body.first_shape = s->shape_count;
  TessResult r = TESS_OK;
  switch (bo->shape) {
    case TESS_BODY_CIRCLE:
      r = add_circle(b, tess_v2(0, 0), bo->radius * inv_ppm);
      break;
    case TESS_BODY_BOX: {
      float hx = 0.5f * bo->width * inv_ppm, hy = 0.5f * bo->height * inv_ppm;
      TessVec2 pts[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
      r = add_polygon(b, pts, 4, "box", o->id);
      break;
    }
    case TESS_BODY_CAPSULE: {
      float rad = 0.5f * bo->height * inv_ppm, half = 0.5f * bo->width * inv_ppm - rad;
      if (half <= 1e-4f)
        r = add_circle(b, tess_v2(0, 0), rad);
      else
        r = add_capsule(b, tess_v2(-half, 0), tess_v2(half, 0), rad);
      break;
    }
    case TESS_BODY_SPRITE: {
      const TessSprite *sp = tess_project_sprite(b->p, bo->sprite);
      if (!sp)
        return tess_error_set(b->err, TESS_ERR_NOT_FOUND, ls->name, "body %u: sprite %u does not exist", o->id, bo->sprite);
      const TessSpriteMask *m = &sp->mask;
      TessVec2 anchor = sp->anchor;
      if (bo->collide_pixels && bo->type == TESS_BODY_STATIC) { /* its pixels, not its shapes */
        r = level_scene_body_pixel_mask(b->level, o, sp, s->body_count, body.material, s, b->err);
      } else if (m->mode == TESS_MASK_CIRCLE && m->circle_radius > 0.0f) {
        r = add_circle(b, tess_v2((m->circle_center.x - anchor.x) * inv_ppm, (m->circle_center.y - anchor.y) * inv_ppm),
                       m->circle_radius * inv_ppm);
      } else if (m->piece_count > 0) {
        for (uint32_t k = 0; k < m->piece_count && r == TESS_OK; k++) {
          const TessPolygon *pc = &m->pieces[k];
          TessVec2 pts[TESS_POLY_MAX];
          uint32_t n = pc->count > TESS_POLY_MAX ? TESS_POLY_MAX : pc->count;
          for (uint32_t j = 0; j < n; j++) pts[j] = tess_v2((pc->v[j].x - anchor.x) * inv_ppm, (pc->v[j].y - anchor.y) * inv_ppm);
          r = add_polygon(b, pts, n, "sprite body", o->id);
        }
      } else if (m->hull_count >= 3) {
        TessVec2 *pts = tess_alloc((size_t)m->hull_count * sizeof *pts);
        if (!pts) return nomem(b);
        for (uint32_t j = 0; j < m->hull_count; j++) pts[j] = tess_v2((m->hull[j].x - anchor.x) * inv_ppm, (m->hull[j].y - anchor.y) * inv_ppm);
        uint32_t n = tess_polygon_clean(pts, m->hull_count, 1e-5f);
        r = add_convex(b, pts, n, "sprite body", o->id);
        tess_free(pts);
      } else {
        return tess_error_set(b->err, TESS_ERR_INVALID, ls->name, "body %u: sprite %u has no collision mask", o->id, sp->id);
      }
      if (r == TESS_OK && m->area > 0.0 && bo->type == TESS_BODY_DYNAMIC) {
        /* the masks' pixel-exact mass properties, in kilograms and metres */
        double density = s->materials[body.material].density;
        double ppm = ls->ppm;
        body.has_mass = 1;
        body.mass = (float)(density * m->area / (ppm * ppm));
        body.local_center = tess_v2((float)((m->centroid_x - anchor.x) / ppm), (float)((m->centroid_y - anchor.y) / ppm));
        body.inertia = (float)(density * m->inertia / (ppm * ppm * ppm * ppm));
        if (!(body.mass > 0.0f) || !(body.inertia > 0.0f)) body.has_mass = 0;
      }
      break;
    }
    default:
      return tess_error_set(b->err, TESS_ERR_INVALID, ls->name, "body %u: unknown shape %u", o->id, bo->shape);
  }
  if (r != TESS_OK) return r;
  body.shape_count = s->shape_count - body.first_shape;
  s->bodies[s->body_count++] = body;
  return TESS_OK;
}

static int32_t body_index(const TessScene *s, TessId object) {
  if (object == 0) return -1;
  for (uint32_t i = 0; i < s->body_count; i++)
    if (s->bodies[i].object == object) return (int32_t)i;
  return -2;
}

static TessResult build_joint(Builder *b, const TessObject *o) {
  const TessJointObject *jo = &o->u.joint;
  float inv_ppm = 1.0f / b->level->settings.ppm;
  TessScene *s = b->s;
  int32_t a = body_index(s, jo->body_a), c = body_index(s, jo->body_b);
  if (a == -2 || c == -2)
    return tess_error_set(b->err, TESS_ERR_NOT_FOUND, b->level->settings.name, "joint %u: a body it names does not exist",
                          o->id);
  if (a == c) return tess_error_set(b->err, TESS_ERR_INVALID, b->level->settings.name, "joint %u joins a body to itself", o->id);
  if (!GROW(s->joints, &b->joint_cap, s->joint_count + 1)) return nomem(b);
  TessSceneJoint *j = &s->joints[s->joint_count++];
  memset(j, 0, sizeof *j);
  j->object = o->id;
  j->kind = jo->kind;
  j->limit_enabled = jo->limit_enabled ? 1 : 0;
  j->body_a = a;
  j->body_b = c;
  j->anchor_a = tess_v2(o->pos.x * inv_ppm, o->pos.y * inv_ppm);
  j->anchor_b = tess_v2(jo->anchor_b.x * inv_ppm, jo->anchor_b.y * inv_ppm);
  j->length = jo->length * inv_ppm;
  j->lower = jo->lower;
  j->upper = jo->upper;
  /* Only a pin has a motor; a distance joint's stays off whatever the object holds. */
  if (jo->kind == TESS_JOINT_PIN) {
    j->motor_enabled = jo->motor_enabled ? 1 : 0;
    j->motor_speed = jo->motor_speed;
    j->motor_torque = jo->motor_torque;
  }
  return TESS_OK;
}

static TessResult build_zone(Builder *b, const TessObject *o) {
  const TessZoneObject *zo = &o->u.zone;
  float inv_ppm = 1.0f / b->level->settings.ppm;
  TessScene *s = b->s;
  if (!GROW(s->zones, &b->zone_cap, s->zone_count + 1)) return nomem(b);
  TessSceneZone *z = &s->zones[s->zone_count++];
  memset(z, 0, sizeof *z);
  z->object = o->id;
  z->kind = zo->kind;
  z->center = tess_v2(o->pos.x * inv_ppm, o->pos.y * inv_ppm);
  z->width = zo->width * inv_ppm;
  z->height = zo->height * inv_ppm;
  z->angle = o->angle;
  z->vector = zo->vector;
  z->strength = zo->strength;
  z->radius = zo->radius * inv_ppm;
  return TESS_OK;
}

static TessResult build_spawn(Builder *b, const TessObject *o) {
  float inv_ppm = 1.0f / b->level->settings.ppm;
  TessScene *s = b->s;
  if (!GROW(s->spawns, &b->spawn_cap, s->spawn_count + 1)) return nomem(b);
  TessSceneSpawn *sp = &s->spawns[s->spawn_count++];
  memset(sp, 0, sizeof *sp);
  sp->object = o->id;
  memcpy(sp->name, o->name, TESS_NAME_MAX);
  sp->name[TESS_NAME_MAX - 1] = '\0';
  sp->position = tess_v2(o->pos.x * inv_ppm, o->pos.y * inv_ppm);
  return TESS_OK;
}

static TessResult build_launcher(Builder *b, const TessObject *o) {
  float inv_ppm = 1.0f / b->level->settings.ppm;
  TessScene *s = b->s;
  const TessLauncherObject *lo = &o->u.launcher;
  if (!GROW(s->launchers, &b->launcher_cap, s->launcher_count + 1)) return nomem(b);
  TessSceneLauncher *l = &s->launchers[s->launcher_count++];
  memset(l, 0, sizeof *l);
  l->object = o->id;
  memcpy(l->name, o->name, TESS_NAME_MAX);
  l->name[TESS_NAME_MAX - 1] = '\0';
  l->position = tess_v2(o->pos.x * inv_ppm, o->pos.y * inv_ppm);
  l->speed = lo->speed;
  l->radius = lo->radius * inv_ppm;
  /* the body rule: no material means the project's first */
  TessId mat = lo->material ? lo->material : (b->p->material_count ? b->p->materials[0].id : 0);
  l->material = material_index(s, mat);
  /* a sprite that is gone fires balls (check.c warns) */
  l->sprite = lo->sprite && tess_project_sprite(b->p, lo->sprite) ? lo->sprite : 0;
  return TESS_OK;
}

/* Objects of one kind, in layer order then object order. */
static TessResult build_objects(Builder *b, TessObjectKind kind) {
  const TessLevel *lv = b->level;
  for (uint32_t l = 0; l < lv->layer_count; l++) {
    const TessLayer *layer = lv->layers[l];
    if (layer->props.kind != TESS_LAYER_OBJECTS) continue;
    for (uint32_t i = 0; i < layer->object_count; i++) {
      const TessObject *o = &layer->objects[i];
      if (o->kind != kind) continue;
      TessError e;
      if (tess_object_validate(o, &e) != TESS_OK)
        return tess_error_set(b->err, TESS_ERR_INVALID, lv->settings.name, "object %u: %s", o->id, e.detail);
      TessResult r = TESS_OK;
      switch (kind) {
        case TESS_OBJECT_BODY: r = build_body(b, o); break;
        case TESS_OBJECT_JOINT: r = build_joint(b, o); break;
        case TESS_OBJECT_ZONE: r = build_zone(b, o); break;
        case TESS_OBJECT_SPAWN: r = build_spawn(b, o); break;
        case TESS_OBJECT_LAUNCHER: r = build_launcher(b, o); break;
      }
      if (r != TESS_OK) return r;
    }
  }
  return TESS_OK;
}

TessResult tess_scene_from_level(const TessProject *p, const TessLevel *level, TessScene **out, TessError *err) {
  if (!p || !level) return tess_error_set(err, TESS_ERR_INVALID, "scene", "no project or level");
  TessError e;
  if (tess_level_settings_validate(&level->settings, &e) != TESS_OK)
    return tess_error_set(err, TESS_ERR_INVALID, level->settings.name, "settings: %s", e.detail);
  const TessLevelSettings *ls = &level->settings;
  if (!(ls->ppm > 0.0f) || !isfinite(ls->ppm) || ls->width == 0 || ls->height == 0 || ls->tile_w == 0 || ls->tile_h == 0)
    return tess_error_set(err, TESS_ERR_INVALID, ls->name, "level size or pixels per metre out of range");
  TessScene *s = tess_scene_create();
  if (!s) return tess_error_set(err, TESS_ERR_NOMEM, ls->name, "out of memory");
  Builder b;
  memset(&b, 0, sizeof b);
  b.s = s;
  b.p = p;
  b.level = level;
  b.err = err;
  s->width = ls->width;
  s->height = ls->height;
  s->ppm = ls->ppm;
  s->cell_w = (float)ls->tile_w / ls->ppm;
  s->cell_h = (float)ls->tile_h / ls->ppm;
  s->view = ls->view;
  s->gravity = ls->view == TESS_VIEW_TOP_DOWN ? tess_v2(0.0f, 0.0f) : ls->gravity;
  s->floor_drag = ls->view == TESS_VIEW_TOP_DOWN ? ls->floor_drag : 0.0f;
  s->physics_hz = ls->physics_hz;
  s->substeps = ls->substeps;
  TessResult r = build_materials(&b);
  if (r == TESS_OK) r = build_cells(&b);
  if (r == TESS_OK) r = level_scene_pixel_masks(p, level, s, err);
  if (r == TESS_OK) r = build_objects(&b, TESS_OBJECT_BODY);
  if (r == TESS_OK) r = build_objects(&b, TESS_OBJECT_JOINT);
  if (r == TESS_OK) r = build_objects(&b, TESS_OBJECT_ZONE);
  if (r == TESS_OK) r = build_objects(&b, TESS_OBJECT_SPAWN);
  if (r == TESS_OK) r = build_objects(&b, TESS_OBJECT_LAUNCHER);
  if (r == TESS_OK) r = tess_scene_resolve_pins(s, err);
  if (r != TESS_OK) {
    tess_scene_destroy(s);
    return r;
  }
  *out = s;
  return TESS_OK;
}
