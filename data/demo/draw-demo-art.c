/* Draws the demo project's art: the terrain tileset and the sprites.
 *
 *   draw-demo-art OUTDIR     writes OUTDIR/terrain.png and the sprite PNGs
 *
 * Everything is procedural (hashed value noise, shading, supersampled edges
 * for real alpha), so the art is reviewable as code. Its output is checked
 * in under data/demo/art/, and make-demo reads those files; the demo test
 * re-runs this program and compares the pixels with the checked-in files.
 *
 * Only sqrt, floor and integer hashing shape the pixels (no sin/cos), so the
 * output does not depend on the C library's trigonometry. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/image.h"

#define TILE 32

/* ---- colour and noise ----------------------------------------------------- */

typedef struct Rgba {
  double r, g, b, a; /* 0..255 */
} Rgba;

static Rgba rgba(double r, double g, double b, double a) {
  Rgba c = {r, g, b, a};
  return c;
}
static Rgba shade(Rgba c, double f) { return rgba(c.r * f, c.g * f, c.b * f, c.a); }
static Rgba mix(Rgba a, Rgba b, double t) {
  return rgba(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t);
}
static Rgba add(Rgba c, double d) { return rgba(c.r + d, c.g + d, c.b + d, c.a); }

static uint32_t hash3(int32_t x, int32_t y, uint32_t seed) {
  uint32_t h = seed * 0x9E3779B1u ^ (uint32_t)x * 0x85EBCA77u ^ (uint32_t)y * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return h;
}
static double hash01(int32_t x, int32_t y, uint32_t seed) { return (double)(hash3(x, y, seed) & 0xFFFFFFu) / 16777215.0; }

static int wrap(int v, int period) { return ((v % period) + period) % period; }

/* Value noise on a lattice of `cell` pixels that repeats every `period`
 * pixels, so tiles made from it join without seams. */
static double value_noise(double x, double y, int cell, int period, uint32_t seed) {
  int n = period / cell;
  double fx = x / cell, fy = y / cell;
  int x0 = (int)floor(fx), y0 = (int)floor(fy);
  double tx = fx - x0, ty = fy - y0;
  tx = tx * tx * (3 - 2 * tx);
  ty = ty * ty * (3 - 2 * ty);
  double a = hash01(wrap(x0, n), wrap(y0, n), seed), b = hash01(wrap(x0 + 1, n), wrap(y0, n), seed);
  double c = hash01(wrap(x0, n), wrap(y0 + 1, n), seed), d = hash01(wrap(x0 + 1, n), wrap(y0 + 1, n), seed);
  return (a + (b - a) * tx) * (1 - ty) + (c + (d - c) * tx) * ty;
}

/* Three octaves, 0..1, periodic over a tile. */
static double fbm(double x, double y, uint32_t seed) {
  return 0.55 * value_noise(x, y, 16, TILE, seed) + 0.3 * value_noise(x, y, 8, TILE, seed + 1) +
         0.15 * value_noise(x, y, 4, TILE, seed + 2);
}

/* A triangle wave (period 1, range 0..1): ripples and grain without sin. */
static double tri(double t) {
  t -= floor(t);
  return t < 0.5 ? 2 * t : 2 - 2 * t;
}

/* Cellular (Worley) noise, periodic over a tile: one jittered feature point
 * per lattice cell of n x n; d1, d2 are the distances to the nearest and
 * second nearest points and `id` names the nearest one's cell. Stones,
 * cracks and caustics come from its cell edges (where d2 - d1 is small). */
typedef struct Worley {
  double d1, d2;
  double dx, dy; /* from the nearest point to the pixel */
  int id;
} Worley;

static Worley worley(double x, double y, int n, uint32_t seed) {
  double cell = (double)TILE / n;
  int ci = (int)floor(x / cell), cj = (int)floor(y / cell);
  Worley w = {1e9, 1e9, 0, 0, 0};
  for (int j = cj - 1; j <= cj + 1; j++)
    for (int i = ci - 1; i <= ci + 1; i++) {
      int wi = wrap(i, n), wj = wrap(j, n);
      double fx = (i + 0.15 + 0.7 * hash01(wi, wj, seed)) * cell;
      double fy = (j + 0.15 + 0.7 * hash01(wi, wj, seed + 7)) * cell;
      double dx = x - fx, dy = y - fy;
      double d = sqrt(dx * dx + dy * dy);
      if (d < w.d1) {
        w.d2 = w.d1;
        w.d1 = d;
        w.dx = dx;
        w.dy = dy;
        w.id = wj * n + wi;
      } else if (d < w.d2) {
        w.d2 = d;
      }
    }
  return w;
}

