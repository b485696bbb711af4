/* Widget tests of the sprite panel, the collision mask editor and the
 * tileset collision editor, under Xvfb, against the real tess-editor
 * library. Each case checks the project in memory AND the project file
 * (reopened with core/store as another process would), and undo. */
#include <math.h>
#include <string.h>

#include "editor_fixture.h"
#include "tess-mask-editor.h"
#include "tess-mask-view.h"
#include "tess-object-inspector.h"
#include "tess-sprite-panel.h"
#include "tess-tile-palette.h"
#include "tess-tileset-collision.h"
#include "tessera/image.h"
#include "tessera/mask.h"
#include "tess-map-view-test.h"
#include "tess-map-view.h"

/* ---- Fixtures ---------------------------------------------------------------- */

static void put(TessImage *img, uint32_t x, uint32_t y, uint8_t a) {
  uint8_t *p = img->pixels + (size_t)y * img->stride + 4 * (size_t)x;
  p[0] = 60, p[1] = 140, p[2] = 220, p[3] = a;
}

/* A 96 x 64 sprite: an opaque 40 x 20 block at (10, 10) and a faint
 * (alpha 100) 20 x 20 block at (60, 30). Threshold 1 sees both (1200 px^2);
 * threshold 128 only the opaque block (800 px^2, centroid (30, 20)). */
static void sprite_image(TessImage *img) {
  TessError err = {0};
  CHECK_OK(tess_image_create(96, 64, img, &err), &err);
  for (uint32_t y = 10; y < 30; y++)
    for (uint32_t x = 10; x < 50; x++) put(img, x, y, 255);
  for (uint32_t y = 30; y < 50; y++)
    for (uint32_t x = 60; x < 80; x++) put(img, x, y, 100);
}

/* That sprite as a PNG file tmpdir/name: its path (g_free it). */
static char *write_sprite_png(const char *name) {
  TessImage img;
  TessError err = {0};
  sprite_image(&img);
  char buf[1024];
  char *path = g_strdup(tess_test_path(buf, sizeof buf, name));
  CHECK_OK(tess_png_save(tess_image_view(&img), path, &err), &err);
  tess_image_clear(&img);
  return path;
}

static void close_host(GtkWindow *win) {
  gtk_window_destroy(win);
  fixture_spin();
}

static TessId import_sprite(TessSpritePanel *panel, const char *png) {
  GFile *file = g_file_new_for_path(png);
  GSList *files = g_slist_prepend(NULL, file);
  g_autoptr(GError) error = NULL;
  guint n = tess_sprite_panel_import(panel, files, &error);
  g_slist_free_full(files, g_object_unref);
  CHECK(n == 1 && error == NULL);
  return tess_sprite_panel_get_selected(panel);
}

/* A new project tmpdir/project with the sprite at `png` imported through a
 * sprite panel (kept until bench_close) and, when `with_editor` is set, a mask
 * editor on that sprite in a 1000 x 660 window of its own: the mask editor
 * tests' starting point. */
typedef struct MaskBench {
  TessDocument *doc;
  TessProject *p;
  TessSpritePanel *panel;
  TessId id;
  TessMaskEditor *editor; /* NULL without `with_editor` */
  GtkWindow *win;         /* the editor's window; NULL once a test closed it itself */
} MaskBench;

static MaskBench bench_open(const char *project, const char *png, gboolean with_editor) {
  MaskBench b = {0};
  b.doc = fixture_new_document(project);
  b.p = tess_document_get_project(b.doc);
  b.panel = TESS_SPRITE_PANEL(tess_sprite_panel_new());
  g_object_ref_sink(b.panel);
  tess_sprite_panel_set_document(b.panel, b.doc);
  b.id = import_sprite(b.panel, png);
  if (with_editor) {
    b.editor = TESS_MASK_EDITOR(tess_mask_editor_new());
    b.win = fixture_host(GTK_WIDGET(b.editor), 1000, 660);
    tess_mask_editor_set_document(b.editor, b.doc);
    tess_mask_editor_set_sprite(b.editor, b.id);
  }
  return b;
}

static void bench_close(MaskBench *b) {
  if (b->win) close_host(b->win);
  g_object_unref(b->panel);
  g_object_unref(b->doc);
}

static void on_committed(TessDocument *doc, gboolean *flag) { *flag = TRUE; }

/* Waits for a commit watched from before the edits (so a commit that came
 * early, on a loaded machine, still counts). */
static void wait_commit(TessDocument *doc, gboolean *committed, gulong handler) {
  CHECK(fixture_wait(committed, 3000)); /* the editor commits shortly after the last change */
  g_signal_handler_disconnect(doc, handler);
}

/* ---- Cases --------------------------------------------------------------------- */

