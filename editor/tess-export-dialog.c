/* TessExportDialog (see the header for the threading). */
#include "tess-export-dialog.h"

#include <glib/gi18n.h>

#include "tessera/formats.h"
#include "tessera/pack.h"
#include "tessera/store.h"

struct _TessExportDialog {
  GtkWindow parent_instance;

  /* template widgets */
  GtkWidget *options, *folder_button, *format, *jobs, *force, *level_list, *cancel_button, *export_button;
  GtkLabel *folder_label, *message;
  GtkProgressBar *progress;

  /* owned */
  TessDocument *doc;
  char *folder;
  GArray *level_ids;         /* TessId per row of level_list */
  GPtrArray *checks;         /* GtkCheckButton per row */
  GPtrArray *formats;        /* format name per row of the format list: "tlv", then core's writable map formats */
  GCancellable *cancellable; /* the running export's, NULL when idle */
  gboolean disposed;
  gboolean hold_for_test; /* see tess_export_dialog_hold_for_test() */
};

G_DEFINE_FINAL_TYPE(TessExportDialog, tess_export_dialog, GTK_TYPE_WINDOW)

enum { SIGNAL_FINISHED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- The worker -------------------------------------------------------------------- */

typedef struct Work {
  char *project_path, *dir;
  const TessExportWriter *writer; /* NULL: .tlv */
  GArray *level_ids;
  guint jobs;
  gboolean force;
  gboolean held; /* wait for the cancel before exporting (tests) */
  GCancellable *cancellable;
  TessExportDialog *dialog; /* borrowed: alive until on_export_done, which holds a reference */
  /* progress last posted (worker side) */
  size_t posted_done;
  const void *posted_current;
  /* results */
  size_t total, exported, up_to_date, failed, cancelled;
  char *error; /* the first failure, or the whole export's */
} Work;

static void work_free(gpointer data) {
  Work *w = data;
  g_free(w->project_path);
  g_free(w->dir);
  g_array_unref(w->level_ids);
  g_clear_object(&w->cancellable);
  g_free(w->error);
  g_free(w);
}

typedef struct ProgressNote {
  TessExportDialog *dialog;
  size_t done, total;
  char *current;
} ProgressNote;

static void progress_note_free(gpointer data) {
  ProgressNote *n = data;
  g_object_unref(n->dialog);
  g_free(n->current);
  g_free(n);
}

static void show_progress(TessExportDialog *self, size_t done, size_t total, const char *current) {
  gtk_progress_bar_set_fraction(self->progress, total ? (double)done / (double)total : 1.0);
  g_autofree char *text = current && *current
                              ? g_strdup_printf(_("%zu / %zu levels — %s"), done, total, current)
                              : g_strdup_printf(_("%zu / %zu levels"), done, total);
  gtk_progress_bar_set_text(self->progress, text);
}

static gboolean progress_on_main(gpointer data) {
  ProgressNote *n = data;
  if (!n->dialog->disposed && n->dialog->cancellable) show_progress(n->dialog, n->done, n->total, n->current);
  return G_SOURCE_REMOVE;
}

/* Called on the worker with the export's state locked: post only changes. */
static void on_export_progress(void *user, const TessExport *ex) {
  Work *w = user;
  const TessExportJob *cur = tess_export_current(ex);
  size_t done = tess_export_done(ex);
  if (done == w->posted_done && (const void *)cur == w->posted_current) return;
  w->posted_done = done;
  w->posted_current = cur;
  ProgressNote *n = g_new0(ProgressNote, 1);
  n->dialog = g_object_ref(w->dialog);
  n->done = done;
  n->total = tess_export_job_count(ex);
  n->current = cur ? g_strdup(cur->level->settings.name) : NULL;
  /* An idle source, never g_main_context_invoke: that would run the
   * callback right here on the worker whenever the main context happens
   * to be free to acquire. */
  g_idle_add_full(G_PRIORITY_DEFAULT, progress_on_main, n, progress_note_free);
}

static bool export_cancelled(void *user) {
  Work *w = user;
  return g_cancellable_is_cancelled(w->cancellable);
}

static void export_thread(GTask *task, gpointer source, gpointer data, GCancellable *cancellable) {
  Work *w = data;
  TessStore *store = NULL;
  TessProject *project = NULL;
  TessExport *ex = NULL;
  TessError err;
  char msg[1400];
  tess_error_clear(&err);
  /* Our own read-only connection: the editor's TessProject stays on its thread. */
  TessResult r = tess_store_open(w->project_path, TESS_STORE_READ_ONLY, &store, &err);
  if (r == TESS_OK) r = tess_store_load(store, &project, &err);
  if (store) tess_store_close(store);
  while (w->held && !g_cancellable_is_cancelled(w->cancellable)) g_usleep(1000);
  if (r == TESS_OK) {
    TessExportSpec spec;
    memset(&spec, 0, sizeof spec);
    tess_pack_options_default(&spec.options);
    spec.dir = w->dir;
    spec.levels = (const TessId *)(void *)w->level_ids->data;
    spec.level_count = w->level_ids->len;
    spec.jobs = w->jobs;
    spec.force = w->force != FALSE;
    spec.writer = w->writer;
    spec.progress = on_export_progress;
    spec.cancelled = export_cancelled;
    spec.user = w;
    r = tess_export_create(project, &spec, &ex, &err);
  }
  if (r == TESS_OK) {
    r = tess_export_run(ex, &err);
    w->total = tess_export_job_count(ex);
    for (size_t i = 0; i < w->total; i++) {
      const TessExportJob *job = tess_export_job(ex, i);
      w->exported += job->state == TESS_EXPORT_EXPORTED;
      w->up_to_date += job->state == TESS_EXPORT_UP_TO_DATE;
      w->cancelled += job->state == TESS_EXPORT_CANCELLED;
      if (job->state == TESS_EXPORT_FAILED) {
        w->failed++;
        if (!w->error) w->error = g_strdup_printf("%s: %s", job->level->settings.name, job->error);
      }
    }
  }
  if (r != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    g_free(w->error);
    w->error = g_strdup(msg);
  }
  tess_export_destroy(ex);
  tess_project_destroy(project);
  g_task_return_boolean(task, r == TESS_OK && w->failed == 0);
}

/* ---- The dialog ---------------------------------------------------------------------- */

static void set_running(TessExportDialog *self, gboolean running) {
  gtk_widget_set_sensitive(self->options, !running);
  gtk_widget_set_sensitive(self->level_list, !running);
  gtk_widget_set_sensitive(self->export_button, !running);
  gtk_button_set_label(GTK_BUTTON(self->cancel_button), running ? _("_Cancel") : _("_Close"));
}

/* On the main thread. The task has no source object and its data holds no
 * widget: whichever thread drops the task last, the dialog's references
 * are all dropped here and in the progress notes' idle callbacks. */
static void on_export_done(GObject *source, GAsyncResult *result, gpointer data) {
  TessExportDialog *self = data;
  Work *w = g_task_get_task_data(G_TASK(result));
  gboolean ok = g_task_propagate_boolean(G_TASK(result), NULL);
  gboolean cancelled = w->cancelled > 0;
  g_clear_object(&self->cancellable);
  if (!self->disposed) {
    set_running(self, FALSE);
    size_t done = w->exported + w->up_to_date + w->failed;
    show_progress(self, done, w->total, NULL);
    g_autofree char *summary = NULL;
    if (w->error && w->total == 0)
      summary = g_strdup_printf(_("The export failed: %s"), w->error);
    else if (cancelled)
      summary = g_strdup_printf(_("Cancelled: %zu exported, %zu up to date, %zu not started."), w->exported,
                                w->up_to_date, w->cancelled);
    else if (w->error)
      summary = g_strdup_printf(_("%zu exported, %zu up to date, %zu failed. %s"), w->exported, w->up_to_date,
                                w->failed, w->error);
    else
      summary = g_strdup_printf(_("%zu exported, %zu up to date."), w->exported, w->up_to_date);
    gtk_label_set_text(self->message, summary);
  }
  g_signal_emit(self, signals[SIGNAL_FINISHED], 0, ok, cancelled);
  g_object_unref(self);
}

gboolean tess_export_dialog_start(TessExportDialog *self) {
  g_return_val_if_fail(TESS_IS_EXPORT_DIALOG(self), FALSE);
  if (self->cancellable) return FALSE;
  if (!self->folder) {
    gtk_label_set_text(self->message, _("Choose the folder the levels go to."));
    return FALSE;
  }
  GArray *ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  for (guint i = 0; i < self->checks->len; i++)
    if (gtk_check_button_get_active(g_ptr_array_index(self->checks, i)))
      g_array_append_val(ids, g_array_index(self->level_ids, TessId, i));
  if (ids->len == 0) {
    g_array_unref(ids);
    gtk_label_set_text(self->message, _("Choose at least one level."));
    return FALSE;
  }
  Work *w = g_new0(Work, 1);
  w->project_path = g_strdup(tess_document_get_path(self->doc));
  w->dir = g_strdup(self->folder);
  w->level_ids = ids;
  gtk_spin_button_update(GTK_SPIN_BUTTON(self->jobs));
  w->jobs = (guint)gtk_spin_button_get_value_as_int(GTK_SPIN_BUTTON(self->jobs));
  w->writer = tess_tiled_export_writer_by_name(tess_export_dialog_get_format(self)); /* NULL for "tlv" */
  w->force = gtk_check_button_get_active(GTK_CHECK_BUTTON(self->force));
  w->held = self->hold_for_test;
  self->cancellable = g_cancellable_new();
  w->cancellable = g_object_ref(self->cancellable);
  w->dialog = self;
  w->posted_done = (size_t)-1;
  gtk_label_set_text(self->message, tess_document_get_unsaved(self->doc)
                                        ? _("Some changes could not be saved: the levels are exported as the project file has them.")
                                        : "");
  show_progress(self, 0, ids->len, NULL);
  set_running(self, TRUE);
  GTask *task = g_task_new(NULL, NULL, on_export_done, g_object_ref(self));
  g_task_set_task_data(task, w, work_free);
  g_task_run_in_thread(task, export_thread);
  g_object_unref(task);
  return TRUE;
}

void tess_export_dialog_cancel(TessExportDialog *self) {
  g_return_if_fail(TESS_IS_EXPORT_DIALOG(self));
  if (self->cancellable) g_cancellable_cancel(self->cancellable);
}

void tess_export_dialog_hold_for_test(TessExportDialog *self, gboolean hold) {
  g_return_if_fail(TESS_IS_EXPORT_DIALOG(self));
  self->hold_for_test = hold;
}

gboolean tess_export_dialog_is_running(TessExportDialog *self) { return self->cancellable != NULL; }

static void on_export(TessExportDialog *self) { tess_export_dialog_start(self); }

static void on_cancel(TessExportDialog *self) {
  if (self->cancellable) {
    gtk_label_set_text(self->message, _("Cancelling after the levels being written…"));
    tess_export_dialog_cancel(self);
  } else {
    gtk_window_destroy(GTK_WINDOW(self));
  }
}

/* Closing the window while it exports cancels the export (the files being
 * written are finished; nothing partial is left). */
static gboolean on_close_request(GtkWindow *window) {
  tess_export_dialog_cancel(TESS_EXPORT_DIALOG(window));
  return FALSE;
}

void tess_export_dialog_set_folder(TessExportDialog *self, const char *path) {
  g_return_if_fail(TESS_IS_EXPORT_DIALOG(self));
  g_free(self->folder);
  self->folder = g_strdup(path);
  gtk_label_set_text(self->folder_label, path ? path : _("Choose a folder…"));
  /* The request for a folder is answered: it must not stay under the chosen one. */
  if (path && g_strcmp0(gtk_label_get_text(self->message), _("Choose the folder the levels go to.")) == 0)
    gtk_label_set_text(self->message, "");
}

const char *tess_export_dialog_get_folder(TessExportDialog *self) { return self->folder; }

static void on_folder_response(GtkNativeDialog *native, int response, gpointer data) {
  TessExportDialog *self = data;
  if (response == GTK_RESPONSE_ACCEPT && !self->disposed) {
    g_autoptr(GFile) file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(native));
    g_autofree char *path = file ? g_file_get_path(file) : NULL;
    if (path) tess_export_dialog_set_folder(self, path);
  }
  g_object_unref(native);
  g_object_unref(self);
}

