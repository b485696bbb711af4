/* Private to core/formats: a level of a project said in Tiled's own
 * vocabulary (map, tilesets, layers, objects, typed properties), built once
 * by tiled_write_common.c and serialised by tiled_write_tmj.c (JSON through
 * jansson) and tiled_write_tmx.c (XML through our own escaping writer).
 * The mapping is documented in core/formats/README.md ("Tessera -> Tiled").
 *
 * Everything a model holds is either borrowed from the project (which
 * outlives it) or allocated in the model's string arena; tiled_write_map_clear frees
 * all of it. Numbers are doubles computed from the project's floats so that
 * printing them with round-trip precision and reading them back as floats
 * gives the project's values exactly. */
#ifndef TESS_FORMATS_TILED_WRITE_H
#define TESS_FORMATS_TILED_WRITE_H

#include "tessera/base.h"
#include "tessera/level.h"

/* Bumped whenever the written maps change for the same project: part of
 * the content hash each map carries, so an incremental export rewrites
 * maps made by an older writer. */
#define TW_WRITER_VERSION 1u
#define TW_TILED_VERSION "1.8.2"
#define TW_FORMAT_VERSION "1.8"
#define TW_DIR "tilesets" /* tileset files and their images, beside the maps */

typedef enum TwFlavor { TW_TMJ = 0,
                        TW_TMX = 1 } TwFlavor;

typedef enum TwPropType { TW_STRING,
                          TW_INT,
                          TW_FLOAT,
                          TW_BOOL,
                          TW_COLOR,
                          TW_OBJECT,
                          TW_FILE } TwPropType;

typedef struct TwProp {
  const char *name;
  uint8_t type;   /* TwPropType */
  const char *s;  /* STRING, FILE */
  int64_t i;      /* INT, OBJECT (an object id, 0 = none) */
  double f;       /* FLOAT */
  bool b;         /* BOOL */
  uint32_t color; /* COLOR, 0xRRGGBBAA */
} TwProp;

typedef struct TwProps {
  TwProp *v;
  size_t n, cap;
} TwProps;

typedef enum TwShape { TW_RECT,
                       TW_ELLIPSE,
                       TW_POINT,
                       TW_POLYGON,
                       TW_POLYLINE,
                       TW_TILE } TwShape;

typedef struct TwPoint {
  double x, y;
} TwPoint;

typedef struct TwObject {
  uint32_t id;
  const char *name;
  const char *type;                     /* Tiled's object type ("class" in later Tiled) */
  uint8_t shape;                        /* TwShape */
  double x, y, width, height, rotation; /* Tiled's: top-left (tile objects: bottom-left), degrees clockwise */
  uint32_t gid;                         /* TW_TILE */
  uint32_t point_count;                 /* TW_POLYGON, TW_POLYLINE: relative to x, y */
  TwPoint *points;
  TwProps props;
} TwObject;

typedef struct TwObjects {
  TwObject *v;
  size_t n, cap;
} TwObjects;

typedef struct TwTile {
  uint32_t id;
  TwProps props;
  TwObjects objects;    /* its collision: Tiled's per-tile objectgroup */
  uint32_t frame_count; /* animation: tiles 0..frame_count-1, each frame_ms */
  uint32_t frame_ms;
  bool has_probability; /* Tiled's per-tile probability: a terrain variant's weight */
  double probability;
} TwTile;

typedef struct TwTileset {
  const char *stem; /* file name inside TW_DIR without extension */
  const char *name;
  uint32_t tile_w, tile_h, margin, spacing, columns, tile_count;
  int32_t offset_x, offset_y; /* written as the tileoffset when not 0 */
  bool fit_grid;              /* tilerendersize="grid": the tiles scaled into the cell (Tiled 1.9+) */
  uint32_t image_w, image_h;
  const uint8_t *png; /* the image's bytes, written as TW_DIR/<stem>.png */
  size_t png_size;
  uint8_t *png_owned; /* generated (the materials swatches) */
  TwProps props;
  size_t tile_n;
  TwTile *tiles;          /* only tiles that carry something, by id */
  uint32_t firstgid;      /* in the map being written */
  uint32_t terrain_count; /* borrowed from the project: written as Tiled's wangsets */
  const TessTerrainSet *terrains;
} TwTileset;

