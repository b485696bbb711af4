/* TessSpriteImport: PNG files read, decoded and traced into sprites as a
 * job that runs on a worker thread (GTask), with progress and cancel, as
 * Export does: a 4096² sprite takes seconds to trace, and the window must
 * stay live meanwhile. The job never touches the project; the caller adds
 * the prepared sprites on the main thread (one commit). Run on the calling
 * thread, the same job gives the same sprites. */
#pragma once

#include <gio/gio.h>

#include "tessera/level.h"

G_BEGIN_DECLS

typedef struct TessSpriteImport TessSpriteImport;

/* The files' paths are copied; files without a local path are skipped. */
TessSpriteImport *tess_sprite_import_new(GSList *files);
void tess_sprite_import_free(TessSpriteImport *job);

/* Prepares every file on the calling thread; stops between files and
 * between reading, decoding and tracing once cancelled. */
void tess_sprite_import_run(TessSpriteImport *job, GCancellable *cancellable);
/* The same on a worker; the job belongs to the task until _finish hands it
 * back (NULL and G_IO_ERROR_CANCELLED when cancelled). */
void tess_sprite_import_run_async(TessSpriteImport *job, GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data);
TessSpriteImport *tess_sprite_import_run_finish(GAsyncResult *result, GError **error);

/* 0..1, safe to read from the main thread while the worker runs. */
double tess_sprite_import_get_progress(TessSpriteImport *job);
guint tess_sprite_import_get_count(TessSpriteImport *job);
const char *tess_sprite_import_get_path(TessSpriteImport *job, guint i);
/* The file's name without folder and extension (the sprite's name to be). */
const char *tess_sprite_import_get_stem(TessSpriteImport *job, guint i);
/* The prepared sprite (PNG bytes, size, traced mask, source path; no name,
 * no id), or NULL when the file failed: the reason is in *result / *err. */
TessSprite *tess_sprite_import_get_sprite(TessSpriteImport *job, guint i, TessResult *result, const TessError **err);

G_END_DECLS
