/* TessObjectInspector: the selected object's fields. */
#include "tess-object-inspector.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "tess-ui.h"

struct _TessObjectInspector {
  GtkBox parent_instance;

  /* template widgets */
  GtkWidget *placeholder;
  GtkDropDown *template_kind;

  /* the object's editors (tess-object-fields.ui), made afresh for each object */
  GtkWidget *content;
  GArray *material_ids;     /* TessId per item of the Material dropdown */
  GtkWidget *new_prop_name; /* borrowed from content */
  GtkWidget *new_prop_type;
  gboolean building; /* values being filled in (or a range changed): not an edit */

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
static void on_name_activate(GtkEntry *e, TessObjectInspector *self) {
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
static void edit_material(TessObject *o, GtkWidget *w, gpointer ids_ptr) {
  GArray *ids = ids_ptr;
  guint sel = gtk_drop_down_get_selected(GTK_DROP_DOWN(w));
  o->u.body.material = sel < ids->len ? g_array_index(ids, TessId, sel) : 0;
}
static void on_dropdown(TessObjectInspector *self, GtkDropDown *dd, EditFn fn, gpointer data) {
  if (!self->building) edit_with(self, fn, GTK_WIDGET(dd), data);
}
static gboolean rebuild_idle(gpointer user);
static void on_body_type(GtkDropDown *dd, GParamSpec *pspec, TessObjectInspector *self) {
  if (self->building || !edit_with(self, edit_body_type, GTK_WIDGET(dd), NULL)) return;
  /* only a static sprite body has the "Collide by pixels" row: rebuild the rows once idle */
  if (!self->rebuild_source) self->rebuild_source = g_idle_add(rebuild_idle, self);
}
static void on_pin(GtkDropDown *dd, GParamSpec *pspec, TessObjectInspector *self) { on_dropdown(self, dd, edit_pin, NULL); }
static void on_integrator(GtkDropDown *dd, GParamSpec *pspec, TessObjectInspector *self) { on_dropdown(self, dd, edit_integrator, NULL); }
static void on_zone_kind(GtkDropDown *dd, GParamSpec *pspec, TessObjectInspector *self) {
  if (self->building || !edit_with(self, edit_zone_kind, GTK_WIDGET(dd), NULL)) return;
  /* The kind decides which rows a zone has: rebuild them, once idle (not under the dropdown's own signal). */
  if (!self->rebuild_source) self->rebuild_source = g_idle_add(rebuild_idle, self);
}
static void on_material(GtkDropDown *dd, GParamSpec *pspec, TessObjectInspector *self) {
  on_dropdown(self, dd, edit_material, self->material_ids);
}
/* A launcher's material and sprite: the dropdown's item picks an id of the array it carries. */
static TessId chosen_id(GtkWidget *w) {
  GArray *ids = g_object_get_data(G_OBJECT(w), "tess-ids");
  guint sel = gtk_drop_down_get_selected(GTK_DROP_DOWN(w));
  return ids && sel < ids->len ? g_array_index(ids, TessId, sel) : 0;
}
static void edit_launch_fires(TessObject *o, GtkWidget *w, gpointer d) { o->u.launcher.sprite = chosen_id(w); }
static void edit_launch_material(TessObject *o, GtkWidget *w, gpointer d) { o->u.launcher.material = chosen_id(w); }
static void on_launch_fires(GtkDropDown *dd, GParamSpec *pspec, TessObjectInspector *self) {
  on_dropdown(self, dd, edit_launch_fires, NULL);
}
static void on_launch_material(GtkDropDown *dd, GParamSpec *pspec, TessObjectInspector *self) {
  on_dropdown(self, dd, edit_launch_material, NULL);
}

/* The field an editor of tess-object-fields.ui edits: its id there. */
static const char *field_of(GtkWidget *w) { return gtk_buildable_get_buildable_id(GTK_BUILDABLE(w)); }

static void edit_sensor(TessObject *o, GtkWidget *w, gpointer d) { o->u.body.sensor = gtk_check_button_get_active(GTK_CHECK_BUTTON(w)); }
static void on_sensor(GtkCheckButton *b, TessObjectInspector *self) {
  if (!self->building) edit_with(self, edit_sensor, GTK_WIDGET(b), NULL);
}
static void edit_pixels(TessObject *o, GtkWidget *w, gpointer d) {
  o->u.body.collide_pixels = gtk_check_button_get_active(GTK_CHECK_BUTTON(w));
}
static void on_pixels(GtkCheckButton *b, TessObjectInspector *self) {
  if (!self->building) edit_with(self, edit_pixels, GTK_WIDGET(b), NULL);
}

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
static void on_bits_activate(GtkEntry *e, TessObjectInspector *self) {
  uint32_t v;
  gpointer which = GINT_TO_POINTER(g_strcmp0(field_of(GTK_WIDGET(e)), "mask") == 0 ? 1 : 0);
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

static void edit_number(TessObject *o, GtkWidget *w, gpointer unused) {
  float v = (float)gtk_spin_button_get_value(GTK_SPIN_BUTTON(w));
  const char *f = field_of(w);
  if (g_str_equal(f, "vx")) o->u.zone.vector.x = v;
  else if (g_str_equal(f, "vy")) o->u.zone.vector.y = v;
  else if (g_str_equal(f, "strength") || g_str_equal(f, "stiffness")) o->u.zone.strength = v;
  else if (g_str_equal(f, "reach")) o->u.zone.radius = v;
  else if (g_str_equal(f, "zw")) o->u.zone.width = v;
  else if (g_str_equal(f, "zh")) o->u.zone.height = v;
  else if (g_str_equal(f, "radius")) o->u.body.radius = v;
  else if (g_str_equal(f, "bw")) o->u.body.width = v;
  else if (g_str_equal(f, "bh")) o->u.body.height = v;
  else if (g_str_equal(f, "x")) o->pos.x = v;
  else if (g_str_equal(f, "y")) o->pos.y = v;
  else if (g_str_equal(f, "angle")) o->angle = v * (float)G_PI / 180.0f;
  else if (g_str_equal(f, "depth")) o->depth = (int32_t)lround(gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)));
  /* Joints: the UI speaks degrees and turns per minute, the model radians. */
  else if (g_str_equal(f, "lower")) o->u.joint.lower = (float)(gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)) * G_PI / 180.0);
  else if (g_str_equal(f, "upper")) o->u.joint.upper = (float)(gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)) * G_PI / 180.0);
  else if (g_str_equal(f, "motor_rpm")) o->u.joint.motor_speed = (float)(gtk_spin_button_get_value(GTK_SPIN_BUTTON(w)) * G_PI / 30.0);
  else if (g_str_equal(f, "motor_torque")) o->u.joint.motor_torque = v;
  else if (g_str_equal(f, "length")) o->u.joint.length = v;
  else if (g_str_equal(f, "launch_speed")) o->u.launcher.speed = v;
  else if (g_str_equal(f, "launch_radius")) o->u.launcher.radius = v;
}

