/* The editor's Play mode: see tess-preview-view.h. The simulation and its
 * recording live in TessPlayback (plain C); this widget feeds it frame-clock
 * time, turns pointer input into drags / spawns / removals, and draws
 * through TessPreviewPainter. */
#include "tess-preview-view.h"

#include <glib/gi18n.h>

#include "tess-preview-aim.h"
#include "tess-resources.h"
#include "tess-ui.h"

#include "tessera/render.h"

#define CLICK_SLOP 4.0 /* px a press may move and still be a click */

struct _TessPreviewView {
  GtkWidget parent_instance;

  /* template widgets (tess-preview-view.ui); the toolbar is bound so that
   * gtk_widget_dispose_template unparents it with the other rows */
  GtkWidget *toolbar, *canvas, *stats_label, *speed_scale, *timeline;

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
  gboolean user_view;                /* zoomed or panned by hand: a resize keeps it */
  guint overlays;                    /* property "overlays" */
  gboolean show_stats;               /* property "show-stats" */
  double speed;                      /* property "speed" */
  gboolean shown_playing, shown_aim; /* what "playing" and "aiming" last said */
  TessId spawn_sprite, spawn_material;
  float spawn_radius_px; /* 0 = half a cell */
  gboolean updating_timeline;

  /* pointer */
  gboolean pressed, dragging_body, throwing;
  double press_x, press_y;
  TessVec2 last_world;
  gint64 last_time_us;
  TessVec2 pointer_velocity;
  TessPreviewAim aim; /* a drag from a launcher */

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

/* The state the template's controls follow (tess-preview-view.ui): the play
 * button and its icon "playing", the speed slider "speed", the overlay
 * check buttons "overlays", the statistics line "show-stats" and "aiming". */
enum { PROP_0,
       PROP_PLAYING,
       PROP_SPEED,
       PROP_OVERLAYS,
       PROP_SHOW_STATS,
       PROP_AIMING,
       N_PROPS };
static GParamSpec *props[N_PROPS];

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
  tess_render_launchers(cr, &view, v->pl->scene);
  tess_preview_aim_draw(&v->aim, v->pl, cr, &view);
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

static void on_canvas_resize(GtkDrawingArea *area, int width, int height, TessPreviewView *v) {
  if (!v->user_view) fit_view(v, width, height);
}

/* ---- controls ------------------------------------------------------------ */

static void update_stats(TessPreviewView *v) {
  if (!v->pl) {
    gtk_label_set_text(GTK_LABEL(v->stats_label), "");
    return;
  }
  g_autofree char *aiming = tess_preview_aim_describe(&v->aim, v->pl);
  if (aiming) { /* while aiming, the line says what a release does */
    gtk_label_set_text(GTK_LABEL(v->stats_label), aiming);
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

/* The playback and the aim are plain C (core/play, tess-preview-aim.c): their
 * changes become notifications of "playing" and "aiming" here, which the
 * template's bindings follow. The timeline's range grows with the recording. */
static void update_controls(TessPreviewView *v) {
  TessPlayback *pb = playback(v);
  gboolean playing = pb && tess_playback_playing(pb);
  if (playing != v->shown_playing) {
    v->shown_playing = playing;
    g_object_notify_by_pspec(G_OBJECT(v), props[PROP_PLAYING]);
  }
  if (v->aim.active != v->shown_aim) {
    v->shown_aim = v->aim.active;
    g_object_notify_by_pspec(G_OBJECT(v), props[PROP_AIMING]);
  }
  if (pb) {
    v->updating_timeline = TRUE;
    GtkAdjustment *adj = gtk_range_get_adjustment(GTK_RANGE(v->timeline));
    double first = (double)tess_playback_first_step(pb), last = (double)tess_playback_last_step(pb);
    gtk_adjustment_configure(adj, tess_playback_time(pb), first, last > first ? last : first + 1, 1, 60, 0);
    v->updating_timeline = FALSE;
  }
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
  if (speed == v->speed) return;
  v->speed = speed;
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_SPEED]);
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
  if (overlays == v->overlays) return;
  v->overlays = overlays;
  gtk_widget_queue_draw(v->canvas);
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_OVERLAYS]);
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

/* ---- the template's handlers and closures ------------------------------------ */

