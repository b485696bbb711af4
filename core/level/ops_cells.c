/* Cell edits and their undo records. While an edit runs, a writer keeps a
 * dense record per touched chunk (which cells, and their value before);
 * when it finishes, each record is packed to a 128-byte mask plus one value
 * per cell that really changed: the value the layer does not hold now. Undo
 * and redo are the same move, swapping those values with the layer's, so a
 * stroke costs 4 bytes per changed cell and a drag's strokes fold into one
 * record per chunk (the first stroke's value wins: it is the oldest). */
#include <stdlib.h>

#include "level_private.h"

#define MASK_WORDS (TESS_CHUNK_CELLS / 64)

typedef struct DenseRec {
  uint32_t key;
  uint64_t mask[MASK_WORDS];
  /* The values before the edit (the value now is in the layer). Fills start
   * from one value, so the 4 KiB array is made only when a second appears:
   * until then every recorded cell held `uniform`. */
  uint32_t uniform;
  bool any;
  uint32_t *before;
} DenseRec;

static inline uint32_t dense_before(const DenseRec *rec, uint32_t i) { return rec->before ? rec->before[i] : rec->uniform; }

/* Records cell i's value before the edit. false when out of memory (nothing recorded). */
static inline bool dense_note(DenseRec *rec, uint32_t i, uint32_t old) {
  if (!rec->any) {
    rec->any = true;
    rec->uniform = old;
  } else if (!rec->before && old != rec->uniform) {
    if (!(rec->before = tess_alloc(TESS_CHUNK_CELLS * sizeof *rec->before))) return false;
    for (uint32_t k = 0; k < TESS_CHUNK_CELLS; k++) rec->before[k] = rec->uniform;
  }
  if (rec->before) rec->before[i] = old;
  rec->mask[i / 64] |= 1ull << (i % 64);
  return true;
}

struct TessCellWriter {
  TessProject *p;
  TessLevel *level;
  TessLayer *layer;
  DenseRec **recs;
  size_t count, cap;
  uint32_t *slots; /* open addressing over recs: index + 1, 0 = free */
  size_t slot_count;
  DenseRec *last;
};

typedef struct CellRec {
  uint32_t key;   /* cy * chunks_x + cx */
  uint32_t count; /* cells in mask */
  uint64_t mask[MASK_WORDS];
  uint32_t *values; /* count values in cell order: the state not in the layer; */
  uint32_t uniform; /* or, when values is NULL, every one of them is `uniform` */
} CellRec;

static inline uint32_t rec_value(const CellRec *rec, uint32_t k) { return rec->values ? rec->values[k] : rec->uniform; }

/* Drops the array when every value is the same (fills, erases, flood fills). */
static void rec_compress(CellRec *rec) {
  if (!rec->values || !rec->count) return;
  uint32_t first = rec->values[0], differ = 0;
  for (uint32_t k = 1; k < rec->count; k++) differ |= rec->values[k] ^ first;
  if (differ) return;
  tess_free(rec->values);
  rec->values = NULL;
  rec->uniform = first;
}

typedef struct CellsOp {
  TessOp base;
  TessId level, layer;
  CellRec *recs; /* sorted by key */
  size_t count, cap;
} CellsOp;

static inline uint32_t key_hash(uint32_t key, size_t slot_count) {
  return (uint32_t)((key * 0x9E3779B1u) & (slot_count - 1));
}

TessCellWriter *level_cell_writer_begin(TessProject *p, TessLevel *level, TessLayer *layer) {
  TessCellWriter *w = tess_calloc(1, sizeof *w);
  if (!w) return NULL;
  w->p = p;
  w->level = level;
  w->layer = layer;
  return w;
}

static void writer_free(TessCellWriter *w) {
  for (size_t i = 0; i < w->count; i++) {
    tess_free(w->recs[i]->before);
    tess_free(w->recs[i]);
  }
  tess_free(w->recs);
  tess_free(w->slots);
  tess_free(w);
}

