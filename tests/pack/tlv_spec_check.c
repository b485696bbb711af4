/* The rules of core/pack/FORMAT.md, checked from the bytes (see the header).
 * Written for clarity, not speed: each rule once, in the spec's order. */
#include "tlv_spec_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tlv_reader.h" /* the section type constants and tlv_checksum(), the spec's function */

typedef struct Sec {
  bool present;
  const uint8_t *p;
  uint64_t off, size;
  uint32_t count, stride;
} Sec;

enum { SETT,
       STRS,
       MATL,
       TSET,
       TILE,
       POLY,
       VERT,
       LAYR,
       PALT,
       CELL,
       CPAL,
       CGRD,
       LOOP,
       CRNR,
       RECT,
       BODY,
       SHAP,
       JOIN,
       ZONE,
       SPWN,
       SPRT,
       PROP,
       BLOB,
       TERS,
       TERC,
       TERT,
       DRAW,
       PMSK,
       PBIT,
       LNCH,
       NSEC };

static const struct {
  char name[5];
  uint32_t min_stride; /* 0 bytes, 1 cells */
} KNOWN[NSEC] = {{"SETT", 64}, {"STRS", 0}, {"MATL", 32}, {"TSET", 64}, {"TILE", 16}, {"POLY", 8}, {"VERT", 8}, {"LAYR", 48}, {"PALT", 4}, {"CELL", 0}, {"CPAL", 24}, {"CGRD", 1}, {"LOOP", 8}, {"CRNR", 4}, {"RECT", 8}, {"BODY", 80}, {"SHAP", 32}, {"JOIN", 64}, {"ZONE", 64}, {"SPWN", 32}, {"SPRT", 48}, {"PROP", 24}, {"BLOB", 0}, {"TERS", 32}, {"TERC", 16}, {"TERT", 16}, {"DRAW", 8}, {"PMSK", 48}, {"PBIT", 0}, {"LNCH", 48}};

typedef struct Chk {
  const uint8_t *d;
  size_t n;
  uint16_t minor;
  uint32_t flags, level_id;
  Sec s[NSEC];
  uint32_t W, H, tile_w, tile_h;
  float ppm, cell_w, cell_h;
  char *why;
  size_t why_size;
} Chk;

static int bad(Chk *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (c->why && c->why_size) vsnprintf(c->why, c->why_size, fmt, ap);
  va_end(ap);
  return 0;
}

#define REQUIRE(cond, ...)                   \
  do {                                       \
    if (!(cond)) return bad(c, __VA_ARGS__); \
  } while (0)

static uint32_t u16_(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t u32_(const uint8_t *p) { return u16_(p) | u16_(p + 2) << 16; }
static uint64_t u64_(const uint8_t *p) { return u32_(p) | (uint64_t)u32_(p + 4) << 32; }
static float f32_(const uint8_t *p) {
  uint32_t u = u32_(p);
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static const uint8_t *rec(const Sec *s, uint32_t i) { return s->p + (size_t)i * s->stride; }
static bool zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return false;
  return true;
}
static uint64_t up16(uint64_t v) { return (v + 15) / 16 * 16; }
static uint32_t narrowest(uint64_t v) { return v < 256 ? 1 : v < 65536 ? 2
                                                                       : 4; }
static uint32_t cell(const uint8_t *p, uint32_t width, uint64_t i) {
  return width == 1 ? p[i] : width == 2 ? u16_(p + 2 * i)
                                        : u32_(p + 4 * i);
}

/* ---- Header and table ---------------------------------------------------- */

static int check_layout(Chk *c) {
  const uint8_t *d = c->d;
  REQUIRE(c->n >= 64 && memcmp(d, "\x89TLV\r\n\x1a\n", 8) == 0, "magic");
  REQUIRE(u16_(d + 8) == 3, "major version");
  c->minor = (uint16_t)u16_(d + 10);
  c->flags = u32_(d + 12);
  REQUIRE((c->flags & ~1u) == 0, "header flags");
  uint32_t hs = u32_(d + 16), count = u32_(d + 20);
  uint64_t total = u64_(d + 24);
  REQUIRE(hs >= 64 && hs <= 256 && hs % 16 == 0, "header size");
  REQUIRE(count <= 64, "section count");
  REQUIRE(total <= c->n && total % 16 == 0, "total size");
  REQUIRE((uint64_t)hs + 32ull * count <= total, "table past the end");
  REQUIRE(u32_(d + 60) == 0 && zero(d + 64, hs - 64), "reserved header bytes");
  c->level_id = u32_(d + 56);
  /* the header checksum: header_size bytes (checksum field as 0) ^ the table */
  uint8_t head[256];
  memcpy(head, d, hs);
  memset(head + 52, 0, 4);
  REQUIRE((tlv_checksum(head, hs) ^ tlv_checksum(d + hs, 32ull * count)) == u32_(d + 52), "header checksum");
  uint64_t end = hs + 32ull * count;
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *e = d + hs + 32ull * i;
    uint32_t type = u32_(e), fl = u16_(e + 4), stride = u16_(e + 6), cnt = u32_(e + 24);
    uint64_t off = u64_(e + 8), size = u64_(e + 16);
    REQUIRE((fl & ~1u) == 0, "section flags");
    REQUIRE(off == up16(end), "section %u not dense", i);
    REQUIRE(off <= total && size <= total - off, "section %u past the end", i);
    REQUIRE(zero(d + end, off - end), "padding before section %u", i);
    REQUIRE(tlv_checksum(d + off, size) == u32_(e + 28), "section %u checksum", i);
    end = off + size;
    int k = -1;
    for (int j = 0; j < NSEC; j++)
      if (memcmp(KNOWN[j].name, e, 4) == 0) k = j;
    (void)type;
    if (k < 0) {
      REQUIRE(!(fl & 1u), "unknown required section");
      continue;
    }
    REQUIRE(!c->s[k].present, "section %s twice", KNOWN[k].name);
    if (KNOWN[k].min_stride == 0) {
      REQUIRE(stride == 0 && cnt == 0, "byte section with a stride");
    } else {
      REQUIRE(cnt <= (1u << 28), "record count");
      if (KNOWN[k].min_stride == 1) REQUIRE(stride == 1 || stride == 2 || stride == 4, "cell width");
      else REQUIRE(stride >= KNOWN[k].min_stride && stride % 4 == 0, "stride of %s", KNOWN[k].name);
      REQUIRE((uint64_t)cnt * stride == size, "size of %s", KNOWN[k].name);
    }
    c->s[k] = (Sec){true, d + off, off, size, cnt, stride};
  }
  REQUIRE(up16(end) == total && zero(d + end, total - end), "end of the file");
  REQUIRE(c->s[SETT].present && c->s[STRS].present, "SETT or STRS missing");
  return 1;
}

