/* libFuzzer target: the project's image path on arbitrary bytes.
 *
 * 1. PNG import (tess_png_decode and tess_png_info). Must never crash, leak
 *    or print; an accepted image has the size its header claims and is
 *    within the limits.
 * 2. What an accepted image goes on to: core/mask traces it (hull, pieces
 *    within a small run budget, so the budget's block path runs too) and
 *    the results keep their invariants.
 * 3. The same bytes as the PNG embedded in a .tlv (TLV_FLAG_IMAGES): a
 *    small project's tilesets and sprites are given them, the level is
 *    packed with embedded images, opened by the reader, turned back into a
 *    project (tess_project_from_pack) and a scene, and drawn (core/render
 *    decodes the embedded PNGs): what `tessera-pipeline render FILE.tlv`
 *    and a game do with an exported file.
 *
 * Chunk CRCs are recomputed before anything reads the bytes (a private
 * copy): libpng rejects a chunk whose CRC does not match, so without this
 * nearly every mutation stops at the first chunk and the decoder behind it
 * is never reached (~170 edges). Only the harness fixes them; the product
 * still checks every CRC. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "tessera/image.h"
#include "tessera/mask.h"
#ifdef FUZZ_PNG_TLV
#include "pack_fixture.h"
#include "tessera/pack.h"
#include "tessera/render.h"
#include "tessera/scene.h"
#include "tlv_reader.h"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Every whole chunk after the signature gets the CRC of its type and data. */
static void fix_crcs(uint8_t *d, size_t n) {
  static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  if (n < 8 || memcmp(d, sig, 8) != 0) return;
  size_t p = 8;
  while (n - p >= 12) {
    uint32_t len = be32(d + p);
    if (len > n - p - 12) break;
    uLong crc = crc32(0L, d + p + 4, (uInt)len + 4);
    d[p + 8 + len] = (uint8_t)(crc >> 24);
    d[p + 9 + len] = (uint8_t)(crc >> 16);
    d[p + 10 + len] = (uint8_t)(crc >> 8);
    d[p + 11 + len] = (uint8_t)crc;
    p += 12 + (size_t)len;
  }
}

/* core/mask on what was decoded: every piece convex and of <= N vertices,
 * the pixel mass the same through both calls. */
static void trace(const TessImage *img) {
  if ((uint64_t)img->width * img->height > (1u << 20)) return; /* the decode was the point; keep runs fast */
  TessImageView v = tess_image_view(img);
  TessMaskHull hull;
  TessError err;
  if (tess_mask_hull(v, 128, &hull, &err) != TESS_OK) {
    if (err.code != TESS_ERR_EMPTY) abort();
    return;
  }
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  s.threshold = 128;
  s.max_vertices = 6;
  s.run_budget = 64; /* small, so images past it take the blocks' path */
  TessMaskPieces p;
  if (tess_mask_pieces(v, &s, &p, &err) != TESS_OK) abort();
  if (p.pixels.area != hull.pixels.area || p.block < 1 || (p.block > 1) != (p.runs > s.run_budget)) abort();
  for (uint32_t k = 0; k < p.count; k++) {
    uint32_t m = p.start[k + 1] - p.start[k];
    if (m < 3 || m > s.max_vertices || !tess_poly_is_convex(p.v + p.start[k], m, 1e-6)) abort();
  }
  tess_mask_pieces_clear(&p);
  tess_mask_hull_clear(&hull);
}

#ifdef FUZZ_PNG_TLV
/* The pack fixture's project (two tilesets, two sprites, bodies using them),
 * made once; each input lends it its bytes and takes them back. */
static TessProject *fixture(void) {
  static TessProject *p;
  if (!p) {
    PackFixtureSpec spec;
    pack_fixture_spec_default(&spec);
    spec.width = 6;
    spec.height = 4;
    spec.bodies = 4;
    spec.joints = 1;
    p = pack_fixture_project(7, &spec);
    if (!p) abort();
  }
  return p;
}

/* An image is lent where its header agrees with the size the project
 * declares, or where it has no readable header (a project whose declared
 * size differs from its image's is issue 11's item 1, checked where images
 * enter, not here). */
static bool lend(uint32_t declared_w, uint32_t declared_h, TessResult info, uint32_t w, uint32_t h) {
  return info != TESS_OK || (w == declared_w && h == declared_h);
}

