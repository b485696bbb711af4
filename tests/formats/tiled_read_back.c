/* Reading exported Tiled files back for the tests (tiled_read_back.h):
 * TMJ/TSJ with jansson, TMX/TSX with expat, into one structure. */
#include "tiled_read_back.h"

#include <expat.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *dst, size_t size, const char *src) { snprintf(dst, size, "%s", src ? src : ""); }

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Canonical text of a value by its declared type. */
static void canon_number(const char *type, double d, long long i, bool is_int, char *out, size_t size) {
  if (strcmp(type, "float") == 0) snprintf(out, size, "%.17g", is_int ? (double)i : d);
  else snprintf(out, size, "%lld", is_int ? i : (long long)d);
}

static void add_prop(RbProps *props, const char *name, const char *type, const char *value) {
  if (props->n >= sizeof props->v / sizeof props->v[0]) return;
  RbProp *p = &props->v[props->n++];
  copy(p->name, sizeof p->name, name);
  copy(p->type, sizeof p->type, type && type[0] ? type : "string");
  if (strcmp(p->type, "float") == 0 || strcmp(p->type, "int") == 0 || strcmp(p->type, "object") == 0) {
    bool is_int = strcmp(p->type, "float") != 0;
    char text[40];
    canon_number(p->type, strtod(value, NULL), strtoll(value, NULL, 10), is_int, text, sizeof text);
    p->value = strdup(text);
  } else {
    p->value = strdup(value);
  }
}

const RbProp *rb_prop(const RbProps *props, const char *name) {
  for (size_t i = 0; i < props->n; i++)
    if (strcmp(props->v[i].name, name) == 0) return &props->v[i];
  return NULL;
}

/* ---- JSON --------------------------------------------------------------- */

static double num(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return v ? json_number_value(v) : 0.0;
}

static void json_props(json_t *arr, RbProps *out) {
  size_t i;
  json_t *p;
  json_array_foreach(arr, i, p) {
    const char *type = json_string_value(json_object_get(p, "type"));
    json_t *v = json_object_get(p, "value");
    char text[64] = "";
    const char *str = NULL;
    if (json_is_string(v)) str = json_string_value(v);
    else if (json_is_boolean(v)) copy(text, sizeof text, json_is_true(v) ? "true" : "false");
    else if (json_is_integer(v)) canon_number(type ? type : "int", 0, (long long)json_integer_value(v), true, text, sizeof text);
    else if (json_is_real(v)) canon_number(type ? type : "float", json_real_value(v), 0, false, text, sizeof text);
    RbProps *props = out;
    if (props->n >= sizeof props->v / sizeof props->v[0]) return;
    RbProp *q = &props->v[props->n++];
    copy(q->name, sizeof q->name, json_string_value(json_object_get(p, "name")));
    copy(q->type, sizeof q->type, type ? type : "string");
    q->value = strdup(str ? str : text);
  }
}

static void json_points(json_t *arr, RbObject *o) {
  size_t i;
  json_t *p;
  json_array_foreach(arr, i, p) {
    if (o->point_count >= 16) break;
    o->points[o->point_count][0] = num(p, "x");
    o->points[o->point_count][1] = num(p, "y");
    o->point_count++;
  }
}

static RbObject *json_objects(json_t *arr, size_t *count) {
  size_t n = json_array_size(arr), i;
  RbObject *objs = calloc(n ? n : 1, sizeof *objs);
  json_t *j;
  json_array_foreach(arr, i, j) {
    RbObject *o = &objs[i];
    o->id = (uint32_t)num(j, "id");
    o->gid = (uint32_t)json_integer_value(json_object_get(j, "gid"));
    copy(o->name, sizeof o->name, json_string_value(json_object_get(j, "name")));
    copy(o->type, sizeof o->type, json_string_value(json_object_get(j, "type")));
    o->x = num(j, "x");
    o->y = num(j, "y");
    o->w = num(j, "width");
    o->h = num(j, "height");
    o->rotation = num(j, "rotation");
    o->shape = RB_RECT;
    if (json_is_true(json_object_get(j, "ellipse"))) o->shape = RB_ELLIPSE;
    if (json_is_true(json_object_get(j, "point"))) o->shape = RB_POINT;
    if (json_object_get(j, "polygon")) o->shape = RB_POLYGON, json_points(json_object_get(j, "polygon"), o);
    if (json_object_get(j, "polyline")) o->shape = RB_POLYLINE, json_points(json_object_get(j, "polyline"), o);
    json_props(json_object_get(j, "properties"), &o->props);
  }
  *count = n;
  return objs;
}

