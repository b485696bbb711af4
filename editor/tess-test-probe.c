/* The widget probe of the end-to-end journeys: one line per visible widget,
 *   WINDOW-TITLE <tab> KIND <tab> TEXT <tab> X <tab> Y <tab> W <tab> H
 * (KIND: window, label, button, field, text (a text field's content), widget)
 * with X, Y in the toplevel X window's coordinates (a popover's widgets
 * included: its position is added), rewritten atomically when it changes. */
#include "tess-test-probe.h"

#include <string.h>

/* Where (0, 0) of a native's widget coordinates is in its toplevel's X window. */
static gboolean native_offset(GtkNative *native, double *x, double *y) {
  double sx = 0, sy = 0;
  gtk_native_get_surface_transform(native, &sx, &sy);
  *x = sx;
  *y = sy;
  if (!GTK_IS_POPOVER(native)) return TRUE;
  GdkSurface *surface = gtk_native_get_surface(native);
  GtkWidget *parent = gtk_widget_get_parent(GTK_WIDGET(native));
  GtkNative *up = parent ? gtk_widget_get_native(parent) : NULL;
  if (!surface || !GDK_IS_POPUP(surface) || !up) return FALSE;
  double ux, uy;
  if (!native_offset(up, &ux, &uy)) return FALSE;
  /* The popup's position is relative to its parent surface's origin. */
  double px, py;
  gtk_native_get_surface_transform(up, &px, &py);
  *x += gdk_popup_get_position_x(GDK_POPUP(surface)) + ux - px;
  *y += gdk_popup_get_position_y(GDK_POPUP(surface)) + uy - py;
  return TRUE;
}

static const char *widget_text(GtkWidget *w, const char **kind) {
  if (GTK_IS_TEXT(w)) { /* what a field holds: the journeys check that typed keys arrived */
    *kind = "text";
    return gtk_editable_get_text(GTK_EDITABLE(w));
  }
  if (GTK_IS_INSCRIPTION(w)) { /* the file chooser's rows */
    *kind = "label";
    return gtk_inscription_get_text(GTK_INSCRIPTION(w));
  }
  if (GTK_IS_LABEL(w)) {
    *kind = "label";
    return gtk_label_get_text(GTK_LABEL(w));
  }
  if (GTK_IS_BUTTON(w) || GTK_IS_MENU_BUTTON(w) || GTK_IS_DROP_DOWN(w) || GTK_IS_CHECK_BUTTON(w)) {
    *kind = "button";
    const char *tip = gtk_widget_get_tooltip_text(w);
    if (tip) return tip;
    /* The label as drawn (a button's own label keeps its mnemonic "_"). */
    if (GTK_IS_BUTTON(w) && GTK_IS_LABEL(gtk_button_get_child(GTK_BUTTON(w))))
      return gtk_label_get_text(GTK_LABEL(gtk_button_get_child(GTK_BUTTON(w))));
    if (GTK_IS_CHECK_BUTTON(w) && gtk_check_button_get_label(GTK_CHECK_BUTTON(w)))
      return gtk_check_button_get_label(GTK_CHECK_BUTTON(w));
    return NULL;
  }
  *kind = "widget";
  return gtk_widget_get_tooltip_text(w);
}

static void put_line(GString *out, const char *title, const char *kind, const char *text, GtkWidget *w,
                     GtkNative *native, double ox, double oy) {
  graphene_rect_t r;
  if (!gtk_widget_compute_bounds(w, GTK_WIDGET(native), &r)) return;
  g_autofree char *flat = g_strdelimit(g_strdup(text), "\t\n", ' ');
  g_string_append_printf(out, "%s\t%s\t%s\t%d\t%d\t%d\t%d\n", title, kind, flat, (int)(r.origin.x + ox),
                         (int)(r.origin.y + oy), (int)r.size.width, (int)r.size.height);
}

static void walk(GString *out, const char *title, GtkWidget *w) {
  if (!gtk_widget_get_mapped(w)) return;
  GtkNative *native = gtk_widget_get_native(w);
  double ox, oy;
  if (native && native_offset(native, &ox, &oy)) {
    const char *kind = NULL;
    const char *text = widget_text(w, &kind);
    if (text && text[0]) put_line(out, title, kind, text, w, native, ox, oy);
    /* A field named by its label ("_Margin"): the field itself, under the label's words. */
    if (GTK_IS_LABEL(w) && gtk_label_get_mnemonic_widget(GTK_LABEL(w)) && text && text[0]) {
      GtkWidget *field = gtk_label_get_mnemonic_widget(GTK_LABEL(w));
      if (gtk_widget_get_mapped(field)) put_line(out, title, "field", text, field, gtk_widget_get_native(field), ox, oy);
    }
  }
  for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c)) walk(out, title, c);
}

static gboolean probe(gpointer user) {
  const char *path = g_getenv("TESS_TEST_PROBE_FILE");
  static char *last;
  GString *out = g_string_new(NULL);
  GListModel *tops = gtk_window_get_toplevels(); /* borrowed */
  for (guint i = 0; i < g_list_model_get_n_items(tops); i++) {
    g_autoptr(GtkWindow) win = g_list_model_get_item(tops, i);
    if (!gtk_widget_get_mapped(GTK_WIDGET(win))) continue;
    const char *title = gtk_window_get_title(win);
    g_string_append_printf(out, "%s\twindow\t%s\t0\t0\t%d\t%d\n", title ? title : "", title ? title : "",
                           gtk_widget_get_width(GTK_WIDGET(win)), gtk_widget_get_height(GTK_WIDGET(win)));
    walk(out, title ? title : "", GTK_WIDGET(win));
  }
  if (g_strcmp0(last, out->str) != 0) {
    g_file_set_contents(path, out->str, (gssize)out->len, NULL); /* a temporary file renamed: never half read */
    g_free(last);
    last = g_strdup(out->str);
  }
  g_string_free(out, TRUE);
  return G_SOURCE_CONTINUE;
}

void tess_test_probe_install(void) {
  if (!g_getenv("TESS_TEST_PROBE_FILE")) return;
  g_timeout_add(100, probe, NULL);
}
