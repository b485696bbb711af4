/* TessMapView: the widget, its view transform, input dispatch and drawing.
 * The tools live in tess-tool-*.c and share the state of
 * tess-map-view-private.h. */
#include <glib/gi18n.h>
#include <math.h>

#include "tess-map-view-private.h"
#include "tess-map-view-test.h"
#include "tess-ui.h"

G_DEFINE_FINAL_TYPE(TessMapView, tess_map_view, GTK_TYPE_WIDGET)

GType tess_tool_get_type(void) {
  static gsize type_id = 0;
  if (g_once_init_enter(&type_id)) {
    static const GEnumValue values[] = {
        {TESS_TOOL_BRUSH, "TESS_TOOL_BRUSH", "brush"},
        {TESS_TOOL_ERASER, "TESS_TOOL_ERASER", "eraser"},
        {TESS_TOOL_RECTANGLE, "TESS_TOOL_RECTANGLE", "rectangle"},
        {TESS_TOOL_BUCKET, "TESS_TOOL_BUCKET", "bucket"},
        {TESS_TOOL_PICKER, "TESS_TOOL_PICKER", "picker"},
        {TESS_TOOL_MATERIAL_BRUSH, "TESS_TOOL_MATERIAL_BRUSH", "material"},
        {TESS_TOOL_SELECT, "TESS_TOOL_SELECT", "select"},
        {TESS_TOOL_OBJECT, "TESS_TOOL_OBJECT", "object"},
        {0, NULL, NULL},
    };
    GType t = g_enum_register_static(g_intern_static_string("TessTool"), values);
    g_once_init_leave(&type_id, t);
  }
  return type_id;
}

enum { PROP_0,
       PROP_ZOOM,
       PROP_TOOL,
       PROP_SHOW_GRID,
       PROP_SHOW_MATERIALS,
       PROP_SNAP_TO_GRID,
       PROP_HINT,
       N_PROPS };
static GParamSpec *props[N_PROPS];

enum { SIG_CURSOR_MOVED,
       SIG_ZOOM_CHANGED,
       SIG_OBJECT_SELECTED,
       SIG_STAMP_PICKED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- shared helpers ---- */

TessProject *tess_map_view_project(TessMapView *v) { return v->doc ? tess_document_get_project(v->doc) : NULL; }

TessLevel *tess_map_view_level(TessMapView *v) {
  TessProject *p = tess_map_view_project(v);
  return p && v->level_id ? tess_project_level(p, v->level_id) : NULL;
}

TessLayer *tess_map_view_edit_layer(TessMapView *v) {
  TessLevel *level = tess_map_view_level(v);
  return level && v->layer_id ? tess_level_layer(level, v->layer_id) : NULL;
}

void tess_map_view_refuse(TessMapView *v, const char *message) {
  /* In a toast over the map: a bar above the panes would move the layout under the pointer. */
  tess_ui_notify(GTK_WIDGET(v), message, NULL, NULL);
}

void tess_map_view_refuse_result(TessMapView *v, TessResult r, const TessError *err) {
  if (r == TESS_ERR_LOCKED) {
    TessLayer *layer = tess_map_view_edit_layer(v);
    g_autofree char *msg = layer ? g_strdup_printf(_("The layer “%s” is locked"), layer->props.name)
                                 : g_strdup(_("The layer is locked"));
    tess_map_view_refuse(v, msg);
    return;
  }
  g_autofree char *msg = tess_document_describe_error(r, err);
  tess_map_view_refuse(v, msg);
}

void tess_map_view_commit(TessMapView *v) {
  if (!v->doc) return;
  g_autoptr(GError) error = NULL;
  if (!tess_document_commit(v->doc, &error)) tess_map_view_refuse(v, error ? error->message : _("Could not save"));
}

gboolean tess_map_view_check_tile_layer(TessMapView *v) {
  TessLayer *layer = tess_map_view_edit_layer(v);
  if (!layer) {
    tess_map_view_refuse(v, _("Select a tile layer to edit"));
    return FALSE;
  }
  if (layer->props.kind != TESS_LAYER_TILES) {
    g_autofree char *msg = g_strdup_printf(_("“%s” is not a tile layer"), layer->props.name);
    tess_map_view_refuse(v, msg);
    return FALSE;
  }
  if (layer->props.locked) {
    g_autofree char *msg = g_strdup_printf(_("The layer “%s” is locked"), layer->props.name);
    tess_map_view_refuse(v, msg);
    return FALSE;
  }
  return TRUE;
}

void tess_map_view_emit_stamp_picked(TessMapView *v) { g_signal_emit(v, signals[SIG_STAMP_PICKED], 0); }

void tess_map_view_emit_object_selected(TessMapView *v) {
  g_signal_emit(v, signals[SIG_OBJECT_SELECTED], 0, (guint)v->selected_object);
}

/* The pointer's shape says what a press will do. */
static void update_cursor(TessMapView *v) {
  const char *name = "crosshair";
  if (v->panning) name = "grabbing";
  else if (v->space_down) name = "grab";
  else if (v->tool == TESS_TOOL_OBJECT || v->tool == TESS_TOOL_SELECT) name = "default";
  gtk_widget_set_cursor_from_name(GTK_WIDGET(v), name);
}

/* ---- view transform ---- */

static void view_translation(TessMapView *v, double *tx, double *ty) {
  TessRenderView view = {v->origin_x, v->origin_y, v->zoom, 0, 0};
  tess_render_view_translation(&view, tx, ty); /* exactly where the renderer puts the tiles */
}

void tess_map_view_widget_to_level(TessMapView *v, double x, double y, double *lx, double *ly) {
  double tx, ty;
  view_translation(v, &tx, &ty);
  *lx = (x - tx) / v->zoom;
  *ly = (y - ty) / v->zoom;
}

void tess_map_view_level_to_widget(TessMapView *v, double lx, double ly, double *x, double *y) {
  double tx, ty;
  view_translation(v, &tx, &ty);
  *x = lx * v->zoom + tx;
  *y = ly * v->zoom + ty;
}

gboolean tess_map_view_widget_to_cell(TessMapView *v, double x, double y, int *cx, int *cy) {
  TessLevel *level = tess_map_view_level(v);
  if (!level) {
    *cx = *cy = -1;
    return FALSE;
  }
  double lx, ly;
  tess_map_view_widget_to_level(v, x, y, &lx, &ly);
  *cx = (int)floor(lx / level->settings.tile_w);
  *cy = (int)floor(ly / level->settings.tile_h);
  return *cx >= 0 && *cy >= 0 && (uint32_t)*cx < level->settings.width && (uint32_t)*cy < level->settings.height;
}

static void set_zoom_internal(TessMapView *v, double zoom, double anchor_x, double anchor_y) {
  if (!isfinite(zoom)) return;
  zoom = CLAMP(zoom, TESS_MAP_VIEW_ZOOM_MIN, TESS_MAP_VIEW_ZOOM_MAX);
  v->fitting = FALSE; /* the user's zoom from now on */
  if (fabs(zoom - v->zoom) < 1e-12) return;
  /* Keep the level point under the anchor where it is. */
  double lx = anchor_x / v->zoom + v->origin_x, ly = anchor_y / v->zoom + v->origin_y;
  v->zoom = zoom;
  v->origin_x = lx - anchor_x / zoom;
  v->origin_y = ly - anchor_y / zoom;
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_ZOOM]);
  g_signal_emit(v, signals[SIG_ZOOM_CHANGED], 0);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_map_view_zoom_at(TessMapView *v, double factor, double x, double y) {
  set_zoom_internal(v, v->zoom * factor, x, y);
}

