/* Tessera's own Tiled vocabulary read back (the writer's table in
 * core/formats/README.md, read the other way): the generated materials
 * tileset becomes the project's materials again, a sprite's tileset its
 * sprite with the whole mask, a tileset's tessera.* properties its id,
 * threshold and exact per-tile collision, the hidden material layer the
 * level's material layer, the map properties the level's settings, and
 * objects of type body, joint and zone the objects they were, each at the
 * exact float place the writer computed its corner from. Ids travel with
 * everything, so a level exported and imported into a new project has its
 * content hash back. Everything here is a convention a hand-made Tiled map
 * may use too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/image.h"
#include "formats_tiled.h"

#define TT_PI 3.14159265358979323846

static TessResult nomem(const char *file, TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory"); }

/* The first property of that name (the writer puts its own before a user's of the same name). */
static const TiledProp *first(const TiledProps *props, const char *name) {
  for (uint32_t i = 0; i < props->count; i++)
    if (strcmp(props->items[i].name, name) == 0) return &props->items[i];
  return NULL;
}

static bool is(const TiledProps *props, const char *name, const char *value) {
  const TiledProp *p = first(props, name);
  return p && strcmp(p->value, value) == 0;
}

/* Typed readers: a missing property leaves *out alone; a malformed one is an error naming the owner. */
static TessResult get_double(TessMapImport *plan, const TiledProps *props, const char *name, const char *owner, double *out,
                             TessError *err) {
  const TiledProp *p = first(props, name);
  if (!p) return TESS_OK;
  if (!tiled_parse_double(p->value, out))
    return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: property '%s' = '%s' is not a finite number", owner, name,
                          p->value);
  return TESS_OK;
}

static TessResult get_float(TessMapImport *plan, const TiledProps *props, const char *name, const char *owner, float *out,
                            TessError *err) {
  double d = *out;
  TessResult r = get_double(plan, props, name, owner, &d, err);
  if (!r && fabs(d) > 3.4028234663852886e38)
    return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: property '%s' is beyond a float", owner, name);
  if (!r) *out = (float)d;
  return r;
}

static TessResult get_i64(TessMapImport *plan, const TiledProps *props, const char *name, const char *owner, int64_t lo,
                          int64_t hi, int64_t *out, TessError *err) {
  const TiledProp *p = first(props, name);
  if (!p) return TESS_OK;
  char *end = NULL;
  long long v = strtoll(p->value, &end, 10);
  if (!p->value[0] || *end || v < lo || v > hi)
    return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: property '%s' = '%s' is not an integer in [%lld, %lld]",
                          owner, name, p->value, (long long)lo, (long long)hi);
  *out = v;
  return TESS_OK;
}

static TessResult get_u32(TessMapImport *plan, const TiledProps *props, const char *name, const char *owner, uint32_t max,
                          uint32_t *out, TessError *err) {
  int64_t v = *out;
  TessResult r = get_i64(plan, props, name, owner, 0, max, &v, err);
  if (!r) *out = (uint32_t)v;
  return r;
}

/* Collision bits go as Tiled's signed 32-bit ints: the bit pattern. */
static TessResult get_bits(TessMapImport *plan, const TiledProps *props, const char *name, const char *owner, uint32_t *out,
                           TessError *err) {
  int64_t v = (int32_t)*out;
  TessResult r = get_i64(plan, props, name, owner, INT32_MIN, UINT32_MAX, &v, err);
  if (!r) *out = (uint32_t)v;
  return r;
}

static void get_bool(const TiledProps *props, const char *name, uint8_t *out) {
  const TiledProp *p = first(props, name);
  if (p) *out = strcmp(p->value, "true") == 0;
}

/* ---- Map and tilesets ---------------------------------------------------- */

TiledTessRole tiled_tessera_role(const TiledTileset *ts) {
  if (is(&ts->props, "kind", "materials")) return TILED_TESS_MATERIALS;
  if (is(&ts->props, "kind", "sprite")) return TILED_TESS_SPRITE;
  if (first(&ts->props, "tessera.id")) return TILED_TESS_TILESET;
  return TILED_TESS_NONE;
}

