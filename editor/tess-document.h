/* TessDocument: one open project (its TessProject and the TessStore that
 * persists it). Widgets change the project only through tess_edit_*() and
 * then call tess_document_commit(), which writes the pending changes in one
 * transaction. */
#pragma once

#include <gio/gio.h>

#include "tessera/level.h"
#include "tessera/store.h"

G_BEGIN_DECLS

#define TESS_DOCUMENT_ERROR (tess_document_error_quark())
GQuark tess_document_error_quark(void);

/* GError codes of TESS_DOCUMENT_ERROR are the TessResult values (TESS_ERR_IO, ...). */

#define TESS_TYPE_DOCUMENT (tess_document_get_type())
G_DECLARE_FINAL_TYPE(TessDocument, tess_document, TESS, DOCUMENT, GObject)

/* Opens an existing .tessera file read-write; one that cannot be written
 * (read-only media or folder, no permission) is opened read-only instead
 * (tess_document_get_read_only): edits then stay in memory until Save a Copy. */
TessDocument *tess_document_open(const char *path, GError **error);
/* Creates a new project file (refuses to overwrite) with one material and one level. */
TessDocument *tess_document_new_project(const char *path, GError **error);

TessProject *tess_document_get_project(TessDocument *doc); /* borrowed */
const char *tess_document_get_path(TessDocument *doc);
/* The project's name as the user sees it: the file name without ".tessera". */
char *tess_document_dup_name(TessDocument *doc);

/* Call right after one or more tess_edit_*() calls: persists the pending
 * changes in one transaction. On failure returns FALSE with a translated
 * GError and the document enters the "unsaved" state. Emits "committed" on
 * success. When another file now sits at the path (replaced by `load
 * --force`), the edit is refused instead: FALSE, a GError saying so, and the
 * "replaced" signal. */
gboolean tess_document_commit(TessDocument *doc, GError **error);

/* Undo / redo one step and commit it. */
gboolean tess_document_undo(TessDocument *doc, GError **error);
gboolean tess_document_redo(TessDocument *doc, GError **error);

/* TRUE when the file was opened read-only because it cannot be written. */
gboolean tess_document_get_read_only(TessDocument *doc);

/* TRUE when a commit failed: the work in memory is not in the file any more
 * (the file was deleted, made read-only, or the disk is full). */
gboolean tess_document_get_unsaved(TessDocument *doc);
const char *tess_document_get_unsaved_reason(TessDocument *doc); /* translated, or NULL */

/* Checks that the file is still there and writable (the window calls it when
 * it regains focus). Enters the unsaved state and returns FALSE when not. */
gboolean tess_document_check_file(TessDocument *doc);
/* TRUE when another file now sits at the document's path (a `tessera-pipeline
 * load --force` after a pull): the window then reopens the path. */
gboolean tess_document_file_replaced(TessDocument *doc);

/* Commits refused because the file had been replaced on disk when they
 * came (tess_document_commit emits "replaced" and returns FALSE: the edit is
 * in memory only and the owner reopens the path). */
guint tess_document_get_refused_edits(TessDocument *doc);

/* The project's "keep a text dump beside it" setting (off by default), kept
 * in the project file (tess_store_setting_*), property "keep-dump". The
 * dump goes to tess_document_dup_dump_dir: the file's path without
 * ".tessera" (game.tessera -> game/), as `tessera-pipeline dump` is used. */
#define TESS_DOCUMENT_SETTING_KEEP_DUMP "editor.keep_dump"
gboolean tess_document_get_keep_dump(TessDocument *doc);
gboolean tess_document_set_keep_dump(TessDocument *doc, gboolean keep, GError **error);
char *tess_document_dup_dump_dir(TessDocument *doc);

/* Other preferences of the editor kept with the project, as keep-dump is
 * (tess_store_setting_*: not content, no undo): `fallback` when never set
 * or unreadable. Setting one on a read-only or unsaved project keeps it for
 * this session only (FALSE). */
#define TESS_DOCUMENT_SETTING_PALETTE_ZOOM "editor.palette_zoom"
int64_t tess_document_get_setting(TessDocument *doc, const char *name, int64_t fallback);
gboolean tess_document_set_setting(TessDocument *doc, const char *name, int64_t value);

/* Writes the project in memory to dest_path. When the document is unsaved
 * the database file itself may be gone, so the copy is made by writing the
 * whole in-memory project into a new file; otherwise through SQLite's backup
 * API. */
gboolean tess_document_save_copy(TessDocument *doc, const char *dest_path, GError **error);

/* Folds the WAL into the main file (idle time). */
void tess_document_checkpoint(TessDocument *doc);

/* Turns a failed TessResult + TessError into a translated GError. */
void tess_document_set_error_from_tess(GError **error, TessResult r, const TessError *err);
/* The same sentence as a newly allocated string. */
char *tess_document_describe_error(TessResult r, const TessError *err);

G_END_DECLS
