/* TessMaskEditor: a sprite's collision mask, edited. The mask view, the
 * trace controls (mode, alpha threshold, max vertices, tolerance, largest
 * island only, fit circle or box, retrace) and the readouts (area, vertex
 * count, added and uncovered area, centroid, inertia per unit density,
 * principal axes; mass and inertia in SI for a chosen level and material).
 * The overlay follows the threshold slider live; a slider drag is one undo
 * step (from the pointer's press on the slider to its release; keyboard
 * steps or set values of one control less than TESS_MASK_EDITOR_MERGE_MS
 * apart merge too).
 * Each edit goes to the project at once (tess_edit_sprite_set) and is
 * committed to the file shortly after the last change (or by _flush). */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"
#include "tess-mask-view.h"

G_BEGIN_DECLS

#define TESS_MASK_EDITOR_MERGE_MS 600
#define TESS_MASK_EDITOR_COMMIT_MS 250
/* Frames of at least this many pixels are traced on a worker thread (the
 * bench measures about 8 ms per step at 2048 x 2048 and twice that in the
 * worst case, so bigger frames would miss frames); a newer slider value
 * drops the result of an older one. */
#define TESS_MASK_EDITOR_ASYNC_PIXELS ((guint64)2048 * 2048)

#define TESS_TYPE_MASK_EDITOR (tess_mask_editor_get_type())
G_DECLARE_FINAL_TYPE(TessMaskEditor, tess_mask_editor, TESS, MASK_EDITOR, GtkBox)

typedef enum TessMaskReadout {
  TESS_MASK_READOUT_AREA,
  TESS_MASK_READOUT_VERTICES,
  TESS_MASK_READOUT_ADDED,
  TESS_MASK_READOUT_UNCOVERED,
  TESS_MASK_READOUT_CENTROID,
  TESS_MASK_READOUT_INERTIA,
  TESS_MASK_READOUT_SHAPE,
  TESS_MASK_READOUT_AXES,
  TESS_MASK_READOUT_MASS,
  TESS_MASK_READOUT_INERTIA_SI,
  TESS_MASK_READOUT_COUNT
} TessMaskReadout;

GtkWidget *tess_mask_editor_new(void);
void tess_mask_editor_set_document(TessMaskEditor *self, TessDocument *doc);
void tess_mask_editor_set_sprite(TessMaskEditor *self, TessId sprite); /* 0 = none */
TessId tess_mask_editor_get_sprite(TessMaskEditor *self);
/* Tests and tuning: trace on the worker from this many pixels (0 = always). */
void tess_mask_editor_set_async_pixels(TessMaskEditor *self, guint64 pixels);
/* TRUE while a worker trace is running or queued. */
gboolean tess_mask_editor_is_tracing(TessMaskEditor *self);
/* Commits a pending edit now. */
void tess_mask_editor_flush(TessMaskEditor *self);

/* The widgets a user touches (tests drive them as a user would). */
TessMaskView *tess_mask_editor_get_view(TessMaskEditor *self);
GtkRange *tess_mask_editor_get_threshold(TessMaskEditor *self);
GtkSpinButton *tess_mask_editor_get_max_vertices(TessMaskEditor *self);
GtkSpinButton *tess_mask_editor_get_tolerance(TessMaskEditor *self);
GtkDropDown *tess_mask_editor_get_mode(TessMaskEditor *self); /* items in TessMaskMode order */
GtkDropDown *tess_mask_editor_get_level(TessMaskEditor *self);
GtkDropDown *tess_mask_editor_get_material(TessMaskEditor *self);
const char *tess_mask_editor_get_readout(TessMaskEditor *self, TessMaskReadout which);
/* The mask as edited (what the project holds once applied), or NULL. */
const TessSpriteMask *tess_mask_editor_get_mask(TessMaskEditor *self);
/* SI values behind the mass readouts (NAN without a level or material). */
void tess_mask_editor_get_si(TessMaskEditor *self, double *mass_kg, double *inertia_kgm2);

/* A window holding one editor for `sprite` (the sprite panel's button). */
GtkWindow *tess_mask_editor_window_new(GtkWindow *parent, TessDocument *doc, TessId sprite);

G_END_DECLS
