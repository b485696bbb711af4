/* Static sprite bodies that collide by their pixels (issue 15), from a real
 * project (sprites as real PNGs) to the preview's and the game's worlds:
 * a ball rests in a round hollow of a turned body, its normal radial; a ball
 * runs down a turned plank at g sin t (frictionless) or 2/3 g sin t
 * (rolling); carving the body's mask through the runtime API drops the ball;
 * the .tlv (3.9) carries the mask with its body so that the game's scene and
 * world equal the preview's; the flag comes back from the .tlv and from a
 * saved project; hostile body-mask fields are refused with their byte;
 * bodies moved through the runtime API take their masks along, the same in
 * the preview and the game, on any worker count. */
#include <sqlite3.h>
#include <string.h>

#include "check.h"
#include "schema_fixture.h"
#include "tessera/image.h"
#include "tessera/pack.h"
#include "tessera/runtime.h"
#include "tessera/store.h"
#include "tessera/textform.h"
#include "tlv_reader.h"
#include "tlv_reseal.h"

#define PI 3.14159265358979
#define PPM 32.0f
#define G 9.81f

typedef bool (*OpaqueFn)(uint32_t x, uint32_t y);

/* A sprite of w x h pixels, opaque where fn says, as a real PNG, its anchor at `anchor`. */
static TessId add_sprite(TessProject *p, const char *name, uint32_t w, uint32_t h, OpaqueFn fn, TessVec2 anchor) {
  uint8_t *rgba = calloc((size_t)w * h, 4);
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint8_t *px = rgba + ((size_t)y * w + x) * 4;
      px[0] = 120, px[1] = 110, px[2] = 100;
      px[3] = fn(x, y) ? 255 : 0;
    }
  TessImageView v = {w, h, (size_t)w * 4, rgba};
  TessSprite s;
  memset(&s, 0, sizeof s);
  snprintf(s.name, sizeof s.name, "%s", name);
  TessError err;
  CHECK_OK(tess_png_encode(v, &s.png, &s.png_size, &err), &err);
  free(rgba);
  s.image_w = w;
  s.image_h = h;
  s.frame_count = 1;
  s.anchor = anchor;
  tess_sprite_mask_default(&s.mask);
  TessId id = 0;
  CHECK_OK(tess_edit_sprite_add(p, &s, &id, &err), &err);
  tess_free(s.png);
  return id;
}

/* A cup: a 96 x 96 square with a round hollow of radius 40 about (48, 48). */
static bool cup(uint32_t x, uint32_t y) {
  double dx = x + 0.5 - 48.0, dy = y + 0.5 - 48.0;
  return dx * dx + dy * dy >= 40.0 * 40.0;
}
/* A plank 480 x 24. */
static bool plank(uint32_t x, uint32_t y) {
  (void)x, (void)y;
  return true;
}

typedef struct Fixture {
  TessProject *p;
  TessId level, layer, slick, rough;
  TessId cup, plank;
} Fixture;

static TessId add_material(TessProject *p, const char *name, float friction) {
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "%s", name);
  m.friction = friction;
  m.restitution = 0.0f;
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_material_add(p, &m, &id, &err), &err);
  return id;
}

static Fixture fixture(void) {
  Fixture f;
  memset(&f, 0, sizeof f);
  f.p = tess_project_create();
  f.rough = add_material(f.p, "rough", 0.8f);
  f.slick = add_material(f.p, "slick", 0.0f);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Pixels");
  ls.width = 60;
  ls.height = 40;
  ls.tile_w = ls.tile_h = 16;
  ls.ppm = PPM;
  ls.gravity = tess_v2(0.0f, G);
  TessError err;
  CHECK_OK(tess_edit_level_add(f.p, &ls, &f.level, &err), &err);
  TessLevel *lv = tess_project_level(f.p, f.level);
  for (uint32_t i = 0; lv && i < lv->layer_count; i++)
    if (lv->layers[i]->props.kind == TESS_LAYER_OBJECTS) f.layer = lv->layers[i]->props.id;
  f.cup = add_sprite(f.p, "cup", 96, 96, cup, tess_v2(0.0f, 0.0f)); /* anchor at a corner: the turn moves the hollow */
  f.plank = add_sprite(f.p, "plank", 480, 24, plank, tess_v2(240.0f, 12.0f));
  return f;
}

