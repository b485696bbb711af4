/* Tessera core/render (libtessera-render): draws a level into a cairo
 * context. Cairo only: no GTK, no display, so the editor's map view and the
 * pipeline's `render` command draw the same pixels.
 *
 * A TessRenderer belongs to one project and keeps the caches that make huge
 * maps cheap to draw: one premultiplied cairo surface per tileset and sprite
 * (decoded once through core/image), and pre-rendered blocks of chunks at
 * three scales (1, 1/4 and 1/16 of the level's pixels). The owner reports
 * every TessChange to tess_renderer_invalidate(), which drops exactly the
 * chunks (or tilesets, materials, layers) the edit touched.
 *
 * Coordinates: level pixels (cells are tile_w x tile_h) map to device pixels
 * as device = (level - origin) * zoom; the renderer rounds the translation
 * to whole device pixels so that tiles stay crisp. */
#ifndef TESSERA_RENDER_H
#define TESSERA_RENDER_H

#include <cairo.h>

#include "tessera/base.h"
#include "tessera/image.h"
#include "tessera/level.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESS_RENDER_ZOOM_MIN (1.0 / 16.0)
#define TESS_RENDER_ZOOM_MAX 16.0

/* What to draw. */
typedef enum TessRenderFlags {
  TESS_RENDER_TILES = 1u << 0,      /* tile layers (visibility and opacity honoured) */
  TESS_RENDER_MATERIALS = 1u << 1,  /* translucent overlay of each cell's effective material */
  TESS_RENDER_GRID = 1u << 2,       /* cell grid (chunk grid when cells get too small) */
  TESS_RENDER_OBJECTS = 1u << 3,    /* bodies, joints, zones, spawn points */
  TESS_RENDER_COLLISION = 1u << 4,  /* collision outlines: full squares and traced pieces */
  TESS_RENDER_BACKGROUND = 1u << 5, /* fill the level's area with options.background first */
  TESS_RENDER_BOUNDS = 1u << 6,     /* outline of the level's edge */
  /* walls made by a solid material alone (no colliding tile), hatched in
   * its colour: without it they are invisible walls */
  TESS_RENDER_WALLS = 1u << 7,
  TESS_RENDER_DEFAULT =
      TESS_RENDER_TILES | TESS_RENDER_WALLS | TESS_RENDER_OBJECTS | TESS_RENDER_BACKGROUND | TESS_RENDER_BOUNDS,
} TessRenderFlags;

typedef struct TessRenderOptions {
  uint32_t flags;           /* TessRenderFlags */
  double material_alpha;    /* overlay opacity multiplied with each material's alpha; default 0.5 */
  uint32_t background;      /* 0xRRGGBBAA under the level (TESS_RENDER_BACKGROUND) */
  uint32_t grid_color;      /* 0xRRGGBBAA */
  uint32_t collision_color; /* 0xRRGGBBAA */
  TessId selected_object;   /* drawn highlighted; 0 = none */
  TessId hidden_object;     /* not drawn (the editor draws it itself while dragging); 0 = none */
  bool use_cache;           /* false: draw every visible cell directly (reference path) */
  /* Milliseconds of cache filling a frame may spend (0 = no limit). Blocks
   * not yet made when it runs out are left for the next frames (their area
   * shows the background) and tess_renderer_frame_complete() says so: an
   * interactive view redraws until it is. At least one block is made per
   * frame; blocks dirtied by edits are always redrawn. */
  double time_budget_ms;
} TessRenderOptions;

void tess_render_options_default(TessRenderOptions *o);

/* Which part of the level lands where on the device. */
typedef struct TessRenderView {
  double origin_x, origin_y; /* level pixel drawn at device (0, 0) */
  double zoom;               /* device pixels per level pixel, 1/16 .. 16 */
  int width, height;         /* device pixels to cover (what is visible) */
} TessRenderView;

/* The exact mapping the renderer uses: device = level * zoom + (tx, ty),
 * with tx = round(-origin_x * zoom) (whole device pixels). Draw overlays
 * with it so they sit exactly on the tiles. */
