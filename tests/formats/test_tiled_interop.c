/* Tiled maps made by people (issue 12), on real files:
 * - polygon objects become sprite bodies through the mask decomposition:
 *   a concave L cut into convex pieces with the polygon's exact area and
 *   centroid, a turned triangle placed and turned where Tiled draws it, the
 *   body type kept; polylines are refused by name;
 * - `object` properties name the objects by the ids they received, in a
 *   new project (ids kept) and in one where the ids are taken (remapped);
 *   a reference to an object the map lacks is warned about and cleared;
 * - TMJ -> Tessera -> TMJ keeps every gid, every object's id, kind and
 *   geometry (to float precision) and every property, on Tiled's own
 *   examples and on a map of our own;
 * - image collections with images of different sizes are packed into an
 *   atlas, each image at the bottom-left of its cell with its collision
 *   moved along, and a tile object of one becomes a sprite of exactly its
 *   image; Tiled's own sticker-knight (62 images up to 384x332) imports. */
#include <zlib.h>
#include <math.h>
#include <sys/stat.h>

#include "check.h"
#include "tessera/formats.h"
#include "tessera/geom.h"
#include "tessera/image.h"
#include "formats_tiled.h"

static const char *dir_of(const char *name) {
  static char buf[1024];
  snprintf(buf, sizeof buf, "%s/%s", tess_test_tmpdir(), name);
  mkdir(buf, 0777);
  return buf;
}

static const char *write_text(const char *dir, const char *name, const char *text) {
  static char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return path;
}

static bool warned(const TessMapImport *imp, const char *a, const char *b) {
  for (uint32_t i = 0; i < imp->warning_count; i++)
    if (strstr(imp->warnings[i], a) && (!b || strstr(imp->warnings[i], b))) return true;
  return false;
}

static const TessObject *named(const TessLevel *level, const char *name) {
  for (uint32_t l = 0; l < level->layer_count; l++)
    for (uint32_t k = 0; k < level->layers[l]->object_count; k++)
      if (strcmp(level->layers[l]->objects[k].name, name) == 0) return &level->layers[l]->objects[k];
  return NULL;
}

static const char polygons_map[] =
    "{\"type\":\"map\",\"version\":\"1.8\",\"orientation\":\"orthogonal\",\"renderorder\":\"right-down\",\"width\":20,"
    "\"height\":20,\"tilewidth\":16,\"tileheight\":16,\"infinite\":false,\"nextlayerid\":2,\"nextobjectid\":20,\"tilesets\":[],"
    "\"layers\":[{\"type\":\"objectgroup\",\"id\":1,\"name\":\"Things\",\"opacity\":1,\"visible\":true,\"x\":0,\"y\":0,"
    "\"objects\":["
    "{\"id\":3,\"name\":\"L\",\"type\":\"\",\"x\":32,\"y\":48,\"width\":0,\"height\":0,\"rotation\":0,\"visible\":true,"
    "\"polygon\":[{\"x\":0,\"y\":0},{\"x\":64,\"y\":0},{\"x\":64,\"y\":32},{\"x\":32,\"y\":32},{\"x\":32,\"y\":96},{\"x\":0,\"y\":96}],"
    "\"properties\":[{\"name\":\"body_type\",\"type\":\"string\",\"value\":\"dynamic\"}]},"
    "{\"id\":4,\"name\":\"tri\",\"type\":\"\",\"x\":200,\"y\":100,\"width\":0,\"height\":0,\"rotation\":30,\"visible\":true,"
    "\"polygon\":[{\"x\":-10,\"y\":-5},{\"x\":50,\"y\":-5},{\"x\":-10,\"y\":35}]},"
    "{\"id\":5,\"name\":\"rope\",\"type\":\"\",\"x\":10,\"y\":10,\"width\":0,\"height\":0,\"rotation\":0,\"visible\":true,"
    "\"polyline\":[{\"x\":0,\"y\":0},{\"x\":50,\"y\":5}]},"
    "{\"id\":7,\"name\":\"door\",\"type\":\"\",\"x\":100,\"y\":20,\"width\":16,\"height\":32,\"rotation\":0,\"visible\":true,"
    "\"properties\":[{\"name\":\"opens\",\"type\":\"object\",\"value\":3},{\"name\":\"lost\",\"type\":\"object\",\"value\":99},"
    "{\"name\":\"count\",\"type\":\"int\",\"value\":3}]}"
    "]}]}";

