/* The project: its containers (sorted by id where ids are looked up), id
 * counters, lookups, and building a project from a file (insert_*). */
#include "level_private.h"

TessProject *tess_project_create(void) {
  TessProject *p = tess_calloc(1, sizeof *p);
  if (!p) return NULL;
  for (int k = 0; k < TESS_ID_KIND_COUNT; k++) p->next_id[k] = 1;
  p->history = level_history_create();
  p->changes = level_change_log_create();
  if (!p->history || !p->changes) {
    tess_project_destroy(p);
    return NULL;
  }
  return p;
}

void tess_project_destroy(TessProject *p) {
  if (!p) return;
  /* History first: its ops may hold items detached from the project. */
  level_history_destroy(p->history);
  level_change_log_destroy(p->changes);
  tess_free(p->materials);
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    tess_tileset_clear(p->tilesets[i]);
    tess_free(p->tilesets[i]);
  }
  tess_free(p->tilesets);
  for (uint32_t i = 0; i < p->sprite_count; i++) {
    tess_sprite_clear(p->sprites[i]);
    tess_free(p->sprites[i]);
  }
  tess_free(p->sprites);
  for (uint32_t i = 0; i < p->level_count; i++) level_free(p->levels[i]);
  tess_free(p->levels);
  tess_free(p);
}

/* ---- ids ---- */

void level_project_note_id(TessProject *p, TessIdKind kind, TessId id) {
  if (id >= p->next_id[kind]) p->next_id[kind] = id + 1;
}

void tess_project_reserve_ids(TessProject *p, TessIdKind kind, TessId end) {
  if (end > p->next_id[kind]) p->next_id[kind] = end;
}

void tess_project_want_id(TessProject *p, TessIdKind kind, TessId id) { p->wanted_id[kind] = id; }

TessId level_project_take_id(TessProject *p, TessIdKind kind, TessId max) {
  if (p->wanted_id[kind]) {
    TessId want = p->wanted_id[kind];
    p->wanted_id[kind] = 0;
    if (want <= max) {
      level_project_note_id(p, kind, want);
      return want;
    }
  }
  TessId id = p->next_id[kind] ? p->next_id[kind] : 1;
  if (id > max) return 0;
  p->next_id[kind] = id + 1;
  return id;
}

/* ---- lookups: binary search over arrays sorted by id ---- */

/* Index of the first element with id >= `id` (the insertion point). */
#define LOWER_BOUND(arr, count, ID_OF, id, out)      \
  do {                                               \
    uint32_t lo_ = 0, hi_ = (count);                 \
    while (lo_ < hi_) {                              \
      uint32_t mid_ = lo_ + (hi_ - lo_) / 2;         \
      if (ID_OF((arr)[mid_]) < (id)) lo_ = mid_ + 1; \
      else hi_ = mid_;                               \
    }                                                \
    (out) = lo_;                                     \
  } while (0)
#define ID_VAL(x) ((x).id)
#define ID_PTR(x) ((x)->id)

int level_project_material_index(const TessProject *p, TessId id) {
  uint32_t i;
  LOWER_BOUND(p->materials, p->material_count, ID_VAL, id, i);
  return (i < p->material_count && p->materials[i].id == id) ? (int)i : -1;
}

int level_project_tileset_index(const TessProject *p, TessId id) {
  uint32_t i;
  LOWER_BOUND(p->tilesets, p->tileset_count, ID_PTR, id, i);
  return (i < p->tileset_count && p->tilesets[i]->id == id) ? (int)i : -1;
}

int level_project_sprite_index(const TessProject *p, TessId id) {
  uint32_t i;
  LOWER_BOUND(p->sprites, p->sprite_count, ID_PTR, id, i);
  return (i < p->sprite_count && p->sprites[i]->id == id) ? (int)i : -1;
}

int level_project_level_index(const TessProject *p, TessId id) {
  for (uint32_t i = 0; id && i < p->level_count; i++)
    if (p->levels[i]->id == id) return (int)i;
  return -1;
}

const TessMaterial *tess_project_material(const TessProject *p, TessId id) {
  int i = id ? level_project_material_index(p, id) : -1;
  return i < 0 ? NULL : &p->materials[i];
}

const TessMaterial *tess_project_material_by_name(const TessProject *p, const char *name) {
  for (uint32_t i = 0; name && i < p->material_count; i++)
    if (strcmp(p->materials[i].name, name) == 0) return &p->materials[i];
  return NULL;
}

TessTileset *tess_project_tileset(const TessProject *p, TessId id) {
  int i = id ? level_project_tileset_index(p, id) : -1;
  return i < 0 ? NULL : p->tilesets[i];
}

TessSprite *tess_project_sprite(const TessProject *p, TessId id) {
  int i = id ? level_project_sprite_index(p, id) : -1;
  return i < 0 ? NULL : p->sprites[i];
}

TessLevel *tess_project_level(const TessProject *p, TessId id) {
  int i = level_project_level_index(p, id);
  return i < 0 ? NULL : p->levels[i];
}

TessLevel *tess_project_level_by_name(const TessProject *p, const char *name) {
  for (uint32_t i = 0; name && i < p->level_count; i++)
    if (strcmp(p->levels[i]->settings.name, name) == 0) return p->levels[i];
  return NULL;
}

const TessTileInfo *tess_project_tile(const TessProject *p, TessCell cell) {
  if (!cell) return NULL;
  const TessTileset *ts = tess_project_tileset(p, TESS_CELL_TILESET(cell));
  uint32_t tile = TESS_CELL_TILE(cell);
  if (!ts || !ts->tiles || tile >= ts->tile_count) return NULL;
  return &ts->tiles[tile];
}

