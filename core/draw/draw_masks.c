/* Pixel-mask colliders (tessera/physics.h), drawn from the world's live bits
 * so that what Play shows is what collides: a tile layer's or a static
 * body's solid pixels, tinted by the mask's material, at the mask's origin
 * and angle. Carving shows at once: each mask keeps a 1-bit cairo copy of its
 * bits, refreshed when the world's edit count for it moves. Cairo's A1
 * surfaces hold the leftmost pixel in the low bit on a little-endian machine
 * (the mask's own order), so a refresh is a copy of rows; elsewhere the bits
 * are turned round byte by byte. The copy is 1 bit a pixel, like the mask (a
 * 4096 x 4096 mask: 2 MiB), and cairo draws only its part in the view. */
#include <string.h>

#include "draw_private.h"

static bool little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}

static uint8_t reversed(uint8_t b) {
  b = (uint8_t)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
  b = (uint8_t)((b & 0xCC) >> 2 | (b & 0x33) << 2);
  return (uint8_t)((b & 0xAA) >> 1 | (b & 0x55) << 1);
}

/* The cairo copy of mask i, made or refreshed; NULL when it cannot be made. */
static cairo_surface_t *mask_surface(TessDraw *d, const TessWorld *world, uint32_t i, const TessPixelMaskInfo *info) {
  while (d->masks.count <= i) {
    DrawMask empty = {NULL, 0, 0, NULL, UINT64_MAX};
    if (!TESS_ARRAY_PUSH(&d->masks, empty)) return NULL;
  }
  DrawMask *dm = &d->masks.data[i];
  if (dm->surface && (dm->width != info->width || dm->height != info->height)) { /* another world */
    cairo_surface_destroy(dm->surface);
    dm->surface = NULL;
  }
  if (!dm->surface) {
    if (info->width > 32767 || info->height > 32767) return NULL; /* past cairo's image size */
    dm->surface = cairo_image_surface_create(CAIRO_FORMAT_A1, (int)info->width, (int)info->height);
    if (cairo_surface_status(dm->surface) != CAIRO_STATUS_SUCCESS) {
      cairo_surface_destroy(dm->surface);
      dm->surface = NULL;
      return NULL;
    }
    dm->width = info->width;
    dm->height = info->height;
    dm->edits = UINT64_MAX;
  }
  if (dm->edits == info->edits && dm->world == world) return dm->surface;
  size_t row = (info->width + 7) / 8, need = row * info->height;
  uint8_t *bits = tess_alloc(need);
  if (!bits) return NULL;
  tess_pixel_mask_copy_bits(world, i, bits, need);
  cairo_surface_flush(dm->surface);
  unsigned char *data = cairo_image_surface_get_data(dm->surface);
  int stride = cairo_image_surface_get_stride(dm->surface);
  bool le = little_endian();
  for (uint32_t y = 0; y < info->height; y++) {
    unsigned char *dst = data + (size_t)y * (size_t)stride;
    memset(dst, 0, (size_t)stride);
    const uint8_t *src = bits + (size_t)y * row;
    if (le) memcpy(dst, src, row);
    else
      for (size_t k = 0; k < row; k++) dst[k] = reversed(src[k]);
  }
  cairo_surface_mark_dirty(dm->surface);
  tess_free(bits);
  dm->edits = info->edits;
  dm->world = world;
  d->stats.surfaces_made++;
  return dm->surface;
}

/* A material's tint: its scene colour is not in the runtime's data, so one
 * from its index, the same in every frame and every program. */
static void tint(cairo_t *cr, uint32_t material) {
  static const uint32_t colours[] = {0x9AA3ADFFu, 0xC98B4FFFu, 0x6FAE6BFFu, 0x5E8FCFFFu,
                                     0xC46A8EFFu, 0xB9A64AFFu, 0x7E6BC4FFu, 0x4FB3AEFFu};
  draw_set_rgba(cr, colours[material % (sizeof colours / sizeof colours[0])], 0.55);
}

void draw_pixel_masks(TessDraw *d, cairo_t *cr, const DrawMapper *m, const TessScene *scene, const TessWorld *world) {
  if (!world) return;
  uint32_t n = tess_world_pixel_mask_count(world);
  for (uint32_t i = 0; i < n; i++) {
    TessPixelMaskInfo info;
    if (!tess_pixel_mask_info(world, i, &info) || info.removed) continue; /* removed: no longer there */
    cairo_surface_t *s = mask_surface(d, world, i, &info);
    if (!s) continue;
    double ox, oy;
    draw_to_device(m, info.origin, &ox, &oy);
    double scale = (double)info.pixel_size * m->ppm * m->zoom; /* device pixels per mask pixel */
    cairo_save(cr);
    cairo_translate(cr, ox, oy);
    cairo_rotate(cr, info.angle);
    cairo_scale(cr, scale, scale);
    tint(cr, i < scene->pixel_mask_count ? scene->pixel_masks[i].material : 0);
    cairo_pattern_t *p = cairo_pattern_create_for_surface(s);
    cairo_pattern_set_filter(p, CAIRO_FILTER_NEAREST); /* pixels stay pixels when zoomed in */
    cairo_mask(cr, p);
    cairo_pattern_destroy(p);
    cairo_restore(cr);
  }
}

void draw_clear_masks(TessDraw *d) {
  for (size_t i = 0; i < d->masks.count; i++)
    if (d->masks.data[i].surface) cairo_surface_destroy(d->masks.data[i].surface);
  TESS_ARRAY_FREE(&d->masks);
}
