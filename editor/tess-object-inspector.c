/* TessObjectInspector: the selected object's fields. */
#include "tess-object-inspector.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "tess-ui.h"

struct _TessObjectInspector {
  GtkBox parent_instance;

  /* widgets */
  GtkWidget *placeholder;
  GtkDropDown *template_kind;
  GtkWidget *content; /* rebuilt for each object */

  /* owned */
  TessDocument *doc;

  TessObject template_obj;
  TessObject sprite_obj; /* the sprite body last sent from the Sprites tab */
  gboolean has_sprite;   /* the dropdown then lists "Sprite" last */
  TessId level, object;
  gboolean dirty;       /* the object changed since the last build */
  gboolean applying;    /* our own edit: the widgets already show it */
  guint rebuild_source; /* coalesces rebuilds while an object is dragged on the map */
  gulong changed_handler, committed_handler;
};

G_DEFINE_FINAL_TYPE(TessObjectInspector, tess_object_inspector, GTK_TYPE_BOX)

enum { SIGNAL_TEMPLATE_CHANGED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

static void rebuild(TessObjectInspector *self);

static TessProject *project(TessObjectInspector *self) { return self->doc ? tess_document_get_project(self->doc) : NULL; }

static const TessObject *current(TessObjectInspector *self) {
  TessProject *p = project(self);
  TessLevel *level = p ? tess_project_level(p, self->level) : NULL;
  return level && self->object ? tess_level_object(level, self->object, NULL) : NULL;
}

gboolean tess_object_inspector_apply(TessObjectInspector *self, const TessObject *changed) {
  TessError err = {0};
  TessResult r = tess_object_validate(changed, &err);
  if (r == TESS_OK) r = tess_edit_object_set(project(self), self->level, changed, 0, &err);
  self->applying = TRUE;
  gboolean ok = tess_ui_apply(GTK_WIDGET(self), self->doc, r, &err);
  self->applying = FALSE;
  if (!ok) rebuild(self); /* show what is really stored */
  return ok;
}

/* Copies the current object, lets `edit` change it, applies it. */
typedef void (*EditFn)(TessObject *obj, GtkWidget *source, gpointer data);

static gboolean edit_with(TessObjectInspector *self, EditFn fn, GtkWidget *source, gpointer data) {
  const TessObject *cur = current(self);
  if (!cur) return FALSE;
  TessObject copy;
  if (tess_object_copy(&copy, cur) != TESS_OK) return FALSE;
  fn(&copy, source, data);
  gboolean ok = tess_object_inspector_apply(self, &copy);
  tess_object_clear(&copy);
  return ok;
}

gboolean tess_object_inspector_set_property(TessObjectInspector *self, const TessProperty *prop) {
  const TessObject *cur = current(self);
  if (!cur) return FALSE;
  TessObject copy;
  if (tess_object_copy(&copy, cur) != TESS_OK) return FALSE;
  TessResult r = tess_object_set_property(&copy, prop);
  gboolean ok = r == TESS_OK && tess_object_inspector_apply(self, &copy);
  if (r != TESS_OK) tess_ui_apply(GTK_WIDGET(self), self->doc, r, NULL);
  tess_object_clear(&copy);
  if (ok) rebuild(self);
  return ok;
}

gboolean tess_object_inspector_remove_property(TessObjectInspector *self, const char *name) {
  const TessObject *cur = current(self);
  if (!cur) return FALSE;
  TessObject copy;
  if (tess_object_copy(&copy, cur) != TESS_OK) return FALSE;
  gboolean found = FALSE;
  for (uint32_t i = 0; i < copy.prop_count; i++) {
    if (strcmp(copy.props[i].name, name) != 0) continue;
    if (copy.props[i].type == TESS_PROP_STRING) tess_free(copy.props[i].v.s);
    memmove(&copy.props[i], &copy.props[i + 1], (copy.prop_count - i - 1) * sizeof *copy.props);
    copy.prop_count--;
    found = TRUE;
    break;
  }
  gboolean ok = found && tess_object_inspector_apply(self, &copy);
  tess_object_clear(&copy);
  if (ok) rebuild(self);
  return ok;
}

/* ---- Field editors ---------------------------------------------------------- */

static TessObjectInspector *owner(GtkWidget *w) {
  return TESS_OBJECT_INSPECTOR(gtk_widget_get_ancestor(w, TESS_TYPE_OBJECT_INSPECTOR));
}

static void edit_name(TessObject *o, GtkWidget *w, gpointer d) {
  tess_ui_copy_name(o->name, gtk_editable_get_text(GTK_EDITABLE(w)));
}
static void on_name_activate(GtkEntry *e, gpointer d) {
  TessObjectInspector *self = owner(GTK_WIDGET(e));
  const TessObject *cur = current(self);
  char name[TESS_NAME_MAX] = "";
  if (cur && tess_ui_copy_name(name, gtk_editable_get_text(GTK_EDITABLE(e))) && strcmp(name, cur->name) != 0)
    edit_with(self, edit_name, GTK_WIDGET(e), NULL);
}

static void edit_body_type(TessObject *o, GtkWidget *w, gpointer d) { o->u.body.type = (uint8_t)gtk_drop_down_get_selected(GTK_DROP_DOWN(w)); }
static void edit_pin(TessObject *o, GtkWidget *w, gpointer d) { o->u.body.pin = (uint8_t)gtk_drop_down_get_selected(GTK_DROP_DOWN(w)); }
static void edit_integrator(TessObject *o, GtkWidget *w, gpointer d) { o->u.body.integrator = (uint8_t)gtk_drop_down_get_selected(GTK_DROP_DOWN(w)); }
static void edit_zone_kind(TessObject *o, GtkWidget *w, gpointer d) {
  o->u.zone.kind = (uint8_t)gtk_drop_down_get_selected(GTK_DROP_DOWN(w));
  /* a zone turned into a spring keeps its strength only where a spring may have it (an
   * attractor's may be negative or huge), else it starts at one swing a second */
  if (o->u.zone.kind == TESS_ZONE_SPRING &&
      (!tess_range_contains(tess_object_range(TESS_OBJECT_RANGE_SPRING), o->u.zone.strength) || o->u.zone.strength == 0.0f))
    o->u.zone.strength = TESS_SPRING_DEFAULT_STRENGTH;
}
static void edit_material(TessObject *o, GtkWidget *w, gpointer d) {
  GArray *ids = g_object_get_data(G_OBJECT(w), "ids");
  guint sel = gtk_drop_down_get_selected(GTK_DROP_DOWN(w));
  o->u.body.material = sel < ids->len ? g_array_index(ids, TessId, sel) : 0;
}
static gboolean rebuild_idle(gpointer user);
static void on_dropdown(GtkDropDown *dd, GParamSpec *pspec, gpointer fn) {
  if (!g_object_get_data(G_OBJECT(dd), "tess-ready")) return;
  TessObjectInspector *self = owner(GTK_WIDGET(dd));
  /* A zone's kind decides which rows it has: rebuild them, once idle (not under the dropdown's own signal). */
  if (edit_with(self, (EditFn)fn, GTK_WIDGET(dd), NULL) && (EditFn)fn == edit_zone_kind && !self->rebuild_source)
    self->rebuild_source = g_idle_add(rebuild_idle, self);
}

static void edit_sensor(TessObject *o, GtkWidget *w, gpointer d) { o->u.body.sensor = gtk_check_button_get_active(GTK_CHECK_BUTTON(w)); }
static void on_sensor(GtkCheckButton *b, gpointer d) { edit_with(owner(GTK_WIDGET(b)), edit_sensor, GTK_WIDGET(b), NULL); }

/* Category and mask bits are typed in hexadecimal (0x0001); anything else is refused. */
static gboolean parse_bits(const char *text, uint32_t *out) {
  g_autofree char *t = g_strstrip(g_strdup(text));
  char *end = NULL;
  int base = (g_str_has_prefix(t, "0x") || g_str_has_prefix(t, "0X")) ? 16 : 10;
  if (*t == '\0' || *t == '-') return FALSE;
  guint64 v = g_ascii_strtoull(t, &end, base);
  if (*end != '\0' || v > 0xFFFFFFFFu) return FALSE;
  *out = (uint32_t)v;
  return TRUE;
}
static void edit_bits(TessObject *o, GtkWidget *w, gpointer d) {
  uint32_t v = 0;
  parse_bits(gtk_editable_get_text(GTK_EDITABLE(w)), &v);
  if (GPOINTER_TO_INT(d) == 0) o->u.body.category = v;
  else o->u.body.mask = v;
}
static void on_bits_activate(GtkEntry *e, gpointer which) {
  uint32_t v;
  TessObjectInspector *self = owner(GTK_WIDGET(e));
  const TessObject *cur = current(self);
  if (!cur) return;
  if (!parse_bits(gtk_editable_get_text(GTK_EDITABLE(e)), &v)) {
    gtk_widget_error_bell(GTK_WIDGET(e));
    g_autofree char *old = g_strdup_printf("0x%08X", GPOINTER_TO_INT(which) == 0 ? cur->u.body.category : cur->u.body.mask);
    gtk_editable_set_text(GTK_EDITABLE(e), old);
    return;
  }
  edit_with(self, edit_bits, GTK_WIDGET(e), which);
}

static void edit_number(TessObject *o, GtkWidget *w, gpointer field) {
  float v = (float)gtk_spin_button_get_value(GTK_SPIN_BUTTON(w));
  const char *f = field;
  if (g_str_equal(f, "vx")) o->u.zone.vector.x = v;
  else if (g_str_equal(f, "vy")) o->u.zone.vector.y = v;
  else if (g_str_equal(f, "strength")) o->u.zone.strength = v;
  else if (g_str_equal(f, "reach")) o->u.zone.radius = v;
  else if (g_str_equal(f, "zw")) o->u.zone.width = v;
  else if (g_str_equal(f, "zh")) o->u.zone.height = v;
  else if (g_str_equal(f, "radius")) o->u.body.radius = v;
  else if (g_str_equal(f, "bw")) o->u.body.width = v;
  else if (g_str_equal(f, "bh")) o->u.body.height = v;
  else if (g_str_equal(f, "x")) o->pos.x = v;
  else if (g_str_equal(f, "y")) o->pos.y = v;
  else if (g_str_equal(f, "angle")) o->angle = v * (float)G_PI / 180.0f;
  /* Joints: the UI speaks degrees and turns per minute, the model radians. */
  else if (g_str_equal(f, "lower")) o->u.joint.lower = (float)(gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)) * G_PI / 180.0);
  else if (g_str_equal(f, "upper")) o->u.joint.upper = (float)(gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)) * G_PI / 180.0);
  else if (g_str_equal(f, "motor_rpm")) o->u.joint.motor_speed = (float)(gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)) * G_PI / 30.0);
  else if (g_str_equal(f, "motor_torque")) o->u.joint.motor_torque = v;
  else if (g_str_equal(f, "length")) o->u.joint.length = v;
}