static TessProject *import_into(TessProject *p, const char *path, const char *level, TessId *id, TessMapImport **imp_out) {
  TessError err;
  TessMapImport *imp = NULL;
  CHECK_OK(tess_map_read(path, NULL, &imp, &err), &err);
  if (!imp) return p;
  if (!p) p = tess_project_create();
  CHECK_OK(tess_map_import_apply(p, imp, level, id, &err), &err);
  if (imp_out) *imp_out = imp;
  else tess_map_import_destroy(imp);
  return p;
}

static void test_polygon_bodies(void) {
  const char *path = write_text(dir_of("poly"), "polygons.tmj", polygons_map);
  TessId id = 0;
  TessMapImport *imp = NULL;
  TessProject *p = import_into(NULL, path, NULL, &id, &imp);
  const TessLevel *level = tess_project_level(p, id);
  CHECK(level != NULL);
  if (!level || !imp) return;
  CHECK_MSG(warned(imp, "object 5", "polyline"), "the polyline is refused by name");
  const TessObject *l = named(level, "L"), *tri = named(level, "tri");
  CHECK(l && tri && !named(level, "rope"));
  if (l && tri) {
    CHECK(l->kind == TESS_OBJECT_BODY && l->u.body.shape == TESS_BODY_SPRITE && l->u.body.type == TESS_BODY_DYNAMIC);
    CHECK(tri->u.body.shape == TESS_BODY_SPRITE && tri->u.body.type == TESS_BODY_STATIC);
    const TessSprite *s = tess_project_sprite(p, l->u.body.sprite);
    CHECK(s && s->mask.mode == TESS_MASK_PIECES);
    if (s) {
      /* The L: 64x32 over 32x64; its pixels and its pieces both cover exactly 4096 px^2 around (24, 40). */
      CHECK_MSG(s->mask.piece_count >= 2, "a concave polygon is cut into %u pieces", s->mask.piece_count);
      double area = 0;
      for (uint32_t i = 0; i < s->mask.piece_count; i++) {
        const TessPolygon *pc = &s->mask.pieces[i];
        TessDVec2 v[TESS_POLY_MAX];
        for (uint32_t k = 0; k < pc->count; k++) v[k] = tess_d2(pc->v[k].x, pc->v[k].y);
        CHECK(tess_poly_is_convex(v, pc->count, 1e-6) && pc->count <= 8);
        area += fabs(tess_poly_signed_area(v, pc->count));
      }
      CHECK_NEAR(area, 4096.0, 1e-6);
      CHECK_NEAR(s->mask.area, 4096.0, 1e-9);
      CHECK_NEAR(s->mask.centroid_x - s->anchor.x, 24.0, 1e-9);
      CHECK_NEAR(s->mask.centroid_y - s->anchor.y, 40.0, 1e-9);
      CHECK(l->pos.x == 32.0f && l->pos.y == 48.0f && l->angle == 0.0f);
    }
    /* The triangle turns about Tiled's (x, y): its anchor; the right angle's corner (-10, -5) lands there turned. */
    const TessSprite *t = tess_project_sprite(p, tri->u.body.sprite);
    CHECK(t && t->mask.piece_count == 1 && tri->pos.x == 200.0f && tri->pos.y == 100.0f);
    CHECK_NEAR(tri->angle, 30.0 * 3.14159265358979323846 / 180.0, 1e-6);
    if (t) {
      CHECK_NEAR(t->mask.area, 0.5 * 60 * 40, 0.05 * 1200);
      /* The mask's centroid, relative to the anchor, is the triangle's: ((-10+50-10)/3, (-5-5+35)/3). */
      CHECK_NEAR(t->mask.centroid_x - t->anchor.x, 10.0, 0.5);
      CHECK_NEAR(t->mask.centroid_y - t->anchor.y, 25.0 / 3.0, 0.5);
    }
  }
  tess_map_import_destroy(imp);
  tess_project_destroy(p);
}

