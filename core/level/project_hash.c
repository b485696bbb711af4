/* Content hashes of the project and of one level: everything the user made
 * (materials, tilesets with their PNG bytes and tile info, sprites with
 * their masks, levels, layers, cells, objects, properties), never history,
 * pending changes or id counters. Every value goes through the hasher's
 * typed helpers, so padding and byte order never leak into the result. */
#include "level_private.h"

static void hash_name(TessHasher *h, const char name[TESS_NAME_MAX]) {
  size_t n = strnlen(name, TESS_NAME_MAX);
  tess_hasher_u64(h, n);
  tess_hasher_bytes(h, name, n);
}

static void hash_vec(TessHasher *h, TessVec2 v) {
  tess_hasher_f32(h, v.x);
  tess_hasher_f32(h, v.y);
}

static void hash_polygon(TessHasher *h, const TessPolygon *poly) {
  uint32_t n = poly->count <= TESS_POLY_MAX ? poly->count : TESS_POLY_MAX;
  tess_hasher_u32(h, poly->count);
  for (uint32_t i = 0; i < n; i++) hash_vec(h, poly->v[i]);
}

static void hash_material(TessHasher *h, const TessMaterial *m) {
  tess_hasher_u32(h, m->id);
  hash_name(h, m->name);
  tess_hasher_u32(h, m->color);
  tess_hasher_f32(h, m->friction);
  tess_hasher_f32(h, m->restitution);
  tess_hasher_f32(h, m->tangential);
  tess_hasher_f32(h, m->density);
  tess_hasher_u32(h, (uint32_t)m->kind);
}

static void hash_tileset(TessHasher *h, const TessTileset *ts) {
  tess_hasher_u32(h, ts->id);
  hash_name(h, ts->name);
  tess_hasher_str(h, ts->source_path);
  tess_hasher_u64(h, ts->png_size);
  if (ts->png_size) tess_hasher_bytes(h, ts->png, ts->png_size);
  uint32_t fields[] = {ts->image_w, ts->image_h, ts->tile_w, ts->tile_h, ts->margin,
                       ts->spacing, ts->columns, ts->tile_count, ts->alpha_threshold};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) tess_hasher_u32(h, fields[i]);
  /* Where tiles are drawn, only when it is not the default: projects made
   * before these fields existed keep their hashes. */
  if (ts->offset_x || ts->offset_y || ts->fit_cell) {
    tess_hasher_u32(h, 0x4F464653u); /* "OFFS" */
    tess_hasher_u32(h, (uint32_t)ts->offset_x);
    tess_hasher_u32(h, (uint32_t)ts->offset_y);
    tess_hasher_u32(h, ts->fit_cell);
  }
  for (uint32_t i = 0; ts->tiles && i < ts->tile_count; i++) {
    const TessTileInfo *t = &ts->tiles[i];
    tess_hasher_u32(h, t->material);
    tess_hasher_u32(h, (uint32_t)t->collision | (uint32_t)t->one_way << 8);
    tess_hasher_u32(h, t->piece_count);
    for (uint32_t k = 0; t->pieces && k < t->piece_count; k++) hash_polygon(h, &t->pieces[k]);
  }
  /* Only a tileset with terrain sets hashes them, so every hash made before
   * terrain sets existed stays what it was. */
  for (uint32_t i = 0; ts->terrains && i < ts->terrain_count; i++) {
    const TessTerrainSet *set = &ts->terrains[i];
    hash_name(h, set->name);
    tess_hasher_u32(h, set->kind);
    tess_hasher_u32(h, (uint32_t)set->tile);
    tess_hasher_u32(h, set->color_count);
    for (uint32_t c = 0; c < set->color_count; c++) {
      hash_name(h, set->colors[c].name);
      tess_hasher_u32(h, set->colors[c].color);
      tess_hasher_f32(h, set->colors[c].probability);
      tess_hasher_u32(h, (uint32_t)set->colors[c].tile);
    }
    tess_hasher_u32(h, set->tile_count);
    for (uint32_t k = 0; k < set->tile_count; k++) {
      tess_hasher_u32(h, set->tiles[k].tile);
      tess_hasher_bytes(h, set->tiles[k].wang, TESS_TERRAIN_POSITIONS);
      tess_hasher_f32(h, set->tiles[k].probability);
    }
  }
}