TessResult tiled_tessera_settings(TiledMap *m, TessLevelSettings *s, TessError *err) {
  TessMapImport *plan = m->plan;
  const TiledProps *pr = &m->props;
  static const char *const used[] = {"ppm", "gravity_x", "gravity_y", "view", "physics_hz", "substeps", "floor_drag",
                                     "name", "tessera.level_id", "tessera.content_hash", "tessera.writer"};
  TessResult r;
  double d = s->ppm;
  if ((r = get_double(plan, pr, "ppm", "map", &d, err))) return r;
  if (d > 0) s->ppm = (float)d;
  if ((r = get_float(plan, pr, "gravity_x", "map", &s->gravity.x, err)) ||
      (r = get_float(plan, pr, "gravity_y", "map", &s->gravity.y, err)) ||
      (r = get_float(plan, pr, "physics_hz", "map", &s->physics_hz, err)) ||
      (r = get_float(plan, pr, "floor_drag", "map", &s->floor_drag, err)) ||
      (r = get_u32(plan, pr, "substeps", "map", 1000, &s->substeps, err)) ||
      (r = get_u32(plan, pr, "tessera.level_id", "map", UINT32_MAX - 1, &plan->level_id, err)))
    return r;
  const TiledProp *p = first(pr, "view");
  if (p && strcmp(p->value, "top-down") == 0) s->view = TESS_VIEW_TOP_DOWN;
  else if (p && strcmp(p->value, "side") == 0) s->view = TESS_VIEW_SIDE;
  if ((p = first(pr, "name")) && p->value[0]) tiled_name_copy(plan, s->name, p->value, "level name");
  uint32_t dropped = 0;
  for (uint32_t i = 0; i < pr->count; i++) {
    bool known = false;
    for (size_t k = 0; k < sizeof used / sizeof used[0] && !known; k++) known = strcmp(pr->items[i].name, used[k]) == 0;
    dropped += !known;
  }
  if (dropped) tess_map_import_warn(plan, "map: %u properties dropped (Tessera levels hold none)", dropped);
  if ((r = tess_level_settings_validate(s, err))) return tess_error_set(err, r, m->path, "map properties: %s", err ? err->detail : "");
  return TESS_OK;
}

/* The materials tileset, before any other tileset so that the material
 * names tiles and objects give find these: tile k is one material. */
static TessResult materials_of(TiledMap *m, TiledTileset *ts, TessError *err) {
  TessMapImport *plan = m->plan;
  uint32_t n = ts->tile_count_listed;
  TessMaterial *mats = tess_realloc(plan->materials, ((size_t)plan->material_count + n + 1) * sizeof *mats);
  if (!mats) return nomem(m->path, err);
  plan->materials = mats;
  TessId *ids = tess_realloc(plan->material_ids, ((size_t)plan->material_count + n + 1) * sizeof *ids);
  if (!ids) return nomem(m->path, err);
  if (!plan->material_ids) memset(ids, 0, ((size_t)plan->material_count + 1) * sizeof *ids);
  plan->material_ids = ids;
  for (uint32_t i = 0; i < n; i++) {
    const TiledTile *t = &ts->tiles[i];
    char owner[160];
    snprintf(owner, sizeof owner, "materials tileset '%s' tile %u", ts->name ? ts->name : "", t->id);
    TessMaterial mat;
    tess_material_default(&mat);
    const TiledProp *name = first(&t->props, "name"), *color = first(&t->props, "color"), *kind = first(&t->props, "kind");
    if (!name) continue;
    tiled_name_copy(plan, mat.name, name->value, "material name");
    uint32_t argb, id = 0;
    if (color && tiled_parse_color(color->value, &argb)) mat.color = argb << 8 | argb >> 24;
    TessResult r;
    if ((r = get_float(plan, &t->props, "friction", owner, &mat.friction, err)) ||
        (r = get_float(plan, &t->props, "restitution", owner, &mat.restitution, err)) ||
        (r = get_float(plan, &t->props, "tangential", owner, &mat.tangential, err)) ||
        (r = get_float(plan, &t->props, "density", owner, &mat.density, err)) ||
        (r = get_u32(plan, &t->props, "tessera.id", owner, TESS_MATERIAL_ID_MAX, &id, err)))
      return r;
    if (kind && strcmp(kind->value, "floor") == 0) mat.kind = TESS_MATERIAL_FLOOR;
    else if (kind && strcmp(kind->value, "fluid") == 0) mat.kind = TESS_MATERIAL_FLUID;
    else if (kind && strcmp(kind->value, "solid") != 0)
      return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: kind '%s' is not solid, floor or fluid", owner, kind->value);
    if ((r = tess_material_validate(&mat, err))) return tess_error_set(err, r, plan->source, "%s: %s", owner, err ? err->detail : "");
    uint32_t at = plan->material_count;
    for (uint32_t k = 0; k < plan->material_count; k++)
      if (strcmp(plan->materials[k].name, mat.name) == 0) at = k;
    if (at == plan->material_count) {
      mat.id = ++plan->material_count;
      plan->materials[at] = mat;
      plan->material_ids[at] = id;
    }
  }
  return TESS_OK;
}

TessResult tiled_tessera_materials(TiledMap *m, TessError *err) {
  for (uint32_t i = 0; i < m->tileset_count; i++)
    if (tiled_tessera_role(&m->tilesets[i]) == TILED_TESS_MATERIALS) {
      TessResult r = materials_of(m, &m->tilesets[i], err);
      if (r) return r;
    }
  return TESS_OK;
}

