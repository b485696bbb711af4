/* TMJ and TSJ (Tiled's JSON) into the Tiled model, through jansson.
 * jansson refuses NaN and infinities (not JSON), numbers that overflow, and
 * nesting deeper than its parser limit; everything else is checked here,
 * naming the JSON path of the value ("layers[2].data[17]"). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "tessera/image.h"
#include "formats_tiled.h"

typedef struct Ctx {
  TiledMap *m;
  const char *file;
  const TessMapReadOptions *opt;
  TessError *err;
  int depth;
} Ctx;

/* Deep paths keep their end, where the problem is. */
static TessResult fail(Ctx *c, TessResult code, const char *path, const char *what) {
  size_t n = strlen(path);
  if (n > 160) return tess_error_set(c->err, code, c->file, "...%s: %s", path + n - 160, what);
  return tess_error_set(c->err, code, c->file, "%s: %s", path, what);
}

static TessResult nomem(Ctx *c) { return tess_error_set(c->err, TESS_ERR_NOMEM, c->file, "out of memory"); }

/* Optional number within [lo, hi]; absent keeps *out. */
static TessResult get_num(Ctx *c, json_t *o, const char *key, const char *path, double lo, double hi, double *out) {
  json_t *v = json_object_get(o, key);
  if (!v || json_is_null(v)) return TESS_OK;
  char where[600];
  snprintf(where, sizeof where, "%s.%s", path, key);
  if (!json_is_number(v)) return fail(c, TESS_ERR_FORMAT, where, "expected a number");
  double d = json_number_value(v);
  if (!isfinite(d) || d < lo || d > hi) {
    char msg[160];
    snprintf(msg, sizeof msg, "%g is out of range [%g, %g]", d, lo, hi);
    return fail(c, TESS_ERR_LIMIT, where, msg);
  }
  *out = d;
  return TESS_OK;
}

static TessResult get_u32(Ctx *c, json_t *o, const char *key, const char *path, uint32_t max, bool required,
                          uint32_t *out) {
  json_t *v = json_object_get(o, key);
  char where[600];
  snprintf(where, sizeof where, "%s.%s", path, key);
  if (!v) return required ? fail(c, TESS_ERR_FORMAT, where, "missing") : TESS_OK;
  if (!json_is_integer(v)) return fail(c, TESS_ERR_FORMAT, where, "expected an integer");
  json_int_t i = json_integer_value(v);
  if (i < 0 || (uint64_t)i > max) {
    char msg[160];
    snprintf(msg, sizeof msg, "%lld is out of range [0, %u]", (long long)i, max);
    return fail(c, TESS_ERR_LIMIT, where, msg);
  }
  *out = (uint32_t)i;
  return TESS_OK;
}

static TessResult get_i32(Ctx *c, json_t *o, const char *key, const char *path, int32_t *out) {
  double d = *out;
  TessResult r = get_num(c, o, key, path, -1e9, 1e9, &d);
  if (!r) *out = (int32_t)d;
  return r;
}

