/* core/geom and core/mask: analytic shapes rasterised here, checked against
 * direct summation, analytic hulls, containment and coverage invariants,
 * and Chipmunk2D's polygon formulas when it is installed. */
#include "check.h"
#include "shapes.h"
#include "tessera/geom.h"
#include "tessera/image.h"
#include "tessera/level.h" /* sprite masks and tiles store what mask traces */
#include "tessera/mask.h"

#include <float.h>

#ifdef TESS_HAVE_CHIPMUNK
#include <chipmunk/chipmunk.h>
#endif

typedef struct Raster {
  Shape shape;
  uint8_t *px;
  size_t stride;
  TessImageView view;
} Raster;

static Raster raster(const Shape *s, size_t pad) {
  Raster r;
  r.shape = *s;
  r.stride = (size_t)s->width * 4 + pad;
  r.px = shape_raster(s, r.stride);
  TessImageView v = {s->width, s->height, r.stride, r.px};
  r.view = v;
  return r;
}

static bool opaque(const Raster *r, uint32_t x, uint32_t y) { return r->px[(size_t)y * r->stride + (size_t)x * 4 + 3] >= 1; }

/* Direct summation in long double, pixel by pixel. */
static TessMassProps direct_mass(const Raster *r) {
  long double n = 0, sx = 0, sy = 0;
  for (uint32_t y = 0; y < r->shape.height; y++)
    for (uint32_t x = 0; x < r->shape.width; x++)
      if (opaque(r, x, y)) {
        n += 1;
        sx += x + 0.5L;
        sy += y + 0.5L;
      }
  TessMassProps m = {(double)n, (double)(sx / n), (double)(sy / n), 0};
  long double in = 0;
  for (uint32_t y = 0; y < r->shape.height; y++)
    for (uint32_t x = 0; x < r->shape.width; x++)
      if (opaque(r, x, y)) {
        long double dx = x + 0.5L - sx / n, dy = y + 0.5L - sy / n;
        in += 1.0L / 6.0L + dx * dx + dy * dy;
      }
  m.inertia = (double)in;
  return m;
}

/* Every opaque pixel's four corners inside a convex polygon. */
static uint32_t corners_outside(const Raster *r, const TessDVec2 *v, uint32_t n, double eps) {
  uint32_t bad = 0;
  for (uint32_t y = 0; y < r->shape.height; y++)
    for (uint32_t x = 0; x < r->shape.width; x++) {
      if (!opaque(r, x, y)) continue;
      for (int c = 0; c < 4; c++)
        if (!tess_convex_contains(v, n, tess_d2(x + (c & 1), y + (c >> 1)), eps)) bad++;
    }
  return bad;
}

static double perimeter(const TessDVec2 *v, uint32_t n) {
  double p = 0;
  for (uint32_t i = 0; i < n; i++) {
    TessDVec2 d = tess_d2_sub(v[(i + 1) % n], v[i]);
    p += sqrt(tess_d2_dot(d, d));
  }
  return p;
}

/* ---- geom --------------------------------------------------------------- */

static void polygon_mass_matches_rectangle_formulas(void) {
  TessDVec2 ccw[4] = {{1000, 2000}, {1030, 2000}, {1030, 2010}, {1000, 2010}};
  TessMassProps m = tess_poly_mass(ccw, 4);
  CHECK_NEAR(m.area, 300, 1e-9);
  CHECK_NEAR(m.cx, 1015, 1e-9);
  CHECK_NEAR(m.cy, 2005, 1e-9);
  CHECK_REL(m.inertia, 300.0 * (30 * 30 + 10 * 10) / 12.0, 1e-12);
  TessDVec2 cw[4] = {ccw[3], ccw[2], ccw[1], ccw[0]};
  TessMassProps m2 = tess_poly_mass(cw, 4);
  CHECK_NEAR(m2.area, m.area, 1e-9);
  CHECK_REL(m2.inertia, m.inertia, 1e-12);
  CHECK(tess_poly_signed_area(ccw, 4) > 0 && tess_poly_signed_area(cw, 4) < 0);
  /* Two halves combined give the whole. */
  TessDVec2 left[4] = {{1000, 2000}, {1010, 2000}, {1010, 2010}, {1000, 2010}};
  TessDVec2 right[4] = {{1010, 2000}, {1030, 2000}, {1030, 2010}, {1010, 2010}};
  TessMassProps parts[2] = {tess_poly_mass(left, 4), tess_poly_mass(right, 4)};
  TessMassProps c = tess_mass_combine(parts, 2);
  CHECK_NEAR(c.cx, m.cx, 1e-9);
  CHECK_REL(c.inertia, m.inertia, 1e-12);
  CHECK(tess_poly_is_convex(ccw, 4, 1e-12));
  CHECK(!tess_poly_is_convex(cw, 4, 1e-12));
  CHECK_NEAR(tess_convex_clip_rect_area(ccw, 4, 1020, 1990, 1040, 2005), 50, 1e-9);
}

static void convex_hull_of_random_points_contains_them(void) {
  TessTestRng rng = {12345};
  enum { N = 2000 };
  TessDVec2 *p = tess_alloc(sizeof *p * N), *h = tess_alloc(sizeof *h * N);
  for (int i = 0; i < N; i++) {
    double t = tess_rng_unit(&rng) * 2 * M_PI, r = sqrt(tess_rng_unit(&rng)) * 50;
    p[i] = tess_d2(r * cos(t), r * sin(t));
  }
  uint32_t k = tess_convex_hull(p, N, h);
  CHECK(k >= 3 && k < N);
  CHECK(tess_poly_is_convex(h, k, 0));
  for (int i = 0; i < N; i++) CHECK(tess_convex_contains(h, k, p[i], 1e-9));
  TessDVec2 c;
  double r;
  tess_min_enclosing_circle(h, k, &c, &r);
  CHECK(r <= 50.0 + 1e-9);
  uint32_t on = 0;
  for (uint32_t i = 0; i < k; i++) {
    double d = sqrt((h[i].x - c.x) * (h[i].x - c.x) + (h[i].y - c.y) * (h[i].y - c.y));
    CHECK(d <= r * (1 + 1e-9));
    if (d > r * (1 - 1e-9)) on++;
  }
  CHECK(on >= 2); /* the smallest circle touches at least two points */
  tess_free(p);
  tess_free(h);
}

/* ---- pixel mass and hull ---------------------------------------------------- */

static void pixel_mass_is_exact(void) {
  Shape shapes[16];
  uint32_t n = test_shapes(shapes);
  for (uint32_t i = 0; i < n; i++) {
    Raster r = raster(&shapes[i], 0);
    TessMassProps d = direct_mass(&r), m;
    TessError err;
    CHECK_OK(tess_mask_pixel_mass(r.view, 1, &m, &err), &err);
    CHECK_MSG(m.area == d.area, "%s", shapes[i].name);
    CHECK_NEAR(m.cx, d.cx, 1e-9 * d.cx);
    CHECK_NEAR(m.cy, d.cy, 1e-9 * d.cy);
    CHECK_REL(m.inertia, d.inertia, 1e-12);
    tess_free(r.px);
  }
}

/* Second moments by direct summation in long double over every pixel. */
static void direct_moments(const uint8_t *px, size_t stride, uint32_t w, uint32_t h, uint8_t threshold,
                           long double out[6]) {
  long double n = 0, sx = 0, sy = 0, xx = 0, yy = 0, xy = 0;
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++)
      if (px[(size_t)y * stride + (size_t)x * 4 + 3] >= threshold) {
        n += 1;
        sx += x + 0.5L;
        sy += y + 0.5L;
      }
  long double cx = sx / n, cy = sy / n;
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++)
      if (px[(size_t)y * stride + (size_t)x * 4 + 3] >= threshold) {
        long double dx = x + 0.5L - cx, dy = y + 0.5L - cy;
        xx += dx * dx + 1.0L / 12;
        yy += dy * dy + 1.0L / 12;
        xy += dx * dy;
      }
  out[0] = n;
  out[1] = cx;
  out[2] = cy;
  out[3] = xx;
  out[4] = yy;
  out[5] = xy;
}

static void check_moments(const TessMaskSecondMoments *m, const long double d[6], const char *what) {
  CHECK_MSG(m->area == (double)d[0], "%s", what);
  CHECK_NEAR(m->cx, (double)d[1], 1e-12 * (double)d[1]);
  CHECK_NEAR(m->cy, (double)d[2], 1e-12 * (double)d[2]);
  CHECK_MSG(fabs(m->ixx - (double)d[3]) <= 1e-12 * (double)d[3], "%s: ixx %.17g direct %.17Lg", what, m->ixx, d[3]);
  CHECK_MSG(fabs(m->iyy - (double)d[4]) <= 1e-12 * (double)d[4], "%s: iyy %.17g direct %.17Lg", what, m->iyy, d[4]);
  CHECK_MSG(fabs(m->ixy - (double)d[5]) <= 1e-12 * (double)(d[3] + d[4]), "%s: ixy %.17g direct %.17Lg", what, m->ixy,
            d[5]);
  CHECK_NEAR(m->inertia, m->ixx + m->iyy, 1e-12 * m->inertia);
  CHECK_NEAR(m->major + m->minor, m->inertia, 1e-9 * m->inertia);
  CHECK(m->major >= m->minor && m->minor >= 0);
  CHECK(m->angle > -M_PI / 2 && m->angle <= M_PI / 2);
  /* The axes diagonalise the tensor: spread along the major axis is major,
   * the cross term in the rotated frame vanishes. */
  double c = cos(m->angle), s = sin(m->angle);
  double along = m->ixx * c * c + 2 * m->ixy * c * s + m->iyy * s * s;
  double cross = (m->iyy - m->ixx) * c * s + m->ixy * (c * c - s * s);
  CHECK_NEAR(along, m->major, 1e-9 * m->inertia);
  CHECK_NEAR(cross, 0, 1e-9 * m->inertia);
}

