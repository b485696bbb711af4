/* tlv_reader: validation and views of a packed Tessera level (FORMAT.md).
 * C99 and C++, the C standard library only. Every read of the caller's
 * buffer goes through rd*() after a range check; every size is checked
 * before it is multiplied. */
#include "tlv_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Little-endian loads ----------------------------------------------- */

/* On a little-endian host a load is a plain (unaligned-safe) memcpy, which
 * compilers turn into one instruction and vectorise; elsewhere, bytes. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static uint16_t rd16(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
static uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
static uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
#else
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | ((uint64_t)rd32(p + 4) << 32); }
#endif
static float rdf32(const uint8_t *p) {
  uint32_t u = rd32(p);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static double rdf64(const uint8_t *p) {
  uint64_t u = rd64(p);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Finite without <math.h> (so no libm): the exponent is not all ones. */
static int finite32(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return (u & 0x7F800000u) != 0x7F800000u;
}

/* ---- Checksum ---------------------------------------------------------- */

#define TLV_P1 0x9E3779B185EBCA87ull
#define TLV_P2 0xC2B2AE3D27D4EB4Full

static uint64_t fmix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return h;
}

static uint64_t rotl64(uint64_t x, unsigned r) { return (x << r) | (x >> (64u - r)); }

/* Each step (l + w) * odd is a bijection of the lane, so a change in one
 * word always reaches that lane's final value; four independent lanes keep
 * the multiplier busy. */
uint32_t tlv_checksum(const void *data, size_t size) {
  const uint8_t *p = (const uint8_t *)data;
  uint64_t l0 = 0x243F6A8885A308D3ull, l1 = 0x13198A2E03707344ull, l2 = 0xA4093822299F31D0ull,
           l3 = 0x082EFA98EC4E6C89ull;
  size_t blocks = size / 32u, i;
  for (i = 0; i < blocks; i++, p += 32) {
    l0 = (l0 + rd64(p)) * TLV_P1;
    l1 = (l1 + rd64(p + 8)) * TLV_P1;
    l2 = (l2 + rd64(p + 16)) * TLV_P1;
    l3 = (l3 + rd64(p + 24)) * TLV_P1;
  }
  {
    size_t rest = size % 32u;
    uint8_t tail[32];
    memset(tail, 0, sizeof tail);
    if (rest) memcpy(tail, p, rest);
    if (rest > 0) l0 = (l0 + rd64(tail)) * TLV_P1;
    if (rest > 8) l1 = (l1 + rd64(tail + 8)) * TLV_P1;
    if (rest > 16) l2 = (l2 + rd64(tail + 16)) * TLV_P1;
    if (rest > 24) l3 = (l3 + rd64(tail + 24)) * TLV_P1;
  }
  {
    uint64_t h = fmix64(l0) ^ rotl64(fmix64(l1), 16) ^ rotl64(fmix64(l2), 32) ^ rotl64(fmix64(l3), 48);
    h = fmix64(h ^ ((uint64_t)size * TLV_P2));
    return (uint32_t)(h ^ (h >> 32));
  }
}

/* ---- Errors ------------------------------------------------------------ */

const char *tlv_result_string(TlvResult code) {
  switch (code) {
    case TLV_OK: return "ok";
    case TLV_ERR_ARGUMENT: return "bad argument";
    case TLV_ERR_TRUNCATED: return "truncated";
    case TLV_ERR_MAGIC: return "not a packed level";
    case TLV_ERR_VERSION: return "unsupported version";
    case TLV_ERR_CHECKSUM: return "checksum mismatch";
    case TLV_ERR_RANGE: return "out of range";
    case TLV_ERR_INDEX: return "bad index";
    case TLV_ERR_VALUE: return "bad value";
    case TLV_ERR_LIMIT: return "beyond limits";
  }
  return "unknown";
}

