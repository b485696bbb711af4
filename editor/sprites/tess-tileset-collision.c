/* TessTilesetCollision: tiles and their collision shapes (see tess-tileset-collision.h). */
#include "tess-tileset-collision.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tess-scroll-area.h"
#include "tess-sprite-messages.h"
#include "tess-tileset-trace.h"
#include "tess-ui.h"
#include "tessera/image.h"
#include "tessera/mask.h"

#define GAP 6

struct _TessTilesetCollision {
  GtkBox parent_instance;
  TessDocument *doc;
  gulong changed_handler;
  TessId tileset;
  TessId loaded_tileset; /* the tileset load_tileset last showed */
  guint selected;
  guint reload_source;
  gboolean loading, applying;
  guint load_count;  /* how many times load_tileset ran (tests: one choice, one load) */
  guint drawn_tiles; /* tiles the last frame painted (tests: only those in view) */

  cairo_surface_t *image;   /* the tileset's PNG, premultiplied */
  cairo_pattern_t *checker; /* behind the tiles (checkerboard) */
  TessImage pixels;         /* the same, straight RGBA for tracing */
  gboolean has_pixels;
  char *image_problem; /* why the tileset's PNG did not decode (shown, and said again when tracing is asked) */

  GtkDropDown *tileset_choice;
  GArray *tileset_ids;
  GtkSpinButton *threshold, *max_vertices, *tolerance;
  GtkDropDown *override;
  GtkCheckButton *retrace_hand_set;
  GtkWidget *grid;
  GtkLabel *summary, *tile_label, *message;

  /* Trace All runs on a worker (tess-tileset-trace.c) while a progress row
   * offers Cancel; the result is applied here, on the main thread. */
  GtkWidget *trace_button, *trace_row, *trace_cancel_button;
  GtkProgressBar *trace_bar;
  GCancellable *trace_cancel;     /* the running trace's; NULL when idle */
  TessTilesetTrace *trace_job;    /* borrowed from the worker's task while it runs (progress) */
  TessId trace_tileset;           /* the tileset being traced */
  char trace_name[TESS_NAME_MAX]; /* its name when the trace started (said when it is refused or cancelled) */
  gboolean trace_retrace;         /* "Retrace tiles set by hand" when the trace started */
  gboolean trace_hold;            /* tests: hold the next trace's worker part-way */
  guint trace_tick;
  gboolean disposed;
};

G_DEFINE_FINAL_TYPE(TessTilesetCollision, tess_tileset_collision, GTK_TYPE_BOX)

enum { PROP_0,
       PROP_TRACING,
       N_PROPS };
static GParamSpec *props[N_PROPS];

static TessProject *project(TessTilesetCollision *self) {
  return self->doc ? tess_document_get_project(self->doc) : NULL;
}
static TessTileset *current(TessTilesetCollision *self) {
  TessProject *p = project(self);
  return p && self->tileset ? tess_project_tileset(p, self->tileset) : NULL;
}

static void show_message(TessTilesetCollision *self, const char *text) {
  gtk_label_set_text(self->message, text ? text : "");
  gtk_widget_set_visible(GTK_WIDGET(self->message), text && *text);
}

/* ---- Grid geometry and drawing ------------------------------------------------ */

static double tile_scale(const TessTileset *ts) {
  uint32_t side = MAX(ts->tile_w, ts->tile_h);
  return side <= 24 ? 3.0 : side <= 48 ? 2.0
                        : side <= 128  ? 1.0
                                       : 128.0 / side;
}

static void tile_cell(const TessTileset *ts, guint tile, double *x, double *y, double *w, double *h) {
  double s = tile_scale(ts);
  guint cols = ts->columns ? ts->columns : 1;
  *w = ts->tile_w * s;
  *h = ts->tile_h * s;
  *x = GAP + (tile % cols) * (*w + GAP);
  *y = GAP + (tile / cols) * (*h + GAP);
}

static void piece_color(guint i, double *r, double *g, double *b) {
  static const double palette[6][3] = {{0.20, 0.52, 0.89}, {0.90, 0.38, 0.00}, {0.18, 0.76, 0.49}, {0.75, 0.38, 0.80}, {0.96, 0.76, 0.07}, {0.15, 0.64, 0.72}};
  *r = palette[i % 6][0], *g = palette[i % 6][1], *b = palette[i % 6][2];
}

/* 6 px squares, light and dark, repeated (made once). */
static cairo_pattern_t *checkerboard(TessTilesetCollision *self) {
  if (self->checker) return self->checker;
  cairo_surface_t *cell = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 12, 12);
  cairo_t *cr = cairo_create(cell);
  cairo_set_source_rgb(cr, 0.80, 0.80, 0.80);
  cairo_paint(cr);
  cairo_set_source_rgb(cr, 0.64, 0.64, 0.64);
  cairo_rectangle(cr, 0, 0, 6, 6);
  cairo_rectangle(cr, 6, 6, 6, 6);
  cairo_fill(cr);
  cairo_destroy(cr);
  self->checker = cairo_pattern_create_for_surface(cell);
  cairo_surface_destroy(cell);
  cairo_pattern_set_extend(self->checker, CAIRO_EXTEND_REPEAT);
  cairo_pattern_set_filter(self->checker, CAIRO_FILTER_NEAREST);
  return self->checker;
}

