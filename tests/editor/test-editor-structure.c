/* The editor's composition (issue 14, "the structure behind these"), under
 * Xvfb against the real tess-editor library: errors take one path up to the
 * window; tess-window.ui places the panels, the Play page and the menu. */
#include <string.h>

#include "editor_fixture.h"
#include "level_fixture.h"
#include "tess-map-view-test.h"
#include "tess-map-view.h"
#include "tess-object-inspector.h"
#include "tess-preview-view.h"
#include "tess-ui.h"

/* A refusal in the map view (paint on a locked layer: a toast) and a failed
 * edit in a panel (the message bar) both reach the window through its
 * actions ("win.notify", "win.report"); the map view has no signal of its
 * own for it any more. */
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

static gboolean menu_has_action(GMenuModel *menu, const char *action) {
  for (int i = 0; i < g_menu_model_get_n_items(menu); i++) {
    g_autofree char *a = NULL;
    if (g_menu_model_get_item_attribute(menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &a) && g_strcmp0(a, action) == 0)
      return TRUE;
    g_autoptr(GMenuModel) section = g_menu_model_get_item_link(menu, i, G_MENU_LINK_SECTION);
    if (section && menu_has_action(section, action)) return TRUE;
  }
  return FALSE;
}

/* The window's template holds the composition: the Sprites page beside the
 * other panels, Tileset Collision… in the main menu as written in
 * tess-window.ui (no code adds it), and the map view and the preview as two
 * pages of one stack: Play shows the preview's page, nothing is reparented,
 * and leaving Play shows the same map view again. */
static void structure_window_from_template(void) {
  g_autofree char *path = fixture_copy_demo("compose.tessera");
  TessWindow *w = fixture_window(path);
  GtkWidget *sprites = tess_window_get_sprite_panel(w);
  GtkWidget *materials = tess_window_get_material_panel(w);
  GtkWidget *nb = gtk_widget_get_ancestor(sprites, GTK_TYPE_NOTEBOOK);
  CHECK(nb && nb == gtk_widget_get_ancestor(materials, GTK_TYPE_NOTEBOOK) && gtk_notebook_get_n_pages(GTK_NOTEBOOK(nb)) == 4);

  GtkWidget *menu_button = NULL;
  for (GtkWidget *c = gtk_widget_get_first_child(gtk_window_get_titlebar(GTK_WINDOW(w))); c && !menu_button;) {
    if (GTK_IS_MENU_BUTTON(c)) menu_button = c;
    else if (gtk_widget_get_first_child(c)) c = gtk_widget_get_first_child(c);
    else {
      while (c && !gtk_widget_get_next_sibling(c)) c = gtk_widget_get_parent(c);
      c = c ? gtk_widget_get_next_sibling(c) : NULL;
    }
  }
  CHECK(menu_button && menu_has_action(gtk_menu_button_get_menu_model(GTK_MENU_BUTTON(menu_button)), "win.tileset-collision"));
  GAction *collision = g_action_map_lookup_action(G_ACTION_MAP(w), "tileset-collision");
  CHECK(collision && g_action_get_enabled(collision));

  GtkWidget *map = tess_window_get_map_view(w);
  GtkWidget *stack = gtk_widget_get_parent(map);
  CHECK(GTK_IS_STACK(stack) && gtk_stack_get_visible_child(GTK_STACK(stack)) == map);
  GtkWidget *preview = gtk_stack_get_child_by_name(GTK_STACK(stack), "preview");
  CHECK(preview && TESS_IS_PREVIEW_VIEW(preview));
  g_action_group_change_action_state(G_ACTION_GROUP(w), "play", g_variant_new_boolean(TRUE));
  fixture_spin();
  CHECK(gtk_stack_get_visible_child(GTK_STACK(stack)) == preview);
  CHECK(gtk_widget_get_parent(map) == stack && tess_window_get_map_view(w) == map);
  g_action_group_change_action_state(G_ACTION_GROUP(w), "play", g_variant_new_boolean(FALSE));
  fixture_spin();
  CHECK(gtk_stack_get_visible_child(GTK_STACK(stack)) == map && gtk_widget_get_parent(map) == stack);
  fixture_close(w);
}

/* Lays the window out and returns the right panel's width (the box that
 * holds the side notebook), after the frame is drawn. */
static int right_panel_width(TessWindow *w) {
  GtkWidget *nb = gtk_widget_get_ancestor(tess_window_get_material_panel(w), GTK_TYPE_NOTEBOOK);
  fixture_spin();
  gtk_test_widget_wait_for_draw(GTK_WIDGET(w));
  fixture_spin();
  return gtk_widget_get_width(gtk_widget_get_parent(nb));
}

