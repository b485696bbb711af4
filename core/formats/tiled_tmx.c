/* TMX and TSX (Tiled's XML) into the Tiled model, through expat's SAX
 * interface. Expat's defaults guard against entity expansion attacks
 * ("billion laughs": its amplification limit stops the parse); nesting is
 * bounded here; every error names the file and line. */
#include <expat.h>
#include <stdio.h>
#include <string.h>

#include "tessera/geom.h"
#include "tessera/image.h"
#include "formats_tiled.h"

#define STACK_MAX (TESS_MAP_MAX_DEPTH + 8)

typedef struct Group {
  char prefix[512];
  double opacity, offset_x, offset_y;
  bool visible, locked;
} Group;

typedef struct Ctx {
  XML_Parser xp;
  TiledMap *m;
  const char *file;
  const char *dir; /* relative paths in this file start here */
  const TessMapReadOptions *opt;
  TessError *err;
  TessResult result;
  int depth;
  const char *stack[STACK_MAX];
  /* What is open. */
  TiledTileset *ts;  /* tileset being read */
  TiledTileset *ext; /* a .tsx: the tileset to fill */
  TiledTile *tile;
  TiledWangSet *wang; /* <wangset> being read */
  TiledLayer *layer;
  TiledObjects *objects; /* where <object> goes */
  TiledObject *object;
  TiledProps scratch; /* properties of things Tessera keeps none of (groups, image layers) */
  TiledProps *props_target;
  char prop_prefix[512];
  char *prop_name, *prop_type; /* a <property> whose value is its text */
  int group_depth;
  Group groups[TESS_MAP_MAX_DEPTH + 1];
  /* Layer data. */
  bool in_data;
  int encoding, compression;
  uint32_t *gids; /* destination (layer or chunk) */
  size_t gid_count, gid_pos;
  TiledChunk *chunk;
  char *text;
  size_t text_len, text_cap;
  bool collect;
} Ctx;

static uint64_t line_of(Ctx *c) { return (uint64_t)XML_GetCurrentLineNumber(c->xp); }

static void stop(Ctx *c, TessResult code, const char *fmt, const char *a, const char *b) {
  if (c->result) return;
  char detail[400];
  snprintf(detail, sizeof detail, fmt, a ? a : "", b ? b : "");
  c->result = tess_error_set_at(c->err, code, c->file, TESS_PLACE_LINE, line_of(c), "%s", detail);
  XML_StopParser(c->xp, XML_FALSE);
}

static void oom(Ctx *c) { stop(c, TESS_ERR_NOMEM, "out of memory%s%s", NULL, NULL); }

static const char *attr(const char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (strcmp(atts[i], name) == 0) return atts[i + 1];
  return NULL;
}

static bool attr_u32(Ctx *c, const char **atts, const char *name, uint32_t max, bool required, uint32_t *out) {
  const char *v = attr(atts, name);
  if (!v) {
    if (required) stop(c, TESS_ERR_FORMAT, "attribute '%s' missing%s", name, NULL);
    return !required;
  }
  if (!tiled_parse_u32(v, max, out)) {
    char m[32];
    snprintf(m, sizeof m, "%u", max);
    stop(c, TESS_ERR_LIMIT, "attribute '%s' must be an integer in [0, %s]", name, m);
    return false;
  }
  return true;
}

static bool attr_i32(Ctx *c, const char **atts, const char *name, int32_t *out) {
  const char *v = attr(atts, name);
  if (!v) return true;
  if (!tiled_parse_i32(v, out)) {
    stop(c, TESS_ERR_FORMAT, "attribute '%s' must be an integer, not '%s'", name, v);
    return false;
  }
  return true;
}

static bool attr_num(Ctx *c, const char **atts, const char *name, double lo, double hi, double *out) {
  const char *v = attr(atts, name);
  if (!v) return true;
  double d;
  if (!tiled_parse_double(v, &d) || d < lo || d > hi) {
    stop(c, TESS_ERR_FORMAT, "attribute '%s' must be a finite number in range, not '%s'", name, v);
    return false;
  }
  *out = d;
  return true;
}

static bool attr_bool(const char **atts, const char *name, bool dflt) {
  const char *v = attr(atts, name);
  return v ? strcmp(v, "0") != 0 && strcmp(v, "false") != 0 : dflt;
}

