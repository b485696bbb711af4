/* Undo ops for the project's structure: levels, layers, objects. */
#include "level_private.h"

static size_t layer_bytes(const TessLayer *layer) { return level_layer_memory_bytes(layer); }

/* ---- levels ---- */

typedef struct LevelPresenceOp {
  TessOp base;
  TessLevel *level;
  uint32_t index;
  bool add;
} LevelPresenceOp;

static TessResult level_presence_apply(TessProject *p, TessOp *base, bool forward) {
  LevelPresenceOp *op = (LevelPresenceOp *)base;
  if (op->add == forward) {
    TessLevel **grown = tess_realloc(p->levels, (p->level_count + 1) * sizeof *grown);
    if (!grown) return TESS_ERR_NOMEM;
    p->levels = grown;
    uint32_t i = op->index <= p->level_count ? op->index : p->level_count;
    memmove(&grown[i + 1], &grown[i], (p->level_count - i) * sizeof *grown);
    grown[i] = op->level;
    p->level_count++;
  } else {
    int i = level_project_level_index(p, op->level->id);
    if (i < 0) return TESS_ERR_NOT_FOUND;
    op->index = (uint32_t)i;
    memmove(&p->levels[i], &p->levels[i + 1], (p->level_count - i - 1) * sizeof *p->levels);
    p->level_count--;
  }
  level_project_note_level_content(p, op->level);
  return TESS_OK;
}

static void level_presence_destroy(TessOp *base, bool undone) {
  LevelPresenceOp *op = (LevelPresenceOp *)base;
  if (op->add == undone) level_free(op->level);
  tess_free(op);
}

static const TessOpClass level_presence_class = {"level presence", level_presence_apply, level_presence_destroy, NULL};

TessOp *level_op_level_presence(TessLevel *level, uint32_t index, bool add) {
  LevelPresenceOp *op = level_op_new(sizeof *op, &level_presence_class);
  if (!op) {
    if (add) level_free(level);
    return NULL;
  }
  op->level = level;
  op->index = index;
  op->add = add;
  op->base.bytes += tess_level_memory_bytes(level);
  return &op->base;
}

typedef struct LevelSwapOp {
  TessOp base;
  TessId level;
  TessLevelSettings other;
  TessLayerContent *contents;
  uint32_t count;
} LevelSwapOp;

void level_layer_content_free(TessLayerContent *c) {
  if (c->chunks) {
    size_t n = (size_t)c->chunks_x * c->chunks_y;
    for (size_t i = 0; i < n; i++) tess_free(c->chunks[i]);
    tess_free(c->chunks);
  }
  for (uint32_t i = 0; i < c->object_count; i++) tess_object_clear(&c->objects[i]);
  tess_free(c->objects);
  memset(c, 0, sizeof *c);
}

static void note_grid(TessProject *p, TessId level, TessId layer, TessChunk **chunks, uint32_t cx_n, uint32_t cy_n) {
  if (!chunks) return;
  for (uint32_t cy = 0; cy < cy_n; cy++)
    for (uint32_t cx = 0; cx < cx_n; cx++)
      if (chunks[(size_t)cy * cx_n + cx]) level_project_note_change(p, TESS_CHANGE_CHUNK, 0, level, layer, cx, cy);
}

