/* Tiled objects, properties, materials and per-tile collision shapes in
 * Tessera's terms. The mapping table is in core/formats/README.md; each
 * refusal leaves a warning naming the object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/geom.h"
#include "formats_tiled.h"

#define PI_D 3.14159265358979323846

static TessResult nomem(TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, NULL, "out of memory"); }

const TiledProp *tiled_prop(const TiledProps *props, const char *name) {
  for (uint32_t i = props->count; i-- > 0;)
    if (strcmp(props->items[i].name, name) == 0) return &props->items[i];
  return NULL;
}

/* Length of the longest prefix of s that fits n bytes without splitting a UTF-8 sequence. */
static size_t utf8_prefix(const char *s, size_t n) {
  size_t len = strlen(s);
  if (len <= n) return len;
  while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
  return n;
}

void tiled_name_copy(TessMapImport *plan, char dst[TESS_NAME_MAX], const char *src, const char *what) {
  size_t n = utf8_prefix(src, TESS_NAME_MAX - 1);
  memcpy(dst, src, n);
  dst[n] = 0;
  if (src[n]) tess_map_import_warn(plan, "%s '%s' cut to %u bytes: '%s'", what, src, TESS_NAME_MAX - 1, dst);
}

/* Tiled colours are #AARRGGBB; Tessera's are 0xRRGGBBAA. */
static uint32_t argb_to_rgba(uint32_t argb) { return argb << 8 | argb >> 24; }

TessResult tiled_prop_to_object(TessMapImport *plan, const TiledProp *tp, TessObject *obj, const char *owner, TessError *err) {
  TessProperty p;
  memset(&p, 0, sizeof p);
  tiled_name_copy(plan, p.name, tp->name, "property name");
  double d;
  int32_t i;
  uint32_t c;
  const char *t = tp->type;
  if (strcmp(t, "int") == 0 || strcmp(t, "object") == 0) {
    if (!tiled_parse_i32(tp->value, &i) && !(tp->value[0] == 0 && strcmp(t, "object") == 0))
      return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: property '%s': '%s' is not an integer", owner, tp->name, tp->value);
    if (tp->value[0] == 0) i = 0;
    p.type = TESS_PROP_INT; /* an object reference: the map's id here, the id its object gets after tiled_resolve_refs */
    p.v.i = i;
  } else if (strcmp(t, "float") == 0) {
    if (!tiled_parse_double(tp->value, &d))
      return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: property '%s': '%s' is not a finite number", owner,
                            tp->name, tp->value);
    p.type = TESS_PROP_FLOAT;
    p.v.f = d;
  } else if (strcmp(t, "bool") == 0) {
    p.type = TESS_PROP_BOOL;
    p.v.b = strcmp(tp->value, "true") == 0;
  } else if (strcmp(t, "color") == 0) {
    p.type = TESS_PROP_COLOR;
    p.v.color = 0;
    if (tp->value[0] && !tiled_parse_color(tp->value, &c))
      return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: property '%s': '%s' is not a colour", owner, tp->name,
                            tp->value);
    if (tp->value[0]) p.v.color = argb_to_rgba(c);
  } else {
    /* string, file (the path as written) and anything newer Tiled adds. */
    p.type = TESS_PROP_STRING;
    p.v.s = tp->value;
  }
  return tess_object_set_property(obj, &p) ? nomem(err) : TESS_OK;
}

TessResult tiled_props_to_object(TessMapImport *plan, const TiledProps *props, TessObject *obj, const char *owner,
                                 TessError *err) {
  for (uint32_t i = 0; i < props->count; i++) {
    TessResult r = tiled_prop_to_object(plan, &props->items[i], obj, owner, err);
    if (r) return r;
  }
  return TESS_OK;
}

static TessResult prop_number(TessMapImport *plan, const TiledProps *props, const char *name, const char *owner, double lo,
                              double hi, float *out, TessError *err) {
  const TiledProp *p = tiled_prop(props, name);
  if (!p) return TESS_OK;
  double d;
  if (!tiled_parse_double(p->value, &d) || d < lo || d > hi)
    return tess_error_set(err, TESS_ERR_INVALID, plan->source, "%s: property '%s' = '%s' must be a number in [%g, %g]", owner,
                          name, p->value, lo, hi);
  *out = (float)d;
  return TESS_OK;
}

