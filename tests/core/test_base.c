/* core/base: errors, allocator, arrays, vector math, hashes. */
#include "check.h"
#include "tessera/base.h"

static void error_formats_file_and_place(void) {
  TessError err;
  TessResult r = tess_error_set_at(&err, TESS_ERR_FORMAT, "a.tlv", TESS_PLACE_OFFSET, 48, "bad magic %d", 7);
  CHECK(r == TESS_ERR_FORMAT);
  char buf[256];
  tess_error_format(&err, buf, sizeof buf);
  CHECK_MSG(strcmp(buf, "a.tlv:byte 48: bad magic 7") == 0, "%s", buf);
  tess_error_set_at(&err, TESS_ERR_INVALID, "x.sql", TESS_PLACE_LINE, 3, "nan");
  tess_error_format(&err, buf, sizeof buf);
  CHECK(strcmp(buf, "x.sql:3: nan") == 0);
  CHECK(tess_error_set(NULL, TESS_ERR_IO, "f", "no record") == TESS_ERR_IO);
  CHECK(strcmp(tess_result_string(TESS_ERR_NOMEM), "out of memory") == 0);
}

static void allocator_counts_live_bytes(void) {
  int64_t before = tess_alloc_live_bytes();
  char *p = tess_alloc(100);
  CHECK(tess_alloc_live_bytes() - before == 100);
  p = tess_realloc(p, 300);
  CHECK(tess_alloc_live_bytes() - before == 300);
  CHECK(((uintptr_t)p % 16) == 0);
  tess_free(p);
  CHECK(tess_alloc_live_bytes() == before);
  CHECK(tess_calloc(SIZE_MAX / 2, 4) == NULL);
  char *s = tess_strdup("tessera");
  CHECK(strcmp(s, "tessera") == 0);
  tess_free(s);
}

static void array_grows(void) {
  TESS_ARRAY(int)
  a = {0};
  for (int i = 0; i < 1000; i++) CHECK(TESS_ARRAY_PUSH(&a, i * 3));
  CHECK(a.count == 1000);
  CHECK(a.data[999] == 2997);
  TESS_ARRAY_FREE(&a);
  CHECK(a.data == NULL);
}

static void vector_math(void) {
  TessRot q = tess_rot(1.0f);
  TessVec2 v = tess_rot_apply(q, tess_v2(1, 0));
  CHECK_NEAR(v.x, cos(1.0), 1e-6);
  CHECK_NEAR(v.y, sin(1.0), 1e-6);
  TessVec2 back = tess_rot_apply_inv(q, v);
  CHECK_NEAR(back.x, 1.0, 1e-6);
  CHECK_NEAR(tess_v2_cross(tess_v2(1, 0), tess_v2(0, 1)), 1.0, 0);
  CHECK_NEAR(tess_rot_angle(tess_rot_integrate(tess_rot_identity(), 0.001f)), 0.001, 1e-6);
  TessVec2 n = tess_v2_normalize(tess_v2(0, 0));
  CHECK(n.x == 0 && n.y == 0);
}

static void hash_is_stable_and_sensitive(void) {
  /* Golden value: the hash must not change between machines or builds. */
  uint64_t h = tess_hash_bytes("tessera", 7);
  CHECK(h == tess_hash_bytes("tessera", 7));
  CHECK(h != tess_hash_bytes("tesserb", 7));
  TessHasher a, b;
  tess_hasher_init(&a);
  tess_hasher_init(&b);
  tess_hasher_str(&a, "ab");
  tess_hasher_str(&a, "c");
  tess_hasher_str(&b, "a");
  tess_hasher_str(&b, "bc");
  CHECK(tess_hasher_finish(&a) != tess_hasher_finish(&b));
}

TESS_TEST_MAIN(TEST(error_formats_file_and_place), TEST(allocator_counts_live_bytes), TEST(array_grows),
               TEST(vector_math), TEST(hash_is_stable_and_sensitive))
