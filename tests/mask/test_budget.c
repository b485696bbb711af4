/* core/mask's work budget (TESS_MASK_RUN_BUDGET): adversarial images
 * (checkerboards, noise, 1-px stripes, plates with thousands of holes)
 * trace in every mode into valid convex pieces that cover every opaque
 * pixel and stay inside the exact hull, the result says when it was
 * simplified, and the working memory, read from the allocator's live byte
 * count (its high-water mark), stays under a bound derived from the budget.
 * No timing is asserted: memory is the deterministic witness of the work. */
#include "check.h"
#include "tessera/geom.h"
#include "tessera/image.h"
#include "tessera/level.h" /* sprite masks and tiles store what mask traces */
#include "tessera/mask.h"

typedef uint8_t (*AlphaFn)(uint32_t x, uint32_t y, uint32_t w, uint32_t h);

static TessImage make(uint32_t w, uint32_t h, AlphaFn alpha) {
  TessImage img;
  TessError err;
  memset(&img, 0, sizeof img);
  CHECK_OK(tess_image_create(w, h, &img, &err), &err);
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) img.pixels[(size_t)y * img.stride + (size_t)x * 4 + 3] = alpha(x, y, w, h);
  return img;
}

static uint8_t checker(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  (void)w, (void)h;
  return ((x ^ y) & 1) ? 0 : 255;
}
static uint8_t checker4(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  (void)w, (void)h;
  return (((x >> 2) ^ (y >> 2)) & 1) ? 0 : 255;
}
static uint8_t noise(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  (void)h;
  uint64_t s = ((uint64_t)y * w + x + 1) * 0x9E3779B97F4A7C15ull;
  s ^= s >> 29;
  s *= 0xBF58476D1CE4E5B9ull;
  s ^= s >> 32;
  return (s >> 40) & 1 ? 255 : 0; /* about half the pixels opaque, at random */
}
static uint8_t vstripes(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  (void)y, (void)w, (void)h;
  return (x & 1) ? 0 : 255;
}
static uint8_t hstripes(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  (void)x, (void)w, (void)h;
  return (y & 1) ? 0 : 255;
}
/* A plate with a 1 x 1 hole every 4 px: (w / 4)^2 holes. */
static uint8_t dense_plate(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  (void)w, (void)h;
  return (x % 4 == 1 && y % 4 == 1) ? 0 : 255;
}
/* The benchmark's plate: a 3 x 3 hole every 16 px, a 16 px rim (3844 holes at 1024). */
static uint8_t plate16(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  return x >= 16 && y >= 16 && x < w - 16 && y < h - 16 && x % 16 < 3 && y % 16 < 3 ? 0 : 255;
}
static uint8_t disc(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  double dx = x + 0.5 - w / 2.0, dy = y + 0.5 - h / 2.0, r = w * 0.4;
  return dx * dx + dy * dy <= r * r ? 255 : 0;
}

/* The working-memory bound a call must keep, from the budget: one byte per
 * pixel and border (the outline's grid, or the 2 x 2 blocks' quarter of
 * that), two row extents per row, and per traced run at most 1 KiB (the
 * worst measured is ~600 bytes: a checkerboard of single-pixel islands,
 * each a loop, a piece and its bookkeeping), plus 1 MiB of small change. */
static int64_t budget_bound(uint32_t w, uint32_t h, uint32_t budget) {
  return (int64_t)(w + 2) * (h + 2) + 16 * (int64_t)h + 1024 * (int64_t)budget + (1 << 20);
}

/* Each piece's pixel-centre rows marked in `hit` (one byte per pixel): a
 * convex piece holds the centres between its left and right chain at y + 0.5. */
static void mark_centres(const TessDVec2 *v, uint32_t n, uint32_t w, uint32_t h, uint8_t *hit) {
  double y0 = INFINITY, y1 = -INFINITY;
  for (uint32_t k = 0; k < n; k++) y0 = fmin(y0, v[k].y), y1 = fmax(y1, v[k].y);
  for (int64_t y = (int64_t)floor(y0 - 0.5); y <= (int64_t)ceil(y1); y++) {
    if (y < 0 || y >= (int64_t)h) continue;
    double yc = y + 0.5, xl = INFINITY, xr = -INFINITY;
    for (uint32_t k = 0; k < n; k++) {
      TessDVec2 a = v[k], b = v[(k + 1) % n];
      if ((a.y - yc) * (b.y - yc) > 0 || a.y == b.y) {
        if (a.y == yc) xl = fmin(xl, a.x), xr = fmax(xr, a.x);
        continue;
      }
      double x = a.x + (b.x - a.x) * (yc - a.y) / (b.y - a.y);
      xl = fmin(xl, x), xr = fmax(xr, x);
    }
    for (int64_t x = (int64_t)ceil(xl - 0.5 - 1e-9); x + 0.5 <= xr + 1e-9; x++)
      if (x >= 0 && x < (int64_t)w) hit[(size_t)y * w + (size_t)x] = 1;
  }
}

