/* The editor's Play mode: see tess-preview-view.h. The simulation and its
 * recording live in TessPlayback (plain C); this widget feeds it frame-clock
 * time, turns pointer input into drags / spawns / removals, and draws
 * through TessPreviewPainter. */
#include "tess-preview-view.h"

#include <glib/gi18n.h>

#include "tessera/render.h"

#define CLICK_SLOP 4.0 /* px a press may move and still be a click */

struct _TessPreviewView {
  GtkWidget parent_instance;

  /* children */
  GtkWidget *toolbar, *canvas, *stats_label;
  GtkWidget *play_button, *step_button, *reset_button, *speed_scale, *timeline, *overlay_button;
  GtkWidget *keep_button, *leave_button;

  /* owned */
  TessDocument *doc;
  TessPreviewLevel *pl;
  TessPreviewPainter *painter;

  TessId level;
  gulong changed_handler;
  gboolean keeping; /* our own Keep Positions edit is being applied */
  guint tick_id;
  gint64 last_frame_us;
  double zoom, origin_x, origin_y; /* level px at the canvas's (0, 0) */
  guint zoom_notify;               /* an idle that emits "zoom-changed" */
  gboolean fitted;
  gboolean user_view; /* zoomed or panned by hand: a resize keeps it */
  guint overlays;
  gboolean show_stats;
  TessId spawn_sprite, spawn_material;
  float spawn_radius_px; /* 0 = half a cell */
  gboolean updating_controls;

  /* pointer */
  gboolean pressed, dragging_body, throwing;
  double press_x, press_y;
  TessVec2 last_world;
  gint64 last_time_us;
  TessVec2 pointer_velocity;

  /* view navigation: wheel zooms at the pointer, middle drag pans */
  double pointer_x, pointer_y;
  double pan_origin_x, pan_origin_y;

  /* frames per second */
  int fps_frames;
  gint64 fps_t0;
  double fps;
  gint64 stats_t;
};

G_DEFINE_FINAL_TYPE(TessPreviewView, tess_preview_view, GTK_TYPE_WIDGET)

