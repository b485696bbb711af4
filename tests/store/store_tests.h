/* Tests of core/store: shared fixtures (a project with every kind of thing,
 * built through the edit API) and the test cases of each file. */
#ifndef TESS_STORE_TESTS_H
#define TESS_STORE_TESTS_H

#include "check.h"
#include "tessera/level.h"
#include "tessera/store.h"

/* Ids of what build_sample_project made, for later edits. */
typedef struct Sample {
  TessId stone, ice, water; /* materials */
  TessId tileset, sprite;
  TessId level, level2;
  TessId ground, material_layer, objects, decor;                                  /* layers of `level` */
  TessId body_circle, body_sprite, joint_pin, zone_attractor, zone_spring, spawn; /* some objects */
} Sample;

/* Edits a fresh project into one with materials, a tileset with traced
 * tiles, a sprite with a mask, two levels with tile, material and object
 * layers, objects of every kind with properties of every type. */
void build_sample_project(TessProject *p, Sample *ids);

/* Sets every body of p back to the default integrator (Euler) through the edit API: what a
 * file older than schema 7 reads as. Returns how many bodies changed. */
uint32_t forget_integrators(TessProject *p);

/* Opens path (read-only), loads, returns the project (caller destroys), or NULL after a failed CHECK. */
TessProject *load_file(const char *path);
/* Creates path (removing an old one), flushes p's pending changes into it and closes. */
void create_and_flush(const char *path, TessProject *p);
/* cp src dst, byte for byte. */
void copy_file(const char *src, const char *dst);
bool file_exists(const char *path);
/* A value from the file through an independent SQLite connection (sql returns one integer). */
int64_t sql_int(const char *path, const char *sql);
/* Runs SQL on the file through an independent connection; true on success. */
bool sql_exec(const char *path, const char *sql);
/* Makes the current project file at path what a build of schema `version` wrote
 * (tests/common/schema_fixture.h); true on success. */
bool schema_downgrade(const char *path, int version);

/* test_roundtrip.c */
void roundtrip_edits_flush_reopen(void);
void roundtrip_save_all(void);
void roundtrip_undo_redo(void);
void roundtrip_structure_edits(void);
void floats_keep_every_bit(void);
void random_edits_flush_reopen(void);
/* test_flush.c */
void flush_writes_only_touched_chunks(void);
void flush_deletes_emptied_chunk_rows(void);
void flush_is_one_transaction(void);
/* test_files.c */
void closed_file_alone_is_complete(void);
void checkpoint_makes_file_complete(void);
void save_copy_reopens_identical(void);
void read_only_refuses_writes(void);
void create_refuses_existing_file(void);
void quick_check_after_unclean_close(void);
void reader_while_writer_writes(void);
void second_open_keeps_first_locks(void);
/* test_errors.c */
void error_newer_schema(void);
void error_not_sqlite(void);
void error_empty_file(void);
void error_missing_file(void);
void error_truncated(void);
void error_random_garbage(void);
void error_damaged_pages(void);
void error_foreign_sqlite(void);
void error_wrong_blob_sizes(void);
void migration_applies_step(void);
void migration_real_step_adds_pin_motors(void);
void migration_real_step_adds_tileset_offsets(void);
void migration_real_step_adds_draw_depth(void);
void migration_real_step_adds_body_integrator(void);
void second_writer_is_refused(void);
void migration_failure_rolls_back(void);
/* test_codec.c */
void codec_layouts_are_little_endian(void);
/* test_terrain.c */
void terrain_sets_flush_reopen_and_undo(void);
void terrain_migration_step_3(void);
/* test_crash.c */
void crash_kill_during_flushes(void);

/* test_settings.c */
void settings_persist_apart_from_content(void);

#endif
