/* Pixel-mask collision against analytic surfaces: a ball resting on a pixel
 * floor (no jitter, no sinking), bouncing to e^2 of its drop height, rolling
 * over a pixel circle and rolling or sliding down a pixel slope at the
 * analytic speed with the normal within a few degrees of the analytic one;
 * carving a hole under a resting ball drops it; a fast ball never crosses a
 * one-pixel wall; the bits round-trip; bad input is refused. A mask laid on a
 * static body follows the body's transform (moved, turned, restored), and
 * stays deterministic across worker counts. */
#include "check.h"
#include "tessera/physics.h"

#define PI 3.14159265358979
#define G 9.81f
#define HZ 60.0f
#ifndef PXN
#define PXN 32
#endif
#define PX (1.0f / PXN)                       /* m per pixel */
#define M(metres) ((uint32_t)((metres) / PX)) /* pixels */

typedef bool (*SolidFn)(float x, float y, const float *p); /* pixel centre, world */

/* A mask of w x h pixels at `origin` turned by `angle` whose pixels are solid where fn says so at
 * their centres (in the mask's own frame). */
static uint32_t add_mask_on(TessWorld *world, TessBodyId body, uint32_t w, uint32_t h, SolidFn fn, const float *p,
                            TessSurface surface, TessVec2 origin, float angle) {
  size_t stride = (w + 7) / 8;
  uint8_t *bits = calloc(stride * h, 1);
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++)
      if (fn(((float)x + 0.5f) * PX, ((float)y + 0.5f) * PX, p)) bits[y * stride + x / 8] |= (uint8_t)(1u << (x & 7));
  TessPixelMaskDef d;
  tess_pixel_mask_def_default(&d);
  d.width = w;
  d.height = h;
  d.pixel_size = PX;
  d.bits = bits;
  d.surface = surface;
  d.origin = origin;
  d.angle = angle;
  d.body = body;
  uint32_t index = 99;
  TessError err;
  CHECK_OK(tess_world_add_pixel_mask(world, &d, &index, &err), &err);
  free(bits);
  return index;
}

/* The same laid on the world at `origin`, turned by `angle`. */
static uint32_t add_mask_at(TessWorld *world, uint32_t w, uint32_t h, SolidFn fn, const float *p, TessSurface surface,
                            TessVec2 origin, float angle) {
  return add_mask_on(world, (TessBodyId){0, 0}, w, h, fn, p, surface, origin, angle);
}

static uint32_t add_mask(TessWorld *world, uint32_t w, uint32_t h, SolidFn fn, const float *p, TessSurface surface) {
  return add_mask_at(world, w, h, fn, p, surface, tess_v2(0, 0), 0.0f);
}

static TessSurface surface(float friction, float restitution, float tangential) {
  TessSurface s = {friction, restitution, tangential};
  return s;
}

static TessWorld *new_world_workers(TessVec2 gravity, uint32_t workers) {
  TessWorldDef def;
  tess_world_def_default(&def);
  def.gravity = gravity;
  def.worker_count = workers;
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create(&def, &w, &err), &err);
  return w;
}

static TessWorld *new_world(TessVec2 gravity) { return new_world_workers(gravity, 1); }

static TessBodyId add_body_of(TessWorld *w, TessBodyType type, TessVec2 at, float angle) {
  TessBodyDef bd;
  tess_body_def_default(&bd);
  bd.type = type;
  bd.position = at;
  bd.angle = angle;
  TessBodyId id = {0, 0};
  TessError err;
  CHECK_OK(tess_body_create(w, &bd, &id, &err), &err);
  return id;
}

static TessBodyId add_static(TessWorld *w, TessVec2 at, float angle) {
  return add_body_of(w, TESS_BODY_STATIC, at, angle);
}

static TessBodyId add_ball(TessWorld *w, TessVec2 p, float r, TessSurface s, bool can_sleep) {
  TessBodyDef bd;
  tess_body_def_default(&bd);
  bd.position = p;
  bd.enable_sleep = can_sleep;
  TessBodyId id = {0, 0};
  TessError err;
  CHECK_OK(tess_body_create(w, &bd, &id, &err), &err);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  sd.friction = s.friction;
  sd.restitution = s.restitution;
  sd.tangential = s.tangential;
  CHECK_OK(tess_shape_create_circle(w, id, &sd, tess_v2(0, 0), r, NULL, &err), &err);
  return id;
}

static void step(TessWorld *w, int n) {
  TessError err;
  for (int i = 0; i < n; i++) CHECK_OK(tess_world_step(w, 1.0f / HZ, &err), &err);
}

static double angle_between(TessVec2 a, TessVec2 b) {
  double c = (double)a.x * b.x + (double)a.y * b.y, s = (double)a.x * b.y - (double)a.y * b.x;
  return fabs(atan2(s, c)) * 180.0 / PI;
}

/* ---- Surfaces ---------------------------------------------------------------- */

static bool below(float x, float y, const float *p) { /* p[0]: the floor's top */
  (void)x;
  return y > p[0];
}
static bool in_disk(float x, float y, const float *p) { /* p: centre x, y, radius */
  return (x - p[0]) * (x - p[0]) + (y - p[1]) * (y - p[1]) < p[2] * p[2];
}
static bool under_slope(float x, float y, const float *p) { /* p: y at x = 0, tan of the angle */
  return y > p[0] + x * p[1];
}
static bool wall(float x, float y, const float *p) { /* one pixel column at p[0] */
  (void)y;
  return x > p[0] && x < p[0] + PX;
}

/* ---- Tests ------------------------------------------------------------------- */

/* A ball dropped on a pixel floor comes to rest with its centre one radius above the pixels'
 * top edge, and stays there to the bit over 10 s awake: no jitter, no sinking. */
static void ball_rests_on_a_pixel_floor(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  float top = 2.0f;
  add_mask(w, M(8), M(4), below, &top, surface(0.6f, 0.0f, 1.0f));
  TessBodyId b = add_ball(w, tess_v2(4.0f, 1.0f), 0.25f, surface(0.6f, 0.0f, 1.0f), false);
  step(w, 120);
  float y0 = tess_body_position(w, b).y;
  CHECK_NEAR(y0, top - 0.25f, 0.001);
  float lo = y0, hi = y0;
  for (int i = 0; i < 600; i++) {
    step(w, 1);
    float y = tess_body_position(w, b).y;
    lo = fminf(lo, y);
    hi = fmaxf(hi, y);
  }
  CHECK_MSG(hi - lo < 1e-5f, "the resting ball moved %.3g m over 10 s", (double)(hi - lo));
  CHECK_NEAR(tess_body_position(w, b).x, 4.0f, 1e-5);
  CHECK_NEAR(tess_v2_length(tess_body_linear_velocity(w, b)), 0.0, 0.01);
  TessPixelMaskHit h = tess_world_pixel_mask_probe(w, tess_body_position(w, b), 0.25f);
  CHECK(h.hit && !h.buried);
  CHECK(angle_between(h.normal, tess_v2(0, -1)) < 1.0);
  tess_world_destroy(w);
}

/* Dropped from h onto a floor of restitution e, a ball rises to e^2 h (within 3%). */
static void bounce_on_pixels_reaches_e_squared_height(void) {
  const float drops[] = {1.0f, 2.0f, 4.0f}, es[] = {0.5f, 0.8f};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) {
      TessWorld *w = new_world(tess_v2(0, G));
      float top = 6.0f, r = 0.25f, rest = top - r;
      add_mask(w, M(8), M(8), below, &top, surface(0.6f, es[j], 1.0f));
      TessBodyId b = add_ball(w, tess_v2(4.0f, rest - drops[i]), r, surface(0.6f, 1.0f, 1.0f), false);
      bool rising = false;
      float apex = rest;
      for (int s = 0; s < 600; s++) {
        step(w, 1);
        float vy = tess_body_linear_velocity(w, b).y, y = tess_body_position(w, b).y;
        if (vy < 0.0f) rising = true;
        if (rising) apex = fminf(apex, y);
        if (rising && vy > 0.0f) break;
      }
      double ratio = (rest - apex) / drops[i];
      CHECK_MSG(fabs(ratio - (double)(es[j] * es[j])) <= 0.03 * es[j] * es[j],
                "drop %.1f m, e %.2f: rebound ratio %.4f, want %.4f", (double)drops[i], (double)es[j], ratio,
                (double)(es[j] * es[j]));
      tess_world_destroy(w);
    }
}