/* Worst distance of a piece vertex outside the convex counter-clockwise hull. */
static double outside_hull(const TessMaskHull *hull, const TessDVec2 *v, uint32_t n) {
  double worst = 0;
  for (uint32_t i = 0; i < hull->count; i++) {
    TessDVec2 a = hull->v[i], b = hull->v[(i + 1) % hull->count], e = tess_d2_sub(b, a);
    double len = sqrt(tess_d2_dot(e, e));
    for (uint32_t k = 0; k < n; k++) worst = fmax(worst, -tess_d2_orient(a, b, v[k]) / len);
  }
  return worst;
}

/* Traces `img` in pieces mode within `budget` and checks everything the
 * budget promises. Returns the block side (1: not simplified). */
static uint32_t check_traced(const char *what, const TessImage *img, uint32_t budget, uint32_t max_vertices) {
  TessImageView v = tess_image_view(img);
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  s.mode = TESS_MASK_PIECES;
  s.max_vertices = max_vertices;
  s.run_budget = budget;
  TessError err;
  TessMaskPieces p;
  memset(&p, 0, sizeof p);
  int64_t before = tess_alloc_live_bytes();
  tess_alloc_peak_reset();
  CHECK_OK(tess_mask_pieces(v, &s, &p, &err), &err);
  int64_t peak = tess_alloc_peak_bytes() - before;
  int64_t bound = budget_bound(img->width, img->height, budget);
  CHECK_MSG(peak <= bound, "%s: peak %.1f MiB over the bound %.1f MiB", what, peak / 1048576.0, bound / 1048576.0);
  fprintf(stderr, "%s %ux%u: %llu runs, block %u, %u pieces, peak %.1f MiB (bound %.1f MiB)\n", what, img->width,
          img->height, (unsigned long long)p.runs, p.block, p.count, peak / 1048576.0, bound / 1048576.0);
  /* Over the budget exactly when the image has more runs than the budget. */
  CHECK_MSG((p.block > 1) == (p.runs > budget), "%s: %llu runs, budget %u, block %u", what,
            (unsigned long long)p.runs, budget, p.block);
  CHECK(p.block >= 1 && (p.block & (p.block - 1)) == 0);
  /* The pieces: convex, counter-clockwise, <= N vertices; at most 2 per traced run (a run has 4 corners). */
  CHECK_MSG(p.count <= 2ull * budget, "%s: %u pieces for a budget of %u runs", what, p.count, budget);
  TessMaskHull hull;
  CHECK_OK(tess_mask_hull(v, s.threshold, &hull, &err), &err);
  double worst = 0, area = 0;
  for (uint32_t k = 0; k < p.count; k++) {
    const TessDVec2 *pv = p.v + p.start[k];
    uint32_t m = p.start[k + 1] - p.start[k];
    CHECK_MSG(m >= 3 && m <= max_vertices && tess_poly_is_convex(pv, m, 1e-9), "%s: piece %u of %u vertices", what, k,
              m);
    worst = fmax(worst, outside_hull(&hull, pv, m));
    area += tess_poly_mass(pv, m).area;
  }
  CHECK_MSG(worst <= 1e-6, "%s: a piece vertex %.3g px outside the exact hull", what, worst);
  CHECK_NEAR(p.shape.area, area, 1e-9 * area);
  /* Every opaque pixel's centre inside a piece (counted apart from the coverage arithmetic). */
  uint8_t *hit = tess_calloc((size_t)img->width * img->height, 1);
  for (uint32_t k = 0; k < p.count; k++)
    mark_centres(p.v + p.start[k], p.start[k + 1] - p.start[k], img->width, img->height, hit);
  uint64_t miss = 0, opaque = 0;
  for (uint32_t y = 0; y < img->height; y++)
    for (uint32_t x = 0; x < img->width; x++) {
      bool on = img->pixels[(size_t)y * img->stride + (size_t)x * 4 + 3] >= s.threshold;
      opaque += on;
      miss += on && !hit[(size_t)y * img->width + x];
    }
  tess_free(hit);
  if (p.block > 1) CHECK_MSG(miss == 0, "%s: %llu opaque pixel centres outside every piece", what, (unsigned long long)miss);
  else CHECK_MSG(miss <= 0.01 * opaque, "%s: %llu opaque pixel centres uncovered", what, (unsigned long long)miss);
  /* The pixels' mass stays exact whatever the budget did: direct sums,
   * pixel by pixel, in exact integers (the scan sums by run or by chunk). */
  unsigned __int128 sx = 0, sy = 0, sxx = 0, syy = 0;
  for (uint32_t y = 0; y < img->height; y++)
    for (uint32_t x = 0; x < img->width; x++)
      if (img->pixels[(size_t)y * img->stride + (size_t)x * 4 + 3] >= s.threshold)
        sx += x, sy += y, sxx += (uint64_t)x * x, syy += (uint64_t)y * y;
  double n = (double)opaque, cx = (double)sx / n + 0.5, cy = (double)sy / n + 0.5;
  double spread = ((double)(sxx * opaque - sx * sx) + (double)(syy * opaque - sy * sy)) / n;
  CHECK(p.pixels.area == n && hull.pixels.area == n);
  CHECK_MSG(fabs(p.pixels.cx - cx) <= 1e-12 * cx && fabs(p.pixels.cy - cy) <= 1e-12 * cy, "%s: centroid", what);
  CHECK_MSG(fabs(hull.pixels.cx - cx) <= 1e-12 * cx && fabs(hull.pixels.cy - cy) <= 1e-12 * cy, "%s: centroid", what);
  CHECK_REL(p.pixels.inertia, spread + n / 6.0, 1e-12);
  CHECK_REL(hull.pixels.inertia, spread + n / 6.0, 1e-12);
  CHECK(p.uncovered_area >= 0 && p.added_area >= 0);
  /* On blocks, uncovered_area is the blocks' (an upper bound; the coverage
   * arithmetic counts corners where islands of one block touch). */
  CHECK_MSG(p.uncovered_area <= 0.01 * p.pixels.area, "%s: uncovered %g", what, p.uncovered_area);
  uint32_t block = p.block;
  tess_mask_hull_clear(&hull);
  tess_mask_pieces_clear(&p);
  return block;
}

