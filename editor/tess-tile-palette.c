/* TessTilePalette: pick tiles from a tileset. */
#include "tess-tile-palette.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tess-resources.h"
#include "tess-scroll-area.h"
#include "tess-tile-palette-private.h"
#include "tess-ui.h"

G_DEFINE_FINAL_TYPE(TessTilePalette, tess_tile_palette, GTK_TYPE_BOX)

enum { SIGNAL_STAMP_CHANGED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

/* What the template's controls follow: "tileset" (0 when the project has
 * none: the chooser, the menu and the view are off, the hint shows), "zoom"
 * (the label, and the buttons at 1x and 8x), "terrain-mode" (the Terrain
 * button and controls; tess-tile-palette-terrain.c). */
enum { PROP_0,
       PROP_TILESET,
       PROP_ZOOM,
       PROP_TERRAIN_MODE,
       N_PROPS };
static GParamSpec *props[N_PROPS];

static TessProject *project(TessTilePalette *self) { return self->doc ? tess_document_get_project(self->doc) : NULL; }

static TessTileset *current(TessTilePalette *self) {
  TessProject *p = project(self);
  return p ? tess_project_tileset(p, self->tileset) : NULL;
}

TessProject *tess_tile_palette_project(TessTilePalette *self) { return project(self); }
TessTileset *tess_tile_palette_current(TessTilePalette *self) { return current(self); }

cairo_surface_t *tess_tile_palette_get_surface(TessTilePalette *self, TessId id) {
  cairo_surface_t *s = g_hash_table_lookup(self->surfaces, GUINT_TO_POINTER(id));
  if (s) return s;
  TessTileset *ts = project(self) ? tess_project_tileset(project(self), id) : NULL;
  if (!ts || !ts->png) return NULL;
  TessError err = {0};
  s = tess_ui_surface_from_png(ts->png, ts->png_size, ts->name, NULL, &err);
  if (s) g_hash_table_insert(self->surfaces, GUINT_TO_POINTER(id), s);
  return s;
}

/* ---- Drawing -------------------------------------------------------------- */

static int auto_zoom(const TessTileset *ts) { return ts->tile_w < 24 ? 2 : 1; }

static void update_size(TessTilePalette *self) {
  TessTileset *ts = current(self);
  /* Small tiles are shown larger so that they can be aimed at, unless the user chose a zoom. */
  double was = self->scale;
  self->scale = self->zoom ? self->zoom : ts ? auto_zoom(ts)
                                             : 1;
  if (self->scale != was) g_object_notify_by_pspec(G_OBJECT(self), props[PROP_ZOOM]);
  if (!ts) {
    tess_scroll_area_set_content_size(TESS_SCROLL_AREA(self->area), 1, 1);
    return;
  }
  tess_scroll_area_set_content_size(TESS_SCROLL_AREA(self->area), (int)ceil(ts->image_w * self->scale),
                                    (int)ceil(ts->image_h * self->scale));
}

static void tile_rect(const TessTileset *ts, uint32_t col, uint32_t row, double *x, double *y) {
  *x = ts->margin + (double)col * (ts->tile_w + ts->spacing);
  *y = ts->margin + (double)row * (ts->tile_h + ts->spacing);
}

void tess_tile_palette_tile_origin(const TessTileset *ts, uint32_t col, uint32_t row, double *x, double *y) {
  tile_rect(ts, col, row, x, y);
}

/* The columns and rows of tiles that image rectangle (x, y, w, h) touches. */
static void tiles_touched(const TessTileset *ts, double x, double y, double w, double h, uint32_t *c0, uint32_t *c1,
                          uint32_t *r0, uint32_t *r1) {
  uint32_t rows = ts->columns ? (ts->tile_count + ts->columns - 1) / ts->columns : 0;
  double pw = ts->tile_w + ts->spacing, ph = ts->tile_h + ts->spacing;
  double a = floor((x - ts->margin) / pw), b = floor((x + w - ts->margin) / pw);
  double c = floor((y - ts->margin) / ph), d = floor((y + h - ts->margin) / ph);
  *c0 = a < 0 ? 0 : (uint32_t)MIN(a, (double)ts->columns);
  *c1 = b < 0 ? 0 : (uint32_t)MIN(b + 1, (double)ts->columns);
  *r0 = c < 0 ? 0 : (uint32_t)MIN(c, (double)rows);
  *r1 = d < 0 ? 0 : (uint32_t)MIN(d + 1, (double)rows);
}

/* Draws the visible rectangle (x, y, w, h) of the content: the widget is
 * only as big as the view, whatever the zoom and the tileset. */
static void draw(TessScrollArea *area, cairo_t *cr, double x, double y, int w, int h, gpointer user) {
  TessTilePalette *self = user;
  TessTileset *ts = current(self);
  if (!ts) return;
  /* The tileset only: the view may be larger than it. */
  cairo_rectangle(cr, 0, 0, ceil(ts->image_w * self->scale), ceil(ts->image_h * self->scale));
  cairo_clip(cr);
  /* A checkerboard shows transparency. */
  cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
  cairo_paint(cr);
  cairo_set_source_rgb(cr, 0.62, 0.62, 0.62);
  int bx = (int)floor(x / 16) * 16, by = (int)floor(y / 8) * 8; /* the pattern's own grid: 16 px wide pairs */
  for (int cy = by; cy < y + h; cy += 8)
    for (int cx = bx + (cy / 8) % 2 * 8; cx < x + w; cx += 16) cairo_rectangle(cr, cx, cy, 8, 8);
  cairo_fill(cr);

  cairo_save(cr);
  cairo_scale(cr, self->scale, self->scale);
  cairo_surface_t *s = tess_tile_palette_get_surface(self, ts->id);
  if (s) {
    /* Whole steps with the nearest pixel: pixel art stays sharp. */
    cairo_set_source_surface(cr, s, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_paint(cr);
  }
  /* The tile grid, where it shows. */
  cairo_set_line_width(cr, 1.0 / self->scale);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.25);
  uint32_t c0, c1, r0, r1;
  tiles_touched(ts, x / self->scale, y / self->scale, w / self->scale, h / self->scale, &c0, &c1, &r0, &r1);
  for (uint32_t r = r0; r < r1; r++)
    for (uint32_t c = c0; c < c1 && r * ts->columns + c < ts->tile_count; c++) {
      double tx, ty;
      tile_rect(ts, c, r, &tx, &ty);
      cairo_rectangle(cr, tx, ty, ts->tile_w, ts->tile_h);
    }
  cairo_stroke(cr);
  if (self->terrain_mode) { /* the labels instead of the selection */
    tess_tile_palette_terrain_draw(self, cr, ts);
    cairo_restore(cr);
    return;
  }
  /* The selection. */
  if (self->sel_w && self->sel_h) {
    double x0, y0, x1, y1;
    tile_rect(ts, self->sel_x, self->sel_y, &x0, &y0);
    tile_rect(ts, self->sel_x + self->sel_w - 1, self->sel_y + self->sel_h - 1, &x1, &y1);
    cairo_rectangle(cr, x0, y0, x1 + ts->tile_w - x0, y1 + ts->tile_h - y0);
    cairo_set_source_rgba(cr, 0.21, 0.52, 0.89, 0.25);
    cairo_fill_preserve(cr);
    cairo_set_line_width(cr, 2.0 / self->scale);
    cairo_set_source_rgb(cr, 0.21, 0.52, 0.89);
    cairo_stroke(cr);
  }
  cairo_restore(cr);
}

/* ---- Zoom ----------------------------------------------------------------- */

int tess_tile_palette_get_zoom(TessTilePalette *self) { return (int)self->scale; }

/* The tileset point under widget point (x, y) stays there. */
static void zoom_at(TessTilePalette *self, int zoom, double x, double y) {
  zoom = CLAMP(zoom, TESS_TILE_PALETTE_ZOOM_MIN, TESS_TILE_PALETTE_ZOOM_MAX);
  double old = self->scale, cx, cy;
  tess_scroll_area_widget_to_content(TESS_SCROLL_AREA(self->area), x, y, &cx, &cy);
  self->zoom = zoom;
  if (self->doc) tess_document_set_setting(self->doc, TESS_DOCUMENT_SETTING_PALETTE_ZOOM, zoom);
  update_size(self);
  tess_scroll_area_scroll_to(TESS_SCROLL_AREA(self->area), cx / old * self->scale, cy / old * self->scale, x, y);
  gtk_widget_queue_draw(self->area);
}

static void zoom_at_centre(TessTilePalette *self, int zoom) {
  zoom_at(self, zoom, gtk_widget_get_width(self->area) / 2.0, gtk_widget_get_height(self->area) / 2.0);
}

void tess_tile_palette_set_zoom(TessTilePalette *self, int zoom) {
  g_return_if_fail(TESS_IS_TILE_PALETTE(self));
  zoom_at_centre(self, zoom);
}

static void on_zoom_in(GtkButton *b, TessTilePalette *self) { zoom_at_centre(self, (int)self->scale + 1); }
static void on_zoom_out(GtkButton *b, TessTilePalette *self) { zoom_at_centre(self, (int)self->scale - 1); }

/* The template's closures. */
static gboolean id_is_set(gpointer unused, guint id) { return id != 0; }
static gboolean id_is_unset(gpointer unused, guint id) { return id == 0; }
static gboolean can_zoom_out(gpointer unused, guint tileset, int zoom) {
  return tileset && zoom > TESS_TILE_PALETTE_ZOOM_MIN;
}
static gboolean can_zoom_in(gpointer unused, guint tileset, int zoom) {
  return tileset && zoom < TESS_TILE_PALETTE_ZOOM_MAX;
}
static char *zoom_text(gpointer unused, int zoom) { return g_strdup_printf(_("%d×"), zoom); }

/* Ctrl+wheel zooms at the pointer (one whole step a notch); the wheel alone scrolls. */
static gboolean on_scroll(GtkEventControllerScroll *c, double dx, double dy, TessTilePalette *self) {
  GdkModifierType state = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(c));
  if (!(state & GDK_CONTROL_MASK) || dy == 0 || !current(self)) return FALSE;
  zoom_at(self, (int)self->scale + (dy < 0 ? 1 : -1), self->pointer_x, self->pointer_y);
  return TRUE;
}