static const char *get_str(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

static bool get_bool(json_t *o, const char *key, bool dflt) {
  json_t *v = json_object_get(o, key);
  return json_is_boolean(v) ? json_is_true(v) : dflt;
}

static TessResult dup_str(Ctx *c, json_t *o, const char *key, char **out) {
  const char *s = get_str(o, key);
  if (!s) return TESS_OK;
  tess_free(*out);
  if (!(*out = tess_strdup(s))) return nomem(c);
  return TESS_OK;
}

/* One value as the model's text form. Class values flatten into "name.member". */
static TessResult prop_value(Ctx *c, TiledProps *props, const char *name, const char *type, json_t *v, const char *path,
                             int depth) {
  char buf[64];
  if (depth > TESS_MAP_MAX_DEPTH) return fail(c, TESS_ERR_LIMIT, path, "class properties nested too deep");
  if (json_is_object(v)) {
    const char *k;
    json_t *mv;
    json_object_foreach(v, k, mv) {
      char sub[TESS_NAME_MAX * 2];
      snprintf(sub, sizeof sub, "%s.%s", name, k);
      const char *t = json_is_integer(mv) ? "int" : json_is_real(mv)  ? "float"
                                                : json_is_boolean(mv) ? "bool"
                                                                      : "string";
      TessResult r = prop_value(c, props, sub, t, mv, path, depth + 1);
      if (r) return r;
    }
    return TESS_OK;
  }
  const char *text = buf;
  if (json_is_string(v)) text = json_string_value(v);
  else if (json_is_integer(v)) snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
  else if (json_is_real(v)) snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
  else if (json_is_boolean(v)) text = json_is_true(v) ? "true" : "false";
  else if (json_is_null(v)) text = "";
  else return fail(c, TESS_ERR_FORMAT, path, "unsupported property value");
  return tiled_props_add(props, name, type, text) ? TESS_OK : nomem(c);
}

static TessResult read_props(Ctx *c, json_t *o, const char *path, TiledProps *props) {
  json_t *arr = json_object_get(o, "properties");
  if (!arr) return TESS_OK;
  char where[600];
  snprintf(where, sizeof where, "%s.properties", path);
  if (!json_is_array(arr)) return fail(c, TESS_ERR_FORMAT, where, "expected an array");
  size_t i;
  json_t *p;
  json_array_foreach(arr, i, p) {
    snprintf(where, sizeof where, "%s.properties[%zu]", path, i);
    const char *name = get_str(p, "name"), *type = get_str(p, "type");
    if (!name) return fail(c, TESS_ERR_FORMAT, where, "a property needs a name");
    TessResult r = prop_value(c, props, name, type ? type : "string", json_object_get(p, "value"), where, 0);
    if (r) return r;
  }
  return TESS_OK;
}

static TessResult read_points(Ctx *c, json_t *arr, const char *where, TiledObject *ob) {
  size_t n = json_array_size(arr);
  if (n > 65536) return fail(c, TESS_ERR_LIMIT, where, "more than 65536 points");
  ob->points = tess_calloc(n ? n : 1, sizeof *ob->points);
  if (!ob->points) return nomem(c);
  for (size_t i = 0; i < n; i++) {
    json_t *pt = json_array_get(arr, i);
    double x = 0, y = 0;
    TessResult r = get_num(c, pt, "x", where, -1e9, 1e9, &x);
    if (!r) r = get_num(c, pt, "y", where, -1e9, 1e9, &y);
    if (r) return r;
    ob->points[i].x = x;
    ob->points[i].y = y;
  }
  ob->point_count = (uint32_t)n;
  return TESS_OK;
}

static TessResult read_object(Ctx *c, json_t *o, const char *where, TiledObject *ob) {
  TessResult r;
  if ((r = get_u32(c, o, "id", where, UINT32_MAX, false, &ob->id))) return r;
  if ((r = dup_str(c, o, "name", &ob->name)) || (r = dup_str(c, o, "type", &ob->cls)) || (r = dup_str(c, o, "class", &ob->cls)))
    return r;
  if ((r = get_num(c, o, "x", where, -1e9, 1e9, &ob->x)) || (r = get_num(c, o, "y", where, -1e9, 1e9, &ob->y)) ||
      (r = get_num(c, o, "width", where, 0, 1e9, &ob->w)) || (r = get_num(c, o, "height", where, 0, 1e9, &ob->h)) ||
      (r = get_num(c, o, "rotation", where, -1e6, 1e6, &ob->rotation)))
    return r;
  if ((r = get_u32(c, o, "gid", where, UINT32_MAX, false, &ob->gid))) return r;
  ob->visible = get_bool(o, "visible", true);
  ob->shape = TILED_RECT;
  json_t *pts;
  if (get_bool(o, "ellipse", false)) ob->shape = TILED_ELLIPSE;
  else if (get_bool(o, "point", false)) ob->shape = TILED_POINT;
  else if (json_object_get(o, "text")) ob->shape = TILED_TEXT;
  else if ((pts = json_object_get(o, "polygon")) || (pts = json_object_get(o, "polyline"))) {
    ob->shape = json_object_get(o, "polygon") ? TILED_POLYGON : TILED_POLYLINE;
    if (!json_is_array(pts)) return fail(c, TESS_ERR_FORMAT, where, "points: expected an array");
    if ((r = read_points(c, pts, where, ob))) return r;
  }
  return read_props(c, o, where, &ob->props);
}

static TessResult read_objects(Ctx *c, json_t *arr, const char *path, TiledObjects *out) {
  if (!arr) return TESS_OK;
  if (!json_is_array(arr)) return fail(c, TESS_ERR_FORMAT, path, "objects: expected an array");
  size_t i;
  json_t *o;
  json_array_foreach(arr, i, o) {
    char where[600];
    snprintf(where, sizeof where, "%s.objects[%zu]", path, i);
    TiledObject *ob = tiled_objects_add(out);
    if (!ob) return nomem(c);
    TessResult r = read_object(c, o, where, ob);
    if (r) return r;
  }
  return TESS_OK;
}

/* A wangid: 8 colours (Tiled 1.5+), or one number with 4 bits per position (before). */
static TessResult read_wangid(Ctx *c, json_t *v, const char *where, uint8_t out[8]) {
  memset(out, 0, 8);
  if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 0xFFFFFFFF) {
    for (int k = 0; k < 8; k++) out[k] = (uint8_t)((json_integer_value(v) >> (4 * k)) & 0xF);
    return TESS_OK;
  }
  if (!json_is_array(v) || json_array_size(v) != 8) return fail(c, TESS_ERR_FORMAT, where, "wangid: expected 8 colours");
  for (int k = 0; k < 8; k++) {
    json_t *e = json_array_get(v, (size_t)k);
    if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > 255)
      return fail(c, TESS_ERR_FORMAT, where, "wangid: colours are integers 0..255");
    out[k] = (uint8_t)json_integer_value(e);
  }
  return TESS_OK;
}

