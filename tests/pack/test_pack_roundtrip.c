/* Level -> .tlv -> reader: the same cells, materials, tiles, collision,
 * geometry and objects; byte-identical output on every thread. */
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "pack_check.h"
#include "pack_fixture.h"
#include "tessera/pack.h"
#include "tlv_reader.h"
#include "tlv_reseal.h"

static void open_ok(const uint8_t *data, size_t size, TlvLevel *lv) {
  TlvError e;
  memset(&e, 0, sizeof e);
  TlvResult r = tlv_open(data, size, 0, lv, &e);
  CHECK_MSG(r == TLV_OK, "tlv_open: %s at byte %llu: %s", tlv_result_string(r), (unsigned long long)e.offset, e.message);
}

static void random_levels_round_trip(void) {
  uint32_t auto_pins = 0, traced_entries = 0, has_mass = 0;
  for (uint64_t seed = 1; seed <= 12; seed++) {
    PackFixtureSpec spec;
    pack_fixture_spec_default(&spec);
    spec.width = 8 + (uint32_t)(seed * 7 % 70);
    spec.height = 5 + (uint32_t)(seed * 5 % 50);
    spec.tile_layers = 1 + seed % 3;
    spec.noise = seed % 4 == 0;
    spec.levels = 2;
    TessProject *p = pack_fixture_project(seed, &spec);
    CHECK(p != NULL);
    if (!p) continue;
    for (uint32_t i = 0; i < p->level_count; i++) {
      uint8_t *data = NULL;
      size_t size = 0;
      TessError err;
      CHECK_OK(tess_pack_write(p, p->levels[i], NULL, &data, &size, &err), &err);
      if (!data) continue;
      CHECK(size % 16 == 0);
      TlvLevel lv;
      open_ok(data, size, &lv);
      if (!tess_test_failures) pack_check_level(p, p->levels[i], &lv);
      /* The fixture always has walls, bodies of each kind, joints, zones, spawns, properties. */
      CHECK(lv.rects.count > 0 && lv.loops.count > 0 && lv.corners.count >= lv.loops.count * 4);
      CHECK(lv.bodies.count == spec.bodies && lv.shapes.count >= spec.bodies && lv.joints.count > 0);
      CHECK(lv.zones.count == spec.zones && lv.spawns.count == spec.spawns && lv.properties.count > 0);
      CHECK_MSG(lv.sprites.count == 2 && lv.tilesets.count >= 1 && lv.collision_palette.count > 2, "seed %llu: %u sprites, %u tilesets, %u collision entries", (unsigned long long)seed, lv.sprites.count, lv.tilesets.count, lv.collision_palette.count);
      CHECK(lv.header.content_hash == tess_pack_content_hash(p, p->levels[i], NULL));
      for (uint32_t k = 0; k < lv.joints.count; k++) {
        TlvJoint j;
        tlv_joint(&lv, k, &j);
        auto_pins += (j.flags & TLV_JOINT_AUTO_PIN) != 0;
      }
      for (uint32_t k = 0; k < lv.collision_palette.count; k++) {
        TlvCollisionEntry e;
        tlv_collision_entry(&lv, k, &e);
        traced_entries += e.polygon_count > 0;
      }
      for (uint32_t k = 0; k < lv.bodies.count; k++) {
        TlvBody b;
        tlv_body(&lv, k, &b);
        has_mass += b.has_mass;
      }
      tess_free(data);
    }
    tess_project_destroy(p);
  }
  /* The fixture places pin-on-overlap bodies and traced tiles: both must reach the file. */
  printf("  %u auto-pins, %u traced collision entries, %u bodies with pixel mass\n", auto_pins, traced_entries, has_mass);
  CHECK(auto_pins > 0 && traced_entries > 0);
}

/* Cells whose palette needs 16 bits (noise over a tileset of many tiles is
 * not enough): write a level whose cells use all flip combinations of
 * every tile of both tilesets, and more than 256 distinct values. */
static void wide_palette_uses_16_bit_cells(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.width = 64;
  spec.height = 64;
  spec.tile_layers = 1;
  spec.noise = true;
  TessProject *p = pack_fixture_project(99, &spec);
  CHECK(p != NULL);
  if (!p) return;
  TessLevel *level = p->levels[0];
  TessLayer *ground = NULL;
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_TILES) ground = level->layers[i];
  uint32_t cells[64 * 64], n = 0;
  const TessTileset *ts = p->tilesets[0];
  for (uint32_t k = 0; k < 64 * 64; k++) {
    uint32_t tile = k % ts->tile_count, flips = (k / ts->tile_count) % 8;
    cells[n++] = TESS_CELL_MAKE(ts->id, tile, flips << 29);
  }
  TessError err;
  CHECK_OK(tess_edit_set_cells(p, level->id, ground->props.id, 0, 0, 64, 64, cells, 0, &err), &err);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(p, level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  open_ok(data, size, &lv);
  TlvLayer layer;
  bool found16 = false;
  for (uint32_t i = 0; i < lv.layers.count; i++)
    if (tlv_layer(&lv, i, &layer) && layer.kind == TLV_LAYER_TILES && layer.id == ground->props.id)
      found16 = layer.cell_width == 2 && layer.palette_count == 1 + 8 * ts->tile_count;
  CHECK(found16);
  pack_check_level(p, level, &lv);
  tess_free(data);
  tess_project_destroy(p);
}

