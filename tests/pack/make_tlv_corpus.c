/* Writes the fuzz seed corpus (tests/fuzz/corpus/tlv): small generated
 * levels covering every section. Run by hand when the format changes:
 *   build/tests/pack/make-tlv-corpus tests/fuzz/corpus/tlv */
#include <stdio.h>

#include "check.h"
#include "pack_fixture.h"
#include "tessera/pack.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  static const struct {
    uint32_t w, h, layers, bodies;
    bool noise, images;
  } cases[] = {{6, 4, 1, 2, false, false}, {12, 8, 2, 6, false, false}, {16, 16, 3, 8, true, false}, {9, 5, 1, 4, false, true}, {1, 1, 1, 0, false, false}, {20, 3, 2, 12, true, false}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    PackFixtureSpec spec;
    pack_fixture_spec_default(&spec);
    spec.width = cases[i].w;
    spec.height = cases[i].h;
    spec.tile_layers = cases[i].layers;
    spec.bodies = cases[i].bodies;
    spec.joints = cases[i].bodies / 2;
    spec.zones = (uint32_t)i % 3;
    spec.spawns = 1;
    spec.noise = cases[i].noise;
    spec.pixel_layer = i == 1; /* a layer that collides by pixels: PMSK and PBIT (3.6) */
    spec.pixel_body = i == 2;  /* a static body that collides by its sprite's pixels (3.9) */
    TessProject *p = pack_fixture_project(100 + i, &spec);
    if (!p) return 1;
    TessPackOptions opt;
    tess_pack_options_default(&opt);
    opt.embed_images = cases[i].images;
    char path[1024];
    snprintf(path, sizeof path, "%s/seed-%zu.tlv", argv[1], i);
    TessError err;
    if (tess_pack_write_file(p, p->levels[0], &opt, path, &err) != TESS_OK) {
      char buf[1200];
      tess_error_format(&err, buf, sizeof buf);
      fprintf(stderr, "%s\n", buf);
      return 1;
    }
    tess_project_destroy(p);
  }
  return 0;
}