/* Import stores the PNG with its source path and a traced mask; the list shows it. */
static void sprites_import(void) {
  TessDocument *doc = fixture_new_document("import.tessera");
  g_autofree char *png = write_sprite_png("crate.png");
  g_autofree char *bad = g_build_filename(tess_test_tmpdir(), "empty.png", NULL);
  {
    TessImage img;
    TessError err = {0};
    CHECK_OK(tess_image_create(8, 8, &img, &err), &err); /* fully transparent */
    CHECK_OK(tess_png_save(tess_image_view(&img), bad, &err), &err);
    tess_image_clear(&img);
  }
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_sprite_panel_new());
  GtkWindow *win = fixture_host(GTK_WIDGET(panel), 320, 600);
  tess_sprite_panel_set_document(panel, doc);
  CHECK(tess_sprite_panel_get_row_count(panel) == 0);

  /* Two files in one drop: the good one imported, the transparent one refused with the reason. */
  GSList *files = g_slist_append(NULL, g_file_new_for_path(png));
  files = g_slist_append(files, g_file_new_for_path(bad));
  g_autoptr(GError) error = NULL;
  CHECK(tess_sprite_panel_import(panel, files, &error) == 1);
  g_slist_free_full(files, g_object_unref);
  CHECK_MSG(error != NULL && strcmp(error->message,
                                    "“empty.png” was not imported: it has no pixel with an alpha of 1 or "
                                    "more to trace a collision mask from. Give the image opaque "
                                    "pixels, then import it again.") == 0,
            "%s", error ? error->message : "no error");
  fixture_spin();
  CHECK(tess_sprite_panel_get_row_count(panel) == 1);
  TessProject *p = tess_document_get_project(doc);
  CHECK(p->sprite_count == 1);
  TessId id = tess_sprite_panel_get_selected(panel);
  const TessSprite *sp = tess_project_sprite(p, id);
  CHECK(sp && strcmp(sp->name, "crate") == 0 && sp->source_path && strcmp(sp->source_path, png) == 0);
  CHECK(sp && sp->image_w == 96 && sp->image_h == 64 && sp->frame_count == 1);
  CHECK(sp && sp->mask.hull_count >= 4 && sp->mask.area == 1200.0);

  /* A drop of a PNG on the panel, as the drop target hands it over. */
  g_autofree char *dropped = write_sprite_png("dropped.png");
  {
    GFile *file = g_file_new_for_path(dropped);
    GdkFileList *list = gdk_file_list_new_from_array(&file, 1);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, GDK_TYPE_FILE_LIST);
    g_value_take_boxed(&value, list);
    gboolean handled = FALSE;
    g_signal_emit_by_name(tess_sprite_panel_get_drop_target(panel), "drop", &value, 20.0, 20.0, &handled);
    g_value_unset(&value);
    g_object_unref(file);
    CHECK(handled);
    /* A drop imports on a worker: nothing is added until it is back. */
    for (int i = 0; i < 5000 && tess_sprite_panel_is_importing(panel); i++) {
      fixture_spin();
      g_usleep(1000);
    }
    CHECK(!tess_sprite_panel_is_importing(panel));
    CHECK(p->sprite_count == 2 && tess_sprite_panel_get_row_count(panel) == 2);
    const TessSprite *d = tess_project_sprite(p, tess_sprite_panel_get_selected(panel));
    CHECK(d && strcmp(d->name, "dropped") == 0 && strcmp(d->source_path, dropped) == 0);
    tess_sprite_panel_select(panel, id);
    CHECK(tess_sprite_panel_get_selected(panel) == id);
  }

  /* Anchor and frame strip: one undoable edit each, on disk. */
  CHECK(tess_sprite_panel_set_anchor(panel, 12.5f, 40.0f));
  gtk_spin_button_set_value(tess_sprite_panel_get_spin(panel, "fps"), 8.0);
  fixture_spin();
  sp = tess_project_sprite(p, id);
  CHECK(sp->anchor.x == 12.5f && sp->anchor.y == 40.0f && sp->frame_rate == 8.0f);
  /* Two frames of 48 px: the mask is traced again on the first frame (the
   * opaque block's columns 10..47: 38 x 20). */
  gtk_spin_button_set_value(tess_sprite_panel_get_spin(panel, "frames"), 2);
  fixture_spin();
  sp = tess_project_sprite(p, id);
  CHECK(sp->frame_count == 2 && sp->mask.area == 760.0);

  /* Double-click (activation) on the row opens the collision mask window. */
  {
    GtkListBoxRow *row = NULL;
    GListModel *tops = gtk_window_get_toplevels();
    guint before = g_list_model_get_n_items(tops);
    /* The sprite's row, somewhere under the panel. */
    GtkWidget *stack[64];
    int n = 0;
    stack[n++] = GTK_WIDGET(panel);
    while (n > 0 && !row) {
      GtkWidget *w = stack[--n];
      if (GTK_IS_LIST_BOX_ROW(w) && GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(w), "sprite")) == id) row = GTK_LIST_BOX_ROW(w);
      for (GtkWidget *c = gtk_widget_get_first_child(w); c && n < 64; c = gtk_widget_get_next_sibling(c)) stack[n++] = c;
    }
    CHECK(row != NULL);
    if (row) g_signal_emit_by_name(row, "activate");
    fixture_spin();
    CHECK(g_list_model_get_n_items(tops) == before + 1);
    for (guint i = 0; i < g_list_model_get_n_items(tops); i++) {
      GtkWindow *t = g_list_model_get_item(tops, i);
      if (g_strcmp0(gtk_window_get_title(t), "Collision Mask — crate") == 0) {
        CHECK(tess_mask_editor_get_sprite(TESS_MASK_EDITOR(gtk_window_get_child(t))) == id);
        gtk_window_destroy(t);
      }
      g_object_unref(t);
    }
    fixture_spin();
    CHECK(g_list_model_get_n_items(tops) == before);
  }

  /* The body the object tool places. */
  tess_sprite_panel_set_body_type(panel, TESS_BODY_STATIC);
  const TessObject *tmpl = tess_sprite_panel_get_template(panel);
  CHECK(tmpl && tmpl->kind == TESS_OBJECT_BODY && tmpl->u.body.shape == TESS_BODY_SPRITE &&
        tmpl->u.body.sprite == id && tmpl->u.body.type == TESS_BODY_STATIC);

  TessProject *disk = fixture_load(tess_document_get_path(doc));
  const TessSprite *ds = disk ? tess_project_sprite(disk, id) : NULL;
  CHECK(ds && ds->png_size == sp->png_size && memcmp(ds->png, sp->png, sp->png_size) == 0);
  CHECK(ds && ds->anchor.x == 12.5f && ds->frame_count == 2 && ds->frame_rate == 8.0f && ds->mask.area == 760.0);
  CHECK(ds && ds->source_path && strcmp(ds->source_path, png) == 0);
  if (disk) tess_project_destroy(disk);

  /* Undo the frames, then the frame rate. */
  g_autoptr(GError) e2 = NULL;
  CHECK(tess_document_undo(doc, &e2));
  fixture_spin();
  sp = tess_project_sprite(p, id);
  CHECK(sp->frame_count == 1 && sp->mask.area == 1200.0);
  CHECK(tess_document_undo(doc, &e2));
  sp = tess_project_sprite(p, id);
  CHECK(sp->frame_rate == 0.0f);

  close_host(win);
  g_object_unref(doc);
}

/* The threshold slider moved as a user would: the overlay and readouts
 * follow each value, the project and the file get the mask, and the whole
 * drag is one undo step. */
static void sprites_threshold_drag(void) {
  g_autofree char *png = write_sprite_png("block.png");
  MaskBench b = bench_open("threshold.tessera", png, TRUE);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_AREA), "1200 px²") == 0);
  CHECK(gtk_range_get_value(tess_mask_editor_get_threshold(b.editor)) == 1.0);

  gboolean committed = FALSE;
  gulong watch = g_signal_connect(b.doc, "committed", G_CALLBACK(on_committed), &committed);
  /* The drag: many values in quick succession. */
  GtkRange *range = tess_mask_editor_get_threshold(b.editor);
  const double steps[] = {20, 60, 99, 100, 101, 140};
  for (size_t i = 0; i < G_N_ELEMENTS(steps); i++) {
    gtk_range_set_value(range, steps[i]);
    const TessSpriteMask *m = tess_mask_editor_get_mask(b.editor);
    CHECK(m->threshold == (uint8_t)steps[i]);
    CHECK(m->area == (steps[i] <= 100 ? 1200.0 : 800.0));                       /* the overlay's mask follows each value */
    CHECK(tess_project_sprite(b.p, b.id)->mask.threshold == (uint8_t)steps[i]); /* and the project too */
  }
  const TessSpriteMask *m = tess_mask_editor_get_mask(b.editor);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_AREA), "800 px²") == 0);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_CENTROID), "30.00, 20.00 px") == 0);
  /* A 40 x 20 block: inertia A (w^2 + h^2) / 12 about its centre. */
  CHECK_NEAR(m->inertia, 800.0 * (1600.0 + 400.0) / 12.0, 1e-6);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_INERTIA), "133333 px⁴") == 0);
  /* Simplified hull of a block: the block itself, nothing added. */
  CHECK(m->mode == TESS_MASK_SIMPLIFIED && m->piece_count == 1 && m->pieces[0].count == 4);
  CHECK_NEAR(m->added_area, 0.0, 1e-6);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_VERTICES), "4 in 1 piece") == 0);
  /* The principal axis of a wide block is horizontal. */
  CHECK(g_str_has_prefix(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_AXES), "0.0°") ||
        g_str_has_prefix(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_AXES), "-0.0°"));

  /* SI for the chosen level and material. */
  TessError err = {0};
  const TessLevel *level = b.p->levels[0];
  const TessMaterial *mat = &b.p->materials[0];
  double kg, kgm2;
  tess_mask_editor_get_si(b.editor, &kg, &kgm2);
  double ppm = level->settings.ppm;
  CHECK_REL(kg, mat->density * 800.0 / (ppm * ppm), 1e-12);
  CHECK_REL(kgm2, mat->density * m->inertia / (ppm * ppm * ppm * ppm), 1e-12);
  g_autofree char *expect_kg = g_strdup_printf("%.6g kg", kg);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_MASS), expect_kg) == 0);

  /* Committed shortly after the drag: the file holds the mask. */
  wait_commit(b.doc, &committed, watch);
  TessProject *disk = fixture_load(tess_document_get_path(b.doc));
  const TessSprite *ds = disk ? tess_project_sprite(disk, b.id) : NULL;
  CHECK(ds && ds->mask.threshold == 140 && ds->mask.area == 800.0 && ds->mask.piece_count == 1);
  CHECK(ds && ds->mask.hull_count == tess_project_sprite(b.p, b.id)->mask.hull_count);
  if (disk) tess_project_destroy(disk);

  /* Another panel doubles the material's density: the mass readout follows. */
  TessMaterial heavier = *mat;
  heavier.density *= 2.0f;
  CHECK_OK(tess_edit_material_set(b.p, &heavier, 0, &err), &err);
  fixture_spin();
  double kg2, kgm22;
  tess_mask_editor_get_si(b.editor, &kg2, &kgm22);
  CHECK_REL(kg2, 2.0 * kg, 1e-6);
  g_autofree char *expect_kg2 = g_strdup_printf("%.6g kg", kg2);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_MASS), expect_kg2) == 0);
  CHECK(tess_document_undo(b.doc, NULL)); /* back to the drag as the last step */
  fixture_spin();

  /* One undo step for the whole drag. */
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_undo(b.doc, &error));
  CHECK(tess_project_sprite(b.p, b.id)->mask.threshold == 1);
  CHECK(tess_project_sprite(b.p, b.id)->mask.area == 1200.0);
  fixture_spin(); /* the editor reads the undo back */
  CHECK(gtk_range_get_value(range) == 1.0);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_AREA), "1200 px²") == 0);
  disk = fixture_load(tess_document_get_path(b.doc));
  ds = disk ? tess_project_sprite(disk, b.id) : NULL;
  CHECK(ds && ds->mask.threshold == 1 && ds->mask.area == 1200.0);
  if (disk) tess_project_destroy(disk);

  /* Mode pieces: two islands at threshold 1, two pieces or more, nothing uncovered for blocks. */
  gtk_drop_down_set_selected(tess_mask_editor_get_mode(b.editor), TESS_MASK_PIECES);
  m = tess_mask_editor_get_mask(b.editor);
  CHECK(m->mode == TESS_MASK_PIECES && m->piece_count >= 2);
  CHECK_NEAR(m->uncovered_area, 0.0, 1e-6);
  CHECK_NEAR(m->shape_area, 1200.0, 1e-6);

  bench_close(&b);
}

