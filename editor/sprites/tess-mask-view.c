/* TessMaskView: a sprite frame and its collision overlays (see tess-mask-view.h). */
#include "tess-mask-view.h"

#include <math.h>
#include <string.h>

#define MARGIN 16.0
#define PICK_RADIUS 8.0 /* widget pixels */

struct _TessMaskView {
  GtkWidget parent_instance;
  cairo_surface_t *frame; /* premultiplied copy of the frame */
  uint32_t frame_w, frame_h;
  const TessSpriteMask *mask; /* borrowed */
  TessMaskSecondMoments moments;
  gboolean has_moments;
  TessDVec2 *simplified;
  uint32_t simplified_count;
  guint overlays;
  gboolean editable;
  double zoom;         /* 0 = fit */
  double shown_zoom;   /* the effective scale last notified ("zoom") */
  double pan_x, pan_y; /* widget pixels added to the centred position */
  gboolean panning;
  double pan_x0, pan_y0; /* pan at the start of a pan drag */
  gboolean has_anchor;
  double anchor_x, anchor_y; /* frame pixels */
  gboolean anchor_drag;
  /* a vertex drag */
  gboolean dragging;
  guint drag_piece, drag_vertex;
  double drag_x0, drag_y0; /* widget position at the press */
};

enum {
  SIGNAL_VERTEX_MOVED,
  SIGNAL_VERTEX_INSERTED,
  SIGNAL_VERTEX_REMOVED,
  SIGNAL_ANCHOR_MOVED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* "zoom": the effective scale, which a fitted frame changes with the
 * widget's size too (the editor's zoom label is bound to it). */
enum { PROP_0,
       PROP_ZOOM,
       N_PROPS };
static GParamSpec *props[N_PROPS];

G_DEFINE_FINAL_TYPE(TessMaskView, tess_mask_view, GTK_TYPE_WIDGET)

static void notify_zoom(TessMaskView *v) {
  double zoom = tess_mask_view_get_zoom(v);
  if (zoom == v->shown_zoom) return;
  v->shown_zoom = zoom;
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_ZOOM]);
}

/* ---- Geometry ------------------------------------------------------------ */

static void layout(TessMaskView *v, int width, int height, double *scale, double *ox, double *oy) {
  double s = v->zoom;
  if (v->frame_w == 0 || v->frame_h == 0) {
    *scale = 1.0;
    *ox = *oy = MARGIN;
    return;
  }
  if (s <= 0) {
    s = fmin((width - 2 * MARGIN) / v->frame_w, (height - 2 * MARGIN) / v->frame_h);
    if (s > 1.0) s = floor(s); /* whole multiples keep pixels square and crisp */
    if (s < 0.05) s = 0.05;
  }
  *scale = s;
  *ox = floor((width - v->frame_w * s) / 2.0 + v->pan_x);
  *oy = floor((height - v->frame_h * s) / 2.0 + v->pan_y);
}

void tess_mask_view_frame_to_widget(TessMaskView *v, double fx, double fy, double *wx, double *wy) {
  double s, ox, oy;
  layout(v, gtk_widget_get_width(GTK_WIDGET(v)), gtk_widget_get_height(GTK_WIDGET(v)), &s, &ox, &oy);
  *wx = ox + fx * s;
  *wy = oy + fy * s;
}

void tess_mask_view_widget_to_frame(TessMaskView *v, double wx, double wy, double *fx, double *fy) {
  double s, ox, oy;
  layout(v, gtk_widget_get_width(GTK_WIDGET(v)), gtk_widget_get_height(GTK_WIDGET(v)), &s, &ox, &oy);
  *fx = (wx - ox) / s;
  *fy = (wy - oy) / s;
}

double tess_mask_view_get_zoom(TessMaskView *v) {
  double s, ox, oy;
  layout(v, gtk_widget_get_width(GTK_WIDGET(v)), gtk_widget_get_height(GTK_WIDGET(v)), &s, &ox, &oy);
  return s;
}

/* ---- Drawing ------------------------------------------------------------- */