/* ---- Strings --------------------------------------------------------------- */

/* RFC 3629's table of well-formed byte sequences. */
static size_t utf8_len(const uint8_t *p, size_t left) {
  static const struct {
    uint8_t lo0, hi0, lo1, hi1;
    uint8_t len;
  } T[] = {{0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3}, {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3}, {0xEE, 0xEF, 0x80, 0xBF, 3}, {0xF0, 0xF0, 0x90, 0xBF, 4}, {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4}};
  if (p[0] < 0x80) return 1;
  for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
    if (p[0] < T[t].lo0 || p[0] > T[t].hi0) continue;
    if (left < T[t].len || p[1] < T[t].lo1 || p[1] > T[t].hi1) return 0;
    for (size_t k = 2; k < T[t].len; k++)
      if (p[k] < 0x80 || p[k] > 0xBF) return 0;
    return T[t].len;
  }
  return 0;
}

static bool str_ok(const Chk *c, uint32_t ref) {
  return ref < c->s[STRS].size && (ref == 0 || c->s[STRS].p[ref - 1] == 0);
}

static int check_strings(Chk *c) {
  const Sec *s = &c->s[STRS];
  REQUIRE(s->size >= 1 && s->p[0] == 0 && s->p[s->size - 1] == 0, "string table ends");
  for (size_t i = 0; i < s->size;) {
    size_t k = utf8_len(s->p + i, s->size - i);
    REQUIRE(k > 0, "string table: not UTF-8 at %zu", i);
    i += k;
  }
  return 1;
}

/* ---- Polygons --------------------------------------------------------------- */

static void poly_points(const Chk *c, uint32_t index, double *x, double *y, uint32_t *n) {
  const uint8_t *r = rec(&c->s[POLY], index);
  *n = u32_(r + 4);
  for (uint32_t k = 0; k < *n; k++) {
    x[k] = f32_(rec(&c->s[VERT], u32_(r) + k));
    y[k] = f32_(rec(&c->s[VERT], u32_(r) + k) + 4);
  }
}

/* Convex and simple, by another method than the reader's: no vertex on the
 * outer side of any edge's line, no step straight back, and the edges turn
 * through one full turn in all. Returns the shoelace sum's sign, 0 if bad. */
static int convex_sign(const double *x, const double *y, uint32_t n) {
  double sum = 0, turning = 0, ex[8], ey[8];
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t j = (i + 1) % n;
    sum += x[i] * y[j] - x[j] * y[i];
    if (x[j] != x[i] || y[j] != y[i]) ex[m] = x[j] - x[i], ey[m] = y[j] - y[i], m++; /* repeated vertices are no edge */
  }
  if (sum == 0 || !isfinite(sum)) return 0;
  int sg = sum > 0 ? 1 : -1;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t v = 0; v < n; v++) {
      uint32_t j = (i + 1) % n;
      if (sg * ((x[j] - x[i]) * (y[v] - y[i]) - (y[j] - y[i]) * (x[v] - x[i])) < 0) return 0;
    }
  for (uint32_t i = 0; i < m; i++) {
    uint32_t k = (i + 1) % m;
    double cr = ex[i] * ey[k] - ey[i] * ex[k], dot = ex[i] * ex[k] + ey[i] * ey[k];
    if (cr == 0 && dot < 0) return 0;
    turning += atan2(cr, dot);
  }
  return fabs(fabs(turning) - 2 * M_PI) < 0.5 ? sg : 0;
}

static int check_polygons(Chk *c) {
  const Sec *p = &c->s[POLY], *v = &c->s[VERT];
  uint64_t next = 0;
  for (uint32_t i = 0; i < p->count; i++) {
    uint32_t first = u32_(rec(p, i)), n = u32_(rec(p, i) + 4);
    REQUIRE(n >= 3 && n <= 8, "polygon %u: vertex count", i);
    REQUIRE(first == next && (uint64_t)first + n <= v->count, "polygon %u: vertices not in order", i);
    next += n;
    double x[8], y[8];
    uint32_t m;
    poly_points(c, i, x, y, &m);
    for (uint32_t k = 0; k < m; k++) REQUIRE(isfinite(x[k]) && isfinite(y[k]), "polygon %u: vertex not finite", i);
    int sg = convex_sign(x, y, m);
    REQUIRE(sg != 0, "polygon %u: not convex and simple", i);
    REQUIRE(sg > 0 || c->minor < 2, "polygon %u: counter-clockwise in a 3.%u file", i, c->minor);
  }
  REQUIRE(next == v->count, "vertices outside every polygon");
  /* users in order: tiles, collision entries, polygon shapes */
  uint64_t use = 0;
  for (uint32_t i = 0; i < c->s[TILE].count; i++) {
    REQUIRE(u32_(rec(&c->s[TILE], i) + 8) == use, "tile %u: pieces out of order", i);
    use += u32_(rec(&c->s[TILE], i) + 12);
  }
  for (uint32_t i = 0; i < c->s[CPAL].count; i++) {
    REQUIRE(u32_(rec(&c->s[CPAL], i) + 12) == use, "collision entry %u: pieces out of order", i);
    use += u32_(rec(&c->s[CPAL], i) + 16);
  }
  for (uint32_t i = 0; i < c->s[SHAP].count; i++) {
    if (u32_(rec(&c->s[SHAP], i)) != 2) continue;
    REQUIRE(u32_(rec(&c->s[SHAP], i) + 24) == use, "shape %u: polygon out of order", i);
    use++;
  }
  REQUIRE(use == p->count, "polygons without a user");
  return 1;
}