TessResult tiled_material_from_props(TessMapImport *plan, const TiledProps *props, const char *owner, TessId *out,
                                     TessError *err) {
  const TiledProp *name = tiled_prop(props, "material");
  if (!name || !name->value[0]) return TESS_OK;
  TessMaterial m;
  tess_material_default(&m);
  tiled_name_copy(plan, m.name, name->value, "material name");
  TessResult r;
  if ((r = prop_number(plan, props, "friction", owner, 0, 100, &m.friction, err)) ||
      (r = prop_number(plan, props, "restitution", owner, 0, 1, &m.restitution, err)) ||
      (r = prop_number(plan, props, "tangential", owner, 0, 1, &m.tangential, err)) ||
      (r = prop_number(plan, props, "density", owner, 1e-6, 1e6, &m.density, err)))
    return r;
  const TiledProp *kind = tiled_prop(props, "material_kind");
  if (kind) {
    if (strcmp(kind->value, "solid") == 0) m.kind = TESS_MATERIAL_SOLID;
    else if (strcmp(kind->value, "floor") == 0) m.kind = TESS_MATERIAL_FLOOR;
    else if (strcmp(kind->value, "fluid") == 0) m.kind = TESS_MATERIAL_FLUID;
    else
      return tess_error_set(err, TESS_ERR_INVALID, plan->source, "%s: material_kind '%s' is not solid, floor or fluid", owner,
                            kind->value);
  }
  const TiledProp *color = tiled_prop(props, "material_color");
  uint32_t argb;
  if (color && tiled_parse_color(color->value, &argb)) m.color = argb_to_rgba(argb);
  for (uint32_t i = 0; i < plan->material_count; i++)
    if (strcmp(plan->materials[i].name, m.name) == 0) {
      /* The first definition of a name wins; a different one later is reported. */
      const TessMaterial *a = &plan->materials[i];
      bool defines = tiled_prop(props, "friction") || tiled_prop(props, "restitution") || tiled_prop(props, "density") ||
                     tiled_prop(props, "tangential") || kind;
      if (defines && (a->friction != m.friction || a->restitution != m.restitution || a->density != m.density ||
                      a->tangential != m.tangential || a->kind != m.kind))
        tess_map_import_warn(plan, "%s: material '%s' defined differently before; the first definition is kept", owner, m.name);
      *out = i + 1;
      return TESS_OK;
    }
  if ((r = tess_material_validate(&m, err))) return tess_error_set(err, r, plan->source, "%s: %s", owner, err ? err->detail : "");
  TessMaterial *n = tess_realloc(plan->materials, (plan->material_count + 1) * sizeof *n);
  if (!n) return nomem(err);
  plan->materials = n;
  m.id = plan->material_count + 1;
  n[plan->material_count++] = m;
  *out = m.id;
  return TESS_OK;
}

/* ---- Objects ----------------------------------------------------------- */

static bool body_type_from(const TiledProps *props, uint8_t *type) {
  const TiledProp *p = tiled_prop(props, "body_type");
  if (!p) return true;
  if (strcmp(p->value, "static") == 0) *type = TESS_BODY_STATIC;
  else if (strcmp(p->value, "kinematic") == 0) *type = TESS_BODY_KINEMATIC;
  else if (strcmp(p->value, "dynamic") == 0) *type = TESS_BODY_DYNAMIC;
  else return false;
  return true;
}

static const char *cls_of(const TiledObject *ob) { return ob->cls ? ob->cls : ""; }

static TessResult refuse(TessMapImport *plan, const TiledObject *ob, const char *layer, const char *why, bool *keep) {
  tess_map_import_warn(plan, "layer '%s' object %u '%s': %s", layer, ob->id, ob->name ? ob->name : "", why);
  *keep = false;
  return TESS_OK;
}

