/* Layers: cells in 32x32 chunks made on first write and freed when they
 * empty, so memory follows what is painted (4 bytes a cell plus the chunk
 * header), and objects in a plain array. */
#include "level_private.h"

TessResult level_layer_props_validate(const TessLayerProps *props, TessError *err) {
  TessResult r = level_name_check(props->name, true, "layer", err);
  if (r != TESS_OK) return r;
  if (props->kind > TESS_LAYER_OBJECTS)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s kind %u is unknown", props->name, props->kind);
  if (isnan(props->opacity))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s opacity is NaN", props->name);
  if (!(props->opacity >= 0.0f && props->opacity <= 1.0f))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s opacity %g is outside [0, 1]", props->name,
                          (double)props->opacity);
  if (props->collide_pixels && props->kind != TESS_LAYER_TILES)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s: only a tile layer can collide by pixels",
                          props->name);
  return TESS_OK;
}

bool level_layer_has_cells(const TessLayer *layer) { return layer->props.kind != TESS_LAYER_OBJECTS; }

TessLayer *level_layer_new(const TessLayerProps *props, uint32_t width, uint32_t height) {
  TessLayer *layer = tess_calloc(1, sizeof *layer);
  if (!layer) return NULL;
  layer->props = *props;
  if (props->kind != TESS_LAYER_OBJECTS) {
    layer->chunks_x = level_chunks_for(width);
    layer->chunks_y = level_chunks_for(height);
  }
  return layer;
}

void level_layer_free(TessLayer *layer) {
  if (!layer) return;
  if (layer->chunks) {
    size_t n = (size_t)layer->chunks_x * layer->chunks_y;
    for (size_t i = 0; i < n; i++) tess_free(layer->chunks[i]);
    tess_free(layer->chunks);
  }
  for (uint32_t i = 0; i < layer->object_count; i++) tess_object_clear(&layer->objects[i]);
  tess_free(layer->objects);
  tess_free(layer);
}

bool level_layer_ensure_grid(TessLayer *layer) {
  if (layer->chunks) return true;
  if (!level_layer_has_cells(layer)) return false;
  layer->chunks = tess_calloc((size_t)layer->chunks_x * layer->chunks_y, sizeof *layer->chunks);
  return layer->chunks != NULL;
}

bool level_layer_write_keep(TessLayer *layer, uint32_t key, uint32_t index, uint32_t value) {
  if (!layer->chunks) {
    if (!value) return true;
    if (!level_layer_ensure_grid(layer)) return false;
  }
  TessChunk *chunk = layer->chunks[key];
  if (!chunk) {
    if (!value) return true;
    chunk = tess_calloc(1, sizeof *chunk);
    if (!chunk) return false;
    layer->chunks[key] = chunk;
  }
  uint32_t old = chunk->cells[index];
  chunk->cells[index] = value;
  chunk->used = chunk->used + (value != 0) - (old != 0);
  return true;
}

void level_layer_drop_if_empty(TessLayer *layer, uint32_t key) {
  if (layer->chunks && layer->chunks[key] && layer->chunks[key]->used == 0) {
    tess_free(layer->chunks[key]);
    layer->chunks[key] = NULL;
  }
}

bool level_layer_write(TessLayer *layer, uint32_t key, uint32_t index, uint32_t value) {
  if (!layer->chunks) {
    if (!value) return true;
    if (!level_layer_ensure_grid(layer)) return false;
  }
  TessChunk *chunk = layer->chunks[key];
  if (!chunk) {
    if (!value) return true;
    chunk = tess_calloc(1, sizeof *chunk);
    if (!chunk) return false;
    layer->chunks[key] = chunk;
  }
  uint32_t old = chunk->cells[index];
  chunk->cells[index] = value;
  chunk->used = chunk->used + (value != 0) - (old != 0);
  if (chunk->used == 0) {
    tess_free(chunk);
    layer->chunks[key] = NULL;
  }
  return true;
}

