/* Merged collision geometry for the .tlv: the level's full-square solid
 * cells as rectangles (greedy, per material) and as outline loops with a
 * material per edge. Pure functions of a material grid, testable alone. */
#ifndef TESS_PACK_GEOMETRY_H
#define TESS_PACK_GEOMETRY_H

#include "pack_buffer.h"

#define PACK_NOT_SOLID UINT32_MAX

/* The grid: w * h entries, row-major; PACK_NOT_SOLID or the 1-based
 * material index (0 = a full square with no material). */
typedef struct PackGrid {
  uint32_t w, h;
  const uint32_t *mat;
} PackGrid;

/* Appends RECT records (u16 x, y, w, h) to `rects`; *count grows. Each
 * rectangle holds cells of one material: the grid's, at its top-left cell. */
bool pack_merge_rects(const PackGrid *g, PackBuf *rects, uint32_t *count);

/* Appends outline loops: LOOP records (first corner, corner count) to
 * `loops` and CRNR records (u16 x, y on the cell-corner lattice, bit 15
 * of each holding the direction of the edge leaving the corner: 0 east,
 * 1 south, 2 west, 3 north; its material is the grid's at the cell on its
 * right) to `corners`. Corners are also where the material changes.
 * Solid lies to the right of each edge walking the loop on screen (y down):
 * outer outlines run clockwise on screen, holes counter-clockwise.
 * Collinear edges with the same material are merged. */
bool pack_trace_loops(const PackGrid *g, PackBuf *loops, uint32_t *loop_count, PackBuf *corners,
                      uint32_t *corner_count);

#endif