/* ---- canvas ---------------------------------------------------------------- */

static void put(TessImage *img, int x, int y, Rgba c) {
  if (x < 0 || y < 0 || (uint32_t)x >= img->width || (uint32_t)y >= img->height) return;
  uint8_t *p = img->pixels + (size_t)y * img->stride + (size_t)x * 4;
  const double v[4] = {c.r, c.g, c.b, c.a};
  for (int i = 0; i < 4; i++) {
    double q = floor(v[i] + 0.5);
    p[i] = (uint8_t)(q < 0 ? 0 : q > 255 ? 255
                                         : q);
  }
}

/* How much of pixel (x, y) lies inside a shape: 4 x 4 samples. */
typedef bool (*InsideFn)(double x, double y, const void *shape);
static double coverage(int x, int y, InsideFn inside, const void *shape) {
  int n = 0;
  for (int sy = 0; sy < 4; sy++)
    for (int sx = 0; sx < 4; sx++)
      if (inside(x + (sx + 0.5) / 4.0, y + (sy + 0.5) / 4.0, shape)) n++;
  return n / 16.0;
}

/* ---- tile textures (local coordinates 0..32, periodic) ---------------------- */

typedef Rgba (*TextureFn)(int x, int y);

static Rgba bevel(Rgba c, int x, int y, double amount) {
  if (x == 0 || y == 0) return add(c, 1.2 * amount);
  if (x == 1 || y == 1) return add(c, 0.5 * amount);
  if (x == TILE - 1 || y == TILE - 1) return add(c, -1.2 * amount);
  if (x == TILE - 2 || y == TILE - 2) return add(c, -0.5 * amount);
  return c;
}

static Rgba rock_texture(int x, int y) {
  /* Irregular stones packed together: each Worley cell a stone with its own
   * tone, lit from the top-left as if bulging, with dark cracks between. */
  Worley w = worley(x + 0.5, y + 0.5, 3, 11);
  double tone = hash01(w.id, 0, 13);
  Rgba c = mix(rgba(88, 82, 78, 255), rgba(142, 134, 124, 255), 0.35 + 0.5 * tone);
  c = add(c, (fbm(x, y, 17) - 0.5) * 36);
  c = add(c, -(w.dx + w.dy) * 1.6); /* bulge: lighter towards the top-left of each stone */
  double edge = w.d2 - w.d1;
  if (edge < 1.0) c = shade(c, 0.52);
  else if (edge < 2.2) c = shade(c, 0.8);
  c = add(c, (hash01(x, y, 19) - 0.5) * 12);
  return bevel(c, x, y, 10);
}

static Rgba sand_texture(int x, int y) {
  double n = fbm(x, y, 23);
  Rgba c = mix(rgba(204, 172, 112, 255), rgba(236, 210, 150, 255), n);
  double ripple = tri((y + 3 * value_noise(x, y, 16, TILE, 29)) / 8.0);
  c = add(c, (ripple - 0.5) * 14);
  c = add(c, (hash01(x, y, 31) - 0.5) * 22); /* grains */
  return bevel(c, x, y, 8);
}

static Rgba ice_texture(int x, int y) {
  double n = fbm(x, y, 37);
  Rgba c = mix(rgba(160, 206, 238, 255), rgba(222, 244, 255, 255), n);
  /* Light streaks along the diagonal, bent a little by noise. */
  double t = (x + y) / 16.0 + 0.3 * value_noise(x, y, 16, TILE, 41);
  double streak = tri(t);
  if (streak > 0.82) c = mix(c, rgba(255, 255, 255, 255), 0.5 * (streak - 0.82) / 0.18 + 0.2);
  /* Fine cracks: Worley cell edges, faint. */
  Worley w = worley(x + 0.5, y + 0.5, 2, 43);
  if (w.d2 - w.d1 < 0.8) c = mix(c, rgba(120, 170, 210, 255), 0.45);
  return bevel(c, x, y, 18);
}

static Rgba rubber_texture(int x, int y) {
  Rgba c = mix(rgba(150, 28, 48, 255), rgba(196, 48, 72, 255), fbm(x, y, 47));
  if (hash01(x, y, 53) > 0.97) c = shade(c, 0.78); /* sparse speckles */
  /* A cushion: lighter towards the middle of the top half. */
  double dy = (y - 10.0) / 16.0;
  c = add(c, 24 * (1 - dy * dy > 0 ? 1 - dy * dy : 0));
  return bevel(c, x, y, 20);
}