static void on_choose_folder(TessExportDialog *self) {
  GtkFileChooserNative *native = gtk_file_chooser_native_new(_("Export To"), GTK_WINDOW(self),
                                                             GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Select"),
                                                             _("_Cancel"));
  if (self->folder) {
    g_autoptr(GFile) folder = g_file_new_for_path(self->folder);
    gtk_file_chooser_set_file(GTK_FILE_CHOOSER(native), folder, NULL);
  }
  g_signal_connect(native, "response", G_CALLBACK(on_folder_response), g_object_ref(self));
  gtk_native_dialog_show(GTK_NATIVE_DIALOG(native));
}

/* The list shows "Packed levels (.tlv)" and then every map format core can
 * write, by its description (the same table as the CLI's --format). */
static void fill_formats(TessExportDialog *self) {
  GtkStringList *list = gtk_string_list_new(NULL);
  gtk_string_list_append(list, _("Packed levels (.tlv)"));
  g_ptr_array_add(self->formats, g_strdup("tlv"));
  for (size_t i = 0; i < tess_map_format_count(); i++) {
    const TessMapFormat *f = tess_map_format_at(i);
    if (!f->write || !tess_tiled_export_writer_by_name(f->name)) continue;
    g_autofree char *label = g_strdup_printf("%s (.%s)", _(f->description), f->name);
    gtk_string_list_append(list, label);
    g_ptr_array_add(self->formats, g_strdup(f->name));
  }
  gtk_drop_down_set_model(GTK_DROP_DOWN(self->format), G_LIST_MODEL(list));
  g_object_unref(list);
}

