/* UTF-8 well-formedness (RFC 3629, table 3-7 of the Unicode standard):
 * names reach file names, JSON and terminals, so bytes that are not text
 * are refused where they enter rather than escaped everywhere they leave. */
#include "tessera/base.h"

bool tess_utf8_valid(const char *str, size_t len, size_t *bad) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0;
  while (i < len) {
    unsigned char c = s[i];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0x01 && c <= 0x7F) {
      i++;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0) lo = 0xA0;      /* overlong */
      else if (c == 0xED) hi = 0x9F; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0) lo = 0x90;      /* overlong */
      else if (c == 0xF4) hi = 0x8F; /* above U+10FFFF */
    } else {
      if (bad) *bad = i; /* NUL, a continuation byte alone, C0, C1, F5..FF */
      return false;
    }
    if (len - i < n || s[i + 1] < lo || s[i + 1] > hi) {
      if (bad) *bad = i;
      return false;
    }
    for (size_t k = 2; k < n; k++)
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) {
        if (bad) *bad = i;
        return false;
      }
    i += n;
  }
  return true;
}