/* Changes a spin button's range without it editing the object (a range
 * that cuts the value would otherwise emit value-changed). */
static void set_range_quietly(TessObjectInspector *self, GtkSpinButton *s, double lo, double hi) {
  gboolean building = self->building;
  self->building = TRUE;
  gtk_spin_button_set_range(s, lo, hi);
  self->building = building;
}

static void on_number(GtkSpinButton *s, TessObjectInspector *self) {
  if (self->building) return;
  const char *field = field_of(GTK_WIDGET(s));
  if (!edit_with(self, edit_number, GTK_WIDGET(s), NULL)) return; /* refused: rebuilt */
  /* A pin's lower limit never passes its upper one: each bounds the other's range. */
  GtkSpinButton *partner = g_object_get_data(G_OBJECT(s), "tess-limit-partner");
  if (partner) {
    double v = gtk_spin_button_get_value(s), lo, hi;
    gtk_spin_button_get_range(partner, &lo, &hi);
    if (g_str_equal(field, "lower")) set_range_quietly(self, partner, v, hi);
    else set_range_quietly(self, partner, lo, v);
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
static void on_joint_switch(GtkCheckButton *b, TessObjectInspector *self) {
  if (self->building) return;
  gpointer which = GINT_TO_POINTER(g_strcmp0(field_of(GTK_WIDGET(b)), "motor") == 0 ? 1 : 0);
  if (edit_with(self, edit_joint_switch, GTK_WIDGET(b), which))
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

static void on_prop_add(GtkButton *b, TessObjectInspector *self) {
  GtkEditable *name = GTK_EDITABLE(self->new_prop_name);
  GtkDropDown *type = GTK_DROP_DOWN(self->new_prop_type);
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

/* The editor's own span for numbers core only wants finite (angles in
 * degrees, forces, motor speeds). */
static TessRange span(double lo, double hi) {
  TessRange r = {lo, hi, false};
  return r;
}

/* The grid's rows in tess-object-fields.ui, top to bottom, by their
 * editor's id. */
static const char *const field_rows[] = {
    "name", "x", "y", "angle", "depth",
    /* bodies */
    "shape", "radius", "bw", "bh", "body_type", "material", "sensor", "category", "mask", "pin",
    /* zones */
    "zone_kind", "zw", "zh", "vx", "vy", "strength",
    /* joints: distance, then pin */
    "length", "limit", "lower", "upper", "motor", "motor_rpm", "motor_torque",
    /* added at the bottom, so the rows above keep their numbers: a body's integrator, a spring's fields,
       a launcher's */
    "integrator", "stiffness", "reach", "launch_speed", "launch_radius", "launch_fires", "launch_material",
    /* a static sprite body's pixel collision */
    "pixels"};

/* Whether `o` has the row whose editor is `id`. */
static gboolean row_wanted(const TessObject *o, const char *id) {
  static const char *const common[] = {"name", "x", "y", "angle", "depth"};
  for (guint i = 0; i < G_N_ELEMENTS(common); i++)
    if (g_str_equal(id, common[i])) return TRUE;
  if (o->kind == TESS_OBJECT_BODY) {
    const TessBodyObject *b = &o->u.body;
    if (g_str_equal(id, "radius")) return b->shape == TESS_BODY_CIRCLE;
    if (g_str_equal(id, "bw") || g_str_equal(id, "bh")) return b->shape == TESS_BODY_BOX || b->shape == TESS_BODY_CAPSULE;
    if (g_str_equal(id, "pixels")) return b->shape == TESS_BODY_SPRITE && b->type == TESS_BODY_STATIC;
    static const char *const body[] = {"shape", "body_type", "material", "sensor", "category", "mask", "pin", "integrator"};
    for (guint i = 0; i < G_N_ELEMENTS(body); i++)
      if (g_str_equal(id, body[i])) return TRUE;
    return FALSE;
  }
  if (o->kind == TESS_OBJECT_ZONE) {
    if (g_str_equal(id, "strength")) return o->u.zone.kind == TESS_ZONE_ATTRACTOR;
    /* a spring is a well about its centre: its stiffness and reach, not a rectangle and a force */
    gboolean spring = o->u.zone.kind == TESS_ZONE_SPRING;
    if (g_str_equal(id, "stiffness") || g_str_equal(id, "reach")) return spring;
    if (spring) return g_str_equal(id, "zone_kind");
    static const char *const zone[] = {"zone_kind", "zw", "zh", "vx", "vy"};
    for (guint i = 0; i < G_N_ELEMENTS(zone); i++)
      if (g_str_equal(id, zone[i])) return TRUE;
    return FALSE;
  }
  if (o->kind == TESS_OBJECT_LAUNCHER) return g_str_has_prefix(id, "launch_");
  if (o->kind == TESS_OBJECT_JOINT) {
    if (o->u.joint.kind == TESS_JOINT_DISTANCE) return g_str_equal(id, "length");
    static const char *const pin[] = {"limit", "lower", "upper", "motor", "motor_rpm", "motor_torque"};
    for (guint i = 0; i < G_N_ELEMENTS(pin); i++)
      if (g_str_equal(id, pin[i])) return TRUE;
  }
  return FALSE;
}

/* Removes the rows `o` does not have, bottom up (removing a row moves the
 * ones under it). Their widgets go with the builder. */
static void keep_rows(GtkBuilder *builder, const TessObject *o) {
  GtkGrid *grid = GTK_GRID(gtk_builder_get_object(builder, "grid"));
  for (int i = (int)G_N_ELEMENTS(field_rows) - 1; i >= 0; i--) {
    if (row_wanted(o, field_rows[i])) continue;
    int column, row, width, height;
    gtk_grid_query_child(grid, GTK_WIDGET(gtk_builder_get_object(builder, field_rows[i])), &column, &row, &width, &height);
    gtk_grid_remove_row(grid, row);
  }
}

static GtkWidget *field(GtkBuilder *builder, const char *id) { return GTK_WIDGET(gtk_builder_get_object(builder, id)); }

/* A number held to `range` (core's where core has one), refusing anything
 * else with a message under the field that names it (`what`). */
static void checked(TessObjectInspector *self, GtkBuilder *builder, const char *id, double value, TessRange range,
                    double step, guint digits, const char *what) {
  GtkWidget *s = field(builder, id);
  tess_ui_number_setup(s, range, step, digits, what);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), value);
  /* After the field's own handlers, as when the field was built in code. */
  g_signal_connect(s, "value-changed", G_CALLBACK(on_number), self);
}

/* A plain number (letters refused) in [lo, hi]. */
static void number(TessObjectInspector *self, GtkBuilder *builder, const char *id, double value, double lo, double hi,
                   double step, guint digits) {
  GtkWidget *s = field(builder, id);
  tess_ui_spin_setup(s, lo, hi, step, digits);
  gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), value);
  g_signal_connect(s, "value-changed", G_CALLBACK(on_number), self);
}

