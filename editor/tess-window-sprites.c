/* TessWindow's sprite tools: the Sprites page (a TessSpritePanel placed by
 * tess-window.ui), Tileset Collision… (win.tileset-collision, in the main
 * menu of tess-window.ui), and "Place on the Map" handing the sprite body to
 * the object tool. The window owns these as it owns its other panels; the
 * sprite panel knows nothing of the window. */
#include "tess-window-private.h"

#include "tess-sprite-panel.h"
#include "tess-tileset-collision.h"

static void action_tileset_collision(GSimpleAction *a, GVariant *p, gpointer user) {
  TessWindow *self = user;
  if (!self->doc) return;
  /* Open on the tileset the user paints with, not the project's first. */
  TessId tileset = tess_tile_palette_get_tileset(self->tile_palette);
  gtk_window_present(tess_tileset_collision_window_new(GTK_WINDOW(self), self->doc, tileset));
}

/* The object tool's template goes through the inspector's Place dropdown,
 * so the dropdown says "Sprite" while clicks place the sprite. */
static void on_place_requested(TessSpritePanel *panel, TessWindow *self) {
  const TessObject *tmpl = tess_sprite_panel_get_template(panel);
  if (!tmpl) return;
  /* The tool first (its own change handlers may reset the template), then the sprite body. */
  g_action_group_activate_action(G_ACTION_GROUP(self), "tool", g_variant_new_string("object"));
  tess_object_inspector_set_sprite_template(self->object_inspector, tmpl);
  gtk_widget_grab_focus(self->map_view);
}

static void on_sprite_template_changed(TessSpritePanel *panel, TessWindow *self) {
  /* A new body type or material while placing sprites applies to the next click. */
  const TessObject *tmpl = tess_sprite_panel_get_template(panel);
  if (!tmpl || tess_map_view_get_tool(_tess_window_map(self)) != TESS_TOOL_OBJECT) return;
  tess_object_inspector_set_sprite_template(self->object_inspector, tmpl);
}

void _tess_window_sprites_init(TessWindow *self) {
  static const GActionEntry actions[] = {{"tileset-collision", action_tileset_collision, NULL, NULL, NULL, {0}}};
  g_action_map_add_action_entries(G_ACTION_MAP(self), actions, G_N_ELEMENTS(actions), self);
  _tess_window_update_actions(self); /* enabled with a project only */
  g_signal_connect(self->sprite_panel, "place-requested", G_CALLBACK(on_place_requested), self);
  g_signal_connect(self->sprite_panel, "template-changed", G_CALLBACK(on_sprite_template_changed), self);
}

GtkWidget *tess_window_get_sprite_panel(TessWindow *self) { return GTK_WIDGET(self->sprite_panel); }