/* ---- Level, materials, tilesets, tiles ------------------------------------ */

static int check_settings(Chk *c) {
  const Sec *s = &c->s[SETT];
  REQUIRE(s->count == 1, "settings count");
  const uint8_t *r = s->p;
  c->W = u32_(r);
  c->H = u32_(r + 4);
  c->tile_w = u32_(r + 8);
  c->tile_h = u32_(r + 12);
  c->ppm = f32_(r + 16);
  c->cell_w = f32_(r + 52);
  c->cell_h = f32_(r + 56);
  REQUIRE(c->W >= 1 && c->W <= 16384 && c->H >= 1 && c->H <= 16384, "level size");
  REQUIRE(c->tile_w >= 1 && c->tile_w <= 65536 && c->tile_h >= 1 && c->tile_h <= 65536, "tile size");
  REQUIRE(isfinite(c->ppm) && c->ppm > 0, "ppm");
  REQUIRE(isfinite(f32_(r + 20)) && isfinite(f32_(r + 24)), "gravity");
  REQUIRE(u32_(r + 28) <= 1, "view");
  REQUIRE(isfinite(f32_(r + 32)) && f32_(r + 32) > 0, "physics rate");
  REQUIRE(u32_(r + 36) >= 1 && u32_(r + 36) <= 256, "sub-steps");
  REQUIRE(isfinite(f32_(r + 40)) && f32_(r + 40) >= 0, "floor drag");
  REQUIRE(str_ok(c, u32_(r + 44)), "level name");
  REQUIRE(u32_(r + 48) == c->level_id, "level id");
  double ew = (float)c->tile_w / c->ppm, eh = (float)c->tile_h / c->ppm;
  REQUIRE(isfinite(c->cell_w) && isfinite(c->cell_h) && c->cell_w > 0 && c->cell_h > 0, "cell size");
  REQUIRE(fabs(c->cell_w - ew) <= 1e-6 * ew && fabs(c->cell_h - eh) <= 1e-6 * eh, "cell size is not tile / ppm");
  REQUIRE(u32_(r + 60) == 0, "settings reserved");
  return 1;
}

static int check_materials(Chk *c) {
  const Sec *s = &c->s[MATL];
  for (uint32_t i = 0; i < s->count; i++) {
    const uint8_t *r = rec(s, i);
    REQUIRE(u32_(r) > 0 && (i == 0 || u32_(r) > u32_(rec(s, i - 1))), "material %u: id", i);
    REQUIRE(str_ok(c, u32_(r + 4)) && u32_(r + 12) <= 2, "material %u", i);
    float f = f32_(r + 16), e = f32_(r + 20), t = f32_(r + 24), den = f32_(r + 28);
    REQUIRE(isfinite(f) && isfinite(e) && isfinite(t) && isfinite(den), "material %u: not finite", i);
    REQUIRE(f >= 0 && e >= 0 && e <= 1 && t >= 0 && t <= 1 && den > 0, "material %u: a value out of range", i);
  }
  return 1;
}

static int64_t tileset_of(const Chk *c, uint32_t id) {
  for (uint32_t i = 0; i < c->s[TSET].count; i++)
    if (u32_(rec(&c->s[TSET], i)) == id) return i;
  return -1;
}

static bool cell_value_ok(const Chk *c, uint32_t v) {
  if (v == 0) return true;
  if (v & 0x10000000u) return false;
  int64_t t = tileset_of(c, (v >> 16) & 0xFFF);
  return t >= 0 && (v & 0xFFFF) < u32_(rec(&c->s[TSET], (uint32_t)t) + 40);
}

/* The embedded images follow each other in the blob, tilesets then sprites. */
static int check_image(Chk *c, uint32_t off, uint32_t size, uint64_t *blob_next, const char *what, uint32_t i) {
  if (size == 0) {
    REQUIRE(off == 0, "%s %u: image offset without bytes", what, i);
    return 1;
  }
  REQUIRE(c->flags & 1u, "%s %u: an image, but the header flag says none", what, i);
  REQUIRE(off == up16(*blob_next) && (uint64_t)off + size <= c->s[BLOB].size, "%s %u: image not where the last one ends", what, i);
  REQUIRE(zero(c->s[BLOB].p + *blob_next, off - *blob_next), "blob padding");
  *blob_next = (uint64_t)off + size;
  return 1;
}