enum { SIGNAL_LEAVE_REQUESTED,
       SIGNAL_ZOOM_CHANGED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

static TessPlayback *playback(TessPreviewView *v) { return v->pl ? v->pl->playback : NULL; }

/* ---- coordinates --------------------------------------------------------- */

static double ppm(TessPreviewView *v) { return v->pl ? v->pl->scene->ppm : 32.0; }

static TessVec2 canvas_to_world(TessPreviewView *v, double x, double y) {
  return tess_v2((float)((x / v->zoom + v->origin_x) / ppm(v)), (float)((y / v->zoom + v->origin_y) / ppm(v)));
}

void tess_preview_view_world_to_canvas(TessPreviewView *v, TessVec2 p, double *x, double *y) {
  *x = (p.x * ppm(v) - v->origin_x) * v->zoom;
  *y = (p.y * ppm(v) - v->origin_y) * v->zoom;
}

static gboolean emit_zoom_changed(gpointer user) {
  TessPreviewView *v = user;
  v->zoom_notify = 0;
  g_signal_emit(v, signals[SIGNAL_ZOOM_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

/* Every change of the zoom goes through here. The window's status bar hears
 * of it from an idle: the view is also fitted while it draws, and a label
 * must not change size in the middle of a frame. */
static void set_zoom(TessPreviewView *v, double zoom) {
  if (zoom == v->zoom) return;
  v->zoom = zoom;
  if (!v->zoom_notify) v->zoom_notify = g_idle_add(emit_zoom_changed, v);
}

double tess_preview_view_get_zoom(TessPreviewView *v) { return v->zoom; }

/* Whole level in view, centred, at a zoom between 1/16 and 4. */
static void fit_view(TessPreviewView *v, int width, int height) {
  if (!v->pl || width <= 0 || height <= 0) return;
  const TessLevelSettings *s = &v->pl->level->settings;
  double lw = (double)s->width * s->tile_w, lh = (double)s->height * s->tile_h;
  double z = fmin((width - 16) / lw, (height - 16) / lh);
  z = CLAMP(z, 1.0 / 16.0, 4.0);
  set_zoom(v, z);
  v->origin_x = (lw - width / z) / 2.0;
  v->origin_y = (lh - height / z) / 2.0;
  v->fitted = TRUE;
}

/* ---- drawing ------------------------------------------------------------- */

static void draw_into(TessPreviewView *v, cairo_t *cr, int width, int height) {
  cairo_set_source_rgb(cr, 0.13, 0.13, 0.15);
  cairo_paint(cr);
  if (!v->pl || !v->painter) return;
  if (!v->fitted) fit_view(v, width, height);
  TessRenderView view = {v->origin_x, v->origin_y, v->zoom, width, height};
  tess_preview_painter_draw(v->painter, cr, v->pl, &view, v->overlays);
}

static void canvas_draw(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user) {
  TessPreviewView *v = user;
  draw_into(v, cr, width, height);
  v->fps_frames++;
}

cairo_surface_t *tess_preview_view_render(TessPreviewView *v, int width, int height) {
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create(s);
  draw_into(v, cr, width, height);
  cairo_destroy(cr);
  return s;
}

static void canvas_resize(GtkDrawingArea *area, int width, int height, gpointer user) {
  TessPreviewView *v = user;
  if (!v->user_view) fit_view(v, width, height);
}

/* ---- controls ------------------------------------------------------------ */

static void update_stats(TessPreviewView *v) {
  if (!v->pl) {
    gtk_label_set_text(GTK_LABEL(v->stats_label), "");
    return;
  }
  TessPlaybackStats st;
  tess_playback_stats(playback(v), &st);
  g_autofree char *text = g_strdup_printf(
      _("Step %llu of %llu · %u bodies · %u awake · %u contacts · %.2f ms per step · %.0f frames per second · "
        "history %.0f s"),
      (unsigned long long)tess_playback_current_step(playback(v)),
      (unsigned long long)tess_playback_last_step(playback(v)), st.bodies, st.awake, st.contacts, st.step_ms,
      v->fps, st.history_seconds);
  gtk_label_set_text(GTK_LABEL(v->stats_label), text);
}

static void update_controls(TessPreviewView *v) {
  v->updating_controls = TRUE;
  TessPlayback *pb = playback(v);
  gboolean playing = pb && tess_playback_playing(pb);
  gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(v->play_button), playing);
  gtk_button_set_icon_name(GTK_BUTTON(v->play_button),
                           playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text(v->play_button, playing ? _("Pause (Space)") : _("Play (Space)"));
  if (pb) {
    GtkAdjustment *adj = gtk_range_get_adjustment(GTK_RANGE(v->timeline));
    double first = (double)tess_playback_first_step(pb), last = (double)tess_playback_last_step(pb);
    gtk_adjustment_configure(adj, tess_playback_time(pb), first, last > first ? last : first + 1, 1, 60, 0);
  }
  v->updating_controls = FALSE;
  gtk_widget_set_visible(v->stats_label, v->show_stats);
  update_stats(v);
}

static gboolean tick(GtkWidget *widget, GdkFrameClock *clock, gpointer user);

static void ensure_tick(TessPreviewView *v, gboolean on) {
  if (on && !v->tick_id) {
    v->last_frame_us = 0;
    v->tick_id = gtk_widget_add_tick_callback(v->canvas, tick, v, NULL);
  } else if (!on && v->tick_id) {
    gtk_widget_remove_tick_callback(v->canvas, v->tick_id);
    v->tick_id = 0;
  }
}

static void after_steps(TessPreviewView *v, double time_before) {
  TessPlayback *pb = playback(v);
  tess_preview_painter_collect_contacts(v->painter, v->pl);
  double dt = (tess_playback_time(pb) - time_before) / tess_playback_def(pb)->hz;
  tess_preview_painter_advance_animation(v->painter, dt);
}

static gboolean tick(GtkWidget *widget, GdkFrameClock *clock, gpointer user) {
  TessPreviewView *v = user;
  TessPlayback *pb = playback(v);
  if (!pb || !tess_playback_playing(pb)) {
    v->tick_id = 0;
    update_controls(v);
    return G_SOURCE_REMOVE;
  }
  gint64 now = gdk_frame_clock_get_frame_time(clock);
  if (v->last_frame_us) {
    double t0 = tess_playback_time(pb);
    TessError err;
    tess_playback_advance(pb, (double)(now - v->last_frame_us) / 1e6, &err);
    after_steps(v, t0);
  }
  v->last_frame_us = now;
  if (!v->fps_t0) v->fps_t0 = now;
  if (now - v->fps_t0 >= 500000) {
    v->fps = v->fps_frames * 1e6 / (double)(now - v->fps_t0);
    v->fps_frames = 0;
    v->fps_t0 = now;
  }
  gtk_widget_queue_draw(v->canvas);
  if (now - v->stats_t > 250000 || !tess_playback_playing(pb)) {
    v->stats_t = now;
    update_controls(v);
  }
  if (!tess_playback_playing(pb)) { /* reached the start playing backwards */
    v->tick_id = 0;
    update_controls(v);
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

void tess_preview_view_set_playing(TessPreviewView *v, gboolean playing) {
  TessPlayback *pb = playback(v);
  if (!pb) return;
  tess_playback_set_playing(pb, playing);
  ensure_tick(v, playing);
  update_controls(v);
}

gboolean tess_preview_view_get_playing(TessPreviewView *v) { return playback(v) && tess_playback_playing(playback(v)); }

void tess_preview_view_step(TessPreviewView *v) {
  TessPlayback *pb = playback(v);
  if (!pb) return;
  tess_preview_view_set_playing(v, FALSE);
  double t0 = tess_playback_time(pb);
  TessError err;
  if (tess_playback_step(pb, &err) == TESS_OK) after_steps(v, t0);
  update_controls(v);
  gtk_widget_queue_draw(v->canvas);
}

void tess_preview_view_reset(TessPreviewView *v) {
  TessPlayback *pb = playback(v);
  if (!pb) return;
  ensure_tick(v, FALSE);
  TessError err;
  tess_playback_reset(pb, &err);
  tess_preview_painter_clear_contacts(v->painter);
  update_controls(v);
  gtk_widget_queue_draw(v->canvas);
}

void tess_preview_view_set_speed(TessPreviewView *v, double speed) {
  if (playback(v)) tess_playback_set_speed(playback(v), speed);
  v->updating_controls = TRUE;
  gtk_range_set_value(GTK_RANGE(v->speed_scale), speed);
  v->updating_controls = FALSE;
}

void tess_preview_view_seek(TessPreviewView *v, guint64 step) {
  TessPlayback *pb = playback(v);
  if (!pb) return;
  TessError err;
  tess_playback_seek(pb, step, &err);
  tess_preview_painter_clear_contacts(v->painter);
  update_controls(v);
  gtk_widget_queue_draw(v->canvas);
}

void tess_preview_view_set_overlays(TessPreviewView *v, guint overlays) {
  v->overlays = overlays;
  gtk_widget_queue_draw(v->canvas);
}
guint tess_preview_view_get_overlays(TessPreviewView *v) { return v->overlays; }
void tess_preview_view_set_spawn_template(TessPreviewView *v, const TessObject *tmpl) {
  v->spawn_sprite = v->spawn_material = 0;
  v->spawn_radius_px = 0.0f;
  if (!tmpl || tmpl->kind != TESS_OBJECT_BODY) return;
  v->spawn_material = tmpl->u.body.material;
  if (tmpl->u.body.shape == TESS_BODY_SPRITE) v->spawn_sprite = tmpl->u.body.sprite;
  else if (tmpl->u.body.shape == TESS_BODY_CIRCLE) v->spawn_radius_px = tmpl->u.body.radius;
}

static void on_play_toggled(GtkToggleButton *b, TessPreviewView *v) {
  if (!v->updating_controls) tess_preview_view_set_playing(v, gtk_toggle_button_get_active(b));
}
static void on_step(GtkButton *b, TessPreviewView *v) { tess_preview_view_step(v); }
static void on_reset(GtkButton *b, TessPreviewView *v) { tess_preview_view_reset(v); }
static void on_speed(GtkRange *r, TessPreviewView *v) {
  if (!v->updating_controls && playback(v)) tess_playback_set_speed(playback(v), gtk_range_get_value(r));
}
static void on_timeline(GtkRange *r, TessPreviewView *v) {
  if (v->updating_controls || !playback(v)) return;
  tess_preview_view_seek(v, (guint64)llround(gtk_range_get_value(r)));
}
static void on_leave(GtkButton *b, TessPreviewView *v) { g_signal_emit(v, signals[SIGNAL_LEAVE_REQUESTED], 0); }

static void on_keep(GtkButton *b, TessPreviewView *v) {
  GError *error = NULL;
  if (!tess_preview_view_keep_positions(v, &error)) {
    gtk_label_set_text(GTK_LABEL(v->stats_label), error ? error->message : "");
    gtk_widget_set_visible(v->stats_label, TRUE);
    g_clear_error(&error);
    return;
  }
  g_signal_emit(v, signals[SIGNAL_LEAVE_REQUESTED], 0);
}

typedef struct OverlayToggle {
  TessPreviewView *view;
  guint bit;
} OverlayToggle;

static void on_overlay_toggled(GtkCheckButton *b, OverlayToggle *t) {
  TessPreviewView *v = t->view;
  if (t->bit == 0) {
    v->show_stats = gtk_check_button_get_active(b);
    update_controls(v);
    return;
  }
  if (gtk_check_button_get_active(b)) v->overlays |= t->bit;
  else v->overlays &= ~t->bit;
  gtk_widget_queue_draw(v->canvas);
}

/* ---- keys and pointer ------------------------------------------------------ */

static gboolean on_key(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state,
                       TessPreviewView *v) {
  if (!v->pl || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))) return FALSE;
  switch (keyval) {
    case GDK_KEY_space:
      tess_preview_view_set_playing(v, !tess_preview_view_get_playing(v));
      return TRUE;
    case GDK_KEY_period:
    case GDK_KEY_KP_Decimal:
      tess_preview_view_step(v);
      return TRUE;
    case GDK_KEY_r:
    case GDK_KEY_R:
      tess_preview_view_reset(v);
      return TRUE;
    case GDK_KEY_Escape:
      g_signal_emit(v, signals[SIGNAL_LEAVE_REQUESTED], 0);
      return TRUE;
    case GDK_KEY_Tab:
    case GDK_KEY_ISO_Left_Tab:
    case GDK_KEY_Left:
    case GDK_KEY_Right:
    case GDK_KEY_Up:
    case GDK_KEY_Down:
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
      return FALSE; /* focus moves and buttons work as usual */
    default:
      /* The painting tools are off while playing: their keys (B, E, Delete...)
       * must not edit the level hidden behind the preview. */
      return keyval < GDK_KEY_F1 || keyval > GDK_KEY_F35;
  }
}

void tess_preview_view_pointer_press(TessPreviewView *v, int button, double x, double y, GdkModifierType state) {
  if (!v->pl) return;
  gtk_widget_grab_focus(v->canvas);
  TessVec2 p = canvas_to_world(v, x, y);
  TessError err;
  if (button == GDK_BUTTON_SECONDARY) {
    /* Right-click removes a body dropped in the preview (the level's own stay). */
    TessBodyId b;
    if (tess_preview_level_pick(v->pl, p, FALSE, &b)) {
      int64_t i = tess_playback_body_index(playback(v), b);
      if (i >= 0 && tess_playback_body(playback(v), (uint32_t)i)->object == 0) {
        tess_playback_remove(playback(v), b, &err);
        gtk_widget_queue_draw(v->canvas);
        update_controls(v);
      }
    }
    return;
  }
  if (button != GDK_BUTTON_PRIMARY) return;
  v->pressed = TRUE;
  v->press_x = x;
  v->press_y = y;
  v->last_world = p;
  v->last_time_us = g_get_monotonic_time();
  v->pointer_velocity = tess_v2(0, 0);
  v->throwing = (state & GDK_SHIFT_MASK) != 0;
  TessBodyId b;
  v->dragging_body = tess_preview_level_pick(v->pl, p, TRUE, &b) &&
                     tess_playback_drag_begin(playback(v), b, p, &err) == TESS_OK;
  gtk_widget_queue_draw(v->canvas);
}

void tess_preview_view_pointer_motion(TessPreviewView *v, double x, double y, gint64 time_us) {
  if (!v->pl || !v->pressed) return;
  TessVec2 p = canvas_to_world(v, x, y);
  if (time_us <= 0) time_us = g_get_monotonic_time();
  double dt = (double)(time_us - v->last_time_us) / 1e6;
  if (dt > 1e-4) {
    TessVec2 vel = tess_v2_scale((float)(1.0 / dt), tess_v2_sub(p, v->last_world));
    /* Smoothed: the release velocity is the drag's, not one jittery sample. */
    v->pointer_velocity = tess_v2_lerp(v->pointer_velocity, vel, 0.5f);
    v->last_time_us = time_us;
    v->last_world = p;
  }
  if (v->dragging_body) {
    TessError err;
    tess_playback_drag_move(playback(v), p, &err);
    gtk_widget_queue_draw(v->canvas);
  }
}

void tess_preview_view_pointer_release(TessPreviewView *v, int button, double x, double y) {
  if (!v->pl || !v->pressed || button != GDK_BUTTON_PRIMARY) return;
  v->pressed = FALSE;
  TessError err;
  if (v->dragging_body) {
    tess_playback_drag_end(playback(v), v->throwing, v->pointer_velocity, &err);
    v->dragging_body = FALSE;
  } else if (hypot(x - v->press_x, y - v->press_y) <= CLICK_SLOP) {
    TessVec2 p = canvas_to_world(v, x, y);
    TessBodyId b;
    if (!tess_preview_level_pick(v->pl, p, FALSE, &b) && !tess_world_map_point_solid(tess_playback_world(playback(v)), p)) {
      TessResult r = TESS_ERR_NOT_FOUND;
      if (v->spawn_sprite)
        r = tess_preview_level_spawn_sprite(v->pl, v->spawn_sprite, p, tess_v2(0, 0), v->spawn_material, NULL, &err);
      if (r != TESS_OK)
        tess_preview_level_spawn_ball(v->pl, p, tess_v2(0, 0), (float)(v->spawn_radius_px / ppm(v)),
                                      v->spawn_material, NULL, &err);
    }
  }
  update_controls(v);
  gtk_widget_queue_draw(v->canvas);
}

static void on_drag_begin(GtkGestureDrag *g, double x, double y, TessPreviewView *v) {
  GdkModifierType state = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(g));
  tess_preview_view_pointer_press(v, GDK_BUTTON_PRIMARY, x, y, state);
}
static void on_drag_update(GtkGestureDrag *g, double dx, double dy, TessPreviewView *v) {
  double sx, sy;
  gtk_gesture_drag_get_start_point(g, &sx, &sy);
  guint32 t = gtk_event_controller_get_current_event_time(GTK_EVENT_CONTROLLER(g));
  tess_preview_view_pointer_motion(v, sx + dx, sy + dy, t ? (gint64)t * 1000 : 0);
}
static void on_drag_end(GtkGestureDrag *g, double dx, double dy, TessPreviewView *v) {
  double sx, sy;
  gtk_gesture_drag_get_start_point(g, &sx, &sy);
  tess_preview_view_pointer_release(v, GDK_BUTTON_PRIMARY, sx + dx, sy + dy);
}
static void on_secondary(GtkGestureClick *g, int n, double x, double y, TessPreviewView *v) {
  tess_preview_view_pointer_press(v, GDK_BUTTON_SECONDARY, x, y, 0);
}

static void on_motion(GtkEventControllerMotion *c, double x, double y, TessPreviewView *v) {
  v->pointer_x = x;
  v->pointer_y = y;
}

static gboolean on_scroll(GtkEventControllerScroll *c, double dx, double dy, TessPreviewView *v) {
  if (!v->pl || dy == 0.0) return FALSE;
  double z = CLAMP(v->zoom * (dy < 0 ? 1.25 : 0.8), 1.0 / 16.0, 16.0);
  /* The level point under the pointer stays there. */
  double lx = v->origin_x + v->pointer_x / v->zoom, ly = v->origin_y + v->pointer_y / v->zoom;
  set_zoom(v, z);
  v->origin_x = lx - v->pointer_x / z;
  v->origin_y = ly - v->pointer_y / z;
  v->fitted = v->user_view = TRUE;
  gtk_widget_queue_draw(v->canvas);
  return TRUE;
}

static void on_pan_begin(GtkGestureDrag *g, double x, double y, TessPreviewView *v) {
  v->pan_origin_x = v->origin_x;
  v->pan_origin_y = v->origin_y;
}

static void on_pan_update(GtkGestureDrag *g, double dx, double dy, TessPreviewView *v) {
  v->origin_x = v->pan_origin_x - dx / v->zoom;
  v->origin_y = v->pan_origin_y - dy / v->zoom;
  v->fitted = v->user_view = TRUE;
  gtk_widget_queue_draw(v->canvas);
}

/* ---- life cycle ------------------------------------------------------------ */

/* The project changed under the preview (an undo from the menu, say): the
 * world no longer matches the level, and the level itself may be gone. */
static void on_document_changed(TessDocument *doc, gpointer change, TessPreviewView *v) {
  if (v->keeping || !v->pl) return;
  tess_preview_view_stop(v);
  g_signal_emit(v, signals[SIGNAL_LEAVE_REQUESTED], 0);
}

gboolean tess_preview_view_start(TessPreviewView *v, TessDocument *doc, TessId level, GError **error) {
  tess_preview_view_stop(v);
  TessProject *p = doc ? tess_document_get_project(doc) : NULL;
  TessLevel *lv = p ? tess_project_level(p, level) : NULL;
  if (!lv) {
    g_set_error(error, TESS_DOCUMENT_ERROR, TESS_ERR_NOT_FOUND, _("There is no level to play."));
    return FALSE;
  }
  TessError err;
  tess_error_clear(&err);
  TessResult r = tess_preview_level_create(p, lv, 0, &v->pl, &err);
  if (r != TESS_OK) {
    tess_document_set_error_from_tess(error, r, &err);
    v->pl = NULL;
    return FALSE;
  }
  v->painter = tess_preview_painter_create(p);
  v->doc = g_object_ref(doc);
  v->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_document_changed), v);
  v->level = level;
  v->fitted = v->user_view = FALSE;
  int w = gtk_widget_get_width(v->canvas), h = gtk_widget_get_height(v->canvas);
  if (w > 0 && h > 0) fit_view(v, w, h);
  tess_preview_view_set_speed(v, 1.0);
  update_controls(v);
  gtk_widget_queue_draw(v->canvas);
  return TRUE;
}

void tess_preview_view_stop(TessPreviewView *v) {
  ensure_tick(v, FALSE);
  tess_preview_painter_destroy(v->painter);
  v->painter = NULL;
  tess_preview_level_destroy(v->pl);
  v->pl = NULL;
  if (v->doc && v->changed_handler) g_signal_handler_disconnect(v->doc, v->changed_handler);
  v->changed_handler = 0;
  g_clear_object(&v->doc);
  v->pressed = v->dragging_body = FALSE;
  if (v->stats_label) update_controls(v);
}

gboolean tess_preview_view_is_running(TessPreviewView *v) { return v->pl != NULL; }
TessPreviewLevel *tess_preview_view_get_preview_level(TessPreviewView *v) { return v->pl; }
gboolean tess_preview_view_has_tick_callback(TessPreviewView *v) { return v->tick_id != 0; }
GtkWidget *tess_preview_view_get_speed_scale(TessPreviewView *v) { return v->speed_scale; }

GtkWidget *tess_preview_view_get_canvas(TessPreviewView *v) { return v->canvas; }

gboolean tess_preview_view_keep_positions(TessPreviewView *v, GError **error) {
  if (!v->pl || !v->doc) return TRUE;
  TessProject *p = tess_document_get_project(v->doc);
  TessError err;
  tess_error_clear(&err);
  uint32_t changed = 0;
  v->keeping = TRUE;
  TessResult r = tess_preview_level_keep_positions(v->pl, p, &changed, &err);
  gboolean ok = r == TESS_OK;
  if (!ok) tess_document_set_error_from_tess(error, r, &err);
  else if (changed) ok = tess_document_commit(v->doc, error);
  v->keeping = FALSE;
  return ok;
}

static GtkWidget *icon_button(const char *icon, const char *tooltip) {
  GtkWidget *b = gtk_button_new_from_icon_name(icon);
  gtk_widget_set_tooltip_text(b, tooltip);
  gtk_widget_set_focus_on_click(b, FALSE);
  return b;
}

static void build_overlay_popover(TessPreviewView *v) {
  static const struct {
    guint bit;
    const char *label;
  } items[] = {
      {TESS_PREVIEW_OVERLAY_CONTACTS, N_("Contact points and normals")},
      {TESS_PREVIEW_OVERLAY_VELOCITIES, N_("Velocities")},
      {TESS_PREVIEW_OVERLAY_AABBS, N_("Bounding boxes")},
      {TESS_PREVIEW_OVERLAY_CENTERS, N_("Centres of mass")},
      {TESS_PREVIEW_OVERLAY_SLEEPING, N_("Tint sleeping bodies")},
      {TESS_PREVIEW_OVERLAY_SENSORS, N_("Outline sensors")},
      {TESS_PREVIEW_OVERLAY_ZONES, N_("Zones and fluids")},
      {TESS_PREVIEW_OVERLAY_PINS, N_("Pins and joints")},
      {0, N_("Statistics")},
  };
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
  for (guint i = 0; i < G_N_ELEMENTS(items); i++) {
    GtkWidget *c = gtk_check_button_new_with_label(_(items[i].label));
    gboolean on = items[i].bit ? (v->overlays & items[i].bit) != 0 : v->show_stats;
    gtk_check_button_set_active(GTK_CHECK_BUTTON(c), on);
    OverlayToggle *t = g_new0(OverlayToggle, 1);
    t->view = v;
    t->bit = items[i].bit;
    g_signal_connect_data(c, "toggled", G_CALLBACK(on_overlay_toggled), t, (GClosureNotify)(void (*)(void))g_free, 0);
    gtk_box_append(GTK_BOX(box), c);
  }
  GtkWidget *pop = gtk_popover_new();
  gtk_popover_set_child(GTK_POPOVER(pop), box);
  gtk_menu_button_set_popover(GTK_MENU_BUTTON(v->overlay_button), pop);
}

static void tess_preview_view_init(TessPreviewView *v) {
  GtkWidget *w = GTK_WIDGET(v);
  gtk_orientable_set_orientation(GTK_ORIENTABLE(gtk_widget_get_layout_manager(w)), GTK_ORIENTATION_VERTICAL);
  v->zoom = 1.0;
  v->overlays = TESS_PREVIEW_OVERLAY_PINS | TESS_PREVIEW_OVERLAY_ZONES;
  v->show_stats = TRUE;

  v->toolbar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class(v->toolbar, "toolbar");
  gtk_widget_set_parent(v->toolbar, w);

  v->play_button = gtk_toggle_button_new();
  gtk_button_set_icon_name(GTK_BUTTON(v->play_button), "media-playback-start-symbolic");
  gtk_widget_set_focus_on_click(v->play_button, FALSE);
  g_signal_connect(v->play_button, "toggled", G_CALLBACK(on_play_toggled), v);
  v->step_button = icon_button("media-seek-forward-symbolic", _("Step one physics step (.)"));
  g_signal_connect(v->step_button, "clicked", G_CALLBACK(on_step), v);
  v->reset_button = icon_button("media-skip-backward-symbolic", _("Reset to the level as edited (R)"));
  g_signal_connect(v->reset_button, "clicked", G_CALLBACK(on_reset), v);
  GtkWidget *group = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class(group, "linked");
  gtk_box_append(GTK_BOX(group), v->play_button);
  gtk_box_append(GTK_BOX(group), v->step_button);
  gtk_box_append(GTK_BOX(group), v->reset_button);
  gtk_box_append(GTK_BOX(v->toolbar), group);

  /* Compact controls: Play mode must fit between the side panels of a
   * 1200 px window (the tooltips name what the icons do). */
  v->speed_scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, -2.0, 2.0, 0.25);
  gtk_range_set_value(GTK_RANGE(v->speed_scale), 1.0);
  gtk_scale_set_draw_value(GTK_SCALE(v->speed_scale), TRUE);
  gtk_scale_set_digits(GTK_SCALE(v->speed_scale), 2);
  gtk_scale_set_value_pos(GTK_SCALE(v->speed_scale), GTK_POS_RIGHT);
  for (int m = -2; m <= 2; m++) gtk_scale_add_mark(GTK_SCALE(v->speed_scale), m, GTK_POS_BOTTOM, NULL);
  /* -2..+2 in steps of 0.25 needs room: at 96 px (value label included) a
   * step was 2-3 px of trough and drags landed on 0.00. 220 px gives the
   * trough about 10 px a step. */
  gtk_widget_set_size_request(v->speed_scale, 220, -1);
  gtk_widget_set_tooltip_text(v->speed_scale, _("Speed: below zero plays the recording backwards"));
  g_signal_connect(v->speed_scale, "value-changed", G_CALLBACK(on_speed), v);
  gtk_box_append(GTK_BOX(v->toolbar), v->speed_scale);

