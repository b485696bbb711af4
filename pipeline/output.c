/* What every command does with its outputs: refuse an output that would
 * destroy an input (core's tess_output_check, with the command's message),
 * quote names for JSON and for the terminal, and end with an exit status
 * that says whether stdout was really written (`> /dev/full` is a failure,
 * not a success with nothing to show). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "tessera/base.h"

int tess_cmd_check_output(const char *output, const char *const *inputs, size_t input_count, unsigned flags) {
  TessError err;
  tess_error_clear(&err);
  if (tess_output_check(output, inputs, input_count, flags, &err) == TESS_OK) return TESS_EXIT_OK;
  char msg[1400];
  tess_error_format(&err, msg, sizeof msg);
  fprintf(stderr, "%s\n", msg);
  return TESS_EXIT_FAIL;
}

int tess_cmd_finish_stdout(int status) {
  /* fflush reports the buffered part; ferror what failed earlier, when the
   * buffer filled up and stdio wrote (and lost) it on its own. */
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "stdout: cannot write the result: %s\n", errno ? strerror(errno) : "write error");
    return TESS_EXIT_FAIL;
  }
  return status;
}

void tess_cmd_json_string(FILE *f, const char *s) {
  char small[512];
  size_t need = tess_text_json_quote(s, small, sizeof small);
  if (need < sizeof small) {
    fputs(small, f);
    return;
  }
  char *big = malloc(need + 1);
  if (!big) {
    fputs("\"\"", f); /* still valid JSON; the exit status reports nothing else */
    return;
  }
  tess_text_json_quote(s, big, need + 1);
  fputs(big, f);
  free(big);
}

const char *tess_cmd_printable(const char *s, char *buf, size_t size) {
  tess_text_printable(s ? s : "", buf, size);
  return buf;
}