static void on_motion(GtkEventControllerMotion *c, double x, double y, TessTilePalette *self) {
  self->pointer_x = x;
  self->pointer_y = y;
}

/* ---- Selection ------------------------------------------------------------ */

/* (cx, cy) in content pixels (tess_scroll_area_widget_to_content). */
static gboolean tile_at(TessTilePalette *self, double cx, double cy, uint32_t *col, uint32_t *row) {
  TessTileset *ts = current(self);
  if (!ts || ts->columns == 0) return FALSE;
  double px = cx / self->scale - ts->margin, py = cy / self->scale - ts->margin;
  if (px < 0 || py < 0) return FALSE;
  uint32_t rows = (ts->tile_count + ts->columns - 1) / ts->columns;
  uint32_t c = (uint32_t)(px / (ts->tile_w + ts->spacing)), r = (uint32_t)(py / (ts->tile_h + ts->spacing));
  if (c >= ts->columns) c = ts->columns - 1;
  if (r >= rows) r = rows - 1;
  *col = c;
  *row = r;
  return TRUE;
}

void tess_tile_palette_select(TessTilePalette *self, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  g_return_if_fail(TESS_IS_TILE_PALETTE(self));
  TessTileset *ts = current(self);
  if (!ts || ts->columns == 0 || w == 0 || h == 0) return;
  uint32_t rows = (ts->tile_count + ts->columns - 1) / ts->columns;
  if (x >= ts->columns || y >= rows) return;
  if (x + w > ts->columns) w = ts->columns - x;
  if (y + h > rows) h = rows - y;
  self->sel_x = x, self->sel_y = y, self->sel_w = w, self->sel_h = h;
  g_free(self->stamp);
  self->stamp = g_new0(TessCell, (size_t)w * h);
  self->stamp_w = w, self->stamp_h = h;
  for (uint32_t j = 0; j < h; j++)
    for (uint32_t i = 0; i < w; i++) {
      uint32_t tile = (y + j) * ts->columns + (x + i);
      self->stamp[j * w + i] = tile < ts->tile_count ? TESS_CELL_MAKE(ts->id, tile, 0) : 0;
    }
  gtk_widget_queue_draw(self->area);
  if (!self->quiet) g_signal_emit(self, signals[SIGNAL_STAMP_CHANGED], 0);
}