/* "wangsets": kept as the file says them (tiled_wang.c converts them). */
static TessResult read_wangsets(Ctx *c, json_t *arr, const char *path, TiledTileset *ts) {
  if (!arr) return TESS_OK;
  if (!json_is_array(arr)) return fail(c, TESS_ERR_FORMAT, path, "wangsets: expected an array");
  size_t i, k;
  json_t *o, *e;
  TessResult r;
  json_array_foreach(arr, i, o) {
    char where[600];
    snprintf(where, sizeof where, "%s.wangsets[%zu]", path, i);
    if (!json_is_object(o)) return fail(c, TESS_ERR_FORMAT, where, "expected an object");
    TiledWangSet *w = tiled_wangset_add(ts);
    if (!w) return fail(c, TESS_ERR_LIMIT, where, "too many wang sets (at most 255)");
    if ((r = dup_str(c, o, "name", &w->name)) || (r = dup_str(c, o, "type", &w->type)) ||
        (r = get_i32(c, o, "tile", where, &w->tile)))
      return r;
    json_t *colors = json_object_get(o, "colors"), *tiles = json_object_get(o, "wangtiles");
    if ((colors && !json_is_array(colors)) || (tiles && !json_is_array(tiles)))
      return fail(c, TESS_ERR_FORMAT, where, "colors and wangtiles: expected arrays");
    json_array_foreach(colors, k, e) {
      char at[640];
      snprintf(at, sizeof at, "%s.colors[%zu]", where, k);
      TiledWangColor *col = tiled_wangset_add_color(w);
      if (!col) return nomem(c);
      if ((r = dup_str(c, e, "name", &col->name)) || (r = dup_str(c, e, "color", &col->color)) ||
          (r = get_i32(c, e, "tile", at, &col->tile)) || (r = get_num(c, e, "probability", at, 0, 1e6, &col->probability)))
        return r;
    }
    json_array_foreach(tiles, k, e) {
      char at[640];
      snprintf(at, sizeof at, "%s.wangtiles[%zu]", where, k);
      TiledWangTile *t = tiled_wangset_add_tile(w);
      if (!t) return nomem(c);
      if ((r = get_u32(c, e, "tileid", at, 1u << 24, true, &t->tileid)) ||
          (r = read_wangid(c, json_object_get(e, "wangid"), at, t->wangid)))
        return r;
    }
  }
  return TESS_OK;
}

