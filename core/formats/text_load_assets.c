/* The text form's materials, tilesets and sprites back into a project. */
#include <inttypes.h>
#include <math.h>

#include "formats_text_load.h"

/* The file's "id" must be the one its name gives: a copied file would otherwise bring a second item with one id. */
TessResult text_load_material(Load *l, TessId named) {
  char rel[256];
  text_path_material(rel, sizeof rel, named);
  Json j;
  TessResult r = text_load_parse(l, rel, &j);
  if (r) return r;
  TessMaterial m;
  memset(&m, 0, sizeof m);
  uint8_t kind = 0;
  r = text_load_named_id(&j, named, "file", &m.id);
  if (r == TESS_OK) r = text_load_name(&j, j.root, "name", 1, m.name);
  if (r == TESS_OK) r = TL_WORD(&j, j.root, "kind", 1, TEXT_MATERIAL_KINDS, &kind);
  if (r == TESS_OK) r = text_load_color(&j, j.root, "color", 1, &m.color);
  if (r == TESS_OK) r = text_load_f32(&j, j.root, "friction", 1, &m.friction);
  if (r == TESS_OK) r = text_load_f32(&j, j.root, "restitution", 1, &m.restitution);
  if (r == TESS_OK) r = text_load_f32(&j, j.root, "tangential", 1, &m.tangential);
  if (r == TESS_OK) r = text_load_f32(&j, j.root, "density", 1, &m.density);
  m.kind = (TessMaterialKind)kind;
  if (r == TESS_OK && (r = tess_project_insert_material(l->p, &m, l->err)) != TESS_OK) r = text_load_rehome(l, rel, 0, r);
  text_load_json_free(&j);
  return r;
}

/* [[x, y, x, y, ...], ...]: convex pieces of at most 8 vertices. */
static TessResult read_polygons(const Json *j, json_t *arr, const char *key, uint64_t from, TessPolygon **out,
                                uint32_t *count) {
  size_t n = json_array_size(arr);
  *out = NULL;
  *count = 0;
  if (n == 0) return TESS_OK;
  if (n > 65535) return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_LIMIT, "\"%s\": too many pieces", key);
  TessPolygon *polys = tess_calloc(n, sizeof *polys);
  if (!polys) return tess_error_set(j->l->err, TESS_ERR_NOMEM, j->rel, "out of memory");
  TessResult r = TESS_OK;
  for (size_t i = 0; r == TESS_OK && i < n; i++) {
    json_t *pa = json_array_get(arr, i);
    size_t k = json_is_array(pa) ? json_array_size(pa) : 1;
    if (k % 2 || k / 2 > TESS_POLY_MAX) {
      r = text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID,
                         "\"%s\": piece %zu must be a list of at most %d x, y pairs", key, i, TESS_POLY_MAX);
      break;
    }
    polys[i].count = (uint32_t)(k / 2);
    for (size_t v = 0; r == TESS_OK && v < k / 2; v++) {
      r = text_load_item_f32(j, pa, 2 * v, key, from, &polys[i].v[v].x);
      if (r == TESS_OK) r = text_load_item_f32(j, pa, 2 * v + 1, key, from, &polys[i].v[v].y);
    }
  }
  if (r) {
    tess_free(polys);
    return r;
  }
  *out = polys;
  *count = (uint32_t)n;
  return TESS_OK;
}

/* The image beside the JSON: the PNG's bytes as the project holds them. */
static TessResult read_image(Load *l, const Json *j, const char *dir, uint8_t **png, size_t *size) {
  const char *name = NULL;
  TessResult r = text_load_str(j, j->root, "image", 1, true, &name);
  *png = NULL;
  *size = 0;
  if (r || !name) return r;
  if (strchr(name, '/') || name[0] == '.')
    return text_load_fail(l, j->rel, text_load_line_of(j, "image", 1), TESS_ERR_INVALID, "\"image\" must be a file name beside this one");
  char rel[512];
  snprintf(rel, sizeof rel, "%s/%s", dir, name);
  char *bytes;
  r = text_load_read(l, rel, &bytes, size);
  if (r == TESS_ERR_NOT_FOUND)
    return text_load_fail(l, j->rel, text_load_line_of(j, "image", 1), TESS_ERR_NOT_FOUND, "the image %s is missing", rel);
  if (r) return r;
  *png = (uint8_t *)bytes;
  return TESS_OK;
}