static DenseRec *writer_find(TessCellWriter *w, uint32_t key) {
  if (!w->slot_count) return NULL;
  for (size_t s = key_hash(key, w->slot_count);; s = (s + 1) & (w->slot_count - 1)) {
    uint32_t v = w->slots[s];
    if (!v) return NULL;
    if (w->recs[v - 1]->key == key) return w->recs[v - 1];
  }
}

static bool writer_rehash(TessCellWriter *w, size_t slot_count) {
  uint32_t *slots = tess_calloc(slot_count, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < w->count; i++) {
    size_t s = key_hash(w->recs[i]->key, slot_count);
    while (slots[s]) s = (s + 1) & (slot_count - 1);
    slots[s] = (uint32_t)i + 1;
  }
  tess_free(w->slots);
  w->slots = slots;
  w->slot_count = slot_count;
  return true;
}

static DenseRec *writer_add(TessCellWriter *w, uint32_t key) {
  if ((w->count + 1) * 2 > w->slot_count && !writer_rehash(w, w->slot_count ? w->slot_count * 2 : 16)) return NULL;
  if (!tess_array_reserve((void **)&w->recs, &w->cap, w->count + 1, sizeof *w->recs)) return NULL;
  DenseRec *rec = tess_calloc(1, sizeof *rec);
  if (!rec) return NULL;
  rec->key = key;
  size_t s = key_hash(key, w->slot_count);
  while (w->slots[s]) s = (s + 1) & (w->slot_count - 1);
  w->slots[s] = (uint32_t)w->count + 1;
  w->recs[w->count++] = rec;
  return rec;
}

uint32_t level_cell_writer_get(const TessCellWriter *w, uint32_t x, uint32_t y) { return tess_layer_cell(w->layer, x, y); }

bool level_cell_writer_set(TessCellWriter *w, uint32_t x, uint32_t y, uint32_t value) {
  TessLayer *layer = w->layer;
  uint32_t key = (y / TESS_CHUNK_SIZE) * layer->chunks_x + x / TESS_CHUNK_SIZE;
  uint32_t i = (y % TESS_CHUNK_SIZE) * TESS_CHUNK_SIZE + x % TESS_CHUNK_SIZE;
  DenseRec *rec = (w->last && w->last->key == key) ? w->last : writer_find(w, key);
  const TessChunk *chunk = layer->chunks ? layer->chunks[key] : NULL;
  uint32_t old = chunk ? chunk->cells[i] : 0;
  uint64_t bit = 1ull << (i % 64);
  if (!rec || !(rec->mask[i / 64] & bit)) {
    if (old == value) return true;
    if (!rec && !(rec = writer_add(w, key))) return false;
    if (!dense_note(rec, i, old)) return false;
  }
  w->last = rec;
  if (old == value) return true;
  return level_layer_write_keep(layer, key, i, value);
}

bool level_cell_writer_set_span(TessCellWriter *w, uint32_t x0, uint32_t x1, uint32_t y, uint32_t value) {
  TessLayer *layer = w->layer;
  if (!layer->chunks && !level_layer_ensure_grid(layer)) return false;
  const uint32_t row = (y % TESS_CHUNK_SIZE) * TESS_CHUNK_SIZE;
  while (x0 <= x1) {
    uint32_t cx = x0 / TESS_CHUNK_SIZE, end = cx * TESS_CHUNK_SIZE + TESS_CHUNK_SIZE - 1;
    if (end > x1) end = x1;
    uint32_t key = (y / TESS_CHUNK_SIZE) * layer->chunks_x + cx;
    TessChunk *chunk = layer->chunks[key];
    if (chunk || value) { /* no chunk and value 0: those cells already hold 0 */
      /* The record first, so a chunk is never made without one (abort frees it). */
      DenseRec *rec = (w->last && w->last->key == key) ? w->last : writer_find(w, key);
      if (!rec && !(rec = writer_add(w, key))) return false;
      w->last = rec;
      if (!chunk) {
        if (!(chunk = tess_calloc(1, sizeof *chunk))) return false;
        layer->chunks[key] = chunk;
      }
      for (uint32_t x = x0; x <= end; x++) {
        uint32_t i = row + x % TESS_CHUNK_SIZE, old = chunk->cells[i];
        if (old == value) continue;
        uint64_t bit = 1ull << (i % 64);
        if (!(rec->mask[i / 64] & bit) && !dense_note(rec, i, old)) return false;
        chunk->cells[i] = value;
        chunk->used = chunk->used + (value != 0) - (old != 0);
      }
    }
    x0 = end + 1;
  }
  return true;
}