static void spin_for(guint ms) {
  gint64 end = g_get_monotonic_time() + (gint64)ms * 1000;
  while (g_get_monotonic_time() < end)
    if (!g_main_context_iteration(NULL, FALSE)) g_usleep(2000);
}

/* Spins the main loop until cond(data) holds, for at most ms: a test waits
 * for what it needs, however loaded the machine is, and no longer. */
static gboolean spin_until(gboolean (*cond)(gpointer), gpointer data, guint ms) {
  gint64 end = g_get_monotonic_time() + (gint64)ms * 1000;
  while (!cond(data)) {
    if (g_get_monotonic_time() >= end) return FALSE;
    if (!g_main_context_iteration(NULL, FALSE)) g_usleep(2000);
  }
  return TRUE;
}

static gboolean xdotool(const char *args) {
  g_autofree char *cmd = g_strdup_printf("xdotool %s", args);
  int status = 0;
  return g_spawn_command_line_sync(cmd, NULL, NULL, &status, NULL) && g_spawn_check_wait_status(status, NULL);
}

/* A real pointer drag on the slider (xdotool), slow, with a pause longer
 * than the keyboard merge window in the middle: still one undo step,
 * committed at the release. */
static void sprites_slider_pointer_drag(void) {
  if (!fixture_have_program("xdotool")) {
    printf("xdotool is missing: the pointer drag is not checked\n");
    return;
  }
  g_autofree char *png = write_sprite_png("pointer.png");
  MaskBench b = bench_open("pointer.tessera", png, TRUE);
  gtk_window_set_title(b.win, "sprites-pointer-drag");
  spin_for(200);

  GtkWidget *scale = GTK_WIDGET(tess_mask_editor_get_threshold(b.editor));
  graphene_rect_t bounds;
  CHECK(gtk_widget_compute_bounds(scale, GTK_WIDGET(b.win), &bounds));
  double sx = 0, sy = 0;
  gtk_native_get_surface_transform(GTK_NATIVE(b.win), &sx, &sy);
  /* The knob sits at the trough's left end at value 1. */
  int x0 = (int)(sx + bounds.origin.x + 10), y = (int)(sy + bounds.origin.y + bounds.size.height / 2);
  char args[256];
  g_autofree char *wid = NULL;
  CHECK(g_spawn_command_line_sync("xdotool search --name ^sprites-pointer-drag$", &wid, NULL, NULL, NULL) && wid && *wid);
  if (!wid || !*wid) goto done;
  g_strstrip(wid);
  char *nl = strchr(wid, '\n');
  if (nl) *nl = '\0';
  snprintf(args, sizeof args, "mousemove --window %s %d %d mousedown 1", wid, x0, y);
  CHECK(xdotool(args));
  spin_for(150);
  int steps = 0;
  for (int i = 1; i <= 6; i++) {
    snprintf(args, sizeof args, "mousemove --window %s %d %d", wid, x0 + i * 25, y);
    CHECK(xdotool(args));
    spin_for(i == 3 ? TESS_MASK_EDITOR_MERGE_MS + 300 : 150); /* a pause mid-drag */
    steps++;
  }
  const TessSpriteMask *m = tess_mask_editor_get_mask(b.editor);
  uint8_t dragged = m->threshold;
  CHECK(dragged > 1);
  CHECK(tess_project_sprite(b.p, b.id)->mask.threshold == dragged);
  gboolean committed = FALSE;
  gulong h = g_signal_connect(b.doc, "committed", G_CALLBACK(on_committed), &committed);
  CHECK(xdotool("mouseup 1"));
  CHECK(fixture_wait(&committed, 2000)); /* the release commits at once */
  g_signal_handler_disconnect(b.doc, h);
  TessProject *disk = fixture_load(tess_document_get_path(b.doc));
  CHECK(disk && tess_project_sprite(disk, b.id)->mask.threshold == dragged);
  if (disk) tess_project_destroy(disk);

  GError *error = NULL;
  CHECK(tess_document_undo(b.doc, &error));
  g_clear_error(&error);
  CHECK(tess_project_sprite(b.p, b.id)->mask.threshold == 1); /* the whole drag, pause included */
  CHECK(!tess_project_can_undo(b.p) || strcmp(tess_project_undo_label(b.p), "Add sprite") == 0);
done:
  bench_close(&b);
}

typedef struct {
  TessProject *p;
  TessId id;
  TessMaskEditor *editor;
  int want;
} MaskKeysState;
static gboolean mask_threshold_is(gpointer data) {
  MaskKeysState *st = data;
  return tess_project_sprite(st->p, st->id)->mask.threshold == st->want;
}
static gboolean mask_slider_is(gpointer data) {
  MaskKeysState *st = data;
  return gtk_range_get_value(tess_mask_editor_get_threshold(st->editor)) == st->want;
}
static gboolean pointer_is_null(gpointer data) { return *(gpointer *)data == NULL; }

/* The mask editor's own window: Ctrl+Z undoes there (typed with xdotool),
 * Ctrl+Shift+Z redoes, Escape closes it and the pending edit is committed. */
static void sprites_mask_window_keys(void) {
  if (!fixture_have_program("xdotool")) {
    printf("xdotool is missing: the window's keys are not checked\n");
    return;
  }
  g_autofree char *png = write_sprite_png("keys.png");
  MaskBench b = bench_open("keys.tessera", png, FALSE);
  GtkWindow *win = tess_mask_editor_window_new(NULL, b.doc, b.id);
  gtk_window_set_title(win, "sprites-mask-keys");
  gtk_window_present(win);
  spin_for(300);
  TessMaskEditor *editor = TESS_MASK_EDITOR(gtk_window_get_child(win));
  gtk_range_set_value(tess_mask_editor_get_threshold(editor), 150);
  CHECK(tess_project_sprite(b.p, b.id)->mask.threshold == 150);
  g_autofree char *wid = NULL;
  CHECK(g_spawn_command_line_sync("xdotool search --name ^sprites-mask-keys$", &wid, NULL, NULL, NULL) && wid && *wid);
  if (wid && *wid) {
    char *nl = strchr(wid, '\n');
    if (nl) *nl = '\0';
    char args[256];
    snprintf(args, sizeof args, "windowfocus --sync %s key ctrl+z", wid);
    CHECK(xdotool(args));
    /* Each key's effect is waited for (generously), never a fixed time. */
    MaskKeysState st = {b.p, b.id, editor, 1};
    CHECK(spin_until(mask_threshold_is, &st, 10000));
    CHECK(spin_until(mask_slider_is, &st, 10000)); /* read back */
    CHECK(xdotool("key ctrl+shift+z"));
    st.want = 150;
    CHECK(spin_until(mask_threshold_is, &st, 10000));
    GtkWindow *alive = win;
    g_object_add_weak_pointer(G_OBJECT(alive), (gpointer *)&alive);
    CHECK(xdotool("key Escape"));
    CHECK(spin_until(pointer_is_null, &alive, 10000));
    if (alive) {
      g_object_remove_weak_pointer(G_OBJECT(alive), (gpointer *)&alive);
      gtk_window_destroy(alive);
    }
  } else {
    gtk_window_destroy(win);
  }
  TessProject *disk = fixture_load(tess_document_get_path(b.doc));
  CHECK(disk && tess_project_sprite(disk, b.id)->mask.threshold == 150);
  if (disk) tess_project_destroy(disk);
  fixture_spin();
  bench_close(&b); /* its window closed by its own key */
}

