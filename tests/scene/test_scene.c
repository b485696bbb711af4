/* core/scene: a level resolved for simulation (cells, flips, materials,
 * bodies in metres, sprite mass from pixels, pins on overlap), equality and
 * hashing, and the world built from it. */
#include "project_fixture.h"
#include "check.h"
#include "tessera/level.h"
#include "tessera/physics.h"
#include "tessera/scene.h"
#include "tessera/store.h"

typedef struct Proj {
  TessProject *p;
  TessId stone, rubber, water, tileset, sprite, level, ground, mats, objects;
} Proj;

/* 20 x 15 cells of 16 px at 16 px per metre: one cell is one metre. */
static void make_project(Proj *f) {
  TessError err;
  memset(f, 0, sizeof *f);
  f->p = tess_project_create();
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "Stone");
  m.friction = 0.7f;
  m.restitution = 0.1f;
  m.density = 2000.0f;
  m.kind = TESS_MATERIAL_SOLID;
  CHECK_OK(tess_edit_material_add(f->p, &m, &f->stone, &err), &err);
  snprintf(m.name, sizeof m.name, "Rubber");
  m.friction = 0.9f;
  m.restitution = 0.95f;
  m.density = 1100.0f;
  CHECK_OK(tess_edit_material_add(f->p, &m, &f->rubber, &err), &err);
  snprintf(m.name, sizeof m.name, "Water");
  m.kind = TESS_MATERIAL_FLUID;
  m.friction = 0.0f;
  m.restitution = 0.0f;
  m.density = 1000.0f;
  CHECK_OK(tess_edit_material_add(f->p, &m, &f->water, &err), &err);

  static uint8_t png[] = {0x89, 'P', 'N', 'G', 1, 2, 3};
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Terrain";
  def.png = png;
  def.png_size = sizeof png;
  def.image_w = 64;
  def.image_h = 16;
  def.tile_w = 16;
  def.tile_h = 16;
  def.default_material = f->stone;
  def.default_collision = TESS_TILE_COLLISION_FULL;
  CHECK_OK(tess_edit_tileset_add(f->p, &def, &f->tileset, &err), &err);
  /* tile 1: a traced slope (the lower-left triangle); tile 2: a one-way plank */
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(f->p, f->tileset)), &err);
  tess_free(ts.tiles[1].pieces);
  ts.tiles[1].collision = TESS_TILE_COLLISION_TRACED;
  ts.tiles[1].piece_count = 1;
  ts.tiles[1].pieces = tess_calloc(1, sizeof(TessPolygon));
  ts.tiles[1].pieces[0].count = 3;
  ts.tiles[1].pieces[0].v[0] = tess_v2(0, 16);
  ts.tiles[1].pieces[0].v[1] = tess_v2(16, 16);
  ts.tiles[1].pieces[0].v[2] = tess_v2(0, 0);
  ts.tiles[2].one_way = 1;
  CHECK_OK(tess_edit_tileset_set(f->p, &ts, 0, &err), &err);
  tess_tileset_clear(&ts);

  TessSprite s;
  memset(&s, 0, sizeof s);
  static uint8_t spng[] = {0x89, 'P', 'N', 'G', 5};
  static TessVec2 hull[4] = {{0, 0}, {32, 0}, {32, 16}, {0, 16}};
  static TessPolygon piece = {4, {{0, 0}, {32, 0}, {32, 16}, {0, 16}}};
  snprintf(s.name, sizeof s.name, "Plank");
  s.png = spng;
  s.png_size = sizeof spng;
  s.image_w = 32;
  s.image_h = 16;
  s.frame_count = 1;
  s.anchor = tess_v2(16, 8);
  tess_sprite_mask_default(&s.mask);
  s.mask.hull_count = 4;
  s.mask.hull = hull;
  s.mask.piece_count = 1;
  s.mask.pieces = &piece;
  s.mask.area = 512;
  s.mask.centroid_x = 16;
  s.mask.centroid_y = 8;
  s.mask.inertia = 512.0 * (32.0 * 32.0 + 16.0 * 16.0) / 12.0;
  CHECK_OK(tess_edit_sprite_add(f->p, &s, &f->sprite, &err), &err);

  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Test");
  ls.width = 20;
  ls.height = 15;
  ls.tile_w = 16;
  ls.tile_h = 16;
  ls.ppm = 16.0f;
  CHECK_OK(tess_edit_level_add(f->p, &ls, &f->level, &err), &err);
  TessLevel *level = tess_project_level(f->p, f->level);
  f->ground = level->layers[0]->props.id;
  f->mats = level->layers[1]->props.id;
  f->objects = level->layers[2]->props.id;
  /* floor: row 14 of tile 0; a flipped slope at (5, 13); a plank at (8, 10);
   * a rock wall painted with the material brush at (12, 13) with no tile;
   * water over (14..17, 11..13) */
  CHECK_OK(tess_edit_fill_rect(f->p, f->level, f->ground, 0, 14, 20, 1, TESS_CELL_MAKE(f->tileset, 0, 0), 0, &err), &err);
  CHECK_OK(tess_edit_fill_rect(f->p, f->level, f->ground, 5, 13, 1, 1,
                               TESS_CELL_MAKE(f->tileset, 1, TESS_CELL_FLIP_H), 0, &err),
           &err);
  CHECK_OK(tess_edit_fill_rect(f->p, f->level, f->ground, 8, 10, 1, 1, TESS_CELL_MAKE(f->tileset, 2, 0), 0, &err), &err);
  CHECK_OK(tess_edit_paint_material(f->p, f->level, 12, 13, 1, 1, f->stone, 0, &err), &err);
  CHECK_OK(tess_edit_paint_material(f->p, f->level, 14, 11, 4, 3, f->water, 0, &err), &err);
}

