/* Long work off the UI thread (issue 14): Trace All on a big tileset and
 * the import of a 4096² sprite run on a worker. Under Xvfb, against the
 * real tess-editor library: the main loop keeps iterating while the work
 * runs (a 5 ms timer ticks), Cancel leaves the project (and its file)
 * unchanged, and the result equals the synchronous call's. */
#include <string.h>

#include "editor_fixture.h"
#include "tess-sprite-panel.h"
#include "tess-tileset-collision.h"
#include "tessera/image.h"

/* ---- Fixtures ---------------------------------------------------------------- */

/* Discs of growing radius with sparse noise, so every tile traces into
 * pieces: side x side pixels. */
static void fill_art(TessImage *img, uint32_t tile) {
  uint32_t seed = 7;
  for (uint32_t y = 0; y < img->height; y++)
    for (uint32_t x = 0; x < img->width; x++) {
      seed = seed * 1664525u + 1013904223u;
      uint32_t t = (y / tile) * (img->width / tile) + x / tile;
      double cx = x % tile + 0.5 - tile / 2.0, cy = y % tile + 0.5 - tile / 2.0, r = tile * (0.15 + 0.04 * (t % 8));
      uint8_t *p = img->pixels + (size_t)y * img->stride + 4 * (size_t)x;
      p[0] = (uint8_t)x, p[1] = (uint8_t)y, p[2] = 90;
      p[3] = cx * cx + cy * cy <= r * r || (seed >> 27) == 0 ? 255 : 0;
    }
}

/* A side x side tileset of 64 px tiles, every tile full (as added). (Its
 * grid is drawn whole at 1:1: with 16 px tiles the drawing, at 3:1, would
 * take longer than the trace.) */
static TessId add_big_tileset(TessDocument *doc, uint32_t side) {
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(side, side, &img, &err), &err);
  fill_art(&img, 64);
  uint8_t *bytes = NULL;
  size_t size = 0;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &bytes, &size, &err), &err);
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "big";
  def.png = bytes;
  def.png_size = size;
  def.image_w = def.image_h = side;
  def.tile_w = def.tile_h = 64;
  def.default_collision = TESS_TILE_COLLISION_FULL;
  TessId id = 0;
  CHECK_OK(tess_edit_tileset_add(tess_document_get_project(doc), &def, &id, &err), &err);
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_commit(doc, &error));
  tess_free(bytes);
  tess_image_clear(&img);
  return id;
}

static gboolean same_tiles(const TessTileset *a, const TessTileset *b) {
  if (a->tile_count != b->tile_count || a->alpha_threshold != b->alpha_threshold) return FALSE;
  for (uint32_t i = 0; i < a->tile_count; i++) {
    const TessTileInfo *x = &a->tiles[i], *y = &b->tiles[i];
    if (x->collision != y->collision || x->one_way != y->one_way || x->piece_count != y->piece_count) return FALSE;
    if (x->piece_count && memcmp(x->pieces, y->pieces, sizeof *x->pieces * x->piece_count) != 0) return FALSE;
  }
  return TRUE;
}

/* A 5 ms timer on the main loop: how often it ran and its longest gap. */
typedef struct Ticker {
  guint ticks;
  gint64 last, longest_gap;
} Ticker;

static gboolean on_tick(gpointer data) {
  Ticker *t = data;
  gint64 now = g_get_monotonic_time();
  if (t->last) t->longest_gap = MAX(t->longest_gap, now - t->last);
  t->last = now;
  t->ticks++;
  return G_SOURCE_CONTINUE;
}

typedef struct Outcome {
  gboolean done, ok;
  guint count;
  GError *error;
} Outcome;

static void on_traced(GObject *source, GAsyncResult *result, gpointer data) {
  Outcome *o = data;
  o->ok = tess_tileset_collision_trace_all_finish(TESS_TILESET_COLLISION(source), result, &o->error);
  o->done = TRUE;
}

static void on_imported(GObject *source, GAsyncResult *result, gpointer data) {
  Outcome *o = data;
  o->count = tess_sprite_panel_import_finish(TESS_SPRITE_PANEL(source), result, &o->error);
  o->ok = o->count > 0;
  o->done = TRUE;
}

/* ---- Trace All --------------------------------------------------------------- */

