/* Every single-byte mutation of small real .tlv files, checksums recomputed
 * after the flip (tlv_reseal) so that only the reader's semantic checks
 * stand between the mutant and a game: each mutant the reader accepts must
 * keep every rule of FORMAT.md, as tlv_spec_check (this directory's own
 * reading of the spec, sharing no code with the reader) verifies. And each
 * mutant the reader refuses must break a rule: the reader is no stricter
 * than the spec either.
 *
 * The files: the demo's top-down level (format 3.2; pack-spec reads the
 * side one), a generated level as format 3.1 wrote it (flipped tiles'
 * pieces wound either way), and two generated seeds, one with embedded
 * images. Flips: the low bit and the high bit of every byte, all bits of
 * the low byte of every word. (Sized to run in seconds, and well under a
 * minute under AddressSanitizer.) */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tlv_reader.h"
#include "tlv_reseal.h"
#include "tlv_spec_check.h"

static uint8_t *slurp(const char *rel, size_t *size) {
  const char *src = getenv("TESS_SOURCE_ROOT");
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", src ? src : ".", rel);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = n > 0 ? malloc((size_t)n) : NULL;
  *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  return buf;
}

static void every_accepted_mutant_keeps_the_spec(void) {
  static const char *files[] = {"tests/golden/demo/Top-down.tlv", "tests/golden/format-3.1/seed-2.tlv", "tests/fuzz/corpus/tlv/seed-1.tlv",
                                "tests/fuzz/corpus/tlv/seed-3.tlv"};
  static const uint8_t flips[] = {0x01, 0x80, 0xFF};
  uint64_t mutants = 0, accepted = 0, accepted_invalid = 0, refused_valid = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    size_t size = 0;
    uint8_t *orig = slurp(files[f], &size);
    CHECK_MSG(orig != NULL, "%s missing", files[f]);
    if (!orig) continue;
    char why[256];
    TlvLevel lv;
    TlvError err;
    CHECK_MSG(tlv_open(orig, size, 0, &lv, &err) == TLV_OK, "%s: %s", files[f], err.message);
    CHECK_MSG(tlv_spec_check(orig, size, why, sizeof why), "%s breaks the spec: %s", files[f], why);
    uint8_t *m = malloc(size);
    uint64_t file_accepted = 0, file_mutants = 0;
    for (size_t i = 0; i < size; i++) {
      for (size_t k = 0; k < sizeof flips; k++) {
        if (flips[k] == 0xFF && i % 4) continue; /* all bits: the low byte of each word (a count, an index, a flag) */
        memcpy(m, orig, size);
        m[i] ^= flips[k];
        tlv_reseal(m, size);
        if (memcmp(m, orig, size) == 0) continue; /* a checksum byte: resealing undid it */
        file_mutants++;
        bool ok = tlv_open(m, size, 0, &lv, &err) == TLV_OK;
        bool valid = tlv_spec_check(m, size, why, sizeof why);
        if (ok) file_accepted++;
        if (ok && !valid) {
          if (accepted_invalid < 12) printf("  accepted, breaks the spec: %s byte %zu ^ 0x%02x: %s\n", files[f], i, flips[k], why);
          accepted_invalid++;
        }
        if (!ok && valid) {
          if (refused_valid < 12)
            printf("  refused, keeps the spec: %s byte %zu ^ 0x%02x: %s (byte %llu)\n", files[f], i, flips[k], err.message,
                   (unsigned long long)err.offset);
          refused_valid++;
        }
      }
    }
    printf("  %s: %llu mutants, %llu accepted\n", files[f], (unsigned long long)file_mutants, (unsigned long long)file_accepted);
    mutants += file_mutants;
    accepted += file_accepted;
    free(m);
    free(orig);
  }
  printf("  %llu mutants: %llu accepted by the reader, of which %llu break the spec; %llu refused that keep it\n",
         (unsigned long long)mutants, (unsigned long long)accepted, (unsigned long long)accepted_invalid,
         (unsigned long long)refused_valid);
  CHECK(mutants > 60000);
  CHECK_MSG(accepted_invalid == 0, "%llu accepted mutants break FORMAT.md", (unsigned long long)accepted_invalid);
  CHECK_MSG(refused_valid == 0, "%llu refused mutants keep FORMAT.md", (unsigned long long)refused_valid);
}

TESS_TEST_MAIN(TEST(every_accepted_mutant_keeps_the_spec))
