/* Tiled's wang sets: the model's pieces (filled by the TMX and TMJ readers)
 * and their conversion into Tessera terrain sets on an imported tileset.
 *
 * Tiled 1.5+ writes a wangid as 8 colours in Tessera's own order (top edge,
 * top-right corner, ... top-left corner), "0,1,0,1,0,1,0,1" in XML and an
 * array in JSON; earlier versions wrote one hex number with 4 bits per
 * position, position i at bits 4i..4i+3, which is read too. A tile's
 * `probability` (a <tile> attribute, shared by every set the tile is in)
 * becomes the probability of its label in each set. Tiled's per-set
 * transformation options (flipped or rotated variants) are not kept: the
 * brush only paints tiles as labelled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_tiled.h"

TiledWangSet *tiled_wangset_add(TiledTileset *ts) {
  if (ts->wangset_count >= TESS_TERRAIN_MAX_SETS) return NULL;
  TiledWangSet *grown = tess_realloc(ts->wangsets, (ts->wangset_count + 1) * sizeof *grown);
  if (!grown) return NULL;
  ts->wangsets = grown;
  TiledWangSet *w = &grown[ts->wangset_count++];
  memset(w, 0, sizeof *w);
  w->tile = -1;
  return w;
}

TiledWangColor *tiled_wangset_add_color(TiledWangSet *w) {
  TiledWangColor *grown = tess_realloc(w->colors, (w->color_count + 1) * sizeof *grown);
  if (!grown) return NULL;
  w->colors = grown;
  TiledWangColor *c = &grown[w->color_count++];
  memset(c, 0, sizeof *c);
  c->probability = 1.0;
  c->tile = -1;
  return c;
}

TiledWangTile *tiled_wangset_add_tile(TiledWangSet *w) {
  TiledWangTile *grown = tess_realloc(w->tiles, (w->tile_count + 1) * sizeof *grown);
  if (!grown) return NULL;
  w->tiles = grown;
  TiledWangTile *t = &grown[w->tile_count++];
  memset(t, 0, sizeof *t);
  return t;
}

void tiled_wangsets_free(TiledTileset *ts) {
  for (uint32_t i = 0; i < ts->wangset_count; i++) {
    TiledWangSet *w = &ts->wangsets[i];
    tess_free(w->name);
    tess_free(w->type);
    for (uint32_t c = 0; c < w->color_count; c++) {
      tess_free(w->colors[c].name);
      tess_free(w->colors[c].color);
    }
    tess_free(w->colors);
    tess_free(w->tiles);
  }
  tess_free(ts->wangsets);
  ts->wangsets = NULL;
  ts->wangset_count = 0;
}

bool tiled_wangid_parse(const char *s, uint8_t out[8]) {
  memset(out, 0, 8);
  if (!s) return false;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { /* before Tiled 1.5: 4 bits per position */
    char *end = NULL;
    unsigned long long v = strtoull(s + 2, &end, 16);
    if (end == s + 2 || *end || v > 0xFFFFFFFFull) return false;
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)((v >> (4 * i)) & 0xF);
    return true;
  }
  const char *p = s;
  for (int i = 0; i < 8; i++) {
    char *end = NULL;
    if (*p < '0' || *p > '9') return false;
    unsigned long v = strtoul(p, &end, 10);
    if (v > 255) return false;
    out[i] = (uint8_t)v;
    p = end;
    if (i < 7) {
      if (*p != ',') return false;
      p++;
    }
  }
  return *p == 0;
}

