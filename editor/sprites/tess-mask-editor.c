/* TessMaskEditor: a sprite's collision mask, edited (see tess-mask-editor.h). */
#include "tess-mask-editor.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tess-sprite-messages.h"
#include "tess-ui.h"
#include "tessera/image.h"
#include "tessera/mask.h"

/* The decoded sprite, reference-counted: a trace running on a worker
 * thread keeps it alive while the editor moves on to another sprite. */
typedef struct SharedImage {
  TessImage image;
} SharedImage;

static void shared_image_clear(gpointer data) { tess_image_clear(&((SharedImage *)data)->image); }
static void shared_image_unref(SharedImage *si) { g_atomic_rc_box_release_full(si, shared_image_clear); }

/* One trace on the worker: the mask's settings in, the traced mask out. */
typedef struct TraceJob {
  SharedImage *image;
  TessImageView frame;
  TessSpriteMask mask;
  TessMaskSecondMoments moments;
  gboolean has_moments;
  TessMaskTraceReport report;
  TessResult result;
  TessError err;
  guint generation;
} TraceJob;

static void trace_job_free(gpointer data) {
  TraceJob *job = data;
  tess_sprite_mask_clear(&job->mask);
  shared_image_unref(job->image);
  g_free(job);
}

struct _TessMaskEditor {
  GtkBox parent_instance;

  /* template widgets */
  TessMaskView *view;
  GtkDropDown *mode, *level, *material;
  GtkScale *threshold;
  GtkSpinButton *max_vertices, *tolerance;
  GtkCheckButton *largest;
  GtkCheckButton *show_hull, *show_simplified, *show_shape, *show_centroid, *show_axes;
  GtkLabel *readout_area, *readout_vertices, *readout_added, *readout_uncovered, *readout_centroid, *readout_inertia,
      *readout_shape, *readout_axes, *readout_mass, *readout_inertia_si;
  GtkLabel *readouts[TESS_MASK_READOUT_COUNT]; /* the same labels, by TessMaskReadout */

  /* owned */
  char *message;      /* "message": shown under the readouts while set (a binding in the template) */
  gboolean traceable; /* "traceable": a frame is decoded; the trace controls' sensitivity is bound to it */
  TessDocument *doc;
  gulong changed_handler;
  TessId sprite;
  TessSprite work; /* the sprite as edited; owned deep copy */
  gboolean has_work;
  SharedImage *image;  /* the decoded PNG (all frames); shared with a trace worker */
  TessImageView frame; /* the first frame, in `image` */
  TessMaskSecondMoments moments;
  gboolean has_moments;
  uint8_t moments_threshold;
  TessMaskTraceReport report;       /* of the last trace: whether the pieces were simplified to the budget */
  GArray *level_ids, *material_ids; /* TessId, parallel to the dropdowns */

  uint32_t merge;
  gint64 merge_time;
  gconstpointer merge_source;
  gboolean vertex_drag, anchor_drag;
  gboolean slider_held; /* the pointer holds the threshold slider: one undo step until release */
  guint commit_source, reload_source;
  gboolean reload_sprite, reload_lists;
  gboolean applying, loading;

