/* core/formats, Tiled reader: objects of every kind, typed properties,
 * group layers, infinite maps, the `trans` colour, and bad input (each a
 * clear error naming the file, or a warning, never a crash). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "maps.h"
#include "tessera/formats.h"
#include "tessera/image.h"

#define PI_F 3.14159265f

/* An 8x8-tile map of w x h with tileset "a" (4x2 tiles, gids 1..8) and the given layers. */
static const char *write_tmx(char *path, size_t size, const char *name, uint32_t w, uint32_t h, const char *attrs,
                             const char *body) {
  const char *dir = tess_test_tmpdir();
  char png[600];
  snprintf(png, sizeof png, "%s/a.png", dir);
  maps_write_tileset_png(png, 4, 2, 8, 8, 0, 0, 1, -1);
  char *map = maps_printf(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<map version=\"1.8\" orientation=\"orthogonal\" width=\"%u\" height=\"%u\" tilewidth=\"8\" "
      "tileheight=\"8\" %s>\n"
      " <tileset firstgid=\"1\" name=\"a\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"8\" columns=\"4\">\n"
      "  <image source=\"a.png\" width=\"32\" height=\"16\"/>\n"
      " </tileset>\n%s\n</map>\n",
      w, h, attrs, body);
  maps_write_file(path, size, dir, name, map);
  free(map);
  return path;
}

static TessMapImport *read_ok(const char *path) {
  TessError err;
  TessMapImport *imp = NULL;
  CHECK_OK(tess_map_read(path, NULL, &imp, &err), &err);
  return imp;
}

static bool has_warning(const TessMapImport *imp, const char *needle) {
  for (uint32_t i = 0; i < imp->warning_count; i++)
    if (strstr(imp->warnings[i], needle)) return true;
  return false;
}

static const TessObject *find_object(const TessLevel *lv, const char *name) {
  for (uint32_t i = 0; i < lv->layer_count; i++)
    for (uint32_t k = 0; k < lv->layers[i]->object_count; k++)
      if (strcmp(lv->layers[i]->objects[k].name, name) == 0) return &lv->layers[i]->objects[k];
  return NULL;
}

