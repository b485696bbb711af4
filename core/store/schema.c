/* The project file's tables (schema version 1, then the steps to the
 * current version) and the migration runner.
 *
 * Conventions of the schema:
 * - ids are the project's stable ids (INTEGER PRIMARY KEY);
 * - float columns are declared without a type: a typed REAL column turns
 *   -0.0 into 0 (SQLite stores integral reals as integers), and every bit
 *   must survive so that a reopened project hashes the same. SQLite stores
 *   NaN as NULL, so a NULL in a float column reads back as NaN;
 * - BLOBs are little-endian with explicit layouts (store_codec.h);
 * - structure cascades: deleting a level deletes its layers, a layer its
 *   chunks and objects, an object its properties. */
#include <stdio.h>
#include <string.h>

#include "store_private.h"

static const char SCHEMA_V1[] =
    "CREATE TABLE meta ("
    "  key TEXT PRIMARY KEY NOT NULL,"
    "  value NOT NULL"
    ");"
    "CREATE TABLE materials ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  color INTEGER NOT NULL," /* 0xRRGGBBAA */
    "  friction, restitution, tangential, density,"
    "  kind INTEGER NOT NULL" /* TessMaterialKind */
    ");"
    "CREATE TABLE tilesets ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  source_path TEXT,"
    "  png BLOB," /* the PNG file's bytes */
    "  image_w INTEGER NOT NULL, image_h INTEGER NOT NULL,"
    "  tile_w INTEGER NOT NULL, tile_h INTEGER NOT NULL,"
    "  margin INTEGER NOT NULL, spacing INTEGER NOT NULL,"
    "  columns INTEGER NOT NULL, tile_count INTEGER NOT NULL,"
    "  alpha_threshold INTEGER NOT NULL,"
    "  tiles BLOB NOT NULL" /* per-tile info with traced pieces (store_codec.h) */
    ");"
    "CREATE TABLE sprites ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  source_path TEXT,"
    "  png BLOB,"
    "  image_w INTEGER NOT NULL, image_h INTEGER NOT NULL,"
    "  frame_count INTEGER NOT NULL, frame_rate,"
    "  anchor_x, anchor_y," /* pixels within a frame */
    "  mask_threshold INTEGER NOT NULL, mask_mode INTEGER NOT NULL,"
    "  mask_manual INTEGER NOT NULL, mask_largest_island_only INTEGER NOT NULL,"
    "  mask_max_vertices INTEGER NOT NULL, mask_tolerance,"
    "  mask_hull BLOB,"   /* points (store_codec.h) */
    "  mask_pieces BLOB," /* polygons (store_codec.h) */
    "  mask_circle_x, mask_circle_y, mask_circle_radius,"
    "  mass_area, mass_centroid_x, mass_centroid_y, mass_inertia,"
    "  shape_area, shape_centroid_x, shape_centroid_y, shape_inertia,"
    "  added_area, uncovered_area"
    ");"
    "CREATE TABLE levels ("
    "  id INTEGER PRIMARY KEY,"
    "  position INTEGER NOT NULL," /* order in the project */
    "  name TEXT NOT NULL,"
    "  width INTEGER NOT NULL, height INTEGER NOT NULL,"
    "  tile_w INTEGER NOT NULL, tile_h INTEGER NOT NULL,"
    "  ppm, gravity_x, gravity_y,"
    "  view INTEGER NOT NULL,"
    "  physics_hz, substeps INTEGER NOT NULL, floor_drag"
    ");"
    "CREATE TABLE layers ("
    "  id INTEGER PRIMARY KEY,"
    "  level_id INTEGER NOT NULL REFERENCES levels(id) ON DELETE CASCADE,"
    "  position INTEGER NOT NULL," /* bottom to top */
    "  name TEXT NOT NULL,"
    "  kind INTEGER NOT NULL,"
    "  visible INTEGER NOT NULL, locked INTEGER NOT NULL, collides INTEGER NOT NULL,"
    "  opacity,"
    "  UNIQUE (id, level_id)"
    ");"
    "CREATE INDEX layers_by_level ON layers(level_id, position);"
    /* One row per non-empty chunk; an emptied chunk's row is deleted. */
    "CREATE TABLE chunks ("
    "  id INTEGER PRIMARY KEY,"
    "  level_id INTEGER NOT NULL,"
    "  layer_id INTEGER NOT NULL,"
    "  cx INTEGER NOT NULL, cy INTEGER NOT NULL,"
    "  cells BLOB NOT NULL," /* TESS_CHUNK_CELLS little-endian uint32, row-major */
    "  UNIQUE (layer_id, cy, cx),"
    "  FOREIGN KEY (layer_id, level_id) REFERENCES layers(id, level_id) ON DELETE CASCADE"
    ");"
    "CREATE TABLE objects ("
    "  id INTEGER PRIMARY KEY,"
    "  level_id INTEGER NOT NULL,"
    "  layer_id INTEGER NOT NULL,"
    "  position INTEGER NOT NULL," /* order within the layer */
    "  kind INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  x, y, angle,"
    /* the columns of the object's kind are set, the others NULL */
    "  body_shape INTEGER, body_type INTEGER, body_pin INTEGER, body_sensor INTEGER,"
    "  body_sprite INTEGER, body_material INTEGER,"
    "  body_radius, body_width, body_height,"
    "  body_category INTEGER, body_mask INTEGER,"
    "  joint_kind INTEGER, joint_limit_enabled INTEGER,"
    "  joint_body_a INTEGER, joint_body_b INTEGER,"
    "  joint_anchor_b_x, joint_anchor_b_y, joint_length, joint_lower, joint_upper,"
    "  zone_kind INTEGER, zone_width, zone_height, zone_vector_x, zone_vector_y,"
    "  zone_strength, zone_radius,"
    "  FOREIGN KEY (layer_id, level_id) REFERENCES layers(id, level_id) ON DELETE CASCADE"
    ");"
    "CREATE INDEX objects_by_layer ON objects(layer_id, position);"
    "CREATE TABLE object_props ("
    "  object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,"
    "  position INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  type INTEGER NOT NULL," /* TessPropType */
    "  value,"                 /* TEXT, INTEGER, or a float */
    "  PRIMARY KEY (object_id, position)"
    ") WITHOUT ROWID;";