static TessId add_object(Proj *f, const TessObject *o) {
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_object_add(f->p, f->level, f->objects, o, &id, &err), &err);
  return id;
}

static TessId add_body_object(Proj *f, TessBodyShape shape, float x, float y, float a, float b, TessId material,
                              TessPinMode pin) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = tess_v2(x, y);
  o.u.body.shape = (uint8_t)shape;
  o.u.body.type = TESS_BODY_DYNAMIC;
  o.u.body.material = material;
  o.u.body.pin = (uint8_t)pin;
  if (shape == TESS_BODY_CIRCLE) o.u.body.radius = a;
  o.u.body.width = a;
  o.u.body.height = b;
  if (shape == TESS_BODY_SPRITE) o.u.body.sprite = (TessId)b;
  TessId id = add_object(f, &o);
  tess_object_clear(&o);
  return id;
}

static void scene_resolves_cells_and_bodies(void) {
  Proj f;
  make_project(&f);
  TessError err;
  TessId ball = add_body_object(&f, TESS_BODY_CIRCLE, 80.0f, 40.0f, 8.0f, 0.0f, f.rubber, TESS_PIN_NONE);
  add_body_object(&f, TESS_BODY_BOX, 168.0f, 48.0f, 32.0f, 16.0f, 0, TESS_PIN_NONE);
  add_body_object(&f, TESS_BODY_CAPSULE, 240.0f, 48.0f, 48.0f, 16.0f, f.stone, TESS_PIN_NONE);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = tess_v2(96.0f, 120.0f);
  o.angle = 0.5f;
  o.u.body.shape = TESS_BODY_SPRITE;
  o.u.body.sprite = f.sprite;
  o.u.body.material = f.rubber;
  o.u.body.type = TESS_BODY_DYNAMIC;
  add_object(&f, &o);
  tess_object_clear(&o);
  tess_object_default(&o, TESS_OBJECT_JOINT);
  o.pos = tess_v2(80.0f, 16.0f);
  o.u.joint.kind = TESS_JOINT_PIN;
  o.u.joint.body_a = ball;
  o.u.joint.body_b = 0;
  add_object(&f, &o);
  tess_object_clear(&o);
  tess_object_default(&o, TESS_OBJECT_ZONE);
  o.pos = tess_v2(32.0f, 32.0f);
  o.u.zone.kind = TESS_ZONE_ACCELERATION;
  o.u.zone.width = 32.0f;
  o.u.zone.height = 64.0f;
  o.u.zone.vector = tess_v2(0.0f, -20.0f);
  add_object(&f, &o);
  tess_object_clear(&o);
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  snprintf(o.name, sizeof o.name, "Start");
  o.pos = tess_v2(16.0f, 16.0f);
  add_object(&f, &o);
  tess_object_clear(&o);

  TessScene *s = NULL;
  CHECK_OK(tess_scene_from_level(f.p, tess_project_level(f.p, f.level), &s, &err), &err);
  if (!s) {
    tess_project_destroy(f.p);
    return;
  }
  CHECK(s->width == 20 && s->height == 15);
  CHECK_NEAR(s->cell_w, 1.0, 1e-6);
  CHECK_NEAR(s->gravity.y, 9.81, 1e-5);
  CHECK(s->material_count == 4);
  CHECK(s->materials[0].id == 0);
  CHECK(s->materials[1].id == f.stone && s->materials[3].kind == TESS_MATERIAL_FLUID);
  CHECK(s->cell_kind[14 * 20 + 3] == TESS_MAP_FULL);
  CHECK(s->cell_material[14 * 20 + 3] == 1);
  CHECK(s->cell_kind[13 * 20 + 12] == TESS_MAP_FULL); /* painted rock, no tile */
  CHECK(s->cell_kind[12 * 20 + 15] == TESS_MAP_EMPTY && s->cell_material[12 * 20 + 15] == 3);
  CHECK(s->cell_kind[10 * 20 + 8] == TESS_MAP_FULL && s->cell_one_way[10 * 20 + 8] == 1);
  CHECK(s->cell_kind[13 * 20 + 5] == TESS_MAP_TRACED);
  CHECK(s->piece_start != NULL);
  if (s->piece_start) {
    uint32_t a = s->piece_start[13 * 20 + 5], b = s->piece_start[13 * 20 + 6];
    CHECK(b - a == 1);
    /* flipped horizontally: the triangle's right angle moves to the bottom right */
    const TessPolygon *pc = &s->pieces[a];
    bool has_br = false, has_tr = false;
    for (uint32_t k = 0; k < pc->count; k++) {
      if (fabsf(pc->v[k].x - 1.0f) < 1e-5f && fabsf(pc->v[k].y - 1.0f) < 1e-5f) has_br = true;
      if (fabsf(pc->v[k].x - 1.0f) < 1e-5f && fabsf(pc->v[k].y) < 1e-5f) has_tr = true;
    }
    CHECK(has_br && has_tr);
  }
  CHECK(s->body_count == 4);
  const TessSceneBody *b0 = &s->bodies[0];
  CHECK_NEAR(b0->position.x, 5.0, 1e-6);
  CHECK_NEAR(s->bodies[1].position.x, 10.5, 1e-6);
  CHECK_NEAR(b0->position.y, 2.5, 1e-6);
  CHECK(s->shapes[b0->first_shape].type == TESS_SHAPE_CIRCLE);
  CHECK_NEAR(s->shapes[b0->first_shape].radius, 0.5, 1e-6);
  CHECK(s->materials[b0->material].id == f.rubber);
  const TessSceneBody *b1 = &s->bodies[1];
  CHECK(s->materials[b1->material].id == f.stone); /* material 0 = the first */
  CHECK(s->shapes[b1->first_shape].count == 4);
  CHECK_NEAR(fabsf(s->shapes[b1->first_shape].v[0].x), 1.0, 1e-6);
  CHECK_NEAR(fabsf(s->shapes[b1->first_shape].v[0].y), 0.5, 1e-6);
  const TessSceneShape *cap = &s->shapes[s->bodies[2].first_shape];
  CHECK(cap->type == TESS_SHAPE_CAPSULE);
  CHECK_NEAR(cap->radius, 0.5, 1e-6);
  CHECK_NEAR(cap->v[1].x - cap->v[0].x, 2.0, 1e-6);
  const TessSceneBody *b3 = &s->bodies[3];
  CHECK(b3->has_mass);
  /* kg = density * area_px / ppm^2; inertia = density * inertia_px4 / ppm^4 */
  CHECK_NEAR(b3->mass, 1100.0 * 512.0 / 256.0, 1e-3);
  CHECK_NEAR(b3->inertia, 1100.0 * (512.0 * (1024.0 + 256.0) / 12.0) / 65536.0, 1e-3);
  CHECK_NEAR(b3->local_center.x, 0.0, 1e-6);
  CHECK_NEAR(b3->angle, 0.5, 1e-6);
  CHECK(s->joint_count == 1 && s->joints[0].body_a == 0 && s->joints[0].body_b == -1);
  CHECK_NEAR(s->joints[0].anchor_a.y, 1.0, 1e-6);
  CHECK(s->zone_count == 1 && s->zones[0].kind == TESS_ZONE_ACCELERATION);
  CHECK_NEAR(s->zones[0].height, 4.0, 1e-6);
  CHECK(s->spawn_count == 1 && strcmp(s->spawns[0].name, "Start") == 0);

  /* equality and hash: the same level twice is equal; one cell changed is not */
  TessScene *s2 = NULL;
  CHECK_OK(tess_scene_from_level(f.p, tess_project_level(f.p, f.level), &s2, &err), &err);
  CHECK(s2 && tess_scene_equal(s, s2) && tess_scene_hash(s) == tess_scene_hash(s2));
  if (s2) {
    s2->cell_kind[0] = TESS_MAP_FULL;
    CHECK(!tess_scene_equal(s, s2));
    CHECK(tess_scene_hash(s) != tess_scene_hash(s2));
    tess_scene_destroy(s2);
  }

  /* a world from it: the sprite body carries its pixel mass; the ball hangs on its pin */
  TessBodyId ids[4];
  TessWorld *w = NULL;
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
  if (w) {
    CHECK(tess_world_body_count(w) == 4);
    CHECK_NEAR(tess_body_mass(w, ids[3]), b3->mass, 1e-3);
    CHECK(tess_world_map_cell_kind(w, 12, 13) == TESS_MAP_FULL);
    for (int i = 0; i < 120; i++) CHECK_OK(tess_world_step(w, 1.0f / 60.0f, &err), &err);
    TessVec2 p = tess_body_position(w, ids[0]);
    CHECK_MSG(tess_v2_distance(p, tess_v2(5.0f, 1.0f)) < 1.6f, "ball at (%g, %g)", p.x, p.y);
    /* the box fell onto the floor (top at y = 14) */
    CHECK_NEAR(tess_body_position(w, ids[1]).y, 13.5, 0.05);
    tess_world_destroy(w);
  }
  tess_scene_destroy(s);
  tess_project_destroy(f.p);
}