static void test_objects_every_kind(void) {
  char path[600];
  write_tmx(path, sizeof path, "objects.tmx", 6, 4, "",
            "<objectgroup id=\"2\" name=\"things\" offsetx=\"4\">\n"
            " <object id=\"1\" name=\"wall\" x=\"8\" y=\"8\" width=\"16\" height=\"8\">\n"
            "  <properties>\n"
            "   <property name=\"s\" value=\"text\"/><property name=\"i\" type=\"int\" value=\"42\"/>\n"
            "   <property name=\"f\" type=\"float\" value=\"1.5\"/><property name=\"b\" type=\"bool\" value=\"true\"/>\n"
            "   <property name=\"c\" type=\"color\" value=\"#80ff0000\"/><property name=\"file\" type=\"file\" value=\"x.png\"/>\n"
            "   <property name=\"target\" type=\"object\" value=\"2\"/>\n"
            "   <property name=\"stats\" type=\"class\" propertytype=\"Stats\"><properties><property name=\"hp\" type=\"int\" value=\"7\"/></properties></property>\n"
            "   <property name=\"multi\">line one\nline two</property>\n"
            "  </properties>\n"
            " </object>\n"
            " <object id=\"2\" name=\"ball\" x=\"0\" y=\"0\" width=\"10\" height=\"10\"><ellipse/>\n"
            "  <properties><property name=\"body_type\" value=\"dynamic\"/><property name=\"material\" value=\"rubber\"/>\n"
            "   <property name=\"restitution\" type=\"float\" value=\"0.9\"/><property name=\"density\" type=\"float\" value=\"2\"/></properties>\n"
            " </object>\n"
            " <object id=\"3\" name=\"egg\" x=\"0\" y=\"0\" width=\"20\" height=\"10\"><ellipse/></object>\n"
            " <object id=\"4\" name=\"start\" x=\"12\" y=\"6\"><point/></object>\n"
            " <object id=\"5\" name=\"wind\" type=\"zone\" x=\"0\" y=\"0\" width=\"8\" height=\"8\">\n"
            "  <properties><property name=\"force_y\" type=\"float\" value=\"-5\"/></properties></object>\n"
            " <object id=\"6\" name=\"tri\" x=\"0\" y=\"0\"><polygon points=\"0,0 8,0 0,8\"/></object>\n"
            " <object id=\"7\" name=\"line\" x=\"0\" y=\"0\"><polyline points=\"0,0 8,8\"/></object>\n"
            " <object id=\"8\" name=\"label\" x=\"0\" y=\"0\" width=\"40\" height=\"10\"><text>hi</text></object>\n"
            " <object id=\"9\" name=\"crate\" gid=\"2\" x=\"16\" y=\"24\" width=\"8\" height=\"8\"/>\n"
            " <object id=\"10\" name=\"turned\" x=\"8\" y=\"8\" width=\"8\" height=\"8\" rotation=\"90\"/>\n"
            "</objectgroup>");
  TessMapImport *imp = read_ok(path);
  if (!imp) return;
  CHECK(has_warning(imp, "object 7 'line': polylines"));
  CHECK(has_warning(imp, "object 8 'label': text"));
  CHECK(has_warning(imp, "ellipse became a capsule"));
  TessProject *p = tess_project_create();
  TessError err;
  TessId level = 0;
  CHECK_OK(tess_map_import_apply(p, imp, NULL, &level, &err), &err);
  tess_map_import_destroy(imp);
  const TessLevel *lv = tess_project_level(p, level);
  if (!lv) {
    tess_project_destroy(p);
    return;
  }
  const TessObject *o = find_object(lv, "wall");
  CHECK(o && o->kind == TESS_OBJECT_BODY && o->u.body.shape == TESS_BODY_BOX && o->u.body.type == TESS_BODY_STATIC);
  if (o) {
    CHECK_NEAR(o->pos.x, 8 + 8 + 4, 1e-4);
    CHECK_NEAR(o->pos.y, 12, 1e-4);
    CHECK_NEAR(o->u.body.width, 16, 1e-6);
    const TessProperty *pr;
    CHECK((pr = tess_object_property(o, "s")) && pr->type == TESS_PROP_STRING && strcmp(pr->v.s, "text") == 0);
    CHECK((pr = tess_object_property(o, "i")) && pr->type == TESS_PROP_INT && pr->v.i == 42);
    CHECK((pr = tess_object_property(o, "f")) && pr->type == TESS_PROP_FLOAT && pr->v.f == 1.5);
    CHECK((pr = tess_object_property(o, "b")) && pr->type == TESS_PROP_BOOL && pr->v.b);
    CHECK((pr = tess_object_property(o, "c")) && pr->type == TESS_PROP_COLOR && pr->v.color == 0xFF000080u);
    CHECK((pr = tess_object_property(o, "file")) && pr->type == TESS_PROP_STRING && strcmp(pr->v.s, "x.png") == 0);
    CHECK((pr = tess_object_property(o, "target")) && pr->type == TESS_PROP_INT && pr->v.i == 2);
    CHECK((pr = tess_object_property(o, "stats.hp")) && pr->type == TESS_PROP_INT && pr->v.i == 7);
    CHECK((pr = tess_object_property(o, "multi")) && pr->type == TESS_PROP_STRING && strcmp(pr->v.s, "line one\nline two") == 0);
  }
  o = find_object(lv, "ball");
  const TessMaterial *rubber = tess_project_material_by_name(p, "rubber");
  CHECK(rubber && fabsf(rubber->restitution - 0.9f) < 1e-6f && fabsf(rubber->density - 2) < 1e-6f);
  CHECK(o && o->u.body.shape == TESS_BODY_CIRCLE && o->u.body.type == TESS_BODY_DYNAMIC && rubber &&
        o->u.body.material == rubber->id);
  if (o) CHECK(fabsf(o->u.body.radius - 5) < 1e-6f && fabsf(o->pos.x - 9) < 1e-4f && fabsf(o->pos.y - 5) < 1e-4f);
  o = find_object(lv, "egg");
  CHECK(o && o->u.body.shape == TESS_BODY_CAPSULE && o->u.body.width == 20 && o->u.body.height == 10);
  o = find_object(lv, "start");
  CHECK(o && o->kind == TESS_OBJECT_SPAWN && o->pos.x == 16 && o->pos.y == 6);
  o = find_object(lv, "wind");
  CHECK(o && o->kind == TESS_OBJECT_ZONE && o->u.zone.width == 8 && o->u.zone.vector.y == -5);
  CHECK(!find_object(lv, "line") && !find_object(lv, "label"));
  /* The polygon is a sprite body of its own shape, at Tiled's origin plus the layer's offset (tiled_polygons.c). */
  o = find_object(lv, "tri");
  CHECK(o && o->u.body.shape == TESS_BODY_SPRITE && o->pos.x == 4 && o->pos.y == 0);
  o = find_object(lv, "crate");
  CHECK(o && o->u.body.shape == TESS_BODY_SPRITE && p->sprite_count == 2);
  const TessSprite *crate = o ? tess_project_sprite(p, o->u.body.sprite) : NULL;
  if (crate) {
    CHECK_NEAR(o->pos.x, 16 + 4 + 4, 1e-4);
    CHECK_NEAR(o->pos.y, 24 - 4, 1e-4);
    CHECK(crate->image_w == 8 && crate->mask.piece_count >= 1);
  }
  o = find_object(lv, "turned");
  CHECK(o != NULL);
  if (o) {
    /* Tiled turns about the top-left corner (8+4, 8): the centre lands at (8, 12). */
    CHECK_NEAR(o->pos.x, 8, 1e-4);
    CHECK_NEAR(o->pos.y, 12, 1e-4);
    CHECK_NEAR(o->angle, PI_F / 2, 1e-5);
  }
  tess_project_destroy(p);
}

