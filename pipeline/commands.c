/* The command table: add a command by writing pipeline/cmd-<name>.c,
 * declaring it in commands.h and adding one line here. */
#include <stdarg.h>
#include <string.h>

#include "commands.h"

const TessCommand tess_commands[] = {
    {"trace", "trace a sprite's alpha into a collision shape and mass properties",
     "trace SPRITE.png [--threshold A] [--max-vertices N] [--mode hull|pieces] [--tolerance PX]\n"
     "                 [--ppm P] [--density D] [--largest-island] [--json]\n"
     "  --threshold A     alpha >= A counts as opaque (0..255, default 1)\n"
     "  --max-vertices N  simplified hull and piece size, 3..64 (default 8)\n"
     "  --mode M          hull: exact and simplified hull (default); pieces: convex decomposition too\n"
     "  --tolerance PX    outline simplification for pieces, pixels (default 1)\n"
     "  --largest-island  pieces: keep only the largest island\n"
     "  --ppm P           pixels per metre; with --density, mass in kg and inertia in kg m^2\n"
     "  --density D       material density, kg/m^2\n"
     "  --json            one JSON document on stdout (see pipeline/README-trace.md)\n",
     tess_cmd_trace},
    {"export", "pack levels into .tlv files for games, on all cores", tess_cmd_export_usage, tess_cmd_export},
    {"info", "describe a .tlv file and check that it validates", tess_cmd_info_usage, tess_cmd_info},
    {"validate", "check a project for damage and level problems", tess_cmd_validate_usage, tess_cmd_validate},
    {"render", "draw a level (project or .tlv) into a PNG, no display needed", tess_cmd_render_usage, tess_cmd_render},
    {"import", "bring an orthogonal Tiled map (.tmx, .tmj) into a project as a new level", tess_cmd_import_usage,
     tess_cmd_import},
    {"dump", "write a project as text files for version control", tess_cmd_dump_usage, tess_cmd_dump},
    {"load", "build a project from a dump (exactly the one dumped)", tess_cmd_load_usage, tess_cmd_load},
    {"diff", "say what changed between two projects or dumps, in words", tess_cmd_diff_usage, tess_cmd_diff},
};
const size_t tess_command_count = sizeof tess_commands / sizeof tess_commands[0];

const TessCommand *tess_command_find(const char *name) {
  for (size_t i = 0; i < tess_command_count; i++)
    if (strcmp(tess_commands[i].name, name) == 0) return &tess_commands[i];
  return NULL;
}

void tess_cmd_print_usage(const TessCommand *cmd, FILE *out) {
  fprintf(out, "usage: tessera-pipeline %s", cmd->usage);
}

int tess_cmd_usage_error(const char *name, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "tessera-pipeline %s: ", name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  const TessCommand *cmd = tess_command_find(name);
  if (cmd) tess_cmd_print_usage(cmd, stderr);
  return TESS_EXIT_USAGE;
}

int tess_cmd_wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) break;
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return 1;
  }
  return 0;
}
