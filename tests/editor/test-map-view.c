/* TessMapView under Xvfb: each tile tool driven with synthetic pointer
 * events, checked in the level and in the project file, with undo/redo;
 * zoom (wheel and pinch) around the pointer; panning; a locked layer. */
#include <math.h>

#include "check.h"
#include "map_view_harness.h"

#define T(tile) TESS_CELL_MAKE(FIX_TILESET, (tile), 0)

static TessCell cell(Harness *h, TessId layer, int x, int y) {
  return tess_layer_cell(tess_level_layer(harness_level(h), layer), (uint32_t)x, (uint32_t)y);
}

static void brush_drag_is_one_undo_step(void) {
  Harness h;
  harness_open(&h, "brush.tessera");
  TessCell stamp = T(13);
  tess_map_view_set_stamp(h.view, 1, 1, &stamp);
  tess_map_view_set_tool(h.view, TESS_TOOL_BRUSH);
  /* Row 1 is empty between the walls. */
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 2, 1, 6, 1);
  for (int x = 2; x <= 6; x++) {
    CHECK(cell(&h, FIX_LAYER_GROUND, x, 1) == stamp);
    CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, (uint32_t)x, 1) == stamp);
  }
  CHECK(cell(&h, FIX_LAYER_GROUND, 7, 1) == 0);
  CHECK(h.refused == 0);
  harness_undo(&h);
  for (int x = 2; x <= 6; x++) CHECK(cell(&h, FIX_LAYER_GROUND, x, 1) == 0);
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 4, 1) == 0);
  harness_redo(&h);
  CHECK(cell(&h, FIX_LAYER_GROUND, 6, 1) == stamp);
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 6, 1) == stamp);
  /* A fast diagonal drag leaves no gaps (cells between two motion events are painted). */
  double x0, y0, x1, y1;
  harness_cell_center(&h, 1, 3, &x0, &y0);
  harness_cell_center(&h, 5, 5, &x1, &y1);
  tess_map_view_test_press(h.view, GDK_BUTTON_PRIMARY, x0, y0, 0);
  tess_map_view_test_motion(h.view, x1, y1, 0);
  tess_map_view_test_release(h.view, GDK_BUTTON_PRIMARY, x1, y1, 0);
  int painted = 0;
  for (int y = 3; y <= 5; y++)
    for (int x = 1; x <= 5; x++) painted += cell(&h, FIX_LAYER_GROUND, x, y) == stamp;
  CHECK_MSG(painted >= 5, "%d cells on the line", painted);
  harness_close(&h);
}

