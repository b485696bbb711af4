/* tess_text_load: a dump back into a project (layout in TEXTFORM.md).
 *
 * Every file is read whole, checked for merge conflict markers, parsed by
 * jansson (which refuses NaN, duplicate keys and bad UTF-8 with a line),
 * and every value is checked with the line it is on before the project
 * takes it; cell rows have their own parser (text_rows.c). Any failure
 * leaves *out alone. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "formats_text_load.h"

void tess_text_load_def_default(TessTextLoadDef *def) { memset(def, 0, sizeof *def); }

/* ---- files and errors ---- */

TessResult text_load_read(Load *l, const char *rel, char **text, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", l->dir, rel);
  FILE *f = fopen(path, "rb");
  if (!f) return tess_error_set(l->err, errno == ENOENT ? TESS_ERR_NOT_FOUND : TESS_ERR_IO, path, "cannot read: %s", strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size > TL_MAX_FILE) {
    fclose(f);
    return tess_error_set(l->err, TESS_ERR_LIMIT, path, "larger than %llu bytes", (unsigned long long)TL_MAX_FILE);
  }
  size_t size = (size_t)st.st_size;
  char *buf = tess_alloc(size + 1);
  if (!buf) {
    fclose(f);
    return tess_error_set(l->err, TESS_ERR_NOMEM, path, "out of memory");
  }
  size_t got = fread(buf, 1, size, f);
  fclose(f);
  if (got != size) {
    tess_free(buf);
    return tess_error_set(l->err, TESS_ERR_IO, path, "short read");
  }
  buf[size] = '\0';
  *text = buf;
  *len = size;
  return TESS_OK;
}

TessResult text_load_fail(Load *l, const char *rel, uint64_t line, TessResult code, const char *fmt, ...) {
  char path[4096], detail[512];
  snprintf(path, sizeof path, "%s/%s", l->dir, rel);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  if (line) return tess_error_set_at(l->err, code, path, TESS_PLACE_LINE, line, "%s", detail);
  return tess_error_set(l->err, code, path, "%s", detail);
}

/* A git merge that could not decide leaves <<<<<<<, ======= and >>>>>>> lines. */
TessResult text_load_check_markers(Load *l, const char *rel, const char *text, size_t len) {
  uint64_t line = 1;
  const char *s = text, *end = text + len;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
    if (n >= 7 && (!memcmp(s, "<<<<<<<", 7) || !memcmp(s, ">>>>>>>", 7) || !memcmp(s, "=======", 7) ||
                   !memcmp(s, "|||||||", 7)))
      return text_load_fail(l, rel, line, TESS_ERR_FORMAT, "a merge conflict marker (%.7s): resolve the conflict first", s);
    if (!nl) break;
    s = nl + 1;
    line++;
  }
  return TESS_OK;
}

/* The first line at or after `from` that holds "key" (the files are written one key a line). */
uint64_t text_load_line_of(const Json *j, const char *key, uint64_t from) {
  char pat[96];
  snprintf(pat, sizeof pat, "\"%s\"", key ? key : "");
  uint64_t line = 1;
  const char *s = j->text;
  while (*s) {
    const char *nl = strchr(s, '\n');
    if (line >= from) {
      const char *hit = strstr(s, pat);
      if (hit && (!nl || hit < nl)) return line;
    }
    if (!nl) break;
    s = nl + 1;
    line++;
  }
  return from ? from : 1;
}

TessResult text_load_parse(Load *l, const char *rel, Json *j) {
  memset(j, 0, sizeof *j);
  j->l = l;
  snprintf(j->rel, sizeof j->rel, "%s", rel);
  size_t len;
  TessResult r = text_load_read(l, rel, &j->text, &len);
  if (r == TESS_OK) r = text_load_check_markers(l, rel, j->text, len);
  if (r == TESS_OK) {
    json_error_t je;
    j->root = json_loadb(j->text, len, JSON_REJECT_DUPLICATES, &je);
    if (!j->root) r = text_load_fail(l, rel, je.line > 0 ? (uint64_t)je.line : 0, TESS_ERR_FORMAT, "%s", je.text);
    else if (!json_is_object(j->root)) r = text_load_fail(l, rel, 1, TESS_ERR_FORMAT, "not a JSON object");
  }
  if (r) text_load_json_free(j);
  return r;
}

