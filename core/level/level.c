/* Levels: settings, their ordered layers, lookups by id. */
#include "level_private.h"

void tess_level_settings_default(TessLevelSettings *s) {
  memset(s, 0, sizeof *s);
  memcpy(s->name, "Level", 6);
  s->width = 64;
  s->height = 36;
  s->tile_w = 32;
  s->tile_h = 32;
  s->ppm = 32.0f;
  s->gravity = tess_v2(0.0f, 9.81f);
  s->view = TESS_VIEW_SIDE;
  s->physics_hz = 60.0f;
  s->substeps = 4;
  s->floor_drag = 1.0f;
}

static TessResult check_float(float v, float lo, float hi, bool lo_open, const char *field, TessError *err) {
  if (isnan(v)) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level %s is NaN", field);
  if (isinf(v)) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level %s is infinite", field);
  if ((lo_open ? v <= lo : v < lo) || v > hi)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level %s %g is outside %s%g, %g]", field, (double)v,
                          lo_open ? "(" : "[", (double)lo, (double)hi);
  return TESS_OK;
}

TessResult tess_level_settings_validate(const TessLevelSettings *s, TessError *err) {
  TessResult r;
  if ((r = level_name_check(s->name, false, "level", err))) return r;
  if (s->width < 1 || s->width > TESS_LEVEL_MAX_CELLS)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "level width %u is outside 1..%d cells", s->width,
                          TESS_LEVEL_MAX_CELLS);
  if (s->height < 1 || s->height > TESS_LEVEL_MAX_CELLS)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "level height %u is outside 1..%d cells", s->height,
                          TESS_LEVEL_MAX_CELLS);
  /* Checked before anything the size of the level is allocated. */
  if ((uint64_t)s->width * s->height > TESS_LEVEL_MAX_AREA)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "level size %ux%u is %llu cells (at most %u, such as 4096x4096)",
                          s->width, s->height, (unsigned long long)s->width * s->height, TESS_LEVEL_MAX_AREA);
  if (s->tile_w < 1 || s->tile_w > 4096 || s->tile_h < 1 || s->tile_h > 4096)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level tile size %ux%u is outside 1..4096 px", s->tile_w,
                          s->tile_h);
  if ((uint64_t)s->width * s->tile_w > TESS_LEVEL_MAX_PX || (uint64_t)s->height * s->tile_h > TESS_LEVEL_MAX_PX)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "level is %llux%llu px (at most %u px a side)",
                          (unsigned long long)s->width * s->tile_w, (unsigned long long)s->height * s->tile_h,
                          TESS_LEVEL_MAX_PX);
  if ((r = check_float(s->ppm, TESS_LEVEL_MIN_PPM, 1e6f, false, "ppm", err))) return r;
  if ((r = check_float(s->gravity.x, -1e6f, 1e6f, false, "gravity.x", err))) return r;
  if ((r = check_float(s->gravity.y, -1e6f, 1e6f, false, "gravity.y", err))) return r;
  if ((r = check_float(s->physics_hz, 0.0f, 10000.0f, true, "physics_hz", err))) return r;
  if ((r = check_float(s->floor_drag, 0.0f, 1e6f, false, "floor_drag", err))) return r;
  if (s->view > TESS_VIEW_TOP_DOWN)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level view %u is unknown", s->view);
  if (s->substeps < 1 || s->substeps > 64)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "level substeps %u is outside 1..64", s->substeps);
  return TESS_OK;
}

TessLevel *level_new(TessId id, const TessLevelSettings *s) {
  TessLevel *level = tess_calloc(1, sizeof *level);
  if (!level) return NULL;
  level->id = id;
  level->settings = *s;
  return level;
}

void level_free(TessLevel *level) {
  if (!level) return;
  for (uint32_t i = 0; i < level->layer_count; i++) level_layer_free(level->layers[i]);
  tess_free(level->layers);
  tess_free(level);
}

bool level_insert_layer_at(TessLevel *level, TessLayer *layer, uint32_t index) {
  if (index > level->layer_count) index = level->layer_count;
  TessLayer **grown = tess_realloc(level->layers, (level->layer_count + 1) * sizeof *grown);
  if (!grown) return false;
  level->layers = grown;
  memmove(&grown[index + 1], &grown[index], (level->layer_count - index) * sizeof *grown);
  grown[index] = layer;
  level->layer_count++;
  return true;
}

TessLayer *level_take_layer(TessLevel *level, uint32_t index) {
  TessLayer *layer = level->layers[index];
  memmove(&level->layers[index], &level->layers[index + 1], (level->layer_count - index - 1) * sizeof *level->layers);
  level->layer_count--;
  return layer;
}

TessLayer *tess_level_layer(const TessLevel *level, TessId layer_id) {
  int i = tess_level_layer_index(level, layer_id);
  return i < 0 ? NULL : level->layers[i];
}

int tess_level_layer_index(const TessLevel *level, TessId layer_id) {
  if (!level || !layer_id) return -1;
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (level->layers[i]->props.id == layer_id) return (int)i;
  return -1;
}

TessLayer *tess_level_material_layer(const TessLevel *level) {
  for (uint32_t i = 0; level && i < level->layer_count; i++)
    if (level->layers[i]->props.kind == TESS_LAYER_MATERIAL) return level->layers[i];
  return NULL;
}

TessObject *tess_level_object(const TessLevel *level, TessId object_id, TessLayer **layer_out) {
  for (uint32_t i = 0; level && object_id && i < level->layer_count; i++) {
    TessLayer *layer = level->layers[i];
    int k = level_layer_object_index(layer, object_id);
    if (k >= 0) {
      if (layer_out) *layer_out = layer;
      return &layer->objects[k];
    }
  }
  return NULL;
}

size_t tess_level_memory_bytes(const TessLevel *level) {
  size_t bytes = sizeof *level + level->layer_count * sizeof *level->layers;
  for (uint32_t i = 0; i < level->layer_count; i++) bytes += level_layer_memory_bytes(level->layers[i]);
  return bytes;
}

TessObject *level_project_find_object(const TessProject *p, TessId object, TessLevel **level_out,
                                      TessLayer **layer_out) {
  for (uint32_t i = 0; i < p->level_count; i++) {
    TessObject *o = tess_level_object(p->levels[i], object, layer_out);
    if (o) {
      if (level_out) *level_out = p->levels[i];
      return o;
    }
  }
  return NULL;
}
