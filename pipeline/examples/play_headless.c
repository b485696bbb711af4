/* play_headless: what a game does with a packed level.
 *
 *   play_headless LEVEL.tlv [STEPS]
 *
 * Loads the file with the drop-in reader alone (tlv_reader.h + .c: no
 * Tessera core, no allocation, views into the buffer), then builds the
 * scene and the physics world with core, steps it STEPS times (default
 * 600) at the level's physics rate and prints the world's state hash. The
 * same level simulated from the project (tess_scene_from_level, as the
 * editor's preview does) gives the same hash: tests/pipeline checks it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tessera/pack.h"
#include "tessera/physics.h"
#include "tessera/scene.h"
#include "tlv_reader.h"

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = n > 0 ? malloc((size_t)n) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = buf ? (size_t)n : 0;
  return buf;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s LEVEL.tlv [STEPS]\n", argv[0]);
    return 2;
  }
  long steps = argc == 3 ? strtol(argv[2], NULL, 10) : 600;
  if (steps < 0 || steps > 10000000) {
    fprintf(stderr, "%s: steps must be 0..10000000\n", argv[0]);
    return 2;
  }
  size_t size = 0;
  unsigned char *data = read_file(argv[1], &size);
  if (!data) {
    fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 1;
  }
  /* 1. The reader alone: validate everything, then views into `data`. */
  TlvLevel lv;
  TlvError terr;
  if (tlv_open(data, size, 0, &lv, &terr) != TLV_OK) {
    fprintf(stderr, "%s:byte %" PRIu64 ": %s\n", argv[1], terr.offset, terr.message);
    free(data);
    return 1;
  }
  /* 2. Scene and world with core. */
  TessScene *scene = NULL;
  TessWorld *world = NULL;
  TessError err;
  TessResult r = tess_scene_from_pack(&lv, &scene, &err);
  if (r == TESS_OK) r = tess_world_create_from_scene(scene, NULL, &world, NULL, &err);
  float dt = 1.0f / lv.settings.physics_hz;
  for (long i = 0; r == TESS_OK && i < steps; i++) r = tess_world_step(world, dt, &err);
  if (r != TESS_OK) {
    char msg[1200];
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
  } else {
    printf("level \"%s\": %u bodies, %ld steps of %g s, world hash %016" PRIx64 "\n", tlv_string(&lv, lv.settings.name),
           lv.bodies.count, steps, (double)dt, tess_world_hash(world));
  }
  tess_world_destroy(world);
  tess_scene_destroy(scene);
  free(data);
  return r == TESS_OK ? 0 : 1;
}
