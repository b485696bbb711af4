/* Carved pixel masks in a world snapshot (Play's rewind). A mask is
 * megabytes (4096 x 4096 pixels: 2 MiB) and Play keeps a snapshot per step of
 * a block, so a snapshot holds only the blocks edited since the mask was
 * added (PIXEL_MASK_BLOCK_ROWS rows by one 64-pixel word); every other block
 * still has the bits the mask was created with, which the world keeps from
 * the first edit on. Layout per mask, after the rest of the snapshot:
 *   u32 width, u32 height, u32 block count, u32 flags (bit 0: removed), then per block
 *   u32 index, u32 0, and its rows' words (short at the mask's last rows).
 * A removed mask keeps its bits in the world, so a snapshot from before its removal brings it
 * back with the flag alone. */
#include <string.h>

#include "physics_private.h"
#include "physics_pixel_mask.h"

static bool is_touched(const PixelMask *m, uint32_t b) { return m->touched && ((m->touched[b >> 6] >> (b & 63)) & 1u); }

/* Rows of block b and its first word. */
static uint32_t block_rows(const PixelMask *m, uint32_t b, size_t *first) {
  uint32_t y0 = (b / m->words) * PIXEL_MASK_BLOCK_ROWS, k = b % m->words;
  uint32_t rows = m->height - y0 < PIXEL_MASK_BLOCK_ROWS ? m->height - y0 : PIXEL_MASK_BLOCK_ROWS;
  *first = (size_t)y0 * m->words + k;
  return rows;
}

static uint32_t touched_count(const PixelMask *m) {
  uint32_t n = 0;
  if (m->touched)
    for (uint32_t i = 0; i < (physics_pixel_mask_block_count(m) + 63) / 64; i++) n += (uint32_t)__builtin_popcountll(m->touched[i]);
  return n;
}

size_t physics_pixel_masks_snapshot_size(const TessWorld *w) {
  size_t n = 0;
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    const PixelMask *m = &w->pmasks[i];
    n += 4 * sizeof(uint32_t);
    uint32_t blocks = physics_pixel_mask_block_count(m);
    for (uint32_t b = 0; m->touched && b < blocks; b++) {
      if (!is_touched(m, b)) continue;
      size_t first;
      n += 2 * sizeof(uint32_t) + block_rows(m, b, &first) * sizeof(uint64_t);
    }
  }
  return n;
}

static void put_u32(char **p, uint32_t v) {
  memcpy(*p, &v, sizeof v);
  *p += sizeof v;
}

void physics_pixel_masks_snapshot(const TessWorld *w, char **p) {
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    const PixelMask *m = &w->pmasks[i];
    put_u32(p, m->width);
    put_u32(p, m->height);
    put_u32(p, touched_count(m));
    put_u32(p, m->removed ? 1u : 0u);
    uint32_t blocks = physics_pixel_mask_block_count(m);
    for (uint32_t b = 0; m->touched && b < blocks; b++) {
      if (!is_touched(m, b)) continue;
      put_u32(p, b);
      put_u32(p, 0);
      size_t first;
      uint32_t rows = block_rows(m, b, &first);
      for (uint32_t r = 0; r < rows; r++, *p += sizeof(uint64_t)) memcpy(*p, &m->bits[first + (size_t)r * m->words], sizeof(uint64_t));
    }
  }
}

static bool get_u32(const char **p, const char *end, uint32_t *v) {
  if ((size_t)(end - *p) < sizeof *v) return false;
  memcpy(v, *p, sizeof *v);
  *p += sizeof *v;
  return true;
}

/* Checks mask i's part of the snapshot and returns its block count (the bytes are all there, the
 * indices rise and lie in the mask). */
static bool check_mask(const PixelMask *m, const char *p, const char *end, uint32_t *count) {
  uint32_t wd, ht, n, flags;
  if (!get_u32(&p, end, &wd) || !get_u32(&p, end, &ht) || !get_u32(&p, end, &n) || !get_u32(&p, end, &flags))
    return false;
  if (wd != m->width || ht != m->height || flags > 1u || n > physics_pixel_mask_block_count(m)) return false;
  uint32_t prev = 0;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t b, pad;
    if (!get_u32(&p, end, &b) || !get_u32(&p, end, &pad) || b >= physics_pixel_mask_block_count(m) || (j && b <= prev))
      return false;
    prev = b;
    size_t first, bytes = block_rows(m, b, &first) * sizeof(uint64_t);
    if ((size_t)(end - p) < bytes) return false;
    p += bytes;
  }
  *count = n;
  return true;
}

