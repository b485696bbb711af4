/* TessWindow's insides, shared by tess-window.c (the widget, its template,
 * the document and the panels), tess-window-actions.c (actions, tool keys,
 * the tool bar) and tess-window-dnd.c (dropping a project on the window),
 * as GNOME Text Editor splits its window. Not for use outside the window. */
#pragma once

#include "tess-window.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "tess-dump-keeper.h"
#include "tess-layers-panel.h"
#include "tess-export-dialog.h"
#include "tess-level-properties-dialog.h"
#include "tess-material-panel.h"
#include "tess-resources.h"
#include "tess-object-inspector.h"
#include "tess-tile-palette.h"
#include "tess-tileset-dialog.h"
#include "tess-toast.h"
#include "tess-ui.h"
#include "tessera/image.h"
#include "tess-preview-mode.h"
#include "tess-preview-view.h"
#include "tess-map-view.h"
#include "tess-tool.h"
#include "tess-sprite-panel.h"

G_BEGIN_DECLS

#define IMAGE_MAX_BYTES ((size_t)256 * 1024 * 1024)

struct _TessWindow {
  GtkApplicationWindow parent_instance;

  /* template widgets */
  GtkStack *stack;
  GtkListBox *recent_list;
  GtkWidget *recent_empty;
  GtkInfoBar *reload_bar, *message_bar;
  GtkLabel *reload_label, *message_label;
  GtkWidget *save_copy_button;
  GtkStack *map_stack;
  GtkWidget *map_view, *preview_view;
  TessToast *toast;
  TessLayersPanel *layers_panel;
  TessTilePalette *tile_palette;
  TessMaterialPanel *material_panel;
  TessObjectInspector *object_inspector;
  TessSpritePanel *sprite_panel;
  GtkNotebook *side_notebook;
  GtkWidget *status_bar;
  GtkLabel *status_cell, *status_tile, *status_material, *status_hint, *status_zoom;

  /* owned */
  TessDocument *doc;
  TessDumpKeeper *dump_keeper; /* the text dump beside the project (the document's keep-dump setting) */
  GtkDropTarget *drop_target;
  GArray *changed_sources; /* TessId of tilesets whose PNG changed on disk */
  char *reported;

  /* borrowed */
  GtkWindow *last_dialog;

  GTask *import_task;       /* a Tiled import reading on its worker (borrowed: the task owns itself) */
  gboolean import_hold;     /* tests: hold the next import's worker */
  gpointer import_job;      /* the import from its read to the end of its apply (tess-window-import.c), NULL when none */
  guint import_slices_last; /* tests: main-loop slices the last import's apply took */

  TessId level, layer;
  int cursor_x, cursor_y; /* the cell under the pointer (status bar), -1 outside */
  guint checkpoint_source;
  guint replaced_source; /* looks every second whether the project file was replaced */
  guint replaced_idle;   /* a commit found the file replaced: reload at once */
  gulong committed_handler, unsaved_handler, recent_handler, replaced_handler;
};

/* ---- shared helpers ---- */

/* The right side's pages: 0 tiles, 1 materials, 2 object. */
static inline void _tess_window_show_side(TessWindow *self, int page) {
  gtk_notebook_set_current_page(self->side_notebook, page);
}

static inline TessProject *_tess_window_project(TessWindow *self) {
  return self->doc ? tess_document_get_project(self->doc) : NULL;
}

static inline TessLevel *_tess_window_current_level(TessWindow *self) {
  return _tess_window_project(self) ? tess_project_level(_tess_window_project(self), self->level) : NULL;
}

static inline void _tess_window_remember_dialog(TessWindow *self, GtkWidget *dialog) {
  g_set_weak_pointer(&self->last_dialog, GTK_WINDOW(dialog));
}

static inline TessMapView *_tess_window_map(TessWindow *self) { return TESS_MAP_VIEW(self->map_view); }

void _tess_window_update_title(TessWindow *self);
void _tess_window_schedule_checkpoint(TessWindow *self);

/* tess-window-actions.c: win.* actions, single-key tool shortcuts, the tool bar. */
void _tess_window_actions_init(TessWindow *self);
void _tess_window_update_actions(TessWindow *self);

/* tess-window-sprites.c: win.tileset-collision, the sprite panel's Place on the Map. */
void _tess_window_sprites_init(TessWindow *self);

/* tess-window-dnd.c: a .tessera file dropped on the window opens; a .tmx/.tmj is imported. */
void _tess_window_dnd_init(TessWindow *self);

/* tess-window-import.c: File > Import Tiled Map... (the chooser). */
void _tess_window_choose_import(TessWindow *self);

G_END_DECLS
