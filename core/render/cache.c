/* The chunk cache: blocks of up to 8 x 8 chunks pre-rendered at one of three
 * scales, in a hash table, evicted least recently used. A chunk edit marks
 * its bit dirty in every block that holds it, so only that chunk is redrawn. */
#include <string.h>

#include "render_private.h"

const double tess_render_lod_scale[TESS_RENDER_LOD_COUNT] = {1.0, 0.25, 0.0625};

uint8_t render_cache_span(const TessLevel *level, int lod) {
  uint32_t tmax = level->settings.tile_w > level->settings.tile_h ? level->settings.tile_w : level->settings.tile_h;
  double chunk_px = TESS_CHUNK_SIZE * tmax * tess_render_lod_scale[lod];
  uint8_t span = 1;
  while (span < TESS_RENDER_BLOCK_MAX_SPAN && chunk_px * span * 2 <= TESS_RENDER_BLOCK_TARGET_PX) span = (uint8_t)(span * 2);
  return span;
}

static size_t hash_key(TessId level, uint8_t lod, uint8_t content, uint32_t bx, uint32_t by) {
  uint64_t h = (uint64_t)level * 0x9E3779B97F4A7C15ull;
  h ^= ((uint64_t)bx << 32 | by) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
  h ^= ((uint64_t)lod << 8 | content) * 0xD6E8FEB86659FD93ull;
  h ^= h >> 29;
  return (size_t)h;
}

TessBlock *render_cache_find(TessRenderer *r, TessId level, uint8_t lod, uint8_t content, uint32_t bx, uint32_t by) {
  if (!r->bucket_count) return NULL;
  TessBlock *b = r->buckets[hash_key(level, lod, content, bx, by) % r->bucket_count];
  for (; b; b = b->next)
    if (b->level == level && b->lod == lod && b->content == content && b->bx == bx && b->by == by) return b;
  return NULL;
}

static void grow(TessRenderer *r) {
  size_t n = r->bucket_count ? r->bucket_count * 2 : 256;
  TessBlock **nb = tess_calloc(n, sizeof *nb);
  if (!nb) return;
  for (size_t i = 0; i < r->bucket_count; i++) {
    TessBlock *b = r->buckets[i];
    while (b) {
      TessBlock *next = b->next;
      size_t k = hash_key(b->level, b->lod, b->content, b->bx, b->by) % n;
      b->next = nb[k];
      nb[k] = b;
      b = next;
    }
  }
  tess_free(r->buckets);
  r->buckets = nb;
  r->bucket_count = n;
}

