/* A Tiled model as TMJ/TSJ (Tiled's JSON, the layout Tiled 1.8 writes),
 * through jansson. Keys go out in the order they are set
 * (JSON_PRESERVE_ORDER), which is fixed here, so the same level gives the
 * same bytes; reals are printed with 17 significant digits, so every double
 * reads back exactly (and the project's floats with it).
 *
 * Layer data is the one thing not built as jansson values: a 1024 x 1024
 * layer would be a million json_t. Each layer's "data" is a placeholder
 * string in the tree, and the dumped text gets the CSV array spliced in
 * its place. The placeholder starts with a control character that
 * jansson escapes as \u0001, and is only looked for as the value of a
 * "data" key, which nothing but a layer has. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "formats_tiled_write.h"

#define DUMP_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
#define PLACEHOLDER "\001tw-layer-data"
#define PLACEHOLDER_DUMPED "\"data\": \"\\u0001tw-layer-data\""

typedef struct Ctx {
  TessError *err;
  TessResult r; /* the first failure */
} Ctx;

static void fail(Ctx *c, TessResult code, const char *what) {
  if (c->r == TESS_OK) c->r = tess_error_set(c->err, code, "export", "%s", what);
}

/* json_object_set_new that notes a NULL value (out of memory, or a string
 * that is not UTF-8, or a real that is not finite). */
static void set(Ctx *c, json_t *obj, const char *key, json_t *value, const char *what) {
  if (!value) {
    fail(c, TESS_ERR_FORMAT, what);
    return;
  }
  if (!obj || json_object_set_new(obj, key, value) != 0) fail(c, TESS_ERR_NOMEM, "out of memory");
}

static void append(Ctx *c, json_t *arr, json_t *value, const char *what) {
  if (!value) {
    fail(c, TESS_ERR_FORMAT, what);
    return;
  }
  if (!arr || json_array_append_new(arr, value) != 0) fail(c, TESS_ERR_NOMEM, "out of memory");
}

static json_t *text(Ctx *c, const char *s) {
  json_t *v = json_string(s ? s : "");
  if (!v && c->r == TESS_OK)
    c->r = tess_error_set(c->err, TESS_ERR_FORMAT, "export", "text '%.40s' is not valid UTF-8", s ? s : "");
  return v;
}

static json_t *real(Ctx *c, double v, const char *name) {
  json_t *j = json_real(v);
  if (!j && c->r == TESS_OK)
    c->r = tess_error_set(c->err, TESS_ERR_FORMAT, "export", "'%s' is not a finite number", name ? name : "value");
  return j;
}

static json_t *props_json(Ctx *c, const TwProps *props) {
  json_t *arr = json_array();
  for (size_t i = 0; i < props->n; i++) {
    const TwProp *p = &props->v[i];
    static const char *types[] = {"string", "int", "float", "bool", "color", "object", "file"};
    json_t *o = json_object();
    set(c, o, "name", text(c, p->name), "property name");
    set(c, o, "type", json_string(types[p->type]), "property type");
    json_t *v = NULL;
    switch (p->type) {
      case TW_STRING:
      case TW_FILE: v = text(c, p->s); break;
      case TW_INT:
      case TW_OBJECT: v = json_integer((json_int_t)p->i); break;
      case TW_FLOAT: v = real(c, p->f, p->name); break;
      case TW_BOOL: v = json_boolean(p->b); break;
      case TW_COLOR: {
        char col[16];
        tiled_write_format_color(p->color, col);
        v = json_string(col);
        break;
      }
      default: break;
    }
    set(c, o, "value", v, "property value");
    append(c, arr, o, "property");
  }
  return arr;
}

static json_t *points_json(Ctx *c, const TwObject *o) {
  json_t *arr = json_array();
  for (uint32_t i = 0; i < o->point_count; i++) {
    json_t *pt = json_object();
    set(c, pt, "x", real(c, o->points[i].x, "x"), "x");
    set(c, pt, "y", real(c, o->points[i].y, "y"), "y");
    append(c, arr, pt, "point");
  }
  return arr;
}

