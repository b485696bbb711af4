/* Thousands of tiny cairo_paint calls cost more in set-up than in pixels, so
 * when the target is a plain image surface with an unscaled, unrotated
 * transform and a rectangular clip, pre-rendered surfaces are composited
 * (premultiplied OVER) straight into its pixels. Anything else takes cairo. */
#include <string.h>

#include "draw_private.h"

void draw_blitter_init(DrawBlitter *bl, cairo_t *cr) {
  memset(bl, 0, sizeof *bl);
  cairo_surface_t *t = cairo_get_target(cr);
  if (cairo_surface_get_type(t) != CAIRO_SURFACE_TYPE_IMAGE) return;
  cairo_format_t f = cairo_image_surface_get_format(t);
  if (f != CAIRO_FORMAT_ARGB32 && f != CAIRO_FORMAT_RGB24) return;
  double sx, sy, ox, oy;
  cairo_surface_get_device_scale(t, &sx, &sy);
  cairo_surface_get_device_offset(t, &ox, &oy);
  cairo_matrix_t mtx;
  cairo_get_matrix(cr, &mtx);
  if (sx != 1.0 || sy != 1.0 || mtx.xx != 1.0 || mtx.yy != 1.0 || mtx.xy != 0.0 || mtx.yx != 0.0) return;
  cairo_rectangle_list_t *rl = cairo_copy_clip_rectangle_list(cr);
  bool ok = rl->status == CAIRO_STATUS_SUCCESS && rl->num_rectangles <= 1;
  double cx0 = 0, cy0 = 0, cx1 = 0, cy1 = 0;
  if (ok && rl->num_rectangles == 1) {
    cx0 = rl->rectangles[0].x;
    cy0 = rl->rectangles[0].y;
    cx1 = cx0 + rl->rectangles[0].width;
    cy1 = cy0 + rl->rectangles[0].height;
  }
  cairo_rectangle_list_destroy(rl);
  if (!ok) return;
  bl->ux = mtx.x0 + ox;
  bl->uy = mtx.y0 + oy;
  int w = cairo_image_surface_get_width(t), h = cairo_image_surface_get_height(t);
  bl->x0 = (int)fmax(0.0, ceil(cx0 + bl->ux - 1e-6));
  bl->y0 = (int)fmax(0.0, ceil(cy0 + bl->uy - 1e-6));
  bl->x1 = (int)fmin((double)w, floor(cx1 + bl->ux + 1e-6));
  bl->y1 = (int)fmin((double)h, floor(cy1 + bl->uy + 1e-6));
  cairo_surface_flush(t);
  bl->data = (uint32_t *)(void *)cairo_image_surface_get_data(t);
  bl->stride = cairo_image_surface_get_stride(t) / 4;
  bl->direct = bl->data != NULL;
}

static inline uint32_t over(uint32_t src, uint32_t dst) {
  uint32_t ia = 255u - (src >> 24);
  uint32_t rb = (dst & 0x00ff00ffu) * ia + 0x00800080u;
  rb = ((rb + ((rb >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
  uint32_t ag = ((dst >> 8) & 0x00ff00ffu) * ia + 0x00800080u;
  ag = (ag + ((ag >> 8) & 0x00ff00ffu)) & 0xff00ff00u;
  return src + (rb | ag);
}

/* Draws `src` with its top-left at user point (x, y), both whole pixels. */
void draw_blit(const DrawBlitter *bl, cairo_t *cr, cairo_surface_t *src, double x, double y) {
  if (!bl->direct) {
    cairo_set_source_surface(cr, src, x, y);
    cairo_paint(cr);
    return;
  }
  int px = (int)lround(x + bl->ux), py = (int)lround(y + bl->uy);
  int w = cairo_image_surface_get_width(src), h = cairo_image_surface_get_height(src);
  int sx0 = px < bl->x0 ? bl->x0 - px : 0, sy0 = py < bl->y0 ? bl->y0 - py : 0;
  int sx1 = px + w > bl->x1 ? bl->x1 - px : w, sy1 = py + h > bl->y1 ? bl->y1 - py : h;
  if (sx0 >= sx1 || sy0 >= sy1) return;
  const uint32_t *s = (const uint32_t *)(const void *)cairo_image_surface_get_data(src);
  int ss = cairo_image_surface_get_stride(src) / 4;
  for (int yy = sy0; yy < sy1; yy++) {
    const uint32_t *srow = s + (size_t)yy * (size_t)ss;
    uint32_t *drow = bl->data + (size_t)(py + yy) * (size_t)bl->stride + px;
    for (int xx = sx0; xx < sx1; xx++) {
      uint32_t v = srow[xx];
      uint32_t a = v >> 24;
      if (a == 255u) drow[xx] = v;
      else if (a) drow[xx] = over(v, drow[xx]);
    }
  }
}

void draw_blitter_done(const DrawBlitter *bl, cairo_t *cr) {
  if (bl->direct) cairo_surface_mark_dirty(cairo_get_target(cr));
}