static int check_tilesets(Chk *c, uint64_t *blob_next) {
  const Sec *s = &c->s[TSET];
  uint64_t tile = 0;
  for (uint32_t i = 0; i < s->count; i++) {
    const uint8_t *r = rec(s, i);
    REQUIRE(u32_(r) >= 1 && u32_(r) <= 4095 && (i == 0 || u32_(r) > u32_(rec(s, i - 1))), "tileset %u: id", i);
    REQUIRE(str_ok(c, u32_(r + 4)) && str_ok(c, u32_(r + 8)), "tileset %u: strings", i);
    uint64_t iw = u32_(r + 12), ih = u32_(r + 16), tw = u32_(r + 20), th = u32_(r + 24), m = u32_(r + 28), sp = u32_(r + 32);
    REQUIRE(tw > 0 && th > 0 && 2 * m + tw <= iw && 2 * m + th <= ih, "tileset %u: tiles do not fit the image", i);
    uint64_t cols = (iw - 2 * m + sp) / (tw + sp), rows = (ih - 2 * m + sp) / (th + sp);
    REQUIRE(u32_(r + 36) == cols && u32_(r + 40) == cols * rows, "tileset %u: grid", i);
    REQUIRE(u32_(r + 44) == tile, "tileset %u: tiles out of order", i);
    tile += u32_(r + 40);
    REQUIRE(u32_(r + 48) <= 255, "tileset %u: alpha threshold", i);
    if (!check_image(c, u32_(r + 52), u32_(r + 56), blob_next, "tileset", i)) return 0;
    if (c->minor < 4) {
      REQUIRE(u32_(r + 60) == 0, "tileset %u: reserved", i);
    } else {
      /* 3.4: placement 0 (scaled into the cell, no offset) or 1 (own size, offset within 65535 px) */
      int64_t ox = s->stride >= 72 ? (int32_t)u32_(r + 64) : 0, oy = s->stride >= 72 ? (int32_t)u32_(r + 68) : 0;
      REQUIRE(u32_(r + 60) <= 1 && ox >= -65535 && ox <= 65535 && oy >= -65535 && oy <= 65535 && (u32_(r + 60) == 1 || (!ox && !oy)),
              "tileset %u: placement or offset", i);
    }
  }
  REQUIRE(tile == c->s[TILE].count, "tiles outside every tileset");
  for (uint32_t i = 0; i < c->s[TILE].count; i++) {
    const uint8_t *r = rec(&c->s[TILE], i);
    REQUIRE(u32_(r) <= c->s[MATL].count, "tile %u: material", i);
    REQUIRE(r[4] <= 2 && r[5] <= 1 && u16_(r + 6) == 0, "tile %u: kind, one-way or reserved", i);
    REQUIRE(u32_(r + 12) <= 4096 && (uint64_t)u32_(r + 8) + u32_(r + 12) <= c->s[POLY].count, "tile %u: pieces", i);
    REQUIRE(r[4] == 2 || u32_(r + 12) == 0, "tile %u: pieces on an untraced tile", i);
  }
  return 1;
}

/* ---- Pixel masks (3.6) ---------------------------------------------------------- */

/* FORMAT.md "PMSK, PBIT": one record per layer flagged 8, in layer order, then (3.9) one per
 * static body that collides by pixels, in body order (layer 0, byte 28 its 1-based BODY index);
 * sizes 1..65536; a 1-based material; a finite pixel size above 0 and a finite origin; the bits
 * in order, whole rows, nothing left over, no bit past a row's width. */
static int check_pixel_masks(Chk *c) {
  const Sec *s = &c->s[PMSK], *b = &c->s[PBIT], *layers = &c->s[LAYR], *bodies = &c->s[BODY];
  uint64_t next = 0;
  uint32_t li = 0, last_body = 0;
  for (uint32_t i = 0; i < s->count; i++) {
    const uint8_t *r = rec(s, i);
    uint32_t body = u32_(r + 28);
    if (body) {
      REQUIRE(c->minor >= 9 && u32_(r) == 0, "pixel mask %u: a body's in a 3.%u file, or with a layer", i, c->minor);
      REQUIRE(body > last_body && body <= bodies->count && rec(bodies, body - 1)[8] == 0, "pixel mask %u: body %u", i, body);
      last_body = body;
    } else {
      REQUIRE(last_body == 0, "pixel mask %u: a layer's after a body's", i);
      while (li < layers->count && !(u32_(rec(layers, li) + 12) & 8u)) li++;
      REQUIRE(li < layers->count && u32_(rec(layers, li)) == u32_(r), "pixel mask %u: not the next pixel layer's", i);
      li++;
    }
    uint32_t w = u32_(r + 4), h = u32_(r + 8);
    REQUIRE(w >= 1 && h >= 1 && w <= 65536 && h <= 65536, "pixel mask %u: size", i);
    REQUIRE(u32_(r + 12) <= c->s[MATL].count, "pixel mask %u: material", i);
    REQUIRE(isfinite(f32_(r + 16)) && f32_(r + 16) > 0 && isfinite(f32_(r + 20)) && isfinite(f32_(r + 24)), "pixel mask %u: numbers", i);
    uint64_t row = ((uint64_t)w + 7) / 8, size = row * h;
    REQUIRE(u64_(r + 32) == next && u64_(r + 40) == size && size <= b->size - next, "pixel mask %u: bits", i);
    for (uint32_t y = 0; w % 8 && y < h; y++) REQUIRE((b->p[next + row * y + row - 1] >> (w % 8)) == 0, "pixel mask %u: bits past the width", i);
    next += size;
  }
  while (li < layers->count && !(u32_(rec(layers, li) + 12) & 8u)) li++;
  REQUIRE(li == layers->count, "a pixel layer without a mask");
  REQUIRE(next == b->size, "pixel bits left over");
  return 1;
}

/* ---- Terrain sets (3.3) ------------------------------------------------------- */

/* FORMAT.md "TERS, TERC, TERT": sets follow their tilesets' order and take the
 * colours and tiles in order, using both up; labels within the set's colours,
 * 0 where the kind does not look; tiles ascending and inside the tileset. */
/* FORMAT.md "DRAW" (3.5): absent, or one record per body: depth in
 * -32768..32767, layer rank to 32767, flags bit 0 only, reserved 0. */
static int check_draw_order(Chk *c) {
  const Sec *s = &c->s[DRAW];
  if (!s->count) return 1;
  REQUIRE(s->count == c->s[BODY].count, "DRAW: %u records for %u bodies", s->count, c->s[BODY].count);
  for (uint32_t i = 0; i < s->count; i++) {
    const uint8_t *r = rec(s, i);
    int32_t depth = (int32_t)u32_(r);
    REQUIRE(depth >= -32768 && depth <= 32767, "DRAW %u: depth %d", i, (int)depth);
    REQUIRE(u16_(r + 4) <= 32767u, "DRAW %u: layer rank %u", i, u16_(r + 4));
    REQUIRE(!(r[6] & ~1u) && r[7] == 0, "DRAW %u: flags 0x%02x, reserved 0x%02x", i, r[6], r[7]);
  }
  return 1;
}