static void multi_tile_stamp_flips_and_rotates_like_tiled(void) {
  Harness h;
  harness_open(&h, "stamp.tessera");
  TessCell s[6] = {T(9), T(10), T(11), T(12), T(13), T(14)}; /* 3 x 2 */
  tess_map_view_set_stamp(h.view, 3, 2, s);
  tess_map_view_flip_stamp(h.view, TRUE);
  uint32_t w, hh;
  const TessCell *c;
  CHECK(tess_map_view_get_stamp(h.view, &w, &hh, &c));
  CHECK(w == 3 && hh == 2);
  CHECK(c[0] == (T(11) | TESS_CELL_FLIP_H) && c[2] == (T(9) | TESS_CELL_FLIP_H) && c[3] == (T(14) | TESS_CELL_FLIP_H));
  tess_map_view_flip_stamp(h.view, TRUE);
  CHECK(c != NULL);
  CHECK(tess_map_view_get_stamp(h.view, &w, &hh, &c) && memcmp(c, s, sizeof s) == 0);
  /* Rotate clockwise: 2 x 3, the old bottom-left (12) at the top-left, with D|H. */
  tess_map_view_rotate_stamp(h.view);
  CHECK(tess_map_view_get_stamp(h.view, &w, &hh, &c));
  CHECK(w == 2 && hh == 3);
  CHECK(c[0] == (T(12) | TESS_CELL_FLIP_D | TESS_CELL_FLIP_H));
  CHECK(c[1] == (T(9) | TESS_CELL_FLIP_D | TESS_CELL_FLIP_H));
  CHECK(c[5] == (T(11) | TESS_CELL_FLIP_D | TESS_CELL_FLIP_H));
  /* Four turns are the identity, on positions and on flip bits. */
  for (int i = 0; i < 3; i++) tess_map_view_rotate_stamp(h.view);
  CHECK(tess_map_view_get_stamp(h.view, &w, &hh, &c) && w == 3 && hh == 2 && memcmp(c, s, sizeof s) == 0);
  /* A flipped cell rotated: the renderer shows it turned by 90 degrees. */
  TessCell one = T(11) | TESS_CELL_FLIP_V;
  tess_map_view_set_stamp(h.view, 1, 1, &one);
  tess_map_view_rotate_stamp(h.view);
  CHECK(tess_map_view_get_stamp(h.view, &w, &hh, &c));
  TessCell rotated = c[0];
  for (int sy = 0; sy < 16; sy += 5)
    for (int sx = 0; sx < 16; sx += 5) {
      TessVec2 a = tess_cell_transform_point(one, tess_v2(sx + 0.5f, sy + 0.5f), 16, 16);
      TessVec2 b = tess_cell_transform_point(rotated, tess_v2(sx + 0.5f, sy + 0.5f), 16, 16);
      /* clockwise: (x, y) -> (16 - y, x) */
      CHECK_NEAR(b.x, 16 - a.y, 1e-4);
      CHECK_NEAR(b.y, a.x, 1e-4);
    }
  /* The 3 x 2 stamp paints centred on the pointer (anchor at column 1, row 0). */
  tess_map_view_set_stamp(h.view, 3, 2, s);
  harness_click(&h, 5, 3);
  CHECK(cell(&h, FIX_LAYER_GROUND, 4, 3) == T(9) && cell(&h, FIX_LAYER_GROUND, 6, 4) == T(14));
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 6, 4) == T(14));
  harness_close(&h);
}

static void eraser_rectangle_and_bucket(void) {
  Harness h;
  harness_open(&h, "tools.tessera");
  TessCell stamp = T(14);
  tess_map_view_set_stamp(h.view, 1, 1, &stamp);
  /* Rectangle: a dragged box, filled on release, one step. */
  tess_map_view_set_tool(h.view, TESS_TOOL_RECTANGLE);
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 6, 3, 2, 4);
  int n = 0;
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 12; x++) n += cell(&h, FIX_LAYER_GROUND, x, y) == stamp;
  CHECK(n == 10);
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 2, 3) == stamp);
  harness_undo(&h);
  CHECK(cell(&h, FIX_LAYER_GROUND, 4, 4) == 0);
  /* Eraser with a 3-cell brush over the grass row. */
  tess_map_view_set_tool(h.view, TESS_TOOL_ERASER);
  tess_map_view_set_brush_size(h.view, 3);
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 3, 6, 4, 6);
  for (int x = 2; x <= 5; x++) CHECK(cell(&h, FIX_LAYER_GROUND, x, 6) == 0);
  CHECK(cell(&h, FIX_LAYER_GROUND, 1, 6) != 0 && cell(&h, FIX_LAYER_GROUND, 6, 6) != 0);
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 5, 6) == 0);
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 5, 7) == 0); /* the wall row under it, too */
  harness_undo(&h);
  CHECK(cell(&h, FIX_LAYER_GROUND, 3, 6) != 0 && harness_stored_cell(&h, FIX_LAYER_GROUND, 3, 6) != 0);
  /* Bucket: the empty region inside the walls, bounded by tiles. */
  tess_map_view_set_tool(h.view, TESS_TOOL_BUCKET);
  harness_click(&h, 5, 1);
  CHECK(cell(&h, FIX_LAYER_GROUND, 1, 0) == stamp && cell(&h, FIX_LAYER_GROUND, 10, 4) == stamp);
  CHECK(cell(&h, FIX_LAYER_GROUND, 3, 2) != stamp); /* the flipped row stays */
  CHECK(cell(&h, FIX_LAYER_GROUND, 0, 1) != stamp); /* the wall stays */
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 10, 4) == stamp);
  harness_undo(&h);
  CHECK(cell(&h, FIX_LAYER_GROUND, 10, 4) == 0 && harness_stored_cell(&h, FIX_LAYER_GROUND, 10, 4) == 0);
  harness_close(&h);
}

