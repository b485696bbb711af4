/* The render tests' project, built in code (see render_fixture.h). */
#include "render_fixture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const uint8_t tile_rgb[16][3] = {
    {120, 120, 128}, {96, 96, 104}, {140, 130, 120}, {110, 100, 90}, /* stone walls */
    {150, 110, 70},                                                  /* slope (traced) */
    {70, 160, 70},
    {60, 140, 60},
    {90, 170, 80},
    {80, 150, 100}, /* grass */
    {200, 180, 120},
    {220, 200, 140},
    {180, 90, 60},
    {200, 60, 60}, /* sand, brick, red */
    {230, 220, 60},
    {160, 60, 200}, /* yellow, violet */
    {40, 90, 200},  /* water */
};

TessResult fixture_tileset_image(TessImage *out, TessError *err) {
  TessImage img;
  TessResult r = tess_image_create(64, 64, &img, err);
  if (r) return r;
  for (uint32_t t = 0; t < 16; t++) {
    uint32_t ox = (t % 4) * 16, oy = (t / 4) * 16;
    for (uint32_t y = 0; y < 16; y++) {
      for (uint32_t x = 0; x < 16; x++) {
        uint8_t *px = img.pixels + (oy + y) * img.stride + (ox + x) * 4;
        int c[3] = {tile_rgb[t][0], tile_rgb[t][1], tile_rgb[t][2]};
        int a = 255;
        if (x < 3) {
          c[0] /= 3;
          c[1] /= 3;
          c[2] /= 3;
        } /* dark bar on the left */
        else if (y < 2) {
          c[0] = 240;
          c[1] = 240;
          c[2] = 240;
        } /* light bar on top */
        else if (x >= 5 && x < 8 && y >= 4 && y < 7) {
          c[0] = 20;
          c[1] = 20;
          c[2] = 20;
        }                                /* dot */
        if (t == 4 && x + y < 15) a = 0; /* slope: lower-right half only */
        if (t == 15) a = 200;            /* water: translucent */
        px[0] = (uint8_t)c[0];
        px[1] = (uint8_t)c[1];
        px[2] = (uint8_t)c[2];
        px[3] = (uint8_t)a;
      }
    }
  }
  *out = img;
  return TESS_OK;
}

static void add_material(TessProject *p, TessId id, const char *name, uint32_t color, TessMaterialKind kind) {
  TessMaterial m;
  tess_material_default(&m);
  m.id = id;
  snprintf(m.name, sizeof m.name, "%s", name);
  m.color = color;
  m.kind = kind;
  tess_project_insert_material(p, &m, NULL);
}

TessProject *fixture_project(void) {
  TessProject *p = tess_project_create();
  if (!p) return NULL;
  add_material(p, FIX_STONE, "Stone", 0x8890A0FFu, TESS_MATERIAL_SOLID);
  add_material(p, FIX_GRASS, "Grass", 0x40D040FFu, TESS_MATERIAL_FLOOR);
  add_material(p, FIX_WATER, "Water", 0x3070FFFFu, TESS_MATERIAL_FLUID);
  add_material(p, FIX_ICE, "Ice", 0xB0F0FFFFu, TESS_MATERIAL_SOLID);

  TessImage img;
  uint8_t *png = NULL;
  size_t png_size = 0;
  if (fixture_tileset_image(&img, NULL) == TESS_OK) {
    tess_png_encode(tess_image_view(&img), &png, &png_size, NULL);
    tess_image_clear(&img);
  }
  TessTileInfo tiles[16];
  memset(tiles, 0, sizeof tiles);
  TessPolygon slope = {3, {{16, 16}, {0, 16}, {16, 0}}};
  for (int t = 0; t < 16; t++) {
    tiles[t].material = t < 5 ? FIX_STONE : (t == 15 ? FIX_WATER : FIX_GRASS);
    tiles[t].collision = t < 4 ? TESS_TILE_COLLISION_FULL : TESS_TILE_COLLISION_NONE;
  }
  tiles[4].collision = TESS_TILE_COLLISION_TRACED;
  tiles[4].piece_count = 1;
  tiles[4].pieces = &slope;
  TessTileset ts;
  memset(&ts, 0, sizeof ts);
  ts.id = FIX_TILESET;
  snprintf(ts.name, sizeof ts.name, "Fixture tiles");
  ts.png = png;
  ts.png_size = png_size;
  ts.image_w = ts.image_h = 64;
  ts.tile_w = ts.tile_h = 16;
  ts.columns = 4;
  ts.tile_count = 16;
  ts.alpha_threshold = 1;
  ts.tiles = tiles;
  tess_project_insert_tileset(p, &ts, NULL);

  /* A sprite: a 24 x 16 orange crate, anchored at its centre, boxed mask. */
  TessImage simg;
  uint8_t *spng = NULL;
  size_t spng_size = 0;
  if (tess_image_create(24, 16, &simg, NULL) == TESS_OK) {
    for (uint32_t y = 0; y < 16; y++)
      for (uint32_t x = 0; x < 24; x++) {
        uint8_t *px = simg.pixels + y * simg.stride + x * 4;
        bool edge = x < 2 || y < 2 || x > 21 || y > 13 || x == y + 4;
        px[0] = edge ? 120 : 230;
        px[1] = edge ? 60 : 140;
        px[2] = edge ? 20 : 40;
        px[3] = 255;
      }
    tess_png_encode(tess_image_view(&simg), &spng, &spng_size, NULL);
    tess_image_clear(&simg);
  }
  TessSprite sp;
  memset(&sp, 0, sizeof sp);
  sp.id = FIX_SPRITE;
  snprintf(sp.name, sizeof sp.name, "Crate");
  sp.png = spng;
  sp.png_size = spng_size;
  sp.image_w = 24;
  sp.image_h = 16;
  sp.frame_count = 1;
  sp.anchor = tess_v2(12, 8);
  tess_sprite_mask_default(&sp.mask);
  TessPolygon box = {4, {{0, 0}, {24, 0}, {24, 16}, {0, 16}}};
  sp.mask.mode = TESS_MASK_BOX;
  sp.mask.piece_count = 1;
  sp.mask.pieces = &box;
  tess_project_insert_sprite(p, &sp, NULL);
  tess_free(png);
  tess_free(spng);
  return p;
}