/* One tile: its pixels on a checkerboard, its collision shape, its one-way
 * edge, the selection. */
static void draw_tile(TessTilesetCollision *self, cairo_t *cr, const TessTileset *ts, guint t) {
  double s = tile_scale(ts);
  double x, y, w, h;
  tile_cell(ts, t, &x, &y, &w, &h);
  uint32_t px, py;
  tess_tileset_tile_origin(ts, t, &px, &py);
  /* checkerboard (one repeating pattern: a fill, not 64 squares), then the tile's pixels */
  cairo_save(cr);
  cairo_rectangle(cr, x, y, w, h);
  cairo_clip(cr);
  cairo_translate(cr, x, y);
  cairo_set_source(cr, checkerboard(self));
  cairo_paint(cr);
  cairo_scale(cr, s, s);
  cairo_set_source_surface(cr, self->image, -(double)px, -(double)py);
  cairo_pattern_set_filter(cairo_get_source(cr), s >= 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_paint(cr);
  cairo_restore(cr);

  const TessTileInfo *info = &ts->tiles[t];
  cairo_set_line_width(cr, 1.5);
  if (info->collision == TESS_TILE_COLLISION_FULL) {
    cairo_rectangle(cr, x + 1, y + 1, w - 2, h - 2);
    cairo_set_source_rgba(cr, 0.20, 0.52, 0.89, 0.30);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.20, 0.52, 0.89);
    cairo_stroke(cr);
  } else if (info->collision == TESS_TILE_COLLISION_TRACED) {
    for (uint32_t i = 0; i < info->piece_count; i++) {
      const TessPolygon *poly = &info->pieces[i];
      for (uint32_t k = 0; k < poly->count; k++) {
        if (k == 0) cairo_move_to(cr, x + poly->v[k].x * s, y + poly->v[k].y * s);
        else cairo_line_to(cr, x + poly->v[k].x * s, y + poly->v[k].y * s);
      }
      cairo_close_path(cr);
      double r, g, b;
      piece_color(i, &r, &g, &b);
      cairo_set_source_rgba(cr, r, g, b, 0.35);
      cairo_fill_preserve(cr);
      cairo_set_source_rgb(cr, r, g, b);
      cairo_stroke(cr);
    }
  }
  if (info->one_way && info->collision != TESS_TILE_COLLISION_NONE) {
    /* The top edge, thick, with ticks pointing down: lands from above. */
    cairo_set_source_rgb(cr, 0.96, 0.60, 0.07);
    cairo_set_line_width(cr, 3.0);
    cairo_move_to(cr, x, y + 1.5);
    cairo_line_to(cr, x + w, y + 1.5);
    cairo_stroke(cr);
    cairo_set_line_width(cr, 1.5);
    for (double tx = x + 4; tx < x + w - 2; tx += 8) {
      cairo_move_to(cr, tx, y + 2);
      cairo_line_to(cr, tx + 3, y + 7);
    }
    cairo_stroke(cr);
  }
  if (t == self->selected) {
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.30);
    cairo_set_line_width(cr, 2.5);
    cairo_rectangle(cr, x - 2, y - 2, w + 4, h + 4);
    cairo_stroke(cr);
  }
}

/* The tiles in rows r0..r1, columns c0..c1 of the grid that the visible
 * rectangle (x, y, width, height) touches, clipped to the grid; FALSE when none. */
static gboolean tiles_in_view(const TessTileset *ts, double x, double y, int width, int height, guint *c0, guint *c1,
                              guint *r0, guint *r1) {
  double ox, oy, w, h;
  tile_cell(ts, 0, &ox, &oy, &w, &h);
  guint cols = ts->columns ? ts->columns : 1, rows = (ts->tile_count + cols - 1) / cols;
  if (rows == 0) return FALSE;
  /* A selected tile's outline reaches 3 px into the gap around it. */
  double fc0 = floor((x - GAP - 3) / (w + GAP)), fc1 = floor((x + width - GAP + 3) / (w + GAP));
  double fr0 = floor((y - GAP - 3) / (h + GAP)), fr1 = floor((y + height - GAP + 3) / (h + GAP));
  if (fc1 < 0 || fr1 < 0 || fc0 >= cols || fr0 >= rows) return FALSE;
  *c0 = fc0 < 0 ? 0 : (guint)fc0;
  *r0 = fr0 < 0 ? 0 : (guint)fr0;
  *c1 = fc1 >= cols ? cols - 1 : (guint)fc1;
  *r1 = fr1 >= rows ? rows - 1 : (guint)fr1;
  return TRUE;
}

/* Only the tiles in view: a big tileset has 65,536. */
static void draw_grid(TessScrollArea *area, cairo_t *cr, double x, double y, int width, int height, gpointer user) {
  TessTilesetCollision *self = user;
  const TessTileset *ts = current(self);
  self->drawn_tiles = 0;
  guint c0, c1, r0, r1;
  if (!ts || !self->image || !tiles_in_view(ts, x, y, width, height, &c0, &c1, &r0, &r1)) return;
  guint cols = ts->columns ? ts->columns : 1;
  for (guint r = r0; r <= r1; r++)
    for (guint c = c0; c <= c1 && r * cols + c < ts->tile_count; c++) {
      draw_tile(self, cr, ts, r * cols + c);
      self->drawn_tiles++;
    }
}

