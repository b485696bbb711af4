/* core/formats, Tiled reader: maps the test writes (every encoding,
 * external and embedded tilesets, flips, infinite chunks, objects) read
 * into a plan and applied to a project as one undo step. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "maps.h"
#include "tessera/formats.h"
#include "tessera/image.h"

#define W 5
#define H 3

/* A 5x3 layer using two tilesets (gids 1..8 and 9..14) with every flip. */
static const uint32_t layer_gids[W * H] = {
    1,
    2,
    3,
    0,
    8, /* tileset a */
    9,
    14,
    0x80000000u | 2,
    0x40000000u | 10,
    0x20000000u | 4, /* b, flips */
    0xE0000000u | 5,
    0,
    0,
    0xA0000000u | 12,
    7,
};

static void write_tilesets(const char *dir) {
  char path[600];
  snprintf(path, sizeof path, "%s/a.png", dir);
  maps_write_tileset_png(path, 4, 2, 8, 8, 0, 0, 1, -1);
  snprintf(path, sizeof path, "%s/b.png", dir);
  maps_write_tileset_png(path, 3, 2, 8, 8, 1, 2, 2, -1);
}

static const char *tsx_b =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<tileset version=\"1.8\" name=\"b\" tilewidth=\"8\" tileheight=\"8\" spacing=\"2\" margin=\"1\" tilecount=\"6\" columns=\"3\">\n"
    " <image source=\"b.png\" width=\"30\" height=\"20\"/>\n"
    " <tile id=\"1\">\n"
    "  <properties><property name=\"material\" value=\"ice\"/><property name=\"friction\" type=\"float\" value=\"0.05\"/></properties>\n"
    "  <objectgroup draworder=\"index\"><object id=\"1\" x=\"0\" y=\"4\" width=\"8\" height=\"4\"/></objectgroup>\n"
    " </tile>\n"
    " <tile id=\"2\"><properties><property name=\"sound\" value=\"clang\"/></properties><objectgroup><object id=\"1\" x=\"0\" y=\"0\" width=\"8\" height=\"8\"/></objectgroup></tile>\n"
    "</tileset>\n";

static const char *tsj_b =
    "{\"name\":\"b\",\"tilewidth\":8,\"tileheight\":8,\"spacing\":2,\"margin\":1,\"tilecount\":6,\"columns\":3,"
    "\"image\":\"b.png\",\"imagewidth\":30,\"imageheight\":20,\"type\":\"tileset\","
    "\"tiles\":[{\"id\":1,\"properties\":[{\"name\":\"material\",\"type\":\"string\",\"value\":\"ice\"},"
    "{\"name\":\"friction\",\"type\":\"float\",\"value\":0.05}],"
    "\"objectgroup\":{\"objects\":[{\"id\":1,\"x\":0,\"y\":4,\"width\":8,\"height\":4}]}},"
    "{\"id\":2,\"objectgroup\":{\"objects\":[{\"id\":1,\"x\":0,\"y\":0,\"width\":8,\"height\":8}]}}]}";

/* A TMX map with the layer in the given encoding (xml = <tile> elements). */
static char *tmx_map(const char *encoding, const char *compression) {
  char *data;
  if (strcmp(encoding, "xml") == 0) {
    data = malloc(W * H * 40 + 64);
    char *o = data + sprintf(data, "<data>\n");
    for (int i = 0; i < W * H; i++) o += sprintf(o, layer_gids[i] ? "<tile gid=\"%u\"/>\n" : "<tile/>\n", layer_gids[i]);
    sprintf(o, "</data>");
  } else {
    char *text = maps_encode(layer_gids, W * H, encoding, compression);
    data = maps_printf("<data encoding=\"%s\"%s%s%s>\n%s\n</data>", encoding, compression[0] ? " compression=\"" : "",
                       compression, compression[0] ? "\"" : "", text);
    free(text);
  }
  char *map = maps_printf(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<map version=\"1.8\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"%d\" height=\"%d\" tilewidth=\"8\" "
      "tileheight=\"8\" infinite=\"0\" nextlayerid=\"3\" nextobjectid=\"1\">\n"
      " <tileset firstgid=\"1\" name=\"a\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"8\" columns=\"4\">\n"
      "  <image source=\"a.png\" width=\"32\" height=\"16\"/>\n"
      " </tileset>\n"
      " <tileset firstgid=\"9\" source=\"b.tsx\"/>\n"
      " <layer id=\"1\" name=\"ground\" width=\"%d\" height=\"%d\" opacity=\"0.5\">\n%s\n </layer>\n"
      "</map>\n",
      W, H, W, H, data);
  free(data);
  return map;
}

