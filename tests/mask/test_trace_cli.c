/* tessera-pipeline trace, run as a user would: PNGs written here, the
 * built binary run on them, its JSON, messages and exit codes checked. */
#include <sys/wait.h>

#include <zlib.h>

#include "check.h"
#include "tessera/image.h"

/* The budget as documented in pipeline/README-trace.md (TESS_MASK_RUN_BUDGET). */
#define TESS_MASK_RUN_BUDGET_RUNS 131072

static char pipeline[1024];

typedef struct Run {
  int code;
  char out[65536];
  char err[4096];
} Run;

static void slurp(const char *path, char *buf, size_t size) {
  buf[0] = '\0';
  FILE *f = fopen(path, "rb");
  if (!f) return;
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = '\0';
  fclose(f);
}

/* Runs `tessera-pipeline ARGS` (ARGS already shell-quoted where needed). */
static void run(Run *r, const char *args) {
  char out_path[600], err_path[600], cmd[4096];
  tess_test_path(out_path, sizeof out_path, "stdout.txt");
  tess_test_path(err_path, sizeof err_path, "stderr.txt");
  snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", pipeline, args, out_path, err_path);
  int status = system(cmd);
  r->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  slurp(out_path, r->out, sizeof r->out);
  slurp(err_path, r->err, sizeof r->err);
}

/* The number after `"key": ` at or after `from` (NAN when absent). */
static double json_number(const char *doc, const char *key) {
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = strstr(doc, pat);
  if (!p) return NAN;
  p += strlen(pat);
  if (*p == '[') p++;
  char *end;
  double v = strtod(p, &end);
  return end == p ? NAN : v;
}

/* The JSON object text that follows `"key": ` (up to its closing brace). */
static const char *json_section(const char *doc, const char *key) {
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = strstr(doc, pat);
  return p ? p + strlen(pat) : "";
}

static void write_png(const char *name, uint32_t w, uint32_t h, uint8_t (*alpha)(uint32_t x, uint32_t y), char *path,
                      size_t size) {
  TessImage img;
  TessError err;
  CHECK_OK(tess_image_create(w, h, &img, &err), &err);
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint8_t *p = img.pixels + (size_t)y * img.stride + (size_t)x * 4;
      p[0] = 200;
      p[1] = 100;
      p[2] = 50;
      p[3] = alpha(x, y);
    }
  tess_test_path(path, size, name);
  CHECK_OK(tess_png_save(tess_image_view(&img), path, &err), &err);
  tess_image_clear(&img);
}

static uint8_t box_alpha(uint32_t x, uint32_t y) { return x >= 1 && x < 5 && y >= 1 && y < 3 ? 255 : 0; }
static uint8_t disc_alpha(uint32_t x, uint32_t y) {
  double dx = x + 0.5 - 64, dy = y + 0.5 - 60;
  return dx * dx + dy * dy <= 50 * 50 ? 255 : 0;
}
static uint8_t faint_alpha(uint32_t x, uint32_t y) { return x == 3 && y == 2 ? 100 : 0; }
static uint8_t clear_alpha(uint32_t x, uint32_t y) {
  (void)x;
  (void)y;
  return 0;
}