/* Changes a spin button's range without it editing the object (a range
 * that cuts the value would otherwise emit value-changed). */
static void set_range_quietly(GtkSpinButton *s, double lo, double hi) {
  gpointer ready = g_object_get_data(G_OBJECT(s), "tess-ready");
  g_object_set_data(G_OBJECT(s), "tess-ready", NULL);
  gtk_spin_button_set_range(s, lo, hi);
  g_object_set_data(G_OBJECT(s), "tess-ready", ready);
}

static void on_number(GtkSpinButton *s, gpointer field) {
  if (!g_object_get_data(G_OBJECT(s), "tess-ready")) return;
  if (!edit_with(owner(GTK_WIDGET(s)), edit_number, GTK_WIDGET(s), field)) return; /* refused: rebuilt */
  /* A pin's lower limit never passes its upper one: each bounds the other's range. */
  GtkSpinButton *partner = g_object_get_data(G_OBJECT(s), "tess-limit-partner");
  if (partner) {
    double v = gtk_spin_button_get_value(s), lo, hi;
    gtk_spin_button_get_range(partner, &lo, &hi);
    if (g_str_equal(field, "lower")) set_range_quietly(partner, v, hi);
    else set_range_quietly(partner, lo, v);
  }
}

/* A pin's "Angle limits" (which 0) and "Motor" (1) switches; the fields
 * under each follow it. */
