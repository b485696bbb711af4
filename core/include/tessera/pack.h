/* Tessera core/pack: the packed binary level (.tlv) writer.
 *
 * The format is documented in core/pack/FORMAT.md; the reader a game drops
 * in is core/pack/tlv_reader.h + tlv_reader.c (no dependencies). The writer
 * is deterministic: the same project and level give the same bytes on any
 * thread or machine (fixed field order, little-endian, zeroed padding, no
 * pointers, no timestamps). It reads the project and never changes it, so
 * different levels of one project may be written on different threads at
 * the same time. */
#ifndef TESSERA_PACK_H
#define TESSERA_PACK_H

#include "tessera/base.h"
#include "tessera/level.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the writer's output for the same input changes (a fix in
 * the collision merge, a new section, or core/scene resolving a level into
 * different numbers: the simulation data is the scene's): part of every
 * content hash, so an incremental export rewrites files made by an older
 * writer. tests/pack's golden files fail until it is bumped. */
#define TESS_PACK_WRITER_VERSION 13u /* 4: format 3.1, pin motors; 5: format 3.2, one polygon winding; 6: format 3.3, terrain sets; 7: format 3.4, tiles at their own size; 8: pins made at an overlap's centre bend within limits; 9: format 3.5, draw order; 10: format 3.6, pixel masks; 11: format 3.7, per-body integrator and spring zones; 12: format 3.8, launchers; 13: format 3.9, static bodies' pixel masks */

typedef struct TessPackOptions {
  bool embed_images; /* put the PNG bytes of the tilesets and sprites the level uses in the file */
} TessPackOptions;

void tess_pack_options_default(TessPackOptions *opt);

/* The content hash the header will carry: tess_level_content_hash() of the
 * level, the format version, the writer version and the options. Cheap
 * compared to writing; an exporter compares it with an existing file's. */
uint64_t tess_pack_content_hash(const TessProject *p, const TessLevel *level, const TessPackOptions *opt);

/* Writes the level into a new buffer (tess_free it). opt may be NULL. */
TessResult tess_pack_write(const TessProject *p, const TessLevel *level, const TessPackOptions *opt, uint8_t **data,
                           size_t *size, TessError *err);

/* Writes to `path` atomically (temporary name in the same directory, then
 * rename): a reader never sees a partial file. */
TessResult tess_pack_write_file(const TessProject *p, const TessLevel *level, const TessPackOptions *opt,
                                const char *path, TessError *err);

/* The scene of a .tlv: the runtime's (tessera/runtime.h documents it);
 * declared here too, with the reader's type left opaque, for the writer's
 * callers. */
struct TlvLevel;
struct TessScene;
TessResult tess_scene_from_pack(const struct TlvLevel *lv, struct TessScene **out, TessError *err);

/* A project holding the file's level (its materials, tilesets, sprites,
 * layers and objects, sizes back in pixels), for tools that draw or inspect
 * levels (`tessera-pipeline render FILE.tlv`). Images come from the file
 * when it embeds them, else from their source paths read relative to
 * `image_dir` (NULL: not looked for; missing files are left out). The
 * caller destroys the project. */
TessResult tess_project_from_pack(const struct TlvLevel *lv, const char *image_dir, TessProject **out, TessError *err);

/* ---- Export: levels to .tlv files plus manifest.json --------------------
 * What `tessera-pipeline export` and the editor's File > Export... both run
 * (pipeline/README-export.md): one file per level on N worker threads,
 * byte-identical whatever N; a level whose file validates and carries its
 * content hash is skipped unless forced; each file is written under a
 * temporary name and renamed, so neither an interruption nor a cancel ever
 * leaves a partial .tlv; level names become safe file names. The project
 * is only read: nothing may change it while the export runs. */

#define TESS_EXPORT_MAX_JOBS 256
#define TESS_EXPORT_FILE_MAX 112 /* a file name with its extension (".tlv") and NUL */

typedef enum TessExportState {
  TESS_EXPORT_PENDING,
  TESS_EXPORT_RUNNING,
  TESS_EXPORT_EXPORTED,
  TESS_EXPORT_UP_TO_DATE,
  TESS_EXPORT_FAILED,
  TESS_EXPORT_CANCELLED, /* not started: the export was cancelled first */
} TessExportState;

typedef struct TessExportJob {
  const TessLevel *level;
  char file[TESS_EXPORT_FILE_MAX]; /* the file name inside the directory */
  char *path;                      /* directory/file */
  uint64_t content_hash;           /* the header's content hash */
  uint64_t size;                   /* bytes of the file (exported or up to date) */
  TessExportState state;
  char error[1200]; /* why it failed */
} TessExportJob;