static int check_terrains(Chk *c) {
  const Sec *s = &c->s[TERS], *cs = &c->s[TERC], *ts = &c->s[TERT];
  uint64_t colors = 0, tiles = 0;
  for (uint32_t i = 0; i < s->count; i++) {
    const uint8_t *r = rec(s, i);
    uint32_t tileset = u32_(r), kind = u32_(r + 8), nc = u32_(r + 20), nt = u32_(r + 28);
    REQUIRE(tileset >= 1 && tileset <= c->s[TSET].count && (i == 0 || tileset >= u32_(rec(s, i - 1))), "terrain set %u: tileset", i);
    uint32_t count = u32_(rec(&c->s[TSET], tileset - 1) + 40);
    int32_t icon = (int32_t)u32_(r + 12);
    REQUIRE(str_ok(c, u32_(r + 4)) && kind <= 2 && icon >= -1 && (icon < 0 || (uint32_t)icon < count), "terrain set %u", i);
    REQUIRE(nc <= 254 && u32_(r + 16) == colors && u32_(r + 24) == tiles, "terrain set %u: ranges", i);
    REQUIRE(colors + nc <= cs->count && tiles + nt <= ts->count, "terrain set %u: past its tables", i);
    for (uint32_t k = 0; k < nc; k++) {
      const uint8_t *e = rec(cs, (uint32_t)(colors + k));
      int32_t t = (int32_t)u32_(e + 12);
      float pr = f32_(e + 8);
      REQUIRE(str_ok(c, u32_(e)) && isfinite(pr) && pr >= 0 && t >= -1 && (t < 0 || (uint32_t)t < count), "terrain colour %llu",
              (unsigned long long)(colors + k));
    }
    for (uint32_t k = 0; k < nt; k++) {
      const uint8_t *e = rec(ts, (uint32_t)(tiles + k));
      float pr = f32_(e + 12);
      REQUIRE(u32_(e) < count && (k == 0 || u32_(e) > u32_(e - ts->stride)) && isfinite(pr) && pr >= 0, "terrain tile %llu",
              (unsigned long long)(tiles + k));
      for (int q = 0; q < 8; q++) {
        bool looks = kind == 2 || (kind == 0 ? q % 2 == 1 : q % 2 == 0);
        REQUIRE(e[4 + q] <= nc && (looks || e[4 + q] == 0), "terrain tile %llu: colour at %d", (unsigned long long)(tiles + k), q);
      }
    }
    colors += nc;
    tiles += nt;
  }
  REQUIRE(colors == cs->count && tiles == ts->count, "terrain colours or tiles outside every set");
  return 1;
}

/* ---- Layers and cells ------------------------------------------------------- */

static int check_layers(Chk *c) {
  const Sec *s = &c->s[LAYR], *cells = &c->s[CELL], *pal = &c->s[PALT];
  uint64_t n = (uint64_t)c->W * c->H, end = 0, pal_next = 0;
  uint32_t material_layers = 0;
  for (uint32_t i = 0; i < pal->count; i++) REQUIRE(cell_value_ok(c, u32_(rec(pal, i))), "palette entry %u", i);
  for (uint32_t i = 0; i < s->count; i++) {
    const uint8_t *r = rec(s, i);
    uint32_t kind = u32_(r + 8), width = u32_(r + 20), first = u32_(r + 24), count = u32_(r + 28);
    uint64_t off = u64_(r + 32), limit;
    REQUIRE(str_ok(c, u32_(r + 4)) && kind <= 1 && (u32_(r + 12) & ~15u) == 0, "layer %u: name, kind or flags", i);
    /* 3.6: flag 8, collides by pixels, on a tile layer that collides */
    REQUIRE(!(u32_(r + 12) & 8u) || (kind == 0 && (u32_(r + 12) & 4u) && c->minor >= 6), "layer %u: pixel flag", i);
    REQUIRE(isfinite(f32_(r + 16)) && f32_(r + 16) >= 0 && f32_(r + 16) <= 1, "layer %u: opacity", i);
    REQUIRE(i == 0 || u32_(r + 40) > u32_(rec(s, i - 1) + 40), "layer %u: order", i);
    REQUIRE(u32_(r + 44) == 0, "layer %u: reserved", i);
    if (kind == 0) {
      REQUIRE(count >= 1 && first == pal_next && (uint64_t)first + count <= pal->count, "layer %u: palette", i);
      REQUIRE(u32_(rec(pal, first)) == 0, "layer %u: palette entry 0", i);
      for (uint32_t k = 1; k < count; k++) REQUIRE(u32_(rec(pal, first + k)) != 0, "layer %u: empty palette entry %u", i, k);
      pal_next += count;
      limit = count;
    } else {
      REQUIRE(count == 0 && first == 0 && ++material_layers == 1, "layer %u: material layer", i);
      limit = (uint64_t)c->s[MATL].count + 1;
    }
    REQUIRE(width == narrowest(limit - 1), "layer %u: cell width", i);
    REQUIRE(off == up16(end) && off + n * width <= cells->size, "layer %u: cells not dense", i);
    REQUIRE(zero(cells->p + end, off - end), "cell padding");
    for (uint64_t k = 0; k < n; k++) REQUIRE(cell(cells->p + off, width, k) < limit, "layer %u: cell %llu", i, (unsigned long long)k);
    end = off + n * width;
  }
  REQUIRE(end == cells->size && pal_next == pal->count, "cells or palette entries without a layer");
  return 1;
}

/* ---- Collision --------------------------------------------------------------- */

/* FORMAT.md TSET "Placement" (3.4): a tileset that draws its tiles at their own size. */
static bool native(const Chk *c, const uint8_t *ts) { return c->minor >= 4 && u32_(ts + 60) == 1; }

/* FORMAT.md "Flips", then the scale to the cell (placement 0) or the drawn
 * rectangle (placement 1), in metres. */
