/* core/play aiming (tessera/aim.h): every launch returned is flown with the
 * closed-form ballistic path and with a real physics world, and must pass
 * through the target; textbook answers (15 and 75 degrees, sqrt(g R) at 45
 * degrees) are checked exactly; no-solution cases give none; non-finite
 * inputs are refused.
 *
 * Tolerances: the launch velocity is rounded to float (relative 2^-24 per
 * component: at most sqrt(2) |v| t 2^-24 off after t seconds) and so is the
 * flight time (the path moves |v_end - w| t 2^-24 relative to the target,
 * v_end the velocity on arrival); the check allows 4 times the sum of the
 * two, 2^-22 (sqrt(2) |v| + |v_end - w|) t (2 mm for a 70 s high arc at 60
 * m/s, 2e-6 m for a 15 degree shot). The speed |v| carries the same
 * rounding: 1e-5 relative is allowed (float is 6e-8). The world
 * integrates by semi-implicit Euler in sub-steps of h, which lands exactly
 * g h t / 2 further along gravity than the closed form; the test checks
 * that offset to 2 mm (float positions over ~500 sub-steps at tens of
 * metres) and that the path passes within |g| h t / 2 + 3 mm of the target. */
#include "check.h"
#include "tessera/aim.h"
#include "tessera/physics.h"

#include <string.h>

/* Where the closed-form path launched at `v` from `from` is after t. */
static void ballistic(TessVec2 from, TessVec2 v, TessVec2 g, double t, double *x, double *y) {
  *x = from.x + (double)v.x * t + 0.5 * g.x * t * t;
  *y = from.y + (double)v.y * t + 0.5 * g.y * t * t;
}

static void check_hits(TessVec2 from, TessVec2 target, TessVec2 w, TessVec2 g, float speed, const TessAimSolution *s) {
  double x, y;
  ballistic(from, s->velocity, g, s->time, &x, &y);
  double tx = target.x + (double)w.x * s->time, ty = target.y + (double)w.y * s->time;
  double t = s->time, vex = s->velocity.x + g.x * t - w.x, vey = s->velocity.y + g.y * t - w.y;
  double tol = ldexp((sqrt(2.0) * hypot(s->velocity.x, s->velocity.y) + hypot(vex, vey)) * t, -22);
  CHECK_MSG(hypot(x - tx, y - ty) < tol, "passes (%g, %g) for target (%g, %g) at t = %g: %g m off, allowed %g", x, y, tx, ty,
            t, hypot(x - tx, y - ty), tol);
  CHECK_REL(hypot(s->velocity.x, s->velocity.y), (double)speed, 1e-5);
  CHECK(s->time > 0.0f);
}

static void static_textbook_angles(void) {
  /* Flat ground, range R = 5 m, s = 10 m/s, g = 10: sin 2a = g R / s^2 = 1/2,
   * so a = 15 and 75 degrees (y down: "up" is -y). */
  TessAimSolution s[2];
  uint32_t n = 9;
  TessError err;
  TessVec2 g = tess_v2(0, 10), from = tess_v2(1, 2), target = tess_v2(6, 2);
  CHECK_OK(tess_aim_static(from, target, g, 10.0f, s, &n, &err), &err);
  CHECK(n == 2);
  const double pi = 3.14159265358979323846;
  CHECK_NEAR(s[0].velocity.x, 10 * cos(15 * pi / 180), 1e-5);
  CHECK_NEAR(s[0].velocity.y, -10 * sin(15 * pi / 180), 1e-5);
  CHECK_NEAR(s[1].velocity.x, 10 * cos(75 * pi / 180), 1e-5);
  CHECK_NEAR(s[1].velocity.y, -10 * sin(75 * pi / 180), 1e-5);
  CHECK_NEAR(s[0].time, 2 * 10 * sin(15 * pi / 180) / 10, 1e-6); /* t = 2 s sin a / g */
  CHECK_NEAR(s[1].time, 2 * 10 * sin(75 * pi / 180) / 10, 1e-6);
  for (uint32_t i = 0; i < n; i++) check_hits(from, target, tess_v2(0, 0), g, 10.0f, &s[i]);
}