static void pins_on_overlap(void) {
  for (int mode = 1; mode <= 2; mode++) {
    Proj f;
    make_project(&f);
    TessError err;
    /* a large box (64 x 32 px) and a small one (16 x 16 px) overlapping its right end */
    add_body_object(&f, TESS_BODY_BOX, 160.0f, 80.0f, 64.0f, 32.0f, f.stone, TESS_PIN_NONE);
    add_body_object(&f, TESS_BODY_BOX, 196.0f, 80.0f, 16.0f, 16.0f, f.stone, (TessPinMode)mode);
    add_body_object(&f, TESS_BODY_CIRCLE, 40.0f, 40.0f, 8.0f, 0.0f, f.stone, (TessPinMode)mode); /* alone: no pin */
    TessScene *s = NULL;
    CHECK_OK(tess_scene_from_level(f.p, tess_project_level(f.p, f.level), &s, &err), &err);
    if (!s) {
      tess_project_destroy(f.p);
      continue;
    }
    CHECK(s->joint_count == 1);
    if (s->joint_count == 1) {
      const TessSceneJoint *j = &s->joints[0];
      CHECK(j->from_overlap && j->kind == TESS_JOINT_PIN);
      CHECK(j->body_a == 0 && j->body_b == 1); /* the smaller body is b */
      if (mode == TESS_PIN_AT_SMALLER_CENTROID) {
        CHECK_NEAR(j->anchor_a.x, 196.0 / 16.0, 1e-4);
        CHECK_NEAR(j->anchor_a.y, 5.0, 1e-4);
      } else {
        /* overlap: x from 188 to 192 px, y from 72 to 88 px: centre (190, 80) px */
        CHECK_NEAR(j->anchor_a.x, 190.0 / 16.0, 1e-4);
        CHECK_NEAR(j->anchor_a.y, 5.0, 1e-4);
      }
    }
    /* in the world the two move as one: the pin point stays together */
    TessBodyId ids[3];
    TessWorld *w = NULL;
    CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
    if (w) {
      TessVec2 anchor = s->joints[0].anchor_a;
      TessVec2 la = tess_transform_point_inv(tess_body_transform(w, ids[0]), anchor);
      TessVec2 lb = tess_transform_point_inv(tess_body_transform(w, ids[1]), anchor);
      for (int i = 0; i < 90; i++) CHECK_OK(tess_world_step(w, 1.0f / 60.0f, &err), &err);
      TessVec2 pa = tess_transform_point(tess_body_transform(w, ids[0]), la);
      TessVec2 pb = tess_transform_point(tess_body_transform(w, ids[1]), lb);
      CHECK_MSG(tess_v2_distance(pa, pb) < 0.01f, "pin points apart by %g m", tess_v2_distance(pa, pb));
      CHECK(tess_body_position(w, ids[0]).y > 10.0f); /* they fell together */
      tess_world_destroy(w);
    }
    tess_scene_destroy(s);
    tess_project_destroy(f.p);
  }
}