static TlvResult fail(TlvError *err, TlvResult code, uint64_t offset, const char *fmt, ...) {
  if (err) {
    va_list ap;
    err->code = code;
    err->offset = offset;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

static void fourcc_text(uint32_t type, char out[5]) {
  int i;
  for (i = 0; i < 4; i++) {
    unsigned char c = (unsigned char)(type >> (8 * i));
    out[i] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
  }
  out[4] = 0;
}

/* ---- Header ------------------------------------------------------------ */

static uint64_t align16(uint64_t v) { return (v + 15u) & ~(uint64_t)15u; }

TlvResult tlv_read_header(const void *data, size_t size, TlvHeader *out, TlvError *err) {
  const uint8_t *p = (const uint8_t *)data;
  TlvHeader h;
  if (!data || !out) return fail(err, TLV_ERR_ARGUMENT, 0, "no buffer or no output");
  if (size < TLV_HEADER_SIZE) return fail(err, TLV_ERR_TRUNCATED, size, "file of %lu bytes is shorter than the %u-byte header", (unsigned long)size, TLV_HEADER_SIZE);
  if (memcmp(p, TLV_MAGIC, TLV_MAGIC_SIZE) != 0) return fail(err, TLV_ERR_MAGIC, 0, "bad magic: not a packed Tessera level");
  h.major = rd16(p + 8);
  h.minor = rd16(p + 10);
  h.flags = rd32(p + 12);
  h.header_size = rd32(p + 16);
  h.section_count = rd32(p + 20);
  h.total_size = rd64(p + 24);
  h.content_hash = rd64(p + 32);
  h.source_hash = rd64(p + 40);
  h.writer_version = rd32(p + 48);
  h.checksum = rd32(p + 52);
  h.level_id = rd32(p + 56);
  if (h.major != TLV_VERSION_MAJOR)
    return fail(err, TLV_ERR_VERSION, 8, "format version %u.%u (writer %u); this reader reads only %u.x: export the level again",
                (unsigned)h.major, (unsigned)h.minor, (unsigned)rd32(p + 48), TLV_VERSION_MAJOR);
  if (h.flags & ~TLV_FLAGS_KNOWN) return fail(err, TLV_ERR_VALUE, 12, "unknown header flags 0x%x", (unsigned)h.flags);
  if (h.header_size < TLV_HEADER_SIZE || h.header_size > 256u || h.header_size % TLV_ALIGN)
    return fail(err, TLV_ERR_VALUE, 16, "header size %u is not a multiple of 16 in 64..256", (unsigned)h.header_size);
  if (h.section_count > TLV_MAX_SECTIONS)
    return fail(err, TLV_ERR_LIMIT, 20, "%u sections (at most %u)", (unsigned)h.section_count, TLV_MAX_SECTIONS);
  if (h.total_size > (uint64_t)size)
    return fail(err, TLV_ERR_TRUNCATED, size, "file has %lu bytes, header says %llu", (unsigned long)size, (unsigned long long)h.total_size);
  if (h.total_size % TLV_ALIGN) return fail(err, TLV_ERR_VALUE, 24, "total size %llu is not a multiple of 16", (unsigned long long)h.total_size);
  if ((uint64_t)h.header_size + (uint64_t)h.section_count * TLV_SECTION_ENTRY_SIZE > h.total_size)
    return fail(err, TLV_ERR_TRUNCATED, 20, "section table of %u entries runs past the end", (unsigned)h.section_count);
  *out = h;
  return TLV_OK;
}

/* ---- Section table ----------------------------------------------------- */

typedef struct Known {
  uint32_t type;
  uint32_t min_stride; /* 0 = byte blob; 1 = cells (stride 1, 2 or 4) */
  TlvSection *slot;
} Known;

static void known_table(TlvLevel *lv, TlvSection *settings, Known k[31]) {
  static const uint32_t types[30] = {
      TLV_SEC_SETTINGS, TLV_SEC_STRINGS, TLV_SEC_MATERIALS, TLV_SEC_TILESETS, TLV_SEC_TILES, TLV_SEC_POLYGONS,
      TLV_SEC_VERTICES, TLV_SEC_LAYERS, TLV_SEC_PALETTE, TLV_SEC_CELLS, TLV_SEC_COLLISION_PALETTE,
      TLV_SEC_COLLISION_GRID, TLV_SEC_LOOPS, TLV_SEC_CORNERS, TLV_SEC_RECTS, TLV_SEC_BODIES, TLV_SEC_SHAPES,
      TLV_SEC_JOINTS, TLV_SEC_ZONES, TLV_SEC_SPAWNS, TLV_SEC_SPRITES, TLV_SEC_PROPERTIES, TLV_SEC_BLOB,
      TLV_SEC_TERRAIN_SETS, TLV_SEC_TERRAIN_COLORS, TLV_SEC_TERRAIN_TILES, TLV_SEC_DRAW_ORDER, TLV_SEC_PIXEL_MASKS, TLV_SEC_PIXEL_BITS,
      TLV_SEC_LAUNCHERS};
  static const uint32_t strides[30] = {
      TLV_SETTINGS_SIZE, 0, TLV_MATERIAL_SIZE, TLV_TILESET_SIZE, TLV_TILE_SIZE, TLV_POLYGON_SIZE,
      TLV_VERTEX_SIZE, TLV_LAYER_SIZE, TLV_PALETTE_SIZE, 0, TLV_COLLISION_PALETTE_SIZE,
      1, TLV_LOOP_SIZE, TLV_CORNER_SIZE, TLV_RECT_SIZE, TLV_BODY_SIZE, TLV_SHAPE_SIZE,
      TLV_JOINT_SIZE, TLV_ZONE_SIZE, TLV_SPAWN_SIZE, TLV_SPRITE_SIZE, TLV_PROPERTY_SIZE, 0,
      TLV_TERRAIN_SET_SIZE, TLV_TERRAIN_COLOR_SIZE, TLV_TERRAIN_TILE_SIZE, TLV_DRAW_ORDER_SIZE, TLV_PIXEL_MASK_SIZE, 0,
      TLV_LAUNCHER_SIZE};
  TlvSection *slots[30];
  int i;
  slots[0] = settings; /* decoded into TlvLevel.settings, not kept as a view */
  slots[1] = &lv->strings;
  slots[2] = &lv->materials;
  slots[3] = &lv->tilesets;
  slots[4] = &lv->tiles;
  slots[5] = &lv->polygons;
  slots[6] = &lv->vertices;
  slots[7] = &lv->layers;
  slots[8] = &lv->palette;
  slots[9] = &lv->cells;
  slots[10] = &lv->collision_palette;
  slots[11] = &lv->collision_grid;
  slots[12] = &lv->loops;
  slots[13] = &lv->corners;
  slots[14] = &lv->rects;
  slots[15] = &lv->bodies;
  slots[16] = &lv->shapes;
  slots[17] = &lv->joints;
  slots[18] = &lv->zones;
  slots[19] = &lv->spawns;
  slots[20] = &lv->sprites;
  slots[21] = &lv->properties;
  slots[22] = &lv->blob;
  slots[23] = &lv->terrain_sets;
  slots[24] = &lv->terrain_colors;
  slots[25] = &lv->terrain_tiles;
  slots[26] = &lv->draw_order;
  slots[27] = &lv->pixel_masks;
  slots[28] = &lv->pixel_bits;
  slots[29] = &lv->launchers;
  for (i = 0; i < 30; i++) {
    k[i].type = types[i];
    k[i].min_stride = strides[i];
    k[i].slot = slots[i];
  }
  k[30].type = 0;
  k[30].min_stride = 0;
  k[30].slot = NULL;
}

/* ---- Validation helpers ------------------------------------------------- */

typedef struct Ctx {
  TlvLevel *lv;
  TlvError *err;
  uint64_t blob_next;           /* the end of the last embedded image: images follow each other */
  uint64_t prop_next;           /* objects take the properties in order */
  uint32_t tileset_of_id[4096]; /* tileset id -> index + 1: every lookup O(1), whatever the file holds */
} Ctx;

static uint64_t rec_off(const TlvSection *s, uint32_t i, uint32_t field) {
  return s->offset + (uint64_t)i * s->stride + field;
}

static TlvResult check_string(Ctx *c, uint32_t ref, uint64_t at, const char *what) {
  if ((uint64_t)ref >= c->lv->strings.size)
    return fail(c->err, TLV_ERR_INDEX, at, "%s: string offset %u outside the %llu-byte string table", what, (unsigned)ref,
                (unsigned long long)c->lv->strings.size);
  if (ref != 0 && c->lv->strings.data[ref - 1] != 0)
    return fail(c->err, TLV_ERR_INDEX, at, "%s: string offset %u is inside a string, not at its start", what, (unsigned)ref);
  return TLV_OK;
}

/* A field that must be 0 (reserved words and bytes). */
static TlvResult check_zero(Ctx *c, const uint8_t *p, uint32_t n, uint64_t at, const char *what) {
  uint32_t i;
  for (i = 0; i < n; i++)
    if (p[i]) return fail(c->err, TLV_ERR_VALUE, at + i, "%s: reserved byte %u is not 0", what, (unsigned)i);
  return TLV_OK;
}

/* The narrowest of 1, 2, 4 bytes that holds v. */
static uint32_t width_for(uint64_t v) { return v <= 0xFFu ? 1u : v <= 0xFFFFu ? 2u
                                                                              : 4u; }

/* The string table is UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF) between its NUL bytes. */
static TlvResult validate_strings(Ctx *c) {
  const uint8_t *p = c->lv->strings.data;
  uint64_t n = c->lv->strings.size, i = 0;
  while (i < n) {
    uint32_t b = p[i], need, cp, k;
    if (b < 0x80u) {
      i++;
      continue;
    }
    if (b >= 0xC2u && b <= 0xDFu) need = 1, cp = b & 0x1Fu;
    else if (b >= 0xE0u && b <= 0xEFu) need = 2, cp = b & 0x0Fu;
    else if (b >= 0xF0u && b <= 0xF4u) need = 3, cp = b & 0x07u;
    else return fail(c->err, TLV_ERR_VALUE, c->lv->strings.offset + i, "string table: byte 0x%02x is not UTF-8", (unsigned)b);
    if (i + need >= n) return fail(c->err, TLV_ERR_VALUE, c->lv->strings.offset + i, "string table: a UTF-8 sequence cut short");
    for (k = 1; k <= need; k++) {
      if ((p[i + k] & 0xC0u) != 0x80u)
        return fail(c->err, TLV_ERR_VALUE, c->lv->strings.offset + i + k, "string table: a UTF-8 sequence cut short");
      cp = cp << 6 | (p[i + k] & 0x3Fu);
    }
    if ((need == 2 && cp < 0x800u) || (need == 3 && (cp < 0x10000u || cp > 0x10FFFFu)) || (cp >= 0xD800u && cp <= 0xDFFFu))
      return fail(c->err, TLV_ERR_VALUE, c->lv->strings.offset + i, "string table: an overlong form, a surrogate or beyond U+10FFFF");
    i += need + 1;
  }
  return TLV_OK;
}

/* first + count <= total, without wrapping. */
static int range_ok(uint32_t first, uint32_t count, uint32_t total) {
  return (uint64_t)first + (uint64_t)count <= (uint64_t)total;
}

static TlvResult check_range(Ctx *c, uint32_t first, uint32_t count, const TlvSection *target, uint64_t at,
                             const char *what) {
  if (!range_ok(first, count, target->count))
    return fail(c->err, TLV_ERR_INDEX, at, "%s: records %u..%llu of %u", what, (unsigned)first,
                (unsigned long long)first + count, (unsigned)target->count);
  return TLV_OK;
}

static TlvResult check_blob(Ctx *c, uint32_t offset, uint32_t size, uint64_t at, const char *what) {
  if (size == 0) {
    if (offset != 0) return fail(c->err, TLV_ERR_VALUE, at, "%s: offset %u for no bytes", what, (unsigned)offset);
    return TLV_OK;
  }
  if ((uint64_t)offset + size > c->lv->blob.size)
    return fail(c->err, TLV_ERR_RANGE, at, "%s: bytes %u..%llu outside the %llu-byte blob", what, (unsigned)offset,
                (unsigned long long)offset + size, (unsigned long long)c->lv->blob.size);
  if (!(c->lv->header.flags & TLV_FLAG_IMAGES)) return fail(c->err, TLV_ERR_VALUE, at + 4, "%s: embedded, but the header says no images are", what);
  if (offset != align16(c->blob_next))
    return fail(c->err, TLV_ERR_RANGE, at, "%s: at %u in the blob, expected %llu (images follow each other, 16-aligned)", what, (unsigned)offset,
                (unsigned long long)align16(c->blob_next));
  {
    uint64_t k;
    for (k = c->blob_next; k < offset; k++)
      if (c->lv->blob.data[k]) return fail(c->err, TLV_ERR_VALUE, c->lv->blob.offset + k, "non-zero padding in the blob");
  }
  c->blob_next = (uint64_t)offset + size;
  return TLV_OK;
}

static TlvResult check_finite(Ctx *c, const uint8_t *rec, uint64_t at, uint32_t first_field, uint32_t nfloats,
                              const char *what) {
  uint32_t i;
  for (i = 0; i < nfloats; i++) {
    if (!finite32(rdf32(rec + first_field + 4 * i)))
      return fail(c->err, TLV_ERR_VALUE, at + first_field + 4 * i, "%s: a number that is not finite", what);
  }
  return TLV_OK;
}

#define TRY(expr)                        \
  do {                                   \
    TlvResult tlv_r_ = (expr);           \
    if (tlv_r_ != TLV_OK) return tlv_r_; \
  } while (0)

/* Largest value in an array of cells of the given width. Plain loops with
 * independent accumulators that compilers vectorise (GCC is asked to at
 * -O2 too): validation must run near memory speed. */
#if defined(__GNUC__) && !defined(__clang__)
#define TLV_VECTORIZE __attribute__((optimize("tree-vectorize")))
#else
#define TLV_VECTORIZE
#endif

TLV_VECTORIZE static uint32_t max_u8(const uint8_t *p, uint64_t count) {
  uint8_t m = 0;
  uint64_t i;
  for (i = 0; i < count; i++) m = p[i] > m ? p[i] : m;
  return m;
}

TLV_VECTORIZE static uint32_t max_u16(const uint8_t *p, uint64_t count) {
  uint16_t m = 0;
  uint64_t i;
  for (i = 0; i < count; i++) {
    uint16_t v = rd16(p + 2 * i);
    m = v > m ? v : m;
  }
  return m;
}

TLV_VECTORIZE static uint32_t max_u32(const uint8_t *p, uint64_t count, uint32_t stride) {
  uint32_t m = 0;
  uint64_t i;
  for (i = 0; i < count; i++) {
    uint32_t v = rd32(p + (uint64_t)stride * i);
    m = v > m ? v : m;
  }
  return m;
}

static uint32_t max_cells(const uint8_t *p, uint64_t count, uint32_t width) {
  return width == 1 ? max_u8(p, count) : width == 2 ? max_u16(p, count)
                                                    : max_u32(p, count, 4);
}

/* True when every f32 of the array is finite (no exponent of all ones). */
TLV_VECTORIZE static int all_finite(const uint8_t *p, uint64_t nfloats) {
  uint32_t bad = 0;
  uint64_t i;
  for (i = 0; i < nfloats; i++) bad |= (uint32_t)((rd32(p + 4 * i) & 0x7F800000u) == 0x7F800000u);
  return bad == 0;
}

static uint32_t cell_at(const void *cells, uint32_t width, uint64_t i) {
  const uint8_t *p = (const uint8_t *)cells;
  return width == 1 ? p[i] : width == 2 ? rd16(p + 2 * i)
                                        : rd32(p + 4 * i);
}

/* The first cell holding a value >= limit (for the error's byte offset). */
static uint64_t find_cell_at_least(const uint8_t *p, uint64_t count, uint32_t width, uint32_t limit) {
  uint64_t i;
  for (i = 0; i < count; i++) {
    uint32_t v = width == 1 ? p[i] : width == 2 ? rd16(p + 2 * i)
                                                : rd32(p + 4 * i);
    if (v >= limit) return i;
  }
  return 0;
}

static int64_t tileset_by_id(const TlvLevel *lv, uint32_t id) {
  uint32_t i;
  for (i = 0; i < lv->tilesets.count; i++)
    if (rd32(lv->tilesets.data + (uint64_t)i * lv->tilesets.stride) == id) return i;
  return -1;
}

/* A tile cell value: 0, or reserved bit clear with a known tileset and tile. */
static TlvResult check_cell_value(Ctx *c, uint32_t cell, uint64_t at, const char *what) {
  int64_t ts;
  uint32_t tile_count;
  if (cell == 0) return TLV_OK;
  if (cell & 0x10000000u) return fail(c->err, TLV_ERR_VALUE, at, "%s: cell 0x%08x has the reserved bit set", what, (unsigned)cell);
  ts = (int64_t)c->tileset_of_id[(cell >> 16) & 0xFFFu] - 1;
  if (ts < 0) return fail(c->err, TLV_ERR_INDEX, at, "%s: cell 0x%08x names tileset %u, which the file lacks", what, (unsigned)cell, (unsigned)((cell >> 16) & 0xFFFu));
  tile_count = rd32(c->lv->tilesets.data + (uint64_t)ts * c->lv->tilesets.stride + 40);
  if ((cell & 0xFFFFu) >= tile_count)
    return fail(c->err, TLV_ERR_INDEX, at, "%s: cell 0x%08x names tile %u of a tileset with %u tiles", what, (unsigned)cell, (unsigned)(cell & 0xFFFFu), (unsigned)tile_count);
  return TLV_OK;
}

/* ---- Per-section validation -------------------------------------------- */

static TlvResult validate_settings(Ctx *c, const TlvSection *s) {
  const uint8_t *r = s->data;
  TlvSettings *st = &c->lv->settings;
  if (s->count != 1) return fail(c->err, TLV_ERR_VALUE, s->offset, "settings: %u records (need 1)", (unsigned)s->count);
  st->width = rd32(r);
  st->height = rd32(r + 4);
  st->tile_w = rd32(r + 8);
  st->tile_h = rd32(r + 12);
  st->ppm = rdf32(r + 16);
  st->gravity_x = rdf32(r + 20);
  st->gravity_y = rdf32(r + 24);
  st->view = rd32(r + 28);
  st->physics_hz = rdf32(r + 32);
  st->substeps = rd32(r + 36);
  st->floor_drag = rdf32(r + 40);
  st->name = rd32(r + 44);
  st->level_id = rd32(r + 48);
  st->cell_w = rdf32(r + 52);
  st->cell_h = rdf32(r + 56);
  if (st->width < 1 || st->width > TLV_MAX_SIDE || st->height < 1 || st->height > TLV_MAX_SIDE)
    return fail(c->err, TLV_ERR_LIMIT, s->offset, "level of %u x %u cells (1..%u per side)", (unsigned)st->width, (unsigned)st->height, TLV_MAX_SIDE);
  if (st->tile_w < 1 || st->tile_w > 65536u || st->tile_h < 1 || st->tile_h > 65536u)
    return fail(c->err, TLV_ERR_LIMIT, s->offset + 8, "tile size %u x %u", (unsigned)st->tile_w, (unsigned)st->tile_h);
  TRY(check_finite(c, r, s->offset, 16, 3, "settings"));
  if (!(st->ppm > 0.0f)) return fail(c->err, TLV_ERR_VALUE, s->offset + 16, "pixels per metre must be positive");
  if (st->view > 1) return fail(c->err, TLV_ERR_VALUE, s->offset + 28, "view %u (0 side, 1 top-down)", (unsigned)st->view);
  TRY(check_finite(c, r, s->offset, 32, 1, "settings"));
  TRY(check_finite(c, r, s->offset, 40, 1, "settings"));
  if (!(st->physics_hz > 0.0f)) return fail(c->err, TLV_ERR_VALUE, s->offset + 32, "physics rate must be positive");
  if (st->substeps < 1 || st->substeps > 256u) return fail(c->err, TLV_ERR_VALUE, s->offset + 36, "%u sub-steps (1..256)", (unsigned)st->substeps);
  if (!(st->floor_drag >= 0.0f)) return fail(c->err, TLV_ERR_VALUE, s->offset + 40, "negative floor drag");
  TRY(check_finite(c, r, s->offset, 52, 2, "settings cell size"));
  if (!(st->cell_w > 0.0f) || !(st->cell_h > 0.0f)) return fail(c->err, TLV_ERR_VALUE, s->offset + 52, "cell size in metres must be positive");
  {
    /* The scene's own numbers: tile size / ppm in f32, to one part in a million. */
    double ew = (double)((float)st->tile_w / st->ppm), eh = (double)((float)st->tile_h / st->ppm);
    double dw = (double)st->cell_w - ew, dh = (double)st->cell_h - eh;
    if (dw < 0) dw = -dw;
    if (dh < 0) dh = -dh;
    if (dw > 1e-6 * ew || dh > 1e-6 * eh)
      return fail(c->err, TLV_ERR_VALUE, s->offset + 52, "cell size %g x %g m is not the tile size %u x %u px / %g px per metre", (double)st->cell_w,
                  (double)st->cell_h, (unsigned)st->tile_w, (unsigned)st->tile_h, (double)st->ppm);
  }
  if (st->level_id != c->lv->header.level_id)
    return fail(c->err, TLV_ERR_VALUE, s->offset + 48, "settings: level id %u, the header says %u", (unsigned)st->level_id, (unsigned)c->lv->header.level_id);
  TRY(check_zero(c, r + 60, 4, s->offset + 60, "settings"));
  return check_string(c, st->name, s->offset + 44, "settings name");
}

static TlvResult validate_materials(Ctx *c) {
  const TlvSection *s = &c->lv->materials;
  uint32_t i;
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    uint64_t at = rec_off(s, i, 0);
    float friction = rdf32(r + 16), restitution = rdf32(r + 20), tangential = rdf32(r + 24), density = rdf32(r + 28);
    TRY(check_string(c, rd32(r + 4), at + 4, "material name"));
    if (rd32(r) == 0 || (i > 0 && rd32(r) <= rd32(r - s->stride)))
      return fail(c->err, TLV_ERR_VALUE, at, "material %u: id %u (ids are above 0 and ascending)", (unsigned)i, (unsigned)rd32(r));
    if (rd32(r + 12) > 2) return fail(c->err, TLV_ERR_VALUE, at + 12, "material %u: kind %u (0..2)", (unsigned)i, (unsigned)rd32(r + 12));
    TRY(check_finite(c, r, at, 16, 4, "material"));
    if (!(friction >= 0.0f) || !(restitution >= 0.0f && restitution <= 1.0f) || !(tangential >= 0.0f && tangential <= 1.0f) ||
        !(density > 0.0f))
      return fail(c->err, TLV_ERR_VALUE, at + 16, "material %u: friction, restitution, tangential or density out of range", (unsigned)i);
  }
  return TLV_OK;
}

static TlvResult validate_tilesets(Ctx *c) {
  const TlvSection *s = &c->lv->tilesets;
  uint64_t tiles_next = 0;
  uint32_t i;
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    uint64_t at = rec_off(s, i, 0);
    uint32_t id = rd32(r);
    if (id < 1 || id > 4095u) return fail(c->err, TLV_ERR_VALUE, at, "tileset %u: id %u (1..4095)", (unsigned)i, (unsigned)id);
    if (c->tileset_of_id[id]) return fail(c->err, TLV_ERR_VALUE, at, "tileset %u: id %u used twice", (unsigned)i, (unsigned)id);
    if (i > 0 && id <= rd32(r - s->stride)) return fail(c->err, TLV_ERR_VALUE, at, "tileset %u: id %u after %u (ids ascend)", (unsigned)i, (unsigned)id, (unsigned)rd32(r - s->stride));
    c->tileset_of_id[id] = i + 1;
    TRY(check_string(c, rd32(r + 4), at + 4, "tileset name"));
    TRY(check_string(c, rd32(r + 8), at + 8, "tileset source"));
    if (rd32(r + 20) == 0 || rd32(r + 24) == 0) return fail(c->err, TLV_ERR_VALUE, at + 20, "tileset %u: zero tile size", (unsigned)i);
    if (rd32(r + 48) > 255u) return fail(c->err, TLV_ERR_VALUE, at + 48, "tileset %u: alpha threshold %u (0..255)", (unsigned)i, (unsigned)rd32(r + 48));
    if (rd32(r + 44) != tiles_next)
      return fail(c->err, TLV_ERR_INDEX, at + 44, "tileset %u: first tile %u, expected %llu (tilesets take the tiles in order)", (unsigned)i,
                  (unsigned)rd32(r + 44), (unsigned long long)tiles_next);
    TRY(check_range(c, rd32(r + 44), rd32(r + 40), &c->lv->tiles, at + 40, "tileset tiles"));
    tiles_next += rd32(r + 40);
    {
      /* The grid the image holds (as core/level computes it): columns and tile count. */
      uint64_t iw = rd32(r + 12), ih = rd32(r + 16), tw = rd32(r + 20), th = rd32(r + 24), m = rd32(r + 28), sp = rd32(r + 32), cols, rows;
      if (2 * m + tw > iw || 2 * m + th > ih)
        return fail(c->err, TLV_ERR_VALUE, at + 12, "tileset %u: %llux%llu tiles with margin %llu do not fit its %llux%llu image", (unsigned)i,
                    (unsigned long long)tw, (unsigned long long)th, (unsigned long long)m, (unsigned long long)iw, (unsigned long long)ih);
      cols = (iw - 2 * m + sp) / (tw + sp);
      rows = (ih - 2 * m + sp) / (th + sp);
      if (rd32(r + 36) != cols || rd32(r + 40) != cols * rows)
        return fail(c->err, TLV_ERR_VALUE, at + 36, "tileset %u: %u columns and %u tiles, its image holds %llu x %llu", (unsigned)i, (unsigned)rd32(r + 36),
                    (unsigned)rd32(r + 40), (unsigned long long)cols, (unsigned long long)rows);
    }
    TRY(check_blob(c, rd32(r + 52), rd32(r + 56), at + 52, "tileset image"));
    if (c->lv->header.minor < 4) {
      TRY(check_zero(c, r + 60, 4, at + 60, "tileset"));
    } else {
      /* 3.4: the placement, and with a 72-byte record the offset. */
      int64_t ox = s->stride >= TLV_TILESET_SIZE_3_4 ? (int32_t)rd32(r + 64) : 0, oy = s->stride >= TLV_TILESET_SIZE_3_4 ? (int32_t)rd32(r + 68) : 0;
      if (rd32(r + 60) > TLV_PLACE_NATIVE) return fail(c->err, TLV_ERR_VALUE, at + 60, "tileset %u: placement %u (0 or 1)", (unsigned)i, (unsigned)rd32(r + 60));
      if (ox < -TLV_TILE_OFFSET_MAX || ox > TLV_TILE_OFFSET_MAX || oy < -TLV_TILE_OFFSET_MAX || oy > TLV_TILE_OFFSET_MAX)
        return fail(c->err, TLV_ERR_LIMIT, at + 64, "tileset %u: offset (%lld, %lld) beyond +-%d px", (unsigned)i, (long long)ox, (long long)oy, TLV_TILE_OFFSET_MAX);
      if (rd32(r + 60) == TLV_PLACE_FIT_CELL && (ox || oy))
        return fail(c->err, TLV_ERR_VALUE, at + 64, "tileset %u: an offset on a tileset scaled into the cell", (unsigned)i);
    }
  }
  if (tiles_next != c->lv->tiles.count)
    return fail(c->err, TLV_ERR_VALUE, c->lv->tiles.offset + tiles_next * c->lv->tiles.stride, "%llu tiles belong to no tileset",
                (unsigned long long)(c->lv->tiles.count - tiles_next));
  return TLV_OK;
}

