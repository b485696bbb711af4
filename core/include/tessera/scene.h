/* Tessera core/scene: a level resolved for simulation.
 *
 * A TessScene is plain data: arrays and numbers in metres, kilograms and
 * radians, no pointer into a project. The editor's preview makes one from a
 * level (tess_scene_from_level, declared in tessera/level.h: the level
 * model stays above this line); a game makes the same struct from a packed
 * level (the pack module's reader). Both build their physics world with
 * tess_world_create_from_scene(), so the game sees what the designer saw;
 * tess_scene_equal() / tess_scene_hash() check that two scenes agree.
 *
 * Ownership: every array is allocated with tess_alloc / tess_calloc and
 * freed by tess_scene_destroy() (a NULL array with a count of 0 is fine).
 * A producer other than tess_scene_from_level may fill a struct it got from
 * tess_scene_create() field by field, following the rules below.
 *
 * What the rules resolve (DESIGN.md):
 *  - cells: tess_level_cell_collision() per cell gives the shape kind, the
 *    one-way flag and the effective material; traced tile pieces are turned
 *    with the cell's flips (tess_cell_transform_point) and scaled to metres;
 *  - bodies: positions / sizes from level pixels to metres with the level's
 *    pixels per metre (ppm); sprite bodies take their mask's pieces (or hull,
 *    or circle) around the sprite's anchor, and their mass from the pixel
 *    mass properties: kg = density * area_px / ppm^2, centre = (centroid_px -
 *    anchor) / ppm, inertia kg m^2 = density * inertia_px4 / ppm^4;
 *  - pin on overlap: two bodies placed overlapping, one of them with a pin
 *    mode, are joined by a pin joint at the smaller body's centre of mass or
 *    at the centre (area centroid) of the overlap (TessPinMode; the smaller
 *    body's mode wins when both have one); a pin at the overlap's centre
 *    (a ragdoll's joint) bends within +-TESS_PIN_OVERLAP_LIMIT of the angle
 *    the parts were placed at, a pin at the smaller body's centre (an axle)
 *    turns freely; the dynamic bodies such pins join make one assembly whose
 *    parts never collide with each other (tess_world_create_from_scene gives
 *    them one shape group, numbered in body order);
 *  - view: side view keeps the level's gravity and has no floor drag;
 *    top-down has no gravity and the level's floor drag constant. */
#ifndef TESSERA_SCENE_H
#define TESSERA_SCENE_H

#include "tessera/base.h"
#include "tessera/geom.h"
#include "tessera/physics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The limits of a pin made at the centre of an overlap: +-60 degrees from
 * the placed pose, what a shoulder, hip, knee or neck of a ragdoll built by
 * overlapping parts can bend both ways without folding through itself. */
#define TESS_PIN_OVERLAP_LIMIT 1.04719755f

/* Index 0 of TessScene.materials is always the "no material" default
 * (tess_scene_material_default: the default surface, density 1, kind floor, id 0);
 * project materials follow in id order. */
typedef struct TessSceneMaterial {
  TessId id; /* project material id, 0 for the default */
  float friction, restitution, tangential, density;
  uint8_t kind; /* TessMaterialKind */
} TessSceneMaterial;

/* One shape of a body, in body coordinates (metres, origin at the body's
 * position, before its angle). type TessShapeType: a circle uses v[0] and
 * radius; a capsule v[0], v[1] and radius; a polygon v[0..count) (3..8,
 * convex, either winding) and radius 0. */
typedef struct TessSceneShape {
  uint8_t type;
  uint8_t count;
  uint16_t pad;
  float radius;
  TessVec2 v[TESS_POLY_MAX];
} TessSceneShape;

typedef struct TessSceneBody {
  TessId object; /* the level object id (0 if none) */
  uint8_t type;  /* TessBodyType */
  uint8_t sensor;
  uint8_t pin;        /* TessPinMode as placed (pins are already in joints) */
  uint8_t has_mass;   /* 1: mass / local_center / inertia below are used as they are */
  uint8_t integrator; /* TessIntegrator: 0 semi-implicit Euler, 1 RK4 */
  TessVec2 position;  /* metres */
  float angle;        /* radians */
  uint32_t material;  /* index into materials */
  uint32_t category, mask;
  uint32_t first_shape, shape_count; /* range in shapes */
  float mass;                        /* kg */
  TessVec2 local_center;             /* metres, body coordinates */
  float inertia;                     /* kg m^2 about the centre of mass */
} TessSceneBody;

typedef struct TessSceneJoint {
  TessId object; /* the level object id; 0 for a pin made by overlap */
  uint8_t kind;  /* TessJointKind */
  uint8_t limit_enabled;
  uint8_t from_overlap;   /* 1: made by pin-on-overlap */
  uint8_t motor_enabled;  /* pin: drives body b's spin relative to body a (0 for distance joints) */
  int32_t body_a, body_b; /* indices into bodies, -1 = the world */
  TessVec2 anchor_a;      /* world metres: the pin point, or the distance joint's first anchor */
  TessVec2 anchor_b;      /* distance joint's second anchor */
  float length;           /* metres; 0 = the distance at placement */
  float lower, upper;     /* pin limits, radians */
  float motor_speed;      /* pin motor target, rad/s (y down: > 0 rolls a wheel towards +x) */
  float motor_torque;     /* pin motor's maximum torque, N m (>= 0) */
} TessSceneJoint;

