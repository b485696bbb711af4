/* What the painter draws around the bodies: the static background (the
 * caller's tiles, or the scene's colliding cells), fluids and zones, pins,
 * contacts, and a body's outline for the overlays. */
#include <string.h>

#include "draw_private.h"

static void shape_path(cairo_t *cr, const DrawMapper *m, TessTransform xf, const TessPlaybackShape *s) {
  double x, y;
  double scale = m->ppm * m->zoom;
  if (s->kind == TESS_PLAYBACK_SHAPE_CIRCLE) {
    draw_to_device(m, tess_transform_point(xf, s->center), &x, &y);
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, s->radius * scale, 0, 2 * M_PI);
  } else if (s->kind == TESS_PLAYBACK_SHAPE_CAPSULE) {
    double x1, y1, x2, y2;
    draw_to_device(m, tess_transform_point(xf, s->p1), &x1, &y1);
    draw_to_device(m, tess_transform_point(xf, s->p2), &x2, &y2);
    double a = atan2(y2 - y1, x2 - x1), r = s->radius * scale;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x2, y2, r, a - M_PI / 2, a + M_PI / 2);
    cairo_arc(cr, x1, y1, r, a + M_PI / 2, a + 3 * M_PI / 2);
    cairo_close_path(cr);
  } else {
    for (uint32_t i = 0; i < s->count; i++) {
      draw_to_device(m, tess_transform_point(xf, s->v[i]), &x, &y);
      if (i == 0) cairo_move_to(cr, x, y);
      else cairo_line_to(cr, x, y);
    }
    cairo_close_path(cr);
  }
}

void draw_body_path(cairo_t *cr, const DrawMapper *m, TessTransform xf, const TessPlaybackBody *b,
                    const TessPlaybackShape *shapes) {
  for (uint32_t k = 0; k < b->shape_count; k++) shape_path(cr, m, xf, &shapes[b->shape_first + k]);
}

/* The visible cell range [x0,x1) x [y0,y1) of the scene. */
static bool visible_cells(const DrawMapper *m, const TessScene *sc, const TessDrawView *view, int *x0, int *y0, int *x1,
                          int *y1) {
  double cw = sc->cell_w * m->ppm * m->zoom, ch = sc->cell_h * m->ppm * m->zoom;
  if (!(cw > 0.0 && ch > 0.0)) return false;
  *x0 = (int)floor(m->ox * m->zoom / cw);
  *y0 = (int)floor(m->oy * m->zoom / ch);
  *x1 = *x0 + (int)(view->width / cw) + 2;
  *y1 = *y0 + (int)(view->height / ch) + 2;
  if (*x0 < 0) *x0 = 0;
  if (*y0 < 0) *y0 = 0;
  if (*x1 > (int)sc->width) *x1 = (int)sc->width;
  if (*y1 > (int)sc->height) *y1 = (int)sc->height;
  return true;
}

/* Without the caller's tiles: the cells that collide, full squares and
 * traced pieces, in grey (what frames.c drew before this library). */
static void draw_cells(cairo_t *cr, const DrawMapper *m, const TessScene *sc, const TessDrawView *view) {
  int x0, y0, x1, y1;
  if (!sc->cell_kind || !visible_cells(m, sc, view, &x0, &y0, &x1, &y1)) return;
  double cw = sc->cell_w * m->ppm * m->zoom, ch = sc->cell_h * m->ppm * m->zoom;
  cairo_set_source_rgb(cr, 0.35, 0.38, 0.42);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++) {
      size_t i = (size_t)y * sc->width + (size_t)x;
      TessVec2 corner = tess_v2((float)x * sc->cell_w, (float)y * sc->cell_h);
      double dx, dy;
      draw_to_device(m, corner, &dx, &dy);
      if (sc->cell_kind[i] == TESS_MAP_FULL) {
        cairo_rectangle(cr, dx, dy, cw, ch);
      } else if (sc->cell_kind[i] == TESS_MAP_TRACED && sc->piece_start) {
        for (uint32_t k = sc->piece_start[i]; k < sc->piece_start[i + 1] && k < sc->piece_count; k++) {
          const TessPolygon *pg = &sc->pieces[k];
          for (uint32_t v = 0; v < pg->count; v++) {
            double px, py;
            draw_to_device(m, tess_v2_add(corner, pg->v[v]), &px, &py);
            if (v == 0) cairo_move_to(cr, px, py);
            else cairo_line_to(cr, px, py);
          }
          cairo_close_path(cr);
        }
      }
    }
  cairo_fill(cr);
}

