/* Tessera core/formats: files from other tools behind one small interface,
 * in the manner of Tiled's MapFormat (name, extensions, read, write).
 *
 * Reading never touches a project: a format reads a map file into a
 * TessMapImport, a self-contained plan (tilesets with their PNG bytes,
 * materials, one level's layers, cells and objects, and the warnings about
 * what could not be kept). Reading can therefore run on a worker thread and
 * fail without consequence. tess_map_import_apply() then turns the plan into
 * ordinary edit operations inside one group: one undo step, and on failure
 * the project is exactly as it was. Writing takes a level of a project.
 *
 * Numbering inside a plan is local: a plan cell's tileset field (bits 16-27)
 * is 1 + an index into `tilesets`, a tile's or body's material is 1 + an
 * index into `materials`, a sprite body's sprite is 1 + an index into
 * `sprites`. apply() maps them to project ids. */
#ifndef TESSERA_FORMATS_H
#define TESSERA_FORMATS_H

#include "tessera/base.h"
#include "tessera/level.h"
#include "tessera/pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits a map must stay within (checked before anything is allocated). */
#define TESS_MAP_MAX_TILESETS TESS_TILESET_ID_MAX
#define TESS_MAP_MAX_LAYERS 4096
#define TESS_MAP_MAX_FILE_BYTES ((size_t)512 * 1024 * 1024)
#define TESS_MAP_MAX_DEPTH 64 /* nested groups / elements / JSON values */

/* What a map's tileset is to Tessera. Tessera's own export writes its
 * materials and its sprites as tilesets too; those come back as what they
 * were, not as tilesets of the project. */
typedef enum TessImportTilesetRole {
  TESS_IMPORT_TILESET = 0,   /* a tileset of the project */
  TESS_IMPORT_MATERIALS = 1, /* the generated materials tileset: tile k stands for plan material tiles[k].material */
  TESS_IMPORT_SPRITE = 2,    /* a sprite's frames: tile objects of it are bodies of plan sprite `sprite` */
} TessImportTilesetRole;

typedef struct TessImportTileset {
  uint8_t role;             /* TessImportTilesetRole; apply adds only TESS_IMPORT_TILESET */
  TessId id;                /* the id to keep (a map Tessera wrote: tessera.id), 0 = a new one */
  TessId sprite;            /* TESS_IMPORT_SPRITE: 1 + index into sprites */
  uint32_t alpha_threshold; /* 0 = the project's default */
  char name[TESS_NAME_MAX];
  char *source_path; /* the image as resolved (absolute or relative to the working directory) */
  uint8_t *png;      /* PNG bytes (re-encoded when a `trans` colour was applied) */
  size_t png_size;
  uint32_t image_w, image_h;
  uint32_t tile_w, tile_h, margin, spacing;
  uint32_t tile_count;        /* tiles of the grid (columns x rows) */
  TessTileInfo *tiles;        /* tile_count entries: collision and default material (plan numbering) */
  int32_t offset_x, offset_y; /* Tiled's tileoffset: TessTileset's drawing offset */
  uint8_t fit_cell;           /* Tiled's tilerendersize="grid": tiles scaled into the cell */
  uint32_t terrain_count;     /* terrain sets (Tiled's wang sets), tile indices of this tileset */
  TessTerrainSet *terrains;
} TessImportTileset;

typedef struct TessImportLayer {
  TessLayerProps props;  /* id: the map's layer id, kept when it can be (0 = none); kind TILES, MATERIAL or OBJECTS */
  TessCell *cells;       /* TILES: width x height, row-major, plan numbering; MATERIAL: plan material numbers */
  uint32_t object_count; /* OBJECTS */
  TessObject *objects;   /* positions in level pixels (infinite-map offset applied); id: the map's
                            object id, kept when it can be; joints' body_a/body_b: map object ids */
} TessImportLayer;

/* An int property of a plan object that names another object by its map
 * id (Tiled's `object` type): apply rewrites it to the id that object got. */
typedef struct TessImportRef {
  uint32_t layer, object;   /* indices into layers and their objects */
  char name[TESS_NAME_MAX]; /* the property */
} TessImportRef;

typedef struct TessMapImport {
  char source[512];           /* the map's path as given */
  TessLevelSettings settings; /* name (the file's stem), size (used bounds for infinite maps), tile size */
  int32_t origin_x, origin_y; /* infinite maps: the map cell that became the level's (0, 0) */
  uint32_t tileset_count;
  TessImportTileset *tilesets;
  uint32_t material_count;
  TessMaterial *materials; /* ids are 1..material_count; reused by name on apply */
  TessId *material_ids;    /* NULL, or material_count ids to keep (Tessera's materials tileset), 0 = a new one */
  uint32_t sprite_count;
  TessSprite *sprites; /* tile objects' images; id: the id to keep (a Tessera sprite), 0 = a new one */
  TessId level_id;     /* the level id to keep (a map Tessera wrote), 0 = a new one */
  uint32_t ref_count;
  TessImportRef *refs; /* object properties naming objects */
  uint32_t layer_count;
  TessImportLayer *layers; /* bottom to top */
  uint32_t warning_count;
  char **warnings; /* what was dropped or changed, one English line each */
} TessMapImport;

