/* Private structures of core/physics, shared by its files. Every struct
 * here is plain data (indices, no pointers) so a snapshot is a copy. */
#ifndef TESS_PHYSICS_INTERNAL_H
#define TESS_PHYSICS_INTERNAL_H

#include <float.h>
#include <math.h>

#include "tessera/physics.h"

#define TESS_NULL_INDEX UINT32_MAX
#define TESS_MAX_SPEED 400.0f /* m/s: a clamp that keeps a wild body finite */

/* ---- Shapes ------------------------------------------------------------ */

/* Every shape is a rounded convex polygon: a circle has 1 vertex and a
 * radius, a capsule 2 vertices and a radius, a polygon 3..8 vertices and
 * radius 0. Normals are outward: n_i = cross(v_{i+1} - v_i, 1) normalised. */
typedef struct PhysPoly {
  uint32_t count;
  float radius; /* first, beside v[0]: a circle is read from one cache line */
  TessVec2 v[TESS_POLY_MAX];
  TessVec2 n[TESS_POLY_MAX];
} PhysPoly;

typedef struct Shape {
  uint32_t generation;
  uint8_t in_use;
  uint8_t type; /* TessShapeType */
  uint8_t sensor;
  uint8_t pad;
  uint32_t body; /* body slot */
  uint32_t next; /* next shape of the same body, or TESS_NULL_INDEX */
  /* what every step reads (the broad phase's proxies) before the polygon, so a circle's
   * shape is one cache line: these, then the polygon's count, radius and centre */
  float friction, restitution, tangential;
  uint32_t category, mask;
  uint16_t group; /* TessShapeDef.group: 0 = none */
  PhysPoly poly;  /* body coordinates */
  float density;
  uint32_t material;
  uint64_t user_data;
  float area;
  TessVec2 centroid; /* body coordinates */
  float inertia_c;   /* about its centroid, per unit density */
  TessAABB aabb;     /* world, refreshed each step (unfattened) */
} Shape;

/* ---- Bodies ------------------------------------------------------------ */

/* The fields every step reads of every awake body come first, in the order
 * the step's passes use them, so those passes touch few cache lines. */
typedef struct Body {
  uint32_t generation;
  uint8_t in_use;
  uint8_t type; /* TessBodyType */
  uint8_t awake;
  uint8_t enable_sleep;
  uint8_t fixed_rotation;
  uint8_t mass_set; /* mass data set directly */
  uint8_t destroy_pending;
  uint8_t integrator; /* TessIntegrator */
  TessTransform xf;   /* origin */
  TessVec2 center;    /* world centre of mass */
  TessVec2 v;
  float w;
  float max_extent; /* about the centre of mass */
  uint32_t shape_count;
  float inv_mass, inv_inertia;
  TessVec2 force;
  float torque;
  float gravity_scale, linear_damping, angular_damping;
  float extra_damping; /* floor / fluid drag for this step */
  float extra_angular_damping;
  TessVec2 local_center;
  TessTransform xf_prev;
  float mass, inertia;
  float sleep_time;
  float min_extent;
  uint32_t shape_head;
  uint64_t user_data;
  /* what the last step's final relaxation took off the velocity (its speculative stops, a
   * sub-step short of a surface): the next step finds where a round feature is met along the
   * path the body was on, not along the one the stop bent (manifold.c, sweep_time) */
  TessVec2 stop_dv;
} Body;

/* Solver state: index 0 is a fixed dummy (static / world); awake bodies get
 * 1.. in body slot order (the constraints are sorted by shape pair, so the
 * solver walks memory mostly forwards). What the constraint passes touch is
 * 32 bytes, read and written 16 at a time by the wide solver's transposes
 * (v, w, dynamic; dp, dq); the contact constraints carry their bodies'
 * inverse masses, the rest is in BodyMotion. */
typedef struct BodyState {
  TessVec2 v;
  float w;
  uint32_t dynamic;
  TessVec2 dp;
  TessRot dq;
} BodyState;

/* The same index as BodyState: what only the integration and joints read. */
typedef struct BodyMotion {
  float inv_m, inv_i;
  TessVec2 acc; /* forces and gravity, constant over the step */
  float ang_acc;
  float lin_f, ang_f; /* implicit damping factors per sub-step */
  uint32_t rk4;       /* TESS_INTEGRATOR_RK4 (a dynamic body) */
  TessVec2 rk4_dx;    /* RK4: its move this sub-step less h times its velocity after the
                         sub-step's forces, added to the move the solved velocity makes */
} BodyMotion;
_Static_assert(sizeof(BodyState) == 32, "BodyState is half a cache line");

/* ---- Contacts ---------------------------------------------------------- */

typedef struct ManifoldPoint {
  TessVec2 point;   /* world, midway between the surfaces */
  float separation; /* negative when overlapping */
  uint32_t id;      /* feature key for warm starting */
} ManifoldPoint;

typedef struct Manifold {
  TessVec2 normal; /* from a to b */
  uint32_t count;
  ManifoldPoint p[2];
} Manifold;

/* Solver data of one contact point, for this step only (in the constraint buffer). */
typedef struct ContactPoint {
  TessVec2 ra, rb;       /* anchors relative to the centres of mass (world frame at step start) */
  TessVec2 sa, sb;       /* the same for the cores (surface minus radius): rotating a round
                            surface about its centre never changes the separation */
  float base_separation; /* separation minus dot(sb - sa, n) */
  float normal_impulse, tangent_impulse, max_normal_impulse;
  float normal_mass, tangent_mass;
  float relative_velocity; /* normal, at the impact: minus the speed the bodies meet at (physics_meet_speed) */
  float tangent_velocity;  /* tangential, at the same moment */
} ContactPoint;

/* A contact's constraint for this step: the header, then point_count
 * ContactPoints, packed one after another in TessWorld.cbuf (a one-point
 * contact takes 124 bytes, so the solver's passes stream little memory). */
