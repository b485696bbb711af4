/* The store's statements: fixed SQL, prepared once (persistent), reused.
 * Values are always bound; no SQL is ever built from a user's string. */
#include <stdio.h>

#include "store_private.h"

#define OBJECT_COLUMNS_SCHEMA1                                                   \
  "id, level_id, layer_id, position, kind, name, x, y, angle, "                  \
  "body_shape, body_type, body_pin, body_sensor, body_sprite, body_material, "   \
  "body_radius, body_width, body_height, body_category, body_mask, "             \
  "joint_kind, joint_limit_enabled, joint_body_a, joint_body_b, "                \
  "joint_anchor_b_x, joint_anchor_b_y, joint_length, joint_lower, joint_upper, " \
  "zone_kind, zone_width, zone_height, zone_vector_x, zone_vector_y, zone_strength, zone_radius"
#define OBJECT_COLUMNS_SCHEMA2 \
  OBJECT_COLUMNS_SCHEMA1 ", joint_motor_enabled, joint_motor_speed, joint_motor_torque" /* schema 2 */
#define OBJECT_COLUMNS_SCHEMA5 OBJECT_COLUMNS_SCHEMA2 ", depth"                         /* schema 5 */
#define OBJECT_COLUMNS_SCHEMA7 OBJECT_COLUMNS_SCHEMA5 ", body_integrator"               /* schema 7 */
#define OBJECT_COLUMNS_SCHEMA8 \
  OBJECT_COLUMNS_SCHEMA7 ", launcher_speed, launcher_radius, launcher_material, launcher_sprite" /* schema 8 */
#define OBJECT_COLUMNS OBJECT_COLUMNS_SCHEMA8 ", body_pixels"                                    /* schema 9 */
#define LAYER_COLUMNS_SCHEMA1 "id, level_id, name, kind, visible, locked, collides, opacity"
#define LAYER_COLUMNS_SCHEMA5 LAYER_COLUMNS_SCHEMA1 ", y_sort" /* schema 5 */
#define LAYER_COLUMNS LAYER_COLUMNS_SCHEMA5 ", collide_pixels" /* schema 6 */

#define SPRITE_COLUMNS                                                                          \
  "id, name, source_path, png, image_w, image_h, frame_count, frame_rate, anchor_x, anchor_y, " \
  "mask_threshold, mask_mode, mask_manual, mask_largest_island_only, mask_max_vertices, "       \
  "mask_tolerance, mask_hull, mask_pieces, mask_circle_x, mask_circle_y, mask_circle_radius, "  \
  "mass_area, mass_centroid_x, mass_centroid_y, mass_inertia, "                                 \
  "shape_area, shape_centroid_x, shape_centroid_y, shape_inertia, added_area, uncovered_area"

#define TILESET_COLUMNS_SCHEMA2                                                              \
  "id, name, source_path, png, image_w, image_h, tile_w, tile_h, margin, spacing, columns, " \
  "tile_count, alpha_threshold, tiles"
#define TILESET_COLUMNS_SCHEMA3 TILESET_COLUMNS_SCHEMA2 ", terrains"             /* schema 3 */
#define TILESET_COLUMNS TILESET_COLUMNS_SCHEMA3 ", offset_x, offset_y, fit_cell" /* schema 4 */

