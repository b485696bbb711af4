/* libtessera-draw from the runtime's data alone (no level model): a scene
 * made field by field, its world, and the painter. Pixels are read back from
 * a cairo image surface: which body covers an overlap (body order, depth
 * order, and y order that swaps when two bodies pass each other), a sprite
 * strip's frames following simulated time, and refused sprites. */
#include <string.h>

#include "check.h"
#include "tessera/draw.h"

#define PPM 16.0f

/* A 10 x 8 m scene of 1 m cells, no walls, no gravity, with `n` boxes of
 * half-size (hw, hh) at `pos`, each its own shape; bodies never collide
 * (mask 0), so they can pass through each other. */
static TessScene *boxes(uint32_t n, const TessVec2 *pos, float hw, float hh, uint8_t type) {
  TessScene *s = tess_scene_create();
  s->width = 10;
  s->height = 8;
  s->cell_w = s->cell_h = 1.0f;
  s->ppm = PPM;
  s->physics_hz = 60.0f;
  s->substeps = 4;
  s->cell_kind = tess_calloc((size_t)s->width * s->height, 1); /* all empty */
  s->material_count = 1;
  s->materials = tess_calloc(1, sizeof *s->materials);
  tess_scene_material_default(&s->materials[0]);
  s->shape_count = s->body_count = n;
  s->shapes = tess_calloc(n, sizeof *s->shapes);
  s->bodies = tess_calloc(n, sizeof *s->bodies);
  for (uint32_t i = 0; i < n; i++) {
    TessSceneShape *sh = &s->shapes[i];
    sh->type = TESS_SHAPE_POLYGON;
    sh->count = 4;
    sh->v[0] = tess_v2(-hw, -hh);
    sh->v[1] = tess_v2(hw, -hh);
    sh->v[2] = tess_v2(hw, hh);
    sh->v[3] = tess_v2(-hw, hh);
    TessSceneBody *b = &s->bodies[i];
    b->type = type;
    b->position = pos[i];
    b->first_shape = i;
    b->shape_count = 1;
    b->category = 1;
    b->mask = 0;
  }
  return s;
}

static uint32_t pixel(cairo_surface_t *s, int x, int y) {
  cairo_surface_flush(s);
  const unsigned char *d = cairo_image_surface_get_data(s);
  return *(const uint32_t *)(const void *)(d + (size_t)y * (size_t)cairo_image_surface_get_stride(s) + 4 * (size_t)x);
}

static const TessDrawView VIEW = {0.0, 0.0, 1.0, 160, 128};
#define RED 0xff0000ffu
#define BLUE 0x0000ffffu
#define ARGB_RED 0xffff0000u
#define ARGB_BLUE 0xff0000ffu

static cairo_surface_t *paint(TessDraw *d, const TessScene *s, const TessWorld *w, const TessBodyId *ids,
                              const TessDrawBodyStyle *styles) {
  cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, VIEW.width, VIEW.height);
  cairo_t *cr = cairo_create(surf);
  tess_draw_world(d, cr, s, w, ids, styles, 1.0f, &VIEW, 0);
  cairo_destroy(cr);
  return surf;
}

/* Two overlapping boxes: the later body covers the earlier; a depth puts the
 * first one over; the order says so. */
static void depth_decides_which_body_covers(void) {
  TessVec2 pos[2] = {{3.0f, 3.0f}, {3.5f, 3.0f}};
  TessScene *s = boxes(2, pos, 0.5f, 0.5f, TESS_BODY_STATIC);
  TessWorld *w = NULL;
  TessBodyId ids[2];
  TessError err;
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
  TessDraw *d = tess_draw_create();
  TessDrawBodyStyle styles[2] = {{RED, 0, {0, 0}}, {BLUE, 0, {0, 0}}};
  int ox = (int)(3.25f * PPM), oy = (int)(3.0f * PPM); /* inside both */
  cairo_surface_t *surf = paint(d, s, w, ids, styles);
  CHECK(pixel(surf, ox, oy) == ARGB_BLUE);
  CHECK(pixel(surf, (int)(2.75f * PPM), oy) == ARGB_RED); /* body 0 alone */
  uint32_t order[2];
  CHECK(tess_draw_last_order(d, order, 2) == 2 && order[0] == 0 && order[1] == 1);
  cairo_surface_destroy(surf);

  int32_t depth[2] = {5, -1};
  CHECK_OK(tess_draw_set_order(d, depth, NULL, 2, &err), &err);
  surf = paint(d, s, w, ids, styles);
  CHECK(pixel(surf, ox, oy) == ARGB_RED);
  CHECK(tess_draw_last_order(d, order, 2) == 2 && order[0] == 1 && order[1] == 0);
  cairo_surface_destroy(surf);

  CHECK_OK(tess_draw_set_order(d, NULL, NULL, 0, &err), &err); /* forgotten: body order again */
  surf = paint(d, s, w, ids, styles);
  CHECK(pixel(surf, ox, oy) == ARGB_BLUE);
  cairo_surface_destroy(surf);
  tess_draw_destroy(d);
  tess_world_destroy(w);
  tess_scene_destroy(s);
}