/* Over a pixel disk the normal is radial within 4 degrees all round; a ball rolling off its top
 * has, at 30 degrees, the speed energy gives a rolling disk: v^2 = 4/3 g (R + r)(cos start - cos). */
static void ball_rolls_over_a_pixel_circle(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  const float disk[] = {4.0f, 4.0f, 2.0f};
  float r = 0.25f, reach = disk[2] + r;
  add_mask(w, M(8), M(8), in_disk, disk, surface(1.0f, 0.0f, 1.0f));
  double worst = 0.0;
  for (int a = 0; a < 360; a += 7) {
    TessVec2 dir = tess_v2((float)cos(a * PI / 180.0), (float)sin(a * PI / 180.0));
    TessPixelMaskHit h = tess_world_pixel_mask_probe(w, tess_v2_mul_add(tess_v2(disk[0], disk[1]), reach - 0.01f, dir), r);
    CHECK(h.hit && !h.buried);
    worst = fmax(worst, angle_between(h.normal, dir));
    CHECK_NEAR(h.depth, 0.01, 0.025);
  }
  CHECK_MSG(worst < 4.0, "normal off by %.2f degrees", worst);

  /* from rest 5 degrees past the top (the very top of a pixel disk is a flat run of pixels) */
  double start = 5.0 * PI / 180.0;
  TessVec2 at = tess_v2(disk[0] + reach * (float)sin(start), disk[1] - reach * (float)cos(start));
  TessBodyId b = add_ball(w, at, r, surface(1.0f, 0.0f, 1.0f), false);
  double roll_worst = 0.0;
  for (int s = 0; s < 600; s++) {
    step(w, 1);
    TessVec2 p = tess_body_position(w, b);
    TessVec2 rel = tess_v2_sub(p, tess_v2(disk[0], disk[1]));
    double theta = atan2(rel.x, -rel.y);
    TessPixelMaskHit h = tess_world_pixel_mask_probe(w, p, r);
    if (h.hit && theta > 0.05) roll_worst = fmax(roll_worst, angle_between(h.normal, tess_v2_normalize(rel)));
    if (theta >= 30.0 * PI / 180.0) {
      double want = sqrt(4.0 / 3.0 * G * reach * (cos(start) - cos(theta)));
      CHECK_REL(tess_v2_length(tess_body_linear_velocity(w, b)), want, 0.03);
      CHECK_NEAR(tess_v2_length(rel), reach, PX);
      break;
    }
    CHECK_MSG(s < 599, "the ball never reached 30 degrees");
  }
  CHECK_MSG(roll_worst < 4.0, "rolling normal off by %.2f degrees", roll_worst);
  tess_world_destroy(w);
}

/* Down a 20-degree pixel slope for 1 s: with friction above tan/3 a ball rolls, v = 2/3 g sin t;
 * with friction 0.05 it slides, v = g (sin - mu cos) t; the normal stays within 4 degrees of
 * the slope's and the ball on its surface. */
static void ball_rolls_and_slides_down_a_pixel_slope(void) {
  double th = 20.0 * PI / 180.0;
  const float slope[] = {1.0f, (float)tan(th)};
  TessVec2 normal = tess_v2((float)sin(th), (float)-cos(th));
  const float mus[] = {0.6f, 0.05f};
  for (int k = 0; k < 2; k++) {
    TessWorld *w = new_world(tess_v2(0, G));
    float r = 0.25f;
    add_mask(w, M(16), M(8), under_slope, slope, surface(mus[k], 0.0f, 1.0f));
    TessVec2 foot = tess_v2(2.0f, slope[0] + 2.0f * slope[1]);
    TessBodyId b = add_ball(w, tess_v2_mul_add(foot, r + 0.002f, normal), r, surface(mus[k], 0.0f, 1.0f), false);
    double worst = 0.0;
    for (int s = 0; s < 60; s++) {
      step(w, 1);
      TessVec2 p = tess_body_position(w, b);
      TessPixelMaskHit h = tess_world_pixel_mask_probe(w, p, r);
      CHECK(h.hit);
      worst = fmax(worst, angle_between(h.normal, normal));
      double off = ((double)p.y - slope[0] - p.x * (double)slope[1]) * cos(th); /* signed distance to the line */
      CHECK_NEAR(-off, r, 0.75 * PX);
    }
    double a = k == 0 ? 2.0 / 3.0 * G * sin(th) : G * (sin(th) - mus[k] * cos(th));
    double v = tess_v2_length(tess_body_linear_velocity(w, b));
    CHECK_MSG(fabs(v - a) <= 0.03 * a, "friction %.2f: %.4f m/s after 1 s, want %.4f", (double)mus[k], v, a);
    CHECK_MSG(worst < 4.0, "friction %.2f: normal off by %.2f degrees", (double)mus[k], worst);
    if (k == 0) /* rolling: the contact point does not slip, v = w r */
      CHECK_REL(tess_body_angular_velocity(w, b) * r, v, 0.03);
    tess_world_destroy(w);
  }
}

/* A ball asleep on a pixel floor falls into a hole carved under it, and rests at the hole's
 * bottom, one radius above it. */
static void carving_a_hole_drops_a_resting_ball(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  float top = 2.0f, r = 0.25f;
  uint32_t m = add_mask(w, M(8), M(4), below, &top, surface(0.6f, 0.0f, 1.0f));
  TessBodyId b = add_ball(w, tess_v2(4.0f, 1.5f), r, surface(0.6f, 0.0f, 1.0f), true);
  step(w, 180);
  CHECK(!tess_body_is_awake(w, b));
  CHECK_NEAR(tess_body_position(w, b).y, top - r, 0.001);
  CHECK(tess_pixel_mask_get(w, m, M(4), M(2.2f)));
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(4.0f, top), 0.5f, false) == TESS_OK);
  CHECK(!tess_pixel_mask_get(w, m, M(4), M(2.2f)));
  CHECK(tess_body_is_awake(w, b));
  step(w, 120);
  CHECK_NEAR(tess_body_position(w, b).y, top + 0.5f - r, PX);
  /* filling it back in under the ball lifts nothing by magic: the ball is then buried, so
   * carving a box beside instead leaves it resting */
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){{6.0f, 1.0f}, {7.0f, 3.0f}}, false) == TESS_OK);
  step(w, 60);
  CHECK_NEAR(tess_body_position(w, b).y, top + 0.5f - r, PX);
  tess_world_destroy(w);
}

/* At 150 m/s a ball of radius 0.1 crosses 2.5 m per step; a wall one pixel thick stops it. */
static void fast_ball_never_crosses_a_one_pixel_wall(void) {
  TessWorld *w = new_world(tess_v2(0, 0));
  const float x[] = {6.0f};
  add_mask(w, M(8), M(4), wall, x, surface(0.0f, 0.0f, 1.0f));
  TessBodyId balls[8];
  for (int i = 0; i < 8; i++) {
    TessBodyId b = balls[i] = add_ball(w, tess_v2(1.0f + 0.13f * (float)i, 0.5f + 0.4f * (float)i), 0.1f, surface(0, 0, 1), false);
    tess_body_set_linear_velocity(w, b, tess_v2(150.0f, 0.0f));
  }
  step(w, 60);
  for (int i = 0; i < 8; i++) {
    TessBodyId b = balls[i];
    CHECK_MSG(tess_body_position(w, b).x < x[0], "ball %d crossed the wall: x = %.3f", i,
              (double)tess_body_position(w, b).x);
  }
  tess_world_destroy(w);
}

