/* Tiles larger than the grid collide where they are drawn (issue 12).
 *
 * A side-view level of 1 m cells (32 px, ppm 32, g = 9.81): a 32 x 64 tile
 * with a full-square collision in cell (3, 6) is drawn from y = 160 px (its
 * bottom on the cell's bottom, 224 px), so a ball of radius 8 px dropped on
 * it rests with its centre at 152 px = 4.75 m, not on the cell's top (192
 * px: 5.75 m). A 64 x 64 tile traced with a rectangle over its upper 48 px,
 * flipped vertically, lies over its lower 48 px: from 176 px, so its ball
 * rests at 168 px = 5.25 m. Scaled into the cell (fit_cell, what .tlv files
 * before 3.4 mean) the first tile is the cell: its ball rests at 5.75 m.
 * The scene from the level and the one from its .tlv are equal, and so are
 * their worlds after the drop. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "tessera/level.h"
#include "tessera/pack.h"
#include "tessera/physics.h"
#include "tessera/runtime.h"
#include "tessera/scene.h"
#include "tlv_reader.h"

typedef struct Drop {
  TessProject *p;
  TessId level, ground, objects;
} Drop;

static TessId add_tileset(TessProject *p, const char *name, uint32_t tw, uint32_t th, TessTileCollision collision,
                          const TessPolygon *piece, bool fit) {
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = name;
  def.image_w = tw;
  def.image_h = th;
  def.tile_w = tw;
  def.tile_h = th;
  def.default_collision = collision;
  def.fit_cell = fit ? 1 : 0;
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_tileset_add(p, &def, &id, &err), &err);
  if (piece) {
    TessTileset copy;
    memset(&copy, 0, sizeof copy);
    CHECK_OK(tess_tileset_copy(&copy, tess_project_tileset(p, id)), &err);
    copy.tiles[0].collision = TESS_TILE_COLLISION_TRACED;
    copy.tiles[0].piece_count = 1;
    copy.tiles[0].pieces = tess_alloc(sizeof *piece);
    copy.tiles[0].pieces[0] = *piece;
    CHECK_OK(tess_edit_tileset_set(p, &copy, 0, &err), &err);
    tess_tileset_clear(&copy);
  }
  return id;
}

static void add_ball(Drop *d, float x, float y) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.pos = tess_v2(x, y);
  o.u.body.shape = TESS_BODY_CIRCLE;
  o.u.body.type = TESS_BODY_DYNAMIC;
  o.u.body.radius = 8.0f;
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_object_add(d->p, d->level, d->objects, &o, &id, &err), &err);
}

/* The level above; `fit` scales the tall tileset into the cell. */
static void make_level(Drop *d, bool fit) {
  d->p = tess_project_create();
  TessError err;
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Drop");
  ls.width = 10;
  ls.height = 8;
  ls.tile_w = 32;
  ls.tile_h = 32;
  ls.ppm = 32.0f;
  ls.view = TESS_VIEW_SIDE;
  ls.gravity = tess_v2(0.0f, 9.81f);
  CHECK_OK(tess_edit_level_add(d->p, &ls, &d->level, &err), &err);
  TessLevel *level = tess_project_level(d->p, d->level);
  d->ground = level->layers[0]->props.id;
  d->objects = level->layers[2]->props.id;
  TessId tall = add_tileset(d->p, "tall", 32, 64, TESS_TILE_COLLISION_FULL, NULL, fit);
  TessPolygon upper = {4, {{0, 0}, {64, 0}, {64, 48}, {0, 48}}};
  TessId big = add_tileset(d->p, "big", 64, 64, TESS_TILE_COLLISION_TRACED, &upper, false);
  TessCell a = TESS_CELL_MAKE(tall, 0, 0), b = TESS_CELL_MAKE(big, 0, TESS_CELL_FLIP_V);
  CHECK_OK(tess_edit_set_cells(d->p, d->level, d->ground, 3, 6, 1, 1, &a, 0, &err), &err);
  CHECK_OK(tess_edit_set_cells(d->p, d->level, d->ground, 6, 6, 1, 1, &b, 0, &err), &err);
  add_ball(d, 112.0f, 40.0f); /* over the tall tile, x = 3.5 m */
  add_ball(d, 232.0f, 40.0f); /* over the big one, x = 7.25 m, inside its 192..256 px */
}

