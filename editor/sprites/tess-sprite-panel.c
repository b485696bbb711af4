/* TessSpritePanel: the project's sprites (see tess-sprite-panel.h). */
#include "tess-sprite-panel.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tess-mask-editor.h"
#include "tess-sprite-import.h"
#include "tess-sprite-messages.h"
#include "tess-ui.h"
#include "tessera/image.h"
#include "tessera/mask.h"

#define SETTING_MERGE_MS 600

struct _TessSpritePanel {
  GtkBox parent_instance;

  /* template widgets */
  GtkListBox *list;
  GtkWidget *empty_label;
  GtkWidget *settings, *remove_button; /* sensitive through "selected" (tess-sprite-panel.ui) */
  GtkEntry *name;
  GtkSpinButton *anchor_x, *anchor_y, *frames, *fps;
  GtkDropDown *body_type, *material;
  GtkProgressBar *import_bar;

  /* owned */
  TessDocument *doc;
  gulong changed_handler;
  TessId selected;
  guint refill_source;
  gboolean loading, applying;
  GArray *material_ids;
  GtkDropTarget *drop_target;

  /* Import runs on a worker (tess-sprite-import.c) while a progress row
   * offers Cancel (bound to "importing", "cancelling", "import-progress");
   * the sprites are added here, on the main thread. */
  gboolean importing, cancelling;
  double import_progress;
  GCancellable *import_cancel;  /* the running import's; NULL when idle */
  TessSpriteImport *import_job; /* borrowed from the worker's task while it runs (progress) */
  guint import_tick;
  gboolean disposed;

  TessObject template_obj;
  gboolean has_template;
  char *signature; /* of the rows shown */

  uint32_t merge;
  gint64 merge_time;
  gconstpointer merge_source;
};

