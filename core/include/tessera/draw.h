/* Tessera core/draw (libtessera-draw): the debug painter of a running level,
 * drawn into a cairo context from the runtime's data alone: a TessScene (cells,
 * zones, joints), the bodies of a TessPlayback or of a TessWorld at their
 * interpolated transforms, and sprite strips the caller hands over. No level
 * model, no PNG decoder, no GTK: the editor's Play view and a game's debug
 * view draw the same pixels. It needs cairo, so it is a small optional
 * library beside libtessera-runtime, not part of it:
 *   cc game.c $(pkg-config --cflags --libs tessera-draw)
 *
 * Coordinates: a point of the level in metres is at level pixel
 * p * scene->ppm, and level pixels land on the device at
 * (level_px - origin) * zoom, as core/render's map view.
 *
 * Speed: the static part of the view (the background callback's drawing, or
 * the scene's solid cells, plus fluids and zones) is drawn once per view and
 * copied each frame; sprite frames are pre-rendered once per zoom and per
 * one of 128 rotations, circles once per radius and colour, then blitted
 * (straight into the pixels when the target is a plain image surface), so
 * thousands of bodies cost no paths. Pixel-mask colliders (a tile layer's or
 * a static body's, tessera/physics.h) are drawn from the world's live bits
 * over the bodies, translucent and tinted by material, so carving shows at
 * once. Draw order: bodies in their draw depth
 * order (tess_draw_set_order), else in body order. */
#ifndef TESSERA_DRAW_H
#define TESSERA_DRAW_H

#include <cairo.h>

#include "tessera/base.h"
#include "tessera/physics.h"
#include "tessera/play.h"
#include "tessera/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which part of the level lands where on the device. */
typedef struct TessDrawView {
  double origin_x, origin_y; /* level pixel drawn at device (0, 0) */
  double zoom;               /* device pixels per level pixel */
  int width, height;         /* device pixels to cover */
} TessDrawView;

/* Overlays on top of the bodies. */
typedef enum TessDrawOverlay {
  TESS_DRAW_OVERLAY_CONTACTS = 1u << 0, /* touching contact points and the impacts of the last half second */
  TESS_DRAW_OVERLAY_VELOCITIES = 1u << 1,
  TESS_DRAW_OVERLAY_AABBS = 1u << 2,
  TESS_DRAW_OVERLAY_CENTERS = 1u << 3,  /* centres of mass */
  TESS_DRAW_OVERLAY_SLEEPING = 1u << 4, /* sleeping bodies tinted */
  TESS_DRAW_OVERLAY_SENSORS = 1u << 5,  /* sensors outlined */
  TESS_DRAW_OVERLAY_ZONES = 1u << 6,    /* force zones and fluid cells shaded */
  TESS_DRAW_OVERLAY_PINS = 1u << 7,     /* joints' pins */
  TESS_DRAW_OVERLAY_ALL = 0xFFu,
} TessDrawOverlay;

typedef struct TessDraw TessDraw;

/* NULL when out of memory. */
TessDraw *tess_draw_create(void);
void tess_draw_destroy(TessDraw *d);

/* ---- Sprites --------------------------------------------------------------- */

/* Hands over the image of sprite `key` (any non-zero number the caller uses
 * in TessPlaybackBody.sprite or TessDrawBodyStyle.sprite): `frame_count`
 * frames side by side in straight (not premultiplied) RGBA8 rows, copied.
 * Replaces an earlier image of that key. Frames are width / frame_count px
 * wide. TESS_ERR_INVALID for a zero key, a zero size or fewer pixels across
 * than frames; TESS_ERR_LIMIT past
 * 32767 px a side. */
TessResult tess_draw_set_sprite(TessDraw *d, uint32_t key, const uint8_t *rgba, uint32_t width, uint32_t height,
                                size_t stride, uint32_t frame_count, float frame_rate, TessError *err);
/* The same from a premultiplied ARGB32 cairo image surface (cairo's own PNG
 * reader gives one), referenced, not copied. */
TessResult tess_draw_set_sprite_surface(TessDraw *d, uint32_t key, cairo_surface_t *strip, uint32_t frame_count,
                                        float frame_rate, TessError *err);
bool tess_draw_has_sprite(const TessDraw *d, uint32_t key);
/* Called the first time a body is drawn with a sprite key that has no image
 * yet (and by tess_draw_want_sprite): it may call tess_draw_set_sprite. A key
 * it leaves without an image draws as its shapes and is not asked for again.
 * Lets a caller decode only the sprites that show. */
