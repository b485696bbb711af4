/* Tiled's wangsets <-> Tessera terrain sets: Tiled's own desert example
 * (a corner set of 4 colours, 48 tiles, weighted variants) imports with
 * every colour and label; terrain sets of every kind survive Tessera ->
 * TMJ/TMX -> Tessera field for field and write the same tileset file again;
 * broken wangsets are refused naming the file and the place. */
#include <unistd.h>

#include "check.h"
#include "tessera/formats.h"
#include "tessera/image.h"

static const char *EXAMPLES = "/usr/share/doc/tiled/examples";

/* Counts `needle` in the file (an independent reading of the TSX). */
static int count_in_file(const char *path, const char *needle) {
  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  if (tess_file_read(path, 1 << 24, &data, &size, &err)) return -1;
  int n = 0;
  size_t len = strlen(needle);
  for (size_t i = 0; i + len <= size; i++) n += memcmp(data + i, needle, len) == 0;
  tess_free(data);
  return n;
}

static void desert_example_imports_its_wangset(void) {
  char map[512], tsx[512];
  snprintf(map, sizeof map, "%s/desert.tmx", EXAMPLES);
  snprintf(tsx, sizeof tsx, "%s/desert.tsx", EXAMPLES);
  if (access(map, R_OK) != 0 || access(tsx, R_OK) != 0) {
    printf("  (Tiled's examples are not installed: skipped)\n");
    return;
  }
  TessMapReadOptions opt;
  tess_map_read_options_default(&opt);
  TessMapImport *imp = NULL;
  TessError err;
  CHECK_OK(tess_map_read(map, &opt, &imp, &err), &err);
  if (!imp) return;
  CHECK(imp->tileset_count == 1 && imp->tilesets[0].terrain_count == 1);
  const TessTerrainSet *set = imp->tilesets[0].terrains;
  if (set) {
    CHECK(strcmp(set->name, "Desert") == 0 && set->kind == TESS_TERRAIN_CORNER && set->tile == 5);
    CHECK(set->color_count == 4 && (int)set->tile_count == count_in_file(tsx, "<wangtile "));
    CHECK(set->color_count == 4 && strcmp(set->colors[0].name, "Desert") == 0 && set->colors[0].color == 0xff0000ffu &&
          set->colors[0].tile == 29 && strcmp(set->colors[3].name, "Dirt") == 0 && set->colors[3].color == 0xff7700ffu);
    /* desert.tsx: <tile id="30" probability="0.01"/>, a labelled variant. */
    const TessTerrainTile *t30 = tess_terrain_set_find(set, 30), *t0 = tess_terrain_set_find(set, 0);
    CHECK(t30 && t30->probability == 0.01f && t0 && t0->probability == 1.0f);
    TessError verr;
    CHECK_OK(tess_terrain_set_validate(set, imp->tilesets[0].tile_count, "desert", &verr), &verr);
    /* Applied to a project, the brush paints with it. */
    TessProject *p = tess_project_create();
    TessId level = 0;
    CHECK_OK(tess_map_import_apply(p, imp, NULL, &level, &err), &err);
    TessLevel *lv = tess_project_level(p, level);
    TessTileset *ts = p->tileset_count ? p->tilesets[0] : NULL;
    CHECK(ts && ts->terrain_count == 1 && lv);
    const TessLayer *ground = NULL;
    for (uint32_t i = 0; lv && i < lv->layer_count && !ground; i++)
      if (lv->layers[i]->props.kind == TESS_LAYER_TILES) ground = lv->layers[i];
    if (ts && ground) {
      TessTerrainBrush brush = {ts->id, 0, 2, 1}; /* Brick */
      CHECK_OK(tess_edit_terrain_rect(p, level, ground->props.id, &brush, 3, 3, 4, 4, 0, &err), &err);
      uint8_t lab[8];
      CHECK(tess_terrain_cell_labels(&ts->terrains[0], ts->id, tess_layer_cell(ground, 4, 4), lab) &&
            lab[1] == 2 && lab[3] == 2 && lab[5] == 2 && lab[7] == 2);
    }
    tess_project_destroy(p);
  }
  tess_map_import_destroy(imp);
}

/* A project whose tileset has a corner, an edge and a mixed set. A tile in
 * two sets has one probability (Tiled keeps one per tile). */
