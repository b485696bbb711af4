/* Debug assertions on misuse of a world (TESS_ASSERT), as death tests
 * (tests/common/death.h): a call that changes a world during its own step,
 * and a stale or wild body, shape or joint handle. With assertions on each
 * misuse aborts naming the mistake; with them off it returns the documented
 * answer (TESS_ERR_LOCKED, TESS_ERR_NOT_FOUND, zeros), which the child checks. */
#include "check.h"
#include "death.h"
#include "tessera/physics.h"

/* ---- Calls during a step: made from the contact-begin callback ---------- */

typedef enum Misuse { STEP_INSIDE,
                      CREATE_BODY_INSIDE,
                      SET_TRANSFORM_INSIDE,
                      RESTORE_INSIDE } Misuse;

static Misuse misuse_kind;
static TessResult misuse_result;

static void misuse(TessWorld *w, const TessContactEvent *ev, void *user) {
  (void)user;
  TessError err;
  switch (misuse_kind) {
    case STEP_INSIDE:
      misuse_result = tess_world_step(w, 1.0f / 60.0f, &err);
      break;
    case CREATE_BODY_INSIDE: {
      TessBodyDef bd;
      tess_body_def_default(&bd);
      TessBodyId id;
      misuse_result = tess_body_create(w, &bd, &id, &err);
      break;
    }
    case SET_TRANSFORM_INSIDE:
      misuse_result = tess_body_set_transform(w, ev->body_b, tess_v2(0, -5), 0.0f);
      break;
    case RESTORE_INSIDE: {
      static unsigned char buf[1 << 16];
      misuse_result = tess_world_restore(w, buf, sizeof buf, &err);
      break;
    }
  }
}

/* A ball dropped on a static box: its first contact runs the callback. */
static TessWorld *ball_on_box(TessWorldDef *def, TessBodyId *ball, TessShapeId *ball_shape) {
  TessWorld *w = NULL;
  TessError err;
  if (tess_world_create(def, &w, &err) != TESS_OK) _exit(3);
  TessBodyDef bd;
  tess_body_def_default(&bd);
  bd.type = TESS_BODY_STATIC;
  bd.position = tess_v2(0, 2);
  TessBodyId ground;
  tess_body_create(w, &bd, &ground, &err);
  tess_shape_create_box(w, ground, NULL, 5.0f, 0.5f, tess_v2(0, 0), 0.0f, NULL, &err);
  bd.type = TESS_BODY_DYNAMIC;
  bd.position = tess_v2(0, 0);
  tess_body_create(w, &bd, ball, &err);
  tess_shape_create_circle(w, *ball, NULL, tess_v2(0, 0), 0.5f, ball_shape, &err);
  return w;
}

static bool run_inside_a_step(void) {
  TessWorldDef def;
  tess_world_def_default(&def);
  def.contact_begin_fn = misuse;
  TessBodyId ball;
  TessShapeId shape;
  TessWorld *w = ball_on_box(&def, &ball, &shape);
  TessError err;
  misuse_result = TESS_OK;
  for (int i = 0; i < 120 && misuse_result == TESS_OK; i++) tess_world_step(w, 1.0f / 60.0f, &err);
  tess_world_destroy(w);
  return misuse_result == TESS_ERR_LOCKED;
}

static bool step_inside(void) {
  misuse_kind = STEP_INSIDE;
  return run_inside_a_step();
}
static bool create_body_inside(void) {
  misuse_kind = CREATE_BODY_INSIDE;
  return run_inside_a_step();
}
static bool set_transform_inside(void) {
  misuse_kind = SET_TRANSFORM_INSIDE;
  return run_inside_a_step();
}
static bool restore_inside(void) {
  misuse_kind = RESTORE_INSIDE;
  return run_inside_a_step();
}

static void step_inside_a_step_asserts(void) { expect_assert(step_inside, "tess_world_step called during a step"); }
static void body_created_inside_a_step_asserts(void) {
  expect_assert(create_body_inside, "tess_body_create called during a step");
}
static void transform_set_inside_a_step_asserts(void) {
  expect_assert(set_transform_inside, "tess_body_set_transform called during a step");
}
static void restore_inside_a_step_asserts(void) {
  expect_assert(restore_inside, "tess_world_restore called during a step");
}

/* ---- Stale and wild handles --------------------------------------------- */