/* Materials painted over traced tiles do not widen the collision grid: the
 * grid's entries hold the shapes (each traced tile with its flips) and the
 * material layer, already in the file, gives the painted material. Every
 * traced tile of a tileset in all 8 flips (96 shapes) under 4 painted
 * materials and none would need 480 entries, and so 16-bit cells, if each
 * entry also carried the material. */
static void painted_materials_keep_the_grid_at_8_bits(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.width = 64;
  spec.height = 60;
  spec.tile_layers = 1;
  TessProject *p = pack_fixture_project(5, &spec);
  CHECK(p != NULL);
  if (!p) return;
  TessLevel *level = p->levels[0];
  const TessLayer *ground = NULL;
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_TILES && level->layers[i]->props.collides) ground = level->layers[i];
  CHECK(ground != NULL && p->material_count == 4);
  if (!ground) {
    tess_project_destroy(p);
    return;
  }
  const TessTileset *ts = p->tilesets[0];
  uint32_t traced[64], nt = 0;
  for (uint32_t t = 0; t < ts->tile_count && nt < 64; t++)
    if (ts->tiles[t].collision == TESS_TILE_COLLISION_TRACED) traced[nt++] = t;
  CHECK(nt * 8 > 51 && nt * 8 < 200);
  static uint32_t cells[64 * 60];
  for (uint32_t k = 0; k < 64 * 60; k++) {
    uint32_t shape = (k * 7 + k / 64) % (nt * 8); /* every shape in every band */
    cells[k] = TESS_CELL_MAKE(ts->id, traced[shape % nt], (shape / nt) << 29);
  }
  TessError err;
  CHECK_OK(tess_edit_set_cells(p, level->id, ground->props.id, 0, 0, 64, 60, cells, 0, &err), &err);
  CHECK_OK(tess_edit_paint_material(p, level->id, 0, 0, 64, 60, 0, 0, &err), &err); /* no paint left from the fixture */
  for (uint32_t m = 0; m < 4; m++)                                                  /* bands 1..4 painted, band 0 not */
    CHECK_OK(tess_edit_paint_material(p, level->id, 0, (int32_t)(12 * (m + 1)), 64, 12, p->materials[m].id, 0, &err), &err);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(p, level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  open_ok(data, size, &lv);
  /* What an entry per (shape, material) would have needed. */
  {
    uint8_t *seen = tess_calloc((size_t)lv.collision_palette.count * (lv.materials.count + 1), 1);
    uint32_t pairs = 0, overridden = 0;
    for (uint32_t y = 0; y < 60; y++)
      for (uint32_t x = 0; x < 64; x++) {
        TlvCollisionEntry e;
        CHECK(tlv_collision_cell(&lv, x, y, &e));
        uint32_t idx = ((const uint8_t *)lv.collision_grid.data)[y * 64 + x];
        uint8_t *s = &seen[(size_t)idx * (lv.materials.count + 1) + e.material];
        pairs += !*s;
        *s = 1;
        TlvCollisionEntry own;
        CHECK(tlv_collision_entry(&lv, idx, &own));
        overridden += own.material != e.material;
      }
    tess_free(seen);
    printf("  %u collision entries for %u (shape, material) pairs; %u cells take the painted material\n",
           lv.collision_palette.count, pairs, overridden);
    CHECK(pairs > 255 && overridden > 0);
  }
  CHECK_MSG(lv.collision_grid.stride == 1 && lv.collision_palette.count <= 256, "grid of %u bytes per cell, %u entries",
            lv.collision_grid.stride, lv.collision_palette.count);
  CHECK(lv.material_cells != NULL);
  pack_check_level(p, level, &lv);
  tess_free(data);
  tess_project_destroy(p);
}

/* Where the material layer's value is not the cell's material by the rule
 * (the reader would take it), the cell gets an entry of its own material
 * without the override flag, so the file still equals the scene whatever
 * the level holds. The level refuses unknown materials in its material
 * layer, so this writes a file by hand-editing one: the flag cleared on an
 * entry that does not need it must change nothing, and set on an entry
 * whose cells are painted with another material it must change them. */
