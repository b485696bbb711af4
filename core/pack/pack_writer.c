/* The .tlv writer: a project's level -> sections -> one buffer (FORMAT.md).
 * Deterministic by construction: sections are built in a fixed order from
 * the level's own order (layers bottom to top, objects as listed, ids
 * ascending), every byte is written explicitly little-endian, padding is
 * zero, and nothing depends on addresses, time or the thread. */
#include "tessera/pack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pack_buffer.h"
#include "pack_geometry.h"
#include "pack_mass.h"
#include "pack_private.h"
#include "tessera/image.h"
#include "tessera/scene.h"
#include "tlv_reader.h"

enum {
  S_SETT,
  S_STRS,
  S_MATL,
  S_TSET,
  S_TILE,
  S_POLY,
  S_VERT,
  S_LAYR,
  S_PALT,
  S_CELL,
  S_CPAL,
  S_CGRD,
  S_LOOP,
  S_CRNR,
  S_RECT,
  S_BODY,
  S_SHAP,
  S_JOIN,
  S_ZONE,
  S_SPWN,
  S_SPRT,
  S_PROP,
  S_BLOB,
  S_TERS,
  S_TERC,
  S_TERT,
  S_DRAW,
  S_PMSK,
  S_PBIT,
  S_LNCH,
  S_COUNT
};

static const struct {
  uint32_t type, stride;
  bool required;
} SECTION_INFO[S_COUNT] = {
    {TLV_SEC_SETTINGS, TLV_SETTINGS_SIZE, true},
    {TLV_SEC_STRINGS, 0, true},
    {TLV_SEC_MATERIALS, TLV_MATERIAL_SIZE, true},
    {TLV_SEC_TILESETS, TLV_TILESET_SIZE_3_4, true},
    {TLV_SEC_TILES, TLV_TILE_SIZE, true},
    {TLV_SEC_POLYGONS, TLV_POLYGON_SIZE, true},
    {TLV_SEC_VERTICES, TLV_VERTEX_SIZE, true},
    {TLV_SEC_LAYERS, TLV_LAYER_SIZE, true},
    {TLV_SEC_PALETTE, TLV_PALETTE_SIZE, true},
    {TLV_SEC_CELLS, 0, true},
    {TLV_SEC_COLLISION_PALETTE, TLV_COLLISION_PALETTE_SIZE, true},
    {TLV_SEC_COLLISION_GRID, 0 /* the cell width, set when written */, true},
    {TLV_SEC_LOOPS, TLV_LOOP_SIZE, true},
    {TLV_SEC_CORNERS, TLV_CORNER_SIZE, true},
    {TLV_SEC_RECTS, TLV_RECT_SIZE, true},
    {TLV_SEC_BODIES, TLV_BODY_SIZE, true},
    {TLV_SEC_SHAPES, TLV_SHAPE_SIZE, true},
    {TLV_SEC_JOINTS, TLV_JOINT_SIZE_3_1, true},
    {TLV_SEC_ZONES, TLV_ZONE_SIZE, true},
    {TLV_SEC_SPAWNS, TLV_SPAWN_SIZE, true},
    {TLV_SEC_SPRITES, TLV_SPRITE_SIZE, false},
    {TLV_SEC_PROPERTIES, TLV_PROPERTY_SIZE, false},
    {TLV_SEC_BLOB, 0, false},
    {TLV_SEC_TERRAIN_SETS, TLV_TERRAIN_SET_SIZE, false},
    {TLV_SEC_TERRAIN_COLORS, TLV_TERRAIN_COLOR_SIZE, false},
    {TLV_SEC_TERRAIN_TILES, TLV_TERRAIN_TILE_SIZE, false},
    {TLV_SEC_DRAW_ORDER, TLV_DRAW_ORDER_SIZE, false},
    /* required: an older reader must not simulate a level without the collision it needs */
    {TLV_SEC_PIXEL_MASKS, TLV_PIXEL_MASK_SIZE, true},
    {TLV_SEC_PIXEL_BITS, 0, true},
    {TLV_SEC_LAUNCHERS, TLV_LAUNCHER_SIZE, false},
};

typedef struct Section {
  PackBuf buf;
  uint32_t count;
  uint32_t stride;
} Section;

typedef struct Writer {
  const TessProject *p;
  const TessLevel *lv;
  TessPackOptions opt;
  TessError *err;
  Section s[S_COUNT];
  PackStrings str;
  PackMap tileset_used; /* tileset id -> 1 */
  uint8_t *occupied;    /* per cell: some tile or material layer holds a value there */
  TessScene *scene;     /* the level resolved for simulation: what the pack's simulation data copies */
  struct {              /* the tile layers that collide, bottom to top, as written to CELL and PALT */
    uint64_t offset;
    uint32_t width, pal_first;
  } colliders[64];
  uint32_t collider_count;
  struct { /* the material layer as written to CELL, if the level has one */
    uint64_t offset;
    uint32_t width;
    bool present;
  } materials_layer;
  PackMap sprite_index; /* sprite id -> 1-based sprite index */
  double ppm;
} Writer;

static const char *where(const Writer *w) { return w->lv->settings.name; }

/* ---- Materials ---------------------------------------------------------- */

