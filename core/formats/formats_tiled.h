/* The Tiled map as its files say it, shared by the TMX (expat) and TMJ
 * (jansson) readers: they parse into this model, and tiled_convert.c alone
 * decides what becomes of it in Tessera. Group layers are flattened while
 * parsing (names prefixed "group/", opacity multiplied, offsets added,
 * visibility and lock combined), so the model's layers are leaves.
 * Private to core/formats. */
#ifndef TESS_FORMATS_TILED_H
#define TESS_FORMATS_TILED_H

#include "tessera/formats.h"

#define TILED_FLIP_H 0x80000000u
#define TILED_FLIP_V 0x40000000u
#define TILED_FLIP_D 0x20000000u
#define TILED_ROT_HEX 0x10000000u
#define TILED_GID_MASK 0x0FFFFFFFu

typedef struct TiledProp {
  char *name;
  char *type;  /* string, int, float, bool, color, file, object (class members come flattened "a.b") */
  char *value; /* as text: ints and floats in C syntax, bools "true"/"false", colours "#AARRGGBB" */
} TiledProp;

typedef struct TiledProps {
  TiledProp *items;
  uint32_t count;
} TiledProps;

typedef enum TiledShape {
  TILED_RECT = 0,
  TILED_ELLIPSE,
  TILED_POINT,
  TILED_POLYGON,
  TILED_POLYLINE,
  TILED_TEXT,
} TiledShape;

typedef struct TiledObject {
  uint32_t id;
  char *name;
  char *cls;                   /* Tiled's class (TMX `type` before 1.9) */
  double x, y, w, h, rotation; /* rotation in degrees, clockwise */
  uint32_t gid;                /* tile object, with flip bits; 0 otherwise */
  bool visible;
  uint8_t shape; /* TiledShape */
  uint32_t point_count;
  TessDVec2 *points; /* polygon, polyline: relative to (x, y) */
  TiledProps props;
} TiledObject;

typedef struct TiledObjects {
  TiledObject *items;
  uint32_t count;
} TiledObjects;

typedef struct TiledTile {
  uint32_t id;
  char *cls;
  TiledObjects shapes; /* the tile's objectgroup: its collision */
  TiledProps props;
  char *image;          /* image-collection tilesets: as written */
  bool has_probability; /* Tiled's per-tile probability (terrain variants) */
  double probability;
} TiledTile;

/* Wang sets (tiled_wang.c): as the file says them; converted into terrain sets. */
typedef struct TiledWangColor {
  char *name;
  char *color;        /* as written, parsed when converted */
  double probability; /* default 1 */
  int32_t tile;       /* -1 none */
} TiledWangColor;

typedef struct TiledWangTile {
  uint32_t tileid;
  uint8_t wangid[8];
} TiledWangTile;

typedef struct TiledWangSet {
  char *name;
  char *type;    /* corner, edge, mixed */
  int32_t tile;  /* -1 none */
  uint64_t line; /* TMX: where it starts (0 in JSON) */
  uint32_t color_count, tile_count;
  TiledWangColor *colors;
  TiledWangTile *tiles;
} TiledWangSet;

typedef struct TiledTileset {
  uint32_t firstgid;
  char *name;
  char *source; /* external tileset as written (NULL when embedded) */
  char *source_resolved;
  uint32_t tile_w, tile_h, spacing, margin, tilecount, columns;
  int32_t offset_x, offset_y;
  bool fit_grid;             /* tilerendersize="grid" (Tiled 1.9+): tiles scaled into the map's cells */
  char *image;               /* as written */
  char *image_resolved;      /* relative to the tileset file's folder */
  uint32_t image_w, image_h; /* as declared (0 = unknown) */
  bool has_trans;
  uint32_t trans; /* 0xRRGGBB */
  uint32_t tile_count_listed;
  TiledTile *tiles;
  TiledProps props;
  char *objectalignment;
  /* Image collections, packed into an atlas by the converter: tile id -> atlas index (UINT32_MAX = no such tile). */
  uint32_t *atlas_index;
  uint32_t atlas_ids;   /* entries of atlas_index (largest tile id + 1) */
  uint32_t *atlas_size; /* per atlas index: the image's width << 16 | height (at its cell's bottom-left) */
  uint32_t wangset_count;
  TiledWangSet *wangsets;
} TiledTileset;

typedef enum TiledLayerKind { TILED_TILES = 0,
                              TILED_OBJECTS,
                              TILED_IMAGE } TiledLayerKind;

typedef struct TiledChunk {
  int32_t x, y;
  uint32_t w, h;
  uint32_t *gids; /* w x h */
} TiledChunk;