static void pixel_moments_match_direct_summation(void) {
  Shape shapes[16];
  uint32_t n = test_shapes(shapes);
  for (uint32_t i = 0; i < n; i++) {
    Raster r = raster(&shapes[i], 12);
    long double d[6];
    direct_moments(r.px, r.stride, shapes[i].width, shapes[i].height, 1, d);
    TessMaskSecondMoments m;
    TessMassProps mass;
    TessError err;
    CHECK_OK(tess_mask_pixel_moments(r.view, 1, &m, &err), &err);
    CHECK_OK(tess_mask_pixel_mass(r.view, 1, &mass, &err), &err);
    check_moments(&m, d, shapes[i].name);
    CHECK(m.inertia == mass.inertia && m.cx == mass.cx && m.cy == mass.cy);
    /* The analytic axes: the ellipse's long axis at 0.3 rad, the rotated
     * rectangle's at 30 degrees (y down, towards +y), both within the
     * pixels' rounding; their spreads a b^3 pi / 4 style formulas within 2%. */
    if (strcmp(shapes[i].name, "ellipse") == 0) {
      CHECK_NEAR(m.angle, 0.3, 0.01);
      double a = shapes[i].a, b = shapes[i].b;
      CHECK_REL(m.major, M_PI * a * a * a * b / 4, 0.02);
      CHECK_REL(m.minor, M_PI * a * b * b * b / 4, 0.02);
    }
    if (strcmp(shapes[i].name, "rotated rectangle") == 0) {
      CHECK_NEAR(m.angle, M_PI / 6, 0.01);
      double w = 2 * shapes[i].a, h = 2 * shapes[i].b;
      CHECK_REL(m.major, w * w * w * h / 12, 0.02);
      CHECK_REL(m.minor, w * h * h * h / 12, 0.02);
    }
    tess_free(r.px);
  }
  /* Noise, a single pixel, a mirrored diagonal (negative product term), the
   * 16384-pixel line, a fully transparent image. */
  TessTestRng rng = {99};
  for (int iter = 0; iter < 20; iter++) {
    uint32_t w = 1 + tess_rng_below(&rng, 70), h = 1 + tess_rng_below(&rng, 70);
    uint8_t *px = tess_calloc((size_t)w * h, 4);
    for (uint32_t k = 0; k < w * h; k++) px[(size_t)k * 4 + 3] = (uint8_t)tess_rng_below(&rng, 256);
    TessImageView v = {w, h, (size_t)w * 4, px};
    uint8_t t = (uint8_t)(1 + tess_rng_below(&rng, 255));
    TessMaskSecondMoments m;
    TessError err;
    TessResult res = tess_mask_pixel_moments(v, t, &m, &err);
    bool any = false;
    for (uint32_t k = 0; k < w * h; k++) any |= px[(size_t)k * 4 + 3] >= t;
    if (!any) CHECK(res == TESS_ERR_EMPTY);
    else {
      long double d[6];
      direct_moments(px, (size_t)w * 4, w, h, t, d);
      CHECK_OK(res, &err);
      check_moments(&m, d, "noise");
    }
    tess_free(px);
  }
  uint8_t *px = tess_calloc(40 * 40, 4);
  TessImageView v = {40, 40, 160, px};
  TessMaskSecondMoments m;
  TessError err;
  CHECK(tess_mask_pixel_moments(v, 1, &m, &err) == TESS_ERR_EMPTY);
  CHECK(strcmp(err.detail, "no opaque pixel at threshold 1") == 0);
  px[(size_t)7 * 160 + 3 * 4 + 3] = 255;
  CHECK_OK(tess_mask_pixel_moments(v, 1, &m, &err), &err);
  CHECK(m.ixx == 1.0 / 12 && m.iyy == 1.0 / 12 && m.ixy == 0 && m.angle == 0 && m.cx == 3.5 && m.cy == 7.5);
  /* The anti-diagonal x + y = 39: spread along (1, -1), angle -45 degrees;
   * across it only each square's own 1/12 (a square's spread is the same along every axis). */
  px[(size_t)7 * 160 + 3 * 4 + 3] = 0;
  for (int i = 0; i < 40; i++) px[(size_t)i * 160 + (size_t)(39 - i) * 4 + 3] = 255;
  CHECK_OK(tess_mask_pixel_moments(v, 1, &m, &err), &err);
  long double d[6];
  direct_moments(px, 160, 40, 40, 1, d);
  check_moments(&m, d, "anti-diagonal");
  CHECK(m.ixy < 0);
  CHECK_NEAR(m.angle, -M_PI / 4, 1e-12);
  CHECK_NEAR(m.minor, 40.0 / 12, 1e-9);
  tess_free(px);
  const uint32_t L = 16384;
  px = tess_calloc(L, 4);
  for (uint32_t x = 0; x < L; x++) px[(size_t)x * 4 + 3] = 255;
  TessImageView line = {L, 1, (size_t)L * 4, px};
  CHECK_OK(tess_mask_pixel_moments(line, 1, &m, &err), &err);
  double nl = L;
  CHECK_REL(m.ixx, nl * nl * nl / 12, 1e-15); /* n (n^2 - 1) / 12 + n / 12 */
  CHECK(m.iyy == nl / 12 && m.ixy == 0 && m.angle == 0 && m.minor == nl / 12);
  tess_free(px);
}

static void hull_matches_analytic_hull(void) {
  Shape shapes[16];
  uint32_t n = test_shapes(shapes);
  enum { ROOM = 8192 };
  TessDVec2 *pts = tess_alloc(sizeof *pts * ROOM), *ah = tess_alloc(sizeof *ah * ROOM);
  for (uint32_t i = 0; i < n; i++) {
    Raster r = raster(&shapes[i], 0);
    TessMaskHull hull;
    TessError err;
    CHECK_OK(tess_mask_hull(r.view, 1, &hull, &err), &err);
    uint32_t np = shape_boundary(&shapes[i], pts, ROOM);
    uint32_t nh = tess_convex_hull(pts, np, ah);
    TessMassProps truth = tess_poly_mass(ah, nh), ours = tess_poly_mass(hull.v, hull.count);
    double per = perimeter(ah, nh);
    CHECK(tess_poly_is_convex(hull.v, hull.count, 0));
    CHECK_MSG(fabs(ours.area - truth.area) <= per * 0.75, "%s: hull area %.1f analytic %.1f perimeter %.1f",
              shapes[i].name, ours.area, truth.area, per);
    /* Every shape here is >= 128 px across in its narrowest direction. */
    CHECK_MSG(fabs(ours.inertia - truth.inertia) <= 0.03 * truth.inertia, "%s: inertia %.4g analytic %.4g (%+.2f%%)",
              shapes[i].name, ours.inertia, truth.inertia, 100 * (ours.inertia / truth.inertia - 1));
    CHECK_MSG(corners_outside(&r, hull.v, hull.count, 1e-9) == 0, "%s", shapes[i].name);
    /* The hull is tight: its vertices are pixel corners of opaque pixels. */
    for (uint32_t k = 0; k < hull.count; k++) CHECK(hull.v[k].x == floor(hull.v[k].x) && hull.v[k].y == floor(hull.v[k].y));
    TessMassProps d = direct_mass(&r);
    CHECK(hull.pixels.area == d.area);
    CHECK(ours.area >= d.area);
    tess_mask_hull_clear(&hull);
    tess_free(r.px);
  }
  tess_free(pts);
  tess_free(ah);
}

static void rotated_rectangle_matches_issue_figures(void) {
  /* The issue: a 360 x 140 rectangle rotated 30 degrees gives about +1.3%
   * area and +2.2% inertia with the exact pixel hull. */
  Shape shapes[16];
  test_shapes(shapes);
  Shape s = shapes[3];
  Raster r = raster(&s, 0);
  TessMaskHull hull;
  TessError err;
  CHECK_OK(tess_mask_hull(r.view, 1, &hull, &err), &err);
  TessMassProps m = tess_poly_mass(hull.v, hull.count);
  double area = 360.0 * 140.0, inertia = area * (360.0 * 360.0 + 140.0 * 140.0) / 12.0;
  CHECK_NEAR(m.area / area - 1, 0.013, 0.004);
  CHECK_NEAR(m.inertia / inertia - 1, 0.022, 0.006);
  tess_mask_hull_clear(&hull);
  tess_free(r.px);
}

static void simplified_hull_contains_pixels_within_n(void) {
  Shape shapes[16];
  uint32_t n = test_shapes(shapes);
  const uint32_t ns[] = {3, 4, 6, 8, 12};
  for (uint32_t i = 0; i < n; i++) {
    Raster r = raster(&shapes[i], 0);
    TessMaskHull hull;
    TessError err;
    CHECK_OK(tess_mask_hull(r.view, 1, &hull, &err), &err);
    double hull_area = tess_poly_signed_area(hull.v, hull.count);
    double prev_added = INFINITY;
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
      TessDVec2 *out = tess_alloc(sizeof *out * hull.count);
      uint32_t k = 0;
      double added = -1;
      CHECK_OK(tess_mask_simplify_hull(hull.v, hull.count, ns[j], out, &k, &added, &err), &err);
      CHECK_MSG(k <= ns[j] && k >= 3, "%s: %u vertices for N = %u", shapes[i].name, k, ns[j]);
      CHECK(tess_poly_is_convex(out, k, 1e-6));
      CHECK(added >= -1e-6);
      CHECK_NEAR(tess_poly_signed_area(out, k) - hull_area, added, 1e-6 * hull_area);
      CHECK_MSG(corners_outside(&r, out, k, 1e-6) == 0, "%s N=%u", shapes[i].name, ns[j]);
      /* More vertices never add more area (N >= 4: greedy removal is nested). */
      if (ns[j] >= 4) {
        CHECK(added <= prev_added + 1e-6);
        prev_added = added;
      }
      tess_free(out);
    }
    tess_mask_hull_clear(&hull);
    tess_free(r.px);
  }
}

