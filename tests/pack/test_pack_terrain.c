/* Terrain sets in the .tlv (3.3): written for each tileset the level uses,
 * read back field for field through the libc-only reader and into a project
 * (tess_project_from_pack); a tileset without sets writes no section; and
 * the reader refuses each broken rule, naming the byte. */
#include <string.h>

#include "check.h"
#include "pack_fixture.h"
#include "tessera/pack.h"
#include "tlv_reader.h"
#include "tlv_reseal.h"

/* Two sets on the first tileset the level's cells use. */
static TessId add_sets(TessProject *p) {
  TessError err;
  const TessLevel *level = p->levels[0];
  TessId id = 0;
  for (uint32_t li = 0; li < level->layer_count && !id; li++)
    for (uint32_t y = 0; y < level->settings.height && !id; y++)
      for (uint32_t x = 0; x < level->settings.width && !id; x++)
        if (level->layers[li]->props.kind == TESS_LAYER_TILES && tess_layer_cell(level->layers[li], x, y))
          id = TESS_CELL_TILESET(tess_layer_cell(level->layers[li], x, y));
  CHECK(id != 0);
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(p, id)), &err);
  CHECK(ts.tile_count >= 4);
  ts.terrain_count = 2;
  ts.terrains = tess_calloc(2, sizeof *ts.terrains);
  tess_terrain_set_init(&ts.terrains[0], "Ground", TESS_TERRAIN_CORNER);
  tess_terrain_set_init(&ts.terrains[1], "Walls", TESS_TERRAIN_MIXED);
  CHECK_OK(tess_terrain_set_add_color(&ts.terrains[0], "Grass", 0x00ff00ff, NULL, &err), &err);
  CHECK_OK(tess_terrain_set_add_color(&ts.terrains[0], "Water", 0x0000ffff, NULL, &err), &err);
  ts.terrains[0].colors[1].probability = 0.25f;
  ts.terrains[0].colors[0].tile = 1;
  CHECK_OK(tess_terrain_set_add_color(&ts.terrains[1], "Brick", 0x884422ff, NULL, &err), &err);
  ts.terrains[1].tile = 2;
  /* An edge label in a corner set: the corner kind does not look, the writer writes 0. */
  const uint8_t a[8] = {2, 1, 0, 1, 0, 2, 0, 2}, b[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  CHECK_OK(tess_terrain_set_label(&ts.terrains[0], 3, a, 0.5f, &err), &err);
  CHECK_OK(tess_terrain_set_label(&ts.terrains[0], 0, b, 1.0f, &err), &err);
  CHECK_OK(tess_terrain_set_label(&ts.terrains[1], 2, b, 2.0f, &err), &err);
  CHECK_OK(tess_edit_tileset_set(p, &ts, 0, &err), &err);
  tess_tileset_clear(&ts);
  return id;
}

static uint8_t *write(TessProject *p, size_t *size) {
  uint8_t *data = NULL;
  TessError err;
  CHECK_OK(tess_pack_write(p, p->levels[0], NULL, &data, size, &err), &err);
  return data;
}

static void terrain_sets_round_trip(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  TessProject *p = pack_fixture_project(5, &spec);
  if (!p) return;
  size_t size = 0;
  uint8_t *plain = write(p, &size);
  CHECK(plain && tlv_find_entry(plain, size, TLV_SEC_TERRAIN_SETS) == 0);
  tess_free(plain);
  TessId id = add_sets(p);
  uint8_t *data = write(p, &size);
  TlvLevel lv;
  TlvError e;
  TlvResult r = data ? tlv_open(data, size, 0, &lv, &e) : TLV_ERR_ARGUMENT;
  CHECK_MSG(r == TLV_OK, "%s at %llu: %s", tlv_result_string(r), (unsigned long long)e.offset, e.message);
  if (r == TLV_OK) {
    CHECK(lv.header.minor == TLV_VERSION_MINOR && lv.terrain_sets.count == 2 && lv.terrain_colors.count == 3 && lv.terrain_tiles.count == 3);
    TlvTerrainSet s0, s1, none;
    TlvTileset tt;
    CHECK(tlv_terrain_set(&lv, 0, &s0) && tlv_terrain_set(&lv, 1, &s1) && !tlv_terrain_set(&lv, 2, &none));
    CHECK(tlv_tileset(&lv, s0.tileset - 1, &tt) && tt.id == id);
    CHECK(strcmp(tlv_string(&lv, s0.name), "Ground") == 0 && s0.kind == TLV_TERRAIN_CORNER && s0.tile == -1);
    CHECK(s0.color_first == 0 && s0.color_count == 2 && s0.tile_first == 0 && s0.tile_count == 2);
    CHECK(strcmp(tlv_string(&lv, s1.name), "Walls") == 0 && s1.kind == TLV_TERRAIN_MIXED && s1.tile == 2);
    CHECK(s1.color_first == 2 && s1.tile_first == 2 && s1.tileset == s0.tileset);
    TlvTerrainColor c;
    CHECK(tlv_terrain_color(&lv, 1, &c) && strcmp(tlv_string(&lv, c.name), "Water") == 0 && c.probability == 0.25f &&
          c.color == 0x0000ffff && c.tile == -1);
    CHECK(tlv_terrain_color(&lv, 0, &c) && c.tile == 1);
    TlvTerrainTile t;
    const uint8_t corners_only[8] = {0, 1, 0, 1, 0, 2, 0, 2};
    CHECK(tlv_terrain_tile(&lv, 1, &t) && t.tile == 3 && memcmp(t.wang, corners_only, 8) == 0 && t.probability == 0.5f);
    /* Back into a project: the same sets (the ignored edge labels as 0). */
    TessProject *q = NULL;
    TessError err;
    CHECK_OK(tess_project_from_pack(&lv, NULL, &q, &err), &err);
    const TessTileset *a = tess_project_tileset(p, id), *b = q ? tess_project_tileset(q, id) : NULL;
    CHECK(b && b->terrain_count == 2);
    for (uint32_t i = 0; b && i < 2; i++) {
      const TessTerrainSet *x = &a->terrains[i], *y = &b->terrains[i];
      CHECK(strcmp(x->name, y->name) == 0 && x->kind == y->kind && x->tile == y->tile &&
            x->color_count == y->color_count && x->tile_count == y->tile_count);
      for (uint32_t k = 0; k < x->color_count; k++)
        CHECK(strcmp(x->colors[k].name, y->colors[k].name) == 0 && x->colors[k].probability == y->colors[k].probability);
      uint8_t mask = tess_terrain_kind_mask((TessTerrainKind)x->kind);
      for (uint32_t k = 0; k < x->tile_count; k++) {
        CHECK(x->tiles[k].tile == y->tiles[k].tile && x->tiles[k].probability == y->tiles[k].probability);
        for (int pos = 0; pos < 8; pos++)
          CHECK(y->tiles[k].wang[pos] == ((mask >> pos) & 1 ? x->tiles[k].wang[pos] : 0));
      }
    }
    if (q) tess_project_destroy(q);
  }
  tess_free(data);
  tess_project_destroy(p);
}