/* Cells are written with level_layer_write_keep, so every chunk the edit
 * touched still exists: restoring never allocates and cannot fail. Chunks
 * left empty are freed here and in finish. */
static void writer_drop_empty(TessCellWriter *w) {
  for (size_t r = 0; r < w->count; r++) level_layer_drop_if_empty(w->layer, w->recs[r]->key);
}

void level_cell_writer_abort(TessCellWriter *w) {
  if (!w) return;
  for (size_t r = 0; r < w->count; r++) {
    DenseRec *rec = w->recs[r];
    TessChunk *c = w->layer->chunks ? w->layer->chunks[rec->key] : NULL;
    for (uint32_t k = 0; k < MASK_WORDS; k++)
      for (uint64_t m = rec->mask[k]; m; m &= m - 1) {
        uint32_t i = k * 64 + (uint32_t)__builtin_ctzll(m);
        /* A cell whose write failed never changed: c is NULL only when
         * nothing in this chunk was written, and then nothing differs. */
        uint32_t before = dense_before(rec, i);
        if (c && c->cells[i] != before) level_layer_write_keep(w->layer, rec->key, i, before);
      }
  }
  writer_drop_empty(w);
  writer_free(w);
}

/* ---- the packed op ---- */

static size_t cells_op_bytes(const CellsOp *op) {
  size_t bytes = sizeof *op + 16 + op->cap * sizeof(CellRec) + 16;
  for (size_t i = 0; i < op->count; i++)
    if (op->recs[i].values) bytes += (size_t)op->recs[i].count * 4 + 16;
  return bytes;
}

/* Whether the layer's cells under a record's mask all hold one value. */
static bool layer_uniform(const TessChunk *c, const CellRec *rec, uint32_t *value) {
  uint32_t first = 0, differ = 0;
  bool seen = false;
  for (uint32_t wd = 0; wd < MASK_WORDS; wd++)
    for (uint64_t m = rec->mask[wd]; m; m &= m - 1) {
      uint32_t v = c ? c->cells[wd * 64 + (uint32_t)__builtin_ctzll(m)] : 0;
      if (!seen) {
        first = v;
        seen = true;
      }
      differ |= v ^ first;
    }
  *value = first;
  return differ == 0;
}

/* Swaps the record's values with the layer's: undo and redo alike. Each
 * record then holds what the layer held, compressed to one value when the
 * layer held one value there. */
