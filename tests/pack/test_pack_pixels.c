/* A tile layer that collides by pixels, through the .tlv (format 3.6): its
 * mask's bits travel in PMSK/PBIT, the game's scene equals the editor's,
 * both worlds step alike, the layer's flag comes back; the layer's cells
 * leave the collision grid; hostile masks are refused with their place. */
#include "check.h"
#include "pack_fixture.h"
#include "tessera/pack.h"
#include "tessera/runtime.h"
#include "tessera/store.h"
#include "tlv_reseal.h"

static TessProject *fixture(bool pixels) {
  PackFixtureSpec spec;
  pack_fixture_spec_default(&spec);
  spec.width = 24;
  spec.height = 16;
  spec.pixel_layer = pixels;
  return pack_fixture_project(77, &spec);
}

static uint64_t stepped_hash(const TessScene *s, uint32_t *masks) {
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create_from_scene(s, NULL, &w, NULL, &err), &err);
  if (!w) return 0;
  *masks = tess_world_pixel_mask_count(w);
  for (int i = 0; i < 120; i++) CHECK_OK(tess_world_step(w, 1.0f / 60.0f, &err), &err);
  uint64_t h = tess_world_hash(w);
  tess_world_destroy(w);
  return h;
}

static void pixel_layer_travels_in_the_tlv(void) {
  TessProject *p = fixture(true);
  CHECK(p != NULL);
  if (!p) return;
  const TessLevel *level = p->levels[0];
  TessScene *ed = NULL, *game = NULL;
  TessError err;
  CHECK_OK(tess_scene_from_level(p, level, &ed, &err), &err);
  CHECK(ed && ed->pixel_mask_count == 1);
  const TessScenePixelMask *m = &ed->pixel_masks[0];
  CHECK(m->width == level->settings.width * level->settings.tile_w);
  CHECK(m->height == level->settings.height * level->settings.tile_h);
  CHECK(m->pixel_size == 1.0f / level->settings.ppm);
  uint64_t solid = 0;
  for (uint64_t i = 0; i < ed->pixel_bits_size; i++) solid += (uint64_t)__builtin_popcount(ed->pixel_bits[i]);
  CHECK_MSG(solid > 0, "the pixel layer's tiles gave no solid pixel");

  uint8_t *data = NULL;
  size_t size = 0;
  CHECK_OK(tess_pack_write(p, level, NULL, &data, &size, &err), &err);
  TlvLevel lv;
  TlvError terr;
  CHECK_MSG(tlv_open(data, size, 0, &lv, &terr) == TLV_OK, "byte %llu: %s", (unsigned long long)terr.offset, terr.message);
  CHECK(lv.header.minor == TLV_VERSION_MINOR && lv.pixel_masks.count == 1 && lv.pixel_bits.size == ed->pixel_bits_size);
  CHECK_OK(tess_scene_from_pack(&lv, &game, &err), &err);
  CHECK_MSG(game && tess_scene_equal(ed, game), "the game's scene differs from the editor's");
  uint32_t ma = 0, mb = 0;
  uint64_t ha = stepped_hash(ed, &ma), hb = game ? stepped_hash(game, &mb) : 1;
  CHECK(ma == 1 && mb == 1);
  CHECK_MSG(ha == hb, "editor and game worlds differ after 120 steps");

  /* the layer comes back flagged in a project read from the file */
  TessProject *back = NULL;
  CHECK_OK(tess_project_from_pack(&lv, NULL, &back, &err), &err);
  uint32_t flagged = 0;
  const TessLevel *bl = back ? back->levels[0] : NULL;
  for (uint32_t i = 0; bl && i < bl->layer_count; i++) flagged += bl->layers[i]->props.collide_pixels;
  CHECK(flagged == 1);
  if (back) tess_project_destroy(back);
  tess_scene_destroy(game);
  tess_scene_destroy(ed);
  tess_free(data);
  tess_project_destroy(p);
}

/* The same level without the flag: every cell whose collision the flag changed has a tile of the
 * pixel layer (the top tile layer), and only the flagged level has a mask. */
