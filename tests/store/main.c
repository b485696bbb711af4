/* core/store tests: one runner for every file of this folder. */
#include "store_tests.h"

TESS_TEST_MAIN(TEST(roundtrip_edits_flush_reopen), TEST(roundtrip_save_all), TEST(roundtrip_undo_redo),
               TEST(roundtrip_structure_edits), TEST(floats_keep_every_bit), TEST(random_edits_flush_reopen),
               TEST(flush_writes_only_touched_chunks), TEST(flush_deletes_emptied_chunk_rows),
               TEST(flush_is_one_transaction),
               TEST(closed_file_alone_is_complete), TEST(checkpoint_makes_file_complete),
               TEST(save_copy_reopens_identical), TEST(read_only_refuses_writes),
               TEST(create_refuses_existing_file), TEST(quick_check_after_unclean_close), TEST(reader_while_writer_writes), TEST(second_open_keeps_first_locks),
               TEST(error_newer_schema), TEST(error_not_sqlite), TEST(error_empty_file), TEST(error_missing_file),
               TEST(error_truncated), TEST(error_random_garbage), TEST(error_damaged_pages),
               TEST(error_foreign_sqlite), TEST(error_wrong_blob_sizes), TEST(migration_applies_step), TEST(migration_real_step_adds_pin_motors),
               TEST(migration_real_step_adds_tileset_offsets), TEST(migration_real_step_adds_draw_depth),
               TEST(migration_real_step_adds_body_integrator), TEST(second_writer_is_refused),
               TEST(migration_failure_rolls_back), TEST(codec_layouts_are_little_endian),
               TEST(crash_kill_during_flushes),
               TEST(terrain_sets_flush_reopen_and_undo), TEST(terrain_migration_step_3), TEST(settings_persist_apart_from_content))