static TessId add_body(Fixture *f, uint8_t type, uint8_t shape, TessId sprite, TessId material, TessVec2 pos_px,
                       float angle, float radius_px, bool pixels) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = pos_px;
  o.angle = angle;
  o.u.body.type = type;
  o.u.body.shape = shape;
  o.u.body.sprite = sprite;
  o.u.body.material = material;
  o.u.body.radius = radius_px;
  o.u.body.collide_pixels = pixels;
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_object_add(f->p, f->level, f->layer, &o, &id, &err), &err);
  return id;
}

static TessWorld *preview_world(Fixture *f, TessScene **scene, TessBodyId *ids) {
  TessError err;
  *scene = NULL;
  CHECK_OK(tess_scene_from_level(f->p, tess_project_level(f->p, f->level), scene, &err), &err);
  TessWorld *w = NULL;
  if (*scene) CHECK_OK(tess_world_create_from_scene(*scene, NULL, &w, ids, &err), &err);
  return w;
}

static void step(TessWorld *w, int n) {
  TessError err;
  for (int i = 0; i < n; i++) CHECK_OK(tess_world_step(w, 1.0f / 60.0f, &err), &err);
}

static double angle_between(TessVec2 a, TessVec2 b) {
  double c = (double)a.x * b.x + (double)a.y * b.y, s = (double)a.x * b.y - (double)a.y * b.x;
  return fabs(atan2(s, c)) * 180.0 / PI;
}

/* The cup turned by 0.6 rad about its corner: the hollow's centre is where the turn puts it. A
 * ball dropped in comes to rest at the bottom, R - r below that centre, its normal pointing at
 * it; the body has no shapes (its pixels collide); carving its bottom through the runtime API
 * drops the ball out. */
static void ball_rests_in_a_turned_pixel_body(void) {
  Fixture f = fixture();
  float angle = 0.6f, r_px = 8.0f;
  TessVec2 pos = tess_v2(300.0f, 200.0f);
  add_body(&f, TESS_BODY_STATIC, TESS_BODY_SPRITE, f.cup, f.rough, pos, angle, 0, true);
  TessVec2 centre_px = tess_v2_add(pos, tess_rot_apply(tess_rot(angle), tess_v2(48.0f, 48.0f)));
  TessVec2 centre = tess_v2_scale(1.0f / PPM, centre_px);
  float R = 40.0f / PPM, r = r_px / PPM;
  add_body(&f, TESS_BODY_DYNAMIC, TESS_BODY_CIRCLE, 0, f.rough, tess_v2(centre_px.x, centre_px.y + 30.0f), 0, r_px, false);
  TessScene *s = NULL;
  TessBodyId ids[2];
  TessWorld *w = preview_world(&f, &s, ids);
  CHECK(w && s->pixel_mask_count == 1 && s->pixel_masks[0].body == 1 && s->bodies[0].shape_count == 0);
  if (!w) return;
  TessPixelMaskInfo info;
  CHECK(tess_pixel_mask_info(w, 0, &info) && info.width == 96 && info.height == 96);
  CHECK_NEAR(info.angle, angle, 1e-6);
  step(w, 180);
  for (int i = 0; i < 120; i++) {
    step(w, 1);
    TessVec2 rel = tess_v2_sub(tess_body_position(w, ids[1]), centre);
    CHECK_NEAR(tess_v2_length(rel), R - r, 1.0f / PPM);
    /* the pixel hollow's lowest point is 2 degrees off, and nothing damps a rolling ball's rocking about it */
    CHECK_MSG(angle_between(rel, tess_v2(0, 1)) < 4.0, "the ball rests %.2f degrees from the bottom",
              angle_between(rel, tess_v2(0, 1)));
  }
  TessVec2 at = tess_body_position(w, ids[1]), rel = tess_v2_sub(at, centre);
  TessPixelMaskHit h = tess_world_pixel_mask_probe(w, at, r);
  CHECK(h.hit && !h.buried);
  CHECK_MSG(angle_between(h.normal, tess_v2_scale(-1.0f, rel)) < 4.0, "normal %.2f degrees from radial",
            angle_between(h.normal, tess_v2_scale(-1.0f, rel)));
  /* carve through the cup's bottom: the ball falls out below it */
  CHECK(tess_pixel_mask_set_circle(w, 0, tess_v2(centre.x, centre.y + R + 0.1f), 0.5f, false) == TESS_OK);
  step(w, 60);
  CHECK_MSG(tess_body_position(w, ids[1]).y > centre.y + R + 0.3f, "the ball stayed in the carved cup (y %.3f)",
            (double)tess_body_position(w, ids[1]).y);
  tess_world_destroy(w);
  tess_scene_destroy(s);
  tess_project_destroy(f.p);
}

