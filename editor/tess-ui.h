/* Small helpers the panels and dialogs share: reporting an error to the
 * window, committing an edit, message dialogs, colours. */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"

G_BEGIN_DECLS

/* Shows a (translated) message in the window that holds `widget`, through
 * the "win.report" action (the window's message bar); the one way errors
 * go up. Without such an action (no window yet) the message is logged. */
void tess_ui_report(GtkWidget *widget, const char *message);

/* A short message in the window's toast (over the map, never moving the
 * layout), with an optional button activating `action_name`. */
void tess_ui_notify(GtkWidget *widget, const char *message, const char *button_label, const char *action_name);

/* The usual end of an edit: when r failed, reports it and returns FALSE;
 * otherwise commits the document (reporting a failed commit) and returns
 * TRUE when the edit is in the project. */
gboolean tess_ui_apply(GtkWidget *widget, TessDocument *doc, TessResult r, const TessError *err);

/* A modal error dialog: primary text and a secondary explanation. Does not
 * block; destroyed when answered. Returns the dialog (tests answer it). */
GtkWidget *tess_ui_error_dialog(GtkWindow *parent, const char *primary, const char *secondary);

/* 0xRRGGBBAA <-> GdkRGBA */
void tess_ui_rgba_from_u32(uint32_t color, GdkRGBA *rgba);
uint32_t tess_ui_rgba_to_u32(const GdkRGBA *rgba);

/* Parses a number the way the user types it (locale decimal point or '.');
 * FALSE for letters, trailing junk, NaN and infinities. */
gboolean tess_ui_parse_number(const char *text, double *out);

/* A GtkSpinButton that refuses letters, NaN and infinities (the value stays
 * as it was and the text is restored). */
GtkWidget *tess_ui_spin_new(double lower, double upper, double step, guint digits);
/* The same, made of a GtkSpinButton a template holds. */
void tess_ui_spin_setup(GtkWidget *spin, double lower, double upper, double step, guint digits);

/* A number field held to a range core defines (tess_surface_range,
 * tess_material_density_range, tess_object_range): text that is not a
 * number, or a number out of range, is refused, the field keeps its value
 * and a message right under it says why, naming the field with `what`
 * (translated, "Friction"). The message goes when a value is accepted. */
GtkWidget *tess_ui_number_new(TessRange range, double step, guint digits, const char *what);
/* The same, made of a GtkSpinButton a template holds (its adjustment is
 * reshaped to the range, so a scale sharing it follows). Once per field. */
void tess_ui_number_setup(GtkWidget *spin, TessRange range, double step, guint digits, const char *what);
/* TRUE (once) when the value that just changed was typed and committed
 * (Enter, focus out) rather than stepped by the arrows, a drag or code: a
 * typed value is an undo step of its own. */
gboolean tess_ui_number_take_typed(GtkWidget *spin);
/* A range as a tooltip says it: "0 to 1", "more than 0, up to 1000000". */
char *tess_ui_range_text(TessRange range);
/* Sets a number field's tooltip to "ABOUT (RANGE)", RANGE being the field's
 * own, core's: a tooltip never writes a range itself, so it cannot drift
 * from what core accepts, and says it once. */
void tess_ui_number_set_tooltip(GtkWidget *spin, const char *about);
/* The message the field shows now, or NULL. */
const char *tess_ui_number_get_message(GtkWidget *spin);

/* A small square of colour (the material palette's swatches). */
GtkWidget *tess_ui_swatch_new(uint32_t color);
void tess_ui_swatch_set(GtkWidget *swatch, uint32_t color);

/* Copies a name into a TESS_NAME_MAX buffer, trimmed, cut at a character
 * boundary. FALSE (dst untouched) when the name is empty. */
gboolean tess_ui_copy_name(char *dst, const char *src);

/* Decodes PNG bytes with core/image into a cairo surface (premultiplied
 * ARGB32). NULL with r/err filled when the bytes are not a usable PNG. */
cairo_surface_t *tess_ui_surface_from_png(const uint8_t *png, size_t size, const char *name, TessResult *r,
                                          TessError *err);

/* A shortcut calling fn (with args, if any) on the controller's widget. */
void tess_ui_add_shortcut(GtkShortcutController *c, const char *accel, GtkShortcutFunc fn, GVariant *args);
/* Escape and Ctrl+W close the window the controller is on. */
void tess_ui_add_close_keys(GtkShortcutController *c);

G_END_DECLS