/* Where the balls rest (metres) after 3 s at the level's rate. */
static void drop(const TessScene *s, TessVec2 out[2], uint64_t *hash) {
  TessWorld *w = NULL;
  TessBodyId ids[2];
  TessError err;
  CHECK(s->body_count == 2);
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
  if (!w) return;
  int steps = (int)lroundf(3.0f * s->physics_hz);
  for (int i = 0; i < steps; i++) tess_world_step(w, 1.0f / s->physics_hz, &err);
  for (int k = 0; k < 2; k++) out[k] = tess_body_position(w, ids[k]);
  *hash = tess_world_hash(w);
  tess_world_destroy(w);
}

static void ball_rests_on_the_drawn_top(void) {
  Drop d;
  make_level(&d, false);
  TessLevel *level = tess_project_level(d.p, d.level);
  TessScene *from_level = NULL, *from_pack = NULL;
  TessError err;
  CHECK_OK(tess_scene_from_level(d.p, level, &from_level, &err), &err);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(d.p, level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  TlvError terr;
  bool open = data && tlv_open(data, size, 0, &lv, &terr) == TLV_OK;
  CHECK_MSG(open, "%s", data ? terr.message : "no file");
  if (open) CHECK_OK(tess_scene_from_pack(&lv, &from_pack, &err), &err);
  if (from_level && from_pack) {
    /* the tall full tile is traced now: its rectangle, from the cell's top-left corner, in metres */
    size_t i = 6 * 10 + 3;
    CHECK(from_level->cell_kind[i] == TESS_MAP_TRACED && from_level->piece_start[i + 1] - from_level->piece_start[i] == 1);
    const TessPolygon *r = &from_level->pieces[from_level->piece_start[i]];
    float top = INFINITY, bottom = -INFINITY;
    for (uint32_t k = 0; k < r->count; k++) {
      top = fminf(top, r->v[k].y);
      bottom = fmaxf(bottom, r->v[k].y);
    }
    CHECK_MSG(top == -1.0f && bottom == 1.0f, "tall tile from %g to %g m", top, bottom);
    CHECK(tess_scene_equal(from_level, from_pack));
    TessVec2 pl[2] = {{0, 0}, {0, 0}}, pp[2] = {{0, 0}, {0, 0}};
    uint64_t hl = 0, hp = 0;
    drop(from_level, pl, &hl);
    drop(from_pack, pp, &hp);
    printf("balls rest at (%g, %g) and (%g, %g) m; world hash %016llx (level) %016llx (.tlv)\n", pl[0].x, pl[0].y, pl[1].x,
           pl[1].y, (unsigned long long)hl, (unsigned long long)hp);
    CHECK_MSG(fabsf(pl[0].y - 4.75f) < 0.01f && fabsf(pl[0].x - 3.5f) < 0.01f, "ball on the tall tile at (%g, %g), not (3.5, 4.75)",
              pl[0].x, pl[0].y);
    CHECK_MSG(fabsf(pl[1].y - 5.25f) < 0.01f, "ball on the big tile at y %g, not 5.25", pl[1].y);
    CHECK(hl == hp && hl != 0);
    CHECK(pp[0].x == pl[0].x && pp[0].y == pl[0].y && pp[1].x == pl[1].x && pp[1].y == pl[1].y);
  }
  tess_scene_destroy(from_level);
  tess_scene_destroy(from_pack);
  tess_free(data);
  tess_project_destroy(d.p);
}

static void scaled_tile_is_the_cell(void) {
  Drop d;
  make_level(&d, true);
  TessScene *s = NULL;
  TessError err;
  CHECK_OK(tess_scene_from_level(d.p, tess_project_level(d.p, d.level), &s, &err), &err);
  if (s) {
    CHECK(s->cell_kind[6 * 10 + 3] == TESS_MAP_FULL);
    TessVec2 at[2] = {{0, 0}, {0, 0}};
    uint64_t h = 0;
    drop(s, at, &h);
    CHECK_MSG(fabsf(at[0].y - 5.75f) < 0.01f, "ball on the scaled tile at y %g, not 5.75", at[0].y);
  }
  tess_scene_destroy(s);
  tess_project_destroy(d.p);
}

static bool note_cell(uint32_t x, uint32_t y, void *user) {
  if (x == 3 && y == 6) *(bool *)user = true;
  return true;
}

/* Rays, point tests and cell queries meet the tiles where they are drawn
 * too: the tall tile spans x 3..4 m, y 5..7 m (its cell is y 6..7); the big
 * one's piece x 6..8 m, y 5.5..7 m. */
static void queries_see_the_drawn_tiles(void) {
  Drop d;
  make_level(&d, false);
  TessScene *s = NULL;
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_scene_from_level(d.p, tess_project_level(d.p, d.level), &s, &err), &err);
  if (s) CHECK_OK(tess_world_create_from_scene(s, NULL, &w, NULL, &err), &err);
  if (w) {
    TessRayHit h = tess_world_ray_cast(w, tess_v2(3.5f, 2.0f), tess_v2(0.0f, 5.5f), 0x1u); /* below the ball; the map is category 1 */
    CHECK_MSG(h.hit && h.on_map && h.cell_x == 3 && h.cell_y == 6 && fabsf(h.point.y - 5.0f) < 1e-4f && h.normal.y < -0.99f,
              "down onto the tall tile: hit %d cell (%u, %u) at y %g", h.hit, h.cell_x, h.cell_y, h.point.y);
    h = tess_world_ray_cast(w, tess_v2(0.5f, 5.25f), tess_v2(9.0f, 0.0f), 0x1u); /* the map is category 1 */
    CHECK_MSG(h.hit && h.cell_x == 3 && h.cell_y == 6 && fabsf(h.point.x - 3.0f) < 1e-4f && h.normal.x < -0.99f,
              "right into the tall tile's upper half: hit %d at x %g", h.hit, h.point.x);
    h = tess_world_ray_cast(w, tess_v2(9.9f, 5.75f), tess_v2(-9.0f, 0.0f), 0x1u); /* the map is category 1 */
    CHECK_MSG(h.hit && h.cell_x == 6 && h.cell_y == 6 && fabsf(h.point.x - 8.0f) < 1e-4f && h.normal.x > 0.99f,
              "left into the big tile: hit %d cell (%u, %u) at x %g", h.hit, h.cell_x, h.cell_y, h.point.x);
    h = tess_world_ray_cast(w, tess_v2(9.9f, 5.25f), tess_v2(-5.0f, 0.0f), 0x1u); /* the map is category 1 */
    CHECK_MSG(!h.hit, "above the big tile's piece: hit at x %g", h.point.x);
    CHECK(tess_world_map_point_solid(w, tess_v2(3.5f, 5.5f))); /* in cell (3, 5), drawn by (3, 6) */
    CHECK(!tess_world_map_point_solid(w, tess_v2(3.5f, 4.9f)));
    CHECK(tess_world_map_point_solid(w, tess_v2(7.0f, 5.75f)));
    CHECK(!tess_world_map_point_solid(w, tess_v2(7.0f, 5.25f)));
    bool seen = false;
    TessAABB box = {tess_v2(3.4f, 5.4f), tess_v2(3.6f, 5.6f)};
    tess_world_query_map_aabb(w, box, note_cell, &seen);
    CHECK_MSG(seen, "a box in cell (3, 5) finds the tall tile's cell (3, 6)");
  }
  tess_world_destroy(w);
  tess_scene_destroy(s);
  tess_project_destroy(d.p);
}

TESS_TEST_MAIN(TEST(ball_rests_on_the_drawn_top), TEST(scaled_tile_is_the_cell), TEST(queries_see_the_drawn_tiles))
