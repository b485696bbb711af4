/* Islands: the dynamic bodies joined by touching contacts or by joints. A body awake wakes its
 * whole island; an island sleeps when every body in it has rested long enough. The islands are
 * found each step by a union-find the workers share: each link is a compare-and-swap that hangs
 * the larger root under the smaller, so a parent is never above its child, and every island's
 * root is its lowest body slot whoever links first. Every pass after the links reads roots
 * only (the same for any number of workers), and what several bodies write to one island (its
 * waking, its shortest rest) is an order-free flag or minimum. */
#include <float.h>
#include <stdatomic.h>
#include <string.h>

#include "physics_private.h"

#define BODY_GRAIN 2048u
#define CONTACT_GRAIN 2048u

/* The root of i, halving the path on the way (each write hangs a node under its grandparent, an
 * ancestor whatever other links happen meanwhile). */
static uint32_t find_root(_Atomic uint32_t *parent, uint32_t i) {
  for (;;) {
    uint32_t p = atomic_load_explicit(&parent[i], memory_order_relaxed);
    if (p == i) return i;
    uint32_t g = atomic_load_explicit(&parent[p], memory_order_relaxed);
    if (g != p) atomic_compare_exchange_weak_explicit(&parent[i], &p, g, memory_order_relaxed, memory_order_relaxed);
    i = g;
  }
}

static void unite(_Atomic uint32_t *parent, uint32_t a, uint32_t b) {
  for (;;) {
    a = find_root(parent, a);
    b = find_root(parent, b);
    if (a == b) return;
    if (a > b) {
      uint32_t t = a;
      a = b;
      b = t;
    }
    uint32_t expected = b; /* b is still a root: hang it under a */
    if (atomic_compare_exchange_weak_explicit(&parent[b], &expected, a, memory_order_relaxed, memory_order_relaxed))
      return;
  }
}

static _Atomic uint32_t *parents(const TessWorld *w) { return (_Atomic uint32_t *)w->island_parent; }

static bool both_dynamic(const TessWorld *w, uint32_t a, uint32_t b) {
  return a != TESS_NULL_INDEX && b != TESS_NULL_INDEX && w->bodies[a].type == TESS_BODY_DYNAMIC &&
         w->bodies[b].type == TESS_BODY_DYNAMIC;
}

static void reset_task(void *ctx, uint32_t begin, uint32_t end) {
  TessWorld *w = ctx;
  for (uint32_t i = begin; i < end; i++) {
    atomic_store_explicit(&parents(w)[i], i, memory_order_relaxed);
    w->island_awake[i] = 0;
  }
}

static void link_contacts(void *ctx, uint32_t begin, uint32_t end) {
  TessWorld *w = ctx;
  for (uint32_t i = begin; i < end; i++) {
    const Contact *c = &w->contacts[i];
    if (c->point_count == 0 || !(c->flags & CONTACT_TOUCHING) || !both_dynamic(w, c->body_a, c->body_b)) continue;
    unite(parents(w), c->body_a, c->body_b);
  }
}

/* Every body straight under its root; then the islands with an awake body marked. */
static void flatten_task(void *ctx, uint32_t begin, uint32_t end) {
  TessWorld *w = ctx;
  for (uint32_t i = begin; i < end; i++) atomic_store_explicit(&parents(w)[i], find_root(parents(w), i), memory_order_relaxed);
}

static void mark_awake(void *ctx, uint32_t begin, uint32_t end) {
  TessWorld *w = ctx;
  _Atomic uint8_t *awake = (_Atomic uint8_t *)w->island_awake;
  for (uint32_t i = begin; i < end; i++) {
    const Body *b = &w->bodies[i];
    if (b->in_use && b->type == TESS_BODY_DYNAMIC && b->awake)
      atomic_store_explicit(&awake[w->island_parent[i]], 1, memory_order_relaxed);
  }
}

static void wake_task(void *ctx, uint32_t begin, uint32_t end) {
  TessWorld *w = ctx;
  for (uint32_t i = begin; i < end; i++) {
    Body *b = &w->bodies[i];
    if (b->in_use && b->type == TESS_BODY_DYNAMIC && !b->awake && w->island_awake[w->island_parent[i]]) {
      b->awake = 1;
      b->sleep_time = 0.0f;
    }
  }
}

void physics_islands_wake(TessWorld *w) {
  bool any_asleep = false, any_resting = false;
  for (uint32_t i = 0; w->maybe_asleep && i < w->body_count && !any_asleep; i++) {
    const Body *b = &w->bodies[i];
    bool asleep = b->in_use && b->type != TESS_BODY_STATIC && !b->awake;
    any_resting = any_resting || asleep;
    any_asleep = asleep && b->type == TESS_BODY_DYNAMIC;
  }
  if (!any_resting) w->maybe_asleep = false; /* the scan covered every body */
  w->islands_built = any_asleep || w->def.enable_sleep;
  if (!w->islands_built) return; /* nothing to wake, and nothing will sleep */
  uint32_t n = w->body_count;
  physics_parallel_for(w->tasks, n, BODY_GRAIN, reset_task, w);
  physics_parallel_for(w->tasks, w->contact_count, CONTACT_GRAIN, link_contacts, w);
  for (uint32_t i = 0; i < w->joint_count; i++) {
    const Joint *j = &w->joints[i];
    if (j->in_use && both_dynamic(w, j->body_a, j->body_b)) unite(parents(w), j->body_a, j->body_b);
  }
  physics_parallel_for(w->tasks, n, BODY_GRAIN, flatten_task, w);
  physics_parallel_for(w->tasks, n, BODY_GRAIN, mark_awake, w);
  physics_parallel_for(w->tasks, n, BODY_GRAIN, wake_task, w);
}

