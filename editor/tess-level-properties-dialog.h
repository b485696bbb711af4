/* TessLevelPropertiesDialog: name, size (resize anchored), tile size,
 * pixels per metre, gravity, view, physics rate, sub-steps, floor drag.
 * "Apply" is one undoable edit. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_LEVEL_PROPERTIES_DIALOG (tess_level_properties_dialog_get_type())
G_DECLARE_FINAL_TYPE(TessLevelPropertiesDialog, tess_level_properties_dialog, TESS, LEVEL_PROPERTIES_DIALOG, GtkDialog)

GtkWidget *tess_level_properties_dialog_new(GtkWindow *parent, TessDocument *doc, TessId level);
/* Fields by name: "name", "width", "height", "tile-width", "tile-height", "ppm",
 * "gravity-x", "gravity-y", "view", "physics-hz", "substeps", "floor-drag",
 * "anchor-x", "anchor-y" (GtkDropDown: 0 left/top, 1 centre, 2 right/bottom). */
GtkWidget *tess_level_properties_dialog_get_field(TessLevelPropertiesDialog *self, const char *field);
/* Validates and applies the settings; FALSE (and a message in the dialog) when refused. */
gboolean tess_level_properties_dialog_apply(TessLevelPropertiesDialog *self);
/* The dialog's message (why the settings were refused), or "". */
const char *tess_level_properties_dialog_get_message(TessLevelPropertiesDialog *self);

G_END_DECLS
