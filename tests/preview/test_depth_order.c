/* Depth order drawn the same way by `render` (core/render, the map view and
 * the pipeline) and by Play (libtessera-draw through the preview painter):
 * two overlapping boxes, a red one and a blue one, in every case of the
 * rule (object order; a depth; a layer sorted by y), and in Play the y
 * order swapping when the red box moves down past the blue one; and the
 * demo's Top-down grove drawn alike by `render` of the level, `render` of
 * its .tlv, and Play, as its Runner passes a tree. */
#include <string.h>

#include "check.h"
#include "preview_demo.h"
#include "tessera/pack.h"
#include "tessera/render.h"
#include "tlv_reader.h"

typedef struct Scene2 {
  TessProject *p;
  TessId level, layer, red, blue;
} Scene2;

static TessId material(TessProject *p, const char *name, uint32_t color) {
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "%s", name);
  m.color = color;
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_material_add(p, &m, &id, &err), &err);
  return id;
}

static TessId box(Scene2 *s, TessId mat, float x, float y) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.u.body.shape = TESS_BODY_BOX;
  o.u.body.material = mat;
  o.u.body.mask = 0; /* they pass through each other */
  o.pos = tess_v2(x, y);
  TessId id = 0;
  TessError err;
  CHECK_OK(tess_edit_object_add(s->p, s->level, s->layer, &o, &id, &err), &err);
  return id;
}

/* Red box at (80, 40), blue box at (96, 56), 32 px each: they overlap on
 * x 80..96, y 40..56. No gravity: only what the test moves moves. */
static bool build(Scene2 *s) {
  memset(s, 0, sizeof *s);
  s->p = tess_project_create();
  TessId red = material(s->p, "Red", 0xff0000ffu), blue = material(s->p, "Blue", 0x0000ffffu);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Order");
  ls.width = 10;
  ls.height = 8;
  ls.tile_w = ls.tile_h = 16;
  ls.ppm = 16.0f;
  ls.gravity = tess_v2(0.0f, 0.0f);
  TessError err;
  CHECK_OK(tess_edit_level_add(s->p, &ls, &s->level, &err), &err);
  TessLevel *lv = tess_project_level(s->p, s->level);
  for (uint32_t i = 0; lv && i < lv->layer_count; i++)
    if (lv->layers[i]->props.kind == TESS_LAYER_OBJECTS) s->layer = lv->layers[i]->props.id;
  CHECK(s->layer != 0);
  if (!s->layer) return false;
  s->red = box(s, red, 80.0f, 40.0f);
  s->blue = box(s, blue, 96.0f, 56.0f);
  return true;
}

static void set_depth(Scene2 *s, TessId id, int32_t depth) {
  TessObject o;
  TessError err;
  CHECK_OK(tess_object_copy(&o, tess_level_object(tess_project_level(s->p, s->level), id, NULL)), NULL);
  o.depth = depth;
  CHECK_OK(tess_edit_object_set(s->p, s->level, &o, 0, &err), &err);
  tess_object_clear(&o);
}

static void set_y_sort(Scene2 *s, bool on) {
  TessLayerProps pr = tess_level_layer(tess_project_level(s->p, s->level), s->layer)->props;
  pr.y_sort = on;
  TessError err;
  CHECK_OK(tess_edit_layer_set_props(s->p, s->level, &pr, 0, &err), &err);
}

static uint32_t pixel(cairo_surface_t *s, int x, int y) {
  cairo_surface_flush(s);
  const unsigned char *d = cairo_image_surface_get_data(s);
  return *(const uint32_t *)(const void *)(d + (size_t)y * (size_t)cairo_image_surface_get_stride(s) + 4 * (size_t)x);
}

/* 'r' or 'b': which box `render` shows on top at (x, y) (its fills are
 * translucent, so the top one's colour dominates the overlap). */