static void simplified_rectangle_to_triangle(void) {
  /* A rectangle has no removable edge (its neighbours are parallel): N = 3
   * still gives a triangle around it, N = 4 keeps it exactly. */
  TessDVec2 rect[4] = {{0, 0}, {10, 0}, {10, 5}, {0, 5}}, out[4];
  uint32_t k;
  double added;
  TessError err;
  CHECK_OK(tess_mask_simplify_hull(rect, 4, 4, out, &k, &added, &err), &err);
  CHECK(k == 4 && added == 0);
  CHECK_OK(tess_mask_simplify_hull(rect, 4, 3, out, &k, &added, &err), &err);
  CHECK(k == 3);
  for (int i = 0; i < 4; i++) CHECK(tess_convex_contains(out, 3, rect[i], 1e-9));
  CHECK_NEAR(added, 50, 1e-9);
  CHECK(tess_mask_simplify_hull(rect, 4, 2, out, &k, &added, &err) == TESS_ERR_INVALID);
}

/* ---- pieces ----------------------------------------------------------------- */

static uint32_t centres_uncovered(const Raster *r, const TessMaskPieces *p) {
  uint32_t miss = 0;
  for (uint32_t y = 0; y < r->shape.height; y++)
    for (uint32_t x = 0; x < r->shape.width; x++) {
      if (!opaque(r, x, y)) continue;
      bool in = false;
      for (uint32_t i = 0; i < p->count && !in; i++)
        in = tess_convex_contains(p->v + p->start[i], p->start[i + 1] - p->start[i], tess_d2(x + 0.5, y + 0.5), 1e-9);
      if (!in) miss++;
    }
  return miss;
}

static void pieces_are_convex_and_cover_the_pixels(void) {
  Shape shapes[16];
  uint32_t n = test_shapes(shapes);
  const uint32_t ns[] = {8, 3, 5};
  for (uint32_t i = 0; i < n; i++) {
    Raster r = raster(&shapes[i], 0);
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
      TessMaskSettings s;
      tess_mask_settings_default(&s);
      s.mode = TESS_MASK_PIECES;
      s.max_vertices = ns[j];
      s.tolerance = 1.0;
      TessMaskPieces p;
      TessError err;
      CHECK_OK(tess_mask_pieces(r.view, &s, &p, &err), &err);
      CHECK(p.count > 0);
      for (uint32_t k = 0; k < p.count; k++) {
        uint32_t m = p.start[k + 1] - p.start[k];
        CHECK_MSG(m >= 3 && m <= ns[j], "%s: piece of %u vertices, N = %u", shapes[i].name, m, ns[j]);
        CHECK_MSG(tess_poly_is_convex(p.v + p.start[k], m, 1e-9), "%s: piece %u not convex", shapes[i].name, k);
      }
      CHECK_MSG(p.uncovered_area < 0.01 * p.pixels.area, "%s N=%u: uncovered %.1f of %.0f", shapes[i].name, ns[j],
                p.uncovered_area, p.pixels.area);
      /* Independent of the coverage arithmetic: pixel centres inside some piece. */
      uint32_t miss = centres_uncovered(&r, &p);
      CHECK_MSG(miss < 0.01 * p.pixels.area, "%s: %u pixel centres outside every piece", shapes[i].name, miss);
      /* The shape stays within the tolerance band: its area exceeds the
       * pixels' by at most the outline length x tolerance (generously 4 x
       * perimeter of the hull bounds it). */
      CHECK(p.shape.area >= p.pixels.area - p.uncovered_area - 1e-6);
      TessMaskHull hull;
      CHECK_OK(tess_mask_hull(r.view, 1, &hull, &err), &err);
      double hull_per = perimeter(hull.v, hull.count);
      CHECK_MSG(p.shape.area <= p.pixels.area + 2.0 * hull_per * s.tolerance, "%s: shape %.0f pixels %.0f",
                shapes[i].name, p.shape.area, p.pixels.area);
      tess_mask_hull_clear(&hull);
      if (strcmp(shapes[i].name, "two islands") == 0) CHECK(p.island_count == 2);
      else CHECK(p.island_count == 1);
      if (strcmp(shapes[i].name, "ring") == 0) {
        /* The hole stays a hole: no piece covers the ring's centre, and the
         * pieces' area is the ring's, not the disc's. */
        for (uint32_t k = 0; k < p.count; k++)
          CHECK(!tess_convex_contains(p.v + p.start[k], p.start[k + 1] - p.start[k], tess_d2(shapes[i].cx, shapes[i].cy), 0));
        CHECK(p.shape.area < 0.8 * M_PI * 100 * 100);
        /* Enclosing every pixel moves each boundary out by up to the
         * tolerance d: inertia grows by about 4 d (R^3 + r^3) / (R^4 - r^4). */
        double R = shapes[i].a, ri = shapes[i].b, d = s.tolerance;
        double bound = 4.0 * d * (R * R * R + ri * ri * ri) / (R * R * R * R - ri * ri * ri * ri);
        CHECK_MSG(p.shape.inertia >= p.pixels.inertia * 0.99 && p.shape.inertia <= p.pixels.inertia * (1.0 + bound),
                  "ring inertia %+.2f%% (bound %.2f%%)", 100 * (p.shape.inertia / p.pixels.inertia - 1), 100 * bound);
      }
      tess_mask_pieces_clear(&p);
    }
    tess_free(r.px);
  }
}

static void tolerance_zero_reproduces_the_pixels(void) {
  Shape shapes[16];
  uint32_t n = test_shapes(shapes);
  for (uint32_t i = 0; i < n; i++) {
    Raster r = raster(&shapes[i], 0);
    TessMaskSettings s;
    tess_mask_settings_default(&s);
    s.tolerance = 0;
    TessMaskPieces p;
    TessError err;
    CHECK_OK(tess_mask_pieces(r.view, &s, &p, &err), &err);
    CHECK_NEAR(p.shape.area, p.pixels.area, 1e-6 * p.pixels.area);
    CHECK_NEAR(p.uncovered_area, 0, 1e-6 * p.pixels.area);
    CHECK_REL(p.shape.inertia, p.pixels.inertia, 1e-9);
    CHECK_NEAR(p.shape.cx, p.pixels.cx, 1e-9 * p.pixels.cx);
    double pixel_area = p.pixels.area;
    tess_mask_pieces_clear(&p);
    /* The exact outline's loops enclose exactly the pixels. */
    TessMaskOutline o;
    CHECK_OK(tess_mask_outline(r.view, 1, 0.0, &o, &err), &err);
    double area = 0;
    for (uint32_t k = 0; k < o.loop_count; k++) {
      double a = tess_poly_signed_area(o.v + o.start[k], o.start[k + 1] - o.start[k]);
      CHECK(o.hole[k] == (a < 0));
      area += a;
    }
    CHECK_NEAR(area, pixel_area, 1e-9);
    tess_mask_outline_clear(&o);
    tess_free(r.px);
  }
}

static void largest_island_only_drops_the_smaller(void) {
  Shape shapes[16];
  test_shapes(shapes);
  Raster r = raster(&shapes[7], 0);
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  s.largest_island_only = true;
  TessMaskPieces p;
  TessError err;
  CHECK_OK(tess_mask_pieces(r.view, &s, &p, &err), &err);
  CHECK(p.island_count == 1);
  /* Everything kept is in the larger disc (left, radius 75). */
  for (uint32_t k = 0; k < p.start[p.count]; k++) CHECK(p.v[k].x < shapes[7].cx + 80);
  /* The dropped island is reported as uncovered: about pi 64^2. */
  CHECK_REL(p.uncovered_area, M_PI * 64 * 64, 0.03);
  tess_mask_pieces_clear(&p);
  tess_free(r.px);
}

static void noise_images_keep_the_invariants(void) {
  /* Random pixels: islands touching at corners, holes touching holes,
   * holes inside islands inside holes. Pieces stay convex and <= N; at
   * tolerance 0 they reproduce the pixels (up to the 2^-16 px nudges at
   * corners where pixels touch diagonally); at tolerance 1 they still cover
   * nearly everything. */
  TessTestRng rng = {777};
  for (int iter = 0; iter < 120; iter++) {
    uint32_t w = 1 + tess_rng_below(&rng, 60), h = 1 + tess_rng_below(&rng, 60);
    double density = tess_rng_unit(&rng);
    uint8_t *px = tess_calloc((size_t)w * h, 4);
    bool any = false;
    for (uint32_t i = 0; i < w * h; i++) {
      bool on = tess_rng_unit(&rng) < density;
      px[(size_t)i * 4 + 3] = on ? 255 : 0;
      any |= on;
    }
    TessImageView v = {w, h, (size_t)w * 4, px};
    for (int tol = 0; tol <= 1; tol++) {
      TessMaskSettings s;
      tess_mask_settings_default(&s);
      s.tolerance = tol;
      s.max_vertices = 3 + (uint32_t)(iter % 6);
      TessMaskPieces p;
      TessError err;
      TessResult r = tess_mask_pieces(v, &s, &p, &err);
      if (!any) {
        CHECK(r == TESS_ERR_EMPTY);
        continue;
      }
      CHECK_OK(r, &err);
      if (r != TESS_OK) continue;
      for (uint32_t k = 0; k < p.count; k++) {
        uint32_t m = p.start[k + 1] - p.start[k];
        CHECK_MSG(m >= 3 && m <= s.max_vertices && tess_poly_is_convex(p.v + p.start[k], m, 1e-9),
                  "%ux%u density %.2f: piece %u of %u vertices", w, h, density, k, m);
      }
      if (tol == 0) {
        CHECK_MSG(fabs(p.shape.area - p.pixels.area) <= 1e-4 * p.pixels.area, "%ux%u density %.2f: %.4f vs %.0f", w,
                  h, density, p.shape.area, p.pixels.area);
        CHECK(p.uncovered_area <= 1e-4 * p.pixels.area);
      } else {
        CHECK(p.uncovered_area <= 0.02 * p.pixels.area + 1.0);
      }
      tess_mask_pieces_clear(&p);
    }
    tess_free(px);
  }
}