/* Materials are written in the project's order (ascending id): index i + 1. */
static uint32_t material_index(const Writer *w, TessId id) {
  if (!id) return 0;
  uint32_t lo = 0, hi = w->p->material_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (w->p->materials[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < w->p->material_count && w->p->materials[lo].id == id ? lo + 1 : 0;
}

static void write_materials(Writer *w) {
  Section *s = &w->s[S_MATL];
  for (uint32_t i = 0; i < w->p->material_count; i++) {
    const TessMaterial *m = &w->p->materials[i];
    pack_put_u32(&s->buf, m->id);
    pack_put_u32(&s->buf, pack_string(&w->str, m->name));
    pack_put_u32(&s->buf, m->color);
    pack_put_u32(&s->buf, (uint32_t)m->kind);
    pack_put_f32(&s->buf, m->friction);
    pack_put_f32(&s->buf, m->restitution);
    pack_put_f32(&s->buf, m->tangential);
    pack_put_f32(&s->buf, m->density);
    s->count++;
  }
}

static void write_settings(Writer *w) {
  const TessLevelSettings *st = &w->lv->settings;
  PackBuf *b = &w->s[S_SETT].buf;
  pack_put_u32(b, st->width);
  pack_put_u32(b, st->height);
  pack_put_u32(b, st->tile_w);
  pack_put_u32(b, st->tile_h);
  pack_put_f32(b, st->ppm);
  pack_put_f32(b, st->gravity.x);
  pack_put_f32(b, st->gravity.y);
  pack_put_u32(b, st->view);
  pack_put_f32(b, st->physics_hz);
  pack_put_u32(b, st->substeps);
  pack_put_f32(b, st->floor_drag);
  pack_put_u32(b, pack_string(&w->str, st->name));
  pack_put_u32(b, w->lv->id);
  pack_put_f32(b, w->scene->cell_w);
  pack_put_f32(b, w->scene->cell_h);
  pack_buf_grow(b, TLV_SETTINGS_SIZE - 60);
  w->s[S_SETT].count = 1;
}

/* ---- Vertices and polygons ---------------------------------------------- */

static uint32_t put_vertex(Writer *w, double x, double y) {
  pack_put_f32(&w->s[S_VERT].buf, (float)x);
  pack_put_f32(&w->s[S_VERT].buf, (float)y);
  return w->s[S_VERT].count++;
}

/* A convex piece (3..8 vertices) as a POLY record; returns its index or
 * UINT32_MAX for a degenerate piece, which is left out. Every polygon is
 * written with a positive shoelace sum (clockwise on screen, y down; format
 * 3.2): one the other way round is reversed as v[n-1-k], which is what the
 * physics does when it makes a shape, so the world gets the same vertices.
 * (The scene's polygons already come this way; tile pieces come from the
 * project as traced.) */
static uint32_t put_polygon(Writer *w, const TessPolygon *poly, double ox, double oy, double scale) {
  uint32_t n = poly->count > TESS_POLY_MAX ? TESS_POLY_MAX : poly->count;
  if (n < 3) return UINT32_MAX;
  float x[TESS_POLY_MAX], y[TESS_POLY_MAX];
  double area = 0.0;
  for (uint32_t i = 0; i < n; i++) {
    x[i] = (float)(((double)poly->v[i].x - ox) * scale);
    y[i] = (float)(((double)poly->v[i].y - oy) * scale);
  }
  for (uint32_t i = 0; i < n; i++) area += (double)x[i] * y[(i + 1) % n] - (double)x[(i + 1) % n] * y[i];
  uint32_t first = w->s[S_VERT].count;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t k = area < 0.0 ? n - 1 - i : i;
    put_vertex(w, x[k], y[k]);
  }
  pack_put_u32(&w->s[S_POLY].buf, first);
  pack_put_u32(&w->s[S_POLY].buf, n);
  return w->s[S_POLY].count++;
}

/* ---- Tile layers and the material layer ---------------------------------- */

/* A cell the file can carry: a known tile with the reserved bit clear. */
static bool cell_known(const Writer *w, TessCell cell) {
  return cell && !(cell & TESS_CELL_RESERVED) && tess_project_tile(w->p, cell) != NULL;
}

static uint32_t width_for(uint64_t max_value) { return max_value <= 0xFFu ? 1u : max_value <= 0xFFFFu ? 2u
                                                                                                      : 4u; }

static void put_cells(PackBuf *b, const uint32_t *v, size_t n, uint32_t width) {
  uint8_t *p = pack_buf_append(b, n * width);
  if (!p) return;
  if (width == 1)
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)v[i];
  else if (width == 2)
    for (size_t i = 0; i < n; i++) {
      p[2 * i] = (uint8_t)v[i];
      p[2 * i + 1] = (uint8_t)(v[i] >> 8);
    }
  else
    for (size_t i = 0; i < n; i++) pack_set_u32(p + 4 * i, v[i]);
}

/* The layer's cells as palette indices (tile layers; the palette, in order of
 * first use, is appended to PALT) or 1-based material indices (the material
 * layer), read chunk by chunk (absent chunks are empty); every covered cell
 * is written; marks occupied cells. */
static TessResult layer_values(Writer *w, const TessLayer *layer, uint32_t *out, bool material) {
  uint32_t W = w->lv->settings.width, H = w->lv->settings.height;
  PackMap pal = {0};
  uint32_t pal_count = 1, last_in = 0, last_out = 0;
  TessResult r = TESS_OK;
  if (!material && !pack_map_put(&pal, 0, 0)) return tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory");
  for (uint32_t cy = 0; cy < layer->chunks_y && r == TESS_OK; cy++) {
    for (uint32_t cx = 0; cx < layer->chunks_x && r == TESS_OK; cx++) {
      const TessChunk *ch = tess_layer_chunk(layer, cx, cy);
      if (!ch) { /* an absent chunk is empty */
        uint32_t x0 = cx * TESS_CHUNK_SIZE;
        uint32_t span = x0 < W ? (W - x0 < TESS_CHUNK_SIZE ? W - x0 : TESS_CHUNK_SIZE) : 0;
        for (uint32_t yy = 0; yy < TESS_CHUNK_SIZE && span; yy++) {
          uint32_t y = cy * TESS_CHUNK_SIZE + yy;
          if (y >= H) break;
          memset(&out[(size_t)y * W + x0], 0, span * sizeof *out);
        }
        continue;
      }
      for (uint32_t yy = 0; yy < TESS_CHUNK_SIZE; yy++) {
        uint32_t y = cy * TESS_CHUNK_SIZE + yy;
        if (y >= H) break;
        for (uint32_t xx = 0; xx < TESS_CHUNK_SIZE; xx++) {
          uint32_t x = cx * TESS_CHUNK_SIZE + xx;
          if (x >= W) break;
          uint32_t v = ch->cells[yy * TESS_CHUNK_SIZE + xx], o;
          if (v == 0) {
            out[(size_t)y * W + x] = 0;
            continue;
          }
          if (v == last_in && last_out) {
            o = last_out;
          } else if (material) {
            o = material_index(w, v);
          } else if (!pack_map_get(&pal, v, &o)) {
            if (!cell_known(w, v)) {
              o = 0; /* a tile that no longer exists draws and collides as nothing */
            } else {
              o = pal_count++;
              if (!pack_map_put(&pal, v, o) || !pack_map_put(&w->tileset_used, TESS_CELL_TILESET(v), 1)) {
                r = tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory");
                break;
              }
            }
          }
          last_in = v;
          last_out = o;
          out[(size_t)y * W + x] = o;
          if (o) w->occupied[(size_t)y * W + x] = 1;
        }
      }
    }
  }
  if (r == TESS_OK && !material) {
    /* The palette in index order: invert the map. */
    uint32_t *entries = tess_calloc(pal_count, sizeof *entries);
    if (!entries) {
      r = tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory");
    } else {
      for (size_t i = 0; i < pal.cap; i++)
        if (pal.used[i]) entries[pal.values[i]] = (uint32_t)pal.keys[i];
      for (uint32_t i = 0; i < pal_count; i++) pack_put_u32(&w->s[S_PALT].buf, entries[i]);
      tess_free(entries);
    }
  }
  pack_map_free(&pal);
  return r;
}

