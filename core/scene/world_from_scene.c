/* The world from a scene: the one path by which both the editor's preview
 * and a game build their worlds. Reads the plain TessScene struct and calls
 * physics' public API only; it lives with scene (scene -> physics, never
 * the other way). */
#include <string.h>

#include "tessera/physics.h"
#include "scene_private.h"
#include "tessera/scene.h"

TessResult tess_world_create_from_scene(const TessScene *s, const TessWorldDef *base, TessWorld **out,
                                        TessBodyId *body_ids, TessError *err) {
  if (!s) return tess_error_set(err, TESS_ERR_INVALID, "scene", "no scene");
  TessWorldDef def;
  if (base)
    def = *base;
  else
    tess_world_def_default(&def);
  def.gravity = s->gravity;
  if (s->substeps >= 1 && s->substeps <= 64) def.substeps = s->substeps;
  def.floor_drag = s->floor_drag;
  TessWorld *w = NULL;
  TessResult r = tess_world_create(&def, &w, err);
  if (r != TESS_OK) return r;
  if (s->material_count == 0 || !s->materials) {
    tess_world_destroy(w);
    return tess_error_set(err, TESS_ERR_INVALID, "scene", "a scene needs its default material");
  }
  if (s->width > 0 && s->height > 0) {
    TessMapMaterial *mats = tess_calloc(s->material_count, sizeof *mats);
    if (!mats) {
      tess_world_destroy(w);
      return tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
    }
    for (uint32_t i = 0; i < s->material_count; i++) {
      mats[i].friction = s->materials[i].friction;
      mats[i].restitution = s->materials[i].restitution;
      mats[i].tangential = s->materials[i].tangential;
      mats[i].density = s->materials[i].density;
      mats[i].kind = s->materials[i].kind == TESS_MATERIAL_FLUID   ? TESS_MAP_MATERIAL_FLUID
                     : s->materials[i].kind == TESS_MATERIAL_FLOOR ? TESS_MAP_MATERIAL_FLOOR
                                                                   : TESS_MAP_MATERIAL_SOLID;
    }
    TessTileMapDef md;
    memset(&md, 0, sizeof md);
    md.width = s->width;
    md.height = s->height;
    md.cell_w = s->cell_w;
    md.cell_h = s->cell_h;
    md.kinds = s->cell_kind;
    md.one_way = s->cell_one_way;
    md.materials = s->cell_material;
    md.material_count = s->material_count;
    md.material_list = mats;
    md.piece_start = s->piece_start;
    md.pieces = s->pieces;
    r = tess_world_set_tile_map(w, &md, err);
    tess_free(mats);
    if (r != TESS_OK) {
      tess_world_destroy(w);
      return r;
    }
  }
  TessBodyId *ids = tess_calloc(s->body_count ? s->body_count : 1, sizeof *ids);
  uint16_t *groups = tess_calloc(s->body_count ? s->body_count : 1, sizeof *groups);
  if (ids && groups) r = scene_assembly_groups(s, groups, err);
  if (!ids || !groups || r != TESS_OK) {
    tess_free(ids);
    tess_free(groups);
    tess_world_destroy(w);
    if (r != TESS_OK) return r;
    return tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
  }
  for (uint32_t i = 0; i < s->body_count && r == TESS_OK; i++) {
    const TessSceneBody *b = &s->bodies[i];
    if (b->material >= s->material_count || (uint64_t)b->first_shape + b->shape_count > s->shape_count) {
      r = tess_error_set(err, TESS_ERR_INVALID, "scene", "body %u: material or shape range out of bounds", i);
      break;
    }
    TessBodyDef bd;
    tess_body_def_default(&bd);
    bd.type = (TessBodyType)b->type;
    bd.position = b->position;
    bd.angle = b->angle;
    bd.user_data = b->object;
    bd.integrator = b->integrator == TESS_INTEGRATOR_RK4 ? TESS_INTEGRATOR_RK4 : TESS_INTEGRATOR_EULER;
    r = tess_body_create(w, &bd, &ids[i], err);
    if (r != TESS_OK) break;
    const TessSceneMaterial *m = &s->materials[b->material];
    TessShapeDef sd;
    tess_shape_def_default(&sd);
    sd.friction = m->friction;
    sd.restitution = m->restitution;
    sd.tangential = m->tangential;
    sd.density = m->density;
    sd.sensor = b->sensor != 0;
    sd.category = b->category;
    sd.mask = b->mask;
    sd.group = groups[i];
    sd.material = m->id;
    sd.user_data = b->object;
    for (uint32_t k = 0; k < b->shape_count && r == TESS_OK; k++) {
      const TessSceneShape *sh = &s->shapes[b->first_shape + k];
      if (sh->type == TESS_SHAPE_CIRCLE)
        r = tess_shape_create_circle(w, ids[i], &sd, sh->v[0], sh->radius, NULL, err);
      else if (sh->type == TESS_SHAPE_CAPSULE)
        r = tess_shape_create_capsule(w, ids[i], &sd, sh->v[0], sh->v[1], sh->radius, NULL, err);
      else
        r = tess_shape_create_polygon(w, ids[i], &sd, sh->v, sh->count, NULL, err);
    }
    if (r == TESS_OK && b->has_mass && b->type == TESS_BODY_DYNAMIC)
      r = tess_body_set_mass_data(w, ids[i], b->mass, b->local_center, b->inertia, err);
  }
  for (uint32_t i = 0; i < s->joint_count && r == TESS_OK; i++) {
    const TessSceneJoint *j = &s->joints[i];
    if (j->body_a >= (int32_t)s->body_count || j->body_b >= (int32_t)s->body_count || j->body_a < -1 || j->body_b < -1) {
      r = tess_error_set(err, TESS_ERR_INVALID, "scene", "joint %u: body index out of bounds", i);
      break;
    }
    TessBodyId none = {0, 0};
    TessBodyId a = j->body_a < 0 ? none : ids[j->body_a], b = j->body_b < 0 ? none : ids[j->body_b];
    if (j->kind == TESS_JOINT_PIN) {
      TessRevoluteJointDef rd;
      tess_revolute_joint_def_default(&rd);
      rd.body_a = a;
      rd.body_b = b;
      rd.anchor = j->anchor_a;
      rd.enable_limit = j->limit_enabled != 0;
      rd.lower = j->lower;
      rd.upper = j->upper;
      rd.enable_motor = j->motor_enabled != 0;
      rd.motor_speed = j->motor_speed;
      rd.max_motor_torque = j->motor_torque;
      r = tess_joint_create_revolute(w, &rd, NULL, err);
    } else {
      TessDistanceJointDef dd;
      tess_distance_joint_def_default(&dd);
      dd.body_a = a;
      dd.body_b = b;
      dd.anchor_a = j->anchor_a;
      dd.anchor_b = j->anchor_b;
      dd.length = j->length;
      r = tess_joint_create_distance(w, &dd, NULL, err);
    }
  }
  for (uint32_t i = 0; i < s->zone_count && r == TESS_OK; i++) {
    const TessSceneZone *z = &s->zones[i];
    TessZoneDef zd;
    tess_zone_def_default(&zd);
    zd.type = z->kind == TESS_ZONE_FORCE          ? TESS_ZONE_TYPE_FORCE
              : z->kind == TESS_ZONE_ACCELERATION ? TESS_ZONE_TYPE_ACCELERATION
              : z->kind == TESS_ZONE_SPRING       ? TESS_ZONE_TYPE_SPRING
                                                  : TESS_ZONE_TYPE_ATTRACTOR;
    zd.rect.lower = tess_v2(z->center.x - 0.5f * z->width, z->center.y - 0.5f * z->height);
    zd.rect.upper = tess_v2(z->center.x + 0.5f * z->width, z->center.y + 0.5f * z->height);
    zd.angle = z->angle;
    zd.vector = z->vector;
    zd.center = z->center;
    zd.strength = z->strength;
    zd.radius = z->radius;
    r = tess_world_add_zone(w, &zd, NULL, err);
  }
  for (uint32_t i = 0; i < s->pixel_mask_count && r == TESS_OK; i++) {
    const TessScenePixelMask *m = &s->pixel_masks[i];
    uint64_t n = tess_scene_pixel_mask_bytes(m);
    if (m->material >= s->material_count || m->bits_offset > s->pixel_bits_size ||
        n > s->pixel_bits_size - m->bits_offset) {
      r = tess_error_set(err, TESS_ERR_INVALID, "scene", "pixel mask %u: material or bits out of bounds", i);
      break;
    }
    const TessSceneMaterial *mat = &s->materials[m->material];
    TessPixelMaskDef pd;
    tess_pixel_mask_def_default(&pd);
    pd.width = m->width;
    pd.height = m->height;
    pd.pixel_size = m->pixel_size;
    pd.origin = m->origin;
    if (m->body) { /* a static body's: laid at the body's position and angle (physics does it) */
      if (m->body > s->body_count || s->bodies[m->body - 1].type != TESS_BODY_STATIC) {
        r = tess_error_set(err, TESS_ERR_INVALID, "scene", "pixel mask %u: body %u is not a static body", i, m->body - 1);
        break;
      }
      pd.body = ids[m->body - 1]; /* laid in the body's frame, and following it when it is moved */
    }
    pd.bits = s->pixel_bits + m->bits_offset;
    pd.surface.friction = mat->friction;
    pd.surface.restitution = mat->restitution;
    pd.surface.tangential = mat->tangential;
    pd.user_data = m->layer;
    r = tess_world_add_pixel_mask(w, &pd, NULL, err);
  }
  tess_free(groups);
  if (r != TESS_OK) {
    tess_free(ids);
    tess_world_destroy(w);
    return r;
  }
  if (body_ids) memcpy(body_ids, ids, s->body_count * sizeof *ids);
  tess_free(ids);
  *out = w;
  return TESS_OK;
}