static bool read_json(const char *path, RbFile *f) {
  json_error_t e;
  json_t *root = json_load_file(path, 0, &e);
  if (!root) {
    fprintf(stderr, "%s:%d: %s\n", path, e.line, e.text);
    return false;
  }
  f->width = (uint32_t)num(root, "width");
  f->height = (uint32_t)num(root, "height");
  f->tile_w = (uint32_t)num(root, "tilewidth");
  f->tile_h = (uint32_t)num(root, "tileheight");
  f->tile_count = (uint32_t)num(root, "tilecount");
  f->columns = (uint32_t)num(root, "columns");
  copy(f->name, sizeof f->name, json_string_value(json_object_get(root, "name")));
  copy(f->image, sizeof f->image, json_string_value(json_object_get(root, "image")));
  json_props(json_object_get(root, "properties"), &f->props);
  size_t i;
  json_t *j;
  json_array_foreach(json_object_get(root, "tilesets"), i, j) {
    if (f->tileset_count >= 64) break;
    f->firstgid[f->tileset_count] = (uint32_t)num(j, "firstgid");
    copy(f->source[f->tileset_count], sizeof f->source[0], json_string_value(json_object_get(j, "source")));
    f->tileset_count++;
  }
  json_array_foreach(json_object_get(root, "layers"), i, j) {
    if (f->layer_count >= 32) break;
    RbLayer *l = &f->layers[f->layer_count++];
    l->id = (uint32_t)num(j, "id");
    copy(l->name, sizeof l->name, json_string_value(json_object_get(j, "name")));
    l->tiles = strcmp(json_string_value(json_object_get(j, "type")), "tilelayer") == 0;
    l->visible = json_is_true(json_object_get(j, "visible"));
    l->locked = json_is_true(json_object_get(j, "locked"));
    l->opacity = num(j, "opacity");
    json_props(json_object_get(j, "properties"), &l->props);
    json_t *data = json_object_get(j, "data");
    l->gid_count = json_array_size(data);
    l->gids = calloc(l->gid_count ? l->gid_count : 1, sizeof *l->gids);
    for (size_t k = 0; k < l->gid_count; k++) l->gids[k] = (uint32_t)json_integer_value(json_array_get(data, k));
    if (!l->tiles) l->objects = json_objects(json_object_get(j, "objects"), &l->object_count);
  }
  json_t *tiles = json_object_get(root, "tiles");
  f->tile_n = json_array_size(tiles);
  f->tiles = calloc(f->tile_n ? f->tile_n : 1, sizeof *f->tiles);
  json_array_foreach(tiles, i, j) {
    RbTile *t = &f->tiles[i];
    t->id = (uint32_t)num(j, "id");
    json_props(json_object_get(j, "properties"), &t->props);
    json_t *g = json_object_get(j, "objectgroup");
    if (g) t->objects = json_objects(json_object_get(g, "objects"), &t->object_count);
    t->frame_count = json_array_size(json_object_get(j, "animation"));
  }
  json_decref(root);
  return true;
}

/* ---- XML ---------------------------------------------------------------- */

typedef struct Sax {
  RbFile *f;
  int depth;
  bool in_tile, in_object, in_data, in_map;
  RbLayer *layer;
  RbTile *tile;
  RbObject *object;
  char *text;
  size_t text_len, text_cap;
  size_t tile_cap;
} Sax;

static const char *attr(const char **atts, const char *name) {
  for (int i = 0; atts[i]; i += 2)
    if (strcmp(atts[i], name) == 0) return atts[i + 1];
  return NULL;
}

static double attr_d(const char **atts, const char *name, double def) {
  const char *v = attr(atts, name);
  return v ? strtod(v, NULL) : def;
}

static RbObject *push_object(RbObject **objs, size_t *count) {
  *objs = realloc(*objs, (*count + 1) * sizeof **objs);
  RbObject *o = &(*objs)[(*count)++];
  memset(o, 0, sizeof *o);
  return o;
}

