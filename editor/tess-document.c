/* TessDocument: the open project and its database. */
#include "tess-document.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

struct _TessDocument {
  GObject parent_instance;

  /* owned */
  char *path;
  TessProject *project;
  TessStore *store;
  char *unsaved_reason;

  gboolean unsaved;
  /* The file as it was opened: a different inode at the path later means it
   * was replaced (tessera-pipeline load --force renames a new file over it). */
  dev_t dev;
  ino_t ino;
  gboolean read_only; /* the file cannot be written (read-only media or folder): opened read-only */
  guint refused;      /* commits refused because the file had been replaced (see tess_document_commit) */
  gboolean keep_dump; /* the project's "keep a text dump beside it" setting */
};

G_DEFINE_TYPE(TessDocument, tess_document, G_TYPE_OBJECT)

enum { PROP_0,
       PROP_PATH,
       PROP_UNSAVED,
       PROP_KEEP_DUMP,
       N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { SIGNAL_CHANGED,
       SIGNAL_COMMITTED,
       SIGNAL_REPLACED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_QUARK(tess - document - error - quark, tess_document_error)

/* ---- Errors ------------------------------------------------------------ */

char *tess_document_describe_error(TessResult r, const TessError *err) {
  const char *file = (err && err->file[0]) ? err->file : NULL;
  g_autofree char *name = file ? g_filename_display_basename(file) : NULL;
  const char *detail = (err && err->detail[0]) ? err->detail : tess_result_string(r);
  g_autofree char *sentence = NULL;

  switch (r) {
    case TESS_OK:
      return g_strdup(_("No error."));
    case TESS_ERR_IO:
      sentence = name ? g_strdup_printf(_("“%s” could not be read or written."), name)
                      : g_strdup(_("A file could not be read or written."));
      break;
    case TESS_ERR_FORMAT:
      sentence = name ? g_strdup_printf(_("“%s” is not in the expected format or is damaged."), name)
                      : g_strdup(_("The data is not in the expected format or is damaged."));
      break;
    case TESS_ERR_VERSION:
      sentence = name ? g_strdup_printf(_("“%s” was made by a newer version of Tessera."), name)
                      : g_strdup(_("The data was made by a newer version of Tessera."));
      break;
    case TESS_ERR_LIMIT:
      sentence = name ? g_strdup_printf(_("“%s” is larger than Tessera accepts."), name)
                      : g_strdup(_("A size or count is larger than Tessera accepts."));
      break;
    case TESS_ERR_NOMEM:
      sentence = g_strdup(_("There is not enough memory."));
      break;
    case TESS_ERR_INVALID:
      sentence = g_strdup(_("A value is out of range."));
      break;
    case TESS_ERR_NOT_FOUND:
      sentence = name ? g_strdup_printf(_("“%s” was not found."), name)
                      : g_strdup(_("Something that was asked for does not exist."));
      break;
    case TESS_ERR_LOCKED:
      sentence = g_strdup(_("The layer is locked."));
      break;
    case TESS_ERR_READONLY:
      sentence = name ? g_strdup_printf(_("“%s” is read-only."), name) : g_strdup(_("The project is read-only."));
      break;
    case TESS_ERR_EMPTY:
      sentence = g_strdup(_("There is nothing to work on."));
      break;
    case TESS_ERR_DATABASE:
      sentence = name ? g_strdup_printf(_("The database “%s” reported an error."), name)
                      : g_strdup(_("The database reported an error."));
      break;
    default:
      sentence = g_strdup(_("An unknown error occurred."));
      break;
  }

  if (err && err->place_kind != TESS_PLACE_NONE) {
    g_autofree char *place = g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)err->place);
    if (err->place_kind == TESS_PLACE_LINE)
      /* Translators: a sentence, then where in the file and core's English detail. */
      return g_strdup_printf(_("%s (line %s: %s)"), sentence, place, detail);
    return g_strdup_printf(_("%s (byte %s: %s)"), sentence, place, detail);
  }
  return g_strdup_printf(_("%s (%s)"), sentence, detail);
}

