/* Drawing a running preview: cached tiles from core/render, bodies blitted
 * from pre-rendered surfaces at interpolated transforms, overlays on top. */
#include "tessera/render.h"

#include <string.h>

#include "tessera/image.h"

#define CIRCLE_CACHE_MAX 256
#define CONTACT_MAX 512
#define CONTACT_LIFE 30 /* frames an impact stays on screen (half a second at 60 Hz) */

typedef struct SpriteEntry {
  TessId id;
  cairo_surface_t *surface; /* the whole strip, premultiplied; NULL when it failed to decode */
  uint32_t frame_w, frame_h, frame_count;
  float frame_rate;
  TessFramePlayer player;
} SpriteEntry;

typedef struct CircleEntry {
  int radius_q; /* device radius in 1/4 px */
  uint32_t color;
  cairo_surface_t *surface;
  int half; /* surface is 2*half square; centre at (half, half) */
} CircleEntry;

/* A sprite frame pre-rendered at one zoom and one of ANGLE_STEPS rotations,
 * so that drawing it is an untransformed blit. */
#define ANGLE_STEPS 128
#define TURNED_MAX 4096
typedef struct TurnedSprite {
  TessId sprite;
  uint32_t frame;
  int angle_step;
  int zoom_q; /* zoom in 1/4096 */
  cairo_surface_t *surface;
  int ox, oy; /* where the body origin falls in the surface */
} TurnedSprite;

typedef struct Impact {
  TessVec2 point, normal;
  int age;
} Impact;

struct TessPreviewPainter {
  const TessProject *project;
  TessRenderer *renderer;
  TESS_ARRAY(SpriteEntry)
  sprites;
  CircleEntry circles[CIRCLE_CACHE_MAX];
  int circle_count;
  Impact impacts[CONTACT_MAX];
  int impact_count;
  TessContactPoint resting[CONTACT_MAX]; /* the world's touching contact points, this frame */
  TESS_ARRAY(TurnedSprite)
  turned;
  int32_t turned_slot[2 * TURNED_MAX]; /* open addressing into `turned`, -1 = empty */
  /* The static part (tiles, and fluids / zones when shown) of the last view. */
  cairo_surface_t *background;
  const TessLevel *bg_level;
  TessRenderView bg_view;
  bool bg_zones;
  TessPreviewPainterStats stats;
};

TessPreviewPainter *tess_preview_painter_create(const TessProject *project) {
  TessPreviewPainter *pp = tess_calloc(1, sizeof *pp);
  if (!pp) return NULL;
  pp->project = project;
  memset(pp->turned_slot, 0xff, sizeof pp->turned_slot);
  pp->renderer = tess_renderer_create(project);
  if (!pp->renderer) {
    tess_free(pp);
    return NULL;
  }
  return pp;
}

static void clear_circles(TessPreviewPainter *pp) {
  for (int i = 0; i < pp->circle_count; i++) cairo_surface_destroy(pp->circles[i].surface);
  pp->circle_count = 0;
}

static void clear_turned(TessPreviewPainter *pp) {
  for (size_t i = 0; i < pp->turned.count; i++) cairo_surface_destroy(pp->turned.data[i].surface);
  pp->turned.count = 0;
  memset(pp->turned_slot, 0xff, sizeof pp->turned_slot);
}

void tess_preview_painter_destroy(TessPreviewPainter *pp) {
  if (!pp) return;
  clear_circles(pp);
  clear_turned(pp);
  TESS_ARRAY_FREE(&pp->turned);
  if (pp->background) cairo_surface_destroy(pp->background);
  for (size_t i = 0; i < pp->sprites.count; i++)
    if (pp->sprites.data[i].surface) cairo_surface_destroy(pp->sprites.data[i].surface);
  TESS_ARRAY_FREE(&pp->sprites);
  tess_renderer_destroy(pp->renderer);
  tess_free(pp);
}

TessRenderer *tess_preview_painter_renderer(TessPreviewPainter *pp) { return pp->renderer; }

/* ---- pre-rendered sprites and circles ---------------------------------- */

