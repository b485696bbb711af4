/* Mask tracing benchmark: Tessera's chain side by side with the physical
 * limit (a plain scalar loop summing the same alpha bytes, compiled the
 * same way) and with Chipmunk2D's autogeometry chain (cpMarchSoft over the
 * alpha, all loops, cpConvexHull, cpMomentForPoly) on the same images.
 * Prints figures; asserts nothing about time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/level.h" /* sprite masks and tiles store what mask traces */
#include "tessera/mask.h"

#ifdef TESS_HAVE_CHIPMUNK
#include <chipmunk/chipmunk.h>
#include <chipmunk/cpMarch.h>
#include <chipmunk/cpPolyline.h>
#endif

typedef struct Img {
  const char *name;
  uint32_t w, h;
  size_t stride;
  uint8_t *px;
} Img;

static TessImageView view(const Img *im) {
  TessImageView v = {im->w, im->h, im->stride, im->px};
  return v;
}

static Img make(const char *name, uint32_t w, uint32_t h) {
  Img im = {name, w, h, (size_t)w * 4, NULL};
  im.px = calloc((size_t)h, im.stride);
  if (!im.px) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return im;
}

static void set_alpha(Img *im, uint32_t x, uint32_t y, uint8_t a) {
  uint8_t *p = im->px + (size_t)y * im->stride + (size_t)x * 4;
  p[0] = (uint8_t)(x ^ y);
  p[1] = 80;
  p[2] = 160;
  p[3] = a;
}

/* A blob: radius modulated by a few harmonics, a soft alpha edge, and a
 * handful of holes. */
static Img make_blob(uint32_t size) {
  Img im = make("irregular blob", size, size);
  double c = size / 2.0, R = size * 0.38;
  for (uint32_t y = 0; y < size; y++)
    for (uint32_t x = 0; x < size; x++) {
      double dx = x + 0.5 - c, dy = y + 0.5 - c, t = atan2(dy, dx), d = sqrt(dx * dx + dy * dy);
      double r = R * (1 + 0.18 * sin(3 * t) + 0.07 * sin(7 * t + 1) + 0.03 * sin(17 * t + 2));
      double a = (r - d) * 0.5 + 0.5; /* two-pixel soft edge */
      for (int k = 0; k < 5; k++) {
        double hx = c + R * 0.5 * cos(k * 1.3), hy = c + R * 0.5 * sin(k * 1.3), hr = size * 0.02 * (1 + k % 3);
        double hd = sqrt((x + 0.5 - hx) * (x + 0.5 - hx) + (y + 0.5 - hy) * (y + 0.5 - hy));
        if (hd < hr) a = 0;
      }
      set_alpha(&im, x, y, a <= 0 ? 0 : a >= 1 ? 255
                                               : (uint8_t)(a * 255));
    }
  return im;
}

static Img make_ellipse(uint32_t size) {
  Img im = make("ellipse", size, size);
  double c = size / 2.0, a = size * 0.46, b = size * 0.3;
  for (uint32_t y = 0; y < size; y++)
    for (uint32_t x = 0; x < size; x++) {
      double u = (x + 0.5 - c) / a, v = (y + 0.5 - c) / b;
      set_alpha(&im, x, y, u * u + v * v <= 1 ? 255 : 0);
    }
  return im;
}

static Img make_holes(uint32_t size) {
  Img im = make("sprite with holes", size, size);
  double c = size / 2.0, R = size * 0.45;
  for (uint32_t y = 0; y < size; y++)
    for (uint32_t x = 0; x < size; x++) {
      double dx = x + 0.5 - c, dy = y + 0.5 - c;
      bool on = dx * dx + dy * dy <= R * R;
      for (int k = 0; k < 6 && on; k++) {
        double hx = c + R * 0.55 * cos(k * M_PI / 3), hy = c + R * 0.55 * sin(k * M_PI / 3);
        if ((x + 0.5 - hx) * (x + 0.5 - hx) + (y + 0.5 - hy) * (y + 0.5 - hy) < (R * 0.18) * (R * 0.18)) on = false;
      }
      if (dx * dx + dy * dy < (R * 0.2) * (R * 0.2)) on = false;
      set_alpha(&im, x, y, on ? 255 : 0);
    }
  return im;
}

