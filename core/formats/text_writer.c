/* The text form's JSON writer, words and file names. We write JSON by hand
 * rather than through json_dumps because the text form needs two things
 * jansson's printer does not give: the shortest round-trip numbers
 * (text_number.c) and a layout chosen per object (one key per line, so an
 * edit of one field is a one-line diff; short arrays on one line). jansson
 * reads every file back (text_load.c). */
#include <inttypes.h>
#include <stdlib.h>

#include "formats_text.h"

void text_write_free(TextBuf *b) {
  tess_free(b->data);
  memset(b, 0, sizeof *b);
}

void text_write_raw(TextBuf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *d = tess_realloc(b->data, cap);
    if (!d) {
      b->failed = true;
      return;
    }
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void text_write_str(TextBuf *b, const char *s) { text_write_raw(b, s, strlen(s)); }

void text_write_printf(TextBuf *b, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    text_write_raw(b, small, (size_t)n);
    return;
  }
  char *big = tess_alloc((size_t)n + 1);
  if (!big) {
    b->failed = true;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  text_write_raw(b, big, (size_t)n);
  tess_free(big);
}

/* A JSON string: quotes, backslashes and control characters escaped; UTF-8 as is. */
static void text_write_quoted(TextBuf *b, const char *s) {
  text_write_raw(b, "\"", 1);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\') {
      char esc[2] = {'\\', (char)*c};
      text_write_raw(b, esc, 2);
    } else if (*c == '\n') {
      text_write_raw(b, "\\n", 2);
    } else if (*c == '\t') {
      text_write_raw(b, "\\t", 2);
    } else if (*c < 0x20) {
      text_write_printf(b, "\\u%04x", *c);
    } else {
      text_write_raw(b, (const char *)c, 1);
    }
  }
  text_write_raw(b, "\"", 1);
}

/* Separator, line break and indentation before a member, then its key. */
static void text_write_member(TextBuf *b, const char *key) {
  bool flat = b->depth > 0 && b->flat[b->depth - 1];
  if (b->depth > 0) {
    if (!b->first[b->depth - 1]) text_write_raw(b, ",", 1);
    if (flat) {
      if (!b->first[b->depth - 1]) text_write_raw(b, " ", 1);
    } else {
      text_write_raw(b, "\n", 1);
      for (int i = 0; i < b->depth; i++) text_write_raw(b, "  ", 2);
    }
    b->first[b->depth - 1] = false;
  }
  if (key) {
    text_write_quoted(b, key);
    text_write_raw(b, ": ", 2);
  }
}

void text_write_open(TextBuf *b, const char *key, char bracket, bool flat) {
  text_write_member(b, key);
  text_write_raw(b, &bracket, 1);
  if (b->depth < 31) {
    b->first[b->depth] = true;
    /* Inside a flat container everything stays flat. */
    b->flat[b->depth] = flat || (b->depth > 0 && b->flat[b->depth - 1]);
    b->closer[b->depth] = bracket == '{' ? '}' : ']';
  }
  b->depth++;
}

void text_write_close(TextBuf *b) {
  b->depth--;
  bool flat = b->flat[b->depth], empty = b->first[b->depth];
  if (!flat && !empty) {
    text_write_raw(b, "\n", 1);
    for (int i = 0; i < b->depth; i++) text_write_raw(b, "  ", 2);
  }
  text_write_raw(b, &b->closer[b->depth], 1);
  if (b->depth == 0) text_write_raw(b, "\n", 1);
}

void text_write_key_str(TextBuf *b, const char *key, const char *value) {
  text_write_member(b, key);
  if (value) text_write_quoted(b, value);
  else text_write_raw(b, "null", 4);
}

void text_write_key_int(TextBuf *b, const char *key, int64_t value) {
  text_write_member(b, key);
  text_write_printf(b, "%" PRId64, value);
}

void text_write_key_u32(TextBuf *b, const char *key, uint32_t value) {
  text_write_member(b, key);
  text_write_printf(b, "%" PRIu32, value);
}

void text_write_key_bool(TextBuf *b, const char *key, bool value) {
  text_write_member(b, key);
  text_write_str(b, value ? "true" : "false");
}

void text_write_key_f32(TextBuf *b, const char *key, float value) {
  char num[TESS_NUMBER_BUF];
  int n = tess_format_f32(value, num);
  text_write_member(b, key);
  text_write_raw(b, num, (size_t)n);
}

void text_write_key_f64(TextBuf *b, const char *key, double value) {
  char num[TESS_NUMBER_BUF];
  int n = tess_format_f64(value, num);
  text_write_member(b, key);
  text_write_raw(b, num, (size_t)n);
}

