/* Objects as vectors over the tiles: bodies (circle, box, capsule, sprite),
 * joints, force zones and spawn points, with the selection and its rotate
 * handle. Paths are built in level pixels and stroked in device pixels, so
 * lines keep their width at every zoom. */
#include <math.h>

#include "render_private.h"

static const TessMaterial *body_material(const TessProject *p, const TessObject *obj) {
  const TessMaterial *m = obj->u.body.material ? tess_project_material(p, obj->u.body.material) : NULL;
  if (!m && p->material_count) m = &p->materials[0];
  return m;
}

static void sprite_frame_size(const TessSprite *sp, double *fw, double *fh) {
  uint32_t frames = sp->frame_count ? sp->frame_count : 1;
  *fw = (double)sp->image_w / frames;
  *fh = sp->image_h;
}

float tess_render_object_radius(const TessProject *p, const TessObject *obj) {
  switch ((TessObjectKind)obj->kind) {
    case TESS_OBJECT_BODY: {
      const TessBodyObject *b = &obj->u.body;
      switch ((TessBodyShape)b->shape) {
        case TESS_BODY_CIRCLE: return b->radius;
        case TESS_BODY_BOX: return 0.5f * hypotf(b->width, b->height);
        case TESS_BODY_CAPSULE: return 0.5f * fmaxf(b->width, b->height);
        case TESS_BODY_SPRITE: {
          const TessSprite *sp = tess_project_sprite(p, b->sprite);
          if (!sp) return 16.0f;
          double fw, fh;
          sprite_frame_size(sp, &fw, &fh);
          double ax = fmax(fabs(sp->anchor.x), fabs(fw - sp->anchor.x));
          double ay = fmax(fabs(sp->anchor.y), fabs(fh - sp->anchor.y));
          return (float)hypot(ax, ay);
        }
      }
      return 16.0f;
    }
    case TESS_OBJECT_ZONE:
      if (obj->u.zone.kind == TESS_ZONE_ATTRACTOR || obj->u.zone.kind == TESS_ZONE_SPRING)
        return obj->u.zone.radius > 0 ? obj->u.zone.radius : 8.0f;
      return 0.5f * hypotf(obj->u.zone.width, obj->u.zone.height);
    case TESS_OBJECT_JOINT:
      if (obj->u.joint.kind == TESS_JOINT_DISTANCE) return tess_v2_distance(obj->pos, obj->u.joint.anchor_b);
      return 6.0f;
    case TESS_OBJECT_SPAWN:
      return 8.0f;
    case TESS_OBJECT_LAUNCHER:
      return fmaxf(10.0f, obj->u.launcher.radius);
  }
  return 8.0f;
}

static float seg_distance(TessVec2 a, TessVec2 b, TessVec2 p) {
  TessVec2 ab = tess_v2_sub(b, a);
  float len2 = tess_v2_length_sq(ab);
  float t = len2 > 0 ? tess_v2_dot(tess_v2_sub(p, a), ab) / len2 : 0.0f;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  return tess_v2_distance(tess_v2_mul_add(a, t, ab), p);
}

