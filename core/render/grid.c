/* The cell grid, one device pixel wide; a chunk grid when cells get small. */
#include <math.h>

#include "render_private.h"

void render_paint_grid(cairo_t *cr, const TessLevel *level, double tx, double ty, double zoom, uint32_t x0, uint32_t y0,
                       uint32_t x1, uint32_t y1, uint32_t color) {
  if (x1 <= x0 || y1 <= y0) return;
  const double cw = level->settings.tile_w * zoom, ch = level->settings.tile_h * zoom;
  /* Cell lines closer than 10 px hide the tiles: show chunk lines instead,
   * and soften cell lines until cells reach 20 px. */
  uint32_t step = 1;
  double fade = 1.0;
  if (cw < 10.0 || ch < 10.0) {
    step = TESS_CHUNK_SIZE;
    if (cw * step < 12.0 || ch * step < 12.0) return;
  } else if (cw < 20.0 || ch < 20.0) {
    fade = 0.6;
  }
  const double bottom = ty + round(y1 * (double)level->settings.tile_h * zoom);
  const double left = tx + round(x0 * (double)level->settings.tile_w * zoom),
               right = tx + round(x1 * (double)level->settings.tile_w * zoom);
  double y_top = ty + round(y0 * (double)level->settings.tile_h * zoom);
  for (uint32_t x = (x0 + step - 1) / step * step; x <= x1; x += step) {
    double dx = tx + round(x * (double)level->settings.tile_w * zoom) + 0.5;
    cairo_move_to(cr, dx, y_top);
    cairo_line_to(cr, dx, bottom);
  }
  for (uint32_t y = (y0 + step - 1) / step * step; y <= y1; y += step) {
    double dy = ty + round(y * (double)level->settings.tile_h * zoom) + 0.5;
    cairo_move_to(cr, left, dy);
    cairo_line_to(cr, right, dy);
  }
  render_set_rgba(cr, color, fade);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
}
