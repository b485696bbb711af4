/* Prints every cell that differs between two project files, one line each:
 *   LEVEL LAYER X Y BEFORE AFTER
 * where a cell is "-" (empty) or TILESET#INDEX (with +h/+v/+d for flips).
 * The end-to-end test compares this with the cells it expects. */
#include <stdio.h>
#include <string.h>

#include "tessera/store.h"

static TessProject *load(const char *path) {
  TessStore *store = NULL;
  TessProject *p = NULL;
  TessError err = {0};
  if (tess_store_open(path, TESS_STORE_READ_ONLY, &store, &err) != TESS_OK ||
      tess_store_load(store, &p, &err) != TESS_OK) {
    char buf[1200];
    tess_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "e2e-diff: %s\n", buf);
    if (store) tess_store_close(store);
    return NULL;
  }
  tess_store_close(store);
  return p;
}

static void cell_name(const TessProject *p, TessCell c, char *buf, size_t size) {
  if (!c) {
    snprintf(buf, size, "-");
    return;
  }
  const TessTileset *ts = tess_project_tileset(p, TESS_CELL_TILESET(c));
  snprintf(buf, size, "%s#%u%s%s%s", ts ? ts->name : "?", TESS_CELL_TILE(c), (c & TESS_CELL_FLIP_H) ? "+h" : "",
           (c & TESS_CELL_FLIP_V) ? "+v" : "", (c & TESS_CELL_FLIP_D) ? "+d" : "");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: e2e-diff BEFORE.tessera AFTER.tessera\n");
    return 2;
  }
  TessProject *a = load(argv[1]), *b = load(argv[2]);
  if (!a || !b) return 2;
  int status = 0;
  for (uint32_t i = 0; i < b->level_count; i++) {
    const TessLevel *lb = b->levels[i];
    const TessLevel *la = tess_project_level(a, lb->id);
    if (!la) {
      printf("%s added\n", lb->settings.name);
      continue;
    }
    for (uint32_t j = 0; j < lb->layer_count; j++) {
      const TessLayer *yb = lb->layers[j];
      const TessLayer *ya = tess_level_layer(la, yb->props.id);
      if (!ya || yb->props.kind == TESS_LAYER_OBJECTS) continue;
      for (uint32_t y = 0; y < lb->settings.height; y++)
        for (uint32_t x = 0; x < lb->settings.width; x++) {
          TessCell ca = tess_layer_cell(ya, x, y), cb = tess_layer_cell(yb, x, y);
          if (ca == cb) continue;
          char na[96], nb[96];
          cell_name(a, ca, na, sizeof na);
          cell_name(b, cb, nb, sizeof nb);
          printf("%s %s %u %u %s %s\n", lb->settings.name, yb->props.name, x, y, na, nb);
        }
    }
  }
  tess_project_destroy(a);
  tess_project_destroy(b);
  return status;
}
