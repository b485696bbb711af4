/* The tile map as a collider. Each cell knows which of its sides face open
 * space and which corners are convex and unshared, so a body sliding or
 * rolling across a floor of separate tiles only ever meets the top faces
 * (Infiniworld: a corner or edge two solid cells share is never tested).
 * A body is tested only against the cells under its bounding box, grown
 * by its speculative margin (|v| dt): a fast body meets the face it is
 * heading for before it can cross it. */
#include <string.h>

#include "physics_poly_lanes.h"
#include "physics_private.h"

void physics_map_free(TileMap *map) {
  tess_free(map->cells);
  tess_free(map->filled);
  tess_free(map->filled_before);
  tess_free(map->hot);
  tess_free(map->hot_runs);
  tess_free(map->materials);
  tess_free(map->piece_start);
  tess_free(map->pieces);
  memset(map, 0, sizeof *map);
}

void tess_world_clear_tile_map(TessWorld *w) {
  physics_map_free(&w->map);
  w->has_map = false;
  /* contacts with the old map are gone */
  uint32_t k = 0;
  for (uint32_t i = 0; i < w->contact_count; i++)
    if (!(w->contacts[i].flags & CONTACT_MAP)) w->contacts[k++] = w->contacts[i];
  w->contact_count = k;
}

bool tess_world_has_tile_map(const TessWorld *w) { return w->has_map; }

static const MapCell *cell_at(const TileMap *m, int32_t x, int32_t y) {
  if (x < 0 || y < 0 || (uint32_t)x >= m->width || (uint32_t)y >= m->height) return NULL;
  return &m->cells[(size_t)y * m->width + (uint32_t)x];
}

/* The length of [a, b] (either order) within [0, side]: a piece of a tile
 * drawn larger than its cell may run past the cell's side. */
static float span_in(float a, float b, float side) {
  float lo = physics_minf(a, b), hi = physics_maxf(a, b);
  if (lo < 0.0f) lo = 0.0f;
  if (hi > side) hi = side;
  return hi > lo ? hi - lo : 0.0f;
}

/* Sides of a traced cell that its pieces cover completely (edges on the side line summing to its length). */
static uint8_t traced_covers(const TessPolygon *pieces, uint32_t n, float cw, float ch) {
  float len[4] = {0, 0, 0, 0}; /* left, right, top, bottom */
  float ex = cw * 1e-3f, ey = ch * 1e-3f;
  for (uint32_t p = 0; p < n; p++)
    for (uint32_t i = 0; i < pieces[p].count; i++) {
      TessVec2 a = pieces[p].v[i], b = pieces[p].v[(i + 1) % pieces[p].count];
      if (fabsf(a.x) < ex && fabsf(b.x) < ex) len[0] += span_in(a.y, b.y, ch);
      if (fabsf(a.x - cw) < ex && fabsf(b.x - cw) < ex) len[1] += span_in(a.y, b.y, ch);
      if (fabsf(a.y) < ey && fabsf(b.y) < ey) len[2] += span_in(a.x, b.x, cw);
      if (fabsf(a.y - ch) < ey && fabsf(b.y - ch) < ey) len[3] += span_in(a.x, b.x, cw);
    }
  uint8_t c = 0;
  if (len[0] >= ch * 0.999f) c |= SIDE_LEFT;
  if (len[1] >= ch * 0.999f) c |= SIDE_RIGHT;
  if (len[2] >= cw * 0.999f) c |= SIDE_TOP;
  if (len[3] >= cw * 0.999f) c |= SIDE_BOTTOM;
  return c;
}

/* Whole cells a piece (cell coordinates from the cell's top-left) reaches
 * beyond its cell, capped so that a hostile piece cannot make every lookup
 * walk the whole map. */
static uint32_t cells_beyond(float v, float inv) {
  float c = ceilf(v * inv - 1e-4f);
  return c > 0.0f ? (c < 64.0f ? (uint32_t)c : 64u) : 0u;
}

static void map_grow_reach(TileMap *m, const TessPolygon *piece) {
  for (uint32_t k = 0; k < piece->count; k++) {
    TessVec2 v = piece->v[k];
    uint32_t l = cells_beyond(-v.x, m->inv_w), t = cells_beyond(-v.y, m->inv_h);
    uint32_t r = cells_beyond(v.x - m->cell_w, m->inv_w), b = cells_beyond(v.y - m->cell_h, m->inv_h);
    if (l > m->reach_l) m->reach_l = l;
    if (t > m->reach_t) m->reach_t = t;
    if (r > m->reach_r) m->reach_r = r;
    if (b > m->reach_b) m->reach_b = b;
  }
}

static TessAABB cell_box(const TileMap *m, uint32_t x, uint32_t y);

/* The edge of a slab's piece on face f (0 top, 1 right, 2 bottom, 3 left), by its normal. */
static uint32_t slab_edge(const MapPiece *mp, uint32_t f) {
  static const float nx[4] = {0, 1, 0, -1}, ny[4] = {-1, 0, 1, 0};
  for (uint32_t k = 0; k < mp->poly.count; k++)
    if (mp->poly.n[k].x * nx[f] + mp->poly.n[k].y * ny[f] > 0.99f) return k;
  return 0;
}

/* Cell i takes part in runs along face f: a full cell with that side open, or a slab across the
 * run's direction whose face there is open (not on a side its neighbour covers). */
static bool run_cell(const TileMap *m, size_t i, uint32_t f) {
  static const uint8_t sides[4] = {SIDE_TOP, SIDE_RIGHT, SIDE_BOTTOM, SIDE_LEFT};
  const MapCell *c = &m->cells[i];
  if (c->kind == TESS_MAP_FULL) return (c->free_sides & sides[f]) != 0;
  if (c->kind != TESS_MAP_TRACED || !(c->slab & ((f & 1u) ? 2u : 1u))) return false;
  const MapPiece *mp = &m->pieces[m->piece_start[i]];
  return !mp->boundary[slab_edge(mp, f)];
}

/* Where cell i's solid lies across a run along face f (y for top and bottom faces, x for the
 * sides): the cell's span, or its slab's. */
static void run_span(const TileMap *m, size_t i, uint32_t f, float *lo, float *hi) {
  bool across = (f & 1u) == 0;
  uint32_t x = (uint32_t)(i % m->width), y = (uint32_t)(i / m->width);
  TessAABB b = m->cells[i].kind == TESS_MAP_FULL ? cell_box(m, x, y)
                                                 : physics_poly_aabb(&m->pieces[m->piece_start[i]].poly, tess_transform_identity());
  *lo = across ? b.lower.y : b.lower.x;
  *hi = across ? b.upper.y : b.upper.x;
}

/* Two neighbouring cells a, b whose faces f continue one flat run: both take part, their solid
 * spans the same across the run (so the faces are on one line, no step), one surface (so the
 * joined contact's material is right at every point: the solver has one friction, restitution
 * and tangential efficiency per contact), one one-way flag. */
static bool run_continues(const TileMap *m, size_t a, size_t b, uint32_t f) {
  const MapCell *ca = &m->cells[a], *cb = &m->cells[b];
  if (!run_cell(m, a, f) || !run_cell(m, b, f) || ca->one_way != cb->one_way) return false;
  if (ca->kind != cb->kind || ca->kind == TESS_MAP_TRACED) {
    float alo, ahi, blo, bhi;
    run_span(m, a, f, &alo, &ahi);
    run_span(m, b, f, &blo, &bhi);
    if (alo != blo || ahi != bhi) return false;
  }
  if (ca->material == cb->material) return true;
  const TessMapMaterial *p = &m->materials[ca->material], *q = &m->materials[cb->material];
  return p->friction == q->friction && p->restitution == q->restitution && p->tangential == q->tangential;
}

/* Whether traced cell i's only piece is an upright rectangle across its whole width (1) or
 * height (2), within the cell. */
static uint8_t slab_kind(const TileMap *m, size_t i) {
  if (m->piece_start[i + 1] - m->piece_start[i] != 1) return 0;
  const PhysPoly *p = &m->pieces[m->piece_start[i]].poly;
  if (p->count != 4) return 0;
  for (uint32_t k = 0; k < 4; k++)
    if (fabsf(p->n[k].x) > 1e-6f && fabsf(p->n[k].y) > 1e-6f) return 0;
  TessAABB b = physics_poly_aabb(p, tess_transform_identity());
  TessAABB c = cell_box(m, (uint32_t)(i % m->width), (uint32_t)(i / m->width));
  float ex = m->cell_w * 1e-3f, ey = m->cell_h * 1e-3f;
  if (b.lower.x < c.lower.x - ex || b.upper.x > c.upper.x + ex || b.lower.y < c.lower.y - ey || b.upper.y > c.upper.y + ey)
    return 0;
  uint8_t k = 0;
  if (b.lower.x <= c.lower.x + ex && b.upper.x >= c.upper.x - ex) k |= 1u;
  if (b.lower.y <= c.lower.y + ey && b.upper.y >= c.upper.y - ey) k |= 2u;
  return k;
}