static Rgba wood_texture(int x, int y) {
  int plank = y / 8;
  int shift = (int)(hash01(plank, 0, 59) * 32);
  double grain = tri((x + shift) / 11.0 + 0.8 * value_noise(x, y, 8, TILE, 61 + (uint32_t)plank));
  Rgba c = mix(rgba(124, 78, 40, 255), rgba(172, 118, 66, 255), 0.4 + 0.6 * grain);
  c = add(c, (hash01(plank, 1, 67) - 0.5) * 18); /* each plank its own tone */
  if (y % 8 == 7) c = shade(c, 0.55);            /* seams */
  if (y % 8 == 0) c = add(c, 12);
  int nail_x = (plank % 2) ? 5 : 26;
  if (x == nail_x && y % 8 == 3) c = rgba(70, 66, 62, 255);
  return c;
}

static Rgba water_colour(int x, int y, bool deep) {
  double n = fbm(x, y, deep ? 71u : 73u);
  Rgba c = deep ? mix(rgba(24, 62, 140, 215), rgba(40, 88, 170, 215), n) : mix(rgba(56, 132, 204, 165), rgba(96, 172, 230, 165), n);
  /* Caustics: the bright network of Worley cell edges. */
  Worley w = worley(x + 0.5, y + 0.5, 4, deep ? 79u : 83u);
  double edge = w.d2 - w.d1;
  if (edge < 1.4) c = mix(c, rgba(180, 226, 255, c.a + 20), (deep ? 0.3 : 0.45) * (1 - edge / 1.4));
  return c;
}

static Rgba shallow_water_texture(int x, int y) {
  /* A wave crest 4..6 px down; above it, air. */
  double crest = 5 + 1.5 * (tri(x / 16.0) - 0.5) * 2;
  if (y + 0.5 < crest - 0.5) return rgba(0, 0, 0, 0);
  Rgba c = water_colour(x, y, false);
  if (y + 0.5 < crest + 1.5) c = rgba(214, 240, 255, 220); /* foam line */
  return c;
}

static Rgba deep_water_texture(int x, int y) { return water_colour(x, y, true); }

static Rgba stone_floor_texture(int x, int y) {
  /* Four flagstones, each its own shade, with mortar between. */
  int slab = (x / 16) + 2 * (y / 16);
  Rgba c = mix(rgba(118, 116, 112, 255), rgba(160, 156, 148, 255), fbm(x, y, 89));
  c = add(c, (hash01(slab, 0, 97) - 0.5) * 24);
  int lx = x % 16, ly = y % 16;
  if (lx == 0 || ly == 0) c = rgba(84, 80, 76, 255);
  else if (lx == 1 || ly == 1) c = add(c, 12);
  else if (lx == 15 || ly == 15) c = add(c, -12);
  return c;
}

static Rgba ice_floor_texture(int x, int y) {
  Rgba c = mix(rgba(190, 226, 246, 255), rgba(232, 248, 255, 255), fbm(x, y, 101));
  /* Skate scratches: long thin arcs (Worley edges of big cells), white. */
  Worley w = worley(x + 0.5, y + 0.5, 2, 103);
  if (w.d2 - w.d1 < 0.9) c = mix(c, rgba(255, 255, 255, 255), 0.7);
  Worley v = worley(x + 0.5, y + 0.5, 3, 105);
  if (v.d2 - v.d1 < 0.6) c = mix(c, rgba(150, 196, 226, 255), 0.35);
  return c;
}

static Rgba sand_floor_texture(int x, int y) {
  Rgba c = mix(rgba(214, 186, 128, 255), rgba(240, 218, 162, 255), fbm(x, y, 107));
  double ripple = tri((x + y + 4 * value_noise(x, y, 16, TILE, 109)) / 10.0);
  c = add(c, (ripple - 0.5) * 18);
  return add(c, (hash01(x, y, 113) - 0.5) * 16);
}

static Rgba grass_rock_texture(int x, int y) {
  Rgba c = rock_texture(x, y);
  /* Grass blades: each column's blade ends at its own depth, 5..9 px. */
  int depth = 5 + (int)(hash01(x, 0, 127) * 5);
  if (y < depth) {
    c = mix(rgba(60, 128, 44, 255), rgba(112, 178, 64, 255), hash01(x, y, 131));
    if (y == 0) c = add(c, 20);
  } else if (y == depth) {
    c = shade(c, 0.7);
  }
  return c;
}