gboolean tess_tile_palette_follow_stamp(TessTilePalette *self, uint32_t w, uint32_t h, const TessCell *cells) {
  g_return_val_if_fail(TESS_IS_TILE_PALETTE(self), FALSE);
  if (!cells || w == 0 || h == 0 || (cells[0] & TESS_CELL_FLIPS) || !project(self)) return FALSE;
  TessTileset *ts = tess_project_tileset(project(self), TESS_CELL_TILESET(cells[0]));
  if (!ts || ts->columns == 0) return FALSE;
  uint32_t first = TESS_CELL_TILE(cells[0]);
  uint32_t x = first % ts->columns, y = first / ts->columns;
  if (x + w > ts->columns) return FALSE;
  for (uint32_t j = 0; j < h; j++)
    for (uint32_t i = 0; i < w; i++)
      if (cells[j * w + i] != TESS_CELL_MAKE(ts->id, (y + j) * ts->columns + x + i, 0)) return FALSE;
  self->quiet = TRUE;
  tess_tile_palette_set_tileset(self, ts->id);
  tess_tile_palette_select(self, x, y, w, h);
  self->quiet = FALSE;
  return TRUE;
}

gboolean tess_tile_palette_get_stamp(TessTilePalette *self, uint32_t *w, uint32_t *h, const TessCell **cells) {
  if (!self->stamp || !current(self)) return FALSE;
  *w = self->stamp_w;
  *h = self->stamp_h;
  *cells = self->stamp;
  return TRUE;
}