/* The plan material a Tessera material id names (through the materials tileset), 0 when none does. */
static TessId plan_material(const TessMapImport *plan, uint32_t id) {
  for (uint32_t i = 0; plan->material_ids && i < plan->material_count; i++)
    if (plan->material_ids[i] == id) return i + 1;
  return 0;
}

static TessResult pieces_of(const TiledObjects *shapes, const char *owner, TessMapImport *plan, TessPolygon **out,
                            uint32_t *count, TessError *err) {
  uint32_t n = 0;
  for (uint32_t s = 0; s < shapes->count; s++) n += shapes->items[s].shape == TILED_POLYGON;
  *out = NULL;
  *count = 0;
  if (!n) return TESS_OK;
  TessPolygon *polys = tess_calloc(n, sizeof *polys);
  if (!polys) return nomem(plan->source, err);
  for (uint32_t s = 0; s < shapes->count; s++) {
    const TiledObject *ob = &shapes->items[s];
    if (ob->shape != TILED_POLYGON) continue;
    if (ob->point_count < 3 || ob->point_count > TESS_POLY_MAX || ob->rotation != 0) {
      tess_free(polys);
      return tess_error_set(err, TESS_ERR_FORMAT, plan->source,
                            "%s: collision piece %u has %u points (a Tessera piece has 3 to %d, unturned)", owner, ob->id,
                            ob->point_count, TESS_POLY_MAX);
    }
    TessPolygon *p = &polys[(*count)++];
    p->count = ob->point_count;
    for (uint32_t k = 0; k < ob->point_count; k++)
      p->v[k] = tess_v2((float)(ob->x + ob->points[k].x), (float)(ob->y + ob->points[k].y));
  }
  *out = polys;
  return TESS_OK;
}

/* A tileset Tessera wrote: its id, threshold, source path, and each tile's
 * collision exactly as it was (the kind from `collision`, every piece in
 * order, the material by id), replacing what the generic reading guessed. */
static TessResult tileset_extras(TiledMap *m, const TiledTileset *ts, TessImportTileset *out, TessError *err) {
  TessMapImport *plan = m->plan;
  char owner[160];
  snprintf(owner, sizeof owner, "tileset '%s'", out->name);
  TessResult r;
  if ((r = get_u32(plan, &ts->props, "tessera.id", owner, TESS_TILESET_ID_MAX, &out->id, err)) ||
      (r = get_u32(plan, &ts->props, "alpha_threshold", owner, 255, &out->alpha_threshold, err)))
    return r;
  const TiledProp *src = first(&ts->props, "tessera.source_path");
  tess_free(out->source_path);
  out->source_path = NULL;
  if (src && !(out->source_path = tess_strdup(src->value))) return nomem(m->path, err);
  for (uint32_t i = 0; i < ts->tile_count_listed; i++) {
    const TiledTile *t = &ts->tiles[i];
    if (t->id >= out->tile_count) continue;
    TessTileInfo *info = &out->tiles[t->id];
    snprintf(owner, sizeof owner, "tileset '%s' tile %u", out->name, t->id);
    tess_free(info->pieces);
    info->pieces = NULL;
    info->piece_count = 0;
    const TiledProp *col = first(&t->props, "collision");
    info->collision = !col                                ? info->collision
                      : strcmp(col->value, "full") == 0   ? TESS_TILE_COLLISION_FULL
                      : strcmp(col->value, "traced") == 0 ? TESS_TILE_COLLISION_TRACED
                                                          : TESS_TILE_COLLISION_NONE;
    uint32_t pieces = 0;
    if ((r = pieces_of(&t->shapes, owner, plan, &info->pieces, &pieces, err))) return r;
    info->piece_count = (uint16_t)pieces;
    uint32_t mid = 0;
    if ((r = get_u32(plan, &t->props, "tessera.material_id", owner, TESS_MATERIAL_ID_MAX, &mid, err))) return r;
    if (mid && plan_material(plan, mid)) info->material = plan_material(plan, mid);
  }
  return TESS_OK;
}

static const char *const mask_modes[] = {"hull", "simplified", "pieces", "circle", "box"};

