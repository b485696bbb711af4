/* tessera-pipeline export: every level of a project (or the named ones) to
 * one .tlv each plus manifest.json, on N worker threads.
 *
 * Each level is an independent, deterministic job keyed by its content
 * hash: the bytes do not depend on N or on which thread wrote them, a level
 * whose existing output carries the same hash is skipped, and every file is
 * written under a temporary name and renamed, so an interrupted export
 * never leaves a partial .tlv. Headless: core only, no display. */
#define _GNU_SOURCE /* syncfs */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "tessera/image.h"
#include "tessera/pack.h"
#include "tessera/store.h"
#include "tlv_reader.h"

#define EXPORT_MAX_JOBS 256
#define SAFE_NAME_MAX 96

typedef enum JobState { JOB_PENDING, JOB_RUNNING, JOB_EXPORTED, JOB_UP_TO_DATE, JOB_FAILED } JobState;

typedef struct Job {
  const TessLevel *level;
  char file[SAFE_NAME_MAX + 16]; /* "name.tlv" */
  char *path;                    /* dir/file */
  uint64_t content_hash;
  uint64_t size;
  JobState state;
  bool reported;
  char error[1200];
} Job;

typedef struct Export {
  const TessProject *project;
  TessPackOptions opt;
  bool force;
  Job *jobs;
  size_t job_count;
  size_t next;      /* next job to hand out */
  size_t done;
  pthread_mutex_t lock;
  pthread_cond_t changed;
} Export;

/* ---- Safe file names -------------------------------------------------------- */

static bool reserved_on_windows(const char *name) {
  static const char *words[] = {"con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7",
                                "com8", "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9"};
  char low[8];
  size_t n = strcspn(name, ".");
  if (n >= sizeof low) return false;
  for (size_t i = 0; i < n; i++) low[i] = (char)tolower((unsigned char)name[i]);
  low[n] = 0;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(low, words[i]) == 0) return true;
  return false;
}

/* Letters, digits, '-', '_', '.' and UTF-8 multibyte sequences stay; every
 * other byte (/, \, control characters, spaces, quotes, ':') becomes '_'.
 * No leading '.', so no "..", no hidden file; never empty; bounded length
 * (cut on a UTF-8 boundary). */
static void safe_name(const char *name, char out[SAFE_NAME_MAX + 1]) {
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)name; *p && n < SAFE_NAME_MAX; p++) {
    unsigned char c = *p;
    bool keep = isalnum(c) || c == '-' || c == '_' || (c == '.' && n > 0) || c >= 0x80;
    out[n++] = keep && c != 0x7F ? (char)c : '_';
  }
  /* Do not end inside a multibyte sequence. */
  while (n > 0 && ((unsigned char)out[n - 1] & 0xC0) == 0x80) {
    size_t k = n - 1;
    while (k > 0 && ((unsigned char)out[k] & 0xC0) == 0x80) k--;
    unsigned char lead = (unsigned char)out[k];
    size_t want = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (n - k == want) break;
    n = k;
  }
  if (n > 0 && ((unsigned char)out[n - 1] & 0xC0) == 0xC0) n--; /* a lone lead byte */
  while (n > 0 && out[n - 1] == '.') n--;
  out[n] = 0;
  if (n == 0) snprintf(out, SAFE_NAME_MAX + 1, "level");
  if (reserved_on_windows(out)) { /* short names only: there is room for the prefix */
    memmove(out + 1, out, strlen(out) + 1);
    out[0] = '_';
  }
}

static bool same_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
  return *a == *b;
}

/* File names for every level of the project, in project order, so a level
 * keeps its name whichever levels an export selects. Names that clash
 * (ignoring case, for case-insensitive file systems) get "-<level id>". */
static char (*level_file_names(const TessProject *p))[SAFE_NAME_MAX + 16] {
  char (*names)[SAFE_NAME_MAX + 16] = calloc(p->level_count ? p->level_count : 1, sizeof *names);
  if (!names) return NULL;
  for (uint32_t i = 0; i < p->level_count; i++) {
    char base[SAFE_NAME_MAX + 1];
    safe_name(p->levels[i]->settings.name, base);
    snprintf(names[i], sizeof names[i], "%s.tlv", base);
    for (uint32_t k = 0; k < i; k++) {
      if (same_ignoring_case(names[k], names[i])) {
        snprintf(names[i], sizeof names[i], "%s-%u.tlv", base, p->levels[i]->id);
        k = (uint32_t)-1; /* re-check against all earlier names */
      }
    }
  }
  return names;
}

