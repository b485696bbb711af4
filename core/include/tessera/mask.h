/* Tessera core/mask: collision masks from sprite alpha.
 *
 * A pixel is opaque when its alpha >= threshold (default 1: any pixel that is
 * not fully transparent). Each opaque pixel is a unit square: pixel (x, y)
 * covers [x, x+1] x [y, y+1], its centre is (x + 0.5, y + 0.5). Everything
 * here is in pixel units with double sums; metres and kilograms come only
 * when a sprite is placed (tess_mask_mass_kg, tess_mask_inertia_kgm2).
 *
 * Polygons are counter-clockwise in the sense of tessera/geom.h (positive
 * signed area; clockwise as seen on the y-down screen), as Box2D and
 * Chipmunk2D expect.
 *
 * The chain (after Chipmunk2D's autogeometry, our own code):
 *   alpha --scan--> per-row runs + exact pixel mass --> exact hull (linear)
 *         --> simplified hull (greedy edge removal, least added area)
 *   alpha --trace--> pixel outline loops (marching squares along pixel edges)
 *         --> one-sided Douglas-Peucker --> holes bridged --> ear clipping
 *         --> Hertel-Mehlhorn merge into convex pieces of <= N vertices
 *         --> each piece clipped to its island's exact hull (parts cut off
 *             along chords when the clip leaves more than N vertices). */
#ifndef TESSERA_MASK_H
#define TESSERA_MASK_H

#include "tessera/base.h"
#include "tessera/geom.h"
#include "tessera/image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESS_MASK_MAX_VERTICES 64u /* the largest N for simplified hulls and pieces */

/* The work budget of outlines and pieces, in runs (a run: opaque pixels
 * side by side in one row; a sprite of simple shape has one or two per
 * row, the demo's largest a few hundred in all, a 1024 x 1024 plate with
 * 4000 holes 13,000). Tracing and decomposing cost up to about 2 us and
 * 600 bytes per run, so the budget bounds a call to about 0.3 s and 80 MB
 * on any image, with at most 4 x budget outline vertices (a run has at most
 * four corners). An image with more runs is traced on a grid of b x b
 * pixel blocks, a block being opaque when any of its pixels is, with
 * b = 2, 4, 8, ... the first that brings the blocks' runs within the
 * budget (a 4096 x 4096 checkerboard: b = 2, one piece; noise: b = 2 or
 * 4). The result says so (TessMaskPieces.block, TessMaskOutline.block,
 * TessMaskTraceReport): the pieces still cover every opaque pixel and
 * still lie inside the exact hull of all opaque pixels, but they stop at
 * block edges, and holes and gaps narrower than a block close. The
 * pixels' mass properties stay exact. Hull, simplified hull, circle and box
 * need only the scan (linear, no budget). */
#define TESS_MASK_RUN_BUDGET (1u << 17)

/* What a sprite's collision shape is made of (a sprite's mask stores it). */
typedef enum TessMaskMode {
  TESS_MASK_HULL = 0,       /* exact convex hull (may exceed 8 vertices: physics splits or simplifies) */
  TESS_MASK_SIMPLIFIED = 1, /* simplified hull of at most max_vertices */
  TESS_MASK_PIECES = 2,     /* convex decomposition of the outline */
  TESS_MASK_CIRCLE = 3,     /* circle fitted to the opaque pixels */
  TESS_MASK_BOX = 4,        /* box fitted to the opaque pixels */
} TessMaskMode;

typedef struct TessMaskSettings {
  uint8_t threshold;        /* alpha >= threshold counts; default 1 */
  uint8_t mode;             /* TessMaskMode; default TESS_MASK_SIMPLIFIED */
  bool largest_island_only; /* pieces: keep only the island with the most pixels */
  uint32_t max_vertices;    /* N, 3..TESS_MASK_MAX_VERTICES; default 8 */
  double tolerance;         /* outline simplification, pixels, >= 0; default 1 */
  uint32_t run_budget;      /* pieces: TESS_MASK_RUN_BUDGET by default; 0 means the default */
} TessMaskSettings;

