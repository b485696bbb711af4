/* Play mode's launcher aiming: press on a launcher, drag to a target, see
 * the arcs that reach it (tessera/aim.h, drawn by core/render), release to
 * fire along the low arc (Shift: the high one). Plain state the preview
 * view owns; the aiming and firing are core's (tess_aim_launcher,
 * tess_preview_level_fire), this file only carries them between events. */
#ifndef TESS_PREVIEW_AIM_H
#define TESS_PREVIEW_AIM_H

#include <gtk/gtk.h>

#include "tessera/aim.h"
#include "tessera/level.h"
#include "tessera/render.h"

G_BEGIN_DECLS

typedef struct TessPreviewAim {
  gboolean active;
  uint32_t launcher; /* index into the scene's launchers */
  TessVec2 target;   /* metres */
  TessAimSolution solutions[2];
  uint32_t count;  /* 0: out of reach */
  uint32_t chosen; /* the arc a release fires: 0 low, 1 high */
} TessPreviewAim;

/* Starts aiming when `p` (metres) is within `reach` metres of a launcher. */
gboolean tess_preview_aim_begin(TessPreviewAim *aim, const TessPreviewLevel *pl, TessVec2 p, float reach);
/* The pointer moved to `p`: the arcs to it; `high` picks the high arc when there are two. */
void tess_preview_aim_move(TessPreviewAim *aim, const TessPreviewLevel *pl, TessVec2 p, gboolean high);
/* Fires the chosen arc (nothing when out of reach) and stops aiming. */
gboolean tess_preview_aim_fire(TessPreviewAim *aim, TessPreviewLevel *pl, TessBodyId *out, GError **error);
void tess_preview_aim_draw(const TessPreviewAim *aim, const TessPreviewLevel *pl, cairo_t *cr,
                           const TessRenderView *view);
/* A sentence for the status line: the arcs' speed and flight times, or why none reaches. */
char *tess_preview_aim_describe(const TessPreviewAim *aim, const TessPreviewLevel *pl);

G_END_DECLS
#endif