static void on_drag_begin(GtkGestureDrag *g, double wx, double wy, TessTilePalette *self) {
  /* Content pixels from here on: the tileset as drawn at this zoom, not the view. */
  double x, y;
  tess_scroll_area_widget_to_content(TESS_SCROLL_AREA(self->area), wx, wy, &x, &y);
  self->drag_x = x;
  self->drag_y = y;
  if (self->terrain_mode) {
    guint button = gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
    tess_tile_palette_terrain_press(self, x, y, button == GDK_BUTTON_SECONDARY, TRUE);
    return;
  }
  if (gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g)) != GDK_BUTTON_PRIMARY) return;
  uint32_t c, r;
  if (tile_at(self, x, y, &c, &r)) tess_tile_palette_select(self, c, r, 1, 1);
}

static void on_drag_update(GtkGestureDrag *g, double dx, double dy, TessTilePalette *self) {
  if (self->terrain_mode) {
    guint button = gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
    tess_tile_palette_terrain_press(self, self->drag_x + dx, self->drag_y + dy, button == GDK_BUTTON_SECONDARY, FALSE);
    return;
  }
  if (gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g)) != GDK_BUTTON_PRIMARY) return;
  uint32_t c0, r0, c1, r1;
  if (!tile_at(self, self->drag_x, self->drag_y, &c0, &r0)) return;
  if (!tile_at(self, self->drag_x + dx, self->drag_y + dy, &c1, &r1)) return;
  uint32_t x = MIN(c0, c1), y = MIN(r0, r1);
  uint32_t w = MAX(c0, c1) - x + 1, h = MAX(r0, r1) - y + 1;
  if (x != self->sel_x || y != self->sel_y || w != self->sel_w || h != self->sel_h)
    tess_tile_palette_select(self, x, y, w, h);
}

/* ---- Tilesets -------------------------------------------------------------- */