/* A sprite's tileset back into the sprite: frames, anchor, the whole mask. */
static TessResult sprite_of(TiledMap *m, const TiledTileset *ts, TessImportTileset *out, TessError *err) {
  TessMapImport *plan = m->plan;
  const TiledProps *pr = &ts->props;
  char owner[160];
  snprintf(owner, sizeof owner, "sprite tileset '%s'", out->name);
  TessSprite sp;
  memset(&sp, 0, sizeof sp);
  tess_sprite_mask_default(&sp.mask);
  snprintf(sp.name, sizeof sp.name, "%s", out->name);
  TessSpriteMask *k = &sp.mask;
  uint32_t threshold = k->threshold, manual = 0, largest = 0;
  uint8_t b = 0;
  TessResult r;
  if ((r = get_u32(plan, pr, "tessera.id", owner, UINT32_MAX - 1, &sp.id, err)) ||
      (r = get_float(plan, pr, "anchor_x", owner, &sp.anchor.x, err)) ||
      (r = get_float(plan, pr, "anchor_y", owner, &sp.anchor.y, err)) ||
      (r = get_u32(plan, pr, "frame_count", owner, 65535, &sp.frame_count, err)) ||
      (r = get_float(plan, pr, "frame_rate", owner, &sp.frame_rate, err)) ||
      (r = get_u32(plan, pr, "mask_threshold", owner, 255, &threshold, err)) ||
      (r = get_u32(plan, pr, "mask_max_vertices", owner, 65535, &k->max_vertices, err)) ||
      (r = get_float(plan, pr, "mask_tolerance", owner, &k->tolerance, err)) ||
      (r = get_double(plan, pr, "area", owner, &k->area, err)) ||
      (r = get_double(plan, pr, "centroid_x", owner, &k->centroid_x, err)) ||
      (r = get_double(plan, pr, "centroid_y", owner, &k->centroid_y, err)) ||
      (r = get_double(plan, pr, "inertia", owner, &k->inertia, err)) ||
      (r = get_double(plan, pr, "shape_area", owner, &k->shape_area, err)) ||
      (r = get_double(plan, pr, "shape_centroid_x", owner, &k->shape_centroid_x, err)) ||
      (r = get_double(plan, pr, "shape_centroid_y", owner, &k->shape_centroid_y, err)) ||
      (r = get_double(plan, pr, "shape_inertia", owner, &k->shape_inertia, err)) ||
      (r = get_double(plan, pr, "added_area", owner, &k->added_area, err)) ||
      (r = get_double(plan, pr, "uncovered_area", owner, &k->uncovered_area, err)) ||
      (r = get_float(plan, pr, "circle_x", owner, &k->circle_center.x, err)) ||
      (r = get_float(plan, pr, "circle_y", owner, &k->circle_center.y, err)) ||
      (r = get_float(plan, pr, "circle_radius", owner, &k->circle_radius, err)))
    return r;
  k->threshold = (uint8_t)threshold;
  get_bool(pr, "mask_manual", &b);
  manual = b;
  b = 0;
  get_bool(pr, "mask_largest_island_only", &b);
  largest = b;
  k->manual = (uint8_t)manual;
  k->largest_island_only = (uint8_t)largest;
  const TiledProp *mode = first(pr, "mask_mode");
  for (uint8_t i = 0; mode && i < 5; i++)
    if (strcmp(mode->value, mask_modes[i]) == 0) k->mode = i;
  if (!sp.frame_count) sp.frame_count = 1;
  const TiledProp *hull = first(pr, "hull");
  const TiledTile *t0 = NULL;
  for (uint32_t i = 0; i < ts->tile_count_listed; i++)
    if (ts->tiles[i].id == 0) t0 = &ts->tiles[i];
  if (t0 && (r = pieces_of(&t0->shapes, owner, plan, &k->pieces, &k->piece_count, err))) return r;
  if (hull && hull->value[0]) {
    uint32_t n = 1;
    for (const char *c = hull->value; *c; c++) n += *c == ' ';
    if (!(k->hull = tess_calloc(n, sizeof *k->hull))) r = nomem(m->path, err);
    const char *c = hull->value;
    for (uint32_t i = 0; !r && i < n; i++) {
      char *end = NULL;
      double x = strtod(c, &end), y = 0;
      bool ok = end != c && *end == ',';
      if (ok) {
        c = end + 1;
        y = strtod(c, &end);
        ok = end != c && (*end == ' ' || *end == 0) && isfinite(x) && isfinite(y);
      }
      if (!ok) r = tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: hull point %u is not 'x,y'", owner, i + 1);
      else k->hull[k->hull_count++] = tess_v2((float)x, (float)y);
      c = *end ? end + 1 : end;
    }
  }
  /* The strip's bytes are the sprite's; the plan tileset keeps none. */
  sp.png = out->png;
  sp.png_size = out->png_size;
  sp.image_w = out->image_w;
  sp.image_h = out->image_h;
  out->png = NULL;
  out->png_size = 0;
  const TiledProp *src = first(pr, "tessera.source_path");
  if (!r && src && !(sp.source_path = tess_strdup(src->value))) r = nomem(m->path, err);
  TessSprite *n = r ? NULL : tess_realloc(plan->sprites, ((size_t)plan->sprite_count + 1) * sizeof *n);
  if (!n) {
    tess_sprite_clear(&sp);
    return r ? r : nomem(m->path, err);
  }
  plan->sprites = n;
  n[plan->sprite_count++] = sp;
  out->sprite = plan->sprite_count;
  return TESS_OK;
}

