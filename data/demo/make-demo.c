/* Builds the bundled demo project from the reviewable sources beside it:
 *
 *   make-demo ART_DIR OUTPUT.tessera
 *
 * reads the checked-in PNGs in ART_DIR (drawn by draw-demo-art.c), traces
 * the sprites' and traced tiles' collision masks with core/mask, builds the
 * materials, the tileset, the sprites and two levels through core/level's
 * edit operations, and writes them with core/store. The output is the same
 * project (same tess_project_hash) on every run: nothing here depends on the
 * time, the machine or the absolute paths. The file appears whole or not at
 * all (written under a temporary name, then renamed). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tessera/image.h"
#include "tessera/level.h"
#include "tessera/mask.h"
#include "tessera/store.h"
#include "terrain.h"

#define TILE 32

/* Stops at the first failure; `err` already says what failed. */
#define TRY(call)                         \
  do {                                    \
    TessResult try_r_ = (call);           \
    if (try_r_ != TESS_OK) return try_r_; \
  } while (0)

typedef struct Demo {
  TessProject *project;
  const char *art_dir;
  TessId rock, sand, ice, rubber, wood, water, stone_floor, ice_floor, sand_floor;
  TessId terrain;
  TessId crate, barrel, ball, boulder, star, coin;
  TessId doll_head, doll_torso, doll_upper_arm, doll_lower_arm, doll_upper_leg, doll_lower_leg;
  TessId tree;
} Demo;

/* ---- materials -------------------------------------------------------- */

static TessResult add_material(Demo *d, const char *name, uint32_t color, float friction, float restitution,
                               float density, TessMaterialKind kind, TessId *id, TessError *err) {
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "%s", name);
  m.color = color;
  m.friction = friction;
  m.restitution = restitution;
  m.density = density;
  m.kind = kind;
  return tess_edit_material_add(d->project, &m, id, err);
}

static TessResult add_materials(Demo *d, TessError *err) {
  /* Solids (walls and platforms when painted, and what bodies are made of). */
  TRY(add_material(d, "Rock", 0x8A837BFFu, 0.7f, 0.2f, 2600.0f, TESS_MATERIAL_SOLID, &d->rock, err));
  TRY(add_material(d, "Sand", 0xE0C48CFFu, 0.9f, 0.1f, 1600.0f, TESS_MATERIAL_SOLID, &d->sand, err));
  TRY(add_material(d, "Ice", 0xBCE2F6FFu, 0.02f, 0.1f, 917.0f, TESS_MATERIAL_SOLID, &d->ice, err));
  TRY(add_material(d, "Rubber", 0xC4304CFFu, 0.9f, 0.95f, 1100.0f, TESS_MATERIAL_SOLID, &d->rubber, err));
  TRY(add_material(d, "Wood", 0xA0683AFFu, 0.5f, 0.3f, 600.0f, TESS_MATERIAL_SOLID, &d->wood, err));
  /* Water: not a wall; buoyancy and drag by its density. */
  TRY(add_material(d, "Water", 0x3C84CCA0u, 0.0f, 0.0f, 1000.0f, TESS_MATERIAL_FLUID, &d->water, err));
  /* Floors for the top-down level: friction is the floor drag. */
  TRY(add_material(d, "Stone floor", 0x9C9890FFu, 0.6f, 0.0f, 2400.0f, TESS_MATERIAL_FLOOR, &d->stone_floor, err));
  TRY(add_material(d, "Ice floor", 0xD0ECFAFFu, 0.02f, 0.0f, 917.0f, TESS_MATERIAL_FLOOR, &d->ice_floor, err));
  TRY(add_material(d, "Sand floor", 0xEAD29EFFu, 0.9f, 0.0f, 1600.0f, TESS_MATERIAL_FLOOR, &d->sand_floor, err));
  return TESS_OK;
}

/* ---- art ---------------------------------------------------------------- */

/* Reads ART_DIR/file: the PNG bytes and their decoded pixels. */
static TessResult read_art(const Demo *d, const char *file, uint8_t **png, size_t *png_size, TessImage *img,
                           TessError *err) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", d->art_dir, file);
  TessResult r = tess_file_read(path, TESS_IMAGE_MAX_BYTES, png, png_size, err);
  if (r != TESS_OK) return r;
  r = tess_png_decode(*png, *png_size, path, img, err);
  if (r != TESS_OK) {
    tess_free(*png);
    *png = NULL;
  }
  return r;
}

/* Clips a convex polygon to the tile's square [0, size]^2 (Sutherland-Hodgman,
 * one edge of the square at a time). The tracer's simplified outline may
 * reach a little past the image's edge (the rounded corner's arc ends
 * 0.45 px beyond it); a tile's shape must stay inside its own square, or
 * neighbouring cells would overlap. Returns false if the result no longer
 * fits in TESS_POLY_MAX vertices. */
static bool clip_to_tile(TessPolygon *poly, float size) {
  TessVec2 buf[2][TESS_POLY_MAX + 8];
  uint32_t n = poly->count;
  memcpy(buf[0], poly->v, n * sizeof(TessVec2));
  int cur = 0;
  for (int side = 0; side < 4 && n > 0; side++) {
    /* inside(v) >= 0 for: x >= 0, x <= size, y >= 0, y <= size */
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
      TessVec2 a = buf[cur][i], b = buf[cur][(i + 1) % n];
      float da = side == 0 ? a.x : side == 1 ? size - a.x
                               : side == 2   ? a.y
                                             : size - a.y;
      float db = side == 0 ? b.x : side == 1 ? size - b.x
                               : side == 2   ? b.y
                                             : size - b.y;
      if (da >= 0 && m < TESS_POLY_MAX + 8) buf[1 - cur][m++] = a;
      if ((da < 0) != (db < 0) && m < TESS_POLY_MAX + 8) buf[1 - cur][m++] = tess_v2_lerp(a, b, da / (da - db));
    }
    cur = 1 - cur;
    n = m;
  }
  /* Drop repeated points the clipping made. */
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    TessVec2 v = buf[cur][i];
    if (k > 0 && tess_v2_distance(v, poly->v[k - 1]) < 1e-4f) continue;
    if (k > 0 && i == n - 1 && tess_v2_distance(v, poly->v[0]) < 1e-4f) continue;
    if (k == TESS_POLY_MAX) return false;
    poly->v[k++] = v;
  }
  poly->count = k;
  return true;
}

