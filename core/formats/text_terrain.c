/* The text form of a tileset's terrain sets: a "terrains" list in the
 * tileset's JSON, only when it has some (so older dumps read as they were):
 *
 *   "terrains": [
 *     {"name": "Ground", "kind": "corner", "tile": -1,
 *      "colors": [{"name": "Grass", "color": "#40a040ff", "probability": 1, "tile": -1}, ...],
 *      "tiles": [
 *        {"tile": 0, "wang": [0, 1, 0, 1, 0, 1, 0, 1], "probability": 1},   one a line
 *        ...]}]
 *
 * "wang" lists the 8 colours in Tiled's order (top edge, top-right corner,
 * ..., top-left corner). What the values mean is checked by the project when
 * the tileset is inserted (tess_terrain_set_validate). */
#include <inttypes.h>

#include "formats_text_load.h"

static const char *const KINDS[3] = {"corner", "edge", "mixed"};

void text_dump_terrains(TextBuf *b, const TessTileset *ts) {
  if (!ts->terrain_count || !ts->terrains) return;
  text_write_open(b, "terrains", '[', false);
  for (uint32_t i = 0; i < ts->terrain_count; i++) {
    const TessTerrainSet *s = &ts->terrains[i];
    text_write_open(b, NULL, '{', false);
    text_write_key_str(b, "name", s->name);
    text_write_key_str(b, "kind", TEXT_WORD(KINDS, s->kind));
    text_write_key_int(b, "tile", s->tile);
    text_write_open(b, "colors", '[', false);
    for (uint32_t c = 0; c < s->color_count; c++) {
      text_write_open(b, NULL, '{', true);
      text_write_key_str(b, "name", s->colors[c].name);
      text_write_key_color(b, "color", s->colors[c].color);
      text_write_key_f32(b, "probability", s->colors[c].probability);
      text_write_key_int(b, "tile", s->colors[c].tile);
      text_write_close(b);
    }
    text_write_close(b);
    text_write_open(b, "tiles", '[', false);
    for (uint32_t t = 0; t < s->tile_count; t++) {
      text_write_open(b, NULL, '{', true);
      text_write_key_u32(b, "tile", s->tiles[t].tile);
      text_write_open(b, "wang", '[', true);
      for (int k = 0; k < TESS_TERRAIN_POSITIONS; k++) text_write_key_u32(b, NULL, s->tiles[t].wang[k]);
      text_write_close(b);
      text_write_key_f32(b, "probability", s->tiles[t].probability);
      text_write_close(b);
    }
    text_write_close(b);
    text_write_close(b);
  }
  text_write_close(b);
}

/* An optional integer in [-1, max). */
static TessResult tile_or_none(const Json *j, json_t *o, uint64_t line, int32_t *out) {
  json_t *v = json_object_get(o, "tile");
  if (!json_is_integer(v) || json_integer_value(v) < -1 || json_integer_value(v) > 65535)
    return text_load_fail(j->l, j->rel, line, TESS_ERR_FORMAT, "\"tile\" must be a tile index or -1");
  *out = (int32_t)json_integer_value(v);
  return TESS_OK;
}

