#include "pack_geometry.h"

#include <string.h>

static bool solid_at(const PackGrid *g, int64_t x, int64_t y, uint32_t *mat) {
  if (x < 0 || y < 0 || x >= g->w || y >= g->h) return false;
  uint32_t m = g->mat[(size_t)y * g->w + (size_t)x];
  if (m == PACK_NOT_SOLID) return false;
  if (mat) *mat = m;
  return true;
}

bool pack_merge_rects(const PackGrid *g, PackBuf *rects, uint32_t *count) {
  size_t n;
  if (!tess_size_mul(g->w, g->h, &n)) return false;
  uint8_t *done = tess_calloc(n ? n : 1, 1);
  if (!done) return false;
  for (uint32_t y = 0; y < g->h; y++) {
    for (uint32_t x = 0; x < g->w; x++) {
      size_t i = (size_t)y * g->w + x;
      uint32_t m = g->mat[i];
      if (m == PACK_NOT_SOLID || done[i]) continue;
      uint32_t w = 1;
      while (x + w < g->w && g->mat[i + w] == m && !done[i + w]) w++;
      uint32_t h = 1;
      for (; y + h < g->h; h++) {
        size_t row = (size_t)(y + h) * g->w + x;
        bool same = true;
        for (uint32_t k = 0; k < w && same; k++) same = g->mat[row + k] == m && !done[row + k];
        if (!same) break;
      }
      for (uint32_t yy = 0; yy < h; yy++) memset(done + (size_t)(y + yy) * g->w + x, 1, w);
      pack_put_u16(rects, (uint16_t)x);
      pack_put_u16(rects, (uint16_t)y);
      pack_put_u16(rects, (uint16_t)w);
      pack_put_u16(rects, (uint16_t)h);
      pack_put_u16(rects, (uint16_t)m);
      pack_put_u16(rects, 0);
      (*count)++;
    }
  }
  tess_free(done);
  return !rects->failed;
}

/* A boundary edge of one cell side; dir 0 east, 1 south, 2 west, 3 north
 * (screen, y down). Turning right is dir + 1. */
typedef struct Edge {
  uint32_t fx, fy, mat;
  uint8_t dir, used;
} Edge;

typedef struct EdgeArray {
  Edge *data;
  size_t count, cap;
} EdgeArray;

static const int DX[4] = {1, 0, -1, 0};
static const int DY[4] = {0, 1, 0, -1};

static uint64_t edge_key(uint64_t stride, uint32_t x, uint32_t y, uint32_t dir) { return ((uint64_t)y * stride + x) * 4 + dir; }

static bool push_edge(EdgeArray *a, uint32_t x, uint32_t y, uint8_t dir, uint32_t m) {
  Edge e = {x, y, m, dir, 0};
  return TESS_ARRAY_PUSH(a, e);
}

bool pack_trace_loops(const PackGrid *g, PackBuf *loops, uint32_t *loop_count, PackBuf *corners,
                      uint32_t *corner_count) {
  EdgeArray all = {0};
  TESS_ARRAY(uint32_t) walk = {0};
  PackMap from = {0}; /* (start vertex, direction) -> edge index, for huge levels */
  uint32_t *dense = NULL; /* the same as a table of (w+1)(h+1)*4 entries (index + 1), when it is small */
  uint64_t stride = (uint64_t)g->w + 1;
  uint64_t keys = stride * ((uint64_t)g->h + 1) * 4;
  bool ok = true;
  /* Edges in row-major order of their cells: deterministic, and the loops
   * come out in the order of their first edge. */
  for (uint32_t y = 0; y < g->h && ok; y++) {
    const uint32_t *row = g->mat + (size_t)y * g->w;
    for (uint32_t x = 0; x < g->w && ok; x++) {
      uint32_t m = row[x];
      if (m == PACK_NOT_SOLID) continue;
      if (!solid_at(g, x, (int64_t)y - 1, NULL)) ok = ok && push_edge(&all, x, y, 0, m);
      if (!solid_at(g, (int64_t)x + 1, y, NULL)) ok = ok && push_edge(&all, x + 1, y, 1, m);
      if (!solid_at(g, x, (int64_t)y + 1, NULL)) ok = ok && push_edge(&all, x + 1, y + 1, 2, m);
      if (!solid_at(g, (int64_t)x - 1, y, NULL)) ok = ok && push_edge(&all, x, y + 1, 3, m);
    }
  }
  if (ok && all.count && keys <= ((uint64_t)1 << 24)) dense = tess_calloc((size_t)keys, sizeof *dense);
  for (size_t i = 0; ok && i < all.count; i++) {
    uint64_t key = edge_key(stride, all.data[i].fx, all.data[i].fy, all.data[i].dir);
    if (dense) dense[key] = (uint32_t)i + 1;
    else ok = pack_map_put(&from, key, (uint32_t)i);
  }
  for (size_t start = 0; ok && start < all.count; start++) {
    if (all.data[start].used) continue;
    walk.count = 0;
    size_t cur = start;
    do {
      Edge *e = &all.data[cur];
      e->used = 1;
      if (!TESS_ARRAY_PUSH(&walk, (uint32_t)cur)) {
        ok = false;
        break;
      }
      uint32_t tx = (uint32_t)((int64_t)e->fx + DX[e->dir]), ty = (uint32_t)((int64_t)e->fy + DY[e->dir]);
      /* Right turn first keeps a loop around its own cell where two solid
       * cells touch only at a corner; the successor is then a permutation. */
      static const int turn[3] = {1, 0, 3};
      uint32_t next = UINT32_MAX, found;
      for (int t = 0; t < 3 && next == UINT32_MAX; t++) {
        uint64_t key = edge_key(stride, tx, ty, (uint32_t)(e->dir + turn[t]) & 3u);
        if (dense) next = dense[key] ? dense[key] - 1 : UINT32_MAX;
        else if (pack_map_get(&from, key, &found)) next = found;
      }
      if (next == UINT32_MAX) {
        ok = false; /* cannot happen for a closed boundary */
        break;
      }
      cur = next;
    } while (cur != start);
    if (!ok) break;
    /* Corners: where the direction or the material changes. */
    size_t n = walk.count, first = SIZE_MAX, ncorners = 0;
    for (size_t k = 0; k < n; k++) {
      const Edge *a = &all.data[walk.data[(k + n - 1) % n]], *b = &all.data[walk.data[k]];
      if (a->dir != b->dir || a->mat != b->mat) {
        if (first == SIZE_MAX) first = k;
        ncorners++;
      }
    }
    if (first == SIZE_MAX || ncorners < 4) {
      ok = false;
      break;
    }
    pack_put_u32(loops, *corner_count);
    pack_put_u32(loops, (uint32_t)ncorners);
    for (size_t j = 0; j < n; j++) {
      size_t k = (first + j) % n;
      const Edge *a = &all.data[walk.data[(k + n - 1) % n]], *b = &all.data[walk.data[k]];
      if (a->dir == b->dir && a->mat == b->mat) continue;
      pack_put_u16(corners, (uint16_t)b->fx);
      pack_put_u16(corners, (uint16_t)b->fy);
      pack_put_u16(corners, (uint16_t)b->mat);
      pack_put_u16(corners, 0);
    }
    *corner_count += (uint32_t)ncorners;
    (*loop_count)++;
  }
  TESS_ARRAY_FREE(&all);
  TESS_ARRAY_FREE(&walk);
  pack_map_free(&from);
  tess_free(dense);
  return ok && !loops->failed && !corners->failed;
}