static void joint_switch(GtkBuilder *builder, const char *id, gboolean active, const char *dep0, const char *dep1) {
  GtkWidget *b = field(builder, id);
  gtk_check_button_set_active(GTK_CHECK_BUTTON(b), active);
  g_object_set_data(G_OBJECT(b), "tess-dependent-0", field(builder, dep0));
  g_object_set_data(G_OBJECT(b), "tess-dependent-1", field(builder, dep1));
  set_dependents_sensitive(b, active);
}

static void fill_joint(TessObjectInspector *self, GtkBuilder *builder, const TessJointObject *j) {
  if (j->kind == TESS_JOINT_DISTANCE) {
    checked(self, builder, "length", j->length, tess_object_range(TESS_OBJECT_RANGE_LENGTH), 1, 1, _("Length"));
    return;
  }
  /* Angle limits, in degrees; each limit bounds the other's range so lower <= upper. */
  double lower = j->lower * 180.0 / G_PI, upper = j->upper * 180.0 / G_PI;
  number(self, builder, "lower", lower, -360, MAX(upper, -360), 1, 1);
  number(self, builder, "upper", upper, MIN(lower, 360), 360, 1, 1);
  g_object_set_data(gtk_builder_get_object(builder, "lower"), "tess-limit-partner", field(builder, "upper"));
  g_object_set_data(gtk_builder_get_object(builder, "upper"), "tess-limit-partner", field(builder, "lower"));
  joint_switch(builder, "limit", j->limit_enabled, "lower", "upper");
  /* The motor: turns per minute (what a designer reads off a wheel), N m. */
  checked(self, builder, "motor_rpm", j->motor_speed * 30.0 / G_PI, span(-100000, 100000), 10, 1, _("Motor speed"));
  checked(self, builder, "motor_torque", j->motor_torque, tess_object_range(TESS_OBJECT_RANGE_TORQUE), 10, 1,
          _("Max torque"));
  joint_switch(builder, "motor", j->motor_enabled, "motor_rpm", "motor_torque");
}

