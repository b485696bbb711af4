/* tessera-pipeline info FILE.tlv: the header, the section table, what the
 * level holds, and whether the file validates (exit 0 when it does). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "tessera/pack.h"
#include "tlv_reader.h"

const char tess_cmd_info_usage[] =
    "info FILE.tlv [--json]\n"
    "  --json  one JSON document on stdout\n"
    "Exit status: 0 the file validates, 1 it does not (the reason and byte offset are printed), 2 usage.\n";

static const char *type_name(uint32_t type, char buf[5]) {
  for (int i = 0; i < 4; i++) {
    unsigned char c = (unsigned char)(type >> (8 * i));
    buf[i] = c >= 0x20 && c < 0x7F ? (char)c : '?';
  }
  buf[4] = 0;
  return buf;
}

int tess_cmd_info(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--version") == 0) {
      printf("tessera-pipeline %s (packed level format %u.%u, writer %u)\n", TESS_VERSION, TLV_VERSION_MAJOR,
             TLV_VERSION_MINOR, TESS_PACK_WRITER_VERSION);
      return TESS_EXIT_OK;
    }
  const char *path = NULL;
  bool json = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) json = true;
    else if (argv[i][0] == '-' && argv[i][1]) return tess_cmd_usage_error("info", "unknown option %s", argv[i]);
    else if (!path) path = argv[i];
    else return tess_cmd_usage_error("info", "one file at a time");
  }
  if (!path) return tess_cmd_usage_error("info", "no .tlv file given");
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (!f || fstat(fileno(f), &st) != 0) {
    fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
    if (f) fclose(f);
    return TESS_EXIT_FAIL;
  }
  size_t size = (size_t)st.st_size;
  uint8_t *data = malloc(size ? size : 1);
  if (!data || fread(data, 1, size, f) != size) {
    fprintf(stderr, "%s: cannot read\n", path);
    fclose(f);
    free(data);
    return TESS_EXIT_FAIL;
  }
  fclose(f);
  TlvLevel lv;
  TlvError err;
  memset(&err, 0, sizeof err);
  TlvResult valid = tlv_open(data, size, 0, &lv, &err);
  TlvHeader h;
  TlvError herr;
  bool have_header = tlv_read_header(data, size, &h, &herr) == TLV_OK;
  if (have_header && valid != TLV_OK) {
    /* Show the table of a file that does not validate, as far as it is inside the file. */
    memset(&lv, 0, sizeof lv);
    lv.base = data;
    lv.size = size;
    lv.header = h;
  }
  char tbuf[5];
  if (json) {
    printf("{\n  \"file\": ");
    tess_cmd_json_string(stdout, path);
    printf(",\n  \"bytes\": %zu,\n  \"valid\": %s", size, valid == TLV_OK ? "true" : "false");
    if (valid != TLV_OK) {
      printf(",\n  \"error\": {\"code\": \"%s\", \"offset\": %llu, \"message\": ", tlv_result_string(valid),
             (unsigned long long)err.offset);
      tess_cmd_json_string(stdout, err.message);
      printf("}");
    }
    if (have_header) {
      printf(
          ",\n  \"version\": \"%u.%u\",\n  \"flags\": %u,\n  \"writer_version\": %u,\n  \"level_id\": %u,\n"
          "  \"content_hash\": \"%016llx\",\n  \"source_hash\": \"%016llx\",\n  \"sections\": [",
          h.major, h.minor, h.flags, h.writer_version, h.level_id, (unsigned long long)h.content_hash,
          (unsigned long long)h.source_hash);
      TlvSectionInfo si;
      for (uint32_t i = 0; tlv_section_info(&lv, i, &si); i++)
        printf("%s\n    {\"type\": \"%s\", \"required\": %s, \"offset\": %llu, \"size\": %llu, \"count\": %u, \"stride\": %u}",
               i ? "," : "", type_name(si.type, tbuf), si.flags & TLV_SECTION_REQUIRED ? "true" : "false",
               (unsigned long long)si.offset, (unsigned long long)si.size, si.count, si.stride);
      printf("\n  ]");
    }
    if (valid == TLV_OK) {
      printf(",\n  \"level\": {\"name\": ");
      tess_cmd_json_string(stdout, tlv_string(&lv, lv.settings.name));
      printf(
          ", \"width\": %u, \"height\": %u, \"tile_w\": %u, \"tile_h\": %u, "
          "\"layers\": %u, \"materials\": %u, \"bodies\": %u, \"joints\": %u, \"loops\": %u, \"rects\": %u}",
          lv.settings.width, lv.settings.height, lv.settings.tile_w,
          lv.settings.tile_h, lv.layers.count, lv.materials.count, lv.bodies.count, lv.joints.count, lv.loops.count,
          lv.rects.count);
    }
    printf("\n}\n");
  } else {
    printf("%s: %zu bytes\n", path, size);
    if (have_header) {
      printf("format %u.%u, writer %u, flags 0x%x%s, level id %u\n", h.major, h.minor, h.writer_version, h.flags,
             h.flags & TLV_FLAG_IMAGES ? " (images embedded)" : "", h.level_id);
      printf("content hash %016llx, source hash %016llx\n", (unsigned long long)h.content_hash,
             (unsigned long long)h.source_hash);
      printf("%u sections:\n  type  req      offset        size     count  stride  checksum\n", h.section_count);
      TlvSectionInfo si;
      for (uint32_t i = 0; tlv_section_info(&lv, i, &si); i++)
        printf("  %s  %-3s %10llu  %10llu  %8u  %6u  %08x\n", type_name(si.type, tbuf),
               si.flags & TLV_SECTION_REQUIRED ? "yes" : "no", (unsigned long long)si.offset,
               (unsigned long long)si.size, si.count, si.stride, si.checksum);
    }
    if (valid == TLV_OK) {
      const TlvSettings *s = &lv.settings;
      char name[TESS_CMD_PRINTABLE_NAME];
      printf("level \"%s\": %u x %u cells of %u x %u px, %.3g px/m, %s, gravity (%g, %g), %g Hz x %u sub-steps\n",
             tess_cmd_printable(tlv_string(&lv, s->name), name, sizeof name), s->width, s->height, s->tile_w, s->tile_h, (double)s->ppm,
             s->view ? "top-down" : "side view", (double)s->gravity_x, (double)s->gravity_y, (double)s->physics_hz,
             s->substeps);
      printf("%u layers, %u materials, %u tilesets, %u tiles, %u collision loops, %u rectangles\n", lv.layers.count,
             lv.materials.count, lv.tilesets.count, lv.tiles.count, lv.loops.count, lv.rects.count);
      printf("%u bodies, %u shapes, %u joints, %u zones, %u spawn points, %u sprites, %u properties\n", lv.bodies.count,
             lv.shapes.count, lv.joints.count, lv.zones.count, lv.spawns.count, lv.sprites.count, lv.properties.count);
      for (uint32_t i = 0; i < lv.layers.count; i++) {
        TlvLayer layer;
        tlv_layer(&lv, i, &layer);
        printf("  layer \"%s\": %s, %u-bit cells%s\n", tess_cmd_printable(tlv_string(&lv, layer.name), name, sizeof name),
               layer.kind == TLV_LAYER_TILES ? "tiles" : "materials", layer.cell_width * 8,
               layer.flags & TLV_LAYER_COLLIDES ? ", collides" : "");
      }
      printf("valid: yes\n");
    } else {
      printf("valid: no\n");
      fprintf(stderr, "%s:byte %llu: %s: %s\n", path, (unsigned long long)err.offset, tlv_result_string(valid), err.message);
    }
  }
  free(data);
  return tess_cmd_finish_stdout(valid == TLV_OK ? TESS_EXIT_OK : TESS_EXIT_FAIL);
}
