#include "tess-ui.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>

#include "tessera/image.h"
#include <string.h>

/* One path for every refusal and failure: the window's actions "win.report"
 * (the message bar) and "win.notify" (the toast), which the window (or a
 * test's stand-in) provides; a widget never calls up into the window's code. */
void tess_ui_report(GtkWidget *widget, const char *message) {
  if (!widget || !gtk_widget_activate_action(widget, "win.report", "s", message)) g_message("%s", message);
}

void tess_ui_notify(GtkWidget *widget, const char *message, const char *button_label, const char *action_name) {
  /* (message, button label, action); "" for no button */
  if (!widget || !gtk_widget_activate_action(widget, "win.notify", "(sss)", message, button_label ? button_label : "",
                                             action_name ? action_name : ""))
    g_message("%s", message);
}

gboolean tess_ui_apply(GtkWidget *widget, TessDocument *doc, TessResult r, const TessError *err) {
  if (r != TESS_OK) {
    g_autofree char *msg = tess_document_describe_error(r, err);
    tess_ui_report(widget, msg);
    return FALSE;
  }
  g_autoptr(GError) error = NULL;
  if (!tess_document_commit(doc, &error)) tess_ui_report(widget, error->message);
  return TRUE;
}

static void on_error_response(GtkDialog *dialog, int response, gpointer user) {
  gtk_window_destroy(GTK_WINDOW(dialog));
}

GtkWidget *tess_ui_error_dialog(GtkWindow *parent, const char *primary, const char *secondary) {
  GtkWidget *dialog = gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                             GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);
  if (secondary) gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s", secondary);
  gtk_widget_add_css_class(dialog, "tess-error-dialog");
  g_signal_connect(dialog, "response", G_CALLBACK(on_error_response), NULL);
  gtk_window_present(GTK_WINDOW(dialog));
  return dialog;
}

void tess_ui_rgba_from_u32(uint32_t color, GdkRGBA *rgba) {
  rgba->red = ((color >> 24) & 0xFF) / 255.0f;
  rgba->green = ((color >> 16) & 0xFF) / 255.0f;
  rgba->blue = ((color >> 8) & 0xFF) / 255.0f;
  rgba->alpha = (color & 0xFF) / 255.0f;
}

static uint32_t channel(float v) {
  if (!(v >= 0.0f)) return 0;
  if (v >= 1.0f) return 255;
  return (uint32_t)lrintf(v * 255.0f);
}

uint32_t tess_ui_rgba_to_u32(const GdkRGBA *rgba) {
  return (channel(rgba->red) << 24) | (channel(rgba->green) << 16) | (channel(rgba->blue) << 8) |
         channel(rgba->alpha);
}

gboolean tess_ui_parse_number(const char *text, double *out) {
  if (text == NULL) return FALSE;
  while (g_ascii_isspace(*text)) text++;
  if (*text == '\0') return FALSE;
  /* Only digits, signs, one decimal mark and an exponent: "nan", "inf" and
   * words never reach strtod. */
  g_autofree char *copy = g_strstrip(g_strdup(text));
  for (char *c = copy; *c; c++) {
    if (*c == ',') *c = '.'; /* a comma decimal mark, as the French type it */
    if (!(g_ascii_isdigit(*c) || *c == '.' || *c == '-' || *c == '+' || *c == 'e' || *c == 'E')) return FALSE;
  }
  char *end = NULL;
  double v = g_ascii_strtod(copy, &end);
  if (end == copy || *end != '\0' || !isfinite(v)) return FALSE;
  *out = v;
  return TRUE;
}

static int on_spin_input(GtkSpinButton *spin, double *new_value, gpointer user) {
  double v;
  if (!tess_ui_parse_number(gtk_editable_get_text(GTK_EDITABLE(spin)), &v)) {
    gtk_widget_error_bell(GTK_WIDGET(spin));
    *new_value = gtk_spin_button_get_value(spin); /* keep what was there */
    return TRUE;
  }
  *new_value = v;
  return TRUE;
}