static void many_holes_are_cut_into_regions(void) {
  /* A 300 x 300 plate with a 3 x 3 hole every 12 px (over 500 holes) and a
   * small separate island: too many holes to bridge in one polygon, so the
   * image is cut in regions; the result keeps every invariant. */
  const uint32_t S = 300;
  uint8_t *px = tess_calloc((size_t)S * S, 4);
  uint32_t hole_count = 0;
  for (uint32_t y = 0; y < S; y++)
    for (uint32_t x = 0; x < S; x++) {
      bool plate = x >= 4 && x < 280 && y >= 4 && y < 296;
      bool hole = x >= 12 && x < 272 && y >= 12 && y < 288 && x % 12 < 3 && y % 12 < 3;
      bool dot = x >= 288 && x < 296 && y >= 100 && y < 110;
      if (hole && x % 12 == 0 && y % 12 == 0) hole_count++;
      px[((size_t)y * S + x) * 4 + 3] = (plate && !hole) || dot ? 255 : 0;
    }
  CHECK(hole_count > 400);
  TessImageView v = {S, S, (size_t)S * 4, px};
  for (int variant = 0; variant < 3; variant++) {
    TessMaskSettings s;
    tess_mask_settings_default(&s);
    s.tolerance = variant == 0 ? 0.0 : 1.0;
    s.largest_island_only = variant == 2;
    TessMaskPieces p;
    TessError err;
    CHECK_OK(tess_mask_pieces(v, &s, &p, &err), &err);
    CHECK(p.island_count == (variant == 2 ? 1u : 2u));
    for (uint32_t k = 0; k < p.count; k++) {
      const TessDVec2 *pv = p.v + p.start[k];
      uint32_t m = p.start[k + 1] - p.start[k];
      CHECK(m >= 3 && m <= 8 && tess_poly_is_convex(pv, m, 1e-9));
      /* No piece covers a hole's centre. */
      for (uint32_t hy = 12; hy < 288; hy += 12)
        for (uint32_t hx = 12; hx < 272; hx += 12) CHECK(!tess_convex_contains(pv, m, tess_d2(hx + 1.5, hy + 1.5), 0));
      if (variant == 2) CHECK(pv[0].x <= 281);
    }
    double dot_area = 80;
    if (variant == 0) {
      CHECK_NEAR(p.shape.area, p.pixels.area, 1e-6 * p.pixels.area);
      CHECK_NEAR(p.uncovered_area, 0, 1e-6 * p.pixels.area);
    } else if (variant == 1) {
      CHECK(p.uncovered_area < 0.01 * p.pixels.area);
      CHECK(p.shape.area <= p.pixels.area * 1.05);
    } else {
      CHECK_NEAR(p.uncovered_area, dot_area, 1e-6);
    }
    tess_mask_pieces_clear(&p);
  }
  tess_free(px);
}

/* Counts, per pixel, the pieces holding its centre, by scanning each
 * piece row by row with a half-open rule ([left, right) across, edges
 * taken with their lower end first so neighbours compute the same x): the
 * pieces of one island tile it, so each centre they cover counts once. */
static void count_centres(const TessMaskPieces *p, uint32_t w, uint32_t h, uint8_t *count) {
  memset(count, 0, (size_t)w * h);
  for (uint32_t k = 0; k < p->count; k++) {
    const TessDVec2 *v = p->v + p->start[k];
    uint32_t n = p->start[k + 1] - p->start[k];
    double y0 = v[0].y, y1 = v[0].y;
    for (uint32_t i = 1; i < n; i++) {
      y0 = fmin(y0, v[i].y);
      y1 = fmax(y1, v[i].y);
    }
    for (double row = fmax(0.0, floor(y0 - 0.5)); row < h && row + 0.5 <= y1; row++) {
      double yc = row + 0.5, xl = INFINITY, xr = -INFINITY;
      for (uint32_t i = 0; i < n; i++) {
        TessDVec2 a = v[i], b = v[(i + 1) % n];
        if (b.y < a.y || (b.y == a.y && b.x < a.x)) {
          TessDVec2 t = a;
          a = b;
          b = t;
        }
        if (!(a.y <= yc && yc < b.y)) continue;
        double x = a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y);
        xl = fmin(xl, x);
        xr = fmax(xr, x);
      }
      for (double col = fmax(0.0, ceil(xl - 0.5)); col < w && col + 0.5 < xr; col++) {
        uint8_t *c = &count[(size_t)row * w + (size_t)col];
        if (*c < 255) (*c)++;
      }
    }
  }
}

/* Length of the exact outline (every loop), for the tolerance's area bound. */
static double outline_length(TessImageView v) {
  TessMaskOutline o;
  TessError err;
  CHECK_OK(tess_mask_outline(v, 1, 0.0, &o, &err), &err);
  double len = 0;
  for (uint32_t k = 0; k < o.loop_count; k++) len += perimeter(o.v + o.start[k], o.start[k + 1] - o.start[k]);
  tess_mask_outline_clear(&o);
  return len;
}

static void plate_with_4000_holes(void) {
  /* The benchmark's sponge: 1024 x 1024, a 3 x 3 hole every 16 px (3844
   * holes), cut into regions. Checked per pixel centre, independently of
   * the coverage arithmetic: the pieces tile the plate (every opaque
   * centre in exactly one piece), no piece holds a hole's pixel while the
   * holes survive the simplification (tolerance 0 and 1: squares are
   * exact), and when a larger tolerance closes them up the pieces' area
   * grows by at most the tolerance times the outline's length. */
  const uint32_t S = 1024;
  uint8_t *px = tess_calloc((size_t)S * S, 4), *count = tess_alloc((size_t)S * S);
  uint32_t holes = 0;
  for (uint32_t y = 0; y < S; y++)
    for (uint32_t x = 0; x < S; x++) {
      bool hole = x >= 16 && y >= 16 && x < 1008 && y < 1008 && x % 16 < 3 && y % 16 < 3;
      holes += hole && x % 16 == 0 && y % 16 == 0;
      px[((size_t)y * S + x) * 4 + 3] = hole ? 0 : 255;
    }
  CHECK(holes == 62 * 62);
  TessImageView v = {S, S, (size_t)S * 4, px};
  double length = outline_length(v);
  const double tolerances[] = {0.0, 1.0, 2.5};
  for (size_t t = 0; t < 3; t++) {
    TessMaskSettings s;
    tess_mask_settings_default(&s);
    s.tolerance = tolerances[t];
    s.max_vertices = t == 2 ? 3 : 8;
    TessMaskPieces p;
    TessError err;
    CHECK_OK(tess_mask_pieces(v, &s, &p, &err), &err);
    CHECK(p.island_count == 1);
    for (uint32_t k = 0; k < p.count; k++) {
      uint32_t m = p.start[k + 1] - p.start[k];
      CHECK_MSG(m >= 3 && m <= s.max_vertices && tess_poly_is_convex(p.v + p.start[k], m, 1e-9) &&
                    tess_poly_signed_area(p.v + p.start[k], m) > 0,
                "tolerance %g: piece %u of %u vertices", s.tolerance, k, m);
    }
    count_centres(&p, S, S, count);
    uint32_t missed = 0, twice = 0, in_holes = 0;
    for (size_t i = 0; i < (size_t)S * S; i++) {
      bool opaque_px = px[i * 4 + 3] != 0;
      missed += opaque_px && count[i] == 0;
      twice += count[i] > 1;
      in_holes += !opaque_px && count[i] > 0;
    }
    CHECK_MSG(missed == 0 && twice == 0, "tolerance %g: %u opaque centres missed, %u covered twice", s.tolerance,
              missed, twice);
    CHECK(p.uncovered_area <= 1e-6 * p.pixels.area);
    if (s.tolerance <= 1.0) {
      CHECK_MSG(in_holes == 0, "tolerance %g: %u hole pixels covered", s.tolerance, in_holes);
      CHECK_NEAR(p.shape.area, p.pixels.area, 1e-6 * p.pixels.area);
      /* Cut between the holes, the plate is rectangles between holes and
       * strips between rows of holes: not the fans of thin triangles a
       * corner-first ear walk leaves (10244 pieces, 2.7 per hole). */
      CHECK_MSG(p.count < 2 * holes, "tolerance %g: %u pieces for %u holes", s.tolerance, p.count, holes);
    } else {
      CHECK(p.shape.area >= p.pixels.area - 1e-6 * p.pixels.area);
      CHECK_MSG(p.shape.area <= p.pixels.area + s.tolerance * length, "shape %.0f, pixels %.0f, bound %.0f",
                p.shape.area, p.pixels.area, s.tolerance * length);
    }
    tess_mask_pieces_clear(&p);
  }
  tess_free(count);
  tess_free(px);
}