/* Whether a and b began touching in the last step (the events are taken
 * before the solver moves anything, so a pin pulling hard cannot hide one). */
static bool contact_between(TessWorld *w, TessBodyId a, TessBodyId b) {
  TessWorldEvents ev = tess_world_events(w);
  for (uint32_t i = 0; i < ev.contact_begin_count; i++) {
    const TessContactEvent *e = &ev.contact_begin[i];
    if ((tess_body_id_equal(e->body_a, a) && tess_body_id_equal(e->body_b, b)) ||
        (tess_body_id_equal(e->body_a, b) && tess_body_id_equal(e->body_b, a)))
      return true;
  }
  return false;
}

/* The rule for ragdolls: a pin made at the overlap's centre bends within
 * +-TESS_PIN_OVERLAP_LIMIT (an axle at the smaller body's centre turns
 * freely), and the parts of one assembly never collide with each other,
 * though each still collides with everything else. A chain of three boxes
 * (a-b-c, each overlapping the next only) is an assembly: c laid over a
 * makes no contact; a box outside it laid over a does. */
static void overlap_pins_limit_and_assemblies_do_not_self_collide(void) {
  for (int mode = 1; mode <= 2; mode++) {
    Proj f;
    make_project(&f);
    TessError err;
    add_body_object(&f, TESS_BODY_BOX, 64.0f, 40.0f, 32.0f, 8.0f, f.stone, (TessPinMode)mode);  /* a */
    add_body_object(&f, TESS_BODY_BOX, 92.0f, 40.0f, 28.0f, 8.0f, f.stone, (TessPinMode)mode);  /* b */
    add_body_object(&f, TESS_BODY_BOX, 120.0f, 40.0f, 32.0f, 8.0f, f.stone, (TessPinMode)mode); /* c */
    add_body_object(&f, TESS_BODY_BOX, 200.0f, 40.0f, 32.0f, 8.0f, f.stone, TESS_PIN_NONE);     /* d, alone */
    TessScene *s = NULL;
    CHECK_OK(tess_scene_from_level(f.p, tess_project_level(f.p, f.level), &s, &err), &err);
    if (!s) {
      tess_project_destroy(f.p);
      continue;
    }
    CHECK(s->joint_count == 2);
    for (uint32_t k = 0; k < s->joint_count; k++) {
      const TessSceneJoint *j = &s->joints[k];
      if (mode == TESS_PIN_AT_OVERLAP_CENTRE)
        CHECK(j->limit_enabled == 1 && j->lower == -TESS_PIN_OVERLAP_LIMIT && j->upper == TESS_PIN_OVERLAP_LIMIT);
      else
        CHECK(j->limit_enabled == 0);
    }
    TessBodyId ids[4];
    TessWorld *w = NULL;
    CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
    if (w) {
      tess_world_set_gravity(w, tess_v2(0, 0));
      /* c folded back over a (crossing it), d over a as well, a little further down */
      TessVec2 pa = tess_body_position(w, ids[0]);
      CHECK_OK(tess_body_set_transform(w, ids[2], tess_v2(pa.x, pa.y - 0.2f), 1.5707963f), &err);
      CHECK_OK(tess_body_set_transform(w, ids[3], tess_v2(pa.x + 0.3f, pa.y + 0.2f), 1.5707963f), &err);
      CHECK_OK(tess_world_step(w, 1.0f / 60.0f, &err), &err);
      CHECK_MSG(!contact_between(w, ids[0], ids[2]), "two parts of one assembly collide (mode %d)", mode);
      CHECK_MSG(contact_between(w, ids[0], ids[3]), "a part does not collide with a body outside (mode %d)", mode);
      CHECK(!contact_between(w, ids[0], ids[1])); /* pinned pair: never, as before */
      tess_world_destroy(w);
    }
    tess_scene_destroy(s);
    tess_project_destroy(f.p);
  }
}

