/* One step of the world: shapes to world space, broad phase, narrow phase
 * (bodies and map), events, islands (wake), forces (gravity, zones, floor
 * drag, buoyancy), the soft-step solver, restitution, sleeping, and the
 * deferred removals. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "physics_private.h"
#include "physics_pixel_mask.h"

#include <stddef.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void physics_destroy_pending(TessWorld *w);

#define SPECULATIVE(w) (4.0f * (w)->def.linear_slop)

static bool ensure_scratch(TessWorld *w) {
  if (!PHYS_GROW_SCRATCH(w->states_raw, w->states, &w->states_cap, w->body_count + 1)) return false;
  if (!PHYS_GROW(w->motions, &w->motions_cap, w->body_count + 1)) return false;
  if (w->island_cap < w->body_count + 1) {
    uint32_t cap = w->body_count + 1;
    uint32_t *p = tess_realloc(w->island_parent, (size_t)cap * sizeof *p);
    if (!p) return false;
    w->island_parent = p;
    float *f = tess_realloc(w->island_min_sleep, (size_t)cap * sizeof *f);
    if (!f) return false;
    w->island_min_sleep = f;
    uint8_t *a = tess_realloc(w->island_awake, cap);
    if (!a) return false;
    w->island_awake = a;
    w->island_cap = cap;
  }
  if (!PHYS_GROW_SCRATCH(w->wpolys_raw, w->wpolys, &w->wpolys_cap, w->shape_count + 1)) return false;
  if (!PHYS_GROW(w->margins, &w->margins_cap, w->body_count + 1)) return false;
  if (!PHYS_GROW(w->sweeps, &w->sweeps_cap, w->body_count + 1)) return false;
  if (!PHYS_GROW(w->paths, &w->paths_cap, w->body_count + 1)) return false;
  if (!PHYS_GROW(w->stop_dv, &w->stop_dv_cap, w->body_count + 1)) return false;
  if (!PHYS_GROW(w->centers, &w->centers_cap, w->body_count + 1)) return false;
  if (!PHYS_GROW(w->moving, &w->moving_cap, w->body_count + 1)) return false;
  return true;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

static int cmp_overlap(const void *a, const void *b) {
  return cmp_u64(&((const SensorOverlap *)a)->key, &((const SensorOverlap *)b)->key);
}

static bool joined(const TessWorld *w, uint32_t a, uint32_t b) {
  if (w->joint_pair_count == 0) return false;
  uint64_t key = a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
  return bsearch(&key, w->joint_pairs, w->joint_pair_count, sizeof(uint64_t), cmp_u64) != NULL;
}

static bool push_event(void **arr, uint32_t *count, uint32_t *cap, const void *ev, size_t size) {
  if (!physics_grow(arr, cap, *count + 1, size)) return false;
  memcpy((char *)*arr + (size_t)(*count) * size, ev, size);
  (*count)++;
  return true;
}

/* ---- Narrow phase ------------------------------------------------------ */

/* The narrow phase's collisions: the runs of PHYS_PAIR_BLOCK broad-phase pairs, then the pieces of
 * the shapes against the tile map, in one loop (physics_run_of_item deals both kinds to each
 * thread's part, as the contact making's loop does): one meeting of the threads, and the two kinds
 * even out each other's uneven halves. */
typedef struct CollideJob {
  TessWorld *w;
  float dt;
  uint32_t pair_runs, map_runs, parts;
  atomic_bool failed;
} CollideJob;

/* The manifolds of run r of broad-phase pairs, and what the run will make
 * (physics_contacts_make): a sensor's manifold at no margin, kept only as whether it overlaps; a
 * joined pair's empty. Reads the proxies and world shapes, writes only its own manifolds and run. */
static void collide_pair_run(const CollideJob *j, uint32_t r) {
  TessWorld *w = j->w;
  const Proxy *proxies = w->bp_scratch;
  ContactRun *run = &w->contact_runs[r];
  run->contacts = run->points = run->sensors = 0;
  uint32_t last = (r + 1) * PHYS_PAIR_BLOCK < w->pair_count ? (r + 1) * PHYS_PAIR_BLOCK : w->pair_count;
  for (uint32_t i = r * PHYS_PAIR_BLOCK; i < last; i++) {
    /* the b sides come in random order (the a sides follow the sorted keys): their proxy and
     * world shape asked for a few pairs ahead, or each is a cache miss */
    if (i + 8u < w->pair_count) {
      uint32_t ahead = (uint32_t)w->pairs[i + 8u];
      __builtin_prefetch(&proxies[ahead]);
      __builtin_prefetch(&w->wpolys[ahead]);
    }
    Manifold *m = &w->pair_manifolds[i];
    uint32_t ia = (uint32_t)(w->pairs[i] >> 32), ib = (uint32_t)w->pairs[i];
    const Proxy *sa = &proxies[ia], *sb = &proxies[ib];
    if (sa->sensor || sb->sensor) {
      physics_collide(&w->wpolys[ia], &w->wpolys[ib], 0.0f, m);
      bool overlap = false;
      for (uint32_t k = 0; k < m->count; k++)
        if (m->p[k].separation < 0.0f) overlap = true;
      m->count = overlap ? PHYS_SENSOR_OVERLAP : 0;
      run->sensors += overlap;
      continue;
    }
    if (joined(w, sa->body, sb->body)) {
      m->count = 0;
      continue;
    }
    /* speculative margin from the relative motion: bodies falling side by side need none */
    float margin = SPECULATIVE(w) + j->dt * (tess_v2_length(tess_v2_sub(sb->v, sa->v)) + sa->spin + sb->spin);
    physics_collide_swept(&w->wpolys[ia], &w->wpolys[ib], margin, tess_v2_sub(w->paths[sb->body], w->paths[sa->body]),
                          m);
    run->contacts += m->count > 0;
    run->points += m->count;
  }
}