static void sync_tilesets(TessTilePalette *self) {
  TessProject *p = project(self);
  self->syncing = TRUE;
  g_array_set_size(self->tileset_ids, 0);
  guint old = g_list_model_get_n_items(G_LIST_MODEL(self->tileset_names));
  guint n = p ? p->tileset_count : 0;
  const char **names = g_new0(const char *, n + 1);
  for (guint i = 0; i < n; i++) {
    names[i] = p->tilesets[i]->name;
    g_array_append_val(self->tileset_ids, p->tilesets[i]->id);
  }
  gtk_string_list_splice(self->tileset_names, 0, old, names);
  g_free(names);

  guint sel = GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < n; i++)
    if (g_array_index(self->tileset_ids, TessId, i) == self->tileset) sel = i;
  if (sel == GTK_INVALID_LIST_POSITION && n > 0) sel = 0;
  TessId id = sel != GTK_INVALID_LIST_POSITION ? g_array_index(self->tileset_ids, TessId, sel) : 0;
  gtk_drop_down_set_selected(self->tilesets, sel);
  gboolean changed = id != self->tileset;
  self->tileset = id;
  self->syncing = FALSE;
  g_object_notify_by_pspec(G_OBJECT(self), props[PROP_TILESET]);
  update_size(self);
  if (changed) {
    self->sel_w = self->sel_h = 0;
    if (id) tess_tile_palette_select(self, 0, 0, 1, 1);
  }
  tess_tile_palette_terrain_sync(self);
  gtk_widget_queue_draw(self->area);
}

static void on_tileset_selected(GtkDropDown *dd, GParamSpec *pspec, TessTilePalette *self) {
  if (self->syncing) return;
  guint sel = gtk_drop_down_get_selected(dd);
  if (sel == GTK_INVALID_LIST_POSITION || sel >= self->tileset_ids->len) return;
  tess_tile_palette_set_tileset(self, g_array_index(self->tileset_ids, TessId, sel));
}

TessId tess_tile_palette_get_tileset(TessTilePalette *self) { return self->tileset; }

void tess_tile_palette_set_tileset(TessTilePalette *self, TessId id) {
  g_return_if_fail(TESS_IS_TILE_PALETTE(self));
  if (id == self->tileset) return;
  self->tileset = id;
  self->sel_w = self->sel_h = 0;
  sync_tilesets(self);
  if (current(self)) tess_tile_palette_select(self, 0, 0, 1, 1);
}

gboolean tess_tile_palette_rename_tileset(TessTilePalette *self, TessId id, const char *name) {
  TessTileset *ts = project(self) ? tess_project_tileset(project(self), id) : NULL;
  if (!ts) return FALSE;
  TessTileset copy;
  TessError err = {0};
  TessResult r = tess_tileset_copy(&copy, ts);
  if (r != TESS_OK) return tess_ui_apply(GTK_WIDGET(self), self->doc, r, NULL);
  if (!tess_ui_copy_name(copy.name, name) || strcmp(copy.name, ts->name) == 0) {
    tess_tileset_clear(&copy);
    return FALSE;
  }
  r = tess_edit_tileset_set(project(self), &copy, 0, &err);
  tess_tileset_clear(&copy);
  return tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

gboolean tess_tile_palette_remove_tileset(TessTilePalette *self, TessId id, TessId remap_to) {
  if (!project(self) || !tess_project_tileset(project(self), id)) return FALSE;
  TessError err = {0};
  TessResult r = tess_edit_tileset_remove(project(self), id, remap_to, &err);
  return tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

/* ---- Rename and remove dialogs ---------------------------------------------- */

static void on_rename_response(GtkDialog *dialog, int response, TessTilePalette *self) {
  if (response == GTK_RESPONSE_ACCEPT) {
    GtkEditable *entry = g_object_get_data(G_OBJECT(dialog), "entry");
    TessId id = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(dialog), "tileset"));
    tess_tile_palette_rename_tileset(self, id, gtk_editable_get_text(entry));
  }
  gtk_window_destroy(GTK_WINDOW(dialog));
}