static char render_top(Scene2 *s, int x, int y) {
  TessRenderOptions opt;
  tess_render_options_default(&opt);
  opt.flags = TESS_RENDER_OBJECTS | TESS_RENDER_BACKGROUND;
  opt.background = 0x000000ffu;
  cairo_surface_t *surf = NULL;
  TessError err;
  CHECK_OK(tess_render_level_to_surface(s->p, tess_project_level(s->p, s->level), 1.0, &opt, &surf, &err), &err);
  if (!surf) return '?';
  uint32_t v = pixel(surf, x, y);
  cairo_surface_destroy(surf);
  uint32_t r = (v >> 16) & 0xff, b = v & 0xff;
  CHECK_MSG(r > 0 && b > 0, "(%d, %d) is not in the overlap: 0x%08x", x, y, v);
  return r > b ? 'r' : 'b';
}

/* The same from Play, at the preview's current state (opaque fills). */
static char play_top(TessPreviewPainter *pp, TessPreviewLevel *pl, int x, int y) {
  TessRenderView view = {0.0, 0.0, 1.0, 160, 128};
  cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 160, 128);
  cairo_t *cr = cairo_create(surf);
  tess_preview_painter_draw(pp, cr, pl, &view, 0);
  cairo_destroy(cr);
  uint32_t v = pixel(surf, x, y);
  cairo_surface_destroy(surf);
  return v == 0xffff0000u ? 'r' : v == 0xff0000ffu ? 'b'
                                                   : '?';
}

static char play_once(Scene2 *s, int x, int y) {
  TessPreviewLevel *pl = NULL;
  TessError err;
  CHECK_OK(tess_preview_level_create(s->p, tess_project_level(s->p, s->level), 0, &pl, &err), &err);
  TessPreviewPainter *pp = tess_preview_painter_create(s->p);
  char top = pl && pp ? play_top(pp, pl, x, y) : '?';
  tess_preview_painter_destroy(pp);
  tess_preview_level_destroy(pl);
  return top;
}

static void render_and_play_draw_in_one_order(void) {
  Scene2 s;
  if (!build(&s)) {
    tess_project_destroy(s.p);
    return;
  }
  /* Object order: blue, added later, over red. */
  CHECK(render_top(&s, 88, 48) == 'b');
  CHECK(play_once(&s, 88, 48) == 'b');
  /* A depth puts red over. */
  set_depth(&s, s.red, 1);
  CHECK(render_top(&s, 88, 48) == 'r');
  CHECK(play_once(&s, 88, 48) == 'r');
  /* Depth beats y: red (higher on screen) stays over in a y-sorted layer. */
  set_y_sort(&s, true);
  CHECK(render_top(&s, 88, 48) == 'r');
  CHECK(play_once(&s, 88, 48) == 'r');
  /* Equal depths, sorted by y: blue stands lower (y 56 > 40), so over. */
  set_depth(&s, s.red, 0);
  CHECK(render_top(&s, 88, 48) == 'b');
  CHECK(play_once(&s, 88, 48) == 'b');
  tess_project_destroy(s.p);
}

/* In Play the red box moves down at 32 px/s; after 1 s it stands at y 72,
 * below the blue one (56): now it covers the overlap. In the map view the
 * level itself has not moved: blue stays over. */
static void y_sorted_bodies_swap_in_play(void) {
  Scene2 s;
  if (!build(&s)) {
    tess_project_destroy(s.p);
    return;
  }
  set_y_sort(&s, true);
  TessPreviewLevel *pl = NULL;
  TessError err;
  CHECK_OK(tess_preview_level_create(s.p, tess_project_level(s.p, s.level), 0, &pl, &err), &err);
  TessPreviewPainter *pp = tess_preview_painter_create(s.p);
  if (!pl || !pp) {
    tess_preview_painter_destroy(pp);
    tess_preview_level_destroy(pl);
    tess_project_destroy(s.p);
    return;
  }
  TessWorld *w = tess_playback_world(pl->playback);
  for (uint32_t i = 0; i < tess_playback_body_count(pl->playback); i++) {
    const TessPlaybackBody *b = tess_playback_body(pl->playback, i);
    if (b->object == s.red) CHECK_OK(tess_body_set_linear_velocity(w, b->id, tess_v2(0.0f, 2.0f)), NULL);
  }
  CHECK(play_top(pp, pl, 88, 64) == 'b'); /* y 56..72 is blue's alone at first... */
  CHECK(play_top(pp, pl, 88, 48) == 'b'); /* ...and blue covers the overlap */
  for (int k = 0; k < 60; k++) CHECK_OK(tess_playback_step(pl->playback, &err), &err);
  CHECK(play_top(pp, pl, 88, 64) == 'r'); /* red at y 72 now, over blue */
  CHECK(render_top(&s, 88, 48) == 'b');   /* the level did not move */
  tess_preview_painter_destroy(pp);
  tess_preview_level_destroy(pl);
  tess_project_destroy(s.p);
}