static Rgba background_texture(int x, int y) {
  /* Dim bricks, two courses per tile, offset by half a brick. */
  int course = y / 16;
  int bx = (x + (course % 2) * 8) % TILE;
  Rgba c = mix(rgba(58, 56, 66, 255), rgba(80, 76, 88, 255), fbm(x, y, 137));
  if (y % 16 == 15 || bx % 16 == 15) c = rgba(40, 38, 46, 255);
  return c;
}

/* ---- traced tiles: exact shapes with supersampled alpha ------------------ */

/* The 45-degree slope: solid below the diagonal from bottom-left to top-right. */
static bool inside_slope(double x, double y, const void *shape) {
  (void)shape;
  return y >= TILE - x;
}

/* The rounded corner: a quarter disc of radius 32 centred on the bottom-left corner. */
static bool inside_round_corner(double x, double y, const void *shape) {
  (void)shape;
  double dy = TILE - y;
  return x * x + dy * dy <= (double)TILE * TILE;
}

/* The one-way plank: the top 8 px. */
static bool inside_plank(double x, double y, const void *shape) {
  (void)shape;
  (void)x;
  return y < 8;
}

/* A cave tile: rock in the quarters whose corner bit is set in *(const int *)shape (terrain.h). */
static bool inside_cave(double x, double y, const void *shape) {
  int code = *(const int *)shape;
  int bit = y < TILE / 2 ? (x < TILE / 2 ? 3 : 0) : (x < TILE / 2 ? 2 : 1);
  return (code >> bit) & 1;
}

/* Rock where the cave tile has it, grass on rock that has air above it. */
static void draw_cave_tile(TessImage *img, int ox, int oy, int code, TextureFn rock) {
  for (int y = 0; y < TILE; y++)
    for (int x = 0; x < TILE; x++) {
      if (!inside_cave(x + 0.5, y + 0.5, &code)) continue;
      Rgba c = rock(x, y);
      int depth = 4 + (int)(hash01(x, 0, 211) * 3);
      /* Air above this pixel within the tile (the top quarters' rock starts at y 0: the cell above decides, not drawn). */
      bool open_above = y >= TILE / 2 && !inside_cave(x + 0.5, TILE / 2 - 0.5, &code);
      if (open_above && y - TILE / 2 < depth) c = mix(rgba(60, 128, 44, 255), rgba(112, 178, 64, 255), hash01(x, y, 223));
      put(img, ox + x, oy + y, c);
    }
}

/* Draws texture masked by shape; pixels along the shape's edge get a light rim. */
static void draw_traced_tile(TessImage *img, int ox, int oy, TextureFn texture, InsideFn inside) {
  for (int y = 0; y < TILE; y++)
    for (int x = 0; x < TILE; x++) {
      double cov = coverage(x, y, inside, NULL);
      if (cov <= 0) continue;
      Rgba c = texture(x, y);
      /* Near the edge: the pixel one step up-right is (partly) outside. */
      if (coverage(x + 1, y - 1, inside, NULL) < 1 || coverage(x, y - 2, inside, NULL) < 1) c = add(c, 26);
      c.a *= cov;
      put(img, ox + x, oy + y, c);
    }
}

static void draw_tile(TessImage *img, int ox, int oy, TextureFn texture) {
  for (int y = 0; y < TILE; y++)
    for (int x = 0; x < TILE; x++) put(img, ox + x, oy + y, texture(x, y));
}

static Rgba plank_texture(int x, int y) {
  Rgba c = wood_texture(x, y + 8); /* a plank without the tile's top seam */
  if (y == 7) c = shade(c, 0.5);
  return c;
}

/* Tile indices; make-demo.c uses the same numbers (see terrain.h). */
#include "terrain.h"

