/* The template-backed widgets (issue 14, "the structure behind these"):
 * each is built from its .ui, and its controls follow the widget's
 * properties through bindings, both ways where the user can change them.
 * Each case fails if a template child, a handler or a binding is missing:
 * it drives the state from code and looks at the controls, and drives the
 * controls and looks at the state. */
#include <math.h>
#include <string.h>

#include "editor_fixture.h"
#include "tess-preview-mode.h"
#include "tess-preview-view.h"
#include "tess-scroll-area.h"
#include "tess-tile-palette.h"
#include "tessera/render.h"

/* ---- finding controls as a user sees them ------------------------------------------ */

typedef gboolean (*Match)(GtkWidget *w, const char *text);

static GtkWidget *find(GtkWidget *root, Match match, const char *text) {
  if (match(root, text)) return root;
  for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
    GtkWidget *hit = find(c, match, text);
    if (hit) return hit;
  }
  return NULL;
}

static gboolean tip_starts(GtkWidget *w, const char *text) {
  const char *tip = gtk_widget_get_tooltip_text(w);
  return (GTK_IS_BUTTON(w) || GTK_IS_MENU_BUTTON(w) || GTK_IS_RANGE(w)) && tip && g_str_has_prefix(tip, text);
}
static gboolean check_labelled(GtkWidget *w, const char *text) {
  return GTK_IS_CHECK_BUTTON(w) && g_strcmp0(gtk_check_button_get_label(GTK_CHECK_BUTTON(w)), text) == 0;
}
static gboolean label_starts(GtkWidget *w, const char *text) {
  return GTK_IS_LABEL(w) && g_str_has_prefix(gtk_label_get_text(GTK_LABEL(w)), text);
}

static gboolean label_is(GtkWidget *w, const char *text) {
  return GTK_IS_LABEL(w) && g_strcmp0(gtk_label_get_text(GTK_LABEL(w)), text) == 0;
}
static gboolean dropdown_tip(GtkWidget *w, const char *text) {
  return GTK_IS_DROP_DOWN(w) && g_strcmp0(gtk_widget_get_tooltip_text(w), text) == 0;
}
static int count_tips(GtkWidget *root, const char *text) {
  int n = tip_starts(root, text);
  for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) n += count_tips(c, text);
  return n;
}

static int count_controllers(GtkWidget *w, GType type, guint button) {
  GListModel *list = gtk_widget_observe_controllers(w);
  int n = 0;
  for (guint i = 0; i < g_list_model_get_n_items(list); i++) {
    GtkEventController *c = g_list_model_get_item(list, i);
    if (G_TYPE_CHECK_INSTANCE_TYPE(c, type) &&
        (!GTK_IS_GESTURE_SINGLE(c) || gtk_gesture_single_get_button(GTK_GESTURE_SINGLE(c)) == button))
      n++;
    g_object_unref(c);
  }
  g_object_unref(list);
  return n;
}

static gboolean emit_key(GtkWidget *w, guint keyval) {
  GListModel *list = gtk_widget_observe_controllers(w);
  gboolean handled = FALSE;
  for (guint i = 0; i < g_list_model_get_n_items(list); i++) {
    GtkEventController *c = g_list_model_get_item(list, i);
    if (GTK_IS_EVENT_CONTROLLER_KEY(c)) g_signal_emit_by_name(c, "key-pressed", keyval, 0, (GdkModifierType)0, &handled);
    g_object_unref(c);
  }
  g_object_unref(list);
  fixture_spin();
  return handled;
}

/* ---- Play mode ---------------------------------------------------------------------- */

static guint64 current_step(TessPreviewView *pv) {
  TessPreviewLevel *pl = tess_preview_view_get_preview_level(pv);
  return pl ? tess_playback_current_step(pl->playback) : 0;
}

/* tess-preview-view.ui: the transport, the speed slider, the overlays and
 * the statistics line follow "playing", "speed", "overlays", "show-stats";
 * the canvas has its gestures and the view its keys. */