static void update_grid_size(TessTilesetCollision *self) {
  const TessTileset *ts = current(self);
  int w = 0, h = 0;
  if (ts && ts->tile_count) {
    double x, y, cw, ch;
    guint cols = ts->columns ? ts->columns : 1;
    tile_cell(ts, MIN(cols, ts->tile_count) - 1, &x, &y, &cw, &ch);
    w = (int)(x + cw + GAP);
    tile_cell(ts, ts->tile_count - 1, &x, &y, &cw, &ch);
    h = (int)(y + ch + GAP);
  }
  tess_scroll_area_set_content_size(TESS_SCROLL_AREA(self->grid), w, h);
}

/* ---- State --------------------------------------------------------------------- */

static void update_summary(TessTilesetCollision *self) {
  const TessTileset *ts = current(self);
  if (!ts) {
    gtk_label_set_text(self->summary, _("No tileset."));
    gtk_label_set_text(self->tile_label, "");
    return;
  }
  guint none = 0, full = 0, traced = 0, pieces = 0, one_way = 0;
  for (uint32_t i = 0; i < ts->tile_count; i++) {
    const TessTileInfo *t = &ts->tiles[i];
    if (t->collision == TESS_TILE_COLLISION_NONE) none++;
    else if (t->collision == TESS_TILE_COLLISION_FULL) full++;
    else traced++, pieces += t->piece_count;
    if (t->one_way && t->collision != TESS_TILE_COLLISION_NONE) one_way++;
  }
  g_autofree char *text = g_strdup_printf(_("%u tiles: %u none, %u full, %u traced (%u pieces), %u one-way"),
                                          ts->tile_count, none, full, traced, pieces, one_way);
  gtk_label_set_text(self->summary, text);
  if (self->selected < ts->tile_count) {
    const TessTileInfo *t = &ts->tiles[self->selected];
    guint how = t->collision == TESS_TILE_COLLISION_NONE   ? TESS_TILE_OVERRIDE_NONE
                : t->one_way                               ? TESS_TILE_OVERRIDE_ONE_WAY
                : t->collision == TESS_TILE_COLLISION_FULL ? TESS_TILE_OVERRIDE_FULL
                                                           : TESS_TILE_OVERRIDE_TRACED;
    self->loading = TRUE;
    gtk_drop_down_set_selected(self->override, how);
    self->loading = FALSE;
    g_autofree char *label = g_strdup_printf(_("Tile %u"), self->selected);
    gtk_label_set_text(self->tile_label, label);
  }
}

static void load_tileset(TessTilesetCollision *self) {
  self->load_count++;
  g_clear_pointer(&self->image, cairo_surface_destroy);
  if (self->has_pixels) tess_image_clear(&self->pixels);
  self->has_pixels = FALSE;
  /* A reload after an edit of the same tileset keeps what the panel said about that edit (an edit
   * that the file did not take changes the tileset first, then is refused); another tileset, or
   * the image's own problem, starts afresh. */
  gboolean stale = self->tileset != self->loaded_tileset ||
                   (self->image_problem && g_strcmp0(gtk_label_get_text(self->message), self->image_problem) == 0);
  if (stale) show_message(self, NULL);
  self->loaded_tileset = self->tileset;
  g_clear_pointer(&self->image_problem, g_free);
  const TessTileset *ts = current(self);
  if (ts) {
    TessError err = {0};
    TessResult decoded = tess_png_decode(ts->png, ts->png_size, ts->name, &self->pixels, &err);
    if (decoded == TESS_OK) {
      self->has_pixels = TRUE;
      cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, self->pixels.width, self->pixels.height);
      if (cairo_surface_status(surf) == CAIRO_STATUS_SUCCESS) {
        cairo_surface_flush(surf);
        uint8_t *dst = cairo_image_surface_get_data(surf);
        int stride = cairo_image_surface_get_stride(surf);
        for (uint32_t y = 0; y < self->pixels.height; y++) {
          const uint8_t *src = self->pixels.pixels + (size_t)y * self->pixels.stride;
          uint32_t *row = (uint32_t *)(dst + (size_t)y * stride);
          for (uint32_t x = 0; x < self->pixels.width; x++) {
            uint32_t a = src[4 * x + 3];
            row[x] = (a << 24) | (((src[4 * x] * a + 127) / 255) << 16) | (((src[4 * x + 1] * a + 127) / 255) << 8) |
                     ((src[4 * x + 2] * a + 127) / 255);
          }
        }
        cairo_surface_mark_dirty(surf);
        self->image = surf;
      } else {
        cairo_surface_destroy(surf);
      }
    } else {
      self->image_problem = tess_sprite_message_tileset_image(ts, decoded, &err);
      show_message(self, self->image_problem);
    }
    self->loading = TRUE;
    gtk_spin_button_set_value(self->threshold, ts->alpha_threshold ? ts->alpha_threshold : 1);
    self->loading = FALSE;
    if (self->selected >= ts->tile_count) self->selected = 0;
  }
  gtk_widget_set_sensitive(GTK_WIDGET(self->override), ts != NULL);
  update_grid_size(self);
  update_summary(self);
}

/* Shows self->tileset in the dropdown. Only this code sets the dropdown's
 * selection, always under `loading`, so the selection handler sees user
 * choices only. */