/* Cell (x, y)'s runs, from its left and upper neighbours' (set before it, in row order). */
static void map_runs_set(TileMap *m, uint32_t x, uint32_t y) {
  size_t i = (size_t)y * m->width + x;
  MapCell *c = &m->cells[i];
  if (c->kind == TESS_MAP_TRACED) c->slab = slab_kind(m, i);
  for (uint32_t f = 0; f < 4; f++) {
    bool across = (f & 1u) == 0; /* top and bottom faces run along x */
    uint32_t prev_at = across ? x : y;
    size_t prev = across ? i - 1 : i - m->width;
    c->run_start[f] = (uint16_t)(prev_at > 0 && run_continues(m, prev, i, f) ? m->cells[prev].run_start[f] : prev_at);
  }
}

/* The bits set in x, inline: without -mpopcnt the builtin is a call into libgcc. */
static inline uint32_t bits_set(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* The non-empty cells' hot words in cell order, and each bit word's first rank (map.filled is
 * set). */
static bool map_hot_build(TileMap *m) {
  size_t n = (size_t)m->width * m->height, words = (n + 63) / 64;
  uint32_t filled = 0;
  m->filled_before = tess_calloc(words, sizeof(uint32_t));
  for (size_t k = 0; m->filled_before && k < words; k++) {
    m->filled_before[k] = filled;
    filled += bits_set(m->filled[k]);
  }
  m->filled_count = filled;
  m->hot = tess_calloc(filled ? filled : 1, sizeof(uint32_t));
  m->hot_runs = tess_calloc(4 * (size_t)(filled ? filled : 1), sizeof(uint16_t));
  if (!m->filled_before || !m->hot || !m->hot_runs) return false;
  uint32_t r = 0;
  for (size_t i = 0; i < n; i++) {
    const MapCell *c = &m->cells[i];
    if (c->kind == TESS_MAP_EMPTY) continue;
    memcpy(&m->hot_runs[4 * (size_t)r], c->run_start, sizeof c->run_start);
    m->hot[r++] = MAP_HOT(c->kind, c->one_way, c->free_sides, c->corners, c->material);
  }
  return true;
}

static void map_slope_runs(TileMap *m);

TessResult tess_world_set_tile_map(TessWorld *w, const TessTileMapDef *def, TessError *err) {
  TESS_ASSERT(!w->locked && "tess_world_set_tile_map called during a step");
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "tile map", "cannot change the map during a step");
  if (!def || def->width == 0 || def->height == 0)
    return tess_error_set(err, TESS_ERR_INVALID, "tile map", "the grid is empty (0 x 0)");
  if (def->width > TESS_LEVEL_MAX_CELLS || def->height > TESS_LEVEL_MAX_CELLS)
    return tess_error_set(err, TESS_ERR_LIMIT, "tile map", "grid %u x %u exceeds %d per side", def->width, def->height,
                          TESS_LEVEL_MAX_CELLS);
  if (!isfinite(def->cell_w) || !isfinite(def->cell_h) || !(def->cell_w > 0.0f) || !(def->cell_h > 0.0f) ||
      !tess_v2_is_finite(def->origin))
    return tess_error_set(err, TESS_ERR_INVALID, "tile map", "cell size must be finite and > 0");
  if (!def->kinds) return tess_error_set(err, TESS_ERR_INVALID, "tile map", "no cell kinds given");
  if (def->material_count < 1 || !def->material_list)
    return tess_error_set(err, TESS_ERR_INVALID, "tile map", "at least one material is needed");
  for (uint32_t i = 0; i < def->material_count; i++) {
    const TessMapMaterial *m = &def->material_list[i];
    TessSurface surface = {m->friction, m->restitution, m->tangential};
    const char *bad = tess_surface_bad_field(surface);
    if (!bad && !(isfinite(m->density) && m->density >= 0.0f)) bad = "density";
    if (!bad && m->kind > TESS_MAP_MATERIAL_FLUID) bad = "kind";
    if (bad) return tess_error_set(err, TESS_ERR_INVALID, "tile map", "material %u has a non-finite or out-of-range %s", i, bad);
  }
  size_t n = (size_t)def->width * def->height;
  TileMap map;
  memset(&map, 0, sizeof map);
  map.width = def->width;
  map.height = def->height;
  map.cell_w = def->cell_w;
  map.cell_h = def->cell_h;
  map.inv_w = 1.0f / def->cell_w;
  map.inv_h = 1.0f / def->cell_h;
  map.origin = def->origin;
  map.cells = tess_calloc(n, sizeof(MapCell));
  map.filled = tess_calloc((n + 63) / 64, sizeof(uint64_t));
  map.materials = tess_calloc(def->material_count, sizeof(TessMapMaterial));
  if (!map.cells || !map.filled || !map.materials) {
    physics_map_free(&map);
    return tess_error_set(err, TESS_ERR_NOMEM, "tile map", "out of memory");
  }
  memcpy(map.materials, def->material_list, def->material_count * sizeof(TessMapMaterial));
  for (uint32_t i = 0; i < def->material_count; i++)
    if (def->material_list[i].kind == TESS_MAP_MATERIAL_FLUID) map.has_fluid = true;
  map.material_count = def->material_count;
  bool any_traced = false;
  for (size_t i = 0; i < n; i++) {
    uint8_t kind = def->kinds[i];
    if (kind > TESS_MAP_TRACED) {
      physics_map_free(&map);
      return tess_error_set_at(err, TESS_ERR_INVALID, "tile map", TESS_PLACE_OFFSET, i, "unknown cell kind %u", kind);
    }
    uint16_t mat = def->materials ? def->materials[i] : 0;
    if (mat >= def->material_count) {
      physics_map_free(&map);
      return tess_error_set_at(err, TESS_ERR_INVALID, "tile map", TESS_PLACE_OFFSET, i, "unknown material %u", mat);
    }
    if (kind == TESS_MAP_TRACED) {
      if (!def->piece_start || !def->pieces) {
        physics_map_free(&map);
        return tess_error_set(err, TESS_ERR_INVALID, "tile map", "traced cell without pieces");
      }
      any_traced = true;
    }
    map.cells[i].kind = kind;
    if (kind != TESS_MAP_EMPTY) map.filled[i / 64] |= 1ull << (i % 64);
    map.cells[i].material = mat;
    map.cells[i].one_way = def->one_way && def->one_way[i] ? 1 : 0;
  }
  if (any_traced) {
    map.piece_start = tess_calloc(n + 1, sizeof(uint32_t));
    if (!map.piece_start) {
      physics_map_free(&map);
      return tess_error_set(err, TESS_ERR_NOMEM, "tile map", "out of memory");
    }
    uint32_t total = 0;
    for (size_t i = 0; i < n; i++) {
      map.piece_start[i] = total;
      if (map.cells[i].kind != TESS_MAP_TRACED) continue;
      uint32_t a = def->piece_start[i], b = def->piece_start[i + 1];
      if (b < a || b - a > 64) {
        physics_map_free(&map);
        return tess_error_set_at(err, TESS_ERR_INVALID, "tile map", TESS_PLACE_OFFSET, i, "bad piece range");
      }
      total += b - a;
    }
    map.piece_start[n] = total;
    map.pieces = tess_calloc(total ? total : 1, sizeof(MapPiece));
    if (!map.pieces) {
      physics_map_free(&map);
      return tess_error_set(err, TESS_ERR_NOMEM, "tile map", "out of memory");
    }
    map.piece_count = total;
    for (size_t i = 0; i < n; i++) {
      if (map.cells[i].kind != TESS_MAP_TRACED) continue;
      uint32_t a = def->piece_start[i], b = def->piece_start[i + 1];
      map.cells[i].covers = traced_covers(def->pieces + a, b - a, def->cell_w, def->cell_h);
      for (uint32_t p = a; p < b; p++) {
        const TessPolygon *src = &def->pieces[p];
        TessResult r = tess_polygon_check(src->v, src->count, err);
        if (r != TESS_OK) {
          physics_map_free(&map);
          return r;
        }
        map_grow_reach(&map, src);
      }
    }
  }
  for (size_t i = 0; i < n; i++)
    if (map.cells[i].kind == TESS_MAP_FULL) map.cells[i].covers = SIDE_LEFT | SIDE_RIGHT | SIDE_TOP | SIDE_BOTTOM;
  /* open sides, corners, piece boundaries */
  for (uint32_t y = 0; y < map.height; y++)
    for (uint32_t x = 0; x < map.width; x++) {
      MapCell *c = &map.cells[(size_t)y * map.width + x];
      if (c->kind == TESS_MAP_EMPTY) continue;
      const MapCell *l = cell_at(&map, (int32_t)x - 1, (int32_t)y), *r = cell_at(&map, (int32_t)x + 1, (int32_t)y);
      const MapCell *t = cell_at(&map, (int32_t)x, (int32_t)y - 1), *b = cell_at(&map, (int32_t)x, (int32_t)y + 1);
      /* beyond the map counts as solid: a border cell never pushes a body out of the map */
      uint8_t f = 0;
      if (l && !(l->covers & SIDE_RIGHT)) f |= SIDE_LEFT;
      if (r && !(r->covers & SIDE_LEFT)) f |= SIDE_RIGHT;
      if (t && !(t->covers & SIDE_BOTTOM)) f |= SIDE_TOP;
      if (b && !(b->covers & SIDE_TOP)) f |= SIDE_BOTTOM;
      c->free_sides = f;
      const MapCell *tl = cell_at(&map, (int32_t)x - 1, (int32_t)y - 1), *tr = cell_at(&map, (int32_t)x + 1, (int32_t)y - 1);
      const MapCell *br = cell_at(&map, (int32_t)x + 1, (int32_t)y + 1), *bl = cell_at(&map, (int32_t)x - 1, (int32_t)y + 1);
#define EMPTYC(p) ((p) && (p)->kind == TESS_MAP_EMPTY)
      uint8_t cr = 0;
      if ((f & SIDE_TOP) && (f & SIDE_LEFT) && EMPTYC(tl) && EMPTYC(t) && EMPTYC(l)) cr |= 1;
      if ((f & SIDE_TOP) && (f & SIDE_RIGHT) && EMPTYC(tr) && EMPTYC(t) && EMPTYC(r)) cr |= 2;
      if ((f & SIDE_BOTTOM) && (f & SIDE_RIGHT) && EMPTYC(br) && EMPTYC(b) && EMPTYC(r)) cr |= 4;
      if ((f & SIDE_BOTTOM) && (f & SIDE_LEFT) && EMPTYC(bl) && EMPTYC(b) && EMPTYC(l)) cr |= 8;
#undef EMPTYC
      c->corners = cr;
      if (c->kind == TESS_MAP_TRACED) {
        size_t i = (size_t)y * map.width + x;
        uint32_t a = def->piece_start[i];
        TessVec2 o = tess_v2(map.origin.x + (float)x * map.cell_w, map.origin.y + (float)y * map.cell_h);
        for (uint32_t p = map.piece_start[i]; p < map.piece_start[i + 1]; p++) {
          const TessPolygon *src = &def->pieces[a + (p - map.piece_start[i])];
          MapPiece *mp = &map.pieces[p];
          double area = 0.0;
          for (uint32_t k = 0; k < src->count; k++) {
            TessVec2 u = src->v[k], v = src->v[(k + 1) % src->count];
            area += (double)u.x * v.y - (double)v.x * u.y;
          }
          mp->poly.count = src->count;
          mp->poly.radius = 0.0f;
          for (uint32_t k = 0; k < src->count; k++) {
            TessVec2 v = area > 0.0 ? src->v[k] : src->v[src->count - 1 - k];
            mp->poly.v[k] = tess_v2_add(o, v);
          }
          physics_poly_finish(&mp->poly);
          float ex = map.cell_w * 1e-3f, ey = map.cell_h * 1e-3f;
          for (uint32_t k = 0; k < src->count; k++) {
            TessVec2 u = tess_v2_sub(mp->poly.v[k], o), v = tess_v2_sub(mp->poly.v[(k + 1) % src->count], o);
            uint8_t side = 0;
            /* an edge on a side line counts only where it lies along the cell's own side */
            bool in_y = physics_minf(u.y, v.y) > -ey && physics_maxf(u.y, v.y) < map.cell_h + ey;
            bool in_x = physics_minf(u.x, v.x) > -ex && physics_maxf(u.x, v.x) < map.cell_w + ex;
            if (in_y && fabsf(u.x) < ex && fabsf(v.x) < ex) side = SIDE_LEFT;
            else if (in_y && fabsf(u.x - map.cell_w) < ex && fabsf(v.x - map.cell_w) < ex) side = SIDE_RIGHT;
            else if (in_x && fabsf(u.y) < ey && fabsf(v.y) < ey) side = SIDE_TOP;
            else if (in_x && fabsf(u.y - map.cell_h) < ey && fabsf(v.y - map.cell_h) < ey) side = SIDE_BOTTOM;
            mp->boundary[k] = side && !(f & side);
          }
        }
      }
      map_runs_set(&map, x, y);
    }
  if (!map_hot_build(&map)) {
    physics_map_free(&map);
    return tess_error_set(err, TESS_ERR_NOMEM, "tile map", "out of memory");
  }
  if (any_traced) map_slope_runs(&map);
  physics_map_free(&w->map);
  tess_world_clear_tile_map(w);
  w->map = map;
  w->has_map = true;
  return TESS_OK;
}

