/* The object inspector's per-body integrator and spring zone fields (issue 15), driven through
 * the real widgets under Xvfb: each change reaches the model and the file, is one undo step, and
 * numbers core refuses are refused by the field. */
#include <math.h>
#include <string.h>

#include "editor_fixture.h"
#include "tess-object-inspector.h"
#include "tess-ui.h"

static const TessObject *object_of(TessWindow *w, TessId id) { return tess_level_object(fixture_level(w), id, NULL); }

static void undo(TessWindow *w, const char *action) {
  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), action, NULL));
  fixture_spin();
}

/* A body's integrator: the dropdown says Euler by default and explains RK4 in its tooltip;
 * choosing RK4 sets the model and the file, undo and redo step it back and forth. */
static void inspector_integrator(void) {
  g_autofree char *path = fixture_copy_demo("integrator.tessera");
  TessWindow *w = fixture_window(path);
  TessLevel *level = fixture_level(w);
  TessObject obj;
  tess_object_default(&obj, TESS_OBJECT_BODY);
  tess_ui_copy_name(obj.name, "Bob");
  obj.pos = tess_v2(200, 60);
  TessId bob = fixture_add_object(w, &obj);
  if (!bob) {
    fixture_close(w);
    return;
  }

  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_object(insp, level->id, bob);
  fixture_spin();
  GtkWidget *root = GTK_WIDGET(insp);
  GtkWidget *dd = fixture_find_named(root, "body-integrator");
  CHECK(dd && GTK_IS_DROP_DOWN(dd));
  if (!dd) {
    fixture_close(w);
    return;
  }
  GListModel *items = gtk_drop_down_get_model(GTK_DROP_DOWN(dd));
  CHECK(g_list_model_get_n_items(items) == 2);
  CHECK(strcmp(gtk_string_list_get_string(GTK_STRING_LIST(items), 0), "Semi-implicit Euler") == 0);
  CHECK(strcmp(gtk_string_list_get_string(GTK_STRING_LIST(items), 1), "RK4") == 0);
  CHECK(gtk_drop_down_get_selected(GTK_DROP_DOWN(dd)) == 0);
  const char *tip = gtk_widget_get_tooltip_text(dd);
  CHECK_MSG(tip && strstr(tip, "RK4") && strstr(tip, "spring"), "tooltip: %s", tip ? tip : "(none)");

  gtk_drop_down_set_selected(GTK_DROP_DOWN(dd), 1);
  fixture_spin();
  CHECK(object_of(w, bob)->u.body.integrator == TESS_INTEGRATOR_RK4);
  TessProject *disk = fixture_load(path);
  const TessObject *o = disk ? tess_level_object(tess_project_level(disk, level->id), bob, NULL) : NULL;
  CHECK(o && o->u.body.integrator == TESS_INTEGRATOR_RK4);
  if (disk) tess_project_destroy(disk);
  /* The inspector rebuilt after the edit shows the model's choice. */
  dd = fixture_find_named(root, "body-integrator");
  CHECK(dd && gtk_drop_down_get_selected(GTK_DROP_DOWN(dd)) == 1);

  undo(w, "win.undo");
  CHECK(object_of(w, bob)->u.body.integrator == TESS_INTEGRATOR_EULER);
  dd = fixture_find_named(root, "body-integrator");
  CHECK(dd && gtk_drop_down_get_selected(GTK_DROP_DOWN(dd)) == 0);
  undo(w, "win.redo");
  CHECK(object_of(w, bob)->u.body.integrator == TESS_INTEGRATOR_RK4);
  fixture_close(w);
}

/* A zone turned into a spring: stiffness and reach replace the rectangle's fields, the stiffness
 * is held to core's range (TESS_OBJECT_RANGE_SPRING), the file keeps what the model keeps; the
 * object tool's "Spring zone" places one. */