/* Top-down y order: of two overlapping bodies, the one lower on screen is
 * drawn over; body 0 moves down past body 1 and the cover swaps. */
static void y_sorted_bodies_swap_when_they_pass(void) {
  TessVec2 pos[2] = {{3.0f, 2.6f}, {3.5f, 3.0f}};
  TessScene *s = boxes(2, pos, 1.0f, 1.0f, TESS_BODY_DYNAMIC);
  TessWorld *w = NULL;
  TessBodyId ids[2];
  TessError err;
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
  CHECK_OK(tess_body_set_linear_velocity(w, ids[0], tess_v2(0.0f, 0.8f)), NULL);
  TessDraw *d = tess_draw_create();
  TessDrawBodyStyle styles[2] = {{RED, 0, {0, 0}}, {BLUE, 0, {0, 0}}};
  /* Body 1 first by depth would hide nothing: equal depths, both y-sorted. */
  int32_t depth[2] = {0, 0};
  uint8_t ysort[2] = {1, 1};
  CHECK_OK(tess_draw_set_order(d, depth, ysort, 2, &err), &err);
  int ox = (int)(3.25f * PPM), oy = (int)(3.0f * PPM);
  cairo_surface_t *surf = paint(d, s, w, ids, styles);
  CHECK(pixel(surf, ox, oy) == ARGB_BLUE); /* body 1 (y 3.0) stands lower than body 0 (y 2.6) */
  cairo_surface_destroy(surf);
  for (int k = 0; k < 60; k++) CHECK_OK(tess_world_step(w, 1.0f / 60.0f, &err), &err); /* 1 s: y 3.4 */
  CHECK_NEAR(tess_body_position(w, ids[0]).y, 3.4f, 1e-3);
  surf = paint(d, s, w, ids, styles);
  CHECK(pixel(surf, ox, oy) == ARGB_RED); /* body 0 has passed it */
  uint32_t order[2];
  CHECK(tess_draw_last_order(d, order, 2) == 2 && order[0] == 1 && order[1] == 0);
  cairo_surface_destroy(surf);
  /* Without y sorting the order is the bodies' again. */
  CHECK_OK(tess_draw_set_order(d, depth, NULL, 2, &err), &err);
  surf = paint(d, s, w, ids, styles);
  CHECK(pixel(surf, ox, oy) == ARGB_BLUE);
  cairo_surface_destroy(surf);
  tess_draw_destroy(d);
  tess_world_destroy(w);
  tess_scene_destroy(s);
}

/* A two-frame strip (red, then green) on a body: frame 0, then frame 1 after
 * 1/rate seconds of simulated time, then back to 0 going backwards. */