/* The case: 8.4 million single-pixel islands, at the default budget. */
static void checkerboard_4096_within_the_budget(void) {
  TessImage img = make(4096, 4096, checker);
  CHECK(check_traced("checkerboard", &img, TESS_MASK_RUN_BUDGET, 8) == 2);
  /* 2 x 2 blocks of a checkerboard are all opaque: one piece, the exact hull. */
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  TessMaskPieces p;
  TessError err;
  CHECK_OK(tess_mask_pieces(tess_image_view(&img), &s, &p, &err), &err);
  CHECK(p.runs == 4096ull * 2048 && p.block == 2 && p.count == 1 && p.island_count == 1);
  CHECK(p.pixels.area == 4096.0 * 2048);
  tess_mask_pieces_clear(&p);
  tess_image_clear(&img);
}

static void adversarial_images_within_the_budget(void) {
  const struct {
    const char *name;
    AlphaFn fn;
  } cases[] = {{"noise", noise}, {"1-px vertical stripes", vstripes}, {"1-px horizontal stripes", hstripes}, {"plate, 262144 holes", dense_plate}, {"4 px checkerboard", checker4}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TessImage img = make(2048, 2048, cases[i].fn);
    uint32_t block = check_traced(cases[i].name, &img, TESS_MASK_RUN_BUDGET, 8);
    /* Each has more runs than the budget (horizontal stripes: 1024, one per opaque row, under it). */
    if (cases[i].fn == hstripes) CHECK(block == 1);
    else CHECK_MSG(block > 1, "%s: block %u", cases[i].name, block);
    tess_image_clear(&img);
  }
  /* Sides that are not a multiple of 16 (the scan's last pixels one at a time). */
  TessImage odd = make(1029, 1031, noise);
  CHECK(check_traced("noise 1029x1031", &odd, TESS_MASK_RUN_BUDGET, 8) == 2);
  CHECK(check_traced("noise 1029x1031, budget 2^20", &odd, 1u << 20, 5) == 1);
  tess_image_clear(&odd);
}

/* Under the budget nothing changes: the 1024 x 1024 plate with 3844 holes
 * keeps its exact decomposition (as with a budget far above its runs). */
