/* A plan into a project, as ordinary edits inside one group: one undo
 * step, and on any failure every edit is rolled back. Tilesets whose PNG
 * bytes and grid equal a project tileset's are reused (a second map of the
 * same game shares its tilesets); materials are reused by name.
 *
 * Ids: a plan may carry the ids its things had (a map Tessera wrote says
 * them; a Tiled map's object and layer ids are its own). They are kept,
 * kind by kind, when every wanted id of the kind is distinct and above what
 * the project has handed out (so never one an undo could bring back): they
 * are reserved first, then each add is told its id. In a new project that
 * is always so, and Tessera -> Tiled -> Tessera gives a level its content
 * hash back. Otherwise the kind gets new ids, and joints and object
 * properties follow the objects to theirs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/formats.h"

typedef struct Ids {
  TessId *tilesets;
  TessId *materials;
  TessId *sprites;
  bool keep[TESS_ID_KIND_COUNT];
  TessId *from, *to; /* objects: the plan's id -> the project's, sorted by `from` once all are added */
  size_t object_count;
} Ids;

static TessResult nomem(TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, NULL, "out of memory"); }

static int cmp_id(const void *a, const void *b) {
  TessId x = *(const TessId *)a, y = *(const TessId *)b;
  return x < y ? -1 : x > y;
}

/* True (and the ids reserved) when every non-zero wanted id is distinct, at
 * most `max`, and at or above the project's next id of the kind. */
static bool keep_kind(TessProject *p, TessIdKind kind, TessId *want, size_t n, TessId max) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (want[i]) want[k++] = want[i];
  if (!k) return false;
  qsort(want, k, sizeof *want, cmp_id);
  for (size_t i = 0; i < k; i++)
    if (want[i] < p->next_id[kind] || want[i] > max || (i && want[i] == want[i - 1])) return false;
  tess_project_reserve_ids(p, kind, want[k - 1] + 1);
  return true;
}

static void want(TessProject *p, const Ids *ids, TessIdKind kind, TessId id) {
  if (ids->keep[kind] && id) tess_project_want_id(p, kind, id);
}

static TessId map_material(const Ids *ids, const TessMapImport *imp, TessId local) {
  return local && local <= imp->material_count ? ids->materials[local - 1] : 0;
}

static bool same_pieces(const TessTileInfo *a, const TessTileInfo *b) {
  if (a->piece_count != b->piece_count) return false;
  for (uint32_t k = 0; k < a->piece_count; k++) {
    const TessPolygon *x = &a->pieces[k], *y = &b->pieces[k];
    if (x->count != y->count || memcmp(x->v, y->v, x->count * sizeof *x->v) != 0) return false;
  }
  return true;
}

/* A tileset Tessera wrote (it carries an id) is reused only when everything it says is equal. */
static bool same_tessera_tileset(const TessTileset *ts, const TessImportTileset *t, const Ids *ids, const TessMapImport *imp) {
  if (strcmp(ts->name, t->name) != 0 || ts->tile_count != t->tile_count ||
      (t->alpha_threshold && ts->alpha_threshold != t->alpha_threshold))
    return false;
  for (uint32_t k = 0; k < t->tile_count; k++) {
    const TessTileInfo *a = &ts->tiles[k], *b = &t->tiles[k];
    if (a->collision != b->collision || a->one_way != b->one_way || a->material != map_material(ids, imp, b->material) ||
        !same_pieces(a, b))
      return false;
  }
  return true;
}

static TessId find_equal_tileset(const TessProject *p, const TessImportTileset *t, const Ids *ids, const TessMapImport *imp) {
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    const TessTileset *ts = p->tilesets[i];
    if (ts->png_size == t->png_size && ts->tile_w == t->tile_w && ts->tile_h == t->tile_h && ts->margin == t->margin &&
        ts->spacing == t->spacing && ts->offset_x == t->offset_x && ts->offset_y == t->offset_y &&
        ts->fit_cell == t->fit_cell && memcmp(ts->png, t->png, t->png_size) == 0 &&
        (!t->id || same_tessera_tileset(ts, t, ids, imp)))
      return ts->id;
  }
  return 0;
}

