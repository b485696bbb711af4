/* Broad phase: a uniform hash grid rebuilt each step by counting sort.
 * Each shape goes into the one cell holding the lower corner of its box
 * (grown by its speculative margin); the cell is at least as large as any
 * box, so two overlapping boxes sit in the same or neighbouring cells, and
 * looking at the own cell and four of the eight neighbours finds each pair
 * exactly once. Boxes larger than the cell (a long static ground) are
 * tested against everything instead. The pairs come out sorted by key. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "physics_private.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The box rides in the entry: the neighbour scan streams through the sorted
 * entries and opens a proxy only for boxes that overlap (most do not). */
typedef struct Entry {
  TessAABB box;
  int32_t ix, iy;
  uint32_t proxy; /* | PLAIN when the proxy is plain: two such need no look at the proxies */
  uint32_t bucket;
} Entry;

#define PLAIN 0x80000000u

static inline int32_t fast_floor(float x) {
  int32_t i = (int32_t)x;
  return i - (x < (float)i);
}

static bool push_pair(PairBuf *out, uint32_t a, uint32_t b) {
  if (!PHYS_GROW(out->pairs, &out->cap, out->count + 1)) return false;
  uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
  out->pairs[out->count++] = ((uint64_t)lo << 32) | hi;
  return true;
}

/* Everything it needs is in the proxies: no trip to the bodies or shapes.
 * The boxes are known to overlap. */
static inline bool pair_allowed(const Proxy *pa, const Proxy *pb) {
  if (pa->body == pb->body) return false;
  if (!pa->active && !pb->active) return false;
  if (pa->sensor && pb->sensor) return false;
  /* kinematic against static or kinematic: only sensors care */
  if (!pa->dynamic && !pb->dynamic && !pa->sensor && !pb->sensor) return false;
  if (pa->group != 0 && pa->group == pb->group) return false; /* parts of one assembly (a ragdoll) */
  return (pa->category & pb->mask) && (pb->category & pa->mask);
}

static inline bool pair_wanted(const Proxy *pa, const Proxy *pb) {
  return tess_aabb_overlaps(pa->box, pb->box) && pair_allowed(pa, pb);
}

/* The same test as tess_aabb_overlaps, in one compare of four lanes and one
 * branch (the scan's overlaps are unpredictable, four branches cost more). */
static inline bool boxes_overlap(const TessAABB *a, const TessAABB *b) {
#if defined(__SSE2__)
  __m128 va = _mm_loadu_ps(&a->lower.x), vb = _mm_loadu_ps(&b->lower.x);
  /* (b.lower, a.lower) <= (a.upper, b.upper) in every lane */
  return _mm_movemask_ps(_mm_cmple_ps(_mm_movelh_ps(vb, va), _mm_movehl_ps(vb, va))) == 15;
#else
  return tess_aabb_overlaps(*a, *b);
#endif
}

/* Entry a against the entries [from, to) of the sorted list. Two plain proxies' pair is written
 * whether or not the boxes overlap, and kept by counting it only when they do: which of the
 * boxes overlap follows no pattern, and a branch on it was mispredicted so often that it took
 * a quarter of the scan's time. */
static inline bool scan_range(PairBuf *w, const Proxy *proxies, const Entry *sorted, const Entry *ea,
                              const Proxy *pa, uint32_t from, uint32_t to) {
  if (from >= to) return true;
  if (!PHYS_GROW(w->pairs, &w->cap, w->count + (to - from))) return false;
  uint64_t *out = w->pairs;
  uint32_t count = w->count, a = ea->proxy & ~PLAIN;
  for (uint32_t j = from; j < to; j++) {
    const Entry *eb = &sorted[j];
    uint32_t b = eb->proxy & ~PLAIN, lo = a < b ? a : b, hi = a < b ? b : a;
    bool overlap = boxes_overlap(&ea->box, &eb->box);
    if (ea->proxy & eb->proxy & PLAIN) {
      out[count] = ((uint64_t)lo << 32) | hi;
      count += overlap;
    } else if (overlap && pair_allowed(pa, &proxies[b])) {
      out[count++] = ((uint64_t)lo << 32) | hi;
    }
  }
  w->count = count;
  return true;
}