static TessAABB cell_box(const TileMap *m, uint32_t x, uint32_t y) {
  TessAABB b;
  b.lower = tess_v2(m->origin.x + (float)x * m->cell_w, m->origin.y + (float)y * m->cell_h);
  b.upper = tess_v2(b.lower.x + m->cell_w, b.lower.y + m->cell_h);
  return b;
}

#if !defined(__SSE2__)
static inline int32_t fast_floor(float x) {
  int32_t i = (int32_t)x;
  return i - (x < (float)i);
}
#endif

/* Cell range under a box, widened by the pieces' reach (a cell left of
 * the box may hold a piece that reaches into it); false when the box
 * misses the map. */
static bool cell_range(const TileMap *m, TessAABB box, uint32_t *x0, uint32_t *y0, uint32_t *x1, uint32_t *y1) {
#if defined(__SSE2__)
  /* The scalar steps below in lanes (lower x, lower y, upper x, upper y), each lane's operations
   * those of its scalar line (an upper side's `+= a` as `-= -a`, the same sum): called once a
   * shape a step, its 14 conversions between ints and floats and its compares one by one were
   * some 120 instructions (1.9% of the 2,000-polygon step's samples). */
  const __m128i ints = _mm_setr_epi32((int32_t)m->width, (int32_t)m->height, (int32_t)m->width, (int32_t)m->height);
  const __m128 size = _mm_cvtepi32_ps(ints), zero = _mm_setzero_ps();
  __m128 reach = _mm_mul_ps(_mm_cvtepi32_ps(_mm_setr_epi32((int32_t)m->reach_r, (int32_t)m->reach_b,
                                                           (int32_t)m->reach_l, (int32_t)m->reach_t)),
                            _mm_setr_ps(m->cell_w, m->cell_h, m->cell_w, m->cell_h));
  reach = _mm_xor_ps(reach, _mm_setr_ps(0.0f, 0.0f, -0.0f, -0.0f));
  __m128 u = _mm_sub_ps(_mm_loadu_ps(&box.lower.x), reach);
  u = _mm_mul_ps(_mm_sub_ps(u, _mm_setr_ps(m->origin.x, m->origin.y, m->origin.x, m->origin.y)),
                 _mm_setr_ps(m->inv_w, m->inv_h, m->inv_w, m->inv_h));
  /* upper lanes >= 0 and lower lanes < the size (false for a NaN, as the scalar tests) */
  if ((_mm_movemask_ps(_mm_cmpge_ps(u, zero)) & 12) != 12 || (_mm_movemask_ps(_mm_cmplt_ps(u, size)) & 3) != 3)
    return false;
  __m128i t = _mm_cvttps_epi32(u);                                                     /* (int32_t)x */
  __m128i f = _mm_add_epi32(t, _mm_castps_si128(_mm_cmplt_ps(u, _mm_cvtepi32_ps(t)))); /* fast_floor */
  /* a lower side below 0 takes 0, an upper side at or past the size takes size - 1 */
  const __m128i low = _mm_setr_epi32(-1, -1, 0, 0);
  __m128i clamp = _mm_or_si128(_mm_and_si128(low, _mm_castps_si128(_mm_cmplt_ps(u, zero))),
                               _mm_andnot_si128(low, _mm_castps_si128(_mm_cmpge_ps(u, size))));
  __m128i last = _mm_andnot_si128(low, _mm_sub_epi32(ints, _mm_set1_epi32(1)));
  __m128i r = _mm_or_si128(_mm_andnot_si128(clamp, f), _mm_and_si128(clamp, last));
  int32_t out[4];
  _mm_storeu_si128((__m128i *)out, r);
  *x0 = (uint32_t)out[0];
  *y0 = (uint32_t)out[1];
  *x1 = (uint32_t)out[2];
  *y1 = (uint32_t)out[3];
  return true;
#else
  box.lower.x -= (float)m->reach_r * m->cell_w;
  box.upper.x += (float)m->reach_l * m->cell_w;
  box.lower.y -= (float)m->reach_b * m->cell_h;
  box.upper.y += (float)m->reach_t * m->cell_h;
  float lx = (box.lower.x - m->origin.x) * m->inv_w, ux = (box.upper.x - m->origin.x) * m->inv_w;
  float ly = (box.lower.y - m->origin.y) * m->inv_h, uy = (box.upper.y - m->origin.y) * m->inv_h;
  if (!(ux >= 0.0f) || !(uy >= 0.0f) || !(lx < (float)m->width) || !(ly < (float)m->height)) return false;
  int32_t ix0 = lx < 0.0f ? 0 : fast_floor(lx), iy0 = ly < 0.0f ? 0 : fast_floor(ly);
  int32_t ix1 = ux >= (float)m->width ? (int32_t)m->width - 1 : fast_floor(ux);
  int32_t iy1 = uy >= (float)m->height ? (int32_t)m->height - 1 : fast_floor(uy);
  *x0 = (uint32_t)ix0;
  *y0 = (uint32_t)iy0;
  *x1 = (uint32_t)ix1;
  *y1 = (uint32_t)iy1;
  return true;
#endif
}