/* Piece k of the shapes against the tile map, shapes side by side, its manifolds in its own list
 * (and counted into its contact run, after the pairs'). */
static void collide_map_piece(CollideJob *j, uint32_t k) {
  TessWorld *w = j->w;
  const Proxy *proxies = w->bp_scratch;
  MapHits *out = &w->map_pieces[k];
  out->count = 0;
  uint32_t from = (uint32_t)((uint64_t)w->shape_count * k / j->map_runs);
  uint32_t to = (uint32_t)((uint64_t)w->shape_count * (k + 1) / j->map_runs);
  for (uint32_t s = from; s < to; s++) {
    const Proxy *p = &proxies[s];
    if (!p->live || p->sensor || !p->dynamic || !p->active || !(p->mask & 0x1u)) continue; /* the map is category 1 */
    float mg = w->margins[p->body] + tess_v2_length(w->sweeps[p->body]);
    if (!physics_map_collide_shape(w, s, &w->wpolys[s], p->box, mg, p->body, out)) atomic_store(&j->failed, true);
  }
  ContactRun *run = &w->contact_runs[j->pair_runs + k];
  run->contacts = out->count;
  run->points = run->sensors = 0;
  for (uint32_t i = 0; i < out->count; i++) run->points += out->hits[i].manifold.count;
}

static void collide_task(void *ctx, uint32_t begin, uint32_t end) {
  CollideJob *j = ctx;
  for (uint32_t k = begin; k < end; k++) {
    uint32_t r = physics_run_of_item(j->pair_runs, j->map_runs, j->parts, k);
    if (r < j->pair_runs)
      collide_pair_run(j, r);
    else
      collide_map_piece(j, r - j->pair_runs);
  }
}

/* The narrow phase's collisions (see CollideJob); false when out of memory. */
static bool collide(TessWorld *w, float dt, uint32_t pair_runs, uint32_t *map_runs) {
  uint32_t pieces = w->has_map ? physics_pieces(w, w->shape_count) : 0;
  if (pieces > w->map_piece_count) {
    MapHits *p = tess_realloc(w->map_pieces, pieces * sizeof *p);
    if (!p) return false;
    memset(p + w->map_piece_count, 0, (pieces - w->map_piece_count) * sizeof *p);
    w->map_pieces = p;
    w->map_piece_count = pieces;
  }
  if (!PHYS_GROW(w->pair_manifolds, &w->pair_manifolds_cap, w->pair_count + 1) ||
      !PHYS_GROW(w->contact_runs, &w->contact_runs_cap, pair_runs + pieces + 1))
    return false;
  CollideJob job = {w, dt, pair_runs, pieces, physics_tasks_threads(w->tasks), false};
  physics_parallel_for(w->tasks, pair_runs + pieces, 1, collide_task, &job);
  *map_runs = pieces;
  return !atomic_load(&job.failed);
}

