/* A level's playback, built through core/scene as a game builds it. */
#include "tessera/level.h"

#include <string.h>

static uint32_t material_color(const TessProject *p, TessId id) {
  const TessMaterial *m = id ? tess_project_material(p, id) : NULL;
  if (!m && p->material_count) m = &p->materials[0];
  return m ? m->color : 0x8899aaffu;
}

static void shape_from_scene(const TessSceneShape *s, TessPlaybackShape *out, bool sensor) {
  memset(out, 0, sizeof *out);
  out->sensor = sensor;
  out->radius = s->radius;
  if (s->type == TESS_SHAPE_CIRCLE) {
    out->kind = TESS_PLAYBACK_SHAPE_CIRCLE;
    out->center = s->v[0];
  } else if (s->type == TESS_SHAPE_CAPSULE) {
    out->kind = TESS_PLAYBACK_SHAPE_CAPSULE;
    out->p1 = s->v[0];
    out->p2 = s->v[1];
  } else {
    out->kind = TESS_PLAYBACK_SHAPE_POLYGON;
    out->count = s->count > TESS_POLY_MAX ? TESS_POLY_MAX : s->count;
    memcpy(out->v, s->v, out->count * sizeof out->v[0]);
  }
}

TessResult tess_preview_level_create(const TessProject *project, const TessLevel *level, size_t memory_budget,
                                     TessPreviewLevel **out, TessError *err) {
  TessPreviewLevel *pl = tess_calloc(1, sizeof *pl);
  if (!pl) return tess_error_set(err, TESS_ERR_NOMEM, "preview", "out of memory");
  pl->project = project;
  pl->level = level;
  pl->level_hash = tess_level_content_hash(project, level);
  TessResult r = tess_scene_from_level(project, level, &pl->scene, err);
  TessBodyId *ids = NULL;
  TessWorld *world = NULL;
  if (r == TESS_OK) {
    ids = tess_calloc(pl->scene->body_count ? pl->scene->body_count : 1, sizeof *ids);
    if (!ids) r = tess_error_set(err, TESS_ERR_NOMEM, "preview", "out of memory");
  }
  if (r == TESS_OK) r = tess_world_create_from_scene(pl->scene, NULL, &world, ids, err);
  if (r == TESS_OK) {
    TessPlaybackDef def;
    tess_playback_def_default(&def);
    if (pl->scene->physics_hz > 0.0f) def.hz = pl->scene->physics_hz;
    if (memory_budget) def.memory_budget = memory_budget;
    r = tess_playback_create(world, &def, &pl->playback, err); /* owns the world from here */
  }
  for (uint32_t i = 0; r == TESS_OK && i < pl->scene->body_count; i++) {
    const TessSceneBody *sb = &pl->scene->bodies[i];
    TessPlaybackBody b;
    memset(&b, 0, sizeof b);
    b.id = ids[i];
    b.object = sb->object;
    b.type = sb->type;
    b.sensor = sb->sensor != 0;
    TessId material = sb->material < pl->scene->material_count ? pl->scene->materials[sb->material].id : 0;
    b.color = material_color(project, material);
    const TessObject *obj = sb->object ? tess_level_object(level, sb->object, NULL) : NULL;
    if (obj && obj->kind == TESS_OBJECT_BODY && obj->u.body.shape == TESS_BODY_SPRITE) {
      const TessSprite *sp = tess_project_sprite(project, obj->u.body.sprite);
      if (sp) {
        b.sprite = sp->id;
        float inv = 1.0f / pl->scene->ppm;
        b.sprite_origin = tess_v2(-sp->anchor.x * inv, -sp->anchor.y * inv);
      }
    }
    b.shape_count = sb->shape_count;
    TessPlaybackShape shapes[64];
    if (b.shape_count > 64) b.shape_count = 64;
    for (uint32_t k = 0; k < b.shape_count; k++)
      shape_from_scene(&pl->scene->shapes[sb->first_shape + k], &shapes[k], sb->sensor != 0);
    r = tess_playback_register_body(pl->playback, &b, shapes, err);
  }
  tess_free(ids);
  if (r != TESS_OK) {
    if (!pl->playback && world) tess_world_destroy(world);
    tess_preview_level_destroy(pl);
    return r;
  }
  *out = pl;
  return TESS_OK;
}

