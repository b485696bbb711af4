/* tessera-pipeline: the command table. Each command lives in its own
 * pipeline/cmd-<name>.c, defines `int tess_cmd_<name>(int argc, char **argv)`
 * (argv[0] is the command's name, options follow) and is listed once in
 * commands.c. Exit codes: 0 success, 1 failure (a message
 * "file:place: detail" on stderr), 2 usage error. */
#ifndef TESS_PIPELINE_COMMANDS_H
#define TESS_PIPELINE_COMMANDS_H

#include <stdio.h>

#define TESS_EXIT_OK 0
#define TESS_EXIT_FAIL 1
#define TESS_EXIT_USAGE 2

typedef struct TessCommand {
  const char *name;
  const char *summary; /* one line for `tessera-pipeline --help` */
  const char *usage;   /* the synopsis and options, for `COMMAND --help` */
  int (*run)(int argc, char **argv);
} TessCommand;

extern const TessCommand tess_commands[];
extern const size_t tess_command_count;

const TessCommand *tess_command_find(const char *name);
/* "tessera-pipeline NAME: message" plus the command's synopsis on stderr; returns TESS_EXIT_USAGE. */
int tess_cmd_usage_error(const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* True when argv holds -h or --help (the command then prints its usage and exits 0). */
int tess_cmd_wants_help(int argc, char **argv);
void tess_cmd_print_usage(const TessCommand *cmd, FILE *out);

/* ---- Outputs (output.c) ---- */
/* Refuses an output that is one of the inputs or an existing project (see
 * tess_output_check in tessera/base.h): prints "OUTPUT: why" and returns
 * TESS_EXIT_FAIL, else TESS_EXIT_OK. Call it for every file a command writes,
 * before anything is opened. */
int tess_cmd_check_output(const char *output, const char *const *inputs, size_t input_count, unsigned flags);
/* Flushes stdout: `status`, or TESS_EXIT_FAIL (with a message) when anything
 * written to stdout was lost. Every command that prints a result ends with it. */
int tess_cmd_finish_stdout(int status);
/* s as a JSON string (valid UTF-8, control characters escaped). */
void tess_cmd_json_string(FILE *f, const char *s);
/* s with control characters and bytes that are not UTF-8 escaped, for the
 * terminal; returns buf (8 bytes per input byte suffice). */
const char *tess_cmd_printable(const char *s, char *buf, size_t size);
#define TESS_CMD_PRINTABLE_NAME 520 /* a buffer for any TESS_NAME_MAX name */

/* One declaration per command (keep in the order of commands.c). */
int tess_cmd_trace(int argc, char **argv);
int tess_cmd_export(int argc, char **argv);
extern const char tess_cmd_export_usage[];
int tess_cmd_info(int argc, char **argv);
extern const char tess_cmd_info_usage[];
int tess_cmd_validate(int argc, char **argv);
extern const char tess_cmd_validate_usage[];
int tess_cmd_render(int argc, char **argv);
extern const char tess_cmd_render_usage[];
int tess_cmd_import(int argc, char **argv);
extern const char tess_cmd_import_usage[];
int tess_cmd_dump(int argc, char **argv);
extern const char tess_cmd_dump_usage[];
int tess_cmd_load(int argc, char **argv);
extern const char tess_cmd_load_usage[];
int tess_cmd_diff(int argc, char **argv);
extern const char tess_cmd_diff_usage[];

#endif