static void fill_body(TessObjectInspector *self, GtkBuilder *builder, const TessBodyObject *b) {
  TessProject *p = project(self);
  const TessSprite *sprite = b->shape == TESS_BODY_SPRITE ? tess_project_sprite(p, b->sprite) : NULL;
  const char *shapes[] = {_("Circle"), _("Box"), _("Capsule"), _("Sprite")};
  g_autofree char *shape_text = sprite ? g_strdup_printf(_("Sprite “%s”"), sprite->name)
                                       : g_strdup(b->shape < G_N_ELEMENTS(shapes) ? shapes[b->shape] : "?");
  gtk_label_set_text(GTK_LABEL(field(builder, "shape")), shape_text);
  TessRange extent = tess_object_range(TESS_OBJECT_RANGE_EXTENT);
  if (b->shape == TESS_BODY_CIRCLE) checked(self, builder, "radius", b->radius, extent, 1, 1, _("Radius"));
  if (b->shape == TESS_BODY_BOX || b->shape == TESS_BODY_CAPSULE) {
    checked(self, builder, "bw", b->width, extent, 1, 1, _("Width"));
    checked(self, builder, "bh", b->height, extent, 1, 1, _("Height"));
  }
  gtk_drop_down_set_selected(GTK_DROP_DOWN(field(builder, "body_type")), b->type);

  GtkStringList *names = gtk_string_list_new(NULL);
  guint sel = 0;
  gtk_string_list_append(names, _("Project default"));
  TessId none = 0;
  g_array_append_val(self->material_ids, none);
  for (uint32_t i = 0; i < p->material_count; i++) {
    gtk_string_list_append(names, p->materials[i].name);
    g_array_append_val(self->material_ids, p->materials[i].id);
    if (p->materials[i].id == b->material) sel = i + 1;
  }
  GtkDropDown *mat = GTK_DROP_DOWN(field(builder, "material"));
  gtk_drop_down_set_model(mat, G_LIST_MODEL(names));
  g_object_unref(names);
  gtk_drop_down_set_selected(mat, sel);

  gtk_check_button_set_active(GTK_CHECK_BUTTON(field(builder, "sensor")), b->sensor);
  g_autofree char *cat = g_strdup_printf("0x%08X", b->category);
  gtk_editable_set_text(GTK_EDITABLE(field(builder, "category")), cat);
  g_autofree char *msk = g_strdup_printf("0x%08X", b->mask);
  gtk_editable_set_text(GTK_EDITABLE(field(builder, "mask")), msk);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(field(builder, "pin")), b->pin);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(field(builder, "integrator")), b->integrator);
  if (b->shape == TESS_BODY_SPRITE && b->type == TESS_BODY_STATIC)
    gtk_check_button_set_active(GTK_CHECK_BUTTON(field(builder, "pixels")), b->collide_pixels);
}