static uint32_t cell_hash(int32_t x, int32_t y, uint32_t mask) {
  uint32_t h = (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return h & mask;
}

/* ---- The pairs in key order -------------------------------------------- *
 * The contacts of a step then come out in the order of the last step's, and warm starting finds
 * each old contact by walking forwards (contact.c) instead of by a hash lookup, a cache miss, per
 * contact. The scan's lists are spread into ranges of the lower shape index (the first half of
 * the key), then the workers sort the ranges side by side: a counting sort by the lower index,
 * then an insertion sort, which finds out of order only the few pairs of one lower index (a
 * shape meets a handful of others). That is one pass that moves the pairs where an LSD radix sort
 * of the keys' bits took two, and a count per shape instead of two tables of up to 64 K digits
 * per range. Keys are unique (a pair is found once), so any split into lists and ranges gives
 * the same order: the workers' count leaves no trace. */

/* Counts per part and range ([part * ranges + range], counted by the workers part by part)
 * become where each part's items of each range go, range by range and part by part within a
 * range; range_at[r] is where range r starts and range_at[ranges] the total. The pair sort and
 * the grid's entries share it: their parts are lists and blocks. */
static void starts_by_range(uint32_t *at, uint32_t *range_at, uint32_t parts, uint32_t ranges) {
  uint32_t sum = 0;
  for (uint32_t r = 0; r < ranges; r++) {
    range_at[r] = sum;
    for (uint32_t k = 0; k < parts; k++) {
      uint32_t c = at[(size_t)k * ranges + r];
      at[(size_t)k * ranges + r] = sum;
      sum += c;
    }
  }
  range_at[ranges] = sum;
}

typedef struct SortJob {
  TessWorld *w;
  const PairBuf *lists;
  const uint64_t *from;                /* the pairs by range (one list: the list itself) */
  uint32_t lists_count, ranges, shift; /* a pair's range is its lower index >> shift */
  uint32_t *at;                        /* [list * ranges + range]: where its pairs of the range go */
  uint32_t *range_at;                  /* ranges + 1: where each range starts */
  uint32_t *counts;                    /* [range << shift]: a range's pairs per lower index */
} SortJob;

static void count_task(void *ctx, uint32_t begin, uint32_t end) {
  const SortJob *j = ctx;
  for (uint32_t k = begin; k < end; k++) {
    uint32_t *at = j->at + (size_t)k * j->ranges;
    memset(at, 0, j->ranges * sizeof *at);
    const PairBuf *b = &j->lists[k];
    for (uint32_t i = 0; i < b->count; i++) at[(uint32_t)(b->pairs[i] >> 32) >> j->shift]++;
  }
}

static void spread_task(void *ctx, uint32_t begin, uint32_t end) {
  const SortJob *j = ctx;
  uint64_t *out = j->w->pairs_tmp;
  for (uint32_t k = begin; k < end; k++) {
    uint32_t *at = j->at + (size_t)k * j->ranges;
    const PairBuf *b = &j->lists[k];
    for (uint32_t i = 0; i < b->count; i++) out[at[(uint32_t)(b->pairs[i] >> 32) >> j->shift]++] = b->pairs[i];
  }
}

static int cmp_key(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* Ranges [begin, end): their pairs from j->from into w->pairs, in key order. */
static void order_task(void *ctx, uint32_t begin, uint32_t end) {
  const SortJob *j = ctx;
  const uint64_t *a = j->from;
  uint64_t *b = j->w->pairs;
  uint32_t mask = (1u << j->shift) - 1u;
  for (uint32_t r = begin; r < end; r++) {
    uint32_t from = j->range_at[r], to = j->range_at[r + 1];
    if (from == to) continue;
    /* the lower indices of the range that exist: the last range stops at the last shape */
    uint32_t first = r << j->shift, lows = j->w->shape_count - first < mask + 1u ? j->w->shape_count - first : mask + 1u;
    uint32_t *count = j->counts + ((size_t)r << j->shift);
    memset(count, 0, lows * sizeof *count);
    for (uint32_t i = from; i < to; i++) count[(uint32_t)(a[i] >> 32) & mask]++;
    uint32_t sum = from, most = 0;
    for (uint32_t d = 0; d < lows; d++) {
      uint32_t c = count[d];
      count[d] = sum;
      sum += c;
      most = c > most ? c : most;
    }
    for (uint32_t i = from; i < to; i++) b[count[(uint32_t)(a[i] >> 32) & mask]++] = a[i];
    /* by the higher index among the pairs of one lower index (each count is now its index's
     * end). One insertion sort over the range: a pair moves back past only those of its own
     * lower index, and the compare is true only for those (a loop per index mispredicted its
     * end at every index). A shape that meets many others has its pairs sorted by qsort. */
    if (most > 32u) {
      for (uint32_t d = 0, s = from; d < lows; s = count[d++])
        if (count[d] - s > 32u) qsort(b + s, count[d] - s, sizeof *b, cmp_key);
    }
    for (uint32_t i = from + 1; i < to; i++) {
      uint64_t key = b[i];
      if (b[i - 1] <= key) continue;
      uint32_t k = i;
      for (; k > from && b[k - 1] > key; k--) b[k] = b[k - 1];
      b[k] = key;
    }
  }
}

/* The lists' pairs into w->pairs in key order. */
static bool sort_pairs(TessWorld *w, const PairBuf *lists, uint32_t lists_count) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < lists_count; k++) n += lists[k].count;
  w->pair_count = 0;
  if (n == 0) return true;
  uint32_t bits = 1;
  while (bits < 32 && (w->shape_count >> bits) != 0) bits++;
  /* one range for one list; else at least one per list, so that the pool's chunks (as many as
   * the lists) get a range or more each; more would lengthen the caller's serial pass over the
   * lists' counts per range (starts_by_range) */
  uint32_t shift = bits;
  while (lists_count > 1 && shift > 0 && ((w->shape_count - 1u) >> shift) + 1u < lists_count) shift--;
  uint32_t ranges = ((w->shape_count - 1u) >> shift) + 1u;
  size_t words = ((size_t)ranges << shift) + (size_t)lists_count * ranges + ranges + 1u;
  if (words > UINT32_MAX || !PHYS_GROW(w->pairs, &w->pair_cap, n) ||
      (lists_count > 1 && !PHYS_GROW(w->pairs_tmp, &w->pairs_tmp_cap, n)) ||
      !PHYS_GROW(w->radix_count, &w->radix_count_cap, (uint32_t)words))
    return false;
  SortJob j = {w, lists, lists_count > 1 ? w->pairs_tmp : lists[0].pairs, lists_count, ranges, shift, NULL, NULL,
               w->radix_count};
  j.at = j.counts + ((size_t)ranges << shift);
  j.range_at = j.at + (size_t)lists_count * ranges;
  if (lists_count > 1) {
    physics_parallel_for(w->tasks, lists_count, 1, count_task, &j);
    starts_by_range(j.at, j.range_at, lists_count, ranges);
    physics_parallel_for(w->tasks, lists_count, 1, spread_task, &j);
  } else {
    j.range_at[0] = 0; /* one list, one range: sorted from the list itself */
    j.range_at[1] = n;
  }
  physics_parallel_for(w->tasks, ranges, 1, order_task, &j);
  w->pair_count = n;
  return true;
}