static void json_of_a_box(void) {
  char path[600], args[800];
  write_png("box.png", 8, 4, box_alpha, path, sizeof path);
  Run *r = malloc(sizeof *r);
  snprintf(args, sizeof args, "trace '%s' --json", path);
  run(r, args);
  CHECK_MSG(r->code == 0, "exit %d: %s", r->code, r->err);
  CHECK(strstr(r->out, "\"format\": \"tessera-trace\"") != NULL);
  CHECK(json_number(r->out, "version") == 1);
  CHECK(json_number(r->out, "width") == 8 && json_number(r->out, "height") == 4);
  const char *pixels = json_section(r->out, "pixels");
  CHECK(json_number(pixels, "area") == 8);
  CHECK(json_number(pixels, "centroid") == 3);
  CHECK(strstr(pixels, "\"centroid\": [3, 2]") != NULL);
  CHECK_NEAR(json_number(pixels, "inertia"), 8.0 * (16 + 4) / 12.0, 1e-12);
  CHECK(strstr(pixels, "\"bounds\": [1, 1, 5, 3]") != NULL);
  /* Format 1.1: second moments and principal axes of the pixels. A 4 x 2
   * block: spread along x 2 (2.25 + 0.25 + 0.25 + 2.25) + 8/12, along y
   * 8 x 0.25 + 8/12, no product term; the major axis is x. */
  CHECK(json_number(r->out, "version_minor") == 2);
  const char *moments = json_section(pixels, "second_moments");
  CHECK_NEAR(json_number(moments, "xx"), 10 + 8.0 / 12, 1e-12);
  CHECK_NEAR(json_number(moments, "yy"), 2 + 8.0 / 12, 1e-12);
  CHECK(json_number(moments, "xy") == 0);
  const char *axes = json_section(pixels, "principal_axes");
  CHECK(json_number(axes, "angle") == 0 && json_number(axes, "angle_degrees") == 0);
  CHECK_NEAR(json_number(axes, "major"), 10 + 8.0 / 12, 1e-12);
  CHECK_NEAR(json_number(axes, "minor"), 2 + 8.0 / 12, 1e-12);
  const char *hull = json_section(r->out, "hull");
  CHECK(json_number(hull, "count") == 4);
  CHECK(strstr(hull, "[[1, 1], [5, 1], [5, 3], [1, 3]]") != NULL);
  CHECK(json_number(hull, "area") == 8);
  CHECK(strstr(r->out, "\"pieces\": null") != NULL);
  CHECK(strstr(r->out, "\"si\": null") != NULL);
  CHECK(strstr(json_section(r->out, "shape"), "\"kind\": \"simplified\"") != NULL);
  /* --max-vertices=3 squeezes the box into a triangle that still holds it. */
  snprintf(args, sizeof args, "trace --max-vertices=3 --json '%s'", path);
  run(r, args);
  CHECK(r->code == 0);
  const char *simple = json_section(r->out, "simplified");
  CHECK(json_number(simple, "count") == 3);
  CHECK_NEAR(json_number(simple, "added_area"), 8, 1e-9);
  free(r);
}

static void pieces_and_si_units(void) {
  char path[600], args[800];
  write_png("disc.png", 128, 120, disc_alpha, path, sizeof path);
  Run *r = malloc(sizeof *r);
  snprintf(args, sizeof args, "trace '%s' --mode pieces --tolerance 1 --ppm 50 --density 2 --json", path);
  run(r, args);
  CHECK_MSG(r->code == 0, "exit %d: %s", r->code, r->err);
  double area = json_number(json_section(r->out, "pixels"), "area");
  double inertia = json_number(json_section(r->out, "pixels"), "inertia");
  CHECK_NEAR(area, M_PI * 50 * 50, 0.01 * M_PI * 50 * 50);
  const char *pieces = json_section(r->out, "pieces");
  CHECK(json_number(pieces, "count") >= 1);
  CHECK(json_number(pieces, "islands") == 1);
  CHECK(json_number(pieces, "uncovered_area") < 0.01 * area);
  /* The pieces' added area: their area beyond the pixels they cover. */
  double uncovered = json_number(pieces, "uncovered_area"), added = json_number(pieces, "added_area");
  CHECK_NEAR(added, json_number(pieces, "area") - (area - uncovered), 1e-6 * area);
  CHECK(added > 0);
  /* A disc's axes: equal spreads (a circle of pixels is symmetric under
   * swapping x and y about its centre), no product term. */
  const char *moments = json_section(json_section(r->out, "pixels"), "second_moments");
  CHECK_NEAR(json_number(moments, "xx"), json_number(moments, "yy"), 1e-9 * area * 2500);
  CHECK_NEAR(json_number(moments, "xy"), 0, 1e-9 * area * 2500);
  CHECK(strstr(json_section(r->out, "shape"), "\"kind\": \"pieces\"") != NULL);
  /* Within the budget (one run per row of the disc): not simplified. */
  CHECK(strstr(pieces, "\"simplified\": false") != NULL);
  CHECK(json_number(pieces, "block") == 1 && json_number(pieces, "runs") == 100);
  const char *si = json_section(r->out, "si");
  CHECK_NEAR(json_number(si, "mass"), 2.0 * area / 2500.0, 1e-9);
  CHECK_REL(json_number(si, "inertia"), 2.0 * inertia / (50.0 * 50 * 50 * 50), 1e-9);
  /* A disc of radius 1 m at 2 kg/m^2: 2 pi kg, inertia m r^2 / 2. */
  CHECK_REL(json_number(si, "shape_mass"), 2 * M_PI, 0.03);
  CHECK_REL(json_number(si, "shape_inertia"), M_PI, 0.06);
  /* Without --json: readable text with the same numbers. */
  snprintf(args, sizeof args, "trace '%s' --mode=pieces", path);
  run(r, args);
  CHECK(r->code == 0);
  CHECK(strstr(r->out, "pixels") && strstr(r->out, "pieces") && strstr(r->out, "hull"));
  CHECK(strstr(r->out, "axes        major at ") != NULL);
  free(r);
}

