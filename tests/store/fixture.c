/* Fixtures for the store tests: a project with every kind of thing, made
 * through the edit API as the editor would, and small file helpers. */
#include <sqlite3.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "project_fixture.h"
#include "schema_fixture.h"
#include "store_tests.h"
#include "tessera/image.h"

/* PNG bytes of a w x h image with a recognisable pattern (alpha varies). */
static uint8_t *make_png(uint32_t w, uint32_t h, size_t *size) {
  TessImage img;
  TessError err;
  CHECK_OK(tess_image_create(w, h, &img, &err), &err);
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint8_t *px = img.pixels + y * img.stride + x * 4;
      px[0] = (uint8_t)(x * 7);
      px[1] = (uint8_t)(y * 13);
      px[2] = (uint8_t)(x ^ y);
      px[3] = (x + y) % 5 == 0 ? 0 : 255;
    }
  uint8_t *png = NULL;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &png, size, &err), &err);
  tess_image_clear(&img);
  return png;
}

static TessPolygon poly(uint32_t n, const float *xy) {
  TessPolygon p;
  memset(&p, 0, sizeof p);
  p.count = n;
  for (uint32_t i = 0; i < n; i++) p.v[i] = tess_v2(xy[2 * i], xy[2 * i + 1]);
  return p;
}

static TessId add_material(TessProject *p, const char *name, uint32_t color, float friction, float restitution,
                           float tangential, float density, TessMaterialKind kind) {
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "%s", name);
  m.color = color;
  m.friction = friction;
  m.restitution = restitution;
  m.tangential = tangential;
  m.density = density;
  m.kind = kind;
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_material_add(p, &m, &id, &err), &err);
  return id;
}

static TessId add_tileset(TessProject *p, TessId material, TessId other_material) {
  size_t png_size = 0;
  uint8_t *png = make_png(64, 32, &png_size);
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Rocks";
  def.source_path = "art/rocks.png";
  def.png = png;
  def.png_size = png_size;
  def.image_w = 64;
  def.image_h = 32;
  def.tile_w = 16;
  def.tile_h = 16;
  def.default_material = material;
  def.default_collision = TESS_TILE_COLLISION_FULL;
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_tileset_add(p, &def, &id, &err), &err);
  tess_free(png);

  /* Traced tiles: a slope, a two-piece tile, a one-way platform, a tile of another material. */
  TessTileset ts;
  memset(&ts, 0, sizeof ts);
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(p, id)), &err);
  CHECK(ts.tile_count == 8);
  static const float slope[] = {0, 16, 16, 0, 16, 16};
  static const float left[] = {0, 0, 6, 0, 6, 16, 0, 16};
  static const float right[] = {10, 4, 16, 2, 16, 16, 10.5f, 16, 9.25f, 9};
  ts.tiles[1].collision = TESS_TILE_COLLISION_TRACED;
  ts.tiles[1].piece_count = 1;
  ts.tiles[1].pieces = tess_calloc(1, sizeof(TessPolygon));
  ts.tiles[1].pieces[0] = poly(3, slope);
  ts.tiles[2].collision = TESS_TILE_COLLISION_TRACED;
  ts.tiles[2].piece_count = 2;
  ts.tiles[2].pieces = tess_calloc(2, sizeof(TessPolygon));
  ts.tiles[2].pieces[0] = poly(4, left);
  ts.tiles[2].pieces[1] = poly(5, right);
  ts.tiles[3].one_way = 1;
  ts.tiles[4].material = other_material;
  ts.tiles[5].collision = TESS_TILE_COLLISION_NONE;
  ts.tiles[5].material = 0;
  ts.alpha_threshold = 128;
  CHECK_OK(tess_edit_tileset_set(p, &ts, 0, &err), &err);
  tess_tileset_clear(&ts);
  return id;
}

