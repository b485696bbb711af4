/* The meta table: schema version, clean-close flag, the project's id
 * counters, and the tools' per-project settings ("setting.<name>"). */
#include <stdio.h>
#include <string.h>

#include "store_private.h"

static const char *const NEXT_ID_KEYS[TESS_ID_KIND_COUNT] = {
    [TESS_ID_MATERIAL] = "next_id.material",
    [TESS_ID_TILESET] = "next_id.tileset",
    [TESS_ID_SPRITE] = "next_id.sprite",
    [TESS_ID_LEVEL] = "next_id.level",
    [TESS_ID_LAYER] = "next_id.layer",
    [TESS_ID_OBJECT] = "next_id.object",
};

TessResult store_meta_get(TessStore *s, const char *key, int64_t *out, TessError *err) {
  sqlite3_stmt *st = store_stmt(s, STMT_META_GET, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  TessResult r = TESS_OK;
  if (rc == SQLITE_ROW) {
    if (sqlite3_column_type(st, 0) != SQLITE_INTEGER)
      r = tess_error_set(err, TESS_ERR_FORMAT, s->path, "%s is damaged: meta value '%s' is not an integer", s->name,
                         key);
    else
      *out = sqlite3_column_int64(st, 0);
  } else if (rc == SQLITE_DONE) {
    r = tess_error_set(err, TESS_ERR_NOT_FOUND, s->path, "%s has no meta value '%s'", s->name, key);
  } else {
    r = store_db_error(s, rc, "reading meta", err);
  }
  sqlite3_reset(st);
  return r;
}

TessResult store_meta_set(TessStore *s, const char *key, int64_t value, TessError *err) {
  sqlite3_stmt *st = store_stmt(s, STMT_META_SET, err);
  if (!st) return err ? err->code : TESS_ERR_DATABASE;
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, value);
  return store_exec_stmt(s, st, err);
}

TessResult store_write_next_ids(TessStore *s, const TessProject *p, TessError *err) {
  for (int k = 0; k < TESS_ID_KIND_COUNT; k++) {
    if (p->next_id[k] == s->saved_next_id[k]) continue;
    TessResult r = store_meta_set(s, NEXT_ID_KEYS[k], p->next_id[k], err);
    if (r != TESS_OK) return r;
  }
  return TESS_OK;
}

TessResult store_read_next_ids(TessStore *s, TessProject *p, TessError *err) {
  for (int k = 0; k < TESS_ID_KIND_COUNT; k++) {
    int64_t v = 0;
    TessResult r = store_meta_get(s, NEXT_ID_KEYS[k], &v, err);
    if (r == TESS_ERR_NOT_FOUND) {
      v = 0; /* a project that never created anything of this kind */
    } else if (r != TESS_OK) {
      return r;
    } else if (v < 0 || v > (int64_t)UINT32_MAX) {
      return tess_error_set(err, TESS_ERR_FORMAT, s->path, "%s is damaged: meta '%s' is %lld", s->name,
                            NEXT_ID_KEYS[k], (long long)v);
    }
    /* The inserts raised the counters past every id loaded; the file may
     * remember higher ones (ids of removed things are never reused). */
    if ((TessId)v > p->next_id[k]) p->next_id[k] = (TessId)v;
    s->saved_next_id[k] = (TessId)v;
  }
  return TESS_OK;
}

/* "setting." + name: a prefix no key of the store's own uses. */
static TessResult setting_key(const TessStore *s, const char *name, char key[64], TessError *err) {
  if (!name || !name[0] || strlen(name) > 48)
    return tess_error_set(err, TESS_ERR_INVALID, s->path, "setting name '%s' is empty or longer than 48 bytes",
                          name ? name : "");
  snprintf(key, 64, "setting.%s", name);
  return TESS_OK;
}

TessResult tess_store_setting_get(TessStore *s, const char *name, int64_t *out, TessError *err) {
  char key[64];
  TessResult r = setting_key(s, name, key, err);
  if (r != TESS_OK) return r;
  int64_t v = 0;
  r = store_meta_get(s, key, &v, err);
  if (r == TESS_OK) *out = v;
  return r;
}

TessResult tess_store_setting_set(TessStore *s, const char *name, int64_t value, TessError *err) {
  char key[64];
  TessResult r = setting_key(s, name, key, err);
  if (r != TESS_OK) return r;
  if (s->read_only)
    return tess_error_set(err, TESS_ERR_READONLY, s->path, "%s is open read-only: setting '%s' not saved", s->name,
                          name);
  r = store_log_guard(s, err);
  if (r == TESS_OK) r = store_meta_set(s, key, value, err);
  return r == TESS_OK ? store_log_guard(s, err) : r;
}

TessResult tess_store_copy_settings(TessStore *to, TessStore *from, TessError *err) {
  sqlite3_stmt *st = NULL;
  /* One-off: not worth a cached statement. Keys are ours ("setting." + at most 48 bytes). */
  int rc = sqlite3_prepare_v2(from->db,
                              "SELECT key, value FROM meta WHERE substr(key, 1, 8) = 'setting.' ORDER BY key", -1,
                              &st, NULL);
  if (rc != SQLITE_OK) return store_db_error(from, rc, "reading settings", err);
  TessResult r = TESS_OK;
  while (r == TESS_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *key = (const char *)sqlite3_column_text(st, 0);
    if (!key || sqlite3_column_type(st, 1) != SQLITE_INTEGER || strlen(key) >= 64) continue;
    r = tess_store_setting_set(to, key + strlen("setting."), sqlite3_column_int64(st, 1), err);
  }
  if (r == TESS_OK && rc != SQLITE_DONE) r = store_db_error(from, rc, "reading settings", err);
  sqlite3_finalize(st);
  return r;
}