static void test_groups_flattened(void) {
  char path[600];
  const char *csv = "1,2,0,0,0,0,0,0,0,0,0,0";
  char *body = maps_printf(
      "<group id=\"9\" name=\"outer\" opacity=\"0.5\">\n"
      " <group id=\"8\" name=\"inner\" visible=\"0\">\n"
      "  <layer id=\"1\" name=\"deep\" width=\"4\" height=\"3\" opacity=\"0.5\"><data encoding=\"csv\">%s</data></layer>\n"
      " </group>\n"
      " <layer id=\"2\" name=\"mid\" width=\"4\" height=\"3\" locked=\"1\"><data encoding=\"csv\">%s</data></layer>\n"
      "</group>\n"
      "<layer id=\"3\" name=\"top\" width=\"4\" height=\"3\"><data encoding=\"csv\">%s</data></layer>",
      csv, csv, csv);
  write_tmx(path, sizeof path, "groups.tmx", 4, 3, "", body);
  free(body);
  TessMapImport *imp = read_ok(path);
  if (!imp) return;
  CHECK(imp->layer_count == 3);
  if (imp->layer_count == 3) {
    CHECK(strcmp(imp->layers[0].props.name, "outer/inner/deep") == 0);
    CHECK_NEAR(imp->layers[0].props.opacity, 0.25, 1e-6);
    CHECK(!imp->layers[0].props.visible);
    CHECK(strcmp(imp->layers[1].props.name, "outer/mid") == 0 && imp->layers[1].props.locked && imp->layers[1].props.visible);
    CHECK(strcmp(imp->layers[2].props.name, "top") == 0 && imp->layers[2].props.opacity == 1);
  }
  /* A locked layer still receives its cells: the lock is set after they are in. */
  TessProject *p = tess_project_create();
  TessError err;
  TessId level = 0;
  CHECK_OK(tess_map_import_apply(p, imp, NULL, &level, &err), &err);
  const TessLevel *lv = tess_project_level(p, level);
  for (uint32_t i = 0; lv && i < lv->layer_count; i++)
    if (strcmp(lv->layers[i]->props.name, "outer/mid") == 0)
      CHECK(lv->layers[i]->props.locked && TESS_CELL_TILE(tess_layer_cell(lv->layers[i], 1, 0)) == 1);
  tess_project_destroy(p);
  tess_map_import_destroy(imp);
}