static json_t *object_json(Ctx *c, const TwObject *o) {
  json_t *j = json_object();
  if (o->shape == TW_TILE) set(c, j, "gid", json_integer(o->gid), "gid");
  set(c, j, "height", real(c, o->height, "height"), "height");
  set(c, j, "id", json_integer(o->id), "id");
  set(c, j, "name", text(c, o->name), "object name");
  if (o->shape == TW_ELLIPSE) set(c, j, "ellipse", json_true(), "ellipse");
  if (o->shape == TW_POINT) set(c, j, "point", json_true(), "point");
  if (o->shape == TW_POLYGON) set(c, j, "polygon", points_json(c, o), "polygon");
  if (o->shape == TW_POLYLINE) set(c, j, "polyline", points_json(c, o), "polyline");
  if (o->props.n) set(c, j, "properties", props_json(c, &o->props), "properties");
  set(c, j, "rotation", real(c, o->rotation, "rotation"), "rotation");
  set(c, j, "type", text(c, o->type), "object type");
  set(c, j, "visible", json_true(), "visible");
  set(c, j, "width", real(c, o->width, "width"), "width");
  set(c, j, "x", real(c, o->x, "x"), "x");
  set(c, j, "y", real(c, o->y, "y"), "y");
  return j;
}

static json_t *objects_json(Ctx *c, const TwObjects *objs) {
  json_t *arr = json_array();
  for (size_t i = 0; i < objs->n; i++) append(c, arr, object_json(c, &objs->v[i]), "object");
  return arr;
}

static json_t *layer_json(Ctx *c, const TwMap *m, const TwLayer *l) {
  json_t *j = json_object();
  if (l->tiles) set(c, j, "data", json_string(PLACEHOLDER), "data");
  else set(c, j, "draworder", json_string(l->topdown ? "topdown" : "index"), "draworder");
  if (l->tiles) set(c, j, "height", json_integer(m->height), "height");
  set(c, j, "id", json_integer(l->id), "id");
  if (l->locked) set(c, j, "locked", json_true(), "locked");
  set(c, j, "name", text(c, l->name), "layer name");
  if (!l->tiles) set(c, j, "objects", objects_json(c, &l->objects), "objects");
  set(c, j, "opacity", real(c, l->opacity, "opacity"), "opacity");
  if (l->props.n) set(c, j, "properties", props_json(c, &l->props), "properties");
  set(c, j, "type", json_string(l->tiles ? "tilelayer" : "objectgroup"), "type");
  set(c, j, "visible", json_boolean(l->visible), "visible");
  if (l->tiles) set(c, j, "width", json_integer(m->width), "width");
  set(c, j, "x", json_integer(0), "x");
  set(c, j, "y", json_integer(0), "y");
  return j;
}

/* ---- Output text ---------------------------------------------------------- */

typedef struct Buf {
  char *s;
  size_t len, cap;
  bool failed;
} Buf;