static TessId find_equal_sprite(const TessProject *p, const TessSprite *s) {
  for (uint32_t k = 0; k < p->sprite_count; k++) {
    const TessSprite *h = p->sprites[k];
    if (h->png_size != s->png_size || memcmp(h->png, s->png, s->png_size) != 0) continue;
    /* A sprite Tessera wrote carries its own mask: the same image is the same sprite only with the same name and place. */
    if (s->id && (strcmp(h->name, s->name) || h->frame_count != s->frame_count ||
                  memcmp(&h->anchor, &s->anchor, sizeof h->anchor) || h->mask.mode != s->mask.mode))
      continue;
    return h->id;
  }
  return 0;
}

/* Per-tile collision, materials and the threshold, set on the tileset just added. */
static TessResult set_tiles(TessProject *p, TessId id, const TessImportTileset *t, const Ids *ids,
                            const TessMapImport *imp, TessError *err) {
  bool any = t->alpha_threshold != 0;
  for (uint32_t k = 0; k < t->tile_count && !any; k++)
    any = t->tiles[k].collision || t->tiles[k].material || t->tiles[k].one_way || t->tiles[k].piece_count;
  if (!any && !t->terrain_count) return TESS_OK;
  TessTileset copy;
  memset(&copy, 0, sizeof copy);
  TessResult r = tess_tileset_copy(&copy, tess_project_tileset(p, id));
  if (r) return tess_error_set(err, r, imp->source, "out of memory");
  if (t->alpha_threshold) copy.alpha_threshold = t->alpha_threshold;
  uint32_t n = copy.tile_count < t->tile_count ? copy.tile_count : t->tile_count;
  for (uint32_t k = 0; k < n && !r; k++) {
    TessTileInfo *dst = &copy.tiles[k];
    const TessTileInfo *src = &t->tiles[k];
    dst->collision = src->collision;
    dst->one_way = src->one_way;
    dst->material = map_material(ids, imp, src->material);
    tess_free(dst->pieces);
    dst->pieces = NULL;
    dst->piece_count = 0;
    if (src->piece_count) {
      if (!(dst->pieces = tess_calloc(src->piece_count, sizeof *dst->pieces))) r = nomem(err);
      else {
        memcpy(dst->pieces, src->pieces, src->piece_count * sizeof *dst->pieces);
        dst->piece_count = src->piece_count;
      }
    }
  }
  if (!r && t->terrain_count) { /* the map's wang sets, as terrain sets */
    tess_terrain_sets_free(copy.terrains, copy.terrain_count);
    copy.terrain_count = 0;
    if (tess_terrain_sets_copy(&copy.terrains, t->terrains, t->terrain_count)) r = nomem(err);
    else copy.terrain_count = t->terrain_count;
  }
  if (!r) r = tess_edit_tileset_set(p, &copy, 0, err);
  tess_tileset_clear(&copy);
  return r;
}

static TessResult add_materials(TessProject *p, const TessMapImport *imp, Ids *ids, TessError *err) {
  TessId *wanted = tess_calloc(imp->material_count + 1, sizeof *wanted);
  if (!wanted) return nomem(err);
  for (uint32_t i = 0; i < imp->material_count; i++)
    if (imp->material_ids && !tess_project_material_by_name(p, imp->materials[i].name)) wanted[i] = imp->material_ids[i];
  ids->keep[TESS_ID_MATERIAL] = keep_kind(p, TESS_ID_MATERIAL, wanted, imp->material_count, TESS_MATERIAL_ID_MAX);
  tess_free(wanted);
  for (uint32_t i = 0; i < imp->material_count; i++) {
    const TessMaterial *have = tess_project_material_by_name(p, imp->materials[i].name);
    if (have) {
      ids->materials[i] = have->id;
      continue;
    }
    want(p, ids, TESS_ID_MATERIAL, imp->material_ids ? imp->material_ids[i] : 0);
    TessResult r = tess_edit_material_add(p, &imp->materials[i], &ids->materials[i], err);
    if (r) return r;
  }
  return TESS_OK;
}

