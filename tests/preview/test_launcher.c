/* Launchers (issue 15): a level object that fires projectiles, aimed with
 * tessera/aim.h. Checks that a launcher survives every place a level goes
 * (the store, the text form, the content hash, the scene in metres), and
 * that in Play a projectile fired along an aimed arc passes through the
 * target: its centre, sampled at every sub-step of the real world, comes
 * within 5 mm of the target for both arcs of a fixed speed and for the
 * slowest shot of "any speed"; a target out of reach gives no arc. */
#include "project_fixture.h"
#include "check.h"
#include "tessera/aim.h"
#include "tessera/level.h"
#include "tessera/store.h"
#include "tessera/textform.h"
#include "tessera/pack.h"
#include "tessera/scene.h"
#include "tlv_reader.h"

#define PPM 32.0f

typedef struct Range {
  TessProject *p;
  TessLevel *level;
  TessId objects, launcher, any_speed;
} Range;

/* An open sky, 40 x 20 cells of 32 px (32 px a metre), no walls: nothing in the way. */
static void make_range(Range *r) {
  TessError err;
  memset(r, 0, sizeof *r);
  r->p = tess_project_create();
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "Rubber");
  m.density = 1100.0f;
  CHECK_OK(tess_edit_material_add(r->p, &m, NULL, &err), &err);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "Range");
  s.width = 40;
  s.height = 20;
  s.tile_w = s.tile_h = 32;
  s.ppm = PPM;
  TessId id = 0;
  CHECK_OK(tess_edit_level_add(r->p, &s, &id, &err), &err);
  r->level = tess_project_level(r->p, id);
  for (uint32_t i = 0; r->level && i < r->level->layer_count; i++)
    if (r->level->layers[i]->props.kind == TESS_LAYER_OBJECTS) r->objects = r->level->layers[i]->props.id;
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_LAUNCHER);
  snprintf(o.name, sizeof o.name, "Mortar");
  o.pos = tess_v2(96.0f, 544.0f); /* (3, 17) m */
  o.u.launcher.speed = 12.0f;
  o.u.launcher.radius = 6.0f;
  CHECK_OK(tess_edit_object_add(r->p, id, r->objects, &o, &r->launcher, &err), &err);
  snprintf(o.name, sizeof o.name, "Any speed");
  o.pos = tess_v2(96.0f, 320.0f); /* (3, 10) m */
  o.u.launcher.speed = 0.0f;
  CHECK_OK(tess_edit_object_add(r->p, id, r->objects, &o, &r->any_speed, &err), &err);
  tess_object_clear(&o);
}

static float segment_distance(TessVec2 a, TessVec2 b, TessVec2 p) {
  TessVec2 ab = tess_v2_sub(b, a);
  float len2 = tess_v2_length_sq(ab);
  float t = len2 > 0.0f ? tess_v2_dot(tess_v2_sub(p, a), ab) / len2 : 0.0f;
  t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f
                                 : t;
  return tess_v2_distance(tess_v2_mul_add(a, t, ab), p);
}

/* Fires launcher `index` along `s` and flies the projectile for the arc's
 * time and a little more; returns how close its centre came to `target`. */
static float fly(TessPreviewLevel *pl, uint32_t index, const TessAimSolution *s, TessVec2 target) {
  TessError err;
  TessBodyId ball = {0, 0};
  CHECK_OK(tess_preview_level_fire(pl, index, s->velocity, &ball, &err), &err);
  TessWorld *w = tess_playback_world(pl->playback);
  if (!tess_body_is_valid(w, ball)) return INFINITY;
  TessVec2 last = tess_body_world_center(w, ball);
  float closest = tess_v2_distance(last, target);
  uint32_t steps = (uint32_t)(s->time * pl->scene->physics_hz) + 3;
  for (uint32_t k = 0; k < steps; k++) {
    CHECK_OK(tess_playback_step(pl->playback, &err), &err);
    TessVec2 now = tess_body_world_center(w, ball);
    float d = segment_distance(last, now, target);
    if (d < closest) closest = d;
    last = now;
  }
  return closest;
}