/* The right panel keeps one width whichever inspector it shows (issue 14:
 * it changed width between the material inspector, the object inspector
 * and the others, so the map under the pointer moved): every page of the
 * side notebook, and the object inspector with each kind of object in it,
 * a long name and a refused number's message. */
static void structure_right_panel_keeps_its_width(void) {
  g_autofree char *path = fixture_copy_demo("width.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLevel *level = tess_project_level(p, tess_window_get_level(w));
  TessId layer = tess_test_object_layer_id(level);
  CHECK(layer != 0);
  GtkWidget *nb = gtk_widget_get_ancestor(tess_window_get_material_panel(w), GTK_TYPE_NOTEBOOK);
  int pages = gtk_notebook_get_n_pages(GTK_NOTEBOOK(nb));
  int width = right_panel_width(w);
  CHECK_MSG(width >= 348, "the right panel is %d px wide", width);
  for (int i = 0; i < pages; i++) {
    gtk_notebook_set_current_page(GTK_NOTEBOOK(nb), i);
    int now = right_panel_width(w);
    CHECK_MSG(now == width, "page %d: the right panel is %d px wide, not %d", i, now, width);
  }

  /* Each kind of object in the inspector, on its page. */
  TessObjectKind kinds[] = {TESS_OBJECT_BODY, TESS_OBJECT_BODY, TESS_OBJECT_ZONE, TESS_OBJECT_SPAWN,
                            TESS_OBJECT_JOINT, TESS_OBJECT_JOINT};
  GtkWidget *insp = tess_window_get_object_inspector(w);
  gtk_notebook_set_current_page(GTK_NOTEBOOK(nb), gtk_notebook_page_num(GTK_NOTEBOOK(nb), gtk_widget_get_ancestor(insp, GTK_TYPE_SCROLLED_WINDOW)));
  for (guint k = 0; k < G_N_ELEMENTS(kinds); k++) {
    TessObject o;
    tess_object_default(&o, kinds[k]);
    if (k == 1) o.u.body.shape = TESS_BODY_BOX;
    if (k == 5) o.u.joint.kind = TESS_JOINT_DISTANCE;
    g_snprintf(o.name, sizeof o.name, "An object with a long name, longer than the panel is wide %u", k);
    TessId id = fixture_add_object(w, &o);
    tess_object_inspector_set_object(TESS_OBJECT_INSPECTOR(insp), level->id, id);
    int now = right_panel_width(w);
    CHECK_MSG(now == width, "object kind %d: the right panel is %d px wide, not %d", (int)kinds[k], now, width);
    /* and its fields fit in it, with no sideways scrolling */
    int min = 0;
    gtk_widget_measure(insp, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
    int room = gtk_widget_get_width(gtk_widget_get_ancestor(insp, GTK_TYPE_SCROLLED_WINDOW)) -
               gtk_widget_get_margin_start(insp) - gtk_widget_get_margin_end(insp);
    CHECK_MSG(min <= room, "object kind %d: the inspector needs %d px, the panel has %d", (int)kinds[k], min, room);
  }
  /* A refused number says why under its field: the message wraps inside the panel. */
  GtkWidget *x = NULL;
  for (GtkWidget *c = gtk_widget_get_first_child(insp); c && !x;) {
    if (g_strcmp0(gtk_widget_get_name(c), "object-x") == 0) x = c;
    else if (gtk_widget_get_first_child(c)) c = gtk_widget_get_first_child(c);
    else {
      while (c && !gtk_widget_get_next_sibling(c) && c != insp) c = gtk_widget_get_parent(c);
      c = c && c != insp ? gtk_widget_get_next_sibling(c) : NULL;
    }
  }
  CHECK(x != NULL);
  if (x) {
    gtk_editable_set_text(GTK_EDITABLE(x), "not a number at all, and rather a long text too");
    gtk_spin_button_update(GTK_SPIN_BUTTON(x));
    CHECK(tess_ui_number_get_message(x) != NULL);
    int now = right_panel_width(w);
    CHECK_MSG(now == width, "with a field's message: the right panel is %d px wide, not %d", now, width);
  }
  fixture_close(w);
}

static const TessTestCase cases[] = {
    {"structure_errors_take_one_path", structure_errors_take_one_path},
    {"structure_window_from_template", structure_window_from_template},
    {"structure_right_panel_keeps_its_width", structure_right_panel_keeps_its_width},
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