static const TessProperty *prop(const TessObject *o, const char *name) { return o ? tess_object_property(o, name) : NULL; }

static void test_object_references(void) {
  const char *path = write_text(dir_of("refs"), "refs.tmj", polygons_map);
  TessId first = 0, second = 0;
  TessMapImport *imp = NULL;
  TessProject *p = import_into(NULL, path, NULL, &first, &imp);
  if (imp) {
    CHECK_MSG(warned(imp, "'lost'", "99"), "the reference to a missing object is warned about");
    tess_map_import_destroy(imp);
  }
  /* A new project keeps the map's ids: the door opens object 3, the L. */
  const TessLevel *a = tess_project_level(p, first);
  const TessObject *door = a ? named(a, "door") : NULL, *l = a ? named(a, "L") : NULL;
  CHECK(door && l && l->id == 3 && door->id == 7);
  CHECK(prop(door, "opens") && prop(door, "opens")->v.i == 3);
  CHECK(prop(door, "lost") && prop(door, "lost")->v.i == 0);
  CHECK(prop(door, "count") && prop(door, "count")->v.i == 3); /* a plain int is no reference */
  /* Again into the same project: the ids are taken, so the objects get new ones and the reference follows. */
  p = import_into(p, path, "again", &second, NULL);
  const TessLevel *b = tess_project_level(p, second);
  const TessObject *door2 = b ? named(b, "door") : NULL, *l2 = b ? named(b, "L") : NULL;
  CHECK(door2 && l2 && l2->id != 3 && door2->id != 7);
  CHECK(l2 && prop(door2, "opens") && prop(door2, "opens")->v.i == l2->id);
  CHECK(prop(door2, "count") && prop(door2, "count")->v.i == 3);
  /* One undo step takes the second import away, the first stays as it was. */
  TessError err;
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(!tess_project_level(p, second) && tess_project_level(p, first));
  tess_project_destroy(p);
}

/* ---- TMJ -> Tessera -> TMJ ------------------------------------------------ */

static TiledMap *parse(const char *path, TessMapImport *sink) {
  TiledMap *m = tiled_map_new(path, sink);
  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  CHECK_OK(tess_file_read(path, TESS_MAP_MAX_FILE_BYTES, &data, &size, &err), &err);
  bool json = strstr(path, ".tmj") != NULL;
  if (m && data) CHECK_OK(json ? tiled_tmj_parse(m, data, size, NULL, &err) : tiled_tmx_parse(m, data, size, NULL, &err), &err);
  tess_free(data);
  return m;
}

static const TiledLayer *layer_named(const TiledMap *m, const char *name, uint8_t kind) {
  for (uint32_t i = 0; i < m->layer_count; i++)
    if (m->layers[i].kind == kind && strcmp(m->layers[i].name, name) == 0 && !tiled_tessera_is_material_layer(&m->layers[i]))
      return &m->layers[i];
  return NULL;
}

static const TiledObject *object_with_id(const TiledLayer *l, uint32_t id) {
  for (uint32_t i = 0; l && i < l->objects.count; i++)
    if (l->objects.items[i].id == id) return &l->objects.items[i];
  return NULL;
}

static bool same_number(double a, double b) { return fabs(a - b) <= 1e-6 * fmax(1.0, fabs(a)); }