static char *play_icon(gpointer unused, gboolean playing) {
  return g_strdup(playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic");
}
static char *play_tooltip(gpointer unused, gboolean playing) {
  return g_strdup(playing ? _("Pause (Space)") : _("Play (Space)"));
}
static gboolean either(gpointer unused, gboolean a, gboolean b) { return a || b; }

/* The overlay check buttons are named after their bits. */
static const struct {
  const char *name;
  guint bit;
} OVERLAY_NAMES[] = {
    {"contacts", TESS_PREVIEW_OVERLAY_CONTACTS},
    {"velocities", TESS_PREVIEW_OVERLAY_VELOCITIES},
    {"aabbs", TESS_PREVIEW_OVERLAY_AABBS},
    {"centers", TESS_PREVIEW_OVERLAY_CENTERS},
    {"sleeping", TESS_PREVIEW_OVERLAY_SLEEPING},
    {"sensors", TESS_PREVIEW_OVERLAY_SENSORS},
    {"zones", TESS_PREVIEW_OVERLAY_ZONES},
    {"pins", TESS_PREVIEW_OVERLAY_PINS},
};

static guint overlay_bit(const char *name) {
  for (guint i = 0; i < G_N_ELEMENTS(OVERLAY_NAMES); i++)
    if (g_strcmp0(name, OVERLAY_NAMES[i].name) == 0) return OVERLAY_NAMES[i].bit;
  g_critical("no preview overlay is named '%s'", name);
  return 0;
}

static gboolean overlay_shown(gpointer unused, guint overlays, const char *name) {
  return (overlays & overlay_bit(name)) != 0;
}

static void on_overlay_toggled(GtkCheckButton *b, TessPreviewView *v) {
  guint bit = overlay_bit(gtk_widget_get_name(GTK_WIDGET(b)));
  tess_preview_view_set_overlays(v, gtk_check_button_get_active(b) ? v->overlays | bit : v->overlays & ~bit);
}

static void on_step(GtkButton *b, TessPreviewView *v) { tess_preview_view_step(v); }
static void on_reset(GtkButton *b, TessPreviewView *v) { tess_preview_view_reset(v); }
static void on_timeline(GtkRange *r, TessPreviewView *v) {
  if (v->updating_timeline || !playback(v)) return;
  tess_preview_view_seek(v, (guint64)llround(gtk_range_get_value(r)));
}
static void on_leave(GtkButton *b, TessPreviewView *v) { g_signal_emit(v, signals[SIGNAL_LEAVE_REQUESTED], 0); }

/* A refused Keep Positions takes the window's one path for errors (its
 * message bar), and Play mode stays. */
static void on_keep(GtkButton *b, TessPreviewView *v) {
  GError *error = NULL;
  if (!tess_preview_view_keep_positions(v, &error)) {
    if (error) tess_ui_report(GTK_WIDGET(v), error->message);
    g_clear_error(&error);
    return;
  }
  g_signal_emit(v, signals[SIGNAL_LEAVE_REQUESTED], 0);
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
  /* A press on a launcher aims it (16 device pixels around its marker). */
  if (tess_preview_aim_begin(&v->aim, v->pl, p, (float)(16.0 / v->zoom / ppm(v)))) {
    tess_preview_aim_move(&v->aim, v->pl, p, v->throwing);
    v->dragging_body = FALSE;
    update_controls(v);
    gtk_widget_queue_draw(v->canvas);
    return;
  }
  TessBodyId b;
  v->dragging_body = tess_preview_level_pick(v->pl, p, TRUE, &b) &&
                     tess_playback_drag_begin(playback(v), b, p, &err) == TESS_OK;
  gtk_widget_queue_draw(v->canvas);
}

void tess_preview_view_pointer_motion(TessPreviewView *v, double x, double y, gint64 time_us) {
  if (!v->pl || !v->pressed) return;
  TessVec2 p = canvas_to_world(v, x, y);
  if (v->aim.active) {
    GdkModifierType state = 0;
    GdkDisplay *display = gtk_widget_get_display(v->canvas);
    GdkSeat *seat = display ? gdk_display_get_default_seat(display) : NULL;
    GdkDevice *kbd = seat ? gdk_seat_get_keyboard(seat) : NULL;
    if (kbd) state = gdk_device_get_modifier_state(kbd);
    tess_preview_aim_move(&v->aim, v->pl, p, v->throwing || (state & GDK_SHIFT_MASK) != 0);
    update_stats(v);
    gtk_widget_queue_draw(v->canvas);
    return;
  }
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
  if (v->aim.active) {
    GError *error = NULL;
    tess_preview_aim_move(&v->aim, v->pl, canvas_to_world(v, x, y), v->aim.chosen == 1);
    if (!tess_preview_aim_fire(&v->aim, v->pl, NULL, &error) && error) {
      gtk_label_set_text(GTK_LABEL(v->stats_label), error->message);
      g_clear_error(&error);
    }
    if (!tess_playback_playing(playback(v))) tess_preview_view_set_playing(v, TRUE); /* see it fly */
  } else if (v->dragging_body) {
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
  memset(&v->aim, 0, sizeof v->aim);
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

/* ---- properties and life cycle ---------------------------------------------------- */

static void tess_preview_view_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  TessPreviewView *v = TESS_PREVIEW_VIEW(object);
  switch (id) {
    case PROP_PLAYING: g_value_set_boolean(value, tess_preview_view_get_playing(v)); break;
    case PROP_SPEED: g_value_set_double(value, v->speed); break;
    case PROP_OVERLAYS: g_value_set_uint(value, v->overlays); break;
    case PROP_SHOW_STATS: g_value_set_boolean(value, v->show_stats); break;
    case PROP_AIMING: g_value_set_boolean(value, v->aim.active); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_preview_view_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  TessPreviewView *v = TESS_PREVIEW_VIEW(object);
  switch (id) {
    case PROP_PLAYING: tess_preview_view_set_playing(v, g_value_get_boolean(value)); break;
    case PROP_SPEED: tess_preview_view_set_speed(v, g_value_get_double(value)); break;
    case PROP_OVERLAYS: tess_preview_view_set_overlays(v, g_value_get_uint(value)); break;
    case PROP_SHOW_STATS:
      if (v->show_stats == g_value_get_boolean(value)) break;
      v->show_stats = g_value_get_boolean(value);
      g_object_notify_by_pspec(object, pspec);
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_preview_view_init(TessPreviewView *v) {
  v->zoom = 1.0;
  v->speed = 1.0;
  /* Before the template: its bindings start from these. */
  v->overlays = TESS_PREVIEW_OVERLAY_PINS | TESS_PREVIEW_OVERLAY_ZONES;
  v->show_stats = TRUE;
  gtk_widget_init_template(GTK_WIDGET(v));
  gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(v->canvas), canvas_draw, v, NULL);
  update_controls(v);
}

static void tess_preview_view_dispose(GObject *object) {
  TessPreviewView *v = TESS_PREVIEW_VIEW(object);
  tess_preview_view_stop(v);
  g_clear_handle_id(&v->zoom_notify, g_source_remove);
  gtk_widget_dispose_template(GTK_WIDGET(v), TESS_TYPE_PREVIEW_VIEW);
  G_OBJECT_CLASS(tess_preview_view_parent_class)->dispose(object);
}

static void tess_preview_view_class_init(TessPreviewViewClass *klass) {
  GObjectClass *oc = G_OBJECT_CLASS(klass);
  GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
  oc->dispose = tess_preview_view_dispose;
  oc->get_property = tess_preview_view_get_property;
  oc->set_property = tess_preview_view_set_property;
  gtk_widget_class_set_css_name(wc, "tess-preview");

  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  props[PROP_PLAYING] = g_param_spec_boolean("playing", NULL, NULL, FALSE, rw);
  props[PROP_SPEED] = g_param_spec_double("speed", NULL, NULL, -2.0, 2.0, 1.0, rw);
  props[PROP_OVERLAYS] = g_param_spec_uint("overlays", NULL, NULL, 0, G_MAXUINT, 0, rw);
  props[PROP_SHOW_STATS] = g_param_spec_boolean("show-stats", NULL, NULL, TRUE, rw);
  /* A launcher is being aimed: the statistics line says what a release does. */
  props[PROP_AIMING] =
      g_param_spec_boolean("aiming", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(oc, N_PROPS, props);

  /* The window leaves Play mode when asked (Escape, Back to Editing, Keep Positions). */
  signals[SIGNAL_LEAVE_REQUESTED] =
      g_signal_new("leave-requested", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The zoom changed (the wheel, a fit): tess_preview_view_get_zoom says to what. */
  signals[SIGNAL_ZOOM_CHANGED] =
      g_signal_new("zoom-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /* Referencing the bundle keeps it linked from the static library (its
   * constructor registers it), also where this widget is used alone. */
  (void)tess_get_resource();
  gtk_widget_class_set_template_from_resource(wc, "/org/tessera/Editor/tess-preview-view.ui");
  gtk_widget_class_bind_template_child(wc, TessPreviewView, toolbar);
  gtk_widget_class_bind_template_child(wc, TessPreviewView, canvas);
  gtk_widget_class_bind_template_child(wc, TessPreviewView, stats_label);
  gtk_widget_class_bind_template_child(wc, TessPreviewView, speed_scale);
  gtk_widget_class_bind_template_child(wc, TessPreviewView, timeline);
  gtk_widget_class_bind_template_callback(wc, play_icon);
  gtk_widget_class_bind_template_callback(wc, play_tooltip);
  gtk_widget_class_bind_template_callback(wc, either);
  gtk_widget_class_bind_template_callback(wc, overlay_shown);
  gtk_widget_class_bind_template_callback(wc, on_overlay_toggled);
  gtk_widget_class_bind_template_callback(wc, on_step);
  gtk_widget_class_bind_template_callback(wc, on_reset);
  gtk_widget_class_bind_template_callback(wc, on_timeline);
  gtk_widget_class_bind_template_callback(wc, on_keep);
  gtk_widget_class_bind_template_callback(wc, on_leave);
  gtk_widget_class_bind_template_callback(wc, on_key);
  gtk_widget_class_bind_template_callback(wc, on_canvas_resize);
  gtk_widget_class_bind_template_callback(wc, on_drag_begin);
  gtk_widget_class_bind_template_callback(wc, on_drag_update);
  gtk_widget_class_bind_template_callback(wc, on_drag_end);
  gtk_widget_class_bind_template_callback(wc, on_secondary);
  gtk_widget_class_bind_template_callback(wc, on_pan_begin);
  gtk_widget_class_bind_template_callback(wc, on_pan_update);
  gtk_widget_class_bind_template_callback(wc, on_motion);
  gtk_widget_class_bind_template_callback(wc, on_scroll);
}

GtkWidget *tess_preview_view_new(void) { return g_object_new(TESS_TYPE_PREVIEW_VIEW, NULL); }
