#include "pack_geometry.h"

#include <stddef.h>
#include <string.h>

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
      pack_put_u16(rects, (uint16_t)h); /* the material is the grid's (FORMAT.md 2.0) */
      (*count)++;
    }
  }
  tess_free(done);
  return !rects->failed;
}

/* Boundary edges are cell sides: side 0 top (walked east), 1 right (south),
 * 2 bottom (west), 3 left (north), so a side's index is its direction on
 * screen (y down) and the solid cell is always on the walker's right.
 * Turning right is dir + 1. */
static const int DX[4] = {1, 0, -1, 0};
static const int DY[4] = {0, 1, 0, -1};

typedef struct Step {
  uint32_t x, y, mat;
  uint8_t dir;
} Step;

typedef struct StepArray {
  Step *data;
  size_t count, cap;
} StepArray;

/* Per cell: bits 0-3 say which sides are boundary edges (the cell is solid
 * and the neighbour across that side is not), bits 4-7 which of them a loop
 * has walked. */
static bool is_edge(const PackGrid *g, const uint8_t *sides, int64_t x, int64_t y, int s, uint32_t *mat) {
  if (x < 0 || y < 0 || x >= g->w || y >= g->h) return false;
  size_t i = (size_t)y * g->w + (size_t)x;
  if (!((sides[i] >> s) & 1)) return false;
  *mat = g->mat[i];
  return true;
}

bool pack_trace_loops(const PackGrid *g, PackBuf *loops, uint32_t *loop_count, PackBuf *corners,
                      uint32_t *corner_count) {
  size_t n;
  if (!tess_size_mul(g->w, g->h, &n)) return false;
  uint8_t *sides = tess_calloc(n ? n : 1, 1);
  StepArray walk = {0};
  bool ok = sides != NULL;
  /* Side s's neighbour is across the side: top (x, y-1), right (x+1, y),
   * bottom (x, y+1), left (x-1, y); outside the grid is not solid. Row
   * pointers, no bounds check per neighbour. */
  for (uint32_t y = 0; y < g->h && ok; y++) {
    const uint32_t *row = g->mat + (size_t)y * g->w;
    uint8_t *out = sides + (size_t)y * g->w;
    for (uint32_t x = 0; x < g->w; x++) {
      if (row[x] == PACK_NOT_SOLID) continue;
      unsigned top = y == 0 || row[(ptrdiff_t)x - (ptrdiff_t)g->w] == PACK_NOT_SOLID;
      unsigned right = x + 1 == g->w || row[x + 1] == PACK_NOT_SOLID;
      unsigned bottom = y + 1 == g->h || row[(size_t)x + g->w] == PACK_NOT_SOLID;
      unsigned left = x == 0 || row[x - 1] == PACK_NOT_SOLID;
      out[x] = (uint8_t)(top | right << 1 | bottom << 2 | left << 3);
    }
  }
  /* Loops start at their first edge in row-major order of cells, sides in
   * order: deterministic, and the same order the edges would be listed in. */
  for (uint32_t y = 0; y < g->h && ok; y++) {
    for (uint32_t x = 0; x < g->w && ok; x++) {
      uint8_t here = sides[(size_t)y * g->w + x];
      if (!(here & 0x0F)) continue;
      uint32_t m0 = g->mat[(size_t)y * g->w + x];
      for (int s0 = 0; s0 < 4 && ok; s0++) {
        uint8_t bits = sides[(size_t)y * g->w + x];
        if (!((bits >> s0) & 1) || ((bits >> (s0 + 4)) & 1)) continue;
        walk.count = 0;
        int64_t cx = x, cy = y;
        int d = s0;
        uint32_t m = m0;
        for (;;) {
          sides[(size_t)cy * g->w + (size_t)cx] |= (uint8_t)(0x10u << d);
          Step st = {(uint32_t)cx, (uint32_t)cy, m, (uint8_t)d};
          if (!TESS_ARRAY_PUSH(&walk, st)) {
            ok = false;
            break;
          }
          /* The next edge from this edge's end: right turn (same cell),
           * straight on (the next cell along), left turn (the cell
           * diagonally ahead). Right first keeps a loop around its own cell
           * where two solid cells touch only at a corner. */
          int r = (d + 1) & 3;
          int64_t nx, ny;
          int nd;
          uint32_t nm;
          if (is_edge(g, sides, cx, cy, r, &nm)) {
            nx = cx, ny = cy, nd = r;
          } else if (is_edge(g, sides, cx + DX[d], cy + DY[d], d, &nm)) {
            nx = cx + DX[d], ny = cy + DY[d], nd = d;
          } else if (is_edge(g, sides, cx + DX[d] - DX[r], cy + DY[d] - DY[r], (d + 3) & 3, &nm)) {
            nx = cx + DX[d] - DX[r], ny = cy + DY[d] - DY[r], nd = (d + 3) & 3;
          } else {
            ok = false; /* cannot happen for a closed boundary */
            break;
          }
          if (nx == x && ny == y && nd == s0) break; /* back at the start */
          cx = nx, cy = ny, d = nd, m = nm;
        }
        if (!ok) break;
        /* Corners: where the direction or the material changes. */
        size_t k_n = walk.count, first = SIZE_MAX, ncorners = 0;
        for (size_t k = 0; k < k_n; k++) {
          const Step *a = &walk.data[k ? k - 1 : k_n - 1], *b = &walk.data[k];
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
        for (size_t j = 0; j < k_n; j++) {
          size_t k = first + j < k_n ? first + j : first + j - k_n; /* no division per edge */
          const Step *a = &walk.data[k ? k - 1 : k_n - 1], *b = &walk.data[k];
          if (a->dir == b->dir && a->mat == b->mat) continue;
          /* The edge's start corner: top-left of the cell turned with the side. */
          static const int SX[4] = {0, 1, 1, 0}, SY[4] = {0, 0, 1, 1};
          /* Bit 15 of x and of y hold the edge's direction (coordinates
           * are at most 16384 < 2^15), which names the solid cell on its
           * right: a reader finds the edge's material in the grid. */
          pack_put_u16(corners, (uint16_t)((b->x + (uint32_t)SX[b->dir]) | (uint32_t)(b->dir & 1u) << 15));
          pack_put_u16(corners, (uint16_t)((b->y + (uint32_t)SY[b->dir]) | (uint32_t)(b->dir >> 1) << 15));
        }
        *corner_count += (uint32_t)ncorners;
        (*loop_count)++;
      }
    }
  }
  tess_free(sides);
  TESS_ARRAY_FREE(&walk);
  return ok && !loops->failed && !corners->failed;
}
