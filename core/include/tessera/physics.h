/* Tessera core/physics: a 2D rigid-body world built from a scene or by hand.
 *
 * Shape of the API follows Box2D v3: a world made from a definition struct,
 * bodies / shapes / joints as generation-checked handles (index + generation,
 * all zero = null), definitions filled by tess_*_def_default(). State is in
 * float; units are metres, kilograms, seconds, radians; y points down (side
 * view gravity is +y; "above" means smaller y).
 *
 * The step: broad phase (uniform hash grid over all shapes), narrow phase
 * (manifolds of up to 2 points for every pair of circle / capsule / convex
 * polygon, and every shape against the tile map under its bounding box),
 * islands and sleeping, then a soft-step solver (Box2D v3's "soft step"):
 * sub-steps of warm-started, soft sequential impulses with relaxation,
 * speculative contacts (no tunnelling against the map: a contact's margin
 * grows with the body's speed, so a body cannot cross a face it is heading
 * for within one step), restitution and tangential efficiency applied once
 * at an impact (relative normal speed above the restitution threshold).
 *
 * Materials combine as DESIGN.md says: friction by geometric mean,
 * restitution and tangential efficiency multiplied.
 *
 * Thread use: one world per thread at a time. The world is locked during a
 * step; body destruction requested from a callback is deferred to the
 * step's end, other changes while locked return TESS_ERR_LOCKED. */
#ifndef TESSERA_PHYSICS_H
#define TESSERA_PHYSICS_H

#include "tessera/base.h"
#include "tessera/geom.h" /* TessPolygon, TESS_POLY_MAX */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TessWorld TessWorld;

/* ---- Handles ----------------------------------------------------------- */

typedef struct TessBodyId {
  uint32_t index1; /* slot + 1; 0 = null */
  uint32_t generation;
} TessBodyId;
typedef struct TessShapeId {
  uint32_t index1;
  uint32_t generation;
} TessShapeId;
typedef struct TessJointId {
  uint32_t index1;
  uint32_t generation;
} TessJointId;

static inline bool tess_body_id_is_null(TessBodyId id) { return id.index1 == 0; }
static inline bool tess_shape_id_is_null(TessShapeId id) { return id.index1 == 0; }
static inline bool tess_joint_id_is_null(TessJointId id) { return id.index1 == 0; }
static inline bool tess_body_id_equal(TessBodyId a, TessBodyId b) { return a.index1 == b.index1 && a.generation == b.generation; }
static inline bool tess_shape_id_equal(TessShapeId a, TessShapeId b) { return a.index1 == b.index1 && a.generation == b.generation; }

/* ---- Materials --------------------------------------------------------- */

/* How two materials in contact combine (DESIGN.md): friction is the
 * geometric mean, restitution and tangential efficiency multiply. */
typedef TessSurface TessMaterialMix; /* tess_surface_mix() of two loose triples */
TessMaterialMix tess_material_mix(float friction_a, float restitution_a, float tangential_a, float friction_b,
                                  float restitution_b, float tangential_b);

/* ---- Events and callbacks --------------------------------------------- */

/* A contact that began touching this step. Valid until the next step.
 *
 * Normal convention (Box2D's): the unit normal points from shape `a` to
 * shape `b`. Body against body: `a` is the shape with the lower slot.
 * Body against the tile map: `a` is always the body's shape (body_a its
 * body), `b` and body_b are null, cell_x / cell_y name the cell, and the
 * cell takes b's place: the normal points from the body's shape into the
 * cell. A ball resting on a floor below it reports (0, +1) (y points down),
 * a ball hitting a wall to its right (+1, 0). A body lying across several
 * tiles along one flat run of their faces (a box on a floor of tiles of one
 * material), or along a slope drawn with several slope tiles whose sloped
 * edges are on one line, has one contact with the run, as with one long
 * static box or ramp; its events name the cell under its first point when
 * the step began, and it begins and ends once however many tiles the body
 * slides across (its points, tess_world_contact_points, each name the cell
 * under them). */
typedef struct TessContactEvent {
  TessShapeId a, b;
  TessBodyId body_a, body_b;
  bool with_map;
  uint32_t cell_x, cell_y;
  TessVec2 point;       /* world */
  TessVec2 normal;      /* unit, from a to b (map contacts: from a's shape into the cell) */
  float approach_speed; /* relative normal speed at the impact, >= 0 */
} TessContactEvent;

typedef struct TessContactEndEvent {
  TessShapeId a, b; /* as in TessContactEvent (a = the body's shape for the map); may name shapes destroyed since */
  bool with_map;
  uint32_t cell_x, cell_y;
} TessContactEndEvent;