static cairo_surface_t *surface_from_png(const uint8_t *png, size_t size, const char *name) {
  TessImage img;
  TessError err;
  if (tess_png_decode(png, size, name, &img, &err) != TESS_OK) return NULL;
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)img.width, (int)img.height);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    tess_image_clear(&img);
    return NULL;
  }
  cairo_surface_flush(s);
  unsigned char *dst = cairo_image_surface_get_data(s);
  int stride = cairo_image_surface_get_stride(s);
  for (uint32_t y = 0; y < img.height; y++) {
    const uint8_t *src = img.pixels + y * img.stride;
    uint32_t *row = (uint32_t *)(void *)(dst + (size_t)y * (size_t)stride);
    for (uint32_t x = 0; x < img.width; x++) {
      uint32_t r = src[4 * x], g = src[4 * x + 1], b = src[4 * x + 2], a = src[4 * x + 3];
      r = (r * a + 127) / 255;
      g = (g * a + 127) / 255;
      b = (b * a + 127) / 255;
      row[x] = (a << 24) | (r << 16) | (g << 8) | b;
    }
  }
  cairo_surface_mark_dirty(s);
  tess_image_clear(&img);
  return s;
}

static SpriteEntry *sprite_entry(TessPreviewPainter *pp, TessId id) {
  for (size_t i = 0; i < pp->sprites.count; i++)
    if (pp->sprites.data[i].id == id) return &pp->sprites.data[i];
  const TessSprite *s = tess_project_sprite(pp->project, id);
  if (!s) return NULL;
  SpriteEntry e;
  memset(&e, 0, sizeof e);
  e.id = id;
  e.surface = surface_from_png(s->png, s->png_size, s->name);
  e.frame_count = s->frame_count ? s->frame_count : 1;
  e.frame_w = s->image_w / e.frame_count;
  e.frame_h = s->image_h;
  e.frame_rate = s->frame_rate;
  if (e.surface) pp->stats.surfaces_made++;
  if (!TESS_ARRAY_PUSH(&pp->sprites, e)) {
    if (e.surface) cairo_surface_destroy(e.surface);
    return NULL;
  }
  return &pp->sprites.data[pp->sprites.count - 1];
}

static void set_rgba(cairo_t *cr, uint32_t c, double alpha_scale) {
  cairo_set_source_rgba(cr, ((c >> 24) & 0xff) / 255.0, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
                        (c & 0xff) / 255.0 * alpha_scale);
}

static const CircleEntry *circle_entry(TessPreviewPainter *pp, double radius, uint32_t color) {
  int q = (int)(radius * 4.0 + 0.5);
  if (q < 2) q = 2;
  for (int i = 0; i < pp->circle_count; i++)
    if (pp->circles[i].radius_q == q && pp->circles[i].color == color) return &pp->circles[i];
  if (pp->circle_count == CIRCLE_CACHE_MAX) clear_circles(pp); /* zoomed through many sizes */
  double r = q / 4.0;
  int half = (int)(r + 2.0);
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 2 * half, 2 * half);
  cairo_t *cr = cairo_create(s);
  cairo_arc(cr, half, half, r - 0.5, 0, 2 * M_PI);
  set_rgba(cr, color | 0xffu, 1.0);
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
  CircleEntry *e = &pp->circles[pp->circle_count++];
  e->radius_q = q;
  e->color = color;
  e->surface = s;
  e->half = half;
  pp->stats.surfaces_made++;
  return e;
}

static uint32_t turned_hash(TessId sprite, uint32_t frame, int angle_step, int zoom_q) {
  uint64_t h = (uint64_t)sprite * 0x9E3779B97F4A7C15ull ^ (uint64_t)frame * 0xC2B2AE3D27D4EB4Full ^
               (uint64_t)(uint32_t)angle_step * 0x165667B19E3779F9ull ^ (uint64_t)(uint32_t)zoom_q * 0x27D4EB2F165667C5ull;
  return (uint32_t)(h ^ (h >> 29)) & (2 * TURNED_MAX - 1);
}