static void static_arcs_hit_any_target(void) {
  /* Targets all around, gravity straight and tilted, speeds above the minimum. */
  TessTestRng rng = {0x5eed};
  int two = 0;
  for (int i = 0; i < 2000; i++) {
    TessVec2 from = tess_v2((float)(tess_rng_unit(&rng) * 20 - 10), (float)(tess_rng_unit(&rng) * 20 - 10));
    TessVec2 target = tess_v2((float)(tess_rng_unit(&rng) * 100 - 50), (float)(tess_rng_unit(&rng) * 100 - 50));
    double ga = tess_rng_unit(&rng) * 6.283185307179586, gm = 1 + tess_rng_unit(&rng) * 20;
    TessVec2 g = i % 2 ? tess_v2(0, 9.81f) : tess_v2((float)(gm * cos(ga)), (float)(gm * sin(ga)));
    float speed = (float)(1 + tess_rng_unit(&rng) * 60);
    TessAimSolution s[2], m;
    uint32_t n;
    bool found;
    TessError err;
    CHECK_OK(tess_aim_static(from, target, g, speed, s, &n, &err), &err);
    CHECK_OK(tess_aim_min_speed(from, target, g, &m, &found, &err), &err);
    CHECK(found);
    double vmin = hypot(m.velocity.x, m.velocity.y);
    if (speed > vmin * (1 + 1e-5)) CHECK_MSG(n == 2, "speed %g above the minimum %g: %u solutions", (double)speed, vmin, n);
    if (speed < vmin * (1 - 1e-5)) CHECK_MSG(n == 0, "speed %g below the minimum %g: %u solutions", (double)speed, vmin, n);
    for (uint32_t k = 0; k < n; k++) check_hits(from, target, tess_v2(0, 0), g, speed, &s[k]);
    if (n == 2) {
      CHECK(s[0].time < s[1].time); /* low arc first */
      two++;
    }
  }
  CHECK_MSG(two > 500, "%d cases with two arcs", two); /* the sample exercised both arcs */
}

static void min_speed_is_the_least(void) {
  /* Flat ground: sqrt(g R) = 20 m/s at 45 degrees. */
  TessAimSolution m, s[2];
  bool found = false;
  uint32_t n;
  TessError err;
  TessVec2 g = tess_v2(0, 10), from = tess_v2(0, 0), target = tess_v2(40, 0);
  CHECK_OK(tess_aim_min_speed(from, target, g, &m, &found, &err), &err);
  CHECK(found);
  CHECK_NEAR(m.velocity.x, sqrt(200.0), 1e-5);
  CHECK_NEAR(m.velocity.y, -sqrt(200.0), 1e-5);
  check_hits(from, target, tess_v2(0, 0), g, 20.0f, &m);
  /* A target up a slope: speed^2 = |g| |d| - g.d. */
  target = tess_v2(30, -40);
  CHECK_OK(tess_aim_min_speed(from, target, g, &m, &found, &err), &err);
  CHECK_REL(hypot(m.velocity.x, m.velocity.y), sqrt(10.0 * 50.0 + 10.0 * 40.0), 1e-6);
  /* Just below it: out of range; just above: both arcs, either side of it in time. */
  float vmin = (float)sqrt(900.0);
  CHECK_OK(tess_aim_static(from, target, g, vmin * 0.999f, s, &n, &err), &err);
  CHECK(n == 0);
  CHECK_OK(tess_aim_static(from, target, g, vmin * 1.001f, s, &n, &err), &err);
  CHECK(n == 2);
  CHECK(s[0].time < m.time && m.time < s[1].time);
  /* No gravity: no minimum (slower always works), except at the launch point. */
  CHECK_OK(tess_aim_min_speed(from, target, tess_v2(0, 0), &m, &found, &err), &err);
  CHECK(!found);
  CHECK_OK(tess_aim_min_speed(from, from, tess_v2(0, 0), &m, &found, &err), &err);
  CHECK(found && m.time == 0.0f && m.velocity.x == 0.0f && m.velocity.y == 0.0f);
}

