/* tess_scene_from_pack: a TessScene from a loaded .tlv, equal field for
 * field to tess_scene_from_level() of the level it was written from (the
 * writer stores the scene's own numbers; nothing is recomputed here except
 * what the scene derives from settings by rule). */
#include <string.h>

#include "tessera/runtime.h"

static TessResult nomem(TessScene *s, TessError *err) {
  tess_scene_destroy(s);
  return tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
}

static void copy_polygon(const TlvLevel *lv, uint32_t index, TessVec2 *v, uint32_t *count) {
  TlvPolygon poly;
  *count = 0;
  if (!tlv_polygon(lv, index, &poly)) return;
  for (uint32_t k = 0; k < poly.vertex_count && k < TESS_POLY_MAX; k++) {
    TlvVec2 p;
    tlv_vertex(lv, poly.vertex_first + k, &p);
    v[k] = tess_v2(p.x, p.y);
  }
  *count = poly.vertex_count < TESS_POLY_MAX ? poly.vertex_count : TESS_POLY_MAX;
}

static TessResult build_cells(const TlvLevel *lv, TessScene *s, TessError *err) {
  size_t n = (size_t)s->width * s->height;
  s->cell_kind = tess_calloc(n, 1);
  s->cell_one_way = tess_calloc(n, 1);
  s->cell_material = tess_calloc(n, sizeof(uint16_t));
  if (!s->cell_kind || !s->cell_one_way || !s->cell_material) return TESS_ERR_NOMEM;
  /* Per palette entry, once: its pieces. */
  uint32_t entries = lv->collision_palette.count;
  TlvCollisionEntry *pal = tess_calloc(entries ? entries : 1, sizeof *pal);
  if (!pal) return TESS_ERR_NOMEM;
  bool traced = false;
  for (uint32_t e = 0; e < entries; e++) {
    tlv_collision_entry(lv, e, &pal[e]);
    if (pal[e].material > 0xFFFFu) {
      tess_free(pal);
      return tess_error_set(err, TESS_ERR_LIMIT, "scene", "material index %u beyond 65535", pal[e].material);
    }
  }
  for (uint32_t y = 0; y < s->height && !traced; y++)
    for (uint32_t x = 0; x < s->width && !traced; x++) {
      TlvCollisionEntry c;
      traced = tlv_collision_cell(lv, x, y, &c) && c.polygon_count > 0;
    }
  uint32_t cap = 0;
  if (traced) {
    s->piece_start = tess_calloc(n + 1, sizeof(uint32_t));
    if (!s->piece_start) {
      tess_free(pal);
      return TESS_ERR_NOMEM;
    }
  }
  for (uint32_t y = 0; y < s->height; y++) {
    for (uint32_t x = 0; x < s->width; x++) {
      size_t i = (size_t)y * s->width + x;
      TlvCollisionEntry c;
      if (!tlv_collision_cell(lv, x, y, &c)) memset(&c, 0, sizeof c);
      if (c.material > 0xFFFFu) { /* a material layer's override (the entries were checked above) */
        tess_free(pal);
        return tess_error_set(err, TESS_ERR_LIMIT, "scene", "material index %u beyond 65535", c.material);
      }
      s->cell_kind[i] = c.kind;
      s->cell_one_way[i] = c.one_way;
      s->cell_material[i] = (uint16_t)c.material;
      if (!traced) continue;
      s->piece_start[i] = s->piece_count;
      for (uint32_t k = 0; k < c.polygon_count; k++) {
        if (s->piece_count == cap) {
          uint32_t grown = cap ? cap * 2 : 64;
          TessPolygon *p = tess_realloc(s->pieces, (size_t)grown * sizeof *p);
          if (!p) {
            tess_free(pal);
            return TESS_ERR_NOMEM;
          }
          s->pieces = p;
          cap = grown;
        }
        TessPolygon *dst = &s->pieces[s->piece_count++];
        memset(dst, 0, sizeof *dst);
        copy_polygon(lv, c.polygon_first + k, dst->v, &dst->count);
      }
    }
  }
  if (traced) s->piece_start[n] = s->piece_count;
  tess_free(pal);
  return TESS_OK;
}