static bool attr_dup(Ctx *c, const char **atts, const char *name, char **out) {
  const char *v = attr(atts, name);
  if (!v) return true;
  tess_free(*out);
  if (!(*out = tess_strdup(v))) {
    oom(c);
    return false;
  }
  return true;
}

static const char *parent(Ctx *c) { return c->depth >= 2 && c->stack[c->depth - 2] ? c->stack[c->depth - 2] : ""; }

/* Wang sets and terrains carry properties of their own that Tessera has no place for. */
static bool in_ignored(Ctx *c) {
  for (int i = 0; i < c->depth; i++)
    if (c->stack[i] && (strcmp(c->stack[i], "wangsets") == 0 || strcmp(c->stack[i], "terraintypes") == 0)) return true;
  return false;
}

/* ---- Tilesets ---- */

static void start_tileset(Ctx *c, const char **atts) {
  TiledTileset *ts = c->ext;
  if (!ts) {
    if (strcmp(parent(c), "map") != 0) return stop(c, TESS_ERR_FORMAT, "<tileset> outside <map>%s%s", NULL, NULL);
    if (!(ts = tiled_map_add_tileset(c->m))) return stop(c, TESS_ERR_LIMIT, "too many tilesets%s%s", NULL, NULL);
    if (!attr_u32(c, atts, "firstgid", TILED_GID_MASK, true, &ts->firstgid)) return;
    if (ts->firstgid == 0) return stop(c, TESS_ERR_FORMAT, "firstgid must be at least 1%s%s", NULL, NULL);
    const char *source = attr(atts, "source");
    if (source) {
      if (!(ts->source = tess_strdup(source)) || !(ts->source_resolved = tiled_path_join(c->dir, source))) return oom(c);
      TessResult r = tiled_tileset_load_external(c->m, ts, c->err);
      if (r) {
        c->result = r;
        XML_StopParser(c->xp, XML_FALSE);
      }
      return;
    }
  }
  c->ts = ts;
  c->props_target = &ts->props;
  if (!attr_dup(c, atts, "name", &ts->name) || !attr_u32(c, atts, "tilewidth", 65535, true, &ts->tile_w) ||
      !attr_u32(c, atts, "tileheight", 65535, true, &ts->tile_h) || !attr_u32(c, atts, "spacing", 65535, false, &ts->spacing) ||
      !attr_u32(c, atts, "margin", 65535, false, &ts->margin) || !attr_u32(c, atts, "tilecount", 1u << 24, false, &ts->tilecount) ||
      !attr_u32(c, atts, "columns", 1u << 24, false, &ts->columns) || !attr_dup(c, atts, "objectalignment", &ts->objectalignment))
    return;
  const char *render_size = attr(atts, "tilerendersize"); /* Tiled 1.9+: "tile" (the default) or "grid" */
  ts->fit_grid = render_size && strcmp(render_size, "grid") == 0;
}

static void start_image(Ctx *c, const char **atts) {
  const char *source = attr(atts, "source");
  if (c->tile) {
    /* A later <image> replaces an earlier one; one without a source leaves
     * none (never the freed pointer). */
    tess_free(c->tile->image);
    c->tile->image = NULL;
    if (source && !(c->tile->image = tess_strdup(source))) oom(c);
    return;
  }
  if (!c->ts) return; /* image layers: dropped with a warning by the converter */
  TiledTileset *ts = c->ts;
  if (!source) return stop(c, TESS_ERR_FORMAT, "<image> without a source (embedded image data is not supported)%s%s", NULL, NULL);
  if (ts->image) return stop(c, TESS_ERR_FORMAT, "a tileset with two images%s%s", NULL, NULL);
  if (!(ts->image = tess_strdup(source)) || !(ts->image_resolved = tiled_path_join(c->dir, source))) return oom(c);
  if (!attr_u32(c, atts, "width", 1u << 20, false, &ts->image_w) || !attr_u32(c, atts, "height", 1u << 20, false, &ts->image_h))
    return;
  const char *trans = attr(atts, "trans");
  uint32_t argb;
  if (trans) {
    if (!tiled_parse_color(trans, &argb)) return stop(c, TESS_ERR_FORMAT, "trans '%s' is not a colour%s", trans, NULL);
    ts->has_trans = true;
    ts->trans = argb & 0xFFFFFFu;
  }
}

