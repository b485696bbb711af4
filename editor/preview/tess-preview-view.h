/* TessPreviewView: the editor's Play mode. The level comes alive: physics at
 * the level's fixed rate, drawn on GTK's frame clock with positions
 * interpolated between the last two states (a tick callback runs only while
 * playing: paused, the CPU is idle). Controls: Play/Pause, Step, Reset, speed
 * -2x..+2x, a timeline to scrub the recording, overlays, stats, Keep
 * Positions and Back to Editing. Keys: Space play/pause, period step,
 * R reset, Escape leave. Mouse: drag a dynamic body (a spring, drawn as a
 * line), Shift-drag throws it, click empty space drops a ball (or the
 * chosen sprite), right-click a dropped body removes it; the wheel zooms at
 * the pointer, a middle drag pans.
 *
 * The preview never writes the project: leaving shows the level exactly as
 * it was, unless the user chooses Keep Positions (one undoable edit). */
#pragma once

#include <gtk/gtk.h>

#include "tess-document.h"
#include "tessera/play.h"
#include "tessera/level.h"

G_BEGIN_DECLS

#define TESS_TYPE_PREVIEW_VIEW (tess_preview_view_get_type())
G_DECLARE_FINAL_TYPE(TessPreviewView, tess_preview_view, TESS, PREVIEW_VIEW, GtkWidget)

GtkWidget *tess_preview_view_new(void);

/* Builds the world from the level (through core/scene), paused at step 0.
 * FALSE with a translated error when the level cannot be simulated. */
gboolean tess_preview_view_start(TessPreviewView *v, TessDocument *doc, TessId level, GError **error);
/* Drops the simulation; the project was never changed. */
void tess_preview_view_stop(TessPreviewView *v);
gboolean tess_preview_view_is_running(TessPreviewView *v);

void tess_preview_view_set_playing(TessPreviewView *v, gboolean playing);
gboolean tess_preview_view_get_playing(TessPreviewView *v);
void tess_preview_view_step(TessPreviewView *v);
void tess_preview_view_reset(TessPreviewView *v);
void tess_preview_view_set_speed(TessPreviewView *v, double speed);
void tess_preview_view_seek(TessPreviewView *v, guint64 step);

/* The canvas's zoom (canvas px per level px); signal "zoom-changed" (no
 * arguments) when it changes, as the map view's. */
double tess_preview_view_get_zoom(TessPreviewView *v);

/* TessPreviewOverlay bits. */
void tess_preview_view_set_overlays(TessPreviewView *v, guint overlays);
guint tess_preview_view_get_overlays(TessPreviewView *v);
/* What a click on empty space drops: a sprite body template drops that
 * sprite, a circle template a ball of its radius, both of its material;
 * NULL (or another kind) a ball of half a cell. Copied. */
void tess_preview_view_set_spawn_template(TessPreviewView *v, const TessObject *tmpl);

/* Writes the shown positions of the level's moving bodies as one undoable
 * edit and commits it. */
gboolean tess_preview_view_keep_positions(TessPreviewView *v, GError **error);

/* For tests and the window: borrowed, NULL when not running. */
TessPreviewLevel *tess_preview_view_get_preview_level(TessPreviewView *v);
gboolean tess_preview_view_has_tick_callback(TessPreviewView *v);
/* World metres -> canvas widget coordinates, and the canvas itself. */
void tess_preview_view_world_to_canvas(TessPreviewView *v, TessVec2 p, double *x, double *y);
GtkWidget *tess_preview_view_get_canvas(TessPreviewView *v);
/* The speed slider (-2x..+2x), for tests. */
GtkWidget *tess_preview_view_get_speed_scale(TessPreviewView *v);
/* The handlers the canvas gestures call (canvas coordinates). */
void tess_preview_view_pointer_press(TessPreviewView *v, int button, double x, double y, GdkModifierType state);
void tess_preview_view_pointer_motion(TessPreviewView *v, double x, double y, gint64 time_us);
void tess_preview_view_pointer_release(TessPreviewView *v, int button, double x, double y);
/* Offscreen drawing of the canvas at a size (what the canvas shows). */
cairo_surface_t *tess_preview_view_render(TessPreviewView *v, int width, int height);

G_END_DECLS