/* The proxies in fixed blocks (not the workers' chunks), so that what is summed over them
 * comes out the same for any number of workers. Small enough that the pool's chunks get
 * the same number of blocks at 5,000 shapes: at 512 a shape the 10 blocks were 5 chunks of 2, and
 * the thread with three did 60% of each pass over the blocks. (The cell size summed from them
 * decides only how the grid finds the pairs, never which pairs or their order.) */
#define BP_BLOCK 128u

/* A block of proxies: what the passes over it found, then where its entries go. */
typedef struct BpBlock {
  double extent_sum; /* of the moving boxes' larger sides */
  float extent_max;
  uint32_t extent_n, live;
  int32_t gx0, gy0, gx1, gy1; /* the grid cells of its boxes' lower corners */
  uint32_t entries, larges;   /* its proxies on the grid, and those too large for it */
  uint32_t entry_at, large_at;
} BpBlock;

typedef struct ProxyJob {
  TessWorld *w;
  const float *margins;
  const TessVec2 *sweeps;
} ProxyJob;

/* Proxy s: the shape in world space, its box swept and grown. Returns the box's larger side for
 * a moving body, -1 for a static one, -2 for no proxy. */
static float build_proxy(const ProxyJob *j, uint32_t s) {
  TessWorld *w = j->w;
  const Shape *sh = &w->shapes[s];
  Proxy *p = &((Proxy *)w->bp_scratch)[s];
  p->live = 0;
  p->large = 0;
  if (!sh->in_use) return -2.0f;
  const Body *b = &w->bodies[sh->body];
  if (b->destroy_pending) return -2.0f;
  /* the shape in world space for this step (the narrow phase reads it) */
  PhysPoly *wp = &w->wpolys[s];
  Shape *shm = &w->shapes[s];
  physics_poly_transform_bounds(&sh->poly, b->xf, wp, &shm->aabb);
  p->live = 1;
  /* the box swept over the step's motion, grown by the speculative margin */
  float m = j->margins[sh->body];
  TessVec2 d = j->sweeps[sh->body];
#if defined(__SSE2__)
  /* (lower, upper) in one register: a - m is a + -m, and the sweep's part is min(d, 0) below and
   * max(d, 0) above, as the scalar `d < 0 ? d : 0` (a pile's sweeps point every way, and those
   * compares, as branches, were mispredicted some 1,700 times a step at 2,000 polygons) */
  __m128 sweep = _mm_setr_ps(d.x, d.y, d.x, d.y), zero = _mm_setzero_ps();
  __m128 grow = _mm_movelh_ps(_mm_min_ps(sweep, zero), _mm_max_ps(sweep, zero));
  __m128 box = _mm_add_ps(_mm_add_ps(_mm_loadu_ps(&shm->aabb.lower.x), _mm_setr_ps(-m, -m, m, m)), grow);
  _mm_storeu_ps(&p->box.lower.x, box);
#else
  p->box.lower = tess_v2(shm->aabb.lower.x - m + (d.x < 0.0f ? d.x : 0.0f), shm->aabb.lower.y - m + (d.y < 0.0f ? d.y : 0.0f));
  p->box.upper = tess_v2(shm->aabb.upper.x + m + (d.x > 0.0f ? d.x : 0.0f), shm->aabb.upper.y + m + (d.y > 0.0f ? d.y : 0.0f));
#endif
  p->radius = wp->radius;
  p->body = sh->body;
  p->active = physics_body_active(b);
  p->dynamic = b->type == TESS_BODY_DYNAMIC;
  p->sensor = sh->sensor;
  p->category = sh->category;
  p->mask = sh->mask;
  p->group = sh->group;
  p->v = b->v;
  p->spin = fabsf(b->w) * b->max_extent;
  p->friction = sh->friction;
  p->restitution = sh->restitution;
  p->tangential = sh->tangential;
  p->plain = p->active && p->dynamic && !p->sensor && b->shape_count == 1 && sh->category != 0 && sh->mask == UINT32_MAX &&
             sh->group == 0;
  if (b->type == TESS_BODY_STATIC) return -1.0f;
  return physics_maxf(p->box.upper.x - p->box.lower.x, p->box.upper.y - p->box.lower.y);
}