gboolean tess_export_dialog_set_format(TessExportDialog *self, const char *name) {
  g_return_val_if_fail(TESS_IS_EXPORT_DIALOG(self), FALSE);
  for (guint i = 0; i < self->formats->len; i++)
    if (g_strcmp0(g_ptr_array_index(self->formats, i), name) == 0) {
      gtk_drop_down_set_selected(GTK_DROP_DOWN(self->format), i);
      return TRUE;
    }
  return FALSE;
}

const char *tess_export_dialog_get_format(TessExportDialog *self) {
  guint i = gtk_drop_down_get_selected(GTK_DROP_DOWN(self->format));
  return i < self->formats->len ? g_ptr_array_index(self->formats, i) : "tlv";
}

guint tess_export_dialog_get_level_count(TessExportDialog *self) { return self->checks->len; }

void tess_export_dialog_set_level_selected(TessExportDialog *self, guint index, gboolean selected) {
  g_return_if_fail(index < self->checks->len);
  gtk_check_button_set_active(g_ptr_array_index(self->checks, index), selected);
}

void tess_export_dialog_set_jobs(TessExportDialog *self, guint jobs) {
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->jobs), jobs);
}

guint tess_export_dialog_get_jobs(TessExportDialog *self) {
  return (guint)gtk_spin_button_get_value_as_int(GTK_SPIN_BUTTON(self->jobs));
}