static void edit_joint_switch(TessObject *o, GtkWidget *w, gpointer which) {
  uint8_t on = gtk_check_button_get_active(GTK_CHECK_BUTTON(w)) ? 1 : 0;
  if (GPOINTER_TO_INT(which) == 0) o->u.joint.limit_enabled = on;
  else o->u.joint.motor_enabled = on;
}
static void set_dependents_sensitive(GtkWidget *check, gboolean on) {
  for (int i = 0; i < 2; i++) {
    GtkWidget *dep = g_object_get_data(G_OBJECT(check), i == 0 ? "tess-dependent-0" : "tess-dependent-1");
    if (dep) gtk_widget_set_sensitive(dep, on);
  }
}
static void on_joint_switch(GtkCheckButton *b, gpointer which) {
  if (!g_object_get_data(G_OBJECT(b), "tess-ready")) return;
  if (edit_with(owner(GTK_WIDGET(b)), edit_joint_switch, GTK_WIDGET(b), which))
    set_dependents_sensitive(GTK_WIDGET(b), gtk_check_button_get_active(b));
}

/* Custom property value editors. */
static void on_prop_changed(GtkWidget *w, gpointer user) {
  TessObjectInspector *self = owner(w);
  const TessObject *cur = current(self);
  const char *name = g_object_get_data(G_OBJECT(w), "prop-name");
  const TessProperty *old = cur ? tess_object_property(cur, name) : NULL;
  if (!old || !g_object_get_data(G_OBJECT(w), "tess-ready")) return;
  TessProperty p = *old;
  g_autofree char *s = NULL;
  switch (old->type) {
    case TESS_PROP_STRING:
      s = g_strdup(gtk_editable_get_text(GTK_EDITABLE(w)));
      p.v.s = s;
      if (strcmp(s, old->v.s ? old->v.s : "") == 0) return;
      break;
    case TESS_PROP_INT: p.v.i = (int64_t)gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)); break;
    case TESS_PROP_FLOAT: p.v.f = gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)); break;
    case TESS_PROP_BOOL: p.v.b = gtk_check_button_get_active(GTK_CHECK_BUTTON(w)); break;
    case TESS_PROP_COLOR: {
      GdkRGBA rgba;
      gtk_color_chooser_get_rgba(GTK_COLOR_CHOOSER(w), &rgba);
      p.v.color = tess_ui_rgba_to_u32(&rgba);
      break;
    }
    default: return;
  }
  const TessObject *obj = current(self);
  TessObject copy;
  if (tess_object_copy(&copy, obj) != TESS_OK) return;
  if (tess_object_set_property(&copy, &p) == TESS_OK) tess_object_inspector_apply(self, &copy);
  tess_object_clear(&copy);
}

static void on_prop_remove(GtkButton *b, gpointer user) {
  tess_object_inspector_remove_property(owner(GTK_WIDGET(b)), g_object_get_data(G_OBJECT(b), "prop-name"));
}

static void on_prop_add(GtkButton *b, gpointer user) {
  TessObjectInspector *self = owner(GTK_WIDGET(b));
  GtkEditable *name = g_object_get_data(G_OBJECT(b), "name");
  GtkDropDown *type = g_object_get_data(G_OBJECT(b), "type");
  TessProperty p;
  memset(&p, 0, sizeof p);
  if (!tess_ui_copy_name(p.name, gtk_editable_get_text(name))) {
    gtk_widget_error_bell(GTK_WIDGET(name));
    return;
  }
  p.type = (uint8_t)gtk_drop_down_get_selected(type);
  if (p.type == TESS_PROP_STRING) p.v.s = (char *)"";
  if (p.type == TESS_PROP_COLOR) p.v.color = 0xFFFFFFFFu;
  tess_object_inspector_set_property(self, &p);
}

/* ---- Building the editors ---------------------------------------------------- */

static int row_index;

static void add_row(GtkGrid *grid, const char *label_text, GtkWidget *editor) {
  GtkWidget *label = gtk_label_new(label_text);
  gtk_label_set_xalign(GTK_LABEL(label), 1);
  gtk_widget_add_css_class(label, "dim-label");
  gtk_widget_set_hexpand(editor, TRUE);
  gtk_grid_attach(grid, label, 0, row_index, 1, 1);
  gtk_grid_attach(grid, editor, 1, row_index, 1, 1);
  row_index++;
}

static void number_ready(GtkWidget *s, double value, const char *field) {
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), value);
  g_signal_connect(s, "value-changed", G_CALLBACK(on_number), (gpointer)field);
  g_object_set_data(G_OBJECT(s), "tess-ready", GINT_TO_POINTER(1));
}

/* A number held to `range` (core's where core has one), refusing anything
 * else with a message under the field that names it (`what`). */
static GtkWidget *checked(double value, TessRange range, double step, guint digits, const char *field,
                          const char *what) {
  GtkWidget *s = tess_ui_number_new(range, step, digits, what);
  number_ready(s, value, field);
  return s;
}

