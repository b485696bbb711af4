/* core/play: the fixed-step clock (whole steps, capped catch-up,
 * interpolation weight) and the sprite frame player (fractional and
 * negative rates), with exact expected counts. */
#include "check.h"
#include "tessera/play.h"

static TessClock make_clock(double hz, uint32_t cap) {
  TessClockDef def;
  tess_clock_def_default(&def);
  def.hz = hz;
  def.max_steps_per_frame = cap;
  TessClock c;
  TessError err;
  CHECK_OK(tess_clock_init(&c, &def, &err), &err);
  return c;
}

static void clock_steps_at_the_fixed_rate(void) {
  TessClock c = make_clock(60.0, 4);
  /* 120 display frames of 1/120 s: 60 steps, one every other frame. */
  uint32_t total = 0, frames_with_step = 0;
  for (int i = 0; i < 120; i++) {
    uint32_t n = tess_clock_advance(&c, 1.0 / 120.0, 1.0);
    CHECK(n <= 1);
    total += n;
    frames_with_step += n;
  }
  CHECK_MSG(total == 60, "%u", total);
  CHECK(frames_with_step == 60);
  CHECK_NEAR(tess_clock_seconds(&c), 1.0, 1e-12);
  /* Half a step in: the newer state weighs one half. */
  CHECK(tess_clock_advance(&c, 1.0 / 120.0, 1.0) == 1);
  CHECK_NEAR(tess_clock_alpha(&c), 0.5, 1e-9);
  CHECK(tess_clock_advance(&c, 1.0 / 120.0, 1.0) == 0);
  CHECK_NEAR(tess_clock_alpha(&c), 1.0, 1e-9);
  /* Half speed: 1/60 s of wall time is half a step. */
  TessClock h = make_clock(60.0, 4);
  uint32_t n = 0;
  for (int i = 0; i < 60; i++) n += tess_clock_advance(&h, 1.0 / 60.0, 0.5);
  CHECK(n == 30);
}

static void clock_caps_catch_up_and_drops_the_rest(void) {
  TessClock c = make_clock(60.0, 4);
  /* A 3 s stall counts as max_frame_seconds (0.25 s = 15 steps), of which 4 are taken. */
  CHECK(tess_clock_advance(&c, 3.0, 1.0) == 4);
  CHECK(c.step == 4);
  CHECK_NEAR(c.time, 4.0, 0); /* the display waits at the last step: no debt kept */
  CHECK_NEAR(tess_clock_alpha(&c), 1.0, 0);
  CHECK(tess_clock_advance(&c, 1.0 / 60.0, 1.0) == 1); /* and runs on normally */
  /* Nothing for zero, negative, NaN time or speed. */
  CHECK(tess_clock_advance(&c, 0.0, 1.0) == 0);
  CHECK(tess_clock_advance(&c, -1.0, 1.0) == 0);
  CHECK(tess_clock_advance(&c, NAN, 1.0) == 0);
  CHECK(tess_clock_advance(&c, 1.0, NAN) == 0);
  CHECK(tess_clock_advance(&c, 1.0, -1.0) == 0);
  TessClockDef bad;
  tess_clock_def_default(&bad);
  bad.hz = 0.0;
  TessClock x;
  TessError err;
  CHECK(tess_clock_init(&x, &bad, &err) == TESS_ERR_INVALID);
  tess_clock_def_default(&bad);
  bad.max_steps_per_frame = 0;
  CHECK(tess_clock_init(&x, &bad, &err) == TESS_ERR_INVALID);
}

static void frame_player_fractional_and_negative(void) {
  TessFramePlayer fp = {0, 0.0};
  /* 10 frames per second of a 6-frame strip for 1/40 s: a quarter frame each. */
  for (int i = 0; i < 4; i++) tess_frame_player_advance(&fp, 10.0 / 40.0, 6);
  CHECK(fp.frame == 1);
  /* A negative rate plays it backwards, wrapping below 0. */
  for (int i = 0; i < 4; i++) tess_frame_player_advance(&fp, -0.5, 6);
  CHECK_MSG(fp.frame == 5, "%u", fp.frame);
  CHECK(tess_frame_player_advance(&fp, -1.25, 6) == 4);
  CHECK(tess_frame_player_advance(&fp, 0.25, 6) == 4); /* -0.25 + 0.25: back on the frame */
  CHECK_NEAR(fp.remainder, 0.0, 1e-12);
  CHECK(tess_frame_player_advance(&fp, 6.0 * 1000 + 2, 6) == 0);
  CHECK(tess_frame_player_advance(&fp, INFINITY, 6) == 0);
  CHECK(tess_frame_player_advance(&fp, 1.0, 0) == 0);
}

TESS_TEST_MAIN(TEST(clock_steps_at_the_fixed_rate), TEST(clock_caps_catch_up_and_drops_the_rest),
               TEST(frame_player_fractional_and_negative))
