/* tessera-pipeline diff A B: what changed from A to B (each a project or a
 * dump) in words. With git's seven arguments (PATH OLD-FILE OLD-HEX
 * OLD-MODE NEW-FILE NEW-HEX NEW-MODE) it is a diff driver (README). */
#include <string.h>

#include "commands.h"
#include "textform-io.h"
#include "tessera/textform.h"

const char tess_cmd_diff_usage[] =
    "diff A B\n"
    "  A and B are projects (.tessera) or dumps (directories). Prints one line per change:\n"
    "  levels, layers, cells (count and bounding box), objects, materials, tilesets, sprites.\n"
    "  Given git's seven arguments it works as git's diff driver for .tessera files.\n"
    "Exit status: 0 no differences, 1 differences (or a failure), 2 usage.\n";

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
  TessResult r = tess_cli_read_project(a, &pa, &err);
  if (r == TESS_OK) r = tess_cli_read_project(b, &pb, &err);
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
  return status;
}
