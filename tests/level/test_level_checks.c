/* core/level's checks (tess_level_check, tess_project_check) against the
 * pack writer: every error the checks name is a level export refuses with
 * the same sentence, and a level with no error exports; the limits on
 * object sizes, positions and masses; names that are not UTF-8 refused at
 * the edit API; PNG bytes of another size than the project declares
 * refused at every edit (issue 11, items 1, 4, 5 and 6). */
#include "check.h"
#include "fixture.h"
#include "pack_fixture.h"
#include "tessera/image.h"
#include "tessera/pack.h"

typedef struct Seen {
  uint32_t errors, warnings;
  char first[400];
  TessId first_object;
} Seen;

static void collect(const TessProblem *pb, void *user) {
  Seen *s = user;
  if (pb->severity == TESS_PROBLEM_ERROR && s->errors++ == 0) {
    snprintf(s->first, sizeof s->first, "%s", pb->detail);
    s->first_object = pb->object;
  }
  if (pb->severity == TESS_PROBLEM_WARNING) s->warnings++;
}

static Seen check_level(const TessProject *p, TessId level) {
  Seen s;
  memset(&s, 0, sizeof s);
  uint32_t n = tess_level_check(p, tess_project_level(p, level), collect, &s);
  CHECK(n == s.errors);
  return s;
}

/* The checks and the writer agree on this level: an error is export's refusal, word for word. */
static void check_agrees_with_export(const TessProject *p, TessId level, const char *expect) {
  Seen s = check_level(p, level);
  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  tess_error_clear(&err);
  TessResult r = tess_pack_write(p, tess_project_level(p, level), NULL, &data, &size, &err);
  tess_free(data);
  if (!expect) {
    CHECK_MSG(s.errors == 0 && r == TESS_OK, "errors %u (%s), export %s: %s", s.errors, s.first, tess_result_string(r),
              err.detail);
    return;
  }
  CHECK_MSG(s.errors >= 1 && strstr(s.first, expect), "expected '%s', first error '%s'", expect, s.first);
  CHECK_MSG(r != TESS_OK && strcmp(err.detail, s.first) == 0, "export: %s / check: %s", err.detail, s.first);
}

/* Puts an object in as a file load would (the edit API refuses some of these). */
static TessId insert(Fixture *f, TessObject *o, TessId id) {
  TessError err;
  o->id = id;
  CHECK_OK(tess_layer_insert_object(f->p, tess_level_layer(tess_project_level(f->p, f->level), f->objects), o, &err),
           &err);
  return id;
}

static void references_validate_used_to_pass_are_errors(void) {
  Fixture f;
  fixture_make(&f);
  check_agrees_with_export(f.p, f.level, NULL);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = tess_v2(40, 40);
  o.u.body.shape = TESS_BODY_SPRITE;
  o.u.body.sprite = 4242;
  snprintf(o.name, sizeof o.name, "ghost");
  TessId ghost = insert(&f, &o, 9000);
  check_agrees_with_export(f.p, f.level, "sprite 4242 does not exist");
  CHECK(check_level(f.p, f.level).first_object == ghost);
  TessError err;
  CHECK_OK(tess_edit_object_remove(f.p, f.level, ghost, &err), &err);
  /* A joint joining a body to itself. */
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = tess_v2(40, 40);
  TessId body = 0;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &body, &err), &err);
  tess_object_default(&o, TESS_OBJECT_JOINT);
  o.u.joint.body_a = o.u.joint.body_b = body;
  snprintf(o.name, sizeof o.name, "loop");
  TessId loop = insert(&f, &o, body + 1000);
  check_agrees_with_export(f.p, f.level, "joins body");
  CHECK_OK(tess_edit_object_remove(f.p, f.level, loop, &err), &err);
  check_agrees_with_export(f.p, f.level, NULL);
  fixture_free(&f);
}