static TlvResult validate_tiles(Ctx *c) {
  const TlvSection *s = &c->lv->tiles;
  uint32_t i;
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    uint64_t at = rec_off(s, i, 0);
    if (rd32(r) > c->lv->materials.count) return fail(c->err, TLV_ERR_INDEX, at, "tile %u: material %u of %u", (unsigned)i, (unsigned)rd32(r), (unsigned)c->lv->materials.count);
    if (r[4] > 2 || r[5] > 1) return fail(c->err, TLV_ERR_VALUE, at + 4, "tile %u: collision kind or one-way flag", (unsigned)i);
    TRY(check_zero(c, r + 6, 2, at + 6, "tile"));
    if (rd32(r + 12) > TLV_MAX_PIECES) return fail(c->err, TLV_ERR_LIMIT, at + 12, "tile %u: %u pieces (at most %u)", (unsigned)i, (unsigned)rd32(r + 12), TLV_MAX_PIECES);
    TRY(check_range(c, rd32(r + 8), rd32(r + 12), &c->lv->polygons, at + 8, "tile shape"));
    if (r[4] != 2 && rd32(r + 12) != 0) return fail(c->err, TLV_ERR_VALUE, at + 12, "tile %u: pieces on a tile that is not traced", (unsigned)i);
  }
  return TLV_OK;
}

/* 0 when the polygon is convex and simple (FORMAT.md, POLY): every turn
 * zero (straight on, not back) or of the shoelace sum's sign, that sum not zero, the edge
 * directions going round once (the signs of the edges' x and of their y
 * change at most twice each, cyclically: a star whose turns all agree goes
 * round twice and changes them four times). *area2 gets the sum. Double
 * arithmetic on f32 inputs: products are exact, so the signs are right. */
static int polygon_bad(const uint8_t *v, uint32_t n, uint32_t stride, double *area2) {
  double x[TLV_MAX_POLY_VERTICES], y[TLV_MAX_POLY_VERTICES], ex[TLV_MAX_POLY_VERTICES], ey[TLV_MAX_POLY_VERTICES], area = 0.0;
  int xflips = 0, yflips = 0, xs = 0, ys = 0, xfirst = 0, yfirst = 0;
  uint32_t i, m = 0;
  for (i = 0; i < n; i++) {
    x[i] = (double)rdf32(v + (uint64_t)i * stride);
    y[i] = (double)rdf32(v + (uint64_t)i * stride + 4);
  }
  for (i = 0; i < n; i++) {
    uint32_t j = (i + 1) % n;
    area += x[i] * y[j] - x[j] * y[i];
    if (x[j] != x[i] || y[j] != y[i]) { /* the edges, repeated vertices left out: turns are between them */
      ex[m] = x[j] - x[i];
      ey[m] = y[j] - y[i];
      m++;
    }
  }
  *area2 = area;
  if (!(area != 0.0)) return 1;
  for (i = 0; i < m; i++) {
    uint32_t b = (i + 1) % m;
    double cr = ex[i] * ey[b] - ey[i] * ex[b];
    int sx = ex[b] > 0.0 ? 1 : ex[b] < 0.0 ? -1
                                           : 0,
        sy = ey[b] > 0.0 ? 1 : ey[b] < 0.0 ? -1
                                           : 0;
    if (area > 0.0 ? cr < 0.0 : cr > 0.0) return 1;
    if (cr == 0.0 && ex[i] * ex[b] + ey[i] * ey[b] < 0.0) return 1; /* straight back: a spike */
    if (sx) {
      if (!xs) xfirst = sx;
      else if (sx != xs) xflips++;
      xs = sx;
    }
    if (sy) {
      if (!ys) yfirst = sy;
      else if (sy != ys) yflips++;
      ys = sy;
    }
  }
  if (xs && xs != xfirst) xflips++; /* back round to the first edge */
  if (ys && ys != yfirst) yflips++;
  return xflips > 2 || yflips > 2;
}

/* Polygons use up the vertices in order (each vertex in exactly one
 * polygon), so each is checked once: 3..8 vertices, convex and simple, and
 * from format 3.2 on, a positive shoelace sum (clockwise on screen, y down).
 * 3.0 and 3.1 writers left a flipped tile's collision pieces the other way
 * round: those files may have either winding. */
static TlvResult validate_polygons(Ctx *c) {
  const TlvSection *s = &c->lv->polygons, *vs = &c->lv->vertices;
  uint64_t next = 0;
  int one_winding = c->lv->header.minor >= 2;
  uint32_t i;
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    uint64_t at = rec_off(s, i, 0);
    uint32_t n = rd32(r + 4), first = rd32(r);
    double area2;
    if (n < 3 || n > TLV_MAX_POLY_VERTICES) return fail(c->err, TLV_ERR_VALUE, at + 4, "polygon %u: %u vertices (3..8)", (unsigned)i, (unsigned)n);
    if (first != next)
      return fail(c->err, TLV_ERR_INDEX, at, "polygon %u: first vertex %u, expected %llu (polygons take the vertices in order)", (unsigned)i,
                  (unsigned)first, (unsigned long long)next);
    TRY(check_range(c, first, n, vs, at, "polygon vertices"));
    next += n;
    if (polygon_bad(vs->data + (uint64_t)first * vs->stride, n, vs->stride, &area2))
      return fail(c->err, TLV_ERR_VALUE, rec_off(vs, first, 0), "polygon %u: not convex, or crossing itself, or without area", (unsigned)i);
    if (one_winding && area2 < 0.0)
      return fail(c->err, TLV_ERR_VALUE, rec_off(vs, first, 0),
                  "polygon %u: counter-clockwise on screen (format 3.2 stores every polygon clockwise, y down)", (unsigned)i);
  }
  if (next != vs->count)
    return fail(c->err, TLV_ERR_VALUE, vs->offset + next * vs->stride, "%llu vertices belong to no polygon", (unsigned long long)(vs->count - next));
  return TLV_OK;
}

static TlvResult validate_vertices(Ctx *c) {
  const TlvSection *s = &c->lv->vertices;
  uint32_t i;
  if (s->stride == TLV_VERTEX_SIZE && all_finite(s->data, (uint64_t)s->count * 2)) return TLV_OK;
  for (i = 0; i < s->count; i++) TRY(check_finite(c, s->data + (uint64_t)i * s->stride, rec_off(s, i, 0), 0, 2, "vertex"));
  return TLV_OK;
}

static TlvResult validate_palette(Ctx *c) {
  const TlvSection *s = &c->lv->palette;
  uint32_t i;
  for (i = 0; i < s->count; i++) TRY(check_cell_value(c, rd32(s->data + (uint64_t)i * s->stride), rec_off(s, i, 0), "palette"));
  return TLV_OK;
}

static TlvResult validate_layers(Ctx *c) {
  const TlvSection *s = &c->lv->layers;
  uint64_t ncells = (uint64_t)c->lv->settings.width * c->lv->settings.height; /* <= 2^28 */
  uint32_t i, material_layers = 0;
  uint64_t cells_end = 0; /* cell arrays follow each other: validation reads each cell once */
  uint64_t pal_next = 0;  /* tile layers take the palette entries in order */
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    uint64_t at = rec_off(s, i, 0);
    uint32_t kind = rd32(r + 8), flags = rd32(r + 12), width = rd32(r + 20);
    uint32_t pal_first = rd32(r + 24), pal_count = rd32(r + 28);
    uint64_t cells_off = rd64(r + 32), bytes, limit, maxv;
    float opacity = rdf32(r + 16);
    TRY(check_string(c, rd32(r + 4), at + 4, "layer name"));
    TRY(check_zero(c, r + 44, 4, at + 44, "layer"));
    if (i > 0 && rd32(r + 40) <= rd32(r - s->stride + 40))
      return fail(c->err, TLV_ERR_VALUE, at + 40, "layer %u: order %u after %u (layers ascend)", (unsigned)i, (unsigned)rd32(r + 40), (unsigned)rd32(r - s->stride + 40));
    if (kind > 1) return fail(c->err, TLV_ERR_VALUE, at + 8, "layer %u: kind %u", (unsigned)i, (unsigned)kind);
    if (flags & ~15u) return fail(c->err, TLV_ERR_VALUE, at + 12, "layer %u: unknown flags 0x%x", (unsigned)i, (unsigned)flags);
    if ((flags & TLV_LAYER_PIXELS) && (kind != TLV_LAYER_TILES || !(flags & TLV_LAYER_COLLIDES) || c->lv->header.minor < 6))
      return fail(c->err, TLV_ERR_VALUE, at + 12, "layer %u: collides by pixels but is not a colliding tile layer of format 3.6", (unsigned)i);
    if (!finite32(opacity) || !(opacity >= 0.0f && opacity <= 1.0f)) return fail(c->err, TLV_ERR_VALUE, at + 16, "layer %u: opacity", (unsigned)i);
    if (width != 1 && width != 2 && width != 4) return fail(c->err, TLV_ERR_VALUE, at + 20, "layer %u: cell width %u (1, 2 or 4)", (unsigned)i, (unsigned)width);
    if (kind == TLV_LAYER_TILES) {
      if (pal_count < 1) return fail(c->err, TLV_ERR_VALUE, at + 28, "tile layer %u: empty palette", (unsigned)i);
      TRY(check_range(c, pal_first, pal_count, &c->lv->palette, at + 24, "layer palette"));
      if (rd32(c->lv->palette.data + (uint64_t)pal_first * c->lv->palette.stride) != 0)
        return fail(c->err, TLV_ERR_VALUE, at + 24, "tile layer %u: palette entry 0 must be the empty cell", (unsigned)i);
      if (pal_first != pal_next)
        return fail(c->err, TLV_ERR_INDEX, at + 24, "tile layer %u: palette at %u, expected %llu (layers take the palette in order)", (unsigned)i,
                    (unsigned)pal_first, (unsigned long long)pal_next);
      {
        uint32_t k;
        for (k = 1; k < pal_count; k++)
          if (rd32(c->lv->palette.data + (uint64_t)(pal_first + k) * c->lv->palette.stride) == 0)
            return fail(c->err, TLV_ERR_VALUE, rec_off(&c->lv->palette, pal_first + k, 0), "tile layer %u: palette entry %u is empty (only entry 0 is)",
                        (unsigned)i, (unsigned)k);
      }
      pal_next += pal_count;
      limit = pal_count;
    } else {
      if (pal_count != 0 || pal_first != 0) return fail(c->err, TLV_ERR_VALUE, at + 24, "material layer %u has a palette", (unsigned)i);
      if (++material_layers > 1) return fail(c->err, TLV_ERR_VALUE, at + 8, "a second material layer");
      limit = (uint64_t)c->lv->materials.count + 1;
      c->lv->material_cell_width = width; /* the view is set below, once the cells are checked */
    }
    if (width != width_for(limit - 1))
      return fail(c->err, TLV_ERR_VALUE, at + 20, "layer %u: %u-byte cells for values up to %llu (the narrowest width that holds them: %u)", (unsigned)i,
                  (unsigned)width, (unsigned long long)limit - 1, (unsigned)width_for(limit - 1));
    if (cells_off % TLV_ALIGN) return fail(c->err, TLV_ERR_VALUE, at + 32, "layer %u: cells at offset %llu, not 16-aligned", (unsigned)i, (unsigned long long)cells_off);
    if (cells_off != align16(cells_end))
      return fail(c->err, TLV_ERR_RANGE, at + 32, "layer %u: cells at %llu, expected %llu (each array at the next 16-byte boundary)", (unsigned)i,
                  (unsigned long long)cells_off, (unsigned long long)align16(cells_end));
    bytes = ncells * width;
    if (cells_off < cells_end)
      return fail(c->err, TLV_ERR_RANGE, at + 32, "layer %u: cells at %llu overlap the previous layer's (ending at %llu)", (unsigned)i,
                  (unsigned long long)cells_off, (unsigned long long)cells_end);
    if (cells_off > c->lv->cells.size || bytes > c->lv->cells.size - cells_off)
      return fail(c->err, TLV_ERR_RANGE, at + 32, "layer %u: %llu cell bytes at %llu outside the %llu-byte cell section", (unsigned)i,
                  (unsigned long long)bytes, (unsigned long long)cells_off, (unsigned long long)c->lv->cells.size);
    {
      uint64_t k;
      for (k = cells_end; k < cells_off; k++)
        if (c->lv->cells.data[k]) return fail(c->err, TLV_ERR_VALUE, c->lv->cells.offset + k, "non-zero padding between cell arrays");
    }
    cells_end = cells_off + bytes;
    maxv = max_cells(c->lv->cells.data + cells_off, ncells, width);
    if (maxv >= limit) {
      uint64_t k = find_cell_at_least(c->lv->cells.data + cells_off, ncells, width, (uint32_t)limit);
      return fail(c->err, TLV_ERR_INDEX, c->lv->cells.offset + cells_off + k * width,
                  "layer %u: cell (%llu, %llu) holds %s %u, beyond %llu", (unsigned)i,
                  (unsigned long long)(k % c->lv->settings.width), (unsigned long long)(k / c->lv->settings.width),
                  kind == TLV_LAYER_TILES ? "palette index" : "material",
                  (unsigned)cell_at(c->lv->cells.data + cells_off, width, k), (unsigned long long)limit - 1);
    }
    if (kind == TLV_LAYER_MATERIAL) c->lv->material_cells = c->lv->cells.data + cells_off;
  }
  if (cells_end != c->lv->cells.size)
    return fail(c->err, TLV_ERR_VALUE, c->lv->cells.offset + cells_end, "%llu bytes of the cell section belong to no layer",
                (unsigned long long)(c->lv->cells.size - cells_end));
  if (pal_next != c->lv->palette.count)
    return fail(c->err, TLV_ERR_VALUE, rec_off(&c->lv->palette, (uint32_t)pal_next, 0), "%llu palette entries belong to no layer",
                (unsigned long long)(c->lv->palette.count - pal_next));
  return TLV_OK;
}

/* Where a cell puts its tile (FORMAT.md, TSET "Placement"), in metres from
 * the cell's top-left: flipped tile point (fx, fy) lands at
 * (x0 + fx * sx, y0 + fy * sy). */
typedef struct TilePlace {
  double x0, y0, sx, sy;
} TilePlace;

