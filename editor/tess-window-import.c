/* TessWindow's Tiled import (File → Import Tiled Map…, and .tmx/.tmj
 * dropped on the window): core/formats reads the map into a plan on a
 * GTask worker thread while a small window shows progress and offers
 * Cancel; the plan is then applied on the main thread in slices of a few
 * milliseconds (tess_map_apply_step), between frames, so a big map never
 * freezes the window; it is one undo step and is committed once at the
 * end. Reading never touches the project and Cancel during the apply rolls
 * every edit back before anything is written, so Cancel or a bad map leaves
 * the project file exactly as it was. */
#include "tess-window-private.h"

#include "tessera/formats.h"

typedef struct ImportJob {
  char *path;
  volatile int cancel; /* read by core on the worker */
  gint permille;       /* progress, written by the worker */
  gint held;           /* tests: the worker waits while set */
  TessMapImport *imp;
  TessError err;
  TessResult result;
  /* main thread only */
  TessWindow *window;  /* owned reference while the job lives */
  TessDocument *doc;   /* the document being imported into (owned reference during the apply) */
  TessMapApply *apply; /* the apply in progress */
  char *level_name;
  GtkWindow *dialog;
  GtkProgressBar *bar;
  GtkLabel *label;
  guint tick, slices;
} ImportJob;

/* How long one slice of the apply may hold the main loop: well under a frame at 60 Hz. */
#define APPLY_SLICE_US 6000
#define APPLY_SLICE_UNITS 4096

static void job_free(ImportJob *job) {
  if (job->apply) tess_map_apply_cancel(job->apply);
  g_clear_handle_id(&job->tick, g_source_remove);
  if (job->dialog) gtk_window_destroy(job->dialog);
  tess_map_import_destroy(job->imp);
  g_clear_object(&job->doc);
  g_clear_object(&job->window);
  g_free(job->level_name);
  g_free(job->path);
  g_free(job);
}

static void on_read_progress(double fraction, void *user) {
  g_atomic_int_set(&((ImportJob *)user)->permille, (gint)(fraction * 1000.0));
}

static void import_thread(GTask *task, gpointer source, gpointer data, GCancellable *cancellable) {
  ImportJob *job = data;
  while (g_atomic_int_get(&job->held) && !job->cancel) g_usleep(1000);
  TessMapReadOptions opt;
  tess_map_read_options_default(&opt);
  opt.cancel = &job->cancel;
  opt.progress = on_read_progress;
  opt.user = job;
  tess_error_clear(&job->err);
  job->result = job->cancel ? TESS_ERR_EMPTY : tess_map_read(job->path, &opt, &job->imp, &job->err);
  g_task_return_boolean(task, job->result == TESS_OK);
}

