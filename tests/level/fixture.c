#include "fixture.h"

void fixture_sprite(TessSprite *s, const char *name) {
  static uint8_t png[] = {0x89, 'P', 'N', 'G', 1, 2, 3, 4};
  static TessVec2 hull[4] = {{0, 0}, {8, 0}, {8, 8}, {0, 8}};
  static TessPolygon piece = {4, {{0, 0}, {8, 0}, {8, 8}, {0, 8}}};
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  s->png = png;
  s->png_size = sizeof png;
  s->image_w = 16;
  s->image_h = 8;
  s->frame_count = 2;
  s->frame_rate = 8;
  s->anchor = tess_v2(4, 4);
  tess_sprite_mask_default(&s->mask);
  s->mask.hull_count = 4;
  s->mask.hull = hull;
  s->mask.piece_count = 1;
  s->mask.pieces = &piece;
  s->mask.area = 64;
  s->mask.centroid_x = 4;
  s->mask.centroid_y = 4;
}

void fixture_make(Fixture *f) {
  TessError err;
  memset(f, 0, sizeof *f);
  f->p = tess_project_create();
  CHECK(f->p != NULL);
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "Stone");
  CHECK_OK(tess_edit_material_add(f->p, &m, &f->stone, &err), &err);
  snprintf(m.name, sizeof m.name, "Grass");
  m.kind = TESS_MATERIAL_FLOOR;
  m.friction = 0.9f;
  CHECK_OK(tess_edit_material_add(f->p, &m, &f->grass, &err), &err);
  snprintf(m.name, sizeof m.name, "Water");
  m.kind = TESS_MATERIAL_FLUID;
  m.density = 1000;
  CHECK_OK(tess_edit_material_add(f->p, &m, &f->water, &err), &err);

  static uint8_t png[] = {0x89, 'P', 'N', 'G', 9, 9, 9};
  TessTilesetDef def;
  tess_tileset_def_default(&def);
  def.name = "Cave";
  def.png = png;
  def.png_size = sizeof png;
  def.image_w = 64;
  def.image_h = 64;
  def.tile_w = 16;
  def.tile_h = 16;
  def.default_material = f->stone;
  CHECK_OK(tess_edit_tileset_add(f->p, &def, &f->tileset, &err), &err);

  TessSprite s;
  fixture_sprite(&s, "Crate");
  CHECK_OK(tess_edit_sprite_add(f->p, &s, &f->sprite, &err), &err);

  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  ls.width = 100;
  ls.height = 80;
  ls.tile_w = 16;
  ls.tile_h = 16;
  CHECK_OK(tess_edit_level_add(f->p, &ls, &f->level, &err), &err);
  TessLevel *level = tess_project_level(f->p, f->level);
  CHECK(level && level->layer_count == 3);
  if (level && level->layer_count == 3) {
    f->ground = level->layers[0]->props.id;
    f->materials = level->layers[1]->props.id;
    f->objects = level->layers[2]->props.id;
  }
  tess_project_clear_history(f->p);
  tess_project_clear_changes(f->p);
}

void fixture_free(Fixture *f) {
  tess_project_destroy(f->p);
  f->p = NULL;
}

void check_layer_invariants(const TessProject *p) {
  for (uint32_t l = 0; l < p->level_count; l++) {
    const TessLevel *level = p->levels[l];
    for (uint32_t k = 0; k < level->layer_count; k++) {
      const TessLayer *layer = level->layers[k];
      if (!layer->chunks) continue;
      CHECK(layer->chunks_x == (level->settings.width + 31) / 32);
      CHECK(layer->chunks_y == (level->settings.height + 31) / 32);
      for (uint32_t i = 0; i < layer->chunks_x * layer->chunks_y; i++) {
        const TessChunk *c = layer->chunks[i];
        if (!c) continue;
        uint32_t used = 0;
        for (uint32_t j = 0; j < TESS_CHUNK_CELLS; j++) used += c->cells[j] != 0;
        CHECK_MSG(used == c->used && used > 0, "layer %u chunk %u used %u counted %u", layer->props.id, i, c->used,
                  used);
      }
    }
  }
}
