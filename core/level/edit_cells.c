/* Cell edits: paint a stamp, set, erase, fill a rectangle, flood fill, and
 * the material brush. Each writes through a cell writer that records the
 * before and after of the cells it changed, then commits one undo step. */
#include "level_private.h"

typedef struct CellTarget {
  TessLevel *level;
  TessLayer *layer;
} CellTarget;

static TessResult resolve(TessProject *p, TessId level_id, TessId layer_id, CellTarget *t, TessError *err) {
  t->level = tess_project_level(p, level_id);
  if (!t->level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  t->layer = tess_level_layer(t->level, layer_id);
  if (!t->layer)
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "layer %u is not in level %s", layer_id,
                          t->level->settings.name);
  if (!level_layer_has_cells(t->layer))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s holds objects, not cells",
                          t->layer->props.name);
  if (t->layer->props.locked)
    return tess_error_set(err, TESS_ERR_LOCKED, LEVEL_FILE, "layer %s is locked", t->layer->props.name);
  return TESS_OK;
}

/* A value a layer may hold: a known tile (tile layers) or a known material (the material layer). */
static TessResult check_value(const TessProject *p, const TessLayer *layer, uint32_t v, TessError *err) {
  if (!v) return TESS_OK;
  if (layer->props.kind == TESS_LAYER_MATERIAL) {
    if (v > TESS_MATERIAL_ID_MAX || !tess_project_material(p, v))
      return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "material %u does not exist", v);
    return TESS_OK;
  }
  if (v & TESS_CELL_RESERVED)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "cell 0x%08x has the reserved bit set", v);
  if (!tess_project_tile(p, v))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "cell 0x%08x names tile %u of tileset %u, which does not exist",
                          v, TESS_CELL_TILE(v), TESS_CELL_TILESET(v));
  return TESS_OK;
}

typedef struct Clip {
  uint32_t x0, y0, x1, y1; /* [x0, x1) x [y0, y1) */
} Clip;

static bool clip_rect(const TessLevel *level, int32_t x, int32_t y, uint32_t w, uint32_t h, Clip *c) {
  int64_t x0 = x, y0 = y, x1 = (int64_t)x + w, y1 = (int64_t)y + h;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > level->settings.width) x1 = level->settings.width;
  if (y1 > level->settings.height) y1 = level->settings.height;
  if (x0 >= x1 || y0 >= y1) return false;
  c->x0 = (uint32_t)x0;
  c->y0 = (uint32_t)y0;
  c->x1 = (uint32_t)x1;
  c->y1 = (uint32_t)y1;
  return true;
}

