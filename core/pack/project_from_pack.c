/* tess_project_from_pack: a one-level TessProject rebuilt from a .tlv, for
 * tools that work on levels (the pipeline's `render FILE.tlv`). Positions
 * and sizes go back from metres to pixels (x * ppm), so they match the
 * source up to float rounding; tilesets and sprites carry their PNG bytes
 * only when the file embeds them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tessera/image.h"
#include "tessera/pack.h"
#include "tlv_reader.h"

/* Cut on a UTF-8 boundary: a long name must not become an invalid one. */
static void copy_name(char dst[TESS_NAME_MAX], const char *src) {
  strncpy(dst, src, TESS_NAME_MAX - 1);
  dst[TESS_NAME_MAX - 1] = '\0';
  size_t n = strlen(dst);
  if (n < TESS_NAME_MAX - 1 || !((unsigned char)src[n] >= 0x80 && (unsigned char)src[n] < 0xC0)) return;
  while (n > 0 && ((unsigned char)dst[n - 1] & 0xC0) == 0x80) n--; /* continuation bytes of the cut character */
  if (n > 0 && (unsigned char)dst[n - 1] >= 0xC0) n--;             /* and its lead byte */
  dst[n] = '\0';
}

/* The terrain sets (3.3) of TSET record `tileset` (1-based), as the project
 * holds them; false when out of memory. */
static bool terrains_from_pack(const TlvLevel *lv, uint32_t tileset, TessTerrainSet **out, uint32_t *count) {
  *out = NULL;
  *count = 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < lv->terrain_sets.count; i++) {
    TlvTerrainSet ts;
    tlv_terrain_set(lv, i, &ts);
    n += ts.tileset == tileset;
  }
  if (!n) return true;
  TessTerrainSet *sets = tess_calloc(n, sizeof *sets);
  if (!sets) return false;
  uint32_t k = 0;
  bool ok = true;
  for (uint32_t i = 0; ok && i < lv->terrain_sets.count; i++) {
    TlvTerrainSet ts;
    tlv_terrain_set(lv, i, &ts);
    if (ts.tileset != tileset) continue;
    TessTerrainSet *s = &sets[k++];
    copy_name(s->name, tlv_string(lv, ts.name));
    s->kind = (uint8_t)ts.kind;
    s->tile = ts.tile;
    s->colors = ts.color_count ? tess_calloc(ts.color_count, sizeof *s->colors) : NULL;
    s->tiles = ts.tile_count ? tess_calloc(ts.tile_count, sizeof *s->tiles) : NULL;
    ok = (s->colors || !ts.color_count) && (s->tiles || !ts.tile_count);
    if (!ok) break;
    s->color_count = ts.color_count;
    s->tile_count = ts.tile_count;
    for (uint32_t c = 0; c < ts.color_count; c++) {
      TlvTerrainColor tc;
      tlv_terrain_color(lv, ts.color_first + c, &tc);
      copy_name(s->colors[c].name, tlv_string(lv, tc.name));
      s->colors[c].color = tc.color;
      s->colors[c].probability = tc.probability;
      s->colors[c].tile = tc.tile;
    }
    for (uint32_t t = 0; t < ts.tile_count; t++) {
      TlvTerrainTile tt;
      tlv_terrain_tile(lv, ts.tile_first + t, &tt);
      s->tiles[t].tile = tt.tile;
      memcpy(s->tiles[t].wang, tt.wang, 8);
      s->tiles[t].probability = tt.probability;
    }
  }
  if (!ok) {
    tess_terrain_sets_free(sets, n);
    return false;
  }
  *out = sets;
  *count = n;
  return true;
}

static TessId material_id(const TlvLevel *lv, uint32_t index) {
  TlvMaterial m;
  return index && tlv_material(lv, index - 1, &m) ? m.id : 0;
}