/* Blocks [begin, end) of proxies, and their sums in slot order. */
static void build_proxies(void *ctx, uint32_t begin, uint32_t end) {
  const ProxyJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t k = begin; k < end; k++) {
    BpBlock *blk = &w->bp_blocks[k];
    blk->extent_sum = 0.0;
    blk->extent_max = 0.0f;
    blk->extent_n = blk->live = 0;
    uint32_t to = (k + 1) * BP_BLOCK < w->shape_count ? (k + 1) * BP_BLOCK : w->shape_count;
    for (uint32_t s = k * BP_BLOCK; s < to; s++) {
      float e = build_proxy(j, s);
      if (e < -1.5f) continue;
      blk->live++;
      if (e < 0.0f) continue;
      blk->extent_sum += e;
      blk->extent_n++;
      if (e > blk->extent_max) blk->extent_max = e;
    }
  }
}

/* ---- The grid's entries ---------------------------------------------------- *
 * Block by block on the workers: which proxies are too large for the cells and where the others'
 * cells are; then each block's entries in slot order, spread into ranges of buckets, and each
 * range put in bucket order by a counting sort. The blocks keep slot order and the sort is
 * stable, so the entries come out as one thread placing them in slot order would: by bucket,
 * then by slot. */

typedef struct GridJob {
  TessWorld *w;
  float cs, inv;
  bool dense;
  uint32_t gw, mask, nbucket;
  int32_t gx0, gy0;
  Entry *entries, *spread, *sorted; /* written in slot order, by range (when more than one), by bucket */
  uint32_t *start, *large;
  uint32_t blocks, ranges, shift; /* a bucket's range is bucket >> shift */
  uint32_t *at;                   /* [block * ranges + range]: where the block's entries of the range go */
  uint32_t *range_at;             /* ranges + 1 */
} GridJob;

