/* Hostile .tlv files: every truncation, random byte flips, offsets outside
 * the file, counts that overflow 32-bit multiplication, indices past their
 * tables. Each must be refused with an error (never a crash or an
 * out-of-bounds read: CI runs this under AddressSanitizer and UBSan). The
 * checksums catch random flips, so each case also runs with the checksums
 * recomputed over the hostile bytes: the structure checks alone must hold. */
#include <string.h>

#include "check.h"
#include "pack_fixture.h"
#include "tessera/pack.h"
#include "tessera/scene.h"
#include "tlv_reader.h"
#include "tlv_reseal.h"
#include "tlv_walk.h"

/* What the walks read, kept so the reads cannot be optimised away. */
volatile uint64_t tlv_hostile_sink;

static uint8_t *small_tlv(size_t *size) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.width = 12;
  spec.height = 8;
  spec.bodies = 6;
  spec.joints = 3;
  TessProject *p = pack_fixture_project(11, &spec);
  uint8_t *data = NULL;
  TessError err;
  if (p) CHECK_OK(tess_pack_write(p, p->levels[0], NULL, &data, size, &err), &err);
  tess_project_destroy(p);
  return data;
}

/* Opens a private copy of exactly `size` bytes (so ASan sees any overread);
 * on success reads everything. */
static TlvResult open_copy(const uint8_t *bytes, size_t size, uint32_t options, TlvError *err) {
  uint8_t *copy = tess_alloc(size ? size : 1);
  if (size) memcpy(copy, bytes, size);
  TlvLevel lv;
  TlvResult r = tlv_open(copy, size, options, &lv, err);
  if (r == TLV_OK) tlv_hostile_sink += tlv_walk(&lv);
  tess_free(copy);
  return r;
}

static void the_small_file_opens(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  CHECK(data != NULL);
  if (!data) return;
  TlvError err;
  CHECK(open_copy(data, size, 0, &err) == TLV_OK);
  CHECK(size < 16384);
  tess_free(data);
}

static void every_truncation_is_refused(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  for (size_t len = 0; len < size; len++) {
    TlvError err;
    TlvResult r = open_copy(data, len, 0, &err);
    CHECK_MSG(r != TLV_OK, "truncated to %zu of %zu bytes: accepted", len, size);
    r = open_copy(data, len, TLV_OPEN_SKIP_CHECKSUMS, &err);
    CHECK_MSG(r != TLV_OK, "truncated to %zu (no checksums): accepted", len);
    if (len >= TLV_HEADER_SIZE) CHECK(err.code == TLV_ERR_TRUNCATED);
  }
  tess_free(data);
}

static void random_byte_flips_are_refused(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  uint8_t *work = tess_alloc(size);
  TessTestRng rng = {0x5eed};
  int accepted_resealed = 0;
  for (int n = 0; n < 10000; n++) {
    memcpy(work, data, size);
    size_t at = tess_rng_below(&rng, (uint32_t)size);
    uint8_t flip = (uint8_t)(1 + tess_rng_below(&rng, 255));
    work[at] ^= flip;
    TlvError err;
    TlvResult r = open_copy(work, size, 0, &err);
    CHECK_MSG(r != TLV_OK, "flip 0x%02x at byte %zu accepted", flip, at);
    /* With checksums recomputed the flip may be a legal value (a position);
     * then everything must still read safely. */
    tlv_reseal(work, size);
    if (open_copy(work, size, 0, &err) == TLV_OK) accepted_resealed++;
  }
  printf("  resealed flips that were still well-formed: %d of 10000\n", accepted_resealed);
  tess_free(work);
  tess_free(data);
}

static void random_garbage_runs_stay_safe(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  uint8_t *work = tess_alloc(size);
  TessTestRng rng = {77};
  for (int n = 0; n < 3000; n++) {
    memcpy(work, data, size);
    uint32_t runs = 1 + tess_rng_below(&rng, 4);
    for (uint32_t k = 0; k < runs; k++) {
      size_t at = tess_rng_below(&rng, (uint32_t)size), len = 1 + tess_rng_below(&rng, 16);
      for (size_t i = at; i < at + len && i < size; i++) {
        uint64_t v = tess_rng_next(&rng);
        /* Interesting values more often than uniform noise. */
        work[i] = (v & 3) == 0 ? 0xFF : (v & 3) == 1 ? 0x00
                                    : (v & 3) == 2   ? 0x80
                                                     : (uint8_t)(v >> 8);
      }
    }
    tlv_reseal(work, size);
    TlvError err;
    (void)open_copy(work, size, 0, &err);
  }
  tess_free(work);
  tess_free(data);
}

/* Edits one field (after the caller's change, checksums resealed) and
 * expects refusal with `code`. */
static void expect_refused(uint8_t *work, size_t size, TlvResult code, const char *what) {
  tlv_reseal(work, size);
  TlvError err;
  memset(&err, 0, sizeof err);
  TlvResult r = open_copy(work, size, 0, &err);
  CHECK_MSG(r != TLV_OK, "%s: accepted", what);
  if (code != TLV_OK) CHECK_MSG(r == code, "%s: %s (%s), expected %s", what, tlv_result_string(r), err.message, tlv_result_string(code));
  CHECK_MSG(err.message[0] != 0 && err.offset <= size, "%s: no message or offset %llu", what, (unsigned long long)err.offset);
  r = open_copy(work, size, TLV_OPEN_SKIP_CHECKSUMS, &err);
  CHECK_MSG(r != TLV_OK, "%s: accepted without checksums", what);
}

