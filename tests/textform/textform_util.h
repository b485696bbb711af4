/* Helpers the text form's tests share: the demo project, whole files,
 * comparing two dumps, running a shell command. */
#ifndef TESS_TEST_TEXTFORM_UTIL_H
#define TESS_TEST_TEXTFORM_UTIL_H

#include "check.h"
#include "tessera/level.h"

/* The demo project built by data/demo (read-only load); NULL with a message if missing. */
TessProject *tf_load_demo(void);
/* A whole file, NUL-terminated (tess_free it); NULL if missing. */
char *tf_read(const char *path, size_t *size);
void tf_write(const char *path, const char *text);
/* Every file under a and b: same names and same bytes. Prints the first difference. */
bool tf_same_tree(const char *a, const char *b);
/* Line numbers (1-based) where two texts differ, into lines[]; returns how many (lines of equal count). */
size_t tf_changed_lines(const char *a, const char *b, uint32_t *lines, size_t cap);
/* Copies a directory tree (cp -R). */
void tf_copy_tree(const char *from, const char *to);
/* Replaces the first occurrence of `what` in a file; false if absent. */
bool tf_replace_in_file(const char *path, const char *what, const char *with);
/* Every level's content hash equal, and the project hash. */
bool tf_same_hashes(const TessProject *a, const TessProject *b);

#endif