static void count_sprite_changes(TessDocument *doc, gpointer change, int *count) {
  if (((const TessChange *)change)->kind == TESS_CHANGE_SPRITE) (*count)++;
}

/* Big sprites trace on a worker (forced here for a small one): three
 * values in a row, the two older results dropped, the newest applied as
 * one edit, one undo step. */
static void sprites_threshold_worker(void) {
  g_autofree char *png = write_sprite_png("worker.png");
  MaskBench b = bench_open("worker.tessera", png, TRUE);
  tess_mask_editor_set_async_pixels(b.editor, 0);
  int changes = 0;
  gulong h = g_signal_connect(b.doc, "changed", G_CALLBACK(count_sprite_changes), &changes);
  gboolean committed = FALSE;
  gulong watch = g_signal_connect(b.doc, "committed", G_CALLBACK(on_committed), &committed);
  GtkRange *range = tess_mask_editor_get_threshold(b.editor);
  gtk_range_set_value(range, 20);
  gtk_range_set_value(range, 60);
  gtk_range_set_value(range, 140);
  CHECK(tess_mask_editor_is_tracing(b.editor));
  CHECK(tess_project_sprite(b.p, b.id)->mask.threshold == 1); /* nothing applied before a result is back */
  for (int i = 0; i < 2000 && tess_mask_editor_is_tracing(b.editor); i++) {
    fixture_spin();
    g_usleep(1000);
  }
  CHECK(!tess_mask_editor_is_tracing(b.editor));
  CHECK(changes == 1);
  const TessSprite *sp = tess_project_sprite(b.p, b.id);
  CHECK(sp->mask.threshold == 140 && sp->mask.area == 800.0);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_AREA), "800 px²") == 0);
  g_signal_handler_disconnect(b.doc, h);
  wait_commit(b.doc, &committed, watch);
  TessProject *disk = fixture_load(tess_document_get_path(b.doc));
  CHECK(disk && tess_project_sprite(disk, b.id)->mask.threshold == 140);
  if (disk) tess_project_destroy(disk);
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_undo(b.doc, &error));
  CHECK(tess_project_sprite(b.p, b.id)->mask.threshold == 1);

  /* A trace still running when the window closes keeps the editor (and the
   * frame it reads) alive until it is back: the value the user left on the
   * slider is applied and committed, then the editor goes. */
  fixture_spin();
  gtk_range_set_value(range, 200);
  CHECK(tess_mask_editor_is_tracing(b.editor));
  TessMaskEditor *alive = b.editor;
  g_object_add_weak_pointer(G_OBJECT(alive), (gpointer *)&alive);
  close_host(b.win);
  b.win = NULL;
  for (int i = 0; i < 2000 && alive; i++) {
    fixture_spin();
    g_usleep(1000);
  }
  CHECK(alive == NULL);
  if (alive) g_object_remove_weak_pointer(G_OBJECT(alive), (gpointer *)&alive);
  CHECK(tess_project_sprite(b.p, b.id)->mask.threshold == 200);
  disk = fixture_load(tess_document_get_path(b.doc));
  CHECK(disk && tess_project_sprite(disk, b.id)->mask.threshold == 200);
  if (disk) tess_project_destroy(disk);
  bench_close(&b);
}

/* Drag a vertex, add one on an edge, remove one: the stored shape changes,
 * the readouts follow, each is one undo step, and the file holds it. */
static void sprites_vertex_edit(void) {
  g_autofree char *png = write_sprite_png("vblock.png");
  MaskBench b = bench_open("vertex.tessera", png, TRUE);
  gtk_range_set_value(tess_mask_editor_get_threshold(b.editor), 200); /* just the 40 x 20 block */
  tess_mask_editor_flush(b.editor);
  TessMaskView *view = tess_mask_editor_get_view(b.editor);
  const TessSprite *sp = tess_project_sprite(b.p, b.id);
  CHECK(sp->mask.piece_count == 1 && sp->mask.pieces[0].count == 4);

  /* The corner at (50, 30): drag it to (60, 30) with the pointer, through two motions. */
  uint32_t k = 0;
  for (; k < 4; k++)
    if (sp->mask.pieces[0].v[k].x == 50.0f && sp->mask.pieces[0].v[k].y == 30.0f) break;
  CHECK(k < 4);
  double wx, wy, tx, ty, mx, my;
  tess_mask_view_frame_to_widget(view, 50, 30, &wx, &wy);
  tess_mask_view_frame_to_widget(view, 55, 30, &mx, &my);
  tess_mask_view_frame_to_widget(view, 60, 30, &tx, &ty);
  CHECK(tess_mask_view_press_vertex(view, wx + 1, wy - 1));
  tess_mask_view_drag_to(view, mx, my, FALSE);
  tess_mask_view_drag_to(view, tx, ty, TRUE);
  sp = tess_project_sprite(b.p, b.id);
  CHECK(sp->mask.manual == 1);
  CHECK(sp->mask.pieces[0].v[k].x == 60.0f && sp->mask.pieces[0].v[k].y == 30.0f);
  /* (10,10) (50,10) (60,30) (10,30): 800 + a 10 x 20 triangle of 100, all outside the hull. */
  CHECK_NEAR(sp->mask.shape_area, 900.0, 1e-4);
  CHECK_NEAR(sp->mask.added_area, 100.0, 1e-4);
  CHECK_NEAR(sp->mask.uncovered_area, 0.0, 1e-6);
  CHECK(strstr(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_ADDED), "100.0 px²") != NULL);
  TessProject *disk = fixture_load(tess_document_get_path(b.doc));
  const TessSprite *ds = disk ? tess_project_sprite(disk, b.id) : NULL;
  CHECK(ds && ds->mask.manual == 1 && ds->mask.pieces[0].v[k].x == 60.0f);
  if (disk) tess_project_destroy(disk);

  /* Double-click the middle of the top edge: a fifth vertex. */
  tess_mask_view_frame_to_widget(view, 30, 10, &wx, &wy);
  CHECK(tess_mask_view_insert_at(view, wx, wy + 1));
  sp = tess_project_sprite(b.p, b.id);
  CHECK(sp->mask.pieces[0].count == 5);
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_VERTICES), "5 in 1 piece") == 0);
  /* Right-click it away again. */
  tess_mask_view_frame_to_widget(view, 30, 10, &wx, &wy);
  CHECK(tess_mask_view_remove_at(view, wx, wy));
  CHECK(tess_project_sprite(b.p, b.id)->mask.pieces[0].count == 4);

  /* Undo: the removal, the insertion, then the whole drag in one step. */
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_undo(b.doc, &error));
  CHECK(tess_project_sprite(b.p, b.id)->mask.pieces[0].count == 5);
  CHECK(tess_document_undo(b.doc, &error));
  CHECK(tess_project_sprite(b.p, b.id)->mask.pieces[0].count == 4);
  CHECK(tess_document_undo(b.doc, &error));
  sp = tess_project_sprite(b.p, b.id);
  CHECK(sp->mask.manual == 0 && sp->mask.pieces[0].v[k].x == 50.0f);
  CHECK_NEAR(sp->mask.shape_area, 800.0, 1e-4);
  fixture_spin();
  CHECK(strcmp(tess_mask_editor_get_readout(b.editor, TESS_MASK_READOUT_VERTICES), "4 in 1 piece") == 0);
  disk = fixture_load(tess_document_get_path(b.doc));
  ds = disk ? tess_project_sprite(disk, b.id) : NULL;
  CHECK(ds && ds->mask.manual == 0 && ds->mask.pieces[0].v[k].x == 50.0f);
  if (disk) tess_project_destroy(disk);
  /* Redo brings the drag back. */
  CHECK(tess_document_redo(b.doc, &error));
  CHECK(tess_project_sprite(b.p, b.id)->mask.pieces[0].v[k].x == 60.0f);

  /* Drag the anchor from the frame's centre (48, 32) to about (20.3, 10.2): half pixels, one step. */
  double ax, ay, bx, by;
  tess_mask_view_frame_to_widget(view, 48, 32, &ax, &ay);
  tess_mask_view_frame_to_widget(view, 20.3, 10.2, &bx, &by);
  CHECK(tess_mask_view_press_anchor(view, ax + 2, ay + 2));
  tess_mask_view_drag_anchor_to(view, (ax + bx) / 2, (ay + by) / 2, FALSE);
  tess_mask_view_drag_anchor_to(view, bx, by, TRUE);
  sp = tess_project_sprite(b.p, b.id);
  CHECK_NEAR(sp->anchor.x, 20.5, 1e-6);
  CHECK_NEAR(sp->anchor.y, 10.0, 1e-6);
  CHECK(tess_document_undo(b.doc, &error));
  CHECK(tess_project_sprite(b.p, b.id)->anchor.x == 48.0f && tess_project_sprite(b.p, b.id)->anchor.y == 32.0f);
  CHECK(tess_document_redo(b.doc, &error));
  fixture_spin();

  /* Fit a circle: the circle around the block's corners. */
  gtk_drop_down_set_selected(tess_mask_editor_get_mode(b.editor), TESS_MASK_CIRCLE);
  sp = tess_project_sprite(b.p, b.id);
  CHECK(sp->mask.mode == TESS_MASK_CIRCLE && sp->mask.manual == 0);
  CHECK_NEAR(sp->mask.circle_radius, sqrt(20.0 * 20.0 + 10.0 * 10.0), 1e-3);
  CHECK_NEAR(sp->mask.circle_center.x, 30.0, 1e-3);

  bench_close(&b);
}

