/* Big islands cut into regions before decomposition.
 *
 * Bridging holes and ear clipping grow quadratically with an island's
 * holes and outline length: a 1024 x 1024 sprite with four thousand small
 * holes would take seconds in one piece. When an island is that large the
 * image is cut into a grid of parts sized for the holes and outline length
 * found (a part still too complex is halved along its longer side), so
 * every part is small; each part is traced from the first scan's runs (clipped to the
 * part, so pixels are read once) and decomposed alone, and its pieces are
 * clipped to the part so that neighbours never overlap. Pieces do not
 * cross the cuts, which costs a few more pieces on such sprites only.
 * Parts are ear-clipped walking forward (MaskWork.ear_forward): between
 * rows of holes that gives rectangles, not fans of thin triangles. */
#include <string.h>

#include "mask_private.h"

#define SPLIT_MAX_HOLES 32u      /* per island */
#define SPLIT_MAX_VERTICES 2048u /* per island, outline and holes, simplified */
#define SPLIT_MIN_SIDE 16u       /* a part is never cut below this many pixels */
#define SPLIT_MAX_DEPTH 40

typedef struct Rect {
  uint32_t x0, y0, x1, y1;
} Rect;

/* Opaque pixels per column and per row: cuts go where they are most
 * numerous, between holes rather than through them (a hole cut in two
 * becomes two notches, which the simplification may fill). */
typedef struct CutGuide {
  uint32_t *col, *row;
} CutGuide;

/* The boundary in (lo, hi) near target whose two neighbouring lines hold
 * the most opaque pixels (the nearer one on a tie). */
static uint32_t best_cut(const uint32_t *count, uint32_t lo, uint32_t hi, uint32_t target, uint32_t reach) {
  uint32_t a = target > lo + reach ? target - reach : lo + 1, b = target + reach < hi ? target + reach : hi - 1;
  uint32_t best = target, best_score = 0, best_dist = UINT32_MAX;
  for (uint32_t c = a; c <= b; c++) {
    uint32_t score = count[c - 1] + count[c], dist = c > target ? c - target : target - c;
    if (score > best_score || (score == best_score && dist < best_dist)) {
      best = c;
      best_score = score;
      best_dist = dist;
    }
  }
  return best;
}

bool mask_needs_split(const MaskWork *w) {
  uint32_t loops = (uint32_t)w->loop_start.count - 1;
  if (loops <= 1) return false;
  uint32_t *holes = tess_calloc(loops, sizeof *holes), *verts = tess_calloc(loops, sizeof *verts);
  bool split = false;
  if (holes && verts) {
    for (uint32_t i = 0; i < loops && !split; i++) {
      uint32_t o = (uint32_t)w->island.data[i];
      verts[o] += w->simple_start.data[i + 1] - w->simple_start.data[i];
      if (o != i) holes[o]++;
      split = holes[o] > SPLIT_MAX_HOLES || verts[o] > SPLIT_MAX_VERTICES;
    }
  }
  tess_free(holes);
  tess_free(verts);
  return split;
}

/* The runs of `full` inside r (and of island `keep` when >= 0), shifted to r's origin. */
static bool region_scan(const MaskScan *full, const int32_t *island, int32_t keep, Rect r, MaskScan *out) {
  out->width = r.x1 - r.x0;
  out->height = r.y1 - r.y0;
  out->run_count = 0;
  out->count = 0;
  if (!tess_array_reserve((void **)&out->row_start, &out->row_start_cap, (size_t)out->height + 1,
                          sizeof *out->row_start))
    return false;
  for (uint32_t y = r.y0; y < r.y1; y++) {
    out->row_start[y - r.y0] = (uint32_t)out->run_count;
    for (uint32_t i = full->row_start[y]; i < full->row_start[y + 1]; i++) {
      if (keep >= 0 && island[i] != keep) continue;
      uint32_t a = full->runs[i].x0 > r.x0 ? full->runs[i].x0 : r.x0;
      uint32_t b = full->runs[i].x1 < r.x1 ? full->runs[i].x1 : r.x1;
      if (a >= b) continue;
      if (out->run_count == out->run_cap &&
          !tess_array_reserve((void **)&out->runs, &out->run_cap, out->run_count + 1, sizeof *out->runs))
        return false;
      out->runs[out->run_count].x0 = a - r.x0;
      out->runs[out->run_count].x1 = b - r.x0;
      out->run_count++;
      out->count += b - a;
    }
  }
  out->row_start[out->height] = (uint32_t)out->run_count;
  return true;
}