static TessResult level_swap_apply(TessProject *p, TessOp *base, bool forward) {
  LevelSwapOp *op = (LevelSwapOp *)base;
  TessLevel *level = tess_project_level(p, op->level);
  if (!level) return TESS_ERR_NOT_FOUND;
  for (uint32_t i = 0; i < op->count; i++)
    if (!tess_level_layer(level, op->contents[i].layer)) return TESS_ERR_NOT_FOUND;
  TessLevelSettings tmp = level->settings;
  level->settings = op->other;
  op->other = tmp;
  level_project_note_change(p, TESS_CHANGE_LEVEL, level->id, level->id, 0, 0, 0);
  for (uint32_t i = 0; i < op->count; i++) {
    TessLayerContent *c = &op->contents[i];
    TessLayer *layer = tess_level_layer(level, c->layer);
    TessLayerContent live = {c->layer, layer->chunks_x, layer->chunks_y, layer->chunks, layer->object_count,
                             layer->objects};
    layer->chunks_x = c->chunks_x;
    layer->chunks_y = c->chunks_y;
    layer->chunks = c->chunks;
    layer->object_count = c->object_count;
    layer->objects = c->objects;
    *c = live;
    /* Chunks that were there before and chunks there now: the store rewrites both. */
    note_grid(p, level->id, c->layer, c->chunks, c->chunks_x, c->chunks_y);
    note_grid(p, level->id, c->layer, layer->chunks, layer->chunks_x, layer->chunks_y);
    for (uint32_t k = 0; k < layer->object_count; k++)
      level_project_note_change(p, TESS_CHANGE_OBJECT, layer->objects[k].id, level->id, c->layer, 0, 0);
  }
  return TESS_OK;
}

static void level_swap_destroy(TessOp *base, bool undone) {
  LevelSwapOp *op = (LevelSwapOp *)base;
  for (uint32_t i = 0; i < op->count; i++) level_layer_content_free(&op->contents[i]);
  tess_free(op->contents);
  tess_free(op);
}

static const TessOpClass level_swap_class = {"level set", level_swap_apply, level_swap_destroy, NULL};

TessOp *level_op_level_swap(TessId level, const TessLevelSettings *other, TessLayerContent *contents,
                            uint32_t content_count) {
  LevelSwapOp *op = level_op_new(sizeof *op, &level_swap_class);
  if (!op) {
    for (uint32_t i = 0; i < content_count; i++) level_layer_content_free(&contents[i]);
    tess_free(contents);
    return NULL;
  }
  op->level = level;
  op->other = *other;
  op->contents = contents;
  op->count = content_count;
  for (uint32_t i = 0; i < content_count; i++) {
    TessLayerContent *c = &contents[i];
    size_t n = (size_t)c->chunks_x * c->chunks_y;
    if (c->chunks) {
      op->base.bytes += n * sizeof(TessChunk *) + 16;
      for (size_t k = 0; k < n; k++)
        if (c->chunks[k]) op->base.bytes += sizeof(TessChunk) + 16;
    }
    op->base.bytes += c->object_count * sizeof(TessObject) + 16;
  }
  op->base.bytes += content_count * sizeof *contents + 16;
  return &op->base;
}

/* ---- layers ---- */

typedef struct LayerPresenceOp {
  TessOp base;
  TessId level;
  TessLayer *layer;
  uint32_t index;
  bool add;
} LayerPresenceOp;

static TessResult layer_presence_apply(TessProject *p, TessOp *base, bool forward) {
  LayerPresenceOp *op = (LayerPresenceOp *)base;
  TessLevel *level = tess_project_level(p, op->level);
  if (!level) return TESS_ERR_NOT_FOUND;
  if (op->add == forward) {
    if (!level_insert_layer_at(level, op->layer, op->index)) return TESS_ERR_NOMEM;
  } else {
    int i = tess_level_layer_index(level, op->layer->props.id);
    if (i < 0) return TESS_ERR_NOT_FOUND;
    op->index = (uint32_t)i;
    level_take_layer(level, (uint32_t)i);
  }
  level_project_note_change(p, TESS_CHANGE_LEVEL, level->id, level->id, 0, 0, 0);
  level_project_note_layer_content(p, level->id, op->layer);
  return TESS_OK;
}

static void layer_presence_destroy(TessOp *base, bool undone) {
  LayerPresenceOp *op = (LayerPresenceOp *)base;
  if (op->add == undone) level_layer_free(op->layer);
  tess_free(op);
}