/* A 4-tile tileset: transparent, opaque, bottom half, a triangle. Trace all
 * in one undo step; overrides per tile. */
static void sprites_tileset_trace_all(void) {
  TessDocument *doc = fixture_new_document("tiles.tessera");
  TessProject *p = tess_document_get_project(doc);
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(64, 16, &img, &err), &err);
  for (uint32_t y = 0; y < 16; y++)
    for (uint32_t x = 0; x < 16; x++) {
      put(&img, 16 + x, y, 255);
      if (y >= 8) put(&img, 32 + x, y, 255);
      if (x <= y) put(&img, 48 + x, y, 255);
    }
  uint8_t *bytes = NULL;
  size_t size = 0;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &bytes, &size, &err), &err);
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "terrain";
  def.png = bytes;
  def.png_size = size;
  def.image_w = 64;
  def.image_h = 16;
  def.tile_w = def.tile_h = 16;
  def.default_collision = TESS_TILE_COLLISION_FULL;
  TessId ts_id = 0;
  CHECK_OK(tess_edit_tileset_add(p, &def, &ts_id, &err), &err);
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_commit(doc, &error));
  tess_free(bytes);
  tess_image_clear(&img);

  TessTilesetCollision *tc = TESS_TILESET_COLLISION(tess_tileset_collision_new());
  GtkWindow *win = fixture_host(GTK_WIDGET(tc), 800, 500);
  tess_tileset_collision_set_document(tc, doc);
  CHECK(tess_tileset_collision_get_tileset(tc) == ts_id);
  CHECK(tess_tileset_collision_trace_all(tc, &error));
  const TessTileset *ts = tess_project_tileset(p, ts_id);
  CHECK(ts->tiles[0].collision == TESS_TILE_COLLISION_NONE);
  CHECK(ts->tiles[1].collision == TESS_TILE_COLLISION_FULL);
  CHECK(ts->tiles[2].collision == TESS_TILE_COLLISION_TRACED && ts->tiles[2].piece_count >= 1);
  CHECK(ts->tiles[3].collision == TESS_TILE_COLLISION_TRACED && ts->tiles[3].piece_count >= 1);
  double half = 0;
  for (uint32_t i = 0; i < ts->tiles[2].piece_count; i++) {
    TessDVec2 v[TESS_POLY_MAX];
    for (uint32_t k = 0; k < ts->tiles[2].pieces[i].count; k++)
      v[k] = tess_d2(ts->tiles[2].pieces[i].v[k].x, ts->tiles[2].pieces[i].v[k].y);
    half += tess_poly_mass(v, ts->tiles[2].pieces[i].count).area;
  }
  CHECK_NEAR(half, 128.0, 1e-3);
  fixture_spin();
  CHECK(g_str_has_prefix(tess_tileset_collision_get_summary(tc), "4 tiles: 1 none, 1 full, 2 traced ("));

  TessProject *disk = fixture_load(tess_document_get_path(doc));
  const TessTileset *dts = disk ? tess_project_tileset(disk, ts_id) : NULL;
  CHECK(dts && dts->tiles[0].collision == TESS_TILE_COLLISION_NONE && dts->tiles[2].collision == TESS_TILE_COLLISION_TRACED &&
        dts->tiles[2].piece_count == ts->tiles[2].piece_count);
  if (disk) tess_project_destroy(disk);

  /* Overrides: tile 1 one-way, tile 3 none, tile 0 traced is refused (transparent). */
  CHECK(tess_tileset_collision_set_override(tc, 1, TESS_TILE_OVERRIDE_ONE_WAY, &error));
  CHECK(tess_tileset_collision_set_override(tc, 3, TESS_TILE_OVERRIDE_NONE, &error));
  g_autoptr(GError) refused = NULL;
  CHECK(!tess_tileset_collision_set_override(tc, 0, TESS_TILE_OVERRIDE_TRACED, &refused) && refused);
  ts = tess_project_tileset(p, ts_id);
  CHECK(ts->tiles[1].one_way == 1 && ts->tiles[1].collision == TESS_TILE_COLLISION_FULL);
  CHECK(ts->tiles[3].collision == TESS_TILE_COLLISION_NONE);
  CHECK(ts->tiles[0].collision == TESS_TILE_COLLISION_NONE);
  /* Choosing in the dropdown as a user would, for the selected tile. */
  tess_tileset_collision_select_tile(tc, 3);
  fixture_spin();
  disk = fixture_load(tess_document_get_path(doc));
  dts = disk ? tess_project_tileset(disk, ts_id) : NULL;
  CHECK(dts && dts->tiles[1].one_way == 1 && dts->tiles[3].collision == TESS_TILE_COLLISION_NONE);
  if (disk) tess_project_destroy(disk);

  /* Undo the two overrides, then the whole trace in one step: every tile full again. */
  CHECK(tess_document_undo(doc, &error));
  CHECK(tess_document_undo(doc, &error));
  CHECK(tess_document_undo(doc, &error));
  ts = tess_project_tileset(p, ts_id);
  for (uint32_t i = 0; i < 4; i++) CHECK(ts->tiles[i].collision == TESS_TILE_COLLISION_FULL && ts->tiles[i].one_way == 0);
  fixture_spin();

  close_host(win);
  g_object_unref(doc);
}

/* Adds a tileset of `tiles` 16 px tiles in one row, tile i opaque on its top
 * (i + 1) * 2 rows; default collision full. Returns its id. */
static TessId add_strip_tileset(TessDocument *doc, const char *name, uint32_t tiles) {
  TessProject *p = tess_document_get_project(doc);
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(16 * tiles, 16, &img, &err), &err);
  for (uint32_t t = 0; t < tiles; t++)
    for (uint32_t y = 0; y < (t + 1) * 2 && y < 16; y++)
      for (uint32_t x = 0; x < 16; x++) put(&img, 16 * t + x, y, 255);
  uint8_t *bytes = NULL;
  size_t size = 0;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &bytes, &size, &err), &err);
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = name;
  def.png = bytes;
  def.png_size = size;
  def.image_w = 16 * tiles;
  def.image_h = 16;
  def.tile_w = def.tile_h = 16;
  def.default_collision = TESS_TILE_COLLISION_FULL;
  TessId id = 0;
  CHECK_OK(tess_edit_tileset_add(p, &def, &id, &err), &err);
  g_autoptr(GError) error = NULL;
  CHECK(tess_document_commit(doc, &error));
  tess_free(bytes);
  tess_image_clear(&img);
  return id;
}