/* ---- insert: building a project from a file ---- */

TessResult tess_project_insert_material(TessProject *p, const TessMaterial *m, TessError *err) {
  TessResult r = tess_material_validate(m, err);
  if (r) return r;
  if (m->id == 0) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "material %s has id 0", m->name);
  uint32_t i;
  LOWER_BOUND(p->materials, p->material_count, ID_VAL, m->id, i);
  if (i < p->material_count && p->materials[i].id == m->id)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "material id %u appears twice", m->id);
  TessMaterial *grown = tess_realloc(p->materials, (p->material_count + 1) * sizeof *grown);
  if (!grown) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  p->materials = grown;
  memmove(&grown[i + 1], &grown[i], (p->material_count - i) * sizeof *grown);
  grown[i] = *m;
  p->material_count++;
  level_project_note_id(p, TESS_ID_MATERIAL, m->id);
  return TESS_OK;
}

TessResult tess_project_insert_tileset(TessProject *p, const TessTileset *ts, TessError *err) {
  /* Tile materials may refer to materials the file lists later: not checked here. */
  TessResult r = level_tileset_validate(NULL, ts, err);
  if (r) return r;
  uint32_t i;
  LOWER_BOUND(p->tilesets, p->tileset_count, ID_PTR, ts->id, i);
  if (i < p->tileset_count && p->tilesets[i]->id == ts->id)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "tileset id %u appears twice", ts->id);
  TessTileset *copy = tess_calloc(1, sizeof *copy);
  TessTileset **grown = copy ? tess_realloc(p->tilesets, (p->tileset_count + 1) * sizeof *grown) : NULL;
  if (!grown || tess_tileset_copy(copy, ts) != TESS_OK) {
    if (grown) p->tilesets = grown;
    tess_free(copy);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  p->tilesets = grown;
  memmove(&grown[i + 1], &grown[i], (p->tileset_count - i) * sizeof *grown);
  grown[i] = copy;
  p->tileset_count++;
  level_project_note_id(p, TESS_ID_TILESET, ts->id);
  return TESS_OK;
}

TessResult tess_project_insert_sprite(TessProject *p, const TessSprite *s, TessError *err) {
  TessResult r = level_sprite_validate(s, err);
  if (r) return r;
  if (s->id == 0) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s has id 0", s->name);
  uint32_t i;
  LOWER_BOUND(p->sprites, p->sprite_count, ID_PTR, s->id, i);
  if (i < p->sprite_count && p->sprites[i]->id == s->id)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite id %u appears twice", s->id);
  TessSprite *copy = tess_calloc(1, sizeof *copy);
  TessSprite **grown = copy ? tess_realloc(p->sprites, (p->sprite_count + 1) * sizeof *grown) : NULL;
  if (!grown || tess_sprite_copy(copy, s) != TESS_OK) {
    if (grown) p->sprites = grown;
    tess_free(copy);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  p->sprites = grown;
  memmove(&grown[i + 1], &grown[i], (p->sprite_count - i) * sizeof *grown);
  grown[i] = copy;
  p->sprite_count++;
  level_project_note_id(p, TESS_ID_SPRITE, s->id);
  return TESS_OK;
}

TessResult tess_project_insert_level(TessProject *p, TessId id, const TessLevelSettings *s, TessLevel **out,
                                     TessError *err) {
  TessResult r = tess_level_settings_validate(s, err);
  if (r) return r;
  if (id == 0) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level %s has id 0", s->name);
  if (tess_project_level(p, id))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level id %u appears twice", id);
  TessLevel *level = level_new(id, s);
  TessLevel **grown = level ? tess_realloc(p->levels, (p->level_count + 1) * sizeof *grown) : NULL;
  if (!grown) {
    level_free(level);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  p->levels = grown;
  grown[p->level_count++] = level;
  level_project_note_id(p, TESS_ID_LEVEL, id);
  if (out) *out = level;
  return TESS_OK;
}

static bool layer_id_used(const TessProject *p, TessId id) {
  for (uint32_t i = 0; i < p->level_count; i++)
    if (tess_level_layer_index(p->levels[i], id) >= 0) return true;
  return false;
}

TessResult tess_level_insert_layer(TessProject *p, TessLevel *level, const TessLayerProps *props,
                                   TessLayer **out, TessError *err) {
  TessResult r = level_layer_props_validate(props, err);
  if (r) return r;
  if (props->id == 0) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s has id 0", props->name);
  if (layer_id_used(p, props->id))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer id %u appears twice", props->id);
  if (props->kind == TESS_LAYER_MATERIAL && tess_level_material_layer(level))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level %s already has a material layer",
                          level->settings.name);
  TessLayer *layer = level_layer_new(props, level->settings.width, level->settings.height);
  if (!layer || !level_insert_layer_at(level, layer, level->layer_count)) {
    level_layer_free(layer);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  level_project_note_id(p, TESS_ID_LAYER, props->id);
  if (out) *out = layer;
  return TESS_OK;
}

TessResult tess_layer_insert_object(TessProject *p, TessLayer *layer, const TessObject *obj, TessError *err) {
  if (layer->props.kind != TESS_LAYER_OBJECTS)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "layer %s does not hold objects", layer->props.name);
  TessResult r = tess_object_validate(obj, err);
  if (r) return r;
  if (obj->id == 0) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "object %s has id 0", obj->name);
  if (!level_layer_reserve_objects(layer, layer->object_count + 1) ||
      tess_object_copy(&layer->objects[layer->object_count], obj) != TESS_OK)
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  layer->object_count++;
  level_project_note_id(p, TESS_ID_OBJECT, obj->id);
  return TESS_OK;
}