typedef struct SleepJob {
  TessWorld *w;
  float dt;
  atomic_bool kinematic_moving, slept;
} SleepJob;

static bool moving_kinematic(const Body *b) {
  return b->type == TESS_BODY_KINEMATIC && (b->v.x != 0.0f || b->v.y != 0.0f || b->w != 0.0f);
}

/* Rest times (a kinematic body that moves is awake), and the islands' shortest rest reset. */
static void rest_task(void *ctx, uint32_t begin, uint32_t end) {
  SleepJob *j = ctx;
  TessWorld *w = j->w;
  float lin = w->def.sleep_linear_speed, ang = w->def.sleep_angular_speed;
  for (uint32_t i = begin; i < end; i++) {
    Body *b = &w->bodies[i];
    w->island_min_sleep[i] = FLT_MAX;
    w->island_awake[i] = 0; /* now: touches a moving kinematic body */
    if (!b->in_use || b->type == TESS_BODY_STATIC) continue;
    if (b->type == TESS_BODY_KINEMATIC) {
      if (moving_kinematic(b)) {
        b->awake = 1;
        atomic_store_explicit(&j->kinematic_moving, true, memory_order_relaxed);
      }
      continue;
    }
    if (!b->awake) continue;
    if (!b->enable_sleep || tess_v2_length(b->v) > lin || fabsf(b->w) > ang)
      b->sleep_time = 0.0f;
    else
      b->sleep_time += j->dt;
  }
}

/* Touching a moving kinematic body keeps a body awake. */
static void kinematic_touch(void *ctx, uint32_t begin, uint32_t end) {
  TessWorld *w = ctx;
  _Atomic uint8_t *touched = (_Atomic uint8_t *)w->island_awake;
  for (uint32_t i = begin; i < end; i++) {
    const Contact *c = &w->contacts[i];
    if (c->point_count == 0 || c->body_a == TESS_NULL_INDEX || c->body_b == TESS_NULL_INDEX) continue;
    if (moving_kinematic(&w->bodies[c->body_a])) atomic_store_explicit(&touched[c->body_b], 1, memory_order_relaxed);
    if (moving_kinematic(&w->bodies[c->body_b])) atomic_store_explicit(&touched[c->body_a], 1, memory_order_relaxed);
  }
}

/* Each island's shortest rest: rest times are >= 0, whose float bits order as the floats do. */
static void shortest_rest(void *ctx, uint32_t begin, uint32_t end) {
  SleepJob *j = ctx;
  TessWorld *w = j->w;
  _Atomic uint32_t *min_bits = (_Atomic uint32_t *)w->island_min_sleep;
  for (uint32_t i = begin; i < end; i++) {
    Body *b = &w->bodies[i];
    if (w->island_awake[i]) b->sleep_time = 0.0f;
    if (!b->in_use || b->type != TESS_BODY_DYNAMIC || !b->awake) continue;
    uint32_t bits;
    memcpy(&bits, &b->sleep_time, sizeof bits);
    _Atomic uint32_t *slot = &min_bits[w->island_parent[i]];
    uint32_t seen = atomic_load_explicit(slot, memory_order_relaxed);
    while (bits < seen && !atomic_compare_exchange_weak_explicit(slot, &seen, bits, memory_order_relaxed,
                                                                 memory_order_relaxed)) {
    }
  }
}

static void sleep_task(void *ctx, uint32_t begin, uint32_t end) {
  SleepJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t i = begin; i < end; i++) {
    Body *b = &w->bodies[i];
    if (!b->in_use || b->type != TESS_BODY_DYNAMIC || !b->awake) continue;
    if (w->island_min_sleep[w->island_parent[i]] >= w->def.time_to_sleep) {
      b->awake = 0;
      b->v = tess_v2(0.0f, 0.0f);
      b->stop_dv = tess_v2(0.0f, 0.0f);
      b->w = 0.0f;
      atomic_store_explicit(&j->slept, true, memory_order_relaxed);
    }
  }
}

void physics_islands_sleep(TessWorld *w, float dt) {
  if (!w->def.enable_sleep || !w->islands_built) {
    for (uint32_t i = 0; w->maybe_asleep && i < w->body_count; i++) { /* only an asleep kinematic body can wake here */
      Body *b = &w->bodies[i];
      if (b->in_use && moving_kinematic(b)) b->awake = 1;
    }
    return;
  }
  uint32_t n = w->body_count;
  SleepJob job = {w, dt, false, false};
  physics_parallel_for(w->tasks, n, BODY_GRAIN, rest_task, &job);
  if (atomic_load(&job.kinematic_moving)) physics_parallel_for(w->tasks, w->contact_count, CONTACT_GRAIN, kinematic_touch, w);
  physics_parallel_for(w->tasks, n, BODY_GRAIN, shortest_rest, &job);
  physics_parallel_for(w->tasks, n, BODY_GRAIN, sleep_task, &job);
  if (atomic_load(&job.slept)) w->maybe_asleep = true;
}