static bool narrow_phase(TessWorld *w, float dt) {
  /* swap: the previous step's contacts become "old" (the key table indexes them) */
  Contact *tmp = w->contacts_old;
  uint32_t tmp_cap = w->contacts_old_cap;
  w->contacts_old = w->contacts;
  w->contacts_old_cap = w->contact_cap;
  w->contacts_old_count = w->contact_count;
  w->contacts = tmp;
  w->contact_cap = tmp_cap;
  w->contact_count = 0;
  w->cbuf_size = 0;
  w->coff_count = 0;
  w->any_impact_material = false;
  w->sensors_new_count = 0;
  w->old_in_order = w->contacts_in_order;
  w->old_kept = w->contacts_kept;

  /* contacts and overlaps between resting things are kept as they were; while no body can be
   * asleep every contact has a moving body (static bodies never touch each other), so none is
   * kept. (Only old contacts are ever marked continued, and a contact enters the old list
   * unmarked, so nothing needs clearing.) */
  for (uint32_t i = 0; w->maybe_asleep && i < w->contacts_old_count; i++) {
    Contact *o = &w->contacts_old[i];
    if ((o->body_a != TESS_NULL_INDEX && w->moving[o->body_a]) || (o->body_b != TESS_NULL_INDEX && w->moving[o->body_b]))
      continue;
    Contact *c = physics_contact_push(w);
    if (!c) return false;
    *c = *o;
    c->constraint = TESS_NULL_INDEX; /* asleep: not solved, unless its island wakes */
    c->flags &= ~(CONTACT_CONTINUED | CONTACT_WAS_TOUCHING);
    if (o->flags & CONTACT_TOUCHING) c->flags |= CONTACT_WAS_TOUCHING;
    w->contacts_old[i].flags |= CONTACT_CONTINUED;
  }
  w->contacts_kept = w->contact_count;
  w->contacts_in_order = true;
  for (uint32_t i = 0; i < w->sensor_count; i++) {
    const SensorOverlap *o = &w->sensors[i];
    const Body *a = &w->bodies[w->shapes[(uint32_t)(o->key >> 32)].body];
    const Body *b = &w->bodies[w->shapes[(uint32_t)o->key].body];
    if (physics_body_active(a) || physics_body_active(b)) continue;
    if (!PHYS_GROW(w->sensors_new, &w->sensors_new_cap, w->sensors_new_count + 1)) return false;
    w->sensors_new[w->sensors_new_count++] = *o;
  }

  /* body pairs, then shapes against the tile map (the proxies' boxes are already swept and
   * grown): their manifolds side by side on the workers, then the contacts, in that order */
  uint32_t pair_runs = (w->pair_count + PHYS_PAIR_BLOCK - 1) / PHYS_PAIR_BLOCK, map_runs = 0;
  if (!collide(w, dt, pair_runs, &map_runs) || !physics_contacts_make(w, pair_runs, map_runs)) return false;

  /* sensor overlaps: sorted lists, compared */
  if (w->sensors_new_count > 1) /* the array is NULL until the first overlap */
    qsort(w->sensors_new, w->sensors_new_count, sizeof(SensorOverlap), cmp_overlap);
  uint32_t a = 0, b = 0;
  while (a < w->sensor_count || b < w->sensors_new_count) {
    uint64_t ka = a < w->sensor_count ? w->sensors[a].key : UINT64_MAX;
    uint64_t kb = b < w->sensors_new_count ? w->sensors_new[b].key : UINT64_MAX;
    if (ka == kb) {
      a++;
      b++;
      continue;
    }
    TessSensorEvent ev;
    if (ka < kb) {
      const SensorOverlap *o = &w->sensors[a++];
      ev.sensor.index1 = (uint32_t)(o->key >> 32) + 1;
      ev.sensor.generation = o->sensor_gen;
      ev.visitor.index1 = (uint32_t)o->key + 1;
      ev.visitor.generation = o->visitor_gen;
      if (!push_event((void **)&w->ev_send, &w->ev_send_count, &w->ev_send_cap, &ev, sizeof ev)) return false;
    } else {
      const SensorOverlap *o = &w->sensors_new[b++];
      ev.sensor.index1 = (uint32_t)(o->key >> 32) + 1;
      ev.sensor.generation = o->sensor_gen;
      ev.visitor.index1 = (uint32_t)o->key + 1;
      ev.visitor.generation = o->visitor_gen;
      if (!push_event((void **)&w->ev_sbegin, &w->ev_sbegin_count, &w->ev_sbegin_cap, &ev, sizeof ev)) return false;
    }
  }
  SensorOverlap *st = w->sensors;
  uint32_t st_cap = w->sensor_cap;
  w->sensors = w->sensors_new;
  w->sensor_cap = w->sensors_new_cap;
  w->sensor_count = w->sensors_new_count;
  w->sensors_new = st;
  w->sensors_new_cap = st_cap;
  w->sensors_new_count = 0;
  return true;
}

/* ---- Forces ------------------------------------------------------------ */

/* The zones' acceleration on a dynamic body whose centre of mass is at `center`.
 * It depends on the position, so the sub-steps evaluate it at their own
 * position (held over the step, an orbit of radius 10 grew to 15 in 10 turns). */
static TessVec2 zone_acceleration(const TessWorld *w, TessVec2 center, float inv_mass) {
  TessVec2 acc = tess_v2(0.0f, 0.0f);
  for (uint32_t z = 0; z < w->zone_count; z++) {
    const Zone *zone = &w->zones[z];
    const TessZoneDef *zd = &zone->def;
    if (zd->type == TESS_ZONE_TYPE_ATTRACTOR) {
      TessVec2 d = tess_v2_sub(zd->center, center);
      float dist = tess_v2_length(d);
      if (zd->radius > 0.0f && dist > zd->radius) continue;
      if (dist < 1e-6f) continue;
      float r = dist < zd->min_distance ? zd->min_distance : dist;
      acc = tess_v2_mul_add(acc, zd->strength / (r * r) / dist, d);
    } else if (zd->type == TESS_ZONE_TYPE_SPRING) {
      TessVec2 d = tess_v2_sub(zd->center, center);
      if (zd->radius > 0.0f && tess_v2_length(d) > zd->radius) continue;
      acc = tess_v2_mul_add(acc, zd->strength, d);
    } else {
      /* the centre of mass in the rectangle's own axes */
      TessVec2 c = tess_rot_apply_inv(zone->q, tess_v2_sub(center, zone->center));
      if (fabsf(c.x) > zone->half.x || fabsf(c.y) > zone->half.y) continue;
      /* a force zone pushes with a force, an acceleration zone accelerates every mass alike */
      acc = tess_v2_mul_add(acc, zd->type == TESS_ZONE_TYPE_FORCE ? inv_mass : 1.0f, zd->vector);
    }
  }
  return acc;
}

