/* The .tlv's draw order (3.5, section DRAW): written from a level's depths
 * and y-sorted layers, read back by tlv_body_draw (and absent, with every
 * body at depth 0, when nothing asks for it), kept by
 * tess_project_from_pack, and hostile records refused with their byte. */
#include <string.h>

#include "check.h"
#include "tessera/pack.h"
#include "tlv_reader.h"
#include "tlv_reseal.h"

/* A level with two object layers: the lower one holds bodies a (depth
 * `da`) and b, the upper one body c; the upper layer sorts by y if asked. */
static TessProject *three_bodies(int32_t da, bool y_sort, TessId *level_out) {
  TessProject *p = tess_project_create();
  TessMaterial m;
  tess_material_default(&m);
  TessId mat = 0;
  TessError err;
  CHECK_OK(tess_edit_material_add(p, &m, &mat, &err), &err);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Draw");
  ls.width = ls.height = 8;
  ls.tile_w = ls.tile_h = 16;
  TessId level = 0, upper = 0;
  CHECK_OK(tess_edit_level_add(p, &ls, &level, &err), &err);
  TessLevel *lv = tess_project_level(p, level);
  TessId lower = 0;
  for (uint32_t i = 0; lv && i < lv->layer_count; i++)
    if (lv->layers[i]->props.kind == TESS_LAYER_OBJECTS) lower = lv->layers[i]->props.id;
  CHECK_OK(tess_edit_layer_add(p, level, TESS_LAYER_OBJECTS, "Upper", -1, &upper, &err), &err);
  TessLayerProps pr = tess_level_layer(lv, upper)->props;
  pr.y_sort = y_sort;
  CHECK_OK(tess_edit_layer_set_props(p, level, &pr, 0, &err), &err);
  TessId layers[3] = {lower, lower, upper};
  int32_t depths[3] = {da, 0, 0};
  for (int i = 0; i < 3; i++) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_BODY);
    o.u.body.type = TESS_BODY_STATIC;
    o.pos = tess_v2(20.0f + 30.0f * i, 40.0f);
    o.depth = depths[i];
    TessId id;
    CHECK_OK(tess_edit_object_add(p, level, layers[i], &o, &id, &err), &err);
  }
  *level_out = level;
  return p;
}

static uint8_t *pack(TessProject *p, TessId level, size_t *size) {
  uint8_t *data = NULL;
  TessError err;
  CHECK_OK(tess_pack_write(p, tess_project_level(p, level), NULL, &data, size, &err), &err);
  return data;
}

static void draw_order_round_trip(void) {
  TessId level;
  TessProject *p = three_bodies(-5, true, &level);
  size_t size = 0;
  uint8_t *data = pack(p, level, &size);
  TlvLevel lv;
  TlvError terr;
  CHECK(data && tlv_open(data, size, 0, &lv, &terr) == TLV_OK);
  CHECK(lv.header.minor >= 5);
  CHECK(lv.draw_order.count == 3 && lv.bodies.count == 3);
  TlvBodyDraw d[3];
  for (uint32_t i = 0; i < 3; i++) CHECK(tlv_body_draw(&lv, i, &d[i]));
  TlvBodyDraw past;
  CHECK(tlv_body_draw(&lv, 3, &past) == 0);
  CHECK(d[0].depth == -5 && d[0].layer == 0 && !d[0].y_sort);
  CHECK(d[1].depth == 0 && d[1].layer == 0 && !d[1].y_sort);
  CHECK(d[2].depth == 0 && d[2].layer == 1 && d[2].y_sort);
  /* Back to a project: the depth and the sorting survive. */
  TessProject *q = NULL;
  TessError err;
  CHECK_OK(tess_project_from_pack(&lv, ".", &q, &err), &err);
  if (q) {
    const TessLevel *ql = q->levels[0];
    int found = 0;
    bool sorted = false;
    for (uint32_t li = 0; li < ql->layer_count; li++) {
      const TessLayer *l = ql->layers[li];
      if (l->props.kind != TESS_LAYER_OBJECTS) continue;
      sorted = sorted || l->props.y_sort;
      for (uint32_t k = 0; k < l->object_count; k++)
        if (l->objects[k].depth == -5) found++;
    }
    CHECK(found == 1 && sorted);
    tess_project_destroy(q);
  }
  tess_free(data);
  tess_project_destroy(p);

  /* Nothing set: no section, every body at depth 0 in body order. */
  p = three_bodies(0, false, &level);
  data = pack(p, level, &size);
  CHECK(data && tlv_open(data, size, 0, &lv, &terr) == TLV_OK);
  CHECK(lv.draw_order.count == 0 && tlv_find_entry(data, size, TLV_SEC_DRAW_ORDER) == 0);
  CHECK(tlv_body_draw(&lv, 2, &d[2]) && d[2].depth == 0 && d[2].layer == 0 && !d[2].y_sort);
  tess_free(data);
  tess_project_destroy(p);
}