/* ---- One job ---------------------------------------------------------------- */

static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = NULL;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size < ((uint64_t)1 << 40)) {
    buf = malloc((size_t)st.st_size);
    if (buf && fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
      free(buf);
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
  uint8_t *data = read_file(path, &size);
  if (!data) return false;
  TlvLevel lv;
  TlvError err;
  bool ok = tlv_open(data, size, 0, &lv, &err) == TLV_OK && lv.header.content_hash == hash;
  free(data);
  if (ok) *size_out = size;
  return ok;
}

/* Temporary name in the same directory, then rename: readers (and an
 * interrupted export) see the old file or the new one, never a part. There
 * is no fsync per file: the export ends with one syncfs of the output's
 * file system, and a file torn by a power cut before that fails the
 * reader's checksums, so the next (incremental) export rewrites it. */
static TessResult write_atomic(const char *path, const uint8_t *data, size_t size, TessError *err) {
  static unsigned counter;
  size_t len = strlen(path) + 32;
  char *tmp = malloc(len);
  if (!tmp) return tess_error_set(err, TESS_ERR_NOMEM, path, "out of memory");
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(tmp, len, "%s.%x-%x.tmp", path, (unsigned)getpid(), __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    TessResult r = tess_error_set(err, TESS_ERR_IO, path, "cannot create a temporary file: %s", strerror(errno));
    free(tmp);
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
    free(tmp);
    return tess_error_set(err, TESS_ERR_IO, path, "cannot write: %s", strerror(e));
  }
  free(tmp);
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

static void run_job(Export *ex, Job *job) {
  job->content_hash = tess_pack_content_hash(ex->project, job->level, &ex->opt);
  if (!ex->force && up_to_date(job->path, job->content_hash, &job->size)) {
    job->state = JOB_UP_TO_DATE;
    return;
  }
  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  tess_error_clear(&err);
  TessResult r = tess_pack_write(ex->project, job->level, &ex->opt, &data, &size, &err);
  if (r == TESS_OK) r = write_atomic(job->path, data, size, &err);
  tess_free(data);
  if (r != TESS_OK) {
    tess_error_format(&err, job->error, sizeof job->error);
    job->state = JOB_FAILED;
    return;
  }
  job->size = size;
  job->state = JOB_EXPORTED;
}

static void *worker(void *arg) {
  Export *ex = arg;
  for (;;) {
    pthread_mutex_lock(&ex->lock);
    if (ex->next >= ex->job_count) {
      pthread_mutex_unlock(&ex->lock);
      return NULL;
    }
    Job *job = &ex->jobs[ex->next++];
    job->state = JOB_RUNNING;
    pthread_mutex_unlock(&ex->lock);
    JobState result;
    Job scratch = *job; /* the job runs outside the lock on its own copy */
    run_job(ex, &scratch);
    result = scratch.state;
    pthread_mutex_lock(&ex->lock);
    job->content_hash = scratch.content_hash;
    job->size = scratch.size;
    memcpy(job->error, scratch.error, sizeof job->error);
    job->state = result;
    ex->done++;
    pthread_cond_broadcast(&ex->changed);
    pthread_mutex_unlock(&ex->lock);
  }
}

/* ---- Progress ---------------------------------------------------------------- */

static void format_seconds(double s, char *buf, size_t size) {
  long t = (long)(s + 0.5);
  snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

static void draw_bar(const Export *ex, double elapsed) {
  const int width = 24;
  int filled = ex->job_count ? (int)(width * ex->done / ex->job_count) : width;
  char bar[64], el[48], eta[48];
  for (int i = 0; i < width; i++) bar[i] = i < filled ? '#' : '-';
  bar[width] = 0;
  format_seconds(elapsed, el, sizeof el);
  if (ex->done > 0 && ex->done < ex->job_count)
    format_seconds(elapsed / ex->done * (ex->job_count - ex->done), eta, sizeof eta);
  else
    snprintf(eta, sizeof eta, "--:--");
  const char *current = "";
  for (size_t i = 0; i < ex->job_count; i++)
    if (ex->jobs[i].state == JOB_RUNNING) {
      current = ex->jobs[i].level->settings.name;
      break;
    }
  fprintf(stderr, "\r\033[K[%s] %zu/%zu  %-24.24s  %s  ETA %s", bar, ex->done, ex->job_count, current, el, eta);
  fflush(stderr);
}

static void report_line(const Job *job) {
  switch (job->state) {
    case JOB_EXPORTED:
      fprintf(stderr, "exported %s -> %s (%llu bytes)\n", job->level->settings.name, job->path, (unsigned long long)job->size);
      break;
    case JOB_UP_TO_DATE: fprintf(stderr, "up to date %s (%s)\n", job->level->settings.name, job->path); break;
    case JOB_FAILED: fprintf(stderr, "FAILED %s: %s\n", job->level->settings.name, job->error); break;
    default: break;
  }
}

/* ---- JSON ------------------------------------------------------------------------ */

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7F) fprintf(f, "\\u%04x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}

/* manifest.json: every level of the project whose output in DIR is present
 * and current, in project order (documented in pipeline/README-export.md). */
static TessResult write_manifest(const TessProject *p, const char *dir, char (*names)[SAFE_NAME_MAX + 16],
                                 const TessPackOptions *opt, TessError *err) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return tess_error_set(err, TESS_ERR_NOMEM, dir, "out of memory");
  fprintf(f, "{\n  \"format\": \"tessera-tlv\",\n  \"format_version\": \"%u.%u\",\n  \"writer_version\": %u,\n  \"levels\": [",
          TLV_VERSION_MAJOR, TLV_VERSION_MINOR, TESS_PACK_WRITER_VERSION);
  bool first = true;
  for (uint32_t i = 0; i < p->level_count; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    uint64_t hash = tess_pack_content_hash(p, p->levels[i], opt), size = 0;
    if (!up_to_date(path, hash, &size)) continue;
    fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
    json_string(f, p->levels[i]->settings.name);
    fprintf(f, ", \"id\": %u, \"file\": ", p->levels[i]->id);
    json_string(f, names[i]);
    fprintf(f, ", \"size\": %llu, \"content_hash\": \"%016llx\"}", (unsigned long long)size, (unsigned long long)hash);
    first = false;
  }
  fprintf(f, "%s]\n}\n", first ? "" : "\n  ");
  fclose(f);
  char path[4200];
  snprintf(path, sizeof path, "%s/manifest.json", dir);
  TessResult r = tess_file_write_atomic(path, text, len, err);
  free(text);
  return r;
}

/* Make-style depfile: every output depends on the project file (the PNGs
 * live inside it), so a build system re-runs the export when it changes. */
static bool write_depfile(const char *path, const char *dir, const char *project) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  char manifest[4200];
  snprintf(manifest, sizeof manifest, "%s/manifest.json", dir);
  const char *items[2] = {manifest, project};
  for (int k = 0; k < 2; k++) {
    for (const char *c = items[k]; *c; c++) {
      if (*c == ' ' || *c == '#' || *c == '\\') fputc('\\', f);
      if (*c == '$') fputc('$', f);
      fputc(*c, f);
    }
    fputs(k == 0 ? ": " : "\n", f);
  }
  return fclose(f) == 0;
}

/* ---- The command -------------------------------------------------------------- */

const char tess_cmd_export_usage[] =
    "export PROJECT.tessera [-o DIR] [--level NAME]... [--jobs N] [--force] [--json]\n"
    "                  [--depfile FILE] [--embed-images]\n"
    "  -o, --output DIR  where the .tlv files and manifest.json go (default: the current directory)\n"
    "  --level NAME      export this level only (repeatable; default: every level)\n"
    "  -j, --jobs N      worker threads, 1..256 (default: the number of cores)\n"
    "  --force           write every level even when its output is up to date\n"
    "  --json            a JSON summary on stdout (see pipeline/README-export.md)\n"
    "  --depfile FILE    a Make-style depfile for ninja or make\n"
    "  --embed-images    put the tileset and sprite PNGs into each .tlv\n"
    "Exit status: 0 all exported or up to date, 1 a level failed (the others are still written), 2 usage.\n";

static int parse_jobs(const char *s, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == 0 || *end != 0 || v < 1 || v > EXPORT_MAX_JOBS) return 0;
  *out = (int)v;
  return 1;
}