typedef void (*TessDrawSpriteFn)(void *user, TessDraw *d, uint32_t key);
void tess_draw_set_sprite_source(TessDraw *d, TessDrawSpriteFn fn, void *user);
/* Asks the source for `key` now if it was never asked (an animated sprite
 * keeps its phase from the start, drawn or not). */
void tess_draw_want_sprite(TessDraw *d, uint32_t key);
/* Every animated sprite advances by simulated time (negative when playing
 * backwards): frame rate x seconds through a TessFramePlayer. */
void tess_draw_advance_animation(TessDraw *d, double sim_seconds);
uint32_t tess_draw_sprite_frame(const TessDraw *d, uint32_t key);

/* ---- The static part ------------------------------------------------------- */

/* Draws what does not move (tiles) into `cr` for `view`, device pixels
 * (0,0)-(width,height). Called once per view, then the result is reused. */
typedef void (*TessDrawBackgroundFn)(void *user, cairo_t *cr, const TessDrawView *view);
/* Without a callback (the default) the background is the scene's colliding
 * cells in grey on a dark ground. Setting one drops the cached background. */
void tess_draw_set_background(TessDraw *d, TessDrawBackgroundFn fn, void *user);
/* Drops the cached background (the tiles under it changed). */
void tess_draw_invalidate_background(TessDraw *d);

/* ---- Contacts -------------------------------------------------------------- */

/* Adds the impacts of the steps since the last call (shown for half a
 * second, 30 frames) and ages the older ones; call once per frame. */
void tess_draw_collect_playback_impacts(TessDraw *d, TessPlayback *pb);
/* The same from the contacts that began in the world's last step. */
void tess_draw_collect_world_impacts(TessDraw *d, const TessWorld *world);
void tess_draw_clear_impacts(TessDraw *d);

/* ---- Drawing --------------------------------------------------------------- */

/* The bodies of a playback (the editor's Play mode, a game's replay) at the
 * playback's interpolated state. `scene` is the one the playback's world was
 * made from (body i of the scene is body i of the playback): its cells,
 * zones and joints. */
void tess_draw_playback(TessDraw *d, cairo_t *cr, const TessScene *scene, const TessPlayback *pb,
                        const TessDrawView *view, uint32_t overlays);

/* How a game wants a scene body drawn (tess_draw_world). */
typedef struct TessDrawBodyStyle {
  uint32_t color;         /* 0xRRGGBBAA; 0 = by body type (dynamic orange, kinematic blue, static grey) */
  uint32_t sprite;        /* a key given to tess_draw_set_sprite; 0 = its shapes */
  TessVec2 sprite_origin; /* metres: the frame's top-left in body coordinates (-anchor / ppm) */
} TessDrawBodyStyle;

/* The bodies of a world made by tess_world_create_from_scene(scene, ...,
 * ids): body i drawn at tess_body_interpolated_transform(world, ids[i],
 * alpha), styled by styles[i] (NULL: every body by its type). Bodies whose
 * handle is no longer valid are skipped. */
void tess_draw_world(TessDraw *d, cairo_t *cr, const TessScene *scene, const TessWorld *world, const TessBodyId *ids,
                     const TessDrawBodyStyle *styles, float alpha, const TessDrawView *view, uint32_t overlays);

/* ---- Depth order ----------------------------------------------------------- */

/* Draw order of the scene's bodies: `depth[i]` for body i (lower first), and
 * `y_sort[i]` true when body i sorts by its current y after depth (a
 * top-down layer's "sort by y": lower on screen drawn later, over). Ties keep
 * body order. NULL depth = every depth 0; NULL y_sort = no sorting by y.
 * Copied; count 0 forgets the order. Bodies past `count` (spawned while
 * playing) draw last, in their order. */
TessResult tess_draw_set_order(TessDraw *d, const int32_t *depth, const uint8_t *y_sort, uint32_t count,
                               TessError *err);
/* The order of the last draw: out[k] is the body index drawn k-th; writes at
 * most `max` and returns how many bodies were considered. */
uint32_t tess_draw_last_order(const TessDraw *d, uint32_t *out, uint32_t max);

/* Counters for tests: blits of pre-rendered circles and sprites, shapes drawn
 * as paths, pre-rendered surfaces made. */
typedef struct TessDrawStats {
  uint64_t circle_blits, sprite_blits, paths, surfaces_made;
} TessDrawStats;
void tess_draw_stats(const TessDraw *d, TessDrawStats *out);

#ifdef __cplusplus
}
#endif
#endif