/* The frame of `se` turned by angle step `a` at `zoom`, rendered on first use. */
static const TurnedSprite *turned_sprite(TessPreviewPainter *pp, const SpriteEntry *se, TessVec2 origin_px,
                                         int a, double zoom) {
  int zq = (int)(zoom * 4096.0 + 0.5);
  uint32_t frame = se->player.frame;
  uint32_t h = turned_hash(se->id, frame, a, zq);
  for (;;) {
    int32_t i = pp->turned_slot[h];
    if (i < 0) break;
    const TurnedSprite *t = &pp->turned.data[i];
    if (t->sprite == se->id && t->frame == frame && t->angle_step == a && t->zoom_q == zq) return t;
    h = (h + 1) & (2 * TURNED_MAX - 1);
  }
  if (pp->turned.count >= TURNED_MAX) { /* zoomed through many sizes: start over */
    clear_turned(pp);
    h = turned_hash(se->id, frame, a, zq);
  }
  double th = 2.0 * M_PI * a / ANGLE_STEPS, c = cos(th), s = sin(th);
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
  TurnedSprite t;
  t.sprite = se->id;
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
  if (!TESS_ARRAY_PUSH(&pp->turned, t)) {
    cairo_surface_destroy(t.surface);
    return NULL;
  }
  pp->stats.surfaces_made++;
  while (pp->turned_slot[h] >= 0) h = (h + 1) & (2 * TURNED_MAX - 1);
  pp->turned_slot[h] = (int32_t)(pp->turned.count - 1);
  return &pp->turned.data[pp->turned.count - 1];
}

/* ---- animation and contacts -------------------------------------------- */

void tess_preview_painter_advance_animation(TessPreviewPainter *pp, double sim_seconds) {
  /* Every animated sprite keeps its phase, drawn or not. */
  for (uint32_t i = 0; i < pp->project->sprite_count; i++)
    if (pp->project->sprites[i]->frame_count > 1) sprite_entry(pp, pp->project->sprites[i]->id);
  for (size_t i = 0; i < pp->sprites.count; i++) {
    SpriteEntry *e = &pp->sprites.data[i];
    if (e->frame_count > 1 && e->frame_rate > 0.0f)
      tess_frame_player_advance(&e->player, e->frame_rate * sim_seconds, e->frame_count);
  }
}

uint32_t tess_preview_painter_sprite_frame(const TessPreviewPainter *pp, TessId sprite) {
  for (size_t i = 0; i < pp->sprites.count; i++)
    if (pp->sprites.data[i].id == sprite) return pp->sprites.data[i].player.frame;
  return 0;
}

void tess_preview_painter_collect_contacts(TessPreviewPainter *pp, const TessPreviewLevel *pl) {
  int kept = 0;
  for (int i = 0; i < pp->impact_count; i++)
    if (++pp->impacts[i].age < CONTACT_LIFE) pp->impacts[kept++] = pp->impacts[i];
  pp->impact_count = kept;
  TessPlaybackImpact fresh[CONTACT_MAX];
  uint32_t n = tess_playback_take_impacts(pl->playback, fresh, CONTACT_MAX);
  for (uint32_t i = 0; i < n; i++) {
    if (pp->impact_count == CONTACT_MAX) { /* the oldest make room */
      memmove(pp->impacts, pp->impacts + 1, (CONTACT_MAX - 1) * sizeof pp->impacts[0]);
      pp->impact_count--;
    }
    Impact *im = &pp->impacts[pp->impact_count++];
    im->point = fresh[i].point;
    im->normal = fresh[i].normal;
    im->age = 0;
  }
}

void tess_preview_painter_clear_contacts(TessPreviewPainter *pp) { pp->impact_count = 0; }

/* ---- direct blits -------------------------------------------------------- */

/* Thousands of tiny cairo_paint calls cost more in set-up than in pixels, so
 * when the target is a plain image surface with an unscaled, unrotated
 * transform and a rectangular clip, pre-rendered surfaces are composited
 * (premultiplied OVER) straight into its pixels. Anything else takes cairo. */
typedef struct Blitter {
  bool direct;
  uint32_t *data;
  int stride;         /* in pixels */
  double ux, uy;      /* user (0,0) in surface pixels */
  int x0, y0, x1, y1; /* clip, surface pixels */
} Blitter;

