/* The outlines of a grid's solid cells as closed loops of vertices, for the
 * peers that take static geometry as edge chains (Box2D): one loop per
 * boundary of a 4-connected solid region, collinear edges merged. */
#ifndef TESS_BENCH_CELL_OUTLINE_H
#define TESS_BENCH_CELL_OUTLINE_H

#include <stdbool.h>
#include <stdint.h>

/* Loop i has the vertices xy[2 * start[i] ..] up to start[i + 1] (start has
 * count + 1 entries), in cell units with cell (x, y) covering [x, x + 1] x
 * [y, y + 1]. Every edge e has the solid on the side of (-e.y, e.x) and empty
 * space on the side of (e.y, -e.x) (Box2D's one-sided normal). Cells outside
 * the grid count as empty, so every loop closes. */
typedef struct CellLoops {
  float *xy;
  uint32_t *start;
  uint32_t count, vertex_count;
} CellLoops;

/* false when out of memory (out untouched) */
bool cell_outline_loops(const uint8_t *cells, uint32_t width, uint32_t height, CellLoops *out);
void cell_loops_free(CellLoops *loops);

#endif
