/* The `tilesets.terrains` BLOB (schema 3): a tileset's terrain sets,
 * little-endian and explicit like the other BLOBs (store_codec.h).
 *
 *   u32 set_count, then per set:
 *     name, u8 kind, i32 tile, u32 color_count, u32 tile_count,
 *     color_count x (name, u32 rgba, f32 probability, i32 tile),
 *     tile_count x (u32 tile, 8 x u8 colour, f32 probability)
 *   name: u32 length (< TESS_NAME_MAX), then the bytes (no NUL)
 *
 * A tileset with no terrain sets stores NULL. The decoder checks every count
 * against the bytes there and that the BLOB ends where its content does;
 * what the values mean (colours in range, tiles sorted) is the project's
 * validation, run when the tileset is inserted. */
#include "store_codec.h"
#include "store_codec_terrain.h"

static size_t name_size(const char *name) { return 4 + strnlen(name, TESS_NAME_MAX - 1); }

size_t store_codec_terrains_size(const TessTerrainSet *sets, uint32_t count) {
  size_t n = 4;
  for (uint32_t i = 0; i < count; i++) {
    n += name_size(sets[i].name) + 1 + 4 + 4 + 4;
    for (uint32_t c = 0; c < sets[i].color_count; c++) n += name_size(sets[i].colors[c].name) + 12;
    n += (size_t)sets[i].tile_count * 16;
  }
  return n;
}

static uint8_t *put_name(uint8_t *p, const char *name) {
  uint32_t len = (uint32_t)strnlen(name, TESS_NAME_MAX - 1);
  store_le_put_u32(p, len);
  memcpy(p + 4, name, len);
  return p + 4 + len;
}

uint8_t *store_codec_put_terrains(uint8_t *p, const TessTerrainSet *sets, uint32_t count) {
  store_le_put_u32(p, count);
  p += 4;
  for (uint32_t i = 0; i < count; i++) {
    const TessTerrainSet *s = &sets[i];
    p = put_name(p, s->name);
    *p++ = s->kind;
    store_le_put_u32(p, (uint32_t)s->tile);
    store_le_put_u32(p + 4, s->color_count);
    store_le_put_u32(p + 8, s->tile_count);
    p += 12;
    for (uint32_t c = 0; c < s->color_count; c++) {
      p = put_name(p, s->colors[c].name);
      store_le_put_u32(p, s->colors[c].color);
      store_le_put_f32(p + 4, s->colors[c].probability);
      store_le_put_u32(p + 8, (uint32_t)s->colors[c].tile);
      p += 12;
    }
    for (uint32_t t = 0; t < s->tile_count; t++) {
      store_le_put_u32(p, s->tiles[t].tile);
      memcpy(p + 4, s->tiles[t].wang, 8);
      store_le_put_f32(p + 12, s->tiles[t].probability);
      p += 16;
    }
  }
  return p;
}

static bool get_u32(TessBlobReader *r, uint32_t *v) {
  const uint8_t *p;
  if (!store_blob_take(r, 4, &p)) return false;
  *v = store_le_get_u32(p);
  return true;
}

static bool get_name(TessBlobReader *r, char out[TESS_NAME_MAX], const char **why) {
  uint32_t len;
  const uint8_t *p;
  if (!get_u32(r, &len)) return false;
  if (len >= TESS_NAME_MAX) {
    *why = "a terrain name is longer than a name can be";
    r->bad = true;
    return false;
  }
  if (!store_blob_take(r, len, &p)) return false;
  memcpy(out, p, len);
  out[len] = 0;
  return true;
}

static bool get_set(TessBlobReader *r, TessTerrainSet *s, const char **why) {
  const uint8_t *p;
  uint32_t tile;
  if (!get_name(r, s->name, why) || !store_blob_take(r, 1, &p)) return false;
  s->kind = p[0];
  if (!get_u32(r, &tile) || !get_u32(r, &s->color_count) || !get_u32(r, &s->tile_count)) return false;
  s->tile = (int32_t)tile;
  /* Counts against the bytes left before allocating: a colour takes at least 16, a tile 16. */
  if ((uint64_t)s->color_count * 16 + (uint64_t)s->tile_count * 16 > r->left) {
    *why = "a terrain set's counts go beyond the BLOB";
    r->bad = true;
    s->color_count = s->tile_count = 0;
    return false;
  }
  if ((s->color_count && !(s->colors = tess_calloc(s->color_count, sizeof *s->colors))) ||
      (s->tile_count && !(s->tiles = tess_calloc(s->tile_count, sizeof *s->tiles)))) {
    *why = "out of memory";
    return false;
  }
  for (uint32_t c = 0; c < s->color_count; c++) {
    TessTerrainColor *col = &s->colors[c];
    if (!get_name(r, col->name, why) || !store_blob_take(r, 12, &p)) return false;
    col->color = store_le_get_u32(p);
    col->probability = store_le_get_f32(p + 4);
    col->tile = (int32_t)store_le_get_u32(p + 8);
  }
  for (uint32_t t = 0; t < s->tile_count; t++) {
    if (!store_blob_take(r, 16, &p)) return false;
    s->tiles[t].tile = store_le_get_u32(p);
    memcpy(s->tiles[t].wang, p + 4, 8);
    s->tiles[t].probability = store_le_get_f32(p + 12);
  }
  return true;
}

bool store_codec_get_terrains(const uint8_t *src, size_t size, TessTerrainSet **out, uint32_t *count,
                              const char **why) {
  *out = NULL;
  *count = 0;
  *why = "the BLOB is truncated";
  if (!src || !size) return true; /* NULL: no terrain sets */
  TessBlobReader r = {src, size, false};
  uint32_t n;
  if (!get_u32(&r, &n)) return false;
  if (n > TESS_TERRAIN_MAX_SETS) {
    *why = "more terrain sets than a tileset can hold";
    return false;
  }
  TessTerrainSet *sets = n ? tess_calloc(n, sizeof *sets) : NULL;
  if (n && !sets) {
    *why = "out of memory";
    return false;
  }
  uint32_t done = 0;
  bool ok = true;
  for (; ok && done < n; done++) ok = get_set(&r, &sets[done], why);
  if (ok && r.left) {
    *why = "bytes follow the last terrain set";
    ok = false;
  }
  if (!ok) {
    tess_terrain_sets_free(sets, done);
    return false;
  }
  *out = sets;
  *count = n;
  return true;
}
