/* core/formats: what the text form's loader files share (text_load.c,
 * text_load_assets.c, text_load_level.c, text_rows.c). */
#ifndef TESS_TEXT_LOAD_PRIVATE_H
#define TESS_TEXT_LOAD_PRIVATE_H

#include <jansson.h>

#include "formats_text.h"

#define TL_MAX_FILE ((uint64_t)2 << 30) /* 2 GiB: a 16384 x 16384 layer of distinct tiles fits */

typedef struct Load {
  const char *dir;
  TessError *err;
  TessProject *p;
  TESS_ARRAY(TessId)
  object_ids; /* every object id seen so far (duplicates are refused) */
  TESS_ARRAY(TessId)
  layer_ids;
} Load;

/* One parsed JSON file. */
typedef struct Json {
  Load *l;
  char rel[256];
  char *text;
  json_t *root;
} Json;

TessResult text_load_read(Load *l, const char *rel, char **text, size_t *len);
TessResult text_load_fail(Load *l, const char *rel, uint64_t line, TessResult code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
TessResult text_load_check_markers(Load *l, const char *rel, const char *text, size_t len);
TessResult text_load_parse(Load *l, const char *rel, Json *j);
void text_load_json_free(Json *j);
uint64_t text_load_line_of(const Json *j, const char *key, uint64_t from);
TessResult text_load_rehome(Load *l, const char *rel, uint64_t line, TessResult r);
TessResult text_load_list_ids(Load *l, const char *rel, const char *suffix, TessId **ids, size_t *count);

/* Members of `obj`; `from` is the line where obj starts (errors name the key's line at or after it). */
TessResult text_load_u32(const Json *j, json_t *obj, const char *key, uint64_t from, uint32_t *out);
/* The top-level "id" into *id, which must be the id the file (or, for a
 * level, its directory: `where`) is named for: a copied file is refused. */
TessResult text_load_named_id(const Json *j, TessId named, const char *where, uint32_t *id);
TessResult text_load_depth(const Json *j, json_t *obj, int32_t *out);
TessResult text_load_u8(const Json *j, json_t *obj, const char *key, uint64_t from, uint8_t *out);
TessResult text_load_f64(const Json *j, json_t *obj, const char *key, uint64_t from, double *out);
TessResult text_load_f32(const Json *j, json_t *obj, const char *key, uint64_t from, float *out);
TessResult text_load_item_f32(const Json *j, json_t *arr, size_t i, const char *key, uint64_t from, float *out);
TessResult text_load_vec(const Json *j, json_t *obj, const char *key, uint64_t from, TessVec2 *out);
TessResult text_load_bool(const Json *j, json_t *obj, const char *key, uint64_t from, bool *out);
TessResult text_load_str(const Json *j, json_t *obj, const char *key, uint64_t from, bool nullable, const char **out);
TessResult text_load_name(const Json *j, json_t *obj, const char *key, uint64_t from, char name[TESS_NAME_MAX]);
TessResult text_load_word(const Json *j, json_t *obj, const char *key, uint64_t from, const char *const *words, size_t count,
                          uint8_t *out);
#define TL_WORD(j, obj, key, from, table, out) text_load_word(j, obj, key, from, table, sizeof table / sizeof table[0], out)
TessResult text_load_color(const Json *j, json_t *obj, const char *key, uint64_t from, uint32_t *out);
TessResult text_load_array(const Json *j, json_t *obj, const char *key, uint64_t from, json_t **out);

TessResult text_load_material(Load *l, TessId id);
TessResult text_load_tileset(Load *l, TessId id);
/* The tileset JSON's optional "terrains" (text_terrain.c). */
TessResult text_load_terrains(const Json *j, TessTileset *ts);
TessResult text_load_sprite(Load *l, TessId id);
TessResult text_load_level(Load *l, TessId id);
/* Cells of one tile or material layer from its rows file (text_rows.c). */
TessResult text_load_rows(Load *l, const char *rel, const TessLevel *level, TessLayer *layer);
/* Bodies naming materials and sprites that exist. */
TessResult text_load_check_references(Load *l);

#endif
