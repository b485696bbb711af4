/* TessLayersPanel: the left side bar. The levels of the project and the
 * layers of the chosen level (add, remove, rename, reorder, show/hide, lock,
 * opacity, collides), every change through tess_edit_* + commit. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_LAYERS_PANEL (tess_layers_panel_get_type())
G_DECLARE_FINAL_TYPE(TessLayersPanel, tess_layers_panel, TESS, LAYERS_PANEL, GtkBox)

GtkWidget *tess_layers_panel_new(void);
void tess_layers_panel_set_document(TessLayersPanel *self, TessDocument *doc); /* NULL clears */
TessId tess_layers_panel_get_level(TessLayersPanel *self);
TessId tess_layers_panel_get_layer(TessLayersPanel *self);
void tess_layers_panel_select_level(TessLayersPanel *self, TessId level);
void tess_layers_panel_select_layer(TessLayersPanel *self, TessId layer);

/* The panel's operations on the chosen layer (its buttons call these;
 * tests drive them directly). Each is one undoable edit. */
gboolean tess_layers_panel_add_layer(TessLayersPanel *self, TessLayerKind kind);
gboolean tess_layers_panel_remove_layer(TessLayersPanel *self);
gboolean tess_layers_panel_move_layer(TessLayersPanel *self, int delta); /* +1 = up */
gboolean tess_layers_panel_rename_layer(TessLayersPanel *self, TessId layer, const char *name);
gboolean tess_layers_panel_add_level(TessLayersPanel *self);
gboolean tess_layers_panel_remove_level(TessLayersPanel *self);
/* The Levels list's scrolled window and the height of one of its rows (tests). */
GtkWidget *tess_layers_panel_get_levels_view(TessLayersPanel *self);
int tess_layers_panel_get_level_row_height(TessLayersPanel *self);

/* Signals: "level-selected" (guint id), "layer-selected" (guint id). */

G_END_DECLS