static TessId add_sprite(TessProject *p) {
  TessSprite sp;
  memset(&sp, 0, sizeof sp);
  snprintf(sp.name, sizeof sp.name, "Crate");
  sp.source_path = "art/crate.png";
  sp.png = make_png(48, 16, &sp.png_size);
  sp.image_w = 48;
  sp.image_h = 16;
  sp.frame_count = 3;
  sp.frame_rate = 12.5f;
  sp.anchor = tess_v2(8.0f, 8.5f);
  TessSpriteMask *m = &sp.mask;
  tess_sprite_mask_default(m);
  m->threshold = 64;
  m->mode = TESS_MASK_PIECES;
  m->manual = 1;
  m->largest_island_only = 1;
  m->max_vertices = 6;
  m->tolerance = 0.75f;
  static const TessVec2 hull[] = {{1, 0}, {15, 0}, {16, 3}, {16, 15}, {0, 16}, {0, 1.5f}};
  m->hull_count = 6;
  m->hull = tess_alloc(sizeof hull);
  memcpy(m->hull, hull, sizeof hull);
  static const float a[] = {1, 0, 15, 0, 16, 3, 8, 8};
  static const float b[] = {8, 8, 16, 3, 16, 15, 0, 16, 0, 1.5f};
  m->piece_count = 2;
  m->pieces = tess_calloc(2, sizeof(TessPolygon));
  m->pieces[0] = poly(4, a);
  m->pieces[1] = poly(5, b);
  m->circle_center = tess_v2(8.0f, 8.0f);
  m->circle_radius = 7.9f;
  m->area = 243.0;
  m->centroid_x = 7.93827160493827;
  m->centroid_y = 8.1234567901234;
  m->inertia = 10123.456789012345;
  m->shape_area = 245.25;
  m->shape_centroid_x = 7.9;
  m->shape_centroid_y = 8.2;
  m->shape_inertia = 10234.5;
  m->added_area = 2.25;
  m->uncovered_area = 1.0 / 3.0;
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_sprite_add(p, &sp, &id, &err), &err);
  tess_free(sp.png);
  tess_free(m->hull);
  tess_free(m->pieces);
  return id;
}

static TessId layer_of_kind(const TessProject *p, TessId level_id, TessLayerKind kind) {
  TessLevel *level = tess_project_level(p, level_id);
  for (uint32_t i = 0; level && i < level->layer_count; i++)
    if (level->layers[i]->props.kind == kind) return level->layers[i]->props.id;
  return 0;
}

static void set_prop(TessObject *obj, const char *name, TessPropType type, const void *value) {
  TessProperty prop;
  memset(&prop, 0, sizeof prop);
  snprintf(prop.name, sizeof prop.name, "%s", name);
  prop.type = (uint8_t)type;
  switch (type) {
    case TESS_PROP_STRING: prop.v.s = (char *)value; break;
    case TESS_PROP_INT: prop.v.i = *(const int64_t *)value; break;
    case TESS_PROP_FLOAT: prop.v.f = *(const double *)value; break;
    case TESS_PROP_BOOL: prop.v.b = *(const bool *)value; break;
    case TESS_PROP_COLOR: prop.v.color = *(const uint32_t *)value; break;
  }
  TessError err;
  CHECK_OK(tess_object_set_property(obj, &prop), &err);
}

static TessId add_object(TessProject *p, TessId level, TessId layer, TessObject *obj) {
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_object_add(p, level, layer, obj, &id, &err), &err);
  tess_object_clear(obj);
  return id;
}

