/* The sprite tools built from their templates (tess-sprite-panel.ui),
 * under Xvfb against the real tess-editor library:
 * each case finds the template's children by their ids, as GTK bound them,
 * and checks that the bindings on the widgets' properties keep them in step
 * with the state, so a child or a binding missing from a template fails
 * here. */
#include <string.h>

#include "editor_fixture.h"
#include "tess-sprite-panel.h"

static GtkWidget *panel_child(TessSpritePanel *panel, const char *id) {
  GObject *o = gtk_widget_get_template_child(GTK_WIDGET(panel), TESS_TYPE_SPRITE_PANEL, id);
  CHECK_MSG(GTK_IS_WIDGET(o) && gtk_widget_is_ancestor(GTK_WIDGET(o), GTK_WIDGET(panel)),
            "no template child '%s' inside the sprite panel", id);
  return GTK_WIDGET(o);
}

static guint panel_selected(TessSpritePanel *panel) {
  guint id = 0;
  g_object_get(panel, "selected", &id, NULL);
  return id;
}

/* Choosing a sprite in the Sprites tab fills its fields and makes Remove and
 * the settings sensitive (bindings on "selected"); choosing another refills
 * them; once the chosen sprite is removed (the panel's own Remove button)
 * nothing is chosen and they are insensitive again. A refused edit reaches
 * the window's message bar. */
static void templates_sprite_panel_follows_the_choice(void) {
  g_autofree char *path = fixture_copy_demo("panel.tessera");
  TessWindow *w = fixture_window(path);
  TessSpritePanel *panel = TESS_SPRITE_PANEL(tess_window_get_sprite_panel(w));
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  CHECK(p->sprite_count >= 2);
  GtkWidget *settings = panel_child(panel, "settings"), *remove = panel_child(panel, "remove_button");
  GtkWidget *name = panel_child(panel, "name"), *anchor_x = panel_child(panel, "anchor_x");
  GtkWidget *anchor_y = panel_child(panel, "anchor_y"), *frames = panel_child(panel, "frames");
  GtkWidget *list = panel_child(panel, "list"), *empty = panel_child(panel, "empty_label");
  /* The children the panel works with are the ones in its tree. */
  CHECK(GTK_WIDGET(tess_sprite_panel_get_spin(panel, "anchor-x")) == anchor_x);
  CHECK(GTK_WIDGET(tess_sprite_panel_get_spin(panel, "frames")) == frames);
  CHECK(!gtk_widget_get_visible(empty));

  gtk_list_box_unselect_all(GTK_LIST_BOX(list));
  fixture_spin();
  CHECK(panel_selected(panel) == 0 && tess_sprite_panel_get_template(panel) == NULL);
  CHECK(!gtk_widget_get_sensitive(settings) && !gtk_widget_get_sensitive(remove));

  for (int k = 0; k < 2; k++) {
    const TessSprite *sp = p->sprites[k];
    tess_sprite_panel_select(panel, sp->id);
    fixture_spin();
    CHECK(panel_selected(panel) == sp->id);
    CHECK(gtk_widget_get_sensitive(settings) && gtk_widget_get_sensitive(remove));
    CHECK_MSG(strcmp(gtk_editable_get_text(GTK_EDITABLE(name)), sp->name) == 0, "the name field says '%s', not '%s'",
              gtk_editable_get_text(GTK_EDITABLE(name)), sp->name);
    CHECK(gtk_spin_button_get_value(GTK_SPIN_BUTTON(anchor_x)) == (double)sp->anchor.x);
    CHECK(gtk_spin_button_get_value(GTK_SPIN_BUTTON(anchor_y)) == (double)sp->anchor.y);
    CHECK(gtk_spin_button_get_value_as_int(GTK_SPIN_BUTTON(frames)) == (int)(sp->frame_count ? sp->frame_count : 1));
    const TessObject *tmpl = tess_sprite_panel_get_template(panel);
    CHECK(tmpl && tmpl->u.body.sprite == sp->id);
  }

  /* A refused edit (no frames at all) is said in the window's message bar. */
  char want[TESS_NAME_MAX];
  g_strlcpy(want, p->sprites[1]->name, sizeof want);
  CHECK(!tess_sprite_panel_set_frames(panel, 0, 0));
  fixture_spin();
  const char *shown = tess_window_get_reported(w);
  CHECK_MSG(shown && strstr(shown, want), "reported: %s", shown ? shown : "(nothing)");

  /* Remove, clicked: nothing is chosen any more. */
  TessId removed = p->sprites[1]->id;
  guint before = p->sprite_count;
  g_signal_emit_by_name(remove, "clicked");
  fixture_spin();
  CHECK(p->sprite_count == before - 1 && tess_project_sprite(p, removed) == NULL);
  CHECK(panel_selected(panel) == 0);
  CHECK(!gtk_widget_get_sensitive(settings) && !gtk_widget_get_sensitive(remove));
  CHECK(tess_sprite_panel_get_row_count(panel) == before - 1);
  fixture_close(w);
}

static const TessTestCase cases[] = {
    {"templates_sprite_panel_follows_the_choice", templates_sprite_panel_follows_the_choice},
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