/* Issue 14 item 1: choosing the second tileset in the dropdown's popup, as a
 * user clicks it, used to freeze the window (replacing the dropdown's model
 * from its own selection handler re-entered it; the tileset was reloaded
 * thousands of times a second). One choice loads once, and the window shows
 * and traces the second tileset. */
static gboolean shows_second(gpointer tc) {
  return g_str_has_prefix(tess_tileset_collision_get_summary(tc), "2 tiles:");
}
static gboolean shows_second_traced(gpointer tc) {
  return g_str_has_prefix(tess_tileset_collision_get_summary(tc), "2 tiles: 0 none, 0 full, 2 traced");
}

static void sprites_tileset_choose_second(void) {
  TessDocument *doc = fixture_new_document("two-tilesets.tessera");
  TessId first = add_strip_tileset(doc, "first", 4);
  TessId second = add_strip_tileset(doc, "second", 2);
  TessTilesetCollision *tc = TESS_TILESET_COLLISION(tess_tileset_collision_new());
  GtkWindow *win = fixture_host(GTK_WIDGET(tc), 800, 500);
  tess_tileset_collision_set_document(tc, doc);
  fixture_spin();
  CHECK(tess_tileset_collision_get_tileset(tc) == first);
  CHECK(g_str_has_prefix(tess_tileset_collision_get_summary(tc), "4 tiles: 0 none, 4 full"));

  /* Pop the dropdown up and activate its second row, as a click does. */
  GtkDropDown *dd = tess_tileset_collision_get_tileset_choice(tc);
  guint loads = tess_tileset_collision_get_load_count(tc);
  g_signal_emit_by_name(dd, "activate");
  fixture_spin();
  GtkWidget *list = NULL;
  GtkWidget *popover = NULL;
  for (GtkWidget *c = gtk_widget_get_first_child(GTK_WIDGET(dd)); c; c = gtk_widget_get_next_sibling(c))
    if (GTK_IS_POPOVER(c)) popover = c;
  CHECK(popover != NULL);
  /* The popover's list view (depth-first). */
  GtkWidget *stack[64];
  int top = 0;
  if (popover) stack[top++] = popover;
  while (top > 0 && !list) {
    GtkWidget *w = stack[--top];
    if (GTK_IS_LIST_VIEW(w)) list = w;
    for (GtkWidget *c = gtk_widget_get_first_child(w); c && top < 64; c = gtk_widget_get_next_sibling(c)) stack[top++] = c;
  }
  CHECK(list != NULL);
  /* A click selects the row in the popup's list, then activates it. */
  if (list) {
    gtk_selection_model_select_item(GTK_SELECTION_MODEL(gtk_list_view_get_model(GTK_LIST_VIEW(list))), 1, TRUE);
    g_signal_emit_by_name(list, "activate", 1u);
  }
  /* Until the second tileset shows (however slow the machine), then every
   * pending event: a re-entering handler would have loaded it many times. */
  CHECK(spin_until(shows_second, tc, 10000));
  fixture_spin();
  CHECK_MSG(tess_tileset_collision_get_load_count(tc) == loads + 1, "loads %u", tess_tileset_collision_get_load_count(tc) - loads);
  CHECK(tess_tileset_collision_get_tileset(tc) == second);
  CHECK(gtk_drop_down_get_selected(dd) == 1);
  CHECK_MSG(g_str_has_prefix(tess_tileset_collision_get_summary(tc), "2 tiles: 0 none, 2 full"), "%s",
            tess_tileset_collision_get_summary(tc));

  /* Trace All traces the second tileset (two partly opaque tiles), leaves the first alone. */
  g_autoptr(GError) error = NULL;
  CHECK(tess_tileset_collision_trace_all(tc, &error));
  TessProject *p = tess_document_get_project(doc);
  const TessTileset *ts2 = tess_project_tileset(p, second);
  CHECK(ts2->tiles[0].collision == TESS_TILE_COLLISION_TRACED && ts2->tiles[1].collision == TESS_TILE_COLLISION_TRACED);
  const TessTileset *ts1 = tess_project_tileset(p, first);
  for (uint32_t i = 0; i < 4; i++) CHECK(ts1->tiles[i].collision == TESS_TILE_COLLISION_FULL);
  /* The window reloads from the document's change on an idle: wait for it (a loaded machine is slow). */
  CHECK(spin_until(shows_second_traced, tc, 10000));
  CHECK(tess_tileset_collision_get_tileset(tc) == second && gtk_drop_down_get_selected(dd) == 1);
  CHECK(g_str_has_prefix(tess_tileset_collision_get_summary(tc), "2 tiles: 0 none, 0 full, 2 traced"));
  close_host(win);
  g_object_unref(doc);
}

/* Issue 14 item 4: Trace All Tiles kept no collision chosen by hand (the
 * demo's terrain went from "6 none, 6 full" to "2 none, 10 full"). Now it
 * retraces only traced tiles unless "Retrace tiles set by hand" is on. */
static void sprites_tileset_trace_keeps_hand_set(void) {
  TessDocument *doc = fixture_new_document("hand-set.tessera");
  TessId id = add_strip_tileset(doc, "strip", 4);
  TessProject *p = tess_document_get_project(doc);
  TessTilesetCollision *tc = TESS_TILESET_COLLISION(tess_tileset_collision_new());
  GtkWindow *win = fixture_host(GTK_WIDGET(tc), 800, 500);
  tess_tileset_collision_set_document(tc, doc);
  g_autoptr(GError) error = NULL;
  /* As added (all full): nothing is hand-set, every tile is traced. */
  CHECK(tess_tileset_collision_count_hand_set(tc) == 0);
  CHECK(tess_tileset_collision_trace_all(tc, &error));
  const TessTileset *ts = tess_project_tileset(p, id);
  for (uint32_t i = 0; i < 4; i++) CHECK(ts->tiles[i].collision == TESS_TILE_COLLISION_TRACED);
  /* By hand: tile 0 none, tile 1 full, tile 2 one-way. */
  CHECK(tess_tileset_collision_set_override(tc, 0, TESS_TILE_OVERRIDE_NONE, &error));
  CHECK(tess_tileset_collision_set_override(tc, 1, TESS_TILE_OVERRIDE_FULL, &error));
  CHECK(tess_tileset_collision_set_override(tc, 2, TESS_TILE_OVERRIDE_ONE_WAY, &error));
  CHECK(tess_tileset_collision_count_hand_set(tc) == 3);
  CHECK(tess_tileset_collision_trace_all(tc, &error));
  ts = tess_project_tileset(p, id);
  CHECK(ts->tiles[0].collision == TESS_TILE_COLLISION_NONE);
  CHECK(ts->tiles[1].collision == TESS_TILE_COLLISION_FULL && ts->tiles[1].one_way == 0);
  CHECK(ts->tiles[2].one_way == 1 && ts->tiles[2].collision != TESS_TILE_COLLISION_NONE);
  CHECK(ts->tiles[3].collision == TESS_TILE_COLLISION_TRACED && ts->tiles[3].piece_count >= 1);
  fixture_spin();
  TessProject *disk = fixture_load(tess_document_get_path(doc));
  const TessTileset *dts = disk ? tess_project_tileset(disk, id) : NULL;
  CHECK(dts && dts->tiles[0].collision == TESS_TILE_COLLISION_NONE && dts->tiles[2].one_way == 1);
  if (disk) tess_project_destroy(disk);
  /* The user chooses to retrace them: every tile traced again, one-way gone. */
  tess_tileset_collision_set_retrace_hand_set(tc, TRUE);
  CHECK(tess_tileset_collision_trace_all(tc, &error));
  ts = tess_project_tileset(p, id);
  for (uint32_t i = 0; i < 4; i++) CHECK(ts->tiles[i].collision == TESS_TILE_COLLISION_TRACED && ts->tiles[i].one_way == 0);
  /* One undo brings the hand-set tiles back. */
  CHECK(tess_document_undo(doc, &error));
  ts = tess_project_tileset(p, id);
  CHECK(ts->tiles[0].collision == TESS_TILE_COLLISION_NONE && ts->tiles[2].one_way == 1);
  fixture_spin();
  close_host(win);
  g_object_unref(doc);
}