static TessResult draw_terrain(const char *dir, TessError *err) {
  TessImage img;
  TessResult r = tess_image_create(TERRAIN_COLUMNS * TILE, TERRAIN_ROWS * TILE, &img, err);
  if (r != TESS_OK) return r;
  static const struct {
    int index;
    TextureFn texture;
  } plain[] = {
      {TILE_ROCK, rock_texture},
      {TILE_SAND, sand_texture},
      {TILE_ICE, ice_texture},
      {TILE_RUBBER, rubber_texture},
      {TILE_WOOD, wood_texture},
      {TILE_WATER_SURFACE, shallow_water_texture},
      {TILE_WATER_DEEP, deep_water_texture},
      {TILE_STONE_FLOOR, stone_floor_texture},
      {TILE_ICE_FLOOR, ice_floor_texture},
      {TILE_SAND_FLOOR, sand_floor_texture},
      {TILE_GRASS_ROCK, grass_rock_texture},
      {TILE_BACKGROUND, background_texture},
  };
  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
    draw_tile(&img, (plain[i].index % TERRAIN_COLUMNS) * TILE, (plain[i].index / TERRAIN_COLUMNS) * TILE,
              plain[i].texture);
  draw_traced_tile(&img, (TILE_ROCK_SLOPE % TERRAIN_COLUMNS) * TILE, (TILE_ROCK_SLOPE / TERRAIN_COLUMNS) * TILE,
                   rock_texture, inside_slope);
  draw_traced_tile(&img, (TILE_SAND_SLOPE % TERRAIN_COLUMNS) * TILE, (TILE_SAND_SLOPE / TERRAIN_COLUMNS) * TILE,
                   sand_texture, inside_slope);
  draw_traced_tile(&img, (TILE_ROUND_CORNER % TERRAIN_COLUMNS) * TILE,
                   (TILE_ROUND_CORNER / TERRAIN_COLUMNS) * TILE, rock_texture, inside_round_corner);
  draw_traced_tile(&img, (TILE_PLANK % TERRAIN_COLUMNS) * TILE, (TILE_PLANK / TERRAIN_COLUMNS) * TILE, plank_texture,
                   inside_plank);
  for (int code = 0; code < 16; code++)
    draw_cave_tile(&img, ((TILE_CAVE + code) % TERRAIN_COLUMNS) * TILE, ((TILE_CAVE + code) / TERRAIN_COLUMNS) * TILE,
                   code, rock_texture);
  char path[4096];
  snprintf(path, sizeof path, "%s/terrain.png", dir);
  r = tess_png_save(tess_image_view(&img), path, err);
  tess_image_clear(&img);
  return r;
}

/* ---- sprites -------------------------------------------------------------- */

typedef struct Circle {
  double cx, cy, r;
} Circle;
static bool inside_circle(double x, double y, const void *shape) {
  const Circle *c = shape;
  return (x - c->cx) * (x - c->cx) + (y - c->cy) * (y - c->cy) <= c->r * c->r;
}

typedef struct Ring {
  double cx, cy, outer, inner;
} Ring;
static bool inside_ring(double x, double y, const void *shape) {
  const Ring *g = shape;
  double d2 = (x - g->cx) * (x - g->cx) + (y - g->cy) * (y - g->cy);
  return d2 <= g->outer * g->outer && d2 >= g->inner * g->inner;
}

typedef struct Poly {
  int n;
  double x[16], y[16];
} Poly;
static bool inside_poly(double px, double py, const void *shape) {
  const Poly *p = shape;
  bool in = false;
  for (int i = 0, j = p->n - 1; i < p->n; j = i++)
    if ((p->y[i] > py) != (p->y[j] > py) &&
        px < (p->x[j] - p->x[i]) * (py - p->y[i]) / (p->y[j] - p->y[i]) + p->x[i])
      in = !in;
  return in;
}

typedef struct RoundedBox {
  double x0, y0, x1, y1, r;
} RoundedBox;
static bool inside_rounded_box(double x, double y, const void *shape) {
  const RoundedBox *b = shape;
  if (x < b->x0 || x > b->x1 || y < b->y0 || y > b->y1) return false;
  double cx = x < b->x0 + b->r ? b->x0 + b->r : x > b->x1 - b->r ? b->x1 - b->r
                                                                 : x;
  double cy = y < b->y0 + b->r ? b->y0 + b->r : y > b->y1 - b->r ? b->y1 - b->r
                                                                 : y;
  return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= b->r * b->r;
}

static TessResult save(TessImage *img, const char *dir, const char *name, TessError *err) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  TessResult r = tess_png_save(tess_image_view(img), path, err);
  tess_image_clear(img);
  return r;
}

static TessResult draw_crate(const char *dir, TessError *err) {
  /* Vertical boards inside a lighter frame, with a diagonal brace. */
  TessImage img;
  TessResult r = tess_image_create(32, 32, &img, err);
  if (r != TESS_OK) return r;
  RoundedBox box = {0, 0, 32, 32, 3.5}; /* rounded enough that the corner pixels are clear */
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 32; x++) {
      double cov = coverage(x, y, inside_rounded_box, &box);
      if (cov <= 0) continue;
      Rgba c = shade(wood_texture(y, x), 0.82); /* boards run vertically: transpose the planks */
      bool frame = x < 5 || y < 5 || x > 26 || y > 26;
      int diag = x + y - 31; /* the brace from bottom-left to top-right */
      if (frame) {
        c = add(wood_texture(x, y), 18);
        if (x == 0 || y == 0 || x == 31 || y == 31) c = shade(c, 0.55);
        if (x == 4 || y == 4 || x == 27 || y == 27) c = shade(c, 0.6);
      } else if (abs(diag) <= 3) {
        c = add(wood_texture(x - y, y), 12);
        if (abs(diag) == 3) c = shade(c, 0.6);
      } else if (diag == -4 || diag == 4) {
        c = shade(c, 0.7); /* the brace's shadow on the boards */
      }
      if ((x == 2 || x == 29) && (y == 2 || y == 29)) c = rgba(206, 202, 192, 255); /* bolts */
      c.a = 255 * cov;
      put(&img, x, y, c);
    }
  return save(&img, dir, "crate.png", err);
}