static TessResult read_tiles(const Json *j, TessTileset *ts) {
  json_t *tiles;
  uint64_t at = text_load_line_of(j, "tiles", 1);
  TessResult r = text_load_array(j, j->root, "tiles", 1, &tiles);
  if (r) return r;
  if (json_array_size(tiles) != ts->tile_count)
    return text_load_fail(j->l, j->rel, at, TESS_ERR_INVALID, "\"tiles\" lists %zu tiles, \"tile_count\" says %" PRIu32,
                          json_array_size(tiles), ts->tile_count);
  ts->tiles = tess_calloc(ts->tile_count ? ts->tile_count : 1, sizeof *ts->tiles);
  if (!ts->tiles) return tess_error_set(j->l->err, TESS_ERR_NOMEM, j->rel, "out of memory");
  for (uint32_t i = 0; r == TESS_OK && i < ts->tile_count; i++) {
    json_t *t = json_array_get(tiles, i);
    uint64_t line = at + 1 + i; /* one tile a line */
    uint32_t index = 0;
    if (!json_is_object(t)) return text_load_fail(j->l, j->rel, line, TESS_ERR_FORMAT, "tile %" PRIu32 " must be an object", i);
    TessTileInfo *ti = &ts->tiles[i];
    bool one_way = false;
    json_t *pieces;
    r = text_load_u32(j, t, "tile", line, &index);
    if (r == TESS_OK && index != i)
      r = text_load_fail(j->l, j->rel, line, TESS_ERR_INVALID, "tile %" PRIu32 " is listed where tile %" PRIu32 " belongs", index, i);
    if (r == TESS_OK) r = text_load_u32(j, t, "material", line, &ti->material);
    if (r == TESS_OK) r = TL_WORD(j, t, "collision", line, TEXT_TILE_COLLISIONS, &ti->collision);
    if (r == TESS_OK) r = text_load_bool(j, t, "one_way", line, &one_way);
    if (r == TESS_OK) r = text_load_array(j, t, "pieces", line, &pieces);
    uint32_t count = 0;
    if (r == TESS_OK) r = read_polygons(j, pieces, "pieces", line, &ti->pieces, &count);
    if (r == TESS_OK && count > 65535) r = text_load_fail(j->l, j->rel, line, TESS_ERR_LIMIT, "too many pieces");
    ti->piece_count = (uint16_t)count;
    ti->one_way = one_way;
  }
  return r;
}

/* The optional "offset" ([x, y], whole pixels) and "fit_cell" of a tileset. */
static TessResult read_placement(const Json *j, const char *rel, TessTileset *ts) {
  TessResult r = TESS_OK;
  if (json_object_get(j->root, "offset")) {
    TessVec2 o;
    r = text_load_vec(j, j->root, "offset", 1, &o);
    if (r == TESS_OK && (o.x != floorf(o.x) || o.y != floorf(o.y) || fabsf(o.x) > TESS_TILE_OFFSET_MAX || fabsf(o.y) > TESS_TILE_OFFSET_MAX))
      return text_load_fail(j->l, rel, text_load_line_of(j, "offset", 1), TESS_ERR_INVALID, "\"offset\" must be whole pixels within +-%d",
                            TESS_TILE_OFFSET_MAX);
    ts->offset_x = (int32_t)o.x;
    ts->offset_y = (int32_t)o.y;
  }
  if (r == TESS_OK && json_object_get(j->root, "fit_cell")) {
    bool fit = false;
    r = text_load_bool(j, j->root, "fit_cell", 1, &fit);
    ts->fit_cell = fit ? 1 : 0;
  }
  return r;
}