static void the_override_flag_decides_the_material(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.width = 16;
  spec.height = 8;
  spec.tile_layers = 1;
  TessProject *p = pack_fixture_project(6, &spec);
  CHECK(p != NULL);
  if (!p) return;
  TessLevel *level = p->levels[0];
  TessError err;
  CHECK_OK(tess_edit_paint_material(p, level->id, 0, 0, 16, 8, 0, 0, &err), &err); /* the fixture's paint cleared */
  CHECK_OK(tess_edit_paint_material(p, level->id, 0, 0, 8, 8, p->materials[2].id, 0, &err), &err);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(p, level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  open_ok(data, size, &lv);
  pack_check_level(p, level, &lv);
  uint32_t painted = 0, unpainted = 0;
  for (uint32_t y = 0; y < 8; y++)
    for (uint32_t x = 0; x < 16; x++) {
      TlvCollisionEntry cell, own;
      uint32_t idx = ((const uint8_t *)lv.collision_grid.data)[y * 16 + x];
      CHECK(tlv_collision_cell(&lv, x, y, &cell) && tlv_collision_entry(&lv, idx, &own));
      CHECK(own.flags == TLV_COLLISION_OVERRIDE); /* the rule holds everywhere in a level made by the editor */
      if (x < 8) {                                /* painted: the layer's material whatever the entry holds */
        CHECK(cell.material == 3);
        painted += own.material != 3;
      } else {
        CHECK(cell.material == own.material);
        unpainted++;
      }
    }
  CHECK(painted > 0 && unpainted > 0);
  /* Without the flag, an entry's own material is the cell's, painted or not. */
  uint8_t *flags0 = (uint8_t *)data + lv.collision_palette.offset + 10;
  for (uint32_t k = 0; k < lv.collision_palette.count; k++) flags0[(size_t)k * lv.collision_palette.stride] = 0;
  tlv_reseal(data, size);
  open_ok(data, size, &lv);
  for (uint32_t y = 0; y < 8; y++)
    for (uint32_t x = 0; x < 16; x++) {
      TlvCollisionEntry cell, own;
      uint32_t idx = ((const uint8_t *)lv.collision_grid.data)[y * 16 + x];
      CHECK(tlv_collision_cell(&lv, x, y, &cell) && tlv_collision_entry(&lv, idx, &own));
      CHECK(cell.material == own.material && cell.flags == 0);
    }
  tess_free(data);
  tess_project_destroy(p);
}

static void empty_layers_use_8_bit_cells(void) {
  TessProject *p = tess_project_create();
  TessLevelSettings st;
  tess_level_settings_default(&st);
  st.width = 3;
  st.height = 2;
  TessId id;
  TessError err;
  CHECK_OK(tess_edit_level_add(p, &st, &id, &err), &err);
  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(p, tess_project_level(p, id), NULL, &data, &size, &err), &err);
  TlvLevel lv;
  open_ok(data, size, &lv);
  TlvLayer layer;
  CHECK(lv.layers.count == 2);
  CHECK(tlv_layer(&lv, 0, &layer) && layer.cell_width == 1 && layer.palette_count == 1);
  CHECK(lv.rects.count == 0 && lv.loops.count == 0 && lv.bodies.count == 0);
  pack_check_level(p, tess_project_level(p, id), &lv);
  tess_free(data);
  tess_project_destroy(p);
}

typedef struct Job {
  const TessProject *p;
  const TessLevel *level;
  uint8_t *data;
  size_t size;
} Job;

static void *write_job(void *arg) {
  Job *j = arg;
  TessError err;
  if (tess_pack_write(j->p, j->level, NULL, &j->data, &j->size, &err) != TESS_OK) j->data = NULL;
  return NULL;
}

static void output_is_byte_identical_on_any_thread(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.levels = 3;
  spec.tile_layers = 3;
  TessProject *p = pack_fixture_project(7, &spec);
  TessProject *again = pack_fixture_project(7, &spec); /* a second, independent build of the same input */
  CHECK(p && again);
  if (!p || !again) return;
  for (uint32_t i = 0; i < p->level_count; i++) {
    Job jobs[4];
    pthread_t threads[4];
    for (int t = 0; t < 4; t++) {
      jobs[t] = (Job){t % 2 ? again : p, (t % 2 ? again : p)->levels[i], NULL, 0};
      pthread_create(&threads[t], NULL, write_job, &jobs[t]);
    }
    for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
    uint8_t *data = NULL;
    size_t size = 0;
    TessError err;
    CHECK_OK(tess_pack_write(p, p->levels[i], NULL, &data, &size, &err), &err);
    for (int t = 0; t < 4; t++) {
      CHECK(jobs[t].data && jobs[t].size == size && memcmp(jobs[t].data, data, size) == 0);
      tess_free(jobs[t].data);
    }
    tess_free(data);
  }
  tess_project_destroy(p);
  tess_project_destroy(again);
}