static uint8_t checker_alpha(uint32_t x, uint32_t y) { return ((x ^ y) & 1) ? 0 : 255; }

/* The case: a 4096 x 4096 checkerboard in pieces mode is traced on
 * 2 x 2 blocks (over the run budget) and says so, in JSON and in text. */
static void over_the_budget_says_simplified(void) {
  char path[600], args[800];
  write_png("checker.png", 4096, 4096, checker_alpha, path, sizeof path);
  Run *r = malloc(sizeof *r);
  snprintf(args, sizeof args, "trace '%s' --mode pieces --json", path);
  run(r, args);
  CHECK_MSG(r->code == 0, "exit %d: %s", r->code, r->err);
  const char *pieces = json_section(r->out, "pieces");
  CHECK(strstr(pieces, "\"simplified\": true") != NULL);
  CHECK(json_number(pieces, "block") == 2);
  CHECK(json_number(pieces, "runs") == 4096.0 * 2048);
  CHECK(json_number(pieces, "run_budget") == TESS_MASK_RUN_BUDGET_RUNS);
  CHECK(json_number(pieces, "count") == 1);
  CHECK(json_number(pieces, "uncovered_area") == 0);
  CHECK(json_number(json_section(r->out, "pixels"), "area") == 4096.0 * 2048);
  snprintf(args, sizeof args, "trace '%s' --mode pieces", path);
  run(r, args);
  CHECK(r->code == 0);
  CHECK_MSG(strstr(r->out,
                   "simplified  8388608 runs of opaque pixels exceed the budget of 131072: traced on 2 x 2 "
                   "pixel blocks") != NULL,
            "%.2000s", r->out);

  free(r);
}

static void errors_name_the_file(void) {
  char path[600], args[1400];
  Run *r = malloc(sizeof *r);
  write_png("clear.png", 10, 10, clear_alpha, path, sizeof path);
  snprintf(args, sizeof args, "trace '%s'", path);
  run(r, args);
  CHECK(r->code == 1);
  char expect[800];
  snprintf(expect, sizeof expect, "%s: no opaque pixel at threshold 1", path);
  CHECK_MSG(strstr(r->err, expect) != NULL, "%s", r->err);
  CHECK(r->out[0] == '\0');

  write_png("faint.png", 6, 5, faint_alpha, path, sizeof path);
  snprintf(args, sizeof args, "trace '%s' --threshold 101", path);
  run(r, args);
  CHECK(r->code == 1 && strstr(r->err, "no opaque pixel at threshold 101"));
  snprintf(args, sizeof args, "trace '%s' --threshold 100 --json", path);
  run(r, args);
  CHECK(r->code == 0 && json_number(json_section(r->out, "pixels"), "area") == 1);

  /* A truncated PNG: exit 1 and the file named. */
  char good[600], cut[600];
  write_png("whole.png", 128, 120, disc_alpha, good, sizeof good);
  uint8_t *bytes;
  size_t size;
  TessError err;
  CHECK_OK(tess_file_read(good, 1 << 20, &bytes, &size, &err), &err);
  tess_test_path(cut, sizeof cut, "truncated.png");
  CHECK_OK(tess_file_write_atomic(cut, bytes, size / 2, &err), &err);
  tess_free(bytes);
  snprintf(args, sizeof args, "trace '%s' --json", cut);
  run(r, args);
  CHECK(r->code == 1);
  CHECK_MSG(strncmp(r->err, cut, strlen(cut)) == 0, "%s", r->err);

  /* A 100000 x 100000 header is refused before anything is allocated. */
  static const uint8_t huge[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                 0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0, 8, 6, 0, 0, 0, 0, 0, 0, 0};
  char big[600];
  tess_test_path(big, sizeof big, "huge.png");
  CHECK_OK(tess_file_write_atomic(big, huge, sizeof huge, &err), &err);
  snprintf(args, sizeof args, "trace '%s'", big);
  run(r, args);
  CHECK(r->code == 1);
  CHECK_MSG(strncmp(r->err, big, strlen(big)) == 0, "%s", r->err);

  snprintf(args, sizeof args, "trace '%s/does-not-exist.png'", tess_test_tmpdir());
  run(r, args);
  CHECK(r->code == 1 && strstr(r->err, "does-not-exist.png"));
  free(r);
}