static const char *const SQL[STMT_COUNT] = {
    [STMT_META_GET] = "SELECT value FROM meta WHERE key = ?1",
    [STMT_META_SET] =
        "INSERT INTO meta (key, value) VALUES (?1, ?2) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",

    [STMT_MATERIAL_UPSERT] =
        "INSERT INTO materials (id, name, color, friction, restitution, tangential, density, kind) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (id) DO UPDATE SET "
        "name = excluded.name, color = excluded.color, friction = excluded.friction, "
        "restitution = excluded.restitution, tangential = excluded.tangential, "
        "density = excluded.density, kind = excluded.kind",
    [STMT_MATERIAL_DELETE] = "DELETE FROM materials WHERE id = ?1",
    [STMT_MATERIAL_SELECT_ALL] =
        "SELECT id, name, color, friction, restitution, tangential, density, kind FROM materials ORDER BY id",

    [STMT_TILESET_UPSERT] =
        "INSERT INTO tilesets (" TILESET_COLUMNS
        ") "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18) ON CONFLICT (id) DO UPDATE SET "
        "name = excluded.name, source_path = excluded.source_path, png = excluded.png, "
        "image_w = excluded.image_w, image_h = excluded.image_h, tile_w = excluded.tile_w, "
        "tile_h = excluded.tile_h, margin = excluded.margin, spacing = excluded.spacing, "
        "columns = excluded.columns, tile_count = excluded.tile_count, "
        "alpha_threshold = excluded.alpha_threshold, tiles = excluded.tiles, terrains = excluded.terrains, "
        "offset_x = excluded.offset_x, offset_y = excluded.offset_y, fit_cell = excluded.fit_cell",
    [STMT_TILESET_DELETE] = "DELETE FROM tilesets WHERE id = ?1",
    [STMT_TILESET_SELECT_ALL] = "SELECT " TILESET_COLUMNS " FROM tilesets ORDER BY id",
    /* older files read in place: no terrain sets (schema 2), at offset 0 and their own size (schemas 2, 3) */
    [STMT_TILESET_SELECT_ALL_SCHEMA2] = "SELECT " TILESET_COLUMNS_SCHEMA2 ", NULL, 0, 0, 0 FROM tilesets ORDER BY id",
    [STMT_TILESET_SELECT_ALL_SCHEMA3] = "SELECT " TILESET_COLUMNS_SCHEMA3 ", 0, 0, 0 FROM tilesets ORDER BY id",

    [STMT_SPRITE_UPSERT] =
        "INSERT INTO sprites (" SPRITE_COLUMNS
        ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
        "?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31) "
        "ON CONFLICT (id) DO UPDATE SET name = excluded.name, source_path = excluded.source_path, "
        "png = excluded.png, image_w = excluded.image_w, image_h = excluded.image_h, "
        "frame_count = excluded.frame_count, frame_rate = excluded.frame_rate, "
        "anchor_x = excluded.anchor_x, anchor_y = excluded.anchor_y, "
        "mask_threshold = excluded.mask_threshold, mask_mode = excluded.mask_mode, "
        "mask_manual = excluded.mask_manual, mask_largest_island_only = excluded.mask_largest_island_only, "
        "mask_max_vertices = excluded.mask_max_vertices, mask_tolerance = excluded.mask_tolerance, "
        "mask_hull = excluded.mask_hull, mask_pieces = excluded.mask_pieces, "
        "mask_circle_x = excluded.mask_circle_x, mask_circle_y = excluded.mask_circle_y, "
        "mask_circle_radius = excluded.mask_circle_radius, mass_area = excluded.mass_area, "
        "mass_centroid_x = excluded.mass_centroid_x, mass_centroid_y = excluded.mass_centroid_y, "
        "mass_inertia = excluded.mass_inertia, shape_area = excluded.shape_area, "
        "shape_centroid_x = excluded.shape_centroid_x, shape_centroid_y = excluded.shape_centroid_y, "
        "shape_inertia = excluded.shape_inertia, added_area = excluded.added_area, "
        "uncovered_area = excluded.uncovered_area",
    [STMT_SPRITE_DELETE] = "DELETE FROM sprites WHERE id = ?1",
    [STMT_SPRITE_SELECT_ALL] = "SELECT " SPRITE_COLUMNS " FROM sprites ORDER BY id",

    [STMT_LEVEL_UPSERT] =
        "INSERT INTO levels (id, position, name, width, height, tile_w, tile_h, ppm, gravity_x, gravity_y, "
        "view, physics_hz, substeps, floor_drag) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) ON CONFLICT (id) DO UPDATE SET "
        "position = excluded.position, name = excluded.name, width = excluded.width, "
        "height = excluded.height, tile_w = excluded.tile_w, tile_h = excluded.tile_h, ppm = excluded.ppm, "
        "gravity_x = excluded.gravity_x, gravity_y = excluded.gravity_y, view = excluded.view, "
        "physics_hz = excluded.physics_hz, substeps = excluded.substeps, floor_drag = excluded.floor_drag",
    [STMT_LEVEL_DELETE] = "DELETE FROM levels WHERE id = ?1",
    [STMT_LEVEL_SIZE] = "SELECT width, height FROM levels WHERE id = ?1",
    [STMT_LEVEL_SET_POSITION] = "UPDATE levels SET position = ?2 WHERE id = ?1 AND position IS NOT ?2",
    [STMT_LEVEL_SELECT_ALL] =
        "SELECT id, name, width, height, tile_w, tile_h, ppm, gravity_x, gravity_y, view, physics_hz, "
        "substeps, floor_drag FROM levels ORDER BY position, id",

    [STMT_LAYER_UPSERT] =
        "INSERT INTO layers (id, level_id, position, name, kind, visible, locked, collides, opacity, y_sort, "
        "collide_pixels) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (id) DO UPDATE SET "
        "position = excluded.position, name = excluded.name, kind = excluded.kind, "
        "visible = excluded.visible, locked = excluded.locked, collides = excluded.collides, "
        "opacity = excluded.opacity, y_sort = excluded.y_sort, collide_pixels = excluded.collide_pixels",
    [STMT_LAYER_DELETE] = "DELETE FROM layers WHERE id = ?1",
    [STMT_LAYER_EXISTS] = "SELECT level_id FROM layers WHERE id = ?1",
    [STMT_LAYER_SET_POSITION] = "UPDATE layers SET position = ?2 WHERE id = ?1 AND position IS NOT ?2",
    [STMT_LAYER_SELECT_ALL] = "SELECT " LAYER_COLUMNS " FROM layers ORDER BY level_id, position, id",
    /* not sorted by y, as the step to schema 5 would set it; no layer collides by pixels (schema 6) */
    [STMT_LAYER_SELECT_ALL_SCHEMA4] = "SELECT " LAYER_COLUMNS_SCHEMA1 ", 0, 0 FROM layers ORDER BY level_id, position, id",
    [STMT_LAYER_SELECT_ALL_SCHEMA5] = "SELECT " LAYER_COLUMNS_SCHEMA5 ", 0 FROM layers ORDER BY level_id, position, id",

    [STMT_CHUNK_UPSERT] =
        "INSERT INTO chunks (level_id, layer_id, cx, cy, cells) VALUES (?1, ?2, ?3, ?4, ?5) "
        "ON CONFLICT (layer_id, cy, cx) DO UPDATE SET cells = excluded.cells",
    [STMT_CHUNK_DELETE] = "DELETE FROM chunks WHERE layer_id = ?1 AND cy = ?2 AND cx = ?3",
    [STMT_CHUNK_DELETE_LAYER] = "DELETE FROM chunks WHERE layer_id = ?1",
    /* In storage order: rows written together are read together. */
    [STMT_CHUNK_SELECT_ALL] = "SELECT id, level_id, layer_id, cx, cy, cells FROM chunks",

    [STMT_OBJECT_UPSERT] =
        "INSERT INTO objects (" OBJECT_COLUMNS
        ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
        "?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, "
        "?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45, ?46) ON CONFLICT (id) DO UPDATE SET level_id = excluded.level_id, "
        "layer_id = excluded.layer_id, position = excluded.position, kind = excluded.kind, "
        "name = excluded.name, x = excluded.x, y = excluded.y, angle = excluded.angle, "
        "body_shape = excluded.body_shape, body_type = excluded.body_type, body_pin = excluded.body_pin, "
        "body_sensor = excluded.body_sensor, body_sprite = excluded.body_sprite, "
        "body_material = excluded.body_material, body_radius = excluded.body_radius, "
        "body_width = excluded.body_width, body_height = excluded.body_height, "
        "body_category = excluded.body_category, body_mask = excluded.body_mask, "
        "joint_kind = excluded.joint_kind, joint_limit_enabled = excluded.joint_limit_enabled, "
        "joint_body_a = excluded.joint_body_a, joint_body_b = excluded.joint_body_b, "
        "joint_anchor_b_x = excluded.joint_anchor_b_x, joint_anchor_b_y = excluded.joint_anchor_b_y, "
        "joint_length = excluded.joint_length, joint_lower = excluded.joint_lower, "
        "joint_upper = excluded.joint_upper, zone_kind = excluded.zone_kind, "
        "zone_width = excluded.zone_width, zone_height = excluded.zone_height, "
        "zone_vector_x = excluded.zone_vector_x, zone_vector_y = excluded.zone_vector_y, "
        "zone_strength = excluded.zone_strength, zone_radius = excluded.zone_radius, "
        "joint_motor_enabled = excluded.joint_motor_enabled, joint_motor_speed = excluded.joint_motor_speed, "
        "joint_motor_torque = excluded.joint_motor_torque, depth = excluded.depth, "
        "body_integrator = excluded.body_integrator, launcher_speed = excluded.launcher_speed, "
        "launcher_radius = excluded.launcher_radius, launcher_material = excluded.launcher_material, "
        "launcher_sprite = excluded.launcher_sprite, body_pixels = excluded.body_pixels",
    [STMT_OBJECT_DELETE] = "DELETE FROM objects WHERE id = ?1",
    [STMT_OBJECT_LOCATE] = "SELECT layer_id, position FROM objects WHERE id = ?1",
    [STMT_OBJECT_SET_POSITION] = "UPDATE objects SET position = ?2 WHERE id = ?1 AND position IS NOT ?2",
    [STMT_OBJECT_SELECT_ALL] = "SELECT " OBJECT_COLUMNS " FROM objects ORDER BY layer_id, position, id",
    /* the motor off, depth 0 and Euler, as the steps to schemas 2, 5 and 7 would set them;
     * no launcher columns before schema 8; traced shapes (not pixels) before schema 9 */
    [STMT_OBJECT_SELECT_ALL_SCHEMA1] =
        "SELECT " OBJECT_COLUMNS_SCHEMA1 ", 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, 0 FROM objects ORDER BY layer_id, position, id",
    /* depth 0 and Euler, as the steps to schemas 5 and 7 would set them */
    [STMT_OBJECT_SELECT_ALL_SCHEMA4] =
        "SELECT " OBJECT_COLUMNS_SCHEMA2 ", 0, 0, NULL, NULL, NULL, NULL, 0 FROM objects ORDER BY layer_id, position, id",
    /* Euler, as the step to schema 7 would set it (schemas 5 and 6 have the same object columns) */
    [STMT_OBJECT_SELECT_ALL_SCHEMA5] =
        "SELECT " OBJECT_COLUMNS_SCHEMA5 ", 0, NULL, NULL, NULL, NULL, 0 FROM objects ORDER BY layer_id, position, id",
    [STMT_OBJECT_SELECT_ALL_SCHEMA7] =
        "SELECT " OBJECT_COLUMNS_SCHEMA7 ", NULL, NULL, NULL, NULL, 0 FROM objects ORDER BY layer_id, position, id",
    [STMT_OBJECT_SELECT_ALL_SCHEMA8] = "SELECT " OBJECT_COLUMNS_SCHEMA8 ", 0 FROM objects ORDER BY layer_id, position, id",

    [STMT_PROP_DELETE_OBJECT] = "DELETE FROM object_props WHERE object_id = ?1",
    [STMT_PROP_INSERT] =
        "INSERT INTO object_props (object_id, position, name, type, value) "
        "VALUES (?1, ?2, ?3, ?4, ?5)",
    [STMT_PROP_SELECT] =
        "SELECT position, name, type, value FROM object_props WHERE object_id = ?1 "
        "ORDER BY position",

    /* save_all empties the content tables children first, so no cascade has work to do. */
    [STMT_CLEAR_PROPS] = "DELETE FROM object_props",
    [STMT_CLEAR_OBJECTS] = "DELETE FROM objects",
    [STMT_CLEAR_CHUNKS] = "DELETE FROM chunks",
    [STMT_CLEAR_LAYERS] = "DELETE FROM layers",
    [STMT_CLEAR_LEVELS] = "DELETE FROM levels",
    [STMT_CLEAR_SPRITES] = "DELETE FROM sprites",
    [STMT_CLEAR_TILESETS] = "DELETE FROM tilesets",
    [STMT_CLEAR_MATERIALS] = "DELETE FROM materials",

    [STMT_APPLICATION_ID] = "PRAGMA application_id",
    [STMT_HAS_META] = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
    [STMT_JOURNAL_WAL] = "PRAGMA journal_mode = WAL",
    [STMT_QUICK_CHECK] = "PRAGMA quick_check(1)",
    [STMT_FOREIGN_KEY_CHECK] = "PRAGMA foreign_key_check",
    [STMT_BEGIN] = "BEGIN IMMEDIATE",
    [STMT_BEGIN_READ] = "BEGIN DEFERRED", /* load: one snapshot of the whole file */
    [STMT_COMMIT] = "COMMIT",
    [STMT_ROLLBACK] = "ROLLBACK",
};

