/* Undo ops for the project's assets: materials, tilesets, sprites. An
 * asset removed (or an add undone) is held by its op; a set swaps the live
 * asset with the op's copy, so the addresses others hold stay valid. */
#include "level_private.h"

/* ---- materials ---- */

typedef struct MaterialPresenceOp {
  TessOp base;
  TessMaterial material;
  bool add;
} MaterialPresenceOp;

static TessResult material_insert(TessProject *p, const TessMaterial *m) {
  TessMaterial *grown = tess_realloc(p->materials, (p->material_count + 1) * sizeof *grown);
  if (!grown) return TESS_ERR_NOMEM;
  p->materials = grown;
  uint32_t i = 0;
  while (i < p->material_count && grown[i].id < m->id) i++;
  memmove(&grown[i + 1], &grown[i], (p->material_count - i) * sizeof *grown);
  grown[i] = *m;
  p->material_count++;
  return TESS_OK;
}

static TessResult material_presence_apply(TessProject *p, TessOp *base, bool forward) {
  MaterialPresenceOp *op = (MaterialPresenceOp *)base;
  if (op->add == forward) {
    TessResult r = material_insert(p, &op->material);
    if (r) return r;
  } else {
    int i = level_project_material_index(p, op->material.id);
    if (i < 0) return TESS_ERR_NOT_FOUND;
    op->material = p->materials[i];
    memmove(&p->materials[i], &p->materials[i + 1], (p->material_count - i - 1) * sizeof *p->materials);
    p->material_count--;
  }
  level_project_note_change(p, TESS_CHANGE_MATERIAL, op->material.id, 0, 0, 0, 0);
  return TESS_OK;
}

static void plain_destroy(TessOp *op, bool undone) { tess_free(op); }

static const TessOpClass material_presence_class = {"material presence", material_presence_apply, plain_destroy, NULL};

TessOp *level_op_material_presence(const TessMaterial *m, bool add) {
  MaterialPresenceOp *op = level_op_new(sizeof *op, &material_presence_class);
  if (!op) return NULL;
  op->material = *m;
  op->add = add;
  return &op->base;
}

typedef struct MaterialSwapOp {
  TessOp base;
  TessMaterial other;
} MaterialSwapOp;

static TessResult material_swap_apply(TessProject *p, TessOp *base, bool forward) {
  MaterialSwapOp *op = (MaterialSwapOp *)base;
  int i = level_project_material_index(p, op->other.id);
  if (i < 0) return TESS_ERR_NOT_FOUND;
  TessMaterial tmp = p->materials[i];
  p->materials[i] = op->other;
  op->other = tmp;
  level_project_note_change(p, TESS_CHANGE_MATERIAL, tmp.id, 0, 0, 0, 0);
  return TESS_OK;
}

/* Two sets of the same material in one drag: the first op already holds the
 * oldest value, which is all undo needs. */
static bool material_swap_merge(TessOp *a, TessOp *b) {
  return ((MaterialSwapOp *)a)->other.id == ((MaterialSwapOp *)b)->other.id;
}

static const TessOpClass material_swap_class = {"material set", material_swap_apply, plain_destroy,
                                                material_swap_merge};

TessOp *level_op_material_swap(const TessMaterial *other) {
  MaterialSwapOp *op = level_op_new(sizeof *op, &material_swap_class);
  if (op) op->other = *other;
  return op ? &op->base : NULL;
}

/* ---- tile default materials (a material removed with a replacement) ---- */

typedef struct TileMaterialOp {
  TessOp base;
  TessId tileset, from, to;
  uint32_t count;
  uint32_t *tiles;
} TileMaterialOp;

static TessResult tile_material_apply(TessProject *p, TessOp *base, bool forward) {
  TileMaterialOp *op = (TileMaterialOp *)base;
  TessTileset *ts = tess_project_tileset(p, op->tileset);
  if (!ts) return TESS_ERR_NOT_FOUND;
  for (uint32_t i = 0; i < op->count; i++)
    if (op->tiles[i] < ts->tile_count) ts->tiles[op->tiles[i]].material = forward ? op->to : op->from;
  level_project_note_change(p, TESS_CHANGE_TILESET, ts->id, 0, 0, 0, 0);
  return TESS_OK;
}

static void tile_material_destroy(TessOp *base, bool undone) {
  tess_free(((TileMaterialOp *)base)->tiles);
  tess_free(base);
}

static const TessOpClass tile_material_class = {"tile material", tile_material_apply, tile_material_destroy, NULL};