static void bounds_task(void *ctx, uint32_t begin, uint32_t end) {
  const GridJob *j = ctx;
  Proxy *proxies = j->w->bp_scratch;
  float cs = j->cs, inv = j->inv;
  for (uint32_t k = begin; k < end; k++) {
    BpBlock *blk = &j->w->bp_blocks[k];
    int32_t gx0 = INT32_MAX, gy0 = INT32_MAX, gx1 = INT32_MIN, gy1 = INT32_MIN;
    uint32_t entries = 0, larges = 0;
    uint32_t to = (k + 1) * BP_BLOCK < j->w->shape_count ? (k + 1) * BP_BLOCK : j->w->shape_count;
    for (uint32_t i = k * BP_BLOCK; i < to; i++) {
      Proxy *p = &proxies[i];
      if (!p->live) continue;
      float lx = p->box.lower.x * inv, ly = p->box.lower.y * inv;
      bool big = !(p->box.upper.x - p->box.lower.x <= cs) || !(p->box.upper.y - p->box.lower.y <= cs);
      p->large = big || !(fabsf(lx) < 1e8f) || !(fabsf(ly) < 1e8f);
      if (p->large) {
        larges++;
        continue;
      }
      entries++;
      int32_t ix = fast_floor(lx), iy = fast_floor(ly);
      if (ix < gx0) gx0 = ix;
      if (ix > gx1) gx1 = ix;
      if (iy < gy0) gy0 = iy;
      if (iy > gy1) gy1 = iy;
    }
    blk->gx0 = gx0;
    blk->gy0 = gy0;
    blk->gx1 = gx1;
    blk->gy1 = gy1;
    blk->entries = entries;
    blk->larges = larges;
  }
}

static void entries_task(void *ctx, uint32_t begin, uint32_t end) {
  const GridJob *j = ctx;
  const Proxy *proxies = j->w->bp_scratch;
  for (uint32_t k = begin; k < end; k++) {
    const BpBlock *blk = &j->w->bp_blocks[k];
    uint32_t *at = j->at + (size_t)k * j->ranges;
    memset(at, 0, j->ranges * sizeof *at);
    uint32_t e_at = blk->entry_at, l_at = blk->large_at;
    uint32_t to = (k + 1) * BP_BLOCK < j->w->shape_count ? (k + 1) * BP_BLOCK : j->w->shape_count;
    for (uint32_t i = k * BP_BLOCK; i < to; i++) {
      const Proxy *p = &proxies[i];
      if (!p->live) continue;
      if (p->large) {
        j->large[l_at++] = i;
        continue;
      }
      Entry *e = &j->entries[e_at++];
      e->ix = fast_floor(p->box.lower.x * j->inv);
      e->iy = fast_floor(p->box.lower.y * j->inv);
      e->proxy = i | (p->plain ? PLAIN : 0u);
      e->box = p->box;
      e->bucket = j->dense ? (uint32_t)(e->iy - j->gy0) * j->gw + (uint32_t)(e->ix - j->gx0) : cell_hash(e->ix, e->iy, j->mask);
      at[e->bucket >> j->shift]++;
    }
  }
}

static void spread_entries_task(void *ctx, uint32_t begin, uint32_t end) {
  const GridJob *j = ctx;
  for (uint32_t k = begin; k < end; k++) {
    const BpBlock *blk = &j->w->bp_blocks[k];
    uint32_t *at = j->at + (size_t)k * j->ranges;
    for (uint32_t i = blk->entry_at; i < blk->entry_at + blk->entries; i++)
      j->spread[at[j->entries[i].bucket >> j->shift]++] = j->entries[i];
  }
}