/* The editor's own span for numbers core only wants finite (angles in
 * degrees, forces, motor speeds). */
static TessRange span(double lo, double hi) {
  TessRange r = {lo, hi, false};
  return r;
}

static GtkWidget *number(double value, double lo, double hi, double step, guint digits, const char *field) {
  GtkWidget *s = tess_ui_spin_new(lo, hi, step, digits);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), value);
  g_signal_connect(s, "value-changed", G_CALLBACK(on_number), (gpointer)field);
  g_object_set_data(G_OBJECT(s), "tess-ready", GINT_TO_POINTER(1));
  return s;
}

/* A named number (tests find it by name). */
static GtkWidget *named(GtkWidget *w, const char *name) {
  gtk_widget_set_name(w, name);
  return w;
}

static GtkWidget *joint_switch(const char *label, gboolean active, int which, GtkWidget *dep0, GtkWidget *dep1,
                               const char *name) {
  GtkWidget *b = gtk_check_button_new_with_label(label);
  gtk_widget_set_name(b, name);
  gtk_check_button_set_active(GTK_CHECK_BUTTON(b), active);
  g_object_set_data(G_OBJECT(b), "tess-dependent-0", dep0);
  g_object_set_data(G_OBJECT(b), "tess-dependent-1", dep1);
  set_dependents_sensitive(b, active);
  g_signal_connect(b, "toggled", G_CALLBACK(on_joint_switch), GINT_TO_POINTER(which));
  g_object_set_data(G_OBJECT(b), "tess-ready", GINT_TO_POINTER(1));
  return b;
}

static void add_joint_rows(GtkGrid *grid, const TessJointObject *j) {
  if (j->kind == TESS_JOINT_DISTANCE) {
    GtkWidget *length = named(checked(j->length, tess_object_range(TESS_OBJECT_RANGE_LENGTH), 1, 1, "length", _("Length")), "joint-length");
    gtk_widget_set_tooltip_text(length, _("0 keeps the distance the anchors have when the level starts"));
    add_row(grid, _("Length (px)"), length);
    return;
  }
  /* Angle limits, in degrees; each limit bounds the other's range so lower <= upper. */
  double lower = j->lower * 180.0 / G_PI, upper = j->upper * 180.0 / G_PI;
  GtkWidget *lo = named(number(lower, -360, MAX(upper, -360), 1, 1, "lower"), "joint-lower");
  GtkWidget *hi = named(number(upper, MIN(lower, 360), 360, 1, 1, "upper"), "joint-upper");
  g_object_set_data(G_OBJECT(lo), "tess-limit-partner", hi);
  g_object_set_data(G_OBJECT(hi), "tess-limit-partner", lo);
  GtkWidget *limits = joint_switch(_("Angle limits"), j->limit_enabled, 0, lo, hi, "joint-limit");
  gtk_widget_set_tooltip_text(limits, _("Keep the angle between the two bodies within the range below"));
  add_row(grid, "", limits);
  add_row(grid, _("Lower (°)"), lo);
  add_row(grid, _("Upper (°)"), hi);
  /* The motor: turns per minute (what a designer reads off a wheel), N m. */
  GtkWidget *rpm = named(checked(j->motor_speed * 30.0 / G_PI, span(-100000, 100000), 10, 1, "motor_rpm", _("Motor speed")),
                         "joint-motor-speed");
  gtk_widget_set_tooltip_text(rpm, _("Turns per minute of the second body relative to the first; positive turns "
                                     "clockwise on screen, so a wheel rolls to the right"));
  GtkWidget *torque = named(checked(j->motor_torque, tess_object_range(TESS_OBJECT_RANGE_TORQUE), 10, 1, "motor_torque",
                                    _("Max torque")),
                            "joint-motor-torque");
  gtk_widget_set_tooltip_text(torque, _("The strongest twist the motor may apply to reach its speed"));
  GtkWidget *motor = joint_switch(_("Motor"), j->motor_enabled, 1, rpm, torque, "joint-motor");
  gtk_widget_set_tooltip_text(motor, _("Turn the second body at a set speed, as a wheel's engine does"));
  add_row(grid, "", motor);
  add_row(grid, _("Motor speed (rpm)"), rpm);
  add_row(grid, _("Max torque (N·m)"), torque);
}

static GtkWidget *dropdown(const char *const *items, guint selected, EditFn fn) {
  GtkWidget *dd = gtk_drop_down_new_from_strings(items);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(dd), selected);
  g_signal_connect(dd, "notify::selected", G_CALLBACK(on_dropdown), (gpointer)fn);
  g_object_set_data(G_OBJECT(dd), "tess-ready", GINT_TO_POINTER(1));
  return dd;
}

static GtkWidget *prop_editor(const TessProperty *p) {
  GtkWidget *w = NULL;
  switch (p->type) {
    case TESS_PROP_STRING:
      w = gtk_entry_new();
      gtk_editable_set_text(GTK_EDITABLE(w), p->v.s ? p->v.s : "");
      g_signal_connect(w, "activate", G_CALLBACK(on_prop_changed), NULL);
      break;
    case TESS_PROP_INT:
      w = tess_ui_spin_new(-2147483648.0, 2147483647.0, 1, 0);
      gtk_spin_button_set_value(GTK_SPIN_BUTTON(w), (double)p->v.i);
      g_signal_connect(w, "value-changed", G_CALLBACK(on_prop_changed), NULL);
      break;
    case TESS_PROP_FLOAT:
      w = tess_ui_spin_new(-1e9, 1e9, 0.1, 3);
      gtk_spin_button_set_value(GTK_SPIN_BUTTON(w), p->v.f);
      g_signal_connect(w, "value-changed", G_CALLBACK(on_prop_changed), NULL);
      break;
    case TESS_PROP_BOOL:
      w = gtk_check_button_new();
      gtk_check_button_set_active(GTK_CHECK_BUTTON(w), p->v.b);
      g_signal_connect(w, "toggled", G_CALLBACK(on_prop_changed), NULL);
      break;
    case TESS_PROP_COLOR: {
      GdkRGBA rgba;
      tess_ui_rgba_from_u32(p->v.color, &rgba);
      w = gtk_color_button_new_with_rgba(&rgba);
      gtk_color_chooser_set_use_alpha(GTK_COLOR_CHOOSER(w), TRUE);
      g_signal_connect(w, "color-set", G_CALLBACK(on_prop_changed), NULL);
      break;
    }
    default:
      w = gtk_label_new("?");
  }
  g_object_set_data_full(G_OBJECT(w), "prop-name", g_strdup(p->name), g_free);
  g_object_set_data(G_OBJECT(w), "tess-ready", GINT_TO_POINTER(1));
  return w;
}