enum { SIGNAL_SPRITE_SELECTED,
       SIGNAL_PLACE_REQUESTED,
       SIGNAL_TEMPLATE_CHANGED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE(TessSpritePanel, tess_sprite_panel, GTK_TYPE_BOX)

/* "selected": the chosen sprite's id (0: none). Remove and the settings are
 * sensitive through bindings on it in tess-sprite-panel.ui, as the import
 * row, its bar and its buttons are on "importing", "cancelling" and
 * "import-progress". */
enum { PROP_0,
       PROP_SELECTED,
       PROP_IMPORTING,
       PROP_CANCELLING,
       PROP_IMPORT_PROGRESS,
       N_PROPS };
static GParamSpec *props[N_PROPS];

static void set_selected(TessSpritePanel *self, TessId id) {
  if (self->selected == id) return;
  self->selected = id;
  g_object_notify_by_pspec(G_OBJECT(self), props[PROP_SELECTED]);
}

/* The template's closures: a sprite is chosen; Cancel can still act; what the import's bar says. */
static gboolean id_is_set(gpointer unused, guint id) { return id != 0; }
static gboolean running_not_cancelled(gpointer unused, gboolean importing, gboolean cancelling) {
  return importing && !cancelling;
}
static char *import_text(gpointer unused, gboolean importing, gboolean cancelling) {
  return !importing ? NULL : g_strdup(cancelling ? _("Cancelling…") : _("Importing…"));
}

static void set_import_state(TessSpritePanel *self, gboolean importing, gboolean cancelling, double progress) {
  g_object_freeze_notify(G_OBJECT(self));
  if (self->importing != importing) g_object_notify_by_pspec(G_OBJECT(self), props[PROP_IMPORTING]);
  if (self->cancelling != cancelling) g_object_notify_by_pspec(G_OBJECT(self), props[PROP_CANCELLING]);
  if (self->import_progress != progress) g_object_notify_by_pspec(G_OBJECT(self), props[PROP_IMPORT_PROGRESS]);
  self->importing = importing;
  self->cancelling = cancelling;
  self->import_progress = progress;
  g_object_thaw_notify(G_OBJECT(self));
}

static TessProject *project(TessSpritePanel *self) { return self->doc ? tess_document_get_project(self->doc) : NULL; }

/* Failures go up to the window's message bar (tess_ui_report), as every panel's do. */
static void commit(TessSpritePanel *self) {
  g_autoptr(GError) error = NULL;
  if (self->doc && !tess_document_commit(self->doc, &error)) tess_ui_report(GTK_WIDGET(self), error->message);
}

/* ---- The template the object tool places ---------------------------------- */

static void update_template(TessSpritePanel *self) {
  TessProject *p = project(self);
  const TessSprite *sp = p && self->selected ? tess_project_sprite(p, self->selected) : NULL;
  if (self->has_template) tess_object_clear(&self->template_obj);
  self->has_template = FALSE;
  if (sp) {
    tess_object_default(&self->template_obj, TESS_OBJECT_BODY);
    g_strlcpy(self->template_obj.name, sp->name, sizeof self->template_obj.name);
    self->template_obj.u.body.shape = TESS_BODY_SPRITE;
    self->template_obj.u.body.sprite = sp->id;
    static const TessBodyType types[] = {TESS_BODY_STATIC, TESS_BODY_KINEMATIC, TESS_BODY_DYNAMIC};
    guint t = gtk_drop_down_get_selected(self->body_type);
    self->template_obj.u.body.type = types[t < 3 ? t : 2];
    guint mi = gtk_drop_down_get_selected(self->material);
    self->template_obj.u.body.material = mi < self->material_ids->len ? g_array_index(self->material_ids, TessId, mi) : 0;
    self->has_template = TRUE;
  }
  g_signal_emit(self, signals[SIGNAL_TEMPLATE_CHANGED], 0);
}

const TessObject *tess_sprite_panel_get_template(TessSpritePanel *self) {
  return self->has_template ? &self->template_obj : NULL;
}

void tess_sprite_panel_set_body_type(TessSpritePanel *self, TessBodyType type) {
  guint index = type == TESS_BODY_STATIC ? 0 : type == TESS_BODY_KINEMATIC ? 1
                                                                           : 2;
  gtk_drop_down_set_selected(self->body_type, index);
}

/* ---- Settings of the selected sprite ---------------------------------------- */

static void load_settings(TessSpritePanel *self) {
  TessProject *p = project(self);
  const TessSprite *sp = p && self->selected ? tess_project_sprite(p, self->selected) : NULL;
  self->loading = TRUE;
  if (sp) {
    uint32_t frames = sp->frame_count ? sp->frame_count : 1;
    double fw = (double)sp->image_w / frames;
    gtk_editable_set_text(GTK_EDITABLE(self->name), sp->name);
    gtk_spin_button_set_range(self->anchor_x, 0, fw > 0 ? fw : 1);
    gtk_spin_button_set_range(self->anchor_y, 0, sp->image_h ? sp->image_h : 1);
    gtk_spin_button_set_value(self->anchor_x, sp->anchor.x);
    gtk_spin_button_set_value(self->anchor_y, sp->anchor.y);
    gtk_spin_button_set_range(self->frames, 1, sp->image_w ? sp->image_w : 1);
    gtk_spin_button_set_value(self->frames, frames);
    gtk_spin_button_set_value(self->fps, sp->frame_rate);
  } else {
    gtk_editable_set_text(GTK_EDITABLE(self->name), "");
  }
  self->loading = FALSE;
}

static uint32_t merge_for(TessSpritePanel *self, gconstpointer source) {
  gint64 now = g_get_monotonic_time();
  if (self->merge == 0 || source != self->merge_source || now - self->merge_time > (gint64)SETTING_MERGE_MS * 1000)
    self->merge = tess_project_new_merge_key(project(self));
  self->merge_source = source;
  self->merge_time = now;
  return self->merge;
}

/* Applies a changed copy of the selected sprite and commits it. */
static gboolean apply_sprite(TessSpritePanel *self, const TessSprite *changed, gconstpointer source) {
  TessProject *p = project(self);
  TessError err = {0};
  self->applying = TRUE;
  TessResult r = tess_edit_sprite_set(p, changed, source ? merge_for(self, source) : 0, &err);
  self->applying = FALSE;
  if (r != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_edit(changed->name, r, &err);
    tess_ui_report(GTK_WIDGET(self), msg);
    return FALSE;
  }
  return tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

gboolean tess_sprite_panel_set_anchor(TessSpritePanel *self, float x, float y) {
  TessProject *p = project(self);
  const TessSprite *sp = p && self->selected ? tess_project_sprite(p, self->selected) : NULL;
  if (!sp) return FALSE;
  TessSprite copy;
  if (tess_sprite_copy(&copy, sp) != TESS_OK) return FALSE;
  copy.anchor = tess_v2(x, y);
  gboolean ok = apply_sprite(self, &copy, self->anchor_x);
  tess_sprite_clear(&copy);
  return ok;
}

/* The mask lives in frame pixels: a new frame count traces it again on the
 * new first frame (keeping the mask settings). */
gboolean tess_sprite_panel_set_frames(TessSpritePanel *self, guint frame_count, double frame_rate) {
  TessProject *p = project(self);
  const TessSprite *sp = p && self->selected ? tess_project_sprite(p, self->selected) : NULL;
  if (!sp) return FALSE;
  TessSprite copy;
  if (tess_sprite_copy(&copy, sp) != TESS_OK) return FALSE;
  gboolean ok = TRUE;
  gboolean new_frames = frame_count != copy.frame_count;
  copy.frame_count = frame_count;
  copy.frame_rate = (float)frame_rate;
  if (new_frames && frame_count >= 1 && frame_count <= copy.image_w) {
    uint32_t fw = copy.image_w / frame_count;
    if (copy.anchor.x > fw) copy.anchor.x = fw / 2.0f;
    TessImage img;
    TessError err = {0};
    TessResult r = tess_png_decode(copy.png, copy.png_size, copy.name, &img, &err);
    if (r == TESS_OK) {
      TessImageView frame = tess_image_view(&img);
      frame.width = fw;
      r = tess_sprite_mask_trace(frame, &copy.mask, &err);
      tess_image_clear(&img);
    }
    if (r != TESS_OK) {
      g_autofree char *msg = tess_sprite_message_frames(copy.name, frame_count, copy.mask.threshold, r, &err);
      tess_ui_report(GTK_WIDGET(self), msg);
      ok = FALSE;
    }
  }
  if (ok) ok = apply_sprite(self, &copy, new_frames ? NULL : (gconstpointer)self->fps);
  tess_sprite_clear(&copy);
  return ok;
}

static void on_anchor_changed(GtkSpinButton *spin, TessSpritePanel *self) {
  if (self->loading) return;
  tess_sprite_panel_set_anchor(self, (float)gtk_spin_button_get_value(self->anchor_x),
                               (float)gtk_spin_button_get_value(self->anchor_y));
}

static void on_frames_changed(GtkSpinButton *spin, TessSpritePanel *self) {
  if (self->loading) return;
  if (!tess_sprite_panel_set_frames(self, (guint)gtk_spin_button_get_value_as_int(self->frames),
                                    gtk_spin_button_get_value(self->fps)))
    load_settings(self);
}

/* Names are bytes with a terminator: cut a long one on a character boundary. */
static void copy_name(char *dst, size_t cap, const char *src) {
  const char *end = src;
  if (!g_utf8_validate(src, -1, NULL)) {
    g_strlcpy(dst, "sprite", cap);
    return;
  }
  while (*end && (size_t)(g_utf8_next_char(end) - src) < cap) end = g_utf8_next_char(end);
  memcpy(dst, src, (size_t)(end - src));
  dst[end - src] = '\0';
}

static void on_name_activate(GtkEntry *entry, TessSpritePanel *self) {
  TessProject *p = project(self);
  const TessSprite *sp = p && self->selected ? tess_project_sprite(p, self->selected) : NULL;
  const char *text = gtk_editable_get_text(GTK_EDITABLE(entry));
  if (!sp || !*text || strcmp(text, sp->name) == 0) return;
  TessSprite copy;
  if (tess_sprite_copy(&copy, sp) != TESS_OK) return;
  copy_name(copy.name, sizeof copy.name, text);
  apply_sprite(self, &copy, NULL);
  tess_sprite_clear(&copy);
}

static void on_centre_anchor(GtkButton *b, TessSpritePanel *self) {
  TessProject *p = project(self);
  const TessSprite *sp = p && self->selected ? tess_project_sprite(p, self->selected) : NULL;
  if (!sp) return;
  uint32_t frames = sp->frame_count ? sp->frame_count : 1;
  tess_sprite_panel_set_anchor(self, (float)(sp->image_w / frames) / 2.0f, (float)sp->image_h / 2.0f);
}

static void on_remove(GtkButton *b, TessSpritePanel *self) {
  TessProject *p = project(self);
  if (!p || !self->selected) return;
  TessError err = {0};
  const TessSprite *sp = tess_project_sprite(p, self->selected);
  g_autofree char *name = g_strdup(sp ? sp->name : "");
  TessResult r = tess_edit_sprite_remove(p, self->selected, &err);
  if (r != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_edit(name, r, &err);
    tess_ui_report(GTK_WIDGET(self), msg);
    return;
  }
  tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
}

/* ---- The list ----------------------------------------------------------------- */

#define THUMB 40 /* px: every row's thumbnail square, so the names line up */

/* The sprite's first frame, fitted into the square and centred: pixel art
 * is scaled up by whole steps only, so every pixel stays square and sharp;
 * large images scaled down are filtered. */
static void draw_thumbnail(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data) {
  (void)area;
  cairo_surface_t *s = g_object_get_data(G_OBJECT(area), "surface");
  uint32_t frames = GPOINTER_TO_UINT(data);
  if (!s || frames == 0) return;
  double fw = (double)cairo_image_surface_get_width(s) / frames, fh = cairo_image_surface_get_height(s);
  if (fw <= 0 || fh <= 0) return;
  double scale = fmin(width / fw, height / fh);
  if (scale >= 1.0) scale = floor(scale);
  cairo_translate(cr, 0.5 * (width - fw * scale), 0.5 * (height - fh * scale));
  cairo_rectangle(cr, 0, 0, fw * scale, fh * scale);
  cairo_clip(cr);
  cairo_scale(cr, scale, scale);
  cairo_set_source_surface(cr, s, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), scale >= 1.0 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_paint(cr);
}

static GtkWidget *sprite_row(const TessSprite *sp) {
  GtkWidget *row = gtk_list_box_row_new();
  g_object_set_data(G_OBJECT(row), "sprite", GUINT_TO_POINTER(sp->id));
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_margin_start(box, 4);
  gtk_widget_set_margin_end(box, 4);
  gtk_widget_set_margin_top(box, 3);
  gtk_widget_set_margin_bottom(box, 3);
  GtkWidget *thumb = gtk_drawing_area_new();
  gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(thumb), THUMB);
  gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(thumb), THUMB);
  cairo_surface_t *surface = sp->png_size ? tess_ui_surface_from_png(sp->png, sp->png_size, sp->name, NULL, NULL) : NULL;
  if (surface) g_object_set_data_full(G_OBJECT(thumb), "surface", surface, (GDestroyNotify)cairo_surface_destroy);
  gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(thumb), draw_thumbnail,
                                 GUINT_TO_POINTER(sp->frame_count ? sp->frame_count : 1), NULL);
  gtk_box_append(GTK_BOX(box), thumb);
  GtkWidget *text = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *name = gtk_label_new(sp->name);
  gtk_label_set_xalign(GTK_LABEL(name), 0);
  gtk_label_set_ellipsize(GTK_LABEL(name), PANGO_ELLIPSIZE_END);
  uint32_t frames = sp->frame_count ? sp->frame_count : 1;
  g_autofree char *size = g_strdup_printf(
      g_dngettext(GETTEXT_PACKAGE, "%u × %u px, %u frame", "%u × %u px, %u frames", frames), sp->image_w / frames,
      sp->image_h, frames);
  GtkWidget *detail = gtk_label_new(size);
  gtk_label_set_xalign(GTK_LABEL(detail), 0);
  gtk_widget_add_css_class(detail, "dim-label");
  gtk_widget_add_css_class(detail, "caption");
  gtk_box_append(GTK_BOX(text), name);
  gtk_box_append(GTK_BOX(text), detail);
  gtk_box_append(GTK_BOX(box), text);
  gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(row), box);
  return row;
}