static void rectangle_tiles_a_multi_tile_stamp_from_the_press(void) {
  Harness h;
  harness_open(&h, "rect-stamp.tessera");
  TessCell s2[2] = {T(9), T(10)};
  tess_map_view_set_stamp(h.view, 2, 1, s2);
  tess_map_view_set_tool(h.view, TESS_TOOL_RECTANGLE);
  /* Dragged right to left: the pattern starts at the press (6, 1). */
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 6, 1, 2, 3);
  for (int y = 1; y <= 3; y++)
    for (int x = 2; x <= 6; x++) {
      TessCell want = ((6 - x) % 2 == 0) ? T(9) : T(10);
      CHECK_MSG(cell(&h, FIX_LAYER_GROUND, x, y) == want, "(%d,%d)", x, y);
      CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, (uint32_t)x, (uint32_t)y) == want);
    }
  CHECK(cell(&h, FIX_LAYER_GROUND, 7, 1) == 0);
  harness_undo(&h);
  CHECK(cell(&h, FIX_LAYER_GROUND, 4, 1) == 0 && (cell(&h, FIX_LAYER_GROUND, 4, 2) & 0xFFFF) == 11);
  harness_close(&h);
}

static void hover_previews_the_stamp(void) {
  Harness h;
  harness_open(&h, "hover.tessera");
  TessCell stamp = T(12); /* red */
  tess_map_view_set_stamp(h.view, 1, 1, &stamp);
  cairo_surface_t *before = tess_map_view_test_render(h.view, 400, 300);
  double x, y;
  harness_cell_center(&h, 5, 1, &x, &y);
  tess_map_view_test_motion(h.view, x, y, 0);
  cairo_surface_t *after = tess_map_view_test_render(h.view, 400, 300);
  cairo_surface_flush(before);
  cairo_surface_flush(after);
  int stride = cairo_image_surface_get_stride(after);
  uint32_t p0 = *(const uint32_t *)(const void *)(cairo_image_surface_get_data(before) + (int)(y + 6) * stride + 4 * (int)(x + 6));
  uint32_t p1 = *(const uint32_t *)(const void *)(cairo_image_surface_get_data(after) + (int)(y + 6) * stride + 4 * (int)(x + 6));
  /* 60 % of tile 12's red over the dark background. */
  CHECK_MSG(((p1 >> 16) & 0xFF) > ((p0 >> 16) & 0xFF) + 80, "before %08x after %08x", p0, p1);
  CHECK(cell(&h, FIX_LAYER_GROUND, 5, 1) == 0); /* a preview, not an edit */
  cairo_surface_destroy(before);
  cairo_surface_destroy(after);
  harness_close(&h);
}

static void picker_and_alt_click(void) {
  Harness h;
  harness_open(&h, "picker.tessera");
  tess_map_view_set_tool(h.view, TESS_TOOL_PICKER);
  /* Drag over two cells of the flipped row: a 2 x 1 stamp, flips kept. */
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 3, 2, 4, 2);
  uint32_t w, hh;
  const TessCell *c;
  CHECK(h.picked == 1);
  CHECK(tess_map_view_get_stamp(h.view, &w, &hh, &c) && w == 2 && hh == 1);
  CHECK(c[0] == cell(&h, FIX_LAYER_GROUND, 3, 2) && c[1] == cell(&h, FIX_LAYER_GROUND, 4, 2));
  CHECK((c[0] & TESS_CELL_FLIPS) == TESS_CELL_FLIP_D);
  /* Alt-click from the brush picks one cell and paints nothing. */
  tess_map_view_set_tool(h.view, TESS_TOOL_BRUSH);
  harness_drag(&h, GDK_BUTTON_PRIMARY, GDK_ALT_MASK, 2, 5, 2, 5);
  CHECK(h.picked == 2);
  CHECK(tess_map_view_get_stamp(h.view, &w, &hh, &c) && w == 1 && hh == 1 && c[0] == T(15));
  CHECK(!tess_project_can_undo(harness_project(&h)));
  /* And the brush paints what was picked. */
  harness_click(&h, 6, 1);
  CHECK(cell(&h, FIX_LAYER_GROUND, 6, 1) == T(15));
  harness_close(&h);
}