static TessResult write_layers(Writer *w) {
  size_t n = (size_t)w->lv->settings.width * w->lv->settings.height;
  uint32_t *vals = tess_alloc(n * sizeof *vals);
  w->occupied = tess_calloc(n ? n : 1, 1);
  if (!w->occupied) {
    tess_free(vals);
    vals = NULL;
  }
  if (!vals) return tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory for %zu cells", n);
  for (uint32_t li = 0; li < w->lv->layer_count; li++) {
    const TessLayer *layer = w->lv->layers[li];
    bool material = layer->props.kind == TESS_LAYER_MATERIAL;
    if (layer->props.kind != TESS_LAYER_TILES && !material) continue;
    /* layer_values writes every cell its chunks cover (absent chunks as
     * empty); a layer whose chunks do not cover the level is cleared first. */
    if ((uint64_t)layer->chunks_x * TESS_CHUNK_SIZE < w->lv->settings.width ||
        (uint64_t)layer->chunks_y * TESS_CHUNK_SIZE < w->lv->settings.height)
      memset(vals, 0, n * sizeof *vals);
    uint32_t pal_first = w->s[S_PALT].count;
    TessResult r = layer_values(w, layer, vals, material);
    if (r != TESS_OK) {
      tess_free(vals);
      return r;
    }
    uint32_t pal_count = material ? 0 : (uint32_t)(w->s[S_PALT].buf.size / 4) - pal_first;
    w->s[S_PALT].count += pal_count;
    uint64_t maxv = material ? w->p->material_count : (pal_count ? pal_count - 1 : 0);
    uint32_t width = width_for(maxv);
    pack_pad(&w->s[S_CELL].buf, TLV_ALIGN);
    uint64_t offset = w->s[S_CELL].buf.size;
    put_cells(&w->s[S_CELL].buf, vals, n, width);
    if (material && !w->materials_layer.present) {
      w->materials_layer.offset = offset;
      w->materials_layer.width = width;
      w->materials_layer.present = true;
    }
    if (!material && layer->props.collides && !layer->props.collide_pixels) { /* pixel layers: PMSK */
      if (w->collider_count == sizeof w->colliders / sizeof w->colliders[0]) {
        tess_free(vals);
        return tess_error_set(w->err, TESS_ERR_LIMIT, where(w), "more than 64 colliding tile layers");
      }
      w->colliders[w->collider_count].offset = offset;
      w->colliders[w->collider_count].width = width;
      w->colliders[w->collider_count].pal_first = pal_first;
      w->collider_count++;
    }
    PackBuf *b = &w->s[S_LAYR].buf;
    pack_put_u32(b, layer->props.id);
    pack_put_u32(b, pack_string(&w->str, layer->props.name));
    pack_put_u32(b, material ? TLV_LAYER_MATERIAL : TLV_LAYER_TILES);
    pack_put_u32(b, (layer->props.visible ? TLV_LAYER_VISIBLE : 0) | (layer->props.locked ? TLV_LAYER_LOCKED : 0) |
                        (layer->props.collides ? TLV_LAYER_COLLIDES : 0) |
                        (layer->props.collides && layer->props.collide_pixels ? TLV_LAYER_PIXELS : 0));
    pack_put_f32(b, layer->props.opacity);
    pack_put_u32(b, width);
    pack_put_u32(b, material ? 0 : pal_first);
    pack_put_u32(b, pal_count);
    pack_put_u64(b, offset);
    pack_put_u32(b, li);
    pack_put_u32(b, 0);
    w->s[S_LAYR].count++;
  }
  tess_free(vals);
  return TESS_OK;
}

/* ---- Tilesets ------------------------------------------------------------ */

static TessResult put_blob(Writer *w, const uint8_t *data, size_t size, uint32_t *offset, uint32_t *out_size) {
  *offset = 0;
  *out_size = 0;
  if (!w->opt.embed_images || !data || !size) return TESS_OK;
  pack_pad(&w->s[S_BLOB].buf, TLV_ALIGN);
  if (w->s[S_BLOB].buf.size + size > UINT32_MAX)
    return tess_error_set(w->err, TESS_ERR_LIMIT, where(w), "embedded images exceed 4 GiB");
  *offset = (uint32_t)w->s[S_BLOB].buf.size;
  *out_size = (uint32_t)size;
  pack_put_bytes(&w->s[S_BLOB].buf, data, size);
  return TESS_OK;
}

/* The tileset's terrain sets (3.3), after its TSET record (1-based index
 * `tileset`): labels where the kind does not look are written as 0. */
static void write_terrains(Writer *w, const TessTileset *ts, uint32_t tileset) {
  for (uint32_t i = 0; i < ts->terrain_count; i++) {
    const TessTerrainSet *set = &ts->terrains[i];
    PackBuf *b = &w->s[S_TERS].buf;
    pack_put_u32(b, tileset);
    pack_put_u32(b, pack_string(&w->str, set->name));
    pack_put_u32(b, set->kind);
    pack_put_u32(b, (uint32_t)set->tile);
    pack_put_u32(b, w->s[S_TERC].count);
    pack_put_u32(b, set->color_count);
    pack_put_u32(b, w->s[S_TERT].count);
    pack_put_u32(b, set->tile_count);
    w->s[S_TERS].count++;
    for (uint32_t c = 0; c < set->color_count; c++) {
      b = &w->s[S_TERC].buf;
      pack_put_u32(b, pack_string(&w->str, set->colors[c].name));
      pack_put_u32(b, set->colors[c].color);
      pack_put_f32(b, set->colors[c].probability);
      pack_put_u32(b, (uint32_t)set->colors[c].tile);
      w->s[S_TERC].count++;
    }
    uint8_t mask = tess_terrain_kind_mask((TessTerrainKind)set->kind);
    for (uint32_t t = 0; t < set->tile_count; t++) {
      b = &w->s[S_TERT].buf;
      pack_put_u32(b, set->tiles[t].tile);
      for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++) pack_put_u8(b, (mask >> k) & 1 ? set->tiles[t].wang[k] : 0);
      pack_put_f32(b, set->tiles[t].probability);
      w->s[S_TERT].count++;
    }
  }
}

