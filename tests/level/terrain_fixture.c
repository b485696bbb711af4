#include "terrain_fixture.h"

static void add_tile(TessTerrainSet *set, uint32_t tile, const uint8_t wang[8], float probability) {
  TessError err;
  CHECK_OK(tess_terrain_set_label(set, tile, wang, probability, &err), &err);
}

void terrain_fixture_set(TessTerrainSet *set, TessTestRng *rng, TessTerrainKind kind, uint32_t colors, double keep,
                         uint32_t variants) {
  static const uint32_t rgba[] = {0x4caf50ff, 0x2196f3ff, 0x795548ff, 0xffeb3bff};
  static const char *names[] = {"Grass", "Water", "Dirt", "Sand"};
  TessError err;
  tess_terrain_set_init(set, kind == TESS_TERRAIN_CORNER ? "Corners" : kind == TESS_TERRAIN_EDGE ? "Edges"
                                                                                                 : "Mixed",
                        kind);
  for (uint32_t c = 0; c < colors; c++) CHECK_OK(tess_terrain_set_add_color(set, names[c], rgba[c], NULL, &err), &err);
  /* A shuffled deal of the tileset's tiles. */
  uint32_t deal[TERRAIN_FIXTURE_TILES];
  for (uint32_t i = 0; i < TERRAIN_FIXTURE_TILES; i++) deal[i] = i;
  for (uint32_t i = TERRAIN_FIXTURE_TILES - 1; i > 0; i--) {
    uint32_t j = tess_rng_below(rng, i + 1), t = deal[i];
    deal[i] = deal[j];
    deal[j] = t;
  }
  uint8_t mask = tess_terrain_kind_mask(kind);
  int pos[8], n = 0;
  for (int k = 0; k < 8; k++)
    if ((mask >> k) & 1) pos[n++] = k;
  uint32_t combos = 1;
  for (int k = 0; k < n; k++) combos *= colors;
  uint32_t used = 0;
  for (uint32_t code = 0; code < combos && used < TERRAIN_FIXTURE_TILES; code++) {
    if (keep < 1.0 && tess_rng_unit(rng) >= keep && !(code + 1 == combos && used == 0)) continue;
    uint8_t wang[8] = {0};
    uint32_t rest = code;
    for (int k = 0; k < n; k++) {
      wang[pos[k]] = (uint8_t)(rest % colors + 1);
      rest /= colors;
    }
    add_tile(set, deal[used++], wang, 1.0f);
  }
  for (uint32_t v = 0; v < variants && used < TERRAIN_FIXTURE_TILES; v++) {
    uint8_t wang[8] = {0};
    for (int k = 0; k < n; k++) wang[pos[k]] = (uint8_t)(tess_rng_below(rng, colors) + 1);
    add_tile(set, deal[used++], wang, (float)(0.1 + tess_rng_unit(rng)));
  }
}

TessId terrain_fixture_tileset(TessProject *p, const TessTerrainSet *set) {
  static uint8_t png[] = {0x89, 'P', 'N', 'G', 7, 7, 7};
  TessError err;
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Terrain";
  def.png = png;
  def.png_size = sizeof png;
  def.image_w = 256;
  def.image_h = 256;
  def.tile_w = 16;
  def.tile_h = 16;
  TessId id = 0;
  CHECK_OK(tess_edit_tileset_add(p, &def, &id, &err), &err);
  TessTileset copy;
  CHECK_OK(tess_tileset_copy(&copy, tess_project_tileset(p, id)), &err);
  copy.terrain_count = 1;
  copy.terrains = tess_calloc(1, sizeof *copy.terrains);
  CHECK(copy.terrains != NULL);
  CHECK_OK(tess_terrain_set_copy(&copy.terrains[0], set), &err);
  CHECK_OK(tess_edit_tileset_set(p, &copy, 0, &err), &err);
  tess_tileset_clear(&copy);
  return id;
}
