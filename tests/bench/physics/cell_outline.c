/* Directed boundary edges between solid and empty cells, followed into
 * loops. Where two solid cells touch only at a corner, two loops meet at that
 * vertex: the walk turns towards the solid there, so a loop goes round the
 * cell it came along. (A region that touches itself corner to corner still
 * gives a loop passing that vertex twice, never in a row, which Box2D's chains
 * accept: they need consecutive vertices apart.) */
#include "cell_outline.h"

#include <stdlib.h>

/* directions: 0 = +x, 1 = +y, 2 = -x, 3 = -y; dir + 1 turns towards the solid */
static const int DX[4] = {1, 0, -1, 0}, DY[4] = {0, 1, 0, -1};

static bool solid_at(const uint8_t *cells, uint32_t w, uint32_t h, int64_t x, int64_t y) {
  if (x < 0 || y < 0 || x >= (int64_t)w || y >= (int64_t)h) return false;
  return cells[(size_t)y * w + (size_t)x] != 0;
}

/* out[v] has bit d set when an unused edge leaves grid vertex v in direction d */
static void mark_edges(const uint8_t *cells, uint32_t w, uint32_t h, uint8_t *out) {
  uint32_t vw = w + 1;
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      if (!cells[(size_t)y * w + x]) continue;
      if (!solid_at(cells, w, h, x, (int64_t)y - 1)) out[(size_t)y * vw + x] |= 1u << 0;
      if (!solid_at(cells, w, h, (int64_t)x + 1, y)) out[(size_t)y * vw + x + 1] |= 1u << 1;
      if (!solid_at(cells, w, h, x, (int64_t)y + 1)) out[(size_t)(y + 1) * vw + x + 1] |= 1u << 2;
      if (!solid_at(cells, w, h, (int64_t)x - 1, y)) out[(size_t)(y + 1) * vw + x] |= 1u << 3;
    }
}

static bool push_vertex(CellLoops *l, uint32_t *cap, uint32_t x, uint32_t y) {
  if (l->vertex_count == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 1024;
    float *nx = realloc(l->xy, (size_t)nc * 2 * sizeof *nx);
    if (!nx) return false;
    l->xy = nx;
    *cap = nc;
  }
  l->xy[2 * l->vertex_count] = (float)x;
  l->xy[2 * l->vertex_count + 1] = (float)y;
  l->vertex_count++;
  return true;
}

/* Follows the loop that starts with the edge leaving v in direction d, and
 * keeps only the vertices where it turns. At each vertex the walk takes the
 * unused edge that turns most towards the solid: at a corner-to-corner
 * contact that pairs each incoming edge with the outgoing one round the same
 * cell, so the loop closes when that choice is its first edge again. */
static bool walk_loop(uint8_t *out, uint32_t vw, uint32_t v, int d, CellLoops *l, uint32_t *cap) {
  uint32_t x = v % vw, y = v / vw, sx = x, sy = y;
  int first = d;
  for (;;) {
    out[(size_t)y * vw + x] &= (uint8_t) ~(1u << d);
    x = (uint32_t)((int64_t)x + DX[d]);
    y = (uint32_t)((int64_t)y + DY[d]);
    bool at_start = x == sx && y == sy;
    uint8_t here = out[(size_t)y * vw + x] | (at_start ? 1u << first : 0u);
    int next = -1;
    for (int k = 0; k < 3 && next < 0; k++) {
      int c = (d + (k == 0 ? 1 : k == 1 ? 0
                                        : 3)) &
              3;
      if (here & (1u << c)) next = c;
    }
    if (next < 0) return false; /* cannot happen: every vertex has as many edges in as out */
    if (next != d && !push_vertex(l, cap, x, y)) return false;
    if (at_start && next == first) return true;
    d = next;
  }
}

bool cell_outline_loops(const uint8_t *cells, uint32_t width, uint32_t height, CellLoops *loops) {
  uint32_t vw = width + 1;
  size_t nv = (size_t)vw * (height + 1);
  uint8_t *out = calloc(nv, 1);
  CellLoops l = {NULL, NULL, 0, 0};
  uint32_t cap = 0, start_cap = 0;
  if (!out) return false;
  mark_edges(cells, width, height, out);
  for (size_t v = 0; v < nv; v++)
    while (out[v]) {
      int d = 0;
      while (!(out[v] & (1u << d))) d++;
      if (l.count + 2 > start_cap) {
        uint32_t nc = start_cap ? start_cap * 2 : 256;
        uint32_t *ns = realloc(l.start, nc * sizeof *ns);
        if (!ns) goto fail;
        l.start = ns;
        start_cap = nc;
      }
      l.start[l.count] = l.vertex_count;
      if (!walk_loop(out, vw, (uint32_t)v, d, &l, &cap)) goto fail;
      l.count++;
      l.start[l.count] = l.vertex_count;
    }
  free(out);
  *loops = l;
  return true;
fail:
  free(out);
  cell_loops_free(&l);
  return false;
}

void cell_loops_free(CellLoops *loops) {
  free(loops->xy);
  free(loops->start);
  loops->xy = NULL;
  loops->start = NULL;
  loops->count = loops->vertex_count = 0;
}