/* An infinite map: chunks at (-16,-16) and (16,0) become a 48x32 level from (-16,-16); objects move with it. */
static void test_infinite_map(void) {
  uint32_t a[256], b[256];
  memset(a, 0, sizeof a);
  memset(b, 0, sizeof b);
  a[0] = 1;                      /* map cell (-16, -16) */
  b[15 * 16 + 15] = 0x80000003u; /* map cell (31, 15), flipped */
  for (int t = 0; t < 2; t++) {
    bool json = t == 1;
    char path[600];
    char *ea = maps_encode(a, 256, "base64", "zlib"), *eb = maps_encode(b, 256, "csv", "");
    if (!json) {
      char *body = maps_printf(
          "<layer id=\"1\" name=\"inf\" width=\"48\" height=\"32\">\n<data encoding=\"base64\" compression=\"zlib\">\n"
          "<chunk x=\"-16\" y=\"-16\" width=\"16\" height=\"16\">%s</chunk>\n</data></layer>\n"
          "<layer id=\"2\" name=\"inf2\" width=\"48\" height=\"32\">\n<data encoding=\"csv\">\n"
          "<chunk x=\"16\" y=\"0\" width=\"16\" height=\"16\">%s</chunk>\n</data></layer>\n"
          "<objectgroup id=\"3\" name=\"o\"><object id=\"1\" name=\"here\" x=\"0\" y=\"0\"><point/></object></objectgroup>",
          ea, eb);
      write_tmx(path, sizeof path, "inf.tmx", 0, 0, "infinite=\"1\"", body);
      free(body);
    } else {
      const char *dir = tess_test_tmpdir();
      char *map = maps_printf(
          "{\"orientation\":\"orthogonal\",\"infinite\":true,\"width\":48,\"height\":32,\"tilewidth\":8,\"tileheight\":8,"
          "\"tilesets\":[{\"firstgid\":1,\"name\":\"a\",\"tilewidth\":8,\"tileheight\":8,\"image\":\"a.png\"}],"
          "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"inf\",\"encoding\":\"base64\",\"compression\":\"zlib\","
          "\"chunks\":[{\"x\":-16,\"y\":-16,\"width\":16,\"height\":16,\"data\":\"%s\"}]},"
          "{\"type\":\"tilelayer\",\"name\":\"inf2\",\"chunks\":[{\"x\":16,\"y\":0,\"width\":16,\"height\":16,\"data\":[%s]}]},"
          "{\"type\":\"objectgroup\",\"name\":\"o\",\"objects\":[{\"id\":1,\"name\":\"here\",\"x\":0,\"y\":0,\"point\":true}]}]}",
          ea, eb);
      maps_write_file(path, sizeof path, dir, "inf.tmj", map);
      free(map);
    }
    free(ea);
    free(eb);
    TessMapImport *imp = read_ok(path);
    if (!imp) continue;
    CHECK_MSG(imp->settings.width == 48 && imp->settings.height == 32, "%s: %ux%u", path, imp->settings.width, imp->settings.height);
    CHECK(imp->origin_x == -16 && imp->origin_y == -16);
    if (imp->layer_count == 3 && imp->settings.width == 48) {
      CHECK(imp->layers[0].cells[0] == TESS_CELL_MAKE(1, 0, 0));
      CHECK(imp->layers[1].cells[(15 + 16) * 48 + 31 + 16] == TESS_CELL_MAKE(1, 2, TESS_CELL_FLIP_H));
      CHECK(imp->layers[2].object_count == 1 && imp->layers[2].objects[0].pos.x == 128 && imp->layers[2].objects[0].pos.y == 128);
    }
    tess_map_import_destroy(imp);
  }
}

/* `trans` keys the colour out of the tileset image (alpha 0), leaving everything else opaque. */
static void test_trans_colour(void) {
  const char *dir = tess_test_tmpdir();
  char png[600], path[600];
  snprintf(png, sizeof png, "%s/keyed.png", dir);
  maps_write_tileset_png(png, 2, 1, 8, 8, 0, 0, 5, 0xFF00FF);
  char *map = maps_printf(
      "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n"
      "<tileset firstgid=\"1\" name=\"k\" tilewidth=\"8\" tileheight=\"8\"><image source=\"keyed.png\" trans=\"ff00ff\"/></tileset>\n"
      "<layer name=\"l\" width=\"2\" height=\"1\"><data encoding=\"csv\">1,2</data></layer></map>");
  maps_write_file(path, sizeof path, dir, "keyed.tmx", map);
  free(map);
  TessMapImport *imp = read_ok(path);
  if (!imp) return;
  TessImage img;
  TessError err;
  CHECK_OK(tess_png_decode(imp->tilesets[0].png, imp->tilesets[0].png_size, "keyed", &img, &err), &err);
  uint32_t transparent = 0;
  for (uint32_t y = 0; y < img.height; y++)
    for (uint32_t x = 0; x < img.width; x++) transparent += img.pixels[y * img.stride + 4 * x + 3] == 0;
  CHECK(img.pixels[7 * 4 + 3] == 0 && img.pixels[15 * 4 + 3] == 0); /* each tile's keyed corner */
  CHECK(transparent == 2);
  tess_image_clear(&img);
  tess_map_import_destroy(imp);
}