static void show_chosen(TessTilesetCollision *self) {
  guint sel = GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < self->tileset_ids->len; i++)
    if (g_array_index(self->tileset_ids, TessId, i) == self->tileset) sel = i;
  if (gtk_drop_down_get_selected(self->tileset_choice) == sel) return;
  self->loading = TRUE;
  gtk_drop_down_set_selected(self->tileset_choice, sel);
  self->loading = FALSE;
}

/* Whether the dropdown already lists exactly the project's tilesets, in order, by name. */
static gboolean list_is_current(TessTilesetCollision *self, TessProject *p) {
  GListModel *model = gtk_drop_down_get_model(self->tileset_choice);
  guint n = p ? p->tileset_count : 0;
  if (!model || self->tileset_ids->len != n || g_list_model_get_n_items(model) != n) return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_array_index(self->tileset_ids, TessId, i) != p->tilesets[i]->id ||
        g_strcmp0(gtk_string_list_get_string(GTK_STRING_LIST(model), i), p->tilesets[i]->name) != 0)
      return FALSE;
  return TRUE;
}

/* Rebuilds the dropdown's list when the project's tilesets changed, never
 * in answer to a choice: replacing the model of a dropdown from its own
 * selection handler re-enters that handler (the window froze, loading the
 * tileset thousands of times a second). Falls back to the first tileset
 * when the shown one is gone. */
static void fill_tilesets(TessTilesetCollision *self) {
  TessProject *p = project(self);
  gboolean found = FALSE;
  for (uint32_t i = 0; p && i < p->tileset_count; i++)
    if (p->tilesets[i]->id == self->tileset) found = TRUE;
  if (!found) self->tileset = p && p->tileset_count ? p->tilesets[0]->id : 0;
  if (!list_is_current(self, p)) {
    GtkStringList *names = gtk_string_list_new(NULL);
    g_array_set_size(self->tileset_ids, 0);
    for (uint32_t i = 0; p && i < p->tileset_count; i++) {
      gtk_string_list_append(names, p->tilesets[i]->name);
      g_array_append_val(self->tileset_ids, p->tilesets[i]->id);
    }
    self->loading = TRUE;
    gtk_drop_down_set_model(self->tileset_choice, G_LIST_MODEL(names));
    self->loading = FALSE;
    g_object_unref(names);
  }
  show_chosen(self);
}

static gboolean reload_idle(gpointer user) {
  TessTilesetCollision *self = user;
  self->reload_source = 0;
  fill_tilesets(self);
  load_tileset(self);
  return G_SOURCE_REMOVE;
}

static void on_doc_changed(TessDocument *doc, gpointer change_ptr, TessTilesetCollision *self) {
  const TessChange *change = change_ptr;
  if (change->kind != TESS_CHANGE_TILESET) return;
  if (!self->reload_source) self->reload_source = g_idle_add(reload_idle, self);
}

/* ---- Edits ---------------------------------------------------------------------- */

/* Stores `changed` as one undo step: tile `tile`'s new collision, or every
 * tile's (TESS_SPRITE_MESSAGE_ALL_TILES). A refusal names the tileset and
 * says whether the change was dropped (the project refused it) or is kept in
 * memory (the file did not take it). */
static gboolean store(TessTilesetCollision *self, const TessTileset *changed, guint tile, GError **error) {
  TessError err = {0};
  self->applying = TRUE;
  TessResult r = tess_edit_tileset_set(project(self), changed, 0, &err);
  self->applying = FALSE;
  if (r != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_tileset_refused(changed->name, tile, r, &err);
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, (int)r, msg);
    return FALSE;
  }
  g_autoptr(GError) failed = NULL;
  if (tess_document_commit(self->doc, &failed)) return TRUE;
  int code = failed ? failed->code : TESS_ERR_IO;
  g_autofree char *msg = tess_sprite_message_tileset_unsaved(changed->name, tile, (TessResult)code,
                                                             failed ? failed->message : "");
  g_set_error_literal(error, TESS_DOCUMENT_ERROR, code, msg);
  return FALSE;
}

/* Why tileset `ts` cannot be traced now (it shows no pixels): its image's problem. */
static void set_no_pixels_error(TessTilesetCollision *self, const TessTileset *ts, GError **error) {
  if (self->image_problem) {
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, TESS_ERR_FORMAT, self->image_problem);
    return;
  }
  TessError err = {0};
  g_autofree char *msg = tess_sprite_message_tileset_image(ts, TESS_ERR_FORMAT, &err);
  g_set_error_literal(error, TESS_DOCUMENT_ERROR, TESS_ERR_FORMAT, msg);
}

static void settings_from_controls(TessTilesetCollision *self, TessMaskSettings *s) {
  tess_mask_settings_default(s);
  s->threshold = (uint8_t)gtk_spin_button_get_value_as_int(self->threshold);
  s->max_vertices = (uint32_t)gtk_spin_button_get_value_as_int(self->max_vertices);
  s->tolerance = gtk_spin_button_get_value(self->tolerance);
  s->mode = TESS_MASK_PIECES;
}

/* Whether a tile's collision was set by hand: the project stores no flag, so
 * a tileset whose tiles all share one collision, none traced or one-way, is
 * untouched (as added), and in any other tileset every tile that is not a
 * plain traced shape (none, full square, one-way) was chosen by the user. */
static gboolean hand_set(const TessTileInfo *t) { return t->collision != TESS_TILE_COLLISION_TRACED || t->one_way; }