static void place(uint32_t v, double px, double py, const uint8_t *ts, const Chk *c, double *ox, double *oy) {
  double tw = u32_(ts + 20), th = u32_(ts + 24), W = tw, H = th;
  if (v & 0x20000000u) {
    double t = px;
    px = py;
    py = t;
    W = th;
    H = tw;
  }
  if (v & 0x80000000u) px = W - px;
  if (v & 0x40000000u) py = H - py;
  if (native(c, ts)) {
    double offx = c->s[TSET].stride >= 72 ? (int32_t)u32_(ts + 64) : 0, offy = c->s[TSET].stride >= 72 ? (int32_t)u32_(ts + 68) : 0;
    /* the (turned) tile's bottom-left corner on the cell's, moved by the offset */
    *ox = (offx + px) / c->ppm;
    *oy = (c->tile_h - H + offy + py) / c->ppm;
    return;
  }
  *ox = px * (c->tile_w / tw) / c->ppm;
  *oy = py * (c->tile_h / th) / c->ppm;
}

/* A full tile whose rectangle is not its cell (placement 1) collides as that rectangle: a traced entry. */
static bool off_cell(const Chk *c, const uint8_t *ts, uint32_t v) {
  double x0, y0, x1, y1;
  if (!native(c, ts)) return false;
  place(v & 0xE0000000u, 0, 0, ts, c, &x0, &y0);
  place(v & 0xE0000000u, u32_(ts + 20), u32_(ts + 24), ts, c, &x1, &y1);
  /* the two opposite corners, in metres, against the cell's (0, 0) and (cell_w, cell_h) */
  double lx = x0 < x1 ? x0 : x1, ly = y0 < y1 ? y0 : y1, hx = x0 < x1 ? x1 : x0, hy = y0 < y1 ? y1 : y0;
  return fabs(lx) > 1e-9 || fabs(ly) > 1e-9 || fabs(hx * c->ppm - c->tile_w) > 1e-6 || fabs(hy * c->ppm - c->tile_h) > 1e-6;
}

static int check_collision(Chk *c) {
  const Sec *p = &c->s[CPAL], *g = &c->s[CGRD];
  double tol = 1e-5 * ((double)c->cell_w + c->cell_h);
  for (uint32_t i = 0; i < p->count; i++) {
    const uint8_t *r = rec(p, i);
    uint32_t v = u32_(r), first = u32_(r + 12), count = u32_(r + 16);
    REQUIRE(cell_value_ok(c, v) && u32_(r + 4) <= c->s[MATL].count, "collision entry %u: tile or material", i);
    REQUIRE(r[8] <= 2 && r[9] <= 1 && (r[10] & ~1u) == 0 && r[11] == 0 && u32_(r + 20) == 0, "collision entry %u: kind, flags, reserved", i);
    REQUIRE(count <= 4096 && (uint64_t)first + count <= c->s[POLY].count, "collision entry %u: pieces", i);
    if (r[8] != 2) {
      REQUIRE(v == 0 && count == 0, "collision entry %u: a tile or pieces while not traced", i);
      continue;
    }
    REQUIRE(v != 0, "collision entry %u: traced without a tile", i);
    const uint8_t *ts = rec(&c->s[TSET], (uint32_t)tileset_of(c, (v >> 16) & 0xFFF));
    const uint8_t *tile = rec(&c->s[TILE], u32_(ts + 44) + (v & 0xFFFF));
    bool rect = tile[4] == 1 && off_cell(c, ts, v);
    REQUIRE(tile[4] == 2 || rect, "collision entry %u: its tile is not traced (nor a full tile off its cell)", i);
    uint32_t tile_pieces = rect ? 1 : u32_(tile + 12);
    /* each piece: the next tile piece that, placed and turned, holds its vertices in order */
    uint32_t q = 0;
    for (uint32_t k = 0; k < count; k++) {
      double ex[8], ey[8];
      uint32_t m;
      poly_points(c, first + k, ex, ey, &m);
      bool found = false;
      for (; q < tile_pieces && !found; q++) {
        double x[8], y[8], tx[8], ty[8], sum = 0;
        uint32_t n = 4;
        if (rect) {
          x[0] = x[3] = y[0] = y[1] = 0;
          x[1] = x[2] = u32_(ts + 20);
          y[2] = y[3] = u32_(ts + 24);
        } else {
          poly_points(c, u32_(tile + 8) + q, x, y, &n);
        }
        for (uint32_t j = 0; j < n; j++) place(v, x[j], y[j], ts, c, &tx[j], &ty[j]);
        for (uint32_t j = 0; j < n; j++) sum += tx[j] * ty[(j + 1) % n] - tx[(j + 1) % n] * ty[j];
        for (int way = 0; way < 2 && !found; way++) {
          bool reverse = (sum < 0) != (way == 1);
          if (way == 1 && c->minor >= 2) break;
          uint32_t j = 0, hit = 0;
          for (uint32_t e = 0; e < m; e++) {
            for (; j < n; j++) {
              uint32_t t = reverse ? n - 1 - j : j;
              if (fabs(ex[e] - tx[t]) <= tol && fabs(ey[e] - ty[t]) <= tol) break;
            }
            if (j < n) hit++, j++;
          }
          found = hit == m;
        }
      }
      REQUIRE(found, "collision entry %u: piece %u is not its tile's, placed", i, k);
    }
  }
  if (!g->present) {
    REQUIRE(!c->s[LOOP].count && !c->s[CRNR].count && !c->s[RECT].count, "merged geometry without a grid");
    return 1;
  }
  REQUIRE(g->count == (uint64_t)c->W * c->H, "grid cell count");
  REQUIRE(p->count == 0 || g->stride == narrowest(p->count - 1), "grid width");
  for (uint32_t i = 0; i < g->count; i++) REQUIRE(cell(g->p, g->stride, i) < p->count, "grid cell %u", i);
  return 1;
}

