/* Shared inside core/pack: the writer with the level's content hash
 * already known (an exporter computes it first, to skip levels whose file
 * is current), and the hash a header carries made from it. */
#ifndef TESS_PACK_PRIVATE_H
#define TESS_PACK_PRIVATE_H

#include "tessera/pack.h"

/* tess_pack_content_hash() given source = tess_level_content_hash(). */
uint64_t pack_hash_from_source(uint64_t source, const TessPackOptions *opt);
/* tess_pack_write() given source = tess_level_content_hash(p, level). */
TessResult pack_write_hashed(const TessProject *p, const TessLevel *level, const TessPackOptions *opt, uint64_t source,
                             uint8_t **data, size_t *size, TessError *err);

#endif
