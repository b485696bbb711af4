/* Golden files: the demo project's levels, exported and checked in under
 * tests/golden/demo. The writer must reproduce them byte for byte, so any
 * change of the format or of the writer's output shows up here as a diff
 * (and needs a bump of TLV_VERSION_MINOR/MAJOR or TESS_PACK_WRITER_VERSION
 * plus regenerated files:
 *   build/pipeline/tessera-pipeline export build/data/demo/demo.tessera -o tests/golden/demo --force).
 * core/scene's numbers are part of the output too: when they change, the
 * writer version must change with them, or incremental exports would keep
 * files made by the old rules.
 * When the demo project itself changes (its generator in data/demo), the
 * level's source hash no longer matches the golden file's: the case fails,
 * naming both hashes, so the golden files are renewed with the change
 * rather than silently checking nothing. */
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "project_fixture.h"
#include "pack_check.h"
#include "tessera/pack.h"
#include "tessera/store.h"
#include "tlv_reader.h"

static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  return buf;
}

static void golden_files_validate(void) {
  const char *src = getenv("TESS_SOURCE_ROOT");
  static const char *files[] = {"Side.tlv", "Top-down.tlv"};
  for (size_t i = 0; i < 2; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/tests/golden/demo/%s", src ? src : ".", files[i]);
    size_t size = 0;
    char *data = slurp(path, &size);
    CHECK_MSG(data != NULL, "%s missing", path);
    if (!data) continue;
    TlvLevel lv;
    TlvError err;
    CHECK_MSG(tlv_open(data, size, 0, &lv, &err) == TLV_OK, "%s: byte %llu: %s", path, (unsigned long long)err.offset, err.message);
    CHECK(lv.header.major == TLV_VERSION_MAJOR && lv.header.minor == TLV_VERSION_MINOR);
    free(data);
  }
}

static void writer_reproduces_the_golden_files(void) {
  const char *src = getenv("TESS_SOURCE_ROOT"), *build = getenv("TESS_BUILD_ROOT");
  char demo[2048];
  snprintf(demo, sizeof demo, "%s/data/demo/demo.tessera", build ? build : ".");
  if (access(demo, R_OK) != 0) {
    printf("  (no demo project at %s: skipped)\n", demo);
    return;
  }
  TessProject *p = tess_test_load_read_only(demo);
  TessError err;
  if (!p) return;
  for (uint32_t i = 0; i < p->level_count; i++) {
    const TessLevel *level = p->levels[i];
    char path[2048];
    snprintf(path, sizeof path, "%s/tests/golden/demo/%s.tlv", src ? src : ".", level->settings.name);
    size_t gsize = 0;
    char *golden = slurp(path, &gsize);
    CHECK_MSG(golden != NULL, "no golden file %s for demo level '%s'", path, level->settings.name);
    if (!golden) continue;
    TlvLevel glv;
    TlvError terr;
    if (tlv_open(golden, gsize, 0, &glv, &terr) != TLV_OK) {
      CHECK_MSG(0, "%s does not validate: %s", path, terr.message);
      free(golden);
      continue;
    }
    uint64_t now = tess_level_content_hash(p, level);
    if (glv.header.source_hash != now) {
      CHECK_MSG(0, "demo level '%s' changed (golden source hash %016llx, now %016llx): regenerate the golden files",
                level->settings.name, (unsigned long long)glv.header.source_hash, (unsigned long long)now);
      free(golden);
      continue;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK_OK(tess_pack_write(p, level, NULL, &data, &size, &err), &err);
    bool same = data && size == gsize && memcmp(data, golden, size) == 0;
    CHECK_MSG(same,
              "demo level '%s': the writer's output differs from %s (same source). A change of the format, of the "
              "writer or of core/scene's numbers needs a version bump (FORMAT.md, TESS_PACK_WRITER_VERSION: it is "
              "part of every content hash, so incremental exports rewrite stale files) and regenerated golden files",
              level->settings.name, path);
    if (!same && data && size == gsize)
      for (size_t k = 0; k < size; k++)
        if (data[k] != (uint8_t)golden[k]) {
          printf("  first difference at byte %zu\n", k);
          break;
        }
    pack_check_level(p, level, &glv);
    tess_free(data);
    free(golden);
  }
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(golden_files_validate), TEST(writer_reproduces_the_golden_files))
