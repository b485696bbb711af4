/* One random edit of any kind through the edit API: the property tests'
 * source of projects (undo/redo here, the text form's round trip in
 * tests/formats). Deterministic per generator state. */
#include "random_edit.h"

static TessId pick_level(TessProject *p, TessTestRng *rng) {
  return p->level_count ? p->levels[tess_rng_below(rng, p->level_count)]->id : 0;
}

static TessLayer *pick_layer(TessProject *p, TessLevel *level, TessTestRng *rng, int kind) {
  if (!level || !level->layer_count) return NULL;
  for (int tries = 0; tries < 8; tries++) {
    TessLayer *l = level->layers[tess_rng_below(rng, level->layer_count)];
    if (kind < 0 || l->props.kind == kind) return l;
  }
  return NULL;
}

static TessCell random_cell(TessProject *p, TessTestRng *rng) {
  if (!p->tileset_count || tess_rng_below(rng, 6) == 0) return 0;
  TessTileset *ts = p->tilesets[tess_rng_below(rng, p->tileset_count)];
  return TESS_CELL_MAKE(ts->id, tess_rng_below(rng, ts->tile_count), (uint32_t)tess_rng_below(rng, 8) << 29);
}

static TessId random_material(TessProject *p, TessTestRng *rng) {
  if (!p->material_count || tess_rng_below(rng, 5) == 0) return 0;
  return p->materials[tess_rng_below(rng, p->material_count)].id;
}

static TessObject *random_object(TessLevel *level, TessTestRng *rng) {
  for (int tries = 0; level && tries < 8; tries++) {
    TessLayer *l = level->layers[tess_rng_below(rng, level->layer_count)];
    if (l->object_count) return &l->objects[tess_rng_below(rng, l->object_count)];
  }
  return NULL;
}

/* One random edit of any kind. Returns what the call returned (failures are
 * fine: a locked layer, a removed id; they must leave the project alone). */
int edit_kind;

