/* A body's mass properties summed over its shapes (double sums, metres,
 * kg), about the body's centre of mass. Each shape's own mass comes from
 * geom (tess_circle_mass and friends). The writer stores the sums for
 * bodies whose mass the physics derives from the shapes, so a game with its
 * own engine has them ready. */
#ifndef TESS_PACK_MASS_H
#define TESS_PACK_MASS_H

#include "tessera/geom.h"

typedef struct PackMass {
  double mass;
  double mx, my;   /* sum of mass * centroid */
  double i_origin; /* sum of inertia about the body origin */
} PackMass;

void pack_mass_init(PackMass *m);
/* Adds one shape: its per-unit-density properties times `density`. */
void pack_mass_add(PackMass *m, TessMassProps shape, double density);
/* Total mass, centroid and inertia about the centroid. */
void pack_mass_result(const PackMass *m, double *mass, double *cx, double *cy, double *inertia);

#endif
