/* Export: levels of a project to one .tlv each plus manifest.json, on N
 * worker threads (see tessera/pack.h; documented for users in
 * pipeline/README-export.md). Shared by `tessera-pipeline export` and the
 * editor's File > Export....
 *
 * Each level is an independent, deterministic job keyed by its content
 * hash: the bytes do not depend on N or on which thread wrote them, a level
 * whose existing output carries the same hash is skipped, and every file is
 * written under a temporary name and renamed, so an interrupted or
 * cancelled export never leaves a partial .tlv. */
#define _GNU_SOURCE /* syncfs */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pack_private.h"
#include "tessera/image.h"
#include "tessera/pack.h"
#include "tlv_reader.h"

#define SAFE_NAME_MAX 96

struct TessExport {
  const TessProject *project;
  TessExportSpec spec;
  void *writer_state; /* spec.writer's, from its begin */
  char *dir;
  char (*names)[TESS_EXPORT_FILE_MAX]; /* per level of the project */
  TessExportJob *jobs;
  size_t job_count;
  size_t next; /* next job to hand out */
  size_t done;
  size_t stale_removed; /* temporary files of killed exports removed */
  bool stop;            /* cancelled: hand out no more jobs */
  unsigned threads;
  double t0, elapsed; /* elapsed: set when the workers are done */
  bool locks;         /* lock and changed are initialised */
  int dir_lock;       /* the output directory, flock'ed shared while the export runs, or -1 */
  /* Writer jobs: whether each output was current when the run started, and
   * its size. Decided before any job writes: levels of other formats share
   * files (tileset images), so a check made while another job rewrites one
   * would depend on the timing, and the outcome on the number of jobs. */
  bool *writer_current;
  uint64_t *writer_size;
  pthread_mutex_t lock;
  pthread_cond_t changed;
};

static bool same_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
  return *a == *b;
}

/* File names for every level of the project, in project order, so a level
 * keeps its name whichever levels an export selects. Names that clash
 * (ignoring case, for case-insensitive file systems) get "-<level id>". */
static char (*level_file_names(const TessProject *p, const char *ext))[TESS_EXPORT_FILE_MAX] {
  char(*names)[TESS_EXPORT_FILE_MAX] = tess_calloc(p->level_count ? p->level_count : 1, sizeof *names);
  if (!names) return NULL;
  for (uint32_t i = 0; i < p->level_count; i++) {
    char base[SAFE_NAME_MAX + 1];
    tess_text_file_stem(p->levels[i]->settings.name, base, sizeof base, "level");
    snprintf(names[i], sizeof names[i], "%s%s", base, ext);
    for (uint32_t k = 0; k < i; k++) {
      if (same_ignoring_case(names[k], names[i])) {
        snprintf(names[i], sizeof names[i], "%s-%u%s", base, p->levels[i]->id, ext);
        k = (uint32_t)-1; /* re-check against all earlier names */
      }
    }
  }
  return names;
}

/* ---- One job ---------------------------------------------------------------- */

static uint8_t *read_whole_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = NULL;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      (uint64_t)st.st_size < ((uint64_t)1 << 40)) {
    buf = tess_alloc((size_t)st.st_size);
    if (buf && fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
      tess_free(buf);
      buf = NULL;
    }
    *size = (size_t)st.st_size;
  }
  fclose(f);
  return buf;
}

/* The existing output is current when it validates and carries the hash. */
static bool up_to_date(const char *path, uint64_t hash, uint64_t *size_out) {
  size_t size = 0;
  uint8_t *data = read_whole_file(path, &size);
  if (!data) return false;
  TlvLevel lv;
  TlvError err;
  bool ok = tlv_open(data, size, 0, &lv, &err) == TLV_OK && lv.header.content_hash == hash;
  tess_free(data);
  if (ok) *size_out = size;
  return ok;
}

/* Temporary name in the same directory, then rename: readers (and an
 * interrupted export) see the old file or the new one, never a part. There
 * is no fsync per file: the export ends with one syncfs of the output's
 * file system, and a file torn by a power cut before that fails the
 * reader's checksums, so the next (incremental) export rewrites it. */
