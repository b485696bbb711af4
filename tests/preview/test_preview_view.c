/* Play mode in the real editor window (Xvfb): F5 swaps the map view for the
 * preview, which starts playing, and Escape leaves; playing runs on the frame clock and pausing
 * removes the tick callback; leaving writes nothing to the project file;
 * Keep Positions is one undo step; a synthetic pointer drag pulls a body
 * towards the pointer; clicking empty space drops a ball, right-click
 * removes it. */
#include <gio/gio.h>
#include <math.h>
#include <glib/gstdio.h>
#include <string.h>

#include "editor_fixture.h"
#include "tess-map-view.h"
#include "tess-preview-mode.h"
#include "tess-preview-view.h"

/* Everything a write could change: the file's bytes and its WAL's. */
typedef struct FileState {
  guint64 main_hash, wal_hash;
  goffset main_size, wal_size;
} FileState;

static guint64 file_hash(const char *path, goffset *size) {
  gchar *bytes = NULL;
  gsize n = 0;
  *size = -1;
  if (!g_file_get_contents(path, &bytes, &n, NULL)) return 0;
  *size = (goffset)n;
  guint64 h = tess_hash_bytes(bytes, n);
  g_free(bytes);
  return h;
}

static FileState file_state(const char *path) {
  FileState s;
  s.main_hash = file_hash(path, &s.main_size);
  g_autofree char *wal = g_strconcat(path, "-wal", NULL);
  s.wal_hash = file_hash(wal, &s.wal_size);
  return s;
}

static gboolean same_state(FileState a, FileState b) {
  return a.main_hash == b.main_hash && a.main_size == b.main_size && a.wal_hash == b.wal_hash && a.wal_size == b.wal_size;
}

static TessPreviewView *preview_of(TessWindow *w) { return TESS_PREVIEW_VIEW(tess_preview_mode_get_view(GTK_WINDOW(w))); }

static void activate(TessWindow *w, const char *action) {
  g_action_group_activate_action(G_ACTION_GROUP(w), action, NULL);
  fixture_spin();
}

static gboolean play_state(TessWindow *w) {
  GVariant *s = g_action_group_get_action_state(G_ACTION_GROUP(w), "play");
  gboolean on = s && g_variant_get_boolean(s);
  if (s) g_variant_unref(s);
  return on;
}

static void send_key(GtkWidget *target, guint keyval) {
  /* The preview's key controller is on the preview widget: call it as GTK would. */
  GListModel *controllers = gtk_widget_observe_controllers(target);
  for (guint i = 0; i < g_list_model_get_n_items(controllers); i++) {
    GtkEventController *c = g_list_model_get_item(controllers, i);
    if (GTK_IS_EVENT_CONTROLLER_KEY(c)) {
      gboolean handled = FALSE;
      g_signal_emit_by_name(c, "key-pressed", keyval, 0, (GdkModifierType)0, &handled);
    }
    g_object_unref(c);
  }
  g_object_unref(controllers);
  fixture_spin();
}

static int64_t body_named(TessPreviewLevel *pl, const char *name) {
  for (uint32_t i = 0; i < tess_playback_body_count(pl->playback); i++) {
    const TessPlaybackBody *b = tess_playback_body(pl->playback, i);
    const TessObject *o = b->object ? tess_level_object(pl->level, b->object, NULL) : NULL;
    if (o && strcmp(o->name, name) == 0) return i;
  }
  return -1;
}

/* Frames under Xvfb: the frame clock drives the steps. */
static void wait_for_steps(TessPreviewLevel *pl, uint64_t steps) {
  gint64 until = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;
  while (tess_playback_current_step(pl->playback) < steps && g_get_monotonic_time() < until)
    g_main_context_iteration(NULL, TRUE);
  CHECK_MSG(tess_playback_current_step(pl->playback) >= steps, "only %llu of %llu steps in 5 s",
            (unsigned long long)tess_playback_current_step(pl->playback), (unsigned long long)steps);
}

