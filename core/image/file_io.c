/* Whole-file read with a limit, and the atomic write every saver uses:
 * a temporary file in the target's directory, fsync, rename. A crash or a
 * full disk leaves either the old file or the new one, never a mix. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tessera/image.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

TessResult tess_file_read(const char *path, size_t max_bytes, uint8_t **data, size_t *size, TessError *err) {
  if (!path || !data || !size) return tess_error_set(err, TESS_ERR_INVALID, path, "no path or no output");
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return tess_error_set(err, TESS_ERR_IO, path, "cannot open: %s", strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return tess_error_set(err, TESS_ERR_IO, path, "cannot read its size: %s", strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return tess_error_set(err, TESS_ERR_IO, path, "is a directory, not a file");
  }
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > (uint64_t)max_bytes) {
    close(fd);
    return tess_error_set(err, TESS_ERR_LIMIT, path, "the file has %lld bytes, more than the limit of %zu",
                          (long long)st.st_size, max_bytes);
  }
  /* The size from fstat is a hint: read until end of file, never past the limit. */
  size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
  if (cap == 0 || cap > max_bytes) cap = max_bytes ? max_bytes : 1;
  uint8_t *buf = tess_alloc(cap);
  if (!buf) {
    close(fd);
    return tess_error_set(err, TESS_ERR_NOMEM, path, "no memory for %zu bytes", cap);
  }
  size_t len = 0;
  for (;;) {
    if (len == cap) {
      if (cap >= max_bytes) {
        /* Full at the limit: one more byte means too large. */
        uint8_t probe;
        ssize_t n = read(fd, &probe, 1);
        if (n == 0) break;
        if (n < 0 && errno == EINTR) continue;
        tess_free(buf);
        close(fd);
        if (n < 0) return tess_error_set(err, TESS_ERR_IO, path, "cannot read: %s", strerror(errno));
        return tess_error_set(err, TESS_ERR_LIMIT, path, "the file has more than the limit of %zu bytes", max_bytes);
      }
      size_t grown_cap = cap > max_bytes / 2 ? max_bytes : cap * 2;
      uint8_t *grown = tess_realloc(buf, grown_cap);
      if (!grown) {
        tess_free(buf);
        close(fd);
        return tess_error_set(err, TESS_ERR_NOMEM, path, "no memory for %zu bytes", grown_cap);
      }
      buf = grown;
      cap = grown_cap;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      tess_free(buf);
      close(fd);
      return tess_error_set(err, TESS_ERR_IO, path, "cannot read: %s", strerror(e));
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  close(fd);
  *data = buf;
  *size = len;
  return TESS_OK;
}

/* Opens a new temporary file next to `path` (same directory, so rename is
 * atomic), mode 0666 minus the umask like any new file. */
static int open_temporary(const char *path, char *tmp, size_t tmp_size) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  unsigned long salt = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^ (unsigned long)(uintptr_t)tmp;
  for (int attempt = 0; attempt < 100; attempt++) {
    int len = snprintf(tmp, tmp_size, "%s.%lx.tmp", path, (salt + (unsigned long)attempt * 0x9e3779b9ul) & 0xfffffffful);
    if (len < 0 || (size_t)len >= tmp_size) {
      errno = ENAMETOOLONG;
      return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

/* Makes the rename durable; some file systems refuse fsync on a directory,
 * which is not an error for us. */
static void sync_parent_directory(const char *path) {
  char dir[4096];
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(dir, sizeof dir, ".");
  } else if (slash == path) {
    snprintf(dir, sizeof dir, "/");
  } else {
    size_t n = (size_t)(slash - path);
    if (n >= sizeof dir) return;
    memcpy(dir, path, n);
    dir[n] = '\0';
  }
  int fd = open(dir, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  (void)fsync(fd);
  close(fd);
}

TessResult tess_file_write_atomic(const char *path, const void *data, size_t size, TessError *err) {
  if (!path || (!data && size)) return tess_error_set(err, TESS_ERR_INVALID, path, "no path or no data");
  /* A PNG, a .tlv or a manifest never replaces a project (core/base/output_guard.c). */
  TessResult guard = tess_output_check(path, NULL, 0, 0, err);
  if (guard != TESS_OK) return guard;
  char tmp[4200];
  int fd = open_temporary(path, tmp, sizeof tmp);
  if (fd < 0) return tess_error_set(err, TESS_ERR_IO, path, "cannot create a temporary file: %s", strerror(errno));
  const uint8_t *p = data;
  size_t left = size;
  while (left > 0) {
    ssize_t n = write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(fd);
      unlink(tmp);
      return tess_error_set(err, TESS_ERR_IO, path, "cannot write: %s", strerror(e));
    }
    p += n;
    left -= (size_t)n;
  }
  if (fsync(fd) != 0) {
    int e = errno;
    close(fd);
    unlink(tmp);
    return tess_error_set(err, TESS_ERR_IO, path, "cannot flush to disk: %s", strerror(e));
  }
  if (close(fd) != 0) {
    int e = errno;
    unlink(tmp);
    return tess_error_set(err, TESS_ERR_IO, path, "cannot close: %s", strerror(e));
  }
  if (rename(tmp, path) != 0) {
    int e = errno;
    unlink(tmp);
    return tess_error_set(err, TESS_ERR_IO, path, "cannot replace the file: %s", strerror(e));
  }
  sync_parent_directory(path);
  return TESS_OK;
}