static TessResult set_props(const TlvLevel *lv, TessObject *o, uint32_t first, uint32_t count, TessError *err) {
  for (uint32_t i = 0; i < count; i++) {
    TlvProperty tp;
    TessProperty pr;
    memset(&pr, 0, sizeof pr);
    if (!tlv_property(lv, first + i, &tp)) continue;
    copy_name(pr.name, tlv_string(lv, tp.name));
    pr.type = (uint8_t)tp.type;
    switch (tp.type) {
      case TLV_PROP_STRING: pr.v.s = (char *)tlv_string(lv, (uint32_t)tp.i); break;
      case TLV_PROP_INT: pr.v.i = tp.i; break;
      case TLV_PROP_FLOAT: pr.v.f = tp.f; break;
      case TLV_PROP_BOOL: pr.v.b = tp.i != 0; break;
      default: pr.v.color = (uint32_t)tp.i; break;
    }
    TessResult r = tess_object_set_property(o, &pr); /* copies the string */
    if (r != TESS_OK) return tess_error_set(err, r, "tlv", "property %s", pr.name);
  }
  return TESS_OK;
}

/* PNG bytes for an image the file does not embed: its source path, read
 * relative to image_dir (an absolute path as it is). NULL when absent. */
static uint8_t *load_source(const char *image_dir, const char *source, size_t *size) {
  if (!image_dir || !source || !*source) return NULL;
  size_t n = strlen(image_dir) + strlen(source) + 2;
  char *path = tess_alloc(n);
  if (!path) return NULL;
  if (source[0] == '/') snprintf(path, n, "%s", source);
  else snprintf(path, n, "%s/%s", image_dir, source);
  uint8_t *data = NULL;
  TessError ignored;
  if (tess_file_read(path, (size_t)1 << 30, &data, size, &ignored) != TESS_OK) data = NULL;
  tess_free(path);
  return data;
}

/* An image's PNG bytes: embedded in the file (a view into it), or else read
 * from its source path under image_dir (returned, for the caller to free).
 * A file on disk that is not the w x h image the level was made with (it
 * changed since the export) is left out like a missing one: drawn as a
 * placeholder, never read beyond its pixels. Embedded bytes of another size
 * stay, and the project refuses them (tess_project_insert_*): that file is
 * inconsistent in itself. */
static uint8_t *image_bytes(const TlvLevel *lv, const char *image_dir, uint32_t source, uint32_t offset, uint32_t size,
                            uint32_t w, uint32_t h, uint8_t **png, size_t *png_size) {
  *png = (uint8_t *)tlv_blob(lv, offset, size);
  *png_size = *png ? size : 0;
  if (*png) return NULL;
  uint8_t *loaded = load_source(image_dir, tlv_string(lv, source), png_size);
  uint32_t lw = 0, lh = 0;
  if (loaded && tess_png_info(loaded, *png_size, "image", &lw, &lh, NULL) == TESS_OK && (lw != w || lh != h)) {
    tess_free(loaded);
    loaded = NULL;
    *png_size = 0;
  }
  if (loaded) *png = loaded;
  return loaded;
}