static int check_geometry(Chk *c) {
  const Sec *l = &c->s[LOOP], *k = &c->s[CRNR], *r = &c->s[RECT];
  uint64_t next = 0;
  if ((l->count || k->count || r->count) && !c->s[CGRD].count) return bad(c, "geometry without a grid");
  for (uint32_t i = 0; i < l->count; i++) {
    uint32_t first = u32_(rec(l, i)), n = u32_(rec(l, i) + 4);
    REQUIRE(n >= 4 && first == next && (uint64_t)first + n <= k->count, "loop %u: corners", i);
    next += n;
    for (uint32_t j = 0; j < n; j++) {
      const uint8_t *a = rec(k, first + j), *b = rec(k, first + (j + 1) % n);
      int32_t x = u16_(a) & 0x7FFF, y = u16_(a + 2) & 0x7FFF, bx = u16_(b) & 0x7FFF, by = u16_(b + 2) & 0x7FFF;
      uint32_t dir = (u16_(a) >> 15) | (u16_(a + 2) >> 15) << 1, ndir = (u16_(b) >> 15) | (u16_(b + 2) >> 15) << 1;
      static const int DX[4] = {1, 0, -1, 0}, DY[4] = {0, 1, 0, -1};
      /* the cell on the edge's right: (x, y) east, (x-1, y) south, (x-1, y-1) west, (x, y-1) north */
      int32_t cx = x - (dir == 1 || dir == 2), cy = y - (dir >= 2);
      REQUIRE(cx >= 0 && cy >= 0 && cx < (int32_t)c->W && cy < (int32_t)c->H, "corner %u: no cell on its right", first + j);
      int32_t dx = bx - x, dy = by - y;
      REQUIRE((DX[dir] ? dx * DX[dir] > 0 && dy == 0 : dy * DY[dir] > 0 && dx == 0), "corner %u: the edge misses the next corner", first + j);
      REQUIRE((dir ^ ndir) != 2, "corner %u: turns straight back", first + j);
    }
  }
  REQUIRE(next == k->count, "corners outside every loop");
  for (uint32_t i = 0; i < r->count; i++) {
    const uint8_t *a = rec(r, i);
    uint32_t x = u16_(a), y = u16_(a + 2), w = u16_(a + 4), h = u16_(a + 6);
    REQUIRE(w >= 1 && h >= 1 && x + w <= c->W && y + h <= c->H, "rectangle %u outside", i);
    if (i) {
      uint32_t px = u16_(a - r->stride), py = u16_(a - r->stride + 2);
      REQUIRE(y > py || (y == py && x > px), "rectangle %u out of row order", i);
    }
  }
  return 1;
}

/* ---- Objects ------------------------------------------------------------------ */

static int props(Chk *c, const uint8_t *r, uint64_t *next, const char *what, uint32_t i) {
  REQUIRE(u32_(r) == *next && (uint64_t)u32_(r) + u32_(r + 4) <= c->s[PROP].count, "%s %u: properties", what, i);
  *next += u32_(r + 4);
  return 1;
}

static bool finite_all(const uint8_t *r, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (!isfinite(f32_(r + 4 * i))) return false;
  return true;
}