static void projectiles_hit_their_targets(void) {
  Range r;
  make_range(&r);
  TessError err;
  TessPreviewLevel *pl = NULL;
  CHECK_OK(tess_preview_level_create(r.p, r.level, 0, &pl, &err), &err);
  if (!pl) {
    tess_project_destroy(r.p);
    return;
  }
  CHECK(pl->scene->launcher_count == 2);
  uint32_t mortar = 0, any = 1;
  CHECK(tess_preview_level_pick_launcher(pl, tess_v2(3.1f, 17.0f), 0.5f, &mortar) && mortar == 0);
  CHECK(tess_preview_level_pick_launcher(pl, tess_v2(3.0f, 10.2f), 0.5f, &any) && any == 1);
  CHECK(!tess_preview_level_pick_launcher(pl, tess_v2(20.0f, 5.0f), 0.5f, &any));
  const TessSceneLauncher *l = &pl->scene->launchers[0];
  CHECK(l->speed == 12.0f && fabsf(l->radius - 6.0f / PPM) < 1e-7f && l->position.x == 3.0f && l->position.y == 17.0f);
  TessVec2 g = tess_world_gravity(tess_playback_world(pl->playback));
  /* Targets up, level and down range: two arcs each at 12 m/s. */
  const TessVec2 targets[] = {{12.0f, 14.0f}, {15.0f, 17.0f}, {10.0f, 18.5f}};
  for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
    TessAimSolution s[2];
    uint32_t n = 0;
    CHECK_OK(tess_aim_launcher(l->position, l->speed, targets[t], g, s, &n, &err), &err);
    CHECK_MSG(n == 2, "target %zu: %u arcs", t, n);
    for (uint32_t k = 0; k < n; k++) {
      CHECK_NEAR(tess_v2_length(s[k].velocity), 12.0, 1e-3);
      float miss = fly(pl, 0, &s[k], targets[t]);
      printf("  12 m/s to (%.1f, %.1f), %s arc (%.2f s): passes %.2f mm from the target\n", (double)targets[t].x,
             (double)targets[t].y, k ? "high" : "low", (double)s[k].time, (double)miss * 1000.0);
      CHECK_MSG(miss <= 0.005f, "target %zu arc %u passes %.4f m away", t, k, (double)miss);
    }
  }
  /* Any speed: the one slowest shot, which also passes through. */
  const TessSceneLauncher *la = &pl->scene->launchers[1];
  TessVec2 far = {20.0f, 6.0f};
  TessAimSolution s[2];
  uint32_t n = 0;
  CHECK_OK(tess_aim_launcher(la->position, la->speed, far, g, s, &n, &err), &err);
  CHECK(n == 1);
  if (n == 1) {
    TessAimSolution slow;
    bool found = false;
    CHECK_OK(tess_aim_min_speed(la->position, far, g, &slow, &found, &err), &err);
    CHECK(found && slow.velocity.x == s[0].velocity.x && slow.velocity.y == s[0].velocity.y);
    float miss = fly(pl, 1, &s[0], far);
    printf("  any speed to (20, 6): %.2f m/s, passes %.2f mm from the target\n", (double)tess_v2_length(s[0].velocity),
           (double)miss * 1000.0);
    CHECK_MSG(miss <= 0.005f, "the slowest shot passes %.4f m away", (double)miss);
  }
  /* Out of reach at 12 m/s: 30 m away level needs sqrt(30 g) = 17.2 m/s. */
  CHECK_OK(tess_aim_launcher(l->position, l->speed, tess_v2(33.0f, 17.0f), g, s, &n, &err), &err);
  CHECK(n == 0);
  /* Without the sub-step correction the world would land g h t / 2 lower:
   * the corrected launch differs from the aimed one by exactly g h / 2. */
  float h = 1.0f / (pl->scene->physics_hz * (float)pl->scene->substeps);
  TessVec2 v = tess_aim_for_substeps(tess_v2(5.0f, -5.0f), g, h);
  CHECK_NEAR(v.y, -5.0 - 0.5 * g.y * h, 1e-6);
  CHECK(tess_preview_level_fire(pl, 7, tess_v2(1, 0), NULL, &err) == TESS_ERR_NOT_FOUND);
  tess_preview_level_destroy(pl);
  tess_project_destroy(r.p);
}

static const TessObject *find(const TessProject *p, TessId id) {
  for (uint32_t i = 0; i < p->level_count; i++) {
    const TessObject *o = tess_level_object(p->levels[i], id, NULL);
    if (o) return o;
  }
  return NULL;
}

static void same_launcher(const TessObject *a, const TessObject *b) {
  CHECK(a && b);
  if (!a || !b) return;
  CHECK(b->kind == TESS_OBJECT_LAUNCHER && strcmp(a->name, b->name) == 0);
  CHECK(a->pos.x == b->pos.x && a->pos.y == b->pos.y);
  CHECK(a->u.launcher.speed == b->u.launcher.speed && a->u.launcher.radius == b->u.launcher.radius);
  CHECK(a->u.launcher.material == b->u.launcher.material && a->u.launcher.sprite == b->u.launcher.sprite);
}