typedef struct Constraint {
  uint32_t state_a, state_b; /* solver states (body slots until physics_contact_prepare_head) */
  uint32_t contact;          /* index in TessWorld.contacts */
  uint32_t point_count;
  TessVec2 normal; /* from a to b */
  TessVec2 point;  /* the first point, world (events) */
  float friction, restitution, tangential;
  float ma, ia, mb, ib; /* inverse masses and inertias (0 for the fixed side) */
  uint16_t solve;       /* 1 when a body is awake and dynamic; the softness is the
                           static one when a side has no inverse mass */
  uint8_t gap_open[2];  /* point i was apart (separation > 0) at the step's start */
} Constraint;
/* A one-point constraint is two cache lines exactly (cbuf starts on one). */
_Static_assert(sizeof(Constraint) == 64 && sizeof(ContactPoint) == 64, "constraint layout");

/* fminf and fmaxf as the processor answers them (minss, maxss: the second operand when the
 * compare fails), which is glibc's answer for every number: the same bits, inline. Without
 * -ffinite-math-only the compiler calls libm's fminf/fmaxf out of line, and the polygon scene
 * spent 5% of its step in those calls (bounding boxes, clipping in the manifold). */
static inline float physics_minf(float a, float b) { return a < b ? a : b; }
static inline float physics_maxf(float a, float b) { return a > b ? a : b; }
static inline TessVec2 physics_v2_min(TessVec2 a, TessVec2 b) { return tess_v2(physics_minf(a.x, b.x), physics_minf(a.y, b.y)); }
static inline TessVec2 physics_v2_max(TessVec2 a, TessVec2 b) { return tess_v2(physics_maxf(a.x, b.x), physics_maxf(a.y, b.y)); }

static inline ContactPoint *physics_constraint_points(Constraint *c) { return (ContactPoint *)(c + 1); }
static inline size_t physics_constraint_size(uint32_t points) { return sizeof(Constraint) + points * sizeof(ContactPoint); }

#define CONTACT_TOUCHING 1u
#define CONTACT_MAP 2u
#define CONTACT_WAS_TOUCHING 0x100u /* its predecessor last step touched */
#define CONTACT_CONTINUED 0x200u    /* (old contacts) a contact of this step took it over */

/* A contact kept from step to step: who touches whom, and the impulses of
 * its points for warm starting. */
typedef struct Contact {
  uint64_t key;
  uint32_t shape_a, shape_b; /* shape_a = TESS_NULL_INDEX for the map (b is the body's shape); the
                                solver's normal then points from the cell to the body, and the public
                                API turns it round (physics.h: from the body's shape into the cell) */
  uint32_t body_a, body_b;   /* body slots (TESS_NULL_INDEX = map / world) */
  uint32_t cell;             /* map cell index */
  uint32_t flags;
  uint32_t point_count;
  uint32_t constraint; /* byte offset of this step's constraint in cbuf, TESS_NULL_INDEX if none */
  uint32_t id[2];      /* feature keys of the points */
  float normal_impulse[2], tangent_impulse[2];
} Contact;

/* u64 -> u32 open-addressing table (rebuilt each step). */
/* Key and value side by side: a lookup touches one cache line, not two. */
typedef struct KeySlot {
  uint64_t key; /* 0 = empty */
  uint64_t value;
} KeySlot;

typedef struct KeyTable {
  KeySlot *slots;
  uint32_t cap; /* power of two or 0 */
  uint32_t count;
} KeyTable;

/* What the broad and narrow phases need of a shape and its body this step,
 * one per shape slot (TessWorld.bp_scratch), so neither walks the large
 * Shape and Body structs in random order. */
typedef struct Proxy {
  TessAABB box; /* swept over the step, grown by the margin */
  float radius; /* the shape's (PhysPoly.radius): the contacts' cores need it, and the proxy is at
                   hand when they are made, the world polygon no longer is */
  uint32_t body;
  uint32_t category, mask;
  uint8_t live;
  uint8_t active;  /* an awake non-static body */
  uint8_t dynamic; /* a dynamic body */
  uint8_t sensor;
  uint8_t large;  /* bigger than a grid cell */
  uint8_t plain;  /* awake, dynamic, not a sensor, the body's only shape, meets everything, no group:
                     two plain proxies of overlapping boxes always make a pair */
  uint16_t group; /* the shape's group: equal non-zero groups never pair */
  TessVec2 v;     /* the body's velocity */
  float spin;     /* |w| x its largest extent */
  float friction, restitution, tangential;
} Proxy;
_Static_assert(sizeof(Proxy) == 64, "a proxy is one cache line");

/* ---- Joints ------------------------------------------------------------ */

typedef struct Joint {
  uint32_t generation;
  uint8_t in_use;
  uint8_t type; /* TessJointType */
  uint8_t enable_limit;
  uint8_t collide_connected;
  uint32_t body_a, body_b;   /* slots, TESS_NULL_INDEX = world */
  TessVec2 local_a, local_b; /* anchors relative to the body origins (body frame) */
  float reference_angle;
  float lower, upper;
  float length, hertz, damping_ratio, max_force;
  TessVec2 target;
  uint32_t enable_motor; /* revolute */
  float motor_speed, max_motor_torque;
  /* solver */
  TessVec2 ra, rb;       /* relative to centres, world frame at step start */
  TessVec2 delta_center; /* cB - cA at step start */
  float delta_angle;
  TessVec2 linear_impulse;
  float axial_impulse, lower_impulse, upper_impulse;
  float motor_impulse; /* the last sub-step's, warm-starting the next */
  float axial_mass;
  uint32_t state_a, state_b;
} Joint;

/* ---- Tile map ---------------------------------------------------------- */

/* Per cell: kind, which sides face an open neighbour (so they may collide),
 * which corners are convex and unshared, the sides this cell covers fully. */
#define SIDE_LEFT 1u
#define SIDE_RIGHT 2u
#define SIDE_TOP 4u
#define SIDE_BOTTOM 8u

