/* core/mask internals: the single scan over the alpha bytes, and the scratch
 * space reused across calls (tilesets trace a thousand tiles in one call). */
#ifndef TESS_MASK_PRIVATE_H
#define TESS_MASK_PRIVATE_H

#include "tessera/mask.h"

typedef struct MaskRun {
  uint32_t x0, x1; /* opaque pixels [x0, x1) of one row */
} MaskRun;

typedef struct MaskScan {
  uint32_t width, height;
  uint64_t count;          /* opaque pixels */
  TessMassProps mass;      /* exact pixel mass properties (valid when count > 0) */
  double sxx, syy, sxy;    /* central sums over pixel centres: (x - cx)^2, (y - cy)^2, (x - cx)(y - cy) */
  uint32_t x0, y0, x1, y1; /* bounding box [x0, x1) x [y0, y1) */
  int32_t *left, *right;   /* per row: first and one-past-last opaque x, left = -1 when empty */
  size_t extents_cap;
  /* Runs, when asked for: row y is runs[row_start[y] .. row_start[y+1]). */
  uint32_t *row_start;
  size_t row_start_cap;
  MaskRun *runs;
  size_t run_count, run_cap;
  /* The budget (budget.c): with run_limit > 0, runs past the limit are
   * counted but not kept, and `over` says so (the runs are then unusable). */
  size_t run_limit;
  bool over;
  uint64_t runs_seen; /* every run of the image, kept or not */
} MaskScan;

void mask_scan_free(MaskScan *scan);
/* The pass over the alpha bytes. want_runs keeps every run (for tracing
 * and coverage); without it only the rows' extents are kept. */
TessResult mask_scan(TessImageView img, uint8_t threshold, bool want_runs, MaskScan *scan, TessError *err);
/* The same pass over a grid of cells, one byte each (non-zero = opaque),
 * row after row (budget.c's blocks); always keeps the runs. */
TessResult mask_scan_cells(const uint8_t *cells, uint32_t w, uint32_t h, MaskScan *scan, TessError *err);
/* Checks the view (sizes, stride, pointer) before anything reads it. */
TessResult mask_check_view(TessImageView img, TessError *err);
TessResult mask_empty_error(TessError *err, uint8_t threshold);

/* Exact hull from the scan's row extents; *out is tess_alloc'ed. */
TessResult mask_hull_from_scan(const MaskScan *scan, TessDVec2 **out, uint32_t *count, TessError *err);

typedef struct MaskRowExtent {
  uint32_t y, x0, x1; /* an island's opaque pixels in row y span [x0, x1) */
} MaskRowExtent;

/* Scratch space for outlines and pieces. */
typedef struct MaskWork {
  MaskScan scan;
  uint8_t *grid; /* (w + 2) x (h + 2): bit 0 opaque, bits 1..4 edges visited */
  size_t grid_cap;
  TESS_ARRAY(TessDVec2)
  points; /* loop vertices, exact then simplified */
  TESS_ARRAY(uint32_t)
  loop_start;
  TESS_ARRAY(TessDVec2)
  simple;
  TESS_ARRAY(uint32_t)
  simple_start;
  TESS_ARRAY(uint8_t)
  keep;
  TESS_ARRAY(uint32_t)
  stack;
  TESS_ARRAY(uint32_t)
  kept_idx; /* simplification: corners kept of one loop */
  TESS_ARRAY(double)
  kept_shift;
  TESS_ARRAY(int32_t)
  island; /* per loop */
  TESS_ARRAY(double)
  loop_area; /* per loop: outer loops their island's pixel count, holes < 0 */
  TESS_ARRAY(int32_t)
  run_island; /* per run of the scan: its island's outer loop */
  /* decomposition */
  TESS_ARRAY(TessDVec2)
  poly; /* one island's points */
  TESS_ARRAY(uint32_t)
  ring; /* index list of the bridged polygon */
  TESS_ARRAY(uint32_t)
  prev, next;
  TESS_ARRAY(uint32_t)
  tri; /* triangles, 3 indices each */
  TESS_ARRAY(uint32_t)
  piece_idx; /* pieces as index lists, fixed stride */
  TESS_ARRAY(uint32_t)
  piece_len;
  TESS_ARRAY(uint32_t)
  owner;
  TESS_ARRAY(uint64_t)
  edges; /* (key, value) pairs for mask_sort_pairs */
  TESS_ARRAY(uint64_t)
  sort_tmp;
  TESS_ARRAY(uint32_t)
  zcode; /* per ring position: z-order of its point (ear clipping) */
  TESS_ARRAY(uint32_t)
  zprev, znext;
  TESS_ARRAY(double)
  run_cover;
  TESS_ARRAY(int32_t)
  hole_link; /* per loop: first hole of an island, next hole */
  /* exact hull of each island (clip.c) */
  TESS_ARRAY(TessDVec2)
  hull_v;
  TESS_ARRAY(uint32_t)
  hull_start; /* per loop: outer loop o's hull is hull_v[hull_start[o] .. hull_start[o+1]) */
  TESS_ARRAY(uint32_t)
  hull_fill;
  TESS_ARRAY(MaskRowExtent)
  hull_rows;
  TESS_ARRAY(TessDVec2)
  clip;
  TESS_ARRAY(double)
  clip_d;
  /* output */
  TESS_ARRAY(TessDVec2)
  out_v;
  TESS_ARRAY(uint32_t)
  out_start;
  uint32_t island_count;
  /* Ear clipping: after an ear, go on at the next vertex (true) or step
   * back to the previous one (false). Stepping back clips fans around one
   * vertex: long thin triangles that merge badly (a plate with 4000 holes
   * gets 10244 pieces, 4997 going on). Only the region split asks for it
   * for now: the demo project's committed golden files (tests/golden/demo)
   * hold the pieces of its sprites, which the forward walk would change. */
  bool ear_forward;
  /* The budget (budget.c): block = 1 when traced at full resolution, else
   * the side of the pixel blocks traced instead; then the fine scan's mass,
   * run count and exact hull (the bound every piece is clipped to). */
  uint32_t block;
  TessMassProps fine_mass;
  uint64_t fine_runs;
  TessDVec2 *bound;
  uint32_t bound_count;
  double block_uncovered; /* an upper bound of the pixels the pieces leave out */
} MaskWork;