static TessResult add_sprites(TessProject *p, const TessMapImport *imp, Ids *ids, TessError *err) {
  TessId *wanted = tess_calloc(imp->sprite_count + 1, sizeof *wanted);
  if (!wanted) return nomem(err);
  for (uint32_t i = 0; i < imp->sprite_count; i++)
    if (!find_equal_sprite(p, &imp->sprites[i])) wanted[i] = imp->sprites[i].id;
  ids->keep[TESS_ID_SPRITE] = keep_kind(p, TESS_ID_SPRITE, wanted, imp->sprite_count, UINT32_MAX - 1);
  tess_free(wanted);
  for (uint32_t i = 0; i < imp->sprite_count; i++) {
    const TessSprite *s = &imp->sprites[i];
    if ((ids->sprites[i] = find_equal_sprite(p, s))) continue;
    want(p, ids, TESS_ID_SPRITE, s->id);
    TessResult r = tess_edit_sprite_add(p, s, &ids->sprites[i], err);
    if (r) return r;
  }
  return TESS_OK;
}

static TessResult add_tilesets(TessProject *p, const TessMapImport *imp, Ids *ids, TessError *err) {
  TessId *wanted = tess_calloc(imp->tileset_count + 1, sizeof *wanted);
  if (!wanted) return nomem(err);
  for (uint32_t i = 0; i < imp->tileset_count; i++) {
    const TessImportTileset *t = &imp->tilesets[i];
    if (t->role == TESS_IMPORT_TILESET && !find_equal_tileset(p, t, ids, imp)) wanted[i] = t->id;
  }
  ids->keep[TESS_ID_TILESET] = keep_kind(p, TESS_ID_TILESET, wanted, imp->tileset_count, TESS_TILESET_ID_MAX);
  tess_free(wanted);
  for (uint32_t i = 0; i < imp->tileset_count; i++) {
    const TessImportTileset *t = &imp->tilesets[i];
    if (t->role != TESS_IMPORT_TILESET) continue; /* Tessera's materials and sprites, added as such */
    if ((ids->tilesets[i] = find_equal_tileset(p, t, ids, imp))) continue;
    TessTilesetDef def;
    tess_tileset_def_default(&def);
    def.name = t->name;
    def.source_path = t->source_path;
    def.png = t->png;
    def.png_size = t->png_size;
    def.image_w = t->image_w;
    def.image_h = t->image_h;
    def.tile_w = t->tile_w;
    def.tile_h = t->tile_h;
    def.margin = t->margin;
    def.spacing = t->spacing;
    def.offset_x = t->offset_x;
    def.offset_y = t->offset_y;
    def.fit_cell = t->fit_cell;
    def.default_material = 0;
    def.default_collision = TESS_TILE_COLLISION_NONE;
    want(p, ids, TESS_ID_TILESET, t->id);
    TessResult r = tess_edit_tileset_add(p, &def, &ids->tilesets[i], err);
    if (!r) r = set_tiles(p, ids->tilesets[i], t, ids, imp, err);
    if (r) return r;
  }
  return TESS_OK;
}

/* Rows [y0, y0 + rows) of a cell layer (tiles or materials), in plan numbering, into the project's. */
static TessResult fill_rows(TessProject *p, TessId level, TessId layer, const TessMapImport *imp, const TessImportLayer *l,
                            const Ids *ids, uint32_t y0, uint32_t rows, TessError *err) {
  uint32_t w = imp->settings.width;
  size_t count = (size_t)w * rows;
  TessCell *cells = tess_alloc((count ? count : 1) * sizeof *cells);
  if (!cells) return nomem(err);
  bool any = false, materials = l->props.kind == TESS_LAYER_MATERIAL;
  const TessCell *src = l->cells + (size_t)y0 * w;
  for (size_t i = 0; i < count; i++) {
    TessCell c = src[i];
    uint32_t ts = TESS_CELL_TILESET(c);
    if (materials) cells[i] = map_material(ids, imp, c);
    else if (c && ts && ts <= imp->tileset_count && ids->tilesets[ts - 1])
      cells[i] = TESS_CELL_MAKE(ids->tilesets[ts - 1], TESS_CELL_TILE(c), c & TESS_CELL_FLIPS);
    else cells[i] = 0; /* a tile of Tessera's materials or sprite tilesets painted as a tile: nothing to show */
    any |= cells[i] != 0;
  }
  TessResult r = any ? tess_edit_set_cells(p, level, layer, 0, (int32_t)y0, w, rows, cells, 0, err) : TESS_OK;
  tess_free(cells);
  return r;
}

