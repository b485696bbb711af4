/* core/base/text.c against an independent judge: jansson's parser decides
 * what valid UTF-8 JSON is. Every 1- and 2-byte string and 300,000 random
 * short ones: tess_utf8_valid agrees with jansson, the JSON quote of any
 * bytes parses and gives the string back when it was UTF-8, and the
 * terminal form never holds a control character. */
#include <jansson.h>

#include "check.h"
#include "tessera/base.h"

/* Does jansson accept s as the contents of a JSON string (no quote, backslash or control)? */
static bool jansson_accepts(const char *s) {
  char doc[64];
  snprintf(doc, sizeof doc, "[\"%s\"]", s);
  json_t *v = json_loads(doc, 0, NULL);
  json_decref(v);
  return v != NULL;
}

static bool plain(const char *s) {
  for (const unsigned char *c = (const unsigned char *)s; *c; c++)
    if (*c < 0x20 || *c == '"' || *c == '\\') return false;
  return true;
}

static void check_one(const char *s) {
  if (plain(s)) CHECK_MSG(tess_utf8_valid(s) == jansson_accepts(s), "disagree on a string of %zu bytes starting %02x",
                          strlen(s), (unsigned char)s[0]);
  char quoted[64], wrapped[80];
  size_t need = tess_text_json_quote(s, quoted, sizeof quoted);
  CHECK(need < sizeof quoted && need == strlen(quoted));
  snprintf(wrapped, sizeof wrapped, "[%s]", quoted);
  json_t *v = json_loads(wrapped, 0, NULL);
  CHECK_MSG(v != NULL, "quote of %02x.. does not parse: %s", (unsigned char)s[0], quoted);
  if (v && tess_utf8_valid(s)) CHECK(strcmp(json_string_value(json_array_get(v, 0)), s) == 0);
  json_decref(v);
  char shown[128];
  tess_text_printable(s, shown, sizeof shown);
  CHECK(tess_utf8_valid(shown));
  for (const unsigned char *c = (const unsigned char *)shown; *c; c++) {
    CHECK(*c >= 0x20 && *c != 0x7F);
    CHECK(!(c[0] == 0xC2 && c[1] >= 0x80 && c[1] < 0xA0));
  }
}

static void every_short_string(void) {
  char s[3] = {0};
  for (int a = 1; a < 256; a++) {
    s[0] = (char)a;
    s[1] = 0;
    check_one(s);
    for (int b = 1; b < 256; b++) {
      s[1] = (char)b;
      check_one(s);
    }
  }
}

static void random_strings(void) {
  static const unsigned char pick[] = {0x00, 0x01, 0x1B, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x9B, 0xA0, 0xBF, 0xC0, 0xC1,
                                       0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0x90, 0x8F};
  TessTestRng rng = {99};
  char s[6];
  for (int i = 0; i < 300000; i++) {
    size_t n = 1 + tess_rng_below(&rng, 5);
    for (size_t k = 0; k < n; k++) {
      s[k] = (char)pick[tess_rng_below(&rng, sizeof pick)];
      if (s[k] == 0) s[k] = 'x';
    }
    s[n] = 0;
    check_one(s);
  }
  /* Known answers. */
  CHECK(tess_utf8_valid("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80"));
  CHECK(!tess_utf8_valid("\xc0\xaf") && !tess_utf8_valid("\xed\xa0\x80") && !tess_utf8_valid("\xf4\x90\x80\x80"));
  char buf[64];
  tess_text_printable("a\033[2Jb\\", buf, sizeof buf);
  CHECK(strcmp(buf, "a\\x1b[2Jb\\\\") == 0);
  tess_text_json_quote("q\"\x01\xff", buf, sizeof buf);
  CHECK(strcmp(buf, "\"q\\\"\\u0001\\ufffd\"") == 0);
  /* Truncation: always terminated, and the length needed is returned. */
  CHECK(tess_text_json_quote("abcdef", buf, 4) == 8 && strlen(buf) == 3);
}

/* File name stems (the .tlv and Tiled exports' one rule): known answers,
 * then every random string gives valid UTF-8 with no byte a file system or
 * a shell would take for something else. */
static void file_stems(void) {
  char out[16];
  static const struct { const char *name, *stem; } known[] = {
      {"Side", "Side"},
      {"../etc/passwd", "_._etc_passwd"},
      {".hidden", "_hidden"},
      {"a b:c\\d", "a_b_c_d"},
      {"caf\xc3\xa9", "caf\xc3\xa9"},
      {"bad\xff", "bad_"},
      {"c1\xc2\x85", "c1_"},
      {"trail...", "trail"},
      {"", "level"},
      {"...", "_"},
      {"CON", "_CON"},
      {"nul.txt", "_nul.txt"},
      {"console", "console"},
      {"\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"},
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    tess_text_file_stem(known[i].name, out, sizeof out, "level");
    CHECK_MSG(strcmp(out, known[i].stem) == 0, "'%s' gave '%s'", known[i].stem, out);
  }
  TessTestRng rng = {7};
  char s[24];
  for (int i = 0; i < 100000; i++) {
    size_t n = tess_rng_below(&rng, sizeof s);
    for (size_t k = 0; k < n; k++) s[k] = (char)(1 + tess_rng_below(&rng, 255));
    s[n] = 0;
    tess_text_file_stem(s, out, sizeof out, "level");
    CHECK(out[0] && out[0] != '.' && tess_utf8_valid(out) && strlen(out) < sizeof out);
    for (const unsigned char *c = (const unsigned char *)out; *c; c++)
      CHECK(*c > 0x20 && *c != 0x7F && !strchr("/\\:*?\"<>| '", *c));
  }
}

TESS_TEST_MAIN(TEST(every_short_string), TEST(random_strings), TEST(file_stems))