static void preview_view_template(void) {
  g_autofree char *path = fixture_copy_demo("template-play.tessera");
  TessWindow *w = fixture_window(path);
  g_action_group_activate_action(G_ACTION_GROUP(w), "play", NULL);
  fixture_spin();
  TessPreviewView *pv = TESS_PREVIEW_VIEW(tess_preview_mode_get_view(GTK_WINDOW(w)));
  CHECK(pv && tess_preview_view_is_running(pv));
  if (!pv || !tess_preview_view_is_running(pv)) goto done;
  GtkWidget *root = GTK_WIDGET(pv);
  tess_preview_view_set_playing(pv, FALSE);
  fixture_spin();

  /* The play button: its state, icon and tooltip follow "playing", and it sets it. */
  GtkWidget *play = find(root, tip_starts, "Play (Space)");
  CHECK(GTK_IS_TOGGLE_BUTTON(play));
  if (!GTK_IS_TOGGLE_BUTTON(play)) goto done;
  CHECK(!gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(play)));
  CHECK(g_strcmp0(gtk_button_get_icon_name(GTK_BUTTON(play)), "media-playback-start-symbolic") == 0);
  tess_preview_view_set_playing(pv, TRUE);
  CHECK(gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(play)));
  CHECK(g_strcmp0(gtk_button_get_icon_name(GTK_BUTTON(play)), "media-playback-pause-symbolic") == 0);
  CHECK(g_strcmp0(gtk_widget_get_tooltip_text(play), "Pause (Space)") == 0);
  gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(play), FALSE); /* as a click does */
  CHECK(!tess_preview_view_get_playing(pv) && !tess_preview_view_has_tick_callback(pv));
  CHECK(g_strcmp0(gtk_widget_get_tooltip_text(play), "Play (Space)") == 0);

  /* Step and Reset call the view; the step button pauses, one step a click. */
  GtkWidget *step = find(root, tip_starts, "Step one physics step");
  GtkWidget *reset = find(root, tip_starts, "Reset to the level as edited");
  CHECK(step && reset);
  if (!step || !reset) goto done;
  g_signal_emit_by_name(reset, "clicked");
  CHECK(current_step(pv) == 0);
  g_signal_emit_by_name(step, "clicked");
  g_signal_emit_by_name(step, "clicked");
  CHECK_MSG(current_step(pv) == 2, "step %llu after two clicks", (unsigned long long)current_step(pv));
  /* The timeline's range follows the recording; dragging it seeks. */
  GtkWidget *timeline = find(root, tip_starts, "Timeline");
  CHECK(timeline != NULL);
  if (timeline) {
    CHECK(gtk_range_get_value(GTK_RANGE(timeline)) == 2.0);
    gtk_range_set_value(GTK_RANGE(timeline), 1.0);
    CHECK_MSG(current_step(pv) == 1, "step %llu after the timeline went to 1", (unsigned long long)current_step(pv));
  }
  /* The view's keys: period steps. */
  CHECK(emit_key(root, GDK_KEY_period));
  CHECK(current_step(pv) == 2);

  /* The speed slider and "speed", both ways, and the playback follows. */
  GtkWidget *speed = tess_preview_view_get_speed_scale(pv);
  CHECK(speed && find(root, tip_starts, "Speed:") == speed);
  tess_preview_view_set_speed(pv, 0.5);
  CHECK(gtk_range_get_value(GTK_RANGE(speed)) == 0.5);
  gtk_range_set_value(GTK_RANGE(speed), -1.5);
  double s = 0;
  g_object_get(pv, "speed", &s, NULL);
  CHECK_MSG(s == -1.5 && tess_playback_speed(tess_preview_view_get_preview_level(pv)->playback) == -1.5,
            "speed %g, playback %g", s, tess_playback_speed(tess_preview_view_get_preview_level(pv)->playback));

  /* Overlays: each check button shows its bit, and sets it. */
  GtkWidget *velocities = find(root, check_labelled, "Velocities");
  GtkWidget *pins = find(root, check_labelled, "Pins and joints");
  CHECK(velocities && pins);
  if (!velocities || !pins) goto done;
  CHECK(gtk_check_button_get_active(GTK_CHECK_BUTTON(pins)) ==
        ((tess_preview_view_get_overlays(pv) & TESS_PREVIEW_OVERLAY_PINS) != 0));
  gtk_check_button_set_active(GTK_CHECK_BUTTON(velocities), TRUE);
  CHECK(tess_preview_view_get_overlays(pv) & TESS_PREVIEW_OVERLAY_VELOCITIES);
  tess_preview_view_set_overlays(pv, TESS_PREVIEW_OVERLAY_PINS);
  CHECK(!gtk_check_button_get_active(GTK_CHECK_BUTTON(velocities)) && gtk_check_button_get_active(GTK_CHECK_BUTTON(pins)));

  /* The statistics line: shown while "Statistics" is checked, and it counts. */
  GtkWidget *stats = find(root, check_labelled, "Statistics");
  GtkWidget *line = find(root, label_starts, "Step 2 of");
  CHECK(stats && line);
  if (!stats || !line) goto done;
  CHECK(gtk_check_button_get_active(GTK_CHECK_BUTTON(stats)) && gtk_widget_get_visible(line));
  gtk_check_button_set_active(GTK_CHECK_BUTTON(stats), FALSE);
  CHECK(!gtk_widget_get_visible(line));
  g_object_set(pv, "show-stats", TRUE, NULL);
  CHECK(gtk_check_button_get_active(GTK_CHECK_BUTTON(stats)) && gtk_widget_get_visible(line));

  /* The canvas: a drawing area with its five pointer controllers. */
  GtkWidget *canvas = tess_preview_view_get_canvas(pv);
  CHECK(GTK_IS_DRAWING_AREA(canvas) && gtk_widget_is_ancestor(canvas, root));
  if (canvas) {
    CHECK(count_controllers(canvas, GTK_TYPE_GESTURE_DRAG, GDK_BUTTON_PRIMARY) == 1);
    CHECK(count_controllers(canvas, GTK_TYPE_GESTURE_DRAG, GDK_BUTTON_MIDDLE) == 1);
    CHECK(count_controllers(canvas, GTK_TYPE_GESTURE_CLICK, GDK_BUTTON_SECONDARY) == 1);
    CHECK(count_controllers(canvas, GTK_TYPE_EVENT_CONTROLLER_MOTION, 0) == 1);
    CHECK(count_controllers(canvas, GTK_TYPE_EVENT_CONTROLLER_SCROLL, 0) == 1);
  }
  /* Back to Editing asks the window to leave. */
  GtkWidget *leave = find(root, tip_starts, "Back to Editing");
  CHECK(leave != NULL);
  if (leave) {
    g_signal_emit_by_name(leave, "clicked");
    fixture_spin();
    CHECK(!tess_preview_view_is_running(pv));
  }
