/* Where a cell's tile is drawn (Tiled's orthogonal renderer): at the tile's
 * own size, bottom-left on the cell's bottom-left, moved by the tileset's
 * offset. Drawing, collision and the .tlv writer all place tiles through
 * here, so a tile collides exactly where it is drawn. */
#include <math.h>

#include "level_private.h"

void tess_tile_place(const TessTileset *ts, TessCell cell, uint32_t cell_w, uint32_t cell_h, TessTilePlace *out) {
  const double tw = ts->tile_w, th = ts->tile_h, cw = cell_w, ch = cell_h;
  const bool diag = (cell & TESS_CELL_FLIP_D) != 0;
  if (ts->fit_cell) {
    /* The pre-3.4 rule: the image fills the cell; points scale per axis. */
    out->x = out->y = 0.0;
    out->w = cw;
    out->h = ch;
    out->px = out->py = 0.0;
    out->sx = cw / tw;
    out->sy = ch / th;
    return;
  }
  /* Tiled 1.8 (CellRenderer::render, origin BottomLeft): a diagonal flip
   * turns the image, then moves it by half the difference of its sides on
   * both axes, so the turned tile keeps the bottom-left corner (checked
   * against tmxrasterizer with 48 x 24 tiles, tests/formats). */
  const double w = diag ? th : tw, h = diag ? tw : th;
  out->x = (double)ts->offset_x;
  out->y = ch - h + (double)ts->offset_y;
  out->w = w;
  out->h = h;
  out->px = out->x;
  out->py = out->y;
  out->sx = out->sy = 1.0;
}

TessVec2 tess_tile_place_point(const TessTilePlace *pl, TessCell cell, const TessTileset *ts, TessVec2 p) {
  TessVec2 q = tess_cell_transform_point(cell, p, (float)ts->tile_w, (float)ts->tile_h);
  return tess_v2((float)(pl->px + (double)q.x * pl->sx), (float)(pl->py + (double)q.y * pl->sy));
}

bool tess_tile_on_cell(const TessTileset *ts, TessCell cell, uint32_t cell_w, uint32_t cell_h) {
  TessTilePlace pl;
  tess_tile_place(ts, cell, cell_w, cell_h, &pl);
  return pl.x == 0.0 && pl.y == 0.0 && pl.w == (double)cell_w && pl.h == (double)cell_h;
}

bool tess_tileset_on_grid(const TessTileset *ts, uint32_t cell_w, uint32_t cell_h) {
  return tess_tile_on_cell(ts, 0, cell_w, cell_h) && tess_tile_on_cell(ts, TESS_CELL_FLIP_D, cell_w, cell_h);
}

static uint32_t beyond(double v) { return v > 0.0 ? (uint32_t)ceil(v) : 0u; }

void tess_tile_reach(const TessProject *p, uint32_t cell_w, uint32_t cell_h, TessTileReach *out) {
  memset(out, 0, sizeof *out);
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    const TessTileset *ts = p->tilesets[i];
    if (tess_tileset_on_grid(ts, cell_w, cell_h)) continue;
    for (int d = 0; d < 2; d++) { /* unturned and turned by the diagonal flip */
      TessTilePlace pl;
      tess_tile_place(ts, d ? TESS_CELL_FLIP_D : 0, cell_w, cell_h, &pl);
      uint32_t l = beyond(-pl.x), t = beyond(-pl.y), r = beyond(pl.x + pl.w - cell_w), b = beyond(pl.y + pl.h - cell_h);
      if (l > out->left) out->left = l;
      if (t > out->top) out->top = t;
      if (r > out->right) out->right = r;
      if (b > out->bottom) out->bottom = b;
    }
  }
}