typedef struct TwLayer {
  uint32_t id;
  const char *name;
  bool tiles;   /* tile layer; else an object group */
  bool topdown; /* object group drawn sorted by y (Tessera's sort by y) */
  bool visible, locked;
  double opacity;
  TwProps props;
  uint32_t *gids; /* tiles: width x height, row-major */
  TwObjects objects;
} TwLayer;

typedef struct TwMap {
  uint32_t width, height, tile_w, tile_h;
  uint32_t next_layer_id, next_object_id;
  TwProps props;
  size_t tileset_count;
  TwTileset *tilesets; /* firstgid order */
  size_t layer_count;
  TwLayer *layers; /* bottom to top */
  char **strings;  /* the arena */
  size_t string_count, string_cap;
  bool failed; /* out of memory somewhere: the model is incomplete */
} TwMap;

/* File names for one export of a project: every tileset, sprite and
 * materials swatch sheet gets a stem that is a safe file name, unique
 * ignoring case, the same whichever levels are written. */
typedef struct TwNames TwNames;
TessResult tiled_write_names_create(const TessProject *p, TwNames **out, TessError *err);
void tiled_write_names_destroy(TwNames *names);
const char *tiled_write_names_tileset(const TwNames *names, TessId tileset);
const char *tiled_write_names_sprite(const TwNames *names, TessId sprite);
/* "materials-WxH": swatches at a level's tile size. */
void tiled_write_names_materials(uint32_t tile_w, uint32_t tile_h, char *out, size_t size);
/* A level name turned into a safe file name (no extension). */
void tiled_write_safe_name(const char *name, char *out, size_t size);

/* What a level's map names: the tilesets its cells use (bits by id), the
 * sprites its bodies show (by index in the project; tess_free it), and
 * whether it gets the materials tileset. */
typedef struct TwUsed {
  uint64_t tilesets[(TESS_TILESET_ID_MAX + 64) / 64];
  bool *sprites;
  bool materials;
} TwUsed;
bool tiled_write_used_scan(const TessProject *p, const TessLevel *level, TwUsed *u);
bool tiled_write_used_tileset(const TwUsed *u, TessId id);

/* Builds the model of `level`; `hash` is stored as the map's
 * tessera.content_hash. Fails for names that are not valid UTF-8 and for
 * tilesets or sprites without image bytes, naming them. */
TessResult tiled_write_map_build(const TessProject *p, const TessLevel *level, const TwNames *names, uint64_t hash, TwMap *out,
                                 TessError *err);
void tiled_write_map_clear(TwMap *m);

/* The content hash a written map carries: the level's content hash, the
 * flavour, the writer version and every file name the map refers to. */
uint64_t tiled_write_content_hash(const TessProject *p, const TessLevel *level, const TwNames *names, TwFlavor flavor);

/* Serialisers: a new buffer (tess_free it). */
TessResult tiled_write_tmj_map(const TwMap *m, char **out, size_t *size, TessError *err);
TessResult tiled_write_tmj_tileset(const TwTileset *ts, char **out, size_t *size, TessError *err);
TessResult tiled_write_tmx_map(const TwMap *m, char **out, size_t *size, TessError *err);
TessResult tiled_write_tmx_tileset(const TwTileset *ts, char **out, size_t *size, TessError *err);

/* Shortest text that reads back as exactly `v` (strtod); "-0" kept. */
void tiled_write_format_double(double v, char out[32]);
/* Tiled's colour text "#AARRGGBB" from 0xRRGGBBAA. */
void tiled_write_format_color(uint32_t rgba, char out[16]);
/* True when s is valid UTF-8 (no overlong forms, no surrogates). */
bool tiled_write_utf8_valid(const char *s);

#endif
