/* The sprite tools in the editor window (see tess-sprites-hook.h). */
#include "tess-sprites-hook.h"

#include <glib/gi18n.h>

#include "tess-sprite-panel.h"
#include "tess-object-inspector.h"
#include "tess-tile-palette.h"
#include "tess-tileset-collision.h"
#include "tess-window.h"
#include "tess-map-view.h"
#include "tess-tool.h"

typedef struct SpritesHook {
  GtkWindow *window;     /* borrowed: the hook lives as the window's data */
  GtkNotebook *side;
  GtkWidget *panel;
  GtkWidget *map_view;
  TessDocument *doc;
  GSimpleAction *tileset_action;
} SpritesHook;

static void hook_free(gpointer data) {
  SpritesHook *h = data;
  g_clear_object(&h->doc);
  g_clear_object(&h->tileset_action);
  g_free(h);
}

static SpritesHook *hook(GtkWindow *window) { return g_object_get_data(G_OBJECT(window), "tess-sprites-hook"); }

static void on_tileset_collision(GSimpleAction *action, GVariant *param, gpointer user) {
  SpritesHook *h = user;
  if (!h->doc) return;
  /* Open on the tileset the user paints with, not the project's first. */
  TessId tileset = 0;
  GtkWidget *palette = TESS_IS_WINDOW(h->window) ? tess_window_get_tile_palette(TESS_WINDOW(h->window)) : NULL;
  if (palette) tileset = tess_tile_palette_get_tileset(TESS_TILE_PALETTE(palette));
  GtkWindow *w = tess_tileset_collision_window_new(h->window, h->doc, tileset);
  gtk_window_present(w);
}

/* The object tool's template goes through the inspector's Place dropdown,
 * so the dropdown says "Sprite" while clicks place the sprite. */
static void send_template(SpritesHook *h, const TessObject *tmpl) {
  GtkWidget *insp = TESS_IS_WINDOW(h->window) ? tess_window_get_object_inspector(TESS_WINDOW(h->window)) : NULL;
  if (insp) tess_object_inspector_set_sprite_template(TESS_OBJECT_INSPECTOR(insp), tmpl);
  else tess_map_view_set_object_template(TESS_MAP_VIEW(h->map_view), tmpl);
}

static void on_place_requested(TessSpritePanel *panel, SpritesHook *h) {
  const TessObject *tmpl = tess_sprite_panel_get_template(panel);
  if (!tmpl || !h->map_view) return;
  /* The tool first (its own change handlers may reset the template), then the sprite body. */
  g_action_group_activate_action(G_ACTION_GROUP(h->window), "tool", g_variant_new_string("object"));
  send_template(h, tmpl);
  gtk_widget_grab_focus(h->map_view);
}

static void on_template_changed(TessSpritePanel *panel, SpritesHook *h) {
  /* A new body type or material while placing sprites applies to the next click. */
  const TessObject *tmpl = tess_sprite_panel_get_template(panel);
  if (!tmpl || !h->map_view || tess_map_view_get_tool(TESS_MAP_VIEW(h->map_view)) != TESS_TOOL_OBJECT) return;
  send_template(h, tmpl);
}

static GMenuModel *find_menu(GtkWidget *w) {
  if (GTK_IS_MENU_BUTTON(w) && gtk_menu_button_get_menu_model(GTK_MENU_BUTTON(w)))
    return gtk_menu_button_get_menu_model(GTK_MENU_BUTTON(w));
  for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c)) {
    GMenuModel *m = find_menu(c);
    if (m) return m;
  }
  return NULL;
}

void tess_sprites_hook_install(GtkWindow *window, GtkNotebook *side, GtkWidget *map_view) {
  SpritesHook *h = g_new0(SpritesHook, 1);
  h->window = window;
  h->side = side;
  h->map_view = map_view;
  g_object_set_data_full(G_OBJECT(window), "tess-sprites-hook", h, hook_free);

  h->panel = tess_sprite_panel_new();
  gtk_widget_set_margin_top(h->panel, 6);
  g_signal_connect(h->panel, "place-requested", G_CALLBACK(on_place_requested), h);
  g_signal_connect(h->panel, "template-changed", G_CALLBACK(on_template_changed), h);
  if (side) {
    GtkWidget *scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), h->panel);
    gtk_notebook_append_page(side, scroller, gtk_label_new(_("Sprites")));
  }

  h->tileset_action = g_simple_action_new("tileset-collision", NULL);
  g_signal_connect(h->tileset_action, "activate", G_CALLBACK(on_tileset_collision), h);
  g_simple_action_set_enabled(h->tileset_action, FALSE);
  g_action_map_add_action(G_ACTION_MAP(window), G_ACTION(h->tileset_action));

  GtkWidget *titlebar = gtk_window_get_titlebar(window);
  GMenuModel *menu = titlebar ? find_menu(titlebar) : NULL;
  /* The main menu's second section holds the project items (Level Properties, Add Tileset). */
  if (menu && g_menu_model_get_n_items(menu) > 1) {
    g_autoptr(GMenuModel) section = g_menu_model_get_item_link(menu, 1, G_MENU_LINK_SECTION);
    if (section && G_IS_MENU(section)) g_menu_append(G_MENU(section), _("Tileset _Collision…"), "win.tileset-collision");
  }
}

void tess_sprites_hook_set_document(GtkWindow *window, TessDocument *doc) {
  SpritesHook *h = hook(window);
  if (!h) return;
  g_set_object(&h->doc, doc);
  tess_sprite_panel_set_document(TESS_SPRITE_PANEL(h->panel), doc);
  g_simple_action_set_enabled(h->tileset_action, doc != NULL);
}

GtkWidget *tess_sprites_hook_get_panel(GtkWindow *window) {
  SpritesHook *h = hook(window);
  return h ? h->panel : NULL;
}