static void no_solution_gives_none(void) {
  TessAimSolution s[TESS_AIM_MAX_SOLUTIONS];
  uint32_t n = 7;
  TessError err;
  TessVec2 g = tess_v2(0, 10), o = tess_v2(0, 0);
  /* Straight up 5.1 m at 10 m/s: the apex is s^2 / 2g = 5 m. */
  CHECK_OK(tess_aim_static(o, tess_v2(0, -5.1f), g, 10.0f, s, &n, &err), &err);
  CHECK(n == 0);
  /* Straight up 4.9 m: both solutions go straight up (rising, then falling). */
  CHECK_OK(tess_aim_static(o, tess_v2(0, -4.9f), g, 10.0f, s, &n, &err), &err);
  CHECK(n == 2 && fabsf(s[0].velocity.x) < 1e-5f && fabsf(s[1].velocity.x) < 1e-5f);
  CHECK_NEAR(s[0].time, (10 - sqrt(100 - 98.0)) / 10, 1e-5);
  /* Range beyond s^2 / g. */
  CHECK_OK(tess_aim_static(o, tess_v2(10.01f, 0), g, 10.0f, s, &n, &err), &err);
  CHECK(n == 0);
  /* Speed zero: only a target straight down is reached (dropped). */
  CHECK_OK(tess_aim_static(o, tess_v2(1, 0), g, 0.0f, s, &n, &err), &err);
  CHECK(n == 0);
  CHECK_OK(tess_aim_static(o, tess_v2(0, 5), g, 0.0f, s, &n, &err), &err);
  CHECK(n == 1);
  CHECK_NEAR(s[0].time, 1.0, 1e-6);
  /* No gravity and no speed; no gravity, a target running away faster than the shot. */
  CHECK_OK(tess_aim_static(o, tess_v2(1, 0), tess_v2(0, 0), 0.0f, s, &n, &err), &err);
  CHECK(n == 0);
  CHECK_OK(tess_aim_moving(o, tess_v2(10, 0), tess_v2(12, 0), tess_v2(0, 0), 10.0f, s, &n, &err), &err);
  CHECK(n == 0);
  /* With gravity, a target flying away level at 30 m/s from a 20 m/s gun. */
  CHECK_OK(tess_aim_moving(o, tess_v2(10, 0), tess_v2(30, 0), g, 20.0f, s, &n, &err), &err);
  CHECK(n == 0);
}

static void moving_target_intercepts(void) {
  TessAimSolution s[TESS_AIM_MAX_SOLUTIONS], st[2];
  uint32_t n, ns;
  TessError err;
  /* No gravity, the textbook intercept: target at (100, 0) crossing at
   * (0, 30) m/s, shot at 50 m/s: |(100, 30 t)| = 50 t gives t = 2.5 s. */
  TessVec2 o = tess_v2(0, 0), zero = tess_v2(0, 0);
  CHECK_OK(tess_aim_moving(o, tess_v2(100, 0), tess_v2(0, 30), zero, 50.0f, s, &n, &err), &err);
  CHECK(n == 1);
  CHECK_NEAR(s[0].time, 2.5, 1e-6);
  CHECK_NEAR(s[0].velocity.x, 40.0, 1e-5);
  CHECK_NEAR(s[0].velocity.y, 30.0, 1e-5);
  /* A target that stands still: the same two arcs as the static solver. */
  TessVec2 g = tess_v2(0, 9.81f);
  CHECK_OK(tess_aim_moving(tess_v2(3, 4), tess_v2(40, -12), zero, g, 30.0f, s, &n, &err), &err);
  CHECK_OK(tess_aim_static(tess_v2(3, 4), tess_v2(40, -12), g, 30.0f, st, &ns, &err), &err);
  CHECK(n == 2 && ns == 2);
  for (uint32_t i = 0; i < 2; i++) {
    CHECK_REL(s[i].time, st[i].time, 1e-6);
    CHECK_NEAR(s[i].velocity.x, st[i].velocity.x, 1e-4);
    CHECK_NEAR(s[i].velocity.y, st[i].velocity.y, 1e-4);
  }
  /* Random moving targets with gravity: every intercept returned hits, in time order. */
  TessTestRng rng = {0xa1b};
  int hits = 0;
  for (int i = 0; i < 2000; i++) {
    TessVec2 from = tess_v2((float)(tess_rng_unit(&rng) * 20 - 10), (float)(tess_rng_unit(&rng) * 20 - 10));
    TessVec2 target = tess_v2((float)(tess_rng_unit(&rng) * 100 - 50), (float)(tess_rng_unit(&rng) * 100 - 50));
    TessVec2 w = tess_v2((float)(tess_rng_unit(&rng) * 40 - 20), (float)(tess_rng_unit(&rng) * 40 - 20));
    TessVec2 gv = tess_v2((float)(tess_rng_unit(&rng) * 4 - 2), (float)(5 + tess_rng_unit(&rng) * 10));
    float speed = (float)(5 + tess_rng_unit(&rng) * 60);
    CHECK_OK(tess_aim_moving(from, target, w, gv, speed, s, &n, &err), &err);
    for (uint32_t k = 0; k < n; k++) {
      check_hits(from, target, w, gv, speed, &s[k]);
      if (k) CHECK(s[k - 1].time < s[k].time);
    }
    hits += n > 0;
    /* The earliest intercept is the earliest: no speed-s launch meets the target sooner.
     * On a fine grid of earlier times, |d/t + w - g t/2| differs from s. */
    if (n > 0) {
      double dx = (double)target.x - from.x, dy = (double)target.y - from.y;
      double f0 = 0;
      for (int j = 1; j <= 200; j++) {
        double t = s[0].time * j / 201.0;
        double vx = dx / t + w.x - gv.x * t / 2, vy = dy / t + w.y - gv.y * t / 2;
        double f = hypot(vx, vy) - speed;
        if (j > 1) CHECK_MSG((f > 0) == (f0 > 0), "a sign change before the earliest intercept, case %d", i);
        f0 = f;
      }
    }
  }
  CHECK_MSG(hits > 1000, "%d of 2000 cases had an intercept", hits);
}