static TessProject *make_project(TessId *tileset, TessId *level) {
  TessError err;
  TessImage img;
  CHECK_OK(tess_image_create(64, 64, &img, &err), &err);
  for (uint32_t y = 0; y < 64; y++)
    for (uint32_t x = 0; x < 64; x++) {
      uint8_t *px = img.pixels + y * img.stride + 4 * x;
      px[0] = (uint8_t)(x * 4), px[1] = (uint8_t)(y * 4), px[2] = (uint8_t)((x ^ y) * 8), px[3] = 255;
    }
  uint8_t *png = NULL;
  size_t png_size = 0;
  CHECK_OK(tess_png_encode(tess_image_view(&img), &png, &png_size, &err), &err);
  tess_image_clear(&img);
  TessProject *p = tess_project_create();
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Lands";
  def.png = png;
  def.png_size = png_size;
  def.image_w = def.image_h = 64;
  def.tile_w = def.tile_h = 16;
  CHECK_OK(tess_edit_tileset_add(p, &def, tileset, &err), &err);
  tess_free(png);
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(p, *tileset)), &err);
  ts.terrain_count = 3;
  ts.terrains = tess_calloc(3, sizeof *ts.terrains);
  static const char *names[] = {"Corners", "Edges", "Mixed \"é\" <&>"};
  for (int k = 0; k < 3; k++) {
    TessTerrainSet *s = &ts.terrains[k];
    tess_terrain_set_init(s, names[k], (TessTerrainKind)k);
    CHECK_OK(tess_terrain_set_add_color(s, "Grass", 0x11aa22ffu, NULL, &err), &err);
    CHECK_OK(tess_terrain_set_add_color(s, "Sea & sky", 0x2233ff80u, NULL, &err), &err);
    s->colors[1].probability = 0.3f;
    s->colors[0].tile = 4 + k;
    s->tile = k == 1 ? -1 : 7;
    uint8_t mask = tess_terrain_kind_mask((TessTerrainKind)k);
    for (uint32_t t = 0; t < 16; t++) {
      uint8_t wang[8] = {0};
      for (int pos = 0; pos < 8; pos++)
        if ((mask >> pos) & 1) wang[pos] = (uint8_t)(1 + ((t * 7 + (uint32_t)pos * 3 + (uint32_t)k) % 2));
      float probability = t % 5 == 0 ? 0.1f * (float)(t + 1) : 1.0f;
      if ((t + (uint32_t)k) % 4 != 3) CHECK_OK(tess_terrain_set_label(s, t, wang, probability, &err), &err);
    }
  }
  CHECK_OK(tess_edit_tileset_set(p, &ts, 0, &err), &err);
  tess_tileset_clear(&ts);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  s.width = 12;
  s.height = 10;
  s.tile_w = s.tile_h = 16;
  snprintf(s.name, sizeof s.name, "Wang");
  CHECK_OK(tess_edit_level_add(p, &s, level, &err), &err);
  TessTerrainBrush brush = {*tileset, 2, 1, 3};
  TessLevel *lv = tess_project_level(p, *level);
  CHECK_OK(tess_edit_terrain_rect(p, *level, lv->layers[0]->props.id, &brush, 0, 0, 12, 10, 0, &err), &err);
  return p;
}

static void same_sets(const TessTileset *a, const TessTileset *b, const char *how) {
  CHECK_MSG(a && b && a->terrain_count == b->terrain_count, "%s: %u sets came back", how, b ? b->terrain_count : 0);
  for (uint32_t i = 0; a && b && i < a->terrain_count && i < b->terrain_count; i++) {
    const TessTerrainSet *x = &a->terrains[i], *y = &b->terrains[i];
    CHECK_MSG(strcmp(x->name, y->name) == 0 && x->kind == y->kind && x->tile == y->tile, "%s: set %u (%s / %s)", how, i,
              x->name, y->name);
    CHECK_MSG(x->color_count == y->color_count && x->tile_count == y->tile_count, "%s: set %u counts", how, i);
    for (uint32_t c = 0; c < x->color_count && c < y->color_count; c++)
      CHECK_MSG(strcmp(x->colors[c].name, y->colors[c].name) == 0 && x->colors[c].color == y->colors[c].color &&
                    x->colors[c].probability == y->colors[c].probability && x->colors[c].tile == y->colors[c].tile,
                "%s: set %u colour %u", how, i, c);
    for (uint32_t t = 0; t < x->tile_count && t < y->tile_count; t++)
      CHECK_MSG(x->tiles[t].tile == y->tiles[t].tile && memcmp(x->tiles[t].wang, y->tiles[t].wang, 8) == 0 &&
                    x->tiles[t].probability == y->tiles[t].probability,
                "%s: set %u tile %u", how, i, x->tiles[t].tile);
  }
}

