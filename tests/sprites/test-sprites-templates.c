/* The sprite tools built from their templates (tess-sprite-panel.ui,
 * tess-mask-editor.ui), under Xvfb against the real tess-editor library:
 * each case finds the template's children by their ids, as GTK bound them,
 * and checks that the bindings on the widgets' properties keep them in step
 * with the state, so a child or a binding missing from a template fails
 * here. */
#include <string.h>

#include "editor_fixture.h"
#include "png_fixture.h"
#include "tess-mask-editor.h"
#include "tess-mask-view.h"
#include "tess-sprite-panel.h"
#include "tessera/image.h"

static GtkWidget *panel_child(TessSpritePanel *panel, const char *id) {
  GObject *o = gtk_widget_get_template_child(GTK_WIDGET(panel), TESS_TYPE_SPRITE_PANEL, id);
  CHECK_MSG(GTK_IS_WIDGET(o) && gtk_widget_is_ancestor(GTK_WIDGET(o), GTK_WIDGET(panel)),
            "no template child '%s' inside the sprite panel", id);
  return GTK_WIDGET(o);
}

static GtkWidget *editor_child(TessMaskEditor *editor, const char *id) {
  GObject *o = gtk_widget_get_template_child(GTK_WIDGET(editor), TESS_TYPE_MASK_EDITOR, id);
  CHECK_MSG(GTK_IS_WIDGET(o) && gtk_widget_is_ancestor(GTK_WIDGET(o), GTK_WIDGET(editor)),
            "no template child '%s' inside the mask editor", id);
  return GTK_WIDGET(o);
}

static guint panel_selected(TessSpritePanel *panel) {
  guint id = 0;
  g_object_get(panel, "selected", &id, NULL);
  return id;
}

/* Choosing a sprite in the Sprites tab fills its fields and makes Remove and
 * the settings sensitive (bindings on "selected"); choosing another refills
 * them; once the chosen sprite is removed (the panel's own Remove button)
 * nothing is chosen and they are insensitive again. A refused edit reaches
 * the window's message bar. */
static void templates_sprite_panel_follows_the_choice(void) {
  g_autofree char *path = fixture_copy_demo("panel.tessera");
  TessWindow *w = fixture_window(path);
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_window_get_sprite_panel(w));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  CHECK(p->sprite_count >= 2);
  GtkWidget *settings = panel_child(panel, "settings"), *remove = panel_child(panel, "remove_button");
  GtkWidget *name = panel_child(panel, "name"), *anchor_x = panel_child(panel, "anchor_x");
  GtkWidget *anchor_y = panel_child(panel, "anchor_y"), *frames = panel_child(panel, "frames");
  GtkWidget *list = panel_child(panel, "list"), *empty = panel_child(panel, "empty_label");
  /* The children the panel works with are the ones in its tree. */
  CHECK(GTK_WIDGET(tess_sprite_panel_get_spin(panel, "anchor-x")) == anchor_x);
  CHECK(GTK_WIDGET(tess_sprite_panel_get_spin(panel, "frames")) == frames);
  CHECK(!gtk_widget_get_visible(empty));

  gtk_list_box_unselect_all(GTK_LIST_BOX(list));
  fixture_spin();
  CHECK(panel_selected(panel) == 0 && tess_sprite_panel_get_template(panel) == NULL);
  CHECK(!gtk_widget_get_sensitive(settings) && !gtk_widget_get_sensitive(remove));

  for (int k = 0; k < 2; k++) {
    const TessSprite *sp = p->sprites[k];
    tess_sprite_panel_select(panel, sp->id);
    fixture_spin();
    CHECK(panel_selected(panel) == sp->id);
    CHECK(gtk_widget_get_sensitive(settings) && gtk_widget_get_sensitive(remove));
    CHECK_MSG(strcmp(gtk_editable_get_text(GTK_EDITABLE(name)), sp->name) == 0, "the name field says '%s', not '%s'",
              gtk_editable_get_text(GTK_EDITABLE(name)), sp->name);
    CHECK(gtk_spin_button_get_value(GTK_SPIN_BUTTON(anchor_x)) == (double)sp->anchor.x);
    CHECK(gtk_spin_button_get_value(GTK_SPIN_BUTTON(anchor_y)) == (double)sp->anchor.y);
    CHECK(gtk_spin_button_get_value_as_int(GTK_SPIN_BUTTON(frames)) == (int)(sp->frame_count ? sp->frame_count : 1));
    const TessObject *tmpl = tess_sprite_panel_get_template(panel);
    CHECK(tmpl && tmpl->u.body.sprite == sp->id);
  }

  /* A refused edit (no frames at all) is said in the window's message bar. */
  char want[TESS_NAME_MAX];
  g_strlcpy(want, p->sprites[1]->name, sizeof want);
  CHECK(!tess_sprite_panel_set_frames(panel, 0, 0));
  fixture_spin();
  const char *shown = tess_window_get_reported(w);
  CHECK_MSG(shown && strstr(shown, want), "reported: %s", shown ? shown : "(nothing)");

  /* Remove, clicked: nothing is chosen any more. */
  TessId removed = p->sprites[1]->id;
  guint before = p->sprite_count;
  g_signal_emit_by_name(remove, "clicked");
  fixture_spin();
  CHECK(p->sprite_count == before - 1 && tess_project_sprite(p, removed) == NULL);
  CHECK(panel_selected(panel) == 0);
  CHECK(!gtk_widget_get_sensitive(settings) && !gtk_widget_get_sensitive(remove));
  CHECK(tess_sprite_panel_get_row_count(panel) == before - 1);
  fixture_close(w);
}

