/* The meta table: schema version, clean-close flag, the project's id counters. */
#include <stdio.h>
#include <string.h>

#include "store_private.h"

static const char *const NEXT_ID_KEYS[TESS_ID_KIND_COUNT] = {
    [TESS_ID_MATERIAL] = "next_id.material", [TESS_ID_TILESET] = "next_id.tileset",
    [TESS_ID_SPRITE] = "next_id.sprite",     [TESS_ID_LEVEL] = "next_id.level",
    [TESS_ID_LAYER] = "next_id.layer",       [TESS_ID_OBJECT] = "next_id.object",
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