static void fill_zone(TessObjectInspector *self, GtkBuilder *builder, const TessZoneObject *z) {
  gtk_drop_down_set_selected(GTK_DROP_DOWN(field(builder, "zone_kind")), z->kind);
  TessRange length = tess_object_range(TESS_OBJECT_RANGE_LENGTH);
  if (z->kind == TESS_ZONE_SPRING) { /* stiffness is omega^2, its range core's */
    checked(self, builder, "stiffness", z->strength, tess_object_range(TESS_OBJECT_RANGE_SPRING), 1, 3, _("Stiffness"));
    checked(self, builder, "reach", z->radius, length, 1, 1, _("Reach"));
    return;
  }
  checked(self, builder, "zw", z->width, length, 1, 1, _("Width"));
  checked(self, builder, "zh", z->height, length, 1, 1, _("Height"));
  checked(self, builder, "vx", z->vector.x, span(-1e6, 1e6), 0.5, 2, _("Force x"));
  checked(self, builder, "vy", z->vector.y, span(-1e6, 1e6), 0.5, 2, _("Force y"));
  if (z->kind == TESS_ZONE_ATTRACTOR) checked(self, builder, "strength", z->strength, span(-1e9, 1e9), 1, 2, _("Strength"));
}

/* A dropdown of `first` (id 0) and `count` named ids, `current` selected. */
static void fill_ids(GtkWidget *w, const char *first, const TessId *ids, const char *const *names, uint32_t count,
                     TessId current) {
  GtkStringList *list = gtk_string_list_new(NULL);
  GArray *arr = g_array_new(FALSE, FALSE, sizeof(TessId));
  TessId none = 0;
  guint sel = 0;
  gtk_string_list_append(list, first);
  g_array_append_val(arr, none);
  for (uint32_t i = 0; i < count; i++) {
    gtk_string_list_append(list, names[i]);
    g_array_append_val(arr, ids[i]);
    if (ids[i] == current) sel = i + 1;
  }
  g_object_set_data_full(G_OBJECT(w), "tess-ids", arr, (GDestroyNotify)g_array_unref);
  gtk_drop_down_set_model(GTK_DROP_DOWN(w), G_LIST_MODEL(list));
  g_object_unref(list);
  gtk_drop_down_set_selected(GTK_DROP_DOWN(w), sel);
}

