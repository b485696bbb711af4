#include "pack_check.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "tessera/pack.h"
#include "tessera/scene.h"

static TessId material_id(const TlvLevel *lv, uint32_t index) {
  TlvMaterial m;
  if (index == 0 || !tlv_material(lv, index - 1, &m)) return 0;
  return m.id;
}

static void check_materials(const TessProject *p, const TlvLevel *lv) {
  CHECK(lv->materials.count == p->material_count);
  for (uint32_t i = 0; i < p->material_count && i < lv->materials.count; i++) {
    TlvMaterial m;
    CHECK(tlv_material(lv, i, &m));
    const TessMaterial *src = &p->materials[i];
    CHECK(m.id == src->id);
    CHECK(strcmp(tlv_string(lv, m.name), src->name) == 0);
    CHECK(m.color == src->color && m.kind == (uint32_t)src->kind);
    CHECK(m.friction == src->friction && m.restitution == src->restitution);
    CHECK(m.tangential == src->tangential && m.density == src->density);
  }
}

static void check_tiles(const TessProject *p, const TlvLevel *lv) {
  for (uint32_t i = 0; i < lv->tilesets.count; i++) {
    TlvTileset t;
    CHECK(tlv_tileset(lv, i, &t));
    const TessTileset *ts = tess_project_tileset(p, t.id);
    CHECK(ts != NULL);
    if (!ts) continue;
    CHECK(strcmp(tlv_string(lv, t.name), ts->name) == 0);
    CHECK(t.tile_count == ts->tile_count && t.columns == ts->columns && t.tile_w == ts->tile_w);
    for (uint32_t k = 0; k < ts->tile_count; k++) {
      TlvTile tile;
      CHECK(tlv_tile(lv, t.tile_first + k, &tile));
      const TessTileInfo *ti = &ts->tiles[k];
      CHECK(material_id(lv, tile.material) == ti->material);
      CHECK(tile.collision == ti->collision && tile.one_way == ti->one_way);
      uint32_t pieces = ti->collision == TESS_TILE_COLLISION_TRACED ? ti->piece_count : 0;
      CHECK(tile.polygon_count == pieces);
      for (uint32_t q = 0; q < tile.polygon_count && q < pieces; q++) {
        TlvPolygon poly;
        CHECK(tlv_polygon(lv, tile.polygon_first + q, &poly));
        CHECK(poly.vertex_count == ti->pieces[q].count);
        /* FORMAT.md 3.2: the piece as traced, or reversed (v[n-1-k]) when its
         * shoelace sum is negative, so that every polygon has a positive one. */
        uint32_t n = ti->pieces[q].count;
        double area = 0.0;
        for (uint32_t v = 0; v < n; v++)
          area += (double)ti->pieces[q].v[v].x * ti->pieces[q].v[(v + 1) % n].y -
                  (double)ti->pieces[q].v[(v + 1) % n].x * ti->pieces[q].v[v].y;
        for (uint32_t v = 0; v < poly.vertex_count && v < n; v++) {
          TlvVec2 vx;
          TessVec2 want = ti->pieces[q].v[area < 0.0 ? n - 1 - v : v];
          CHECK(tlv_vertex(lv, poly.vertex_first + v, &vx));
          CHECK(vx.x == want.x && vx.y == want.y);
        }
      }
    }
  }
}

static void check_layers(const TessProject *p, const TessLevel *level, const TlvLevel *lv) {
  uint32_t k = 0;
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    if (layer->props.kind == TESS_LAYER_OBJECTS) continue;
    TlvLayer t;
    CHECK(tlv_layer(lv, k++, &t));
    CHECK(t.id == layer->props.id && t.order == li);
    CHECK(strcmp(tlv_string(lv, t.name), layer->props.name) == 0);
    CHECK(t.opacity == layer->props.opacity);
    CHECK(!!(t.flags & TLV_LAYER_COLLIDES) == layer->props.collides);
    int bad = 0;
    for (uint32_t y = 0; y < level->settings.height && bad < 5; y++) {
      for (uint32_t x = 0; x < level->settings.width && bad < 5; x++) {
        uint32_t want = tess_layer_cell(layer, x, y), got = tlv_layer_cell(lv, &t, x, y);
        if (layer->props.kind == TESS_LAYER_MATERIAL) got = material_id(lv, got);
        else if (want && !tess_project_tile(p, want)) want = 0;
        if (want != got) {
          CHECK_MSG(want == got, "layer %u cell (%u,%u): 0x%08x != 0x%08x", li, x, y, want, got);
          bad++;
        }
      }
    }
  }
  CHECK(k == lv->layers.count);
}

