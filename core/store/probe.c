/* A look at a file's first bytes before SQLite opens it, so that an empty
 * file, a file that is not SQLite and a truncated project each get their
 * own message (SQLite would call most of them "not a database", and would
 * take an empty file for a new database). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

TessResult tess_store_probe_file(const char *path, const char *name, TessError *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    return tess_error_set(err, e == ENOENT ? TESS_ERR_NOT_FOUND : TESS_ERR_IO, path, "cannot open %s: %s", name,
                          strerror(e));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return tess_error_set(err, TESS_ERR_IO, path, "cannot read %s: %s", name, strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return tess_error_set(err, TESS_ERR_IO, path, "%s is a folder, not a Tessera project", name);
  }
  uint8_t h[100];
  ssize_t got = 0;
  while (got < (ssize_t)sizeof h) {
    ssize_t n = read(fd, h + got, sizeof h - (size_t)got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      close(fd);
      return tess_error_set(err, TESS_ERR_IO, path, "cannot read %s: %s", name, strerror(e));
    }
    if (n == 0) break;
    got += n;
  }
  close(fd);

  static const char MAGIC[16] = "SQLite format 3";  /* with its NUL: 16 bytes */
  uint64_t size = (uint64_t)st.st_size;
  if (size == 0)
    return tess_error_set(err, TESS_ERR_FORMAT, path, "%s is empty (0 bytes): it is not a Tessera project", name);
  size_t cmp = (size_t)got < sizeof MAGIC ? (size_t)got : sizeof MAGIC;
  if (memcmp(h, MAGIC, cmp) != 0)
    return tess_error_set(err, TESS_ERR_FORMAT, path, "%s is not a Tessera project: it is not an SQLite database",
                          name);
  if (got < (ssize_t)sizeof h)
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