static TilePlace tile_place(const TlvLevel *lv, const uint8_t *tset, uint32_t cell) {
  TilePlace pl;
  double tw = (double)rd32(tset + 20), th = (double)rd32(tset + 24), ppm = (double)lv->settings.ppm;
  int diag = (cell & 0x20000000u) != 0;
  if (lv->header.minor < 4 || rd32(tset + 60) == TLV_PLACE_FIT_CELL) {
    pl.x0 = pl.y0 = 0.0;
    pl.sx = (double)lv->settings.tile_w / tw / ppm;
    pl.sy = (double)lv->settings.tile_h / th / ppm;
  } else {
    double ox = lv->tilesets.stride >= TLV_TILESET_SIZE_3_4 ? (double)(int32_t)rd32(tset + 64) : 0.0;
    double oy = lv->tilesets.stride >= TLV_TILESET_SIZE_3_4 ? (double)(int32_t)rd32(tset + 68) : 0.0;
    /* the turned tile keeps the cell's bottom-left corner, as Tiled draws it */
    pl.x0 = ox / ppm;
    pl.y0 = ((double)lv->settings.tile_h - (diag ? tw : th) + oy) / ppm;
    pl.sx = pl.sy = 1.0 / ppm;
  }
  return pl;
}

/* True when a native tile is drawn exactly on its cell (no offset, the cell's size, square under the diagonal flip). */
static int tile_on_cell(const TlvLevel *lv, const uint8_t *tset, uint32_t cell) {
  TilePlace pl = tile_place(lv, tset, cell);
  double tw = (double)rd32(tset + 20), th = (double)rd32(tset + 24), w = (cell & 0x20000000u) ? th : tw, h = (cell & 0x20000000u) ? tw : th;
  if (lv->header.minor < 4 || rd32(tset + 60) == TLV_PLACE_FIT_CELL) return 1;
  return pl.x0 == 0.0 && pl.y0 == 0.0 && w == (double)lv->settings.tile_w && h == (double)lv->settings.tile_h;
}

/* A traced collision entry's pieces are its tile's (FORMAT.md, TILE
 * "Flips", TSET "Placement"): each tile piece placed with the cell's flips
 * where the cell draws the tile, in metres, turned clockwise (3.2; either
 * way before), in order; the scene leaves out a piece that becomes too thin
 * to collide and drops vertices on a line, so an entry piece matches a tile
 * piece whose vertices it takes in order, to 1e-5 of a cell. The tile piece
 * is px/py[0..n) in tile pixels. */
static int piece_matches(const TlvLevel *lv, const double *px_in, const double *py_in, uint32_t n, const uint8_t *entry_poly, uint32_t cell,
                         const uint8_t *tset, int either_way) {
  const TlvSection *vs = &lv->vertices;
  double tw = (double)rd32(tset + 20), th = (double)rd32(tset + 24);
  TilePlace pl = tile_place(lv, tset, cell);
  double tol = 1e-5 * ((double)lv->settings.cell_w + (double)lv->settings.cell_h), x[TLV_MAX_POLY_VERTICES], y[TLV_MAX_POLY_VERTICES], area = 0.0;
  uint32_t m = rd32(entry_poly + 4), ef = rd32(entry_poly), i, pass;
  double W = (cell & 0x20000000u) ? th : tw, H = (cell & 0x20000000u) ? tw : th;
  if (m > n) return 0;
  for (i = 0; i < n; i++) {
    double px = px_in[i], py = py_in[i], t;
    if (cell & 0x20000000u) t = px, px = py, py = t; /* diagonal: a transpose first */
    if (cell & 0x80000000u) px = W - px;
    if (cell & 0x40000000u) py = H - py;
    x[i] = pl.x0 + px * pl.sx;
    y[i] = pl.y0 + py * pl.sy;
  }
  for (i = 0; i < n; i++) area += x[i] * y[(i + 1) % n] - x[(i + 1) % n] * y[i];
  for (pass = 0; pass < 2; pass++) {
    /* pass 0: the orientation the format stores (clockwise); pass 1, files
     * before 3.2 only: the other one. */
    int reverse = (area < 0.0) != (pass == 1), ok = 1;
    uint32_t j = 0, k;
    if (pass == 1 && !either_way) break;
    for (k = 0; k < m && ok; k++) {
      double ex = (double)rdf32(vs->data + (uint64_t)(ef + k) * vs->stride), ey = (double)rdf32(vs->data + (uint64_t)(ef + k) * vs->stride + 4);
      for (; j < n; j++) {
        uint32_t q = reverse ? n - 1 - j : j;
        double dx = ex - x[q], dy = ey - y[q];
        if (dx <= tol && dx >= -tol && dy <= tol && dy >= -tol) break;
      }
      if (j == n) ok = 0;
      j++;
    }
    if (ok) return 1;
  }
  return 0;
}

static TlvResult check_traced_entry(Ctx *c, const uint8_t *r, uint32_t index, uint64_t at) {
  const TlvLevel *lv = c->lv;
  uint32_t cell = rd32(r), first = rd32(r + 12), count = rd32(r + 16), ts, t, q = 0, k, n, i, pieces;
  const uint8_t *tset, *tile;
  double px[TLV_MAX_POLY_VERTICES], py[TLV_MAX_POLY_VERTICES];
  if (cell == 0) return fail(c->err, TLV_ERR_VALUE, at, "collision palette %u: traced, but names no tile", (unsigned)index);
  ts = c->tileset_of_id[(cell >> 16) & 0xFFFu] - 1; /* check_cell_value found it */
  tset = lv->tilesets.data + (uint64_t)ts * lv->tilesets.stride;
  t = rd32(tset + 44) + (cell & 0xFFFFu);
  tile = lv->tiles.data + (uint64_t)t * lv->tiles.stride;
  /* 3.4: a full tile drawn off its cell collides as its own rectangle, one implied piece. */
  if (tile[4] == 1 && !tile_on_cell(lv, tset, cell)) {
    pieces = 1;
  } else if (tile[4] != 2) {
    return fail(c->err, TLV_ERR_VALUE, at + 8, "collision palette %u: traced, but its tile %u is not (nor a full tile off its cell)", (unsigned)index, (unsigned)t);
  } else {
    pieces = rd32(tile + 12);
  }
  for (k = 0; k < count; k++) {
    const uint8_t *ep = lv->polygons.data + (uint64_t)(first + k) * lv->polygons.stride;
    for (; q < pieces; q++) {
      if (tile[4] == 1) {
        n = 4;
        px[0] = px[3] = py[0] = py[1] = 0.0;
        px[1] = px[2] = (double)rd32(tset + 20);
        py[2] = py[3] = (double)rd32(tset + 24);
      } else {
        const uint8_t *tp = lv->polygons.data + (uint64_t)(rd32(tile + 8) + q) * lv->polygons.stride;
        uint32_t tf = rd32(tp);
        n = rd32(tp + 4);
        for (i = 0; i < n; i++) {
          px[i] = (double)rdf32(lv->vertices.data + (uint64_t)(tf + i) * lv->vertices.stride);
          py[i] = (double)rdf32(lv->vertices.data + (uint64_t)(tf + i) * lv->vertices.stride + 4);
        }
      }
      if (piece_matches(lv, px, py, n, ep, cell, tset, lv->header.minor < 2)) break;
    }
    if (q == pieces)
      return fail(c->err, TLV_ERR_VALUE, rec_off(&lv->polygons, first + k, 0),
                  "collision palette %u: piece %u is none of its tile's pieces placed with the cell's flips 0x%x", (unsigned)index, (unsigned)k,
                  (unsigned)(cell >> 29));
    q++;
  }
  return TLV_OK;
}

static TlvResult validate_collision(Ctx *c) {
  const TlvSection *p = &c->lv->collision_palette, *g = &c->lv->collision_grid;
  uint64_t ncells = (uint64_t)c->lv->settings.width * c->lv->settings.height;
  uint32_t i;
  for (i = 0; i < p->count; i++) {
    const uint8_t *r = p->data + (uint64_t)i * p->stride;
    uint64_t at = rec_off(p, i, 0);
    TRY(check_cell_value(c, rd32(r), at, "collision palette"));
    if (rd32(r + 4) > c->lv->materials.count) return fail(c->err, TLV_ERR_INDEX, at + 4, "collision palette %u: material %u of %u", (unsigned)i, (unsigned)rd32(r + 4), (unsigned)c->lv->materials.count);
    if (r[8] > 2 || r[9] > 1) return fail(c->err, TLV_ERR_VALUE, at + 8, "collision palette %u: kind or one-way flag", (unsigned)i);
    if ((r[10] & ~TLV_COLLISION_FLAGS_KNOWN) || r[11])
      return fail(c->err, TLV_ERR_VALUE, at + 10, "collision palette %u: unknown flags 0x%x", (unsigned)i, (unsigned)rd16(r + 10));
    if (rd32(r + 16) > TLV_MAX_PIECES) return fail(c->err, TLV_ERR_LIMIT, at + 16, "collision palette %u: %u pieces (at most %u)", (unsigned)i, (unsigned)rd32(r + 16), TLV_MAX_PIECES);
    TRY(check_range(c, rd32(r + 12), rd32(r + 16), &c->lv->polygons, at + 12, "collision palette pieces"));
    TRY(check_zero(c, r + 20, 4, at + 20, "collision palette"));
    if (r[8] == 2) {
      TRY(check_traced_entry(c, r, i, at));
    } else if (rd32(r) != 0 || rd32(r + 16) != 0) {
      return fail(c->err, TLV_ERR_VALUE, at, "collision palette %u: a tile or pieces on an entry that is not traced", (unsigned)i);
    }
  }
  if (g->size == 0 && g->count == 0) return TLV_OK; /* no grid: nothing collides per cell */
  if (g->stride != 1 && g->stride != 2 && g->stride != 4) return fail(c->err, TLV_ERR_VALUE, g->offset, "collision grid: cell width %u", (unsigned)g->stride);
  if (g->count != ncells) return fail(c->err, TLV_ERR_VALUE, g->offset, "collision grid: %u cells for a %u x %u level", (unsigned)g->count, (unsigned)c->lv->settings.width, (unsigned)c->lv->settings.height);
  if (p->count && g->stride != width_for(p->count - 1))
    return fail(c->err, TLV_ERR_VALUE, g->offset, "collision grid: %u-byte cells for %u entries (the narrowest width that holds them: %u)", (unsigned)g->stride,
                (unsigned)p->count, (unsigned)width_for(p->count - 1));
  if (max_cells(g->data, ncells, g->stride) >= p->count) {
    uint64_t k = find_cell_at_least(g->data, ncells, g->stride, p->count);
    return fail(c->err, TLV_ERR_INDEX, g->offset + k * g->stride, "collision grid: cell (%llu, %llu) names entry beyond the %u of the palette",
                (unsigned long long)(k % c->lv->settings.width), (unsigned long long)(k / c->lv->settings.width), (unsigned)p->count);
  }
  return TLV_OK;
}

/* A corner's edge: bit 15 of x and of y hold its direction (TLV_EDGE_*);
 * the solid cell on its right is the corner minus (EDGE_CX, EDGE_CY). */
static const uint32_t EDGE_CX[4] = {0, 1, 1, 0}, EDGE_CY[4] = {0, 0, 1, 1};
#define CORNER_COORD(v) ((uint32_t)(v)&0x7FFFu)
#define CORNER_DIR(r) ((uint32_t)(rd16(r) >> 15) | (uint32_t)(rd16((r) + 2) >> 15) << 1)

/* Nonzero when a corner v has no cell of the W x H level on its edge's
 * right (which also bounds x <= W, y <= H). x in bits 0-14, y in 16-30, the
 * direction in bits 15 (low) and 31 (high); EDGE_CX[d] = (d ^ d >> 1) & 1,
 * EDGE_CY[d] = d >> 1; below 0 wraps to a large value. A macro, not a
 * function: GCC does not inline across its optimize attribute, and the
 * pass over the section must vectorise to run at memory speed. */
#define TLV_CORNER_BAD(v, W, H)                                                          \
  ((uint32_t)(((v)&0x7FFFu) - (((((v) >> 15) & 1u) ^ (((v) >> 31) & 1u)) & 1u) >= (W)) | \
   (uint32_t)((((v) >> 16) & 0x7FFFu) - (((v) >> 31) & 1u) >= (H)))

/* Nonzero when the edge from corner v does not head straight to corner w
 * (the next one of its loop) along its direction, or w's edge turns back on
 * it: with masks vert (heading south or north) and back (west or north),
 * the coordinate along the edge must grow (shrink when back) and the one
 * across it stay. Unsigned arithmetic and masks only: it vectorises. */
#define TLV_EDGE_BAD(v, w)                                                                                       \
  tlv_edge_bad_((v)&0x7FFFu, ((v) >> 16) & 0x7FFFu, (w)&0x7FFFu, ((w) >> 16) & 0x7FFFu, 0u - (((v) >> 15) & 1u), \
                0u - ((v) >> 31), (((v) ^ (w)) & 0x80008000u) == 0x80000000u)
#define tlv_edge_bad_(x0, y0, x1, y1, vert, back, turned)                                                             \
  ((uint32_t)((((x0) & (vert)) | ((y0) & ~(vert))) != (((x1) & (vert)) | ((y1) & ~(vert)))) |                         \
   (uint32_t)((((((y1) & (vert)) | ((x1) & ~(vert))) & (back)) | ((((y0) & (vert)) | ((x0) & ~(vert))) & ~(back))) >= \
              (((((y0) & (vert)) | ((x0) & ~(vert))) & (back)) | ((((y1) & (vert)) | ((x1) & ~(vert))) & ~(back)))) | \
   (uint32_t)(turned))

static uint32_t corner_bad(uint32_t v, uint32_t W, uint32_t H) { return TLV_CORNER_BAD(v, W, H); }
static uint32_t edge_bad(uint32_t v, uint32_t w) { return TLV_EDGE_BAD(v, w); }

/* Over every corner j but the last and its successor j + 1 in the section
 * (loop ends are corrected by the caller): the count of corners with no
 * cell on their edge's right or whose edge does not reach the next corner. The writer's
 * stride is a constant the compiler vectorises. */
TLV_VECTORIZE static uint32_t corner_pass(const uint8_t *r, uint32_t count, uint32_t stride, uint32_t W, uint32_t H) {
  uint32_t b = 0, j;
  if (count == 0) return 0;
  if (stride == TLV_CORNER_SIZE) {
    for (j = 0; j + 1 < count; j++) {
      uint32_t v = rd32(r + (uint64_t)j * TLV_CORNER_SIZE), w = rd32(r + (uint64_t)j * TLV_CORNER_SIZE + TLV_CORNER_SIZE);
      b += TLV_CORNER_BAD(v, W, H) | TLV_EDGE_BAD(v, w);
    }
  } else {
    for (j = 0; j + 1 < count; j++) {
      uint32_t v = rd32(r + (uint64_t)j * stride), w = rd32(r + (uint64_t)j * stride + stride);
      b += TLV_CORNER_BAD(v, W, H) | TLV_EDGE_BAD(v, w);
    }
  }
  return b;
}

/* Nonzero when a rectangle is empty or leaves the level: branch-free, as
 * corner_bad; the loop that names it only runs on failure. */
#define TLV_RECT_BAD(xy, wh, W, H)                                                                                       \
  ((uint32_t)(((wh)&0xFFFFu) == 0) | (uint32_t)(((wh) >> 16) == 0) | (uint32_t)(((xy)&0xFFFFu) + ((wh)&0xFFFFu) > (W)) | \
   (uint32_t)(((xy) >> 16) + ((wh) >> 16) > (H)))

