/* A layer's rows file: one line per row of the level, tokens separated by
 * single spaces, "TOKEN*N" for a run of N equal cells. A tile token is
 * "S:T" (tileset id, tile index) plus "h", "v", "d" for the flips; a
 * material token is the material id; "." is an empty cell. Hand-written
 * rather than a general tokenizer because a 4096 x 4096 layer of distinct
 * tiles is 100 MB of text that must load in a second. */
#include <inttypes.h>

#include "formats_text_load.h"

typedef struct Rows {
  Load *l;
  const char *rel;
  const TessProject *p;
  bool material;
  uint32_t known_good; /* the last cell checked (runs and repeats skip the lookup) */
} Rows;

static TessResult bad(Rows *r, uint64_t line, const char *at, const char *fmt, const char *token_end) {
  int n = (int)(token_end - at);
  if (n > 24) n = 24;
  return text_load_fail(r->l, r->rel, line, TESS_ERR_FORMAT, fmt, n, at);
}

/* Reads digits into *v (at most 10, no overflow past UINT32_MAX). */
static const char *digits(const char *s, uint32_t *v) {
  uint64_t acc = 0;
  const char *start = s;
  while (*s >= '0' && *s <= '9' && s - start < 11) acc = acc * 10 + (uint64_t)(*s++ - '0');
  if (s == start || acc > UINT32_MAX || (*s >= '0' && *s <= '9')) return NULL;
  *v = (uint32_t)acc;
  return s;
}

static TessResult check_cell(Rows *r, uint64_t line, const char *tok, const char *end, uint32_t cell) {
  if (cell == 0 || cell == r->known_good) return TESS_OK;
  if (r->material) {
    if (!tess_project_material(r->p, cell))
      return text_load_fail(r->l, r->rel, line, TESS_ERR_NOT_FOUND, "unknown material %" PRIu32 " in \"%.*s\"", cell,
                            (int)(end - tok), tok);
  } else {
    const TessTileset *ts = tess_project_tileset(r->p, TESS_CELL_TILESET(cell));
    if (!ts)
      return text_load_fail(r->l, r->rel, line, TESS_ERR_NOT_FOUND, "unknown tileset %" PRIu32 " in \"%.*s\"",
                            TESS_CELL_TILESET(cell), (int)(end - tok), tok);
    if (TESS_CELL_TILE(cell) >= ts->tile_count)
      return text_load_fail(r->l, r->rel, line, TESS_ERR_NOT_FOUND, "unknown tile %" PRIu32 " of tileset %" PRIu32 " (it has %" PRIu32 ") in \"%.*s\"", TESS_CELL_TILE(cell), ts->id, ts->tile_count,
                            (int)(end - tok), tok);
  }
  r->known_good = cell;
  return TESS_OK;
}

/* One token at s: the cell and how many; returns the end or NULL. */
static const char *token(Rows *r, const char *s, uint32_t *cell, uint32_t *count) {
  uint32_t v = 0, tile = 0;
  if (*s == '.') {
    s++;
    *cell = 0;
  } else if (r->material) {
    if (!(s = digits(s, &v)) || v == 0 || v > TESS_MATERIAL_ID_MAX) return NULL;
    *cell = v;
  } else {
    if (!(s = digits(s, &v)) || *s != ':' || v == 0 || v > TESS_TILESET_ID_MAX) return NULL;
    if (!(s = digits(s + 1, &tile)) || tile > 0xFFFFu) return NULL;
    uint32_t c = TESS_CELL_MAKE(v, tile, 0);
    if (*s == 'h') c |= TESS_CELL_FLIP_H, s++;
    if (*s == 'v') c |= TESS_CELL_FLIP_V, s++;
    if (*s == 'd') c |= TESS_CELL_FLIP_D, s++;
    *cell = c;
  }
  *count = 1;
  if (*s == '*') {
    if (!(s = digits(s + 1, count)) || *count == 0) return NULL;
  }
  if (*s != ' ' && *s != '\n') return NULL;
  return s;
}

static bool is_marker(const char *s) {
  return !strncmp(s, "<<<<<<<", 7) || !strncmp(s, ">>>>>>>", 7) || !strncmp(s, "=======", 7) || !strncmp(s, "|||||||", 7);
}

