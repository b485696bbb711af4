/* tessera-pipeline dump PROJECT.tessera -o DIR: the project as text for
 * version control (core/formats/TEXTFORM.md). */
#include <string.h>

#include "commands.h"
#include "textform-io.h"
#include "tessera/textform.h"

const char tess_cmd_dump_usage[] =
    "dump PROJECT.tessera -o DIR\n"
    "  Writes the project as text files in DIR (created if missing; an earlier dump there is\n"
    "  brought up to date, touching only the files that change). `load` builds it back.\n"
    "Exit status: 0 written, 1 failure, 2 usage.\n";

int tess_cmd_dump(int argc, char **argv) {
  const char *input = NULL, *output = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-o") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("dump", "-o needs a directory");
      output = argv[i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      return tess_cmd_usage_error("dump", "unknown option %s", argv[i]);
    } else if (!input) {
      input = argv[i];
    } else {
      return tess_cmd_usage_error("dump", "one project at a time");
    }
  }
  if (!input) return tess_cmd_usage_error("dump", "no project given");
  if (!output) return tess_cmd_usage_error("dump", "no output (-o DIR)");
  if (tess_cmd_check_output(output, &input, 1, 0) != TESS_EXIT_OK) return TESS_EXIT_FAIL;
  TessError err;
  tess_error_clear(&err);
  TessProject *p = NULL;
  TessResult r = tess_cli_read_project(input, &p, &err);
  if (r == TESS_OK) r = tess_text_dump(p, output, &err);
  tess_project_destroy(p);
  return r == TESS_OK ? TESS_EXIT_OK : tess_cli_fail(&err);
}