static void start_tile_of_tileset(Ctx *c, const char **atts) {
  uint32_t id = 0;
  if (!attr_u32(c, atts, "id", 1u << 24, true, &id)) return;
  if (!(c->tile = tiled_tileset_tile(c->ts, id, true))) return oom(c);
  if (!attr_dup(c, atts, "type", &c->tile->cls) || !attr_dup(c, atts, "class", &c->tile->cls)) return;
  if (attr(atts, "probability")) {
    if (!attr_num(c, atts, "probability", 0, 1e6, &c->tile->probability)) return;
    c->tile->has_probability = true;
  }
  c->props_target = &c->tile->props;
}

/* <wangset>, <wangcolor>, <wangtile> (tiled_wang.c keeps and converts them). */
static void start_wang(Ctx *c, const char *el, const char **atts) {
  const char *up = parent(c);
  if (strcmp(el, "wangset") == 0) {
    if (strcmp(up, "wangsets") != 0 || !c->ts) return stop(c, TESS_ERR_FORMAT, "<wangset> outside a tileset's <wangsets>%s%s", NULL, NULL);
    if (!(c->wang = tiled_wangset_add(c->ts))) return stop(c, TESS_ERR_LIMIT, "too many wang sets (at most %s)%s", "255", NULL);
    c->wang->line = line_of(c);
    if (attr_dup(c, atts, "name", &c->wang->name) && attr_dup(c, atts, "type", &c->wang->type)) attr_i32(c, atts, "tile", &c->wang->tile);
    return;
  }
  if (strcmp(up, "wangset") != 0 || !c->wang) return stop(c, TESS_ERR_FORMAT, "<%s> outside a <wangset>%s", el, NULL);
  if (strcmp(el, "wangcolor") == 0) {
    TiledWangColor *col = tiled_wangset_add_color(c->wang);
    if (!col) return oom(c);
    if (attr_dup(c, atts, "name", &col->name) && attr_dup(c, atts, "color", &col->color) && attr_i32(c, atts, "tile", &col->tile))
      attr_num(c, atts, "probability", 0, 1e6, &col->probability);
    return;
  }
  TiledWangTile *t = tiled_wangset_add_tile(c->wang);
  if (!t) return oom(c);
  if (!attr_u32(c, atts, "tileid", 1u << 24, true, &t->tileid)) return;
  if (!tiled_wangid_parse(attr(atts, "wangid"), t->wangid))
    return stop(c, TESS_ERR_FORMAT, "<wangtile> wangid '%s' is not 8 colours (\"0,1,0,1,0,1,0,1\")%s", attr(atts, "wangid") ? attr(atts, "wangid") : "", NULL);
}

/* ---- Layers ---- */

static bool push_group(Ctx *c, const char **atts, Group *g) {
  const Group *up = &c->groups[c->group_depth];
  double opacity = 1, ox = 0, oy = 0;
  if (!attr_num(c, atts, "opacity", 0, 1, &opacity) || !attr_num(c, atts, "offsetx", -1e9, 1e9, &ox) ||
      !attr_num(c, atts, "offsety", -1e9, 1e9, &oy))
    return false;
  const char *name = attr(atts, "name");
  snprintf(g->prefix, sizeof g->prefix, "%s%s", up->prefix, name ? name : "");
  g->opacity = up->opacity * opacity;
  g->offset_x = up->offset_x + ox;
  g->offset_y = up->offset_y + oy;
  g->visible = up->visible && attr_bool(atts, "visible", true);
  g->locked = up->locked || attr_bool(atts, "locked", false);
  return true;
}