TessMaterialMix physics_map_hit_contact(const TessWorld *w, const MapHit *h, Contact *ct) {
  /* the shape's values from its proxy (the caller reads it too), not from the Shape: a cache
   * miss less per contact */
  const Proxy *s = &((const Proxy *)w->bp_scratch)[h->shape];
  const TessMapMaterial *mm = &w->map.materials[h->material];
  ct->key = (1ull << 63) | ((uint64_t)h->shape << 32) | ((uint64_t)(h->piece & 0xFu) << 28) | (h->key_cell & 0x0FFFFFFFu);
  ct->shape_a = TESS_NULL_INDEX;
  ct->shape_b = h->shape;
  ct->body_a = TESS_NULL_INDEX;
  ct->body_b = s->body;
  ct->cell = h->cell;
  ct->flags = CONTACT_MAP;
  TessSurface a = {s->friction, s->restitution, s->tangential}, b = {mm->friction, mm->restitution, mm->tangential};
  return tess_surface_mix(a, b); /* tess_material_mix's body, inline */
}

/* A piece's contact at a point on a closed side of its cell (the neighbour
 * covers that side), with a normal that points across that side, is not
 * taken: beyond the side lies the neighbour's solid, whose own surface meets
 * the body there (the plateau's top at a slope's crest). A vertex contact
 * there would push along a normal that turns as the body passes: a bump. */
static bool piece_contact_admitted(const TileMap *m, TessAABB cell, uint32_t free_sides, const Manifold *man) {
  const float tol = 1e-3f;
  TessVec2 n = man->normal; /* from the piece to the body's shape */
  for (uint32_t k = 0; k < man->count; k++) {
    TessVec2 p = man->p[k].point;
    float sx = 0.5f * fabsf(man->p[k].separation) + tol * m->cell_w;
    float sy = 0.5f * fabsf(man->p[k].separation) + tol * m->cell_h;
    if (!(free_sides & SIDE_LEFT) && n.x < -tol && fabsf(p.x - cell.lower.x) <= sx) return false;
    if (!(free_sides & SIDE_RIGHT) && n.x > tol && fabsf(p.x - cell.upper.x) <= sx) return false;
    if (!(free_sides & SIDE_TOP) && n.y < -tol && fabsf(p.y - cell.lower.y) <= sy) return false;
    if (!(free_sides & SIDE_BOTTOM) && n.y > tol && fabsf(p.y - cell.upper.y) <= sy) return false;
  }
  return true;
}

static bool add_hit(MapHits *out, uint32_t shape_index, uint32_t cell, uint32_t piece, uint32_t material,
                    const Manifold *m) {
  if (!PHYS_GROW(out->hits, &out->cap, out->count + 1)) return false;
  MapHit *h = &out->hits[out->count++];
  h->shape = shape_index;
  h->cell = cell;
  h->piece = piece;
  h->material = material;
  h->key_cell = cell;
  h->along = TESS_NULL_INDEX;
  h->manifold = *m;
  return true;
}

/* ---- Flat runs ------------------------------------------------------------
 * A box lying across several tiles of a floor met each tile as its own contact, and the solver
 * took those one after the other: whichever came first stopped the box alone, pushing one end
 * harder than the other, so a box landing flat came back up and turned (a 2.4 m box across three
 * tiles at 12-15% of its impact speed). Where a body's hits on full cells lie along one face line
 * (the top faces of a row with no step, a wall's faces), they are one contact against the cells
 * the body is over, taken as one box: the two points a single long static box gives, which the
 * solver solves together. Each cell's own test still decides which face a body meets (its open
 * sides, its corners, one-way cells), and only hits along a run's face are joined; a run has one
 * surface, so each point keeps the material under it (across a change of material the contacts
 * stay apart). Circles touch one face at one point: their hits stay as they are. A run's contact
 * keeps its key (the shape and the run's first cell) while the body slides along the run, so it
 * is warm-started across seams and begins and ends once. */
#define RUN_PIECE 8u /* the key's piece field: 8 + face for a run's contact (a full cell's own is 0) */

/* The face of a full cell a manifold lies on (0 top, 1 right, 2 bottom, 3 left, the normal from
 * the cell to the body along it within a thousandth: a body's own face, nearly level, may be the
 * reference), or -1 (a corner, a tilted face). */
static int hit_face(TessVec2 n) {
  const float tol = 1e-3f;
  if (fabsf(n.x) <= tol) return n.y < 0.0f ? 0 : 2;
  if (fabsf(n.y) <= tol) return n.x > 0.0f ? 1 : 3;
  return -1;
}

/* A hit on cell (x, y) along its face f, whose run starts at s along that face: tagged with the
 * run (its key names the run's first cell) and where the cell lies along it. */
static void run_tag_as(const TileMap *m, MapHit *h, uint32_t x, uint32_t y, int f, uint32_t s) {
  bool across = (f & 1) == 0;
  h->key_cell = across ? y * m->width + s : s * m->width + x;
  h->along = across ? x : y;
  h->piece = RUN_PIECE + (uint32_t)f;
}

/* A cell (x, y)'s hit that lies along one of its faces, a face that takes part in runs: tagged. */
static void run_tag(const TileMap *m, MapHit *h, uint32_t x, uint32_t y) {
  int f = hit_face(h->manifold.normal);
  if (f < 0 || !run_cell(m, h->cell, (uint32_t)f)) return;
  run_tag_as(m, h, x, y, f, m->cells[h->cell].run_start[f]);
}

/* run_tag for a full cell, from its hot word and its runs by rank (run_cell's answer for a full
 * cell is whether that side is open), not from the cell. */
static void run_tag_full(const TileMap *m, MapHit *h, uint32_t x, uint32_t y, uint32_t hot, uint32_t rank) {
  static const uint8_t sides[4] = {SIDE_TOP, SIDE_RIGHT, SIDE_BOTTOM, SIDE_LEFT};
  int f = hit_face(h->manifold.normal);
  if (f < 0 || !(MAP_HOT_FREE_SIDES(hot) & sides[f])) return;
  run_tag_as(m, h, x, y, f, m->hot_runs[4 * (size_t)rank + (uint32_t)f]);
}

/* Whether end cell i of a run opens to the side `side` (and its corner `bit` there is active). */
static void run_end(const TileMap *m, size_t i, uint8_t side, uint32_t bit, uint32_t *free_sides, uint32_t *corners) {
  static const uint32_t face_of[9] = {0, 3, 1, 0, 0, 0, 0, 0, 2}; /* SIDE_LEFT, RIGHT, TOP, BOTTOM -> face */
  const MapCell *c = &m->cells[i];
  if (c->kind == TESS_MAP_FULL) {
    *free_sides |= c->free_sides & side;
    *corners |= c->corners & bit;
  } else if (!m->pieces[m->piece_start[i]].boundary[slab_edge(&m->pieces[m->piece_start[i]], face_of[side])]) {
    *free_sides |= side; /* a slab's end: open unless the neighbour covers it, its corners convex */
    *corners |= bit;
  }
}

/* The cells [from, to] along run `first`'s face f as one box (a slab's span across): that face
 * open, the sides and corners at its ends as the end cells have them (the face opposite the run's
 * plays no part: a joined hit must come out on the run's face). */
static TessAABB run_box(const TileMap *m, uint32_t first, uint32_t f, uint32_t from, uint32_t to, uint32_t *free_sides,
                        uint32_t *corners) {
  static const uint8_t sides[4] = {SIDE_TOP, SIDE_RIGHT, SIDE_BOTTOM, SIDE_LEFT};
  uint32_t x = first % m->width, y = first / m->width;
  bool across = (f & 1u) == 0;
  uint32_t a = across ? y * m->width + from : from * m->width + x;
  uint32_t b = across ? y * m->width + to : to * m->width + x;
  TessAABB box;
  box.lower = cell_box(m, a % m->width, a / m->width).lower;
  box.upper = cell_box(m, b % m->width, b / m->width).upper;
  float lo, hi;
  run_span(m, a, f, &lo, &hi);
  *free_sides = sides[f];
  *corners = 0;
  if (across) {
    box.lower.y = lo;
    box.upper.y = hi;
    run_end(m, a, SIDE_LEFT, f == 0 ? 1u : 8u, free_sides, corners);
    run_end(m, b, SIDE_RIGHT, f == 0 ? 2u : 4u, free_sides, corners);
  } else {
    box.lower.x = lo;
    box.upper.x = hi;
    run_end(m, a, SIDE_TOP, f == 1 ? 2u : 1u, free_sides, corners);
    run_end(m, b, SIDE_BOTTOM, f == 1 ? 4u : 8u, free_sides, corners);
  }
  return box;
}