  v->timeline = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0.0, 1.0, 1.0);
  gtk_scale_set_draw_value(GTK_SCALE(v->timeline), FALSE);
  gtk_widget_set_hexpand(v->timeline, TRUE);
  gtk_widget_set_tooltip_text(v->timeline, _("Timeline: drag to any recorded moment"));
  gtk_widget_set_margin_start(v->timeline, 6);
  gtk_widget_set_margin_end(v->timeline, 6);
  g_signal_connect(v->timeline, "value-changed", G_CALLBACK(on_timeline), v);
  GtkWidget *spacer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand(spacer, TRUE);
  gtk_box_append(GTK_BOX(v->toolbar), spacer);

  v->overlay_button = gtk_menu_button_new();
  gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(v->overlay_button), "view-reveal-symbolic");
  gtk_widget_set_tooltip_text(v->overlay_button, _("Overlays"));
  gtk_box_append(GTK_BOX(v->toolbar), v->overlay_button);
  build_overlay_popover(v);

  v->keep_button = gtk_button_new_from_icon_name("document-save-symbolic");
  gtk_widget_set_tooltip_text(v->keep_button, _("Keep Positions: move the level's bodies to where they are now (one undoable edit)"));
  g_signal_connect(v->keep_button, "clicked", G_CALLBACK(on_keep), v);
  gtk_box_append(GTK_BOX(v->toolbar), v->keep_button);
  v->leave_button = gtk_button_new_from_icon_name("document-edit-symbolic");
  gtk_widget_set_tooltip_text(v->leave_button, _("Back to Editing: leave Play mode; the level stays as edited (Escape)"));
  gtk_widget_add_css_class(v->leave_button, "suggested-action");
  g_signal_connect(v->leave_button, "clicked", G_CALLBACK(on_leave), v);
  gtk_box_append(GTK_BOX(v->toolbar), v->leave_button);

  gtk_widget_set_parent(v->timeline, w); /* its own row: the whole width for scrubbing */

  v->canvas = gtk_drawing_area_new();
  gtk_widget_set_hexpand(v->canvas, TRUE);
  gtk_widget_set_vexpand(v->canvas, TRUE);
  gtk_widget_set_focusable(v->canvas, TRUE);
  gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(v->canvas), canvas_draw, v, NULL);
  g_signal_connect(v->canvas, "resize", G_CALLBACK(canvas_resize), v);
  gtk_widget_set_parent(v->canvas, w);

  GtkGesture *drag = gtk_gesture_drag_new();
  gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), GDK_BUTTON_PRIMARY);
  g_signal_connect(drag, "drag-begin", G_CALLBACK(on_drag_begin), v);
  g_signal_connect(drag, "drag-update", G_CALLBACK(on_drag_update), v);
  g_signal_connect(drag, "drag-end", G_CALLBACK(on_drag_end), v);
  gtk_widget_add_controller(v->canvas, GTK_EVENT_CONTROLLER(drag));
  GtkGesture *right = gtk_gesture_click_new();
  gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(right), GDK_BUTTON_SECONDARY);
  g_signal_connect(right, "pressed", G_CALLBACK(on_secondary), v);
  gtk_widget_add_controller(v->canvas, GTK_EVENT_CONTROLLER(right));

  GtkGesture *pan = gtk_gesture_drag_new();
  gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(pan), GDK_BUTTON_MIDDLE);
  g_signal_connect(pan, "drag-begin", G_CALLBACK(on_pan_begin), v);
  g_signal_connect(pan, "drag-update", G_CALLBACK(on_pan_update), v);
  gtk_widget_add_controller(v->canvas, GTK_EVENT_CONTROLLER(pan));
  GtkEventController *motion = gtk_event_controller_motion_new();
  g_signal_connect(motion, "motion", G_CALLBACK(on_motion), v);
  gtk_widget_add_controller(v->canvas, motion);
  GtkEventController *scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect(scroll, "scroll", G_CALLBACK(on_scroll), v);
  gtk_widget_add_controller(v->canvas, scroll);

  GtkEventController *keys = gtk_event_controller_key_new();
  g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), v);
  gtk_widget_add_controller(w, keys);

  v->stats_label = gtk_label_new("");
  gtk_label_set_xalign(GTK_LABEL(v->stats_label), 0.0f);
  gtk_label_set_ellipsize(GTK_LABEL(v->stats_label), PANGO_ELLIPSIZE_END); /* never widens the window */
  gtk_widget_add_css_class(v->stats_label, "dim-label");
  gtk_widget_set_margin_start(v->stats_label, 6);
  gtk_widget_set_parent(v->stats_label, w);
  update_controls(v);
}

