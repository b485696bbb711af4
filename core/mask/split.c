/* Big islands cut into regions before decomposition.
 *
 * Bridging holes and ear clipping grow quadratically with an island's
 * holes and outline length: a 1024 x 1024 sprite with four thousand small
 * holes would take seconds in one piece. When an island is that large the
 * image is halved along its longer side, again and again, until every part
 * is small; each part is traced from the first scan's runs (clipped to the
 * part, so pixels are read once) and decomposed alone, and its pieces are
 * clipped to the part so that neighbours never overlap. Pieces do not
 * cross the cuts, which costs a few more pieces on such sprites only. */
#include <string.h>

#include "mask-private.h"

#define SPLIT_MAX_HOLES 32u      /* per island */
#define SPLIT_MAX_VERTICES 2048u /* per island, outline and holes, simplified */
#define SPLIT_MIN_SIDE 16u       /* a part is never cut below this many pixels */
#define SPLIT_MAX_DEPTH 40

typedef struct Rect {
  uint32_t x0, y0, x1, y1;
} Rect;

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

/* Appends sub's pieces, moved to r's place and clipped to r (fans when the
 * clip adds vertices beyond max_n). */
static bool append_clipped(MaskWork *dst, const MaskWork *sub, Rect r, uint32_t max_n) {
  uint32_t np = (uint32_t)sub->out_start.count - 1;
  for (uint32_t p = 0; p < np; p++) {
    uint32_t a = sub->out_start.data[p], n = sub->out_start.data[p + 1] - a;
    TessDVec2 moved[TESS_MASK_MAX_VERTICES], v[TESS_MASK_MAX_VERTICES + 4];
    for (uint32_t i = 0; i < n; i++) moved[i] = tess_d2(sub->out_v.data[a + i].x + r.x0, sub->out_v.data[a + i].y + r.y0);
    uint32_t k = tess_convex_clip_rect(moved, n, r.x0, r.y0, r.x1, r.y1, v);
    bool changed = true;
    while (changed && k >= 3) { /* the clip's repeated and straight vertices */
      changed = false;
      for (uint32_t i = 0; i < k && k >= 3; i++) {
        TessDVec2 prev = v[(i + k - 1) % k], next = v[(i + 1) % k], d = tess_d2_sub(v[i], next);
        if (tess_d2_dot(d, d) < 1e-18 || fabs(tess_d2_orient(prev, v[i], next)) <= 1e-9) {
          memmove(v + i, v + i + 1, sizeof *v * (k - i - 1));
          k--;
          changed = true;
        }
      }
    }
    if (k < 3 || tess_poly_signed_area(v, k) <= 1e-9) continue;
    for (uint32_t i = 1; i + 1 < k; i += max_n - 2) {
      uint32_t last = i + max_n - 2 < k - 1 ? i + max_n - 2 : k - 1;
      if (!TESS_ARRAY_PUSH(&dst->out_v, v[0])) return false;
      for (uint32_t j = i; j <= last; j++)
        if (!TESS_ARRAY_PUSH(&dst->out_v, v[j])) return false;
      if (!TESS_ARRAY_PUSH(&dst->out_start, (uint32_t)dst->out_v.count)) return false;
    }
  }
  return true;
}

static TessResult region(MaskWork *dst, MaskWork *sub, int32_t keep, Rect r, double tol, uint32_t max_n, int depth,
                         TessError *err);

static TessResult halves(MaskWork *dst, MaskWork *sub, int32_t keep, Rect r, double tol, uint32_t max_n, int depth,
                         TessError *err) {
  Rect a = r, b = r;
  if (r.x1 - r.x0 >= r.y1 - r.y0) a.x1 = b.x0 = r.x0 + (r.x1 - r.x0) / 2;
  else a.y1 = b.y0 = r.y0 + (r.y1 - r.y0) / 2;
  TessResult res = region(dst, sub, keep, a, tol, max_n, depth + 1, err);
  if (res == TESS_OK) res = region(dst, sub, keep, b, tol, max_n, depth + 1, err);
  return res;
}

static TessResult region(MaskWork *dst, MaskWork *sub, int32_t keep, Rect r, double tol, uint32_t max_n, int depth,
                         TessError *err) {
  if (!region_scan(&dst->scan, dst->run_island.data, keep, r, &sub->scan))
    return tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory splitting the outline");
  if (sub->scan.count == 0) return TESS_OK;
  TessResult res = mask_trace_outline(sub, tol, err);
  if (res != TESS_OK) return res;
  uint32_t longer = r.x1 - r.x0 > r.y1 - r.y0 ? r.x1 - r.x0 : r.y1 - r.y0;
  if (depth < SPLIT_MAX_DEPTH && longer >= 2 * SPLIT_MIN_SIDE && mask_needs_split(sub))
    return halves(dst, sub, keep, r, tol, max_n, depth, err);
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
  MaskWork sub;
  memset(&sub, 0, sizeof sub);
  Rect all = {0, 0, w->scan.width, w->scan.height};
  TessResult res = halves(w, &sub, keep, all, tolerance, max_vertices, 0, err);
  mask_work_free(&sub);
  w->island_count = largest_only ? 1 : islands;
  return res;
}
