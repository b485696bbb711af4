/* Drawing the preview offscreen (cairo image surface, no display): the demo
 * side level after 90 steps with every overlay, against a reference PNG;
 * circles and sprites are pre-rendered once and blitted; animated sprites
 * follow simulated time forwards and backwards.
 * TESS_UPDATE_REFERENCE=1 rewrites the reference (then look at it). */
#include <string.h>

#include "check.h"
#include "preview_demo.h"
#include "tessera/render.h"
#include "tessera/store.h"

static const char *reference_path(char *buf, size_t size) {
  const char *root = getenv("TESS_SOURCE_ROOT");
  snprintf(buf, size, "%s/tests/preview/reference/side-overlays.png", root ? root : "..");
  return buf;
}

/* Per-pixel comparison: the mean channel difference and the share of
 * pixels differing by more than 48 in some channel. */
static void compare(cairo_surface_t *a, cairo_surface_t *b, double *mean, double *bad_share) {
  int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
  CHECK(w == cairo_image_surface_get_width(b) && h == cairo_image_surface_get_height(b));
  if (w != cairo_image_surface_get_width(b) || h != cairo_image_surface_get_height(b)) {
    *mean = 255;
    *bad_share = 1;
    return;
  }
  cairo_surface_flush(a);
  cairo_surface_flush(b);
  const unsigned char *pa = cairo_image_surface_get_data(a), *pb = cairo_image_surface_get_data(b);
  int sa = cairo_image_surface_get_stride(a), sb = cairo_image_surface_get_stride(b);
  double sum = 0;
  long bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int worst = 0;
      for (int c = 0; c < 4; c++) {
        int d = abs((int)pa[y * sa + 4 * x + c] - (int)pb[y * sb + 4 * x + c]);
        sum += d;
        if (d > worst) worst = d;
      }
      if (worst > 48) bad++;
    }
  *mean = sum / ((double)w * h * 4);
  *bad_share = (double)bad / ((double)w * h);
}

