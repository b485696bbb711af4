/* tessera-pipeline import and render --tiles-only on real files: a new
 * project and a second level added to it (tilesets reused), a failed
 * import leaving the project byte for byte as it was, and render parity
 * with Tiled's own tmxrasterizer on Tiled's example maps and on maps this
 * test writes (every encoding, both formats, flips, two tilesets with
 * margin and spacing, an infinite map, groups, opacity, a `trans` colour).
 * Parity: equal size, at most 0.5% of pixels differing by more than 8/255
 * in any channel. Without tmxrasterizer the parity case is skipped (77). */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "project_fixture.h"
#include "check.h"
#include "maps.h"
#include "tessera/image.h"
#include "tessera/store.h"

static uint8_t *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *d = malloc((size_t)n + 1);
  *size = fread(d, 1, (size_t)n, f);
  fclose(f);
  return d;
}

/* ---- The maps this test writes ---- */

#define MW 16
#define MH 12

static const char *tsx_b =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<tileset version=\"1.8\" name=\"b\" tilewidth=\"8\" tileheight=\"8\" spacing=\"2\" margin=\"1\" "
    "tilecount=\"6\" columns=\"3\">\n <image source=\"b.png\" width=\"30\" height=\"20\"/>\n</tileset>\n";

static void ground_gids(uint32_t *g, uint32_t n, uint32_t seed) {
  TessTestRng rng = {0x9E3779B97F4A7C15ull ^ seed};
  static const uint32_t flips[] = {0, 0x80000000u, 0x40000000u, 0x20000000u, 0xA0000000u, 0x60000000u, 0xC0000000u, 0xE0000000u};
  for (uint32_t i = 0; i < n; i++) {
    uint32_t t = 1 + tess_rng_below(&rng, 14); /* 1..8 in a, 9..14 in b */
    g[i] = t | flips[tess_rng_below(&rng, 8)];
  }
}

static void write_assets(const char *dir) {
  char p[700];
  snprintf(p, sizeof p, "%s/a.png", dir);
  maps_write_tileset_png(p, 4, 2, 8, 8, 0, 0, 1, -1);
  snprintf(p, sizeof p, "%s/b.png", dir);
  maps_write_tileset_png(p, 3, 2, 8, 8, 1, 2, 2, -1);
  snprintf(p, sizeof p, "%s/k.png", dir);
  maps_write_tileset_png(p, 2, 1, 8, 8, 0, 0, 7, 0xFF00FF);
  maps_write_file(p, sizeof p, dir, "b.tsx", tsx_b);
}

/* A TMX map: ground (every cell, flips, both tilesets), a group with a
 * half-opaque layer using the keyed tileset, and an object layer "things". */
static void write_tmx(const char *dir, const char *name, const char *enc, const char *comp) {
  uint32_t g[MW * MH], o[MW * MH];
  ground_gids(g, MW * MH, 1);
  for (uint32_t i = 0; i < MW * MH; i++) o[i] = i % 5 == 0 ? 15 + i % 2 : 0;
  char *dg = maps_encode(g, MW * MH, enc, comp), *dov = maps_encode(o, MW * MH, enc, comp);
  const char *c1 = comp[0] ? " compression=\"" : "", *c3 = comp[0] ? "\"" : "";
  char *map = maps_printf(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<map version=\"1.8\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"%d\" height=\"%d\" tilewidth=\"8\" "
      "tileheight=\"8\" infinite=\"0\">\n"
      " <tileset firstgid=\"1\" name=\"a\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"8\" columns=\"4\">\n"
      "  <image source=\"a.png\" width=\"32\" height=\"16\"/>\n </tileset>\n"
      " <tileset firstgid=\"9\" source=\"b.tsx\"/>\n"
      " <tileset firstgid=\"15\" name=\"k\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"2\" columns=\"2\">\n"
      "  <image source=\"k.png\" trans=\"ff00ff\" width=\"16\" height=\"8\"/>\n </tileset>\n"
      " <layer id=\"1\" name=\"ground\" width=\"%d\" height=\"%d\"><data encoding=\"%s\"%s%s%s>%s</data></layer>\n"
      " <group id=\"4\" name=\"grp\" opacity=\"0.8\">\n"
      "  <layer id=\"2\" name=\"over\" width=\"%d\" height=\"%d\" opacity=\"0.75\"><data encoding=\"%s\"%s%s%s>%s</data></layer>\n"
      " </group>\n"
      " <objectgroup id=\"3\" name=\"things\"><object id=\"1\" x=\"8\" y=\"8\" width=\"16\" height=\"16\"/>"
      "<object id=\"2\" gid=\"3\" x=\"32\" y=\"40\" width=\"8\" height=\"8\"/></objectgroup>\n"
      "</map>\n",
      MW, MH, MW, MH, enc, c1, comp, c3, dg, MW, MH, enc, c1, comp, c3, dov);
  char path[700];
  maps_write_file(path, sizeof path, dir, name, map);
  free(map);
  free(dg);
  free(dov);
}