static TessResult write_atomic(const char *path, const char *source, const uint8_t *data, size_t size,
                               TessError *err) {
  static unsigned counter;
  /* Never over the project (or any project): a level named after it, a symlink to it. */
  TessResult guard = tess_output_check(path, &source, source ? 1 : 0, 0, err);
  if (guard != TESS_OK) return guard;
  size_t len = strlen(path) + 32;
  char *tmp = tess_alloc(len);
  if (!tmp) return tess_error_set(err, TESS_ERR_NOMEM, path, "out of memory");
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(tmp, len, "%s.%x-%x.tmp", path, (unsigned)getpid(), __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    TessResult r = tess_error_set(err, TESS_ERR_IO, path, "cannot create a temporary file: %s", strerror(errno));
    tess_free(tmp);
    return r;
  }
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  int e = errno;
  if (close(fd) != 0 && done == size) {
    done = 0;
    e = errno;
  }
  if (done != size || rename(tmp, path) != 0) {
    if (done == size) e = errno;
    unlink(tmp);
    tess_free(tmp);
    return tess_error_set(err, TESS_ERR_IO, path, "cannot write: %s", strerror(e));
  }
  tess_free(tmp);
  return TESS_OK;
}

static void sync_output(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
#ifdef __linux__
  syncfs(fd);
#else
  sync();
#endif
  close(fd);
}

/* The writer's bytes, opened with the reader a game uses before they are
 * written (they are exactly the bytes handed to write()): a level that its
 * own reader would refuse is a failed level, never a file on disk. */
static TessResult check_with_reader(const char *path, const uint8_t *data, size_t size, uint64_t hash,
                                    TessError *err) {
  TlvLevel lv;
  TlvError terr;
  memset(&terr, 0, sizeof terr);
  if (tlv_open(data, size, 0, &lv, &terr) != TLV_OK)
    return tess_error_set_at(err, TESS_ERR_FORMAT, path, TESS_PLACE_OFFSET, terr.offset,
                             "the packed level fails its own reader (%s), so it was not written", terr.message);
  if (lv.header.content_hash != hash)
    return tess_error_set(err, TESS_ERR_FORMAT, path, "the packed level carries another content hash, so it was not written");
  return TESS_OK;
}

/* A job of another format (spec.writer): the same steps through its hooks. */
static void run_writer_job(TessExport *ex, TessExportJob *job, size_t index) {
  const TessExportWriter *w = ex->spec.writer;
  job->content_hash = w->content_hash(ex->writer_state, ex->project, job->level);
  bool current = ex->writer_current ? ex->writer_current[index]
                                    : !ex->spec.force && w->up_to_date(ex->writer_state, ex->project, job->level,
                                                                       ex->dir, job->file, job->content_hash, &job->size);
  if (current) {
    if (ex->writer_current) job->size = ex->writer_size[index];
    job->state = TESS_EXPORT_UP_TO_DATE;
    return;
  }
  TessError err;
  tess_error_clear(&err);
  uint64_t size = 0;
  TessResult r = w->write(ex->writer_state, ex->project, job->level, ex->dir, job->file, job->content_hash, &size, &err);
  if (r != TESS_OK) {
    tess_error_format(&err, job->error, sizeof job->error);
    job->state = TESS_EXPORT_FAILED;
    return;
  }
  job->size = size;
  job->state = TESS_EXPORT_EXPORTED;
}

static void run_job(TessExport *ex, TessExportJob *job, size_t index) {
  if (ex->spec.writer) {
    run_writer_job(ex, job, index);
    return;
  }
  uint64_t source = tess_level_content_hash(ex->project, job->level);
  job->content_hash = pack_hash_from_source(source, &ex->spec.options);
  if (!ex->spec.force && up_to_date(job->path, job->content_hash, &job->size)) {
    job->state = TESS_EXPORT_UP_TO_DATE;
    return;
  }
  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  tess_error_clear(&err);
  TessResult r = pack_write_hashed(ex->project, job->level, &ex->spec.options, source, &data, &size, &err);
  if (r == TESS_OK) r = check_with_reader(job->path, data, size, job->content_hash, &err);
  if (r == TESS_OK) r = write_atomic(job->path, ex->spec.source_path, data, size, &err);
  tess_free(data);
  if (r != TESS_OK) {
    tess_error_format(&err, job->error, sizeof job->error);
    job->state = TESS_EXPORT_FAILED;
    return;
  }
  job->size = size;
  job->state = TESS_EXPORT_EXPORTED;
}

