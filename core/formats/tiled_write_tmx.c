/* A Tiled model as TMX/TSX (Tiled's XML, the layout Tiled 1.8 writes),
 * through a small writer of our own: every attribute value is escaped
 * (& < > " ' and tab, newline, carriage return as character references,
 * so they survive attribute normalisation), text must be UTF-8, and the
 * characters XML 1.0 cannot hold at all (other controls, U+FFFE, U+FFFF)
 * are refused with the text named rather than written broken. Numbers are
 * the shortest text that reads back exactly (tiled_write_format_double). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "formats_tiled_write.h"

typedef struct Xml {
  char *s;
  size_t len, cap;
  int depth;
  bool failed;
  TessResult r;
  TessError *err;
} Xml;

static void put(Xml *x, const char *s, size_t n) {
  if (x->failed) return;
  if (!tess_array_reserve((void **)&x->s, &x->cap, x->len + n + 1, 1)) {
    x->failed = true;
    if (x->r == TESS_OK) x->r = tess_error_set(x->err, TESS_ERR_NOMEM, "export", "out of memory");
    return;
  }
  memcpy(x->s + x->len, s, n);
  x->len += n;
  x->s[x->len] = 0;
}

static void puts_(Xml *x, const char *s) { put(x, s, strlen(s)); }

static bool xml_char_ok(const unsigned char *p) {
  if (p[0] < 0x20) return p[0] == '\t' || p[0] == '\n' || p[0] == '\r';
  /* U+FFFE and U+FFFF: EF BF BE / EF BF BF */
  if (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) return false;
  return true;
}

static void escaped(Xml *x, const char *s) {
  if (!s) s = "";
  if (!tiled_write_utf8_valid(s)) {
    if (x->r == TESS_OK) x->r = tess_error_set(x->err, TESS_ERR_FORMAT, "export", "text '%.40s' is not valid UTF-8", s);
    x->failed = true;
    return;
  }
  const char *run = s;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    const char *rep = NULL;
    switch (*p) {
      case '&': rep = "&amp;"; break;
      case '<': rep = "&lt;"; break;
      case '>': rep = "&gt;"; break;
      case '"': rep = "&quot;"; break;
      case '\'': rep = "&apos;"; break;
      case '\t': rep = "&#9;"; break;
      case '\n': rep = "&#10;"; break;
      case '\r': rep = "&#13;"; break;
      default:
        if (!xml_char_ok(p)) {
          if (x->r == TESS_OK)
            x->r = tess_error_set(x->err, TESS_ERR_FORMAT, "export",
                                  "text '%.40s' holds a character XML cannot carry (U+%04X): use --format tmj", s,
                                  *p < 0x20 ? *p : 0xFFFE + (p[2] == 0xBF));
          x->failed = true;
          return;
        }
        continue;
    }
    put(x, run, (size_t)((const char *)p - run));
    puts_(x, rep);
    run = (const char *)p + 1;
  }
  puts_(x, run);
}

static void indent(Xml *x) {
  for (int i = 0; i < x->depth; i++) put(x, " ", 1);
}

/* <name  — attributes follow, then open_end or close_empty */
static void open_tag(Xml *x, const char *name) {
  indent(x);
  put(x, "<", 1);
  puts_(x, name);
}

static void attr(Xml *x, const char *name, const char *value) {
  put(x, " ", 1);
  puts_(x, name);
  put(x, "=\"", 2);
  escaped(x, value);
  put(x, "\"", 1);
}

static void attr_u(Xml *x, const char *name, uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  attr(x, name, buf);
}

static void attr_i(Xml *x, const char *name, int64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%lld", (long long)v);
  attr(x, name, buf);
}

static void attr_d(Xml *x, const char *name, double v) {
  char buf[32];
  tiled_write_format_double(v, buf);
  attr(x, name, buf);
}

static void open_end(Xml *x) {
  puts_(x, ">\n");
  x->depth++;
}

static void close_empty(Xml *x) { puts_(x, "/>\n"); }

static void close_tag(Xml *x, const char *name) {
  x->depth--;
  indent(x);
  puts_(x, "</");
  puts_(x, name);
  puts_(x, ">\n");
}

static void properties(Xml *x, const TwProps *props) {
  if (!props->n) return;
  open_tag(x, "properties");
  open_end(x);
  for (size_t i = 0; i < props->n; i++) {
    const TwProp *p = &props->v[i];
    static const char *types[] = {"string", "int", "float", "bool", "color", "object", "file"};
    open_tag(x, "property");
    attr(x, "name", p->name);
    if (p->type != TW_STRING) attr(x, "type", types[p->type]);
    char buf[32];
    switch (p->type) {
      case TW_STRING:
      case TW_FILE: attr(x, "value", p->s); break;
      case TW_INT:
      case TW_OBJECT:
        snprintf(buf, sizeof buf, "%lld", (long long)p->i);
        attr(x, "value", buf);
        break;
      case TW_FLOAT: attr_d(x, "value", p->f); break;
      case TW_BOOL: attr(x, "value", p->b ? "true" : "false"); break;
      case TW_COLOR:
        tiled_write_format_color(p->color, buf);
        attr(x, "value", buf);
        break;
      default: break;
    }
    close_empty(x);
  }
  close_tag(x, "properties");
}