TessResult tiled_tessera_tileset(TiledMap *m, const TiledTileset *ts, TessImportTileset *out, TessError *err) {
  switch (tiled_tessera_role(ts)) {
    case TILED_TESS_MATERIALS: {
      out->role = TESS_IMPORT_MATERIALS;
      for (uint32_t i = 0; i < ts->tile_count_listed; i++) {
        const TiledTile *t = &ts->tiles[i];
        const TiledProp *name = first(&t->props, "name");
        if (t->id >= out->tile_count || !name) continue;
        for (uint32_t k = 0; k < m->plan->material_count; k++)
          if (strncmp(m->plan->materials[k].name, name->value, TESS_NAME_MAX - 1) == 0) out->tiles[t->id].material = k + 1;
      }
      return TESS_OK;
    }
    case TILED_TESS_SPRITE: out->role = TESS_IMPORT_SPRITE; return sprite_of(m, ts, out, err);
    case TILED_TESS_TILESET: return tileset_extras(m, ts, out, err);
    default: return TESS_OK;
  }
}

/* ---- The material layer ------------------------------------------------- */

bool tiled_tessera_is_material_layer(const TiledLayer *l) {
  return l->kind == TILED_TILES && is(&l->props, "kind", "materials");
}

TessResult tiled_tessera_material_layer(TiledMap *m, const TiledLayer *l, TessImportLayer *out, TessError *err) {
  TessMapImport *plan = m->plan;
  out->props.kind = TESS_LAYER_MATERIAL;
  uint8_t visible = out->props.visible;
  get_bool(&l->props, "tessera.visible", &visible);
  out->props.visible = visible;
  size_t count = (size_t)plan->settings.width * plan->settings.height;
  for (size_t i = 0; i < count; i++) {
    TessCell c = out->cells[i];
    if (!c) continue;
    uint32_t t = TESS_CELL_TILESET(c);
    const TessImportTileset *ts = t && t <= plan->tileset_count ? &plan->tilesets[t - 1] : NULL;
    if (!ts || ts->role != TESS_IMPORT_MATERIALS)
      return tess_error_set(err, TESS_ERR_FORMAT, m->path,
                            "material layer '%s' cell (%zu, %zu): the tile is not one of the materials tileset's", l->name,
                            i % plan->settings.width, i / plan->settings.width);
    out->cells[i] = ts->tiles[TESS_CELL_TILE(c)].material;
  }
  return TESS_OK;
}

/* ---- Objects ------------------------------------------------------------ */

bool tiled_tessera_object(const TiledObject *ob) {
  const char *cls = ob->cls ? ob->cls : "";
  return strcmp(cls, "body") == 0 || strcmp(cls, "joint") == 0 || (strcmp(cls, "zone") == 0 && first(&ob->props, "kind")) ||
         (strcmp(cls, "spawn") == 0 && ob->shape == TILED_POINT) ||
         (strcmp(cls, "launcher") == 0 && ob->shape == TILED_POINT);
}

/* The inverse of the writer's corner(): Tiled's (x, y) is the object's
 * place plus its turned offset (dx, dy); the angle is the float Tessera
 * held, so cos and sin are the writer's own. */
static void place(TessObject *out, const TiledObject *ob, double ox, double oy, double dx, double dy) {
  float angle = (float)(ob->rotation * (TT_PI / 180.0));
  double x = dx, y = dy;
  if (angle != 0.0f) {
    double c = cos((double)angle), s = sin((double)angle);
    x = c * dx - s * dy;
    y = s * dx + c * dy;
  }
  out->angle = angle;
  out->pos = tess_v2((float)(ob->x + ox - x), (float)(ob->y + oy - y));
}

typedef struct Vocab {
  const char *const *names;
  size_t count;
} Vocab;

static bool in_vocab(const Vocab *v, const char *name) {
  for (size_t i = 0; i < v->count; i++)
    if (strcmp(v->names[i], name) == 0) return true;
  return false;
}

static const char *const body_words[] = {"shape", "body_type", "material", "tessera.material_id", "sensor", "pin",
                                         "category", "mask", "sprite", "tessera.sprite_id", "tessera.radius",
                                         "tessera.width", "tessera.height", "mass", "inertia", "center_x", "center_y",
                                         "tessera.depth", "tessera.integrator", "collide_pixels"};
static const char *const joint_words[] = {"kind", "body_a", "body_b", "length", "limit_enabled", "lower", "upper",
                                          "motor_enabled", "motor_speed", "motor_torque", "tessera.limit_enabled",
                                          "tessera.lower", "tessera.upper", "tessera.motor_enabled", "tessera.motor_speed",
                                          "tessera.motor_torque", "tessera.anchor_b_x", "tessera.anchor_b_y",
                                          "tessera.length", "tessera.depth"};
