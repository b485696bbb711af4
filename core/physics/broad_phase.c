/* Broad phase: a uniform hash grid rebuilt each step by counting sort.
 * Each pair is reported once, in the cell holding the corner
 * (max of the two lower x, max of the two lower y), so a shape spanning
 * several cells costs no duplicate tests. Shapes spanning too many cells
 * (a long static ground) are tested against everything instead.
 * Order of the pairs depends only on positions and slot order:
 * deterministic. */
#include <string.h>

#include "physics_internal.h"

typedef struct Proxy {
  TessAABB box;
  uint32_t shape;
  uint32_t body;
  uint8_t active;   /* an awake non-static body */
  uint8_t movable;  /* dynamic or kinematic */
  uint8_t pad[2];
} Proxy;

typedef struct Entry {
  int32_t ix, iy;
  uint32_t proxy;
  uint32_t bucket;
} Entry;

#define LARGE_CELLS 256

static bool push_pair(TessWorld *w, uint32_t a, uint32_t b) {
  if (!PHYS_GROW(w->pairs, &w->pair_cap, w->pair_count + 1)) return false;
  uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
  w->pairs[w->pair_count++] = ((uint64_t)lo << 32) | hi;
  return true;
}

static bool pair_wanted(const TessWorld *w, const Proxy *pa, const Proxy *pb) {
  if (pa->body == pb->body) return false;
  if (!pa->active && !pb->active) return false;
  const Body *ba = &w->bodies[pa->body], *bb = &w->bodies[pb->body];
  if (ba->type != TESS_BODY_DYNAMIC && bb->type != TESS_BODY_DYNAMIC) {
    /* kinematic against static or kinematic: only sensors care */
    const Shape *sa = &w->shapes[pa->shape], *sb = &w->shapes[pb->shape];
    if (!sa->sensor && !sb->sensor) return false;
  }
  const Shape *sa = &w->shapes[pa->shape], *sb = &w->shapes[pb->shape];
  if (!(sa->category & sb->mask) || !(sb->category & sa->mask)) return false;
  if (sa->sensor && sb->sensor) return false;
  return tess_aabb_overlaps(pa->box, pb->box);
}