static void material_brush_paints_overrides(void) {
  Harness h;
  harness_open(&h, "material.tessera");
  tess_map_view_set_tool(h.view, TESS_TOOL_MATERIAL_BRUSH);
  tess_map_view_set_material(h.view, FIX_WATER);
  tess_map_view_set_brush_size(h.view, 2);
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 2, 1, 4, 1);
  /* A 2-cell brush's anchor is its top-left: cells 2..5 x 1..2. */
  for (int x = 2; x <= 5; x++)
    for (int y = 1; y <= 2; y++) {
      CHECK(cell(&h, FIX_LAYER_MATERIAL, x, y) == FIX_WATER);
      CHECK(harness_stored_cell(&h, FIX_LAYER_MATERIAL, (uint32_t)x, (uint32_t)y) == FIX_WATER);
    }
  CHECK(cell(&h, FIX_LAYER_MATERIAL, 6, 1) == 0);
  TessCellCollision cc;
  tess_level_cell_collision(harness_project(&h), harness_level(&h), 3, 2, &cc);
  CHECK(cc.material == FIX_WATER);
  harness_undo(&h);
  CHECK(cell(&h, FIX_LAYER_MATERIAL, 3, 1) == 0 && harness_stored_cell(&h, FIX_LAYER_MATERIAL, 3, 1) == 0);
  /* Material 0 clears an override: the painted stone at (10, 1). */
  tess_map_view_set_material(h.view, 0);
  tess_map_view_set_brush_size(h.view, 1);
  harness_click(&h, 10, 1);
  CHECK(cell(&h, FIX_LAYER_MATERIAL, 10, 1) == 0);
  harness_close(&h);
}

static void select_move_cut_copy_paste(void) {
  Harness h;
  harness_open(&h, "select.tessera");
  tess_map_view_set_tool(h.view, TESS_TOOL_SELECT);
  /* Select the water (2..4, 5). */
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 2, 5, 4, 5);
  int sx, sy;
  uint32_t sw, sh;
  CHECK(tess_map_view_get_selection(h.view, &sx, &sy, &sw, &sh) && sx == 2 && sy == 5 && sw == 3 && sh == 1);
  /* Move it up by two rows: one undo step. */
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 3, 5, 3, 3);
  for (int x = 2; x <= 4; x++) {
    CHECK(cell(&h, FIX_LAYER_GROUND, x, 3) == T(15));
    CHECK(cell(&h, FIX_LAYER_GROUND, x, 5) == 0);
    CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, (uint32_t)x, 3) == T(15));
  }
  CHECK(tess_map_view_get_selection(h.view, &sx, &sy, &sw, &sh) && sx == 2 && sy == 3);
  harness_undo(&h);
  CHECK(cell(&h, FIX_LAYER_GROUND, 3, 5) == T(15) && cell(&h, FIX_LAYER_GROUND, 3, 3) == 0);
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 3, 5) == T(15));
  /* Copy, paste under the pointer. */
  tess_map_view_set_selection(h.view, 2, 5, 3, 1);
  tess_map_view_copy(h.view);
  double x, y;
  harness_cell_center(&h, 6, 1, &x, &y);
  tess_map_view_test_motion(h.view, x, y, 0);
  tess_map_view_paste(h.view);
  for (int i = 0; i < 3; i++) CHECK(cell(&h, FIX_LAYER_GROUND, 6 + i, 1) == T(15));
  CHECK(harness_stored_cell(&h, FIX_LAYER_GROUND, 8, 1) == T(15));
  /* Cut the flipped row's first 2 cells, delete the pasted ones. */
  tess_map_view_set_selection(h.view, 2, 2, 2, 1);
  TessCell was = cell(&h, FIX_LAYER_GROUND, 3, 2);
  tess_map_view_cut(h.view);
  CHECK(cell(&h, FIX_LAYER_GROUND, 2, 2) == 0 && cell(&h, FIX_LAYER_GROUND, 3, 2) == 0);
  tess_map_view_set_selection(h.view, 6, 1, 3, 1);
  tess_map_view_delete_selection(h.view);
  CHECK(cell(&h, FIX_LAYER_GROUND, 7, 1) == 0 && harness_stored_cell(&h, FIX_LAYER_GROUND, 7, 1) == 0);
  harness_undo(&h); /* the delete */
  harness_undo(&h); /* the cut */
  CHECK(cell(&h, FIX_LAYER_GROUND, 3, 2) == was && cell(&h, FIX_LAYER_GROUND, 7, 1) == T(15));
  harness_close(&h);
}