/* The real history. A new file is created at version 1 (SCHEMA_V1) and
 * then runs every step, so new and upgraded files have the same tables.
 * A step only adds: an old build's file keeps every row, and the new
 * columns read as their DEFAULT (a pin's motor is off). */
static const TessStoreMigration STEPS[] = {
    {1, "pin joint motors",
     "ALTER TABLE objects ADD COLUMN joint_motor_enabled INTEGER DEFAULT 0;"
     "ALTER TABLE objects ADD COLUMN joint_motor_speed DEFAULT 0;"         /* rad/s */
     "ALTER TABLE objects ADD COLUMN joint_motor_torque DEFAULT 0;"},      /* N m */
    {2, "terrain sets", "ALTER TABLE tilesets ADD COLUMN terrains BLOB;"}, /* NULL: none (codec_terrain.c) */
    {3, "tileset drawing offset and fit to the cell",
     "ALTER TABLE tilesets ADD COLUMN offset_x INTEGER NOT NULL DEFAULT 0;" /* px, Tiled's tileoffset */
     "ALTER TABLE tilesets ADD COLUMN offset_y INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE tilesets ADD COLUMN fit_cell INTEGER NOT NULL DEFAULT 0;"}, /* 1: tiles scaled into the cell */
    {4, "draw depth order",
     "ALTER TABLE objects ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;"   /* TESS_OBJECT_DEPTH_MIN..MAX */
     "ALTER TABLE layers ADD COLUMN y_sort INTEGER NOT NULL DEFAULT 0;"}, /* 1: objects sorted by y */
    {5, "tile layers that collide by pixels",
     "ALTER TABLE layers ADD COLUMN collide_pixels INTEGER NOT NULL DEFAULT 0;"}, /* 1: a pixel mask */
    {6, "per-body integrator",
     "ALTER TABLE objects ADD COLUMN body_integrator INTEGER DEFAULT 0;"}, /* TessIntegrator: 0 Euler, 1 RK4 */
    {7, "launchers",                                                       /* the columns of a launcher object */
     "ALTER TABLE objects ADD COLUMN launcher_speed;"                      /* m/s, 0 = any speed */
     "ALTER TABLE objects ADD COLUMN launcher_radius;"                     /* px */
     "ALTER TABLE objects ADD COLUMN launcher_material INTEGER;"
     "ALTER TABLE objects ADD COLUMN launcher_sprite INTEGER;"},
    {8, "static bodies that collide by pixels",
     "ALTER TABLE objects ADD COLUMN body_pixels INTEGER DEFAULT 0;"}, /* 1: the sprite's pixel mask, not its shapes */
};
_Static_assert(sizeof STEPS / sizeof STEPS[0] == TESS_STORE_SCHEMA_VERSION - 1, "one step per version after 1");
static const TessStoreSchema CURRENT_SCHEMA = {TESS_STORE_SCHEMA_VERSION, STEPS, sizeof STEPS / sizeof STEPS[0]};