/* Each piece its own colour: hues far apart, repeating after eight. */
static void piece_color(guint i, double *r, double *g, double *b) {
  static const double palette[8][3] = {
      {0.20, 0.52, 0.89},
      {0.90, 0.38, 0.00},
      {0.18, 0.76, 0.49},
      {0.75, 0.38, 0.80},
      {0.96, 0.76, 0.07},
      {0.88, 0.11, 0.14},
      {0.15, 0.64, 0.72},
      {0.60, 0.45, 0.30},
  };
  *r = palette[i % 8][0];
  *g = palette[i % 8][1];
  *b = palette[i % 8][2];
}

static void draw_checkerboard(cairo_t *cr, double x, double y, double w, double h) {
  cairo_save(cr);
  cairo_rectangle(cr, x, y, w, h);
  cairo_clip(cr);
  cairo_set_source_rgb(cr, 0.80, 0.80, 0.80);
  cairo_paint(cr);
  cairo_set_source_rgb(cr, 0.62, 0.62, 0.62);
  const double cell = 8.0;
  for (double cy = 0; cy < h; cy += cell)
    for (double cx = ((int)(cy / cell) % 2) * cell; cx < w; cx += 2 * cell) cairo_rectangle(cr, x + cx, y + cy, cell, cell);
  cairo_fill(cr);
  cairo_restore(cr);
}

static void path_polygon(cairo_t *cr, double s, double ox, double oy, const TessVec2 *pts, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    double x = ox + pts[i].x * s, y = oy + pts[i].y * s;
    if (i == 0) cairo_move_to(cr, x, y);
    else cairo_line_to(cr, x, y);
  }
  cairo_close_path(cr);
}

