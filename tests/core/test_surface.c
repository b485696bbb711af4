/* core/base's surface vocabulary: one default, one range check, one mix,
 * and the places that used to write them out agree with it. */
#include "check.h"
#include "tessera/level.h"
#include "tessera/physics.h"
#include "tessera/scene.h"

static void defaults_come_from_one_place(void) {
  TessSurface s = tess_surface_default();
  CHECK(s.friction == TESS_FRICTION_DEFAULT && s.restitution == 0.0f && s.tangential == 1.0f);
  TessShapeDef def;
  tess_shape_def_default(&def);
  CHECK(def.friction == s.friction && def.restitution == s.restitution && def.tangential == s.tangential);
  TessMaterial m;
  tess_material_default(&m);
  CHECK(m.friction == s.friction && m.tangential == s.tangential);
  TessSceneMaterial sm;
  tess_scene_material_default(&sm);
  CHECK(sm.friction == s.friction && sm.restitution == s.restitution && sm.tangential == s.tangential);
  CHECK(sm.density == 1.0f && sm.kind == TESS_MATERIAL_FLOOR && sm.id == 0);
}

static void range_check_names_the_field(void) {
  TessSurface s = tess_surface_default();
  CHECK(tess_surface_bad_field(s) == NULL);
  TessError err;
  s.friction = TESS_FRICTION_MAX; /* the ends are inside */
  s.restitution = 1.0f;
  s.tangential = 0.0f;
  CHECK(tess_surface_check(s, "material", "p.tessera", &err) == TESS_OK);
  s.restitution = 1.5f;
  CHECK(strcmp(tess_surface_bad_field(s), "restitution") == 0);
  CHECK(tess_surface_check(s, "material", "p.tessera", &err) == TESS_ERR_INVALID);
  CHECK_MSG(strcmp(err.detail, "material restitution 1.5 is outside [0, 1]") == 0, "%s", err.detail);
  CHECK(strcmp(err.file, "p.tessera") == 0);
  s.restitution = 0.5f;
  s.tangential = NAN;
  CHECK(tess_surface_check(s, "shape", "shape", &err) == TESS_ERR_INVALID);
  CHECK_MSG(strcmp(err.detail, "shape tangential is NaN") == 0, "%s", err.detail);
  s.tangential = 1.0f;
  s.friction = INFINITY;
  CHECK(tess_surface_check(s, "shape", "shape", &err) == TESS_ERR_INVALID);
  CHECK_MSG(strcmp(err.detail, "shape friction is infinite") == 0, "%s", err.detail);
  s.friction = -0.01f;
  CHECK(strcmp(tess_surface_bad_field(s), "friction") == 0);
  /* The three callers refuse what the check refuses. */
  TessMaterial m;
  tess_material_default(&m);
  m.friction = 101.0f;
  CHECK(tess_material_validate(&m, &err) == TESS_ERR_INVALID);
  CHECK_MSG(strstr(err.detail, "material friction 101 is outside [0, 100]") != NULL, "%s", err.detail);
}

static void mix_is_geometric_mean_and_product(void) {
  TessSurface a = {0.25f, 0.5f, 0.8f}, b = {1.0f, 0.9f, 0.5f};
  TessSurface m = tess_surface_mix(a, b);
  CHECK_NEAR(m.friction, 0.5, 1e-7);
  CHECK_NEAR(m.restitution, 0.45, 1e-7);
  CHECK_NEAR(m.tangential, 0.4, 1e-7);
  TessMaterialMix old = tess_material_mix(0.25f, 0.5f, 0.8f, 1.0f, 0.9f, 0.5f);
  CHECK(old.friction == m.friction && old.restitution == m.restitution && old.tangential == m.tangential);
}

TESS_TEST_MAIN(TEST(defaults_come_from_one_place), TEST(range_check_names_the_field),
               TEST(mix_is_geometric_mean_and_product))