static void locked_layer_refuses_visibly(void) {
  Harness h;
  harness_open(&h, "locked.tessera");
  TessLayer *ground = tess_level_layer(harness_level(&h), FIX_LAYER_GROUND);
  TessLayerProps props = ground->props;
  props.locked = true;
  TessError err;
  CHECK_OK(tess_edit_layer_set_props(harness_project(&h), FIX_SMALL_LEVEL, &props, 0, &err), &err);
  GError *error = NULL;
  CHECK(tess_document_commit(h.doc, &error));
  g_clear_error(&error);
  TessCell stamp = T(13);
  tess_map_view_set_stamp(h.view, 1, 1, &stamp);
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 2, 1, 5, 1);
  CHECK(h.refused == 1); /* once per drag, not once per cell */
  CHECK(strstr(h.last_refused, "Ground") != NULL);
  CHECK(cell(&h, FIX_LAYER_GROUND, 2, 1) == 0 && harness_stored_cell(&h, FIX_LAYER_GROUND, 2, 1) == 0);
  tess_map_view_set_tool(h.view, TESS_TOOL_BUCKET);
  harness_click(&h, 4, 1);
  tess_map_view_set_tool(h.view, TESS_TOOL_ERASER);
  harness_click(&h, 0, 0);
  CHECK(h.refused == 3);
  CHECK(cell(&h, FIX_LAYER_GROUND, 0, 0) != 0);
  /* Objects on a tile layer: the brush on the object layer is refused too. */
  tess_map_view_set_layer(h.view, FIX_LAYER_OBJECTS);
  tess_map_view_set_tool(h.view, TESS_TOOL_BRUSH);
  harness_click(&h, 4, 1);
  CHECK(h.refused == 4);
  harness_close(&h);
}