/* Bytes of the wangsets part starting at s: up to </wangsets>, or the JSON array's closing bracket. */
static size_t wang_length(const char *s, bool xml) {
  if (xml) {
    const char *end = strstr(s, "</wangsets>");
    return end ? (size_t)(end - s) : 0;
  }
  int depth = 0;
  for (const char *p = s; *p; p++) {
    if (*p == '[') depth++;
    if (*p == ']' && --depth == 0) return (size_t)(p - s) + 1;
  }
  return 0;
}

static void terrain_sets_round_trip_through_tiled(void) {
  TessId tileset = 0, level = 0;
  TessProject *p = make_project(&tileset, &level);
  for (int f = 0; f < 2; f++) {
    const char *ext = f ? "tmx" : "tmj";
    char dir[600], map[700], again[700], tsfile[800], tsagain[800];
    tess_test_path(dir, sizeof dir, f ? "wang-tmx" : "wang-tmj");
    snprintf(map, sizeof map, "%s/a/level.%s", dir, ext);
    snprintf(again, sizeof again, "%s/b/level.%s", dir, ext);
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/a' '%s/b'", dir, dir);
    CHECK(system(cmd) == 0);
    TessError err;
    CHECK_OK(tess_tiled_write_level(p, tess_project_level(p, level), f ? TESS_TILED_TMX : TESS_TILED_TMJ, map, &err), &err);
    snprintf(tsfile, sizeof tsfile, "%s/a/tilesets/Lands.%s", dir, f ? "tsx" : "tsj");
    CHECK_MSG(count_in_file(tsfile, "wangtile") > 0 || count_in_file(tsfile, "wangtiles") > 0, "%s has no wang tiles", tsfile);
    TessMapReadOptions opt;
    tess_map_read_options_default(&opt);
    TessMapImport *imp = NULL;
    CHECK_OK(tess_map_read(map, &opt, &imp, &err), &err);
    TessProject *q = tess_project_create();
    TessId ql = 0;
    if (imp) CHECK_OK(tess_map_import_apply(q, imp, NULL, &ql, &err), &err);
    tess_map_import_destroy(imp);
    same_sets(tess_project_tileset(p, tileset), q->tileset_count ? q->tilesets[0] : NULL, ext);
    /* The cells the brush chose came back too, so the imported level is the same terrain. */
    const TessLevel *la = tess_project_level(p, level), *lb = tess_project_level(q, ql);
    const TessLayer *ga = NULL, *gb = NULL;
    for (uint32_t i = 0; i < la->layer_count && !ga; i++)
      if (la->layers[i]->props.kind == TESS_LAYER_TILES) ga = la->layers[i];
    for (uint32_t i = 0; lb && i < lb->layer_count && !gb; i++)
      if (lb->layers[i]->props.kind == TESS_LAYER_TILES && strcmp(lb->layers[i]->props.name, ga->props.name) == 0) gb = lb->layers[i];
    int differ = 0;
    for (uint32_t y = 0; gb && y < 10; y++)
      for (uint32_t x = 0; x < 12; x++)
        differ += TESS_CELL_TILE(tess_layer_cell(ga, x, y)) != TESS_CELL_TILE(tess_layer_cell(gb, x, y));
    CHECK_MSG(gb && differ == 0, "%s: %d cells differ", ext, differ);
    /* Written again from the imported project: the same tileset file. */
    if (lb) CHECK_OK(tess_tiled_write_level(q, lb, f ? TESS_TILED_TMX : TESS_TILED_TMJ, again, &err), &err);
    snprintf(tsagain, sizeof tsagain, "%s/b/tilesets/Lands.%s", dir, f ? "tsx" : "tsj");
    uint8_t *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    CHECK_OK(tess_file_read(tsfile, 1 << 24, &a, &na, &err), &err);
    CHECK_OK(tess_file_read(tsagain, 1 << 24, &b, &nb, &err), &err);
    /* The second file names the tileset by its new project's id: compare from the wangsets on. */
    const char *key = f ? "<wangsets>" : "\"wangsets\"";
    const char *wa = a ? strstr((const char *)a, key) : NULL, *wb = b ? strstr((const char *)b, key) : NULL;
    size_t la_ = wa ? wang_length(wa, f) : 0, lb_ = wb ? wang_length(wb, f) : 0;
    CHECK_MSG(wa && wb && la_ > 20 && la_ == lb_ && memcmp(wa, wb, la_) == 0, "%s: the wangsets written again differ", ext);
    tess_free(a);
    tess_free(b);
    tess_project_destroy(q);
  }
  tess_project_destroy(p);
}