static const char *kind_title(uint8_t kind) {
  switch (kind) {
    case TESS_OBJECT_JOINT: return _("Joint");
    case TESS_OBJECT_ZONE: return _("Force Zone");
    case TESS_OBJECT_SPAWN: return _("Spawn Point");
    default: return _("Body");
  }
}

static void rebuild(TessObjectInspector *self) {
  g_clear_handle_id(&self->rebuild_source, g_source_remove);
  if (self->content) {
    gtk_box_remove(GTK_BOX(self), self->content);
    self->content = NULL;
  }
  self->dirty = FALSE;
  const TessObject *o = current(self);
  gtk_widget_set_visible(self->placeholder, o == NULL);
  if (!o) return;
  TessProject *p = project(self);

  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *title = gtk_label_new(o->kind != TESS_OBJECT_JOINT             ? kind_title(o->kind)
                                   : o->u.joint.kind == TESS_JOINT_DISTANCE ? _("Distance joint")
                                                                            : _("Pin joint"));
  gtk_widget_add_css_class(title, "heading");
  gtk_label_set_xalign(GTK_LABEL(title), 0);
  gtk_box_append(GTK_BOX(box), title);

  GtkGrid *grid = GTK_GRID(gtk_grid_new());
  gtk_grid_set_row_spacing(grid, 6);
  gtk_grid_set_column_spacing(grid, 8);
  row_index = 0;

  GtkWidget *name = gtk_entry_new();
  gtk_entry_set_max_length(GTK_ENTRY(name), TESS_NAME_MAX - 1);
  gtk_editable_set_text(GTK_EDITABLE(name), o->name);
  g_signal_connect(name, "activate", G_CALLBACK(on_name_activate), NULL);
  add_row(grid, _("Name"), name);
  add_row(grid, _("X (px)"), named(checked(o->pos.x, tess_object_range(TESS_OBJECT_RANGE_COORD), 1, 1, "x", "X"), "object-x"));
  add_row(grid, _("Y (px)"), named(checked(o->pos.y, tess_object_range(TESS_OBJECT_RANGE_COORD), 1, 1, "y", "Y"), "object-y"));
  add_row(grid, _("Angle (°)"), named(checked(o->angle * 180.0 / G_PI, span(-360, 360), 1, 1, "angle", _("Angle")), "object-angle"));

  if (o->kind == TESS_OBJECT_BODY) {
    const TessBodyObject *b = &o->u.body;
    const TessSprite *sprite = b->shape == TESS_BODY_SPRITE ? tess_project_sprite(p, b->sprite) : NULL;
    const char *shapes[] = {_("Circle"), _("Box"), _("Capsule"), _("Sprite")};
    g_autofree char *shape_text = sprite ? g_strdup_printf(_("Sprite “%s”"), sprite->name)
                                         : g_strdup(b->shape < G_N_ELEMENTS(shapes) ? shapes[b->shape] : "?");
    GtkWidget *shape = gtk_label_new(shape_text);
    gtk_label_set_xalign(GTK_LABEL(shape), 0);
    gtk_label_set_ellipsize(GTK_LABEL(shape), PANGO_ELLIPSIZE_END);
    add_row(grid, _("Shape"), shape);
    if (b->shape == TESS_BODY_CIRCLE) add_row(grid, _("Radius (px)"), named(checked(b->radius, tess_object_range(TESS_OBJECT_RANGE_EXTENT), 1, 1, "radius", _("Radius")), "body-radius"));
    if (b->shape == TESS_BODY_BOX || b->shape == TESS_BODY_CAPSULE) {
      add_row(grid, _("Width (px)"), named(checked(b->width, tess_object_range(TESS_OBJECT_RANGE_EXTENT), 1, 1, "bw", _("Width")), "body-width"));
      add_row(grid, _("Height (px)"), named(checked(b->height, tess_object_range(TESS_OBJECT_RANGE_EXTENT), 1, 1, "bh", _("Height")), "body-height"));
    }
    const char *types[] = {_("Static"), _("Kinematic"), _("Dynamic"), NULL};
    add_row(grid, _("Body type"), dropdown(types, b->type, edit_body_type));

    GtkStringList *names = gtk_string_list_new(NULL);
    GArray *ids = g_array_new(FALSE, FALSE, sizeof(TessId));
    guint sel = 0;
    gtk_string_list_append(names, _("Project default"));
    TessId none = 0;
    g_array_append_val(ids, none);
    for (uint32_t i = 0; i < p->material_count; i++) {
      gtk_string_list_append(names, p->materials[i].name);
      g_array_append_val(ids, p->materials[i].id);
      if (p->materials[i].id == b->material) sel = i + 1;
    }
    GtkWidget *mat = gtk_drop_down_new(G_LIST_MODEL(names), NULL);
    g_object_set_data_full(G_OBJECT(mat), "ids", ids, (GDestroyNotify)g_array_unref);
    gtk_drop_down_set_selected(GTK_DROP_DOWN(mat), sel);
    g_signal_connect(mat, "notify::selected", G_CALLBACK(on_dropdown), (gpointer)edit_material);
    g_object_set_data(G_OBJECT(mat), "tess-ready", GINT_TO_POINTER(1));
    add_row(grid, _("Material"), mat);

    /* The label wraps: on one line it was the widest field, and a body in the
     * inspector widened the right panel by 10 px (issue 14). */
    GtkWidget *sensor = gtk_check_button_new();
    GtkWidget *sensor_label = gtk_label_new(_("Sensor (detects, does not collide)"));
    gtk_label_set_wrap(GTK_LABEL(sensor_label), TRUE);
    gtk_label_set_xalign(GTK_LABEL(sensor_label), 0);
    gtk_check_button_set_child(GTK_CHECK_BUTTON(sensor), sensor_label);
    gtk_check_button_set_active(GTK_CHECK_BUTTON(sensor), b->sensor);
    g_signal_connect(sensor, "toggled", G_CALLBACK(on_sensor), NULL);
    add_row(grid, "", sensor);

    g_autofree char *cat = g_strdup_printf("0x%08X", b->category);
    GtkWidget *category = gtk_entry_new();
    gtk_editable_set_text(GTK_EDITABLE(category), cat);
    gtk_widget_set_tooltip_text(category, _("Collision category bits, in hexadecimal"));
    g_signal_connect(category, "activate", G_CALLBACK(on_bits_activate), GINT_TO_POINTER(0));
    add_row(grid, _("Category bits"), category);
    g_autofree char *msk = g_strdup_printf("0x%08X", b->mask);
    GtkWidget *mask = gtk_entry_new();
    gtk_editable_set_text(GTK_EDITABLE(mask), msk);
    gtk_widget_set_tooltip_text(mask, _("The categories this body collides with, in hexadecimal"));
    g_signal_connect(mask, "activate", G_CALLBACK(on_bits_activate), GINT_TO_POINTER(1));
    add_row(grid, _("Mask bits"), mask);

    const char *pins[] = {_("No pin"), _("At the smaller body's centre"), _("At the overlap's centre"), NULL};
    add_row(grid, _("Pin on overlap"), dropdown(pins, b->pin, edit_pin));
    /* in TessIntegrator's order */
    const char *integrators[] = {_("Semi-implicit Euler"), _("RK4"), NULL};
    GtkWidget *integrator = named(dropdown(integrators, b->integrator, edit_integrator), "body-integrator");
    gtk_widget_set_tooltip_text(integrator, _("RK4 follows forces that change with the position, such as spring and "
                                              "attractor zones (orbits, oscillations), far more closely and keeps their "
                                              "energy. Keep semi-implicit Euler for everything else: contacts and "
                                              "joints are tuned for it."));
    add_row(grid, _("Integrator"), integrator);
  } else if (o->kind == TESS_OBJECT_ZONE) {
    const TessZoneObject *z = &o->u.zone;
    const char *kinds[] = {_("Force"), _("Acceleration"), _("Attractor"), _("Spring"), NULL};
    add_row(grid, _("Zone kind"), named(dropdown(kinds, z->kind, edit_zone_kind), "zone-kind"));
    if (z->kind == TESS_ZONE_SPRING) {
      /* a harmonic well: strength is omega^2, its range core's */
      GtkWidget *k = named(checked(z->strength, tess_object_range(TESS_OBJECT_RANGE_SPRING), 1, 3, "strength", _("Stiffness")),
                           "zone-stiffness");
      gtk_widget_set_tooltip_text(k, _("How hard the zone pulls bodies towards its centre, per metre away, for every "
                                       "kilogram: a body left in it swings with a period of 2π / √stiffness seconds "
                                       "(39.48 is one swing a second)"));
      add_row(grid, _("Stiffness (1/s²)"), k);
      GtkWidget *reach = named(checked(z->radius, tess_object_range(TESS_OBJECT_RANGE_LENGTH), 1, 1, "reach", _("Reach")),
                               "zone-reach");
      gtk_widget_set_tooltip_text(reach, _("Bodies farther than this from the centre are not pulled; 0 pulls everywhere"));
      add_row(grid, _("Reach (px)"), reach);
    } else {
      add_row(grid, _("Width (px)"), named(checked(z->width, tess_object_range(TESS_OBJECT_RANGE_LENGTH), 1, 1, "zw", _("Width")), "zone-width"));
      add_row(grid, _("Height (px)"), named(checked(z->height, tess_object_range(TESS_OBJECT_RANGE_LENGTH), 1, 1, "zh", _("Height")), "zone-height"));
      add_row(grid, _("Force x"), checked(z->vector.x, span(-1e6, 1e6), 0.5, 2, "vx", _("Force x")));
      add_row(grid, _("Force y"), checked(z->vector.y, span(-1e6, 1e6), 0.5, 2, "vy", _("Force y")));
      if (z->kind == TESS_ZONE_ATTRACTOR) add_row(grid, _("Strength"), checked(z->strength, span(-1e9, 1e9), 1, 2, "strength", _("Strength")));
    }
  } else if (o->kind == TESS_OBJECT_JOINT) {
    add_joint_rows(grid, &o->u.joint);
  }
  gtk_box_append(GTK_BOX(box), GTK_WIDGET(grid));

  /* Custom properties. */
  GtkWidget *props_title = gtk_label_new(_("Custom Properties"));
  gtk_widget_add_css_class(props_title, "heading");
  gtk_label_set_xalign(GTK_LABEL(props_title), 0);
  gtk_box_append(GTK_BOX(box), props_title);
  GtkGrid *pgrid = GTK_GRID(gtk_grid_new());
  gtk_grid_set_row_spacing(pgrid, 4);
  gtk_grid_set_column_spacing(pgrid, 6);
  for (uint32_t i = 0; i < o->prop_count; i++) {
    GtkWidget *label = gtk_label_new(o->props[i].name);
    gtk_label_set_xalign(GTK_LABEL(label), 1);
    gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
    GtkWidget *editor = prop_editor(&o->props[i]);
    gtk_widget_set_hexpand(editor, TRUE);
    GtkWidget *remove = gtk_button_new_from_icon_name("list-remove-symbolic");
    gtk_widget_add_css_class(remove, "flat");
    gtk_widget_set_tooltip_text(remove, _("Remove the property"));
    g_object_set_data_full(G_OBJECT(remove), "prop-name", g_strdup(o->props[i].name), g_free);
    g_signal_connect(remove, "clicked", G_CALLBACK(on_prop_remove), NULL);
    gtk_grid_attach(pgrid, label, 0, (int)i, 1, 1);
    gtk_grid_attach(pgrid, editor, 1, (int)i, 1, 1);
    gtk_grid_attach(pgrid, remove, 2, (int)i, 1, 1);
  }
  gtk_box_append(GTK_BOX(box), GTK_WIDGET(pgrid));

  GtkWidget *add_box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *pname = gtk_entry_new();
  gtk_entry_set_placeholder_text(GTK_ENTRY(pname), _("New property"));
  gtk_entry_set_max_length(GTK_ENTRY(pname), TESS_NAME_MAX - 1);
  gtk_widget_set_hexpand(pname, TRUE);
  const char *types[] = {_("Text"), _("Integer"), _("Number"), _("Yes/No"), _("Colour"), NULL};
  GtkWidget *ptype = gtk_drop_down_new_from_strings(types);
  GtkWidget *add = gtk_button_new_from_icon_name("list-add-symbolic");
  gtk_widget_set_tooltip_text(add, _("Add the property"));
  g_object_set_data(G_OBJECT(add), "name", pname);
  g_object_set_data(G_OBJECT(add), "type", ptype);
  g_signal_connect(add, "clicked", G_CALLBACK(on_prop_add), NULL);
  gtk_box_append(GTK_BOX(add_box), pname);
  gtk_box_append(GTK_BOX(add_box), ptype);
  gtk_box_append(GTK_BOX(add_box), add);
  gtk_box_append(GTK_BOX(box), add_box);

  self->content = box;
  gtk_box_append(GTK_BOX(self), box);
}