bool tess_render_object_hit(const TessProject *p, const TessLevel *level, const TessObject *obj, TessVec2 point,
                            double zoom) {
  (void)level;
  float pixel = (float)(1.0 / zoom), tolerance = (float)TESS_RENDER_PICK_SLOP * pixel;
  TessVec2 local = tess_rot_apply_inv(tess_rot(obj->angle), tess_v2_sub(point, obj->pos));
  switch ((TessObjectKind)obj->kind) {
    case TESS_OBJECT_BODY: {
      const TessBodyObject *b = &obj->u.body;
      switch ((TessBodyShape)b->shape) {
        case TESS_BODY_CIRCLE: return tess_v2_length(local) <= b->radius + tolerance;
        case TESS_BODY_BOX:
          return fabsf(local.x) <= 0.5f * b->width + tolerance && fabsf(local.y) <= 0.5f * b->height + tolerance;
        case TESS_BODY_CAPSULE: {
          float r = 0.5f * b->height, a = fmaxf(0.0f, 0.5f * b->width - r);
          return seg_distance(tess_v2(-a, 0), tess_v2(a, 0), local) <= r + tolerance;
        }
        case TESS_BODY_SPRITE: {
          const TessSprite *sp = tess_project_sprite(p, b->sprite);
          if (!sp) return tess_v2_length(local) <= 16.0f + tolerance;
          double fw, fh;
          sprite_frame_size(sp, &fw, &fh);
          double x = local.x + sp->anchor.x, y = local.y + sp->anchor.y;
          return x >= -tolerance && y >= -tolerance && x <= fw + tolerance && y <= fh + tolerance;
        }
      }
      return false;
    }
    case TESS_OBJECT_ZONE:
      if (obj->u.zone.kind == TESS_ZONE_ATTRACTOR || obj->u.zone.kind == TESS_ZONE_SPRING)
        return tess_v2_length(local) <= 5.0f * pixel + tolerance;
      return fabsf(local.x) <= 0.5f * obj->u.zone.width + tolerance &&
             fabsf(local.y) <= 0.5f * obj->u.zone.height + tolerance;
    case TESS_OBJECT_JOINT: { /* the markers paint_joint draws: 6 px for a pin, 4 px at a rod's ends */
      float r = (obj->u.joint.kind == TESS_JOINT_PIN ? 6.0f : 4.0f) * pixel + tolerance;
      if (tess_v2_distance(point, obj->pos) <= r) return true;
      return obj->u.joint.kind == TESS_JOINT_DISTANCE && tess_v2_distance(point, obj->u.joint.anchor_b) <= r;
    }
    case TESS_OBJECT_SPAWN: { /* the pole's foot and the flag above it, drawn upright (paint_spawn) */
      TessVec2 d = tess_v2_sub(point, obj->pos);
      return tess_v2_length(d) <= 8.0f * pixel + tolerance ||
             (fabsf(d.x - 5.0f * pixel) <= 7.0f * pixel && d.y <= 0.0f && d.y >= -18.0f * pixel - tolerance);
    }
    case TESS_OBJECT_LAUNCHER: /* the mortar paint_launcher draws, 10 px across its barrel's reach */
      return tess_v2_distance(point, obj->pos) <= 16.0f * pixel + tolerance;
  }
  return false;
}

TessVec2 tess_render_object_rotate_handle(const TessProject *p, const TessObject *obj, double zoom) {
  float reach = tess_render_object_radius(p, obj) + (float)(24.0 / zoom);
  return tess_v2_add(obj->pos, tess_rot_apply(tess_rot(obj->angle), tess_v2(reach, 0)));
}

/* Enters level space at the object's pose: device = ((level) * zoom + t). */
static void enter_pose(cairo_t *cr, double tx, double ty, double zoom, TessVec2 pos, float angle) {
  cairo_save(cr);
  cairo_translate(cr, tx, ty);
  cairo_scale(cr, zoom, zoom);
  cairo_translate(cr, pos.x, pos.y);
  cairo_rotate(cr, angle);
}

static void device_point(double tx, double ty, double zoom, TessVec2 p, double *x, double *y) {
  *x = tx + p.x * zoom;
  *y = ty + p.y * zoom;
}

static void fill_stroke(cairo_t *cr, uint32_t color, double fill_alpha, double width, bool dashed) {
  render_set_rgba(cr, color, fill_alpha);
  cairo_fill_preserve(cr);
  render_set_rgba(cr, color | 0xFF, 1.0);
  cairo_set_line_width(cr, width);
  if (dashed) {
    static const double dash[] = {4.0, 3.0};
    cairo_set_dash(cr, dash, 2, 0);
  }
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
}