/* Appends sub's pieces, moved to r's place and clipped to r (they already
 * lie inside their island's hull, which lies inside r: the clip is a
 * safeguard), cut into parts when longer than max_n. */
static bool append_clipped(MaskWork *dst, const MaskWork *sub, Rect r, uint32_t max_n) {
  uint32_t np = (uint32_t)sub->out_start.count - 1;
  const TessDVec2 box[4] = {{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}};
  for (uint32_t p = 0; p < np; p++) {
    uint32_t a = sub->out_start.data[p], n = sub->out_start.data[p + 1] - a;
    TessDVec2 moved[TESS_MASK_MAX_VERTICES];
    bool inside = true;
    for (uint32_t i = 0; i < n; i++) {
      moved[i] = tess_d2(sub->out_v.data[a + i].x + r.x0, sub->out_v.data[a + i].y + r.y0);
      inside &= moved[i].x >= r.x0 && moved[i].x <= r.x1 && moved[i].y >= r.y0 && moved[i].y <= r.y1;
    }
    /* Inside the box (the usual case) the clip would change nothing. */
    if (!mask_push_clipped(dst, moved, n, box, inside ? 0 : 4, max_n)) return false;
  }
  return true;
}

static TessResult region(MaskWork *dst, MaskWork *sub, const CutGuide *g, int32_t keep, Rect r, double tol,
                         uint32_t max_n, int depth, TessError *err);

static TessResult halves(MaskWork *dst, MaskWork *sub, const CutGuide *g, int32_t keep, Rect r, double tol,
                         uint32_t max_n, int depth, TessError *err) {
  Rect a = r, b = r;
  if (r.x1 - r.x0 >= r.y1 - r.y0) {
    uint32_t span = r.x1 - r.x0;
    a.x1 = b.x0 = best_cut(g->col, r.x0 + SPLIT_MIN_SIDE / 2, r.x1 - SPLIT_MIN_SIDE / 2, r.x0 + span / 2, span / 4);
  } else {
    uint32_t span = r.y1 - r.y0;
    a.y1 = b.y0 = best_cut(g->row, r.y0 + SPLIT_MIN_SIDE / 2, r.y1 - SPLIT_MIN_SIDE / 2, r.y0 + span / 2, span / 4);
  }
  TessResult res = region(dst, sub, g, keep, a, tol, max_n, depth + 1, err);
  if (res == TESS_OK) res = region(dst, sub, g, keep, b, tol, max_n, depth + 1, err);
  return res;
}

static TessResult region(MaskWork *dst, MaskWork *sub, const CutGuide *g, int32_t keep, Rect r, double tol,
                         uint32_t max_n, int depth, TessError *err) {
  if (!region_scan(&dst->scan, dst->run_island.data, keep, r, &sub->scan))
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory splitting the outline");
  if (sub->scan.count == 0) return TESS_OK;
  TessResult res = mask_trace_outline(sub, tol, err);
  if (res != TESS_OK) return res;
  uint32_t longer = r.x1 - r.x0 > r.y1 - r.y0 ? r.x1 - r.x0 : r.y1 - r.y0;
  if (depth < SPLIT_MAX_DEPTH && longer >= 2 * SPLIT_MIN_SIDE && mask_needs_split(sub))
    return halves(dst, sub, g, keep, r, tol, max_n, depth, err);
  sub->ear_forward = true;
  res = mask_decompose(sub, max_n, false, err);
  if (res != TESS_OK) return res;
  if (!append_clipped(dst, sub, r, max_n))
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the pieces");
  return TESS_OK;
}