static void play_mode_leaves_the_project_unchanged(void) {
  char *path = fixture_copy_demo("play.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  uint64_t project_hash = tess_project_hash(p);
  uint64_t level_hash[8];
  for (uint32_t i = 0; i < p->level_count && i < 8; i++) level_hash[i] = tess_level_content_hash(p, p->levels[i]);
  fixture_spin();
  FileState before = file_state(path);
  GStatBuf st0;
  CHECK(g_stat(path, &st0) == 0);

  activate(w, "play"); /* what F5 and the Play button do */
  CHECK(play_state(w));
  TessPreviewView *pv = preview_of(w);
  CHECK(tess_preview_view_is_running(pv));
  CHECK(gtk_widget_get_mapped(GTK_WIDGET(pv)));
  TessPreviewLevel *pl = tess_preview_view_get_preview_level(pv);
  /* Entering Play plays: the frame clock drives the steps under Xvfb. */
  CHECK(tess_preview_view_get_playing(pv));
  CHECK(tess_preview_view_has_tick_callback(pv));
  wait_for_steps(pl, 30);
  send_key(GTK_WIDGET(pv), GDK_KEY_space); /* Space pauses: no tick callback, the CPU is idle */
  CHECK(!tess_preview_view_get_playing(pv));
  CHECK(!tess_preview_view_has_tick_callback(pv));
  uint64_t paused_at = tess_playback_current_step(pl->playback);
  for (int i = 0; i < 20; i++) g_main_context_iteration(NULL, FALSE);
  CHECK(tess_playback_current_step(pl->playback) == paused_at); /* nothing runs while paused */
  send_key(GTK_WIDGET(pv), GDK_KEY_space);                      /* Space plays again, from where it paused */
  CHECK(tess_preview_view_get_playing(pv));
  CHECK(tess_preview_view_has_tick_callback(pv));
  wait_for_steps(pl, paused_at + 30);
  send_key(GTK_WIDGET(pv), GDK_KEY_space); /* and pauses */
  CHECK(!tess_preview_view_get_playing(pv));
  CHECK(!tess_preview_view_has_tick_callback(pv));
  paused_at = tess_playback_current_step(pl->playback);
  for (int i = 0; i < 20; i++) g_main_context_iteration(NULL, FALSE);
  CHECK(tess_playback_current_step(pl->playback) == paused_at);
  send_key(GTK_WIDGET(pv), GDK_KEY_period); /* period steps once */
  CHECK(tess_playback_current_step(pl->playback) == paused_at + 1);
  /* Drop a ball in empty sky (top middle), then remove it with a right-click. */
  uint32_t bodies = tess_playback_body_count(pl->playback);
  double x, y;
  tess_preview_view_world_to_canvas(pv, tess_v2(pl->scene->cell_w * 30.0f, pl->scene->cell_h * 3.0f), &x, &y);
  tess_preview_view_pointer_press(pv, GDK_BUTTON_PRIMARY, x, y, 0);
  tess_preview_view_pointer_release(pv, GDK_BUTTON_PRIMARY, x, y);
  CHECK(tess_playback_body_count(pl->playback) == bodies + 1);
  const TessPlaybackBody *ball = tess_playback_body(pl->playback, bodies);
  CHECK(ball && ball->object == 0);
  TessBodyId ball_id = ball->id;
  CHECK(tess_body_is_valid(tess_playback_world(pl->playback), ball_id));
  tess_preview_view_pointer_press(pv, GDK_BUTTON_SECONDARY, x, y, 0);
  CHECK(!tess_body_is_valid(tess_playback_world(pl->playback), ball_id));
  /* Right-click on a level body does nothing: only dropped bodies go. */
  int64_t crate = body_named(pl, "Crate 1-1");
  CHECK(crate >= 0);
  TessVec2 cc = tess_body_world_center(tess_playback_world(pl->playback), tess_playback_body(pl->playback, (uint32_t)crate)->id);
  tess_preview_view_world_to_canvas(pv, cc, &x, &y);
  tess_preview_view_pointer_press(pv, GDK_BUTTON_SECONDARY, x, y, 0);
  CHECK(tess_body_is_valid(tess_playback_world(pl->playback), tess_playback_body(pl->playback, (uint32_t)crate)->id));
  /* With a sprite body as the object tool's template, a click drops that sprite. */
  const TessSprite *crate_sprite = NULL;
  for (uint32_t i = 0; i < p->sprite_count; i++)
    if (strstr(p->sprites[i]->name, "rate")) crate_sprite = p->sprites[i];
  CHECK(crate_sprite != NULL);
  if (crate_sprite) {
    TessObject tmpl;
    tess_object_default(&tmpl, TESS_OBJECT_BODY);
    tmpl.u.body.shape = TESS_BODY_SPRITE;
    tmpl.u.body.sprite = crate_sprite->id;
    tess_preview_view_set_spawn_template(pv, &tmpl);
    tess_object_clear(&tmpl);
    tess_preview_view_world_to_canvas(pv, tess_v2(pl->scene->cell_w * 20.0f, pl->scene->cell_h * 3.0f), &x, &y);
    uint32_t before_count = tess_playback_body_count(pl->playback);
    tess_preview_view_pointer_press(pv, GDK_BUTTON_PRIMARY, x, y, 0);
    tess_preview_view_pointer_release(pv, GDK_BUTTON_PRIMARY, x, y);
    CHECK(tess_playback_body_count(pl->playback) == before_count + 1);
    const TessPlaybackBody *dropped = tess_playback_body(pl->playback, before_count);
    CHECK(dropped && dropped->sprite == crate_sprite->id && dropped->object == 0);
    tess_preview_view_set_spawn_template(pv, NULL);
  }
  /* R resets to step 0. */
  send_key(GTK_WIDGET(pv), GDK_KEY_r);
  CHECK(tess_playback_current_step(pl->playback) == 0);

  send_key(GTK_WIDGET(pv), GDK_KEY_Escape); /* leaves Play mode */
  CHECK(!play_state(w));
  CHECK(!tess_preview_view_is_running(pv));
  fixture_spin();
  CHECK(tess_project_hash(p) == project_hash);
  for (uint32_t i = 0; i < p->level_count && i < 8; i++)
    CHECK(tess_level_content_hash(p, p->levels[i]) == level_hash[i]);
  CHECK(!tess_project_can_undo(p));
  FileState after = file_state(path);
  CHECK_MSG(same_state(before, after), "the project file changed (%lld -> %lld bytes, wal %lld -> %lld)",
            (long long)before.main_size, (long long)after.main_size, (long long)before.wal_size,
            (long long)after.wal_size);
  GStatBuf st1;
  CHECK(g_stat(path, &st1) == 0);
  CHECK(st1.st_mtime == st0.st_mtime && st1.st_size == st0.st_size);
  fixture_close(w);
  g_free(path);
}

static void keep_positions_is_one_undo_step(void) {
  char *path = fixture_copy_demo("keep.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  TessLevel *side = tess_project_level_by_name(p, "Side");
  uint64_t before = tess_level_content_hash(p, side);
  activate(w, "play");
  TessPreviewView *pv = preview_of(w);
  TessPreviewLevel *pl = tess_preview_view_get_preview_level(pv);
  CHECK(pl && pl->level == side);
  for (int i = 0; i < 90; i++) tess_preview_view_step(pv);
  int64_t ball = body_named(pl, "Ball over rubber");
  TessTransform xf;
  CHECK(tess_playback_body_transform(pl->playback, (uint32_t)ball, &xf));
  TessId ball_object = tess_playback_body(pl->playback, (uint32_t)ball)->object;
  GError *error = NULL;
  CHECK(tess_preview_view_keep_positions(pv, &error));
  g_clear_error(&error);
  const TessObject *o = tess_level_object(side, ball_object, NULL);
  CHECK_NEAR(o->pos.y, xf.p.y * pl->scene->ppm, 1e-3);
  CHECK(tess_level_content_hash(p, side) != before);
  /* It is in the file: another reader sees the new position. */
  TessProject *disk = fixture_load(path);
  if (disk) {
    TessLevel *dl = tess_project_level_by_name(disk, "Side");
    const TessObject *od = tess_level_object(dl, ball_object, NULL);
    CHECK(od && fabsf(od->pos.y - o->pos.y) < 1e-3f);
    tess_project_destroy(disk);
  }
  /* Still playing. An undo of the project underneath (the menu's Undo)
   * leaves Play mode: the world no longer matches the level. One undo
   * brings every body back. */
  CHECK(play_state(w));
  CHECK(tess_project_can_undo(p));
  CHECK(tess_document_undo(doc, NULL));
  fixture_spin();
  CHECK(!play_state(w));
  CHECK(!tess_preview_view_is_running(pv));
  CHECK(tess_level_content_hash(p, side) == before);
  CHECK(!tess_project_can_undo(p));
  fixture_close(w);
  g_free(path);
}

static void pointer_drag_pulls_a_body(void) {
  char *path = fixture_copy_demo("drag.tessera");
  TessWindow *w = fixture_window(path);
  activate(w, "play");
  TessPreviewView *pv = preview_of(w);
  TessPreviewLevel *pl = tess_preview_view_get_preview_level(pv);
  for (int i = 0; i < 150; i++) tess_preview_view_step(pv); /* the sand ball has landed */
  int64_t bi = body_named(pl, "Ball over sand");
  CHECK(bi >= 0);
  TessWorld *world = tess_playback_world(pl->playback);
  TessBodyId id = tess_playback_body(pl->playback, (uint32_t)bi)->id;
  TessVec2 start = tess_body_world_center(world, id);
  double x0, y0;
  tess_preview_view_world_to_canvas(pv, start, &x0, &y0);
  /* Press on the ball, move the pointer 3 m up and 2 m left over 10 events. */
  TessVec2 goal = tess_v2(start.x - 2.0f, start.y - 3.0f);
  double gx, gy;
  tess_preview_view_world_to_canvas(pv, goal, &gx, &gy);
  tess_preview_view_pointer_press(pv, GDK_BUTTON_PRIMARY, x0, y0, 0);
  TessVec2 a, t;
  CHECK(tess_playback_drag_line(pl->playback, &a, &t)); /* the spring exists (drawn as a line) */
  gint64 now = g_get_monotonic_time();
  for (int i = 1; i <= 10; i++)
    tess_preview_view_pointer_motion(pv, x0 + (gx - x0) * i / 10.0, y0 + (gy - y0) * i / 10.0, now + i * 16000);
  cairo_surface_t *shot = tess_preview_view_render(pv, 800, 450); /* draws the spring line */
  cairo_surface_destroy(shot);
  for (int i = 0; i < 90; i++) tess_preview_view_step(pv);
  TessVec2 end = tess_body_world_center(world, id);
  CHECK_MSG(tess_v2_distance(end, goal) < 0.3f * tess_v2_distance(start, goal), "ball at %g,%g, pointer at %g,%g",
            end.x, end.y, goal.x, goal.y);
  tess_preview_view_pointer_release(pv, GDK_BUTTON_PRIMARY, gx, gy);
  CHECK(!tess_playback_drag_line(pl->playback, NULL, NULL));
  /* Shift-drag throws: the ball leaves with the pointer's velocity. */
  TessVec2 c = tess_body_world_center(world, id);
  tess_preview_view_world_to_canvas(pv, c, &x0, &y0);
  tess_preview_view_pointer_press(pv, GDK_BUTTON_PRIMARY, x0, y0, GDK_SHIFT_MASK);
  double px_per_m = 0.0, tx, ty;
  tess_preview_view_world_to_canvas(pv, tess_v2(c.x + 1.0f, c.y), &tx, &ty);
  px_per_m = tx - x0;
  now = g_get_monotonic_time();
  for (int i = 1; i <= 6; i++) /* 0.5 m every 10 ms to the right: 50 m/s */
    tess_preview_view_pointer_motion(pv, x0 + px_per_m * 0.5 * i, y0, now + i * 10000);
  tess_preview_view_pointer_release(pv, GDK_BUTTON_PRIMARY, x0 + px_per_m * 3.0, y0);
  TessVec2 v = tess_body_linear_velocity(world, id);
  CHECK_MSG(v.x > 30.0f && fabsf(v.y) < 5.0f, "thrown at %g,%g m/s", v.x, v.y);
  activate(w, "play");
  fixture_close(w);
  g_free(path);
}

static void both_demo_levels_play(void) {
  char *path = fixture_copy_demo("levels.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  for (uint32_t li = 0; li < p->level_count; li++) {
    TessPreviewView *pv = preview_of(w);
    GError *error = NULL;
    CHECK(tess_preview_view_start(pv, tess_window_get_document(w), p->levels[li]->id, &error));
    g_clear_error(&error);
    for (int i = 0; i < 30; i++) tess_preview_view_step(pv);
    tess_preview_view_set_overlays(pv, 0xFF);
    cairo_surface_t *s = tess_preview_view_render(pv, 960, 540);
    CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(s);
    tess_preview_view_stop(pv);
  }
  fixture_close(w);
  g_free(path);
}

/* The speed slider spans -2x..+2x in steps of 0.25: laid out in the real
 * window it must give each step a trough a pointer can land on (it was
 * 96 px with its value label, 2-3 px a step). */
static void speed_slider_has_room(void) {
  char *path = fixture_copy_demo("speed.tessera");
  TessWindow *w = fixture_window(path);
  activate(w, "play"); /* what F5 and the Play button do */
  CHECK(play_state(w));
  TessPreviewView *pv = preview_of(w);
  GtkWidget *scale = tess_preview_view_get_speed_scale(pv);
  CHECK(gtk_widget_get_mapped(scale));
  gtk_test_widget_wait_for_draw(GTK_WIDGET(w)); /* laid out, not only mapped */
  /* 16 steps of 0.25 and a value label of about 40 px: 180 px of content
   * leaves the trough about 8 px a step. */
  CHECK_MSG(gtk_widget_get_width(scale) >= 180, "the speed slider is %d px wide", gtk_widget_get_width(scale));
  activate(w, "play");
  fixture_close(w);
  g_free(path);
}

static gboolean status_shows_zoom(TessWindow *w, double zoom) {
  g_autofree char *want = g_strdup_printf("Zoom %.0f %%", zoom * 100.0);
  gint64 until = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
  while (!g_str_equal(tess_window_get_status(w, "zoom"), want) && g_get_monotonic_time() < until)
    g_main_context_iteration(NULL, FALSE);
  CHECK_MSG(g_str_equal(tess_window_get_status(w, "zoom"), want), "the status bar says '%s', not '%s'",
            tess_window_get_status(w, "zoom"), want);
  return g_str_equal(tess_window_get_status(w, "zoom"), want);
}

/* Issue 14: Play's zoom shows in the status bar as the map's does: the
 * fitted zoom on entering, the wheel's zoom, and the map's again on leaving. */
static void status_bar_shows_play_zoom(void) {
  char *path = fixture_copy_demo("zoom.tessera");
  TessWindow *w = fixture_window(path);
  TessMapView *map = TESS_MAP_VIEW(tess_window_get_map_view(w));
  double map_zoom = tess_map_view_get_zoom(map);
  status_shows_zoom(w, map_zoom);
  activate(w, "play");
  TessPreviewView *pv = preview_of(w);
  gtk_test_widget_wait_for_draw(GTK_WIDGET(w));
  status_shows_zoom(w, tess_preview_view_get_zoom(pv));
  /* Two wheel steps up over the canvas, as a mouse sends them. */
  GtkWidget *canvas = tess_preview_view_get_canvas(pv);
  GListModel *controllers = gtk_widget_observe_controllers(canvas);
  for (guint i = 0; i < g_list_model_get_n_items(controllers); i++) {
    GtkEventController *c = g_list_model_get_item(controllers, i);
    if (GTK_IS_EVENT_CONTROLLER_SCROLL(c))
      for (int k = 0; k < 2; k++) {
        gboolean handled = FALSE;
        g_signal_emit_by_name(c, "scroll", 0.0, -1.0, &handled);
        CHECK(handled);
      }
    g_object_unref(c);
  }
  g_object_unref(controllers);
  double play_zoom = tess_preview_view_get_zoom(pv);
  /* The label tells them apart, so it shows Play's zoom, not the map's. */
  CHECK_MSG(fabs(play_zoom - map_zoom) * 100.0 >= 1.0, "Play's zoom %g is the map's %g", play_zoom, map_zoom);
  status_shows_zoom(w, play_zoom);
  activate(w, "play"); /* back to editing: the map's zoom again */
  status_shows_zoom(w, tess_map_view_get_zoom(map));
  fixture_close(w);
  g_free(path);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(play_mode_leaves_the_project_unchanged), TEST(speed_slider_has_room),
                                       TEST(keep_positions_is_one_undo_step), TEST(pointer_drag_pulls_a_body),
                                       TEST(both_demo_levels_play),
                                       TEST(status_bar_shows_play_zoom)};
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