static void paint_body(TessRenderer *r, cairo_t *cr, const TessObject *obj, double tx, double ty, double zoom,
                       bool selected) {
  const TessBodyObject *b = &obj->u.body;
  const TessMaterial *m = body_material(r->project, obj);
  uint32_t color = m ? m->color : 0xC0C0C0FFu;
  double fill_alpha = b->type == TESS_BODY_STATIC ? 0.55 : 0.3;
  enter_pose(cr, tx, ty, zoom, obj->pos, obj->angle);
  switch ((TessBodyShape)b->shape) {
    case TESS_BODY_CIRCLE:
      cairo_arc(cr, 0, 0, b->radius, 0, 2 * M_PI);
      break;
    case TESS_BODY_BOX:
      cairo_rectangle(cr, -0.5 * b->width, -0.5 * b->height, b->width, b->height);
      break;
    case TESS_BODY_CAPSULE: {
      double rad = 0.5 * b->height, a = fmax(0.0, 0.5 * b->width - rad);
      cairo_arc(cr, a, 0, rad, -M_PI / 2, M_PI / 2);
      cairo_arc(cr, -a, 0, rad, M_PI / 2, 3 * M_PI / 2);
      cairo_close_path(cr);
      break;
    }
    case TESS_BODY_SPRITE: {
      const TessSprite *sp = tess_project_sprite(r->project, b->sprite);
      cairo_surface_t *surf = sp ? render_sprite(r, sp->id) : NULL;
      if (sp) {
        double fw, fh;
        sprite_frame_size(sp, &fw, &fh);
        cairo_translate(cr, -sp->anchor.x, -sp->anchor.y);
        if (surf) {
          cairo_set_source_surface(cr, surf, 0, 0);
          cairo_pattern_set_filter(cairo_get_source(cr), zoom >= 1.0 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
          cairo_rectangle(cr, 0, 0, fw, fh);
          cairo_fill(cr);
        } else {
          render_paint_missing_tile(cr, 0, 0, fw, fh);
        }
        /* The collision shape: pieces, else the hull, else the frame. */
        const TessSpriteMask *mask = &sp->mask;
        if (mask->mode == TESS_MASK_CIRCLE && mask->circle_radius > 0) {
          cairo_new_sub_path(cr);
          cairo_arc(cr, mask->circle_center.x, mask->circle_center.y, mask->circle_radius, 0, 2 * M_PI);
        } else if (mask->piece_count) {
          for (uint32_t k = 0; k < mask->piece_count; k++) {
            const TessPolygon *poly = &mask->pieces[k];
            for (uint32_t i = 0; i < poly->count; i++)
              (i ? cairo_line_to : cairo_move_to)(cr, poly->v[i].x, poly->v[i].y);
            cairo_close_path(cr);
          }
        } else if (mask->hull_count) {
          for (uint32_t i = 0; i < mask->hull_count; i++)
            (i ? cairo_line_to : cairo_move_to)(cr, mask->hull[i].x, mask->hull[i].y);
          cairo_close_path(cr);
        } else {
          cairo_rectangle(cr, 0, 0, fw, fh);
        }
        fill_alpha = 0.12;
      } else {
        cairo_arc(cr, 0, 0, 16, 0, 2 * M_PI);
      }
      break;
    }
  }
  cairo_restore(cr);
  fill_stroke(cr, color, fill_alpha, selected ? 2.5 : 1.5, b->sensor != 0);
  /* The body's x axis shows its angle. */
  double x0, y0, x1, y1;
  device_point(tx, ty, zoom, obj->pos, &x0, &y0);
  float reach = tess_render_object_radius(r->project, obj);
  TessVec2 tip = tess_v2_add(obj->pos, tess_rot_apply(tess_rot(obj->angle), tess_v2(reach, 0)));
  device_point(tx, ty, zoom, tip, &x1, &y1);
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x1, y1);
  render_set_rgba(cr, color | 0xFF, 0.9);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
}

static void marker_circle(cairo_t *cr, double x, double y, double radius, uint32_t color) {
  cairo_new_sub_path(cr);
  cairo_arc(cr, x, y, radius, 0, 2 * M_PI);
  render_set_rgba(cr, color, 0.5);
  cairo_fill_preserve(cr);
  render_set_rgba(cr, color, 1.0);
  cairo_set_line_width(cr, 1.5);
  cairo_stroke(cr);
}

static void paint_joint(TessRenderer *r, cairo_t *cr, const TessLevel *level, const TessObject *obj, double tx,
                        double ty, double zoom) {
  (void)r;
  const TessJointObject *j = &obj->u.joint;
  const uint32_t color = 0xFFD040FFu;
  double px, py;
  device_point(tx, ty, zoom, obj->pos, &px, &py);
  static const double dash[] = {3.0, 3.0};
  cairo_set_dash(cr, dash, 2, 0);
  for (int k = 0; k < 2; k++) {
    TessId id = k == 0 ? j->body_a : j->body_b;
    const TessObject *body = id ? tess_level_object(level, id, NULL) : NULL;
    if (!body) continue;
    double bx, by;
    device_point(tx, ty, zoom, body->pos, &bx, &by);
    TessVec2 from = (k == 1 && j->kind == TESS_JOINT_DISTANCE) ? j->anchor_b : obj->pos;
    double fx, fy;
    device_point(tx, ty, zoom, from, &fx, &fy);
    cairo_move_to(cr, fx, fy);
    cairo_line_to(cr, bx, by);
  }
  render_set_rgba(cr, color, 0.7);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  if (j->kind == TESS_JOINT_DISTANCE) {
    double bx, by;
    device_point(tx, ty, zoom, j->anchor_b, &bx, &by);
    cairo_move_to(cr, px, py);
    cairo_line_to(cr, bx, by);
    render_set_rgba(cr, color, 1.0);
    cairo_set_line_width(cr, 2.0);
    cairo_stroke(cr);
    marker_circle(cr, px, py, 4, color);
    marker_circle(cr, bx, by, 4, color);
  } else {
    marker_circle(cr, px, py, 6, color);
    cairo_move_to(cr, px - 4, py - 4);
    cairo_line_to(cr, px + 4, py + 4);
    cairo_move_to(cr, px + 4, py - 4);
    cairo_line_to(cr, px - 4, py + 4);
    cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 1.0);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
  }
}