/* A tileset's body (embedded in a map, or a .tsj file's root). `dir` is the
 * folder its image path is relative to. */
static TessResult read_tileset_body(Ctx *c, json_t *o, const char *path, const char *dir, TiledTileset *ts) {
  TessResult r;
  if ((r = dup_str(c, o, "name", &ts->name))) return r;
  if ((r = get_u32(c, o, "tilewidth", path, 65535, true, &ts->tile_w)) ||
      (r = get_u32(c, o, "tileheight", path, 65535, true, &ts->tile_h)) ||
      (r = get_u32(c, o, "spacing", path, 65535, false, &ts->spacing)) ||
      (r = get_u32(c, o, "margin", path, 65535, false, &ts->margin)) ||
      (r = get_u32(c, o, "tilecount", path, 1u << 24, false, &ts->tilecount)) ||
      (r = get_u32(c, o, "columns", path, 1u << 24, false, &ts->columns)) ||
      (r = get_u32(c, o, "imagewidth", path, 1u << 20, false, &ts->image_w)) ||
      (r = get_u32(c, o, "imageheight", path, 1u << 20, false, &ts->image_h)))
    return r;
  json_t *off = json_object_get(o, "tileoffset");
  if (off && ((r = get_i32(c, off, "x", path, &ts->offset_x)) || (r = get_i32(c, off, "y", path, &ts->offset_y)))) return r;
  const char *render_size = get_str(o, "tilerendersize"); /* Tiled 1.9+: "tile" (the default) or "grid" */
  ts->fit_grid = render_size && strcmp(render_size, "grid") == 0;
  const char *trans = get_str(o, "transparentcolor");
  if (trans) {
    uint32_t argb;
    if (!tiled_parse_color(trans, &argb)) return fail(c, TESS_ERR_FORMAT, path, "transparentcolor: not a colour");
    ts->has_trans = true;
    ts->trans = argb & 0xFFFFFFu;
  }
  if ((r = dup_str(c, o, "objectalignment", &ts->objectalignment))) return r;
  const char *image = get_str(o, "image");
  if (image) {
    if (!(ts->image = tess_strdup(image)) || !(ts->image_resolved = tiled_path_join(dir, image))) return nomem(c);
  }
  if ((r = read_props(c, o, path, &ts->props))) return r;
  json_t *tiles = json_object_get(o, "tiles");
  if (tiles && !json_is_array(tiles)) return fail(c, TESS_ERR_FORMAT, path, "tiles: expected an array");
  size_t i;
  json_t *t;
  json_array_foreach(tiles, i, t) {
    char where[600];
    snprintf(where, sizeof where, "%s.tiles[%zu]", path, i);
    uint32_t id = 0;
    if ((r = get_u32(c, t, "id", where, 1u << 24, true, &id))) return r;
    TiledTile *tile = tiled_tileset_tile(ts, id, true);
    if (!tile) return nomem(c);
    if ((r = dup_str(c, t, "type", &tile->cls)) || (r = dup_str(c, t, "class", &tile->cls)) ||
        (r = dup_str(c, t, "image", &tile->image)) || (r = read_props(c, t, where, &tile->props)))
      return r;
    json_t *og = json_object_get(t, "objectgroup");
    if (og && (r = read_objects(c, json_object_get(og, "objects"), where, &tile->shapes))) return r;
    if (json_object_get(t, "probability")) {
      if ((r = get_num(c, t, "probability", where, 0, 1e6, &tile->probability))) return r;
      tile->has_probability = true;
    }
  }
  return read_wangsets(c, json_object_get(o, "wangsets"), path, ts);
}