TessResult text_load_tileset(Load *l, TessId named) {
  char rel[256];
  text_path_tileset(rel, sizeof rel, named, "json");
  Json j;
  TessResult r = text_load_parse(l, rel, &j);
  if (r) return r;
  TessTileset ts;
  memset(&ts, 0, sizeof ts);
  const char *source = NULL;
  r = text_load_named_id(&j, named, "file", &ts.id);
  if (r == TESS_OK) r = text_load_name(&j, j.root, "name", 1, ts.name);
  if (r == TESS_OK) r = text_load_str(&j, j.root, "source", 1, true, &source);
  if (r == TESS_OK && source && !(ts.source_path = tess_strdup(source))) r = tess_error_set(l->err, TESS_ERR_NOMEM, rel, "out of memory");
  struct {
    const char *key;
    uint32_t *v;
  } u[] = {{"image_w", &ts.image_w}, {"image_h", &ts.image_h}, {"tile_w", &ts.tile_w}, {"tile_h", &ts.tile_h}, {"margin", &ts.margin}, {"spacing", &ts.spacing}, {"columns", &ts.columns}, {"tile_count", &ts.tile_count}};
  for (size_t i = 0; r == TESS_OK && i < sizeof u / sizeof u[0]; i++) r = text_load_u32(&j, j.root, u[i].key, 1, u[i].v);
  if (r == TESS_OK) r = text_load_u8(&j, j.root, "alpha_threshold", 1, &ts.alpha_threshold);
  if (r == TESS_OK) r = read_placement(&j, rel, &ts);
  if (r == TESS_OK && ts.tile_count > (1u << 16))
    r = text_load_fail(l, rel, text_load_line_of(&j, "tile_count", 1), TESS_ERR_LIMIT, "more than 65536 tiles");
  if (r == TESS_OK) r = read_tiles(&j, &ts);
  if (r == TESS_OK) r = text_load_terrains(&j, &ts);
  if (r == TESS_OK) r = read_image(l, &j, "tilesets", &ts.png, &ts.png_size);
  if (r == TESS_OK && (r = tess_project_insert_tileset(l->p, &ts, l->err)) != TESS_OK) r = text_load_rehome(l, rel, 0, r);
  tess_tileset_clear(&ts);
  text_load_json_free(&j);
  return r;
}