static void XMLCALL on_start(void *user, const char *el, const char **atts) {
  Sax *s = user;
  RbFile *f = s->f;
  if (strcmp(el, "map") == 0) {
    s->in_map = true;
    f->width = (uint32_t)attr_d(atts, "width", 0);
    f->height = (uint32_t)attr_d(atts, "height", 0);
    f->tile_w = (uint32_t)attr_d(atts, "tilewidth", 0);
    f->tile_h = (uint32_t)attr_d(atts, "tileheight", 0);
  } else if (strcmp(el, "tileset") == 0) {
    if (s->in_map && f->tileset_count < 64) {
      f->firstgid[f->tileset_count] = (uint32_t)attr_d(atts, "firstgid", 0);
      copy(f->source[f->tileset_count++], sizeof f->source[0], attr(atts, "source"));
    } else {
      copy(f->name, sizeof f->name, attr(atts, "name"));
      f->tile_w = (uint32_t)attr_d(atts, "tilewidth", 0);
      f->tile_h = (uint32_t)attr_d(atts, "tileheight", 0);
      f->tile_count = (uint32_t)attr_d(atts, "tilecount", 0);
      f->columns = (uint32_t)attr_d(atts, "columns", 0);
    }
  } else if (strcmp(el, "image") == 0) {
    copy(f->image, sizeof f->image, attr(atts, "source"));
  } else if (strcmp(el, "layer") == 0 || (strcmp(el, "objectgroup") == 0 && !s->in_tile)) {
    if (f->layer_count >= 32) return;
    RbLayer *l = s->layer = &f->layers[f->layer_count++];
    l->id = (uint32_t)attr_d(atts, "id", 0);
    copy(l->name, sizeof l->name, attr(atts, "name"));
    l->tiles = strcmp(el, "layer") == 0;
    l->visible = attr_d(atts, "visible", 1) != 0;
    l->locked = attr_d(atts, "locked", 0) != 0;
    l->opacity = attr_d(atts, "opacity", 1);
  } else if (strcmp(el, "tile") == 0) {
    f->tiles = realloc(f->tiles, (f->tile_n + 1) * sizeof *f->tiles);
    s->tile = &f->tiles[f->tile_n++];
    memset(s->tile, 0, sizeof *s->tile);
    s->tile->id = (uint32_t)attr_d(atts, "id", 0);
    s->in_tile = true;
  } else if (strcmp(el, "frame") == 0 && s->tile) {
    s->tile->frame_count++;
  } else if (strcmp(el, "object") == 0) {
    RbObject *o = s->in_tile ? push_object(&s->tile->objects, &s->tile->object_count)
                             : push_object(&s->layer->objects, &s->layer->object_count);
    s->object = o;
    s->in_object = true;
    o->id = (uint32_t)attr_d(atts, "id", 0);
    o->gid = (uint32_t)strtoul(attr(atts, "gid") ? attr(atts, "gid") : "0", NULL, 10);
    copy(o->name, sizeof o->name, attr(atts, "name"));
    copy(o->type, sizeof o->type, attr(atts, "type"));
    o->x = attr_d(atts, "x", 0);
    o->y = attr_d(atts, "y", 0);
    o->w = attr_d(atts, "width", 0);
    o->h = attr_d(atts, "height", 0);
    o->rotation = attr_d(atts, "rotation", 0);
    o->shape = RB_RECT;
  } else if (s->in_object && (strcmp(el, "ellipse") == 0 || strcmp(el, "point") == 0)) {
    s->object->shape = el[0] == 'e' ? RB_ELLIPSE : RB_POINT;
  } else if (s->in_object && (strcmp(el, "polygon") == 0 || strcmp(el, "polyline") == 0)) {
    RbObject *o = s->object;
    o->shape = strcmp(el, "polygon") == 0 ? RB_POLYGON : RB_POLYLINE;
    const char *pts = attr(atts, "points");
    while (pts && *pts && o->point_count < 16) {
      char *end;
      o->points[o->point_count][0] = strtod(pts, &end);
      o->points[o->point_count][1] = strtod(end + 1, &end);
      o->point_count++;
      pts = *end ? end + 1 : end;
    }
  } else if (strcmp(el, "property") == 0) {
    RbProps *props = s->in_object ? &s->object->props : s->in_tile ? &s->tile->props
                                                    : s->layer     ? &s->layer->props
                                                                   : &f->props;
    add_prop(props, attr(atts, "name"), attr(atts, "type"), attr(atts, "value") ? attr(atts, "value") : "");
  } else if (strcmp(el, "data") == 0) {
    s->in_data = true;
    s->text_len = 0;
  }
}