done:
  fixture_close(w);
}

/* ---- the tile palette ------------------------------------------------------------------ */

/* With no project: the chooser, the menu and the zoom buttons are off, the
 * view is hidden and the hint says what to do (all from "tileset" = 0). */
static void tile_palette_template_empty(void) {
  GtkWidget *palette = g_object_ref_sink(tess_tile_palette_new());
  GtkWidget *chooser = find(palette, dropdown_tip, "Tileset");
  GtkWidget *menu = find(palette, tip_starts, "Tileset menu");
  GtkWidget *in = find(palette, tip_starts, "Zoom the tileset in");
  GtkWidget *out = find(palette, tip_starts, "Zoom the tileset out");
  GtkWidget *hint = find(palette, label_is, "No tilesets yet. Add one from a PNG.");
  GtkWidget *view = tess_tile_palette_get_view(TESS_TILE_PALETTE(palette));
  CHECK(chooser && menu && in && out && hint && TESS_IS_SCROLL_AREA(view));
  if (chooser && menu && in && out && hint && view) {
    CHECK(!gtk_widget_get_sensitive(chooser) && !gtk_widget_get_sensitive(menu));
    CHECK(!gtk_widget_get_sensitive(in) && !gtk_widget_get_sensitive(out));
    CHECK(gtk_widget_get_visible(hint) && !gtk_widget_is_visible(view));
  }
  g_object_unref(palette);
}

/* tess-tile-palette.ui on the demo: "tileset", "zoom" and "terrain-mode"
 * drive the controls; the buttons, the chooser and the Terrain switch drive
 * them; the view has its pointer controllers. */