static void hash_sprite(TessHasher *h, const TessSprite *s) {
  tess_hasher_u32(h, s->id);
  hash_name(h, s->name);
  tess_hasher_str(h, s->source_path);
  tess_hasher_u64(h, s->png_size);
  if (s->png_size) tess_hasher_bytes(h, s->png, s->png_size);
  tess_hasher_u32(h, s->image_w);
  tess_hasher_u32(h, s->image_h);
  tess_hasher_u32(h, s->frame_count);
  tess_hasher_f32(h, s->frame_rate);
  hash_vec(h, s->anchor);
  const TessSpriteMask *m = &s->mask;
  tess_hasher_u32(h, (uint32_t)m->threshold | (uint32_t)m->mode << 8 | (uint32_t)m->manual << 16 |
                         (uint32_t)m->largest_island_only << 24);
  tess_hasher_u32(h, m->max_vertices);
  tess_hasher_f32(h, m->tolerance);
  tess_hasher_u32(h, m->hull_count);
  for (uint32_t i = 0; m->hull && i < m->hull_count; i++) hash_vec(h, m->hull[i]);
  tess_hasher_u32(h, m->piece_count);
  for (uint32_t i = 0; m->pieces && i < m->piece_count; i++) hash_polygon(h, &m->pieces[i]);
  hash_vec(h, m->circle_center);
  tess_hasher_f32(h, m->circle_radius);
  double d[] = {m->area, m->centroid_x, m->centroid_y, m->inertia, m->shape_area, m->shape_centroid_x,
                m->shape_centroid_y, m->shape_inertia, m->added_area, m->uncovered_area};
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) tess_hasher_f64(h, d[i]);
}

static void hash_object(TessHasher *h, const TessObject *o) {
  tess_hasher_u32(h, o->id);
  tess_hasher_u32(h, o->kind);
  hash_name(h, o->name);
  hash_vec(h, o->pos);
  tess_hasher_f32(h, o->angle);
  /* The depth came later: hashed only when set (as the motor below). */
  if (o->depth) {
    tess_hasher_u32(h, 0x44455000u); /* 'DEP' */
    tess_hasher_u32(h, (uint32_t)o->depth);
  }
  switch (o->kind) {
    case TESS_OBJECT_BODY: {
      const TessBodyObject *b = &o->u.body;
      tess_hasher_u32(h, (uint32_t)b->shape | (uint32_t)b->type << 8 | (uint32_t)b->pin << 16 |
                             (uint32_t)b->sensor << 24);
      tess_hasher_u32(h, b->sprite);
      tess_hasher_u32(h, b->material);
      tess_hasher_f32(h, b->radius);
      tess_hasher_f32(h, b->width);
      tess_hasher_f32(h, b->height);
      tess_hasher_u32(h, b->category);
      tess_hasher_u32(h, b->mask);
      /* The integrator came later: hashed only when it is not the default, so a level
       * whose bodies all use Euler keeps the content hash (and packed files) it had. */
      if (b->integrator != TESS_INTEGRATOR_EULER) tess_hasher_u32(h, 0x494E5400u | b->integrator); /* 'INT' */
      if (b->collide_pixels) tess_hasher_u32(h, 0x42504958u);                                      /* "BPIX": likewise, only when set */
      break;
    }
    case TESS_OBJECT_JOINT: {
      const TessJointObject *j = &o->u.joint;
      tess_hasher_u32(h, (uint32_t)j->kind | (uint32_t)j->limit_enabled << 8);
      tess_hasher_u32(h, j->body_a);
      tess_hasher_u32(h, j->body_b);
      hash_vec(h, j->anchor_b);
      tess_hasher_f32(h, j->length);
      tess_hasher_f32(h, j->lower);
      tess_hasher_f32(h, j->upper);
      /* The motor came later: hashed only when set, so a level without
       * motors keeps the content hash it had before (and its packed files). */
      uint32_t speed_bits, torque_bits;
      memcpy(&speed_bits, &j->motor_speed, sizeof speed_bits);
      memcpy(&torque_bits, &j->motor_torque, sizeof torque_bits);
      if (j->motor_enabled || speed_bits || torque_bits) {
        tess_hasher_u32(h, 0x4D4F5400u | (uint32_t)j->motor_enabled); /* 'MOT' + the flag */
        tess_hasher_u32(h, speed_bits);
        tess_hasher_u32(h, torque_bits);
      }
      break;
    }
    case TESS_OBJECT_ZONE: {
      const TessZoneObject *z = &o->u.zone;
      tess_hasher_u32(h, z->kind);
      tess_hasher_f32(h, z->width);
      tess_hasher_f32(h, z->height);
      hash_vec(h, z->vector);
      tess_hasher_f32(h, z->strength);
      tess_hasher_f32(h, z->radius);
      break;
    }
    case TESS_OBJECT_LAUNCHER: {
      const TessLauncherObject *l = &o->u.launcher;
      tess_hasher_f32(h, l->speed);
      tess_hasher_f32(h, l->radius);
      tess_hasher_u32(h, l->material);
      tess_hasher_u32(h, l->sprite);
      break;
    }
    default:
      break;
  }
  tess_hasher_u32(h, o->prop_count);
  for (uint32_t i = 0; o->props && i < o->prop_count; i++) {
    const TessProperty *pr = &o->props[i];
    hash_name(h, pr->name);
    tess_hasher_u32(h, pr->type);
    switch (pr->type) {
      case TESS_PROP_STRING: tess_hasher_str(h, pr->v.s); break;
      case TESS_PROP_INT: tess_hasher_u64(h, (uint64_t)pr->v.i); break;
      case TESS_PROP_FLOAT: tess_hasher_f64(h, pr->v.f); break;
      case TESS_PROP_BOOL: tess_hasher_u32(h, pr->v.b ? 1u : 0u); break;
      case TESS_PROP_COLOR: tess_hasher_u32(h, pr->v.color); break;
      default: break;
    }
  }
}

