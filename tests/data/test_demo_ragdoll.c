/* The demo's ragdoll (data/demo/make-demo.c, "Doll ..." bodies in the Side
 * level): ten sprite parts placed overlapping with the pin mode "at the
 * centre of the overlap". Checks the rule core/scene applies to them (nine
 * pins, one per overlapping pair, at the overlap's centre, limited to
 * +-TESS_PIN_OVERLAP_LIMIT) and that the ragdoll settles intact: after 10 s
 * of the level's own simulation every pin's two anchors are within 1 cm of
 * each other, no part is inside a wall, and no pin bends past its limit. */
#include "check.h"
#include "project_fixture.h"
#include "tessera/level.h"
#include "tessera/physics.h"
#include "tessera/scene.h"

static bool is_doll(const TessScene *s, const TessLevel *level, int32_t body) {
  if (body < 0) return false;
  const TessObject *o = tess_level_object(level, s->bodies[body].object, NULL);
  return o && strncmp(o->name, "Doll ", 5) == 0;
}

/* A point in body coordinates from a world point at the body's placed pose. */
static TessVec2 to_local(const TessSceneBody *b, TessVec2 p) {
  TessTransform xf = {b->position, tess_rot(b->angle)};
  return tess_transform_point_inv(xf, p);
}

static void ragdoll_settles_intact(void) {
  const char *path = getenv("TESS_DEMO_PROJECT");
  CHECK(path != NULL);
  if (!path) return;
  TessProject *p = tess_test_load_read_only(path);
  if (!p) return;
  const TessLevel *level = tess_project_level_by_name(p, "Side");
  CHECK(level != NULL);
  TessScene *scene = NULL;
  TessError err;
  tess_error_clear(&err);
  CHECK_OK(tess_scene_from_level(p, level, &scene, &err), &err);
  if (!scene) {
    tess_project_destroy(p);
    return;
  }
  uint32_t parts = 0;
  for (uint32_t i = 0; i < scene->body_count; i++) parts += is_doll(scene, level, (int32_t)i);
  CHECK_MSG(parts == 10, "%u doll parts", parts);

  /* The pins: one per overlapping neighbour pair, limited, made on overlap. */
  enum { MAX_PINS = 16 };
  uint32_t pins[MAX_PINS], pin_count = 0;
  for (uint32_t k = 0; k < scene->joint_count; k++) {
    const TessSceneJoint *j = &scene->joints[k];
    if (!is_doll(scene, level, j->body_a) && !is_doll(scene, level, j->body_b)) continue;
    CHECK(is_doll(scene, level, j->body_a) && is_doll(scene, level, j->body_b));
    CHECK(j->from_overlap == 1 && j->kind == TESS_JOINT_PIN);
    CHECK(j->limit_enabled == 1 && j->lower == -TESS_PIN_OVERLAP_LIMIT && j->upper == TESS_PIN_OVERLAP_LIMIT);
    if (pin_count < MAX_PINS) pins[pin_count] = k;
    pin_count++;
  }
  CHECK_MSG(pin_count == 9, "%u pins between doll parts (a body has 9 joints)", pin_count);
  if (pin_count > MAX_PINS) pin_count = MAX_PINS;

  TessVec2 local_a[MAX_PINS], local_b[MAX_PINS];
  for (uint32_t k = 0; k < pin_count; k++) {
    const TessSceneJoint *j = &scene->joints[pins[k]];
    local_a[k] = to_local(&scene->bodies[j->body_a], j->anchor_a);
    local_b[k] = to_local(&scene->bodies[j->body_b], j->anchor_a);
  }

  TessWorld *w = NULL;
  TessBodyId *ids = calloc(scene->body_count, sizeof *ids);
  CHECK_OK(tess_world_create_from_scene(scene, NULL, &w, ids, &err), &err);
  if (w) {
    float dt = 1.0f / scene->physics_hz;
    uint32_t steps = (uint32_t)(10.0f * scene->physics_hz + 0.5f);
    for (uint32_t s = 0; s < steps; s++) CHECK_OK(tess_world_step(w, dt, &err), &err);
    double worst_gap = 0.0, worst_bend = 0.0;
    for (uint32_t k = 0; k < pin_count; k++) {
      const TessSceneJoint *j = &scene->joints[pins[k]];
      TessTransform xa = tess_body_transform(w, ids[j->body_a]), xb = tess_body_transform(w, ids[j->body_b]);
      double gap = tess_v2_distance(tess_transform_point(xa, local_a[k]), tess_transform_point(xb, local_b[k]));
      if (gap > worst_gap) worst_gap = gap;
      float bend = (tess_body_angle(w, ids[j->body_b]) - scene->bodies[j->body_b].angle) -
                   (tess_body_angle(w, ids[j->body_a]) - scene->bodies[j->body_a].angle);
      if (fabs(bend) > worst_bend) worst_bend = fabs(bend);
    }
    /* It did fall: the torso (the first part) ends lower than it started, turned. */
    uint32_t torso = 0;
    while (torso < scene->body_count && !is_doll(scene, level, (int32_t)torso)) torso++;
    float drop = 0.0f, turn = 0.0f;
    if (torso < scene->body_count) {
      drop = tess_body_position(w, ids[torso]).y - scene->bodies[torso].position.y;
      turn = tess_body_angle(w, ids[torso]) - scene->bodies[torso].angle;
    }
    printf(
        "  after 10 s: the widest pin gap %.2f mm, the most bent pin %.1f degrees (limit %.0f); the torso fell "
        "%.2f m and turned %.0f degrees\n",
        worst_gap * 1000.0, worst_bend * 57.29578, TESS_PIN_OVERLAP_LIMIT * 57.29578, (double)drop,
        (double)turn * 57.29578);
    CHECK_MSG(drop > 0.3f, "the torso moved %.3f m down: the ragdoll did not fold up", (double)drop);
    CHECK_MSG(worst_gap <= 0.01, "a pin's anchors are %.4f m apart", worst_gap);
    /* the solver's joints are soft: a limit holds within a couple of degrees */
    CHECK_MSG(worst_bend <= TESS_PIN_OVERLAP_LIMIT + 0.035, "a pin bent %.3f rad", worst_bend);
    /* No part inside a wall: every vertex of every part's outline, 2 cm in
     * towards the part's centre (resting contacts overlap by the solver's
     * slop, 5 mm), is outside the map's solid geometry, and so is the centre. */
    for (uint32_t i = 0; i < scene->body_count; i++) {
      if (!is_doll(scene, level, (int32_t)i)) continue;
      const TessSceneBody *b = &scene->bodies[i];
      TessTransform xf = tess_body_transform(w, ids[i]);
      TessVec2 centre = tess_body_world_center(w, ids[i]);
      CHECK_MSG(!tess_world_map_point_solid(w, centre), "part %u's centre is in a wall", i);
      for (uint32_t k = 0; k < b->shape_count; k++) {
        const TessSceneShape *sh = &scene->shapes[b->first_shape + k];
        uint32_t n = sh->type == TESS_SHAPE_POLYGON ? sh->count : 1;
        for (uint32_t v = 0; v < n; v++) {
          TessVec2 q = tess_transform_point(xf, sh->v[v]);
          TessVec2 in = tess_v2_sub(centre, q);
          float len = tess_v2_length(in);
          if (len > 0.02f) q = tess_v2_add(q, tess_v2_scale(0.02f / len, in));
          CHECK_MSG(!tess_world_map_point_solid(w, q), "part %u's outline is in a wall at (%.3f, %.3f)", i,
                    (double)q.x, (double)q.y);
        }
      }
    }
    tess_world_destroy(w);
  }
  free(ids);
  tess_scene_destroy(scene);
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(ragdoll_settles_intact))
