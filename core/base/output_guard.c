/* The one place that decides whether a command may write a file: never over
 * one of its own inputs, never over a project. Every command of the
 * pipeline (and core's own writers) asks here before it creates, truncates
 * or renames over an output, so a mistyped `-o demo.tessera` or
 * `--depfile demo.tessera` can never destroy the project it reads.
 *
 * "The same file" is the kernel's answer (device and inode through stat),
 * not a comparison of spellings, so symlinks, "..", hard links and "./"
 * are all seen through. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tessera/base.h"

/* SQLite's file header: these 16 bytes (with the NUL) open every database. */
static const char SQLITE_MAGIC[16] = "SQLite format 3";

bool tess_file_is_sqlite(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  char head[sizeof SQLITE_MAGIC];
  struct stat st;
  bool sqlite = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read(fd, head, sizeof head) == (ssize_t)sizeof head &&
                memcmp(head, SQLITE_MAGIC, sizeof head) == 0;
  close(fd);
  return sqlite;
}

bool tess_file_same(const char *a, const char *b) {
  struct stat sa, sb;
  return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

TessResult tess_output_check(const char *output, const char *const *inputs, size_t input_count, unsigned flags,
                             TessError *err) {
  if (!output || !*output) return tess_error_set(err, TESS_ERR_INVALID, output, "no output file given");
  for (size_t i = 0; i < input_count; i++) {
    if (inputs[i] && tess_file_same(output, inputs[i]))
      return tess_error_set(err, TESS_ERR_INVALID, output,
                            "the output is the same file as the input %s; choose another output", inputs[i]);
  }
  /* lstat too: a symlink named as the output would be replaced by the
   * rename, but a plain open would write through it into its target. */
  struct stat st;
  if (lstat(output, &st) != 0) return TESS_OK; /* nothing there yet */
  if (!(flags & TESS_OUTPUT_REPLACE_PROJECT) && tess_file_is_sqlite(output))
    return tess_error_set(err, TESS_ERR_INVALID, output,
                          "is an SQLite database (a Tessera project?): it is never overwritten; choose another output");
  return TESS_OK;
}
