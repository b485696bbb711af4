/* What collides (DESIGN.md), computed in this one place: the topmost
 * non-empty tile among the layers flagged `collides` gives the shape; the
 * material layer's override, else that tile's default material, gives the
 * material; a cell whose effective material is solid is a full square even
 * without a colliding tile shape.
 *
 * The rule runs over a run of cells of one row (tess_level_collision_row),
 * which reads each layer's chunk row once per 32 cells and remembers the
 * last tile and material looked up (runs of equal cells are the rule in a
 * level); the single-cell call is a run of one. */
#include "level_private.h"

#define ROW_LAYERS 64 /* layers the rule reads (material + colliding tiles), held per run */

/* Lookups remembered over a run: the last tile and material, and for long
 * runs small direct-mapped caches (key 0 = empty: cell 0 and material 0
 * are never looked up). */
#define CACHE_SLOTS 256

typedef struct Lookups {
  TessCell cell;
  const TessTileInfo *tile;
  TessId material;
  const TessMaterial *mat;
  bool have_cell, have_material, cached;
  TessCell cell_keys[CACHE_SLOTS];
  const TessTileInfo *tiles[CACHE_SLOTS];
  TessId material_keys[CACHE_SLOTS];
  const TessMaterial *materials[CACHE_SLOTS];
} Lookups;

static uint32_t slot(uint32_t key) { return (key * 2654435761u) >> 24; }

static const TessTileInfo *tile_of(const TessProject *p, Lookups *lk, TessCell cell) {
  if (lk->have_cell && lk->cell == cell) return lk->tile;
  const TessTileInfo *tile;
  if (lk->cached) {
    uint32_t k = slot(cell);
    if (lk->cell_keys[k] != cell) {
      lk->cell_keys[k] = cell;
      lk->tiles[k] = tess_project_tile(p, cell);
    }
    tile = lk->tiles[k];
  } else {
    tile = tess_project_tile(p, cell);
  }
  lk->cell = cell;
  lk->tile = tile;
  lk->have_cell = true;
  return tile;
}

static const TessMaterial *material_of(const TessProject *p, Lookups *lk, TessId id) {
  if (lk->have_material && lk->material == id) return lk->mat;
  const TessMaterial *m;
  if (lk->cached) {
    uint32_t k = slot(id);
    if (lk->material_keys[k] != id) {
      lk->material_keys[k] = id;
      lk->materials[k] = tess_project_material(p, id);
    }
    m = lk->materials[k];
  } else {
    m = tess_project_material(p, id);
  }
  lk->material = id;
  lk->mat = m;
  lk->have_material = true;
  return m;
}

/* A layer the rule reads, top to bottom: the material layer, or a tile
 * layer that collides. `row` is its chunk row for the cells at hand. */
typedef struct Source {
  const TessLayer *layer;
  const TessCell *row;
  bool material;
} Source;

typedef struct CellState {
  TessId override;
  bool have_tile;
} CellState;

/* The rule over some of the sources, top to bottom, for one cell (xx: its
 * column in the chunk rows; without rows: tess_layer_cell). */
static inline void feed(const TessProject *p, const Source *src, uint32_t n, bool rows, uint32_t x, uint32_t y, uint32_t xx,
                        Lookups *lk, CellState *st, TessCellCollision *out) {
  for (uint32_t i = 0; i < n; i++) {
    if (st->have_tile && !src[i].material) continue;
    TessCell cell = rows ? (src[i].row ? src[i].row[xx] : 0) : tess_layer_cell(src[i].layer, x, y);
    if (src[i].material) {
      st->override = cell;
      continue;
    }
    if (!cell) continue;
    const TessTileInfo *tile = tile_of(p, lk, cell);
    /* A cell naming no known tile has no shape to give: it counts as empty. */
    if (!tile) continue;
    st->have_tile = true;
    out->cell = cell;
    out->tile = tile;
    out->kind = tile->collision;
    out->one_way = tile->one_way;
    out->material = tile->material;
  }
}

