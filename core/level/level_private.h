/* core/level's private declarations shared between its files: layer cell
 * writes that keep chunk counts, item containers, the change log, and the
 * undo machinery (ops and steps). Never included outside core/level. */
#ifndef TESS_LEVEL_PRIVATE_H
#define TESS_LEVEL_PRIVATE_H

#include <string.h>

#include "tessera/level.h"

/* An edit of the in-memory model reads no file: its errors name none, so the
 * editor's sentences do not call the project "“level”" (tess_document_describe_error). */
#define LEVEL_FILE ""

/* ---- Names ---- */
/* Copies a name, refusing one that does not fit TESS_NAME_MAX or is empty when required. */
TessResult level_name_copy(char dst[TESS_NAME_MAX], const char *src, bool allow_empty, const char *what,
                           TessError *err);
/* A name field that is NUL-terminated within TESS_NAME_MAX and valid UTF-8. */
bool level_name_valid(const char name[TESS_NAME_MAX]);
/* The same with the reason (unterminated, empty when not allowed, not UTF-8 at byte N), naming `what`. */
TessResult level_name_check(const char name[TESS_NAME_MAX], bool allow_empty, const char *what, TessError *err);

/* ---- Images (images.c) ---- */
/* PNG bytes against the size the project declares for them: bytes whose
 * header reads as a PNG must be image_w x image_h (a tileset or sprite whose
 * bytes were replaced by another image would make every drawing of its tiles
 * read outside the picture). Bytes that are no PNG at all pass here: they
 * cannot be decoded anywhere, and render draws a placeholder with a warning. */
TessResult level_image_bytes_check(const uint8_t *png, size_t size, uint32_t image_w, uint32_t image_h,
                                   const char *what, const char *name, TessError *err);

/* ---- Layers and chunks (layer.c) ---- */
static inline uint32_t level_chunks_for(uint32_t cells) { return (cells + TESS_CHUNK_SIZE - 1) / TESS_CHUNK_SIZE; }
TessLayer *level_layer_new(const TessLayerProps *props, uint32_t width, uint32_t height);
void level_layer_free(TessLayer *layer);
/* The pointer grid is made on first write; false when out of memory. */
bool level_layer_ensure_grid(TessLayer *layer);
/* Writes one cell of chunk `key` (cy * chunks_x + cx), allocating the chunk
 * on demand and freeing it when it empties. false when out of memory. */
bool level_layer_write(TessLayer *layer, uint32_t key, uint32_t index, uint32_t value);
/* The same, but a chunk that empties is kept (used == 0) until
 * level_layer_drop_if_empty: a running edit can then always restore a cell
 * without allocating. */
bool level_layer_write_keep(TessLayer *layer, uint32_t key, uint32_t index, uint32_t value);
void level_layer_drop_if_empty(TessLayer *layer, uint32_t key);
size_t level_layer_memory_bytes(const TessLayer *layer);
bool level_layer_has_cells(const TessLayer *layer); /* tile or material layer */
/* Objects in a layer. */
bool level_layer_reserve_objects(TessLayer *layer, uint32_t count);
int level_layer_object_index(const TessLayer *layer, TessId id);

/* ---- Levels (level.c) ---- */
TessLevel *level_new(TessId id, const TessLevelSettings *s);
void level_free(TessLevel *level);
bool level_insert_layer_at(TessLevel *level, TessLayer *layer, uint32_t index);
TessLayer *level_take_layer(TessLevel *level, uint32_t index);
/* Finds the level holding a layer id, or NULL. */
TessObject *level_project_find_object(const TessProject *p, TessId object, TessLevel **level_out,
                                      TessLayer **layer_out);

/* ---- Items (tileset.c, sprite.c, material.c, object.c) ---- */
TessResult level_tileset_validate(const TessProject *p, const TessTileset *ts, TessError *err);
TessResult level_sprite_validate(const TessSprite *s, TessError *err);
TessResult level_layer_props_validate(const TessLayerProps *props, TessError *err);
/* scene_pixel_masks.c: the scene's pixel masks, one per tile layer that collides by pixels. */
struct TessScene;
TessResult level_scene_pixel_masks(const TessProject *p, const TessLevel *level, struct TessScene *s, TessError *err);
/* scene_body_pixels.c: the mask of static sprite body `body` (its scene index) that collides by pixels. */
TessResult level_scene_body_pixel_mask(const TessLevel *level, const TessObject *o, const TessSprite *sp,
                                       uint32_t body, uint32_t material, struct TessScene *s, TessError *err);
TessResult level_polygon_validate(const TessPolygon *poly, const char *what, TessError *err);
int level_project_material_index(const TessProject *p, TessId id);
int level_project_tileset_index(const TessProject *p, TessId id);
int level_project_sprite_index(const TessProject *p, TessId id);
int level_project_level_index(const TessProject *p, TessId id);
/* Raises next_id[kind] past id. */
void level_project_note_id(TessProject *p, TessIdKind kind, TessId id);
/* A fresh id of `kind`, or 0 when beyond `max`. */
TessId level_project_take_id(TessProject *p, TessIdKind kind, TessId max);

/* ---- Change log (changes.c) ---- */
TessChangeLog *level_change_log_create(void);
void level_change_log_destroy(TessChangeLog *log);
/* Records a change (once until cleared) and tells the listener. */
void level_project_note_change(TessProject *p, TessChangeKind kind, TessId id, TessId level, TessId layer,
                               uint32_t cx, uint32_t cy);
