/* Play mode's launcher aiming: see tess-preview-aim.h. */
#include "tess-preview-aim.h"

#include <glib/gi18n.h>

#include "tess-document.h"

static const TessSceneLauncher *launcher_of(const TessPreviewAim *aim, const TessPreviewLevel *pl) {
  return pl && aim->launcher < pl->scene->launcher_count ? &pl->scene->launchers[aim->launcher] : NULL;
}

static TessVec2 gravity_of(const TessPreviewLevel *pl) { return tess_world_gravity(tess_playback_world(pl->playback)); }

gboolean tess_preview_aim_begin(TessPreviewAim *aim, const TessPreviewLevel *pl, TessVec2 p, float reach) {
  memset(aim, 0, sizeof *aim);
  if (!pl || !tess_preview_level_pick_launcher(pl, p, reach, &aim->launcher)) return FALSE;
  aim->active = TRUE;
  aim->target = p;
  return TRUE;
}

void tess_preview_aim_move(TessPreviewAim *aim, const TessPreviewLevel *pl, TessVec2 p, gboolean high) {
  const TessSceneLauncher *l = launcher_of(aim, pl);
  if (!aim->active || !l) return;
  aim->target = p;
  TessError err;
  if (tess_aim_launcher(l->position, l->speed, p, gravity_of(pl), aim->solutions, &aim->count, &err) != TESS_OK)
    aim->count = 0;
  aim->chosen = high && aim->count == 2 ? 1 : 0;
}

gboolean tess_preview_aim_fire(TessPreviewAim *aim, TessPreviewLevel *pl, TessBodyId *out, GError **error) {
  gboolean was = aim->active;
  aim->active = FALSE;
  if (!was || aim->count == 0 || !launcher_of(aim, pl)) return FALSE;
  TessError err;
  tess_error_clear(&err);
  TessResult r = tess_preview_level_fire(pl, aim->launcher, aim->solutions[aim->chosen].velocity, out, &err);
  if (r != TESS_OK) {
    tess_document_set_error_from_tess(error, r, &err);
    return FALSE;
  }
  return TRUE;
}

void tess_preview_aim_draw(const TessPreviewAim *aim, const TessPreviewLevel *pl, cairo_t *cr,
                           const TessRenderView *view) {
  const TessSceneLauncher *l = launcher_of(aim, pl);
  if (!aim->active || !l) return;
  tess_render_aim_arcs(cr, view, pl->scene->ppm, l->position, aim->target, gravity_of(pl), aim->solutions,
                       aim->count, aim->chosen);
}

char *tess_preview_aim_describe(const TessPreviewAim *aim, const TessPreviewLevel *pl) {
  const TessSceneLauncher *l = launcher_of(aim, pl);
  if (!aim->active || !l) return NULL;
  if (aim->count == 0) {
    TessAimSolution slowest;
    bool found = false;
    TessError err;
    if (l->speed > 0.0f &&
        tess_aim_min_speed(l->position, aim->target, gravity_of(pl), &slowest, &found, &err) == TESS_OK && found)
      return g_strdup_printf(_("“%s” cannot reach this point at %.1f m/s: it needs %.1f m/s"), l->name,
                             (double)l->speed, (double)tess_v2_length(slowest.velocity));
    return g_strdup_printf(_("“%s” cannot reach this point"), l->name);
  }
  const TessAimSolution *s = &aim->solutions[aim->chosen];
  if (aim->count == 2 && aim->chosen == 0)
    return g_strdup_printf(_("“%s”: release to fire at %.1f m/s along the low arc (%.2f s); hold Shift for the high arc"),
                           l->name, (double)tess_v2_length(s->velocity), (double)s->time);
  if (aim->count == 2)
    return g_strdup_printf(_("“%s”: release to fire at %.1f m/s along the high arc (%.2f s)"), l->name,
                           (double)tess_v2_length(s->velocity), (double)s->time);
  return g_strdup_printf(_("“%s”: release to fire at %.1f m/s (%.2f s to the target)"), l->name,
                         (double)tess_v2_length(s->velocity), (double)s->time);
}
