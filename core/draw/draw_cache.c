/* The painter's pre-rendered surfaces: sprite strips handed over by the
 * caller, circles once per radius and colour, and sprite frames once per
 * zoom and rotation step, so that a frame of thousands of bodies is blits. */
#include <string.h>

#include "draw_private.h"

void draw_set_rgba(cairo_t *cr, uint32_t c, double alpha_scale) {
  cairo_set_source_rgba(cr, ((c >> 24) & 0xff) / 255.0, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
                        (c & 0xff) / 255.0 * alpha_scale);
}

void draw_clear_circles(TessDraw *d) {
  for (int i = 0; i < d->circle_count; i++) cairo_surface_destroy(d->circles[i].surface);
  d->circle_count = 0;
}

void draw_clear_turned(TessDraw *d) {
  for (size_t i = 0; i < d->turned.count; i++) cairo_surface_destroy(d->turned.data[i].surface);
  d->turned.count = 0;
  memset(d->turned_slot, 0xff, sizeof d->turned_slot);
}

/* ---- sprites --------------------------------------------------------------- */

static DrawSprite *find_sprite(TessDraw *d, uint32_t key) {
  for (size_t i = 0; i < d->sprites.count; i++)
    if (d->sprites.data[i].key == key) return &d->sprites.data[i];
  return NULL;
}

/* The entry of `key`, asking the source once for a key never seen; NULL
 * when there is none (no source, or out of memory). */
DrawSprite *draw_sprite(TessDraw *d, uint32_t key) {
  DrawSprite *e = find_sprite(d, key);
  if (e || !key) return e;
  DrawSprite blank;
  memset(&blank, 0, sizeof blank);
  blank.key = key;
  if (!TESS_ARRAY_PUSH(&d->sprites, blank)) return NULL; /* asked once: a failure is not asked again */
  if (d->sprite_fn) d->sprite_fn(d->sprite_user, d, key);
  return find_sprite(d, key);
}

void tess_draw_want_sprite(TessDraw *d, uint32_t key) { (void)draw_sprite(d, key); }

void tess_draw_set_sprite_source(TessDraw *d, TessDrawSpriteFn fn, void *user) {
  d->sprite_fn = fn;
  d->sprite_user = user;
}

bool tess_draw_has_sprite(const TessDraw *d, uint32_t key) {
  for (size_t i = 0; i < d->sprites.count; i++)
    if (d->sprites.data[i].key == key) return d->sprites.data[i].surface != NULL;
  return false;
}

static TessResult check_strip(uint32_t key, uint32_t width, uint32_t height, uint32_t frame_count, TessError *err) {
  if (!key) return tess_error_set(err, TESS_ERR_INVALID, "draw", "sprite key 0 is reserved for \"no sprite\"");
  if (!width || !height || !frame_count || width < frame_count) /* frames are width / frame_count px wide */
    return tess_error_set(err, TESS_ERR_INVALID, "draw", "sprite %u: %u x %u px does not hold %u frames", key, width,
                          height, frame_count);
  if (width > 32767 || height > 32767)
    return tess_error_set(err, TESS_ERR_LIMIT, "draw", "sprite %u: %u x %u px is past 32767 px a side", key, width,
                          height);
  return TESS_OK;
}

/* Puts `surface` (owned from here) in key's entry, keeping its player. */
static TessResult store_sprite(TessDraw *d, uint32_t key, cairo_surface_t *surface, uint32_t frame_count,
                               float frame_rate, TessError *err) {
  DrawSprite *e = find_sprite(d, key);
  if (!e) {
    DrawSprite blank;
    memset(&blank, 0, sizeof blank);
    blank.key = key;
    if (!TESS_ARRAY_PUSH(&d->sprites, blank)) {
      cairo_surface_destroy(surface);
      return tess_error_set(err, TESS_ERR_NOMEM, "draw", "no memory for sprite %u", key);
    }
    e = &d->sprites.data[d->sprites.count - 1];
  }
  if (e->surface) {
    cairo_surface_destroy(e->surface);
    draw_clear_turned(d); /* frames of the old image */
  }
  e->surface = surface;
  e->frame_count = frame_count;
  e->frame_w = (uint32_t)cairo_image_surface_get_width(surface) / frame_count;
  e->frame_h = (uint32_t)cairo_image_surface_get_height(surface);
  e->frame_rate = frame_rate;
  if (e->player.frame >= frame_count) e->player.frame = 0;
  d->stats.surfaces_made++;
  return TESS_OK;
}

