/* The world and its handles: creation, bodies, shapes, joints, zones, and
 * the getters and setters. The step itself is in step.c. */
#include <stdlib.h>
#include <string.h>

#include "physics_private.h"
#include "physics_pixel_mask.h"

#define PI_F 3.14159265358979f

bool physics_grow_scratch(void **raw, void **aligned, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap) return true;
  uint32_t c = *cap ? *cap : 16;
  while (c < need) {
    if (c > UINT32_MAX / 2) return false;
    c *= 2;
  }
  size_t bytes;
  if (!tess_size_mul(c, elem, &bytes) || bytes > SIZE_MAX - 64) return false;
  void *p = tess_realloc(NULL, bytes + 64);
  if (!p) return false;
  tess_free(*raw);
  *raw = p;
  *aligned = (void *)(((uintptr_t)p + 63u) & ~(uintptr_t)63u);
  *cap = c;
  return true;
}

bool physics_grow(void **data, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap) return true;
  uint32_t c = *cap ? *cap : 16;
  while (c < need) {
    if (c > UINT32_MAX / 2) return false;
    c *= 2;
  }
  size_t bytes;
  if (!tess_size_mul(c, elem, &bytes)) return false;
  void *p = tess_realloc(*data, bytes);
  if (!p) return false;
  *data = p;
  *cap = c;
  return true;
}

TessMaterialMix tess_material_mix(float fa, float ra, float ta, float fb, float rb, float tb) {
  TessSurface a = {fa, ra, ta}, b = {fb, rb, tb};
  return tess_surface_mix(a, b);
}

static bool finite_nonneg(float v) { return isfinite(v) && v >= 0.0f; }

void tess_world_def_default(TessWorldDef *def) {
  memset(def, 0, sizeof *def);
  def->gravity = tess_v2(0.0f, 9.81f);
  def->substeps = 4;
  def->restitution_threshold = 0.5f;
  def->contact_hertz = 30.0f;
  def->contact_damping_ratio = 10.0f;
  def->joint_hertz = 60.0f;
  def->joint_damping_ratio = 2.0f;
  def->max_push_velocity = 3.0f;
  def->linear_slop = 0.005f;
  def->enable_sleep = true;
  def->time_to_sleep = 0.5f;
  def->sleep_linear_speed = 0.05f;
  def->sleep_angular_speed = 2.0f * PI_F / 180.0f;
  def->floor_drag = 0.0f;
  def->fluid_linear_drag = 2.0f;
  def->fluid_angular_drag = 2.0f;
  def->broad_phase_cell = 0.0f;
  def->worker_count = 1;
}

TessResult tess_world_create(const TessWorldDef *def, TessWorld **out, TessError *err) {
  TessWorldDef d;
  if (def)
    d = *def;
  else
    tess_world_def_default(&d);
  if (!tess_v2_is_finite(d.gravity) || d.substeps < 1 || d.substeps > 64 || !finite_nonneg(d.restitution_threshold) ||
      !finite_nonneg(d.contact_hertz) || !finite_nonneg(d.contact_damping_ratio) || !finite_nonneg(d.joint_hertz) ||
      !finite_nonneg(d.joint_damping_ratio) || !finite_nonneg(d.max_push_velocity) || !(d.linear_slop > 0.0f) ||
      !isfinite(d.linear_slop) || !finite_nonneg(d.time_to_sleep) || !finite_nonneg(d.sleep_linear_speed) ||
      !finite_nonneg(d.sleep_angular_speed) || !finite_nonneg(d.floor_drag) || !finite_nonneg(d.fluid_linear_drag) ||
      !finite_nonneg(d.fluid_angular_drag) || !finite_nonneg(d.broad_phase_cell) || d.worker_count < 1 || d.worker_count > 64 ||
      (d.enqueue_task == NULL) != (d.finish_task == NULL))
    return tess_error_set(err, TESS_ERR_INVALID, "world", "world definition has a non-finite or out-of-range value");
  TessWorld *w = tess_calloc(1, sizeof *w);
  if (!w) return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
  w->def = d;
  w->wide8 = physics_wide8_available();
  const char *profile = getenv("TESS_PHYSICS_PROFILE");
  w->profile = profile && profile[0] == '1';
  if (d.enqueue_task) {
    w->tasks = physics_tasks_create_user(d.enqueue_task, d.finish_task, d.user_task_context, d.worker_count);
    if (!w->tasks) {
      tess_free(w);
      return tess_error_set(err, TESS_ERR_NOMEM, "world", "out of memory");
    }
  } else if (d.worker_count > 1) {
    w->tasks = physics_tasks_create(d.worker_count);
    if (!w->tasks) {
      tess_free(w);
      return tess_error_set(err, TESS_ERR_NOMEM, "world", "cannot start %u worker threads", d.worker_count - 1);
    }
  }
  w->body_free = w->shape_free = w->joint_free = TESS_NULL_INDEX;
  *out = w;
  return TESS_OK;
}

void tess_world_destroy(TessWorld *w) {
  if (!w) return;
  TESS_ASSERT(!w->locked && "tess_world_destroy called during a step");
  physics_tasks_destroy(w->tasks);
  tess_free(w->bodies);
  tess_free(w->shapes);
  tess_free(w->joints);
  tess_free(w->contacts);
  tess_free(w->contacts_old);
  tess_free(w->cbuf_raw);
  tess_free(w->coff);
  physics_keytable_free(&w->contact_table);
  tess_free(w->sensors);
  tess_free(w->sensors_new);
  tess_free(w->zones);
  physics_map_free(&w->map);
  physics_pixel_masks_free(w);
  tess_free(w->ev_begin);
  tess_free(w->ev_end);
  tess_free(w->ev_sbegin);
  tess_free(w->ev_send);
  tess_free(w->pending);
  tess_free(w->states_raw);
  tess_free(w->motions);
  tess_free(w->island_parent);
  tess_free(w->island_min_sleep);
  tess_free(w->island_awake);
  tess_free(w->bp_scratch_raw);
  tess_free(w->bp_scratch2);
  tess_free(w->pairs);
  tess_free(w->pairs_tmp);
  tess_free(w->radix_count);
  tess_free(w->joint_pairs);
  tess_free(w->wpolys_raw);
  tess_free(w->margins);
  tess_free(w->centers);
  tess_free(w->moving);
  tess_free(w->sweeps);
  tess_free(w->paths);
  tess_free(w->stop_dv);
  tess_free(w->pair_manifolds);
  tess_free(w->bp_blocks);
  for (uint32_t i = 0; i < w->bp_piece_count; i++) tess_free(w->bp_pieces[i].pairs);
  tess_free(w->bp_pieces);
  for (uint32_t i = 0; i < w->map_piece_count; i++) tess_free(w->map_pieces[i].hits);
  tess_free(w->map_pieces);
  tess_free(w->contact_runs);
  tess_free(w->blocks);
  tess_free(w->event_items_raw);
  tess_free(w->state_blocks);
  tess_free(w->state_colors);
  tess_free(w->constraint_color);
  tess_free(w->constraint_slot);
  tess_free(w->part_list);
  tess_free(w->color_in);
  tess_free(w->overflow);
  tess_free(w->batches);
  tess_free(w->wbuf_raw);
  tess_free(w->pass_sync_raw);
  tess_free(w->active);
  tess_free(w->state_of);
  tess_free(w);
}