/* Also nonzero when the rectangles are not in row order: a rectangle's
 * first word x | y << 16 grows with (y, x), so it must ascend. */
TLV_VECTORIZE static uint32_t rects_bad(const uint8_t *r, uint32_t count, uint32_t stride, uint32_t W, uint32_t H) {
  uint32_t bad = 0, j;
  if (count == 0) return 0;
  if (stride == TLV_RECT_SIZE) {
    for (j = 1; j < count; j++) {
      const uint8_t *p = r + (uint64_t)j * TLV_RECT_SIZE;
      uint32_t xy = rd32(p), wh = rd32(p + 4), before = rd32(p - TLV_RECT_SIZE);
      bad |= TLV_RECT_BAD(xy, wh, W, H) | (uint32_t)(xy <= before);
    }
  } else {
    for (j = 1; j < count; j++) {
      uint32_t xy = rd32(r + (uint64_t)j * stride), wh = rd32(r + (uint64_t)j * stride + 4), before = rd32(r + (uint64_t)(j - 1) * stride);
      bad |= TLV_RECT_BAD(xy, wh, W, H) | (uint32_t)(xy <= before);
    }
  }
  return bad | TLV_RECT_BAD(rd32(r), rd32(r + 4), W, H);
}

static TlvResult corner_fail(Ctx *c, TlvResult code, uint32_t i, const char *why) {
  const TlvSection *k = &c->lv->corners;
  const uint8_t *a = k->data + (uint64_t)i * k->stride;
  return fail(c->err, code, rec_off(k, i, 0), "corner %u: (%u, %u) heading %u: %s", (unsigned)i, (unsigned)CORNER_COORD(rd16(a)),
              (unsigned)CORNER_COORD(rd16(a + 2)), (unsigned)CORNER_DIR(a), why);
}

/* Every rectangle non-empty and inside the level. */
static TlvResult rects_in_level(Ctx *c) {
  const TlvSection *rs = &c->lv->rects;
  uint32_t W = c->lv->settings.width, H = c->lv->settings.height, i;
  if (!rects_bad(rs->data, rs->count, rs->stride, W, H)) return TLV_OK;
  for (i = 0; i < rs->count; i++) {
    const uint8_t *r = rs->data + (uint64_t)i * rs->stride;
    uint32_t x = rd16(r), y = rd16(r + 2), w = rd16(r + 4), h = rd16(r + 6);
    if (w < 1 || h < 1 || !range_ok(x, w, W) || !range_ok(y, h, H))
      return fail(c->err, TLV_ERR_RANGE, rec_off(rs, i, 0), "rectangle %u: %u,%u %ux%u outside the level", (unsigned)i, (unsigned)x, (unsigned)y,
                  (unsigned)w, (unsigned)h);
    if (i > 0 && rd32(r) <= rd32(r - rs->stride))
      return fail(c->err, TLV_ERR_VALUE, rec_off(rs, i, 0), "rectangle %u: its top-left cell (%u, %u) does not follow the previous one's, row by row",
                  (unsigned)i, (unsigned)x, (unsigned)y);
  }
  return fail(c->err, TLV_ERR_VALUE, rs->offset, "rectangles: inconsistent"); /* not reached: the loop names it */
}

static TlvResult validate_geometry(Ctx *c) {
  const TlvLevel *lv = c->lv;
  const TlvSection *s = &lv->loops, *k = &lv->corners, *rs = &lv->rects;
  uint32_t W = lv->settings.width, H = lv->settings.height, i, bad = 0;
  uint64_t next = 0; /* loops take the corners in order, each once */
  /* Materials of edges and rectangles are the collision grid's. */
  if ((s->count || k->count || rs->count) && lv->collision_grid.count == 0)
    return fail(c->err, TLV_ERR_VALUE, s->count ? s->offset : k->count ? k->offset
                                                                       : rs->offset,
                "merged collision geometry without a collision grid");
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    uint64_t at = rec_off(s, i, 0);
    uint32_t n = rd32(r + 4), first = rd32(r);
    if (n < 4) return fail(c->err, TLV_ERR_VALUE, at + 4, "loop %u: %u corners (at least 4)", (unsigned)i, (unsigned)n);
    if (first != next) return fail(c->err, TLV_ERR_INDEX, at, "loop %u: first corner %u, expected %llu", (unsigned)i, (unsigned)first, (unsigned long long)next);
    if ((uint64_t)first + n > k->count) TRY(check_range(c, first, n, k, at, "loop corners"));
    next += n;
    {
      /* corner_pass below pairs each corner with the next in the section;
       * a loop's last corner pairs with the loop's first instead: count
       * that pair and take back the one the pass counts (it pairs the
       * section's last corner with nothing: nothing to take back). */
      uint32_t last = rd32(k->data + (uint64_t)(first + n - 1) * k->stride), head = rd32(k->data + (uint64_t)first * k->stride);
      uint32_t following = first + n < k->count ? rd32(k->data + (uint64_t)(first + n) * k->stride) : 0u;
      bad += (TLV_CORNER_BAD(last, W, H) | TLV_EDGE_BAD(last, head)) -
             (first + n < k->count ? (TLV_CORNER_BAD(last, W, H) | TLV_EDGE_BAD(last, following)) : 0u);
    }
  }
  if (next != k->count)
    return fail(c->err, TLV_ERR_VALUE, k->offset + next * k->stride, "%llu corners belong to no loop", (unsigned long long)(k->count - next));
  /* One pass over all corners, each with the next in the section. */
  bad += corner_pass(k->data, k->count, k->stride, W, H);
  bad += k->count ? corner_bad(rd32(k->data + (uint64_t)(k->count - 1) * k->stride), W, H) : 0u;
  if (bad) {
    /* Name the first corner at fault. */
    for (i = 0; i < s->count; i++) {
      uint32_t first = rd32(s->data + (uint64_t)i * s->stride), n = rd32(s->data + (uint64_t)i * s->stride + 4), j;
      for (j = 0; j < n; j++) {
        uint32_t v = rd32(k->data + (uint64_t)(first + j) * k->stride), w = rd32(k->data + (uint64_t)(first + (j + 1) % n) * k->stride);
        if (corner_bad(v, W, H)) return corner_fail(c, TLV_ERR_RANGE, first + j, "no cell of the level on the edge's right");
        if (edge_bad(v, w)) return corner_fail(c, TLV_ERR_VALUE, first + j, "the edge does not head to the next corner of the loop, or turns back");
      }
    }
    return fail(c->err, TLV_ERR_VALUE, k->offset, "loop corners: inconsistent"); /* not reached: the loop names it */
  }
  /* Not checked, for speed (random reads of the grid at each corner and
   * rectangle would add a fifth to the cost of validation): that solid lies
   * right of every edge and the rectangles cover the solid cells exactly.
   * A file that breaks these gives a game wrong merged geometry, never a
   * read outside the file (FORMAT.md, "What the reader checks"). */
  return rects_in_level(c);
}

static TlvResult check_props(Ctx *c, const uint8_t *r, uint64_t at, uint32_t field) {
  if (rd32(r + field) != c->prop_next)
    return fail(c->err, TLV_ERR_INDEX, at + field, "first property %u, expected %llu (objects take the properties in order)", (unsigned)rd32(r + field),
                (unsigned long long)c->prop_next);
  TRY(check_range(c, rd32(r + field), rd32(r + field + 4), &c->lv->properties, at + field, "properties"));
  c->prop_next += rd32(r + field + 4);
  return TLV_OK;
}

static TlvResult validate_objects(Ctx *c) {
  const TlvLevel *lv = c->lv;
  uint32_t i, autos = 0;
  for (i = 0; i < lv->shapes.count; i++) {
    const uint8_t *r = lv->shapes.data + (uint64_t)i * lv->shapes.stride;
    uint64_t at = rec_off(&lv->shapes, i, 0);
    uint32_t kind = rd32(r);
    if (kind > 2) return fail(c->err, TLV_ERR_VALUE, at, "shape %u: kind %u", (unsigned)i, (unsigned)kind);
    TRY(check_finite(c, r, at, 4, 5, "shape"));
    if (!(rdf32(r + 20) >= 0.0f)) return fail(c->err, TLV_ERR_VALUE, at + 20, "shape %u: negative radius", (unsigned)i);
    if (kind == TLV_SHAPE_POLYGON && rd32(r + 24) >= lv->polygons.count)
      return fail(c->err, TLV_ERR_INDEX, at + 24, "shape %u: polygon %u of %u", (unsigned)i, (unsigned)rd32(r + 24), (unsigned)lv->polygons.count);
    TRY(check_zero(c, r + 28, 4, at + 28, "shape"));
    if (kind == TLV_SHAPE_POLYGON) {
      /* a is the polygon's first vertex; b and the radius are 0 */
      const uint8_t *v = lv->vertices.data + (uint64_t)rd32(lv->polygons.data + (uint64_t)rd32(r + 24) * lv->polygons.stride) * lv->vertices.stride;
      if (rd32(r + 4) != rd32(v) || rd32(r + 8) != rd32(v + 4))
        return fail(c->err, TLV_ERR_VALUE, at + 4, "shape %u: point a is not its polygon's first vertex", (unsigned)i);
      TRY(check_zero(c, r + 12, 12, at + 12, "polygon shape (b, radius)"));
    } else {
      if (!(rdf32(r + 20) > 0.0f)) return fail(c->err, TLV_ERR_VALUE, at + 20, "shape %u: a circle or capsule of radius 0", (unsigned)i);
      if (kind == TLV_SHAPE_CIRCLE) TRY(check_zero(c, r + 12, 8, at + 12, "circle shape (b)"));
      TRY(check_zero(c, r + 24, 4, at + 24, "circle or capsule shape (polygon)"));
    }
  }
  uint64_t next_shape = 0; /* bodies take the shapes in order, each once */
  for (i = 0; i < lv->bodies.count; i++) {
    const uint8_t *r = lv->bodies.data + (uint64_t)i * lv->bodies.stride;
    uint64_t at = rec_off(&lv->bodies, i, 0);
    if (rd32(r + 40) != next_shape)
      return fail(c->err, TLV_ERR_INDEX, at + 40, "body %u: first shape %u, expected %llu", (unsigned)i, (unsigned)rd32(r + 40), (unsigned long long)next_shape);
    next_shape += rd32(r + 44);
    TRY(check_string(c, rd32(r + 4), at + 4, "body name"));
    if (rd32(r) == 0) return fail(c->err, TLV_ERR_VALUE, at, "body %u: object id 0", (unsigned)i);
    /* byte 73 was reserved before 3.7, so an older reader refuses a 3.7 body on RK4 rather than run it on Euler */
    if (c->lv->header.minor >= 7 && r[73] > TLV_INTEGRATOR_RK4) return fail(c->err, TLV_ERR_VALUE, at + 73, "body %u: integrator %u", (unsigned)i, (unsigned)r[73]);
    TRY(check_zero(c, r + 73 + (c->lv->header.minor >= 7), 7 - (c->lv->header.minor >= 7), at + 73 + (c->lv->header.minor >= 7), "body"));

    if (r[8] > 2 || r[9] > 1 || r[10] > 3 || r[11] > 2) return fail(c->err, TLV_ERR_VALUE, at + 8, "body %u: type, sensor, source or pin", (unsigned)i);
    if (r[72] > 1) return fail(c->err, TLV_ERR_VALUE, at + 72, "body %u: mass flag %u", (unsigned)i, (unsigned)r[72]);
    if (rd32(r + 12) > lv->materials.count) return fail(c->err, TLV_ERR_INDEX, at + 12, "body %u: material %u of %u", (unsigned)i, (unsigned)rd32(r + 12), (unsigned)lv->materials.count);
    if (rd32(r + 16) > lv->sprites.count) return fail(c->err, TLV_ERR_INDEX, at + 16, "body %u: sprite %u of %u", (unsigned)i, (unsigned)rd32(r + 16), (unsigned)lv->sprites.count);
    if (rd32(r + 16) != 0 && r[10] != 3) return fail(c->err, TLV_ERR_VALUE, at + 16, "body %u: a sprite on a body not made from one", (unsigned)i);
    TRY(check_finite(c, r, at, 28, 3, "body"));
    TRY(check_range(c, rd32(r + 40), rd32(r + 44), &lv->shapes, at + 40, "body shapes"));
    TRY(check_finite(c, r, at, 48, 4, "body mass"));
    if (!(rdf32(r + 48) >= 0.0f) || !(rdf32(r + 60) >= 0.0f)) return fail(c->err, TLV_ERR_VALUE, at + 48, "body %u: negative mass or inertia", (unsigned)i);
    TRY(check_props(c, r, at, 64));
  }
  if (next_shape != lv->shapes.count)
    return fail(c->err, TLV_ERR_VALUE, rec_off(&lv->shapes, (uint32_t)next_shape, 0), "%llu shapes belong to no body",
                (unsigned long long)(lv->shapes.count - next_shape));
  for (i = 0; i < lv->joints.count; i++) {
    const uint8_t *r = lv->joints.data + (uint64_t)i * lv->joints.stride;
    uint64_t at = rec_off(&lv->joints, i, 0);
    TRY(check_string(c, rd32(r + 4), at + 4, "joint name"));
    TRY(check_zero(c, r + 60, 4, at + 60, "joint"));
    if (lv->joints.stride >= TLV_JOINT_SIZE_3_1) TRY(check_zero(c, r + 72, 8, at + 72, "joint"));
    if ((rd32(r + 12) & TLV_JOINT_AUTO_PIN) ? (rd32(r) != 0 || rd32(r + 8) != TLV_JOINT_PIN || rd32(r + 32) != rd32(r + 24) || rd32(r + 36) != rd32(r + 28))
                                            : (rd32(r) == 0 || autos))
      return fail(c->err, TLV_ERR_VALUE, at, "joint %u: auto-pins (flag 2) come last, with object id 0, as pins whose anchor b repeats a; other joints have an object id",
                  (unsigned)i);
    autos += (rd32(r + 12) & TLV_JOINT_AUTO_PIN) != 0;
    if (rd32(r + 16) == rd32(r + 20)) return fail(c->err, TLV_ERR_VALUE, at + 16, "joint %u joins body %u to itself", (unsigned)i, (unsigned)rd32(r + 16));
    if (!(rdf32(r + 40) >= 0.0f)) return fail(c->err, TLV_ERR_VALUE, at + 40, "joint %u: negative length", (unsigned)i);
    if (rd32(r + 8) == TLV_JOINT_DISTANCE && lv->joints.stride >= TLV_JOINT_SIZE_3_1) TRY(check_zero(c, r + 64, 8, at + 64, "distance joint (motor)"));
    if (rd32(r + 8) > 1) return fail(c->err, TLV_ERR_VALUE, at + 8, "joint %u: kind %u", (unsigned)i, (unsigned)rd32(r + 8));
    if (rd32(r + 12) & ~(TLV_JOINT_LIMIT | TLV_JOINT_AUTO_PIN | TLV_JOINT_MOTOR))
      return fail(c->err, TLV_ERR_VALUE, at + 12, "joint %u: unknown flags 0x%x", (unsigned)i, (unsigned)rd32(r + 12));
    if (lv->joints.stride >= TLV_JOINT_SIZE_3_1) {
      /* 3.1's pin motor: a finite speed, a finite torque >= 0. */
      TRY(check_finite(c, r, at, 64, 2, "joint motor"));
      if (!(rdf32(r + 68) >= 0.0f)) return fail(c->err, TLV_ERR_VALUE, at + 68, "joint %u: negative motor torque", (unsigned)i);
    } else if (rd32(r + 12) & TLV_JOINT_MOTOR) {
      return fail(c->err, TLV_ERR_VALUE, at + 12, "joint %u: motor flag in a %u-byte record that has no motor fields", (unsigned)i, (unsigned)lv->joints.stride);
    }
    if ((rd32(r + 12) & TLV_JOINT_MOTOR) && rd32(r + 8) != TLV_JOINT_PIN)
      return fail(c->err, TLV_ERR_VALUE, at + 12, "joint %u: a motor on a joint that is not a pin", (unsigned)i);
    if (rd32(r + 16) > lv->bodies.count || rd32(r + 20) > lv->bodies.count)
      return fail(c->err, TLV_ERR_INDEX, at + 16, "joint %u: body %u or %u of %u", (unsigned)i, (unsigned)rd32(r + 16), (unsigned)rd32(r + 20), (unsigned)lv->bodies.count);
    TRY(check_finite(c, r, at, 24, 7, "joint"));
    TRY(check_props(c, r, at, 52));
  }
  for (i = 0; i < lv->zones.count; i++) {
    const uint8_t *r = lv->zones.data + (uint64_t)i * lv->zones.stride;
    uint64_t at = rec_off(&lv->zones, i, 0);
    TRY(check_string(c, rd32(r + 4), at + 4, "zone name"));
    if (rd32(r + 8) > (c->lv->header.minor >= 7 ? 3u : 2u)) return fail(c->err, TLV_ERR_VALUE, at + 8, "zone %u: kind %u", (unsigned)i, (unsigned)rd32(r + 8));
    TRY(check_finite(c, r, at, 12, 9, "zone"));
    TRY(check_zero(c, r + 56, 8, at + 56, "zone"));
    if (!(rdf32(r + 24) >= 0.0f) || !(rdf32(r + 28) >= 0.0f) || !(rdf32(r + 44) >= 0.0f))
      return fail(c->err, TLV_ERR_VALUE, at + 24, "zone %u: negative width, height or radius", (unsigned)i);
    /* a spring's strength is omega^2: 0..1e6 1/s^2, as the level model holds it */
    if (rd32(r + 8) == 3 && !(rdf32(r + 40) >= 0.0f && rdf32(r + 40) <= 1e6f))
      return fail(c->err, TLV_ERR_VALUE, at + 40, "zone %u: spring strength outside 0..1e6", (unsigned)i);
    TRY(check_props(c, r, at, 48));
  }
  for (i = 0; i < lv->spawns.count; i++) {
    const uint8_t *r = lv->spawns.data + (uint64_t)i * lv->spawns.stride;
    uint64_t at = rec_off(&lv->spawns, i, 0);
    TRY(check_string(c, rd32(r + 4), at + 4, "spawn name"));
    TRY(check_finite(c, r, at, 8, 3, "spawn"));
    TRY(check_zero(c, r + 28, 4, at + 28, "spawn"));
    TRY(check_props(c, r, at, 20));
  }
  for (i = 0; i < lv->launchers.count; i++) { /* 3.8: they take their properties after the spawns */
    const uint8_t *r = lv->launchers.data + (uint64_t)i * lv->launchers.stride;
    uint64_t at = rec_off(&lv->launchers, i, 0);
    TRY(check_string(c, rd32(r + 4), at + 4, "launcher name"));
    TRY(check_finite(c, r, at, 8, 5, "launcher"));
    if (!(rdf32(r + 20) >= 0.0f) || !(rdf32(r + 20) <= 1000.0f))
      return fail(c->err, TLV_ERR_VALUE, at + 20, "launcher %u: speed %g (0..1000 m/s)", (unsigned)i, (double)rdf32(r + 20));
    if (!(rdf32(r + 24) > 0.0f)) return fail(c->err, TLV_ERR_VALUE, at + 24, "launcher %u: radius is not above 0", (unsigned)i);
    if (rd32(r + 28) > lv->materials.count)
      return fail(c->err, TLV_ERR_INDEX, at + 28, "launcher %u: material %u of %u", (unsigned)i, (unsigned)rd32(r + 28),
                  (unsigned)lv->materials.count);
    TRY(check_props(c, r, at, 36));
    TRY(check_zero(c, r + 44, 4, at + 44, "launcher"));
  }
  for (i = 0; i < lv->sprites.count; i++) {
    const uint8_t *r = lv->sprites.data + (uint64_t)i * lv->sprites.stride;
    uint64_t at = rec_off(&lv->sprites, i, 0);
    TRY(check_string(c, rd32(r + 4), at + 4, "sprite name"));
    TRY(check_string(c, rd32(r + 8), at + 8, "sprite source"));
    if (rd32(r) == 0 || (i > 0 && rd32(r) <= rd32(r - lv->sprites.stride)))
      return fail(c->err, TLV_ERR_VALUE, at, "sprite %u: id %u (ids are above 0 and ascending)", (unsigned)i, (unsigned)rd32(r));
    TRY(check_zero(c, r + 44, 4, at + 44, "sprite"));
    if (!(rdf32(r + 24) >= 0.0f)) return fail(c->err, TLV_ERR_VALUE, at + 24, "sprite %u: negative frame rate", (unsigned)i);
    if (rd32(r + 20) < 1) return fail(c->err, TLV_ERR_VALUE, at + 20, "sprite %u: no frames", (unsigned)i);
    TRY(check_finite(c, r, at, 24, 3, "sprite"));
    TRY(check_blob(c, rd32(r + 36), rd32(r + 40), at + 36, "sprite image"));
  }
  for (i = 0; i < lv->properties.count; i++) {
    const uint8_t *r = lv->properties.data + (uint64_t)i * lv->properties.stride;
    uint64_t at = rec_off(&lv->properties, i, 0);
    uint32_t type = rd32(r + 4);
    TRY(check_string(c, rd32(r), at, "property name"));
    if (type > 4) return fail(c->err, TLV_ERR_VALUE, at + 4, "property %u: type %u", (unsigned)i, (unsigned)type);
    if (type == TLV_PROP_STRING) {
      if (rd64(r + 8) > 0xFFFFFFFFull) return fail(c->err, TLV_ERR_INDEX, at + 8, "property %u: string offset", (unsigned)i);
      TRY(check_string(c, (uint32_t)rd64(r + 8), at + 8, "property value"));
    }
    if (type == TLV_PROP_BOOL && rd64(r + 8) > 1) return fail(c->err, TLV_ERR_VALUE, at + 8, "property %u: bool value", (unsigned)i);
    if (type == TLV_PROP_COLOR && rd64(r + 8) > 0xFFFFFFFFull) return fail(c->err, TLV_ERR_VALUE, at + 8, "property %u: colour beyond 32 bits", (unsigned)i);
    if (type == TLV_PROP_FLOAT && (rd64(r + 8) & 0x7FF0000000000000ull) == 0x7FF0000000000000ull)
      return fail(c->err, TLV_ERR_VALUE, at + 8, "property %u: a number that is not finite", (unsigned)i);
    TRY(check_zero(c, r + 16, 8, at + 16, "property"));
  }
  if (c->prop_next != lv->properties.count)
    return fail(c->err, TLV_ERR_VALUE, rec_off(&lv->properties, (uint32_t)c->prop_next, 0), "%llu properties belong to no object",
                (unsigned long long)(lv->properties.count - c->prop_next));
  /* The images fill the blob: nothing after the last one. */
  if (c->blob_next != lv->blob.size)
    return fail(c->err, TLV_ERR_VALUE, lv->blob.offset + c->blob_next, "%llu bytes of the blob belong to no image",
                (unsigned long long)(lv->blob.size - c->blob_next));
  return TLV_OK;
}