static void put(TessImage *img, uint32_t x, uint32_t y, uint8_t a) {
  uint8_t *px = img->pixels + (size_t)y * img->stride + 4 * (size_t)x;
  px[0] = 200, px[1] = 80, px[2] = 40, px[3] = a;
}

/* A 64 x 48 sprite whose most opaque pixels have alpha 200: a 30 x 20
 * block at (8, 8), and a fainter (alpha 90) 10 x 10 one at (44, 30). */
static char *write_faint_png(void) {
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(64, 48, &img, &err), &err);
  tess_test_fill_rect(&img, 8, 8, 38, 28, 200);
  tess_test_fill_rect(&img, 44, 30, 54, 40, 90);
  char buf[1024];
  char *path = g_strdup(tess_test_path(buf, sizeof buf, "faint.png"));
  CHECK_OK(tess_png_save(tess_image_view(&img), path, &err), &err);
  tess_image_clear(&img);
  return path;
}

static gboolean traceable(TessMaskEditor *editor) {
  gboolean t = FALSE;
  g_object_get(editor, "traceable", &t, NULL);
  return t;
}

/* The trace controls are sensitive exactly while a sprite is loaded, and
 * the tolerance and "largest island only" (which shape convex pieces only)
 * in that mode alone; a refused trace says why under the readouts until
 * the next trace succeeds. */
