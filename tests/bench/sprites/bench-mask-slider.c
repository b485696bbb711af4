/* What the mask editor does for each value of the threshold slider, timed:
 * trace the frame with the mask's settings (tess_sprite_mask_trace), the
 * second moments for the principal axes, the simplified hull the overlay
 * shows, and the project edit (tess_edit_sprite_set, merged into one undo
 * step). Side by side with the frame budget (16.7 ms at 60 Hz) named by
 * issue 4 for a 1024 x 1024 sprite. Prints figures, asserts no timings. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tessera/image.h"
#include "tessera/level.h"
#include "tessera/mask.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* An ellipse with a soft alpha ramp at its rim (so the threshold matters)
 * and a few holes: a sprite with anti-aliased edges. */
static void make_sprite(TessImage *img) {
  double cx = img->width / 2.0, cy = img->height / 2.0, rx = img->width * 0.46, ry = img->height * 0.36;
  for (uint32_t y = 0; y < img->height; y++)
    for (uint32_t x = 0; x < img->width; x++) {
      double dx = (x + 0.5 - cx) / rx, dy = (y + 0.5 - cy) / ry;
      double d = sqrt(dx * dx + dy * dy);
      double a = d < 0.9 ? 255 : d < 1.0 ? 255 * (1.0 - d) / 0.1
                                         : 0;
      double hx = fmod(x, 256.0) - 128, hy = fmod(y, 256.0) - 128;
      if (hx * hx + hy * hy < 30 * 30) a = 0;
      uint8_t *p = img->pixels + (size_t)y * img->stride + 4 * (size_t)x;
      p[0] = 120, p[1] = 90, p[2] = 60, p[3] = (uint8_t)a;
    }
}

static void run(const char *label, uint32_t side, uint8_t mode) {
  TessImage img;
  TessError err = {0};
  if (tess_image_create(side, side, &img, &err) != TESS_OK) return;
  make_sprite(&img);
  TessProject *p = tess_project_create();
  TessSprite sp;
  memset(&sp, 0, sizeof sp);
  snprintf(sp.name, sizeof sp.name, "bench");
  sp.image_w = sp.image_h = side;
  sp.frame_count = 1;
  tess_sprite_mask_default(&sp.mask);
  sp.mask.mode = mode;
  TessImageView frame = tess_image_view(&img);
  TessId id = 0;
  if (tess_sprite_mask_trace(frame, &sp.mask, &err) != TESS_OK || tess_edit_sprite_add(p, &sp, &id, &err) != TESS_OK) {
    fprintf(stderr, "%s: %s\n", label, err.detail);
    return;
  }
  sp.id = id;
  uint32_t merge = tess_project_new_merge_key(p);
  const int steps = 24;
  double t_trace = 0, t_moments = 0, t_simplify = 0, t_edit = 0, worst = 0;
  for (int i = 0; i < steps; i++) {
    double t0 = now_ms();
    sp.mask.threshold = (uint8_t)(1 + i * 10);
    tess_sprite_mask_trace(frame, &sp.mask, &err);
    double t1 = now_ms();
    TessMaskSecondMoments m;
    tess_mask_pixel_moments(frame, sp.mask.threshold, &m, NULL);
    double t2 = now_ms();
    TessDVec2 hull[4096], simple[4096];
    uint32_t n = sp.mask.hull_count < 4096 ? sp.mask.hull_count : 4096, out = 0;
    for (uint32_t k = 0; k < n; k++) hull[k] = tess_d2(sp.mask.hull[k].x, sp.mask.hull[k].y);
    double added;
    tess_mask_simplify_hull(hull, n, sp.mask.max_vertices, simple, &out, &added, NULL);
    double t3 = now_ms();
    tess_edit_sprite_set(p, &sp, merge, &err);
    double t4 = now_ms();
    t_trace += t1 - t0, t_moments += t2 - t1, t_simplify += t3 - t2, t_edit += t4 - t3;
    if (t4 - t0 > worst) worst = t4 - t0;
  }
  double total = (t_trace + t_moments + t_simplify + t_edit) / steps;
  printf("%-34s trace %6.2f  moments %5.2f  simplify %5.3f  edit %5.2f  = %6.2f ms/step (worst %6.2f) | frame budget 16.7 ms\n",
         label, t_trace / steps, t_moments / steps, t_simplify / steps, t_edit / steps, total, worst);
  sp.id = 0;
  tess_sprite_clear(&sp);
  tess_project_destroy(p);
  tess_image_clear(&img);
}

int main(void) {
  printf("mask editor, one threshold slider step (mean of 24 values)\n");
  run("256 x 256, simplified hull", 256, TESS_MASK_SIMPLIFIED);
  run("1024 x 1024, simplified hull", 1024, TESS_MASK_SIMPLIFIED);
  run("1024 x 1024, convex pieces", 1024, TESS_MASK_PIECES);
  run("2048 x 2048, simplified hull", 2048, TESS_MASK_SIMPLIFIED);
  return 0;
}