static void offsets_outside_the_file_are_refused(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  uint8_t *work = tess_alloc(size);
  uint32_t count = tlv_get32(data + 20);
  CHECK(count > 10);
  static const uint64_t offsets[] = {0, 8, 1ull << 32, 1ull << 63, UINT64_MAX - 15, UINT64_MAX};
  for (uint32_t i = 0; i < count; i++) {
    size_t e = TLV_HEADER_SIZE + (size_t)i * TLV_SECTION_ENTRY_SIZE;
    for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
      memcpy(work, data, size);
      tlv_put64(work + e + 8, offsets[k]);
      expect_refused(work, size, TLV_ERR_RANGE, "section offset");
      memcpy(work, data, size);
      tlv_put64(work + e + 16, offsets[k] ? offsets[k] : size + 1);
      expect_refused(work, size, TLV_OK, "section size");
      memcpy(work, data, size);
      tlv_put64(work + e + 8, size + 16 * k); /* past the end, 16-aligned */
      expect_refused(work, size, TLV_OK, "section past the end");
    }
  }
  /* The header's total size and section count. */
  memcpy(work, data, size);
  tlv_put64(work + 24, size + 16);
  expect_refused(work, size, TLV_ERR_TRUNCATED, "total size beyond the file");
  memcpy(work, data, size);
  tlv_put64(work + 24, UINT64_MAX - 15);
  expect_refused(work, size, TLV_ERR_TRUNCATED, "total size near 2^64");
  memcpy(work, data, size);
  tlv_put32(work + 20, 0xFFFFFFFFu);
  expect_refused(work, size, TLV_ERR_LIMIT, "section count 2^32-1");
  memcpy(work, data, size);
  tlv_put32(work + 20, count + 1);
  expect_refused(work, size, TLV_OK, "one section more than written");
  tess_free(work);
  tess_free(data);
}

/* Record counts whose product with the record size wraps in 32 bits. */
static void counts_overflowing_32_bits_are_refused(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  uint8_t *work = tess_alloc(size);
  static const uint32_t types[] = {TLV_SEC_BODIES, TLV_SEC_RECTS, TLV_SEC_VERTICES, TLV_SEC_CORNERS, TLV_SEC_MATERIALS,
                                   TLV_SEC_COLLISION_GRID, TLV_SEC_PALETTE, TLV_SEC_LAYERS};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    size_t e = tlv_find_entry(data, size, types[t]);
    CHECK_MSG(e != 0, "section %zu missing from the small file", t);
    if (!e) continue;
    uint32_t stride = (uint32_t)(data[e + 6] | data[e + 7] << 8);
    uint64_t bytes = tlv_get64(data + e + 16);
    /* count * stride == bytes (mod 2^32): a reader multiplying in 32 bits would agree. */
    uint32_t wrap = (uint32_t)((bytes + (1ull << 32)) / stride);
    uint32_t cases[] = {0x80000000u, 0xFFFFFFFFu, (uint32_t)(0x100000000ull / stride + 1), wrap};
    for (size_t k = 0; k < 4; k++) {
      if (cases[k] == tlv_get32(data + e + 24)) continue; /* stride 1: the wrapped count is the real one */
      memcpy(work, data, size);
      tlv_put32(work + e + 24, cases[k]);
      char what[64];
      snprintf(what, sizeof what, "overflowing count %zu/%zu (0x%08x)", t, k, cases[k]);
      expect_refused(work, size, TLV_OK, what);
    }
    memcpy(work, data, size);
    work[e + 6] = 0xFF;
    work[e + 7] = 0xFF; /* stride 65535 */
    expect_refused(work, size, TLV_OK, "huge stride");
  }
  tess_free(work);
  tess_free(data);
}

static size_t record(const uint8_t *data, size_t size, uint32_t type, uint32_t index) {
  size_t e = tlv_find_entry(data, size, type);
  if (!e) return 0;
  uint32_t stride = (uint32_t)(data[e + 6] | data[e + 7] << 8);
  if (index >= tlv_get32(data + e + 24)) return 0;
  return (size_t)tlv_get64(data + e + 8) + (size_t)index * stride;
}

typedef struct FieldCase {
  uint32_t type;
  uint32_t field; /* byte offset in the record */
  uint32_t width; /* 4 or 8 */
  uint64_t value;
  TlvResult code;
  const char *what;
} FieldCase;