/* A plank turned by 20 degrees, colliding by pixels: a frictionless ball slides down it at g sin t,
 * a ball with friction rolls at 2/3 g sin t (each within 3% after 1 s), on its surface. */
static void ball_runs_down_a_turned_pixel_plank(void) {
  double th = 20.0 * PI / 180.0;
  for (int k = 0; k < 2; k++) {
    Fixture f = fixture();
    TessId mat = k == 0 ? f.slick : f.rough;
    TessVec2 pos = tess_v2(480.0f, 400.0f);
    add_body(&f, TESS_BODY_STATIC, TESS_BODY_SPRITE, f.plank, mat, pos, (float)th, 0, true);
    TessVec2 axis = tess_v2((float)cos(th), (float)sin(th)), normal = tess_v2((float)sin(th), (float)-cos(th));
    float r_px = 8.0f;
    /* the top face's point 150 px uphill of the plank's centre, and the ball just above it */
    TessVec2 foot = tess_v2_add(pos, tess_v2_add(tess_v2_scale(-150.0f, axis), tess_v2_scale(12.0f, normal)));
    add_body(&f, TESS_BODY_DYNAMIC, TESS_BODY_CIRCLE, 0, mat, tess_v2_mul_add(foot, r_px + 0.05f, normal), 0, r_px, false);
    TessScene *s = NULL;
    TessBodyId ids[2];
    TessWorld *w = preview_world(&f, &s, ids);
    if (!w) return;
    TessVec2 foot_m = tess_v2_scale(1.0f / PPM, foot);
    for (int i = 0; i < 60; i++) {
      step(w, 1);
      double off = tess_v2_dot(tess_v2_sub(tess_body_position(w, ids[1]), foot_m), normal);
      CHECK_NEAR(off, r_px / PPM, 0.75 / PPM);
    }
    double a = k == 0 ? G * sin(th) : 2.0 / 3.0 * G * sin(th);
    double v = tess_v2_length(tess_body_linear_velocity(w, ids[1]));
    CHECK_MSG(fabs(v - a) <= 0.03 * a, "%s: %.4f m/s after 1 s, want %.4f", k ? "rolling" : "sliding", v, a);
    CHECK(tess_v2_dot(tess_body_linear_velocity(w, ids[1]), axis) > 0.0f);
    tess_world_destroy(w);
    tess_scene_destroy(s);
    tess_project_destroy(f.p);
  }
}

/* A level with a pixel cup, a pixel plank, a shaped static crate and balls: the .tlv (3.9) holds
 * both bodies' masks (layer 0, their bodies), the game's scene equals the preview's, their worlds
 * step to the same hash, and a project read back from the file has the flags where they were. */
static Fixture mixed(void) {
  Fixture f = fixture();
  add_body(&f, TESS_BODY_STATIC, TESS_BODY_SPRITE, f.cup, f.rough, tess_v2(200, 150), 0.6f, 0, true);
  add_body(&f, TESS_BODY_DYNAMIC, TESS_BODY_CIRCLE, 0, f.rough, tess_v2(230, 210), 0, 8, false);
  add_body(&f, TESS_BODY_STATIC, TESS_BODY_BOX, 0, f.rough, tess_v2(700, 560), 0, 0, false);
  add_body(&f, TESS_BODY_STATIC, TESS_BODY_SPRITE, f.plank, f.slick, tess_v2(560, 420), 0.35f, 0, true);
  for (int i = 0; i < 5; i++)
    add_body(&f, TESS_BODY_DYNAMIC, TESS_BODY_CIRCLE, 0, i % 2 ? f.rough : f.slick, tess_v2(420.0f + 20.0f * i, 300.0f), 0, 6, false);
  return f;
}

