/* Tileset Collision on a 4096 x 4096 tileset of 16 px tiles (65,536 tiles,
 * the most a tileset holds), under Xvfb: the window opens without drawing
 * the whole grid into one surface (it used to: 13,830 px square, 765 MB),
 * each frame paints only the tiles in view, scrolling reaches the last tile
 * and a click there selects it. Its own process, so the peak memory it
 * reports (VmHWM, reset before the window opens) is the window's alone.
 * Prints the open time, the peak memory and the time per scrolled frame. */
#include <stdio.h>
#include <string.h>

#include "editor_fixture.h"
#include "tess-scroll-area.h"
#include "tess-tileset-collision.h"
#include "tessera/image.h"
#include "tessera/level.h"

#define SIDE 4096
#define TILE 16

/* kB from /proc/self/status ("VmHWM:", "VmRSS:"). */
static long status_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, key, strlen(key)) == 0) kb = atol(line + strlen(key));
  if (f) fclose(f);
  return kb;
}

/* Resets the peak (VmHWM) to the current resident size (Linux: clear_refs 5). */
static gboolean reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f) return FALSE;
  gboolean ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok;
}

/* Tiles in a checker of opaque squares, half-transparent quarters and empty tiles. */
static TessId add_big_tileset(TessDocument *doc) {
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(SIDE, SIDE, &img, &err), &err);
  for (uint32_t y = 0; y < SIDE; y++) {
    uint8_t *row = img.pixels + (size_t)y * img.stride;
    for (uint32_t x = 0; x < SIDE; x++) {
      uint32_t c = x / TILE, r = y / TILE, k = (c + r) % 3;
      uint8_t a = k == 0 ? 255 : k == 1 ? ((x % TILE) < TILE / 2 ? 255 : 0)
                                        : 0;
      row[4 * x] = (uint8_t)(c * 7), row[4 * x + 1] = (uint8_t)(r * 5), row[4 * x + 2] = 160, row[4 * x + 3] = a;
    }
  }
  uint8_t *bytes = NULL;
  size_t size = 0;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &bytes, &size, &err), &err);
  tess_image_clear(&img);
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "huge";
  def.png = bytes;
  def.png_size = size;
  def.image_w = def.image_h = SIDE;
  def.tile_w = def.tile_h = TILE;
  TessId id = 0;
  CHECK_OK(tess_edit_tileset_add(tess_document_get_project(doc), &def, &id, &err), &err);
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_commit(doc, &error));
  tess_free(bytes);
  return id;
}

static GtkScrolledWindow *scroller_of(GtkWidget *grid) {
  GtkWidget *w = gtk_widget_get_parent(grid);
  while (w && !GTK_IS_SCROLLED_WINDOW(w)) w = gtk_widget_get_parent(w);
  return w ? GTK_SCROLLED_WINDOW(w) : NULL;
}

/* One frame drawn: the grid's next paint. */
static double frame_ms(GtkWidget *grid) {
  gint64 t0 = g_get_monotonic_time();
  gtk_test_widget_wait_for_draw(grid);
  return (g_get_monotonic_time() - t0) / 1000.0;
}