/* The cell of the run (between from and to) under point p: the contact's cell for events and
 * contact points. */
static uint32_t run_cell_at(const TileMap *m, uint32_t first, uint32_t f, uint32_t from, uint32_t to, TessVec2 p) {
  bool across = (f & 1u) == 0;
  float u = across ? (p.x - m->origin.x) * m->inv_w : (p.y - m->origin.y) * m->inv_h;
  float lo = (float)from, hi = (float)to;
  float c = floorf(u);
  uint32_t at = c <= lo ? from : (c >= hi ? to : (uint32_t)c);
  uint32_t x = first % m->width, y = first / m->width;
  return across ? y * m->width + at : at * m->width + x;
}

/* ---- Slope runs -----------------------------------------------------------
 * A slope drawn with several tiles (each a traced piece whose one sloped edge runs from side to
 * side of its cell) is a chain of collinear edges: a box sliding down it met each tile as a
 * contact of its own, began and ended one at every seam, and had up to four points. The chain is
 * a run as a row of floor tiles is: a body's hits on its sloped faces are one contact against the
 * chain's cells it is over, taken as one ramp (the edges from the first such cell's start to the
 * last one's end, with the solid below), keyed by the chain's first cell, so it begins and ends
 * once. A chain is found when the map is set: in its cells, `slab` holds SLOPE_BIT and the edge,
 * run_start[0] and [1] the first cell's x and y, run_start[2] the cell's place along the chain
 * (a slope cell has no flat runs: it is not a slab). A lone slope tile is no chain and stays as
 * it was, as does every map without one. */
#define SLOPE_PIECE (RUN_PIECE + 4u) /* the key's piece field for a slope run's contact */
#define SLOPE_BIT 4u                 /* in MapCell.slab: the cell is on a slope run */
#define SLOPE_PREV 8u                /* in MapCell.slab while the runs are found: another cell leads here */
#define SLOPE_EDGE(c) ((uint32_t)(c)->slab >> 5)

/* The sloped edge of traced cell i (its one piece, not a slab: an open edge, neither level nor
 * upright, from one side of the cell to another), or -1. */
static int slope_edge(const TileMap *m, size_t i) {
  const MapCell *c = &m->cells[i];
  if (c->kind != TESS_MAP_TRACED || (c->slab & 3u) || m->piece_start[i + 1] - m->piece_start[i] != 1) return -1;
  const MapPiece *mp = &m->pieces[m->piece_start[i]];
  TessAABB b = cell_box(m, (uint32_t)(i % m->width), (uint32_t)(i / m->width));
  float ex = m->cell_w * 1e-3f, ey = m->cell_h * 1e-3f;
  int found = -1;
  for (uint32_t k = 0; k < mp->poly.count; k++) {
    TessVec2 n = mp->poly.n[k];
    if (mp->boundary[k] || fabsf(n.x) < 1e-3f || fabsf(n.y) < 1e-3f) continue;
    TessVec2 e[2] = {mp->poly.v[k], mp->poly.v[(k + 1) % mp->poly.count]};
    bool on_border = true;
    for (int j = 0; j < 2; j++) {
      bool in = e[j].x > b.lower.x - ex && e[j].x < b.upper.x + ex && e[j].y > b.lower.y - ey && e[j].y < b.upper.y + ey;
      bool side = fabsf(e[j].x - b.lower.x) < ex || fabsf(e[j].x - b.upper.x) < ex || fabsf(e[j].y - b.lower.y) < ey ||
                  fabsf(e[j].y - b.upper.y) < ey;
      on_border = on_border && in && side;
    }
    if (!on_border) continue;
    if (found >= 0) return -1; /* two sloped edges: a peak or a notch, not a ramp */
    found = (int)k;
  }
  return found;
}

/* The ends of slope cell i's edge (in its piece's order) and its outward normal. */
static void slope_ends(const TileMap *m, size_t i, TessVec2 *a, TessVec2 *b, TessVec2 *n) {
  const PhysPoly *p = &m->pieces[m->piece_start[i]].poly;
  uint32_t k = SLOPE_EDGE(&m->cells[i]);
  *a = p->v[k];
  *b = p->v[(k + 1) % p->count];
  *n = p->n[k];
}

/* The slope cell whose edge continues cell i's beyond its end, on one line, with one surface and
 * one one-way flag; SIZE_MAX when none. */
static size_t slope_next(const TileMap *m, size_t i) {
  TessVec2 a, b, n;
  slope_ends(m, i, &a, &b, &n);
  float step = 1e-3f * physics_minf(m->cell_w, m->cell_h);
  TessVec2 q = tess_v2_mul_add(b, step, tess_v2_normalize(tess_v2_sub(b, a)));
  float fx = floorf((q.x - m->origin.x) * m->inv_w), fy = floorf((q.y - m->origin.y) * m->inv_h);
  if (!(fx >= 0.0f && fy >= 0.0f && fx < (float)m->width && fy < (float)m->height)) return SIZE_MAX;
  size_t j = (size_t)fy * m->width + (size_t)fx;
  const MapCell *c = &m->cells[i], *d = &m->cells[j];
  if (j == i || !(d->slab & SLOPE_BIT) || c->one_way != d->one_way) return SIZE_MAX;
  TessVec2 a2, b2, n2;
  slope_ends(m, j, &a2, &b2, &n2);
  if (tess_v2_dot(n, n2) < 0.9999f || tess_v2_length(tess_v2_sub(a2, b)) > step) return SIZE_MAX;
  if (c->material != d->material) {
    const TessMapMaterial *p = &m->materials[c->material], *r = &m->materials[d->material];
    if (p->friction != r->friction || p->restitution != r->restitution || p->tangential != r->tangential) return SIZE_MAX;
  }
  return j;
}

static void map_slope_runs(TileMap *m) {
  size_t n = (size_t)m->width * m->height;
  bool any = false;
  for (size_t i = 0; i < n; i++) {
    int k = slope_edge(m, i);
    if (k < 0) continue;
    m->cells[i].slab = (uint8_t)(SLOPE_BIT | ((uint32_t)k << 5));
    any = true;
  }
  if (!any) return;
  for (size_t i = 0; i < n; i++) {
    if (!(m->cells[i].slab & SLOPE_BIT)) continue;
    size_t j = slope_next(m, i);
    if (j != SIZE_MAX) m->cells[j].slab |= SLOPE_PREV;
  }
  /* each chain from its head (no cell leads there), its cells numbered along it */
  for (size_t i = 0; i < n; i++) {
    MapCell *c = &m->cells[i];
    if (!(c->slab & SLOPE_BIT) || (c->slab & SLOPE_PREV)) continue;
    size_t at = i, head = i;
    uint32_t place = 0;
    while (at != SIZE_MAX) {
      MapCell *d = &m->cells[at];
      if (place > UINT16_MAX) { /* a new run from here */
        head = at;
        place = 0;
      }
      d->run_start[0] = (uint16_t)(head % m->width);
      d->run_start[1] = (uint16_t)(head / m->width);
      d->run_start[2] = (uint16_t)place++;
      size_t next = slope_next(m, at);
      at = next != SIZE_MAX && (m->cells[next].slab & SLOPE_PREV) && place < n ? next : SIZE_MAX;
    }
    if (place == 1) c->slab = 0; /* alone: as before */
  }
  for (size_t i = 0; i < n; i++) m->cells[i].slab &= (uint8_t)~SLOPE_PREV;
}

/* Whether cell ci is on the slope run that starts at cell `first`. */
static bool slope_member(const TileMap *m, size_t ci, uint32_t first) {
  const MapCell *c = &m->cells[ci];
  return (c->slab & SLOPE_BIT) && c->run_start[0] == first % m->width && c->run_start[1] == first / m->width;
}

/* A hit on slope cell ci's sloped face: tagged with its run and its place along it. */
static void slope_tag(const TileMap *m, MapHit *h) {
  TessVec2 a, b, n;
  slope_ends(m, h->cell, &a, &b, &n);
  if (tess_v2_dot(h->manifold.normal, n) < 0.999f) return;
  const MapCell *c = &m->cells[h->cell];
  h->key_cell = (uint32_t)c->run_start[1] * m->width + c->run_start[0];
  h->along = c->run_start[2];
  h->piece = SLOPE_PIECE;
}

/* The run's cells lo..hi as one ramp: their edges from lo's start to hi's end, and the solid
 * below them as deep as a cell (its sides square to the slope). */
