/* The editor runs translated: with LANGUAGE=fr its windows, its error
 * sentences (core's code and place turned into words) and its undo labels
 * come out in French from the catalogue built in the tree. */
#include <string.h>

#include "editor_fixture.h"
#include "png_fixture.h"
#include "tess-mask-editor.h"
#include "tess-sprite-panel.h"
#include "tess-layers-panel.h"
#include "tess-map-view.h"
#include "tess-material-panel.h"
#include "tess-object-inspector.h"
#include "tess-ui.h"

static void french_error_sentences(void) {
  TessError err = {0};
  err.code = TESS_ERR_VERSION;
  g_strlcpy(err.file, "/tmp/castle.tessera", sizeof err.file);
  g_strlcpy(err.detail, "castle.tessera was saved by a newer Tessera (schema 9)", sizeof err.detail);
  g_autofree char *s = tess_document_describe_error(TESS_ERR_VERSION, &err);
  CHECK_MSG(strstr(s, "« castle.tessera » a été créé par une version plus récente de Tessera.") == s, "%s", s);
  err.code = TESS_ERR_FORMAT;
  err.place_kind = TESS_PLACE_OFFSET;
  err.place = 4096;
  g_autofree char *t = tess_document_describe_error(TESS_ERR_FORMAT, &err);
  CHECK_MSG(strstr(t, "n’est pas au format attendu") && strstr(t, "(octet 4096 :"), "%s", t);
}

static void french_window(void) {
  g_autofree char *path = fixture_copy_demo("fr.tessera");
  TessWindow *w = fixture_window(NULL);
  CHECK(strcmp(gtk_window_get_title(GTK_WINDOW(w)), "Tessera") == 0);
  CHECK(tess_window_open_path(w, path));
  fixture_spin();
  /* The undo button names the last step in French. */
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLayersPanel *panel = TESS_LAYERS_PANEL(tess_window_get_layers_panel(w));
  CHECK(tess_layers_panel_add_layer(panel, TESS_LAYER_TILES));
  fixture_spin();
  CHECK(tess_project_can_undo(p));
  /* A new layer gets a French name. */
  TessLevel *level = tess_project_level(p, tess_window_get_level(w));
  const char *name = tess_level_layer(level, tess_window_get_layer(w))->props.name;
  CHECK_MSG(g_str_has_prefix(name, "Tuiles "), "new layer: %s", name);
  /* A refused drop says why in French. */
  g_autoptr(GFile) file = g_file_new_for_path("/tmp/image.png");
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_FILE);
  g_value_set_object(&value, file);
  gboolean accepted = TRUE;
  g_signal_emit_by_name(tess_window_get_drop_target(w), "drop", &value, 1.0, 1.0, &accepted);
  g_value_unset(&value);
  CHECK(!accepted);
  CHECK_MSG(strstr(tess_window_get_reported(w), "n’est pas un projet Tessera"), "%s", tess_window_get_reported(w));
  fixture_close(w);
}

/* A pin joint's rows in the object inspector come out in French. */
static GtkWidget *find_label(GtkWidget *root, const char *text) {
  if (GTK_IS_LABEL(root) && strcmp(gtk_label_get_text(GTK_LABEL(root)), text) == 0) return root;
  if (GTK_IS_CHECK_BUTTON(root) && g_strcmp0(gtk_check_button_get_label(GTK_CHECK_BUTTON(root)), text) == 0) return root;
  for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
    GtkWidget *hit = find_label(c, text);
    if (hit) return hit;
  }
  return NULL;
}

static void french_pin_joint_rows(void) {
  g_autofree char *path = fixture_copy_demo("fr-pin.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLevel *level = tess_project_level(p, tess_window_get_level(w));
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_JOINT);
  TessId id = fixture_add_object(w, &o);
  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_object(insp, level->id, id);
  fixture_spin();
  const char *fr[] = {"Liaison pivot", "Limites d’angle", "Minimum (°)", "Maximum (°)", "Moteur",
                      "Vitesse du moteur (tr/min)", "Couple maximal (N·m)"};
  for (size_t i = 0; i < G_N_ELEMENTS(fr); i++)
    CHECK_MSG(find_label(GTK_WIDGET(insp), fr[i]) != NULL, "no \"%s\" in the inspector", fr[i]);
  fixture_close(w);
}