/* Sensor events: `sensor` began / stopped overlapping `visitor`. */
typedef struct TessSensorEvent {
  TessShapeId sensor, visitor;
} TessSensorEvent;

typedef struct TessWorldEvents {
  const TessContactEvent *contact_begin;
  uint32_t contact_begin_count;
  const TessContactEndEvent *contact_end;
  uint32_t contact_end_count;
  const TessSensorEvent *sensor_begin;
  uint32_t sensor_begin_count;
  const TessSensorEvent *sensor_end;
  uint32_t sensor_end_count;
} TessWorldEvents;

/* Called during the step (world locked) for each begin event. Destroying
 * bodies from here is allowed: it takes effect at the end of the step. */
typedef void (*TessContactBeginFn)(TessWorld *world, const TessContactEvent *event, void *user);
typedef void (*TessSensorBeginFn)(TessWorld *world, const TessSensorEvent *event, void *user);

/* ---- The world --------------------------------------------------------- */

/* A game's own task system (the shape of Box2D v3's b2EnqueueTaskCallback): the world hands it
 * each loop of the step it can share out as `task` over the items [0, item_count). The game
 * calls task(begin, end, worker, task_context) on ranges that together cover every item once
 * (each range at least min_range items where it can; in any order, on any threads, `worker`
 * being the index, below TessWorldDef.worker_count, of the thread that runs it), and returns a
 * handle of its own that the world passes to finish_task, which returns only when every range
 * has run; or it runs them all before returning and returns NULL, and finish_task is not called.
 * The step waits for each loop before the next: the game's threads need never wait for the
 * world. Every item's result is the same whoever runs it, so a world steps to the same bits on
 * the game's scheduler as on its own workers. */
typedef void TessTaskFn(uint32_t begin, uint32_t end, uint32_t worker, void *task_context);
typedef void *TessEnqueueTaskFn(TessTaskFn *task, uint32_t item_count, uint32_t min_range, void *task_context,
                                void *user_context);
typedef void TessFinishTaskFn(void *user_task, void *user_context);

typedef struct TessWorldDef {
  TessVec2 gravity;            /* m/s^2; default (0, 9.81) */
  uint32_t substeps;           /* solver sub-steps per step, 1..64; default 4 */
  float restitution_threshold; /* m/s; impacts slower than this do not bounce; default 0.5 */
  float contact_hertz;         /* contact stiffness; default 30 */
  float contact_damping_ratio; /* default 10 */
  float joint_hertz;           /* default 60 */
  float joint_damping_ratio;   /* default 2 */
  float max_push_velocity;     /* m/s, speed of overlap recovery; default 3 */
  float linear_slop;           /* m; default 0.005 */
  bool enable_sleep;           /* default true */
  float time_to_sleep;         /* s; default 0.5 */
  float sleep_linear_speed;    /* m/s; default 0.05 */
  float sleep_angular_speed;   /* rad/s; default 2 degrees/s */
  float floor_drag;            /* top-down k in F = -k * friction * m * v; 0 = off (default) */
  float fluid_linear_drag;     /* 1/s at full submersion; default 2 */
  float fluid_angular_drag;    /* 1/s at full submersion; default 2 */
  float broad_phase_cell;      /* m; 0 = chosen from the shapes' sizes each step (default) */
  uint32_t worker_count;       /* threads that run a step, the caller's included, 1..64; default 1.
                                  Any count steps to the same bits; with enqueue_task, the threads
                                  of the game's scheduler (how finely the world cuts its loops) */
  TessContactBeginFn contact_begin_fn;
  TessSensorBeginFn sensor_begin_fn;
  void *callback_user;
  /* the game's scheduler instead of the world's own worker_count - 1 threads (both or neither) */
  TessEnqueueTaskFn *enqueue_task;
  TessFinishTaskFn *finish_task;
  void *user_task_context; /* passed to both as user_context */
} TessWorldDef;

void tess_world_def_default(TessWorldDef *def);
/* Refuses a definition with a non-finite or out-of-range value. */
TessResult tess_world_create(const TessWorldDef *def, TessWorld **out, TessError *err);
void tess_world_destroy(TessWorld *world);

/* Advances by dt seconds (finite, > 0, <= 1) in def.substeps sub-steps. */
TessResult tess_world_step(TessWorld *world, float dt, TessError *err);
void tess_world_set_gravity(TessWorld *world, TessVec2 gravity);
TessVec2 tess_world_gravity(const TessWorld *world);
const TessWorldDef *tess_world_def(const TessWorld *world);
uint64_t tess_world_step_count(const TessWorld *world);
/* Events of the last step (see the structs). */
TessWorldEvents tess_world_events(const TessWorld *world);