/* A 2048² tileset (1024 tiles of 64 px): the synchronous trace first (the reference),
 * undone; then Trace All on the worker while a 5 ms timer keeps ticking; the
 * stored tiles equal the reference's, in one undo step, and in the file. */
static void workers_trace_all_keeps_the_loop_running(void) {
  TessDocument *doc = fixture_new_document("trace-live.tessera");
  TessProject *p = tess_document_get_project(doc);
  TessId id = add_big_tileset(doc, 2048);
  TessTilesetCollision *tc = TESS_TILESET_COLLISION(tess_tileset_collision_new());
  GtkWindow *win = fixture_host(GTK_WIDGET(tc), 900, 600);
  tess_tileset_collision_set_document(tc, doc);
  CHECK(tess_tileset_collision_get_tileset(tc) == id);
  TessTileset as_added, reference;
  CHECK(tess_tileset_copy(&as_added, tess_project_tileset(p, id)) == TESS_OK);

  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time();
  CHECK(tess_tileset_collision_trace_all(tc, &error));
  gint64 sync_us = g_get_monotonic_time() - t0;
  CHECK(tess_tileset_copy(&reference, tess_project_tileset(p, id)) == TESS_OK);
  guint traced = 0;
  for (uint32_t i = 0; i < reference.tile_count; i++) traced += reference.tiles[i].collision == TESS_TILE_COLLISION_TRACED;
  CHECK(traced > reference.tile_count / 2);
  CHECK(tess_document_undo(doc, &error));
  CHECK(same_tiles(tess_project_tileset(p, id), &as_added));
  fixture_spin();

  /* The worker is held part-way through (the test hook), so the checks
   * below see a trace in progress however loaded the machine is; a trace
   * on the UI thread would never let the loop run while it is held. */
  tess_tileset_collision_set_trace_hold(tc, TRUE);
  Ticker ticker = {0};
  guint timer = g_timeout_add(5, on_tick, &ticker);
  Outcome o = {0};
  t0 = g_get_monotonic_time();
  tess_tileset_collision_trace_all_async(tc, NULL, on_traced, &o);
  CHECK(tess_tileset_collision_is_tracing(tc));
  gboolean tracing = FALSE;
  g_object_get(tc, "tracing", &tracing, NULL); /* the progress row and the button are bound to it */
  CHECK(tracing);
  CHECK(same_tiles(tess_project_tileset(p, id), &as_added)); /* nothing is applied before the result is back */
  /* Mid-trace: the progress bar shows part of the tiles traced, and the
   * loop keeps ticking while the worker stays there. */
  double seen_progress = 0;
  while (!o.done && !(seen_progress > 0 && seen_progress < 1)) {
    g_main_context_iteration(NULL, TRUE);
    seen_progress = tess_tileset_collision_get_trace_progress(tc);
  }
  guint ticks_before = ticker.ticks;
  while (!o.done && ticker.ticks < ticks_before + 3) g_main_context_iteration(NULL, TRUE);
  CHECK_MSG(!o.done && seen_progress > 0 && seen_progress < 1, "the trace %s at progress %.3f",
            o.done ? "ended" : "was not seen", seen_progress);
  CHECK(same_tiles(tess_project_tileset(p, id), &as_added));
  tess_tileset_collision_set_trace_hold(tc, FALSE);
  while (!o.done) g_main_context_iteration(NULL, TRUE);
  gint64 async_us = g_get_monotonic_time() - t0;
  g_source_remove(timer);
  CHECK_MSG(o.ok, "%s", o.error ? o.error->message : "?");
  g_test_message("trace: synchronous %.0f ms; on the worker %.0f ms (held part-way), %u ticks, longest gap %.0f ms",
                 sync_us / 1e3, async_us / 1e3, ticker.ticks, ticker.longest_gap / 1e3);
  CHECK(!tess_tileset_collision_is_tracing(tc));
  g_object_get(tc, "tracing", &tracing, NULL);
  CHECK(!tracing);
  CHECK(same_tiles(tess_project_tileset(p, id), &reference));
  TessProject *disk = fixture_load(tess_document_get_path(doc));
  CHECK(disk && same_tiles(tess_project_tileset(disk, id), &reference));
  if (disk) tess_project_destroy(disk);
  CHECK(tess_document_undo(doc, &error)); /* one step */
  CHECK(same_tiles(tess_project_tileset(p, id), &as_added));

  tess_tileset_clear(&as_added);
  tess_tileset_clear(&reference);
  g_clear_error(&o.error);
  gtk_window_destroy(win);
  fixture_spin();
  g_object_unref(doc);
}

