/* tessera-pipeline validate PROJECT.tessera: the database's own check
 * (PRAGMA quick_check) and core's level checks (tess_project_check, the
 * list export refuses by): objects out of range, bodies naming missing
 * sprites, joints to missing bodies or to themselves, masses beyond a
 * float, bodies inside solid cells, sprites with no collision mask, images
 * that cannot be decoded, unused materials. One line each; exit 1 if any. */
#include <string.h>

#include "commands.h"
#include "tlv_reader.h"
#include "tessera/pack.h"
#include "tessera/level.h"
#include "tessera/store.h"

const char tess_cmd_validate_usage[] =
    "validate PROJECT.tessera\n"
    "  Prints one line per problem: PROJECT: level 'NAME': what is wrong.\n"
    "Exit status: 0 no problems, 1 problems found (or the file cannot be read), 2 usage.\n";

/* One line per problem of core's level checks (tess_project_check): the
 * same list export refuses by and the editor shows. The detail holds names,
 * so it goes to the terminal escaped. */
typedef struct CountingPrinter {
  const char *path;
  int count;
} CountingPrinter;

static void count_problem(const TessProblem *pb, void *user) {
  CountingPrinter *cp = user;
  char shown[8 * sizeof pb->detail];
  printf("%s: %s\n", cp->path, tess_cmd_printable(pb->detail, shown, sizeof shown));
  cp->count++;
}

int tess_cmd_validate(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--version") == 0) {
      printf("tessera-pipeline %s (packed level format %u.%u, writer %u)\n", TESS_VERSION, TLV_VERSION_MAJOR,
             TLV_VERSION_MINOR, TESS_PACK_WRITER_VERSION);
      return TESS_EXIT_OK;
    }
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1]) return tess_cmd_usage_error("validate", "unknown option %s", argv[i]);
    if (path) return tess_cmd_usage_error("validate", "one project at a time");
    path = argv[i];
  }
  if (!path) return tess_cmd_usage_error("validate", "no project given");
  TessStore *store = NULL;
  TessProject *p = NULL;
  TessError err;
  char msg[1400];
  tess_error_clear(&err);
  TessResult r = tess_store_open(path, TESS_STORE_READ_ONLY, &store, &err);
  int problems = 0;
  if (r == TESS_OK && tess_store_quick_check(store, &err) != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    printf("%s\n", msg);
    problems++;
  }
  if (r == TESS_OK) r = tess_store_load(store, &p, &err);
  if (store) tess_store_close(store);
  if (r != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    return TESS_EXIT_FAIL;
  }
  /* Warnings count too: validate is the strict gate, export only refuses errors. */
  CountingPrinter cp = {path, 0};
  tess_project_check(p, count_problem, &cp);
  problems += cp.count;
  tess_project_destroy(p);
  if (problems == 0) printf("%s: no problems\n", path);
  return tess_cmd_finish_stdout(problems ? TESS_EXIT_FAIL : TESS_EXIT_OK);
}
