/* Tessera core/formats: the project's text form for version control.
 *
 * A dump is a directory of small text files that git diffs and merges line
 * by line, and that loads back into exactly the project it came from (equal
 * tess_project_hash and tess_level_content_hash). The layout and the rules
 * (key order, number printing, how ids are chosen so that two branches never
 * hand out the same one) are in core/formats/TEXTFORM.md. */
#ifndef TESSERA_TEXTFORM_H
#define TESSERA_TEXTFORM_H

#include <stdio.h>

#include "tessera/base.h"
#include "tessera/level.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESS_TEXTFORM_VERSION 1
#define TESS_TEXTFORM_MARKER "tessera.json" /* the file that makes a directory a dump */
/* Width of the window above the largest id where a loaded copy starts its new ids. */
#define TESS_TEXTFORM_ID_WINDOW (1u << 20)

/* ---- Numbers ------------------------------------------------------------ */

/* The shortest decimal that reads back (strtod, then a cast to float for
 * the f32 form) as exactly `v`, always with a '.' or an exponent so a JSON
 * reader takes it as a real ("1.0", "-0.0", "0.1", "1e-45"). Non-finite
 * values are not numbers in JSON: they print as "null" and the caller
 * refuses them first. Returns the length; buf holds at least 32 bytes. */
#define TESS_NUMBER_BUF 32
int tess_format_f32(float v, char buf[TESS_NUMBER_BUF]);
int tess_format_f64(double v, char buf[TESS_NUMBER_BUF]);

/* ---- Dump and load ------------------------------------------------------ */

/* Writes the project as text into `dir` (created if missing). A file whose
 * bytes would not change is left alone (so dumping twice touches nothing),
 * and files of an earlier dump that the project no longer has are removed.
 * A non-empty directory that is not a dump is refused (TESS_ERR_INVALID). */
TessResult tess_text_dump(const TessProject *p, const char *dir, TessError *err);

typedef struct TessTextLoadDef {
  /* Where this copy's new ids start: levels, layers, sprites and objects
   * made after the load take ids from a window above every id in the dump
   * chosen by this value (TEXTFORM.md, "Ids"). The pipeline passes random
   * bytes; tests pass fixed values. 0 = right above the largest id. */
  uint64_t id_salt;
} TessTextLoadDef;
void tess_text_load_def_default(TessTextLoadDef *def);

/* Reads a dump. Anything wrong (a conflict marker, a row of the wrong
 * length, an unknown tile or material, a duplicate id, a missing image, a
 * NaN, a value out of range) is refused with the file and line in `err`,
 * and *out is left alone. The project has no history and no pending changes. */
TessResult tess_text_load(const char *dir, const TessTextLoadDef *def, TessProject **out, TessError *err);

/* ---- Differences in words ---------------------------------------------- */

/* Calls `line` once per difference between a and b, in a fixed order
 * (materials, tilesets, sprites, levels; inside a level its settings, layers,
 * cells per layer with count and bounding box, objects added, removed and
 * changed with the fields). Returns the number of lines. */
typedef void (*TessDiffLineFn)(const char *line, void *user);
size_t tess_project_diff(const TessProject *a, const TessProject *b, TessDiffLineFn line, void *user);

#ifdef __cplusplus
}
#endif
#endif
