/* A look at a file's first bytes before SQLite interprets them, so that an
 * empty file, a file that is not SQLite and a truncated project each get
 * their own message (SQLite would call most of them "not a database", and
 * would take an empty file for a new database).
 *
 * The bytes are read through SQLite's own handle of the file, never a
 * descriptor of ours: closing a second descriptor of a file drops every
 * POSIX lock this process holds on it, including the locks of another
 * connection to the same project (the editor's, while a preview reads). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "store_private.h"

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* True when a non-empty write-ahead log sits beside the file: then pages
 * beyond the main file's end may legitimately live in the log. */
static bool has_wal(const char *path) {
  char wal[4096];
  if ((size_t)snprintf(wal, sizeof wal, "%s-wal", path) >= sizeof wal) return true;
  struct stat st;
  return stat(wal, &st) == 0 && st.st_size > 0;
}

/* Valid UTF-8 without control characters but tab and line ends (a
 * sequence cut by the end of the sample is allowed). */
static bool looks_like_text(const uint8_t *h, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint8_t c = h[i];
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2
                            : (c & 0xF0) == 0xE0   ? 3
                            : (c & 0xF8) == 0xF0   ? 4
                                                   : 0;
    if (len == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7F) return false;
    for (size_t k = 1; k < len; k++)
      if (i + k < n && (h[i + k] & 0xC0) != 0x80) return false;
    i += len;
  }
  return n > 0;
}

/* A few words on what a non-SQLite file looks like, so the message tells a
 * misnamed text file, image or archive from a file of noise. */
static void describe_start(const uint8_t *h, size_t n, char *out, size_t size) {
  static const uint8_t PNG[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (n >= 8 && memcmp(h, PNG, 8) == 0) {
    snprintf(out, size, "it is a PNG image");
    return;
  }
  if (n >= 4 && memcmp(h, "PK\x03\x04", 4) == 0) {
    snprintf(out, size, "it is a ZIP archive");
    return;
  }
  if (looks_like_text(h, n)) {
    char quoted[40];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 24; i++)
      quoted[k++] = (h[i] < 0x20 || h[i] >= 0x80) ? '.' : (char)h[i];
    quoted[k] = '\0';
    snprintf(out, size, "it looks like text, starting \"%s\"", quoted);
    return;
  }
  snprintf(out, size, "its first bytes are %02x %02x %02x %02x %02x %02x %02x %02x", n > 0 ? h[0] : 0,
           n > 1 ? h[1] : 0, n > 2 ? h[2] : 0, n > 3 ? h[3] : 0, n > 4 ? h[4] : 0, n > 5 ? h[5] : 0,
           n > 6 ? h[6] : 0, n > 7 ? h[7] : 0);
}

TessResult store_probe_path(const char *path, const char *name, TessError *err) {
  struct stat st;
  if (stat(path, &st) != 0) {
    int e = errno;
    return tess_error_set(err, e == ENOENT ? TESS_ERR_NOT_FOUND : TESS_ERR_IO, path, "cannot open %s: %s", name,
                          strerror(e));
  }
  if (S_ISDIR(st.st_mode))
    return tess_error_set(err, TESS_ERR_IO, path, "%s is a folder, not a Tessera project", name);
  return TESS_OK;
}

TessResult store_probe_file(sqlite3 *db, const char *path, const char *name, TessError *err) {
  sqlite3_file *file = NULL;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || !file || !file->pMethods)
    return tess_error_set(err, TESS_ERR_IO, path, "cannot read %s", name);
  sqlite3_int64 file_size = 0;
  if (file->pMethods->xFileSize(file, &file_size) != SQLITE_OK || file_size < 0)
    return tess_error_set(err, TESS_ERR_IO, path, "cannot read %s", name);
  uint8_t h[100];
  memset(h, 0, sizeof h);
  size_t got = file_size < (sqlite3_int64)sizeof h ? (size_t)file_size : sizeof h;
  int rc = got ? file->pMethods->xRead(file, h, (int)got, 0) : SQLITE_OK;
  if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ)
    return tess_error_set(err, TESS_ERR_IO, path, "cannot read %s: %s", name, sqlite3_errstr(rc));

  static const char MAGIC[16] = "SQLite format 3"; /* with its NUL: 16 bytes */
  uint64_t size = (uint64_t)file_size;
  if (size == 0)
    return tess_error_set(err, TESS_ERR_FORMAT, path, "%s is empty (0 bytes): it is not a Tessera project", name);
  size_t cmp = got < sizeof MAGIC ? got : sizeof MAGIC;
  if (memcmp(h, MAGIC, cmp) != 0) {
    char what[120];
    describe_start(h, got, what, sizeof what);
    return tess_error_set(err, TESS_ERR_FORMAT, path,
                          "%s is not a Tessera project: it is not an SQLite database (%s)", name, what);
  }
  if (got < sizeof h)
    return tess_error_set_at(err, TESS_ERR_FORMAT, path, TESS_PLACE_OFFSET, size,
                             "%s is truncated: it ends after %llu bytes, inside the 100-byte database header", name,
                             (unsigned long long)size);

  uint32_t page_size = be16(h + 16);
  if (page_size == 1) page_size = 65536;
  if (page_size < 512 || (page_size & (page_size - 1)) != 0)
    return tess_error_set_at(err, TESS_ERR_FORMAT, path, TESS_PLACE_OFFSET, 16,
                             "%s is damaged: its header gives an impossible page size (%u)", name, page_size);
  /* The header's page count is valid when its change counter matches
   * "version valid for" (SQLite file format, section 1.3.7). */
  uint32_t pages = be32(h + 28);
  bool count_valid = pages != 0 && be32(h + 24) == be32(h + 92);
  uint64_t expected = (uint64_t)pages * page_size;
  if (count_valid && size < expected && !has_wal(path))
    return tess_error_set_at(err, TESS_ERR_FORMAT, path, TESS_PLACE_OFFSET, size,
                             "%s is truncated: it has %llu bytes of the %llu its header announces", name,
                             (unsigned long long)size, (unsigned long long)expected);
  if (size % page_size != 0 && !has_wal(path))
    return tess_error_set_at(err, TESS_ERR_FORMAT, path, TESS_PLACE_OFFSET, size,
                             "%s is truncated: its %llu bytes are not a whole number of %u-byte pages", name,
                             (unsigned long long)size, page_size);
  return TESS_OK;
}