static void draw_fluids_and_zones(cairo_t *cr, const DrawMapper *m, const TessScene *sc, const TessDrawView *view) {
  int x0, y0, x1, y1;
  if (sc->cell_material && visible_cells(m, sc, view, &x0, &y0, &x1, &y1)) {
    double cw = sc->cell_w * m->ppm * m->zoom, ch = sc->cell_h * m->ppm * m->zoom;
    cairo_set_source_rgba(cr, 0.15, 0.45, 0.95, 0.30);
    for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++) {
        uint16_t mi = sc->cell_material[(size_t)y * sc->width + (size_t)x];
        if (mi < sc->material_count && sc->materials[mi].kind == TESS_MATERIAL_FLUID) {
          double dx, dy;
          draw_to_device(m, tess_v2((float)x * sc->cell_w, (float)y * sc->cell_h), &dx, &dy);
          cairo_rectangle(cr, dx, dy, cw, ch);
        }
      }
    cairo_fill(cr);
  }
  for (uint32_t i = 0; i < sc->zone_count; i++) {
    const TessSceneZone *z = &sc->zones[i];
    double x, y;
    draw_to_device(m, z->center, &x, &y);
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

/* The static part of the view, rendered once per view (the level does not
 * change while it plays) and copied each frame. */
void draw_background(TessDraw *d, cairo_t *cr, const TessScene *scene, const TessDrawView *view, uint32_t overlays) {
  bool zones = (overlays & TESS_DRAW_OVERLAY_ZONES) != 0;
  if (!d->background || d->bg_scene != scene || d->bg_zones != zones || memcmp(&d->bg_view, view, sizeof *view) != 0) {
    if (d->background) cairo_surface_destroy(d->background);
    d->background = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, view->width > 0 ? view->width : 1,
                                               view->height > 0 ? view->height : 1);
    cairo_t *bg = cairo_create(d->background);
    cairo_set_source_rgb(bg, 0.13, 0.13, 0.15);
    cairo_paint(bg);
    DrawMapper m = {view->origin_x, view->origin_y, view->zoom, scene->ppm};
    if (d->background_fn) d->background_fn(d->background_user, bg, view);
    else draw_cells(bg, &m, scene, view);
    if (zones) draw_fluids_and_zones(bg, &m, scene, view);
    cairo_destroy(bg);
    d->bg_scene = scene;
    d->bg_view = *view;
    d->bg_zones = zones;
    d->stats.surfaces_made++;
  }
  cairo_save(cr);
  cairo_set_source_surface(cr, d->background, 0, 0);
  cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
  cairo_rectangle(cr, 0, 0, view->width, view->height);
  cairo_fill(cr);
  cairo_restore(cr);
}

void tess_draw_set_background(TessDraw *d, TessDrawBackgroundFn fn, void *user) {
  d->background_fn = fn;
  d->background_user = user;
  tess_draw_invalidate_background(d);
}

void tess_draw_invalidate_background(TessDraw *d) {
  if (d->background) cairo_surface_destroy(d->background);
  d->background = NULL;
  d->bg_scene = NULL;
}