static void fill_materials(TessSpritePanel *self) {
  TessProject *p = project(self);
  guint old = gtk_drop_down_get_selected(self->material);
  TessId old_id = old < self->material_ids->len ? g_array_index(self->material_ids, TessId, old) : 0;
  GtkStringList *names = gtk_string_list_new(NULL);
  g_array_set_size(self->material_ids, 0);
  guint sel = 0;
  for (uint32_t i = 0; p && i < p->material_count; i++) {
    gtk_string_list_append(names, p->materials[i].name);
    if (p->materials[i].id == old_id) sel = i;
    g_array_append_val(self->material_ids, p->materials[i].id);
  }
  self->loading = TRUE;
  gtk_drop_down_set_model(self->material, G_LIST_MODEL(names));
  gtk_drop_down_set_selected(self->material, sel);
  self->loading = FALSE;
  g_object_unref(names);
}

/* What the rows show; a mask edit (every step of a slider drag in the mask
 * editor) leaves it alone, so the rows and their thumbnails stay. */
static char *list_signature(TessProject *p) {
  GString *sig = g_string_new(NULL);
  for (uint32_t i = 0; p && i < p->sprite_count; i++) {
    const TessSprite *sp = p->sprites[i];
    /* A PNG's tail holds the last data chunk's CRC: a new image changes it. */
    uint32_t h = 2166136261u;
    for (size_t k = sp->png_size > 64 ? sp->png_size - 64 : 0; k < sp->png_size; k++) h = (h ^ sp->png[k]) * 16777619u;
    g_string_append_printf(sig, "%u:%s:%u:%u:%u:%zu:%08x;", sp->id, sp->name, sp->image_w, sp->image_h,
                           sp->frame_count, sp->png_size, h);
  }
  return g_string_free(sig, FALSE);
}