typedef struct MapCell {
  uint8_t kind;
  uint8_t free_sides; /* SIDE_* of sides with an open neighbour */
  uint8_t corners;    /* bit 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left: active */
  uint8_t covers;     /* SIDE_* this cell's geometry covers completely */
  uint8_t one_way;
  uint8_t slab; /* a traced cell whose one piece is an upright rectangle across its whole width (bit
                   0: its top and bottom faces can run on into the neighbours') or height (bit 1) */
  uint16_t material;
  /* The first cell of the flat run each of its faces lies in (tilemap.c, join_runs): for the top
   * and bottom faces (index 0 and 2, the cell-face order top, right, bottom, left) the x of the
   * run's first cell, for the right and left faces (1 and 3) its y. A run is consecutive full
   * cells whose face on that side is open, with one surface (friction, restitution, tangential
   * efficiency) and one one-way flag. Cells per side fit in 16 bits (TESS_LEVEL_MAX_CELLS). In
   * the cell, not beside it: a hit reads them, and a second array cost a cache miss per hit. */
  uint16_t run_start[4];
} MapCell;

/* A non-empty cell's hot word: its kind, one-way flag, free sides, corners and material. */
#define MAP_HOT(kind, one_way, free_sides, corners, material)                                             \
  ((uint32_t)(kind) | (uint32_t)(one_way) << 2 | (uint32_t)(free_sides) << 3 | (uint32_t)(corners) << 7 | \
   (uint32_t)(material) << 16)
#define MAP_HOT_KIND(h) ((h)&3u)
#define MAP_HOT_ONE_WAY(h) (((h) >> 2) & 1u)
#define MAP_HOT_FREE_SIDES(h) (((h) >> 3) & 15u)
#define MAP_HOT_CORNERS(h) (((h) >> 7) & 15u)
#define MAP_HOT_MATERIAL(h) ((h) >> 16)

typedef struct MapPiece {
  PhysPoly poly;                   /* world coordinates */
  uint8_t boundary[TESS_POLY_MAX]; /* edge i lies on a cell side covered by the neighbour: never collides */
} MapPiece;

typedef struct TileMap {
  uint32_t width, height;
  float cell_w, cell_h, inv_w, inv_h;
  TessVec2 origin;
  MapCell *cells;
  /* What the map's narrow phase reads of a cell, in 8 KB and 4 bytes per non-empty cell instead
   * of 16 bytes per cell. The shapes come to the map in slot order, not by place, and a cell
   * read from the 1 MB of a 256 x 256 map's cells was a cache miss for most of them (half the
   * time of the map's narrow phase at 5,000 circles, and three quarters of making the contacts).
   * filled: bit i, cell i is not empty; filled_before[k]: non-empty cells in the words before
   * word k; hot: per non-empty cell in order, MAP_HOT_* below. */
  uint64_t *filled;
  uint32_t *filled_before;
  uint32_t *hot;
  /* run_start[4] of each non-empty cell, 4 by 4 in the same order: what a shape's hit on a full
   * cell reads to join a run (tilemap.c, run_tag_full), read from the cell it was a cache miss a
   * hit. Read for full cells only: a traced cell's copy is taken before map_slope_runs renumbers
   * the slopes' cells, so it may be stale (slope_tag reads the cell) */
  uint16_t *hot_runs;
  uint32_t filled_count;
  TessMapMaterial *materials;
  uint32_t material_count;
  uint32_t *piece_start; /* NULL when no traced cell */
  MapPiece *pieces;
  uint32_t piece_count;
  /* Cells a traced piece reaches beyond its own cell on each side (a tile
   * drawn larger than the grid collides where it is drawn): every lookup of
   * the cells under a box or point widens by these. All 0 on most maps. */
  uint32_t reach_l, reach_t, reach_r, reach_b;
  bool has_fluid; /* some cell's material is a fluid */
} TileMap;

/* ---- Zones, sensors, events ------------------------------------------- */

typedef struct Zone {
  TessZoneDef def;
  TessVec2 center, half; /* the rectangle's centre and half extents */
  TessRot q;             /* its turn */
} Zone;

typedef struct SensorOverlap {
  uint64_t key; /* sensor shape << 32 | visitor shape */
  uint32_t sensor_gen, visitor_gen;
} SensorOverlap;

typedef struct PendingDestroy {
  TessBodyId body;
} PendingDestroy;

/* ---- The world --------------------------------------------------------- */

/* tasks.c: the world's workers (TessWorldDef.worker_count). physics_parallel_for calls fn on
 * consecutive ranges [begin, end) of [0, count), on the calling thread and the workers, and
 * returns when all are done; fewer than 2 x min_items run on the caller alone, and so does a
 * loop the pool's policy keeps there (too little work at its site, fn, or a step the governor
 * runs on the caller). fn must give each item the same result whoever runs it and whatever the
 * ranges. */
typedef struct TaskPool TaskPool;
typedef void PhysicsTaskFn(void *ctx, uint32_t begin, uint32_t end);
TaskPool *physics_tasks_create(uint32_t workers); /* NULL for one worker (or no thread to start) */
/* The game's scheduler (TessWorldDef.enqueue_task / finish_task) in the pool's place. */
TaskPool *physics_tasks_create_user(TessEnqueueTaskFn *enqueue, TessFinishTaskFn *finish, void *user,
                                    uint32_t workers);
void physics_tasks_destroy(TaskPool *p);
uint32_t physics_tasks_threads(const TaskPool *p);
/* The world's step begins (true) or has ended (false): inside a step the workers spin between
 * loops, outside it they sleep. The governor decides here whether the step hands loops over
 * and times it. (The game's scheduler waits as it likes: no effect there.) */
void physics_tasks_stepping(TaskPool *p, bool stepping);
/* The governor: steps run one way (handing loops over, or all on the caller); now and then two
 * steps, the probe, run the other way, and the second is timed against the steady steps before
 * and after them (the first pays for moving the working set between the cores' caches); the way
 * that was faster is kept. A pure state machine on the step times it is given. */