uint32_t tess_world_body_count(const TessWorld *world); /* live bodies */
uint32_t tess_world_awake_body_count(const TessWorld *world);
uint32_t tess_world_contact_count(const TessWorld *world); /* contacts with at least one point, map included */
/* One point of a contact that touches now (tess_world_contact_points), with
 * TessContactEvent's conventions: for the tile map `a` is the body's shape,
 * `b` and body_b are null and the cell takes b's place; the normal points
 * from a to b (map: from a's shape into the cell). cell_x / cell_y name the
 * cell under this point: the two points of a box lying across two tiles of
 * one run name the left tile and the right one, though the run's contact is
 * one (and its events name one cell). */
typedef struct TessContactPoint {
  TessShapeId a, b;
  TessBodyId body_a, body_b;
  bool with_map;
  uint32_t cell_x, cell_y;
  TessVec2 point;       /* world, midway between the two surfaces, at the bodies' current transforms */
  TessVec2 normal;      /* unit, from a to b */
  float separation;     /* m, < 0 when the shapes overlap */
  float normal_impulse; /* N s pushing a and b apart over the last step (>= 0): the last sub-step's
                           impulse times the sub-step count, exact for a steady contact (a body of
                           mass m resting alone on a floor carries m g dt over its points) */
} TessContactPoint;

/* The points of every contact that touched in the last step and still
 * touches at the bodies' current transforms (within the speculative
 * distance, 4 x linear_slop), resting contacts of sleeping bodies included:
 * what a contacts overlay draws. Returns how many there are and copies the
 * first min(count, cap) into `out` (NULL is fine with cap 0), in the
 * world's contact order (deterministic). Points are computed on demand, so
 * they follow set_transform and restore; impulses are the last step's. */
uint32_t tess_world_contact_points(const TessWorld *world, TessContactPoint *out, uint32_t cap);
/* Bytes the world holds (bodies, shapes, contacts, map, scratch). */
size_t tess_world_memory_bytes(const TessWorld *world);
/* How many contacts the solver works on at once: 8 with AVX2, else 4 (the results are the same
 * bits either way; TESS_PHYSICS_SIMD=sse2 in the environment when a world is made forces 4). */
uint32_t tess_world_solver_lanes(const TessWorld *world);

/* Where the last step's time went, in milliseconds of the stepping thread's CPU time, for a
 * world created with TESS_PHYSICS_PROFILE=1 in the environment (zeros otherwise: the clocks are
 * read only then, a few hundred times a step). `serial` is the part outside the loops the
 * workers share: with one worker, step.serial is what more workers cannot shorten, and
 * step.total / (step.serial + (step.total - step.serial) / n) bounds the speed-up on n workers
 * (Amdahl's law). */
typedef struct TessStepPhase {
  float total, serial;
} TessStepPhase;
typedef struct TessStepProfile {
  TessStepPhase step;         /* the whole step: the sum of the phases */
  TessStepPhase prepare;      /* bodies' margins and sweeps, joined pairs */
  TessStepPhase broad_phase;  /* proxies, grid, pair scan and sort */
  TessStepPhase narrow_phase; /* manifolds, contacts and their warm starts, sensor overlaps */
  TessStepPhase islands;      /* waking, contacts of woken bodies, floor and fluid forces */
  TessStepPhase solver_setup; /* solver states, constraint preparation and colouring, joints */
  TessStepPhase solve;        /* the sub-steps */
  TessStepPhase finish;       /* impulses stored, restitution, write-back, pixel masks, events */
  TessStepPhase sleep;        /* sleeping and deferred removals */
} TessStepProfile;
TessStepProfile tess_world_profile(const TessWorld *world);

/* A 64-bit hash of every live body's state (transform, velocities, awake
 * flag) in slot order: equal states give equal hashes. */
uint64_t tess_world_hash(const TessWorld *world);

/* Snapshot of the whole mutable state (bodies, shapes, joints, contacts with
 * their warm-start impulses, sleep state, handles, events), into a caller
 * buffer of tess_world_snapshot_size() bytes. Restoring it into the same
 * world (or into a world created with the same definition and tile map)
 * and stepping gives the same states as the first time. The buffer is
 * specific to this build of Tessera. */
size_t tess_world_snapshot_size(const TessWorld *world);
TessResult tess_world_snapshot(const TessWorld *world, void *buffer, size_t size, TessError *err);
TessResult tess_world_restore(TessWorld *world, const void *buffer, size_t size, TessError *err);

