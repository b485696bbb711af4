/* TessPreviewPainter: draws a running preview into a cairo context. Cairo
 * only (no GTK), so the widget, the rendering test and the benchmark draw
 * the same pixels.
 *
 * The level's tiles come from core/render (its chunk cache: the static part
 * is drawn once per zoom and blitted); every body is drawn at its
 * interpolated transform. Sprites are decoded once into premultiplied
 * surfaces and circles are pre-rendered once per radius and colour, then
 * blitted: no per-frame path for thousands of circles. */
#pragma once

#include <cairo.h>

#include "tess-preview-level.h"
#include "tessera/render.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TessPreviewOverlay {
  TESS_PREVIEW_OVERLAY_CONTACTS = 1u << 0,   /* contact points and normals (impacts of the recent steps) */
  TESS_PREVIEW_OVERLAY_VELOCITIES = 1u << 1,
  TESS_PREVIEW_OVERLAY_AABBS = 1u << 2,
  TESS_PREVIEW_OVERLAY_CENTERS = 1u << 3,    /* centres of mass */
  TESS_PREVIEW_OVERLAY_SLEEPING = 1u << 4,   /* sleeping bodies tinted */
  TESS_PREVIEW_OVERLAY_SENSORS = 1u << 5,    /* sensors outlined */
  TESS_PREVIEW_OVERLAY_ZONES = 1u << 6,      /* force zones and fluid cells shaded */
  TESS_PREVIEW_OVERLAY_PINS = 1u << 7,       /* joints' pins */
  TESS_PREVIEW_OVERLAY_ALL = 0xFFu,
} TessPreviewOverlay;

typedef struct TessPreviewPainter TessPreviewPainter;

/* The project must outlive the painter (read only). */
TessPreviewPainter *tess_preview_painter_create(const TessProject *project);
void tess_preview_painter_destroy(TessPreviewPainter *pp);
TessRenderer *tess_preview_painter_renderer(TessPreviewPainter *pp);

/* Sprite animations advance by simulated time (negative when playing
 * backwards): frame rate x seconds, with the seed's fractional accumulator. */
void tess_preview_painter_advance_animation(TessPreviewPainter *pp, double sim_seconds);
uint32_t tess_preview_painter_sprite_frame(const TessPreviewPainter *pp, TessId sprite);

/* Takes the impacts of the live steps since the last call from the
 * playback (for the contacts overlay, shown for half a second) and ages the
 * older ones; call once per frame. Cleared by a seek. */
void tess_preview_painter_collect_contacts(TessPreviewPainter *pp, const TessPreviewLevel *pl);
void tess_preview_painter_clear_contacts(TessPreviewPainter *pp);

/* Draws the level and its bodies as `view` shows them (level pixels ->
 * device, as core/render), with the overlays asked for. */
void tess_preview_painter_draw(TessPreviewPainter *pp, cairo_t *cr, const TessPreviewLevel *pl,
                               const TessRenderView *view, uint32_t overlays);

/* Counters for tests: blits of pre-rendered circles and sprites, shapes
 * drawn as paths, and pre-rendered surfaces made. */
typedef struct TessPreviewPainterStats {
  uint64_t circle_blits, sprite_blits, paths, surfaces_made;
} TessPreviewPainterStats;
void tess_preview_painter_stats(const TessPreviewPainter *pp, TessPreviewPainterStats *out);

#ifdef __cplusplus
}
#endif