/* Bits round-trip, edits clip at the edges, a 4096 x 4096 mask takes 2 MiB, bad input is refused. */
static void mask_bits_edits_and_bad_input(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  uint8_t bits[13 * 5];
  for (size_t i = 0; i < sizeof bits; i++) bits[i] = (uint8_t)(i * 37 + 11);
  for (int y = 0; y < 5; y++) bits[y * 13 + 12] &= 0x0f; /* width 100: bits past it are 0 */
  TessPixelMaskDef d;
  tess_pixel_mask_def_default(&d);
  d.width = 100;
  d.height = 5;
  d.bits = bits;
  uint32_t m = 0;
  TessError err;
  CHECK_OK(tess_world_add_pixel_mask(w, &d, &m, &err), &err);
  uint8_t out[13 * 5];
  CHECK(tess_pixel_mask_copy_bits(w, m, NULL, 0) == sizeof out);
  CHECK(tess_pixel_mask_copy_bits(w, m, out, sizeof out) == sizeof out);
  CHECK(memcmp(out, bits, sizeof out) == 0);
  CHECK(tess_pixel_mask_get(w, m, 0, 0) == (bits[0] & 1));
  /* a box over the whole mask and beyond fills it exactly, clipped */
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){{-5, -5}, {50, 50}}, true) == TESS_OK);
  tess_pixel_mask_copy_bits(w, m, out, sizeof out);
  for (int y = 0; y < 5; y++)
    for (int i = 0; i < 13; i++) CHECK(out[y * 13 + i] == (i == 12 ? 0x0f : 0xff));
  CHECK(!tess_pixel_mask_get(w, m, 100, 0));
  /* one pixel: the box holds only pixel (3, 2)'s centre */
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){{-5, -5}, {50, 50}}, false) == TESS_OK);
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){{3.2f * d.pixel_size, 2.2f * d.pixel_size}, {3.8f * d.pixel_size, 2.8f * d.pixel_size}}, true) == TESS_OK);
  uint32_t count = 0;
  for (uint32_t y = 0; y < 5; y++)
    for (uint32_t x = 0; x < 100; x++) count += tess_pixel_mask_get(w, m, x, y);
  CHECK(count == 1 && tess_pixel_mask_get(w, m, 3, 2));
  CHECK(tess_pixel_mask_set_rect(w, 7, (TessAABB){{0, 0}, {1, 1}}, true) == TESS_ERR_NOT_FOUND);
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(NAN, 0), 1, true) == TESS_ERR_INVALID);
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(0, 0), -1, true) == TESS_ERR_INVALID);

  d.width = d.height = 4096;
  d.bits = NULL;
  CHECK_OK(tess_world_add_pixel_mask(w, &d, &m, &err), &err);
  CHECK(m == 1 && tess_world_pixel_mask_count(w) == 2);
  CHECK(tess_pixel_mask_memory_bytes(w, m) == 4096u * 4096u / 8u);
  d.width = 0;
  CHECK(tess_world_add_pixel_mask(w, &d, &m, &err) == TESS_ERR_LIMIT);
  d.width = TESS_PIXEL_MASK_MAX_SIDE + 1;
  CHECK(tess_world_add_pixel_mask(w, &d, &m, &err) == TESS_ERR_LIMIT);
  d.width = 4;
  d.pixel_size = 0.0f;
  CHECK(tess_world_add_pixel_mask(w, &d, &m, &err) == TESS_ERR_INVALID);
  d.pixel_size = 0.1f;
  d.surface.restitution = 2.0f;
  CHECK(tess_world_add_pixel_mask(w, &d, &m, &err) == TESS_ERR_INVALID);
  CHECK(tess_world_pixel_mask_count(w) == 2);
  tess_world_destroy(w);
}

/* A flat pixel floor on a mask turned by 20 degrees is a 20-degree slope: a frictionless ball
 * slides down it at g sin t, a ball with friction rolls at 2/3 g sin t (each within 3% after 1 s),
 * the normal within 4 degrees of the slope's and the ball on its surface. */
static void run_down_a_turned_floor(bool by_body) {
  double th = 20.0 * PI / 180.0;
  TessVec2 origin = tess_v2(0.5f, 0.5f), axis = tess_v2((float)cos(th), (float)sin(th));
  TessVec2 normal = tess_v2((float)sin(th), (float)-cos(th));
  float top = 1.0f;
  const float mus[] = {0.0f, 0.6f};
  for (int k = 0; k < 2; k++) {
    TessWorld *w = new_world(tess_v2(0, G));
    float r = 0.25f;
    if (by_body) { /* laid flat elsewhere on a static body, then the body moved and turned */
      TessBodyId body = add_static(w, tess_v2(7.0f, -3.0f), -0.4f);
      uint32_t m = add_mask_on(w, body, M(16), M(2), below, &top, surface(mus[k], 0.0f, 1.0f), tess_v2(0, 0), 0.0f);
      CHECK(tess_body_set_transform(w, body, origin, (float)th) == TESS_OK);
      TessPixelMaskInfo info;
      CHECK(tess_pixel_mask_info(w, m, &info) && tess_body_id_equal(info.body, body));
      CHECK_NEAR(info.angle, th, 1e-6);
      CHECK(info.origin.x == origin.x && info.origin.y == origin.y);
    } else {
      add_mask_at(w, M(16), M(2), below, &top, surface(mus[k], 0.0f, 1.0f), origin, (float)th);
    }
    TessVec2 foot = tess_v2_add(origin, tess_v2_add(tess_v2_scale(2.0f, axis), tess_v2_scale(top, tess_v2_perp(axis))));
    TessBodyId b = add_ball(w, tess_v2_mul_add(foot, r + 0.002f, normal), r, surface(mus[k], 0.0f, 1.0f), false);
    double worst = 0.0;
    for (int s = 0; s < 60; s++) {
      step(w, 1);
      TessVec2 p = tess_body_position(w, b);
      TessPixelMaskHit h = tess_world_pixel_mask_probe(w, p, r);
      CHECK(h.hit && !h.buried);
      worst = fmax(worst, angle_between(h.normal, normal));
      double off = tess_v2_dot(tess_v2_sub(p, foot), normal); /* height above the floor's line */
      CHECK_NEAR(off, r, 0.75 * PX);
    }
    double a = k == 0 ? G * sin(th) : 2.0 / 3.0 * G * sin(th);
    double v = tess_v2_length(tess_body_linear_velocity(w, b));
    CHECK_MSG(fabs(v - a) <= 0.03 * a, "friction %.2f: %.4f m/s after 1 s, want %.4f", (double)mus[k], v, a);
    CHECK_MSG(worst < 4.0, "friction %.2f: normal off by %.2f degrees", (double)mus[k], worst);
    CHECK(tess_v2_dot(tess_body_linear_velocity(w, b), axis) > 0.0f); /* downhill, along the mask's x axis */
    tess_world_destroy(w);
  }
}

static void ball_runs_down_a_turned_pixel_floor(void) { run_down_a_turned_floor(false); }

/* A static body's mask turned through tess_body_set_transform is the same slope: g sin t sliding,
 * 2/3 g sin t rolling. */
static void ball_runs_down_a_mask_turned_with_its_body(void) { run_down_a_turned_floor(true); }

static bool out_of_disk(float x, float y, const float *p) { return !in_disk(x, y, p); }

/* A pixel disk on a mask turned by 33 degrees (and moved) gives radial normals all round, within 4
 * degrees. A ball dropped into a round pixel hollow so turned comes to rest at its bottom, its
 * centre R - r below the hollow's, the normal pointing at the hollow's centre. Carving a circle
 * clears the pixels whose centres are in it, wherever the mask is turned. */