static void slope_ramp(const TileMap *m, size_t lo, size_t hi, PhysPoly *ramp, TessVec2 *normal) {
  TessVec2 a, b, n, a2, b2;
  slope_ends(m, lo, &a, &b, &n);
  slope_ends(m, hi, &a2, &b2, &n);
  float depth = physics_minf(m->cell_w, m->cell_h);
  ramp->count = 4;
  ramp->radius = 0.0f;
  ramp->v[0] = a;
  ramp->v[1] = b2;
  ramp->v[2] = tess_v2_mul_add(b2, -depth, n);
  ramp->v[3] = tess_v2_mul_add(a, -depth, n);
  physics_poly_finish(ramp);
  *normal = n;
}

/* The cell of slope run `first` under point p (the nearest along the run when p is past a cell's
 * ends), `hint` when none is near. */
static uint32_t slope_cell_at(const TileMap *m, uint32_t first, TessVec2 p, uint32_t hint) {
  TessAABB box = {tess_v2(p.x - m->cell_w, p.y - m->cell_h), tess_v2(p.x + m->cell_w, p.y + m->cell_h)};
  uint32_t x0, y0, x1, y1, best = hint;
  float best_off = FLT_MAX;
  if (!cell_range(m, box, &x0, &y0, &x1, &y1)) return hint;
  for (uint32_t y = y0; y <= y1; y++)
    for (uint32_t x = x0; x <= x1; x++) {
      uint32_t ci = y * m->width + x;
      if (!slope_member(m, ci, first)) continue;
      TessVec2 a, b, n;
      slope_ends(m, ci, &a, &b, &n);
      TessVec2 d = tess_v2_sub(b, a);
      float t = tess_v2_dot(tess_v2_sub(p, a), d) / tess_v2_dot(d, d);
      float off = t < 0.0f ? -t : (t > 1.0f ? t - 1.0f : 0.0f);
      if (off < best_off || (off == best_off && ci < best)) {
        best_off = off;
        best = ci;
      }
    }
  return best;
}

/* A slope run's contact again (no motion): against the run's cells under `poly`. */
static void slope_collide(const TileMap *m, uint32_t first, const PhysPoly *poly, float margin, Manifold *man) {
  man->count = 0;
  TessAABB box = physics_poly_aabb(poly, tess_transform_identity());
  box.lower = tess_v2(box.lower.x - margin, box.lower.y - margin);
  box.upper = tess_v2(box.upper.x + margin, box.upper.y + margin);
  uint32_t x0, y0, x1, y1, lo = UINT32_MAX, hi = 0;
  size_t lo_cell = 0, hi_cell = 0;
  if (!cell_range(m, box, &x0, &y0, &x1, &y1)) return;
  for (uint32_t y = y0; y <= y1; y++)
    for (uint32_t x = x0; x <= x1; x++) {
      size_t ci = (size_t)y * m->width + x;
      if (!slope_member(m, ci, first)) continue;
      uint32_t at = m->cells[ci].run_start[2];
      if (at < lo) lo = at, lo_cell = ci;
      if (at >= hi) hi = at, hi_cell = ci;
    }
  if (lo == UINT32_MAX) return;
  PhysPoly ramp;
  TessVec2 n;
  slope_ramp(m, lo_cell, hi_cell, &ramp, &n);
  physics_collide(&ramp, poly, margin, man);
  if (man->count > 0 && tess_v2_dot(man->normal, n) < 0.999f) man->count = 0;
}

static uint64_t hit_key(const MapHit *h) { return ((uint64_t)(h->piece & 0xFu) << 28) | (h->key_cell & 0x0FFFFFFFu); }

static void hits_sort_by_key(MapHit *h, uint32_t n) {
  for (uint32_t i = 1; i < n; i++) {
    MapHit t = h[i];
    uint64_t k = hit_key(&t);
    uint32_t j = i;
    for (; j > 0 && hit_key(&h[j - 1]) > k; j--) h[j] = h[j - 1];
    h[j] = t;
  }
}

#define HIT_JOINED UINT32_MAX /* piece of a hit joined into an earlier one */

/* The body's tagged hits out->hits[first..] along one run become one hit: the body against the
 * run's cells it touches taken as one box. Then the hits in key order, as contacts are kept. */
static void join_runs(const TessWorld *w, const PhysPoly *poly, float margin, uint32_t body, MapHits *out,
                      uint32_t first) {
  const TileMap *m = &w->map;
  MapHit *h = out->hits + first;
  uint32_t n = out->count - first, k = 0;
  bool ordered = true;
  for (uint32_t i = 0; i < n; i++) {
    if (h[i].piece == HIT_JOINED) continue;
    if (h[i].along != TESS_NULL_INDEX) {
      uint32_t lo = h[i].along, hi = lo, members = 1, f = h[i].piece - RUN_PIECE;
      uint32_t lo_cell = h[i].cell, hi_cell = h[i].cell;
      for (uint32_t j = i + 1; j < n; j++)
        if (h[j].along != TESS_NULL_INDEX && h[j].key_cell == h[i].key_cell && h[j].piece == h[i].piece) {
          if (h[j].along < lo) lo = h[j].along, lo_cell = h[j].cell;
          if (h[j].along > hi) hi = h[j].along, hi_cell = h[j].cell;
          members++;
        }
      if (members > 1) {
        Manifold man;
        bool joined;
        if (h[i].piece == SLOPE_PIECE) {
          PhysPoly ramp;
          TessVec2 normal;
          slope_ramp(m, lo_cell, hi_cell, &ramp, &normal);
          physics_collide_swept(&ramp, poly, margin, w->paths[body], &man);
          joined = man.count > 0 && tess_v2_dot(man.normal, normal) >= 0.999f;
        } else {
          uint32_t free_sides, corners;
          TessAABB box = run_box(m, h[i].key_cell, f, lo, hi, &free_sides, &corners);
          physics_collide_cell_swept(poly, box, free_sides, corners, margin, w->paths[body], &man);
          joined = man.count > 0 && hit_face(man.normal) == (int)f;
        }
        /* (the box as a whole meeting the body otherwise is seldom: then each cell's hit as it was) */
        for (uint32_t j = i + 1; j < n; j++)
          if (h[j].along != TESS_NULL_INDEX && h[j].key_cell == h[i].key_cell && h[j].piece == h[i].piece) {
            if (joined) {
              h[j].piece = HIT_JOINED;
            } else {
              h[j].key_cell = h[j].cell;
              h[j].piece = 0;
              h[j].along = TESS_NULL_INDEX;
            }
          }
        if (joined) {
          h[i].manifold = man;
          h[i].cell = h[i].piece == SLOPE_PIECE ? slope_cell_at(m, h[i].key_cell, man.p[0].point, lo_cell)
                                                : run_cell_at(m, h[i].key_cell, f, lo, hi, man.p[0].point);
          h[i].material = m->cells[h[i].cell].material;
        } else {
          h[i].key_cell = h[i].cell;
          h[i].piece = 0;
        }
      }
    }
    if (k > 0 && hit_key(&h[i]) <= hit_key(&h[k - 1])) ordered = false;
    if (k != i) h[k] = h[i];
    k++;
  }
  out->count = first + k;
  if (!ordered) hits_sort_by_key(h, k);
}

bool physics_map_collide_shape(const TessWorld *w, uint32_t shape_index, const PhysPoly *poly, TessAABB box,
                               float margin, uint32_t body, MapHits *out) {
  const TileMap *m = &w->map;
  uint32_t x0, y0, x1, y1;
  if (!cell_range(m, box, &x0, &y0, &x1, &y1)) return true;
  uint32_t first = out->count;
  PhysCellShape cs; /* the shape's lanes and extremes once, not once per cell, and only when a
                       cell is near (most shapes in a pile have none) */
  bool ready = false;
  Manifold man;
  /* Each row's non-empty cells from the filled bits, a word at a time, and their hot words in
   * order: a test per cell whether it is empty was a branch the predictor missed (the cells
   * around a body in a pile are a mix), and so was the loop's end over the row. */
  for (uint32_t y = y0; y <= y1; y++) {
    uint32_t row = y * m->width;
    for (uint32_t at = row + x0, end = row + x1 + 1; at < end;) {
      uint32_t word_at = at / 64, shift = at % 64, n = end - at < 64 - shift ? end - at : 64 - shift;
      uint64_t word = m->filled[word_at];
      uint64_t bits = (word >> shift) & (~0ull >> (64 - n));
      uint32_t base = at;
      at += n;
      if (!bits) continue;
      if (!ready) {
        physics_cell_shape(poly, &cs);
        ready = true;
      }
      uint32_t rank = m->filled_before[word_at] + bits_set(word & ((1ull << shift) - 1u));
      for (; bits; bits &= bits - 1u, rank++) {
        uint32_t ci = base + (uint32_t)__builtin_ctzll(bits), x = ci - row, hot = m->hot[rank];
        TessAABB cb = cell_box(m, x, y);
        bool one_way = MAP_HOT_ONE_WAY(hot);
        if (one_way && !(w->bodies[body].center.y < cb.lower.y)) continue; /* only from above */
        if (MAP_HOT_KIND(hot) == TESS_MAP_FULL) {
          physics_collide_cell_shape_swept(&cs, cb, MAP_HOT_FREE_SIDES(hot), MAP_HOT_CORNERS(hot), margin, w->paths[body],
                                           &man);
          if (man.count == 0) continue;
          if (one_way && !(man.normal.y < 0.0f)) continue;
          if (!add_hit(out, shape_index, ci, 0, MAP_HOT_MATERIAL(hot), &man)) return false;
          if (poly->count > 1) run_tag_full(m, &out->hits[out->count - 1], x, y, hot, rank);
        } else {
          const MapCell *c = &m->cells[ci];
          for (uint32_t p = m->piece_start[ci]; p < m->piece_start[ci + 1]; p++) {
            const MapPiece *mp = &m->pieces[p];
            physics_collide_swept(&mp->poly, poly, margin, w->paths[body], &man);
            if (man.count == 0) continue;
            bool hidden = false;
            for (uint32_t k = 0; k < mp->poly.count; k++)
              if (mp->boundary[k] && tess_v2_dot(man.normal, mp->poly.n[k]) > 0.99f) hidden = true;
            if (hidden || !piece_contact_admitted(m, cb, c->free_sides, &man)) continue;
            if (one_way && !(man.normal.y < 0.0f)) continue;
            if (!add_hit(out, shape_index, ci, p - m->piece_start[ci], c->material, &man)) return false;
            if (poly->count > 1 && (c->slab & 3u)) run_tag(m, &out->hits[out->count - 1], x, y);
            else if (poly->count > 1 && (c->slab & SLOPE_BIT)) slope_tag(m, &out->hits[out->count - 1]);
          }
        }
      }
    }
  }
  if (out->count - first > 1 && poly->count > 1) join_runs(w, poly, margin, body, out, first);
  return true;
}

