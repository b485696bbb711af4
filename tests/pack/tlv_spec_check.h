/* An independent check of a .tlv against core/pack/FORMAT.md, written from
 * the spec for the tests, sharing no validation code with tlv_reader.c: its
 * own section walk, its own field reads, and other methods where there is a
 * choice (convexity from every vertex against every edge line and the total
 * turning angle; UTF-8 from the RFC 3629 table of well-formed sequences;
 * collision pieces placed with Tessera's own cell transform). The mutation
 * sweep asserts that every file the reader accepts passes it. */
#ifndef TESS_TLV_SPEC_CHECK_H
#define TESS_TLV_SPEC_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* 1 when the file keeps every rule of FORMAT.md; else 0 and `why` says
 * which (checksums included: tlv_checksum is the spec's function). */
int tlv_spec_check(const uint8_t *data, size_t size, char *why, size_t why_size);

#endif