static TessResult draw_barrel(const char *dir, TessError *err) {
  /* A barrel seen from above: a ring of staves and iron hoops, hollow inside. */
  TessImage img;
  TessResult r = tess_image_create(32, 32, &img, err);
  if (r != TESS_OK) return r;
  Ring ring = {16, 16, 15.5, 9.5};
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 32; x++) {
      double cov = coverage(x, y, inside_ring, &ring);
      if (cov <= 0) continue;
      double dx = x + 0.5 - 16, dy = y + 0.5 - 16;
      double d = sqrt(dx * dx + dy * dy);
      /* Staves: alternate by the direction's octant-ish sector (no atan2 needed). */
      double sector = (dx >= 0 ? 0 : 4) + (dy >= 0 ? 0 : 2) + (fabs(dx) > fabs(dy) ? 1 : 0);
      Rgba c = mix(rgba(128, 80, 42, 255), rgba(168, 112, 62, 255), 0.5 + 0.5 * ((int)sector % 2));
      c = add(c, (value_noise(x, y, 4, 32, 149) - 0.5) * 20);
      if (d > 14.0 || (d > 10.5 && d < 11.5)) c = rgba(104, 106, 114, 255); /* iron hoops */
      c = add(c, -(dx + dy) * 1.2);                                         /* light from top-left */
      if (d < 10.5) c = shade(c, 0.55 + 0.45 * (d - 9.5));                  /* the inner wall, in shadow */
      c.a = 255 * cov;
      put(&img, x, y, c);
    }
  return save(&img, dir, "barrel.png", err);
}

static TessResult draw_ball(const char *dir, TessError *err) {
  TessImage img;
  TessResult r = tess_image_create(24, 24, &img, err);
  if (r != TESS_OK) return r;
  Circle disc = {12, 12, 11.5};
  for (int y = 0; y < 24; y++)
    for (int x = 0; x < 24; x++) {
      double cov = coverage(x, y, inside_circle, &disc);
      if (cov <= 0) continue;
      /* Lambert shading of a sphere lit from the top-left, plus a highlight. */
      double nx = (x + 0.5 - 12) / 11.5, ny = (y + 0.5 - 12) / 11.5;
      double nz2 = 1 - nx * nx - ny * ny;
      double nz = nz2 > 0 ? sqrt(nz2) : 0;
      double light = (-0.45 * nx - 0.55 * ny + 0.70 * nz);
      double lambert = light > 0 ? light : 0;
      Rgba c = mix(rgba(90, 20, 14, 255), rgba(236, 92, 40, 255), 0.25 + 0.75 * lambert);
      double spec = lambert > 0.93 ? (lambert - 0.93) / 0.07 : 0;
      c = mix(c, rgba(255, 236, 210, 255), spec);
      c.a = 255 * cov;
      put(&img, x, y, c);
    }
  return save(&img, dir, "ball.png", err);
}

static TessResult draw_rock(const char *dir, TessError *err) {
  /* An irregular (concave) boulder: 12 points at hashed radii around the centre. */
  TessImage img;
  TessResult r = tess_image_create(40, 32, &img, err);
  if (r != TESS_OK) return r;
  static const double dir_x[12] = {1, 0.866025403784, 0.5, 0, -0.5, -0.866025403784,
                                   -1, -0.866025403784, -0.5, 0, 0.5, 0.866025403784};
  static const double dir_y[12] = {0, 0.5, 0.866025403784, 1, 0.866025403784, 0.5,
                                   0, -0.5, -0.866025403784, -1, -0.866025403784, -0.5};
  Poly p = {12, {0}, {0}};
  for (int i = 0; i < 12; i++) {
    double k = 0.62 + 0.38 * hash01(i, 0, 157);
    p.x[i] = 20 + 19.0 * k * dir_x[i];
    p.y[i] = 16 + 15.0 * k * dir_y[i];
  }
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 40; x++) {
      double cov = coverage(x, y, inside_poly, &p);
      if (cov <= 0) continue;
      Rgba c = mix(rgba(96, 90, 84, 255), rgba(150, 144, 134, 255), fbm(x, y, 163));
      Worley w = worley(x + 0.5, y + 0.5, 2, 167); /* a few deep cracks */
      if (w.d2 - w.d1 < 0.9) c = shade(c, 0.68);
      c = add(c, (20 - (x + 0.5)) * 0.6 + (16 - (y + 0.5)) * 1.0); /* top-left light */
      c.a = 255 * cov;
      put(&img, x, y, c);
    }
  return save(&img, dir, "rock.png", err);
}

