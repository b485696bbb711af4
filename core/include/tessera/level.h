/* Tessera core/level: the in-memory project and its levels, and the edit
 * operations that change them (each recording its inverse for undo).
 *
 * The structs below are public so that render, scene, store, pack and the
 * editor can read them directly. They are READ-ONLY outside core/level:
 * every change goes through a tess_edit_*() call (recorded for undo and
 * reported as a TessChange for the store and the editor) or, when building
 * a project from a file, through the tess_project_insert_*() calls.
 *
 * Units: the level is in pixels (positions, sizes) and radians; the scene
 * converts to metres with the level's pixels per metre. y points down. */
#ifndef TESSERA_LEVEL_H
#define TESSERA_LEVEL_H

#include "tessera/base.h"
#include "tessera/geom.h"    /* TessPolygon */
#include "tessera/image.h"   /* TessImageView (tess_mask_shape_update) */
#include "tessera/mask.h"    /* TessMaskMode; tracing returns plain results that level stores */
#include "tessera/aim.h"     /* tess_preview_level_fire aims as a game does */
#include "tessera/play.h"    /* TessPreviewLevel plays through a TessPlayback */
#include "tessera/scene.h"   /* tess_scene_from_level */
#include "tessera/terrain.h" /* TessTerrainSet */

#ifdef __cplusplus
extern "C" {
#endif

/* TESS_NAME_MAX (bytes of a name with its NUL) is in base.h; names are well-formed UTF-8. */
/* Limits: what a .tlv and float physics can hold, and what one export job
 * can afford. Each is refused with a message naming it (edits, loads,
 * validate and export all check them; README.md "Limits" lists them). */
/* TESS_LEVEL_MAX_CELLS (cells per side, 16384) is in base.h. */
/* Cells of a level (width x height, 4096 x 4096): the scene and the packed
 * layers hold a few bytes per cell, so one export job stays within a few
 * hundred MiB; a 16384 x 16384 level would need about 6 GB. */
#define TESS_LEVEL_MAX_AREA (1u << 24)
/* Pixels: a level's side (cells x tile size), every object's position and
 * size. 2^24 is where a float stops holding every whole pixel. */
#define TESS_LEVEL_MAX_PX (1u << 24)
#define TESS_OBJECT_MAX_PX 16777216.0f
/* Pixels per metre, at least: a pixel is at most 100 m, so level sizes in
 * metres stay far from float overflow in the physics' squared distances. */
#define TESS_LEVEL_MIN_PPM 0.01f
/* Mass (kg) and moment of inertia (kg m^2) of one body, at most: what the
 * .tlv's float fields and the solver's products can hold (FLT_MAX is 3.4e38). */
#define TESS_BODY_MAX_MASS 1e30
#define TESS_LEVEL_MAX_COLLIDING_LAYERS 64 /* tile layers flagged `collides` (the .tlv's collider table) */
#define TESS_CHUNK_SIZE 32                 /* cells per chunk side */
#define TESS_CHUNK_CELLS (TESS_CHUNK_SIZE * TESS_CHUNK_SIZE)
#define TESS_TILESET_ID_MAX 4095
#define TESS_MATERIAL_ID_MAX 65535
#define TESS_HISTORY_DEFAULT_BYTES ((size_t)256 * 1024 * 1024)

/* ---- Cells ------------------------------------------------------------- */

/* A cell as DESIGN.md defines it: bits 31/30/29 flip horizontally,
 * vertically, diagonally (Tiled's rule); bit 28 reserved (0); bits 16-27
 * the tileset id (1..4095); bits 0-15 the tile index. 0 = empty. */
typedef uint32_t TessCell;
#define TESS_CELL_FLIP_H 0x80000000u
#define TESS_CELL_FLIP_V 0x40000000u
#define TESS_CELL_FLIP_D 0x20000000u
#define TESS_CELL_FLIPS 0xE0000000u
#define TESS_CELL_RESERVED 0x10000000u
#define TESS_CELL_TILESET(c) (((uint32_t)(c) >> 16) & 0xFFFu)
#define TESS_CELL_TILE(c) ((uint32_t)(c)&0xFFFFu)
#define TESS_CELL_MAKE(tileset, tile, flips) \
  ((((uint32_t)(tileset)&0xFFFu) << 16) | ((uint32_t)(tile)&0xFFFFu) | ((uint32_t)(flips)&TESS_CELL_FLIPS))

/* Maps a point (x, y) in [0,w]x[0,h] of a tile to where the cell's flips put it
 * (diagonal first, then horizontal, then vertical, as Tiled draws). Used for
 * traced tile shapes so they turn with the tile. */
TessVec2 tess_cell_transform_point(TessCell cell, TessVec2 p, float tile_w, float tile_h);

struct TessTileset;
/* Where a cell's tile is drawn, in level pixels from the cell's top-left
 * corner, as Tiled's orthogonal renderer draws it: at the tile's own size
 * with its bottom-left corner on the cell's bottom-left corner, moved by
 * the tileset's offset. With the diagonal flip the turned tile spans
 * tile_h x tile_w, still from the cell's bottom-left corner (what Tiled
 * 1.8's tmxrasterizer draws for a non-square tile). A tileset with
 * fit_cell is scaled into the cell instead (the rectangle is the cell, and
 * pieces scale by cell / tile per axis, as .tlv files before 3.4 say). */
typedef struct TessTilePlace {
  double x, y, w, h; /* the drawn rectangle (what the image fills) */
  double px, py;     /* where tile point (0, 0) lands after the flips, and */
  double sx, sy;     /* the scale from flipped tile pixels to level pixels */
} TessTilePlace;
void tess_tile_place(const struct TessTileset *ts, TessCell cell, uint32_t cell_w, uint32_t cell_h, TessTilePlace *out);
/* A tile point (tileset pixels, unflipped) in level pixels from the cell's top-left corner. */
TessVec2 tess_tile_place_point(const TessTilePlace *pl, TessCell cell, const struct TessTileset *ts, TessVec2 p);
/* True when this cell's tile is drawn exactly on the cell (its own size is the cell's and no offset, or
 * fit_cell); tess_tileset_on_grid: for every flip (a non-square tile turned by the diagonal flip is not). */
bool tess_tile_on_cell(const struct TessTileset *ts, TessCell cell, uint32_t cell_w, uint32_t cell_h);
bool tess_tileset_on_grid(const struct TessTileset *ts, uint32_t cell_w, uint32_t cell_h);

/* How far (level pixels) any tile of the project may be drawn beyond its
 * own cell on each side, for a level's cell size: a painter of some cells
 * must also draw the neighbours within this reach. All 0 when every
 * tileset is on the grid. */
typedef struct TessTileReach {
  uint32_t left, top, right, bottom;
} TessTileReach;
struct TessProject;
void tess_tile_reach(const struct TessProject *p, uint32_t cell_w, uint32_t cell_h, TessTileReach *out);

/* ---- Materials --------------------------------------------------------- */

/* TessMaterialKind and the surface ranges are base vocabulary (base.h). */
typedef struct TessMaterial {
  TessId id; /* 1..65535 */
  char name[TESS_NAME_MAX];
  uint32_t color;    /* 0xRRGGBBAA */
  float friction;    /* Coulomb, >= 0 (<= 100) */
  float restitution; /* normal efficiency, 0..1 */
  float tangential;  /* tangential efficiency, 0..1, default 1 */
  float density;     /* kg/m^2, > 0 (<= 1e6) */
  TessMaterialKind kind;
} TessMaterial;

void tess_material_default(TessMaterial *m); /* "Default", stone-like */
/* Refuses NaN, infinities and out-of-range values, naming the field. */
TessResult tess_material_validate(const TessMaterial *m, TessError *err);
/* The density range tess_material_validate holds to: (0, 1e6] kg/m^2. */
TessRange tess_material_density_range(void);

/* ---- Tilesets ---------------------------------------------------------- */

typedef enum TessTileCollision {
  TESS_TILE_COLLISION_NONE = 0,
  TESS_TILE_COLLISION_FULL = 1,
  TESS_TILE_COLLISION_TRACED = 2,
} TessTileCollision;

typedef struct TessTileInfo {
  TessId material;      /* default material, 0 = none */
  uint8_t collision;    /* TessTileCollision */
  uint8_t one_way;      /* collides only with bodies coming from above */
  uint16_t piece_count; /* traced shape: convex pieces in tile pixels (0,0)-(tile_w,tile_h) */
  TessPolygon *pieces;
} TessTileInfo;

/* Largest tileset drawing offset, pixels each way (the tile size's own limit). */
#define TESS_TILE_OFFSET_MAX 65535

typedef struct TessTileset {
  TessId id; /* 1..4095 */
  char name[TESS_NAME_MAX];
  char *source_path; /* where the PNG came from (for reload); may be NULL */
  uint8_t *png;      /* the PNG file's bytes */
  size_t png_size;
  uint32_t image_w, image_h; /* pixels of the decoded PNG */
  uint32_t tile_w, tile_h, margin, spacing;
  uint32_t columns, tile_count;
  uint8_t alpha_threshold; /* for traced tiles, default 1 */
  TessTileInfo *tiles;     /* tile_count entries */
  uint32_t terrain_count;  /* terrain sets (Tiled's Wang sets), tessera/terrain.h */
  TessTerrainSet *terrains;
  /* Where its tiles are drawn (tess_tile_place): */
  int32_t offset_x, offset_y; /* pixels added to where a tile is drawn (Tiled's tileoffset), default 0 */
  uint8_t fit_cell;           /* 1: tiles scaled into the level's cell (Tiled's tilerendersize="grid", and what
                                 every .tlv before 3.4 means); 0 (default): drawn at their own size */
} TessTileset;

/* What a new tileset needs; columns and tile_count are derived. */
typedef struct TessTilesetDef {
  const char *name;
  const char *source_path;
  const uint8_t *png;
  size_t png_size;
  uint32_t image_w, image_h; /* from core/image's decoding of png */
  uint32_t tile_w, tile_h, margin, spacing;
  TessId default_material; /* given to every tile, 0 = none */
  TessTileCollision default_collision;
  int32_t offset_x, offset_y; /* TessTileset's drawing offset, default 0 */
  uint8_t fit_cell;           /* TessTileset's fit_cell, default 0 */
} TessTilesetDef;
void tess_tileset_def_default(TessTilesetDef *def);
/* Grid arithmetic (columns, rows) with every check: tile larger than the image, zero sizes... */
TessResult tess_tileset_grid(uint32_t image_w, uint32_t image_h, uint32_t tile_w, uint32_t tile_h,
                             uint32_t margin, uint32_t spacing, uint32_t *columns, uint32_t *rows,
                             TessError *err);
/* Top-left pixel of a tile in the tileset image. */
void tess_tileset_tile_origin(const TessTileset *ts, uint32_t tile, uint32_t *px, uint32_t *py);

/* ---- Sprites and their collision masks -------------------------------- */

/* A sprite's mask, in pixel units of one frame (origin at the frame's top-left). */
typedef struct TessSpriteMask {
  uint8_t threshold; /* alpha >= threshold counts; default 1 */
  uint8_t mode;      /* TessMaskMode (tessera/mask.h) */
  uint8_t manual;    /* 1 when the user edited the shape by hand */
  uint8_t largest_island_only;
  uint32_t max_vertices; /* default 8 */
  float tolerance;       /* Douglas-Peucker, pixels; default 1 */
  uint32_t hull_count;   /* exact hull of the opaque pixels, 0 = not traced */
  TessVec2 *hull;
  uint32_t piece_count; /* the body's shape: 1 polygon (simplified hull / box) or pieces */
  TessPolygon *pieces;
  TessVec2 circle_center; /* TESS_MASK_CIRCLE */
  float circle_radius;
  /* Pixel mass properties (per unit density, pixel units, double sums). */
  double area; /* opaque pixel count */
  double centroid_x, centroid_y;
  double inertia; /* about the centroid: sum of (1/6 + d^2) */
  /* The same over the chosen shape, and what the shape gains or misses. */
  double shape_area, shape_centroid_x, shape_centroid_y, shape_inertia;
  double added_area;     /* simplified hull: its area minus the exact hull's; pieces: their area beyond the opaque pixels they cover */
  double uncovered_area; /* opaque pixels the pieces leave out */
} TessSpriteMask;

typedef struct TessSprite {
  TessId id;
  char name[TESS_NAME_MAX];
  char *source_path;
  uint8_t *png;
  size_t png_size;
  uint32_t image_w, image_h; /* the whole PNG; frames form a horizontal strip */
  uint32_t frame_count;      /* >= 1 */
  float frame_rate;          /* frames per second, >= 0 */
  TessVec2 anchor;           /* pixels within a frame: the body's origin */
  TessSpriteMask mask;
} TessSprite;

void tess_sprite_mask_default(TessSpriteMask *mask);
/* Deep copies and frees (the sprite struct itself is the caller's). */
TessResult tess_sprite_copy(TessSprite *dst, const TessSprite *src);
void tess_sprite_clear(TessSprite *s);
TessResult tess_sprite_mask_copy(TessSpriteMask *dst, const TessSpriteMask *src);
void tess_sprite_mask_clear(TessSpriteMask *mask);
TessResult tess_tileset_copy(TessTileset *dst, const TessTileset *src);
void tess_tileset_clear(TessTileset *ts);

/* ---- Tracing into sprites and tiles (core/level/mask_store.c) --------- */

/* Traces a sprite frame (tessera/mask.h's tess_mask_trace) with the
 * settings stored in `mask` (threshold, mode, max_vertices (3..8),
 * tolerance, largest_island_only) and stores everything else: hull,
 * pieces, circle, pixel mass, shape mass, added and uncovered area,
 * `manual` reset to 0. The old hull and pieces are released with
 * tess_free; on failure `mask` is unchanged. The editor, the demo generator
 * and the pipeline use it. */
TessResult tess_sprite_mask_trace(TessImageView frame, TessSpriteMask *mask, TessError *err);
/* The same, filling `report` (may be NULL) as well. */
TessResult tess_sprite_mask_trace_report(TessImageView frame, TessSpriteMask *mask, TessMaskTraceReport *report,
                                         TessError *err);

/* Traces every tile of a tileset image (tess_mask_trace_tile_grid) into
 * tiles[i] for i < tile_count: collision NONE (fully transparent), FULL
 * (fully opaque) or TRACED with its convex pieces. Materials and one_way are
 * left alone; old pieces are released with tess_free; on failure `tiles`
 * is unchanged. */
TessResult tess_mask_trace_tiles(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                 uint32_t spacing, const TessMaskSettings *settings, TessTileInfo *tiles,
                                 uint32_t tile_count, TessError *err);
/* The same, counting in *simplified (may be NULL) the tiles given their
 * simplified hull to stay within the run budget. */
TessResult tess_mask_trace_tiles_report(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                        uint32_t spacing, const TessMaskSettings *settings, TessTileInfo *tiles,
                                        uint32_t tile_count, uint32_t *simplified, TessError *err);
/* The same, watched (tess_mask_trace_tile_grid_watched): a cancelled trace
 * leaves `tiles` unchanged. The editor's Trace All runs it on a worker. */
TessResult tess_mask_trace_tiles_watched(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                         uint32_t spacing, const TessMaskSettings *settings, TessTileInfo *tiles,
                                         uint32_t tile_count, uint32_t *simplified, const TessMaskWatch *watch,
                                         TessError *err);

/* ---- Objects ----------------------------------------------------------- */

typedef enum TessPropType {
  TESS_PROP_STRING = 0,
  TESS_PROP_INT = 1,
  TESS_PROP_FLOAT = 2,
  TESS_PROP_BOOL = 3,
  TESS_PROP_COLOR = 4, /* 0xRRGGBBAA */
} TessPropType;

typedef struct TessProperty {
  char name[TESS_NAME_MAX];
  uint8_t type; /* TessPropType */
  union {
    char *s; /* owned */
    int64_t i;
    double f;
    bool b;
    uint32_t color;
  } v;
} TessProperty;

typedef enum TessObjectKind {
  TESS_OBJECT_BODY = 0,
  TESS_OBJECT_JOINT = 1,
  TESS_OBJECT_ZONE = 2,
  TESS_OBJECT_SPAWN = 3,
  TESS_OBJECT_LAUNCHER = 4, /* Play: drag from it to a target, release to fire (tessera/aim.h) */
} TessObjectKind;

typedef enum TessBodyShape {
  TESS_BODY_CIRCLE = 0,  /* radius */
  TESS_BODY_BOX = 1,     /* width x height */
  TESS_BODY_CAPSULE = 2, /* width = total length along the body's x axis, height = diameter */
  TESS_BODY_SPRITE = 3,  /* the sprite's mask; pos is where the sprite's anchor sits */
} TessBodyShape;

typedef struct TessBodyObject {
  uint8_t shape; /* TessBodyShape */
  uint8_t type;  /* TessBodyType */
  uint8_t pin;   /* TessPinMode */
  uint8_t sensor;
  TessId sprite;           /* TESS_BODY_SPRITE */
  TessId material;         /* 0 = the project's first material */
  float radius;            /* circle, px */
  float width, height;     /* box, capsule, px */
  uint32_t category, mask; /* collision filter bits; defaults 0x1 and 0xFFFFFFFF */
  uint8_t integrator;      /* TessIntegrator (tessera/physics.h); 0 = semi-implicit Euler, the default */
  /* Static sprite bodies: collides by its sprite's pixels (frame 0, alpha >= the mask's threshold;
   * a pixel mask turned with the body, tessera/physics.h) instead of its traced shapes. Ignored
   * on other bodies. */
  bool collide_pixels;
} TessBodyObject;

typedef struct TessJointObject {
  uint8_t kind;          /* TessJointKind */
  uint8_t limit_enabled; /* pin: angle limits */
  TessId body_a, body_b; /* object ids; 0 = the world */
  TessVec2 anchor_b;     /* distance joint's second anchor, level px */
  float length;          /* distance, px; 0 = the distance at placement */
  float lower, upper;    /* pin limits, radians */
  uint8_t motor_enabled; /* pin: drives body b's spin relative to body a */
  float motor_speed;     /* pin motor target, rad/s (y down: > 0 rolls a wheel towards +x) */
  float motor_torque;    /* pin motor's maximum torque, N m (>= 0) */
} TessJointObject;

typedef struct TessZoneObject {
  uint8_t kind;        /* TessZoneKind */
  float width, height; /* rectangle, px, centred on pos */
  TessVec2 vector;     /* force (N) or acceleration (m/s^2) */
  float strength;      /* attractor, m^3/s^2; spring, omega^2 in 1/s^2 (TESS_OBJECT_RANGE_SPRING) */
  float radius;        /* attractor or spring reach, px (0 = unbounded) */
} TessZoneObject;

/* A launcher fires projectiles: in Play, a drag from it to a target shows
 * the arcs that reach the target (tessera/aim.h) and the release fires a
 * ball of `radius` (or the sprite's body) along the one picked; a game
 * finds launchers in the scene and the .tlv. */
typedef struct TessLauncherObject {
  float speed;     /* launch speed, m/s; 0 = any speed (the slowest shot that reaches the target) */
  float radius;    /* projectile ball radius, px (> 0) */
  TessId material; /* projectile material, 0 = the project's first */
  TessId sprite;   /* 0 = a ball of `radius`; else the projectile is this sprite's body */
} TessLauncherObject;

typedef struct TessObject {
  TessId id;
  uint8_t kind; /* TessObjectKind */
  char name[TESS_NAME_MAX];
  TessVec2 pos; /* level pixels: centre of a body or zone, pin point, spawn point */
  float angle;  /* radians */
  /* Draw depth within its layer (TESS_OBJECT_DEPTH_MIN..MAX, default 0):
   * lower first; then, in a layer that sorts by y, the object lower on
   * screen over; then object order. The map view, `render`, Play and the
   * .tlv (3.6) all draw in this order (tess_level_draw_order). */
  int32_t depth;
  union {
    TessBodyObject body;
    TessJointObject joint;
    TessZoneObject zone;
    TessLauncherObject launcher;
  } u;
  uint32_t prop_count;
  TessProperty *props; /* owned */
} TessObject;

#define TESS_OBJECT_DEPTH_MIN (-32768)
#define TESS_OBJECT_DEPTH_MAX 32767

/* Defaults for each kind (a 32 px dynamic circle, a pin joint, a wind zone, a spawn, a launcher
 * firing 8 px balls at 12 m/s). */
void tess_object_default(TessObject *obj, TessObjectKind kind);
TessResult tess_object_validate(const TessObject *obj, TessError *err);

/* The ranges tess_object_validate holds an object's numbers to. */
typedef enum TessObjectRange {
  TESS_OBJECT_RANGE_COORD = 0,  /* a position or anchor, px: [-2^24, 2^24] */
  TESS_OBJECT_RANGE_EXTENT = 1, /* a body's radius, width, height, px: (0, 2^24] */
  TESS_OBJECT_RANGE_LENGTH = 2, /* a zone's size, a joint's length, px: [0, 2^24] */
  TESS_OBJECT_RANGE_TORQUE = 3, /* a pin motor's maximum torque, N m: [0, FLT_MAX] */
  TESS_OBJECT_RANGE_SPRING = 4, /* a spring zone's strength omega^2, 1/s^2: [0, 10^6] (omega up to 1000 rad/s,
                                   well past any step rate a level runs at) */
  TESS_OBJECT_RANGE_SPEED = 5,  /* a launcher's speed, m/s: [0, 1000] (0 = any speed) */
} TessObjectRange;
TessRange tess_object_range(TessObjectRange which);
/* A new spring zone's strength: (2 pi)^2 1/s^2, one swing a second. */
#define TESS_SPRING_DEFAULT_STRENGTH 39.4784176f
TessResult tess_object_copy(TessObject *dst, const TessObject *src);            /* deep */
void tess_object_clear(TessObject *obj);                                        /* frees props */
TessResult tess_object_set_property(TessObject *obj, const TessProperty *prop); /* add or replace by name */
const TessProperty *tess_object_property(const TessObject *obj, const char *name);

/* ---- Layers and levels ------------------------------------------------- */

typedef enum TessLayerKind {
  TESS_LAYER_TILES = 0,
  TESS_LAYER_MATERIAL = 1, /* cells hold material ids (0 = no override); one per level */
  TESS_LAYER_OBJECTS = 2,
} TessLayerKind;

typedef struct TessChunk {
  uint32_t cells[TESS_CHUNK_CELLS]; /* row-major, TESS_CHUNK_SIZE per row */
  uint32_t used;                    /* non-zero cells; a chunk reaching 0 is freed */
} TessChunk;

typedef struct TessLayerProps {
  TessId id;
  char name[TESS_NAME_MAX];
  uint8_t kind; /* TessLayerKind */
  bool visible, locked, collides;
  float opacity;       /* 0..1 */
  bool y_sort;         /* object layers: objects lower on screen drawn over (top-down levels; Tiled's draworder topdown) */
  bool collide_pixels; /* tile layers: collides by its tiles' pixels (a pixel mask), not by cells */
} TessLayerProps;

typedef struct TessLayer {
  TessLayerProps props;
  uint32_t chunks_x, chunks_y;
  TessChunk **chunks;    /* chunks_x * chunks_y, NULL = all empty (tile and material layers) */
  uint32_t object_count; /* object layers */
  TessObject *objects;
} TessLayer;

typedef struct TessLevelSettings {
  char name[TESS_NAME_MAX];
  uint32_t width, height;  /* cells, 1..16384, width x height <= TESS_LEVEL_MAX_AREA */
  uint32_t tile_w, tile_h; /* pixels */
  float ppm;               /* pixels per metre */
  TessVec2 gravity;        /* m/s^2; side view default (0, 9.81) */
  uint8_t view;            /* TessView */
  float physics_hz;        /* default 60 */
  uint32_t substeps;       /* default 4 */
  float floor_drag;        /* top-down k in F = -k * friction * m * v */
} TessLevelSettings;

typedef struct TessLevel {
  TessId id;
  TessLevelSettings settings;
  uint32_t layer_count;
  TessLayer **layers; /* bottom to top */
} TessLevel;

void tess_level_settings_default(TessLevelSettings *s);
TessResult tess_level_settings_validate(const TessLevelSettings *s, TessError *err);

TessCell tess_layer_cell(const TessLayer *layer, uint32_t x, uint32_t y); /* 0 outside */
const TessChunk *tess_layer_chunk(const TessLayer *layer, uint32_t cx, uint32_t cy);
TessLayer *tess_level_layer(const TessLevel *level, TessId layer_id);
int tess_level_layer_index(const TessLevel *level, TessId layer_id); /* -1 if absent */
TessLayer *tess_level_material_layer(const TessLevel *level);        /* NULL if none */
/* Finds an object in any object layer of the level. */
TessObject *tess_level_object(const TessLevel *level, TessId object_id, TessLayer **layer_out);
/* The order the layer's objects are drawn in (depth, then y when the layer
 * sorts by y, then object order; tessera/play.h's tess_depth_key): out[k]
 * is the index of the object drawn k-th (object_count entries). */
TessResult tess_layer_draw_order(const TessLayer *layer, uint32_t *out, TessError *err);
/* The rank of an object layer among the level's object layers (bottom
 * first), for tess_depth_key; 0 for a layer not in the level. */
uint32_t tess_level_object_layer_rank(const TessLevel *level, const TessLayer *layer);
/* Bytes the level's cells and objects occupy in memory. */
size_t tess_level_memory_bytes(const TessLevel *level);

/* ---- The project ------------------------------------------------------- */

typedef enum TessIdKind {
  TESS_ID_MATERIAL = 0,
  TESS_ID_TILESET,
  TESS_ID_SPRITE,
  TESS_ID_LEVEL,
  TESS_ID_LAYER,
  TESS_ID_OBJECT,
  TESS_ID_KIND_COUNT
} TessIdKind;

/* What an edit (or its undo) touched: the store persists these, the editor
 * redraws them. The item named may no longer exist (it was removed). */
typedef enum TessChangeKind {
  TESS_CHANGE_MATERIAL = 0, /* id */
  TESS_CHANGE_TILESET,      /* id */
  TESS_CHANGE_SPRITE,       /* id */
  TESS_CHANGE_LEVEL,        /* level: settings and the order of its layers */
  TESS_CHANGE_LAYER,        /* level, layer: props (removal included) */
  TESS_CHANGE_CHUNK,        /* level, layer, chunk_x, chunk_y */
  TESS_CHANGE_OBJECT,       /* level, layer, id */
  TESS_CHANGE_COUNT
} TessChangeKind;

/* Fields by kind: MATERIAL/TILESET/SPRITE: id. LEVEL: id = level = the
 * level's id. LAYER: id = layer = the layer's id, level. CHUNK: level,
 * layer, chunk_x, chunk_y (id 0). OBJECT: id, level, layer. A level or layer
 * that appears (added, or its removal undone) or whose size changes also
 * reports each of its chunks (before and after a resize) and objects, so a
 * store can rewrite it from the changes alone. */
typedef struct TessChange {
  uint8_t kind; /* TessChangeKind */
  TessId id, level, layer;
  uint32_t chunk_x, chunk_y;
} TessChange;

typedef void (*TessChangeFn)(const TessChange *change, void *user);

typedef struct TessHistory TessHistory;     /* private */
typedef struct TessChangeLog TessChangeLog; /* private */

typedef struct TessProject {
  uint32_t material_count;
  TessMaterial *materials; /* sorted by id */
  uint32_t tileset_count;
  TessTileset **tilesets; /* sorted by id */
  uint32_t sprite_count;
  TessSprite **sprites; /* sorted by id */
  uint32_t level_count;
  TessLevel **levels;                 /* in the order the user sees them */
  TessId next_id[TESS_ID_KIND_COUNT]; /* the next id to hand out (>= 1); never reused; persisted by the store */
  /* private */
  TessHistory *history;
  TessChangeLog *changes;
  TessChangeFn listener;
  void *listener_user;
  TessId wanted_id[TESS_ID_KIND_COUNT]; /* tess_project_want_id: the id the next add of a kind takes, 0 = none */
} TessProject;

TessProject *tess_project_create(void);
void tess_project_destroy(TessProject *project);

const TessMaterial *tess_project_material(const TessProject *p, TessId id);
const TessMaterial *tess_project_material_by_name(const TessProject *p, const char *name);
TessTileset *tess_project_tileset(const TessProject *p, TessId id);
TessSprite *tess_project_sprite(const TessProject *p, TessId id);
TessLevel *tess_project_level(const TessProject *p, TessId id);
TessLevel *tess_project_level_by_name(const TessProject *p, const char *name);
/* The tile a cell refers to, or NULL (unknown tileset or index out of range). */
const TessTileInfo *tess_project_tile(const TessProject *p, TessCell cell);

/* Content hashes: everything the user made, not history or id counters. */
uint64_t tess_project_hash(const TessProject *p);
/* One level plus everything its export depends on (materials, tilesets, sprites). */
uint64_t tess_level_content_hash(const TessProject *p, const TessLevel *level);

/* ---- What collides: DESIGN.md's rule, the one place it is computed ----- */

typedef struct TessCellCollision {
  uint8_t kind; /* TessTileCollision: the shape of the cell */
  uint8_t one_way;
  TessId material;          /* effective material, 0 = none */
  TessCell cell;            /* the colliding tile (with flips), 0 if none */
  const TessTileInfo *tile; /* its tile info, NULL if none */
} TessCellCollision;

/* For cell (x, y): the topmost non-empty tile among the layers flagged
 * `collides` gives the shape; the material layer's override, else that
 * tile's default material, gives the material; a cell whose effective
 * material is solid is a full square even without a tile.
 * Details: a cell naming no existing tile counts as empty; a tile whose
 * kind is NONE still hides the tiles below it (a decoration on top); a solid
 * material turns a NONE shape into FULL but leaves a TRACED tile traced (a
 * stone slope stays a slope); a material id that does not exist gives 0.
 * Outside the level everything is 0. */
void tess_level_cell_collision(const TessProject *p, const TessLevel *level, uint32_t x, uint32_t y,
                               TessCellCollision *out);
/* The same for `count` cells of row y from x0 (out[0..count)), several
 * times faster per cell than one call each (chunk rows read once, repeated
 * tiles and materials looked up once): for whole-level passes. */
void tess_level_collision_row(const TessProject *p, const TessLevel *level, uint32_t x0, uint32_t y, uint32_t count,
                              TessCellCollision *out);

/* ---- Level checks: the one list validate, export and the editor share ---
 *
 * Everything that keeps a level from exporting (an error) or is very likely
 * a mistake (a warning), with a sentence naming the level and the object.
 * `tessera-pipeline validate` prints them all, export refuses a level with
 * an error before writing anything, and the editor shows them in its
 * problem list: so a project validate passes always exports. */

typedef enum TessProblemSeverity {
  TESS_PROBLEM_ERROR = 0,   /* export refuses the level */
  TESS_PROBLEM_WARNING = 1, /* exports, but probably not what was meant */
} TessProblemSeverity;

typedef struct TessProblem {
  uint8_t severity; /* TessProblemSeverity */
  TessResult code;  /* TESS_ERR_INVALID, _LIMIT, _NOT_FOUND, _FORMAT (an image) */
  TessId level;     /* 0: not about one level (a sprite, a material, a tileset) */
  TessId object;    /* 0: not about one object */
  char detail[400]; /* "level 'Cave': body 'crate' (id 12): sprite 7 does not exist" */
} TessProblem;

typedef void (*TessProblemFn)(const TessProblem *problem, void *user);

/* Calls fn (may be NULL) for each problem of one level, in layer and object
 * order; returns the number of errors. */
uint32_t tess_level_check(const TessProject *p, const TessLevel *level, TessProblemFn fn, void *user);
/* Every level, then the project's own problems: tilesets and sprites whose
 * PNG bytes declare another size than the project holds, sprites with no
 * collision mask, materials nothing uses. Returns the number of errors. */
uint32_t tess_project_check(const TessProject *p, TessProblemFn fn, void *user);
/* The level's first error as a TessError (what export refuses with), or TESS_OK. */
TessResult tess_level_check_errors(const TessProject *p, const TessLevel *level, TessError *err);

/* ---- Edit operations (recorded for undo, reported as changes) */

/* Consecutive edits carrying the same non-zero merge key (one drag) form one
 * undo step. Get a fresh key at the start of each drag. */
uint32_t tess_project_new_merge_key(TessProject *p);

/* Cells. Rectangles are clipped to the level; edits on a locked layer give
 * TESS_ERR_LOCKED. Stamp cells of 0 are transparent (not painted). */
TessResult tess_edit_paint(TessProject *p, TessId level, TessId layer, int32_t x, int32_t y, uint32_t w,
                           uint32_t h, const TessCell *stamp, uint32_t merge, TessError *err);
/* Sets cells exactly (0 erases): paste, cut, move of a selection. */
TessResult tess_edit_set_cells(TessProject *p, TessId level, TessId layer, int32_t x, int32_t y, uint32_t w,
                               uint32_t h, const TessCell *cells, uint32_t merge, TessError *err);
TessResult tess_edit_erase(TessProject *p, TessId level, TessId layer, int32_t x, int32_t y, uint32_t w,
                           uint32_t h, uint32_t merge, TessError *err);
TessResult tess_edit_fill_rect(TessProject *p, TessId level, TessId layer, int32_t x, int32_t y, uint32_t w,
                               uint32_t h, TessCell cell, uint32_t merge, TessError *err);
/* 4-connected region of cells equal to the cell at (x, y), bounded by the level. */
TessResult tess_edit_flood_fill(TessProject *p, TessId level, TessId layer, uint32_t x, uint32_t y,
                                TessCell cell, uint32_t merge, TessError *err);
/* The material layer (created on first use if the level has none): a
 * rectangle of overrides; material 0 clears them. */
TessResult tess_edit_paint_material(TessProject *p, TessId level, int32_t x, int32_t y, uint32_t w, uint32_t h,
                                    TessId material, uint32_t merge, TessError *err);

/* Terrain brush (core/level/terrain_fill.c): Tiled's Wang fill. The cells
 * painted get `color` on every corner and edge; they and their 8 neighbours
 * get the tile of the set whose labels match what is around them. Per cell,
 * in row order: the positions it shares with painted cells, with cells
 * outside the edit that hold tiles of the set, and with cells already chosen
 * are required; its own former labels are wished for. The tile chosen
 * matches the most required positions, then the most wished ones (on an
 * incomplete set: the tile matching the most corners/edges, as Tiled does);
 * ties go by probability (tile x its colours') with a generator seeded by
 * (seed, x, y), so the same stroke gives the same tiles on every run.
 * Cells with flips or tiles outside the set count as unlabelled. One call is
 * one undo step, or part of the drag's step with a merge key. */
typedef struct TessTerrainBrush {
  TessId tileset; /* the tileset whose terrain set is used */
  uint32_t set;   /* index in tileset->terrains */
  uint32_t color; /* 1..color_count */
  uint32_t seed;
} TessTerrainBrush;
/* Cells given as count (x, y) pairs (a stroke's dabs; outside the level ignored). */
TessResult tess_edit_terrain_cells(TessProject *p, TessId level, TessId layer, const TessTerrainBrush *brush,
                                   const uint32_t *xy, uint32_t count, uint32_t merge, TessError *err);
TessResult tess_edit_terrain_rect(TessProject *p, TessId level, TessId layer, const TessTerrainBrush *brush,
                                  int32_t x, int32_t y, uint32_t w, uint32_t h, uint32_t merge, TessError *err);
/* The 4-connected region of cells equal to the cell at (x, y), as flood fill. */
TessResult tess_edit_terrain_fill(TessProject *p, TessId level, TessId layer, const TessTerrainBrush *brush,
                                  uint32_t x, uint32_t y, uint32_t merge, TessError *err);
/* The labels of a cell in a set: false (wang zeroed) when the cell is empty,
 * flipped, of another tileset or unlabelled. */
bool tess_terrain_cell_labels(const TessTerrainSet *set, TessId tileset, TessCell cell,
                              uint8_t wang[TESS_TERRAIN_POSITIONS]);

/* Objects. add ignores obj->id and returns the new one. set replaces the
 * object with the same id (move, rotate, any field); merge as above. */
TessResult tess_edit_object_add(TessProject *p, TessId level, TessId layer, const TessObject *obj,
                                TessId *id_out, TessError *err);
TessResult tess_edit_object_set(TessProject *p, TessId level, const TessObject *obj, uint32_t merge,
                                TessError *err);
TessResult tess_edit_object_remove(TessProject *p, TessId level, TessId object, TessError *err);

/* Materials. remove: cells and bodies that use it get `replacement` (0 = none). */
TessResult tess_edit_material_add(TessProject *p, const TessMaterial *m, TessId *id_out, TessError *err);
TessResult tess_edit_material_set(TessProject *p, const TessMaterial *m, uint32_t merge, TessError *err);
TessResult tess_edit_material_remove(TessProject *p, TessId material, TessId replacement, TessError *err);

/* Tilesets. set replaces everything but the id (rename, per-tile info, a
 * reloaded PNG). remove: cells using it are erased, or remapped to the same
 * tile index of `remap_to` when non-zero. */
TessResult tess_edit_tileset_add(TessProject *p, const TessTilesetDef *def, TessId *id_out, TessError *err);
TessResult tess_edit_tileset_set(TessProject *p, const TessTileset *ts, uint32_t merge, TessError *err);
TessResult tess_edit_tileset_remove(TessProject *p, TessId tileset, TessId remap_to, TessError *err);

/* Sprites (add ignores sprite->id). remove also removes the bodies that use it. */
TessResult tess_edit_sprite_add(TessProject *p, const TessSprite *s, TessId *id_out, TessError *err);
TessResult tess_edit_sprite_set(TessProject *p, const TessSprite *s, uint32_t merge, TessError *err);
TessResult tess_edit_sprite_remove(TessProject *p, TessId sprite, TessError *err);

/* Layers. index: position from the bottom, -1 = on top. set_props takes props.id. */
TessResult tess_edit_layer_add(TessProject *p, TessId level, TessLayerKind kind, const char *name, int index,
                               TessId *id_out, TessError *err);
TessResult tess_edit_layer_set_props(TessProject *p, TessId level, const TessLayerProps *props, uint32_t merge,
                                     TessError *err);
TessResult tess_edit_layer_move(TessProject *p, TessId level, TessId layer, int new_index, TessError *err);
TessResult tess_edit_layer_remove(TessProject *p, TessId level, TessId layer, TessError *err);

/* Levels. add creates a tile layer "Ground", the material layer and an object
 * layer "Objects". set: a size change keeps the content anchored
 * (anchor_x, anchor_y: 0 left/top, 1 centre, 2 right/bottom). */
TessResult tess_edit_level_add(TessProject *p, const TessLevelSettings *s, TessId *id_out, TessError *err);
TessResult tess_edit_level_set(TessProject *p, TessId level, const TessLevelSettings *s, int anchor_x,
                               int anchor_y, TessError *err);
TessResult tess_edit_level_remove(TessProject *p, TessId level, TessError *err);

/* Keeping ids (a map import of Tessera's own export keeps the ids the
 * project it came from had, so the level's content hash survives the round
 * trip). reserve: ids below `end` are never handed out by a plain add from
 * now on (next_id is raised to `end`). want: the next add of `kind` takes
 * `id` instead of the next free one. The caller guarantees that `id` is
 * reserved, was free when it was reserved, and is wanted once. */
void tess_project_reserve_ids(TessProject *p, TessIdKind kind, TessId end);
void tess_project_want_id(TessProject *p, TessIdKind kind, TessId id);

/* ---- Undo history ------------------------------------------------------ */

/* A group: every edit between begin and end is one undo step under `label`
 * (a map import). cancel rolls back every edit made since begin and records
 * nothing. Groups do not nest; undo and redo wait for the group's end. */
TessResult tess_project_group_begin(TessProject *p, const char *label, TessError *err);
void tess_project_group_end(TessProject *p);
void tess_project_group_cancel(TessProject *p);

bool tess_project_can_undo(const TessProject *p);
bool tess_project_can_redo(const TessProject *p);
/* English label of the step ("Paint tiles", "Move object"); the editor translates by key. */
const char *tess_project_undo_label(const TessProject *p);
const char *tess_project_redo_label(const TessProject *p);
TessResult tess_project_undo(TessProject *p, TessError *err);
TessResult tess_project_redo(TessProject *p, TessError *err);
/* The history is bounded in memory (default 256 MiB); the oldest steps go first. */
void tess_project_set_history_limit(TessProject *p, size_t bytes);
size_t tess_project_history_bytes(const TessProject *p);
void tess_project_clear_history(TessProject *p);

/* ---- Changes ----------------------------------------------------------- */

/* Pending changes since the last clear, each at most once. */
size_t tess_project_changes(const TessProject *p, const TessChange **out);
void tess_project_clear_changes(TessProject *p);
/* Called for every change as it happens (the editor's redraw hook). */
void tess_project_set_listener(TessProject *p, TessChangeFn fn, void *user);

/* Pointers and edits: getters return borrowed pointers. Materials live in
 * one array, so a material add or remove (or its undo) moves them. Tilesets,
 * sprites, levels and layers keep their addresses for as long as they are in
 * the project (a set swaps the contents in place: the inner arrays such as
 * tiles or png change). A layer's chunks and objects arrays change with any
 * edit of them; tess_edit_level_set with a new size replaces them. */

/* ---- Building a project from a file (no history, no changes) */

/* Each copies its input (deep) and keeps the id given; next_id is raised past it. */
TessResult tess_project_insert_material(TessProject *p, const TessMaterial *m, TessError *err);
TessResult tess_project_insert_tileset(TessProject *p, const TessTileset *ts, TessError *err);
TessResult tess_project_insert_sprite(TessProject *p, const TessSprite *s, TessError *err);
TessResult tess_project_insert_level(TessProject *p, TessId id, const TessLevelSettings *s, TessLevel **out,
                                     TessError *err); /* appended, with no layers */
TessResult tess_level_insert_layer(TessProject *p, TessLevel *level, const TessLayerProps *props,
                                   TessLayer **out, TessError *err); /* appended on top */
TessResult tess_layer_insert_chunk(TessLayer *layer, uint32_t cx, uint32_t cy, const uint32_t *cells,
                                   TessError *err); /* TESS_CHUNK_CELLS cells */
TessResult tess_layer_insert_object(TessProject *p, TessLayer *layer, const TessObject *obj, TessError *err);

/* ---- The level resolved for simulation (core/level/scene_from_level.c) */

/* Resolves `level` of `project` (read-only) by tessera/scene.h's rules.
 * Refuses levels whose settings or objects fail validation, bodies with
 * unknown sprites, and shapes that cannot be made valid, naming the object.
 * It lives on level's side of the line so that scene, and a game that makes
 * its scene from a .tlv, never see the level model. */
TessResult tess_scene_from_level(const TessProject *project, const TessLevel *level, TessScene **out,
                                 TessError *err);

/* ---- A level playing (core/level/preview_level.c) */

/* TessPreviewLevel: a playback of one level of a project, built the way a
 * game builds its world (tess_scene_from_level, tess_world_create_from_scene),
 * with what the preview needs to draw each body (its sprite, colour and
 * shapes). Plain C: no GTK. The project is read, never changed. */

typedef struct TessPreviewLevel {
  const TessProject *project; /* borrowed */
  const TessLevel *level;     /* borrowed */
  TessScene *scene;           /* owned: zones, joints and cells for the overlays */
  TessPlayback *playback;     /* owned */
  uint64_t level_hash;        /* tess_level_content_hash when the preview started */
} TessPreviewLevel;

/* memory_budget 0 = the default 256 MiB. */
TessResult tess_preview_level_create(const TessProject *project, const TessLevel *level, size_t memory_budget,
                                     TessPreviewLevel **out, TessError *err);
void tess_preview_level_destroy(TessPreviewLevel *pl);

/* The body under a world point (metres): dynamic ones only when asked;
 * sensors are never picked. */
bool tess_preview_level_pick(const TessPreviewLevel *pl, TessVec2 point, bool dynamic_only, TessBodyId *out);

/* Drops a ball (radius in metres, 0 = half a cell) or a sprite body (the
 * sprite's collision mask, as the scene would place it) at `at`, moving at
 * `velocity`, made of `material` (0 = the project's first). */
TessResult tess_preview_level_spawn_ball(TessPreviewLevel *pl, TessVec2 at, TessVec2 velocity, float radius,
                                         TessId material, TessBodyId *out, TessError *err);
TessResult tess_preview_level_spawn_sprite(TessPreviewLevel *pl, TessId sprite, TessVec2 at, TessVec2 velocity,
                                           TessId material, TessBodyId *out, TessError *err);

/* The launcher (index into scene->launchers) nearest to a world point
 * within `reach` metres; false if none. */
bool tess_preview_level_pick_launcher(const TessPreviewLevel *pl, TessVec2 point, float reach, uint32_t *index);

/* Fires a launcher: its projectile (the launcher's sprite body, or a ball
 * of its radius, of its material) leaves the launcher's position at
 * `velocity` (a tess_aim_launcher solution), given to the world corrected
 * for its sub-steps (tess_aim_for_substeps), so with nothing in the way its
 * centre follows the aimed arc through the target. Recorded like a drop. */
TessResult tess_preview_level_fire(TessPreviewLevel *pl, uint32_t launcher, TessVec2 velocity, TessBodyId *out,
                                   TessError *err);

/* The final positions of the level's own bodies ("Keep positions"): one
 * tess_edit_object_set per dynamic or kinematic body that moved, and per
 * joint whose points those bodies carried (a pin moves with its body a, a
 * distance joint's anchors with their bodies; a pin to the world stays),
 * all with one merge key, so the whole batch is one undo step. Returns the number of
 * objects changed through `changed`. The caller commits. */
TessResult tess_preview_level_keep_positions(TessPreviewLevel *pl, TessProject *project, uint32_t *changed,
                                             TessError *err);

/* ---- Hand edits of a sprite's mask (core/level/sprite_mask_edit.c) */

/* Hand edits of a sprite's collision shape (the mask's pieces), as
 * PhysicsEditor users expect: move, insert or remove a vertex. After each
 * edit the mask is marked manual and its shape readouts are recomputed:
 * shape mass properties (area, centroid, inertia of the union of pieces),
 * added area (shape area outside the exact hull) and uncovered area
 * (opaque pixel area outside every piece, exact: pixel squares clipped
 * against the pieces). The editor's mask view calls
 * these; no GTK. */

/* Moves vertex `vertex` of piece `piece` to (x, y) (frame pixels); false
 * (nothing moved) when the piece would stop being convex. */
bool tess_mask_shape_move_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t vertex, float x, float y);
/* Inserts (x, y) after vertex `after` of piece `piece`; false when the piece
 * already has TESS_POLY_MAX vertices. */
bool tess_mask_shape_insert_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t after, float x, float y);
/* Removes a vertex; false when the piece would keep fewer than 3. */
bool tess_mask_shape_remove_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t vertex);

/* Recomputes shape_area/centroid/inertia, added_area and uncovered_area from
 * the pieces (or the circle in circle mode), with `frame` the sprite's first
 * frame and mask->threshold. Sets manual = 1. */
void tess_mask_shape_update(TessSpriteMask *mask, TessImageView frame);

/* Nearest vertex to (x, y) within `radius` (frame pixels); false if none. */
bool tess_mask_shape_pick_vertex(const TessSpriteMask *mask, float x, float y, float radius, uint32_t *piece,
                                 uint32_t *vertex);
/* Nearest edge to (x, y) within `radius`: the edge from `vertex` to the next. */
bool tess_mask_shape_pick_edge(const TessSpriteMask *mask, float x, float y, float radius, uint32_t *piece,
                               uint32_t *vertex);

#ifdef __cplusplus
}
#endif
#endif