typedef struct TessExport TessExport;

/* Another format for the same machinery (jobs keyed by content hash,
 * incremental, atomic, parallel, the manifest): core/formats gives Tiled's
 * TMJ and TMX (tessera/formats.h). The hooks run on worker threads at
 * once, sharing `state`, which they only read after begin. */
typedef struct TessExportWriter {
  const char *format;    /* the manifest's "format": "tiled-tmj" */
  const char *extension; /* of each level's file, with the dot: ".tmj" */
  /* Once per export, before any job (may be NULL): *state is passed to the rest. */
  TessResult (*begin)(const TessProject *p, void **state, TessError *err);
  void (*end)(void *state);
  /* What the level's file carries, to compare with an existing one. */
  uint64_t (*content_hash)(void *state, const TessProject *p, const TessLevel *level);
  /* Writes dir/file and the files beside it that it needs, each atomically;
   * *size: bytes of dir/file. */
  TessResult (*write)(void *state, const TessProject *p, const TessLevel *level, const char *dir, const char *file,
                      uint64_t hash, uint64_t *size, TessError *err);
  /* True when dir/file carries `hash` and every file it needs is there. */
  bool (*up_to_date)(void *state, const TessProject *p, const TessLevel *level, const char *dir, const char *file,
                     uint64_t hash, uint64_t *size);
  /* Calls add with each file beside dir/file that it needs (relative to dir), for the manifest. */
  void (*list_files)(void *state, const TessProject *p, const TessLevel *level,
                     void (*add)(void *user, const char *file), void *user);
  /* A folder of dir the writer fills with files of its own (the Tiled
   * export's "tilesets"), or NULL: its temporary files ("<name><ext>.<hex>-<hex>.tmp",
   * ext among subdir_extensions, NULL-terminated) left by a killed export are
   * removed with the directory's own. */
  const char *subdir;
  const char *const *subdir_extensions;
} TessExportWriter;

typedef struct TessExportSpec {
  const char *dir;      /* created when missing (its parent must exist) */
  const TessId *levels; /* the levels to export, NULL for every level */
  size_t level_count;
  unsigned jobs; /* worker threads; 0: the number of cores */
  bool force;    /* write levels whose file is up to date too */
  /* The project file the levels come from, or NULL: an output that is this
   * file is refused with both names (an output that is any SQLite database
   * is refused in any case). */
  const char *source_path;
  TessPackOptions options;
  const TessExportWriter *writer; /* NULL: .tlv files (options apply to those only) */
  /* Called on the thread running tess_export_run when a level starts or
   * ends and every 100 ms, with the export's state locked (read it with the
   * accessors below; return quickly). May be NULL. */
  void (*progress)(void *user, const TessExport *ex);
  /* Polled by the workers before each level (from any of them): true stops
   * handing out levels; the ones being written finish, the others become
   * TESS_EXPORT_CANCELLED. May be NULL. */
  bool (*cancelled)(void *user);
  void *user;
} TessExportSpec;

/* Names the files, selects the levels (in project order) and creates the
 * directory. Fails for an unknown level id or a directory that cannot be
 * made; the export is the caller's (tess_export_destroy). */
TessResult tess_export_create(const TessProject *p, const TessExportSpec *spec, TessExport **out, TessError *err);
/* Removes the temporary files a killed export left in the directory (its
 * own names only: "<file>.tlv.<hex>-<hex>.tmp", "manifest.json.<hex>.tmp",
 * and only when no other export is running there), runs the jobs, syncs
 * the output's file system once, then writes manifest.json (every level of
 * the project whose file is present and current). Each level's bytes are
 * opened with the reader (tlv_open) before they are written: a level the
 * reader refuses fails and is left out. A failed level does not stop the
 * others and is not an error of this call (see the jobs); an error here is
 * the manifest's. */
TessResult tess_export_run(TessExport *ex, TessError *err);
size_t tess_export_job_count(const TessExport *ex);
const TessExportJob *tess_export_job(const TessExport *ex, size_t i);
size_t tess_export_done(const TessExport *ex);          /* jobs finished (any outcome) */
unsigned tess_export_threads(const TessExport *ex);     /* worker threads actually used */
size_t tess_export_stale_removed(const TessExport *ex); /* temporary files of killed exports removed by the run */
double tess_export_seconds(const TessExport *ex);       /* since the run started; final once the workers end */
/* The job currently being written (the first running one), or NULL. */
const TessExportJob *tess_export_current(const TessExport *ex);
void tess_export_destroy(TessExport *ex);

#ifdef __cplusplus
}
#endif
#endif
