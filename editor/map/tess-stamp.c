/* Stamp transforms as Tiled does them. A cell's flips act on its tile as
 * V o H o D (diagonal first). Mirroring the drawn result horizontally is
 * H o V^v o H^h o D^d = V^v o H^(h+1) o D^d: toggle H (likewise V), whatever
 * D is. Rotating clockwise is R = H o D, and D o V = H o D, D o H = V o D,
 * so R o T = H^(v+1) o V^h o D^(d+1): h' = !v, v' = h, d' = !d. */
#include "tess-map-view-private.h"

TessCell tess_stamp_cell_flip(TessCell cell, gboolean horizontal) {
  if (!cell) return 0;
  return cell ^ (horizontal ? TESS_CELL_FLIP_H : TESS_CELL_FLIP_V);
}

TessCell tess_stamp_cell_rotate(TessCell cell) {
  if (!cell) return 0;
  gboolean h = (cell & TESS_CELL_FLIP_H) != 0, vv = (cell & TESS_CELL_FLIP_V) != 0, d = (cell & TESS_CELL_FLIP_D) != 0;
  TessCell out = cell & ~TESS_CELL_FLIPS;
  if (!vv) out |= TESS_CELL_FLIP_H;
  if (h) out |= TESS_CELL_FLIP_V;
  if (!d) out |= TESS_CELL_FLIP_D;
  return out;
}

void tess_stamp_flip(uint32_t w, uint32_t h, TessCell *cells, gboolean horizontal) {
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) cells[y * w + x] = tess_stamp_cell_flip(cells[y * w + x], horizontal);
  if (horizontal) {
    for (uint32_t y = 0; y < h; y++)
      for (uint32_t x = 0; x < w / 2; x++) {
        TessCell t = cells[y * w + x];
        cells[y * w + x] = cells[y * w + (w - 1 - x)];
        cells[y * w + (w - 1 - x)] = t;
      }
  } else {
    for (uint32_t y = 0; y < h / 2; y++)
      for (uint32_t x = 0; x < w; x++) {
        TessCell t = cells[y * w + x];
        cells[y * w + x] = cells[(h - 1 - y) * w + x];
        cells[(h - 1 - y) * w + x] = t;
      }
  }
}

void tess_stamp_rotate(uint32_t w, uint32_t h, const TessCell *cells, TessCell *out) {
  /* New size h x w; the old top-left lands top-right. */
  for (uint32_t ny = 0; ny < w; ny++)
    for (uint32_t nx = 0; nx < h; nx++) out[ny * h + nx] = tess_stamp_cell_rotate(cells[(h - 1 - nx) * w + ny]);
}
