/* The tile palette's terrain mode: a tileset's terrain sets (Tiled's wang
 * sets), their colours, and the labels on each tile's corners and edges,
 * edited with the mouse. Every change is a tileset edit (one undo step, a
 * drag of labelling merged into one). Which position a click names is
 * core's rule (tess_terrain_position_at). */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tess-tile-palette-private.h"
#include "tess-ui.h"

/* Colours new terrain colours take in turn (0xRRGGBBAA). */
static const uint32_t PRESETS[] = {0x5fb042ffu, 0x3a7bd5ffu, 0x9c6b3cffu, 0xe0c35aff, 0x8a8a8aff, 0xc0504dff, 0x8e6cc0ff, 0x40b0a0ff};

static TessTerrainSet *chosen_set(TessTilePalette *self) {
  TessTileset *ts = tess_tile_palette_current(self);
  return ts && self->terrain_set < ts->terrain_count ? &ts->terrains[self->terrain_set] : NULL;
}

static void set_source_rgba32(cairo_t *cr, uint32_t rgba, double alpha) {
  cairo_set_source_rgba(cr, ((rgba >> 24) & 0xFF) / 255.0, ((rgba >> 16) & 0xFF) / 255.0, ((rgba >> 8) & 0xFF) / 255.0,
                        alpha);
}

/* A tileset edit through a copy: `change` edits the copy's terrain sets. */
static gboolean edit_terrains(TessTilePalette *self, gboolean (*change)(TessTileset *copy, gpointer data, TessError *err),
                              gpointer data, uint32_t merge) {
  TessTileset *ts = tess_tile_palette_current(self);
  if (!ts) return FALSE;
  TessTileset copy;
  TessError err = {0};
  TessResult r = tess_tileset_copy(&copy, ts);
  if (r != TESS_OK) return tess_ui_apply(GTK_WIDGET(self), self->doc, r, NULL);
  if (!change(&copy, data, &err)) {
    tess_tileset_clear(&copy);
    return err.code ? tess_ui_apply(GTK_WIDGET(self), self->doc, err.code, &err) : FALSE;
  }
  r = tess_edit_tileset_set(tess_tile_palette_project(self), &copy, merge, &err);
  tess_tileset_clear(&copy);
  return tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

/* ---- Edits ------------------------------------------------------------------ */

typedef struct {
  const char *name;
  TessTerrainKind kind;
} NewSet;

static gboolean add_set(TessTileset *copy, gpointer data, TessError *err) {
  const NewSet *ns = data;
  if (copy->terrain_count >= TESS_TERRAIN_MAX_SETS) {
    tess_error_set(err, TESS_ERR_LIMIT, "tileset", "tileset %s already has %d terrain sets", copy->name, TESS_TERRAIN_MAX_SETS);
    return FALSE;
  }
  TessTerrainSet *grown = tess_realloc(copy->terrains, (copy->terrain_count + 1) * sizeof *grown);
  if (!grown) {
    tess_error_set(err, TESS_ERR_NOMEM, "tileset", "out of memory");
    return FALSE;
  }
  copy->terrains = grown;
  tess_terrain_set_init(&grown[copy->terrain_count++], ns->name, ns->kind);
  return TRUE;
}

gboolean tess_tile_palette_add_terrain_set(TessTilePalette *self, const char *name, TessTerrainKind kind) {
  NewSet ns = {name, kind};
  TessTileset *ts = tess_tile_palette_current(self);
  uint32_t index = ts ? ts->terrain_count : 0;
  if (!edit_terrains(self, add_set, &ns, 0)) return FALSE;
  tess_tile_palette_choose_terrain(self, index, 0);
  return TRUE;
}

typedef struct {
  uint32_t set;
  const char *name;
  uint32_t rgba;
} NewColor;

static gboolean add_color(TessTileset *copy, gpointer data, TessError *err) {
  const NewColor *nc = data;
  if (nc->set >= copy->terrain_count) return FALSE;
  return tess_terrain_set_add_color(&copy->terrains[nc->set], nc->name, nc->rgba, NULL, err) == TESS_OK;
}

gboolean tess_tile_palette_add_terrain_color(TessTilePalette *self, const char *name, uint32_t rgba) {
  TessTerrainSet *set = chosen_set(self);
  if (!set) return FALSE;
  uint32_t color = set->color_count + 1;
  NewColor nc = {self->terrain_set, name, rgba};
  if (!edit_terrains(self, add_color, &nc, 0)) return FALSE;
  tess_tile_palette_choose_terrain(self, self->terrain_set, color);
  return TRUE;
}

typedef struct {
  uint32_t set, tile, color;
  int position;
} Label;

static gboolean label(TessTileset *copy, gpointer data, TessError *err) {
  const Label *l = data;
  if (l->set >= copy->terrain_count || l->tile >= copy->tile_count) return FALSE;
  TessTerrainSet *set = &copy->terrains[l->set];
  const TessTerrainTile *had = tess_terrain_set_find(set, l->tile);
  uint8_t wang[TESS_TERRAIN_POSITIONS] = {0};
  if (had) memcpy(wang, had->wang, sizeof wang);
  uint8_t mask = tess_terrain_kind_mask((TessTerrainKind)set->kind);
  uint8_t before[TESS_TERRAIN_POSITIONS];
  memcpy(before, wang, sizeof wang);
  for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++)
    if ((mask >> k) & 1 && (l->position < 0 || l->position == k)) wang[k] = (uint8_t)l->color;
  if (had && memcmp(before, wang, sizeof wang) == 0) return FALSE; /* nothing changes: no undo step */
  return tess_terrain_set_label(set, l->tile, wang, had ? had->probability : 1.0f, err) == TESS_OK;
}