static const char *const launcher_words[] = {"speed", "radius", "material", "tessera.material_id", "sprite",
                                             "tessera.sprite_id", "tessera.depth"};
static const char *const zone_words[] = {"kind", "vector_x", "vector_y", "strength", "radius", "tessera.width",
                                         "tessera.height", "tessera.vector_x", "tessera.vector_y", "tessera.strength",
                                         "tessera.radius", "tessera.depth"};

/* Every property but the first of each vocabulary word becomes the object's own, in order. */
static TessResult user_props(TessMapImport *plan, const TiledObject *ob, const Vocab *v, TessObject *out, const char *owner,
                             TessError *err) {
  for (uint32_t i = 0; i < ob->props.count; i++) {
    const TiledProp *p = &ob->props.items[i];
    if (in_vocab(v, p->name) && first(&ob->props, p->name) == p) continue;
    TessResult r = tiled_prop_to_object(plan, p, out, owner, err);
    if (r) return r;
  }
  return TESS_OK;
}

static TessResult body(TessMapImport *plan, const TiledObject *ob, double ox, double oy, TessId sprite, TessObject *out,
                       const char *owner, TessError *err) {
  tess_object_default(out, TESS_OBJECT_BODY);
  TessBodyObject *b = &out->u.body;
  const TiledProps *pr = &ob->props;
  const TiledProp *shape = first(pr, "shape");
  static const char *const shapes[] = {"circle", "box", "capsule", "sprite"};
  bool polygon = ob->shape == TILED_POLYGON;
  int s = ob->gid || polygon ? TESS_BODY_SPRITE : ob->shape == TILED_ELLIPSE ? TESS_BODY_CIRCLE
                                                                             : TESS_BODY_BOX;
  for (int i = 0; shape && i < 4; i++)
    if (strcmp(shape->value, shapes[i]) == 0) s = i;
  b->shape = (uint8_t)s;
  const TiledProp *type = first(pr, "body_type"), *pin = first(pr, "pin");
  if (type && strcmp(type->value, "kinematic") == 0) b->type = TESS_BODY_KINEMATIC;
  else if (type && strcmp(type->value, "dynamic") == 0) b->type = TESS_BODY_DYNAMIC;
  else if (type) b->type = TESS_BODY_STATIC;
  if (pin && strcmp(pin->value, "smaller_centroid") == 0) b->pin = TESS_PIN_AT_SMALLER_CENTROID;
  else if (pin && strcmp(pin->value, "overlap_centre") == 0) b->pin = TESS_PIN_AT_OVERLAP_CENTRE;
  get_bool(pr, "sensor", &b->sensor);
  const TiledProp *integrator = first(pr, "tessera.integrator");
  if (integrator && strcmp(integrator->value, "rk4") == 0) b->integrator = TESS_INTEGRATOR_RK4;
  else if (integrator && strcmp(integrator->value, "euler") != 0)
    return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: tessera.integrator is \"%s\", not euler or rk4", owner,
                          integrator->value);
  TessResult r;
  uint32_t mid = UINT32_MAX;
  if ((r = get_bits(plan, pr, "category", owner, &b->category, err)) || (r = get_bits(plan, pr, "mask", owner, &b->mask, err)) ||
      (r = get_float(plan, pr, "tessera.radius", owner, &b->radius, err)) ||
      (r = get_float(plan, pr, "tessera.width", owner, &b->width, err)) ||
      (r = get_float(plan, pr, "tessera.height", owner, &b->height, err)) ||
      (r = get_u32(plan, pr, "tessera.material_id", owner, TESS_MATERIAL_ID_MAX, &mid, err)))
    return r;
  /* Material 0 is "the project's first", as in Tessera; an id the map's materials tileset lacks falls back to the name. */
  if (mid == 0) b->material = 0;
  else if (mid != UINT32_MAX && plan_material(plan, mid)) b->material = plan_material(plan, mid);
  else if ((r = tiled_material_from_props(plan, pr, owner, &b->material, err))) return r;
  switch (b->shape) {
    case TESS_BODY_CIRCLE:
      b->radius = (float)(ob->w / 2);
      place(out, ob, ox, oy, -(double)b->radius, -(double)b->radius);
      break;
    case TESS_BODY_SPRITE: {
      if (!sprite) return tess_error_set(err, TESS_ERR_FORMAT, plan->source, "%s: a sprite body needs a tile (gid)", owner);
      b->sprite = sprite;
      const TessSprite *sp = &plan->sprites[sprite - 1];
      /* A tile object is placed by its bottom-left corner, a polygon by its origin (the sprite's anchor). */
      if (polygon) place(out, ob, ox, oy, 0, 0);
      else place(out, ob, ox, oy, -(double)sp->anchor.x, (double)sp->image_h - (double)sp->anchor.y);
      break;
    }
    default:
      b->width = (float)ob->w;
      b->height = (float)ob->h;
      place(out, ob, ox, oy, -0.5 * b->width, -0.5 * b->height);
      break;
  }
  /* Pixels collide only on a static sprite body (the sprite's mask, fixed in the world); elsewhere the flag
   * would be held and do nothing, so it is dropped with a warning, as the layer's own is on non-tile layers. */
  const TiledProp *pixels = first(pr, "collide_pixels");
  if (pixels && strcmp(pixels->value, "true") == 0) {
    if (b->type == TESS_BODY_STATIC && b->shape == TESS_BODY_SPRITE) b->collide_pixels = true;
    else
      tess_map_import_warn(plan, "%s '%s': collide_pixels is for static sprite bodies only, ignored on this %s %s body", owner,
                           ob->name ? ob->name : "",
                           b->type == TESS_BODY_STATIC      ? "static"
                           : b->type == TESS_BODY_KINEMATIC ? "kinematic"
                                                            : "dynamic",
                           shapes[b->shape]);
  }
  Vocab v = {body_words, sizeof body_words / sizeof body_words[0]};
  return user_props(plan, ob, &v, out, owner, err);
}