/* ---- Bodies ------------------------------------------------------------ */

/* How a dynamic body's velocity and position follow its forces over a sub-step. Semi-implicit
 * Euler (the default) keeps energy on average and is what contacts and joints are tuned for; RK4
 * follows forces that change with the position within the sub-step (attractor and spring zones:
 * orbits, springs) to fourth order, so an orbit or an oscillation keeps its energy over far more
 * turns. Constraints act on both alike; both are deterministic. */
typedef enum TessIntegrator {
  TESS_INTEGRATOR_EULER = 0,
  TESS_INTEGRATOR_RK4 = 1,
} TessIntegrator;

typedef struct TessBodyDef {
  TessBodyType type; /* default dynamic */
  TessVec2 position; /* body origin, world */
  float angle;
  TessVec2 linear_velocity; /* of the centre of mass */
  float angular_velocity;
  float linear_damping, angular_damping; /* 1/s, >= 0 */
  float gravity_scale;                   /* default 1 */
  bool awake;                            /* default true */
  bool enable_sleep;                     /* default true */
  bool fixed_rotation;
  TessIntegrator integrator; /* default TESS_INTEGRATOR_EULER */
  uint64_t user_data;
} TessBodyDef;

void tess_body_def_default(TessBodyDef *def);
TessResult tess_body_create(TessWorld *world, const TessBodyDef *def, TessBodyId *out, TessError *err);
/* Destroys the body, its shapes and its joints. During a step (from a
 * callback) the destruction is deferred to the step's end; the handle turns
 * invalid then. A stale handle is ignored (returns TESS_ERR_NOT_FOUND). */
TessResult tess_body_destroy(TessWorld *world, TessBodyId body);
bool tess_body_is_valid(const TessWorld *world, TessBodyId body);
TessIntegrator tess_body_integrator(const TessWorld *world, TessBodyId body);
TessResult tess_body_set_integrator(TessWorld *world, TessBodyId body, TessIntegrator integrator);

TessBodyType tess_body_type(const TessWorld *world, TessBodyId body);
TessTransform tess_body_transform(const TessWorld *world, TessBodyId body);
TessVec2 tess_body_position(const TessWorld *world, TessBodyId body); /* origin */
float tess_body_angle(const TessWorld *world, TessBodyId body);
TessVec2 tess_body_world_center(const TessWorld *world, TessBodyId body); /* centre of mass */
TessVec2 tess_body_linear_velocity(const TessWorld *world, TessBodyId body);
float tess_body_angular_velocity(const TessWorld *world, TessBodyId body);
float tess_body_mass(const TessWorld *world, TessBodyId body);
float tess_body_inertia(const TessWorld *world, TessBodyId body); /* about the centre of mass */
TessVec2 tess_body_local_center(const TessWorld *world, TessBodyId body);
bool tess_body_is_awake(const TessWorld *world, TessBodyId body);
uint64_t tess_body_user_data(const TessWorld *world, TessBodyId body);
/* Drawing between steps: lerp of the transforms before and after the last
 * step (alpha 0 = before, 1 = after; rotation by normalised lerp). */
TessTransform tess_body_interpolated_transform(const TessWorld *world, TessBodyId body, float alpha);

/* Setters wake the body. Non-finite values are refused with TESS_ERR_INVALID. */
TessResult tess_body_set_transform(TessWorld *world, TessBodyId body, TessVec2 position, float angle);
TessResult tess_body_set_linear_velocity(TessWorld *world, TessBodyId body, TessVec2 v);
TessResult tess_body_set_angular_velocity(TessWorld *world, TessBodyId body, float w);
TessResult tess_body_apply_force(TessWorld *world, TessBodyId body, TessVec2 force, TessVec2 point);
TessResult tess_body_apply_force_to_center(TessWorld *world, TessBodyId body, TessVec2 force);
TessResult tess_body_apply_torque(TessWorld *world, TessBodyId body, float torque);
TessResult tess_body_apply_linear_impulse(TessWorld *world, TessBodyId body, TessVec2 impulse, TessVec2 point);
TessResult tess_body_set_awake(TessWorld *world, TessBodyId body, bool awake);
/* Mass properties set directly (a sprite's pixel-exact values): mass > 0,
 * inertia about the centre of mass > 0 (ignored with fixed rotation),
 * centre in body coordinates. Shapes added later no longer change them. */
TessResult tess_body_set_mass_data(TessWorld *world, TessBodyId body, float mass, TessVec2 local_center,
                                   float inertia, TessError *err);