TessResult random_edit(TessProject *p, TessTestRng *rng, uint32_t *merge_key, TessError *err) {
  TessId level_id = pick_level(p, rng);
  TessLevel *level = tess_project_level(p, level_id);
  uint32_t op = tess_rng_below(rng, 100);
  int32_t x = (int32_t)tess_rng_below(rng, 110) - 5, y = (int32_t)tess_rng_below(rng, 90) - 5;
  uint32_t w = 1 + tess_rng_below(rng, 12), h = 1 + tess_rng_below(rng, 12);
  uint32_t merge = 0;
  if (tess_rng_below(rng, 4) == 0) merge = *merge_key; /* a drag continues */
  if (tess_rng_below(rng, 20) == 0) *merge_key = tess_project_new_merge_key(p);
  edit_kind = 0;
  if (!level) {
    TessLevelSettings s;
    tess_level_settings_default(&s);
    s.width = 20 + tess_rng_below(rng, 80);
    s.height = 20 + tess_rng_below(rng, 60);
    return tess_edit_level_add(p, &s, NULL, err);
  }
  TessLayer *cells = pick_layer(p, level, rng, TESS_LAYER_TILES);
  TessLayer *objs = pick_layer(p, level, rng, TESS_LAYER_OBJECTS);
  if (op < 18) {
    edit_kind = 0;
    if (!cells) return TESS_ERR_EMPTY;
    TessCell stamp[144];
    for (uint32_t i = 0; i < w * h; i++) stamp[i] = random_cell(p, rng);
    return tess_edit_paint(p, level_id, cells->props.id, x, y, w, h, stamp, merge, err);
  } else if (op < 24) {
    edit_kind = 1;
    if (!cells) return TESS_ERR_EMPTY;
    TessCell stamp[144];
    for (uint32_t i = 0; i < w * h; i++) stamp[i] = random_cell(p, rng);
    return tess_edit_set_cells(p, level_id, cells->props.id, x, y, w, h, stamp, merge, err);
  } else if (op < 30) {
    edit_kind = 2;
    if (!cells) return TESS_ERR_EMPTY;
    return tess_edit_erase(p, level_id, cells->props.id, x, y, w * 2, h * 2, merge, err);
  } else if (op < 36) {
    edit_kind = 3;
    if (!cells) return TESS_ERR_EMPTY;
    return tess_edit_fill_rect(p, level_id, cells->props.id, x, y, w * 3, h * 3, random_cell(p, rng), merge, err);
  } else if (op < 41) {
    edit_kind = 4;
    TessLayer *l = pick_layer(p, level, rng, tess_rng_below(rng, 2) ? TESS_LAYER_TILES : TESS_LAYER_MATERIAL);
    if (!l) return TESS_ERR_EMPTY;
    uint32_t v = l->props.kind == TESS_LAYER_MATERIAL ? random_material(p, rng) : random_cell(p, rng);
    return tess_edit_flood_fill(p, level_id, l->props.id, tess_rng_below(rng, level->settings.width),
                                tess_rng_below(rng, level->settings.height), v, merge, err);
  } else if (op < 48) {
    edit_kind = 5;
    return tess_edit_paint_material(p, level_id, x, y, w, h, random_material(p, rng), merge, err);
  } else if (op < 55) {
    edit_kind = 6;
    if (!objs) return TESS_ERR_EMPTY;
    TessObject o;
    tess_object_default(&o, (TessObjectKind)tess_rng_below(rng, 4));
    o.pos = tess_v2((float)tess_rng_below(rng, 1600), (float)tess_rng_below(rng, 1200));
    if (o.kind == TESS_OBJECT_BODY && p->sprite_count && tess_rng_below(rng, 2)) {
      o.u.body.shape = TESS_BODY_SPRITE;
      o.u.body.sprite = p->sprites[tess_rng_below(rng, p->sprite_count)]->id;
    }
    if (o.kind == TESS_OBJECT_BODY) o.u.body.material = random_material(p, rng);
    if (tess_rng_below(rng, 2)) {
      TessProperty prop;
      memset(&prop, 0, sizeof prop);
      snprintf(prop.name, sizeof prop.name, "hp");
      prop.type = TESS_PROP_STRING;
      prop.v.s = "ten";
      tess_object_set_property(&o, &prop);
    }
    TessResult r = tess_edit_object_add(p, level_id, objs->props.id, &o, NULL, err);
    tess_object_clear(&o);
    return r;
  } else if (op < 62) {
    edit_kind = 7;
    TessObject *live = random_object(level, rng);
    if (!live) return TESS_ERR_EMPTY;
    TessObject o;
    tess_object_copy(&o, live);
    o.pos.x += (float)tess_rng_below(rng, 9) - 4.0f;
    o.angle += 0.25f;
    TessProperty prop;
    memset(&prop, 0, sizeof prop);
    snprintf(prop.name, sizeof prop.name, "n");
    prop.type = TESS_PROP_INT;
    prop.v.i = (int64_t)tess_rng_below(rng, 1000);
    tess_object_set_property(&o, &prop);
    TessResult r = tess_edit_object_set(p, level_id, &o, merge, err);
    tess_object_clear(&o);
    return r;
  } else if (op < 65) {
    edit_kind = 8;
    TessObject *live = random_object(level, rng);
    return live ? tess_edit_object_remove(p, level_id, live->id, err) : TESS_ERR_EMPTY;
  } else if (op < 68) {
    edit_kind = 9;
    TessMaterial m;
    tess_material_default(&m);
    m.kind = (TessMaterialKind)tess_rng_below(rng, 3);
    m.friction = (float)tess_rng_below(rng, 100) / 50.0f;
    return tess_edit_material_add(p, &m, NULL, err);
  } else if (op < 71) {
    edit_kind = 10;
    if (!p->material_count) return TESS_ERR_EMPTY;
    TessMaterial m = p->materials[tess_rng_below(rng, p->material_count)];
    m.restitution = (float)tess_rng_below(rng, 100) / 100.0f;
    m.kind = (TessMaterialKind)tess_rng_below(rng, 3);
    return tess_edit_material_set(p, &m, merge, err);
  } else if (op < 73) {
    edit_kind = 11;
    if (p->material_count < 2) return TESS_ERR_EMPTY;
    TessId victim = p->materials[tess_rng_below(rng, p->material_count)].id;
    TessId repl = random_material(p, rng);
    return tess_edit_material_remove(p, victim, repl == victim ? 0 : repl, err);
  } else if (op < 75) {
    edit_kind = 12;
    static uint8_t png[] = {0x89, 'P', 'N', 'G', 0};
    TessTilesetDef def;
    tess_tileset_def_default(&def);
    def.name = "Random";
    def.png = png;
    def.png_size = sizeof png;
    def.image_w = 16u * (1 + tess_rng_below(rng, 4));
    def.image_h = 32;
    def.tile_w = def.tile_h = 16;
    def.default_material = random_material(p, rng);
    return tess_edit_tileset_add(p, &def, NULL, err);
  } else if (op < 78) {
    edit_kind = 13;
    if (!p->tileset_count) return TESS_ERR_EMPTY;
    TessTileset ts;
    tess_tileset_copy(&ts, p->tilesets[tess_rng_below(rng, p->tileset_count)]);
    uint32_t t = tess_rng_below(rng, ts.tile_count);
    ts.tiles[t].collision = (uint8_t)tess_rng_below(rng, 3);
    ts.tiles[t].material = random_material(p, rng);
    ts.tiles[t].one_way ^= 1;
    snprintf(ts.name, sizeof ts.name, "Tiles %u", tess_rng_below(rng, 100));
    TessResult r = tess_edit_tileset_set(p, &ts, merge, err);
    tess_tileset_clear(&ts);
    return r;
  } else if (op < 79) {
    edit_kind = 14;
    if (p->tileset_count < 2) return TESS_ERR_EMPTY;
    TessId victim = p->tilesets[tess_rng_below(rng, p->tileset_count)]->id;
    TessId to = tess_rng_below(rng, 2) ? p->tilesets[tess_rng_below(rng, p->tileset_count)]->id : 0;
    return tess_edit_tileset_remove(p, victim, to == victim ? 0 : to, err);
  } else if (op < 81) {
    edit_kind = 15;
    TessSprite s;
    fixture_sprite(&s, "Random");
    s.anchor.x = (float)tess_rng_below(rng, 8);
    return tess_edit_sprite_add(p, &s, NULL, err);
  } else if (op < 83) {
    edit_kind = 16;
    if (!p->sprite_count) return TESS_ERR_EMPTY;
    TessSprite s = *p->sprites[tess_rng_below(rng, p->sprite_count)];
    s.mask.tolerance = (float)tess_rng_below(rng, 10);
    s.mask.manual = 1;
    return tess_edit_sprite_set(p, &s, merge, err);
  } else if (op < 84) {
    edit_kind = 17;
    if (!p->sprite_count) return TESS_ERR_EMPTY;
    return tess_edit_sprite_remove(p, p->sprites[tess_rng_below(rng, p->sprite_count)]->id, err);
  } else if (op < 86) {
    edit_kind = 18;
    TessLayerKind kind = (TessLayerKind)tess_rng_below(rng, 3);
    return tess_edit_layer_add(p, level_id, kind, "Extra", (int)tess_rng_below(rng, level->layer_count + 2) - 1,
                               NULL, err);
  } else if (op < 89) {
    edit_kind = 19;
    TessLayer *l = pick_layer(p, level, rng, -1);
    if (!l) return TESS_ERR_EMPTY;
    TessLayerProps props = l->props;
    props.visible = !props.visible;
    props.opacity = (float)tess_rng_below(rng, 11) / 10.0f;
    if (tess_rng_below(rng, 4) == 0) props.locked = !props.locked;
    if (tess_rng_below(rng, 3) == 0) props.collides = !props.collides;
    return tess_edit_layer_set_props(p, level_id, &props, merge, err);
  } else if (op < 91) {
    edit_kind = 20;
    TessLayer *l = pick_layer(p, level, rng, -1);
    return l ? tess_edit_layer_move(p, level_id, l->props.id, (int)tess_rng_below(rng, level->layer_count), err)
             : TESS_ERR_EMPTY;
  } else if (op < 92) {
    edit_kind = 21;
    TessLayer *l = pick_layer(p, level, rng, -1);
    return l && level->layer_count > 2 ? tess_edit_layer_remove(p, level_id, l->props.id, err) : TESS_ERR_EMPTY;
  } else if (op < 93) {
    edit_kind = 22;
    TessLevelSettings s;
    tess_level_settings_default(&s);
    s.width = 10 + tess_rng_below(rng, 90);
    s.height = 10 + tess_rng_below(rng, 70);
    return tess_edit_level_add(p, &s, NULL, err);
  } else if (op < 96) {
    edit_kind = 23;
    TessLevelSettings s = level->settings;
    s.width = 10 + tess_rng_below(rng, 100);
    s.height = 10 + tess_rng_below(rng, 80);
    s.gravity.y = (float)tess_rng_below(rng, 20);
    return tess_edit_level_set(p, level_id, &s, (int)tess_rng_below(rng, 3), (int)tess_rng_below(rng, 3), err);
  } else if (op < 97) {
    edit_kind = 24;
    return p->level_count > 1 ? tess_edit_level_remove(p, level_id, err) : TESS_ERR_EMPTY;
  } else {
    edit_kind = 25;
    /* Unlock everything now and then so the sequence keeps editing. */
    for (uint32_t i = 0; i < level->layer_count; i++) {
      TessLayerProps props = level->layers[i]->props;
      if (!props.locked) continue;
      props.locked = false;
      TessResult r = tess_edit_layer_set_props(p, level_id, &props, 0, err);
      if (r) return r;
    }
    return TESS_OK;
  }
}