void tess_mask_view_draw(TessMaskView *v, cairo_t *cr, int width, int height) {
  double s, ox, oy;
  layout(v, width, height, &s, &ox, &oy);
  cairo_set_source_rgb(cr, 0.16, 0.16, 0.18);
  cairo_paint(cr);
  if (!v->frame) return;
  double fw = v->frame_w * s, fh = v->frame_h * s;
  draw_checkerboard(cr, ox, oy, fw, fh);

  cairo_save(cr);
  cairo_translate(cr, ox, oy);
  cairo_scale(cr, s, s);
  cairo_set_source_surface(cr, v->frame, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), s >= 1.0 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_rectangle(cr, 0, 0, v->frame_w, v->frame_h);
  cairo_fill(cr);
  cairo_restore(cr);

  const TessSpriteMask *m = v->mask;
  if (!m) return;
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);

  if ((v->overlays & TESS_MASK_OVERLAY_SHAPE)) {
    if (m->mode == TESS_MASK_CIRCLE && m->circle_radius > 0) {
      cairo_arc(cr, ox + m->circle_center.x * s, oy + m->circle_center.y * s, m->circle_radius * s, 0, 2 * M_PI);
      cairo_set_source_rgba(cr, 0.20, 0.52, 0.89, 0.30);
      cairo_fill_preserve(cr);
      cairo_set_source_rgb(cr, 0.20, 0.52, 0.89);
      cairo_set_line_width(cr, 2.0);
      cairo_stroke(cr);
    }
    for (uint32_t i = 0; i < m->piece_count; i++) {
      double r, g, b;
      piece_color(i, &r, &g, &b);
      path_polygon(cr, s, ox, oy, m->pieces[i].v, m->pieces[i].count);
      cairo_set_source_rgba(cr, r, g, b, 0.30);
      cairo_fill_preserve(cr);
      cairo_set_source_rgb(cr, r, g, b);
      cairo_set_line_width(cr, 2.0);
      cairo_stroke(cr);
    }
  }
  if ((v->overlays & TESS_MASK_OVERLAY_SIMPLIFIED) && v->simplified_count >= 3 && m->mode != TESS_MASK_SIMPLIFIED) {
    for (uint32_t i = 0; i < v->simplified_count; i++) {
      double x = ox + v->simplified[i].x * s, y = oy + v->simplified[i].y * s;
      if (i == 0) cairo_move_to(cr, x, y);
      else cairo_line_to(cr, x, y);
    }
    cairo_close_path(cr);
    cairo_set_source_rgba(cr, 0.96, 0.76, 0.07, 0.9);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
  }
  if ((v->overlays & TESS_MASK_OVERLAY_HULL) && m->hull_count >= 3) {
    static const double dash[] = {5.0, 4.0};
    path_polygon(cr, s, ox, oy, m->hull, m->hull_count);
    cairo_set_dash(cr, dash, 2, 0);
    cairo_set_line_width(cr, 1.5);
    cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    cairo_stroke_preserve(cr);
    cairo_set_dash(cr, dash, 2, 5.0);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
  }
  if (v->has_moments) {
    double cx = ox + v->moments.cx * s, cy = oy + v->moments.cy * s;
    if (v->overlays & TESS_MASK_OVERLAY_AXES) {
      double angle = v->moments.angle, major = v->moments.major, minor = v->moments.minor;
      /* Half-lengths: sqrt(3) radii of gyration, the half-sides of the
       * rectangle with the same second moments (a box's axes end at its edges). */
      double lmaj = sqrt(3.0 * fmax(major, 0) / v->moments.area) * s;
      double lmin = sqrt(3.0 * fmax(minor, 0) / v->moments.area) * s;
      double ux = cos(angle), uy = sin(angle);
      cairo_set_line_width(cr, 2.0);
      cairo_set_source_rgb(cr, 0.88, 0.11, 0.14);
      cairo_move_to(cr, cx - ux * lmaj, cy - uy * lmaj);
      cairo_line_to(cr, cx + ux * lmaj, cy + uy * lmaj);
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0.18, 0.76, 0.49);
      cairo_move_to(cr, cx + uy * lmin, cy - ux * lmin);
      cairo_line_to(cr, cx - uy * lmin, cy + ux * lmin);
      cairo_stroke(cr);
    }
    if (v->overlays & TESS_MASK_OVERLAY_CENTROID) {
      cairo_arc(cr, cx, cy, 5.0, 0, 2 * M_PI);
      cairo_set_source_rgb(cr, 1, 1, 1);
      cairo_fill_preserve(cr);
      cairo_set_source_rgb(cr, 0, 0, 0);
      cairo_set_line_width(cr, 1.5);
      cairo_stroke(cr);
      cairo_move_to(cr, cx - 8, cy);
      cairo_line_to(cr, cx + 8, cy);
      cairo_move_to(cr, cx, cy - 8);
      cairo_line_to(cr, cx, cy + 8);
      cairo_stroke(cr);
    }
  }
  if (v->has_anchor) {
    /* The anchor: where the body's origin sits (a magenta cross in a ring). */
    double ax = ox + v->anchor_x * s, ay = oy + v->anchor_y * s;
    cairo_set_line_width(cr, 2.0);
    cairo_set_source_rgb(cr, 0.85, 0.15, 0.75);
    cairo_arc(cr, ax, ay, 6.0, 0, 2 * M_PI);
    cairo_move_to(cr, ax - 10, ay);
    cairo_line_to(cr, ax + 10, ay);
    cairo_move_to(cr, ax, ay - 10);
    cairo_line_to(cr, ax, ay + 10);
    cairo_stroke(cr);
  }
  if (v->editable && (v->overlays & TESS_MASK_OVERLAY_SHAPE)) {
    for (uint32_t i = 0; i < m->piece_count; i++)
      for (uint32_t k = 0; k < m->pieces[i].count; k++) {
        double x = ox + m->pieces[i].v[k].x * s, y = oy + m->pieces[i].v[k].y * s;
        gboolean active = v->dragging && v->drag_piece == i && v->drag_vertex == k;
        cairo_rectangle(cr, x - 4, y - 4, 8, 8);
        cairo_set_source_rgb(cr, active ? 1.0 : 0.95, active ? 0.8 : 0.95, active ? 0.2 : 0.95);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        cairo_set_line_width(cr, 1.0);
        cairo_stroke(cr);
      }
  }
}