static void paint_zone(cairo_t *cr, const TessObject *obj, double tx, double ty, double zoom, bool selected) {
  const TessZoneObject *z = &obj->u.zone;
  const uint32_t color = 0x50A0FFFFu;
  double px, py;
  device_point(tx, ty, zoom, obj->pos, &px, &py);
  if (z->kind == TESS_ZONE_ATTRACTOR || z->kind == TESS_ZONE_SPRING) {
    if (z->radius > 0) {
      cairo_arc(cr, px, py, z->radius * zoom, 0, 2 * M_PI);
      fill_stroke(cr, color, 0.1, selected ? 2.5 : 1.0, true);
    }
    marker_circle(cr, px, py, 5, color);
    if (z->kind == TESS_ZONE_SPRING) { /* a coil beside the centre tells a spring from an attractor */
      cairo_move_to(cr, px + 7, py);
      for (int k = 0; k < 6; k++) cairo_line_to(cr, px + 10 + 3 * k, py + (k % 2 ? 4 : -4));
      cairo_line_to(cr, px + 28, py);
      render_set_rgba(cr, color, 1.0);
      cairo_set_line_width(cr, 1.5);
      cairo_stroke(cr);
    }
    return;
  }
  enter_pose(cr, tx, ty, zoom, obj->pos, obj->angle);
  cairo_rectangle(cr, -0.5 * z->width, -0.5 * z->height, z->width, z->height);
  cairo_restore(cr);
  fill_stroke(cr, color, 0.15, selected ? 2.5 : 1.5, true);
  /* An arrow along the force or acceleration. */
  double len = hypot(z->vector.x, z->vector.y);
  if (len > 0) {
    double ux = z->vector.x / len, uy = z->vector.y / len, a = 28.0;
    double ex = px + ux * a, ey = py + uy * a;
    cairo_move_to(cr, px, py);
    cairo_line_to(cr, ex, ey);
    cairo_move_to(cr, ex, ey);
    cairo_line_to(cr, ex - ux * 8 - uy * 5, ey - uy * 8 + ux * 5);
    cairo_move_to(cr, ex, ey);
    cairo_line_to(cr, ex - ux * 8 + uy * 5, ey - uy * 8 - ux * 5);
    render_set_rgba(cr, color, 1.0);
    cairo_set_line_width(cr, 2.0);
    cairo_stroke(cr);
  }
}

static void paint_spawn(cairo_t *cr, const TessObject *obj, double tx, double ty, double zoom, bool selected) {
  double px, py;
  device_point(tx, ty, zoom, obj->pos, &px, &py);
  const uint32_t color = 0x40FF80FFu;
  /* A flag on a pole, standing on the spawn point. */
  cairo_move_to(cr, px, py);
  cairo_line_to(cr, px, py - 18);
  cairo_line_to(cr, px + 11, py - 14);
  cairo_line_to(cr, px, py - 10);
  render_set_rgba(cr, color, 0.8);
  cairo_fill_preserve(cr);
  cairo_set_source_rgba(cr, 0.05, 0.2, 0.1, 1.0);
  cairo_set_line_width(cr, selected ? 2.5 : 1.5);
  cairo_stroke(cr);
  marker_circle(cr, px, py, 3, color);
}

/* A launcher: a mortar (a dark disc, its barrel raised towards the upper
 * right, turned with the object) and, dashed, the ball it fires at the
 * level's scale. Drawn in device pixels so it reads at any zoom. */
