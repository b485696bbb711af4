/* A plan into a project, as ordinary edits inside one group: one undo
 * step, and on any failure every edit is rolled back. Tilesets whose PNG
 * bytes and grid equal a project tileset's are reused (a second map of the
 * same game shares its tilesets); materials are reused by name. */
#include <stdio.h>
#include <string.h>

#include "tessera/formats.h"

typedef struct Ids {
  TessId *tilesets;
  TessId *materials;
  TessId *sprites;
} Ids;

static TessResult nomem(TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, NULL, "out of memory"); }

static TessId map_material(const Ids *ids, const TessMapImport *imp, TessId local) {
  return local && local <= imp->material_count ? ids->materials[local - 1] : 0;
}

static TessId find_equal_tileset(const TessProject *p, const TessImportTileset *t) {
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    const TessTileset *ts = p->tilesets[i];
    if (ts->png_size == t->png_size && ts->tile_w == t->tile_w && ts->tile_h == t->tile_h && ts->margin == t->margin &&
        ts->spacing == t->spacing && ts->offset_x == t->offset_x && ts->offset_y == t->offset_y &&
        ts->fit_cell == t->fit_cell && memcmp(ts->png, t->png, t->png_size) == 0)
      return ts->id;
  }
  return 0;
}

/* Per-tile collision and materials, set on the tileset just added. */
static TessResult set_tiles(TessProject *p, TessId id, const TessImportTileset *t, const Ids *ids,
                            const TessMapImport *imp, TessError *err) {
  bool any = false;
  for (uint32_t k = 0; k < t->tile_count && !any; k++)
    any = t->tiles[k].collision || t->tiles[k].material || t->tiles[k].one_way;
  if (!any) return TESS_OK;
  TessTileset copy;
  memset(&copy, 0, sizeof copy);
  TessResult r = tess_tileset_copy(&copy, tess_project_tileset(p, id));
  if (r) return tess_error_set(err, r, imp->source, "out of memory");
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
  if (!r) r = tess_edit_tileset_set(p, &copy, 0, err);
  tess_tileset_clear(&copy);
  return r;
}

static TessResult add_assets(TessProject *p, const TessMapImport *imp, Ids *ids, TessError *err) {
  TessResult r;
  for (uint32_t i = 0; i < imp->material_count; i++) {
    const TessMaterial *have = tess_project_material_by_name(p, imp->materials[i].name);
    if (have) ids->materials[i] = have->id;
    else if ((r = tess_edit_material_add(p, &imp->materials[i], &ids->materials[i], err))) return r;
  }
  for (uint32_t i = 0; i < imp->sprite_count; i++) {
    const TessSprite *s = &imp->sprites[i];
    for (uint32_t k = 0; k < p->sprite_count && !ids->sprites[i]; k++)
      if (p->sprites[k]->png_size == s->png_size && memcmp(p->sprites[k]->png, s->png, s->png_size) == 0)
        ids->sprites[i] = p->sprites[k]->id;
    if (!ids->sprites[i] && (r = tess_edit_sprite_add(p, s, &ids->sprites[i], err))) return r;
  }
  for (uint32_t i = 0; i < imp->tileset_count; i++) {
    const TessImportTileset *t = &imp->tilesets[i];
    if ((ids->tilesets[i] = find_equal_tileset(p, t))) continue;
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
    if ((r = tess_edit_tileset_add(p, &def, &ids->tilesets[i], err))) return r;
    if ((r = set_tiles(p, ids->tilesets[i], t, ids, imp, err))) return r;
  }
  return TESS_OK;
}

static TessResult fill_tiles(TessProject *p, TessId level, TessId layer, const TessMapImport *imp, const TessImportLayer *l,
                             const Ids *ids, TessError *err) {
  uint32_t w = imp->settings.width, h = imp->settings.height;
  size_t count = (size_t)w * h;
  TessCell *cells = tess_alloc(count * sizeof *cells);
  if (!cells) return nomem(err);
  bool any = false;
  for (size_t i = 0; i < count; i++) {
    TessCell c = l->cells[i];
    uint32_t ts = TESS_CELL_TILESET(c);
    cells[i] = c && ts && ts <= imp->tileset_count ? TESS_CELL_MAKE(ids->tilesets[ts - 1], TESS_CELL_TILE(c), c & TESS_CELL_FLIPS) : 0;
    any |= cells[i] != 0;
  }
  TessResult r = any ? tess_edit_set_cells(p, level, layer, 0, 0, w, h, cells, 0, err) : TESS_OK;
  tess_free(cells);
  return r;
}