void tess_render_view_translation(const TessRenderView *view, double *tx, double *ty);

/* Counters for tests and benchmarks (cumulative since create or reset). */
typedef struct TessRenderStats {
  uint64_t chunks_rendered; /* chunk regions drawn into a cache block */
  uint64_t blocks_created;  /* cache surfaces allocated */
  uint64_t block_hits;      /* cache blocks reused as they were */
  uint64_t cells_direct;    /* cells drawn straight to the target (no cache) */
  uint64_t tilesets_decoded;
  uint64_t sprites_decoded;
  uint64_t blocks_deferred; /* blocks left for a later frame by the time budget */
  size_t cache_bytes;       /* pixel bytes held by the chunk cache now */
} TessRenderStats;

typedef struct TessRenderer TessRenderer;

/* The project must outlive the renderer; it is read, never changed. */
TessRenderer *tess_renderer_create(const TessProject *project);
void tess_renderer_destroy(TessRenderer *r);
/* Upper bound of the chunk cache's pixel memory (default 256 MiB); least
 * recently used blocks go first. */
void tess_renderer_set_cache_limit(TessRenderer *r, size_t bytes);

/* Drops what a change made stale: a chunk -> that chunk at every scale; a
 * layer or level -> the level's blocks; a tileset -> its surface and every
 * block; a material -> blocks that show materials; a sprite -> its surface.
 * Objects are never cached. */
void tess_renderer_invalidate(TessRenderer *r, const TessChange *change);
void tess_renderer_invalidate_all(TessRenderer *r);

/* Draws the part of `level` that `view` shows into `cr`, whose current
 * transformation maps device pixels (0,0)-(width,height). Draws only visible
 * cells. Fails (TESS_ERR_FORMAT, ...) only when a tileset's PNG cannot be
 * decoded; the rest of the level is still drawn and the failing tileset's
 * tiles appear as a magenta check. */
TessResult tess_renderer_draw(TessRenderer *r, cairo_t *cr, const TessLevel *level, const TessRenderView *view,
                              const TessRenderOptions *options, TessError *err);

/* False when the last draw left blocks for later (time budget). */
bool tess_renderer_frame_complete(const TessRenderer *r);

void tess_renderer_stats(const TessRenderer *r, TessRenderStats *out);
void tess_renderer_reset_stats(TessRenderer *r);

/* The premultiplied surface of a tileset (decoded on first use), borrowed:
 * valid until the tileset changes or the renderer is destroyed. The editor's
 * tile palette draws from it. */
cairo_surface_t *tess_renderer_tileset_surface(TessRenderer *r, TessId tileset, TessError *err);

/* Draws one cell's tile (with its flips) into the rectangle (x, y, w, h) of
 * `cr`: the palette and the map view's stamp preview use it. */
void tess_renderer_draw_cell(TessRenderer *r, cairo_t *cr, TessCell cell, double x, double y, double w, double h,
                             double alpha);
/* Draws one cell's tile where a level of cell_w x cell_h pixel cells draws
 * it (tess_tile_place: at its own size from the cell's bottom-left corner,
 * moved by the tileset's offset), the cell itself being the rectangle
 * (x, y, w, h) of `cr`; not clipped to the cell. The map view's stamp and
 * moved selection use it, so they show what painting them will draw. */
void tess_renderer_draw_cell_placed(TessRenderer *r, cairo_t *cr, TessCell cell, uint32_t cell_w, uint32_t cell_h, double x,
                                    double y, double w, double h, double alpha);

/* ---- Object geometry (shared by drawing and the editor's hit tests) */

/* Radius (level px) of a circle around obj->pos that holds all of it. */
float tess_render_object_radius(const TessProject *p, const TessObject *obj);
/* True when `point` (level px) lies on the object seen at `zoom` (screen px
 * per level px): inside its shape or within TESS_RENDER_PICK_SLOP screen
 * pixels of it, or on a marker (joints, spawn points, attractors), which is
 * drawn at a size in screen pixels and hit at that size, whatever the zoom. */
