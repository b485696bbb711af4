/* tessera-pipeline diff A B: what changed from A to B (each a project or a
 * dump) in words. With git's seven arguments (PATH OLD-FILE OLD-HEX
 * OLD-MODE NEW-FILE NEW-HEX NEW-MODE) it is a diff driver (README). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "textform-io.h"
#include "tessera/textform.h"

const char tess_cmd_diff_usage[] =
    "diff A B\n"
    "  A and B are projects (.tessera) or dumps (directories). Prints one line per change:\n"
    "  levels, layers, cells (count and bounding box), objects, materials, tilesets, sprites.\n"
    "  Given git's seven arguments it works as git's diff driver for .tessera files.\n"
    "Exit status: 0 no differences, 1 differences (or a failure), 2 usage.\n";

/* git hands the driver its blobs as files in a temporary directory it
 * removes afterwards; SQLite would leave a -shm file beside one, so each
 * input is read from a private copy that we remove whole. */
static TessResult read_copy(const char *path, TessProject **out, TessError *err) {
  struct stat st;
  if (strcmp(path, "/dev/null") == 0 || stat(path, &st) != 0 || S_ISDIR(st.st_mode))
    return tess_cli_read_project(path, out, err);
  char dir[] = "/tmp/tessera-diff-XXXXXX", copy[64], cmd[4400];
  if (!mkdtemp(dir)) return tess_error_set(err, TESS_ERR_IO, path, "cannot make a temporary directory");
  snprintf(copy, sizeof copy, "%s/project.tessera", dir);
  FILE *in = fopen(path, "rb"), *o = fopen(copy, "wb");
  TessResult r = in && o ? TESS_OK : tess_error_set(err, TESS_ERR_IO, path, "cannot read");
  char buf[65536];
  size_t n;
  while (r == TESS_OK && (n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, o) != n) r = tess_error_set(err, TESS_ERR_IO, copy, "cannot write");
  if (in) fclose(in);
  if (o && fclose(o) != 0 && r == TESS_OK) r = tess_error_set(err, TESS_ERR_IO, copy, "cannot write");
  if (r == TESS_OK) r = tess_cli_read_project(copy, out, err);
  if (r != TESS_OK) snprintf(err->file, sizeof err->file, "%s", path);
  snprintf(cmd, sizeof cmd, "%s-wal", copy);
  unlink(cmd);
  snprintf(cmd, sizeof cmd, "%s-shm", copy);
  unlink(cmd);
  unlink(copy);
  rmdir(dir);
  return r;
}

static void print_line(const char *line, void *user) {
  (void)user;
  printf("%s\n", line);
}

int tess_cmd_diff(int argc, char **argv) {
  const char *a = NULL, *b = NULL, *name = NULL;
  if (argc == 8) { /* git: path old-file old-hex old-mode new-file new-hex new-mode */
    name = argv[1];
    a = argv[2];
    b = argv[5];
  } else {
    for (int i = 1; i < argc; i++) {
      if (argv[i][0] == '-' && argv[i][1]) return tess_cmd_usage_error("diff", "unknown option %s", argv[i]);
      if (!a) a = argv[i];
      else if (!b) b = argv[i];
      else return tess_cmd_usage_error("diff", "two projects or dumps, A and B");
    }
  }
  if (!a || !b) return tess_cmd_usage_error("diff", "two projects or dumps, A and B");
  TessError err;
  tess_error_clear(&err);
  TessProject *pa = NULL, *pb = NULL;
  TessResult r = name ? read_copy(a, &pa, &err) : tess_cli_read_project(a, &pa, &err);
  if (r == TESS_OK) r = name ? read_copy(b, &pb, &err) : tess_cli_read_project(b, &pb, &err);
  int status = TESS_EXIT_FAIL;
  if (r == TESS_OK) {
    if (name) printf("tessera diff %s\n", name);
    size_t n = tess_project_diff(pa, pb, print_line, NULL);
    if (n == 0) printf("no differences\n");
    /* git takes a non-zero exit from a diff driver as a failure. */
    status = name ? TESS_EXIT_OK : (n ? TESS_EXIT_FAIL : TESS_EXIT_OK);
  } else {
    tess_cli_fail(&err);
  }
  tess_project_destroy(pa);
  tess_project_destroy(pb);
  return tess_cmd_finish_stdout(status);
}