/* One byte of the DRAW section changed (checksums resealed): refused at
 * that byte, or read as the spec says. */
static void draw_order_hostile_records(void) {
  TessId level;
  TessProject *p = three_bodies(7, true, &level);
  size_t size = 0;
  uint8_t *data = pack(p, level, &size);
  TlvLevel lv;
  TlvError terr;
  CHECK(data && tlv_open(data, size, 0, &lv, &terr) == TLV_OK);
  uint64_t at = lv.draw_order.offset;
  struct {
    uint64_t offset;
    uint32_t value, width;
    const char *why;
  } cases[] = {
      {0, 32768u, 4, "depth"},
      {0, (uint32_t)-32769, 4, "depth"},
      {4, 0x8000u, 2, "layer rank"},
      {6, 2u, 1, "flags"},
      {7, 1u, 1, "reserved"},
      {8 + 6, 0x80u, 1, "flags"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t *bad = tess_alloc(size);
    memcpy(bad, data, size);
    uint8_t *f = bad + at + cases[i].offset;
    for (uint32_t k = 0; k < cases[i].width; k++) f[k] = (uint8_t)(cases[i].value >> (8 * k));
    tlv_reseal(bad, size);
    TlvLevel blv;
    CHECK_MSG(tlv_open(bad, size, 0, &blv, &terr) == TLV_ERR_VALUE, "%s accepted", cases[i].why);
    CHECK_MSG(terr.offset == at + cases[i].offset, "%s refused at byte %llu, not %llu", cases[i].why, (unsigned long long)terr.offset,
              (unsigned long long)(at + cases[i].offset));
    tess_free(bad);
  }
  /* A record count that is not the bodies': the section's entry says 2. */
  uint8_t *bad = tess_alloc(size);
  memcpy(bad, data, size);
  size_t entry = tlv_find_entry(bad, size, TLV_SEC_DRAW_ORDER);
  CHECK(entry != 0);
  if (entry) {
    /* The entry: type, flags, offset, size, count... find the count by its value 3 after the size. */
    bool patched = false;
    for (size_t k = entry + 8; k + 4 <= entry + TLV_SECTION_ENTRY_SIZE && !patched; k += 4)
      if (tlv_get32(bad + k) == 3u) {
        tlv_put32(bad + k, 2u);
        patched = true;
      }
    CHECK(patched);
    tlv_reseal(bad, size);
    TlvLevel blv;
    CHECK(tlv_open(bad, size, 0, &blv, &terr) != TLV_OK);
  }
  tess_free(bad);
  tess_free(data);
  tess_project_destroy(p);
}

int main(int argc, char **argv) {
  static const TessTestCase cases[] = {
      {"draw_order_round_trip", draw_order_round_trip},
      {"draw_order_hostile_records", draw_order_hostile_records},
  };
  return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
