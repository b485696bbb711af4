/* TessTilesetDialog. */
#include "tess-tileset-dialog.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tess-ui.h"
#include "tessera/image.h"

#define PNG_MAX_BYTES ((size_t)256 * 1024 * 1024)

struct _TessTilesetDialog {
  GtkDialog parent_instance;

  /* template widgets */
  GtkWidget *name, *tile_w, *tile_h, *margin, *spacing, *collision;
  GtkDrawingArea *preview;
  GtkLabel *message;

  /* owned */
  TessDocument *doc;
  char *path;
  uint8_t *png; /* tess_alloc'd */
  size_t png_size;
  cairo_surface_t *surface;
  uint32_t image_w, image_h;
  gboolean grid_ok;
};

G_DEFINE_FINAL_TYPE(TessTilesetDialog, tess_tileset_dialog, GTK_TYPE_DIALOG)

static uint32_t value(GtkWidget *spin) { return (uint32_t)gtk_spin_button_get_value_as_int(GTK_SPIN_BUTTON(spin)); }

static gboolean grid(TessTilesetDialog *self, uint32_t *cols, uint32_t *rows, TessResult *r, TessError *err) {
  *r = tess_tileset_grid(self->image_w, self->image_h, value(self->tile_w), value(self->tile_h), value(self->margin),
                         value(self->spacing), cols, rows, err);
  if (*r != TESS_OK && err->file[0] == '\0') g_strlcpy(err->file, self->path, sizeof err->file);
  return *r == TESS_OK;
}

static void update(TessTilesetDialog *self) {
  uint32_t cols = 0, rows = 0;
  TessResult r;
  TessError err = {0};
  self->grid_ok = grid(self, &cols, &rows, &r, &err);
  if (self->grid_ok) {
    g_autofree char *text = g_strdup_printf(_("%u × %u tiles (%u × %u px image)"), cols, rows, self->image_w, self->image_h);
    gtk_label_set_text(self->message, text);
    gtk_widget_remove_css_class(GTK_WIDGET(self->message), "error");
  } else {
    g_autofree char *text = tess_document_describe_error(r, &err);
    gtk_label_set_text(self->message, text);
    gtk_widget_add_css_class(GTK_WIDGET(self->message), "error");
  }
  gtk_widget_queue_draw(GTK_WIDGET(self->preview));
}

static void on_value_changed(GtkSpinButton *s, TessTilesetDialog *self) { update(self); }

const char *tess_tileset_dialog_get_message(TessTilesetDialog *self) { return gtk_label_get_text(self->message); }

/* The image scaled to fit, with the tile grid drawn over it. */
static void draw_preview(GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer user) {
  TessTilesetDialog *self = user;
  double scale = MIN((double)w / self->image_w, (double)h / self->image_h);
  if (scale > 4) scale = floor(scale);
  cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
  cairo_rectangle(cr, 0, 0, self->image_w * scale, self->image_h * scale);
  cairo_fill(cr);
  cairo_save(cr);
  cairo_scale(cr, scale, scale);
  cairo_set_source_surface(cr, self->surface, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
  cairo_paint(cr);
  if (self->grid_ok) {
    uint32_t cols = 0, rows = 0;
    TessResult r;
    TessError err = {0};
    grid(self, &cols, &rows, &r, &err);
    uint32_t tw = value(self->tile_w), th = value(self->tile_h), m = value(self->margin), sp = value(self->spacing);
    cairo_set_line_width(cr, 1.0 / scale);
    cairo_set_source_rgba(cr, 0.9, 0.1, 0.5, 0.85);
    for (uint32_t r2 = 0; r2 < rows; r2++)
      for (uint32_t c = 0; c < cols; c++)
        cairo_rectangle(cr, m + c * (double)(tw + sp), m + r2 * (double)(th + sp), tw, th);
    cairo_stroke(cr);
  }
  cairo_restore(cr);
}

gboolean tess_tileset_dialog_apply(TessTilesetDialog *self, TessId *id_out) {
  TessProject *p = tess_document_get_project(self->doc);
  uint32_t cols, rows;
  TessResult r;
  TessError err = {0};
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  char name[TESS_NAME_MAX];
  if (!tess_ui_copy_name(name, gtk_editable_get_text(GTK_EDITABLE(self->name)))) g_strlcpy(name, _("Tileset"), sizeof name);
  if (grid(self, &cols, &rows, &r, &err)) {
    def.name = name;
    def.source_path = self->path;
    def.png = self->png;
    def.png_size = self->png_size;
    def.image_w = self->image_w;
    def.image_h = self->image_h;
    def.tile_w = value(self->tile_w);
    def.tile_h = value(self->tile_h);
    def.margin = value(self->margin);
    def.spacing = value(self->spacing);
    def.default_collision = gtk_drop_down_get_selected(GTK_DROP_DOWN(self->collision)) == 1 ? TESS_TILE_COLLISION_FULL
                                                                                            : TESS_TILE_COLLISION_NONE;
    TessId id = 0;
    r = tess_edit_tileset_add(p, &def, &id, &err);
    if (r == TESS_OK) {
      g_autoptr(GError) error = NULL;
      if (!tess_document_commit(self->doc, &error))
        tess_ui_report(GTK_WIDGET(gtk_window_get_transient_for(GTK_WINDOW(self))), error->message);
      if (id_out) *id_out = id;
      return TRUE;
    }
  }
  if (err.file[0] == '\0') g_strlcpy(err.file, self->path, sizeof err.file);
  g_autofree char *reason = tess_document_describe_error(r, &err);
  g_autofree char *display = g_filename_display_name(self->path);
  g_autofree char *primary = g_strdup_printf(_("“%s” cannot be used as a tileset"), display);
  tess_ui_error_dialog(GTK_WINDOW(self), primary, reason);
  return FALSE;
}

GtkWidget *tess_tileset_dialog_get_field(TessTilesetDialog *self, const char *f) {
  if (g_str_equal(f, "name")) return self->name;
  if (g_str_equal(f, "tile-width")) return self->tile_w;
  if (g_str_equal(f, "tile-height")) return self->tile_h;
  if (g_str_equal(f, "margin")) return self->margin;
  if (g_str_equal(f, "spacing")) return self->spacing;
  if (g_str_equal(f, "collision")) return self->collision;
  return NULL;
}

static void on_response(GtkDialog *dialog, int response, gpointer user) {
  TessTilesetDialog *self = TESS_TILESET_DIALOG(dialog);
  if (response == GTK_RESPONSE_ACCEPT && !tess_tileset_dialog_apply(self, NULL)) return;
  gtk_window_destroy(GTK_WINDOW(dialog));
}

static void tess_tileset_dialog_dispose(GObject *object) {
  TessTilesetDialog *self = TESS_TILESET_DIALOG(object);
  g_clear_object(&self->doc);
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_TILESET_DIALOG);
  G_OBJECT_CLASS(tess_tileset_dialog_parent_class)->dispose(object);
}

