/* Shared set-up of the editor's widget tests: GTK under Xvfb, temporary
 * copies of the demo project, reading a project file back with core/store,
 * and closing windows until their document is really gone (so the
 * allocator's leak check at the end of each case means something). */
#pragma once

#include <gtk/gtk.h>

#include "check.h"
#include "tess-document.h"
#include "tess-window.h"
#include "tessera/store.h"

/* Drains pending GTK work (redraws, idle handlers, signal emissions). */
void fixture_spin(void);
/* Waits up to `ms` for *flag to become TRUE, spinning the main loop. */
gboolean fixture_wait(gboolean *flag, guint ms);
/* A fresh copy of the demo project under the test's temporary directory. */
char *fixture_copy_demo(const char *name);
/* A window (no application) showing `path`; NULL path: the start page. */
TessWindow *fixture_window(const char *path);
/* Destroys the window and checks that its document was finalized. */
void fixture_close(TessWindow *window);
/* Loads the project file as another process would (read-only store). */
TessProject *fixture_load(const char *path);
/* The level the window shows. */
TessLevel *fixture_level(TessWindow *w);
/* Adds `obj` to the topmost object layer of the level the window shows and
 * commits it to the file, as one edit: its id; 0 (a CHECK failure) when the
 * level has no object layer or the edit or the commit is refused. */
TessId fixture_add_object(TessWindow *w, const TessObject *obj);
/* The first widget under `root` (itself included) whose widget name is `name`. */
GtkWidget *fixture_find_named(GtkWidget *root, const char *name);
/* Types `text` into a spin button as a person would, then confirms it. */
void fixture_type_into(GtkWidget *spin, const char *text);
/* A new, empty project file tmpdir/name, opened as a document. */
TessDocument *fixture_new_document(const char *name);
/* A window of w x h holding `child`, shown, and spun until the child has its size. */
GtkWindow *fixture_host(GtkWidget *child, int w, int h);
/* Whether a program (xdotool) is on PATH. */
gboolean fixture_have_program(const char *name);
/* The first tile layer (from the top) of a level. */
TessLayer *fixture_tile_layer(TessLevel *level);
/* The text of a GtkMessageDialog (primary and secondary). */
char *fixture_dialog_text(GtkWindow *dialog);
/* Runs the cases after gtk_init and the i18n set-up. */
int fixture_main(int argc, char **argv, const TessTestCase *cases, size_t count);