static void plate_with_thousands_of_holes_is_not_simplified(void) {
  TessImage img = make(1024, 1024, plate16);
  CHECK(check_traced("plate, 3844 holes", &img, TESS_MASK_RUN_BUDGET, 8) == 1);
  TessMaskSettings a, b;
  tess_mask_settings_default(&a);
  tess_mask_settings_default(&b);
  b.run_budget = UINT32_MAX;
  TessMaskPieces pa, pb;
  TessError err;
  CHECK_OK(tess_mask_pieces(tess_image_view(&img), &a, &pa, &err), &err);
  CHECK_OK(tess_mask_pieces(tess_image_view(&img), &b, &pb, &err), &err);
  /* Rows with holes: 62 x 3 of 63 runs, the other 838 rows one each. */
  CHECK(pa.runs == 62 * 3 * 63 + (1024 - 186) && pa.block == 1);
  CHECK(pa.count == pb.count && pa.start[pa.count] == pb.start[pb.count]);
  CHECK(memcmp(pa.v, pb.v, sizeof *pa.v * pa.start[pa.count]) == 0);
  tess_mask_pieces_clear(&pa);
  tess_mask_pieces_clear(&pb);
  tess_image_clear(&img);
}

/* A large sprite of simple shape (within the budget): the memory is the
 * outline's grid, one byte per pixel, plus what its few runs need. */
static void large_simple_sprite_takes_a_byte_per_pixel(void) {
  TessImage img = make(4096, 4096, disc);
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  TessMaskPieces p;
  TessError err;
  int64_t before = tess_alloc_live_bytes();
  tess_alloc_peak_reset();
  CHECK_OK(tess_mask_pieces(tess_image_view(&img), &s, &p, &err), &err);
  int64_t peak = tess_alloc_peak_bytes() - before;
  int64_t bound = (int64_t)4098 * 4098 + 16 * 4096 + 1024 * (int64_t)p.runs + (1 << 20);
  CHECK_MSG(p.block == 1 && peak <= bound, "block %u, peak %.1f MiB, bound %.1f MiB", p.block, peak / 1048576.0,
            bound / 1048576.0);
  tess_mask_pieces_clear(&p);
  tess_image_clear(&img);
}

/* Memory follows the budget: a checkerboard of 4 px squares whose 2 x 2
 * blocks have exactly `budget` runs (the most a traced grid can have),
 * traced at a small budget within that budget's bound. */
static void memory_follows_the_budget(void) {
  TessImage img = make(256, 256, checker4);
  /* 256 rows x 32 runs = 8192 > 4096; blocks of 2: 128 rows x 32 runs = 4096. */
  CHECK(check_traced("4 px checkerboard at budget 4096", &img, 4096, 8) == 2);
  CHECK(check_traced("4 px checkerboard at budget 4095", &img, 4095, 8) == 4);
  CHECK(check_traced("4 px checkerboard, N 3", &img, 4096, 3) == 2);
  tess_image_clear(&img);
}

/* Every mode through the editor's one call, on the 4096 x 4096 checkerboard:
 * the hull modes need only the scan (a few bytes per row), pieces are
 * simplified and the report says so. */
static void every_mode_reports_the_budget(void) {
  TessImage img = make(4096, 4096, checker);
  for (int mode = TESS_MASK_HULL; mode <= TESS_MASK_BOX; mode++) {
    TessSpriteMask m;
    memset(&m, 0, sizeof m);
    m.threshold = 1;
    m.mode = (uint8_t)mode;
    m.max_vertices = 8;
    m.tolerance = 1;
    TessMaskTraceReport rep;
    TessError err;
    int64_t before = tess_alloc_live_bytes();
    tess_alloc_peak_reset();
    CHECK_OK(tess_sprite_mask_trace_report(tess_image_view(&img), &m, &rep, &err), &err);
    int64_t peak = tess_alloc_peak_bytes() - before;
    if (mode == TESS_MASK_PIECES) {
      CHECK(rep.simplified && rep.block == 2 && rep.runs == 4096ull * 2048);
      CHECK(m.piece_count == 1 && m.uncovered_area == 0); /* one block island: all covered */
      CHECK(peak <= budget_bound(4096, 4096, TESS_MASK_RUN_BUDGET));
    } else {
      CHECK_MSG(!rep.simplified && rep.block == 1, "mode %d", mode);
      /* Per row: two extents (8 bytes) and up to two hull candidates, kept
       * twice (64 bytes), and their float copy; nothing per pixel or run. */
      CHECK_MSG(peak <= 160 * 4096 + (1 << 16), "mode %d: peak %lld bytes", mode, (long long)peak);
    }
    CHECK(m.area == 4096.0 * 2048 && m.hull_count == 6);
    tess_free(m.hull);
    tess_free(m.pieces);
  }
  /* The outline: loops of blocks, in pixels. */
  TessMaskOutline o;
  TessError err;
  tess_alloc_peak_reset();
  int64_t before = tess_alloc_live_bytes();
  CHECK_OK(tess_mask_outline(tess_image_view(&img), 1, 0.0, &o, &err), &err);
  CHECK(tess_alloc_peak_bytes() - before <= budget_bound(4096, 4096, TESS_MASK_RUN_BUDGET));
  CHECK(o.block == 2 && o.loop_count == 1);
  CHECK(o.start[1] == 4 && tess_poly_signed_area(o.v, 4) == 4096.0 * 4096);
  tess_mask_outline_clear(&o);
  tess_image_clear(&img);
}

