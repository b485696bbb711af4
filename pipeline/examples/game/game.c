/* game: a headless game loop on libtessera-runtime alone (no SQLite, no
 * libpng, no level model), as a game would write it.
 *
 *   game LEVEL.tlv [STEPS]
 *
 * Loads the packed level with the reader, makes its scene and physics
 * world, then runs display frames of 1/144 s (a real game reads its
 * monotonic clock; a fixed frame keeps this run reproducible): the
 * fixed-step clock says how many physics steps each frame takes, contact
 * events are counted (where a game plays its sounds), every body is read at
 * the interpolated transform between the last two steps (where a game
 * draws it), and each sprite body's animation advances by its frame rate
 * (the sprite frame player). It stops after STEPS physics steps (default
 * 600) and prints the world hash, which equals the editor preview's after
 * the same number of steps. Build: see the Makefile beside this file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tessera/runtime.h"

#define FRAME_SECONDS (1.0 / 144.0)

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *buf = NULL;
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) buf = malloc((size_t)n);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = buf ? (size_t)n : 0;
  return buf;
}

/* What a game keeps per body to draw it: its handle and, for a sprite, its animation. */
typedef struct Actor {
  TessBodyId id;
  uint32_t frame_count;
  double frame_rate;
  TessFramePlayer player;
} Actor;

static int fail(const char *path, const TessError *err) {
  char msg[1200];
  tess_error_format(err, msg, sizeof msg);
  fprintf(stderr, "%s: %s\n", path, msg);
  return 1;
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
    fprintf(stderr, "%s: cannot read the file\n", argv[1]);
    return 1;
  }
  /* Loading: the reader validates everything and gives views into `data`. */
  TlvLevel lv;
  TlvError terr;
  if (tlv_open(data, size, 0, &lv, &terr) != TLV_OK) {
    fprintf(stderr, "%s:byte %" PRIu64 ": %s\n", argv[1], terr.offset, terr.message);
    free(data);
    return 1;
  }
  TessScene *scene = NULL;
  TessWorld *world = NULL;
  TessError err;
  if (tess_scene_from_pack(&lv, &scene, &err) != TESS_OK) {
    free(data);
    return fail(argv[1], &err);
  }
  Actor *actors = calloc(scene->body_count ? scene->body_count : 1, sizeof *actors);
  TessBodyId *ids = calloc(scene->body_count ? scene->body_count : 1, sizeof *ids);
  TessClockDef cdef;
  tess_clock_def_default(&cdef);
  cdef.hz = lv.settings.physics_hz;
  TessClock clock;
  TessResult r = actors && ids ? TESS_OK : TESS_ERR_NOMEM;
  if (r == TESS_OK) r = tess_world_create_from_scene(scene, NULL, &world, ids, &err);
  if (r == TESS_OK) r = tess_clock_init(&clock, &cdef, &err);
  if (r != TESS_OK) {
    tess_scene_destroy(scene);
    free(actors);
    free(ids);
    free(data);
    return fail(argv[1], &err);
  }
  /* The scene's bodies are the file's bodies, in order: sprites come from the file. */
  uint32_t sprite_bodies = 0;
  for (uint32_t i = 0; i < scene->body_count; i++) {
    actors[i].id = ids[i];
    TlvBody body;
    TlvSprite sprite;
    if (i < lv.bodies.count && tlv_body(&lv, i, &body) && body.sprite && tlv_sprite(&lv, body.sprite - 1, &sprite)) {
      actors[i].frame_count = sprite.frame_count;
      actors[i].frame_rate = sprite.frame_rate;
      sprite_bodies++;
    }
  }
  float dt = 1.0f / lv.settings.physics_hz;
  uint64_t frames = 0, contacts = 0, sprite_frames = 0;
  double drawn = 0.0; /* a sum of where every body was drawn, so the reads are used */
  while (r == TESS_OK && clock.step < (uint64_t)steps) {
    uint32_t due = tess_clock_advance(&clock, FRAME_SECONDS, 1.0);
    for (uint32_t k = 0; k < due && r == TESS_OK; k++) {
      r = tess_world_step(world, dt, &err);
      contacts += tess_world_events(world).contact_begin_count; /* sounds */
    }
    float alpha = (float)tess_clock_alpha(&clock);
    for (uint32_t i = 0; i < scene->body_count; i++) {
      TessTransform xf = tess_body_interpolated_transform(world, actors[i].id, alpha);
      drawn += (double)xf.p.x + (double)xf.p.y;
      if (actors[i].frame_count > 1) {
        uint32_t before = actors[i].player.frame;
        tess_frame_player_advance(&actors[i].player, actors[i].frame_rate * FRAME_SECONDS, actors[i].frame_count);
        sprite_frames += actors[i].player.frame != before;
      }
    }
    frames++;
  }
  if (r == TESS_OK) {
    printf("level \"%s\": %u bodies, %" PRIu64 " steps of %g s, world hash %016" PRIx64 "\n",
           tlv_string(&lv, lv.settings.name), scene->body_count, clock.step, (double)dt, tess_world_hash(world));
    printf("%" PRIu64 " frames drawn (interpolated), %" PRIu64 " contacts began, %u sprite bodies turned %" PRIu64
           " frames, mean drawn coordinate %.3f m\n",
           frames, contacts, sprite_bodies, sprite_frames,
           frames && scene->body_count ? drawn / (2.0 * (double)frames * scene->body_count) : 0.0);
  }
  tess_world_destroy(world);
  tess_scene_destroy(scene);
  free(actors);
  free(ids);
  free(data);
  return r == TESS_OK ? 0 : fail(argv[1], &err);
}