static uint64_t stepped(const TessScene *s) {
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, NULL, &err), &err);
  if (!w) return 0;
  CHECK(tess_world_pixel_mask_count(w) == 2);
  step(w, 120);
  CHECK(tess_pixel_mask_set_circle(w, 1, tess_v2(560 / PPM, 420 / PPM), 0.4f, false) == TESS_OK); /* carve too */
  step(w, 120);
  uint64_t h = tess_world_hash(w);
  tess_world_destroy(w);
  return h;
}

static void pixel_bodies_travel_in_the_tlv(void) {
  Fixture f = mixed();
  const TessLevel *level = tess_project_level(f.p, f.level);
  TessScene *ed = NULL, *game = NULL;
  TessError err;
  CHECK_OK(tess_scene_from_level(f.p, level, &ed, &err), &err);
  CHECK(ed && ed->pixel_mask_count == 2 && ed->pixel_masks[0].body == 1 && ed->pixel_masks[1].body == 4);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(f.p, level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  TlvError terr;
  CHECK_MSG(tlv_open(data, size, 0, &lv, &terr) == TLV_OK, "byte %llu: %s", (unsigned long long)terr.offset, terr.message);
  CHECK(lv.header.major == 3 && lv.header.minor == 9 && lv.pixel_masks.count == 2);
  TlvPixelMask pm;
  CHECK(tlv_pixel_mask(&lv, 1, &pm) && pm.body == 4 && pm.layer_id == 0 && pm.width == 480 && pm.height == 24);
  CHECK_OK(tess_scene_from_pack(&lv, &game, &err), &err);
  CHECK_MSG(game && tess_scene_equal(ed, game), "the game's scene differs from the preview's");
  uint64_t ha = stepped(ed), hb = game ? stepped(game) : 1;
  CHECK_MSG(ha == hb, "preview and game worlds differ after 240 steps and a carve");

  TessProject *back = NULL;
  CHECK_OK(tess_project_from_pack(&lv, NULL, &back, &err), &err);
  uint32_t flagged = 0;
  const TessLevel *bl = back ? back->levels[0] : NULL;
  for (uint32_t i = 0; bl && i < bl->layer_count; i++)
    for (uint32_t k = 0; k < bl->layers[i]->object_count; k++) {
      const TessObject *o = &bl->layers[i]->objects[k];
      if (o->kind == TESS_OBJECT_BODY && o->u.body.collide_pixels) flagged++;
    }
  CHECK(flagged == 2);
  if (back) tess_project_destroy(back);
  tess_scene_destroy(game);
  tess_scene_destroy(ed);
  tess_free(data);
  tess_project_destroy(f.p);
}

/* The game moves pixel bodies through the runtime API: in the preview's world and the game's (from
 * the .tlv), with 1, 2 and 4 workers, the cup moved and turned and the plank laid flat elsewhere
 * mid-run, then carved, step to one hash; a ball put over the plank's new place comes to rest a
 * radius above its top, and nothing is left where the plank was. */
static uint64_t moved_run(const TessScene *s, uint32_t workers) {
  TessWorldDef def;
  tess_world_def_default(&def);
  def.worker_count = workers;
  TessWorld *w = NULL;
  TessBodyId ids[9];
  TessError err;
  CHECK(s->body_count == 9);
  CHECK_OK(tess_world_create_from_scene(s, &def, &w, ids, &err), &err);
  if (!w) return 0;
  step(w, 60);
  TessVec2 plank = tess_v2(300.0f / PPM, 600.0f / PPM), old = tess_v2(560.0f / PPM, 420.0f / PPM);
  CHECK(tess_body_set_transform(w, ids[3], plank, 0.0f) == TESS_OK);
  CHECK(tess_body_set_transform(w, ids[0], tess_v2(600.0f / PPM, 200.0f / PPM), -0.3f) == TESS_OK);
  CHECK(!tess_world_pixel_mask_probe(w, old, 6.0f / PPM).hit);
  float r = 6.0f / PPM, top = plank.y - 12.0f / PPM;
  CHECK(tess_body_set_transform(w, ids[4], tess_v2(plank.x + 2.0f, top - 1.0f), 0.0f) == TESS_OK);
  CHECK(tess_body_set_linear_velocity(w, ids[4], tess_v2(0, 0)) == TESS_OK);
  step(w, 120);
  CHECK_NEAR(tess_body_position(w, ids[4]).y, top - r, 1.0f / PPM);
  CHECK(tess_pixel_mask_set_circle(w, 1, tess_v2(plank.x - 3.0f, plank.y), 0.3f, false) == TESS_OK);
  CHECK(!tess_pixel_mask_get(w, 1, 240 - 96, 12) && tess_pixel_mask_get(w, 1, 240 + 96, 12));
  step(w, 60);
  uint64_t h = tess_world_hash(w);
  tess_world_destroy(w);
  return h;
}

static void moved_pixel_bodies_preview_equals_game(void) {
  Fixture f = mixed();
  const TessLevel *level = tess_project_level(f.p, f.level);
  TessScene *ed = NULL, *game = NULL;
  TessError err;
  CHECK_OK(tess_scene_from_level(f.p, level, &ed, &err), &err);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(f.p, level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  TlvError terr;
  CHECK_MSG(tlv_open(data, size, 0, &lv, &terr) == TLV_OK, "byte %llu: %s", (unsigned long long)terr.offset, terr.message);
  CHECK_OK(tess_scene_from_pack(&lv, &game, &err), &err);
  if (ed && game) {
    uint64_t want = moved_run(ed, 1);
    const uint32_t workers[] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
      CHECK_MSG(moved_run(ed, workers[k]) == want, "preview with %u workers differs", workers[k]);
      CHECK_MSG(moved_run(game, workers[k]) == want, "game with %u workers differs from the preview", workers[k]);
    }
  }
  tess_scene_destroy(game);
  tess_scene_destroy(ed);
  tess_free(data);
  tess_project_destroy(f.p);
}

static int pixel_bodies(const TessProject *q) {
  int n = 0;
  for (uint32_t l = 0; q && l < q->level_count; l++)
    for (uint32_t i = 0; i < q->levels[l]->layer_count; i++)
      for (uint32_t k = 0; k < q->levels[l]->layers[i]->object_count; k++) {
        const TessObject *o = &q->levels[l]->layers[i]->objects[k];
        n += o->kind == TESS_OBJECT_BODY && o->u.body.collide_pixels;
      }
  return n;
}

static TessProject *load(const char *path, TessStoreMode mode) {
  TessStore *st = NULL;
  TessProject *q = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, mode, &st, &err), &err);
  if (st) {
    CHECK_OK(tess_store_load(st, &q, &err), &err);
    tess_store_close(st);
  }
  return q;
}

