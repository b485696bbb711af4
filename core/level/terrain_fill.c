/* The Wang fill behind the terrain brush, rectangle and fill (level.h,
 * "Terrain brush", states the rule).
 *
 * The edit works on a frame: the painted cells' bounding box grown by 2 (the
 * neighbours that are re-chosen, and one ring beyond them whose tiles only
 * constrain). Corners and edges are stored once each, on grids shared by the
 * cells that touch them (a corner by 4 cells, an edge by 2), so "my top-right
 * corner is your bottom-left" needs no bookkeeping: each position holds a
 * colour and a flag saying whether it is required. Outside cells and painted
 * cells set required colours first; then each re-chosen cell, in row order,
 * takes the best tile and makes its labels required for the cells after it.
 * On a complete set a tile matching every required position always exists,
 * so every shared corner and edge agrees. */
#include <stdlib.h>

#include "level_private.h"

#define HARD 0x100u
#define NOWHERE 0xFFFFFFFFu

/* The set's tiles sorted by their label key, for exact lookups, with weights. */
typedef struct Choice {
  uint64_t key;  /* the 8 labels (masked by kind), one byte each */
  uint32_t tile; /* tile index */
  float weight;  /* tile probability x its colours' */
} Choice;

typedef struct Fill {
  const TessTerrainSet *set;
  TessId tileset;
  uint8_t mask; /* positions the kind looks at */
  uint32_t color, seed;
  Choice *choices;        /* set->tile_count, sorted by key */
  uint32_t *candidates;   /* scratch, set->tile_count */
  const uint8_t **labels; /* per tile index of the tileset: its labels or NULL */
  uint32_t tileset_tiles;
  /* The frame: level cells [ox, ox + w) x [oy, oy + h). */
  int64_t ox, oy;
  uint32_t w, h;
  uint32_t *cur;     /* w * h cells as they are (0 outside the level) */
  uint8_t *state;    /* 0 untouched, 1 re-chosen neighbour, 2 painted */
  uint16_t *corners; /* (w + 1) * (h + 1) */
  uint16_t *hedges;  /* w * (h + 1): top edge of cell (x, y) is hedges[y * w + x] */
  uint16_t *vedges;  /* (w + 1) * h: left edge of cell (x, y) is vedges[y * (w + 1) + x] */
  /* The tiles of the painted colour on every position: choices[solid_lo ..
   * solid_lo + solid_n), the answer for every painted cell when there are any
   * (its positions are all required to be the colour, and such a tile
   * matches them all), which keeps a million-cell fill to a pick per cell. */
  uint32_t solid_lo, solid_n;
  double solid_total;
} Fill;

static uint64_t key_of(const uint8_t wang[TESS_TERRAIN_POSITIONS], uint8_t mask) {
  uint64_t k = 0;
  for (int i = 0; i < TESS_TERRAIN_POSITIONS; i++) k |= (uint64_t)((mask >> i) & 1 ? wang[i] : 0) << (8 * i);
  return k;
}

static int cmp_choice(const void *a, const void *b) {
  const Choice *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->tile < y->tile ? -1 : x->tile > y->tile;
}

/* The 8 positions of frame cell (x, y), in wangid order. */
static void positions(const Fill *f, uint32_t x, uint32_t y, uint16_t *p[TESS_TERRAIN_POSITIONS]) {
  size_t v = (size_t)y * (f->w + 1) + x;
  p[0] = &f->hedges[(size_t)y * f->w + x];
  p[1] = &f->corners[v + 1];
  p[2] = &f->vedges[v + 1];
  p[3] = &f->corners[v + f->w + 2];
  p[4] = &f->hedges[(size_t)(y + 1) * f->w + x];
  p[5] = &f->corners[v + f->w + 1];
  p[6] = &f->vedges[v];
  p[7] = &f->corners[v];
}

static const uint8_t *cell_labels(const Fill *f, uint32_t cell) {
  if (!cell || (cell & TESS_CELL_FLIPS) || TESS_CELL_TILESET(cell) != f->tileset) return NULL;
  uint32_t t = TESS_CELL_TILE(cell);
  return t < f->tileset_tiles ? f->labels[t] : NULL;
}

/* Makes the cell's labels required on its positions; `keep` leaves the ones
 * already required alone (a chosen tile that could not match everything
 * must not rub out the painted colour for the cells after it). */
static void require(const Fill *f, uint32_t x, uint32_t y, const uint8_t wang[TESS_TERRAIN_POSITIONS], bool keep) {
  uint16_t *p[TESS_TERRAIN_POSITIONS];
  positions(f, x, y, p);
  for (int i = 0; i < TESS_TERRAIN_POSITIONS; i++)
    if ((f->mask >> i) & 1 && !(keep && (*p[i] & HARD))) *p[i] = (uint16_t)(HARD | wang[i]);
}

