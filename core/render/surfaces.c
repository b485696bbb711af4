/* Tileset and sprite images as premultiplied cairo surfaces, decoded once
 * through core/image and kept until the tileset or sprite changes. */
#include <stdio.h>
#include <string.h>

#include "render_private.h"

cairo_surface_t *render_surface_from_image(const TessImage *img) {
  if (img->width == 0 || img->height == 0 || img->width > 32767 || img->height > 32767) return NULL;
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)img->width, (int)img->height);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    return NULL;
  }
  cairo_surface_flush(s);
  uint8_t *dst = cairo_image_surface_get_data(s);
  int dst_stride = cairo_image_surface_get_stride(s);
  for (uint32_t y = 0; y < img->height; y++) {
    const uint8_t *src = img->pixels + (size_t)y * img->stride;
    uint32_t *row = (uint32_t *)(void *)(dst + (size_t)y * (size_t)dst_stride);
    for (uint32_t x = 0; x < img->width; x++) {
      uint32_t r = src[4 * x], g = src[4 * x + 1], b = src[4 * x + 2], a = src[4 * x + 3];
      /* Cairo wants premultiplied alpha; round like pixman (x * a / 255). */
      if (a != 255) {
        r = (r * a + 127) / 255;
        g = (g * a + 127) / 255;
        b = (b * a + 127) / 255;
      }
      row[x] = (a << 24) | (r << 16) | (g << 8) | b;
    }
  }
  cairo_surface_mark_dirty(s);
  return s;
}

static void compute_averages(TessTileSurface *ts, const TessTileset *def) {
  ts->average = tess_calloc(def->tile_count ? def->tile_count : 1, sizeof(uint32_t));
  if (!ts->average) return;
  ts->tile_count = def->tile_count;
  const uint8_t *data = cairo_image_surface_get_data(ts->surface);
  int stride = cairo_image_surface_get_stride(ts->surface);
  int iw = cairo_image_surface_get_width(ts->surface), ih = cairo_image_surface_get_height(ts->surface);
  for (uint32_t t = 0; t < def->tile_count; t++) {
    uint32_t ox, oy;
    tess_tileset_tile_origin(def, t, &ox, &oy);
    uint64_t sum[4] = {0, 0, 0, 0}, n = 0;
    for (uint32_t y = oy; y < oy + def->tile_h && (int)y < ih; y++) {
      const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
      for (uint32_t x = ox; x < ox + def->tile_w && (int)x < iw; x++) {
        uint32_t p = row[x];
        sum[0] += p >> 24;
        sum[1] += (p >> 16) & 0xFF;
        sum[2] += (p >> 8) & 0xFF;
        sum[3] += p & 0xFF;
        n++;
      }
    }
    if (n == 0) continue;
    uint32_t c = 0;
    for (int k = 0; k < 4; k++) c = (c << 8) | (uint32_t)((sum[k] + n / 2) / n);
    ts->average[t] = c;
  }
}

TessTileSurface *render_tileset(TessRenderer *r, TessId id) {
  if (id == 0 || id > TESS_TILESET_ID_MAX) return NULL;
  if (r->tilesets[id]) return r->tilesets[id];
  const TessTileset *def = tess_project_tileset(r->project, id);
  if (!def) return NULL;
  TessTileSurface *ts = tess_calloc(1, sizeof *ts);
  if (!ts) return NULL;
  TessImage img = {0};
  TessError err;
  tess_error_clear(&err);
  TessResult res = tess_png_decode(def->png, def->png_size, def->name, &img, &err);
  r->stats.tilesets_decoded++;
  if (res == TESS_OK && (img.width != def->image_w || img.height != def->image_h)) {
    /* The painters cut tiles by the project's grid: an image of another size
     * (replaced bytes) would be read outside its pixels. Drawn as the
     * placeholder, and the draw reports it. */
    res = TESS_ERR_FORMAT;
    snprintf(ts->failure_detail, sizeof ts->failure_detail,
             "tileset image is %ux%u px but the project declares %ux%u", img.width, img.height, def->image_w,
             def->image_h);
    tess_image_clear(&img);
  } else if (res == TESS_OK) {
    ts->surface = render_surface_from_image(&img);
    tess_image_clear(&img);
    if (!ts->surface) {
      res = TESS_ERR_LIMIT;
      snprintf(ts->failure_detail, sizeof ts->failure_detail, "tileset image too large to draw");
    }
  } else {
    memcpy(ts->failure_detail, err.detail, sizeof ts->failure_detail);
    ts->failure_detail[sizeof ts->failure_detail - 1] = 0;
  }
  ts->failure = res;
  if (ts->surface) {
    ts->pattern = cairo_pattern_create_for_surface(ts->surface);
    cairo_pattern_set_filter(ts->pattern, CAIRO_FILTER_NEAREST);
    compute_averages(ts, def);
  }
  r->tilesets[id] = ts;
  return ts;
}