typedef struct TiledLayer {
  uint8_t kind; /* TiledLayerKind */
  uint32_t id;  /* Tiled's layer id (0 when the file has none) */
  char *name;   /* with group prefixes */
  double opacity;
  bool visible, locked;
  double offset_x, offset_y; /* pixels, groups' included */
  double parallax_x, parallax_y;
  bool has_tint;
  bool topdown; /* object groups: draworder="topdown" (sorted by y) */
  uint32_t width, height;
  uint32_t *gids; /* finite tile layers: width x height */
  uint32_t chunk_count;
  TiledChunk *chunks; /* infinite tile layers */
  TiledObjects objects;
  TiledProps props;
} TiledLayer;

typedef struct TiledMap {
  char *path; /* as given */
  char *dir;  /* its folder, for relative paths */
  char *orientation;
  char *renderorder;
  uint32_t width, height, tile_w, tile_h;
  bool infinite;
  int32_t hexsidelength;
  uint32_t tileset_count;
  TiledTileset *tilesets;
  uint32_t layer_count;
  TiledLayer *layers;
  TiledProps props;
  TessMapImport *plan; /* parse warnings go straight into the plan being built */
} TiledMap;

/* ---- tiled_model.c ---- */
TiledMap *tiled_map_new(const char *path, TessMapImport *plan);
void tiled_map_free(TiledMap *m);
void tiled_props_free(TiledProps *p);
void tiled_objects_free(TiledObjects *o);
void tiled_tileset_free(TiledTileset *ts);
TiledProp *tiled_props_add(TiledProps *p, const char *name, const char *type, const char *value);
TiledObject *tiled_objects_add(TiledObjects *o);
TiledLayer *tiled_map_add_layer(TiledMap *m);
TiledTileset *tiled_map_add_tileset(TiledMap *m);
TiledTile *tiled_tileset_tile(TiledTileset *ts, uint32_t id, bool create);
/* `rel` resolved against `dir` (absolute paths kept); owned. */
char *tiled_path_join(const char *dir, const char *rel);
char *tiled_path_dir(const char *path);
/* Strict number parsing: the whole string, finite, within range. */
bool tiled_parse_double(const char *s, double *out);
bool tiled_parse_u32(const char *s, uint32_t max, uint32_t *out);
bool tiled_parse_i32(const char *s, int32_t *out);
/* "#RRGGBB", "#AARRGGBB", "RRGGBB" into 0xAARRGGBB (alpha 255 when absent). */
bool tiled_parse_color(const char *s, uint32_t *argb);

/* ---- tiled_data.c: layer data ---- */
typedef enum TiledEncoding { TILED_ENC_XML = 0,
                             TILED_ENC_CSV,
                             TILED_ENC_BASE64 } TiledEncoding;
typedef enum TiledCompression { TILED_COMP_NONE = 0,
                                TILED_COMP_ZLIB,
                                TILED_COMP_GZIP,
                                TILED_COMP_ZSTD } TiledCompression;
/* Decodes `text` into exactly `count` gids (out must hold count). `what`
 * names the layer for messages, `file` and `line` place them. */
TessResult tiled_decode_data(const char *text, size_t len, int encoding, int compression, uint32_t *out,
                             size_t count, const char *file, uint64_t line, const char *what, TessError *err);
bool tiled_encoding_parse(const char *s, int *out);
bool tiled_compression_parse(const char *s, int *out);

/* ---- tiled_tmx.c / tiled_tmj.c ---- */
TessResult tiled_tmx_parse(TiledMap *m, const uint8_t *data, size_t size, const TessMapReadOptions *opt, TessError *err);
TessResult tiled_tmj_parse(TiledMap *m, const uint8_t *data, size_t size, const TessMapReadOptions *opt, TessError *err);
/* External tilesets (.tsx, .tsj): fills ts (firstgid and source kept) from its file. */
TessResult tiled_tsx_load(TiledMap *m, TiledTileset *ts, TessError *err);
TessResult tiled_tsj_load(TiledMap *m, TiledTileset *ts, TessError *err);
TessResult tiled_tileset_load_external(TiledMap *m, TiledTileset *ts, TessError *err);

/* ---- tiled_wang.c: wang sets ---- */
TiledWangSet *tiled_wangset_add(TiledTileset *ts);        /* NULL: out of memory or 255 sets already */
TiledWangColor *tiled_wangset_add_color(TiledWangSet *w); /* probability 1, tile -1 */
TiledWangTile *tiled_wangset_add_tile(TiledWangSet *w);
void tiled_wangsets_free(TiledTileset *ts);
/* "c0,c1,...,c7" (Tiled 1.5+) or "0xHHHHHHHH" (4 bits per position, before 1.5). */
bool tiled_wangid_parse(const char *s, uint8_t out[8]);
/* A Tiled tile id as the plan's tile index (image collections go through the atlas). */
bool tiled_tile_index(const TiledTileset *ts, uint32_t id, uint32_t tile_count, uint32_t *index);
/* The tileset's wang sets as terrain sets on `out` (whose tiles are made). */
TessResult tiled_wang_convert(TessMapImport *plan, const TiledTileset *ts, TessImportTileset *out, const char *file,
                              TessError *err);