static bool make_dir(const char *dir, char *msg, size_t size) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    snprintf(msg, size, "%s: exists and is not a directory", dir);
    return false;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    snprintf(msg, size, "%s: cannot create the directory: %s", dir, strerror(errno));
    return false;
  }
  return true;
}

int tess_cmd_export(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--version") == 0) {
      printf("tessera-pipeline %s (packed level format %u.%u, writer %u)\n", TESS_VERSION, TLV_VERSION_MAJOR,
             TLV_VERSION_MINOR, TESS_PACK_WRITER_VERSION);
      return TESS_EXIT_OK;
    }
  const char *project_path = NULL, *dir = ".", *depfile = NULL;
  const char *wanted[256];
  size_t wanted_count = 0;
  int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
  bool json = false;
  Export ex;
  memset(&ex, 0, sizeof ex);
  tess_pack_options_default(&ex.opt);
  if (jobs < 1) jobs = 1;
  if (jobs > EXPORT_MAX_JOBS) jobs = EXPORT_MAX_JOBS;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("export", "%s needs a directory", a);
      dir = argv[i];
    } else if (strcmp(a, "--level") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("export", "--level needs a name");
      if (wanted_count >= sizeof wanted / sizeof wanted[0]) return tess_cmd_usage_error("export", "too many --level options");
      wanted[wanted_count++] = argv[i];
    } else if (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
      if (++i >= argc || !parse_jobs(argv[i], &jobs))
        return tess_cmd_usage_error("export", "--jobs needs a number from 1 to %d", EXPORT_MAX_JOBS);
    } else if (strcmp(a, "--force") == 0) {
      ex.force = true;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--embed-images") == 0) {
      ex.opt.embed_images = true;
    } else if (strcmp(a, "--depfile") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("export", "--depfile needs a file name");
      depfile = argv[i];
    } else if (a[0] == '-' && a[1] != 0) {
      return tess_cmd_usage_error("export", "unknown option %s", a);
    } else if (!project_path) {
      project_path = a;
    } else {
      return tess_cmd_usage_error("export", "one project at a time (got %s and %s)", project_path, a);
    }
  }
  if (!project_path) return tess_cmd_usage_error("export", "no project given");

  TessStore *store = NULL;
  TessProject *project = NULL;
  TessError err;
  char msg[1400];
  tess_error_clear(&err);
  TessResult r = tess_store_open(project_path, TESS_STORE_READ_ONLY, &store, &err);
  if (r == TESS_OK) r = tess_store_load(store, &project, &err);
  if (store) tess_store_close(store);
  if (r != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    return TESS_EXIT_FAIL;
  }

  int status = TESS_EXIT_OK;
  char(*names)[SAFE_NAME_MAX + 16] = level_file_names(project);
  ex.project = project;
  ex.jobs = calloc(project->level_count ? project->level_count : 1, sizeof *ex.jobs);
  if (!names || !ex.jobs) {
    fprintf(stderr, "%s: out of memory\n", project_path);
    status = TESS_EXIT_FAIL;
    goto out;
  }
  for (size_t w = 0; w < wanted_count; w++) {
    if (!tess_project_level_by_name(project, wanted[w])) {
      status = tess_cmd_usage_error("export", "%s has no level named '%s'", project_path, wanted[w]);
      goto out;
    }
  }
  if (!make_dir(dir, msg, sizeof msg)) {
    fprintf(stderr, "%s\n", msg);
    status = TESS_EXIT_FAIL;
    goto out;
  }
  for (uint32_t i = 0; i < project->level_count; i++) {
    bool take = wanted_count == 0;
    for (size_t w = 0; w < wanted_count && !take; w++) take = strcmp(project->levels[i]->settings.name, wanted[w]) == 0;
    if (!take) continue;
    Job *job = &ex.jobs[ex.job_count++];
    job->level = project->levels[i];
    memcpy(job->file, names[i], sizeof job->file);
    size_t plen = strlen(dir) + 1 + strlen(job->file) + 1;
    job->path = malloc(plen);
    if (!job->path) {
      status = TESS_EXIT_FAIL;
      goto out;
    }
    snprintf(job->path, plen, "%s/%s", dir, job->file);
  }

  pthread_mutex_init(&ex.lock, NULL);
  pthread_cond_init(&ex.changed, NULL);
  if ((size_t)jobs > ex.job_count) jobs = ex.job_count ? (int)ex.job_count : 1;
  pthread_t threads[EXPORT_MAX_JOBS];
  int started = 0;
  double t0 = tess_now_seconds();
  for (int t = 0; t < jobs; t++)
    if (pthread_create(&threads[t], NULL, worker, &ex) == 0) started++;
  if (started == 0) worker(&ex); /* no threads to be had: do it here */
  bool tty = isatty(STDERR_FILENO) != 0;
  pthread_mutex_lock(&ex.lock);
  for (;;) {
    if (tty) {
      draw_bar(&ex, tess_now_seconds() - t0);
    } else {
      for (size_t i = 0; i < ex.job_count; i++) {
        Job *job = &ex.jobs[i];
        if (!job->reported && (job->state == JOB_EXPORTED || job->state == JOB_UP_TO_DATE || job->state == JOB_FAILED)) {
          report_line(job);
          job->reported = true;
        }
      }
    }
    if (ex.done >= ex.job_count) break;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 100 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&ex.changed, &ex.lock, &until);
  }
  pthread_mutex_unlock(&ex.lock);
  for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
  double elapsed = tess_now_seconds() - t0;
  pthread_mutex_destroy(&ex.lock);
  pthread_cond_destroy(&ex.changed);
  if (tty) {
    fputc('\n', stderr);
    for (size_t i = 0; i < ex.job_count; i++)
      if (ex.jobs[i].state == JOB_FAILED) report_line(&ex.jobs[i]);
  }

  size_t exported = 0, current = 0, failed = 0;
  sync_output(dir);
  for (size_t i = 0; i < ex.job_count; i++) {
    exported += ex.jobs[i].state == JOB_EXPORTED;
    current += ex.jobs[i].state == JOB_UP_TO_DATE;
    failed += ex.jobs[i].state == JOB_FAILED;
  }
  r = write_manifest(project, dir, names, &ex.opt, &err);
  if (r != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    failed++;
  }
  if (depfile && !write_depfile(depfile, dir, project_path)) {
    fprintf(stderr, "%s: cannot write the depfile: %s\n", depfile, strerror(errno));
    failed++;
  }
  fprintf(stderr, "%zu exported, %zu up to date, %zu failed (%zu levels, %d jobs, %.2f s, %.1f levels/s)\n", exported,
          current, failed, ex.job_count, started ? started : 1, elapsed, elapsed > 0 ? ex.job_count / elapsed : 0.0);
  if (json) {
    printf("{\n  \"exported\": %zu,\n  \"up_to_date\": %zu,\n  \"failed\": %zu,\n  \"seconds\": %.3f,\n  \"levels\": [",
           exported, current, failed, elapsed);
    for (size_t i = 0; i < ex.job_count; i++) {
      const Job *job = &ex.jobs[i];
      static const char *state[] = {"pending", "running", "exported", "up_to_date", "failed"};
      printf("%s\n    {\"name\": ", i ? "," : "");
      json_string(stdout, job->level->settings.name);
      printf(", \"file\": ");
      json_string(stdout, job->path);
      printf(", \"status\": \"%s\", \"size\": %llu, \"content_hash\": \"%016llx\"", state[job->state],
             (unsigned long long)job->size, (unsigned long long)job->content_hash);
      if (job->state == JOB_FAILED) {
        printf(", \"error\": ");
        json_string(stdout, job->error);
      }
      printf("}");
    }
    printf("%s]\n}\n", ex.job_count ? "\n  " : "");
  }
  status = failed ? TESS_EXIT_FAIL : TESS_EXIT_OK;
out:
  if (ex.jobs)
    for (size_t i = 0; i < ex.job_count; i++) free(ex.jobs[i].path);
  free(ex.jobs);
  free(names);
  tess_project_destroy(project);
  return status;
}
