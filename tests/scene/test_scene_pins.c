/* core/scene pin-on-overlap: the culled pair search (bounding circles swept
 * along x) gives exactly the joints of clipping every pair, on dense random
 * placements (all shapes, both pin modes, static, kinematic and sensor
 * bodies), on bodies touching or nearly touching, and far from the origin. */
#include "check.h"
#include "scene_private.h"
#include "tessera/level.h"
#include "tessera/scene.h"

typedef struct Fixture {
  TessProject *p;
  TessId level, objects, sprite, stone, cork;
} Fixture;

static void fixture_make(Fixture *f, uint32_t width_cells, uint32_t height_cells) {
  TessError err;
  memset(f, 0, sizeof *f);
  f->p = tess_project_create();
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "Stone");
  m.density = 2000.0f;
  CHECK_OK(tess_edit_material_add(f->p, &m, &f->stone, &err), &err);
  snprintf(m.name, sizeof m.name, "Cork");
  m.density = 240.0f;
  CHECK_OK(tess_edit_material_add(f->p, &m, &f->cork, &err), &err);
  /* a sprite of two convex pieces (an L), no pixel mass: the area decides */
  TessSprite s;
  memset(&s, 0, sizeof s);
  static uint8_t png[] = {0x89, 'P', 'N', 'G', 9};
  static TessVec2 hull[4] = {{0, 0}, {24, 0}, {24, 24}, {0, 24}};
  static TessPolygon pieces[2] = {{4, {{0, 0}, {8, 0}, {8, 24}, {0, 24}}}, {4, {{8, 16}, {24, 16}, {24, 24}, {8, 24}}}};
  snprintf(s.name, sizeof s.name, "L");
  s.png = png;
  s.png_size = sizeof png;
  s.image_w = 24;
  s.image_h = 24;
  s.frame_count = 1;
  s.anchor = tess_v2(12, 12);
  tess_sprite_mask_default(&s.mask);
  s.mask.hull_count = 4;
  s.mask.hull = hull;
  s.mask.piece_count = 2;
  s.mask.pieces = pieces;
  CHECK_OK(tess_edit_sprite_add(f->p, &s, &f->sprite, &err), &err);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Pins");
  ls.width = width_cells;
  ls.height = height_cells;
  ls.tile_w = ls.tile_h = 16;
  ls.ppm = 16.0f;
  CHECK_OK(tess_edit_level_add(f->p, &ls, &f->level, &err), &err);
  TessLevel *level = tess_project_level(f->p, f->level);
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) f->objects = level->layers[i]->props.id;
}

static void add_body(Fixture *f, TessBodyShape shape, TessBodyType type, TessPinMode pin, bool sensor, float x, float y,
                     float angle, float a, float b) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = tess_v2(x, y);
  o.angle = angle;
  o.u.body.shape = (uint8_t)shape;
  o.u.body.type = (uint8_t)type;
  o.u.body.pin = (uint8_t)pin;
  o.u.body.sensor = sensor;
  o.u.body.material = (x > y) ? f->stone : f->cork;
  o.u.body.radius = a;
  o.u.body.width = a;
  o.u.body.height = b;
  o.u.body.sprite = f->sprite;
  TessError err;
  CHECK_OK(tess_edit_object_add(f->p, f->level, f->objects, &o, NULL, &err), &err);
  tess_object_clear(&o);
}

/* Resolves the level, then redoes its overlap pins with every pair clipped
 * and compares the joints byte for byte. Returns the number of pins. */
static uint32_t check_against_all_pairs(Fixture *f) {
  TessError err;
  TessScene *s = NULL;
  CHECK_OK(tess_scene_from_level(f->p, tess_project_level(f->p, f->level), &s, &err), &err);
  if (!s) return 0;
  uint32_t level_joints = 0;
  while (level_joints < s->joint_count && !s->joints[level_joints].from_overlap) level_joints++;
  uint32_t culled_count = s->joint_count;
  TessSceneJoint *culled = tess_alloc((size_t)(culled_count ? culled_count : 1) * sizeof *culled);
  if (culled_count) memcpy(culled, s->joints, culled_count * sizeof *culled);
  s->joint_count = level_joints;
  CHECK_OK(scene_resolve_pins_all_pairs(s, &err), &err);
  CHECK_MSG(s->joint_count == culled_count, "all pairs give %u joints, the culled search %u", s->joint_count,
            culled_count);
  if (s->joint_count == culled_count && culled_count)
    CHECK(memcmp(culled, s->joints, culled_count * sizeof *culled) == 0);
  uint32_t pins = culled_count - level_joints;
  tess_free(culled);
  tess_scene_destroy(s);
  return pins;
}