/* ---- Document ---------------------------------------------------------------- */

static void on_doc_changed(TessDocument *doc, gpointer change_ptr, TessObjectInspector *self) {
  const TessChange *c = change_ptr;
  if ((c->kind == TESS_CHANGE_OBJECT && c->id == self->object) || c->kind == TESS_CHANGE_MATERIAL ||
      c->kind == TESS_CHANGE_LEVEL || c->kind == TESS_CHANGE_LAYER)
    self->dirty = TRUE;
}

static gboolean rebuild_idle(gpointer user) {
  TessObjectInspector *self = user;
  self->rebuild_source = 0;
  rebuild(self);
  return G_SOURCE_REMOVE;
}

static void on_doc_committed(TessDocument *doc, TessObjectInspector *self) {
  /* Our own edits are already on screen; undo, a drag on the map or a
   * material change rebuild the editors, once per idle (a drag commits at
   * every motion event). */
  if (self->dirty && !self->applying && !self->rebuild_source) self->rebuild_source = g_idle_add(rebuild_idle, self);
  self->dirty = FALSE;
}

void tess_object_inspector_set_document(TessObjectInspector *self, TessDocument *doc) {
  g_return_if_fail(TESS_IS_OBJECT_INSPECTOR(self));
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  if (doc) {
    self->doc = g_object_ref(doc);
    self->changed_handler = g_signal_connect(doc, "changed", G_CALLBACK(on_doc_changed), self);
    self->committed_handler = g_signal_connect(doc, "committed", G_CALLBACK(on_doc_committed), self);
  }
  self->level = self->object = 0;
  rebuild(self);
}