static void tess_mask_view_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
  TessMaskView *v = TESS_MASK_VIEW(widget);
  int w = gtk_widget_get_width(widget), h = gtk_widget_get_height(widget);
  cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &GRAPHENE_RECT_INIT(0, 0, w, h));
  tess_mask_view_draw(v, cr, w, h);
  cairo_destroy(cr);
}

/* ---- Setters ------------------------------------------------------------- */

void tess_mask_view_set_frame(TessMaskView *v, TessImageView frame) {
  g_clear_pointer(&v->frame, cairo_surface_destroy);
  v->frame_w = v->frame_h = 0;
  if (frame.pixels && frame.width && frame.height) {
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, frame.width, frame.height);
    if (cairo_surface_status(surf) == CAIRO_STATUS_SUCCESS) {
      cairo_surface_flush(surf);
      uint8_t *dst = cairo_image_surface_get_data(surf);
      int stride = cairo_image_surface_get_stride(surf);
      for (uint32_t y = 0; y < frame.height; y++) {
        const uint8_t *src = frame.pixels + (size_t)y * frame.stride;
        uint32_t *row = (uint32_t *)(dst + (size_t)y * stride);
        for (uint32_t x = 0; x < frame.width; x++) {
          uint32_t a = src[4 * x + 3];
          uint32_t r = (src[4 * x] * a + 127) / 255, g = (src[4 * x + 1] * a + 127) / 255,
                   b = (src[4 * x + 2] * a + 127) / 255;
          row[x] = (a << 24) | (r << 16) | (g << 8) | b;
        }
      }
      cairo_surface_mark_dirty(surf);
      v->frame = surf;
      v->frame_w = frame.width;
      v->frame_h = frame.height;
    } else {
      cairo_surface_destroy(surf);
    }
  }
  gtk_widget_queue_draw(GTK_WIDGET(v));
  notify_zoom(v);
}