static void add_objects(TessProject *p, Sample *s) {
  TessObject o;
  int64_t hp = -42, big = INT64_MAX;
  double scale = 1.25, third = 1.0 / 3.0;
  bool yes = true, no = false;
  uint32_t tint = 0x11223344u;

  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "Ball");
  o.pos = tess_v2(100.5f, 200.25f);
  o.angle = 0.3f;
  o.u.body.material = s->stone;
  o.u.body.integrator = TESS_INTEGRATOR_RK4; /* schema 7 */
  set_prop(&o, "tag", TESS_PROP_STRING, "bouncy ball");
  set_prop(&o, "hp", TESS_PROP_INT, &hp);
  set_prop(&o, "big", TESS_PROP_INT, &big);
  set_prop(&o, "scale", TESS_PROP_FLOAT, &scale);
  set_prop(&o, "third", TESS_PROP_FLOAT, &third);
  set_prop(&o, "boss", TESS_PROP_BOOL, &yes);
  set_prop(&o, "hidden", TESS_PROP_BOOL, &no);
  set_prop(&o, "tint", TESS_PROP_COLOR, &tint);
  s->body_circle = add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "Wall block");
  o.pos = tess_v2(300.0f, 180.0f);
  o.u.body.shape = TESS_BODY_BOX;
  o.u.body.type = TESS_BODY_STATIC;
  o.u.body.sensor = 1;
  o.u.body.width = 64.0f;
  o.u.body.height = 12.5f;
  o.u.body.category = 0x2u;
  o.u.body.mask = 0xF0F0F0F0u;
  o.u.body.material = s->ice;
  add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "Pill");
  o.pos = tess_v2(340.0f, 100.0f);
  o.angle = -1.25f;
  o.u.body.shape = TESS_BODY_CAPSULE;
  o.u.body.type = TESS_BODY_KINEMATIC;
  o.u.body.width = 48.0f;
  o.u.body.height = 16.0f;
  add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "Crate 1");
  o.pos = tess_v2(120.0f, 64.0f);
  o.u.body.shape = TESS_BODY_SPRITE;
  o.u.body.sprite = s->sprite;
  o.u.body.pin = TESS_PIN_AT_OVERLAP_CENTRE;
  o.u.body.material = s->stone;
  s->body_sprite = add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_JOINT);
  snprintf(o.name, sizeof o.name, "Hinge");
  o.pos = tess_v2(110.0f, 70.0f);
  o.u.joint.kind = TESS_JOINT_PIN;
  o.u.joint.limit_enabled = 1;
  o.u.joint.body_a = s->body_sprite;
  o.u.joint.body_b = 0;
  o.u.joint.lower = -0.5f;
  o.u.joint.upper = 0.75f;
  o.u.joint.motor_enabled = 1;
  o.u.joint.motor_speed = -3.5f; /* rad/s */
  o.u.joint.motor_torque = 12.25f;
  s->joint_pin = add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_JOINT);
  snprintf(o.name, sizeof o.name, "Rope");
  o.pos = tess_v2(100.5f, 200.25f);
  o.u.joint.kind = TESS_JOINT_DISTANCE;
  o.u.joint.body_a = s->body_circle;
  o.u.joint.body_b = s->body_sprite;
  o.u.joint.anchor_b = tess_v2(120.0f, 64.0f);
  o.u.joint.length = 40.0f;
  add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_ZONE);
  snprintf(o.name, sizeof o.name, "Fan");
  o.pos = tess_v2(500.0f, 300.0f);
  o.u.zone.kind = TESS_ZONE_FORCE;
  o.u.zone.width = 64.0f;
  o.u.zone.height = 200.0f;
  o.u.zone.vector = tess_v2(0.0f, -30.0f);
  add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_ZONE);
  snprintf(o.name, sizeof o.name, "Current");
  o.pos = tess_v2(600.0f, 900.0f);
  o.u.zone.kind = TESS_ZONE_ACCELERATION;
  o.u.zone.vector = tess_v2(2.5f, 0.0f);
  add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_ZONE);
  snprintf(o.name, sizeof o.name, "Well");
  o.pos = tess_v2(800.0f, 400.0f);
  o.u.zone.kind = TESS_ZONE_ATTRACTOR;
  o.u.zone.strength = 1000.0f;
  o.u.zone.radius = 300.0f;
  s->zone_attractor = add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_ZONE);
  snprintf(o.name, sizeof o.name, "Spring");
  o.pos = tess_v2(420.0f, 140.5f);
  o.u.zone.kind = TESS_ZONE_SPRING;
  o.u.zone.strength = 39.4784176f; /* (2 pi)^2: one swing a second */
  o.u.zone.radius = 96.0f;
  s->zone_spring = add_object(p, s->level, s->objects, &o);

  tess_object_default(&o, TESS_OBJECT_SPAWN);
  snprintf(o.name, sizeof o.name, "Start");
  o.pos = tess_v2(32.0f, 32.0f);
  o.angle = -0.0f; /* every bit must survive */
  set_prop(&o, "hero", TESS_PROP_STRING, "h\xc3\xa9ros \xe2\x80\x94 UTF-8");
  set_prop(&o, "empty", TESS_PROP_STRING, "");
  s->spawn = add_object(p, s->level, s->objects, &o);

  TessId level2_objects = layer_of_kind(p, s->level2, TESS_LAYER_OBJECTS);
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  snprintf(o.name, sizeof o.name, "Sky start");
  o.pos = tess_v2(16.0f, 16.0f);
  add_object(p, s->level2, level2_objects, &o);
}