void text_load_json_free(Json *j) {
  if (j->root) json_decref(j->root);
  tess_free(j->text);
  j->root = NULL;
  j->text = NULL;
}

/* ---- typed members: each failure names the key and its line ---- */

static json_t *member(const Json *j, json_t *obj, const char *key, uint64_t from, TessResult *r) {
  json_t *v = json_object_get(obj, key);
  if (!v) *r = text_load_fail(j->l, j->rel, from ? from : 1, TESS_ERR_FORMAT, "missing \"%s\"", key);
  return v;
}

TessResult text_load_u32(const Json *j, json_t *obj, const char *key, uint64_t from, uint32_t *out) {
  TessResult r = TESS_OK;
  json_t *v = member(j, obj, key, from, &r);
  if (!v) return r;
  if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (json_int_t)UINT32_MAX)
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" must be a whole number from 0 to %u",
                          key, UINT32_MAX);
  *out = (uint32_t)json_integer_value(v);
  return TESS_OK;
}

/* An object's optional "depth" (absent = 0, as files written before it). */
TessResult text_load_depth(const Json *j, json_t *obj, int32_t *out) {
  json_t *v = json_object_get(obj, "depth");
  if (!v) return TESS_OK;
  if (!json_is_integer(v) || json_integer_value(v) < TESS_OBJECT_DEPTH_MIN || json_integer_value(v) > TESS_OBJECT_DEPTH_MAX)
    return text_load_fail(j->l, j->rel, text_load_line_of(j, "depth", 1), TESS_ERR_INVALID,
                          "\"depth\" must be a whole number from %d to %d", TESS_OBJECT_DEPTH_MIN, TESS_OBJECT_DEPTH_MAX);
  *out = (int32_t)json_integer_value(v);
  return TESS_OK;
}

TessResult text_load_named_id(const Json *j, TessId named, const char *where, uint32_t *id) {
  TessResult r = text_load_u32(j, j->root, "id", 1, id);
  if (r == TESS_OK && *id != named)
    r = text_load_fail(j->l, j->rel, text_load_line_of(j, "id", 1), TESS_ERR_INVALID,
                       "\"id\" is %" PRIu32 " but the %s is named for %" PRIu32 " (a copied file? ids must be unique)", *id,
                       where, named);
  return r;
}

TessResult text_load_u8(const Json *j, json_t *obj, const char *key, uint64_t from, uint8_t *out) {
  uint32_t v;
  TessResult r = text_load_u32(j, obj, key, from, &v);
  if (r) return r;
  if (v > 255) return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" must be 0..255", key);
  *out = (uint8_t)v;
  return TESS_OK;
}

TessResult text_load_f64(const Json *j, json_t *obj, const char *key, uint64_t from, double *out) {
  TessResult r = TESS_OK;
  json_t *v = member(j, obj, key, from, &r);
  if (!v) return r;
  if (!json_is_number(v) || !isfinite(json_number_value(v)))
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" must be a finite number", key);
  *out = json_number_value(v);
  return TESS_OK;
}

TessResult text_load_f32(const Json *j, json_t *obj, const char *key, uint64_t from, float *out) {
  double d;
  TessResult r = text_load_f64(j, obj, key, from, &d);
  if (r) return r;
  float f = (float)d;
  if (!isfinite(f))
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" is beyond a float's range", key);
  *out = f;
  return TESS_OK;
}