/* Every polygon has one user, in file order: the tiles' pieces, then the
 * collision entries', then the polygon shapes (FORMAT.md, POLY "Order"). */
/* Terrain sets (3.3): each names a tileset, takes its colours and labelled
 * tiles in order (using both tables up); tiles ascend within a set and lie in
 * the tileset; colours stay within the set's; positions the kind ignores are 0. */
static TlvResult validate_terrains(Ctx *c) {
  const TlvSection *s = &c->lv->terrain_sets, *cs = &c->lv->terrain_colors, *ts = &c->lv->terrain_tiles;
  uint64_t colors_next = 0, tiles_next = 0;
  uint32_t i, k, t;
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    uint64_t at = rec_off(s, i, 0);
    uint32_t tileset = rd32(r), kind = rd32(r + 8), ncolors = rd32(r + 20), ntiles = rd32(r + 28), tile_count;
    int32_t icon = (int32_t)rd32(r + 12);
    uint8_t ignored;
    if (tileset < 1 || tileset > c->lv->tilesets.count)
      return fail(c->err, TLV_ERR_INDEX, at, "terrain set %u: tileset %u of %u", (unsigned)i, (unsigned)tileset, (unsigned)c->lv->tilesets.count);
    if (i > 0 && tileset < rd32(r - s->stride))
      return fail(c->err, TLV_ERR_VALUE, at, "terrain set %u: tileset %u after %u (sets follow the tilesets)", (unsigned)i, (unsigned)tileset,
                  (unsigned)rd32(r - s->stride));
    tile_count = rd32(c->lv->tilesets.data + (uint64_t)(tileset - 1) * c->lv->tilesets.stride + 40);
    TRY(check_string(c, rd32(r + 4), at + 4, "terrain set name"));
    if (kind > 2) return fail(c->err, TLV_ERR_VALUE, at + 8, "terrain set %u: kind %u (0..2)", (unsigned)i, (unsigned)kind);
    if (icon < -1 || (icon >= 0 && (uint32_t)icon >= tile_count))
      return fail(c->err, TLV_ERR_VALUE, at + 12, "terrain set %u: icon tile %d of %u", (unsigned)i, (int)icon, (unsigned)tile_count);
    if (ncolors > 254) return fail(c->err, TLV_ERR_LIMIT, at + 20, "terrain set %u: %u colours (at most 254)", (unsigned)i, (unsigned)ncolors);
    if (rd32(r + 16) != colors_next || rd32(r + 24) != tiles_next)
      return fail(c->err, TLV_ERR_INDEX, at + 16, "terrain set %u: colours from %u and tiles from %u, expected %llu and %llu (sets take them in order)",
                  (unsigned)i, (unsigned)rd32(r + 16), (unsigned)rd32(r + 24), (unsigned long long)colors_next, (unsigned long long)tiles_next);
    TRY(check_range(c, rd32(r + 16), ncolors, cs, at + 16, "terrain set colours"));
    TRY(check_range(c, rd32(r + 24), ntiles, ts, at + 24, "terrain set tiles"));
    for (k = 0; k < ncolors; k++) {
      const uint8_t *cr = cs->data + (colors_next + k) * cs->stride;
      uint64_t cat = rec_off(cs, (uint32_t)(colors_next + k), 0);
      int32_t ctile = (int32_t)rd32(cr + 12);
      TRY(check_string(c, rd32(cr), cat, "terrain colour name"));
      TRY(check_finite(c, cr, cat, 8, 1, "terrain colour"));
      if (!(rdf32(cr + 8) >= 0.0f)) return fail(c->err, TLV_ERR_VALUE, cat + 8, "terrain colour %u: negative probability", (unsigned)(colors_next + k));
      if (ctile < -1 || (ctile >= 0 && (uint32_t)ctile >= tile_count))
        return fail(c->err, TLV_ERR_VALUE, cat + 12, "terrain colour %u: tile %d of %u", (unsigned)(colors_next + k), (int)ctile, (unsigned)tile_count);
    }
    ignored = kind == 0 ? 0x55u : kind == 1 ? 0xAAu
                                            : 0u; /* corner sets ignore edges, edge sets corners */
    for (t = 0; t < ntiles; t++) {
      const uint8_t *tr = ts->data + (tiles_next + t) * ts->stride;
      uint64_t tat = rec_off(ts, (uint32_t)(tiles_next + t), 0);
      if (rd32(tr) >= tile_count) return fail(c->err, TLV_ERR_INDEX, tat, "terrain tile %u: tile %u of %u", (unsigned)(tiles_next + t), (unsigned)rd32(tr), (unsigned)tile_count);
      if (t > 0 && rd32(tr) <= rd32(tr - ts->stride))
        return fail(c->err, TLV_ERR_VALUE, tat, "terrain tile %u: tile %u after %u (ascending within a set)", (unsigned)(tiles_next + t), (unsigned)rd32(tr),
                    (unsigned)rd32(tr - ts->stride));
      for (k = 0; k < 8; k++) {
        if (tr[4 + k] > ncolors || (((ignored >> k) & 1u) && tr[4 + k]))
          return fail(c->err, TLV_ERR_VALUE, tat + 4 + k, "terrain tile %u: colour %u at position %u (the set has %u, kind %u)", (unsigned)(tiles_next + t),
                      (unsigned)tr[4 + k], (unsigned)k, (unsigned)ncolors, (unsigned)kind);
      }
      TRY(check_finite(c, tr, tat, 12, 1, "terrain tile"));
      if (!(rdf32(tr + 12) >= 0.0f)) return fail(c->err, TLV_ERR_VALUE, tat + 12, "terrain tile %u: negative probability", (unsigned)(tiles_next + t));
    }
    colors_next += ncolors;
    tiles_next += ntiles;
  }
  if (colors_next != cs->count || tiles_next != ts->count)
    return fail(c->err, TLV_ERR_VALUE, s->offset + s->size, "%llu terrain colours and %llu terrain tiles belong to no set",
                (unsigned long long)(cs->count - colors_next), (unsigned long long)(ts->count - tiles_next));
  return TLV_OK;
}

/* 3.5: one record per body, or no section. */
static TlvResult validate_draw_order(Ctx *c) {
  const TlvSection *s = &c->lv->draw_order;
  uint32_t i;
  if (!s->data) return TLV_OK;
  if (s->count != c->lv->bodies.count)
    return fail(c->err, TLV_ERR_VALUE, s->offset, "draw order: %u records for %u bodies", (unsigned)s->count,
                (unsigned)c->lv->bodies.count);
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    int32_t depth = (int32_t)rd32(r);
    uint32_t layer = (uint32_t)r[4] | (uint32_t)r[5] << 8;
    if (depth < -32768 || depth > 32767)
      return fail(c->err, TLV_ERR_VALUE, rec_off(s, i, 0), "draw order %u: depth %ld is outside -32768..32767",
                  (unsigned)i, (long)depth);
    if (layer > 32767u)
      return fail(c->err, TLV_ERR_VALUE, rec_off(s, i, 4), "draw order %u: layer rank %u is past 32767", (unsigned)i,
                  (unsigned)layer);
    if (r[6] & ~1u)
      return fail(c->err, TLV_ERR_VALUE, rec_off(s, i, 6), "draw order %u: unknown flags 0x%02x", (unsigned)i,
                  (unsigned)r[6]);
    TRY(check_zero(c, r + 7, 1, rec_off(s, i, 7), "draw order"));
  }
  return TLV_OK;
}

/* Pixel masks (3.6): one per layer flagged TLV_LAYER_PIXELS, in layer order, then (3.9) the
 * static bodies' (layer 0, 1-based body index rising); each takes its bits from PBIT in order,
 * whole rows, bits past the width 0. */