static TessResult joint(TessMapImport *plan, const TiledObject *ob, double ox, double oy, TessObject *out, const char *owner,
                        TessError *err) {
  tess_object_default(out, TESS_OBJECT_JOINT);
  TessJointObject *j = &out->u.joint;
  const TiledProps *pr = &ob->props;
  const TiledProp *kind = first(pr, "kind");
  bool distance = kind ? strcmp(kind->value, "distance") == 0 : ob->shape == TILED_POLYLINE;
  j->kind = distance ? TESS_JOINT_DISTANCE : TESS_JOINT_PIN;
  place(out, ob, ox, oy, 0, 0);
  uint32_t a = 0, bb = 0;
  TessResult r;
  if ((r = get_u32(plan, pr, "body_a", owner, UINT32_MAX, &a, err)) || (r = get_u32(plan, pr, "body_b", owner, UINT32_MAX, &bb, err)))
    return r;
  j->body_a = a;
  j->body_b = bb;
  const char *p = distance ? "tessera." : "";
  char name[64];
#define JOINT_FLOAT(field, word)                \
  snprintf(name, sizeof name, "%s%s", p, word); \
  if ((r = get_float(plan, pr, name, owner, &j->field, err))) return r;
  JOINT_FLOAT(lower, "lower")
  JOINT_FLOAT(upper, "upper")
  JOINT_FLOAT(motor_speed, "motor_speed")
  JOINT_FLOAT(motor_torque, "motor_torque")
#undef JOINT_FLOAT
  snprintf(name, sizeof name, "%slimit_enabled", p);
  get_bool(pr, name, &j->limit_enabled);
  snprintf(name, sizeof name, "%smotor_enabled", p);
  get_bool(pr, name, &j->motor_enabled);
  if (distance) {
    if ((r = get_float(plan, pr, "length", owner, &j->length, err))) return r;
    double dx = 0, dy = 0;
    if (ob->shape == TILED_POLYLINE && ob->point_count >= 2) {
      dx = ob->points[ob->point_count - 1].x - ob->points[0].x;
      dy = ob->points[ob->point_count - 1].y - ob->points[0].y;
    }
    double x = dx, y = dy;
    if (out->angle != 0.0f) {
      double c = cos((double)out->angle), s = sin((double)out->angle);
      x = c * dx - s * dy;
      y = s * dx + c * dy;
    }
    j->anchor_b = tess_v2((float)((double)out->pos.x + x), (float)((double)out->pos.y + y));
  } else if ((r = get_float(plan, pr, "tessera.anchor_b_x", owner, &j->anchor_b.x, err)) ||
             (r = get_float(plan, pr, "tessera.anchor_b_y", owner, &j->anchor_b.y, err)) ||
             (r = get_float(plan, pr, "tessera.length", owner, &j->length, err))) {
    return r;
  }
  Vocab v = {joint_words, sizeof joint_words / sizeof joint_words[0]};
  return user_props(plan, ob, &v, out, owner, err);
}