static void side_with_overlays_matches_reference(void) {
  TessProject *p = load_demo();
  if (!p) return;
  TessLevel *side = tess_project_level_by_name(p, "Side");
  TessPreviewLevel *pl = NULL;
  TessError err;
  CHECK_OK(tess_preview_level_create(p, side, 0, &pl, &err), &err);
  TessPreviewPainter *pp = tess_preview_painter_create(p);
  CHECK(pp != NULL);
  if (!pl || !pp) {
    tess_preview_painter_destroy(pp);
    tess_preview_level_destroy(pl);
    tess_project_destroy(p);
    return;
  }
  /* A state that depends on the solver as little as possible (so the
   * reference survives physics tuning): 2.5 steps after the start, with a
   * ball thrown into the sky, a spring dragging the ball over the sand
   * platform and the crate pyramid asleep. */
  TessWorld *world = tess_playback_world(pl->playback);
  for (uint32_t i = 0; i < tess_playback_body_count(pl->playback); i++) {
    const TessPlaybackBody *b = tess_playback_body(pl->playback, i);
    const TessObject *o = b->object ? tess_level_object(side, b->object, NULL) : NULL;
    if (o && strncmp(o->name, "Crate ", 6) == 0) tess_body_set_awake(world, b->id, false);
  }
  TessBodyId thrown;
  CHECK_OK(tess_preview_level_spawn_ball(pl, tess_v2(20.0f, 6.0f), tess_v2(6.0f, -4.0f), 0.4f, 0, &thrown, &err), &err);
  TessBodyId sand_ball = {0, 0};
  for (uint32_t i = 0; i < tess_playback_body_count(pl->playback); i++) {
    const TessPlaybackBody *b = tess_playback_body(pl->playback, i);
    const TessObject *o = b->object ? tess_level_object(side, b->object, NULL) : NULL;
    if (o && strcmp(o->name, "Ball over sand") == 0) sand_ball = b->id;
  }
  CHECK(tess_body_is_valid(world, sand_ball));
  TessVec2 grab = tess_body_world_center(world, sand_ball);
  CHECK_OK(tess_playback_drag_begin(pl->playback, sand_ball, grab, &err), &err);
  CHECK_OK(tess_playback_drag_move(pl->playback, tess_v2(grab.x - 3.0f, grab.y - 2.0f), &err), &err);
  for (int s = 0; s < 2; s++) {
    CHECK_OK(tess_playback_step(pl->playback, &err), &err);
    tess_preview_painter_collect_contacts(pp, pl);
  }
  /* Half way to the next state: interpolated drawing. */
  tess_playback_set_playing(pl->playback, true);
  CHECK(tess_playback_advance(pl->playback, 0.5 / 60.0, &err) == 1);
  tess_playback_set_playing(pl->playback, false);
  CHECK_NEAR(tess_playback_alpha(pl->playback), 0.5, 1e-9);
  tess_preview_painter_collect_contacts(pp, pl);
  int w = (int)(side->settings.width * side->settings.tile_w / 2), h = (int)(side->settings.height * side->settings.tile_h / 2);
  TessRenderView view = {0.0, 0.0, 0.5, w, h};
  cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create(surf);
  tess_preview_painter_draw(pp, cr, pl, &view, TESS_PREVIEW_OVERLAY_ALL);
  TessPreviewPainterStats st1;
  tess_preview_painter_stats(pp, &st1);
  CHECK(st1.sprite_blits >= 10);
  CHECK(st1.circle_blits >= 1); /* the pendulum bob is a primitive circle */
  tess_preview_painter_draw(pp, cr, pl, &view, TESS_PREVIEW_OVERLAY_ALL);
  TessPreviewPainterStats st2;
  tess_preview_painter_stats(pp, &st2);
  CHECK(st2.surfaces_made == st1.surfaces_made); /* the second frame made nothing new */
  CHECK(st2.sprite_blits == 2 * st1.sprite_blits);
  cairo_destroy(cr);

  char ref[1024], out[1024];
  reference_path(ref, sizeof ref);
  tess_test_path(out, sizeof out, "side-overlays.png");
  CHECK(cairo_surface_write_to_png(surf, out) == CAIRO_STATUS_SUCCESS);
  if (getenv("TESS_UPDATE_REFERENCE")) {
    CHECK(cairo_surface_write_to_png(surf, ref) == CAIRO_STATUS_SUCCESS);
    fprintf(stderr, "wrote %s\n", ref);
  }
  cairo_surface_t *expect = cairo_image_surface_create_from_png(ref);
  CHECK_MSG(cairo_surface_status(expect) == CAIRO_STATUS_SUCCESS, "cannot read %s", ref);
  if (cairo_surface_status(expect) == CAIRO_STATUS_SUCCESS) {
    double mean, bad;
    compare(surf, expect, &mean, &bad);
    CHECK_MSG(mean < 1.0 && bad < 0.005, "mean diff %.3f, %.3f%% pixels differ (see %s)", mean, bad * 100, out);
  }
  cairo_surface_destroy(expect);

  /* The overlays are really drawn: without them the picture differs. */
  cairo_surface_t *plain = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create(plain);
  tess_preview_painter_draw(pp, cr, pl, &view, 0);
  cairo_destroy(cr);
  double mean, bad;
  compare(surf, plain, &mean, &bad);
  CHECK_MSG(bad > 0.002, "overlays changed only %.4f%% of pixels", bad * 100);
  cairo_surface_destroy(plain);
  cairo_surface_destroy(surf);
  tess_preview_painter_destroy(pp);
  tess_preview_level_destroy(pl);
  tess_project_destroy(p);
}

static void animated_sprites_follow_simulated_time(void) {
  TessProject *p = load_demo();
  if (!p) return;
  const TessSprite *coin = NULL;
  for (uint32_t i = 0; i < p->sprite_count; i++)
    if (p->sprites[i]->frame_count > 1) coin = p->sprites[i];
  CHECK(coin != NULL);
  TessLevel *side = tess_project_level_by_name(p, "Side");
  TessPreviewLevel *pl = NULL;
  TessError err;
  CHECK_OK(tess_preview_level_create(p, side, 0, &pl, &err), &err);
  TessPreviewPainter *pp = tess_preview_painter_create(p);
  if (coin && pl && pp) {
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64);
    cairo_t *cr = cairo_create(surf);
    TessRenderView view = {0.0, 0.0, 0.25, 64, 64};
    tess_preview_painter_draw(pp, cr, pl, &view, 0); /* loads the sprites in view or not */
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    double one_frame = 1.0 / coin->frame_rate;
    CHECK(tess_preview_painter_sprite_frame(pp, coin->id) == 0);
    /* Four quarter frames make one frame (the fractional accumulator). */
    for (int i = 0; i < 4; i++) tess_preview_painter_advance_animation(pp, one_frame / 4);
    CHECK(tess_preview_painter_sprite_frame(pp, coin->id) == 1 % coin->frame_count);
    /* Backwards: one frame back, then wrapping below 0. */
    tess_preview_painter_advance_animation(pp, -one_frame);
    CHECK(tess_preview_painter_sprite_frame(pp, coin->id) == 0);
    tess_preview_painter_advance_animation(pp, -one_frame);
    CHECK(tess_preview_painter_sprite_frame(pp, coin->id) == coin->frame_count - 1);
  }
  tess_preview_painter_destroy(pp);
  tess_preview_level_destroy(pl);
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(side_with_overlays_matches_reference), TEST(animated_sprites_follow_simulated_time))