static TessWorld *world_with_destroyed_ball(TessBodyId *ball, TessShapeId *shape) {
  TessWorldDef def;
  tess_world_def_default(&def);
  TessWorld *w = ball_on_box(&def, ball, shape);
  if (!tess_shape_is_valid(w, *shape) || tess_body_destroy(w, *ball) != TESS_OK) _exit(5);
  return w;
}

static bool stale_body_setter(void) {
  TessBodyId ball;
  TessShapeId shape;
  TessWorld *w = world_with_destroyed_ball(&ball, &shape);
  bool documented = tess_body_set_linear_velocity(w, ball, tess_v2(1, 0)) == TESS_ERR_NOT_FOUND;
  tess_world_destroy(w);
  return documented;
}
static bool stale_body_getter(void) {
  TessBodyId ball;
  TessShapeId shape;
  TessWorld *w = world_with_destroyed_ball(&ball, &shape);
  bool documented = tess_body_mass(w, ball) == 0.0f;
  tess_world_destroy(w);
  return documented;
}
static bool body_destroyed_twice(void) {
  TessBodyId ball;
  TessShapeId shape;
  TessWorld *w = world_with_destroyed_ball(&ball, &shape);
  bool documented = tess_body_destroy(w, ball) == TESS_ERR_NOT_FOUND;
  tess_world_destroy(w);
  return documented;
}
static bool wild_body(void) {
  TessBodyId ball;
  TessShapeId shape;
  TessWorld *w = world_with_destroyed_ball(&ball, &shape);
  TessBodyId wild = {999, 1};
  TessVec2 p = tess_body_position(w, wild);
  tess_world_destroy(w);
  return p.x == 0.0f && p.y == 0.0f;
}
static bool stale_shape(void) {
  TessBodyId ball;
  TessShapeId shape;
  TessWorld *w = world_with_destroyed_ball(&ball, &shape);
  bool documented = tess_shape_destroy(w, shape) == TESS_ERR_NOT_FOUND;
  tess_world_destroy(w);
  return documented;
}
static bool stale_joint(void) {
  TessWorldDef def;
  tess_world_def_default(&def);
  TessBodyId ball;
  TessShapeId shape;
  TessWorld *w = ball_on_box(&def, &ball, &shape);
  TessRevoluteJointDef jd;
  tess_revolute_joint_def_default(&jd);
  jd.body_b = ball; /* pinned to the world */
  TessJointId j;
  TessError err;
  if (tess_joint_create_revolute(w, &jd, &j, &err) != TESS_OK || tess_joint_destroy(w, j) != TESS_OK) _exit(5);
  bool documented = tess_revolute_joint_set_motor(w, j, true, 1.0f, 1.0f) == TESS_ERR_NOT_FOUND;
  tess_world_destroy(w);
  return documented;
}

static void stale_body_handle_asserts_in_a_setter(void) {
  expect_assert(stale_body_setter, "stale or wild body handle");
}
static void stale_body_handle_asserts_in_a_getter(void) {
  expect_assert(stale_body_getter, "stale or wild body handle");
}
static void body_destroyed_twice_asserts(void) { expect_assert(body_destroyed_twice, "stale or wild body handle"); }
static void wild_body_handle_asserts(void) { expect_assert(wild_body, "stale or wild body handle"); }
static void stale_shape_handle_asserts(void) { expect_assert(stale_shape, "stale or wild shape handle"); }
static void stale_joint_handle_asserts(void) { expect_assert(stale_joint, "stale or wild joint handle"); }

/* Asking is not a mistake: the validity queries never assert. */
static void validity_queries_do_not_assert(void) {
  TessBodyId ball;
  TessShapeId shape;
  TessWorld *w = world_with_destroyed_ball(&ball, &shape);
  CHECK(!tess_body_is_valid(w, ball));
  CHECK(!tess_shape_is_valid(w, shape));
  TessJointId none = {7, 1};
  CHECK(!tess_joint_is_valid(w, none));
  tess_world_destroy(w);
}

TESS_TEST_MAIN(TEST(step_inside_a_step_asserts), TEST(body_created_inside_a_step_asserts),
               TEST(transform_set_inside_a_step_asserts), TEST(restore_inside_a_step_asserts),
               TEST(stale_body_handle_asserts_in_a_setter), TEST(stale_body_handle_asserts_in_a_getter),
               TEST(body_destroyed_twice_asserts), TEST(wild_body_handle_asserts), TEST(stale_shape_handle_asserts),
               TEST(stale_joint_handle_asserts), TEST(validity_queries_do_not_assert))