void tess_document_set_error_from_tess(GError **error, TessResult r, const TessError *err) {
  if (error == NULL) return;
  g_autofree char *msg = tess_document_describe_error(r, err);
  g_set_error_literal(error, TESS_DOCUMENT_ERROR, (int)r, msg);
}

/* ---- Life cycle -------------------------------------------------------- */

static void on_project_change(const TessChange *change, void *user) {
  TessDocument *self = user;
  g_signal_emit(self, signals[SIGNAL_CHANGED], 0, (gpointer)change);
}

static void tess_document_finalize(GObject *object) {
  TessDocument *self = TESS_DOCUMENT(object);

  if (self->store) tess_store_close(self->store);
  if (self->project) tess_project_destroy(self->project);
  g_free(self->path);
  g_free(self->unsaved_reason);

  G_OBJECT_CLASS(tess_document_parent_class)->finalize(object);
}

static void tess_document_get_property(GObject *object, guint prop_id, GValue *value, GParamSpec *pspec) {
  TessDocument *self = TESS_DOCUMENT(object);
  switch (prop_id) {
    case PROP_PATH:
      g_value_set_string(value, self->path);
      break;
    case PROP_UNSAVED:
      g_value_set_boolean(value, self->unsaved);
      break;
    case PROP_KEEP_DUMP:
      g_value_set_boolean(value, self->keep_dump);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
  }
}