static void check_cells(const TessProject *p, const TessLevel *lv, const char *label) {
  const TessLayer *layer = NULL;
  for (uint32_t i = 0; i < lv->layer_count; i++)
    if (lv->layers[i]->props.kind == TESS_LAYER_TILES) layer = lv->layers[i];
  CHECK_MSG(layer != NULL, "%s", label);
  if (!layer) return;
  TessId a = 0, b = 0;
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    if (strcmp(p->tilesets[i]->name, "a") == 0) a = p->tilesets[i]->id;
    if (strcmp(p->tilesets[i]->name, "b") == 0) b = p->tilesets[i]->id;
  }
  CHECK_MSG(a && b, "%s: tilesets a and b", label);
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      uint32_t g = layer_gids[y * W + x], id = g & 0x0FFFFFFFu;
      TessCell want = 0;
      if (id) want = TESS_CELL_MAKE(id >= 9 ? b : a, id >= 9 ? id - 9 : id - 1, g & TESS_CELL_FLIPS);
      TessCell got = tess_layer_cell(layer, x, y);
      CHECK_MSG(got == want, "%s: cell (%u, %u) = 0x%08x, want 0x%08x", label, x, y, got, want);
    }
  CHECK_NEAR(layer->props.opacity, 0.5, 1e-6);
}

static TessProject *import_into_new(const char *map_path, TessId *level, TessError *err) {
  TessMapImport *imp = NULL;
  CHECK_OK(tess_map_read(map_path, NULL, &imp, err), err);
  if (!imp) return NULL;
  TessProject *p = tess_project_create();
  CHECK_OK(tess_map_import_apply(p, imp, NULL, level, err), err);
  tess_map_import_destroy(imp);
  return p;
}

static void test_tmx_every_encoding(void) {
  const char *dir = tess_test_tmpdir();
  write_tilesets(dir);
  char path[600];
  maps_write_file(path, sizeof path, dir, "b.tsx", tsx_b);
  static const char *enc[][2] = {{"xml", ""}, {"csv", ""}, {"base64", ""}, {"base64", "zlib"}, {"base64", "gzip"}, {"base64", "zstd"}};
  for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
    char *map = tmx_map(enc[i][0], enc[i][1]);
    char name[64];
    snprintf(name, sizeof name, "enc_%zu.tmx", i);
    maps_write_file(path, sizeof path, dir, name, map);
    free(map);
    TessError err;
    TessId level = 0;
    TessProject *p = import_into_new(path, &level, &err);
    if (!p) continue;
    char label[64];
    snprintf(label, sizeof label, "%s %s", enc[i][0], enc[i][1]);
    TessLevel *lv = tess_project_level(p, level);
    CHECK_MSG(lv && lv->settings.width == W && lv->settings.height == H && lv->settings.tile_w == 8, "%s", label);
    if (lv) check_cells(p, lv, label);
    tess_project_destroy(p);
  }
}