void tess_map_view_set_zoom(TessMapView *v, double zoom) {
  set_zoom_internal(v, zoom, gtk_widget_get_width(GTK_WIDGET(v)) / 2.0, gtk_widget_get_height(GTK_WIDGET(v)) / 2.0);
}

double tess_map_view_get_zoom(TessMapView *v) { return v->zoom; }

void tess_map_view_set_origin(TessMapView *v, double level_x, double level_y) {
  v->origin_x = level_x;
  v->origin_y = level_y;
  v->placed = TRUE;
  v->fitting = FALSE;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_map_view_get_origin(TessMapView *v, double *level_x, double *level_y) {
  *level_x = v->origin_x;
  *level_y = v->origin_y;
}

/* Whole level in view, centred, at a zoom between 1/16 and 4 (as the
 * preview shows it). From a size allocation (layout phase) the zoom's
 * listeners hear of it from an idle, so no label is resized mid-layout. */
static gboolean zoom_notify_idle(gpointer data) {
  TessMapView *v = data;
  v->zoom_notify_idle = 0;
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_ZOOM]);
  g_signal_emit(v, signals[SIG_ZOOM_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

static void fit_level(TessMapView *v, int width, int height, gboolean in_layout) {
  TessLevel *level = tess_map_view_level(v);
  if (!level || width <= 0 || height <= 0) return;
  double lw = (double)level->settings.width * level->settings.tile_w;
  double lh = (double)level->settings.height * level->settings.tile_h;
  if (lw <= 0 || lh <= 0) return;
  double margin = 16.0;
  double z = fmin((width - 2 * margin) / lw, (height - 2 * margin) / lh);
  z = CLAMP(z, TESS_MAP_VIEW_ZOOM_MIN, 4.0);
  gboolean changed = fabs(z - v->zoom) > 1e-12;
  v->zoom = z;
  v->origin_x = (lw - width / z) / 2.0;
  v->origin_y = (lh - height / z) / 2.0;
  v->placed = TRUE;
  if (changed) {
    if (in_layout) {
      /* Default priority: an idle one would wait behind every frame while frames keep coming. */
      if (!v->zoom_notify_idle) v->zoom_notify_idle = g_idle_add_full(G_PRIORITY_DEFAULT, zoom_notify_idle, v, NULL);
    } else {
      g_object_notify_by_pspec(G_OBJECT(v), props[PROP_ZOOM]);
      g_signal_emit(v, signals[SIG_ZOOM_CHANGED], 0);
    }
  }
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_map_view_fit(TessMapView *v) {
  v->fitting = TRUE;
  v->placed = FALSE;
  fit_level(v, gtk_widget_get_width(GTK_WIDGET(v)), gtk_widget_get_height(GTK_WIDGET(v)), FALSE);
}

gboolean tess_map_view_get_fitting(TessMapView *v) { return v->fitting; }

/* A level not placed yet (shown before the first allocation) is fitted. */
static void place_level(TessMapView *v, int width, int height) {
  if (!v->placed) fit_level(v, width, height, TRUE);
}

static void tess_map_view_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
  TessMapView *v = TESS_MAP_VIEW(widget);
  if (v->fitting || !v->placed) fit_level(v, width, height, TRUE);
}

/* ---- document ---- */

static void on_doc_changed(TessDocument *doc, gpointer change_ptr, TessMapView *v) {
  const TessChange *change = change_ptr;
  if (v->renderer) tess_renderer_invalidate(v->renderer, change);
  v->legend_valid = FALSE;
  TessProject *p = tess_map_view_project(v);
  if (change->kind == TESS_CHANGE_LEVEL && v->level_id == change->level && p && !tess_project_level(p, v->level_id)) {
    v->level_id = 0;
    v->layer_id = 0;
  }
  if (change->kind == TESS_CHANGE_OBJECT && v->selected_object == change->id) {
    TessLevel *level = tess_map_view_level(v);
    if (!level || !tess_level_object(level, v->selected_object, NULL)) {
      v->selected_object = 0;
      tess_map_view_emit_object_selected(v);
    }
  }
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_map_view_set_document(TessMapView *v, TessDocument *doc) {
  if (v->doc == doc) return;
  if (v->doc) {
    g_clear_signal_handler(&v->changed_handler, v->doc);
    g_clear_object(&v->doc);
  }
  g_clear_pointer(&v->renderer, tess_renderer_destroy);
  v->level_id = v->layer_id = 0;
  v->selected_object = 0;
  v->joint_body_a = 0;
  v->dragging = FALSE;
  v->legend_valid = FALSE;
  tess_tool_select_clear(v);
  tess_map_view_sync_hint(v);
  if (doc) {
    v->doc = g_object_ref(doc);
    v->renderer = tess_renderer_create(tess_document_get_project(doc));
    v->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_doc_changed), v);
  }
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

TessDocument *tess_map_view_get_document(TessMapView *v) { return v->doc; }

void tess_map_view_set_level(TessMapView *v, TessId level) {
  if (v->level_id == level) return;
  v->level_id = level;
  v->placed = FALSE;
  v->fitting = TRUE; /* a level opens whole in view */
  v->dragging = FALSE;
  v->joint_body_a = 0;
  tess_map_view_sync_hint(v);
  tess_tool_select_clear(v);
  if (v->selected_object) {
    v->selected_object = 0;
    tess_map_view_emit_object_selected(v);
  }
  /* Shown already: fit now (the window's status bar hears the zoom at once). */
  if (gtk_widget_get_width(GTK_WIDGET(v)) > 0)
    fit_level(v, gtk_widget_get_width(GTK_WIDGET(v)), gtk_widget_get_height(GTK_WIDGET(v)), FALSE);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

TessId tess_map_view_get_level(TessMapView *v) { return v->level_id; }

void tess_map_view_set_layer(TessMapView *v, TessId layer) {
  v->layer_id = layer;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

TessId tess_map_view_get_layer(TessMapView *v) { return v->layer_id; }

void tess_map_view_set_tool(TessMapView *v, TessTool tool) {
  if (tool >= TESS_TOOL_COUNT || v->tool == tool) return;
  v->tool = tool;
  v->joint_body_a = 0;
  update_cursor(v);
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_TOOL]);
  tess_map_view_sync_hint(v);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

TessTool tess_map_view_get_tool(TessMapView *v) { return v->tool; }

/* ---- stamp, material, brush ---- */

void tess_map_view_set_stamp(TessMapView *v, uint32_t w, uint32_t h, const TessCell *cells) {
  if (w == 0 || h == 0 || !cells || w > 4096 || h > 4096) return;
  TessCell *copy = g_new(TessCell, (gsize)w * h);
  memcpy(copy, cells, sizeof(TessCell) * w * h);
  g_free(v->stamp);
  v->stamp = copy;
  v->stamp_w = w;
  v->stamp_h = h;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

gboolean tess_map_view_get_stamp(TessMapView *v, uint32_t *w, uint32_t *h, const TessCell **cells) {
  if (!v->stamp) return FALSE;
  *w = v->stamp_w;
  *h = v->stamp_h;
  *cells = v->stamp;
  return TRUE;
}

void tess_map_view_flip_stamp(TessMapView *v, gboolean horizontal) {
  if (!v->stamp) return;
  tess_stamp_flip(v->stamp_w, v->stamp_h, v->stamp, horizontal);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_map_view_rotate_stamp(TessMapView *v) {
  if (!v->stamp) return;
  TessCell *out = g_new(TessCell, (gsize)v->stamp_w * v->stamp_h);
  tess_stamp_rotate(v->stamp_w, v->stamp_h, v->stamp, out);
  g_free(v->stamp);
  v->stamp = out;
  uint32_t t = v->stamp_w;
  v->stamp_w = v->stamp_h;
  v->stamp_h = t;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_map_view_set_material(TessMapView *v, TessId material) { v->material = material; }

void tess_map_view_set_terrain(TessMapView *v, TessId tileset, uint32_t set, uint32_t color) {
  v->terrain.tileset = tileset;
  v->terrain.set = set;
  v->terrain.color = color;
  /* One seed per view: the same strokes give the same tiles on every run. */
  v->terrain.seed = 0x7E55E7Au;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

gboolean tess_map_view_get_terrain(TessMapView *v, TessId *tileset, uint32_t *set, uint32_t *color) {
  if (tileset) *tileset = v->terrain.tileset;
  if (set) *set = v->terrain.set;
  if (color) *color = v->terrain.color;
  return v->terrain.color != 0;
}

void tess_map_view_set_brush_size(TessMapView *v, uint32_t cells) {
  v->brush_size = CLAMP(cells, 1u, 256u);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

uint32_t tess_map_view_get_brush_size(TessMapView *v) { return v->brush_size; }

/* ---- flags ---- */

void tess_map_view_set_show_grid(TessMapView *v, gboolean show) {
  show = !!show;
  if (v->show_grid == show) return;
  v->show_grid = show;
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_SHOW_GRID]);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}
gboolean tess_map_view_get_show_grid(TessMapView *v) { return v->show_grid; }

void tess_map_view_set_show_materials(TessMapView *v, gboolean show) {
  show = !!show;
  if (v->show_materials == show) return;
  v->show_materials = show;
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_SHOW_MATERIALS]);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}
gboolean tess_map_view_get_show_materials(TessMapView *v) { return v->show_materials; }

void tess_map_view_set_show_collision(TessMapView *v, gboolean show) {
  v->show_collision = !!show;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_map_view_set_snap_to_grid(TessMapView *v, gboolean snap) {
  snap = !!snap;
  if (v->snap == snap) return;
  v->snap = snap;
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_SNAP_TO_GRID]);
}
gboolean tess_map_view_get_snap_to_grid(TessMapView *v) { return v->snap; }

/* ---- objects ---- */

void tess_map_view_set_object_template(TessMapView *v, const TessObject *tmpl) {
  if (v->has_template) tess_object_clear(&v->template_obj);
  v->has_template = FALSE;
  if (tmpl && tess_object_copy(&v->template_obj, tmpl) == TESS_OK) v->has_template = TRUE;
  v->joint_body_a = 0;
  tess_map_view_sync_hint(v);
}

/* The hint follows the tool's state: every place that changes the tool, the
 * template or the joint's first body calls this. */
void tess_map_view_sync_hint(TessMapView *v) {
  const char *hint = tess_tool_object_hint(v);
  if (g_strcmp0(hint, v->hint) == 0) return;
  g_free(v->hint);
  v->hint = g_strdup(hint);
  g_object_notify_by_pspec(G_OBJECT(v), props[PROP_HINT]);
}

const char *tess_map_view_get_hint(TessMapView *v) { return v->hint ? v->hint : ""; }

TessId tess_map_view_get_selected_object(TessMapView *v) { return v->selected_object; }

void tess_map_view_select_object(TessMapView *v, TessId id) {
  if (v->selected_object == id) return;
  v->selected_object = id;
  tess_map_view_emit_object_selected(v);
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

void tess_map_view_delete_selection(TessMapView *v) {
  if (v->tool == TESS_TOOL_OBJECT || (v->selected_object && !v->has_selection)) {
    tess_tool_object_delete(v);
    return;
  }
  if (!v->has_selection || !tess_map_view_check_tile_layer(v)) return;
  TessProject *p = tess_map_view_project(v);
  TessError err;
  TessResult r = tess_edit_erase(p, v->level_id, v->layer_id, v->sel_x, v->sel_y, v->sel_w, v->sel_h, 0, &err);
  if (r != TESS_OK) tess_map_view_refuse_result(v, r, &err);
  tess_map_view_commit(v);
}

/* ---- input ---- */

static void update_hover(TessMapView *v, double x, double y) {
  v->pointer_x = x;
  v->pointer_y = y;
  v->pointer_inside = TRUE;
  int cx, cy;
  if (!tess_map_view_widget_to_cell(v, x, y, &cx, &cy)) cx = cy = -1;
  if (cx != v->hover_cx || cy != v->hover_cy) {
    v->hover_cx = cx;
    v->hover_cy = cy;
    g_signal_emit(v, signals[SIG_CURSOR_MOVED], 0, cx, cy);
  }
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

static void pointer_cell(TessMapView *v, double x, double y, int *cx, int *cy, double *lx, double *ly) {
  TessLevel *level = tess_map_view_level(v);
  tess_map_view_widget_to_level(v, x, y, lx, ly);
  *cx = (int)floor(*lx / level->settings.tile_w);
  *cy = (int)floor(*ly / level->settings.tile_h);
}

static void dispatch(TessMapView *v, int phase, double x, double y) {
  int cx, cy;
  double lx, ly;
  pointer_cell(v, x, y, &cx, &cy, &lx, &ly);
  switch (v->drag_tool) {
    case TESS_TOOL_SELECT:
      if (phase == 0) tess_tool_select_press(v, cx, cy);
      else if (phase == 1) tess_tool_select_drag(v, cx, cy);
      else tess_tool_select_release(v, cx, cy);
      break;
    case TESS_TOOL_OBJECT:
      if (phase == 0) {
        tess_tool_object_press(v, lx, ly);
        tess_map_view_sync_hint(v);
      } else if (phase == 1) tess_tool_object_drag(v, lx, ly);
      else tess_tool_object_release(v, lx, ly);
      break;
    default:
      if (phase == 0) tess_tool_tiles_press(v, cx, cy);
      else if (phase == 1) tess_tool_tiles_drag(v, cx, cy);
      else tess_tool_tiles_release(v, cx, cy);
      break;
  }
  v->last_cx = cx;
  v->last_cy = cy;
}

static void handle_press(TessMapView *v, int button, double x, double y, GdkModifierType state) {
  update_hover(v, x, y);
  if (button == GDK_BUTTON_MIDDLE || (button == GDK_BUTTON_PRIMARY && v->space_down)) {
    v->panning = TRUE;
    v->pan_start_x = x;
    v->pan_start_y = y;
    v->pan_origin_x = v->origin_x;
    v->pan_origin_y = v->origin_y;
    v->fitting = FALSE;
    update_cursor(v);
    return;
  }
  if (button != GDK_BUTTON_PRIMARY && button != GDK_BUTTON_SECONDARY) return;
  TessLevel *level = tess_map_view_level(v);
  if (!level || v->dragging) return;
  v->dragging = TRUE;
  /* Alt-click (or the right button, as in Tiled) picks from any tool. */
  v->drag_tool = (button == GDK_BUTTON_SECONDARY || (state & GDK_ALT_MASK)) ? TESS_TOOL_PICKER : v->tool;
  v->merge = tess_project_new_merge_key(tess_map_view_project(v));
  v->drag_refused = FALSE;
  v->drag_changed = FALSE;
  double lx, ly;
  pointer_cell(v, x, y, &v->press_cx, &v->press_cy, &lx, &ly);
  v->press_lx = lx;
  v->press_ly = ly;
  v->last_cx = v->press_cx;
  v->last_cy = v->press_cy;
  dispatch(v, 0, x, y);
}

static void handle_motion(TessMapView *v, double x, double y) {
  update_hover(v, x, y);
  if (v->panning) {
    v->origin_x = v->pan_origin_x - (x - v->pan_start_x) / v->zoom;
    v->origin_y = v->pan_origin_y - (y - v->pan_start_y) / v->zoom;
    gtk_widget_queue_draw(GTK_WIDGET(v));
    return;
  }
  if (v->dragging && tess_map_view_level(v)) dispatch(v, 1, x, y);
}

static void handle_release(TessMapView *v, int button, double x, double y) {
  if (v->panning && (button == GDK_BUTTON_MIDDLE || button == GDK_BUTTON_PRIMARY)) {
    handle_motion(v, x, y);
    v->panning = FALSE;
    update_cursor(v);
    return;
  }
  if (!v->dragging) return;
  update_hover(v, x, y);
  if (tess_map_view_level(v)) dispatch(v, 2, x, y);
  v->dragging = FALSE;
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

/* `pixels`: a touchpad's deltas are surface pixels, a wheel's are notches. */
static void handle_scroll(TessMapView *v, double dx, double dy, GdkModifierType state, gboolean pixels) {
  if (pixels) {
    /* 48 px of touchpad travel count as one notch. */
    dx /= 48.0;
    dy /= 48.0;
  }
  if (state & GDK_CONTROL_MASK) {
    /* Ctrl+wheel zooms around the pointer: a notch is 1.25x. */
    tess_map_view_zoom_at(v, pow(1.25, -dy), v->pointer_x, v->pointer_y);
    return;
  }
  if (state & GDK_SHIFT_MASK) {
    double t = dx;
    dx = dy;
    dy = t;
  }
  v->origin_x += dx * 48.0 / v->zoom;
  v->origin_y += dy * 48.0 / v->zoom;
  v->fitting = FALSE;
  update_hover(v, v->pointer_x, v->pointer_y);
}

static void on_drag_begin(GtkGestureDrag *g, double x, double y, TessMapView *v) {
  int button = (int)gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
  GdkModifierType state = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(g));
  gtk_widget_grab_focus(GTK_WIDGET(v));
  handle_press(v, button, x, y, state);
}

static void on_drag_update(GtkGestureDrag *g, double ox, double oy, TessMapView *v) {
  double sx, sy;
  if (!gtk_gesture_drag_get_start_point(g, &sx, &sy)) return;
  handle_motion(v, sx + ox, sy + oy);
}

static void on_drag_end(GtkGestureDrag *g, double ox, double oy, TessMapView *v) {
  double sx, sy;
  if (!gtk_gesture_drag_get_start_point(g, &sx, &sy)) return;
  int button = (int)gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
  handle_release(v, button, sx + ox, sy + oy);
}

static void on_motion(GtkEventControllerMotion *c, double x, double y, TessMapView *v) {
  if (v->dragging || v->panning) return; /* the drag gesture reports those */
  update_hover(v, x, y);
}

static void on_leave(GtkEventControllerMotion *c, TessMapView *v) {
  v->pointer_inside = FALSE;
  if (v->hover_cx != -1 || v->hover_cy != -1) {
    v->hover_cx = v->hover_cy = -1;
    g_signal_emit(v, signals[SIG_CURSOR_MOVED], 0, -1, -1);
  }
  gtk_widget_queue_draw(GTK_WIDGET(v));
}

static gboolean on_scroll(GtkEventControllerScroll *c, double dx, double dy, TessMapView *v) {
  handle_scroll(v, dx, dy, gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(c)),
                gtk_event_controller_scroll_get_unit(c) == GDK_SCROLL_UNIT_SURFACE);
  return TRUE;
}

static void on_pinch_begin(GtkGesture *g, GdkEventSequence *seq, TessMapView *v) {
  v->pinch_active = TRUE;
  v->pinch_zoom0 = v->zoom;
  /* The first finger of a pinch began a drag: stop the tool there. */
  v->dragging = FALSE;
  v->panning = FALSE;
  v->object_drag = OBJECT_DRAG_NONE;
  v->moving_selection = FALSE;
}

static void on_pinch_end(GtkGesture *g, GdkEventSequence *seq, TessMapView *v) { v->pinch_active = FALSE; }

static void on_pinch_scale(GtkGestureZoom *g, double scale, TessMapView *v) {
  if (!v->pinch_active) on_pinch_begin(GTK_GESTURE(g), NULL, v);
  double cx, cy;
  /* Around the fingers' centre; without touches (a test emitting the
   * signal), around the pointer. */
  if (!gtk_gesture_is_active(GTK_GESTURE(g)) || !gtk_gesture_get_bounding_box_center(GTK_GESTURE(g), &cx, &cy)) {
    cx = v->pointer_x;
    cy = v->pointer_y;
  }
  set_zoom_internal(v, v->pinch_zoom0 * scale, cx, cy);
}

static gboolean on_key_pressed(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state,
                               TessMapView *v) {
  if (keyval == GDK_KEY_space) {
    if (!v->space_down) {
      v->space_down = TRUE;
      update_cursor(v);
    }
    return TRUE;
  }
  if (keyval == GDK_KEY_Escape) {
    if (v->dragging) {
      v->dragging = FALSE;
      v->moving_selection = FALSE;
      v->object_drag = OBJECT_DRAG_NONE;
    } else if (v->joint_body_a) {
      v->joint_body_a = 0;
      tess_map_view_sync_hint(v);
    } else if (v->has_selection) {
      tess_tool_select_clear(v);
    } else if (v->selected_object) {
      tess_map_view_select_object(v, 0);
    }
    gtk_widget_queue_draw(GTK_WIDGET(v));
    return TRUE;
  }
  return FALSE;
}

static void on_key_released(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state,
                            TessMapView *v) {
  if (keyval == GDK_KEY_space) {
    v->space_down = FALSE;
    update_cursor(v);
  }
}

/* ---- drawing ---- */

static void draw_message(cairo_t *cr, int width, int height, const char *text) {
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 15);
  cairo_text_extents_t ext;
  cairo_text_extents(cr, text, &ext);
  cairo_move_to(cr, (width - ext.width) / 2, height / 2.0);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.6);
  cairo_show_text(cr, text);
}

static gboolean redraw_again(gpointer data) {
  TessMapView *v = data;
  v->redraw_idle = 0;
  gtk_widget_queue_draw(GTK_WIDGET(v));
  return G_SOURCE_REMOVE;
}

static void draw_view(TessMapView *v, cairo_t *cr, int width, int height) {
  cairo_set_source_rgb(cr, 0.16, 0.16, 0.18);
  cairo_paint(cr);
  TessLevel *level = tess_map_view_level(v);
  if (!level || !v->renderer) {
    draw_message(cr, width, height, v->doc ? _("No level selected") : _("No project open"));
    return;
  }
  place_level(v, width, height);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_TILES | TESS_RENDER_WALLS | TESS_RENDER_OBJECTS | TESS_RENDER_BACKGROUND | TESS_RENDER_BOUNDS;
  if (v->show_grid) o.flags |= TESS_RENDER_GRID;
  if (v->show_materials) o.flags |= TESS_RENDER_MATERIALS;
  if (v->show_collision) o.flags |= TESS_RENDER_COLLISION;
  o.selected_object = v->selected_object;
  TessRenderView view = {v->origin_x, v->origin_y, v->zoom, width, height};
  /* A cold cache is filled over several frames rather than one long stall. */
  o.time_budget_ms = 8.0;
  TessError err;
  tess_renderer_draw(v->renderer, cr, level, &view, &o, &err); /* a broken tileset shows as a magenta check */
  if (!tess_renderer_frame_complete(v->renderer) && !v->redraw_idle)
    v->redraw_idle = g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, redraw_again, v, NULL);
  switch (v->tool) {
    case TESS_TOOL_SELECT: tess_tool_select_draw(v, cr); break;
    case TESS_TOOL_OBJECT: tess_tool_object_draw(v, cr); break;
    default: tess_tool_tiles_draw(v, cr); break;
  }
  if (v->tool != TESS_TOOL_SELECT && v->has_selection) tess_tool_select_draw(v, cr);
  if (v->show_materials) {
    /* The legend lists what the visible cells use. */
    double lx0, ly0, lx1, ly1;
    tess_map_view_widget_to_level(v, 0, 0, &lx0, &ly0);
    tess_map_view_widget_to_level(v, width, height, &lx1, &ly1);
    uint32_t x0 = (uint32_t)MAX(0.0, floor(lx0 / level->settings.tile_w));
    uint32_t y0 = (uint32_t)MAX(0.0, floor(ly0 / level->settings.tile_h));
    uint32_t x1 = (uint32_t)MAX(0.0, ceil(lx1 / level->settings.tile_w));
    uint32_t y1 = (uint32_t)MAX(0.0, ceil(ly1 / level->settings.tile_h));
    /* Recomputed only when the visible cells or the project change; when
     * many cells are visible, the project's materials are listed instead. */
    if (!v->legend_valid || v->legend_x0 != x0 || v->legend_y0 != y0 || v->legend_x1 != x1 || v->legend_y1 != y1 ||
        v->legend_level != level->id) {
      v->legend_valid = TRUE;
      v->legend_x0 = x0;
      v->legend_y0 = y0;
      v->legend_x1 = x1;
      v->legend_y1 = y1;
      v->legend_level = level->id;
      if ((uint64_t)(x1 - MIN(x0, x1)) * (y1 - MIN(y0, y1)) <= 20000) {
        v->legend_count = tess_render_material_legend(tess_map_view_project(v), level, x0, y0, x1, y1, v->legend,
                                                      G_N_ELEMENTS(v->legend));
      } else {
        TessProject *p = tess_map_view_project(v);
        size_t k = 0;
        for (uint32_t i = 0; i < p->material_count && k < G_N_ELEMENTS(v->legend); i++, k++) {
          v->legend[k].material = p->materials[i].id;
          v->legend[k].color = p->materials[i].color;
          g_strlcpy(v->legend[k].name, p->materials[i].name, sizeof v->legend[k].name);
          v->legend[k].cells = 0;
        }
        v->legend_count = k;
      }
    }
    const TessLegendEntry *entries = v->legend;
    size_t n = MIN(v->legend_count, G_N_ELEMENTS(v->legend));
    /* Measured on a scratch context, then drawn at the top-right corner. */
    double w = 0, h = 0;
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *mcr = cairo_create(scratch);
    tess_render_draw_legend(mcr, entries, MIN(n, (size_t)16), 0, 0, o.material_alpha, &w, &h);
    cairo_destroy(mcr);
    cairo_surface_destroy(scratch);
    if (w > 0) {
      tess_render_draw_legend(cr, entries, MIN(n, (size_t)16), width - w - 8, 8, o.material_alpha, NULL, NULL);
    }
  }
}

static void tess_map_view_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
  TessMapView *v = TESS_MAP_VIEW(widget);
  int width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget);
  if (width <= 0 || height <= 0) return;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height);
  cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &bounds);
  draw_view(v, cr, width, height);
  cairo_destroy(cr);
}