static void blitter_init(Blitter *bl, cairo_t *cr) {
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
static void blit(const Blitter *bl, cairo_t *cr, cairo_surface_t *src, double x, double y) {
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

static void blitter_done(const Blitter *bl, cairo_t *cr) {
  if (bl->direct) cairo_surface_mark_dirty(cairo_get_target(cr));
}

/* ---- drawing ------------------------------------------------------------ */

typedef struct Mapper {
  double ox, oy, zoom, ppm; /* device = (metres * ppm - origin) * zoom */
} Mapper;

static void to_device(const Mapper *m, TessVec2 p, double *x, double *y) {
  *x = ((double)p.x * m->ppm - m->ox) * m->zoom;
  *y = ((double)p.y * m->ppm - m->oy) * m->zoom;
}

static void shape_path(cairo_t *cr, const Mapper *m, TessTransform xf, const TessPlaybackShape *s) {
  double x, y;
  double scale = m->ppm * m->zoom;
  if (s->kind == TESS_PLAYBACK_SHAPE_CIRCLE) {
    to_device(m, tess_transform_point(xf, s->center), &x, &y);
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, s->radius * scale, 0, 2 * M_PI);
  } else if (s->kind == TESS_PLAYBACK_SHAPE_CAPSULE) {
    double x1, y1, x2, y2;
    to_device(m, tess_transform_point(xf, s->p1), &x1, &y1);
    to_device(m, tess_transform_point(xf, s->p2), &x2, &y2);
    double a = atan2(y2 - y1, x2 - x1), r = s->radius * scale;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x2, y2, r, a - M_PI / 2, a + M_PI / 2);
    cairo_arc(cr, x1, y1, r, a + M_PI / 2, a + 3 * M_PI / 2);
    cairo_close_path(cr);
  } else {
    for (uint32_t i = 0; i < s->count; i++) {
      to_device(m, tess_transform_point(xf, s->v[i]), &x, &y);
      if (i == 0) cairo_move_to(cr, x, y);
      else cairo_line_to(cr, x, y);
    }
    cairo_close_path(cr);
  }
}

static void body_path(cairo_t *cr, const Mapper *m, TessTransform xf, const TessPlaybackBody *b,
                      const TessPlaybackShape *shapes) {
  for (uint32_t k = 0; k < b->shape_count; k++) shape_path(cr, m, xf, &shapes[b->shape_first + k]);
}

/* Radius in metres around the body origin that holds every shape. */
static float body_reach(const TessPlaybackBody *b, const TessPlaybackShape *shapes, const SpriteEntry *se,
                        double ppm) {
  float reach = 0.0f;
  for (uint32_t k = 0; k < b->shape_count; k++) {
    const TessPlaybackShape *s = &shapes[b->shape_first + k];
    float r;
    if (s->kind == TESS_PLAYBACK_SHAPE_CIRCLE) r = tess_v2_length(s->center) + s->radius;
    else if (s->kind == TESS_PLAYBACK_SHAPE_CAPSULE)
      r = fmaxf(tess_v2_length(s->p1), tess_v2_length(s->p2)) + s->radius;
    else {
      r = 0.0f;
      for (uint32_t i = 0; i < s->count; i++) r = fmaxf(r, tess_v2_length(s->v[i]));
    }
    reach = fmaxf(reach, r);
  }
  if (se) {
    float w = (float)(se->frame_w / ppm), h = (float)(se->frame_h / ppm);
    reach = fmaxf(reach, tess_v2_length(b->sprite_origin) + sqrtf(w * w + h * h));
  }
  return reach;
}

