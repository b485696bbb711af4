/* TessMapView's object tool under Xvfb: place each kind, select, move and
 * rotate (one undo step per drag, optional snapping), join two bodies with a
 * pin or a distance joint, delete; checked in the project file. */
#include <math.h>

#include "check.h"
#include "map_view_harness.h"
#include "tessera/render.h"

#define CHECK_STR(a, b) CHECK_MSG(g_strcmp0((a), (b)) == 0, "\"%s\" is not \"%s\"", (a), (b))

static void press_move_release(Harness *h, double lx0, double ly0, double lx1, double ly1) {
  double x0, y0, x1, y1;
  tess_map_view_level_to_widget(h->view, lx0, ly0, &x0, &y0);
  tess_map_view_level_to_widget(h->view, lx1, ly1, &x1, &y1);
  tess_map_view_test_press(h->view, GDK_BUTTON_PRIMARY, x0, y0, 0);
  for (int i = 1; i <= 4; i++)
    tess_map_view_test_motion(h->view, x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * i / 4, 0);
  tess_map_view_test_release(h->view, GDK_BUTTON_PRIMARY, x1, y1, 0);
}

static const TessObject *obj(Harness *h, TessId id) { return tess_level_object(harness_level(h), id, NULL); }

static void places_every_kind(void) {
  Harness h;
  harness_open(&h, "place.tessera");
  tess_map_view_set_tool(h.view, TESS_TOOL_OBJECT);
  uint32_t before = harness_stored_object_count(&h);
  CHECK(before == 9);
  struct {
    TessObjectKind kind;
    int shape;
    double x, y;
  } cases[] = {
      {TESS_OBJECT_BODY, TESS_BODY_CIRCLE, 20.5, 100.25},
      {TESS_OBJECT_BODY, TESS_BODY_BOX, 60, 104},
      {TESS_OBJECT_BODY, TESS_BODY_CAPSULE, 100, 104},
      {TESS_OBJECT_SPAWN, 0, 176, 20}, /* before the zone, which is wide enough to cover it */
      {TESS_OBJECT_ZONE, 0, 140, 30},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    TessObject t;
    tess_object_default(&t, cases[i].kind);
    if (cases[i].kind == TESS_OBJECT_BODY) t.u.body.shape = (uint8_t)cases[i].shape;
    tess_map_view_set_object_template(h.view, &t);
    tess_object_clear(&t);
    press_move_release(&h, cases[i].x, cases[i].y, cases[i].x, cases[i].y);
    TessId id = tess_map_view_get_selected_object(h.view);
    CHECK(id != 0 && h.selected == id);
    TessObject stored;
    CHECK(harness_stored_object(&h, id, &stored));
    CHECK(stored.kind == cases[i].kind);
    if (cases[i].kind == TESS_OBJECT_BODY) CHECK(stored.u.body.shape == cases[i].shape);
    CHECK_NEAR(stored.pos.x, cases[i].x, 0.26); /* widget pixels at zoom 2 are half level pixels */
    CHECK_NEAR(stored.pos.y, cases[i].y, 0.26);
    /* It landed on the object layer (the edited layer is a tile layer). */
    TessLayer *layer = NULL;
    CHECK(tess_level_object(harness_level(&h), id, &layer) && layer->props.id == FIX_LAYER_OBJECTS);
  }
  CHECK(harness_stored_object_count(&h) == before + G_N_ELEMENTS(cases));
  /* Snapping puts new objects on half cells. */
  tess_map_view_set_snap_to_grid(h.view, TRUE);
  press_move_release(&h, 27, 13, 27, 13);
  const TessObject *o = obj(&h, tess_map_view_get_selected_object(h.view));
  CHECK(o && o->pos.x == 24 && o->pos.y == 16);
  /* Each placement is one undo step. */
  harness_undo(&h);
  harness_undo(&h);
  CHECK(harness_stored_object_count(&h) == before + G_N_ELEMENTS(cases) - 1);
  harness_close(&h);
}