static TessResult cells_apply(TessProject *p, TessOp *base, bool forward) {
  CellsOp *op = (CellsOp *)base;
  TessLevel *level = tess_project_level(p, op->level);
  TessLayer *layer = level ? tess_level_layer(level, op->layer) : NULL;
  if (!layer || !level_layer_has_cells(layer)) return TESS_ERR_NOT_FOUND;
  if (!level_layer_ensure_grid(layer)) return TESS_ERR_NOMEM;
  /* 1: everything that can fail: chunks that will hold a value, and arrays
   * for records that will hold differing values. Nothing changes yet. */
  uint32_t **fresh = tess_calloc(op->count ? op->count : 1, sizeof *fresh);
  if (!fresh) return TESS_ERR_NOMEM;
  for (size_t r = 0; r < op->count; r++) {
    CellRec *rec = &op->recs[r];
    if (rec->key >= layer->chunks_x * layer->chunks_y) {
      for (size_t q = 0; q < r; q++) tess_free(fresh[q]);
      for (size_t q = 0; q < r; q++) level_layer_drop_if_empty(layer, op->recs[q].key);
      tess_free(fresh);
      return TESS_ERR_INVALID;
    }
    bool ok = true;
    uint32_t u;
    if (!rec->values && !layer_uniform(layer->chunks[rec->key], rec, &u))
      ok = (fresh[r] = tess_alloc((size_t)rec->count * sizeof **fresh)) != NULL;
    if (ok && !layer->chunks[rec->key]) {
      bool any = rec->values == NULL ? rec->uniform != 0 : false;
      for (uint32_t k = 0; rec->values && k < rec->count && !any; k++) any = rec->values[k] != 0;
      if (any) ok = (layer->chunks[rec->key] = tess_calloc(1, sizeof(TessChunk))) != NULL;
    }
    if (!ok) {
      for (size_t q = 0; q <= r; q++) tess_free(fresh[q]);
      for (size_t q = 0; q <= r; q++) level_layer_drop_if_empty(layer, op->recs[q].key);
      tess_free(fresh);
      return TESS_ERR_NOMEM;
    }
  }
  /* 2: swap; 3: free chunks that emptied and report each chunk. A missing
   * chunk means the layer's cells and the record's values are all 0 there. */
  for (size_t r = 0; r < op->count; r++) {
    CellRec *rec = &op->recs[r];
    TessChunk *c = layer->chunks[rec->key];
    if (c) {
      uint32_t *out = rec->values ? rec->values : fresh[r]; /* NULL: the layer holds one value */
      uint32_t k = 0, first = 0;
      bool seen = false;
      for (uint32_t wd = 0; wd < MASK_WORDS; wd++)
        for (uint64_t m = rec->mask[wd]; m; m &= m - 1) {
          uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(m);
          uint32_t v = rec_value(rec, k), old = c->cells[i];
          if (out) out[k] = old;
          if (!seen) {
            first = old;
            seen = true;
          }
          k++;
          c->used = c->used + (v != 0) - (old != 0);
          c->cells[i] = v;
        }
      rec->values = out;
      if (!out) rec->uniform = first;
      rec_compress(rec);
      level_layer_drop_if_empty(layer, rec->key);
    } else {
      tess_free(fresh[r]); /* not reached: no chunk means all zero on both sides */
    }
    level_project_note_change(p, TESS_CHANGE_CHUNK, 0, op->level, op->layer, rec->key % layer->chunks_x,
                              rec->key / layer->chunks_x);
  }
  tess_free(fresh);
  op->base.bytes = cells_op_bytes(op);
  return TESS_OK;
}

static void cells_destroy(TessOp *base, bool undone) {
  CellsOp *op = (CellsOp *)base;
  for (size_t i = 0; i < op->count; i++) tess_free(op->recs[i].values);
  tess_free(op->recs);
  tess_free(op);
}