/* A pin's motor reaches the scene (and its hash) and the world: a wheel
 * pinned at its centre spins up at torque / inertia until the motor's
 * speed. A distance joint never carries a motor. */
static void pin_motor_reaches_the_world(void) {
  Proj f;
  TessError err;
  make_project(&f);
  /* Rubber wheels of radius 1 m: m = 1100 pi kg, I = m r^2 / 2. */
  TessId strong = add_body_object(&f, TESS_BODY_CIRCLE, 48, 48, 16, 0, f.rubber, TESS_PIN_NONE);
  TessId weak = add_body_object(&f, TESS_BODY_CIRCLE, 160, 48, 16, 0, f.rubber, TESS_PIN_NONE);
  const double inertia = 1100.0 * 3.14159265358979 * 0.5;
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_JOINT);
  o.u.joint.kind = TESS_JOINT_PIN;
  o.u.joint.body_a = 0;
  o.u.joint.body_b = strong;
  o.pos = tess_v2(48, 48);
  o.u.joint.motor_enabled = 1;
  o.u.joint.motor_speed = 2.0f;
  o.u.joint.motor_torque = 1e6f;
  TessId strong_pin = add_object(&f, &o);
  o.u.joint.body_b = weak;
  o.pos = tess_v2(160, 48);
  o.u.joint.motor_speed = -3.0f;
  o.u.joint.motor_torque = (float)inertia; /* 1 rad/s^2 */
  add_object(&f, &o);
  tess_object_default(&o, TESS_OBJECT_JOINT);
  o.u.joint.kind = TESS_JOINT_DISTANCE;
  o.u.joint.body_a = strong;
  o.u.joint.body_b = weak;
  o.pos = tess_v2(48, 48);
  o.u.joint.anchor_b = tess_v2(160, 48);
  o.u.joint.motor_enabled = 1; /* meaningless for a rod: the scene drops it */
  o.u.joint.motor_speed = 5.0f;
  o.u.joint.motor_torque = 7.0f;
  add_object(&f, &o);

  TessScene *s = NULL;
  CHECK_OK(tess_scene_from_level(f.p, tess_project_level(f.p, f.level), &s, &err), &err);
  if (!s) {
    tess_project_destroy(f.p);
    return;
  }
  CHECK(s->joint_count == 3);
  int32_t si = -1, wi = -1;
  for (uint32_t i = 0; i < s->body_count; i++) {
    if (s->bodies[i].object == strong) si = (int32_t)i;
    if (s->bodies[i].object == weak) wi = (int32_t)i;
  }
  CHECK(si >= 0 && wi >= 0);
  for (uint32_t i = 0; i < s->joint_count; i++) {
    const TessSceneJoint *j = &s->joints[i];
    if (j->kind == TESS_JOINT_DISTANCE) {
      CHECK(j->motor_enabled == 0 && j->motor_speed == 0.0f && j->motor_torque == 0.0f);
    } else if (j->object == strong_pin) {
      CHECK(j->motor_enabled == 1 && j->motor_speed == 2.0f && j->motor_torque == 1e6f);
    } else {
      CHECK(j->motor_enabled == 1 && j->motor_speed == -3.0f && j->motor_torque == (float)inertia);
    }
  }
  /* Each motor field is part of the scene's identity. */
  TessScene *s2 = NULL;
  CHECK_OK(tess_scene_from_level(f.p, tess_project_level(f.p, f.level), &s2, &err), &err);
  if (s2) {
    CHECK(tess_scene_equal(s, s2) && tess_scene_hash(s) == tess_scene_hash(s2));
    for (int field = 0; field < 3; field++) {
      TessSceneJoint keep = s2->joints[0];
      if (field == 0) s2->joints[0].motor_enabled ^= 1;
      if (field == 1) s2->joints[0].motor_speed += 0.5f;
      if (field == 2) s2->joints[0].motor_torque += 1.0f;
      CHECK_MSG(!tess_scene_equal(s, s2) && tess_scene_hash(s) != tess_scene_hash(s2), "field %d", field);
      s2->joints[0] = keep;
    }
    tess_scene_destroy(s2);
  }
  /* The world: the rod between the wheels is dropped for this check (it
   * would couple them); a scene with the two pins alone. */
  uint32_t kept = 0;
  for (uint32_t i = 0; i < s->joint_count; i++)
    if (s->joints[i].kind == TESS_JOINT_PIN) s->joints[kept++] = s->joints[i];
  s->joint_count = kept;
  TessBodyId ids[16];
  TessWorld *w = NULL;
  CHECK(s->body_count <= 16);
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
  if (w && si >= 0 && wi >= 0) {
    const float dt = 1.0f / 60.0f;
    for (int i = 0; i < 30; i++) CHECK_OK(tess_world_step(w, dt, &err), &err);
    /* The strong motor is at its speed; the weak one has gained 1 rad/s^2 x 0.5 s, towards -3. */
    CHECK_NEAR(tess_body_angular_velocity(w, ids[si]), 2.0, 0.02);
    CHECK_NEAR(tess_body_angular_velocity(w, ids[wi]), -0.5, 0.02);
    for (int i = 0; i < 240; i++) CHECK_OK(tess_world_step(w, dt, &err), &err);
    CHECK_NEAR(tess_body_angular_velocity(w, ids[si]), 2.0, 0.02);
    CHECK_NEAR(tess_body_angular_velocity(w, ids[wi]), -3.0, 0.02);
    tess_world_destroy(w);
  }
  tess_scene_destroy(s);
  tess_project_destroy(f.p);
}