void tess_world_set_gravity(TessWorld *w, TessVec2 g) {
  if (tess_v2_is_finite(g)) w->def.gravity = g;
}
TessVec2 tess_world_gravity(const TessWorld *w) { return w->def.gravity; }
const TessWorldDef *tess_world_def(const TessWorld *w) { return &w->def; }
uint64_t tess_world_step_count(const TessWorld *w) { return w->step_count; }
uint32_t tess_world_body_count(const TessWorld *w) { return w->body_live; }

uint32_t tess_world_awake_body_count(const TessWorld *w) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < w->body_count; i++)
    if (physics_body_active(&w->bodies[i])) n++;
  return n;
}

uint32_t tess_world_contact_count(const TessWorld *w) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < w->contact_count; i++)
    if (w->contacts[i].point_count > 0) n++;
  return n;
}

uint32_t tess_world_solver_lanes(const TessWorld *w) { return w->wide8 ? 8u : 4u; }

TessStepProfile tess_world_profile(const TessWorld *w) { return w->prof; }

size_t tess_world_memory_bytes(const TessWorld *w) {
  size_t n = sizeof *w;
  n += (size_t)w->body_cap * sizeof(Body) + (size_t)w->shape_cap * sizeof(Shape) + (size_t)w->joint_cap * sizeof(Joint);
  n += ((size_t)w->contact_cap + w->contacts_old_cap) * sizeof(Contact) + w->cbuf_cap;
  n += (size_t)w->coff_cap * sizeof(uint32_t);
  n += (size_t)w->state_colors_cap * sizeof(uint32_t) + w->constraint_color_cap;
  n += ((size_t)w->overflow_cap + w->batch_cap) * sizeof(uint32_t) + w->wbuf_cap;
  n += (size_t)w->color_in_cap * sizeof(ColorIn) + (size_t)w->pass_sync_cap * 64u;
  n += (size_t)w->part_list_cap * sizeof(uint32_t);
  n += (size_t)w->contact_table.cap * sizeof(KeySlot);
  n += ((size_t)w->sensor_cap + w->sensors_new_cap) * sizeof(SensorOverlap);
  n += (size_t)w->states_cap * sizeof(BodyState) + (size_t)w->motions_cap * sizeof(BodyMotion);
  n += (size_t)w->island_cap * (sizeof(uint32_t) + sizeof(float) + 1);
  n += w->bp_scratch_size + w->bp_scratch2_size + ((size_t)w->pair_cap + w->pairs_tmp_cap) * sizeof(uint64_t) +
       (size_t)w->radix_count_cap * sizeof(uint32_t);
  n += (size_t)w->centers_cap * sizeof(TessVec2) + w->moving_cap;
  n += physics_pixel_masks_bytes(w);
  if (w->has_map) {
    n += (size_t)w->map.width * w->map.height * sizeof(MapCell);
    n += ((size_t)w->map.width * w->map.height + 63) / 64 * (sizeof(uint64_t) + sizeof(uint32_t));
    n += (size_t)(w->map.filled_count ? w->map.filled_count : 1) * sizeof(uint32_t);
    n += (size_t)w->map.piece_count * sizeof(MapPiece);
    if (w->map.piece_start) n += ((size_t)w->map.width * w->map.height + 1) * sizeof(uint32_t);
  }
  return n;
}

TessWorldEvents tess_world_events(const TessWorld *w) {
  TessWorldEvents e;
  e.contact_begin = w->ev_begin;
  e.contact_begin_count = w->ev_begin_count;
  e.contact_end = w->ev_end;
  e.contact_end_count = w->ev_end_count;
  e.sensor_begin = w->ev_sbegin;
  e.sensor_begin_count = w->ev_sbegin_count;
  e.sensor_end = w->ev_send;
  e.sensor_end_count = w->ev_send_count;
  return e;
}

/* ---- Bodies ------------------------------------------------------------ */

void tess_body_def_default(TessBodyDef *def) {
  memset(def, 0, sizeof *def);
  def->type = TESS_BODY_DYNAMIC;
  def->gravity_scale = 1.0f;
  def->awake = true;
  def->enable_sleep = true;
}

Body *physics_body_get(const TessWorld *w, TessBodyId id) {
  if (!w || id.index1 == 0 || id.index1 > w->body_count) return NULL;
  Body *b = &w->bodies[id.index1 - 1];
  if (!b->in_use || b->generation != id.generation || b->destroy_pending) return NULL;
  return b;
}

static Shape *shape_get(const TessWorld *w, TessShapeId id) {
  if (!w || id.index1 == 0 || id.index1 > w->shape_count) return NULL;
  Shape *s = &w->shapes[id.index1 - 1];
  if (!s->in_use || s->generation != id.generation) return NULL;
  return s;
}

static Joint *joint_get(const TessWorld *w, TessJointId id) {
  if (!w || id.index1 == 0 || id.index1 > w->joint_count) return NULL;
  Joint *j = &w->joints[id.index1 - 1];
  if (!j->in_use || j->generation != id.generation) return NULL;
  return j;
}