static int check_objects(Chk *c, uint64_t *blob_next) {
  const Sec *b = &c->s[BODY], *sh = &c->s[SHAP], *j = &c->s[JOIN];
  uint64_t shape = 0, prop = 0;
  for (uint32_t i = 0; i < sh->count; i++) {
    const uint8_t *r = rec(sh, i);
    uint32_t kind = u32_(r);
    REQUIRE(kind <= 2 && finite_all(r + 4, 5) && f32_(r + 20) >= 0 && u32_(r + 28) == 0, "shape %u", i);
    if (kind == 2) {
      REQUIRE(u32_(r + 24) < c->s[POLY].count, "shape %u: polygon", i);
      const uint8_t *v = rec(&c->s[VERT], u32_(rec(&c->s[POLY], u32_(r + 24))));
      REQUIRE(u32_(r + 4) == u32_(v) && u32_(r + 8) == u32_(v + 4) && zero(r + 12, 12), "shape %u: polygon's a, b, radius", i);
    } else {
      REQUIRE(f32_(r + 20) > 0 && u32_(r + 24) == 0, "shape %u: radius or polygon", i);
      REQUIRE(kind == 1 || zero(r + 12, 8), "shape %u: circle's b", i);
    }
  }
  for (uint32_t i = 0; i < b->count; i++) {
    const uint8_t *r = rec(b, i);
    REQUIRE(u32_(r) != 0 && str_ok(c, u32_(r + 4)), "body %u: id or name", i);
    /* 3.7: byte 73 is the integrator (0 Euler, 1 RK4); reserved (0) before */
    int integ = c->minor >= 7;
    REQUIRE(r[8] <= 2 && r[9] <= 1 && r[10] <= 3 && r[11] <= 2 && r[72] <= 1 && (integ ? r[73] <= 1 : r[73] == 0) &&
                zero(r + 74, 6),
            "body %u: bytes", i);
    REQUIRE(u32_(r + 12) <= c->s[MATL].count && u32_(r + 16) <= c->s[SPRT].count, "body %u: material or sprite", i);
    REQUIRE(u32_(r + 16) == 0 || r[10] == 3, "body %u: a sprite on a body not made from one", i);
    REQUIRE(finite_all(r + 28, 3) && finite_all(r + 48, 4) && f32_(r + 48) >= 0 && f32_(r + 60) >= 0, "body %u: numbers", i);
    REQUIRE(u32_(r + 40) == shape && shape + u32_(r + 44) <= sh->count, "body %u: shapes", i);
    shape += u32_(r + 44);
    if (!props(c, r + 64, &prop, "body", i)) return 0;
  }
  REQUIRE(shape == sh->count, "shapes outside every body");
  bool seen_auto = false;
  for (uint32_t i = 0; i < j->count; i++) {
    const uint8_t *r = rec(j, i);
    uint32_t kind = u32_(r + 8), fl = u32_(r + 12);
    bool autop = fl & 2u, motor_fields = j->stride >= 80;
    REQUIRE(str_ok(c, u32_(r + 4)) && kind <= 1 && (fl & ~7u) == 0, "joint %u: name, kind, flags", i);
    REQUIRE(!(fl & 4u) || (motor_fields && kind == 0), "joint %u: motor flag", i);
    REQUIRE(u32_(r + 16) <= b->count && u32_(r + 20) <= b->count && u32_(r + 16) != u32_(r + 20), "joint %u: bodies", i);
    REQUIRE(finite_all(r + 24, 7) && f32_(r + 40) >= 0, "joint %u: numbers", i);
    REQUIRE(u32_(r + 60) == 0, "joint %u: reserved", i);
    if (motor_fields) {
      REQUIRE(finite_all(r + 64, 2) && f32_(r + 68) >= 0 && zero(r + 72, 8), "joint %u: motor or reserved", i);
      REQUIRE(kind == 0 || zero(r + 64, 8), "joint %u: a distance joint with a motor", i);
    }
    if (autop) REQUIRE(u32_(r) == 0 && kind == 0 && u32_(r + 24) == u32_(r + 32) && u32_(r + 28) == u32_(r + 36), "joint %u: auto-pin", i);
    else REQUIRE(u32_(r) != 0 && !seen_auto, "joint %u: a level joint after the auto-pins, or without an id", i);
    seen_auto |= autop;
    if (!props(c, r + 52, &prop, "joint", i)) return 0;
  }
  for (uint32_t i = 0; i < c->s[ZONE].count; i++) {
    const uint8_t *r = rec(&c->s[ZONE], i);
    REQUIRE(str_ok(c, u32_(r + 4)) && u32_(r + 8) <= (c->minor >= 7 ? 3u : 2u) && finite_all(r + 12, 9), "zone %u", i);
    REQUIRE(u32_(r + 8) != 3 || (f32_(r + 40) >= 0 && f32_(r + 40) <= 1e6f), "zone %u: spring strength", i);
    REQUIRE(f32_(r + 24) >= 0 && f32_(r + 28) >= 0 && f32_(r + 44) >= 0 && zero(r + 56, 8), "zone %u: sizes or reserved", i);
    if (!props(c, r + 48, &prop, "zone", i)) return 0;
  }
  for (uint32_t i = 0; i < c->s[SPWN].count; i++) {
    const uint8_t *r = rec(&c->s[SPWN], i);
    REQUIRE(str_ok(c, u32_(r + 4)) && finite_all(r + 8, 3) && u32_(r + 28) == 0, "spawn %u", i);
    if (!props(c, r + 20, &prop, "spawn", i)) return 0;
  }
  /* LNCH (3.8): speed 0..1000, radius > 0, a body's material index; properties after the spawns'. */
  for (uint32_t i = 0; i < c->s[LNCH].count; i++) {
    const uint8_t *r = rec(&c->s[LNCH], i);
    REQUIRE(c->minor >= 8, "launchers in a 3.%u file", c->minor);
    REQUIRE(str_ok(c, u32_(r + 4)) && finite_all(r + 8, 5) && u32_(r + 44) == 0, "launcher %u", i);
    REQUIRE(f32_(r + 20) >= 0 && f32_(r + 20) <= 1000 && f32_(r + 24) > 0, "launcher %u: speed or radius", i);
    REQUIRE(u32_(r + 28) <= c->s[MATL].count, "launcher %u: material", i);
    if (!props(c, r + 36, &prop, "launcher", i)) return 0;
  }
  for (uint32_t i = 0; i < c->s[SPRT].count; i++) {
    const uint8_t *r = rec(&c->s[SPRT], i);
    REQUIRE(u32_(r) > 0 && (i == 0 || u32_(r) > u32_(rec(&c->s[SPRT], i - 1))), "sprite %u: id", i);
    REQUIRE(str_ok(c, u32_(r + 4)) && str_ok(c, u32_(r + 8)) && u32_(r + 20) >= 1, "sprite %u", i);
    REQUIRE(finite_all(r + 24, 3) && f32_(r + 24) >= 0 && u32_(r + 44) == 0, "sprite %u: numbers or reserved", i);
    if (!check_image(c, u32_(r + 36), u32_(r + 40), blob_next, "sprite", i)) return 0;
  }
  REQUIRE(*blob_next == c->s[BLOB].size, "blob bytes after the last image");
  for (uint32_t i = 0; i < c->s[PROP].count; i++) {
    const uint8_t *r = rec(&c->s[PROP], i);
    uint32_t type = u32_(r + 4);
    uint64_t v = u64_(r + 8);
    REQUIRE(str_ok(c, u32_(r)) && type <= 4 && zero(r + 16, 8), "property %u", i);
    double f;
    memcpy(&f, &v, 8);
    REQUIRE(type != 0 || (v <= 0xFFFFFFFFu && str_ok(c, (uint32_t)v)), "property %u: string", i);
    REQUIRE(type != 2 || isfinite(f), "property %u: float", i);
    REQUIRE(type != 3 || v <= 1, "property %u: bool", i);
    REQUIRE(type != 4 || v <= 0xFFFFFFFFu, "property %u: colour", i);
  }
  REQUIRE(prop == c->s[PROP].count, "properties outside every object");
  return 1;
}

int tlv_spec_check(const uint8_t *data, size_t size, char *why, size_t why_size) {
  Chk c;
  memset(&c, 0, sizeof c);
  c.d = data;
  c.n = size;
  c.why = why;
  c.why_size = why_size;
  if (why && why_size) why[0] = 0;
  uint64_t blob_next = 0;
  return check_layout(&c) && check_strings(&c) && check_settings(&c) && check_materials(&c) && check_tilesets(&c, &blob_next) && check_terrains(&c) &&
         check_polygons(&c) && check_layers(&c) && check_collision(&c) && check_geometry(&c) && check_objects(&c, &blob_next) && check_draw_order(&c) &&
         check_pixel_masks(&c);
}
