/* core/render draws the demo project's first level (BUILD/data/demo/demo.tessera,
 * made by the demo generator) and compares it with a checked-in reference.
 * Skips (exit 77) when the demo has not been generated in this build. */
#include <cairo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tessera/image.h"
#include "tessera/render.h"
#include "tessera/store.h"

int main(void) {
  const char *build = getenv("TESS_BUILD_ROOT"), *src = getenv("TESS_SOURCE_ROOT");
  char demo[1024], ref[1024], out[1024];
  snprintf(demo, sizeof demo, "%s/data/demo/demo.tessera", build ? build : ".");
  snprintf(ref, sizeof ref, "%s/tests/render/reference/demo.png", src ? src : ".");
  if (access(demo, R_OK) != 0) {
    printf("SKIP: %s not generated\n", demo);
    return 77;
  }
  TessError err;
  tess_error_clear(&err);
  TessStore *store = NULL;
  TessProject *p = NULL;
  int failures = 0;
  if (tess_store_open(demo, TESS_STORE_READ_ONLY, &store, &err) != TESS_OK ||
      tess_store_load(store, &p, &err) != TESS_OK || p->level_count == 0) {
    char buf[1200];
    tess_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "cannot load the demo: %s\n", buf);
    if (store) tess_store_close(store);
    return 1;
  }
  const TessLevel *level = p->levels[0];
  /* The reference is of one demo content: when the generator changes the
   * demo, say so plainly (a stale reference fails: a skipped golden test
   * would check nothing) and name the command that renews it. */
  char hash_path[1024], hash_now[32];
  snprintf(hash_path, sizeof hash_path, "%s/tests/render/reference/demo.hash", src ? src : ".");
  snprintf(hash_now, sizeof hash_now, "%016llx", (unsigned long long)tess_level_content_hash(p, level));
  if (getenv("TESS_UPDATE_REFERENCE")) {
    FILE *f = fopen(hash_path, "w");
    if (f) {
      fprintf(f, "%s\n", hash_now);
      fclose(f);
    }
  }
  char hash_ref[32] = "";
  FILE *hf = fopen(hash_path, "r");
  if (hf) {
    if (!fgets(hash_ref, sizeof hash_ref, hf)) hash_ref[0] = 0;
    fclose(hf);
    hash_ref[strcspn(hash_ref, "\n")] = 0;
  }
  if (strcmp(hash_ref, hash_now) != 0) {
    fprintf(stderr,
            "the demo level's content hash is %s, the reference was made from %s: look at the new picture, "
            "then regenerate it with TESS_UPDATE_REFERENCE=1\n",
            hash_now, hash_ref[0] ? hash_ref : "(none)");
    tess_project_destroy(p);
    tess_store_close(store);
    return 1;
  }
  double px = (double)level->settings.width * level->settings.tile_w;
  double py = (double)level->settings.height * level->settings.tile_h;
  double scale = 1.0;
  while (px * scale > 2048 || py * scale > 2048) scale /= 2;
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_TILES | TESS_RENDER_MATERIALS | TESS_RENDER_OBJECTS | TESS_RENDER_COLLISION |
            TESS_RENDER_BACKGROUND | TESS_RENDER_BOUNDS;
  cairo_surface_t *s = NULL;
  if (tess_render_level_to_surface(p, level, scale, &o, &s, &err) != TESS_OK) {
    fprintf(stderr, "render failed: %s\n", err.detail);
    failures++;
  }
  TessImage got = {0}, want = {0};
  if (s && tess_render_surface_to_image(s, &got, &err) == TESS_OK) {
    snprintf(out, sizeof out, "%s/demo-render.png", tess_test_tmpdir());
    tess_png_save(tess_image_view(&got), out, NULL);
    if (getenv("TESS_UPDATE_REFERENCE")) tess_png_save(tess_image_view(&got), ref, NULL);
    if (tess_png_load(ref, &want, &err) != TESS_OK) {
      printf("SKIP: no reference %s for this demo (TESS_UPDATE_REFERENCE=1 writes it); output in %s\n", ref, out);
      tess_image_clear(&got);
      cairo_surface_destroy(s);
      tess_project_destroy(p);
      tess_store_close(store);
      return 77;
    }
    long bad = 0;
    if (want.width != got.width || want.height != got.height) {
      fprintf(stderr, "size %ux%u, reference %ux%u\n", got.width, got.height, want.width, want.height);
      failures++;
    } else {
      for (uint32_t y = 0; y < got.height; y++)
        for (uint32_t x = 0; x < got.width; x++) {
          const uint8_t *a = got.pixels + y * got.stride + 4 * x, *b = want.pixels + y * want.stride + 4 * x;
          for (int k = 0; k < 4; k++)
            if (abs((int)a[k] - (int)b[k]) > 3 && !(a[3] == 0 && b[3] == 0)) {
              bad++;
              break;
            }
        }
      if (bad) {
        fprintf(stderr, "%ld pixels differ from %s by more than 3 (output %s)\n", bad, ref, out);
        failures++;
      }
    }
  } else {
    failures++;
  }
  tess_image_clear(&got);
  tess_image_clear(&want);
  if (s) cairo_surface_destroy(s);
  tess_project_destroy(p);
  tess_store_close(store);
  if (tess_alloc_live_bytes() != 0) {
    fprintf(stderr, "leak: %lld bytes\n", (long long)tess_alloc_live_bytes());
    failures++;
  }
  return failures ? 1 : 0;
}