static void tess_document_class_init(TessDocumentClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);

  object_class->finalize = tess_document_finalize;
  object_class->get_property = tess_document_get_property;

  properties[PROP_PATH] = g_param_spec_string("path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNSAVED] =
      g_param_spec_boolean("unsaved", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_KEEP_DUMP] = g_param_spec_boolean("keep-dump", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties(object_class, N_PROPS, properties);

  /* One per change the project reports (a gpointer to a const TessChange *). */
  signals[SIGNAL_CHANGED] = g_signal_new("changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                         NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_COMMITTED] =
      g_signal_new("committed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* A commit found another file at the path (tess_document_commit): the
   * owner reopens the path. */
  signals[SIGNAL_REPLACED] =
      g_signal_new("replaced", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void tess_document_init(TessDocument *self) {}

static TessDocument *document_adopt(const char *path, TessStore *store, TessProject *project) {
  TessDocument *self = g_object_new(TESS_TYPE_DOCUMENT, NULL);
  self->path = g_strdup(path);
  self->store = store;
  self->project = project;
  tess_project_set_listener(project, on_project_change, self);
  GStatBuf st;
  if (g_stat(path, &st) == 0) {
    self->dev = st.st_dev;
    self->ino = st.st_ino;
  }
  int64_t keep = 0;
  self->keep_dump = tess_store_setting_get(store, TESS_DOCUMENT_SETTING_KEEP_DUMP, &keep, NULL) == TESS_OK && keep;
  return self;
}

TessDocument *tess_document_open(const char *path, GError **error) {
  g_return_val_if_fail(path != NULL, NULL);
  TessError err = {0};
  TessStore *store = NULL;
  TessProject *project = NULL;

  TessResult r = tess_store_open(path, TESS_STORE_READ_WRITE, &store, &err);
  gboolean read_only = FALSE;
  if (r == TESS_ERR_READONLY || r == TESS_ERR_IO) {
    /* Read-only media, a folder or a file we cannot write: open it for
     * viewing (the window says so and offers Save a Copy). When that fails
     * too, the first refusal is the one to show. */
    TessError ro_err = {0};
    if (tess_store_open(path, TESS_STORE_READ_ONLY, &store, &ro_err) == TESS_OK) {
      r = TESS_OK;
      read_only = TRUE;
    } else if (ro_err.code == TESS_ERR_READONLY) {
      r = TESS_ERR_READONLY; /* a -wal that cannot be replayed here: that message says what to do */
      err = ro_err;
    }
  }
  if (r == TESS_ERR_LOCKED) { /* the store's one-writer lock: someone else is editing it */
    g_autofree char *name = g_filename_display_basename(path);
    g_set_error(error, TESS_DOCUMENT_ERROR, (int)r,
                _("“%s” is already open for editing in another Tessera window or program. Close it there, then "
                  "open it here."),
                name);
    return NULL;
  }
  if (r != TESS_OK) {
    if (err.file[0] == '\0') g_strlcpy(err.file, path, sizeof err.file);
    tess_document_set_error_from_tess(error, r, &err);
    return NULL;
  }
  r = tess_store_load(store, &project, &err);
  if (r != TESS_OK) {
    if (err.file[0] == '\0') g_strlcpy(err.file, path, sizeof err.file);
    tess_store_close(store);
    tess_document_set_error_from_tess(error, r, &err);
    return NULL;
  }
  TessDocument *self = document_adopt(path, store, project);
  self->read_only = read_only;
  return self;
}

/* A new project gets what a designer needs to start painting at once: a
 * "Stone" material and a 64 x 36 side-view level (with its default layers).
 * Built with edit operations, then the history is cleared: the starting
 * point is not an undoable step. */
static TessResult fill_new_project(TessProject *project, TessError *err) {
  TessMaterial m;
  tess_material_default(&m);
  g_strlcpy(m.name, _("Stone"), sizeof m.name);
  TessId material = 0;
  TessResult r = tess_edit_material_add(project, &m, &material, err);
  if (r != TESS_OK) return r;

  TessLevelSettings s;
  tess_level_settings_default(&s);
  g_strlcpy(s.name, _("Level 1"), sizeof s.name);
  TessId level = 0;
  r = tess_edit_level_add(project, &s, &level, err);
  if (r != TESS_OK) return r;
  tess_project_clear_history(project);
  return TESS_OK;
}

TessDocument *tess_document_new_project(const char *path, GError **error) {
  g_return_val_if_fail(path != NULL, NULL);
  TessError err = {0};
  TessStore *store = NULL;

  TessResult r = tess_store_open(path, TESS_STORE_CREATE, &store, &err);
  if (r != TESS_OK) {
    if (err.file[0] == '\0') g_strlcpy(err.file, path, sizeof err.file);
    tess_document_set_error_from_tess(error, r, &err);
    return NULL;
  }
  TessProject *project = tess_project_create();
  if (project == NULL) {
    tess_store_close(store);
    g_unlink(path);
    tess_document_set_error_from_tess(error, TESS_ERR_NOMEM, NULL);
    return NULL;
  }
  r = fill_new_project(project, &err);
  if (r == TESS_OK) r = tess_store_save_all(store, project, &err);
  if (r != TESS_OK) {
    if (err.file[0] == '\0') g_strlcpy(err.file, path, sizeof err.file);
    tess_store_close(store);
    tess_project_destroy(project);
    g_unlink(path);
    tess_document_set_error_from_tess(error, r, &err);
    return NULL;
  }
  return document_adopt(path, store, project);
}

/* ---- Accessors --------------------------------------------------------- */

TessProject *tess_document_get_project(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), NULL);
  return doc->project;
}

const char *tess_document_get_path(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), NULL);
  return doc->path;
}

char *tess_document_dup_name(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), NULL);
  g_autofree char *base = g_filename_display_basename(doc->path);
  if (g_str_has_suffix(base, ".tessera")) base[strlen(base) - strlen(".tessera")] = '\0';
  return g_steal_pointer(&base);
}

gboolean tess_document_get_read_only(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  return doc->read_only;
}

gboolean tess_document_get_unsaved(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  return doc->unsaved;
}

const char *tess_document_get_unsaved_reason(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), NULL);
  return doc->unsaved_reason;
}

static void set_unsaved(TessDocument *self, const char *reason) {
  gboolean was = self->unsaved;
  g_free(self->unsaved_reason);
  self->unsaved_reason = g_strdup(reason);
  self->unsaved = reason != NULL;
  if (was != self->unsaved) g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_UNSAVED]);
}

/* ---- Commit ------------------------------------------------------------ */

/* An edit made after `load --force` renamed a new file over ours would go
 * into the old, unlinked file, and the reload would drop it without a word.
 * So a commit looks at the path before and after it writes: when another
 * file is there, the edit is refused with a message (it stays out of the new
 * file, which the owner reopens on "replaced"), never lost in silence. The
 * look after the write covers a replacement during it. */