static TessResult draw_star(const char *dir, TessError *err) {
  TessImage img;
  TessResult r = tess_image_create(32, 32, &img, err);
  if (r != TESS_OK) return r;
  /* Unit directions every 36 degrees, starting straight up (cos/sin of
   * multiples of 36 degrees, written out). */
  static const double ux[10] = {0, 0.587785252292, 0.951056516295, 0.951056516295, 0.587785252292,
                                0, -0.587785252292, -0.951056516295, -0.951056516295, -0.587785252292};
  static const double uy[10] = {-1, -0.809016994375, -0.309016994375, 0.309016994375, 0.809016994375,
                                1, 0.809016994375, 0.309016994375, -0.309016994375, -0.809016994375};
  Poly star = {10, {0}, {0}};
  for (int i = 0; i < 10; i++) {
    double rad = i % 2 ? 6.5 : 15.5;
    star.x[i] = 16 + rad * ux[i];
    star.y[i] = 16.8 + rad * uy[i];
  }
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 32; x++) {
      double cov = coverage(x, y, inside_poly, &star);
      if (cov <= 0) continue;
      double t = (y + 0.5) / 32.0;
      Rgba c = mix(rgba(255, 236, 120, 255), rgba(230, 150, 20, 255), t);
      if (cov < 1) c = rgba(170, 100, 10, 255); /* outline on the anti-aliased edge */
      c.a = 255 * cov;
      put(&img, x, y, c);
    }
  return save(&img, dir, "star.png", err);
}

static TessResult draw_coin(const char *dir, TessError *err) {
  /* Two frames of 20 x 20 side by side: the coin, then the coin blinking
   * (brighter, with a glint). */
  TessImage img;
  TessResult r = tess_image_create(40, 20, &img, err);
  if (r != TESS_OK) return r;
  for (int frame = 0; frame < 2; frame++) {
    Circle disc = {10, 10, 8.5};
    for (int y = 0; y < 20; y++)
      for (int x = 0; x < 20; x++) {
        double cov = coverage(x, y, inside_circle, &disc);
        if (cov <= 0) continue;
        double dx = x + 0.5 - 10, dy = y + 0.5 - 10;
        double d = sqrt(dx * dx + dy * dy);
        Rgba c = mix(rgba(250, 214, 80, 255), rgba(196, 140, 24, 255), (dx + dy + 12) / 24);
        if (d > 5.5 && d < 6.6) c = rgba(176, 120, 16, 255); /* embossed ring */
        if (frame == 1) {
          c = add(c, 30);
          /* The glint: a small four-pointed sparkle at the upper left. */
          double gx = fabs(x + 0.5 - 7), gy = fabs(y + 0.5 - 7);
          if ((gx < 0.8 && gy < 4) || (gy < 0.8 && gx < 4) || gx + gy < 2) c = rgba(255, 255, 255, 255);
        }
        c.a = 255 * cov;
        put(&img, frame * 20 + x, y, c);
      }
  }
  return save(&img, dir, "coin.png", err);
}

/* The ragdoll's parts: a wooden mannequin, each part a rounded bar (the head
 * a disc) lit from the top-left. The parts overlap where make-demo places
 * them, and are pinned there (pin on overlap). */
static TessResult draw_part(const char *dir, const char *name, int w, int h, double radius, bool disc,
                            TessError *err) {
  TessImage img;
  TessResult r = tess_image_create((uint32_t)w, (uint32_t)h, &img, err);
  if (r != TESS_OK) return r;
  RoundedBox box = {0, 0, w, h, radius};
  Circle head = {w / 2.0, h / 2.0, w / 2.0 - 0.5};
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double cov = disc ? coverage(x, y, inside_circle, &head) : coverage(x, y, inside_rounded_box, &box);
      if (cov <= 0) continue;
      /* grain along the part's long axis, a rounded shading across it */
      Rgba c = w >= h ? wood_texture(x, y) : wood_texture(y, x);
      double across = w >= h ? (y + 0.5) / h : (x + 0.5) / w;
      c = shade(add(c, 30), 0.75 + 0.35 * (1.0 - fabs(across - 0.4) * 1.6));
      c.a = 255 * cov;
      put(&img, x, y, c);
    }
  return save(&img, dir, name, err);
}