/* Cells are hashed as little-endian 32-bit words. On a little-endian
 * machine that is the array's own memory, hashed in one call (the 64 MiB of
 * a 4096 x 4096 layer in a few milliseconds); elsewhere each row is
 * byte-swapped into a buffer first, giving the same result. */
static void hash_cells(TessHasher *h, const uint32_t *cells) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  tess_hasher_bytes(h, cells, TESS_CHUNK_CELLS * sizeof *cells);
#else
  unsigned char row[TESS_CHUNK_SIZE * 4];
  for (uint32_t y = 0; y < TESS_CHUNK_SIZE; y++) {
    for (uint32_t x = 0; x < TESS_CHUNK_SIZE; x++) {
      uint32_t v = cells[y * TESS_CHUNK_SIZE + x];
      row[x * 4] = (unsigned char)v;
      row[x * 4 + 1] = (unsigned char)(v >> 8);
      row[x * 4 + 2] = (unsigned char)(v >> 16);
      row[x * 4 + 3] = (unsigned char)(v >> 24);
    }
    tess_hasher_bytes(h, row, sizeof row);
  }
#endif
}

static void hash_layer(TessHasher *h, const TessLayer *layer) {
  const TessLayerProps *pr = &layer->props;
  tess_hasher_u32(h, pr->id);
  hash_name(h, pr->name);
  tess_hasher_u32(h, (uint32_t)pr->kind | (uint32_t)pr->visible << 8 | (uint32_t)pr->locked << 16 |
                         (uint32_t)pr->collides << 24);
  if (pr->collide_pixels) tess_hasher_u32(h, 0x50495853u); /* "PIXS"; layers without it hash as before */
  tess_hasher_f32(h, pr->opacity);
  if (pr->y_sort) tess_hasher_u32(h, 0x59534F52u); /* 'YSOR', only when set: older levels keep their hash */
  if (layer->chunks) {
    for (uint32_t cy = 0; cy < layer->chunks_y; cy++) {
      for (uint32_t cx = 0; cx < layer->chunks_x; cx++) {
        const TessChunk *c = layer->chunks[(size_t)cy * layer->chunks_x + cx];
        if (!c || c->used == 0) continue;
        tess_hasher_u32(h, cx);
        tess_hasher_u32(h, cy);
        hash_cells(h, c->cells);
      }
    }
  }
  tess_hasher_u32(h, 0xFFFFFFFFu); /* end of cells */
  tess_hasher_u32(h, layer->object_count);
  for (uint32_t i = 0; i < layer->object_count; i++) hash_object(h, &layer->objects[i]);
}