static gboolean tileset_untouched(const TessTileset *ts) {
  for (uint32_t i = 0; i < ts->tile_count; i++)
    if (ts->tiles[i].collision == TESS_TILE_COLLISION_TRACED || ts->tiles[i].one_way ||
        ts->tiles[i].collision != ts->tiles[0].collision)
      return FALSE;
  return TRUE;
}

guint tess_tileset_collision_count_hand_set(TessTilesetCollision *self) {
  const TessTileset *ts = current(self);
  if (!ts || tileset_untouched(ts)) return 0;
  guint n = 0;
  for (uint32_t i = 0; i < ts->tile_count; i++) n += hand_set(&ts->tiles[i]);
  return n;
}

void tess_tileset_collision_set_retrace_hand_set(TessTilesetCollision *self, gboolean retrace) {
  gtk_check_button_set_active(self->retrace_hand_set, retrace);
}

/* What Trace All reads, copied for the worker. */
static TessTilesetTrace *trace_job_new(TessTilesetCollision *self, GError **error) {
  const TessTileset *ts = current(self);
  if (!ts) {
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, 0, _("Choose a tileset to trace first."));
    return NULL;
  }
  if (!self->has_pixels) {
    set_no_pixels_error(self, ts, error);
    return NULL;
  }
  TessMaskSettings s;
  settings_from_controls(self, &s);
  TessTilesetTrace *job = tess_tileset_trace_new(ts, &self->pixels, &s);
  if (!job) {
    g_autofree char *msg = tess_sprite_message_tileset_nomem(ts->name);
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, TESS_ERR_NOMEM, msg);
  }
  return job;
}

/* Stores a finished trace of `tileset` as one undo step. Hand-set tiles
 * keep their collision unless the user asked to retrace them; the others
 * take the traced result (swapped, so each tileset still frees what it
 * owns). The tileset as it is now is the base: edits made while the
 * worker ran are kept, unless the grid itself changed. */
static gboolean apply_trace(TessTilesetCollision *self, TessId tileset, TessTilesetTrace *job, gboolean retrace,
                            GError **error) {
  TessProject *p = project(self);
  const TessTileset *ts = p ? tess_project_tileset(p, tileset) : NULL;
  TessTileset *traced = tess_tileset_trace_get_tileset(job);
  if (!ts || ts->tile_count != traced->tile_count || ts->tile_w != traced->tile_w || ts->tile_h != traced->tile_h) {
    g_autofree char *msg = tess_sprite_message_tileset_changed(ts ? ts->name : traced->name);
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, 0, msg);
    return FALSE;
  }
  TessTileset copy;
  if (tess_tileset_copy(&copy, ts) != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_tileset_nomem(ts->name);
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, TESS_ERR_NOMEM, msg);
    return FALSE;
  }
  copy.alpha_threshold = tess_tileset_trace_get_settings(job)->threshold;
  gboolean keep = !retrace && !tileset_untouched(ts);
  for (uint32_t i = 0; i < copy.tile_count; i++) {
    if (keep && hand_set(&ts->tiles[i])) continue;
    traced->tiles[i].one_way = 0; /* a traced shape collides from every side */
    TessTileInfo t = copy.tiles[i];
    copy.tiles[i] = traced->tiles[i];
    traced->tiles[i] = t;
  }
  gboolean ok = store(self, &copy, TESS_SPRITE_MESSAGE_ALL_TILES, error);
  tess_tileset_clear(&copy);
  return ok;
}

gboolean tess_tileset_collision_trace_all(TessTilesetCollision *self, GError **error) {
  TessTilesetTrace *job = trace_job_new(self, error);
  if (!job) return FALSE;
  TessError err = {0};
  TessResult r = tess_tileset_trace_run(job, &err);
  gboolean ok;
  if (r != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_tileset_trace(tess_tileset_trace_get_tileset(job)->name, r, &err);
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, (int)r, msg);
    ok = FALSE;
  } else {
    ok = apply_trace(self, self->tileset, job, gtk_check_button_get_active(self->retrace_hand_set), error);
  }
  tess_tileset_trace_free(job);
  return ok;
}

/* ---- Trace All on a worker ------------------------------------------------------ */

/* The row's visibility and the button's sensitivity follow "tracing" (bindings made in init). */
static void show_tracing(TessTilesetCollision *self, gboolean running) {
  g_object_notify_by_pspec(G_OBJECT(self), props[PROP_TRACING]);
  gtk_widget_set_sensitive(self->trace_cancel_button, running);
  gtk_progress_bar_set_fraction(self->trace_bar, 0);
  gtk_progress_bar_set_text(self->trace_bar, running ? _("Tracing…") : NULL);
}

static gboolean on_trace_tick(gpointer user) {
  TessTilesetCollision *self = user;
  gtk_progress_bar_set_fraction(self->trace_bar, tess_tileset_trace_get_progress(self->trace_job));
  return G_SOURCE_CONTINUE;
}