static void points(Xml *x, const char *tag, const TwObject *o) {
  open_tag(x, tag);
  size_t cap = (size_t)o->point_count * 66 + 1, len = 0;
  char *buf = tess_alloc(cap);
  if (!buf) {
    x->failed = true;
    if (x->r == TESS_OK) x->r = tess_error_set(x->err, TESS_ERR_NOMEM, "export", "out of memory");
    return;
  }
  buf[0] = 0;
  for (uint32_t i = 0; i < o->point_count; i++) {
    char a[32], b[32];
    tiled_write_format_double(o->points[i].x, a);
    tiled_write_format_double(o->points[i].y, b);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s,%s", i ? " " : "", a, b);
  }
  attr(x, "points", buf);
  tess_free(buf);
  close_empty(x);
}

static void object(Xml *x, const TwObject *o) {
  open_tag(x, "object");
  attr_u(x, "id", o->id);
  if (o->name && o->name[0]) attr(x, "name", o->name);
  if (o->type && o->type[0]) attr(x, "type", o->type);
  if (o->shape == TW_TILE) attr_u(x, "gid", o->gid);
  attr_d(x, "x", o->x);
  attr_d(x, "y", o->y);
  if (o->width != 0.0 || o->height != 0.0) {
    attr_d(x, "width", o->width);
    attr_d(x, "height", o->height);
  }
  if (o->rotation != 0.0) attr_d(x, "rotation", o->rotation);
  bool inner = o->props.n || o->shape == TW_ELLIPSE || o->shape == TW_POINT || o->shape == TW_POLYGON ||
               o->shape == TW_POLYLINE;
  if (!inner) {
    close_empty(x);
    return;
  }
  open_end(x);
  properties(x, &o->props);
  if (o->shape == TW_ELLIPSE || o->shape == TW_POINT) {
    open_tag(x, o->shape == TW_ELLIPSE ? "ellipse" : "point");
    close_empty(x);
  }
  if (o->shape == TW_POLYGON) points(x, "polygon", o);
  if (o->shape == TW_POLYLINE) points(x, "polyline", o);
  close_tag(x, "object");
}

static void layer_common(Xml *x, const TwLayer *l) {
  attr_u(x, "id", l->id);
  attr(x, "name", l->name);
  if (!l->visible) attr(x, "visible", "0");
  if (l->locked) attr(x, "locked", "1");
  if (l->opacity != 1.0) attr_d(x, "opacity", l->opacity);
}

static void tile_data(Xml *x, const TwMap *m, const TwLayer *l) {
  open_tag(x, "data");
  attr(x, "encoding", "csv");
  puts_(x, ">\n");
  for (uint32_t y = 0; y < m->height && !x->failed; y++) {
    char line[16 * 64];
    size_t n = 0;
    for (uint32_t c = 0; c < m->width; c++) {
      char digits[12];
      uint32_t v = l->gids[(size_t)y * m->width + c];
      int k = 0;
      do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
      } while (v);
      while (k) line[n++] = digits[--k];
      if (c + 1 < m->width || y + 1 < m->height) line[n++] = ',';
      if (n > sizeof line - 16) {
        put(x, line, n);
        n = 0;
      }
    }
    line[n++] = '\n';
    put(x, line, n);
  }
  indent(x);
  puts_(x, "</data>\n");
}

static TessResult done(Xml *x, char **out, size_t *size) {
  if (x->r != TESS_OK || x->failed) {
    tess_free(x->s);
    return x->r != TESS_OK ? x->r : tess_error_set(x->err, TESS_ERR_NOMEM, "export", "out of memory");
  }
  *out = x->s;
  *size = x->len;
  return TESS_OK;
}

