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
#define TESS_PACK_WRITER_VERSION 1u

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

/* The scene (core/scene) of a .tlv opened with the reader (tlv_open): equal
 * to tess_scene_from_level() of the level it was written from, so a game
 * simulates what the editor previewed. `lv` is a TlvLevel from
 * core/pack/tlv_reader.h; the scene is the caller's (tess_scene_destroy). */
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

#ifdef __cplusplus
}
#endif
#endif
