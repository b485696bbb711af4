/* Tile layers that collide by pixels, as the scene's pixel masks
 * (tessera/scene.h): each tile's pixels land where tess_tile_place draws
 * them (flips, offsets), one mask pixel per level pixel, solid where the
 * alpha reaches the tileset's threshold. The collision rule leaves these
 * layers out of the cells (collision.c), so they collide once, by pixels. */
#include <string.h>

#include "level_private.h"
#include "tessera/image.h"
#include "tessera/scene.h"

/* Decoded tileset images, made on first use (a level uses few tilesets). */
typedef struct Images {
  TessId id[64];
  TessImage img[64];
  uint32_t count;
} Images;

static void images_free(Images *im) {
  for (uint32_t i = 0; i < im->count; i++) tess_image_clear(&im->img[i]);
}

static TessResult image_of(Images *im, const TessTileset *ts, const char *layer, const TessImage **out,
                           TessError *err) {
  for (uint32_t i = 0; i < im->count; i++)
    if (im->id[i] == ts->id) {
      *out = &im->img[i];
      return TESS_OK;
    }
  if (im->count == 64)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "layer %s: more than 64 tilesets collide by pixels", layer);
  TessError e;
  if (!ts->png || tess_png_decode(ts->png, ts->png_size, ts->name, &im->img[im->count], &e) != TESS_OK)
    return tess_error_set(err, TESS_ERR_FORMAT, LEVEL_FILE,
                          "layer %s collides by pixels but tileset '%s' has no readable image", layer, ts->name);
  im->id[im->count] = ts->id;
  *out = &im->img[im->count++];
  return TESS_OK;
}

/* The scene's index of material id (materials are in id order after the default at 0). */
static uint32_t material_index(const TessScene *s, TessId id) {
  uint32_t lo = 1, hi = s->material_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s->materials[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < s->material_count && s->materials[lo].id == id ? lo : 0;
}

typedef struct MaskBuild {
  uint8_t *bits;
  uint32_t width, height;
  size_t stride;
  uint64_t *votes; /* solid pixels per scene material */
} MaskBuild;

/* One cell's tile, pixel by pixel: each opaque tile pixel's centre, placed, names the level pixel. */
static void draw_tile(MaskBuild *m, const TessTileset *ts, const TessImage *img, TessCell cell,
                      uint32_t cx, uint32_t cy, const TessLevelSettings *ls, uint32_t material) {
  uint32_t t = TESS_CELL_TILE(cell);
  if (t >= ts->tile_count || ts->columns == 0) return;
  uint32_t x0 = ts->margin + (t % ts->columns) * (ts->tile_w + ts->spacing);
  uint32_t y0 = ts->margin + (t / ts->columns) * (ts->tile_h + ts->spacing);
  TessTilePlace pl;
  tess_tile_place(ts, cell, ls->tile_w, ls->tile_h, &pl);
  double ox = (double)cx * ls->tile_w, oy = (double)cy * ls->tile_h;
  for (uint32_t v = 0; v < ts->tile_h && y0 + v < img->height; v++) {
    const uint8_t *row = img->pixels + (size_t)(y0 + v) * img->stride;
    for (uint32_t u = 0; u < ts->tile_w && x0 + u < img->width; u++) {
      if (row[(size_t)(x0 + u) * 4 + 3] < ts->alpha_threshold) continue;
      TessVec2 at = tess_tile_place_point(&pl, cell, ts, tess_v2((float)u + 0.5f, (float)v + 0.5f));
      double px = floor(ox + at.x), py = floor(oy + at.y);
      if (px < 0.0 || py < 0.0 || px >= m->width || py >= m->height) continue; /* drawn off the level */
      size_t byte = (size_t)py * m->stride + (size_t)px / 8;
      uint8_t bit = (uint8_t)(1u << ((uint32_t)px & 7));
      if (!(m->bits[byte] & bit)) m->votes[material]++;
      m->bits[byte] |= bit;
    }
  }
}

static TessResult build_layer(const TessProject *p, const TessLevel *level, const TessLayer *layer, TessScene *s,
                              Images *im, TessError *err) {
  const TessLevelSettings *ls = &level->settings;
  uint64_t w = (uint64_t)ls->width * ls->tile_w, h = (uint64_t)ls->height * ls->tile_h;
  if (w > TESS_PIXEL_MASK_MAX_SIDE || h > TESS_PIXEL_MASK_MAX_SIDE)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE,
                          "layer %s collides by pixels: %llu x %llu pixels (at most %u a side)", layer->props.name,
                          (unsigned long long)w, (unsigned long long)h, TESS_PIXEL_MASK_MAX_SIDE);
  MaskBuild m = {NULL, (uint32_t)w, (uint32_t)h, (size_t)((w + 7) / 8), NULL};
  uint64_t bytes = (uint64_t)m.stride * h;
  m.votes = tess_calloc(s->material_count ? s->material_count : 1, sizeof *m.votes);
  uint8_t *all = tess_realloc(s->pixel_bits, (size_t)(s->pixel_bits_size + bytes));
  if (!m.votes || !all) {
    tess_free(m.votes);
    if (all) s->pixel_bits = all;
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  s->pixel_bits = all;
  m.bits = all + s->pixel_bits_size;
  memset(m.bits, 0, (size_t)bytes);
  TessResult r = TESS_OK;
  for (uint32_t cy = 0; cy < ls->height && r == TESS_OK; cy++)
    for (uint32_t cx = 0; cx < ls->width && r == TESS_OK; cx++) {
      TessCell cell = tess_layer_cell(layer, cx, cy);
      const TessTileset *ts = cell ? tess_project_tileset(p, TESS_CELL_TILESET(cell)) : NULL;
      const TessTileInfo *tile = ts ? tess_project_tile(p, cell) : NULL;
      if (!tile) continue;
      const TessImage *img = NULL;
      r = image_of(im, ts, layer->props.name, &img, err);
      if (r == TESS_OK) draw_tile(&m, ts, img, cell, cx, cy, ls, material_index(s, tile->material));
    }
  TessScenePixelMask *masks = r == TESS_OK ? tess_realloc(s->pixel_masks, (s->pixel_mask_count + 1) * sizeof *masks) : NULL;
  if (r == TESS_OK && !masks) r = tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  if (r == TESS_OK) {
    s->pixel_masks = masks;
    TessScenePixelMask *pm = &masks[s->pixel_mask_count++];
    memset(pm, 0, sizeof *pm);
    pm->layer = layer->props.id;
    pm->width = m.width;
    pm->height = m.height;
    pm->pixel_size = 1.0f / ls->ppm;
    pm->origin = tess_v2(0.0f, 0.0f);
    for (uint32_t i = 0; i < s->material_count; i++) /* the most pixels' material; the lowest index on a tie */
      if (m.votes[i] > m.votes[pm->material]) pm->material = i;
    pm->bits_offset = s->pixel_bits_size;
    s->pixel_bits_size += bytes;
  }
  tess_free(m.votes);
  return r;
}

TessResult level_scene_pixel_masks(const TessProject *p, const TessLevel *level, TessScene *s, TessError *err) {
  Images im;
  im.count = 0;
  TessResult r = TESS_OK;
  for (uint32_t i = 0; i < level->layer_count && r == TESS_OK; i++) {
    const TessLayer *layer = level->layers[i];
    if (layer->props.kind == TESS_LAYER_TILES && layer->props.collides && layer->props.collide_pixels)
      r = build_layer(p, level, layer, s, &im, err);
  }
  images_free(&im);
  return r;
}