typedef struct TileRule {
  int tile;
  TessId *material;
  TessTileCollision collision;
  bool one_way;
} TileRule;

static TessResult add_tileset(Demo *d, TessError *err) {
  uint8_t *png = NULL;
  size_t png_size = 0;
  TessImage img = {0};
  TessResult r = read_art(d, "terrain.png", &png, &png_size, &img, err);
  if (r != TESS_OK) return r;

  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Terrain";
  def.source_path = "art/terrain.png"; /* relative to data/demo: the same on every machine */
  def.png = png;
  def.png_size = png_size;
  def.image_w = img.width;
  def.image_h = img.height;
  def.tile_w = def.tile_h = TILE;
  def.default_collision = TESS_TILE_COLLISION_NONE;
  r = tess_edit_tileset_add(d->project, &def, &d->terrain, err);
  tess_free(png);
  if (r != TESS_OK) {
    tess_image_clear(&img);
    return r;
  }

  /* The traced tiles' pieces come from their own alpha. Only fully covered
   * pixels count (threshold 255): their staircase has its outer corners on
   * the drawn edge (the slope's diagonal, the quarter circle), and the
   * one-sided simplification, which may pass over up to 1 px of
   * transparent pixels, then follows that edge: the slope traces to the
   * exact triangle. A lower threshold would let the anti-aliased rim push
   * the shape out by a pixel, past the tile's own square. */
  TessMaskSettings trace;
  tess_mask_settings_default(&trace);
  trace.threshold = 255;
  trace.mode = TESS_MASK_PIECES;
  trace.max_vertices = TESS_POLY_MAX;
  trace.tolerance = 1.0;
  TessTileInfo traced[TERRAIN_TILE_COUNT];
  memset(traced, 0, sizeof traced);
  r = tess_mask_trace_tiles(tess_image_view(&img), TILE, TILE, 0, 0, &trace, traced, TERRAIN_TILE_COUNT, err);
  tess_image_clear(&img);
  if (r != TESS_OK) return r;

  TileRule rules[TERRAIN_TILE_COUNT] = {
      {TILE_ROCK, &d->rock, TESS_TILE_COLLISION_FULL, false},
      {TILE_SAND, &d->sand, TESS_TILE_COLLISION_FULL, false},
      {TILE_ICE, &d->ice, TESS_TILE_COLLISION_FULL, false},
      {TILE_RUBBER, &d->rubber, TESS_TILE_COLLISION_FULL, false},
      {TILE_WOOD, &d->wood, TESS_TILE_COLLISION_FULL, false},
      {TILE_WATER_SURFACE, &d->water, TESS_TILE_COLLISION_NONE, false},
      {TILE_WATER_DEEP, &d->water, TESS_TILE_COLLISION_NONE, false},
      {TILE_STONE_FLOOR, &d->stone_floor, TESS_TILE_COLLISION_NONE, false},
      {TILE_ROCK_SLOPE, &d->rock, TESS_TILE_COLLISION_TRACED, false},
      {TILE_ROUND_CORNER, &d->rock, TESS_TILE_COLLISION_TRACED, false},
      {TILE_PLANK, &d->wood, TESS_TILE_COLLISION_TRACED, true},
      {TILE_ICE_FLOOR, &d->ice_floor, TESS_TILE_COLLISION_NONE, false},
      {TILE_SAND_FLOOR, &d->sand_floor, TESS_TILE_COLLISION_NONE, false},
      {TILE_GRASS_ROCK, &d->rock, TESS_TILE_COLLISION_FULL, false},
      {TILE_BACKGROUND, NULL, TESS_TILE_COLLISION_NONE, false},
      {TILE_SAND_SLOPE, &d->sand, TESS_TILE_COLLISION_TRACED, false},
  };
  /* The cave tiles: rock traced from their quarters; all air has no shape, all rock is a full square. */
  for (int code = 0; code < 16; code++)
    rules[TILE_CAVE + code] = (TileRule){TILE_CAVE + code, code ? &d->rock : NULL,
                                         code == 0    ? TESS_TILE_COLLISION_NONE
                                         : code == 15 ? TESS_TILE_COLLISION_FULL
                                                      : TESS_TILE_COLLISION_TRACED,
                                         false};
  TessTileset copy;
  r = tess_tileset_copy(&copy, tess_project_tileset(d->project, d->terrain));
  if (r == TESS_OK && copy.tile_count != TERRAIN_TILE_COUNT)
    r = tess_error_set(err, TESS_ERR_FORMAT, "art/terrain.png", "expected %d tiles, the image holds %u",
                       TERRAIN_TILE_COUNT, copy.tile_count);
  if (r == TESS_OK) {
    copy.alpha_threshold = trace.threshold;
    for (int i = 0; i < TERRAIN_TILE_COUNT; i++) {
      TessTileInfo *t = &copy.tiles[rules[i].tile];
      t->material = rules[i].material ? *rules[i].material : 0;
      t->collision = (uint8_t)rules[i].collision;
      t->one_way = rules[i].one_way;
      if (rules[i].collision == TESS_TILE_COLLISION_TRACED) {
        TessTileInfo *src = &traced[rules[i].tile];
        if (src->collision != TESS_TILE_COLLISION_TRACED || src->piece_count == 0) {
          r = tess_error_set(err, TESS_ERR_EMPTY, "art/terrain.png", "tile %d traced to no pieces", rules[i].tile);
          break;
        }
        uint16_t kept = 0;
        for (uint16_t k = 0; k < src->piece_count; k++) {
          TessPolygon piece = src->pieces[k];
          if (!clip_to_tile(&piece, (float)TILE)) {
            r = tess_error_set(err, TESS_ERR_LIMIT, "art/terrain.png", "tile %d: a clipped piece exceeds %d vertices",
                               rules[i].tile, TESS_POLY_MAX);
            break;
          }
          if (piece.count >= 3) src->pieces[kept++] = piece;
        }
        if (r != TESS_OK) break;
        tess_free(t->pieces);
        t->pieces = src->pieces; /* moved */
        t->piece_count = kept;
        src->pieces = NULL;
        src->piece_count = 0;
      }
    }
  }
  for (int i = 0; i < TERRAIN_TILE_COUNT; i++) tess_free(traced[i].pieces);
  /* The "Cave" terrain set: rock (1) and air (2) on the cave tiles' corners,
   * so the terrain brush paints caves whose tiles join up. */
  if (r == TESS_OK) {
    copy.terrain_count = 1;
    copy.terrains = tess_calloc(1, sizeof *copy.terrains);
    if (!copy.terrains) r = tess_error_set(err, TESS_ERR_NOMEM, "make-demo", "out of memory");
  }
  if (r == TESS_OK) {
    TessTerrainSet *cave = &copy.terrains[0];
    tess_terrain_set_init(cave, "Cave", TESS_TERRAIN_CORNER);
    cave->tile = TILE_CAVE + 15;
    r = tess_terrain_set_add_color(cave, "Rock", 0x8A837BFFu, NULL, err);
    if (r == TESS_OK) r = tess_terrain_set_add_color(cave, "Air", 0x9FD3F0FFu, NULL, err);
    if (r == TESS_OK) {
      cave->colors[0].tile = TILE_CAVE + 15;
      cave->colors[1].tile = TILE_CAVE;
    }
    for (int code = 0; r == TESS_OK && code < 16; code++) {
      uint8_t wang[TESS_TERRAIN_POSITIONS] = {0};
      for (int k = 0; k < 4; k++) wang[2 * k + 1] = (code >> k) & 1 ? 1 : 2;
      r = tess_terrain_set_label(cave, (uint32_t)(TILE_CAVE + code), wang, 1.0f, err);
    }
  }
  if (r == TESS_OK) r = tess_edit_tileset_set(d->project, &copy, 0, err);
  tess_tileset_clear(&copy);
  return r;
}