/* ---- Shapes ------------------------------------------------------------ */

typedef struct TessShapeDef {
  float friction;    /* >= 0; default TESS_FRICTION_DEFAULT (0.6); ranges: TessSurface */
  float restitution; /* normal efficiency 0..1; default 0 */
  float tangential;  /* tangential efficiency 0..1; default 1 (no loss) */
  float density;     /* kg/m^2, >= 0; default 1 */
  bool sensor;       /* reports overlaps, never pushes */
  uint32_t category; /* default 0x1 */
  uint32_t mask;     /* default 0xFFFFFFFF */
  uint16_t group;    /* 0 (default) = none; shapes with the same non-zero group never collide with each
                        other, whatever their bits (the parts of one ragdoll; Box2D's negative group) */
  uint32_t material; /* caller's material id, kept for queries */
  uint64_t user_data;
} TessShapeDef;

void tess_shape_def_default(TessShapeDef *def);
/* Shapes are in body coordinates. A polygon takes 3..8 points in order
 * around it (either winding), convex, no three collinear in a row after
 * merging, area > 0: anything else is refused with TESS_ERR_INVALID. */
TessResult tess_shape_create_circle(TessWorld *world, TessBodyId body, const TessShapeDef *def, TessVec2 center,
                                    float radius, TessShapeId *out, TessError *err);
TessResult tess_shape_create_capsule(TessWorld *world, TessBodyId body, const TessShapeDef *def, TessVec2 p1,
                                     TessVec2 p2, float radius, TessShapeId *out, TessError *err);
TessResult tess_shape_create_polygon(TessWorld *world, TessBodyId body, const TessShapeDef *def,
                                     const TessVec2 *points, uint32_t count, TessShapeId *out, TessError *err);
/* A box of half extents hx, hy centred at `center`, turned by `angle`. */
TessResult tess_shape_create_box(TessWorld *world, TessBodyId body, const TessShapeDef *def, float hx, float hy,
                                 TessVec2 center, float angle, TessShapeId *out, TessError *err);
TessResult tess_shape_destroy(TessWorld *world, TessShapeId shape);
bool tess_shape_is_valid(const TessWorld *world, TessShapeId shape);
TessBodyId tess_shape_body(const TessWorld *world, TessShapeId shape);
TessShapeType tess_shape_type(const TessWorld *world, TessShapeId shape);
bool tess_shape_is_sensor(const TessWorld *world, TessShapeId shape);
uint64_t tess_shape_user_data(const TessWorld *world, TessShapeId shape);
TessAABB tess_shape_aabb(const TessWorld *world, TessShapeId shape);

/* Validation used by the creators, for callers that check data first: geom's tess_polygon_check. */
TessResult tess_shape_polygon_validate(const TessVec2 *points, uint32_t count, TessError *err);

/* ---- The tile map ------------------------------------------------------ */

typedef enum TessMapCellKind {
  TESS_MAP_EMPTY = 0,
  TESS_MAP_FULL = 1,   /* the whole cell is solid */
  TESS_MAP_TRACED = 2, /* convex pieces (flips already applied) */
} TessMapCellKind;

/* The map's material kinds are base's TessMaterialKind under their older names. */
typedef TessMaterialKind TessMapMaterialKind;
#define TESS_MAP_MATERIAL_SOLID TESS_MATERIAL_SOLID
#define TESS_MAP_MATERIAL_FLOOR TESS_MATERIAL_FLOOR
#define TESS_MAP_MATERIAL_FLUID TESS_MATERIAL_FLUID

typedef struct TessMapMaterial {
  float friction, restitution, tangential, density;
  uint8_t kind; /* TessMapMaterialKind */
} TessMapMaterial;

/* A grid of width x height cells; cell (x, y) covers
 * [origin.x + x * cell_w, + cell_w] x [origin.y + y * cell_h, + cell_h]
 * (row 0 at the top). Arrays are row-major, width * height entries. */
typedef struct TessTileMapDef {
  uint32_t width, height;
  float cell_w, cell_h; /* m */
  TessVec2 origin;
  const uint8_t *kinds;      /* TessMapCellKind */
  const uint8_t *one_way;    /* NULL = none; non-zero: only bodies coming from above collide */
  const uint16_t *materials; /* index into `material_list`, NULL = all 0 */
  uint32_t material_count;   /* >= 1 */
  const TessMapMaterial *material_list;
  /* Traced cells: pieces of cell i are pieces[piece_start[i] .. piece_start[i+1]),
   * in metres relative to the cell's top-left corner. NULL when no cell is traced. */
  const uint32_t *piece_start; /* width * height + 1 entries */
  const TessPolygon *pieces;
} TessTileMapDef;

