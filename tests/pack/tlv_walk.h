/* Reads everything a successfully opened .tlv offers through the reader's
 * accessors, following every index (a game's worst case). Under
 * AddressSanitizer this is what proves "never an out-of-bounds read". */
#ifndef TESS_TLV_WALK_H
#define TESS_TLV_WALK_H

#include <stdint.h>

#include "tlv_reader.h"

/* Returns a sum of what it read (so the reads cannot be optimised away). */
uint64_t tlv_walk(const TlvLevel *lv);

#endif
