/* Writing a level's Tiled files (tessera/formats.h), and the hooks
 * that run it inside core/pack's export machinery (TessExportWriter):
 * tilesets and images first, each atomically and only when their bytes
 * differ from what is there, then the map, so a map never names a file
 * that is not yet complete. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tessera/image.h"
#include "tessera/formats.h"
#include "formats_tiled_write.h"

#define PATH_MAX_BYTES 4096
#define SCAN_BYTES 4096 /* the content hash is the map's first property */

static const char *tileset_ext(TwFlavor f) { return f == TW_TMX ? ".tsx" : ".tsj"; }

static TessResult join(char *out, const char *dir, const char *a, const char *b, const char *c) {
  int n = snprintf(out, PATH_MAX_BYTES, "%s/%s%s%s", dir, a, b ? b : "", c ? c : "");
  if (n < 0 || n >= PATH_MAX_BYTES) return TESS_ERR_LIMIT;
  return TESS_OK;
}

/* Inside an export: a temporary name in the same directory, then rename,
 * with no fsync per file (the export ends with one syncfs of the output's
 * file system, as for .tlv files); alone (tess_tiled_write_level): core's
 * durable atomic write. */
static TessResult write_atomic(const char *path, const void *data, size_t size, bool durable, TessError *err) {
  if (durable) return tess_file_write_atomic(path, data, size, err); /* it checks the output itself */
  /* Never over a project: a tileset named after one, a symlink to one. */
  TessResult guard = tess_output_check(path, NULL, 0, 0, err);
  if (guard != TESS_OK) return guard;
  static unsigned counter;
  char tmp[PATH_MAX_BYTES + 32];
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(tmp, sizeof tmp, "%s.%x-%x.tmp", path, (unsigned)getpid(), __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) return tess_error_set(err, TESS_ERR_IO, path, "cannot create a temporary file: %s", strerror(errno));
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(fd, (const char *)data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  int e = errno;
  if (close(fd) != 0 && done == size) {
    done = 0;
    e = errno;
  }
  if (done != size || rename(tmp, path) != 0) {
    if (done == size) e = errno;
    unlink(tmp);
    return tess_error_set(err, TESS_ERR_IO, path, "cannot write: %s", strerror(e));
  }
  return TESS_OK;
}

/* Leaves a file alone when it already holds these bytes (shared tilesets,
 * incremental exports), else replaces it atomically. */
static TessResult write_if_changed(const char *path, const void *data, size_t size, bool durable, TessError *err) {
  uint8_t *old = NULL;
  size_t old_size = 0;
  if (tess_file_read(path, size + 1, &old, &old_size, NULL) == TESS_OK) {
    bool same = old_size == size && memcmp(old, data, size) == 0;
    tess_free(old);
    if (same) return TESS_OK;
  }
  return write_atomic(path, data, size, durable, err);
}

static TessResult make_dir(const char *path, TessError *err) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return TESS_OK;
  if (mkdir(path, 0777) != 0 && errno != EEXIST)
    return tess_error_set(err, TESS_ERR_IO, path, "cannot create the directory: %s", strerror(errno));
  return TESS_OK;
}

static TessResult write_tilesets(const TwMap *m, TwFlavor f, const char *dir, bool durable, TessError *err) {
  char path[PATH_MAX_BYTES];
  if (join(path, dir, TW_DIR, NULL, NULL) != TESS_OK) return tess_error_set(err, TESS_ERR_LIMIT, dir, "path too long");
  TessResult r = make_dir(path, err);
  for (size_t i = 0; r == TESS_OK && i < m->tileset_count; i++) {
    const TwTileset *ts = &m->tilesets[i];
    char *text = NULL;
    size_t size = 0;
    r = f == TW_TMX ? tiled_write_tmx_tileset(ts, &text, &size, err) : tiled_write_tmj_tileset(ts, &text, &size, err);
    if (r != TESS_OK) break;
    if (join(path, dir, TW_DIR "/", ts->stem, tileset_ext(f)) != TESS_OK)
      r = tess_error_set(err, TESS_ERR_LIMIT, dir, "path too long");
    else r = write_if_changed(path, text, size, durable, err);
    tess_free(text);
    if (r == TESS_OK && join(path, dir, TW_DIR "/", ts->stem, ".png") != TESS_OK)
      r = tess_error_set(err, TESS_ERR_LIMIT, dir, "path too long");
    if (r == TESS_OK) r = write_if_changed(path, ts->png, ts->png_size, durable, err);
  }
  return r;
}