void tess_mask_settings_default(TessMaskSettings *s);
/* Refuses N outside 3..TESS_MASK_MAX_VERTICES, a negative or NaN tolerance, an unknown mode. */
TessResult tess_mask_settings_validate(const TessMaskSettings *s, TessError *err);

/* ---- Exact hull and pixel mass properties ------------------------------ */

typedef struct TessMaskHull {
  uint32_t count;          /* >= 4: pixel squares have corners */
  TessDVec2 *v;            /* owned: tess_mask_hull_clear */
  TessMassProps pixels;    /* area = opaque pixel count, centroid, inertia about it (+1/6 per pixel) */
  uint32_t x0, y0, x1, y1; /* bounding box of the opaque pixels: [x0, x1) x [y0, y1) */
} TessMaskHull;

/* One pass over the alpha bytes (per row only the runs' ends are kept) and a
 * linear-time hull of the pixel squares' corners. A fully transparent image
 * gives TESS_ERR_EMPTY "no opaque pixel at threshold A". */
TessResult tess_mask_hull(TessImageView img, uint8_t threshold, TessMaskHull *out, TessError *err);
void tess_mask_hull_clear(TessMaskHull *hull);

/* Pixel mass properties alone (the same single pass, without the hull). */
TessResult tess_mask_pixel_mass(TessImageView img, uint8_t threshold, TessMassProps *out, TessError *err);

/* Second moments of the opaque pixels about their centroid, each pixel a
 * unit square, per unit density, exact (integer sums, one pass), with the
 * principal axes (the sprite panel draws and reads out these):
 *   ixx = sum over pixels of (x - cx)^2 + 1/12   (spread along x)
 *   iyy = sum over pixels of (y - cy)^2 + 1/12   (spread along y)
 *   ixy = sum over pixels of (x - cx)(y - cy)    (the product term)
 * with (x, y) the pixel centres; ixx + iyy is the polar inertia of
 * tess_mask_pixel_mass. The moment of inertia about the x axis through the
 * centroid is iyy, about the y axis ixx, and the product of inertia -ixy. */
typedef struct TessMaskSecondMoments {
  double area;   /* opaque pixel count */
  double cx, cy; /* centroid: mean of the pixel centres */
  double ixx, iyy, ixy;
  double inertia; /* ixx + iyy, about the centroid */
  /* Principal axes: `angle` (radians in (-pi/2, pi/2], x right, y down,
   * positive towards +y) of the major axis, the direction along which the
   * pixels spread most; `major` >= `minor` are the second moments along the
   * major axis and along the minor one (major + minor = inertia). The body
   * turns hardest about the major axis' normal: the moment of inertia
   * about the major axis is `minor`, about the minor axis `major`. A
   * shape with equal spreads (a disc, a square) has angle 0. */
  double angle, major, minor;
} TessMaskSecondMoments;

/* One pass over the alpha bytes (the scan of tess_mask_pixel_mass).
 * TESS_ERR_EMPTY "no opaque pixel at threshold A" when nothing is opaque. */
TessResult tess_mask_pixel_moments(TessImageView img, uint8_t threshold, TessMaskSecondMoments *out, TessError *err);

/* Simplified hull of at most max_vertices (>= 3) vertices that contains the
 * given convex hull: repeatedly removes the edge whose removal (its two
 * neighbours extended to their intersection) adds the least area. `out` has
 * room for `count` points (and at least 3). *added_area is the simplified
 * area minus the hull's area. */
TessResult tess_mask_simplify_hull(const TessDVec2 *hull, uint32_t count, uint32_t max_vertices, TessDVec2 *out,
                                   uint32_t *out_count, double *added_area, TessError *err);

/* ---- Outline and convex pieces ----------------------------------------- */

/* Closed outline loops along pixel edges. Outer loops are counter-clockwise
 * (positive area), holes clockwise. */
typedef struct TessMaskOutline {
  uint32_t loop_count;
  uint32_t *start; /* loop i is v[start[i] .. start[i+1]) */
  TessDVec2 *v;
  bool *hole;      /* per loop */
  int32_t *island; /* per loop: index of its outer loop (itself for outer loops) */
  uint32_t block;  /* 1; b > 1 when over TESS_MASK_RUN_BUDGET: loops of b x b blocks, in pixels */
} TessMaskOutline;