static void write_tmj(const char *dir, const char *name) {
  uint32_t g[MW * MH];
  ground_gids(g, MW * MH, 2);
  char *dg = maps_encode(g, MW * MH, "base64", "zstd");
  char *map = maps_printf(
      "{\"type\":\"map\",\"orientation\":\"orthogonal\",\"width\":%d,\"height\":%d,\"tilewidth\":8,\"tileheight\":8,"
      "\"infinite\":false,\"tilesets\":[{\"firstgid\":1,\"name\":\"a\",\"tilewidth\":8,\"tileheight\":8,\"tilecount\":8,"
      "\"columns\":4,\"image\":\"a.png\",\"imagewidth\":32,\"imageheight\":16},{\"firstgid\":9,\"source\":\"b.tsx\"}],"
      "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"ground\",\"width\":%d,\"height\":%d,\"encoding\":\"base64\","
      "\"compression\":\"zstd\",\"data\":\"%s\",\"opacity\":1,\"visible\":true,\"x\":0,\"y\":0}]}",
      MW, MH, MW, MH, dg);
  char path[700];
  maps_write_file(path, sizeof path, dir, name, map);
  free(map);
  free(dg);
}

/* Infinite: two 16x16 chunks, diagonal to each other, both tilesets and flips. */
static void write_infinite(const char *dir, const char *name) {
  uint32_t a[256], b[256];
  ground_gids(a, 256, 3);
  ground_gids(b, 256, 4);
  for (int i = 0; i < 256; i += 3) b[i] = 0;
  char *ea = maps_encode(a, 256, "base64", "gzip"), *eb = maps_encode(b, 256, "csv", "");
  char *map = maps_printf(
      "<map version=\"1.8\" orientation=\"orthogonal\" width=\"30\" height=\"20\" tilewidth=\"8\" tileheight=\"8\" infinite=\"1\">\n"
      " <tileset firstgid=\"1\" name=\"a\" tilewidth=\"8\" tileheight=\"8\"><image source=\"a.png\" width=\"32\" height=\"16\"/></tileset>\n"
      " <tileset firstgid=\"9\" source=\"b.tsx\"/>\n"
      " <layer id=\"1\" name=\"one\" width=\"30\" height=\"20\"><data encoding=\"base64\" compression=\"gzip\">"
      "<chunk x=\"-16\" y=\"-16\" width=\"16\" height=\"16\">%s</chunk></data></layer>\n"
      " <layer id=\"2\" name=\"two\" width=\"30\" height=\"20\"><data encoding=\"csv\">"
      "<chunk x=\"0\" y=\"0\" width=\"16\" height=\"16\">%s</chunk></data></layer>\n"
      "</map>\n",
      ea, eb);
  char path[700];
  maps_write_file(path, sizeof path, dir, name, map);
  free(map);
  free(ea);
  free(eb);
}