static uint32_t cell_hash(int32_t x, int32_t y, uint32_t mask) {
  uint32_t h = (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return h & mask;
}

bool phys_broad_phase(TessWorld *w, const float *margins) {
  w->pair_count = 0;
  /* proxies */
  uint32_t nproxy = 0;
  size_t proxy_bytes = (size_t)w->shape_count * sizeof(Proxy);
  if (w->bp_scratch_size < proxy_bytes) {
    void *p = tess_realloc(w->bp_scratch, proxy_bytes);
    if (!p) return false;
    w->bp_scratch = p;
    w->bp_scratch_size = proxy_bytes;
  }
  Proxy *proxies = w->bp_scratch;
  double extent_sum = 0.0;
  uint32_t extent_n = 0;
  for (uint32_t s = 0; s < w->shape_count; s++) {
    const Shape *sh = &w->shapes[s];
    if (!sh->in_use) continue;
    const Body *b = &w->bodies[sh->body];
    if (b->destroy_pending) continue;
    Proxy *p = &proxies[nproxy++];
    float m = margins[sh->body];
    p->box.lower = tess_v2(sh->aabb.lower.x - m, sh->aabb.lower.y - m);
    p->box.upper = tess_v2(sh->aabb.upper.x + m, sh->aabb.upper.y + m);
    p->shape = s;
    p->body = sh->body;
    p->active = phys_body_active(b);
    p->movable = b->type != TESS_BODY_STATIC;
    if (p->movable) {
      extent_sum += fmax(p->box.upper.x - p->box.lower.x, p->box.upper.y - p->box.lower.y);
      extent_n++;
    }
  }
  if (nproxy < 2) return true;
  float cs = w->def.broad_phase_cell;
  if (cs <= 0.0f) {
    cs = extent_n ? (float)(2.0 * extent_sum / extent_n) : 1.0f;
    if (cs < 0.05f) cs = 0.05f;
  }
  float inv = 1.0f / cs;

  /* count entries; proxies too large go to a separate list */
  size_t nentry = 0;
  uint32_t nlarge = 0;
  for (uint32_t i = 0; i < nproxy; i++) {
    Proxy *p = &proxies[i];
    float x0 = floorf(p->box.lower.x * inv), x1 = floorf(p->box.upper.x * inv);
    float y0 = floorf(p->box.lower.y * inv), y1 = floorf(p->box.upper.y * inv);
    float cells = (x1 - x0 + 1.0f) * (y1 - y0 + 1.0f);
    if (!(cells <= LARGE_CELLS) || fabsf(x0) > 1e9f || fabsf(y0) > 1e9f || fabsf(x1) > 1e9f || fabsf(y1) > 1e9f) {
      nlarge++;
      continue;
    }
    nentry += (size_t)cells;
  }
  uint32_t nbucket = 64;
  while (nbucket < nentry * 2 && nbucket < (1u << 30)) nbucket *= 2;
  size_t need = nentry * 2 * sizeof(Entry) + ((size_t)nbucket + 1) * sizeof(uint32_t) + (size_t)nlarge * sizeof(uint32_t);
  if (w->bp_scratch2_size < need) {
    void *p = tess_realloc(w->bp_scratch2, need);
    if (!p) return false;
    w->bp_scratch2 = p;
    w->bp_scratch2_size = need;
  }
  Entry *entries = w->bp_scratch2;
  Entry *sorted = entries + nentry;
  uint32_t *start = (uint32_t *)(sorted + nentry);
  uint32_t *large = start + nbucket + 1;
  memset(start, 0, ((size_t)nbucket + 1) * sizeof(uint32_t));
  uint32_t mask = nbucket - 1;
  size_t k = 0;
  nlarge = 0;
  for (uint32_t i = 0; i < nproxy; i++) {
    Proxy *p = &proxies[i];
    float fx0 = floorf(p->box.lower.x * inv), fx1 = floorf(p->box.upper.x * inv);
    float fy0 = floorf(p->box.lower.y * inv), fy1 = floorf(p->box.upper.y * inv);
    float cells = (fx1 - fx0 + 1.0f) * (fy1 - fy0 + 1.0f);
    if (!(cells <= LARGE_CELLS) || fabsf(fx0) > 1e9f || fabsf(fy0) > 1e9f || fabsf(fx1) > 1e9f || fabsf(fy1) > 1e9f) {
      large[nlarge++] = i;
      continue;
    }
    int32_t x0 = (int32_t)fx0, x1 = (int32_t)fx1, y0 = (int32_t)fy0, y1 = (int32_t)fy1;
    for (int32_t y = y0; y <= y1; y++)
      for (int32_t x = x0; x <= x1; x++) {
        Entry *e = &entries[k++];
        e->ix = x;
        e->iy = y;
        e->proxy = i;
        e->bucket = cell_hash(x, y, mask);
        start[e->bucket + 1]++;
      }
  }
  for (uint32_t b = 0; b < nbucket; b++) start[b + 1] += start[b];
  for (size_t i = 0; i < nentry; i++) {
    Entry *e = &entries[i];
    sorted[start[e->bucket]++] = *e;
  }
  /* start[b] now points at the end of bucket b; walk the sorted runs */
  size_t i = 0;
  while (i < nentry) {
    size_t j = i + 1;
    while (j < nentry && sorted[j].bucket == sorted[i].bucket) j++;
    for (size_t a = i; a < j; a++) {
      const Entry *ea = &sorted[a];
      const Proxy *pa = &proxies[ea->proxy];
      for (size_t b = a + 1; b < j; b++) {
        const Entry *eb = &sorted[b];
        if (ea->ix != eb->ix || ea->iy != eb->iy) continue;
        const Proxy *pb = &proxies[eb->proxy];
        if (!pair_wanted(w, pa, pb)) continue;
        float rx = fmaxf(pa->box.lower.x, pb->box.lower.x), ry = fmaxf(pa->box.lower.y, pb->box.lower.y);
        if ((int32_t)floorf(rx * inv) != ea->ix || (int32_t)floorf(ry * inv) != ea->iy) continue;
        if (!push_pair(w, pa->shape, pb->shape)) return false;
      }
    }
    i = j;
  }
  /* large proxies against every other proxy (each pair once) */
  for (uint32_t a = 0; a < nlarge; a++) {
    const Proxy *pa = &proxies[large[a]];
    for (uint32_t b = 0; b < nproxy; b++) {
      if (b == large[a]) continue;
      const Proxy *pb = &proxies[b];
      bool b_large = false;
      for (uint32_t c = 0; c < nlarge; c++)
        if (large[c] == b) {
          b_large = true;
          break;
        }
      if (b_large && b < large[a]) continue;
      if (!pair_wanted(w, pa, pb)) continue;
      if (!push_pair(w, pa->shape, pb->shape)) return false;
    }
  }
  return true;
}
