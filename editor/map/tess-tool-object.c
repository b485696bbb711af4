/* The object tool: a click on empty space places the template (circle, box,
 * capsule, sprite body, zone, spawn); a click on an object selects it and a
 * drag moves it; the handle beside a selected body or zone rotates it. With
 * a joint template, a click on one body then on another joins them. Moves
 * and rotations of one drag are one undo step; snapping uses half cells
 * (and 15 degree steps). */
#include <glib/gi18n.h>
#include <math.h>

#include "tess-map-view-private.h"

static double snap_step(TessMapView *v) {
  TessLevel *level = tess_map_view_level(v);
  return level->settings.tile_w / 2.0;
}

static TessVec2 snap_point(TessMapView *v, double x, double y) {
  if (!v->snap) return tess_v2((float)x, (float)y);
  double s = snap_step(v);
  return tess_v2((float)(round(x / s) * s), (float)(round(y / s) * s));
}

/* The object layer new objects go to: the edited layer when it holds
 * objects, else the level's topmost object layer. */
static TessLayer *target_layer(TessMapView *v) {
  TessLayer *layer = tess_map_view_edit_layer(v);
  if (layer && layer->props.kind == TESS_LAYER_OBJECTS) return layer;
  TessLevel *level = tess_map_view_level(v);
  for (uint32_t i = level->layer_count; i-- > 0;)
    if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) return level->layers[i];
  return NULL;
}

static gboolean layer_unlocked(TessMapView *v, TessLayer *layer) {
  if (!layer) {
    tess_map_view_refuse(v, _("This level has no object layer"));
    return FALSE;
  }
  if (layer->props.locked) {
    g_autofree char *msg = g_strdup_printf(_("The layer “%s” is locked"), layer->props.name);
    tess_map_view_refuse(v, msg);
    return FALSE;
  }
  return TRUE;
}

/* The topmost visible object under the point. */
static const TessObject *hit_object(TessMapView *v, double lx, double ly) {
  TessLevel *level = tess_map_view_level(v);
  TessProject *p = tess_map_view_project(v);
  for (uint32_t i = level->layer_count; i-- > 0;) {
    const TessLayer *layer = level->layers[i];
    if (layer->props.kind != TESS_LAYER_OBJECTS || !layer->props.visible) continue;
    for (uint32_t k = layer->object_count; k-- > 0;)
      if (tess_render_object_hit(p, level, &layer->objects[k], tess_v2((float)lx, (float)ly), v->zoom))
        return &layer->objects[k];
  }
  return NULL;
}

static void add_object(TessMapView *v, TessObject *obj) {
  TessLayer *layer = target_layer(v);
  if (!layer_unlocked(v, layer)) return;
  TessError err;
  TessId id = 0;
  TessResult r = tess_edit_object_add(tess_map_view_project(v), v->level_id, layer->props.id, obj, &id, &err);
  if (r != TESS_OK) {
    tess_map_view_refuse_result(v, r, &err);
    return;
  }
  tess_map_view_commit(v);
  tess_map_view_select_object(v, id);
}

static void join_bodies(TessMapView *v, const TessObject *a, const TessObject *b, double lx, double ly) {
  TessObject joint;
  if (tess_object_copy(&joint, &v->template_obj) != TESS_OK) return;
  joint.u.joint.body_a = a->id;
  joint.u.joint.body_b = b->id;
  if (joint.u.joint.kind == TESS_JOINT_DISTANCE) {
    joint.pos = a->pos;
    joint.u.joint.anchor_b = b->pos;
    joint.u.joint.length = 0.0f; /* the distance at placement */
  } else {
    joint.pos = snap_point(v, lx, ly);
  }
  add_object(v, &joint);
  tess_object_clear(&joint);
}

void tess_tool_object_press(TessMapView *v, double lx, double ly) {
  TessProject *p = tess_map_view_project(v);
  TessLevel *level = tess_map_view_level(v);
  v->object_drag = OBJECT_DRAG_NONE;
  /* The rotate handle of the selected body or zone. */
  TessLayer *sel_layer = NULL;
  const TessObject *sel = v->selected_object ? tess_level_object(level, v->selected_object, &sel_layer) : NULL;
  if (sel && (sel->kind == TESS_OBJECT_BODY || sel->kind == TESS_OBJECT_ZONE)) {
    TessVec2 h = tess_render_object_rotate_handle(p, sel, v->zoom);
    if (hypot(lx - h.x, ly - h.y) <= 8.0 / v->zoom) {
      if (layer_unlocked(v, sel_layer)) v->object_drag = OBJECT_DRAG_ROTATE;
      return;
    }
  }
  const TessObject *hit = hit_object(v, lx, ly);
  if (v->has_template && v->template_obj.kind == TESS_OBJECT_JOINT) {
    /* A click beside the bodies says why nothing was joined, and keeps the
     * first body: the user aimed and missed; Escape cancels. */
    if (!hit) {
      tess_map_view_refuse(v, v->joint_body_a ? _("No body here: click the second body (Esc cancels)")
                                              : _("No body here: a joint joins two bodies, click the first one"));
      return;
    }
    if (hit->kind != TESS_OBJECT_BODY) { /* a joint or zone: selected, as without a template */
      tess_map_view_select_object(v, hit->id);
      v->joint_body_a = 0;
      return;
    }
    if (!v->joint_body_a || v->joint_body_a == hit->id) {
      v->joint_body_a = hit->id;
      tess_map_view_select_object(v, hit->id);
      return;
    }
    const TessObject *a = tess_level_object(level, v->joint_body_a, NULL);
    v->joint_body_a = 0;
    if (a) {
      TessObject a_copy = *a, b_copy = *hit; /* shallow: read before the edit reallocates */
      a_copy.props = NULL;
      a_copy.prop_count = 0;
      b_copy.props = NULL;
      b_copy.prop_count = 0;
      join_bodies(v, &a_copy, &b_copy, lx, ly);
    }
    return;
  }
  if (hit) {
    tess_map_view_select_object(v, hit->id);
    TessLayer *layer = NULL;
    tess_level_object(level, hit->id, &layer);
    if (!layer_unlocked(v, layer)) return;
    v->object_drag = OBJECT_DRAG_MOVE;
    v->grab_offset = tess_v2((float)(hit->pos.x - lx), (float)(hit->pos.y - ly));
    return;
  }
  if (!v->has_template) {
    tess_map_view_select_object(v, 0);
    return;
  }
  TessObject obj;
  if (tess_object_copy(&obj, &v->template_obj) != TESS_OK) return;
  obj.pos = snap_point(v, lx, ly);
  add_object(v, &obj);
  tess_object_clear(&obj);
}