static void *worker(void *arg) {
  TessExport *ex = arg;
  for (;;) {
    /* Polled outside the lock: the caller's check may take its own locks. */
    bool cancel = ex->spec.cancelled && ex->spec.cancelled(ex->spec.user);
    pthread_mutex_lock(&ex->lock);
    if (cancel) ex->stop = true;
    if (ex->stop || ex->next >= ex->job_count) {
      pthread_mutex_unlock(&ex->lock);
      return NULL;
    }
    TessExportJob *job = &ex->jobs[ex->next++];
    job->state = TESS_EXPORT_RUNNING;
    pthread_cond_broadcast(&ex->changed);
    pthread_mutex_unlock(&ex->lock);
    TessExportJob scratch = *job; /* the job runs outside the lock on its own copy */
    run_job(ex, &scratch, (size_t)(job - ex->jobs));
    pthread_mutex_lock(&ex->lock);
    job->content_hash = scratch.content_hash;
    job->size = scratch.size;
    memcpy(job->error, scratch.error, sizeof job->error);
    job->state = scratch.state;
    ex->done++;
    pthread_cond_broadcast(&ex->changed);
    pthread_mutex_unlock(&ex->lock);
  }
}

/* ---- manifest.json --------------------------------------------------------------- */

typedef struct Text {
  char *s;
  size_t len, cap;
  bool failed;
} Text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
text_printf(Text *t, const char *fmt, ...) {
  if (t->failed) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      t->failed = true;
      return;
    }
    if (t->s && (size_t)n < t->cap - t->len) {
      t->len += (size_t)n;
      return;
    }
    size_t cap = t->cap ? t->cap : 256;
    while (cap - t->len <= (size_t)n) cap *= 2;
    char *s = tess_realloc(t->s, cap);
    if (!s) {
      t->failed = true;
      return;
    }
    t->s = s;
    t->cap = cap;
  }
}

/* Valid UTF-8 JSON whatever the name holds (core/base/text.c). */
static void text_json_string(Text *t, const char *s) {
  char quoted[6 * TESS_EXPORT_FILE_MAX + 3];
  size_t need = tess_text_json_quote(s, quoted, sizeof quoted);
  if (need >= sizeof quoted) {
    char *big = tess_alloc(need + 1);
    if (!big) {
      t->failed = true;
      return;
    }
    tess_text_json_quote(s, big, need + 1);
    text_printf(t, "%s", big);
    tess_free(big);
    return;
  }
  text_printf(t, "%s", quoted);
}

static void manifest_file(void *user, const char *file) {
  Text *t = user;
  text_printf(t, ", ");
  text_json_string(t, file);
}

/* The manifest of another format: each current level with the files its
 * own file needs. */
static void writer_manifest(TessExport *ex, Text *t) {
  const TessProject *p = ex->project;
  const TessExportWriter *w = ex->spec.writer;
  text_printf(t, "{\n  \"format\": ");
  text_json_string(t, w->format);
  text_printf(t, ",\n  \"levels\": [");
  bool first = true;
  for (uint32_t i = 0; i < p->level_count; i++) {
    uint64_t hash = w->content_hash(ex->writer_state, p, p->levels[i]), size = 0;
    if (!w->up_to_date(ex->writer_state, p, p->levels[i], ex->dir, ex->names[i], hash, &size)) continue;
    text_printf(t, "%s\n    {\"name\": ", first ? "" : ",");
    text_json_string(t, p->levels[i]->settings.name);
    text_printf(t, ", \"id\": %u, \"file\": ", p->levels[i]->id);
    text_json_string(t, ex->names[i]);
    text_printf(t, ", \"size\": %llu, \"content_hash\": \"%016llx\", \"files\": [", (unsigned long long)size,
                (unsigned long long)hash);
    text_json_string(t, ex->names[i]);
    if (w->list_files) w->list_files(ex->writer_state, p, p->levels[i], manifest_file, t);
    text_printf(t, "]}");
    first = false;
  }
  text_printf(t, "%s]\n}\n", first ? "" : "\n  ");
}

/* Every level of the project whose output in the directory is present and
 * current, in project order (documented in pipeline/README-export.md). */
