/* Not a test: renders the sprite tools of the demo project to PNGs for a
 * person to look at (`sprites-shots OUTDIR` under Xvfb). */
#include <string.h>

#include "editor_fixture.h"
#include "tess-mask-editor.h"
#include "tess-sprite-panel.h"
#include "tess-tileset-collision.h"
#include "tess-map-view-test.h"

static void save(GtkWidget *w, const char *dir, const char *name) {
  for (int i = 0; i < 100; i++) {
    fixture_spin();
    g_usleep(2000);
  }
  GdkPaintable *paintable = gtk_widget_paintable_new(w);
  int width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
  GtkSnapshot *snap = gtk_snapshot_new();
  gdk_paintable_snapshot(paintable, GDK_SNAPSHOT(snap), width, height);
  GskRenderNode *node = gtk_snapshot_free_to_node(snap);
  GskRenderer *renderer = gtk_native_get_renderer(gtk_widget_get_native(w));
  if (node && renderer) {
    GdkTexture *tex = gsk_renderer_render_texture(renderer, node, &GRAPHENE_RECT_INIT(0, 0, width, height));
    g_autofree char *path = g_build_filename(dir, name, NULL);
    gdk_texture_save_to_png(tex, path);
    printf("%s %dx%d\n", path, width, height);
    g_object_unref(tex);
  }
  if (node) gsk_render_node_unref(node);
  g_object_unref(paintable);
}

static const char *outdir;

static void shots(void) {
  g_autofree char *path = fixture_copy_demo("shots.tessera");
  TessWindow *w = fixture_window(path);
  gtk_window_set_default_size(GTK_WINDOW(w), 1280, 800);
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_window_get_sprite_panel(w));
  GtkNotebook *nb = GTK_NOTEBOOK(gtk_widget_get_ancestor(GTK_WIDGET(panel), GTK_TYPE_NOTEBOOK));
  gtk_notebook_set_current_page(nb, gtk_notebook_get_n_pages(nb) - 1);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessId sprite = p->sprite_count > 1 ? p->sprites[1]->id : p->sprites[0]->id;
  if (g_getenv("SHOT_SPRITE")) sprite = (TessId)atoi(g_getenv("SHOT_SPRITE"));
  tess_sprite_panel_select(panel, sprite);
  /* Place the sprite twice with the object tool. */
  g_signal_emit_by_name(panel, "place-requested");
  TessMapView *map = TESS_MAP_VIEW(tess_window_get_map_view(w));
  fixture_spin();
  for (int i = 0; i < 2; i++) {
    double x = 380 + 90 * i, y = 250;
    tess_map_view_test_motion(map, x, y, 0);
    tess_map_view_test_press(map, 1, x, y, 0);
    tess_map_view_test_release(map, 1, x, y, 0);
  }
  save(GTK_WIDGET(w), outdir, "window.png");

  GtkWindow *mask = tess_mask_editor_window_new(GTK_WINDOW(w), tess_window_get_document(w), sprite);
  gtk_window_present(mask);
  TessMaskEditor *ed = TESS_MASK_EDITOR(gtk_window_get_child(mask));
  save(GTK_WIDGET(mask), outdir, "mask-simplified.png");
  gtk_drop_down_set_selected(tess_mask_editor_get_mode(ed), TESS_MASK_PIECES);
  save(GTK_WIDGET(mask), outdir, "mask-pieces.png");
  gtk_drop_down_set_selected(tess_mask_editor_get_mode(ed), TESS_MASK_CIRCLE);
  save(GTK_WIDGET(mask), outdir, "mask-circle.png");
  tess_mask_editor_flush(ed);
  gtk_window_destroy(mask);

  GtkWindow *tiles = tess_tileset_collision_window_new(GTK_WINDOW(w), tess_window_get_document(w), 0);
  gtk_window_present(tiles);
  TessTilesetCollision *tc = TESS_TILESET_COLLISION(gtk_window_get_child(tiles));
  tess_tileset_collision_trace_all(tc, NULL);
  tess_tileset_collision_select_tile(tc, 5);
  save(GTK_WIDGET(tiles), outdir, "tileset.png");
  gtk_window_destroy(tiles);
  fixture_close(w);
}

int main(int argc, char **argv) {
  outdir = argc > 1 ? argv[1] : ".";
  static const TessTestCase cases[] = {{"shots", shots}};
  char *args[] = {argv[0], NULL};
  return fixture_main(1, args, cases, 1);
}