const char *tess_tool_object_hint(TessMapView *v) {
  if (v->tool != TESS_TOOL_OBJECT || !v->has_template || v->template_obj.kind != TESS_OBJECT_JOINT) return NULL;
  return v->joint_body_a ? _("Now click the second body (Esc cancels)") : _("Click the first body, then the second");
}

static void apply(TessMapView *v, TessObject *obj) {
  TessError err;
  TessResult r = tess_edit_object_set(tess_map_view_project(v), v->level_id, obj, v->merge, &err);
  if (r != TESS_OK) {
    tess_map_view_refuse_result(v, r, &err);
    v->object_drag = OBJECT_DRAG_NONE;
    return;
  }
  tess_map_view_commit(v);
}

void tess_tool_object_drag(TessMapView *v, double lx, double ly) {
  if (v->object_drag == OBJECT_DRAG_NONE || !v->selected_object) return;
  TessLevel *level = tess_map_view_level(v);
  const TessObject *cur = tess_level_object(level, v->selected_object, NULL);
  if (!cur) return;
  TessObject obj;
  if (tess_object_copy(&obj, cur) != TESS_OK) return;
  if (v->object_drag == OBJECT_DRAG_MOVE) {
    TessVec2 pos = snap_point(v, lx + v->grab_offset.x, ly + v->grab_offset.y);
    TessVec2 delta = tess_v2_sub(pos, obj.pos);
    if (delta.x == 0 && delta.y == 0) {
      tess_object_clear(&obj);
      return;
    }
    obj.pos = pos;
    if (obj.kind == TESS_OBJECT_JOINT && obj.u.joint.kind == TESS_JOINT_DISTANCE)
      obj.u.joint.anchor_b = tess_v2_add(obj.u.joint.anchor_b, delta);
  } else {
    double angle = atan2(ly - obj.pos.y, lx - obj.pos.x);
    if (v->snap) angle = round(angle / (G_PI / 12)) * (G_PI / 12);
    if (fabs(angle - obj.angle) < 1e-6) {
      tess_object_clear(&obj);
      return;
    }
    obj.angle = (float)angle;
  }
  apply(v, &obj);
  tess_object_clear(&obj);
}

void tess_tool_object_release(TessMapView *v, double lx, double ly) {
  if (v->object_drag != OBJECT_DRAG_NONE) tess_tool_object_drag(v, lx, ly);
  v->object_drag = OBJECT_DRAG_NONE;
}

gboolean tess_tool_object_delete(TessMapView *v) {
  TessLevel *level = tess_map_view_level(v);
  if (!level || !v->selected_object) return FALSE;
  TessLayer *layer = NULL;
  if (!tess_level_object(level, v->selected_object, &layer)) return FALSE;
  if (!layer_unlocked(v, layer)) return FALSE;
  TessError err;
  TessResult r = tess_edit_object_remove(tess_map_view_project(v), v->level_id, v->selected_object, &err);
  if (r != TESS_OK) {
    tess_map_view_refuse_result(v, r, &err);
    return FALSE;
  }
  tess_map_view_commit(v);
  tess_map_view_select_object(v, 0);
  return TRUE;
}

void tess_tool_object_draw(TessMapView *v, cairo_t *cr) {
  TessLevel *level = tess_map_view_level(v);
  if (v->joint_body_a) {
    const TessObject *a = tess_level_object(level, v->joint_body_a, NULL);
    if (a) {
      double x, y;
      tess_map_view_level_to_widget(v, a->pos.x, a->pos.y, &x, &y);
      cairo_move_to(cr, x, y);
      cairo_line_to(cr, v->pointer_x, v->pointer_y);
      static const double dash[] = {4.0, 3.0};
      cairo_set_dash(cr, dash, 2, 0);
      cairo_set_source_rgba(cr, 1.0, 0.82, 0.25, 0.9);
      cairo_set_line_width(cr, 1.5);
      cairo_stroke(cr);
      cairo_set_dash(cr, NULL, 0, 0);
    }
  }
  if (v->pointer_inside && v->has_template && !v->dragging) {
    /* Where a click would place the template (snapped). */
    double lx, ly, x, y;
    tess_map_view_widget_to_level(v, v->pointer_x, v->pointer_y, &lx, &ly);
    TessVec2 s = snap_point(v, lx, ly);
    tess_map_view_level_to_widget(v, s.x, s.y, &x, &y);
    cairo_move_to(cr, x - 6, y);
    cairo_line_to(cr, x + 6, y);
    cairo_move_to(cr, x, y - 6);
    cairo_line_to(cr, x, y + 6);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
  }
}