static void non_finite_inputs_are_refused(void) {
  TessAimSolution s[TESS_AIM_MAX_SOLUTIONS], keep;
  memset(&keep, 0x5a, sizeof keep);
  s[0] = keep;
  uint32_t n = 77;
  bool found = true;
  TessError err;
  TessVec2 ok = tess_v2(1, 1), g = tess_v2(0, 10);
  TessVec2 bad[] = {tess_v2(NAN, 0), tess_v2(0, INFINITY), tess_v2(-INFINITY, NAN)};
  for (int i = 0; i < 3; i++) {
    CHECK(tess_aim_static(bad[i], ok, g, 10, s, &n, &err) == TESS_ERR_INVALID);
    CHECK(strstr(err.detail, "launch point"));
    CHECK(tess_aim_static(tess_v2(0, 0), bad[i], g, 10, s, &n, &err) == TESS_ERR_INVALID);
    CHECK(strstr(err.detail, "target"));
    CHECK(tess_aim_static(tess_v2(0, 0), ok, bad[i], 10, s, &n, &err) == TESS_ERR_INVALID);
    CHECK(strstr(err.detail, "gravity"));
    CHECK(tess_aim_min_speed(tess_v2(0, 0), ok, bad[i], s, &found, &err) == TESS_ERR_INVALID);
    CHECK(tess_aim_min_speed(bad[i], ok, g, s, &found, &err) == TESS_ERR_INVALID);
    CHECK(tess_aim_moving(tess_v2(0, 0), ok, bad[i], g, 10, s, &n, &err) == TESS_ERR_INVALID);
    CHECK(strstr(err.detail, "target velocity"));
    CHECK(tess_aim_moving(tess_v2(0, 0), bad[i], ok, g, 10, s, &n, &err) == TESS_ERR_INVALID);
  }
  float bad_speed[] = {NAN, INFINITY, -1.0f};
  for (int i = 0; i < 3; i++) {
    CHECK(tess_aim_static(tess_v2(0, 0), ok, g, bad_speed[i], s, &n, &err) == TESS_ERR_INVALID);
    CHECK(strstr(err.detail, "launch speed"));
    CHECK(tess_aim_moving(tess_v2(0, 0), ok, ok, g, bad_speed[i], s, &n, &err) == TESS_ERR_INVALID);
  }
  CHECK(strstr(err.file, "aim"));
  /* Outputs are written only on success. */
  CHECK(n == 77 && found && memcmp(&s[0], &keep, sizeof keep) == 0);
}