static TessResult read_set(const Json *j, json_t *o, uint64_t line, TessTerrainSet *s) {
  if (!json_is_object(o)) return text_load_fail(j->l, j->rel, line, TESS_ERR_FORMAT, "a terrain set must be an object");
  json_t *colors, *tiles;
  TessResult r = text_load_name(j, o, "name", line, s->name);
  if (r == TESS_OK) r = TL_WORD(j, o, "kind", line, KINDS, &s->kind);
  if (r == TESS_OK) r = tile_or_none(j, o, line, &s->tile);
  if (r == TESS_OK) r = text_load_array(j, o, "colors", line, &colors);
  if (r == TESS_OK) r = text_load_array(j, o, "tiles", line, &tiles);
  if (r) return r;
  uint64_t at = text_load_line_of(j, "colors", line);
  if (json_array_size(colors) > TESS_TERRAIN_MAX_COLORS || json_array_size(tiles) > 65536)
    return text_load_fail(j->l, j->rel, at, TESS_ERR_LIMIT, "terrain set \"%s\" has too many colours or tiles", s->name);
  s->color_count = (uint32_t)json_array_size(colors);
  s->tile_count = (uint32_t)json_array_size(tiles);
  if ((s->color_count && !(s->colors = tess_calloc(s->color_count, sizeof *s->colors))) ||
      (s->tile_count && !(s->tiles = tess_calloc(s->tile_count, sizeof *s->tiles))))
    return tess_error_set(j->l->err, TESS_ERR_NOMEM, j->rel, "out of memory");
  for (uint32_t c = 0; r == TESS_OK && c < s->color_count; c++) {
    json_t *e = json_array_get(colors, c);
    uint64_t l = at + 1 + c; /* one colour a line */
    if (!json_is_object(e)) return text_load_fail(j->l, j->rel, l, TESS_ERR_FORMAT, "a terrain colour must be an object");
    r = text_load_name(j, e, "name", l, s->colors[c].name);
    if (r == TESS_OK) r = text_load_color(j, e, "color", l, &s->colors[c].color);
    if (r == TESS_OK) r = text_load_f32(j, e, "probability", l, &s->colors[c].probability);
    if (r == TESS_OK) r = tile_or_none(j, e, l, &s->colors[c].tile);
  }
  at = text_load_line_of(j, "tiles", at);
  for (uint32_t t = 0; r == TESS_OK && t < s->tile_count; t++) {
    json_t *e = json_array_get(tiles, t), *wang;
    uint64_t l = at + 1 + t; /* one tile a line */
    if (!json_is_object(e)) return text_load_fail(j->l, j->rel, l, TESS_ERR_FORMAT, "a terrain tile must be an object");
    r = text_load_u32(j, e, "tile", l, &s->tiles[t].tile);
    if (r == TESS_OK) r = text_load_f32(j, e, "probability", l, &s->tiles[t].probability);
    if (r == TESS_OK) r = text_load_array(j, e, "wang", l, &wang);
    if (r == TESS_OK && json_array_size(wang) != TESS_TERRAIN_POSITIONS)
      r = text_load_fail(j->l, j->rel, l, TESS_ERR_FORMAT, "\"wang\" must list 8 colours");
    for (int k = 0; r == TESS_OK && k < TESS_TERRAIN_POSITIONS; k++) {
      json_t *v = json_array_get(wang, (size_t)k);
      if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 255)
        r = text_load_fail(j->l, j->rel, l, TESS_ERR_FORMAT, "\"wang\" colours are integers 0..255");
      else s->tiles[t].wang[k] = (uint8_t)json_integer_value(v);
    }
  }
  return r;
}

TessResult text_load_terrains(const Json *j, TessTileset *ts) {
  if (!json_object_get(j->root, "terrains")) return TESS_OK;
  json_t *sets;
  uint64_t at = text_load_line_of(j, "terrains", 1);
  TessResult r = text_load_array(j, j->root, "terrains", 1, &sets);
  if (r) return r;
  if (json_array_size(sets) > TESS_TERRAIN_MAX_SETS)
    return text_load_fail(j->l, j->rel, at, TESS_ERR_LIMIT, "more than %d terrain sets", TESS_TERRAIN_MAX_SETS);
  uint32_t n = (uint32_t)json_array_size(sets);
  if (!n) return TESS_OK;
  if (!(ts->terrains = tess_calloc(n, sizeof *ts->terrains))) return tess_error_set(j->l->err, TESS_ERR_NOMEM, j->rel, "out of memory");
  ts->terrain_count = n;
  uint64_t line = at;
  for (uint32_t i = 0; r == TESS_OK && i < n; i++) {
    line = text_load_line_of(j, "kind", line + 1); /* the set's own line ("kind" appears once a set) */
    ts->terrains[i].tile = -1;
    r = read_set(j, json_array_get(sets, i), line, &ts->terrains[i]);
  }
  return r;
}