static void ball_rests_in_a_turned_pixel_circle(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  const float disk[] = {2.5f, 2.5f, 2.0f}; /* in the mask's frame */
  float angle = 33.0f * (float)PI / 180.0f, r = 0.25f, reach = disk[2] + r;
  TessVec2 origin = tess_v2(3.0f, 1.0f);
  uint32_t m = add_mask_at(w, M(5), M(5), in_disk, disk, surface(0.8f, 0.0f, 1.0f), origin, angle);
  TessVec2 centre = tess_v2_add(origin, tess_rot_apply(tess_rot(angle), tess_v2(disk[0], disk[1])));
  double worst = 0.0;
  for (int a = 0; a < 360; a += 7) {
    TessVec2 dir = tess_v2((float)cos(a * PI / 180.0), (float)sin(a * PI / 180.0));
    TessPixelMaskHit h = tess_world_pixel_mask_probe(w, tess_v2_mul_add(centre, reach - 0.01f, dir), r);
    CHECK(h.hit && !h.buried);
    worst = fmax(worst, angle_between(h.normal, dir));
  }
  CHECK_MSG(worst < 4.0, "normal off by %.2f degrees", worst);
  /* carve the disk's middle: the mask pixel at the disk's centre goes, one past the carved radius stays */
  CHECK(tess_pixel_mask_get(w, m, M(2.5f), M(2.5f)));
  CHECK(tess_pixel_mask_set_circle(w, m, centre, 0.5f, false) == TESS_OK);
  CHECK(!tess_pixel_mask_get(w, m, M(2.5f), M(2.5f)) && !tess_pixel_mask_get(w, m, M(2.9f), M(2.5f)));
  CHECK(tess_pixel_mask_get(w, m, M(3.1f), M(2.5f)) && tess_pixel_mask_get(w, m, M(2.5f), M(1.9f)));
  /* a world box round the disk's centre clears the pixels whose world centres are in it */
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){tess_v2_sub(centre, tess_v2(1.0f, 0.1f)), tess_v2_add(centre, tess_v2(1.0f, 0.1f))}, false) == TESS_OK);
  TessVec2 p = tess_v2_add(centre, tess_v2(0.9f, 0.0f)), l = tess_rot_apply_inv(tess_rot(angle), tess_v2_sub(p, origin));
  CHECK(!tess_pixel_mask_get(w, m, M(l.x), M(l.y)));
  p = tess_v2_add(centre, tess_v2(0.0f, 0.9f)), l = tess_rot_apply_inv(tess_rot(angle), tess_v2_sub(p, origin));
  CHECK(tess_pixel_mask_get(w, m, M(l.x), M(l.y)));
  tess_world_destroy(w);

  w = new_world(tess_v2(0, G));
  const float hollow[] = {2.5f, 2.5f, 1.5f};
  add_mask_at(w, M(5), M(5), out_of_disk, hollow, surface(0.8f, 0.0f, 1.0f), origin, angle);
  centre = tess_v2_add(origin, tess_rot_apply(tess_rot(angle), tess_v2(hollow[0], hollow[1])));
  TessBodyId b = add_ball(w, tess_v2(centre.x, centre.y + hollow[2] - r - 0.1f), r, surface(0.8f, 0.0f, 1.0f), false);
  step(w, 180);
  /* then 3 s at the bottom: it rocks by a pixel or two (3 degrees: no rolling loss damps it) */
  TessVec2 rel = tess_v2(0, 0);
  for (int i = 0; i < 180; i++) {
    step(w, 1);
    rel = tess_v2_sub(tess_body_position(w, b), centre);
    CHECK_NEAR(tess_v2_length(rel), hollow[2] - r, PX);
    CHECK_MSG(angle_between(rel, tess_v2(0, 1)) < 3.0, "the ball rests %.2f degrees from the bottom",
              angle_between(rel, tess_v2(0, 1)));
    CHECK_NEAR(tess_v2_length(tess_body_linear_velocity(w, b)), 0.0, 0.1);
  }
  TessPixelMaskHit h = tess_world_pixel_mask_probe(w, tess_body_position(w, b), r);
  CHECK(h.hit && !h.buried);
  CHECK_MSG(angle_between(h.normal, tess_v2_scale(-1.0f, rel)) < 4.0, "resting normal %.2f degrees from radial",
            angle_between(h.normal, tess_v2_scale(-1.0f, rel)));
  tess_world_destroy(w);
}

static uint8_t *copy_bits(const TessWorld *w, uint32_t m) {
  size_t n = tess_pixel_mask_copy_bits(w, m, NULL, 0);
  uint8_t *b = malloc(n);
  CHECK(tess_pixel_mask_copy_bits(w, m, b, n) == n);
  return b;
}

static void *snapshot(const TessWorld *w, size_t *size) {
  *size = tess_world_snapshot_size(w);
  void *buf = malloc(*size);
  TessError err;
  CHECK_OK(tess_world_snapshot(w, buf, *size, &err), &err);
  return buf;
}

static bool everywhere(float x, float y, const float *p) {
  (void)x, (void)y, (void)p;
  return true;
}

/* A plate 4 x 0.5 m laid on a static body at `at` with its top edge's middle at the body's origin. */
static uint32_t add_plate(TessWorld *w, TessBodyId body) {
  return add_mask_on(w, body, M(4), M(0.5f), everywhere, NULL, surface(0.6f, 0.0f, 1.0f), tess_v2(-2.0f, 0.0f), 0.0f);
}

/* A static body's mask follows tess_body_set_transform at once: its place and world box are the
 * body's; a ball asleep on the old place wakes and falls through it (nothing is left there); a
 * ball dropped over the new place rests a radius above its top; carving after the move carves
 * in the body's frame (and at the old place carves nothing); turning the body turns the mask. */
static void mask_follows_its_body_when_moved(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  float r = 0.25f;
  TessBodyId body = add_static(w, tess_v2(2.0f, 3.0f), 0.0f);
  uint32_t m = add_plate(w, body);
  TessPixelMaskInfo info;
  CHECK(tess_pixel_mask_info(w, m, &info) && info.origin.x == 0.0f && info.origin.y == 3.0f);
  TessBodyId a = add_ball(w, tess_v2(2.0f, 2.0f), r, surface(0.6f, 0.0f, 1.0f), true);
  step(w, 180);
  CHECK(!tess_body_is_awake(w, a));
  CHECK_NEAR(tess_body_position(w, a).y, 3.0f - r, PX);

  TessVec2 to = tess_v2(9.0f, 5.0f);
  CHECK(tess_body_set_transform(w, body, to, 0.0f) == TESS_OK);
  CHECK(tess_pixel_mask_info(w, m, &info));
  CHECK(info.origin.x == 7.0f && info.origin.y == 5.0f && info.angle == 0.0f);
  CHECK_MSG(info.bounds.lower.x <= 7.0f && info.bounds.upper.x >= 11.0f && info.bounds.lower.y <= 5.0f &&
                info.bounds.upper.y >= 5.5f && info.bounds.lower.x > 6.8f && info.bounds.upper.x < 11.2f,
            "bounds (%.3f, %.3f)-(%.3f, %.3f)", (double)info.bounds.lower.x, (double)info.bounds.lower.y,
            (double)info.bounds.upper.x, (double)info.bounds.upper.y);
  CHECK(tess_body_is_awake(w, a)); /* what rested on the old place wakes */
  CHECK(!tess_world_pixel_mask_probe(w, tess_body_position(w, a), r).hit);
  TessPixelMaskHit h = tess_world_pixel_mask_probe(w, tess_v2(to.x, to.y - r), r);
  CHECK(h.hit && !h.buried && angle_between(h.normal, tess_v2(0, -1)) < 1.0);
  TessBodyId b = add_ball(w, tess_v2(to.x + 1.0f, to.y - 1.0f), r, surface(0.6f, 0.0f, 1.0f), true);
  step(w, 120);
  CHECK_MSG(tess_body_position(w, a).y > 3.0f + 10.0f, "the ball on the old place stayed at y %.3f",
            (double)tess_body_position(w, a).y);
  CHECK_NEAR(tess_body_position(w, b).y, to.y - r, PX);
  CHECK_NEAR(tess_body_position(w, b).x, to.x + 1.0f, PX);

  /* carving: the old place is off the mask now; the new one is the body's frame */
  uint8_t *before = copy_bits(w, m);
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(1.0f, 3.25f), 0.2f, false) == TESS_OK);
  uint8_t *after = copy_bits(w, m);
  CHECK(memcmp(before, after, tess_pixel_mask_copy_bits(w, m, NULL, 0)) == 0);
  CHECK(tess_pixel_mask_get(w, m, M(1.0f), M(0.25f)) && tess_pixel_mask_get(w, m, M(3.0f), M(0.25f)));
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(to.x + 1.0f, to.y + 0.25f), 0.1f, false) == TESS_OK);
  CHECK(!tess_pixel_mask_get(w, m, M(3.0f), M(0.25f)) && tess_pixel_mask_get(w, m, M(1.0f), M(0.25f)));
  free(before);
  free(after);

  /* turning the body turns the mask about the body's origin */
  float angle = 0.5f;
  CHECK(tess_body_set_transform(w, body, to, angle) == TESS_OK);
  CHECK(tess_pixel_mask_info(w, m, &info));
  TessVec2 want = tess_v2_add(to, tess_rot_apply(tess_rot(angle), tess_v2(-2.0f, 0.0f)));
  CHECK_NEAR(info.angle, angle, 1e-6);
  CHECK_NEAR(info.origin.x, want.x, 1e-5);
  CHECK_NEAR(info.origin.y, want.y, 1e-5);
  /* a mask is laid only on a live static body */
  TessPixelMaskDef d;
  tess_pixel_mask_def_default(&d);
  d.width = d.height = 4;
  d.body = b;
  TessError err;
  CHECK(tess_world_add_pixel_mask(w, &d, NULL, &err) == TESS_ERR_INVALID && strstr(err.detail, "static"));
  d.body = (TessBodyId){99, 1};
  CHECK(tess_world_add_pixel_mask(w, &d, NULL, &err) == TESS_ERR_INVALID);
  CHECK(tess_world_pixel_mask_count(w) == 1);
  tess_world_destroy(w);
}