static void apply_forces(TessWorld *w) {
  TessVec2 g = w->def.gravity;
  float glen = tess_v2_length(g);
  bool drag = w->has_map && (w->def.floor_drag > 0.0f || (glen > 0.0f && w->map.has_fluid));
  if (!drag && !w->extras_set) return; /* nothing to add, nothing to clear (zones act in the sub-steps) */
  w->extras_set = drag;
  for (uint32_t i = 0; i < w->body_count; i++) {
    Body *b = &w->bodies[i];
    b->extra_damping = 0.0f;
    b->extra_angular_damping = 0.0f;
    if (!physics_body_active(b) || b->type != TESS_BODY_DYNAMIC) continue;
    if (!w->has_map) continue;
    if (w->def.floor_drag > 0.0f) {
      /* Infiniworld's kinetic friction: F = -k * friction * m * v, applied implicitly */
      int mat = physics_map_material_at(&w->map, b->center);
      if (mat >= 0) {
        float c = w->def.floor_drag * w->map.materials[mat].friction;
        b->extra_damping += c;
        b->extra_angular_damping += c;
      }
    }
    if (glen > 0.0f && w->map.has_fluid) {
      float total_area = 0.0f, sub_area = 0.0f;
      for (uint32_t s = b->shape_head; s != TESS_NULL_INDEX; s = w->shapes[s].next) {
        const Shape *sh = &w->shapes[s];
        if (sh->sensor) continue;
        total_area += sh->area;
        TessVec2 centroid;
        float density_area;
        float a = physics_map_submerged(&w->map, &w->wpolys[s], &centroid, &density_area);
        if (a <= 0.0f) continue;
        sub_area += a;
        /* buoyancy: fluid density x submerged area x gravity, against gravity, at the submerged centroid */
        TessVec2 f = tess_v2_scale(-density_area, g);
        b->force = tess_v2_add(b->force, f);
        b->torque += tess_v2_cross(tess_v2_sub(centroid, b->center), f);
      }
      if (sub_area > 0.0f && total_area > 0.0f) {
        float frac = sub_area / total_area;
        if (frac > 1.0f) frac = 1.0f;
        b->extra_damping += w->def.fluid_linear_drag * frac;
        b->extra_angular_damping += w->def.fluid_angular_drag * frac;
      }
    }
  }
}

/* One sub-step of a body integrated by RK4 (TessIntegrator) in the accelerations that depend on
 * where it is (the zones) and those that do not (gravity, forces): its velocity after the
 * forces, and in q->rk4_dx what its move differs from h times that velocity, which the position
 * pass adds to the move the solved velocity makes. With no constraint acting the body moves
 * exactly as RK4 says; a contact or joint changes its velocity as it does an Euler body's. */
static void rk4_substep(const TessWorld *w, const Body *b, BodyState *s, BodyMotion *q, float h) {
  TessVec2 x = tess_v2_add(b->center, s->dp), v = s->v;
  bool zones = w->zone_count > 0;
#define RK4_ACC(p) (zones ? tess_v2_add(q->acc, zone_acceleration(w, (p), q->inv_m)) : q->acc)
  float hh = 0.5f * h;
  TessVec2 a1 = RK4_ACC(x), v1 = v;
  TessVec2 v2 = tess_v2_mul_add(v, hh, a1);
  TessVec2 a2 = RK4_ACC(tess_v2_mul_add(x, hh, v1));
  TessVec2 v3 = tess_v2_mul_add(v, hh, a2);
  TessVec2 a3 = RK4_ACC(tess_v2_mul_add(x, hh, v2));
  TessVec2 v4 = tess_v2_mul_add(v, h, a3);
  TessVec2 a4 = RK4_ACC(tess_v2_mul_add(x, h, v3));
#undef RK4_ACC
  float sixth = h / 6.0f;
  TessVec2 dv = tess_v2_scale(sixth, tess_v2_add(tess_v2_add(a1, a4), tess_v2_scale(2.0f, tess_v2_add(a2, a3))));
  TessVec2 dx = tess_v2_scale(sixth, tess_v2_add(tess_v2_add(v1, v4), tess_v2_scale(2.0f, tess_v2_add(v2, v3))));
  s->v = tess_v2_scale(q->lin_f, tess_v2_add(v, dv));
  q->rk4_dx = tess_v2_sub(dx, tess_v2_scale(h, s->v));
}

/* Contacts carried over while their bodies slept get a manifold again when
 * the island wakes this step, so the bodies are held from the first step. */
static bool rebuild_woken_contacts(TessWorld *w, float dt) {
  for (uint32_t i = 0; i < w->contacts_kept; i++) { /* the carried-over contacts come first */
    Contact *c = &w->contacts[i];
    if (c->constraint != TESS_NULL_INDEX) continue;
    const Body *a = c->body_a == TESS_NULL_INDEX ? NULL : &w->bodies[c->body_a];
    const Body *b = c->body_b == TESS_NULL_INDEX ? NULL : &w->bodies[c->body_b];
    bool woke = (a && a->type == TESS_BODY_DYNAMIC && a->awake) || (b && b->type == TESS_BODY_DYNAMIC && b->awake);
    if (!woke) continue;
    Manifold m;
    float friction, restitution, tangential;
    if (c->flags & CONTACT_MAP) {
      if (!w->has_map || !physics_map_collide_contact(w, c, &w->wpolys[c->shape_b], SPECULATIVE(w), &m, &friction,
                                                      &restitution, &tangential))
        continue;
    } else {
      const Shape *sa = &w->shapes[c->shape_a], *sb = &w->shapes[c->shape_b];
      physics_collide(&w->wpolys[c->shape_a], &w->wpolys[c->shape_b], SPECULATIVE(w), &m);
      if (m.count == 0) continue;
      TessMaterialMix mix = tess_material_mix(sa->friction, sa->restitution, sa->tangential, sb->friction,
                                              sb->restitution, sb->tangential);
      friction = mix.friction;
      restitution = mix.restitution;
      tangential = mix.tangential;
    }
    if (!physics_contact_rebuild(w, i, &m, friction, restitution, tangential)) return false;
  }
  (void)dt;
  return true;
}