static void indices_past_their_tables_are_refused(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  uint8_t *work = tess_alloc(size);
  static const FieldCase cases[] = {
      {TLV_SEC_SETTINGS, 0, 4, 0, TLV_ERR_LIMIT, "zero width"},
      {TLV_SEC_SETTINGS, 4, 4, 16385, TLV_ERR_LIMIT, "height beyond the limit"},
      {TLV_SEC_SETTINGS, 0, 4, 0xFFFFFFFFu, TLV_ERR_LIMIT, "width 2^32-1"},
      {TLV_SEC_SETTINGS, 16, 4, 0x7FC00000u, TLV_ERR_VALUE, "NaN pixels per metre"},
      {TLV_SEC_SETTINGS, 44, 4, 0xFFFFFFF0u, TLV_ERR_INDEX, "level name outside the strings"},
      {TLV_SEC_MATERIALS, 4, 4, 0x7FFFFFFFu, TLV_ERR_INDEX, "material name"},
      {TLV_SEC_MATERIALS, 12, 4, 9, TLV_ERR_VALUE, "material kind"},
      {TLV_SEC_TILESETS, 44, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "tileset tile_first wrapping"},
      {TLV_SEC_TILESETS, 40, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "tileset tile_count"},
      {TLV_SEC_TILESETS, 56, 4, 0x1000u, TLV_ERR_RANGE, "tileset image outside the blob"},
      {TLV_SEC_TILES, 0, 4, 1000, TLV_ERR_INDEX, "tile material"},
      {TLV_SEC_TILES, 8, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "tile polygon_first"},
      {TLV_SEC_POLYGONS, 0, 4, 0xFFFFFFFEu, TLV_ERR_INDEX, "polygon vertex range wrapping"},
      {TLV_SEC_POLYGONS, 4, 4, 9, TLV_ERR_VALUE, "polygon of 9 vertices"},
      {TLV_SEC_POLYGONS, 4, 4, 2, TLV_ERR_VALUE, "polygon of 2 vertices"},
      {TLV_SEC_VERTICES, 0, 4, 0x7F800000u, TLV_ERR_VALUE, "infinite vertex"},
      {TLV_SEC_LAYERS, 24, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "layer palette_first"},
      {TLV_SEC_LAYERS, 28, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "layer palette_count"},
      {TLV_SEC_LAYERS, 20, 4, 3, TLV_ERR_VALUE, "layer cell width 3"},
      {TLV_SEC_LAYERS, 32, 8, 0xFFFFFFFFFFFFFFF0ull, TLV_ERR_RANGE, "layer cells at 2^64-16"},
      {TLV_SEC_LAYERS, 32, 8, 8, TLV_ERR_VALUE, "layer cells misaligned"},
      {TLV_SEC_LAYERS, 16, 4, 0x40000000u, TLV_ERR_VALUE, "layer opacity 2"},
      {TLV_SEC_PALETTE, 4, 4, 0x0FFF0000u, TLV_ERR_INDEX, "palette cell naming a missing tileset"},
      {TLV_SEC_PALETTE, 4, 4, 0x1001FFFFu, TLV_ERR_VALUE, "palette cell with the reserved bit"},
      {TLV_SEC_COLLISION_PALETTE, 4, 4, 77, TLV_ERR_INDEX, "collision material"},
      {TLV_SEC_COLLISION_PALETTE, 8, 4, 5, TLV_ERR_VALUE, "collision kind"},
      {TLV_SEC_COLLISION_PALETTE, 12, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "collision pieces wrapping"},
      {TLV_SEC_COLLISION_PALETTE, 16, 4, 0x10000000u, TLV_ERR_LIMIT, "collision piece count"},
      {TLV_SEC_COLLISION_PALETTE, 16, 4, 4000, TLV_ERR_INDEX, "collision pieces past the polygons"},
      {TLV_SEC_SETTINGS, 52, 4, 0, TLV_ERR_VALUE, "zero cell width in metres"},
      {TLV_SEC_BODIES, 72, 4, 7, TLV_ERR_VALUE, "body mass flag"},
      {TLV_SEC_LOOPS, 0, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "loop corner_first"},
      {TLV_SEC_LOOPS, 4, 4, 0x40000000u, TLV_ERR_INDEX, "loop corner_count"},
      {TLV_SEC_LOOPS, 4, 4, 3, TLV_ERR_VALUE, "loop of 3 corners"},
      {TLV_SEC_LOOPS, 0, 4, 1, TLV_ERR_INDEX, "loop corners not in order"},
      {TLV_SEC_TILES, 12, 4, 5000, TLV_ERR_LIMIT, "tile with 5000 pieces"},
      {TLV_SEC_BODIES, 40, 4, 1, TLV_ERR_INDEX, "body shapes not in order"},
      {TLV_SEC_CORNERS, 0, 4, 0x00007FFFu, TLV_ERR_RANGE, "corner outside the lattice"},
      {TLV_SEC_CORNERS, 0, 4, 0x80000000u, TLV_ERR_RANGE, "corner at the origin heading west"},
      {TLV_SEC_RECTS, 0, 4, 0xFFFFFFFFu, TLV_ERR_RANGE, "rect x and y wrapping"},
      {TLV_SEC_RECTS, 4, 4, 0x00000001u, TLV_ERR_RANGE, "rect of height 0"},
      {TLV_SEC_BODIES, 12, 4, 99, TLV_ERR_INDEX, "body material"},
      {TLV_SEC_BODIES, 16, 4, 99, TLV_ERR_INDEX, "body sprite"},
      {TLV_SEC_BODIES, 40, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "body shape_first"},
      {TLV_SEC_BODIES, 44, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "body shape_count"},
      {TLV_SEC_TILESETS, 0, 4, 4096, TLV_ERR_VALUE, "tileset id 4096"},
      {TLV_SEC_BODIES, 64, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "body prop_first"},
      {TLV_SEC_BODIES, 48, 4, 0xBF800000u, TLV_ERR_VALUE, "negative mass"},
      {TLV_SEC_SHAPES, 0, 4, 3, TLV_ERR_VALUE, "shape kind"},
      {TLV_SEC_JOINTS, 16, 4, 1000, TLV_ERR_INDEX, "joint body a"},
      {TLV_SEC_JOINTS, 20, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "joint body b"},
      {TLV_SEC_JOINTS, 56, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "joint prop_count"},
      {TLV_SEC_JOINTS, 12, 4, 0x8u, TLV_ERR_VALUE, "joint flag bit 3"},
      {TLV_SEC_JOINTS, 12, 4, 0x80000005u, TLV_ERR_VALUE, "joint flag bit 31"},
      {TLV_SEC_JOINTS, 64, 4, 0x7FC00000u, TLV_ERR_VALUE, "NaN motor speed"},
      {TLV_SEC_JOINTS, 64, 4, 0xFF800000u, TLV_ERR_VALUE, "infinite motor speed"},
      {TLV_SEC_JOINTS, 68, 4, 0x7F800000u, TLV_ERR_VALUE, "infinite motor torque"},
      {TLV_SEC_JOINTS, 68, 4, 0xBF800000u, TLV_ERR_VALUE, "negative motor torque"},
      {TLV_SEC_JOINTS, 68, 4, 0x80000001u, TLV_ERR_VALUE, "tiny negative motor torque"},
      {TLV_SEC_JOINTS, 68, 4, 0x7FC00000u, TLV_ERR_VALUE, "NaN motor torque"},
      {TLV_SEC_ZONES, 8, 4, 4, TLV_ERR_VALUE, "zone kind"},
      {TLV_SEC_SPAWNS, 4, 4, 0xFFFFFFFFu, TLV_ERR_INDEX, "spawn name"},
      {TLV_SEC_SPRITES, 20, 4, 0, TLV_ERR_VALUE, "sprite without frames"},
      {TLV_SEC_PROPERTIES, 4, 4, 9, TLV_ERR_VALUE, "property type"},
      {TLV_SEC_PROPERTIES, 0, 4, 0xFFFFFFF0u, TLV_ERR_INDEX, "property name"},
  };
  int tested = 0;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const FieldCase *c = &cases[k];
    size_t at = record(data, size, c->type, 0);
    if (c->type == TLV_SEC_PALETTE) at = record(data, size, c->type, 1) - 4; /* entry 1 (entry 0 is the empty cell) */
    if (c->type == TLV_SEC_SHAPES || c->type == TLV_SEC_SPRITES) continue;   /* below */
    CHECK_MSG(at != 0, "%s: section missing in the small file", c->what);
    if (!at) continue;
    memcpy(work, data, size);
    if (c->width == 8) tlv_put64(work + at + c->field, c->value);
    else tlv_put32(work + at + c->field, (uint32_t)c->value);
    expect_refused(work, size, c->code, c->what);
    tested++;
  }
  CHECK(tested > 40);
  /* A polygon shape naming a polygon past the table. */
  size_t e = tlv_find_entry(data, size, TLV_SEC_SHAPES);
  for (uint32_t i = 0; e && i < tlv_get32(data + e + 24); i++) {
    size_t at = record(data, size, TLV_SEC_SHAPES, i);
    if (tlv_get32(data + at) != TLV_SHAPE_POLYGON) continue;
    memcpy(work, data, size);
    tlv_put32(work + at + 24, 0xFFFFFFu);
    expect_refused(work, size, TLV_ERR_INDEX, "shape polygon");
    break;
  }
  /* Cells: a tile layer cell past its palette; a material cell past the materials; the collision grid. */
  TlvLevel lv;
  TlvError err;
  CHECK(tlv_open(data, size, 0, &lv, &err) == TLV_OK);
  /* A corner whose direction bits (bit 15 of x and y) put the cell on its
   * edge's right outside the level: the last column heading south is fine
   * (cell x-1), heading west from x = 0 is not. */
  {
    size_t at = (size_t)lv.corners.offset;
    uint32_t v = tlv_get32(data + at), y = (v >> 16) & 0x7FFFu;
    memcpy(work, data, size);
    tlv_put32(work + at, (y + 1) << 16 | 1u << 31); /* (0, y+1) heading west: direction 2, bit 15 of y */
    expect_refused(work, size, TLV_ERR_RANGE, "corner at x 0 heading west");
    memcpy(work, data, size);
    tlv_put32(work + at, lv.settings.width | y << 16); /* (width, y) heading east */
    expect_refused(work, size, TLV_ERR_RANGE, "corner on the right border heading east");
  }
  /* Corners after the last loop (its count one short; a loop of 4 would
   * fall below the minimum, also a value error). */
  if (lv.loops.count > 0) {
    size_t at = record(data, size, TLV_SEC_LOOPS, lv.loops.count - 1);
    memcpy(work, data, size);
    tlv_put32(work + at + 4, tlv_get32(data + at + 4) - 1);
    expect_refused(work, size, TLV_ERR_VALUE, "a corner of no loop");
  }
  /* Merged geometry takes its materials from the collision grid: none without it. */
  {
    size_t g = tlv_find_entry(data, size, TLV_SEC_COLLISION_GRID);
    CHECK(g != 0);
    if (g) {
      memcpy(work, data, size);
      tlv_put32(work + g, TLV_FOURCC('X', 'G', 'R', 'D')); /* unknown, optional: skipped, so no grid */
      work[g + 4] = 0;
      expect_refused(work, size, TLV_ERR_VALUE, "loops without a collision grid");
    }
  }
  for (uint32_t i = 0; i < lv.layers.count; i++) {
    TlvLayer layer;
    tlv_layer(&lv, i, &layer);
    size_t cell = (size_t)((const uint8_t *)layer.cells - data) + 5 * layer.cell_width;
    memcpy(work, data, size);
    memset(work + cell, 0xFF, layer.cell_width);
    expect_refused(work, size, TLV_ERR_INDEX, layer.kind == TLV_LAYER_TILES ? "tile cell past its palette" : "material cell");
  }
  /* Two layers sharing one cell array (a quadratic-time trap): refused. */
  if (lv.layers.count >= 2) {
    size_t l0 = record(data, size, TLV_SEC_LAYERS, 0), l1 = record(data, size, TLV_SEC_LAYERS, 1);
    memcpy(work, data, size);
    memcpy(work + l1 + 32, work + l0 + 32, 8);
    expect_refused(work, size, TLV_ERR_RANGE, "layers sharing their cells");
  }
  /* The collision entries' flags (byte 10; byte 11 reserved): unknown bits refused. */
  {
    size_t at = record(data, size, TLV_SEC_COLLISION_PALETTE, 0);
    CHECK(at != 0 && data[at + 10] == TLV_COLLISION_OVERRIDE);
    static const uint8_t bad_flags[] = {0x02, 0x80, 0xFF};
    for (size_t k = 0; at && k < sizeof bad_flags; k++) {
      memcpy(work, data, size);
      work[at + 10] = bad_flags[k];
      expect_refused(work, size, TLV_ERR_VALUE, "collision entry with unknown flags");
    }
    if (at) {
      memcpy(work, data, size);
      work[at + 11] = 1;
      expect_refused(work, size, TLV_ERR_VALUE, "collision entry with its reserved byte set");
    }
  }
  /* Every entry flagged and every material cell at the largest legal
   * value: accepted, and every cell reads a material that exists. */
  {
    memcpy(work, data, size);
    for (uint32_t k = 0; k < lv.collision_palette.count; k++)
      work[lv.collision_palette.offset + (size_t)k * lv.collision_palette.stride + 10] = TLV_COLLISION_OVERRIDE;
    CHECK(lv.material_cells != NULL);
    size_t mc = (size_t)((const uint8_t *)lv.material_cells - data);
    for (size_t k = 0; k < (size_t)lv.settings.width * lv.settings.height; k++) {
      uint32_t v = lv.materials.count;
      for (uint32_t b = 0; b < lv.material_cell_width; b++) work[mc + k * lv.material_cell_width + b] = (uint8_t)(v >> (8 * b));
    }
    tlv_reseal(work, size);
    TlvLevel hl;
    TlvError herr;
    TlvResult hr = tlv_open(work, size, 0, &hl, &herr);
    CHECK_MSG(hr == TLV_OK, "%s", herr.message);
    if (hr == TLV_OK && hl.material_cells) {
      TlvCollisionEntry ce;
      CHECK(tlv_collision_cell(&hl, lv.settings.width - 1, lv.settings.height - 1, &ce) && ce.material == lv.materials.count);
      TlvMaterial m;
      CHECK(tlv_material(&hl, ce.material - 1, &m));
      tlv_hostile_sink += tlv_walk(&hl);
    }
    /* One past the materials: refused (the reader would hand out a bad index). */
    for (uint32_t b = 0; b < lv.material_cell_width; b++) work[mc + b] = (uint8_t)((lv.materials.count + 1) >> (8 * b));
    expect_refused(work, size, TLV_ERR_INDEX, "material layer cell past the materials");
  }
  memcpy(work, data, size);
  memset(work + lv.collision_grid.offset + 7 * lv.collision_grid.stride, 0xFF, lv.collision_grid.stride);
  expect_refused(work, size, TLV_ERR_INDEX, "collision cell past its palette");
  /* The string table must end in a NUL so no string runs off the end. */
  memcpy(work, data, size);
  work[lv.strings.offset + lv.strings.size - 1] = 'x';
  expect_refused(work, size, TLV_ERR_VALUE, "string table without a final NUL");
  tess_free(work);
  tess_free(data);
}

