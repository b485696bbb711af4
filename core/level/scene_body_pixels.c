/* A static sprite body that collides by pixels, as a scene pixel mask
 * (tessera/scene.h): the sprite's first frame, solid where the alpha reaches
 * the sprite mask's threshold (the threshold its traced shapes use), one mask
 * pixel per sprite pixel at the level's pixels per metre, laid in the body's
 * frame with the anchor at the body's origin. The world turns it with the
 * body (world_from_scene.c). */
#include <string.h>

#include "level_private.h"
#include "tessera/image.h"
#include "tessera/scene.h"

TessResult level_scene_body_pixel_mask(const TessLevel *level, const TessObject *o, const TessSprite *sp,
                                       uint32_t body, uint32_t material, TessScene *s, TessError *err) {
  const char *where = level->settings.name;
  TessImage img;
  TessError e;
  if (!sp->png || tess_png_decode(sp->png, sp->png_size, sp->name, &img, &e) != TESS_OK)
    return tess_error_set(err, TESS_ERR_FORMAT, where, "body %u collides by pixels but sprite '%s' has no readable image",
                          o->id, sp->name);
  uint32_t frames = sp->frame_count ? sp->frame_count : 1;
  uint32_t w = img.width / frames, h = img.height;
  if (w == 0 || h == 0 || w > TESS_PIXEL_MASK_MAX_SIDE || h > TESS_PIXEL_MASK_MAX_SIDE) {
    tess_image_clear(&img);
    return tess_error_set(err, TESS_ERR_LIMIT, where, "body %u collides by pixels: sprite '%s' frames of %u x %u pixels",
                          o->id, sp->name, w, h);
  }
  size_t stride = (w + 7) / 8, bytes = stride * h;
  uint8_t *all = tess_realloc(s->pixel_bits, (size_t)s->pixel_bits_size + bytes);
  TessScenePixelMask *masks = all ? tess_realloc(s->pixel_masks, (s->pixel_mask_count + 1) * sizeof *masks) : NULL;
  if (all) s->pixel_bits = all;
  if (masks) s->pixel_masks = masks;
  if (!all || !masks) {
    tess_image_clear(&img);
    return tess_error_set(err, TESS_ERR_NOMEM, where, "out of memory");
  }
  uint8_t *bits = all + s->pixel_bits_size;
  memset(bits, 0, bytes);
  uint8_t threshold = sp->mask.threshold ? sp->mask.threshold : 1;
  for (uint32_t y = 0; y < h; y++) {
    const uint8_t *row = img.pixels + (size_t)y * img.stride;
    for (uint32_t x = 0; x < w; x++)
      if (row[(size_t)x * 4 + 3] >= threshold) bits[(size_t)y * stride + x / 8] |= (uint8_t)(1u << (x & 7));
  }
  tess_image_clear(&img);
  float inv_ppm = 1.0f / level->settings.ppm;
  TessScenePixelMask *pm = &masks[s->pixel_mask_count++];
  memset(pm, 0, sizeof *pm);
  pm->body = body + 1;
  pm->width = w;
  pm->height = h;
  pm->pixel_size = inv_ppm;
  pm->origin = tess_v2(-sp->anchor.x * inv_ppm, -sp->anchor.y * inv_ppm);
  pm->material = material;
  pm->bits_offset = s->pixel_bits_size;
  s->pixel_bits_size += bytes;
  return TESS_OK;
}
