/* TessScrollArea: draws only the visible part of a large content (see tess-scroll-area.h). */
#include "tess-scroll-area.h"

struct _TessScrollArea {
  GtkWidget parent_instance;
  GtkAdjustment *hadj, *vadj; /* owned (a ref); the scrolled window supplies them */
  GtkScrollablePolicy hpolicy, vpolicy;
  int content_w, content_h;
  TessScrollAreaDrawFunc draw;
  gpointer draw_data;
  GDestroyNotify draw_destroy;
};

enum { PROP_0,
       PROP_HADJUSTMENT,
       PROP_VADJUSTMENT,
       PROP_HSCROLL_POLICY,
       PROP_VSCROLL_POLICY };

G_DEFINE_FINAL_TYPE_WITH_CODE(TessScrollArea, tess_scroll_area, GTK_TYPE_WIDGET,
                              G_IMPLEMENT_INTERFACE(GTK_TYPE_SCROLLABLE, NULL))

/* An adjustment spans the content; its page is the widget's size. The value
 * is kept inside the new range (the content shrank, the widget grew). */
static void configure(GtkAdjustment *adj, int content, int page) {
  if (!adj) return;
  double upper = MAX(content, page);
  double value = CLAMP(gtk_adjustment_get_value(adj), 0.0, upper - page);
  gtk_adjustment_configure(adj, value, 0.0, upper, 16.0, page * 0.9, page);
}

static void configure_both(TessScrollArea *self) {
  configure(self->hadj, self->content_w, gtk_widget_get_width(GTK_WIDGET(self)));
  configure(self->vadj, self->content_h, gtk_widget_get_height(GTK_WIDGET(self)));
}

static void on_value_changed(GtkAdjustment *adj, TessScrollArea *self) { gtk_widget_queue_draw(GTK_WIDGET(self)); }

static void set_adjustment(TessScrollArea *self, GtkAdjustment **slot, GtkAdjustment *adj) {
  if (!adj) adj = gtk_adjustment_new(0, 0, 0, 0, 0, 0);
  if (*slot == adj) return;
  if (*slot) {
    g_signal_handlers_disconnect_by_func(*slot, on_value_changed, self);
    g_object_unref(*slot);
  }
  *slot = g_object_ref_sink(adj);
  g_signal_connect(adj, "value-changed", G_CALLBACK(on_value_changed), self);
  configure_both(self);
}

static double value_of(GtkAdjustment *adj) { return adj ? gtk_adjustment_get_value(adj) : 0.0; }

void tess_scroll_area_get_offset(TessScrollArea *self, double *x, double *y) {
  *x = value_of(self->hadj);
  *y = value_of(self->vadj);
}

void tess_scroll_area_widget_to_content(TessScrollArea *self, double x, double y, double *cx, double *cy) {
  *cx = x + value_of(self->hadj);
  *cy = y + value_of(self->vadj);
}

void tess_scroll_area_scroll_to(TessScrollArea *self, double cx, double cy, double x, double y) {
  /* gtk_adjustment_set_value clamps to [lower, upper - page]. */
  if (self->hadj) gtk_adjustment_set_value(self->hadj, cx - x);
  if (self->vadj) gtk_adjustment_set_value(self->vadj, cy - y);
}

void tess_scroll_area_set_content_size(TessScrollArea *self, int width, int height) {
  g_return_if_fail(TESS_IS_SCROLL_AREA(self));
  width = MAX(width, 0);
  height = MAX(height, 0);
  if (width != self->content_w || height != self->content_h) {
    self->content_w = width;
    self->content_h = height;
    configure_both(self);
    gtk_widget_queue_resize(GTK_WIDGET(self));
  }
  gtk_widget_queue_draw(GTK_WIDGET(self));
}

void tess_scroll_area_get_content_size(TessScrollArea *self, int *width, int *height) {
  *width = self->content_w;
  *height = self->content_h;
}

void tess_scroll_area_set_draw_func(TessScrollArea *self, TessScrollAreaDrawFunc draw, gpointer user_data,
                                    GDestroyNotify destroy) {
  if (self->draw_destroy) self->draw_destroy(self->draw_data);
  self->draw = draw;
  self->draw_data = user_data;
  self->draw_destroy = destroy;
  gtk_widget_queue_draw(GTK_WIDGET(self));
}