TessResult tess_scene_from_pack(const struct TlvLevel *lv, struct TessScene **out, TessError *err) {
  if (!lv || !out) return tess_error_set(err, TESS_ERR_INVALID, "scene", "no level or no output");
  const TlvSettings *st = &lv->settings;
  TessScene *s = tess_scene_create();
  if (!s) return tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
  s->width = st->width;
  s->height = st->height;
  s->cell_w = st->cell_w;
  s->cell_h = st->cell_h;
  s->ppm = st->ppm;
  s->view = (uint8_t)st->view;
  /* The scene's rule: side view keeps gravity and has no floor drag; top-down the reverse. */
  s->gravity = st->view == TESS_VIEW_TOP_DOWN ? tess_v2(0.0f, 0.0f) : tess_v2(st->gravity_x, st->gravity_y);
  s->floor_drag = st->view == TESS_VIEW_TOP_DOWN ? st->floor_drag : 0.0f;
  s->physics_hz = st->physics_hz;
  s->substeps = st->substeps;

  /* Materials: index 0 is the scene's "no material" default, then the file's. */
  s->material_count = lv->materials.count + 1;
  s->materials = tess_calloc(s->material_count, sizeof *s->materials);
  if (!s->materials) return nomem(s, err);
  tess_scene_material_default(&s->materials[0]);
  for (uint32_t i = 0; i < lv->materials.count; i++) {
    TlvMaterial m;
    tlv_material(lv, i, &m);
    TessSceneMaterial *sm = &s->materials[i + 1];
    sm->id = m.id;
    sm->friction = m.friction;
    sm->restitution = m.restitution;
    sm->tangential = m.tangential;
    sm->density = m.density;
    sm->kind = (uint8_t)m.kind;
  }

  TessResult r = build_cells(lv, s, err);
  if (r == TESS_ERR_NOMEM) return nomem(s, err);
  if (r != TESS_OK) {
    tess_scene_destroy(s);
    return r;
  }

  s->shape_count = lv->shapes.count;
  s->body_count = lv->bodies.count;
  s->joint_count = lv->joints.count;
  s->zone_count = lv->zones.count;
  s->spawn_count = lv->spawns.count;
  s->launcher_count = lv->launchers.count;
  if (s->shape_count && !(s->shapes = tess_calloc(s->shape_count, sizeof *s->shapes))) return nomem(s, err);
  if (s->body_count && !(s->bodies = tess_calloc(s->body_count, sizeof *s->bodies))) return nomem(s, err);
  if (s->joint_count && !(s->joints = tess_calloc(s->joint_count, sizeof *s->joints))) return nomem(s, err);
  if (s->zone_count && !(s->zones = tess_calloc(s->zone_count, sizeof *s->zones))) return nomem(s, err);
  if (s->spawn_count && !(s->spawns = tess_calloc(s->spawn_count, sizeof *s->spawns))) return nomem(s, err);
  if (s->launcher_count && !(s->launchers = tess_calloc(s->launcher_count, sizeof *s->launchers))) return nomem(s, err);

  for (uint32_t i = 0; i < s->shape_count; i++) {
    TlvShape t;
    tlv_shape(lv, i, &t);
    TessSceneShape *sh = &s->shapes[i];
    sh->type = (uint8_t)t.kind;
    sh->radius = t.radius;
    if (t.kind == TLV_SHAPE_POLYGON) {
      uint32_t count;
      copy_polygon(lv, t.polygon, sh->v, &count);
      sh->count = (uint8_t)count;
    } else {
      sh->v[0] = tess_v2(t.ax, t.ay);
      sh->count = 1;
      if (t.kind == TLV_SHAPE_CAPSULE) {
        sh->v[1] = tess_v2(t.bx, t.by);
        sh->count = 2;
      }
    }
  }
  for (uint32_t i = 0; i < s->body_count; i++) {
    TlvBody b;
    tlv_body(lv, i, &b);
    TessSceneBody *sb = &s->bodies[i];
    sb->object = b.object_id;
    sb->type = b.type;
    sb->sensor = b.sensor;
    sb->pin = b.pin;
    sb->has_mass = b.has_mass;
    sb->integrator = b.integrator;
    sb->position = tess_v2(b.x, b.y);
    sb->angle = b.angle;
    sb->material = b.material;
    sb->category = b.category;
    sb->mask = b.mask;
    sb->first_shape = b.shape_first;
    sb->shape_count = b.shape_count;
    if (b.has_mass) {
      sb->mass = b.mass;
      sb->local_center = tess_v2(b.centroid_x, b.centroid_y);
      sb->inertia = b.inertia;
    }
  }
  for (uint32_t i = 0; i < s->joint_count; i++) {
    TlvJoint j;
    tlv_joint(lv, i, &j);
    TessSceneJoint *sj = &s->joints[i];
    sj->object = j.object_id;
    sj->kind = (uint8_t)j.kind;
    sj->limit_enabled = (j.flags & TLV_JOINT_LIMIT) ? 1 : 0;
    sj->from_overlap = (j.flags & TLV_JOINT_AUTO_PIN) ? 1 : 0;
    sj->motor_enabled = (j.flags & TLV_JOINT_MOTOR) ? 1 : 0;
    sj->motor_speed = j.motor_speed;
    sj->motor_torque = j.motor_torque;
    sj->body_a = (int32_t)j.body_a - 1;
    sj->body_b = (int32_t)j.body_b - 1;
    sj->anchor_a = tess_v2(j.ax, j.ay);
    sj->anchor_b = tess_v2(j.bx, j.by);
    sj->length = j.length;
    sj->lower = j.lower;
    sj->upper = j.upper;
  }
  for (uint32_t i = 0; i < s->zone_count; i++) {
    TlvZone z;
    tlv_zone(lv, i, &z);
    TessSceneZone *sz = &s->zones[i];
    sz->object = z.object_id;
    sz->kind = (uint8_t)z.kind;
    sz->center = tess_v2(z.x, z.y);
    sz->width = z.width;
    sz->height = z.height;
    sz->angle = z.angle;
    sz->vector = tess_v2(z.vx, z.vy);
    sz->strength = z.strength;
    sz->radius = z.radius;
  }
  for (uint32_t i = 0; i < s->spawn_count; i++) {
    TlvSpawn sp;
    tlv_spawn(lv, i, &sp);
    TessSceneSpawn *ss = &s->spawns[i];
    ss->object = sp.object_id;
    strncpy(ss->name, tlv_string(lv, sp.name), TESS_NAME_MAX - 1);
    ss->name[TESS_NAME_MAX - 1] = '\0';
    ss->position = tess_v2(sp.x, sp.y);
  }
  for (uint32_t i = 0; i < s->launcher_count; i++) {
    TlvLauncher tl;
    tlv_launcher(lv, i, &tl);
    TessSceneLauncher *sl = &s->launchers[i];
    sl->object = tl.object_id;
    strncpy(sl->name, tlv_string(lv, tl.name), TESS_NAME_MAX - 1);
    sl->name[TESS_NAME_MAX - 1] = '\0';
    sl->position = tess_v2(tl.x, tl.y);
    sl->speed = tl.speed;
    sl->radius = tl.radius;
    sl->material = tl.material;
    sl->sprite = tl.sprite;
  }
  /* pixel masks (3.5): the reader checked every record and the bits' extent */
  if (lv->pixel_masks.count) {
    s->pixel_masks = tess_calloc(lv->pixel_masks.count, sizeof *s->pixel_masks);
    s->pixel_bits = tess_alloc((size_t)lv->pixel_bits.size);
    if (!s->pixel_masks || !s->pixel_bits) return nomem(s, err);
    memcpy(s->pixel_bits, lv->pixel_bits.data, (size_t)lv->pixel_bits.size);
    s->pixel_bits_size = lv->pixel_bits.size;
    s->pixel_mask_count = lv->pixel_masks.count;
    for (uint32_t i = 0; i < s->pixel_mask_count; i++) {
      TlvPixelMask pm;
      tlv_pixel_mask(lv, i, &pm);
      TessScenePixelMask *m = &s->pixel_masks[i];
      m->layer = pm.layer_id;
      m->body = pm.body; /* 3.9: a static body's, in its frame */
      m->width = pm.width;
      m->height = pm.height;
      m->pixel_size = pm.pixel_size;
      m->origin = tess_v2(pm.origin_x, pm.origin_y);
      m->material = pm.material;
      m->bits_offset = (uint64_t)(pm.bits - lv->pixel_bits.data);
    }
  }
  *out = s;
  return TESS_OK;
}
