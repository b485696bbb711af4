/* The points of the contacts that touch now, for overlays and game logic.
 * Each touching contact's manifold is made again from the current
 * transforms (a query, not part of the step: it also answers right after a
 * restore or set_transform), and each point takes the impulse the last step
 * left at the same feature. */
#include <string.h>

#include "physics_private.h"

static TessShapeId shape_handle(const TessWorld *w, uint32_t s) {
  TessShapeId id = {s + 1, w->shapes[s].generation};
  return id;
}

static TessBodyId body_handle(const TessWorld *w, uint32_t b) {
  TessBodyId id = {b + 1, w->bodies[b].generation};
  return id;
}

/* The shape in world coordinates at its body's current transform. */
static const Body *world_shape(const TessWorld *w, uint32_t s, PhysPoly *out) {
  const Shape *sh = &w->shapes[s];
  if (!sh->in_use) return NULL;
  const Body *b = &w->bodies[sh->body];
  if (!b->in_use || b->destroy_pending) return NULL;
  physics_poly_transform(&sh->poly, b->xf, out);
  return b;
}

uint32_t tess_world_contact_points(const TessWorld *w, TessContactPoint *out, uint32_t cap) {
  float margin = 4.0f * w->def.linear_slop; /* the speculative distance of step.c */
  /* the solver keeps one sub-step's impulse: the step's is that many times as much */
  float per_step = (float)w->def.substeps;
  uint32_t n = 0;
  for (uint32_t i = 0; i < w->contact_count; i++) {
    const Contact *c = &w->contacts[i];
    if (!(c->flags & CONTACT_TOUCHING) || c->point_count == 0) continue;
    bool map = (c->flags & CONTACT_MAP) != 0;
    PhysPoly pa, pb;
    if (!world_shape(w, c->shape_b, &pb)) continue;
    Manifold m;
    m.count = 0;
    if (map) {
      float friction, restitution, tangential;
      if (!w->has_map || !physics_map_collide_contact(w, c, &pb, margin, &m, &friction, &restitution, &tangential))
        continue;
    } else {
      if (!world_shape(w, c->shape_a, &pa)) continue;
      physics_collide(&pa, &pb, margin, &m);
    }
    for (uint32_t k = 0; k < m.count; k++, n++) {
      if (n >= cap) continue;
      TessContactPoint *p = &out[n];
      memset(p, 0, sizeof *p); /* padding too: equal points compare equal byte for byte */
      p->with_map = map;
      p->point = m.p[k].point;
      p->separation = m.p[k].separation;
      p->normal_impulse = 0.0f;
      for (uint32_t q = 0; q < c->point_count && q < 2; q++)
        if (c->id[q] == m.p[k].id) p->normal_impulse = c->normal_impulse[q] * per_step;
      if (map) {
        /* the solver's map contacts have the cell first; the API has the body's shape first */
        p->a = shape_handle(w, c->shape_b);
        p->body_a = body_handle(w, c->body_b);
        /* a contact joined along a run of tiles has one cell; each of its points names the one under it */
        uint32_t cell = physics_map_contact_point_cell(&w->map, c, m.p[k].point);
        p->cell_x = cell % w->map.width;
        p->cell_y = cell / w->map.width;
        p->normal = tess_v2_neg(m.normal);
      } else {
        p->a = shape_handle(w, c->shape_a);
        p->b = shape_handle(w, c->shape_b);
        p->body_a = body_handle(w, c->body_a);
        p->body_b = body_handle(w, c->body_b);
        p->normal = m.normal;
      }
    }
  }
  return n;
}
