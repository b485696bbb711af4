/* Mass properties of a body's shapes (double sums, metres, kg), combined
 * about the body's centre of mass. Formulas as Box2D's b2Compute*Mass. The
 * writer stores them for bodies whose mass the physics derives from the
 * shapes, so a game with its own engine has them ready. */
#ifndef TESS_PACK_MASS_H
#define TESS_PACK_MASS_H

#include "tessera/level.h"

typedef struct PackMass {
  double mass;
  double mx, my;     /* sum of mass * centroid */
  double i_origin;   /* sum of inertia about the body origin */
} PackMass;

void pack_mass_init(PackMass *m);
void pack_mass_add_circle(PackMass *m, double cx, double cy, double r, double density);
void pack_mass_add_capsule(PackMass *m, double ax, double ay, double bx, double by, double r, double density);
void pack_mass_add_polygon(PackMass *m, const TessPolygon *poly, double density);
/* Total mass, centroid and inertia about the centroid. */
void pack_mass_result(const PackMass *m, double *mass, double *cx, double *cy, double *inertia);

#endif