static TessResult add_assets(const TlvLevel *lv, const char *image_dir, TessProject *p, TessError *err) {
  for (uint32_t i = 0; i < lv->materials.count; i++) {
    TlvMaterial tm;
    TessMaterial m;
    tlv_material(lv, i, &tm);
    tess_material_default(&m);
    m.id = tm.id;
    copy_name(m.name, tlv_string(lv, tm.name));
    m.color = tm.color;
    m.kind = (TessMaterialKind)tm.kind;
    m.friction = tm.friction;
    m.restitution = tm.restitution;
    m.tangential = tm.tangential;
    m.density = tm.density;
    TessResult r = tess_project_insert_material(p, &m, err);
    if (r != TESS_OK) return r;
  }
  for (uint32_t i = 0; i < lv->tilesets.count; i++) {
    TlvTileset tt;
    tlv_tileset(lv, i, &tt);
    TessTileset ts;
    memset(&ts, 0, sizeof ts);
    ts.id = tt.id;
    copy_name(ts.name, tlv_string(lv, tt.name));
    ts.source_path = tt.source ? (char *)tlv_string(lv, tt.source) : NULL;
    uint8_t *loaded = image_bytes(lv, image_dir, tt.source, tt.image_offset, tt.image_size, tt.image_w, tt.image_h, &ts.png,
                                  &ts.png_size);
    ts.image_w = tt.image_w;
    ts.image_h = tt.image_h;
    ts.tile_w = tt.tile_w;
    ts.tile_h = tt.tile_h;
    ts.margin = tt.margin;
    ts.spacing = tt.spacing;
    ts.columns = tt.columns;
    ts.tile_count = tt.tile_count;
    ts.alpha_threshold = (uint8_t)tt.alpha_threshold;
    /* A file before 3.4 scales every tile into its cell: such a tileset keeps
     * that meaning (fit_cell) where it differs from drawing the tile at its
     * own size, i.e. unless the tiles are square and the cell's size. */
    bool same = tt.tile_w == lv->settings.tile_w && tt.tile_h == lv->settings.tile_h && tt.tile_w == tt.tile_h;
    ts.fit_cell = tt.placement == TLV_PLACE_FIT_CELL && !same ? 1 : 0;
    ts.offset_x = tt.placement == TLV_PLACE_NATIVE ? tt.offset_x : 0;
    ts.offset_y = tt.placement == TLV_PLACE_NATIVE ? tt.offset_y : 0;
    ts.tiles = tess_calloc(tt.tile_count ? tt.tile_count : 1, sizeof *ts.tiles);
    uint32_t pieces = 0;
    for (uint32_t k = 0; k < tt.tile_count; k++) {
      TlvTile t;
      tlv_tile(lv, tt.tile_first + k, &t);
      pieces += t.polygon_count;
    }
    TessPolygon *pool = tess_calloc(pieces ? pieces : 1, sizeof *pool);
    if (!ts.tiles || !pool || !terrains_from_pack(lv, i + 1, &ts.terrains, &ts.terrain_count)) {
      tess_free(loaded);
      tess_free(ts.tiles);
      tess_free(pool);
      return tess_error_set(err, TESS_ERR_NOMEM, "tlv", "out of memory");
    }
    uint32_t used = 0;
    for (uint32_t k = 0; k < tt.tile_count; k++) {
      TlvTile t;
      tlv_tile(lv, tt.tile_first + k, &t);
      TessTileInfo *ti = &ts.tiles[k];
      ti->material = material_id(lv, t.material);
      ti->collision = t.collision;
      ti->one_way = t.one_way;
      ti->pieces = pool + used;
      ti->piece_count = (uint16_t)t.polygon_count;
      for (uint32_t q = 0; q < t.polygon_count; q++, used++) {
        TlvPolygon poly;
        tlv_polygon(lv, t.polygon_first + q, &poly);
        pool[used].count = poly.vertex_count;
        for (uint32_t v = 0; v < poly.vertex_count && v < TESS_POLY_MAX; v++) {
          TlvVec2 pt;
          tlv_vertex(lv, poly.vertex_first + v, &pt);
          pool[used].v[v] = tess_v2(pt.x, pt.y);
        }
      }
      if (!ti->piece_count) ti->pieces = NULL;
    }
    TessResult r = tess_project_insert_tileset(p, &ts, err); /* deep copy */
    tess_free(loaded);
    tess_free(ts.tiles);
    tess_terrain_sets_free(ts.terrains, ts.terrain_count);
    tess_free(pool);
    if (r != TESS_OK) return r;
  }
  for (uint32_t i = 0; i < lv->sprites.count; i++) {
    TlvSprite tsp;
    tlv_sprite(lv, i, &tsp);
    TessSprite s;
    memset(&s, 0, sizeof s);
    s.id = tsp.id;
    copy_name(s.name, tlv_string(lv, tsp.name));
    s.source_path = tsp.source ? (char *)tlv_string(lv, tsp.source) : NULL;
    uint8_t *loaded = image_bytes(lv, image_dir, tsp.source, tsp.image_offset, tsp.image_size, tsp.image_w, tsp.image_h,
                                  &s.png, &s.png_size);
    s.image_w = tsp.image_w;
    s.image_h = tsp.image_h;
    s.frame_count = tsp.frame_count;
    s.frame_rate = tsp.frame_rate;
    s.anchor = tess_v2(tsp.anchor_x, tsp.anchor_y);
    tess_sprite_mask_default(&s.mask);
    TessResult r = tess_project_insert_sprite(p, &s, err);
    tess_free(loaded);
    if (r != TESS_OK) return r;
  }
  return TESS_OK;
}

