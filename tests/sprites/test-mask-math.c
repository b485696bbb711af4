/* What the sprite editor draws and reads out, from core: second moments and
 * principal axes of the opaque pixels (core/mask), and the readouts
 * recomputed after hand edits of the shape (core/level). Checked against direct summation and analytic areas. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "death.h"
#include "tessera/level.h" /* tess_mask_shape_* (core/level/sprite_mask_edit.c) */
#include "tessera/mask.h"

static void set_alpha(TessImage *img, uint32_t x, uint32_t y, uint8_t a) {
  uint8_t *p = img->pixels + (size_t)y * img->stride + 4 * (size_t)x;
  p[0] = 200, p[1] = 80, p[2] = 40, p[3] = a;
}

/* A w x h rectangle rotated by `angle` about the image centre, rasterised by pixel centres. */
static void rotated_rect(TessImage *img, double w, double h, double angle) {
  double cx = img->width / 2.0, cy = img->height / 2.0, c = cos(angle), s = sin(angle);
  for (uint32_t y = 0; y < img->height; y++)
    for (uint32_t x = 0; x < img->width; x++) {
      double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
      double u = dx * c + dy * s, v = -dx * s + dy * c;
      if (fabs(u) <= w / 2 && fabs(v) <= h / 2) set_alpha(img, x, y, 255);
    }
}

/* Moments equal direct summation, agree with core/mask's polar inertia,
 * and the principal axis of a rotated rectangle is its long side. */
static void moments_rotated_rectangle(void) {
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(400, 300, &img, &err), &err);
  const double angle = 30.0 * M_PI / 180.0;
  rotated_rect(&img, 240, 90, angle);
  TessMaskSecondMoments m;
  CHECK_OK(tess_mask_pixel_moments(tess_image_view(&img), 1, &m, &err), &err);

  /* Direct summation in two passes. */
  double n = 0, sx = 0, sy = 0;
  for (uint32_t y = 0; y < img.height; y++)
    for (uint32_t x = 0; x < img.width; x++)
      if (img.pixels[(size_t)y * img.stride + 4 * x + 3]) n++, sx += x + 0.5, sy += y + 0.5;
  double cx = sx / n, cy = sy / n, ixx = 0, iyy = 0, ixy = 0;
  for (uint32_t y = 0; y < img.height; y++)
    for (uint32_t x = 0; x < img.width; x++)
      if (img.pixels[(size_t)y * img.stride + 4 * x + 3]) {
        double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
        ixx += dx * dx + 1.0 / 12, iyy += dy * dy + 1.0 / 12, ixy += dx * dy;
      }
  CHECK(m.area == n);
  CHECK_NEAR(m.cx, cx, 1e-9);
  CHECK_NEAR(m.cy, cy, 1e-9);
  CHECK_REL(m.ixx, ixx, 1e-9);
  CHECK_REL(m.iyy, iyy, 1e-9);
  CHECK_REL(m.ixy, ixy, 1e-9);

  TessMassProps pix;
  CHECK_OK(tess_mask_pixel_mass(tess_image_view(&img), 1, &pix, &err), &err);
  CHECK_REL(m.ixx + m.iyy, pix.inertia, 1e-9);

  double a = m.angle, major = m.major, minor = m.minor;
  CHECK_NEAR(a, angle, 0.01); /* y-down: a positive angle turns x towards +y, as the raster did */
  /* Analytic: along the long side A w^2 / 12, across A h^2 / 12. */
  double area = 240.0 * 90.0;
  CHECK_REL(major, area * 240.0 * 240.0 / 12.0, 0.02);
  CHECK_REL(minor, area * 90.0 * 90.0 / 12.0, 0.03);
  CHECK(major >= minor);

  /* Nothing opaque at a threshold above every alpha. */
  memset(img.pixels, 0, img.stride * img.height);
  CHECK(tess_mask_pixel_moments(tess_image_view(&img), 1, &m, &err) == TESS_ERR_EMPTY);
  tess_image_clear(&img);
}