/* Flies a launch in a real world (frictionless, undamped, nothing to hit):
 * semi-implicit Euler at 60 Hz x 4 sub-steps. */
static void fly_in_world(TessVec2 from, TessVec2 target, TessVec2 w, TessVec2 g, const TessAimSolution *s) {
  TessWorldDef wd;
  tess_world_def_default(&wd);
  wd.gravity = g;
  wd.substeps = 4;
  wd.enable_sleep = false;
  TessWorld *world;
  TessError err;
  CHECK_OK(tess_world_create(&wd, &world, &err), &err);
  TessBodyDef bd;
  tess_body_def_default(&bd);
  bd.position = from;
  bd.linear_velocity = s->velocity;
  bd.linear_damping = 0.0f;
  TessBodyId body;
  CHECK_OK(tess_body_create(world, &bd, &body, &err), &err);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  sd.friction = 0.0f;
  TessShapeId shape;
  CHECK_OK(tess_shape_create_circle(world, body, &sd, tess_v2(0, 0), 0.1f, &shape, &err), &err);
  const double dt = 1.0 / 60.0, h = dt / 4;
  double best = INFINITY, px = from.x, py = from.y;
  int steps = (int)ceil(s->time / dt) + 1;
  for (int k = 1; k <= steps; k++) {
    CHECK_OK(tess_world_step(world, (float)dt, &err), &err);
    double t = k * dt, x, y;
    ballistic(from, s->velocity, g, t, &x, &y);
    TessVec2 p = tess_body_position(world, body);
    /* Semi-implicit Euler's known offset: g h t / 2. */
    CHECK_MSG(hypot(p.x - (x + g.x * h * t / 2), p.y - (y + g.y * h * t / 2)) < 2e-3, "step %d: (%g, %g) vs (%g, %g)", k,
              (double)p.x, (double)p.y, x + g.x * h * t / 2, y + g.y * h * t / 2);
    /* Closest approach of this step's segment to where the target is then
     * (the target moves little within a step: its motion is included at the step's end). */
    double tx = target.x + (double)w.x * t, ty = target.y + (double)w.y * t;
    double ax = px - tx, ay = py - ty, bx = p.x - tx, by = p.y - ty;
    double ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
    double u = len2 > 0 ? -(ax * ex + ay * ey) / len2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1
                          : u;
    double dist = hypot(ax + u * ex, ay + u * ey);
    if (dist < best) best = dist;
    px = p.x;
    py = p.y;
  }
  double allowed = hypot(g.x, g.y) * h * s->time / 2 + hypot(w.x, w.y) * dt + 3e-3;
  CHECK_MSG(best < allowed, "the world's path passes %g m from the target (allowed %g)", best, allowed);
  tess_world_destroy(world);
}

static void world_flies_through_the_target(void) {
  TessAimSolution s[TESS_AIM_MAX_SOLUTIONS];
  uint32_t n;
  TessError err;
  TessVec2 g = tess_v2(0, 10), from = tess_v2(2, 3), target = tess_v2(27, -6);
  CHECK_OK(tess_aim_static(from, target, g, 25.0f, s, &n, &err), &err);
  CHECK(n == 2);
  for (uint32_t i = 0; i < n; i++) fly_in_world(from, target, tess_v2(0, 0), g, &s[i]);
  TessAimSolution m;
  bool found;
  CHECK_OK(tess_aim_min_speed(from, target, g, &m, &found, &err), &err);
  fly_in_world(from, target, tess_v2(0, 0), g, &m);
  TessVec2 w = tess_v2(-4, 1);
  CHECK_OK(tess_aim_moving(from, target, w, g, 25.0f, s, &n, &err), &err);
  CHECK(n >= 1);
  for (uint32_t i = 0; i < n; i++) fly_in_world(from, target, w, g, &s[i]);
}

TESS_TEST_MAIN(TEST(static_textbook_angles), TEST(static_arcs_hit_any_target), TEST(min_speed_is_the_least),
               TEST(no_solution_gives_none), TEST(moving_target_intercepts), TEST(non_finite_inputs_are_refused),
               TEST(world_flies_through_the_target))