/* Rewind over a move: a snapshot from before the body moved puts the mask back where it was (its
 * place, its box, its bits) with the world hash it had, and stepping on from it repeats itself; a
 * snapshot from after the move and a carve puts both back. */
static void snapshot_restores_a_moved_mask(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  TessBodyId body = add_static(w, tess_v2(2.0f, 3.0f), 0.0f);
  uint32_t m = add_plate(w, body);
  TessBodyId ball = add_ball(w, tess_v2(2.5f, 2.0f), 0.25f, surface(0.6f, 0.0f, 1.0f), true);
  step(w, 20);
  TessPixelMaskInfo i0, i1, info;
  CHECK(tess_pixel_mask_info(w, m, &i0));
  size_t size0, size1;
  void *s0 = snapshot(w, &size0);
  uint8_t *bits0 = copy_bits(w, m);
  uint64_t h0 = tess_world_hash(w);
  CHECK(tess_body_set_transform(w, body, tess_v2(6.0f, 4.0f), 0.3f) == TESS_OK);
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(6.0f, 4.1f), 0.3f, false) == TESS_OK);
  step(w, 30);
  CHECK(tess_pixel_mask_info(w, m, &i1));
  void *s1 = snapshot(w, &size1);
  uint8_t *bits1 = copy_bits(w, m);
  uint64_t h1 = tess_world_hash(w);
  step(w, 60);
  TessError err;
  CHECK_OK(tess_world_restore(w, s0, size0, &err), &err);
  CHECK(tess_world_hash(w) == h0);
  CHECK(tess_pixel_mask_info(w, m, &info));
  CHECK(memcmp(&info.origin, &i0.origin, sizeof info.origin) == 0 && info.angle == i0.angle &&
        memcmp(&info.bounds, &i0.bounds, sizeof info.bounds) == 0);
  uint8_t *back = copy_bits(w, m);
  size_t n = tess_pixel_mask_copy_bits(w, m, NULL, 0);
  CHECK(memcmp(back, bits0, n) == 0);
  free(back);
  step(w, 120); /* the ball lands on the plate where it was */
  CHECK_NEAR(tess_body_position(w, ball).y, 3.0f - 0.25f, PX);
  uint64_t h2 = tess_world_hash(w);
  CHECK_OK(tess_world_restore(w, s0, size0, &err), &err);
  step(w, 120);
  CHECK(tess_world_hash(w) == h2);

  CHECK_OK(tess_world_restore(w, s1, size1, &err), &err);
  CHECK(tess_world_hash(w) == h1);
  CHECK(tess_pixel_mask_info(w, m, &info));
  CHECK(memcmp(&info.origin, &i1.origin, sizeof info.origin) == 0 && info.angle == i1.angle &&
        memcmp(&info.bounds, &i1.bounds, sizeof info.bounds) == 0);
  back = copy_bits(w, m);
  CHECK(memcmp(back, bits1, n) == 0 && memcmp(back, bits0, n) != 0);
  free(back);
  free(s0);
  free(s1);
  free(bits0);
  free(bits1);
  tess_world_destroy(w);
}

/* Balls rain onto a body's pixel terrain that is moved, turned and carved mid-run: the same hash
 * with 1, 2 and 4 workers. */
static void moved_masks_are_deterministic_across_workers(void) {
  uint64_t hashes[3];
  const uint32_t workers[3] = {1, 2, 4};
  const float hills[] = {2.0f, 0.3f};
  for (int k = 0; k < 3; k++) {
    TessWorld *w = new_world_workers(tess_v2(0, G), workers[k]);
    TessBodyId body = add_static(w, tess_v2(0.0f, 0.0f), 0.0f);
    uint32_t m = add_mask_on(w, body, M(16), M(6), under_slope, hills, surface(0.5f, 0.2f, 0.9f), tess_v2(0, 0), 0.0f);
    for (int i = 0; i < 300; i++)
      add_ball(w, tess_v2(0.5f + 0.3f * (float)(i % 50), -2.0f + 0.3f * (float)(i / 50)), 0.1f, surface(0.5f, 0.2f, 0.9f), true);
    step(w, 40);
    CHECK(tess_body_set_transform(w, body, tess_v2(0.5f, 0.8f), -0.1f) == TESS_OK);
    step(w, 40);
    CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(6.0f, 4.0f), 1.0f, false) == TESS_OK);
    step(w, 60);
    hashes[k] = tess_world_hash(w);
    tess_world_destroy(w);
  }
  CHECK_MSG(hashes[0] == hashes[1] && hashes[0] == hashes[2], "hashes %016llx %016llx %016llx",
            (unsigned long long)hashes[0], (unsigned long long)hashes[1], (unsigned long long)hashes[2]);
}

/* Pixels built in open air stop a ball, and the masks' coarse level (which lets a circle in open
 * air skip the mask) keeps up with every change of the bits: a shelf set solid holds the ball a
 * radius above its top, cleared it lets it fall to the floor, put back by restoring a snapshot it
 * holds it again, and a snapshot from before it was built lets it fall. */
static void built_pixels_stop_a_ball_and_rewind_keeps_up(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  float top = 7.0f, r = 0.25f, shelf = 2.5f;
  uint32_t m = add_mask(w, M(8), M(8), below, &top, surface(0.6f, 0.0f, 1.0f));
  TessBodyId b = add_ball(w, tess_v2(4.0f, 1.0f), r, surface(0.6f, 0.0f, 1.0f), false);
  TessAABB box = {{3.0f, shelf}, {5.0f, 3.0f}};
  size_t size0, size1;
  void *s0 = snapshot(w, &size0);
  CHECK(tess_pixel_mask_set_rect(w, m, box, true) == TESS_OK);
  void *s1 = snapshot(w, &size1);
  step(w, 120);
  CHECK_NEAR(tess_body_position(w, b).y, shelf - r, PX);
  CHECK(tess_pixel_mask_set_rect(w, m, box, false) == TESS_OK);
  step(w, 120);
  CHECK_NEAR(tess_body_position(w, b).y, top - r, PX);
  TessError err;
  CHECK_OK(tess_world_restore(w, s1, size1, &err), &err);
  step(w, 120);
  CHECK_NEAR(tess_body_position(w, b).y, shelf - r, PX);
  CHECK_OK(tess_world_restore(w, s0, size0, &err), &err);
  step(w, 120);
  CHECK_NEAR(tess_body_position(w, b).y, top - r, PX);
  free(s0);
  free(s1);
  tess_world_destroy(w);
}

/* Destroying the static body a mask is laid on removes the mask: a ball asleep on it wakes and
 * falls through where it was, and the mask cannot be carved or removed again; restoring a
 * snapshot from before brings body and mask back with the world hash they had, and the ball
 * rests on it again. Removing a world mask through the API does the same. */