static void on_entry_activate(GtkEntry *entry, GtkDialog *dialog) { gtk_dialog_response(dialog, GTK_RESPONSE_ACCEPT); }

static void show_rename(TessTilePalette *self) {
  TessTileset *ts = current(self);
  if (!ts) return;
  GtkWidget *dialog = gtk_dialog_new_with_buttons(_("Rename Tileset"), GTK_WINDOW(gtk_widget_get_root(GTK_WIDGET(self))),
                                                  GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT | GTK_DIALOG_USE_HEADER_BAR,
                                                  _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Rename"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response(GTK_DIALOG(dialog), GTK_RESPONSE_ACCEPT);
  GtkWidget *entry = gtk_entry_new();
  gtk_entry_set_max_length(GTK_ENTRY(entry), TESS_NAME_MAX - 1);
  gtk_editable_set_text(GTK_EDITABLE(entry), ts->name);
  gtk_widget_set_margin_start(entry, 12);
  gtk_widget_set_margin_end(entry, 12);
  gtk_widget_set_margin_top(entry, 12);
  gtk_widget_set_margin_bottom(entry, 12);
  g_signal_connect(entry, "activate", G_CALLBACK(on_entry_activate), dialog);
  gtk_box_append(GTK_BOX(gtk_dialog_get_content_area(GTK_DIALOG(dialog))), entry);
  g_object_set_data(G_OBJECT(dialog), "entry", entry);
  g_object_set_data(G_OBJECT(dialog), "tileset", GUINT_TO_POINTER(ts->id));
  g_signal_connect(dialog, "response", G_CALLBACK(on_rename_response), self);
  gtk_window_present(GTK_WINDOW(dialog));
}

static void on_remove_response(GtkDialog *dialog, int response, TessTilePalette *self) {
  if (response == GTK_RESPONSE_ACCEPT) {
    TessId id = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(dialog), "tileset"));
    GtkDropDown *dd = g_object_get_data(G_OBJECT(dialog), "remap");
    GArray *ids = g_object_get_data(G_OBJECT(dialog), "ids");
    guint sel = gtk_drop_down_get_selected(dd);
    TessId remap = (sel != GTK_INVALID_LIST_POSITION && sel > 0 && sel - 1 < ids->len) ? g_array_index(ids, TessId, sel - 1) : 0;
    tess_tile_palette_remove_tileset(self, id, remap);
  }
  gtk_window_destroy(GTK_WINDOW(dialog));
}

/* Removing a tileset asks what becomes of the cells that use it. */
static void show_remove(TessTilePalette *self) {
  TessTileset *ts = current(self);
  TessProject *p = project(self);
  if (!ts) return;
  g_autofree char *title = g_strdup_printf(_("Remove “%s”?"), ts->name);
  GtkWidget *dialog = gtk_message_dialog_new(GTK_WINDOW(gtk_widget_get_root(GTK_WIDGET(self))),
                                             GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT, GTK_MESSAGE_QUESTION,
                                             GTK_BUTTONS_NONE, "%s", title);
  gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s",
                                           _("Cells painted with its tiles are erased, or given the same tile of another tileset."));
  gtk_dialog_add_buttons(GTK_DIALOG(dialog), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Remove"), GTK_RESPONSE_ACCEPT, NULL);
  GtkWidget *remove = gtk_dialog_get_widget_for_response(GTK_DIALOG(dialog), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class(remove, "destructive-action");
  GtkStringList *names = gtk_string_list_new(NULL);
  gtk_string_list_append(names, _("Erase the cells"));
  GArray *ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    if (p->tilesets[i]->id == ts->id) continue;
    g_autofree char *label = g_strdup_printf(_("Use the tiles of “%s”"), p->tilesets[i]->name);
    gtk_string_list_append(names, label);
    g_array_append_val(ids, p->tilesets[i]->id);
  }
  GtkWidget *dd = gtk_drop_down_new(G_LIST_MODEL(names), NULL);
  gtk_widget_set_margin_start(dd, 12);
  gtk_widget_set_margin_end(dd, 12);
  gtk_box_append(GTK_BOX(gtk_message_dialog_get_message_area(GTK_MESSAGE_DIALOG(dialog))), dd);
  g_object_set_data(G_OBJECT(dialog), "remap", dd);
  g_object_set_data_full(G_OBJECT(dialog), "ids", ids, (GDestroyNotify)g_array_unref);
  g_object_set_data(G_OBJECT(dialog), "tileset", GUINT_TO_POINTER(ts->id));
  g_signal_connect(dialog, "response", G_CALLBACK(on_remove_response), self);
  gtk_window_present(GTK_WINDOW(dialog));
}

