/* The pieces of a Tiled model (formats_tiled_write.h): the string arena, typed
 * property lists, object lists, number and colour text, UTF-8 checks.
 * Shared by the builder and both serialisers. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_tiled_write_build.h"

const char *tiled_write_strdup(TwMap *m, const char *s) {
  if (m->failed) return "";
  if (!tess_array_reserve((void **)&m->strings, &m->string_cap, m->string_count + 1, sizeof *m->strings)) {
    m->failed = true;
    return "";
  }
  char *c = tess_strdup(s ? s : "");
  if (!c) {
    m->failed = true;
    return "";
  }
  m->strings[m->string_count++] = c;
  return c;
}

const char *tiled_write_printf(TwMap *m, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return tiled_write_strdup(m, buf);
}

static TwProp *prop_add(TwMap *m, TwProps *props, const char *name, uint8_t type) {
  if (m->failed) return NULL;
  if (!tess_array_reserve((void **)&props->v, &props->cap, props->n + 1, sizeof *props->v)) {
    m->failed = true;
    return NULL;
  }
  TwProp *p = &props->v[props->n++];
  memset(p, 0, sizeof *p);
  p->name = name;
  p->type = type;
  return p;
}

void tiled_write_prop_string(TwMap *m, TwProps *props, const char *name, const char *value) {
  TwProp *p = prop_add(m, props, name, TW_STRING);
  if (p) p->s = value ? value : "";
}

void tiled_write_prop_file(TwMap *m, TwProps *props, const char *name, const char *value) {
  TwProp *p = prop_add(m, props, name, TW_FILE);
  if (p) p->s = value ? value : "";
}

void tiled_write_prop_int(TwMap *m, TwProps *props, const char *name, int64_t value) {
  TwProp *p = prop_add(m, props, name, TW_INT);
  if (p) p->i = value;
}

void tiled_write_prop_object(TwMap *m, TwProps *props, const char *name, uint32_t id) {
  TwProp *p = prop_add(m, props, name, TW_OBJECT);
  if (p) p->i = id;
}

void tiled_write_prop_float(TwMap *m, TwProps *props, const char *name, double value) {
  TwProp *p = prop_add(m, props, name, TW_FLOAT);
  if (p) p->f = value;
}

void tiled_write_prop_bool(TwMap *m, TwProps *props, const char *name, bool value) {
  TwProp *p = prop_add(m, props, name, TW_BOOL);
  if (p) p->b = value;
}

void tiled_write_prop_color(TwMap *m, TwProps *props, const char *name, uint32_t rgba) {
  TwProp *p = prop_add(m, props, name, TW_COLOR);
  if (p) p->color = rgba;
}

TwObject *tiled_write_object_add(TwMap *m, TwObjects *objs) {
  if (m->failed) return NULL;
  if (!tess_array_reserve((void **)&objs->v, &objs->cap, objs->n + 1, sizeof *objs->v)) {
    m->failed = true;
    return NULL;
  }
  TwObject *o = &objs->v[objs->n++];
  memset(o, 0, sizeof *o);
  o->name = "";
  o->type = "";
  return o;
}

TwPoint *tiled_write_points(TwMap *m, TwObject *o, uint32_t count) {
  if (m->failed) return NULL;
  if (!tess_array_reserve((void **)&m->strings, &m->string_cap, m->string_count + 1, sizeof *m->strings)) {
    m->failed = true;
    return NULL;
  }
  TwPoint *pts = tess_calloc(count ? count : 1, sizeof *pts);
  if (!pts) {
    m->failed = true;
    return NULL;
  }
  m->strings[m->string_count++] = (char *)pts; /* the arena frees it */
  o->points = pts;
  o->point_count = count;
  return pts;
}

static void objects_clear(TwObjects *objs) {
  for (size_t i = 0; i < objs->n; i++) tess_free(objs->v[i].props.v);
  tess_free(objs->v);
  memset(objs, 0, sizeof *objs);
}

void tiled_write_map_clear(TwMap *m) {
  for (size_t i = 0; i < m->tileset_count; i++) {
    TwTileset *ts = &m->tilesets[i];
    tess_free(ts->props.v);
    tess_free(ts->png_owned);
    for (size_t k = 0; k < ts->tile_n; k++) {
      tess_free(ts->tiles[k].props.v);
      objects_clear(&ts->tiles[k].objects);
    }
    tess_free(ts->tiles);
  }
  tess_free(m->tilesets);
  for (size_t i = 0; i < m->layer_count; i++) {
    tess_free(m->layers[i].props.v);
    tess_free(m->layers[i].gids);
    objects_clear(&m->layers[i].objects);
  }
  tess_free(m->layers);
  tess_free(m->props.v);
  for (size_t i = 0; i < m->string_count; i++) tess_free(m->strings[i]);
  tess_free(m->strings);
  memset(m, 0, sizeof *m);
}

/* The shortest of %.1g .. %.17g that strtod reads back as v: every double
 * survives the trip, and the project's floats (exact in a double) print as
 * short as they were typed. */
void tiled_write_format_double(double v, char out[32]) {
  if (v == 0.0) {
    snprintf(out, 32, signbit(v) ? "-0" : "0");
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(out, 32, "%.*g", prec, v);
    if (strtod(out, NULL) == v) return;
  }
  snprintf(out, 32, "%.17g", v);
}

void tiled_write_format_color(uint32_t rgba, char out[16]) {
  snprintf(out, 16, "#%02x%02x%02x%02x", rgba & 0xFFu, rgba >> 24, (rgba >> 16) & 0xFFu, (rgba >> 8) & 0xFFu);
}

bool tiled_write_utf8_valid(const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  while (*s) {
    unsigned char c = *s;
    if (c < 0x80) {
      s++;
      continue;
    }
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1Fu;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0Fu;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07u;
    else return false;
    for (size_t k = 1; k < len; k++) {
      if ((s[k] & 0xC0) != 0x80) return false;
      cp = cp << 6 | (s[k] & 0x3Fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    s += len;
  }
  return true;
}