/* Where a standing sprite meets the ground: its anchor (the body's origin, and the y a layer
 * sorted by y sorts it by) and the circle it collides with there, in pixels; NULL for a sprite
 * anchored at its centre with the shape traced from its whole alpha. */
typedef struct Footing {
  TessVec2 anchor, center;
  float radius;
} Footing;

static TessResult add_sprite_on(Demo *d, const char *file, const char *name, uint32_t frames, float fps,
                                TessMaskMode mode, const Footing *foot, TessId *id, TessError *err) {
  uint8_t *png = NULL;
  size_t png_size = 0;
  TessImage img = {0};
  TessResult r = read_art(d, file, &png, &png_size, &img, err);
  if (r != TESS_OK) return r;
  TessSprite s;
  memset(&s, 0, sizeof s);
  snprintf(s.name, sizeof s.name, "%s", name);
  char source[256];
  snprintf(source, sizeof source, "art/%s", file);
  s.source_path = source;
  s.png = png;
  s.png_size = png_size;
  s.image_w = img.width;
  s.image_h = img.height;
  s.frame_count = frames;
  s.frame_rate = fps;
  uint32_t frame_w = img.width / frames;
  s.anchor = tess_v2((float)frame_w * 0.5f, (float)img.height * 0.5f);
  tess_sprite_mask_default(&s.mask);
  s.mask.mode = (uint8_t)mode;
  /* The first frame's alpha gives the shape (every frame of the coin has the same outline). */
  TessImageView frame = {frame_w, img.height, img.stride, img.pixels};
  r = tess_sprite_mask_trace(frame, &s.mask, err);
  if (r == TESS_OK && foot) {
    /* only the trunk collides: the crown overhangs what passes behind it (the mask editor's fitted
     * circle, set by hand) */
    s.anchor = foot->anchor;
    s.mask.mode = TESS_MASK_CIRCLE;
    s.mask.circle_center = foot->center;
    s.mask.circle_radius = foot->radius;
    s.mask.manual = 1;
  }
  tess_image_clear(&img);
  if (r == TESS_OK) r = tess_edit_sprite_add(d->project, &s, id, err);
  tess_sprite_mask_clear(&s.mask);
  tess_free(png);
  return r;
}

static TessResult add_sprite(Demo *d, const char *file, const char *name, uint32_t frames, float fps,
                             TessMaskMode mode, TessId *id, TessError *err) {
  return add_sprite_on(d, file, name, frames, fps, mode, NULL, id, err);
}

static TessResult add_sprites(Demo *d, TessError *err) {
  TRY(add_sprite(d, "crate.png", "Crate", 1, 0.0f, TESS_MASK_SIMPLIFIED, &d->crate, err));
  TRY(add_sprite(d, "barrel.png", "Barrel", 1, 0.0f, TESS_MASK_SIMPLIFIED, &d->barrel, err));
  TRY(add_sprite(d, "ball.png", "Ball", 1, 0.0f, TESS_MASK_CIRCLE, &d->ball, err));
  TRY(add_sprite(d, "rock.png", "Boulder", 1, 0.0f, TESS_MASK_PIECES, &d->boulder, err));
  TRY(add_sprite(d, "star.png", "Star", 1, 0.0f, TESS_MASK_PIECES, &d->star, err));
  TRY(add_sprite(d, "coin.png", "Coin", 2, 4.0f, TESS_MASK_CIRCLE, &d->coin, err));
  TRY(add_sprite(d, "doll-head.png", "Doll head", 1, 0.0f, TESS_MASK_CIRCLE, &d->doll_head, err));
  TRY(add_sprite(d, "doll-torso.png", "Doll torso", 1, 0.0f, TESS_MASK_SIMPLIFIED, &d->doll_torso, err));
  TRY(add_sprite(d, "doll-upper-arm.png", "Doll upper arm", 1, 0.0f, TESS_MASK_SIMPLIFIED, &d->doll_upper_arm, err));
  TRY(add_sprite(d, "doll-lower-arm.png", "Doll lower arm", 1, 0.0f, TESS_MASK_SIMPLIFIED, &d->doll_lower_arm, err));
  TRY(add_sprite(d, "doll-upper-leg.png", "Doll upper leg", 1, 0.0f, TESS_MASK_SIMPLIFIED, &d->doll_upper_leg, err));
  TRY(add_sprite(d, "doll-lower-leg.png", "Doll lower leg", 1, 0.0f, TESS_MASK_SIMPLIFIED, &d->doll_lower_leg, err));
  /* 48 x 72: the trunk (10 px wide) stands on the ground at (24, 68), its roots 30 px wide there */
  const Footing trunk = {{24.0f, 68.0f}, {24.0f, 65.0f}, 5.0f};
  TRY(add_sprite_on(d, "tree.png", "Tree", 1, 0.0f, TESS_MASK_CIRCLE, &trunk, &d->tree, err));
  return TESS_OK;
}