/* The resolved grid matches the level's rule; the rectangles cover exactly
 * the solid full squares once each; the loops bound exactly their area and
 * each edge carries the material of the solid cell on its right. */
static void check_collision(const TessProject *p, const TessLevel *level, const TlvLevel *lv, const TessScene *sc) {
  uint32_t W = level->settings.width, H = level->settings.height;
  uint32_t *solid = tess_calloc((size_t)W * H, sizeof *solid);
  uint8_t *cover = tess_calloc((size_t)W * H, 1);
  long solid_count = 0;
  int bad = 0;
  for (uint32_t y = 0; y < H; y++) {
    for (uint32_t x = 0; x < W; x++) {
      TessCellCollision cc;
      TlvCollisionEntry e;
      tess_level_cell_collision(p, level, x, y, &cc);
      CHECK(tlv_collision_cell(lv, x, y, &e));
      /* The scene decides the kind (a traced tile whose pieces are all too thin collides as nothing). */
      uint8_t kind = sc ? sc->cell_kind[(size_t)y * W + x] : cc.kind;
      if (bad < 5 && (e.kind != kind || e.one_way != cc.one_way || material_id(lv, e.material) != cc.material ||
                      e.cell != (cc.tile && kind == TESS_MAP_TRACED ? cc.cell : 0u))) {
        CHECK_MSG(0, "collision (%u,%u) differs", x, y);
        bad++;
      }
      bool s = cc.kind == TESS_TILE_COLLISION_FULL && !cc.one_way;
      solid[(size_t)y * W + x] = s ? 1 + cc.material : 0;
      solid_count += s;
    }
  }
  long covered = 0;
  for (uint32_t i = 0; i < lv->rects.count; i++) {
    TlvRect r;
    CHECK(tlv_rect(lv, i, &r));
    for (uint32_t y = r.y; y < r.y + r.h; y++)
      for (uint32_t x = r.x; x < r.x + r.w; x++) {
        size_t c = (size_t)y * W + x;
        CHECK(cover[c] == 0);
        cover[c] = 1;
        CHECK(solid[c] == 1 + material_id(lv, r.material));
        covered++;
      }
  }
  CHECK(covered == solid_count);
  double area = 0;
  for (uint32_t i = 0; i < lv->loops.count; i++) {
    TlvLoop loop;
    CHECK(tlv_loop(lv, i, &loop));
    for (uint32_t v = 0; v < loop.corner_count; v++) {
      TlvCorner a, b;
      tlv_corner(lv, loop.corner_first + v, &a);
      tlv_corner(lv, loop.corner_first + (v + 1) % loop.corner_count, &b);
      double ax = a.x, ay = a.y, bx = b.x, by = b.y;
      area += 0.5 * (ax * by - bx * ay);
      /* Walk the edge cell by cell: the solid cell is on the right (screen, y down). */
      double len = fabs(bx - ax) + fabs(by - ay);
      CHECK(len > 0 && (ax == bx || ay == by));
      double dx = (bx - ax) / len, dy = (by - ay) / len;
      TessId m = material_id(lv, a.material);
      for (double t = 0.5; t < len; t += 1.0) {
        double mx = ax + dx * t, my = ay + dy * t;
        /* right of (dx, dy) on screen is (-dy, dx) */
        int cx = (int)floor(mx - dy * 0.5), cy = (int)floor(my + dx * 0.5);
        int ox = (int)floor(mx + dy * 0.5), oy = (int)floor(my - dx * 0.5);
        bool in = cx >= 0 && cy >= 0 && cx < (int)W && cy < (int)H && solid[(size_t)cy * W + cx];
        bool out = ox >= 0 && oy >= 0 && ox < (int)W && oy < (int)H && solid[(size_t)oy * W + ox];
        if (bad < 5 && (!in || out || solid[(size_t)cy * W + cx] != 1 + m)) {
          CHECK_MSG(0, "loop %u edge %u at (%.1f,%.1f): not a boundary with material %u", i, v, mx, my, m);
          bad++;
        }
      }
    }
  }
  /* Clockwise on screen with y down is a positive shoelace sum. */
  CHECK_NEAR(area, (double)solid_count, 1e-9);
  tess_free(solid);
  tess_free(cover);
}