static void big_tileset_opens_and_scrolls(void) {
  char buf[1024];
  g_autoptr(GError) error = NULL;
  TessDocument *doc = tess_document_new_project(tess_test_path(buf, sizeof buf, "huge.tessera"), &error);
  CHECK(doc != NULL);
  if (!doc) return;
  TessId id = add_big_tileset(doc);
  CHECK(tess_project_tileset(tess_document_get_project(doc), id)->tile_count == 65536);
  fixture_spin();

  gboolean peak_ok = reset_peak();
  long rss0 = status_kb("VmRSS:");
  gint64 t0 = g_get_monotonic_time();
  GtkWindow *win = tess_tileset_collision_window_new(NULL, doc, id);
  gtk_window_present(win);
  TessTilesetCollision *tc = TESS_TILESET_COLLISION(gtk_window_get_child(win));
  GtkWidget *grid = tess_tileset_collision_get_grid(tc);
  gtk_test_widget_wait_for_draw(grid);
  double open_ms = (g_get_monotonic_time() - t0) / 1000.0;
  long peak = status_kb("VmHWM:");
  printf("open: %.0f ms, peak memory +%ld MB over %ld MB before (VmHWM %s)\n", open_ms, (peak - rss0) / 1024,
         rss0 / 1024, peak_ok ? "reset before opening" : "not resettable: since start");
  CHECK_MSG(g_str_has_prefix(tess_tileset_collision_get_summary(tc), "65536 tiles: "), "%s",
            tess_tileset_collision_get_summary(tc));
  /* The tileset's pixels twice (straight for tracing, premultiplied to
   * draw: 64 MB each) and a frame; the whole grid as one surface was 765 MB. */
  if (peak_ok) CHECK_MSG(peak - rss0 < 256 * 1024, "opening took %ld MB", (peak - rss0) / 1024);

  /* A frame paints the tiles in view, not the 65,536. */
  int cw, ch;
  tess_scroll_area_get_content_size(TESS_SCROLL_AREA(grid), &cw, &ch);
  int gw = gtk_widget_get_width(grid), gh = gtk_widget_get_height(grid);
  CHECK_MSG(cw > 10000 && ch > 10000, "content %d x %d", cw, ch);
  CHECK(gw > 0 && gw < cw && gh > 0 && gh < ch);
  guint drawn = tess_tileset_collision_get_drawn_tiles(tc);
  guint in_view = (guint)((gw / (TILE * 3.0 + 6) + 2) * (gh / (TILE * 3.0 + 6) + 2));
  CHECK_MSG(drawn > 0 && drawn <= in_view, "%u tiles drawn, %u in view", drawn, in_view);

  /* Scroll down and across in steps, as a wheel does; the last frame shows the last tile. */
  GtkScrolledWindow *sw = scroller_of(grid);
  CHECK(sw != NULL);
  if (!sw) goto done;
  GtkAdjustment *h = gtk_scrolled_window_get_hadjustment(sw), *v = gtk_scrolled_window_get_vadjustment(sw);
  CHECK(gtk_adjustment_get_upper(v) == ch && gtk_adjustment_get_page_size(v) == gh);
  double worst = 0, total = 0;
  int frames = 20;
  for (int i = 1; i <= frames; i++) {
    gtk_adjustment_set_value(h, (gtk_adjustment_get_upper(h) - gtk_adjustment_get_page_size(h)) * i / frames);
    gtk_adjustment_set_value(v, (gtk_adjustment_get_upper(v) - gtk_adjustment_get_page_size(v)) * i / frames);
    double ms = frame_ms(grid);
    total += ms;
    worst = MAX(worst, ms);
    drawn = tess_tileset_collision_get_drawn_tiles(tc);
    CHECK_MSG(drawn > 0 && drawn <= in_view, "frame %d: %u tiles drawn, %u in view", i, drawn, in_view);
  }
  printf("scrolling: %d frames, %.1f ms a frame on average, %.1f ms at worst\n", frames, total / frames, worst);

  /* The last frame, to be looked at (beside the journeys' screenshots). */
  const char *root = g_getenv("TESS_BUILD_ROOT");
  if (root) {
    cairo_surface_t *shot = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, gw, gh);
    cairo_t *cr = cairo_create(shot);
    tess_scroll_area_draw_view(TESS_SCROLL_AREA(grid), cr);
    cairo_destroy(cr);
    g_autofree char *dir = g_build_filename(root, "meson-logs", "journeys", NULL);
    g_autofree char *png = g_build_filename(dir, "tileset-collision-big-end.png", NULL);
    g_mkdir_with_parents(dir, 0755);
    CHECK(cairo_surface_write_to_png(shot, png) == CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(shot);
  }

  /* A click on the last tile, at the bottom-right corner of the view, selects it. */
  GListModel *controllers = gtk_widget_observe_controllers(grid);
  for (guint i = 0; i < g_list_model_get_n_items(controllers); i++) {
    GtkEventController *c = g_list_model_get_item(controllers, i);
    if (GTK_IS_GESTURE_CLICK(c)) g_signal_emit_by_name(c, "pressed", 1, (double)gw - 6 - TILE * 1.5, (double)gh - 6 - TILE * 1.5);
    g_object_unref(c);
  }
  g_object_unref(controllers);
  CHECK_MSG(tess_tileset_collision_get_selected_tile(tc) == 65535, "selected tile %u",
            tess_tileset_collision_get_selected_tile(tc));
done:
  gtk_window_destroy(win);
  fixture_spin();
  g_object_unref(doc);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(big_tileset_opens_and_scrolls)};
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