/* Copies the map into the world (replacing any earlier one). Refuses a 0 x 0
 * grid, a non-finite size, bad material values, unknown material indices and
 * degenerate pieces. Collisions: a body is tested only against the cells
 * under its bounding box; edges and corners shared by two solid cells never
 * collide (no seam bumps). */
TessResult tess_world_set_tile_map(TessWorld *world, const TessTileMapDef *def, TessError *err);
void tess_world_clear_tile_map(TessWorld *world);
bool tess_world_has_tile_map(const TessWorld *world);
/* Cell under a world point (false outside the map). */
bool tess_world_map_cell_at(const TessWorld *world, TessVec2 p, uint32_t *cell_x, uint32_t *cell_y);
TessMapCellKind tess_world_map_cell_kind(const TessWorld *world, uint32_t cell_x, uint32_t cell_y);

/* ---- Joints ------------------------------------------------------------ */

typedef enum TessJointType { TESS_JOINT_TYPE_REVOLUTE = 0,
                             TESS_JOINT_TYPE_DISTANCE,
                             TESS_JOINT_TYPE_MOUSE } TessJointType;

/* A null body means the world (a fixed point). */
typedef struct TessRevoluteJointDef {
  TessBodyId body_a, body_b;
  TessVec2 anchor; /* world point at creation */
  bool enable_limit;
  float lower, upper;     /* relative angle b - a, radians, lower <= upper */
  bool enable_motor;      /* drives b's spin relative to a (a car's wheel) */
  float motor_speed;      /* rad/s, the relative angular velocity it aims for */
  float max_motor_torque; /* N m, >= 0: the most it may apply */
  bool collide_connected;
} TessRevoluteJointDef;

typedef struct TessDistanceJointDef {
  TessBodyId body_a, body_b;
  TessVec2 anchor_a, anchor_b; /* world points at creation */
  float length;                /* <= 0: the distance at creation */
  float hertz, damping_ratio;  /* 0 hertz = rigid rod */
  bool collide_connected;
} TessDistanceJointDef;

/* Drags `body` towards `target` with a soft spring (the preview's mouse). */
typedef struct TessMouseJointDef {
  TessBodyId body;
  TessVec2 target;     /* the grabbed point, world */
  float hertz;         /* default 5 */
  float damping_ratio; /* default 0.7 */
  float max_force;     /* N; default 1000 x the body's mass x 10 */
} TessMouseJointDef;

void tess_revolute_joint_def_default(TessRevoluteJointDef *def);
void tess_distance_joint_def_default(TessDistanceJointDef *def);
void tess_mouse_joint_def_default(TessMouseJointDef *def);
TessResult tess_joint_create_revolute(TessWorld *world, const TessRevoluteJointDef *def, TessJointId *out,
                                      TessError *err);
TessResult tess_joint_create_distance(TessWorld *world, const TessDistanceJointDef *def, TessJointId *out,
                                      TessError *err);
TessResult tess_joint_create_mouse(TessWorld *world, const TessMouseJointDef *def, TessJointId *out,
                                   TessError *err);
TessResult tess_joint_destroy(TessWorld *world, TessJointId joint);
bool tess_joint_is_valid(const TessWorld *world, TessJointId joint);
TessJointType tess_joint_type(const TessWorld *world, TessJointId joint);
TessResult tess_mouse_joint_set_target(TessWorld *world, TessJointId joint, TessVec2 target);
/* Relative angle of body b to body a since creation (revolute). */
float tess_revolute_joint_angle(const TessWorld *world, TessJointId joint);
/* Turns a pin's motor on or off and sets its speed (rad/s) and torque limit (N m, >= 0); wakes
 * both bodies. TESS_ERR_INVALID for a joint that is not a pin or a non-finite value. */
TessResult tess_revolute_joint_set_motor(TessWorld *world, TessJointId joint, bool enable, float speed,
                                         float max_torque);
/* The torque (N m) the motor applied over the last step. */
float tess_revolute_joint_motor_torque(const TessWorld *world, TessJointId joint, float dt);

/* ---- Force zones ------------------------------------------------------- */

typedef enum TessZoneType {
  TESS_ZONE_TYPE_FORCE = 0,        /* constant force (N) on bodies whose centre is inside the rectangle */
  TESS_ZONE_TYPE_ACCELERATION = 1, /* constant acceleration (m/s^2) inside the rectangle */
  TESS_ZONE_TYPE_ATTRACTOR = 2,    /* a = strength / d^2 towards centre, within radius (0 = everywhere) */
  TESS_ZONE_TYPE_SPRING = 3,       /* a = -strength (x - centre), within radius (0 = everywhere): a
                                      harmonic well, strength = omega^2 in 1/s^2 */
} TessZoneType;