/* A car made in the level: a box on two wheels pinned to it, the pins'
 * motors at +2 rad/s (and -2 for the second run). Built from the level as
 * Play builds it, it drives along the floor towards +x (-x) and settles at
 * the rolling speed, wheel speed x radius, within 1 s (the cells between
 * the slope and the wall leave it 1 m each way). */
static void motored_car_drives(void) {
  for (int dir = 1; dir >= -1; dir -= 2) {
    Proj f;
    TessError err;
    make_project(&f);
    /* Between the slope (cell 5) and the painted wall (cell 12); the floor's top is at 224 px.
     * Wheels of radius 0.5 m (8 px), a 3 x 0.75 m box above them. */
    TessId rear = add_body_object(&f, TESS_BODY_CIRCLE, 128, 216, 8, 0, f.rubber, TESS_PIN_NONE);
    TessId front = add_body_object(&f, TESS_BODY_CIRCLE, 160, 216, 8, 0, f.rubber, TESS_PIN_NONE);
    TessId box = add_body_object(&f, TESS_BODY_BOX, 144, 190, 48, 12, f.rubber, TESS_PIN_NONE);
    TessId wheels[2] = {rear, front};
    for (int k = 0; k < 2; k++) {
      TessObject o;
      tess_object_default(&o, TESS_OBJECT_JOINT);
      o.u.joint.kind = TESS_JOINT_PIN;
      o.u.joint.body_a = box;
      o.u.joint.body_b = wheels[k];
      o.pos = tess_v2(k == 0 ? 128 : 160, 216);
      o.u.joint.motor_enabled = 1;
      o.u.joint.motor_speed = 2.0f * (float)dir;
      o.u.joint.motor_torque = 5000.0f;
      add_object(&f, &o);
    }
    TessScene *s = NULL;
    CHECK_OK(tess_scene_from_level(f.p, tess_project_level(f.p, f.level), &s, &err), &err);
    int32_t bi = -1;
    for (uint32_t i = 0; s && i < s->body_count; i++)
      if (s->bodies[i].object == box) bi = (int32_t)i;
    TessBodyId ids[16];
    TessWorld *w = NULL;
    if (s && bi >= 0 && s->body_count <= 16) CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
    CHECK(w != NULL);
    if (w) {
      const float dt = 1.0f / 60.0f;
      float x0 = tess_body_position(w, ids[bi]).x;
      for (int i = 0; i < 60; i++) CHECK_OK(tess_world_step(w, dt, &err), &err);
      TessVec2 v = tess_body_linear_velocity(w, ids[bi]);
      float dx = tess_body_position(w, ids[bi]).x - x0;
      /* Rolling: 2 rad/s x 0.5 m = 1 m/s, reached after a short spin-up. */
      CHECK_MSG(fabsf(v.x - 1.0f * (float)dir) < 0.1f, "direction %d: box at %.3f m/s", dir, v.x);
      CHECK_MSG(dx * (float)dir > 0.7f && dx * (float)dir < 1.05f, "direction %d: box moved %.3f m in 1 s", dir, dx);
      tess_world_destroy(w);
    }
    tess_scene_destroy(s);
    tess_project_destroy(f.p);
  }
}