#define GOV_VOTES 3u
typedef struct PhysicsGovernor {
  bool parallel;           /* the way steady steps run */
  uint8_t phase;           /* 0 steady; 1, 2 in the probe (2 timed); 3 in the steady step after it */
  uint32_t gap, countdown; /* steady steps between probes, and left until the next */
  uint32_t slower;         /* steady steps in a row slower than the last probe */
  double before, probe;    /* ns: the last steady step, and the last probe (the other way) */
  double ratio[GOV_VOTES]; /* the last probes: a step handed over / one on the caller */
  uint32_t ratios;         /* probes judged so far */
  uint64_t probes, switches;
} PhysicsGovernor;
void physics_governor_init(PhysicsGovernor *g);
bool physics_governor_begin(PhysicsGovernor *g); /* true: this step hands loops over */
void physics_governor_end(PhysicsGovernor *g, double step_ns);
/* Whether this step may share its loops among threads (false in a step the governor runs on the
 * caller, and with one worker): physics_pieces cuts work for threads only then. */
bool physics_tasks_step_shared(const TaskPool *p);
/* Whether a loop of this much one-thread work (ns) is worth handing over at all. */
bool physics_tasks_worth_handing_over(double work_ns);
/* What the pool's loops did so far (bench-tasks): loops handed to the workers, workers that
 * entered them, their chunks and those the caller ran itself, and the caller's waits at the
 * end of a loop for a worker still inside (count and ns); loops the policy kept on the caller,
 * steps run handing over and on the caller, the governor's probes and switches, and the waits
 * the caller slept through (past a short spin). Zero for the game's scheduler. */
typedef struct PhysicsTaskStats {
  uint64_t loops, entries, chunks, caller_chunks, waits, wait_ns;
  uint64_t inline_loops, parallel_steps, inline_steps, probes, switches, sleeps;
} PhysicsTaskStats;
PhysicsTaskStats physics_tasks_stats(const TaskPool *p);
void physics_parallel_for(TaskPool *p, uint32_t count, uint32_t min_items, PhysicsTaskFn *fn, void *ctx);
/* Profiling (TESS_PHYSICS_PROFILE, TessStepProfile): the stepping thread's CPU clock in ms, and
 * where physics_parallel_for adds the time of the loops two workers would split (NULL: off). */
double physics_profile_now(void);
extern _Thread_local double *physics_profile_parallel;

/* A shape's manifold against a map cell (a traced cell's piece), before it is a contact. */
typedef struct MapHit {
  uint32_t shape, cell, piece;
  uint32_t material; /* the cell's (read where the cell was, not again when the contact is made) */
  uint32_t key_cell; /* the cell its contact's key names: the cell, or the first of the flat run it joins */
  uint32_t along;    /* on a run: the cell's place along it (x or y); else TESS_NULL_INDEX */
  Manifold manifold;
} MapHit;

typedef struct MapHits {
  MapHit *hits;
  uint32_t count, cap;
} MapHits;

/* A growing list of shape pairs (lo << 32 | hi). */
typedef struct PairBuf {
  uint64_t *pairs;
  uint32_t count, cap;
} PairBuf;

/* What one run of the narrow phase's contact sources makes (physics_contacts_make). */
typedef struct ContactRun {
  uint32_t contacts, points, sensors; /* counted with the collisions */
  uint32_t contact_at, sensor_at;     /* where they go */
  size_t byte_at;                     /* their constraints' place in cbuf */
  uint64_t first_key, last_key;       /* of its contacts (if any) */
  bool in_order, impact;              /* keys increasing; a restitution or tangential < 1 */
} ContactRun;

/* What the wide solver's colouring, one constraint after another on one thread, needs of a
 * constraint: gathered beforehand by the workers into one small record in constraint order, so
 * the serial loop streams 12 bytes a constraint instead of its constraint and both states. */
/* The most parts a colour is cut into, one per thread that steps the world: a thread solves the
 * constraints of its own part first, those of the bodies it integrates (physics_wide_run),
 * so most body states stay in one core's cache from pass to pass. */
#define PHYS_PARTS 8u

typedef struct ColorIn {
  uint32_t a, b;   /* its bodies' solver states (0: the fixed world, or a body not awake) */
  uint32_t points; /* PHYS_COLOR_POINTS: 1 or 2, 0 when not solved by colour (asleep, or no point); a
                      PHYS_COLOR_DYNAMIC_* bit for each dynamic side (the colouring names the other the spare state) */
} ColorIn;
#define PHYS_COLOR_POINTS 0xFFu
#define PHYS_COLOR_DYNAMIC_A 0x100u
#define PHYS_COLOR_DYNAMIC_B 0x200u

struct TessWorld {
  TessWorldDef def;
  uint64_t step_count;
  bool locked;

  /* slot arrays with free lists */
  Body *bodies;
  uint32_t body_cap, body_count, body_free, body_live;
  Shape *shapes;
  uint32_t shape_cap, shape_count, shape_free, shape_live;
  Joint *joints;
  uint32_t joint_cap, joint_count, joint_free, joint_live;
  /* free lists link through Body.shape_head, Shape.next, Joint.body_a */

  Contact *contacts;
  uint32_t contact_count, contact_cap;
  uint8_t *cbuf;
  size_t cbuf_size, cbuf_cap; /* this step's constraints, from a cache line boundary */
  uint8_t *cbuf_raw;          /* the allocation holding cbuf */
  /* where each constraint starts in cbuf: the passes take their addresses from here
   * rather than from the previous constraint's point count, so the loads of one
   * constraint never wait for the last one's (no pointer chase through cbuf) */
  uint32_t *coff;
  uint32_t coff_count, coff_cap;
  bool any_impact_material; /* some constraint of this step has restitution or tangential efficiency < 1 */
  Contact *contacts_old;
  uint32_t contacts_old_count, contacts_old_cap;
  KeyTable contact_table; /* key -> index in contacts_old, built when the old list is not in order */
  /* this step's contacts after the first contacts_kept (carried over asleep) are in strictly
   * increasing key order; the same of last step's for the old list: then each run of new
   * contacts finds its first old one by a binary search and walks forwards, and the key table
   * is not needed */
  bool contacts_in_order, old_in_order;
  uint32_t contacts_kept, old_kept;
  bool maybe_asleep;
  bool wide8; /* the wide solver runs 8 lanes at a time (AVX2) */ /* some non-static body may be asleep (a scan that finds none clears it) */
  bool islands_built;                                             /* this step's union-find is valid */
  bool extras_set;                                                /* some body may carry floor / fluid drag from the last step */

