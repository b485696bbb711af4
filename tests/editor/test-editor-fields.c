/* Number fields of the material and object inspectors (issue 14, items 7
 * and 8), in the real window under Xvfb: what a user types that core would
 * refuse (letters, NaN, -5, 1e9) is refused with a message right under the
 * field naming the range core defines; a value in range is stored and the
 * message goes. Undo: a focused field has no text undo of its own (an extra
 * Ctrl+Z blanked it), and two typed, committed edits of one field are two
 * undo steps. Every check reads the project, and the file where it matters. */
#include <float.h>
#include <string.h>

#include "editor_fixture.h"
#include "tess-material-panel.h"
#include "tess-object-inspector.h"
#include "tess-ui.h"

/* The message shown under `spin`: the label the field put right below it. */
static const char *message_under(GtkWidget *spin) {
  GtkWidget *parent = gtk_widget_get_parent(spin);
  if (!GTK_IS_GRID(parent)) return NULL;
  int col, row, w, h;
  gtk_grid_query_child(GTK_GRID(parent), spin, &col, &row, &w, &h);
  GtkWidget *below = gtk_grid_get_child_at(GTK_GRID(parent), col, row + h);
  if (!below || !GTK_IS_LABEL(below) || g_strcmp0(gtk_widget_get_name(below), "tess-field-message") != 0) return NULL;
  if (!gtk_widget_get_visible(below)) return NULL;
  return gtk_label_get_text(GTK_LABEL(below));
}

static gboolean mentions(const char *text, const char *word) { return text && strstr(text, word) != NULL; }

/* Types each bad text into `spin`: the model keeps `kept` (read by `now`),
 * the field shows an error and a message naming the range. */
typedef double (*ReadFn)(TessProject *p, TessId id);

static void refuses(GtkWidget *spin, TessProject *p, TessId id, ReadFn now, double kept, const char *what,
                    const char *lo, const char *hi, const char *const *bad, size_t n) {
  for (size_t i = 0; i < n; i++) {
    fixture_type_into(spin, bad[i]);
    CHECK_MSG(now(p, id) == kept, "%s became %g after \"%s\"", what, now(p, id), bad[i]);
    const char *msg = message_under(spin);
    CHECK_MSG(msg != NULL, "no message under %s after \"%s\"", what, bad[i]);
    CHECK_MSG(mentions(msg, what) && mentions(msg, lo) && mentions(msg, hi), "%s after \"%s\": %s", what, bad[i],
              msg ? msg : "(none)");
    CHECK(g_strcmp0(tess_ui_number_get_message(spin), msg) == 0);
    CHECK(gtk_widget_has_css_class(spin, "error"));
  }
}

static double friction_of(TessProject *p, TessId id) { return tess_project_material(p, id)->friction; }
static double density_of(TessProject *p, TessId id) { return tess_project_material(p, id)->density; }

/* Item 7, materials: the ranges are core's (tess_surface_range,
 * tess_material_density_range), and so are the messages' numbers. */
static void material_fields_say_why(void) {
  g_autofree char *path = fixture_copy_demo("fields.tessera");
  TessWindow *w = fixture_window(path);
  TessMaterialPanel *panel = TESS_MATERIAL_PANEL(tess_window_get_material_panel(w));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessId id = p->materials[0].id;
  tess_material_panel_select(panel, id);
  fixture_spin();
  GtkWidget *friction = tess_material_panel_get_field(panel, "friction");
  GtkWidget *density = tess_material_panel_get_field(panel, "density");
  double f0 = friction_of(p, id), d0 = density_of(p, id);
  TessRange fr = tess_surface_range(TESS_SURFACE_FRICTION), dr = tess_material_density_range();
  CHECK(fr.lo == 0.0 && fr.hi == TESS_FRICTION_MAX);
  g_autofree char *fhi = g_strdup_printf("%g", fr.hi), *dhi = g_strdup_printf("%g", dr.hi);

  const char *bad[] = {"abc", "NaN", "-5", "1e9", "2.5kg", "inf"};
  refuses(friction, p, id, friction_of, f0, "Friction", "0", fhi, bad, G_N_ELEMENTS(bad));
  const char *bad_density[] = {"abc", "NaN", "-5", "0", "1e9"};
  refuses(density, p, id, density_of, d0, "Density", "0", dhi, bad_density, G_N_ELEMENTS(bad_density));
  CHECK(!tess_project_can_undo(p));

  /* A value in range is stored, the message and the error style go. */
  fixture_type_into(friction, "0.25");
  CHECK_NEAR(friction_of(p, id), 0.25, 1e-6);
  CHECK(message_under(friction) == NULL && tess_ui_number_get_message(friction) == NULL);
  CHECK(!gtk_widget_has_css_class(friction, "error"));
  /* The top of the range is in it; 1e9 was refused, 100 is not. */
  fixture_type_into(friction, fhi);
  CHECK_NEAR(friction_of(p, id), fr.hi, 1e-6);
  TessProject *disk = fixture_load(path);
  CHECK(disk && fabs(tess_project_material(disk, id)->friction - fr.hi) < 1e-6);
  CHECK(disk && tess_project_material(disk, id)->density == (float)d0);
  if (disk) tess_project_destroy(disk);
  fixture_close(w);
}

