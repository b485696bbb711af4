/* Terrain sets in the project file: flushed and reopened exactly (names,
 * kinds, colours, labels, probabilities to the bit), through edits and undo;
 * the real step 2 -> 3 (a schema-2 file reads in place with no terrain sets
 * and upgrades when opened for writing); a damaged BLOB names its column. */
#include <unistd.h>

#include "store_tests.h"

/* Two sets on the sample's tileset: a mixed set with odd probabilities and
 * a corner set whose colour stands for a tile. */
static void add_terrains(TessProject *p, TessId tileset) {
  TessError err;
  TessTileset ts;
  CHECK_OK(tess_tileset_copy(&ts, tess_project_tileset(p, tileset)), &err);
  tess_terrain_sets_free(ts.terrains, ts.terrain_count);
  ts.terrain_count = 2;
  ts.terrains = tess_calloc(2, sizeof *ts.terrains);
  TessTerrainSet *a = &ts.terrains[0], *b = &ts.terrains[1];
  tess_terrain_set_init(a, "Cliffs é", TESS_TERRAIN_MIXED);
  CHECK_OK(tess_terrain_set_add_color(a, "Rock", 0x808080ff, NULL, &err), &err);
  CHECK_OK(tess_terrain_set_add_color(a, "Moss", 0x30a030ff, NULL, &err), &err);
  a->colors[1].probability = 0.1f + 1e-7f;
  a->tile = 3;
  const uint8_t w1[8] = {1, 2, 1, 2, 1, 2, 1, 2}, w2[8] = {2, 2, 2, 2, 2, 2, 2, 2};
  CHECK_OK(tess_terrain_set_label(a, 5, w1, 0.3f, &err), &err);
  CHECK_OK(tess_terrain_set_label(a, 1, w2, 1.0f, &err), &err);
  tess_terrain_set_init(b, "Pond", TESS_TERRAIN_CORNER);
  CHECK_OK(tess_terrain_set_add_color(b, "Water", 0x2040ffff, NULL, &err), &err);
  b->colors[0].tile = 2;
  const uint8_t w3[8] = {0, 1, 0, 1, 0, 1, 0, 1};
  CHECK_OK(tess_terrain_set_label(b, 2, w3, 1.0f, &err), &err);
  CHECK_OK(tess_edit_tileset_set(p, &ts, 0, &err), &err);
  tess_tileset_clear(&ts);
}

static void same_terrains(const TessProject *p, const char *path, TessId tileset) {
  TessProject *q = load_file(path);
  CHECK(q != NULL);
  if (!q) return;
  CHECK(tess_project_hash(q) == tess_project_hash(p));
  const TessTileset *a = tess_project_tileset(p, tileset), *b = tess_project_tileset(q, tileset);
  CHECK(a && b && a->terrain_count == b->terrain_count);
  for (uint32_t i = 0; a && b && i < a->terrain_count && i < b->terrain_count; i++) {
    const TessTerrainSet *x = &a->terrains[i], *y = &b->terrains[i];
    CHECK(strcmp(x->name, y->name) == 0 && x->kind == y->kind && x->tile == y->tile);
    CHECK(x->color_count == y->color_count && x->tile_count == y->tile_count);
    for (uint32_t c = 0; c < x->color_count && c < y->color_count; c++)
      CHECK(strcmp(x->colors[c].name, y->colors[c].name) == 0 && x->colors[c].color == y->colors[c].color &&
            memcmp(&x->colors[c].probability, &y->colors[c].probability, 4) == 0 && x->colors[c].tile == y->colors[c].tile);
    for (uint32_t t = 0; t < x->tile_count && t < y->tile_count; t++)
      CHECK(x->tiles[t].tile == y->tiles[t].tile && memcmp(x->tiles[t].wang, y->tiles[t].wang, 8) == 0 &&
            memcmp(&x->tiles[t].probability, &y->tiles[t].probability, 4) == 0);
  }
  tess_project_destroy(q);
}

void terrain_sets_flush_reopen_and_undo(void) {
  char path[512];
  tess_test_path(path, sizeof path, "terrain.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  add_terrains(p, s.tileset);
  create_and_flush(path, p);
  CHECK(sql_int(path, "SELECT count(*) FROM tilesets WHERE terrains IS NOT NULL") == 1);
  same_terrains(p, path, s.tileset);
  /* Undo the edit that added them: flushed, the column is NULL again. */
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err), &err);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_tileset(p, s.tileset)->terrain_count == 0);
  if (st) {
    CHECK_OK(tess_store_flush(st, p, &err), &err);
    tess_store_close(st);
  }
  CHECK(sql_int(path, "SELECT count(*) FROM tilesets WHERE terrains IS NOT NULL") == 0);
  same_terrains(p, path, s.tileset);
  tess_project_destroy(p);
}

void terrain_migration_step_3(void) {
  char path[512], fresh[512];
  tess_test_path(path, sizeof path, "schema2.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  /* What a schema-2 build wrote: no terrains column. */
  CHECK(schema_downgrade(path, 2));
  CHECK(forget_integrators(p) >= 1); /* what the file can hold */
  TessProject *q = load_file(path);  /* read-only: read in place */
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  if (q) tess_project_destroy(q);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == 2);
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &st, &err), &err);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'schema_version'") == TESS_STORE_SCHEMA_VERSION);
  add_terrains(p, s.tileset);
  if (st) {
    CHECK_OK(tess_store_flush(st, p, &err), &err);
    tess_store_close(st);
  }
  same_terrains(p, path, s.tileset);
  /* The upgraded table has a new file's columns. */
  tess_test_path(fresh, sizeof fresh, "fresh-schema3.tessera");
  unlink(fresh);
  CHECK_OK(tess_store_open(fresh, TESS_STORE_CREATE, &st, &err), &err);
  if (st) tess_store_close(st);
  CHECK(sql_int(path, "SELECT count(*) FROM pragma_table_info('tilesets')") ==
        sql_int(fresh, "SELECT count(*) FROM pragma_table_info('tilesets')"));
  /* A damaged BLOB: refused, naming the column, for each way it can be wrong. */
  static const char *const damage[] = {
      "UPDATE tilesets SET terrains = x'01000000'",                             /* a set promised, none there */
      "UPDATE tilesets SET terrains = x'00000000ff'",                           /* bytes after the last set */
      "UPDATE tilesets SET terrains = x'01000000ffffffff'",                     /* a name longer than the BLOB */
      "UPDATE tilesets SET terrains = x'0100000001000000410000000000ffffffff'", /* counts beyond it */
  };
  for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
    CHECK(sql_exec(path, damage[i]));
    CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &st, &err), &err);
    if (!st) continue;
    TessProject *bad = NULL;
    TessResult r = tess_store_load(st, &bad, &err);
    CHECK_MSG(r == TESS_ERR_FORMAT && strstr(err.detail, "terrains"), "damage %zu: %s", i, err.detail);
    if (bad) tess_project_destroy(bad);
    tess_store_close(st);
  }
  tess_project_destroy(p);
}