/* The failing level named in front of core's detail. */
static TessResult level_error(TessError *err, TessResult r, const char *path, const TessLevel *level) {
  if (!err) return r;
  char detail[sizeof err->detail];
  snprintf(detail, sizeof detail, "%s", err->detail);
  bool named = strcmp(err->file, "export") != 0;
  if (named) return r; /* already names the file it is about */
  return tess_error_set(err, r, path, "level '%s': %s", level->settings.name, detail);
}

static TessResult write_level(const TessProject *p, const TessLevel *level, const TwNames *names, TwFlavor f,
                              const char *dir, const char *file, uint64_t hash, bool durable, uint64_t *size_out,
                              TessError *err) {
  char path[PATH_MAX_BYTES];
  if (join(path, dir, file, NULL, NULL) != TESS_OK) return tess_error_set(err, TESS_ERR_LIMIT, dir, "path too long");
  TwMap m;
  TessResult r = tiled_write_map_build(p, level, names, hash, &m, err);
  if (r != TESS_OK) return level_error(err, r, path, level);
  char *text = NULL;
  size_t size = 0;
  r = f == TW_TMX ? tiled_write_tmx_map(&m, &text, &size, err) : tiled_write_tmj_map(&m, &text, &size, err);
  if (r == TESS_OK) r = write_tilesets(&m, f, dir, durable, err);
  if (r == TESS_OK) r = write_atomic(path, text, size, durable, err);
  tess_free(text);
  tiled_write_map_clear(&m);
  if (r != TESS_OK) return level_error(err, r, path, level);
  if (size_out) *size_out = size;
  return TESS_OK;
}

TessResult tess_tiled_write_level(const TessProject *p, const TessLevel *level, TessTiledFlavor flavor,
                                  const char *path, TessError *err) {
  char dir[PATH_MAX_BYTES];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  const char *file = path;
  if (slash) {
    *slash = 0;
    file = path + (slash - dir) + 1;
    if (!dir[0]) snprintf(dir, sizeof dir, "/");
  } else {
    snprintf(dir, sizeof dir, ".");
  }
  TwNames *names = NULL;
  TessResult r = tiled_write_names_create(p, &names, err);
  if (r != TESS_OK) return r;
  TwFlavor f = flavor == TESS_TILED_TMX ? TW_TMX : TW_TMJ;
  r = write_level(p, level, names, f, dir, file, tiled_write_content_hash(p, level, names, f), true, NULL, err);
  tiled_write_names_destroy(names);
  return r;
}

/* ---- The export hooks ---------------------------------------------------- */

static TessResult begin(const TessProject *p, void **state, TessError *err) {
  TwNames *names = NULL;
  TessResult r = tiled_write_names_create(p, &names, err);
  *state = names;
  return r;
}

static void end(void *state) { tiled_write_names_destroy(state); }

static uint64_t hash_tmj(void *state, const TessProject *p, const TessLevel *level) {
  return tiled_write_content_hash(p, level, state, TW_TMJ);
}
static uint64_t hash_tmx(void *state, const TessProject *p, const TessLevel *level) {
  return tiled_write_content_hash(p, level, state, TW_TMX);
}

static TessResult write_tmj(void *state, const TessProject *p, const TessLevel *level, const char *dir,
                            const char *file, uint64_t hash, uint64_t *size, TessError *err) {
  return write_level(p, level, state, TW_TMJ, dir, file, hash, false, size, err);
}
static TessResult write_tmx(void *state, const TessProject *p, const TessLevel *level, const char *dir,
                            const char *file, uint64_t hash, uint64_t *size, TessError *err) {
  return write_level(p, level, state, TW_TMX, dir, file, hash, false, size, err);
}

/* The files a level's map names, relative to the export's directory: for
 * each tileset its file and its image, in firstgid order. Worked out the
 * way tiled_write_map_build does, without building the map. */