static void inspector_spring_zone(void) {
  g_autofree char *path = fixture_copy_demo("spring.tessera");
  TessWindow *w = fixture_window(path);
  TessLevel *level = fixture_level(w);
  TessObject obj;
  tess_object_default(&obj, TESS_OBJECT_ZONE); /* wind */
  obj.pos = tess_v2(200, 100);
  TessId zone = fixture_add_object(w, &obj);
  if (!zone) {
    fixture_close(w);
    return;
  }
  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_object(insp, level->id, zone);
  fixture_spin();
  GtkWidget *root = GTK_WIDGET(insp);
  GtkWidget *kind = fixture_find_named(root, "zone-kind");
  CHECK(kind && fixture_find_named(root, "zone-width") && !fixture_find_named(root, "zone-stiffness"));
  if (!kind) {
    fixture_close(w);
    return;
  }
  gtk_drop_down_set_selected(GTK_DROP_DOWN(kind), 3);
  fixture_spin();
  const TessZoneObject *z = &object_of(w, zone)->u.zone;
  CHECK(z->kind == TESS_ZONE_SPRING && z->strength == TESS_SPRING_DEFAULT_STRENGTH);
  GtkWidget *k = fixture_find_named(root, "zone-stiffness"), *reach = fixture_find_named(root, "zone-reach");
  CHECK(k && reach && !fixture_find_named(root, "zone-width"));
  if (!(k && reach)) {
    fixture_close(w);
    return;
  }
  TessRange range = tess_object_range(TESS_OBJECT_RANGE_SPRING);
  double lo, hi;
  gtk_spin_button_get_range(GTK_SPIN_BUTTON(k), &lo, &hi);
  CHECK_MSG(lo == range.lo && hi == range.hi, "stiffness field range %g..%g, core's %g..%g", lo, hi, range.lo, range.hi);
  fixture_type_into(k, "9");
  CHECK(object_of(w, zone)->u.zone.strength == 9.0f);
  const char *bad[] = {"-1", "2e6", "nan", "stiff"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    k = fixture_find_named(root, "zone-stiffness");
    if (k) fixture_type_into(k, bad[i]);
    CHECK_MSG(object_of(w, zone)->u.zone.strength == 9.0f, "'%s' changed the stiffness to %g", bad[i],
              object_of(w, zone)->u.zone.strength);
  }
  reach = fixture_find_named(root, "zone-reach");
  if (reach) fixture_type_into(reach, "64");
  CHECK(object_of(w, zone)->u.zone.radius == 64.0f);
  TessProject *disk = fixture_load(path);
  const TessObject *o = disk ? tess_level_object(tess_project_level(disk, level->id), zone, NULL) : NULL;
  CHECK(o && o->u.zone.kind == TESS_ZONE_SPRING && o->u.zone.strength == 9.0f && o->u.zone.radius == 64.0f);
  if (disk) tess_project_destroy(disk);
  /* One undo step per change: the reach goes, the stiffness stays. */
  undo(w, "win.undo");
  CHECK(object_of(w, zone)->u.zone.radius == 0.0f && object_of(w, zone)->u.zone.strength == 9.0f);

  /* The object tool's "Spring zone". */
  GtkDropDown *choice = tess_object_inspector_get_template_choice(insp);
  GListModel *kinds = gtk_drop_down_get_model(choice);
  guint spring = G_MAXUINT;
  for (guint i = 0; i < g_list_model_get_n_items(kinds); i++)
    if (strcmp(gtk_string_list_get_string(GTK_STRING_LIST(kinds), i), "Spring zone") == 0) spring = i;
  CHECK(spring != G_MAXUINT);
  if (spring != G_MAXUINT) {
    tess_object_inspector_set_template_kind(insp, spring);
    const TessObject *t = tess_object_inspector_get_template(insp);
    CHECK(t->kind == TESS_OBJECT_ZONE && t->u.zone.kind == TESS_ZONE_SPRING &&
          t->u.zone.strength == TESS_SPRING_DEFAULT_STRENGTH && t->u.zone.radius > 0.0f);
    TessError err = {0};
    CHECK_OK(tess_object_validate(t, &err), &err);
  }
  fixture_close(w);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(inspector_integrator), TEST(inspector_spring_zone)};
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