TessResult tiled_object_convert(TessMapImport *plan, const TiledObject *ob, double dx, double dy, const char *layer,
                                TessId sprite, TessObject *out, bool *keep, TessError *err) {
  *keep = false;
  const char *cls = cls_of(ob);
  if (tiled_tessera_object(ob)) {
    char who[200];
    snprintf(who, sizeof who, "layer '%s' object %u", layer, ob->id);
    TessResult r = tiled_tessera_object_convert(plan, ob, dx, dy, sprite, who, out, err);
    if (!r && !ob->visible) tess_map_import_warn(plan, "%s: hidden in Tiled, imported visible (Tessera objects are always shown)", who);
    if (!r) r = tess_object_validate(out, err);
    if (r) {
      char detail[sizeof err->detail];
      snprintf(detail, sizeof detail, "%s", err ? err->detail : "");
      tess_object_clear(out);
      return strstr(detail, who) ? r : tess_error_set(err, r, plan->source, "%s: %s", who, detail);
    }
    out->id = ob->id;
    *keep = true;
    return TESS_OK;
  }
  double a = ob->rotation * PI_D / 180.0, ca = cos(a), sa = sin(a);
  /* Tiled rotates about (x, y), the top-left corner (bottom-left for tile objects). */
  double hx = ob->w / 2, hy = ob->h / 2;
  if (ob->gid) hy = -hy;
  double cx = ob->x + dx + ca * hx - sa * hy, cy = ob->y + dy + sa * hx + ca * hy;
  switch (ob->shape) {
    case TILED_TEXT: return refuse(plan, ob, layer, "text objects are not supported (dropped)", keep);
    case TILED_POLYLINE: return refuse(plan, ob, layer, "polylines are not supported: Tessera bodies are closed shapes (dropped)", keep);
    case TILED_POLYGON:
      if (!sprite) return refuse(plan, ob, layer, "the polygon could not become a body (dropped)", keep);
      break;
    default: break;
  }
  if (ob->gid && !sprite) return refuse(plan, ob, layer, "its tile could not become a sprite (dropped)", keep);
  char owner[200];
  snprintf(owner, sizeof owner, "layer '%s' object %u", layer, ob->id);
  if (ob->shape == TILED_POLYGON) {
    /* A polygon is a sprite body of its own shape (tiled_polygons.c), anchored at Tiled's (x, y), turned about it. */
    tess_object_default(out, TESS_OBJECT_BODY);
    TessBodyObject *b = &out->u.body;
    b->shape = TESS_BODY_SPRITE;
    b->sprite = sprite;
    b->type = TESS_BODY_STATIC;
    if (!body_type_from(&ob->props, &b->type)) {
      tess_object_clear(out);
      return tess_error_set(err, TESS_ERR_INVALID, plan->source, "%s: body_type must be static, kinematic or dynamic", owner);
    }
    out->pos = tess_v2((float)(ob->x + dx), (float)(ob->y + dy));
    out->angle = (float)a;
    const TiledProp *sensor = tiled_prop(&ob->props, "sensor");
    if (sensor) b->sensor = strcmp(sensor->value, "true") == 0;
    TessResult r = tiled_material_from_props(plan, &ob->props, owner, &b->material, err);
    if (r) {
      tess_object_clear(out);
      return r;
    }
  } else if (ob->gid) {
    /* A tile object is a sprite body: the tile's image, its traced mask, centred where Tiled draws it. */
    tess_object_default(out, TESS_OBJECT_BODY);
    TessBodyObject *b = &out->u.body;
    b->shape = TESS_BODY_SPRITE;
    b->sprite = sprite;
    b->type = TESS_BODY_STATIC;
    if (!body_type_from(&ob->props, &b->type)) {
      tess_object_clear(out);
      return tess_error_set(err, TESS_ERR_INVALID, plan->source, "%s: body_type must be static, kinematic or dynamic", owner);
    }
    out->pos = tess_v2((float)cx, (float)cy);
    out->angle = (float)a;
    const TessSprite *sp = &plan->sprites[sprite - 1];
    if (fabs(ob->w - sp->image_w) > 1e-6 || fabs(ob->h - sp->image_h) > 1e-6)
      tess_map_import_warn(plan, "%s: tile object scaled to %gx%g drawn at the tile's %ux%u", owner, ob->w, ob->h, sp->image_w,
                           sp->image_h);
    if (ob->gid & TESS_CELL_FLIPS) tess_map_import_warn(plan, "%s: tile object flips dropped", owner);
    TessResult r = tiled_material_from_props(plan, &ob->props, owner, &b->material, err);
    if (r) {
      tess_object_clear(out);
      return r;
    }
  } else if (ob->shape == TILED_POINT || strcmp(cls, "spawn") == 0) {
    tess_object_default(out, TESS_OBJECT_SPAWN);
    out->pos = tess_v2((float)(ob->shape == TILED_POINT ? ob->x + dx : cx), (float)(ob->shape == TILED_POINT ? ob->y + dy : cy));
  } else if (ob->shape == TILED_RECT && strcmp(cls, "zone") == 0) {
    tess_object_default(out, TESS_OBJECT_ZONE);
    out->pos = tess_v2((float)cx, (float)cy);
    out->angle = (float)a;
    out->u.zone.width = (float)ob->w;
    out->u.zone.height = (float)ob->h;
    float fx = 0, fy = 0;
    TessResult r;
    if ((r = prop_number(plan, &ob->props, "force_x", owner, -1e9, 1e9, &fx, err)) ||
        (r = prop_number(plan, &ob->props, "force_y", owner, -1e9, 1e9, &fy, err)))
      return r;
    out->u.zone.kind = TESS_ZONE_FORCE;
    out->u.zone.vector = tess_v2(fx, fy);
  } else {
    tess_object_default(out, TESS_OBJECT_BODY);
    TessBodyObject *b = &out->u.body;
    b->type = TESS_BODY_STATIC;
    if (!body_type_from(&ob->props, &b->type)) {
      tess_object_clear(out);
      return tess_error_set(err, TESS_ERR_INVALID, plan->source, "%s: body_type must be static, kinematic or dynamic", owner);
    }
    out->pos = tess_v2((float)cx, (float)cy);
    out->angle = (float)a;
    if (ob->w <= 0 || ob->h <= 0) {
      tess_object_clear(out);
      return refuse(plan, ob, layer, "a shape of zero size (dropped)", keep);
    }
    if (ob->shape == TILED_ELLIPSE && ob->w == ob->h) {
      b->shape = TESS_BODY_CIRCLE;
      b->radius = (float)hx;
    } else if (ob->shape == TILED_ELLIPSE) {
      /* The capsule of the ellipse's axes: its ends are round, its length exact. */
      b->shape = TESS_BODY_CAPSULE;
      b->width = (float)(ob->w > ob->h ? ob->w : ob->h);
      b->height = (float)(ob->w > ob->h ? ob->h : ob->w);
      if (ob->h > ob->w) out->angle += (float)(PI_D / 2);
      tess_map_import_warn(plan, "%s: a %gx%g ellipse became a capsule", owner, ob->w, ob->h);
    } else {
      b->shape = TESS_BODY_BOX;
      b->width = (float)ob->w;
      b->height = (float)ob->h;
    }
    const TiledProp *sensor = tiled_prop(&ob->props, "sensor");
    if (sensor) b->sensor = strcmp(sensor->value, "true") == 0;
    TessResult r = tiled_material_from_props(plan, &ob->props, owner, &b->material, err);
    if (r) {
      tess_object_clear(out);
      return r;
    }
  }
  if (ob->name) tiled_name_copy(plan, out->name, ob->name, "object name");
  if (!ob->visible) tess_map_import_warn(plan, "%s: hidden in Tiled, imported visible (Tessera objects are always shown)", owner);
  TessResult r = tiled_props_to_object(plan, &ob->props, out, owner, err);
  if (!r && cls[0] && strcmp(cls, "zone") && strcmp(cls, "spawn")) {
    TessProperty p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "class");
    p.type = TESS_PROP_STRING;
    p.v.s = (char *)cls;
    if (tess_object_set_property(out, &p)) r = nomem(err);
  }
  if (!r) r = tess_object_validate(out, err);
  if (r) {
    tess_object_clear(out);
    return tess_error_set(err, r, plan->source, "%s: %s", owner, err ? err->detail : "");
  }
  out->id = ob->id;
  *keep = true;
  return TESS_OK;
}