static TessResult write_manifest(TessExport *ex, TessError *err) {
  const TessProject *p = ex->project;
  Text t = {0};
  if (!ex->spec.writer)
    text_printf(&t, "{\n  \"format\": \"tessera-tlv\",\n  \"format_version\": \"%u.%u\",\n  \"writer_version\": %u,\n  \"levels\": [",
                TLV_VERSION_MAJOR, TLV_VERSION_MINOR, TESS_PACK_WRITER_VERSION);
  bool first = true;
  size_t plen = strlen(ex->dir) + TESS_EXPORT_FILE_MAX + 2;
  char *path = tess_alloc(plen);
  if (!path) return tess_error_set(err, TESS_ERR_NOMEM, ex->dir, "out of memory");
  if (ex->spec.writer) writer_manifest(ex, &t);
  for (uint32_t i = 0; !ex->spec.writer && i < p->level_count; i++) {
    snprintf(path, plen, "%s/%s", ex->dir, ex->names[i]);
    uint64_t hash = tess_pack_content_hash(p, p->levels[i], &ex->spec.options), size = 0;
    if (!up_to_date(path, hash, &size)) continue;
    text_printf(&t, "%s\n    {\"name\": ", first ? "" : ",");
    text_json_string(&t, p->levels[i]->settings.name);
    text_printf(&t, ", \"id\": %u, \"file\": ", p->levels[i]->id);
    text_json_string(&t, ex->names[i]);
    text_printf(&t, ", \"size\": %llu, \"content_hash\": \"%016llx\"}", (unsigned long long)size, (unsigned long long)hash);
    first = false;
  }
  if (!ex->spec.writer) text_printf(&t, "%s]\n}\n", first ? "" : "\n  ");
  TessResult r;
  if (t.failed) {
    r = tess_error_set(err, TESS_ERR_NOMEM, ex->dir, "out of memory");
  } else {
    snprintf(path, plen, "%s/manifest.json", ex->dir);
    const char *source = ex->spec.source_path;
    r = tess_output_check(path, &source, source ? 1 : 0, 0, err);
    if (r == TESS_OK) r = tess_file_write_atomic(path, t.s, t.len, err);
  }
  tess_free(path);
  tess_free(t.s);
  return r;
}

/* ---- Stale temporary files ------------------------------------------------------ */

static bool all_hex(const char *s, size_t n) {
  if (n == 0) return false;
  for (size_t i = 0; i < n; i++)
    if (!isxdigit((unsigned char)s[i])) return false;
  return true;
}

/* Exactly the names this file's writers give their temporary files, and
 * nothing else: "<name>.tlv.<hex>-<hex>.tmp" (write_atomic; with another
 * writer its extension, ".tmj", in place of ".tlv", as core/formats names
 * them) and "manifest.json.<hex>.tmp" (tess_file_write_atomic). */
static bool own_temporary_name(const char *name, const char *ext) {
  size_t n = strlen(name);
  if (n < 5 || strcmp(name + n - 4, ".tmp") != 0) return false;
  n -= 4;
  const char *dot = NULL;
  for (size_t i = n; i-- > 0;)
    if (name[i] == '.') {
      dot = name + i;
      break;
    }
  if (!dot) return false;
  size_t stem = (size_t)(dot - name), tag = n - stem - 1;
  const char *dash = memchr(dot + 1, '-', tag);
  if (stem == strlen("manifest.json") && strncmp(name, "manifest.json", stem) == 0) return all_hex(dot + 1, tag);
  size_t el = strlen(ext);
  if (stem > el && strncmp(dot - el, ext, el) == 0 && dash)
    return all_hex(dot + 1, (size_t)(dash - dot - 1)) && all_hex(dash + 1, (size_t)(name + n - dash - 1));
  return false;
}

/* Temporary files in a writer's own folder: "<name><ext>.<hex>-<hex>.tmp" for one of its extensions. */
static bool own_subdir_temporary(const char *name, const char *const *exts) {
  for (; exts && *exts; exts++) {
    const char *at = strstr(name, *exts);
    while (at) {
      const char *tag = at + strlen(*exts);
      size_t n = strlen(tag);
      const char *dash = n > 5 ? memchr(tag, '-', n) : NULL;
      if (at > name && tag[0] == '.' && n > 5 && strcmp(tag + n - 4, ".tmp") == 0 && dash &&
          all_hex(tag + 1, (size_t)(dash - tag - 1)) && all_hex(dash + 1, (size_t)(tag + n - 4 - dash - 1)))
        return true;
      at = strstr(at + 1, *exts);
    }
  }
  return false;
}

/* Removes our temporary files from one directory (an open descriptor of it). */
static void remove_temporaries(TessExport *ex, int dirfd, bool subdir) {
  int fd = dup(dirfd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d && fd >= 0) close(fd);
  struct dirent *e;
  const TessExportWriter *w = ex->spec.writer;
  while (d && (e = readdir(d))) {
    struct stat st;
    bool ours = subdir ? own_subdir_temporary(e->d_name, w->subdir_extensions)
                       : own_temporary_name(e->d_name, w ? w->extension : ".tlv");
    if (!ours) continue;
    if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) && unlinkat(dirfd, e->d_name, 0) == 0)
      ex->stale_removed++;
  }
  if (d) closedir(d);
}

