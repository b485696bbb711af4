/* The editor's problem list: core's level checks (tess_project_check, the
 * list `tessera-pipeline validate` prints and export refuses by), told to
 * the user when a project opens. */
#pragma once

#include <glib.h>

#include "tessera/level.h"

G_BEGIN_DECLS

/* Every problem, one line each (core's English sentences), or NULL when
 * there is none; *errors and *warnings count them. */
char *tess_problems_list(const TessProject *p, guint *errors, guint *warnings);
/* One translated sentence for the message bar: how many problems stop the
 * export and how many are warnings, and the first of them. NULL: none. */
char *tess_problems_summary(const TessProject *p);

G_END_DECLS