TessResult tess_draw_set_sprite(TessDraw *d, uint32_t key, const uint8_t *rgba, uint32_t width, uint32_t height,
                                size_t stride, uint32_t frame_count, float frame_rate, TessError *err) {
  TessResult r = check_strip(key, width, height, frame_count, err);
  if (r != TESS_OK) return r;
  if (!rgba || stride < (size_t)width * 4)
    return tess_error_set(err, TESS_ERR_INVALID, "draw", "sprite %u: rows of %zu bytes hold no %u RGBA pixels", key,
                          stride, width);
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)width, (int)height);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    return tess_error_set(err, TESS_ERR_NOMEM, "draw", "no memory for sprite %u (%u x %u px)", key, width, height);
  }
  cairo_surface_flush(s);
  unsigned char *dst = cairo_image_surface_get_data(s);
  int dstride = cairo_image_surface_get_stride(s);
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *src = rgba + y * stride;
    uint32_t *row = (uint32_t *)(void *)(dst + (size_t)y * (size_t)dstride);
    for (uint32_t x = 0; x < width; x++) {
      uint32_t r8 = src[4 * x], g = src[4 * x + 1], b = src[4 * x + 2], a = src[4 * x + 3];
      r8 = (r8 * a + 127) / 255;
      g = (g * a + 127) / 255;
      b = (b * a + 127) / 255;
      row[x] = (a << 24) | (r8 << 16) | (g << 8) | b;
    }
  }
  cairo_surface_mark_dirty(s);
  return store_sprite(d, key, s, frame_count, frame_rate, err);
}

TessResult tess_draw_set_sprite_surface(TessDraw *d, uint32_t key, cairo_surface_t *strip, uint32_t frame_count,
                                        float frame_rate, TessError *err) {
  if (!strip || cairo_surface_status(strip) != CAIRO_STATUS_SUCCESS ||
      cairo_surface_get_type(strip) != CAIRO_SURFACE_TYPE_IMAGE ||
      cairo_image_surface_get_format(strip) != CAIRO_FORMAT_ARGB32)
    return tess_error_set(err, TESS_ERR_INVALID, "draw", "sprite %u: not an ARGB32 image surface", key);
  TessResult r = check_strip(key, (uint32_t)cairo_image_surface_get_width(strip),
                             (uint32_t)cairo_image_surface_get_height(strip), frame_count, err);
  if (r != TESS_OK) return r;
  return store_sprite(d, key, cairo_surface_reference(strip), frame_count, frame_rate, err);
}

void tess_draw_advance_animation(TessDraw *d, double sim_seconds) {
  for (size_t i = 0; i < d->sprites.count; i++) {
    DrawSprite *e = &d->sprites.data[i];
    if (e->surface && e->frame_count > 1 && e->frame_rate != 0.0f)
      tess_frame_player_advance(&e->player, e->frame_rate * sim_seconds, e->frame_count);
  }
}

uint32_t tess_draw_sprite_frame(const TessDraw *d, uint32_t key) {
  for (size_t i = 0; i < d->sprites.count; i++)
    if (d->sprites.data[i].key == key) return d->sprites.data[i].player.frame;
  return 0;
}

/* ---- circles ----------------------------------------------------------------- */

const DrawCircle *draw_circle(TessDraw *d, double radius, uint32_t color) {
  int q = (int)(radius * 4.0 + 0.5);
  if (q < 2) q = 2;
  for (int i = 0; i < d->circle_count; i++)
    if (d->circles[i].radius_q == q && d->circles[i].color == color) return &d->circles[i];
  if (d->circle_count == DRAW_CIRCLE_CACHE_MAX) draw_clear_circles(d); /* zoomed through many sizes */
  double r = q / 4.0;
  int half = (int)(r + 2.0);
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 2 * half, 2 * half);
  cairo_t *cr = cairo_create(s);
  cairo_arc(cr, half, half, r - 0.5, 0, 2 * M_PI);
  draw_set_rgba(cr, color | 0xffu, 1.0);
  cairo_fill_preserve(cr);
  cairo_set_line_width(cr, r > 6 ? 1.5 : 1.0);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.55);
  cairo_stroke(cr);
  if (r > 5) { /* a highlight so balls read as round */
    cairo_arc(cr, half - r * 0.35, half - r * 0.35, r * 0.25, 0, 2 * M_PI);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.35);
    cairo_fill(cr);
  }
  cairo_destroy(cr);
  cairo_surface_flush(s);
  DrawCircle *e = &d->circles[d->circle_count++];
  e->radius_q = q;
  e->color = color;
  e->surface = s;
  e->half = half;
  d->stats.surfaces_made++;
  return e;
}