/* The mask view drawn offscreen, compared with a reference PNG
 * (TESS_REGENERATE=1 writes it), plus checks that need no reference. */
static void sprites_mask_view_render(void) {
  TessImage img;
  TessError err = {0};
  sprite_image(&img);
  TessSpriteMask mask;
  tess_sprite_mask_default(&mask);
  mask.mode = TESS_MASK_PIECES;
  CHECK_OK(tess_sprite_mask_trace(tess_image_view(&img), &mask, &err), &err);
  TessMaskSecondMoments mom;
  CHECK_OK(tess_mask_pixel_moments(tess_image_view(&img), 1, &mom, &err), &err);

  TessMaskView *view = TESS_MASK_VIEW(tess_mask_view_new());
  g_object_ref_sink(view);
  tess_mask_view_set_frame(view, tess_image_view(&img));
  tess_mask_view_set_mask(view, &mask, &mom, NULL, 0);
  const int W = 416, H = 288;
  cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create(surf);
  tess_mask_view_draw(view, cr, W, H);
  cairo_destroy(cr);
  cairo_surface_flush(surf);

  /* Fit: scale 4 (whole multiples), the frame centred: frame (x, y) at (16 + 4x, 16 + 4y). */
  const uint8_t *px = cairo_image_surface_get_data(surf);
  int stride = cairo_image_surface_get_stride(surf);
#define AT(x, y) (*(const uint32_t *)(px + (size_t)(y)*stride + 4 * (size_t)(x)))
  CHECK_MSG(AT(2, 2) == 0xff28282eu, "background %08x", AT(2, 2)); /* around the frame: (0.16, 0.16, 0.18) */
  uint32_t piece = AT(16 + 4 * 20, 16 + 4 * 15);                   /* inside the opaque block: sprite blue under a piece tint */
  CHECK(((piece >> 16) & 0xff) < ((piece)&0xff));                  /* bluer than red */
  double cx = 16 + 4 * mom.cx, cy = 16 + 4 * mom.cy;
  CHECK(AT((int)cx, (int)cy - 3) == 0xffffffffu || AT((int)cx + 3, (int)cy) == 0xffffffffu ||
        (AT((int)cx, (int)cy) & 0xffffff) == 0); /* the centroid marker */

  char buf[1024];
  const char *root = g_getenv("TESS_SOURCE_ROOT");
  g_autofree char *ref = g_build_filename(root ? root : ".", "tests", "sprites", "data", "mask-view.png", NULL);
  if (g_getenv("TESS_REGENERATE")) {
    CHECK(cairo_surface_write_to_png(surf, ref) == CAIRO_STATUS_SUCCESS);
  } else {
    cairo_surface_t *want = cairo_image_surface_create_from_png(ref);
    CHECK_MSG(cairo_surface_status(want) == CAIRO_STATUS_SUCCESS, "reference %s missing", ref);
    if (cairo_surface_status(want) == CAIRO_STATUS_SUCCESS) {
      CHECK(cairo_image_surface_get_width(want) == W && cairo_image_surface_get_height(want) == H);
      const uint8_t *wp = cairo_image_surface_get_data(want);
      int ws = cairo_image_surface_get_stride(want);
      long differ = 0;
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W * 4; x++)
          if (abs((int)px[(size_t)y * stride + x] - (int)wp[(size_t)y * ws + x]) > 8) {
            differ++;
            x = (x / 4 + 1) * 4 - 1; /* count pixels, not channels */
          }
      CHECK_MSG(differ <= W * H / 200, "%ld pixels differ from %s", differ, ref);
      if (differ > W * H / 200) cairo_surface_write_to_png(surf, tess_test_path(buf, sizeof buf, "mask-view-got.png"));
    }
    cairo_surface_destroy(want);
  }
#undef AT
  cairo_surface_destroy(surf);
  g_object_unref(view);
  tess_sprite_mask_clear(&mask);
  tess_image_clear(&img);
}

static gboolean model_has_action(GMenuModel *m, const char *action) {
  for (int i = 0; i < g_menu_model_get_n_items(m); i++) {
    g_autofree char *a = NULL;
    if (g_menu_model_get_item_attribute(m, i, G_MENU_ATTRIBUTE_ACTION, "s", &a) && g_strcmp0(a, action) == 0) return TRUE;
    g_autoptr(GMenuModel) section = g_menu_model_get_item_link(m, i, G_MENU_LINK_SECTION);
    if (section && model_has_action(section, action)) return TRUE;
  }
  return FALSE;
}

static gboolean menu_has_action(GtkWidget *w, const char *action) {
  if (GTK_IS_MENU_BUTTON(w) && gtk_menu_button_get_menu_model(GTK_MENU_BUTTON(w)) &&
      model_has_action(gtk_menu_button_get_menu_model(GTK_MENU_BUTTON(w)), action))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c))
    if (menu_has_action(c, action)) return TRUE;
  return FALSE;
}

/* The window: a Sprites page, the menu action, and the object tool placing the sprite as a body. */
static void sprites_window_hook(void) {
  g_autofree char *path = fixture_copy_demo("hook.tessera");
  g_autofree char *png = write_sprite_png("barrel.png");
  TessWindow *w = fixture_window(path);
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_window_get_sprite_panel(w));
  CHECK(panel != NULL);
  GAction *action = g_action_map_lookup_action(G_ACTION_MAP(w), "tileset-collision");
  CHECK(action && g_action_get_enabled(action));
  CHECK(menu_has_action(gtk_window_get_titlebar(GTK_WINDOW(w)), "win.tileset-collision"));
  /* The Sprites page is the notebook's last. */
  GtkWidget *nb = gtk_widget_get_ancestor(GTK_WIDGET(panel), GTK_TYPE_NOTEBOOK);
  CHECK(nb && gtk_notebook_get_n_pages(GTK_NOTEBOOK(nb)) >= 2);
  TessId id = import_sprite(panel, png);
  CHECK(id != 0);
  TessMapView *map = TESS_MAP_VIEW(tess_window_get_map_view(w));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLevel *level = tess_project_level(p, tess_window_get_level(w));
  size_t before = 0;
  for (uint32_t i = 0; i < level->layer_count; i++) before += level->layers[i]->object_count;
  g_signal_emit_by_name(panel, "place-requested");
  CHECK(tess_map_view_get_tool(map) == TESS_TOOL_OBJECT);
  fixture_spin();
  /* Issue 14 item 5: the Place dropdown says what a click places, the sprite, not Circle. */
  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  GtkDropDown *place = tess_object_inspector_get_template_choice(insp);
  GtkStringObject *shown = gtk_drop_down_get_selected_item(place);
  CHECK_MSG(shown && strcmp(gtk_string_object_get_string(shown), "Sprite") == 0, "%s",
            shown ? gtk_string_object_get_string(shown) : "(none)");
  const TessObject *tmpl = tess_object_inspector_get_template(insp);
  CHECK(tmpl->kind == TESS_OBJECT_BODY && tmpl->u.body.shape == TESS_BODY_SPRITE && tmpl->u.body.sprite == id);
  double x = gtk_widget_get_width(GTK_WIDGET(map)) / 2.0, y = gtk_widget_get_height(GTK_WIDGET(map)) / 2.0;
  tess_map_view_test_press(map, 1, x, y, 0);
  tess_map_view_test_release(map, 1, x, y, 0);
  fixture_spin();
  size_t after = 0;
  const TessObject *placed = NULL;
  for (uint32_t i = 0; i < level->layer_count; i++) {
    after += level->layers[i]->object_count;
    for (uint32_t k = 0; k < level->layers[i]->object_count; k++) {
      const TessObject *o = &level->layers[i]->objects[k];
      if (o->kind == TESS_OBJECT_BODY && o->u.body.shape == TESS_BODY_SPRITE && o->u.body.sprite == id) placed = o;
    }
  }
  CHECK(after == before + 1);
  CHECK(placed != NULL && placed->u.body.type == TESS_BODY_DYNAMIC);
  /* Choosing Circle in the dropdown places circles again; Sprite brings the sprite back. */
  gtk_drop_down_set_selected(place, 0);
  CHECK(tess_object_inspector_get_template(insp)->u.body.shape == TESS_BODY_CIRCLE);
  guint sprite_item = 0; /* the last of the Place kinds, found by its label (the kinds before it grow) */
  for (guint i = 0; i < g_list_model_get_n_items(gtk_drop_down_get_model(place)); i++)
    if (strcmp(gtk_string_list_get_string(GTK_STRING_LIST(gtk_drop_down_get_model(place)), i), "Sprite") == 0) sprite_item = i;
  CHECK(sprite_item > 0);
  gtk_drop_down_set_selected(place, sprite_item);
  CHECK(tess_object_inspector_get_template(insp)->u.body.shape == TESS_BODY_SPRITE &&
        tess_object_inspector_get_template(insp)->u.body.sprite == id);
  /* Tileset Collision opens on the tileset in use in the palette, not the project's first. */
  TessId extra = add_strip_tileset(tess_window_get_document(w), "extra", 2);
  fixture_spin();
  TessTilePalette *palette = TESS_TILE_PALETTE(tess_window_get_tile_palette(w));
  tess_tile_palette_set_tileset(palette, extra);
  CHECK(tess_tile_palette_get_tileset(palette) == extra);
  g_action_activate(action, NULL);
  fixture_spin();
  GtkWindow *tiles = NULL;
  GListModel *tops = gtk_window_get_toplevels();
  for (guint i = 0; i < g_list_model_get_n_items(tops); i++) {
    g_autoptr(GtkWindow) t = g_list_model_get_item(tops, i);
    if (TESS_IS_TILESET_COLLISION(gtk_window_get_child(t))) tiles = t;
  }
  CHECK(tiles != NULL);
  if (tiles) {
    CHECK(tess_tileset_collision_get_tileset(TESS_TILESET_COLLISION(gtk_window_get_child(tiles))) == extra);
    gtk_window_destroy(tiles);
  }
  fixture_spin();
  fixture_close(w);
}