/* One broken field at a time, resealed so the structure check is reached. */
static void reader_refuses_broken_terrain_sets(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  TessProject *p = pack_fixture_project(6, &spec);
  if (!p) return;
  add_sets(p);
  size_t size = 0;
  uint8_t *data = write(p, &size);
  tess_project_destroy(p);
  if (!data) return;
  size_t ters = tlv_find_entry(data, size, TLV_SEC_TERRAIN_SETS);
  size_t terc = tlv_find_entry(data, size, TLV_SEC_TERRAIN_COLORS);
  size_t tert = tlv_find_entry(data, size, TLV_SEC_TERRAIN_TILES);
  CHECK(ters && terc && tert);
  if (!ters || !terc || !tert) {
    tess_free(data);
    return;
  }
  uint64_t sets = tlv_get64(data + ters + 8), colors = tlv_get64(data + terc + 8), tiles = tlv_get64(data + tert + 8);
  struct {
    uint64_t at;
    uint32_t value;
    const char *words;
  } cases[] = {
      {sets + 0, 0, "tileset 0"},   /* no tileset */
      {sets + 0, 99, "tileset 99"}, /* beyond TSET */
      {sets + 8, 3, "kind 3"},
      {sets + 12, 100000, "icon tile"},
      {sets + 16, 1, "sets take them in order"}, /* colours not from 0 */
      {sets + 20, 255, "255 colours"},
      {sets + 32 + 28, 0, "belong to no set"},           /* the second set leaves its tile over */
      {colors + 8, 0xbf800000u, "negative probability"}, /* -1.0f */
      {colors + 8, 0x7fc00000u, "not finite"},           /* NaN */
      {colors + 12, 70000, "terrain colour 0: tile"},
      {tiles + 4, 0x00000300u, "colour 3 at position 1"}, /* corner colour beyond the set's 2 */
      {tiles + 4, 0x00000001u, "colour 1 at position 0"}, /* an edge in a corner set */
      {tiles + 16, 0, "after 0"},                         /* tile order: 0 after 0 */
      {tiles + 12, 0xff800000u, "not finite"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t *copy = tess_alloc(size);
    memcpy(copy, data, size);
    tlv_put32(copy + cases[i].at, cases[i].value);
    tlv_reseal(copy, size);
    TlvLevel lv;
    TlvError e;
    memset(&e, 0, sizeof e);
    TlvResult r = tlv_open(copy, size, 0, &lv, &e);
    CHECK_MSG(r != TLV_OK && strstr(e.message, cases[i].words), "case %zu: %s: %s (wanted \"%s\")", i,
              tlv_result_string(r), e.message, cases[i].words);
    CHECK_MSG((e.offset >= cases[i].at - 28 && e.offset <= cases[i].at + 32) || strstr(cases[i].words, "no set"),
              "case %zu: error at byte %llu, the field is at %llu", i, (unsigned long long)e.offset,
              (unsigned long long)cases[i].at);
    tess_free(copy);
  }
  tess_free(data);
}

TESS_TEST_MAIN(TEST(terrain_sets_round_trip), TEST(reader_refuses_broken_terrain_sets))