static void on_traced(GObject *source, GAsyncResult *result, gpointer data) {
  GTask *task = data;
  TessTilesetCollision *self = g_task_get_source_object(task);
  g_clear_handle_id(&self->trace_tick, g_source_remove);
  self->trace_job = NULL;
  g_clear_object(&self->trace_cancel);
  if (!self->disposed) show_tracing(self, FALSE);
  GError *error = NULL;
  TessTilesetTrace *job = tess_tileset_trace_run_finish(result, &error);
  if (job && (self->disposed || !self->doc))
    g_set_error_literal(&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Tracing cancelled."));
  else if (job)
    apply_trace(self, self->trace_tileset, job, self->trace_retrace, &error);
  tess_tileset_trace_free(job);
  if (error) g_task_return_error(task, error);
  else g_task_return_boolean(task, TRUE);
  g_object_unref(task);
}

void tess_tileset_collision_trace_all_async(TessTilesetCollision *self, GCancellable *cancellable,
                                            GAsyncReadyCallback callback, gpointer user_data) {
  GTask *task = g_task_new(self, cancellable, callback, user_data);
  /* The outcome is ours to tell: a Cancel pressed after the worker finished changes nothing. */
  g_task_set_check_cancellable(task, FALSE);
  GError *error = NULL;
  TessTilesetTrace *job = self->trace_job ? NULL : trace_job_new(self, &error);
  if (!job) {
    if (!error) {
      g_autofree char *msg = tess_sprite_message_tileset_busy(self->trace_name);
      g_set_error_literal(&error, TESS_DOCUMENT_ERROR, 0, msg);
    }
    g_task_return_error(task, error);
    g_object_unref(task);
    return;
  }
  self->trace_cancel = cancellable ? g_object_ref(cancellable) : g_cancellable_new();
  self->trace_job = job;
  if (self->trace_hold) tess_tileset_trace_set_held(job, TRUE);
  self->trace_tileset = self->tileset;
  g_strlcpy(self->trace_name, tess_tileset_trace_get_tileset(job)->name, sizeof self->trace_name);
  self->trace_retrace = gtk_check_button_get_active(self->retrace_hand_set);
  show_tracing(self, TRUE);
  self->trace_tick = g_timeout_add(50, on_trace_tick, self);
  tess_tileset_trace_run_async(job, self->trace_cancel, on_traced, task);
}

gboolean tess_tileset_collision_trace_all_finish(TessTilesetCollision *self, GAsyncResult *result, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, self), FALSE);
  return g_task_propagate_boolean(G_TASK(result), error);
}

gboolean tess_tileset_collision_is_tracing(TessTilesetCollision *self) { return self->trace_job != NULL; }
double tess_tileset_collision_get_trace_progress(TessTilesetCollision *self) {
  return gtk_progress_bar_get_fraction(self->trace_bar);
}

void tess_tileset_collision_set_trace_hold(TessTilesetCollision *self, gboolean hold) {
  self->trace_hold = hold;
  if (!hold && self->trace_job) tess_tileset_trace_set_held(self->trace_job, FALSE);
}

void tess_tileset_collision_cancel_trace(TessTilesetCollision *self) {
  if (!self->trace_cancel) return;
  g_cancellable_cancel(self->trace_cancel);
  gtk_progress_bar_set_text(self->trace_bar, _("Cancelling…"));
  gtk_widget_set_sensitive(self->trace_cancel_button, FALSE);
}

gboolean tess_tileset_collision_set_override(TessTilesetCollision *self, guint tile, TessTileOverride how,
                                             GError **error) {
  const TessTileset *ts = current(self);
  if (!ts) {
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, 0, _("Choose a tileset first."));
    return FALSE;
  }
  if (tile >= ts->tile_count) {
    g_autofree char *msg = tess_sprite_message_tileset_no_tile(ts->name, tile, ts->tile_count);
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, TESS_ERR_NOT_FOUND, msg);
    return FALSE;
  }
  TessTileset copy;
  if (tess_tileset_copy(&copy, ts) != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_tileset_nomem(ts->name);
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, TESS_ERR_NOMEM, msg);
    return FALSE;
  }
  TessTileInfo *info = &copy.tiles[tile];
  gboolean ok = TRUE;
  switch (how) {
    case TESS_TILE_OVERRIDE_NONE:
      info->collision = TESS_TILE_COLLISION_NONE;
      info->one_way = 0;
      break;
    case TESS_TILE_OVERRIDE_FULL:
      info->collision = TESS_TILE_COLLISION_FULL;
      info->one_way = 0;
      break;
    case TESS_TILE_OVERRIDE_ONE_WAY:
      if (info->collision == TESS_TILE_COLLISION_NONE) info->collision = TESS_TILE_COLLISION_FULL;
      info->one_way = 1;
      break;
    case TESS_TILE_OVERRIDE_TRACED: {
      info->one_way = 0;
      if (!self->has_pixels) {
        set_no_pixels_error(self, ts, error);
        ok = FALSE;
        break;
      }
      /* Trace this tile alone: a view of its pixels. */
      uint32_t px, py;
      tess_tileset_tile_origin(ts, tile, &px, &py);
      TessImageView view = tess_image_view(&self->pixels);
      view.pixels += (size_t)py * view.stride + (size_t)px * 4;
      view.width = ts->tile_w;
      view.height = ts->tile_h;
      TessMaskSettings s;
      settings_from_controls(self, &s);
      TessError err = {0};
      TessResult r = tess_mask_trace_tiles(view, ts->tile_w, ts->tile_h, 0, 0, &s, info, 1, &err);
      if (r != TESS_OK) {
        g_autofree char *msg = tess_sprite_message_tileset_refused(ts->name, tile, r, &err);
        g_set_error_literal(error, TESS_DOCUMENT_ERROR, (int)r, msg);
        ok = FALSE;
      } else if (info->collision == TESS_TILE_COLLISION_NONE) {
        g_autofree char *msg = tess_sprite_message_empty_tile(ts->name, tile, s.threshold);
        g_set_error_literal(error, TESS_DOCUMENT_ERROR, 0, msg);
        ok = FALSE;
      }
      break;
    }
  }
  if (ok) ok = store(self, &copy, tile, error);
  tess_tileset_clear(&copy);
  return ok;
}