static TessResult read_mask(const Json *j, json_t *m, TessSpriteMask *mask) {
  uint64_t at = text_load_line_of(j, "mask", 1);
  bool manual = false, largest = false;
  json_t *hull, *pieces, *centroid, *shape_centroid;
  TessResult r = text_load_u8(j, m, "threshold", at, &mask->threshold);
  if (r == TESS_OK) r = TL_WORD(j, m, "mode", at, TEXT_MASK_MODES, &mask->mode);
  if (r == TESS_OK) r = text_load_bool(j, m, "manual", at, &manual);
  if (r == TESS_OK) r = text_load_bool(j, m, "largest_island_only", at, &largest);
  if (r == TESS_OK) r = text_load_u32(j, m, "max_vertices", at, &mask->max_vertices);
  if (r == TESS_OK) r = text_load_f32(j, m, "tolerance", at, &mask->tolerance);
  if (r == TESS_OK) r = text_load_array(j, m, "hull", at, &hull);
  if (r == TESS_OK && json_array_size(hull) % 2)
    r = text_load_fail(j->l, j->rel, text_load_line_of(j, "hull", at), TESS_ERR_INVALID, "\"hull\" must hold x, y pairs");
  if (r == TESS_OK && json_array_size(hull)) {
    mask->hull_count = (uint32_t)(json_array_size(hull) / 2);
    mask->hull = tess_calloc(mask->hull_count, sizeof *mask->hull);
    if (!mask->hull) return tess_error_set(j->l->err, TESS_ERR_NOMEM, j->rel, "out of memory");
    for (uint32_t i = 0; r == TESS_OK && i < mask->hull_count; i++) {
      r = text_load_item_f32(j, hull, 2 * i, "hull", at, &mask->hull[i].x);
      if (r == TESS_OK) r = text_load_item_f32(j, hull, 2 * i + 1, "hull", at, &mask->hull[i].y);
    }
  }
  if (r == TESS_OK) r = text_load_array(j, m, "pieces", at, &pieces);
  if (r == TESS_OK) r = read_polygons(j, pieces, "pieces", at, &mask->pieces, &mask->piece_count);
  if (r == TESS_OK) r = text_load_vec(j, m, "circle_center", at, &mask->circle_center);
  if (r == TESS_OK) r = text_load_f32(j, m, "circle_radius", at, &mask->circle_radius);
  struct {
    const char *key;
    double *v;
  } d[] = {{"area", &mask->area}, {"inertia", &mask->inertia}, {"shape_area", &mask->shape_area}, {"shape_inertia", &mask->shape_inertia}, {"added_area", &mask->added_area}, {"uncovered_area", &mask->uncovered_area}};
  for (size_t i = 0; r == TESS_OK && i < sizeof d / sizeof d[0]; i++) r = text_load_f64(j, m, d[i].key, at, d[i].v);
  if (r == TESS_OK) r = text_load_array(j, m, "centroid", at, &centroid);
  if (r == TESS_OK) r = text_load_array(j, m, "shape_centroid", at, &shape_centroid);
  if (r == TESS_OK && (json_array_size(centroid) != 2 || json_array_size(shape_centroid) != 2 ||
                       !json_is_number(json_array_get(centroid, 0)) || !json_is_number(json_array_get(centroid, 1)) ||
                       !json_is_number(json_array_get(shape_centroid, 0)) || !json_is_number(json_array_get(shape_centroid, 1))))
    r = text_load_fail(j->l, j->rel, text_load_line_of(j, "centroid", at), TESS_ERR_INVALID, "a centroid must be [x, y]");
  if (r == TESS_OK) {
    mask->centroid_x = json_number_value(json_array_get(centroid, 0));
    mask->centroid_y = json_number_value(json_array_get(centroid, 1));
    mask->shape_centroid_x = json_number_value(json_array_get(shape_centroid, 0));
    mask->shape_centroid_y = json_number_value(json_array_get(shape_centroid, 1));
  }
  mask->manual = manual;
  mask->largest_island_only = largest;
  return r;
}

TessResult text_load_sprite(Load *l, TessId named) {
  char rel[256];
  text_path_sprite(rel, sizeof rel, named, "json");
  Json j;
  TessResult r = text_load_parse(l, rel, &j);
  if (r) return r;
  TessSprite s;
  memset(&s, 0, sizeof s);
  const char *source = NULL;
  json_t *mask = NULL;
  r = text_load_named_id(&j, named, "file", &s.id);
  if (r == TESS_OK) r = text_load_name(&j, j.root, "name", 1, s.name);
  if (r == TESS_OK) r = text_load_str(&j, j.root, "source", 1, true, &source);
  if (r == TESS_OK && source && !(s.source_path = tess_strdup(source))) r = tess_error_set(l->err, TESS_ERR_NOMEM, rel, "out of memory");
  if (r == TESS_OK) r = text_load_u32(&j, j.root, "image_w", 1, &s.image_w);
  if (r == TESS_OK) r = text_load_u32(&j, j.root, "image_h", 1, &s.image_h);
  if (r == TESS_OK) r = text_load_u32(&j, j.root, "frame_count", 1, &s.frame_count);
  if (r == TESS_OK) r = text_load_f32(&j, j.root, "frame_rate", 1, &s.frame_rate);
  if (r == TESS_OK) r = text_load_vec(&j, j.root, "anchor", 1, &s.anchor);
  if (r == TESS_OK && (!(mask = json_object_get(j.root, "mask")) || !json_is_object(mask)))
    r = text_load_fail(l, rel, 1, TESS_ERR_FORMAT, "missing \"mask\"");
  if (r == TESS_OK) r = read_mask(&j, mask, &s.mask);
  if (r == TESS_OK) r = read_image(l, &j, "sprites", &s.png, &s.png_size);
  if (r == TESS_OK && (r = tess_project_insert_sprite(l->p, &s, l->err)) != TESS_OK) r = text_load_rehome(l, rel, 0, r);
  tess_sprite_clear(&s);
  text_load_json_free(&j);
  return r;
}
