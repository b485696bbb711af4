#include "tlv_walk.h"

#include <string.h>

static uint64_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static uint64_t str(const TlvLevel *lv, uint32_t ref) {
  const char *s = tlv_string(lv, ref);
  return strlen(s) + (uint8_t)s[0];
}

static uint64_t polygon(const TlvLevel *lv, uint32_t index) {
  TlvPolygon p;
  TlvVec2 v;
  uint64_t sum = 0;
  if (!tlv_polygon(lv, index, &p)) return 1;
  for (uint32_t i = 0; i < p.vertex_count; i++)
    if (tlv_vertex(lv, p.vertex_first + i, &v)) sum += fbits(v.x) ^ fbits(v.y);
  return sum;
}

static uint64_t props(const TlvLevel *lv, uint32_t first, uint32_t count) {
  uint64_t sum = 0;
  TlvProperty p;
  for (uint32_t i = 0; i < count; i++) {
    if (!tlv_property(lv, first + i, &p)) continue;
    sum += str(lv, p.name) + (uint64_t)p.i;
    if (p.type == TLV_PROP_STRING) sum += str(lv, (uint32_t)p.i);
  }
  return sum;
}

uint64_t tlv_walk(const TlvLevel *lv) {
  uint64_t sum = str(lv, lv->settings.name);
  uint32_t i, k;
  TlvSectionInfo si;
  for (i = 0; tlv_section_info(lv, i, &si); i++) sum += si.type + si.size;
  for (i = 0; i < lv->materials.count; i++) {
    TlvMaterial m;
    if (tlv_material(lv, i, &m)) sum += str(lv, m.name) + fbits(m.density);
  }
  for (i = 0; i < lv->tilesets.count; i++) {
    TlvTileset t;
    if (!tlv_tileset(lv, i, &t)) continue;
    sum += str(lv, t.name) + str(lv, t.source);
    const uint8_t *img = tlv_blob(lv, t.image_offset, t.image_size);
    if (img) sum += img[0] + img[t.image_size - 1];
    for (k = 0; k < t.tile_count; k++) {
      TlvTile tile;
      if (!tlv_tile(lv, t.tile_first + k, &tile)) continue;
      sum += tile.material;
      TlvMaterial m;
      if (tile.material) sum += tlv_material(lv, tile.material - 1, &m) ? m.kind : 0;
      for (uint32_t q = 0; q < tile.polygon_count; q++) sum += polygon(lv, tile.polygon_first + q);
    }
  }
  for (i = 0; i < lv->layers.count; i++) {
    TlvLayer layer;
    if (!tlv_layer(lv, i, &layer)) continue;
    sum += str(lv, layer.name);
    for (uint32_t y = 0; y < lv->settings.height; y++)
      for (uint32_t x = 0; x < lv->settings.width; x++) {
        uint32_t c = tlv_layer_cell(lv, &layer, x, y);
        sum += c;
        if (layer.kind == TLV_LAYER_TILES) {
          int64_t t = tlv_cell_tile_index(lv, c);
          TlvTile tile;
          if (c && t >= 0 && tlv_tile(lv, (uint32_t)t, &tile)) sum += tile.collision;
        } else if (c) {
          TlvMaterial m;
          sum += tlv_material(lv, c - 1, &m) ? m.kind : 7;
        }
      }
  }
  for (uint32_t y = 0; y < lv->settings.height; y++)
    for (uint32_t x = 0; x < lv->settings.width; x++) {
      TlvCollisionEntry e;
      if (tlv_collision_cell(lv, x, y, &e)) sum += e.cell + e.material + e.kind;
    }
  for (i = 0; i < lv->loops.count; i++) {
    TlvLoop loop;
    TlvCorner c;
    TlvMaterial m;
    if (!tlv_loop(lv, i, &loop)) continue;
    for (k = 0; k < loop.corner_count; k++) {
      if (!tlv_corner(lv, loop.corner_first + k, &c)) continue;
      sum += c.x + c.y;
      if (c.material) sum += tlv_material(lv, c.material - 1, &m) ? m.kind : 5;
    }
  }
  for (i = 0; i < lv->rects.count; i++) {
    TlvRect r;
    TlvMaterial m;
    if (tlv_rect(lv, i, &r)) sum += r.x + r.w + (r.material && tlv_material(lv, r.material - 1, &m) ? m.kind : 0);
  }
  for (i = 0; i < lv->bodies.count; i++) {
    TlvBody b;
    if (!tlv_body(lv, i, &b)) continue;
    sum += str(lv, b.name) + fbits(b.mass) + props(lv, b.prop_first, b.prop_count);
    for (k = 0; k < b.shape_count; k++) {
      TlvShape s;
      if (!tlv_shape(lv, b.shape_first + k, &s)) continue;
      sum += s.kind + fbits(s.radius);
      if (s.kind == TLV_SHAPE_POLYGON) sum += polygon(lv, s.polygon);
    }
    TlvSprite sp;
    if (b.sprite && tlv_sprite(lv, b.sprite - 1, &sp)) {
      sum += str(lv, sp.name) + str(lv, sp.source);
      const uint8_t *img = tlv_blob(lv, sp.image_offset, sp.image_size);
      if (img) sum += img[sp.image_size - 1];
    }
  }
  for (i = 0; i < lv->joints.count; i++) {
    TlvJoint j;
    TlvBody b;
    if (!tlv_joint(lv, i, &j)) continue;
    sum += str(lv, j.name) + props(lv, j.prop_first, j.prop_count);
    if (j.body_a) sum += tlv_body(lv, j.body_a - 1, &b) ? b.object_id : 3;
    if (j.body_b) sum += tlv_body(lv, j.body_b - 1, &b) ? b.object_id : 3;
  }
  for (i = 0; i < lv->zones.count; i++) {
    TlvZone z;
    if (tlv_zone(lv, i, &z)) sum += str(lv, z.name) + props(lv, z.prop_first, z.prop_count);
  }
  for (i = 0; i < lv->spawns.count; i++) {
    TlvSpawn s;
    if (tlv_spawn(lv, i, &s)) sum += str(lv, s.name) + props(lv, s.prop_first, s.prop_count);
  }
  for (i = 0; i < lv->launchers.count; i++) {
    TlvLauncher l;
    if (tlv_launcher(lv, i, &l)) sum += str(lv, l.name) + props(lv, l.prop_first, l.prop_count) + l.material;
  }
  for (i = 0; i < lv->sprites.count; i++) {
    TlvSprite s;
    if (tlv_sprite(lv, i, &s)) sum += str(lv, s.name);
  }
  return sum;
}
