/* One read of a Tiled map: the file's bytes, the right parser into the
 * model, external tilesets, then the conversion into a plan. On any
 * failure nothing is returned. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tessera/image.h"
#include "formats_tiled.h"

TessResult tiled_read(const char *path, const TessMapReadOptions *opt, bool json, TessMapImport **out, TessError *err);

TessResult tiled_tileset_load_external(TiledMap *m, TiledTileset *ts, TessError *err) {
  const char *dot = strrchr(ts->source, '.');
  bool tsj = dot && (strcasecmp(dot, ".tsj") == 0 || strcasecmp(dot, ".json") == 0);
  TessError ferr;
  tess_error_clear(&ferr);
  TessResult r = tsj ? tiled_tsj_load(m, ts, &ferr) : tiled_tsx_load(m, ts, &ferr);
  if (r == TESS_ERR_IO || r == TESS_ERR_NOT_FOUND)
    return tess_error_set(err, r, m->path, "cannot read tileset '%s' (resolved to '%s'): %s", ts->source, ts->source_resolved,
                          ferr.detail);
  if (r && err) *err = ferr;
  return r;
}

static const char *stem_of(const char *path, size_t *len) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  *len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  return base;
}

TessResult tiled_read(const char *path, const TessMapReadOptions *opt, bool json, TessMapImport **out, TessError *err) {
  TessMapImport *plan = tess_calloc(1, sizeof *plan);
  if (!plan) return tess_error_set(err, TESS_ERR_NOMEM, path, "out of memory");
  snprintf(plan->source, sizeof plan->source, "%s", path);
  tess_level_settings_default(&plan->settings);
  size_t n;
  const char *stem = stem_of(path, &n);
  char name[TESS_NAME_MAX * 4];
  snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name - 1 ? n : sizeof name - 1), stem);
  tiled_name_copy(plan, plan->settings.name, name, "level name");
  TiledMap *m = tiled_map_new(path, plan);
  uint8_t *data = NULL;
  size_t size = 0;
  TessResult r = m ? tess_file_read(path, TESS_MAP_MAX_FILE_BYTES, &data, &size, err) : tess_error_set(err, TESS_ERR_NOMEM, path, "out of memory");
  if (!r) r = json ? tiled_tmj_parse(m, data, size, opt, err) : tiled_tmx_parse(m, data, size, opt, err);
  tess_free(data);
  if (!r) r = tiled_convert(m, plan, opt, err);
  tiled_map_free(m);
  if (r) {
    tess_map_import_destroy(plan);
    return r;
  }
  *out = plan;
  return TESS_OK;
}