sqlite3_stmt *store_stmt(TessStore *s, TessStmt which, TessError *err) {
  sqlite3_stmt *st = s->stmts[which];
  if (!st) {
    int rc = sqlite3_prepare_v3(s->db, SQL[which], -1, SQLITE_PREPARE_PERSISTENT, &st, NULL);
    if (rc != SQLITE_OK) {
      store_db_error(s, rc, "preparing a statement", err);
      sqlite3_finalize(st);
      return NULL;
    }
    s->stmts[which] = st;
  } else {
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
  return st;
}

void store_finalize_all(TessStore *s) {
  for (int i = 0; i < STMT_COUNT; i++) {
    sqlite3_finalize(s->stmts[i]);
    s->stmts[i] = NULL;
  }
}

TessResult store_exec_stmt(TessStore *s, sqlite3_stmt *st, TessError *err) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return store_db_error(s, rc, "writing", err);
  return TESS_OK;
}

TessResult store_run(TessStore *s, TessStmt which, TessError *err) {
  sqlite3_stmt *st = store_stmt(s, which, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  return store_exec_stmt(s, st, err);
}

TessResult store_sqlite_error(sqlite3 *db, const char *path, const char *name, int rc, const char *what,
                              TessError *err) {
  const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xFF) {
    case SQLITE_NOTADB:
      return tess_error_set(err, TESS_ERR_FORMAT, path, "%s is not a Tessera project: it is not an SQLite database",
                            name);
    case SQLITE_CORRUPT:
      return tess_error_set(err, TESS_ERR_FORMAT, path, "%s is damaged (%s: %s)", name, what, msg);
    case SQLITE_NOMEM:
      return tess_error_set(err, TESS_ERR_NOMEM, path, "%s: out of memory while %s", name, what);
    case SQLITE_READONLY:
      return tess_error_set(err, TESS_ERR_READONLY, path, "%s cannot be written (%s: %s)", name, what, msg);
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_PERM:
      return tess_error_set(err, TESS_ERR_IO, path, "%s: %s failed: %s", name, what, msg);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return tess_error_set(err, TESS_ERR_LOCKED, path, "%s is busy: another program holds it (%s)", name, what);
    default:
      return tess_error_set(err, TESS_ERR_DATABASE, path, "%s: %s failed: %s", name, what, msg);
  }
}

TessResult store_db_error(TessStore *s, int rc, const char *what, TessError *err) {
  return store_sqlite_error(s->db, s->path, s->name, rc, what, err);
}