/* 1024 x 1024 of 32 x 32 tiles: empty, full, slopes, rounded corners, discs, bumps. */
static Img make_tileset(uint32_t size, uint32_t tile) {
  Img im = make("tileset", size, size);
  for (uint32_t y = 0; y < size; y++)
    for (uint32_t x = 0; x < size; x++) {
      uint32_t t = (y / tile) * (size / tile) + x / tile, kind = (t * 2654435761u >> 7) % 6;
      double u = (x % tile) + 0.5, v = (y % tile) + 0.5, T = tile;
      bool on = false;
      switch (kind) {
        case 0: on = false; break;
        case 1: on = true; break;
        case 2: on = v > T - u * (0.5 + (t % 3) * 0.25); break;
        case 3: on = !(u > T - 8 && v < 8 && (u - (T - 8)) * (u - (T - 8)) + (v - 8) * (v - 8) > 64); break;
        case 4: on = (u - T / 2) * (u - T / 2) + (v - T / 2) * (v - T / 2) <= (T / 2 - 2) * (T / 2 - 2); break;
        case 5: on = v > T / 2 + 6 * sin(u * 0.4 + t); break;
      }
      set_alpha(&im, x, y, on ? 255 : 0);
    }
  return im;
}

/* ---- the limit: a plain scalar loop over the alpha bytes ------------------ */

static volatile uint64_t sink;

static void plain_scan(const Img *im) {
  uint64_t sum = 0;
  for (uint32_t y = 0; y < im->h; y++) {
    const uint8_t *a = im->px + (size_t)y * im->stride + 3;
    for (uint32_t x = 0; x < im->w; x++) sum += a[(size_t)x * 4];
  }
  sink = sum;
}

/* The same sum with SSE2 (alpha bytes masked, summed with psadbw): the
 * memory-bound limit for any pass that must read every pixel. */
#if defined(__SSE2__)
#include <emmintrin.h>
static void simd_scan(const Img *im) {
  const __m128i mask = _mm_set1_epi32((int)0xFF000000u);
  __m128i acc = _mm_setzero_si128();
  uint64_t sum = 0;
  for (uint32_t y = 0; y < im->h; y++) {
    const uint8_t *row = im->px + (size_t)y * im->stride;
    uint32_t x = 0;
    for (; x + 4 <= im->w; x += 4) {
      __m128i v = _mm_and_si128(_mm_loadu_si128((const __m128i *)(row + (size_t)x * 4)), mask);
      acc = _mm_add_epi64(acc, _mm_sad_epu8(v, _mm_setzero_si128()));
    }
    for (; x < im->w; x++) sum += row[(size_t)x * 4 + 3];
  }
  sum += (uint64_t)_mm_cvtsi128_si64(acc) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc));
  sink = sum;
}
#else
static void simd_scan(const Img *im) { plain_scan(im); }
#endif

/* Best of `reps` wall-clock runs, in milliseconds. */
#define TIME_BEST(reps, stmt)                        \
  ({                                                 \
    double best_ = 1e30;                             \
    for (int rep_ = 0; rep_ < (reps); rep_++) {      \
      double t0_ = tess_now_seconds();               \
      stmt;                                          \
      double dt_ = (tess_now_seconds() - t0_) * 1e3; \
      if (dt_ < best_) best_ = dt_;                  \
    }                                                \
    best_;                                           \
  })

static double hull_and_mass(const Img *im, TessMaskHull *keep) {
  TessMaskHull h;
  TessError err;
  if (tess_mask_hull(view(im), 1, &h, &err) != TESS_OK) {
    fprintf(stderr, "%s: %s\n", im->name, err.detail);
    exit(1);
  }
  if (keep) *keep = h;
  else tess_mask_hull_clear(&h);
  return 0;
}

static uint32_t pieces(const Img *im, double *uncovered) {
  TessMaskSettings s;
  tess_mask_settings_default(&s);
  TessMaskPieces p;
  TessError err;
  if (tess_mask_pieces(view(im), &s, &p, &err) != TESS_OK) {
    fprintf(stderr, "%s: %s\n", im->name, err.detail);
    exit(1);
  }
  uint32_t n = p.count;
  if (uncovered) *uncovered = p.uncovered_area;
  tess_mask_pieces_clear(&p);
  return n;
}

#ifdef TESS_HAVE_CHIPMUNK
static cpFloat sample_alpha(cpVect p, void *data) {
  const Img *im = data;
  int x = (int)p.x, y = (int)p.y;
  if (x < 0 || y < 0 || x >= (int)im->w || y >= (int)im->h) return 0.0;
  return im->px[(size_t)y * im->stride + (size_t)x * 4 + 3] / 255.0;
}

typedef struct CpResult {
  int points, hull;
  double area, moment;
} CpResult;