static void expect_error(const char *path, TessResult code, const char *needle1, const char *needle2);

/* An image collection (sparse ids 0, 5, 7) packed into a 2x2 atlas in id order; cells and tile objects follow. */
static void test_image_collection_atlas(void) {
  const char *dir = tess_test_tmpdir();
  char png[700], path[700];
  for (int i = 0; i < 3; i++) {
    snprintf(png, sizeof png, "%s/c%d.png", dir, i);
    maps_write_tileset_png(png, 1, 1, 8, 8, 0, 0, 20 + (uint32_t)i, -1);
  }
  maps_write_file(path, sizeof path, dir, "coll.tmx",
                  "<map orientation=\"orthogonal\" width=\"3\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n"
                  "<tileset firstgid=\"1\" name=\"coll\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"3\" columns=\"0\">\n"
                  " <tile id=\"7\"><image source=\"c2.png\" width=\"8\" height=\"8\"/></tile>\n"
                  " <tile id=\"0\"><image source=\"c0.png\" width=\"8\" height=\"8\"/></tile>\n"
                  " <tile id=\"5\"><image source=\"c1.png\" width=\"8\" height=\"8\"/></tile>\n"
                  "</tileset>\n"
                  "<layer name=\"l\" width=\"3\" height=\"1\"><data encoding=\"csv\">8,6,1</data></layer>\n"
                  "<objectgroup name=\"o\"><object id=\"1\" name=\"thing\" gid=\"6\" x=\"0\" y=\"8\" width=\"8\" height=\"8\"/></objectgroup>\n"
                  "</map>");
  TessMapImport *imp = read_ok(path);
  if (!imp) return;
  CHECK(imp->tileset_count == 1 && imp->tilesets[0].image_w == 16 && imp->tilesets[0].image_h == 16);
  CHECK(imp->layers[0].cells[0] == TESS_CELL_MAKE(1, 2, 0) && imp->layers[0].cells[1] == TESS_CELL_MAKE(1, 1, 0) &&
        imp->layers[0].cells[2] == TESS_CELL_MAKE(1, 0, 0));
  CHECK(has_warning(imp, "3 images packed into one 16x16 tileset image"));
  /* The atlas cell of tile 5 holds c1.png's pixels; the sprite of the tile object too. */
  TessImage atlas, c1;
  TessError err;
  snprintf(png, sizeof png, "%s/c1.png", dir);
  CHECK_OK(tess_png_decode(imp->tilesets[0].png, imp->tilesets[0].png_size, "atlas", &atlas, &err), &err);
  CHECK_OK(tess_png_load(png, &c1, &err), &err);
  bool same = true;
  for (uint32_t y = 0; y < 8; y++) same &= memcmp(atlas.pixels + y * atlas.stride + 8 * 4, c1.pixels + y * c1.stride, 32) == 0;
  CHECK(same);
  CHECK(imp->sprite_count == 1 && imp->layers[1].object_count == 1);
  tess_image_clear(&atlas);
  tess_image_clear(&c1);
  tess_map_import_destroy(imp);
  /* Images of different sizes share cells of the largest size, each at its cell's bottom-left (8x8 c0 under 16x8 big). */
  snprintf(png, sizeof png, "%s/big.png", dir);
  maps_write_tileset_png(png, 1, 1, 16, 8, 0, 0, 30, -1);
  maps_write_file(path, sizeof path, dir, "coll2.tmx",
                  "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n"
                  "<tileset firstgid=\"1\" name=\"mixed\" tilewidth=\"16\" tileheight=\"8\">\n"
                  " <tile id=\"0\"><image source=\"c0.png\"/></tile><tile id=\"1\"><image source=\"big.png\"/></tile>\n"
                  "</tileset></map>");
  imp = read_ok(path);
  if (!imp) return;
  CHECK(imp->tilesets[0].tile_w == 16 && imp->tilesets[0].tile_h == 8 && imp->tilesets[0].image_w == 32 &&
        imp->tilesets[0].image_h == 8);
  CHECK(has_warning(imp, "images of different sizes at the bottom-left of their cells"));
  tess_map_import_destroy(imp);
}

/* ---- Bad input ---- */

static void expect_error(const char *path, TessResult code, const char *needle1, const char *needle2);