static TessResult add_objects(TessProject *p, TessId level, TessId layer, const TessMapImport *imp, const TessImportLayer *l,
                              const Ids *ids, TessError *err) {
  for (uint32_t i = 0; i < l->object_count; i++) {
    TessObject o;
    TessResult r = tess_object_copy(&o, &l->objects[i]);
    if (r) return nomem(err);
    if (o.kind == TESS_OBJECT_BODY) {
      o.u.body.material = map_material(ids, imp, o.u.body.material);
      if (o.u.body.shape == TESS_BODY_SPRITE)
        o.u.body.sprite = o.u.body.sprite && o.u.body.sprite <= imp->sprite_count ? ids->sprites[o.u.body.sprite - 1] : 0;
    }
    r = tess_edit_object_add(p, level, layer, &o, NULL, err);
    tess_object_clear(&o);
    if (r) return r;
  }
  return TESS_OK;
}

static TessResult add_level(TessProject *p, const TessMapImport *imp, const char *name, const Ids *ids, TessId *out,
                            TessError *err) {
  TessLevelSettings s = imp->settings;
  snprintf(s.name, sizeof s.name, "%s", name);
  TessId level = 0;
  TessResult r = tess_edit_level_add(p, &s, &level, err);
  if (r) return r;
  /* The new level's starting tile and object layers give way to the map's; its material layer stays. */
  TessLevel *lv = tess_project_level(p, level);
  for (uint32_t i = lv->layer_count; i-- > 0;)
    if (lv->layers[i]->props.kind != TESS_LAYER_MATERIAL && (r = tess_edit_layer_remove(p, level, lv->layers[i]->props.id, err)))
      return r;
  for (uint32_t i = 0; i < imp->layer_count; i++) {
    const TessImportLayer *l = &imp->layers[i];
    char lname[TESS_NAME_MAX];
    if (l->props.name[0]) snprintf(lname, sizeof lname, "%s", l->props.name);
    else snprintf(lname, sizeof lname, "Layer %u", i + 1);
    TessId layer = 0;
    if ((r = tess_edit_layer_add(p, level, (TessLayerKind)l->props.kind, lname, -1, &layer, err))) return r;
    if (l->props.kind == TESS_LAYER_TILES) r = fill_tiles(p, level, layer, imp, l, ids, err);
    else r = add_objects(p, level, layer, imp, l, ids, err);
    if (r) return r;
    TessLayerProps props = tess_level_layer(tess_project_level(p, level), layer)->props;
    props.visible = l->props.visible;
    props.locked = l->props.locked;
    props.opacity = l->props.opacity;
    props.collides = l->props.collides;
    if ((r = tess_edit_layer_set_props(p, level, &props, 0, err))) return r;
  }
  *out = level;
  return TESS_OK;
}

TessResult tess_map_import_apply(TessProject *p, const TessMapImport *imp, const char *level_name, TessId *level_out,
                                 TessError *err) {
  const char *name = level_name && level_name[0] ? level_name : imp->settings.name;
  if (tess_project_level_by_name(p, name))
    return tess_error_set(err, TESS_ERR_INVALID, imp->source, "the project already has a level named '%s' (choose another with --level)",
                          name);
  Ids ids;
  ids.tilesets = tess_calloc(imp->tileset_count + 1, sizeof *ids.tilesets);
  ids.materials = tess_calloc(imp->material_count + 1, sizeof *ids.materials);
  ids.sprites = tess_calloc(imp->sprite_count + 1, sizeof *ids.sprites);
  TessResult r = ids.tilesets && ids.materials && ids.sprites ? tess_project_group_begin(p, "Import map", err) : nomem(err);
  if (!r) {
    TessId level = 0;
    r = add_assets(p, imp, &ids, err);
    if (!r) r = add_level(p, imp, name, &ids, &level, err);
    if (r) tess_project_group_cancel(p);
    else {
      tess_project_group_end(p);
      if (level_out) *level_out = level;
    }
  }
  tess_free(ids.tilesets);
  tess_free(ids.materials);
  tess_free(ids.sprites);
  return r;
}