/* ---- PNGs of other colour types, written byte by byte ------------------- */

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static size_t chunk(uint8_t *out, const char *type, const uint8_t *data, uint32_t len) {
  put32(out, len);
  memcpy(out + 4, type, 4);
  if (len) memcpy(out + 8, data, len);
  put32(out + 8 + len, (uint32_t)crc32(0, out + 4, len + 4));
  return 12 + len;
}

/* A PNG of colour type `ctype` and bit depth `depth` whose rows are `raw`
 * (filter bytes included), with an optional PLTE and tRNS. */
static void write_raw_png(const char *path, uint32_t w, uint32_t h, int depth, int ctype, const uint8_t *raw,
                          size_t raw_size, const uint8_t *plte, uint32_t plte_len, const uint8_t *trns,
                          uint32_t trns_len) {
  uint8_t *out = malloc(raw_size * 2 + 4096);
  size_t n = 0;
  static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  memcpy(out, sig, 8);
  n = 8;
  uint8_t ihdr[13];
  put32(ihdr, w);
  put32(ihdr + 4, h);
  ihdr[8] = (uint8_t)depth;
  ihdr[9] = (uint8_t)ctype;
  ihdr[10] = ihdr[11] = ihdr[12] = 0;
  n += chunk(out + n, "IHDR", ihdr, 13);
  if (plte) n += chunk(out + n, "PLTE", plte, plte_len);
  if (trns) n += chunk(out + n, "tRNS", trns, trns_len);
  uLongf zlen = compressBound(raw_size);
  uint8_t *z = malloc(zlen);
  CHECK(compress(z, &zlen, raw, raw_size) == Z_OK);
  n += chunk(out + n, "IDAT", z, (uint32_t)zlen);
  n += chunk(out + n, "IEND", NULL, 0);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (f) {
    fwrite(out, 1, n, f);
    fclose(f);
  }
  free(z);
  free(out);
}

static double traced_area(Run *r, const char *path, const char *extra) {
  char args[900];
  snprintf(args, sizeof args, "trace '%s' --json %s", path, extra);
  run(r, args);
  CHECK_MSG(r->code == 0, "%s: exit %d: %s", path, r->code, r->err);
  return json_number(json_section(r->out, "pixels"), "area");
}