static void draw_fluids_and_zones(cairo_t *cr, const Mapper *m, const TessPreviewLevel *pl, const TessRenderView *view) {
  const TessScene *sc = pl->scene;
  double cw = sc->cell_w * m->ppm * m->zoom, ch = sc->cell_h * m->ppm * m->zoom;
  if (cw > 0.0 && ch > 0.0 && sc->cell_material) {
    int x0 = (int)floor(m->ox * m->zoom / cw);
    int y0 = (int)floor(m->oy * m->zoom / ch);
    int x1 = x0 + (int)(view->width / cw) + 2, y1 = y0 + (int)(view->height / ch) + 2;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > (int)sc->width) x1 = (int)sc->width;
    if (y1 > (int)sc->height) y1 = (int)sc->height;
    cairo_set_source_rgba(cr, 0.15, 0.45, 0.95, 0.30);
    for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++) {
        uint16_t mi = sc->cell_material[(size_t)y * sc->width + (size_t)x];
        if (mi < sc->material_count && sc->materials[mi].kind == TESS_MATERIAL_FLUID) {
          double dx, dy;
          to_device(m, tess_v2((float)x * sc->cell_w, (float)y * sc->cell_h), &dx, &dy);
          cairo_rectangle(cr, dx, dy, cw, ch);
        }
      }
    cairo_fill(cr);
  }
  for (uint32_t i = 0; i < sc->zone_count; i++) {
    const TessSceneZone *z = &sc->zones[i];
    double x, y;
    to_device(m, z->center, &x, &y);
    double s = m->ppm * m->zoom;
    bool point = z->kind == TESS_ZONE_ATTRACTOR || z->kind == TESS_ZONE_SPRING;
    if (point) { /* a reach about a centre: attractors violet, springs amber */
      double r = z->radius > 0.0f ? z->radius * s : 24.0;
      cairo_arc(cr, x, y, r, 0, 2 * M_PI);
      if (z->kind == TESS_ZONE_SPRING) cairo_set_source_rgba(cr, 0.95, 0.65, 0.2, 0.18);
      else cairo_set_source_rgba(cr, 0.75, 0.3, 0.9, 0.18);
    } else {
      cairo_rectangle(cr, x - z->width * s / 2, y - z->height * s / 2, z->width * s, z->height * s);
      cairo_set_source_rgba(cr, 0.3, 0.85, 0.75, 0.18);
    }
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0.2, 0.6, 0.55, 0.8);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
    if (!point) { /* an arrow along the zone's vector */
      TessVec2 d = tess_v2_normalize(z->vector);
      double len = 0.35 * fmin(z->width, z->height) * s;
      cairo_move_to(cr, x - d.x * len, y - d.y * len);
      cairo_line_to(cr, x + d.x * len, y + d.y * len);
      cairo_set_line_width(cr, 2.0);
      cairo_stroke(cr);
      cairo_arc(cr, x + d.x * len, y + d.y * len, 3.0, 0, 2 * M_PI);
      cairo_fill(cr);
    }
  }
}

static void draw_pins(cairo_t *cr, const Mapper *m, const TessPreviewLevel *pl) {
  const TessScene *sc = pl->scene;
  const TessPlayback *pb = pl->playback;
  cairo_set_line_width(cr, 1.5);
  for (uint32_t i = 0; i < sc->joint_count; i++) {
    const TessSceneJoint *j = &sc->joints[i];
    TessVec2 ends[2] = {j->anchor_a, j->kind == TESS_JOINT_DISTANCE ? j->anchor_b : j->anchor_a};
    int32_t owners[2] = {j->body_a, j->kind == TESS_JOINT_DISTANCE ? j->body_b : j->body_a};
    double px[2], py[2];
    bool ok = true;
    for (int e = 0; e < 2; e++) {
      TessVec2 w = ends[e];
      if (owners[e] >= 0 && (uint32_t)owners[e] < sc->body_count) {
        const TessSceneBody *sb = &sc->bodies[owners[e]];
        TessTransform x0 = {sb->position, tess_rot(sb->angle)};
        TessTransform now;
        if (!tess_playback_body_transform(pb, (uint32_t)owners[e], &now)) {
          ok = false;
          break;
        }
        w = tess_transform_point(now, tess_transform_point_inv(x0, w));
      }
      to_device(m, w, &px[e], &py[e]);
    }
    if (!ok) continue;
    /* A pin held by the world: a line from the fixed point to the pin on the body. */
    if (j->kind == TESS_JOINT_PIN && (j->body_a < 0 || j->body_b < 0)) {
      int32_t other = j->body_a >= 0 ? j->body_a : j->body_b;
      TessTransform now;
      if (other >= 0 && tess_playback_body_transform(pb, (uint32_t)other, &now)) {
        double bx, by;
        to_device(m, now.p, &bx, &by);
        cairo_move_to(cr, px[0], py[0]);
        cairo_line_to(cr, bx, by);
        cairo_set_source_rgba(cr, 0.9, 0.9, 0.95, 0.8);
        cairo_stroke(cr);
      }
    }
    if (j->kind == TESS_JOINT_DISTANCE) {
      cairo_move_to(cr, px[0], py[0]);
      cairo_line_to(cr, px[1], py[1]);
      cairo_set_source_rgba(cr, 0.9, 0.9, 0.95, 0.8);
      cairo_stroke(cr);
    }
    for (int e = 0; e < (j->kind == TESS_JOINT_DISTANCE ? 2 : 1); e++) {
      cairo_arc(cr, px[e], py[e], 4.5, 0, 2 * M_PI);
      cairo_set_source_rgba(cr, 0.95, 0.8, 0.2, 1.0);
      cairo_fill_preserve(cr);
      cairo_set_source_rgba(cr, 0.2, 0.15, 0.0, 1.0);
      cairo_stroke(cr);
    }
  }
}