/* ---- The step ---------------------------------------------------------- */

static void clear_events(TessWorld *w) {
  w->ev_begin_count = w->ev_end_count = w->ev_sbegin_count = w->ev_send_count = 0;
}

static bool joint_active(const TessWorld *w, const Joint *j) {
  const Body *a = j->body_a == TESS_NULL_INDEX ? NULL : &w->bodies[j->body_a];
  const Body *b = j->body_b == TESS_NULL_INDEX ? NULL : &w->bodies[j->body_b];
  return (a && a->type == TESS_BODY_DYNAMIC && a->awake) || (b && b->type == TESS_BODY_DYNAMIC && b->awake);
}

static bool build_joint_pairs(TessWorld *w) {
  w->joint_pair_count = 0;
  for (uint32_t i = 0; i < w->joint_count; i++) {
    const Joint *j = &w->joints[i];
    if (!j->in_use || j->collide_connected || j->body_a == TESS_NULL_INDEX || j->body_b == TESS_NULL_INDEX) continue;
    if (!PHYS_GROW(w->joint_pairs, &w->joint_pair_cap, w->joint_pair_count + 1)) return false;
    uint32_t a = j->body_a, b = j->body_b;
    w->joint_pairs[w->joint_pair_count++] = a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
  }
  if (w->joint_pair_count > 1) /* the array is NULL until the first joint between two bodies */
    qsort(w->joint_pairs, w->joint_pair_count, sizeof(uint64_t), cmp_u64);
  return true;
}

/* ---- The per-body loops, split among the workers ----------------------- */

#if defined(__SSE2__)
/* Four consecutive states' four floats from `row` on (v, w, dynamic or dp, dq), as four registers
 * that each hold one of those floats of the four states: the SSE body passes work across bodies. */
static inline void load_state_rows(const BodyState *s, size_t row, __m128 *a, __m128 *b, __m128 *c, __m128 *d) {
  const char *base = (const char *)s + row;
  __m128 r0 = _mm_load_ps((const float *)base), r1 = _mm_load_ps((const float *)(base + sizeof *s)),
         r2 = _mm_load_ps((const float *)(base + 2u * sizeof *s)), r3 = _mm_load_ps((const float *)(base + 3u * sizeof *s));
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  *a = r0, *b = r1, *c = r2, *d = r3;
}

/* The way back: each register's four lanes into the four states. */
static inline void store_state_rows(BodyState *s, size_t row, __m128 a, __m128 b, __m128 c, __m128 d) {
  char *base = (char *)s + row;
  _MM_TRANSPOSE4_PS(a, b, c, d);
  _mm_store_ps((float *)base, a);
  _mm_store_ps((float *)(base + sizeof *s), b);
  _mm_store_ps((float *)(base + 2u * sizeof *s), c);
  _mm_store_ps((float *)(base + 3u * sizeof *s), d);
}
#endif

typedef struct IntegrateJob {
  TessWorld *w;
  BodyState *st;
  BodyMotion *mo;
  const uint32_t *active;
  float h;
  bool zones, any_rk4;
} IntegrateJob;

/* Velocities of solver states [begin + 1, end + 1) over one sub-step's forces. */
static void integrate_velocities(void *ctx, uint32_t begin, uint32_t end) {
  const IntegrateJob *j = ctx;
  const TessWorld *w = j->w;
  float h = j->h;
  uint32_t k = begin + 1;
#if defined(__SSE2__)
  /* with no zone and no RK4 body, four bodies at a time in SSE lanes: the operations of the loop
   * below in the same order (no fused multiply-add), so the same bits, a fixed body's lanes
   * left as they were */
  if (!j->zones && !j->any_rk4) {
    const __m128 hh = _mm_set1_ps(h);
    for (; k + 3u <= end; k += 4u) {
      BodyState *s = &j->st[k];
      const BodyMotion *q = &j->mo[k];
      __m128 vx, vy, av, dyn;
      load_state_rows(s, offsetof(BodyState, v), &vx, &vy, &av, &dyn);
      __m128 ax = _mm_loadu_ps(&q[0].acc.x), ay = _mm_loadu_ps(&q[1].acc.x), aa = _mm_loadu_ps(&q[2].acc.x),
             lf = _mm_loadu_ps(&q[3].acc.x); /* acc.x, acc.y, ang_acc, lin_f */
      _MM_TRANSPOSE4_PS(ax, ay, aa, lf);
      __m128 af = _mm_set_ps(q[3].ang_f, q[2].ang_f, q[1].ang_f, q[0].ang_f);
      __m128 moving = _mm_castsi128_ps(
          _mm_xor_si128(_mm_cmpeq_epi32(_mm_castps_si128(dyn), _mm_setzero_si128()), _mm_set1_epi32(-1)));
      __m128 nvx = _mm_mul_ps(lf, _mm_add_ps(vx, _mm_mul_ps(hh, ax)));
      __m128 nvy = _mm_mul_ps(lf, _mm_add_ps(vy, _mm_mul_ps(hh, ay)));
      __m128 nav = _mm_mul_ps(af, _mm_add_ps(av, _mm_mul_ps(hh, aa)));
      vx = _mm_or_ps(_mm_and_ps(moving, nvx), _mm_andnot_ps(moving, vx));
      vy = _mm_or_ps(_mm_and_ps(moving, nvy), _mm_andnot_ps(moving, vy));
      av = _mm_or_ps(_mm_and_ps(moving, nav), _mm_andnot_ps(moving, av));
      store_state_rows(s, offsetof(BodyState, v), vx, vy, av, dyn);
    }
  }
#endif
  for (; k <= end; k++) {
    BodyState *s = &j->st[k];
    if (!s->dynamic) continue;
    BodyMotion *q = &j->mo[k];
    const Body *b = &w->bodies[j->active[k - 1]];
    if (q->rk4) {
      rk4_substep(w, b, s, q, h);
    } else {
      TessVec2 acc = q->acc;
      if (j->zones) acc = tess_v2_add(acc, zone_acceleration(w, tess_v2_add(b->center, s->dp), q->inv_m));
      s->v = tess_v2_scale(q->lin_f, tess_v2_mul_add(s->v, h, acc));
    }
    s->w = q->ang_f * (s->w + h * q->ang_acc);
  }
}