/* ---- GObject ---- */

static void tess_map_view_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  TessMapView *v = TESS_MAP_VIEW(object);
  switch (id) {
    case PROP_ZOOM: g_value_set_double(value, v->zoom); break;
    case PROP_TOOL: g_value_set_enum(value, v->tool); break;
    case PROP_SHOW_GRID: g_value_set_boolean(value, v->show_grid); break;
    case PROP_SHOW_MATERIALS: g_value_set_boolean(value, v->show_materials); break;
    case PROP_SNAP_TO_GRID: g_value_set_boolean(value, v->snap); break;
    case PROP_HINT: g_value_set_string(value, tess_map_view_get_hint(v)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_map_view_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  TessMapView *v = TESS_MAP_VIEW(object);
  switch (id) {
    case PROP_ZOOM: tess_map_view_set_zoom(v, g_value_get_double(value)); break;
    case PROP_TOOL: tess_map_view_set_tool(v, (TessTool)g_value_get_enum(value)); break;
    case PROP_SHOW_GRID: tess_map_view_set_show_grid(v, g_value_get_boolean(value)); break;
    case PROP_SHOW_MATERIALS: tess_map_view_set_show_materials(v, g_value_get_boolean(value)); break;
    case PROP_SNAP_TO_GRID: tess_map_view_set_snap_to_grid(v, g_value_get_boolean(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_map_view_dispose(GObject *object) {
  TessMapView *v = TESS_MAP_VIEW(object);
  g_clear_handle_id(&v->redraw_idle, g_source_remove);
  g_clear_handle_id(&v->zoom_notify_idle, g_source_remove);
  tess_map_view_set_document(v, NULL);
  G_OBJECT_CLASS(tess_map_view_parent_class)->dispose(object);
}

static void tess_map_view_finalize(GObject *object) {
  TessMapView *v = TESS_MAP_VIEW(object);
  g_free(v->stamp);
  g_free(v->clip);
  g_free(v->move_cells);
  if (v->has_template) tess_object_clear(&v->template_obj);
  g_free(v->hint);
  G_OBJECT_CLASS(tess_map_view_parent_class)->finalize(object);
}

static void tess_map_view_class_init(TessMapViewClass *klass) {
  GObjectClass *oc = G_OBJECT_CLASS(klass);
  GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
  oc->get_property = tess_map_view_get_property;
  oc->set_property = tess_map_view_set_property;
  oc->dispose = tess_map_view_dispose;
  oc->finalize = tess_map_view_finalize;
  wc->snapshot = tess_map_view_snapshot;
  wc->size_allocate = tess_map_view_size_allocate;

  props[PROP_ZOOM] = g_param_spec_double("zoom", NULL, NULL, TESS_MAP_VIEW_ZOOM_MIN, TESS_MAP_VIEW_ZOOM_MAX, 1.0,
                                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_TOOL] = g_param_spec_enum("tool", NULL, NULL, TESS_TYPE_TOOL, TESS_TOOL_BRUSH,
                                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_SHOW_GRID] = g_param_spec_boolean("show-grid", NULL, NULL, TRUE,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_SHOW_MATERIALS] = g_param_spec_boolean(
      "show-materials", NULL, NULL, FALSE, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_SNAP_TO_GRID] = g_param_spec_boolean(
      "snap-to-grid", NULL, NULL, FALSE, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What the tool expects next, for the status bar ("" when nothing). */
  props[PROP_HINT] = g_param_spec_string("hint", NULL, NULL, "", G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(oc, N_PROPS, props);

  signals[SIG_CURSOR_MOVED] = g_signal_new("cursor-moved", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_INT);
  signals[SIG_ZOOM_CHANGED] = g_signal_new("zoom-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 0);
  signals[SIG_OBJECT_SELECTED] = g_signal_new("object-selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIG_STAMP_PICKED] = g_signal_new("stamp-picked", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name(wc, "tessmapview");
}

static void tess_map_view_init(TessMapView *v) {
  v->zoom = 1.0;
  v->show_grid = TRUE;
  v->brush_size = 1;
  v->hover_cx = v->hover_cy = -1;
  v->tool = TESS_TOOL_BRUSH;
  update_cursor(v);
  gtk_widget_set_focusable(GTK_WIDGET(v), TRUE);
  gtk_widget_set_hexpand(GTK_WIDGET(v), TRUE);
  gtk_widget_set_vexpand(GTK_WIDGET(v), TRUE);
  gtk_widget_set_overflow(GTK_WIDGET(v), GTK_OVERFLOW_HIDDEN);

  GtkGesture *drag = gtk_gesture_drag_new();
  gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), 0); /* all buttons */
  g_signal_connect(drag, "drag-begin", G_CALLBACK(on_drag_begin), v);
  g_signal_connect(drag, "drag-update", G_CALLBACK(on_drag_update), v);
  g_signal_connect(drag, "drag-end", G_CALLBACK(on_drag_end), v);
  gtk_widget_add_controller(GTK_WIDGET(v), GTK_EVENT_CONTROLLER(drag));

  GtkEventController *motion = gtk_event_controller_motion_new();
  g_signal_connect(motion, "motion", G_CALLBACK(on_motion), v);
  g_signal_connect(motion, "leave", G_CALLBACK(on_leave), v);
  gtk_widget_add_controller(GTK_WIDGET(v), motion);

  GtkEventController *scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect(scroll, "scroll", G_CALLBACK(on_scroll), v);
  gtk_widget_add_controller(GTK_WIDGET(v), scroll);

  GtkGesture *zoom = gtk_gesture_zoom_new();
  g_signal_connect(zoom, "begin", G_CALLBACK(on_pinch_begin), v);
  g_signal_connect(zoom, "end", G_CALLBACK(on_pinch_end), v);
  g_signal_connect(zoom, "scale-changed", G_CALLBACK(on_pinch_scale), v);
  gtk_widget_add_controller(GTK_WIDGET(v), GTK_EVENT_CONTROLLER(zoom));
  g_object_set_data(G_OBJECT(v), "tess-zoom-gesture", zoom);

  GtkEventController *keys = gtk_event_controller_key_new();
  g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key_pressed), v);
  g_signal_connect(keys, "key-released", G_CALLBACK(on_key_released), v);
  gtk_widget_add_controller(GTK_WIDGET(v), keys);
}

GtkWidget *tess_map_view_new(void) { return g_object_new(TESS_TYPE_MAP_VIEW, NULL); }

/* ---- test hooks ---- */

void tess_map_view_test_press(TessMapView *v, int button, double x, double y, GdkModifierType state) {
  handle_press(v, button, x, y, state);
}
void tess_map_view_test_motion(TessMapView *v, double x, double y, GdkModifierType state) { handle_motion(v, x, y); }
void tess_map_view_test_release(TessMapView *v, int button, double x, double y, GdkModifierType state) {
  handle_release(v, button, x, y);
}
void tess_map_view_test_scroll(TessMapView *v, double x, double y, double dx, double dy, GdkModifierType state) {
  update_hover(v, x, y);
  handle_scroll(v, dx, dy, state, FALSE);
}
void tess_map_view_test_key(TessMapView *v, guint keyval, gboolean pressed) {
  if (pressed) on_key_pressed(NULL, keyval, 0, 0, v);
  else on_key_released(NULL, keyval, 0, 0, v);
}
GtkGesture *tess_map_view_test_zoom_gesture(TessMapView *v) {
  return GTK_GESTURE(g_object_get_data(G_OBJECT(v), "tess-zoom-gesture"));
}
void tess_map_view_test_render_stats(TessMapView *v, uint64_t *chunks_rendered, gboolean reset) {
  TessRenderStats st = {0};
  if (v->renderer) tess_renderer_stats(v->renderer, &st);
  if (chunks_rendered) *chunks_rendered = st.chunks_rendered;
  if (reset && v->renderer) tess_renderer_reset_stats(v->renderer);
}
void tess_map_view_test_draw(TessMapView *v, cairo_t *cr, int width, int height) { draw_view(v, cr, width, height); }

cairo_surface_t *tess_map_view_test_render(TessMapView *v, int width, int height) {
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create(s);
  draw_view(v, cr, width, height);
  cairo_destroy(cr);
  cairo_surface_flush(s);
  return s;
}