/* A run's contact again (no motion): against the cells of the run that `poly` is over. */
static void run_collide(const TileMap *m, uint32_t first, uint32_t f, const PhysPoly *poly, float margin, Manifold *man) {
  man->count = 0;
  TessAABB b = physics_poly_aabb(poly, tess_transform_identity());
  bool across = (f & 1u) == 0;
  float u0 = across ? (b.lower.x - margin - m->origin.x) * m->inv_w : (b.lower.y - margin - m->origin.y) * m->inv_h;
  float u1 = across ? (b.upper.x + margin - m->origin.x) * m->inv_w : (b.upper.y + margin - m->origin.y) * m->inv_h;
  uint32_t start = m->cells[first].run_start[f], side = across ? m->width : m->height;
  if (!(u1 >= (float)start) || !(u0 < (float)side)) return;
  uint32_t from = u0 > (float)start ? (uint32_t)floorf(u0) : start;
  uint32_t last = u1 < (float)side ? (uint32_t)floorf(u1) : side - 1, to = from;
  uint32_t x = first % m->width, y = first / m->width;
#define RUN_CELL(at) (across ? y * m->width + (at) : (at)*m->width + x)
  if (!run_cell(m, RUN_CELL(from), f) || m->cells[RUN_CELL(from)].run_start[f] != start) return;
  while (to < last && run_cell(m, RUN_CELL(to + 1), f) && m->cells[RUN_CELL(to + 1)].run_start[f] == start) to++;
#undef RUN_CELL
  uint32_t free_sides, corners;
  TessAABB box = run_box(m, first, f, from, to, &free_sides, &corners);
  physics_collide_cell(poly, box, free_sides, corners, margin, man);
  if (man->count > 0 && hit_face(man->normal) != (int)f) man->count = 0;
}

bool physics_map_collide_contact(const TessWorld *w, const Contact *c, const PhysPoly *poly, float margin, Manifold *man,
                                 float *friction, float *restitution, float *tangential) {
  const TileMap *m = &w->map;
  uint32_t ci = c->cell;
  man->count = 0;
  if (ci >= m->width * m->height) return false;
  const MapCell *cell = &m->cells[ci];
  TessAABB cb = cell_box(m, ci % m->width, ci / m->width);
  uint32_t key_cell = (uint32_t)(c->key & 0x0FFFFFFFu), pf = (uint32_t)((c->key >> 28) & 0xFu);
  if (pf == SLOPE_PIECE) {
    if (key_cell < m->width * m->height) slope_collide(m, key_cell, poly, margin, man);
  } else if (pf >= RUN_PIECE && key_cell < m->width * m->height && run_cell(m, key_cell, pf - RUN_PIECE)) {
    run_collide(m, key_cell, pf - RUN_PIECE, poly, margin, man);
  } else if (cell->kind == TESS_MAP_FULL) {
    physics_collide_cell(poly, cb, cell->free_sides, cell->corners, margin, man);
  } else if (cell->kind == TESS_MAP_TRACED) {
    uint32_t piece = m->piece_start[ci] + (uint32_t)((c->key >> 28) & 0xFu);
    if (piece >= m->piece_start[ci + 1]) return false;
    physics_collide(&m->pieces[piece].poly, poly, margin, man);
    if (man->count > 0 && !piece_contact_admitted(m, cb, cell->free_sides, man)) man->count = 0;
  }
  const Shape *s = &w->shapes[c->shape_b];
  const TessMapMaterial *mm = &m->materials[cell->material];
  TessMaterialMix mix = tess_material_mix(s->friction, s->restitution, s->tangential, mm->friction, mm->restitution,
                                          mm->tangential);
  *friction = mix.friction;
  *restitution = mix.restitution;
  *tangential = mix.tangential;
  return man->count > 0;
}

/* A run's contact is made against the cells under the body taken as one box, and keeps one cell
 * (the one under its first point when the step began: its events' cell). Each of its points lies
 * over one cell of the run: that cell, found from the point's place along the run's face (a
 * point on the line between two cells, or on the run's end, names the run's cell beside it). */
uint32_t physics_map_contact_point_cell(const TileMap *m, const Contact *c, TessVec2 p) {
  uint32_t key_cell = (uint32_t)(c->key & 0x0FFFFFFFu), pf = (uint32_t)((c->key >> 28) & 0xFu);
  if (pf == SLOPE_PIECE && key_cell < m->width * m->height) return slope_cell_at(m, key_cell, p, c->cell);
  if (pf < RUN_PIECE || key_cell >= m->width * m->height || !run_cell(m, key_cell, pf - RUN_PIECE)) return c->cell;
  uint32_t f = pf - RUN_PIECE;
  bool across = (f & 1u) == 0;
  uint32_t x = key_cell % m->width, y = key_cell / m->width;
  uint32_t start = across ? x : y, last = (across ? m->width : m->height) - 1;
  float u = floorf(across ? (p.x - m->origin.x) * m->inv_w : (p.y - m->origin.y) * m->inv_h);
  uint32_t at = !(u > (float)start) ? start : (u >= (float)last ? last : (uint32_t)u);
#define RUN_CELL(a) (across ? y * m->width + (a) : (a)*m->width + x)
  while (at > start && !(run_cell(m, RUN_CELL(at), f) && m->cells[RUN_CELL(at)].run_start[f] == start)) at--;
  uint32_t cell = RUN_CELL(at);
#undef RUN_CELL
  return cell;
}

static bool cell_point_solid(const TileMap *m, uint32_t ci, TessVec2 p, bool own) {
  const MapCell *c = &m->cells[ci];
  if (c->kind == TESS_MAP_FULL) return own;
  if (c->kind == TESS_MAP_TRACED)
    for (uint32_t k = m->piece_start[ci]; k < m->piece_start[ci + 1]; k++)
      if (physics_poly_contains(&m->pieces[k].poly, p)) return true;
  return false;
}

bool physics_map_point_solid(const TileMap *m, TessVec2 p) {
  float fx = floorf((p.x - m->origin.x) * m->inv_w), fy = floorf((p.y - m->origin.y) * m->inv_h);
  if (!(fx >= 0.0f && fy >= 0.0f && fx < (float)m->width && fy < (float)m->height)) return false;
  uint32_t ci = (uint32_t)fy * m->width + (uint32_t)fx;
  if (cell_point_solid(m, ci, p, true)) return true;
  if (!(m->reach_l | m->reach_t | m->reach_r | m->reach_b)) return false;
  /* pieces of the neighbours that reach into this cell */
  TessAABB box = {p, p};
  uint32_t x0, y0, x1, y1;
  if (!cell_range(m, box, &x0, &y0, &x1, &y1)) return false;
  for (uint32_t y = y0; y <= y1; y++)
    for (uint32_t x = x0; x <= x1; x++)
      if (y * m->width + x != ci && cell_point_solid(m, y * m->width + x, p, false)) return true;
  return false;
}

int physics_map_material_at(const TileMap *m, TessVec2 p) {
  float fx = floorf((p.x - m->origin.x) * m->inv_w), fy = floorf((p.y - m->origin.y) * m->inv_h);
  if (!(fx >= 0.0f && fy >= 0.0f && fx < (float)m->width && fy < (float)m->height)) return -1;
  return m->cells[(uint32_t)fy * m->width + (uint32_t)fx].material;
}