/* A number from an array (vectors, polygons). */
TessResult text_load_item_f32(const Json *j, json_t *arr, size_t i, const char *key, uint64_t from, float *out) {
  json_t *v = json_array_get(arr, i);
  float f = v && json_is_number(v) ? (float)json_number_value(v) : NAN;
  if (!isfinite(f))
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\": item %zu must be a finite number",
                          key, i);
  *out = f;
  return TESS_OK;
}

TessResult text_load_vec(const Json *j, json_t *obj, const char *key, uint64_t from, TessVec2 *out) {
  TessResult r = TESS_OK;
  json_t *v = member(j, obj, key, from, &r);
  if (!v) return r;
  if (!json_is_array(v) || json_array_size(v) != 2)
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" must be [x, y]", key);
  TessVec2 t;
  r = text_load_item_f32(j, v, 0, key, from, &t.x);
  if (r == TESS_OK) r = text_load_item_f32(j, v, 1, key, from, &t.y);
  if (r == TESS_OK) *out = t;
  return r;
}

TessResult text_load_bool(const Json *j, json_t *obj, const char *key, uint64_t from, bool *out) {
  TessResult r = TESS_OK;
  json_t *v = member(j, obj, key, from, &r);
  if (!v) return r;
  if (!json_is_boolean(v))
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" must be true or false", key);
  *out = json_is_true(v);
  return TESS_OK;
}

/* A string member; NULL when the value is null and `nullable`. Borrowed from the JSON. */
TessResult text_load_str(const Json *j, json_t *obj, const char *key, uint64_t from, bool nullable, const char **out) {
  TessResult r = TESS_OK;
  json_t *v = member(j, obj, key, from, &r);
  if (!v) return r;
  if (nullable && json_is_null(v)) {
    *out = NULL;
    return TESS_OK;
  }
  if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v))
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" must be a string", key);
  *out = json_string_value(v);
  return TESS_OK;
}

TessResult text_load_name(const Json *j, json_t *obj, const char *key, uint64_t from, char name[TESS_NAME_MAX]) {
  const char *s;
  TessResult r = text_load_str(j, obj, key, from, false, &s);
  if (r) return r;
  if (strlen(s) >= TESS_NAME_MAX)
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_LIMIT, "\"%s\" is longer than %d bytes", key,
                          TESS_NAME_MAX - 1);
  memset(name, 0, TESS_NAME_MAX);
  memcpy(name, s, strlen(s));
  return TESS_OK;
}

TessResult text_load_word(const Json *j, json_t *obj, const char *key, uint64_t from, const char *const *words, size_t count,
                          uint8_t *out) {
  const char *s;
  TessResult r = text_load_str(j, obj, key, from, false, &s);
  if (r) return r;
  for (size_t i = 0; i < count; i++)
    if (!strcmp(s, words[i])) {
      *out = (uint8_t)i;
      return TESS_OK;
    }
  char list[256] = "";
  for (size_t i = 0; i < count; i++) {
    strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
    strncat(list, words[i], sizeof list - strlen(list) - 1);
  }
  return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" is \"%s\", not one of %s", key, s, list);
}

TessResult text_load_color(const Json *j, json_t *obj, const char *key, uint64_t from, uint32_t *out) {
  const char *s;
  TessResult r = text_load_str(j, obj, key, from, false, &s);
  if (r) return r;
  char *end = NULL;
  unsigned long v = s[0] == '#' && strlen(s) == 9 ? strtoul(s + 1, &end, 16) : 0;
  if (!end || *end)
    return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_INVALID, "\"%s\" must be a colour \"#rrggbbaa\"", key);
  *out = (uint32_t)v;
  return TESS_OK;
}

TessResult text_load_array(const Json *j, json_t *obj, const char *key, uint64_t from, json_t **out) {
  TessResult r = TESS_OK;
  json_t *v = member(j, obj, key, from, &r);
  if (!v) return r;
  if (!json_is_array(v)) return text_load_fail(j->l, j->rel, text_load_line_of(j, key, from), TESS_ERR_FORMAT, "\"%s\" must be a list", key);
  *out = v;
  return TESS_OK;
}