/* The property survives: same name and type, the same value (floats to float precision). */
static void check_prop_kept(const TiledProp *o, const TiledObject *e, const char *where) {
  const TiledProp *found = NULL;
  for (uint32_t i = 0; i < e->props.count && !found; i++) {
    const TiledProp *q = &e->props.items[i];
    /* Tessera keeps a file as its path (a string) and an object reference as the object's id (an int). */
    const char *type = strcmp(o->type, "file") == 0 ? "string" : strcmp(o->type, "object") == 0 ? "int"
                                                                                                : o->type;
    if (strcmp(q->name, o->name) || strcmp(q->type, type)) continue;
    double x, y;
    if (strcmp(o->type, "float") == 0 && tiled_parse_double(o->value, &x) && tiled_parse_double(q->value, &y))
      found = same_number((float)x, y) ? q : NULL;
    else if (strcmp(o->type, "color") == 0) {
      uint32_t c1, c2;
      found = tiled_parse_color(o->value, &c1) && tiled_parse_color(q->value, &c2) && c1 == c2 ? q : NULL;
    } else found = strcmp(o->value, q->value) == 0 ? q : NULL;
  }
  CHECK_MSG(found != NULL, "%s: property '%s' (%s) = '%s' is not in the exported map", where, o->name, o->type, o->value);
}

static void check_object_kept(const TiledObject *o, const TiledObject *e, const char *where) {
  CHECK_MSG(e != NULL, "%s: object %u is not in the exported map", where, o->id);
  if (!e) return;
  bool rect_like = o->shape == TILED_RECT && !o->gid;
  CHECK_MSG(e->shape == o->shape && !!e->gid == !!o->gid, "%s: object %u changed its kind (%u -> %u)", where, o->id, o->shape,
            e->shape);
  CHECK_MSG(same_number(e->x, o->x) && same_number(e->y, o->y) && same_number(e->rotation, o->rotation),
            "%s: object %u moved: (%g, %g, %g deg) -> (%g, %g, %g deg)", where, o->id, o->x, o->y, o->rotation, e->x, e->y,
            e->rotation);
  if (rect_like || o->shape == TILED_ELLIPSE || o->gid)
    CHECK_MSG(same_number(e->w, o->w) && same_number(e->h, o->h), "%s: object %u resized", where, o->id);
  if (o->cls && o->cls[0] && !(e->cls && strcmp(e->cls, o->cls) == 0)) {
    TiledProp cls = {"class", "string", o->cls};
    check_prop_kept(&cls, e, where);
  }
  if (o->name) CHECK(e->name && strcmp(e->name, o->name) == 0);
  for (uint32_t i = 0; i < o->props.count; i++) check_prop_kept(&o->props.items[i], e, where);
}

static void tiled_round_trip(const char *source, const char *tag) {
  TessId id = 0;
  TessProject *p = import_into(NULL, source, NULL, &id, NULL);
  const TessLevel *level = tess_project_level(p, id);
  CHECK(level != NULL);
  char out[1200];
  snprintf(out, sizeof out, "%s/%s.tmj", dir_of("tiled-again"), tag);
  TessError err;
  if (level) CHECK_OK(tess_tiled_write_level(p, level, TESS_TILED_TMJ, out, &err), &err);
  TessMapImport *sink_a = tess_calloc(1, sizeof *sink_a), *sink_b = tess_calloc(1, sizeof *sink_b);
  TiledMap *a = parse(source, sink_a), *b = parse(out, sink_b);
  uint32_t cells = 0, objects = 0;
  for (uint32_t i = 0; a && b && i < a->layer_count; i++) {
    const TiledLayer *la = &a->layers[i];
    if (la->kind == TILED_IMAGE) continue;
    const TiledLayer *lb = layer_named(b, la->name, la->kind);
    CHECK_MSG(lb != NULL, "%s: layer '%s' is not in the exported map", tag, la->name);
    if (!lb) continue;
    /* Maps from before Tiled 1.2 have no layer ids: those get new ones. */
    CHECK_MSG(!la->id || lb->id == la->id, "%s: layer '%s' id %u -> %u", tag, la->name, la->id, lb->id);
    if (la->kind == TILED_TILES && la->gids && lb->gids && la->width == lb->width && la->height == lb->height) {
      size_t n = (size_t)la->width * la->height, differ = 0;
      for (size_t k = 0; k < n; k++) differ += la->gids[k] != lb->gids[k];
      cells += (uint32_t)n;
      CHECK_MSG(differ == 0, "%s: layer '%s': %zu of %zu gids differ", tag, la->name, differ, n);
    }
    for (uint32_t k = 0; k < la->objects.count; k++) {
      const TiledObject *o = &la->objects.items[k];
      if (o->shape == TILED_TEXT || o->shape == TILED_POLYLINE || o->shape == TILED_POLYGON) continue; /* refused or a sprite body */
      if (o->shape == TILED_ELLIPSE && o->w != o->h) continue;                                         /* a capsule, a rectangle in Tiled */
      char where[300];
      snprintf(where, sizeof where, "%s layer '%s'", tag, la->name);
      check_object_kept(o, object_with_id(lb, o->id), where);
      objects++;
    }
  }
  fprintf(stderr, "%s: %u cells, %u objects compared\n", tag, cells, objects);
  CHECK(cells > 0);
  tiled_map_free(a);
  tiled_map_free(b);
  tess_map_import_destroy(sink_a);
  tess_map_import_destroy(sink_b);
  tess_project_destroy(p);
}