static void on_trace_all_done(GObject *source, GAsyncResult *result, gpointer data) {
  TessTilesetCollision *self = TESS_TILESET_COLLISION(source);
  g_autoptr(GError) error = NULL;
  if (tess_tileset_collision_trace_all_finish(self, result, &error)) show_message(self, NULL);
  else if (self->disposed) return;
  else if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
    g_autofree char *msg = tess_sprite_message_tileset_cancelled(self->trace_name);
    show_message(self, msg);
  } else show_message(self, error->message);
}

static void on_trace_clicked(GtkButton *b, TessTilesetCollision *self) {
  show_message(self, NULL);
  tess_tileset_collision_trace_all_async(self, NULL, on_trace_all_done, NULL);
}

static void on_trace_cancel_clicked(GtkButton *b, TessTilesetCollision *self) { tess_tileset_collision_cancel_trace(self); }

static void on_override_changed(GObject *dd, GParamSpec *pspec, TessTilesetCollision *self) {
  if (self->loading) return;
  g_autoptr(GError) error = NULL;
  if (!tess_tileset_collision_set_override(self, self->selected, gtk_drop_down_get_selected(self->override), &error)) {
    show_message(self, error ? error->message : NULL);
    update_summary(self);
  } else {
    show_message(self, NULL);
  }
}

static void on_tileset_chosen(GObject *dd, GParamSpec *pspec, TessTilesetCollision *self) {
  if (self->loading) return;
  guint i = gtk_drop_down_get_selected(self->tileset_choice);
  if (i >= self->tileset_ids->len) return;
  TessId id = g_array_index(self->tileset_ids, TessId, i);
  if (id == self->tileset) return;
  /* The list is unchanged by a choice: only the shown tileset changes. */
  self->tileset = id;
  self->selected = 0;
  load_tileset(self);
}

void tess_tileset_collision_select_tile(TessTilesetCollision *self, guint tile) {
  const TessTileset *ts = current(self);
  if (!ts || tile >= ts->tile_count) return;
  self->selected = tile;
  update_summary(self);
  gtk_widget_queue_draw(self->grid);
}

static void on_grid_pressed(GtkGestureClick *g, int n, double x, double y, TessTilesetCollision *self) {
  const TessTileset *ts = current(self);
  if (!ts) return;
  double cx, cy;
  tess_scroll_area_widget_to_content(TESS_SCROLL_AREA(self->grid), x, y, &cx, &cy);
  /* The tile whose cell holds the point (none in the gaps between cells). */
  guint c0, c1, r0, r1, cols = ts->columns ? ts->columns : 1;
  if (!tiles_in_view(ts, cx, cy, 1, 1, &c0, &c1, &r0, &r1)) return;
  for (guint r = r0; r <= r1; r++)
    for (guint c = c0; c <= c1 && r * cols + c < ts->tile_count; c++) {
      double tx, ty, w, h;
      tile_cell(ts, r * cols + c, &tx, &ty, &w, &h);
      if (cx >= tx && cx < tx + w && cy >= ty && cy < ty + h) {
        tess_tileset_collision_select_tile(self, r * cols + c);
        return;
      }
    }
}

/* ---- Public and class --------------------------------------------------------- */

void tess_tileset_collision_set_document(TessTilesetCollision *self, TessDocument *doc) {
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  if (doc) {
    self->doc = g_object_ref(doc);
    self->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_doc_changed), self);
  }
  self->tileset = 0;
  self->selected = 0;
  fill_tilesets(self);
  load_tileset(self);
}

void tess_tileset_collision_set_tileset(TessTilesetCollision *self, TessId tileset) {
  if (tileset == self->tileset && self->has_pixels) return;
  self->tileset = tileset;
  self->selected = 0;
  fill_tilesets(self);
  load_tileset(self);
}

TessId tess_tileset_collision_get_tileset(TessTilesetCollision *self) { return self->tileset; }
guint tess_tileset_collision_get_load_count(TessTilesetCollision *self) { return self->load_count; }
GtkDropDown *tess_tileset_collision_get_tileset_choice(TessTilesetCollision *self) { return self->tileset_choice; }
guint tess_tileset_collision_get_selected_tile(TessTilesetCollision *self) { return self->selected; }
const char *tess_tileset_collision_get_summary(TessTilesetCollision *self) { return gtk_label_get_text(self->summary); }
GtkWidget *tess_tileset_collision_get_grid(TessTilesetCollision *self) { return self->grid; }
guint tess_tileset_collision_get_drawn_tiles(TessTilesetCollision *self) { return self->drawn_tiles; }