static void start_layer(Ctx *c, const char **atts, TiledLayerKind kind) {
  Group g;
  if (!push_group(c, atts, &g)) return;
  TiledLayer *l = tiled_map_add_layer(c->m);
  if (!l) return stop(c, TESS_ERR_LIMIT, "too many layers%s%s", NULL, NULL);
  c->layer = l;
  l->kind = (uint8_t)kind;
  if (!(l->name = tess_strdup(g.prefix))) return oom(c);
  l->opacity = g.opacity;
  l->offset_x = g.offset_x;
  l->offset_y = g.offset_y;
  l->visible = g.visible;
  l->locked = g.locked;
  l->has_tint = attr(atts, "tintcolor") != NULL;
  l->topdown = attr(atts, "draworder") && strcmp(attr(atts, "draworder"), "topdown") == 0;
  c->props_target = &l->props;
  if (!attr_u32(c, atts, "id", UINT32_MAX, false, &l->id)) return;
  if (!attr_num(c, atts, "parallaxx", -1e6, 1e6, &l->parallax_x) || !attr_num(c, atts, "parallaxy", -1e6, 1e6, &l->parallax_y))
    return;
  if (kind == TILED_OBJECTS) c->objects = &l->objects;
  if (kind != TILED_TILES) return;
  if (!attr_u32(c, atts, "width", TESS_LEVEL_MAX_CELLS, !c->m->infinite, &l->width) ||
      !attr_u32(c, atts, "height", TESS_LEVEL_MAX_CELLS, !c->m->infinite, &l->height))
    return;
}

static void start_group(Ctx *c, const char **atts) {
  if (c->group_depth >= TESS_MAP_MAX_DEPTH) return stop(c, TESS_ERR_LIMIT, "group layers nested too deep%s%s", NULL, NULL);
  Group g;
  if (!push_group(c, atts, &g)) return;
  strncat(g.prefix, "/", sizeof g.prefix - strlen(g.prefix) - 1);
  c->groups[++c->group_depth] = g;
  c->props_target = &c->scratch;
}

static void begin_gids(Ctx *c, uint32_t *gids, size_t count) {
  c->gids = gids;
  c->gid_count = count;
  c->gid_pos = 0;
  c->text_len = 0;
  c->collect = c->encoding != TILED_ENC_XML;
}

static void start_data(Ctx *c, const char **atts) {
  TiledLayer *l = c->layer;
  if (!l || l->kind != TILED_TILES) return stop(c, TESS_ERR_FORMAT, "<data> outside a tile layer%s%s", NULL, NULL);
  if (!tiled_encoding_parse(attr(atts, "encoding"), &c->encoding))
    return stop(c, TESS_ERR_FORMAT, "unknown encoding '%s'%s", attr(atts, "encoding"), NULL);
  if (!tiled_compression_parse(attr(atts, "compression"), &c->compression))
    return stop(c, TESS_ERR_FORMAT, "unknown compression '%s'%s", attr(atts, "compression"), NULL);
  if (c->in_data || l->gids || l->chunk_count) return stop(c, TESS_ERR_FORMAT, "layer '%s' has two <data> elements%s", l->name, NULL);
  c->in_data = true;
  if (c->m->infinite) return; /* chunks follow */
  size_t count = (size_t)l->width * l->height;
  if (!(l->gids = tess_calloc(count ? count : 1, sizeof *l->gids))) return oom(c);
  begin_gids(c, l->gids, count);
}

static void start_chunk(Ctx *c, const char **atts) {
  TiledLayer *l = c->layer;
  if (!c->in_data || !c->m->infinite) return stop(c, TESS_ERR_FORMAT, "<chunk> outside an infinite map's <data>%s%s", NULL, NULL);
  if (l->chunk_count >= 1u << 20) return stop(c, TESS_ERR_LIMIT, "too many chunks%s%s", NULL, NULL);
  TiledChunk *n = tess_realloc(l->chunks, ((size_t)l->chunk_count + 1) * sizeof *n);
  if (!n) return oom(c);
  l->chunks = n;
  TiledChunk *k = &n[l->chunk_count++];
  memset(k, 0, sizeof *k);
  if (!attr_i32(c, atts, "x", &k->x) || !attr_i32(c, atts, "y", &k->y) || !attr_u32(c, atts, "width", 1024, true, &k->w) ||
      !attr_u32(c, atts, "height", 1024, true, &k->h))
    return;
  size_t count = (size_t)k->w * k->h;
  if (!(k->gids = tess_calloc(count ? count : 1, sizeof *k->gids))) return oom(c);
  c->chunk = k;
  begin_gids(c, k->gids, count);
}