static void random_dense_placements_match_all_pairs(void) {
  TessTestRng rng = {0x5eed1234abcdull};
  uint32_t total = 0;
  for (int round = 0; round < 12; round++) {
    Fixture f;
    fixture_make(&f, 24, 16);
    uint32_t bodies = 60 + tess_rng_below(&rng, 90);
    for (uint32_t i = 0; i < bodies; i++) {
      TessBodyShape shape = (TessBodyShape)tess_rng_below(&rng, 4);
      TessBodyType type = tess_rng_below(&rng, 6) == 0   ? TESS_BODY_STATIC
                          : tess_rng_below(&rng, 6) == 0 ? TESS_BODY_KINEMATIC
                                                         : TESS_BODY_DYNAMIC;
      TessPinMode pin = (TessPinMode)(tess_rng_below(&rng, 3) == 0 ? 1 + tess_rng_below(&rng, 2) : 0);
      float a = 2.0f + 30.0f * (float)tess_rng_unit(&rng), b = 4.0f + 20.0f * (float)tess_rng_unit(&rng);
      add_body(&f, shape, type, pin, tess_rng_below(&rng, 12) == 0, 8.0f + 368.0f * (float)tess_rng_unit(&rng),
               8.0f + 240.0f * (float)tess_rng_unit(&rng), (float)(6.28 * tess_rng_unit(&rng)), a, b);
    }
    total += check_against_all_pairs(&f);
    tess_project_destroy(f.p);
  }
  CHECK_MSG(total > 200, "only %u pins: the placements are not dense enough to test anything", total);
}

/* Pairs at the edge of the cull: touching, a hair apart, a hair overlapping
 * (boxes, circles and capsules, turned), and far from the origin, where
 * float spacing is widest. */
static void touching_and_far_pairs_match_all_pairs(void) {
  const float origins[2][2] = {{100.0f, 100.0f}, {29000.0f, 60.0f}};
  const float gaps[] = {-0.5f, -0.01f, 0.0f, 0.001f, 0.01f, 0.5f};
  uint32_t pins = 0;
  for (int o = 0; o < 2; o++) {
    Fixture f;
    fixture_make(&f, 2000, 10);
    float ox = origins[o][0], oy = origins[o][1];
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
      float y = oy + 0.0f, gap = gaps[g];
      float x = ox + 400.0f * (float)g;
      /* two boxes side by side: 20 px wide, centres 20 + gap apart */
      add_body(&f, TESS_BODY_BOX, TESS_BODY_DYNAMIC, TESS_PIN_AT_OVERLAP_CENTRE, false, x, y, 0.0f, 20.0f, 10.0f);
      add_body(&f, TESS_BODY_BOX, TESS_BODY_DYNAMIC, TESS_PIN_NONE, false, x + 20.0f + gap, y, 0.0f, 20.0f, 10.0f);
      /* two circles of radius 6 */
      add_body(&f, TESS_BODY_CIRCLE, TESS_BODY_DYNAMIC, TESS_PIN_AT_SMALLER_CENTROID, false, x + 100.0f, y, 0.0f, 6.0f, 0.0f);
      add_body(&f, TESS_BODY_CIRCLE, TESS_BODY_STATIC, TESS_PIN_NONE, false, x + 112.0f + gap, y, 0.0f, 6.0f, 0.0f);
      /* two capsules end to end, turned a quarter */
      add_body(&f, TESS_BODY_CAPSULE, TESS_BODY_DYNAMIC, TESS_PIN_AT_OVERLAP_CENTRE, false, x + 200.0f, y, 1.5707964f, 30.0f,
               8.0f);
      add_body(&f, TESS_BODY_CAPSULE, TESS_BODY_DYNAMIC, TESS_PIN_AT_OVERLAP_CENTRE, false, x + 200.0f, y + 30.0f + gap,
               1.5707964f, 30.0f, 8.0f);
      /* a sprite L against a box */
      add_body(&f, TESS_BODY_SPRITE, TESS_BODY_DYNAMIC, TESS_PIN_AT_SMALLER_CENTROID, false, x + 300.0f, y, 0.0f, 0.0f, 0.0f);
      add_body(&f, TESS_BODY_BOX, TESS_BODY_KINEMATIC, TESS_PIN_NONE, false, x + 317.0f + gap, y, 0.0f, 10.0f, 10.0f);
    }
    pins += check_against_all_pairs(&f);
    tess_project_destroy(f.p);
  }
  /* the overlapping placements (gaps < 0) pin on both sides of the origin */
  CHECK_MSG(pins >= 2 * 2 * 3, "%u pins", pins);
}

TESS_TEST_MAIN(TEST(random_dense_placements_match_all_pairs), TEST(touching_and_far_pairs_match_all_pairs))
