/* The tests' one way to make an older project file from a current one (a
 * migration test's starting point): drop the columns every later schema
 * step added and set the file's schema_version. Header-only, as
 * project_fixture.h; the SQL is run by the test (its own sqlite3 call).
 *
 * A new migration in core/store/schema.c adds one row below, with the
 * version it brings the file to and the columns it adds; every migration
 * test then starts from the right file without being edited. */
#ifndef TESS_TEST_SCHEMA_FIXTURE_H
#define TESS_TEST_SCHEMA_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TessTestSchemaStep {
  int version;      /* the schema version this step brings a file to */
  const char *drop; /* SQL that takes its columns out again */
} TessTestSchemaStep;

static const TessTestSchemaStep tess_test_schema_steps[] = {
    {2,
     "ALTER TABLE objects DROP COLUMN joint_motor_enabled;"
     "ALTER TABLE objects DROP COLUMN joint_motor_speed;"
     "ALTER TABLE objects DROP COLUMN joint_motor_torque;"},
    {3, "ALTER TABLE tilesets DROP COLUMN terrains;"},
    {4,
     "ALTER TABLE tilesets DROP COLUMN offset_x;"
     "ALTER TABLE tilesets DROP COLUMN offset_y;"
     "ALTER TABLE tilesets DROP COLUMN fit_cell;"},
    {5,
     "ALTER TABLE objects DROP COLUMN depth;"
     "ALTER TABLE layers DROP COLUMN y_sort;"},
    {6, "ALTER TABLE layers DROP COLUMN collide_pixels;"},
    {7, "ALTER TABLE objects DROP COLUMN body_integrator;"},
    {8,
     "ALTER TABLE objects DROP COLUMN launcher_speed;"
     "ALTER TABLE objects DROP COLUMN launcher_radius;"
     "ALTER TABLE objects DROP COLUMN launcher_material;"
     "ALTER TABLE objects DROP COLUMN launcher_sprite;"},
    {9, "ALTER TABLE objects DROP COLUMN body_pixels;"},
};

/* SQL that turns a current project file into what a build of schema
 * `version` wrote (newest steps first); free() it. */
static inline char *tess_test_schema_downgrade_sql(int version) {
  size_t n = sizeof tess_test_schema_steps / sizeof tess_test_schema_steps[0], size = 128;
  for (size_t i = 0; i < n; i++) size += strlen(tess_test_schema_steps[i].drop);
  char *sql = malloc(size);
  if (!sql) return NULL;
  sql[0] = '\0';
  for (size_t i = n; i-- > 0;)
    if (tess_test_schema_steps[i].version > version) strcat(sql, tess_test_schema_steps[i].drop);
  snprintf(sql + strlen(sql), size - strlen(sql), "UPDATE meta SET value = %d WHERE key = 'schema_version';", version);
  return sql;
}

#endif