/* A launcher goes through the store and the text form unchanged (same
 * project hash), and its fields are part of the content hash. */
static void launchers_round_trip(void) {
  Range r;
  make_range(&r);
  TessError err;
  TessObject o;
  CHECK_OK(tess_object_copy(&o, find(r.p, r.launcher)), &err);
  o.u.launcher.material = r.p->materials[0].id;
  CHECK_OK(tess_edit_object_set(r.p, r.level->id, &o, 0, &err), &err);
  uint64_t h = tess_level_content_hash(r.p, r.level);
  char path[1024], dir[1024];
  tess_test_path(path, sizeof path, "range.tessera");
  TessStore *st = NULL;
  CHECK_OK(tess_store_open(path, TESS_STORE_CREATE, &st, &err), &err);
  if (st) {
    CHECK_OK(tess_store_save_all(st, r.p, &err), &err);
    tess_store_close(st);
  }
  TessProject *back = tess_test_load_read_only(path);
  if (back) {
    same_launcher(&o, find(back, r.launcher));
    CHECK(tess_project_hash(back) == tess_project_hash(r.p));
    tess_project_destroy(back);
  }
  tess_test_path(dir, sizeof dir, "range-dump");
  CHECK_OK(tess_text_dump(r.p, dir, &err), &err);
  TessProject *loaded = NULL;
  CHECK_OK(tess_text_load(dir, NULL, &loaded, &err), &err);
  if (loaded) {
    same_launcher(&o, find(loaded, r.launcher));
    CHECK(tess_project_hash(loaded) == tess_project_hash(r.p));
    tess_project_destroy(loaded);
  }
  o.u.launcher.speed = 13.0f;
  CHECK_OK(tess_edit_object_set(r.p, r.level->id, &o, 0, &err), &err);
  CHECK(tess_level_content_hash(r.p, r.level) != h);
  o.u.launcher.speed = -1.0f;
  CHECK(tess_edit_object_set(r.p, r.level->id, &o, 0, &err) == TESS_ERR_INVALID);
  o.u.launcher.speed = 13.0f;
  o.u.launcher.radius = 0.0f;
  CHECK(tess_edit_object_set(r.p, r.level->id, &o, 0, &err) == TESS_ERR_INVALID);
  tess_object_clear(&o);
  tess_project_destroy(r.p);
}

/* A game finds launchers too: the .tlv (3.5) holds them, the reader checks
 * them, and the scene a game makes from the file equals the editor's. */
static void launchers_reach_the_game(void) {
  Range r;
  make_range(&r);
  TessError err;
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(r.p, r.level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  TlvError terr;
  if (data && tlv_open(data, size, 0, &lv, &terr) == TLV_OK) {
    CHECK(lv.header.minor == TLV_VERSION_MINOR && lv.launchers.count == 2);
    TlvLauncher l;
    CHECK(tlv_launcher(&lv, 0, &l) && l.speed == 12.0f && l.x == 3.0f && l.y == 17.0f);
    CHECK(strcmp(tlv_string(&lv, l.name), "Mortar") == 0);
    CHECK(tlv_launcher(&lv, 1, &l) && l.speed == 0.0f);
    TessScene *game = NULL, *editor = NULL;
    CHECK_OK(tess_scene_from_pack(&lv, &game, &err), &err);
    CHECK_OK(tess_scene_from_level(r.p, r.level, &editor, &err), &err);
    CHECK(game && editor && tess_scene_equal(game, editor) && tess_scene_hash(game) == tess_scene_hash(editor));
    tess_scene_destroy(game);
    tess_scene_destroy(editor);
    /* A speed beyond 1000 m/s in the file is refused, naming the launcher. */
    for (uint32_t k = 0; k < size; k++) {
      float f;
      memcpy(&f, data + k, 4);
      if (k % 4 == 0 && f == 12.0f && k >= lv.launchers.offset && k < lv.launchers.offset + lv.launchers.size) {
        float bad = 2000.0f;
        memcpy(data + k, &bad, 4);
        CHECK(tlv_open(data, size, TLV_OPEN_SKIP_CHECKSUMS, &lv, &terr) == TLV_ERR_VALUE);
        CHECK(strstr(terr.message, "launcher 0") != NULL);
        break;
      }
    }
  } else {
    CHECK_MSG(0, "the level's .tlv does not open: %s", terr.message);
  }
  tess_free(data);
  tess_project_destroy(r.p);
}

TESS_TEST_MAIN(TEST(projectiles_hit_their_targets), TEST(launchers_round_trip), TEST(launchers_reach_the_game))