static const char own_map[] =
    "{\"type\":\"map\",\"version\":\"1.8\",\"orientation\":\"orthogonal\",\"renderorder\":\"right-down\",\"width\":4,"
    "\"height\":3,\"tilewidth\":16,\"tileheight\":16,\"infinite\":false,\"nextlayerid\":9,\"nextobjectid\":40,"
    "\"tilesets\":[{\"firstgid\":1,\"source\":\"a.tsj\"},{\"firstgid\":5,\"source\":\"b.tsj\"}],"
    "\"layers\":[{\"type\":\"tilelayer\",\"id\":4,\"name\":\"ground\",\"width\":4,\"height\":3,\"opacity\":1,\"visible\":true,"
    "\"x\":0,\"y\":0,\"data\":[1,2,3,4,5,6,7,8,2147483649,1073741826,536870915,3221225476]},"
    "{\"type\":\"objectgroup\",\"id\":7,\"name\":\"objects\",\"opacity\":1,\"visible\":true,\"x\":0,\"y\":0,\"objects\":["
    "{\"id\":11,\"name\":\"crate\",\"type\":\"prop\",\"x\":3.25,\"y\":4.5,\"width\":16,\"height\":8,\"rotation\":12.5,"
    "\"visible\":true,\"properties\":[{\"name\":\"hp\",\"type\":\"int\",\"value\":12},{\"name\":\"weight\",\"type\":\"float\","
    "\"value\":1.25},{\"name\":\"tint\",\"type\":\"color\",\"value\":\"#ff102030\"},{\"name\":\"loot\",\"type\":\"file\","
    "\"value\":\"../loot.json\"},{\"name\":\"open\",\"type\":\"bool\",\"value\":true},{\"name\":\"next\",\"type\":\"object\","
    "\"value\":12},{\"name\":\"label\",\"type\":\"string\",\"value\":\"caf\\u00e9 <&>\"}]},"
    "{\"id\":12,\"name\":\"ball\",\"type\":\"\",\"x\":40,\"y\":8,\"width\":10,\"height\":10,\"rotation\":0,\"ellipse\":true,"
    "\"visible\":true},"
    "{\"id\":13,\"name\":\"start\",\"type\":\"\",\"x\":5,\"y\":6,\"width\":0,\"height\":0,\"rotation\":0,\"point\":true,"
    "\"visible\":true},"
    "{\"id\":14,\"name\":\"push\",\"type\":\"zone\",\"x\":0,\"y\":32,\"width\":64,\"height\":16,\"rotation\":0,"
    "\"visible\":true,\"properties\":[{\"name\":\"force_x\",\"type\":\"float\",\"value\":3}]},"
    "{\"id\":15,\"name\":\"tile\",\"type\":\"\",\"gid\":6,\"x\":20,\"y\":40,\"width\":16,\"height\":16,\"rotation\":0,"
    "\"visible\":true}"
    "]}]}";