static int sql_int(const char *path, const char *sql) {
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  int v = -1;
  CHECK(sqlite3_open(path, &db) == SQLITE_OK);
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

/* A body's flag is stored (schema 9): a real project file keeps it through a save and a load. A
 * schema-8 file (the column dropped, as schema 8 had it) reads in place with every body on its
 * traced shapes, and opened for writing gains the column through the migration step. */
static void pixel_body_is_stored(void) {
  Fixture f = mixed();
  char path[512];
  tess_test_path(path, sizeof path, "pixel-body.tessera");
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_CREATE, &st, &err), &err);
  if (st) {
    CHECK_OK(tess_store_save_all(st, f.p, &err), &err);
    tess_store_close(st);
  }
  st = NULL;
  TessProject *q = NULL;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &st, &err), &err);
  if (st) {
    CHECK_OK(tess_store_load(st, &q, &err), &err);
    tess_store_close(st);
  }
  CHECK(q && tess_project_hash(q) == tess_project_hash(f.p));
  CHECK(pixel_bodies(q) == 2);
  if (q) tess_project_destroy(q);

  sqlite3 *db = NULL;
  CHECK(sqlite3_open(path, &db) == SQLITE_OK);
  char *downgrade = tess_test_schema_downgrade_sql(8);
  CHECK(downgrade && sqlite3_exec(db, downgrade, NULL, NULL, NULL) == SQLITE_OK);
  free(downgrade);
  sqlite3_close(db);
  q = load(path, TESS_STORE_READ_ONLY);
  CHECK(q && pixel_bodies(q) == 0 && q->level_count == 1);
  if (q) tess_project_destroy(q);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == 8);
  q = load(path, TESS_STORE_READ_WRITE);
  CHECK(q && pixel_bodies(q) == 0);
  if (q) tess_project_destroy(q);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == TESS_STORE_SCHEMA_VERSION);
  CHECK(sql_int(path, "SELECT count(*) FROM pragma_table_info('objects') WHERE name = 'body_pixels'") == 1);
  tess_project_destroy(f.p);
}

