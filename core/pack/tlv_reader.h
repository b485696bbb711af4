/* tlv_reader: the packed Tessera level (.tlv) reader.
 *
 * Drop this header and tlv_reader.c into a game. They depend on nothing but
 * the C standard library and compile as C99 and as C++. The format is
 * documented in FORMAT.md (every field, its type, alignment and meaning).
 *
 *   TlvLevel lv;
 *   TlvError err;
 *   if (tlv_open(bytes, size, 0, &lv, &err) != TLV_OK)
 *     fprintf(stderr, "level.tlv: byte %llu: %s\n", (unsigned long long)err.offset, err.message);
 *
 * tlv_open() validates the header, the checksums (unless TLV_OPEN_SKIP_CHECKSUMS)
 * and every rule FORMAT.md states (offsets, counts, indices, reserved fields,
 * UTF-8 strings, convex polygons and their winding, collision pieces against
 * their tile's flips, loop corners, ...; FORMAT.md "What the reader checks"
 * names the two it leaves to the writer) before it returns; after that every
 * accessor below is safe for any index below the matching count, and every
 * index a record holds (a material, a polygon, a body...) is known to be in
 * range. Nothing is copied or allocated: TlvLevel holds views into the
 * caller's buffer, which must stay alive and unchanged while it is used.
 * Bulk data (cells, vertices) is little-endian; the accessors decode it on
 * any host. On a little-endian host with a 16-byte aligned buffer (mmap,
 * malloc) a game may also read the cell arrays in place (TlvLayer.cells). */
#ifndef TLV_READER_H
#define TLV_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Format constants (FORMAT.md) -------------------------------------- */

#define TLV_MAGIC "\x89TLV\r\n\x1a\n"
#define TLV_MAGIC_SIZE 8
#define TLV_VERSION_MAJOR 3u
#define TLV_VERSION_MINOR 9u
#define TLV_HEADER_SIZE 64u
#define TLV_SECTION_ENTRY_SIZE 32u
#define TLV_ALIGN 16u

/* Limits the reader enforces before any arithmetic (stb_image's habit). */
#define TLV_MAX_SECTIONS 64u
#define TLV_MAX_SIDE 16384u         /* cells per level side */
#define TLV_MAX_RECORDS 0x10000000u /* records (or cells) in one section: 16384 x 16384 */
#define TLV_MAX_POLY_VERTICES 8u    /* a convex piece */
#define TLV_MAX_PIECES 4096u        /* convex pieces of one tile or one collision entry */

/* Header flags. */
#define TLV_FLAG_IMAGES 0x1u /* PNG bytes of tilesets and sprites are embedded (BLOB) */
#define TLV_FLAGS_KNOWN 0x1u

/* Section flags. */
#define TLV_SECTION_REQUIRED 0x1u /* a reader that does not know the type must refuse the file */

/* Section types: four ASCII characters, read as a little-endian u32. */
#define TLV_FOURCC(a, b, c, d) \
  ((uint32_t)(uint8_t)(a) | ((uint32_t)(uint8_t)(b) << 8) | ((uint32_t)(uint8_t)(c) << 16) | ((uint32_t)(uint8_t)(d) << 24))