static void integrate_positions(void *ctx, uint32_t begin, uint32_t end) {
  const IntegrateJob *j = ctx;
  float h = j->h;
  uint32_t k = begin + 1;
#if defined(__SSE2__)
  /* with no RK4 body, four bodies at a time in SSE lanes: the operations of the loop below
   * (tess_rot_integrate's) in the same order, sqrtps and divps rounded as sqrtss and divss, so
   * the same bits */
  if (!j->any_rk4) {
    const __m128 hh = _mm_set1_ps(h), zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    for (; k + 3u <= end; k += 4u) {
      BodyState *s = &j->st[k];
      __m128 vx, vy, av, dyn, px, py, qc, qs;
      load_state_rows(s, offsetof(BodyState, v), &vx, &vy, &av, &dyn);
      load_state_rows(s, offsetof(BodyState, dp), &px, &py, &qc, &qs); /* dp.x, dp.y, dq.c, dq.s */
      px = _mm_add_ps(px, _mm_mul_ps(hh, vx));
      py = _mm_add_ps(py, _mm_mul_ps(hh, vy));
      __m128 da = _mm_mul_ps(hh, av);
      __m128 rc = _mm_sub_ps(qc, _mm_mul_ps(da, qs)), rs = _mm_add_ps(qs, _mm_mul_ps(da, qc));
      __m128 mag = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(rc, rc), _mm_mul_ps(rs, rs)));
      __m128 inv = _mm_and_ps(_mm_cmpgt_ps(mag, zero), _mm_div_ps(one, mag));
      rc = _mm_mul_ps(rc, inv);
      rs = _mm_mul_ps(rs, inv);
      store_state_rows(s, offsetof(BodyState, dp), px, py, rc, rs);
    }
  }
#endif
  for (; k <= end; k++) {
    BodyState *s = &j->st[k];
    s->dp = tess_v2_mul_add(s->dp, h, s->v);
    if (j->any_rk4 && j->mo[k].rk4) s->dp = tess_v2_add(s->dp, j->mo[k].rk4_dx);
    s->dq = tess_rot_integrate(s->dq, h * s->w);
  }
}

/* What the last relaxation takes off the velocities of states [begin + 1, end + 1): the
 * velocities before it, then those less the velocities after it. */
static void stops_before(void *ctx, uint32_t begin, uint32_t end) {
  const IntegrateJob *j = ctx;
  for (uint32_t k = begin + 1; k <= end; k++) j->w->stop_dv[k] = j->st[k].v;
}

/* The last sub-step's positions and, when no joint moves a velocity between them and the last
 * relaxation, stops_before in the same pass (one meeting of the threads fewer). */
static void integrate_positions_stops(void *ctx, uint32_t begin, uint32_t end) {
  integrate_positions(ctx, begin, end);
  stops_before(ctx, begin, end);
}

static void stops_after(void *ctx, uint32_t begin, uint32_t end) {
  const IntegrateJob *j = ctx;
  for (uint32_t k = begin + 1; k <= end; k++) j->w->stop_dv[k] = tess_v2_sub(j->w->stop_dv[k], j->st[k].v);
}

/* The solver's serial stages of a sub-step: the joints, then the contacts left out of the
 * colours (the overflow), one at a time. */
typedef struct SerialJob {
  TessWorld *w;
  float h, inv_h;
  Softness soft, soft_static;
} SerialJob;

static void serial_warm_start(void *ctx, uint32_t begin, uint32_t end) {
  (void)begin, (void)end;
  const SerialJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t i = 0; i < w->joint_count; i++)
    if (w->joints[i].in_use && joint_active(w, &w->joints[i])) physics_joint_warm_start(w, &w->joints[i]);
  physics_contacts_warm_start(w, w->overflow, w->overflow_count);
}