static const TessOpClass layer_presence_class = {"layer presence", layer_presence_apply, layer_presence_destroy, NULL};

TessOp *level_op_layer_presence(TessId level, TessLayer *layer, uint32_t index, bool add) {
  LayerPresenceOp *op = level_op_new(sizeof *op, &layer_presence_class);
  if (!op) {
    if (add) level_layer_free(layer);
    return NULL;
  }
  op->level = level;
  op->layer = layer;
  op->index = index;
  op->add = add;
  op->base.bytes += layer_bytes(layer);
  return &op->base;
}

typedef struct LayerPropsOp {
  TessOp base;
  TessId level;
  TessLayerProps other;
} LayerPropsOp;

static TessResult layer_props_apply(TessProject *p, TessOp *base, bool forward) {
  LayerPropsOp *op = (LayerPropsOp *)base;
  TessLayer *layer = tess_level_layer(tess_project_level(p, op->level), op->other.id);
  if (!layer) return TESS_ERR_NOT_FOUND;
  TessLayerProps tmp = layer->props;
  layer->props = op->other;
  op->other = tmp;
  level_project_note_change(p, TESS_CHANGE_LAYER, tmp.id, op->level, tmp.id, 0, 0);
  return TESS_OK;
}

static void plain_destroy(TessOp *op, bool undone) { tess_free(op); }

static bool layer_props_merge(TessOp *a, TessOp *b) {
  return ((LayerPropsOp *)a)->level == ((LayerPropsOp *)b)->level &&
         ((LayerPropsOp *)a)->other.id == ((LayerPropsOp *)b)->other.id;
}

static const TessOpClass layer_props_class = {"layer props", layer_props_apply, plain_destroy, layer_props_merge};

TessOp *level_op_layer_props(TessId level, const TessLayerProps *other) {
  LayerPropsOp *op = level_op_new(sizeof *op, &layer_props_class);
  if (!op) return NULL;
  op->level = level;
  op->other = *other;
  return &op->base;
}

typedef struct LayerMoveOp {
  TessOp base;
  TessId level, layer;
  uint32_t from, to;
} LayerMoveOp;

static TessResult layer_move_apply(TessProject *p, TessOp *base, bool forward) {
  LayerMoveOp *op = (LayerMoveOp *)base;
  TessLevel *level = tess_project_level(p, op->level);
  if (!level) return TESS_ERR_NOT_FOUND;
  uint32_t from = forward ? op->from : op->to, to = forward ? op->to : op->from;
  if (from >= level->layer_count || to >= level->layer_count || level->layers[from]->props.id != op->layer)
    return TESS_ERR_NOT_FOUND;
  TessLayer *moving = level->layers[from];
  if (from < to) memmove(&level->layers[from], &level->layers[from + 1], (to - from) * sizeof *level->layers);
  else memmove(&level->layers[to + 1], &level->layers[to], (from - to) * sizeof *level->layers);
  level->layers[to] = moving;
  level_project_note_change(p, TESS_CHANGE_LEVEL, level->id, level->id, 0, 0, 0);
  return TESS_OK;
}

static const TessOpClass layer_move_class = {"layer move", layer_move_apply, plain_destroy, NULL};

TessOp *level_op_layer_move(TessId level, TessId layer, uint32_t from, uint32_t to) {
  LayerMoveOp *op = level_op_new(sizeof *op, &layer_move_class);
  if (!op) return NULL;
  op->level = level;
  op->layer = layer;
  op->from = from;
  op->to = to;
  return &op->base;
}

/* ---- objects ---- */

static size_t object_bytes(const TessObject *o) {
  size_t b = o->prop_count * sizeof(TessProperty) + 16;
  for (uint32_t i = 0; i < o->prop_count; i++)
    if (o->props[i].type == TESS_PROP_STRING && o->props[i].v.s) b += strlen(o->props[i].v.s) + 17;
  return b;
}