static TessResult add_object(TessProject *p, TessId level, TessId layer, const TessMapImport *imp, const TessObject *src,
                             Ids *ids, TessError *err) {
  TessObject o;
  TessResult r = tess_object_copy(&o, src);
  if (r) return nomem(err);
  if (o.kind == TESS_OBJECT_BODY) {
    o.u.body.material = map_material(ids, imp, o.u.body.material);
    if (o.u.body.shape == TESS_BODY_SPRITE)
      o.u.body.sprite = o.u.body.sprite && o.u.body.sprite <= imp->sprite_count ? ids->sprites[o.u.body.sprite - 1] : 0;
  }
  /* Joints join bodies that may come later: they are added loose and joined once every object has its id. */
  if (o.kind == TESS_OBJECT_JOINT) o.u.joint.body_a = o.u.joint.body_b = 0;
  want(p, ids, TESS_ID_OBJECT, src->id);
  TessId id = 0;
  r = tess_edit_object_add(p, level, layer, &o, &id, err);
  tess_object_clear(&o);
  if (r) return r;
  ids->from[ids->object_count] = src->id;
  ids->to[ids->object_count++] = id;
  return TESS_OK;
}

static TessId new_object_id(const Ids *ids, TessId from) {
  if (!from) return 0;
  size_t lo = 0, hi = ids->object_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ids->from[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < ids->object_count && ids->from[lo] == from ? ids->to[lo] : 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static TessResult sort_pairs(Ids *ids, TessError *err) {
  uint64_t *k = tess_alloc((ids->object_count ? ids->object_count : 1) * sizeof *k);
  if (!k) return nomem(err);
  for (size_t i = 0; i < ids->object_count; i++) k[i] = (uint64_t)ids->from[i] << 32 | ids->to[i];
  qsort(k, ids->object_count, sizeof *k, cmp_u64);
  for (size_t i = 0; i < ids->object_count; i++) {
    ids->from[i] = (TessId)(k[i] >> 32);
    ids->to[i] = (TessId)k[i];
  }
  tess_free(k);
  return TESS_OK;
}

/* Joints get their bodies and object properties their objects, by the ids the objects received. */
static TessResult join_objects(TessProject *p, TessId level, const TessMapImport *imp, Ids *ids, TessError *err) {
  TessResult r = sort_pairs(ids, err);
  if (r) return r;
  for (uint32_t li = 0; li < imp->layer_count; li++) {
    const TessImportLayer *l = &imp->layers[li];
    for (uint32_t i = 0; i < l->object_count; i++) {
      const TessObject *src = &l->objects[i];
      bool joint = src->kind == TESS_OBJECT_JOINT && (src->u.joint.body_a || src->u.joint.body_b), refs = false;
      for (uint32_t k = 0; k < imp->ref_count && !refs; k++) refs = imp->refs[k].layer == li && imp->refs[k].object == i;
      if (!joint && !refs) continue;
      TessId id = new_object_id(ids, src->id);
      const TessObject *now = id ? tess_level_object(tess_project_level(p, level), id, NULL) : NULL;
      if (!now) continue;
      TessObject o;
      if (tess_object_copy(&o, now)) return nomem(err);
      if (joint) {
        o.u.joint.body_a = new_object_id(ids, src->u.joint.body_a);
        o.u.joint.body_b = new_object_id(ids, src->u.joint.body_b);
      }
      for (uint32_t k = 0; k < imp->ref_count; k++) {
        const TessImportRef *ref = &imp->refs[k];
        if (ref->layer != li || ref->object != i) continue;
        for (uint32_t q = 0; q < o.prop_count; q++)
          if (strcmp(o.props[q].name, ref->name) == 0 && o.props[q].type == TESS_PROP_INT)
            o.props[q].v.i = new_object_id(ids, (TessId)o.props[q].v.i);
      }
      r = tess_edit_object_set(p, level, &o, 0, err);
      tess_object_clear(&o);
      if (r) return r;
    }
  }
  return TESS_OK;
}

static bool has_material_layer(const TessMapImport *imp) {
  for (uint32_t i = 0; i < imp->layer_count; i++)
    if (imp->layers[i].props.kind == TESS_LAYER_MATERIAL) return true;
  return false;
}

static TessResult keep_level_ids(TessProject *p, const TessMapImport *imp, Ids *ids, TessError *err) {
  size_t objects = 0;
  for (uint32_t i = 0; i < imp->layer_count; i++) objects += imp->layers[i].object_count;
  TessId *wanted = tess_calloc(objects + imp->layer_count + 1, sizeof *wanted);
  ids->from = tess_calloc(objects + 1, sizeof *ids->from);
  ids->to = tess_calloc(objects + 1, sizeof *ids->to);
  if (!wanted || !ids->from || !ids->to) {
    tess_free(wanted);
    return nomem(err);
  }
  TessId level = imp->level_id;
  ids->keep[TESS_ID_LEVEL] = keep_kind(p, TESS_ID_LEVEL, &level, 1, UINT32_MAX - 1);
  for (uint32_t i = 0; i < imp->layer_count; i++) wanted[i] = imp->layers[i].props.id;
  ids->keep[TESS_ID_LAYER] = keep_kind(p, TESS_ID_LAYER, wanted, imp->layer_count, UINT32_MAX - 1);
  size_t n = 0;
  for (uint32_t i = 0; i < imp->layer_count; i++)
    for (uint32_t k = 0; k < imp->layers[i].object_count; k++) wanted[n++] = imp->layers[i].objects[k].id;
  ids->keep[TESS_ID_OBJECT] = keep_kind(p, TESS_ID_OBJECT, wanted, n, UINT32_MAX - 1);
  tess_free(wanted);
  return TESS_OK;
}

/* ---- The apply, in steps ------------------------------------------------- */

typedef enum Phase { PH_ASSETS,
                     PH_LEVEL,
                     PH_LAYER,
                     PH_FILL,
                     PH_PROPS,
                     PH_JOIN,
                     PH_LOCK,
                     PH_DONE } Phase;

/* Work units, about equal in time: a cell is 1, an object 256 (its copy, checks and undo record), an asset
 * (material, sprite, tileset) 4096. */
#define UNIT_OBJECT 256u
#define UNIT_ASSET 4096u

struct TessMapApply {
  TessProject *p;
  const TessMapImport *imp;
  char name[TESS_NAME_MAX];
  Ids ids;
  Phase phase;
  TessId level;
  TessId *layers;     /* the project id of each plan layer */
  uint32_t layer, at; /* the plan layer being filled, and its next row or object */
  uint64_t total, done;
};

static void free_apply(TessMapApply *a) {
  /* A wish an add did not take (it failed first) must not reach a later, unrelated add. */
  for (int k = 0; k < TESS_ID_KIND_COUNT; k++) tess_project_want_id(a->p, (TessIdKind)k, 0);
  tess_free(a->ids.tilesets);
  tess_free(a->ids.materials);
  tess_free(a->ids.sprites);
  tess_free(a->ids.from);
  tess_free(a->ids.to);
  tess_free(a->layers);
  tess_free(a);
}

TessResult tess_map_apply_begin(TessProject *p, const TessMapImport *imp, const char *level_name, TessMapApply **out,
                                TessError *err) {
  const char *name = level_name && level_name[0] ? level_name : imp->settings.name;
  if (tess_project_level_by_name(p, name))
    return tess_error_set(err, TESS_ERR_INVALID, imp->source, "the project already has a level named '%s' (choose another with --level)",
                          name);
  TessMapApply *a = tess_calloc(1, sizeof *a);
  if (!a) return nomem(err);
  a->p = p;
  a->imp = imp;
  snprintf(a->name, sizeof a->name, "%s", name);
  a->ids.tilesets = tess_calloc(imp->tileset_count + 1, sizeof *a->ids.tilesets);
  a->ids.materials = tess_calloc(imp->material_count + 1, sizeof *a->ids.materials);
  a->ids.sprites = tess_calloc(imp->sprite_count + 1, sizeof *a->ids.sprites);
  a->layers = tess_calloc(imp->layer_count + 1, sizeof *a->layers);
  a->total = 1 + (uint64_t)UNIT_ASSET * (imp->material_count + imp->sprite_count + imp->tileset_count);
  for (uint32_t i = 0; i < imp->layer_count; i++)
    a->total += imp->layers[i].props.kind == TESS_LAYER_OBJECTS ? (uint64_t)UNIT_OBJECT * imp->layers[i].object_count
                                                                : (uint64_t)imp->settings.width * imp->settings.height;
  TessResult r = a->ids.tilesets && a->ids.materials && a->ids.sprites && a->layers ? tess_project_group_begin(p, "Import map", err)
                                                                                    : nomem(err);
  if (r) {
    free_apply(a);
    return r;
  }
  *out = a;
  return TESS_OK;
}

/* The level, its starting layers giving way to the map's (its material layer stays, at the bottom, unless the map brings its own). */
static TessResult start_level(TessMapApply *a, TessError *err) {
  TessLevelSettings s = a->imp->settings;
  snprintf(s.name, sizeof s.name, "%s", a->name);
  TessResult r = keep_level_ids(a->p, a->imp, &a->ids, err);
  if (r) return r;
  want(a->p, &a->ids, TESS_ID_LEVEL, a->imp->level_id);
  if ((r = tess_edit_level_add(a->p, &s, &a->level, err))) return r;
  bool own_materials = has_material_layer(a->imp);
  TessLevel *lv = tess_project_level(a->p, a->level);
  for (uint32_t i = lv->layer_count; i-- > 0;)
    if ((own_materials || lv->layers[i]->props.kind != TESS_LAYER_MATERIAL) &&
        (r = tess_edit_layer_remove(a->p, a->level, lv->layers[i]->props.id, err)))
      return r;
  return TESS_OK;
}

static TessResult add_layer(TessMapApply *a, TessError *err) {
  const TessImportLayer *l = &a->imp->layers[a->layer];
  char lname[TESS_NAME_MAX];
  if (l->props.name[0]) snprintf(lname, sizeof lname, "%s", l->props.name);
  else snprintf(lname, sizeof lname, "Layer %u", a->layer + 1);
  want(a->p, &a->ids, TESS_ID_LAYER, l->props.id);
  return tess_edit_layer_add(a->p, a->level, (TessLayerKind)l->props.kind, lname, -1, &a->layers[a->layer], err);
}

/* Some rows or objects of the current layer, within `budget` units; *spent says how many were used. */
static TessResult fill_some(TessMapApply *a, uint64_t budget, uint64_t *spent, bool *finished, TessError *err) {
  const TessImportLayer *l = &a->imp->layers[a->layer];
  TessId layer = a->layers[a->layer];
  TessResult r = TESS_OK;
  *spent = 0;
  if (l->props.kind == TESS_LAYER_OBJECTS) {
    while (!r && a->at < l->object_count && *spent < budget) {
      r = add_object(a->p, a->level, layer, a->imp, &l->objects[a->at++], &a->ids, err);
      *spent += UNIT_OBJECT;
    }
    *finished = a->at >= l->object_count;
    return r;
  }
  uint32_t w = a->imp->settings.width, h = a->imp->settings.height;
  uint64_t rows = budget / (w ? w : 1);
  if (rows < 1) rows = 1;
  if (rows > h - a->at) rows = h - a->at;
  if (rows) r = fill_rows(a->p, a->level, layer, a->imp, l, &a->ids, a->at, (uint32_t)rows, err);
  a->at += (uint32_t)rows;
  *spent = rows * w;
  *finished = a->at >= h;
  return r;
}

static TessResult set_layer_props(TessMapApply *a, TessError *err) {
  const TessImportLayer *l = &a->imp->layers[a->layer];
  TessLayerProps props = tess_level_layer(tess_project_level(a->p, a->level), a->layers[a->layer])->props;
  props.visible = l->props.visible;
  props.opacity = l->props.opacity;
  props.collides = l->props.collides;
  props.y_sort = l->props.y_sort;
  props.collide_pixels = l->props.collide_pixels;
  return tess_edit_layer_set_props(a->p, a->level, &props, 0, err);
}

/* Layers are locked last: joining objects edits them. */
static TessResult lock_layers(TessMapApply *a, TessError *err) {
  for (uint32_t i = 0; i < a->imp->layer_count; i++) {
    if (!a->imp->layers[i].props.locked) continue;
    TessLayerProps props = tess_level_layer(tess_project_level(a->p, a->level), a->layers[i])->props;
    props.locked = true;
    TessResult r = tess_edit_layer_set_props(a->p, a->level, &props, 0, err);
    if (r) return r;
  }
  return TESS_OK;
}

static TessResult one_step(TessMapApply *a, uint64_t budget, uint64_t *spent, TessError *err) {
  const TessMapImport *imp = a->imp;
  TessResult r = TESS_OK;
  bool finished = false;
  *spent = 1;
  switch (a->phase) {
    case PH_ASSETS:
      if (!(r = add_materials(a->p, imp, &a->ids, err)) && !(r = add_sprites(a->p, imp, &a->ids, err)))
        r = add_tilesets(a->p, imp, &a->ids, err);
      *spent = (uint64_t)UNIT_ASSET * (imp->material_count + imp->sprite_count + imp->tileset_count) + 1;
      a->phase = PH_LEVEL;
      break;
    case PH_LEVEL:
      r = start_level(a, err);
      a->phase = PH_LAYER;
      break;
    case PH_LAYER:
      if (a->layer >= imp->layer_count) a->phase = PH_JOIN;
      else if (!(r = add_layer(a, err))) a->phase = PH_FILL, a->at = 0;
      break;
    case PH_FILL:
      r = fill_some(a, budget, spent, &finished, err);
      if (finished) a->phase = PH_PROPS;
      break;
    case PH_PROPS:
      r = set_layer_props(a, err);
      a->layer++;
      a->phase = PH_LAYER;
      break;
    case PH_JOIN:
      r = join_objects(a->p, a->level, imp, &a->ids, err);
      a->phase = PH_LOCK;
      break;
    case PH_LOCK:
      r = lock_layers(a, err);
      a->phase = PH_DONE;
      break;
    case PH_DONE: break;
  }
  return r;
}

TessResult tess_map_apply_step(TessMapApply *a, uint64_t budget, bool *done, TessError *err) {
  uint64_t spent = 0;
  TessResult r = TESS_OK;
  while (!r && a->phase != PH_DONE && spent < budget) {
    uint64_t s = 0;
    r = one_step(a, budget - spent, &s, err);
    spent += s;
    a->done += s;
  }
  if (r) {
    tess_project_group_cancel(a->p);
    a->phase = PH_DONE;
    a->level = 0;
  }
  *done = a->phase == PH_DONE;
  return r;
}

double tess_map_apply_fraction(const TessMapApply *a) {
  if (a->phase == PH_DONE) return 1.0;
  double f = (double)a->done / (double)a->total;
  return f < 0.99 ? f : 0.99;
}

TessId tess_map_apply_finish(TessMapApply *a) {
  if (!a) return 0;
  TessId level = a->level;
  if (level) tess_project_group_end(a->p);
  free_apply(a);
  return level;
}

void tess_map_apply_cancel(TessMapApply *a) {
  if (!a) return;
  if (a->level || a->phase != PH_DONE) tess_project_group_cancel(a->p);
  free_apply(a);
}

TessResult tess_map_import_apply(TessProject *p, const TessMapImport *imp, const char *level_name, TessId *level_out,
                                 TessError *err) {
  TessMapApply *a = NULL;
  TessResult r = tess_map_apply_begin(p, imp, level_name, &a, err);
  if (r) return r;
  bool done = false;
  r = tess_map_apply_step(a, UINT64_MAX, &done, err);
  TessId level = tess_map_apply_finish(a);
  if (!r && level_out) *level_out = level;
  return r;
}