  /* Traces of big sprites run on a worker; only the newest request counts. */
  guint64 async_pixels; /* frames of at least this many pixels trace on the worker */
  guint generation;     /* bumped by each request and each reload */
  gboolean trace_running, trace_pending;
  gconstpointer pending_source;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE(TessMaskEditor, tess_mask_editor, GTK_TYPE_BOX)

enum { PROP_0,
       PROP_TRACEABLE,
       PROP_MESSAGE,
       N_PROPS };
static GParamSpec *props[N_PROPS];

/* The template's closures. */
static gboolean text_is_set(gpointer unused, const char *text) { return text && *text; }
/* The view's effective scale, as the zoom bar says it. */
static char *zoom_text(gpointer unused, double zoom) { return g_strdup_printf("%.0f%%", zoom * 100.0); }
/* The tolerance and "largest island only" shape convex pieces only. */
static gboolean pieces_settings_apply(gpointer unused, gboolean traceable, guint mode) {
  return traceable && mode == TESS_MASK_PIECES;
}

static void set_traceable(TessMaskEditor *self, gboolean traceable) {
  if (self->traceable == traceable) return;
  self->traceable = traceable;
  g_object_notify_by_pspec(G_OBJECT(self), props[PROP_TRACEABLE]);
}

static TessProject *project(TessMaskEditor *self) { return self->doc ? tess_document_get_project(self->doc) : NULL; }

/* ---- Loading --------------------------------------------------------------- */

static void clear_work(TessMaskEditor *self) {
  if (self->has_work) tess_sprite_clear(&self->work);
  self->has_work = FALSE;
  g_clear_pointer(&self->image, shared_image_unref);
  memset(&self->frame, 0, sizeof self->frame);
  self->has_moments = FALSE;
  memset(&self->report, 0, sizeof self->report);
}

static void update_moments(TessMaskEditor *self) {
  self->has_moments = self->frame.pixels && tess_mask_pixel_moments(self->frame, self->work.mask.threshold, &self->moments, NULL) == TESS_OK;
  self->moments_threshold = self->work.mask.threshold;
}

/* The editor has a window of its own, with no message bar: a refusal is
 * said here, above the controls, until the next edit succeeds. */
static void show_message(TessMaskEditor *self, const char *text) {
  if (g_strcmp0(self->message, text && *text ? text : NULL) == 0) return;
  g_free(self->message);
  self->message = text && *text ? g_strdup(text) : NULL;
  g_object_notify_by_pspec(G_OBJECT(self), props[PROP_MESSAGE]);
}

static void set_readout(TessMaskEditor *self, TessMaskReadout which, char *text) {
  gtk_label_set_text(self->readouts[which], text ? text : "—");
  g_free(text);
}

static gboolean selected_ppm_density(TessMaskEditor *self, double *ppm, double *density) {
  TessProject *p = project(self);
  guint li = gtk_drop_down_get_selected(self->level), mi = gtk_drop_down_get_selected(self->material);
  if (!p || li >= self->level_ids->len || mi >= self->material_ids->len) return FALSE;
  const TessLevel *level = tess_project_level(p, g_array_index(self->level_ids, TessId, li));
  const TessMaterial *m = tess_project_material(p, g_array_index(self->material_ids, TessId, mi));
  if (!level || !m) return FALSE;
  *ppm = level->settings.ppm;
  *density = m->density;
  return TRUE;
}

void tess_mask_editor_get_si(TessMaskEditor *self, double *mass_kg, double *inertia_kgm2) {
  double ppm, density;
  *mass_kg = *inertia_kgm2 = NAN;
  if (!self->has_work || self->work.mask.hull_count == 0 || !selected_ppm_density(self, &ppm, &density)) return;
  /* A placed body's default: the shape from the mask, the mass from the pixels. */
  *mass_kg = tess_mask_mass_kg(self->work.mask.area, ppm, density);
  *inertia_kgm2 = tess_mask_inertia_kgm2(self->work.mask.inertia, ppm, density);
}

static uint32_t shape_vertex_count(const TessSpriteMask *m) {
  if (m->mode == TESS_MASK_HULL) return m->hull_count;
  uint32_t n = 0;
  for (uint32_t i = 0; i < m->piece_count; i++) n += m->pieces[i].count;
  return n;
}

static void update_readouts(TessMaskEditor *self) {
  const TessSpriteMask *m = self->has_work ? &self->work.mask : NULL;
  if (!m || m->hull_count == 0) {
    for (int i = 0; i < TESS_MASK_READOUT_COUNT; i++) set_readout(self, i, NULL);
    return;
  }
  set_readout(self, TESS_MASK_READOUT_AREA, g_strdup_printf(_("%.0f px²"), m->area));
  if (m->mode == TESS_MASK_CIRCLE)
    set_readout(self, TESS_MASK_READOUT_VERTICES, g_strdup_printf(_("circle, radius %.2f px"), m->circle_radius));
  else if (m->mode == TESS_MASK_HULL)
    set_readout(self, TESS_MASK_READOUT_VERTICES, g_strdup_printf(_("%u (exact hull)"), m->hull_count));
  else if (m->mode == TESS_MASK_PIECES && self->report.simplified)
    /* Over core/mask's work budget: the pieces follow blocks, not pixels. */
    set_readout(self, TESS_MASK_READOUT_VERTICES,
                g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u in %u piece, simplified: traced on %u×%u px blocks",
                                            "%u in %u pieces, simplified: traced on %u×%u px blocks", m->piece_count),
                                shape_vertex_count(m), m->piece_count, self->report.block, self->report.block));
  else
    set_readout(self, TESS_MASK_READOUT_VERTICES,
                g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u in %u piece", "%u in %u pieces", m->piece_count),
                                shape_vertex_count(m), m->piece_count));
  set_readout(self, TESS_MASK_READOUT_ADDED, g_strdup_printf(_("%.1f px²"), m->added_area));
  set_readout(self, TESS_MASK_READOUT_UNCOVERED,
              g_strdup_printf(_("%.1f px² (%.2f%%)"), m->uncovered_area,
                              m->area > 0 ? 100.0 * m->uncovered_area / m->area : 0.0));
  set_readout(self, TESS_MASK_READOUT_CENTROID, g_strdup_printf(_("%.2f, %.2f px"), m->centroid_x, m->centroid_y));
  set_readout(self, TESS_MASK_READOUT_INERTIA, g_strdup_printf(_("%.6g px⁴"), m->inertia));
  set_readout(self, TESS_MASK_READOUT_SHAPE,
              g_strdup_printf(_("%.1f px², centroid %.2f, %.2f, inertia %.6g px⁴"), m->shape_area, m->shape_centroid_x,
                              m->shape_centroid_y, m->shape_inertia));
  if (self->has_moments) {
    double angle = self->moments.angle, major = self->moments.major, minor = self->moments.minor;
    set_readout(self, TESS_MASK_READOUT_AXES,
                g_strdup_printf(_("%.1f°; %.6g and %.6g px⁴"), angle * 180.0 / M_PI, major, minor));
  } else {
    set_readout(self, TESS_MASK_READOUT_AXES, NULL);
  }
  double kg, kgm2;
  tess_mask_editor_get_si(self, &kg, &kgm2);
  set_readout(self, TESS_MASK_READOUT_MASS, isnan(kg) ? NULL : g_strdup_printf(_("%.6g kg"), kg));
  set_readout(self, TESS_MASK_READOUT_INERTIA_SI, isnan(kgm2) ? NULL : g_strdup_printf(_("%.6g kg·m²"), kgm2));
}