/* Every export holds a shared flock on its output directory while it runs.
 * One that can take it exclusively is alone there, so every temporary file
 * of ours in the directory belongs to an export that was killed: remove
 * them (regular files only, never through a symlink), then keep the lock
 * shared like the others. Where flock is not available nothing is removed. */
static void claim_output_dir(TessExport *ex) {
  ex->dir_lock = open(ex->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (ex->dir_lock < 0) return;
  if (flock(ex->dir_lock, LOCK_EX | LOCK_NB) == 0) {
    remove_temporaries(ex, ex->dir_lock, false);
    const TessExportWriter *w = ex->spec.writer;
    /* The writer's own folder (never through a symlink), under the same lock. */
    int sub = w && w->subdir ? openat(ex->dir_lock, w->subdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (sub >= 0) {
      remove_temporaries(ex, sub, true);
      close(sub);
    }
  }
  flock(ex->dir_lock, LOCK_SH);
}

/* ---- The export ------------------------------------------------------------------ */

static TessResult make_dir(const char *dir, TessError *err) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return TESS_OK;
    return tess_error_set(err, TESS_ERR_IO, dir, "exists and is not a directory");
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return tess_error_set(err, TESS_ERR_IO, dir, "cannot create the directory: %s", strerror(errno));
  return TESS_OK;
}

TessResult tess_export_create(const TessProject *p, const TessExportSpec *spec, TessExport **out, TessError *err) {
  *out = NULL;
  if (!p || !spec || !spec->dir || !spec->dir[0]) return tess_error_set(err, TESS_ERR_INVALID, "export", "no project or directory");
  for (size_t w = 0; w < spec->level_count; w++)
    if (!spec->levels || !tess_project_level(p, spec->levels[w]))
      return tess_error_set(err, TESS_ERR_NOT_FOUND, "export", "the project has no level %u",
                            spec->levels ? spec->levels[w] : 0);
  TessExport *ex = tess_calloc(1, sizeof *ex);
  if (!ex) return tess_error_set(err, TESS_ERR_NOMEM, spec->dir, "out of memory");
  ex->project = p;
  ex->dir_lock = -1;
  ex->spec = *spec;
  ex->spec.levels = NULL; /* not kept: the caller's array */
  size_t dlen = strlen(spec->dir);
  ex->dir = tess_alloc(dlen + 1);
  ex->names = level_file_names(p, spec->writer ? spec->writer->extension : ".tlv");
  ex->jobs = tess_calloc(p->level_count ? p->level_count : 1, sizeof *ex->jobs);
  if (!ex->dir || !ex->names || !ex->jobs) {
    tess_export_destroy(ex);
    return tess_error_set(err, TESS_ERR_NOMEM, spec->dir, "out of memory");
  }
  memcpy(ex->dir, spec->dir, dlen + 1);
  TessResult r = make_dir(ex->dir, err);
  if (r == TESS_OK && spec->writer && spec->writer->begin) r = spec->writer->begin(p, &ex->writer_state, err);
  if (r != TESS_OK) {
    tess_export_destroy(ex);
    return r;
  }
  for (uint32_t i = 0; i < p->level_count; i++) {
    bool take = spec->levels == NULL;
    for (size_t w = 0; w < spec->level_count && !take; w++) take = spec->levels[w] == p->levels[i]->id;
    if (!take) continue;
    TessExportJob *job = &ex->jobs[ex->job_count++];
    job->level = p->levels[i];
    memcpy(job->file, ex->names[i], sizeof job->file);
    size_t plen = dlen + 1 + strlen(job->file) + 1;
    job->path = tess_alloc(plen);
    if (!job->path) {
      tess_export_destroy(ex);
      return tess_error_set(err, TESS_ERR_NOMEM, spec->dir, "out of memory");
    }
    snprintf(job->path, plen, "%s/%s", ex->dir, job->file);
  }
  pthread_mutex_init(&ex->lock, NULL);
  pthread_cond_init(&ex->changed, NULL);
  ex->locks = true;
  *out = ex;
  return TESS_OK;
}

static void report(TessExport *ex) {
  if (ex->spec.progress) ex->spec.progress(ex->spec.user, ex);
}

TessResult tess_export_run(TessExport *ex, TessError *err) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned jobs = ex->spec.jobs ? ex->spec.jobs : cores > 0 ? (unsigned)cores
                                                            : 1u;
  if (jobs > TESS_EXPORT_MAX_JOBS) jobs = TESS_EXPORT_MAX_JOBS;
  if (jobs > ex->job_count) jobs = ex->job_count ? (unsigned)ex->job_count : 1u;
  pthread_t threads[TESS_EXPORT_MAX_JOBS];
  unsigned started = 0;
  ex->t0 = tess_now_seconds();
  claim_output_dir(ex);
  if (ex->spec.writer && !ex->spec.force && ex->job_count) {
    ex->writer_current = tess_calloc(ex->job_count, sizeof *ex->writer_current);
    ex->writer_size = tess_calloc(ex->job_count, sizeof *ex->writer_size);
    for (size_t i = 0; ex->writer_current && ex->writer_size && i < ex->job_count; i++) {
      const TessExportJob *job = &ex->jobs[i];
      uint64_t hash = ex->spec.writer->content_hash(ex->writer_state, ex->project, job->level);
      ex->writer_current[i] = ex->spec.writer->up_to_date(ex->writer_state, ex->project, job->level, ex->dir, job->file,
                                                          hash, &ex->writer_size[i]);
    }
    if (!ex->writer_current || !ex->writer_size) { /* out of memory: each job checks for itself */
      tess_free(ex->writer_current);
      tess_free(ex->writer_size);
      ex->writer_current = NULL;
      ex->writer_size = NULL;
    }
  }
  for (unsigned t = 0; t < jobs; t++)
    if (pthread_create(&threads[t], NULL, worker, ex) == 0) started++;
  ex->threads = started ? started : 1;
  if (started == 0) worker(ex); /* no threads to be had: do it here */
  pthread_mutex_lock(&ex->lock);
  for (;;) {
    report(ex);
    bool running = false;
    for (size_t i = 0; i < ex->job_count && !running; i++) running = ex->jobs[i].state == TESS_EXPORT_RUNNING;
    if (ex->done >= ex->job_count || (ex->stop && !running)) break;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 100 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&ex->changed, &ex->lock, &until);
  }
  pthread_mutex_unlock(&ex->lock);
  for (unsigned t = 0; t < started; t++) pthread_join(threads[t], NULL);
  ex->elapsed = tess_now_seconds() - ex->t0;
  pthread_mutex_lock(&ex->lock);
  for (size_t i = 0; i < ex->job_count; i++)
    if (ex->jobs[i].state == TESS_EXPORT_PENDING) ex->jobs[i].state = TESS_EXPORT_CANCELLED;
  report(ex);
  pthread_mutex_unlock(&ex->lock);
  sync_output(ex->dir);
  TessResult r = write_manifest(ex, err);
  if (ex->dir_lock >= 0) close(ex->dir_lock); /* releases the flock */
  ex->dir_lock = -1;
  return r;
}