static TessResult write_tilesets(Writer *w) {
  for (uint32_t i = 0; i < w->p->tileset_count; i++) {
    const TessTileset *ts = w->p->tilesets[i];
    uint32_t used;
    if (!pack_map_get(&w->tileset_used, ts->id, &used)) continue;
    uint32_t tile_first = w->s[S_TILE].count, img_off, img_size;
    for (uint32_t t = 0; t < ts->tile_count; t++) {
      const TessTileInfo *ti = &ts->tiles[t];
      uint32_t poly_first = w->s[S_POLY].count;
      if (ti->collision == TESS_TILE_COLLISION_TRACED)
        for (uint32_t k = 0; k < ti->piece_count; k++) put_polygon(w, &ti->pieces[k], 0.0, 0.0, 1.0);
      PackBuf *b = &w->s[S_TILE].buf;
      pack_put_u32(b, material_index(w, ti->material));
      pack_put_u8(b, ti->collision <= 2 ? ti->collision : 0);
      pack_put_u8(b, ti->one_way ? 1 : 0);
      pack_put_u16(b, 0);
      pack_put_u32(b, poly_first);
      pack_put_u32(b, w->s[S_POLY].count - poly_first);
      w->s[S_TILE].count++;
    }
    TessResult r = put_blob(w, ts->png, ts->png_size, &img_off, &img_size);
    if (r != TESS_OK) return r;
    PackBuf *b = &w->s[S_TSET].buf;
    pack_put_u32(b, ts->id);
    pack_put_u32(b, pack_string(&w->str, ts->name));
    pack_put_u32(b, pack_string(&w->str, ts->source_path));
    pack_put_u32(b, ts->image_w);
    pack_put_u32(b, ts->image_h);
    pack_put_u32(b, ts->tile_w);
    pack_put_u32(b, ts->tile_h);
    pack_put_u32(b, ts->margin);
    pack_put_u32(b, ts->spacing);
    pack_put_u32(b, ts->columns);
    pack_put_u32(b, ts->tile_count);
    pack_put_u32(b, tile_first);
    pack_put_u32(b, ts->alpha_threshold);
    pack_put_u32(b, img_off);
    pack_put_u32(b, img_size);
    /* 3.4: where a cell draws the tile (core/level's tess_tile_place). */
    pack_put_u32(b, ts->fit_cell ? TLV_PLACE_FIT_CELL : TLV_PLACE_NATIVE);
    pack_put_u32(b, ts->fit_cell ? 0u : (uint32_t)ts->offset_x);
    pack_put_u32(b, ts->fit_cell ? 0u : (uint32_t)ts->offset_y);
    w->s[S_TSET].count++;
    write_terrains(w, ts, w->s[S_TSET].count);
  }
  return TESS_OK;
}

/* ---- Collision: the resolved grid and the merged geometry ----------------- */

static uint32_t get_cell(const uint8_t *cells, uint32_t width, size_t i) {
  return width == 1   ? cells[i]
         : width == 2 ? (uint32_t)(cells[2 * i] | cells[2 * i + 1] << 8)
                      : (uint32_t)cells[4 * i] | (uint32_t)cells[4 * i + 1] << 8 | (uint32_t)cells[4 * i + 2] << 16 |
                            (uint32_t)cells[4 * i + 3] << 24;
}

/* The topmost non-empty cell value among the colliding tile layers (DESIGN.md:
 * it gives the shape; tiles that no longer exist were written as empty),
 * read back from the cells and palettes just written; 0 if none. */
static uint32_t colliding_cell(const Writer *w, size_t i) {
  for (uint32_t l = w->collider_count; l-- > 0;) {
    uint32_t v = get_cell(w->s[S_CELL].buf.data + w->colliders[l].offset, w->colliders[l].width, i);
    if (v) return get_cell(w->s[S_PALT].buf.data, 4, (size_t)w->colliders[l].pal_first + v);
  }
  return 0;
}

/* The scene's cells (kind, one-way, material, traced pieces in metres) plus
 * the tile that collides, as a palette of distinct entries: a cell's pieces
 * depend only on its tile, flips and the level's tile size, so entries
 * carry them once. The material painted over a cell is already in the
 * material layer, so entries carry the flag TLV_COLLISION_OVERRIDE (the
 * layer's non-zero value is the cell's material) and a painted cell's entry
 * holds the colliding tile's default material, as the unpainted cells of
 * that tile have it: painting does not multiply the entries, which keeps
 * the grid at one byte per cell. Every cell reads back exactly the scene's
 * material whatever the level holds: one whose paint the scene did not take
 * (never seen in a level the editor makes) gets an entry of its own
 * material without the flag. */