static void fill_list(TessSpritePanel *self) {
  TessProject *p = project(self);
  g_autofree char *sig = list_signature(p);
  if (self->signature && strcmp(sig, self->signature) == 0) {
    /* Same rows: only the selection may have gone (the sprite was removed elsewhere: it would change sig). */
    fill_materials(self);
    load_settings(self);
    update_template(self);
    return;
  }
  g_free(self->signature);
  self->signature = g_steal_pointer(&sig);
  self->loading = TRUE;
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->list)))) gtk_list_box_remove(self->list, child);
  GtkListBoxRow *select = NULL;
  for (uint32_t i = 0; p && i < p->sprite_count; i++) {
    GtkWidget *row = sprite_row(p->sprites[i]);
    gtk_list_box_append(self->list, row);
    if (p->sprites[i]->id == self->selected) select = GTK_LIST_BOX_ROW(row);
  }
  gtk_widget_set_visible(self->empty_label, !p || p->sprite_count == 0);
  if (!select && self->selected) set_selected(self, 0); /* it was removed */
  gtk_list_box_select_row(self->list, select);
  self->loading = FALSE;
  fill_materials(self);
  load_settings(self);
  update_template(self);
}

static gboolean refill_idle(gpointer user) {
  TessSpritePanel *self = user;
  self->refill_source = 0;
  TessId before = self->selected;
  fill_list(self);
  if (before != self->selected) g_signal_emit(self, signals[SIGNAL_SPRITE_SELECTED], 0, (guint)self->selected);
  return G_SOURCE_REMOVE;
}