/* What the view shows: the mask, the moments, and the simplified hull for
 * comparison (in simplified mode it is the shape itself). */
static void update_view(TessMaskEditor *self) {
  const TessSpriteMask *m = self->has_work ? &self->work.mask : NULL;
  if (!m || m->hull_count < 3) {
    tess_mask_view_set_mask(self->view, m, self->has_moments ? &self->moments : NULL, NULL, 0);
    return;
  }
  TessDVec2 *hull = g_new(TessDVec2, m->hull_count);
  TessDVec2 *simple = g_new(TessDVec2, m->hull_count + 3);
  for (uint32_t i = 0; i < m->hull_count; i++) hull[i] = tess_d2(m->hull[i].x, m->hull[i].y);
  if (tess_poly_signed_area(hull, m->hull_count) < 0)
    for (uint32_t i = 0; i < m->hull_count / 2; i++) {
      TessDVec2 t = hull[i];
      hull[i] = hull[m->hull_count - 1 - i];
      hull[m->hull_count - 1 - i] = t;
    }
  uint32_t n = 0;
  double added = 0;
  if (tess_mask_simplify_hull(hull, m->hull_count, m->max_vertices, simple, &n, &added, NULL) != TESS_OK) n = 0;
  tess_mask_view_set_mask(self->view, m, self->has_moments ? &self->moments : NULL, simple, n);
  tess_mask_view_set_editable(self->view, m->mode != TESS_MASK_HULL && m->mode != TESS_MASK_CIRCLE && m->piece_count > 0);
  g_free(hull);
  g_free(simple);
}

static void sync_controls(TessMaskEditor *self) {
  self->loading = TRUE;
  gboolean have = self->has_work;
  const TessSpriteMask *m = &self->work.mask;
  if (have) {
    gtk_drop_down_set_selected(self->mode, m->mode);
    gtk_range_set_value(GTK_RANGE(self->threshold), m->threshold);
    gtk_spin_button_set_value(self->max_vertices, m->max_vertices);
    gtk_spin_button_set_value(self->tolerance, m->tolerance);
    gtk_check_button_set_active(self->largest, m->largest_island_only != 0);
  }
  self->loading = FALSE;
}

static void load_sprite(TessMaskEditor *self) {
  self->generation++; /* a trace still running belongs to what was loaded before */
  self->trace_pending = FALSE;
  clear_work(self);
  self->merge = 0;
  self->vertex_drag = self->anchor_drag = FALSE;
  TessProject *p = project(self);
  const TessSprite *sp = p && self->sprite ? tess_project_sprite(p, self->sprite) : NULL;
  show_message(self, NULL);
  if (sp && tess_sprite_copy(&self->work, sp) == TESS_OK) {
    self->has_work = TRUE;
    TessError err = {0};
    TessImage decoded;
    if (tess_png_decode(sp->png, sp->png_size, sp->name, &decoded, &err) == TESS_OK) {
      self->image = g_atomic_rc_box_new0(SharedImage);
      self->image->image = decoded;
      uint32_t frames = sp->frame_count ? sp->frame_count : 1;
      self->frame = tess_image_view(&decoded);
      self->frame.width = decoded.width / frames ? decoded.width / frames : decoded.width;
    } else {
      g_autofree char *msg = tess_sprite_message_image(sp, TESS_ERR_FORMAT, &err);
      show_message(self, msg);
    }
  }
  update_moments(self);
  tess_mask_view_set_frame(self->view, self->frame);
  tess_mask_view_set_anchor(self->view, self->has_work, self->work.anchor.x, self->work.anchor.y);
  sync_controls(self);
  update_view(self);
  update_readouts(self);
  set_traceable(self, self->image != NULL);
}

static void fill_lists(TessMaskEditor *self);

static gboolean reload_idle(gpointer user) {
  TessMaskEditor *self = user;
  self->reload_source = 0;
  if (self->reload_lists) fill_lists(self);
  if (self->reload_sprite) load_sprite(self);
  else update_readouts(self); /* a level's ppm or a material's density */
  self->reload_lists = self->reload_sprite = FALSE;
  return G_SOURCE_REMOVE;
}