/* ---- GtkWidget ------------------------------------------------------------- */

/* At least nothing (the scrolled window gives it the room there is); at
 * best the whole content, as a drawing area of that size would ask. */
static void tess_scroll_area_measure(GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                                     int *natural, int *minimum_baseline, int *natural_baseline) {
  TessScrollArea *self = TESS_SCROLL_AREA(widget);
  *minimum = 0;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? self->content_w : self->content_h;
}

static void tess_scroll_area_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
  configure_both(TESS_SCROLL_AREA(widget));
}

void tess_scroll_area_draw_view(TessScrollArea *self, cairo_t *cr) {
  int w = gtk_widget_get_width(GTK_WIDGET(self)), h = gtk_widget_get_height(GTK_WIDGET(self));
  if (!self->draw || w <= 0 || h <= 0) return;
  double x = value_of(self->hadj), y = value_of(self->vadj);
  cairo_save(cr);
  cairo_rectangle(cr, 0, 0, w, h);
  cairo_clip(cr);
  cairo_translate(cr, -x, -y);
  self->draw(self, cr, x, y, w, h, self->draw_data);
  cairo_restore(cr);
}

static void tess_scroll_area_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
  int w = gtk_widget_get_width(widget), h = gtk_widget_get_height(widget);
  if (w <= 0 || h <= 0) return;
  /* One surface of the widget's size, whatever the content's. */
  cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &GRAPHENE_RECT_INIT(0, 0, w, h));
  tess_scroll_area_draw_view(TESS_SCROLL_AREA(widget), cr);
  cairo_destroy(cr);
}

/* ---- GObject ----------------------------------------------------------------- */

static void tess_scroll_area_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  TessScrollArea *self = TESS_SCROLL_AREA(object);
  switch (id) {
    case PROP_HADJUSTMENT: g_value_set_object(value, self->hadj); break;
    case PROP_VADJUSTMENT: g_value_set_object(value, self->vadj); break;
    case PROP_HSCROLL_POLICY: g_value_set_enum(value, self->hpolicy); break;
    case PROP_VSCROLL_POLICY: g_value_set_enum(value, self->vpolicy); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_scroll_area_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  TessScrollArea *self = TESS_SCROLL_AREA(object);
  switch (id) {
    case PROP_HADJUSTMENT: set_adjustment(self, &self->hadj, g_value_get_object(value)); break;
    case PROP_VADJUSTMENT: set_adjustment(self, &self->vadj, g_value_get_object(value)); break;
    case PROP_HSCROLL_POLICY: self->hpolicy = g_value_get_enum(value); break;
    case PROP_VSCROLL_POLICY: self->vpolicy = g_value_get_enum(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void tess_scroll_area_dispose(GObject *object) {
  TessScrollArea *self = TESS_SCROLL_AREA(object);
  tess_scroll_area_set_draw_func(self, NULL, NULL, NULL);
  if (self->hadj) g_signal_handlers_disconnect_by_func(self->hadj, on_value_changed, self);
  if (self->vadj) g_signal_handlers_disconnect_by_func(self->vadj, on_value_changed, self);
  g_clear_object(&self->hadj);
  g_clear_object(&self->vadj);
  G_OBJECT_CLASS(tess_scroll_area_parent_class)->dispose(object);
}

static void tess_scroll_area_class_init(TessScrollAreaClass *klass) {
  GObjectClass *oc = G_OBJECT_CLASS(klass);
  GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
  oc->get_property = tess_scroll_area_get_property;
  oc->set_property = tess_scroll_area_set_property;
  oc->dispose = tess_scroll_area_dispose;
  wc->measure = tess_scroll_area_measure;
  wc->size_allocate = tess_scroll_area_size_allocate;
  wc->snapshot = tess_scroll_area_snapshot;
  g_object_class_override_property(oc, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property(oc, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property(oc, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property(oc, PROP_VSCROLL_POLICY, "vscroll-policy");
}

static void tess_scroll_area_init(TessScrollArea *self) {
  gtk_widget_set_overflow(GTK_WIDGET(self), GTK_OVERFLOW_HIDDEN);
}

GtkWidget *tess_scroll_area_new(void) { return g_object_new(TESS_TYPE_SCROLL_AREA, NULL); }
