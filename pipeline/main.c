/* tessera-pipeline: the command line. Links core only: no display, no GTK. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static void print_help(FILE *out) {
  fprintf(out,
          "usage: tessera-pipeline [--help] [--version] COMMAND [OPTIONS]\n"
          "\n"
          "Commands:\n");
  for (size_t i = 0; i < tess_command_count; i++)
    fprintf(out, "  %-10s %s\n", tess_commands[i].name, tess_commands[i].summary);
  fprintf(out, "\n`tessera-pipeline COMMAND --help` describes a command's options.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_help(stderr);
    return TESS_EXIT_USAGE;
  }
  const char *first = argv[1];
  if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
    print_help(stdout);
    return TESS_EXIT_OK;
  }
  if (strcmp(first, "--version") == 0) {
    printf("tessera-pipeline %s\n", TESS_VERSION);
    return TESS_EXIT_OK;
  }
  if (strcmp(first, "help") == 0) {
    if (argc < 3) {
      print_help(stdout);
      return TESS_EXIT_OK;
    }
    const TessCommand *cmd = tess_command_find(argv[2]);
    if (!cmd) {
      fprintf(stderr, "tessera-pipeline: unknown command '%s'\n", argv[2]);
      return TESS_EXIT_USAGE;
    }
    tess_cmd_print_usage(cmd, stdout);
    return TESS_EXIT_OK;
  }
  const TessCommand *cmd = tess_command_find(first);
  if (!cmd) {
    fprintf(stderr, "tessera-pipeline: unknown command '%s'\n", first);
    print_help(stderr);
    return TESS_EXIT_USAGE;
  }
  if (tess_cmd_wants_help(argc - 1, argv + 1)) {
    tess_cmd_print_usage(cmd, stdout);
    return TESS_EXIT_OK;
  }
  return cmd->run(argc - 1, argv + 1);
}
