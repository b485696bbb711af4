/* The reader built alone, as a game would: no Tessera core, no test
 * harness, strict C99 (and, through test_reader_cpp.cpp, C++). Opens each
 * .tlv named on the command line, reads it through the accessors, and
 * checks that a flipped byte and a truncation are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlv_reader.h"

static int failures = 0;

#define EXPECT(cond)                                                     \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                        \
    }                                                                    \
  } while (0)

static unsigned char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf;
  long n;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = (unsigned char *)malloc(n > 0 ? (size_t)n : 1u);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

static void check_file(const char *path) {
  size_t size = 0, i;
  unsigned char *data = read_all(path, &size);
  TlvLevel lv;
  TlvError err;
  TlvResult r;
  unsigned long cells = 0;
  EXPECT(data != NULL);
  if (!data) return;
  r = tlv_open(data, size, 0, &lv, &err);
  if (r != TLV_OK) fprintf(stderr, "%s: byte %lu: %s\n", path, (unsigned long)err.offset, err.message);
  EXPECT(r == TLV_OK);
  if (r == TLV_OK) {
    TlvLayer layer;
    uint32_t x, y;
    EXPECT(lv.settings.width >= 1 && lv.materials.count > 0);
    for (i = 0; i < lv.layers.count; i++) {
      EXPECT(tlv_layer(&lv, (uint32_t)i, &layer));
      for (y = 0; y < lv.settings.height; y++)
        for (x = 0; x < lv.settings.width; x++)
          if (tlv_layer_cell(&lv, &layer, x, y)) cells++;
    }
    for (i = 0; i < lv.bodies.count; i++) {
      TlvBody b;
      TlvShape s;
      EXPECT(tlv_body(&lv, (uint32_t)i, &b));
      EXPECT(b.shape_count == 0 || tlv_shape(&lv, b.shape_first, &s));
      EXPECT(b.mass >= 0.0f);
    }
    printf("%s: %ux%u, %u layers, %lu cells in use, %u bodies, %u loops\n", path, (unsigned)lv.settings.width,
           (unsigned)lv.settings.height, (unsigned)lv.layers.count, cells, (unsigned)lv.bodies.count,
           (unsigned)lv.loops.count);
  }
  /* One flipped byte in every section, and a truncation: refused. */
  for (i = 0; i < size; i += 1 + size / 97) {
    data[i] ^= 0x40;
    EXPECT(tlv_open(data, size, 0, &lv, &err) != TLV_OK);
    data[i] ^= 0x40;
  }
  EXPECT(tlv_open(data, size - 16, 0, &lv, &err) == TLV_ERR_TRUNCATED);
  free(data);
}

int main(int argc, char **argv) {
  int i;
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE.tlv...\n", argv[0]);
    return 2;
  }
  for (i = 1; i < argc; i++) check_file(argv[i]);
  return failures ? 1 : 0;
}