static void fill_lists(TessMaskEditor *self) {
  TessProject *p = project(self);
  guint old_level = gtk_drop_down_get_selected(self->level), old_material = gtk_drop_down_get_selected(self->material);
  TessId level_id = old_level < self->level_ids->len ? g_array_index(self->level_ids, TessId, old_level) : 0;
  TessId material_id = old_material < self->material_ids->len ? g_array_index(self->material_ids, TessId, old_material) : 0;
  GtkStringList *levels = gtk_string_list_new(NULL), *materials = gtk_string_list_new(NULL);
  g_array_set_size(self->level_ids, 0);
  g_array_set_size(self->material_ids, 0);
  guint level_sel = 0, material_sel = 0;
  for (uint32_t i = 0; p && i < p->level_count; i++) {
    g_autofree char *label = g_strdup_printf(_("%s (%g px/m)"), p->levels[i]->settings.name, p->levels[i]->settings.ppm);
    gtk_string_list_append(levels, label);
    if (p->levels[i]->id == level_id) level_sel = i;
    g_array_append_val(self->level_ids, p->levels[i]->id);
  }
  for (uint32_t i = 0; p && i < p->material_count; i++) {
    g_autofree char *label = g_strdup_printf(_("%s (%g kg/m²)"), p->materials[i].name, p->materials[i].density);
    gtk_string_list_append(materials, label);
    if (p->materials[i].id == material_id) material_sel = i;
    g_array_append_val(self->material_ids, p->materials[i].id);
  }
  self->loading = TRUE;
  gtk_drop_down_set_model(self->level, G_LIST_MODEL(levels));
  gtk_drop_down_set_model(self->material, G_LIST_MODEL(materials));
  gtk_drop_down_set_selected(self->level, level_sel);
  gtk_drop_down_set_selected(self->material, material_sel);
  self->loading = FALSE;
  g_object_unref(levels);
  g_object_unref(materials);
}

static void on_doc_changed(TessDocument *doc, gpointer change_ptr, TessMaskEditor *self) {
  const TessChange *change = change_ptr;
  if (self->applying) return;
  /* An undo, redo or another panel's edit: read it back once the edit is done. */
  if (change->kind == TESS_CHANGE_SPRITE && change->id == self->sprite) self->reload_sprite = TRUE;
  else if (change->kind == TESS_CHANGE_MATERIAL || change->kind == TESS_CHANGE_LEVEL) self->reload_lists = TRUE;
  else return;
  if (!self->reload_source) self->reload_source = g_idle_add(reload_idle, self);
}

/* ---- Applying edits --------------------------------------------------------- */

static gboolean commit_now(gpointer user) {
  TessMaskEditor *self = user;
  self->commit_source = 0;
  if (!self->doc) return G_SOURCE_REMOVE;
  g_autoptr(GError) error = NULL;
  if (!tess_document_commit(self->doc, &error)) show_message(self, error->message);
  return G_SOURCE_REMOVE;
}

void tess_mask_editor_flush(TessMaskEditor *self) {
  if (self->commit_source) {
    g_source_remove(self->commit_source);
    commit_now(self);
  }
}

static void schedule_commit(TessMaskEditor *self, gboolean now) {
  if (self->commit_source) g_source_remove(self->commit_source);
  self->commit_source = 0;
  if (now) commit_now(self);
  else self->commit_source = g_timeout_add(TESS_MASK_EDITOR_COMMIT_MS, commit_now, self);
}

/* Puts `work` into the project. Changes from one control less than
 * TESS_MASK_EDITOR_MERGE_MS apart (a slider drag) share one undo step. */
static void apply(TessMaskEditor *self, gconstpointer source, gboolean fresh_step, gboolean commit_at_once) {
  TessProject *p = project(self);
  if (!p || !self->has_work) return;
  gint64 now = g_get_monotonic_time();
  gboolean held = self->slider_held && source == (gconstpointer)self->threshold && source == self->merge_source;
  if (fresh_step || self->merge == 0 || source != self->merge_source ||
      (!held && now - self->merge_time > (gint64)TESS_MASK_EDITOR_MERGE_MS * 1000))
    self->merge = tess_project_new_merge_key(p);
  self->merge_source = source;
  self->merge_time = now;
  TessError err = {0};
  self->applying = TRUE;
  TessResult r = tess_edit_sprite_set(p, &self->work, self->merge, &err);
  self->applying = FALSE;
  if (r != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_edit(self->work.name, r, &err);
    show_message(self, msg);
    return;
  }
  show_message(self, NULL);
  update_view(self);
  update_readouts(self);
  schedule_commit(self, commit_at_once);
}

/* Traces `work` with its settings; on failure (no opaque pixel at this
 * threshold) says so and leaves the project as it was. */