static void zoom_keeps_the_point_under_the_pointer(void) {
  Harness h;
  harness_open(&h, "zoom.tessera");
  double lx0, ly0, lx1, ly1;
  tess_map_view_widget_to_level(h.view, 123, 77, &lx0, &ly0);
  /* Ctrl+wheel up: 1.25x per notch. */
  tess_map_view_test_scroll(h.view, 123, 77, 0, -1, GDK_CONTROL_MASK);
  CHECK_NEAR(tess_map_view_get_zoom(h.view), 2.5, 1e-9);
  tess_map_view_widget_to_level(h.view, 123, 77, &lx1, &ly1);
  CHECK_NEAR(lx1, lx0, 1.0 / 2.5); /* within the whole-pixel rounding */
  CHECK_NEAR(ly1, ly0, 1.0 / 2.5);
  CHECK(h.zoom_changes == 1);
  /* Limits: 1/16 .. 16. */
  for (int i = 0; i < 40; i++) tess_map_view_test_scroll(h.view, 50, 50, 0, 1, GDK_CONTROL_MASK);
  CHECK_NEAR(tess_map_view_get_zoom(h.view), 1.0 / 16, 1e-12);
  for (int i = 0; i < 60; i++) tess_map_view_test_scroll(h.view, 50, 50, 0, -1, GDK_CONTROL_MASK);
  CHECK_NEAR(tess_map_view_get_zoom(h.view), 16.0, 1e-12);
  /* Pinch, by emitting the gesture's signals: scale is relative to the zoom at its start. */
  tess_map_view_set_zoom(h.view, 2.0);
  tess_map_view_test_motion(h.view, 200, 100, 0);
  tess_map_view_widget_to_level(h.view, 200, 100, &lx0, &ly0);
  GtkGesture *pinch = tess_map_view_test_zoom_gesture(h.view);
  g_signal_emit_by_name(pinch, "begin", NULL);
  g_signal_emit_by_name(pinch, "scale-changed", 1.5);
  CHECK_NEAR(tess_map_view_get_zoom(h.view), 3.0, 1e-9);
  g_signal_emit_by_name(pinch, "scale-changed", 3.0);
  CHECK_NEAR(tess_map_view_get_zoom(h.view), 6.0, 1e-9);
  g_signal_emit_by_name(pinch, "end", NULL);
  tess_map_view_widget_to_level(h.view, 200, 100, &lx1, &ly1);
  CHECK_NEAR(lx1, lx0, 1.0 / 6);
  CHECK_NEAR(ly1, ly0, 1.0 / 6);
  /* The "zoom" property follows. */
  double z = 0;
  g_object_get(h.view, "zoom", &z, NULL);
  CHECK_NEAR(z, 6.0, 1e-9);
  harness_close(&h);
}

static void pan_with_middle_drag_space_and_scroll(void) {
  Harness h;
  harness_open(&h, "pan.tessera");
  double ox, oy;
  /* Middle drag by (-64, -32) widget px at zoom 2: the origin moves by (32, 16) level px. */
  tess_map_view_test_press(h.view, GDK_BUTTON_MIDDLE, 200, 200, 0);
  tess_map_view_test_motion(h.view, 136, 168, 0);
  tess_map_view_test_release(h.view, GDK_BUTTON_MIDDLE, 136, 168, 0);
  tess_map_view_get_origin(h.view, &ox, &oy);
  CHECK_NEAR(ox, 32, 1e-9);
  CHECK_NEAR(oy, 16, 1e-9);
  CHECK(!tess_project_can_undo(harness_project(&h)));
  /* Space + primary drag pans and paints nothing. */
  TessCell stamp = T(13);
  tess_map_view_set_stamp(h.view, 1, 1, &stamp);
  tess_map_view_test_key(h.view, GDK_KEY_space, TRUE);
  tess_map_view_test_press(h.view, GDK_BUTTON_PRIMARY, 100, 100, 0);
  tess_map_view_test_motion(h.view, 164, 132, 0);
  tess_map_view_test_release(h.view, GDK_BUTTON_PRIMARY, 164, 132, 0);
  tess_map_view_test_key(h.view, GDK_KEY_space, FALSE);
  tess_map_view_get_origin(h.view, &ox, &oy);
  CHECK_NEAR(ox, 0, 1e-9);
  CHECK_NEAR(oy, 0, 1e-9);
  CHECK(!tess_project_can_undo(harness_project(&h)));
  /* Scroll without Ctrl pans: 48 device px a notch. */
  tess_map_view_test_scroll(h.view, 10, 10, 0, 1, 0);
  tess_map_view_get_origin(h.view, &ox, &oy);
  CHECK_NEAR(oy, 24, 1e-9);
  tess_map_view_test_scroll(h.view, 10, 10, 0, 1, GDK_SHIFT_MASK);
  tess_map_view_get_origin(h.view, &ox, &oy);
  CHECK_NEAR(ox, 24, 1e-9);
  CHECK(h.zoom_changes == 0);
  harness_close(&h);
}