static void serial_solve(void *ctx, uint32_t begin, uint32_t end) {
  (void)begin, (void)end;
  const SerialJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t i = 0; i < w->joint_count; i++)
    if (w->joints[i].in_use && joint_active(w, &w->joints[i])) physics_joint_solve(w, &w->joints[i], j->h, true);
  physics_contacts_solve(w, w->overflow, w->overflow_count, j->inv_h, true, j->soft, j->soft_static);
}

static void serial_joints_relax(void *ctx, uint32_t begin, uint32_t end) {
  (void)begin, (void)end;
  const SerialJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t i = 0; i < w->joint_count; i++)
    if (w->joints[i].in_use && joint_active(w, &w->joints[i])) physics_joint_solve(w, &w->joints[i], j->h, false);
}

static void serial_overflow_relax(void *ctx, uint32_t begin, uint32_t end) {
  (void)begin, (void)end;
  const SerialJob *j = ctx;
  physics_contacts_solve(j->w, j->w->overflow, j->w->overflow_count, j->inv_h, false, j->soft, j->soft_static);
}

/* The solved states back into bodies [begin, end) of the active list. */
static void write_back(void *ctx, uint32_t begin, uint32_t end) {
  const IntegrateJob *j = ctx;
  for (uint32_t k = begin; k < end; k++) {
    Body *b = &j->w->bodies[j->active[k]];
    const BodyState *s = &j->st[k + 1];
    b->stop_dv = j->w->stop_dv[k + 1];
    b->force = tess_v2(0.0f, 0.0f); /* only awake dynamic bodies take forces */
    b->torque = 0.0f;
    TessVec2 v = s->v;
    float av = s->w;
    float speed = tess_v2_length(v);
    if (speed > TESS_MAX_SPEED) v = tess_v2_scale(TESS_MAX_SPEED / speed, v);
    TessVec2 center = tess_v2_add(b->center, s->dp);
    TessRot q = tess_rot_mul(s->dq, b->xf.q);
    float mag = sqrtf(q.c * q.c + q.s * q.s);
    if (mag > 0.0f) {
      q.c /= mag;
      q.s /= mag;
    }
    if (!tess_v2_is_finite(v) || !isfinite(av) || !tess_v2_is_finite(center) || !isfinite(q.c) || !isfinite(q.s)) {
      /* never let NaN into the world: stop the body where it was */
      b->v = tess_v2(0.0f, 0.0f);
      b->stop_dv = tess_v2(0.0f, 0.0f);
      b->w = 0.0f;
      continue;
    }
    b->v = v;
    b->w = av;
    b->center = center;
    b->xf.q = q;
    b->xf.p = tess_v2_sub(center, tess_rot_apply(q, b->local_center));
  }
}

/* ---- Profiling (TESS_PHYSICS_PROFILE) ---------------------------------- */

/* The phases' CPU time into w->prof; nothing is read when the world does not profile. */
typedef struct PhaseClock {
  TessWorld *w;
  bool on;
  double mark, parallel, parallel_mark;
} PhaseClock;

static void phase_begin(PhaseClock *c, TessWorld *w) {
  c->w = w;
  c->on = w->profile;
  c->parallel = c->parallel_mark = 0.0;
  if (!c->on) return;
  memset(&w->prof, 0, sizeof w->prof);
  physics_profile_parallel = &c->parallel;
  c->mark = physics_profile_now();
}

static void phase_end(PhaseClock *c, TessStepPhase *phase) {
  if (!c->on) return;
  double t = physics_profile_now();
  float total = (float)(t - c->mark), serial = total - (float)(c->parallel - c->parallel_mark);
  phase->total += total;
  phase->serial += serial;
  c->w->prof.step.total += total;
  c->w->prof.step.serial += serial;
  c->mark = t;
  c->parallel_mark = c->parallel;
}

static void phase_finish(PhaseClock *c) {
  if (c->on) physics_profile_parallel = NULL;
}

static TessResult step_locked(TessWorld *w, float dt, TessError *err, PhaseClock *pc);

TessResult tess_world_step(TessWorld *w, float dt, TessError *err) {
  TESS_ASSERT(!w->locked && "tess_world_step called during a step");
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "world", "step called during a step");
  if (!isfinite(dt) || !(dt > 0.0f) || dt > 1.0f)
    return tess_error_set(err, TESS_ERR_INVALID, "world", "time step must be finite, > 0 and <= 1 s");
  if (!ensure_scratch(w)) return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  PhaseClock pc;
  phase_begin(&pc, w);
  physics_tasks_stepping(w->tasks, true);
  TessResult r = step_locked(w, dt, err, &pc);
  physics_tasks_stepping(w->tasks, false);
  phase_finish(&pc);
  return r;
}