static void tess_tileset_dialog_finalize(GObject *object) {
  TessTilesetDialog *self = TESS_TILESET_DIALOG(object);
  tess_free(self->png);
  g_clear_pointer(&self->surface, cairo_surface_destroy);
  g_free(self->path);
  G_OBJECT_CLASS(tess_tileset_dialog_parent_class)->finalize(object);
}

static void tess_tileset_dialog_class_init(TessTilesetDialogClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = tess_tileset_dialog_dispose;
  G_OBJECT_CLASS(klass)->finalize = tess_tileset_dialog_finalize;
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-tileset-dialog.ui");
  gtk_widget_class_bind_template_child(widget_class, TessTilesetDialog, name);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetDialog, tile_w);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetDialog, tile_h);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetDialog, margin);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetDialog, spacing);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetDialog, collision);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetDialog, message);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetDialog, preview);
}

static void tess_tileset_dialog_init(TessTilesetDialog *self) { gtk_widget_init_template(GTK_WIDGET(self)); }

/* A whole number in [lo, hi]; the preview follows it. */
static void number(TessTilesetDialog *self, GtkWidget *s, double v, double lo, double hi) {
  tess_ui_spin_setup(s, lo, hi, 1, 0);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), v);
  g_signal_connect(s, "value-changed", G_CALLBACK(on_value_changed), self);
}

GtkWidget *tess_tileset_dialog_new(GtkWindow *parent, TessDocument *doc, const char *path, GError **error) {
  TessError err = {0};
  uint8_t *png = NULL;
  size_t size = 0;
  uint32_t w = 0, h = 0;
  TessResult r = tess_file_read(path, PNG_MAX_BYTES, &png, &size, &err);
  if (r == TESS_OK) r = tess_png_info(png, size, path, &w, &h, &err);
  cairo_surface_t *surface = NULL;
  if (r == TESS_OK) surface = tess_ui_surface_from_png(png, size, path, &r, &err); /* truncated data fails here */
  if (r != TESS_OK) {
    tess_free(png);
    if (err.file[0] == '\0') g_strlcpy(err.file, path, sizeof err.file);
    tess_document_set_error_from_tess(error, r, &err);
    return NULL;
  }

  TessTilesetDialog *self = g_object_new(TESS_TYPE_TILESET_DIALOG, "transient-for", parent, "modal", TRUE,
                                         "destroy-with-parent", TRUE, "use-header-bar", TRUE, NULL);
  self->doc = g_object_ref(doc);
  self->path = g_strdup(path);
  self->png = png;
  self->png_size = size;
  self->image_w = w;
  self->image_h = h;
  self->surface = surface;

  gtk_dialog_add_buttons(GTK_DIALOG(self), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Add"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response(GTK_DIALOG(self), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class(gtk_dialog_get_widget_for_response(GTK_DIALOG(self), GTK_RESPONSE_ACCEPT), "suggested-action");

  g_autofree char *base = g_filename_display_basename(path);
  char *dot = strrchr(base, '.');
  if (dot) *dot = '\0';
  gtk_entry_set_max_length(GTK_ENTRY(self->name), TESS_NAME_MAX - 1);
  gtk_editable_set_text(GTK_EDITABLE(self->name), base);
  /* The current level's tile size is the likely one; never larger than the image. */
  uint32_t tile = 32;
  TessProject *p = tess_document_get_project(doc);
  if (p->level_count) tile = p->levels[0]->settings.tile_w;
  number(self, self->tile_w, MIN(tile, w), 1, 4096);
  number(self, self->tile_h, MIN(tile, h), 1, 4096);
  number(self, self->margin, 0, 0, 4096);
  number(self, self->spacing, 0, 0, 4096);
  gtk_drawing_area_set_draw_func(self->preview, draw_preview, self, NULL);
  g_signal_connect(self, "response", G_CALLBACK(on_response), NULL);
  update(self);
  return GTK_WIDGET(self);
}
