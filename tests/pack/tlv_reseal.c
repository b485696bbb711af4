#include "tlv_reseal.h"

#include <string.h>

#include "tlv_reader.h"

uint32_t tlv_get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
uint64_t tlv_get64(const uint8_t *p) { return tlv_get32(p) | (uint64_t)tlv_get32(p + 4) << 32; }
void tlv_put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
void tlv_put64(uint8_t *p, uint64_t v) {
  tlv_put32(p, (uint32_t)v);
  tlv_put32(p + 4, (uint32_t)(v >> 32));
}

static int table(const uint8_t *data, size_t size, uint32_t *hsize, uint32_t *count) {
  if (size < TLV_HEADER_SIZE) return 0;
  *hsize = tlv_get32(data + 16);
  *count = tlv_get32(data + 20);
  if (*hsize < TLV_HEADER_SIZE || *hsize > 256 || *count > 1000) return 0;
  if ((uint64_t)*hsize + (uint64_t)*count * TLV_SECTION_ENTRY_SIZE > size) return 0;
  return 1;
}

size_t tlv_find_entry(const uint8_t *data, size_t size, uint32_t type) {
  uint32_t hsize, count;
  if (!table(data, size, &hsize, &count)) return 0;
  for (uint32_t i = 0; i < count; i++) {
    size_t e = hsize + (size_t)i * TLV_SECTION_ENTRY_SIZE;
    if (tlv_get32(data + e) == type) return e;
  }
  return 0;
}

void tlv_reseal(uint8_t *data, size_t size) {
  uint32_t hsize, count;
  if (!table(data, size, &hsize, &count)) return;
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *e = data + hsize + (size_t)i * TLV_SECTION_ENTRY_SIZE;
    uint64_t off = tlv_get64(e + 8), sz = tlv_get64(e + 16);
    if (off <= size && sz <= size - off) tlv_put32(e + 28, tlv_checksum(data + off, (size_t)sz));
  }
  uint8_t head[256];
  memcpy(head, data, hsize);
  memset(head + 52, 0, 4);
  tlv_put32(data + 52, tlv_checksum(head, hsize) ^ tlv_checksum(data + hsize, (size_t)count * TLV_SECTION_ENTRY_SIZE));
}