void tess_object_inspector_set_object(TessObjectInspector *self, TessId level, TessId object) {
  g_return_if_fail(TESS_IS_OBJECT_INSPECTOR(self));
  self->level = level;
  self->object = object;
  rebuild(self);
}

TessId tess_object_inspector_get_object(TessObjectInspector *self) { return current(self) ? self->object : 0; }

/* ---- What the object tool places ------------------------------------------ */

static void make_template(TessObject *o, guint index) {
  switch (index) {
    case 1: /* box */
      tess_object_default(o, TESS_OBJECT_BODY);
      o->u.body.shape = TESS_BODY_BOX;
      o->u.body.width = 64;
      o->u.body.height = 32;
      break;
    case 2: /* capsule */
      tess_object_default(o, TESS_OBJECT_BODY);
      o->u.body.shape = TESS_BODY_CAPSULE;
      o->u.body.width = 64;
      o->u.body.height = 24;
      break;
    case 3: tess_object_default(o, TESS_OBJECT_SPAWN); break;
    case 4: tess_object_default(o, TESS_OBJECT_ZONE); break;
    case 5:
      tess_object_default(o, TESS_OBJECT_JOINT);
      o->u.joint.kind = TESS_JOINT_PIN;
      break;
    case 6:
      tess_object_default(o, TESS_OBJECT_JOINT);
      o->u.joint.kind = TESS_JOINT_DISTANCE;
      break;
    case 7: /* spring zone: one swing a second, reaching 96 px */
      tess_object_default(o, TESS_OBJECT_ZONE);
      snprintf(o->name, sizeof o->name, "Spring"); /* names are data: English, as core's defaults ("Wind") */
      o->u.zone.kind = TESS_ZONE_SPRING;
      o->u.zone.strength = TESS_SPRING_DEFAULT_STRENGTH;
      o->u.zone.radius = 96.0f;
      break;
    default:
      tess_object_default(o, TESS_OBJECT_BODY);
      o->u.body.shape = TESS_BODY_CIRCLE;
      break;
  }
}