static void other_colour_types(void) {
  /* 12 x 10 images; the opaque part is x in [2, 9), y in [3, 8): 35 px. */
  const uint32_t W = 12, H = 10;
  char path[600];
  Run *r = malloc(sizeof *r);
  uint8_t raw[10 * (1 + 12 * 8)];
  /* Grey, 8-bit, no alpha: every pixel counts. */
  size_t k = 0;
  for (uint32_t y = 0; y < H; y++) {
    raw[k++] = 0;
    for (uint32_t x = 0; x < W; x++) raw[k++] = (uint8_t)(x * 20);
  }
  tess_test_path(path, sizeof path, "grey.png");
  write_raw_png(path, W, H, 8, 0, raw, k, NULL, 0, NULL, 0);
  CHECK(traced_area(r, path, "") == W * H);
  /* Grey + alpha, 8-bit. */
  k = 0;
  for (uint32_t y = 0; y < H; y++) {
    raw[k++] = 0;
    for (uint32_t x = 0; x < W; x++) {
      raw[k++] = 128;
      raw[k++] = x >= 2 && x < 9 && y >= 3 && y < 8 ? 200 : 0;
    }
  }
  tess_test_path(path, sizeof path, "grey-alpha.png");
  write_raw_png(path, W, H, 8, 4, raw, k, NULL, 0, NULL, 0);
  CHECK(traced_area(r, path, "") == 35);
  CHECK(traced_area(r, path, "--threshold 200") == 35);
  char args[900];
  snprintf(args, sizeof args, "trace '%s' --threshold 201", path);
  run(r, args);
  CHECK(r->code == 1 && strstr(r->err, "no opaque pixel at threshold 201"));
  /* RGBA, 16-bit: alpha 0x0101 becomes 1 (counts at threshold 1), 0 does not. */
  k = 0;
  for (uint32_t y = 0; y < H; y++) {
    raw[k++] = 0;
    for (uint32_t x = 0; x < W; x++) {
      bool on = x >= 2 && x < 9 && y >= 3 && y < 8;
      for (int c = 0; c < 6; c++) raw[k++] = 0x40;
      raw[k++] = on ? 0x01 : 0;
      raw[k++] = on ? 0x01 : 0;
    }
  }
  tess_test_path(path, sizeof path, "rgba16.png");
  write_raw_png(path, W, H, 16, 6, raw, k, NULL, 0, NULL, 0);
  CHECK(traced_area(r, path, "") == 35);
  /* Palette, 8-bit, index 0 transparent through tRNS. */
  k = 0;
  for (uint32_t y = 0; y < H; y++) {
    raw[k++] = 0;
    for (uint32_t x = 0; x < W; x++) raw[k++] = x >= 2 && x < 9 && y >= 3 && y < 8 ? 1 : 0;
  }
  static const uint8_t plte[6] = {0, 0, 0, 255, 0, 0};
  static const uint8_t trns[1] = {0};
  tess_test_path(path, sizeof path, "palette.png");
  write_raw_png(path, W, H, 8, 3, raw, k, plte, 6, trns, 1);
  CHECK(traced_area(r, path, "") == 35);
  const char *hull = json_section(r->out, "hull");
  CHECK(strstr(hull, "[[2, 3], [9, 3], [9, 8], [2, 8]]") != NULL);
  free(r);
}

static void usage_errors_exit_2(void) {
  Run *r = malloc(sizeof *r);
  run(r, "");
  CHECK(r->code == 2);
  run(r, "frobnicate");
  CHECK(r->code == 2 && strstr(r->err, "unknown command"));
  run(r, "trace");
  CHECK(r->code == 2);
  run(r, "trace a.png --threshold 300");
  CHECK(r->code == 2 && strstr(r->err, "--threshold"));
  run(r, "trace a.png --max-vertices 2");
  CHECK(r->code == 2);
  run(r, "trace a.png --mode blob");
  CHECK(r->code == 2);
  run(r, "trace a.png --tolerance -1");
  CHECK(r->code == 2);
  run(r, "trace a.png --ppm 50");
  CHECK(r->code == 2 && strstr(r->err, "--density"));
  run(r, "trace a.png --bogus");
  CHECK(r->code == 2);
  run(r, "trace a.png b.png");
  CHECK(r->code == 2);
  run(r, "trace --help");
  CHECK(r->code == 0 && strstr(r->out, "usage: tessera-pipeline trace"));
  run(r, "--help");
  CHECK(r->code == 0 && strstr(r->out, "trace"));
  run(r, "--version");
  CHECK(r->code == 0 && strstr(r->out, "tessera-pipeline "));
  free(r);
}

int main(int argc, char **argv) {
  const char *root = getenv("TESS_BUILD_ROOT");
  snprintf(pipeline, sizeof pipeline, "%s/pipeline/tessera-pipeline", root ? root : ".");
  static const TessTestCase cases[] = {TEST(json_of_a_box), TEST(pieces_and_si_units), TEST(errors_name_the_file),
                                       TEST(other_colour_types), TEST(usage_errors_exit_2),
                                       TEST(over_the_budget_says_simplified)};
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