static TessResult load_file(Ctx *c, const char *path, json_t **out) {
  uint8_t *data = NULL;
  size_t size = 0;
  TessResult r = tess_file_read(path, TESS_MAP_MAX_FILE_BYTES, &data, &size, c->err);
  if (r) return r;
  json_error_t je;
  json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
  tess_free(data);
  if (!root) return tess_error_set_at(c->err, TESS_ERR_FORMAT, path, TESS_PLACE_LINE, (uint64_t)je.line, "JSON: %s", je.text);
  *out = root;
  return TESS_OK;
}

TessResult tiled_tsj_load(TiledMap *m, TiledTileset *ts, TessError *err) {
  Ctx c = {m, ts->source_resolved, NULL, err, 0};
  json_t *root = NULL;
  TessResult r = load_file(&c, ts->source_resolved, &root);
  if (r) return r;
  char *dir = tiled_path_dir(ts->source_resolved);
  if (!dir) r = nomem(&c);
  else if (!json_is_object(root)) r = fail(&c, TESS_ERR_FORMAT, "$", "a tileset must be a JSON object");
  else r = read_tileset_body(&c, root, "$", dir, ts);
  tess_free(dir);
  json_decref(root);
  return r;
}

static TessResult read_tileset(Ctx *c, json_t *o, const char *path) {
  TiledTileset *ts = tiled_map_add_tileset(c->m);
  if (!ts) return fail(c, TESS_ERR_LIMIT, path, "too many tilesets");
  TessResult r = get_u32(c, o, "firstgid", path, TILED_GID_MASK, true, &ts->firstgid);
  if (r) return r;
  if (ts->firstgid == 0) return fail(c, TESS_ERR_FORMAT, path, "firstgid must be at least 1");
  const char *source = get_str(o, "source");
  if (source) {
    if (!(ts->source = tess_strdup(source)) || !(ts->source_resolved = tiled_path_join(c->m->dir, source))) return nomem(c);
    return tiled_tileset_load_external(c->m, ts, c->err);
  }
  return read_tileset_body(c, o, path, c->m->dir, ts);
}

/* Accumulated group state, applied to each leaf layer. */
typedef struct Group {
  char prefix[512];
  double opacity, offset_x, offset_y;
  bool visible, locked;
} Group;

static TessResult read_tile_data(Ctx *c, json_t *data, const char *where, int enc, int comp, uint32_t *out, size_t count,
                                 const char *name) {
  if (json_is_string(data)) {
    const char *s = json_string_value(data);
    if (enc != TILED_ENC_BASE64) return fail(c, TESS_ERR_FORMAT, where, "string data needs encoding \"base64\"");
    return tiled_decode_data(s, strlen(s), enc, comp, out, count, c->file, 0, name, c->err);
  }
  if (!json_is_array(data)) return fail(c, TESS_ERR_FORMAT, where, "data: expected an array or a base64 string");
  if (json_array_size(data) != count) {
    char msg[200];
    snprintf(msg, sizeof msg, "data holds %zu cells, the layer has %zu", json_array_size(data), count);
    return fail(c, TESS_ERR_FORMAT, where, msg);
  }
  for (size_t i = 0; i < count; i++) {
    json_t *v = json_array_get(data, i);
    json_int_t g = json_is_integer(v) ? json_integer_value(v) : -1;
    if (g < 0 || g > (json_int_t)UINT32_MAX) {
      char w2[640];
      snprintf(w2, sizeof w2, "%s[%zu]", where, i);
      return fail(c, TESS_ERR_FORMAT, w2, "a gid must be an integer in [0, 4294967295]");
    }
    out[i] = (uint32_t)g;
  }
  return TESS_OK;
}

