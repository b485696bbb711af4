/* The tilesets of a Tiled export: a project tileset (its image, and per
 * tile the collision as Tiled's per-tile objectgroup, the default material
 * and the one-way flag as properties), a sprite (a tileset of its frames
 * with the mask as tile 0's objectgroup and the mask's numbers as
 * properties), and the generated materials tileset (one colour swatch per
 * material, whose tile properties are the material). Names of properties
 * are documented in core/formats/README.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tessera/image.h"
#include "formats_tiled_write_build.h"

static const char *collision_name(uint8_t c) {
  return c == TESS_TILE_COLLISION_FULL ? "full" : c == TESS_TILE_COLLISION_TRACED ? "traced"
                                                                                  : "none";
}

static double signed_area(const TessPolygon *poly) {
  double a = 0.0;
  for (uint32_t i = 0; i < poly->count; i++) {
    const TessVec2 *p = &poly->v[i], *q = &poly->v[(i + 1) % poly->count];
    a += (double)p->x * q->y - (double)q->x * p->y;
  }
  return a;
}

/* A convex piece as a polygon object at (0, 0) of the tile. The stated
 * winding: positive signed area in the map's coordinates (x right, y down),
 * which looks clockwise on screen and is counter-clockwise once y points up
 * (Box2D's). Tessera's pieces already are; a reversed one is turned. */
static void piece_object(TwMap *m, TwObjects *objs, uint32_t id, const TessPolygon *poly) {
  TwObject *o = tiled_write_object_add(m, objs);
  if (!o) return;
  o->id = id;
  o->shape = TW_POLYGON;
  uint32_t n = poly->count <= TESS_POLY_MAX ? poly->count : TESS_POLY_MAX;
  TwPoint *pts = tiled_write_points(m, o, n);
  if (!pts) return;
  bool reverse = signed_area(poly) < 0.0;
  for (uint32_t k = 0; k < n; k++) {
    const TessVec2 *v = &poly->v[reverse ? n - 1 - k : k];
    pts[k].x = v->x;
    pts[k].y = v->y;
  }
}

static TwTile *tile_add(TwMap *m, TwTileset *out, size_t cap, uint32_t id) {
  if (m->failed || out->tile_n >= cap) return NULL;
  TwTile *t = &out->tiles[out->tile_n++];
  memset(t, 0, sizeof *t);
  t->id = id;
  return t;
}

static void material_ref(TwMap *m, const TessProject *p, TwProps *props, TessId id) {
  const TessMaterial *mat = tess_project_material(p, id);
  if (mat) tiled_write_prop_string(m, props, "material", mat->name);
  tiled_write_prop_int(m, props, "tessera.material_id", id);
}

/* Tiled keeps one probability per tile, shared by its wang sets: the first
 * terrain set labelling the tile gives it (1 when none does). */
static float terrain_probability(const TessTileset *ts, uint32_t tile) {
  for (uint32_t i = 0; i < ts->terrain_count; i++) {
    const TessTerrainTile *t = tess_terrain_set_find(&ts->terrains[i], tile);
    if (t) return t->probability;
  }
  return 1.0f;
}

void tiled_write_build_tileset(TwMap *m, const TessProject *p, const TessTileset *ts, const char *stem, TwTileset *out) {
  memset(out, 0, sizeof *out);
  out->stem = tiled_write_strdup(m, stem);
  out->name = ts->name;
  out->tile_w = ts->tile_w;
  out->tile_h = ts->tile_h;
  /* Tiles keep their own size: Tiled draws them from the cell's bottom-left
   * corner, moved by the tile offset, as Tessera does. */
  out->offset_x = ts->fit_cell ? 0 : ts->offset_x;
  out->offset_y = ts->fit_cell ? 0 : ts->offset_y;
  out->fit_grid = ts->fit_cell != 0;
  out->margin = ts->margin;
  out->spacing = ts->spacing;
  out->columns = ts->columns;
  out->tile_count = ts->tile_count;
  out->image_w = ts->image_w;
  out->image_h = ts->image_h;
  out->png = ts->png;
  out->png_size = ts->png_size;
  tiled_write_prop_int(m, &out->props, "tessera.id", ts->id);
  if (ts->source_path) tiled_write_prop_string(m, &out->props, "tessera.source_path", ts->source_path);
  tiled_write_prop_int(m, &out->props, "alpha_threshold", ts->alpha_threshold);
  out->terrains = ts->terrains;
  out->terrain_count = ts->terrain_count;
  size_t cap = 0;
  for (uint32_t i = 0; ts->tiles && i < ts->tile_count; i++) {
    const TessTileInfo *t = &ts->tiles[i];
    cap += t->material || t->collision != TESS_TILE_COLLISION_NONE || t->one_way || t->piece_count ||
           terrain_probability(ts, i) != 1.0f;
  }
  if (cap == 0) return;
  out->tiles = tess_calloc(cap, sizeof *out->tiles);
  if (!out->tiles) {
    m->failed = true;
    return;
  }
  for (uint32_t i = 0; i < ts->tile_count; i++) {
    const TessTileInfo *t = &ts->tiles[i];
    float probability = terrain_probability(ts, i);
    bool weighted = probability != 1.0f;
    if (!(t->material || t->collision != TESS_TILE_COLLISION_NONE || t->one_way || t->piece_count || weighted)) continue;
    TwTile *tile = tile_add(m, out, cap, i);
    if (!tile) return;
    tile->has_probability = weighted;
    tile->probability = probability;
    if (!(t->material || t->collision != TESS_TILE_COLLISION_NONE || t->one_way || t->piece_count)) continue;
    tiled_write_prop_string(m, &tile->props, "collision", collision_name(t->collision));
    if (t->one_way) tiled_write_prop_bool(m, &tile->props, "one_way", true);
    if (t->material) material_ref(m, p, &tile->props, t->material);
    if (t->collision == TESS_TILE_COLLISION_FULL) {
      TwObject *o = tiled_write_object_add(m, &tile->objects);
      if (!o) return;
      o->id = 1;
      o->shape = TW_RECT;
      o->width = ts->tile_w;
      o->height = ts->tile_h;
    }
    /* Pieces are written whatever the kind, so none are lost. */
    for (uint32_t k = 0; t->pieces && k < t->piece_count; k++)
      piece_object(m, &tile->objects, (uint32_t)tile->objects.n + 1, &t->pieces[k]);
  }
}