static TessResult add_layers(const TlvLevel *lv, TessProject *p, TessLevel *level, TessId *object_layer, TessError *err) {
  const TlvSettings *st = &lv->settings;
  uint32_t cells[TESS_CHUNK_CELLS];
  TessId max_id = 0;
  for (uint32_t i = 0; i < lv->layers.count; i++) {
    TlvLayer tl;
    tlv_layer(lv, i, &tl);
    TessLayerProps props;
    memset(&props, 0, sizeof props);
    props.id = tl.id;
    copy_name(props.name, tlv_string(lv, tl.name));
    props.kind = tl.kind == TLV_LAYER_MATERIAL ? TESS_LAYER_MATERIAL : TESS_LAYER_TILES;
    props.visible = (tl.flags & TLV_LAYER_VISIBLE) != 0;
    props.locked = (tl.flags & TLV_LAYER_LOCKED) != 0;
    props.collides = (tl.flags & TLV_LAYER_COLLIDES) != 0;
    props.collide_pixels = (tl.flags & TLV_LAYER_PIXELS) != 0;
    props.opacity = tl.opacity;
    if (tl.id > max_id) max_id = tl.id;
    TessLayer *layer = NULL;
    TessResult r = tess_level_insert_layer(p, level, &props, &layer, err);
    if (r != TESS_OK) return r;
    for (uint32_t cy = 0; cy * TESS_CHUNK_SIZE < st->height; cy++) {
      for (uint32_t cx = 0; cx * TESS_CHUNK_SIZE < st->width; cx++) {
        bool any = false;
        for (uint32_t yy = 0; yy < TESS_CHUNK_SIZE; yy++)
          for (uint32_t xx = 0; xx < TESS_CHUNK_SIZE; xx++) {
            uint32_t v = tlv_layer_cell(lv, &tl, cx * TESS_CHUNK_SIZE + xx, cy * TESS_CHUNK_SIZE + yy);
            if (tl.kind == TLV_LAYER_MATERIAL) v = material_id(lv, v);
            cells[yy * TESS_CHUNK_SIZE + xx] = v;
            any = any || v;
          }
        if (any && (r = tess_layer_insert_chunk(layer, cx, cy, cells, err)) != TESS_OK) return r;
      }
    }
  }
  TessLayerProps props;
  memset(&props, 0, sizeof props);
  props.id = max_id + 1;
  copy_name(props.name, "Objects");
  props.kind = TESS_LAYER_OBJECTS;
  props.visible = true;
  props.opacity = 1.0f;
  *object_layer = props.id;
  return tess_level_insert_layer(p, level, &props, NULL, err);
}