void tess_preview_level_destroy(TessPreviewLevel *pl) {
  if (!pl) return;
  tess_playback_destroy(pl->playback);
  tess_scene_destroy(pl->scene);
  tess_free(pl);
}

typedef struct PickCtx {
  const TessWorld *world;
  bool dynamic_only;
  TessBodyId found;
} PickCtx;

static bool pick_one(TessShapeId shape, void *user) {
  PickCtx *c = user;
  if (tess_shape_is_sensor(c->world, shape)) return true;
  TessBodyId b = tess_shape_body(c->world, shape);
  if (c->dynamic_only && tess_body_type(c->world, b) != TESS_BODY_DYNAMIC) return true;
  c->found = b;
  return false;
}

bool tess_preview_level_pick(const TessPreviewLevel *pl, TessVec2 point, bool dynamic_only, TessBodyId *out) {
  PickCtx c;
  memset(&c, 0, sizeof c);
  c.world = tess_playback_world(pl->playback);
  c.dynamic_only = dynamic_only;
  tess_world_query_point(c.world, point, 0xFFFFFFFFu, pick_one, &c);
  if (tess_body_id_is_null(c.found)) return false;
  if (out) *out = c.found;
  return true;
}

static const TessMaterial *spawn_material(const TessProject *p, TessId id) {
  const TessMaterial *m = id ? tess_project_material(p, id) : NULL;
  if (!m) {
    /* The first solid material (a ball of water would not be one). */
    for (uint32_t i = 0; i < p->material_count && !m; i++)
      if (p->materials[i].kind == TESS_MATERIAL_SOLID) m = &p->materials[i];
  }
  return m;
}

static void spawn_base(const TessPreviewLevel *pl, TessPlaybackSpawn *sp, TessVec2 at, TessVec2 velocity, TessId material) {
  memset(sp, 0, sizeof *sp);
  tess_body_def_default(&sp->body);
  sp->body.position = at;
  sp->body.linear_velocity = velocity;
  tess_shape_def_default(&sp->shape);
  const TessMaterial *m = spawn_material(pl->project, material);
  if (m) {
    sp->shape.friction = m->friction;
    sp->shape.restitution = m->restitution;
    sp->shape.tangential = m->tangential;
    sp->shape.density = m->density;
    sp->shape.material = m->id;
    sp->color = m->color;
  } else {
    sp->color = 0xd0d0d0ffu;
  }
}

TessResult tess_preview_level_spawn_ball(TessPreviewLevel *pl, TessVec2 at, TessVec2 velocity, float radius,
                                         TessId material, TessBodyId *out, TessError *err) {
  TessPlaybackSpawn sp;
  spawn_base(pl, &sp, at, velocity, material);
  if (!(radius > 0.0f)) radius = 0.5f * pl->scene->cell_w;
  sp.shape_count = 1;
  sp.shapes[0].kind = TESS_PLAYBACK_SHAPE_CIRCLE;
  sp.shapes[0].radius = radius;
  return tess_playback_spawn(pl->playback, &sp, out, err);
}