static void destroying_a_body_removes_its_mask_and_rewind_brings_it_back(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  float r = 0.25f, top = 3.0f;
  TessBodyId body = add_static(w, tess_v2(2.0f, top), 0.0f);
  uint32_t m = add_plate(w, body);
  float ft = 9.0f;
  uint32_t ground = add_mask_at(w, M(4), M(1), everywhere, NULL, surface(0.6f, 0.0f, 1.0f), tess_v2(6.0f, ft), 0.0f);
  TessBodyId a = add_ball(w, tess_v2(2.5f, 2.0f), r, surface(0.6f, 0.0f, 1.0f), true);
  TessBodyId b = add_ball(w, tess_v2(8.0f, ft - 1.0f), r, surface(0.6f, 0.0f, 1.0f), true);
  step(w, 180);
  CHECK(!tess_body_is_awake(w, a) && !tess_body_is_awake(w, b));
  CHECK_NEAR(tess_body_position(w, a).y, top - r, PX);
  CHECK_NEAR(tess_body_position(w, b).y, ft - r, PX);
  size_t size0;
  void *s0 = snapshot(w, &size0);
  uint64_t h0 = tess_world_hash(w);

  CHECK(tess_body_destroy(w, body) == TESS_OK);
  TessPixelMaskInfo info;
  CHECK(tess_pixel_mask_info(w, m, &info) && info.removed);
  CHECK(tess_world_pixel_mask_count(w) == 2); /* the numbers stay */
  CHECK(tess_body_is_awake(w, a));            /* what rested on it wakes */
  CHECK(!tess_world_pixel_mask_probe(w, tess_body_position(w, a), r).hit);
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(2.0f, top), 0.5f, false) == TESS_ERR_NOT_FOUND);
  CHECK(tess_world_remove_pixel_mask(w, m) == TESS_ERR_NOT_FOUND);
  CHECK(tess_world_remove_pixel_mask(w, 7) == TESS_ERR_NOT_FOUND);
  CHECK(tess_world_remove_pixel_mask(w, ground) == TESS_OK);
  CHECK(tess_pixel_mask_info(w, ground, &info) && info.removed && tess_body_is_awake(w, b));
  step(w, 60); /* 1 s: a free fall of 4.9 m */
  CHECK_MSG(tess_body_position(w, a).y > top + 4.0f, "the ball where the body was is at y %.3f",
            (double)tess_body_position(w, a).y);
  CHECK_MSG(tess_body_position(w, b).y > ft + 4.0f, "the ball on the removed floor is at y %.3f",
            (double)tess_body_position(w, b).y);
  CHECK(tess_world_hash(w) != h0);

  TessError err;
  CHECK_OK(tess_world_restore(w, s0, size0, &err), &err);
  CHECK(tess_world_hash(w) == h0);
  CHECK(tess_body_is_valid(w, body));
  CHECK(tess_pixel_mask_info(w, m, &info) && !info.removed && info.origin.x == 0.0f && info.origin.y == top);
  CHECK(tess_pixel_mask_info(w, ground, &info) && !info.removed);
  CHECK(tess_body_set_awake(w, a, true) == TESS_OK && tess_body_set_awake(w, b, true) == TESS_OK);
  step(w, 120);
  CHECK_NEAR(tess_body_position(w, a).y, top - r, PX);
  CHECK_NEAR(tess_body_position(w, b).y, ft - r, PX);
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(2.0f, top), 0.1f, false) == TESS_OK); /* carvable again */
  free(s0);
  tess_world_destroy(w);
}

/* What a sensor's callback does in the middle of a step: destroys the body a mask is laid on and
 * removes a world mask. Both wait for the step's end (the masks still hold their balls in that
 * step), then both balls fall; a snapshot from before puts them back. */
typedef struct Trap {
  TessBodyId body;
  uint32_t mask, calls;
  TessResult destroyed, removed;
  bool removed_at_once, body_valid;
} Trap;

static void spring_trap(TessWorld *w, const TessSensorEvent *ev, void *user) {
  (void)ev;
  Trap *t = user;
  if (t->calls++) return;
  t->destroyed = tess_body_destroy(w, t->body);
  t->removed = tess_world_remove_pixel_mask(w, t->mask);
  TessPixelMaskInfo info;
  t->removed_at_once = tess_pixel_mask_info(w, t->mask, &info) && info.removed;
  t->body_valid = tess_body_is_valid(w, t->body);
}

static void removal_from_a_callback_waits_for_the_step_end(void) {
  Trap trap;
  memset(&trap, 0, sizeof trap);
  TessWorldDef def;
  tess_world_def_default(&def);
  def.gravity = tess_v2(0, G);
  def.sensor_begin_fn = spring_trap;
  def.callback_user = &trap;
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create(&def, &w, &err), &err);
  float r = 0.25f, top = 3.0f;
  trap.body = add_static(w, tess_v2(2.0f, top), 0.0f);
  uint32_t plate = add_plate(w, trap.body);
  trap.mask = add_mask_at(w, M(4), M(0.5f), everywhere, NULL, surface(0.6f, 0.0f, 1.0f), tess_v2(6.0f, top), 0.0f);
  TessBodyId sensor = add_static(w, tess_v2(13.0f, top), 0.0f);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  sd.sensor = true;
  CHECK_OK(tess_shape_create_box(w, sensor, &sd, 0.5f, 0.5f, tess_v2(0, 0), 0.0f, NULL, &err), &err);
  TessBodyId a = add_ball(w, tess_v2(2.5f, 2.0f), r, surface(0.6f, 0.0f, 1.0f), false);
  TessBodyId b = add_ball(w, tess_v2(8.0f, 2.0f), r, surface(0.6f, 0.0f, 1.0f), false);
  add_ball(w, tess_v2(13.0f, -1.0f), r, surface(0.6f, 0.0f, 1.0f), false); /* falls into the sensor */
  step(w, 40);
  CHECK(trap.calls == 0);
  size_t size0;
  void *s0 = snapshot(w, &size0);
  uint64_t h0 = tess_world_hash(w);
  for (int i = 0; i < 120 && trap.calls == 0; i++) step(w, 1);
  CHECK(trap.calls == 1 && trap.destroyed == TESS_OK && trap.removed == TESS_OK);
  CHECK(!trap.removed_at_once && !trap.body_valid); /* the body is gone for the caller; the mask waits */
  TessPixelMaskInfo info;
  CHECK(tess_pixel_mask_info(w, plate, &info) && info.removed);
  CHECK(tess_pixel_mask_info(w, trap.mask, &info) && info.removed);
  CHECK_NEAR(tess_body_position(w, a).y, top - r, PX); /* held through the step that asked */
  CHECK_NEAR(tess_body_position(w, b).y, top - r, PX);
  step(w, 60);
  CHECK(tess_body_position(w, a).y > top + 4.0f && tess_body_position(w, b).y > top + 4.0f);
  CHECK_OK(tess_world_restore(w, s0, size0, &err), &err);
  CHECK(tess_world_hash(w) == h0);
  CHECK(tess_pixel_mask_info(w, plate, &info) && !info.removed);
  CHECK(tess_pixel_mask_info(w, trap.mask, &info) && !info.removed);
  step(w, 1);
  CHECK_NEAR(tess_body_position(w, a).y, top - r, PX);
  CHECK_NEAR(tess_body_position(w, b).y, top - r, PX);
  free(s0);
  tess_world_destroy(w);
}

static TessBodyId add_kinematic(TessWorld *w, TessVec2 at, TessVec2 v, float omega) {
  TessBodyId id = add_body_of(w, TESS_BODY_KINEMATIC, at, 0.0f);
  CHECK(tess_body_set_linear_velocity(w, id, v) == TESS_OK && tess_body_set_angular_velocity(w, id, omega) == TESS_OK);
  return id;
}