/* `data` rewritten as format 3.0 wrote it: 64-byte joints (the motor cut
 * off), every other section as it was, offsets and checksums redone; the
 * motor flag is kept only if keep_motor_flag. Caller frees. */
static uint8_t *as_format_3_0(const uint8_t *data, size_t size, bool keep_motor_flag, size_t *out_size) {
  uint32_t header = tlv_get32(data + 16), n = tlv_get32(data + 20);
  uint8_t *out = tess_calloc(1, size);
  size_t table = header, pos = (header + (size_t)n * TLV_SECTION_ENTRY_SIZE + 15) & ~(size_t)15;
  memcpy(out, data, header + (size_t)n * TLV_SECTION_ENTRY_SIZE);
  out[10] = 0;
  out[11] = 0; /* minor 0 */
  uint64_t last = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *e = out + table + (size_t)i * TLV_SECTION_ENTRY_SIZE;
    uint64_t off = tlv_get64(e + 8), sz = tlv_get64(e + 16);
    CHECK(off >= last); /* laid out in table order */
    last = off;
    if (tlv_get32(e) == TLV_SEC_JOINTS) {
      uint32_t count = tlv_get32(e + 24), stride = (uint32_t)(e[6] | e[7] << 8);
      CHECK(stride == TLV_JOINT_SIZE_3_1);
      for (uint32_t k = 0; k < count; k++) {
        memcpy(out + pos + (size_t)k * TLV_JOINT_SIZE, data + off + (size_t)k * stride, TLV_JOINT_SIZE);
        uint8_t *flags = out + pos + (size_t)k * TLV_JOINT_SIZE + 12;
        if (!keep_motor_flag) tlv_put32(flags, tlv_get32(flags) & ~TLV_JOINT_MOTOR);
      }
      sz = (uint64_t)count * TLV_JOINT_SIZE;
      e[6] = (uint8_t)TLV_JOINT_SIZE;
      e[7] = 0;
    } else if (tlv_get32(e) == TLV_SEC_TILESETS) {
      /* 3.0's 64-byte tileset, its word at 60 reserved (0): tiles scaled
       * into the cell, which the fixture's grid-sized tiles do not notice. */
      uint32_t count = tlv_get32(e + 24), stride = (uint32_t)(e[6] | e[7] << 8);
      CHECK(stride == TLV_TILESET_SIZE_3_4);
      for (uint32_t k = 0; k < count; k++) {
        memcpy(out + pos + (size_t)k * TLV_TILESET_SIZE, data + off + (size_t)k * stride, TLV_TILESET_SIZE);
        tlv_put32(out + pos + (size_t)k * TLV_TILESET_SIZE + 60, 0);
      }
      sz = (uint64_t)count * TLV_TILESET_SIZE;
      e[6] = (uint8_t)TLV_TILESET_SIZE;
      e[7] = 0;
    } else {
      memcpy(out + pos, data + off, (size_t)sz);
      /* 3.7's integrator (body byte 73) and spring zones (kind 3) did not exist in 3.0:
       * bodies go on Euler, springs become attractors */
      uint32_t count = tlv_get32(e + 24), stride = (uint32_t)(e[6] | e[7] << 8);
      for (uint32_t k = 0; tlv_get32(e) == TLV_SEC_BODIES && k < count; k++) out[pos + (size_t)k * stride + 73] = 0;
      for (uint32_t k = 0; tlv_get32(e) == TLV_SEC_ZONES && k < count; k++)
        if (tlv_get32(out + pos + (size_t)k * stride + 8) == 3) tlv_put32(out + pos + (size_t)k * stride + 8, 2);
    }
    tlv_put64(e + 8, pos);
    tlv_put64(e + 16, sz);
    pos = (pos + (size_t)sz + 15) & ~(size_t)15;
  }
  tlv_put64(out + 24, pos);
  tlv_reseal(out, pos);
  *out_size = pos;
  return out;
}

