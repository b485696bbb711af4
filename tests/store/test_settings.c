/* Per-project settings of the tools (tess_store_setting_*): kept in the
 * file, apart from the project's content (the hash does not move), refused
 * on a read-only store, copied from one file to another. */
#include "store_tests.h"

void settings_persist_apart_from_content(void) {
  char path[512], other[512];
  tess_test_path(path, sizeof path, "settings.tessera");
  tess_test_path(other, sizeof other, "settings-copy.tessera");
  TessProject *p = tess_project_create();
  Sample ids;
  build_sample_project(p, &ids);
  create_and_flush(path, p);
  create_and_flush(other, p); /* nothing pending: an empty project */
  tess_project_destroy(p);
  TessProject *before = load_file(path);
  uint64_t hash = before ? tess_project_hash(before) : 0;
  if (before) tess_project_destroy(before);

  TessStore *s = NULL;
  TessError err = {0};
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &s, &err), &err);
  int64_t v = 42;
  CHECK(tess_store_setting_get(s, "editor.keep_dump", &v, &err) == TESS_ERR_NOT_FOUND && v == 42);
  CHECK_OK(tess_store_setting_set(s, "editor.keep_dump", 1, &err), &err);
  CHECK_OK(tess_store_setting_set(s, "zeta", -7, &err), &err);
  CHECK(tess_store_setting_set(s, "", 1, &err) == TESS_ERR_INVALID);
  CHECK(tess_store_setting_set(s, "a-name-longer-than-forty-eight-bytes-is-refused-here", 1, &err) == TESS_ERR_INVALID);
  tess_store_close(s);

  /* Back after a reopen; the content hash is the project's alone. */
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &s, &err), &err);
  CHECK_OK(tess_store_setting_get(s, "editor.keep_dump", &v, &err), &err);
  CHECK(v == 1);
  CHECK(tess_store_setting_set(s, "editor.keep_dump", 0, &err) == TESS_ERR_READONLY);
  TessStore *to = NULL;
  CHECK_OK(tess_store_open(other, TESS_STORE_READ_WRITE, &to, &err), &err);
  CHECK_OK(tess_store_copy_settings(to, s, &err), &err);
  tess_store_close(to);
  tess_store_close(s);
  CHECK(sql_int(path, "SELECT value FROM meta WHERE key = 'setting.editor.keep_dump'") == 1);
  TessProject *after = load_file(path);
  CHECK(after && tess_project_hash(after) == hash);
  if (after) tess_project_destroy(after);

  CHECK_OK(tess_store_open(other, TESS_STORE_READ_ONLY, &s, &err), &err);
  CHECK_OK(tess_store_setting_get(s, "editor.keep_dump", &v, &err), &err);
  CHECK(v == 1);
  CHECK_OK(tess_store_setting_get(s, "zeta", &v, &err), &err);
  CHECK(v == -7);
  tess_store_close(s);
}