#define TLV_SEC_SETTINGS TLV_FOURCC('S', 'E', 'T', 'T')
#define TLV_SEC_STRINGS TLV_FOURCC('S', 'T', 'R', 'S')
#define TLV_SEC_MATERIALS TLV_FOURCC('M', 'A', 'T', 'L')
#define TLV_SEC_TILESETS TLV_FOURCC('T', 'S', 'E', 'T')
#define TLV_SEC_TILES TLV_FOURCC('T', 'I', 'L', 'E')
#define TLV_SEC_POLYGONS TLV_FOURCC('P', 'O', 'L', 'Y')
#define TLV_SEC_VERTICES TLV_FOURCC('V', 'E', 'R', 'T')
#define TLV_SEC_LAYERS TLV_FOURCC('L', 'A', 'Y', 'R')
#define TLV_SEC_PALETTE TLV_FOURCC('P', 'A', 'L', 'T')
#define TLV_SEC_CELLS TLV_FOURCC('C', 'E', 'L', 'L')
#define TLV_SEC_COLLISION_PALETTE TLV_FOURCC('C', 'P', 'A', 'L')
#define TLV_SEC_COLLISION_GRID TLV_FOURCC('C', 'G', 'R', 'D')
#define TLV_SEC_LOOPS TLV_FOURCC('L', 'O', 'O', 'P')
#define TLV_SEC_CORNERS TLV_FOURCC('C', 'R', 'N', 'R')
#define TLV_SEC_RECTS TLV_FOURCC('R', 'E', 'C', 'T')
#define TLV_SEC_BODIES TLV_FOURCC('B', 'O', 'D', 'Y')
#define TLV_SEC_SHAPES TLV_FOURCC('S', 'H', 'A', 'P')
#define TLV_SEC_JOINTS TLV_FOURCC('J', 'O', 'I', 'N')
#define TLV_SEC_ZONES TLV_FOURCC('Z', 'O', 'N', 'E')
#define TLV_SEC_SPAWNS TLV_FOURCC('S', 'P', 'W', 'N')
#define TLV_SEC_SPRITES TLV_FOURCC('S', 'P', 'R', 'T')
#define TLV_SEC_PROPERTIES TLV_FOURCC('P', 'R', 'O', 'P')
#define TLV_SEC_BLOB TLV_FOURCC('B', 'L', 'O', 'B')
#define TLV_SEC_TERRAIN_SETS TLV_FOURCC('T', 'E', 'R', 'S')   /* 3.3 */
#define TLV_SEC_TERRAIN_COLORS TLV_FOURCC('T', 'E', 'R', 'C') /* 3.3 */
#define TLV_SEC_TERRAIN_TILES TLV_FOURCC('T', 'E', 'R', 'T')  /* 3.3 */
#define TLV_SEC_DRAW_ORDER TLV_FOURCC('D', 'R', 'A', 'W')     /* 3.5 */
#define TLV_SEC_PIXEL_MASKS TLV_FOURCC('P', 'M', 'S', 'K')    /* 3.6 */
#define TLV_SEC_PIXEL_BITS TLV_FOURCC('P', 'B', 'I', 'T')     /* 3.6 */
#define TLV_SEC_LAUNCHERS TLV_FOURCC('L', 'N', 'C', 'H')      /* 3.8 */

/* Record sizes of format 3.0 (a newer minor version may write longer
 * records; the reader uses the stride from the section table). */
#define TLV_SETTINGS_SIZE 64u
#define TLV_MATERIAL_SIZE 32u
#define TLV_TILESET_SIZE 64u
#define TLV_TILESET_SIZE_3_4 72u /* 3.4 appends the tile offset (x, y) */
#define TLV_TILE_SIZE 16u
#define TLV_POLYGON_SIZE 8u
#define TLV_VERTEX_SIZE 8u
#define TLV_LAYER_SIZE 48u
#define TLV_PALETTE_SIZE 4u
#define TLV_COLLISION_PALETTE_SIZE 24u
#define TLV_LOOP_SIZE 8u
#define TLV_CORNER_SIZE 4u
#define TLV_RECT_SIZE 8u
#define TLV_BODY_SIZE 80u
#define TLV_SHAPE_SIZE 32u
#define TLV_JOINT_SIZE 64u
#define TLV_JOINT_SIZE_3_1 80u /* 3.1 appends the pin motor (speed, torque) */
#define TLV_ZONE_SIZE 64u
#define TLV_SPAWN_SIZE 32u
#define TLV_SPRITE_SIZE 48u
#define TLV_PROPERTY_SIZE 24u
#define TLV_TERRAIN_SET_SIZE 32u       /* 3.3 */
#define TLV_TERRAIN_COLOR_SIZE 16u     /* 3.3 */
#define TLV_TERRAIN_TILE_SIZE 16u      /* 3.3 */
#define TLV_DRAW_ORDER_SIZE 8u         /* 3.5 */
#define TLV_PIXEL_MASK_SIZE 48u        /* 3.6 */
#define TLV_PIXEL_MASK_MAX_SIDE 65536u /* pixels per mask side */
#define TLV_LAUNCHER_SIZE 48u          /* 3.8 */

