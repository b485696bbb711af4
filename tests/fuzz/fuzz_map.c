/* libFuzzer target: the Tiled map readers (TMX through expat, TMJ through
 * jansson), the conversion and the apply, on arbitrary bytes. Input whose
 * first non-blank byte is '{' is read as a .tmj, anything else as a .tmx,
 * from a folder that holds the tilesets the seeds name (a.png, b.png,
 * k.png, b.tsx, b.tsj), so the fuzzer reaches past the tileset loading.
 * Must never crash or leak; an accepted map must apply to a new project as
 * one undo step that undoes to an empty project. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "maps.h"
#include "tessera/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];

static void cleanup(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  (void)!system(cmd);
}

static void setup(void) {
  snprintf(dir, sizeof dir, "/tmp/tess-fuzz-map-%d", (int)getpid());
  char cmd[300], p[400];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  if (system(cmd) != 0) abort();
  atexit(cleanup);
  snprintf(p, sizeof p, "%s/a.png", dir);
  maps_write_tileset_png(p, 4, 2, 8, 8, 0, 0, 1, -1);
  snprintf(p, sizeof p, "%s/b.png", dir);
  maps_write_tileset_png(p, 3, 2, 8, 8, 1, 2, 2, -1);
  snprintf(p, sizeof p, "%s/k.png", dir);
  maps_write_tileset_png(p, 2, 1, 8, 8, 0, 0, 7, 0xFF00FF);
  maps_write_file(p, sizeof p, dir, "b.tsx",
                  "<tileset name=\"b\" tilewidth=\"8\" tileheight=\"8\" spacing=\"2\" margin=\"1\" tilecount=\"6\" columns=\"3\">"
                  "<image source=\"b.png\" width=\"30\" height=\"20\"/><tile id=\"1\"><objectgroup><object id=\"1\" x=\"0\" "
                  "y=\"4\" width=\"8\" height=\"4\"/></objectgroup></tile></tileset>");
  maps_write_file(p, sizeof p, dir, "b.tsj",
                  "{\"name\":\"b\",\"tilewidth\":8,\"tileheight\":8,\"spacing\":2,\"margin\":1,\"image\":\"b.png\","
                  "\"tiles\":[{\"id\":1,\"objectgroup\":{\"objects\":[{\"id\":1,\"x\":0,\"y\":0,\"polygon\":"
                  "[{\"x\":0,\"y\":0},{\"x\":8,\"y\":0},{\"x\":4,\"y\":8}]}]}}]}");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) setup();
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r')) i++;
  bool json = i < size && data[i] == '{';
  char path[400];
  snprintf(path, sizeof path, "%s/fuzz.%s", dir, json ? "tmj" : "tmx");
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  TessError err;
  TessMapImport *imp = NULL;
  if (tess_map_read(path, NULL, &imp, &err) == TESS_OK) {
    TessProject *p = tess_project_create();
    uint64_t empty = tess_project_hash(p);
    if (tess_map_import_apply(p, imp, NULL, NULL, &err) == TESS_OK) {
      if (tess_project_undo(p, &err) != TESS_OK || tess_project_hash(p) != empty) abort();
    } else if (tess_project_hash(p) != empty || tess_project_can_undo(p)) {
      abort(); /* a failed apply leaves nothing behind */
    }
    tess_project_destroy(p);
    tess_map_import_destroy(imp);
  } else if (imp) {
    abort(); /* the plan is written only on success */
  }
  if (tess_alloc_live_bytes() != 0) abort();
  return 0;
}