static void on_notify(GObject *o, GParamSpec *pspec, int *count) { (*count)++; }

static void properties_and_escape(void) {
  Harness h;
  harness_open(&h, "props.tessera");
  int notified = 0;
  const char *props[] = {"notify::tool", "notify::show-grid", "notify::show-materials", "notify::snap-to-grid",
                         "notify::zoom"};
  for (size_t i = 0; i < G_N_ELEMENTS(props); i++) g_signal_connect(h.view, props[i], G_CALLBACK(on_notify), &notified);
  g_object_set(h.view, "tool", TESS_TOOL_ERASER, "show-grid", FALSE, "show-materials", TRUE, "snap-to-grid", TRUE, NULL);
  CHECK(tess_map_view_get_tool(h.view) == TESS_TOOL_ERASER);
  CHECK(!tess_map_view_get_show_grid(h.view) && tess_map_view_get_show_materials(h.view));
  CHECK(tess_map_view_get_snap_to_grid(h.view));
  CHECK(notified == 4);
  g_object_set(h.view, "tool", TESS_TOOL_ERASER, NULL); /* unchanged: no notification */
  CHECK(notified == 4);
  /* Escape: clears the selection, then deselects the object. */
  tess_map_view_set_tool(h.view, TESS_TOOL_SELECT);
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 2, 2, 4, 3);
  int x, y;
  uint32_t w, hh;
  CHECK(tess_map_view_get_selection(h.view, &x, &y, &w, &hh) && w == 3 && hh == 2);
  tess_map_view_select_object(h.view, 3);
  tess_map_view_test_key(h.view, GDK_KEY_Escape, TRUE);
  CHECK(!tess_map_view_get_selection(h.view, &x, &y, &w, &hh));
  CHECK(tess_map_view_get_selected_object(h.view) == 3);
  tess_map_view_test_key(h.view, GDK_KEY_Escape, TRUE);
  CHECK(tess_map_view_get_selected_object(h.view) == 0 && h.selected == 0);
  /* A click without a drag clears a selection, as in Tiled. */
  harness_drag(&h, GDK_BUTTON_PRIMARY, 0, 2, 2, 4, 3);
  harness_click(&h, 8, 1);
  CHECK(!tess_map_view_get_selection(h.view, &x, &y, &w, &hh));
  harness_close(&h);
}

static void cursor_reports_the_cell(void) {
  Harness h;
  harness_open(&h, "cursor.tessera");
  double x, y;
  harness_cell_center(&h, 7, 3, &x, &y);
  tess_map_view_test_motion(h.view, x, y, 0);
  CHECK(h.cursor_x == 7 && h.cursor_y == 3);
  tess_map_view_test_motion(h.view, 12 * 32 + 5, 10, 0); /* right of the level */
  CHECK(h.cursor_x == -1 && h.cursor_y == -1);
  harness_close(&h);
}

static void edits_redraw_only_their_chunk(void) {
  Harness h;
  harness_open(&h, "redraw.tessera");
  cairo_surface_t *s = tess_map_view_test_render(h.view, 400, 300);
  cairo_surface_destroy(s);
  uint64_t n = 0;
  tess_map_view_test_render_stats(h.view, &n, TRUE);
  s = tess_map_view_test_render(h.view, 400, 300);
  cairo_surface_destroy(s);
  tess_map_view_test_render_stats(h.view, &n, TRUE);
  CHECK(n == 0);
  TessCell stamp = T(12);
  tess_map_view_set_stamp(h.view, 1, 1, &stamp);
  harness_click(&h, 3, 1);
  s = tess_map_view_test_render(h.view, 400, 300);
  tess_map_view_test_render_stats(h.view, &n, TRUE);
  CHECK_MSG(n == 1, "%llu chunks", (unsigned long long)n);
  /* The new tile is on screen: cell (3,1) at zoom 2 is red (tile 12: 200, 60, 60). */
  cairo_surface_flush(s);
  const uint8_t *d = cairo_image_surface_get_data(s);
  uint32_t px = ((const uint32_t *)(const void *)(d + (size_t)(1 * 32 + 20) * (size_t)cairo_image_surface_get_stride(s)))[3 * 32 + 24];
  CHECK_MSG(((px >> 16) & 0xFF) == 200 && ((px >> 8) & 0xFF) == 60, "pixel %08x", px);
  cairo_surface_destroy(s);
  harness_close(&h);
}