static CpResult chipmunk_chain(const Img *im) {
  CpResult res = {0, 0, 0, 0};
  cpPolylineSet *set = cpPolylineSetNew();
  /* One sample per pixel, one pixel of padding so every contour closes. */
  cpBB bb = cpBBNew(-1, -1, im->w, im->h);
  cpMarchSoft(bb, im->w + 2, im->h + 2, 0.5 / 255.0, (cpMarchSegmentFunc)cpPolylineSetCollectSegment, set,
              sample_alpha, (void *)im);
  int total = 0;
  for (int i = 0; i < set->count; i++) total += set->lines[i]->count;
  cpVect *all = malloc(sizeof *all * (size_t)(total ? total : 1));
  cpVect *hull = malloc(sizeof *hull * (size_t)(total ? total : 1));
  int n = 0;
  for (int i = 0; i < set->count; i++)
    for (int k = 0; k < set->lines[i]->count; k++) all[n++] = set->lines[i]->verts[k];
  int hn = cpConvexHull(n, all, hull, NULL, 0.0);
  res.points = n;
  res.hull = hn;
  res.area = cpAreaForPoly(hn, hull, 0.0);
  cpVect c = cpCentroidForPoly(hn, hull);
  res.moment = cpMomentForPoly(res.area, hn, hull, cpvneg(c), 0.0);
  free(all);
  free(hull);
  cpPolylineSetFree(set, cpTrue);
  return res;
}
#endif

/* ---- the work budget: adversarial images, every mode ---------------------- */

/* One call's time (best of reps) and working memory (the allocator's high-water mark above what was live). */
typedef struct Cost {
  double ms;
  double peak_mib;
} Cost;

static Cost sprite_mode(const Img *im, int mode, TessMaskTraceReport *rep) {
  Cost c = {1e30, 0};
  for (int rep_i = 0; rep_i < 3; rep_i++) {
    TessSpriteMask m;
    memset(&m, 0, sizeof m);
    m.threshold = 1;
    m.mode = (uint8_t)mode;
    m.max_vertices = 8;
    m.tolerance = 1;
    TessError err;
    int64_t before = tess_alloc_live_bytes();
    tess_alloc_peak_reset();
    double t0 = tess_now_seconds();
    TessResult r = tess_sprite_mask_trace_report(view(im), &m, rep, &err);
    double ms = (tess_now_seconds() - t0) * 1e3;
    double peak = (double)(tess_alloc_peak_bytes() - before) / 1048576.0;
    if (r != TESS_OK) {
      fprintf(stderr, "%s: %s\n", im->name, err.detail);
      exit(1);
    }
    if (ms < c.ms) c.ms = ms;
    if (peak > c.peak_mib) c.peak_mib = peak;
    tess_free(m.hull);
    tess_free(m.pieces);
  }
  return c;
}

static int budget_section(void) {
  Img checker = make("checkerboard", 4096, 4096);
  for (uint32_t y = 0; y < 4096; y++)
    for (uint32_t x = 0; x < 4096; x++) set_alpha(&checker, x, y, ((x ^ y) & 1) ? 0 : 255);
  Img plate = make("plate, 4000 holes", 1024, 1024);
  for (uint32_t y = 0; y < 1024; y++)
    for (uint32_t x = 0; x < 1024; x++)
      set_alpha(&plate, x, y, x >= 16 && y >= 16 && x < 1008 && y < 1008 && x % 16 < 3 && y % 16 < 3 ? 0 : 255);
  printf(
      "\nthe work budget (%u runs, TESS_MASK_RUN_BUDGET): time (best of 3, ms) and working memory (the\n"
      "allocator's peak above what was live, MiB) per mode through tess_sprite_mask_trace, beside the plain\n"
      "scan (the physical limit: every alpha byte read once) and the image's own bytes\n",
      TESS_MASK_RUN_BUDGET);
  printf(
      "before the budget (fa9e975, tessera-pipeline trace --mode pieces): checkerboard 4096x4096 57 s and 4.6 GB\n"
      "(the issue; 132 s and 4.6 GB here with the machine shared), plate 0.3 s and 11 MB whole process\n\n");
  const char *modes[] = {"hull", "simplified", "pieces", "circle", "box"};
  Img *list[2] = {&checker, &plate};
  for (int i = 0; i < 2; i++) {
    Img *im = list[i];
    double t_plain = TIME_BEST(5, plain_scan(im));
    printf("%-18s %ux%u, image %.0f MiB, plain scan %.2f ms\n", im->name, im->w, im->h,
           (double)im->stride * im->h / 1048576.0, t_plain);
    for (int mode = TESS_MASK_HULL; mode <= TESS_MASK_BOX; mode++) {
      TessMaskTraceReport rep = {false, 1, 0};
      Cost c = sprite_mode(im, mode, &rep);
      printf("  %-10s %9.2f ms (%6.1fx plain scan) %8.2f MiB", modes[mode], c.ms, c.ms / t_plain, c.peak_mib);
      if (mode == TESS_MASK_PIECES)
        printf("  %llu runs, %s", (unsigned long long)rep.runs,
               rep.simplified ? "simplified: traced on blocks of " : "not simplified");
      if (mode == TESS_MASK_PIECES && rep.simplified) printf("%ux%u px", rep.block, rep.block);
      printf("\n");
    }
  }
  /* The worst within the budget: a checkerboard of 2 px squares whose 2 x 2 blocks have exactly the budget's runs. */
  {
    Img worst = make("2 px checkerboard", 1024, 1024);
    for (uint32_t y = 0; y < 1024; y++)
      for (uint32_t x = 0; x < 1024; x++) set_alpha(&worst, x, y, (((x >> 1) ^ (y >> 1)) & 1) ? 0 : 255);
    TessMaskTraceReport rep = {false, 1, 0};
    Cost c = sprite_mode(&worst, TESS_MASK_PIECES, &rep);
    printf(
        "the most work the budget allows (%s 1024x1024: its blocks have exactly %u runs, each an island):\n"
        "  pieces %9.2f ms %8.2f MiB (%llu runs, block %u)\n",
        worst.name, TESS_MASK_RUN_BUDGET, c.ms, c.peak_mib, (unsigned long long)rep.runs, rep.block);
    free(worst.px);
  }
  free(checker.px);
  free(plate.px);
  return 0;
}