/* ---- tiled_convert.c: the model into a Tessera plan ---- */
TessResult tiled_convert(TiledMap *m, TessMapImport *plan, const TessMapReadOptions *opt, TessError *err);

/* ---- tiled_objects.c: objects, properties, materials, tile collision ---- */
/* Typed properties onto a Tessera object (name clashes: the later wins). */
TessResult tiled_props_to_object(TessMapImport *plan, const TiledProps *props, TessObject *obj, const char *owner,
                                 TessError *err);
/* A property named `material` (plus friction, restitution, tangential,
 * density, material_kind, material_color beside it) into a plan material;
 * *out = 1-based plan index, 0 when the properties name none. */
TessResult tiled_material_from_props(TessMapImport *plan, const TiledProps *props, const char *owner, TessId *out,
                                     TessError *err);
const TiledProp *tiled_prop(const TiledProps *props, const char *name);
/* One map object into a Tessera object; *keep false when it is refused (a warning says why). */
/* `sprite`: for a tile object, the plan sprite (1-based) made of its tile, 0 when it could not be made. */
TessResult tiled_object_convert(TessMapImport *plan, const TiledObject *ob, double dx, double dy, const char *layer,
                                TessId sprite, TessObject *out, bool *keep, TessError *err);
/* The tile's objectgroup into convex pieces in tile pixels. */
TessResult tiled_tile_shapes(TessMapImport *plan, const TiledTile *tile, const char *tileset, uint32_t tile_w,
                             uint32_t tile_h, TessTileInfo *info, TessError *err);
/* Copies a name into a Tessera name field, cutting at a UTF-8 boundary; warns when cut. */
void tiled_name_copy(TessMapImport *plan, char dst[TESS_NAME_MAX], const char *src, const char *what);

/* ---- tiled_tessera.c: Tessera's own vocabulary read back ---- */
typedef enum TiledTessRole { TILED_TESS_NONE = 0,
                             TILED_TESS_TILESET,
                             TILED_TESS_MATERIALS,
                             TILED_TESS_SPRITE } TiledTessRole;
TiledTessRole tiled_tessera_role(const TiledTileset *ts);
/* Map properties into the level's settings (and the level id to keep); warns about the rest. */
TessResult tiled_tessera_settings(TiledMap *m, TessLevelSettings *s, TessError *err);
/* The materials tileset's materials into the plan, before any other tileset is read. */
TessResult tiled_tessera_materials(TiledMap *m, TessError *err);
/* After the generic reading of a tileset: its role, ids and exact tile collision when Tessera wrote it. */
TessResult tiled_tessera_tileset(TiledMap *m, const TiledTileset *ts, TessImportTileset *out, TessError *err);
bool tiled_tessera_is_material_layer(const TiledLayer *l);
/* Cells of the materials tileset (already in plan numbering) into plan material numbers. */
TessResult tiled_tessera_material_layer(TiledMap *m, const TiledLayer *l, TessImportLayer *out, TessError *err);
/* Objects of type body, joint, zone (with a kind) and spawn points: Tessera's objects. */
bool tiled_tessera_object(const TiledObject *ob);
TessResult tiled_tessera_object_convert(TessMapImport *plan, const TiledObject *ob, double ox, double oy, TessId sprite,
                                        const char *owner, TessObject *out, TessError *err);
/* One typed property onto an object (object references become ints: tiled_resolve_refs remaps them). */
TessResult tiled_prop_to_object(TessMapImport *plan, const TiledProp *tp, TessObject *obj, const char *owner, TessError *err);
/* After every layer: object references (properties and joints) checked against the plan's objects; unknown ones warned and cleared. */
TessResult tiled_resolve_refs(TessMapImport *plan, TessError *err);
/* Lists the `object` properties of map object `ob`, imported as plan layer `layer`'s object `object`. */
TessResult tiled_note_refs(TessMapImport *plan, uint32_t layer, uint32_t object, const TiledObject *ob, TessError *err);

/* ---- tiled_polygons.c ---- */
/* A polygon object's plan sprite (its shape filled and traced into convex pieces, anchored at the polygon's
 * origin); *out = 0 when it is refused (a warning names it). */
TessResult tiled_polygon_sprite(TessMapImport *plan, const TiledObject *ob, const char *layer, TessId *out, TessError *err);

#endif