/* ---- Results and errors ------------------------------------------------- */

typedef enum TlvResult {
  TLV_OK = 0,
  TLV_ERR_ARGUMENT,  /* NULL buffer or output */
  TLV_ERR_TRUNCATED, /* fewer bytes than the header or the table promise */
  TLV_ERR_MAGIC,     /* not a packed Tessera level */
  TLV_ERR_VERSION,   /* a newer major version, or a required section this reader does not know */
  TLV_ERR_CHECKSUM,  /* bytes changed since they were written */
  TLV_ERR_RANGE,     /* an offset or size outside the file or its section */
  TLV_ERR_INDEX,     /* an index to a record that does not exist */
  TLV_ERR_VALUE,     /* a field with a value the format does not allow */
  TLV_ERR_LIMIT      /* a size or count beyond the reader's limits */
} TlvResult;

/* Filled on failure: the code, the byte offset in the file where the bad
 * value sits, and an English message naming the field. */
typedef struct TlvError {
  TlvResult code;
  uint64_t offset;
  char message[200];
} TlvError;

const char *tlv_result_string(TlvResult code);

/* ---- The loaded level: views into the caller's buffer ------------------- */

/* One section (or an empty one when absent). */
typedef struct TlvSection {
  const uint8_t *data;
  uint64_t offset; /* in the file */
  uint64_t size;
  uint32_t count;  /* records */
  uint32_t stride; /* bytes per record, 0 for byte blobs */
} TlvSection;

typedef struct TlvSettings {
  uint32_t width, height;  /* cells */
  uint32_t tile_w, tile_h; /* pixels */
  float ppm;               /* pixels per metre */
  float gravity_x, gravity_y;
  uint32_t view; /* 0 side, 1 top-down */
  float physics_hz;
  uint32_t substeps;
  float floor_drag;
  uint32_t name; /* string */
  uint32_t level_id;
  float cell_w, cell_h; /* metres: tile size / ppm as the scene computes it */
} TlvSettings;

typedef struct TlvHeader {
  uint16_t major, minor;
  uint32_t flags;
  uint32_t header_size;
  uint32_t section_count;
  uint64_t total_size;
  uint64_t content_hash; /* everything the file depends on, incl. format and writer version */
  uint64_t source_hash;  /* the level and its materials, tilesets, sprites */
  uint32_t writer_version;
  uint32_t checksum;
  uint32_t level_id;
} TlvHeader;

typedef struct TlvLevel {
  const uint8_t *base;
  uint64_t size;
  TlvHeader header;
  TlvSettings settings;
  TlvSection strings, materials, tilesets, tiles, polygons, vertices, layers, palette, cells;
  TlvSection collision_palette, collision_grid, loops, corners, rects;
  TlvSection bodies, shapes, joints, zones, spawns, sprites, properties, blob;
  TlvSection terrain_sets, terrain_colors, terrain_tiles; /* 3.3, optional: empty when absent */
  TlvSection pixel_masks, pixel_bits;                     /* 3.6, required when present */
  TlvSection launchers;                                   /* 3.8, optional: empty when absent */
  uint32_t unknown_sections;                              /* optional sections skipped */
  /* The material layer's cells (1-based material overrides, 0 none), NULL
   * when the level has none: collision entries flagged
   * TLV_COLLISION_OVERRIDE take a cell's material from here. */
  const void *material_cells;
  uint32_t material_cell_width; /* bytes per cell: 1, 2 or 4 */
  TlvSection draw_order;        /* 3.5, optional: empty when absent (every body depth 0, body order) */
} TlvLevel;

/* Options for tlv_open. */
#define TLV_OPEN_SKIP_CHECKSUMS 0x1u /* structure checks only (fuzzing, trusted data) */

TlvResult tlv_open(const void *data, size_t size, uint32_t options, TlvLevel *out, TlvError *err);
/* Reads only the header (no validation beyond magic, version and sizes):
 * enough for an exporter to compare content hashes. */