static TessResult write_collision(Writer *w) {
  const TessScene *sc = w->scene;
  uint32_t W = w->lv->settings.width, H = w->lv->settings.height;
  size_t n = (size_t)W * H;
  uint32_t *grid = tess_alloc(n * sizeof *grid);
  uint32_t *solid = tess_alloc(n * sizeof *solid);
  const uint8_t *overrides = w->materials_layer.present ? w->s[S_CELL].buf.data + w->materials_layer.offset : NULL;
  PackMap pal = {0};
  uint32_t pal_count = 0, last_idx = 0, last_top = 0, last_base = 0; /* top 0: no tile, default 0 */
  uint64_t last_key = 0;
  TessResult r = TESS_OK;
  if (!grid || !solid) {
    r = tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory for %zu cells", n);
    goto done;
  }
  for (uint32_t y = 0; y < H && r == TESS_OK; y++) {
    for (uint32_t x = 0; x < W; x++) {
      size_t i = (size_t)y * W + x;
      uint32_t kind = sc->cell_kind[i], one_way = sc->cell_one_way[i], mat = sc->cell_material[i];
      uint32_t over = overrides ? get_cell(overrides, w->materials_layer.width, i) : 0;
      /* The colliding tile: needed for traced cells (their pieces) and under
       * paint (its default material); elsewhere the cell's material is
       * already that default. */
      uint32_t top = w->occupied[i] && (kind == TESS_MAP_TRACED || over) ? colliding_cell(w, i) : 0;
      uint32_t flags = TLV_COLLISION_OVERRIDE, entry_mat = mat;
      if (over && over == mat) { /* painted, and the paint is the material: the entry keeps the tile's default */
        if (top != last_top) {   /* tiles repeat: one lookup per run */
          const TessTileInfo *ti = top ? tess_project_tile(w->p, top) : NULL;
          last_top = top;
          last_base = ti ? material_index(w, ti->material) : 0;
        }
        entry_mat = last_base;
      } else if (over) {
        flags = 0; /* the rule did not take the paint: the entry says the material */
      }
      /* For traced cells, the tile whose pieces they are. Full squares do
       * not need it, and leaving it out keeps the palette narrow. */
      uint32_t cell = kind == TESS_MAP_TRACED ? top : 0;
      uint64_t key = (uint64_t)cell | ((uint64_t)entry_mat << 32) | ((uint64_t)kind << 48) | ((uint64_t)one_way << 50) |
                     ((uint64_t)flags << 51);
      uint32_t idx;
      if (pal_count && key == last_key) {
        idx = last_idx; /* runs of equal cells are the common case */
      } else if (!pack_map_get(&pal, key, &idx)) {
        idx = pal_count++;
        if (!pack_map_put(&pal, key, idx)) {
          r = tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory");
          break;
        }
        uint32_t poly_first = w->s[S_POLY].count;
        if (kind == TESS_MAP_TRACED && sc->piece_start)
          for (uint32_t k = sc->piece_start[i]; k < sc->piece_start[i + 1]; k++) put_polygon(w, &sc->pieces[k], 0.0, 0.0, 1.0);
        PackBuf *b = &w->s[S_CPAL].buf;
        pack_put_u32(b, cell);
        pack_put_u32(b, entry_mat);
        pack_put_u8(b, (uint8_t)kind);
        pack_put_u8(b, (uint8_t)one_way);
        pack_put_u8(b, (uint8_t)flags);
        pack_put_u8(b, 0);
        pack_put_u32(b, poly_first);
        pack_put_u32(b, w->s[S_POLY].count - poly_first);
        pack_put_u32(b, 0);
      }
      last_key = key;
      last_idx = idx;
      grid[i] = idx;
      solid[i] = kind == TESS_MAP_FULL && !one_way ? mat : PACK_NOT_SOLID;
    }
  }
  if (r != TESS_OK) goto done;
  w->s[S_CPAL].count = pal_count;
  uint32_t width = width_for(pal_count ? pal_count - 1 : 0);
  put_cells(&w->s[S_CGRD].buf, grid, n, width);
  w->s[S_CGRD].count = (uint32_t)n;
  w->s[S_CGRD].stride = width;

  PackGrid g = {W, H, solid};
  if (!pack_merge_rects(&g, &w->s[S_RECT].buf, &w->s[S_RECT].count) ||
      !pack_trace_loops(&g, &w->s[S_LOOP].buf, &w->s[S_LOOP].count, &w->s[S_CRNR].buf, &w->s[S_CRNR].count))
    r = tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory merging collision geometry");
done:
  tess_free(grid);
  tess_free(solid);
  pack_map_free(&pal);
  return r;
}

/* ---- Objects ---------------------------------------------------------------- */

static void write_props(Writer *w, const TessObject *o, PackBuf *rec) {
  pack_put_u32(rec, w->s[S_PROP].count);
  pack_put_u32(rec, o->prop_count);
  for (uint32_t i = 0; i < o->prop_count; i++) {
    const TessProperty *pr = &o->props[i];
    PackBuf *b = &w->s[S_PROP].buf;
    pack_put_u32(b, pack_string(&w->str, pr->name));
    pack_put_u32(b, pr->type);
    switch (pr->type) {
      case TESS_PROP_STRING: pack_put_u64(b, pack_string(&w->str, pr->v.s)); break;
      case TESS_PROP_INT: pack_put_u64(b, (uint64_t)pr->v.i); break;
      case TESS_PROP_FLOAT: pack_put_f64(b, pr->v.f); break;
      case TESS_PROP_BOOL: pack_put_u64(b, pr->v.b ? 1 : 0); break;
      default: pack_put_u64(b, pr->v.color); break;
    }
    pack_put_u32(b, 0);
    pack_put_u32(b, 0);
    w->s[S_PROP].count++;
  }
}

static int id_cmp(const void *a, const void *b) {
  TessId x = *(const TessId *)a, y = *(const TessId *)b;
  return x < y ? -1 : x > y;
}

/* Bodies get their index in level order; the sprites they use are written
 * in ascending id. */
static TessResult index_bodies(Writer *w) {
  TESS_ARRAY(TessId)
  sprites = {0};
  for (uint32_t li = 0; li < w->lv->layer_count; li++) {
    const TessLayer *layer = w->lv->layers[li];
    if (layer->props.kind != TESS_LAYER_OBJECTS) continue;
    for (uint32_t i = 0; i < layer->object_count; i++) {
      const TessObject *o = &layer->objects[i];
      if (o->kind != TESS_OBJECT_BODY) continue;
      uint32_t have;
      if (o->u.body.shape == TESS_BODY_SPRITE && tess_project_sprite(w->p, o->u.body.sprite) &&
          !pack_map_get(&w->sprite_index, o->u.body.sprite, &have)) {
        if (!pack_map_put(&w->sprite_index, o->u.body.sprite, 0) || !TESS_ARRAY_PUSH(&sprites, o->u.body.sprite)) goto nomem;
      }
    }
  }
  if (sprites.count) qsort(sprites.data, sprites.count, sizeof *sprites.data, id_cmp);
  for (size_t i = 0; i < sprites.count; i++) {
    const TessSprite *sp = tess_project_sprite(w->p, sprites.data[i]);
    uint32_t off, size;
    if (!pack_map_put(&w->sprite_index, sp->id, (uint32_t)i + 1)) goto nomem;
    TessResult r = put_blob(w, sp->png, sp->png_size, &off, &size);
    if (r != TESS_OK) {
      TESS_ARRAY_FREE(&sprites);
      return r;
    }
    PackBuf *b = &w->s[S_SPRT].buf;
    pack_put_u32(b, sp->id);
    pack_put_u32(b, pack_string(&w->str, sp->name));
    pack_put_u32(b, pack_string(&w->str, sp->source_path));
    pack_put_u32(b, sp->image_w);
    pack_put_u32(b, sp->image_h);
    pack_put_u32(b, sp->frame_count);
    pack_put_f32(b, sp->frame_rate);
    pack_put_f32(b, sp->anchor.x);
    pack_put_f32(b, sp->anchor.y);
    pack_put_u32(b, off);
    pack_put_u32(b, size);
    pack_put_u32(b, 0);
    w->s[S_SPRT].count++;
  }
  TESS_ARRAY_FREE(&sprites);
  return TESS_OK;
nomem:
  TESS_ARRAY_FREE(&sprites);
  return tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory");
}