/* A deterministic number in [0, 1) for cell (x, y) of this seed. */
static double cell_random(uint32_t seed, int64_t x, int64_t y) {
  uint64_t z = ((uint64_t)seed << 32) ^ ((uint64_t)(uint32_t)x * 0x9E3779B97F4A7C15ull) ^
               ((uint64_t)(uint32_t)y * 0xC2B2AE3D27D4EB4Full);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* Picks among choices[lo, lo + n), whose weights sum to total. */
static uint32_t pick_range(const Fill *f, uint32_t lo, uint32_t n, double total, int64_t x, int64_t y) {
  if (n == 1 || total <= 0) return f->choices[lo].tile;
  double u = cell_random(f->seed, x, y) * total;
  for (uint32_t i = lo; i < lo + n; i++) {
    u -= f->choices[i].weight;
    if (u < 0) return f->choices[i].tile;
  }
  return f->choices[lo + n - 1].tile;
}

/* Picks among n equally good choices by weight. */
static uint32_t pick(const Fill *f, const uint32_t *idx, uint32_t n, int64_t x, int64_t y) {
  double total = 0;
  for (uint32_t i = 0; i < n; i++) total += f->choices[idx[i]].weight;
  if (n == 1 || total <= 0) return f->choices[idx[0]].tile;
  double u = cell_random(f->seed, x, y) * total;
  for (uint32_t i = 0; i < n; i++) {
    u -= f->choices[idx[i]].weight;
    if (u < 0) return f->choices[idx[i]].tile;
  }
  return f->choices[idx[n - 1]].tile;
}

/* choices[*lo, *lo + n) are the tiles whose key is `key`; returns n. */
static uint32_t find_key(const Fill *f, uint64_t key, uint32_t *lo_out) {
  uint32_t lo = 0, hi = f->set->tile_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (f->choices[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  uint32_t n = 0;
  while (lo + n < f->set->tile_count && f->choices[lo + n].key == key) n++;
  *lo_out = lo;
  return n;
}

/* The best tile for labels `want` (required where `hard` has the bit):
 * exact match by key when every position has a colour, else a scan scoring
 * required matches first, then wished ones. */
static uint32_t choose(Fill *f, const uint8_t want[TESS_TERRAIN_POSITIONS], uint8_t hard, int64_t x, int64_t y) {
  bool full = true;
  for (int i = 0; i < TESS_TERRAIN_POSITIONS; i++)
    if ((f->mask >> i) & 1 && !want[i]) full = false;
  uint32_t n = 0;
  if (full) {
    uint32_t lo;
    n = find_key(f, key_of(want, f->mask), &lo);
    for (uint32_t i = 0; i < n; i++) f->candidates[i] = lo + i;
    if (n) return pick(f, f->candidates, n, x, y);
  }
  int best = -1;
  for (uint32_t i = 0; i < f->set->tile_count; i++) {
    const uint8_t *lab = f->labels[f->choices[i].tile];
    int score = 0;
    for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++) {
      if (!((f->mask >> k) & 1) || lab[k] != want[k]) continue;
      if ((hard >> k) & 1) score += want[k] ? 16 : 0;
      else score += 1;
    }
    if (score > best) {
      best = score;
      n = 0;
    }
    if (score == best) f->candidates[n++] = i;
  }
  return pick(f, f->candidates, n, x, y);
}

static void fill_free(Fill *f) {
  tess_free(f->choices);
  tess_free(f->candidates);
  tess_free(f->labels);
  tess_free(f->cur);
  tess_free(f->state);
  tess_free(f->corners);
  tess_free(f->hedges);
  tess_free(f->vedges);
}

static bool fill_prepare_set(Fill *f, const TessTileset *ts) {
  const TessTerrainSet *set = f->set;
  f->tileset_tiles = ts->tile_count;
  f->labels = tess_calloc(ts->tile_count ? ts->tile_count : 1, sizeof *f->labels);
  f->choices = tess_calloc(set->tile_count, sizeof *f->choices);
  f->candidates = tess_calloc(set->tile_count, sizeof *f->candidates);
  if (!f->labels || !f->choices || !f->candidates) return false;
  for (uint32_t i = 0; i < set->tile_count; i++) {
    const TessTerrainTile *t = &set->tiles[i];
    f->labels[t->tile] = t->wang;
    double w = t->probability;
    for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++)
      if ((f->mask >> k) & 1 && t->wang[k]) w *= set->colors[t->wang[k] - 1].probability;
    f->choices[i] = (Choice){key_of(t->wang, f->mask), t->tile, (float)w};
  }
  qsort(f->choices, set->tile_count, sizeof *f->choices, cmp_choice);
  uint8_t solid[TESS_TERRAIN_POSITIONS];
  memset(solid, (int)f->color, sizeof solid);
  f->solid_n = find_key(f, key_of(solid, f->mask), &f->solid_lo);
  f->solid_total = 0;
  for (uint32_t i = 0; i < f->solid_n; i++) f->solid_total += f->choices[f->solid_lo + i].weight;
  return true;
}

/* Painted cells as a bitmap over [mx, mx + mw) x [my, my + mh) of the level. */
typedef struct Painted {
  uint32_t mx, my, mw, mh;
  const uint8_t *bits;
} Painted;

/* Reads the frame's cells and marks painted cells and their neighbours. */
static bool fill_frame(Fill *f, const TessLevel *level, const TessLayer *layer, const Painted *pt) {
  f->ox = (int64_t)pt->mx - 2;
  f->oy = (int64_t)pt->my - 2;
  f->w = pt->mw + 4;
  f->h = pt->mh + 4;
  size_t cells = (size_t)f->w * f->h;
  f->cur = tess_alloc(cells * sizeof *f->cur);
  f->state = tess_calloc(cells, 1);
  f->corners = tess_calloc((size_t)(f->w + 1) * (f->h + 1), sizeof *f->corners);
  f->hedges = tess_calloc((size_t)f->w * (f->h + 1), sizeof *f->hedges);
  f->vedges = tess_calloc((size_t)(f->w + 1) * f->h, sizeof *f->vedges);
  if (!f->cur || !f->state || !f->corners || !f->hedges || !f->vedges) return false;
  const int64_t W = level->settings.width, H = level->settings.height;
  for (uint32_t y = 0; y < f->h; y++) {
    int64_t ly = f->oy + y;
    uint32_t *cur = &f->cur[(size_t)y * f->w];
    for (uint32_t x = 0; x < f->w; x++) {
      int64_t lx = f->ox + x;
      cur[x] = lx >= 0 && ly >= 0 && lx < W && ly < H ? tess_layer_cell(layer, (uint32_t)lx, (uint32_t)ly) : 0;
    }
    if (y < 1 || y + 1 >= f->h) continue; /* rows of the ring: never re-chosen */
    /* Frame row y is bitmap row y - 2; a cell is painted (2) or next to a painted one (1). */
    const uint8_t *rows[3];
    for (int d = 0; d < 3; d++) {
      int64_t r = (int64_t)y - 3 + d;
      rows[d] = r >= 0 && r < pt->mh ? &pt->bits[(size_t)r * pt->mw] : NULL;
    }
    uint8_t *st = &f->state[(size_t)y * f->w];
    for (uint32_t x = 1; x + 1 < f->w; x++) {
      int64_t lx = f->ox + x;
      if (lx < 0 || lx >= W || ly < 0 || ly >= H) continue;
      int64_t bx = (int64_t)x - 2; /* bitmap column */
      if (rows[1] && bx >= 0 && bx < pt->mw && rows[1][bx]) {
        st[x] = 2;
        continue;
      }
      for (int d = 0; d < 3 && !st[x]; d++)
        for (int64_t c = bx - 1; rows[d] && c <= bx + 1; c++)
          if (c >= 0 && c < pt->mw && rows[d][c]) {
            st[x] = 1;
            break;
          }
    }
  }
  return true;
}

/* A painted cell whose 8 neighbours are all painted: no cell that reads its
 * positions is chosen by labels when the colour has tiles of its own. */
static bool inner(const Fill *f, uint32_t x, uint32_t y) {
  for (int dy = -1; dy <= 1; dy++) {
    const uint8_t *row = &f->state[(size_t)(y + (uint32_t)dy) * f->w + x - 1];
    if (row[0] != 2 || row[1] != 2 || row[2] != 2) return false;
  }
  return true;
}

/* Chooses every re-chosen cell; new cells go to `out` (w * h, NOWHERE = keep). */
static void fill_choose(Fill *f, uint32_t *out) {
  uint8_t wang[TESS_TERRAIN_POSITIONS];
  /* Required by cells that stay: their labels on the positions they share. */
  for (uint32_t y = 0; y < f->h; y++)
    for (uint32_t x = 0; x < f->w; x++) {
      const uint8_t *lab = f->state[(size_t)y * f->w + x] ? NULL : cell_labels(f, f->cur[(size_t)y * f->w + x]);
      if (lab) require(f, x, y, lab, false);
    }
  memset(wang, (int)f->color, sizeof wang);
  for (uint32_t y = 0; y < f->h; y++)
    for (uint32_t x = 0; x < f->w; x++)
      if (f->state[(size_t)y * f->w + x] == 2 && !(f->solid_n && inner(f, x, y))) require(f, x, y, wang, false);
  for (uint32_t y = 0; y < f->h; y++)
    for (uint32_t x = 0; x < f->w; x++) {
      size_t i = (size_t)y * f->w + x;
      out[i] = NOWHERE;
      if (!f->state[i]) continue;
      if (f->state[i] == 2 && f->solid_n) {
        out[i] = TESS_CELL_MAKE(f->tileset, pick_range(f, f->solid_lo, f->solid_n, f->solid_total, f->ox + x, f->oy + y), 0);
        continue;
      }
      uint16_t *p[TESS_TERRAIN_POSITIONS];
      positions(f, x, y, p);
      const uint8_t *own = cell_labels(f, f->cur[i]);
      uint8_t want[TESS_TERRAIN_POSITIONS] = {0}, hard = 0;
      for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++) {
        if (*p[k] & HARD) {
          want[k] = (uint8_t)*p[k];
          hard |= (uint8_t)(1u << k);
        } else {
          want[k] = own ? own[k] : 0;
        }
      }
      uint32_t tile = choose(f, want, hard, f->ox + x, f->oy + y);
      require(f, x, y, f->labels[tile], true);
      out[i] = TESS_CELL_MAKE(f->tileset, tile, 0);
    }
}