TessBlock *render_cache_insert(TessRenderer *r, TessId level, uint8_t lod, uint8_t content, uint32_t bx, uint32_t by,
                               uint8_t span, int w, int h) {
  if (r->block_count + 1 > r->bucket_count) grow(r);
  if (!r->bucket_count) return NULL;
  TessBlock *b = tess_calloc(1, sizeof *b);
  if (!b) return NULL;
  b->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  if (cairo_surface_status(b->surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(b->surface);
    tess_free(b);
    return NULL;
  }
  b->level = level;
  b->lod = lod;
  b->content = content;
  b->bx = bx;
  b->by = by;
  b->span = span;
  b->w = w;
  b->h = h;
  b->dirty = span >= 8 ? ~0ull : ((1ull << (span * span)) - 1);
  b->used = r->frame;
  size_t k = hash_key(level, lod, content, bx, by) % r->bucket_count;
  b->next = r->buckets[k];
  r->buckets[k] = b;
  r->block_count++;
  r->cache_bytes += (size_t)cairo_image_surface_get_stride(b->surface) * (size_t)h;
  r->stats.blocks_created++;
  return b;
}

static void free_block(TessRenderer *r, TessBlock *b) {
  r->cache_bytes -= (size_t)cairo_image_surface_get_stride(b->surface) * (size_t)b->h;
  cairo_surface_destroy(b->surface);
  tess_free(b);
  r->block_count--;
}

/* Removes every block for which drop() says so. */
static void drop_where(TessRenderer *r, bool (*drop)(const TessBlock *, const void *), const void *arg) {
  for (size_t i = 0; i < r->bucket_count; i++) {
    TessBlock **link = &r->buckets[i];
    while (*link) {
      TessBlock *b = *link;
      if (drop(b, arg)) {
        *link = b->next;
        free_block(r, b);
      } else {
        link = &b->next;
      }
    }
  }
}

static bool is_level(const TessBlock *b, const void *arg) { return b->level == *(const TessId *)arg; }
static bool has_content(const TessBlock *b, const void *arg) { return (b->content & *(const uint8_t *)arg) != 0; }
static bool always(const TessBlock *b, const void *arg) {
  (void)b;
  (void)arg;
  return true;
}
static bool older_than(const TessBlock *b, const void *arg) { return b->used < *(const uint64_t *)arg; }

void render_cache_drop_level(TessRenderer *r, TessId level) { drop_where(r, is_level, &level); }
void render_cache_drop_content(TessRenderer *r, uint8_t content_mask) { drop_where(r, has_content, &content_mask); }
void render_cache_drop_all(TessRenderer *r) { drop_where(r, always, NULL); }

static void mark_one(TessRenderer *r, const TessLevel *level, int64_t cx, int64_t cy, bool collision_only) {
  if (cx < 0 || cy < 0) return;
  for (int lod = 0; lod < TESS_RENDER_LOD_COUNT; lod++) {
    uint8_t span = render_cache_span(level, lod);
    uint32_t bx = (uint32_t)cx / span, by = (uint32_t)cy / span;
    uint64_t bit = 1ull << (((uint32_t)cy % span) * span + ((uint32_t)cx % span));
    for (uint8_t content = 1; content <= TESS_RENDER_BAKED; content++) {
      if (content & ~TESS_RENDER_BAKED) continue;
      if (collision_only && !(content & TESS_RENDER_COLLISION)) continue;
      TessBlock *b = render_cache_find(r, level->id, (uint8_t)lod, content, bx, by);
      if (b) b->dirty |= bit;
    }
  }
}

void render_cache_mark_chunk(TessRenderer *r, const TessLevel *level, uint32_t cx, uint32_t cy) {
  if (!r->block_count) return;
  mark_one(r, level, cx, cy, false);
  /* A tile larger than the grid is drawn into the chunks around its own. */
  uint32_t x0 = cx * TESS_CHUNK_SIZE, y0 = cy * TESS_CHUNK_SIZE;
  uint32_t x1 = x0 + TESS_CHUNK_SIZE < level->settings.width ? x0 + TESS_CHUNK_SIZE : level->settings.width;
  uint32_t y1 = y0 + TESS_CHUNK_SIZE < level->settings.height ? y0 + TESS_CHUNK_SIZE : level->settings.height;
  if (x0 < x1 && y0 < y1) {
    /* The chunks this one's tiles reach are those whose reach covers it. */
    uint32_t ex0 = x0, ey0 = y0, ex1 = x1, ey1 = y1;
    render_reach_cells(r, level, &ex0, &ey0, &ex1, &ey1);
    uint32_t left = (x0 - ex0 + TESS_CHUNK_SIZE - 1) / TESS_CHUNK_SIZE, up = (y0 - ey0 + TESS_CHUNK_SIZE - 1) / TESS_CHUNK_SIZE;
    uint32_t right = (ex1 - x1 + TESS_CHUNK_SIZE - 1) / TESS_CHUNK_SIZE, down = (ey1 - y1 + TESS_CHUNK_SIZE - 1) / TESS_CHUNK_SIZE;
    /* reach_cells widened towards the cells that draw into this chunk; the
     * chunks this chunk draws into lie the opposite way, as far. */
    for (int64_t j = -(int64_t)down; j <= (int64_t)up; j++)
      for (int64_t i = -(int64_t)right; i <= (int64_t)left; i++)
        if (i || j) mark_one(r, level, (int64_t)cx + i, (int64_t)cy + j, false);
  }
  /* A collision outline is drawn where a wall meets a non-wall, so a cell on
   * a chunk's edge changes the outline drawn by the neighbouring chunk. */
  mark_one(r, level, (int64_t)cx - 1, cy, true);
  mark_one(r, level, (int64_t)cx + 1, cy, true);
  mark_one(r, level, cx, (int64_t)cy - 1, true);
  mark_one(r, level, cx, (int64_t)cy + 1, true);
}

void render_cache_trim(TessRenderer *r) {
  if (r->cache_bytes <= r->cache_limit) return;
  /* Evict the oldest frames first, never the blocks of the frame being drawn. */
  while (r->cache_bytes > r->cache_limit) {
    uint64_t oldest = UINT64_MAX;
    for (size_t i = 0; i < r->bucket_count; i++)
      for (TessBlock *b = r->buckets[i]; b; b = b->next)
        if (b->used < oldest) oldest = b->used;
    if (oldest == UINT64_MAX || oldest >= r->frame) break;
    uint64_t below = oldest + 1;
    drop_where(r, older_than, &below);
  }
}