/* Takes an error the model gave (which names its own module) and puts it in the file and line. */
TessResult text_load_rehome(Load *l, const char *rel, uint64_t line, TessResult r) {
  char detail[512];
  snprintf(detail, sizeof detail, "%s", l->err ? l->err->detail : "invalid");
  return text_load_fail(l, rel, line, r, "%s", detail);
}

/* ---- directories ---- */

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Parses "123" + suffix; 0 when the name is not that. */
static TessId id_of_name(const char *name, const char *suffix) {
  char *end = NULL;
  if (name[0] < '1' || name[0] > '9') return 0;
  unsigned long long v = strtoull(name, &end, 10);
  if (!end || strcmp(end, suffix) != 0 || v > UINT32_MAX - 1) return 0;
  return (TessId)v;
}

/* Ids named by the files "<id><suffix>" in rel, sorted; a missing directory is empty. */
TessResult text_load_list_ids(Load *l, const char *rel, const char *suffix, TessId **ids, size_t *count) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", l->dir, rel);
  *ids = NULL;
  *count = 0;
  DIR *dh = opendir(path);
  if (!dh) return errno == ENOENT ? TESS_OK : tess_error_set(l->err, TESS_ERR_IO, path, "cannot list: %s", strerror(errno));
  TESS_ARRAY(TessId)
  found = {0};
  struct dirent *e;
  bool ok = true;
  while ((e = readdir(dh))) {
    TessId id = id_of_name(e->d_name, suffix);
    if (id) ok = ok && TESS_ARRAY_PUSH(&found, id);
  }
  closedir(dh);
  if (!ok) {
    TESS_ARRAY_FREE(&found);
    return tess_error_set(l->err, TESS_ERR_NOMEM, path, "out of memory");
  }
  if (found.count) qsort(found.data, found.count, sizeof(TessId), cmp_u32);
  *ids = found.data;
  *count = found.count;
  return TESS_OK;
}

/* ---- the whole dump ---- */

static TessResult load_top(Load *l, TessId **order, size_t *order_count) {
  Json j;
  TessResult r = text_load_parse(l, TESS_TEXTFORM_MARKER, &j);
  if (r) return r;
  const char *format = NULL;
  uint32_t version = 0;
  r = text_load_str(&j, j.root, "format", 1, false, &format);
  if (r == TESS_OK && strcmp(format, "tessera-text") != 0)
    r = text_load_fail(l, j.rel, text_load_line_of(&j, "format", 1), TESS_ERR_FORMAT, "not a Tessera dump (format \"%s\")", format);
  if (r == TESS_OK) r = text_load_u32(&j, j.root, "version", 1, &version);
  if (r == TESS_OK && version > TESS_TEXTFORM_VERSION)
    r = text_load_fail(l, j.rel, text_load_line_of(&j, "version", 1), TESS_ERR_VERSION,
                       "made by a newer Tessera (text form %u; this one reads %d)", version, TESS_TEXTFORM_VERSION);
  json_t *lo = json_object_get(j.root, "level_order");
  if (r == TESS_OK && lo) {
    r = text_load_array(&j, j.root, "level_order", 1, &lo);
    size_t n = r == TESS_OK ? json_array_size(lo) : 0;
    *order = n ? tess_calloc(n, sizeof **order) : NULL;
    for (size_t i = 0; r == TESS_OK && i < n; i++) {
      json_t *v = json_array_get(lo, i);
      if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > (json_int_t)UINT32_MAX)
        r = text_load_fail(l, j.rel, text_load_line_of(&j, "level_order", 1), TESS_ERR_INVALID, "\"level_order\" holds level ids");
      else (*order)[i] = (TessId)json_integer_value(v);
    }
    *order_count = n;
  }
  text_load_json_free(&j);
  return r;
}