TessResult mask_pieces_split(MaskWork *w, double tolerance, uint32_t max_vertices, bool largest_only, TessError *err) {
  uint32_t loops = (uint32_t)w->loop_start.count - 1;
  int32_t keep = -1;
  uint32_t islands = 0;
  for (uint32_t i = 0; i < loops; i++) {
    if (w->island.data[i] != (int32_t)i) continue;
    islands++;
    if (keep < 0 || w->loop_area.data[i] > w->loop_area.data[keep]) keep = (int32_t)i;
  }
  if (!largest_only) keep = -1;
  w->out_v.count = 0;
  w->out_start.count = 0;
  if (!TESS_ARRAY_PUSH(&w->out_start, 0u))
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory for the pieces");
  /* Cut straight into a grid of cells about the size the islands' holes
   * and outlines call for (halving level by level would trace the whole
   * image again at every level); a cell that is still too complex is then
   * halved. */
  double holes = 0, verts = 0;
  for (uint32_t i = 0; i < loops; i++) {
    verts += w->simple_start.data[i + 1] - w->simple_start.data[i];
    if (w->island.data[i] != (int32_t)i) holes++;
  }
  double cells = fmax(2.0, 2.0 * fmax(holes / SPLIT_MAX_HOLES, verts / SPLIT_MAX_VERTICES));
  double side = sqrt((double)w->scan.width * w->scan.height / cells);
  uint32_t cell = side < 2 * SPLIT_MIN_SIDE ? 2 * SPLIT_MIN_SIDE : (uint32_t)side;
  const uint32_t W = w->scan.width, H = w->scan.height;
  CutGuide g = {tess_calloc((size_t)W + 1, sizeof(uint32_t)), tess_calloc((size_t)H + 1, sizeof(uint32_t))};
  TESS_ARRAY(uint32_t)
  xs = {0};
  TESS_ARRAY(uint32_t)
  ys = {0};
  MaskWork sub;
  memset(&sub, 0, sizeof sub);
  TessResult res = TESS_OK;
  if (!g.col || !g.row) goto nomem;
  /* Column counts through a difference array over the runs. */
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t i = w->scan.row_start[y]; i < w->scan.row_start[y + 1]; i++) {
      g.col[w->scan.runs[i].x0]++;
      g.col[w->scan.runs[i].x1]--;
      g.row[y] += w->scan.runs[i].x1 - w->scan.runs[i].x0;
    }
  for (uint32_t x = 1; x <= W; x++) g.col[x] += g.col[x - 1];
  /* Cut lines near every multiple of the cell size. */
  if (!TESS_ARRAY_PUSH(&xs, 0u) || !TESS_ARRAY_PUSH(&ys, 0u)) goto nomem;
  for (uint32_t t = cell; t + cell / 2 < W; t += cell) {
    uint32_t c = best_cut(g.col, xs.data[xs.count - 1] + SPLIT_MIN_SIDE / 2, W - SPLIT_MIN_SIDE / 2, t, cell / 4);
    if (c > xs.data[xs.count - 1] && !TESS_ARRAY_PUSH(&xs, c)) goto nomem;
  }
  for (uint32_t t = cell; t + cell / 2 < H; t += cell) {
    uint32_t c = best_cut(g.row, ys.data[ys.count - 1] + SPLIT_MIN_SIDE / 2, H - SPLIT_MIN_SIDE / 2, t, cell / 4);
    if (c > ys.data[ys.count - 1] && !TESS_ARRAY_PUSH(&ys, c)) goto nomem;
  }
  if (!TESS_ARRAY_PUSH(&xs, W) || !TESS_ARRAY_PUSH(&ys, H)) goto nomem;
  for (size_t j = 0; j + 1 < ys.count && res == TESS_OK; j++)
    for (size_t i = 0; i + 1 < xs.count && res == TESS_OK; i++) {
      Rect r = {xs.data[i], ys.data[j], xs.data[i + 1], ys.data[j + 1]};
      res = region(w, &sub, &g, keep, r, tolerance, max_vertices, 1, err);
    }
  goto done;
nomem:
  res = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory splitting the outline");
done:
  tess_free(g.col);
  tess_free(g.row);
  TESS_ARRAY_FREE(&xs);
  TESS_ARRAY_FREE(&ys);
  mask_work_free(&sub);
  w->island_count = largest_only ? 1 : islands;
  return res;
}
