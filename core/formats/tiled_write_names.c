/* File names for a Tiled export: every tileset and sprite of the project
 * gets a stem that is a safe file name (the .tlv export's rule: letters,
 * digits, '-', '_', '.', UTF-8; anything else becomes '_'), unique ignoring
 * case (case-insensitive file systems), decided over the whole project so
 * a level's map names the same files whichever levels an export selects. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "formats_tiled_write.h"

#define STEM_MAX 112

struct TwNames {
  uint32_t tileset_count, sprite_count;
  TessId *tileset_ids, *sprite_ids;
  char (*tileset_stems)[STEM_MAX];
  char (*sprite_stems)[STEM_MAX];
};

void tiled_write_safe_name(const char *name, char *out, size_t size) {
  /* The .tlv export's rule, with room left for "-t4095" suffixes and the extension. */
  tess_text_file_stem(name, out, size > 24 ? size - 16 : size, "unnamed");
}

static bool same_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
  return *a == *b;
}

/* "materials-WxH" names are the swatch sheets': a tileset or sprite named
 * so takes a suffix too. */
static bool clashes(const TwNames *n, const char *stem, uint32_t tilesets, uint32_t sprites) {
  char low[16];
  size_t k = 0;
  for (; k < 10 && stem[k]; k++) low[k] = (char)tolower((unsigned char)stem[k]);
  low[k] = 0;
  unsigned w, h;
  int used = 0;
  if (strcmp(low, "materials-") == 0 && sscanf(stem + 10, "%ux%u%n", &w, &h, &used) == 2 && stem[10 + used] == 0)
    return true;
  for (uint32_t i = 0; i < tilesets; i++)
    if (same_ignoring_case(n->tileset_stems[i], stem)) return true;
  for (uint32_t i = 0; i < sprites; i++)
    if (same_ignoring_case(n->sprite_stems[i], stem)) return true;
  return false;
}

TessResult tiled_write_names_create(const TessProject *p, TwNames **out, TessError *err) {
  *out = NULL;
  TwNames *n = tess_calloc(1, sizeof *n);
  if (!n) return tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory");
  n->tileset_count = p->tileset_count;
  n->sprite_count = p->sprite_count;
  n->tileset_ids = tess_calloc(p->tileset_count + 1, sizeof *n->tileset_ids);
  n->sprite_ids = tess_calloc(p->sprite_count + 1, sizeof *n->sprite_ids);
  n->tileset_stems = tess_calloc(p->tileset_count + 1, sizeof *n->tileset_stems);
  n->sprite_stems = tess_calloc(p->sprite_count + 1, sizeof *n->sprite_stems);
  if (!n->tileset_ids || !n->sprite_ids || !n->tileset_stems || !n->sprite_stems) {
    tiled_write_names_destroy(n);
    return tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory");
  }
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    char base[STEM_MAX];
    tiled_write_safe_name(p->tilesets[i]->name, base, sizeof base);
    n->tileset_ids[i] = p->tilesets[i]->id;
    snprintf(n->tileset_stems[i], STEM_MAX, "%s", base);
    for (int k = 0; k < 4 && clashes(n, n->tileset_stems[i], i, 0); k++) {
      snprintf(base, sizeof base, "%.90s-t%u", n->tileset_stems[i], p->tilesets[i]->id);
      snprintf(n->tileset_stems[i], STEM_MAX, "%s", base);
    }
  }
  for (uint32_t i = 0; i < p->sprite_count; i++) {
    char base[STEM_MAX];
    tiled_write_safe_name(p->sprites[i]->name, base, sizeof base);
    n->sprite_ids[i] = p->sprites[i]->id;
    snprintf(n->sprite_stems[i], STEM_MAX, "%s", base);
    for (int k = 0; k < 4 && clashes(n, n->sprite_stems[i], p->tileset_count, i); k++) {
      snprintf(base, sizeof base, "%.90s-s%u", n->sprite_stems[i], p->sprites[i]->id);
      snprintf(n->sprite_stems[i], STEM_MAX, "%s", base);
    }
  }
  *out = n;
  return TESS_OK;
}

void tiled_write_names_destroy(TwNames *n) {
  if (!n) return;
  tess_free(n->tileset_ids);
  tess_free(n->sprite_ids);
  tess_free(n->tileset_stems);
  tess_free(n->sprite_stems);
  tess_free(n);
}

const char *tiled_write_names_tileset(const TwNames *n, TessId id) {
  for (uint32_t i = 0; i < n->tileset_count; i++)
    if (n->tileset_ids[i] == id) return n->tileset_stems[i];
  return NULL;
}

const char *tiled_write_names_sprite(const TwNames *n, TessId id) {
  for (uint32_t i = 0; i < n->sprite_count; i++)
    if (n->sprite_ids[i] == id) return n->sprite_stems[i];
  return NULL;
}

void tiled_write_names_materials(uint32_t tile_w, uint32_t tile_h, char *out, size_t size) {
  snprintf(out, size, "materials-%ux%u", tile_w, tile_h);
}