static void window_draws_the_view(void) {
  Harness h;
  harness_open(&h, "window.tessera");
  GtkWidget *win = gtk_window_new();
  gtk_window_set_default_size(GTK_WINDOW(win), 480, 320);
  gtk_window_set_child(GTK_WINDOW(win), GTK_WIDGET(h.view));
  tess_map_view_set_show_materials(h.view, TRUE);
  gtk_window_present(GTK_WINDOW(win));
  gtk_test_widget_wait_for_draw(GTK_WIDGET(h.view));
  CHECK(gtk_widget_get_width(GTK_WIDGET(h.view)) > 0);
  cairo_surface_t *s = tess_map_view_test_render(h.view, 480, 320);
  char path[1024];
  cairo_surface_write_to_png(s, tess_test_path(path, sizeof path, "map-view.png"));
  if (g_getenv("TESS_SHOT_DIR")) { /* to look at it */
    g_autofree char *shot = g_build_filename(g_getenv("TESS_SHOT_DIR"), "map-view.png", NULL);
    cairo_surface_write_to_png(s, shot);
  }
  cairo_surface_destroy(s);
  /* The material overlay tints the grass row, and the legend sits top-right. */
  s = tess_map_view_test_render(h.view, 480, 320);
  tess_map_view_set_show_materials(h.view, FALSE);
  cairo_surface_t *plain = tess_map_view_test_render(h.view, 480, 320);
  cairo_surface_flush(s);
  cairo_surface_flush(plain);
  const int stride = cairo_image_surface_get_stride(s);
  const uint8_t *a = cairo_image_surface_get_data(s), *b = cairo_image_surface_get_data(plain);
  long legend_px = 0;
  for (int y = 8; y < 40; y++)
    for (int x = 400; x < 472; x++) legend_px += memcmp(a + y * stride + 4 * x, b + y * stride + 4 * x, 4) != 0;
  CHECK_MSG(legend_px > 500, "%ld legend pixels", legend_px);
  int gy = 6 * 32 + 16, gx = 1 * 32 + 16; /* a grass cell: the overlay is green */
  uint32_t with = *(const uint32_t *)(const void *)(a + gy * stride + 4 * gx);
  uint32_t without = *(const uint32_t *)(const void *)(b + gy * stride + 4 * gx);
  CHECK(with != without);
  CHECK(((with >> 8) & 0xFF) >= ((without >> 8) & 0xFF));
  cairo_surface_destroy(s);
  cairo_surface_destroy(plain);
  gtk_window_set_child(GTK_WINDOW(win), NULL);
  gtk_window_destroy(GTK_WINDOW(win));
  harness_close(&h);
}

int main(int argc, char **argv) {
  gtk_init();
  static const TessTestCase cases[] = {
      TEST(brush_drag_is_one_undo_step),
      TEST(multi_tile_stamp_flips_and_rotates_like_tiled),
      TEST(eraser_rectangle_and_bucket),
      TEST(rectangle_tiles_a_multi_tile_stamp_from_the_press),
      TEST(hover_previews_the_stamp),
      TEST(picker_and_alt_click),
      TEST(material_brush_paints_overrides),
      TEST(select_move_cut_copy_paste),
      TEST(locked_layer_refuses_visibly),
      TEST(zoom_keeps_the_point_under_the_pointer),
      TEST(pan_with_middle_drag_space_and_scroll),
      TEST(properties_and_escape),
      TEST(cursor_reports_the_cell),
      TEST(edits_redraw_only_their_chunk),
      TEST(window_draws_the_view),
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