/* Ranges [begin, end) of buckets: their entries in bucket order, and the buckets' starts. */
static void place_task(void *ctx, uint32_t begin, uint32_t end) {
  const GridJob *j = ctx;
  uint32_t *start = j->start;
  for (uint32_t r = begin; r < end; r++) {
    uint32_t first = r << j->shift, last = (r + 1) << j->shift; /* buckets [first, last) */
    if (last > j->nbucket || last == 0) last = j->nbucket;
    uint32_t from = j->range_at[r], to = j->range_at[r + 1];
    memset(start + first, 0, (last - first) * sizeof *start);
    for (uint32_t i = from; i < to; i++) start[j->spread[i].bucket]++;
    uint32_t sum = from;
    for (uint32_t b = first; b < last; b++) {
      sum += start[b];
      start[b] = sum; /* the bucket's end */
    }
    /* placed from the back with a cursor per bucket that moves down from its end: stable, and
     * the cursors end at the buckets' starts (no pass over the buckets to restore them) */
    for (uint32_t i = to; i-- > from;) j->sorted[--start[j->spread[i].bucket]] = j->spread[i];
  }
}

typedef struct ScanJob {
  TessWorld *w;
  const Proxy *proxies;
  const Entry *sorted;
  const uint32_t *start;
  uint32_t nentry;
  bool dense;
  uint32_t gw;
  int32_t gx0, gx1, gy1;
  uint32_t mask;
  uint32_t pieces; /* the entries cut into this many runs, each with its own pair list */
  atomic_bool failed;
} ScanJob;

/* The pairs of sorted entries [begin, end) with the entries after them, into out. */
static bool scan_entries(const ScanJob *job, uint32_t begin, uint32_t end, PairBuf *out) {
  const Proxy *proxies = job->proxies;
  const Entry *sorted = job->sorted;
  const uint32_t *start = job->start;
  uint32_t gw = job->gw, mask = job->mask;
  int32_t gx0 = job->gx0, gx1 = job->gx1, gy1 = job->gy1;
  if (job->dense) {
    /* The neighbours to look at, right and the three below, sit in two runs
     * of consecutive buckets: the rest of the own cell and the cell to its
     * right, then the three cells of the next row. */
    for (uint32_t i = begin; i < end; i++) {
      const Entry *ea = &sorted[i];
      const Proxy *pa = &proxies[ea->proxy & ~PLAIN];
      uint32_t b = ea->bucket;
      uint32_t right = ea->ix < gx1 ? b + 1 : b;
      if (!scan_range(out, proxies, sorted, ea, pa, i + 1, start[right + 1])) return false;
      if (ea->iy >= gy1) continue;
      uint32_t first = b + gw - (ea->ix > gx0 ? 1u : 0u), last = b + gw + (ea->ix < gx1 ? 1u : 0u);
      if (!scan_range(out, proxies, sorted, ea, pa, start[first], start[last + 1])) return false;
    }
  } else {
    /* hashed cells: a bucket may hold other cells, and the neighbours are anywhere */
    static const int32_t nx[4] = {1, -1, 0, 1}, ny[4] = {0, 1, 1, 1};
    for (uint32_t i = begin; i < end; i++) {
      const Entry *ea = &sorted[i];
      const Proxy *pa = &proxies[ea->proxy & ~PLAIN]; /* the same cache line for all its pairs */
      /* the own cell: later entries of the same bucket */
      for (uint32_t j = i + 1; j < start[ea->bucket + 1]; j++) {
        const Entry *eb = &sorted[j];
        if (eb->ix != ea->ix || eb->iy != ea->iy || !boxes_overlap(&ea->box, &eb->box)) continue;
        const Proxy *pb = &proxies[eb->proxy & ~PLAIN];
        if (pair_allowed(pa, pb) && !push_pair(out, ea->proxy & ~PLAIN, eb->proxy & ~PLAIN)) return false;
      }
      for (int k = 0; k < 4; k++) {
        int32_t cx = ea->ix + nx[k], cy = ea->iy + ny[k];
        uint32_t bk = cell_hash(cx, cy, mask);
        for (uint32_t j = start[bk]; j < start[bk + 1]; j++) {
          const Entry *eb = &sorted[j];
          if (eb->ix != cx || eb->iy != cy || !boxes_overlap(&ea->box, &eb->box)) continue;
          const Proxy *pb = &proxies[eb->proxy & ~PLAIN];
          if (pair_allowed(pa, pb) && !push_pair(out, ea->proxy & ~PLAIN, eb->proxy & ~PLAIN)) return false;
        }
      }
    }
  }
  return true;
}