static void on_doc_changed(TessDocument *doc, gpointer change_ptr, TessSpritePanel *self) {
  const TessChange *change = change_ptr;
  if (change->kind != TESS_CHANGE_SPRITE && change->kind != TESS_CHANGE_MATERIAL) return;
  if (!self->refill_source) self->refill_source = g_idle_add(refill_idle, self);
}

static void on_row_selected(GtkListBox *box, GtkListBoxRow *row, TessSpritePanel *self) {
  /* Disposing the template unselects the list's rows on the way out. */
  if (self->loading || self->disposed) return;
  set_selected(self, row ? GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(row), "sprite")) : 0);
  load_settings(self);
  update_template(self);
  g_signal_emit(self, signals[SIGNAL_SPRITE_SELECTED], 0, (guint)self->selected);
}

TessId tess_sprite_panel_get_selected(TessSpritePanel *self) { return self->selected; }

void tess_sprite_panel_select(TessSpritePanel *self, TessId sprite) {
  for (GtkWidget *c = gtk_widget_get_first_child(GTK_WIDGET(self->list)); c; c = gtk_widget_get_next_sibling(c))
    if (GTK_IS_LIST_BOX_ROW(c) && GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(c), "sprite")) == sprite) {
      gtk_list_box_select_row(self->list, GTK_LIST_BOX_ROW(c));
      return;
    }
}

guint tess_sprite_panel_get_row_count(TessSpritePanel *self) {
  guint n = 0;
  for (GtkWidget *c = gtk_widget_get_first_child(GTK_WIDGET(self->list)); c; c = gtk_widget_get_next_sibling(c))
    if (GTK_IS_LIST_BOX_ROW(c)) n++;
  return n;
}

GtkSpinButton *tess_sprite_panel_get_spin(TessSpritePanel *self, const char *which) {
  if (g_str_equal(which, "anchor-x")) return self->anchor_x;
  if (g_str_equal(which, "anchor-y")) return self->anchor_y;
  if (g_str_equal(which, "frames")) return self->frames;
  if (g_str_equal(which, "fps")) return self->fps;
  return NULL;
}

/* ---- Import -------------------------------------------------------------------- */

/* The row just imported is chosen: bring it into the list's view once it
 * has its place (a tick after the refill lays it out), or a user with many
 * sprites sees the name field change and no row. */
static gboolean scroll_to_selected(GtkWidget *list, GdkFrameClock *clock, gpointer data) {
  GtkListBoxRow *row = gtk_list_box_get_selected_row(GTK_LIST_BOX(list));
  GtkWidget *scrolled = gtk_widget_get_ancestor(list, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t r;
  if (!row || !scrolled || !gtk_widget_compute_bounds(GTK_WIDGET(row), list, &r)) return G_SOURCE_REMOVE;
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(scrolled));
  double top = r.origin.y, bottom = top + r.size.height;
  /* Not laid out yet: a new row has no height, the view's range is the old list's. */
  if (gtk_widget_get_height(GTK_WIDGET(row)) <= 0 || gtk_adjustment_get_upper(adj) < bottom) return G_SOURCE_CONTINUE;
  double value = gtk_adjustment_get_value(adj), page = gtk_adjustment_get_page_size(adj);
  if (top < value) gtk_adjustment_set_value(adj, top);
  else if (bottom > value + page) gtk_adjustment_set_value(adj, bottom - page);
  return G_SOURCE_REMOVE;
}

/* Adds a prepared import's sprites, one undo step each, committed
 * together; the last one added is selected, the failures are named. */