static void end_gids(Ctx *c) {
  if (!c->gids) return;
  const char *what = c->layer && c->layer->name ? c->layer->name : "";
  if (c->encoding == TILED_ENC_XML) {
    if (c->gid_pos != c->gid_count) {
      char m[80];
      snprintf(m, sizeof m, "%zu <tile> elements, the layer has %zu cells", c->gid_pos, c->gid_count);
      stop(c, TESS_ERR_FORMAT, "layer '%s': %s", what, m);
    }
  } else {
    TessResult r = tiled_decode_data(c->text ? c->text : "", c->text_len, c->encoding, c->compression, c->gids, c->gid_count,
                                     c->file, line_of(c), what, c->err);
    if (r) {
      c->result = r;
      XML_StopParser(c->xp, XML_FALSE);
    }
  }
  c->gids = NULL;
  c->collect = false;
}

static void start_data_tile(Ctx *c, const char **atts) {
  if (c->encoding != TILED_ENC_XML || !c->gids) return stop(c, TESS_ERR_FORMAT, "<tile> in encoded layer data%s%s", NULL, NULL);
  uint32_t gid = 0;
  if (!attr_u32(c, atts, "gid", UINT32_MAX, false, &gid)) return;
  if (c->gid_pos >= c->gid_count) {
    const char *what = c->layer && c->layer->name ? c->layer->name : "";
    return stop(c, TESS_ERR_FORMAT, "layer '%s': more <tile> elements than the layer's cells%s", what, NULL);
  }
  c->gids[c->gid_pos++] = gid;
}

/* ---- Objects and properties ---- */

static void start_object(Ctx *c, const char **atts) {
  if (!c->objects) return stop(c, TESS_ERR_FORMAT, "<object> outside an object group%s%s", NULL, NULL);
  TiledObject *ob = tiled_objects_add(c->objects);
  if (!ob) return oom(c);
  c->object = ob;
  c->props_target = &ob->props;
  if (!attr_u32(c, atts, "id", UINT32_MAX, false, &ob->id) || !attr_dup(c, atts, "name", &ob->name) ||
      !attr_dup(c, atts, "type", &ob->cls) || !attr_dup(c, atts, "class", &ob->cls) ||
      !attr_num(c, atts, "x", -1e9, 1e9, &ob->x) || !attr_num(c, atts, "y", -1e9, 1e9, &ob->y) ||
      !attr_num(c, atts, "width", 0, 1e9, &ob->w) || !attr_num(c, atts, "height", 0, 1e9, &ob->h) ||
      !attr_num(c, atts, "rotation", -1e6, 1e6, &ob->rotation) || !attr_u32(c, atts, "gid", UINT32_MAX, false, &ob->gid))
    return;
  ob->visible = attr_bool(atts, "visible", true);
}

static void start_points(Ctx *c, const char **atts, TiledShape shape) {
  TiledObject *ob = c->object;
  if (!ob) return stop(c, TESS_ERR_FORMAT, "points outside an <object>%s%s", NULL, NULL);
  ob->shape = (uint8_t)shape;
  const char *s = attr(atts, "points");
  if (!s) return stop(c, TESS_ERR_FORMAT, "<polygon> without points%s%s", NULL, NULL);
  size_t n = 1;
  for (const char *p = s; *p; p++) n += *p == ' ';
  if (n > 65536) return stop(c, TESS_ERR_LIMIT, "more than 65536 points%s%s", NULL, NULL);
  tess_free(ob->points);
  if (!(ob->points = tess_calloc(n, sizeof *ob->points))) return oom(c);
  ob->point_count = 0;
  const char *p = s;
  while (*p) {
    while (*p == ' ') p++;
    if (!*p) break;
    char buf[64];
    size_t k = strcspn(p, " ");
    if (k >= sizeof buf) return stop(c, TESS_ERR_FORMAT, "bad point in '%s'%s", s, NULL);
    memcpy(buf, p, k);
    buf[k] = 0;
    p += k;
    char *comma = strchr(buf, ',');
    double x, y;
    if (!comma) return stop(c, TESS_ERR_FORMAT, "bad point '%s'%s", buf, NULL);
    *comma = 0;
    if (!tiled_parse_double(buf, &x) || !tiled_parse_double(comma + 1, &y) || fabs(x) > 1e9 || fabs(y) > 1e9)
      return stop(c, TESS_ERR_FORMAT, "bad point '%s' (numbers must be finite)%s", buf, NULL);
    ob->points[ob->point_count++] = tess_d2(x, y);
  }
}