/* The handle a caller passes must name a live body, shape or joint: a stale
 * one (destroyed, or from before a restore that did not have it) or a wild
 * one is a programmer mistake, which asserts in debug and CI builds (Box2D's
 * b2GetBodyFullId). With assertions off the call goes on to its documented
 * answer (TESS_ERR_NOT_FOUND, or zeros). The *_is_valid queries ask without
 * asserting. */
static Body *body_use(const TessWorld *w, TessBodyId id) {
  Body *b = physics_body_get(w, id);
  TESS_ASSERT(b != NULL && "stale or wild body handle");
  return b;
}

static Shape *shape_use(const TessWorld *w, TessShapeId id) {
  Shape *s = shape_get(w, id);
  TESS_ASSERT(s != NULL && "stale or wild shape handle");
  return s;
}

static Joint *joint_use(const TessWorld *w, TessJointId id) {
  Joint *j = joint_get(w, id);
  TESS_ASSERT(j != NULL && "stale or wild joint handle");
  return j;
}

static void body_wake(Body *b) {
  if (b->type == TESS_BODY_STATIC) return;
  b->awake = 1;
  b->sleep_time = 0.0f;
}

static void body_sync_center(Body *b) { b->center = tess_transform_point(b->xf, b->local_center); }

void physics_body_update_mass(TessWorld *w, Body *b) {
  float min_extent = FLT_MAX, max_extent = 0.0f;
  if (!b->mass_set) {
    b->mass = b->inv_mass = b->inertia = b->inv_inertia = 0.0f;
    b->local_center = tess_v2(0.0f, 0.0f);
  }
  if (!b->mass_set && b->type == TESS_BODY_DYNAMIC) {
    float mass = 0.0f;
    TessVec2 c = {0.0f, 0.0f};
    for (uint32_t s = b->shape_head; s != TESS_NULL_INDEX; s = w->shapes[s].next) {
      Shape *sh = &w->shapes[s];
      if (sh->density <= 0.0f) continue;
      float m = sh->density * sh->area;
      mass += m;
      c = tess_v2_mul_add(c, m, sh->centroid);
    }
    if (mass > 0.0f) {
      c = tess_v2_scale(1.0f / mass, c);
      float inertia = 0.0f;
      for (uint32_t s = b->shape_head; s != TESS_NULL_INDEX; s = w->shapes[s].next) {
        Shape *sh = &w->shapes[s];
        if (sh->density <= 0.0f) continue;
        float m = sh->density * sh->area;
        inertia += sh->density * sh->inertia_c + m * tess_v2_length_sq(tess_v2_sub(sh->centroid, c));
      }
      b->mass = mass;
      b->local_center = c;
      b->inertia = inertia;
    } else {
      b->mass = 1.0f; /* a dynamic body always has mass (Box2D's rule) */
      b->inertia = 0.0f;
    }
  }
  if (b->type == TESS_BODY_DYNAMIC) {
    b->inv_mass = b->mass > 0.0f ? 1.0f / b->mass : 0.0f;
    b->inv_inertia = (b->inertia > 0.0f && !b->fixed_rotation) ? 1.0f / b->inertia : 0.0f;
  } else {
    b->inv_mass = b->inv_inertia = 0.0f;
  }
  for (uint32_t s = b->shape_head; s != TESS_NULL_INDEX; s = w->shapes[s].next) {
    Shape *sh = &w->shapes[s];
    float inner = physics_poly_inner_radius(&sh->poly, sh->centroid);
    if (inner < min_extent) min_extent = inner;
    for (uint32_t i = 0; i < sh->poly.count; i++) {
      float d = tess_v2_distance(sh->poly.v[i], b->local_center) + sh->poly.radius;
      if (d > max_extent) max_extent = d;
    }
  }
  b->min_extent = min_extent == FLT_MAX ? 0.0f : min_extent;
  b->max_extent = max_extent;
  body_sync_center(b);
}

TessResult tess_body_create(TessWorld *w, const TessBodyDef *def, TessBodyId *out, TessError *err) {
  TESS_ASSERT(!w->locked && "tess_body_create called during a step");
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "world", "cannot create a body during a step");
  TessBodyDef d;
  if (def)
    d = *def;
  else
    tess_body_def_default(&d);
  if ((unsigned)d.type > TESS_BODY_DYNAMIC)
    return tess_error_set(err, TESS_ERR_INVALID, "body", "unknown body type %d", (int)d.type);
  if (!tess_v2_is_finite(d.position) || !isfinite(d.angle) || !tess_v2_is_finite(d.linear_velocity) ||
      !isfinite(d.angular_velocity) || !finite_nonneg(d.linear_damping) || !finite_nonneg(d.angular_damping) ||
      !isfinite(d.gravity_scale))
    return tess_error_set(err, TESS_ERR_INVALID, "body", "body definition has a non-finite or negative value");
  if ((unsigned)d.integrator > TESS_INTEGRATOR_RK4)
    return tess_error_set(err, TESS_ERR_INVALID, "body", "body definition names no known integrator (%u)",
                          (unsigned)d.integrator);
  uint32_t index;
  if (!PHYS_SLOT_TAKE(w->bodies, Body, &w->body_cap, &w->body_count, &w->body_free, shape_head, &index))
    return tess_error_set(err, TESS_ERR_NOMEM, "body", "out of memory");
  Body *b = &w->bodies[index];
  b->type = (uint8_t)d.type;
  b->awake = d.type == TESS_BODY_STATIC ? 0 : (d.awake ? 1 : 0);
  if (d.type != TESS_BODY_STATIC && !d.awake) w->maybe_asleep = true;
  b->enable_sleep = d.enable_sleep;
  b->fixed_rotation = d.fixed_rotation;
  b->xf.p = d.position;
  b->xf.q = tess_rot(d.angle);
  b->xf_prev = b->xf;
  if (d.type != TESS_BODY_STATIC) {
    b->v = d.linear_velocity;
    b->w = d.angular_velocity;
  }
  b->linear_damping = d.linear_damping;
  b->angular_damping = d.angular_damping;
  b->gravity_scale = d.gravity_scale;
  b->integrator = (uint8_t)d.integrator;
  b->shape_head = TESS_NULL_INDEX;
  b->user_data = d.user_data;
  physics_body_update_mass(w, b);
  w->body_live++;
  TessBodyId id = {index + 1, b->generation};
  *out = id;
  return TESS_OK;
}