static guint apply_import(TessSpritePanel *self, TessSpriteImport *job, GError **error) {
  TessProject *p = project(self);
  if (!p) return 0;
  guint imported = 0;
  TessId last = 0;
  GString *failures = g_string_new(NULL);
  for (guint i = 0; i < tess_sprite_import_get_count(job); i++) {
    TessResult r;
    const TessError *why_err;
    TessError add_err = {0};
    TessSprite *sp = tess_sprite_import_get_sprite(job, i, &r, &why_err);
    TessId id = 0;
    if (sp) {
      copy_name(sp->name, sizeof sp->name, tess_sprite_import_get_stem(job, i));
      if (!sp->name[0]) g_strlcpy(sp->name, "sprite", sizeof sp->name);
      r = tess_edit_sprite_add(p, sp, &id, &add_err);
      why_err = &add_err;
    }
    if (r == TESS_OK) {
      imported++;
      last = id;
    } else {
      TessSpriteMask defaults;
      tess_sprite_mask_default(&defaults);
      g_autofree char *why =
          tess_sprite_message_import(tess_sprite_import_get_path(job, i), defaults.threshold, r, why_err);
      if (failures->len) g_string_append_c(failures, '\n');
      g_string_append(failures, why);
    }
  }
  if (imported) {
    commit(self);
    set_selected(self, last);
    if (self->refill_source) g_source_remove(self->refill_source);
    self->refill_source = 0;
    fill_list(self);
    gtk_widget_add_tick_callback(GTK_WIDGET(self->list), scroll_to_selected, NULL, NULL);
    g_signal_emit(self, signals[SIGNAL_SPRITE_SELECTED], 0, (guint)self->selected);
  }
  if (failures->len) {
    tess_ui_report(GTK_WIDGET(self), failures->str);
    g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, failures->str);
  }
  g_string_free(failures, TRUE);
  return imported;
}

guint tess_sprite_panel_import(TessSpritePanel *self, GSList *files, GError **error) {
  if (!project(self)) return 0;
  TessSpriteImport *job = tess_sprite_import_new(files);
  tess_sprite_import_run(job, NULL);
  guint n = apply_import(self, job, error);
  tess_sprite_import_free(job);
  return n;
}

/* ---- Import on a worker ----------------------------------------------------------- */

static gboolean on_import_tick(gpointer user) {
  TessSpritePanel *self = user;
  set_import_state(self, TRUE, self->cancelling, tess_sprite_import_get_progress(self->import_job));
  return G_SOURCE_CONTINUE;
}

