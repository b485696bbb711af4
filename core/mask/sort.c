/* Stable sort of (key, value) pairs by key.
 *
 * The decomposition sorts thousands of small arrays (triangle edges by
 * their end points, diagonals by length, ring vertices by z-order): qsort
 * with a compare callback spent more time calling the callback than
 * comparing. A least-significant-digit radix sort over the key's bytes is
 * linear, and bytes on which no two keys differ get no pass (keys made of
 * two indices below 256 need two of the eight). Where the passes needed
 * would cost more than merging (short arrays: a pass's 256 counters; keys
 * differing in many bytes), the pairs are merge-sorted instead
 * (insertion-sorted runs, merged bottom up).
 * All three are stable, so equal keys keep their order, as glibc's merge sort
 * did: the output of the decomposition does not depend on the sort. */
#include <string.h>

#include "mask_private.h"

#define INSERTION_MAX 24

/* Bottom-up merge sort: runs of INSERTION_MAX sorted in place, then merged
 * pairwise, the left run winning ties (stable). */
static void merge_sort(uint64_t *kv, uint64_t *tmp, size_t n) {
  for (size_t a = 0; a < n; a += INSERTION_MAX) {
    size_t e = a + INSERTION_MAX < n ? a + INSERTION_MAX : n;
    for (size_t i = a + 1; i < e; i++) {
      uint64_t k = kv[2 * i], v = kv[2 * i + 1];
      size_t j = i;
      while (j > a && kv[2 * (j - 1)] > k) {
        kv[2 * j] = kv[2 * (j - 1)];
        kv[2 * j + 1] = kv[2 * (j - 1) + 1];
        j--;
      }
      kv[2 * j] = k;
      kv[2 * j + 1] = v;
    }
  }
  uint64_t *src = kv, *dst = tmp;
  for (size_t width = INSERTION_MAX; width < n; width *= 2) {
    for (size_t a = 0; a < n; a += 2 * width) {
      size_t m = a + width < n ? a + width : n, e = a + 2 * width < n ? a + 2 * width : n;
      size_t i = a, j = m, o = a;
      while (i < m && j < e) {
        size_t from = src[2 * j] < src[2 * i] ? j++ : i++;
        dst[2 * o] = src[2 * from];
        dst[2 * o + 1] = src[2 * from + 1];
        o++;
      }
      if (i < m) memcpy(dst + 2 * o, src + 2 * i, sizeof *src * 2 * (m - i));
      else if (j < e) memcpy(dst + 2 * o, src + 2 * j, sizeof *src * 2 * (e - j));
    }
    uint64_t *sw = src;
    src = dst;
    dst = sw;
  }
  if (src != kv) memcpy(kv, src, sizeof *kv * 2 * n);
}

void mask_sort_pairs(uint64_t *kv, uint64_t *tmp, size_t n) {
  if (n < 2) return;
  if (n <= INSERTION_MAX) {
    for (size_t i = 1; i < n; i++) {
      uint64_t k = kv[2 * i], v = kv[2 * i + 1];
      size_t j = i;
      while (j > 0 && kv[2 * (j - 1)] > k) {
        kv[2 * j] = kv[2 * (j - 1)];
        kv[2 * j + 1] = kv[2 * (j - 1) + 1];
        j--;
      }
      kv[2 * j] = k;
      kv[2 * j + 1] = v;
    }
    return;
  }
  /* Bytes on which keys differ: only those need a pass. */
  uint64_t any = 0, all = ~(uint64_t)0;
  for (size_t i = 0; i < n; i++) {
    any |= kv[2 * i];
    all &= kv[2 * i];
  }
  uint64_t differ = any ^ all;
  /* A radix pass touches 256 counters twice and every pair twice; a merge
   * level every pair once (twice over counting the insertion-sorted runs). */
  size_t passes = 0, levels = 2;
  for (int b = 0; b < 8; b++) passes += ((differ >> (8 * b)) & 0xff) != 0;
  for (size_t width = INSERTION_MAX; width < n; width *= 2) levels++;
  if (passes * (512 + 2 * n) > levels * 2 * n) {
    merge_sort(kv, tmp, n);
    return;
  }
  uint32_t count[256];
  uint64_t *src = kv, *dst = tmp;
  for (int b = 0; b < 8; b++) {
    int shift = 8 * b;
    if (((differ >> shift) & 0xff) == 0) continue;
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) count[(src[2 * i] >> shift) & 0xff]++;
    uint32_t sum = 0;
    for (int d = 0; d < 256; d++) {
      uint32_t t = count[d];
      count[d] = sum;
      sum += t;
    }
    for (size_t i = 0; i < n; i++) {
      uint32_t at = count[(src[2 * i] >> shift) & 0xff]++;
      dst[2 * at] = src[2 * i];
      dst[2 * at + 1] = src[2 * i + 1];
    }
    uint64_t *sw = src;
    src = dst;
    dst = sw;
  }
  if (src != kv) memcpy(kv, src, sizeof *kv * 2 * n);
}