#define TESS_RENDER_PICK_SLOP 4.0
bool tess_render_object_hit(const TessProject *p, const TessLevel *level, const TessObject *obj, TessVec2 point,
                            double zoom);
/* Where the rotation handle of a selected object is drawn (level px), for a
 * view at `zoom` (the handle stays 24 device px outside the object). */
TessVec2 tess_render_object_rotate_handle(const TessProject *p, const TessObject *obj, double zoom);

/* ---- Material legend ---------------------------------------------------- */

typedef struct TessLegendEntry {
  TessId material;
  uint32_t color; /* 0xRRGGBBAA */
  char name[TESS_NAME_MAX];
  uint64_t cells; /* cells of the level whose effective material it is */
} TessLegendEntry;

/* The materials that cells [x0,x1) x [y0,y1) of the level use (effective
 * material, as collision sees it), sorted by id; writes at most `max`
 * entries and returns how many exist. Pass the visible cells on huge maps. */
size_t tess_render_material_legend(const TessProject *p, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                                   uint32_t y1, TessLegendEntry *out, size_t max);
/* Draws a legend box (swatch + name per entry) with its top-left at (x, y);
 * returns its size through w and h (either may be NULL). */
void tess_render_draw_legend(cairo_t *cr, const TessLegendEntry *entries, size_t count, double x, double y,
                             double material_alpha, double *w, double *h);

/* ---- Whole level (the pipeline's `render`) */

/* Draws the whole level at `scale` (device pixels per level pixel) into a
 * new ARGB32 image surface (the caller destroys it). Refuses a surface
 * larger than 16384 px per side or 1 GiB (TESS_ERR_LIMIT). */
TessResult tess_render_level_to_surface(const TessProject *p, const TessLevel *level, double scale,
                                        const TessRenderOptions *options, cairo_surface_t **out, TessError *err);
/* The same, written as a PNG file (through core/image, atomically). */
TessResult tess_render_level_to_png(const TessProject *p, const TessLevel *level, double scale,
                                    const TessRenderOptions *options, const char *path, TessError *err);
/* Unpremultiplies an ARGB32 surface into RGBA8 (core/image's layout). */
TessResult tess_render_surface_to_image(cairo_surface_t *surface, TessImage *out, TessError *err);

/* ---- The preview painter (core/render/preview_painter.c) */

/* TessPreviewPainter: draws a running preview into a cairo context. Cairo
 * only (no GTK), so the widget, the rendering test and the benchmark draw
 * the same pixels. It is libtessera-draw's painter (tessera/draw.h, the one
 * a game links) fed from the level model: the level's tiles come from
 * core/render (its chunk cache: the static part is drawn once per zoom and
 * blitted) and the sprites' images from the project's PNGs; every body is
 * drawn at its interpolated transform, in the painter's depth order.
 * Sprites are decoded once into premultiplied surfaces and circles are
 * pre-rendered once per radius and colour, then blitted: no per-frame path
 * for thousands of circles. The overlay bits are TessDrawOverlay's. */

typedef enum TessPreviewOverlay {
  TESS_PREVIEW_OVERLAY_CONTACTS = 1u << 0, /* contact points and normals (impacts of the recent steps) */
  TESS_PREVIEW_OVERLAY_VELOCITIES = 1u << 1,
  TESS_PREVIEW_OVERLAY_AABBS = 1u << 2,
  TESS_PREVIEW_OVERLAY_CENTERS = 1u << 3,  /* centres of mass */
  TESS_PREVIEW_OVERLAY_SLEEPING = 1u << 4, /* sleeping bodies tinted */
  TESS_PREVIEW_OVERLAY_SENSORS = 1u << 5,  /* sensors outlined */
  TESS_PREVIEW_OVERLAY_ZONES = 1u << 6,    /* force zones and fluid cells shaded */
  TESS_PREVIEW_OVERLAY_PINS = 1u << 7,     /* joints' pins */
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
#endif