/* Tilesets share one budget: tiles with the most runs get their simplified
 * hull; the others keep exactly the pieces they get when traced alone. */
static uint8_t tiles_alpha(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
  (void)w, (void)h;
  uint32_t t = (y / 32) * 8 + x / 32;
  if (t % 2) return checker(x, y, 0, 0);
  return disc(x % 32, y % 32, 32, 32);
}

static void tileset_shares_the_budget(void) {
  TessImage img = make(256, 256, tiles_alpha);
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  s.run_budget = 4096; /* 32 discs of 26 runs fit; 32 checkerboards of 512 do not */
  TessTileInfo tiles[64];
  memset(tiles, 0, sizeof tiles);
  uint32_t simplified = 99;
  TessError err;
  CHECK_OK(tess_mask_trace_tiles_report(tess_image_view(&img), 32, 32, 0, 0, &s, tiles, 64, &simplified, &err), &err);
  CHECK(simplified == 32);
  for (uint32_t t = 0; t < 64; t++) {
    CHECK(tiles[t].collision == TESS_TILE_COLLISION_TRACED);
    TessImageView tv = {32, 32, img.stride, img.pixels + (size_t)(t / 8) * 32 * img.stride + (size_t)(t % 8) * 32 * 4};
    if (t % 2) {
      /* One piece, inside the tile, holding every opaque pixel's centre. */
      CHECK(tiles[t].piece_count == 1);
      const TessPolygon *pg = &tiles[t].pieces[0];
      TessDVec2 pv[TESS_POLY_MAX];
      for (uint32_t k = 0; k < pg->count; k++) pv[k] = tess_d2(pg->v[k].x, pg->v[k].y);
      CHECK(pg->count <= 8 && tess_poly_is_convex(pv, pg->count, 1e-6));
      for (uint32_t k = 0; k < pg->count; k++) CHECK(pv[k].x >= 0 && pv[k].x <= 32 && pv[k].y >= 0 && pv[k].y <= 32);
      for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 32; x++)
          if (tv.pixels[(size_t)y * tv.stride + (size_t)x * 4 + 3]) CHECK(tess_convex_contains(pv, pg->count, tess_d2(x + 0.5, y + 0.5), 1e-5));
    } else {
      TessTileInfo alone;
      memset(&alone, 0, sizeof alone);
      TessMaskSettings d;
      tess_mask_settings_default(&d);
      CHECK_OK(tess_mask_trace_tiles(tv, 32, 32, 0, 0, &d, &alone, 1, &err), &err);
      CHECK(alone.piece_count == tiles[t].piece_count);
      CHECK(memcmp(alone.pieces, tiles[t].pieces, sizeof *alone.pieces * alone.piece_count) == 0);
      tess_free(alone.pieces);
    }
  }
  /* At the default budget nothing is simplified. */
  CHECK_OK(tess_mask_trace_tiles_report(tess_image_view(&img), 32, 32, 0, 0, &(TessMaskSettings){.threshold = 1, .mode = TESS_MASK_PIECES, .max_vertices = 8, .tolerance = 1.0}, tiles, 64, &simplified, &err), &err);
  CHECK(simplified == 0);
  for (uint32_t t = 0; t < 64; t++) tess_free(tiles[t].pieces);
  tess_image_clear(&img);
}

TESS_TEST_MAIN(TEST(checkerboard_4096_within_the_budget), TEST(adversarial_images_within_the_budget),
               TEST(plate_with_thousands_of_holes_is_not_simplified), TEST(memory_follows_the_budget), TEST(large_simple_sprite_takes_a_byte_per_pixel),
               TEST(every_mode_reports_the_budget), TEST(tileset_shares_the_budget))
