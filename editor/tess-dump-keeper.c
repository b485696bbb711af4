/* TessDumpKeeper: the text dump beside the project, written after edits settle. */
#include "tess-dump-keeper.h"

#include <glib/gi18n.h>

#include "tessera/store.h"
#include "tessera/textform.h"

/* One dump: what the worker needs, copied, so it shares nothing with the UI thread. */
typedef struct {
  TessDumpKeeper *keeper; /* a strong reference, dropped by job_done */
  char *path, *dir;
  TessResult result;
  TessError err;
  gboolean handled; /* tess_dump_keeper_finish took the result already */
} DumpJob;

struct _TessDumpKeeper {
  GObject parent_instance;

  /* owned */
  TessDocument *doc;
  GThread *thread; /* the dump being written, or NULL */
  DumpJob *job;    /* its job (freed by job_done) */

  gulong committed_handler, setting_handler;
  guint settle_source;
  guint settle_ms;
  gboolean again; /* a commit came while the dump was being written */
  gboolean stopped;
  guint written;
};

G_DEFINE_TYPE(TessDumpKeeper, tess_dump_keeper, G_TYPE_OBJECT)

enum { SIGNAL_WRITTEN,
       SIGNAL_FAILED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

static void start_dump(TessDumpKeeper *self);

/* The worker: its own read-only connection, its own copy of the project. */
static void run_job(DumpJob *job) {
  TessStore *store = NULL;
  TessProject *project = NULL;
  job->result = tess_store_open(job->path, TESS_STORE_READ_ONLY, &store, &job->err);
  if (job->result == TESS_OK) job->result = tess_store_load(store, &project, &job->err);
  if (job->result == TESS_OK) job->result = tess_text_dump(project, job->dir, &job->err);
  if (project) tess_project_destroy(project);
  if (store) tess_store_close(store);
  if (job->result != TESS_OK && job->err.file[0] == '\0') g_strlcpy(job->err.file, job->dir, sizeof job->err.file);
}

static void job_free(DumpJob *job) {
  g_free(job->path);
  g_free(job->dir);
  g_free(job);
}

static void take_result(TessDumpKeeper *self, DumpJob *job) {
  job->handled = TRUE;
  if (job->result == TESS_OK) {
    self->written++;
    g_signal_emit(self, signals[SIGNAL_WRITTEN], 0);
    return;
  }
  g_autofree char *why = tess_document_describe_error(job->result, &job->err);
  g_autofree char *dir = g_filename_display_name(job->dir);
  g_autofree char *msg = g_strdup_printf(_("The text dump “%s” was not written: %s"), dir, why);
  g_signal_emit(self, signals[SIGNAL_FAILED], 0, msg);
}

/* Back on the UI thread once the worker is done. */
static gboolean job_done(gpointer user) {
  DumpJob *job = user;
  TessDumpKeeper *self = job->keeper;
  if (!job->handled) {
    g_thread_join(self->thread); /* it has returned already */
    self->thread = NULL;
    self->job = NULL;
    take_result(self, job);
    if (self->again && !self->stopped) {
      self->again = FALSE;
      start_dump(self);
    }
  }
  job_free(job);
  g_object_unref(self);
  return G_SOURCE_REMOVE;
}

static gpointer worker(gpointer user) {
  DumpJob *job = user;
  run_job(job);
  g_idle_add(job_done, job);
  return NULL;
}

static void start_dump(TessDumpKeeper *self) {
  if (self->thread) {
    self->again = TRUE; /* the dump under way may predate the last commit */
    return;
  }
  if (tess_document_get_unsaved(self->doc)) return; /* the file is not the project any more */
  DumpJob *job = g_new0(DumpJob, 1);
  job->keeper = g_object_ref(self);
  job->path = g_strdup(tess_document_get_path(self->doc));
  job->dir = tess_document_dup_dump_dir(self->doc);
  self->job = job;
  self->thread = g_thread_new("tess-dump", worker, job);
}

static gboolean settled(gpointer user) {
  TessDumpKeeper *self = user;
  self->settle_source = 0;
  start_dump(self);
  return G_SOURCE_REMOVE;
}

static void schedule(TessDumpKeeper *self) {
  if (self->stopped || !tess_document_get_keep_dump(self->doc)) return;
  g_clear_handle_id(&self->settle_source, g_source_remove);
  self->settle_source = g_timeout_add(self->settle_ms, settled, self);
}

static void on_committed(TessDocument *doc, TessDumpKeeper *self) { schedule(self); }

/* Turned on: write the dump once now that the project is as it is; off: drop a pending one. */
static void on_setting(TessDocument *doc, GParamSpec *pspec, TessDumpKeeper *self) {
  if (tess_document_get_keep_dump(doc)) schedule(self);
  else g_clear_handle_id(&self->settle_source, g_source_remove);
}

void tess_dump_keeper_finish(TessDumpKeeper *self) {
  g_return_if_fail(TESS_IS_DUMP_KEEPER(self));
  if (self->stopped) return;
  self->stopped = TRUE;
  gboolean pending = self->settle_source != 0 || self->again;
  g_clear_handle_id(&self->settle_source, g_source_remove);
  if (self->thread) {
    g_thread_join(self->thread);
    self->thread = NULL;
    take_result(self, self->job); /* job_done frees it later */
    self->job = NULL;
  }
  if (pending && tess_document_get_keep_dump(self->doc) && !tess_document_get_unsaved(self->doc)) {
    DumpJob job = {.path = g_strdup(tess_document_get_path(self->doc)), .dir = tess_document_dup_dump_dir(self->doc)};
    run_job(&job);
    take_result(self, &job);
    g_free(job.path);
    g_free(job.dir);
  }
  g_clear_signal_handler(&self->committed_handler, self->doc);
  g_clear_signal_handler(&self->setting_handler, self->doc);
}

static void tess_dump_keeper_dispose(GObject *object) {
  TessDumpKeeper *self = TESS_DUMP_KEEPER(object);
  /* A running job holds a reference, so no thread is left here. */
  if (self->doc) {
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_signal_handler(&self->setting_handler, self->doc);
  }
  g_clear_handle_id(&self->settle_source, g_source_remove);
  g_clear_object(&self->doc);
  G_OBJECT_CLASS(tess_dump_keeper_parent_class)->dispose(object);
}

static void tess_dump_keeper_class_init(TessDumpKeeperClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = tess_dump_keeper_dispose;
  signals[SIGNAL_WRITTEN] =
      g_signal_new("written", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_FAILED] = g_signal_new("failed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void tess_dump_keeper_init(TessDumpKeeper *self) { self->settle_ms = TESS_DUMP_KEEPER_SETTLE_MS; }

TessDumpKeeper *tess_dump_keeper_new(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), NULL);
  TessDumpKeeper *self = g_object_new(TESS_TYPE_DUMP_KEEPER, NULL);
  self->doc = g_object_ref(doc);
  self->committed_handler = g_signal_connect(doc, "committed", G_CALLBACK(on_committed), self);
  self->setting_handler = g_signal_connect(doc, "notify::keep-dump", G_CALLBACK(on_setting), self);
  return self;
}

void tess_dump_keeper_set_settle_ms(TessDumpKeeper *self, guint ms) {
  g_return_if_fail(TESS_IS_DUMP_KEEPER(self));
  self->settle_ms = ms;
}

guint tess_dump_keeper_get_written(TessDumpKeeper *self) {
  g_return_val_if_fail(TESS_IS_DUMP_KEEPER(self), 0);
  return self->written;
}

gboolean tess_dump_keeper_get_busy(TessDumpKeeper *self) {
  g_return_val_if_fail(TESS_IS_DUMP_KEEPER(self), FALSE);
  return self->settle_source != 0 || self->thread != NULL || self->again;
}
