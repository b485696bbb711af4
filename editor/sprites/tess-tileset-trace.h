/* TessTilesetTrace: one Trace All of a tileset as a job that runs on a
 * worker thread (GTask), with progress and cancel, as Export does. The job
 * copies what it reads (the tileset's tiles and decoded pixels, the
 * settings), so the worker never touches the project or a widget; the
 * caller applies the traced tiles on the main thread. Run on the calling
 * thread, the same job gives the same tiles. */
#pragma once

#include <gio/gio.h>

#include "tessera/image.h"
#include "tessera/level.h"
#include "tessera/mask.h"

G_BEGIN_DECLS

typedef struct TessTilesetTrace TessTilesetTrace;

/* NULL when out of memory. */
TessTilesetTrace *tess_tileset_trace_new(const TessTileset *ts, const TessImage *pixels, const TessMaskSettings *s);
void tess_tileset_trace_free(TessTilesetTrace *job);

/* Traces on the calling thread (TESS_ERR_EMPTY "cancelled" once cancelled). */
TessResult tess_tileset_trace_run(TessTilesetTrace *job, TessError *err);

/* Traces on a worker; the job belongs to the task until _finish hands it
 * back (NULL and G_IO_ERROR_CANCELLED when cancelled, NULL and the reason
 * when the trace failed). */
void tess_tileset_trace_run_async(TessTilesetTrace *job, GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data);
TessTilesetTrace *tess_tileset_trace_run_finish(GAsyncResult *result, GError **error);

/* 0..1, safe to read from the main thread while the worker runs. */
double tess_tileset_trace_get_progress(TessTilesetTrace *job);
/* Tests: while held, the worker waits part-way through (after some tiles,
 * before the last) until released or cancelled. */
void tess_tileset_trace_set_held(TessTilesetTrace *job, gboolean held);
/* The tileset as copied, its tiles traced once the run succeeded. */
TessTileset *tess_tileset_trace_get_tileset(TessTilesetTrace *job);
const TessMaskSettings *tess_tileset_trace_get_settings(TessTilesetTrace *job);

G_END_DECLS