/* How many times `needle` occurs in `text`. */
static int count_in(const char *text, const char *needle) {
  int n = 0;
  for (const char *at = text ? strstr(text, needle) : NULL; at; at = strstr(at + 1, needle)) n++;
  return n;
}

/* Issue 14: each number field's tooltip states its range, taken from core
 * (the field's own range, tess_surface_range, tess_material_density_range),
 * exactly once; the sliders beside the efficiencies say the same. */
static void material_tooltips_say_core_ranges(void) {
  g_autofree char *path = fixture_copy_demo("tips.tessera");
  TessWindow *w = fixture_window(path);
  TessMaterialPanel *panel = TESS_MATERIAL_PANEL(tess_window_get_material_panel(w));
  const struct {
    const char *field;
    TessRange range;
    const char *about;
  } fields[] = {
      {"friction", tess_surface_range(TESS_SURFACE_FRICTION), "Coulomb friction"},
      {"restitution", tess_surface_range(TESS_SURFACE_RESTITUTION), "Bounce"},
      {"tangential", tess_surface_range(TESS_SURFACE_TANGENTIAL), "Speed kept along the surface"},
      {"density", tess_material_density_range(), "Density in kilograms per square metre"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(fields); i++) {
    GtkWidget *spin = tess_material_panel_get_field(panel, fields[i].field);
    const char *tip = gtk_widget_get_tooltip_text(spin);
    g_autofree char *lo = g_strdup_printf("%.10g", fields[i].range.lo), *hi = g_strdup_printf("%.10g", fields[i].range.hi);
    g_autofree char *range = fields[i].range.lo_open ? g_strdup_printf("(more than %s, up to %s)", lo, hi)
                                                     : g_strdup_printf("(%s to %s)", lo, hi);
    CHECK_MSG(tip && g_str_has_prefix(tip, fields[i].about) && g_str_has_suffix(tip, range), "%s: '%s', not '%s … %s'",
              fields[i].field, tip ? tip : "(none)", fields[i].about, range);
    /* Said once: the words before it name no range of their own. */
    g_autofree char *bare = g_strndup(range + 1, strlen(range) - 2);
    CHECK_MSG(count_in(tip, bare) == 1, "%s: '%s' is said %d times in '%s'", fields[i].field, bare, count_in(tip, bare),
              tip ? tip : "");
    /* A slider on the same adjustment says what its field says. */
    GtkWidget *grid = gtk_widget_get_parent(spin);
    for (GtkWidget *c = gtk_widget_get_first_child(grid); c; c = gtk_widget_get_next_sibling(c))
      if (GTK_IS_SCALE(c) && gtk_range_get_adjustment(GTK_RANGE(c)) == gtk_spin_button_get_adjustment(GTK_SPIN_BUTTON(spin)))
        CHECK_MSG(g_strcmp0(gtk_widget_get_tooltip_text(c), tip) == 0, "%s's slider: '%s'", fields[i].field,
                  gtk_widget_get_tooltip_text(c));
  }
  fixture_close(w);
}

static double object_x(TessProject *p, TessId id) {
  for (uint32_t l = 0; l < p->level_count; l++) {
    const TessObject *o = tess_level_object(p->levels[l], id, NULL);
    if (o) return o->pos.x;
  }
  return NAN;
}

static double object_radius(TessProject *p, TessId id) {
  for (uint32_t l = 0; l < p->level_count; l++) {
    const TessObject *o = tess_level_object(p->levels[l], id, NULL);
    if (o) return o->u.body.radius;
  }
  return NAN;
}

/* Item 7, objects: a position past 2^24 px and a radius of 0 or less are
 * refused with core's bounds (tess_object_range). */
static void object_fields_say_why(void) {
  g_autofree char *path = fixture_copy_demo("objfields.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  TessProject *p = tess_document_get_project(doc);
  TessLevel *level = tess_project_level(p, tess_window_get_level(w));
  TessObject obj;
  tess_object_default(&obj, TESS_OBJECT_BODY);
  obj.pos = tess_v2(100, 50);
  TessId ball = fixture_add_object(w, &obj);
  if (!ball) {
    fixture_close(w);
    return;
  }
  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_object(insp, level->id, ball);
  fixture_spin();
  GtkWidget *x = fixture_find_named(GTK_WIDGET(insp), "object-x"), *radius = fixture_find_named(GTK_WIDGET(insp), "body-radius");
  CHECK(x && radius);
  if (!x || !radius) {
    fixture_close(w);
    return;
  }
  TessRange coord = tess_object_range(TESS_OBJECT_RANGE_COORD);
  g_autofree char *lo = g_strdup_printf("%g", coord.lo), *hi = g_strdup_printf("%g", coord.hi);
  const char *bad[] = {"left", "nan", "1e9", "-1e9"};
  refuses(x, p, ball, object_x, 100.0, "X", lo, hi, bad, G_N_ELEMENTS(bad));
  const char *bad_radius[] = {"big", "NaN", "-5", "0", "1e9"};
  refuses(radius, p, ball, object_radius, 16.0, "Radius", "0", hi, bad_radius, G_N_ELEMENTS(bad_radius));
  /* The lower end is open: "more than 0". */
  CHECK(mentions(message_under(radius), "more than"));
  fixture_type_into(radius, "24");
  CHECK(object_radius(p, ball) == 24.0);
  radius = fixture_find_named(GTK_WIDGET(insp), "body-radius"); /* the inspector rebuilt after the edit */
  CHECK(radius && message_under(radius) == NULL);
  fixture_close(w);
}

/* Item 8: undo with the focus in a number field. */
static void number_field_undo(void) {
  g_autofree char *path = fixture_copy_demo("fieldundo.tessera");
  TessWindow *w = fixture_window(path);
  TessDocument *doc = tess_window_get_document(w);
  TessMaterialPanel *panel = TESS_MATERIAL_PANEL(tess_window_get_material_panel(w));
  TessProject *p = tess_document_get_project(doc);
  TessId id = p->materials[0].id;
  tess_material_panel_select(panel, id);
  fixture_spin();
  GtkWidget *friction = tess_material_panel_get_field(panel, "friction");
  double f0 = friction_of(p, id);
  gtk_widget_grab_focus(friction);
  /* Two typed, committed edits of the one field, in quick succession. */
  fixture_type_into(friction, "0.3");
  fixture_type_into(friction, "0.7");
  CHECK_NEAR(friction_of(p, id), 0.7, 1e-6);
  CHECK(tess_document_undo(doc, NULL)); /* the window's Ctrl+Z */
  fixture_spin();
  CHECK_MSG(fabs(friction_of(p, id) - 0.3) < 1e-6, "one undo went back to %g, not 0.3", friction_of(p, id));
  CHECK_NEAR(gtk_spin_button_get_value(GTK_SPIN_BUTTON(friction)), 0.3, 1e-6);
  CHECK(tess_document_undo(doc, NULL));
  fixture_spin();
  CHECK(friction_of(p, id) == f0);
  CHECK(!tess_project_can_undo(p));
  /* An extra Ctrl+Z in the focused field: GtkText binds Ctrl+Z to its
   * "text.undo" action. The field has no text history of its own, so the
   * text keeps showing the value (it was blanked). */
  g_autofree char *shown = g_strdup(gtk_editable_get_text(GTK_EDITABLE(friction)));
  GtkWidget *text = gtk_widget_get_first_child(friction);
  while (text && !GTK_IS_TEXT(text)) text = gtk_widget_get_next_sibling(text);
  CHECK(text != NULL);
  if (text) {
    for (int i = 0; i < 3; i++) gtk_widget_activate_action(text, "text.undo", NULL);
    fixture_spin();
  }
  CHECK_MSG(strcmp(gtk_editable_get_text(GTK_EDITABLE(friction)), shown) == 0, "the field shows \"%s\", not \"%s\"",
            gtk_editable_get_text(GTK_EDITABLE(friction)), shown);
  double v = 0.0;
  CHECK(tess_ui_parse_number(gtk_editable_get_text(GTK_EDITABLE(friction)), &v) && fabs(v - f0) < 1e-3);
  CHECK(friction_of(p, id) == f0);
  /* A held arrow (steps in quick succession, no typing) is still one step. */
  gtk_spin_button_spin(GTK_SPIN_BUTTON(friction), GTK_SPIN_STEP_FORWARD, 0.05);
  gtk_spin_button_spin(GTK_SPIN_BUTTON(friction), GTK_SPIN_STEP_FORWARD, 0.05);
  CHECK_NEAR(friction_of(p, id), f0 + 0.1, 1e-5);
  CHECK(tess_document_undo(doc, NULL));
  fixture_spin();
  CHECK(friction_of(p, id) == f0);
  CHECK(!tess_project_can_undo(p));
  fixture_close(w);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(material_fields_say_why), TEST(object_fields_say_why),
                                       TEST(number_field_undo), TEST(material_tooltips_say_core_ranges)};
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
