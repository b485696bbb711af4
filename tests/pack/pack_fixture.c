#include "pack_fixture.h"

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tessera/image.h"

#define TRY(call)                                                                      \
  do {                                                                                 \
    TessError fx_err_;                                                                 \
    if ((call) != TESS_OK) {                                                           \
      char fx_buf_[1200];                                                              \
      tess_error_format(&fx_err_, fx_buf_, sizeof fx_buf_);                            \
      fprintf(stderr, "%s:%d: fixture: %s: %s\n", __FILE__, __LINE__, #call, fx_buf_); \
      goto fail;                                                                       \
    }                                                                                  \
  } while (0)
#define E (&fx_err_)

void pack_fixture_spec_default(PackFixtureSpec *spec) {
  memset(spec, 0, sizeof *spec);
  spec->width = 40;
  spec->height = 30;
  spec->tile_layers = 2;
  spec->bodies = 12;
  spec->joints = 4;
  spec->zones = 2;
  spec->spawns = 2;
  spec->levels = 1;
  spec->noise = false;
}

static float frand(TessTestRng *r, float lo, float hi) { return lo + (hi - lo) * (float)tess_rng_unit(r); }

static TessResult add_materials(TessProject *p, TessId ids[4], TessError *err) {
  static const struct {
    const char *name;
    TessMaterialKind kind;
    float friction, restitution, density;
  } mats[4] = {{"Stone", TESS_MATERIAL_SOLID, 0.6f, 0.1f, 2.5f},
               {"Ice", TESS_MATERIAL_FLOOR, 0.05f, 0.0f, 0.9f},
               {"Water", TESS_MATERIAL_FLUID, 0.0f, 0.0f, 1.0f},
               {"Rubber", TESS_MATERIAL_SOLID, 0.9f, 0.8f, 1.2f}};
  for (int i = 0; i < 4; i++) {
    TessMaterial m;
    tess_material_default(&m);
    snprintf(m.name, sizeof m.name, "%s", mats[i].name);
    m.kind = mats[i].kind;
    m.friction = mats[i].friction;
    m.restitution = mats[i].restitution;
    m.density = mats[i].density;
    m.color = 0x336699FFu + (uint32_t)i * 0x10203000u;
    TessResult r = tess_edit_material_add(p, &m, &ids[i], err);
    if (r) return r;
  }
  return TESS_OK;
}

/* A tileset whose tiles cycle through none, full, traced slopes and one-way. */
/* The image of such a tileset, its alpha shaped like each tile's collision (for layers that
 * collide by pixels): none clear, full squares opaque, the slope's triangle, the step's lower
 * half, the one-way tile's top quarter. */
static TessResult tileset_png(uint32_t cols, uint32_t rows, uint8_t **png, size_t *size, TessError *err) {
  TessImage img;
  TessResult r = tess_image_create(cols * 16, rows * 16, &img, err);
  if (r) return r;
  for (uint32_t y = 0; y < img.height; y++)
    for (uint32_t x = 0; x < img.width; x++) {
      uint32_t t = (y / 16) * cols + x / 16, u = x % 16, v = y % 16;
      bool solid = t % 5 == 1 || (t % 5 == 2 && u + v >= 16) || (t % 5 == 3 && v >= 8) || (t % 5 == 4 && v < 4);
      uint8_t *px = img.pixels + (size_t)y * img.stride + (size_t)x * 4;
      px[0] = (uint8_t)(40 + 50 * (t % 5));
      px[1] = 120;
      px[2] = 90;
      px[3] = solid ? 255 : 0;
    }
  r = tess_png_encode(tess_image_view(&img), png, size, err);
  tess_image_clear(&img);
  return r;
}

static TessResult add_tileset(TessProject *p, const char *name, uint32_t cols, uint32_t rows, const TessId mats[4],
                              bool image, TessId *id, TessError *err) {
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  uint8_t *png = NULL;
  size_t png_size = 0;
  if (image) {
    TessResult r = tileset_png(cols, rows, &png, &png_size, err);
    if (r) return r;
    def.png = png;
    def.png_size = png_size;
  }
  def.name = name;
  def.source_path = "tiles/terrain.png";
  def.image_w = cols * 16;
  def.image_h = rows * 16;
  def.tile_w = 16;
  def.tile_h = 16;
  def.default_material = mats[0];
  def.default_collision = TESS_TILE_COLLISION_FULL;
  TessResult r = tess_edit_tileset_add(p, &def, id, err);
  tess_free(png);
  if (r) return r;
  TessTileset copy;
  memset(&copy, 0, sizeof copy);
  r = tess_tileset_copy(&copy, tess_project_tileset(p, *id));
  if (r) return r;
  TessPolygon slope = {3, {{0, 16}, {16, 16}, {16, 0}}};
  TessPolygon step[2] = {{4, {{0, 8}, {16, 8}, {16, 16}, {0, 16}}}, {3, {{8, 0}, {16, 8}, {8, 8}}}};
  for (uint32_t t = 0; t < copy.tile_count; t++) {
    TessTileInfo *ti = &copy.tiles[t];
    ti->material = mats[t % 4];
    switch (t % 5) {
      case 0:
        ti->collision = TESS_TILE_COLLISION_NONE;
        ti->material = 0;
        break;
      case 1: ti->collision = TESS_TILE_COLLISION_FULL; break;
      case 2:
        ti->collision = TESS_TILE_COLLISION_TRACED;
        ti->piece_count = 1;
        ti->pieces = tess_alloc(sizeof *ti->pieces);
        ti->pieces[0] = slope;
        break;
      case 3:
        ti->collision = TESS_TILE_COLLISION_TRACED;
        ti->piece_count = 2;
        ti->pieces = tess_alloc(2 * sizeof *ti->pieces);
        memcpy(ti->pieces, step, sizeof step);
        break;
      default:
        ti->collision = TESS_TILE_COLLISION_FULL;
        ti->one_way = 1;
        break;
    }
  }
  r = tess_edit_tileset_set(p, &copy, 0, err);
  tess_tileset_clear(&copy);
  return r;
}

static TessResult add_sprites(TessProject *p, TessId ids[2], TessError *err) {
  for (int k = 0; k < 2; k++) {
    TessSprite s;
    memset(&s, 0, sizeof s);
    snprintf(s.name, sizeof s.name, k ? "ball" : "crate");
    s.image_w = 64;
    s.image_h = 32;
    s.frame_count = k ? 2 : 1;
    s.frame_rate = k ? 8.0f : 0.0f;
    s.anchor = tess_v2(k ? 16.0f : 32.0f, 16.0f);
    tess_sprite_mask_default(&s.mask);
    if (k) {
      s.mask.mode = TESS_MASK_CIRCLE;
      s.mask.circle_center = tess_v2(16, 16);
      s.mask.circle_radius = 15;
    } else {
      TessPolygon pieces[2] = {{4, {{0, 4}, {32, 4}, {32, 28}, {0, 28}}}, {5, {{32, 0}, {64, 8}, {64, 24}, {32, 32}, {30, 16}}}};
      s.mask.mode = TESS_MASK_PIECES;
      /* pixel mass properties as core/mask would give them */
      s.mask.area = 1700.0;
      s.mask.centroid_x = 30.5;
      s.mask.centroid_y = 16.0;
      s.mask.inertia = 410000.0;
      s.mask.piece_count = 2;
      s.mask.pieces = pieces;
      TessResult r = tess_edit_sprite_add(p, &s, &ids[k], err);
      if (r) return r;
      continue;
    }
    TessResult r = tess_edit_sprite_add(p, &s, &ids[k], err);
    if (r) return r;
  }
  return TESS_OK;
}

/* A 40 x 20 ramp, opaque under its diagonal, as a real PNG (a body colliding by pixels decodes it). */
static TessResult add_ramp_sprite(TessProject *p, TessId *id, TessError *err) {
  uint8_t rgba[20][40][4];
  memset(rgba, 0, sizeof rgba);
  for (uint32_t y = 0; y < 20; y++)
    for (uint32_t x = 0; x < 40; x++)
      if (2 * y + 1 >= 40 - x) rgba[y][x][0] = rgba[y][x][3] = 255;
  TessImageView v = {40, 20, 40 * 4, &rgba[0][0][0]};
  TessSprite s;
  memset(&s, 0, sizeof s);
  snprintf(s.name, sizeof s.name, "ramp");
  TessResult r = tess_png_encode(v, &s.png, &s.png_size, err);
  if (r) return r;
  s.image_w = 40;
  s.image_h = 20;
  s.frame_count = 1;
  s.anchor = tess_v2(20, 10);
  tess_sprite_mask_default(&s.mask);
  r = tess_edit_sprite_add(p, &s, id, err);
  tess_free(s.png);
  return r;
}

static TessResult fill_level(TessProject *p, TessTestRng *rng, const PackFixtureSpec *spec, const TessId mats[4],
                             const TessId ts[2], const TessId sprites[2], uint32_t index, TessError *err) {
  TessLevelSettings st;
  tess_level_settings_default(&st);
  snprintf(st.name, sizeof st.name, "Level %u", index + 1);
  st.width = spec->width;
  st.height = spec->height;
  st.tile_w = 16;
  st.tile_h = 16;
  st.ppm = 16.0f;
  st.view = (uint8_t)(index % 2 ? TESS_VIEW_TOP_DOWN : TESS_VIEW_SIDE);
  if (st.view == TESS_VIEW_TOP_DOWN) st.gravity = tess_v2(0, 0);
  st.floor_drag = 1.5f;
  TessId level;
  TessResult r = tess_edit_level_add(p, &st, &level, err);
  if (r) return r;
  TessLevel *lv = tess_project_level(p, level);
  TessId tile_layers[8], object_layer = 0;
  uint32_t nt = 0;
  for (uint32_t i = 0; i < lv->layer_count; i++) {
    if (lv->layers[i]->props.kind == TESS_LAYER_TILES && nt < 8) tile_layers[nt++] = lv->layers[i]->props.id;
    if (lv->layers[i]->props.kind == TESS_LAYER_OBJECTS) object_layer = lv->layers[i]->props.id;
  }
  while (nt < spec->tile_layers && nt < 8) {
    char name[32];
    snprintf(name, sizeof name, "Tiles %u", nt + 1);
    if ((r = tess_edit_layer_add(p, level, TESS_LAYER_TILES, name, (int)nt, &tile_layers[nt], err))) return r;
    nt++;
  }
  size_t n = (size_t)st.width * st.height;
  uint32_t *cells = tess_calloc(n, sizeof *cells);
  if (!cells) return TESS_ERR_NOMEM;
  for (uint32_t l = 0; l < nt; l++) {
    const TessTileset *set = tess_project_tileset(p, ts[l % 2]);
    memset(cells, 0, n * sizeof *cells);
    for (uint32_t y = 0; y < st.height; y++) {
      for (uint32_t x = 0; x < st.width; x++) {
        bool wall = l == 0 && (y >= st.height - 2 || x == 0 || (y > st.height / 2 && x % 9 < 3));
        uint32_t rnd = (uint32_t)tess_rng_below(rng, 100);
        uint32_t tile;
        if (wall && spec->terrain_only) tile = 1;                                         /* one full-square tile: stone walls */
        else if (wall) tile = 1 + 5 * (uint32_t)tess_rng_below(rng, set->tile_count / 5); /* full squares */
        else if (spec->noise || (!spec->terrain_only && rnd < (l == 0 ? 12u : 6u)))
          tile = (uint32_t)tess_rng_below(rng, set->tile_count);
        else if (spec->terrain_only && l > 0 && y % 7 == 0 && x % 11 < 6)
          tile = 5 * (uint32_t)tess_rng_below(rng, set->tile_count / 5); /* decoration rows: tiles that do not collide */
        else continue;
        uint32_t flips = (rnd % 7 == 0) ? (uint32_t)(tess_rng_next(rng) & TESS_CELL_FLIPS) : 0;
        cells[(size_t)y * st.width + x] = TESS_CELL_MAKE(set->id, tile, flips);
      }
    }
    /* Erase a room so there is a hole inside the solid mass. */
    if ((r = tess_edit_set_cells(p, level, tile_layers[l], 0, 0, st.width, st.height, cells, 0, err))) break;
  }
  tess_free(cells);
  if (r) return r;
  if (spec->pixel_layer && nt > 0) {
    TessLayerProps props = tess_level_layer(lv, tile_layers[nt - 1])->props;
    props.collide_pixels = true;
    if ((r = tess_edit_layer_set_props(p, level, &props, 0, err))) return r;
  }
  for (int k = 0; k < 6; k++) {
    uint32_t w = 1 + tess_rng_below(rng, st.width / 3 + 1), h = 1 + tess_rng_below(rng, st.height / 3 + 1);
    int32_t x = (int32_t)tess_rng_below(rng, st.width), y = (int32_t)tess_rng_below(rng, st.height);
    if ((r = tess_edit_paint_material(p, level, x, y, w, h, mats[tess_rng_below(rng, 4)], 0, err))) return r;
  }
  TessId body_ids[1024];
  uint32_t nb = 0;
  for (uint32_t i = 0; i < spec->bodies; i++) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_BODY);
    snprintf(o.name, sizeof o.name, "body %u", i);
    o.pos = tess_v2(frand(rng, 8, st.width * 16.0f - 8), frand(rng, 8, st.height * 16.0f - 8));
    o.angle = frand(rng, -3.0f, 3.0f);
    o.depth = (int32_t)(i % 5) - 2; /* 3.5's draw order (no draw from rng: the rest stays as it was) */
    TessBodyObject *b = &o.u.body;
    b->shape = (uint8_t)(i % 4);
    b->type = (uint8_t)tess_rng_below(rng, 3);
    b->sensor = tess_rng_below(rng, 10) == 0;
    b->pin = (uint8_t)(tess_rng_below(rng, 5) == 0 ? 1 : 0);
    b->material = i % 5 == 0 ? 0 : mats[tess_rng_below(rng, 4)];
    b->radius = frand(rng, 2, 20);
    b->width = frand(rng, 4, 40);
    b->height = frand(rng, 4, 24);
    b->sprite = sprites[(i / 4) % 2];
    b->category = 1u << (i % 4);
    b->mask = 0xFFFFFFFFu ^ (i % 3);
    b->integrator = i % 3 == 1 ? TESS_INTEGRATOR_RK4 : TESS_INTEGRATOR_EULER; /* 3.5 */
    if (i % 3 == 0) {
      TessProperty pr;
      memset(&pr, 0, sizeof pr);
      snprintf(pr.name, sizeof pr.name, "score");
      pr.type = TESS_PROP_INT;
      pr.v.i = -(int64_t)i * 1000000007LL;
      if ((r = tess_object_set_property(&o, &pr))) return r;
      memset(&pr, 0, sizeof pr);
      snprintf(pr.name, sizeof pr.name, "label");
      pr.type = TESS_PROP_STRING;
      pr.v.s = "crate of gold";
      r = tess_object_set_property(&o, &pr);
      if (!r) {
        snprintf(pr.name, sizeof pr.name, "heavy");
        pr.type = TESS_PROP_BOOL;
        pr.v.b = true;
        r = tess_object_set_property(&o, &pr);
      }
      if (!r) {
        snprintf(pr.name, sizeof pr.name, "ratio");
        pr.type = TESS_PROP_FLOAT;
        pr.v.f = 0.1 * i;
        r = tess_object_set_property(&o, &pr);
      }
      if (!r) {
        snprintf(pr.name, sizeof pr.name, "tint");
        pr.type = TESS_PROP_COLOR;
        pr.v.color = 0xFF8800FFu;
        r = tess_object_set_property(&o, &pr);
      }
      if (r) {
        tess_object_clear(&o);
        return r;
      }
    }
    r = tess_edit_object_add(p, level, object_layer, &o, nb < 1024 ? &body_ids[nb] : NULL, err);
    tess_object_clear(&o);
    if (r) return r;
    if (nb < 1024) nb++;
  }
  for (uint32_t i = 0; i < spec->joints && nb >= 2; i++) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_JOINT);
    o.pos = tess_v2(frand(rng, 0, st.width * 16.0f), frand(rng, 0, st.height * 16.0f));
    o.u.joint.kind = (uint8_t)(i % 2);
    o.u.joint.body_a = body_ids[tess_rng_below(rng, nb)];
    o.u.joint.body_b = i % 3 == 2 ? 0 : body_ids[tess_rng_below(rng, nb)];
    if (o.u.joint.body_b == o.u.joint.body_a) o.u.joint.body_b = 0; /* never a body to itself */
    o.u.joint.anchor_b = tess_v2(o.pos.x + 20, o.pos.y + 5);
    o.u.joint.length = i % 4 == 1 ? 0.0f : 30.0f;
    o.u.joint.limit_enabled = i % 2 == 0;
    o.u.joint.lower = -0.5f;
    o.u.joint.upper = 0.75f;
    if (o.u.joint.kind == TESS_JOINT_PIN) {
      /* Pins 0, 4, 8... drive; 2, 6... hold a motor set up but off. */
      o.u.joint.motor_enabled = i % 4 == 0;
      o.u.joint.motor_speed = (i % 8 == 0 ? 1.0f : -1.0f) * (1.5f + 0.25f * (float)i); /* rad/s */
      o.u.joint.motor_torque = 40.0f * (float)(i + 1);                                 /* N m */
    }
    r = tess_edit_object_add(p, level, object_layer, &o, NULL, err);
    if (r) return r;
  }
  for (uint32_t i = 0; i < spec->zones; i++) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_ZONE);
    o.pos = tess_v2(frand(rng, 0, st.width * 16.0f), frand(rng, 0, st.height * 16.0f));
    /* the spring second, so the fixture's two zones by default cover it (3.5) */
    static const uint8_t kinds[] = {TESS_ZONE_FORCE, TESS_ZONE_SPRING, TESS_ZONE_ACCELERATION, TESS_ZONE_ATTRACTOR};
    o.u.zone.kind = kinds[i % 4];
    o.angle = frand(rng, -3.0f, 3.0f); /* a turned rectangle: the scene and the pack keep the turn */
    o.u.zone.strength = 3.5f;
    o.u.zone.radius = 64.0f;
    if ((r = tess_edit_object_add(p, level, object_layer, &o, NULL, err))) return r;
  }
  if (spec->pixel_body) { /* after everything drawn from rng, so the rest of the level stays as it was */
    TessId ramp = 0;
    if ((r = add_ramp_sprite(p, &ramp, err))) return r;
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_BODY);
    snprintf(o.name, sizeof o.name, "pixel ramp");
    o.pos = tess_v2(st.width * 8.0f, st.height * 8.0f);
    o.angle = 0.3f;
    o.u.body.type = TESS_BODY_STATIC;
    o.u.body.shape = TESS_BODY_SPRITE;
    o.u.body.sprite = ramp;
    o.u.body.material = mats[1];
    o.u.body.collide_pixels = true;
    if ((r = tess_edit_object_add(p, level, object_layer, &o, NULL, err))) return r;
  }
  for (uint32_t i = 0; i < spec->spawns; i++) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_SPAWN);
    snprintf(o.name, sizeof o.name, "spawn %u", i);
    o.pos = tess_v2(frand(rng, 0, st.width * 16.0f), frand(rng, 0, st.height * 16.0f));
    if ((r = tess_edit_object_add(p, level, object_layer, &o, NULL, err))) return r;
  }
  return TESS_OK;
}

TessProject *pack_fixture_project(uint64_t seed, const PackFixtureSpec *spec) {
  TessTestRng rng = {seed * 0x9E3779B97F4A7C15ull + 1};
  TessProject *p = tess_project_create();
  TessId mats[4], ts[2], sprites[2];
  if (!p) return NULL;
  TRY(add_materials(p, mats, E));
  TRY(add_tileset(p, "terrain", 8, 4, mats, spec->pixel_layer, &ts[0], E));
  TRY(add_tileset(p, "props", 5, 2, mats, spec->pixel_layer, &ts[1], E));
  TRY(add_sprites(p, sprites, E));
  for (uint32_t i = 0; i < spec->levels; i++) TRY(fill_level(p, &rng, spec, mats, ts, sprites, i, E));
  tess_project_clear_history(p);
  tess_project_clear_changes(p);
  return p;
fail:
  tess_project_destroy(p);
  return NULL;
}