void text_write_key_vec(TextBuf *b, const char *key, TessVec2 v) {
  char x[TESS_NUMBER_BUF], y[TESS_NUMBER_BUF];
  tess_format_f32(v.x, x);
  tess_format_f32(v.y, y);
  text_write_member(b, key);
  text_write_printf(b, "[%s, %s]", x, y);
}

void text_write_key_color(TextBuf *b, const char *key, uint32_t rgba) {
  char s[16];
  snprintf(s, sizeof s, "#%08" PRIx32, rgba);
  text_write_key_str(b, key, s);
}

/* ---- locale ---- */

void text_locale_push(TextLocale *l) {
  l->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  l->old = l->c ? uselocale(l->c) : (locale_t)0;
}

void text_locale_pop(TextLocale *l) {
  if (!l->c) return;
  uselocale(l->old);
  freelocale(l->c);
  l->c = (locale_t)0;
}

/* ---- words ---- */

const char *const TEXT_MATERIAL_KINDS[3] = {"solid", "floor", "fluid"};
const char *const TEXT_TILE_COLLISIONS[3] = {"none", "full", "traced"};
const char *const TEXT_MASK_MODES[5] = {"hull", "simplified", "pieces", "circle", "box"};
const char *const TEXT_OBJECT_KINDS[5] = {"body", "joint", "zone", "spawn", "launcher"};
const char *const TEXT_BODY_SHAPES[4] = {"circle", "box", "capsule", "sprite"};
const char *const TEXT_BODY_TYPES[3] = {"static", "kinematic", "dynamic"};
const char *const TEXT_PIN_MODES[3] = {"none", "smaller-centroid", "overlap-centre"};
const char *const TEXT_JOINT_KINDS[2] = {"pin", "distance"};
const char *const TEXT_ZONE_KINDS[4] = {"force", "acceleration", "attractor", "spring"};
const char *const TEXT_INTEGRATORS[2] = {"euler", "rk4"};
const char *const TEXT_PROP_TYPES[5] = {"string", "int", "float", "bool", "color"};
const char *const TEXT_LAYER_KINDS[3] = {"tiles", "material", "objects"};
const char *const TEXT_VIEWS[2] = {"side", "top-down"};

const char *text_word(const char *const *words, size_t count, unsigned v) { return v < count ? words[v] : "?"; }

/* ---- file names ---- */

void text_path_material(char *buf, size_t size, TessId id) { snprintf(buf, size, "materials/%" PRIu32 ".json", id); }
void text_path_tileset(char *buf, size_t size, TessId id, const char *ext) {
  snprintf(buf, size, "tilesets/%" PRIu32 ".%s", id, ext);
}
void text_path_sprite(char *buf, size_t size, TessId id, const char *ext) {
  snprintf(buf, size, "sprites/%" PRIu32 ".%s", id, ext);
}
void text_path_level_dir(char *buf, size_t size, TessId level) { snprintf(buf, size, "levels/%" PRIu32, level); }
void text_path_level(char *buf, size_t size, TessId level) {
  snprintf(buf, size, "levels/%" PRIu32 "/level.json", level);
}
void text_path_rows(char *buf, size_t size, TessId level, TessId layer) {
  snprintf(buf, size, "levels/%" PRIu32 "/layer-%" PRIu32 ".rows", level, layer);
}
void text_path_objects_dir(char *buf, size_t size, TessId level) {
  snprintf(buf, size, "levels/%" PRIu32 "/objects", level);
}
void text_path_object(char *buf, size_t size, TessId level, TessId object) {
  snprintf(buf, size, "levels/%" PRIu32 "/objects/%" PRIu32 ".json", level, object);
}

/* ---- row tokens ---- */

static int put_u32(char *buf, uint32_t v) {
  char tmp[12];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  return n;
}

int text_cell_token(uint32_t cell, bool material, char *buf) {
  if (cell == 0) {
    buf[0] = '.';
    return 1;
  }
  if (material) return put_u32(buf, cell);
  int n = put_u32(buf, TESS_CELL_TILESET(cell));
  buf[n++] = ':';
  n += put_u32(buf + n, TESS_CELL_TILE(cell));
  if (cell & TESS_CELL_FLIP_H) buf[n++] = 'h';
  if (cell & TESS_CELL_FLIP_V) buf[n++] = 'v';
  if (cell & TESS_CELL_FLIP_D) buf[n++] = 'd';
  if (cell & TESS_CELL_RESERVED) buf[n++] = 'r';
  return n;
}