static void XMLCALL on_end(void *user, const char *el) {
  Sax *s = user;
  if (strcmp(el, "object") == 0) s->in_object = false;
  else if (strcmp(el, "tile") == 0) s->in_tile = false;
  else if (strcmp(el, "layer") == 0 || (strcmp(el, "objectgroup") == 0 && !s->in_tile)) s->layer = NULL;
  else if (strcmp(el, "data") == 0 && s->layer) {
    s->in_data = false;
    RbLayer *l = s->layer;
    l->gids = calloc((size_t)s->f->width * s->f->height + 1, sizeof *l->gids);
    char *p = s->text;
    while (p && *p) {
      while (*p == '\n' || *p == ',' || *p == ' ') p++;
      if (!*p) break;
      char *end;
      unsigned long v = strtoul(p, &end, 10);
      if (end == p) break;
      if (l->gid_count < (size_t)s->f->width * s->f->height) l->gids[l->gid_count++] = (uint32_t)v;
      p = end;
    }
  }
}

static void XMLCALL on_text(void *user, const char *t, int len) {
  Sax *s = user;
  if (!s->in_data) return;
  if (s->text_len + (size_t)len + 1 > s->text_cap) {
    s->text_cap = (s->text_len + (size_t)len + 1) * 2;
    s->text = realloc(s->text, s->text_cap);
  }
  memcpy(s->text + s->text_len, t, (size_t)len);
  s->text_len += (size_t)len;
  s->text[s->text_len] = 0;
}

static bool read_xml(const char *path, RbFile *f) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    fprintf(stderr, "%s: cannot open\n", path);
    return false;
  }
  XML_Parser p = XML_ParserCreate("UTF-8");
  Sax s = {.f = f};
  XML_SetUserData(p, &s);
  XML_SetElementHandler(p, on_start, on_end);
  XML_SetCharacterDataHandler(p, on_text);
  char buf[65536];
  bool ok = true;
  for (;;) {
    size_t n = fread(buf, 1, sizeof buf, fp);
    if (XML_Parse(p, buf, (int)n, n == 0) == XML_STATUS_ERROR) {
      fprintf(stderr, "%s:%lu: %s\n", path, (unsigned long)XML_GetCurrentLineNumber(p),
              XML_ErrorString(XML_GetErrorCode(p)));
      ok = false;
      break;
    }
    if (n == 0) break;
  }
  XML_ParserFree(p);
  free(s.text);
  fclose(fp);
  return ok;
}

bool rb_read(const char *path, RbFile *out) {
  memset(out, 0, sizeof *out);
  if (ends_with(path, ".tmj") || ends_with(path, ".tsj")) return read_json(path, out);
  return read_xml(path, out);
}

static void free_props(RbProps *props) {
  for (size_t i = 0; i < props->n; i++) free(props->v[i].value);
}

static void free_objects(RbObject *o, size_t n) {
  for (size_t i = 0; i < n; i++) free_props(&o[i].props);
  free(o);
}

RbFile *rb_new(void) { return calloc(1, sizeof(RbFile)); }

void rb_delete(RbFile *f) {
  if (!f) return;
  rb_free(f);
  free(f);
}

void rb_free(RbFile *f) {
  free_props(&f->props);
  for (size_t i = 0; i < f->layer_count; i++) {
    free(f->layers[i].gids);
    free_props(&f->layers[i].props);
    free_objects(f->layers[i].objects, f->layers[i].object_count);
  }
  for (size_t i = 0; i < f->tile_n; i++) {
    free_props(&f->tiles[i].props);
    free_objects(f->tiles[i].objects, f->tiles[i].object_count);
  }
  free(f->tiles);
  memset(f, 0, sizeof *f);
}

/* ---- Comparison ----------------------------------------------------------- */

/* tessera.content_hash is left out: it covers the flavour, so a TMX and a
 * TMJ of one level carry different ones. */