size_t tess_export_stale_removed(const TessExport *ex) { return ex->stale_removed; }

size_t tess_export_job_count(const TessExport *ex) { return ex->job_count; }

const TessExportJob *tess_export_job(const TessExport *ex, size_t i) { return i < ex->job_count ? &ex->jobs[i] : NULL; }

size_t tess_export_done(const TessExport *ex) { return ex->done; }

unsigned tess_export_threads(const TessExport *ex) { return ex->threads; }

double tess_export_seconds(const TessExport *ex) {
  if (ex->elapsed > 0.0) return ex->elapsed;
  return ex->t0 > 0.0 ? tess_now_seconds() - ex->t0 : 0.0;
}

const TessExportJob *tess_export_current(const TessExport *ex) {
  for (size_t i = 0; i < ex->job_count; i++)
    if (ex->jobs[i].state == TESS_EXPORT_RUNNING) return &ex->jobs[i];
  return NULL;
}

void tess_export_destroy(TessExport *ex) {
  if (!ex) return;
  if (ex->jobs)
    for (size_t i = 0; i < ex->job_count; i++) tess_free(ex->jobs[i].path);
  if (ex->dir_lock >= 0) close(ex->dir_lock);
  if (ex->spec.writer && ex->spec.writer->end) ex->spec.writer->end(ex->writer_state);
  if (ex->locks) {
    pthread_mutex_destroy(&ex->lock);
    pthread_cond_destroy(&ex->changed);
  }
  tess_free(ex->writer_current);
  tess_free(ex->writer_size);
  tess_free(ex->jobs);
  tess_free(ex->names);
  tess_free(ex->dir);
  tess_free(ex);
}