static void object_sizes_and_masses_are_bounded(void) {
  Fixture f;
  fixture_make(&f);
  TessError err;
  TessObject o;
  /* The edit API refuses a 1e19 px box and a 2e10 px radius, naming the limit. */
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = tess_v2(40, 40);
  o.u.body.shape = TESS_BODY_BOX;
  o.u.body.width = o.u.body.height = 1e19f;
  CHECK(tess_edit_object_add(f.p, f.level, f.objects, &o, NULL, &err) == TESS_ERR_LIMIT &&
        strstr(err.detail, "16777216 px"));
  o.u.body.shape = TESS_BODY_CIRCLE;
  o.u.body.width = o.u.body.height = 32;
  o.u.body.radius = 2e10f;
  CHECK(tess_edit_object_add(f.p, f.level, f.objects, &o, NULL, &err) == TESS_ERR_LIMIT);
  o.u.body.radius = 16;
  o.pos = tess_v2(1e30f, 0);
  CHECK(tess_edit_object_add(f.p, f.level, f.objects, &o, NULL, &err) == TESS_ERR_LIMIT);
  /* The largest size is accepted at the default 32 px per metre and exports. */
  o.pos = tess_v2(40, 40);
  o.u.body.radius = TESS_OBJECT_MAX_PX;
  TessId big = 0;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &big, &err), &err);
  check_agrees_with_export(f.p, f.level, NULL);
  /* At the fewest pixels per metre that body's moment of inertia
   * (0.5 m r^2, r = 1.7e9 m) passes 1e30: refused by the checks and export alike. */
  TessLevelSettings st = tess_project_level(f.p, f.level)->settings;
  st.ppm = TESS_LEVEL_MIN_PPM;
  CHECK_OK(tess_edit_level_set(f.p, f.level, &st, 0, 0, &err), &err);
  check_agrees_with_export(f.p, f.level, "moment of inertia");
  CHECK(check_level(f.p, f.level).first_object == big);
  CHECK_OK(tess_project_undo(f.p, &err), &err);
  check_agrees_with_export(f.p, f.level, NULL);
  fixture_free(&f);
}

/* What only the scene refuses (a sprite piece that is not convex) is in the
 * list too, as the sentence export refuses with. */
static void scene_refusals_are_errors_too(void) {
  Fixture f;
  fixture_make(&f);
  TessError err;
  TessSprite s;
  fixture_sprite(&s, "Arrow");
  static TessPolygon dart = {4, {{0, 0}, {8, 4}, {0, 8}, {3, 4}}}; /* a reflex vertex at (3, 4) */
  s.mask.pieces = &dart;
  TessId sprite = 0;
  CHECK_OK(tess_edit_sprite_add(f.p, &s, &sprite, &err), &err);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = tess_v2(40, 40);
  o.u.body.shape = TESS_BODY_SPRITE;
  o.u.body.sprite = sprite;
  TessId body = 0;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &body, &err), &err);
  Seen seen = check_level(f.p, f.level);
  uint8_t *data = NULL;
  size_t size = 0;
  tess_error_clear(&err);
  CHECK(tess_pack_write(f.p, tess_project_level(f.p, f.level), NULL, &data, &size, &err) != TESS_OK);
  tess_free(data);
  CHECK_MSG(seen.errors == 1 && err.detail[0] && strstr(seen.first, err.detail), "check: %s / export: %s", seen.first,
            err.detail);
  CHECK_OK(tess_edit_object_remove(f.p, f.level, body, &err), &err);
  check_agrees_with_export(f.p, f.level, NULL);
  fixture_free(&f);
}

static void random_levels_pass_the_checks_and_export(void) {
  for (uint64_t seed = 1; seed <= 6; seed++) {
    PackFixtureSpec spec;
    pack_fixture_spec_default(&spec);
    spec.levels = 2;
    TessProject *p = pack_fixture_project(seed, &spec);
    CHECK(p != NULL);
    for (uint32_t i = 0; p && i < p->level_count; i++) check_agrees_with_export(p, p->levels[i]->id, NULL);
    tess_project_destroy(p);
  }
}