static void sprite_frames_follow_simulated_time(void) {
  TessVec2 pos[1] = {{6.0f, 3.0f}};
  TessScene *s = boxes(1, pos, 0.1f, 0.1f, TESS_BODY_STATIC);
  TessWorld *w = NULL;
  TessBodyId ids[1];
  TessError err;
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
  TessDraw *d = tess_draw_create();
  uint8_t strip[4 * 8 * 4];
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 8; x++) {
      uint8_t *p = &strip[(y * 8 + x) * 4];
      p[0] = x < 4 ? 255 : 0;
      p[1] = x < 4 ? 0 : 255;
      p[2] = 0;
      p[3] = 255;
    }
  CHECK(tess_draw_set_sprite(d, 0, strip, 8, 4, 32, 2, 10.0f, &err) == TESS_ERR_INVALID);
  CHECK(tess_draw_set_sprite(d, 7, strip, 8, 4, 32, 9, 10.0f, &err) == TESS_ERR_INVALID);
  CHECK(tess_draw_set_sprite(d, 7, strip, 8, 4, 16, 2, 10.0f, &err) == TESS_ERR_INVALID);
  CHECK(!tess_draw_has_sprite(d, 7));
  CHECK_OK(tess_draw_set_sprite(d, 7, strip, 8, 4, 32, 2, 10.0f, &err), &err);
  CHECK(tess_draw_has_sprite(d, 7));
  TessDrawBodyStyle style = {0, 7, {-2.0f / PPM, -2.0f / PPM}};
  int px = (int)(6.0f * PPM), py = (int)(3.0f * PPM);
  cairo_surface_t *surf = paint(d, s, w, ids, &style);
  CHECK(pixel(surf, px, py) == ARGB_RED);
  cairo_surface_destroy(surf);
  tess_draw_advance_animation(d, 0.1);
  CHECK(tess_draw_sprite_frame(d, 7) == 1);
  surf = paint(d, s, w, ids, &style);
  CHECK(pixel(surf, px, py) == 0xff00ff00u);
  cairo_surface_destroy(surf);
  tess_draw_advance_animation(d, -0.1);
  CHECK(tess_draw_sprite_frame(d, 7) == 0);
  TessDrawStats st;
  tess_draw_stats(d, &st);
  CHECK(st.sprite_blits == 2 && st.paths == 0);
  tess_draw_destroy(d);
  tess_world_destroy(w);
  tess_scene_destroy(s);
}

/* The default background is the scene's colliding cells; a caller's
 * callback replaces it and is called once per view, not once per frame. */
static int background_calls;
static void green_background(void *user, cairo_t *cr, const TessDrawView *view) {
  (void)user;
  background_calls++;
  cairo_rectangle(cr, 0, 0, view->width, view->height);
  cairo_set_source_rgb(cr, 0, 1, 0);
  cairo_fill(cr);
}

static void background_is_cells_or_the_callers(void) {
  TessVec2 pos[1] = {{8.5f, 6.5f}};
  TessScene *s = boxes(1, pos, 0.1f, 0.1f, TESS_BODY_STATIC);
  s->cell_kind[2 * s->width + 1] = TESS_MAP_FULL; /* cell (1, 2) */
  TessWorld *w = NULL;
  TessBodyId ids[1];
  TessError err;
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, ids, &err), &err);
  TessDraw *d = tess_draw_create();
  cairo_surface_t *surf = paint(d, s, w, ids, NULL);
  uint32_t wall = pixel(surf, (int)(1.5f * PPM), (int)(2.5f * PPM)), open = pixel(surf, (int)(4.5f * PPM), (int)(2.5f * PPM));
  CHECK(wall != open);
  CHECK(open == 0xff212126u); /* the dark ground (0.13, 0.13, 0.15) */
  cairo_surface_destroy(surf);
  tess_draw_set_background(d, green_background, NULL);
  for (int k = 0; k < 3; k++) {
    surf = paint(d, s, w, ids, NULL);
    CHECK(pixel(surf, (int)(1.5f * PPM), (int)(2.5f * PPM)) == 0xff00ff00u);
    cairo_surface_destroy(surf);
  }
  CHECK(background_calls == 1);
  tess_draw_invalidate_background(d);
  cairo_surface_destroy(paint(d, s, w, ids, NULL));
  CHECK(background_calls == 2);
  tess_draw_destroy(d);
  tess_world_destroy(w);
  tess_scene_destroy(s);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {
      {"depth_decides_which_body_covers", depth_decides_which_body_covers},
      {"y_sorted_bodies_swap_when_they_pass", y_sorted_bodies_swap_when_they_pass},
      {"sprite_frames_follow_simulated_time", sprite_frames_follow_simulated_time},
      {"background_is_cells_or_the_callers", background_is_cells_or_the_callers},
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