static void scan_task(void *ctx, uint32_t begin, uint32_t end) {
  ScanJob *j = ctx;
  for (uint32_t k = begin; k < end; k++) {
    PairBuf *out = &j->w->bp_pieces[k];
    out->count = 0;
    uint32_t from = (uint32_t)((uint64_t)j->nentry * k / j->pieces);
    uint32_t to = (uint32_t)((uint64_t)j->nentry * (k + 1) / j->pieces);
    if (!scan_entries(j, from, to, out)) atomic_store(&j->failed, true);
  }
}

/* The entries' pairs, on the workers in runs of entries, each run into its own list. */
static bool scan_pieces(ScanJob *j) {
  TessWorld *w = j->w;
  uint32_t pieces = physics_pieces(w, j->nentry);
  if (pieces > w->bp_piece_count) {
    PairBuf *p = tess_realloc(w->bp_pieces, pieces * sizeof *p);
    if (!p) return false;
    memset(p + w->bp_piece_count, 0, (pieces - w->bp_piece_count) * sizeof *p);
    w->bp_pieces = p;
    w->bp_piece_count = pieces;
  }
  j->pieces = pieces;
  atomic_init(&j->failed, false);
  physics_parallel_for(w->tasks, pieces, 1, scan_task, j);
  return !atomic_load(&j->failed);
}