static void swiss_cheese_pieces_tile_the_pixels(void) {
  /* Round holes of random sizes and places in an ellipse (some touching,
   * some merging, small islands cut off between them): at tolerance 0 the
   * pieces hold exactly the opaque pixel centres, once each; at tolerance
   * 1 they still hold every opaque centre, and grow the area by at most
   * the tolerance times the outline's length. */
  const uint32_t W = 700, H = 600;
  uint8_t *px = tess_calloc((size_t)W * H, 4), *count = tess_alloc((size_t)W * H);
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      double dx = x + 0.5 - 350.0, dy = y + 0.5 - 300.0;
      px[((size_t)y * W + x) * 4 + 3] = dx * dx / (340.0 * 340.0) + dy * dy / (290.0 * 290.0) < 1 ? 255 : 0;
    }
  TessTestRng rng = {4242};
  for (int k = 0; k < 900; k++) {
    int cx = 30 + (int)tess_rng_below(&rng, 640), cy = 30 + (int)tess_rng_below(&rng, 540);
    int r = 1 + (int)tess_rng_below(&rng, 5);
    for (int y = cy - r; y <= cy + r; y++)
      for (int x = cx - r; x <= cx + r; x++)
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) px[((size_t)y * W + (size_t)x) * 4 + 3] = 0;
  }
  TessImageView v = {W, H, (size_t)W * 4, px};
  double length = outline_length(v);
  for (int tol = 0; tol <= 1; tol++) {
    TessMaskSettings s;
    tess_mask_settings_default(&s);
    s.tolerance = tol;
    TessMaskPieces p;
    TessError err;
    CHECK_OK(tess_mask_pieces(v, &s, &p, &err), &err);
    for (uint32_t k = 0; k < p.count; k++) {
      uint32_t m = p.start[k + 1] - p.start[k];
      CHECK(m >= 3 && m <= 8 && tess_poly_is_convex(p.v + p.start[k], m, 1e-9));
    }
    count_centres(&p, W, H, count);
    uint32_t missed = 0, wrong = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
      bool opaque_px = px[i * 4 + 3] != 0;
      missed += opaque_px && count[i] == 0;
      wrong += tol == 0 && count[i] != (opaque_px ? 1 : 0);
    }
    CHECK_MSG(missed == 0 && wrong == 0, "tolerance %d: %u opaque centres missed, %u centres counted wrong", tol,
              missed, wrong);
    CHECK(p.shape.area >= p.pixels.area - p.uncovered_area - 1e-6);
    CHECK_MSG(p.shape.area <= p.pixels.area + tol * length + 1e-3, "shape %.1f, pixels %.0f, bound %.1f",
              p.shape.area, p.pixels.area, tol * length);
    CHECK(p.uncovered_area <= 1e-3 * p.pixels.area);
    tess_mask_pieces_clear(&p);
  }
  tess_free(count);
  tess_free(px);
}

/* ---- Bad and tiny inputs --------------------------------------------------- */

static uint8_t *blank(uint32_t w, uint32_t h, size_t stride) {
  (void)w; /* the stride holds the row */
  return tess_calloc((size_t)h, stride);
}

static void transparent_image_is_empty(void) {
  uint8_t *px = blank(16, 16, 64);
  for (int i = 0; i < 16 * 16; i++) px[i * 4] = 200; /* colour without alpha */
  TessImageView v = {16, 16, 64, px};
  TessMaskHull hull;
  TessError err;
  CHECK(tess_mask_hull(v, 1, &hull, &err) == TESS_ERR_EMPTY);
  CHECK_MSG(strcmp(err.detail, "no opaque pixel at threshold 1") == 0, "%s", err.detail);
  px[3] = 100;
  CHECK(tess_mask_hull(v, 101, &hull, &err) == TESS_ERR_EMPTY);
  CHECK(strcmp(err.detail, "no opaque pixel at threshold 101") == 0);
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  s.threshold = 101;
  TessMaskPieces p;
  CHECK(tess_mask_pieces(v, &s, &p, &err) == TESS_ERR_EMPTY);
  CHECK_OK(tess_mask_hull(v, 100, &hull, &err), &err);
  CHECK(hull.pixels.area == 1);
  tess_mask_hull_clear(&hull);
  TessImageView zero = {0, 5, 0, px};
  CHECK(tess_mask_hull(zero, 1, &hull, &err) == TESS_ERR_EMPTY);
  TessImageView bad_stride = {16, 16, 60, px};
  CHECK(tess_mask_hull(bad_stride, 1, &hull, &err) == TESS_ERR_INVALID);
  s.threshold = 1;
  s.max_vertices = 2;
  CHECK(tess_mask_pieces(v, &s, &p, &err) == TESS_ERR_INVALID);
  s.max_vertices = 8;
  s.tolerance = NAN;
  CHECK(tess_mask_pieces(v, &s, &p, &err) == TESS_ERR_INVALID);
  tess_free(px);
}

static void one_pixel(void) {
  uint8_t *px = blank(9, 7, 36);
  px[(size_t)4 * 36 + 5 * 4 + 3] = 255; /* pixel (5, 4) */
  TessImageView v = {9, 7, 36, px};
  TessMaskHull hull;
  TessError err;
  CHECK_OK(tess_mask_hull(v, 1, &hull, &err), &err);
  CHECK(hull.count == 4);
  TessMassProps m = tess_poly_mass(hull.v, hull.count);
  CHECK_NEAR(m.area, 1, 0);
  CHECK_NEAR(m.cx, 5.5, 0);
  CHECK_NEAR(m.cy, 4.5, 0);
  CHECK_NEAR(hull.pixels.area, 1, 0);
  CHECK_NEAR(hull.pixels.cx, 5.5, 0);
  CHECK_NEAR(hull.pixels.inertia, 1.0 / 6.0, 1e-15);
  CHECK_NEAR(m.inertia, 1.0 / 6.0, 1e-12);
  CHECK(hull.x0 == 5 && hull.x1 == 6 && hull.y0 == 4 && hull.y1 == 5);
  TessDVec2 c;
  double r;
  tess_mask_fit_circle(&hull, &c, &r);
  CHECK_NEAR(c.x, 5.5, 1e-12);
  CHECK_NEAR(r, sqrt(0.5), 1e-12);
  tess_mask_hull_clear(&hull);
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  for (int tol = 0; tol <= 2; tol++) {
    s.tolerance = tol;
    TessMaskPieces p;
    CHECK_OK(tess_mask_pieces(v, &s, &p, &err), &err);
    CHECK(p.count >= 1);
    CHECK_NEAR(p.uncovered_area, 0, 1e-9);
    CHECK(p.shape.area >= 1 - 1e-9 && p.shape.area <= 1 + 4.0 * tol + 1e-9);
    tess_mask_pieces_clear(&p);
  }
  tess_free(px);
}

static void lines_and_extreme_aspect(void) {
  /* 1 x 16384, every pixel opaque: a rectangle of 1 x 16384. */
  const uint32_t L = 16384;
  for (int vertical = 0; vertical <= 1; vertical++) {
    uint32_t w = vertical ? 1 : L, h = vertical ? L : 1;
    size_t stride = (size_t)w * 4 + 12;
    uint8_t *px = tess_calloc(h, stride);
    for (uint32_t y = 0; y < h; y++)
      for (uint32_t x = 0; x < w; x++) px[(size_t)y * stride + (size_t)x * 4 + 3] = 255;
    /* Padding bytes that look opaque must be ignored. */
    for (uint32_t y = 0; y < h; y++) memset(px + (size_t)y * stride + (size_t)w * 4, 255, 12);
    TessImageView v = {w, h, stride, px};
    TessMaskHull hull;
    TessError err;
    CHECK_OK(tess_mask_hull(v, 1, &hull, &err), &err);
    CHECK(hull.count == 4);
    double n = L, exact = n * (n * n + 1.0) / 12.0;
    CHECK(hull.pixels.area == n);
    CHECK_REL(hull.pixels.inertia, exact, 1e-14);
    TessMassProps m = tess_poly_mass(hull.v, hull.count);
    CHECK_NEAR(m.area, n, 1e-9);
    CHECK_REL(m.inertia, exact, 1e-12);
    CHECK_NEAR(vertical ? hull.pixels.cy : hull.pixels.cx, n / 2, 1e-9);
    tess_mask_hull_clear(&hull);
    TessMaskSettings s;
    tess_mask_settings_default(&s);
    TessMaskPieces p;
    CHECK_OK(tess_mask_pieces(v, &s, &p, &err), &err);
    CHECK(p.count >= 1);
    CHECK_NEAR(p.uncovered_area, 0, 1e-6);
    for (uint32_t k = 0; k < p.count; k++) CHECK(tess_poly_is_convex(p.v + p.start[k], p.start[k + 1] - p.start[k], 1e-9));
    tess_mask_pieces_clear(&p);
    tess_free(px);
  }
  /* A one-pixel-wide diagonal line: pixels touch only at corners, so each is
   * its own island; the hull is still exact. */
  uint8_t *px = blank(40, 40, 160);
  for (int i = 0; i < 40; i++) px[(size_t)i * 160 + (size_t)i * 4 + 3] = 255;
  TessImageView v = {40, 40, 160, px};
  TessMaskHull hull;
  TessError err;
  CHECK_OK(tess_mask_hull(v, 1, &hull, &err), &err);
  /* (0,0) (1,0) (40,39) (40,40) (39,40) (0,1): the square minus two 39 x 39 triangles. */
  CHECK_NEAR(tess_poly_mass(hull.v, hull.count).area, 40 * 40 - 39 * 39, 1e-9);
  CHECK(hull.count == 6);
  tess_mask_hull_clear(&hull);
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  TessMaskPieces p;
  CHECK_OK(tess_mask_pieces(v, &s, &p, &err), &err);
  CHECK(p.island_count == 40);
  CHECK_NEAR(p.uncovered_area, 0, 1e-6);
  tess_mask_pieces_clear(&p);
  tess_free(px);
}

static void stride_padding_gives_identical_results(void) {
  Shape shapes[16];
  test_shapes(shapes);
  Raster a = raster(&shapes[5], 0), b = raster(&shapes[5], 52);
  /* Fill b's padding with opaque garbage. */
  for (uint32_t y = 0; y < b.shape.height; y++) memset(b.px + (size_t)y * b.stride + (size_t)b.shape.width * 4, 255, 52);
  TessMaskHull ha, hb;
  TessError err;
  CHECK_OK(tess_mask_hull(a.view, 1, &ha, &err), &err);
  CHECK_OK(tess_mask_hull(b.view, 1, &hb, &err), &err);
  CHECK(ha.count == hb.count && memcmp(ha.v, hb.v, sizeof *ha.v * ha.count) == 0);
  CHECK(memcmp(&ha.pixels, &hb.pixels, sizeof ha.pixels) == 0);
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  TessMaskPieces pa, pb;
  CHECK_OK(tess_mask_pieces(a.view, &s, &pa, &err), &err);
  CHECK_OK(tess_mask_pieces(b.view, &s, &pb, &err), &err);
  CHECK(pa.count == pb.count && pa.start[pa.count] == pb.start[pb.count]);
  CHECK(memcmp(pa.v, pb.v, sizeof *pa.v * pa.start[pa.count]) == 0);
  tess_mask_pieces_clear(&pa);
  tess_mask_pieces_clear(&pb);
  tess_mask_hull_clear(&ha);
  tess_mask_hull_clear(&hb);
  tess_free(a.px);
  tess_free(b.px);
}

