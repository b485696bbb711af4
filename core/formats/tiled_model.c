/* The Tiled model's storage: constructors, destructors, paths and the
 * strict number parsing both readers share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_tiled.h"

TiledMap *tiled_map_new(const char *path, TessMapImport *plan) {
  TiledMap *m = tess_calloc(1, sizeof *m);
  if (!m) return NULL;
  m->plan = plan;
  m->path = tess_strdup(path);
  m->dir = tiled_path_dir(path);
  if (!m->path || !m->dir) {
    tiled_map_free(m);
    return NULL;
  }
  return m;
}

void tiled_props_free(TiledProps *p) {
  for (uint32_t i = 0; i < p->count; i++) {
    tess_free(p->items[i].name);
    tess_free(p->items[i].type);
    tess_free(p->items[i].value);
  }
  tess_free(p->items);
  p->items = NULL;
  p->count = 0;
}

void tiled_objects_free(TiledObjects *o) {
  for (uint32_t i = 0; i < o->count; i++) {
    TiledObject *ob = &o->items[i];
    tess_free(ob->name);
    tess_free(ob->cls);
    tess_free(ob->points);
    tiled_props_free(&ob->props);
  }
  tess_free(o->items);
  o->items = NULL;
  o->count = 0;
}

void tiled_tileset_free(TiledTileset *ts) {
  tess_free(ts->name);
  tess_free(ts->source);
  tess_free(ts->source_resolved);
  tess_free(ts->image);
  tess_free(ts->image_resolved);
  tess_free(ts->objectalignment);
  tess_free(ts->atlas_index);
  tess_free(ts->atlas_size);
  for (uint32_t i = 0; i < ts->tile_count_listed; i++) {
    tess_free(ts->tiles[i].cls);
    tess_free(ts->tiles[i].image);
    tiled_objects_free(&ts->tiles[i].shapes);
    tiled_props_free(&ts->tiles[i].props);
  }
  tess_free(ts->tiles);
  tiled_props_free(&ts->props);
  tiled_wangsets_free(ts);
  memset(ts, 0, sizeof *ts);
}

static void layer_free(TiledLayer *l) {
  tess_free(l->name);
  tess_free(l->gids);
  for (uint32_t i = 0; i < l->chunk_count; i++) tess_free(l->chunks[i].gids);
  tess_free(l->chunks);
  tiled_objects_free(&l->objects);
  tiled_props_free(&l->props);
}

void tiled_map_free(TiledMap *m) {
  if (!m) return;
  for (uint32_t i = 0; i < m->tileset_count; i++) tiled_tileset_free(&m->tilesets[i]);
  tess_free(m->tilesets);
  for (uint32_t i = 0; i < m->layer_count; i++) layer_free(&m->layers[i]);
  tess_free(m->layers);
  tiled_props_free(&m->props);
  tess_free(m->path);
  tess_free(m->dir);
  tess_free(m->orientation);
  tess_free(m->renderorder);
  tess_free(m);
}

/* Grows an array of `elem`-sized items by one zeroed item. */
static void *grow(void **items, uint32_t *count, size_t elem) {
  void *n = tess_realloc(*items, ((size_t)*count + 1) * elem);
  if (!n) return NULL;
  *items = n;
  void *item = (char *)n + (size_t)*count * elem;
  memset(item, 0, elem);
  (*count)++;
  return item;
}

TiledProp *tiled_props_add(TiledProps *p, const char *name, const char *type, const char *value) {
  char *a = tess_strdup(name ? name : ""), *b = tess_strdup(type ? type : "string"), *c = tess_strdup(value ? value : "");
  TiledProp *prop = (a && b && c) ? grow((void **)&p->items, &p->count, sizeof *p->items) : NULL;
  if (!prop) {
    tess_free(a);
    tess_free(b);
    tess_free(c);
    return NULL;
  }
  prop->name = a;
  prop->type = b;
  prop->value = c;
  return prop;
}

TiledObject *tiled_objects_add(TiledObjects *o) {
  TiledObject *ob = grow((void **)&o->items, &o->count, sizeof *o->items);
  if (ob) ob->visible = true;
  return ob;
}

TiledLayer *tiled_map_add_layer(TiledMap *m) {
  if (m->layer_count >= TESS_MAP_MAX_LAYERS) return NULL;
  TiledLayer *l = grow((void **)&m->layers, &m->layer_count, sizeof *m->layers);
  if (l) {
    l->opacity = 1.0;
    l->visible = true;
    l->parallax_x = l->parallax_y = 1.0;
  }
  return l;
}

TiledTileset *tiled_map_add_tileset(TiledMap *m) {
  if (m->tileset_count >= TESS_MAP_MAX_TILESETS) return NULL;
  return grow((void **)&m->tilesets, &m->tileset_count, sizeof *m->tilesets);
}

TiledTile *tiled_tileset_tile(TiledTileset *ts, uint32_t id, bool create) {
  for (uint32_t i = 0; i < ts->tile_count_listed; i++)
    if (ts->tiles[i].id == id) return &ts->tiles[i];
  if (!create) return NULL;
  TiledTile *t = grow((void **)&ts->tiles, &ts->tile_count_listed, sizeof *ts->tiles);
  if (t) t->id = id;
  return t;
}

char *tiled_path_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return tess_strdup(".");
  size_t n = (size_t)(slash - path);
  if (n == 0) n = 1; /* "/map.tmx" */
  char *d = tess_alloc(n + 1);
  if (!d) return NULL;
  memcpy(d, path, n);
  d[n] = 0;
  return d;
}

char *tiled_path_join(const char *dir, const char *rel) {
  if (rel[0] == '/' || !dir || !dir[0] || strcmp(dir, ".") == 0) return tess_strdup(rel);
  size_t a = strlen(dir), b = strlen(rel);
  char *out = tess_alloc(a + b + 2);
  if (!out) return NULL;
  memcpy(out, dir, a);
  out[a] = '/';
  memcpy(out + a + 1, rel, b + 1);
  return out;
}

bool tiled_parse_double(const char *s, double *out) {
  if (!s || !*s) return false;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno == ERANGE || !isfinite(v)) return false;
  *out = v;
  return true;
}

bool tiled_parse_u32(const char *s, uint32_t max, uint32_t *out) {
  if (!s || *s < '0' || *s > '9') return false;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE || v > max) return false;
  *out = (uint32_t)v;
  return true;
}

bool tiled_parse_i32(const char *s, int32_t *out) {
  if (!s || !*s) return false;
  char *end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (*end || errno == ERANGE || v < INT32_MIN || v > INT32_MAX) return false;
  *out = (int32_t)v;
  return true;
}

bool tiled_parse_color(const char *s, uint32_t *argb) {
  if (!s) return false;
  if (*s == '#') s++;
  size_t n = strlen(s);
  if (n != 6 && n != 8) return false;
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    uint32_t d = c >= '0' && c <= '9'   ? (uint32_t)(c - '0')
                 : c >= 'a' && c <= 'f' ? (uint32_t)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (uint32_t)(c - 'A' + 10)
                                        : 16u;
    if (d > 15) return false;
    v = v << 4 | d;
  }
  *argb = n == 6 ? (0xFF000000u | v) : v;
  return true;
}