bool physics_broad_phase(TessWorld *w, const float *margins, const TessVec2 *sweeps) {
  w->pair_count = 0;
  size_t proxy_bytes = (size_t)w->shape_count * sizeof(Proxy);
  if (w->bp_scratch_size < proxy_bytes) {
    /* one proxy per cache line: rebuilt below, so nothing to keep */
    uint32_t cap = 0;
    if (!physics_grow_scratch(&w->bp_scratch_raw, &w->bp_scratch, &cap, w->shape_count, sizeof(Proxy))) return false;
    w->bp_scratch_size = (size_t)cap * sizeof(Proxy);
  }
  /* one proxy per shape slot (the narrow phase reads them by shape index) */
  uint32_t nproxy = w->shape_count, nlive = 0, blocks = (nproxy + BP_BLOCK - 1) / BP_BLOCK;
  if (!PHYS_GROW(w->bp_blocks, &w->bp_blocks_cap, blocks + 1)) return false;
  Proxy *proxies = w->bp_scratch;
  double extent_sum = 0.0;
  uint32_t extent_n = 0;
  float extent_max = 0.0f;
  ProxyJob job = {w, margins, sweeps};
  physics_parallel_for(w->tasks, blocks, 1, build_proxies, &job);
  /* the sums block by block, whatever the workers did first */
  for (uint32_t k = 0; k < blocks; k++) {
    const BpBlock *blk = &w->bp_blocks[k];
    nlive += blk->live;
    extent_sum += blk->extent_sum;
    extent_n += blk->extent_n;
    if (blk->extent_max > extent_max) extent_max = blk->extent_max;
  }
  if (nlive < 2) return true;
  float cs = w->def.broad_phase_cell;
  if (cs <= 0.0f) {
    /* as large as the moving boxes, but a few giants do not set the size */
    float mean = extent_n ? (float)(extent_sum / extent_n) : 1.0f;
    cs = extent_max < 4.0f * mean ? extent_max : 4.0f * mean;
    if (!(cs >= 0.05f)) cs = 0.05f;
  }
  GridJob grid = {.w = w, .cs = cs, .inv = 1.0f / cs, .blocks = blocks};
  physics_parallel_for(w->tasks, blocks, 1, bounds_task, &grid);

  /* A dense grid over the boxes' lower corners when it is small enough
   * (direct indexing, and pairs come out in row order, which keeps the
   * solver's memory walks local); a hash of cells otherwise. */
  int32_t gx0 = INT32_MAX, gy0 = INT32_MAX, gx1 = INT32_MIN, gy1 = INT32_MIN;
  uint32_t nentry = 0, nlarge = 0;
  for (uint32_t k = 0; k < blocks; k++) {
    BpBlock *blk = &w->bp_blocks[k];
    if (blk->gx0 < gx0) gx0 = blk->gx0;
    if (blk->gx1 > gx1) gx1 = blk->gx1;
    if (blk->gy0 < gy0) gy0 = blk->gy0;
    if (blk->gy1 > gy1) gy1 = blk->gy1;
    blk->entry_at = nentry;
    blk->large_at = nlarge;
    nentry += blk->entries;
    nlarge += blk->larges;
  }
  uint64_t dense_cells = gx1 >= gx0 ? (uint64_t)(gx1 - gx0 + 1) * (uint64_t)(gy1 - gy0 + 1) : 0;
  uint64_t dense_limit = (uint64_t)nproxy * 16u > (1u << 18) ? (uint64_t)nproxy * 16u : (1u << 18);
  bool dense = dense_cells > 0 && dense_cells <= dense_limit;
  uint32_t gw = dense ? (uint32_t)(gx1 - gx0 + 1) : 0;
  uint32_t nbucket = 64;
  if (dense) {
    nbucket = (uint32_t)dense_cells;
  } else {
    while (nbucket < nproxy * 2u && nbucket < (1u << 30)) nbucket *= 2;
  }
  size_t need = (size_t)nproxy * 2 * sizeof(Entry) + ((size_t)nbucket + 1) * sizeof(uint32_t) + (size_t)nproxy * sizeof(uint32_t);
  if (w->bp_scratch2_size < need) {
    void *p = tess_realloc(w->bp_scratch2, need);
    if (!p) return false;
    w->bp_scratch2 = p;
    w->bp_scratch2_size = need;
  }
  Entry *half_a = w->bp_scratch2, *half_b = half_a + nproxy;
  uint32_t *start = (uint32_t *)(half_b + nproxy);
  uint32_t *large = start + nbucket + 1;
  /* one range of buckets for one thread; else at least as many as the workers' pieces */
  uint32_t pieces = physics_pieces(w, nentry), shift = 0;
  while (shift < 31 && ((nbucket - 1u) >> shift) + 1u > pieces) shift++;
  while (pieces > 1 && shift > 0 && ((nbucket - 1u) >> shift) + 1u < pieces) shift--;
  uint32_t ranges = ((nbucket - 1u) >> shift) + 1u;
  /* the blocks' counts per range (the pair sort's scratch, free until the pairs are sorted) */
  size_t words = (size_t)blocks * ranges + ranges + 1u;
  if (words > UINT32_MAX || !PHYS_GROW(w->radix_count, &w->radix_count_cap, (uint32_t)words)) return false;
  grid.dense = dense;
  grid.gw = gw;
  grid.mask = nbucket - 1;
  grid.nbucket = nbucket;
  grid.gx0 = gx0;
  grid.gy0 = gy0;
  grid.entries = half_a;
  grid.spread = ranges > 1 ? half_b : half_a;
  grid.sorted = ranges > 1 ? half_a : half_b;
  grid.start = start;
  grid.large = large;
  grid.ranges = ranges;
  grid.shift = shift;
  grid.at = w->radix_count;
  grid.range_at = grid.at + (size_t)blocks * ranges;
  physics_parallel_for(w->tasks, blocks, 1, entries_task, &grid);
  starts_by_range(grid.at, grid.range_at, blocks, ranges);
  if (ranges > 1) physics_parallel_for(w->tasks, blocks, 1, spread_entries_task, &grid);
  physics_parallel_for(w->tasks, ranges, 1, place_task, &grid);
  start[nbucket] = nentry;
  Entry *sorted = grid.sorted;
  uint32_t mask = nbucket - 1;

  ScanJob scan = {w, proxies, sorted, start, nentry, dense, gw, gx0, gx1, gy1, mask, 0, false};
  if (!scan_pieces(&scan)) return false;
  /* large proxies against every other proxy (each pair once), into the last list */
  PairBuf *all = &w->bp_pieces[scan.pieces - 1];
  for (uint32_t a = 0; a < nlarge; a++) {
    const Proxy *pa = &proxies[large[a]];
    for (uint32_t b = 0; b < nproxy; b++) {
      const Proxy *pb = &proxies[b];
      if (!pb->live || b == large[a] || (pb->large && b < large[a])) continue;
      if (pair_wanted(pa, pb) && !push_pair(all, large[a], b)) return false;
    }
  }
  return sort_pairs(w, w->bp_pieces, scan.pieces);
}
