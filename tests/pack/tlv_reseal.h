/* Recomputes a .tlv's section checksums and header checksum in place, over
 * whatever the bytes now hold, so hostile-file tests reach the structure
 * checks behind the checksums. Entries pointing outside are left alone. */
#ifndef TESS_TLV_RESEAL_H
#define TESS_TLV_RESEAL_H

#include <stddef.h>
#include <stdint.h>

void tlv_reseal(uint8_t *data, size_t size);

/* Little-endian field access for tests that edit files. */
uint32_t tlv_get32(const uint8_t *p);
uint64_t tlv_get64(const uint8_t *p);
void tlv_put32(uint8_t *p, uint32_t v);
void tlv_put64(uint8_t *p, uint64_t v);
/* Byte offset of the section table entry of `type`, or 0 if absent. */
size_t tlv_find_entry(const uint8_t *data, size_t size, uint32_t type);

#endif