static void templates_mask_editor_controls(void) {
  g_autofree char *png = write_faint_png();
  char buf[1024];
  g_autoptr(GError) error = NULL;
  TessDocument *doc = tess_document_new_project(tess_test_path(buf, sizeof buf, "mask.tessera"), &error);
  CHECK(doc != NULL);
  TessSpritePanel *panel = TESS_SPRITE_PANEL(g_object_ref_sink(tess_sprite_panel_new()));
  tess_sprite_panel_set_document(panel, doc);
  GSList *files = g_slist_prepend(NULL, g_file_new_for_path(png));
  CHECK(tess_sprite_panel_import(panel, files, &error) == 1);
  g_slist_free_full(files, g_object_unref);
  TessId id = tess_sprite_panel_get_selected(panel);

  TessMaskEditor *editor = TESS_MASK_EDITOR(tess_mask_editor_new());
  GtkWindow *win = GTK_WINDOW(gtk_window_new());
  gtk_window_set_default_size(win, 1000, 660);
  gtk_window_set_child(win, GTK_WIDGET(editor));
  gtk_window_present(win);
  tess_mask_editor_set_document(editor, doc);
  fixture_spin();

  const char *always[] = {"mode", "threshold", "max_vertices", "trace_buttons"};
  const char *pieces_only[] = {"tolerance", "largest"};
  GtkWidget *message = editor_child(editor, "message");
  for (int pass = 0; pass < 2; pass++) {
    /* No sprite: nothing to trace, every control insensitive. */
    tess_mask_editor_set_sprite(editor, 0);
    fixture_spin();
    CHECK(!traceable(editor));
    for (guint i = 0; i < G_N_ELEMENTS(always); i++) CHECK_MSG(!gtk_widget_get_sensitive(editor_child(editor, always[i])), "%s", always[i]);
    for (guint i = 0; i < G_N_ELEMENTS(pieces_only); i++)
      CHECK_MSG(!gtk_widget_get_sensitive(editor_child(editor, pieces_only[i])), "%s", pieces_only[i]);

    tess_mask_editor_set_sprite(editor, id);
    fixture_spin();
    CHECK(traceable(editor));
    GtkDropDown *mode = tess_mask_editor_get_mode(editor);
    for (guint m = TESS_MASK_HULL; m <= TESS_MASK_BOX; m++) {
      gtk_drop_down_set_selected(mode, m);
      fixture_spin();
      CHECK(tess_mask_editor_get_mask(editor)->mode == m);
      for (guint i = 0; i < G_N_ELEMENTS(always); i++)
        CHECK_MSG(gtk_widget_get_sensitive(editor_child(editor, always[i])), "mode %u: %s", m, always[i]);
      for (guint i = 0; i < G_N_ELEMENTS(pieces_only); i++)
        CHECK_MSG(gtk_widget_get_sensitive(editor_child(editor, pieces_only[i])) == (m == TESS_MASK_PIECES),
                  "mode %u: %s", m, pieces_only[i]);
    }
  }

  /* Above every pixel's alpha there is nothing to trace: said, and the mask kept. */
  gtk_drop_down_set_selected(tess_mask_editor_get_mode(editor), TESS_MASK_SIMPLIFIED);
  GtkRange *threshold = tess_mask_editor_get_threshold(editor);
  gtk_range_set_value(threshold, 1);
  fixture_spin();
  CHECK(!gtk_widget_get_visible(message));
  double area = tess_mask_editor_get_mask(editor)->area;
  CHECK(area == 30 * 20 + 10 * 10);
  gtk_range_set_value(threshold, 201);
  fixture_spin();
  CHECK(gtk_widget_get_visible(message));
  CHECK_MSG(strcmp(gtk_label_get_text(GTK_LABEL(message)),
                   "Sprite “faint” has no pixel with an alpha of 201 or more, so there is no shape to trace: lower the "
                   "alpha threshold. Its mask is unchanged.") == 0,
            "the message: '%s'", gtk_label_get_text(GTK_LABEL(message)));
  CHECK(tess_project_sprite(tess_document_get_project(doc), id)->mask.area == area);
  /* At 100 only the opaque block is left: traced, and the message goes. */
  gtk_range_set_value(threshold, 100);
  fixture_spin();
  CHECK(!gtk_widget_get_visible(message) && strcmp(gtk_label_get_text(GTK_LABEL(message)), "") == 0);
  CHECK(tess_mask_editor_get_mask(editor)->area == 30 * 20);
  CHECK(strcmp(tess_mask_editor_get_readout(editor, TESS_MASK_READOUT_AREA), "600 px²") == 0);
  CHECK(strcmp(gtk_label_get_text(GTK_LABEL(editor_child(editor, "readout_area"))), "600 px²") == 0);

  /* The zoom bar says the view's scale: fitted to the window, then zoomed in. */
  GtkWidget *zoom = editor_child(editor, "zoom_label");
  TessMaskView *view = tess_mask_editor_get_view(editor);
  for (int step = 0; step < 2; step++) {
    double z = tess_mask_view_get_zoom(view);
    g_autofree char *want = g_strdup_printf("%.0f%%", z * 100.0);
    CHECK_MSG(z > 1 && strcmp(gtk_label_get_text(GTK_LABEL(zoom)), want) == 0, "the zoom bar says '%s', the view %s",
              gtk_label_get_text(GTK_LABEL(zoom)), want);
    tess_mask_view_set_zoom(view, z * 1.25);
    fixture_spin();
  }

  tess_mask_editor_flush(editor);
  gtk_window_destroy(win);
  fixture_spin();
  g_object_unref(panel);
  g_object_unref(doc);
}

/* A 2048 x 2048 sprite: a disc (the import reads, decodes and traces it
 * on the worker for long enough to be seen running). */
static char *write_big_png(void) {
  TessImage img;
  TessError err = {0};
  CHECK_OK(tess_image_create(2048, 2048, &img, &err), &err);
  for (uint32_t y = 0; y < 2048; y++)
    for (uint32_t x = 0; x < 2048; x++) {
      double dx = x - 1023.5, dy = y - 1023.5;
      if (dx * dx + dy * dy < 1000.0 * 1000.0) put(&img, x, y, (uint8_t)(128 + (x ^ y) % 128));
    }
  char buf[1024];
  char *path = g_strdup(tess_test_path(buf, sizeof buf, "big.png"));
  CHECK_OK(tess_png_save(tess_image_view(&img), path, &err), &err);
  tess_image_clear(&img);
  return path;
}

typedef struct Imported {
  gboolean done;
  guint count;
  GError *error;
} Imported;