typedef struct TessZoneDef {
  TessZoneType type;
  TessAABB rect;      /* force / acceleration: the rectangle before it turns */
  float angle;        /* radians: rect turns by this about its centre (vector stays in world axes) */
  TessVec2 vector;    /* N or m/s^2 */
  TessVec2 center;    /* attractor */
  float strength;     /* m^3/s^2 */
  float radius;       /* m, 0 = unbounded */
  float min_distance; /* m; the falloff is clamped inside it (default 0.1) */
} TessZoneDef;

void tess_zone_def_default(TessZoneDef *def);
/* Zones are numbered 0.. in creation order. */
TessResult tess_world_add_zone(TessWorld *world, const TessZoneDef *def, uint32_t *index_out, TessError *err);
uint32_t tess_world_zone_count(const TessWorld *world);

/* ---- Queries ------------------------------------------------------------ */

/* Return false to stop the query. */
typedef bool (*TessShapeQueryFn)(TessShapeId shape, void *user);
typedef bool (*TessCellQueryFn)(uint32_t cell_x, uint32_t cell_y, void *user);

/* Shapes (matching `mask` against their category) containing the point. */
void tess_world_query_point(const TessWorld *world, TessVec2 p, uint32_t mask, TessShapeQueryFn fn, void *user);
/* Shapes whose bounding box overlaps the box. */
void tess_world_query_aabb(const TessWorld *world, TessAABB box, uint32_t mask, TessShapeQueryFn fn, void *user);
/* Non-empty map cells under the box. */
void tess_world_query_map_aabb(const TessWorld *world, TessAABB box, TessCellQueryFn fn, void *user);
/* True when the point is inside solid map geometry. */
bool tess_world_map_point_solid(const TessWorld *world, TessVec2 p);

typedef struct TessRayHit {
  bool hit;
  bool on_map; /* hit a map cell (cell_x, cell_y) rather than `shape` */
  TessShapeId shape;
  uint32_t cell_x, cell_y;
  TessVec2 point, normal;
  float fraction; /* of the translation */
} TessRayHit;

/* The closest hit of the segment origin -> origin + translation against
 * shapes (sensors excluded) matching `mask` and the map. */
TessRayHit tess_world_ray_cast(const TessWorld *world, TessVec2 origin, TessVec2 translation, uint32_t mask);

/* ---- Pixel masks --------------------------------------------------------- */

/* A static collider made of pixels (the Pixelated Martini Roller seed): a bit
 * per pixel, solid or empty, laid on the world at an origin and an angle (a
 * tile layer's mask lies on the world's axes; a static body's is turned with
 * the body: circles are tested in the mask's frame). Circles collide
 * with it by the pixels they cover: each solid pixel on the mask's boundary
 * near the circle marks the directions it blocks in 360 one-degree buckets
 * around the centre; the middle of the widest run of open buckets is the
 * normal (the way out), the depth is how far along it the circle must move
 * to clear every pixel it overlaps. The response removes the velocity into
 * the surface, or turns it round by the restitution (an impact faster than
 * the world's restitution threshold), takes the tangential efficiency off
 * the sliding speed at an impact, and applies Coulomb friction, so a ball
 * rolls or slides on it as on any surface. Only circle shapes of dynamic
 * bodies meet masks (other shapes pass through them).
 *
 * Masks are static geometry, like the tile map, but they can be changed
 * between steps (carving): the bodies over a changed area wake, and a
 * snapshot holds the carved parts (blocks of 64 x 64 pixels edited since the
 * mask was added), so restoring it (Play's rewind) puts the carved bits back
 * exactly; the world hash covers the blocks that differ from the mask as
 * added. Bits are row-major, row 0 at the top, each row
 * (width + 7) / 8 bytes, pixel x in bit (x & 7) of byte x >> 3. */
#define TESS_PIXEL_MASK_MAX_SIDE 65536u /* pixels per side */