/* Cancel (the progress row's button) while the worker traces, and Cancel
 * before it starts: G_IO_ERROR_CANCELLED, the tileset as it was, no undo
 * step, the file unchanged. */
static void workers_trace_cancel_leaves_the_project(void) {
  TessDocument *doc = fixture_new_document("trace-cancel.tessera");
  TessProject *p = tess_document_get_project(doc);
  TessId id = add_big_tileset(doc, 2048);
  TessTilesetCollision *tc = TESS_TILESET_COLLISION(tess_tileset_collision_new());
  GtkWindow *win = fixture_host(GTK_WIDGET(tc), 900, 600);
  tess_tileset_collision_set_document(tc, doc);
  TessTileset as_added;
  CHECK(tess_tileset_copy(&as_added, tess_project_tileset(p, id)) == TESS_OK);
  gboolean could_undo = tess_project_can_undo(p);

  for (int when = 0; when < 2; when++) {
    Outcome o = {0};
    /* Mid-trace: the worker is held part-way (the test hook) until Cancel,
     * so the press lands while tiles are being traced, whatever the load. */
    tess_tileset_collision_set_trace_hold(tc, when == 1);
    tess_tileset_collision_trace_all_async(tc, NULL, on_traced, &o);
    if (when == 0) tess_tileset_collision_cancel_trace(tc);
    double at = 0;
    while (!o.done) {
      g_main_context_iteration(NULL, TRUE);
      double f = tess_tileset_collision_get_trace_progress(tc);
      if (when == 1 && !at && f > 0 && f < 1) {
        at = f;
        tess_tileset_collision_cancel_trace(tc);
      }
    }
    tess_tileset_collision_set_trace_hold(tc, FALSE);
    CHECK_MSG(!o.ok && g_error_matches(o.error, G_IO_ERROR, G_IO_ERROR_CANCELLED), "case %d: %s (cancelled at %.2f)",
              when, o.error ? o.error->message : "traced", at);
    g_clear_error(&o.error);
    CHECK(!tess_tileset_collision_is_tracing(tc));
    CHECK(same_tiles(tess_project_tileset(p, id), &as_added));
    CHECK(tess_project_can_undo(p) == could_undo);
  }
  fixture_spin();
  TessProject *disk = fixture_load(tess_document_get_path(doc));
  CHECK(disk && same_tiles(tess_project_tileset(disk, id), &as_added));
  if (disk) tess_project_destroy(disk);
  /* The window is ready for the next trace. */
  Outcome o = {0};
  tess_tileset_collision_trace_all_async(tc, NULL, on_traced, &o);
  while (!o.done) g_main_context_iteration(NULL, TRUE);
  CHECK(o.ok && !same_tiles(tess_project_tileset(p, id), &as_added));

  tess_tileset_clear(&as_added);
  gtk_window_destroy(win);
  fixture_spin();
  g_object_unref(doc);
}

/* ---- Sprite import ------------------------------------------------------------ */

static char *write_big_sprite(const char *name, uint32_t side) {
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(side, side, &img, &err), &err);
  fill_art(&img, side / 4);
  char buf[1024];
  char *path = g_strdup(tess_test_path(buf, sizeof buf, name));
  CHECK_OK(tess_png_save(tess_image_view(&img), path, &err), &err);
  tess_image_clear(&img);
  return path;
}

static gboolean same_sprite(const TessSprite *a, const TessSprite *b) {
  return strcmp(a->name, b->name) == 0 && a->png_size == b->png_size && memcmp(a->png, b->png, a->png_size) == 0 &&
         a->image_w == b->image_w && a->mask.area == b->mask.area && a->mask.hull_count == b->mask.hull_count &&
         memcmp(a->mask.hull, b->mask.hull, sizeof *a->mask.hull * a->mask.hull_count) == 0 &&
         a->mask.piece_count == b->mask.piece_count &&
         (!a->mask.piece_count || memcmp(a->mask.pieces, b->mask.pieces, sizeof *a->mask.pieces * a->mask.piece_count) == 0);
}