static TessResult read_tile_layer(Ctx *c, json_t *o, const char *where, TiledLayer *l) {
  TessResult r;
  if ((r = get_u32(c, o, "width", where, TESS_LEVEL_MAX_CELLS, !c->m->infinite, &l->width)) ||
      (r = get_u32(c, o, "height", where, TESS_LEVEL_MAX_CELLS, !c->m->infinite, &l->height)))
    return r;
  int enc = TILED_ENC_CSV, comp = TILED_COMP_NONE;
  const char *es = get_str(o, "encoding");
  if (es && strcmp(es, "csv") != 0 && !tiled_encoding_parse(es, &enc)) return fail(c, TESS_ERR_FORMAT, where, "unknown encoding");
  if (!tiled_compression_parse(get_str(o, "compression"), &comp)) return fail(c, TESS_ERR_FORMAT, where, "unknown compression");
  json_t *chunks = json_object_get(o, "chunks");
  if (c->m->infinite && chunks) {
    if (!json_is_array(chunks)) return fail(c, TESS_ERR_FORMAT, where, "chunks: expected an array");
    size_t n = json_array_size(chunks);
    if (n > 1u << 20) return fail(c, TESS_ERR_LIMIT, where, "too many chunks");
    if (!(l->chunks = tess_calloc(n ? n : 1, sizeof *l->chunks))) return nomem(c);
    for (size_t i = 0; i < n; i++) {
      json_t *ch = json_array_get(chunks, i);
      char cw[640];
      snprintf(cw, sizeof cw, "%s.chunks[%zu]", where, i);
      TiledChunk *k = &l->chunks[l->chunk_count++];
      if ((r = get_i32(c, ch, "x", cw, &k->x)) || (r = get_i32(c, ch, "y", cw, &k->y)) ||
          (r = get_u32(c, ch, "width", cw, 1024, true, &k->w)) || (r = get_u32(c, ch, "height", cw, 1024, true, &k->h)))
        return r;
      size_t count = (size_t)k->w * k->h;
      if (!(k->gids = tess_calloc(count ? count : 1, sizeof *k->gids))) return nomem(c);
      if ((r = read_tile_data(c, json_object_get(ch, "data"), cw, enc, comp, k->gids, count, l->name))) return r;
    }
    return TESS_OK;
  }
  if (c->m->infinite) return TESS_OK; /* an infinite layer with no chunks: empty */
  size_t count = (size_t)l->width * l->height;
  if (!(l->gids = tess_calloc(count ? count : 1, sizeof *l->gids))) return nomem(c);
  return read_tile_data(c, json_object_get(o, "data"), where, enc, comp, l->gids, count, l->name);
}

static TessResult read_layers(Ctx *c, json_t *arr, const char *path, const Group *g);

static TessResult read_layer(Ctx *c, json_t *o, const char *where, const Group *g) {
  const char *type = get_str(o, "type"), *name = get_str(o, "name");
  if (!type) return fail(c, TESS_ERR_FORMAT, where, "a layer needs a type");
  if (!name) name = "";
  double opacity = 1, ox = 0, oy = 0;
  TessResult r;
  if ((r = get_num(c, o, "opacity", where, 0, 1, &opacity)) || (r = get_num(c, o, "offsetx", where, -1e9, 1e9, &ox)) ||
      (r = get_num(c, o, "offsety", where, -1e9, 1e9, &oy)))
    return r;
  Group sub = *g;
  snprintf(sub.prefix, sizeof sub.prefix, "%s%s", g->prefix, name);
  sub.opacity *= opacity;
  sub.offset_x += ox;
  sub.offset_y += oy;
  sub.visible = g->visible && get_bool(o, "visible", true);
  sub.locked = g->locked || get_bool(o, "locked", false);
  if (strcmp(type, "group") == 0) {
    if (++c->depth > TESS_MAP_MAX_DEPTH) return fail(c, TESS_ERR_LIMIT, where, "group layers nested too deep");
    strncat(sub.prefix, "/", sizeof sub.prefix - strlen(sub.prefix) - 1);
    r = read_layers(c, json_object_get(o, "layers"), where, &sub);
    c->depth--;
    return r;
  }
  TiledLayer *l = tiled_map_add_layer(c->m);
  if (!l) return fail(c, TESS_ERR_LIMIT, where, "too many layers");
  if (!(l->name = tess_strdup(sub.prefix))) return nomem(c);
  l->opacity = sub.opacity;
  l->offset_x = sub.offset_x;
  l->offset_y = sub.offset_y;
  l->topdown = get_str(o, "draworder") && strcmp(get_str(o, "draworder"), "topdown") == 0;
  l->visible = sub.visible;
  l->locked = sub.locked;
  l->has_tint = json_object_get(o, "tintcolor") != NULL;
  if ((r = get_u32(c, o, "id", where, UINT32_MAX, false, &l->id)) ||
      (r = get_num(c, o, "parallaxx", where, -1e6, 1e6, &l->parallax_x)) ||
      (r = get_num(c, o, "parallaxy", where, -1e6, 1e6, &l->parallax_y)) || (r = read_props(c, o, where, &l->props)))
    return r;
  if (strcmp(type, "tilelayer") == 0) {
    l->kind = TILED_TILES;
    return read_tile_layer(c, o, where, l);
  }
  if (strcmp(type, "objectgroup") == 0) {
    l->kind = TILED_OBJECTS;
    return read_objects(c, json_object_get(o, "objects"), where, &l->objects);
  }
  if (strcmp(type, "imagelayer") == 0) {
    l->kind = TILED_IMAGE;
    return TESS_OK;
  }
  return fail(c, TESS_ERR_FORMAT, where, "unknown layer type");
}