static void move_is_one_step_and_snaps(void) {
  Harness h;
  harness_open(&h, "move.tessera");
  tess_map_view_set_tool(h.view, TESS_TOOL_OBJECT);
  /* The box (id 2) at (80, 40): grab it 3 px right of its centre, drag by (+30, +21). */
  press_move_release(&h, 83, 40, 113, 61);
  CHECK(tess_map_view_get_selected_object(h.view) == 2);
  CHECK_NEAR(obj(&h, 2)->pos.x, 110, 1e-3);
  CHECK_NEAR(obj(&h, 2)->pos.y, 61, 1e-3);
  TessObject stored;
  CHECK(harness_stored_object(&h, 2, &stored));
  CHECK_NEAR(stored.pos.x, 110, 1e-3);
  harness_undo(&h);
  CHECK_NEAR(obj(&h, 2)->pos.x, 80, 1e-3);
  CHECK_NEAR(obj(&h, 2)->pos.y, 40, 1e-3);
  CHECK(harness_stored_object(&h, 2, &stored) && fabsf(stored.pos.x - 80) < 1e-3f);
  harness_redo(&h);
  CHECK_NEAR(obj(&h, 2)->pos.x, 110, 1e-3);
  harness_undo(&h);
  /* With snapping: positions on multiples of 8 px (half a 16 px cell). */
  tess_map_view_set_snap_to_grid(h.view, TRUE);
  press_move_release(&h, 80, 40, 93, 51);
  CHECK(obj(&h, 2)->pos.x == 96 && obj(&h, 2)->pos.y == 48);
  /* A distance joint moves with both anchors. */
  tess_map_view_set_snap_to_grid(h.view, FALSE);
  TessVec2 a0 = obj(&h, 6)->pos, b0 = obj(&h, 6)->u.joint.anchor_b;
  tess_map_view_select_object(h.view, 0);
  /* Grab the joint by its second anchor: it is above the sprite body there
   * (later in the layer), so the joint is what moves, both anchors with it. */
  press_move_release(&h, b0.x, b0.y, b0.x + 10, b0.y);
  CHECK(tess_map_view_get_selected_object(h.view) == 6);
  CHECK_NEAR(obj(&h, 6)->u.joint.anchor_b.x, b0.x + 10, 1e-3);
  CHECK_NEAR(obj(&h, 6)->pos.x, a0.x + 10, 1e-3);
  CHECK_NEAR(obj(&h, 4)->pos.x, 150, 1e-3); /* the body under it stays */
  harness_close(&h);
}

static void rotate_with_the_handle(void) {
  Harness h;
  harness_open(&h, "rotate.tessera");
  tess_map_view_set_tool(h.view, TESS_TOOL_OBJECT);
  tess_map_view_select_object(h.view, 1); /* the circle at (40, 40) */
  TessVec2 handle = tess_render_object_rotate_handle(harness_project(&h), obj(&h, 1), tess_map_view_get_zoom(h.view));
  /* Drag the handle to straight below the centre: a quarter turn (y points down). */
  press_move_release(&h, handle.x, handle.y, 40, 80);
  CHECK_NEAR(obj(&h, 1)->angle, G_PI / 2, 1e-4);
  CHECK_NEAR(obj(&h, 1)->pos.x, 40, 1e-4); /* rotating does not move it */
  TessObject stored;
  CHECK(harness_stored_object(&h, 1, &stored));
  CHECK_NEAR(stored.angle, G_PI / 2, 1e-4);
  harness_undo(&h);
  CHECK_NEAR(obj(&h, 1)->angle, 0, 1e-6);
  /* Snapped: 15 degree steps. */
  tess_map_view_set_snap_to_grid(h.view, TRUE);
  handle = tess_render_object_rotate_handle(harness_project(&h), obj(&h, 1), tess_map_view_get_zoom(h.view));
  press_move_release(&h, handle.x, handle.y, 40 + 30 * cos(0.7), 40 + 30 * sin(0.7));
  double step = G_PI / 12;
  CHECK_NEAR(obj(&h, 1)->angle, round(0.7 / step) * step, 1e-5);
  harness_close(&h);
}