static void test_tiled_round_trip_own(void) {
  const char *dir = dir_of("own");
  char png[1200];
  extern void maps_write_tileset_png(const char *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                                     int32_t);
  snprintf(png, sizeof png, "%s/a.png", dir);
  maps_write_tileset_png(png, 2, 2, 16, 16, 0, 0, 1, -1);
  snprintf(png, sizeof png, "%s/b.png", dir);
  maps_write_tileset_png(png, 2, 2, 16, 16, 0, 0, 2, -1);
  static const char ts[] =
      "{\"type\":\"tileset\",\"name\":\"%s\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":4,"
      "\"columns\":2,\"margin\":0,\"spacing\":0,\"image\":\"%s.png\",\"imagewidth\":32,\"imageheight\":32}";
  char text[600];
  snprintf(text, sizeof text, ts, "a", "a");
  write_text(dir, "a.tsj", text);
  snprintf(text, sizeof text, ts, "b", "b");
  write_text(dir, "b.tsj", text);
  tiled_round_trip(write_text(dir, "own.tmj", own_map), "own");
}

static void test_tiled_round_trip_examples(void) {
  static const char *const maps[] = {"desert.tmx", "sewers.tmx", "rpg/island.tmx", "perspective_walls.tmx"};
  uint32_t done = 0;
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "/usr/share/doc/tiled/examples/%s", maps[i]);
    struct stat st;
    if (stat(path, &st) != 0) continue;
    tiled_round_trip(path, strrchr(path, '/') + 1);
    done++;
  }
  if (!done) fprintf(stderr, "SKIP: Tiled's examples are not installed (the tiled package)\n");
}

static bool same_pixels(const TessImage *a, uint32_t ax, uint32_t ay, const TessImage *b) {
  for (uint32_t y = 0; y < b->height; y++)
    if (memcmp(a->pixels + (size_t)(ay + y) * a->stride + 4 * (size_t)ax, b->pixels + (size_t)y * b->stride, 4 * (size_t)b->width))
      return false;
  return true;
}