/* Traces the opaque pixels' boundary (opaque pixels touching only at a
 * corner are separate islands) and simplifies every loop by a one-sided
 * Douglas-Peucker: a simplified edge may pass over transparent pixels by up
 * to `tolerance` px but never cuts into an opaque pixel, so each simplified
 * loop still encloses its pixels. tolerance 0 keeps the exact pixel outline. */
TessResult tess_mask_outline(TessImageView img, uint8_t threshold, double tolerance, TessMaskOutline *out,
                             TessError *err);
void tess_mask_outline_clear(TessMaskOutline *outline);

typedef struct TessMaskPieces {
  uint32_t count;
  uint32_t *start; /* piece i is v[start[i] .. start[i+1]), convex, counter-clockwise */
  TessDVec2 *v;
  uint32_t island_count; /* islands decomposed */
  TessMassProps pixels;  /* of every opaque pixel */
  TessMassProps shape;   /* of the union of the pieces */
  double uncovered_area; /* opaque pixel area outside every piece (dropped islands included) */
  /* The pieces' area beyond the opaque area they cover: shape.area - (pixels.area - uncovered_area).
   * Pieces of one island never overlap; pieces of islands closer than the
   * tolerance may, and their overlap then counts twice (here and in shape). */
  double added_area;
  /* The budget (settings->run_budget): `runs` is the image's run count;
   * block is 1 when the pieces were traced on the pixels, or b > 1 when
   * runs exceeded the budget and b x b blocks were traced instead (the
   * result is simplified; uncovered_area is then measured on the blocks,
   * an upper bound, and is 0 unless islands were dropped). */
  uint64_t runs;
  uint32_t block;
} TessMaskPieces;

/* Outline, simplification (settings->tolerance), convex decomposition into
 * pieces of at most settings->max_vertices vertices, holes and islands.
 * Every piece lies inside the exact hull of its island's pixels (so inside
 * the exact hull of all opaque pixels): the outline's pushed-out corners
 * are clipped off, which never uncovers a pixel; where the clip leaves
 * more than N vertices the piece is cut along a chord into parts (so sharp
 * or curved sprites get a few more pieces).
 * An island with many holes (> 32) or a very long outline (> 2048 vertices
 * after simplification) is first cut into a grid of regions, cuts placed
 * between holes, each decomposed alone and its pieces clipped to it: the
 * work stays near linear (a 1024 x 1024 plate with 4000 holes takes 8 to
 * 10 ms on the benchmark machine, within an editor frame) at the price of
 * pieces that stop at the cuts. */
TessResult tess_mask_pieces(TessImageView img, const TessMaskSettings *settings, TessMaskPieces *out,
                            TessError *err);
void tess_mask_pieces_clear(TessMaskPieces *pieces);

/* ---- Fitted primitives and units --------------------------------------- */

/* Smallest circle containing every opaque pixel (of the hull's corners). */
void tess_mask_fit_circle(const TessMaskHull *hull, TessDVec2 *center, double *radius);
/* Axis-aligned box around the opaque pixels, counter-clockwise. */
void tess_mask_fit_box(const TessMaskHull *hull, TessDVec2 box[4]);

/* Pixel-unit mass properties to SI for a placed body: pixels per metre and
 * the material's density (kg/m^2). */
static inline double tess_mask_mass_kg(double area_px2, double ppm, double density) {
  return density * area_px2 / (ppm * ppm);
}
static inline double tess_mask_inertia_kgm2(double inertia_px4, double ppm, double density) {
  return density * inertia_px4 / (ppm * ppm * ppm * ppm);
}

/* ---- One call for a sprite and one for a tileset ----------------------- */

/* What tess_mask_trace did beyond the shape: whether the pieces were
 * simplified to stay within TESS_MASK_RUN_BUDGET (the editor's mask view
 * says so). */
typedef struct TessMaskTraceReport {
  bool simplified; /* pieces traced on blocks, not pixels (see TESS_MASK_RUN_BUDGET) */
  uint32_t block;  /* the blocks' side in pixels; 1 when not simplified */
  uint64_t runs;   /* runs of opaque pixels (pieces mode; 0 in the other modes) */
} TessMaskTraceReport;