  SensorOverlap *sensors;
  uint32_t sensor_count, sensor_cap;
  SensorOverlap *sensors_new;
  uint32_t sensors_new_count, sensors_new_cap;

  Zone *zones;
  uint32_t zone_count, zone_cap;
  TileMap map;
  bool has_map;

  /* events of the last step */
  TessContactEvent *ev_begin;
  uint32_t ev_begin_count, ev_begin_cap;
  TessContactEndEvent *ev_end;
  uint32_t ev_end_count, ev_end_cap;
  TessSensorEvent *ev_sbegin;
  uint32_t ev_sbegin_count, ev_sbegin_cap;
  TessSensorEvent *ev_send;
  uint32_t ev_send_count, ev_send_cap;

  PendingDestroy *pending;
  uint32_t pending_count, pending_cap;

  /* scratch, per step */
  BodyState *states;
  uint32_t states_cap;
  void *states_raw; /* cache-line aligned scratch */
  BodyMotion *motions;
  uint32_t motions_cap;
  uint32_t *island_parent;
  uint32_t island_cap;
  float *island_min_sleep;
  uint8_t *island_awake;
  void *bp_scratch;
  size_t bp_scratch_size;
  void *bp_scratch_raw; /* the proxies, cache-line aligned */
  void *bp_scratch2;
  size_t bp_scratch2_size;
  uint64_t *pairs;
  uint32_t pair_count, pair_cap;
  uint64_t *pairs_tmp;
  uint32_t pairs_tmp_cap; /* the pair sort's lists spread into ranges */
  uint32_t *radix_count;
  uint32_t radix_count_cap; /* and its counts (the grid's too) */
  uint64_t *joint_pairs;
  uint32_t joint_pair_count, joint_pair_cap;
  PhysPoly *wpolys;
  uint32_t wpolys_cap;
  void *wpolys_raw; /* shapes in world coordinates, this step (aligned) */
  float *margins;
  uint32_t margins_cap; /* speculative margin per body (slop and rotation), this step */
  TessVec2 *sweeps;
  uint32_t sweeps_cap; /* displacement per body over this step (v dt) */
  TessVec2 *paths;
  uint32_t paths_cap; /* the same along the path before last step's stops
                         ((v + stop_dv) dt): where round features are met */
  struct BpBlock *bp_blocks;
  uint32_t bp_blocks_cap; /* per block of proxies, this step (broad_phase.c) */
  PairBuf *bp_pieces;
  uint32_t bp_piece_count; /* the pairs each run of the broad phase's scan found */
  MapHits *map_pieces;
  uint32_t map_piece_count; /* the narrow phase's map hits, a list per run of shapes */
  uint32_t *blocks;
  uint32_t blocks_cap;   /* per block of items of a pass: a count, then where the block's output starts */
  uint32_t *event_items; /* per block of contacts, those with a contact event (events.c) */
  void *event_items_raw;
  uint32_t event_items_cap;
  uint32_t *state_blocks; /* the states pass's count per block of bodies last step (body_passes.c) */
  uint32_t state_blocks_cap, state_block_count;
  ContactRun *contact_runs;
  uint32_t contact_runs_cap; /* per run of contact sources, this step (physics_contacts_make) */
  Manifold *pair_manifolds;
  uint32_t pair_manifolds_cap; /* per broad-phase pair, this step (the narrow phase's first half) */
  TessVec2 *stop_dv;
  uint32_t stop_dv_cap; /* per solver state: what the last relaxation took off its velocity */
  /* the wide contact solver (wide_solver.c), this step */
  uint32_t *state_colors;
  uint32_t state_colors_cap; /* per solver state: the colours it is in */
  uint8_t *constraint_color;
  uint32_t constraint_color_cap; /* per constraint (coff order) */
  uint32_t *overflow;
  uint32_t overflow_count, overflow_cap; /* cbuf offsets of the constraints left uncoloured */
  uint32_t *batches;
  uint32_t batch_count, batch_cap; /* byte offsets in wbuf; bit 0: two points */
  uint32_t *constraint_slot;
  uint32_t constraint_slot_cap; /* per constraint (coff order): its place in its colour's group */
  uint32_t *part_list;          /* part o's coloured constraints (coff indices) from o x part_list_stride */
  uint32_t part_list_cap, part_list_stride, part_list_count[PHYS_PARTS];
  ColorIn *color_in;
  uint32_t color_in_cap; /* per constraint (coff order): what the colouring reads of it */
  /* per colour, part (PHYS_PARTS) and point count, in that order: the group's first batch; a
   * colour's part o is [group_first[c][o][0], the next part's or colour's first) */
  uint32_t group_first[32][PHYS_PARTS][2];
  uint32_t color_first[33];      /* batches of colour c: [color_first[c], color_first[c + 1]) */
  uint32_t parts;                /* the parts the colours are cut into this step: one per thread */
  uint32_t batch_count_one_part; /* the batches there would be in one part */
  uint64_t part_scale;           /* 2^32 parts / awake bodies */
  /* the passes' units (wide_solver.c: add_color_unit): colours used_colors[k]..unit_last[k],
   * split among the threads, or if unit_tiny[k] run in one go */
  uint8_t used_colors[32], unit_last[32];
  bool unit_tiny[32];
  uint32_t used_color_count;
  struct PassSync *pass_sync;
  uint32_t pass_sync_cap; /* the passes' counters, a cache line each (wide_solver.c) */
  void *pass_sync_raw;
  TaskPool *tasks; /* the workers (tasks.c); NULL with one */
  uint8_t *wbuf;
  size_t wbuf_cap;
  void *wbuf_raw;
  uint32_t *active;
  uint32_t active_count, active_cap; /* awake non-static bodies, in solver-state order */
  uint32_t *state_of;
  uint32_t state_of_cap; /* body slot -> solver state (0 = fixed), this step */
  /* per body slot, this step, so the narrow phase never opens a Body: */
  TessVec2 *centers;
  uint32_t centers_cap; /* centre of mass at the step's start */
  uint8_t *moving;
  uint32_t moving_cap; /* awake and not static, or gone (its contacts are redone) */
  /* pixel masks (pixel_mask.c), static geometry like the map */
  struct PixelMask *pmasks;
  uint32_t pmask_count, pmask_cap;
  /* per shape slot, where no mask pixel lies near, valid while the masks are as at pmask_epoch */
  struct PixelMaskRoom *pmask_room;
  uint32_t pmask_room_cap, pmask_epoch;
  /* TESS_PHYSICS_PROFILE: the last step's phases (step.c) */
  bool profile;
  TessStepProfile prof;
};

