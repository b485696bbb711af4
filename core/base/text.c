/* Text that leaves the program: names (levels, objects, files) are bytes a
 * user or another tool chose, and may hold anything. JSON must be valid
 * UTF-8 with control characters escaped; a terminal must never receive an
 * escape sequence from a name. These two escapes are the only way names
 * reach JSON or a terminal, in core and in the pipeline. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tessera/base.h"

size_t tess_utf8_sequence(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  unsigned char c = p[0];
  if (c < 0x80) return c ? 1 : 0;
  size_t len;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
  else return 0; /* a continuation byte, an overlong lead (C0, C1) or beyond U+10FFFF */
  for (size_t k = 1; k < len; k++) {
    if ((p[k] & 0xC0) != 0x80) return 0; /* also stops at the terminating NUL */
    cp = cp << 6 | (p[k] & 0x3F);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0; /* overlong, too big */
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;                                              /* a surrogate */
  return len;
}

bool tess_utf8_valid(const char *s) {
  while (*s) {
    size_t n = tess_utf8_sequence(s);
    if (n == 0) return false;
    s += n;
  }
  return true;
}

/* Appends up to n bytes, always NUL-terminated; returns the length it needed. */
static size_t put(char *out, size_t size, size_t at, const char *bytes, size_t n) {
  if (at < size) {
    size_t room = size - at - 1;
    memcpy(out + at, bytes, n < room ? n : room);
    out[at + (n < room ? n : room)] = 0;
  }
  return at + n;
}

size_t tess_text_json_quote(const char *s, char *out, size_t size) {
  if (size) out[0] = 0;
  size_t at = put(out, size, 0, "\"", 1);
  while (*s) {
    unsigned char c = (unsigned char)*s;
    size_t n = tess_utf8_sequence(s);
    char esc[8];
    if (c == '"' || c == '\\') {
      esc[0] = '\\', esc[1] = (char)c;
      at = put(out, size, at, esc, 2);
    } else if ((n == 1 && (c < 0x20 || c == 0x7F)) || (n == 2 && c == 0xC2 && (unsigned char)s[1] < 0xA0)) {
      /* C0, DEL and C1 controls: legal raw in JSON, but not on a terminal that shows the file. */
      snprintf(esc, sizeof esc, "\\u%04x", n == 1 ? c : (unsigned char)s[1]);
      at = put(out, size, at, esc, 6);
    } else if (n == 0) {
      at = put(out, size, at, "\\ufffd", 6); /* a byte that is not UTF-8: the replacement character */
      n = 1;
    } else {
      at = put(out, size, at, s, n);
    }
    s += n;
  }
  return put(out, size, at, "\"", 1);
}

size_t tess_text_printable(const char *s, char *out, size_t size) {
  if (size) out[0] = 0;
  size_t at = 0;
  while (*s) {
    unsigned char c = (unsigned char)*s;
    size_t n = tess_utf8_sequence(s);
    /* C1 controls (U+0080..U+009F, "\xc2\x80".."\xc2\x9f") act on terminals too. */
    bool control = n == 1 ? (c < 0x20 || c == 0x7F) : n == 2 && c == 0xC2 && (unsigned char)s[1] < 0xA0;
    if (n == 0 || control || c == '\\') {
      char esc[16];
      if (n == 0) n = 1;
      int k = 0;
      for (size_t i = 0; i < n; i++) k += snprintf(esc + k, sizeof esc - (size_t)k, "\\x%02x", (unsigned char)s[i]);
      if (c == '\\') k = snprintf(esc, sizeof esc, "\\\\");
      at = put(out, size, at, esc, (size_t)k);
    } else {
      at = put(out, size, at, s, n);
    }
    s += n;
  }
  return at;
}

/* ---- File name stems ---------------------------------------------------- */

static bool reserved_on_windows(const char *name) {
  static const char *words[] = {"con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7",
                                "com8", "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9"};
  char low[8];
  size_t n = strcspn(name, ".");
  if (n >= sizeof low) return false;
  for (size_t i = 0; i < n; i++) low[i] = (char)tolower((unsigned char)name[i]);
  low[n] = 0;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(low, words[i]) == 0) return true;
  return false;
}

void tess_text_file_stem(const char *name, char *out, size_t size, const char *fallback) {
  size_t limit = size - 1, n = 0;
  for (const char *p = name; *p && n < limit;) {
    unsigned char c = (unsigned char)*p;
    size_t len = tess_utf8_sequence(p);
    bool c1_control = len == 2 && c == 0xC2 && (unsigned char)p[1] < 0xA0;
    if (len > 1 && !c1_control) {
      if (n + len > limit) break;
      memcpy(out + n, p, len);
      n += len;
      p += len;
      continue;
    }
    bool keep = len == 1 && (isalnum(c) || c == '-' || c == '_' || (c == '.' && n > 0));
    out[n++] = keep ? (char)c : '_';
    p += len > 1 ? len : 1;
  }
  while (n > 0 && out[n - 1] == '.') n--;
  out[n] = 0;
  if (n == 0) snprintf(out, size, "%s", fallback);
  if (reserved_on_windows(out) && strlen(out) + 2 <= size) {
    memmove(out + 1, out, strlen(out) + 1);
    out[0] = '_';
  }
}