const TessObject *tess_object_inspector_get_template(TessObjectInspector *self) { return &self->template_obj; }

GtkDropDown *tess_object_inspector_get_template_choice(TessObjectInspector *self) { return self->template_kind; }

void tess_object_inspector_set_template_kind(TessObjectInspector *self, guint index) {
  gtk_drop_down_set_selected(self->template_kind, index);
}

/* The dropdown's kinds; "Sprite" follows them once the Sprites tab sent one. */
#define TEMPLATE_SPRITE 8

void tess_object_inspector_set_sprite_template(TessObjectInspector *self, const TessObject *tmpl) {
  g_return_if_fail(TESS_IS_OBJECT_INSPECTOR(self) && tmpl);
  if (self->has_sprite) tess_object_clear(&self->sprite_obj);
  self->has_sprite = tess_object_copy(&self->sprite_obj, tmpl) == TESS_OK;
  if (!self->has_sprite) return;
  GtkStringList *kinds = GTK_STRING_LIST(gtk_drop_down_get_model(self->template_kind));
  if (g_list_model_get_n_items(G_LIST_MODEL(kinds)) == TEMPLATE_SPRITE) gtk_string_list_append(kinds, _("Sprite"));
  /* The dropdown says what a click places: the sprite (its handler copies it). */
  if (gtk_drop_down_get_selected(self->template_kind) == TEMPLATE_SPRITE) {
    tess_object_clear(&self->template_obj);
    if (tess_object_copy(&self->template_obj, &self->sprite_obj) != TESS_OK) make_template(&self->template_obj, 0);
    g_signal_emit(self, signals[SIGNAL_TEMPLATE_CHANGED], 0);
  } else {
    gtk_drop_down_set_selected(self->template_kind, TEMPLATE_SPRITE);
  }
}

static void on_template_kind(GtkDropDown *dd, GParamSpec *pspec, TessObjectInspector *self) {
  tess_object_clear(&self->template_obj);
  guint kind = gtk_drop_down_get_selected(dd);
  if (kind != TEMPLATE_SPRITE || !self->has_sprite || tess_object_copy(&self->template_obj, &self->sprite_obj) != TESS_OK)
    make_template(&self->template_obj, kind);
  g_signal_emit(self, signals[SIGNAL_TEMPLATE_CHANGED], 0);
}

static void tess_object_inspector_finalize(GObject *object) {
  tess_object_clear(&TESS_OBJECT_INSPECTOR(object)->template_obj);
  if (TESS_OBJECT_INSPECTOR(object)->has_sprite) tess_object_clear(&TESS_OBJECT_INSPECTOR(object)->sprite_obj);
  G_OBJECT_CLASS(tess_object_inspector_parent_class)->finalize(object);
}

static void tess_object_inspector_dispose(GObject *object) {
  TessObjectInspector *self = TESS_OBJECT_INSPECTOR(object);
  g_clear_handle_id(&self->rebuild_source, g_source_remove);
  if (self->doc) {
    g_clear_signal_handler(&self->changed_handler, self->doc);
    g_clear_signal_handler(&self->committed_handler, self->doc);
    g_clear_object(&self->doc);
  }
  G_OBJECT_CLASS(tess_object_inspector_parent_class)->dispose(object);
}

static void tess_object_inspector_class_init(TessObjectInspectorClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = tess_object_inspector_dispose;
  G_OBJECT_CLASS(klass)->finalize = tess_object_inspector_finalize;
  signals[SIGNAL_TEMPLATE_CHANGED] = g_signal_new("template-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void tess_object_inspector_init(TessObjectInspector *self) {
  gtk_orientable_set_orientation(GTK_ORIENTABLE(self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing(GTK_BOX(self), 6);
  GtkWidget *place = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *place_label = gtk_label_new_with_mnemonic(_("_Place"));
  gtk_widget_add_css_class(place_label, "dim-label");
  const char *kinds[] = {_("Circle"), _("Box"), _("Capsule"), _("Spawn point"), _("Force zone"), _("Pin joint"),
                         _("Distance joint"), _("Spring zone"), NULL};
  self->template_kind = GTK_DROP_DOWN(gtk_drop_down_new_from_strings(kinds));
  gtk_widget_set_tooltip_text(GTK_WIDGET(self->template_kind), _("What the object tool (O) places"));
  gtk_widget_set_hexpand(GTK_WIDGET(self->template_kind), TRUE);
  gtk_label_set_mnemonic_widget(GTK_LABEL(place_label), GTK_WIDGET(self->template_kind));
  g_signal_connect(self->template_kind, "notify::selected", G_CALLBACK(on_template_kind), self);
  make_template(&self->template_obj, 0);
  gtk_box_append(GTK_BOX(place), place_label);
  gtk_box_append(GTK_BOX(place), GTK_WIDGET(self->template_kind));
  gtk_box_append(GTK_BOX(self), place);
  gtk_box_append(GTK_BOX(self), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL));

  self->placeholder = gtk_label_new(_("Select an object with the object tool (O) to edit it here."));
  gtk_label_set_wrap(GTK_LABEL(self->placeholder), TRUE);
  gtk_widget_add_css_class(self->placeholder, "dim-label");
  gtk_widget_set_vexpand(self->placeholder, TRUE);
  gtk_box_append(GTK_BOX(self), self->placeholder);
}

GtkWidget *tess_object_inspector_new(void) { return g_object_new(TESS_TYPE_OBJECT_INSPECTOR, NULL); }
