/* libFuzzer target: the .tlv reader on arbitrary bytes, then what a game
 * and the tools do with a file it accepts: the scene, the physics world
 * built from it and stepped, the project (tess_project_from_pack, with the
 * embedded images) and the picture `render` draws of it. Checksums are
 * skipped (they would stop almost every mutation at the door): the
 * structure checks alone must keep every accessor in bounds and make every
 * accepted file safe to simulate and to draw. The same input is also opened
 * with checksums, which must never accept more. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/pack.h"
#include "tessera/physics.h"
#include "tessera/scene.h"
#ifdef FUZZ_TLV_RENDER
#include "tessera/render.h"
#endif
#include "tlv_reader.h"
#include "tlv_walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the walk read, kept so the reads cannot be optimised away. */
volatile uint64_t tlv_fuzz_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* A private copy of exactly `size` bytes, so ASan sees any overread. */
  uint8_t *copy = (uint8_t *)malloc(size ? size : 1);
  if (!copy) return 0;
  if (size) memcpy(copy, data, size);
  TlvLevel lv;
  TlvError err;
  TlvResult loose = tlv_open(copy, size, TLV_OPEN_SKIP_CHECKSUMS, &lv, &err);
  if (loose == TLV_OK) {
    tlv_fuzz_sink += tlv_walk(&lv);
    /* What a game does next: the scene (and a tool: the project). Neither
     * may crash or leak on anything the reader accepted. */
    TessScene *scene = NULL;
    TessProject *project = NULL;
    TessError terr;
    if (tess_scene_from_pack(&lv, &scene, &terr) == TESS_OK) {
      /* The world a game builds from it, stepped a little: it may refuse
       * (a polygon the physics finds too thin), never crash. */
      TessWorld *world = NULL;
      if (tess_world_create_from_scene(scene, NULL, &world, NULL, &terr) == TESS_OK) {
        for (int i = 0; i < 8; i++)
          if (tess_world_step(world, 1.0f / lv.settings.physics_hz, &terr) != TESS_OK) break;
        tlv_fuzz_sink += tess_world_hash(world);
        tess_world_destroy(world);
      }
      tess_scene_destroy(scene);
    }
    if (tess_project_from_pack(&lv, NULL, &project, &terr) == TESS_OK) {
#ifdef FUZZ_TLV_RENDER
      /* `render FILE.tlv` with every overlay, the embedded images decoded,
       * at a scale that keeps the picture small (the renderer's own limits
       * are the subject of other tests). */
      const TessLevel *level = project->levels[0];
      double w = (double)level->settings.width * level->settings.tile_w, h = (double)level->settings.height * level->settings.tile_h;
      double largest = w > h ? w : h, scale = largest > 256.0 ? 256.0 / largest : 1.0;
      TessRenderOptions ro;
      tess_render_options_default(&ro);
      ro.flags = TESS_RENDER_DEFAULT | TESS_RENDER_MATERIALS | TESS_RENDER_COLLISION | TESS_RENDER_GRID;
      cairo_surface_t *surface = NULL;
      TessResult rr = tess_render_level_to_surface(project, level, scale, &ro, &surface, &terr);
      if (surface) cairo_surface_destroy(surface);
      /* An image that does not decode is drawn as a placeholder and
       * reported; nothing else may fail on an accepted file. */
      if (rr != TESS_OK && rr != TESS_ERR_FORMAT && rr != TESS_ERR_LIMIT && rr != TESS_ERR_NOMEM) abort();
#endif
      tess_project_destroy(project);
    }
    if (tess_alloc_live_bytes() != 0) abort();
  } else if (err.message[0] == 0 || err.offset > size) {
    abort(); /* every refusal says where and why */
  }
  TlvResult strict = tlv_open(copy, size, 0, &lv, &err);
  if (strict == TLV_OK && loose != TLV_OK) abort();
  free(copy);
  return 0;
}