static const char *mask_mode_name(uint8_t mode) {
  static const char *names[] = {"hull", "simplified", "pieces", "circle", "box"};
  return mode < 5 ? names[mode] : "hull";
}

static const char *points_text(TwMap *m, const TessVec2 *v, uint32_t n) {
  size_t cap = (size_t)n * 66 + 1, len = 0;
  char *buf = tess_alloc(cap);
  if (!buf) {
    m->failed = true;
    return "";
  }
  buf[0] = 0;
  for (uint32_t i = 0; i < n; i++) {
    char x[32], y[32];
    tiled_write_format_double(v[i].x, x);
    tiled_write_format_double(v[i].y, y);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s,%s", i ? " " : "", x, y);
  }
  const char *s = tiled_write_strdup(m, buf);
  tess_free(buf);
  return s;
}

void tiled_write_build_sprite(TwMap *m, const TessSprite *s, const char *stem, TwTileset *out) {
  memset(out, 0, sizeof *out);
  uint32_t frames = s->frame_count ? s->frame_count : 1;
  out->stem = tiled_write_strdup(m, stem);
  out->name = s->name;
  out->tile_w = s->image_w / frames;
  out->tile_h = s->image_h;
  out->columns = frames;
  out->tile_count = frames;
  out->image_w = s->image_w;
  out->image_h = s->image_h;
  out->png = s->png;
  out->png_size = s->png_size;
  const TessSpriteMask *k = &s->mask;
  TwProps *pr = &out->props;
  tiled_write_prop_string(m, pr, "kind", "sprite");
  tiled_write_prop_int(m, pr, "tessera.id", s->id);
  if (s->source_path) tiled_write_prop_string(m, pr, "tessera.source_path", s->source_path);
  tiled_write_prop_float(m, pr, "anchor_x", s->anchor.x);
  tiled_write_prop_float(m, pr, "anchor_y", s->anchor.y);
  tiled_write_prop_int(m, pr, "frame_count", s->frame_count);
  tiled_write_prop_float(m, pr, "frame_rate", s->frame_rate);
  tiled_write_prop_string(m, pr, "mask_mode", mask_mode_name(k->mode));
  tiled_write_prop_int(m, pr, "mask_threshold", k->threshold);
  tiled_write_prop_int(m, pr, "mask_max_vertices", k->max_vertices);
  tiled_write_prop_float(m, pr, "mask_tolerance", k->tolerance);
  tiled_write_prop_bool(m, pr, "mask_manual", k->manual != 0);
  tiled_write_prop_bool(m, pr, "mask_largest_island_only", k->largest_island_only != 0);
  /* Pixel mass properties per unit density (pixels, pixels^4). */
  tiled_write_prop_float(m, pr, "area", k->area);
  tiled_write_prop_float(m, pr, "centroid_x", k->centroid_x);
  tiled_write_prop_float(m, pr, "centroid_y", k->centroid_y);
  tiled_write_prop_float(m, pr, "inertia", k->inertia);
  tiled_write_prop_float(m, pr, "shape_area", k->shape_area);
  tiled_write_prop_float(m, pr, "shape_centroid_x", k->shape_centroid_x);
  tiled_write_prop_float(m, pr, "shape_centroid_y", k->shape_centroid_y);
  tiled_write_prop_float(m, pr, "shape_inertia", k->shape_inertia);
  tiled_write_prop_float(m, pr, "added_area", k->added_area);
  tiled_write_prop_float(m, pr, "uncovered_area", k->uncovered_area);
  tiled_write_prop_float(m, pr, "circle_x", k->circle_center.x);
  tiled_write_prop_float(m, pr, "circle_y", k->circle_center.y);
  tiled_write_prop_float(m, pr, "circle_radius", k->circle_radius);
  if (k->hull_count && k->hull) tiled_write_prop_string(m, pr, "hull", points_text(m, k->hull, k->hull_count));
  out->tiles = tess_calloc(1, sizeof *out->tiles);
  if (!out->tiles) {
    m->failed = true;
    return;
  }
  TwTile *tile = tile_add(m, out, 1, 0);
  if (!tile) return;
  if (k->mode == TESS_MASK_CIRCLE) {
    TwObject *o = tiled_write_object_add(m, &tile->objects);
    if (o) {
      o->id = 1;
      o->shape = TW_ELLIPSE;
      o->x = (double)k->circle_center.x - k->circle_radius;
      o->y = (double)k->circle_center.y - k->circle_radius;
      o->width = o->height = 2.0 * k->circle_radius;
    }
  } else {
    for (uint32_t i = 0; k->pieces && i < k->piece_count; i++)
      piece_object(m, &tile->objects, (uint32_t)tile->objects.n + 1, &k->pieces[i]);
  }
  if (frames > 1 && s->frame_rate > 0.0f) {
    double ms = 1000.0 / s->frame_rate;
    tile->frame_count = frames;
    tile->frame_ms = ms < 1.0 ? 1u : ms > 1e9 ? 1000000000u
                                              : (uint32_t)lround(ms);
  }
}