static gboolean retrace(TessMaskEditor *self) {
  if (!self->has_work || !self->frame.pixels) return FALSE;
  if (self->moments_threshold != self->work.mask.threshold || !self->has_moments) update_moments(self);
  TessError err = {0};
  TessResult r = tess_sprite_mask_trace_report(self->frame, &self->work.mask, &self->report, &err);
  if (r != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_trace(self->work.name, self->work.mask.threshold, r, &err);
    show_message(self, msg);
    update_readouts(self);
    return FALSE;
  }
  return TRUE;
}

static void read_controls(TessMaskEditor *self) {
  TessSpriteMask *m = &self->work.mask;
  m->mode = (uint8_t)gtk_drop_down_get_selected(self->mode);
  m->threshold = (uint8_t)CLAMP(lround(gtk_range_get_value(GTK_RANGE(self->threshold))), 1, 255);
  m->max_vertices = (uint32_t)gtk_spin_button_get_value_as_int(self->max_vertices);
  m->tolerance = (float)gtk_spin_button_get_value(self->tolerance);
  m->largest_island_only = gtk_check_button_get_active(self->largest);
}

static void trace_thread(GTask *task, gpointer source, gpointer data, GCancellable *cancellable) {
  TraceJob *job = data;
  job->result = tess_sprite_mask_trace_report(job->frame, &job->mask, &job->report, &job->err);
  job->has_moments = job->result == TESS_OK && tess_mask_pixel_moments(job->frame, job->mask.threshold, &job->moments, NULL) == TESS_OK;
  g_task_return_boolean(task, TRUE);
}

static void start_trace(TessMaskEditor *self);

static void trace_done(GObject *source, GAsyncResult *res, gpointer user) {
  TessMaskEditor *self = TESS_MASK_EDITOR(source);
  TraceJob *job = g_task_get_task_data(G_TASK(res));
  self->trace_running = FALSE;
  if (g_cancellable_is_cancelled(self->cancellable)) return; /* disposed */
  if (job->generation == self->generation && self->has_work) {
    if (job->result == TESS_OK) {
      /* The worker traced a copy of `work`'s mask: take its geometry. */
      TessSpriteMask traced = job->mask;
      memset(&job->mask, 0, sizeof job->mask);
      tess_sprite_mask_clear(&self->work.mask);
      self->work.mask = traced;
      self->moments = job->moments;
      self->has_moments = job->has_moments;
      self->moments_threshold = traced.threshold;
      self->report = job->report;
      apply(self, self->pending_source, FALSE, FALSE);
    } else {
      g_autofree char *msg = tess_sprite_message_trace(self->work.name, job->mask.threshold, job->result, &job->err);
      show_message(self, msg);
      update_readouts(self);
    }
  }
  if (self->trace_pending) start_trace(self); /* a newer value came meanwhile: stale results were dropped */
}

static void start_trace(TessMaskEditor *self) {
  self->trace_pending = FALSE;
  if (!self->has_work || !self->image) return;
  TraceJob *job = g_new0(TraceJob, 1);
  if (tess_sprite_mask_copy(&job->mask, &self->work.mask) != TESS_OK) {
    g_free(job);
    return;
  }
  job->image = g_atomic_rc_box_acquire(self->image);
  job->frame = self->frame;
  job->generation = self->generation;
  self->trace_running = TRUE;
  GTask *task = g_task_new(self, self->cancellable, trace_done, NULL);
  g_task_set_task_data(task, job, trace_job_free);
  g_task_run_in_thread(task, trace_thread);
  g_object_unref(task);
}

/* Traces `work` with its settings and applies it: at once for ordinary
 * sprites; on the worker for big ones, the view keeping the last result
 * until the newest request's trace is back. */
static void request_trace(TessMaskEditor *self, gconstpointer source) {
  guint64 pixels = (guint64)self->frame.width * self->frame.height;
  if (!self->image || pixels < self->async_pixels) {
    if (retrace(self)) apply(self, source, FALSE, FALSE);
    else update_view(self);
    return;
  }
  self->generation++;
  self->pending_source = source;
  if (self->trace_running) self->trace_pending = TRUE;
  else start_trace(self);
}

static void on_setting_changed(GObject *control, GParamSpec *pspec, TessMaskEditor *self) {
  if (self->loading || !self->has_work) return;
  read_controls(self);
  request_trace(self, control);
}

/* The slider's own gesture claims the pointer, so its press and release
 * are seen here in the capture phase, without taking them. */
static gboolean on_slider_event(GtkEventControllerLegacy *c, GdkEvent *event, TessMaskEditor *self) {
  GdkEventType type = gdk_event_get_event_type(event);
  if (type == GDK_BUTTON_PRESS || type == GDK_TOUCH_BEGIN) {
    self->slider_held = TRUE;
    self->merge = 0; /* a fresh step for this drag */
  } else if ((type == GDK_BUTTON_RELEASE || type == GDK_TOUCH_END || type == GDK_TOUCH_CANCEL) && self->slider_held) {
    self->slider_held = FALSE;
    self->merge_time = g_get_monotonic_time();
    tess_mask_editor_flush(self);
  }
  return FALSE;
}