const TessStoreSchema *store_schema_current(void) { return &CURRENT_SCHEMA; }

TessResult store_create_schema(TessStore *s, TessError *err) {
  char *msg = NULL;
  int rc = sqlite3_exec(s->db, SCHEMA_V1, NULL, NULL, &msg);
  if (rc != SQLITE_OK) {
    TessResult r = tess_error_set(err, TESS_ERR_DATABASE, s->path, "cannot create the tables of %s: %s", s->name,
                                  msg ? msg : sqlite3_errstr(rc));
    sqlite3_free(msg);
    return r;
  }
  TessResult r = store_meta_set(s, "schema_version", 1, err);
  if (r == TESS_OK) r = store_meta_set(s, "clean_close", 0, err);
  return r;
}

/* True when PRAGMA foreign_key_check reports no violation. */
static TessResult check_foreign_keys(TessStore *s, TessError *err) {
  sqlite3_stmt *st = store_stmt(s, STMT_FOREIGN_KEY_CHECK, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  int rc = sqlite3_step(st);
  TessResult r = TESS_OK;
  if (rc == SQLITE_ROW) {
    const char *table = (const char *)sqlite3_column_text(st, 0);
    r = tess_error_set(err, TESS_ERR_FORMAT, s->path, "%s: a row of table %s refers to a missing row (row %lld)",
                       s->name, table ? table : "?", (long long)sqlite3_column_int64(st, 1));
  } else if (rc != SQLITE_DONE) {
    r = store_db_error(s, rc, "checking foreign keys", err);
  }
  sqlite3_reset(st);
  return r;
}

TessResult store_migrate(TessStore *s, const TessStoreSchema *schema, TessError *err) {
  /* Foreign keys are switched off while tables are rebuilt (SQLite's
   * recipe for ALTER TABLE) and checked as a whole before the commit. */
  int rc = sqlite3_exec(s->db, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
  if (rc != SQLITE_OK) return store_db_error(s, rc, "preparing the migration", err);
  rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (rc != SQLITE_OK) {
    sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    return store_db_error(s, rc, "starting the migration", err);
  }
  TessResult r = TESS_OK;
  /* Another process may have migrated the file since we looked. */
  int64_t version = 0;
  r = store_meta_get(s, "schema_version", &version, err);
  for (uint32_t v = (uint32_t)version; r == TESS_OK && v < schema->version; v++) {
    const TessStoreMigration *step = NULL;
    for (uint32_t i = 0; i < schema->step_count; i++)
      if (schema->steps[i].from_version == v) step = &schema->steps[i];
    if (!step) {
      r = tess_error_set(err, TESS_ERR_VERSION, s->path, "%s uses schema %u and no step upgrades it to %u", s->name,
                         v, v + 1);
      break;
    }
    char *msg = NULL;
    rc = sqlite3_exec(s->db, step->sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
      r = tess_error_set(err, TESS_ERR_DATABASE, s->path, "upgrading %s from schema %u to %u (%s) failed: %s",
                         s->name, v, v + 1, step->what, msg ? msg : sqlite3_errstr(rc));
      sqlite3_free(msg);
      break;
    }
    r = store_meta_set(s, "schema_version", (int64_t)v + 1, err);
  }
  if (r == TESS_OK) r = check_foreign_keys(s, err);
  if (r == TESS_OK) {
    rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) r = store_db_error(s, rc, "committing the migration", err);
  }
  if (r != TESS_OK) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
  rc = sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
  if (r == TESS_OK && rc != SQLITE_OK) r = store_db_error(s, rc, "after the migration", err);
  return r;
}