static void check_props(const TlvLevel *lv, const TessObject *o, uint32_t first, uint32_t count) {
  CHECK(count == o->prop_count);
  for (uint32_t i = 0; i < count && i < o->prop_count; i++) {
    TlvProperty pr;
    const TessProperty *src = &o->props[i];
    CHECK(tlv_property(lv, first + i, &pr));
    CHECK(strcmp(tlv_string(lv, pr.name), src->name) == 0 && pr.type == src->type);
    switch (src->type) {
      case TESS_PROP_STRING: CHECK(strcmp(tlv_string(lv, (uint32_t)pr.i), src->v.s) == 0); break;
      case TESS_PROP_INT: CHECK(pr.i == src->v.i); break;
      case TESS_PROP_FLOAT: CHECK(pr.f == src->v.f); break;
      case TESS_PROP_BOOL: CHECK(pr.i == (src->v.b ? 1 : 0)); break;
      default: CHECK((uint32_t)pr.i == src->v.color); break;
    }
  }
}

static void check_objects(const TessProject *p, const TessLevel *level, const TlvLevel *lv) {
  uint32_t nb = 0, nj = 0, nz = 0, ns = 0, nl = 0;
  float ppm = level->settings.ppm;
  /* one pass per kind, in the file's order: bodies, joints, zones, spawns, launchers */
  for (int pass = 0; pass <= TESS_OBJECT_LAUNCHER; pass++) {
    for (uint32_t li = 0; li < level->layer_count; li++) {
      const TessLayer *layer = level->layers[li];
      for (uint32_t i = 0; i < layer->object_count; i++) {
        const TessObject *o = &layer->objects[i];
        if (o->kind != pass) continue;
        if (o->kind == TESS_OBJECT_BODY) {
          TlvBody b;
          if (!tlv_body(lv, nb++, &b)) {
            CHECK_MSG(0, "body %u missing", nb - 1);
            continue;
          }
          const TessBodyObject *src = &o->u.body;
          CHECK(b.object_id == o->id && strcmp(tlv_string(lv, b.name), o->name) == 0);
          CHECK(b.type == src->type && b.sensor == src->sensor && b.source == src->shape && b.pin == src->pin);
          CHECK(b.category == src->category && b.mask == src->mask);
          CHECK_NEAR(b.x, o->pos.x / (double)ppm, 1e-6 * (1 + fabs(o->pos.x / ppm)));
          CHECK_NEAR(b.y, o->pos.y / (double)ppm, 1e-6 * (1 + fabs(o->pos.y / ppm)));
          CHECK(b.angle == o->angle);
          TessId want_mat = src->material ? src->material : p->materials[0].id;
          CHECK(material_id(lv, b.material) == want_mat);
          double density = tess_project_material(p, want_mat)->density;
          TlvShape sh;
          if (src->shape == TESS_BODY_CIRCLE) {
            double r = src->radius / (double)ppm;
            CHECK(b.shape_count == 1 && tlv_shape(lv, b.shape_first, &sh) && sh.kind == TLV_SHAPE_CIRCLE);
            CHECK_REL(b.mass, density * M_PI * r * r, 1e-5);
            CHECK_REL(b.inertia, 0.5 * density * M_PI * r * r * r * r, 1e-5);
          } else if (src->shape == TESS_BODY_BOX) {
            double w = src->width / (double)ppm, h = src->height / (double)ppm, m = density * w * h;
            CHECK(b.shape_count == 1 && tlv_shape(lv, b.shape_first, &sh) && sh.kind == TLV_SHAPE_POLYGON);
            CHECK_REL(b.mass, m, 1e-5);
            CHECK_REL(b.inertia, m * (w * w + h * h) / 12.0, 1e-5);
            CHECK_NEAR(b.centroid_x, 0, 1e-6);
          } else if (src->shape == TESS_BODY_CAPSULE) {
            double r = 0.5 * src->height / ppm, half = fmax(0.0, 0.5 * src->width / ppm - r);
            if (half <= 1e-4) half = 0; /* the scene makes a circle of a capsule with no length */
            CHECK(b.shape_count == 1 && tlv_shape(lv, b.shape_first, &sh) &&
                  sh.kind == (half > 0 ? TLV_SHAPE_CAPSULE : TLV_SHAPE_CIRCLE));
            CHECK_REL(b.mass, density * (M_PI * r * r + 4 * half * r), 1e-5);
          } else {
            const TessSprite *sp = tess_project_sprite(p, src->sprite);
            TlvSprite ts;
            CHECK(b.sprite >= 1 && tlv_sprite(lv, b.sprite - 1, &ts) && ts.id == sp->id);
            /* Dynamic sprite bodies take the mask's pixel mass; the others, their shapes'. */
            CHECK(b.has_mass == (sp->mask.area > 0 && src->type == TESS_BODY_DYNAMIC));
            if (b.has_mass) {
              CHECK_REL(b.mass, density * sp->mask.area / ((double)ppm * ppm), 1e-5);
              CHECK_REL(b.inertia, density * sp->mask.inertia / ((double)ppm * ppm * ppm * ppm), 1e-5);
              CHECK_NEAR(b.centroid_x, (sp->mask.centroid_x - sp->anchor.x) / ppm, 1e-5);
            } else if (sp->mask.mode == TESS_MASK_CIRCLE) {
              double r = sp->mask.circle_radius / ppm;
              CHECK(b.shape_count == 1);
              CHECK_REL(b.mass, density * M_PI * r * r, 1e-5);
            } else {
              CHECK(b.shape_count == sp->mask.piece_count);
              double area = 0;
              for (uint32_t q = 0; q < b.shape_count; q++) {
                TlvPolygon poly;
                CHECK(tlv_shape(lv, b.shape_first + q, &sh) && sh.kind == TLV_SHAPE_POLYGON);
                CHECK(tlv_polygon(lv, sh.polygon, &poly));
                for (uint32_t v = 0; v < poly.vertex_count; v++) {
                  TlvVec2 a, c;
                  tlv_vertex(lv, poly.vertex_first + v, &a);
                  tlv_vertex(lv, poly.vertex_first + (v + 1) % poly.vertex_count, &c);
                  area += 0.5 * ((double)a.x * c.y - (double)c.x * a.y);
                }
              }
              CHECK_REL(b.mass, density * fabs(area), 1e-4);
            }
          }
          check_props(lv, o, b.prop_first, b.prop_count);
        } else if (o->kind == TESS_OBJECT_JOINT) {
          const TessJointObject *src = &o->u.joint;
          bool missing = (src->body_a && !tess_level_object(level, src->body_a, NULL)) ||
                         (src->body_b && !tess_level_object(level, src->body_b, NULL));
          if (missing) continue;
          TlvJoint j;
          CHECK(tlv_joint(lv, nj++, &j));
          CHECK(j.object_id == o->id && j.kind == src->kind);
          TlvBody ba;
          CHECK(src->body_a == 0 ? j.body_a == 0 : (tlv_body(lv, j.body_a - 1, &ba) && ba.object_id == src->body_a));
          CHECK(src->body_b == 0 ? j.body_b == 0 : (tlv_body(lv, j.body_b - 1, &ba) && ba.object_id == src->body_b));
          CHECK_NEAR(j.ax, o->pos.x / (double)ppm, 1e-6 * (1 + fabs(o->pos.x / ppm)));
          CHECK(j.lower == src->lower && j.upper == src->upper);
          CHECK(!!(j.flags & TLV_JOINT_LIMIT) == !!src->limit_enabled && !(j.flags & TLV_JOINT_AUTO_PIN));
          if (src->kind == TESS_JOINT_PIN) {
            CHECK(!!(j.flags & TLV_JOINT_MOTOR) == !!src->motor_enabled);
            CHECK(j.motor_speed == src->motor_speed && j.motor_torque == src->motor_torque);
          } else {
            CHECK(!(j.flags & TLV_JOINT_MOTOR) && j.motor_speed == 0.0f && j.motor_torque == 0.0f);
          }
          CHECK_NEAR(j.length, src->length / (double)ppm, 1e-6 * (1 + src->length / ppm));
          check_props(lv, o, j.prop_first, j.prop_count);
        } else if (o->kind == TESS_OBJECT_ZONE) {
          TlvZone z;
          CHECK(tlv_zone(lv, nz++, &z));
          CHECK(z.object_id == o->id && z.kind == o->u.zone.kind && z.vx == o->u.zone.vector.x);
          CHECK_NEAR(z.width, o->u.zone.width / (double)ppm, 1e-6 * (1 + o->u.zone.width / ppm));
          CHECK(z.strength == o->u.zone.strength);
          check_props(lv, o, z.prop_first, z.prop_count);
        } else if (o->kind == TESS_OBJECT_LAUNCHER) {
          TlvLauncher l;
          CHECK(tlv_launcher(lv, nl++, &l));
          CHECK(l.object_id == o->id && strcmp(tlv_string(lv, l.name), o->name) == 0);
          CHECK(l.speed == o->u.launcher.speed);
          CHECK_NEAR(l.radius, o->u.launcher.radius / (double)ppm, 1e-6 * (1 + o->u.launcher.radius / ppm));
          CHECK_NEAR(l.x, o->pos.x / (double)ppm, 1e-6 * (1 + fabs(o->pos.x / ppm)));
          check_props(lv, o, l.prop_first, l.prop_count);
        } else {
          TlvSpawn s;
          CHECK(tlv_spawn(lv, ns++, &s));
          CHECK(s.object_id == o->id && strcmp(tlv_string(lv, s.name), o->name) == 0);
          CHECK_NEAR(s.y, o->pos.y / (double)ppm, 1e-6 * (1 + fabs(o->pos.y / ppm)));
          check_props(lv, o, s.prop_first, s.prop_count);
        }
      }
    }
  }
  /* Pins made by overlap follow the level's own joints. */
  uint32_t auto_pins = 0;
  for (uint32_t i = nj; i < lv->joints.count; i++) {
    TlvJoint j;
    tlv_joint(lv, i, &j);
    CHECK(j.flags & TLV_JOINT_AUTO_PIN);
    auto_pins++;
  }
  CHECK(nb == lv->bodies.count && nj + auto_pins == lv->joints.count && nz == lv->zones.count && ns == lv->spawns.count &&
        nl == lv->launchers.count);
}

