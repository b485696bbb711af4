/* Compares what the reader sees in a .tlv with the level it was written
 * from: cells, materials, tiles, collision, merged geometry, objects.
 * Reports through CHECK; returns the number of failures it added. */
#ifndef TESS_PACK_CHECK_H
#define TESS_PACK_CHECK_H

#include "tessera/level.h"
#include "tlv_reader.h"

int pack_check_level(const TessProject *p, const TessLevel *level, const TlvLevel *lv);

#endif
