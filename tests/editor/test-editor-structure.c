/* The editor's composition (issue 14, "the structure behind these"), under
 * Xvfb against the real tess-editor library: errors take one path up to the
 * window. */
#include <string.h>

#include "editor_fixture.h"
#include "tess-map-view-test.h"
#include "tess-map-view.h"
#include "tess-ui.h"

/* A refusal in the map view (paint on a locked layer) and a failed edit in a
 * panel both reach the window's message bar through the "win.report"
 * action; the map view has no signal of its own for it any more. */
static void structure_errors_take_one_path(void) {
  g_autofree char *path = fixture_copy_demo("errors.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  CHECK(g_signal_lookup("edit-refused", TESS_TYPE_MAP_VIEW) == 0);

  /* Lock the layer being edited, then paint on it with the brush. */
  TessLevel *level = tess_project_level(p, tess_window_get_level(w));
  TessLayer *layer = tess_level_layer(level, tess_window_get_layer(w));
  CHECK(layer && layer->props.kind == TESS_LAYER_TILES);
  TessLayerProps props = layer->props;
  props.locked = true;
  TessError err = {0};
  CHECK_OK(tess_edit_layer_set_props(p, level->id, &props, 0, &err), &err);
  CHECK(tess_document_commit(tess_window_get_document(w), NULL));
  fixture_spin();
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.tool", "s", "brush"));
  TessMapView *view = TESS_MAP_VIEW(tess_window_get_map_view(w));
  double x, y;
  tess_map_view_level_to_widget(view, level->settings.tile_w * 2.5, level->settings.tile_h * 2.5, &x, &y);
  tess_map_view_test_press(view, 1, x, y, 0);
  tess_map_view_test_release(view, 1, x, y, 0);
  fixture_spin();
  const char *shown = tess_window_get_reported(w);
  CHECK_MSG(shown && strstr(shown, "locked") && strstr(shown, layer->props.name), "%s", shown ? shown : "(nothing)");

  /* A panel's failed edit: the reason, in the same bar. */
  tess_error_set(&err, TESS_ERR_INVALID, "", "friction -5 is outside [0, 10]");
  CHECK(!tess_ui_apply(tess_window_get_material_panel(w), tess_window_get_document(w), TESS_ERR_INVALID, &err));
  fixture_spin();
  shown = tess_window_get_reported(w);
  CHECK_MSG(shown && strstr(shown, "friction -5"), "%s", shown ? shown : "(nothing)");
  fixture_close(w);
}

static const TessTestCase cases[] = {
    {"structure_errors_take_one_path", structure_errors_take_one_path},
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