/* ---- levels --------------------------------------------------------------- */

static TessId layer_named(const TessLevel *level, const char *name) {
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (strcmp(level->layers[i]->props.name, name) == 0) return level->layers[i]->props.id;
  return 0;
}

static TessId object_layer(const TessLevel *level) {
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) return level->layers[i]->props.id;
  return 0;
}

typedef struct Painter {
  Demo *demo;
  TessId level, layer;
  TessError *err;
} Painter;

/* Fills cells [x0..x1] x [y0..y1] (inclusive) with a tile. */
static TessResult fill(const Painter *p, int x0, int y0, int x1, int y1, int tile, uint32_t flips) {
  TessCell cell = TESS_CELL_MAKE(p->demo->terrain, tile, flips);
  return tess_edit_fill_rect(p->demo->project, p->level, p->layer, x0, y0, (uint32_t)(x1 - x0 + 1),
                             (uint32_t)(y1 - y0 + 1), cell, 0, p->err);
}

static TessResult erase(const Painter *p, int x0, int y0, int x1, int y1) {
  return tess_edit_erase(p->demo->project, p->level, p->layer, x0, y0, (uint32_t)(x1 - x0 + 1),
                         (uint32_t)(y1 - y0 + 1), 0, p->err);
}

static TessResult paint_material(const Painter *p, int x0, int y0, int x1, int y1, TessId material) {
  return tess_edit_paint_material(p->demo->project, p->level, x0, y0, (uint32_t)(x1 - x0 + 1),
                                  (uint32_t)(y1 - y0 + 1), material, 0, p->err);
}

/* Object placement, in level pixels. */
static TessResult place_body(const Painter *p, const char *name, float x, float y, TessBodyShape shape,
                             TessId sprite, TessId material, TessBodyType type, float radius, TessId *id) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "%s", name);
  o.pos = tess_v2(x, y);
  o.u.body.shape = (uint8_t)shape;
  o.u.body.type = (uint8_t)type;
  o.u.body.sprite = sprite;
  o.u.body.material = material;
  if (shape == TESS_BODY_CIRCLE) o.u.body.radius = radius;
  TessId got = 0;
  TessResult r = tess_edit_object_add(p->demo->project, p->level, p->layer, &o, &got, p->err);
  tess_object_clear(&o);
  if (r == TESS_OK && id) *id = got;
  return r;
}

static TessResult place_sprite(const Painter *p, const char *name, float x, float y, TessId sprite,
                               TessId material, TessBodyType type) {
  return place_body(p, name, x, y, TESS_BODY_SPRITE, sprite, material, type, 0.0f, NULL);
}

static TessResult place_spawn(const Painter *p, const char *name, float x, float y) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  snprintf(o.name, sizeof o.name, "%s", name);
  o.pos = tess_v2(x, y);
  TessResult r = tess_edit_object_add(p->demo->project, p->level, p->layer, &o, NULL, p->err);
  tess_object_clear(&o);
  return r;
}

/* Cell centre in pixels. */
static float cx(int cell) { return (float)(cell * TILE + TILE / 2); }
static float edge(int cell) { return (float)(cell * TILE); }

/* A ragdoll the SLRBS way: ten sprite bodies laid out overlapping where
 * their joints go (a T-pose: arms out, legs apart), each with the pin mode
 * "at the centre of the overlap". core/scene pins each overlapping pair
 * there, limits the pin to +-60 degrees and keeps the parts from colliding
 * with each other. The torso's centre is at (x, y); each part overlaps only
 * its neighbour (3 px), and no two other parts touch (2 px apart at least),
 * so the pins are exactly the nine joints of a body. */
static TessResult place_ragdoll(const Painter *p, float x, float y) {
  const Demo *d = p->demo;
  const struct {
    const char *name;
    TessId sprite;
    float dx, dy;
  } parts[] = {
      {"Doll torso", d->doll_torso, 0.0f, 0.0f},
      {"Doll head", d->doll_head, 0.0f, -21.0f},
      {"Doll left upper arm", d->doll_upper_arm, -14.0f, -8.0f},
      {"Doll left lower arm", d->doll_lower_arm, -28.0f, -8.0f},
      {"Doll right upper arm", d->doll_upper_arm, 14.0f, -8.0f},
      {"Doll right lower arm", d->doll_lower_arm, 28.0f, -8.0f},
      {"Doll left upper leg", d->doll_upper_leg, -5.5f, 21.0f},
      {"Doll left lower leg", d->doll_lower_leg, -5.5f, 37.5f},
      {"Doll right upper leg", d->doll_upper_leg, 5.5f, 21.0f},
      {"Doll right lower leg", d->doll_lower_leg, 5.5f, 37.5f},
  };
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_BODY);
    snprintf(o.name, sizeof o.name, "%s", parts[i].name);
    o.pos = tess_v2(x + parts[i].dx, y + parts[i].dy);
    o.u.body.shape = TESS_BODY_SPRITE;
    o.u.body.type = TESS_BODY_DYNAMIC;
    o.u.body.sprite = parts[i].sprite;
    o.u.body.material = d->wood;
    o.u.body.pin = TESS_PIN_AT_OVERLAP_CENTRE;
    TessResult r = tess_edit_object_add(d->project, p->level, p->layer, &o, NULL, p->err);
    tess_object_clear(&o);
    if (r != TESS_OK) return r;
  }
  return TESS_OK;
}

