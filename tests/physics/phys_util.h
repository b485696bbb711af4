/* Small builders shared by the physics tests and benchmarks. */
#ifndef TESS_TEST_PHYS_UTIL_H
#define TESS_TEST_PHYS_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "tessera/physics.h"

/* A map of w x h cells of `cell` metres, all EMPTY with material 0. */
typedef struct TestMap {
  uint32_t w, h;
  float cell;
  uint8_t *kinds;
  uint8_t *one_way;
  uint16_t *materials;
  TessMapMaterial mats[8];
  uint32_t mat_count;
} TestMap;

static inline void test_map_init(TestMap *m, uint32_t w, uint32_t h, float cell) {
  memset(m, 0, sizeof *m);
  m->w = w;
  m->h = h;
  m->cell = cell;
  m->kinds = calloc((size_t)w * h, 1);
  m->one_way = calloc((size_t)w * h, 1);
  m->materials = calloc((size_t)w * h, sizeof(uint16_t));
  m->mats[0].friction = 0.6f;
  m->mats[0].restitution = 0.0f;
  m->mats[0].tangential = 1.0f;
  m->mats[0].density = 1000.0f;
  m->mats[0].kind = TESS_MAP_MATERIAL_SOLID;
  m->mat_count = 1;
}

static inline uint16_t test_map_material(TestMap *m, float friction, float restitution, float tangential,
                                         float density, uint8_t kind) {
  TessMapMaterial *t = &m->mats[m->mat_count];
  t->friction = friction;
  t->restitution = restitution;
  t->tangential = tangential;
  t->density = density;
  t->kind = kind;
  return (uint16_t)m->mat_count++;
}

static inline void test_map_set(TestMap *m, uint32_t x, uint32_t y, uint8_t kind, uint16_t material) {
  if (x >= m->w || y >= m->h) return;
  m->kinds[(size_t)y * m->w + x] = kind;
  m->materials[(size_t)y * m->w + x] = material;
}

static inline TessResult test_map_apply(TestMap *m, TessWorld *world, TessError *err) {
  TessTileMapDef d;
  memset(&d, 0, sizeof d);
  d.width = m->w;
  d.height = m->h;
  d.cell_w = d.cell_h = m->cell;
  d.kinds = m->kinds;
  d.one_way = m->one_way;
  d.materials = m->materials;
  d.material_count = m->mat_count;
  d.material_list = m->mats;
  return tess_world_set_tile_map(world, &d, err);
}

static inline void test_map_free(TestMap *m) {
  free(m->kinds);
  free(m->one_way);
  free(m->materials);
}

#endif
