/* TessSpriteImport (see tess-sprite-import.h). */
#include "tess-sprite-import.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tessera/image.h"
#include "tessera/mask.h"

#define SPRITE_MAX_BYTES ((size_t)256 * 1024 * 1024)

typedef struct Item {
  char *path, *stem;
  TessSprite sprite; /* filled when result is TESS_OK */
  TessResult result;
  TessError err;
} Item;

struct TessSpriteImport {
  GArray *items; /* Item */
  gint permille; /* written by the worker, read by the main thread */
};

TessSpriteImport *tess_sprite_import_new(GSList *files) {
  TessSpriteImport *job = g_new0(TessSpriteImport, 1);
  job->items = g_array_new(FALSE, TRUE, sizeof(Item));
  for (GSList *l = files; l; l = l->next) {
    char *path = g_file_get_path(G_FILE(l->data));
    if (!path) continue;
    Item item;
    memset(&item, 0, sizeof item);
    item.path = path;
    item.stem = g_path_get_basename(path);
    char *dot = strrchr(item.stem, '.');
    if (dot && dot != item.stem) *dot = '\0';
    item.result = TESS_ERR_EMPTY; /* not prepared yet */
    g_array_append_val(job->items, item);
  }
  return job;
}

void tess_sprite_import_free(TessSpriteImport *job) {
  if (!job) return;
  for (guint i = 0; i < job->items->len; i++) {
    Item *item = &g_array_index(job->items, Item, i);
    tess_sprite_clear(&item->sprite); /* frees the PNG bytes, the mask and the source path */
    g_free(item->path);
    g_free(item->stem);
  }
  g_array_unref(job->items);
  g_free(job);
}

static void post(TessSpriteImport *job, guint i, double stage) {
  g_atomic_int_set(&job->permille, (gint)(1000.0 * (i + stage) / MAX(job->items->len, 1u)));
}

/* One PNG into a sprite: read, decode, trace with the default settings. */
static void prepare(TessSpriteImport *job, guint i, GCancellable *cancellable) {
  Item *item = &g_array_index(job->items, Item, i);
  uint8_t *data = NULL;
  size_t size = 0;
  item->result = tess_file_read(item->path, SPRITE_MAX_BYTES, &data, &size, &item->err);
  if (item->result != TESS_OK) return;
  post(job, i, 0.1);
  if (g_cancellable_is_cancelled(cancellable)) {
    tess_free(data);
    item->result = TESS_ERR_EMPTY;
    return;
  }
  TessImage img;
  item->result = tess_png_decode(data, size, item->path, &img, &item->err);
  if (item->result != TESS_OK) {
    tess_free(data);
    return;
  }
  post(job, i, 0.3);
  TessSprite *sp = &item->sprite;
  sp->png = data;
  sp->png_size = size;
  sp->image_w = img.width;
  sp->image_h = img.height;
  sp->frame_count = 1;
  sp->frame_rate = 0;
  sp->anchor = tess_v2(img.width / 2.0f, img.height / 2.0f);
  tess_sprite_mask_default(&sp->mask);
  if (g_cancellable_is_cancelled(cancellable)) item->result = TESS_ERR_EMPTY;
  else item->result = tess_sprite_mask_trace(tess_image_view(&img), &sp->mask, &item->err);
  tess_image_clear(&img);
  if (item->result == TESS_OK) sp->source_path = tess_strdup(item->path);
}

void tess_sprite_import_run(TessSpriteImport *job, GCancellable *cancellable) {
  for (guint i = 0; i < job->items->len && !g_cancellable_is_cancelled(cancellable); i++) {
    post(job, i, 0);
    prepare(job, i, cancellable);
  }
  if (!g_cancellable_is_cancelled(cancellable)) g_atomic_int_set(&job->permille, 1000);
}

/* The task's data: the job, until _finish takes it. */
typedef struct Holder {
  TessSpriteImport *job;
} Holder;

static void holder_free(gpointer data) {
  Holder *h = data;
  tess_sprite_import_free(h->job);
  g_free(h);
}

static void import_thread(GTask *task, gpointer source, gpointer data, GCancellable *cancellable) {
  tess_sprite_import_run(((Holder *)data)->job, cancellable);
  if (g_cancellable_is_cancelled(cancellable))
    g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("Import cancelled."));
  else
    g_task_return_boolean(task, TRUE);
}

void tess_sprite_import_run_async(TessSpriteImport *job, GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data) {
  Holder *h = g_new0(Holder, 1);
  h->job = job;
  GTask *task = g_task_new(NULL, cancellable, callback, user_data);
  g_task_set_task_data(task, h, holder_free);
  g_task_run_in_thread(task, import_thread);
  g_object_unref(task);
}

TessSpriteImport *tess_sprite_import_run_finish(GAsyncResult *result, GError **error) {
  GTask *task = G_TASK(result);
  if (!g_task_propagate_boolean(task, error)) return NULL;
  Holder *h = g_task_get_task_data(task);
  TessSpriteImport *job = h->job;
  h->job = NULL;
  return job;
}

double tess_sprite_import_get_progress(TessSpriteImport *job) { return g_atomic_int_get(&job->permille) / 1000.0; }
guint tess_sprite_import_get_count(TessSpriteImport *job) { return job->items->len; }
const char *tess_sprite_import_get_path(TessSpriteImport *job, guint i) {
  return g_array_index(job->items, Item, i).path;
}
const char *tess_sprite_import_get_stem(TessSpriteImport *job, guint i) {
  return g_array_index(job->items, Item, i).stem;
}

TessSprite *tess_sprite_import_get_sprite(TessSpriteImport *job, guint i, TessResult *result, const TessError **err) {
  Item *item = &g_array_index(job->items, Item, i);
  if (result) *result = item->result;
  if (err) *err = &item->err;
  return item->result == TESS_OK ? &item->sprite : NULL;
}
