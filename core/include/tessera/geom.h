/* Tessera core/geom: double-precision polygon geometry for mask analysis and
 * mass properties: signed area, centroid, moment of inertia, convex hulls,
 * convexity and containment tests.
 *
 * Orientation: a polygon is "counter-clockwise" when its signed area
 * sum(x_i * y_{i+1} - x_{i+1} * y_i) / 2 is positive (the convention of
 * Box2D and Chipmunk2D). In Tessera's y-down screen space such a polygon
 * appears clockwise on screen; the arithmetic does not care. */
#ifndef TESSERA_GEOM_H
#define TESSERA_GEOM_H

#include "tessera/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Mass properties per unit density: area, centre of mass, and the polar
 * moment of inertia about the centre of mass (area-weighted, so the value in
 * kg m^2 is density * inertia once converted to metres). */
typedef struct TessMassProps {
  double area;
  double cx, cy;
  double inertia;
} TessMassProps;

/* ---- Polygons of a shape (float, pixels or metres) --------------------- */

#define TESS_POLY_MAX 8 /* vertices of one convex piece (fits Box2D-style engines) */

/* One convex polygon of at most 8 vertices; counter-clockwise in screen
 * terms is not assumed: vertices are in order around the polygon. */
typedef struct TessPolygon {
  uint32_t count;
  TessVec2 v[TESS_POLY_MAX];
} TessPolygon;

/* ---- A body's shapes: validation and mass (core/geom/shape.c) ---------- */

/* The one validation of a collision polygon (physics, scene and the tile map
 * call it): 3..8 finite points (|x|, |y| <= 1e6) in order around it, either
 * winding, convex, no two coinciding, no three collinear in a row, no
 * self-intersection, area > 0. TESS_ERR_INVALID names the point. */
TessResult tess_polygon_check(const TessVec2 *points, uint32_t count, TessError *err);

/* Drops repeated points (closer than eps) and collinear ones in place;
 * returns the new count. */
uint32_t tess_polygon_clean(TessVec2 *points, uint32_t count, float eps);
/* Reverses (as v[n-1-k]) a polygon whose shoelace sum is negative, so every
 * polygon of a scene and a .tlv has one orientation: clockwise on screen,
 * y down (FORMAT.md 3.2), as the physics orders a shape's points. */
void tess_polygon_orient(TessVec2 *points, uint32_t count);

/* The one shape-mass implementation (physics, the pack writer and the
 * editor call it): area, centroid and polar inertia about the centroid, per
 * unit density, in double. A polygon is a triangle fan about its first
 * point (either winding; no area gives all zeros). */
TessMassProps tess_circle_mass(TessDVec2 center, double radius);
TessMassProps tess_capsule_mass(TessDVec2 a, TessDVec2 b, double radius);
TessMassProps tess_polygon_mass(const TessVec2 *points, uint32_t count);

static inline TessDVec2 tess_d2(double x, double y) {
  TessDVec2 v = {x, y};
  return v;
}
static inline TessDVec2 tess_d2_sub(TessDVec2 a, TessDVec2 b) { return tess_d2(a.x - b.x, a.y - b.y); }
static inline TessDVec2 tess_d2_add(TessDVec2 a, TessDVec2 b) { return tess_d2(a.x + b.x, a.y + b.y); }
static inline double tess_d2_cross(TessDVec2 a, TessDVec2 b) { return a.x * b.y - a.y * b.x; }
static inline double tess_d2_dot(TessDVec2 a, TessDVec2 b) { return a.x * b.x + a.y * b.y; }
/* Cross product of (b - a) and (c - a): > 0 when a, b, c turn counter-clockwise. */
static inline double tess_d2_orient(TessDVec2 a, TessDVec2 b, TessDVec2 c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

/* Signed area (positive for counter-clockwise). */
double tess_poly_signed_area(const TessDVec2 *v, uint32_t count);

/* Area, centroid and inertia about the centroid of a simple polygon of
 * either orientation (the area is reported positive). Sums are taken
 * relative to the first vertex so large coordinates keep their precision.
 * A polygon of zero area gives area 0, the mean of its vertices as
 * centroid, and inertia 0. */
TessMassProps tess_poly_mass(const TessDVec2 *v, uint32_t count);

/* Mass properties of a union of disjoint parts (parallel axis theorem). */
TessMassProps tess_mass_combine(const TessMassProps *parts, uint32_t count);

/* The same properties about another point (parallel axis theorem). */
double tess_mass_inertia_about(const TessMassProps *m, TessDVec2 point);

/* Convex hull of arbitrary points (Andrew's monotone chain, O(n log n);
 * sorts `points` in place). Writes the hull counter-clockwise without
 * collinear points into `out` (room for `count` points) and returns its
 * vertex count (0 for no points, 1 or 2 for degenerate input). */
uint32_t tess_convex_hull(TessDVec2 *points, uint32_t count, TessDVec2 *out);

/* Convex hull of points already sorted by (y, x) ascending: linear time.
 * Same output rules as tess_convex_hull. */
uint32_t tess_convex_hull_sorted(const TessDVec2 *points, uint32_t count, TessDVec2 *out);

/* True when the polygon is convex and counter-clockwise (collinear
 * vertices allowed within `eps` of cross product). */
bool tess_poly_is_convex(const TessDVec2 *v, uint32_t count, double eps);

/* True when p lies inside or on the boundary (within eps) of a
 * counter-clockwise convex polygon. */
bool tess_convex_contains(const TessDVec2 *v, uint32_t count, TessDVec2 p, double eps);

/* Even-odd point-in-polygon test for any simple polygon. */
bool tess_poly_contains(const TessDVec2 *v, uint32_t count, TessDVec2 p);

/* The part of a convex polygon inside the rectangle [x0,x1]x[y0,y1]
 * (Sutherland-Hodgman); `out` has room for count + 4 points. Returns its
 * vertex count (0 when nothing is left). */
uint32_t tess_convex_clip_rect(const TessDVec2 *v, uint32_t count, double x0, double y0, double x1, double y1,
                               TessDVec2 *out);

/* Area of the part of a convex polygon inside the rectangle [x0,x1]x[y0,y1]
 * (Sutherland-Hodgman clip; exact up to rounding). */
double tess_convex_clip_rect_area(const TessDVec2 *v, uint32_t count, double x0, double y0, double x1, double y1);

/* Intersection of the lines through a,b and c,d. False when they are
 * (nearly) parallel. */
bool tess_line_intersect(TessDVec2 a, TessDVec2 b, TessDVec2 c, TessDVec2 d, TessDVec2 *out);

/* Smallest circle containing every point (Welzl's algorithm, iterative,
 * expected linear time; the order of `points` is left unchanged). */
void tess_min_enclosing_circle(const TessDVec2 *points, uint32_t count, TessDVec2 *center, double *radius);

#ifdef __cplusplus
}
#endif
#endif
