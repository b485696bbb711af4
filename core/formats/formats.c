/* The table of map formats (Tiled's MapFormat, in C): the CLI's --format
 * values and the editor's file filters both come from here. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "formats_tiled.h"

TessResult tiled_read(const char *path, const TessMapReadOptions *opt, bool json, TessMapImport **out, TessError *err);

static TessResult read_tmx(const char *path, const TessMapReadOptions *opt, TessMapImport **out, TessError *err) {
  return tiled_read(path, opt, false, out, err);
}

static TessResult read_tmj(const char *path, const TessMapReadOptions *opt, TessMapImport **out, TessError *err) {
  return tiled_read(path, opt, true, out, err);
}

static TessResult write_tmx(const TessProject *p, const TessLevel *level, const char *path,
                            const TessMapWriteOptions *opt, TessError *err) {
  (void)opt;
  return tess_tiled_write_level(p, level, TESS_TILED_TMX, path, err);
}

static TessResult write_tmj(const TessProject *p, const TessLevel *level, const char *path,
                            const TessMapWriteOptions *opt, TessError *err) {
  (void)opt;
  return tess_tiled_write_level(p, level, TESS_TILED_TMJ, path, err);
}

static const char *const tmx_ext[] = {"tmx", NULL};
static const char *const tmj_ext[] = {"tmj", "json", NULL};

static const TessMapFormat formats[] = {
    {"tmx", "Tiled map (XML)", tmx_ext, read_tmx, write_tmx},
    {"tmj", "Tiled map (JSON)", tmj_ext, read_tmj, write_tmj},
};

size_t tess_map_format_count(void) { return sizeof formats / sizeof formats[0]; }

const TessMapFormat *tess_map_format_at(size_t index) { return index < tess_map_format_count() ? &formats[index] : NULL; }

const TessMapFormat *tess_map_format_by_name(const char *name) {
  for (size_t i = 0; i < tess_map_format_count(); i++)
    if (strcmp(formats[i].name, name) == 0) return &formats[i];
  return NULL;
}

const TessMapFormat *tess_map_format_for_path(const char *path) {
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash)) return NULL;
  for (size_t i = 0; i < tess_map_format_count(); i++)
    for (const char *const *e = formats[i].extensions; *e; e++)
      if (strcasecmp(dot + 1, *e) == 0) return &formats[i];
  return NULL;
}

TessResult tess_map_read(const char *path, const TessMapReadOptions *opt, TessMapImport **out, TessError *err) {
  const TessMapFormat *f = tess_map_format_for_path(path);
  if (!f || !f->read) return tess_error_set(err, TESS_ERR_FORMAT, path, "not a map format Tessera reads (expected .tmx or .tmj)");
  return f->read(path, opt, out, err);
}

void tess_map_read_options_default(TessMapReadOptions *opt) { memset(opt, 0, sizeof *opt); }

void tess_map_import_destroy(TessMapImport *imp) {
  if (!imp) return;
  for (uint32_t i = 0; i < imp->tileset_count; i++) {
    TessImportTileset *t = &imp->tilesets[i];
    tess_free(t->source_path);
    tess_free(t->png);
    if (t->tiles)
      for (uint32_t k = 0; k < t->tile_count; k++) tess_free(t->tiles[k].pieces);
    tess_free(t->tiles);
    tess_terrain_sets_free(t->terrains, t->terrain_count);
  }
  tess_free(imp->tilesets);
  tess_free(imp->materials);
  tess_free(imp->material_ids);
  tess_free(imp->refs);
  for (uint32_t i = 0; i < imp->sprite_count; i++) tess_sprite_clear(&imp->sprites[i]);
  tess_free(imp->sprites);
  for (uint32_t i = 0; i < imp->layer_count; i++) {
    TessImportLayer *l = &imp->layers[i];
    tess_free(l->cells);
    for (uint32_t k = 0; k < l->object_count; k++) tess_object_clear(&l->objects[k]);
    tess_free(l->objects);
  }
  tess_free(imp->layers);
  for (uint32_t i = 0; i < imp->warning_count; i++) tess_free(imp->warnings[i]);
  tess_free(imp->warnings);
  tess_free(imp);
}

bool tess_map_import_warn(TessMapImport *imp, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char **w = tess_realloc(imp->warnings, ((size_t)imp->warning_count + 1) * sizeof *w);
  if (!w) return false;
  imp->warnings = w;
  if (!(w[imp->warning_count] = tess_strdup(buf))) return false;
  imp->warning_count++;
  return true;
}