/* ---- The demo's grove -------------------------------------------------- */

/* What covers a pixel of the grove: 'r' the Runner (a red ball: green under 0.45 of red), 't' a
 * tree (its leaves or roots: green over 0.55 of red), '?' neither clearly. */
static char grove_pixel(cairo_surface_t *s, int x, int y) {
  uint32_t v = pixel(s, x, y);
  double r = (v >> 16) & 0xff, g = (v >> 8) & 0xff;
  return g < 0.45 * r ? 'r' : g > 0.55 * r ? 't'
                                           : '?';
}

static char grove_render(const TessProject *p, const TessLevel *level, int x, int y) {
  TessRenderOptions opt;
  tess_render_options_default(&opt);
  opt.flags = TESS_RENDER_OBJECTS | TESS_RENDER_BACKGROUND;
  cairo_surface_t *surf = NULL;
  TessError err;
  CHECK_OK(tess_render_level_to_surface(p, level, 1.0, &opt, &surf, &err), &err);
  if (!surf) return '?';
  char c = grove_pixel(surf, x, y);
  cairo_surface_destroy(surf);
  return c;
}

static char grove_play(TessPreviewPainter *pp, TessPreviewLevel *pl, int x, int y) {
  TessRenderView view = {0.0, 0.0, 1.0, 400, 400};
  cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 400, 400);
  cairo_t *cr = cairo_create(surf);
  tess_preview_painter_draw(pp, cr, pl, &view, 0);
  cairo_destroy(cr);
  char c = grove_pixel(surf, x, y);
  cairo_surface_destroy(surf);
  return c;
}

static const TessObject *named(const TessLevel *level, const char *name) {
  for (uint32_t i = 0; i < level->layer_count; i++)
    for (uint32_t k = 0; k < level->layers[i]->object_count; k++)
      if (strcmp(level->layers[i]->objects[k].name, name) == 0) return &level->layers[i]->objects[k];
  CHECK_MSG(0, "the demo's Top-down level has no object \"%s\"", name);
  return NULL;
}

/* The Runner starts north of "Tree by the path" and behind its crown: at a pixel inside both the
 * ball and the crown, `render` of the level, `render` of the level's .tlv (back through
 * tess_project_from_pack) and Play all show the tree; the .tlv gives both the same layer and
 * depth and sorts them by y, as a game's libtessera-draw does. In Play the Runner swings south
 * past the trunk: a pixel where it overlaps the roots shows the roots while it is north of the
 * trunk's foot, and the Runner once it is south of it. */