float physics_map_submerged(const TileMap *m, const PhysPoly *p, TessVec2 *centroid, float *density_area) {
  TessAABB box = physics_poly_aabb(p, tess_transform_identity());
  uint32_t x0, y0, x1, y1;
  *density_area = 0.0f;
  if (!cell_range(m, box, &x0, &y0, &x1, &y1)) return 0.0f;
  float area = 0.0f;
  TessVec2 c = {0.0f, 0.0f};
  for (uint32_t y = y0; y <= y1; y++)
    for (uint32_t x = x0; x <= x1; x++) {
      const MapCell *cell = &m->cells[y * m->width + x];
      const TessMapMaterial *mat = &m->materials[cell->material];
      if (mat->kind != TESS_MAP_MATERIAL_FLUID || cell->kind != TESS_MAP_EMPTY) continue;
      TessVec2 cc;
      float a = physics_clip_area_rect(p, cell_box(m, x, y), &cc);
      if (a <= 0.0f) continue;
      area += a;
      c = tess_v2_mul_add(c, a, cc);
      *density_area += a * mat->density;
    }
  if (area > 0.0f) *centroid = tess_v2_scale(1.0f / area, c);
  return area;
}

/* Ray through the grid cell by cell (Amanatides-Woo); the first cell with
 * a hit holds the closest one. */
/* The closest hit of the ray on one cell's square or pieces before *best; updates *best and *n. */
static bool cell_ray(const TileMap *m, uint32_t x, uint32_t y, TessVec2 o, TessVec2 d, float *best, TessVec2 *n) {
  uint32_t ci = y * m->width + x;
  const MapCell *c = &m->cells[ci];
  bool found = false;
  float f;
  TessVec2 nn;
  if (c->kind == TESS_MAP_FULL) {
    TessAABB b = cell_box(m, x, y);
    PhysPoly box;
    box.count = 4;
    box.radius = 0.0f;
    box.v[0] = b.lower;
    box.v[1] = tess_v2(b.upper.x, b.lower.y);
    box.v[2] = b.upper;
    box.v[3] = tess_v2(b.lower.x, b.upper.y);
    physics_poly_finish(&box);
    if (physics_poly_ray(&box, o, d, *best, &f, &nn)) {
      *best = f;
      *n = nn;
      found = true;
    }
  } else if (c->kind == TESS_MAP_TRACED) {
    for (uint32_t k = m->piece_start[ci]; k < m->piece_start[ci + 1]; k++)
      if (physics_poly_ray(&m->pieces[k].poly, o, d, *best, &f, &nn)) {
        *best = f;
        *n = nn;
        found = true;
      }
  }
  return found;
}

/* Pieces reaching beyond their cells: the walk below could pass a cell
 * whose neighbour's piece lies there, so every cell near the ray's box is
 * tried and the closest hit kept. */
static bool ray_reaching(const TileMap *m, TessVec2 o, TessVec2 d, float max_fraction, TessRayHit *hit) {
  TessVec2 e = tess_v2_mul_add(o, max_fraction, d);
  TessAABB box = {tess_v2(physics_minf(o.x, e.x), physics_minf(o.y, e.y)), tess_v2(physics_maxf(o.x, e.x), physics_maxf(o.y, e.y))};
  uint32_t x0, y0, x1, y1;
  if (!cell_range(m, box, &x0, &y0, &x1, &y1)) return false;
  float best = max_fraction;
  TessVec2 n = {0, 0};
  bool found = false;
  for (uint32_t y = y0; y <= y1; y++)
    for (uint32_t x = x0; x <= x1; x++) {
      float f = best;
      TessVec2 nn = {0, 0};
      if (m->cells[(size_t)y * m->width + x].kind != TESS_MAP_EMPTY && cell_ray(m, x, y, o, d, &f, &nn)) {
        best = f;
        n = nn;
        found = true;
        hit->cell_x = x;
        hit->cell_y = y;
      }
    }
  if (!found) return false;
  hit->hit = true;
  hit->on_map = true;
  hit->fraction = best;
  hit->point = tess_v2_mul_add(o, best, d);
  hit->normal = n;
  return true;
}

bool physics_map_ray(const TileMap *m, TessVec2 o, TessVec2 d, float max_fraction, TessRayHit *hit) {
  if (m->reach_l | m->reach_t | m->reach_r | m->reach_b) return ray_reaching(m, o, d, max_fraction, hit);
  TessVec2 local = tess_v2((o.x - m->origin.x) * m->inv_w, (o.y - m->origin.y) * m->inv_h);
  TessVec2 dl = tess_v2(d.x * m->inv_w, d.y * m->inv_h);
  /* clip the ray to the map's box */
  float t0 = 0.0f, t1 = max_fraction;
  float lo[2] = {0.0f, 0.0f}, hi[2] = {(float)m->width, (float)m->height};
  float ol[2] = {local.x, local.y}, dd[2] = {dl.x, dl.y};
  for (int a = 0; a < 2; a++) {
    if (dd[a] == 0.0f) {
      if (ol[a] < lo[a] || ol[a] > hi[a]) return false;
    } else {
      float ta = (lo[a] - ol[a]) / dd[a], tb = (hi[a] - ol[a]) / dd[a];
      if (ta > tb) {
        float t = ta;
        ta = tb;
        tb = t;
      }
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
    }
  }
  if (t0 > t1) return false;
  TessVec2 s = tess_v2_mul_add(local, t0, dl);
  int32_t x = (int32_t)floorf(s.x), y = (int32_t)floorf(s.y);
  if (x >= (int32_t)m->width) x = (int32_t)m->width - 1;
  if (y >= (int32_t)m->height) y = (int32_t)m->height - 1;
  if (x < 0) x = 0;
  if (y < 0) y = 0;
  int sx = dl.x > 0.0f ? 1 : (dl.x < 0.0f ? -1 : 0), sy = dl.y > 0.0f ? 1 : (dl.y < 0.0f ? -1 : 0);
  float tdx = sx ? fabsf(1.0f / dl.x) : FLT_MAX, tdy = sy ? fabsf(1.0f / dl.y) : FLT_MAX;
  float tmx = sx > 0 ? ((float)(x + 1) - local.x) / dl.x : (sx < 0 ? ((float)x - local.x) / dl.x : FLT_MAX);
  float tmy = sy > 0 ? ((float)(y + 1) - local.y) / dl.y : (sy < 0 ? ((float)y - local.y) / dl.y : FLT_MAX);
  uint32_t guard = m->width + m->height + 4;
  while (guard--) {
    if (x < 0 || y < 0 || x >= (int32_t)m->width || y >= (int32_t)m->height) break;
    uint32_t ci = (uint32_t)y * m->width + (uint32_t)x;
    const MapCell *c = &m->cells[ci];
    if (c->kind != TESS_MAP_EMPTY) {
      float best = max_fraction;
      TessVec2 n = {0, 0};
      bool found = cell_ray(m, (uint32_t)x, (uint32_t)y, o, d, &best, &n);
      if (found) {
        hit->hit = true;
        hit->on_map = true;
        hit->cell_x = (uint32_t)x;
        hit->cell_y = (uint32_t)y;
        hit->fraction = best;
        hit->point = tess_v2_mul_add(o, best, d);
        hit->normal = n;
        return true;
      }
    }
    if (tmx < tmy) {
      if (tmx > t1) break;
      x += sx;
      tmx += tdx;
    } else {
      if (tmy > t1) break;
      y += sy;
      tmy += tdy;
    }
  }
  return false;
}

bool tess_world_map_cell_at(const TessWorld *w, TessVec2 p, uint32_t *cx, uint32_t *cy) {
  if (!w->has_map) return false;
  const TileMap *m = &w->map;
  float fx = floorf((p.x - m->origin.x) * m->inv_w), fy = floorf((p.y - m->origin.y) * m->inv_h);
  if (!(fx >= 0.0f && fy >= 0.0f && fx < (float)m->width && fy < (float)m->height)) return false;
  *cx = (uint32_t)fx;
  *cy = (uint32_t)fy;
  return true;
}

TessMapCellKind tess_world_map_cell_kind(const TessWorld *w, uint32_t x, uint32_t y) {
  if (!w->has_map || x >= w->map.width || y >= w->map.height) return TESS_MAP_EMPTY;
  return (TessMapCellKind)w->map.cells[(size_t)y * w->map.width + x].kind;
}

void tess_world_query_map_aabb(const TessWorld *w, TessAABB box, TessCellQueryFn fn, void *user) {
  if (!w->has_map) return;
  uint32_t x0, y0, x1, y1;
  if (!cell_range(&w->map, box, &x0, &y0, &x1, &y1)) return;
  for (uint32_t y = y0; y <= y1; y++)
    for (uint32_t x = x0; x <= x1; x++)
      if (w->map.cells[(size_t)y * w->map.width + x].kind != TESS_MAP_EMPTY)
        if (!fn(x, y, user)) return;
}

bool tess_world_map_point_solid(const TessWorld *w, TessVec2 p) { return w->has_map && physics_map_point_solid(&w->map, p); }