static TlvResult check_mask_owner(Ctx *c, const uint8_t *r, uint64_t at, uint32_t i, uint32_t *li, uint32_t *last_body) {
  const TlvSection *layers = &c->lv->layers, *bodies = &c->lv->bodies;
  uint32_t layer = rd32(r), body = rd32(r + 28);
  if (body == 0) {
    if (*last_body) return fail(c->err, TLV_ERR_INDEX, at + 28, "pixel mask %u: a layer's mask after a body's", (unsigned)i);
    while (*li < layers->count && !(rd32(layers->data + (uint64_t)*li * layers->stride + 12) & TLV_LAYER_PIXELS)) (*li)++;
    if (*li == layers->count || rd32(layers->data + (uint64_t)*li * layers->stride) != layer)
      return fail(c->err, TLV_ERR_INDEX, at, "pixel mask %u: layer %u is not the next layer that collides by pixels", (unsigned)i, (unsigned)layer);
    (*li)++;
    return TLV_OK;
  }
  if (c->lv->header.minor < 9) return fail(c->err, TLV_ERR_VALUE, at + 28, "pixel mask %u: body %u in a 3.%u file (3.9 and later)", (unsigned)i, (unsigned)body, (unsigned)c->lv->header.minor);
  if (layer != 0) return fail(c->err, TLV_ERR_VALUE, at, "pixel mask %u: both layer %u and body %u", (unsigned)i, (unsigned)layer, (unsigned)body);
  if (body > bodies->count || body <= *last_body)
    return fail(c->err, TLV_ERR_INDEX, at + 28, "pixel mask %u: body %u of %u (bodies' masks in body order, one each)", (unsigned)i, (unsigned)body, (unsigned)bodies->count);
  if (bodies->data[(uint64_t)(body - 1) * bodies->stride + 8] != 0)
    return fail(c->err, TLV_ERR_VALUE, at + 28, "pixel mask %u: body %u is not static", (unsigned)i, (unsigned)body);
  *last_body = body;
  return TLV_OK;
}

static TlvResult validate_pixel_masks(Ctx *c) {
  const TlvSection *s = &c->lv->pixel_masks, *layers = &c->lv->layers;
  uint64_t bits_next = 0;
  uint32_t i, li = 0, last_body = 0;
  for (i = 0; i < s->count; i++) {
    const uint8_t *r = s->data + (uint64_t)i * s->stride;
    uint64_t at = rec_off(s, i, 0), stride_bytes, size;
    uint32_t w = rd32(r + 4), h = rd32(r + 8), material = rd32(r + 12), y;
    float px = rdf32(r + 16);
    TRY(check_mask_owner(c, r, at, i, &li, &last_body));
    if (w < 1 || h < 1 || w > TLV_PIXEL_MASK_MAX_SIDE || h > TLV_PIXEL_MASK_MAX_SIDE)
      return fail(c->err, TLV_ERR_LIMIT, at + 4, "pixel mask %u: %u x %u pixels (1..%u a side)", (unsigned)i, (unsigned)w, (unsigned)h, TLV_PIXEL_MASK_MAX_SIDE);
    if (material > c->lv->materials.count)
      return fail(c->err, TLV_ERR_INDEX, at + 12, "pixel mask %u: material %u of %u", (unsigned)i, (unsigned)material, (unsigned)c->lv->materials.count);
    TRY(check_finite(c, r, at, 16, 3, "pixel mask"));
    if (!(px > 0.0f)) return fail(c->err, TLV_ERR_VALUE, at + 16, "pixel mask %u: pixel size not > 0", (unsigned)i);
    stride_bytes = ((uint64_t)w + 7) / 8;
    size = stride_bytes * h;
    if (rd64(r + 32) != bits_next || rd64(r + 40) != size)
      return fail(c->err, TLV_ERR_VALUE, at + 32, "pixel mask %u: bits at %llu, %llu bytes; expected %llu, %llu (masks take the bits in order)",
                  (unsigned)i, (unsigned long long)rd64(r + 32), (unsigned long long)rd64(r + 40), (unsigned long long)bits_next, (unsigned long long)size);
    if (size > c->lv->pixel_bits.size - bits_next)
      return fail(c->err, TLV_ERR_TRUNCATED, at + 40, "pixel mask %u: bits run past the %llu-byte bit section", (unsigned)i, (unsigned long long)c->lv->pixel_bits.size);
    if (w & 7u)
      for (y = 0; y < h; y++) {
        uint64_t last = bits_next + (uint64_t)y * stride_bytes + stride_bytes - 1;
        if (c->lv->pixel_bits.data[last] >> (w & 7u))
          return fail(c->err, TLV_ERR_VALUE, c->lv->pixel_bits.offset + last, "pixel mask %u: row %u has bits past its width", (unsigned)i, (unsigned)y);
      }
    bits_next += size;
  }
  while (li < layers->count && !(rd32(layers->data + (uint64_t)li * layers->stride + 12) & TLV_LAYER_PIXELS)) li++;
  if (li < layers->count) return fail(c->err, TLV_ERR_VALUE, rec_off(layers, li, 12), "layer %u collides by pixels but has no pixel mask", (unsigned)li);
  if (bits_next != c->lv->pixel_bits.size)
    return fail(c->err, TLV_ERR_VALUE, c->lv->pixel_bits.offset + bits_next, "%llu bytes of pixel bits belong to no mask",
                (unsigned long long)(c->lv->pixel_bits.size - bits_next));
  return TLV_OK;
}

static TlvResult validate_polygon_owners(Ctx *c) {
  const TlvLevel *lv = c->lv;
  uint64_t next = 0;
  uint32_t i;
  for (i = 0; i < lv->tiles.count; i++) {
    const uint8_t *r = lv->tiles.data + (uint64_t)i * lv->tiles.stride;
    if (rd32(r + 8) != next)
      return fail(c->err, TLV_ERR_INDEX, rec_off(&lv->tiles, i, 8), "tile %u: first piece %u, expected %llu (polygons are used in order)",
                  (unsigned)i, (unsigned)rd32(r + 8), (unsigned long long)next);
    next += rd32(r + 12);
  }
  for (i = 0; i < lv->collision_palette.count; i++) {
    const uint8_t *r = lv->collision_palette.data + (uint64_t)i * lv->collision_palette.stride;
    if (rd32(r + 12) != next)
      return fail(c->err, TLV_ERR_INDEX, rec_off(&lv->collision_palette, i, 12),
                  "collision palette %u: first piece %u, expected %llu (polygons are used in order)", (unsigned)i, (unsigned)rd32(r + 12),
                  (unsigned long long)next);
    next += rd32(r + 16);
  }
  for (i = 0; i < lv->shapes.count; i++) {
    const uint8_t *r = lv->shapes.data + (uint64_t)i * lv->shapes.stride;
    if (rd32(r) != TLV_SHAPE_POLYGON) continue;
    if (rd32(r + 24) != next)
      return fail(c->err, TLV_ERR_INDEX, rec_off(&lv->shapes, i, 24), "shape %u: polygon %u, expected %llu (polygons are used in order)",
                  (unsigned)i, (unsigned)rd32(r + 24), (unsigned long long)next);
    next++;
  }
  if (next != lv->polygons.count)
    return fail(c->err, TLV_ERR_VALUE, lv->polygons.offset + next * lv->polygons.stride, "%llu polygons belong to no tile, entry or shape",
                (unsigned long long)(lv->polygons.count - next));
  return TLV_OK;
}

/* ---- Open --------------------------------------------------------------- */

TlvResult tlv_open(const void *data, size_t size, uint32_t options, TlvLevel *out, TlvError *err) {
  const uint8_t *p = (const uint8_t *)data;
  TlvLevel lv;
  TlvHeader h;
  Known known[31];
  TlvSection settings;
  int have_settings = 0;
  uint64_t table_end, expect, pos;
  uint32_t i;
  Ctx c;
  TlvResult r;

  if (!out) return fail(err, TLV_ERR_ARGUMENT, 0, "no output");
  r = tlv_read_header(data, size, &h, err);
  if (r != TLV_OK) return r;

  memset(&lv, 0, sizeof lv);
  memset(&settings, 0, sizeof settings);
  lv.base = p;
  lv.size = h.total_size;
  lv.header = h;
  known_table(&lv, &settings, known);

  table_end = (uint64_t)h.header_size + (uint64_t)h.section_count * TLV_SECTION_ENTRY_SIZE;
  if (rd32(p + 60)) return fail(err, TLV_ERR_VALUE, 60, "reserved header field is not 0");
  for (pos = TLV_HEADER_SIZE; pos < h.header_size; pos++)
    if (p[pos]) return fail(err, TLV_ERR_VALUE, pos, "non-zero byte in the header's reserved space");

  if (!(options & TLV_OPEN_SKIP_CHECKSUMS)) {
    uint8_t head[256];
    uint32_t sum;
    memcpy(head, p, h.header_size);
    memset(head + 52, 0, 4);
    sum = tlv_checksum(head, h.header_size) ^ tlv_checksum(p + h.header_size, (size_t)(table_end - h.header_size));
    if (sum != h.checksum)
      return fail(err, TLV_ERR_CHECKSUM, 52, "header checksum 0x%08x, computed 0x%08x", (unsigned)h.checksum, (unsigned)sum);
  }

  /* Sections follow the table in order, each at the next 16-byte boundary,
   * with zero padding between: the file holds nothing unaccounted for. */
  expect = table_end;
  for (i = 0; i < h.section_count; i++) {
    const uint8_t *e = p + h.header_size + (uint64_t)i * TLV_SECTION_ENTRY_SIZE;
    uint64_t at = h.header_size + (uint64_t)i * TLV_SECTION_ENTRY_SIZE;
    uint32_t type = rd32(e), flags = rd16(e + 4), stride = rd16(e + 6), count = rd32(e + 24), sum = rd32(e + 28);
    uint64_t off = rd64(e + 8), sz = rd64(e + 16), padded = align16(expect);
    char name[5];
    int k, found = -1;
    fourcc_text(type, name);
    if (rd16(e + 4) & ~TLV_SECTION_REQUIRED) return fail(err, TLV_ERR_VALUE, at + 4, "section %s: unknown flags", name);
    if (off != padded) return fail(err, TLV_ERR_RANGE, at + 8, "section %s at offset %llu, expected %llu", name, (unsigned long long)off, (unsigned long long)padded);
    if (off > h.total_size || sz > h.total_size - off)
      return fail(err, TLV_ERR_RANGE, at + 16, "section %s: %llu bytes at %llu run past the end (%llu)", name, (unsigned long long)sz,
                  (unsigned long long)off, (unsigned long long)h.total_size);
    for (pos = expect; pos < off; pos++)
      if (p[pos]) return fail(err, TLV_ERR_VALUE, pos, "non-zero padding before section %s", name);
    expect = off + sz;
    if (!(options & TLV_OPEN_SKIP_CHECKSUMS)) {
      uint32_t got = tlv_checksum(p + off, (size_t)sz);
      if (got != sum) return fail(err, TLV_ERR_CHECKSUM, off, "section %s: checksum 0x%08x, computed 0x%08x", name, (unsigned)sum, (unsigned)got);
    }
    for (k = 0; known[k].type; k++)
      if (known[k].type == type) found = k;
    if (found < 0) {
      if (flags & TLV_SECTION_REQUIRED) return fail(err, TLV_ERR_VERSION, at, "required section %s is unknown to this reader", name);
      lv.unknown_sections++;
      continue;
    }
    if (known[found].slot->data) return fail(err, TLV_ERR_VALUE, at, "section %s appears twice", name);
    if (known[found].min_stride == 0) {
      if (stride != 0 || count != 0) return fail(err, TLV_ERR_VALUE, at + 6, "byte section %s with a record stride or count", name);
    } else {
      uint32_t min = known[found].min_stride;
      if (count > TLV_MAX_RECORDS) return fail(err, TLV_ERR_LIMIT, at + 24, "section %s: %u records (at most %u)", name, (unsigned)count, TLV_MAX_RECORDS);
      if (min == 1) {
        if (stride != 1 && stride != 2 && stride != 4) return fail(err, TLV_ERR_VALUE, at + 6, "section %s: cell width %u", name, (unsigned)stride);
      } else if (stride < min || stride % 4) {
        return fail(err, TLV_ERR_VALUE, at + 6, "section %s: record size %u (at least %u, a multiple of 4)", name, (unsigned)stride, (unsigned)min);
      }
      /* count <= 2^28 and stride < 2^16: the product cannot wrap. */
      if ((uint64_t)count * stride != sz)
        return fail(err, TLV_ERR_VALUE, at + 16, "section %s: %llu bytes for %u records of %u", name, (unsigned long long)sz, (unsigned)count, (unsigned)stride);
    }
    known[found].slot->data = p + off;
    known[found].slot->offset = off;
    known[found].slot->size = sz;
    known[found].slot->count = count;
    known[found].slot->stride = stride;
    if (found == 0) have_settings = 1;
  }
  if (align16(expect) != h.total_size)
    return fail(err, TLV_ERR_RANGE, expect, "sections end at %llu, header says the file has %llu bytes", (unsigned long long)expect,
                (unsigned long long)h.total_size);
  for (pos = expect; pos < h.total_size; pos++)
    if (p[pos]) return fail(err, TLV_ERR_VALUE, pos, "non-zero padding at the end");

  memset(&c, 0, sizeof c);
  c.lv = &lv;
  c.err = err;
  if (!have_settings) return fail(err, TLV_ERR_VALUE, h.header_size, "no settings section");
  if (!lv.strings.data || lv.strings.size < 1 || lv.strings.data[0] != 0 || lv.strings.data[lv.strings.size - 1] != 0)
    return fail(err, TLV_ERR_VALUE, lv.strings.data ? lv.strings.offset : h.header_size,
                "string table missing, or not starting and ending with a NUL byte");
  TRY(validate_strings(&c));
  TRY(validate_settings(&c, &settings));
  TRY(validate_materials(&c));
  TRY(validate_tilesets(&c));
  TRY(validate_tiles(&c));
  TRY(validate_vertices(&c));
  TRY(validate_polygons(&c));
  TRY(validate_palette(&c));
  TRY(validate_layers(&c));
  TRY(validate_collision(&c));
  TRY(validate_geometry(&c));
  TRY(validate_objects(&c));
  TRY(validate_polygon_owners(&c));
  TRY(validate_terrains(&c));
  TRY(validate_draw_order(&c));
  TRY(validate_pixel_masks(&c));
  *out = lv;
  return TLV_OK;
}

/* ---- Accessors ------------------------------------------------------------ */

static const uint8_t *rec(const TlvSection *s, uint32_t i) {
  if (!s->data || i >= s->count) return NULL;
  return s->data + (uint64_t)i * s->stride;
}

int tlv_pixel_mask(const TlvLevel *lv, uint32_t index, TlvPixelMask *out) {
  const uint8_t *r = rec(&lv->pixel_masks, index);
  if (!r || !out) return 0;
  out->layer_id = rd32(r);
  out->width = rd32(r + 4);
  out->height = rd32(r + 8);
  out->material = rd32(r + 12);
  out->pixel_size = rdf32(r + 16);
  out->origin_x = rdf32(r + 20);
  out->origin_y = rdf32(r + 24);
  out->body = rd32(r + 28);
  out->bits = lv->pixel_bits.data + rd64(r + 32);
  out->bits_size = rd64(r + 40);
  return 1;
}