/* A sprite over core/mask's work budget (a 768 x 768 checkerboard of single
 * pixels: 294912 runs): in pieces mode the readout says the pieces were
 * simplified to blocks; back in simplified-hull mode it does not. */
static void sprites_mask_budget_readout(void) {
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(768, 768, &img, &err), &err);
  for (uint32_t y = 0; y < 768; y++)
    for (uint32_t x = 0; x < 768; x++) put(&img, x, y, ((x ^ y) & 1) ? 0 : 255);
  char buf[1024];
  g_autofree char *png = g_strdup(tess_test_path(buf, sizeof buf, "checker.png"));
  CHECK_OK(tess_png_save(tess_image_view(&img), png, &err), &err);
  tess_image_clear(&img);
  MaskBench b = bench_open("budget.tessera", png, TRUE);
  TessMaskEditor *editor = b.editor;
  const TessMaskMode modes[2] = {TESS_MASK_PIECES, TESS_MASK_SIMPLIFIED};
  for (int i = 0; i < 2; i++) {
    gtk_drop_down_set_selected(tess_mask_editor_get_mode(editor), modes[i]);
    for (int k = 0; k < 5000 && tess_mask_editor_is_tracing(editor); k++) {
      fixture_spin();
      g_usleep(1000);
    }
    fixture_spin();
    const TessSpriteMask *m = tess_mask_editor_get_mask(editor);
    const char *vertices = tess_mask_editor_get_readout(editor, TESS_MASK_READOUT_VERTICES);
    CHECK(m->mode == modes[i] && m->area == 768.0 * 384);
    if (modes[i] == TESS_MASK_PIECES)
      CHECK_MSG(m->piece_count == 1 && strstr(vertices, "simplified: traced on 2×2 px blocks") != NULL, "%s", vertices);
    else
      CHECK_MSG(strstr(vertices, "simplified") == NULL && m->piece_count == 1, "%s", vertices);
  }
  bench_close(&b);
}

/* A sprite imported into the demo's long list is chosen and scrolled into
 * the list's view: the user sees the row the panel now edits. */
static void sprites_import_shows_the_row(void) {
  g_autofree char *path = fixture_copy_demo("import-row.tessera");
  g_autofree char *png = write_sprite_png("zz-last.png");
  TessWindow *w = fixture_window(path);
  GtkWidget *panel = tess_window_get_sprite_panel(w);
  GtkNotebook *side = GTK_NOTEBOOK(gtk_widget_get_ancestor(panel, GTK_TYPE_NOTEBOOK));
  CHECK(side != NULL);
  for (int i = 0; side && i < gtk_notebook_get_n_pages(side); i++)
    if (gtk_widget_is_ancestor(panel, gtk_notebook_get_nth_page(side, i))) gtk_notebook_set_current_page(side, i);
  GtkWidget *list = GTK_WIDGET(gtk_widget_get_template_child(panel, TESS_TYPE_SPRITE_PANEL, "list"));
  GtkWidget *scrolled = list ? gtk_widget_get_ancestor(list, GTK_TYPE_SCROLLED_WINDOW) : NULL;
  CHECK(scrolled != NULL);
  if (!scrolled) {
    fixture_close(w);
    return;
  }
  for (int i = 0; i < 500 && gtk_widget_get_height(scrolled) == 0; i++) {
    fixture_spin();
    g_usleep(1000);
  }
  TessId id = import_sprite(TESS_SPRITE_PANEL(panel), png);
  GtkListBoxRow *row = gtk_list_box_get_selected_row(GTK_LIST_BOX(list));
  CHECK(row && GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(row), "sprite")) == id);
  /* The list is longer than its view (else this checks nothing). */
  CHECK_MSG(gtk_widget_get_height(list) > gtk_widget_get_height(scrolled) + 50, "list %d px, view %d px",
            gtk_widget_get_height(list), gtk_widget_get_height(scrolled));
  /* The row in the view, once the refill is laid out and the tick after it has run. */
  graphene_rect_t r = GRAPHENE_RECT_INIT(0, -1, 0, 0);
  gboolean shown = FALSE;
  for (int i = 0; i < 2000 && !shown; i++) {
    fixture_spin();
    shown = row && gtk_widget_compute_bounds(GTK_WIDGET(row), scrolled, &r) && r.size.height > 0 && r.origin.y >= 0 &&
            r.origin.y + r.size.height <= gtk_widget_get_height(scrolled) + 0.5;
    if (!shown) g_usleep(1000);
  }
  CHECK_MSG(shown, "the new row at y %g..%g of a %d px view", r.origin.y, r.origin.y + r.size.height,
            gtk_widget_get_height(scrolled));
  fixture_close(w);
}

static const TessTestCase cases[] = {
    {"sprites_mask_budget_readout", sprites_mask_budget_readout},
    {"sprites_import", sprites_import},
    {"sprites_import_shows_the_row", sprites_import_shows_the_row},
    {"sprites_threshold_drag", sprites_threshold_drag},
    {"sprites_threshold_worker", sprites_threshold_worker},
    {"sprites_slider_pointer_drag", sprites_slider_pointer_drag},
    {"sprites_mask_window_keys", sprites_mask_window_keys},
    {"sprites_vertex_edit", sprites_vertex_edit},
    {"sprites_tileset_trace_all", sprites_tileset_trace_all},
    {"sprites_tileset_choose_second", sprites_tileset_choose_second},
    {"sprites_tileset_trace_keeps_hand_set", sprites_tileset_trace_keeps_hand_set},
    {"sprites_mask_view_render", sprites_mask_view_render},
    {"sprites_window_hook", sprites_window_hook},
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