/* Pixel platforms on kinematic bodies carry what rests on them (the contact works on the velocity
 * relative to the surface):
 *  - a ball moving with a platform that moves at v keeps its place on it to a few mm over 2 s;
 *  - a ball on a lift rising at u stays on it, rising at u;
 *  - a ball asleep on a platform at rest that sets off at v wakes, and once it stops slipping rolls
 *    at v/3 with spin 2v/(3r), the analytic answer for a disc (I = m r^2 / 2) on a surface started
 *    at v: the friction impulse J brings the contact to the surface's speed, J/m + J r^2/I = v. */
static void ball_on_a_kinematic_pixel_platform_keeps_pace(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  float r = 0.25f, top = 3.0f, v = 1.0f, u = -0.5f;
  TessBodyId carrier = add_kinematic(w, tess_v2(2.0f, top), tess_v2(v, 0.0f), 0.0f);
  TessBodyId lift = add_kinematic(w, tess_v2(22.0f, top), tess_v2(0.0f, u), 0.0f);
  TessBodyId still = add_kinematic(w, tess_v2(42.0f, top), tess_v2(0.0f, 0.0f), 0.0f);
  add_plate(w, carrier);
  add_plate(w, lift);
  uint32_t m = add_plate(w, still);
  TessBodyId a = add_ball(w, tess_v2(2.0f, top - r - 0.01f), r, surface(0.6f, 0.0f, 1.0f), true);
  CHECK(tess_body_set_linear_velocity(w, a, tess_v2(v, 0.0f)) == TESS_OK);
  TessBodyId b = add_ball(w, tess_v2(22.0f, top - r - 0.01f), r, surface(0.6f, 0.0f, 1.0f), true);
  CHECK(tess_body_set_linear_velocity(w, b, tess_v2(0.0f, u)) == TESS_OK);
  TessBodyId c = add_ball(w, tess_v2(42.0f, top - r - 0.01f), r, surface(0.6f, 0.0f, 1.0f), true);
  step(w, 120);
  TessVec2 pa = tess_body_position(w, a), pk = tess_body_position(w, carrier);
  CHECK_MSG(fabsf(pa.x - pk.x) < 0.005f, "the carried ball is %.4f m off its place", (double)(pa.x - pk.x));
  CHECK_NEAR(pa.y, pk.y - r, PX);
  CHECK_NEAR(tess_body_linear_velocity(w, a).x, v, 0.01f * v);
  TessVec2 pb = tess_body_position(w, b), pl = tess_body_position(w, lift);
  CHECK_NEAR(pl.y, top + 2.0f * u, 1e-3);
  CHECK_NEAR(pb.y, pl.y - r, PX);
  CHECK_NEAR(pb.x, 22.0f, 1e-3);
  CHECK_NEAR(tess_body_linear_velocity(w, b).y, u, 0.02f * fabsf(u));
  CHECK(tess_body_is_awake(w, a) && tess_body_is_awake(w, b));

  CHECK(!tess_body_is_awake(w, c));
  CHECK_NEAR(tess_body_position(w, c).y, top - r, PX);
  CHECK(tess_body_set_linear_velocity(w, still, tess_v2(v, 0.0f)) == TESS_OK);
  step(w, 60);
  CHECK(tess_body_is_awake(w, c));
  TessPixelMaskInfo info;
  CHECK(tess_pixel_mask_info(w, m, &info) && fabsf(info.origin.x - (40.0f + v)) < 0.02f);
  CHECK_MSG(fabsf(tess_body_linear_velocity(w, c).x - v / 3.0f) < 0.02f * v / 3.0f, "rolls at %.4f m/s, %.4f wanted",
            (double)tess_body_linear_velocity(w, c).x, (double)(v / 3.0f));
  float spin = fabsf(tess_body_angular_velocity(w, c)), want = 2.0f * v / (3.0f * r);
  CHECK_MSG(fabsf(spin - want) < 0.02f * want, "spins at %.4f rad/s, %.4f wanted", (double)spin, (double)want);
  CHECK_NEAR(tess_body_position(w, c).y, top - r, PX);
  tess_world_destroy(w);
}

static bool wheel_with_pocket(float x, float y, const float *p) { /* p: wheel radius, pocket x, pocket radius */
  float wheel[3] = {p[0], p[0], p[0]}, pocket[3] = {p[0] + p[1], p[0], p[2]};
  return in_disk(x, y, wheel) && !in_disk(x, y, pocket);
}

/* A ball in a pocket of a pixel wheel turning at omega about its centre (no gravity), at rest in
 * the wheel's frame against the pocket's outer wall (moving at omega times its radius, spinning at
 * omega), stays so: over a whole turn it keeps to the pocket's middle within a degree, at its
 * radius, at omega times that radius within 2%. The wall meets it with the wall's own velocity; a
 * wall taken to be at rest would stop it at every push outwards. At 4 and 8 rad/s the ball moves
 * more than half its radius a step, and its path is swept in the wheel's frame (in the world's, at
 * 8 rad/s the pocket's wall, moved into the path behind it, throws it back). */
static void turn_the_pocket_wheel(float omega) {
  TessWorld *w = new_world(tess_v2(0, 0));
  float r = 0.25f, R = 2.0f, hole = 0.4f, at_rest = R + hole - r;
  const float p[3] = {3.0f, R, hole};
  TessBodyId wheel = add_kinematic(w, tess_v2(0.0f, 0.0f), tess_v2(0.0f, 0.0f), omega);
  add_mask_on(w, wheel, M(6), M(6), wheel_with_pocket, p, surface(0.6f, 0.0f, 1.0f), tess_v2(-3.0f, -3.0f), 0.0f);
  TessBodyId ball = add_ball(w, tess_v2(at_rest, 0.0f), r, surface(0.6f, 0.0f, 1.0f), true);
  CHECK(tess_body_set_linear_velocity(w, ball, tess_v2(0.0f, omega * at_rest)) == TESS_OK);
  CHECK(tess_body_set_angular_velocity(w, ball, omega) == TESS_OK);
  int steps = (int)ceilf(2.0f * (float)PI / omega * HZ);
  double worst_lag = 0.0, worst_speed = 0.0, worst_dist = 0.0;
  for (int i = 1; i <= steps; i++) {
    step(w, 1);
    TessVec2 at = tess_body_position(w, ball);
    double turned = omega * i / HZ, angle = atan2(at.y, at.x);
    double lag = fabs(fmod(turned - angle + 5.0 * PI, 2.0 * PI) - PI); /* off the pocket's middle, radians */
    double dist = sqrt((double)at.x * at.x + (double)at.y * at.y);
    double speed = tess_v2_length(tess_body_linear_velocity(w, ball)), off = fabs(speed - omega * dist) / (omega * dist);
    if (lag > worst_lag) worst_lag = lag;
    if (off > worst_speed) worst_speed = off;
    if (fabs(dist - at_rest) > worst_dist) worst_dist = fabs(dist - at_rest);
  }
  printf("omega %.1f: at worst %.2f degrees off the pocket's middle, %.4f m off its radius, speed %.2f%% off\n",
         (double)omega, worst_lag * 180.0 / PI, worst_dist, 100.0 * worst_speed);
  CHECK_MSG(worst_lag < PI / 180.0, "%.2f degrees off the pocket's middle", worst_lag * 180.0 / PI);
  CHECK_MSG(worst_dist < 2.0 * PX, "%.4f m off the pocket's outer wall", worst_dist);
  CHECK_MSG(worst_speed < 0.02, "speed off omega r by %.1f%% at worst", 100.0 * worst_speed);
  tess_world_destroy(w);
}

static void ball_goes_round_in_a_turning_pixel_wheel(void) {
  turn_the_pocket_wheel(1.0f);
  turn_the_pocket_wheel(4.0f);
  turn_the_pocket_wheel(8.0f);
}

/* Play's rewind: carve, step, snapshot; carve more and step on; restoring the snapshot gives back
 * its bits exactly and the same world hash, and stepping on from it repeats itself. A snapshot
 * from before any carving puts the mask back as it was made; the world hash of an uncarved world
 * is what it was before masks entered it. A carved world's snapshot holds the carved blocks,
 * not the 2 MiB mask. */