cairo_pattern_t *render_tileset_mip(TessTileSurface *ts, const TessTileset *def, int lod) {
  if (lod <= 0 || lod >= TESS_RENDER_LOD_COUNT || !ts->surface) return NULL;
  if (ts->mip_tried[lod]) return ts->mip_pattern[lod];
  ts->mip_tried[lod] = true;
  const uint32_t f = 1u << (2 * lod); /* 4, 16 */
  if (def->tile_w % f || def->tile_h % f || def->columns == 0 || def->tile_count == 0) return NULL;
  const uint32_t mw = def->tile_w / f, mh = def->tile_h / f;
  const uint32_t cols = def->columns, rows = (def->tile_count + cols - 1) / cols;
  if ((uint64_t)cols * mw > 32767 || (uint64_t)rows * mh > 32767) return NULL;
  cairo_surface_t *m = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(cols * mw), (int)(rows * mh));
  if (cairo_surface_status(m) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(m);
    return NULL;
  }
  cairo_surface_flush(m);
  const uint8_t *src = cairo_image_surface_get_data(ts->surface);
  const int sstride = cairo_image_surface_get_stride(ts->surface);
  const int iw = cairo_image_surface_get_width(ts->surface), ih = cairo_image_surface_get_height(ts->surface);
  uint8_t *dst = cairo_image_surface_get_data(m);
  const int dstride = cairo_image_surface_get_stride(m);
  for (uint32_t t = 0; t < def->tile_count; t++) {
    uint32_t ox, oy;
    tess_tileset_tile_origin(def, t, &ox, &oy);
    uint32_t dx0 = (t % cols) * mw, dy0 = (t / cols) * mh;
    for (uint32_t my = 0; my < mh; my++) {
      uint32_t *drow = (uint32_t *)(void *)(dst + (size_t)(dy0 + my) * (size_t)dstride);
      for (uint32_t mx = 0; mx < mw; mx++) {
        /* Mean of the f x f premultiplied pixels (a box filter). */
        uint32_t sum[4] = {0, 0, 0, 0}, n = 0;
        for (uint32_t y = oy + my * f; y < oy + (my + 1) * f && (int)y < ih; y++) {
          const uint32_t *srow = (const uint32_t *)(const void *)(src + (size_t)y * (size_t)sstride);
          for (uint32_t x = ox + mx * f; x < ox + (mx + 1) * f && (int)x < iw; x++) {
            uint32_t p = srow[x];
            sum[0] += p >> 24;
            sum[1] += (p >> 16) & 0xFF;
            sum[2] += (p >> 8) & 0xFF;
            sum[3] += p & 0xFF;
            n++;
          }
        }
        uint32_t c = 0;
        if (n)
          for (int k = 0; k < 4; k++) c = (c << 8) | ((sum[k] + n / 2) / n);
        drow[dx0 + mx] = c;
      }
    }
  }
  cairo_surface_mark_dirty(m);
  ts->mip[lod] = m;
  ts->mip_pattern[lod] = cairo_pattern_create_for_surface(m);
  cairo_pattern_set_filter(ts->mip_pattern[lod], CAIRO_FILTER_NEAREST);
  return ts->mip_pattern[lod];
}

void render_drop_tileset(TessRenderer *r, TessId id) {
  if (id == 0 || id > TESS_TILESET_ID_MAX || !r->tilesets[id]) return;
  TessTileSurface *ts = r->tilesets[id];
  for (int l = 0; l < TESS_RENDER_LOD_COUNT; l++) {
    if (ts->mip_pattern[l]) cairo_pattern_destroy(ts->mip_pattern[l]);
    if (ts->mip[l]) cairo_surface_destroy(ts->mip[l]);
  }
  if (ts->pattern) cairo_pattern_destroy(ts->pattern);
  if (ts->surface) cairo_surface_destroy(ts->surface);
  tess_free(ts->average);
  tess_free(ts);
  r->tilesets[id] = NULL;
}

cairo_surface_t *render_sprite(TessRenderer *r, TessId id) {
  for (size_t i = 0; i < r->sprites.count; i++)
    if (r->sprites.data[i].id == id) return r->sprites.data[i].surface;
  const TessSprite *sp = tess_project_sprite(r->project, id);
  if (!sp) return NULL;
  TessSpriteSurface entry = {id, NULL};
  TessImage img = {0};
  if (tess_png_decode(sp->png, sp->png_size, sp->name, &img, NULL) == TESS_OK) {
    /* Frames are cut by the declared size: another size is not drawn. */
    if (img.width == sp->image_w && img.height == sp->image_h) entry.surface = render_surface_from_image(&img);
    tess_image_clear(&img);
  }
  r->stats.sprites_decoded++;
  if (!TESS_ARRAY_PUSH(&r->sprites, entry)) {
    if (entry.surface) cairo_surface_destroy(entry.surface);
    return NULL;
  }
  return entry.surface;
}

void render_drop_sprite(TessRenderer *r, TessId id) {
  for (size_t i = 0; i < r->sprites.count; i++) {
    if (r->sprites.data[i].id != id) continue;
    if (r->sprites.data[i].surface) cairo_surface_destroy(r->sprites.data[i].surface);
    r->sprites.data[i] = r->sprites.data[--r->sprites.count];
    return;
  }
}

void render_drop_surfaces(TessRenderer *r) {
  for (uint32_t id = 1; id <= TESS_TILESET_ID_MAX; id++) render_drop_tileset(r, id);
  while (r->sprites.count) render_drop_sprite(r, r->sprites.data[0].id);
}

cairo_surface_t *tess_renderer_tileset_surface(TessRenderer *r, TessId tileset, TessError *err) {
  TessTileSurface *ts = render_tileset(r, tileset);
  if (!ts) {
    tess_error_set(err, TESS_ERR_NOT_FOUND, "", "no tileset %u", (unsigned)tileset);
    return NULL;
  }
  if (!ts->surface) {
    const TessTileset *def = tess_project_tileset(r->project, tileset);
    tess_error_set(err, ts->failure, def ? def->name : "", "%s", ts->failure_detail);
    return NULL;
  }
  return ts->surface;
}