static void list(const TwNames *names, TwFlavor f, const TessProject *p, const TessLevel *level,
                 void (*add)(void *user, const char *file), void *user) {
  TwUsed u;
  if (!tiled_write_used_scan(p, level, &u)) return;
  char file[256];
  for (uint32_t t = 0; t < p->tileset_count; t++) {
    if (!tiled_write_used_tileset(&u, p->tilesets[t]->id)) continue;
    const char *stem = tiled_write_names_tileset(names, p->tilesets[t]->id);
    snprintf(file, sizeof file, "%s/%s%s", TW_DIR, stem, tileset_ext(f));
    add(user, file);
    snprintf(file, sizeof file, "%s/%s.png", TW_DIR, stem);
    add(user, file);
  }
  for (uint32_t s = 0; s < p->sprite_count; s++) {
    if (!u.sprites[s]) continue;
    const char *stem = tiled_write_names_sprite(names, p->sprites[s]->id);
    snprintf(file, sizeof file, "%s/%s%s", TW_DIR, stem, tileset_ext(f));
    add(user, file);
    snprintf(file, sizeof file, "%s/%s.png", TW_DIR, stem);
    add(user, file);
  }
  if (u.materials) {
    char stem[64];
    tiled_write_names_materials(level->settings.tile_w, level->settings.tile_h, stem, sizeof stem);
    snprintf(file, sizeof file, "%s/%s%s", TW_DIR, stem, tileset_ext(f));
    add(user, file);
    snprintf(file, sizeof file, "%s/%s.png", TW_DIR, stem);
    add(user, file);
  }
  tess_free(u.sprites);
}

static void list_tmj(void *state, const TessProject *p, const TessLevel *level, void (*add)(void *, const char *),
                     void *user) {
  list(state, TW_TMJ, p, level, add, user);
}
static void list_tmx(void *state, const TessProject *p, const TessLevel *level, void (*add)(void *, const char *),
                     void *user) {
  list(state, TW_TMX, p, level, add, user);
}

typedef struct Check {
  const char *dir;
  bool all_there;
} Check;

static void check_file(void *user, const char *file) {
  Check *c = user;
  char path[PATH_MAX_BYTES];
  struct stat st;
  if (join(path, c->dir, file, NULL, NULL) != TESS_OK || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    c->all_there = false;
}

/* The map names the hash near its start (its first property); a map
 * edited by hand so that it does not is simply written again. */
static bool up_to_date(void *state, TwFlavor f, const TessProject *p, const TessLevel *level, const char *dir,
                       const char *file, uint64_t hash, uint64_t *size) {
  char path[PATH_MAX_BYTES];
  if (join(path, dir, file, NULL, NULL) != TESS_OK) return false;
  FILE *fp = fopen(path, "rb");
  if (!fp) return false;
  char head[SCAN_BYTES + 1];
  size_t n = fread(head, 1, SCAN_BYTES, fp);
  head[n] = 0;
  struct stat st;
  bool regular = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);
  fclose(fp);
  char want[24];
  snprintf(want, sizeof want, "\"%016llx\"", (unsigned long long)hash);
  const char *key = strstr(head, "\"tessera.content_hash\"");
  if (!regular || !key) return false;
  char window[128];
  snprintf(window, sizeof window, "%.100s", key);
  if (!strstr(window, want)) return false;
  Check c = {dir, true};
  list(state, f, p, level, check_file, &c);
  if (c.all_there) *size = (uint64_t)st.st_size;
  return c.all_there;
}

static bool up_to_date_tmj(void *state, const TessProject *p, const TessLevel *level, const char *dir,
                           const char *file, uint64_t hash, uint64_t *size) {
  return up_to_date(state, TW_TMJ, p, level, dir, file, hash, size);
}
static bool up_to_date_tmx(void *state, const TessProject *p, const TessLevel *level, const char *dir,
                           const char *file, uint64_t hash, uint64_t *size) {
  return up_to_date(state, TW_TMX, p, level, dir, file, hash, size);
}

/* What write_atomic leaves under "tilesets/" when an export is killed: the export removes it. */
static const char *const tmj_files[] = {".tsj", ".png", NULL};
static const char *const tmx_files[] = {".tsx", ".png", NULL};

static const TessExportWriter writers[2] = {
    {"tiled-tmj", ".tmj", begin, end, hash_tmj, write_tmj, up_to_date_tmj, list_tmj, "tilesets", tmj_files},
    {"tiled-tmx", ".tmx", begin, end, hash_tmx, write_tmx, up_to_date_tmx, list_tmx, "tilesets", tmx_files},
};

const TessExportWriter *tess_tiled_export_writer(TessTiledFlavor flavor) {
  return flavor == TESS_TILED_TMX ? &writers[1] : &writers[0];
}

const TessExportWriter *tess_tiled_export_writer_by_name(const char *name) {
  if (!name) return NULL;
  if (strcmp(name, "tmj") == 0) return &writers[0];
  if (strcmp(name, "tmx") == 0) return &writers[1];
  return NULL;
}
