/* The editor runs translated: with LANGUAGE=fr its windows, its error
 * sentences (core's code and place turned into words) and its undo labels
 * come out in French from the catalogue built in the tree. */
#include <string.h>

#include "editor_fixture.h"
#include "tess-layers-panel.h"

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

static const TessTestCase cases[] = {TEST(french_error_sentences), TEST(french_window)};

int main(int argc, char **argv) {
  g_setenv("LANGUAGE", "fr", TRUE);
  g_setenv("LANG", "C.UTF-8", TRUE);
  return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases));
}