static void names_must_be_utf8(void) {
  Fixture f;
  fixture_make(&f);
  TessError err;
  static const char *bad[] = {"\xC3\x28", "Cave\xFF", "\xED\xA0\x80", "\xC0\x80", "\xF4\x90\x80\x80", "ab\xE2\x82"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    TessLevelSettings st;
    tess_level_settings_default(&st);
    snprintf(st.name, sizeof st.name, "%s", bad[i]);
    CHECK_MSG(tess_edit_level_add(f.p, &st, NULL, &err) == TESS_ERR_INVALID && strstr(err.detail, "UTF-8"), "%zu", i);
    CHECK(tess_edit_layer_add(f.p, f.level, TESS_LAYER_TILES, bad[i], -1, NULL, &err) == TESS_ERR_INVALID);
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_SPAWN);
    snprintf(o.name, sizeof o.name, "%s", bad[i]);
    CHECK(tess_edit_object_add(f.p, f.level, f.objects, &o, NULL, &err) == TESS_ERR_INVALID);
    TessMaterial m;
    tess_material_default(&m);
    snprintf(m.name, sizeof m.name, "%s", bad[i]);
    CHECK(tess_edit_material_add(f.p, &m, NULL, &err) == TESS_ERR_INVALID);
    TessSprite s;
    fixture_sprite(&s, bad[i]);
    CHECK(tess_edit_sprite_add(f.p, &s, NULL, &err) == TESS_ERR_INVALID && strstr(err.detail, "sprite name"));
    TessTileset ts;
    CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(f.p, f.tileset)), &err);
    snprintf(ts.name, sizeof ts.name, "%s", bad[i]);
    CHECK(tess_edit_tileset_set(f.p, &ts, 0, &err) == TESS_ERR_INVALID && strstr(err.detail, "tileset name"));
    tess_tileset_clear(&ts);
  }
  /* Text in any script is a name. */
  TessId id = 0;
  CHECK_OK(tess_edit_layer_add(f.p, f.level, TESS_LAYER_TILES, "H\xC3\xB6hle \xE6\xB4\x9E \xF0\x9F\x8C\x8A", -1, &id, &err), &err);
  fixture_free(&f);
}

static bool real_png(uint32_t w, uint32_t h, uint8_t **data, size_t *size) {
  TessImage img;
  if (tess_image_create(w, h, &img, NULL) != TESS_OK) return false;
  TessResult r = tess_png_encode(tess_image_view(&img), data, size, NULL);
  tess_image_clear(&img);
  return r == TESS_OK;
}

static void png_bytes_of_another_size_are_refused(void) {
  Fixture f;
  fixture_make(&f);
  TessError err;
  uint8_t *one = NULL, *right = NULL;
  size_t one_size = 0, right_size = 0;
  CHECK(real_png(1, 1, &one, &one_size) && real_png(64, 64, &right, &right_size));
  /* Reloading the tileset's PNG with a 1x1 file (the declared size kept) is refused. */
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(f.p, f.tileset)), &err);
  tess_free(ts.png);
  ts.png = one;
  ts.png_size = one_size;
  CHECK(tess_edit_tileset_set(f.p, &ts, 0, &err) == TESS_ERR_FORMAT && strstr(err.detail, "1x1") &&
        strstr(err.detail, "64x64"));
  ts.png = NULL;
  ts.png_size = 0;
  tess_tileset_clear(&ts);
  /* The right size is accepted. */
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(f.p, f.tileset)), &err);
  tess_free(ts.png);
  ts.png = right;
  ts.png_size = right_size;
  CHECK_OK(tess_edit_tileset_set(f.p, &ts, 0, &err), &err);
  ts.png = NULL;
  ts.png_size = 0;
  tess_tileset_clear(&ts);
  /* A sprite whose PNG is 1x1 while it says 16x8. */
  TessSprite s;
  fixture_sprite(&s, "tiny");
  s.png = one;
  s.png_size = one_size;
  CHECK(tess_edit_sprite_add(f.p, &s, NULL, &err) == TESS_ERR_FORMAT && strstr(err.detail, "sprite 'tiny'"));
  /* A new tileset made from 64x64 bytes that says 128x64. */
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.png = right;
  def.png_size = right_size;
  def.image_w = 128;
  def.image_h = 64;
  CHECK(tess_edit_tileset_add(f.p, &def, NULL, &err) == TESS_ERR_FORMAT);
  tess_free(one);
  tess_free(right);
  fixture_free(&f);
}

TESS_TEST_MAIN(TEST(references_validate_used_to_pass_are_errors), TEST(object_sizes_and_masses_are_bounded),
               TEST(scene_refusals_are_errors_too), TEST(random_levels_pass_the_checks_and_export), TEST(names_must_be_utf8),
               TEST(png_bytes_of_another_size_are_refused))
