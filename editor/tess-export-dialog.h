/* TessExportDialog: File > Export... Writes the chosen levels of the
 * document's project as .tlv files, or as Tiled maps (TMJ or TMX, with their
 * tilesets and images), plus manifest.json into a folder, with
 * core/pack's tess_export_* (what `tessera-pipeline export` runs, so the
 * files are the same bytes), on a GTask worker thread: a progress bar
 * (levels done / total, the level being written) and Cancel (between
 * levels: a file is either fully written or not there). The window stays
 * responsive.
 *
 * The worker reads the project through its own read-only TessStore
 * connection to the document's file, never the editor's TessProject: the
 * editor keeps editing (and may undo, or close the document) while the
 * export runs, and every edit is committed to the file as it is made, so
 * the file is the document. SQLite gives the worker one consistent
 * snapshot (its read transaction) even while the editor writes. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_EXPORT_DIALOG (tess_export_dialog_get_type())
G_DECLARE_FINAL_TYPE(TessExportDialog, tess_export_dialog, TESS, EXPORT_DIALOG, GtkWindow)

GtkWidget *tess_export_dialog_new(GtkWindow *parent, TessDocument *doc);

/* What the fields hold (the folder chooser and check list do the same). */
void tess_export_dialog_set_folder(TessExportDialog *self, const char *path);
const char *tess_export_dialog_get_folder(TessExportDialog *self);
guint tess_export_dialog_get_level_count(TessExportDialog *self);
void tess_export_dialog_set_level_selected(TessExportDialog *self, guint index, gboolean selected);
void tess_export_dialog_set_jobs(TessExportDialog *self, guint jobs);
guint tess_export_dialog_get_jobs(TessExportDialog *self);
void tess_export_dialog_set_force(TessExportDialog *self, gboolean force);
/* "tlv" (the default), "tmj" or "tmx": FALSE for a format it does not offer. */
gboolean tess_export_dialog_set_format(TessExportDialog *self, const char *name);
const char *tess_export_dialog_get_format(TessExportDialog *self);

/* Starts the export (the Export button): FALSE, with the reason in the
 * dialog's message, when no folder or no level is chosen or one is running. */
gboolean tess_export_dialog_start(TessExportDialog *self);
/* Cancels a running export (the Cancel button while it runs). */
void tess_export_dialog_cancel(TessExportDialog *self);
gboolean tess_export_dialog_is_running(TessExportDialog *self);
/* For tests: exports started while held wait, after loading the project,
 * until they are cancelled, so a test can cancel at a known point instead
 * of racing the worker. */
void tess_export_dialog_hold_for_test(TessExportDialog *self, gboolean hold);
/* The progress bar's fraction and text, and the message under it. */
double tess_export_dialog_get_fraction(TessExportDialog *self);
const char *tess_export_dialog_get_progress_text(TessExportDialog *self);
const char *tess_export_dialog_get_message(TessExportDialog *self);

/* Signal "finished" (gboolean ok, gboolean cancelled): emitted on the main
 * thread when an export ends; ok is FALSE when a level or the manifest failed. */

G_END_DECLS