static TessResult draw_ragdoll(const char *dir, TessError *err) {
  TessResult r = draw_part(dir, "doll-head.png", 18, 18, 9, true, err);
  if (r == TESS_OK) r = draw_part(dir, "doll-torso.png", 16, 28, 4, false, err);
  if (r == TESS_OK) r = draw_part(dir, "doll-upper-arm.png", 18, 8, 3.5, false, err);
  if (r == TESS_OK) r = draw_part(dir, "doll-lower-arm.png", 16, 7, 3, false, err);
  if (r == TESS_OK) r = draw_part(dir, "doll-upper-leg.png", 9, 20, 4, false, err);
  if (r == TESS_OK) r = draw_part(dir, "doll-lower-leg.png", 8, 19, 3.5, false, err);
  return r;
}

/* A tree seen from a top-down game's three-quarter view: a round, lumpy crown of leaves over a
 * trunk whose roots flare on the ground at the bottom of the image (the sprite's anchor). In a level
 * that sorts by y, a body north of the trunk is drawn behind the crown, one south of it in front. */
typedef struct Crown {
  double cx, cy, r;
} Crown;
static bool inside_crown(double x, double y, const void *shape) {
  const Crown *c = shape;
  double dx = x - c->cx, dy = y - c->cy, a = atan2(dy, dx);
  double r = c->r * (0.9 + 0.1 * sin(7.0 * a + 0.6)); /* seven lobes of leaves */
  return dx * dx + dy * dy <= r * r;
}

static bool inside_roots(double x, double y, const void *shape) {
  const Crown *c = shape;
  double dx = (x - c->cx) / 15.0, dy = (y - c->cy) / 4.0;
  return dx * dx + dy * dy <= c->r;
}

static TessResult draw_tree(const char *dir, TessError *err) {
  TessImage img;
  TessResult r = tess_image_create(48, 72, &img, err);
  if (r != TESS_OK) return r;
  Crown crown = {24, 25, 23};
  RoundedBox trunk = {19, 36, 29, 68, 3};
  Crown roots = {24, 67, 1}; /* an ellipse 15 x 4 px: the roots flare where the trunk meets the ground */
  for (int y = 0; y < 72; y++)
    for (int x = 0; x < 48; x++) {
      double leaves = coverage(x, y, inside_crown, &crown), bark = coverage(x, y, inside_rounded_box, &trunk);
      double flare = coverage(x, y, inside_roots, &roots);
      if (flare > bark) bark = flare;
      if (leaves <= 0 && bark <= 0) continue;
      Rgba c;
      double cov;
      if (leaves > 0) {
        /* leaf clumps (Worley cells) lit from the top-left, darker towards the crown's underside */
        Worley w = worley(x + 0.5, y + 0.5, 4, 181);
        c = mix(rgba(30, 78, 34, 255), rgba(96, 160, 70, 255), 0.35 + 0.5 * fbm(x, y, 173));
        if (w.d2 - w.d1 < 0.5) c = shade(c, 0.84);
        c = add(c, (24 - (x + 0.5)) * 0.7 + (25 - (y + 0.5)) * 0.9);
        cov = leaves;
        if (bark > 0 && leaves < 1) c = mix(shade(rgba(104, 70, 42, 255), 0.6), c, leaves); /* the crown's edge on the trunk */
        if (bark > cov) cov = bark;
      } else {
        c = mix(rgba(84, 56, 34, 255), rgba(128, 88, 54, 255), fbm(x * 3.0, y * 0.5, 179)); /* vertical bark grain */
        if (y < 50) c = shade(c, 0.6 + 0.02 * (y - 36));                                    /* the crown's shadow */
        cov = bark;
      }
      c.a = 255 * cov;
      put(&img, x, y, c);
    }
  return save(&img, dir, "tree.png", err);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  TessError err;
  tess_error_clear(&err);
  TessResult (*const steps[])(const char *, TessError *) = {draw_terrain, draw_crate, draw_barrel, draw_ball,
                                                            draw_rock, draw_star, draw_coin, draw_ragdoll, draw_tree};
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    if (steps[i](argv[1], &err) != TESS_OK) {
      char buf[1200];
      tess_error_format(&err, buf, sizeof buf);
      fprintf(stderr, "draw-demo-art: %s\n", buf);
      return 1;
    }
  }
  return 0;
}