/* ---- The one call for sprites, and tilesets ---------------------------------- */

static void sprite_mask_trace_fills_every_mode(void) {
  Shape shapes[16];
  test_shapes(shapes);
  Raster r = raster(&shapes[6], 0); /* the ring */
  TessMaskHull hull;
  TessError err;
  CHECK_OK(tess_mask_hull(r.view, 1, &hull, &err), &err);
  for (int mode = TESS_MASK_HULL; mode <= TESS_MASK_BOX; mode++) {
    TessSpriteMask m;
    memset(&m, 0, sizeof m);
    m.threshold = 1;
    m.mode = (uint8_t)mode;
    m.max_vertices = 8;
    m.tolerance = 1;
    m.manual = 1;
    CHECK_OK(tess_sprite_mask_trace(r.view, &m, &err), &err);
    CHECK(m.manual == 0);
    CHECK(m.hull_count == hull.count);
    CHECK(m.area == hull.pixels.area);
    CHECK_NEAR(m.centroid_x, hull.pixels.cx, 1e-12);
    CHECK_NEAR(m.inertia, hull.pixels.inertia, 1e-6);
    CHECK_NEAR(m.circle_radius, 100, 1.5);
    switch (mode) {
      case TESS_MASK_HULL:
        CHECK(m.piece_count == 0);
        CHECK_NEAR(m.shape_area, tess_poly_mass(hull.v, hull.count).area, 1e-6);
        break;
      case TESS_MASK_SIMPLIFIED:
        CHECK(m.piece_count == 1 && m.pieces[0].count <= 8);
        CHECK(m.added_area > 0);
        CHECK_NEAR(m.shape_area - m.added_area, tess_poly_mass(hull.v, hull.count).area, 1e-6);
        break;
      case TESS_MASK_PIECES:
        CHECK(m.piece_count > 1);
        CHECK(m.uncovered_area < 0.01 * m.area);
        CHECK(m.shape_area < 0.8 * M_PI * 100 * 100);
        break;
      case TESS_MASK_CIRCLE:
        CHECK(m.piece_count == 0);
        CHECK_NEAR(m.shape_area, M_PI * m.circle_radius * m.circle_radius, 1e-2);
        break;
      case TESS_MASK_BOX:
        CHECK(m.piece_count == 1 && m.pieces[0].count == 4);
        CHECK_NEAR(m.shape_area, (hull.x1 - hull.x0) * (double)(hull.y1 - hull.y0), 1e-9);
        break;
    }
    /* Tracing again replaces (and frees) what was there. */
    CHECK_OK(tess_sprite_mask_trace(r.view, &m, &err), &err);
    m.max_vertices = 9;
    CHECK(tess_sprite_mask_trace(r.view, &m, &err) == TESS_ERR_INVALID);
    tess_free(m.hull);
    tess_free(m.pieces);
  }
  tess_mask_hull_clear(&hull);
  tess_free(r.px);
}

static void tileset_traces_every_tile(void) {
  /* 4 x 2 tiles of 32 x 32, margin 2, spacing 1: empty, full, a slope, a
   * disc, a half-alpha tile under threshold 200, a ring, a corner notch, a
   * one-pixel dot. */
  const uint32_t T = 32, M = 2, S = 1, cols = 4, rows = 2;
  uint32_t w = 2 * M + cols * T + (cols - 1) * S, h = 2 * M + rows * T + (rows - 1) * S;
  size_t stride = (size_t)w * 4;
  uint8_t *px = tess_calloc(h, stride);
  /* The margin and spacing are opaque: they must never leak into a tile. */
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) px[(size_t)y * stride + x * 4 + 3] = 255;
  for (uint32_t t = 0; t < cols * rows; t++) {
    uint32_t ox = M + (t % cols) * (T + S), oy = M + (t / cols) * (T + S);
    for (uint32_t y = 0; y < T; y++)
      for (uint32_t x = 0; x < T; x++) {
        double cx = x + 0.5, cy = y + 0.5, d2 = (cx - 16) * (cx - 16) + (cy - 16) * (cy - 16);
        bool on = false;
        uint8_t a = 255;
        switch (t) {
          case 0: on = false; break;
          case 1: on = true; break;
          case 2: on = cy > T - cx; break;
          case 3: on = d2 <= 14 * 14; break;
          case 4:
            on = true;
            a = 100;
            break;
          case 5: on = d2 <= 14 * 14 && d2 >= 6 * 6; break;
          case 6: on = !(x >= 20 && y < 12); break;
          case 7: on = x == 9 && y == 20; break;
        }
        px[(size_t)(oy + y) * stride + (ox + x) * 4 + 3] = on ? a : 0;
      }
  }
  TessImageView v = {w, h, stride, px};
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  s.threshold = 128;
  TessTileInfo tiles[8];
  memset(tiles, 0, sizeof tiles);
  TessError err;
  CHECK_OK(tess_mask_trace_tiles(v, T, T, M, S, &s, tiles, 8, &err), &err);
  const uint8_t expect[8] = {TESS_TILE_COLLISION_NONE, TESS_TILE_COLLISION_FULL, TESS_TILE_COLLISION_TRACED,
                             TESS_TILE_COLLISION_TRACED, TESS_TILE_COLLISION_NONE, TESS_TILE_COLLISION_TRACED,
                             TESS_TILE_COLLISION_TRACED, TESS_TILE_COLLISION_TRACED};
  for (int t = 0; t < 8; t++) {
    CHECK_MSG(tiles[t].collision == expect[t], "tile %d: %u", t, tiles[t].collision);
    double area = 0;
    for (uint32_t k = 0; k < tiles[t].piece_count; k++) {
      TessPolygon *p = &tiles[t].pieces[k];
      CHECK(p->count >= 3 && p->count <= 8);
      TessDVec2 d[8];
      for (uint32_t i = 0; i < p->count; i++) {
        d[i] = tess_d2(p->v[i].x, p->v[i].y);
        CHECK(p->v[i].x >= 0.0f && p->v[i].x <= T && p->v[i].y >= 0.0f && p->v[i].y <= T); /* clipped to the tile */
      }
      CHECK(tess_poly_is_convex(d, p->count, 1e-4));
      area += tess_poly_mass(d, p->count).area;
    }
    if (t == 2) CHECK_NEAR(area, T * T / 2.0 + T / 2.0, 40); /* the slope's pixels: 528 */
    if (t == 6) CHECK_NEAR(area, T * T - 12 * 12, 1e-3);     /* a notch is exact */
    if (t == 7) CHECK(area >= 1 - 1e-6 && area <= 5);
  }
  /* Tracing again frees the old pieces; asking for more tiles than fit fails. */
  CHECK_OK(tess_mask_trace_tiles(v, T, T, M, S, &s, tiles, 8, &err), &err);
  CHECK(tess_mask_trace_tiles(v, T, T, M, S, &s, tiles, 9, &err) == TESS_ERR_INVALID);
  for (int t = 0; t < 8; t++) tess_free(tiles[t].pieces);
  tess_free(px);
}

/* The watched trace (the editor's worker): the same tiles as the plain one,
 * progress that only grows and ends at 1, and a cancel half way that leaves
 * the tiles exactly as they were. 16 x 16 tiles of 16 px of noise and discs. */
typedef struct WatchLog {
  double last;
  int calls, backwards;
  volatile int cancel;
  double cancel_at; /* set cancel once the fraction reaches this (> 1: never) */
} WatchLog;

static void watch_log(double fraction, void *user) {
  WatchLog *log = user;
  if (fraction < log->last) log->backwards++;
  log->last = fraction;
  log->calls++;
  if (fraction >= log->cancel_at) log->cancel = 1;
}

static bool same_tiles(const TessTileInfo *a, const TessTileInfo *b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (a[i].collision != b[i].collision || a[i].piece_count != b[i].piece_count) return false;
    if (a[i].piece_count && memcmp(a[i].pieces, b[i].pieces, sizeof *a[i].pieces * a[i].piece_count) != 0) return false;
  }
  return true;
}