TessCell tess_layer_cell(const TessLayer *layer, uint32_t x, uint32_t y) {
  if (!layer || !layer->chunks) return 0;
  uint32_t cx = x / TESS_CHUNK_SIZE, cy = y / TESS_CHUNK_SIZE;
  if (cx >= layer->chunks_x || cy >= layer->chunks_y) return 0;
  const TessChunk *c = layer->chunks[(size_t)cy * layer->chunks_x + cx];
  return c ? c->cells[(y % TESS_CHUNK_SIZE) * TESS_CHUNK_SIZE + x % TESS_CHUNK_SIZE] : 0;
}

const TessChunk *tess_layer_chunk(const TessLayer *layer, uint32_t cx, uint32_t cy) {
  if (!layer || !layer->chunks || cx >= layer->chunks_x || cy >= layer->chunks_y) return NULL;
  return layer->chunks[(size_t)cy * layer->chunks_x + cx];
}

/* The allocator's 16-byte block header counts: it is memory the cells cost. */
#define BLOCK_OVERHEAD 16u

size_t level_layer_memory_bytes(const TessLayer *layer) {
  size_t bytes = sizeof *layer + BLOCK_OVERHEAD;
  if (layer->chunks) {
    size_t n = (size_t)layer->chunks_x * layer->chunks_y;
    bytes += n * sizeof *layer->chunks + BLOCK_OVERHEAD;
    for (size_t i = 0; i < n; i++)
      if (layer->chunks[i]) bytes += sizeof(TessChunk) + BLOCK_OVERHEAD;
  }
  if (layer->objects) bytes += layer->object_count * sizeof(TessObject) + BLOCK_OVERHEAD;
  for (uint32_t i = 0; i < layer->object_count; i++) {
    const TessObject *o = &layer->objects[i];
    if (o->props) bytes += o->prop_count * sizeof(TessProperty) + BLOCK_OVERHEAD;
    for (uint32_t k = 0; k < o->prop_count; k++)
      if (o->props[k].type == TESS_PROP_STRING && o->props[k].v.s) bytes += strlen(o->props[k].v.s) + 1 + BLOCK_OVERHEAD;
  }
  return bytes;
}

bool level_layer_reserve_objects(TessLayer *layer, uint32_t count) {
  if (count <= layer->object_count) return true;
  TessObject *grown = tess_realloc(layer->objects, (size_t)count * sizeof *grown);
  if (!grown) return false;
  layer->objects = grown;
  return true;
}

int level_layer_object_index(const TessLayer *layer, TessId id) {
  for (uint32_t i = 0; i < layer->object_count; i++)
    if (layer->objects[i].id == id) return (int)i;
  return -1;
}

TessResult tess_layer_insert_chunk(TessLayer *layer, uint32_t cx, uint32_t cy, const uint32_t *cells,
                                   TessError *err) {
  if (!level_layer_has_cells(layer))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s holds objects, not cells", layer->props.name);
  if (cx >= layer->chunks_x || cy >= layer->chunks_y)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "chunk (%u, %u) is outside layer %s (%u x %u chunks)",
                          cx, cy, layer->props.name, layer->chunks_x, layer->chunks_y);
  uint32_t used = 0;
  for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++) {
    if (cells[i] & TESS_CELL_RESERVED)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "chunk (%u, %u) cell %u has the reserved bit set", cx,
                            cy, i);
    if (layer->props.kind == TESS_LAYER_MATERIAL && cells[i] > TESS_MATERIAL_ID_MAX)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "material chunk (%u, %u) cell %u holds %u", cx, cy, i,
                            cells[i]);
    used += cells[i] != 0;
  }
  size_t key = (size_t)cy * layer->chunks_x + cx;
  if (used == 0) {
    if (layer->chunks) {
      tess_free(layer->chunks[key]);
      layer->chunks[key] = NULL;
    }
    return TESS_OK;
  }
  if (!level_layer_ensure_grid(layer)) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  TessChunk *chunk = layer->chunks[key];
  if (!chunk && !(chunk = tess_alloc(sizeof *chunk)))
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  memcpy(chunk->cells, cells, sizeof chunk->cells);
  chunk->used = used;
  layer->chunks[key] = chunk;
  return TESS_OK;
}