typedef struct TessSceneZone {
  TessId object;
  uint8_t kind;        /* TessZoneKind */
  TessVec2 center;     /* metres */
  float width, height; /* metres (force / acceleration rectangles) */
  float angle;         /* radians: the rectangle turns about its centre, as the editor draws it */
  TessVec2 vector;     /* N or m/s^2, in world axes (the editor's arrow does not turn either) */
  float strength;      /* attractor m^3/s^2; spring omega^2, 1/s^2 */
  float radius;        /* metres, 0 = unbounded */
} TessSceneZone;

typedef struct TessSceneSpawn {
  TessId object;
  char name[TESS_NAME_MAX];
  TessVec2 position; /* metres */
} TessSceneSpawn;

/* A launcher (level.h's TessLauncherObject) in metres: where a game or the
 * preview fires projectiles from, aiming with tessera/aim.h. */
typedef struct TessSceneLauncher {
  TessId object;
  char name[TESS_NAME_MAX];
  TessVec2 position; /* metres */
  float speed;       /* m/s, 0 = any speed (the slowest shot that reaches the target) */
  float radius;      /* projectile ball radius, metres */
  uint32_t material; /* index into materials */
  TessId sprite;     /* 0 = a ball; else the projectile is this sprite's body (project sprite id) */
} TessSceneLauncher;
/* A static collider made of pixels (tessera/physics.h's pixel mask): a tile
 * layer marked "collide by pixels" gives its tiles' alpha (alpha >= the
 * tileset's threshold is solid), one pixel per level pixel, covering the
 * whole level; its cells then take no part in the cell collision. A static
 * sprite body marked so gives its sprite's first frame (alpha >= the sprite
 * mask's threshold), in the body's frame: it then has no shapes, and the
 * world lays the mask at the body's position and angle. Layers' masks come
 * first, in layer order, then bodies', in body order. Its bits
 * are `(width + 7) / 8 * height` bytes of TessScene.pixel_bits from
 * `bits_offset`, row 0 at the top, pixel x in bit (x & 7) of byte x >> 3. */
typedef struct TessScenePixelMask {
  TessId layer;           /* the tile layer it comes from (0 for a body's) */
  uint32_t body;          /* 1 + the index in bodies of the static body it comes from (0 for a layer's) */
  uint32_t width, height; /* pixels */
  float pixel_size;       /* metres (1 / ppm) */
  TessVec2 origin;        /* metres of pixel (0, 0)'s top-left corner: world, or the body's frame */
  uint32_t material;      /* index into materials: the surface of the whole mask (the material most of
                             its solid pixels' cells have; the lowest index on a tie) */
  uint64_t bits_offset;   /* bytes into pixel_bits */
} TessScenePixelMask;

typedef struct TessScene {
  /* settings */
  uint32_t width, height; /* cells */
  float cell_w, cell_h;   /* metres (tile size / ppm) */
  float ppm;              /* pixels per metre of the source level */
  TessVec2 gravity;       /* m/s^2 (zero in top-down levels) */
  uint8_t view;           /* TessView */
  float physics_hz;
  uint32_t substeps;
  float floor_drag; /* k in F = -k * friction * m * v (zero in side view) */
  /* cells, row-major, width * height entries each */
  uint8_t *cell_kind; /* TessMapCellKind */
  uint8_t *cell_one_way;
  uint16_t *cell_material; /* index into materials (0 = none) */
  uint32_t *piece_start;   /* width * height + 1 entries; NULL when no cell is traced */
  uint32_t piece_count;
  TessPolygon *pieces; /* metres, relative to the cell's top-left corner, flips applied */
  uint32_t material_count;
  TessSceneMaterial *materials;
  uint32_t shape_count;
  TessSceneShape *shapes;
  uint32_t body_count;
  TessSceneBody *bodies;
  uint32_t joint_count;
  TessSceneJoint *joints;
  uint32_t zone_count;
  TessSceneZone *zones;
  uint32_t spawn_count;
  TessSceneSpawn *spawns;
  uint32_t launcher_count;
  TessSceneLauncher *launchers;
  uint32_t pixel_mask_count;
  TessScenePixelMask *pixel_masks;
  uint64_t pixel_bits_size; /* bytes */
  uint8_t *pixel_bits;
} TessScene;

/* Bytes of one mask's bits. */
static inline uint64_t tess_scene_pixel_mask_bytes(const TessScenePixelMask *m) {
  return (uint64_t)((m->width + 7) / 8) * m->height;
}

/* The "no material" default of index 0: tess_surface_default(), density 1,
 * kind floor, id 0. */
void tess_scene_material_default(TessSceneMaterial *m);

/* An all-zero scene to fill (NULL when out of memory). */
TessScene *tess_scene_create(void);
void tess_scene_destroy(TessScene *scene);

/* Pin on overlap (the rule above): adds a pin joint for each pair of
 * overlapping bodies where one asks for it. A producer that fills a scene
 * by hand calls it once its bodies and shapes are in place. */
TessResult tess_scene_resolve_pins(TessScene *scene, TessError *err);

/* Field-by-field equality (every field in a fixed order, floats by bit
 * pattern) and a 64-bit hash of the same bytes. */
bool tess_scene_equal(const TessScene *a, const TessScene *b);
uint64_t tess_scene_hash(const TessScene *scene);

/* A world from a scene: settings, tile map, bodies (shapes with their
 * materials, mass set directly where has_mass), joints, zones, pixel masks
 * (in scene order: mask i of the world is pixel_masks[i]). `def`
 * (optional) supplies everything the scene does not say (solver settings,
 * callbacks); the scene's gravity, sub-steps and floor drag override it.
 * body_ids (optional, scene->body_count entries) receives each body's handle. */
TessResult tess_world_create_from_scene(const TessScene *scene, const TessWorldDef *def, TessWorld **out,
                                        TessBodyId *body_ids, TessError *err);

#ifdef __cplusplus
}
#endif
#endif