void tess_ui_spin_setup(GtkWidget *widget, double lower, double upper, double step, guint digits) {
  GtkSpinButton *spin = GTK_SPIN_BUTTON(widget);
  GtkAdjustment *adj = gtk_spin_button_get_adjustment(spin);
  gtk_adjustment_configure(adj, lower, lower, upper, step, 10 * step, 0);
  gtk_spin_button_configure(spin, adj, step, digits);
  gtk_spin_button_set_numeric(spin, TRUE);
  gtk_spin_button_set_update_policy(spin, GTK_UPDATE_IF_VALID);
  g_signal_connect(spin, "input", G_CALLBACK(on_spin_input), NULL);
}

GtkWidget *tess_ui_spin_new(double lower, double upper, double step, guint digits) {
  GtkWidget *spin = gtk_spin_button_new_with_range(lower, upper, step);
  tess_ui_spin_setup(spin, lower, upper, step, digits);
  return spin;
}

/* ---- Number fields held to a range core defines ---------------------------- */

typedef struct NumberField {
  TessRange range;
  char *what;       /* the field's name in messages ("Friction") */
  char *message;    /* what the field says now, NULL when all is well */
  GtkWidget *label; /* the inline message, while shown */
  gboolean typed;   /* the next value change is a typed, committed value */
} NumberField;

static void number_field_free(gpointer data) {
  NumberField *f = data;
  g_free(f->what);
  g_free(f->message);
  g_free(f);
}

static char *range_sentence(const NumberField *f) {
  g_autofree char *lo = g_strdup_printf("%g", f->range.lo), *hi = g_strdup_printf("%g", f->range.hi);
  if (f->range.lo_open) return g_strdup_printf(_("%s must be more than %s and at most %s."), f->what, lo, hi);
  return g_strdup_printf(_("%s must be between %s and %s."), f->what, lo, hi);
}

/* The message goes right under the field (the HIG's inline validation): a
 * row inserted below it in a grid, or the next child in a box. */
static void number_field_show(GtkWidget *spin, NumberField *f, const char *message) {
  g_free(f->message);
  f->message = g_strdup(message);
  gtk_widget_add_css_class(spin, "error");
  if (f->label) {
    gtk_label_set_text(GTK_LABEL(f->label), message);
    return;
  }
  GtkWidget *parent = gtk_widget_get_parent(spin);
  GtkWidget *label = gtk_label_new(message);
  gtk_label_set_xalign(GTK_LABEL(label), 0);
  gtk_label_set_wrap(GTK_LABEL(label), TRUE);
  gtk_label_set_max_width_chars(GTK_LABEL(label), 30);
  gtk_widget_add_css_class(label, "error");
  gtk_widget_add_css_class(label, "caption");
  gtk_widget_set_name(label, "tess-field-message");
  if (GTK_IS_GRID(parent)) {
    gtk_grid_insert_next_to(GTK_GRID(parent), spin, GTK_POS_BOTTOM);
    gtk_grid_attach_next_to(GTK_GRID(parent), label, spin, GTK_POS_BOTTOM, 1, 1);
  } else if (GTK_IS_BOX(parent)) {
    gtk_box_insert_child_after(GTK_BOX(parent), label, spin);
  } else {
    g_object_ref_sink(label);
    g_object_unref(label);
    tess_ui_report(spin, message);
    return;
  }
  f->label = label;
}

static void number_field_clear(GtkWidget *spin, NumberField *f) {
  g_clear_pointer(&f->message, g_free);
  gtk_widget_remove_css_class(spin, "error");
  if (!f->label) return;
  GtkWidget *parent = gtk_widget_get_parent(f->label);
  if (GTK_IS_GRID(parent)) {
    int column, row, width, height;
    gtk_grid_query_child(GTK_GRID(parent), f->label, &column, &row, &width, &height);
    gtk_grid_remove_row(GTK_GRID(parent), row); /* the row we inserted holds only the message */
  } else if (GTK_IS_BOX(parent)) {
    gtk_box_remove(GTK_BOX(parent), f->label);
  }
  f->label = NULL;
}