gboolean tess_tile_palette_label_tile(TessTilePalette *self, uint32_t tile, int position, uint32_t color, uint32_t merge) {
  Label l = {self->terrain_set, tile, color, position};
  gboolean ok = edit_terrains(self, label, &l, merge);
  gtk_widget_queue_draw(GTK_WIDGET(self->area));
  return ok;
}

void tess_tile_palette_terrain_press(TessTilePalette *self, double x, double y, gboolean clear, gboolean new_drag) {
  TessTileset *ts = tess_tile_palette_current(self);
  TessTerrainSet *set = chosen_set(self);
  if (!ts || !set || ts->columns == 0) return;
  if (!clear && !self->terrain_color) return;
  double px = x / self->scale - ts->margin, py = y / self->scale - ts->margin;
  if (px < 0 || py < 0) return;
  uint32_t col = (uint32_t)(px / (ts->tile_w + ts->spacing)), row = (uint32_t)(py / (ts->tile_h + ts->spacing));
  if (col >= ts->columns) return;
  uint32_t tile = row * ts->columns + col;
  if (tile >= ts->tile_count) return;
  double ox, oy;
  tess_tile_palette_tile_origin(ts, col, row, &ox, &oy);
  float u = (float)((px + ts->margin - ox) / ts->tile_w), v = (float)((py + ts->margin - oy) / ts->tile_h);
  if (u > 1 || v > 1) return; /* in the spacing */
  if (new_drag) self->terrain_merge = tess_project_new_merge_key(tess_tile_palette_project(self));
  int position = tess_terrain_position_at((TessTerrainKind)set->kind, u, v);
  tess_tile_palette_label_tile(self, tile, position, clear ? 0 : self->terrain_color, self->terrain_merge);
}

/* ---- Drawing ------------------------------------------------------------------ */

/* Each labelled tile of the chosen set: its corners as triangles, its edges
 * as bars, in their colours; unlabelled tiles are dimmed. */