static void purge_contacts_of_body(TessWorld *w, uint32_t body) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < w->contact_count; i++) {
    Contact *c = &w->contacts[i];
    if (c->body_a == body || c->body_b == body) continue;
    if (k != i) w->contacts[k] = *c;
    k++;
  }
  w->contact_count = k;
  k = 0;
  for (uint32_t i = 0; i < w->sensor_count; i++) {
    SensorOverlap *o = &w->sensors[i];
    uint32_t s1 = (uint32_t)(o->key >> 32), s2 = (uint32_t)o->key;
    if (w->shapes[s1].body == body || w->shapes[s2].body == body) continue;
    w->sensors[k++] = *o;
  }
  w->sensor_count = k;
}

static void joint_free_slot(TessWorld *w, uint32_t index) {
  PHYS_SLOT_GIVE_BACK(w->joints, Joint, &w->joint_free, body_a, index);
  w->joint_live--;
}

static void shape_free_slot(TessWorld *w, uint32_t index) {
  PHYS_SLOT_GIVE_BACK(w->shapes, Shape, &w->shape_free, next, index);
  w->shape_live--;
}

static void body_destroy_now(TessWorld *w, uint32_t index) {
  Body *b = &w->bodies[index];
  /* wake what touched it, so nothing floats where it was */
  for (uint32_t i = 0; i < w->contact_count; i++) {
    Contact *c = &w->contacts[i];
    uint32_t other = c->body_a == index ? c->body_b : (c->body_b == index ? c->body_a : TESS_NULL_INDEX);
    if (other != TESS_NULL_INDEX && other != index) body_wake(&w->bodies[other]);
  }
  purge_contacts_of_body(w, index);
  if (w->pmask_count) physics_pixel_masks_body_destroyed(w, (TessBodyId){index + 1, b->generation}); /* its pixels go too */
  for (uint32_t j = 0; j < w->joint_count; j++) {
    Joint *jt = &w->joints[j];
    if (jt->in_use && (jt->body_a == index || jt->body_b == index)) {
      uint32_t other = jt->body_a == index ? jt->body_b : jt->body_a;
      if (other != TESS_NULL_INDEX && other != index) body_wake(&w->bodies[other]);
      joint_free_slot(w, j);
    }
  }
  uint32_t s = b->shape_head;
  while (s != TESS_NULL_INDEX) {
    uint32_t next = w->shapes[s].next;
    shape_free_slot(w, s);
    s = next;
  }
  b->destroy_pending = 0;
  PHYS_SLOT_GIVE_BACK(w->bodies, Body, &w->body_free, shape_head, index);
  w->body_live--;
}

TessResult tess_body_destroy(TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  if (w->locked) {
    if (!PHYS_GROW(w->pending, &w->pending_cap, w->pending_count + 1)) return TESS_ERR_NOMEM;
    w->pending[w->pending_count++].body = id;
    b->destroy_pending = 1; /* invalid from now on; removed at the step's end */
    return TESS_OK;
  }
  body_destroy_now(w, id.index1 - 1);
  return TESS_OK;
}

void physics_destroy_pending(TessWorld *w);
void physics_destroy_pending(TessWorld *w) {
  for (uint32_t i = 0; i < w->pending_count; i++) {
    TessBodyId id = w->pending[i].body;
    Body *b = &w->bodies[id.index1 - 1];
    if (b->in_use && b->generation == id.generation && b->destroy_pending) body_destroy_now(w, id.index1 - 1);
  }
  w->pending_count = 0;
  if (w->pmask_count) physics_pixel_masks_end_step(w); /* masks removed from a callback */
}

bool tess_body_is_valid(const TessWorld *w, TessBodyId id) { return physics_body_get(w, id) != NULL; }

TessBodyType tess_body_type(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? (TessBodyType)b->type : TESS_BODY_STATIC;
}
TessTransform tess_body_transform(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->xf : tess_transform_identity();
}
TessVec2 tess_body_position(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->xf.p : tess_v2(0.0f, 0.0f);
}
float tess_body_angle(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? tess_rot_angle(b->xf.q) : 0.0f;
}
TessVec2 tess_body_world_center(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->center : tess_v2(0.0f, 0.0f);
}
TessVec2 tess_body_linear_velocity(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->v : tess_v2(0.0f, 0.0f);
}
float tess_body_angular_velocity(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->w : 0.0f;
}
float tess_body_mass(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->mass : 0.0f;
}
float tess_body_inertia(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->inertia : 0.0f;
}
TessVec2 tess_body_local_center(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->local_center : tess_v2(0.0f, 0.0f);
}
bool tess_body_is_awake(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b && b->awake;
}
uint64_t tess_body_user_data(const TessWorld *w, TessBodyId id) {
  Body *b = body_use(w, id);
  return b ? b->user_data : 0;
}

TessTransform tess_body_interpolated_transform(const TessWorld *w, TessBodyId id, float alpha) {
  Body *b = body_use(w, id);
  if (!b) return tess_transform_identity();
  alpha = alpha < 0.0f ? 0.0f : (alpha > 1.0f ? 1.0f : alpha);
  TessTransform t;
  t.p = tess_v2_lerp(b->xf_prev.p, b->xf.p, alpha);
  t.q = tess_rot_nlerp(b->xf_prev.q, b->xf.q, alpha);
  return t;
}

TessResult tess_body_set_transform(TessWorld *w, TessBodyId id, TessVec2 p, float angle) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  TESS_ASSERT(!w->locked && "tess_body_set_transform called during a step");
  if (w->locked) return TESS_ERR_LOCKED;
  if (!tess_v2_is_finite(p) || !isfinite(angle)) return TESS_ERR_INVALID;
  b->xf.p = p;
  b->xf.q = tess_rot(angle);
  b->xf_prev = b->xf;
  body_sync_center(b);
  body_wake(b);
  if (w->pmask_count) physics_pixel_masks_body_moved(w, id); /* a static body's pixels go with it */
  return TESS_OK;
}

static float clamp_speed(float v) { return v > TESS_MAX_SPEED ? TESS_MAX_SPEED : (v < -TESS_MAX_SPEED ? -TESS_MAX_SPEED : v); }

