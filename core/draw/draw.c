/* The painter: every body at its interpolated transform (a pre-rendered
 * sprite frame, a pre-rendered circle, or its shapes as a path), in depth
 * order, over the cached static background, with the overlays on top. The
 * bodies come from a playback or from a scene and its world through one
 * small interface (DrawBodies), so both draw alike. */
#include <string.h>

#include "draw_private.h"

TessDraw *tess_draw_create(void) {
  TessDraw *d = tess_calloc(1, sizeof *d);
  if (!d) return NULL;
  memset(d->turned_slot, 0xff, sizeof d->turned_slot);
  return d;
}

void tess_draw_destroy(TessDraw *d) {
  if (!d) return;
  draw_clear_circles(d);
  draw_clear_turned(d);
  draw_clear_masks(d);
  TESS_ARRAY_FREE(&d->turned);
  if (d->background) cairo_surface_destroy(d->background);
  for (size_t i = 0; i < d->sprites.count; i++)
    if (d->sprites.data[i].surface) cairo_surface_destroy(d->sprites.data[i].surface);
  TESS_ARRAY_FREE(&d->sprites);
  TESS_ARRAY_FREE(&d->world_bodies);
  TESS_ARRAY_FREE(&d->world_shapes);
  TESS_ARRAY_FREE(&d->depth);
  TESS_ARRAY_FREE(&d->y_sort);
  TESS_ARRAY_FREE(&d->order);
  tess_free(d);
}

void tess_draw_stats(const TessDraw *d, TessDrawStats *out) { *out = d->stats; }

/* Radius in metres around the body origin that holds every shape. */
static float body_reach(const TessPlaybackBody *b, const TessPlaybackShape *shapes, const DrawSprite *se, double ppm) {
  float reach = 0.0f;
  for (uint32_t k = 0; k < b->shape_count; k++) {
    const TessPlaybackShape *s = &shapes[b->shape_first + k];
    float r;
    if (s->kind == TESS_PLAYBACK_SHAPE_CIRCLE) r = tess_v2_length(s->center) + s->radius;
    else if (s->kind == TESS_PLAYBACK_SHAPE_CAPSULE) r = fmaxf(tess_v2_length(s->p1), tess_v2_length(s->p2)) + s->radius;
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

static void draw_aabb(cairo_t *cr, const DrawMapper *m, TessTransform xf, const TessPlaybackBody *b,
                      const TessPlaybackShape *shapes) {
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
  if (!b->shape_count) return;
  double x0, y0, x1, y1;
  draw_to_device(m, box.lower, &x0, &y0);
  draw_to_device(m, box.upper, &x1, &y1);
  cairo_rectangle(cr, x0 + 0.5, y0 + 0.5, x1 - x0, y1 - y0);
  cairo_set_source_rgba(cr, 1.0, 0.85, 0.1, 0.8);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
}

static void draw_motion(cairo_t *cr, const DrawMapper *m, const TessWorld *world, TessTransform xf,
                        const TessPlaybackBody *b, uint32_t overlays) {
  double cx, cy, scale = m->ppm * m->zoom;
  draw_to_device(m, tess_transform_point(xf, tess_body_local_center(world, b->id)), &cx, &cy);
  if (overlays & TESS_DRAW_OVERLAY_VELOCITIES) {
    TessVec2 v = tess_body_linear_velocity(world, b->id);
    cairo_move_to(cr, cx, cy);
    cairo_line_to(cr, cx + v.x * 0.25 * scale, cy + v.y * 0.25 * scale); /* where it is in 1/4 s */
    cairo_set_source_rgba(cr, 0.2, 1.0, 0.3, 0.9);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
  }
  if (overlays & TESS_DRAW_OVERLAY_CENTERS) {
    cairo_arc(cr, cx, cy, 3.0, 0, 2 * M_PI);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.95);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.9);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
  }
}

