/* The object inspector's "Collide by pixels" row (issue 15), driven through the real widgets
 * under Xvfb: only a static sprite body has it; ticking it reaches the model and the file, is one
 * undo step, and the level's scene then holds the body's pixel mask instead of its shapes. */
#include <string.h>

#include "editor_fixture.h"
#include "tess-object-inspector.h"
#include "tess-ui.h"
#include "tessera/scene.h"

static const TessObject *object_of(TessWindow *w, TessId id) { return tess_level_object(fixture_level(w), id, NULL); }

static TessId add_sprite_body(TessWindow *w, uint8_t type) {
  TessProject *p = tess_document_get_project(tess_window_get_document(w));
  CHECK(p->sprite_count > 0);
  if (!p->sprite_count) return 0;
  TessObject obj;
  tess_object_default(&obj, TESS_OBJECT_BODY);
  tess_ui_copy_name(obj.name, "Rock");
  obj.pos = tess_v2(200, 60);
  obj.angle = 0.4f;
  obj.u.body.shape = TESS_BODY_SPRITE;
  obj.u.body.sprite = p->sprites[0]->id;
  obj.u.body.type = type;
  return fixture_add_object(w, &obj);
}

static uint32_t scene_masks(TessWindow *w) {
  TessScene *s = NULL;
  TessError err = {0};
  CHECK_OK(tess_scene_from_level(tess_document_get_project(tess_window_get_document(w)), fixture_level(w), &s, &err), &err);
  uint32_t n = 0;
  for (uint32_t i = 0; s && i < s->pixel_mask_count; i++) n += s->pixel_masks[i].body != 0;
  tess_scene_destroy(s);
  return n;
}

static void inspector_pixel_row(void) {
  g_autofree char *path = fixture_copy_demo("pixel-body.tessera");
  TessWindow *w = fixture_window(path);
  TessObjectInspector *insp = TESS_OBJECT_INSPECTOR(tess_window_get_object_inspector(w));
  GtkWidget *root = GTK_WIDGET(insp);
  TessId dynamic = add_sprite_body(w, TESS_BODY_DYNAMIC), rock = add_sprite_body(w, TESS_BODY_STATIC);
  TessId level = tess_window_get_level(w);

  tess_object_inspector_set_object(insp, level, dynamic);
  fixture_spin();
  CHECK_MSG(fixture_find_named(root, "body-pixels") == NULL, "a dynamic body has the pixel row");

  tess_object_inspector_set_object(insp, level, rock);
  fixture_spin();
  GtkWidget *check = fixture_find_named(root, "body-pixels");
  CHECK(check && GTK_IS_CHECK_BUTTON(check));
  if (!check) {
    fixture_close(w);
    return;
  }
  CHECK(!gtk_check_button_get_active(GTK_CHECK_BUTTON(check)));
  const char *tip = gtk_widget_get_tooltip_text(check);
  CHECK_MSG(tip && strstr(tip, "pixels"), "tooltip: %s", tip ? tip : "(none)");
  uint32_t before = scene_masks(w);

  gtk_check_button_set_active(GTK_CHECK_BUTTON(check), TRUE);
  fixture_spin();
  CHECK(object_of(w, rock)->u.body.collide_pixels);
  CHECK(scene_masks(w) == before + 1);
  TessProject *disk = fixture_load(path);
  const TessObject *o = disk ? tess_level_object(tess_project_level(disk, level), rock, NULL) : NULL;
  CHECK(o && o->u.body.collide_pixels);
  if (disk) tess_project_destroy(disk);
  check = fixture_find_named(root, "body-pixels");
  CHECK(check && gtk_check_button_get_active(GTK_CHECK_BUTTON(check)));

  CHECK(gtk_widget_activate_action(GTK_WIDGET(w), "win.undo", NULL));
  fixture_spin();
  CHECK(!object_of(w, rock)->u.body.collide_pixels);
  CHECK(scene_masks(w) == before);
  fixture_close(w);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {TEST(inspector_pixel_row)};
  return fixture_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