TessIntegrator tess_body_integrator(const TessWorld *w, TessBodyId id) {
  const Body *b = physics_body_get(w, id);
  return b ? (TessIntegrator)b->integrator : TESS_INTEGRATOR_EULER;
}

TessResult tess_body_set_integrator(TessWorld *w, TessBodyId id, TessIntegrator integrator) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  if ((unsigned)integrator > TESS_INTEGRATOR_RK4) return TESS_ERR_INVALID;
  b->integrator = (uint8_t)integrator;
  return TESS_OK;
}

TessResult tess_body_set_linear_velocity(TessWorld *w, TessBodyId id, TessVec2 v) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  if (!tess_v2_is_finite(v)) return TESS_ERR_INVALID;
  if (b->type == TESS_BODY_STATIC) return TESS_OK;
  b->v = tess_v2(clamp_speed(v.x), clamp_speed(v.y));
  b->stop_dv = tess_v2(0.0f, 0.0f); /* a new path */
  if (tess_v2_length_sq(v) > 0.0f) body_wake(b);
  return TESS_OK;
}

TessResult tess_body_set_angular_velocity(TessWorld *w, TessBodyId id, float av) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  if (!isfinite(av)) return TESS_ERR_INVALID;
  if (b->type == TESS_BODY_STATIC || b->fixed_rotation) return TESS_OK;
  b->w = av;
  if (av != 0.0f) body_wake(b);
  return TESS_OK;
}

TessResult tess_body_apply_force(TessWorld *w, TessBodyId id, TessVec2 f, TessVec2 point) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  if (!tess_v2_is_finite(f) || !tess_v2_is_finite(point)) return TESS_ERR_INVALID;
  if (b->type != TESS_BODY_DYNAMIC) return TESS_OK;
  body_wake(b);
  b->force = tess_v2_add(b->force, f);
  b->torque += tess_v2_cross(tess_v2_sub(point, b->center), f);
  return TESS_OK;
}

TessResult tess_body_apply_force_to_center(TessWorld *w, TessBodyId id, TessVec2 f) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  return tess_body_apply_force(w, id, f, b->center);
}

TessResult tess_body_apply_torque(TessWorld *w, TessBodyId id, float t) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  if (!isfinite(t)) return TESS_ERR_INVALID;
  if (b->type != TESS_BODY_DYNAMIC) return TESS_OK;
  body_wake(b);
  b->torque += t;
  return TESS_OK;
}

TessResult tess_body_apply_linear_impulse(TessWorld *w, TessBodyId id, TessVec2 j, TessVec2 point) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  if (!tess_v2_is_finite(j) || !tess_v2_is_finite(point)) return TESS_ERR_INVALID;
  if (b->type != TESS_BODY_DYNAMIC) return TESS_OK;
  body_wake(b);
  b->v = tess_v2_mul_add(b->v, b->inv_mass, j);
  b->stop_dv = tess_v2(0.0f, 0.0f); /* a new path */
  b->w += b->inv_inertia * tess_v2_cross(tess_v2_sub(point, b->center), j);
  return TESS_OK;
}

TessResult tess_body_set_awake(TessWorld *w, TessBodyId id, bool awake) {
  Body *b = body_use(w, id);
  if (!b) return TESS_ERR_NOT_FOUND;
  if (b->type == TESS_BODY_STATIC) return TESS_OK;
  if (awake) {
    body_wake(b);
  } else {
    b->awake = 0;
    w->maybe_asleep = true;
    b->v = tess_v2(0.0f, 0.0f);
    b->w = 0.0f;
  }
  return TESS_OK;
}

TessResult tess_body_set_mass_data(TessWorld *w, TessBodyId id, float mass, TessVec2 local_center, float inertia,
                                   TessError *err) {
  Body *b = body_use(w, id);
  if (!b) return tess_error_set(err, TESS_ERR_NOT_FOUND, "body", "stale or null body handle");
  TESS_ASSERT(!w->locked && "a body's mass set during a step");
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "body", "cannot change mass during a step");
  if (!isfinite(mass) || !(mass > 0.0f) || !tess_v2_is_finite(local_center) || !isfinite(inertia) ||
      !(inertia > 0.0f))
    return tess_error_set(err, TESS_ERR_INVALID, "body", "mass and inertia must be finite and positive");
  b->mass_set = 1;
  b->mass = mass;
  b->inertia = inertia;
  b->local_center = local_center;
  physics_body_update_mass(w, b);
  return TESS_OK;
}

/* ---- Shapes ------------------------------------------------------------ */

void tess_shape_def_default(TessShapeDef *def) {
  memset(def, 0, sizeof *def);
  TessSurface s = tess_surface_default();
  def->friction = s.friction;
  def->restitution = s.restitution;
  def->tangential = s.tangential;
  def->density = 1.0f;
  def->category = 0x1u;
  def->mask = 0xFFFFFFFFu;
}

static TessResult check_shape_def(const TessShapeDef *d, TessError *err) {
  TessSurface surface = {d->friction, d->restitution, d->tangential};
  TessResult r = tess_surface_check(surface, "shape", "shape", err);
  if (r) return r;
  if (!finite_nonneg(d->density) || d->density > 1e9f)
    return tess_error_set(err, TESS_ERR_INVALID, "shape", "density must be finite and >= 0");
  return TESS_OK;
}

