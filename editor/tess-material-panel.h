/* TessMaterialPanel: the project's materials (the material brush paints
 * the selected one) and the inspector of the selected material: name,
 * colour, kind, friction, restitution, tangential efficiency, density.
 * Values outside their range, letters and NaN are refused in the field and
 * never reach the project. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_MATERIAL_PANEL (tess_material_panel_get_type())
G_DECLARE_FINAL_TYPE(TessMaterialPanel, tess_material_panel, TESS, MATERIAL_PANEL, GtkBox)

GtkWidget *tess_material_panel_new(void);
void tess_material_panel_set_document(TessMaterialPanel *self, TessDocument *doc);
TessId tess_material_panel_get_selected(TessMaterialPanel *self);
void tess_material_panel_select(TessMaterialPanel *self, TessId material);

/* The inspector's editors by field name: "name" (GtkEntry), "color"
 * (GtkColorButton), "kind" (GtkDropDown), "friction", "restitution",
 * "tangential", "density" (GtkSpinButton). For tests and accessibility. */
GtkWidget *tess_material_panel_get_field(TessMaterialPanel *self, const char *field);

gboolean tess_material_panel_add(TessMaterialPanel *self);
gboolean tess_material_panel_duplicate(TessMaterialPanel *self);
/* Removes the selected material; cells and bodies using it get `replacement` (0 = none). */
gboolean tess_material_panel_remove(TessMaterialPanel *self, TessId replacement);

/* Signal "material-selected" (guint id). */

G_END_DECLS