TessResult physics_pixel_masks_restore(TessWorld *w, const char **p, const char *end, TessError *err) {
  const char *q = *p;
  for (uint32_t i = 0; i < w->pmask_count; i++) { /* all of it checked before anything changes */
    uint32_t n;
    if (!check_mask(&w->pmasks[i], q, end, &n))
      return tess_error_set(err, TESS_ERR_INVALID, "snapshot", "pixel mask %u differs from the snapshot's", i);
    q += 4 * sizeof(uint32_t);
    for (uint32_t j = 0; j < n; j++) {
      uint32_t b;
      memcpy(&b, q, sizeof b);
      size_t first;
      q += 2 * sizeof(uint32_t) + block_rows(&w->pmasks[i], b, &first) * sizeof(uint64_t);
    }
  }
  physics_pixel_masks_changed(w); /* bits and removals come back: the circles' rooms go */
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    PixelMask *m = &w->pmasks[i];
    uint32_t n = 0, flags = 0;
    *p += 2 * sizeof(uint32_t);
    get_u32(p, end, &n);
    get_u32(p, end, &flags);
    m->removed = (uint8_t)(flags & 1u); /* a mask removed since the snapshot comes back */
    m->remove_pending = 0;
    if (n && !m->orig) { /* edited in the snapshot's past, not in this world's: keep the bits as created first */
      size_t words = (size_t)m->words * m->height;
      m->orig = tess_alloc(words * sizeof(uint64_t));
      m->touched = tess_calloc((physics_pixel_mask_block_count(m) + 63) / 64, sizeof(uint64_t));
      if (!m->orig || !m->touched) {
        tess_free(m->orig);
        tess_free(m->touched);
        m->orig = m->touched = NULL;
        return tess_error_set(err, TESS_ERR_NOMEM, "snapshot", "out of memory");
      }
      memcpy(m->orig, m->bits, words * sizeof(uint64_t));
    }
    /* every block edited here goes back to the bits as created; the snapshot's blocks then take its bits */
    uint32_t blocks = physics_pixel_mask_block_count(m);
    for (uint32_t b = 0; m->touched && b < blocks; b++) {
      if (!is_touched(m, b)) continue;
      size_t first;
      uint32_t rows = block_rows(m, b, &first);
      for (uint32_t r = 0; r < rows; r++) m->bits[first + (size_t)r * m->words] = m->orig[first + (size_t)r * m->words];
      physics_pixel_mask_coarse_update(m, b % m->words, b % m->words, (uint32_t)(first / m->words), (uint32_t)(first / m->words) + rows - 1);
    }
    if (m->touched) memset(m->touched, 0, (blocks + 63) / 64 * sizeof(uint64_t));
    if (m->touched) m->edits++; /* the bits may have changed: a drawing refreshes */
    for (uint32_t j = 0; j < n; j++) {
      uint32_t b = 0;
      get_u32(p, end, &b);
      *p += sizeof(uint32_t);
      m->touched[b >> 6] |= 1ull << (b & 63);
      size_t first;
      uint32_t rows = block_rows(m, b, &first);
      for (uint32_t r = 0; r < rows; r++, *p += sizeof(uint64_t)) memcpy(&m->bits[first + (size_t)r * m->words], *p, sizeof(uint64_t));
      physics_pixel_mask_coarse_update(m, b % m->words, b % m->words, (uint32_t)(first / m->words), (uint32_t)(first / m->words) + rows - 1);
    }
  }
  return TESS_OK;
}

void physics_pixel_masks_hash(const TessWorld *w, TessHasher *h) {
  for (uint32_t i = 0; i < w->pmask_count; i++) {
    const PixelMask *m = &w->pmasks[i];
    if (m->removed) { /* (a world with no removed mask hashes as before removal existed) */
      tess_hasher_u32(h, i);
      tess_hasher_u32(h, UINT32_MAX);
    }
    uint32_t blocks = physics_pixel_mask_block_count(m);
    for (uint32_t b = 0; m->touched && b < blocks; b++) {
      if (!is_touched(m, b)) continue;
      size_t first;
      uint32_t rows = block_rows(m, b, &first);
      bool differs = false;
      for (uint32_t r = 0; r < rows && !differs; r++) differs = m->bits[first + (size_t)r * m->words] != m->orig[first + (size_t)r * m->words];
      if (!differs) continue; /* edited and put back: the same world as one never edited */
      tess_hasher_u32(h, i);
      tess_hasher_u32(h, b);
      for (uint32_t r = 0; r < rows; r++) tess_hasher_u64(h, m->bits[first + (size_t)r * m->words]);
    }
  }
}