static void on_rename_clicked(GtkButton *b, TessTilePalette *self) {
  gtk_menu_button_popdown(GTK_MENU_BUTTON(self->menu_button));
  show_rename(self);
}

static void on_remove_clicked(GtkButton *b, TessTilePalette *self) {
  gtk_menu_button_popdown(GTK_MENU_BUTTON(self->menu_button));
  show_remove(self);
}

/* ---- Document ---------------------------------------------------------------- */

static void on_doc_changed(TessDocument *doc, gpointer change_ptr, TessTilePalette *self) {
  const TessChange *change = change_ptr;
  if (change->kind != TESS_CHANGE_TILESET) return;
  g_hash_table_remove(self->surfaces, GUINT_TO_POINTER(change->id));
  self->tilesets_dirty = TRUE;
}

static void on_doc_committed(TessDocument *doc, TessTilePalette *self) {
  if (!self->tilesets_dirty) return;
  self->tilesets_dirty = FALSE;
  /* A tileset just added (Add Tileset, a drop, an import, an undone removal)
   * is what the user wants to paint with next: show it. */
  TessProject *p = project(self);
  TessId added = 0;
  for (uint32_t i = 0; p && i < p->tileset_count; i++) {
    gboolean known = FALSE;
    for (guint k = 0; k < self->tileset_ids->len; k++)
      if (g_array_index(self->tileset_ids, TessId, k) == p->tilesets[i]->id) known = TRUE;
    if (!known) added = p->tilesets[i]->id;
  }
  sync_tilesets(self);
  if (added) tess_tile_palette_set_tileset(self, added);
  /* The selected tiles may be out of range after a reload. */
  if (current(self) && self->sel_w) tess_tile_palette_select(self, self->sel_x, self->sel_y, self->sel_w, self->sel_h);
}

void tess_tile_palette_set_document(TessTilePalette *self, TessDocument *doc) {
  g_return_if_fail(TESS_IS_TILE_PALETTE(self));
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  g_hash_table_remove_all(self->surfaces);
  g_clear_pointer(&self->stamp, g_free);
  self->tileset = 0;
  self->sel_w = self->sel_h = 0;
  self->zoom = 0;
  if (doc) {
    self->doc = g_object_ref(doc);
    /* The zoom chosen last time in this project (0: automatic). */
    int64_t zoom = tess_document_get_setting(doc, TESS_DOCUMENT_SETTING_PALETTE_ZOOM, 0);
    self->zoom = zoom >= TESS_TILE_PALETTE_ZOOM_MIN && zoom <= TESS_TILE_PALETTE_ZOOM_MAX ? (int)zoom : 0;
    self->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_doc_changed), self);
    self->committed_handler = g_signal_connect(doc, "committed", G_CALLBACK(on_doc_committed), self);
  }
  sync_tilesets(self);
}

/* ---- Construction ---------------------------------------------------------- */