static TessResult zone(TessMapImport *plan, const TiledObject *ob, double ox, double oy, TessObject *out, const char *owner,
                       TessError *err) {
  tess_object_default(out, TESS_OBJECT_ZONE);
  TessZoneObject *z = &out->u.zone;
  const TiledProps *pr = &ob->props;
  const TiledProp *kind = first(pr, "kind");
  z->kind = strcmp(kind->value, "acceleration") == 0 ? TESS_ZONE_ACCELERATION
            : strcmp(kind->value, "attractor") == 0  ? TESS_ZONE_ATTRACTOR
            : strcmp(kind->value, "spring") == 0     ? TESS_ZONE_SPRING
                                                     : TESS_ZONE_FORCE;
  TessResult r;
  /* an attractor and a spring are both a point with a reach (an ellipse or a point in Tiled) */
  bool attractor = z->kind == TESS_ZONE_ATTRACTOR || z->kind == TESS_ZONE_SPRING;
  const char *p = attractor ? "tessera." : "", *q = attractor ? "" : "tessera.";
  char name[64];
#define ZONE_FLOAT(field, pre, word)              \
  snprintf(name, sizeof name, "%s%s", pre, word); \
  if ((r = get_float(plan, pr, name, owner, &z->field, err))) return r;
  ZONE_FLOAT(vector.x, p, "vector_x")
  ZONE_FLOAT(vector.y, p, "vector_y")
  ZONE_FLOAT(strength, q, "strength")
  ZONE_FLOAT(radius, q, "radius")
  ZONE_FLOAT(width, "tessera.", "width")
  ZONE_FLOAT(height, "tessera.", "height")
#undef ZONE_FLOAT
  if (!attractor) {
    z->width = (float)ob->w;
    z->height = (float)ob->h;
    place(out, ob, ox, oy, -0.5 * z->width, -0.5 * z->height);
  } else if (ob->shape == TILED_ELLIPSE && z->radius > 0) {
    place(out, ob, ox, oy, -(double)z->radius, -(double)z->radius);
  } else {
    place(out, ob, ox, oy, 0, 0);
  }
  Vocab v = {zone_words, sizeof zone_words / sizeof zone_words[0]};
  return user_props(plan, ob, &v, out, owner, err);
}

/* A launcher: speed and radius; its material as a body's (the id through the
 * materials tileset, else the name); its sprite id as written (a Tessera
 * export keeps sprite ids; one that is gone fires balls, and validate says so). */
static TessResult launcher(TessMapImport *plan, const TiledObject *ob, double ox, double oy, TessObject *out,
                           const char *owner, TessError *err) {
  tess_object_default(out, TESS_OBJECT_LAUNCHER);
  TessLauncherObject *l = &out->u.launcher;
  const TiledProps *pr = &ob->props;
  uint32_t mid = 0;
  TessResult r;
  if ((r = get_float(plan, pr, "speed", owner, &l->speed, err)) || (r = get_float(plan, pr, "radius", owner, &l->radius, err)) ||
      (r = get_u32(plan, pr, "tessera.material_id", owner, TESS_MATERIAL_ID_MAX, &mid, err)) ||
      (r = get_u32(plan, pr, "tessera.sprite_id", owner, UINT32_MAX, &l->sprite, err)))
    return r;
  if (mid && plan_material(plan, mid)) l->material = plan_material(plan, mid);
  else if (mid && (r = tiled_material_from_props(plan, pr, owner, &l->material, err))) return r;
  place(out, ob, ox, oy, 0, 0);
  Vocab v = {launcher_words, sizeof launcher_words / sizeof launcher_words[0]};
  return user_props(plan, ob, &v, out, owner, err);
}

/* Tessera's draw depth travels as the property tessera.depth (Tiled has no
 * per-object depth; its layers' draworder carries the sort by y). */
static TessResult object_depth(TessMapImport *plan, const TiledObject *ob, const char *owner, TessObject *out,
                               TessError *err) {
  int64_t depth = 0;
  TessResult r = get_i64(plan, &ob->props, "tessera.depth", owner, TESS_OBJECT_DEPTH_MIN, TESS_OBJECT_DEPTH_MAX, &depth, err);
  if (!r) out->depth = (int32_t)depth;
  return r;
}

TessResult tiled_tessera_object_convert(TessMapImport *plan, const TiledObject *ob, double ox, double oy, TessId sprite,
                                        const char *owner, TessObject *out, TessError *err) {
  const char *cls = ob->cls;
  if (strcmp(cls, "spawn") == 0) {
    tess_object_default(out, TESS_OBJECT_SPAWN);
    place(out, ob, ox, oy, 0, 0);
    static const char *const spawn_words[] = {"tessera.depth"};
    Vocab v = {spawn_words, 1};
    TessResult r = user_props(plan, ob, &v, out, owner, err);
    if (!r && ob->name) tiled_name_copy(plan, out->name, ob->name, "object name");
    return r ? r : object_depth(plan, ob, owner, out, err);
  }
  TessResult r = strcmp(cls, "body") == 0       ? body(plan, ob, ox, oy, sprite, out, owner, err)
                 : strcmp(cls, "joint") == 0    ? joint(plan, ob, ox, oy, out, owner, err)
                 : strcmp(cls, "launcher") == 0 ? launcher(plan, ob, ox, oy, out, owner, err)
                                                : zone(plan, ob, ox, oy, out, owner, err);
  if (!r && ob->name) tiled_name_copy(plan, out->name, ob->name, "object name");
  return r ? r : object_depth(plan, ob, owner, out, err);
}