static void embedded_images_are_in_the_blob(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  TessProject *p = pack_fixture_project(3, &spec);
  CHECK(p != NULL);
  if (!p) return;
  /* Give the first tileset some PNG-like bytes to carry. */
  TessTileset copy;
  memset(&copy, 0, sizeof copy);
  TessError err;
  CHECK_OK(tess_tileset_copy(&copy, p->tilesets[0]), &err);
  uint8_t bytes[300];
  for (int i = 0; i < 300; i++) bytes[i] = (uint8_t)(i * 7);
  tess_free(copy.png);
  copy.png = tess_alloc(sizeof bytes);
  memcpy(copy.png, bytes, sizeof bytes);
  copy.png_size = sizeof bytes;
  CHECK_OK(tess_edit_tileset_set(p, &copy, 0, &err), &err);
  tess_tileset_clear(&copy);
  TessPackOptions opt;
  tess_pack_options_default(&opt);
  opt.embed_images = true;
  uint8_t *data = NULL, *plain = NULL;
  size_t size = 0, plain_size = 0;
  CHECK_OK(tess_pack_write(p, p->levels[0], &opt, &data, &size, &err), &err);
  CHECK_OK(tess_pack_write(p, p->levels[0], NULL, &plain, &plain_size, &err), &err);
  TlvLevel lv;
  open_ok(data, size, &lv);
  CHECK(lv.header.flags & TLV_FLAG_IMAGES);
  CHECK(lv.header.content_hash != tess_pack_content_hash(p, p->levels[0], NULL));
  TlvTileset t;
  bool found = false;
  for (uint32_t i = 0; i < lv.tilesets.count; i++) {
    if (tlv_tileset(&lv, i, &t) && t.id == p->tilesets[0]->id) {
      const uint8_t *img = tlv_blob(&lv, t.image_offset, t.image_size);
      found = img && t.image_size == sizeof bytes && memcmp(img, bytes, sizeof bytes) == 0;
    }
  }
  CHECK(found);
  CHECK(plain_size < size);
  tess_free(data);
  tess_free(plain);
  tess_project_destroy(p);
}

/* A .tlv rebuilt into a project (for tools) holds the same cells, tiles,
 * materials and objects. */
static void project_from_pack_keeps_the_level(void) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.tile_layers = 3;
  TessProject *p = pack_fixture_project(21, &spec);
  CHECK(p != NULL);
  if (!p) return;
  const TessLevel *level = p->levels[0];
  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  CHECK_OK(tess_pack_write(p, level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  open_ok(data, size, &lv);
  TessProject *q = NULL;
  CHECK_OK(tess_project_from_pack(&lv, NULL, &q, &err), &err);
  if (q) {
    CHECK(q->level_count == 1 && q->material_count == p->material_count && q->sprite_count == 2);
    const TessLevel *back = q->levels[0];
    CHECK(back->id == level->id && strcmp(back->settings.name, level->settings.name) == 0);
    uint32_t k = 0, objects = 0, objects_back = 0;
    for (uint32_t li = 0; li < level->layer_count; li++) {
      const TessLayer *a = level->layers[li];
      objects += a->object_count;
      if (a->props.kind == TESS_LAYER_OBJECTS) continue;
      const TessLayer *b = back->layers[k++];
      CHECK(b->props.id == a->props.id && b->props.kind == a->props.kind);
      int bad = 0;
      for (uint32_t y = 0; y < level->settings.height; y++)
        for (uint32_t x = 0; x < level->settings.width; x++)
          bad += tess_layer_cell(a, x, y) != tess_layer_cell(b, x, y);
      CHECK_MSG(bad == 0, "layer %u: %d cells differ", li, bad);
    }
    for (uint32_t li = 0; li < back->layer_count; li++) objects_back += back->layers[li]->object_count;
    CHECK(objects_back == objects);
    /* Every cell collides as before. */
    int bad = 0;
    for (uint32_t y = 0; y < level->settings.height; y++)
      for (uint32_t x = 0; x < level->settings.width; x++) {
        TessCellCollision c1, c2;
        tess_level_cell_collision(p, level, x, y, &c1);
        tess_level_cell_collision(q, back, x, y, &c2);
        bad += c1.kind != c2.kind || c1.material != c2.material || c1.cell != c2.cell || c1.one_way != c2.one_way;
      }
    CHECK(bad == 0);
    tess_project_destroy(q);
  }
  tess_free(data);
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(random_levels_round_trip), TEST(project_from_pack_keeps_the_level), TEST(wide_palette_uses_16_bit_cells), TEST(painted_materials_keep_the_grid_at_8_bits),
               TEST(the_override_flag_decides_the_material), TEST(empty_layers_use_8_bit_cells),
               TEST(output_is_byte_identical_on_any_thread), TEST(embedded_images_are_in_the_blob))