const char *tlv_string(const TlvLevel *lv, uint32_t ref) {
  if (!lv->strings.data || (uint64_t)ref >= lv->strings.size) return "";
  return (const char *)lv->strings.data + ref;
}

int tlv_settings(const TlvLevel *lv, TlvSettings *out) {
  *out = lv->settings;
  return 1;
}

int tlv_material(const TlvLevel *lv, uint32_t index, TlvMaterial *out) {
  const uint8_t *r = rec(&lv->materials, index);
  if (!r) return 0;
  out->id = rd32(r);
  out->name = rd32(r + 4);
  out->color = rd32(r + 8);
  out->kind = rd32(r + 12);
  out->friction = rdf32(r + 16);
  out->restitution = rdf32(r + 20);
  out->tangential = rdf32(r + 24);
  out->density = rdf32(r + 28);
  return 1;
}

int tlv_tileset(const TlvLevel *lv, uint32_t index, TlvTileset *out) {
  const uint8_t *r = rec(&lv->tilesets, index);
  if (!r) return 0;
  out->id = rd32(r);
  out->name = rd32(r + 4);
  out->source = rd32(r + 8);
  out->image_w = rd32(r + 12);
  out->image_h = rd32(r + 16);
  out->tile_w = rd32(r + 20);
  out->tile_h = rd32(r + 24);
  out->margin = rd32(r + 28);
  out->spacing = rd32(r + 32);
  out->columns = rd32(r + 36);
  out->tile_count = rd32(r + 40);
  out->tile_first = rd32(r + 44);
  out->alpha_threshold = rd32(r + 48);
  out->image_offset = rd32(r + 52);
  out->image_size = rd32(r + 56);
  out->placement = lv->header.minor >= 4 ? rd32(r + 60) : TLV_PLACE_FIT_CELL;
  out->offset_x = lv->tilesets.stride >= TLV_TILESET_SIZE_3_4 ? (int32_t)rd32(r + 64) : 0;
  out->offset_y = lv->tilesets.stride >= TLV_TILESET_SIZE_3_4 ? (int32_t)rd32(r + 68) : 0;
  return 1;
}

int tlv_tile(const TlvLevel *lv, uint32_t index, TlvTile *out) {
  const uint8_t *r = rec(&lv->tiles, index);
  if (!r) return 0;
  out->material = rd32(r);
  out->collision = r[4];
  out->one_way = r[5];
  out->polygon_first = rd32(r + 8);
  out->polygon_count = rd32(r + 12);
  return 1;
}

int tlv_polygon(const TlvLevel *lv, uint32_t index, TlvPolygon *out) {
  const uint8_t *r = rec(&lv->polygons, index);
  if (!r) return 0;
  out->vertex_first = rd32(r);
  out->vertex_count = rd32(r + 4);
  return 1;
}

int tlv_vertex(const TlvLevel *lv, uint32_t index, TlvVec2 *out) {
  const uint8_t *r = rec(&lv->vertices, index);
  if (!r) return 0;
  out->x = rdf32(r);
  out->y = rdf32(r + 4);
  return 1;
}

int tlv_layer(const TlvLevel *lv, uint32_t index, TlvLayer *out) {
  const uint8_t *r = rec(&lv->layers, index);
  if (!r) return 0;
  out->id = rd32(r);
  out->name = rd32(r + 4);
  out->kind = rd32(r + 8);
  out->flags = rd32(r + 12);
  out->opacity = rdf32(r + 16);
  out->cell_width = rd32(r + 20);
  out->palette_first = rd32(r + 24);
  out->palette_count = rd32(r + 28);
  out->order = rd32(r + 40);
  out->cells = lv->cells.data + rd64(r + 32);
  return 1;
}

uint32_t tlv_layer_cell(const TlvLevel *lv, const TlvLayer *layer, uint32_t x, uint32_t y) {
  uint32_t v;
  if (x >= lv->settings.width || y >= lv->settings.height) return 0;
  v = cell_at(layer->cells, layer->cell_width, (uint64_t)y * lv->settings.width + x);
  if (layer->kind != TLV_LAYER_TILES) return v;
  return rd32(lv->palette.data + (uint64_t)(layer->palette_first + v) * lv->palette.stride);
}

int tlv_collision_entry(const TlvLevel *lv, uint32_t index, TlvCollisionEntry *out) {
  const uint8_t *r = rec(&lv->collision_palette, index);
  if (!r) return 0;
  out->cell = rd32(r);
  out->material = rd32(r + 4);
  out->kind = r[8];
  out->one_way = r[9];
  out->flags = r[10];
  out->polygon_first = rd32(r + 12);
  out->polygon_count = rd32(r + 16);
  return 1;
}

int tlv_collision_cell(const TlvLevel *lv, uint32_t x, uint32_t y, TlvCollisionEntry *out) {
  uint64_t i = (uint64_t)y * lv->settings.width + x;
  if (x >= lv->settings.width || y >= lv->settings.height || !lv->collision_grid.data) return 0;
  if (!tlv_collision_entry(lv, cell_at(lv->collision_grid.data, lv->collision_grid.stride, i), out)) return 0;
  if ((out->flags & TLV_COLLISION_OVERRIDE) && lv->material_cells) {
    uint32_t m = cell_at(lv->material_cells, lv->material_cell_width, i); /* validated: at most the material count */
    if (m) out->material = m;
  }
  return 1;
}

int64_t tlv_cell_tile_index(const TlvLevel *lv, uint32_t cell) {
  int64_t ts;
  TlvTileset t;
  if (cell == 0) return -1;
  ts = tileset_by_id(lv, (cell >> 16) & 0xFFFu);
  if (ts < 0 || !tlv_tileset(lv, (uint32_t)ts, &t) || (cell & 0xFFFFu) >= t.tile_count) return -1;
  return (int64_t)t.tile_first + (cell & 0xFFFFu);
}

int tlv_loop(const TlvLevel *lv, uint32_t index, TlvLoop *out) {
  const uint8_t *r = rec(&lv->loops, index);
  if (!r) return 0;
  out->corner_first = rd32(r);
  out->corner_count = rd32(r + 4);
  return 1;
}

/* The material of a validated level's cell (the grid exists whenever there is geometry). */
static uint32_t grid_material(const TlvLevel *lv, uint32_t x, uint32_t y) {
  TlvCollisionEntry e;
  return tlv_collision_cell(lv, x, y, &e) ? e.material : 0;
}

int tlv_corner(const TlvLevel *lv, uint32_t index, TlvCorner *out) {
  const uint8_t *r = rec(&lv->corners, index);
  if (!r) return 0;
  out->x = CORNER_COORD(rd16(r));
  out->y = CORNER_COORD(rd16(r + 2));
  out->dir = CORNER_DIR(r);
  out->material = grid_material(lv, out->x - EDGE_CX[out->dir], out->y - EDGE_CY[out->dir]);
  return 1;
}

int tlv_rect(const TlvLevel *lv, uint32_t index, TlvRect *out) {
  const uint8_t *r = rec(&lv->rects, index);
  if (!r) return 0;
  out->x = rd16(r);
  out->y = rd16(r + 2);
  out->w = rd16(r + 4);
  out->h = rd16(r + 6);
  out->material = grid_material(lv, out->x, out->y);
  return 1;
}

int tlv_body(const TlvLevel *lv, uint32_t index, TlvBody *out) {
  const uint8_t *r = rec(&lv->bodies, index);
  if (!r) return 0;
  out->object_id = rd32(r);
  out->name = rd32(r + 4);
  out->type = r[8];
  out->sensor = r[9];
  out->source = r[10];
  out->pin = r[11];
  out->material = rd32(r + 12);
  out->sprite = rd32(r + 16);
  out->category = rd32(r + 20);
  out->mask = rd32(r + 24);
  out->x = rdf32(r + 28);
  out->y = rdf32(r + 32);
  out->angle = rdf32(r + 36);
  out->shape_first = rd32(r + 40);
  out->shape_count = rd32(r + 44);
  out->mass = rdf32(r + 48);
  out->centroid_x = rdf32(r + 52);
  out->centroid_y = rdf32(r + 56);
  out->inertia = rdf32(r + 60);
  out->prop_first = rd32(r + 64);
  out->prop_count = rd32(r + 68);
  out->has_mass = r[72];
  out->integrator = lv->header.minor >= 7 ? r[73] : TLV_INTEGRATOR_EULER;
  return 1;
}

int tlv_shape(const TlvLevel *lv, uint32_t index, TlvShape *out) {
  const uint8_t *r = rec(&lv->shapes, index);
  if (!r) return 0;
  out->kind = rd32(r);
  out->ax = rdf32(r + 4);
  out->ay = rdf32(r + 8);
  out->bx = rdf32(r + 12);
  out->by = rdf32(r + 16);
  out->radius = rdf32(r + 20);
  out->polygon = rd32(r + 24);
  return 1;
}

int tlv_joint(const TlvLevel *lv, uint32_t index, TlvJoint *out) {
  const uint8_t *r = rec(&lv->joints, index);
  if (!r) return 0;
  out->object_id = rd32(r);
  out->name = rd32(r + 4);
  out->kind = rd32(r + 8);
  out->flags = rd32(r + 12);
  out->body_a = rd32(r + 16);
  out->body_b = rd32(r + 20);
  out->ax = rdf32(r + 24);
  out->ay = rdf32(r + 28);
  out->bx = rdf32(r + 32);
  out->by = rdf32(r + 36);
  out->length = rdf32(r + 40);
  out->lower = rdf32(r + 44);
  out->upper = rdf32(r + 48);
  out->prop_first = rd32(r + 52);
  out->prop_count = rd32(r + 56);
  /* 3.0 records end before the motor: it reads as off. */
  out->motor_speed = lv->joints.stride >= TLV_JOINT_SIZE_3_1 ? rdf32(r + 64) : 0.0f;
  out->motor_torque = lv->joints.stride >= TLV_JOINT_SIZE_3_1 ? rdf32(r + 68) : 0.0f;
  return 1;
}

int tlv_zone(const TlvLevel *lv, uint32_t index, TlvZone *out) {
  const uint8_t *r = rec(&lv->zones, index);
  if (!r) return 0;
  out->object_id = rd32(r);
  out->name = rd32(r + 4);
  out->kind = rd32(r + 8);
  out->x = rdf32(r + 12);
  out->y = rdf32(r + 16);
  out->angle = rdf32(r + 20);
  out->width = rdf32(r + 24);
  out->height = rdf32(r + 28);
  out->vx = rdf32(r + 32);
  out->vy = rdf32(r + 36);
  out->strength = rdf32(r + 40);
  out->radius = rdf32(r + 44);
  out->prop_first = rd32(r + 48);
  out->prop_count = rd32(r + 52);
  return 1;
}

int tlv_spawn(const TlvLevel *lv, uint32_t index, TlvSpawn *out) {
  const uint8_t *r = rec(&lv->spawns, index);
  if (!r) return 0;
  out->object_id = rd32(r);
  out->name = rd32(r + 4);
  out->x = rdf32(r + 8);
  out->y = rdf32(r + 12);
  out->angle = rdf32(r + 16);
  out->prop_first = rd32(r + 20);
  out->prop_count = rd32(r + 24);
  return 1;
}

int tlv_launcher(const TlvLevel *lv, uint32_t index, TlvLauncher *out) {
  const uint8_t *r = rec(&lv->launchers, index);
  if (!r) return 0;
  out->object_id = rd32(r);
  out->name = rd32(r + 4);
  out->x = rdf32(r + 8);
  out->y = rdf32(r + 12);
  out->angle = rdf32(r + 16);
  out->speed = rdf32(r + 20);
  out->radius = rdf32(r + 24);
  out->material = rd32(r + 28);
  out->sprite = rd32(r + 32);
  out->prop_first = rd32(r + 36);
  out->prop_count = rd32(r + 40);
  return 1;
}

int tlv_sprite(const TlvLevel *lv, uint32_t index, TlvSprite *out) {
  const uint8_t *r = rec(&lv->sprites, index);
  if (!r) return 0;
  out->id = rd32(r);
  out->name = rd32(r + 4);
  out->source = rd32(r + 8);
  out->image_w = rd32(r + 12);
  out->image_h = rd32(r + 16);
  out->frame_count = rd32(r + 20);
  out->frame_rate = rdf32(r + 24);
  out->anchor_x = rdf32(r + 28);
  out->anchor_y = rdf32(r + 32);
  out->image_offset = rd32(r + 36);
  out->image_size = rd32(r + 40);
  return 1;
}

int tlv_property(const TlvLevel *lv, uint32_t index, TlvProperty *out) {
  const uint8_t *r = rec(&lv->properties, index);
  if (!r) return 0;
  out->name = rd32(r);
  out->type = rd32(r + 4);
  out->i = (int64_t)rd64(r + 8);
  out->f = rdf64(r + 8);
  return 1;
}

const uint8_t *tlv_blob(const TlvLevel *lv, uint32_t offset, uint32_t size) {
  if (size == 0 || !lv->blob.data || (uint64_t)offset + size > lv->blob.size) return NULL;
  return lv->blob.data + offset;
}

int tlv_section_info(const TlvLevel *lv, uint32_t index, TlvSectionInfo *out) {
  const uint8_t *e;
  if (index >= lv->header.section_count) return 0;
  e = lv->base + lv->header.header_size + (uint64_t)index * TLV_SECTION_ENTRY_SIZE;
  out->type = rd32(e);
  out->flags = rd16(e + 4);
  out->stride = rd16(e + 6);
  out->offset = rd64(e + 8);
  out->size = rd64(e + 16);
  out->count = rd32(e + 24);
  out->checksum = rd32(e + 28);
  return 1;
}

int tlv_terrain_set(const TlvLevel *lv, uint32_t index, TlvTerrainSet *out) {
  const uint8_t *r = rec(&lv->terrain_sets, index);
  if (!r) return 0;
  out->tileset = rd32(r);
  out->name = rd32(r + 4);
  out->kind = rd32(r + 8);
  out->tile = (int32_t)rd32(r + 12);
  out->color_first = rd32(r + 16);
  out->color_count = rd32(r + 20);
  out->tile_first = rd32(r + 24);
  out->tile_count = rd32(r + 28);
  return 1;
}

int tlv_terrain_color(const TlvLevel *lv, uint32_t index, TlvTerrainColor *out) {
  const uint8_t *r = rec(&lv->terrain_colors, index);
  if (!r) return 0;
  out->name = rd32(r);
  out->color = rd32(r + 4);
  out->probability = rdf32(r + 8);
  out->tile = (int32_t)rd32(r + 12);
  return 1;
}

int tlv_body_draw(const TlvLevel *lv, uint32_t index, TlvBodyDraw *out) {
  const uint8_t *r;
  if (index >= lv->bodies.count) return 0;
  r = rec(&lv->draw_order, index);
  out->depth = r ? (int32_t)rd32(r) : 0;
  out->layer = r ? ((uint32_t)r[4] | (uint32_t)r[5] << 8) : 0;
  out->y_sort = r ? (uint8_t)(r[6] & 1u) : 0;
  return 1;
}

int tlv_terrain_tile(const TlvLevel *lv, uint32_t index, TlvTerrainTile *out) {
  const uint8_t *r = rec(&lv->terrain_tiles, index);
  if (!r) return 0;
  out->tile = rd32(r);
  memcpy(out->wang, r + 4, 8);
  out->probability = rdf32(r + 12);
  return 1;
}