/* A launcher: its speed (0 = any) and ball radius held to core's ranges,
 * what it fires (a ball or a sprite's body) and the projectile's material. */
static void fill_launcher(TessObjectInspector *self, GtkBuilder *builder, const TessLauncherObject *l) {
  TessProject *p = project(self);
  checked(self, builder, "launch_speed", l->speed, tess_object_range(TESS_OBJECT_RANGE_SPEED), 0.5, 1, _("Launch speed"));
  checked(self, builder, "launch_radius", l->radius, tess_object_range(TESS_OBJECT_RANGE_EXTENT), 1, 1, _("Ball radius"));
  uint32_t n = MAX(p->sprite_count, p->material_count);
  TessId *ids = g_new0(TessId, n + 1);
  const char **names = g_new0(const char *, n + 1);
  for (uint32_t i = 0; i < p->sprite_count; i++) {
    ids[i] = p->sprites[i]->id;
    names[i] = p->sprites[i]->name;
  }
  fill_ids(field(builder, "launch_fires"), _("A ball"), ids, names, p->sprite_count, l->sprite);
  for (uint32_t i = 0; i < p->material_count; i++) {
    ids[i] = p->materials[i].id;
    names[i] = p->materials[i].name;
  }
  fill_ids(field(builder, "launch_material"), _("Project default"), ids, names, p->material_count, l->material);
  g_free(ids);
  g_free(names);
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
    case TESS_OBJECT_LAUNCHER: return _("Launcher");
    default: return _("Body");
  }
}

/* One row per custom property: its value's editor depends on its type. */
static void fill_props(GtkGrid *pgrid, const TessObject *o) {
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
}

/* The editors of tess-object-fields.ui, their handlers bound to this inspector. */
static GtkBuilder *fields_builder(TessObjectInspector *self) {
  GtkBuilder *builder = gtk_builder_new();
  g_autoptr(GtkBuilderScope) scope = gtk_builder_cscope_new();
  gtk_builder_cscope_add_callback(scope, on_name_activate);
  gtk_builder_cscope_add_callback(scope, on_body_type);
  gtk_builder_cscope_add_callback(scope, on_material);
  gtk_builder_cscope_add_callback(scope, on_sensor);
  gtk_builder_cscope_add_callback(scope, on_pixels);
  gtk_builder_cscope_add_callback(scope, on_bits_activate);
  gtk_builder_cscope_add_callback(scope, on_pin);
  gtk_builder_cscope_add_callback(scope, on_zone_kind);
  gtk_builder_cscope_add_callback(scope, on_integrator);
  gtk_builder_cscope_add_callback(scope, on_launch_fires);
  gtk_builder_cscope_add_callback(scope, on_launch_material);
  gtk_builder_cscope_add_callback(scope, on_joint_switch);
  gtk_builder_cscope_add_callback(scope, on_prop_add);
  gtk_builder_set_scope(builder, scope);
  gtk_builder_set_current_object(builder, G_OBJECT(self));
  g_autoptr(GError) error = NULL;
  if (!gtk_builder_add_from_resource(builder, "/org/tessera/Editor/tess-object-fields.ui", &error))
    g_error("tess-object-fields.ui: %s", error->message); /* compiled in: a broken file is a build bug */
  return builder;
}