/* Parses row y (its line starts at s) into the band; returns the next line. */
static const char *parse_row(Rows *r, const char *s, uint64_t line, uint32_t width, uint32_t *band, uint32_t iy,
                             TessResult *res) {
  if (is_marker(s)) {
    *res = text_load_fail(r->l, r->rel, line, TESS_ERR_FORMAT, "a merge conflict marker (%.7s): resolve the conflict first", s);
    return NULL;
  }
  uint32_t x = 0;
  for (;;) {
    uint32_t cell, count;
    const char *end = token(r, s, &cell, &count);
    if (!end) {
      const char *e = s;
      while (*e && *e != ' ' && *e != '\n') e++;
      *res = e == s ? text_load_fail(r->l, r->rel, line, TESS_ERR_FORMAT, "row %" PRIu64 " is empty or has a stray space at cell %" PRIu32, line - 1, x)
                    : bad(r, line, s, "not a cell: \"%.*s\"", e);
      return NULL;
    }
    if ((*res = check_cell(r, line, s, end, cell)) != TESS_OK) return NULL;
    if (count > width - x) {
      *res = text_load_fail(r->l, r->rel, line, TESS_ERR_FORMAT, "row %" PRIu64 " has more than %" PRIu32 " cells (the level's width)",
                            line - 1, width);
      return NULL;
    }
    if (cell) {
      for (uint32_t k = 0; k < count; k++, x++)
        band[(size_t)(x / TESS_CHUNK_SIZE) * TESS_CHUNK_CELLS + iy * TESS_CHUNK_SIZE + x % TESS_CHUNK_SIZE] = cell;
    } else {
      x += count;
    }
    s = end;
    if (*s == '\n') break;
    s++; /* the space */
  }
  if (x != width) {
    *res = text_load_fail(r->l, r->rel, line, TESS_ERR_FORMAT, "row %" PRIu64 " has %" PRIu32 " cells; the level is %" PRIu32 " wide",
                          line - 1, x, width);
    return NULL;
  }
  return s + 1;
}

TessResult text_load_rows(Load *l, const char *rel, const TessLevel *level, TessLayer *layer) {
  char *text;
  size_t len;
  TessResult res = text_load_read(l, rel, &text, &len);
  if (res) return res;
  Rows r = {l, rel, l->p, layer->props.kind == TESS_LAYER_MATERIAL, 0};
  const uint32_t w = level->settings.width, h = level->settings.height;
  size_t band_cells = (size_t)layer->chunks_x * TESS_CHUNK_CELLS;
  uint32_t *band = tess_calloc(band_cells, sizeof *band);
  if (!band) {
    tess_free(text);
    return tess_error_set(l->err, TESS_ERR_NOMEM, rel, "out of memory");
  }
  const char *s = text, *end = text + len;
  for (uint32_t y = 0; res == TESS_OK && y < h; y++) {
    if (s >= end || !memchr(s, '\n', (size_t)(end - s))) {
      res = text_load_fail(l, rel, (uint64_t)y + 1, TESS_ERR_FORMAT, "the file ends at row %" PRIu32 "; the level has %" PRIu32 " rows", y, h);
      break;
    }
    uint32_t iy = y % TESS_CHUNK_SIZE;
    s = parse_row(&r, s, (uint64_t)y + 1, w, band, iy, &res);
    if (res) break;
    if (iy == TESS_CHUNK_SIZE - 1 || y == h - 1) {
      for (uint32_t cx = 0; res == TESS_OK && cx < layer->chunks_x; cx++)
        if ((res = tess_layer_insert_chunk(layer, cx, y / TESS_CHUNK_SIZE, band + (size_t)cx * TESS_CHUNK_CELLS, l->err)))
          res = text_load_rehome(l, rel, (uint64_t)y + 1, res);
      memset(band, 0, band_cells * sizeof *band);
    }
  }
  if (res == TESS_OK && s < end)
    res = is_marker(s) ? text_load_fail(l, rel, (uint64_t)h + 1, TESS_ERR_FORMAT, "a merge conflict marker (%.7s): resolve the conflict first", s)
                       : text_load_fail(l, rel, (uint64_t)h + 1, TESS_ERR_FORMAT, "more rows than the level's %" PRIu32, h);
  tess_free(band);
  tess_free(text);
  return res;
}