typedef struct TessPixelMaskDef {
  uint32_t width, height; /* pixels, 1..TESS_PIXEL_MASK_MAX_SIDE */
  float pixel_size;       /* m, > 0 */
  TessVec2 origin;        /* position of pixel (0, 0)'s top-left corner: world, or the body's frame */
  float angle;            /* radians: the mask's x axis turned by it about the origin (from the body's); default 0 */
  const uint8_t *bits;    /* height * ((width + 7) / 8) bytes, as above; NULL = all empty */
  TessSurface surface;    /* friction, restitution, tangential efficiency; default tess_surface_default() */
  uint64_t user_data;
  /* A static or kinematic body the mask is laid on (a sprite that collides by its pixels); null =
   * the world. The mask then follows the body: tess_body_set_transform moves and turns it at once
   * (carving after a move carves in the body's frame, the bodies over its old and new places wake)
   * and tess_world_restore lays it where the restored body is. On a kinematic body it moves with
   * the body every step (moving platforms, turning wheels of pixel terrain): contacts take the
   * surface's velocity there, so what rests on it is carried, and the sleeping circles it reaches
   * or leaves wake. Destroying the body removes the mask. A dynamic body is refused. */
  TessBodyId body;
} TessPixelMaskDef;

void tess_pixel_mask_def_default(TessPixelMaskDef *def);
/* Copies the mask into the world. Masks are numbered 0.. in creation order. */
TessResult tess_world_add_pixel_mask(TessWorld *world, const TessPixelMaskDef *def, uint32_t *index_out,
                                     TessError *err);
uint32_t tess_world_pixel_mask_count(const TessWorld *world);
/* Removes mask `mask` (terrain carved away whole, a level's piece gone): it collides no more, the
 * bodies asleep over it wake, carving it gives TESS_ERR_NOT_FOUND. Destroying the body a mask is
 * laid on removes the mask too. The other masks keep their numbers: a removed mask keeps its slot
 * and its memory until the world is destroyed, so that restoring a snapshot taken before the
 * removal brings it back as it was. During a step (from a callback) the removal waits for the
 * step's end, as a body's destruction does. TESS_ERR_NOT_FOUND for a bad or removed index. */
TessResult tess_world_remove_pixel_mask(TessWorld *world, uint32_t mask);
/* Where mask `mask` lies and what it is made of (false for a bad index): what a debug drawing
 * needs beside the bits. */
typedef struct TessPixelMaskInfo {
  uint32_t width, height;
  float pixel_size;
  TessVec2 origin;
  float angle;
  TessSurface surface;
  uint64_t user_data;
  uint64_t edits;  /* moves on every change of its bits (carving, a restored snapshot): a drawing's cue to refresh */
  TessBodyId body; /* the body it follows, or null */
  TessAABB bounds; /* the world box the mask covers now (its pixels' rectangle, turned): circles outside it skip it */
  bool removed;    /* removed (or its body destroyed): it collides no more and is not drawn */
} TessPixelMaskInfo;
bool tess_pixel_mask_info(const TessWorld *world, uint32_t mask, TessPixelMaskInfo *out);
/* Sets (solid = true) or clears the pixels whose centres lie in the world box, or in the world
 * circle; parts outside the mask are ignored. Wakes the bodies over the changed pixels.
 * TESS_ERR_NOT_FOUND for a bad index, TESS_ERR_INVALID for a non-finite or negative size,
 * TESS_ERR_LOCKED during a step. */
TessResult tess_pixel_mask_set_rect(TessWorld *world, uint32_t mask, TessAABB box, bool solid);
TessResult tess_pixel_mask_set_circle(TessWorld *world, uint32_t mask, TessVec2 center, float radius, bool solid);
bool tess_pixel_mask_get(const TessWorld *world, uint32_t mask, uint32_t x, uint32_t y);
/* Copies the bits (layout as in the definition) into out, which holds `size` bytes: returns the
 * bytes the mask needs; copies only when size is at least that. */
size_t tess_pixel_mask_copy_bits(const TessWorld *world, uint32_t mask, uint8_t *out, size_t size);
/* Bytes the mask's bits take in the world. */
size_t tess_pixel_mask_memory_bytes(const TessWorld *world, uint32_t mask);

/* What a circle at `center` of `radius` meets in the masks now (the test the step makes). */
typedef struct TessPixelMaskHit {
  bool hit;          /* a solid pixel within the circle or near it (half the radius, at least a pixel) */
  bool buried;       /* every direction blocked: no way out, no normal */
  uint32_t mask;     /* which mask */
  TessVec2 normal;   /* unit, from the surface towards the centre (the way out) */
  float depth;       /* m the circle must move along the normal to clear its pixels (0 if it only touches) */
  uint32_t open_arc; /* degrees of the widest open run of buckets */
} TessPixelMaskHit;
TessPixelMaskHit tess_world_pixel_mask_probe(const TessWorld *world, TessVec2 center, float radius);

#ifdef __cplusplus
}
#endif
#endif