TlvResult tlv_read_header(const void *data, size_t size, TlvHeader *out, TlvError *err);

/* The format's checksum: a fast word-wise hash (4 lanes of 64-bit
 * multiply-add over little-endian words). Writers use it too. */
uint32_t tlv_checksum(const void *data, size_t size);

/* ---- Records ------------------------------------------------------------- */

/* Strings are offsets into the string table; 0 is "". Always NUL-terminated UTF-8. */
const char *tlv_string(const TlvLevel *lv, uint32_t ref);

/* Material index references are 1-based (0 = none). */
typedef struct TlvMaterial {
  uint32_t id, name;
  uint32_t color; /* 0xRRGGBBAA */
  uint32_t kind;  /* 0 solid, 1 floor, 2 fluid */
  float friction, restitution, tangential, density;
} TlvMaterial;

typedef struct TlvTileset {
  uint32_t id, name, source;
  uint32_t image_w, image_h, tile_w, tile_h, margin, spacing, columns, tile_count;
  uint32_t tile_first; /* first of tile_count TILE records */
  uint32_t alpha_threshold;
  uint32_t image_offset, image_size; /* PNG bytes in the BLOB section; size 0 = not embedded */
  /* Where a cell draws its tile (FORMAT.md, TSET "Placement"): */
  uint32_t placement;         /* TLV_PLACE_FIT_CELL (every file before 3.4) or TLV_PLACE_NATIVE */
  int32_t offset_x, offset_y; /* pixels added to the native placement (3.4; 0 otherwise) */
} TlvTileset;

#define TLV_PLACE_FIT_CELL 0u /* the tile is scaled into its cell */
#define TLV_PLACE_NATIVE 1u   /* its own size, bottom-left on the cell's bottom-left, moved by the offset */
#define TLV_TILE_OFFSET_MAX 65535

typedef struct TlvTile {
  uint32_t material; /* 1-based material index, 0 = none */
  uint8_t collision; /* 0 none, 1 full square, 2 traced */
  uint8_t one_way;
  uint32_t polygon_first, polygon_count; /* traced pieces, tile pixels */
} TlvTile;

typedef struct TlvPolygon {
  uint32_t vertex_first, vertex_count;
} TlvPolygon;

typedef struct TlvVec2 {
  float x, y;
} TlvVec2;

#define TLV_LAYER_TILES 0u
#define TLV_LAYER_MATERIAL 1u
#define TLV_LAYER_VISIBLE 0x1u
#define TLV_LAYER_LOCKED 0x2u
#define TLV_LAYER_COLLIDES 0x4u
#define TLV_LAYER_PIXELS 0x8u /* 3.6: the layer collides by pixels (its PMSK mask), not by cells */

typedef struct TlvLayer {
  uint32_t id, name, kind, flags;
  float opacity;
  uint32_t cell_width;                   /* bytes per cell: 1, 2 or 4 */
  uint32_t palette_first, palette_count; /* tile layers: cell values are palette indices */
  uint32_t order;                        /* position among all the level's layers, bottom = 0 */
  const void *cells;                     /* width * height cells, row-major, little-endian */
} TlvLayer;

/* Collision entry flags. */
#define TLV_COLLISION_OVERRIDE 0x1u /* a cell's non-zero material layer value is its material */
#define TLV_COLLISION_FLAGS_KNOWN 0x1u

typedef struct TlvCollisionEntry {
  uint32_t cell;     /* the colliding tile with its flip bits, 0 = none */
  uint32_t material; /* 1-based, 0 = none. tlv_collision_cell: the cell's effective material (the
                      * material layer's override where the entry has TLV_COLLISION_OVERRIDE and the
                      * layer holds one); tlv_collision_entry: the entry's own */
  uint8_t kind;      /* 0 none, 1 full square, 2 traced */
  uint8_t one_way;
  uint8_t flags;                         /* TLV_COLLISION_* */
  uint32_t polygon_first, polygon_count; /* traced: the cell's pieces in POLY, metres from the cell's
                                          * top-left corner, flips applied */
} TlvCollisionEntry;