/* ---- Per-tile collision ------------------------------------------------ */

static bool push_piece(TessTileInfo *info, const TessDVec2 *v, uint32_t n) {
  TessPolygon *p = tess_realloc(info->pieces, ((size_t)info->piece_count + 1) * sizeof *p);
  if (!p) return false;
  info->pieces = p;
  TessPolygon *poly = &p[info->piece_count++];
  poly->count = n;
  for (uint32_t i = 0; i < n; i++) poly->v[i] = tess_v2((float)v[i].x, (float)v[i].y);
  return true;
}

/* Ear clipping into triangles (concave outlines); counter-clockwise input in y-down terms is not assumed. */
static bool ear_clip(TessTileInfo *info, TessDVec2 *v, uint32_t n) {
  double sign = tess_poly_signed_area(v, n) >= 0 ? 1 : -1;
  uint32_t guard = 0;
  while (n > 3 && guard++ < 10000) {
    bool cut = false;
    for (uint32_t i = 0; i < n && !cut; i++) {
      TessDVec2 a = v[(i + n - 1) % n], b = v[i], c = v[(i + 1) % n];
      if (sign * tess_d2_orient(a, b, c) <= 0) continue;
      bool inside = false;
      TessDVec2 tri[3] = {a, b, c};
      for (uint32_t k = 0; k < n && !inside; k++) {
        if (k == i || k == (i + 1) % n || k == (i + n - 1) % n) continue;
        if (tess_poly_contains(tri, 3, v[k])) inside = true;
      }
      if (inside) continue;
      if (!push_piece(info, tri, 3)) return false;
      memmove(&v[i], &v[i + 1], (n - i - 1) * sizeof *v);
      n--;
      cut = true;
    }
    if (!cut) break; /* degenerate outline: what is left is dropped */
  }
  return n != 3 || push_piece(info, v, 3);
}