static void expect_error(const char *path, TessResult code, const char *needle1, const char *needle2) {
  TessError err;
  tess_error_clear(&err);
  TessMapImport *imp = NULL;
  TessResult r = tess_map_read(path, NULL, &imp, &err);
  char msg[1400];
  tess_error_format(&err, msg, sizeof msg);
  CHECK_MSG(r != TESS_OK && imp == NULL, "%s read", path);
  CHECK_MSG(code == TESS_OK || r == code, "%s: %s, want %s (%s)", path, tess_result_string(r), tess_result_string(code), msg);
  CHECK_MSG(!needle1 || strstr(msg, needle1), "'%s' not in: %s", needle1, msg);
  CHECK_MSG(!needle2 || strstr(msg, needle2), "'%s' not in: %s", needle2, msg);
  tess_map_import_destroy(imp);
}

static void bad_tmx_layer(const char *name, const char *data, TessResult code, const char *n1, const char *n2) {
  char path[600];
  char *body = maps_printf("<layer id=\"1\" name=\"bad\" width=\"4\" height=\"3\">%s</layer>", data);
  write_tmx(path, sizeof path, name, 4, 3, "", body);
  free(body);
  expect_error(path, code, n1, n2);
}

static void test_bad_layer_data(void) {
  uint32_t gids[13] = {1, 2, 3}; /* 12 cells, and one more for the long layer */
  char *ok_zlib = maps_encode(gids, 12, "base64", "zlib"), *ok_zstd = maps_encode(gids, 12, "base64", "zstd");
  char *ok_gzip = maps_encode(gids, 12, "base64", "gzip");
  char *short_plain = maps_encode(gids, 11, "base64", "");
  char *long_zlib = maps_encode(gids, 12 + 1, "base64", "zlib");
  bad_tmx_layer("short_csv.tmx", "<data encoding=\"csv\">1,2,3,4,5,6,7,8,9,10,11</data>", TESS_ERR_FORMAT, "short_csv.tmx",
                "holds 11 cells, the layer has 12");
  bad_tmx_layer("long_csv.tmx", "<data encoding=\"csv\">1,2,3,4,5,6,7,8,9,10,11,12,13</data>", TESS_ERR_FORMAT, "more than", NULL);
  char *d = maps_printf("<data encoding=\"base64\">%s</data>", short_plain);
  bad_tmx_layer("short_b64.tmx", d, TESS_ERR_FORMAT, "holds 44 bytes, the layer needs 48", NULL);
  free(d);
  bad_tmx_layer("corrupt_b64.tmx", "<data encoding=\"base64\">AAAA*AAA</data>", TESS_ERR_FORMAT, "corrupt base64", NULL);
  /* Corrupt compressed streams: the compressed bytes' middle replaced. */
  ok_zlib[10] = ok_zlib[10] == 'A' ? 'B' : 'A', ok_zlib[11] = '/', ok_zlib[12] = '/';
  d = maps_printf("<data encoding=\"base64\" compression=\"zlib\">%s</data>", ok_zlib);
  bad_tmx_layer("corrupt_zlib.tmx", d, TESS_ERR_FORMAT, "zlib", "layer 'bad'");
  free(d);
  d = maps_printf("<data encoding=\"base64\" compression=\"gzip\">%.12s</data>", ok_gzip); /* truncated */
  bad_tmx_layer("corrupt_gzip.tmx", d, TESS_ERR_FORMAT, "corrupt gzip", NULL);
  free(d);
  ok_zstd[2] = ok_zstd[2] == 'Q' ? 'R' : 'Q'; /* the frame's magic */
  d = maps_printf("<data encoding=\"base64\" compression=\"zstd\">%s</data>", ok_zstd);
  bad_tmx_layer("corrupt_zstd.tmx", d, TESS_ERR_FORMAT, "corrupt zstd", NULL);
  free(d);
  d = maps_printf("<data encoding=\"base64\" compression=\"zlib\">%s</data>", long_zlib);
  bad_tmx_layer("long_zlib.tmx", d, TESS_ERR_FORMAT, "more bytes than the layer's 48", NULL);
  free(d);
  bad_tmx_layer("beyond.tmx", "<data encoding=\"csv\">1,2,3,4,5,6,7,8,0,0,0,100</data>", TESS_ERR_FORMAT,
                "cell (3, 2): gid 100 is beyond every tileset", NULL);
  bad_tmx_layer("hexrot.tmx", "<data encoding=\"csv\">268435457,0,0,0,0,0,0,0,0,0,0,0</data>", TESS_ERR_FORMAT, "bit 28", NULL);
  bad_tmx_layer("xmltiles.tmx", "<data><tile gid=\"1\"/><tile/></data>", TESS_ERR_FORMAT, "2 <tile> elements, the layer has 12", NULL);
  free(ok_zlib);
  free(ok_zstd);
  free(ok_gzip);
  free(short_plain);
  free(long_zlib);
}