void build_sample_project(TessProject *p, Sample *s) {
  TessError err;
  memset(s, 0, sizeof *s);
  s->stone = add_material(p, "Stone", 0x808080FFu, 0.8f, 0.1f, 1.0f, 2400.0f, TESS_MATERIAL_SOLID);
  s->ice = add_material(p, "Ice", 0xCCEEFFFFu, 0.02f, 0.05f, 0.9f, 917.0f, TESS_MATERIAL_FLOOR);
  s->water = add_material(p, "Water", 0x2040C080u, 0.0f, 0.0f, 1.0f, 1000.0f, TESS_MATERIAL_FLUID);
  s->tileset = add_tileset(p, s->stone, s->ice);
  s->sprite = add_sprite(p);

  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Cave");
  ls.width = 100;
  ls.height = 70;
  ls.tile_w = 16;
  ls.tile_h = 16;
  ls.ppm = 32.0f;
  ls.gravity = tess_v2(0.0f, 9.81f);
  CHECK_OK(tess_edit_level_add(p, &ls, &s->level, &err), &err);
  snprintf(ls.name, sizeof ls.name, "Sky");
  ls.width = 40;
  ls.height = 33;
  ls.view = TESS_VIEW_TOP_DOWN;
  ls.gravity = tess_v2(0.0f, 0.0f);
  ls.floor_drag = 2.5f;
  ls.physics_hz = 120.0f;
  ls.substeps = 8;
  CHECK_OK(tess_edit_level_add(p, &ls, &s->level2, &err), &err);

  s->ground = layer_of_kind(p, s->level, TESS_LAYER_TILES);
  s->objects = layer_of_kind(p, s->level, TESS_LAYER_OBJECTS);
  CHECK(s->ground && s->objects);
  CHECK_OK(tess_edit_layer_add(p, s->level, TESS_LAYER_TILES, "Decor", -1, &s->decor, &err), &err);

  /* Cells: a stamp with flips across a chunk border, a filled floor, a flood fill, material overrides. */
  TessCell stamp[6] = {
      TESS_CELL_MAKE(s->tileset, 0, 0), TESS_CELL_MAKE(s->tileset, 1, TESS_CELL_FLIP_H),
      TESS_CELL_MAKE(s->tileset, 2, TESS_CELL_FLIP_V), 0,
      TESS_CELL_MAKE(s->tileset, 3, TESS_CELL_FLIP_D | TESS_CELL_FLIP_H), TESS_CELL_MAKE(s->tileset, 4, TESS_CELL_FLIPS)};
  uint32_t merge = tess_project_new_merge_key(p);
  CHECK_OK(tess_edit_paint(p, s->level, s->ground, 30, 30, 3, 2, stamp, merge, &err), &err);
  CHECK_OK(tess_edit_paint(p, s->level, s->ground, 62, 31, 3, 2, stamp, merge, &err), &err);
  CHECK_OK(tess_edit_fill_rect(p, s->level, s->ground, 0, 60, 100, 10, TESS_CELL_MAKE(s->tileset, 5, 0), 0, &err),
           &err);
  CHECK_OK(tess_edit_fill_rect(p, s->level, s->decor, 40, 0, 20, 20, TESS_CELL_MAKE(s->tileset, 6, 0), 0, &err),
           &err);
  CHECK_OK(tess_edit_flood_fill(p, s->level, s->decor, 45, 5, TESS_CELL_MAKE(s->tileset, 7, TESS_CELL_FLIP_V), 0,
                                &err),
           &err);
  CHECK_OK(tess_edit_paint_material(p, s->level, 10, 10, 5, 5, s->ice, 0, &err), &err);
  CHECK_OK(tess_edit_paint_material(p, s->level, 90, 65, 20, 20, s->water, 0, &err), &err); /* clipped */
  s->material_layer = layer_of_kind(p, s->level, TESS_LAYER_MATERIAL);
  CHECK(s->material_layer != 0);

  TessLayerProps props = tess_level_layer(tess_project_level(p, s->level), s->decor)->props;
  props.opacity = 0.5f;
  props.visible = false;
  props.collides = false;
  CHECK_OK(tess_edit_layer_set_props(p, s->level, &props, 0, &err), &err);

  TessId sky_ground = layer_of_kind(p, s->level2, TESS_LAYER_TILES);
  CHECK_OK(tess_edit_fill_rect(p, s->level2, sky_ground, 0, 0, 40, 33, TESS_CELL_MAKE(s->tileset, 0, 0), 0, &err),
           &err);
  add_objects(p, s);
}