/* ---- Comparison ---- */

/* Pixels of a and b (straight RGBA) differing by more than 8/255 in any channel; fully transparent pixels compare equal whatever their colour. */
static double differing_fraction(const TessImage *a, const TessImage *b) {
  size_t bad = 0;
  for (uint32_t y = 0; y < a->height; y++)
    for (uint32_t x = 0; x < a->width; x++) {
      const uint8_t *p = a->pixels + y * a->stride + 4 * x, *q = b->pixels + y * b->stride + 4 * x;
      if (p[3] == 0 && q[3] == 0) continue;
      for (int c = 0; c < 4; c++)
        if (abs((int)p[c] - (int)q[c]) > 8) {
          bad++;
          break;
        }
    }
  return (double)bad / ((double)a->width * a->height);
}

static double opaque_fraction(const TessImage *a) {
  size_t n = 0;
  for (uint32_t y = 0; y < a->height; y++)
    for (uint32_t x = 0; x < a->width; x++) n += a->pixels[y * a->stride + 4 * x + 3] != 0;
  return (double)n / ((double)a->width * a->height);
}

static bool have_rasterizer(void) { return tess_test_system("command -v tmxrasterizer >/dev/null 2>&1") == 0; }

/* Imports `map` into a new project, renders its tile layers, and compares with tmxrasterizer's image. */
static void parity(const char *map, const char *hide) {
  const char *dir = tess_test_tmpdir();
  char proj[800], ours[800], theirs[800];
  const char *base = strrchr(map, '/') ? strrchr(map, '/') + 1 : map;
  snprintf(proj, sizeof proj, "%s/parity-%s.tessera", dir, base);
  snprintf(ours, sizeof ours, "%s/parity-%s.tess.png", dir, base);
  snprintf(theirs, sizeof theirs, "%s/parity-%s.tiled.png", dir, base);
  unlink(proj);
  CHECK_MSG(tess_test_system("'%s' import '%s' -o '%s' --quiet 2>/dev/null", tess_test_pipeline(), map, proj) == 0, "import %s", map);
  CHECK_MSG(tess_test_system("'%s' render '%s' --tiles-only -o '%s' 2>/dev/null", tess_test_pipeline(), proj, ours) == 0, "render %s", map);
  CHECK_MSG(tess_test_system("QT_QPA_PLATFORM=offscreen tmxrasterizer %s%s%s '%s' '%s' >/dev/null 2>&1", hide ? "--hide-layer '" : "",
                             hide ? hide : "", hide ? "'" : "", map, theirs) == 0,
            "tmxrasterizer %s", map);
  TessImage a, b;
  TessError err;
  if (tess_png_load(ours, &a, &err) != TESS_OK) {
    CHECK_MSG(false, "no image from render for %s", map);
    return;
  }
  if (tess_png_load(theirs, &b, &err) != TESS_OK) {
    CHECK_MSG(false, "no image from tmxrasterizer for %s", map);
    tess_image_clear(&a);
    return;
  }
  CHECK_MSG(a.width == b.width && a.height == b.height, "%s: %ux%u vs tmxrasterizer %ux%u", base, a.width, a.height, b.width,
            b.height);
  if (a.width == b.width && a.height == b.height) {
    double f = differing_fraction(&a, &b);
    printf("parity %-28s %4ux%-4u %.4f%% of pixels differ by more than 8/255 (%.1f%% drawn)\n", base, a.width, a.height,
           100 * f, 100 * opaque_fraction(&b));
    CHECK_MSG(opaque_fraction(&a) > 0.2, "%s: nearly nothing drawn", base);
    CHECK_MSG(f <= 0.005, "%s: %.3f%% of pixels differ", base, 100 * f);
  }
  tess_image_clear(&a);
  tess_image_clear(&b);
}