/* A closed outline of solid cells: corners[corner_first .. +corner_count);
 * edge i runs from corner i to corner i+1 (mod count). */
typedef struct TlvLoop {
  uint32_t corner_first, corner_count;
} TlvLoop;

/* A loop corner on the cell-corner lattice (x <= width, y <= height): in
 * metres (x * cell_w, y * cell_h), in pixels (x * tile_w, y * tile_h). */
#define TLV_EDGE_EAST 0u
#define TLV_EDGE_SOUTH 1u
#define TLV_EDGE_WEST 2u
#define TLV_EDGE_NORTH 3u
typedef struct TlvCorner {
  uint32_t x, y;
  uint32_t dir;      /* of the edge from this corner to the next: TLV_EDGE_* (screen, y down) */
  uint32_t material; /* of that edge (1-based, 0 none): the collision grid's at the solid cell on
                      * the edge's right, which the accessor looks up (the file stores it once) */
} TlvCorner;

typedef struct TlvRect {
  uint32_t x, y, w, h; /* cells */
  uint32_t material;   /* 1-based, 0 none: the collision grid's at (x, y), looked up by the accessor */
} TlvRect;

typedef struct TlvBody {
  uint32_t object_id, name;
  uint8_t type; /* 0 static, 1 kinematic, 2 dynamic */
  uint8_t sensor;
  uint8_t source;     /* 0 circle, 1 box, 2 capsule, 3 sprite (how it was made) */
  uint8_t pin;        /* 0 none, 1 at smaller centroid, 2 at overlap centre */
  uint8_t has_mass;   /* 1: the mass properties come from the sprite's pixels and are used as they are;
                       * 0: a physics engine computes them from the shapes (the values below are
                       *    that computation, for information) */
  uint8_t integrator; /* 3.7: 0 semi-implicit Euler, 1 RK4 (TLV_INTEGRATOR_*); 0 in older files */
  uint32_t material;  /* 1-based */
  uint32_t sprite;    /* 1-based sprite index, 0 = none */
  uint32_t category, mask;
  float x, y, angle; /* metres, radians */
  uint32_t shape_first, shape_count;
  float mass, centroid_x, centroid_y, inertia; /* kg, local metres, kg m^2 about the centroid */
  uint32_t prop_first, prop_count;
} TlvBody;

#define TLV_INTEGRATOR_EULER 0u
#define TLV_INTEGRATOR_RK4 1u /* 3.7 */

#define TLV_SHAPE_CIRCLE 0u
#define TLV_SHAPE_CAPSULE 1u
#define TLV_SHAPE_POLYGON 2u

typedef struct TlvShape {
  uint32_t kind;
  float ax, ay, bx, by; /* circle centre (a); capsule segment (a, b); body-local metres */
  float radius;
  uint32_t polygon; /* TLV_SHAPE_POLYGON: polygon index (vertices in body-local metres) */
} TlvShape;

#define TLV_JOINT_PIN 0u
#define TLV_JOINT_DISTANCE 1u
#define TLV_JOINT_LIMIT 0x1u
#define TLV_JOINT_AUTO_PIN 0x2u
#define TLV_JOINT_MOTOR 0x4u /* 3.1: a pin's motor is on */

typedef struct TlvJoint {
  uint32_t object_id, name, kind, flags;
  uint32_t body_a, body_b; /* 1-based body index, 0 = the world */
  float ax, ay, bx, by;    /* world metres: pin point (a), distance anchors (a, b) */
  float length, lower, upper;
  uint32_t prop_first, prop_count;
  float motor_speed;  /* pin motor target, rad/s (body b relative to a; y down); 0 in 3.0 files */
  float motor_torque; /* pin motor's maximum torque, N m, >= 0; 0 in 3.0 files */
} TlvJoint;

typedef struct TlvZone {
  uint32_t object_id, name, kind;   /* 0 force, 1 acceleration, 2 attractor, 3 spring (3.7) */
  float x, y, angle, width, height; /* metres */
  float vx, vy, strength, radius;
  uint32_t prop_first, prop_count;
} TlvZone;