static void watched_tile_trace_matches_and_cancels(void) {
  const uint32_t T = 16, cols = 16, n = cols * cols, side = T * cols;
  size_t stride = (size_t)side * 4;
  uint8_t *px = tess_calloc(side, stride);
  uint32_t seed = 12345;
  for (uint32_t t = 0; t < n; t++)
    for (uint32_t y = 0; y < T; y++)
      for (uint32_t x = 0; x < T; x++) {
        seed = seed * 1664525u + 1013904223u;
        double cx = x + 0.5 - T / 2.0, cy = y + 0.5 - T / 2.0;
        bool on = t % 3 == 0 ? (seed >> 28) < 7 : cx * cx + cy * cy <= (double)(t % 8 + 1) * (t % 8 + 1);
        px[(size_t)((t / cols) * T + y) * stride + ((t % cols) * T + x) * 4 + 3] = on ? 255 : 0;
      }
  TessImageView v = {side, side, stride, px};
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  s.mode = TESS_MASK_PIECES;
  TessTileInfo *plain = tess_calloc(n, sizeof *plain), *watched = tess_calloc(n, sizeof *watched);
  TessError err;
  uint32_t simplified_plain = 0, simplified_watched = 0;
  CHECK_OK(tess_mask_trace_tiles_report(v, T, T, 0, 0, &s, plain, n, &simplified_plain, &err), &err);
  WatchLog log = {0, 0, 0, 0, 2.0};
  TessMaskWatch watch = {&log.cancel, watch_log, &log};
  CHECK_OK(tess_mask_trace_tiles_watched(v, T, T, 0, 0, &s, watched, n, &simplified_watched, &watch, &err), &err);
  CHECK(same_tiles(plain, watched, n) && simplified_plain == simplified_watched);
  CHECK(log.calls >= (int)(n / 64) + 2 && log.backwards == 0 && log.last == 1.0);

  /* Cancel half way: the result code says so, the tiles keep the earlier trace (same pointers). */
  TessPolygon *before = watched[3].pieces;
  WatchLog half = {0, 0, 0, 0, 0.5};
  TessMaskWatch stop = {&half.cancel, watch_log, &half};
  TessMaskSettings other = s;
  other.threshold = 200; /* a different trace, so a partial write would show */
  CHECK(tess_mask_trace_tiles_watched(v, T, T, 0, 0, &other, watched, n, NULL, &stop, &err) == TESS_ERR_EMPTY);
  CHECK(strstr(err.detail, "cancelled") != NULL);
  CHECK(watched[3].pieces == before && same_tiles(plain, watched, n));
  CHECK(half.last < 1.0);
  /* Cancelled before it starts: nothing traced, nothing changed. */
  WatchLog at_once = {0, 0, 0, 1, 2.0};
  TessMaskWatch early = {&at_once.cancel, NULL, NULL};
  CHECK(tess_mask_trace_tiles_watched(v, T, T, 0, 0, &other, watched, n, NULL, &early, &err) == TESS_ERR_EMPTY);
  CHECK(same_tiles(plain, watched, n));
  for (uint32_t i = 0; i < n; i++) {
    tess_free(plain[i].pieces);
    tess_free(watched[i].pieces);
  }
  tess_free(plain);
  tess_free(watched);
  tess_free(px);
}

static void units_convert_per_body(void) {
  /* 100 x 50 px at 50 px/m = 2 x 1 m; density 3 kg/m^2 = 6 kg. */
  double area = 5000, inertia = 5000.0 * (100 * 100 + 50 * 50) / 12.0;
  CHECK_NEAR(tess_mask_mass_kg(area, 50, 3), 6.0, 1e-12);
  CHECK_NEAR(tess_mask_inertia_kgm2(inertia, 50, 3), 6.0 * (4 + 1) / 12.0, 1e-12);
}

/* ---- Pieces inside the exact hull ------------------------------------------- */

/* How far (px) the farthest of v[0..n) lies outside the convex polygon h
 * (0 when every point is inside or on it). */
static double outside_by(const TessDVec2 *h, uint32_t hn, const TessDVec2 *v, uint32_t n) {
  double worst = 0;
  for (uint32_t i = 0; i < hn; i++) {
    TessDVec2 a = h[i], b = h[(i + 1) % hn], e = tess_d2_sub(b, a);
    double len = sqrt(tess_d2_dot(e, e));
    for (uint32_t k = 0; k < n; k++) {
      double d = -tess_d2_orient(a, b, v[k]) / len;
      if (d > worst) worst = d;
    }
  }
  return worst;
}

/* Float storage rounds a coordinate c by up to |c| 2^-24. */
static double float_slack(const TessDVec2 *v, uint32_t n) {
  double m = 0;
  for (uint32_t k = 0; k < n; k++) m = fmax(m, fmax(fabs(v[k].x), fabs(v[k].y)));
  return 1e-6 + m * (double)FLT_EPSILON;
}

/* Pieces of the whole image: convex, <= N, inside the exact hull (1e-6 px),
 * covering the pixels, and their added area is what they are beyond the
 * pixels they cover. Returns the number of pieces. */
static uint32_t check_pieces_inside_hull(TessImageView v, const TessMaskSettings *s, const char *what) {
  TessMaskHull hull;
  TessMaskPieces p;
  TessError err;
  if (tess_mask_hull(v, s->threshold, &hull, &err) != TESS_OK) {
    CHECK_MSG(tess_mask_pieces(v, s, &p, &err) == TESS_ERR_EMPTY, "%s", what);
    return 0;
  }
  CHECK_OK(tess_mask_pieces(v, s, &p, &err), &err);
  double worst = 0, area = 0;
  for (uint32_t k = 0; k < p.count; k++) {
    const TessDVec2 *pv = p.v + p.start[k];
    uint32_t m = p.start[k + 1] - p.start[k];
    CHECK_MSG(m >= 3 && m <= s->max_vertices && tess_poly_is_convex(pv, m, 1e-9), "%s: piece %u of %u vertices",
              what, k, m);
    worst = fmax(worst, outside_by(hull.v, hull.count, pv, m));
    area += tess_poly_mass(pv, m).area;
  }
  CHECK_MSG(worst <= 1e-6, "%s (threshold %u, N %u, tolerance %g): a piece vertex %.3f px outside the exact hull", what,
            s->threshold, s->max_vertices, s->tolerance, worst);
  if (!s->largest_island_only) /* (the coin strip's second frame is a second island) */
    CHECK_MSG(p.uncovered_area < 0.01 * p.pixels.area, "%s: uncovered %.2f of %.0f", what, p.uncovered_area,
              p.pixels.area);
  /* Pixel centres, counted independently of the coverage arithmetic. */
  uint32_t miss = 0;
  for (uint32_t y = 0; y < v.height; y++)
    for (uint32_t x = 0; x < v.width; x++) {
      if (v.pixels[(size_t)y * v.stride + (size_t)x * 4 + 3] < s->threshold) continue;
      bool in = false;
      for (uint32_t k = 0; k < p.count && !in; k++)
        in = tess_convex_contains(p.v + p.start[k], p.start[k + 1] - p.start[k], tess_d2(x + 0.5, y + 0.5), 1e-9);
      miss += !in;
    }
  if (!s->largest_island_only) CHECK_MSG(miss < 0.01 * p.pixels.area, "%s: %u pixel centres uncovered", what, miss);
  /* Added area: the pieces' area beyond the opaque area they cover. */
  CHECK_NEAR(p.shape.area, area, 1e-9 * area);
  CHECK_MSG(fabs(p.added_area - (area - (p.pixels.area - p.uncovered_area))) <= 1e-6 * area,
            "%s: added %.4f, pieces %.4f, pixels %.0f, uncovered %.4f", what, p.added_area, area, p.pixels.area,
            p.uncovered_area);
  CHECK(p.added_area >= 0);
  uint32_t count = p.count;
  tess_mask_pieces_clear(&p);
  tess_mask_hull_clear(&hull);
  return count;
}

static void pieces_stay_inside_the_exact_hull(void) {
  Shape shapes[16];
  uint32_t n = test_shapes(shapes);
  const uint32_t ns[] = {8, 3, 5};
  const double tols[] = {1.0, 2.5};
  for (uint32_t i = 0; i < n; i++) {
    Raster r = raster(&shapes[i], 0);
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
      for (size_t t = 0; t < sizeof tols / sizeof tols[0]; t++) {
        TessMaskSettings s;
        tess_mask_settings_default(&s);
        s.mode = TESS_MASK_PIECES;
        s.max_vertices = ns[j];
        s.tolerance = tols[t];
        check_pieces_inside_hull(r.view, &s, shapes[i].name);
      }
    tess_free(r.px);
  }
  /* Noise: many islands, pinched corners, holes in holes. */
  TessTestRng rng = {4242};
  for (int iter = 0; iter < 40; iter++) {
    uint32_t w = 1 + tess_rng_below(&rng, 48), h = 1 + tess_rng_below(&rng, 48);
    double density = tess_rng_unit(&rng);
    uint8_t *px = tess_calloc((size_t)w * h, 4);
    for (uint32_t k = 0; k < w * h; k++) px[(size_t)k * 4 + 3] = tess_rng_unit(&rng) < density ? 255 : 0;
    TessImageView v = {w, h, (size_t)w * 4, px};
    TessMaskSettings s;
    tess_mask_settings_default(&s);
    s.max_vertices = 3 + (uint32_t)(iter % 6);
    s.tolerance = 1.0 + (iter % 3) * 0.5;
    check_pieces_inside_hull(v, &s, "noise");
    tess_free(px);
  }
}

/* The demo's checked-in art, decoded by core/image. */
static bool load_demo_art(const char *file, TessImage *img) {
  const char *root = getenv("TESS_SOURCE_ROOT");
  char path[4096];
  snprintf(path, sizeof path, "%s/data/demo/art/%s", root ? root : ".", file);
  TessError err;
  TessResult r = tess_png_load(path, img, &err);
  CHECK_OK(r, &err);
  return r == TESS_OK;
}