/* One body: its look, then the overlays that belong to it. */
static void draw_body(TessDraw *d, cairo_t *cr, const DrawMapper *m, const DrawBlitter *bl, const DrawBodies *src,
                      uint32_t i, const TessDrawView *view, uint32_t overlays) {
  const TessPlaybackBody *b = src->body(src->ctx, i);
  const TessPlaybackShape *shapes = src->shapes;
  TessTransform xf;
  if (!src->transform(src->ctx, i, &xf)) return;
  DrawSprite *se = b->sprite ? draw_sprite(d, b->sprite) : NULL;
  if (se && !se->surface) se = NULL;
  double x, y, scale = m->ppm * m->zoom;
  draw_to_device(m, xf.p, &x, &y);
  double reach = body_reach(b, shapes, se, m->ppm) * scale + 2.0;
  if (x + reach < 0 || y + reach < 0 || x - reach > view->width || y - reach > view->height) return;
  const DrawTurned *ts = NULL;
  if (se) {
    double angle = tess_rot_angle(xf.q);
    int a = (int)lround(angle / (2.0 * M_PI) * DRAW_ANGLE_STEPS) % DRAW_ANGLE_STEPS;
    if (a < 0) a += DRAW_ANGLE_STEPS;
    TessVec2 origin_px = tess_v2((float)(b->sprite_origin.x * m->ppm), (float)(b->sprite_origin.y * m->ppm));
    ts = draw_turned(d, se, origin_px, a, m->zoom);
  }
  if (ts) {
    draw_blit(bl, cr, ts->surface, floor(x + 0.5) - ts->ox, floor(y + 0.5) - ts->oy);
    d->stats.sprite_blits++;
  } else if (b->shape_count == 1 && shapes[b->shape_first].kind == TESS_PLAYBACK_SHAPE_CIRCLE) {
    const TessPlaybackShape *s = &shapes[b->shape_first];
    const DrawCircle *ce = draw_circle(d, s->radius * scale, b->color);
    double cx, cy;
    draw_to_device(m, tess_transform_point(xf, s->center), &cx, &cy);
    draw_blit(bl, cr, ce->surface, floor(cx + 0.5) - ce->half, floor(cy + 0.5) - ce->half);
    d->stats.circle_blits++;
  } else {
    draw_body_path(cr, m, xf, b, shapes);
    draw_set_rgba(cr, b->color | 0xffu, b->sensor ? 0.5 : 1.0);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.6);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
    d->stats.paths++;
  }
  const TessWorld *world = src->world;
  if ((overlays & TESS_DRAW_OVERLAY_SLEEPING) && b->type == TESS_BODY_DYNAMIC && !tess_body_is_awake(world, b->id)) {
    draw_body_path(cr, m, xf, b, shapes);
    cairo_set_source_rgba(cr, 0.35, 0.45, 1.0, 0.45);
    cairo_fill(cr);
  }
  if ((overlays & TESS_DRAW_OVERLAY_SENSORS) && b->sensor) {
    static const double dash[] = {4.0, 3.0};
    draw_body_path(cr, m, xf, b, shapes);
    cairo_set_dash(cr, dash, 2, 0);
    cairo_set_source_rgba(cr, 1.0, 0.9, 0.2, 0.95);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
  }
  if (overlays & TESS_DRAW_OVERLAY_AABBS) draw_aabb(cr, m, xf, b, shapes);
  if ((overlays & (TESS_DRAW_OVERLAY_CENTERS | TESS_DRAW_OVERLAY_VELOCITIES)) && b->type != TESS_BODY_STATIC)
    draw_motion(cr, m, world, xf, b, overlays);
}

static void draw_frame(TessDraw *d, cairo_t *cr, const TessScene *scene, const DrawBodies *src,
                       const TessDrawView *view, uint32_t overlays) {
  draw_background(d, cr, scene, view, overlays);
  DrawMapper m = {view->origin_x, view->origin_y, view->zoom, scene->ppm};
  DrawBlitter bl;
  draw_blitter_init(&bl, cr);
  if (draw_order(d, src)) {
    for (size_t k = 0; k < d->order.count; k++) draw_body(d, cr, &m, &bl, src, d->order.data[k], view, overlays);
  } else { /* out of memory for the order: body order still shows the level */
    for (uint32_t i = 0; i < src->count; i++) draw_body(d, cr, &m, &bl, src, i, view, overlays);
  }
  draw_blitter_done(&bl, cr);
  /* over the bodies: a static body's sprite would hide its own mask, and what collides is the point */
  draw_pixel_masks(d, cr, &m, scene, src->world);
  if (overlays & TESS_DRAW_OVERLAY_PINS) draw_pins(cr, &m, scene, src);
  if (overlays & TESS_DRAW_OVERLAY_CONTACTS) draw_contacts(d, cr, &m, src->world, view);
}

/* ---- a playback --------------------------------------------------------------- */

static const TessPlaybackBody *playback_body(const void *ctx, uint32_t i) { return tess_playback_body(ctx, i); }

static bool playback_transform(const void *ctx, uint32_t i, TessTransform *out) {
  return tess_playback_body_transform(ctx, i, out);
}