static gboolean cancel_import_soon(gpointer data) {
  tess_sprite_panel_cancel_import(data);
  return G_SOURCE_REMOVE;
}

/* A 4096² sprite: imported synchronously into one project (the reference)
 * and on the worker into another while the timer ticks; the sprites are
 * equal. Cancelled, the other project stays without sprites, on disk too. */
static void workers_import_big_sprite(void) {
  g_autofree char *png = write_big_sprite("huge.png", 4096);
  GSList *files = g_slist_prepend(NULL, g_file_new_for_path(png));

  TessDocument *sync_doc = fixture_new_document("import-sync.tessera");
  TessSpritePanel *sync_panel = TESS_SPRITE_PANEL(g_object_ref_sink(tess_sprite_panel_new()));
  tess_sprite_panel_set_document(sync_panel, sync_doc);
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time();
  CHECK(tess_sprite_panel_import(sync_panel, files, &error) == 1);
  gint64 sync_us = g_get_monotonic_time() - t0;
  const TessSprite *reference = tess_project_sprite(tess_document_get_project(sync_doc), tess_sprite_panel_get_selected(sync_panel));
  CHECK(reference && reference->image_w == 4096 && reference->mask.area > 0);

  TessDocument *doc = fixture_new_document("import-async.tessera");
  TessProject *p = tess_document_get_project(doc);
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_sprite_panel_new());
  GtkWindow *win = fixture_host(GTK_WIDGET(panel), 320, 600);
  tess_sprite_panel_set_document(panel, doc);

  /* Cancelled at once, then mid-way: nothing added. */
  for (int when = 0; when < 2; when++) {
    Outcome o = {0};
    tess_sprite_panel_import_async(panel, files, NULL, on_imported, &o);
    CHECK(tess_sprite_panel_is_importing(panel));
    if (when == 0) tess_sprite_panel_cancel_import(panel);
    else g_timeout_add(30, cancel_import_soon, panel); /* mid-way: reading or decoding */
    while (!o.done) g_main_context_iteration(NULL, TRUE);
    CHECK(o.count == 0 && g_error_matches(o.error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
    g_clear_error(&o.error);
    CHECK(p->sprite_count == 0 && !tess_project_can_undo(p));
  }
  TessProject *disk = fixture_load(tess_document_get_path(doc));
  CHECK(disk && disk->sprite_count == 0);
  if (disk) tess_project_destroy(disk);

  Ticker ticker = {0};
  guint timer = g_timeout_add(5, on_tick, &ticker);
  Outcome o = {0};
  t0 = g_get_monotonic_time();
  tess_sprite_panel_import_async(panel, files, NULL, on_imported, &o);
  CHECK(p->sprite_count == 0);
  while (!o.done) g_main_context_iteration(NULL, TRUE);
  gint64 async_us = g_get_monotonic_time() - t0;
  g_source_remove(timer);
  g_test_message("import: synchronous %.0f ms; on the worker %.0f ms, %u ticks, longest gap %.0f ms", sync_us / 1e3,
                 async_us / 1e3, ticker.ticks, ticker.longest_gap / 1e3);
  CHECK_MSG(o.count == 1, "%s", o.error ? o.error->message : "?");
  CHECK_MSG(ticker.ticks >= 3 && ticker.longest_gap < async_us, "%u ticks, gap %lld of %lld us", ticker.ticks,
            (long long)ticker.longest_gap, (long long)async_us);
  const TessSprite *sp = tess_project_sprite(p, tess_sprite_panel_get_selected(panel));
  CHECK(sp && same_sprite(sp, reference));
  fixture_spin();
  CHECK(tess_sprite_panel_get_row_count(panel) == 1);

  g_slist_free_full(files, g_object_unref);
  gtk_window_destroy(win);
  fixture_spin();
  g_object_unref(sync_panel);
  g_object_unref(sync_doc);
  g_object_unref(doc);
}

static const TessTestCase cases[] = {
    {"workers_trace_all_keeps_the_loop_running", workers_trace_all_keeps_the_loop_running},
    {"workers_trace_cancel_leaves_the_project", workers_trace_cancel_leaves_the_project},
    {"workers_import_big_sprite", workers_import_big_sprite},
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
