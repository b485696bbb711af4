#include "pack_mass.h"

#include <math.h>
#include <string.h>

#define PACK_PI 3.14159265358979323846

void pack_mass_init(PackMass *m) { memset(m, 0, sizeof *m); }

/* Adds a part given its mass, centroid and inertia about that centroid. */
static void add_part(PackMass *m, double mass, double cx, double cy, double i_centroid) {
  m->mass += mass;
  m->mx += mass * cx;
  m->my += mass * cy;
  m->i_origin += i_centroid + mass * (cx * cx + cy * cy);
}

void pack_mass_add_circle(PackMass *m, double cx, double cy, double r, double density) {
  double mass = density * PACK_PI * r * r;
  add_part(m, mass, cx, cy, 0.5 * mass * r * r);
}

void pack_mass_add_capsule(PackMass *m, double ax, double ay, double bx, double by, double r, double density) {
  double length = sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay)), half = 0.5 * length, rr = r * r;
  double circle_mass = density * PACK_PI * rr;
  double box_mass = density * 2.0 * r * length;
  double lc = 4.0 * r / (3.0 * PACK_PI);
  double circle_inertia = circle_mass * (0.5 * rr + half * half + 2.0 * half * lc);
  double box_inertia = box_mass * (4.0 * rr + length * length) / 12.0;
  add_part(m, circle_mass + box_mass, 0.5 * (ax + bx), 0.5 * (ay + by), circle_inertia + box_inertia);
}

void pack_mass_add_polygon(PackMass *m, const TessPolygon *poly, double density) {
  uint32_t n = poly->count > TESS_POLY_MAX ? TESS_POLY_MAX : poly->count;
  if (n < 3) return;
  double ox = poly->v[0].x, oy = poly->v[0].y;
  double area = 0, cx = 0, cy = 0, inertia = 0;
  for (uint32_t i = 1; i + 1 < n; i++) {
    double e1x = poly->v[i].x - ox, e1y = poly->v[i].y - oy;
    double e2x = poly->v[i + 1].x - ox, e2y = poly->v[i + 1].y - oy;
    double d = e1x * e2y - e1y * e2x;
    double tri = 0.5 * d;
    area += tri;
    cx += tri * (e1x + e2x) / 3.0;
    cy += tri * (e1y + e2y) / 3.0;
    double ix = e1x * e1x + e2x * e1x + e2x * e2x, iy = e1y * e1y + e2y * e1y + e2y * e2y;
    inertia += (0.25 / 3.0 * d) * (ix + iy);
  }
  if (area < 0) { /* clockwise: the same polygon, signs flipped */
    area = -area;
    cx = -cx;
    cy = -cy;
    inertia = -inertia;
  }
  if (area <= 0) return;
  cx /= area;
  cy /= area;
  double mass = density * area;
  double i_centroid = density * inertia - mass * (cx * cx + cy * cy); /* about v0, moved to the centroid */
  add_part(m, mass, ox + cx, oy + cy, i_centroid);
}

void pack_mass_result(const PackMass *m, double *mass, double *cx, double *cy, double *inertia) {
  *mass = m->mass;
  if (m->mass > 0) {
    *cx = m->mx / m->mass;
    *cy = m->my / m->mass;
    *inertia = m->i_origin - m->mass * (*cx * *cx + *cy * *cy);
    if (*inertia < 0) *inertia = 0;
  } else {
    *cx = *cy = *inertia = 0;
  }
}