static void on_imported(GObject *source, GAsyncResult *result, gpointer data) {
  GTask *task = data;
  TessSpritePanel *self = g_task_get_source_object(task);
  g_clear_handle_id(&self->import_tick, g_source_remove);
  self->import_job = NULL;
  g_clear_object(&self->import_cancel);
  if (!self->disposed) set_import_state(self, FALSE, FALSE, 0);
  GError *error = NULL;
  TessSpriteImport *job = tess_sprite_import_run_finish(result, &error);
  guint n = 0;
  if (job && (self->disposed || !self->doc))
    g_set_error_literal(&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Import cancelled."));
  else if (job)
    n = apply_import(self, job, &error);
  tess_sprite_import_free(job);
  if (error && n == 0) g_task_return_error(task, error);
  else {
    g_clear_error(&error); /* the failures are shown in the panel, the count is the answer */
    g_task_return_int(task, n);
  }
  g_object_unref(task);
}

void tess_sprite_panel_import_async(TessSpritePanel *self, GSList *files, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data) {
  GTask *task = g_task_new(self, cancellable, callback, user_data);
  g_task_set_check_cancellable(task, FALSE);
  if (!project(self) || self->import_job) {
    g_task_return_new_error(task, TESS_DOCUMENT_ERROR, 0, "%s",
                            self->import_job ? _("An import is already running.") : _("No project is open."));
    g_object_unref(task);
    return;
  }
  TessSpriteImport *job = tess_sprite_import_new(files);
  self->import_cancel = cancellable ? g_object_ref(cancellable) : g_cancellable_new();
  self->import_job = job;
  set_import_state(self, TRUE, FALSE, 0);
  self->import_tick = g_timeout_add(50, on_import_tick, self);
  tess_sprite_import_run_async(job, self->import_cancel, on_imported, task);
}

guint tess_sprite_panel_import_finish(TessSpritePanel *self, GAsyncResult *result, GError **error) {
  g_return_val_if_fail(g_task_is_valid(result, self), 0);
  gssize n = g_task_propagate_int(G_TASK(result), error);
  return n > 0 ? (guint)n : 0;
}

gboolean tess_sprite_panel_is_importing(TessSpritePanel *self) { return self->import_job != NULL; }
double tess_sprite_panel_get_import_progress(TessSpritePanel *self) {
  return gtk_progress_bar_get_fraction(self->import_bar); /* as shown: the bar's, bound to "import-progress" */
}

void tess_sprite_panel_cancel_import(TessSpritePanel *self) {
  if (!self->import_cancel) return;
  g_cancellable_cancel(self->import_cancel);
  set_import_state(self, TRUE, TRUE, self->import_progress);
}

static void on_import_done(GObject *source, GAsyncResult *result, gpointer data) {
  TessSpritePanel *self = TESS_SPRITE_PANEL(source);
  g_autoptr(GError) error = NULL;
  if (tess_sprite_panel_import_finish(self, result, &error) == 0 && !self->disposed &&
      g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    tess_ui_notify(GTK_WIDGET(self), _("Import cancelled: the project is unchanged."), NULL, NULL);
}

static void on_import_cancel_clicked(GtkButton *b, TessSpritePanel *self) { tess_sprite_panel_cancel_import(self); }

static void on_chooser_response(GtkNativeDialog *native, int response, TessSpritePanel *self) {
  if (response == GTK_RESPONSE_ACCEPT) {
    GListModel *files = gtk_file_chooser_get_files(GTK_FILE_CHOOSER(native));
    GSList *list = NULL;
    for (guint i = g_list_model_get_n_items(files); i > 0; i--) list = g_slist_prepend(list, g_list_model_get_item(files, i - 1));
    tess_sprite_panel_import_async(self, list, NULL, on_import_done, NULL);
    g_slist_free_full(list, g_object_unref);
    g_object_unref(files);
  }
  g_object_unref(native);
  g_object_unref(self);
}

void tess_sprite_panel_choose_files(TessSpritePanel *self) {
  GtkRoot *root = gtk_widget_get_root(GTK_WIDGET(self));
  GtkFileChooserNative *native = gtk_file_chooser_native_new(_("Import Sprites"), GTK_IS_WINDOW(root) ? GTK_WINDOW(root) : NULL,
                                                             GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple(GTK_FILE_CHOOSER(native), TRUE);
  GtkFileFilter *filter = gtk_file_filter_new();
  gtk_file_filter_set_name(filter, _("PNG images"));
  gtk_file_filter_add_mime_type(filter, "image/png");
  gtk_file_filter_add_suffix(filter, "png");
  gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(native), filter);
  g_object_unref(filter);
  gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(native), TRUE);
  g_signal_connect(native, "response", G_CALLBACK(on_chooser_response), g_object_ref(self));
  gtk_native_dialog_show(GTK_NATIVE_DIALOG(native));
}

static void on_import_clicked(GtkButton *b, TessSpritePanel *self) { tess_sprite_panel_choose_files(self); }

static gboolean on_drop(GtkDropTarget *target, const GValue *value, double x, double y, TessSpritePanel *self) {
  if (!G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST) || !self->doc) return FALSE;
  GSList *files = gdk_file_list_get_files(g_value_get_boxed(value));
  gboolean any = files != NULL && !self->import_job;
  if (any) tess_sprite_panel_import_async(self, files, NULL, on_import_done, NULL);
  g_slist_free(files);
  return any;
}

GtkDropTarget *tess_sprite_panel_get_drop_target(TessSpritePanel *self) { return self->drop_target; }

/* ---- Mask editor and placing ----------------------------------------------------- */

GtkWindow *tess_sprite_panel_edit_mask(TessSpritePanel *self) {
  if (!self->doc || !self->selected) return NULL;
  GtkRoot *root = gtk_widget_get_root(GTK_WIDGET(self));
  GtkWindow *window = tess_mask_editor_window_new(GTK_IS_WINDOW(root) ? GTK_WINDOW(root) : NULL, self->doc, self->selected);
  gtk_window_present(window);
  return window;
}

static void on_edit_mask(GtkButton *b, TessSpritePanel *self) { tess_sprite_panel_edit_mask(self); }

/* A double-click (or Enter) on a sprite opens its collision mask. */
static void on_row_activated(GtkListBox *box, GtkListBoxRow *row, TessSpritePanel *self) {
  tess_sprite_panel_edit_mask(self);
}

static void on_place(GtkButton *b, TessSpritePanel *self) {
  update_template(self);
  if (self->has_template) g_signal_emit(self, signals[SIGNAL_PLACE_REQUESTED], 0);
}

static void on_body_choice(GObject *dd, GParamSpec *pspec, TessSpritePanel *self) {
  if (!self->loading) update_template(self);
}

/* ---- Class ------------------------------------------------------------------------ */

void tess_sprite_panel_set_document(TessSpritePanel *self, TessDocument *doc) {
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  if (doc) {
    self->doc = g_object_ref(doc);
    self->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_doc_changed), self);
  }
  set_selected(self, 0);
  self->merge = 0;
  g_clear_pointer(&self->signature, g_free);
  gtk_widget_set_sensitive(GTK_WIDGET(self), doc != NULL);
  fill_list(self);
}