static int on_number_input(GtkSpinButton *spin, double *new_value, NumberField *f) {
  const char *text = gtk_editable_get_text(GTK_EDITABLE(spin));
  double v;
  *new_value = gtk_spin_button_get_value(spin); /* a refusal keeps what was there */
  g_autofree char *why = range_sentence(f);
  g_autofree char *typed = g_strstrip(g_strdup(text));
  if (!tess_ui_parse_number(text, &v)) {
    g_autofree char *msg = *typed ? g_strdup_printf(_("“%s” is not a number. %s"), typed, why)
                                  : g_strdup_printf(_("Type a number. %s"), why);
    gtk_widget_error_bell(GTK_WIDGET(spin));
    number_field_show(GTK_WIDGET(spin), f, msg);
    return TRUE;
  }
  if (!tess_range_contains(f->range, v)) {
    g_autofree char *msg = g_strdup_printf(_("“%s” is out of range. %s"), typed, why);
    gtk_widget_error_bell(GTK_WIDGET(spin));
    number_field_show(GTK_WIDGET(spin), f, msg);
    return TRUE;
  }
  number_field_clear(GTK_WIDGET(spin), f);
  f->typed = v != *new_value;
  *new_value = v;
  return TRUE;
}

static void on_number_value_changed(GtkSpinButton *spin, NumberField *f) {
  if (f->message) number_field_clear(GTK_WIDGET(spin), f);
}

void tess_ui_number_setup(GtkWidget *widget, TessRange range, double step, guint digits, const char *what) {
  GtkSpinButton *spin = GTK_SPIN_BUTTON(widget);
  g_return_if_fail(g_object_get_data(G_OBJECT(spin), "tess-number-field") == NULL);
  /* The arrows stay inside the range: an open lower end starts one shown digit above it. */
  double lo = range.lo_open ? range.lo + pow(10.0, -(double)digits) : range.lo;
  /* The field's own adjustment, reshaped: a slider sharing it (a template's
   * scale beside the field) follows. */
  GtkAdjustment *adj = gtk_spin_button_get_adjustment(spin);
  gtk_adjustment_configure(adj, lo, lo, range.hi, step, 10 * step, 0);
  gtk_spin_button_configure(spin, adj, step, digits);
  /* Not numeric: GTK would drop letters and the "e" of 1e9 as they are
   * typed (1e9 became 19); the input handler reads what was typed and says
   * what is wrong with it. */
  gtk_spin_button_set_numeric(spin, FALSE);
  gtk_spin_button_set_update_policy(spin, GTK_UPDATE_IF_VALID);
  /* The project's undo is the only undo of a number: the text's own undo
   * history blanked the field on an extra Ctrl+Z. */
  gtk_editable_set_enable_undo(GTK_EDITABLE(spin), FALSE);
  NumberField *f = g_new0(NumberField, 1);
  f->range = range;
  f->what = g_strdup(what);
  g_object_set_data_full(G_OBJECT(spin), "tess-number-field", f, number_field_free);
  g_signal_connect(spin, "input", G_CALLBACK(on_number_input), f);
  g_signal_connect(spin, "value-changed", G_CALLBACK(on_number_value_changed), f);
}

GtkWidget *tess_ui_number_new(TessRange range, double step, guint digits, const char *what) {
  double lo = range.lo_open ? range.lo + pow(10.0, -(double)digits) : range.lo;
  GtkWidget *spin = gtk_spin_button_new_with_range(lo, range.hi, step);
  tess_ui_number_setup(spin, range, step, digits, what);
  return spin;
}

gboolean tess_ui_number_take_typed(GtkWidget *spin) {
  NumberField *f = spin ? g_object_get_data(G_OBJECT(spin), "tess-number-field") : NULL;
  gboolean typed = f && f->typed;
  if (f) f->typed = FALSE;
  return typed;
}

char *tess_ui_range_text(TessRange range) {
  /* %.10g: a million reads 1000000, not 1e+06. */
  g_autofree char *lo = g_strdup_printf("%.10g", range.lo), *hi = g_strdup_printf("%.10g", range.hi);
  if (range.lo_open) return g_strdup_printf(_("more than %s, up to %s"), lo, hi);
  return g_strdup_printf(_("%s to %s"), lo, hi);
}

void tess_ui_number_set_tooltip(GtkWidget *spin, const char *about) {
  NumberField *f = spin ? g_object_get_data(G_OBJECT(spin), "tess-number-field") : NULL;
  g_return_if_fail(f != NULL);
  g_autofree char *range = tess_ui_range_text(f->range);
  /* TRANSLATORS: a number field's tooltip: what the number is, then the numbers it accepts. */
  g_autofree char *text = g_strdup_printf(_("%s (%s)"), about, range);
  gtk_widget_set_tooltip_text(spin, text);
}

