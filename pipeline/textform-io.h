/* What dump, load and diff share: reading a project from a .tessera file or
 * a dump directory, and replacing a project file atomically. */
#ifndef TESS_PIPELINE_TEXTFORM_IO_H
#define TESS_PIPELINE_TEXTFORM_IO_H

#include "tessera/level.h"

/* A .tessera (opened read-only), a dump directory, or /dev/null (an empty project, for git). */
TessResult tess_cli_read_project(const char *path, TessProject **out, TessError *err);
/* Writes the project to `path` through a temporary file in the same
 * directory and a rename, so readers see the old project or the new one,
 * never a mix. An existing file is replaced only with `force`. */
TessResult tess_cli_write_project(TessProject *p, const char *path, bool force, TessError *err);
/* Prints err as "file:place: detail" and returns TESS_EXIT_FAIL. */
int tess_cli_fail(const TessError *err);

#endif