TessResult tess_preview_level_spawn_sprite(TessPreviewLevel *pl, TessId sprite, TessVec2 at, TessVec2 velocity,
                                           TessId material, TessBodyId *out, TessError *err) {
  const TessSprite *s = tess_project_sprite(pl->project, sprite);
  if (!s) return tess_error_set(err, TESS_ERR_NOT_FOUND, "preview", "sprite %u does not exist", sprite);
  const TessSpriteMask *m = &s->mask;
  TessPlaybackSpawn sp;
  spawn_base(pl, &sp, at, velocity, material);
  float inv = 1.0f / pl->scene->ppm;
  TessVec2 anchor = s->anchor;
  /* The scene's rule (scene.h): the mask around the sprite's anchor, in metres. */
  if (m->mode == TESS_MASK_CIRCLE && m->circle_radius > 0.0f) {
    sp.shape_count = 1;
    sp.shapes[0].kind = TESS_PLAYBACK_SHAPE_CIRCLE;
    sp.shapes[0].center = tess_v2((m->circle_center.x - anchor.x) * inv, (m->circle_center.y - anchor.y) * inv);
    sp.shapes[0].radius = m->circle_radius * inv;
  } else if (m->piece_count > 0) {
    for (uint32_t i = 0; i < m->piece_count && sp.shape_count < 16; i++) {
      const TessPolygon *pc = &m->pieces[i];
      if (pc->count < 3 || pc->count > TESS_POLY_MAX) continue;
      TessPlaybackShape *sh = &sp.shapes[sp.shape_count++];
      sh->kind = TESS_PLAYBACK_SHAPE_POLYGON;
      sh->count = pc->count;
      for (uint32_t j = 0; j < pc->count; j++)
        sh->v[j] = tess_v2((pc->v[j].x - anchor.x) * inv, (pc->v[j].y - anchor.y) * inv);
    }
  }
  if (sp.shape_count == 0)
    return tess_error_set(err, TESS_ERR_INVALID, "preview", "sprite %s has no usable collision mask", s->name);
  if (m->area > 0.0) {
    double density = sp.shape.density;
    double ppm = pl->scene->ppm;
    sp.set_mass = true;
    sp.mass = (float)(density * m->area / (ppm * ppm));
    sp.local_center = tess_v2((float)((m->centroid_x - anchor.x) / ppm), (float)((m->centroid_y - anchor.y) / ppm));
    sp.inertia = (float)(density * m->inertia / (ppm * ppm * ppm * ppm));
    if (!(sp.mass > 0.0f) || !(sp.inertia > 0.0f)) sp.set_mass = false;
  }
  sp.sprite = s->id;
  sp.sprite_origin = tess_v2(-anchor.x * inv, -anchor.y * inv);
  return tess_playback_spawn(pl->playback, &sp, out, err);
}

/* A body that moved in the preview: where it was in the level and where it
 * is now, as level-pixel transforms (the object's pos is the body origin). */
typedef struct KeptBody {
  TessId object;
  TessTransform was, now;
} KeptBody;

static const KeptBody *kept_body(const KeptBody *kept, uint32_t n, TessId object) {
  for (uint32_t i = 0; object && i < n; i++)
    if (kept[i].object == object) return &kept[i];
  return NULL;
}

/* A point fixed to a body goes where the body took it. */
static TessVec2 carried(const KeptBody *k, TessVec2 p) {
  return k ? tess_transform_point(k->now, tess_transform_point_inv(k->was, p)) : p;
}

/* Joints hold level points fixed to their bodies (a pin's point on body a;
 * a distance joint's anchors on a and b). Bodies that moved carry them: a
 * pin left where it was joined nothing (issue 14 item 2). A pin to the
 * world, or to a body that stayed, stays. */
static TessResult carry_joints(TessProject *project, TessId level_id, const KeptBody *kept, uint32_t n_kept,
                               uint32_t merge, uint32_t *changed, TessError *err) {
  TessLevel *level = tess_project_level(project, level_id);
  for (uint32_t l = 0; level && l < level->layer_count; l++) {
    TessLayer *layer = level->layers[l];
    for (uint32_t i = 0; i < layer->object_count; i++) {
      const TessObject *o = &layer->objects[i];
      if (o->kind != TESS_OBJECT_JOINT) continue;
      const KeptBody *a = kept_body(kept, n_kept, o->u.joint.body_a);
      const KeptBody *b = kept_body(kept, n_kept, o->u.joint.body_b);
      TessVec2 pos = carried(a, o->pos);
      TessVec2 anchor_b = o->u.joint.kind == TESS_JOINT_DISTANCE ? carried(b, o->u.joint.anchor_b) : o->u.joint.anchor_b;
      if (pos.x == o->pos.x && pos.y == o->pos.y && anchor_b.x == o->u.joint.anchor_b.x &&
          anchor_b.y == o->u.joint.anchor_b.y)
        continue;
      TessObject copy;
      TessResult r = tess_object_copy(&copy, o);
      if (r != TESS_OK) return tess_error_set(err, r, "preview", "out of memory");
      copy.pos = pos;
      copy.u.joint.anchor_b = anchor_b;
      r = tess_edit_object_set(project, level_id, &copy, merge, err); /* may move the layer's array: o is stale */
      tess_object_clear(&copy);
      if (r != TESS_OK) return r;
      (*changed)++;
    }
  }
  return TESS_OK;
}