static void joins_two_bodies(void) {
  Harness h;
  harness_open(&h, "join.tessera");
  tess_map_view_set_tool(h.view, TESS_TOOL_OBJECT);
  TessObject t;
  tess_object_default(&t, TESS_OBJECT_JOINT);
  t.u.joint.kind = TESS_JOINT_PIN;
  tess_map_view_set_object_template(h.view, &t);
  tess_object_clear(&t);
  uint32_t before = harness_stored_object_count(&h);
  /* The status bar's hint says what to click (issue 14). */
  CHECK_STR(tess_map_view_get_hint(h.view), "Click the first body, then the second");
  /* Click the circle (1), then the box (2) near its end: a pin there. */
  press_move_release(&h, 40, 40, 40, 40);
  CHECK(harness_stored_object_count(&h) == before);
  CHECK_STR(tess_map_view_get_hint(h.view), "Now click the second body (Esc cancels)");
  /* A click beside the bodies says why nothing happened and keeps the first body. */
  int refused = h.refused;
  press_move_release(&h, 100, 100, 100, 100);
  CHECK(h.refused == refused + 1);
  CHECK_STR(h.last_refused, "No body here: click the second body (Esc cancels)");
  CHECK_STR(tess_map_view_get_hint(h.view), "Now click the second body (Esc cancels)");
  CHECK(harness_stored_object_count(&h) == before);
  press_move_release(&h, 70, 36, 70, 36);
  CHECK_STR(tess_map_view_get_hint(h.view), "Click the first body, then the second");
  TessId id = tess_map_view_get_selected_object(h.view);
  const TessObject *j = obj(&h, id);
  CHECK(j && j->kind == TESS_OBJECT_JOINT && j->u.joint.kind == TESS_JOINT_PIN);
  CHECK(j && j->u.joint.body_a == 1 && j->u.joint.body_b == 2);
  CHECK(j && fabsf(j->pos.x - 70) < 0.3f && fabsf(j->pos.y - 36) < 0.3f);
  CHECK(harness_stored_object_count(&h) == before + 1);
  /* A distance joint between the box (2) and the circle (1): anchors at their centres. */
  tess_object_default(&t, TESS_OBJECT_JOINT);
  t.u.joint.kind = TESS_JOINT_DISTANCE;
  tess_map_view_set_object_template(h.view, &t);
  tess_object_clear(&t);
  press_move_release(&h, 84, 42, 84, 42);
  press_move_release(&h, 36, 44, 36, 44);
  j = obj(&h, tess_map_view_get_selected_object(h.view));
  CHECK(j && j->u.joint.kind == TESS_JOINT_DISTANCE && j->u.joint.body_a == 2 && j->u.joint.body_b == 1);
  CHECK(j && j->pos.x == 80 && j->pos.y == 40 && j->u.joint.anchor_b.x == 40 && j->u.joint.anchor_b.y == 40);
  /* A click on empty space does not join anything, and says so; Escape
   * then cancels the first body, and another tool needs no hint. */
  press_move_release(&h, 40, 40, 40, 40);
  refused = h.refused;
  press_move_release(&h, 100, 100, 100, 100);
  CHECK(harness_stored_object_count(&h) == before + 2);
  CHECK(h.refused == refused + 1);
  tess_map_view_test_key(h.view, GDK_KEY_Escape, TRUE);
  tess_map_view_test_key(h.view, GDK_KEY_Escape, FALSE);
  CHECK_STR(tess_map_view_get_hint(h.view), "Click the first body, then the second");
  press_move_release(&h, 100, 100, 100, 100);
  CHECK_STR(h.last_refused, "No body here: a joint joins two bodies, click the first one");
  tess_map_view_set_tool(h.view, TESS_TOOL_BRUSH);
  CHECK_STR(tess_map_view_get_hint(h.view), "");
  harness_close(&h);
}

static void delete_and_locked_layer(void) {
  Harness h;
  harness_open(&h, "delete.tessera");
  tess_map_view_set_tool(h.view, TESS_TOOL_OBJECT);
  press_move_release(&h, 56, 80, 56, 80); /* the zone (7) */
  CHECK(tess_map_view_get_selected_object(h.view) == 7);
  tess_map_view_delete_selection(h.view);
  CHECK(obj(&h, 7) == NULL && tess_map_view_get_selected_object(h.view) == 0 && h.selected == 0);
  TessObject stored;
  CHECK(!harness_stored_object(&h, 7, &stored));
  harness_undo(&h);
  CHECK(obj(&h, 7) != NULL && harness_stored_object(&h, 7, &stored));
  /* Lock the object layer: moves, placements and deletes are refused visibly. */
  TessLayerProps props = tess_level_layer(harness_level(&h), FIX_LAYER_OBJECTS)->props;
  props.locked = true;
  TessError err;
  CHECK_OK(tess_edit_layer_set_props(harness_project(&h), FIX_SMALL_LEVEL, &props, 0, &err), &err);
  GError *error = NULL;
  CHECK(tess_document_commit(h.doc, &error));
  g_clear_error(&error);
  press_move_release(&h, 80, 40, 120, 60);
  CHECK_NEAR(obj(&h, 2)->pos.x, 80, 1e-4);
  CHECK(h.refused == 1);
  CHECK(strstr(h.last_refused, "Objects") != NULL);
  tess_map_view_delete_selection(h.view);
  CHECK(obj(&h, 2) != NULL && h.refused == 2);
  TessObject t;
  tess_object_default(&t, TESS_OBJECT_SPAWN);
  tess_map_view_set_object_template(h.view, &t);
  tess_object_clear(&t);
  uint32_t n = harness_stored_object_count(&h);
  press_move_release(&h, 100, 100, 100, 100);
  CHECK(h.refused == 3 && harness_stored_object_count(&h) == n);
  harness_close(&h);
}

int main(int argc, char **argv) {
  gtk_init();
  static const TessTestCase cases[] = {
      TEST(places_every_kind),
      TEST(move_is_one_step_and_snaps),
      TEST(rotate_with_the_handle),
      TEST(joins_two_bodies),
      TEST(delete_and_locked_layer),
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