static inline void finish(const TessProject *p, Lookups *lk, const CellState *st, TessCellCollision *out) {
  if (st->override) out->material = st->override;
  const TessMaterial *m = out->material ? material_of(p, lk, out->material) : NULL;
  if (!m) out->material = 0; /* a dangling id gives no material */
  /* A solid material makes a wall of a cell with no shape; a traced or full
   * tile keeps its own shape (a stone slope stays a slope). */
  if (m && m->kind == TESS_MATERIAL_SOLID && out->kind == TESS_TILE_COLLISION_NONE) {
    out->kind = TESS_TILE_COLLISION_FULL;
    out->one_way = 0;
  }
}

static bool is_source(const TessLayer *layer, bool *material) {
  *material = layer->props.kind == TESS_LAYER_MATERIAL;
  /* a layer that collides by pixels does so as a pixel mask (scene_pixel_masks.c), not by cells */
  return *material || (layer->props.kind == TESS_LAYER_TILES && layer->props.collides && !layer->props.collide_pixels);
}

/* More sources than a run holds (not a real level): every cell walks the
 * layers in groups, read cell by cell. */
static void collision_by_groups(const TessProject *p, const TessLevel *level, uint32_t x, uint32_t y, Lookups *lk,
                                TessCellCollision *out) {
  Source src[ROW_LAYERS];
  CellState st = {0, false};
  uint32_t n = 0;
  for (uint32_t i = level->layer_count; i-- > 0;) {
    bool material;
    if (!is_source(level->layers[i], &material)) continue;
    src[n].layer = level->layers[i];
    src[n].row = NULL;
    src[n].material = material;
    if (++n == ROW_LAYERS) {
      feed(p, src, n, false, x, y, 0, lk, &st, out);
      n = 0;
    }
  }
  feed(p, src, n, false, x, y, 0, lk, &st, out);
  finish(p, lk, &st, out);
}

void tess_level_collision_row(const TessProject *p, const TessLevel *level, uint32_t x0, uint32_t y, uint32_t count,
                              TessCellCollision *out) {
  Lookups lk;
  lk.have_cell = lk.have_material = false;
  lk.cached = count >= 64; /* worth clearing the caches */
  if (lk.cached) {
    memset(lk.cell_keys, 0, sizeof lk.cell_keys);
    memset(lk.material_keys, 0, sizeof lk.material_keys);
  }
  Source src[ROW_LAYERS];
  uint32_t n = 0;
  bool fits = true;
  for (uint32_t i = level->layer_count; i-- > 0 && fits;) {
    bool material;
    if (!is_source(level->layers[i], &material)) continue;
    if (n == ROW_LAYERS) {
      fits = false;
      break;
    }
    src[n].layer = level->layers[i];
    src[n].row = NULL;
    src[n].material = material;
    n++;
  }
  uint32_t W = level->settings.width, H = level->settings.height;
  for (uint32_t k = 0; k < count;) {
    uint32_t x = x0 + k;
    if (x < x0 || x >= W || y >= H) { /* outside the level (or past UINT32_MAX): nothing */
      memset(&out[k], 0, sizeof out[k]);
      k++;
      continue;
    }
    uint32_t cx = x / TESS_CHUNK_SIZE, cy = y / TESS_CHUNK_SIZE;
    uint32_t end = count - k; /* cells of this run in this chunk column */
    uint32_t in_chunk = TESS_CHUNK_SIZE - x % TESS_CHUNK_SIZE;
    if (end > in_chunk) end = in_chunk;
    if (end > W - x) end = W - x;
    if (fits)
      for (uint32_t i = 0; i < n; i++) {
        const TessChunk *c = tess_layer_chunk(src[i].layer, cx, cy);
        src[i].row = c ? &c->cells[(y % TESS_CHUNK_SIZE) * TESS_CHUNK_SIZE] : NULL;
      }
    for (uint32_t j = 0; j < end; j++, k++) {
      memset(&out[k], 0, sizeof out[k]);
      if (!fits) {
        collision_by_groups(p, level, x + j, y, &lk, &out[k]);
        continue;
      }
      CellState st = {0, false};
      feed(p, src, n, true, x + j, y, (x + j) % TESS_CHUNK_SIZE, &lk, &st, &out[k]);
      finish(p, &lk, &st, &out[k]);
    }
  }
}

void tess_level_cell_collision(const TessProject *p, const TessLevel *level, uint32_t x, uint32_t y,
                               TessCellCollision *out) {
  tess_level_collision_row(p, level, x, y, 1, out);
}
