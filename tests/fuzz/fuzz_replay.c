/* Replays fuzz inputs through a target's LLVMFuzzerTestOneInput without
 * libFuzzer: the seed corpus runs in every normal test run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      return 1;
    }
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0, n;
    for (;;) {
      if (size == cap) {
        cap = cap ? cap * 2 : 65536;
        uint8_t *grown = realloc(buf, cap);
        if (!grown) return 1;
        buf = grown;
      }
      n = fread(buf + size, 1, cap - size, f);
      if (n == 0) break;
      size += n;
    }
    fclose(f);
    /* The whole file, then every prefix at a coarse stride (cheap variety). */
    LLVMFuzzerTestOneInput(buf, size);
    for (size_t len = 0; len < size; len += 1 + size / 64) LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    printf("replayed %s (%zu bytes)\n", argv[i], size);
  }
  return 0;
}