/* ---- Shared helpers ---------------------------------------------------- */

/* The chunks per thread the pool cuts a loop into (tasks.c), and the runs per thread of the loops
 * that cut their own (physics_pieces). A thread done with its own part takes the others' leftovers
 * a chunk at a time, so two threads end at most a chunk apart: with 4 a thread, the 5,000-circle
 * collision loops' halves ended 9-12 us apart in a 200 us loop; 16 leave a chunk of a few us. */
#define PHYS_CHUNKS_PER_THREAD 16u

/* How many runs, each with its own output list, a loop over `items` is cut into: a chunk's worth
 * per thread; one for one thread (or a step the pool's governor runs on the caller), but when
 * profiling as for two, so that the profile counts the
 * loop among those the workers share (the lists are joined in order: any count gives the same
 * bits). */
static inline uint32_t physics_pieces(const TessWorld *w, uint32_t items) {
  if (items < 256 || (!physics_tasks_step_shared(w->tasks) && !w->profile)) return 1u;
  return PHYS_CHUNKS_PER_THREAD * (w->tasks ? physics_tasks_threads(w->tasks) : 2u);
}

bool physics_grow(void **data, uint32_t *cap, uint32_t need, size_t elem);
/* A per-step scratch array starting on a cache line (*raw is what to free);
 * unlike physics_grow its contents are not kept when it grows. */
bool physics_grow_scratch(void **raw, void **aligned, uint32_t *cap, uint32_t need, size_t elem);
#define PHYS_GROW_SCRATCH(raw, ptr, capp, need) \
  physics_grow_scratch(&(raw), (void **)&(ptr), (capp), (need), sizeof(*(ptr)))
/* (the capacity test inline: a push per contact must not cost a call) */
#define PHYS_GROW(ptr, capp, need) \
  ((need) <= *(capp) || physics_grow((void **)&(ptr), (capp), (need), sizeof(*(ptr))))

/* slots.c: the body, shape and joint arrays with their free lists. A slot starts with its
 * generation (uint32_t) then its in-use flag (uint8_t); `link` is the offset of the uint32_t
 * field that chains free slots. A taken slot is zeroed, in use, with a new generation. */
bool physics_slot_take(void **items, uint32_t *cap, uint32_t *count, uint32_t *free_head, size_t elem, size_t link,
                       uint32_t *index_out);
void physics_slot_give_back(void *items, uint32_t *free_head, size_t elem, size_t link, uint32_t index);
#define PHYS_SLOT_TAKE(items, type, cap, count, free_head, link_field, index_out) \
  physics_slot_take((void **)&(items), (cap), (count), (free_head), sizeof(type), offsetof(type, link_field), (index_out))
#define PHYS_SLOT_GIVE_BACK(items, type, free_head, link_field, index) \
  physics_slot_give_back((items), (free_head), sizeof(type), offsetof(type, link_field), (index))

/* geometry.c */
void physics_poly_finish(PhysPoly *p); /* computes normals */
void physics_poly_transform(const PhysPoly *in, TessTransform xf, PhysPoly *out);
/* physics_poly_transform and the shape's box in world space (radius included). */
void physics_poly_transform_bounds(const PhysPoly *in, TessTransform xf, PhysPoly *out, TessAABB *bounds);
void physics_poly_mass(const PhysPoly *p, float *area, TessVec2 *centroid, float *inertia_c);
TessAABB physics_poly_aabb(const PhysPoly *p, TessTransform xf);
bool physics_poly_contains(const PhysPoly *p, TessVec2 local_point);
/* Ray against a rounded polygon (world frame); fraction in [0, max). */
bool physics_poly_ray(const PhysPoly *p, TessVec2 origin, TessVec2 d, float max_fraction, float *fraction,
                      TessVec2 *normal);
float physics_poly_inner_radius(const PhysPoly *p, TessVec2 c);
/* Area and centroid of poly ∩ rectangle (poly world, radius ignored unless circle). */
float physics_clip_area_rect(const PhysPoly *p, TessAABB r, TessVec2 *centroid);

/* manifold.c: both polys in world coordinates; normal from a to b;
 * points with separation above `margin` are dropped. */
void physics_collide(const PhysPoly *a, const PhysPoly *b, float margin, Manifold *m);
/* The same, b moving by `sweep` relative to a over the step: a round feature's normal (a circle
 * against a vertex or a circle) is the one at the moment they meet. */
void physics_collide_swept(const PhysPoly *a, const PhysPoly *b, float margin, TessVec2 sweep, Manifold *m);
/* A body shape (world coordinates) against one full map cell, with the
 * cell's open sides and active corners: normal from the cell to the shape. */