/* A map with an embedded tileset whose wangset part is `wang` (TMX). */
static void expect_refused(const char *name, const char *wang, const char *words) {
  char dir[600], path[700], png_path[700];
  tess_test_path(dir, sizeof dir, name);
  char cmd[800];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  CHECK(system(cmd) == 0);
  TessImage img;
  TessError err;
  CHECK_OK(tess_image_create(32, 32, &img, &err), &err);
  snprintf(png_path, sizeof png_path, "%s/t.png", dir);
  CHECK_OK(tess_png_save(tess_image_view(&img), png_path, &err), &err);
  tess_image_clear(&img);
  snprintf(path, sizeof path, "%s/map.tmx", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fprintf(f,
          "<?xml version=\"1.0\"?>\n<map version=\"1.8\" orientation=\"orthogonal\" width=\"2\" height=\"2\" tilewidth=\"16\" tileheight=\"16\">\n"
          " <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"4\" columns=\"2\">\n"
          "  <image source=\"t.png\" width=\"32\" height=\"32\"/>\n"
          "  <wangsets>\n%s  </wangsets>\n"
          " </tileset>\n"
          " <layer name=\"g\" width=\"2\" height=\"2\"><data encoding=\"csv\">1,2,3,4</data></layer>\n</map>\n",
          wang);
  fclose(f);
  TessMapReadOptions opt;
  tess_map_read_options_default(&opt);
  TessMapImport *imp = NULL;
  TessResult r = tess_map_read(path, &opt, &imp, &err);
  CHECK_MSG(r != TESS_OK && strstr(err.detail, words) && strstr(err.file, "map.tmx"), "%s: %s (%s) %s", name,
            tess_result_string(r), err.file, err.detail);
  CHECK_MSG(r != TESS_OK && err.place_kind == TESS_PLACE_LINE && err.place >= 5 && err.place <= 9, "%s: line %llu", name,
            (unsigned long long)err.place);
  tess_map_import_destroy(imp);
}

static void broken_wangsets_are_refused(void) {
  expect_refused("wang-short",
                 "   <wangset name=\"W\" type=\"corner\" tile=\"-1\">\n"
                 "    <wangcolor name=\"A\" color=\"#ff0000\" tile=\"-1\" probability=\"1\"/>\n"
                 "    <wangtile tileid=\"0\" wangid=\"0,1,0,1\"/>\n   </wangset>\n",
                 "wangid '0,1,0,1'");
  expect_refused("wang-colour",
                 "   <wangset name=\"W\" type=\"corner\" tile=\"-1\">\n"
                 "    <wangcolor name=\"A\" color=\"#ff0000\" tile=\"-1\" probability=\"1\"/>\n"
                 "    <wangtile tileid=\"0\" wangid=\"0,1,0,3,0,1,0,1\"/>\n   </wangset>\n",
                 "colour 3 at position 3, the set has 1");
  expect_refused("wang-type", "   <wangset name=\"W\" type=\"triangle\" tile=\"-1\">\n   </wangset>\n",
                 "type 'triangle'");
  expect_refused("wang-paint",
                 "   <wangset name=\"W\" type=\"edge\" tile=\"-1\">\n"
                 "    <wangcolor name=\"A\" color=\"red\" tile=\"-1\" probability=\"1\"/>\n   </wangset>\n",
                 "'red' is not a colour");
}

TESS_TEST_MAIN(TEST(desert_example_imports_its_wangset), TEST(terrain_sets_round_trip_through_tiled),
               TEST(broken_wangsets_are_refused))
