/* See hostile_corpus.h. */
#include "hostile_corpus.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tessera/image.h"

uint8_t *hostile_read(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  return buf;
}

bool hostile_write(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

bool hostile_copy(const char *from, const char *to) {
  size_t size = 0;
  uint8_t *data = hostile_read(from, &size);
  char side[2048];
  for (const char *ext = "-wal"; ext; ext = strcmp(ext, "-wal") == 0 ? "-shm" : NULL) {
    snprintf(side, sizeof side, "%s%s", to, ext);
    unlink(side);
  }
  bool ok = data && hostile_write(to, data, size);
  free(data);
  return ok;
}

static uint32_t crc32_of(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

bool hostile_png(uint32_t w, uint32_t h, size_t pad_to, uint8_t **png, size_t *size) {
  TessImage img;
  if (tess_image_create(w, h, &img, NULL) != TESS_OK) return false;
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint8_t *px = img.pixels + (size_t)y * img.stride + 4 * x;
      px[0] = 255, px[1] = (uint8_t)(x * 40), px[2] = (uint8_t)(y * 40), px[3] = 255;
    }
  uint8_t *data = NULL;
  size_t n = 0;
  TessResult r = tess_png_encode(tess_image_view(&img), &data, &n, NULL);
  tess_image_clear(&img);
  if (r != TESS_OK) return false;
  if (pad_to == 0) {
    *png = data;
    *size = n;
    return true;
  }
  /* tEXt chunk "c\0xxxx..." right after IHDR (8 + 25 bytes). */
  if (pad_to < n + 14) {
    tess_free(data);
    return false;
  }
  size_t text = pad_to - n - 12; /* chunk data length */
  uint8_t *out = tess_alloc(pad_to);
  if (!out) {
    tess_free(data);
    return false;
  }
  memcpy(out, data, 33);
  uint8_t *c = out + 33;
  put_be32(c, (uint32_t)text);
  memcpy(c + 4, "tEXt", 4);
  c[8] = 'c';
  c[9] = 0;
  memset(c + 10, 'x', text - 2);
  put_be32(c + 8 + text, crc32_of(c + 4, 4 + text));
  memcpy(c + 12 + text, data + 33, n - 33);
  tess_free(data);
  *png = out;
  *size = pad_to;
  return true;
}

bool hostile_sql_blob(const char *path, const char *sql, const uint8_t *blob, size_t size) {
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  bool ok = sqlite3_open(path, &db) == SQLITE_OK && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK;
  if (ok && blob) ok = sqlite3_bind_blob(st, 1, blob, (int)size, SQLITE_TRANSIENT) == SQLITE_OK;
  if (ok) ok = sqlite3_step(st) == SQLITE_DONE;
  if (!ok) fprintf(stderr, "hostile SQL failed: %s: %s\n", sql, db ? sqlite3_errmsg(db) : "no database");
  sqlite3_finalize(st);
  /* Fold the log back so the file alone holds the edit. */
  if (db) sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
  sqlite3_close(db);
  return ok;
}

typedef struct Mutant {
  const char *what;
  const char *sql;
  int png_w, png_h; /* > 0: ?1 is a PNG of this size */
} Mutant;

#define FIRST(kind) "(SELECT min(id) FROM objects WHERE kind = " #kind ")"
static const Mutant MUTANTS[] = {
    {"NaN position", "UPDATE objects SET x = NULL WHERE id = " FIRST(0), 0, 0},
    {"infinite angle", "UPDATE objects SET angle = 9e999 WHERE id = " FIRST(0), 0, 0},
    {"negative body radius", "UPDATE objects SET body_shape = 0, body_radius = -5 WHERE id = " FIRST(0), 0, 0},
    {"body radius 2e10 px", "UPDATE objects SET body_shape = 0, body_radius = 2e10 WHERE id = " FIRST(0), 0, 0},
    {"box of 1e19 px", "UPDATE objects SET body_shape = 1, body_width = 1e19, body_height = 1e19 WHERE id = " FIRST(0), 0, 0},
    {"box of 1e7 px at ppm 0.01", "UPDATE objects SET body_shape = 1, body_width = 1e7, body_height = 1e7 WHERE id = " FIRST(0) ";"
                                                                                                                                "UPDATE levels SET ppm = 0.01",
     0, 0},
    {"body far away", "UPDATE objects SET x = 1e30 WHERE id = " FIRST(0), 0, 0},
    {"body sprite that does not exist", "UPDATE objects SET body_shape = 3, body_sprite = 9999 WHERE id = " FIRST(0), 0, 0},
    {"body material that does not exist", "UPDATE objects SET body_material = 9999 WHERE id = " FIRST(0), 0, 0},
    {"unknown body shape", "UPDATE objects SET body_shape = 200 WHERE id = " FIRST(0), 0, 0},
    {"joint to itself", "UPDATE objects SET joint_body_b = joint_body_a WHERE id = " FIRST(1), 0, 0},
    {"joint to a missing body", "UPDATE objects SET joint_body_b = 77777 WHERE id = " FIRST(1), 0, 0},
    {"joint limits NaN", "UPDATE objects SET joint_limit_enabled = 1, joint_lower = NULL WHERE id = " FIRST(1), 0, 0},
    {"zone of -1 px", "UPDATE objects SET zone_width = -1 WHERE kind = 2", 0, 0},
    {"level 16384 x 16384", "UPDATE levels SET width = 16384, height = 16384", 0, 0},
    {"level 1 x 1", "UPDATE levels SET width = 1, height = 1", 0, 0},
    {"level width 0", "UPDATE levels SET width = 0", 0, 0},
    {"level width -5", "UPDATE levels SET width = -5", 0, 0},
    {"tile size 0", "UPDATE levels SET tile_w = 0", 0, 0},
    {"tile size 1e6", "UPDATE levels SET tile_w = 1000000", 0, 0},
    {"ppm 0", "UPDATE levels SET ppm = 0", 0, 0},
    {"ppm 1e-30", "UPDATE levels SET ppm = 1e-30", 0, 0},
    {"gravity infinite", "UPDATE levels SET gravity_y = -9e999", 0, 0},
    {"physics rate NaN", "UPDATE levels SET physics_hz = NULL", 0, 0},
    {"level name not UTF-8", "UPDATE levels SET name = CAST(X'C328E28228F09028BC' AS TEXT) WHERE id = (SELECT min(id) FROM levels)", 0, 0},
    {"layer name with an overlong NUL", "UPDATE layers SET name = CAST(X'4C61C080' AS TEXT)", 0, 0},
    {"object name not UTF-8", "UPDATE objects SET name = CAST(X'FF626F6479' AS TEXT)", 0, 0},
    {"tileset name a lone surrogate", "UPDATE tilesets SET name = CAST(X'EDA080' AS TEXT)", 0, 0},
    {"sprite name not UTF-8", "UPDATE sprites SET name = CAST(X'8080' AS TEXT)", 0, 0},
    {"material name not UTF-8", "UPDATE materials SET name = CAST(X'F8888080' AS TEXT)", 0, 0},
    {"tileset PNG missing", "UPDATE tilesets SET png = NULL", 0, 0},
    {"tileset PNG garbage", "UPDATE tilesets SET png = X'89504E470D0A1A0A0000000D49484452'", 0, 0},
    {"tileset PNG 1x1", "UPDATE tilesets SET png = ?1", 1, 1},
    {"tileset PNG 7x300", "UPDATE tilesets SET png = ?1", 7, 300},
    {"tileset declared 4096 wide", "UPDATE tilesets SET image_w = 4096, columns = 128, tile_count = 256", 0, 0},
    {"sprite PNG missing", "UPDATE sprites SET png = NULL", 0, 0},
    {"sprite PNG 1x1", "UPDATE sprites SET png = ?1", 1, 1},
    {"sprite frames 0", "UPDATE sprites SET frame_count = 0", 0, 0},
    {"sprite anchor infinite", "UPDATE sprites SET anchor_x = 9e999", 0, 0},
    {"sprite mass area huge", "UPDATE sprites SET mass_area = 1e300, mass_inertia = 1e300", 0, 0},
    {"sprite hull BLOB cut", "UPDATE sprites SET mask_hull = substr(mask_hull, 1, 5)", 0, 0},
    {"material density NaN", "UPDATE materials SET density = NULL", 0, 0},
    {"material density -1", "UPDATE materials SET density = -1", 0, 0},
    {"chunk BLOB cut", "UPDATE chunks SET cells = substr(cells, 1, 100) WHERE id = (SELECT min(id) FROM chunks)", 0, 0},
    /* Every cell 0x46464646: flipped tile 0x4646 of tileset 0x646, which does not exist. */
    {"chunk cells naming no tileset", "UPDATE chunks SET cells = CAST(replace(hex(zeroblob(2048)), '00', 'FF') AS BLOB)", 0, 0},
    {"chunk outside the level", "UPDATE chunks SET cx = 9999 WHERE id = (SELECT min(id) FROM chunks)", 0, 0},
    {"layer opacity 5", "UPDATE layers SET opacity = 5", 0, 0},
    {"next ids reset", "UPDATE meta SET value = 1 WHERE key LIKE 'next_%'", 0, 0},
    {"schema version 99", "UPDATE meta SET value = 99 WHERE key = 'schema_version'", 0, 0},
    {"objects table gone", "DROP TABLE object_props; DROP TABLE objects", 0, 0},
};

size_t hostile_sql_count(void) { return sizeof MUTANTS / sizeof MUTANTS[0]; }

bool hostile_make_sql(const char *base, const char *path, size_t i, const char **what) {
  const Mutant *m = &MUTANTS[i];
  *what = m->what;
  if (!hostile_copy(base, path)) return false;
  if (m->png_w > 0) {
    uint8_t *png = NULL;
    size_t size = 0;
    if (!hostile_png((uint32_t)m->png_w, (uint32_t)m->png_h, 0, &png, &size)) return false;
    bool ok = hostile_sql_blob(path, m->sql, png, size);
    tess_free(png);
    return ok;
  }
  sqlite3 *db = NULL;
  char *msg = NULL;
  bool ok = sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, m->sql, NULL, NULL, &msg) == SQLITE_OK;
  if (!ok) fprintf(stderr, "hostile SQL failed (%s): %s\n", m->what, msg ? msg : sqlite3_errmsg(db));
  sqlite3_free(msg);
  if (db) sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
  sqlite3_close(db);
  return ok;
}

bool hostile_make_flipped(const char *base, const char *path, uint32_t seed) {
  size_t size = 0;
  uint8_t *data = hostile_read(base, &size);
  if (!data || size < 200) {
    free(data);
    return false;
  }
  uint64_t s = 0x9E3779B97F4A7C15ull * (seed + 1);
  uint32_t flips = 1 + seed % 6;
  for (uint32_t k = 0; k < flips; k++) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    uint64_t r = s * 0x2545F4914F6CDD1Dull;
    /* Half of the files keep the 100-byte header intact so SQLite opens them
     * and the damage reaches the tables. */
    size_t lo = seed % 2 ? 100 : 0;
    size_t at = lo + (size_t)(r % (size - lo));
    data[at] ^= (uint8_t)(1u << ((r >> 32) % 8));
  }
  bool ok = hostile_copy(base, path) && hostile_write(path, data, size);
  free(data);
  return ok;
}