void tess_draw_playback(TessDraw *d, cairo_t *cr, const TessScene *scene, const TessPlayback *pb,
                        const TessDrawView *view, uint32_t overlays) {
  DrawBodies src = {tess_playback_body_count(pb), playback_body, playback_transform, tess_playback_shapes(pb),
                    tess_playback_world((TessPlayback *)pb), pb};
  draw_frame(d, cr, scene, &src, view, overlays);
  /* The spring of a drag. */
  TessVec2 anchor, target;
  if (tess_playback_drag_line(pb, &anchor, &target)) {
    DrawMapper m = {view->origin_x, view->origin_y, view->zoom, scene->ppm};
    double ax, ay, tx, ty;
    draw_to_device(&m, anchor, &ax, &ay);
    draw_to_device(&m, target, &tx, &ty);
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

/* ---- a scene and its world ------------------------------------------------------ */

typedef struct WorldSource {
  const TessDraw *d;
  const TessWorld *world;
  const TessBodyId *ids;
  float alpha;
} WorldSource;

static const TessPlaybackBody *world_body(const void *ctx, uint32_t i) {
  const WorldSource *ws = ctx;
  return &ws->d->world_bodies.data[i];
}

static bool world_transform(const void *ctx, uint32_t i, TessTransform *out) {
  const WorldSource *ws = ctx;
  if (!tess_body_is_valid(ws->world, ws->ids[i])) return false;
  *out = tess_body_interpolated_transform(ws->world, ws->ids[i], ws->alpha);
  return true;
}

static uint32_t type_color(uint8_t type) {
  if (type == TESS_BODY_DYNAMIC) return 0xf28c26ffu;
  if (type == TESS_BODY_KINEMATIC) return 0x4c8ce6ffu;
  return 0x999999ffu;
}

/* The scene's bodies and shapes as the playback describes them, once per
 * scene (styles are applied at every call: they are cheap). */
static bool world_bodies(TessDraw *d, const TessScene *scene, const TessBodyId *ids, const TessDrawBodyStyle *styles) {
  if (d->world_scene != scene || d->world_bodies.count != scene->body_count) {
    d->world_bodies.count = d->world_shapes.count = 0;
    d->world_scene = NULL;
    if (!TESS_ARRAY_RESERVE(&d->world_bodies, scene->body_count) ||
        !TESS_ARRAY_RESERVE(&d->world_shapes, scene->shape_count))
      return false;
    for (uint32_t i = 0; i < scene->shape_count; i++) {
      const TessSceneShape *s = &scene->shapes[i];
      TessPlaybackShape *p = &d->world_shapes.data[i];
      memset(p, 0, sizeof *p);
      if (s->type == TESS_SHAPE_CIRCLE) {
        p->kind = TESS_PLAYBACK_SHAPE_CIRCLE;
        p->center = s->v[0];
      } else if (s->type == TESS_SHAPE_CAPSULE) {
        p->kind = TESS_PLAYBACK_SHAPE_CAPSULE;
        p->p1 = s->v[0];
        p->p2 = s->v[1];
      } else {
        p->kind = TESS_PLAYBACK_SHAPE_POLYGON;
        p->count = s->count <= TESS_POLY_MAX ? s->count : TESS_POLY_MAX;
        memcpy(p->v, s->v, p->count * sizeof p->v[0]);
      }
      p->radius = s->radius;
    }
    d->world_shapes.count = scene->shape_count;
    d->world_bodies.count = scene->body_count;
    d->world_scene = scene;
  }
  for (uint32_t i = 0; i < scene->body_count; i++) {
    const TessSceneBody *sb = &scene->bodies[i];
    TessPlaybackBody *b = &d->world_bodies.data[i];
    memset(b, 0, sizeof *b);
    b->id = ids[i];
    b->object = sb->object;
    b->type = sb->type;
    b->sensor = sb->sensor != 0;
    b->shape_first = sb->first_shape;
    b->shape_count = sb->first_shape <= scene->shape_count && sb->shape_count <= scene->shape_count - sb->first_shape
                         ? sb->shape_count
                         : 0;
    b->color = styles && styles[i].color ? styles[i].color : type_color(sb->type);
    if (styles) {
      b->sprite = styles[i].sprite;
      b->sprite_origin = styles[i].sprite_origin;
    }
  }
  return true;
}

void tess_draw_world(TessDraw *d, cairo_t *cr, const TessScene *scene, const TessWorld *world, const TessBodyId *ids,
                     const TessDrawBodyStyle *styles, float alpha, const TessDrawView *view, uint32_t overlays) {
  if (!world_bodies(d, scene, ids, styles)) { /* out of memory: the background at least */
    draw_background(d, cr, scene, view, overlays);
    return;
  }
  WorldSource ws = {d, world, ids, alpha};
  DrawBodies src = {scene->body_count, world_body, world_transform, d->world_shapes.data, world, &ws};
  draw_frame(d, cr, scene, &src, view, overlays);
}
