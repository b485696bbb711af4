#include "pack_buffer.h"

#include <string.h>

void pack_buf_free(PackBuf *b) {
  tess_free(b->data);
  memset(b, 0, sizeof *b);
}

uint8_t *pack_buf_grow(PackBuf *b, size_t n) {
  size_t need;
  if (b->failed || !tess_size_add(b->size, n, &need)) {
    b->failed = true;
    return NULL;
  }
  if (need > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
      if (cap > SIZE_MAX / 2) {
        cap = need;
        break;
      }
      cap *= 2;
    }
    uint8_t *p = tess_realloc(b->data, cap);
    if (!p) {
      b->failed = true;
      return NULL;
    }
    b->data = p;
    b->cap = cap;
  }
  uint8_t *at = b->data + b->size;
  memset(at, 0, n);
  b->size = need;
  return at;
}

uint8_t *pack_buf_append_slow(PackBuf *b, size_t n) {
  /* Grows (zeroing, which costs nothing here), then hands the bytes over. */
  return pack_buf_grow(b, n);
}

void pack_put_f32(PackBuf *b, float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  pack_put_u32(b, u);
}

void pack_put_f64(PackBuf *b, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  pack_put_u64(b, u);
}

void pack_put_bytes(PackBuf *b, const void *data, size_t n) {
  if (n == 0) return;
  uint8_t *p = pack_buf_append(b, n);
  if (p) memcpy(p, data, n);
}

void pack_pad(PackBuf *b, size_t align) {
  size_t rem = b->size % align;
  if (rem) pack_buf_grow(b, align - rem);
}

/* ---- Map ---------------------------------------------------------------- */

static size_t hash_u64(uint64_t k) {
  uint64_t h = (k ^ (k >> 29)) * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 32);
}

void pack_map_free(PackMap *m) {
  tess_free(m->keys);
  tess_free(m->values);
  tess_free(m->used);
  memset(m, 0, sizeof *m);
}

bool pack_map_get(const PackMap *m, uint64_t key, uint32_t *value) {
  if (!m->cap) return false;
  size_t mask = m->cap - 1;
  for (size_t i = hash_u64(key) & mask;; i = (i + 1) & mask) {
    if (!m->used[i]) return false;
    if (m->keys[i] == key) {
      *value = m->values[i];
      return true;
    }
  }
}

static bool map_grow(PackMap *m) {
  size_t cap = m->cap ? m->cap * 2 : 64;
  PackMap n = {0};
  n.keys = tess_calloc(cap, sizeof *n.keys);
  n.values = tess_calloc(cap, sizeof *n.values);
  n.used = tess_calloc(cap, 1);
  if (!n.keys || !n.values || !n.used) {
    pack_map_free(&n);
    return false;
  }
  n.cap = cap;
  for (size_t i = 0; i < m->cap; i++)
    if (m->used[i]) pack_map_put(&n, m->keys[i], m->values[i]);
  pack_map_free(m);
  *m = n;
  return true;
}

bool pack_map_put(PackMap *m, uint64_t key, uint32_t value) {
  if (m->failed) return false;
  if ((m->count + 1) * 2 > m->cap && !map_grow(m)) {
    m->failed = true;
    return false;
  }
  size_t mask = m->cap - 1;
  for (size_t i = hash_u64(key) & mask;; i = (i + 1) & mask) {
    if (!m->used[i]) {
      m->used[i] = 1;
      m->keys[i] = key;
      m->values[i] = value;
      m->count++;
      return true;
    }
    if (m->keys[i] == key) {
      m->values[i] = value;
      return true;
    }
  }
}

/* ---- Strings ------------------------------------------------------------ */

void pack_strings_init(PackStrings *s) {
  memset(s, 0, sizeof *s);
  pack_put_u8(&s->bytes, 0); /* offset 0: "" */
}

void pack_strings_free(PackStrings *s) {
  pack_buf_free(&s->bytes);
  tess_free(s->offsets);
  memset(s, 0, sizeof *s);
}

static size_t hash_str(const char *str, size_t len) { return (size_t)tess_hash_bytes(str, len); }

static bool strings_grow(PackStrings *s) {
  size_t cap = s->cap ? s->cap * 2 : 64;
  uint32_t *slots = tess_calloc(cap, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < s->cap; i++) {
    if (!s->offsets[i]) continue;
    const char *str = (const char *)s->bytes.data + s->offsets[i] - 1;
    size_t j = hash_str(str, strlen(str)) & (cap - 1);
    while (slots[j]) j = (j + 1) & (cap - 1);
    slots[j] = s->offsets[i];
  }
  tess_free(s->offsets);
  s->offsets = slots;
  s->cap = cap;
  return true;
}

/* str with every byte that does not start a UTF-8 sequence replaced by
 * U+FFFD (tess_free it), or NULL when out of memory. */
static char *utf8_repaired(const char *str) {
  size_t len = strlen(str);
  char *out = tess_alloc(3 * len + 1), *o = out;
  if (!out) return NULL;
  while (*str) {
    size_t k = tess_utf8_sequence(str);
    if (k == 0) {
      memcpy(o, "\xEF\xBF\xBD", 3);
      o += 3;
      str++;
    } else {
      memcpy(o, str, k);
      o += k;
      str += k;
    }
  }
  *o = 0;
  return out;
}

uint32_t pack_string(PackStrings *s, const char *str) {
  if (!str || !*str || s->failed) return 0;
  if (!tess_utf8_valid(str)) {
    /* FORMAT.md: the string table is UTF-8, and a reader refuses a file
     * whose table is not. A project should hold no such name (the store
     * and the edit API refuse them); one that does still exports, with
     * U+FFFD where the bytes were not UTF-8. */
    char *fixed = utf8_repaired(str);
    if (!fixed) {
      s->failed = true;
      return 0;
    }
    uint32_t off = pack_string(s, fixed);
    tess_free(fixed);
    return off;
  }
  if ((s->count + 1) * 2 > s->cap && !strings_grow(s)) {
    s->failed = true;
    return 0;
  }
  size_t len = strlen(str);
  size_t mask = s->cap - 1;
  size_t i = hash_str(str, len) & mask;
  for (; s->offsets[i]; i = (i + 1) & mask) {
    const char *have = (const char *)s->bytes.data + s->offsets[i] - 1;
    if (strcmp(have, str) == 0) return s->offsets[i] - 1;
  }
  if (s->bytes.size + len + 1 > UINT32_MAX - 1) {
    s->failed = true;
    return 0;
  }
  uint32_t off = (uint32_t)s->bytes.size;
  pack_put_bytes(&s->bytes, str, len + 1);
  if (s->bytes.failed) {
    s->failed = true;
    return 0;
  }
  s->offsets[i] = off + 1;
  s->count++;
  return off;
}
