/* Analytic shapes rasterised for the mask tests and benchmarks: a pixel is
 * opaque when its centre lies inside the shape. Each shape also gives a
 * fine polygon of its boundary, whose convex hull is the analytic hull. */
#ifndef TESS_TEST_SHAPES_H
#define TESS_TEST_SHAPES_H

#include <stdlib.h>
#include <string.h>

#include "tessera/geom.h"
#include "tessera/image.h"

typedef struct Shape Shape;
typedef bool (*ShapeInside)(const Shape *s, double x, double y);

#define SHAPE_MAX_POLY 8
struct Shape {
  const char *name;
  uint32_t width, height;
  ShapeInside inside;
  double cx, cy, a, b, angle, r2, dx; /* parameters, per shape */
  uint32_t poly_count;
  TessDVec2 poly[SHAPE_MAX_POLY];
};

/* RGBA8 buffer (tess_alloc'ed) with alpha 255 inside, 0 outside; colour
 * bytes are noise so that only alpha matters. */
static inline uint8_t *shape_raster(const Shape *s, size_t stride) {
  uint8_t *px = tess_calloc((size_t)s->height, stride);
  if (!px) return NULL;
  for (uint32_t y = 0; y < s->height; y++)
    for (uint32_t x = 0; x < s->width; x++) {
      uint8_t *p = px + (size_t)y * stride + (size_t)x * 4;
      p[0] = (uint8_t)(x * 7);
      p[1] = (uint8_t)(y * 13);
      p[2] = 99;
      p[3] = s->inside(s, x + 0.5, y + 0.5) ? 255 : 0;
    }
  return px;
}

static inline bool in_ellipse(const Shape *s, double x, double y) {
  double c = cos(s->angle), sn = sin(s->angle);
  double u = (x - s->cx) * c + (y - s->cy) * sn, v = -(x - s->cx) * sn + (y - s->cy) * c;
  return (u * u) / (s->a * s->a) + (v * v) / (s->b * s->b) <= 1.0;
}

static inline bool in_box(const Shape *s, double x, double y) {
  double c = cos(s->angle), sn = sin(s->angle);
  double u = (x - s->cx) * c + (y - s->cy) * sn, v = -(x - s->cx) * sn + (y - s->cy) * c;
  return fabs(u) <= s->a && fabs(v) <= s->b;
}

static inline bool in_poly(const Shape *s, double x, double y) {
  return tess_poly_contains(s->poly, s->poly_count, tess_d2(x, y));
}

static inline bool in_ring(const Shape *s, double x, double y) {
  double d2 = (x - s->cx) * (x - s->cx) + (y - s->cy) * (y - s->cy);
  return d2 <= s->a * s->a && d2 >= s->b * s->b;
}

static inline bool in_two_discs(const Shape *s, double x, double y) {
  double d1 = (x - s->cx) * (x - s->cx) + (y - s->cy) * (y - s->cy);
  double d2 = (x - s->cx - s->dx) * (x - s->cx - s->dx) + (y - s->cy) * (y - s->cy);
  return d1 <= s->a * s->a || d2 <= s->b * s->b;
}

/* Points on the boundary of the shape (for its analytic convex hull);
 * returns the count written (room for `room`). */
static inline uint32_t shape_boundary(const Shape *s, TessDVec2 *out, uint32_t room) {
  uint32_t n = 0;
  if (s->inside == in_poly) {
    for (uint32_t i = 0; i < s->poly_count && n < room; i++) out[n++] = s->poly[i];
    return n;
  }
  if (s->inside == in_box) {
    double c = cos(s->angle), sn = sin(s->angle);
    double us[4] = {-s->a, s->a, s->a, -s->a}, vs[4] = {-s->b, -s->b, s->b, s->b};
    for (int i = 0; i < 4; i++) out[n++] = tess_d2(s->cx + us[i] * c - vs[i] * sn, s->cy + us[i] * sn + vs[i] * c);
    return n;
  }
  uint32_t k = room / 2;
  for (uint32_t i = 0; i < k; i++) {
    double t = 2.0 * M_PI * i / k;
    if (s->inside == in_two_discs) {
      out[n++] = tess_d2(s->cx + s->a * cos(t), s->cy + s->a * sin(t));
      out[n++] = tess_d2(s->cx + s->dx + s->b * cos(t), s->cy + s->b * sin(t));
    } else {
      double ra = s->a, rb = s->inside == in_ring ? s->a : s->b;
      double u = ra * cos(t), v = rb * sin(t), c = cos(s->angle), sn = sin(s->angle);
      out[n++] = tess_d2(s->cx + u * c - v * sn, s->cy + u * sn + v * c);
    }
  }
  return n;
}

/* The test shapes (>= 128 px across in their narrowest direction where
 * the inertia bound applies, as the issue sets it). */
static inline uint32_t test_shapes(Shape *out) {
  uint32_t n = 0;
  Shape s;
  memset(&s, 0, sizeof s);
  s = (Shape){.name = "circle", .width = 260, .height = 262, .inside = in_ellipse, .cx = 128.3, .cy = 130.7, .a = 100, .b = 100};
  out[n++] = s;
  s = (Shape){.name = "ellipse", .width = 340, .height = 200, .inside = in_ellipse, .cx = 170.2, .cy = 99.6, .a = 150, .b = 80, .angle = 0.3};
  out[n++] = s;
  s = (Shape){.name = "rectangle", .width = 240, .height = 180, .inside = in_box, .cx = 120.4, .cy = 90.3, .a = 100, .b = 70};
  out[n++] = s;
  s = (Shape){.name = "rotated rectangle", .width = 420, .height = 330, .inside = in_box, .cx = 210.1, .cy = 165.2, .a = 180, .b = 70, .angle = M_PI / 6};
  out[n++] = s;
  s = (Shape){.name = "triangle", .width = 300, .height = 260, .inside = in_poly, .poly_count = 3, .poly = {{10.3, 250.2}, {290.7, 240.9}, {140.2, 8.4}}};
  out[n++] = s;
  s = (Shape){.name = "L-shape", .width = 300, .height = 300, .inside = in_poly, .poly_count = 6, .poly = {{10.5, 10.5}, {150.2, 10.5}, {150.2, 150.7}, {290.1, 150.7}, {290.1, 290.3}, {10.5, 290.3}}};
  out[n++] = s;
  s = (Shape){.name = "ring", .width = 230, .height = 230, .inside = in_ring, .cx = 115.5, .cy = 114.2, .a = 100, .b = 55};
  out[n++] = s;
  s = (Shape){.name = "two islands", .width = 400, .height = 200, .inside = in_two_discs, .cx = 90.2, .cy = 100.1, .a = 75, .b = 64, .dx = 210};
  out[n++] = s;
  return n;
}

#endif