static void start_property(Ctx *c, const char **atts) {
  const char *name = attr(atts, "name"), *type = attr(atts, "type"), *value = attr(atts, "value");
  if (!name) return stop(c, TESS_ERR_FORMAT, "a <property> needs a name%s%s", NULL, NULL);
  if (in_ignored(c)) return;
  if (!c->props_target) c->props_target = &c->scratch;
  char full[600];
  snprintf(full, sizeof full, "%s%s", c->prop_prefix, name);
  if (type && strcmp(type, "class") == 0) {
    /* Members follow in a nested <properties>: flattened as "name.member". */
    size_t n = strlen(c->prop_prefix);
    snprintf(c->prop_prefix + n, sizeof c->prop_prefix - n, "%s.", name);
    return;
  }
  if (value) {
    if (!tiled_props_add(c->props_target, full, type, value)) oom(c);
    return;
  }
  /* Multi-line strings are the element's text. */
  tess_free(c->prop_name);
  tess_free(c->prop_type);
  c->prop_name = tess_strdup(full);
  c->prop_type = tess_strdup(type ? type : "string");
  if (!c->prop_name || !c->prop_type) return oom(c);
  c->text_len = 0;
  c->collect = true;
}

static void end_property(Ctx *c, const char **unused) {
  (void)unused;
  if (c->prop_name) {
    if (!tiled_props_add(c->props_target, c->prop_name, c->prop_type, c->text ? c->text : "")) oom(c);
    tess_free(c->prop_name);
    tess_free(c->prop_type);
    c->prop_name = c->prop_type = NULL;
    c->collect = false;
    return;
  }
  /* Closing a class property: drop its "name." from the prefix. */
  size_t n = strlen(c->prop_prefix);
  if (n && c->prop_prefix[n - 1] == '.') {
    c->prop_prefix[n - 1] = 0;
    char *dot = strrchr(c->prop_prefix, '.');
    if (dot) dot[1] = 0;
    else c->prop_prefix[0] = 0;
  }
}

/* ---- The map ---- */

static void start_map(Ctx *c, const char **atts) {
  TiledMap *m = c->m;
  if (c->ext || c->depth != 1) return stop(c, TESS_ERR_FORMAT, "unexpected <map>%s%s", NULL, NULL);
  m->infinite = attr_bool(atts, "infinite", false);
  if (!attr_dup(c, atts, "orientation", &m->orientation) || !attr_dup(c, atts, "renderorder", &m->renderorder) ||
      !attr_u32(c, atts, "width", TESS_LEVEL_MAX_CELLS, !m->infinite, &m->width) ||
      !attr_u32(c, atts, "height", TESS_LEVEL_MAX_CELLS, !m->infinite, &m->height) ||
      !attr_u32(c, atts, "tilewidth", 65535, true, &m->tile_w) || !attr_u32(c, atts, "tileheight", 65535, true, &m->tile_h))
    return;
  c->props_target = &m->props;
}

/* Where each structural element may stand, as Tiled writes them. The reader
 * keeps pointers to the tileset, tile, layer and object being read, and an
 * element out of place (a <layer> inside an <objectgroup>, a <tile> inside a
 * tile's collision) would grow the array such a pointer points into. */
static bool placed_right(const char *el, const char *up) {
  static const struct { const char *el, *parents; } rules[] = {
      {"layer", "|map|group|"},
      {"imagelayer", "|map|group|"},
      {"group", "|map|group|"},
      {"objectgroup", "|map|group|tile|"},
      {"object", "|objectgroup|"},
      {"data", "|layer|"},
      {"chunk", "|data|"},
      {"tileoffset", "|tileset|"},
      {"image", "|tileset|tile|imagelayer|"},
      {"ellipse", "|object|"},
      {"point", "|object|"},
      {"polygon", "|object|"},
      {"polyline", "|object|"},
      {"text", "|object|"},
      {"property", "|properties|"},
  };
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    if (strcmp(el, rules[i].el) != 0) continue;
    char key[32];
    snprintf(key, sizeof key, "|%s|", up);
    return *up && strstr(rules[i].parents, key) != NULL;
  }
  return true;
}

