/* core/store tests: one runner for every file of this folder. */
#include "store_tests.h"

TESS_TEST_MAIN(TEST(roundtrip_edits_flush_reopen), TEST(roundtrip_save_all), TEST(roundtrip_undo_redo),
               TEST(roundtrip_structure_edits), TEST(floats_keep_every_bit))
