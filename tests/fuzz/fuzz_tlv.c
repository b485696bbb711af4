/* libFuzzer target: the .tlv reader on arbitrary bytes, then the scene and
 * the project made from what it accepts. Checksums are
 * skipped (they would stop almost every mutation at the door): the
 * structure checks alone must keep every accessor in bounds. The same
 * input is also opened with checksums, which must never accept more. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/pack.h"
#include "tessera/scene.h"
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
    if (tess_scene_from_pack(&lv, &scene, &terr) == TESS_OK) tess_scene_destroy(scene);
    if (tess_project_from_pack(&lv, NULL, &project, &terr) == TESS_OK) tess_project_destroy(project);
    if (tess_alloc_live_bytes() != 0) abort();
  } else if (err.message[0] == 0 || err.offset > size) {
    abort(); /* every refusal says where and why */
  }
  TlvResult strict = tlv_open(copy, size, 0, &lv, &err);
  if (strict == TLV_OK && loose != TLV_OK) abort();
  free(copy);
  return 0;
}