static void XMLCALL on_start(void *user, const char *el, const char **atts) {
  Ctx *c = user;
  if (c->result) return;
  if (c->depth >= STACK_MAX) return stop(c, TESS_ERR_LIMIT, "elements nested deeper than %s%s", "64", NULL);
  c->stack[c->depth++] = NULL;
  /* The stack keeps the element names' pointers only while their start runs; store known names instead. */
  static const char *const known[] = {"map", "tileset", "tile", "image", "tileoffset", "layer", "objectgroup", "imagelayer",
                                      "group", "data", "chunk", "object", "ellipse", "point", "polygon", "polyline", "text",
                                      "properties", "property", "wangsets", "terraintypes", "animation", "grid", "transformations",
                                      "wangset", "wangcolor", "wangtile"};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcmp(el, known[i]) == 0) c->stack[c->depth - 1] = known[i];
  const char *up = parent(c);
  if (!in_ignored(c) && !placed_right(el, up))
    return stop(c, TESS_ERR_FORMAT, "<%s> inside <%s>", el, *up ? up : "an unknown element");
  if (strcmp(el, "map") == 0) start_map(c, atts);
  else if (strcmp(el, "tileset") == 0) {
    if (c->ext && c->depth != 1) return stop(c, TESS_ERR_FORMAT, "unexpected <tileset>%s%s", NULL, NULL);
    start_tileset(c, atts);
  } else if (c->depth == 1) stop(c, TESS_ERR_FORMAT, "<%s> is neither a map nor a tileset%s", el, NULL);
  else if (strcmp(el, "tileoffset") == 0 && c->ts) {
    if (attr_i32(c, atts, "x", &c->ts->offset_x)) attr_i32(c, atts, "y", &c->ts->offset_y);
  } else if (strcmp(el, "image") == 0) start_image(c, atts);
  else if (strcmp(el, "tile") == 0 && (strcmp(up, "data") == 0 || strcmp(up, "chunk") == 0)) start_data_tile(c, atts);
  else if (strcmp(el, "tile") == 0 && strcmp(up, "tileset") == 0 && c->ts) start_tile_of_tileset(c, atts);
  else if (strcmp(el, "layer") == 0) start_layer(c, atts, TILED_TILES);
  else if (strcmp(el, "objectgroup") == 0 && c->tile) {
    c->objects = &c->tile->shapes;
  } else if (strcmp(el, "objectgroup") == 0) start_layer(c, atts, TILED_OBJECTS);
  else if (strcmp(el, "imagelayer") == 0) start_layer(c, atts, TILED_IMAGE);
  else if (strcmp(el, "group") == 0) start_group(c, atts);
  else if (strcmp(el, "data") == 0) start_data(c, atts);
  else if (strcmp(el, "chunk") == 0) start_chunk(c, atts);
  else if (strcmp(el, "object") == 0) start_object(c, atts);
  else if (strcmp(el, "ellipse") == 0 && c->object) c->object->shape = TILED_ELLIPSE;
  else if (strcmp(el, "point") == 0 && c->object) c->object->shape = TILED_POINT;
  else if (strcmp(el, "text") == 0 && c->object) c->object->shape = TILED_TEXT;
  else if (strcmp(el, "polygon") == 0) start_points(c, atts, TILED_POLYGON);
  else if (strcmp(el, "polyline") == 0) start_points(c, atts, TILED_POLYLINE);
  else if (strcmp(el, "property") == 0) start_property(c, atts);
  else if (strcmp(el, "wangset") == 0 || strcmp(el, "wangcolor") == 0 || strcmp(el, "wangtile") == 0) start_wang(c, el, atts);
  if (c->opt && c->opt->cancel && *c->opt->cancel) stop(c, TESS_ERR_EMPTY, "cancelled%s%s", NULL, NULL);
}

