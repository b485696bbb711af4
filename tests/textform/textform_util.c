#include "textform_util.h"

#include <dirent.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tessera/store.h"

TessProject *tf_load_demo(void) {
  const char *root = getenv("TESS_BUILD_ROOT");
  char path[1024];
  snprintf(path, sizeof path, "%s/data/demo/demo.tessera", root ? root : "build");
  TessStore *s = NULL;
  TessProject *p = NULL;
  TessError err;
  if (tess_store_open(path, TESS_STORE_READ_ONLY, &s, &err) == TESS_OK) tess_store_load(s, &p, &err);
  if (s) tess_store_close(s);
  if (!p) {
    char msg[1200];
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "cannot load the demo: %s\n", msg);
    tess_test_failures++;
  }
  return p;
}

char *tf_read(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = tess_alloc((size_t)n + 1);
  size_t got = fread(buf, 1, (size_t)n, f);
  fclose(f);
  buf[got] = '\0';
  if (size) *size = got;
  return buf;
}

void tf_write(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    tess_test_failures++;
    return;
  }
  fputs(text, f);
  fclose(f);
}

static bool same_dir(const char *a, const char *b, bool check_other_side) {
  DIR *d = opendir(a);
  if (!d) return false;
  bool same = true;
  struct dirent *e;
  while (same && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char pa[2048], pb[2048];
    snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
    snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
    struct stat sa, sb;
    if (stat(pa, &sa) != 0 || stat(pb, &sb) != 0) {
      fprintf(stderr, "only in %s: %s\n", a, e->d_name);
      same = false;
      break;
    }
    if (S_ISDIR(sa.st_mode)) {
      same = same_dir(pa, pb, check_other_side);
      continue;
    }
    if (!check_other_side) continue;
    size_t na, nb;
    char *ta = tf_read(pa, &na), *tb = tf_read(pb, &nb);
    if (!ta || !tb || na != nb || memcmp(ta, tb, na) != 0) {
      fprintf(stderr, "%s and %s differ\n", pa, pb);
      same = false;
    }
    tess_free(ta);
    tess_free(tb);
  }
  closedir(d);
  return same;
}

bool tf_same_tree(const char *a, const char *b) { return same_dir(a, b, true) && same_dir(b, a, false); }

size_t tf_changed_lines(const char *a, const char *b, uint32_t *lines, size_t cap) {
  size_t n = 0;
  uint32_t line = 1;
  while (*a || *b) {
    const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
    size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
    if (la != lb || memcmp(a, b, la) != 0) {
      if (n < cap) lines[n] = line;
      n++;
    }
    a += la + (ea ? 1 : 0);
    b += lb + (eb ? 1 : 0);
    line++;
  }
  return n;
}

void tf_copy_tree(const char *from, const char *to) {
  if (tess_test_system("rm -rf '%s' && cp -R '%s' '%s'", to, from, to) != 0) tess_test_failures++;
}

bool tf_replace_in_file(const char *path, const char *what, const char *with) {
  size_t n;
  char *text = tf_read(path, &n);
  char *hit = text ? strstr(text, what) : NULL;
  if (!hit) {
    tess_free(text);
    return false;
  }
  FILE *f = fopen(path, "wb");
  fwrite(text, 1, (size_t)(hit - text), f);
  fputs(with, f);
  fputs(hit + strlen(what), f);
  fclose(f);
  tess_free(text);
  return true;
}

bool tf_same_hashes(const TessProject *a, const TessProject *b) {
  if (tess_project_hash(a) != tess_project_hash(b) || a->level_count != b->level_count) return false;
  for (uint32_t i = 0; i < a->level_count; i++)
    if (tess_level_content_hash(a, a->levels[i]) != tess_level_content_hash(b, b->levels[i])) return false;
  return true;
}