void draw_pins(cairo_t *cr, const DrawMapper *m, const TessScene *sc, const DrawBodies *src) {
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
        if ((uint32_t)owners[e] >= src->count || !src->transform(src->ctx, (uint32_t)owners[e], &now)) {
          ok = false;
          break;
        }
        w = tess_transform_point(now, tess_transform_point_inv(x0, w));
      }
      draw_to_device(m, w, &px[e], &py[e]);
    }
    if (!ok) continue;
    /* A pin held by the world: a line from the fixed point to the pin on the body. */
    if (j->kind == TESS_JOINT_PIN && (j->body_a < 0 || j->body_b < 0)) {
      int32_t other = j->body_a >= 0 ? j->body_a : j->body_b;
      TessTransform now;
      if (other >= 0 && (uint32_t)other < src->count && src->transform(src->ctx, (uint32_t)other, &now)) {
        double bx, by;
        draw_to_device(m, now.p, &bx, &by);
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

/* ---- contacts ------------------------------------------------------------------ */

static void age_impacts(TessDraw *d) {
  int kept = 0;
  for (int i = 0; i < d->impact_count; i++)
    if (++d->impacts[i].age < DRAW_CONTACT_LIFE) d->impacts[kept++] = d->impacts[i];
  d->impact_count = kept;
}

static void add_impact(TessDraw *d, TessVec2 point, TessVec2 normal) {
  if (d->impact_count == DRAW_CONTACT_MAX) { /* the oldest make room */
    memmove(d->impacts, d->impacts + 1, (DRAW_CONTACT_MAX - 1) * sizeof d->impacts[0]);
    d->impact_count--;
  }
  DrawImpact *im = &d->impacts[d->impact_count++];
  im->point = point;
  im->normal = normal;
  im->age = 0;
}

void tess_draw_collect_playback_impacts(TessDraw *d, TessPlayback *pb) {
  age_impacts(d);
  TessPlaybackImpact fresh[DRAW_CONTACT_MAX];
  uint32_t n = tess_playback_take_impacts(pb, fresh, DRAW_CONTACT_MAX);
  for (uint32_t i = 0; i < n; i++) add_impact(d, fresh[i].point, fresh[i].normal);
}

void tess_draw_collect_world_impacts(TessDraw *d, const TessWorld *world) {
  age_impacts(d);
  TessWorldEvents ev = tess_world_events(world);
  for (uint32_t i = 0; i < ev.contact_begin_count; i++)
    add_impact(d, ev.contact_begin[i].point, ev.contact_begin[i].normal);
}

void tess_draw_clear_impacts(TessDraw *d) { d->impact_count = 0; }

void draw_contacts(TessDraw *d, cairo_t *cr, const DrawMapper *m, const TessWorld *world, const TessDrawView *view) {
  /* Contacts that touch now (resting ones too, which never make an impact):
   * small amber dots with their normals, under the impacts. */
  uint32_t nr = tess_world_contact_points(world, d->resting, DRAW_CONTACT_MAX);
  if (nr > DRAW_CONTACT_MAX) nr = DRAW_CONTACT_MAX;
  cairo_set_line_width(cr, 1.0);
  cairo_set_source_rgba(cr, 1.0, 0.75, 0.1, 0.9);
  for (uint32_t i = 0; i < nr; i++) {
    const TessContactPoint *cp = &d->resting[i];
    double x, y;
    draw_to_device(m, cp->point, &x, &y);
    if (x < -10 || y < -10 || x > view->width + 10 || y > view->height + 10) continue;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, 2.0, 0, 2 * M_PI);
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + cp->normal.x * 8.0, y + cp->normal.y * 8.0);
  }
  cairo_stroke(cr);
  cairo_set_line_width(cr, 1.5);
  for (int i = 0; i < d->impact_count; i++) {
    const DrawImpact *im = &d->impacts[i];
    double x, y, fade = 1.0 - (double)im->age / DRAW_CONTACT_LIFE;
    draw_to_device(m, im->point, &x, &y);
    cairo_arc(cr, x, y, 3.0, 0, 2 * M_PI);
    cairo_set_source_rgba(cr, 1.0, 0.2, 0.2, fade);
    cairo_fill(cr);
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + im->normal.x * 14.0, y + im->normal.y * 14.0);
    cairo_stroke(cr);
  }
}