static TessResult load_assets(Load *l) {
  static const struct {
    const char *dir;
    TessResult (*one)(Load *, TessId);
  } kinds[] = {{"materials", text_load_material}, {"tilesets", text_load_tileset}, {"sprites", text_load_sprite}};
  TessResult r = TESS_OK;
  for (size_t k = 0; r == TESS_OK && k < sizeof kinds / sizeof kinds[0]; k++) {
    TessId *ids;
    size_t n;
    r = text_load_list_ids(l, kinds[k].dir, ".json", &ids, &n);
    for (size_t i = 0; r == TESS_OK && i < n; i++) r = kinds[k].one(l, ids[i]);
    tess_free(ids);
  }
  return r;
}

static TessResult load_levels(Load *l, const TessId *order, size_t order_count) {
  TessId *ids;
  size_t n;
  TessResult r = text_load_list_ids(l, "levels", "", &ids, &n);
  if (r) return r;
  if (order) {
    /* The order must name exactly the levels present. */
    TessId *sorted = tess_calloc(order_count ? order_count : 1, sizeof *sorted);
    if (!sorted) r = tess_error_set(l->err, TESS_ERR_NOMEM, l->dir, "out of memory");
    if (r == TESS_OK) {
      memcpy(sorted, order, order_count * sizeof *sorted);
      qsort(sorted, order_count, sizeof *sorted, cmp_u32);
      if (order_count != n || (n && memcmp(sorted, ids, n * sizeof *ids) != 0))
        r = text_load_fail(l, TESS_TEXTFORM_MARKER, 0, TESS_ERR_INVALID,
                           "\"level_order\" does not list exactly the levels in levels/ (%zu listed, %zu there)", order_count, n);
    }
    tess_free(sorted);
  }
  for (size_t i = 0; r == TESS_OK && i < n; i++) r = text_load_level(l, order ? order[i] : ids[i]);
  tess_free(ids);
  return r;
}

/* New ids start above every id in the dump, in a window picked by the salt
 * (TEXTFORM.md, "Ids"): two copies loaded from one dump then hand out
 * different ids, so objects added on two branches do not collide. */
static void place_counters(TessProject *p, uint64_t salt) {
  static const TessIdKind salted[] = {TESS_ID_SPRITE, TESS_ID_LEVEL, TESS_ID_LAYER, TESS_ID_OBJECT};
  for (size_t i = 0; salt && i < sizeof salted / sizeof salted[0]; i++) {
    uint64_t z = salt + 0x9E3779B97F4A7C15ull * (i + 1); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    uint64_t next = (uint64_t)p->next_id[salted[i]] + (z % TESS_TEXTFORM_ID_WINDOW);
    if (next < (uint64_t)UINT32_MAX - TESS_TEXTFORM_ID_WINDOW) p->next_id[salted[i]] = (TessId)next;
  }
}

TessResult tess_text_load(const char *dir, const TessTextLoadDef *def, TessProject **out, TessError *err) {
  TessTextLoadDef d;
  if (def) d = *def;
  else tess_text_load_def_default(&d);
  Load l;
  memset(&l, 0, sizeof l);
  l.dir = dir;
  l.err = err;
  l.p = tess_project_create();
  if (!l.p) return tess_error_set(err, TESS_ERR_NOMEM, dir, "out of memory");
  TextLocale loc;
  text_locale_push(&loc);
  TessId *order = NULL;
  size_t order_count = 0;
  TessResult r = load_top(&l, &order, &order_count);
  if (r == TESS_OK) r = load_assets(&l);
  if (r == TESS_OK) r = load_levels(&l, order, order_count);
  if (r == TESS_OK) r = text_load_check_references(&l);
  tess_free(order);
  TESS_ARRAY_FREE(&l.object_ids);
  TESS_ARRAY_FREE(&l.layer_ids);
  text_locale_pop(&loc);
  if (r) {
    tess_project_destroy(l.p);
    return r;
  }
  place_counters(l.p, d.id_salt);
  tess_project_clear_changes(l.p);
  *out = l.p;
  return TESS_OK;
}
