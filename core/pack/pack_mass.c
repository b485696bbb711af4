#include "pack_mass.h"

#include <string.h>

void pack_mass_init(PackMass *m) { memset(m, 0, sizeof *m); }

void pack_mass_add(PackMass *m, TessMassProps shape, double density) {
  if (!(shape.area > 0.0)) return;
  double mass = density * shape.area;
  m->mass += mass;
  m->mx += mass * shape.cx;
  m->my += mass * shape.cy;
  m->i_origin += density * shape.inertia + mass * (shape.cx * shape.cx + shape.cy * shape.cy);
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