/* Pin motors (3.1): a 3.0 file still opens, its pins with the motor off and
 * everything else as before; the motor flag is refused where there is no
 * motor to run (a 3.0 record, a distance joint). */
static void format_3_0_files_read_motor_off(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  TlvLevel lv, old_lv;
  TlvError err;
  CHECK(tlv_open(data, size, 0, &lv, &err) == TLV_OK);
  CHECK(lv.header.minor == TLV_VERSION_MINOR && lv.joints.stride == TLV_JOINT_SIZE_3_1);
  uint32_t motors = 0;
  for (uint32_t i = 0; i < lv.joints.count; i++) {
    TlvJoint j;
    CHECK(tlv_joint(&lv, i, &j));
    motors += (j.flags & TLV_JOINT_MOTOR) != 0;
  }
  CHECK(motors >= 1); /* the fixture's first pin drives */
  size_t old_size = 0;
  uint8_t *old = as_format_3_0(data, size, false, &old_size);
  TlvResult r = tlv_open(old, old_size, 0, &old_lv, &err);
  CHECK_MSG(r == TLV_OK, "%s", err.message);
  if (r == TLV_OK) {
    CHECK(old_lv.header.minor == 0 && old_lv.joints.stride == TLV_JOINT_SIZE && old_lv.joints.count == lv.joints.count);
    TessScene *now = NULL, *before = NULL;
    TessError terr;
    CHECK_OK(tess_scene_from_pack(&lv, &now, &terr), &terr);
    CHECK_OK(tess_scene_from_pack(&old_lv, &before, &terr), &terr);
    if (now && before) {
      CHECK(!tess_scene_equal(now, before));
      for (uint32_t i = 0; i < before->joint_count; i++)
        CHECK(before->joints[i].motor_enabled == 0 && before->joints[i].motor_speed == 0.0f &&
              before->joints[i].motor_torque == 0.0f);
      for (uint32_t i = 0; i < now->body_count; i++) now->bodies[i].integrator = 0;
      for (uint32_t i = 0; i < now->zone_count; i++)
        if (now->zones[i].kind == TESS_ZONE_SPRING) now->zones[i].kind = TESS_ZONE_ATTRACTOR;
      for (uint32_t i = 0; i < now->joint_count; i++) {
        now->joints[i].motor_enabled = 0;
        now->joints[i].motor_speed = 0.0f;
        now->joints[i].motor_torque = 0.0f;
      }
      CHECK(tess_scene_equal(now, before)); /* nothing else moved */
    }
    tess_scene_destroy(now);
    tess_scene_destroy(before);
  }
  tess_free(old);
  /* A 64-byte record with the motor flag: there is no motor to run. */
  old = as_format_3_0(data, size, true, &old_size);
  expect_refused(old, old_size, TLV_ERR_VALUE, "motor flag in a 3.0 record");
  tess_free(old);
  /* The motor flag on a distance joint. */
  uint8_t *work = tess_alloc(size);
  uint32_t distance = 0;
  for (uint32_t i = 0; i < lv.joints.count; i++) {
    size_t at = record(data, size, TLV_SEC_JOINTS, i);
    if (tlv_get32(data + at + 8) != TLV_JOINT_DISTANCE) continue;
    memcpy(work, data, size);
    tlv_put32(work + at + 12, tlv_get32(work + at + 12) | TLV_JOINT_MOTOR);
    expect_refused(work, size, TLV_ERR_VALUE, "motor on a distance joint");
    distance++;
  }
  CHECK(distance >= 1);
  tess_free(work);
  tess_free(data);
}