static void tess_tile_palette_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  TessTilePalette *self = TESS_TILE_PALETTE(object);
  switch (id) {
    case PROP_TILESET: g_value_set_uint(value, self->tileset); break;
    case PROP_ZOOM: g_value_set_int(value, (int)self->scale); break;
    case PROP_TERRAIN_MODE: g_value_set_boolean(value, self->terrain_mode); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_tile_palette_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  TessTilePalette *self = TESS_TILE_PALETTE(object);
  switch (id) {
    case PROP_TILESET: tess_tile_palette_set_tileset(self, g_value_get_uint(value)); break;
    case PROP_ZOOM: tess_tile_palette_set_zoom(self, g_value_get_int(value)); break;
    case PROP_TERRAIN_MODE: tess_tile_palette_set_terrain_mode(self, g_value_get_boolean(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_tile_palette_dispose(GObject *object) {
  TessTilePalette *self = TESS_TILE_PALETTE(object);
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_TILE_PALETTE);
  G_OBJECT_CLASS(tess_tile_palette_parent_class)->dispose(object);
}

static void tess_tile_palette_finalize(GObject *object) {
  TessTilePalette *self = TESS_TILE_PALETTE(object);
  g_hash_table_unref(self->surfaces);
  g_array_unref(self->tileset_ids);
  g_free(self->stamp);
  G_OBJECT_CLASS(tess_tile_palette_parent_class)->finalize(object);
}

static void tess_tile_palette_class_init(TessTilePaletteClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  object_class->dispose = tess_tile_palette_dispose;
  object_class->finalize = tess_tile_palette_finalize;
  object_class->get_property = tess_tile_palette_get_property;
  object_class->set_property = tess_tile_palette_set_property;
  signals[SIGNAL_STAMP_CHANGED] = g_signal_new("stamp-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                               NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The terrain colour chosen (or the terrain mode left): tess_tile_palette_get_terrain says which. */
  g_signal_new("terrain-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  props[PROP_TILESET] = g_param_spec_uint("tileset", NULL, NULL, 0, G_MAXUINT, 0, rw);
  props[PROP_ZOOM] = g_param_spec_int("zoom", NULL, NULL, TESS_TILE_PALETTE_ZOOM_MIN, TESS_TILE_PALETTE_ZOOM_MAX,
                                      TESS_TILE_PALETTE_ZOOM_MIN, rw);
  props[PROP_TERRAIN_MODE] = g_param_spec_boolean("terrain-mode", NULL, NULL, FALSE, rw);
  g_object_class_install_properties(object_class, N_PROPS, props);

  /* Referencing the bundle keeps it linked from the static library (its
   * constructor registers it), also where this widget is used alone. */
  (void)tess_get_resource();
  g_type_ensure(TESS_TYPE_SCROLL_AREA);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-tile-palette.ui");
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, tilesets);
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, tileset_names);
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, area);
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, menu_button);
  gtk_widget_class_bind_template_callback(widget_class, on_tileset_selected);
  gtk_widget_class_bind_template_callback(widget_class, on_rename_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_remove_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_zoom_in);
  gtk_widget_class_bind_template_callback(widget_class, on_zoom_out);
  gtk_widget_class_bind_template_callback(widget_class, on_scroll);
  gtk_widget_class_bind_template_callback(widget_class, on_motion);
  gtk_widget_class_bind_template_callback(widget_class, on_drag_begin);
  gtk_widget_class_bind_template_callback(widget_class, on_drag_update);
  gtk_widget_class_bind_template_callback(widget_class, id_is_set);
  gtk_widget_class_bind_template_callback(widget_class, id_is_unset);
  gtk_widget_class_bind_template_callback(widget_class, can_zoom_in);
  gtk_widget_class_bind_template_callback(widget_class, can_zoom_out);
  gtk_widget_class_bind_template_callback(widget_class, zoom_text);
  tess_tile_palette_terrain_class_init(widget_class);
}

static void tess_tile_palette_init(TessTilePalette *self) {
  self->surfaces = g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)cairo_surface_destroy);
  self->tileset_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  self->scale = 1.0;
  gtk_widget_init_template(GTK_WIDGET(self));
  tess_scroll_area_set_draw_func(TESS_SCROLL_AREA(self->area), draw, self, NULL);
}

GtkWidget *tess_tile_palette_get_view(TessTilePalette *self) { return self->area; }

GtkWidget *tess_tile_palette_new(void) { return g_object_new(TESS_TYPE_TILE_PALETTE, NULL); }