void tess_export_dialog_set_force(TessExportDialog *self, gboolean force) {
  gtk_check_button_set_active(GTK_CHECK_BUTTON(self->force), force);
}

double tess_export_dialog_get_fraction(TessExportDialog *self) { return gtk_progress_bar_get_fraction(self->progress); }

const char *tess_export_dialog_get_progress_text(TessExportDialog *self) {
  const char *t = gtk_progress_bar_get_text(self->progress);
  return t ? t : "";
}

const char *tess_export_dialog_get_message(TessExportDialog *self) { return gtk_label_get_text(self->message); }

static void tess_export_dialog_dispose(GObject *object) {
  TessExportDialog *self = TESS_EXPORT_DIALOG(object);
  self->disposed = TRUE;
  if (self->cancellable) g_cancellable_cancel(self->cancellable);
  g_clear_object(&self->doc);
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_EXPORT_DIALOG);
  G_OBJECT_CLASS(tess_export_dialog_parent_class)->dispose(object);
}

static void tess_export_dialog_finalize(GObject *object) {
  TessExportDialog *self = TESS_EXPORT_DIALOG(object);
  g_free(self->folder);
  g_array_unref(self->level_ids);
  g_ptr_array_unref(self->checks);
  g_ptr_array_unref(self->formats);
  G_OBJECT_CLASS(tess_export_dialog_parent_class)->finalize(object);
}

static void tess_export_dialog_class_init(TessExportDialogClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  object_class->dispose = tess_export_dialog_dispose;
  object_class->finalize = tess_export_dialog_finalize;
  GTK_WINDOW_CLASS(klass)->close_request = on_close_request;
  signals[SIGNAL_FINISHED] = g_signal_new("finished", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_BOOLEAN);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-export-dialog.ui");
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, options);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, folder_button);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, folder_label);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, format);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, jobs);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, force);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, level_list);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, progress);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, message);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, cancel_button);
  gtk_widget_class_bind_template_child(widget_class, TessExportDialog, export_button);
  gtk_widget_class_bind_template_callback(widget_class, on_choose_folder);
  gtk_widget_class_bind_template_callback(widget_class, on_export);
  gtk_widget_class_bind_template_callback(widget_class, on_cancel);
}

static void tess_export_dialog_init(TessExportDialog *self) {
  gtk_widget_init_template(GTK_WIDGET(self));
  self->level_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  self->checks = g_ptr_array_new();
  self->formats = g_ptr_array_new_with_free_func(g_free);
  fill_formats(self);
}

GtkWidget *tess_export_dialog_new(GtkWindow *parent, TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), NULL);
  TessExportDialog *self = g_object_new(TESS_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
  self->doc = g_object_ref(doc);
  TessProject *p = tess_document_get_project(doc);
  for (uint32_t i = 0; i < p->level_count; i++) {
    GtkWidget *check = gtk_check_button_new_with_label(p->levels[i]->settings.name);
    gtk_check_button_set_active(GTK_CHECK_BUTTON(check), TRUE);
    gtk_widget_set_margin_start(check, 6);
    gtk_list_box_append(GTK_LIST_BOX(self->level_list), check);
    g_array_append_val(self->level_ids, p->levels[i]->id);
    g_ptr_array_add(self->checks, check);
  }
  guint cores = g_get_num_processors();
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->jobs), cores ? cores : 1);
  set_running(self, FALSE);
  show_progress(self, 0, p->level_count, NULL);
  return GTK_WIDGET(self);
}