/* ---- sprite frames turned and scaled ---------------------------------------- */

static uint32_t turned_hash(uint32_t sprite, uint32_t frame, int angle_step, int zoom_q) {
  uint64_t h = (uint64_t)sprite * 0x9E3779B97F4A7C15ull ^ (uint64_t)frame * 0xC2B2AE3D27D4EB4Full ^
               (uint64_t)(uint32_t)angle_step * 0x165667B19E3779F9ull ^ (uint64_t)(uint32_t)zoom_q * 0x27D4EB2F165667C5ull;
  return (uint32_t)(h ^ (h >> 29)) & (2 * DRAW_TURNED_MAX - 1);
}

/* The current frame of `se` turned by angle step `a` at `zoom`, rendered on
 * first use. */
const DrawTurned *draw_turned(TessDraw *d, const DrawSprite *se, TessVec2 origin_px, int a, double zoom) {
  int zq = (int)(zoom * 4096.0 + 0.5);
  uint32_t frame = se->player.frame;
  uint32_t h = turned_hash(se->key, frame, a, zq);
  for (;;) {
    int32_t i = d->turned_slot[h];
    if (i < 0) break;
    const DrawTurned *t = &d->turned.data[i];
    if (t->sprite == se->key && t->frame == frame && t->angle_step == a && t->zoom_q == zq) return t;
    h = (h + 1) & (2 * DRAW_TURNED_MAX - 1);
  }
  if (d->turned.count >= DRAW_TURNED_MAX) { /* zoomed through many sizes: start over */
    draw_clear_turned(d);
    h = turned_hash(se->key, frame, a, zq);
  }
  double th = 2.0 * M_PI * a / DRAW_ANGLE_STEPS, c = cos(th), s = sin(th);
  double xs[4] = {origin_px.x, origin_px.x + se->frame_w, origin_px.x, origin_px.x + se->frame_w};
  double ys[4] = {origin_px.y, origin_px.y, origin_px.y + se->frame_h, origin_px.y + se->frame_h};
  double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
  for (int k = 0; k < 4; k++) {
    double x = (c * xs[k] - s * ys[k]) * zoom, y = (s * xs[k] + c * ys[k]) * zoom;
    x0 = fmin(x0, x);
    y0 = fmin(y0, y);
    x1 = fmax(x1, x);
    y1 = fmax(y1, y);
  }
  DrawTurned t;
  t.sprite = se->key;
  t.frame = frame;
  t.angle_step = a;
  t.zoom_q = zq;
  t.ox = (int)ceil(-x0) + 1;
  t.oy = (int)ceil(-y0) + 1;
  int w = (int)ceil(x1) + t.ox + 1, hgt = (int)ceil(y1) + t.oy + 1;
  t.surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w > 1 ? w : 1, hgt > 1 ? hgt : 1);
  cairo_t *cr = cairo_create(t.surface);
  cairo_translate(cr, t.ox, t.oy);
  cairo_rotate(cr, th);
  cairo_scale(cr, zoom, zoom);
  cairo_rectangle(cr, origin_px.x, origin_px.y, se->frame_w, se->frame_h);
  cairo_clip(cr);
  cairo_set_source_surface(cr, se->surface, origin_px.x - (double)frame * se->frame_w, origin_px.y);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
  cairo_paint(cr);
  cairo_destroy(cr);
  cairo_surface_flush(t.surface);
  if (!TESS_ARRAY_PUSH(&d->turned, t)) {
    cairo_surface_destroy(t.surface);
    return NULL;
  }
  d->stats.surfaces_made++;
  while (d->turned_slot[h] >= 0) h = (h + 1) & (2 * DRAW_TURNED_MAX - 1);
  d->turned_slot[h] = (int32_t)(d->turned.count - 1);
  return &d->turned.data[d->turned.count - 1];
}