static void test_image_collection_sizes(void) {
  extern void maps_write_tileset_png(const char *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                                     int32_t);
  const char *dir = dir_of("collection");
  static const uint32_t size[3][2] = {{16, 16}, {32, 48}, {24, 8}};
  char png[1200];
  for (int i = 0; i < 3; i++) {
    snprintf(png, sizeof png, "%s/img%d.png", dir, i);
    maps_write_tileset_png(png, 1, 1, size[i][0], size[i][1], 0, 0, 40 + (uint32_t)i, -1);
  }
  /* Ids 0, 3, 9; tile 3 (32x48) has a collision rectangle in its own pixels and is placed as a tile object. */
  const char *path = write_text(dir, "mixed.tmx",
                                "<map orientation=\"orthogonal\" width=\"3\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">\n"
                                "<tileset firstgid=\"1\" name=\"things\" tilewidth=\"32\" tileheight=\"48\" tilecount=\"3\" columns=\"0\">\n"
                                " <tile id=\"0\"><image source=\"img0.png\" width=\"16\" height=\"16\"/></tile>\n"
                                " <tile id=\"3\"><image source=\"img1.png\" width=\"32\" height=\"48\"/>\n"
                                "  <objectgroup><object id=\"1\" x=\"4\" y=\"10\" width=\"20\" height=\"30\"/></objectgroup></tile>\n"
                                " <tile id=\"9\"><image source=\"img2.png\" width=\"24\" height=\"8\"/></tile>\n"
                                "</tileset>\n"
                                "<layer name=\"l\" width=\"3\" height=\"2\"><data encoding=\"csv\">1,4,10,0,0,0</data></layer>\n"
                                "<objectgroup name=\"o\"><object id=\"2\" name=\"statue\" gid=\"4\" x=\"100\" y=\"200\" width=\"32\" height=\"48\"/>"
                                "</objectgroup>\n</map>");
  TessMapImport *imp = NULL;
  TessError err;
  CHECK_OK(tess_map_read(path, NULL, &imp, &err), &err);
  if (!imp) return;
  /* Three cells of 32x48 in a 2x2 atlas. */
  const TessImportTileset *ts = &imp->tilesets[0];
  CHECK(ts->tile_w == 32 && ts->tile_h == 48 && ts->image_w == 64 && ts->image_h == 96 && ts->tile_count == 4);
  CHECK(warned(imp, "different sizes", NULL));
  CHECK(imp->layers[0].cells[0] == TESS_CELL_MAKE(1, 0, 0) && imp->layers[0].cells[1] == TESS_CELL_MAKE(1, 1, 0) &&
        imp->layers[0].cells[2] == TESS_CELL_MAKE(1, 2, 0));
  TessImage atlas, img[3];
  CHECK_OK(tess_png_decode(ts->png, ts->png_size, "atlas", &atlas, &err), &err);
  for (int i = 0; i < 3; i++) {
    snprintf(png, sizeof png, "%s/img%d.png", dir, i);
    CHECK_OK(tess_png_load(png, &img[i], &err), &err);
  }
  /* Each image at the bottom-left of its cell; the rest of the cell transparent. */
  CHECK(same_pixels(&atlas, 0, 48 - 16, &img[0]) && same_pixels(&atlas, 32, 0, &img[1]) && same_pixels(&atlas, 0, 48 + 40, &img[2]));
  CHECK(atlas.pixels[(size_t)0 * atlas.stride + 3] == 0 && atlas.pixels[(size_t)(48 + 39) * atlas.stride + 3] == 0);
  /* The 32x48 tile's rectangle (4, 10)-(24, 40) in its own pixels: its cell is its size, so it stays. */
  const TessTileInfo *t1 = &ts->tiles[1];
  CHECK(t1->collision == TESS_TILE_COLLISION_TRACED && t1->piece_count == 1);
  if (t1->piece_count) CHECK(t1->pieces[0].v[0].x == 4.0f && t1->pieces[0].v[0].y == 10.0f);
  /* The tile object: a sprite of exactly img1 (32x48), centred where Tiled draws it (bottom-left at (100, 200)). */
  CHECK(imp->sprite_count == 1 && imp->layers[1].object_count == 1);
  if (imp->sprite_count == 1 && imp->layers[1].object_count == 1) {
    const TessSprite *sp = &imp->sprites[0];
    TessImage s;
    CHECK(sp->image_w == 32 && sp->image_h == 48);
    CHECK_OK(tess_png_decode(sp->png, sp->png_size, "sprite", &s, &err), &err);
    CHECK(s.width == 32 && s.height == 48 && same_pixels(&s, 0, 0, &img[1]));
    tess_image_clear(&s);
    const TessObject *o = &imp->layers[1].objects[0];
    CHECK(o->pos.x == 116.0f && o->pos.y == 176.0f);
  }
  tess_image_clear(&atlas);
  for (int i = 0; i < 3; i++) tess_image_clear(&img[i]);
  tess_map_import_destroy(imp);
  /* A smaller image's collision moves with it: img2 (24x8) sits 40 px down its 48 px cell. */
  path = write_text(dir, "mixed2.tmx",
                    "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"16\" tileheight=\"16\">\n"
                    "<tileset firstgid=\"1\" name=\"things\" tilewidth=\"32\" tileheight=\"48\" tilecount=\"2\" columns=\"0\">\n"
                    " <tile id=\"0\"><image source=\"img1.png\" width=\"32\" height=\"48\"/></tile>\n"
                    " <tile id=\"1\"><image source=\"img2.png\" width=\"24\" height=\"8\"/>\n"
                    "  <objectgroup><object id=\"1\" x=\"2\" y=\"1\" width=\"20\" height=\"6\"/></objectgroup></tile>\n"
                    "</tileset>\n<layer name=\"l\" width=\"1\" height=\"1\"><data encoding=\"csv\">2</data></layer>\n</map>");
  imp = NULL;
  CHECK_OK(tess_map_read(path, NULL, &imp, &err), &err);
  if (imp && imp->tilesets[0].tile_count >= 2 && imp->tilesets[0].tiles[1].piece_count == 1) {
    const TessPolygon *pc = &imp->tilesets[0].tiles[1].pieces[0];
    CHECK(pc->v[0].x == 2.0f && pc->v[0].y == 41.0f && pc->v[2].y == 47.0f);
  } else CHECK(!"tile 1 has one collision piece");
  tess_map_import_destroy(imp);
}