/* The static part of the view, rendered once per view (the level does not
 * change while it plays) and copied each frame. */
static void draw_background(TessPreviewPainter *pp, cairo_t *cr, const TessPreviewLevel *pl, const TessRenderView *view,
                            uint32_t overlays);

void tess_preview_painter_draw(TessPreviewPainter *pp, cairo_t *cr, const TessPreviewLevel *pl,
                               const TessRenderView *view, uint32_t overlays) {
  draw_background(pp, cr, pl, view, overlays);
  Mapper m = {view->origin_x, view->origin_y, view->zoom, pl->scene->ppm};
  Blitter bl;
  blitter_init(&bl, cr);

  const TessPlayback *pb = pl->playback;
  const TessWorld *world = tess_playback_world((TessPlayback *)pb);
  const TessPlaybackShape *shapes = tess_playback_shapes(pb);
  uint32_t n = tess_playback_body_count(pb);
  double scale = m.ppm * m.zoom;
  for (uint32_t i = 0; i < n; i++) {
    const TessPlaybackBody *b = tess_playback_body(pb, i);
    TessTransform xf;
    if (!tess_playback_body_transform(pb, i, &xf)) continue;
    SpriteEntry *se = b->sprite ? sprite_entry(pp, b->sprite) : NULL;
    if (se && !se->surface) se = NULL;
    double x, y;
    to_device(&m, xf.p, &x, &y);
    double reach = body_reach(b, shapes, se, m.ppm) * scale + 2.0;
    if (x + reach < 0 || y + reach < 0 || x - reach > view->width || y - reach > view->height) continue;
    const TurnedSprite *ts = NULL;
    if (se) {
      double angle = tess_rot_angle(xf.q);
      int a = (int)lround(angle / (2.0 * M_PI) * ANGLE_STEPS) % ANGLE_STEPS;
      if (a < 0) a += ANGLE_STEPS;
      TessVec2 origin_px = tess_v2((float)(b->sprite_origin.x * m.ppm), (float)(b->sprite_origin.y * m.ppm));
      ts = turned_sprite(pp, se, origin_px, a, m.zoom);
    }
    if (ts) {
      blit(&bl, cr, ts->surface, floor(x + 0.5) - ts->ox, floor(y + 0.5) - ts->oy);
      pp->stats.sprite_blits++;
    } else if (b->shape_count == 1 && shapes[b->shape_first].kind == TESS_PLAYBACK_SHAPE_CIRCLE) {
      const TessPlaybackShape *s = &shapes[b->shape_first];
      const CircleEntry *ce = circle_entry(pp, s->radius * scale, b->color);
      double cx, cy;
      to_device(&m, tess_transform_point(xf, s->center), &cx, &cy);
      blit(&bl, cr, ce->surface, floor(cx + 0.5) - ce->half, floor(cy + 0.5) - ce->half);
      pp->stats.circle_blits++;
    } else {
      body_path(cr, &m, xf, b, shapes);
      set_rgba(cr, b->color | 0xffu, b->sensor ? 0.5 : 1.0);
      cairo_fill_preserve(cr);
      cairo_set_source_rgba(cr, 0, 0, 0, 0.6);
      cairo_set_line_width(cr, 1.0);
      cairo_stroke(cr);
      pp->stats.paths++;
    }
    if ((overlays & TESS_PREVIEW_OVERLAY_SLEEPING) && b->type == TESS_BODY_DYNAMIC &&
        !tess_body_is_awake(world, b->id)) {
      body_path(cr, &m, xf, b, shapes);
      cairo_set_source_rgba(cr, 0.35, 0.45, 1.0, 0.45);
      cairo_fill(cr);
    }
    if ((overlays & TESS_PREVIEW_OVERLAY_SENSORS) && b->sensor) {
      static const double dash[] = {4.0, 3.0};
      body_path(cr, &m, xf, b, shapes);
      cairo_set_dash(cr, dash, 2, 0);
      cairo_set_source_rgba(cr, 1.0, 0.9, 0.2, 0.95);
      cairo_set_line_width(cr, 1.5);
      cairo_stroke(cr);
      cairo_set_dash(cr, NULL, 0, 0);
    }
    if (overlays & TESS_PREVIEW_OVERLAY_AABBS) {
      TessAABB box = {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
      for (uint32_t k = 0; k < b->shape_count; k++) {
        const TessPlaybackShape *s = &shapes[b->shape_first + k];
        if (s->kind == TESS_PLAYBACK_SHAPE_POLYGON) {
          for (uint32_t v = 0; v < s->count; v++) {
            TessVec2 p = tess_transform_point(xf, s->v[v]);
            box.lower = tess_v2_min(box.lower, p);
            box.upper = tess_v2_max(box.upper, p);
          }
        } else {
          TessVec2 a = tess_transform_point(xf, s->kind == TESS_PLAYBACK_SHAPE_CIRCLE ? s->center : s->p1);
          TessVec2 c = tess_transform_point(xf, s->kind == TESS_PLAYBACK_SHAPE_CIRCLE ? s->center : s->p2);
          TessVec2 r = tess_v2(s->radius, s->radius);
          box.lower = tess_v2_min(box.lower, tess_v2_sub(tess_v2_min(a, c), r));
          box.upper = tess_v2_max(box.upper, tess_v2_add(tess_v2_max(a, c), r));
        }
      }
      if (b->shape_count) {
        double x0, y0, x1, y1;
        to_device(&m, box.lower, &x0, &y0);
        to_device(&m, box.upper, &x1, &y1);
        cairo_rectangle(cr, x0 + 0.5, y0 + 0.5, x1 - x0, y1 - y0);
        cairo_set_source_rgba(cr, 1.0, 0.85, 0.1, 0.8);
        cairo_set_line_width(cr, 1.0);
        cairo_stroke(cr);
      }
    }
    if (overlays & (TESS_PREVIEW_OVERLAY_CENTERS | TESS_PREVIEW_OVERLAY_VELOCITIES)) {
      if (b->type == TESS_BODY_STATIC) continue;
      double cx, cy;
      to_device(&m, tess_transform_point(xf, tess_body_local_center(world, b->id)), &cx, &cy);
      if (overlays & TESS_PREVIEW_OVERLAY_VELOCITIES) {
        TessVec2 v = tess_body_linear_velocity(world, b->id);
        cairo_move_to(cr, cx, cy);
        cairo_line_to(cr, cx + v.x * 0.25 * scale, cy + v.y * 0.25 * scale); /* where it is in 1/4 s */
        cairo_set_source_rgba(cr, 0.2, 1.0, 0.3, 0.9);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
      }
      if (overlays & TESS_PREVIEW_OVERLAY_CENTERS) {
        cairo_arc(cr, cx, cy, 3.0, 0, 2 * M_PI);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.95);
        cairo_fill_preserve(cr);
        cairo_set_source_rgba(cr, 0, 0, 0, 0.9);
        cairo_set_line_width(cr, 1.0);
        cairo_stroke(cr);
      }
    }
  }

  blitter_done(&bl, cr);
  if (overlays & TESS_PREVIEW_OVERLAY_PINS) draw_pins(cr, &m, pl);
  if (overlays & TESS_PREVIEW_OVERLAY_CONTACTS) {
    /* Contacts that touch now (resting ones too, which never make an impact): small
     * amber dots with their normals, under the impacts. */
    uint32_t nr = tess_world_contact_points(world, pp->resting, CONTACT_MAX);
    if (nr > CONTACT_MAX) nr = CONTACT_MAX;
    cairo_set_line_width(cr, 1.0);
    cairo_set_source_rgba(cr, 1.0, 0.75, 0.1, 0.9);
    for (uint32_t i = 0; i < nr; i++) {
      const TessContactPoint *cp = &pp->resting[i];
      double x, y;
      to_device(&m, cp->point, &x, &y);
      if (x < -10 || y < -10 || x > view->width + 10 || y > view->height + 10) continue;
      cairo_new_sub_path(cr);
      cairo_arc(cr, x, y, 2.0, 0, 2 * M_PI);
      cairo_move_to(cr, x, y);
      cairo_line_to(cr, x + cp->normal.x * 8.0, y + cp->normal.y * 8.0);
    }
    cairo_stroke(cr);
    cairo_set_line_width(cr, 1.5);
    for (int i = 0; i < pp->impact_count; i++) {
      const Impact *im = &pp->impacts[i];
      double x, y, fade = 1.0 - (double)im->age / CONTACT_LIFE;
      to_device(&m, im->point, &x, &y);
      cairo_arc(cr, x, y, 3.0, 0, 2 * M_PI);
      cairo_set_source_rgba(cr, 1.0, 0.2, 0.2, fade);
      cairo_fill(cr);
      cairo_move_to(cr, x, y);
      cairo_line_to(cr, x + im->normal.x * 14.0, y + im->normal.y * 14.0);
      cairo_stroke(cr);
    }
  }

  /* The spring of a drag. */
  TessVec2 anchor, target;
  if (tess_playback_drag_line(pb, &anchor, &target)) {
    double ax, ay, tx, ty;
    to_device(&m, anchor, &ax, &ay);
    to_device(&m, target, &tx, &ty);
    cairo_move_to(cr, ax, ay);
    cairo_line_to(cr, tx, ty);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_set_line_width(cr, 2.0);
    cairo_stroke(cr);
    cairo_arc(cr, ax, ay, 3.5, 0, 2 * M_PI);
    cairo_arc(cr, tx, ty, 3.5, 0, 2 * M_PI);
    cairo_fill(cr);
  }
}

