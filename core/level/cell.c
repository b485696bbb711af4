/* Cells: where a cell's flip bits put a point of its tile. */
#include "level_private.h"

TessVec2 tess_cell_transform_point(TessCell cell, TessVec2 p, float tile_w, float tile_h) {
  /* Tiled's order: the diagonal flip (a transpose, swapping x and y) first,
   * then the horizontal and vertical mirrors in the transposed frame. After a
   * transpose a non-square tile spans tile_h x tile_w, so the mirrors use
   * those extents. */
  float w = tile_w, h = tile_h;
  TessVec2 q = p;
  if (cell & TESS_CELL_FLIP_D) {
    q = tess_v2(p.y, p.x);
    w = tile_h;
    h = tile_w;
  }
  if (cell & TESS_CELL_FLIP_H) q.x = w - q.x;
  if (cell & TESS_CELL_FLIP_V) q.y = h - q.y;
  return q;
}