static bool props_equal(const RbProps *a, const RbProps *b, const char *where) {
  if (a->n != b->n) {
    fprintf(stderr, "%s: %zu properties against %zu\n", where, a->n, b->n);
    return false;
  }
  for (size_t i = 0; i < a->n; i++)
    if (strcmp(a->v[i].name, "tessera.content_hash") == 0 && strcmp(b->v[i].name, a->v[i].name) == 0) continue;
    else if (strcmp(a->v[i].name, b->v[i].name) || strcmp(a->v[i].type, b->v[i].type) ||
             strcmp(a->v[i].value, b->v[i].value)) {
      fprintf(stderr, "%s: property %s:%s=%s against %s:%s=%s\n", where, a->v[i].name, a->v[i].type, a->v[i].value,
              b->v[i].name, b->v[i].type, b->v[i].value);
      return false;
    }
  return true;
}

static bool objects_equal(const RbObject *a, const RbObject *b, size_t n, const char *where) {
  for (size_t i = 0; i < n; i++) {
    const RbObject *x = &a[i], *y = &b[i];
    char w[300];
    snprintf(w, sizeof w, "%s object %u", where, x->id);
    if (x->id != y->id || x->gid != y->gid || strcmp(x->name, y->name) || strcmp(x->type, y->type) || x->x != y->x ||
        x->y != y->y || x->w != y->w || x->h != y->h || x->rotation != y->rotation || x->shape != y->shape ||
        x->point_count != y->point_count) {
      fprintf(stderr, "%s: differs (id %u/%u, name '%s'/'%s', x %.17g/%.17g, y %.17g/%.17g, shape %d/%d)\n", w, x->id,
              y->id, x->name, y->name, x->x, y->x, x->y, y->y, x->shape, y->shape);
      return false;
    }
    for (size_t k = 0; k < x->point_count; k++)
      if (x->points[k][0] != y->points[k][0] || x->points[k][1] != y->points[k][1]) {
        fprintf(stderr, "%s: point %zu differs\n", w, k);
        return false;
      }
    if (!props_equal(&x->props, &y->props, w)) return false;
  }
  return true;
}

static bool same_stem(const char *a, const char *b) {
  size_t n = strlen(a), k = strlen(b);
  return n == k && n > 4 && strncmp(a, b, n - 4) == 0;
}

bool rb_equal(const RbFile *a, const RbFile *b) {
  if (a->width != b->width || a->height != b->height || a->tile_w != b->tile_w || a->tile_h != b->tile_h ||
      a->tile_count != b->tile_count || a->columns != b->columns || strcmp(a->name, b->name) ||
      strcmp(a->image, b->image) || a->tileset_count != b->tileset_count || a->layer_count != b->layer_count ||
      a->tile_n != b->tile_n) {
    fprintf(stderr, "files differ in their header (sizes, names, counts)\n");
    return false;
  }
  if (!props_equal(&a->props, &b->props, "file")) return false;
  for (size_t i = 0; i < a->tileset_count; i++)
    if (a->firstgid[i] != b->firstgid[i] || !same_stem(a->source[i], b->source[i])) {
      fprintf(stderr, "tileset %zu: %u %s against %u %s\n", i, a->firstgid[i], a->source[i], b->firstgid[i], b->source[i]);
      return false;
    }
  for (size_t i = 0; i < a->layer_count; i++) {
    const RbLayer *x = &a->layers[i], *y = &b->layers[i];
    char w[300];
    snprintf(w, sizeof w, "layer %u '%s'", x->id, x->name);
    if (x->id != y->id || strcmp(x->name, y->name) || x->tiles != y->tiles || x->visible != y->visible ||
        x->locked != y->locked || x->opacity != y->opacity || x->gid_count != y->gid_count ||
        x->object_count != y->object_count) {
      fprintf(stderr, "%s: differs\n", w);
      return false;
    }
    if (x->gid_count && memcmp(x->gids, y->gids, x->gid_count * sizeof *x->gids) != 0) {
      fprintf(stderr, "%s: gids differ\n", w);
      return false;
    }
    if (!props_equal(&x->props, &y->props, w) || !objects_equal(x->objects, y->objects, x->object_count, w)) return false;
  }
  for (size_t i = 0; i < a->tile_n; i++) {
    const RbTile *x = &a->tiles[i], *y = &b->tiles[i];
    char w[64];
    snprintf(w, sizeof w, "tile %u", x->id);
    if (x->id != y->id || x->object_count != y->object_count || x->frame_count != y->frame_count) {
      fprintf(stderr, "%s: differs\n", w);
      return false;
    }
    if (!props_equal(&x->props, &y->props, w) || !objects_equal(x->objects, y->objects, x->object_count, w)) return false;
  }
  return true;
}