/* A body on RK4 in a spring zone, built from the level as Play and a game build it, swings as the
 * harmonic oscillator says: x(t) = c + A cos(omega t), energy 1/2 omega^2 A^2 per kilogram. At the
 * same step (60 Hz, 4 sub-steps) RK4 holds the energy far better than semi-implicit Euler, whose
 * energy error is about omega h / 2 (1.3% here). The two bodies swing through each other without
 * touching (mask 0) on perpendicular lines. */
static void rk4_in_a_spring_zone_keeps_its_energy(void) {
  TessError err;
  TessProject *p = tess_project_create();
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "Stone");
  TessId stone = 0;
  CHECK_OK(tess_edit_material_add(p, &m, &stone, &err), &err);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Spring");
  ls.width = ls.height = 40;
  ls.tile_w = ls.tile_h = 16;
  ls.ppm = 16.0f; /* one cell, one metre */
  ls.gravity = tess_v2(0.0f, 0.0f);
  TessId level = 0;
  CHECK_OK(tess_edit_level_add(p, &ls, &level, &err), &err);
  TessLevel *lv = tess_project_level(p, level);
  TessId objects = lv ? lv->layers[2]->props.id : 0;
  const double omega = 2.0 * 3.14159265358979, A = 3.0; /* one swing a second, 3 m from the centre */
  const TessVec2 c = tess_v2(20.0f, 20.0f);             /* metres */
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_ZONE);
  o.pos = tess_v2(c.x * 16.0f, c.y * 16.0f);
  o.u.zone.kind = TESS_ZONE_SPRING;
  o.u.zone.strength = (float)(omega * omega);
  o.u.zone.radius = 0.0f;
  CHECK_OK(tess_edit_object_add(p, level, objects, &o, NULL, &err), &err);
  TessId ids[2];
  for (int k = 0; k < 2; k++) {
    tess_object_default(&o, TESS_OBJECT_BODY);
    o.pos = k == 0 ? tess_v2((c.x + (float)A) * 16.0f, c.y * 16.0f) : tess_v2(c.x * 16.0f, (c.y + (float)A) * 16.0f);
    o.u.body.radius = 4.0f;
    o.u.body.material = stone;
    o.u.body.mask = 0;
    o.u.body.integrator = k == 0 ? TESS_INTEGRATOR_RK4 : TESS_INTEGRATOR_EULER;
    CHECK_OK(tess_edit_object_add(p, level, objects, &o, &ids[k], &err), &err);
  }
  TessScene *s = NULL;
  CHECK_OK(tess_scene_from_level(p, lv, &s, &err), &err);
  TessWorld *w = NULL;
  TessBodyId b[2];
  if (s && s->body_count == 2 && s->zone_count == 1) CHECK_OK(tess_world_create_from_scene(s, NULL, &w, b, &err), &err);
  CHECK(w != NULL);
  if (w) {
    CHECK(s->bodies[0].object == ids[0] && s->bodies[1].object == ids[1]);
    CHECK(tess_body_integrator(w, b[0]) == TESS_INTEGRATOR_RK4 && tess_body_integrator(w, b[1]) == TESS_INTEGRATOR_EULER);
    const float dt = 1.0f / 60.0f;
    const double e0 = 0.5 * omega * omega * A * A;
    double worst[2] = {0.0, 0.0}, worst_x = 0.0;
    for (int step = 1; step <= 600; step++) { /* 10 s, 10 swings */
      CHECK_OK(tess_world_step(w, dt, &err), &err);
      for (int k = 0; k < 2; k++) {
        TessVec2 q = tess_body_world_center(w, b[k]), v = tess_body_linear_velocity(w, b[k]);
        double dx = (double)q.x - c.x, dy = (double)q.y - c.y;
        double e = 0.5 * ((double)v.x * v.x + (double)v.y * v.y) + 0.5 * omega * omega * (dx * dx + dy * dy);
        double rel = fabs(e - e0) / e0;
        if (rel > worst[k]) worst[k] = rel;
        if (k == 0) {
          double want = A * cos(omega * step * (double)dt);
          if (fabs(dx - want) > worst_x) worst_x = fabs(dx - want);
        }
      }
    }
    printf("  largest relative energy error over 10 swings: RK4 %.3g, Euler %.3g; RK4 off x(t) by %.3g m\n", worst[0],
           worst[1], worst_x);
    CHECK_MSG(worst[0] < 1e-4, "RK4 energy error %.3g", worst[0]);
    CHECK_MSG(worst[0] * 20.0 < worst[1], "RK4 %.3g not 20x better than Euler %.3g", worst[0], worst[1]);
    CHECK_MSG(worst[1] > 0.25 * omega * dt / 4.0, "Euler's error %.3g is not the size the method gives", worst[1]);
    CHECK_MSG(worst_x < 1e-3, "RK4 strays %.3g m from A cos(omega t)", worst_x);
    tess_world_destroy(w);
  }
  tess_scene_destroy(s);
  tess_project_destroy(p);
}