static void tess_preview_view_dispose(GObject *object) {
  TessPreviewView *v = TESS_PREVIEW_VIEW(object);
  tess_preview_view_stop(v);
  g_clear_handle_id(&v->zoom_notify, g_source_remove);
  g_clear_pointer(&v->toolbar, gtk_widget_unparent);
  g_clear_pointer(&v->timeline, gtk_widget_unparent);
  g_clear_pointer(&v->canvas, gtk_widget_unparent);
  g_clear_pointer(&v->stats_label, gtk_widget_unparent);
  G_OBJECT_CLASS(tess_preview_view_parent_class)->dispose(object);
}

static void tess_preview_view_class_init(TessPreviewViewClass *klass) {
  GObjectClass *oc = G_OBJECT_CLASS(klass);
  GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
  oc->dispose = tess_preview_view_dispose;
  gtk_widget_class_set_layout_manager_type(wc, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name(wc, "tess-preview");
  /* The window leaves Play mode when asked (Escape, Back to Editing, Keep Positions). */
  signals[SIGNAL_LEAVE_REQUESTED] =
      g_signal_new("leave-requested", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The zoom changed (the wheel, a fit): tess_preview_view_get_zoom says to what. */
  signals[SIGNAL_ZOOM_CHANGED] =
      g_signal_new("zoom-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

GtkWidget *tess_preview_view_new(void) { return g_object_new(TESS_TYPE_PREVIEW_VIEW, NULL); }
