/* Queries against the bodies and the map: point, box, ray. Linear over the
 * shapes (queries are for tools and game logic, not the inner loop). */
#include "physics_private.h"

static bool live_shape(const TessWorld *w, uint32_t s, uint32_t mask) {
  const Shape *sh = &w->shapes[s];
  return sh->in_use && !w->bodies[sh->body].destroy_pending && (sh->category & mask);
}

static TessShapeId sid(const TessWorld *w, uint32_t s) {
  TessShapeId id = {s + 1, w->shapes[s].generation};
  return id;
}

void tess_world_query_point(const TessWorld *w, TessVec2 p, uint32_t mask, TessShapeQueryFn fn, void *user) {
  for (uint32_t s = 0; s < w->shape_count; s++) {
    if (!live_shape(w, s, mask)) continue;
    const Shape *sh = &w->shapes[s];
    TessVec2 local = tess_transform_point_inv(w->bodies[sh->body].xf, p);
    if (physics_poly_contains(&sh->poly, local))
      if (!fn(sid(w, s), user)) return;
  }
}

void tess_world_query_aabb(const TessWorld *w, TessAABB box, uint32_t mask, TessShapeQueryFn fn, void *user) {
  for (uint32_t s = 0; s < w->shape_count; s++) {
    if (!live_shape(w, s, mask)) continue;
    const Shape *sh = &w->shapes[s];
    if (tess_aabb_overlaps(physics_poly_aabb(&sh->poly, w->bodies[sh->body].xf), box))
      if (!fn(sid(w, s), user)) return;
  }
}

TessRayHit tess_world_ray_cast(const TessWorld *w, TessVec2 origin, TessVec2 translation, uint32_t mask) {
  TessRayHit best;
  best.hit = false;
  best.on_map = false;
  best.shape.index1 = best.shape.generation = 0;
  best.cell_x = best.cell_y = 0;
  best.point = best.normal = tess_v2(0.0f, 0.0f);
  best.fraction = 1.0f;
  if (!tess_v2_is_finite(origin) || !tess_v2_is_finite(translation)) return best;
  float max_fraction = 1.0f;
  for (uint32_t s = 0; s < w->shape_count; s++) {
    if (!live_shape(w, s, mask) || w->shapes[s].sensor) continue;
    const Shape *sh = &w->shapes[s];
    PhysPoly wp;
    physics_poly_transform(&sh->poly, w->bodies[sh->body].xf, &wp);
    float f;
    TessVec2 n;
    if (physics_poly_ray(&wp, origin, translation, max_fraction, &f, &n) && f < max_fraction) {
      max_fraction = f;
      best.hit = true;
      best.on_map = false;
      best.shape = sid(w, s);
      best.fraction = f;
      best.point = tess_v2_mul_add(origin, f, translation);
      best.normal = n;
    }
  }
  if (w->has_map && (mask & 0x1u)) {
    TessRayHit mh;
    mh.hit = false;
    if (physics_map_ray(&w->map, origin, translation, max_fraction, &mh) && mh.fraction < max_fraction) {
      mh.shape.index1 = mh.shape.generation = 0;
      best = mh;
    }
  }
  return best;
}