/* A box mask edited by hand: the readouts follow exactly. */
static void shape_edit_readouts(void) {
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(20, 10, &img, &err), &err);
  for (uint32_t y = 0; y < 10; y++)
    for (uint32_t x = 0; x < 20; x++) set_alpha(&img, x, y, 255);
  TessSpriteMask mask;
  tess_sprite_mask_default(&mask);
  mask.mode = TESS_MASK_BOX;
  CHECK_OK(tess_sprite_mask_trace(tess_image_view(&img), &mask, &err), &err);
  CHECK(mask.piece_count == 1 && mask.pieces[0].count == 4);
  CHECK_NEAR(mask.shape_area, 200.0, 1e-9);

  /* Find the corner at (20, 10) and pull it in to (10, 10): a trapezoid of 150 px^2. */
  uint32_t piece = 99, vertex = 99;
  CHECK(tess_mask_shape_pick_vertex(&mask, 19.5f, 9.5f, 1.0f, &piece, &vertex));
  CHECK(piece == 0);
  CHECK(tess_mask_shape_move_vertex(&mask, piece, vertex, 10.0f, 10.0f));
  tess_mask_shape_update(&mask, tess_image_view(&img));
  CHECK(mask.manual == 1);
  CHECK_NEAR(mask.shape_area, 150.0, 1e-6);
  CHECK_NEAR(mask.uncovered_area, 50.0, 1e-6);
  CHECK_NEAR(mask.added_area, 0.0, 1e-6);
  /* Centroid of the trapezoid (0,0) (20,0) (10,10) (0,10) by decomposition:
   * rectangle 10x10 at (5,5) area 100, triangle (10,0) (20,0) (10,10) area 50 at (13.33, 3.33). */
  CHECK_NEAR(mask.shape_centroid_x, (100 * 5.0 + 50 * 40.0 / 3.0) / 150.0, 1e-5);
  CHECK_NEAR(mask.shape_centroid_y, (100 * 5.0 + 50 * 10.0 / 3.0) / 150.0, 1e-5);

  /* Out past the hull to (30, 10): 250 px^2, 50 added, nothing uncovered. */
  CHECK(tess_mask_shape_move_vertex(&mask, piece, vertex, 30.0f, 10.0f));
  tess_mask_shape_update(&mask, tess_image_view(&img));
  CHECK_NEAR(mask.shape_area, 250.0, 1e-6);
  CHECK_NEAR(mask.added_area, 50.0, 1e-6);
  CHECK_NEAR(mask.uncovered_area, 0.0, 1e-6);

  /* A fold is refused and changes nothing. */
  TessVec2 before = mask.pieces[0].v[vertex];
  uint32_t opposite = (vertex + 2) % 4;
  TessVec2 far = mask.pieces[0].v[opposite];
  CHECK(!tess_mask_shape_move_vertex(&mask, piece, vertex, far.x - 5.0f, far.y - 5.0f));
  CHECK(mask.pieces[0].v[vertex].x == before.x && mask.pieces[0].v[vertex].y == before.y);

  /* Insert on an edge, then remove: the counts follow, never below 3. */
  uint32_t ep = 99, ev = 99;
  CHECK(tess_mask_shape_pick_edge(&mask, 5.0f, 0.2f, 1.0f, &ep, &ev));
  CHECK(tess_mask_shape_insert_vertex(&mask, ep, ev, 5.0f, 0.0f));
  CHECK(mask.pieces[0].count == 5);
  tess_mask_shape_update(&mask, tess_image_view(&img));
  CHECK_NEAR(mask.shape_area, 250.0, 1e-6); /* a point on an edge adds nothing */
  CHECK(tess_mask_shape_remove_vertex(&mask, 0, 0));
  CHECK(tess_mask_shape_remove_vertex(&mask, 0, 0));
  CHECK(mask.pieces[0].count == 3);
  CHECK(!tess_mask_shape_remove_vertex(&mask, 0, 0));
  CHECK(mask.pieces[0].count == 3);

  tess_sprite_mask_clear(&mask);
  tess_image_clear(&img);
}

/* A hand edit names a piece and a vertex the caller picked: one past the
 * mask is a mistake (asserts in debug builds; off, the edit is refused). */
static bool edit_past_the_pieces(void) {
  TessImage img;
  TessError err = {0};
  if (tess_image_create(20, 10, &img, &err) != TESS_OK) return false;
  for (uint32_t y = 0; y < 10; y++)
    for (uint32_t x = 0; x < 20; x++) set_alpha(&img, x, y, 255);
  TessSpriteMask mask;
  tess_sprite_mask_default(&mask);
  mask.mode = TESS_MASK_BOX;
  bool traced = tess_sprite_mask_trace(tess_image_view(&img), &mask, &err) == TESS_OK;
  bool documented = traced && !tess_mask_shape_move_vertex(&mask, mask.piece_count, 0, 1.0f, 1.0f) &&
                    !tess_mask_shape_remove_vertex(&mask, 0, mask.pieces[0].count);
  tess_sprite_mask_clear(&mask);
  tess_image_clear(&img);
  return documented;
}
static void edit_past_the_pieces_asserts(void) {
  expect_assert(edit_past_the_pieces, "mask piece or vertex out of range");
}

TESS_TEST_MAIN(TEST(moments_rotated_rectangle), TEST(shape_edit_readouts), TEST(edit_past_the_pieces_asserts))
