/* tessera-pipeline import MAP.tmx|MAP.tmj -o PROJECT.tessera [--level NAME]:
 * a Tiled map into a new project, or as a new level of an existing one.
 * The map is read in full first (every bad-input error happens before any
 * file is opened for writing); the import is then tried on a read-only
 * load, and only when it succeeds is the project opened for writing and
 * the same import applied and flushed in one transaction. A failed import
 * leaves the project file byte for byte as it was. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "tessera/formats.h"
#include "tessera/store.h"

const char tess_cmd_import_usage[] =
    "import MAP.tmx|MAP.tmj -o PROJECT.tessera [--level NAME] [--quiet]\n"
    "  Reads an orthogonal Tiled map (TMX or TMJ, tilesets embedded or external .tsx/.tsj)\n"
    "  into a new project, or adds it as a new level to an existing one (tilesets whose image\n"
    "  and grid are equal are reused, materials by name). What Tessera cannot hold is listed\n"
    "  as warnings; see core/formats/README.md for the mapping.\n"
    "  -o PROJECT      the project to create or add to\n"
    "  --level NAME    the new level's name (default: the map file's name)\n"
    "  --quiet         no warning lines, only their count\n"
    "Exit status: 0 imported, 1 failure (nothing written), 2 usage.\n";

static int fail(const TessError *err) {
  char msg[1400];
  tess_error_format(err, msg, sizeof msg);
  fprintf(stderr, "%s\n", msg);
  return TESS_EXIT_FAIL;
}

/* Adds the plan to an existing project: trial on a read-only load, then for real. */
static TessResult import_existing(const char *path, const TessMapImport *imp, const char *level, TessError *err) {
  TessStore *store = NULL;
  TessProject *p = NULL;
  TessResult r = tess_store_open(path, TESS_STORE_READ_ONLY, &store, err);
  if (!r) r = tess_store_load(store, &p, err);
  if (store) tess_store_close(store);
  if (!r) r = tess_map_import_apply(p, imp, level, NULL, err);
  tess_project_destroy(p);
  p = NULL;
  store = NULL;
  if (r) return r;
  r = tess_store_open(path, TESS_STORE_READ_WRITE, &store, err);
  if (!r) r = tess_store_load(store, &p, err);
  if (!r) r = tess_map_import_apply(p, imp, level, NULL, err);
  if (!r) r = tess_store_flush(store, p, err);
  tess_project_destroy(p);
  if (store) tess_store_close(store);
  return r;
}

static TessResult import_new(const char *path, const TessMapImport *imp, const char *level, TessError *err) {
  TessProject *p = tess_project_create();
  if (!p) return tess_error_set(err, TESS_ERR_NOMEM, path, "out of memory");
  TessResult r = tess_map_import_apply(p, imp, level, NULL, err);
  TessStore *store = NULL;
  if (!r) r = tess_store_open(path, TESS_STORE_CREATE, &store, err);
  if (!r) {
    tess_project_clear_history(p);
    r = tess_store_save_all(store, p, err);
    tess_store_close(store);
    if (r) unlink(path);
  }
  tess_project_destroy(p);
  return r;
}

int tess_cmd_import(int argc, char **argv) {
  const char *input = NULL, *output = NULL, *level = NULL;
  bool quiet = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-o") == 0 || strcmp(a, "--level") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("import", "%s needs a value", a);
      if (a[1] == 'o') output = argv[i];
      else level = argv[i];
    } else if (strcmp(a, "--quiet") == 0) {
      quiet = true;
    } else if (a[0] == '-' && a[1]) {
      return tess_cmd_usage_error("import", "unknown option %s", a);
    } else if (!input) {
      input = a;
    } else {
      return tess_cmd_usage_error("import", "one map at a time");
    }
  }
  if (!input) return tess_cmd_usage_error("import", "no map given");
  if (!output) return tess_cmd_usage_error("import", "no project (-o PROJECT.tessera)");
  if (!tess_map_format_for_path(input)) return tess_cmd_usage_error("import", "%s: not a .tmx or .tmj map", input);
  /* The shared output check: never the map itself; an existing project is what import adds to. */
  const char *inputs[] = {input};
  if (tess_cmd_check_output(output, inputs, 1, TESS_OUTPUT_REPLACE_PROJECT) != TESS_EXIT_OK) return TESS_EXIT_FAIL;
  if (level && (!level[0] || strlen(level) >= TESS_NAME_MAX))
    return tess_cmd_usage_error("import", "--level needs a name of 1 to %d bytes", TESS_NAME_MAX - 1);
  TessError err;
  tess_error_clear(&err);
  TessMapImport *imp = NULL;
  TessResult r = tess_map_read(input, NULL, &imp, &err);
  if (r) return fail(&err);
  for (uint32_t i = 0; i < imp->warning_count && !quiet; i++) fprintf(stderr, "%s: warning: %s\n", input, imp->warnings[i]);
  bool exists = access(output, F_OK) == 0;
  r = exists ? import_existing(output, imp, level, &err) : import_new(output, imp, level, &err);
  if (r) {
    tess_map_import_destroy(imp);
    return fail(&err);
  }
  fprintf(stderr, "imported %s -> %s, level '%s' (%ux%u cells, %u layers, %u tilesets; %u warnings)\n", input, output,
          level ? level : imp->settings.name, imp->settings.width, imp->settings.height, imp->layer_count,
          imp->tileset_count, imp->warning_count);
  tess_map_import_destroy(imp);
  return TESS_EXIT_OK;
}