static void pixel_layer_leaves_the_cell_grid(void) {
  TessProject *a = fixture(true), *b = fixture(false);
  CHECK(a && b);
  if (!a || !b) return;
  const TessLevel *la = a->levels[0], *lb = b->levels[0];
  TessScene *sa = NULL, *sb = NULL;
  TessError err;
  CHECK_OK(tess_scene_from_level(a, la, &sa, &err), &err);
  CHECK_OK(tess_scene_from_level(b, lb, &sb, &err), &err);
  const TessLayer *top = NULL;
  for (uint32_t i = 0; i < la->layer_count; i++)
    if (la->layers[i]->props.collide_pixels) top = la->layers[i];
  CHECK(top != NULL && sb->pixel_mask_count == 0);
  uint32_t changed = 0;
  for (uint32_t y = 0; top && y < la->settings.height; y++)
    for (uint32_t x = 0; x < la->settings.width; x++) {
      size_t i = (size_t)y * la->settings.width + x;
      if (sa->cell_kind[i] == sb->cell_kind[i] && sa->cell_material[i] == sb->cell_material[i]) continue;
      changed++;
      CHECK_MSG(tess_layer_cell(top, x, y) != 0, "cell (%u, %u) changed without a tile of the pixel layer", x, y);
    }
  CHECK_MSG(changed > 0, "the flag changed no cell: the fixture's top layer collides nowhere");
  tess_scene_destroy(sa);
  tess_scene_destroy(sb);
  tess_project_destroy(a);
  tess_project_destroy(b);
}

/* Each hostile edit, resealed, is refused with a message naming the mask. */
static void hostile_pixel_masks_are_refused(void) {
  TessProject *p = fixture(true);
  if (!p) return;
  uint8_t *data = NULL;
  size_t size = 0;
  TessError err;
  CHECK_OK(tess_pack_write(p, p->levels[0], NULL, &data, &size, &err), &err);
  size_t e = tlv_find_entry(data, size, TLV_SEC_PIXEL_MASKS), eb = tlv_find_entry(data, size, TLV_SEC_PIXEL_BITS);
  CHECK(e && eb);
  if (!e || !eb) return;
  size_t rec = (size_t)tlv_get64(data + e + 8), bits = (size_t)tlv_get64(data + eb + 8);
  uint32_t width = tlv_get32(data + rec + 4);
  static const struct {
    const char *what;
    int field; /* byte offset in the record, or -1: a bit past the width, -2: the layer's flag */
    uint32_t value;
    TlvResult want;
  } cases[] = {
      {"width 0", 4, 0, TLV_ERR_LIMIT},
      {"height past the limit", 8, TLV_PIXEL_MASK_MAX_SIDE + 1, TLV_ERR_LIMIT},
      {"material past MATL", 12, 1000, TLV_ERR_INDEX},
      {"pixel size 0", 16, 0, TLV_ERR_VALUE},
      {"pixel size NaN", 16, 0x7fc00000u, TLV_ERR_VALUE},
      {"reserved word", 28, 1, TLV_ERR_VALUE},
      {"bits offset", 32, 16, TLV_ERR_VALUE},
      {"bits size", 40, 3, TLV_ERR_VALUE},
      {"unknown layer", 0, 999999, TLV_ERR_INDEX},
      {"a bit past the width", -1, 0, TLV_ERR_VALUE},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].field == -1 && width % 8 == 0) continue; /* no spare bits to set */
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    if (cases[i].field >= 0)
      tlv_put32(copy + rec + cases[i].field, cases[i].value);
    else
      copy[bits + (width + 7) / 8 - 1] |= 0x80; /* row 0's last byte */
    tlv_reseal(copy, size);
    TlvLevel lv;
    TlvError terr;
    TlvResult r = tlv_open(copy, size, 0, &lv, &terr);
    CHECK_MSG(r == cases[i].want, "%s: result %d, want %d (%s)", cases[i].what, (int)r, (int)cases[i].want,
              r == TLV_OK ? "accepted" : terr.message);
    CHECK_MSG(r == TLV_OK || strstr(terr.message, "pixel") != NULL, "%s: message '%s' does not name the mask",
              cases[i].what, terr.message);
    free(copy);
  }
  tess_free(data);
  tess_project_destroy(p);
}

/* The flag is stored (schema 5): a real project file keeps it through a save and a load. */
static void pixel_layer_is_stored(void) {
  TessProject *p = fixture(true);
  if (!p) return;
  char path[512];
  tess_test_path(path, sizeof path, "pixels.tessera");
  TessStore *st = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_CREATE, &st, &err), &err);
  if (st) {
    CHECK_OK(tess_store_save_all(st, p, &err), &err);
    tess_store_close(st);
  }
  st = NULL;
  TessProject *q = NULL;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_ONLY, &st, &err), &err);
  if (st) {
    CHECK_OK(tess_store_load(st, &q, &err), &err);
    tess_store_close(st);
  }
  CHECK(q && tess_project_hash(q) == tess_project_hash(p));
  uint32_t flagged = 0;
  for (uint32_t i = 0; q && q->level_count && i < q->levels[0]->layer_count; i++) flagged += q->levels[0]->layers[i]->props.collide_pixels;
  CHECK(flagged == 1);
  if (q) tess_project_destroy(q);
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(pixel_layer_travels_in_the_tlv), TEST(pixel_layer_is_stored), TEST(pixel_layer_leaves_the_cell_grid),
               TEST(hostile_pixel_masks_are_refused))