static TessLayer *add_layer(TessProject *p, TessLevel *level, TessId id, const char *name, TessLayerKind kind,
                            float opacity) {
  TessLayerProps props;
  memset(&props, 0, sizeof props);
  props.id = id;
  snprintf(props.name, sizeof props.name, "%s", name);
  props.kind = (uint8_t)kind;
  props.visible = true;
  props.collides = kind == TESS_LAYER_TILES;
  props.opacity = opacity;
  TessLayer *layer = NULL;
  tess_level_insert_layer(p, level, &props, &layer, NULL);
  return layer;
}

static void add_object(TessProject *p, TessLayer *layer, TessObject *obj, TessId id) {
  obj->id = id;
  tess_layer_insert_object(p, layer, obj, NULL);
  tess_object_clear(obj);
}

TessLevel *fixture_small_level(TessProject *p) {
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "Small");
  s.width = 12;
  s.height = 8;
  s.tile_w = s.tile_h = 16;
  TessLevel *level = NULL;
  if (tess_project_insert_level(p, FIX_SMALL_LEVEL, &s, &level, NULL) != TESS_OK) return NULL;
  TessLayer *ground = add_layer(p, level, FIX_LAYER_GROUND, "Ground", TESS_LAYER_TILES, 1.0f);
  TessLayer *decor = add_layer(p, level, FIX_LAYER_DECOR, "Decor", TESS_LAYER_TILES, 0.5f);
  TessLayer *mats = add_layer(p, level, FIX_LAYER_MATERIAL, "Materials", TESS_LAYER_MATERIAL, 1.0f);
  TessLayer *objs = add_layer(p, level, FIX_LAYER_OBJECTS, "Objects", TESS_LAYER_OBJECTS, 1.0f);
  uint32_t cells[TESS_CHUNK_CELLS];
  memset(cells, 0, sizeof cells);
  for (uint32_t y = 0; y < 8; y++)
    for (uint32_t x = 0; x < 12; x++) {
      TessCell c = 0;
      if (y == 7 || x == 0 || x == 11) c = TESS_CELL_MAKE(FIX_TILESET, (x + y) % 4, 0);                  /* walls */
      else if (y == 6) c = TESS_CELL_MAKE(FIX_TILESET, 5 + x % 4, 0);                                    /* grass */
      else if (y == 5 && x >= 2 && x <= 4) c = TESS_CELL_MAKE(FIX_TILESET, 15, 0);                       /* water */
      else if (y == 5 && x == 9) c = TESS_CELL_MAKE(FIX_TILESET, 4, 0);                                  /* slope */
      else if (y == 5 && x == 8) c = TESS_CELL_MAKE(FIX_TILESET, 4, TESS_CELL_FLIP_H);                   /* mirrored slope */
      else if (y == 2 && x >= 2 && x <= 9) c = TESS_CELL_MAKE(FIX_TILESET, 11, (uint32_t)(x - 2) << 29); /* 8 flips */
      cells[y * TESS_CHUNK_SIZE + x] = c;
    }
  tess_layer_insert_chunk(ground, 0, 0, cells, NULL);
  memset(cells, 0, sizeof cells);
  for (uint32_t x = 3; x <= 8; x++) cells[4 * TESS_CHUNK_SIZE + x] = TESS_CELL_MAKE(FIX_TILESET, 12 + x % 2, 0);
  tess_layer_insert_chunk(decor, 0, 0, cells, NULL);
  memset(cells, 0, sizeof cells);
  for (uint32_t x = 5; x <= 7; x++) cells[6 * TESS_CHUNK_SIZE + x] = FIX_ICE; /* ice over grass */
  cells[1 * TESS_CHUNK_SIZE + 10] = FIX_STONE;                                /* a painted wall */
  tess_layer_insert_chunk(mats, 0, 0, cells, NULL);

  TessObject o;
  TessId id = 1;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.u.body.shape = TESS_BODY_CIRCLE;
  o.u.body.radius = 10;
  o.pos = tess_v2(40, 40);
  o.u.body.material = FIX_STONE;
  add_object(p, objs, &o, id++);
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.u.body.shape = TESS_BODY_BOX;
  o.u.body.width = 28;
  o.u.body.height = 12;
  o.pos = tess_v2(80, 40);
  o.angle = 0.5f;
  o.u.body.material = FIX_ICE;
  add_object(p, objs, &o, id++);
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.u.body.shape = TESS_BODY_CAPSULE;
  o.u.body.width = 36;
  o.u.body.height = 12;
  o.pos = tess_v2(130, 20);
  o.u.body.type = TESS_BODY_STATIC;
  o.u.body.material = FIX_GRASS;
  add_object(p, objs, &o, id++);
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.u.body.shape = TESS_BODY_SPRITE;
  o.u.body.sprite = FIX_SPRITE;
  o.pos = tess_v2(150, 60);
  o.angle = -0.3f;
  add_object(p, objs, &o, id++);
  tess_object_default(&o, TESS_OBJECT_JOINT);
  o.u.joint.kind = TESS_JOINT_PIN;
  o.u.joint.body_a = 1;
  o.u.joint.body_b = 2;
  o.pos = tess_v2(60, 40);
  add_object(p, objs, &o, id++);
  tess_object_default(&o, TESS_OBJECT_JOINT);
  o.u.joint.kind = TESS_JOINT_DISTANCE;
  o.u.joint.body_a = 3;
  o.u.joint.body_b = 4;
  o.pos = tess_v2(130, 20);
  o.u.joint.anchor_b = tess_v2(150, 60);
  add_object(p, objs, &o, id++);
  tess_object_default(&o, TESS_OBJECT_ZONE);
  o.u.zone.kind = TESS_ZONE_ACCELERATION;
  o.u.zone.width = 48;
  o.u.zone.height = 32;
  o.u.zone.vector = tess_v2(3, -2);
  o.pos = tess_v2(56, 80);
  add_object(p, objs, &o, id++);
  tess_object_default(&o, TESS_OBJECT_ZONE);
  o.u.zone.kind = TESS_ZONE_ATTRACTOR;
  o.u.zone.radius = 20;
  o.pos = tess_v2(110, 72);
  add_object(p, objs, &o, id++);
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  o.pos = tess_v2(168, 96);
  add_object(p, objs, &o, id++);
  return level;
}

