/* Polygon objects as bodies. Tessera's bodies are circles, boxes, capsules
 * or sprites, and a sprite's collision shape is its mask: so a polygon
 * becomes a sprite whose image is the polygon filled (pixel centres inside
 * it, even-odd), traced by core/mask in pieces mode. That is the one convex
 * decomposition Tessera has (concave outlines and holes included, pieces of
 * at most 8 vertices, the mass from the pixels), so a polygon body behaves
 * exactly as a sprite drawn in that shape would. The sprite's anchor is the
 * polygon's origin, Tiled's (x, y): the body turns about the point Tiled
 * turns the polygon about. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/image.h"
#include "tessera/mask.h"
#include "formats_tiled.h"

/* Beyond this many pixels a polygon is refused (its image would take 64 MiB). */
#define POLY_MAX_PIXELS ((uint64_t)4096 * 4096)
#define POLY_MAX_POINTS 65536u

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Even-odd scanline fill of pixel centres; the image's (0, 0) is the polygon's (x0, y0). */
static void fill(TessImage *img, const TessDVec2 *v, uint32_t n, double x0, double y0, double *xs) {
  for (uint32_t j = 0; j < img->height; j++) {
    double y = y0 + j + 0.5;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
      TessDVec2 a = v[i], b = v[(i + 1) % n];
      if ((a.y <= y) == (b.y <= y)) continue;
      xs[k++] = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y);
    }
    qsort(xs, k, sizeof *xs, cmp_double);
    uint8_t *row = img->pixels + (size_t)j * img->stride;
    for (uint32_t s = 0; s + 1 < k; s += 2) {
      /* Pixels whose centre x0 + i + 0.5 lies in [xs[s], xs[s+1]). */
      double from = ceil(xs[s] - x0 - 0.5), to = ceil(xs[s + 1] - x0 - 0.5);
      if (from < 0) from = 0;
      if (to > img->width) to = img->width;
      for (uint32_t i = (uint32_t)from; i < (uint32_t)to && from < to; i++) {
        uint8_t *px = row + 4 * (size_t)i;
        px[0] = 0x5B, px[1] = 0x8D, px[2] = 0xC8, px[3] = 0xFF; /* Tiled's object blue, opaque */
      }
    }
  }
}

TessResult tiled_polygon_sprite(TessMapImport *plan, const TiledObject *ob, const char *layer, TessId *out, TessError *err) {
  *out = 0;
  uint32_t n = ob->point_count;
  if (n < 3 || n > POLY_MAX_POINTS) {
    tess_map_import_warn(plan, "layer '%s' object %u '%s': a polygon of %u points (dropped)", layer, ob->id,
                         ob->name ? ob->name : "", n);
    return TESS_OK;
  }
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (uint32_t i = 0; i < n; i++) {
    x0 = fmin(x0, ob->points[i].x), y0 = fmin(y0, ob->points[i].y);
    x1 = fmax(x1, ob->points[i].x), y1 = fmax(y1, ob->points[i].y);
  }
  x0 = floor(x0), y0 = floor(y0), x1 = ceil(x1), y1 = ceil(y1);
  double w = x1 - x0, h = y1 - y0;
  if (w < 1 || h < 1 || w * h > (double)POLY_MAX_PIXELS || fabs(tess_poly_signed_area(ob->points, n)) < 0.5) {
    tess_map_import_warn(plan, "layer '%s' object %u '%s': a %gx%g px polygon %s (dropped)", layer, ob->id,
                         ob->name ? ob->name : "", w, h,
                         w * h > (double)POLY_MAX_PIXELS ? "is larger than Tessera traces (4096x4096 px)"
                                                         : "has no area to collide with");
    return TESS_OK;
  }
  TessImage img;
  TessResult r = tess_image_create((uint32_t)w, (uint32_t)h, &img, err);
  if (r) return r;
  double *xs = tess_alloc((size_t)n * sizeof *xs);
  if (!xs) {
    tess_image_clear(&img);
    return tess_error_set(err, TESS_ERR_NOMEM, plan->source, "out of memory");
  }
  fill(&img, ob->points, n, x0, y0, xs);
  tess_free(xs);
  TessSprite sp;
  memset(&sp, 0, sizeof sp);
  snprintf(sp.name, sizeof sp.name, "%.40s polygon %u", layer, ob->id);
  sp.image_w = img.width;
  sp.image_h = img.height;
  sp.frame_count = 1;
  sp.anchor = tess_v2((float)-x0, (float)-y0);
  tess_sprite_mask_default(&sp.mask);
  sp.mask.mode = TESS_MASK_PIECES;
  r = tess_png_encode(tess_image_view(&img), &sp.png, &sp.png_size, err);
  if (!r && !(sp.source_path = tess_strdup(plan->source))) r = tess_error_set(err, TESS_ERR_NOMEM, plan->source, "out of memory");
  TessError terr;
  tess_error_clear(&terr);
  if (!r && tess_sprite_mask_trace(tess_image_view(&img), &sp.mask, &terr) != TESS_OK)
    r = tess_error_set(err, terr.code, plan->source, "layer '%s' object %u: tracing the polygon: %s", layer, ob->id, terr.detail);
  tess_image_clear(&img);
  TessSprite *grown = r ? NULL : tess_realloc(plan->sprites, ((size_t)plan->sprite_count + 1) * sizeof *grown);
  if (!grown) {
    tess_sprite_clear(&sp);
    return r ? r : tess_error_set(err, TESS_ERR_NOMEM, plan->source, "out of memory");
  }
  plan->sprites = grown;
  grown[plan->sprite_count++] = sp;
  *out = plan->sprite_count;
  return TESS_OK;
}