typedef struct TlvSpawn {
  uint32_t object_id, name;
  float x, y, angle; /* metres */
  uint32_t prop_first, prop_count;
} TlvSpawn;

/* A launcher (3.6): where the level's projectiles are fired from. */
typedef struct TlvLauncher {
  uint32_t object_id, name;
  float x, y, angle; /* metres */
  float speed;       /* m/s, 0 = any speed (the slowest shot that reaches the target) */
  float radius;      /* projectile ball radius, metres (> 0) */
  uint32_t material; /* index as a body's: 0 = the default, else MATL index + 1 */
  uint32_t sprite;   /* sprite id (SPRT), 0 = a ball */
  uint32_t prop_first, prop_count;
} TlvLauncher;

typedef struct TlvSprite {
  uint32_t id, name, source;
  uint32_t image_w, image_h, frame_count;
  float frame_rate, anchor_x, anchor_y; /* pixels */
  uint32_t image_offset, image_size;
} TlvSprite;

/* Terrain sets (3.3): Tiled's Wang sets, for a game that repaints at run
 * time. Colours and labels in Tiled's wangid order (0 top edge, 1 top-right
 * corner, 2 right edge, ... 7 top-left corner); colour 0 = none. */
#define TLV_TERRAIN_CORNER 0u
#define TLV_TERRAIN_EDGE 1u
#define TLV_TERRAIN_MIXED 2u
typedef struct TlvTerrainSet {
  uint32_t tileset; /* 1-based into TSET */
  uint32_t name, kind;
  int32_t tile;                      /* icon tile of the tileset, -1 none */
  uint32_t color_first, color_count; /* into TERC; colour k of the set is TERC[color_first + k - 1] */
  uint32_t tile_first, tile_count;   /* into TERT, tile indices ascending */
} TlvTerrainSet;
typedef struct TlvTerrainColor {
  uint32_t name, color; /* 0xRRGGBBAA */
  float probability;    /* >= 0 */
  int32_t tile;         /* -1 none */
} TlvTerrainColor;
typedef struct TlvTerrainTile {
  uint32_t tile;     /* index in the set's tileset */
  uint8_t wang[8];   /* colour per position, <= the set's color_count; 0 where the kind does not look */
  float probability; /* >= 0 */
} TlvTerrainTile;

#define TLV_PROP_STRING 0u
#define TLV_PROP_INT 1u
#define TLV_PROP_FLOAT 2u
#define TLV_PROP_BOOL 3u
#define TLV_PROP_COLOR 4u

typedef struct TlvProperty {
  uint32_t name, type;
  int64_t i; /* INT, BOOL (0/1), COLOR; STRING: the string ref */
  double f;  /* FLOAT */
} TlvProperty;

/* Each fills *out for an index below the section's count and returns 1,
 * or returns 0 for an index out of range (out untouched). */
int tlv_settings(const TlvLevel *lv, TlvSettings *out);
int tlv_material(const TlvLevel *lv, uint32_t index, TlvMaterial *out);
int tlv_tileset(const TlvLevel *lv, uint32_t index, TlvTileset *out);
int tlv_tile(const TlvLevel *lv, uint32_t index, TlvTile *out);
int tlv_polygon(const TlvLevel *lv, uint32_t index, TlvPolygon *out);
int tlv_vertex(const TlvLevel *lv, uint32_t index, TlvVec2 *out);
int tlv_layer(const TlvLevel *lv, uint32_t index, TlvLayer *out);
int tlv_collision_entry(const TlvLevel *lv, uint32_t index, TlvCollisionEntry *out);
int tlv_loop(const TlvLevel *lv, uint32_t index, TlvLoop *out);
int tlv_corner(const TlvLevel *lv, uint32_t index, TlvCorner *out);
int tlv_rect(const TlvLevel *lv, uint32_t index, TlvRect *out);
int tlv_body(const TlvLevel *lv, uint32_t index, TlvBody *out);
int tlv_shape(const TlvLevel *lv, uint32_t index, TlvShape *out);
int tlv_joint(const TlvLevel *lv, uint32_t index, TlvJoint *out);
int tlv_zone(const TlvLevel *lv, uint32_t index, TlvZone *out);
int tlv_spawn(const TlvLevel *lv, uint32_t index, TlvSpawn *out);
int tlv_sprite(const TlvLevel *lv, uint32_t index, TlvSprite *out);
int tlv_launcher(const TlvLevel *lv, uint32_t index, TlvLauncher *out);
int tlv_property(const TlvLevel *lv, uint32_t index, TlvProperty *out);
int tlv_terrain_set(const TlvLevel *lv, uint32_t index, TlvTerrainSet *out);
int tlv_terrain_color(const TlvLevel *lv, uint32_t index, TlvTerrainColor *out);
int tlv_terrain_tile(const TlvLevel *lv, uint32_t index, TlvTerrainTile *out);