static TessResult read_layers(Ctx *c, json_t *arr, const char *path, const Group *g) {
  if (!arr) return TESS_OK;
  if (!json_is_array(arr)) return fail(c, TESS_ERR_FORMAT, path, "layers: expected an array");
  size_t i;
  json_t *o;
  json_array_foreach(arr, i, o) {
    char where[600];
    snprintf(where, sizeof where, "%s.layers[%zu]", path, i);
    if (c->opt && c->opt->cancel && *c->opt->cancel) return tess_error_set(c->err, TESS_ERR_EMPTY, c->file, "cancelled");
    TessResult r = read_layer(c, o, where, g);
    if (r) return r;
  }
  return TESS_OK;
}

static TessResult read_map(Ctx *c, json_t *root) {
  TiledMap *m = c->m;
  if (!json_is_object(root)) return fail(c, TESS_ERR_FORMAT, "$", "a map must be a JSON object");
  const char *type = get_str(root, "type");
  if (type && strcmp(type, "map") != 0) return fail(c, TESS_ERR_FORMAT, "$.type", "not a map");
  TessResult r;
  if ((r = dup_str(c, root, "orientation", &m->orientation)) || (r = dup_str(c, root, "renderorder", &m->renderorder))) return r;
  m->infinite = get_bool(root, "infinite", false);
  if ((r = get_u32(c, root, "width", "$", TESS_LEVEL_MAX_CELLS, !m->infinite, &m->width)) ||
      (r = get_u32(c, root, "height", "$", TESS_LEVEL_MAX_CELLS, !m->infinite, &m->height)) ||
      (r = get_u32(c, root, "tilewidth", "$", 65535, true, &m->tile_w)) ||
      (r = get_u32(c, root, "tileheight", "$", 65535, true, &m->tile_h)) || (r = read_props(c, root, "$", &m->props)))
    return r;
  json_t *tilesets = json_object_get(root, "tilesets");
  if (tilesets && !json_is_array(tilesets)) return fail(c, TESS_ERR_FORMAT, "$.tilesets", "expected an array");
  size_t i;
  json_t *t;
  json_array_foreach(tilesets, i, t) {
    char where[64];
    snprintf(where, sizeof where, "$.tilesets[%zu]", i);
    if ((r = read_tileset(c, t, where))) return r;
  }
  Group g = {"", 1, 0, 0, true, false};
  return read_layers(c, json_object_get(root, "layers"), "$", &g);
}

TessResult tiled_tmj_parse(TiledMap *m, const uint8_t *data, size_t size, const TessMapReadOptions *opt, TessError *err) {
  Ctx c = {m, m->path, opt, err, 0};
  json_error_t je;
  json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
  if (!root) return tess_error_set_at(err, TESS_ERR_FORMAT, m->path, TESS_PLACE_LINE, (uint64_t)je.line, "JSON: %s", je.text);
  TessResult r = read_map(&c, root);
  json_decref(root);
  return r;
}
