/* TessTilesetTrace (see tess-tileset-trace.h). */
#include "tess-tileset-trace.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tess-document.h"
#include "tess-sprite-messages.h"

struct TessTilesetTrace {
  TessTileset tileset; /* a copy; its tiles receive the trace */
  TessImage pixels;    /* a copy of the decoded PNG */
  TessMaskSettings settings;
  volatile int cancel; /* read by core between tiles */
  gint permille;       /* written by the worker, read by the main thread */
  gint held;           /* tests: the worker waits mid-trace while set */
  GCancellable *cancellable;
};

TessTilesetTrace *tess_tileset_trace_new(const TessTileset *ts, const TessImage *pixels, const TessMaskSettings *s) {
  TessTilesetTrace *job = g_new0(TessTilesetTrace, 1);
  TessError err = {0};
  if (tess_tileset_copy(&job->tileset, ts) != TESS_OK) {
    g_free(job);
    return NULL;
  }
  if (tess_image_create(pixels->width, pixels->height, &job->pixels, &err) != TESS_OK) {
    tess_tileset_clear(&job->tileset);
    g_free(job);
    return NULL;
  }
  for (uint32_t y = 0; y < pixels->height; y++)
    memcpy(job->pixels.pixels + (size_t)y * job->pixels.stride, pixels->pixels + (size_t)y * pixels->stride,
           (size_t)pixels->width * 4);
  job->settings = *s;
  return job;
}

void tess_tileset_trace_free(TessTilesetTrace *job) {
  if (!job) return;
  tess_tileset_clear(&job->tileset);
  tess_image_clear(&job->pixels);
  g_clear_object(&job->cancellable);
  g_free(job);
}

static gboolean cancelled(TessTilesetTrace *job) {
  return job->cancellable && g_cancellable_is_cancelled(job->cancellable);
}

/* Called by core every few tiles: posts the fraction, and turns a
 * cancelled GCancellable into the flag core reads. A held job waits here,
 * part-way through, until released or cancelled: tests see the trace in
 * progress for as long as they need, whatever the machine's load. */
static void on_progress(double fraction, void *user) {
  TessTilesetTrace *job = user;
  g_atomic_int_set(&job->permille, (gint)(fraction * 1000.0));
  if (fraction > 0 && fraction < 1)
    while (g_atomic_int_get(&job->held) && !cancelled(job)) g_usleep(1000);
  if (cancelled(job)) job->cancel = 1;
}

void tess_tileset_trace_set_held(TessTilesetTrace *job, gboolean held) { g_atomic_int_set(&job->held, held != 0); }

TessResult tess_tileset_trace_run(TessTilesetTrace *job, TessError *err) {
  TessMaskWatch watch = {&job->cancel, on_progress, job};
  if (job->cancellable && g_cancellable_is_cancelled(job->cancellable)) job->cancel = 1;
  TessTileset *ts = &job->tileset;
  return tess_mask_trace_tiles_watched(tess_image_view(&job->pixels), ts->tile_w, ts->tile_h, ts->margin, ts->spacing,
                                       &job->settings, ts->tiles, ts->tile_count, NULL, &watch, err);
}

/* The task's data: the job, until _finish takes it (a task that is never
 * finished still frees it). */
typedef struct Holder {
  TessTilesetTrace *job;
} Holder;

static void holder_free(gpointer data) {
  Holder *h = data;
  tess_tileset_trace_free(h->job);
  g_free(h);
}

static void trace_thread(GTask *task, gpointer source, gpointer data, GCancellable *cancellable) {
  TessTilesetTrace *job = ((Holder *)data)->job;
  TessError err = {0};
  TessResult r = tess_tileset_trace_run(job, &err);
  if (job->cancel) {
    g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("Tracing cancelled."));
  } else if (r != TESS_OK) {
    g_autofree char *msg = tess_sprite_message_tileset_trace(job->tileset.name, r, &err);
    g_task_return_new_error(task, TESS_DOCUMENT_ERROR, (int)r, "%s", msg);
  } else {
    g_task_return_boolean(task, TRUE);
  }
}

void tess_tileset_trace_run_async(TessTilesetTrace *job, GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data) {
  if (cancellable) job->cancellable = g_object_ref(cancellable);
  Holder *h = g_new0(Holder, 1);
  h->job = job;
  GTask *task = g_task_new(NULL, NULL, callback, user_data);
  g_task_set_task_data(task, h, holder_free);
  g_task_run_in_thread(task, trace_thread);
  g_object_unref(task);
}

TessTilesetTrace *tess_tileset_trace_run_finish(GAsyncResult *result, GError **error) {
  GTask *task = G_TASK(result);
  if (!g_task_propagate_boolean(task, error)) return NULL;
  Holder *h = g_task_get_task_data(task);
  TessTilesetTrace *job = h->job;
  h->job = NULL;
  return job;
}

double tess_tileset_trace_get_progress(TessTilesetTrace *job) { return g_atomic_int_get(&job->permille) / 1000.0; }
TessTileset *tess_tileset_trace_get_tileset(TessTilesetTrace *job) { return &job->tileset; }
const TessMaskSettings *tess_tileset_trace_get_settings(TessTilesetTrace *job) { return &job->settings; }