TessOp *level_op_tile_material(TessId tileset, TessId from, TessId to, const uint32_t *tiles, uint32_t count) {
  TileMaterialOp *op = level_op_new(sizeof *op, &tile_material_class);
  if (!op) return NULL;
  op->tiles = tess_alloc((size_t)count * sizeof *tiles + 1);
  if (!op->tiles) {
    tess_free(op);
    return NULL;
  }
  memcpy(op->tiles, tiles, (size_t)count * sizeof *tiles);
  op->tileset = tileset;
  op->from = from;
  op->to = to;
  op->count = count;
  op->base.bytes += (size_t)count * sizeof *tiles + 16;
  return &op->base;
}

/* ---- tilesets and sprites: heap items in arrays sorted by id ---- */

static size_t tileset_bytes(const TessTileset *ts) {
  size_t b = sizeof *ts + 16 + ts->png_size + 16 + (ts->source_path ? strlen(ts->source_path) + 17 : 0);
  b += (size_t)ts->tile_count * sizeof(TessTileInfo) + 16;
  for (uint32_t i = 0; ts->tiles && i < ts->tile_count; i++)
    if (ts->tiles[i].pieces) b += ts->tiles[i].piece_count * sizeof(TessPolygon) + 16;
  return b;
}

static size_t sprite_bytes(const TessSprite *s) {
  return sizeof *s + 16 + s->png_size + 16 + (s->source_path ? strlen(s->source_path) + 17 : 0) +
         s->mask.hull_count * sizeof(TessVec2) + s->mask.piece_count * sizeof(TessPolygon) + 32;
}

/* Inserts an item into one of the project's pointer arrays sorted by id
 * (typed per array: no casts between pointer-to-pointer types). */
#define SORTED_PTR_INSERT(arr, count, item, result)                       \
  do {                                                                    \
    void *grown_ = tess_realloc((arr), ((count) + 1) * sizeof *(arr));    \
    if (!grown_) {                                                        \
      (result) = TESS_ERR_NOMEM;                                          \
      break;                                                              \
    }                                                                     \
    (arr) = grown_;                                                       \
    uint32_t at_ = 0;                                                     \
    while (at_ < (count) && (arr)[at_]->id < (item)->id) at_++;           \
    memmove(&(arr)[at_ + 1], &(arr)[at_], ((count)-at_) * sizeof *(arr)); \
    (arr)[at_] = (item);                                                  \
    (count)++;                                                            \
    (result) = TESS_OK;                                                   \
  } while (0)

#define PTR_REMOVE(arr, count, i)                                           \
  do {                                                                      \
    memmove(&(arr)[i], &(arr)[(i) + 1], ((count) - (i)-1) * sizeof *(arr)); \
    (count)--;                                                              \
  } while (0)

typedef struct TilesetPresenceOp {
  TessOp base;
  TessTileset *ts;
  bool add;
} TilesetPresenceOp;

static TessResult tileset_presence_apply(TessProject *p, TessOp *base, bool forward) {
  TilesetPresenceOp *op = (TilesetPresenceOp *)base;
  if (op->add == forward) {
    TessResult r;
    SORTED_PTR_INSERT(p->tilesets, p->tileset_count, op->ts, r);
    if (r) return r;
  } else {
    int i = level_project_tileset_index(p, op->ts->id);
    if (i < 0) return TESS_ERR_NOT_FOUND;
    PTR_REMOVE(p->tilesets, p->tileset_count, (uint32_t)i);
  }
  level_project_note_change(p, TESS_CHANGE_TILESET, op->ts->id, 0, 0, 0, 0);
  return TESS_OK;
}

static void tileset_presence_destroy(TessOp *base, bool undone) {
  TilesetPresenceOp *op = (TilesetPresenceOp *)base;
  if (op->add == undone) { /* the tileset is out of the project: ours */
    tess_tileset_clear(op->ts);
    tess_free(op->ts);
  }
  tess_free(op);
}

static const TessOpClass tileset_presence_class = {"tileset presence", tileset_presence_apply,
                                                   tileset_presence_destroy, NULL};

TessOp *level_op_tileset_presence(TessTileset *ts, bool add) {
  TilesetPresenceOp *op = level_op_new(sizeof *op, &tileset_presence_class);
  if (!op) {
    if (add) {
      tess_tileset_clear(ts);
      tess_free(ts);
    }
    return NULL;
  }
  op->ts = ts;
  op->add = add;
  op->base.bytes += tileset_bytes(ts);
  return &op->base;
}

typedef struct TilesetSwapOp {
  TessOp base;
  TessTileset *other;
} TilesetSwapOp;

