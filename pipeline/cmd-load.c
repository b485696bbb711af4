/* tessera-pipeline load DIR -o PROJECT.tessera [--force]: a dump back into
 * a project file, replacing an existing one only with --force and then
 * atomically (an editor with it open notices and reloads). */
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "textform-io.h"
#include "tessera/textform.h"

const char tess_cmd_load_usage[] =
    "load DIR -o PROJECT.tessera [--force]\n"
    "  Builds a project from a dump (see `dump`). Anything wrong in the dump (a conflict\n"
    "  marker, a row of the wrong length, an unknown tile...) is reported with its file and\n"
    "  line, and nothing is written.\n"
    "  --force   replace PROJECT.tessera if it exists (atomically)\n"
    "Exit status: 0 written, 1 failure, 2 usage.\n";

/* Where this copy's new ids start (TEXTFORM.md, "Ids"): random, so two
 * designers loading the same dump never hand out the same object id. */
static uint64_t random_salt(void) {
  uint64_t salt = 0;
  int fd = open("/dev/urandom", O_RDONLY);
  if (fd >= 0) {
    if (read(fd, &salt, sizeof salt) != (ssize_t)sizeof salt) salt = 0;
    close(fd);
  }
  if (!salt) salt = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ 0x9E3779B97F4A7C15ull;
  return salt;
}

int tess_cmd_load(int argc, char **argv) {
  const char *input = NULL, *output = NULL;
  bool force = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-o") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("load", "-o needs a project file");
      output = argv[i];
    } else if (strcmp(argv[i], "--force") == 0) {
      force = true;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      return tess_cmd_usage_error("load", "unknown option %s", argv[i]);
    } else if (!input) {
      input = argv[i];
    } else {
      return tess_cmd_usage_error("load", "one dump at a time");
    }
  }
  if (!input) return tess_cmd_usage_error("load", "no dump directory given");
  if (!output) return tess_cmd_usage_error("load", "no output (-o PROJECT.tessera)");
  /* An existing file only with --force (said here, where the way out is known), and
   * then the shared check: never the dump itself, a project only when replacing. */
  if (!force && access(output, F_OK) == 0) {
    fprintf(stderr, "%s: already exists: --force replaces it (nothing was written)\n", output);
    return TESS_EXIT_FAIL;
  }
  if (tess_cmd_check_output(output, &input, 1, TESS_OUTPUT_REPLACE_PROJECT) != TESS_EXIT_OK) return TESS_EXIT_FAIL;
  TessError err;
  tess_error_clear(&err);
  TessTextLoadDef def;
  tess_text_load_def_default(&def);
  def.id_salt = random_salt();
  TessProject *p = NULL;
  TessResult r = tess_text_load(input, &def, &p, &err);
  if (r == TESS_OK) r = tess_cli_write_project(p, output, force, &err);
  tess_project_destroy(p);
  return r == TESS_OK ? TESS_EXIT_OK : tess_cli_fail(&err);
}