static void put_shape(Writer *w, const TessSceneShape *sh, PackMass *mass, double density) {
  PackBuf *b = &w->s[S_SHAP].buf;
  uint32_t poly = 0;
  TessDVec2 a = tess_d2(sh->v[0].x, sh->v[0].y);
  if (sh->type == TESS_SHAPE_POLYGON) {
    TessPolygon p;
    memset(&p, 0, sizeof p);
    p.count = sh->count;
    memcpy(p.v, sh->v, sizeof p.v);
    poly = put_polygon(w, &p, 0.0, 0.0, 1.0);
    pack_mass_add(mass, tess_polygon_mass(p.v, p.count > TESS_POLY_MAX ? TESS_POLY_MAX : p.count), density);
  } else if (sh->type == TESS_SHAPE_CAPSULE) {
    pack_mass_add(mass, tess_capsule_mass(a, tess_d2(sh->v[1].x, sh->v[1].y), sh->radius), density);
  } else {
    pack_mass_add(mass, tess_circle_mass(a, sh->radius), density);
  }
  pack_put_u32(b, sh->type);
  pack_put_f32(b, sh->v[0].x);
  pack_put_f32(b, sh->v[0].y);
  pack_put_f32(b, sh->type == TESS_SHAPE_CAPSULE ? sh->v[1].x : 0.0f);
  pack_put_f32(b, sh->type == TESS_SHAPE_CAPSULE ? sh->v[1].y : 0.0f);
  pack_put_f32(b, sh->radius);
  pack_put_u32(b, poly);
  pack_put_u32(b, 0);
  w->s[S_SHAP].count++;
}

static const TessObject *object_of(const Writer *w, TessId id) { return id ? tess_level_object(w->lv, id, NULL) : NULL; }

static void write_props_of(Writer *w, const TessObject *o, PackBuf *rec) {
  if (o) {
    write_props(w, o, rec);
  } else {
    pack_put_u32(rec, w->s[S_PROP].count);
    pack_put_u32(rec, 0);
  }
}

/* Bodies as the scene has them (positions, shapes, mass), with what the
 * level adds for a game (names, sprites, properties). */
static void write_body(Writer *w, const TessSceneBody *sb) {
  const TessObject *o = object_of(w, sb->object);
  const TessBodyObject *bo = o && o->kind == TESS_OBJECT_BODY ? &o->u.body : NULL;
  uint32_t sprite = 0;
  if (bo && bo->shape == TESS_BODY_SPRITE) pack_map_get(&w->sprite_index, bo->sprite, &sprite);
  double density = sb->material < w->scene->material_count ? w->scene->materials[sb->material].density : 1.0;
  PackMass mass;
  pack_mass_init(&mass);
  for (uint32_t k = 0; k < sb->shape_count; k++) put_shape(w, &w->scene->shapes[sb->first_shape + k], &mass, density);
  double m, cx, cy, inertia;
  pack_mass_result(&mass, &m, &cx, &cy, &inertia);
  PackBuf *b = &w->s[S_BODY].buf;
  pack_put_u32(b, sb->object);
  pack_put_u32(b, pack_string(&w->str, o ? o->name : NULL));
  pack_put_u8(b, sb->type);
  pack_put_u8(b, sb->sensor);
  pack_put_u8(b, bo && bo->shape <= 3 ? bo->shape : 0);
  pack_put_u8(b, sb->pin);
  pack_put_u32(b, sb->material);
  pack_put_u32(b, sprite);
  pack_put_u32(b, sb->category);
  pack_put_u32(b, sb->mask);
  pack_put_f32(b, sb->position.x);
  pack_put_f32(b, sb->position.y);
  pack_put_f32(b, sb->angle);
  pack_put_u32(b, sb->first_shape);
  pack_put_u32(b, sb->shape_count);
  if (sb->has_mass) {
    pack_put_f32(b, sb->mass);
    pack_put_f32(b, sb->local_center.x);
    pack_put_f32(b, sb->local_center.y);
    pack_put_f32(b, sb->inertia);
  } else {
    pack_put_f32(b, (float)m);
    pack_put_f32(b, (float)cx);
    pack_put_f32(b, (float)cy);
    pack_put_f32(b, (float)inertia);
  }
  write_props_of(w, o, b);
  pack_put_u8(b, sb->has_mass ? 1 : 0);
  pack_put_u8(b, sb->integrator == TESS_INTEGRATOR_RK4 ? TLV_INTEGRATOR_RK4 : TLV_INTEGRATOR_EULER); /* 3.7 */
  pack_buf_grow(b, 6);
  w->s[S_BODY].count++;
}

static void write_joint(Writer *w, const TessSceneJoint *j) {
  const TessObject *o = object_of(w, j->object);
  PackBuf *b = &w->s[S_JOIN].buf;
  pack_put_u32(b, j->object);
  pack_put_u32(b, pack_string(&w->str, o ? o->name : NULL));
  pack_put_u32(b, j->kind == TESS_JOINT_DISTANCE ? TLV_JOINT_DISTANCE : TLV_JOINT_PIN);
  pack_put_u32(b, (j->limit_enabled ? TLV_JOINT_LIMIT : 0) | (j->from_overlap ? TLV_JOINT_AUTO_PIN : 0) |
                      (j->motor_enabled ? TLV_JOINT_MOTOR : 0));
  pack_put_u32(b, j->body_a < 0 ? 0 : (uint32_t)j->body_a + 1);
  pack_put_u32(b, j->body_b < 0 ? 0 : (uint32_t)j->body_b + 1);
  pack_put_f32(b, j->anchor_a.x);
  pack_put_f32(b, j->anchor_a.y);
  pack_put_f32(b, j->anchor_b.x);
  pack_put_f32(b, j->anchor_b.y);
  pack_put_f32(b, j->length);
  pack_put_f32(b, j->lower);
  pack_put_f32(b, j->upper);
  write_props_of(w, o, b);
  pack_put_u32(b, 0);
  pack_put_f32(b, j->motor_speed); /* 3.1 */
  pack_put_f32(b, j->motor_torque);
  pack_put_u32(b, 0);
  pack_put_u32(b, 0);
  w->s[S_JOIN].count++;
}

static void write_zone(Writer *w, const TessSceneZone *z) {
  const TessObject *o = object_of(w, z->object);
  PackBuf *b = &w->s[S_ZONE].buf;
  pack_put_u32(b, z->object);
  pack_put_u32(b, pack_string(&w->str, o ? o->name : NULL));
  pack_put_u32(b, z->kind <= TESS_ZONE_SPRING ? z->kind : 0);
  pack_put_f32(b, z->center.x);
  pack_put_f32(b, z->center.y);
  pack_put_f32(b, z->angle);
  pack_put_f32(b, z->width);
  pack_put_f32(b, z->height);
  pack_put_f32(b, z->vector.x);
  pack_put_f32(b, z->vector.y);
  pack_put_f32(b, z->strength);
  pack_put_f32(b, z->radius);
  write_props_of(w, o, b);
  pack_put_u32(b, 0);
  pack_put_u32(b, 0);
  w->s[S_ZONE].count++;
}

