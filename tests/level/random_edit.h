/* Random edits for property tests (random_edit.c). */
#ifndef TESS_TEST_RANDOM_EDIT_H
#define TESS_TEST_RANDOM_EDIT_H

#include "fixture.h"

/* One random edit of any kind. Returns what the call returned (failures are
 * fine: a locked layer, a removed id; they must leave the project alone). */
#define EDIT_KINDS 26
extern int edit_kind; /* which branch random_edit took */
TessResult random_edit(TessProject *p, TessTestRng *rng, uint32_t *merge_key, TessError *err);

#endif