static void tile_palette_template(void) {
  g_autofree char *path = fixture_copy_demo("template-palette.tessera");
  TessWindow *w = fixture_window(path);
  TessTilePalette *pal = TESS_TILE_PALETTE(tess_window_get_tile_palette(w));
  GtkWidget *root = GTK_WIDGET(pal);
  fixture_spin();
  CHECK(tess_tile_palette_get_tileset(pal) != 0);
  GtkWidget *chooser = find(root, dropdown_tip, "Tileset");
  GtkWidget *menu = find(root, tip_starts, "Tileset menu");
  GtkWidget *view = tess_tile_palette_get_view(pal);
  CHECK(chooser && gtk_widget_get_sensitive(chooser) && menu && gtk_widget_get_sensitive(menu));
  CHECK(!find(root, label_is, "No tilesets yet. Add one from a PNG.") ||
        !gtk_widget_get_visible(find(root, label_is, "No tilesets yet. Add one from a PNG.")));
  CHECK(TESS_IS_SCROLL_AREA(view) && gtk_widget_is_visible(view) && GTK_IS_SCROLLED_WINDOW(gtk_widget_get_parent(view)));
  if (view) {
    CHECK(count_controllers(view, GTK_TYPE_GESTURE_DRAG, 0) == 1); /* any button: right-click clears terrain */
    CHECK(count_controllers(view, GTK_TYPE_EVENT_CONTROLLER_SCROLL, 0) == 1);
    CHECK(count_controllers(view, GTK_TYPE_EVENT_CONTROLLER_MOTION, 0) == 1);
  }
  /* The chooser's model lists the project's tilesets. */
  if (chooser) {
    TessProject *p = tess_document_get_project(tess_window_get_document(w));
    GListModel *names = gtk_drop_down_get_model(GTK_DROP_DOWN(chooser));
    CHECK(names && g_list_model_get_n_items(names) == p->tileset_count);
    CHECK(gtk_drop_down_get_selected(GTK_DROP_DOWN(chooser)) == 0);
  }

  /* Zoom: the label and the buttons follow "zoom"; the buttons set it. */
  GtkWidget *in = find(root, tip_starts, "Zoom the tileset in");
  GtkWidget *out = find(root, tip_starts, "Zoom the tileset out");
  CHECK(in && out);
  if (!in || !out) goto done;
  tess_tile_palette_set_zoom(pal, 1);
  CHECK(find(root, label_is, "1×") != NULL);
  CHECK(!gtk_widget_get_sensitive(out) && gtk_widget_get_sensitive(in));
  g_signal_emit_by_name(in, "clicked");
  int zoom = 0;
  g_object_get(pal, "zoom", &zoom, NULL);
  CHECK_MSG(zoom == 2 && tess_tile_palette_get_zoom(pal) == 2, "zoom %d", zoom);
  CHECK(find(root, label_is, "2×") != NULL && gtk_widget_get_sensitive(out));
  g_object_set(pal, "zoom", TESS_TILE_PALETTE_ZOOM_MAX, NULL);
  CHECK(find(root, label_is, "8×") != NULL && !gtk_widget_get_sensitive(in) && gtk_widget_get_sensitive(out));
  g_signal_emit_by_name(out, "clicked");
  CHECK(tess_tile_palette_get_zoom(pal) == TESS_TILE_PALETTE_ZOOM_MAX - 1 && gtk_widget_get_sensitive(in));

  /* Terrain mode: the switch and the controls follow "terrain-mode", and the switch sets it. */
  GtkWidget *toggle = find(root, tip_starts, "Terrain sets:");
  GtkWidget *sets = find(root, dropdown_tip, "Terrain set");
  CHECK(GTK_IS_TOGGLE_BUTTON(toggle) && sets);
  if (!GTK_IS_TOGGLE_BUTTON(toggle) || !sets) goto done;
  CHECK(!tess_tile_palette_get_terrain_mode(pal) && !gtk_widget_is_visible(sets));
  gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(toggle), TRUE);
  CHECK(tess_tile_palette_get_terrain_mode(pal) && gtk_widget_is_visible(sets));
  /* The demo's tileset has terrain sets: the first is chosen, one button per colour. */
  const TessTileset *ts = tess_project_tileset(tess_document_get_project(tess_window_get_document(w)),
                                               tess_tile_palette_get_tileset(pal));
  CHECK(ts && ts->terrain_count > 0);
  if (!ts || !ts->terrain_count) goto done;
  uint32_t colours = ts->terrains[0].color_count;
  CHECK(gtk_drop_down_get_selected(GTK_DROP_DOWN(sets)) == 0 &&
        g_list_model_get_n_items(gtk_drop_down_get_model(GTK_DROP_DOWN(sets))) == ts->terrain_count);
  CHECK_MSG(count_tips(root, "Paint this terrain") == (int)colours, "%d colour buttons for %u colours",
            count_tips(root, "Paint this terrain"), colours);
  GtkWidget *hint = find(root, label_starts, "Click a corner or edge");
  CHECK(hint && gtk_widget_is_visible(hint));
  /* New terrain colour: one more colour, and its button. */
  GtkWidget *add_colour = find(root, tip_starts, "New terrain colour");
  CHECK(add_colour != NULL);
  if (add_colour) {
    g_signal_emit_by_name(add_colour, "clicked");
    fixture_spin();
    ts = tess_project_tileset(tess_document_get_project(tess_window_get_document(w)), tess_tile_palette_get_tileset(pal));
    CHECK(ts && ts->terrains[0].color_count == colours + 1);
    CHECK(count_tips(root, "Paint this terrain") == (int)colours + 1);
  }
  /* What a new set labels: Corners, Edges, Mixed. */
  GtkWidget *kind = find(root, dropdown_tip, "What a new terrain set labels");
  CHECK(kind && g_list_model_get_n_items(gtk_drop_down_get_model(GTK_DROP_DOWN(kind))) == 3);
  tess_tile_palette_set_terrain_mode(pal, FALSE);
  CHECK(!gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(toggle)) && !gtk_widget_is_visible(sets));
done:
  fixture_close(w);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(preview_view_template), TEST(tile_palette_template_empty),
                                       TEST(tile_palette_template)};
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