static void hash_level(TessHasher *h, const TessLevel *level) {
  const TessLevelSettings *s = &level->settings;
  tess_hasher_u32(h, level->id);
  hash_name(h, s->name);
  tess_hasher_u32(h, s->width);
  tess_hasher_u32(h, s->height);
  tess_hasher_u32(h, s->tile_w);
  tess_hasher_u32(h, s->tile_h);
  tess_hasher_f32(h, s->ppm);
  hash_vec(h, s->gravity);
  tess_hasher_u32(h, s->view);
  tess_hasher_f32(h, s->physics_hz);
  tess_hasher_u32(h, s->substeps);
  tess_hasher_f32(h, s->floor_drag);
  tess_hasher_u32(h, level->layer_count);
  for (uint32_t i = 0; i < level->layer_count; i++) hash_layer(h, level->layers[i]);
}

static void hash_materials(TessHasher *h, const TessProject *p) {
  tess_hasher_u32(h, p->material_count);
  for (uint32_t i = 0; i < p->material_count; i++) hash_material(h, &p->materials[i]);
}

uint64_t tess_project_hash(const TessProject *p) {
  TessHasher h;
  tess_hasher_init(&h);
  hash_materials(&h, p);
  tess_hasher_u32(&h, p->tileset_count);
  for (uint32_t i = 0; i < p->tileset_count; i++) hash_tileset(&h, p->tilesets[i]);
  tess_hasher_u32(&h, p->sprite_count);
  for (uint32_t i = 0; i < p->sprite_count; i++) hash_sprite(&h, p->sprites[i]);
  tess_hasher_u32(&h, p->level_count);
  for (uint32_t i = 0; i < p->level_count; i++) hash_level(&h, p->levels[i]);
  return tess_hasher_finish(&h);
}

/* A level's export depends on every material (a body's material 0 means the
 * project's first), on the tilesets its cells name and on the sprites its
 * bodies use; unrelated tilesets and sprites do not change its hash. */
uint64_t tess_level_content_hash(const TessProject *p, const TessLevel *level) {
  static const uint32_t words = (TESS_TILESET_ID_MAX + 64) / 64;
  uint64_t used_tilesets[(TESS_TILESET_ID_MAX + 64) / 64] = {0};
  for (uint32_t i = 0; i < level->layer_count; i++) {
    const TessLayer *layer = level->layers[i];
    if (layer->props.kind != TESS_LAYER_TILES || !layer->chunks) continue;
    size_t n = (size_t)layer->chunks_x * layer->chunks_y;
    for (size_t k = 0; k < n; k++) {
      const TessChunk *c = layer->chunks[k];
      if (!c) continue;
      /* A chunk painted from one tileset is the rule: a branch-free pass
       * (which the compiler vectorises) finds those, the rest go cell by cell. */
      uint32_t first = c->cells[0] & 0x0FFF0000u, differ = 0;
      for (uint32_t j = 0; j < TESS_CHUNK_CELLS; j++) differ |= (c->cells[j] & 0x0FFF0000u) ^ first;
      if (!differ) {
        uint32_t ts = first >> 16;
        used_tilesets[ts / 64] |= 1ull << (ts % 64);
        continue;
      }
      uint32_t last = UINT32_MAX;
      for (uint32_t j = 0; j < TESS_CHUNK_CELLS; j++) {
        uint32_t ts = TESS_CELL_TILESET(c->cells[j]);
        if (ts == last) continue;
        last = ts;
        used_tilesets[ts / 64] |= 1ull << (ts % 64);
      }
    }
  }
  TessHasher h;
  tess_hasher_init(&h);
  hash_materials(&h, p);
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    TessId id = p->tilesets[i]->id;
    if (id < words * 64 && (used_tilesets[id / 64] >> (id % 64) & 1)) hash_tileset(&h, p->tilesets[i]);
  }
  for (uint32_t i = 0; i < p->sprite_count; i++) {
    const TessSprite *s = p->sprites[i];
    bool used = false;
    for (uint32_t l = 0; !used && l < level->layer_count; l++) {
      const TessLayer *layer = level->layers[l];
      for (uint32_t k = 0; !used && k < layer->object_count; k++) {
        const TessObject *o = &layer->objects[k];
        used = o->kind == TESS_OBJECT_BODY && o->u.body.shape == TESS_BODY_SPRITE && o->u.body.sprite == s->id;
      }
    }
    if (used) hash_sprite(&h, s);
  }
  hash_level(&h, level);
  return tess_hasher_finish(&h);
}