static void XMLCALL on_end(void *user, const char *el) {
  Ctx *c = user;
  if (c->result) return;
  if (strcmp(el, "tileset") == 0) c->ts = NULL, c->wang = NULL, c->props_target = &c->m->props;
  else if (strcmp(el, "wangset") == 0) c->wang = NULL;
  else if (strcmp(el, "tile") == 0 && c->tile) c->tile = NULL, c->props_target = c->ts ? &c->ts->props : NULL;
  else if (strcmp(el, "layer") == 0 || strcmp(el, "imagelayer") == 0) c->layer = NULL, c->props_target = NULL;
  else if (strcmp(el, "objectgroup") == 0) {
    c->objects = NULL;
    c->layer = NULL;
    c->props_target = c->tile ? &c->tile->props : NULL;
  } else if (strcmp(el, "group") == 0) c->group_depth--, c->props_target = NULL;
  else if (strcmp(el, "object") == 0) {
    c->object = NULL;
    c->props_target = c->tile ? &c->tile->props : c->layer ? &c->layer->props
                                                           : NULL;
  } else if (strcmp(el, "chunk") == 0) {
    end_gids(c);
    c->chunk = NULL;
  } else if (strcmp(el, "data") == 0) {
    if (!c->m->infinite) end_gids(c);
    c->in_data = false;
  } else if (strcmp(el, "property") == 0) end_property(c, NULL);
  c->depth--;
}

static void XMLCALL on_text(void *user, const char *s, int len) {
  Ctx *c = user;
  if (!c->collect || c->result || len <= 0) return;
  size_t need = c->text_len + (size_t)len + 1;
  if (need > TESS_MAP_MAX_FILE_BYTES) return stop(c, TESS_ERR_LIMIT, "text too long%s%s", NULL, NULL);
  if (need > c->text_cap) {
    size_t cap = c->text_cap ? c->text_cap : 4096;
    while (cap < need) cap *= 2;
    char *n = tess_realloc(c->text, cap);
    if (!n) return oom(c);
    c->text = n;
    c->text_cap = cap;
  }
  memcpy(c->text + c->text_len, s, (size_t)len);
  c->text_len += (size_t)len;
  c->text[c->text_len] = 0;
}

static TessResult parse(TiledMap *m, TiledTileset *ext, const char *file, const char *dir, const uint8_t *data, size_t size,
                        const TessMapReadOptions *opt, TessError *err) {
  Ctx *c = tess_calloc(1, sizeof *c);
  if (!c) return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory");
  c->m = m;
  c->ext = ext;
  c->file = file;
  c->dir = dir;
  c->opt = opt;
  c->err = err;
  c->groups[0].opacity = 1;
  c->groups[0].visible = true;
  c->xp = XML_ParserCreate("UTF-8");
  if (!c->xp) {
    tess_free(c);
    return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory");
  }
  XML_SetUserData(c->xp, c);
  XML_SetElementHandler(c->xp, on_start, on_end);
  XML_SetCharacterDataHandler(c->xp, on_text);
  if (size > INT32_MAX) c->result = tess_error_set(err, TESS_ERR_LIMIT, file, "file too large");
  else if (XML_Parse(c->xp, (const char *)data, (int)size, XML_TRUE) == XML_STATUS_ERROR && !c->result)
    c->result = tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, (uint64_t)XML_GetCurrentLineNumber(c->xp),
                                  "XML: %s", XML_ErrorString(XML_GetErrorCode(c->xp)));
  if (!c->result && !ext && !m->tile_w) c->result = tess_error_set(err, TESS_ERR_FORMAT, file, "no <map> element");
  if (!c->result && ext && !ext->tile_w) c->result = tess_error_set(err, TESS_ERR_FORMAT, file, "no <tileset> element");
  TessResult r = c->result;
  XML_ParserFree(c->xp);
  tiled_props_free(&c->scratch);
  tess_free(c->prop_name);
  tess_free(c->prop_type);
  tess_free(c->text);
  tess_free(c);
  return r;
}

TessResult tiled_tmx_parse(TiledMap *m, const uint8_t *data, size_t size, const TessMapReadOptions *opt, TessError *err) {
  return parse(m, NULL, m->path, m->dir, data, size, opt, err);
}

TessResult tiled_tsx_load(TiledMap *m, TiledTileset *ts, TessError *err) {
  uint8_t *data = NULL;
  size_t size = 0;
  TessResult r = tess_file_read(ts->source_resolved, TESS_MAP_MAX_FILE_BYTES, &data, &size, err);
  if (r) return r;
  char *dir = tiled_path_dir(ts->source_resolved);
  r = dir ? parse(m, ts, ts->source_resolved, dir, data, size, NULL, err)
          : tess_error_set(err, TESS_ERR_NOMEM, ts->source_resolved, "out of memory");
  tess_free(dir);
  tess_free(data);
  return r;
}