void tess_tile_palette_terrain_draw(TessTilePalette *self, cairo_t *cr, const TessTileset *ts) {
  const TessTerrainSet *set = chosen_set(self);
  uint32_t rows = ts->columns ? (ts->tile_count + ts->columns - 1) / ts->columns : 0;
  double w = ts->tile_w, h = ts->tile_h;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < ts->columns; c++) {
      uint32_t tile = r * ts->columns + c;
      if (tile >= ts->tile_count) break;
      double x, y;
      tess_tile_palette_tile_origin(ts, c, r, &x, &y);
      const TessTerrainTile *t = set ? tess_terrain_set_find(set, tile) : NULL;
      if (!t) {
        cairo_rectangle(cr, x, y, w, h);
        cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
        cairo_fill(cr);
        continue;
      }
      uint8_t mask = tess_terrain_kind_mask((TessTerrainKind)set->kind);
      /* Corner k's triangle: the corner and the midpoints of its two sides, a third in. */
      static const double corner[4][2] = {{1, 0}, {1, 1}, {0, 1}, {0, 0}}; /* positions 1, 3, 5, 7 */
      for (int k = 0; k < 4; k++) {
        uint8_t color = t->wang[2 * k + 1];
        if (!((mask >> (2 * k + 1)) & 1) || !color) continue;
        double cx = x + corner[k][0] * w, cy = y + corner[k][1] * h;
        double sx = corner[k][0] ? -1 : 1, sy = corner[k][1] ? -1 : 1;
        cairo_move_to(cr, cx, cy);
        cairo_line_to(cr, cx + sx * w * 0.4, cy);
        cairo_line_to(cr, cx, cy + sy * h * 0.4);
        cairo_close_path(cr);
        set_source_rgba32(cr, set->colors[color - 1].color, 0.75);
        cairo_fill(cr);
      }
      /* Edge k's bar along the middle third of its side. */
      static const double edge[4][4] = {{1.0 / 3, 0, 1.0 / 3, 0.16}, {0.84, 1.0 / 3, 0.16, 1.0 / 3}, {1.0 / 3, 0.84, 1.0 / 3, 0.16}, {0, 1.0 / 3, 0.16, 1.0 / 3}}; /* 0, 2, 4, 6 */
      for (int k = 0; k < 4; k++) {
        uint8_t color = t->wang[2 * k];
        if (!((mask >> (2 * k)) & 1) || !color) continue;
        cairo_rectangle(cr, x + edge[k][0] * w, y + edge[k][1] * h, edge[k][2] * w, edge[k][3] * h);
        set_source_rgba32(cr, set->colors[color - 1].color, 0.8);
        cairo_fill(cr);
      }
    }
}

/* ---- The set list and the colours ------------------------------------------------ */

static void emit_changed(TessTilePalette *self) { g_signal_emit_by_name(self, "terrain-changed"); }

static void on_color_toggled(GtkToggleButton *b, TessTilePalette *self) {
  if (self->terrain_syncing || !gtk_toggle_button_get_active(b)) return;
  self->terrain_color = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(b), "color"));
  emit_changed(self);
}

static GtkWidget *color_button(TessTilePalette *self, const TessTerrainColor *c, uint32_t number, GtkToggleButton *group) {
  GtkWidget *b = gtk_toggle_button_new();
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *swatch = gtk_drawing_area_new();
  gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(swatch), 14);
  gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(swatch), 14);
  gtk_box_append(GTK_BOX(box), swatch);
  gtk_box_append(GTK_BOX(box), gtk_label_new(c->name));
  gtk_button_set_child(GTK_BUTTON(b), box);
  if (group) gtk_toggle_button_set_group(GTK_TOGGLE_BUTTON(b), group);
  g_object_set_data(G_OBJECT(b), "color", GUINT_TO_POINTER(number));
  gtk_widget_set_tooltip_text(b, _("Paint this terrain; click tile corners and edges to label them"));
  g_signal_connect(b, "toggled", G_CALLBACK(on_color_toggled), self);
  return b;
}

static void draw_swatch(GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data) {
  set_source_rgba32(cr, GPOINTER_TO_UINT(data), 1.0);
  cairo_rectangle(cr, 0.5, 0.5, w - 1, h - 1);
  cairo_fill_preserve(cr);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.5);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
}