static TessResult add_shape(TessWorld *w, TessBodyId body, const TessShapeDef *def, const PhysPoly *poly,
                            TessShapeType type, TessShapeId *out, TessError *err) {
  TESS_ASSERT(!w->locked && "a shape created during a step");
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "shape", "cannot create a shape during a step");
  Body *b = body_use(w, body);
  if (!b) return tess_error_set(err, TESS_ERR_NOT_FOUND, "shape", "stale or null body handle");
  TessShapeDef d;
  if (def)
    d = *def;
  else
    tess_shape_def_default(&d);
  TessResult r = check_shape_def(&d, err);
  if (r != TESS_OK) return r;
  uint32_t index;
  if (!PHYS_SLOT_TAKE(w->shapes, Shape, &w->shape_cap, &w->shape_count, &w->shape_free, next, &index))
    return tess_error_set(err, TESS_ERR_NOMEM, "shape", "out of memory");
  b = physics_body_get(w, body); /* bodies array unchanged, but stay safe */
  Shape *s = &w->shapes[index];
  s->type = (uint8_t)type;
  s->sensor = d.sensor;
  s->body = body.index1 - 1;
  s->poly = *poly;
  physics_poly_finish(&s->poly);
  s->friction = d.friction;
  s->restitution = d.restitution;
  s->tangential = d.tangential;
  s->density = d.sensor ? 0.0f : d.density;
  s->category = d.category;
  s->mask = d.mask;
  s->group = d.group;
  s->material = d.material;
  s->user_data = d.user_data;
  physics_poly_mass(&s->poly, &s->area, &s->centroid, &s->inertia_c);
  s->aabb = physics_poly_aabb(&s->poly, b->xf);
  /* append, so shapes keep creation order (determinism of pair order) */
  s->next = TESS_NULL_INDEX;
  if (b->shape_head == TESS_NULL_INDEX) {
    b->shape_head = index;
  } else {
    uint32_t t = b->shape_head;
    while (w->shapes[t].next != TESS_NULL_INDEX) t = w->shapes[t].next;
    w->shapes[t].next = index;
  }
  b->shape_count++;
  w->shape_live++;
  physics_body_update_mass(w, b);
  body_wake(b);
  TessShapeId id = {index + 1, s->generation};
  if (out) *out = id;
  return TESS_OK;
}

TessResult tess_shape_create_circle(TessWorld *w, TessBodyId body, const TessShapeDef *def, TessVec2 center,
                                    float radius, TessShapeId *out, TessError *err) {
  if (!tess_v2_is_finite(center) || !isfinite(radius) || !(radius > 0.0f) || radius > 1e6f)
    return tess_error_set(err, TESS_ERR_INVALID, "shape", "circle radius must be finite and > 0");
  PhysPoly p;
  memset(&p, 0, sizeof p);
  p.count = 1;
  p.v[0] = center;
  p.radius = radius;
  return add_shape(w, body, def, &p, TESS_SHAPE_CIRCLE, out, err);
}

TessResult tess_shape_create_capsule(TessWorld *w, TessBodyId body, const TessShapeDef *def, TessVec2 p1, TessVec2 p2,
                                     float radius, TessShapeId *out, TessError *err) {
  if (!tess_v2_is_finite(p1) || !tess_v2_is_finite(p2) || !isfinite(radius) || !(radius > 0.0f) || radius > 1e6f)
    return tess_error_set(err, TESS_ERR_INVALID, "shape", "capsule points and radius must be finite, radius > 0");
  if (tess_v2_distance(p1, p2) < 1e-4f) return tess_shape_create_circle(w, body, def, tess_v2_lerp(p1, p2, 0.5f), radius, out, err);
  PhysPoly p;
  memset(&p, 0, sizeof p);
  p.count = 2;
  p.v[0] = p1;
  p.v[1] = p2;
  p.radius = radius;
  return add_shape(w, body, def, &p, TESS_SHAPE_CAPSULE, out, err);
}

/* The rule is geom's, shared with scene and the tile map. */
TessResult tess_shape_polygon_validate(const TessVec2 *pts, uint32_t count, TessError *err) {
  return tess_polygon_check(pts, count, err);
}

TessResult tess_shape_create_polygon(TessWorld *w, TessBodyId body, const TessShapeDef *def, const TessVec2 *pts,
                                     uint32_t count, TessShapeId *out, TessError *err) {
  TessResult r = tess_shape_polygon_validate(pts, count, err);
  if (r != TESS_OK) return r;
  double area = 0.0;
  for (uint32_t i = 0; i < count; i++) {
    TessVec2 a = pts[i], b = pts[(i + 1) % count];
    area += (double)a.x * b.y - (double)b.x * a.y;
  }
  PhysPoly p;
  memset(&p, 0, sizeof p);
  p.count = count;
  for (uint32_t i = 0; i < count; i++) p.v[i] = area > 0.0 ? pts[i] : pts[count - 1 - i];
  return add_shape(w, body, def, &p, TESS_SHAPE_POLYGON, out, err);
}

TessResult tess_shape_create_box(TessWorld *w, TessBodyId body, const TessShapeDef *def, float hx, float hy,
                                 TessVec2 center, float angle, TessShapeId *out, TessError *err) {
  if (!isfinite(hx) || !isfinite(hy) || !(hx > 0.0f) || !(hy > 0.0f) || !tess_v2_is_finite(center) || !isfinite(angle))
    return tess_error_set(err, TESS_ERR_INVALID, "shape", "box half extents must be finite and > 0");
  TessTransform xf = {center, tess_rot(angle)};
  TessVec2 pts[4] = {tess_transform_point(xf, tess_v2(-hx, -hy)), tess_transform_point(xf, tess_v2(hx, -hy)),
                     tess_transform_point(xf, tess_v2(hx, hy)), tess_transform_point(xf, tess_v2(-hx, hy))};
  return tess_shape_create_polygon(w, body, def, pts, 4, out, err);
}

TessResult tess_shape_destroy(TessWorld *w, TessShapeId id) {
  Shape *s = shape_use(w, id);
  if (!s) return TESS_ERR_NOT_FOUND;
  TESS_ASSERT(!w->locked && "tess_shape_destroy called during a step");
  if (w->locked) return TESS_ERR_LOCKED;
  uint32_t index = id.index1 - 1;
  Body *b = &w->bodies[s->body];
  /* drop contacts and overlaps of this shape */
  uint32_t k = 0;
  for (uint32_t i = 0; i < w->contact_count; i++) {
    Contact *c = &w->contacts[i];
    if (c->shape_a == index || c->shape_b == index) continue;
    w->contacts[k++] = *c;
  }
  w->contact_count = k;
  k = 0;
  for (uint32_t i = 0; i < w->sensor_count; i++) {
    SensorOverlap *o = &w->sensors[i];
    if ((uint32_t)(o->key >> 32) == index || (uint32_t)o->key == index) continue;
    w->sensors[k++] = *o;
  }
  w->sensor_count = k;
  uint32_t *link = &b->shape_head;
  while (*link != TESS_NULL_INDEX && *link != index) link = &w->shapes[*link].next;
  if (*link == index) *link = s->next;
  b->shape_count--;
  shape_free_slot(w, index);
  physics_body_update_mass(w, b);
  body_wake(b);
  return TESS_OK;
}