static void on_threshold_changed(GtkRange *range, TessMaskEditor *self) { on_setting_changed(G_OBJECT(range), NULL, self); }
static void on_spin_changed(GtkSpinButton *spin, TessMaskEditor *self) { on_setting_changed(G_OBJECT(spin), NULL, self); }

static void fit(TessMaskEditor *self, GtkButton *button, TessMaskMode mode) {
  if (gtk_drop_down_get_selected(self->mode) != (guint)mode) gtk_drop_down_set_selected(self->mode, mode);
  else on_setting_changed(G_OBJECT(button), NULL, self);
}

static void on_fit_circle(GtkButton *button, TessMaskEditor *self) { fit(self, button, TESS_MASK_CIRCLE); }
static void on_fit_box(GtkButton *button, TessMaskEditor *self) { fit(self, button, TESS_MASK_BOX); }

static void on_retrace(GtkButton *button, TessMaskEditor *self) {
  if (!self->has_work) return;
  read_controls(self);
  if (retrace(self)) apply(self, button, TRUE, TRUE);
}

static void on_vertex_moved(TessMaskView *view, guint piece, guint vertex, double x, double y, gboolean final,
                            TessMaskEditor *self) {
  gboolean first = !self->vertex_drag;
  self->vertex_drag = !final;
  if (!tess_mask_shape_move_vertex(&self->work.mask, piece, vertex, (float)x, (float)y)) return;
  tess_mask_shape_update(&self->work.mask, self->frame);
  apply(self, view, first, final);
}

static void on_vertex_inserted(TessMaskView *view, guint piece, guint after, double x, double y, TessMaskEditor *self) {
  if (!tess_mask_shape_insert_vertex(&self->work.mask, piece, after, (float)x, (float)y)) {
    g_autofree char *msg = tess_sprite_message_vertex_limit(self->work.name, TRUE, TESS_POLY_MAX);
    show_message(self, msg);
    return;
  }
  tess_mask_shape_update(&self->work.mask, self->frame);
  apply(self, view, TRUE, TRUE);
}

static void on_vertex_removed(TessMaskView *view, guint piece, guint vertex, TessMaskEditor *self) {
  if (!tess_mask_shape_remove_vertex(&self->work.mask, piece, vertex)) {
    g_autofree char *msg = tess_sprite_message_vertex_limit(self->work.name, FALSE, 3);
    show_message(self, msg);
    return;
  }
  tess_mask_shape_update(&self->work.mask, self->frame);
  apply(self, view, TRUE, TRUE);
}

static void on_anchor_moved(TessMaskView *view, double x, double y, gboolean final, TessMaskEditor *self) {
  if (!self->has_work) return;
  gboolean first = !self->anchor_drag;
  self->anchor_drag = !final;
  self->work.anchor = tess_v2((float)x, (float)y);
  apply(self, &self->work.anchor, first, final);
}

static void on_si_choice(GObject *dd, GParamSpec *pspec, TessMaskEditor *self) {
  if (!self->loading) update_readouts(self);
}

static void on_overlay_toggled(GtkCheckButton *check, TessMaskEditor *self) {
  GtkCheckButton *checks[] = {self->show_hull, self->show_simplified, self->show_shape, self->show_centroid,
                              self->show_axes};
  guint flags = 0;
  for (guint i = 0; i < G_N_ELEMENTS(checks); i++)
    if (checks[i] && gtk_check_button_get_active(checks[i])) flags |= 1u << i;
  tess_mask_view_set_overlays(self->view, flags);
}

static void on_zoom_out(GtkButton *button, TessMaskEditor *self) {
  tess_mask_view_set_zoom(self->view, tess_mask_view_get_zoom(self->view) * 0.8);
}
static void on_zoom_in(GtkButton *button, TessMaskEditor *self) {
  tess_mask_view_set_zoom(self->view, tess_mask_view_get_zoom(self->view) * 1.25);
}
static void on_zoom_fit(GtkButton *button, TessMaskEditor *self) { tess_mask_view_set_zoom(self->view, 0); }

/* ---- Public ----------------------------------------------------------------- */

void tess_mask_editor_set_document(TessMaskEditor *self, TessDocument *doc) {
  if (self->doc == doc) return;
  tess_mask_editor_flush(self);
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  if (doc) {
    self->doc = g_object_ref(doc);
    self->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_doc_changed), self);
  }
  self->sprite = 0;
  fill_lists(self);
  load_sprite(self);
}

void tess_mask_editor_set_sprite(TessMaskEditor *self, TessId sprite) {
  tess_mask_editor_flush(self);
  self->sprite = sprite;
  fill_lists(self);
  load_sprite(self);
}

