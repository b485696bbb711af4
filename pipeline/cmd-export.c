/* tessera-pipeline export: every level of a project (or the named ones) to
 * one .tlv each plus manifest.json, on N worker threads.
 *
 * The export itself (jobs keyed by content hash, incremental, atomic files,
 * safe names, the manifest) is core/pack's tess_export_* (tessera/pack.h),
 * which the editor's File > Export... runs too; this command parses the
 * options, shows progress and writes the summaries. Headless: core only,
 * no display. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "tessera/pack.h"
#include "tessera/store.h"
#include "tessera/formats.h"
#include "tlv_reader.h"

/* ---- Progress ---------------------------------------------------------------- */

typedef struct Progress {
  bool tty;
  bool *reported; /* per job: its line is printed */
} Progress;

static void format_seconds(double s, char *buf, size_t size) {
  long t = (long)(s + 0.5);
  snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

static void draw_bar(const TessExport *ex) {
  const int width = 24;
  size_t done = tess_export_done(ex), total = tess_export_job_count(ex);
  double elapsed = tess_export_seconds(ex);
  int filled = total ? (int)(width * done / total) : width;
  char bar[64], el[48], eta[48];
  for (int i = 0; i < width; i++) bar[i] = i < filled ? '#' : '-';
  bar[width] = 0;
  format_seconds(elapsed, el, sizeof el);
  if (done > 0 && done < total)
    format_seconds(elapsed / done * (total - done), eta, sizeof eta);
  else
    snprintf(eta, sizeof eta, "--:--");
  const TessExportJob *cur = tess_export_current(ex);
  char current[TESS_CMD_PRINTABLE_NAME];
  tess_cmd_printable(cur ? cur->level->settings.name : "", current, sizeof current);
  fprintf(stderr, "\r\033[K[%s] %zu/%zu  %-24.24s  %s  ETA %s", bar, done, total, current, el, eta);
  fflush(stderr);
}

/* Level names come from the project and may hold anything: printed escaped. */
static void report_line(const TessExportJob *job) {
  char name[TESS_CMD_PRINTABLE_NAME], error[sizeof job->error * 4];
  tess_cmd_printable(job->level->settings.name, name, sizeof name);
  switch (job->state) {
    case TESS_EXPORT_EXPORTED:
      fprintf(stderr, "exported %s -> %s (%llu bytes)\n", name, job->path, (unsigned long long)job->size);
      break;
    case TESS_EXPORT_UP_TO_DATE: fprintf(stderr, "up to date %s (%s)\n", name, job->path); break;
    case TESS_EXPORT_FAILED:
      fprintf(stderr, "FAILED %s: %s (left out of manifest.json)\n", name,
              tess_cmd_printable(job->error, error, sizeof error));
      break;
    default: break;
  }
}

static void on_progress(void *user, const TessExport *ex) {
  Progress *pr = user;
  if (pr->tty) {
    draw_bar(ex);
    return;
  }
  for (size_t i = 0; i < tess_export_job_count(ex); i++) {
    const TessExportJob *job = tess_export_job(ex, i);
    if (!pr->reported[i] &&
        (job->state == TESS_EXPORT_EXPORTED || job->state == TESS_EXPORT_UP_TO_DATE || job->state == TESS_EXPORT_FAILED)) {
      report_line(job);
      pr->reported[i] = true;
    }
  }
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
    "export PROJECT.tessera [-o DIR] [--format tlv|tmj|tmx] [--level NAME]... [--jobs N] [--force]\n"
    "                  [--json] [--depfile FILE] [--embed-images]\n"
    "  -o, --output DIR  where the level files and manifest.json go (default: the current directory)\n"
    "  --format F        tlv: packed levels (default); tmj, tmx: Tiled maps (JSON, XML) with their\n"
    "                    tilesets and images under DIR/tilesets (core/formats/README.md)\n"
    "  --level NAME      export this level only (repeatable; default: every level)\n"
    "  -j, --jobs N      worker threads, 1..256 (default: the number of cores)\n"
    "  --force           write every level even when its output is up to date\n"
    "  --json            a JSON summary on stdout (see pipeline/README-export.md)\n"
    "  --depfile FILE    a Make-style depfile for ninja or make\n"
    "  --embed-images    put the tileset and sprite PNGs into each .tlv (tlv only)\n"
    "Exit status: 0 all exported or up to date, 1 a level failed (the others are still written), 2 usage.\n";

static int parse_jobs(const char *s, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == 0 || *end != 0 || v < 1 || v > TESS_EXPORT_MAX_JOBS) return 0;
  *out = (int)v;
  return 1;
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
  TessExportSpec spec;
  memset(&spec, 0, sizeof spec);
  tess_pack_options_default(&spec.options);
  if (jobs < 1) jobs = 1;
  if (jobs > TESS_EXPORT_MAX_JOBS) jobs = TESS_EXPORT_MAX_JOBS;
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
        return tess_cmd_usage_error("export", "--jobs needs a number from 1 to %d", TESS_EXPORT_MAX_JOBS);
    } else if (strcmp(a, "--force") == 0) {
      spec.force = true;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--format") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("export", "--format needs tlv, tmj or tmx");
      if (strcmp(argv[i], "tlv") == 0) spec.writer = NULL;
      else if (!(spec.writer = tess_tiled_export_writer_by_name(argv[i])))
        return tess_cmd_usage_error("export", "unknown format '%s' (tlv, tmj or tmx)", argv[i]);
    } else if (strcmp(a, "--embed-images") == 0) {
      spec.options.embed_images = true;
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
  if (spec.writer && spec.options.embed_images)
    return tess_cmd_usage_error("export", "--embed-images is for .tlv files (Tiled maps name their images beside them)");
  /* The .tlv files and the manifest are checked by the export itself (it knows their names). */
  if (depfile && tess_cmd_check_output(depfile, &project_path, 1, 0) != TESS_EXIT_OK) return TESS_EXIT_FAIL;

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
  TessExport *ex = NULL;
  Progress progress = {isatty(STDERR_FILENO) != 0, NULL};
  TessId *ids = calloc(project->level_count ? project->level_count : 1, sizeof *ids);
  size_t id_count = 0;
  if (!ids) {
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
  /* Every level a --level names (two levels may share a name). */
  for (uint32_t i = 0; i < project->level_count; i++)
    for (size_t w = 0; w < wanted_count; w++)
      if (strcmp(project->levels[i]->settings.name, wanted[w]) == 0) {
        ids[id_count++] = project->levels[i]->id;
        break;
      }
  spec.dir = dir;
  spec.source_path = project_path;
  spec.levels = wanted_count ? ids : NULL;
  spec.level_count = id_count;
  spec.jobs = (unsigned)jobs;
  spec.progress = on_progress;
  spec.user = &progress;
  r = tess_export_create(project, &spec, &ex, &err);
  if (r != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    status = TESS_EXIT_FAIL;
    goto out;
  }
  size_t count = tess_export_job_count(ex);
  progress.reported = calloc(count ? count : 1, sizeof *progress.reported);
  if (!progress.reported) {
    fprintf(stderr, "%s: out of memory\n", project_path);
    status = TESS_EXIT_FAIL;
    goto out;
  }
  TessResult manifest = tess_export_run(ex, &err);
  double elapsed = tess_export_seconds(ex);
  if (progress.tty) {
    fputc('\n', stderr);
    for (size_t i = 0; i < count; i++)
      if (tess_export_job(ex, i)->state == TESS_EXPORT_FAILED) report_line(tess_export_job(ex, i));
  }

  size_t exported = 0, current = 0, failed = 0;
  for (size_t i = 0; i < count; i++) {
    TessExportState st = tess_export_job(ex, i)->state;
    exported += st == TESS_EXPORT_EXPORTED;
    current += st == TESS_EXPORT_UP_TO_DATE;
    failed += st == TESS_EXPORT_FAILED;
  }
  if (manifest != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    failed++;
  }
  if (depfile && !write_depfile(depfile, dir, project_path)) {
    fprintf(stderr, "%s: cannot write the depfile: %s\n", depfile, strerror(errno));
    failed++;
  }
  if (tess_export_stale_removed(ex))
    fprintf(stderr, "removed %zu temporary file%s left in %s by an export that was stopped\n",
            tess_export_stale_removed(ex), tess_export_stale_removed(ex) == 1 ? "" : "s", dir);
  fprintf(stderr, "%zu exported, %zu up to date, %zu failed (%zu levels, %u jobs, %.2f s, %.1f levels/s)\n", exported,
          current, failed, count, tess_export_threads(ex), elapsed, elapsed > 0 ? count / elapsed : 0.0);
  if (json) {
    printf("{\n  \"exported\": %zu,\n  \"up_to_date\": %zu,\n  \"failed\": %zu,\n  \"seconds\": %.3f,\n  \"levels\": [",
           exported, current, failed, elapsed);
    for (size_t i = 0; i < count; i++) {
      const TessExportJob *job = tess_export_job(ex, i);
      static const char *state[] = {"pending", "running", "exported", "up_to_date", "failed", "cancelled"};
      printf("%s\n    {\"name\": ", i ? "," : "");
      tess_cmd_json_string(stdout, job->level->settings.name);
      printf(", \"file\": ");
      tess_cmd_json_string(stdout, job->path);
      printf(", \"status\": \"%s\", \"size\": %llu, \"content_hash\": \"%016llx\"", state[job->state],
             (unsigned long long)job->size, (unsigned long long)job->content_hash);
      if (job->state == TESS_EXPORT_FAILED) {
        printf(", \"error\": ");
        tess_cmd_json_string(stdout, job->error);
      }
      printf("}");
    }
    printf("%s]\n}\n", count ? "\n  " : "");
  }
  status = tess_cmd_finish_stdout(failed ? TESS_EXIT_FAIL : TESS_EXIT_OK);
out:
  free(ids);
  free(progress.reported);
  tess_export_destroy(ex);
  tess_project_destroy(project);
  return status;
}