int pack_check_level(const TessProject *p, const TessLevel *level, const TlvLevel *lv) {
  int before = tess_test_failures;
  const TessLevelSettings *st = &level->settings;
  CHECK(lv->settings.width == st->width && lv->settings.height == st->height);
  CHECK(lv->settings.tile_w == st->tile_w && lv->settings.tile_h == st->tile_h);
  CHECK(lv->settings.ppm == st->ppm && lv->settings.gravity_x == st->gravity.x && lv->settings.gravity_y == st->gravity.y);
  CHECK(lv->settings.view == st->view && lv->settings.physics_hz == st->physics_hz);
  CHECK(lv->settings.substeps == st->substeps && lv->settings.floor_drag == st->floor_drag);
  CHECK(strcmp(tlv_string(lv, lv->settings.name), st->name) == 0);
  CHECK(lv->settings.level_id == level->id && lv->header.level_id == level->id);
  CHECK(lv->header.source_hash == tess_level_content_hash(p, level));
  check_materials(p, lv);
  check_tiles(p, lv);
  check_layers(p, level, lv);
  TessScene *from_level = NULL, *from_pack = NULL;
  TessError err;
  CHECK_OK(tess_scene_from_level(p, level, &from_level, &err), &err);
  CHECK_OK(tess_scene_from_pack(lv, &from_pack, &err), &err);
  CHECK_MSG(from_level && from_pack && tess_scene_equal(from_level, from_pack),
            "level '%s': the scene from the pack differs from the scene from the level", st->name);
  if (from_level && from_pack) CHECK(tess_scene_hash(from_level) == tess_scene_hash(from_pack));
  check_collision(p, level, lv, from_level);
  check_objects(p, level, lv);
  tess_scene_destroy(from_level);
  tess_scene_destroy(from_pack);
  return tess_test_failures - before;
}