static void test_render_parity_with_tmxrasterizer(void) {
  if (!have_rasterizer()) {
    printf("tmxrasterizer not installed: skipped\n");
    exit(77);
  }
  const char *dir = tess_test_tmpdir();
  write_assets(dir);
  static const char *enc[][2] = {{"csv", ""}, {"base64", ""}, {"base64", "zlib"}, {"base64", "gzip"}, {"base64", "zstd"}};
  char path[800];
  for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
    char name[64];
    snprintf(name, sizeof name, "gen-%s%s%s.tmx", enc[i][0], enc[i][1][0] ? "-" : "", enc[i][1]);
    write_tmx(dir, name, enc[i][0], enc[i][1]);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    parity(path, "things");
  }
  write_tmj(dir, "gen.tmj");
  snprintf(path, sizeof path, "%s/gen.tmj", dir);
  parity(path, NULL);
  /* The comparison itself tells maps apart: gen.tmj's ground (another seed) against gen-csv's picture. */
  char ours[800], theirs[800];
  snprintf(ours, sizeof ours, "%s/parity-gen.tmj.tess.png", dir);
  snprintf(theirs, sizeof theirs, "%s/parity-gen-csv.tmx.tiled.png", dir);
  TessImage a, b;
  TessError err;
  if (tess_png_load(ours, &a, &err) == TESS_OK) {
    if (tess_png_load(theirs, &b, &err) == TESS_OK) {
      CHECK(a.width == b.width && differing_fraction(&a, &b) > 0.5);
      tess_image_clear(&b);
    }
    tess_image_clear(&a);
  }
  {
    /* An image collection (sparse ids) packed into an atlas, with flips. */
    char png[800];
    for (int i = 0; i < 3; i++) {
      snprintf(png, sizeof png, "%s/coll%d.png", dir, i);
      maps_write_tileset_png(png, 1, 1, 8, 8, 0, 0, 40 + (uint32_t)i, -1);
    }
    uint32_t g[MW * MH];
    ground_gids(g, MW * MH, 5);
    static const uint32_t ids[] = {1, 6, 8};
    for (uint32_t i = 0; i < MW * MH; i++) g[i] = ids[(g[i] & 0xFF) % 3] | (g[i] & 0xE0000000u);
    char *csv = maps_encode(g, MW * MH, "csv", "");
    char *map = maps_printf(
        "<map orientation=\"orthogonal\" width=\"%d\" height=\"%d\" tilewidth=\"8\" tileheight=\"8\">\n"
        "<tileset firstgid=\"1\" name=\"coll\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"3\" columns=\"0\">\n"
        " <tile id=\"0\"><image source=\"coll0.png\" width=\"8\" height=\"8\"/></tile>\n"
        " <tile id=\"5\"><image source=\"coll1.png\" width=\"8\" height=\"8\"/></tile>\n"
        " <tile id=\"7\"><image source=\"coll2.png\" width=\"8\" height=\"8\"/></tile>\n"
        "</tileset>\n<layer name=\"l\" width=\"%d\" height=\"%d\"><data encoding=\"csv\">%s</data></layer></map>",
        MW, MH, MW, MH, csv);
    maps_write_file(path, sizeof path, dir, "gen-collection.tmx", map);
    free(map);
    free(csv);
    parity(path, NULL);
  }
  write_infinite(dir, "gen-infinite.tmx");
  snprintf(path, sizeof path, "%s/gen-infinite.tmx", dir);
  parity(path, NULL);
  /* Tiled's own examples that are orthogonal with tiles the size of the grid. */
  const char *ex = "/usr/share/doc/tiled/examples";
  static const char *maps[][2] = {{"desert.tmx", NULL}, {"sewers.tmx", NULL}, {"rpg/island.tmx", "Objects"}};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", ex, maps[i][0]);
    if (access(path, R_OK) == 0) parity(path, maps[i][1]);
  }
  snprintf(path, sizeof path, "%s/orthogonal-outside.tmx.gz", ex);
  if (access(path, R_OK) == 0) {
    /* The map is shipped gzipped; its tileset image sits beside it. */
    CHECK(tess_test_system("cp '%s/orthogonal-outside.tmx.gz' '%s/buch-outdoor.png' '%s/' && gunzip -f '%s/orthogonal-outside.tmx.gz'", ex, ex,
                           dir, dir) == 0);
    snprintf(path, sizeof path, "%s/orthogonal-outside.tmx", dir);
    parity(path, "Objects");
  }
}