static void bad_levels_are_refused(void) {
  Proj f;
  make_project(&f);
  TessError err;
  /* a sprite whose mask was never traced */
  TessSprite sp;
  memset(&sp, 0, sizeof sp);
  static uint8_t spng[] = {0x89, 'P', 'N', 'G', 7};
  snprintf(sp.name, sizeof sp.name, "Untraced");
  sp.png = spng;
  sp.png_size = sizeof spng;
  sp.image_w = sp.image_h = 8;
  sp.frame_count = 1;
  tess_sprite_mask_default(&sp.mask);
  TessId untraced = 0;
  CHECK_OK(tess_edit_sprite_add(f.p, &sp, &untraced, &err), &err);
  add_body_object(&f, TESS_BODY_SPRITE, 80.0f, 40.0f, 8.0f, (float)untraced, 0, TESS_PIN_NONE);
  TessScene *s = NULL;
  TessResult r = tess_scene_from_level(f.p, tess_project_level(f.p, f.level), &s, &err);
  CHECK(r != TESS_OK && s == NULL);
  CHECK(tess_scene_from_level(f.p, NULL, &s, &err) == TESS_ERR_INVALID);
  /* a scene with no materials cannot make a world */
  TessScene *empty = tess_scene_create();
  TessWorld *w = NULL;
  CHECK(tess_world_create_from_scene(empty, NULL, &w, NULL, &err) == TESS_ERR_INVALID && w == NULL);
  tess_scene_destroy(empty);
  tess_project_destroy(f.p);
}

static void demo_levels_run(void) {
  const char *root = getenv("TESS_BUILD_ROOT");
  char path[1024];
  snprintf(path, sizeof path, "%s/data/demo/demo.tessera", root ? root : ".");
  FILE *probe = fopen(path, "rb");
  if (!probe) {
    fprintf(stderr, "demo project not built (%s): skipped\n", path);
    return;
  }
  fclose(probe);
  TessProject *p = tess_test_load_read_only(path);
  TessError err;
  CHECK(p && p->level_count >= 2);
  for (uint32_t l = 0; p && l < p->level_count; l++) {
    TessScene *s = NULL;
    CHECK_OK(tess_scene_from_level(p, p->levels[l], &s, &err), &err);
    if (!s) continue;
    uint32_t joint_objects = 0;
    for (uint32_t k = 0; k < p->levels[l]->layer_count; k++)
      for (uint32_t i = 0; i < p->levels[l]->layers[k]->object_count; i++)
        joint_objects += p->levels[l]->layers[k]->objects[i].kind == TESS_OBJECT_JOINT;
    uint32_t from_objects = 0;
    for (uint32_t j = 0; j < s->joint_count; j++) from_objects += !s->joints[j].from_overlap;
    CHECK(from_objects == joint_objects);
    TessBodyId *ids = calloc(s->body_count + 1, sizeof *ids);
    TessWorld *w = NULL;
    CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
    if (w) {
      float dt = 1.0f / s->physics_hz;
      for (int i = 0; i < 300; i++) CHECK_OK(tess_world_step(w, dt, &err), &err);
      for (uint32_t b = 0; b < s->body_count; b++) {
        TessVec2 q = tess_body_position(w, ids[b]);
        CHECK(tess_v2_is_finite(q));
        /* nothing fell out of the level */
        CHECK_MSG(q.y < (float)s->height * s->cell_h + 1.0f, "level %s body %u fell to y = %g", p->levels[l]->settings.name,
                  b, q.y);
      }
      tess_world_destroy(w);
    }
    free(ids);
    tess_scene_destroy(s);
  }
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(scene_resolves_cells_and_bodies), TEST(pin_motor_reaches_the_world), TEST(motored_car_drives), TEST(pins_on_overlap),
               TEST(overlap_pins_limit_and_assemblies_do_not_self_collide), TEST(bad_levels_are_refused),
               TEST(demo_levels_run), TEST(rk4_in_a_spring_zone_keeps_its_energy))
