/* See tess-problems.h. The checks are core's; the editor only counts and
 * words them. */
#include "tess-problems.h"

#include <glib/gi18n.h>

typedef struct Collect {
  GString *text;
  guint errors, warnings;
  char *first; /* the first error, else the first warning */
  gboolean first_is_error;
} Collect;

static void collect(const TessProblem *pb, void *user) {
  Collect *c = user;
  gboolean error = pb->severity == TESS_PROBLEM_ERROR;
  if (error) c->errors++;
  else c->warnings++;
  g_string_append_printf(c->text, "%s%s\n", error ? "" : "(warning) ", pb->detail);
  if (!c->first || (error && !c->first_is_error)) {
    g_free(c->first);
    c->first = g_strdup(pb->detail);
    c->first_is_error = error;
  }
}

static Collect run(const TessProject *p) {
  Collect c = {g_string_new(NULL), 0, 0, NULL, FALSE};
  tess_project_check(p, collect, &c);
  return c;
}

char *tess_problems_list(const TessProject *p, guint *errors, guint *warnings) {
  Collect c = run(p);
  if (errors) *errors = c.errors;
  if (warnings) *warnings = c.warnings;
  g_free(c.first);
  return g_string_free(c.text, c.errors + c.warnings == 0);
}

char *tess_problems_summary(const TessProject *p) {
  Collect c = run(p);
  g_string_free(c.text, TRUE);
  if (c.errors + c.warnings == 0) return NULL;
  /* Core's sentence stays English (core has no gettext); the frame is translated. */
  g_autofree char *counts = c.errors
                                ? g_strdup_printf(ngettext("%u problem stops the export", "%u problems stop the export", c.errors), c.errors)
                                : g_strdup_printf(ngettext("%u warning", "%u warnings", c.warnings), c.warnings);
  char *text = g_strdup_printf(_("This project needs attention: %s. %s"), counts, c.first);
  g_free(c.first);
  return text;
}