/* The text form writes "collide_pixels" on the two pixel bodies only, and reads the project back
 * exactly (the same project hash, so the same content hash and .tlv). */
static void pixel_body_text_round_trip(void) {
  Fixture f = mixed();
  char dir[512];
  tess_test_path(dir, sizeof dir, "text");
  TessError err;
  CHECK_OK(tess_text_dump(f.p, dir, &err), &err);
  TessTextLoadDef def;
  tess_text_load_def_default(&def);
  TessProject *back = NULL;
  CHECK_OK(tess_text_load(dir, &def, &back, &err), &err);
  CHECK(back && tess_project_hash(back) == tess_project_hash(f.p));
  CHECK(pixel_bodies(back) == 2);
  if (back) tess_project_destroy(back);
  tess_project_destroy(f.p);
}

/* Each hostile edit of a body's mask record, resealed, is refused at its byte. */
static void hostile_body_masks_are_refused(void) {
  Fixture f = mixed();
  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  CHECK_OK(tess_pack_write(f.p, tess_project_level(f.p, f.level), NULL, &data, &size, &err), &err);
  size_t e = tlv_find_entry(data, size, TLV_SEC_PIXEL_MASKS);
  CHECK(e);
  if (!e) return;
  size_t rec = (size_t)tlv_get64(data + e + 8), second = rec + TLV_PIXEL_MASK_SIZE;
  static const struct {
    const char *what;
    int record, field; /* field: byte offset in the record, or -1: the header's minor */
    uint32_t value;
    TlvResult want;
    uint32_t at; /* the byte the error names, in the record */
  } cases[] = {
      {"body past BODY", 1, 28, 99, TLV_ERR_INDEX, 28},
      {"a dynamic body", 1, 28, 2, TLV_ERR_VALUE, 28},
      {"the same body twice", 1, 28, 1, TLV_ERR_INDEX, 28},
      {"both a layer and a body", 1, 0, 7, TLV_ERR_VALUE, 0},
      {"a body's mask in a 3.8 file", 0, -1, 8, TLV_ERR_VALUE, 28},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    size_t r = cases[i].record ? second : rec;
    if (cases[i].field >= 0) tlv_put32(copy + r + cases[i].field, cases[i].value);
    else {
      copy[10] = (uint8_t)cases[i].value;
      copy[11] = 0;
    }
    tlv_reseal(copy, size);
    TlvLevel lv;
    TlvError terr;
    TlvResult res = tlv_open(copy, size, 0, &lv, &terr);
    CHECK_MSG(res == cases[i].want, "%s: result %d, want %d (%s)", cases[i].what, (int)res, (int)cases[i].want,
              res == TLV_OK ? "accepted" : terr.message);
    CHECK_MSG(res == TLV_OK || terr.offset == r + cases[i].at, "%s: byte %llu, want %llu (%s)", cases[i].what,
              (unsigned long long)terr.offset, (unsigned long long)(r + cases[i].at), terr.message);
    CHECK_MSG(res == TLV_OK || strstr(terr.message, "pixel mask") != NULL, "%s: message '%s' does not name the mask",
              cases[i].what, terr.message);
    free(copy);
  }
  tess_free(data);
  tess_project_destroy(f.p);
}

TESS_TEST_MAIN(TEST(ball_rests_in_a_turned_pixel_body), TEST(ball_runs_down_a_turned_pixel_plank),
               TEST(pixel_bodies_travel_in_the_tlv), TEST(moved_pixel_bodies_preview_equals_game), TEST(pixel_body_is_stored), TEST(pixel_body_text_round_trip), TEST(hostile_body_masks_are_refused))