static void demo_sprites_pieces_stay_inside_the_hull(void) {
  /* The report: at tolerance 1 the star's pieces reached 2.65 px and the
   * crate's 1.37 px past the exact hull, while 0 area was reported added. */
  const char *files[] = {"star.png", "crate.png", "rock.png", "barrel.png", "ball.png", "coin.png"};
  const uint8_t thresholds[] = {1, 128, 255};
  const uint32_t ns[] = {8, 5, 3};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    TessImage img;
    if (!load_demo_art(files[f], &img)) continue;
    TessImageView v = tess_image_view(&img);
    for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++)
      for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
        TessMaskSettings s;
        tess_mask_settings_default(&s);
        s.mode = TESS_MASK_PIECES;
        s.threshold = thresholds[t];
        s.max_vertices = ns[j];
        s.tolerance = 1.0;
        check_pieces_inside_hull(v, &s, files[f]);
        s.largest_island_only = true;
        check_pieces_inside_hull(v, &s, files[f]);
      }
    /* The one call the editor and the demo use: float pieces inside the
     * hull (up to float rounding), the added area reported. */
    TessSpriteMask m;
    memset(&m, 0, sizeof m);
    m.threshold = 1;
    m.mode = TESS_MASK_PIECES;
    m.max_vertices = 8;
    m.tolerance = 1;
    TessError err;
    CHECK_OK(tess_sprite_mask_trace(v, &m, &err), &err);
    TessMaskHull hull;
    CHECK_OK(tess_mask_hull(v, 1, &hull, &err), &err);
    double area = 0;
    for (uint32_t k = 0; k < m.piece_count; k++) {
      TessDVec2 d[TESS_POLY_MAX];
      CHECK(m.pieces[k].count >= 3 && m.pieces[k].count <= 8);
      for (uint32_t i = 0; i < m.pieces[k].count; i++) d[i] = tess_d2(m.pieces[k].v[i].x, m.pieces[k].v[i].y);
      double out = outside_by(hull.v, hull.count, d, m.pieces[k].count);
      CHECK_MSG(out <= float_slack(d, m.pieces[k].count), "%s: stored piece %u %.3g px outside the hull", files[f], k,
                out);
      area += tess_poly_mass(d, m.pieces[k].count).area;
    }
    CHECK_NEAR(m.shape_area, area, 1e-4 * area);
    CHECK_NEAR(m.added_area, m.shape_area - (m.area - m.uncovered_area), 1e-6 * m.shape_area);
    CHECK_MSG(m.added_area > 0, "%s: added area %g", files[f], m.added_area);
    tess_mask_hull_clear(&hull);
    tess_free(m.hull);
    tess_free(m.pieces);
    tess_image_clear(&img);
  }
}

static void demo_tileset_pieces_stay_inside_their_tiles(void) {
  /* terrain.png: 8 x 2 tiles of 32 x 32, traced as the demo generator does
   * (threshold 255, pieces, N 8, tolerance 1) and at other thresholds.
   * The rounded corner used to reach (-2, 32) and (32.45, 32). */
  TessImage img;
  if (!load_demo_art("terrain.png", &img)) return;
  const uint32_t T = 32, count = (img.width / T) * (img.height / T);
  const uint8_t thresholds[] = {255, 128, 1};
  const uint32_t ns[] = {8, 4};
  TessTileInfo *tiles = tess_calloc(count, sizeof *tiles);
  uint32_t traced = 0;
  for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++)
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
      TessMaskSettings s;
      tess_mask_settings_default(&s);
      s.mode = TESS_MASK_PIECES;
      s.threshold = thresholds[t];
      s.max_vertices = ns[j];
      s.tolerance = 1.0;
      TessError err;
      CHECK_OK(tess_mask_trace_tiles(tess_image_view(&img), T, T, 0, 0, &s, tiles, count, &err), &err);
      for (uint32_t i = 0; i < count; i++) {
        if (tiles[i].collision != TESS_TILE_COLLISION_TRACED) continue;
        traced++;
        TessImageView tv = {T, T, img.stride, img.pixels + (size_t)(i / (img.width / T)) * T * img.stride + (size_t)(i % (img.width / T)) * T * 4};
        TessMaskHull hull;
        CHECK_OK(tess_mask_hull(tv, s.threshold, &hull, &err), &err);
        uint32_t miss = 0;
        for (uint32_t y = 0; y < T; y++)
          for (uint32_t x = 0; x < T; x++) {
            if (tv.pixels[(size_t)y * tv.stride + (size_t)x * 4 + 3] < s.threshold) continue;
            bool in = false;
            for (uint32_t k = 0; k < tiles[i].piece_count && !in; k++) {
              TessDVec2 d[TESS_POLY_MAX];
              for (uint32_t q = 0; q < tiles[i].pieces[k].count; q++)
                d[q] = tess_d2(tiles[i].pieces[k].v[q].x, tiles[i].pieces[k].v[q].y);
              in = tess_convex_contains(d, tiles[i].pieces[k].count, tess_d2(x + 0.5, y + 0.5), 1e-6);
            }
            miss += !in;
          }
        CHECK_MSG(miss < 0.01 * hull.pixels.area, "tile %u threshold %u: %u pixel centres uncovered", i, s.threshold,
                  miss);
        for (uint32_t k = 0; k < tiles[i].piece_count; k++) {
          const TessPolygon *p = &tiles[i].pieces[k];
          CHECK(p->count >= 3 && p->count <= ns[j]);
          TessDVec2 d[TESS_POLY_MAX];
          for (uint32_t q = 0; q < p->count; q++) {
            d[q] = tess_d2(p->v[q].x, p->v[q].y);
            CHECK_MSG(p->v[q].x >= 0.0f && p->v[q].x <= (float)T && p->v[q].y >= 0.0f && p->v[q].y <= (float)T,
                      "tile %u threshold %u N %u: vertex (%g, %g) outside the tile square", i, s.threshold, ns[j],
                      p->v[q].x, p->v[q].y);
          }
          CHECK(tess_poly_is_convex(d, p->count, 1e-4));
          double out = outside_by(hull.v, hull.count, d, p->count);
          CHECK_MSG(out <= float_slack(d, p->count), "tile %u threshold %u: a vertex %.3g px outside its hull", i,
                    s.threshold, out);
        }
        tess_mask_hull_clear(&hull);
      }
    }
  CHECK(traced > 6); /* slopes, the rounded corner, the plank at least */
  for (uint32_t i = 0; i < count; i++) tess_free(tiles[i].pieces);
  tess_free(tiles);
  tess_image_clear(&img);
}

/* ---- Chipmunk2D cross-check ------------------------------------------------- */

static void chipmunk_agrees_on_polygon_formulas(void) {
#ifdef TESS_HAVE_CHIPMUNK
  Shape shapes[16];
  uint32_t n = test_shapes(shapes);
  for (uint32_t i = 0; i < n; i++) {
    Raster r = raster(&shapes[i], 0);
    TessMaskHull hull;
    TessError err;
    CHECK_OK(tess_mask_hull(r.view, 1, &hull, &err), &err);
    cpVect *cv = tess_alloc(sizeof *cv * hull.count);
    for (uint32_t k = 0; k < hull.count; k++) cv[k] = cpv(hull.v[k].x, hull.v[k].y);
    TessMassProps m = tess_poly_mass(hull.v, hull.count);
    double area = cpAreaForPoly((int)hull.count, cv, 0.0);
    cpVect c = cpCentroidForPoly((int)hull.count, cv);
    double moment = cpMomentForPoly(m.area, (int)hull.count, cv, cpvneg(c), 0.0);
    CHECK_REL(area, m.area, 1e-9);
    CHECK_REL(c.x, m.cx, 1e-9);
    CHECK_REL(c.y, m.cy, 1e-9);
    CHECK_REL(moment, m.inertia, 1e-9);
    /* The simplified hull and every convex piece too. */
    TessDVec2 *sv = tess_alloc(sizeof *sv * hull.count);
    uint32_t sn = 0;
    double added;
    CHECK_OK(tess_mask_simplify_hull(hull.v, hull.count, 8, sv, &sn, &added, &err), &err);
    TessMaskSettings s;
    tess_mask_settings_default(&s);
    TessMaskPieces p;
    CHECK_OK(tess_mask_pieces(r.view, &s, &p, &err), &err);
    for (uint32_t k = 0; k <= p.count; k++) {
      const TessDVec2 *pv = k < p.count ? p.v + p.start[k] : sv;
      uint32_t pn = k < p.count ? p.start[k + 1] - p.start[k] : sn;
      cpVect q[TESS_MASK_MAX_VERTICES];
      for (uint32_t j = 0; j < pn; j++) q[j] = cpv(pv[j].x, pv[j].y);
      TessMassProps pm = tess_poly_mass(pv, pn);
      cpVect pc = cpCentroidForPoly((int)pn, q);
      CHECK_REL(cpAreaForPoly((int)pn, q, 0.0), pm.area, 1e-9);
      CHECK_REL(pc.x, pm.cx, 1e-9);
      CHECK_REL(pc.y, pm.cy, 1e-9);
      CHECK_REL(cpMomentForPoly(pm.area, (int)pn, q, cpvneg(pc), 0.0), pm.inertia, 1e-9);
    }
    tess_mask_pieces_clear(&p);
    tess_free(sv);
    tess_free(cv);
    tess_mask_hull_clear(&hull);
    tess_free(r.px);
  }
#else
  fprintf(stderr, "chipmunk2d not found: cross-check skipped\n");
#endif
}

TESS_TEST_MAIN(TEST(polygon_mass_matches_rectangle_formulas), TEST(convex_hull_of_random_points_contains_them),
               TEST(pixel_mass_is_exact), TEST(pixel_moments_match_direct_summation), TEST(hull_matches_analytic_hull), TEST(rotated_rectangle_matches_issue_figures),
               TEST(simplified_hull_contains_pixels_within_n), TEST(simplified_rectangle_to_triangle),
               TEST(pieces_are_convex_and_cover_the_pixels), TEST(tolerance_zero_reproduces_the_pixels),
               TEST(largest_island_only_drops_the_smaller), TEST(noise_images_keep_the_invariants),
               TEST(many_holes_are_cut_into_regions), TEST(plate_with_4000_holes),
               TEST(swiss_cheese_pieces_tile_the_pixels), TEST(transparent_image_is_empty), TEST(one_pixel),
               TEST(lines_and_extreme_aspect), TEST(stride_padding_gives_identical_results),
               TEST(sprite_mask_trace_fills_every_mode), TEST(tileset_traces_every_tile), TEST(watched_tile_trace_matches_and_cancels), TEST(units_convert_per_body), TEST(pieces_stay_inside_the_exact_hull),
               TEST(demo_sprites_pieces_stay_inside_the_hull), TEST(demo_tileset_pieces_stay_inside_their_tiles),
               TEST(chipmunk_agrees_on_polygon_formulas))