static GtkWidget *find_tip(GtkWidget *root, const char *tip) {
  if (g_strcmp0(gtk_widget_get_tooltip_text(root), tip) == 0) return root;
  for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
    GtkWidget *hit = find_tip(c, tip);
    if (hit) return hit;
  }
  return NULL;
}

/* Issue 14's new words in French: the pin's hint in the status bar, the
 * palette's zoom buttons, a material field's tooltip with core's range, and
 * what a field says when a letter is typed into it. */
static void french_status_palette_fields(void) {
  g_autofree char *path = fixture_copy_demo("fr-new.tessera");
  TessWindow *w = fixture_window(path);
  TessMapView *map = TESS_MAP_VIEW(tess_window_get_map_view(w));
  tess_map_view_set_tool(map, TESS_TOOL_OBJECT);
  TessObject t;
  tess_object_default(&t, TESS_OBJECT_JOINT);
  tess_map_view_set_object_template(map, &t);
  tess_object_clear(&t);
  fixture_spin();
  CHECK_MSG(g_strcmp0(tess_window_get_status(w, "hint"), "Cliquez sur le premier corps, puis sur le second") == 0, "%s",
            tess_window_get_status(w, "hint"));
  GtkWidget *palette = tess_window_get_tile_palette(w);
  CHECK(find_tip(palette, "Zoomer sur le jeu de tuiles (Ctrl+molette)") != NULL);
  CHECK(find_tip(palette, "Dézoomer le jeu de tuiles (Ctrl+molette)") != NULL);
  TessMaterialPanel *materials = TESS_MATERIAL_PANEL(tess_window_get_material_panel(w));
  GtkWidget *friction = tess_material_panel_get_field(materials, "friction");
  CHECK_MSG(g_strcmp0(gtk_widget_get_tooltip_text(friction), "Frottement de Coulomb (de 0 à 100)") == 0, "%s",
            gtk_widget_get_tooltip_text(friction));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  tess_material_panel_select(materials, p->materials[0].id);
  fixture_spin();
  gtk_editable_set_text(GTK_EDITABLE(friction), "abc");
  gtk_spin_button_update(GTK_SPIN_BUTTON(friction));
  fixture_spin();
  CHECK_MSG(g_strcmp0(tess_ui_number_get_message(friction), "« abc » n’est pas un nombre. Frottement doit être compris entre 0 et 100.") == 0,
            "%s", tess_ui_number_get_message(friction));
  fixture_close(w);
}