/* Finishes a writer into the step and commits it. */
static TessResult finish(TessProject *p, TessStep *step, TessCellWriter *w, TessError *err) {
  TessOp *op = NULL;
  TessResult r = level_cell_writer_finish(w, &op, err);
  if (r) {
    level_step_abort(p, step);
    return r;
  }
  if (op && !level_step_add_applied(step, op)) {
    op->cls->apply(p, op, false);
    op->cls->destroy(op, true);
    level_step_abort(p, step);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  level_step_commit(p, step);
  return TESS_OK;
}

static TessResult fail_nomem(TessProject *p, TessStep *step, TessCellWriter *w, TessError *err) {
  level_cell_writer_abort(w);
  level_step_abort(p, step);
  return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
}

typedef enum RectMode { RECT_STAMP,
                        RECT_SET,
                        RECT_FILL } RectMode;

static TessResult edit_rect(TessProject *p, const char *label, CellTarget *t, int32_t x, int32_t y, uint32_t w,
                            uint32_t h, RectMode mode, const TessCell *cells, TessCell fill, uint32_t merge,
                            TessError *err) {
  Clip c;
  if (!clip_rect(t->level, x, y, w, h, &c)) return TESS_OK;
  TessResult r;
  if (mode == RECT_FILL) {
    if ((r = check_value(p, t->layer, fill, err))) return r;
  } else {
    if (!cells) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "%s: no cells given", label);
    for (uint32_t yy = c.y0; yy < c.y1; yy++)
      for (uint32_t xx = c.x0; xx < c.x1; xx++)
        if ((r = check_value(p, t->layer, cells[(size_t)(yy - y) * w + (xx - x)], err))) return r;
  }
  TessStep *step = level_step_begin(label, merge);
  TessCellWriter *wr = step ? level_cell_writer_begin(p, t->level, t->layer) : NULL;
  if (!wr) {
    tess_free(step);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  for (uint32_t yy = c.y0; yy < c.y1; yy++) {
    if (mode == RECT_FILL) {
      if (!level_cell_writer_set_span(wr, c.x0, c.x1 - 1, yy, fill)) return fail_nomem(p, step, wr, err);
      continue;
    }
    for (uint32_t xx = c.x0; xx < c.x1; xx++) {
      uint32_t v = mode == RECT_FILL ? fill : cells[(size_t)(yy - y) * w + (xx - x)];
      if (mode == RECT_STAMP && v == 0) continue; /* transparent */
      if (!level_cell_writer_set(wr, xx, yy, v)) return fail_nomem(p, step, wr, err);
    }
  }
  return finish(p, step, wr, err);
}

TessResult tess_edit_paint(TessProject *p, TessId level, TessId layer, int32_t x, int32_t y, uint32_t w,
                           uint32_t h, const TessCell *stamp, uint32_t merge, TessError *err) {
  CellTarget t;
  TessResult r = resolve(p, level, layer, &t, err);
  if (r) return r;
  return edit_rect(p, "Paint tiles", &t, x, y, w, h, RECT_STAMP, stamp, 0, merge, err);
}

TessResult tess_edit_set_cells(TessProject *p, TessId level, TessId layer, int32_t x, int32_t y, uint32_t w,
                               uint32_t h, const TessCell *cells, uint32_t merge, TessError *err) {
  CellTarget t;
  TessResult r = resolve(p, level, layer, &t, err);
  if (r) return r;
  return edit_rect(p, "Set cells", &t, x, y, w, h, RECT_SET, cells, 0, merge, err);
}

TessResult tess_edit_erase(TessProject *p, TessId level, TessId layer, int32_t x, int32_t y, uint32_t w,
                           uint32_t h, uint32_t merge, TessError *err) {
  CellTarget t;
  TessResult r = resolve(p, level, layer, &t, err);
  if (r) return r;
  return edit_rect(p, "Erase", &t, x, y, w, h, RECT_FILL, NULL, 0, merge, err);
}

TessResult tess_edit_fill_rect(TessProject *p, TessId level, TessId layer, int32_t x, int32_t y, uint32_t w,
                               uint32_t h, TessCell cell, uint32_t merge, TessError *err) {
  CellTarget t;
  TessResult r = resolve(p, level, layer, &t, err);
  if (r) return r;
  return edit_rect(p, "Fill rectangle", &t, x, y, w, h, RECT_FILL, NULL, cell, merge, err);
}

/* The 32 cells of row y in chunk column cx, or NULL when that chunk is empty. */
static inline const uint32_t *chunk_row(const TessLayer *layer, uint32_t cx, uint32_t y) {
  const TessChunk *c = layer->chunks ? layer->chunks[(y / TESS_CHUNK_SIZE) * layer->chunks_x + cx] : NULL;
  return c ? &c->cells[(y % TESS_CHUNK_SIZE) * TESS_CHUNK_SIZE] : NULL;
}

static inline uint32_t row_cell(const uint32_t *row, uint32_t x) { return row ? row[x % TESS_CHUNK_SIZE] : 0; }

/* Scanline flood fill: each popped seed grows to its whole run of matching
 * cells in its row, which is filled at once; the rows above and below are
 * scanned along that run and one seed is pushed per run found there. Cells
 * are read and written a chunk row (32 cells) at a time; the stack holds
 * runs, not cells. Filled cells no longer match, so no visited set is
 * needed, and nothing recurses. */
TessResult tess_edit_flood_fill(TessProject *p, TessId level, TessId layer, uint32_t x, uint32_t y, TessCell cell,
                                uint32_t merge, TessError *err) {
  CellTarget t;
  TessResult r = resolve(p, level, layer, &t, err);
  if (r) return r;
  const uint32_t W = t.level->settings.width, H = t.level->settings.height;
  if (x >= W || y >= H)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "flood fill at (%u, %u) is outside the %u x %u level", x,
                          y, W, H);
  if ((r = check_value(p, t.layer, cell, err))) return r;
  const uint32_t target = tess_layer_cell(t.layer, x, y);
  if (target == cell) return TESS_OK;
  TessStep *step = level_step_begin("Flood fill", merge);
  TessCellWriter *wr = step ? level_cell_writer_begin(p, t.level, t.layer) : NULL;
  TESS_ARRAY(uint32_t)
  stack = {0};
  if (!wr || !TESS_ARRAY_PUSH(&stack, x) || !TESS_ARRAY_PUSH(&stack, y)) {
    level_cell_writer_abort(wr);
    tess_free(step);
    TESS_ARRAY_FREE(&stack);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  const TessLayer *L = t.layer;
  while (stack.count) {
    uint32_t sy = stack.data[--stack.count];
    uint32_t sx = stack.data[--stack.count];
    if (tess_layer_cell(L, sx, sy) != target) continue;
    /* Grow the run left and right, a chunk row at a time. */
    uint32_t lx = sx, rx = sx;
    for (bool open = true; open && lx > 0;) {
      uint32_t cx = (lx - 1) / TESS_CHUNK_SIZE, start = cx * TESS_CHUNK_SIZE;
      const uint32_t *row = chunk_row(L, cx, sy);
      while (lx > start && row_cell(row, lx - 1) == target) lx--;
      open = lx == start;
    }
    for (bool open = true; open && rx + 1 < W;) {
      uint32_t cx = (rx + 1) / TESS_CHUNK_SIZE, end = cx * TESS_CHUNK_SIZE + TESS_CHUNK_SIZE - 1;
      if (end > W - 1) end = W - 1;
      const uint32_t *row = chunk_row(L, cx, sy);
      while (rx < end && row_cell(row, rx + 1) == target) rx++;
      open = rx == end;
    }
    if (!level_cell_writer_set_span(wr, lx, rx, sy, cell)) {
      TESS_ARRAY_FREE(&stack);
      return fail_nomem(p, step, wr, err);
    }
    /* One seed per run of matching cells above and below. */
    for (int d = -1; d <= 1; d += 2) {
      if ((d < 0 && sy == 0) || (d > 0 && sy + 1 >= H)) continue;
      uint32_t ny = sy + (uint32_t)d;
      bool in_run = false;
      for (uint32_t xx = lx; xx <= rx;) {
        uint32_t cx = xx / TESS_CHUNK_SIZE, end = cx * TESS_CHUNK_SIZE + TESS_CHUNK_SIZE - 1;
        if (end > rx) end = rx;
        const uint32_t *row = chunk_row(L, cx, ny);
        for (; xx <= end; xx++) {
          bool match = row_cell(row, xx) == target;
          if (match && !in_run && (!TESS_ARRAY_PUSH(&stack, xx) || !TESS_ARRAY_PUSH(&stack, ny))) {
            TESS_ARRAY_FREE(&stack);
            return fail_nomem(p, step, wr, err);
          }
          in_run = match;
        }
      }
    }
  }
  TESS_ARRAY_FREE(&stack);
  return finish(p, step, wr, err);
}

TessResult tess_edit_paint_material(TessProject *p, TessId level_id, int32_t x, int32_t y, uint32_t w, uint32_t h,
                                    TessId material, uint32_t merge, TessError *err) {
  TessLevel *level = tess_project_level(p, level_id);
  if (!level) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "level %u does not exist", level_id);
  if (material && !tess_project_material(p, material))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "material %u does not exist", material);
  TessLayer *layer = tess_level_material_layer(level);
  if (layer && layer->props.locked)
    return tess_error_set(err, TESS_ERR_LOCKED, LEVEL_FILE, "layer %s is locked", layer->props.name);
  Clip c;
  if (!clip_rect(level, x, y, w, h, &c)) return TESS_OK;
  TessStep *step = level_step_begin("Paint material", merge);
  if (!step) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  TessResult r;
  if (!layer) {
    if (!material) { /* clearing overrides that do not exist */
      tess_free(step);
      return TESS_OK;
    }
    TessLayerProps props;
    memset(&props, 0, sizeof props);
    props.id = level_project_take_id(p, TESS_ID_LAYER, UINT32_MAX - 1);
    memcpy(props.name, "Materials", 10);
    props.kind = TESS_LAYER_MATERIAL;
    props.visible = true;
    props.collides = true;
    props.opacity = 0.5f;
    layer = level_layer_new(&props, level->settings.width, level->settings.height);
    if (!layer) {
      tess_free(step);
      return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
    }
    if ((r = level_step_apply(p, step, level_op_layer_presence(level->id, layer, level->layer_count, true), err))) {
      level_step_abort(p, step);
      return r;
    }
  }
  TessCellWriter *wr = level_cell_writer_begin(p, level, layer);
  if (!wr) {
    level_step_abort(p, step);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  for (uint32_t yy = c.y0; yy < c.y1; yy++)
    if (!level_cell_writer_set_span(wr, c.x0, c.x1 - 1, yy, material)) return fail_nomem(p, step, wr, err);
  return finish(p, step, wr, err);
}