/* Tiled's sticker-knight: a collection of 62 images of many sizes, used by tile objects. */
static void gunzip(const char *from, const char *to) {
  gzFile in = gzopen(from, "rb");
  FILE *out = fopen(to, "wb");
  CHECK(in && out);
  char buf[65536];
  int n;
  while (in && out && (n = gzread(in, buf, sizeof buf)) > 0) fwrite(buf, 1, (size_t)n, out);
  if (in) gzclose(in);
  if (out) fclose(out);
}

static void test_sticker_knight(void) {
  const char *src = "/usr/share/doc/tiled/examples/sticker-knight/map";
  struct stat st;
  char a[1200], b[1200];
  snprintf(a, sizeof a, "%s/objs.tsx.gz", src);
  if (stat(a, &st) != 0) {
    fprintf(stderr, "SKIP: Tiled's examples are not installed (the tiled package)\n");
    return;
  }
  /* The images stay where they are: the uncompressed tileset sits beside them under another name. */
  const char *dir = dir_of("knight");
  snprintf(b, sizeof b, "%s/objs.tsx", dir);
  gunzip(a, b);
  /* Point the tileset's images at the examples' folder. */
  char *data = NULL;
  size_t size = 0;
  TessError err;
  CHECK_OK(tess_file_read(b, (size_t)1 << 20, (uint8_t **)&data, &size, &err), &err);
  if (!data) return;
  size_t cap = size * 2 + 8192, len = 0;
  char *fixed = tess_alloc(cap);
  for (const char *p = data; p < data + size && len + 600 < cap;) {
    const char *hit = strstr(p, "source=\"");
    if (!hit || hit >= data + size) {
      memcpy(fixed + len, p, (size_t)(data + size - p));
      len += (size_t)(data + size - p);
      break;
    }
    size_t head = (size_t)(hit - p) + 8;
    memcpy(fixed + len, p, head);
    len += head;
    len += (size_t)snprintf(fixed + len, cap - len, "%s/", src);
    p = hit + 8;
  }
  fixed[len] = 0;
  write_text(dir, "objs.tsx", fixed);
  tess_free(fixed);
  tess_free(data);
  snprintf(a, sizeof a, "%s/sandbox.tmx.gz", src);
  snprintf(b, sizeof b, "%s/sandbox.tmx", dir);
  gunzip(a, b);
  TessMapImport *imp = NULL;
  CHECK_OK(tess_map_read(b, NULL, &imp, &err), &err);
  if (!imp) return;
  uint32_t objects = 0, matched = 0;
  for (uint32_t l = 0; l < imp->layer_count; l++)
    for (uint32_t k = 0; k < imp->layers[l].object_count; k++) {
      const TessObject *o = &imp->layers[l].objects[k];
      if (o->kind != TESS_OBJECT_BODY || o->u.body.shape != TESS_BODY_SPRITE) continue;
      objects++;
      const TessSprite *sp = &imp->sprites[o->u.body.sprite - 1];
      /* Each sprite is one image of the collection at its own size (none is 384x332 unless that image is). */
      matched += sp->image_w <= 384 && sp->image_h <= 332 && sp->png_size > 0;
    }
  fprintf(stderr, "sticker-knight: %u tile objects as sprite bodies, %u sprites, atlas %ux%u\n", objects, imp->sprite_count,
          imp->tileset_count ? imp->tilesets[0].image_w : 0, imp->tileset_count ? imp->tilesets[0].image_h : 0);
  CHECK(objects > 50 && matched == objects && imp->sprite_count > 10);
  tess_map_import_destroy(imp);
}

TESS_TEST_MAIN(TEST(test_polygon_bodies), TEST(test_image_collection_sizes), TEST(test_sticker_knight), TEST(test_object_references), TEST(test_tiled_round_trip_own),
               TEST(test_tiled_round_trip_examples))