static void draw_background(TessPreviewPainter *pp, cairo_t *cr, const TessPreviewLevel *pl, const TessRenderView *view,
                            uint32_t overlays) {
  bool zones = (overlays & TESS_PREVIEW_OVERLAY_ZONES) != 0;
  if (!pp->background || pp->bg_level != pl->level || pp->bg_zones != zones ||
      memcmp(&pp->bg_view, view, sizeof *view) != 0) {
    if (pp->background) cairo_surface_destroy(pp->background);
    pp->background = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, view->width > 0 ? view->width : 1,
                                                view->height > 0 ? view->height : 1);
    cairo_t *bg = cairo_create(pp->background);
    cairo_set_source_rgb(bg, 0.13, 0.13, 0.15);
    cairo_paint(bg);
    TessRenderOptions opt;
    tess_render_options_default(&opt);
    opt.flags = TESS_RENDER_TILES | TESS_RENDER_WALLS | TESS_RENDER_BACKGROUND | TESS_RENDER_BOUNDS;
    tess_renderer_draw(pp->renderer, bg, pl->level, view, &opt, NULL);
    Mapper m = {view->origin_x, view->origin_y, view->zoom, pl->scene->ppm};
    if (zones) draw_fluids_and_zones(bg, &m, pl, view);
    cairo_destroy(bg);
    pp->bg_level = pl->level;
    pp->bg_view = *view;
    pp->bg_zones = zones;
    pp->stats.surfaces_made++;
  }
  cairo_save(cr);
  cairo_set_source_surface(cr, pp->background, 0, 0);
  cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
  cairo_rectangle(cr, 0, 0, view->width, view->height);
  cairo_fill(cr);
  cairo_restore(cr);
}

void tess_preview_painter_stats(const TessPreviewPainter *pp, TessPreviewPainterStats *out) { *out = pp->stats; }