static TessResult add_objects(const TlvLevel *lv, TessProject *p, TessLevel *level, TessId layer_id, TessError *err) {
  TessLayer *layer = tess_level_layer(level, layer_id);
  float ppm = lv->settings.ppm;
  TessResult r = TESS_OK;
  for (uint32_t i = 0; i < lv->bodies.count && r == TESS_OK; i++) {
    TlvBody b;
    tlv_body(lv, i, &b);
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_BODY);
    o.id = b.object_id;
    copy_name(o.name, tlv_string(lv, b.name));
    o.pos = tess_v2(b.x * ppm, b.y * ppm);
    o.angle = b.angle;
    /* 3.5's draw order: the bodies share one object layer here, which
     * sorts by y when any of theirs did. */
    TlvBodyDraw draw;
    if (tlv_body_draw(lv, i, &draw)) {
      o.depth = draw.depth;
      if (draw.y_sort) layer->props.y_sort = true;
    }
    TessBodyObject *bo = &o.u.body;
    bo->shape = b.source;
    bo->type = b.type;
    bo->sensor = b.sensor;
    bo->pin = b.pin;
    bo->material = material_id(lv, b.material);
    bo->category = b.category;
    bo->mask = b.mask;
    bo->integrator = b.integrator;
    for (uint32_t k = 0; k < lv->pixel_masks.count; k++) { /* 3.9: a static body with its own pixel mask */
      TlvPixelMask pm;
      if (tlv_pixel_mask(lv, k, &pm) && pm.body == i + 1) bo->collide_pixels = true;
    }
    TlvSprite sp;
    bo->sprite = b.sprite && tlv_sprite(lv, b.sprite - 1, &sp) ? sp.id : 0;
    TlvShape sh;
    if (b.shape_count && tlv_shape(lv, b.shape_first, &sh)) {
      if (sh.kind == TLV_SHAPE_CIRCLE) {
        bo->radius = sh.radius * ppm;
        bo->width = bo->height = 2.0f * sh.radius * ppm;
      } else if (sh.kind == TLV_SHAPE_CAPSULE) {
        float dx = sh.bx - sh.ax, dy = sh.by - sh.ay;
        bo->height = 2.0f * sh.radius * ppm;
        bo->width = (sqrtf(dx * dx + dy * dy) + 2.0f * sh.radius) * ppm;
      } else {
        TlvPolygon poly;
        float lo_x = 0, hi_x = 0, lo_y = 0, hi_y = 0;
        if (tlv_polygon(lv, sh.polygon, &poly))
          for (uint32_t v = 0; v < poly.vertex_count; v++) {
            TlvVec2 pt;
            tlv_vertex(lv, poly.vertex_first + v, &pt);
            lo_x = v ? fminf(lo_x, pt.x) : pt.x;
            hi_x = v ? fmaxf(hi_x, pt.x) : pt.x;
            lo_y = v ? fminf(lo_y, pt.y) : pt.y;
            hi_y = v ? fmaxf(hi_y, pt.y) : pt.y;
          }
        bo->width = (hi_x - lo_x) * ppm;
        bo->height = (hi_y - lo_y) * ppm;
      }
    }
    if (bo->shape == TESS_BODY_SPRITE && !bo->sprite) bo->shape = TESS_BODY_CIRCLE; /* the sprite was left out */
    if (bo->shape == TESS_BODY_CIRCLE && !(bo->radius > 0)) bo->radius = 1.0f;
    if ((bo->shape == TESS_BODY_BOX || bo->shape == TESS_BODY_CAPSULE) && !(bo->width > 0 && bo->height > 0))
      bo->width = bo->height = 1.0f;
    r = set_props(lv, &o, b.prop_first, b.prop_count, err);
    if (r == TESS_OK) r = tess_layer_insert_object(p, layer, &o, err);
    tess_object_clear(&o);
  }
  for (uint32_t i = 0; i < lv->joints.count && r == TESS_OK; i++) {
    TlvJoint j;
    tlv_joint(lv, i, &j);
    if (j.flags & TLV_JOINT_AUTO_PIN) continue; /* the level says it with the bodies' pin modes */
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_JOINT);
    o.id = j.object_id;
    copy_name(o.name, tlv_string(lv, j.name));
    o.pos = tess_v2(j.ax * ppm, j.ay * ppm);
    TessJointObject *jo = &o.u.joint;
    TlvBody b;
    jo->kind = (uint8_t)j.kind;
    jo->limit_enabled = (j.flags & TLV_JOINT_LIMIT) ? 1 : 0;
    jo->motor_enabled = (j.flags & TLV_JOINT_MOTOR) ? 1 : 0;
    jo->motor_speed = j.motor_speed;
    jo->motor_torque = j.motor_torque;
    jo->body_a = j.body_a && tlv_body(lv, j.body_a - 1, &b) ? b.object_id : 0;
    jo->body_b = j.body_b && tlv_body(lv, j.body_b - 1, &b) ? b.object_id : 0;
    jo->anchor_b = tess_v2(j.bx * ppm, j.by * ppm);
    jo->length = j.length * ppm;
    jo->lower = j.lower;
    jo->upper = j.upper;
    r = set_props(lv, &o, j.prop_first, j.prop_count, err);
    if (r == TESS_OK) r = tess_layer_insert_object(p, layer, &o, err);
    tess_object_clear(&o);
  }
  for (uint32_t i = 0; i < lv->zones.count && r == TESS_OK; i++) {
    TlvZone z;
    tlv_zone(lv, i, &z);
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_ZONE);
    o.id = z.object_id;
    copy_name(o.name, tlv_string(lv, z.name));
    o.pos = tess_v2(z.x * ppm, z.y * ppm);
    o.angle = z.angle;
    o.u.zone.kind = (uint8_t)z.kind;
    o.u.zone.width = z.width * ppm;
    o.u.zone.height = z.height * ppm;
    o.u.zone.vector = tess_v2(z.vx, z.vy);
    o.u.zone.strength = z.strength;
    o.u.zone.radius = z.radius * ppm;
    r = set_props(lv, &o, z.prop_first, z.prop_count, err);
    if (r == TESS_OK) r = tess_layer_insert_object(p, layer, &o, err);
    tess_object_clear(&o);
  }
  for (uint32_t i = 0; i < lv->spawns.count && r == TESS_OK; i++) {
    TlvSpawn s;
    tlv_spawn(lv, i, &s);
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_SPAWN);
    o.id = s.object_id;
    copy_name(o.name, tlv_string(lv, s.name));
    o.pos = tess_v2(s.x * ppm, s.y * ppm);
    o.angle = s.angle;
    r = set_props(lv, &o, s.prop_first, s.prop_count, err);
    if (r == TESS_OK) r = tess_layer_insert_object(p, layer, &o, err);
    tess_object_clear(&o);
  }
  for (uint32_t i = 0; i < lv->launchers.count && r == TESS_OK; i++) {
    TlvLauncher l;
    tlv_launcher(lv, i, &l);
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_LAUNCHER);
    o.id = l.object_id;
    copy_name(o.name, tlv_string(lv, l.name));
    o.pos = tess_v2(l.x * ppm, l.y * ppm);
    o.angle = l.angle;
    o.u.launcher.speed = l.speed;
    o.u.launcher.radius = l.radius * ppm;
    o.u.launcher.material = material_id(lv, l.material);
    o.u.launcher.sprite = l.sprite;
    r = set_props(lv, &o, l.prop_first, l.prop_count, err);
    if (r == TESS_OK) r = tess_layer_insert_object(p, layer, &o, err);
    tess_object_clear(&o);
  }
  return r;
}