static void test_tmj_external_tsj_and_properties(void) {
  const char *dir = tess_test_tmpdir();
  write_tilesets(dir);
  char path[600];
  maps_write_file(path, sizeof path, dir, "b.tsj", tsj_b);
  char *csv = maps_encode(layer_gids, W * H, "csv", "");
  char *map = maps_printf(
      "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":%d,\"height\":%d,\"tilewidth\":8,\"tileheight\":8,"
      "\"infinite\":false,"
      "\"tilesets\":[{\"firstgid\":1,\"name\":\"a\",\"tilewidth\":8,\"tileheight\":8,\"tilecount\":8,\"columns\":4,"
      "\"image\":\"a.png\",\"imagewidth\":32,\"imageheight\":16},{\"firstgid\":9,\"source\":\"b.tsj\"}],"
      "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":%d,\"height\":%d,\"opacity\":0.5,\"data\":[%s]}]}",
      W, H, W, H, csv);
  free(csv);
  maps_write_file(path, sizeof path, dir, "m.tmj", map);
  free(map);
  TessError err;
  TessId level = 0;
  TessProject *p = import_into_new(path, &level, &err);
  if (!p) return;
  TessLevel *lv = tess_project_level(p, level);
  CHECK(lv && strcmp(lv->settings.name, "m") == 0);
  if (lv) check_cells(p, lv, "tmj");
  /* Tile 1 of b: the lower half as a traced piece, material "ice" with its friction; tile 2 full. */
  const TessMaterial *ice = tess_project_material_by_name(p, "ice");
  CHECK(ice && fabsf(ice->friction - 0.05f) < 1e-6f);
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    const TessTileset *ts = p->tilesets[i];
    if (strcmp(ts->name, "b") != 0) continue;
    CHECK(ts->margin == 1 && ts->spacing == 2 && ts->columns == 3 && ts->tile_count == 6);
    CHECK(ts->tiles[1].collision == TESS_TILE_COLLISION_TRACED && ts->tiles[1].piece_count == 1);
    CHECK(ice && ts->tiles[1].material == ice->id);
    CHECK(ts->tiles[2].collision == TESS_TILE_COLLISION_FULL);
    CHECK(ts->tiles[0].collision == TESS_TILE_COLLISION_NONE);
  }
  /* One undo step takes the whole import away. */
  CHECK(tess_project_can_undo(p));
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(p->level_count == 0 && p->tileset_count == 0 && p->material_count == 0);
  CHECK(!tess_project_can_undo(p));
  CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK(p->level_count == 1 && p->tileset_count == 2);
  tess_project_destroy(p);
}

/* A second import of the same map reuses the tilesets; a failing apply leaves the project as it was. */
static void test_reuse_and_rollback(void) {
  const char *dir = tess_test_tmpdir();
  write_tilesets(dir);
  char path[600];
  maps_write_file(path, sizeof path, dir, "b.tsx", tsx_b);
  char *map = tmx_map("csv", "");
  maps_write_file(path, sizeof path, dir, "reuse.tmx", map);
  free(map);
  TessError err;
  TessMapImport *imp = NULL;
  CHECK_OK(tess_map_read(path, NULL, &imp, &err), &err);
  if (!imp) return;
  TessProject *p = tess_project_create();
  CHECK_OK(tess_map_import_apply(p, imp, "one", NULL, &err), &err);
  CHECK_OK(tess_map_import_apply(p, imp, "two", NULL, &err), &err);
  CHECK(p->level_count == 2 && p->tileset_count == 2 && p->material_count == 1);
  /* The tile property outside the convention is listed, not silently dropped. */
  bool listed = false;
  for (uint32_t i = 0; i < imp->warning_count; i++) listed |= strstr(imp->warnings[i], "tileset 'b': 1 tile properties and classes dropped") != NULL;
  CHECK(listed);
  /* The same name again is refused before anything changes. */
  uint64_t before = tess_project_hash(p);
  CHECK(tess_map_import_apply(p, imp, "two", NULL, &err) == TESS_ERR_INVALID);
  /* A failure half way (the level cannot be made after new tilesets were added) rolls everything back. */
  TessProject *q = tess_project_create();
  uint64_t empty = tess_project_hash(q);
  imp->settings.width = 0;
  CHECK(tess_map_import_apply(q, imp, "bad", NULL, &err) != TESS_OK);
  CHECK(q->tileset_count == 0 && q->material_count == 0 && q->level_count == 0);
  CHECK(tess_project_hash(q) == empty);
  CHECK(!tess_project_can_undo(q));
  CHECK(tess_project_hash(p) == before);
  tess_project_destroy(q);
  tess_project_destroy(p);
  tess_map_import_destroy(imp);
}

TESS_TEST_MAIN(TEST(test_tmx_every_encoding), TEST(test_tmj_external_tsj_and_properties), TEST(test_reuse_and_rollback))