TessId tess_mask_editor_get_sprite(TessMaskEditor *self) { return self->sprite; }
void tess_mask_editor_set_async_pixels(TessMaskEditor *self, guint64 pixels) { self->async_pixels = pixels; }
gboolean tess_mask_editor_is_tracing(TessMaskEditor *self) { return self->trace_running || self->trace_pending; }
TessMaskView *tess_mask_editor_get_view(TessMaskEditor *self) { return self->view; }
GtkRange *tess_mask_editor_get_threshold(TessMaskEditor *self) { return GTK_RANGE(self->threshold); }
GtkSpinButton *tess_mask_editor_get_max_vertices(TessMaskEditor *self) { return self->max_vertices; }
GtkSpinButton *tess_mask_editor_get_tolerance(TessMaskEditor *self) { return self->tolerance; }
GtkDropDown *tess_mask_editor_get_mode(TessMaskEditor *self) { return self->mode; }
GtkDropDown *tess_mask_editor_get_level(TessMaskEditor *self) { return self->level; }
GtkDropDown *tess_mask_editor_get_material(TessMaskEditor *self) { return self->material; }
const char *tess_mask_editor_get_readout(TessMaskEditor *self, TessMaskReadout which) {
  return gtk_label_get_text(self->readouts[which]);
}
const TessSpriteMask *tess_mask_editor_get_mask(TessMaskEditor *self) {
  return self->has_work ? &self->work.mask : NULL;
}

/* ---- Construction ----------------------------------------------------------- */

static void tess_mask_editor_dispose(GObject *object) {
  TessMaskEditor *self = TESS_MASK_EDITOR(object);
  g_cancellable_cancel(self->cancellable);
  self->trace_pending = FALSE;
  tess_mask_editor_flush(self);
  if (self->reload_source) g_source_remove(self->reload_source);
  self->reload_source = 0;
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  if (self->view) tess_mask_view_set_mask(self->view, NULL, NULL, NULL, 0);
  clear_work(self);
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_MASK_EDITOR);
  G_OBJECT_CLASS(tess_mask_editor_parent_class)->dispose(object);
}

static void tess_mask_editor_finalize(GObject *object) {
  TessMaskEditor *self = TESS_MASK_EDITOR(object);
  g_clear_object(&self->cancellable);
  g_array_unref(self->level_ids);
  g_array_unref(self->material_ids);
  g_free(self->message);
  G_OBJECT_CLASS(tess_mask_editor_parent_class)->finalize(object);
}

static void tess_mask_editor_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  TessMaskEditor *self = TESS_MASK_EDITOR(object);
  switch (id) {
    case PROP_TRACEABLE: g_value_set_boolean(value, self->traceable); break;
    case PROP_MESSAGE: g_value_set_string(value, self->message); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_mask_editor_class_init(TessMaskEditorClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  object_class->dispose = tess_mask_editor_dispose;
  object_class->finalize = tess_mask_editor_finalize;
  object_class->get_property = tess_mask_editor_get_property;
  props[PROP_TRACEABLE] = g_param_spec_boolean("traceable", NULL, NULL, FALSE,
                                               G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_MESSAGE] =
      g_param_spec_string("message", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(object_class, N_PROPS, props);

  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  g_type_ensure(TESS_TYPE_MASK_VIEW);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-mask-editor.ui");
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, view);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, mode);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, threshold);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, max_vertices);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, tolerance);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, largest);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, show_hull);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, show_simplified);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, show_shape);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, show_centroid);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, show_axes);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_area);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_vertices);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_added);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_uncovered);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_centroid);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_inertia);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_shape);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_axes);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_mass);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, readout_inertia_si);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, level);
  gtk_widget_class_bind_template_child(widget_class, TessMaskEditor, material);
  /* Not kept in the struct (bindings drive them), but named for the tests. */
  gtk_widget_class_bind_template_child_full(widget_class, "trace_buttons", FALSE, 0);
  gtk_widget_class_bind_template_child_full(widget_class, "message", FALSE, 0);
  gtk_widget_class_bind_template_child_full(widget_class, "zoom_label", FALSE, 0);
  gtk_widget_class_bind_template_callback(widget_class, text_is_set);
  gtk_widget_class_bind_template_callback(widget_class, pieces_settings_apply);
  gtk_widget_class_bind_template_callback(widget_class, on_vertex_moved);
  gtk_widget_class_bind_template_callback(widget_class, on_vertex_inserted);
  gtk_widget_class_bind_template_callback(widget_class, on_vertex_removed);
  gtk_widget_class_bind_template_callback(widget_class, on_anchor_moved);
  gtk_widget_class_bind_template_callback(widget_class, zoom_text);
  gtk_widget_class_bind_template_callback(widget_class, on_zoom_out);
  gtk_widget_class_bind_template_callback(widget_class, on_zoom_in);
  gtk_widget_class_bind_template_callback(widget_class, on_zoom_fit);
  gtk_widget_class_bind_template_callback(widget_class, on_setting_changed);
  gtk_widget_class_bind_template_callback(widget_class, on_threshold_changed);
  gtk_widget_class_bind_template_callback(widget_class, on_slider_event);
  gtk_widget_class_bind_template_callback(widget_class, on_spin_changed);
  gtk_widget_class_bind_template_callback(widget_class, on_fit_circle);
  gtk_widget_class_bind_template_callback(widget_class, on_fit_box);
  gtk_widget_class_bind_template_callback(widget_class, on_retrace);
  gtk_widget_class_bind_template_callback(widget_class, on_overlay_toggled);
  gtk_widget_class_bind_template_callback(widget_class, on_si_choice);
}