void physics_collide_cell(const PhysPoly *shape, TessAABB cell, uint32_t free_sides, uint32_t corners, float margin,
                          Manifold *m);
/* The same, the shape moving by `sweep` over the step (a circle meets a corner by its normal then). */
void physics_collide_cell_swept(const PhysPoly *shape, TessAABB cell, uint32_t free_sides, uint32_t corners, float margin,
                                TessVec2 sweep, Manifold *m);

/* tilemap.c */
void physics_map_free(TileMap *map);
/* Appends to `out` the manifolds of one shape against the map's cells, in cell order; returns
 * false on no memory. `box` is the region to look at (the shape's box swept over the step);
 * `margin` the speculative distance for the manifolds. Reads the world only, so the workers run
 * it for different shapes side by side; physics_contacts_make then makes the contacts. */
bool physics_map_collide_shape(const TessWorld *w, uint32_t shape_index, const PhysPoly *world_poly, TessAABB box,
                               float margin, uint32_t body, MapHits *out);
/* A hit's contact: key, shapes, bodies, cell, flags; and its mixed material. */
TessMaterialMix physics_map_hit_contact(const TessWorld *w, const MapHit *h, Contact *c);
/* One map contact's manifold again (a contact carried over while asleep). */
bool physics_map_collide_contact(const TessWorld *w, const Contact *c, const PhysPoly *poly, float margin, Manifold *man,
                                 float *friction, float *restitution, float *tangential);
/* The cell under point p of map contact c (tess_world_contact_points): for a run's contact the run's
 * cell under the point, otherwise the contact's own cell. */
uint32_t physics_map_contact_point_cell(const TileMap *map, const Contact *c, TessVec2 p);
bool physics_map_ray(const TileMap *map, TessVec2 origin, TessVec2 d, float max_fraction, TessRayHit *hit);
bool physics_map_point_solid(const TileMap *map, TessVec2 p);
/* Material index of the cell under p, or -1. */
int physics_map_material_at(const TileMap *map, TessVec2 p);
/* Submerged area and centroid of a world poly in fluid cells. */
float physics_map_submerged(const TileMap *map, const PhysPoly *p, TessVec2 *centroid, float *density_area);

/* contact.c */
Contact *physics_contact_push(TessWorld *w);
/* The narrow phase's contacts, on the workers. Their sources come in runs: PHYS_PAIR_BLOCK
 * broad-phase pairs (w->pair_manifolds; the count of a sensor pair's manifold is 0 or
 * PHYS_SENSOR_OVERLAP), then the lists of map hits (w->map_pieces); what each run makes was
 * counted into w->contact_runs beside its collisions. From those counts every run knows where
 * its contacts, constraints and sensor overlaps go, and the runs fill them side by side, each
 * warm-started from last step's contact with the same key: the same contacts in the same order
 * as one thread makes them one after another. False when out of memory. */
#define PHYS_PAIR_BLOCK 128u
#define PHYS_SENSOR_OVERLAP 0xFFFFFFFFu
bool physics_contacts_make(TessWorld *w, uint32_t pair_runs, uint32_t map_runs);
/* Which run item k of a loop over the runs is, for `parts` threads: part g takes the g-th share of
 * the pair runs, then the g-th share of the map's runs, so the loops that collide and make the
 * contacts give each thread the same runs. */
uint32_t physics_run_of_item(uint32_t pair_runs, uint32_t map_runs, uint32_t parts, uint32_t k);
/* The same for a contact carried over while asleep (its own impulses). */
bool physics_contact_rebuild(TessWorld *w, uint32_t index, const Manifold *m, float friction, float restitution,
                             float tangential);
bool physics_keytable_build(KeyTable *t, const Contact *contacts, uint32_t count);
uint32_t physics_keytable_find(const KeyTable *t, uint64_t key);
void physics_keytable_free(KeyTable *t);

/* broad_phase.c: candidate pairs (shape index pairs, lower first) into w->pairs, sorted. */
bool physics_broad_phase(TessWorld *w, const float *margins, const TessVec2 *sweeps);

/* Soft constraint parameters (Box2D v3's b2Softness). */
typedef struct Softness {
  float bias_rate, mass_scale, impulse_scale;
} Softness;
static inline Softness physics_softness(float hertz, float zeta, float h) {
  Softness s = {0.0f, 1.0f, 0.0f};
  if (hertz == 0.0f) return s;
  float omega = 2.0f * 3.14159265358979f * hertz;
  float a1 = 2.0f * zeta + h * omega;
  float a2 = h * omega * a1;
  float a3 = 1.0f / (1.0f + a2);
  s.bias_rate = omega / a1;
  s.mass_scale = a2 * a3;
  s.impulse_scale = a3;
  return s;
}

/* contact_solver.c: one constraint at a time (offsets into cbuf) */
/* One constraint for this step (after the solver states are numbered): its bodies' states, its
 * masses, its points' masses and speeds at the step's start. False when it is not solved (no
 * awake dynamic body). */
bool physics_contact_prepare(TessWorld *w, Constraint *k);
/* The same in two halves: the head (states, solve, masses), then per point what the solver
 * starts from, for the wide solver to put straight into its lanes. */