static TessResult set_from_wang(TessMapImport *plan, const TiledTileset *ts, const TiledWangSet *w,
                                const TessImportTileset *out, const char *file, TessTerrainSet *set, TessError *err) {
  const char *name = w->name && w->name[0] ? w->name : "terrain";
  TessTerrainKind kind;
  if (!w->type || strcmp(w->type, "corner") == 0) kind = TESS_TERRAIN_CORNER;
  else if (strcmp(w->type, "edge") == 0) kind = TESS_TERRAIN_EDGE;
  else if (strcmp(w->type, "mixed") == 0) kind = TESS_TERRAIN_MIXED;
  else
    return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, w->line,
                             "tileset '%s' wang set '%s': type '%s' (corner, edge or mixed)", out->name, name, w->type);
  tess_terrain_set_init(set, "", kind);
  tiled_name_copy(plan, set->name, name, "wang set name");
  if (w->color_count > TESS_TERRAIN_MAX_COLORS)
    return tess_error_set_at(err, TESS_ERR_LIMIT, file, TESS_PLACE_LINE, w->line,
                             "tileset '%s' wang set '%s' has %u colours (Tessera holds %d)", out->name, name,
                             w->color_count, TESS_TERRAIN_MAX_COLORS);
  uint32_t index;
  set->tile = w->tile >= 0 && tiled_tile_index(ts, (uint32_t)w->tile, out->tile_count, &index) ? (int32_t)index : -1;
  for (uint32_t c = 0; c < w->color_count; c++) {
    const TiledWangColor *wc = &w->colors[c];
    uint32_t argb = 0xFF808080u;
    if (wc->color && !tiled_parse_color(wc->color, &argb))
      return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, w->line,
                               "tileset '%s' wang set '%s' colour %u: '%s' is not a colour", out->name, name, c + 1,
                               wc->color);
    TessResult r = tess_terrain_set_add_color(set, "colour", (argb << 8) | (argb >> 24), NULL, err);
    if (r) return r;
    if (wc->name && wc->name[0]) tiled_name_copy(plan, set->colors[c].name, wc->name, "wang colour name");
    set->colors[c].probability = (float)wc->probability;
    set->colors[c].tile = wc->tile >= 0 && tiled_tile_index(ts, (uint32_t)wc->tile, out->tile_count, &index) ? (int32_t)index : -1;
  }
  uint32_t dropped = 0;
  for (uint32_t t = 0; t < w->tile_count; t++) {
    const TiledWangTile *wt = &w->tiles[t];
    for (int k = 0; k < 8; k++)
      if (wt->wangid[k] > w->color_count)
        return tess_error_set_at(err, TESS_ERR_FORMAT, file, TESS_PLACE_LINE, w->line,
                                 "tileset '%s' wang set '%s' tile %u: colour %u at position %d, the set has %u",
                                 out->name, name, wt->tileid, wt->wangid[k], k, w->color_count);
    if (!tiled_tile_index(ts, wt->tileid, out->tile_count, &index)) {
      dropped++;
      continue;
    }
    TiledTile *tile = tiled_tileset_tile((TiledTileset *)ts, wt->tileid, false);
    float probability = tile && tile->has_probability ? (float)tile->probability : 1.0f;
    TessResult r = tess_terrain_set_label(set, index, wt->wangid, probability, err);
    if (r) return r;
  }
  if (dropped)
    tess_map_import_warn(plan, "tileset '%s' wang set '%s': %u tiles beyond the tileset dropped", out->name, name, dropped);
  return TESS_OK;
}

TessResult tiled_wang_convert(TessMapImport *plan, const TiledTileset *ts, TessImportTileset *out, const char *file,
                              TessError *err) {
  if (!ts->wangset_count) return TESS_OK;
  if (!(out->terrains = tess_calloc(ts->wangset_count, sizeof *out->terrains)))
    return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory");
  for (uint32_t i = 0; i < ts->wangset_count; i++) {
    out->terrain_count = i + 1; /* what the plan frees on failure */
    TessResult r = set_from_wang(plan, ts, &ts->wangsets[i], out, file, &out->terrains[i], err);
    if (r) return r;
  }
  return TESS_OK;
}

bool tiled_tile_index(const TiledTileset *ts, uint32_t id, uint32_t tile_count, uint32_t *index) {
  uint32_t i = id;
  if (ts->atlas_index) {
    if (id >= ts->atlas_ids || ts->atlas_index[id] == UINT32_MAX) return false;
    i = ts->atlas_index[id];
  }
  if (i >= tile_count) return false;
  *index = i;
  return true;
}