static TessResult build_side_level(Demo *d, TessError *err) {
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "Side");
  s.width = 64;
  s.height = 36;
  s.tile_w = s.tile_h = TILE;
  s.ppm = 32.0f;
  s.gravity = tess_v2(0.0f, 9.81f);
  s.view = TESS_VIEW_SIDE;
  TessId level_id;
  TRY(tess_edit_level_add(d->project, &s, &level_id, err));
  TessLevel *level = tess_project_level(d->project, level_id);

  /* A dim brick wall behind the lower part of the level: drawn, never colliding. */
  TessId background;
  TRY(tess_edit_layer_add(d->project, level_id, TESS_LAYER_TILES, "Background", 0, &background, err));
  TessLayerProps props = tess_level_layer(level, background)->props;
  props.collides = false;
  props.opacity = 0.6f;
  TRY(tess_edit_layer_set_props(d->project, level_id, &props, 0, err));
  Painter back = {d, level_id, background, err};
  TRY(fill(&back, 1, 20, 62, 31, TILE_BACKGROUND, 0));

  Painter g = {d, level_id, layer_named(level, "Ground"), err};
  /* Side walls and the ground: grass on rock. */
  TRY(fill(&g, 0, 0, 0, 35, TILE_ROCK, 0));
  TRY(fill(&g, 63, 0, 63, 35, TILE_ROCK, 0));
  TRY(fill(&g, 1, 32, 62, 32, TILE_GRASS_ROCK, 0));
  TRY(fill(&g, 1, 33, 62, 35, TILE_ROCK, 0));

  /* A pit, three cells deep. */
  TRY(erase(&g, 13, 32, 16, 34));

  /* A hill: a 45-degree ramp up, a plateau, and the ramp mirrored down. */
  for (int i = 0; i < 4; i++) {
    TRY(fill(&g, 19 + i, 31 - i, 19 + i, 31 - i, TILE_ROCK_SLOPE, 0));
    if (i > 0) TRY(fill(&g, 19 + i, 32 - i, 19 + i, 31, TILE_ROCK, 0));
    TRY(fill(&g, 32 - i, 31 - i, 32 - i, 31 - i, TILE_ROCK_SLOPE, TESS_CELL_FLIP_H));
    if (i > 0) TRY(fill(&g, 32 - i, 32 - i, 32 - i, 31, TILE_ROCK, 0));
  }
  TRY(fill(&g, 23, 28, 28, 28, TILE_GRASS_ROCK, 0));
  TRY(fill(&g, 23, 29, 28, 31, TILE_ROCK, 0));

  /* A rock ledge high on the left wall, ending in a rounded corner. */
  TRY(fill(&g, 1, 14, 2, 14, TILE_ROCK, 0));
  TRY(fill(&g, 3, 14, 3, 14, TILE_ROUND_CORNER, 0));

  /* Two floating platforms, rubber and sand, and a small sand mound under the sand one. */
  TRY(fill(&g, 4, 26, 9, 26, TILE_RUBBER, 0));
  TRY(fill(&g, 35, 26, 40, 26, TILE_SAND, 0));
  TRY(fill(&g, 34, 31, 34, 31, TILE_SAND_SLOPE, 0));
  TRY(fill(&g, 35, 31, 36, 31, TILE_SAND, 0));
  TRY(fill(&g, 37, 31, 37, 31, TILE_SAND_SLOPE, TESS_CELL_FLIP_H));

  /* A water pool dug into the ground: a surface row over deep water. */
  TRY(fill(&g, 42, 32, 52, 32, TILE_WATER_SURFACE, 0));
  TRY(fill(&g, 42, 33, 52, 34, TILE_WATER_DEEP, 0));
  /* One-way planks above the pool. */
  TRY(fill(&g, 45, 27, 48, 27, TILE_PLANK, 0));
  /* An ice shelf on the right. */
  TRY(fill(&g, 55, 24, 62, 24, TILE_ICE, 0));

  Painter o = {d, level_id, object_layer(level), err};
  TRY(place_spawn(&o, "Player start", cx(2), edge(32) - 24.0f));

  /* Balls over the rubber and the sand platform: one bounces, one stops. */
  TRY(place_sprite(&o, "Ball over rubber", cx(6) + 16.0f, edge(14), d->ball, d->rubber, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Ball over sand", cx(37) + 16.0f, edge(14), d->ball, d->rubber, TESS_BODY_DYNAMIC));

  /* A pyramid of six crates on the plateau. */
  static const int row_count[3] = {3, 2, 1};
  for (int row = 0; row < 3; row++)
    for (int k = 0; k < row_count[row]; k++) {
      char name[32];
      snprintf(name, sizeof name, "Crate %d-%d", row + 1, k + 1);
      float x = edge(24) + 16.0f * (float)row + 32.0f * (float)k + 16.0f;
      float y = edge(28) - 16.0f - 32.0f * (float)row;
      TRY(place_sprite(&o, name, x, y, d->crate, d->wood, TESS_BODY_DYNAMIC));
    }

  TRY(place_sprite(&o, "Barrel", cx(10), edge(32) - 16.0f, d->barrel, d->wood, TESS_BODY_DYNAMIC));
  /* Into the pool: a crate that floats (wood, 600 kg/m^2) and a boulder that sinks. */
  TRY(place_sprite(&o, "Floating crate", cx(43), edge(24), d->crate, d->wood, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Sinking boulder", cx(51), edge(22), d->boulder, d->rock, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Boulder on the shelf", cx(58), edge(24) - 16.0f, d->boulder, d->rock, TESS_BODY_DYNAMIC));

  /* Coins to collect: static sensors. */
  for (int i = 0; i < 3; i++) {
    char name[32];
    snprintf(name, sizeof name, "Coin %d", i + 1);
    TessObject c;
    tess_object_default(&c, TESS_OBJECT_BODY);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.pos = tess_v2(cx(24 + 2 * i), edge(23));
    c.u.body.shape = TESS_BODY_SPRITE;
    c.u.body.sprite = d->coin;
    c.u.body.type = TESS_BODY_STATIC;
    c.u.body.sensor = 1;
    c.u.body.material = d->wood;
    TessResult r = tess_edit_object_add(d->project, level_id, o.layer, &c, NULL, err);
    tess_object_clear(&c);
    if (r != TESS_OK) return r;
  }

  /* A pendulum: a heavy ball pinned to the world, released from 45 degrees. */
  const float pin_x = cx(54), pin_y = edge(8);
  TessId bob;
  TRY(place_body(&o, "Pendulum bob", pin_x + 4.0f * TILE, pin_y + 4.0f * TILE, TESS_BODY_CIRCLE, 0, d->rock,
                 TESS_BODY_DYNAMIC, 16.0f, &bob));
  TessObject pin;
  tess_object_default(&pin, TESS_OBJECT_JOINT);
  snprintf(pin.name, sizeof pin.name, "Pendulum pin");
  pin.pos = tess_v2(pin_x, pin_y);
  pin.u.joint.kind = TESS_JOINT_PIN;
  pin.u.joint.body_a = bob;
  pin.u.joint.body_b = 0; /* the world */
  TessResult r = tess_edit_object_add(d->project, level_id, o.layer, &pin, NULL, err);
  tess_object_clear(&pin);
  if (r != TESS_OK) return r;

  /* A cart between the sand mound and the pool: a wooden box on two wheels pinned to it, whose
   * motors (a turn per second) drive it right, into the water, where it floats. */
  TessId chassis, wheels[2];
  {
    TessObject box;
    tess_object_default(&box, TESS_OBJECT_BODY);
    snprintf(box.name, sizeof box.name, "Cart");
    box.pos = tess_v2(edge(39) + 16.0f, edge(32) - 22.0f);
    box.u.body.shape = TESS_BODY_BOX;
    box.u.body.type = TESS_BODY_DYNAMIC;
    box.u.body.material = d->wood;
    box.u.body.width = 64.0f;
    box.u.body.height = 12.0f;
    TessResult rb = tess_edit_object_add(d->project, level_id, o.layer, &box, &chassis, err);
    tess_object_clear(&box);
    if (rb != TESS_OK) return rb;
  }
  for (int k = 0; k < 2; k++) {
    char name[32];
    snprintf(name, sizeof name, "Cart wheel %d", k + 1);
    TRY(place_body(&o, name, edge(39) + 16.0f + (k ? 22.0f : -22.0f), edge(32) - 10.0f, TESS_BODY_CIRCLE, 0, d->wood,
                   TESS_BODY_DYNAMIC, 10.0f, &wheels[k]));
    TessObject axle;
    tess_object_default(&axle, TESS_OBJECT_JOINT);
    snprintf(axle.name, sizeof axle.name, "Cart axle %d", k + 1);
    axle.pos = tess_v2(edge(39) + 16.0f + (k ? 22.0f : -22.0f), edge(32) - 10.0f);
    axle.u.joint.kind = TESS_JOINT_PIN;
    axle.u.joint.body_a = chassis;
    axle.u.joint.body_b = wheels[k];
    axle.u.joint.motor_enabled = 1;
    axle.u.joint.motor_speed = 6.2831853f; /* rad/s: one turn a second, rolling right */
    axle.u.joint.motor_torque = 40.0f;     /* N m */
    TessResult ra = tess_edit_object_add(d->project, level_id, o.layer, &axle, NULL, err);
    tess_object_clear(&axle);
    if (ra != TESS_OK) return ra;
  }

  /* An updraft over the pit: a star dropped into it hovers. */
  TessObject wind;
  tess_object_default(&wind, TESS_OBJECT_ZONE);
  snprintf(wind.name, sizeof wind.name, "Updraft");
  wind.pos = tess_v2(edge(15), edge(24));
  wind.u.zone.kind = TESS_ZONE_ACCELERATION;
  wind.u.zone.width = 4.0f * TILE;
  wind.u.zone.height = 16.0f * TILE;
  wind.u.zone.vector = tess_v2(0.0f, -14.0f); /* m/s^2, more than gravity */
  r = tess_edit_object_add(d->project, level_id, o.layer, &wind, NULL, err);
  tess_object_clear(&wind);
  if (r != TESS_OK) return r;
  TRY(place_sprite(&o, "Star in the updraft", edge(15), edge(10), d->star, d->wood, TESS_BODY_DYNAMIC));
  /* Under the ice shelf, a ragdoll standing on its toes: it folds up on the ground. */
  TRY(place_ragdoll(&o, cx(59), edge(32) - 49.0f));
  /* A mortar on the ground past the pool: in Play, drag from it to aim at the ragdoll, release to fire. */
  TessObject mortar;
  tess_object_default(&mortar, TESS_OBJECT_LAUNCHER);
  snprintf(mortar.name, sizeof mortar.name, "Mortar");
  mortar.pos = tess_v2(cx(54), edge(32) - 10.0f);
  mortar.u.launcher.speed = 9.0f; /* m/s: the ragdoll is in reach, the far wall's top is not */
  mortar.u.launcher.radius = 6.0f;
  mortar.u.launcher.material = d->rubber;
  r = tess_edit_object_add(d->project, level_id, o.layer, &mortar, NULL, err);
  tess_object_clear(&mortar);
  return r;
}

/* The "Cave" level: painted with the Cave terrain set only (core's terrain
 * brush, rectangle and a stroke), so its rock outlines are the tiles the
 * Wang fill chose, and its collision their traced quarters. */
static TessResult build_cave_level(Demo *d, TessError *err) {
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "Cave");
  s.width = 40;
  s.height = 24;
  s.tile_w = s.tile_h = TILE;
  s.ppm = 32.0f;
  TessId level_id;
  TRY(tess_edit_level_add(d->project, &s, &level_id, err));
  TessLevel *level = tess_project_level(d->project, level_id);
  TessId ground = layer_named(level, "Ground");
  TessTerrainBrush air = {d->terrain, 0, 2, 2026}, rock = {d->terrain, 0, 1, 2026};
  struct {
    int x, y, w, h;
  } rocks[] = {
      {0, 0, 40, 2}, {0, 21, 40, 3}, {0, 0, 2, 24}, {38, 0, 2, 24}, /* ceiling, floor, walls */
      {7, 17, 8, 4},
      {10, 15, 3, 2}, /* a hill with a knoll */
      {24, 2, 3, 6},
      {30, 15, 6, 6},
      {33, 11, 5, 4}, /* a stalactite, a step and a ledge */
  };
  TRY(tess_edit_terrain_rect(d->project, level_id, ground, &air, 0, 0, 40, 24, 0, err));
  for (size_t i = 0; i < sizeof rocks / sizeof rocks[0]; i++)
    TRY(tess_edit_terrain_rect(d->project, level_id, ground, &rock, rocks[i].x, rocks[i].y, (uint32_t)rocks[i].w,
                               (uint32_t)rocks[i].h, 0, err));
  /* A winding rock bridge, painted as one brush stroke. */
  uint32_t key = tess_project_new_merge_key(d->project);
  for (int x = 15; x <= 24; x++) {
    uint32_t xy[2] = {(uint32_t)x, (uint32_t)(11 + (int)lround(1.5 * sin((x - 15) * 0.7)))};
    TRY(tess_edit_terrain_cells(d->project, level_id, ground, &rock, xy, 1, key, err));
  }
  /* An air pocket cut back into the hill. */
  uint32_t pocket[2] = {9, 19};
  TRY(tess_edit_terrain_cells(d->project, level_id, ground, &air, pocket, 1, 0, err));
  Painter o = {d, level_id, object_layer(level), err};
  TRY(place_spawn(&o, "Start", cx(4), cx(19)));
  TRY(place_body(&o, "Ball", cx(11), cx(12), TESS_BODY_CIRCLE, 0, d->rubber, TESS_BODY_DYNAMIC, 12.0f, NULL));
  TRY(place_sprite(&o, "Crate", cx(20), cx(8), d->crate, d->wood, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Boulder", cx(34), cx(9), d->boulder, d->rock, TESS_BODY_DYNAMIC));
  return TESS_OK;
}

/* A grove on the ice, drawn in depth order: the object layer sorts by y, so what stands lower on
 * screen is drawn over (Tiled's "topdown" draw order). Trees stand by their trunks (their anchor
 * and their only collision), so their crowns overlap each other and whatever passes north of
 * them. A rubber ball, the "Runner", swings north and south through the grove on a spring (a
 * spring zone, 6 s a swing; RK4, so it keeps its swing, and on ice, which barely slows it), past
 * the trunks with 2 px to spare: north of a trunk it runs behind the crown and the roots, south of
 * it over the roots. The order swaps as it passes, in the map, `render`, Play and the game alike. */
static TessResult build_grove(Demo *d, const Painter *o) {
  const float path_x = cx(4), centre_y = cx(7);
  static const struct {
    const char *name;
    float dx, y; /* trunk from the runner's path (its radius 12 + the trunk's 5 + 2), base y */
  } trees[] = {{"Tree by the path", 19.0f, 200.0f}, {"Tree beside it", 41.0f, 232.0f}, {"Tree west of the path", -19.0f, 280.0f}};
  for (size_t i = 0; i < sizeof trees / sizeof trees[0]; i++)
    TRY(place_sprite(o, trees[i].name, path_x + trees[i].dx, trees[i].y, d->tree, d->wood, TESS_BODY_STATIC));
  TessObject runner;
  tess_object_default(&runner, TESS_OBJECT_BODY);
  snprintf(runner.name, sizeof runner.name, "Runner");
  runner.pos = tess_v2(path_x, centre_y - 3.0f * TILE); /* at rest, 3 m north of the spring's centre */
  runner.u.body.shape = TESS_BODY_SPRITE;
  runner.u.body.sprite = d->ball;
  runner.u.body.material = d->rubber;
  runner.u.body.type = TESS_BODY_DYNAMIC;
  runner.u.body.integrator = TESS_INTEGRATOR_RK4;
  TessResult r = tess_edit_object_add(d->project, o->level, o->layer, &runner, NULL, o->err);
  tess_object_clear(&runner);
  if (r != TESS_OK) return r;
  TessObject spring;
  tess_object_default(&spring, TESS_OBJECT_ZONE);
  snprintf(spring.name, sizeof spring.name, "Runner's spring");
  spring.pos = tess_v2(path_x, centre_y);
  spring.u.zone.kind = TESS_ZONE_SPRING;
  spring.u.zone.strength = 1.0966f; /* (2 pi / 6 s)^2 */
  spring.u.zone.radius = 104.0f;    /* the swing's 96 px and a little: the boulder on the ice is 128 px away */
  spring.u.zone.width = spring.u.zone.height = 208.0f;
  r = tess_edit_object_add(d->project, o->level, o->layer, &spring, NULL, o->err);
  tess_object_clear(&spring);
  if (r != TESS_OK) return r;
  TessLevel *level = tess_project_level(d->project, o->level);
  TessLayerProps props = tess_level_layer(level, o->layer)->props;
  props.y_sort = true;
  return tess_edit_layer_set_props(d->project, o->level, &props, 0, o->err);
}

static TessResult build_top_down_level(Demo *d, TessError *err) {
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "Top-down");
  s.width = 40;
  s.height = 30;
  s.tile_w = s.tile_h = TILE;
  s.ppm = 32.0f;
  s.gravity = tess_v2(0.0f, 0.0f);
  s.view = TESS_VIEW_TOP_DOWN;
  s.floor_drag = 2.0f;
  TessId level_id;
  TRY(tess_edit_level_add(d->project, &s, &level_id, err));
  TessLevel *level = tess_project_level(d->project, level_id);

  /* What the floor looks like... */
  Painter g = {d, level_id, layer_named(level, "Ground"), err};
  TRY(fill(&g, 0, 0, 39, 29, TILE_STONE_FLOOR, 0));
  TRY(fill(&g, 3, 3, 14, 12, TILE_ICE_FLOOR, 0));
  TRY(fill(&g, 24, 16, 36, 26, TILE_SAND_FLOOR, 0));
  /* ...and what it is: the material layer. Walls are painted with rock
   * (solid), so they need no tiles. */
  TRY(paint_material(&g, 1, 1, 38, 28, d->stone_floor));
  TRY(paint_material(&g, 3, 3, 14, 12, d->ice_floor));
  TRY(paint_material(&g, 24, 16, 36, 26, d->sand_floor));
  static const int walls[][4] = {
      {0, 0, 39, 0}, {0, 29, 39, 29}, {0, 1, 0, 28}, {39, 1, 39, 28}, {20, 1, 20, 18}, /* a dividing wall with a gap below */
  };
  for (size_t i = 0; i < sizeof walls / sizeof walls[0]; i++) {
    TRY(paint_material(&g, walls[i][0], walls[i][1], walls[i][2], walls[i][3], d->rock));
    /* Dim bricks show where the walls are; the tile has no shape and no
     * material, so what stops bodies is the painted rock alone. */
    TRY(fill(&g, walls[i][0], walls[i][1], walls[i][2], walls[i][3], TILE_BACKGROUND, 0));
  }
  TRY(paint_material(&g, 8, 19, 10, 21, d->wood)); /* a wooden block */
  TRY(fill(&g, 8, 19, 10, 21, TILE_WOOD, 0));

  Painter o = {d, level_id, object_layer(level), err};
  TRY(place_spawn(&o, "Player start", cx(4), cx(24)));
  TRY(place_sprite(&o, "Boulder on ice", cx(8), cx(7), d->boulder, d->rock, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Ball on ice", cx(12), cx(5), d->ball, d->rubber, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Ball on sand", cx(28), cx(20), d->ball, d->rubber, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Ball on stone", cx(28), cx(8), d->ball, d->rubber, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Crate A", cx(16), cx(24), d->crate, d->wood, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Crate B", cx(17), cx(24), d->crate, d->wood, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Barrel A", cx(32), cx(20), d->barrel, d->wood, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Barrel B", cx(34), cx(23), d->barrel, d->wood, TESS_BODY_DYNAMIC));
  TRY(place_sprite(&o, "Pillar", cx(30), cx(12), d->boulder, d->rock, TESS_BODY_STATIC));
  TRY(build_grove(d, &o));

  /* A turnstile: a wooden bar pinned to the floor at its middle, its motor turning it half a turn
   * a second against the floor drag for as long as the level runs, so the level never comes to
   * rest (the preview-equals-game test compares states that still change). */
  TessId bar;
  {
    TessObject box;
    tess_object_default(&box, TESS_OBJECT_BODY);
    snprintf(box.name, sizeof box.name, "Turnstile");
    box.pos = tess_v2(cx(30), cx(4));
    box.u.body.shape = TESS_BODY_BOX;
    box.u.body.type = TESS_BODY_DYNAMIC;
    box.u.body.material = d->wood;
    box.u.body.width = 4.0f * TILE;
    box.u.body.height = 0.5f * TILE;
    TessResult rb = tess_edit_object_add(d->project, level_id, o.layer, &box, &bar, err);
    tess_object_clear(&box);
    if (rb != TESS_OK) return rb;
  }
  TessObject pin;
  tess_object_default(&pin, TESS_OBJECT_JOINT);
  snprintf(pin.name, sizeof pin.name, "Turnstile pin");
  pin.pos = tess_v2(cx(30), cx(4));
  pin.u.joint.kind = TESS_JOINT_PIN;
  pin.u.joint.body_a = bar;
  pin.u.joint.body_b = 0; /* the floor */
  pin.u.joint.motor_enabled = 1;
  pin.u.joint.motor_speed = 3.14159265f; /* rad/s */
  pin.u.joint.motor_torque = 50000.0f;   /* N m: far more than the floor drag takes at that speed */
  TessResult r = tess_edit_object_add(d->project, level_id, o.layer, &pin, NULL, err);
  tess_object_clear(&pin);
  return r;
}

/* ---- output --------------------------------------------------------------- */

static void remove_database(const char *path) {
  char side[4200];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-journal", path);
  unlink(side);
}

static TessResult write_project(TessProject *project, const char *output, TessError *err) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.part", output);
  remove_database(tmp); /* a leftover from an interrupted run */
  TessStore *store = NULL;
  TessResult r = tess_store_open(tmp, TESS_STORE_CREATE, &store, err);
  if (r != TESS_OK) return r;
  r = tess_store_save_all(store, project, err);
  tess_store_close(store);
  if (r == TESS_OK) {
    remove_database(output);
    if (rename(tmp, output) != 0) r = tess_error_set(err, TESS_ERR_IO, output, "cannot rename %s into place", tmp);
  }
  if (r != TESS_OK) remove_database(tmp);
  return r;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s ART_DIR OUTPUT.tessera\n", argv[0]);
    return 2;
  }
  TessError err;
  tess_error_clear(&err);
  Demo d;
  memset(&d, 0, sizeof d);
  d.art_dir = argv[1];
  d.project = tess_project_create();
  TessResult r = d.project ? TESS_OK : tess_error_set(&err, TESS_ERR_NOMEM, NULL, "no memory for a project");
  if (r == TESS_OK) r = add_materials(&d, &err);
  if (r == TESS_OK) r = add_tileset(&d, &err);
  if (r == TESS_OK) r = add_sprites(&d, &err);
  if (r == TESS_OK) r = build_side_level(&d, &err);
  if (r == TESS_OK) r = build_top_down_level(&d, &err);
  if (r == TESS_OK) r = build_cave_level(&d, &err);
  if (r == TESS_OK) {
    /* A fresh project starts with an empty history: building the demo is not an edit to undo. */
    tess_project_clear_history(d.project);
    r = write_project(d.project, argv[2], &err);
  }
  if (r == TESS_OK) printf("make-demo: %s (project hash %016llx)\n", argv[2], (unsigned long long)tess_project_hash(d.project));
  tess_project_destroy(d.project);
  if (r == TESS_OK && tess_alloc_live_bytes() != 0) {
    /* Everything is freed by now: a leak here is a bug in a module it uses. */
    r = tess_error_set(&err, TESS_ERR_INVALID, argv[2], "%lld bytes still allocated at exit",
                       (long long)tess_alloc_live_bytes());
  }
  if (r != TESS_OK) {
    char buf[1200];
    tess_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "make-demo: %s\n", buf);
    return 1;
  }
  return 0;
}