static void embedded(uint8_t *png, size_t size, TessResult info, uint32_t w, uint32_t h) {
  TessProject *p = fixture();
  int64_t base = tess_alloc_live_bytes();
  for (uint32_t i = 0; i < p->tileset_count; i++)
    if (lend(p->tilesets[i]->image_w, p->tilesets[i]->image_h, info, w, h)) {
      p->tilesets[i]->png = png;
      p->tilesets[i]->png_size = size;
    }
  for (uint32_t i = 0; i < p->sprite_count; i++)
    if (lend(p->sprites[i]->image_w, p->sprites[i]->image_h, info, w, h)) {
      p->sprites[i]->png = png;
      p->sprites[i]->png_size = size;
    }
  TessPackOptions opt;
  tess_pack_options_default(&opt);
  opt.embed_images = true;
  uint8_t *tlv = NULL;
  size_t tlv_size = 0;
  TessError err;
  TessResult r = tess_pack_write(p, p->levels[0], &opt, &tlv, &tlv_size, &err);
  for (uint32_t i = 0; i < p->tileset_count; i++)
    if (p->tilesets[i]->png == png) p->tilesets[i]->png = NULL, p->tilesets[i]->png_size = 0;
  for (uint32_t i = 0; i < p->sprite_count; i++)
    if (p->sprites[i]->png == png) p->sprites[i]->png = NULL, p->sprites[i]->png_size = 0;
  if (r != TESS_OK) abort(); /* the writer copies the bytes; it never judges them */
  TlvLevel lv;
  TlvError terr;
  if (tlv_open(tlv, tlv_size, 0, &lv, &terr) != TLV_OK) abort(); /* our own file, whatever image it holds */
  TessProject *back = NULL;
  if (tess_project_from_pack(&lv, NULL, &back, &err) == TESS_OK) {
    TessRenderOptions ro;
    tess_render_options_default(&ro);
    cairo_surface_t *surface = NULL;
    /* A tileset whose image does not decode is drawn as a placeholder and
     * reported (TESS_ERR_FORMAT), with the surface made all the same. */
    TessResult rr = tess_render_level_to_surface(back, back->levels[0], 1.0, &ro, &surface, &err);
    if (surface) cairo_surface_destroy(surface);
    if (rr != TESS_OK && rr != TESS_ERR_FORMAT && rr != TESS_ERR_LIMIT && rr != TESS_ERR_NOMEM) abort();
    tess_project_destroy(back);
  }
  TessScene *scene = NULL;
  if (tess_scene_from_pack(&lv, &scene, &err) == TESS_OK) tess_scene_destroy(scene);
  tess_free(tlv);
  if (tess_alloc_live_bytes() != base) abort();
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
#ifdef FUZZ_PNG_TLV
  fixture(); /* made before the leak baseline */
#endif
  int64_t base = tess_alloc_live_bytes();
  /* A private copy of exactly `size` bytes (ASan sees any overread), CRCs fixed. */
  uint8_t *png = malloc(size ? size : 1);
  if (!png) return 0;
  if (size) memcpy(png, data, size);
  fix_crcs(png, size);
  TessError err;
  uint32_t w = 0, h = 0;
  TessResult info = tess_png_info(png, size, "fuzz.png", &w, &h, &err);
  TessImage img = {0};
  TessResult r = tess_png_decode(png, size, "fuzz.png", &img, &err);
  if (r == TESS_OK) {
    /* A decodable file has a readable header giving the same size. */
    if (info != TESS_OK || img.width != w || img.height != h) abort();
    if (img.width == 0 || img.height == 0 || img.width > TESS_IMAGE_MAX_SIDE || img.height > TESS_IMAGE_MAX_SIDE)
      abort();
    /* Touch every byte, so a short buffer shows up under ASan. */
    volatile uint8_t sink = 0;
    for (uint32_t y = 0; y < img.height; y++)
      for (size_t x = 0; x < (size_t)img.width * 4; x++) sink ^= img.pixels[(size_t)y * img.stride + x];
    (void)sink;
    trace(&img);
    tess_image_clear(&img);
  } else if (img.pixels != NULL) {
    abort(); /* outputs are written only on success */
  }
  if (tess_alloc_live_bytes() != base) abort(); /* nothing of a partial decode left behind */
#ifdef FUZZ_PNG_TLV
  if ((uint64_t)w * h <= (1u << 20) || info != TESS_OK) embedded(png, size, info, w, h);
#endif
  free(png);
  return 0;
}
