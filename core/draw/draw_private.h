/* Shared between the files of core/draw (libtessera-draw): the painter's
 * state, its caches and its direct blitter. Not installed. */
#ifndef TESS_DRAW_PRIVATE_H
#define TESS_DRAW_PRIVATE_H

#include <math.h>

#include "tessera/draw.h"

#define DRAW_CIRCLE_CACHE_MAX 256
#define DRAW_CONTACT_MAX 512
#define DRAW_CONTACT_LIFE 30 /* frames an impact stays on screen (half a second at 60 Hz) */
/* A sprite frame is pre-rendered at one zoom and one of DRAW_ANGLE_STEPS
 * rotations, so that drawing it is an untransformed blit. */
#define DRAW_ANGLE_STEPS 128
#define DRAW_TURNED_MAX 4096

typedef struct DrawSprite {
  uint32_t key;
  cairo_surface_t *surface; /* the whole strip, premultiplied ARGB32 */
  uint32_t frame_w, frame_h, frame_count;
  float frame_rate;
  TessFramePlayer player;
} DrawSprite;

typedef struct DrawCircle {
  int radius_q; /* device radius in 1/4 px */
  uint32_t color;
  cairo_surface_t *surface;
  int half; /* surface is 2*half square; centre at (half, half) */
} DrawCircle;

typedef struct DrawTurned {
  uint32_t sprite;
  uint32_t frame;
  int angle_step;
  int zoom_q; /* zoom in 1/4096 */
  cairo_surface_t *surface;
  int ox, oy; /* where the body origin falls in the surface */
} DrawTurned;

/* The 1-bit cairo copy of a world's pixel mask (draw_masks.c), as of the mask's edit count. */
typedef struct DrawMask {
  cairo_surface_t *surface;
  uint32_t width, height;
  const TessWorld *world;
  uint64_t edits;
} DrawMask;

typedef struct DrawImpact {
  TessVec2 point, normal;
  int age;
} DrawImpact;

/* The bodies to draw, whatever they come from (a playback, or a scene and a
 * world): body i's look, and where it is now. */
typedef struct DrawBodies {
  uint32_t count;
  const TessPlaybackBody *(*body)(const void *ctx, uint32_t i);
  bool (*transform)(const void *ctx, uint32_t i, TessTransform *out);
  const TessPlaybackShape *shapes;
  const TessWorld *world;
  const void *ctx;
} DrawBodies;

struct TessDraw {
  TESS_ARRAY(DrawSprite)
  sprites;
  TessDrawSpriteFn sprite_fn;
  void *sprite_user;
  DrawCircle circles[DRAW_CIRCLE_CACHE_MAX];
  int circle_count;
  TESS_ARRAY(DrawTurned)
  turned;
  int32_t turned_slot[2 * DRAW_TURNED_MAX]; /* open addressing into `turned`, -1 = empty */
  DrawImpact impacts[DRAW_CONTACT_MAX];
  int impact_count;
  TessContactPoint resting[DRAW_CONTACT_MAX]; /* the world's touching contact points, this frame */
  /* The static part of the last view. */
  TessDrawBackgroundFn background_fn;
  void *background_user;
  cairo_surface_t *background;
  const TessScene *bg_scene;
  TessDrawView bg_view;
  bool bg_zones;
  /* A scene's bodies as playback bodies (tess_draw_world). */
  const TessScene *world_scene;
  TESS_ARRAY(TessPlaybackBody)
  world_bodies;
  TESS_ARRAY(TessPlaybackShape)
  world_shapes;
  /* Depth order (tess_draw_set_order) and the order of the last draw. */
  TESS_ARRAY(int32_t)
  depth;
  TESS_ARRAY(uint8_t)
  y_sort;
  TESS_ARRAY(uint32_t)
  order;
  TESS_ARRAY(DrawMask)
  masks;
  TessDrawStats stats;
};

/* draw_cache.c */
DrawSprite *draw_sprite(TessDraw *d, uint32_t key);
const DrawCircle *draw_circle(TessDraw *d, double radius, uint32_t color);
const DrawTurned *draw_turned(TessDraw *d, const DrawSprite *se, TessVec2 origin_px, int angle_step, double zoom);
void draw_clear_circles(TessDraw *d);
void draw_clear_turned(TessDraw *d);
void draw_set_rgba(cairo_t *cr, uint32_t c, double alpha_scale);

/* draw_blit.c: pre-rendered surfaces composited straight into an image
 * surface's pixels when the transform allows it, else through cairo. */
typedef struct DrawBlitter {
  bool direct;
  uint32_t *data;
  int stride;         /* in pixels */
  double ux, uy;      /* user (0,0) in surface pixels */
  int x0, y0, x1, y1; /* clip, surface pixels */
} DrawBlitter;
void draw_blitter_init(DrawBlitter *bl, cairo_t *cr);
void draw_blit(const DrawBlitter *bl, cairo_t *cr, cairo_surface_t *src, double x, double y);
void draw_blitter_done(const DrawBlitter *bl, cairo_t *cr);

/* Level metres -> device pixels. */
typedef struct DrawMapper {
  double ox, oy, zoom, ppm; /* device = (metres * ppm - origin) * zoom */
} DrawMapper;
static inline void draw_to_device(const DrawMapper *m, TessVec2 p, double *x, double *y) {
  *x = ((double)p.x * m->ppm - m->ox) * m->zoom;
  *y = ((double)p.y * m->ppm - m->oy) * m->zoom;
}

/* draw_overlays.c */
void draw_background(TessDraw *d, cairo_t *cr, const TessScene *scene, const TessDrawView *view, uint32_t overlays);
void draw_pins(cairo_t *cr, const DrawMapper *m, const TessScene *sc, const DrawBodies *src);
void draw_contacts(TessDraw *d, cairo_t *cr, const DrawMapper *m, const TessWorld *world, const TessDrawView *view);
void draw_body_path(cairo_t *cr, const DrawMapper *m, TessTransform xf, const TessPlaybackBody *b,
                    const TessPlaybackShape *shapes);

/* draw_masks.c: the world's pixel masks, tinted and translucent, over the bodies. */
void draw_pixel_masks(TessDraw *d, cairo_t *cr, const DrawMapper *m, const TessScene *scene, const TessWorld *world);
void draw_clear_masks(TessDraw *d);

/* draw_order.c: the order bodies are drawn in (depth, then y where asked). */
bool draw_order(TessDraw *d, const DrawBodies *src);

#endif