/* A traced sprite frame, in pixel units of the frame: plain results, which
 * core/level stores in a sprite's mask (tess_sprite_mask_trace). */
typedef struct TessMaskTrace {
  uint32_t hull_count;    /* the exact hull of the opaque pixels */
  TessVec2 *hull;         /* owned: tess_mask_trace_clear */
  uint32_t piece_count;   /* simplified hull or box: one polygon; pieces: the decomposition; hull, circle: none */
  TessPolygon *pieces;    /* owned: tess_mask_trace_clear */
  TessVec2 circle_center; /* the smallest circle around the opaque pixels */
  float circle_radius;
  TessMassProps pixels;  /* exact pixel mass properties (per unit density) */
  TessMassProps shape;   /* the same over the mode's shape */
  double added_area;     /* simplified hull: its area minus the exact hull's; pieces: beyond the pixels they cover */
  double uncovered_area; /* opaque pixels the pieces leave out */
  TessMaskTraceReport report;
} TessMaskTrace;

/* Traces a frame with `settings` (max_vertices at most TESS_POLY_MAX, as a
 * shape's polygons hold). On failure `out` is left alone. */
TessResult tess_mask_trace(TessImageView frame, const TessMaskSettings *settings, TessMaskTrace *out, TessError *err);
void tess_mask_trace_clear(TessMaskTrace *trace);

/* What one tile of a tileset is, traced (core/level stores it in TessTileInfo). */
typedef enum TessMaskTileKind {
  TESS_MASK_TILE_EMPTY = 0,  /* fully transparent */
  TESS_MASK_TILE_FULL = 1,   /* fully opaque */
  TESS_MASK_TILE_TRACED = 2, /* its convex pieces */
} TessMaskTileKind;

typedef struct TessMaskTile {
  uint8_t kind; /* TessMaskTileKind */
  uint16_t piece_count;
  TessPolygon *pieces; /* owned (tess_free), tile pixels, origin at the tile's top-left */
} TessMaskTile;

/* Traces every tile of a tileset image: (*out)[i] for i < tile_count, a
 * new array (free each pieces and the array with tess_free, or
 * tess_mask_tiles_free). Traced pieces have at most min(max_vertices, 8)
 * vertices and lie inside the exact hull of the tile's pixels and inside
 * the tile square [0, tile_w] x [0, tile_h]. tile_count may be less than
 * the grid holds. The run budget (settings->run_budget) holds for the whole
 * tileset: when the tiles have more runs in all, the tiles with the most
 * runs (all tiles above one run count, so the choice does not depend on
 * their order) get one piece each, their exact hull simplified to
 * max_vertices and clipped to the tile, instead of the decomposition;
 * *simplified (may be NULL) counts them. */
TessResult tess_mask_trace_tile_grid(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                     uint32_t spacing, const TessMaskSettings *settings, uint32_t tile_count,
                                     TessMaskTile **out, uint32_t *simplified, TessError *err);
void tess_mask_tiles_free(TessMaskTile *tiles, uint32_t tile_count);

/* What a long trace reports while it runs, and how it is stopped (the
 * editor traces on a worker thread, with a progress bar and Cancel). */
typedef struct TessMaskWatch {
  const volatile int *cancel;                    /* when non-NULL and set non-zero: stop (TESS_ERR_EMPTY "cancelled") */
  void (*progress)(double fraction, void *user); /* 0..1, non-decreasing; may be NULL */
  void *user;
} TessMaskWatch;

/* tess_mask_trace_tile_grid, watched (`watch` may be NULL): progress grows
 * to 1, and a cancelled trace returns TESS_ERR_EMPTY "cancelled at tile
 * i of n" with *out untouched. One not cancelled gives the same tiles as
 * tess_mask_trace_tile_grid. */
TessResult tess_mask_trace_tile_grid_watched(TessImageView img, uint32_t tile_w, uint32_t tile_h, uint32_t margin,
                                             uint32_t spacing, const TessMaskSettings *settings, uint32_t tile_count,
                                             TessMaskTile **out, uint32_t *simplified, const TessMaskWatch *watch,
                                             TessError *err);

#ifdef __cplusplus
}
#endif
#endif