/* A new project, then the same map again as a second level: tilesets reused. */
static void test_import_new_and_add(void) {
  const char *dir = tess_test_tmpdir();
  write_assets(dir);
  write_tmx(dir, "first.tmx", "csv", "");
  write_tmj(dir, "second.tmj");
  char proj[700];
  snprintf(proj, sizeof proj, "%s/game.tessera", dir);
  unlink(proj);
  CHECK(tess_test_system("cd '%s' && '%s' import first.tmx -o game.tessera --quiet 2>/dev/null", dir, tess_test_pipeline()) == 0);
  CHECK(tess_test_system("cd '%s' && '%s' import second.tmj -o game.tessera --level Two --quiet 2>/dev/null", dir, tess_test_pipeline()) == 0);
  TessProject *p = tess_test_load_read_only(proj);
  if (!p) return;
  CHECK(p->level_count == 2 && tess_project_level_by_name(p, "first") && tess_project_level_by_name(p, "Two"));
  CHECK_MSG(p->tileset_count == 3, "tilesets a, b, k once each: %u", p->tileset_count);
  CHECK(p->sprite_count == 1); /* the tile object */
  tess_project_destroy(p);
}

/* A failed import (bad map, a level name already taken) exits 1 and leaves the project's bytes as they were. */
static void test_failed_import_changes_nothing(void) {
  const char *dir = tess_test_tmpdir();
  write_assets(dir);
  write_tmx(dir, "good.tmx", "base64", "zlib");
  char proj[700], bad[700];
  snprintf(proj, sizeof proj, "%s/keep.tessera", dir);
  unlink(proj);
  CHECK(tess_test_system("cd '%s' && '%s' import good.tmx -o keep.tessera --quiet 2>/dev/null", dir, tess_test_pipeline()) == 0);
  size_t n0 = 0, n1 = 0;
  uint8_t *before = slurp(proj, &n0);
  maps_write_file(bad, sizeof bad, dir, "bad.tmx",
                  "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">"
                  "<tileset firstgid=\"1\" source=\"b.tsx\"/><layer name=\"l\" width=\"2\" height=\"1\">"
                  "<data encoding=\"csv\">1,99</data></layer></map>");
  CHECK(tess_test_system("cd '%s' && '%s' import bad.tmx -o keep.tessera 2>/dev/null", dir, tess_test_pipeline()) == 1);
  CHECK(tess_test_system("cd '%s' && '%s' import good.tmx -o keep.tessera 2>/dev/null", dir, tess_test_pipeline()) == 1); /* level 'good' exists */
  uint8_t *after = slurp(proj, &n1);
  CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0);
  free(before);
  free(after);
  /* No project is created by a failed import either. */
  CHECK(tess_test_system("cd '%s' && '%s' import bad.tmx -o none.tessera 2>/dev/null", dir, tess_test_pipeline()) == 1);
  char none[700];
  snprintf(none, sizeof none, "%s/none.tessera", dir);
  CHECK(access(none, F_OK) != 0);
  /* The map itself as the output is refused by the pipeline's shared output check. */
  CHECK(tess_test_system("cd '%s' && '%s' import good.tmx -o good.tmx 2>/dev/null", dir, tess_test_pipeline()) == 1);
  CHECK(tess_test_system("cd '%s' && '%s' import good.tmx -o ./good.tmx 2>/dev/null", dir, tess_test_pipeline()) == 1);
}

TESS_TEST_MAIN(TEST(test_import_new_and_add), TEST(test_failed_import_changes_nothing),
               TEST(test_render_parity_with_tmxrasterizer))