static void tess_sprite_panel_dispose(GObject *object) {
  TessSpritePanel *self = TESS_SPRITE_PANEL(object);
  /* An import still running keeps this object alive (its task holds it) and is told to stop. */
  self->disposed = TRUE;
  if (self->import_cancel) g_cancellable_cancel(self->import_cancel);
  g_clear_handle_id(&self->import_tick, g_source_remove);
  if (self->refill_source) g_source_remove(self->refill_source);
  self->refill_source = 0;
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  if (self->has_template) tess_object_clear(&self->template_obj);
  self->has_template = FALSE;
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_SPRITE_PANEL);
  G_OBJECT_CLASS(tess_sprite_panel_parent_class)->dispose(object);
}

static void tess_sprite_panel_finalize(GObject *object) {
  g_array_unref(TESS_SPRITE_PANEL(object)->material_ids);
  g_free(TESS_SPRITE_PANEL(object)->signature);
  G_OBJECT_CLASS(tess_sprite_panel_parent_class)->finalize(object);
}

static void tess_sprite_panel_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  TessSpritePanel *self = TESS_SPRITE_PANEL(object);
  switch (id) {
    case PROP_SELECTED: g_value_set_uint(value, self->selected); break;
    case PROP_IMPORTING: g_value_set_boolean(value, self->importing); break;
    case PROP_CANCELLING: g_value_set_boolean(value, self->cancelling); break;
    case PROP_IMPORT_PROGRESS: g_value_set_double(value, self->import_progress); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_sprite_panel_class_init(TessSpritePanelClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  object_class->dispose = tess_sprite_panel_dispose;
  object_class->finalize = tess_sprite_panel_finalize;
  object_class->get_property = tess_sprite_panel_get_property;
  props[PROP_SELECTED] = g_param_spec_uint("selected", NULL, NULL, 0, G_MAXUINT, 0,
                                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_IMPORTING] = g_param_spec_boolean("importing", NULL, NULL, FALSE,
                                               G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_CANCELLING] = g_param_spec_boolean("cancelling", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_IMPORT_PROGRESS] = g_param_spec_double("import-progress", NULL, NULL, 0, 1, 0,
                                                    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(object_class, N_PROPS, props);
  signals[SIGNAL_SPRITE_SELECTED] = g_signal_new("sprite-selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_PLACE_REQUESTED] = g_signal_new("place-requested", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_TEMPLATE_CHANGED] = g_signal_new("template-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-sprite-panel.ui");
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, remove_button);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, import_bar);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, list);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, empty_label);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, settings);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, name);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, anchor_x);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, anchor_y);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, frames);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, fps);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, body_type);
  gtk_widget_class_bind_template_child(widget_class, TessSpritePanel, material);
  gtk_widget_class_bind_template_callback(widget_class, id_is_set);
  gtk_widget_class_bind_template_callback(widget_class, import_text);
  gtk_widget_class_bind_template_callback(widget_class, running_not_cancelled);
  /* Not kept in the struct (bindings drive them), but named for the tests. */
  gtk_widget_class_bind_template_child_full(widget_class, "import_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full(widget_class, "import_row", FALSE, 0);
  gtk_widget_class_bind_template_child_full(widget_class, "import_cancel_button", FALSE, 0);
  gtk_widget_class_bind_template_callback(widget_class, on_import_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_import_cancel_clicked);
  gtk_widget_class_bind_template_callback(widget_class, on_remove);
  gtk_widget_class_bind_template_callback(widget_class, on_row_selected);
  gtk_widget_class_bind_template_callback(widget_class, on_row_activated);
  gtk_widget_class_bind_template_callback(widget_class, on_name_activate);
  gtk_widget_class_bind_template_callback(widget_class, on_anchor_changed);
  gtk_widget_class_bind_template_callback(widget_class, on_centre_anchor);
  gtk_widget_class_bind_template_callback(widget_class, on_frames_changed);
  gtk_widget_class_bind_template_callback(widget_class, on_edit_mask);
  gtk_widget_class_bind_template_callback(widget_class, on_body_choice);
  gtk_widget_class_bind_template_callback(widget_class, on_place);
}

static void tess_sprite_panel_init(TessSpritePanel *self) {
  self->material_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  gtk_widget_init_template(GTK_WIDGET(self));
  /* A GdkContentFormats is not something a template can say. */
  self->drop_target = gtk_drop_target_new(GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect(self->drop_target, "drop", G_CALLBACK(on_drop), self);
  gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(self->drop_target));
  gtk_widget_set_sensitive(GTK_WIDGET(self), FALSE);
  load_settings(self);
}

GtkWidget *tess_sprite_panel_new(void) { return g_object_new(TESS_TYPE_SPRITE_PANEL, NULL); }