/* A body's integrator and a spring zone's rows come out in French. */
static void french_integrator_and_spring_rows(void) {
  g_autofree char *path = fixture_copy_demo("fr-spring.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLevel *level = tess_project_level(p, tess_window_get_level(w));
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.u.body.integrator = TESS_INTEGRATOR_RK4;
  TessId body = fixture_add_object(w, &o);
  tess_object_default(&o, TESS_OBJECT_ZONE);
  o.u.zone.kind = TESS_ZONE_SPRING;
  o.u.zone.strength = TESS_SPRING_DEFAULT_STRENGTH;
  TessId zone = fixture_add_object(w, &o);
  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_object(insp, level->id, body);
  fixture_spin();
  CHECK(find_label(GTK_WIDGET(insp), "Intégrateur") != NULL);
  tess_object_inspector_set_object(insp, level->id, zone);
  fixture_spin();
  CHECK(find_label(GTK_WIDGET(insp), "Raideur (1/s²)") != NULL && find_label(GTK_WIDGET(insp), "Portée (px)") != NULL);
  fixture_close(w);
}

/* The pixel rows in French: a static sprite body's "Collide by pixels" and
 * its tooltip in the inspector, and a tile layer's "By pixels" with its tooltip. */
static void french_pixel_rows(void) {
  g_autofree char *path = fixture_copy_demo("fr-pixels.tessera");
  TessWindow *w = fixture_window(path);
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  TessLevel *level = tess_project_level(p, tess_window_get_level(w));
  CHECK(p->sprite_count > 0);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  o.u.body.shape = TESS_BODY_SPRITE;
  o.u.body.type = TESS_BODY_STATIC;
  o.u.body.sprite = p->sprite_count ? p->sprites[0]->id : 0;
  TessId body = fixture_add_object(w, &o);
  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  tess_object_inspector_set_object(insp, level->id, body);
  fixture_spin();
  CHECK(find_label(GTK_WIDGET(insp), "Collisions par pixels") != NULL);
  CHECK(find_tip(GTK_WIDGET(insp),
                 "Entre en collision selon les pixels du sprite (son alpha au seuil du masque), tournés avec "
                 "le corps, au lieu des formes tracées. Les balles roulent sur chaque bosse ; on peut le "
                 "creuser dans un jeu.") != NULL);
  GtkWidget *layers = tess_window_get_layers_panel(w);
  CHECK(find_label(layers, "Par _pixels") != NULL);
  CHECK(find_tip(layers, "Entrer en collision selon les pixels des tuiles (un masque de pixels) plutôt que par cases") != NULL);
  fixture_close(w);
}

/* The sprite tools' refusals name the sprite and say what to do, in French:
 * the mask editor's line after a threshold above every pixel, and the
 * message bar after a refused import. */
static void french_sprite_refusals(void) {
  g_autofree char *path = fixture_copy_demo("fr-sprite.tessera");
  g_autofree char *png = tess_test_write_rect_png("lanterne.png", 40, 30, 4, 4, 36, 26, 150);
  g_autofree char *ghost = tess_test_write_rect_png("fantome.png", 8, 8, 0, 0, 0, 0, 0);
  TessWindow *w = fixture_window(path);
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_window_get_sprite_panel(w));
  GSList *files = g_slist_append(g_slist_append(NULL, g_file_new_for_path(png)), g_file_new_for_path(ghost));
  CHECK(tess_sprite_panel_import(panel, files, NULL) == 1);
  g_slist_free_full(files, g_object_unref);
  fixture_spin();
  CHECK_MSG(g_strcmp0(tess_window_get_reported(w),
                      "« fantome.png » n’a pas été importé : il n’a aucun pixel d’alpha 1 ou plus d’où tracer un "
                      "masque de collision. Donnez des pixels opaques à l’image, puis importez-la de nouveau.") == 0,
            "%s", tess_window_get_reported(w));
  GtkWindow *mask = tess_mask_editor_window_new(GTK_WINDOW(w), tess_window_get_document(w),
                                                tess_sprite_panel_get_selected(panel));
  gtk_window_present(mask);
  fixture_spin();
  TessMaskEditor *editor = TESS_MASK_EDITOR(gtk_window_get_child(mask));
  gtk_range_set_value(tess_mask_editor_get_threshold(editor), 151);
  fixture_spin();
  GObject *label = gtk_widget_get_template_child(GTK_WIDGET(editor), TESS_TYPE_MASK_EDITOR, "message");
  const char *said = GTK_IS_LABEL(label) ? gtk_label_get_text(GTK_LABEL(label)) : "";
  CHECK_MSG(strcmp(said,
                   "Le sprite « lanterne » n’a aucun pixel d’alpha 151 ou plus, il n’y a donc aucune forme à "
                   "tracer : baissez le seuil alpha. Son masque n’a pas changé.") == 0,
            "%s", said);
  gtk_window_destroy(mask);
  fixture_close(w);
}

static const TessTestCase cases[] = {TEST(french_error_sentences), TEST(french_window), TEST(french_pin_joint_rows),
                                     TEST(french_status_palette_fields), TEST(french_integrator_and_spring_rows),
                                     TEST(french_pixel_rows), TEST(french_sprite_refusals)};

int main(int argc, char **argv) {
  g_setenv("LANGUAGE", "fr", TRUE);
  g_setenv("LANG", "C.UTF-8", TRUE);
  return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases));
}
