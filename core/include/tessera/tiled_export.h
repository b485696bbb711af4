/* Tessera core/formats: a level written as a Tiled map (TMJ/TSJ in JSON,
 * TMX/TSX in XML), the Tessera -> Tiled half of core/formats. The mapping
 * (what each Tessera thing becomes in Tiled's vocabulary) is documented in
 * core/formats/README.md.
 *
 * A level is written as DIR/<level>.tmj (or .tmx) with its tilesets as
 * external files DIR/tilesets/<name>.tsj (.tsx) and their images as
 * DIR/tilesets/<name>.png (the PNG bytes the project holds; the materials
 * tileset's swatches are generated). Every file is written under a
 * temporary name and renamed; a tileset file whose bytes are already there
 * is left alone, so levels written in parallel share them safely. */
#ifndef TESSERA_TILED_EXPORT_H
#define TESSERA_TILED_EXPORT_H

#include "tessera/base.h"
#include "tessera/level.h"
#include "tessera/pack.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TessTiledFlavor {
  TESS_TILED_TMJ = 0, /* JSON: .tmj maps, .tsj tilesets */
  TESS_TILED_TMX = 1, /* XML: .tmx maps, .tsx tilesets */
} TessTiledFlavor;

/* The writer for tess_export_create (TessExportSpec.writer): one map per
 * level named as the .tlv files are, manifest format "tiled-tmj" or
 * "tiled-tmx". Static; never NULL for a known flavour. */
const TessExportWriter *tess_tiled_export_writer(TessTiledFlavor flavor);

/* By name: "tmj" or "tmx"; NULL otherwise. */
const TessExportWriter *tess_tiled_export_writer_by_name(const char *name);

/* Writes one level to `path` (its tilesets under "tilesets/" in path's
 * directory, which must exist). The map carries the content hash the
 * export compares (map property tessera.content_hash). */
TessResult tess_tiled_write_level(const TessProject *p, const TessLevel *level, TessTiledFlavor flavor,
                                  const char *path, TessError *err);

#ifdef __cplusplus
}
#endif
#endif