void tess_mask_view_set_mask(TessMaskView *v, const TessSpriteMask *mask, const TessMaskSecondMoments *moments,
                             const TessDVec2 *simplified, uint32_t simplified_count) {
  v->mask = mask;
  v->has_moments = moments != NULL;
  if (moments) v->moments = *moments;
  g_free(v->simplified);
  v->simplified = simplified_count ? g_memdup2(simplified, sizeof *simplified * simplified_count) : NULL;
  v->simplified_count = simplified_count;
  if (!mask) v->dragging = FALSE;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_mask_view_set_overlays(TessMaskView *v, guint overlays) {
  v->overlays = overlays;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

guint tess_mask_view_get_overlays(TessMaskView *v) { return v->overlays; }

void tess_mask_view_set_editable(TessMaskView *v, gboolean editable) {
  v->editable = editable;
  if (!editable) v->dragging = FALSE;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_mask_view_set_anchor(TessMaskView *v, gboolean show, double x, double y) {
  v->has_anchor = show;
  v->anchor_x = x;
  v->anchor_y = y;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_mask_view_set_zoom(TessMaskView *v, double zoom) {
  if (zoom <= 0) v->pan_x = v->pan_y = 0; /* fit: centred again */
  v->zoom = zoom > 0 ? CLAMP(zoom, 0.05, 64.0) : 0.0;
  gtk_widget_queue_draw(GTK_WIDGET(v));
  notify_zoom(v);
}

/* ---- Edits --------------------------------------------------------------- */

gboolean tess_mask_view_press_vertex(TessMaskView *v, double wx, double wy) {
  if (!v->mask || !v->editable) return FALSE;
  double fx, fy;
  tess_mask_view_widget_to_frame(v, wx, wy, &fx, &fy);
  uint32_t piece, vertex;
  double s = tess_mask_view_get_zoom(v);
  if (!tess_mask_shape_pick_vertex(v->mask, (float)fx, (float)fy, (float)(PICK_RADIUS / s), &piece, &vertex))
    return FALSE;
  v->dragging = TRUE;
  v->drag_piece = piece;
  v->drag_vertex = vertex;
  v->drag_x0 = wx;
  v->drag_y0 = wy;
  gtk_widget_queue_draw(GTK_WIDGET(v));
  return TRUE;
}

void tess_mask_view_drag_to(TessMaskView *v, double wx, double wy, gboolean final) {
  if (!v->dragging) return;
  double fx, fy;
  tess_mask_view_widget_to_frame(v, wx, wy, &fx, &fy);
  /* Quarter pixels: fine enough to fit an outline, coarse enough to read. */
  fx = round(fx * 4.0) / 4.0;
  fy = round(fy * 4.0) / 4.0;
  guint piece = v->drag_piece, vertex = v->drag_vertex;
  if (final) v->dragging = FALSE;
  g_signal_emit(v, signals[SIGNAL_VERTEX_MOVED], 0, piece, vertex, fx, fy, final);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

gboolean tess_mask_view_insert_at(TessMaskView *v, double wx, double wy) {
  if (!v->mask || !v->editable) return FALSE;
  double fx, fy;
  tess_mask_view_widget_to_frame(v, wx, wy, &fx, &fy);
  uint32_t piece, vertex;
  double s = tess_mask_view_get_zoom(v);
  if (!tess_mask_shape_pick_edge(v->mask, (float)fx, (float)fy, (float)(PICK_RADIUS / s), &piece, &vertex))
    return FALSE;
  fx = round(fx * 4.0) / 4.0;
  fy = round(fy * 4.0) / 4.0;
  g_signal_emit(v, signals[SIGNAL_VERTEX_INSERTED], 0, (guint)piece, (guint)vertex, fx, fy);
  return TRUE;
}

gboolean tess_mask_view_remove_at(TessMaskView *v, double wx, double wy) {
  if (!v->mask || !v->editable) return FALSE;
  double fx, fy;
  tess_mask_view_widget_to_frame(v, wx, wy, &fx, &fy);
  uint32_t piece, vertex;
  double s = tess_mask_view_get_zoom(v);
  if (!tess_mask_shape_pick_vertex(v->mask, (float)fx, (float)fy, (float)(PICK_RADIUS / s), &piece, &vertex))
    return FALSE;
  g_signal_emit(v, signals[SIGNAL_VERTEX_REMOVED], 0, (guint)piece, (guint)vertex);
  return TRUE;
}

/* ---- Gestures ------------------------------------------------------------ */

gboolean tess_mask_view_press_anchor(TessMaskView *v, double wx, double wy) {
  if (!v->has_anchor) return FALSE;
  double ax, ay;
  tess_mask_view_frame_to_widget(v, v->anchor_x, v->anchor_y, &ax, &ay);
  if ((ax - wx) * (ax - wx) + (ay - wy) * (ay - wy) > PICK_RADIUS * PICK_RADIUS * 2) return FALSE;
  v->anchor_drag = TRUE;
  v->drag_x0 = wx;
  v->drag_y0 = wy;
  return TRUE;
}

void tess_mask_view_drag_anchor_to(TessMaskView *v, double wx, double wy, gboolean final) {
  if (!v->anchor_drag) return;
  double fx, fy;
  tess_mask_view_widget_to_frame(v, wx, wy, &fx, &fy);
  /* Half pixels: a pixel's corner or centre. */
  fx = CLAMP(round(fx * 2.0) / 2.0, 0, v->frame_w);
  fy = CLAMP(round(fy * 2.0) / 2.0, 0, v->frame_h);
  if (final) v->anchor_drag = FALSE;
  v->anchor_x = fx;
  v->anchor_y = fy;
  g_signal_emit(v, signals[SIGNAL_ANCHOR_MOVED], 0, fx, fy, final);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

static void on_drag_begin(GtkGestureDrag *g, double x, double y, TessMaskView *v) {
  /* Vertices first (a vertex may sit on the anchor), then the anchor. */
  if (tess_mask_view_press_vertex(v, x, y) || tess_mask_view_press_anchor(v, x, y)) {
    gtk_gesture_set_state(GTK_GESTURE(g), GTK_EVENT_SEQUENCE_CLAIMED);
    return;
  }
  /* Not on a vertex: the drag pans the view. */
  v->panning = TRUE;
  v->pan_x0 = v->pan_x;
  v->pan_y0 = v->pan_y;
}

static void on_drag_update(GtkGestureDrag *g, double dx, double dy, TessMaskView *v) {
  if (v->dragging) {
    tess_mask_view_drag_to(v, v->drag_x0 + dx, v->drag_y0 + dy, FALSE);
  } else if (v->anchor_drag) {
    tess_mask_view_drag_anchor_to(v, v->drag_x0 + dx, v->drag_y0 + dy, FALSE);
  } else if (v->panning) {
    v->pan_x = v->pan_x0 + dx;
    v->pan_y = v->pan_y0 + dy;
    gtk_widget_queue_draw(GTK_WIDGET(v));
  }
}

static void on_drag_end(GtkGestureDrag *g, double dx, double dy, TessMaskView *v) {
  if (v->dragging) tess_mask_view_drag_to(v, v->drag_x0 + dx, v->drag_y0 + dy, TRUE);
  else if (v->anchor_drag) tess_mask_view_drag_anchor_to(v, v->drag_x0 + dx, v->drag_y0 + dy, TRUE);
  v->panning = FALSE;
}

static void on_primary_pressed(GtkGestureClick *g, int n_press, double x, double y, TessMaskView *v) {
  if (n_press == 2 && tess_mask_view_insert_at(v, x, y)) gtk_gesture_set_state(GTK_GESTURE(g), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void on_secondary_pressed(GtkGestureClick *g, int n_press, double x, double y, TessMaskView *v) {
  if (tess_mask_view_remove_at(v, x, y)) gtk_gesture_set_state(GTK_GESTURE(g), GTK_EVENT_SEQUENCE_CLAIMED);
}

static gboolean on_scroll(GtkEventControllerScroll *c, double dx, double dy, TessMaskView *v) {
  GdkModifierType mods = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(c));
  if (!(mods & GDK_CONTROL_MASK)) {
    v->pan_x -= dx * 24.0;
    v->pan_y -= dy * 24.0;
    gtk_widget_queue_draw(GTK_WIDGET(v));
    return TRUE;
  }
  if (dy == 0) return FALSE;
  /* Zoom about the frame's point under the pointer. */
  double px = gtk_widget_get_width(GTK_WIDGET(v)) / 2.0, py = gtk_widget_get_height(GTK_WIDGET(v)) / 2.0;
  GdkEvent *event = gtk_event_controller_get_current_event(GTK_EVENT_CONTROLLER(c));
  double ex, ey;
  if (event && gdk_event_get_position(event, &ex, &ey)) {
    graphene_point_t in, out;
    in = GRAPHENE_POINT_INIT((float)ex, (float)ey);
    GtkNative *native = gtk_widget_get_native(GTK_WIDGET(v));
    double sx = 0, sy = 0;
    if (native) gtk_native_get_surface_transform(native, &sx, &sy);
    in.x -= (float)sx;
    in.y -= (float)sy;
    if (native && gtk_widget_compute_point(GTK_WIDGET(native), GTK_WIDGET(v), &in, &out)) px = out.x, py = out.y;
  }
  double fx, fy;
  tess_mask_view_widget_to_frame(v, px, py, &fx, &fy);
  double z = tess_mask_view_get_zoom(v);
  tess_mask_view_set_zoom(v, dy < 0 ? z * 1.25 : z / 1.25);
  double nx, ny;
  tess_mask_view_frame_to_widget(v, fx, fy, &nx, &ny);
  v->pan_x += px - nx;
  v->pan_y += py - ny;
  gtk_widget_queue_draw(GTK_WIDGET(v));
  return TRUE;
}

/* ---- Class --------------------------------------------------------------- */

static void tess_mask_view_measure(GtkWidget *widget, GtkOrientation o, int for_size, int *min, int *nat, int *min_b,
                                   int *nat_b) {
  *min = 160;
  *nat = 480;
}

static void tess_mask_view_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
  GTK_WIDGET_CLASS(tess_mask_view_parent_class)->size_allocate(widget, width, height, baseline);
  notify_zoom(TESS_MASK_VIEW(widget)); /* a fitted frame scales with the widget */
}

static void tess_mask_view_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  switch (id) {
    case PROP_ZOOM: g_value_set_double(value, tess_mask_view_get_zoom(TESS_MASK_VIEW(object))); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_mask_view_finalize(GObject *object) {
  TessMaskView *v = TESS_MASK_VIEW(object);
  g_clear_pointer(&v->frame, cairo_surface_destroy);
  g_free(v->simplified);
  G_OBJECT_CLASS(tess_mask_view_parent_class)->finalize(object);
}

static void tess_mask_view_class_init(TessMaskViewClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  object_class->finalize = tess_mask_view_finalize;
  object_class->get_property = tess_mask_view_get_property;
  widget_class->snapshot = tess_mask_view_snapshot;
  widget_class->measure = tess_mask_view_measure;
  widget_class->size_allocate = tess_mask_view_size_allocate;
  props[PROP_ZOOM] = g_param_spec_double("zoom", NULL, NULL, 0, G_MAXDOUBLE, 1.0,
                                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(object_class, N_PROPS, props);
  signals[SIGNAL_VERTEX_MOVED] = g_signal_new("vertex-moved", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 5, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_DOUBLE,
                                              G_TYPE_DOUBLE, G_TYPE_BOOLEAN);
  signals[SIGNAL_VERTEX_INSERTED] = g_signal_new("vertex-inserted", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT,
                                                 G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  signals[SIGNAL_VERTEX_REMOVED] = g_signal_new("vertex-removed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[SIGNAL_ANCHOR_MOVED] = g_signal_new("anchor-moved", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 3, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_BOOLEAN);
  gtk_widget_class_set_css_name(widget_class, "tess-mask-view");
}

static void tess_mask_view_init(TessMaskView *v) {
  v->overlays = TESS_MASK_OVERLAY_ALL;
  v->editable = TRUE;
  gtk_widget_set_hexpand(GTK_WIDGET(v), TRUE);
  gtk_widget_set_vexpand(GTK_WIDGET(v), TRUE);
  gtk_widget_set_overflow(GTK_WIDGET(v), GTK_OVERFLOW_HIDDEN);

  GtkGesture *drag = gtk_gesture_drag_new();
  gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), GDK_BUTTON_PRIMARY);
  g_signal_connect(drag, "drag-begin", G_CALLBACK(on_drag_begin), v);
  g_signal_connect(drag, "drag-update", G_CALLBACK(on_drag_update), v);
  g_signal_connect(drag, "drag-end", G_CALLBACK(on_drag_end), v);
  gtk_widget_add_controller(GTK_WIDGET(v), GTK_EVENT_CONTROLLER(drag));

  GtkGesture *click = gtk_gesture_click_new();
  gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(click), GDK_BUTTON_PRIMARY);
  g_signal_connect(click, "pressed", G_CALLBACK(on_primary_pressed), v);
  gtk_widget_add_controller(GTK_WIDGET(v), GTK_EVENT_CONTROLLER(click));

  GtkGesture *right = gtk_gesture_click_new();
  gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(right), GDK_BUTTON_SECONDARY);
  g_signal_connect(right, "pressed", G_CALLBACK(on_secondary_pressed), v);
  gtk_widget_add_controller(GTK_WIDGET(v), GTK_EVENT_CONTROLLER(right));

  GtkEventController *scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect(scroll, "scroll", G_CALLBACK(on_scroll), v);
  gtk_widget_add_controller(GTK_WIDGET(v), scroll);
}

GtkWidget *tess_mask_view_new(void) { return g_object_new(TESS_TYPE_MASK_VIEW, NULL); }