static gboolean on_tick(gpointer data) {
  ImportJob *job = data;
  gtk_progress_bar_set_fraction(job->bar, g_atomic_int_get(&job->permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void on_cancel_clicked(GtkButton *button, ImportJob *job) {
  job->cancel = 1; /* the worker stops reading; the apply, if it runs, is rolled back at its next slice */
  g_atomic_int_set(&job->held, 0);
  gtk_label_set_text(job->label, _("Cancelling…"));
  gtk_widget_set_sensitive(GTK_WIDGET(button), FALSE);
}

/* The map's name, or "name 2", "name 3"... when the project has it already. */
static char *free_level_name(TessProject *p, const char *name) {
  if (!tess_project_level_by_name(p, name)) return g_strdup(name);
  for (int i = 2;; i++) {
    char *n = g_strdup_printf("%.50s %d", name, i);
    if (!tess_project_level_by_name(p, n)) return n;
    g_free(n);
  }
}

static void report_failure(TessWindow *self, const char *display, TessResult r, const TessError *err) {
  g_autofree char *why = tess_document_describe_error(r, err);
  g_autofree char *primary = g_strdup_printf(_("Could not import “%s”"), display);
  _tess_window_remember_dialog(self, tess_ui_error_dialog(GTK_WINDOW(self), primary, why));
}

static void import_finished(TessWindow *self, ImportJob *job) {
  if (self->import_job == job) self->import_job = NULL;
  self->import_slices_last = job->slices;
  job_free(job);
}

static void applied(TessWindow *self, ImportJob *job) {
  g_autofree char *display = g_filename_display_basename(job->path);
  TessId level = tess_map_apply_finish(job->apply);
  job->apply = NULL;
  g_autoptr(GError) error = NULL;
  if (!tess_document_commit(job->doc, &error)) {
    tess_window_report(self, error->message);
    return;
  }
  if (self->doc == job->doc) tess_layers_panel_select_level(self->layers_panel, level);
  g_autofree char *msg = NULL;
  if (job->imp->warning_count)
    msg = g_strdup_printf(ngettext("Imported “%s” as level “%s”; %u thing could not be kept: %s",
                                   "Imported “%s” as level “%s”; %u things could not be kept, the first: %s",
                                   job->imp->warning_count),
                          display, job->level_name, job->imp->warning_count, job->imp->warnings[0]);
  else
    msg = g_strdup_printf(_("Imported “%s” as level “%s”."), display, job->level_name);
  tess_window_report(self, msg);
}

/* One slice of the apply: steps until the slice's time is up, then back to the main loop. */
static gboolean on_apply_slice(gpointer data) {
  ImportJob *job = data;
  TessWindow *self = job->window;
  g_autofree char *display = g_filename_display_basename(job->path);
  if (job->cancel || self->doc != job->doc) {
    tess_map_apply_cancel(job->apply);
    job->apply = NULL;
    g_autofree char *msg = g_strdup_printf(_("Import of “%s” cancelled: the project is unchanged."), display);
    tess_window_report(self, msg);
    job->tick = 0;
    import_finished(self, job);
    return G_SOURCE_REMOVE;
  }
  gint64 end = g_get_monotonic_time() + APPLY_SLICE_US;
  bool done = false;
  TessError err;
  tess_error_clear(&err);
  TessResult r = TESS_OK;
  do r = tess_map_apply_step(job->apply, APPLY_SLICE_UNITS, &done, &err);
  while (!r && !done && g_get_monotonic_time() < end);
  job->slices++;
  gtk_progress_bar_set_fraction(job->bar, tess_map_apply_fraction(job->apply));
  if (!r && !done) return G_SOURCE_CONTINUE;
  job->tick = 0;
  if (r) {
    tess_map_apply_cancel(job->apply); /* already rolled back by the failing step */
    job->apply = NULL;
    report_failure(self, display, r, &err);
  } else {
    applied(self, job);
  }
  import_finished(self, job);
  return G_SOURCE_REMOVE;
}

static void apply_import(TessWindow *self, ImportJob *job) {
  TessProject *p = _tess_window_project(self);
  g_autofree char *display = g_filename_display_basename(job->path);
  if (!p) {
    import_finished(self, job);
    return;
  }
  job->level_name = free_level_name(p, job->imp->settings.name);
  TessError err;
  tess_error_clear(&err);
  TessResult r = tess_map_apply_begin(p, job->imp, job->level_name, &job->apply, &err);
  if (r != TESS_OK) {
    report_failure(self, display, r, &err);
    import_finished(self, job);
    return;
  }
  job->doc = g_object_ref(self->doc);
  g_autofree char *text = g_strdup_printf(_("Adding “%s” to the project…"), display);
  if (!job->cancel) gtk_label_set_text(job->label, text);
  gtk_progress_bar_set_fraction(job->bar, 0);
  job->tick = g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, on_apply_slice, job, NULL);
}

static void on_import_done(GObject *source, GAsyncResult *result, gpointer data) {
  TessWindow *self = TESS_WINDOW(source);
  ImportJob *job = g_task_get_task_data(G_TASK(result));
  g_task_propagate_boolean(G_TASK(result), NULL);
  g_clear_handle_id(&job->tick, g_source_remove);
  self->import_task = NULL;
  g_autofree char *display = g_filename_display_basename(job->path);
  if (job->cancel) {
    g_autofree char *msg = g_strdup_printf(_("Import of “%s” cancelled: the project is unchanged."), display);
    tess_window_report(self, msg);
  } else if (job->result != TESS_OK) {
    report_failure(self, display, job->result, &job->err);
  } else {
    apply_import(self, job); /* the job lives on through the apply's slices */
    return;
  }
  import_finished(self, job);
}

static GtkWindow *progress_window(TessWindow *self, ImportJob *job, const char *display) {
  GtkWindow *win = GTK_WINDOW(gtk_window_new());
  gtk_window_set_title(win, _("Import Tiled Map"));
  gtk_window_set_transient_for(win, GTK_WINDOW(self));
  gtk_window_set_modal(win, TRUE);
  gtk_window_set_deletable(win, FALSE);
  gtk_window_set_default_size(win, 360, -1);
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top(box, 18);
  gtk_widget_set_margin_bottom(box, 18);
  gtk_widget_set_margin_start(box, 18);
  gtk_widget_set_margin_end(box, 18);
  g_autofree char *text = g_strdup_printf(_("Importing “%s”…"), display);
  job->label = GTK_LABEL(gtk_label_new(text));
  gtk_label_set_xalign(job->label, 0);
  job->bar = GTK_PROGRESS_BAR(gtk_progress_bar_new());
  GtkWidget *cancel = gtk_button_new_with_mnemonic(_("_Cancel"));
  gtk_widget_set_halign(cancel, GTK_ALIGN_END);
  g_signal_connect(cancel, "clicked", G_CALLBACK(on_cancel_clicked), job);
  gtk_box_append(GTK_BOX(box), GTK_WIDGET(job->label));
  gtk_box_append(GTK_BOX(box), GTK_WIDGET(job->bar));
  gtk_box_append(GTK_BOX(box), cancel);
  gtk_window_set_child(win, box);
  gtk_widget_set_name(cancel, "import-cancel");
  return win;
}

gboolean tess_window_import_map(TessWindow *self, const char *path) {
  g_return_val_if_fail(TESS_IS_WINDOW(self), FALSE);
  g_autofree char *display = g_filename_display_basename(path);
  if (!self->doc) {
    g_autofree char *msg = g_strdup_printf(_("Open or create a project before importing “%s”."), display);
    tess_window_report(self, msg);
    return FALSE;
  }
  if (self->import_task) {
    tess_window_report(self, _("An import is already running."));
    return FALSE;
  }
  if (self->import_job) {
    tess_window_report(self, _("An import is already running."));
    return FALSE;
  }
  ImportJob *job = g_new0(ImportJob, 1);
  job->window = g_object_ref(self);
  self->import_job = job;
  job->path = g_strdup(path);
  job->held = self->import_hold;
  job->dialog = progress_window(self, job, display);
  GTask *task = g_task_new(self, NULL, on_import_done, NULL);
  g_task_set_task_data(task, job, NULL); /* the job outlives the read: it is freed when the import is over */
  self->import_task = task;
  job->tick = g_timeout_add(50, on_tick, job);
  gtk_window_present(job->dialog);
  _tess_window_remember_dialog(self, GTK_WIDGET(job->dialog));
  g_task_run_in_thread(task, import_thread);
  g_object_unref(task);
  return TRUE;
}

/* Tests: hold the next import's worker before it reads (so Cancel can be pressed first), or release it. */
void tess_window_set_import_hold(TessWindow *self, gboolean hold) {
  self->import_hold = hold;
  if (!hold && self->import_job) g_atomic_int_set(&((ImportJob *)self->import_job)->held, 0);
}

gboolean tess_window_import_running(TessWindow *self) { return self->import_task != NULL || self->import_job != NULL; }

gboolean tess_window_import_applying(TessWindow *self) {
  return self->import_job != NULL && ((ImportJob *)self->import_job)->apply != NULL;
}

guint tess_window_import_slices(TessWindow *self) {
  return self->import_job ? ((ImportJob *)self->import_job)->slices : self->import_slices_last;
}

static void on_import_response(GtkNativeDialog *native, int response, TessWindow *self) {
  if (response == GTK_RESPONSE_ACCEPT) {
    g_autoptr(GFile) file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(native));
    g_autofree char *path = file ? g_file_get_path(file) : NULL;
    if (path) tess_window_import_map(self, path);
  }
  g_object_unref(native);
}

/* The chooser's filter comes from core's format table, as the CLI's --format does. */
void _tess_window_choose_import(TessWindow *self) {
  GtkFileChooserNative *native = gtk_file_chooser_native_new(_("Import Tiled Map"), GTK_WINDOW(self),
                                                             GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"), _("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new();
  gtk_file_filter_set_name(filter, _("Tiled maps"));
  for (size_t i = 0; i < tess_map_format_count(); i++) {
    const TessMapFormat *f = tess_map_format_at(i);
    if (!f->read) continue;
    for (const char *const *e = f->extensions; *e; e++) {
      g_autofree char *pattern = g_strdup_printf("*.%s", *e);
      gtk_file_filter_add_pattern(filter, pattern);
    }
  }
  gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(native), filter);
  g_object_unref(filter);
  g_signal_connect(native, "response", G_CALLBACK(on_import_response), self);
  gtk_native_dialog_show(GTK_NATIVE_DIALOG(native));
}