bool physics_contact_prepare_head(TessWorld *w, Constraint *k);
typedef struct PointStart {
  float normal_mass, tangent_mass, relative_velocity, tangent_velocity;
} PointStart;
void physics_contact_prepare_points(const TessWorld *w, Constraint *k); /* after the head */
/* The same from a head held apart from cbuf (the wide solver's lanes): states, masses, normal. */
static inline PointStart physics_point_start(const BodyState *sa, const BodyState *sb, float ma, float ia, float mb, float ib,
                                             TessVec2 n, const ContactPoint *p) {
  TessVec2 t = tess_v2_cross_vs(n, 1.0f);
  PointStart s;
  float rna = tess_v2_cross(p->ra, n), rnb = tess_v2_cross(p->rb, n);
  float kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
  s.normal_mass = kn > 0.0f ? 1.0f / kn : 0.0f;
  float rta = tess_v2_cross(p->ra, t), rtb = tess_v2_cross(p->rb, t);
  float kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
  s.tangent_mass = kt > 0.0f ? 1.0f / kt : 0.0f;
  TessVec2 dv = tess_v2_sub(tess_v2_add(sb->v, tess_v2_cross_sv(sb->w, p->rb)),
                            tess_v2_add(sa->v, tess_v2_cross_sv(sa->w, p->ra)));
  s.relative_velocity = tess_v2_dot(n, dv);
  s.tangent_velocity = tess_v2_dot(t, dv);
  return s;
}
static inline PointStart physics_contact_point_start(const TessWorld *w, const Constraint *k, const ContactPoint *p) {
  return physics_point_start(&w->states[k->state_a], &w->states[k->state_b], k->ma, k->ia, k->mb, k->ib, k->normal, p);
}
/* How fast the accelerations of solver states a and b close a gap along n (a fixed or kinematic side has none). */
static inline float physics_closing(const TessWorld *w, TessVec2 n, uint32_t a, uint32_t b) {
  return tess_v2_dot(n, tess_v2_sub(w->motions[a].acc, w->motions[b].acc));
}
static inline float physics_contact_closing(const TessWorld *w, const Constraint *k) {
  return physics_closing(w, k->normal, k->state_a, k->state_b);
}
/* The speed two bodies meet at, as the integrator keeps it, from a contact point's first acting
 * in a sub-step of length h: approaching at `approach` (the velocity after the sub-step's
 * acceleration a), `gap` short of touching, in the solve (before the sub-step's move) or the
 * relaxation (after it). The integrator moves a body by the velocity it has after the sub-step's
 * acceleration, so what it keeps under a constant acceleration toward the surface is
 * (v -+ a h / 2)^2 - 2 a x, not v^2 - 2 a x: the velocity is half a sub-step of acceleration
 * ahead of the position (behind it in the relaxation, after the move). Taking `approach` alone,
 * a 1 m drop bounced 2-3% low. (contact_solver.c and the wide kernel do this the same way.) */
static inline float physics_meet_speed(float approach, float gap, float a, float h, bool solve) {
  float half = (0.5f * h) * a;
  float v = solve ? approach - half : approach + half;
  float m2 = v * v + 2.0f * a * (gap > 0.0f ? gap : 0.0f);
  return sqrtf(m2 > 0.0f ? m2 : 0.0f);
}
void physics_contacts_warm_start(TessWorld *w, const uint32_t *offsets, uint32_t count);
void physics_contacts_solve(TessWorld *w, const uint32_t *offsets, uint32_t count, float inv_h, bool use_bias, Softness soft,
                            Softness soft_static);
void physics_contacts_restitution(TessWorld *w, float h); /* h: the sub-step */

/* wide_solver.c: the coloured constraints, four at a time; the rest into w->overflow */
bool physics_wide_build(TessWorld *w);
/* The solver's stages of a sub-step, run in order by every thread that steps the world: the
 * body loops and the passes split among them, the serial stages (joints, the overflow) by one. */
typedef enum PhysicsStageKind {
  PHYS_STAGE_BODIES, /* fn over the awake bodies' items [0, count) (solver state i + 1) */
  PHYS_STAGE_SERIAL, /* fn(ctx, 0, 1) on one thread */
  PHYS_STAGE_FILL,   /* the coloured constraints into their lanes; ctx: Softness[2], soft and against a fixed body */
  PHYS_STAGE_WARM_START,
  PHYS_STAGE_SOLVE, /* with the bias */
  PHYS_STAGE_RELAX,
  PHYS_STAGE_RELAX_STORE /* the last relaxation: then each block's impulses and impact speeds go back into
                          * cbuf, and into the contacts when no restitution pass follows (physics_wide_stored) */
} PhysicsStageKind;
typedef struct PhysicsStage {
  PhysicsStageKind kind;
  PhysicsTaskFn *fn;
  void *ctx;
  uint32_t count;
} PhysicsStage;
void physics_wide_run(TessWorld *w, const PhysicsStage *stages, uint32_t count, float inv_h);
/* Whether constraint ci (coff order) went into its contact in the last relaxation. */
#define PHYS_NO_COLOR 0xFFu /* constraint_color of one solved one at a time, or not at all */
static inline bool physics_wide_stored(const TessWorld *w, uint32_t ci) {
  return !w->any_impact_material && w->constraint_color[ci] != PHYS_NO_COLOR;
}
/* The 8-lane passes can run here: AVX2, and TESS_PHYSICS_SIMD is not "sse2" (read when a world
 * is created; both widths give the same bits, the variable is there to check that). */
bool physics_wide8_available(void);

/* body_passes.c: the margins, sweeps and paths of every body slot (the step's start); the solver
 * states of the awake bodies (w->active, w->state_of, states and motions 1..), and whether one
 * integrates by RK4. False when out of memory. */
void physics_bodies_prepare(TessWorld *w, float dt, float speculative);
bool physics_bodies_states(TessWorld *w, float h, bool *any_rk4);

/* islands.c: after the narrow phase, wake every island with an awake body (and find the islands,
 * when something sleeps or may); after the solve, put to sleep the islands that rested long
 * enough. */
void physics_islands_wake(TessWorld *w);
void physics_islands_sleep(TessWorld *w, float dt);

/* events.c: the contacts' begin and end events of this step, in contact order. */
bool physics_contact_events(TessWorld *w);

/* joint.c */
void physics_joint_prepare(TessWorld *w, Joint *j, float h);
void physics_joint_warm_start(TessWorld *w, Joint *j);
void physics_joint_solve(TessWorld *w, Joint *j, float h, bool use_bias);

/* world.c */
static inline bool physics_body_active(const Body *b) { return b->in_use && b->awake && b->type != TESS_BODY_STATIC; }
Body *physics_body_get(const TessWorld *w, TessBodyId id);
void physics_body_update_mass(TessWorld *w, Body *b);

#endif