/* Draw order (3.5): how body `index` is drawn among the others (tessera/
 * play.h's tess_depth_key(layer, depth), then y where y_sort, then body
 * index). Files without the DRAW section give depth 0, layer 0, no y sort
 * for every body (they draw in body order). 0 for an index past the bodies. */
typedef struct TlvBodyDraw {
  int32_t depth;  /* -32768..32767 */
  uint32_t layer; /* the object layer's rank among the level's object layers, 0..32767 */
  uint8_t y_sort; /* 1: its layer sorts by y */
} TlvBodyDraw;
int tlv_body_draw(const TlvLevel *lv, uint32_t index, TlvBodyDraw *out);
/* Pixel masks (3.6): a tile layer that collides by pixels, one bit per level pixel, or (3.9) a
 * static body that collides by its sprite's pixels (FORMAT.md,
 * PMSK and PBIT). `bits` views (width + 7) / 8 * height bytes, row 0 first, pixel x in bit
 * (x & 7) of byte x >> 3; bits past the width are 0. */
typedef struct TlvPixelMask {
  uint32_t layer_id;      /* the LAYR layer (flag TLV_LAYER_PIXELS) it belongs to; 0 for a body's */
  uint32_t body;          /* 3.9: 1-based BODY index of the static body it belongs to (origin in the body's frame,
                             turned with it); 0 for a layer's */
  uint32_t width, height; /* pixels */
  uint32_t material;      /* 1-based MATL index, 0 = none (the default surface) */
  float pixel_size;       /* metres */
  float origin_x, origin_y;
  const uint8_t *bits;
  uint64_t bits_size;
} TlvPixelMask;
int tlv_pixel_mask(const TlvLevel *lv, uint32_t index, TlvPixelMask *out);

/* Cells. x < width and y < height, else 0.
 * tlv_layer_cell: a tile layer's cell as Tessera defines it (flip bits
 * 31-29, tileset id 27-16, tile index 15-0; 0 empty); a material layer's
 * 1-based material index. */
uint32_t tlv_layer_cell(const TlvLevel *lv, const TlvLayer *layer, uint32_t x, uint32_t y);
/* The resolved collision of a cell (what collides, with which material):
 * the grid's entry, its material replaced by the material layer's value at
 * the cell when the entry has TLV_COLLISION_OVERRIDE and that value is not
 * 0. Two or three loads, no search. */
int tlv_collision_cell(const TlvLevel *lv, uint32_t x, uint32_t y, TlvCollisionEntry *out);
/* The tile a cell value refers to (its TILE index), or -1 when empty. */
int64_t tlv_cell_tile_index(const TlvLevel *lv, uint32_t cell);

/* PNG bytes embedded for a tileset or sprite (NULL when not embedded). */
const uint8_t *tlv_blob(const TlvLevel *lv, uint32_t offset, uint32_t size);

/* Section by type (the table's view), or NULL. For tools (`info`). */
typedef struct TlvSectionInfo {
  uint32_t type, flags, count, stride, checksum;
  uint64_t offset, size;
} TlvSectionInfo;
int tlv_section_info(const TlvLevel *lv, uint32_t index, TlvSectionInfo *out);

#ifdef __cplusplus
}
#endif
#endif