static int find_rec(const CellsOp *op, uint32_t key, size_t *at) {
  size_t lo = 0, hi = op->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (op->recs[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  *at = lo;
  return lo < op->count && op->recs[lo].key == key;
}

/* Folds b (applied after a) into a. Both hold values from before their own
 * stroke, so a's value wins where both touched a cell (it is older). */
static bool rec_fold(CellRec *a, const CellRec *b) {
  uint64_t mask[MASK_WORDS];
  uint32_t count = 0;
  for (uint32_t w = 0; w < MASK_WORDS; w++) {
    mask[w] = a->mask[w] | b->mask[w];
    count += (uint32_t)__builtin_popcountll(mask[w]);
  }
  uint32_t *values = tess_alloc((size_t)count * sizeof *values);
  if (!values) return false;
  uint32_t ka = 0, kb = 0, n = 0;
  for (uint32_t w = 0; w < MASK_WORDS; w++)
    for (uint64_t m = mask[w]; m; m &= m - 1) {
      uint64_t bit = m & (~m + 1);
      bool in_a = (a->mask[w] & bit) != 0, in_b = (b->mask[w] & bit) != 0;
      values[n++] = in_a ? rec_value(a, ka) : rec_value(b, kb);
      ka += in_a;
      kb += in_b;
    }
  tess_free(a->values);
  a->values = values;
  a->count = n;
  memcpy(a->mask, mask, sizeof mask);
  rec_compress(a);
  return true;
}

static bool cells_merge(TessOp *base, TessOp *next_base) {
  CellsOp *op = (CellsOp *)base, *next = (CellsOp *)next_base;
  if (op->level != next->level || op->layer != next->layer) return false;
  /* Room for every new record first, so the fold cannot stop half way. */
  if (!tess_array_reserve((void **)&op->recs, &op->cap, op->count + next->count, sizeof *op->recs)) return false;
  for (size_t r = 0; r < next->count; r++) {
    CellRec *b = &next->recs[r];
    size_t at;
    if (find_rec(op, b->key, &at)) {
      if (!rec_fold(&op->recs[at], b)) {
        /* Out of memory: the caller keeps `next` as an op of its own. The
         * records already folded stay valid both ways (each op swaps
         * exactly what it holds), so only the byte count needs updating. */
        op->base.bytes = cells_op_bytes(op);
        next->base.bytes = cells_op_bytes(next);
        return false;
      }
    } else {
      memmove(&op->recs[at + 1], &op->recs[at], (op->count - at) * sizeof *op->recs);
      op->recs[at] = *b;
      b->values = NULL;
      b->count = 0;
      memset(b->mask, 0, sizeof b->mask);
      op->count++;
    }
  }
  op->base.bytes = cells_op_bytes(op);
  return true;
}

static const TessOpClass cells_class = {"cells", cells_apply, cells_destroy, cells_merge};

static int rec_key_cmp(const void *a, const void *b) {
  uint32_t ka = ((const CellRec *)a)->key, kb = ((const CellRec *)b)->key;
  return ka < kb ? -1 : ka > kb;
}

TessResult level_cell_writer_finish(TessCellWriter *w, TessOp **op_out, TessError *err) {
  *op_out = NULL;
  CellsOp *op = level_op_new(sizeof *op, &cells_class);
  if (!op || (w->count && !(op->recs = tess_calloc(w->count, sizeof *op->recs)))) {
    tess_free(op);
    level_cell_writer_abort(w);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  op->cap = w->count;
  op->level = w->level->id;
  op->layer = w->layer->props.id;
  for (size_t r = 0; r < w->count; r++) {
    DenseRec *d = w->recs[r];
    CellRec *rec = &op->recs[op->count];
    const TessChunk *c = w->layer->chunks ? w->layer->chunks[d->key] : NULL;
    uint32_t n = 0;
    memset(rec->mask, 0, sizeof rec->mask);
    for (uint32_t wd = 0; wd < MASK_WORDS; wd++)
      for (uint64_t m = d->mask[wd]; m; m &= m - 1) {
        uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(m);
        if (dense_before(d, i) != (c ? c->cells[i] : 0)) { /* painted and painted back is no change */
          rec->mask[wd] |= 1ull << (i % 64);
          n++;
        }
      }
    if (!n) continue;
    rec->key = d->key;
    rec->count = n;
    if (!d->before) { /* every cell held one value: so does the record */
      rec->values = NULL;
      rec->uniform = d->uniform;
      op->count++;
      continue;
    }
    rec->values = tess_alloc((size_t)n * sizeof *rec->values);
    if (!rec->values) {
      cells_destroy(&op->base, false);
      level_cell_writer_abort(w);
      return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
    }
    uint32_t k = 0;
    for (uint32_t wd = 0; wd < MASK_WORDS; wd++)
      for (uint64_t m = rec->mask[wd]; m; m &= m - 1) {
        uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(m);
        rec->values[k++] = dense_before(d, i);
      }
    rec_compress(rec);
    op->count++;
  }
  uint32_t chunks_x = w->layer->chunks_x;
  TessProject *p = w->p;
  writer_drop_empty(w);
  writer_free(w);
  if (!op->count) {
    cells_destroy(&op->base, false);
    return TESS_OK;
  }
  qsort(op->recs, op->count, sizeof *op->recs, rec_key_cmp);
  for (size_t r = 0; r < op->count; r++)
    level_project_note_change(p, TESS_CHANGE_CHUNK, 0, op->level, op->layer, op->recs[r].key % chunks_x,
                              op->recs[r].key / chunks_x);
  op->base.bytes = cells_op_bytes(op);
  *op_out = &op->base;
  return TESS_OK;
}