static void paint_launcher(cairo_t *cr, const TessObject *obj, double tx, double ty, double zoom, bool selected) {
  double px, py;
  device_point(tx, ty, zoom, obj->pos, &px, &py);
  const uint32_t color = 0xFF9030FFu;
  double a = obj->angle - 0.785398;
  cairo_move_to(cr, px, py);
  cairo_line_to(cr, px + 15.0 * cos(a), py + 15.0 * sin(a));
  cairo_set_line_width(cr, 6.0);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_source_rgba(cr, 0.15, 0.12, 0.1, 1.0);
  cairo_stroke(cr);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_arc(cr, px, py, 8.0, 0, 2 * M_PI);
  fill_stroke(cr, color, 0.9, selected ? 2.5 : 1.5, false);
  double r = obj->u.launcher.radius * zoom;
  if (r > 2.0) {
    cairo_arc(cr, px, py, r, 0, 2 * M_PI);
    cairo_set_source_rgba(cr, 1.0, 0.56, 0.19, 0.9);
    cairo_set_line_width(cr, 1.0);
    static const double dash[] = {3.0, 3.0};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
  }
}

static void paint_selection(TessRenderer *r, cairo_t *cr, const TessObject *obj, double tx, double ty, double zoom) {
  double px, py, hx, hy;
  device_point(tx, ty, zoom, obj->pos, &px, &py);
  double rad = tess_render_object_radius(r->project, obj) * zoom + 4.0;
  cairo_arc(cr, px, py, rad, 0, 2 * M_PI);
  static const double dash[] = {5.0, 4.0};
  cairo_set_dash(cr, dash, 2, 0);
  cairo_set_source_rgba(cr, 1.0, 0.85, 0.2, 0.9);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  if (obj->kind == TESS_OBJECT_BODY || obj->kind == TESS_OBJECT_ZONE) {
    device_point(tx, ty, zoom, tess_render_object_rotate_handle(r->project, obj, zoom), &hx, &hy);
    cairo_move_to(cr, px, py);
    cairo_line_to(cr, hx, hy);
    cairo_stroke(cr);
    marker_circle(cr, hx, hy, 5, 0xFFD830FFu);
  }
}

void render_paint_objects(TessRenderer *r, cairo_t *cr, const TessLevel *level, double tx, double ty, double zoom,
                          double vx0, double vy0, double vx1, double vy1, const TessRenderOptions *o) {
  const double margin = 40.0 / zoom; /* markers and handles drawn in device pixels */
  const TessObject *selected = NULL;
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    if (layer->props.kind != TESS_LAYER_OBJECTS || !layer->props.visible) continue;
    /* Depth order (tess_layer_draw_order); object order if there is no memory for it. */
    uint32_t *order = layer->object_count ? tess_calloc(layer->object_count, sizeof *order) : NULL;
    if (order && tess_layer_draw_order(layer, order, NULL) != TESS_OK) {
      tess_free(order);
      order = NULL;
    }
    if (layer->props.opacity < 1.0f) cairo_push_group(cr);
    for (uint32_t k = 0; k < layer->object_count; k++) {
      const TessObject *obj = &layer->objects[order ? order[k] : k];
      if (o->hidden_object && obj->id == o->hidden_object) continue;
      bool is_sel = o->selected_object && obj->id == o->selected_object;
      if (is_sel) selected = obj;
      if (obj->kind != TESS_OBJECT_JOINT) {
        double rad = tess_render_object_radius(r->project, obj) + margin;
        if (obj->pos.x + rad < vx0 || obj->pos.x - rad > vx1 || obj->pos.y + rad < vy0 || obj->pos.y - rad > vy1)
          continue;
      }
      switch ((TessObjectKind)obj->kind) {
        case TESS_OBJECT_BODY: paint_body(r, cr, obj, tx, ty, zoom, is_sel); break;
        case TESS_OBJECT_JOINT: paint_joint(r, cr, level, obj, tx, ty, zoom); break;
        case TESS_OBJECT_ZONE: paint_zone(cr, obj, tx, ty, zoom, is_sel); break;
        case TESS_OBJECT_SPAWN: paint_spawn(cr, obj, tx, ty, zoom, is_sel); break;
        case TESS_OBJECT_LAUNCHER: paint_launcher(cr, obj, tx, ty, zoom, is_sel); break;
      }
    }
    tess_free(order);
    if (layer->props.opacity < 1.0f) {
      cairo_pop_group_to_source(cr);
      cairo_paint_with_alpha(cr, layer->props.opacity);
    }
  }
  if (selected) paint_selection(r, cr, selected, tx, ty, zoom);
}