const char *tess_ui_number_get_message(GtkWidget *spin) {
  NumberField *f = spin ? g_object_get_data(G_OBJECT(spin), "tess-number-field") : NULL;
  return f ? f->message : NULL;
}

static void draw_swatch(GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer user) {
  uint32_t color = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(area), "tess-color"));
  GdkRGBA rgba;
  tess_ui_rgba_from_u32(color, &rgba);
  /* A checkerboard under translucent colours. */
  cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
  cairo_paint(cr);
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
  for (int y = 0; y < h; y += 4)
    for (int x = (y / 4) % 2 * 4; x < w; x += 8) cairo_rectangle(cr, x, y, 4, 4);
  cairo_fill(cr);
  gdk_cairo_set_source_rgba(cr, &rgba);
  cairo_paint(cr);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.4);
  cairo_rectangle(cr, 0.5, 0.5, w - 1, h - 1);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
}

GtkWidget *tess_ui_swatch_new(uint32_t color) {
  GtkWidget *area = gtk_drawing_area_new();
  gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(area), 16);
  gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(area), 16);
  gtk_widget_set_valign(area, GTK_ALIGN_CENTER);
  g_object_set_data(G_OBJECT(area), "tess-color", GUINT_TO_POINTER(color));
  gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(area), draw_swatch, NULL, NULL);
  return area;
}

void tess_ui_swatch_set(GtkWidget *swatch, uint32_t color) {
  g_object_set_data(G_OBJECT(swatch), "tess-color", GUINT_TO_POINTER(color));
  gtk_widget_queue_draw(swatch);
}

gboolean tess_ui_copy_name(char *dst, const char *src) {
  if (src == NULL) return FALSE;
  g_autofree char *clean = g_strstrip(g_strdup(src));
  if (*clean == '\0' || !g_utf8_validate(clean, -1, NULL)) return FALSE;
  const char *end = clean;
  while (*end && (size_t)(g_utf8_next_char(end) - clean) < TESS_NAME_MAX) end = g_utf8_next_char(end);
  memcpy(dst, clean, (size_t)(end - clean));
  dst[end - clean] = '\0';
  return TRUE;
}

cairo_surface_t *tess_ui_surface_from_png(const uint8_t *png, size_t size, const char *name, TessResult *r_out,
                                          TessError *err) {
  TessImage img = {0};
  TessResult r = tess_png_decode(png, size, name, &img, err);
  if (r_out) *r_out = r;
  if (r != TESS_OK) return NULL;
  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)img.width, (int)img.height);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    tess_image_clear(&img);
    cairo_surface_destroy(surface);
    if (r_out) *r_out = TESS_ERR_NOMEM;
    return NULL;
  }
  cairo_surface_flush(surface);
  uint8_t *dst = cairo_image_surface_get_data(surface);
  int stride = cairo_image_surface_get_stride(surface);
  for (uint32_t y = 0; y < img.height; y++) {
    const uint8_t *s = img.pixels + (size_t)y * img.stride;
    uint32_t *d = (uint32_t *)(dst + (size_t)y * (size_t)stride);
    for (uint32_t x = 0; x < img.width; x++) {
      uint32_t a = s[4 * x + 3];
      uint32_t rr = (s[4 * x] * a + 127) / 255, gg = (s[4 * x + 1] * a + 127) / 255, bb = (s[4 * x + 2] * a + 127) / 255;
      d[x] = (a << 24) | (rr << 16) | (gg << 8) | bb;
    }
  }
  cairo_surface_mark_dirty(surface);
  tess_image_clear(&img);
  return surface;
}

void tess_ui_add_shortcut(GtkShortcutController *c, const char *accel, GtkShortcutFunc fn, GVariant *args) {
  GtkShortcut *s = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(accel), gtk_callback_action_new(fn, NULL, NULL));
  if (args) gtk_shortcut_set_arguments(s, args);
  gtk_shortcut_controller_add_shortcut(c, s);
}

static gboolean on_close_key(GtkWidget *window, GVariant *args, gpointer user) {
  (void)args;
  (void)user;
  gtk_window_close(GTK_WINDOW(window));
  return TRUE;
}

void tess_ui_add_close_keys(GtkShortcutController *c) {
  tess_ui_add_shortcut(c, "Escape", on_close_key, NULL);
  tess_ui_add_shortcut(c, "<Control>w", on_close_key, NULL);
}