TessResult tess_project_from_pack(const struct TlvLevel *lv, const char *image_dir, TessProject **out, TessError *err) {
  if (!lv || !out) return tess_error_set(err, TESS_ERR_INVALID, "tlv", "no level or no output");
  TessProject *p = tess_project_create();
  if (!p) return tess_error_set(err, TESS_ERR_NOMEM, "tlv", "out of memory");
  const TlvSettings *st = &lv->settings;
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  copy_name(ls.name, tlv_string(lv, st->name));
  if (!ls.name[0]) copy_name(ls.name, "Level");
  ls.width = st->width;
  ls.height = st->height;
  ls.tile_w = st->tile_w;
  ls.tile_h = st->tile_h;
  ls.ppm = st->ppm;
  ls.gravity = tess_v2(st->gravity_x, st->gravity_y);
  ls.view = (uint8_t)st->view;
  ls.physics_hz = st->physics_hz;
  ls.substeps = st->substeps;
  ls.floor_drag = st->floor_drag;
  TessLevel *level = NULL;
  TessId object_layer = 0;
  TessResult r = add_assets(lv, image_dir, p, err);
  if (r == TESS_OK) r = tess_project_insert_level(p, st->level_id ? st->level_id : 1, &ls, &level, err);
  if (r == TESS_OK) r = add_layers(lv, p, level, &object_layer, err);
  if (r == TESS_OK) r = add_objects(lv, p, level, object_layer, err);
  if (r != TESS_OK) {
    tess_project_destroy(p);
    return r;
  }
  *out = p;
  return TESS_OK;
}