static void put(Buf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (!tess_array_reserve((void **)&b->s, &b->cap, b->len + n + 1, 1)) {
    b->failed = true;
    return;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

/* One row per line, as Tiled writes CSV. */
static void put_gids(Buf *b, const TwMap *m, const TwLayer *l, const char *indent) {
  put(b, "[", 1);
  for (uint32_t y = 0; y < m->height; y++) {
    char line[16 * 64];
    size_t n = 0;
    if (y) {
      put(b, ",\n", 2);
      put(b, indent, strlen(indent));
    }
    for (uint32_t x = 0; x < m->width; x++) {
      char digits[12];
      uint32_t v = l->gids[(size_t)y * m->width + x];
      int k = 0;
      do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
      } while (v);
      if (x) line[n++] = ',';
      while (k) line[n++] = digits[--k];
      if (n > sizeof line - 16) {
        put(b, line, n);
        n = 0;
      }
    }
    put(b, line, n);
  }
  put(b, "]", 1);
}

static TessResult finish(Ctx *c, json_t *root, const TwMap *m, char **out, size_t *size) {
  if (c->r != TESS_OK) {
    json_decref(root);
    return c->r;
  }
  char *dumped = json_dumps(root, DUMP_FLAGS);
  json_decref(root);
  if (!dumped) return tess_error_set(c->err, TESS_ERR_NOMEM, "export", "out of memory");
  Buf b = {0};
  const char *at = dumped;
  for (size_t i = 0; m && i < m->layer_count; i++) {
    if (!m->layers[i].tiles) continue;
    const char *hit = strstr(at, PLACEHOLDER_DUMPED);
    if (!hit) break;
    const char *line = hit;
    while (line > dumped && line[-1] != '\n') line--;
    char indent[64];
    size_t n = (size_t)(hit - line) + 1;
    if (n >= sizeof indent) n = sizeof indent - 1;
    memset(indent, ' ', n);
    indent[n] = 0;
    put(&b, at, (size_t)(hit - at));
    put(&b, "\"data\": ", 8);
    put_gids(&b, m, &m->layers[i], indent);
    at = hit + strlen(PLACEHOLDER_DUMPED);
  }
  put(&b, at, strlen(at));
  put(&b, "\n", 1);
  free(dumped);
  if (b.failed) {
    tess_free(b.s);
    return tess_error_set(c->err, TESS_ERR_NOMEM, "export", "out of memory");
  }
  *out = b.s;
  *size = b.len;
  return TESS_OK;
}

TessResult tiled_write_tmj_map(const TwMap *m, char **out, size_t *size, TessError *err) {
  Ctx c = {err, TESS_OK};
  json_t *root = json_object();
  set(&c, root, "compressionlevel", json_integer(-1), "compressionlevel");
  set(&c, root, "height", json_integer(m->height), "height");
  set(&c, root, "infinite", json_false(), "infinite");
  set(&c, root, "properties", props_json(&c, &m->props), "properties");
  set(&c, root, "nextlayerid", json_integer(m->next_layer_id), "nextlayerid");
  set(&c, root, "nextobjectid", json_integer(m->next_object_id), "nextobjectid");
  set(&c, root, "orientation", json_string("orthogonal"), "orientation");
  set(&c, root, "renderorder", json_string("right-down"), "renderorder");
  set(&c, root, "tiledversion", json_string(TW_TILED_VERSION), "tiledversion");
  set(&c, root, "tileheight", json_integer(m->tile_h), "tileheight");
  json_t *sets = json_array();
  for (size_t i = 0; i < m->tileset_count; i++) {
    json_t *ref = json_object();
    set(&c, ref, "firstgid", json_integer(m->tilesets[i].firstgid), "firstgid");
    char source[160];
    snprintf(source, sizeof source, "%s/%s.tsj", TW_DIR, m->tilesets[i].stem);
    set(&c, ref, "source", text(&c, source), "source");
    append(&c, sets, ref, "tileset");
  }
  set(&c, root, "tilesets", sets, "tilesets");
  set(&c, root, "tilewidth", json_integer(m->tile_w), "tilewidth");
  set(&c, root, "type", json_string("map"), "type");
  set(&c, root, "version", json_string(TW_FORMAT_VERSION), "version");
  set(&c, root, "width", json_integer(m->width), "width");
  json_t *layers = json_array();
  for (size_t i = 0; i < m->layer_count; i++) append(&c, layers, layer_json(&c, m, &m->layers[i]), "layer");
  set(&c, root, "layers", layers, "layers");
  return finish(&c, root, m, out, size);
}

static json_t *tile_json(Ctx *c, const TwTile *t) {
  json_t *j = json_object();
  if (t->frame_count) {
    json_t *anim = json_array();
    for (uint32_t f = 0; f < t->frame_count; f++) {
      json_t *fr = json_object();
      set(c, fr, "duration", json_integer(t->frame_ms), "duration");
      set(c, fr, "tileid", json_integer(f), "tileid");
      append(c, anim, fr, "frame");
    }
    set(c, j, "animation", anim, "animation");
  }
  set(c, j, "id", json_integer(t->id), "id");
  if (t->objects.n) {
    json_t *g = json_object();
    set(c, g, "draworder", json_string("index"), "draworder");
    set(c, g, "name", json_string(""), "name");
    set(c, g, "objects", objects_json(c, &t->objects), "objects");
    set(c, g, "opacity", json_integer(1), "opacity");
    set(c, g, "type", json_string("objectgroup"), "type");
    set(c, g, "visible", json_true(), "visible");
    set(c, g, "x", json_integer(0), "x");
    set(c, g, "y", json_integer(0), "y");
    set(c, j, "objectgroup", g, "objectgroup");
  }
  if (t->has_probability) set(c, j, "probability", real(c, t->probability, "probability"), "probability");
  if (t->props.n) set(c, j, "properties", props_json(c, &t->props), "properties");
  return j;
}

/* Terrain sets as Tiled's "wangsets" (1.5+ form: wangid an array of 8). */
static json_t *wangsets_json(Ctx *c, const TwTileset *ts) {
  static const char *kinds[] = {"corner", "edge", "mixed"};
  json_t *arr = json_array();
  for (uint32_t i = 0; i < ts->terrain_count; i++) {
    const TessTerrainSet *s = &ts->terrains[i];
    json_t *o = json_object(), *colors = json_array(), *tiles = json_array();
    for (uint32_t k = 0; k < s->color_count; k++) {
      char color[16];
      tiled_write_format_color(s->colors[k].color, color);
      json_t *col = json_object();
      set(c, col, "color", json_string(color), "wang colour");
      set(c, col, "name", text(c, s->colors[k].name), "wang colour name");
      set(c, col, "probability", real(c, s->colors[k].probability, "wang colour probability"), "probability");
      set(c, col, "tile", json_integer(s->colors[k].tile), "tile");
      append(c, colors, col, "wang colour");
    }
    for (uint32_t k = 0; k < s->tile_count; k++) {
      json_t *t = json_object(), *id = json_array();
      for (int p = 0; p < 8; p++) append(c, id, json_integer(s->tiles[k].wang[p]), "wangid");
      set(c, t, "tileid", json_integer(s->tiles[k].tile), "tileid");
      set(c, t, "wangid", id, "wangid");
      append(c, tiles, t, "wang tile");
    }
    set(c, o, "colors", colors, "colors");
    set(c, o, "name", text(c, s->name), "wang set name");
    set(c, o, "tile", json_integer(s->tile), "tile");
    set(c, o, "type", json_string(kinds[s->kind <= 2 ? s->kind : 0]), "type");
    set(c, o, "wangtiles", tiles, "wangtiles");
    append(c, arr, o, "wang set");
  }
  return arr;
}

TessResult tiled_write_tmj_tileset(const TwTileset *ts, char **out, size_t *size, TessError *err) {
  Ctx c = {err, TESS_OK};
  char image[160];
  snprintf(image, sizeof image, "%s.png", ts->stem);
  json_t *root = json_object();
  set(&c, root, "columns", json_integer(ts->columns), "columns");
  set(&c, root, "image", text(&c, image), "image");
  set(&c, root, "imageheight", json_integer(ts->image_h), "imageheight");
  set(&c, root, "imagewidth", json_integer(ts->image_w), "imagewidth");
  set(&c, root, "margin", json_integer(ts->margin), "margin");
  set(&c, root, "name", text(&c, ts->name), "tileset name");
  if (ts->props.n) set(&c, root, "properties", props_json(&c, &ts->props), "properties");
  set(&c, root, "spacing", json_integer(ts->spacing), "spacing");
  set(&c, root, "tilecount", json_integer(ts->tile_count), "tilecount");
  set(&c, root, "tiledversion", json_string(TW_TILED_VERSION), "tiledversion");
  set(&c, root, "tileheight", json_integer(ts->tile_h), "tileheight");
  if (ts->offset_x || ts->offset_y) {
    json_t *off = json_object();
    set(&c, off, "x", json_integer(ts->offset_x), "tileoffset.x");
    set(&c, off, "y", json_integer(ts->offset_y), "tileoffset.y");
    set(&c, root, "tileoffset", off, "tileoffset");
  }
  if (ts->fit_grid) set(&c, root, "tilerendersize", json_string("grid"), "tilerendersize");
  if (ts->tile_n) {
    json_t *tiles = json_array();
    for (size_t i = 0; i < ts->tile_n; i++) append(&c, tiles, tile_json(&c, &ts->tiles[i]), "tile");
    set(&c, root, "tiles", tiles, "tiles");
  }
  set(&c, root, "tilewidth", json_integer(ts->tile_w), "tilewidth");
  set(&c, root, "type", json_string("tileset"), "type");
  set(&c, root, "version", json_string(TW_FORMAT_VERSION), "version");
  if (ts->terrain_count) set(&c, root, "wangsets", wangsets_json(&c, ts), "wangsets");
  return finish(&c, root, NULL, out, size);
}