TessProject *load_file(const char *path) {
  TessStore *store = NULL;
  TessError err;
  TessProject *p = NULL;
  TessResult r = tess_store_open(path, TESS_STORE_READ_ONLY, &store, &err);
  CHECK_OK(r, &err);
  if (r != TESS_OK) return NULL;
  r = tess_store_load(store, &p, &err);
  CHECK_OK(r, &err);
  tess_store_close(store);
  return r == TESS_OK ? p : NULL;
}

static void remove_project(const char *path) { tess_test_remove_project(path); }

void create_and_flush(const char *path, TessProject *p) {
  remove_project(path);
  TessStore *store = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_CREATE, &store, &err), &err);
  if (!store) return;
  CHECK_OK(tess_store_flush(store, p, &err), &err);
  tess_store_close(store);
}

void copy_file(const char *src, const char *dst) {
  FILE *in = fopen(src, "rb");
  FILE *out = fopen(dst, "wb");
  CHECK(in && out);
  if (in && out) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) CHECK(fwrite(buf, 1, n, out) == n);
  }
  if (in) fclose(in);
  if (out) fclose(out);
}

bool file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

int64_t sql_int(const char *path, const char *sql) {
  sqlite3 *db = NULL;
  int64_t v = -1;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      v = sqlite3_column_int64(st, 0);
    else
      fprintf(stderr, "sql_int(%s): %s\n", sql, sqlite3_errmsg(db));
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return v;
}

bool sql_exec(const char *path, const char *sql) {
  sqlite3 *db = NULL;
  bool ok = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK;
  if (ok) {
    sqlite3_busy_timeout(db, 5000);
    char *msg = NULL;
    ok = sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK;
    if (!ok) fprintf(stderr, "sql_exec(%s): %s\n", sql, msg ? msg : "?");
    sqlite3_free(msg);
  }
  sqlite3_close(db);
  return ok;
}

uint32_t forget_integrators(TessProject *p) {
  uint32_t changed = 0;
  TessError err;
  for (uint32_t li = 0; li < p->level_count; li++) {
    TessLevel *l = p->levels[li];
    for (uint32_t k = 0; k < l->layer_count; k++) {
      TessLayer *layer = l->layers[k];
      for (uint32_t o = 0; o < layer->object_count; o++) {
        if (layer->objects[o].kind != TESS_OBJECT_BODY || !layer->objects[o].u.body.integrator) continue;
        TessObject euler;
        CHECK_OK(tess_object_copy(&euler, &layer->objects[o]), &err);
        euler.u.body.integrator = TESS_INTEGRATOR_EULER;
        CHECK_OK(tess_edit_object_set(p, l->id, &euler, 0, &err), &err);
        tess_object_clear(&euler);
        changed++;
      }
    }
  }
  return changed;
}

bool schema_downgrade(const char *path, int version) {
  char *sql = tess_test_schema_downgrade_sql(version);
  bool ok = sql && sql_exec(path, sql);
  free(sql);
  return ok;
}
