/* TessObjectInspector: edits the selected object of a level: name, body
 * type, material, sensor flag, collision category and mask bits,
 * pin-on-overlap, a zone's force, a pin's angle limits and motor, a
 * distance joint's length, and typed custom properties (string, int,
 * float, bool, colour). Each change is one undoable edit. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

#define TESS_TYPE_OBJECT_INSPECTOR (tess_object_inspector_get_type())
G_DECLARE_FINAL_TYPE(TessObjectInspector, tess_object_inspector, TESS, OBJECT_INSPECTOR, GtkBox)

GtkWidget *tess_object_inspector_new(void);
void tess_object_inspector_set_document(TessObjectInspector *self, TessDocument *doc);
void tess_object_inspector_set_object(TessObjectInspector *self, TessId level, TessId object); /* 0 = none */
TessId tess_object_inspector_get_object(TessObjectInspector *self);

/* Applies a changed copy of the object (validated first). Used by the
 * editors inside the inspector and by tests. */
gboolean tess_object_inspector_apply(TessObjectInspector *self, const TessObject *changed);
/* Adds (or replaces) a custom property on the inspected object. */
gboolean tess_object_inspector_set_property(TessObjectInspector *self, const TessProperty *prop);
gboolean tess_object_inspector_remove_property(TessObjectInspector *self, const char *name);

/* What the object tool places next (chosen at the top of the inspector:
 * circle, box, capsule, spawn point, force zone, pin or distance joint).
 * Signal "template-changed" (no arguments) when the choice changes. */
const TessObject *tess_object_inspector_get_template(TessObjectInspector *self);
void tess_object_inspector_set_template_kind(TessObjectInspector *self, guint index);
/* "Place on the Map" from the Sprites tab: the object tool places this
 * sprite body (copied), and the dropdown says "Sprite". */
void tess_object_inspector_set_sprite_template(TessObjectInspector *self, const TessObject *tmpl);
GtkDropDown *tess_object_inspector_get_template_choice(TessObjectInspector *self);

G_END_DECLS