/* Format 3.7: byte 73 of a body is its integrator (0 Euler, 1 RK4), zone kind 3 a spring whose
 * strength is 0..1e6. Every other value is refused at its byte; the same bytes in a file marked
 * 3.6, where byte 73 was reserved and kind 3 unknown, are refused too, so an older file never
 * carries them; a 3.6 file without them reads with every body on Euler. */
static void integrator_and_spring_fields(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  TlvLevel lv;
  TlvError err;
  CHECK(tlv_open(data, size, 0, &lv, &err) == TLV_OK && lv.header.minor == TLV_VERSION_MINOR);
  uint32_t rk4 = 0, rk4_body = 0, springs = 0, spring_zone = 0;
  for (uint32_t i = 0; i < lv.bodies.count; i++) {
    TlvBody b;
    CHECK(tlv_body(&lv, i, &b) && b.integrator <= TLV_INTEGRATOR_RK4);
    if (b.integrator == TLV_INTEGRATOR_RK4 && !rk4++) rk4_body = i;
  }
  for (uint32_t i = 0; i < lv.zones.count; i++) {
    TlvZone z;
    CHECK(tlv_zone(&lv, i, &z));
    if (z.kind == 3 && !springs++) spring_zone = i;
  }
  CHECK(rk4 >= 1 && rk4 < lv.bodies.count && springs == 1);
  uint8_t *work = tess_alloc(size);
  size_t body = record(data, size, TLV_SEC_BODIES, rk4_body), zone = record(data, size, TLV_SEC_ZONES, spring_zone);
  static const struct {
    int zone;
    size_t field, width;
    uint32_t value;
    const char *what;
  } cases[] = {
      {0, 73, 1, 2, "integrator 2"},
      {0, 73, 1, 0xFF, "integrator 255"},
      {0, 74, 1, 1, "reserved byte after the integrator"},
      {0, 79, 1, 1, "last reserved byte of a body"},
      {1, 40, 4, 0xBF800000u, "spring strength -1"},
      {1, 40, 4, 0x80000001u, "spring strength a tiny negative"},
      {1, 40, 4, 0x49742410u, "spring strength 1000001"},
      {1, 40, 4, 0x7F800000u, "spring strength infinite"},
      {1, 8, 4, 4, "zone kind 4"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    memcpy(work, data, size);
    size_t at = (cases[k].zone ? zone : body) + cases[k].field;
    if (cases[k].width == 1) work[at] = (uint8_t)cases[k].value;
    else tlv_put32(work + at, cases[k].value);
    expect_refused(work, size, TLV_ERR_VALUE, cases[k].what);
    tlv_reseal(work, size);
    TlvLevel bad;
    CHECK_MSG(tlv_open(work, size, 0, &bad, &err) != TLV_OK && err.offset == at,
              "%s: refused at byte %llu, not %zu", cases[k].what, (unsigned long long)err.offset, at);
  }
  /* The strength at the bound is fine. */
  memcpy(work, data, size);
  tlv_put32(work + zone + 40, 0x49742400u); /* 1e6 */
  tlv_reseal(work, size);
  CHECK(open_copy(work, size, 0, &err) == TLV_OK);
  /* Marked 3.6: RK4 and the spring are refused; with both gone every body reads as Euler. */
  memcpy(work, data, size);
  work[10] = 6;
  expect_refused(work, size, TLV_ERR_VALUE, "RK4 in a 3.6 file");
  for (uint32_t i = 0; i < lv.bodies.count; i++) work[record(data, size, TLV_SEC_BODIES, i) + 73] = 0;
  expect_refused(work, size, TLV_ERR_VALUE, "spring zone in a 3.6 file");
  tlv_put32(work + zone + 8, 2); /* an attractor */
  tlv_reseal(work, size);
  TlvLevel old;
  CHECK_MSG(tlv_open(work, size, 0, &old, &err) == TLV_OK, "%s", err.message);
  for (uint32_t i = 0; i < old.bodies.count; i++) {
    TlvBody b;
    CHECK(tlv_body(&old, i, &b) && b.integrator == TLV_INTEGRATOR_EULER);
  }
  /* And a 3.6 file whose byte 73 is not 0 reads that byte as reserved, not as an integrator. */
  work[body + 73] = 1;
  tlv_reseal(work, size);
  CHECK(tlv_open(work, size, 0, &old, &err) == TLV_ERR_VALUE && err.offset == body + 73);
  tess_free(work);
  tess_free(data);
}

static void versions_and_unknown_sections(void) {
  size_t size = 0;
  uint8_t *data = small_tlv(&size);
  if (!data) return;
  uint8_t *work = tess_alloc(size);
  memcpy(work, data, size);
  work[8] = (uint8_t)(TLV_VERSION_MAJOR + 1); /* the next major */
  expect_refused(work, size, TLV_ERR_VERSION, "the next major version");
  memcpy(work, data, size);
  work[8] = (uint8_t)(TLV_VERSION_MAJOR - 1); /* an older major: 2.0 had no override flag, 1.0 stored materials in CRNR and RECT */
  expect_refused(work, size, TLV_ERR_VERSION, "the previous major version");
  {
    TlvLevel old_lv;
    TlvError old_err;
    char expect[32];
    snprintf(expect, sizeof expect, "format version %u.%u", TLV_VERSION_MAJOR - 1, TLV_VERSION_MINOR);
    CHECK(tlv_open(work, size, 0, &old_lv, &old_err) == TLV_ERR_VERSION && old_err.offset == 8);
    CHECK_MSG(strstr(old_err.message, expect) != NULL, "the refusal names the file's version: %s", old_err.message);
  }
  memcpy(work, data, size);
  work[0] = 'P';
  expect_refused(work, size, TLV_ERR_MAGIC, "bad magic");
  /* An optional section of an unknown type is skipped... */
  size_t e = tlv_find_entry(data, size, TLV_SEC_PROPERTIES);
  CHECK(e && !(data[e + 4] & TLV_SECTION_REQUIRED));
  memcpy(work, data, size);
  tlv_put32(work + e, TLV_FOURCC('Z', 'Z', 'Z', 'Z'));
  /* ...but then nothing may refer to properties: clear the owners' ranges. */
  tlv_reseal(work, size);
  TlvLevel lv;
  TlvError err;
  TlvResult r = tlv_open(work, size, 0, &lv, &err);
  CHECK(r == TLV_ERR_INDEX); /* bodies still name property records */
  /* A required one is refused by name. */
  e = tlv_find_entry(data, size, TLV_SEC_ZONES);
  CHECK(e && (data[e + 4] & TLV_SECTION_REQUIRED));
  memcpy(work, data, size);
  tlv_put32(work + e, TLV_FOURCC('N', 'E', 'W', '!'));
  expect_refused(work, size, TLV_ERR_VERSION, "unknown required section");
  /* A section listed twice. */
  size_t z = tlv_find_entry(data, size, TLV_SEC_SPAWNS);
  memcpy(work, data, size);
  tlv_put32(work + z, TLV_SEC_ZONES);
  expect_refused(work, size, TLV_OK, "section twice");
  /* An optional section that nothing refers to really is skipped. */
  e = tlv_find_entry(data, size, TLV_SEC_SPRITES);
  memcpy(work, data, size);
  tlv_put32(work + e, TLV_FOURCC('Z', 'Z', 'Z', 'Z'));
  for (uint32_t i = 0; i < tlv_get32(data + tlv_find_entry(data, size, TLV_SEC_BODIES) + 24); i++)
    tlv_put32(work + record(data, size, TLV_SEC_BODIES, i) + 16, 0);
  tlv_reseal(work, size);
  r = tlv_open(work, size, 0, &lv, &err);
  CHECK_MSG(r == TLV_OK, "%s", err.message);
  CHECK(lv.unknown_sections == 1 && lv.sprites.count == 0);
  tess_free(work);
  tess_free(data);
}

TESS_TEST_MAIN(TEST(the_small_file_opens), TEST(every_truncation_is_refused), TEST(random_byte_flips_are_refused),
               TEST(random_garbage_runs_stay_safe), TEST(offsets_outside_the_file_are_refused),
               TEST(counts_overflowing_32_bits_are_refused), TEST(indices_past_their_tables_are_refused),
               TEST(versions_and_unknown_sections), TEST(format_3_0_files_read_motor_off),
               TEST(integrator_and_spring_fields))