static gboolean refuse_if_replaced(TessDocument *doc, GError **error) {
  if (doc->read_only || doc->unsaved || !tess_document_file_replaced(doc)) return FALSE;
  doc->refused++;
  g_autofree char *name = g_filename_display_basename(doc->path);
  g_set_error(error, TESS_DOCUMENT_ERROR, TESS_ERR_IO,
              _("“%s” was replaced on disk (by a load or a pull) before this edit was saved, so the edit was not "
                "applied. The new file is being reloaded: make the edit again there."),
              name);
  g_signal_emit(doc, signals[SIGNAL_REPLACED], 0);
  return TRUE;
}

gboolean tess_document_commit(TessDocument *doc, GError **error) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  if (refuse_if_replaced(doc, error)) return FALSE;
  TessError err = {0};
  TessResult r = tess_store_flush(doc->store, doc->project, &err);
  if (r != TESS_OK) {
    if (err.file[0] == '\0') g_strlcpy(err.file, doc->path, sizeof err.file);
    g_autofree char *msg = tess_document_describe_error(r, &err);
    set_unsaved(doc, msg);
    g_set_error_literal(error, TESS_DOCUMENT_ERROR, (int)r, msg);
    /* The edit is in memory (and undoable) even though the file refused it. */
    g_signal_emit(doc, signals[SIGNAL_COMMITTED], 0);
    return FALSE;
  }
  if (refuse_if_replaced(doc, error)) return FALSE;
  g_signal_emit(doc, signals[SIGNAL_COMMITTED], 0);
  return TRUE;
}

guint tess_document_get_refused_edits(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), 0);
  return doc->refused;
}

gboolean tess_document_undo(TessDocument *doc, GError **error) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  if (!tess_project_can_undo(doc->project)) return TRUE;
  TessError err = {0};
  TessResult r = tess_project_undo(doc->project, &err);
  if (r != TESS_OK) {
    tess_document_set_error_from_tess(error, r, &err);
    return FALSE;
  }
  return tess_document_commit(doc, error);
}

gboolean tess_document_redo(TessDocument *doc, GError **error) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  if (!tess_project_can_redo(doc->project)) return TRUE;
  TessError err = {0};
  TessResult r = tess_project_redo(doc->project, &err);
  if (r != TESS_OK) {
    tess_document_set_error_from_tess(error, r, &err);
    return FALSE;
  }
  return tess_document_commit(doc, error);
}

/* ---- The file under us ------------------------------------------------- */

gboolean tess_document_check_file(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  g_autofree char *name = g_filename_display_basename(doc->path);
  if (doc->read_only) return !doc->unsaved; /* known not writable from the start */
  if (!g_file_test(doc->path, G_FILE_TEST_EXISTS)) {
    g_autofree char *msg = g_strdup_printf(_("“%s” was deleted. Your work is only in memory."), name);
    set_unsaved(doc, msg);
    return FALSE;
  }
  if (g_access(doc->path, W_OK) != 0) {
    g_autofree char *msg = g_strdup_printf(_("“%s” was made read-only. Your work is only in memory."), name);
    set_unsaved(doc, msg);
    return FALSE;
  }
  return !doc->unsaved;
}

gboolean tess_document_file_replaced(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  GStatBuf st;
  if (g_stat(doc->path, &st) != 0) return FALSE; /* deleted: tess_document_check_file says so */
  return st.st_dev != doc->dev || st.st_ino != doc->ino;
}