bool tess_shape_is_valid(const TessWorld *w, TessShapeId id) {
  Shape *s = shape_get(w, id);
  return s && !w->bodies[s->body].destroy_pending;
}
TessBodyId tess_shape_body(const TessWorld *w, TessShapeId id) {
  Shape *s = shape_use(w, id);
  TessBodyId b = {0, 0};
  if (s) {
    b.index1 = s->body + 1;
    b.generation = w->bodies[s->body].generation;
  }
  return b;
}
TessShapeType tess_shape_type(const TessWorld *w, TessShapeId id) {
  Shape *s = shape_use(w, id);
  return s ? (TessShapeType)s->type : TESS_SHAPE_CIRCLE;
}
bool tess_shape_is_sensor(const TessWorld *w, TessShapeId id) {
  Shape *s = shape_use(w, id);
  return s && s->sensor;
}
uint64_t tess_shape_user_data(const TessWorld *w, TessShapeId id) {
  Shape *s = shape_use(w, id);
  return s ? s->user_data : 0;
}
TessAABB tess_shape_aabb(const TessWorld *w, TessShapeId id) {
  Shape *s = shape_use(w, id);
  TessAABB z = {{0, 0}, {0, 0}};
  if (!s) return z;
  return physics_poly_aabb(&s->poly, w->bodies[s->body].xf);
}

/* ---- Joints ------------------------------------------------------------ */

void tess_revolute_joint_def_default(TessRevoluteJointDef *def) { memset(def, 0, sizeof *def); }
void tess_distance_joint_def_default(TessDistanceJointDef *def) { memset(def, 0, sizeof *def); }
void tess_mouse_joint_def_default(TessMouseJointDef *def) {
  memset(def, 0, sizeof *def);
  def->hertz = 5.0f;
  def->damping_ratio = 0.7f;
  def->max_force = 0.0f;
}

/* Resolves a possibly-null body handle: TESS_NULL_INDEX for the world. */
static bool joint_body(TessWorld *w, TessBodyId id, uint32_t *index) {
  if (id.index1 == 0) {
    *index = TESS_NULL_INDEX;
    return true;
  }
  if (!body_use(w, id)) return false;
  *index = id.index1 - 1;
  return true;
}

static TessResult new_joint(TessWorld *w, TessBodyId a, TessBodyId b, TessJointType type, Joint **out_joint,
                            TessJointId *out, TessError *err) {
  TESS_ASSERT(!w->locked && "a joint created during a step");
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "joint", "cannot create a joint during a step");
  uint32_t ia, ib;
  if (!joint_body(w, a, &ia) || !joint_body(w, b, &ib))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, "joint", "stale body handle");
  if (ia == ib) return tess_error_set(err, TESS_ERR_INVALID, "joint", "a joint needs two different bodies");
  uint32_t index;
  if (!PHYS_SLOT_TAKE(w->joints, Joint, &w->joint_cap, &w->joint_count, &w->joint_free, body_a, &index))
    return tess_error_set(err, TESS_ERR_NOMEM, "joint", "out of memory");
  Joint *j = &w->joints[index];
  j->type = (uint8_t)type;
  j->body_a = ia;
  j->body_b = ib;
  w->joint_live++;
  if (ia != TESS_NULL_INDEX) body_wake(&w->bodies[ia]);
  if (ib != TESS_NULL_INDEX) body_wake(&w->bodies[ib]);
  *out_joint = j;
  TessJointId id = {index + 1, j->generation};
  if (out) *out = id;
  return TESS_OK;
}

static TessTransform joint_xf(const TessWorld *w, uint32_t body) {
  return body == TESS_NULL_INDEX ? tess_transform_identity() : w->bodies[body].xf;
}

TessResult tess_joint_create_revolute(TessWorld *w, const TessRevoluteJointDef *def, TessJointId *out, TessError *err) {
  if (!tess_v2_is_finite(def->anchor) || !isfinite(def->lower) || !isfinite(def->upper) || def->lower > def->upper)
    return tess_error_set(err, TESS_ERR_INVALID, "joint", "pin anchor and limits must be finite, lower <= upper");
  if (!isfinite(def->motor_speed) || !finite_nonneg(def->max_motor_torque))
    return tess_error_set(err, TESS_ERR_INVALID, "joint", "pin motor speed must be finite, its torque finite and >= 0");
  Joint *j;
  TessResult r = new_joint(w, def->body_a, def->body_b, TESS_JOINT_TYPE_REVOLUTE, &j, out, err);
  if (r != TESS_OK) return r;
  TessTransform xa = joint_xf(w, j->body_a), xb = joint_xf(w, j->body_b);
  j->local_a = tess_transform_point_inv(xa, def->anchor);
  j->local_b = tess_transform_point_inv(xb, def->anchor);
  j->reference_angle = tess_rot_angle(xb.q) - tess_rot_angle(xa.q);
  j->enable_limit = def->enable_limit;
  j->lower = def->lower;
  j->upper = def->upper;
  j->enable_motor = def->enable_motor;
  j->motor_speed = def->motor_speed;
  j->max_motor_torque = def->max_motor_torque;
  j->collide_connected = def->collide_connected;
  return TESS_OK;
}

TessResult tess_joint_create_distance(TessWorld *w, const TessDistanceJointDef *def, TessJointId *out, TessError *err) {
  if (!tess_v2_is_finite(def->anchor_a) || !tess_v2_is_finite(def->anchor_b) || !isfinite(def->length) ||
      !finite_nonneg(def->hertz) || !finite_nonneg(def->damping_ratio))
    return tess_error_set(err, TESS_ERR_INVALID, "joint", "distance joint values must be finite");
  Joint *j;
  TessResult r = new_joint(w, def->body_a, def->body_b, TESS_JOINT_TYPE_DISTANCE, &j, out, err);
  if (r != TESS_OK) return r;
  TessTransform xa = joint_xf(w, j->body_a), xb = joint_xf(w, j->body_b);
  j->local_a = tess_transform_point_inv(xa, def->anchor_a);
  j->local_b = tess_transform_point_inv(xb, def->anchor_b);
  float len = def->length > 0.0f ? def->length : tess_v2_distance(def->anchor_a, def->anchor_b);
  j->length = len < 0.005f ? 0.005f : len;
  j->hertz = def->hertz;
  j->damping_ratio = def->damping_ratio;
  j->collide_connected = def->collide_connected;
  return TESS_OK;
}