typedef struct ObjectPresenceOp {
  TessOp base;
  TessId level, layer;
  uint32_t index;
  TessObject obj;
  bool add;
} ObjectPresenceOp;

static TessResult object_presence_apply(TessProject *p, TessOp *base, bool forward) {
  ObjectPresenceOp *op = (ObjectPresenceOp *)base;
  TessLayer *layer = tess_level_layer(tess_project_level(p, op->level), op->layer);
  if (!layer) return TESS_ERR_NOT_FOUND;
  if (op->add == forward) {
    if (!level_layer_reserve_objects(layer, layer->object_count + 1)) return TESS_ERR_NOMEM;
    uint32_t i = op->index <= layer->object_count ? op->index : layer->object_count;
    memmove(&layer->objects[i + 1], &layer->objects[i], (layer->object_count - i) * sizeof *layer->objects);
    layer->objects[i] = op->obj;
    layer->object_count++;
  } else {
    int i = level_layer_object_index(layer, op->obj.id);
    if (i < 0) return TESS_ERR_NOT_FOUND;
    op->index = (uint32_t)i;
    op->obj = layer->objects[i];
    memmove(&layer->objects[i], &layer->objects[i + 1], (layer->object_count - i - 1) * sizeof *layer->objects);
    layer->object_count--;
  }
  level_project_note_change(p, TESS_CHANGE_OBJECT, op->obj.id, op->level, op->layer, 0, 0);
  return TESS_OK;
}

static void object_presence_destroy(TessOp *base, bool undone) {
  ObjectPresenceOp *op = (ObjectPresenceOp *)base;
  if (op->add == undone) tess_object_clear(&op->obj);
  tess_free(op);
}

static const TessOpClass object_presence_class = {"object presence", object_presence_apply, object_presence_destroy,
                                                  NULL};

TessOp *level_op_object_presence(TessId level, TessId layer, uint32_t index, TessObject *obj, bool add) {
  ObjectPresenceOp *op = level_op_new(sizeof *op, &object_presence_class);
  if (!op) {
    if (add) tess_object_clear(obj);
    return NULL;
  }
  op->level = level;
  op->layer = layer;
  op->index = index;
  op->obj = *obj;
  op->add = add;
  op->base.bytes += object_bytes(obj);
  return &op->base;
}

typedef struct ObjectSwapOp {
  TessOp base;
  TessId level;
  TessObject other;
} ObjectSwapOp;

static TessResult object_swap_apply(TessProject *p, TessOp *base, bool forward) {
  ObjectSwapOp *op = (ObjectSwapOp *)base;
  TessLayer *layer = NULL;
  TessObject *live = tess_level_object(tess_project_level(p, op->level), op->other.id, &layer);
  if (!live) return TESS_ERR_NOT_FOUND;
  TessObject tmp = *live;
  *live = op->other;
  op->other = tmp;
  level_project_note_change(p, TESS_CHANGE_OBJECT, tmp.id, op->level, layer->props.id, 0, 0);
  return TESS_OK;
}

static void object_swap_destroy(TessOp *base, bool undone) {
  tess_object_clear(&((ObjectSwapOp *)base)->other);
  tess_free(base);
}

static bool object_swap_merge(TessOp *a, TessOp *b) {
  return ((ObjectSwapOp *)a)->level == ((ObjectSwapOp *)b)->level &&
         ((ObjectSwapOp *)a)->other.id == ((ObjectSwapOp *)b)->other.id;
}

static const TessOpClass object_swap_class = {"object set", object_swap_apply, object_swap_destroy,
                                              object_swap_merge};

TessOp *level_op_object_swap(TessId level, TessObject *other) {
  ObjectSwapOp *op = level_op_new(sizeof *op, &object_swap_class);
  if (!op) {
    tess_object_clear(other);
    return NULL;
  }
  op->level = level;
  op->other = *other;
  op->base.bytes += object_bytes(other);
  return &op->base;
}