static bool add_outline(TessTileInfo *info, TessDVec2 *v, uint32_t n) {
  if (n < 3 || fabs(tess_poly_signed_area(v, n)) < 1e-9) return true;
  if (n <= TESS_POLY_MAX && tess_poly_is_convex(v, n, 1e-9)) return push_piece(info, v, n);
  return ear_clip(info, v, n);
}

TessResult tiled_tile_shapes(TessMapImport *plan, const TiledTile *tile, const char *tileset, uint32_t tile_w,
                             uint32_t tile_h, TessTileInfo *info, TessError *err) {
  for (uint32_t s = 0; s < tile->shapes.count; s++) {
    const TiledObject *ob = &tile->shapes.items[s];
    double a = ob->rotation * PI_D / 180.0, ca = cos(a), sa = sin(a);
    TessDVec2 local[64];
    TessDVec2 *pts = local;
    uint32_t n = 0;
    if (ob->shape == TILED_RECT) {
      TessDVec2 r[4] = {{0, 0}, {ob->w, 0}, {ob->w, ob->h}, {0, ob->h}};
      memcpy(local, r, sizeof r);
      n = 4;
    } else if (ob->shape == TILED_ELLIPSE) {
      for (n = 0; n < 8; n++) {
        double t = n * PI_D / 4;
        local[n] = tess_d2(ob->w / 2 + ob->w / 2 * cos(t), ob->h / 2 + ob->h / 2 * sin(t));
      }
    } else if (ob->shape == TILED_POLYGON && ob->point_count >= 3) {
      n = ob->point_count;
      if (n > 1024) {
        tess_map_import_warn(plan, "tileset '%s' tile %u: a collision polygon of %u points dropped", tileset, tile->id, n);
        continue;
      }
      if (n > 64 && !(pts = tess_calloc(n, sizeof *pts))) return nomem(err);
      memcpy(pts, ob->points, n * sizeof *pts);
    } else {
      tess_map_import_warn(plan, "tileset '%s' tile %u: collision object %u is not an area (dropped)", tileset, tile->id, ob->id);
      continue;
    }
    for (uint32_t i = 0; i < n; i++) {
      TessDVec2 p = pts[i];
      pts[i] = tess_d2(ob->x + ca * p.x - sa * p.y, ob->y + sa * p.x + ca * p.y);
    }
    bool full = n == 4 && ob->shape == TILED_RECT && ob->rotation == 0 && ob->x <= 0 && ob->y <= 0 &&
                ob->x + ob->w >= tile_w && ob->y + ob->h >= tile_h;
    bool ok = full || add_outline(info, pts, n);
    if (pts != local) tess_free(pts);
    if (!ok) return nomem(err);
    if (full) {
      tess_free(info->pieces);
      info->pieces = NULL;
      info->piece_count = 0;
      info->collision = TESS_TILE_COLLISION_FULL;
      return TESS_OK;
    }
  }
  if (info->piece_count) info->collision = TESS_TILE_COLLISION_TRACED;
  return TESS_OK;
}