TessResult tess_joint_create_mouse(TessWorld *w, const TessMouseJointDef *def, TessJointId *out, TessError *err) {
  if (!tess_v2_is_finite(def->target) || !finite_nonneg(def->hertz) || !finite_nonneg(def->damping_ratio) ||
      !finite_nonneg(def->max_force))
    return tess_error_set(err, TESS_ERR_INVALID, "joint", "mouse joint values must be finite and >= 0");
  Body *b = body_use(w, def->body);
  if (!b) return tess_error_set(err, TESS_ERR_NOT_FOUND, "joint", "stale body handle");
  TessBodyId none = {0, 0};
  Joint *j;
  TessResult r = new_joint(w, none, def->body, TESS_JOINT_TYPE_MOUSE, &j, out, err);
  if (r != TESS_OK) return r;
  b = &w->bodies[j->body_b];
  j->local_b = tess_transform_point_inv(b->xf, def->target);
  j->target = def->target;
  j->hertz = def->hertz;
  j->damping_ratio = def->damping_ratio;
  j->max_force = def->max_force > 0.0f ? def->max_force : 1000.0f * 10.0f * (b->mass > 0.0f ? b->mass : 1.0f);
  return TESS_OK;
}

TessResult tess_joint_destroy(TessWorld *w, TessJointId id) {
  Joint *j = joint_use(w, id);
  if (!j) return TESS_ERR_NOT_FOUND;
  TESS_ASSERT(!w->locked && "tess_joint_destroy called during a step");
  if (w->locked) return TESS_ERR_LOCKED;
  if (j->body_a != TESS_NULL_INDEX) body_wake(&w->bodies[j->body_a]);
  if (j->body_b != TESS_NULL_INDEX) body_wake(&w->bodies[j->body_b]);
  joint_free_slot(w, id.index1 - 1);
  return TESS_OK;
}

bool tess_joint_is_valid(const TessWorld *w, TessJointId id) { return joint_get(w, id) != NULL; }
TessJointType tess_joint_type(const TessWorld *w, TessJointId id) {
  Joint *j = joint_use(w, id);
  return j ? (TessJointType)j->type : TESS_JOINT_TYPE_REVOLUTE;
}

TessResult tess_mouse_joint_set_target(TessWorld *w, TessJointId id, TessVec2 target) {
  Joint *j = joint_use(w, id);
  if (!j || j->type != TESS_JOINT_TYPE_MOUSE) return TESS_ERR_NOT_FOUND;
  if (!tess_v2_is_finite(target)) return TESS_ERR_INVALID;
  j->target = target;
  body_wake(&w->bodies[j->body_b]);
  return TESS_OK;
}

float tess_revolute_joint_angle(const TessWorld *w, TessJointId id) {
  Joint *j = joint_use(w, id);
  if (!j) return 0.0f;
  TessTransform xa = joint_xf(w, j->body_a), xb = joint_xf(w, j->body_b);
  float a = tess_rot_angle(xb.q) - tess_rot_angle(xa.q) - j->reference_angle;
  while (a > PI_F) a -= 2.0f * PI_F;
  while (a < -PI_F) a += 2.0f * PI_F;
  return a;
}

TessResult tess_revolute_joint_set_motor(TessWorld *w, TessJointId id, bool enable, float speed, float max_torque) {
  Joint *j = joint_use(w, id);
  if (!j) return TESS_ERR_NOT_FOUND;
  if (j->type != TESS_JOINT_TYPE_REVOLUTE || !isfinite(speed) || !finite_nonneg(max_torque)) return TESS_ERR_INVALID;
  j->enable_motor = enable;
  j->motor_speed = speed;
  j->max_motor_torque = max_torque;
  if (j->body_a != TESS_NULL_INDEX) body_wake(&w->bodies[j->body_a]);
  if (j->body_b != TESS_NULL_INDEX) body_wake(&w->bodies[j->body_b]);
  return TESS_OK;
}

float tess_revolute_joint_motor_torque(const TessWorld *w, TessJointId id, float dt) {
  Joint *j = joint_use(w, id);
  if (!j || j->type != TESS_JOINT_TYPE_REVOLUTE || !(dt > 0.0f)) return 0.0f;
  /* the solver keeps one sub-step's impulse */
  return j->motor_impulse / (dt / (float)w->def.substeps);
}

/* ---- Zones ------------------------------------------------------------- */

void tess_zone_def_default(TessZoneDef *def) {
  memset(def, 0, sizeof *def);
  def->min_distance = 0.1f;
}

TessResult tess_world_add_zone(TessWorld *w, const TessZoneDef *def, uint32_t *index_out, TessError *err) {
  if ((unsigned)def->type > TESS_ZONE_TYPE_SPRING || !tess_v2_is_finite(def->rect.lower) ||
      !tess_v2_is_finite(def->rect.upper) || !tess_v2_is_finite(def->vector) || !tess_v2_is_finite(def->center) ||
      !isfinite(def->strength) || !finite_nonneg(def->radius) || !finite_nonneg(def->min_distance) ||
      !isfinite(def->angle))
    return tess_error_set(err, TESS_ERR_INVALID, "zone", "zone definition has a non-finite or negative value");
  if (!PHYS_GROW(w->zones, &w->zone_cap, w->zone_count + 1))
    return tess_error_set(err, TESS_ERR_NOMEM, "zone", "out of memory");
  Zone *z = &w->zones[w->zone_count];
  z->def = *def;
  if (z->def.min_distance <= 0.0f) z->def.min_distance = 0.1f;
  z->center = tess_v2_scale(0.5f, tess_v2_add(def->rect.lower, def->rect.upper));
  z->half = tess_v2_scale(0.5f, tess_v2_sub(def->rect.upper, def->rect.lower));
  z->q = tess_rot(def->angle);
  if (index_out) *index_out = w->zone_count;
  w->zone_count++;
  return TESS_OK;
}

uint32_t tess_world_zone_count(const TessWorld *w) { return w->zone_count; }