static void tess_mask_editor_init(TessMaskEditor *self) {
  self->async_pixels = TESS_MASK_EDITOR_ASYNC_PIXELS;
  self->cancellable = g_cancellable_new();
  self->level_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  self->material_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  self->loading = TRUE; /* the template's own values are not edits */
  gtk_widget_init_template(GTK_WIDGET(self));
  self->loading = FALSE;
  gtk_adjustment_set_upper(gtk_spin_button_get_adjustment(self->max_vertices), TESS_POLY_MAX);
  GtkLabel *readouts[TESS_MASK_READOUT_COUNT] = {
      [TESS_MASK_READOUT_AREA] = self->readout_area,
      [TESS_MASK_READOUT_VERTICES] = self->readout_vertices,
      [TESS_MASK_READOUT_ADDED] = self->readout_added,
      [TESS_MASK_READOUT_UNCOVERED] = self->readout_uncovered,
      [TESS_MASK_READOUT_CENTROID] = self->readout_centroid,
      [TESS_MASK_READOUT_INERTIA] = self->readout_inertia,
      [TESS_MASK_READOUT_SHAPE] = self->readout_shape,
      [TESS_MASK_READOUT_AXES] = self->readout_axes,
      [TESS_MASK_READOUT_MASS] = self->readout_mass,
      [TESS_MASK_READOUT_INERTIA_SI] = self->readout_inertia_si,
  };
  memcpy(self->readouts, readouts, sizeof readouts);
  update_readouts(self);
}

GtkWidget *tess_mask_editor_new(void) { return g_object_new(TESS_TYPE_MASK_EDITOR, NULL); }

static gboolean on_window_close(GtkWindow *window, TessMaskEditor *editor) {
  tess_mask_editor_flush(editor);
  return FALSE;
}

/* The editor's own window has no application actions: undo and redo here
 * act on the document directly, as the main window's would. */
static gboolean on_undo_key(GtkWidget *window, GVariant *args, gpointer user) {
  TessMaskEditor *editor = TESS_MASK_EDITOR(gtk_window_get_child(GTK_WINDOW(window)));
  gboolean redo = g_variant_get_boolean(args);
  if (!editor->doc) return TRUE;
  tess_mask_editor_flush(editor);
  TessProject *p = tess_document_get_project(editor->doc);
  g_autoptr(GError) error = NULL;
  if (redo ? tess_project_can_redo(p) : tess_project_can_undo(p)) {
    if (!(redo ? tess_document_redo(editor->doc, &error) : tess_document_undo(editor->doc, &error)))
      show_message(editor, error->message);
  }
  return TRUE;
}

GtkWindow *tess_mask_editor_window_new(GtkWindow *parent, TessDocument *doc, TessId sprite) {
  GtkWindow *window = GTK_WINDOW(gtk_window_new());
  TessProject *p = tess_document_get_project(doc);
  const TessSprite *sp = tess_project_sprite(p, sprite);
  g_autofree char *title = g_strdup_printf(_("Collision Mask — %s"), sp ? sp->name : "");
  gtk_window_set_title(window, title);
  gtk_window_set_default_size(window, 1000, 660);
  if (parent) {
    gtk_window_set_transient_for(window, parent);
    gtk_window_set_destroy_with_parent(window, TRUE);
  }
  GtkWidget *editor = tess_mask_editor_new();
  tess_mask_editor_set_document(TESS_MASK_EDITOR(editor), doc);
  tess_mask_editor_set_sprite(TESS_MASK_EDITOR(editor), sprite);
  gtk_window_set_child(window, editor);
  g_signal_connect(window, "close-request", G_CALLBACK(on_window_close), editor);
  GtkShortcutController *keys = GTK_SHORTCUT_CONTROLLER(gtk_shortcut_controller_new());
  gtk_shortcut_controller_set_scope(keys, GTK_SHORTCUT_SCOPE_GLOBAL);
  tess_ui_add_shortcut(keys, "<Control>z", on_undo_key, g_variant_new_boolean(FALSE));
  tess_ui_add_shortcut(keys, "<Control><Shift>z", on_undo_key, g_variant_new_boolean(TRUE));
  tess_ui_add_shortcut(keys, "<Control>y", on_undo_key, g_variant_new_boolean(TRUE));
  tess_ui_add_close_keys(keys);
  gtk_widget_add_controller(GTK_WIDGET(window), GTK_EVENT_CONTROLLER(keys));
  return window;
}