int main(void) {
  Img imgs[4] = {make_blob(4096), make_ellipse(1024), make_holes(256), make_tileset(1024, 32)};
  printf("mask benchmark: best of several runs, wall clock, ms\n\n");
  printf("%-18s %9s | %10s %9s | %9s %8s %8s %8s | %s\n", "image", "size", "plain scan", "SSE2 scan", "hull+mass",
         "x plain", "x SSE2", "hull vtx", "Chipmunk2D march+hull+moment");
  for (int i = 0; i < 4; i++) {
    Img *im = &imgs[i];
    int reps = im->w >= 4096 ? 5 : 20;
    double t_plain = TIME_BEST(reps, plain_scan(im));
    double t_simd = TIME_BEST(reps, simd_scan(im));
    TessMaskHull h;
    hull_and_mass(im, &h);
    double t_hull = TIME_BEST(reps, hull_and_mass(im, NULL));
    char cp[128] = "not built (libchipmunk-dev missing)";
#ifdef TESS_HAVE_CHIPMUNK
    CpResult cr = {0, 0, 0, 0};
    double t_cp = TIME_BEST(im->w >= 4096 ? 2 : 5, cr = chipmunk_chain(im));
    TessMassProps hm = tess_poly_mass(h.v, h.count);
    snprintf(cp, sizeof cp, "%9.2f ms (%.0fx ours), %d pts, hull %d vtx, area %+.2f%% vs ours", t_cp, t_cp / t_hull,
             cr.points, cr.hull, 100 * (cr.area / hm.area - 1));
#endif
    char size[32];
    snprintf(size, sizeof size, "%ux%u", im->w, im->h);
    printf("%-18s %9s | %10.2f %9.2f | %9.2f %7.2fx %7.2fx %8u | %s\n", im->name, size, t_plain, t_simd, t_hull,
           t_hull / t_plain, t_hull / t_simd, h.count, cp);
    tess_mask_hull_clear(&h);
  }
  printf(
      "\nplain scan: a scalar loop summing the alpha bytes (the issue's limit); SSE2 scan: the same sum\n"
      "vectorised (memory bound). target: hull + pixel mass within 2x of the plain scan\n\n");
  /* Second moments with the product term and principal axes: the same one
   * scan (one multiply-add per row more), so the same limit. */
  {
    Img *im = &imgs[0];
    TessMaskSecondMoments m;
    TessError err;
    double t_plain = TIME_BEST(5, plain_scan(im));
    double t_mom = TIME_BEST(5, {
      if (tess_mask_pixel_moments(view(im), 1, &m, &err) != TESS_OK) {
        fprintf(stderr, "moments: %s\n", err.detail);
        return 1;
      }
    });
    printf(
        "pixel moments (xx, yy, xy, principal axes) on the %s %ux%u: %.2f ms, %.2fx the plain scan "
        "(target within 2x); major axis at %.1f deg\n\n",
        im->name, im->w, im->h, t_mom, t_mom / t_plain, m.angle * 180 / M_PI);
  }

  /* Whole tileset traced in one call. */
  {
    Img *ts = &imgs[3];
    uint32_t count = (ts->w / 32) * (ts->h / 32);
    TessTileInfo *tiles = calloc(count, sizeof *tiles);
    TessMaskSettings s;
    tess_mask_settings_default(&s);
    TessError err;
    double t = TIME_BEST(10, {
      if (tess_mask_trace_tiles(view(ts), 32, 32, 0, 0, &s, tiles, count, &err) != TESS_OK) {
        fprintf(stderr, "tileset: %s\n", err.detail);
        return 1;
      }
    });
    uint32_t none = 0, full = 0, traced = 0, npieces = 0;
    for (uint32_t i = 0; i < count; i++) {
      none += tiles[i].collision == TESS_TILE_COLLISION_NONE;
      full += tiles[i].collision == TESS_TILE_COLLISION_FULL;
      traced += tiles[i].collision == TESS_TILE_COLLISION_TRACED;
      npieces += tiles[i].piece_count;
      tess_free(tiles[i].pieces);
    }
    free(tiles);
    printf("tileset 1024x1024 of 32x32 (%u tiles: %u none, %u full, %u traced into %u pieces): %.2f ms (target < 10 ms)\n",
           count, none, full, traced, npieces, t);
  }
  /* Pieces mode (outline, simplification, decomposition, coverage). */
  {
    Img blob1k = make_blob(1024);
    /* A plate with a 3 x 3 hole every 16 px (about 4000 holes): the island is cut into regions. */
    Img sponge = make("plate, 4000 holes", 1024, 1024);
    for (uint32_t y = 0; y < 1024; y++)
      for (uint32_t x = 0; x < 1024; x++)
        set_alpha(&sponge, x, y, x >= 16 && y >= 16 && x < 1008 && y < 1008 && x % 16 < 3 && y % 16 < 3 ? 0 : 255);
    Img *list[5] = {&imgs[1], &blob1k, &sponge, &imgs[2], &imgs[0]};
    for (int i = 0; i < 5; i++) {
      double unc = 0;
      uint32_t n = 0;
      double t = TIME_BEST(list[i]->w >= 4096 ? 2 : 10, n = pieces(list[i], &unc));
      printf("pieces, tolerance 1, N 8: %-18s %4ux%-4u %7.2f ms, %u pieces, uncovered %.1f px^2%s\n", list[i]->name,
             list[i]->w, list[i]->h, t, n, unc, list[i]->w == 1024 ? " (target < 16 ms)" : "");
    }
    /* The case: the overlay recomputed while the tolerance slider
     * moves over the plate (from about 2 px on, its 3 x 3 holes close up). */
    printf("pieces, N 8, plate with 4000 holes while the tolerance slider moves (target < 16 ms each):");
    const double tolerances[] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0};
    for (int i = 0; i < 6; i++) {
      TessMaskSettings s;
      tess_mask_settings_default(&s);
      s.tolerance = tolerances[i];
      TessMaskPieces p;
      TessError err;
      uint32_t count = 0;
      double t = TIME_BEST(5, {
        if (tess_mask_pieces(view(&sponge), &s, &p, &err) != TESS_OK) {
          fprintf(stderr, "plate: %s\n", err.detail);
          return 1;
        }
        count = p.count;
        tess_mask_pieces_clear(&p);
      });
      printf(" %g px %.2f ms (%u pieces)%s", s.tolerance, t, count, i == 5 ? "\n" : ",");
    }
    free(blob1k.px);
    free(sponge.px);
  }
  /* The editor's one call while the threshold slider moves: every mode on a 1024 x 1024 sprite. */
  {
    const char *modes[] = {"hull", "simplified", "pieces", "circle", "box"};
    printf("tess_sprite_mask_trace on the 1024x1024 ellipse (overlay target: one 16 ms frame):");
    for (int mode = TESS_MASK_HULL; mode <= TESS_MASK_BOX; mode++) {
      TessSpriteMask m;
      memset(&m, 0, sizeof m);
      m.threshold = 1;
      m.mode = (uint8_t)mode;
      m.max_vertices = 8;
      m.tolerance = 1;
      TessError err;
      double t = TIME_BEST(10, {
        if (tess_sprite_mask_trace(view(&imgs[1]), &m, &err) != TESS_OK) {
          fprintf(stderr, "sprite: %s\n", err.detail);
          return 1;
        }
      });
      printf(" %s %.2f ms%s", modes[mode], t, mode == TESS_MASK_BOX ? "\n" : ",");
      tess_free(m.hull);
      tess_free(m.pieces);
    }
  }
  for (int i = 0; i < 4; i++) free(imgs[i].px);
  return budget_section();
}