/* Everything a store needs to rewrite a layer: its props, its chunks, its objects. */
void level_project_note_layer_content(TessProject *p, TessId level, const TessLayer *layer);
void level_project_note_level_content(TessProject *p, const TessLevel *level);

/* ---- Undo machinery (history.c) ---- */
typedef struct TessOp TessOp;
typedef struct TessOpClass {
  const char *name;
  /* Applies the op: forward (redo) or backward (undo). Atomic: on failure nothing changed. */
  TessResult (*apply)(TessProject *p, TessOp *op, bool forward);
  /* Frees the op. `undone`: the op's before state is live (it sat on the redo stack). */
  void (*destroy)(TessOp *op, bool undone);
  /* Optional: absorbs `next` (applied after `op`) into `op`; true when done (next is then destroyed). */
  bool (*merge)(TessOp *op, TessOp *next);
} TessOpClass;
struct TessOp {
  const TessOpClass *cls;
  size_t bytes; /* memory the op holds, for the history bound */
};

typedef struct TessStep TessStep;
/* A step under construction: each op is applied as it is added. */
TessStep *level_step_begin(const char *label, uint32_t merge);
/* Applies op forward and appends it; on failure the op is destroyed and the error returned. */
TessResult level_step_apply(TessProject *p, TessStep *step, TessOp *op, TessError *err);
/* Appends an op whose effect is already in place. false when out of memory (op destroyed, state kept). */
bool level_step_add_applied(TessStep *step, TessOp *op);
/* Pushes the step onto the history (merging with the previous one when the key matches). */
void level_step_commit(TessProject *p, TessStep *step);
/* Rolls back every op of the step and frees it. */
void level_step_abort(TessProject *p, TessStep *step);
bool level_step_empty(const TessStep *step);

TessHistory *level_history_create(void);
void level_history_destroy(TessHistory *h);

/* Allocation helper for ops. */
void *level_op_new(size_t size, const TessOpClass *cls);

/* ---- Terrain (terrain_fill.c) ---- */
/* The Wang fill of the cells set in `bits` (mw x mh at mx, my, inside the
 * level), one undo step under `label` (merged by `merge`). */
TessResult level_terrain_apply(TessProject *p, TessLevel *level, TessLayer *layer, const TessTerrainBrush *brush,
                               const uint8_t *bits, uint32_t mx, uint32_t my, uint32_t mw, uint32_t mh,
                               const char *label, uint32_t merge, TessError *err);

/* ---- Op constructors (ops_*.c) ---- */
/* Cells */
typedef struct TessCellWriter TessCellWriter;
TessCellWriter *level_cell_writer_begin(TessProject *p, TessLevel *level, TessLayer *layer);
/* Sets one cell (x, y inside the level). false when out of memory. */
bool level_cell_writer_set(TessCellWriter *w, uint32_t x, uint32_t y, uint32_t value);
/* Sets cells x0..x1 (inclusive) of row y, chunk by chunk. false when out of memory. */
bool level_cell_writer_set_span(TessCellWriter *w, uint32_t x0, uint32_t x1, uint32_t y, uint32_t value);
/* Reads through the writer (same as the layer). */
uint32_t level_cell_writer_get(const TessCellWriter *w, uint32_t x, uint32_t y);
/* Compacts what changed into an op (NULL when nothing changed) and reports the chunks. */
TessResult level_cell_writer_finish(TessCellWriter *w, TessOp **op_out, TessError *err);
/* Restores every written cell and frees the writer. */
void level_cell_writer_abort(TessCellWriter *w);

TessOp *level_op_material_presence(const TessMaterial *m, bool add);
TessOp *level_op_material_swap(const TessMaterial *other);
TessOp *level_op_tile_material(TessId tileset, TessId from, TessId to, const uint32_t *tiles, uint32_t count);
TessOp *level_op_tileset_presence(TessTileset *ts, bool add); /* takes ts (heap) */
TessOp *level_op_tileset_swap(TessTileset *other);            /* takes other (heap) */
TessOp *level_op_sprite_presence(TessSprite *s, bool add);
TessOp *level_op_sprite_swap(TessSprite *other);
TessOp *level_op_level_presence(TessLevel *level, uint32_t index, bool add);
/* Settings and per-layer contents of a resized level: `other` holds the state to swap in. */
typedef struct TessLayerContent {
  TessId layer;
  uint32_t chunks_x, chunks_y;
  TessChunk **chunks;
  uint32_t object_count;
  TessObject *objects;
} TessLayerContent;
TessOp *level_op_level_swap(TessId level, const TessLevelSettings *other, TessLayerContent *contents,
                            uint32_t content_count); /* takes contents */
TessOp *level_op_layer_presence(TessId level, TessLayer *layer, uint32_t index, bool add);
TessOp *level_op_layer_props(TessId level, const TessLayerProps *other);
TessOp *level_op_layer_move(TessId level, TessId layer, uint32_t from, uint32_t to);
TessOp *level_op_object_presence(TessId level, TessId layer, uint32_t index, TessObject *obj, bool add); /* takes *obj's heap */
TessOp *level_op_object_swap(TessId level, TessObject *other);                                           /* takes *other's heap */

/* Locates a layer content (for level swap). */
void level_layer_content_free(TessLayerContent *c);

#endif