void tess_tile_palette_terrain_sync(TessTilePalette *self) {
  if (!self->terrain_colors) return; /* the template is gone (dispose) */
  TessTileset *ts = tess_tile_palette_current(self);
  self->terrain_syncing = TRUE;
  guint old = g_list_model_get_n_items(G_LIST_MODEL(self->terrain_set_names));
  uint32_t n = ts ? ts->terrain_count : 0;
  const char **names = g_new0(const char *, n + 1);
  for (uint32_t i = 0; i < n; i++) names[i] = ts->terrains[i].name;
  gtk_string_list_splice(self->terrain_set_names, 0, old, names);
  g_free(names);
  if (self->terrain_set >= n) self->terrain_set = 0, self->terrain_color = 0;
  gtk_drop_down_set_selected(self->terrain_sets, n ? self->terrain_set : GTK_INVALID_LIST_POSITION);
  gtk_widget_set_sensitive(GTK_WIDGET(self->terrain_sets), n > 0);
  const TessTerrainSet *set = chosen_set(self);
  if (set && self->terrain_color > set->color_count) self->terrain_color = 0;
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child(self->terrain_colors))) gtk_flow_box_remove(GTK_FLOW_BOX(self->terrain_colors), child);
  GtkToggleButton *group = NULL;
  for (uint32_t c = 0; set && c < set->color_count; c++) {
    GtkWidget *b = color_button(self, &set->colors[c], c + 1, group);
    GtkWidget *swatch = gtk_widget_get_first_child(gtk_button_get_child(GTK_BUTTON(b)));
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(swatch), draw_swatch, GUINT_TO_POINTER(set->colors[c].color), NULL);
    if (!group) group = GTK_TOGGLE_BUTTON(b);
    gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(b), self->terrain_color == c + 1);
    gtk_flow_box_append(GTK_FLOW_BOX(self->terrain_colors), b);
  }
  gtk_label_set_text(GTK_LABEL(self->terrain_hint),
                     !n                         ? _("No terrain sets: add one to label this tileset's corners and edges.")
                     : set && !set->color_count ? _("Add a colour, then click tile corners and edges to label them.")
                                                : _("Click a corner or edge to label it, the middle for the whole tile; "
                                                    "right-click clears. Paint on the map with Brush, Rectangle or Bucket."));
  self->terrain_syncing = FALSE;
  gtk_widget_queue_draw(GTK_WIDGET(self->area));
}

void tess_tile_palette_choose_terrain(TessTilePalette *self, uint32_t set, uint32_t color) {
  self->terrain_set = set;
  self->terrain_color = color;
  tess_tile_palette_terrain_sync(self);
  emit_changed(self);
}

gboolean tess_tile_palette_get_terrain(TessTilePalette *self, TessId *tileset, uint32_t *set, uint32_t *color) {
  const TessTerrainSet *s = chosen_set(self);
  if (!self->terrain_mode || !s || !self->terrain_color || self->terrain_color > s->color_count) return FALSE;
  if (tileset) *tileset = self->tileset;
  if (set) *set = self->terrain_set;
  if (color) *color = self->terrain_color;
  return TRUE;
}

gboolean tess_tile_palette_get_terrain_mode(TessTilePalette *self) { return self->terrain_mode; }

/* The Terrain button and the terrain controls follow "terrain-mode"
 * (tess-tile-palette.ui). */
void tess_tile_palette_set_terrain_mode(TessTilePalette *self, gboolean on) {
  on = !!on;
  if (self->terrain_mode == on) return;
  self->terrain_mode = on;
  tess_tile_palette_terrain_sync(self);
  emit_changed(self);
  g_object_notify(G_OBJECT(self), "terrain-mode");
}

static void on_set_selected(GtkDropDown *dd, GParamSpec *pspec, TessTilePalette *self) {
  if (self->terrain_syncing) return;
  guint sel = gtk_drop_down_get_selected(dd);
  if (sel == GTK_INVALID_LIST_POSITION) return;
  tess_tile_palette_choose_terrain(self, sel, 0);
}

static void on_add_set(GtkButton *b, TessTilePalette *self) {
  TessTileset *ts = tess_tile_palette_current(self);
  if (!ts) return;
  guint kind = gtk_drop_down_get_selected(self->terrain_kind);
  g_autofree char *name = g_strdup_printf(_("Terrain %u"), ts->terrain_count + 1);
  tess_tile_palette_add_terrain_set(self, name, kind <= 2 ? (TessTerrainKind)kind : TESS_TERRAIN_CORNER);
}

static void on_add_color(GtkButton *b, TessTilePalette *self) {
  TessTerrainSet *set = chosen_set(self);
  if (!set) return;
  g_autofree char *name = g_strdup_printf(_("Colour %u"), set->color_count + 1);
  tess_tile_palette_add_terrain_color(self, name, PRESETS[set->color_count % G_N_ELEMENTS(PRESETS)]);
}

void tess_tile_palette_terrain_class_init(GtkWidgetClass *widget_class) {
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, terrain_sets);
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, terrain_set_names);
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, terrain_kind);
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, terrain_colors);
  gtk_widget_class_bind_template_child(widget_class, TessTilePalette, terrain_hint);
  gtk_widget_class_bind_template_callback(widget_class, on_set_selected);
  gtk_widget_class_bind_template_callback(widget_class, on_add_set);
  gtk_widget_class_bind_template_callback(widget_class, on_add_color);
}