void mask_work_free(MaskWork *w);
/* Traces outline loops (exact, into w->points / w->loop_start), groups them
 * into islands and simplifies (into w->simple / w->simple_start). Needs a
 * scan with runs in w->scan. */
TessResult mask_trace_outline(MaskWork *w, double tolerance, TessError *err);
/* Decomposes the traced islands into pieces (w->out_v / w->out_start). */
TessResult mask_decompose(MaskWork *w, uint32_t max_vertices, bool largest_only, TessError *err);
/* True when some island is too big to decompose in one piece of work
 * (many holes or a very long outline: bridging and ear clipping grow
 * quadratically); the image is then cut in regions (mask_pieces_split). */
bool mask_needs_split(const MaskWork *w);
/* Decomposes the traced image region by region, each small enough,
 * appending to w->out_v / w->out_start; pieces are clipped to their region. */
TessResult mask_pieces_split(MaskWork *w, double tolerance, uint32_t max_vertices, bool largest_only, TessError *err);
/* Over the budget (w->scan.over after a scan with run_limit set): replaces
 * w->scan with a scan of b x b pixel blocks (b = 2, 4, 8, ... the first
 * whose runs fit the limit), keeping the fine mass and exact hull. */
TessResult mask_coarsen(MaskWork *w, TessImageView img, uint8_t threshold, TessError *err);
/* After the blocks' pieces are made: scales them back to pixels, clips
 * them to the exact hull, and restores the fine mass into w->scan.mass. */
TessResult mask_uncoarsen(MaskWork *w, uint32_t max_vertices, TessError *err);

/* Opaque area the pieces cover (per run clamped, so overlaps do not count twice). */
double mask_covered_area(MaskWork *w);
/* The whole chain for one image into w (scan with runs included). */
TessResult mask_pieces_work(MaskWork *w, TessImageView img, const TessMaskSettings *s, TessError *err);
/* Scan within the run budget (blocks past it: w->block), then the outline;
 * *traced_tolerance is the tolerance in the traced grid's units. */
TessResult mask_budget_outline(MaskWork *w, TessImageView img, uint8_t threshold, double tolerance, uint32_t budget,
                               double *traced_tolerance, TessError *err);

/* min and max without fmin's NaN rules (which keep it a library call in hot loops). */
static inline double mask_min(double a, double b) { return a < b ? a : b; }
static inline double mask_max(double a, double b) { return a > b ? a : b; }

/* Stable sort of n (key, value) pairs kv[2i], kv[2i + 1] by key, ascending;
 * tmp has room for 2n values. */
void mask_sort_pairs(uint64_t *kv, uint64_t *tmp, size_t n);

/* Exact hull of each island's pixels (into w->hull_v / w->hull_start, by
 * outer loop), from the scan's runs and w->run_island: linear in the runs. */
bool mask_island_hulls(MaskWork *w);
/* Clips the convex counter-clockwise v[0..n) to the convex counter-clockwise
 * bound[0..bn) (v and tmp have room for n + bn points, d for n + bn
 * values); returns the vertex count after mask_clean_convex (0 if nothing
 * is left). */
uint32_t mask_clip_convex(TessDVec2 *v, uint32_t n, const TessDVec2 *bound, uint32_t bn, TessDVec2 *tmp, double *d);
/* Drops repeated and straight vertices; returns the count (0 below 3). */
uint32_t mask_clean_convex(TessDVec2 *v, uint32_t k);
/* Cuts a part of max_n consecutive vertices off the convex v[0..k) (k >
 * max_n) along the shortest such chord, into part; v keeps the rest (tmp
 * has room for k points). Returns the rest's vertex count, k - max_n + 2. */
uint32_t mask_cut_convex(TessDVec2 *v, uint32_t k, uint32_t max_n, TessDVec2 *part, TessDVec2 *tmp);
/* Appends the convex piece clipped to bound (no clip when bn < 3) to
 * w->out_v / w->out_start, cut into parts of at most max_n vertices. */
bool mask_push_clipped(MaskWork *w, const TessDVec2 *piece, uint32_t n, const TessDVec2 *bound, uint32_t bn,
                       uint32_t max_n);

#endif
