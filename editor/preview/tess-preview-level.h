/* TessPreviewLevel: a playback of one level of a project, built the way a
 * game builds its world (tess_scene_from_level, tess_world_create_from_scene),
 * with what the preview needs to draw each body (its sprite, colour and
 * shapes). Plain C: no GTK. The project is read, never changed. */
#pragma once

#include "tess-playback.h"
#include "tessera/level.h"
#include "tessera/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TessPreviewLevel {
  const TessProject *project; /* borrowed */
  const TessLevel *level;     /* borrowed */
  TessScene *scene;           /* owned: zones, joints and cells for the overlays */
  TessPlayback *playback;     /* owned */
  uint64_t level_hash;        /* tess_level_content_hash when the preview started */
} TessPreviewLevel;

/* memory_budget 0 = the default 256 MiB. */
TessResult tess_preview_level_create(const TessProject *project, const TessLevel *level, size_t memory_budget,
                                     TessPreviewLevel **out, TessError *err);
void tess_preview_level_destroy(TessPreviewLevel *pl);

/* The body under a world point (metres): dynamic ones only when asked;
 * sensors are never picked. */
bool tess_preview_level_pick(const TessPreviewLevel *pl, TessVec2 point, bool dynamic_only, TessBodyId *out);

/* Drops a ball (radius in metres, 0 = half a cell) or a sprite body (the
 * sprite's collision mask, as the scene would place it) at `at`, moving at
 * `velocity`, made of `material` (0 = the project's first). */
TessResult tess_preview_level_spawn_ball(TessPreviewLevel *pl, TessVec2 at, TessVec2 velocity, float radius,
                                         TessId material, TessBodyId *out, TessError *err);
TessResult tess_preview_level_spawn_sprite(TessPreviewLevel *pl, TessId sprite, TessVec2 at, TessVec2 velocity,
                                           TessId material, TessBodyId *out, TessError *err);

/* The final positions of the level's own bodies ("Keep positions"): one
 * tess_edit_object_set per dynamic or kinematic body that moved, all with
 * one merge key, so the whole batch is one undo step. Returns the number of
 * objects changed through `changed`. The caller commits. */
TessResult tess_preview_level_keep_positions(TessPreviewLevel *pl, TessProject *project, uint32_t *changed,
                                             TessError *err);

#ifdef __cplusplus
}
#endif