static void on_imported(GObject *source, GAsyncResult *result, gpointer data) {
  Imported *o = data;
  o->count = tess_sprite_panel_import_finish(TESS_SPRITE_PANEL(source), result, &o->error);
  o->done = TRUE;
}

static gboolean panel_flag(TessSpritePanel *panel, const char *property) {
  gboolean v = FALSE;
  g_object_get(panel, property, &v, NULL);
  return v;
}

/* The import's progress row (bindings on "importing", "cancelling" and
 * "import-progress"): shown while an import runs, with Import insensitive,
 * Cancel sensitive until pressed, the bar saying what happens and showing
 * the worker's progress; gone, and Import sensitive again, once it ends,
 * cancelled or not. */
static void templates_import_row_follows_the_import(void) {
  g_autofree char *png = write_big_png();
  char buf[1024];
  g_autoptr(GError) error = NULL;
  TessDocument *doc = tess_document_new_project(tess_test_path(buf, sizeof buf, "import.tessera"), &error);
  CHECK(doc != NULL);
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_sprite_panel_new());
  GtkWindow *win = GTK_WINDOW(gtk_window_new());
  gtk_window_set_default_size(win, 320, 600);
  gtk_window_set_child(win, GTK_WIDGET(panel));
  gtk_window_present(win);
  tess_sprite_panel_set_document(panel, doc);
  fixture_spin();
  GtkWidget *row = panel_child(panel, "import_row"), *import = panel_child(panel, "import_button");
  GtkWidget *cancel = panel_child(panel, "import_cancel_button");
  GtkProgressBar *bar = GTK_PROGRESS_BAR(panel_child(panel, "import_bar"));
  CHECK(!gtk_widget_get_visible(row) && gtk_widget_get_sensitive(import));
  GSList *files = g_slist_prepend(NULL, g_file_new_for_path(png));

  for (int cancelled = 1; cancelled >= 0; cancelled--) {
    Imported o = {0};
    tess_sprite_panel_import_async(panel, files, NULL, on_imported, &o);
    CHECK(panel_flag(panel, "importing") && !panel_flag(panel, "cancelling"));
    CHECK(gtk_widget_get_visible(row) && !gtk_widget_get_sensitive(import) && gtk_widget_get_sensitive(cancel));
    CHECK(g_strcmp0(gtk_progress_bar_get_text(bar), "Importing…") == 0);
    CHECK(gtk_progress_bar_get_fraction(bar) == 0);
    if (cancelled) {
      g_signal_emit_by_name(cancel, "clicked");
      CHECK(panel_flag(panel, "cancelling") && !gtk_widget_get_sensitive(cancel));
      CHECK(g_strcmp0(gtk_progress_bar_get_text(bar), "Cancelling…") == 0);
      CHECK(gtk_widget_get_visible(row) && !gtk_widget_get_sensitive(import));
    } else {
      /* The bar shows the worker's progress as the ticks read it. */
      double seen = 0;
      while (!o.done) {
        g_main_context_iteration(NULL, TRUE);
        double progress = 0;
        g_object_get(panel, "import-progress", &progress, NULL);
        if (!o.done) {
          CHECK(gtk_progress_bar_get_fraction(bar) == progress && tess_sprite_panel_get_import_progress(panel) == progress);
          seen = MAX(seen, progress);
        }
      }
      g_test_message("the bar showed up to %.2f before the import ended", seen);
    }
    while (!o.done) g_main_context_iteration(NULL, TRUE);
    CHECK(cancelled ? o.count == 0 && g_error_matches(o.error, G_IO_ERROR, G_IO_ERROR_CANCELLED) : o.count == 1);
    g_clear_error(&o.error);
    CHECK(!panel_flag(panel, "importing") && !panel_flag(panel, "cancelling"));
    CHECK(!gtk_widget_get_visible(row) && gtk_widget_get_sensitive(import));
    CHECK(gtk_progress_bar_get_fraction(bar) == 0 && gtk_progress_bar_get_text(bar) == NULL);
    CHECK(tess_document_get_project(doc)->sprite_count == (cancelled ? 0u : 1u));
  }
  g_slist_free_full(files, g_object_unref);
  gtk_window_destroy(win);
  fixture_spin();
  g_object_unref(doc);
}

static const TessTestCase cases[] = {
    {"templates_sprite_panel_follows_the_choice", templates_sprite_panel_follows_the_choice},
    {"templates_mask_editor_controls", templates_mask_editor_controls},
    {"templates_import_row_follows_the_import", templates_import_row_follows_the_import},
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