TessLevel *fixture_big_level(TessProject *p, TessId id, uint32_t width, uint32_t height, uint32_t tile) {
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "Big %u", (unsigned)id);
  s.width = width;
  s.height = height;
  s.tile_w = s.tile_h = tile;
  TessLevel *level = NULL;
  if (tess_project_insert_level(p, id, &s, &level, NULL) != TESS_OK) return NULL;
  TessLayer *ground = add_layer(p, level, id * 10 + 1, "Ground", TESS_LAYER_TILES, 1.0f);
  add_layer(p, level, id * 10 + 2, "Materials", TESS_LAYER_MATERIAL, 1.0f);
  add_layer(p, level, id * 10 + 3, "Objects", TESS_LAYER_OBJECTS, 1.0f);
  uint32_t cells[TESS_CHUNK_CELLS];
  uint32_t seed = 12345;
  for (uint32_t cy = 0; cy * TESS_CHUNK_SIZE < height; cy++)
    for (uint32_t cx = 0; cx * TESS_CHUNK_SIZE < width; cx++) {
      for (uint32_t k = 0; k < TESS_CHUNK_CELLS; k++) {
        uint32_t x = cx * TESS_CHUNK_SIZE + k % TESS_CHUNK_SIZE, y = cy * TESS_CHUNK_SIZE + k / TESS_CHUNK_SIZE;
        seed = seed * 1664525u + 1013904223u;
        if (x >= width || y >= height) {
          cells[k] = 0;
          continue;
        }
        /* Terrain-like bands with varied tiles and some flips. */
        uint32_t band = ((x / 7) + (y / 5) + (seed >> 28)) % 14;
        cells[k] = TESS_CELL_MAKE(FIX_TILESET, band < 4 ? band : band + 1, (seed >> 8) & TESS_CELL_FLIPS);
      }
      tess_layer_insert_chunk(ground, cx, cy, cells, NULL);
    }
  return level;
}