static void rebuild(TessObjectInspector *self) {
  g_clear_handle_id(&self->rebuild_source, g_source_remove);
  if (self->content) {
    gtk_box_remove(GTK_BOX(self), self->content);
    self->content = NULL;
    self->new_prop_name = self->new_prop_type = NULL;
  }
  self->dirty = FALSE;
  const TessObject *o = current(self);
  gtk_widget_set_visible(self->placeholder, o == NULL);
  if (!o) return;

  g_autoptr(GtkBuilder) builder = fields_builder(self);
  self->building = TRUE;
  keep_rows(builder, o);
  gtk_label_set_text(GTK_LABEL(field(builder, "title")), o->kind != TESS_OBJECT_JOINT             ? kind_title(o->kind)
                                                         : o->u.joint.kind == TESS_JOINT_DISTANCE ? _("Distance joint")
                                                                                                  : _("Pin joint"));
  GtkWidget *name = field(builder, "name");
  gtk_entry_set_max_length(GTK_ENTRY(name), TESS_NAME_MAX - 1);
  gtk_editable_set_text(GTK_EDITABLE(name), o->name);
  TessRange coord = tess_object_range(TESS_OBJECT_RANGE_COORD);
  checked(self, builder, "x", o->pos.x, coord, 1, 1, "X");
  checked(self, builder, "y", o->pos.y, coord, 1, 1, "Y");
  checked(self, builder, "angle", o->angle * 180.0 / G_PI, span(-360, 360), 1, 1, _("Angle"));
  checked(self, builder, "depth", o->depth, span(TESS_OBJECT_DEPTH_MIN, TESS_OBJECT_DEPTH_MAX), 1, 0, _("Depth"));
  g_array_set_size(self->material_ids, 0);
  if (o->kind == TESS_OBJECT_BODY) fill_body(self, builder, &o->u.body);
  else if (o->kind == TESS_OBJECT_ZONE) fill_zone(self, builder, &o->u.zone);
  else if (o->kind == TESS_OBJECT_JOINT) fill_joint(self, builder, &o->u.joint);
  else if (o->kind == TESS_OBJECT_LAUNCHER) fill_launcher(self, builder, &o->u.launcher);
  fill_props(GTK_GRID(field(builder, "props")), o);
  gtk_entry_set_max_length(GTK_ENTRY(field(builder, "new_prop_name")), TESS_NAME_MAX - 1);
  self->new_prop_name = field(builder, "new_prop_name");
  self->new_prop_type = field(builder, "new_prop_type");
  self->building = FALSE;

  self->content = field(builder, "content");
  gtk_box_append(GTK_BOX(self), self->content);
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
    case 8: tess_object_default(o, TESS_OBJECT_LAUNCHER); break;
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
#define TEMPLATE_SPRITE 9

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
  g_array_unref(TESS_OBJECT_INSPECTOR(object)->material_ids);
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
  gtk_widget_dispose_template(GTK_WIDGET(self), TESS_TYPE_OBJECT_INSPECTOR);
  G_OBJECT_CLASS(tess_object_inspector_parent_class)->dispose(object);
}

static void tess_object_inspector_class_init(TessObjectInspectorClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = tess_object_inspector_dispose;
  G_OBJECT_CLASS(klass)->finalize = tess_object_inspector_finalize;
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
  gtk_widget_class_set_template_from_resource(widget_class, "/org/tessera/Editor/tess-object-inspector.ui");
  gtk_widget_class_bind_template_child(widget_class, TessObjectInspector, placeholder);
  gtk_widget_class_bind_template_child(widget_class, TessObjectInspector, template_kind);
  gtk_widget_class_bind_template_callback(widget_class, on_template_kind);
  signals[SIGNAL_TEMPLATE_CHANGED] = g_signal_new("template-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void tess_object_inspector_init(TessObjectInspector *self) {
  self->material_ids = g_array_new(FALSE, FALSE, sizeof(TessId));
  make_template(&self->template_obj, 0);
  gtk_widget_init_template(GTK_WIDGET(self));
}

GtkWidget *tess_object_inspector_new(void) { return g_object_new(TESS_TYPE_OBJECT_INSPECTOR, NULL); }