void tess_map_import_destroy(TessMapImport *imp);
/* Adds one warning (printf-style); false when out of memory. */
bool tess_map_import_warn(TessMapImport *imp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* What a read may be told. */
typedef struct TessMapReadOptions {
  volatile int *cancel;                          /* when non-NULL and set non-zero, the read stops with TESS_ERR_EMPTY ("cancelled") */
  void (*progress)(double fraction, void *user); /* 0..1, from the reading thread; may be NULL */
  void *user;
} TessMapReadOptions;
void tess_map_read_options_default(TessMapReadOptions *opt);

/* What a write may be told. Tiled maps are written with their tilesets and
 * images under "tilesets/" in the map's own directory, so they need nothing
 * more yet. */
typedef struct TessMapWriteOptions {
  const char *out_dir; /* unused by the Tiled writer (see above) */
} TessMapWriteOptions;

typedef struct TessMapFormat {
  const char *name;              /* "tmx", "tmj": the --format value */
  const char *description;       /* "Tiled map (XML)": for file choosers */
  const char *const *extensions; /* NULL-terminated, without the dot: {"tmx", NULL} */
  /* Reads a map file into a new plan (*out, owned by the caller). */
  TessResult (*read)(const char *path, const TessMapReadOptions *opt, TessMapImport **out, TessError *err);
  /* Writes one level of a project to `path`; NULL when the format is read-only. */
  TessResult (*write)(const TessProject *p, const TessLevel *level, const char *path,
                      const TessMapWriteOptions *opt, TessError *err);
} TessMapFormat;

/* Every format Tessera knows, for the CLI and the file choosers alike. */
size_t tess_map_format_count(void);
const TessMapFormat *tess_map_format_at(size_t index);
const TessMapFormat *tess_map_format_by_name(const char *name);
/* By the path's extension (case-insensitive); NULL when none matches. */
const TessMapFormat *tess_map_format_for_path(const char *path);

/* Reads any known map format, chosen by extension; an unknown extension is TESS_ERR_FORMAT. */
TessResult tess_map_read(const char *path, const TessMapReadOptions *opt, TessMapImport **out, TessError *err);

/* Applies a plan to a project as one undo step ("Import map"): tilesets
 * whose PNG bytes and grid equal a project tileset's are reused, materials
 * are reused by name, then a new level is added (named `level_name`, or the
 * plan's name; an existing name is refused) with the plan's layers, cells
 * and objects. Ids the plan carries (materials, tilesets, sprites, the
 * level, layers, objects) are kept, kind by kind, when every one of a kind
 * is above what the project has handed out (always in a new project), so
 * Tessera -> Tiled -> Tessera gives the level its content hash back; object
 * references follow the ids objects get either way. On failure every edit
 * is rolled back. */
TessResult tess_map_import_apply(TessProject *p, const TessMapImport *imp, const char *level_name, TessId *level_out,
                                 TessError *err);

/* The same apply in steps, for a caller that must stay responsive (the
 * editor applies a big map between frames): begin opens the group and
 * checks the name; each step does about `budget` units of work (a cell is
 * one, an object 256) and says when all is done; finish closes the group (one
 * undo step) and returns the new level's id; cancel, at any point, rolls
 * every edit back so the project is exactly as it was. A step that fails has
 * rolled back already (finish then returns 0). The plan must outlive the
 * apply; nothing else may edit the project in between. */
typedef struct TessMapApply TessMapApply;
TessResult tess_map_apply_begin(TessProject *p, const TessMapImport *imp, const char *level_name, TessMapApply **out,
                                TessError *err);
TessResult tess_map_apply_step(TessMapApply *a, uint64_t budget, bool *done, TessError *err);
double tess_map_apply_fraction(const TessMapApply *a); /* 0..1 */
TessId tess_map_apply_finish(TessMapApply *a);
void tess_map_apply_cancel(TessMapApply *a);

/* ---- Writing a level as a Tiled map (the Tessera -> Tiled half) ---------
 * A level is written as DIR/<level>.tmj (or .tmx) with its tilesets as
 * external files DIR/tilesets/<name>.tsj (.tsx) and their images as
 * DIR/tilesets/<name>.png (the PNG bytes the project holds; the materials
 * tileset's colour swatches are generated). Every file is written under a
 * temporary name and renamed; a tileset file whose bytes are already there
 * is left alone, so levels written in parallel share them safely. The
 * mapping is documented in core/formats/README.md ("Tessera -> Tiled"). */

typedef enum TessTiledFlavor {
  TESS_TILED_TMJ = 0, /* JSON: .tmj maps, .tsj tilesets */
  TESS_TILED_TMX = 1, /* XML: .tmx maps, .tsx tilesets */
} TessTiledFlavor;

/* The writer for tess_export_create (TessExportSpec.writer, tessera/pack.h):
 * one map per level named as the .tlv files are, manifest format
 * "tiled-tmj" or "tiled-tmx". Static. */
const TessExportWriter *tess_tiled_export_writer(TessTiledFlavor flavor);
/* By name: "tmj" or "tmx"; NULL otherwise. */
const TessExportWriter *tess_tiled_export_writer_by_name(const char *name);

/* Writes one level to `path` (its tilesets under "tilesets/" in path's
 * directory, which must exist). The map carries the content hash an export
 * compares (map property tessera.content_hash). Names that are not UTF-8,
 * text XML cannot hold (TMX), tilesets or sprites without image bytes are
 * refused with a message and no map is written. */
TessResult tess_tiled_write_level(const TessProject *p, const TessLevel *level, TessTiledFlavor flavor,
                                  const char *path, TessError *err);

#ifdef __cplusplus
}
#endif
#endif