static void test_bad_files_and_paths(void) {
  const char *dir = tess_test_tmpdir();
  char path[600];
  /* A missing external tileset and a missing image: the path as written and as resolved. */
  maps_write_file(path, sizeof path, dir, "missing_tsx.tmx",
                  "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">"
                  "<tileset firstgid=\"1\" source=\"sets/missing.tsx\"/></map>");
  char resolved[700];
  snprintf(resolved, sizeof resolved, "%s/sets/missing.tsx", dir);
  expect_error(path, TESS_ERR_IO, "'sets/missing.tsx'", resolved);
  maps_write_file(path, sizeof path, dir, "missing_png.tmj",
                  "{\"orientation\":\"orthogonal\",\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,"
                  "\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":8,\"tileheight\":8,\"image\":\"../nope.png\"}],\"layers\":[]}");
  snprintf(resolved, sizeof resolved, "%s/../nope.png", dir);
  expect_error(path, TESS_ERR_IO, "'../nope.png'", resolved);
  /* Absurd sizes, refused before anything is allocated. */
  write_tmx(path, sizeof path, "huge.tmx", 100000, 100000, "", "");
  expect_error(path, TESS_ERR_LIMIT, "huge.tmx", "'width'");
  maps_write_file(path, sizeof path, dir, "huge.tmj",
                  "{\"orientation\":\"orthogonal\",\"width\":1e12,\"height\":1,\"tilewidth\":8,\"tileheight\":8}");
  expect_error(path, TESS_ERR_FORMAT, "$.width", NULL);
  /* NaN: not JSON at all, and not a number in XML. */
  maps_write_file(path, sizeof path, dir, "nan.tmj",
                  "{\"orientation\":\"orthogonal\",\"width\":1,\"height\":1,\"tilewidth\":NaN,\"tileheight\":8}");
  expect_error(path, TESS_ERR_FORMAT, "nan.tmj:1", NULL);
  write_tmx(path, sizeof path, "nan.tmx", 2, 2, "",
            "<objectgroup name=\"o\"><object id=\"1\" x=\"nan\" y=\"0\" width=\"1\" height=\"1\"/></objectgroup>");
  expect_error(path, TESS_ERR_FORMAT, "nan.tmx:", "'x'");
  /* Orientation refused by name. */
  write_tmx(path, sizeof path, "iso.tmx", 2, 2, "orientation=\"isometric\" ", "");
  /* (the attribute appears twice: expat refuses the duplicate) */
  expect_error(path, TESS_ERR_FORMAT, "iso.tmx:", "duplicate attribute");
  maps_write_file(path, sizeof path, dir, "stag.tmx",
                  "<map orientation=\"staggered\" width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"></map>");
  expect_error(path, TESS_ERR_FORMAT, "staggered maps are not supported", NULL);
  /* A tile layer with a size and no data (the fuzzer's find: a read through a null cell array). */
  maps_write_file(path, sizeof path, dir, "nodata.tmx",
                  "<map orientation=\"orthogonal\" width=\"4\" height=\"3\" tilewidth=\"8\" tileheight=\"8\">\n"
                  "<layer name=\"l\" width=\"4\" height=\"3\"></layer></map>");
  expect_error(path, TESS_ERR_FORMAT, "layer 'l' is 4x3 but has no tile data", NULL);
  maps_write_file(path, sizeof path, dir, "nodata.tmj",
                  "{\"orientation\":\"orthogonal\",\"width\":4,\"height\":3,\"tilewidth\":8,\"tileheight\":8,\"layers\":"
                  "[{\"type\":\"tilelayer\",\"name\":\"l\",\"width\":4,\"height\":3}]}");
  expect_error(path, TESS_ERR_FORMAT, "$.layers[0]: data", NULL); /* the JSON reader asks for it by name */
  /* Non-UTF-8 names: both parsers refuse them with the place. */
  maps_write_file(path, sizeof path, dir, "latin1.tmx",
                  "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n"
                  "<layer name=\"caf\xe9\" width=\"1\" height=\"1\"><data encoding=\"csv\">0</data></layer></map>");
  expect_error(path, TESS_ERR_FORMAT, "latin1.tmx:2", "XML");
  maps_write_file(path, sizeof path, dir, "latin1.tmj",
                  "{\"orientation\":\"orthogonal\",\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,\"layers\":"
                  "[{\"type\":\"tilelayer\",\"name\":\"caf\xe9\",\"width\":1,\"height\":1,\"data\":[0]}]}");
  expect_error(path, TESS_ERR_FORMAT, "latin1.tmj:1", "JSON: unable to decode byte 0xe9");
  /* A tileset image outside the map's folder is allowed, resolved and reported. */
  char sub[700], png[700];
  snprintf(sub, sizeof sub, "%s/maps", dir);
  CHECK(mkdir(sub, 0755) == 0);
  snprintf(png, sizeof png, "%s/shared.png", dir);
  maps_write_tileset_png(png, 2, 1, 8, 8, 0, 0, 3, -1);
  maps_write_file(path, sizeof path, sub, "out.tmx",
                  "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n"
                  "<tileset firstgid=\"1\" name=\"s\" tilewidth=\"8\" tileheight=\"8\"><image source=\"../shared.png\"/></tileset>\n"
                  "<layer name=\"l\" width=\"2\" height=\"1\"><data encoding=\"csv\">1,2</data></layer></map>");
  TessMapImport *imp = read_ok(path);
  if (imp) {
    CHECK(has_warning(imp, "tileset image '../shared.png' resolves to '"));
    CHECK(has_warning(imp, "shared.png', outside the map's folder"));
    tess_map_import_destroy(imp);
  }
}

/* Expat's defaults stop entity expansion attacks: the billion laughs
 * document fails with expat's amplification error, fast and without
 * allocating gigabytes; Tessera adds no DTD handling of its own. */
static void test_billion_laughs_and_depth(void) {
  const char *dir = tess_test_tmpdir();
  char path[600];
  char *doc = maps_printf(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE map [\n <!ENTITY a \"aaaaaaaaaa\">\n"
      " <!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n <!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">\n"
      " <!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">\n <!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">\n"
      " <!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\">\n <!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">\n"
      " <!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\">\n <!ENTITY i \"&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;\">\n]>\n"
      "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n"
      "<properties><property name=\"x\">&i;</property></properties></map>\n");
  maps_write_file(path, sizeof path, dir, "laughs.tmx", doc);
  free(doc);
  int64_t before = tess_alloc_live_bytes();
  double t0 = tess_now_seconds();
  expect_error(path, TESS_ERR_FORMAT, "laughs.tmx:", "amplification");
  CHECK(tess_now_seconds() - t0 < 5.0);
  CHECK(tess_alloc_live_bytes() == before);
  /* Deep nesting: 100 groups (XML) and 100 levels of arrays (JSON) are refused with a message. */
  size_t n = 100;
  char *deep = malloc(n * 40 + 400), *o = deep;
  o += sprintf(o, "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">");
  for (size_t i = 0; i < n; i++) o += sprintf(o, "<group name=\"g\">");
  for (size_t i = 0; i < n; i++) o += sprintf(o, "</group>");
  sprintf(o, "</map>");
  maps_write_file(path, sizeof path, dir, "deep.tmx", deep);
  expect_error(path, TESS_ERR_LIMIT, "deep.tmx:", "nested");
  o = deep;
  o += sprintf(o, "{\"orientation\":\"orthogonal\",\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,\"layers\":");
  for (size_t i = 0; i < n; i++) o += sprintf(o, "[{\"type\":\"group\",\"layers\":");
  o += sprintf(o, "[]");
  for (size_t i = 0; i < n; i++) o += sprintf(o, "}]");
  sprintf(o, "}");
  maps_write_file(path, sizeof path, dir, "deep.tmj", deep);
  expect_error(path, TESS_ERR_LIMIT, "deep.tmj", "nested too deep");
  free(deep);
}

TESS_TEST_MAIN(TEST(test_objects_every_kind), TEST(test_groups_flattened), TEST(test_infinite_map), TEST(test_trans_colour), TEST(test_image_collection_atlas),
               TEST(test_bad_layer_data), TEST(test_bad_files_and_paths), TEST(test_billion_laughs_and_depth))
