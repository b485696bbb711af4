/* core/geom's shapes: the one polygon check and the one shape-mass
 * implementation, against closed forms. */
#include "check.h"
#include "tessera/geom.h"

static void circle_and_capsule_have_closed_forms(void) {
  TessMassProps c = tess_circle_mass(tess_d2(1.0, -2.0), 0.5);
  CHECK_REL(c.area, M_PI * 0.25, 1e-15);
  CHECK(c.cx == 1.0 && c.cy == -2.0);
  CHECK_REL(c.inertia, 0.5 * c.area * 0.25, 1e-15);
  /* A capsule of no length is a circle; a long one tends to its rectangle
   * plus two half discs: check it against a fine sum of thin strips. */
  TessMassProps k0 = tess_capsule_mass(tess_d2(0, 0), tess_d2(0, 0), 0.5);
  CHECK_REL(k0.area, c.area, 1e-15);
  CHECK_REL(k0.inertia, c.inertia, 1e-15);
  double r = 0.5, len = 3.0;
  TessMassProps k = tess_capsule_mass(tess_d2(-1.5, 0), tess_d2(1.5, 0), r);
  CHECK_REL(k.area, M_PI * r * r + 2 * r * len, 1e-14);
  CHECK(k.cx == 0.0 && k.cy == 0.0);
  double sum = 0.0, step = 1e-4;
  for (double x = -len / 2 - r + step / 2; x < len / 2 + r; x += step) {
    double dx = fabs(x) > len / 2 ? fabs(x) - len / 2 : 0.0;
    double h = sqrt(r * r - dx * dx); /* half height of the strip */
    sum += step * (2 * h * x * x + 2 * h * h * h / 3.0);
  }
  CHECK_REL(k.inertia, sum, 1e-5);
}

static void polygon_mass_either_winding(void) {
  TessVec2 box[4] = {{0, 0}, {2, 0}, {2, 1}, {0, 1}};
  TessMassProps m = tess_polygon_mass(box, 4);
  CHECK_NEAR(m.area, 2.0, 1e-12);
  CHECK_NEAR(m.cx, 1.0, 1e-12);
  CHECK_NEAR(m.cy, 0.5, 1e-12);
  CHECK_NEAR(m.inertia, 2.0 * (4.0 + 1.0) / 12.0, 1e-12); /* A (w^2 + h^2) / 12 */
  TessVec2 rev[4] = {box[3], box[2], box[1], box[0]};
  TessMassProps r = tess_polygon_mass(rev, 4);
  CHECK_NEAR(r.area, m.area, 1e-12);
  CHECK_NEAR(r.inertia, m.inertia, 1e-12);
  TessVec2 flat[3] = {{0, 0}, {1, 1}, {2, 2}};
  CHECK(tess_polygon_mass(flat, 3).area == 0.0);
}

static void polygon_check_names_the_fault(void) {
  TessError err;
  TessVec2 tri[3] = {{0, 0}, {1, 0}, {0, 1}};
  CHECK(tess_polygon_check(tri, 3, &err) == TESS_OK);
  CHECK(tess_polygon_check(tri, 2, &err) == TESS_ERR_INVALID);
  TessVec2 line[4] = {{0, 0}, {1, 0}, {2, 0}, {1, 1}};
  CHECK(tess_polygon_check(line, 4, &err) == TESS_ERR_INVALID);
  CHECK_MSG(strstr(err.detail, "collinear") != NULL, "%s", err.detail);
  TessVec2 dent[5] = {{0, 0}, {2, 0}, {1, 0.5f}, {2, 2}, {0, 2}};
  CHECK(tess_polygon_check(dent, 5, &err) == TESS_ERR_INVALID);
  CHECK_MSG(strstr(err.detail, "not convex") != NULL, "%s", err.detail);
  /* A pentagram turns the same way at every point: only its winding gives it away. */
  TessVec2 star[5];
  for (int i = 0; i < 5; i++) star[i] = tess_v2((float)cos(i * 4 * M_PI / 5), (float)sin(i * 4 * M_PI / 5));
  CHECK(tess_polygon_check(star, 5, &err) == TESS_ERR_INVALID);
  CHECK_MSG(strstr(err.detail, "intersects itself") != NULL, "%s", err.detail);
  TessVec2 nan[3] = {{0, 0}, {NAN, 0}, {0, 1}};
  CHECK(tess_polygon_check(nan, 3, &err) == TESS_ERR_INVALID);
}

TESS_TEST_MAIN(TEST(circle_and_capsule_have_closed_forms), TEST(polygon_mass_either_winding),
               TEST(polygon_check_names_the_fault))