static void write_spawn(Writer *w, const TessSceneSpawn *sp) {
  const TessObject *o = object_of(w, sp->object);
  PackBuf *b = &w->s[S_SPWN].buf;
  pack_put_u32(b, sp->object);
  pack_put_u32(b, pack_string(&w->str, sp->name));
  pack_put_f32(b, sp->position.x);
  pack_put_f32(b, sp->position.y);
  pack_put_f32(b, o ? o->angle : 0.0f);
  write_props_of(w, o, b);
  pack_put_u32(b, 0);
  w->s[S_SPWN].count++;
}

/* 3.5: each body's draw depth, its object layer's rank and whether that
 * layer sorts by y; written only when a body has a depth or a layer sorts
 * by y (otherwise bodies draw in their order, as files before 3.5 say). */
static void write_draw_order(Writer *w) {
  const TessScene *sc = w->scene;
  bool needed = false;
  for (uint32_t i = 0; i < sc->body_count && !needed; i++) {
    TessLayer *layer = NULL;
    const TessObject *o = sc->bodies[i].object ? tess_level_object(w->lv, sc->bodies[i].object, &layer) : NULL;
    needed = o && (o->depth != 0 || layer->props.y_sort);
  }
  if (!needed) return;
  PackBuf *b = &w->s[S_DRAW].buf;
  for (uint32_t i = 0; i < sc->body_count; i++) {
    TessLayer *layer = NULL;
    const TessObject *o = sc->bodies[i].object ? tess_level_object(w->lv, sc->bodies[i].object, &layer) : NULL;
    uint32_t rank = o ? tess_level_object_layer_rank(w->lv, layer) : 0;
    if (rank > 32767u) rank = 32767u;
    pack_put_u32(b, (uint32_t)(o ? o->depth : 0));
    pack_put_u8(b, (uint8_t)(rank & 0xffu));
    pack_put_u8(b, (uint8_t)(rank >> 8));
    pack_put_u8(b, o && layer->props.y_sort ? 1 : 0);
    pack_put_u8(b, 0);
    w->s[S_DRAW].count++;
  }
}

/* 3.6: a launcher; it takes its properties after the spawns'. */
static void write_launcher(Writer *w, const TessSceneLauncher *l) {
  const TessObject *o = object_of(w, l->object);
  PackBuf *b = &w->s[S_LNCH].buf;
  pack_put_u32(b, l->object);
  pack_put_u32(b, pack_string(&w->str, l->name));
  pack_put_f32(b, l->position.x);
  pack_put_f32(b, l->position.y);
  pack_put_f32(b, o ? o->angle : 0.0f);
  pack_put_f32(b, l->speed);
  pack_put_f32(b, l->radius);
  pack_put_u32(b, l->material);
  pack_put_u32(b, l->sprite);
  write_props_of(w, o, b);
  pack_put_u32(b, 0);
  w->s[S_LNCH].count++;
}

static TessResult write_objects(Writer *w) {
  TessResult r = index_bodies(w);
  if (r != TESS_OK) return r;
  const TessScene *sc = w->scene;
  for (uint32_t i = 0; i < sc->body_count; i++) write_body(w, &sc->bodies[i]);
  write_draw_order(w);
  for (uint32_t i = 0; i < sc->joint_count; i++) write_joint(w, &sc->joints[i]);
  for (uint32_t i = 0; i < sc->zone_count; i++) write_zone(w, &sc->zones[i]);
  for (uint32_t i = 0; i < sc->spawn_count; i++) write_spawn(w, &sc->spawns[i]);
  for (uint32_t i = 0; i < sc->launcher_count; i++) write_launcher(w, &sc->launchers[i]);
  return TESS_OK;
}

/* ---- Assembly --------------------------------------------------------------- */

void tess_pack_options_default(TessPackOptions *opt) {
  memset(opt, 0, sizeof *opt);
  opt->embed_images = false;
}

uint64_t pack_hash_from_source(uint64_t source, const TessPackOptions *opt) {
  TessHasher h;
  tess_hasher_init(&h);
  tess_hasher_str(&h, "tessera.tlv");
  tess_hasher_u64(&h, source);
  tess_hasher_u32(&h, TLV_VERSION_MAJOR);
  tess_hasher_u32(&h, TLV_VERSION_MINOR);
  tess_hasher_u32(&h, TESS_PACK_WRITER_VERSION);
  tess_hasher_u32(&h, opt && opt->embed_images ? 1u : 0u);
  return tess_hasher_finish(&h);
}

uint64_t tess_pack_content_hash(const TessProject *p, const TessLevel *level, const TessPackOptions *opt) {
  return pack_hash_from_source(tess_level_content_hash(p, level), opt);
}

static uint64_t align16(uint64_t v) { return (v + 15u) & ~(uint64_t)15u; }

/* The scene's pixel masks, as they are: records in PMSK, bits one after another in PBIT. */
static void write_pixel_masks(Writer *w) {
  const TessScene *sc = w->scene;
  for (uint32_t i = 0; i < sc->pixel_mask_count; i++) {
    const TessScenePixelMask *m = &sc->pixel_masks[i];
    uint64_t n = tess_scene_pixel_mask_bytes(m);
    PackBuf *b = &w->s[S_PMSK].buf;
    pack_put_u32(b, m->layer);
    pack_put_u32(b, m->width);
    pack_put_u32(b, m->height);
    pack_put_u32(b, m->material);
    pack_put_f32(b, m->pixel_size);
    pack_put_f32(b, m->origin.x);
    pack_put_f32(b, m->origin.y);
    pack_put_u32(b, m->body); /* 3.9: 1 + the static body's index (0 for a layer's) */
    pack_put_u64(b, w->s[S_PBIT].buf.size);
    pack_put_u64(b, n);
    w->s[S_PMSK].count++;
    pack_put_bytes(&w->s[S_PBIT].buf, sc->pixel_bits + m->bits_offset, (size_t)n);
  }
}