TessResult tiled_write_tmx_map(const TwMap *m, char **out, size_t *size, TessError *err) {
  Xml x = {.err = err, .r = TESS_OK};
  puts_(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  open_tag(&x, "map");
  attr(&x, "version", TW_FORMAT_VERSION);
  attr(&x, "tiledversion", TW_TILED_VERSION);
  attr(&x, "orientation", "orthogonal");
  attr(&x, "renderorder", "right-down");
  attr_u(&x, "width", m->width);
  attr_u(&x, "height", m->height);
  attr_u(&x, "tilewidth", m->tile_w);
  attr_u(&x, "tileheight", m->tile_h);
  attr(&x, "infinite", "0");
  attr_u(&x, "nextlayerid", m->next_layer_id);
  attr_u(&x, "nextobjectid", m->next_object_id);
  open_end(&x);
  properties(&x, &m->props);
  for (size_t i = 0; i < m->tileset_count; i++) {
    char source[160];
    snprintf(source, sizeof source, "%s/%s.tsx", TW_DIR, m->tilesets[i].stem);
    open_tag(&x, "tileset");
    attr_u(&x, "firstgid", m->tilesets[i].firstgid);
    attr(&x, "source", source);
    close_empty(&x);
  }
  for (size_t i = 0; i < m->layer_count && !x.failed; i++) {
    const TwLayer *l = &m->layers[i];
    if (l->tiles) {
      open_tag(&x, "layer");
      layer_common(&x, l);
      attr_u(&x, "width", m->width);
      attr_u(&x, "height", m->height);
      open_end(&x);
      properties(&x, &l->props);
      tile_data(&x, m, l);
      close_tag(&x, "layer");
    } else {
      open_tag(&x, "objectgroup");
      layer_common(&x, l);
      attr(&x, "draworder", l->topdown ? "topdown" : "index");
      open_end(&x);
      properties(&x, &l->props);
      for (size_t k = 0; k < l->objects.n; k++) object(&x, &l->objects.v[k]);
      close_tag(&x, "objectgroup");
    }
  }
  close_tag(&x, "map");
  return done(&x, out, size);
}

/* Terrain sets as Tiled's <wangsets> (1.5+ form: 8 comma-separated colours). */
static void wangsets(Xml *x, const TwTileset *ts) {
  if (!ts->terrain_count) return;
  static const char *kinds[] = {"corner", "edge", "mixed"};
  open_tag(x, "wangsets");
  open_end(x);
  for (uint32_t i = 0; i < ts->terrain_count; i++) {
    const TessTerrainSet *set = &ts->terrains[i];
    open_tag(x, "wangset");
    attr(x, "name", set->name);
    attr(x, "type", kinds[set->kind <= 2 ? set->kind : 0]);
    char num[16];
    snprintf(num, sizeof num, "%d", (int)set->tile);
    attr(x, "tile", num);
    open_end(x);
    for (uint32_t c = 0; c < set->color_count; c++) {
      char color[16];
      tiled_write_format_color(set->colors[c].color, color);
      open_tag(x, "wangcolor");
      attr(x, "name", set->colors[c].name);
      attr(x, "color", color);
      snprintf(num, sizeof num, "%d", (int)set->colors[c].tile);
      attr(x, "tile", num);
      attr_d(x, "probability", set->colors[c].probability);
      close_empty(x);
    }
    for (uint32_t t = 0; t < set->tile_count; t++) {
      const uint8_t *w = set->tiles[t].wang;
      char wangid[48];
      snprintf(wangid, sizeof wangid, "%u,%u,%u,%u,%u,%u,%u,%u", w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
      open_tag(x, "wangtile");
      attr_u(x, "tileid", set->tiles[t].tile);
      attr(x, "wangid", wangid);
      close_empty(x);
    }
    close_tag(x, "wangset");
  }
  close_tag(x, "wangsets");
}

TessResult tiled_write_tmx_tileset(const TwTileset *ts, char **out, size_t *size, TessError *err) {
  Xml x = {.err = err, .r = TESS_OK};
  puts_(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  open_tag(&x, "tileset");
  attr(&x, "version", TW_FORMAT_VERSION);
  attr(&x, "tiledversion", TW_TILED_VERSION);
  attr(&x, "name", ts->name);
  attr_u(&x, "tilewidth", ts->tile_w);
  attr_u(&x, "tileheight", ts->tile_h);
  if (ts->spacing) attr_u(&x, "spacing", ts->spacing);
  if (ts->margin) attr_u(&x, "margin", ts->margin);
  attr_u(&x, "tilecount", ts->tile_count);
  attr_u(&x, "columns", ts->columns);
  if (ts->fit_grid) attr(&x, "tilerendersize", "grid");
  open_end(&x);
  if (ts->offset_x || ts->offset_y) {
    open_tag(&x, "tileoffset");
    attr_i(&x, "x", ts->offset_x);
    attr_i(&x, "y", ts->offset_y);
    close_empty(&x);
  }
  properties(&x, &ts->props);
  char image[160];
  snprintf(image, sizeof image, "%s.png", ts->stem);
  open_tag(&x, "image");
  attr(&x, "source", image);
  attr_u(&x, "width", ts->image_w);
  attr_u(&x, "height", ts->image_h);
  close_empty(&x);
  for (size_t i = 0; i < ts->tile_n; i++) {
    const TwTile *t = &ts->tiles[i];
    open_tag(&x, "tile");
    attr_u(&x, "id", t->id);
    if (t->has_probability) attr_d(&x, "probability", t->probability);
    open_end(&x);
    properties(&x, &t->props);
    if (t->objects.n) {
      open_tag(&x, "objectgroup");
      attr(&x, "draworder", "index");
      open_end(&x);
      for (size_t k = 0; k < t->objects.n; k++) object(&x, &t->objects.v[k]);
      close_tag(&x, "objectgroup");
    }
    if (t->frame_count) {
      open_tag(&x, "animation");
      open_end(&x);
      for (uint32_t f = 0; f < t->frame_count; f++) {
        open_tag(&x, "frame");
        attr_u(&x, "tileid", f);
        attr_u(&x, "duration", t->frame_ms);
        close_empty(&x);
      }
      close_tag(&x, "animation");
    }
    close_tag(&x, "tile");
  }
  wangsets(&x, ts);
  close_tag(&x, "tileset");
  return done(&x, out, size);
}