static TessResult tileset_swap_apply(TessProject *p, TessOp *base, bool forward) {
  TilesetSwapOp *op = (TilesetSwapOp *)base;
  TessTileset *live = tess_project_tileset(p, op->other->id);
  if (!live) return TESS_ERR_NOT_FOUND;
  TessTileset tmp = *live;
  *live = *op->other;
  *op->other = tmp;
  level_project_note_change(p, TESS_CHANGE_TILESET, live->id, 0, 0, 0, 0);
  return TESS_OK;
}

static void tileset_swap_destroy(TessOp *base, bool undone) {
  TilesetSwapOp *op = (TilesetSwapOp *)base;
  tess_tileset_clear(op->other);
  tess_free(op->other);
  tess_free(op);
}

static bool tileset_swap_merge(TessOp *a, TessOp *b) {
  return ((TilesetSwapOp *)a)->other->id == ((TilesetSwapOp *)b)->other->id;
}

static const TessOpClass tileset_swap_class = {"tileset set", tileset_swap_apply, tileset_swap_destroy,
                                               tileset_swap_merge};

TessOp *level_op_tileset_swap(TessTileset *other) {
  TilesetSwapOp *op = level_op_new(sizeof *op, &tileset_swap_class);
  if (!op) {
    tess_tileset_clear(other);
    tess_free(other);
    return NULL;
  }
  op->other = other;
  op->base.bytes += tileset_bytes(other);
  return &op->base;
}

typedef struct SpritePresenceOp {
  TessOp base;
  TessSprite *s;
  bool add;
} SpritePresenceOp;

static TessResult sprite_presence_apply(TessProject *p, TessOp *base, bool forward) {
  SpritePresenceOp *op = (SpritePresenceOp *)base;
  if (op->add == forward) {
    TessResult r;
    SORTED_PTR_INSERT(p->sprites, p->sprite_count, op->s, r);
    if (r) return r;
  } else {
    int i = level_project_sprite_index(p, op->s->id);
    if (i < 0) return TESS_ERR_NOT_FOUND;
    PTR_REMOVE(p->sprites, p->sprite_count, (uint32_t)i);
  }
  level_project_note_change(p, TESS_CHANGE_SPRITE, op->s->id, 0, 0, 0, 0);
  return TESS_OK;
}

static void sprite_presence_destroy(TessOp *base, bool undone) {
  SpritePresenceOp *op = (SpritePresenceOp *)base;
  if (op->add == undone) {
    tess_sprite_clear(op->s);
    tess_free(op->s);
  }
  tess_free(op);
}

static const TessOpClass sprite_presence_class = {"sprite presence", sprite_presence_apply, sprite_presence_destroy,
                                                  NULL};

TessOp *level_op_sprite_presence(TessSprite *s, bool add) {
  SpritePresenceOp *op = level_op_new(sizeof *op, &sprite_presence_class);
  if (!op) {
    if (add) {
      tess_sprite_clear(s);
      tess_free(s);
    }
    return NULL;
  }
  op->s = s;
  op->add = add;
  op->base.bytes += sprite_bytes(s);
  return &op->base;
}

typedef struct SpriteSwapOp {
  TessOp base;
  TessSprite *other;
} SpriteSwapOp;

static TessResult sprite_swap_apply(TessProject *p, TessOp *base, bool forward) {
  SpriteSwapOp *op = (SpriteSwapOp *)base;
  TessSprite *live = tess_project_sprite(p, op->other->id);
  if (!live) return TESS_ERR_NOT_FOUND;
  TessSprite tmp = *live;
  *live = *op->other;
  *op->other = tmp;
  level_project_note_change(p, TESS_CHANGE_SPRITE, live->id, 0, 0, 0, 0);
  return TESS_OK;
}

static void sprite_swap_destroy(TessOp *base, bool undone) {
  SpriteSwapOp *op = (SpriteSwapOp *)base;
  tess_sprite_clear(op->other);
  tess_free(op->other);
  tess_free(op);
}

static bool sprite_swap_merge(TessOp *a, TessOp *b) {
  return ((SpriteSwapOp *)a)->other->id == ((SpriteSwapOp *)b)->other->id;
}

static const TessOpClass sprite_swap_class = {"sprite set", sprite_swap_apply, sprite_swap_destroy,
                                              sprite_swap_merge};

TessOp *level_op_sprite_swap(TessSprite *other) {
  SpriteSwapOp *op = level_op_new(sizeof *op, &sprite_swap_class);
  if (!op) {
    tess_sprite_clear(other);
    tess_free(other);
    return NULL;
  }
  op->other = other;
  op->base.bytes += sprite_bytes(other);
  return &op->base;
}