static TessResult assemble(Writer *w, uint64_t source, uint8_t **data, size_t *size) {
  /* The string table is final only now: copy it into its section. */
  pack_put_bytes(&w->s[S_STRS].buf, w->str.bytes.data, w->str.bytes.size);
  if (w->str.failed) return tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory in the string table");
  uint32_t order[S_COUNT], n = 0;
  for (uint32_t i = 0; i < S_COUNT; i++) {
    if (w->s[i].buf.failed) return tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory");
    if (w->s[i].buf.size || i == S_SETT || i == S_STRS) order[n++] = i;
  }
  for (uint32_t k = 0; k < n; k++) {
    const Section *s = &w->s[order[k]];
    uint32_t stride = order[k] == S_CGRD ? s->stride : SECTION_INFO[order[k]].stride;
    if (stride && (uint64_t)s->count * stride != s->buf.size)
      return tess_error_set(w->err, TESS_ERR_INVALID, where(w), "internal: section %u has %zu bytes for %u records",
                            order[k], s->buf.size, s->count);
    if (s->count > TLV_MAX_RECORDS)
      return tess_error_set(w->err, TESS_ERR_LIMIT, where(w), "%u records in one section (at most %u)", s->count,
                            (unsigned)TLV_MAX_RECORDS);
  }
  uint64_t offsets[S_COUNT];
  uint64_t pos = TLV_HEADER_SIZE + (uint64_t)n * TLV_SECTION_ENTRY_SIZE;
  for (uint32_t k = 0; k < n; k++) {
    pos = align16(pos);
    offsets[k] = pos;
    pos += w->s[order[k]].buf.size;
  }
  uint64_t total = align16(pos);
  if (total > SIZE_MAX) return tess_error_set(w->err, TESS_ERR_LIMIT, where(w), "file too large");
  /* Not zeroed as a whole: the sections are copied in, only the header,
   * the section table and the padding after each section are cleared. */
  uint8_t *out = tess_alloc((size_t)total);
  if (!out) return tess_error_set(w->err, TESS_ERR_NOMEM, where(w), "out of memory for %llu bytes", (unsigned long long)total);
  memset(out, 0, (size_t)(n ? offsets[0] : total));
  memcpy(out, TLV_MAGIC, TLV_MAGIC_SIZE);
  out[8] = (uint8_t)TLV_VERSION_MAJOR;
  out[10] = (uint8_t)TLV_VERSION_MINOR;
  pack_set_u32(out + 12, w->opt.embed_images ? TLV_FLAG_IMAGES : 0);
  pack_set_u32(out + 16, TLV_HEADER_SIZE);
  pack_set_u32(out + 20, n);
  pack_set_u64(out + 24, total);
  pack_set_u64(out + 32, pack_hash_from_source(source, &w->opt));
  pack_set_u64(out + 40, source);
  pack_set_u32(out + 48, TESS_PACK_WRITER_VERSION);
  pack_set_u32(out + 56, w->lv->id);
  for (uint32_t k = 0; k < n; k++) {
    const Section *s = &w->s[order[k]];
    uint8_t *e = out + TLV_HEADER_SIZE + (size_t)k * TLV_SECTION_ENTRY_SIZE;
    uint32_t stride = order[k] == S_CGRD ? s->stride : SECTION_INFO[order[k]].stride;
    pack_set_u32(e, SECTION_INFO[order[k]].type);
    e[4] = SECTION_INFO[order[k]].required ? (uint8_t)TLV_SECTION_REQUIRED : 0;
    e[6] = (uint8_t)stride;
    e[7] = (uint8_t)(stride >> 8);
    pack_set_u64(e + 8, offsets[k]);
    pack_set_u64(e + 16, s->buf.size);
    pack_set_u32(e + 24, stride ? s->count : 0);
    if (s->buf.size) memcpy(out + offsets[k], s->buf.data, s->buf.size);
    uint64_t end = offsets[k] + s->buf.size, next = k + 1 < n ? offsets[k + 1] : total;
    memset(out + end, 0, (size_t)(next - end));
    pack_set_u32(e + 28, tlv_checksum(out + offsets[k], s->buf.size));
  }
  uint32_t sum = tlv_checksum(out, TLV_HEADER_SIZE) ^
                 tlv_checksum(out + TLV_HEADER_SIZE, (size_t)n * TLV_SECTION_ENTRY_SIZE);
  pack_set_u32(out + 52, sum);
  *data = out;
  *size = (size_t)total;
  return TESS_OK;
}

TessResult tess_pack_write(const TessProject *p, const TessLevel *level, const TessPackOptions *opt, uint8_t **data,
                           size_t *size, TessError *err) {
  if (!p || !level || !data || !size) return tess_error_set(err, TESS_ERR_INVALID, "", "tess_pack_write: missing argument");
  return pack_write_hashed(p, level, opt, tess_level_content_hash(p, level), data, size, err);
}

TessResult pack_write_hashed(const TessProject *p, const TessLevel *level, const TessPackOptions *opt, uint64_t source,
                             uint8_t **data, size_t *size, TessError *err) {
  /* The level checks validate runs (tessera/level.h), before anything the
   * size of the level is allocated: what validate passes, export writes. */
  TessResult r = tess_level_check_errors(p, level, err);
  if (r != TESS_OK) return r;
  Writer *w = tess_calloc(1, sizeof *w);
  if (!w) return tess_error_set(err, TESS_ERR_NOMEM, level->settings.name, "out of memory");
  w->p = p;
  w->lv = level;
  w->err = err;
  if (opt) w->opt = *opt;
  else tess_pack_options_default(&w->opt);
  w->ppm = level->settings.ppm;
  w->s[S_CGRD].stride = 1;
  pack_strings_init(&w->str);
  r = tess_scene_from_level(p, level, &w->scene, err);
  if (r != TESS_OK) {
    pack_strings_free(&w->str);
    tess_free(w);
    return r;
  }
  write_settings(w);
  write_materials(w);
  r = write_layers(w);
  if (r == TESS_OK) r = write_tilesets(w);
  if (r == TESS_OK) r = write_collision(w);
  if (r == TESS_OK) r = write_objects(w);
  if (r == TESS_OK) write_pixel_masks(w);
  if (r == TESS_OK) r = assemble(w, source, data, size);
  for (int i = 0; i < S_COUNT; i++) pack_buf_free(&w->s[i].buf);
  pack_strings_free(&w->str);
  pack_map_free(&w->tileset_used);
  pack_map_free(&w->sprite_index);
  tess_free(w->occupied);
  tess_scene_destroy(w->scene);
  tess_free(w);
  return r;
}

TessResult tess_pack_write_file(const TessProject *p, const TessLevel *level, const TessPackOptions *opt,
                                const char *path, TessError *err) {
  uint8_t *data = NULL;
  size_t size = 0;
  TessResult r = tess_pack_write(p, level, opt, &data, &size, err);
  if (r != TESS_OK) return r;
  r = tess_file_write_atomic(path, data, size, err);
  tess_free(data);
  return r;
}