static const char *kind_name(TessMaterialKind k) {
  return k == TESS_MATERIAL_SOLID ? "solid" : k == TESS_MATERIAL_FLUID ? "fluid"
                                                                       : "floor";
}

#define SWATCH_COLUMNS 16u

/* The swatch sheet: tile i is material i (in id order) filled with its
 * colour, so Tiled shows the material layer as the editor's overlay does. */
static TessResult swatches(const TessProject *p, uint32_t tw, uint32_t th, TwTileset *out, TessError *err) {
  uint32_t n = p->material_count, cols = n < SWATCH_COLUMNS ? n : SWATCH_COLUMNS, rows = (n + cols - 1) / cols;
  if ((uint64_t)cols * tw > 16384 || (uint64_t)rows * th > 16384)
    return tess_error_set(err, TESS_ERR_LIMIT, "materials", "%u materials at %ux%u px make a swatch sheet over 16384 px", n,
                          tw, th);
  TessImage img;
  TessResult r = tess_image_create(cols * tw, rows * th, &img, err);
  if (r != TESS_OK) return r;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t c = p->materials[i].color, x0 = (i % cols) * tw, y0 = (i / cols) * th;
    for (uint32_t y = 0; y < th; y++)
      for (uint32_t x = 0; x < tw; x++) {
        uint8_t *px = img.pixels + (size_t)(y0 + y) * img.stride + (size_t)(x0 + x) * 4;
        px[0] = (uint8_t)(c >> 24);
        px[1] = (uint8_t)(c >> 16);
        px[2] = (uint8_t)(c >> 8);
        px[3] = (uint8_t)c;
      }
  }
  uint8_t *png = NULL;
  size_t size = 0;
  r = tess_png_encode(tess_image_view(&img), &png, &size, err);
  tess_image_clear(&img);
  if (r != TESS_OK) return r;
  out->png_owned = png;
  out->png = png;
  out->png_size = size;
  out->columns = cols;
  out->image_w = cols * tw;
  out->image_h = rows * th;
  return TESS_OK;
}

TessResult tiled_write_build_materials(TwMap *m, const TessProject *p, uint32_t tile_w, uint32_t tile_h, const char *stem,
                                       TwTileset *out, TessError *err) {
  memset(out, 0, sizeof *out);
  out->stem = tiled_write_strdup(m, stem);
  out->name = "Materials";
  out->tile_w = tile_w;
  out->tile_h = tile_h;
  out->tile_count = p->material_count;
  tiled_write_prop_string(m, &out->props, "kind", "materials");
  TessResult r = swatches(p, tile_w, tile_h, out, err);
  if (r != TESS_OK) return r;
  out->tiles = tess_calloc(p->material_count ? p->material_count : 1, sizeof *out->tiles);
  if (!out->tiles) {
    m->failed = true;
    return TESS_OK;
  }
  for (uint32_t i = 0; i < p->material_count; i++) {
    const TessMaterial *mat = &p->materials[i];
    TwTile *t = tile_add(m, out, p->material_count, i);
    if (!t) break;
    tiled_write_prop_int(m, &t->props, "tessera.id", mat->id);
    tiled_write_prop_string(m, &t->props, "name", mat->name);
    tiled_write_prop_color(m, &t->props, "color", mat->color);
    tiled_write_prop_float(m, &t->props, "friction", mat->friction);
    tiled_write_prop_float(m, &t->props, "restitution", mat->restitution);
    tiled_write_prop_float(m, &t->props, "tangential", mat->tangential);
    tiled_write_prop_float(m, &t->props, "density", mat->density);
    tiled_write_prop_string(m, &t->props, "kind", kind_name(mat->kind));
  }
  return TESS_OK;
}
