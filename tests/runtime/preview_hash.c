/* preview-hash PROJECT LEVEL STEPS: the editor preview's world hash of one
 * level after STEPS physics steps (editor/preview's TessPreviewLevel, the
 * path Play takes), printed as the example game prints its own, so a test
 * can hold the game's hash against the preview's. Opens a private copy of
 * the project read-only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/level.h"
#include "tessera/store.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s PROJECT LEVEL STEPS\n", argv[0]);
    return 2;
  }
  long steps = strtol(argv[3], NULL, 10);
  TessStore *store = NULL;
  TessProject *p = NULL;
  TessError err;
  TessResult r = tess_store_open(argv[1], TESS_STORE_READ_ONLY, &store, &err);
  if (r == TESS_OK) r = tess_store_load(store, &p, &err);
  if (store) tess_store_close(store);
  const TessLevel *level = NULL;
  for (uint32_t i = 0; r == TESS_OK && i < p->level_count; i++)
    if (strcmp(p->levels[i]->settings.name, argv[2]) == 0) level = p->levels[i];
  if (r == TESS_OK && !level) r = tess_error_set(&err, TESS_ERR_NOT_FOUND, argv[1], "no level named %s", argv[2]);
  TessPreviewLevel *pl = NULL;
  if (r == TESS_OK) r = tess_preview_level_create(p, level, 0, &pl, &err);
  for (long s = 0; r == TESS_OK && s < steps; s++) r = tess_playback_step(pl->playback, &err);
  if (r == TESS_OK)
    printf("world hash %016" PRIx64 "\n", tess_world_hash(tess_playback_world(pl->playback)));
  else {
    char msg[1200];
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
  }
  tess_preview_level_destroy(pl);
  tess_project_destroy(p);
  return r == TESS_OK ? 0 : 1;
}