static void tess_tileset_collision_dispose(GObject *object) {
  TessTilesetCollision *self = TESS_TILESET_COLLISION(object);
  /* A trace still running keeps this object alive (its task holds it) and is told to stop. */
  self->disposed = TRUE;
  if (self->trace_cancel) g_cancellable_cancel(self->trace_cancel);
  g_clear_handle_id(&self->trace_tick, g_source_remove);
  if (self->reload_source) g_source_remove(self->reload_source);
  self->reload_source = 0;
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  g_clear_pointer(&self->image, cairo_surface_destroy);
  g_clear_pointer(&self->checker, cairo_pattern_destroy);
  if (self->has_pixels) tess_image_clear(&self->pixels);
  self->has_pixels = FALSE;
  g_clear_pointer(&self->image_problem, g_free);
  G_OBJECT_CLASS(tess_tileset_collision_parent_class)->dispose(object);
}

static void tess_tileset_collision_finalize(GObject *object) {
  g_array_unref(TESS_TILESET_COLLISION(object)->tileset_ids);
  G_OBJECT_CLASS(tess_tileset_collision_parent_class)->finalize(object);
}

static void tess_tileset_collision_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  TessTilesetCollision *self = TESS_TILESET_COLLISION(object);
  if (id == PROP_TRACING) g_value_set_boolean(value, self->trace_job != NULL);
  else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void tess_tileset_collision_class_init(TessTilesetCollisionClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  object_class->dispose = tess_tileset_collision_dispose;
  object_class->finalize = tess_tileset_collision_finalize;
  object_class->get_property = tess_tileset_collision_get_property;
  /* A Trace All running on the worker: the progress row shows, the button waits (bound in init). */
  props[PROP_TRACING] = g_param_spec_boolean("tracing", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(object_class, N_PROPS, props);

  g_type_ensure(TESS_TYPE_SCROLL_AREA);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-tileset-collision.ui");
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, tileset_choice);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, threshold);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, max_vertices);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, tolerance);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, trace_button);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, retrace_hand_set);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, trace_row);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, trace_bar);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, trace_cancel_button);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, grid);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, tile_label);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, override);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, summary);
  gtk_widget_class_bind_template_child(widget_class, TessTilesetCollision, message);
  gtk_widget_class_bind_template_callback(widget_class, on_trace_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_trace_cancel_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_grid_pressed);
}

static void tess_tileset_collision_init(TessTilesetCollision *self) {
  self->tileset_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  gtk_widget_init_template(GTK_WIDGET(self));
  gtk_spin_button_set_range(self->max_vertices, 3, TESS_POLY_MAX);
  tess_scroll_area_set_draw_func(TESS_SCROLL_AREA(self->grid), draw_grid, self, NULL);
  g_object_bind_property(self, "tracing", self->trace_row, "visible", G_BINDING_SYNC_CREATE);
  g_object_bind_property(self, "tracing", self->trace_button, "sensitive",
                         G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  g_signal_connect(self->override, "notify::selected", G_CALLBACK(on_override_changed), self);
  g_signal_connect(self->tileset_choice, "notify::selected", G_CALLBACK(on_tileset_chosen), self);
  update_summary(self);
}

GtkWidget *tess_tileset_collision_new(void) { return g_object_new(TESS_TYPE_TILESET_COLLISION, NULL); }

/* Undo and redo in this window act on the document, as the main window's would. */
static gboolean on_undo_key(GtkWidget *window, GVariant *args, gpointer user) {
  TessTilesetCollision *self = TESS_TILESET_COLLISION(gtk_window_get_child(GTK_WINDOW(window)));
  gboolean redo = g_variant_get_boolean(args);
  if (!self->doc) return TRUE;
  TessProject *p = tess_document_get_project(self->doc);
  g_autoptr(GError) error = NULL;
  if (redo ? tess_project_can_redo(p) : tess_project_can_undo(p))
    if (!(redo ? tess_document_redo(self->doc, &error) : tess_document_undo(self->doc, &error)))
      show_message(self, error->message);
  return TRUE;
}

GtkWindow *tess_tileset_collision_window_new(GtkWindow *parent, TessDocument *doc, TessId tileset) {
  GtkWindow *window = GTK_WINDOW(gtk_window_new());
  gtk_window_set_title(window, _("Tileset Collision"));
  gtk_window_set_default_size(window, 900, 640);
  if (parent) {
    gtk_window_set_transient_for(window, parent);
    gtk_window_set_destroy_with_parent(window, TRUE);
  }
  GtkWidget *tc = tess_tileset_collision_new();
  tess_tileset_collision_set_document(TESS_TILESET_COLLISION(tc), doc);
  if (tileset) tess_tileset_collision_set_tileset(TESS_TILESET_COLLISION(tc), tileset);
  gtk_window_set_child(window, tc);
  GtkShortcutController *keys = GTK_SHORTCUT_CONTROLLER(gtk_shortcut_controller_new());
  gtk_shortcut_controller_set_scope(keys, GTK_SHORTCUT_SCOPE_GLOBAL);
  tess_ui_add_shortcut(keys, "<Control>z", on_undo_key, g_variant_new_boolean(FALSE));
  tess_ui_add_shortcut(keys, "<Control><Shift>z", on_undo_key, g_variant_new_boolean(TRUE));
  tess_ui_add_shortcut(keys, "<Control>y", on_undo_key, g_variant_new_boolean(TRUE));
  tess_ui_add_close_keys(keys);
  gtk_widget_add_controller(GTK_WIDGET(window), GTK_EVENT_CONTROLLER(keys));
  return window;
}