static void snapshot_restores_carved_bits(void) {
  TessWorld *w = new_world(tess_v2(0, G));
  float top = 2.0f;
  uint32_t m = add_mask(w, M(128), M(128), below, &top, surface(0.6f, 0.0f, 1.0f)); /* 4096 x 4096 */
  TessBodyId balls[6];
  for (int i = 0; i < 6; i++) balls[i] = add_ball(w, tess_v2(1.0f + 0.7f * (float)i, 1.0f), 0.25f, surface(0.6f, 0.2f, 1.0f), true);
  size_t size0;
  void *s0 = snapshot(w, &size0);
  uint8_t *bits0 = copy_bits(w, m);
  uint64_t h0 = tess_world_hash(w);
  step(w, 30);
  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(2.0f, top), 0.6f, false) == TESS_OK);
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){{3.0f, 2.5f}, {3.5f, 3.0f}}, false) == TESS_OK);
  step(w, 30);
  size_t size1;
  void *s1 = snapshot(w, &size1);
  CHECK_MSG(size1 - size0 < 32 * 1024, "a snapshot of the carved world takes %zu bytes more", size1 - size0);
  uint8_t *bits1 = copy_bits(w, m);
  uint64_t h1 = tess_world_hash(w);
  CHECK(memcmp(bits0, bits1, tess_pixel_mask_copy_bits(w, m, NULL, 0)) != 0);

  CHECK(tess_pixel_mask_set_circle(w, m, tess_v2(0.5f, top), 0.8f, false) == TESS_OK);
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){{2.0f, 1.0f}, {2.5f, 1.6f}}, true) == TESS_OK);
  step(w, 60);
  CHECK(tess_world_hash(w) != h1);

  TessError err;
  CHECK_OK(tess_world_restore(w, s1, size1, &err), &err);
  CHECK(tess_world_hash(w) == h1);
  uint8_t *back = copy_bits(w, m);
  CHECK(memcmp(back, bits1, tess_pixel_mask_copy_bits(w, m, NULL, 0)) == 0);
  free(back);
  step(w, 60);
  uint64_t h2 = tess_world_hash(w);
  CHECK_OK(tess_world_restore(w, s1, size1, &err), &err);
  step(w, 60);
  CHECK(tess_world_hash(w) == h2);

  CHECK_OK(tess_world_restore(w, s0, size0, &err), &err);
  CHECK(tess_world_hash(w) == h0);
  back = copy_bits(w, m);
  CHECK(memcmp(back, bits0, tess_pixel_mask_copy_bits(w, m, NULL, 0)) == 0);
  free(back);
  for (int i = 0; i < 6; i++) CHECK(tess_body_position(w, balls[i]).y == 1.0f);
  /* a snapshot with another mask count is refused, and leaves the world as it was */
  TessWorld *other = new_world(tess_v2(0, G));
  CHECK(tess_world_restore(other, s1, size1, &err) == TESS_ERR_INVALID);
  tess_world_destroy(other);
  free(s0);
  free(s1);
  free(bits0);
  free(bits1);
  tess_world_destroy(w);
}

/* A circle far from every pixel keeps its room between steps and skips the look at the pixels while
 * it stays inside (pixel_mask.c); pixels that come near it must end that. In no gravity balls float
 * still, so nothing but the pixel pass could move them: pixels filled in over a ball (and the same
 * pixels brought back by a rewind after they were carved away), a mask moved onto a ball with its
 * static body, and a ball teleported into the floor are each pushed out in the next step, and the
 * rewind pushes to the same bits as the first time. */
static void kept_rooms_end_where_pixels_come(void) {
  TessWorld *w = new_world(tess_v2(0, 0));
  float top = 3.0f;
  uint32_t m = add_mask(w, M(8), M(4), below, &top, surface(0.6f, 0.0f, 1.0f));
  TessBodyId far_body = add_static(w, tess_v2(20.0f, 20.0f), 0.0f);
  add_plate(w, far_body);
  float r = 0.25f;
  TessBodyId a = add_ball(w, tess_v2(2.0f, 0.5f), r, surface(0.6f, 0.0f, 1.0f), false);
  TessBodyId b = add_ball(w, tess_v2(5.0f, 1.0f), r, surface(0.6f, 0.0f, 1.0f), false);
  TessBodyId c = add_ball(w, tess_v2(7.0f, 1.0f), r, surface(0.6f, 0.0f, 1.0f), false);
  step(w, 10); /* rooms kept: nothing moves */
  CHECK(tess_body_position(w, a).y == 0.5f && tess_body_position(w, b).y == 1.0f && tess_body_position(w, c).y == 1.0f);
  /* filled in over ball a, 0.15 m into it */
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){{1.5f, 0.6f}, {2.5f, 3.0f}}, true) == TESS_OK);
  size_t size;
  void *filled = snapshot(w, &size);
  step(w, 1);
  TessVec2 pushed = tess_body_position(w, a);
  CHECK_MSG(pushed.y < 0.5f - 0.1f, "ball a not pushed out of pixels filled over it: y = %.4f", (double)pushed.y);
  CHECK(tess_world_pixel_mask_probe(w, pushed, r).depth < 0.01f);
  /* carved away again: ball a floats on, its room (2 m: the floor is farther) kept where the pixels were */
  CHECK(tess_pixel_mask_set_rect(w, m, (TessAABB){{1.4f, 0.0f}, {2.6f, 2.99f}}, false) == TESS_OK);
  step(w, 10);
  /* the rewind brings the pixels and the ball back: the same push, to the bit */
  TessError err;
  CHECK_OK(tess_world_restore(w, filled, size, &err), &err);
  CHECK(tess_body_position(w, a).y == 0.5f);
  step(w, 1);
  CHECK_MSG(tess_body_position(w, a).x == pushed.x && tess_body_position(w, a).y == pushed.y,
            "after the rewind ball a is at (%.5f, %.5f), not (%.5f, %.5f)", (double)tess_body_position(w, a).x,
            (double)tess_body_position(w, a).y, (double)pushed.x, (double)pushed.y);
  free(filled);
  /* ball b teleported 0.15 m into the floor */
  CHECK(tess_body_set_transform(w, b, tess_v2(5.0f, top + 0.15f - r), 0.0f) == TESS_OK);
  step(w, 1);
  CHECK_MSG(tess_body_position(w, b).y < top + 0.15f - r - 0.1f, "teleported ball b not pushed out: y = %.4f",
            (double)tess_body_position(w, b).y);
  /* the plate (4 x 0.5 m, its top's middle at its body) moved so that its top is 0.15 m into ball c */
  CHECK(tess_body_set_transform(w, far_body, tess_v2(7.0f, 1.0f + r - 0.15f), 0.0f) == TESS_OK);
  step(w, 1);
  CHECK_MSG(tess_body_position(w, c).y < 1.0f - 0.1f, "ball c not pushed out of a mask moved onto it: y = %.4f",
            (double)tess_body_position(w, c).y);
  tess_world_destroy(w);
}

TESS_TEST_MAIN(TEST(ball_rests_on_a_pixel_floor), TEST(bounce_on_pixels_reaches_e_squared_height),
               TEST(ball_rolls_over_a_pixel_circle), TEST(ball_rolls_and_slides_down_a_pixel_slope),
               TEST(carving_a_hole_drops_a_resting_ball), TEST(fast_ball_never_crosses_a_one_pixel_wall),
               TEST(mask_bits_edits_and_bad_input), TEST(ball_runs_down_a_turned_pixel_floor),
               TEST(ball_rests_in_a_turned_pixel_circle), TEST(snapshot_restores_carved_bits),
               TEST(ball_runs_down_a_mask_turned_with_its_body), TEST(mask_follows_its_body_when_moved),
               TEST(snapshot_restores_a_moved_mask), TEST(moved_masks_are_deterministic_across_workers),
               TEST(built_pixels_stop_a_ball_and_rewind_keeps_up),
               TEST(destroying_a_body_removes_its_mask_and_rewind_brings_it_back),
               TEST(removal_from_a_callback_waits_for_the_step_end),
               TEST(ball_on_a_kinematic_pixel_platform_keeps_pace), TEST(ball_goes_round_in_a_turning_pixel_wheel),
               TEST(kept_rooms_end_where_pixels_come))