TessResult tess_preview_level_keep_positions(TessPreviewLevel *pl, TessProject *project, uint32_t *changed,
                                             TessError *err) {
  uint32_t merge = tess_project_new_merge_key(project);
  uint32_t n = 0, n_kept = 0;
  float ppm = pl->scene->ppm;
  TessPlayback *pb = pl->playback;
  uint32_t count = tess_playback_body_count(pb);
  KeptBody *kept = count ? tess_calloc(count, sizeof *kept) : NULL;
  if (count && !kept) return tess_error_set(err, TESS_ERR_NOMEM, "preview", "out of memory");
  TessResult r = TESS_OK;
  for (uint32_t i = 0; i < count && r == TESS_OK; i++) {
    const TessPlaybackBody *b = tess_playback_body(pb, i);
    if (!b->object || b->type == TESS_BODY_STATIC) continue;
    TessTransform xf;
    if (!tess_playback_body_transform(pb, i, &xf)) continue;
    TessLevel *level = tess_project_level(project, pl->level->id);
    const TessObject *o = level ? tess_level_object(level, b->object, NULL) : NULL;
    if (!o) continue;
    TessVec2 pos = tess_v2(xf.p.x * ppm, xf.p.y * ppm);
    float angle = tess_rot_angle(xf.q);
    if (pos.x == o->pos.x && pos.y == o->pos.y && angle == o->angle) continue;
    kept[n_kept].object = o->id;
    kept[n_kept].was = (TessTransform){o->pos, tess_rot(o->angle)};
    kept[n_kept].now = (TessTransform){pos, tess_rot(angle)};
    n_kept++;
    TessObject copy;
    r = tess_object_copy(&copy, o);
    if (r != TESS_OK) {
      r = tess_error_set(err, r, "preview", "out of memory");
      break;
    }
    copy.pos = pos;
    copy.angle = angle;
    r = tess_edit_object_set(project, pl->level->id, &copy, merge, err);
    tess_object_clear(&copy);
    if (r == TESS_OK) n++;
  }
  if (r == TESS_OK && n_kept) r = carry_joints(project, pl->level->id, kept, n_kept, merge, &n, err);
  tess_free(kept);
  if (r != TESS_OK) return r;
  if (changed) *changed = n;
  return TESS_OK;
}

bool tess_preview_level_pick_launcher(const TessPreviewLevel *pl, TessVec2 point, float reach, uint32_t *index) {
  const TessScene *s = pl->scene;
  float best = reach;
  bool found = false;
  for (uint32_t i = 0; i < s->launcher_count; i++) {
    float d = tess_v2_distance(point, s->launchers[i].position);
    if (d <= best) {
      best = d;
      *index = i;
      found = true;
    }
  }
  return found;
}

TessResult tess_preview_level_fire(TessPreviewLevel *pl, uint32_t launcher, TessVec2 velocity, TessBodyId *out,
                                   TessError *err) {
  const TessScene *s = pl->scene;
  if (launcher >= s->launcher_count)
    return tess_error_set(err, TESS_ERR_NOT_FOUND, "preview", "launcher %u does not exist", launcher);
  if (!tess_v2_is_finite(velocity)) return tess_error_set(err, TESS_ERR_INVALID, "preview", "launch velocity is not finite");
  const TessSceneLauncher *l = &s->launchers[launcher];
  const TessWorld *w = tess_playback_world(pl->playback);
  float h = 1.0f / (s->physics_hz * (float)tess_world_def(w)->substeps);
  TessVec2 v = tess_aim_for_substeps(velocity, tess_world_gravity(w), h);
  TessId material = l->material < s->material_count ? s->materials[l->material].id : 0;
  if (l->sprite) return tess_preview_level_spawn_sprite(pl, l->sprite, l->position, v, material, out, err);
  return tess_preview_level_spawn_ball(pl, l->position, v, l->radius, material, out, err);
}