static TessResult step_locked(TessWorld *w, float dt, TessError *err, PhaseClock *pc) {
  TessStepProfile *prof = &w->prof;
  w->locked = true;
  clear_events(w);

  /* margins and sweeps, for the shapes in world space */
  physics_bodies_prepare(w, dt, SPECULATIVE(w));
  if (!build_joint_pairs(w)) {
    w->locked = false;
    return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  }
  phase_end(pc, &prof->prepare);
  if (!physics_broad_phase(w, w->margins, w->sweeps)) {
    w->locked = false;
    return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  }
  phase_end(pc, &prof->broad_phase);
  if (!narrow_phase(w, dt)) {
    w->locked = false;
    return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  }
  phase_end(pc, &prof->narrow_phase);
  if (w->def.sensor_begin_fn)
    for (uint32_t i = 0; i < w->ev_sbegin_count; i++)
      w->def.sensor_begin_fn(w, &w->ev_sbegin[i], w->def.callback_user);

  physics_islands_wake(w);
  if (!rebuild_woken_contacts(w, dt)) {
    w->locked = false;
    return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  }
  apply_forces(w);
  phase_end(pc, &prof->islands);

  /* solver states: slot i at i + 1, 0 is the fixed world; only awake bodies get one */
  uint32_t substeps = w->def.substeps;
  float h = dt / (float)substeps, inv_h = 1.0f / h;
  BodyState *st = w->states;
  BodyMotion *mo = w->motions;
  /* states in body slot order: the constraints come out sorted by shape pair, so the solver
   * still walks the states mostly forwards (the results do not depend on this order) */
  bool any_rk4 = false; /* else the position pass need not read the motions */
  if (!physics_bodies_states(w, h, &any_rk4)) {
    w->locked = false;
    return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  }
  Softness soft = physics_softness(w->def.contact_hertz, w->def.contact_damping_ratio, h);
  Softness soft_static = physics_softness(2.0f * w->def.contact_hertz, w->def.contact_damping_ratio, h);
  if (!physics_wide_build(w)) {
    w->locked = false;
    return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  }
  for (uint32_t i = 0; i < w->joint_count; i++)
    if (w->joints[i].in_use && joint_active(w, &w->joints[i])) physics_joint_prepare(w, &w->joints[i], h);

  phase_end(pc, &prof->solver_setup);
  const uint32_t *active = w->active;
  uint32_t na = w->active_count;
  bool zones = w->zone_count > 0;
  IntegrateJob job = {w, st, mo, active, h, zones, any_rk4};
  SerialJob sj = {w, h, inv_h, soft, soft_static};
  /* the sub-steps' stages, handed to the threads in as few loops as the array allows: the
   * threads meet between stages on a counter (wide_solver.c), not in a loop of the pool's each */
  PhysicsStage stages[96];
  Softness fill_soft[2] = {soft, soft_static};
  uint32_t n = 0;
  stages[n++] = (PhysicsStage){PHYS_STAGE_FILL, NULL, fill_soft, 0};
  bool serial = w->joint_count > 0 || w->overflow_count > 0;
  for (uint32_t sub = 0; sub < substeps; sub++) {
    if (n + 12u > sizeof stages / sizeof stages[0]) {
      physics_wide_run(w, stages, n, inv_h);
      n = 0;
    }
    bool last = sub + 1 == substeps;
    stages[n++] = (PhysicsStage){PHYS_STAGE_BODIES, integrate_velocities, &job, na};
    if (serial) stages[n++] = (PhysicsStage){PHYS_STAGE_SERIAL, serial_warm_start, &sj, 1};
    stages[n++] = (PhysicsStage){PHYS_STAGE_WARM_START, NULL, NULL, 0};
    if (serial) stages[n++] = (PhysicsStage){PHYS_STAGE_SERIAL, serial_solve, &sj, 1};
    stages[n++] = (PhysicsStage){PHYS_STAGE_SOLVE, NULL, NULL, 0};
    /* what the last relaxation takes off each velocity (the bodies' stop_dv, set below): in a
     * state-ordered array, not in the large Body structs, twice per step */
    bool joints = w->joint_count > 0;
    stages[n++] = (PhysicsStage){PHYS_STAGE_BODIES, last && !joints ? integrate_positions_stops : integrate_positions, &job, na};
    if (joints) stages[n++] = (PhysicsStage){PHYS_STAGE_SERIAL, serial_joints_relax, &sj, 1};
    if (last && joints) stages[n++] = (PhysicsStage){PHYS_STAGE_BODIES, stops_before, &job, na};
    if (w->overflow_count > 0) stages[n++] = (PhysicsStage){PHYS_STAGE_SERIAL, serial_overflow_relax, &sj, 1};
    stages[n++] = (PhysicsStage){last ? PHYS_STAGE_RELAX_STORE : PHYS_STAGE_RELAX, NULL, NULL, 0};
    if (last) stages[n++] = (PhysicsStage){PHYS_STAGE_BODIES, stops_after, &job, na};
  }
  physics_wide_run(w, stages, n, inv_h);
  phase_end(pc, &prof->solve);
  physics_contacts_restitution(w, h);
  /* at least 128 bodies a chunk (at 512, 5,000 bodies made 10 chunks: the threads ended up to a
   * tenth of the loop apart) */
  physics_parallel_for(w->tasks, na, 128, write_back, &job);
  physics_pixel_masks_step(w, dt);
  if (!physics_contact_events(w)) {
    w->locked = false;
    return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  }
  if (w->def.contact_begin_fn)
    for (uint32_t i = 0; i < w->ev_begin_count; i++)
      w->def.contact_begin_fn(w, &w->ev_begin[i], w->def.callback_user);

  phase_end(pc, &prof->finish);
  physics_islands_sleep(w, dt);
  w->step_count++;
  w->locked = false;
  physics_destroy_pending(w);
  phase_end(pc, &prof->sleep);
  return TESS_OK;
}