static void demo_grove_draws_in_one_order(void) {
  TessProject *p = load_demo();
  const TessLevel *level = p ? tess_project_level_by_name(p, "Top-down") : NULL;
  CHECK(level != NULL);
  const TessObject *runner = level ? named(level, "Runner") : NULL, *tree = level ? named(level, "Tree by the path") : NULL;
  if (!runner || !tree) {
    tess_project_destroy(p);
    return;
  }
  TessLayer *layer = NULL;
  CHECK(tess_level_object(level, runner->id, &layer) && layer && layer->props.y_sort);
  CHECK(runner->depth == tree->depth && runner->pos.y < tree->pos.y);
  int bx = (int)runner->pos.x + 6, by = (int)runner->pos.y + 6; /* in the ball and in the crown */
  CHECK(grove_render(p, level, bx, by) == 't');

  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  TessPackOptions po;
  tess_pack_options_default(&po);
  po.embed_images = true; /* the sprites travel in the file, as a game that draws them ships it */
  CHECK_OK(tess_pack_write(p, level, &po, &data, &size, &err), &err);
  TlvLevel lv;
  TlvError terr;
  CHECK(data && tlv_open(data, size, 0, &lv, &terr) == TLV_OK);
  TessProject *q = NULL;
  if (data) CHECK_OK(tess_project_from_pack(&lv, ".", &q, &err), &err);
  if (q) CHECK(grove_render(q, q->levels[0], bx, by) == 't');
  tess_project_destroy(q);
  uint32_t sorted = 0;
  int32_t key = 0;
  for (uint32_t i = 0; data && i < lv.bodies.count; i++) {
    TlvBodyDraw d;
    CHECK(tlv_body_draw(&lv, i, &d));
    if (!d.y_sort) continue;
    if (sorted++ == 0) key = tess_depth_key(d.layer, d.depth);
    CHECK(tess_depth_key(d.layer, d.depth) == key); /* one layer, one depth: y decides */
  }
  CHECK_MSG(sorted >= 5, "%u bodies sorted by y in the .tlv", sorted); /* the runner, the trees, the rest */
  tess_free(data);

  TessPreviewLevel *pl = NULL;
  CHECK_OK(tess_preview_level_create(p, level, 0, &pl, &err), &err);
  TessPreviewPainter *pp = tess_preview_painter_create(p);
  if (pl && pp) {
    CHECK(grove_play(pp, pl, bx, by) == 't');
    TessWorld *w = tess_playback_world(pl->playback);
    TessBodyId ball = {0, 0};
    for (uint32_t i = 0; i < tess_playback_body_count(pl->playback); i++)
      if (tess_playback_body(pl->playback, i)->object == runner->id) ball = tess_playback_body(pl->playback, i)->id;
    float ppm = level->settings.ppm, foot = tree->pos.y;
    int rx = (int)tree->pos.x - 13, ry = (int)foot - 1; /* in the roots, and in the ball as it passes */
    bool behind = false, in_front = false;
    for (int k = 0; k < 240 && !in_front; k++) {
      CHECK_OK(tess_playback_step(pl->playback, &err), &err);
      TessVec2 c = tess_v2_scale(ppm, tess_body_position(w, ball));
      CHECK_MSG(fabsf(c.x - runner->pos.x) < 0.5f, "the Runner left its path: x %g px", c.x);
      float dx = (float)rx + 0.5f - c.x, dy = (float)ry + 0.5f - c.y;
      if (dx * dx + dy * dy > 10.0f * 10.0f) continue; /* the ball does not cover the pixel (well inside) */
      char top = grove_play(pp, pl, rx, ry);
      if (c.y < foot - 0.5f) {
        CHECK_MSG(top == 't', "the Runner at y %g, north of the trunk's foot (%g): '%c' at (%d, %d)", c.y, foot, top, rx, ry);
        behind = true;
      } else if (c.y > foot + 0.5f) {
        CHECK_MSG(top == 'r', "the Runner at y %g, south of the trunk's foot (%g): '%c' at (%d, %d)", c.y, foot, top, rx, ry);
        in_front = true;
      }
    }
    CHECK_MSG(behind && in_front, "the Runner never passed the tree (behind %d, in front %d)", behind, in_front);
  }
  tess_preview_painter_destroy(pp);
  tess_preview_level_destroy(pl);
  tess_project_destroy(p);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {
      {"render_and_play_draw_in_one_order", render_and_play_draw_in_one_order},
      {"y_sorted_bodies_swap_in_play", y_sorted_bodies_swap_in_play},
      {"demo_grove_draws_in_one_order", demo_grove_draws_in_one_order},
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