/* The whole edit: checks, frame, choice, one cell writer, one undo step. */
TessResult level_terrain_apply(TessProject *p, TessLevel *level, TessLayer *layer, const TessTerrainBrush *brush,
                               const uint8_t *bits, uint32_t mx, uint32_t my, uint32_t mw, uint32_t mh,
                               const char *label, uint32_t merge, TessError *err) {
  const TessTileset *ts = tess_project_tileset(p, brush->tileset);
  if (!ts) return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "tileset %u does not exist", brush->tileset);
  if (brush->set >= ts->terrain_count)
    return tess_error_set(err, TESS_ERR_NOT_FOUND, LEVEL_FILE, "tileset %s has no terrain set %u", ts->name,
                          brush->set);
  const TessTerrainSet *set = &ts->terrains[brush->set];
  if (brush->color < 1 || brush->color > set->color_count)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "terrain set %s has no colour %u (it has %u)",
                          set->name, brush->color, set->color_count);
  if (!set->tile_count)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "terrain set %s labels no tiles", set->name);
  if (layer->props.kind != TESS_LAYER_TILES)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s holds no tiles", layer->props.name);
  if (!mw || !mh) return TESS_OK;
  Fill f = {.set = set, .tileset = ts->id, .color = brush->color, .seed = brush->seed};
  f.mask = tess_terrain_kind_mask((TessTerrainKind)set->kind);
  Painted pt = {mx, my, mw, mh, bits};
  uint32_t *out = NULL;
  bool ok = fill_prepare_set(&f, ts) && fill_frame(&f, level, layer, &pt) &&
            (out = tess_alloc((size_t)f.w * f.h * sizeof *out)) != NULL;
  TessStep *step = ok ? level_step_begin(label, merge) : NULL;
  TessCellWriter *wr = step ? level_cell_writer_begin(p, level, layer) : NULL;
  if (!wr) {
    tess_free(step);
    tess_free(out);
    fill_free(&f);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  fill_choose(&f, out);
  for (uint32_t y = 0; ok && y < f.h; y++)
    for (uint32_t x = 0; ok && x < f.w; x++) {
      size_t i = (size_t)y * f.w + x;
      if (out[i] != NOWHERE && out[i] != f.cur[i])
        ok = level_cell_writer_set(wr, (uint32_t)(f.ox + x), (uint32_t)(f.oy + y), out[i]);
    }
  tess_free(out);
  fill_free(&f);
  if (!ok) {
    level_cell_writer_abort(wr);
    level_step_abort(p, step);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  TessOp *op = NULL;
  TessResult r = level_cell_writer_finish(wr, &op, err);
  if (r == TESS_OK && op && !level_step_add_applied(step, op)) {
    op->cls->apply(p, op, false);
    op->cls->destroy(op, true);
    r = tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  if (r) {
    level_step_abort(p, step);
    return r;
  }
  level_step_commit(p, step);
  return TESS_OK;
}
