/* The bundled demo project (data/demo): opened read-only through core/store
 * as the editor and the pipeline open it. Checks what the demo promises
 * (materials with their values, both levels, sprites with traced masks, the
 * pendulum's pin, water cells in the pool), that generating it again gives
 * the same project, and that the checked-in art is what the drawing program
 * draws. */
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "project_fixture.h"
#include "tessera/image.h"
#include "tessera/level.h"
#include "tessera/store.h"

extern char **environ;

static const char *env_path(const char *name) {
  const char *v = getenv(name);
  if (!v || !*v) {
    fprintf(stderr, "%s is not set (run through meson test)\n", name);
    exit(1);
  }
  return v;
}

static TessProject *load_project(const char *path) { return tess_test_load_read_only(path); }

static TessProject *load_demo(void) { return load_project(env_path("TESS_DEMO_PROJECT")); }

/* Runs a program with arguments (no shell) and returns its exit status. */
static int run(const char *const argv[]) {
  pid_t pid;
  if (posix_spawn(&pid, argv[0], NULL, NULL, (char *const *)argv, environ) != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const TessObject *find_object(const TessLevel *level, const char *name) {
  for (uint32_t i = 0; i < level->layer_count; i++) {
    const TessLayer *layer = level->layers[i];
    for (uint32_t k = 0; k < layer->object_count; k++)
      if (strcmp(layer->objects[k].name, name) == 0) return &layer->objects[k];
  }
  return NULL;
}

static double polygon_area(const TessPolygon *poly) {
  double a = 0;
  for (uint32_t i = 0; i < poly->count; i++) {
    TessVec2 p = poly->v[i], q = poly->v[(i + 1) % poly->count];
    a += (double)p.x * q.y - (double)q.x * p.y;
  }
  return fabs(a) * 0.5;
}

static const TessMaterial *material_of_cell(const TessProject *p, const TessLevel *level, uint32_t x, uint32_t y,
                                            TessCellCollision *c) {
  tess_level_cell_collision(p, level, x, y, c);
  return c->material ? tess_project_material(p, c->material) : NULL;
}

/* ---- content --------------------------------------------------------------- */

static void materials_have_their_specified_values(void) {
  TessProject *p = load_demo();
  if (!p) return;
  const TessMaterial *rock = tess_project_material_by_name(p, "Rock");
  const TessMaterial *sand = tess_project_material_by_name(p, "Sand");
  const TessMaterial *ice = tess_project_material_by_name(p, "Ice");
  const TessMaterial *rubber = tess_project_material_by_name(p, "Rubber");
  const TessMaterial *wood = tess_project_material_by_name(p, "Wood");
  const TessMaterial *water = tess_project_material_by_name(p, "Water");
  const TessMaterial *stone_floor = tess_project_material_by_name(p, "Stone floor");
  const TessMaterial *ice_floor = tess_project_material_by_name(p, "Ice floor");
  const TessMaterial *sand_floor = tess_project_material_by_name(p, "Sand floor");
  CHECK(rock && sand && ice && rubber && wood && water && stone_floor && ice_floor && sand_floor);
  if (rock && sand && ice && rubber && wood && water && stone_floor && ice_floor && sand_floor) {
    CHECK(rock->kind == TESS_MATERIAL_SOLID);
    CHECK(sand->kind == TESS_MATERIAL_SOLID);
    CHECK_NEAR(sand->friction, 0.9, 1e-6);
    CHECK_NEAR(sand->restitution, 0.1, 1e-6);
    CHECK_NEAR(ice->friction, 0.02, 1e-6);
    CHECK_NEAR(rubber->restitution, 0.95, 1e-6);
    CHECK_NEAR(wood->density, 600, 1e-3);
    CHECK(water->kind == TESS_MATERIAL_FLUID);
    CHECK_NEAR(water->density, 1000, 1e-3);
    CHECK(stone_floor->kind == TESS_MATERIAL_FLOOR);
    CHECK(ice_floor->kind == TESS_MATERIAL_FLOOR);
    CHECK(sand_floor->kind == TESS_MATERIAL_FLOOR);
    CHECK(ice_floor->friction < stone_floor->friction && stone_floor->friction < sand_floor->friction);
    /* Wood floats and rock sinks in the water. */
    CHECK(wood->density < water->density && rock->density > water->density);
    for (uint32_t i = 0; i < p->material_count; i++) {
      TessError err;
      CHECK_OK(tess_material_validate(&p->materials[i], &err), &err);
    }
  }
  tess_project_destroy(p);
}

static void levels_have_their_settings(void) {
  TessProject *p = load_demo();
  if (!p) return;
  CHECK(p->level_count == 3);
  const TessLevel *side = tess_project_level_by_name(p, "Side");
  const TessLevel *top = tess_project_level_by_name(p, "Top-down");
  CHECK(side && top);
  if (side && top) {
    CHECK(side->settings.width == 64 && side->settings.height == 36);
    CHECK(side->settings.tile_w == 32 && side->settings.tile_h == 32);
    CHECK_NEAR(side->settings.ppm, 32, 0);
    CHECK(side->settings.view == TESS_VIEW_SIDE);
    CHECK_NEAR(side->settings.gravity.x, 0, 0);
    CHECK_NEAR(side->settings.gravity.y, 9.81, 1e-6);
    CHECK(top->settings.view == TESS_VIEW_TOP_DOWN);
    CHECK(top->settings.gravity.x == 0 && top->settings.gravity.y == 0);
    CHECK(tess_level_material_layer(side) != NULL && tess_level_material_layer(top) != NULL);
    /* The side level's background layer is drawn but does not collide. */
    const TessLayer *background = NULL;
    for (uint32_t i = 0; i < side->layer_count; i++)
      if (strcmp(side->layers[i]->props.name, "Background") == 0) background = side->layers[i];
    CHECK(background && !background->props.collides && background == side->layers[0]);
    for (uint32_t l = 0; l < p->level_count; l++) {
      TessError err;
      CHECK_OK(tess_level_settings_validate(&p->levels[l]->settings, &err), &err);
    }
  }
  tess_project_destroy(p);
}

static void sprites_have_real_alpha_and_traced_masks(void) {
  TessProject *p = load_demo();
  if (!p) return;
  static const char *names[] = {"Crate", "Barrel", "Ball", "Boulder",
                                "Star", "Coin", "Doll head", "Doll torso",
                                "Doll upper arm", "Doll lower arm", "Doll upper leg", "Doll lower leg", "Tree"};
  CHECK(p->sprite_count == 13);
  for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
    const TessSprite *s = NULL;
    for (uint32_t i = 0; i < p->sprite_count; i++)
      if (strcmp(p->sprites[i]->name, names[n]) == 0) s = p->sprites[i];
    CHECK_MSG(s != NULL, "sprite %s", names[n]);
    if (!s) continue;
    TessImage img;
    TessError err;
    CHECK_OK(tess_png_decode(s->png, s->png_size, s->name, &img, &err), &err);
    if (!img.pixels) continue;
    CHECK(img.width == s->image_w && img.height == s->image_h);
    /* Real alpha: fully transparent, fully opaque and partly covered pixels. */
    int clear = 0, solid = 0, partial = 0;
    for (uint32_t y = 0; y < img.height; y++)
      for (uint32_t x = 0; x < img.width; x++) {
        uint8_t a = img.pixels[y * img.stride + x * 4 + 3];
        if (a == 0) clear++;
        else if (a == 255) solid++;
        else partial++;
      }
    CHECK_MSG(clear > 0 && solid > 0 && partial > 0, "%s: %d clear, %d solid, %d partial", s->name, clear, solid,
              partial);
    /* Traced: the mask's pixel area is the opaque pixel count of one frame. */
    uint32_t frame_w = s->image_w / s->frame_count;
    CHECK(s->mask.hull_count >= 3);
    CHECK(s->mask.area > 0 && s->mask.area <= (double)frame_w * s->image_h);
    CHECK(s->anchor.x > 0 && s->anchor.x < (float)frame_w && s->anchor.y > 0 && s->anchor.y < (float)s->image_h);

    if (strcmp(s->name, "Tree") == 0) {
      /* standing on its trunk: anchored at the foot of the image, colliding only at the trunk (a
       * circle within 8 px of the anchor, far smaller than the crown that overhangs) */
      CHECK(s->anchor.y > 0.9f * (float)s->image_h);
      CHECK(s->mask.mode == TESS_MASK_CIRCLE && s->mask.circle_radius > 0.0f && s->mask.circle_radius <= 8.0f);
      CHECK(fabsf(s->mask.circle_center.x - s->anchor.x) < 1.0f && fabsf(s->mask.circle_center.y - s->anchor.y) < 8.0f);
    }
    if (strcmp(s->name, "Coin") == 0) {
      CHECK(s->frame_count == 2 && s->image_w == 2 * s->image_h && s->frame_rate > 0);
      /* The two frames differ (it blinks) but share the outline. */
      bool differ = false, same_alpha = true;
      for (uint32_t y = 0; y < img.height; y++)
        for (uint32_t x = 0; x < frame_w; x++) {
          const uint8_t *a = img.pixels + y * img.stride + x * 4, *b = a + frame_w * 4;
          if (memcmp(a, b, 3) != 0) differ = true;
          if (a[3] != b[3]) same_alpha = false;
        }
      CHECK(differ && same_alpha);
    } else {
      CHECK(s->frame_count == 1);
    }
    if (strcmp(s->name, "Barrel") == 0) {
      /* Hollow: the middle is transparent, and the pixel area is well below the disc's. */
      CHECK(img.pixels[16 * img.stride + 16 * 4 + 3] == 0);
      CHECK(s->mask.area < 0.7 * M_PI * 16 * 16);
      CHECK_NEAR(s->mask.centroid_x, 16, 0.05);
      CHECK_NEAR(s->mask.centroid_y, 16, 0.05);
    }
    if (strcmp(s->name, "Ball") == 0) {
      CHECK(s->mask.mode == TESS_MASK_CIRCLE);
      CHECK_NEAR(s->mask.circle_center.x, 12, 0.5);
      CHECK_NEAR(s->mask.circle_center.y, 12, 0.5);
      CHECK_NEAR(s->mask.circle_radius, 12, 0.75);
    }
    if (strcmp(s->name, "Star") == 0) {
      /* Concave: decomposed into several convex pieces. */
      CHECK(s->mask.mode == TESS_MASK_PIECES && s->mask.piece_count >= 2);
    }
    if (strcmp(s->name, "Crate") == 0) CHECK(s->mask.piece_count == 1 && s->mask.pieces[0].count <= TESS_POLY_MAX);
    tess_image_clear(&img);
  }
  tess_project_destroy(p);
}

static void side_level_has_pool_pit_ramp_and_platforms(void) {
  TessProject *p = load_demo();
  if (!p) return;
  const TessLevel *side = tess_project_level_by_name(p, "Side");
  if (!side) {
    CHECK(side != NULL);
    tess_project_destroy(p);
    return;
  }
  TessCellCollision c;
  const TessMaterial *m;
  /* The pool: every cell is water (fluid) and has no shape. */
  int water_cells = 0;
  for (uint32_t y = 32; y <= 34; y++)
    for (uint32_t x = 42; x <= 52; x++) {
      m = material_of_cell(p, side, x, y, &c);
      if (m && m->kind == TESS_MATERIAL_FLUID && strcmp(m->name, "Water") == 0 && c.kind == TESS_TILE_COLLISION_NONE)
        water_cells++;
    }
  CHECK(water_cells == 33);
  /* Its banks and bottom are rock. */
  m = material_of_cell(p, side, 41, 32, &c);
  CHECK(m && strcmp(m->name, "Rock") == 0 && c.kind == TESS_TILE_COLLISION_FULL);
  m = material_of_cell(p, side, 47, 35, &c);
  CHECK(m && strcmp(m->name, "Rock") == 0 && c.kind == TESS_TILE_COLLISION_FULL);
  /* The pit: empty down to its rock floor. */
  for (uint32_t y = 32; y <= 34; y++) {
    material_of_cell(p, side, 14, y, &c);
    CHECK(c.kind == TESS_TILE_COLLISION_NONE && c.material == 0);
  }
  m = material_of_cell(p, side, 14, 35, &c);
  CHECK(m && c.kind == TESS_TILE_COLLISION_FULL);
  /* Platforms. */
  m = material_of_cell(p, side, 6, 26, &c);
  CHECK(m && strcmp(m->name, "Rubber") == 0 && c.kind == TESS_TILE_COLLISION_FULL);
  m = material_of_cell(p, side, 37, 26, &c);
  CHECK(m && strcmp(m->name, "Sand") == 0 && c.kind == TESS_TILE_COLLISION_FULL);
  /* The ramp: traced 45-degree slopes, one mirrored; each piece set covers
   * half the tile (512 px^2) and stays inside it. */
  int slopes = 0;
  for (uint32_t x = 19; x <= 32; x++)
    for (uint32_t y = 28; y <= 31; y++) {
      material_of_cell(p, side, x, y, &c);
      if (c.kind != TESS_TILE_COLLISION_TRACED || !c.tile) continue;
      slopes++;
      double area = 0;
      for (uint32_t k = 0; k < c.tile->piece_count; k++) {
        area += polygon_area(&c.tile->pieces[k]);
        for (uint32_t v = 0; v < c.tile->pieces[k].count; v++) {
          TessVec2 q = c.tile->pieces[k].v[v];
          CHECK_MSG(q.x >= -1e-3f && q.x <= 32.001f && q.y >= -1e-3f && q.y <= 32.001f, "slope vertex (%g, %g)",
                    q.x, q.y);
        }
      }
      CHECK_MSG(fabs(area - 512) <= 1, "slope at (%u,%u): area %.1f", x, y, area);
      if (x >= 29) CHECK(c.cell & TESS_CELL_FLIP_H);
    }
  CHECK(slopes == 8);
  /* The rounded corner: a quarter disc of radius 32 about the tile's
   * bottom-left corner, area pi * 32^2 / 4 = 804. The tracer follows the
   * drawn edge to within 1 px, so the area is within 1 px times the arc's
   * length (16 pi = 50.3 px) of it, and every vertex lies in the tile and
   * within 1.5 px of the arc or on the tile's straight edges. */
  material_of_cell(p, side, 3, 14, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_TRACED && c.tile);
  if (c.tile) {
    double area = 0;
    for (uint32_t k = 0; k < c.tile->piece_count; k++) {
      area += polygon_area(&c.tile->pieces[k]);
      for (uint32_t v = 0; v < c.tile->pieces[k].count; v++) {
        TessVec2 q = c.tile->pieces[k].v[v];
        CHECK_MSG(q.x >= -1e-3f && q.x <= 32.001f && q.y >= -1e-3f && q.y <= 32.001f, "corner vertex (%g, %g)", q.x,
                  q.y);
        double from_centre = sqrt((double)q.x * q.x + (32.0 - q.y) * (32.0 - q.y));
        CHECK_MSG(fabs(from_centre - 32) <= 1.5 || q.x < 1e-3f || q.y > 31.999f, "corner vertex (%g, %g)", q.x, q.y);
      }
    }
    CHECK_MSG(fabs(area - M_PI * 256) <= 16 * M_PI, "rounded corner area %.1f", area);
  }
  /* One-way planks over the pool. */
  material_of_cell(p, side, 46, 27, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_TRACED && c.one_way);

  /* Bodies: a ball above each platform, six crates, the pendulum. */
  const TessObject *ball_rubber = find_object(side, "Ball over rubber");
  const TessObject *ball_sand = find_object(side, "Ball over sand");
  CHECK(ball_rubber && ball_sand);
  if (ball_rubber && ball_sand) {
    CHECK(ball_rubber->kind == TESS_OBJECT_BODY && ball_rubber->u.body.type == TESS_BODY_DYNAMIC);
    CHECK(ball_rubber->pos.x > 4 * 32 && ball_rubber->pos.x < 10 * 32 && ball_rubber->pos.y < 26 * 32);
    CHECK(ball_sand->pos.x > 35 * 32 && ball_sand->pos.x < 41 * 32 && ball_sand->pos.y < 26 * 32);
  }
  int crates = 0;
  for (uint32_t i = 0; i < side->layer_count; i++)
    for (uint32_t k = 0; k < side->layers[i]->object_count; k++)
      if (strncmp(side->layers[i]->objects[k].name, "Crate ", 6) == 0) crates++;
  CHECK(crates == 6);

  const TessObject *pin = find_object(side, "Pendulum pin");
  const TessObject *bob = find_object(side, "Pendulum bob");
  CHECK(pin && bob);
  if (pin && bob) {
    CHECK(pin->kind == TESS_OBJECT_JOINT && pin->u.joint.kind == TESS_JOINT_PIN);
    CHECK(pin->u.joint.body_a == bob->id && pin->u.joint.body_b == 0);
    CHECK(bob->kind == TESS_OBJECT_BODY && bob->u.body.type == TESS_BODY_DYNAMIC);
    CHECK(tess_v2_distance(pin->pos, bob->pos) > 64.0f); /* it hangs away from the pin, so it swings */
  }
  const TessObject *wind = find_object(side, "Updraft");
  CHECK(wind && wind->kind == TESS_OBJECT_ZONE && wind->u.zone.kind == TESS_ZONE_ACCELERATION);
  if (wind) CHECK(wind->u.zone.vector.y < -side->settings.gravity.y);
  tess_project_destroy(p);
}

static void top_down_level_has_floor_regions_and_painted_walls(void) {
  TessProject *p = load_demo();
  if (!p) return;
  const TessLevel *top = tess_project_level_by_name(p, "Top-down");
  if (!top) {
    CHECK(top != NULL);
    tess_project_destroy(p);
    return;
  }
  TessCellCollision c;
  const TessMaterial *m = material_of_cell(p, top, 5, 5, &c);
  CHECK(m && strcmp(m->name, "Ice floor") == 0 && c.kind == TESS_TILE_COLLISION_NONE);
  m = material_of_cell(p, top, 30, 20, &c);
  CHECK(m && strcmp(m->name, "Sand floor") == 0 && c.kind == TESS_TILE_COLLISION_NONE);
  m = material_of_cell(p, top, 16, 16, &c);
  CHECK(m && strcmp(m->name, "Stone floor") == 0 && c.kind == TESS_TILE_COLLISION_NONE);
  /* Walls: painted rock, a full square though no tile there has a shape. */
  const uint32_t walls[][2] = {{0, 0}, {39, 15}, {20, 10}, {12, 29}};
  for (size_t i = 0; i < sizeof walls / sizeof walls[0]; i++) {
    m = material_of_cell(p, top, walls[i][0], walls[i][1], &c);
    CHECK(m && strcmp(m->name, "Rock") == 0 && m->kind == TESS_MATERIAL_SOLID);
    CHECK(c.kind == TESS_TILE_COLLISION_FULL);
    CHECK(c.tile == NULL || c.tile->collision == TESS_TILE_COLLISION_NONE);
  }
  /* The gap under the dividing wall is open floor. */
  m = material_of_cell(p, top, 20, 24, &c);
  CHECK(m && m->kind == TESS_MATERIAL_FLOOR && c.kind == TESS_TILE_COLLISION_NONE);
  int bodies = 0;
  for (uint32_t i = 0; i < top->layer_count; i++)
    for (uint32_t k = 0; k < top->layers[i]->object_count; k++)
      if (top->layers[i]->objects[k].kind == TESS_OBJECT_BODY) bodies++;
  CHECK(bodies >= 6);
  tess_project_destroy(p);
}

/* The Cave level is painted with the tileset's "Cave" terrain set: every
 * cell holds one of its tiles, every shared corner agrees, the rock that is
 * drawn collides (all-rock cells full squares, transitions traced, air
 * nothing), and the ceiling and floor are rock. */
static void cave_level_is_painted_with_its_terrain_set(void) {
  TessProject *p = load_demo();
  if (!p) return;
  const TessLevel *cave = tess_project_level_by_name(p, "Cave");
  const TessTileset *ts = p->tileset_count ? p->tilesets[0] : NULL;
  CHECK(cave && ts && ts->terrain_count == 1);
  if (!cave || !ts || ts->terrain_count != 1) {
    tess_project_destroy(p);
    return;
  }
  const TessTerrainSet *set = &ts->terrains[0];
  CHECK(strcmp(set->name, "Cave") == 0 && set->kind == TESS_TERRAIN_CORNER && set->color_count == 2 &&
        set->tile_count == 16 && tess_terrain_set_complete(set));
  const TessLayer *ground = NULL;
  for (uint32_t i = 0; i < cave->layer_count && !ground; i++)
    if (strcmp(cave->layers[i]->props.name, "Ground") == 0) ground = cave->layers[i];
  CHECK(ground != NULL);
  int unlabelled = 0, disagree = 0, rock_cells = 0, traced = 0;
  for (uint32_t y = 0; ground && y < cave->settings.height; y++)
    for (uint32_t x = 0; x < cave->settings.width; x++) {
      uint8_t a[8], r[8], d[8];
      if (!tess_terrain_cell_labels(set, ts->id, tess_layer_cell(ground, x, y), a)) {
        unlabelled++;
        continue;
      }
      if (x + 1 < cave->settings.width && tess_terrain_cell_labels(set, ts->id, tess_layer_cell(ground, x + 1, y), r))
        disagree += a[1] != r[7] || a[3] != r[5];
      if (y + 1 < cave->settings.height && tess_terrain_cell_labels(set, ts->id, tess_layer_cell(ground, x, y + 1), d))
        disagree += a[5] != d[7] || a[3] != d[1];
      int rocks = (a[1] == 1) + (a[3] == 1) + (a[5] == 1) + (a[7] == 1);
      TessCellCollision c;
      tess_level_cell_collision(p, cave, x, y, &c);
      if (rocks == 4) CHECK(c.kind == TESS_TILE_COLLISION_FULL);
      else if (rocks == 0) CHECK(c.kind == TESS_TILE_COLLISION_NONE);
      else {
        CHECK(c.kind == TESS_TILE_COLLISION_TRACED && c.tile && c.tile->piece_count >= 1);
        traced++;
      }
      rock_cells += rocks == 4;
    }
  CHECK_MSG(unlabelled == 0 && disagree == 0, "%d cells outside the set, %d corners disagree", unlabelled, disagree);
  CHECK(traced >= 20 && rock_cells >= 100);
  TessCellCollision c;
  tess_level_cell_collision(p, cave, 20, 0, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_FULL);
  tess_level_cell_collision(p, cave, 20, 23, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_FULL);
  tess_level_cell_collision(p, cave, 5, 8, &c);
  CHECK(c.kind == TESS_TILE_COLLISION_NONE);
  tess_project_destroy(p);
}

/* ---- reproducibility -------------------------------------------------------- */

static void generating_twice_gives_the_same_project(void) {
  const char *make_demo = env_path("TESS_MAKE_DEMO"), *art = env_path("TESS_DEMO_ART_DIR");
  char first[1024], second[1024];
  tess_test_path(first, sizeof first, "first.tessera");
  tess_test_path(second, sizeof second, "second.tessera");
  const char *run1[] = {make_demo, art, first, NULL};
  const char *run2[] = {make_demo, art, second, NULL};
  CHECK(run(run1) == 0);
  CHECK(run(run2) == 0);
  TessProject *a = load_project(first), *b = load_project(second), *built = load_demo();
  if (a && b && built) {
    uint64_t ha = tess_project_hash(a);
    CHECK(ha == tess_project_hash(b));
    CHECK(ha == tess_project_hash(built));
    CHECK(a->level_count == 3 && a->sprite_count == 13);
  }
  if (a) tess_project_destroy(a);
  if (b) tess_project_destroy(b);
  if (built) tess_project_destroy(built);
  /* And the files themselves are byte-for-byte equal. */
  uint8_t *da = NULL, *db = NULL;
  size_t sa = 0, sb = 0;
  TessError err;
  CHECK_OK(tess_file_read(first, (size_t)1 << 28, &da, &sa, &err), &err);
  CHECK_OK(tess_file_read(second, (size_t)1 << 28, &db, &sb, &err), &err);
  CHECK(da && db && sa == sb && memcmp(da, db, sa) == 0);
  tess_free(da);
  tess_free(db);
  /* Regenerating over an existing output replaces it. */
  CHECK(run(run1) == 0);
  TessProject *again = load_project(first);
  CHECK(again != NULL);
  if (again) tess_project_destroy(again);
}

static void checked_in_art_is_what_the_drawing_program_draws(void) {
  const char *draw = env_path("TESS_DRAW_DEMO_ART"), *art = env_path("TESS_DEMO_ART_DIR");
  char out[1024];
  tess_test_path(out, sizeof out, "art");
  mkdir(out, 0755);
  const char *argv[] = {draw, out, NULL};
  CHECK(run(argv) == 0);
  static const char *files[] = {"terrain.png", "crate.png", "barrel.png", "ball.png",
                                "rock.png", "star.png", "coin.png", "doll-head.png",
                                "doll-torso.png", "doll-upper-arm.png", "doll-lower-arm.png", "doll-upper-leg.png",
                                "doll-lower-leg.png", "tree.png"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char a[1200], b[1200];
    snprintf(a, sizeof a, "%s/%s", art, files[i]);
    snprintf(b, sizeof b, "%s/%s", out, files[i]);
    TessImage checked = {0}, drawn = {0};
    TessError err;
    CHECK_OK(tess_png_load(a, &checked, &err), &err);
    CHECK_OK(tess_png_load(b, &drawn, &err), &err);
    if (checked.pixels && drawn.pixels) {
      CHECK(checked.width == drawn.width && checked.height == drawn.height);
      int worst = 0;
      if (checked.width == drawn.width && checked.height == drawn.height)
        for (uint32_t y = 0; y < checked.height; y++)
          for (uint32_t x = 0; x < checked.width * 4; x++) {
            int d = abs((int)checked.pixels[y * checked.stride + x] - (int)drawn.pixels[y * drawn.stride + x]);
            if (d > worst) worst = d;
          }
      /* Equal here; one step of rounding is allowed for another libm. */
      CHECK_MSG(worst <= 1, "%s differs by up to %d: rerun draw-demo-art into data/demo/art", files[i], worst);
    }
    tess_image_clear(&checked);
    tess_image_clear(&drawn);
  }
}

TESS_TEST_MAIN(TEST(materials_have_their_specified_values), TEST(levels_have_their_settings),
               TEST(sprites_have_real_alpha_and_traced_masks), TEST(side_level_has_pool_pit_ramp_and_platforms),
               TEST(top_down_level_has_floor_regions_and_painted_walls), TEST(cave_level_is_painted_with_its_terrain_set),
               TEST(generating_twice_gives_the_same_project), TEST(checked_in_art_is_what_the_drawing_program_draws))