gboolean tess_document_save_copy(TessDocument *doc, const char *dest_path, GError **error) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  g_return_val_if_fail(dest_path != NULL, FALSE);
  TessError err = {0};

  if (!doc->unsaved && !doc->read_only) {
    /* The file is whole: SQLite copies it page by page. An existing file at
     * the destination is replaced, as the file chooser confirmed. */
    if (g_file_test(dest_path, G_FILE_TEST_EXISTS) && g_unlink(dest_path) != 0) {
      err.code = TESS_ERR_IO;
      g_strlcpy(err.file, dest_path, sizeof err.file);
      g_strlcpy(err.detail, g_strerror(errno), sizeof err.detail);
      tess_document_set_error_from_tess(error, TESS_ERR_IO, &err);
      return FALSE;
    }
    TessResult r = tess_store_save_copy(doc->store, dest_path, &err);
    if (r != TESS_OK) {
      if (err.file[0] == '\0') g_strlcpy(err.file, dest_path, sizeof err.file);
      tess_document_set_error_from_tess(error, r, &err);
      return FALSE;
    }
    return TRUE;
  }

  /* The file is gone or refuses writes (or was opened read-only): write the
   * whole project in memory to a new file and carry on editing there. */
  if (g_file_test(dest_path, G_FILE_TEST_EXISTS) && g_unlink(dest_path) != 0) {
    err.code = TESS_ERR_IO;
    g_strlcpy(err.file, dest_path, sizeof err.file);
    g_strlcpy(err.detail, g_strerror(errno), sizeof err.detail);
    tess_document_set_error_from_tess(error, TESS_ERR_IO, &err);
    return FALSE;
  }
  TessStore *store = NULL;
  TessResult r = tess_store_open(dest_path, TESS_STORE_CREATE, &store, &err);
  if (r == TESS_OK) r = tess_store_save_all(store, doc->project, &err);
  if (r != TESS_OK) {
    if (store) tess_store_close(store);
    if (err.file[0] == '\0') g_strlcpy(err.file, dest_path, sizeof err.file);
    tess_document_set_error_from_tess(error, r, &err);
    return FALSE;
  }
  tess_store_close(doc->store);
  doc->store = store;
  g_free(doc->path);
  doc->path = g_strdup(dest_path);
  doc->read_only = FALSE;
  set_unsaved(doc, NULL);
  g_object_notify_by_pspec(G_OBJECT(doc), properties[PROP_PATH]);
  g_signal_emit(doc, signals[SIGNAL_COMMITTED], 0);
  return TRUE;
}

void tess_document_checkpoint(TessDocument *doc) {
  g_return_if_fail(TESS_IS_DOCUMENT(doc));
  if (doc->unsaved || doc->read_only) return;
  TessError err = {0};
  /* A failed checkpoint loses nothing (the WAL still holds the pages); the
   * next commit reports a real problem. */
  (void)tess_store_checkpoint(doc->store, &err);
}

/* ---- The text dump beside the project ---------------------------------- */

gboolean tess_document_get_keep_dump(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  return doc->keep_dump;
}

gboolean tess_document_set_keep_dump(TessDocument *doc, gboolean keep, GError **error) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  keep = !!keep;
  if (keep == doc->keep_dump) return TRUE;
  TessError err = {0};
  TessResult r = tess_store_setting_set(doc->store, TESS_DOCUMENT_SETTING_KEEP_DUMP, keep, &err);
  if (r != TESS_OK) {
    if (err.file[0] == '\0') g_strlcpy(err.file, doc->path, sizeof err.file);
    tess_document_set_error_from_tess(error, r, &err);
    return FALSE;
  }
  doc->keep_dump = keep;
  g_object_notify_by_pspec(G_OBJECT(doc), properties[PROP_KEEP_DUMP]);
  return TRUE;
}

int64_t tess_document_get_setting(TessDocument *doc, const char *name, int64_t fallback) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), fallback);
  int64_t v = 0;
  return doc->store && tess_store_setting_get(doc->store, name, &v, NULL) == TESS_OK ? v : fallback;
}

gboolean tess_document_set_setting(TessDocument *doc, const char *name, int64_t value) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), FALSE);
  if (!doc->store || doc->read_only || doc->unsaved) return FALSE;
  TessError err = {0};
  return tess_store_setting_set(doc->store, name, value, &err) == TESS_OK;
}

char *tess_document_dup_dump_dir(TessDocument *doc) {
  g_return_val_if_fail(TESS_IS_DOCUMENT(doc), NULL);
  g_autofree char *dir = g_path_get_dirname(doc->path);
  g_autofree char *base = g_path_get_basename(doc->path);
  if (g_str_has_suffix(base, ".tessera") && strlen(base) > strlen(".tessera")) {
    base[strlen(base) - strlen(".tessera")] = '\0';
    return g_build_filename(dir, base, NULL);
  }
  g_autofree char *named = g_strconcat(base, ".dump", NULL); /* never the project file's own name */
  return g_build_filename(dir, named, NULL);
}
