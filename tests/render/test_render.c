/* core/render: flips pixel-exact, a level against a checked-in reference,
 * what each overlay draws, and the chunk cache's invalidation. */
#include <cairo.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "render_fixture.h"
#include "tessera/image.h"
#include "tessera/render.h"

/* ---- helpers ---- */

static uint32_t pixel(cairo_surface_t *s, int x, int y) {
  cairo_surface_flush(s);
  const uint8_t *d = cairo_image_surface_get_data(s);
  return ((const uint32_t *)(const void *)(d + (size_t)y * (size_t)cairo_image_surface_get_stride(s)))[x];
}

static cairo_surface_t *draw_view(TessRenderer *r, const TessLevel *level, double ox, double oy, double zoom, int w,
                                  int h, const TessRenderOptions *o) {
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create(s);
  TessRenderView v = {ox, oy, zoom, w, h};
  TessError err;
  CHECK_OK(tess_renderer_draw(r, cr, level, &v, o, &err), &err);
  cairo_destroy(cr);
  cairo_surface_flush(s);
  return s;
}

/* Number of pixels whose channels differ by more than tol. */
static long surfaces_differ(cairo_surface_t *a, cairo_surface_t *b, int tol) {
  int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
  if (w != cairo_image_surface_get_width(b) || h != cairo_image_surface_get_height(b)) return -1;
  long n = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint32_t p = pixel(a, x, y), q = pixel(b, x, y);
      for (int k = 0; k < 32; k += 8) {
        int d = (int)((p >> k) & 0xFF) - (int)((q >> k) & 0xFF);
        if (abs(d) > tol) {
          n++;
          break;
        }
      }
    }
  return n;
}

static void save_png(cairo_surface_t *s, const char *name) {
  char path[1024];
  tess_test_path(path, sizeof path, name);
  cairo_surface_write_to_png(s, path);
  if (getenv("TESS_SHOT_DIR")) { /* to look at them after a passing run */
    snprintf(path, sizeof path, "%s/%s", getenv("TESS_SHOT_DIR"), name);
    cairo_surface_write_to_png(s, path);
  }
}

/* Compares with tests/render/reference/<name> (RGBA, straight alpha) within
 * `tol` per channel. TESS_UPDATE_REFERENCE=1 rewrites the reference. */
static void check_reference(cairo_surface_t *s, const char *name, int tol) {
  const char *root = getenv("TESS_SOURCE_ROOT");
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/render/reference/%s", root ? root : ".", name);
  TessImage got;
  TessError err;
  CHECK_OK(tess_render_surface_to_image(s, &got, &err), &err);
  if (getenv("TESS_UPDATE_REFERENCE")) {
    CHECK_OK(tess_png_save(tess_image_view(&got), path, &err), &err);
    fprintf(stderr, "wrote reference %s\n", path);
  }
  TessImage want;
  TessResult r = tess_png_load(path, &want, &err);
  CHECK_MSG(r == TESS_OK, "reference %s missing (run with TESS_UPDATE_REFERENCE=1 once)", path);
  if (r == TESS_OK) {
    CHECK(want.width == got.width && want.height == got.height);
    long bad = 0;
    int worst = 0;
    for (uint32_t y = 0; y < got.height && y < want.height; y++)
      for (uint32_t x = 0; x < got.width && x < want.width; x++) {
        const uint8_t *a = got.pixels + y * got.stride + 4 * x, *b = want.pixels + y * want.stride + 4 * x;
        int d = 0;
        for (int k = 0; k < 4; k++) {
          int dk = abs((int)a[k] - (int)b[k]);
          if (a[3] == 0 && b[3] == 0) dk = 0; /* colour of a transparent pixel is meaningless */
          if (dk > d) d = dk;
        }
        if (d > worst) worst = d;
        if (d > tol) bad++;
      }
    CHECK_MSG(bad == 0, "%s: %ld pixels differ by more than %d (worst %d); see %s", name, bad, tol, worst,
              tess_test_tmpdir());
    tess_image_clear(&want);
  }
  tess_image_clear(&got);
}

/* ---- flips ---- */

/* A 4 x 4 tileset of one tile whose 16 pixels all differ. */
static TessProject *flip_project(void) {
  TessProject *p = tess_project_create();
  TessImage img;
  tess_image_create(4, 4, &img, NULL);
  for (uint32_t y = 0; y < 4; y++)
    for (uint32_t x = 0; x < 4; x++) {
      uint8_t *px = img.pixels + y * img.stride + 4 * x;
      px[0] = (uint8_t)(x * 60 + 10);
      px[1] = (uint8_t)(y * 60 + 10);
      px[2] = (uint8_t)((x * 4 + y) * 15);
      px[3] = 255;
    }
  uint8_t *png;
  size_t size;
  tess_png_encode(tess_image_view(&img), &png, &size, NULL);
  tess_image_clear(&img);
  TessTileInfo info;
  memset(&info, 0, sizeof info);
  TessTileset ts;
  memset(&ts, 0, sizeof ts);
  ts.id = 1;
  snprintf(ts.name, sizeof ts.name, "flip");
  ts.png = png;
  ts.png_size = size;
  ts.image_w = ts.image_h = 4;
  ts.tile_w = ts.tile_h = 4;
  ts.columns = 1;
  ts.tile_count = 1;
  ts.alpha_threshold = 1;
  ts.tiles = &info;
  TessError err;
  CHECK_OK(tess_project_insert_tileset(p, &ts, &err), &err);
  tess_free(png);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "flips");
  s.width = 8;
  s.height = 1;
  s.tile_w = s.tile_h = 4;
  TessLevel *level;
  CHECK_OK(tess_project_insert_level(p, 1, &s, &level, &err), &err);
  TessLayerProps props;
  memset(&props, 0, sizeof props);
  props.id = 1;
  snprintf(props.name, sizeof props.name, "g");
  props.kind = TESS_LAYER_TILES;
  props.visible = true;
  props.collides = true;
  props.opacity = 1;
  TessLayer *layer;
  CHECK_OK(tess_level_insert_layer(p, level, &props, &layer, &err), &err);
  uint32_t cells[TESS_CHUNK_CELLS] = {0};
  for (uint32_t f = 0; f < 8; f++) cells[f] = TESS_CELL_MAKE(1, 0, f << 29);
  CHECK_OK(tess_layer_insert_chunk(layer, 0, 0, cells, &err), &err);
  return p;
}

static void flips_are_pixel_exact(void) {
  TessProject *p = flip_project();
  TessLevel *level = p->levels[0];
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_TILES;
  for (int cached = 0; cached < 2; cached++) {
    o.use_cache = cached != 0;
    TessRenderer *r = tess_renderer_create(p);
    cairo_surface_t *s = draw_view(r, level, 0, 0, 1.0, 32, 4, &o);
    for (uint32_t f = 0; f < 8; f++) {
      TessCell cell = TESS_CELL_MAKE(1, 0, f << 29);
      for (int sy = 0; sy < 4; sy++)
        for (int sx = 0; sx < 4; sx++) {
          /* Tiled: diagonal (swap x and y), then horizontal, then vertical. */
          int dx = sx, dy = sy;
          if (cell & TESS_CELL_FLIP_D) {
            int t = dx;
            dx = dy;
            dy = t;
          }
          if (cell & TESS_CELL_FLIP_H) dx = 3 - dx;
          if (cell & TESS_CELL_FLIP_V) dy = 3 - dy;
          uint32_t want = 0xFF000000u | (uint32_t)(sx * 60 + 10) << 16 | (uint32_t)(sy * 60 + 10) << 8 |
                          (uint32_t)((sx * 4 + sy) * 15);
          uint32_t got = pixel(s, (int)f * 4 + dx, dy);
          CHECK_MSG(got == want, "flips %u, source (%d,%d) -> (%d,%d): got %08x want %08x", f, sx, sy, dx, dy, got,
                    want);
          /* core/level's point transform (used for traced shapes) agrees. */
          TessVec2 q = tess_cell_transform_point(cell, tess_v2(sx + 0.5f, sy + 0.5f), 4, 4);
          CHECK_NEAR(q.x, dx + 0.5, 1e-5);
          CHECK_NEAR(q.y, dy + 0.5, 1e-5);
        }
    }
    /* Rotation by 90 degrees clockwise is diagonal + horizontal (Tiled's Z). */
    uint32_t top_left = pixel(s, 0, 0);
    uint32_t rot = pixel(s, (int)((TESS_CELL_FLIP_D | TESS_CELL_FLIP_H) >> 29) * 4 + 3, 0);
    CHECK(top_left == rot);
    save_png(s, cached ? "flips-cached.png" : "flips.png");
    cairo_surface_destroy(s);
    tess_renderer_destroy(r);
  }
  tess_project_destroy(p);
}

/* ---- the small level against its reference ---- */

static void small_level_matches_reference(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_small_level(p);
  CHECK(level != NULL);
  if (!level) {
    tess_project_destroy(p);
    return;
  }
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_TILES | TESS_RENDER_MATERIALS | TESS_RENDER_OBJECTS | TESS_RENDER_COLLISION |
            TESS_RENDER_GRID | TESS_RENDER_BACKGROUND | TESS_RENDER_BOUNDS;
  o.selected_object = 2;
  cairo_surface_t *s = NULL;
  TessError err;
  CHECK_OK(tess_render_level_to_surface(p, level, 2.0, &o, &s, &err), &err);
  if (s) {
    CHECK(cairo_image_surface_get_width(s) == 12 * 16 * 2 && cairo_image_surface_get_height(s) == 8 * 16 * 2);
    save_png(s, "small-level.png");
    check_reference(s, "small-level.png", 3);
    cairo_surface_destroy(s);
  }
  /* Tiles only, scale 1: an exact, font-free reference. */
  o.flags = TESS_RENDER_TILES;
  CHECK_OK(tess_render_level_to_surface(p, level, 1.0, &o, &s, &err), &err);
  if (s) {
    save_png(s, "small-tiles.png");
    check_reference(s, "small-tiles.png", 1);
    cairo_surface_destroy(s);
  }
  tess_project_destroy(p);
}

/* ---- what each part draws, checked against the model ---- */

static void layers_honour_visibility_and_opacity(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_small_level(p);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_TILES;
  TessRenderer *r = tess_renderer_create(p);
  /* Cell (3,4) holds only a decor tile (12 + 3 % 2 = 13, yellow) at opacity 0.5. */
  cairo_surface_t *s = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  uint32_t c = pixel(s, 3 * 16 + 10, 4 * 16 + 10);
  CHECK_MSG((c >> 24) >= 126 && (c >> 24) <= 129, "alpha %u", c >> 24);
  CHECK_NEAR((c >> 16) & 0xFF, 230 / 2, 2);
  cairo_surface_destroy(s);
  /* Hidden: nothing there. The change is a layer change: blocks are dropped. */
  TessLayer *decor = tess_level_layer(level, FIX_LAYER_DECOR);
  decor->props.visible = false; /* as the edit would; the test owns the model */
  TessChange ch = {TESS_CHANGE_LAYER, FIX_LAYER_DECOR, level->id, FIX_LAYER_DECOR, 0, 0};
  tess_renderer_invalidate(r, &ch);
  s = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  CHECK(pixel(s, 3 * 16 + 10, 4 * 16 + 10) == 0);
  cairo_surface_destroy(s);
  decor->props.visible = true;
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

static void material_overlay_uses_effective_material(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_small_level(p);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_MATERIALS;
  o.material_alpha = 1.0;
  TessRenderer *r = tess_renderer_create(p);
  cairo_surface_t *s = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  /* (5,6): grass tile overridden with ice; (1,6): grass; (10,1): painted stone; (5,3): nothing. */
  CHECK(pixel(s, 5 * 16 + 8, 6 * 16 + 8) == 0xFFB0F0FFu);
  CHECK(pixel(s, 1 * 16 + 8, 6 * 16 + 8) == 0xFF40D040u);
  CHECK(pixel(s, 10 * 16 + 8, 1 * 16 + 8) == 0xFF8890A0u);
  CHECK(pixel(s, 5 * 16 + 8, 3 * 16 + 8) == 0);
  cairo_surface_destroy(s);
  /* The cached blocks follow a change of the overlay's opacity. */
  o.material_alpha = 0.5;
  s = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  CHECK_NEAR(pixel(s, 1 * 16 + 8, 6 * 16 + 8) >> 24, 128, 1);
  cairo_surface_destroy(s);
  TessLegendEntry e[8];
  size_t n = tess_render_material_legend(p, level, 0, 0, 12, 8, e, 8);
  CHECK(n == 4);
  /* Stone: 12 + 7 + 7 wall cells, two slopes, one painted cell. Grass: the
   * grass row less the 3 iced cells, the flipped row (tile 11), the decor row. */
  uint64_t stone = 0, ice = 0, water = 0, grass = 0;
  for (size_t i = 0; i < n && i < 8; i++) {
    if (e[i].material == FIX_STONE) stone = e[i].cells;
    if (e[i].material == FIX_ICE) ice = e[i].cells;
    if (e[i].material == FIX_WATER) water = e[i].cells;
    if (e[i].material == FIX_GRASS) grass = e[i].cells;
  }
  CHECK(ice == 3);
  CHECK(water == 3);
  CHECK(stone == 12 + 7 + 7 + 2 + 1);
  CHECK(grass == 10 - 3 + 8 + 6);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

static void collision_outlines_follow_the_rule(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_small_level(p);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_COLLISION;
  o.collision_color = 0xFF0000FFu;
  TessRenderer *r = tess_renderer_create(p);
  cairo_surface_t *s = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  /* The wall column 0 is outlined on its right edge (x = 16), not between two
   * walls (the edge between rows 6 and 7 of column 0). */
  uint32_t edge = pixel(s, 16, 3 * 16 + 8);
  CHECK_MSG((edge >> 24) > 60 && ((edge >> 16) & 0xFF) > 60, "edge %08x", edge);
  uint32_t inner = pixel(s, 8, 7 * 16);
  CHECK_MSG(((inner >> 16) & 0xFF) < 100, "inner %08x", inner);
  /* The painted stone cell (10,1) is a full square: its fill is translucent red. */
  uint32_t painted = pixel(s, 10 * 16 + 8, 1 * 16 + 8);
  CHECK_MSG((painted >> 24) > 40 && (painted >> 24) < 100, "painted %08x", painted);
  /* The slope at (9,5) is traced: lower-right half filled, upper-left empty. */
  CHECK(pixel(s, 9 * 16 + 12, 5 * 16 + 12) >> 24 > 40);
  CHECK(pixel(s, 9 * 16 + 3, 5 * 16 + 3) >> 24 == 0);
  /* The mirrored slope at (8,5): lower-left half. */
  CHECK(pixel(s, 8 * 16 + 3, 5 * 16 + 12) >> 24 > 40);
  CHECK(pixel(s, 8 * 16 + 12, 5 * 16 + 3) >> 24 == 0);
  /* Grass and water do not collide. */
  CHECK(pixel(s, 3 * 16 + 8, 5 * 16 + 8) == 0);
  save_png(s, "collision.png");
  cairo_surface_destroy(s);
  /* Tile 3 as a one-way platform: wall cell (0, 3) shows only its top edge
   * (no fill), and the wall under it gains its top edge. */
  tess_project_tileset(p, FIX_TILESET)->tiles[3].one_way = 1; /* the test owns the model */
  TessChange ch = {TESS_CHANGE_TILESET, FIX_TILESET, 0, 0, 0, 0};
  tess_renderer_invalidate(r, &ch);
  s = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  CHECK(pixel(s, 6, 3 * 16) >> 24 > 60);     /* the top edge */
  CHECK(pixel(s, 6, 3 * 16 + 10) == 0);      /* no fill inside */
  CHECK(pixel(s, 6, 4 * 16) >> 24 > 60);     /* the wall below: its top edge now shows */
  CHECK(pixel(s, 6, 2 * 16 + 8) >> 24 > 40); /* the wall above is still filled */
  cairo_surface_destroy(s);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

/* Issue 14: a wall made by a solid material alone (stone painted on the
 * empty cell (10,1)) is hatched in the material's colour with the tiles,
 * overlay or not; cells with a colliding tile, or a non-solid material, are
 * drawn exactly as the tiles alone. A change of the material's colour
 * reaches the cached picture. */
static void material_walls_are_hatched(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_small_level(p);
  TessRenderOptions o;
  tess_render_options_default(&o);
  CHECK(o.flags & TESS_RENDER_WALLS); /* on by default */
  o.flags = TESS_RENDER_TILES;
  TessRenderer *r = tess_renderer_create(p);
  cairo_surface_t *tiles = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  o.flags = TESS_RENDER_TILES | TESS_RENDER_WALLS;
  cairo_surface_t *walls = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  int covered = 0, full_colour = 0, elsewhere = 0;
  for (int y = 0; y < 128; y++)
    for (int x = 0; x < 192; x++) {
      uint32_t a = pixel(tiles, x, y), b = pixel(walls, x, y);
      bool in_cell = x >= 10 * 16 && x < 11 * 16 && y >= 16 && y < 32;
      if (!in_cell) {
        elsewhere += a != b;
        continue;
      }
      CHECK(a == 0); /* nothing there before */
      covered += (b >> 24) > 60;
      full_colour += b == 0xFF8890A0u; /* stone, opaque: the hatch lines */
      /* Every pixel is the stone colour at some coverage (premultiplied). */
      uint32_t al = b >> 24;
      if (al) CHECK_MSG(abs((int)((b >> 16) & 0xFF) - (int)(0x88 * al / 255)) <= 2, "%08x", b);
    }
  CHECK_MSG(covered == 256, "%d of 256 pixels of the wall cell are drawn", covered);
  CHECK_MSG(full_colour >= 40 && full_colour < 200, "%d pixels carry the hatch", full_colour);
  CHECK_MSG(elsewhere == 0, "%d pixels changed outside the painted wall", elsewhere);
  cairo_surface_destroy(walls);
  /* Stone turns red: the cached block follows. */
  TessMaterial *stone = NULL;
  for (uint32_t i = 0; i < p->material_count; i++)
    if (p->materials[i].id == FIX_STONE) stone = &p->materials[i];
  stone->color = 0xFF0000FFu; /* the test owns the model */
  TessChange ch = {TESS_CHANGE_MATERIAL, FIX_STONE, 0, 0, 0, 0};
  tess_renderer_invalidate(r, &ch);
  walls = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  int red = 0;
  for (int y = 16; y < 32; y++)
    for (int x = 160; x < 176; x++) red += pixel(walls, x, y) == 0xFFFF0000u;
  CHECK_MSG(red == full_colour, "%d red hatch pixels, %d before", red, full_colour);
  /* Floor and fluid paint makes no wall: water over an empty cell stays empty. */
  stone->kind = TESS_MATERIAL_FLOOR;
  tess_renderer_invalidate(r, &ch);
  cairo_surface_destroy(walls);
  walls = draw_view(r, level, 0, 0, 1.0, 192, 128, &o);
  CHECK(surfaces_differ(walls, tiles, 0) == 0);
  cairo_surface_destroy(walls);
  cairo_surface_destroy(tiles);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

static void grid_lines_sit_on_cell_edges(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_small_level(p);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_GRID;
  o.grid_color = 0xFFFFFFFFu;
  TessRenderer *r = tess_renderer_create(p);
  cairo_surface_t *s = draw_view(r, level, 0, 0, 2.0, 400, 300, &o);
  CHECK(pixel(s, 64, 10) == 0xFFFFFFFFu); /* x = 2 cells * 16 px * 2 */
  CHECK(pixel(s, 65, 10) == 0);
  CHECK(pixel(s, 10, 96) == 0xFFFFFFFFu);
  CHECK(pixel(s, 390, 10) == 0); /* beyond the level (384 px wide) */
  cairo_surface_destroy(s);
  /* At 1/16 the cells are 1 px: only chunk lines, and here none fit. */
  s = draw_view(r, level, 0, 0, 1.0 / 16, 400, 300, &o);
  long lit = 0;
  for (int x = 0; x < 20; x++) lit += pixel(s, x, 2) != 0;
  CHECK(lit <= 2);
  cairo_surface_destroy(s);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

static void broken_tileset_is_reported_and_drawn_as_missing(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_small_level(p);
  TessTileset *ts = tess_project_tileset(p, FIX_TILESET);
  ts->png[20] ^= 0x5A; /* corrupt the IHDR: the test owns the model */
  TessRenderer *r = tess_renderer_create(p);
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 192, 128);
  cairo_t *cr = cairo_create(s);
  TessRenderView v = {0, 0, 1.0, 192, 128};
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_TILES;
  TessError err;
  tess_error_clear(&err);
  TessResult res = tess_renderer_draw(r, cr, level, &v, &o, &err);
  CHECK(res != TESS_OK);
  CHECK(strstr(err.file, "Fixture tiles") != NULL);
  cairo_destroy(cr);
  CHECK(pixel(s, 2, 7 * 16 + 2) == 0xD9D900D9u || (pixel(s, 2, 7 * 16 + 2) >> 24) > 200); /* magenta check */
  cairo_surface_destroy(s);
  CHECK(tess_renderer_tileset_surface(r, FIX_TILESET, &err) == NULL);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

static void level_png_round_trips(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_small_level(p);
  TessRenderOptions o;
  tess_render_options_default(&o);
  char path[1024];
  tess_test_path(path, sizeof path, "level-export.png");
  TessError err;
  CHECK_OK(tess_render_level_to_png(p, level, 1.0, &o, path, &err), &err);
  TessImage img;
  CHECK_OK(tess_png_load(path, &img, &err), &err);
  CHECK(img.width == 192 && img.height == 128);
  cairo_surface_t *s = NULL;
  CHECK_OK(tess_render_level_to_surface(p, level, 1.0, &o, &s, &err), &err);
  TessImage direct;
  CHECK_OK(tess_render_surface_to_image(s, &direct, &err), &err);
  CHECK(memcmp(direct.pixels, img.pixels, img.stride * img.height) == 0);
  tess_image_clear(&direct);
  tess_image_clear(&img);
  cairo_surface_destroy(s);
  /* Too large an image is refused before anything is allocated. */
  CHECK(tess_render_level_to_surface(p, level, 1000.0, &o, &s, &err) == TESS_ERR_LIMIT);
  CHECK(tess_render_level_to_surface(p, level, -1.0, &o, &s, &err) == TESS_ERR_INVALID);
  tess_project_destroy(p);
}

/* ---- the chunk cache ---- */

static TessRenderer *listener_renderer;
static void forward_change(const TessChange *change, void *user) {
  (void)user;
  if (listener_renderer) tess_renderer_invalidate(listener_renderer, change);
}

/* Tile 16 (the tileset's own size) takes the C blit; tile 8 the cairo path,
 * with the 16 px tiles scaled into the 8 px cells (fit_cell), or at their
 * own size (native): then each tile reaches 8 px into the cells to its right
 * and above, so an edit also redraws the chunks it reaches (`reach`: the
 * chunks redrawn for one cell inside a chunk, and for a 2 x 2 rectangle
 * across a chunk corner). */
static void cache_redraws_exactly_the_edited_chunks_at(uint32_t tile, bool fit, uint64_t one_cell, uint64_t corner) {
  TessProject *p = fixture_project();
  p->tilesets[0]->fit_cell = fit ? 1 : 0;
  TessLevel *level = fixture_big_level(p, 2, 256, 256, tile);
  CHECK(level != NULL);
  if (!level) {
    tess_project_destroy(p);
    return;
  }
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_TILES | TESS_RENDER_MATERIALS; /* baked content, no background: exact compare */
  TessRenderer *r = tess_renderer_create(p);
  listener_renderer = r;
  tess_project_set_listener(p, forward_change, NULL);
  const double zooms[3] = {1.0, 0.25, 1.0 / 16};
  const int W = 1000, H = 800;
  /* Fill the cache at each zoom, then a second draw renders nothing. */
  for (int z = 0; z < 3; z++) cairo_surface_destroy(draw_view(r, level, 100, 60, zooms[z], W, H, &o));
  TessRenderStats st;
  tess_renderer_reset_stats(r);
  for (int z = 0; z < 3; z++) cairo_surface_destroy(draw_view(r, level, 100, 60, zooms[z], W, H, &o));
  tess_renderer_stats(r, &st);
  CHECK(st.chunks_rendered == 0);
  CHECK(st.block_hits > 0);

  /* One cell of chunk (1, 1) changes: each zoom redraws exactly one chunk. */
  TessCell stamp = TESS_CELL_MAKE(FIX_TILESET, 13, TESS_CELL_FLIP_D);
  TessError err;
  CHECK_OK(tess_edit_paint(p, level->id, 21, 1 * 32 + 5, 1 * 32 + 7, 1, 1, &stamp, 0, &err), &err);
  CHECK_OK(tess_edit_paint_material(p, level->id, 1 * 32 + 6, 1 * 32 + 7, 1, 1, FIX_ICE, 0, &err), &err);
  for (int z = 0; z < 3; z++) {
    tess_renderer_reset_stats(r);
    cairo_surface_t *cached = draw_view(r, level, 100, 60, zooms[z], W, H, &o);
    tess_renderer_stats(r, &st);
    CHECK_MSG(st.chunks_rendered == one_cell, "tile %u fit %d zoom %g: %llu chunks redrawn, not %llu", tile, (int)fit, zooms[z],
              (unsigned long long)st.chunks_rendered, (unsigned long long)one_cell);
    TessRenderer *fresh = tess_renderer_create(p);
    cairo_surface_t *cold = draw_view(fresh, level, 100, 60, zooms[z], W, H, &o);
    CHECK_MSG(surfaces_differ(cached, cold, 0) == 0, "zoom %g: cached differs from a fresh draw", zooms[z]);
    if (z == 0) {
      /* At zoom 1 the cache is exactly the direct drawing of the cells. */
      TessRenderOptions direct = o;
      direct.use_cache = false;
      cairo_surface_t *d = draw_view(fresh, level, 100, 60, 1.0, W, H, &direct);
      long differ = surfaces_differ(cached, d, 0);
      CHECK_MSG(differ == 0, "tile %u: %ld pixels differ between the cache and the direct path", tile, differ);
      save_png(d, "cache-direct.png");
      cairo_surface_destroy(d);
      save_png(cached, "cache-zoom1.png");
    }
    if (z == 2) save_png(cached, "cache-zoom16.png");
    cairo_surface_destroy(cold);
    cairo_surface_destroy(cached);
    tess_renderer_destroy(fresh);
  }
  /* A rectangle across a chunk corner touches four chunks; undo touches them again. */
  CHECK_OK(tess_edit_fill_rect(p, level->id, 21, 1 * 32 - 1, 1 * 32 - 1, 2, 2, stamp, 0, &err), &err);
  tess_renderer_reset_stats(r);
  cairo_surface_destroy(draw_view(r, level, 100, 60, 1.0, W, H, &o));
  tess_renderer_stats(r, &st);
  CHECK_MSG(st.chunks_rendered == corner, "%llu chunks redrawn, not %llu", (unsigned long long)st.chunks_rendered,
            (unsigned long long)corner);
  CHECK_OK(tess_project_undo(p, &err), &err);
  tess_renderer_reset_stats(r);
  cairo_surface_t *after_undo = draw_view(r, level, 100, 60, 1.0, W, H, &o);
  tess_renderer_stats(r, &st);
  CHECK(st.chunks_rendered == corner);
  TessRenderer *fresh = tess_renderer_create(p);
  cairo_surface_t *cold = draw_view(fresh, level, 100, 60, 1.0, W, H, &o);
  CHECK(surfaces_differ(after_undo, cold, 0) == 0);
  cairo_surface_destroy(after_undo);
  cairo_surface_destroy(cold);

  /* Without the invalidation the cache is stale, and the comparison sees it. */
  tess_project_set_listener(p, NULL, NULL);
  CHECK_OK(tess_edit_paint(p, level->id, 21, 1 * 32 + 9, 1 * 32 + 9, 1, 1, &stamp, 0, &err), &err);
  cairo_surface_t *stale = draw_view(r, level, 100, 60, 1.0, W, H, &o);
  TessRenderer *fresh2 = tess_renderer_create(p);
  cold = draw_view(fresh2, level, 100, 60, 1.0, W, H, &o);
  CHECK(surfaces_differ(stale, cold, 0) > 0);
  cairo_surface_destroy(stale);
  cairo_surface_destroy(cold);
  tess_renderer_destroy(fresh2);
  tess_renderer_destroy(fresh);
  listener_renderer = NULL;
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

static void cache_redraws_exactly_the_edited_chunks(void) {
  cache_redraws_exactly_the_edited_chunks_at(16, false, 1, 4);
  cache_redraws_exactly_the_edited_chunks_at(8, true, 1, 4);
  /* the chunk, the one to its right, above, above-right; the corner's four and the two right of them */
  cache_redraws_exactly_the_edited_chunks_at(8, false, 4, 6);
}

static void baked_collision_redraws_the_neighbouring_chunk(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_big_level(p, 2, 128, 128, 16);
  TessRenderer *r = tess_renderer_create(p);
  listener_renderer = r;
  tess_project_set_listener(p, forward_change, NULL);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_COLLISION; /* baked into the blocks below zoom 1/4 */
  cairo_surface_destroy(draw_view(r, level, 0, 0, 0.125, 256, 256, &o));
  /* Two walls side by side across the chunk edge x = 31 | 32. */
  int y = -1;
  for (int k = 0; k < 128 && y < 0; k++) {
    TessCellCollision a, b;
    tess_level_cell_collision(p, level, 31, (uint32_t)k, &a);
    tess_level_cell_collision(p, level, 32, (uint32_t)k, &b);
    if (a.kind == TESS_TILE_COLLISION_FULL && b.kind == TESS_TILE_COLLISION_FULL) y = k;
  }
  CHECK(y >= 0);
  TessError err;
  CHECK_OK(tess_edit_erase(p, level->id, 21, 32, y, 1, 1, 0, &err), &err);
  tess_renderer_reset_stats(r);
  cairo_surface_t *cached = draw_view(r, level, 0, 0, 0.125, 256, 256, &o);
  TessRenderStats st;
  tess_renderer_stats(r, &st);
  CHECK(st.chunks_rendered >= 2); /* the edited chunk and the one whose wall gained an edge */
  TessRenderer *fresh = tess_renderer_create(p);
  cairo_surface_t *cold = draw_view(fresh, level, 0, 0, 0.125, 256, 256, &o);
  CHECK(surfaces_differ(cached, cold, 0) == 0);
  save_png(cached, "collision-baked.png");
  cairo_surface_destroy(cached);
  cairo_surface_destroy(cold);
  tess_renderer_destroy(fresh);
  tess_project_set_listener(p, NULL, NULL);
  listener_renderer = NULL;
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

static void time_budget_spreads_a_cold_view_over_frames(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_big_level(p, 2, 256, 256, 16);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.time_budget_ms = 1e-6; /* one new block per frame */
  TessRenderer *r = tess_renderer_create(p);
  int frames = 0;
  cairo_surface_t *s = NULL;
  do {
    if (s) cairo_surface_destroy(s);
    s = draw_view(r, level, 300, 200, 1.0, 1200, 900, &o);
    frames++;
  } while (!tess_renderer_frame_complete(r) && frames < 100);
  CHECK(tess_renderer_frame_complete(r));
  TessRenderStats st;
  tess_renderer_stats(r, &st);
  /* The view (x 300..1500, y 200..1100) touches 3 x 3 blocks of 512 px: one per frame. */
  CHECK_MSG(frames == (int)st.blocks_created && frames == 9, "%d frames, %llu blocks", frames,
            (unsigned long long)st.blocks_created);
  CHECK(st.blocks_deferred == (uint64_t)(8 + 7 + 6 + 5 + 4 + 3 + 2 + 1));
  TessRenderOptions full = o;
  full.time_budget_ms = 0;
  TessRenderer *fresh = tess_renderer_create(p);
  cairo_surface_t *want = draw_view(fresh, level, 300, 200, 1.0, 1200, 900, &full);
  CHECK(tess_renderer_frame_complete(fresh));
  CHECK(surfaces_differ(s, want, 0) == 0);
  cairo_surface_destroy(want);
  cairo_surface_destroy(s);
  tess_renderer_destroy(fresh);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

static void cache_respects_its_memory_limit(void) {
  TessProject *p = fixture_project();
  TessLevel *level = fixture_big_level(p, 2, 512, 512, 16);
  TessRenderer *r = tess_renderer_create(p);
  tess_renderer_set_cache_limit(r, (size_t)8 << 20);
  TessRenderOptions o;
  tess_render_options_default(&o);
  /* Pan across the map: blocks of old frames are evicted. */
  for (int i = 0; i < 8; i++) cairo_surface_destroy(draw_view(r, level, i * 900.0, i * 700.0, 1.0, 800, 600, &o));
  TessRenderStats st;
  tess_renderer_stats(r, &st);
  CHECK_MSG(st.cache_bytes <= ((size_t)8 << 20), "%zu bytes", st.cache_bytes);
  CHECK(st.blocks_created > 8);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

/* Markers are drawn at a size in screen pixels, and picked at that size
 * whatever the zoom: zoomed in, a click beside a pin on a wheel picks the
 * wheel, not the pin; zoomed out, the 6 px ring is still a target. A body
 * is picked by its shape plus 4 screen pixels. */
static void markers_are_picked_at_their_drawn_size(void) {
  TessObject pin, wheel, spawn;
  tess_object_default(&pin, TESS_OBJECT_JOINT);
  pin.pos = tess_v2(100.0f, 100.0f);
  pin.u.joint.kind = TESS_JOINT_PIN;
  tess_object_default(&wheel, TESS_OBJECT_BODY);
  wheel.pos = pin.pos;
  wheel.u.body.shape = TESS_BODY_CIRCLE;
  wheel.u.body.radius = 10.0f;
  tess_object_default(&spawn, TESS_OBJECT_SPAWN);
  spawn.pos = tess_v2(300.0f, 100.0f);
  for (int z = 0; z < 3; z++) {
    double zoom = z == 0 ? 0.25 : (z == 1 ? 1.0 : 4.0);
    /* 9 and 11 screen px from the pin's centre: inside the ring + slop (10 px), then outside */
    CHECK(tess_render_object_hit(NULL, NULL, &pin, tess_v2(100.0f + (float)(9.0 / zoom), 100.0f), zoom));
    CHECK(!tess_render_object_hit(NULL, NULL, &pin, tess_v2(100.0f + (float)(11.0 / zoom), 100.0f), zoom));
    /* the flag, 15 screen px above the spawn point, and nothing 30 px to its right */
    CHECK(tess_render_object_hit(NULL, NULL, &spawn, tess_v2(300.0f + (float)(5.0 / zoom), 100.0f - (float)(15.0 / zoom)), zoom));
    CHECK(!tess_render_object_hit(NULL, NULL, &spawn, tess_v2(300.0f + (float)(30.0 / zoom), 100.0f), zoom));
  }
  /* zoomed in 4x: 8 level px from the centre (32 screen px) is on the wheel, off the pin */
  CHECK(!tess_render_object_hit(NULL, NULL, &pin, tess_v2(108.0f, 100.0f), 4.0));
  CHECK(tess_render_object_hit(NULL, NULL, &wheel, tess_v2(108.0f, 100.0f), 4.0));
  CHECK(tess_render_object_hit(NULL, NULL, &wheel, tess_v2(110.9f, 100.0f), 4.0));  /* within 4 screen px */
  CHECK(!tess_render_object_hit(NULL, NULL, &wheel, tess_v2(111.1f, 100.0f), 4.0)); /* beyond */
  tess_object_clear(&pin);
  tess_object_clear(&wheel);
  tess_object_clear(&spawn);
}

static void zoom_levels_draw_the_same_picture(void) {
  /* The far-zoom average path and the direct path agree on each cell's colour. */
  TessProject *p = fixture_project();
  TessLevel *level = fixture_big_level(p, 2, 256, 256, 16);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags = TESS_RENDER_TILES;
  TessRenderer *r = tess_renderer_create(p);
  cairo_surface_t *quarter = draw_view(r, level, 0, 0, 0.25, 512, 512, &o);
  save_png(quarter, "zoom4-cached.png");
  /* The 1/4 copy is the box filter of the full tiles: cell (0,0)'s top-left
   * 4 x 4 pixels average to the top-left pixel. */
  cairo_surface_t *full = draw_view(r, level, 0, 0, 1.0, 64, 64, &o);
  for (int ch = 0; ch < 24; ch += 8) {
    double mean = 0;
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 4; x++) mean += (pixel(full, x, y) >> ch) & 0xFF;
    CHECK_NEAR((pixel(quarter, 0, 0) >> ch) & 0xFF, mean / 16, 1.0);
  }
  cairo_surface_destroy(full);
  cairo_surface_destroy(quarter);
  cairo_surface_t *far = draw_view(r, level, 0, 0, 1.0 / 16, 256, 256, &o);
  save_png(far, "zoom16-cached.png");
  long opaque = 0;
  for (int y = 0; y < 256; y += 7)
    for (int x = 0; x < 256; x += 7) opaque += (pixel(far, x, y) >> 24) == 255;
  CHECK(opaque == 37 * 37);
  /* Cell (0,0) at 1/16 is one pixel: the mean of its 16 x 16 pixels. */
  TessImage img;
  fixture_tileset_image(&img, NULL);
  TessCell c0 = tess_layer_cell(level->layers[0], 0, 0);
  uint32_t t = TESS_CELL_TILE(c0), ox = (t % 4) * 16, oy = (t / 4) * 16;
  double sum = 0;
  for (uint32_t y = 0; y < 16; y++)
    for (uint32_t x = 0; x < 16; x++) sum += img.pixels[(oy + y) * img.stride + (ox + x) * 4];
  tess_image_clear(&img);
  CHECK_NEAR((pixel(far, 0, 0) >> 16) & 0xFF, sum / 256.0, 1.0);
  cairo_surface_destroy(far);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
}

TESS_TEST_MAIN(TEST(flips_are_pixel_exact), TEST(small_level_matches_reference),
               TEST(layers_honour_visibility_and_opacity), TEST(material_overlay_uses_effective_material),
               TEST(collision_outlines_follow_the_rule), TEST(material_walls_are_hatched),
               TEST(grid_lines_sit_on_cell_edges),
               TEST(broken_tileset_is_reported_and_drawn_as_missing), TEST(level_png_round_trips),
               TEST(cache_redraws_exactly_the_edited_chunks), TEST(baked_collision_redraws_the_neighbouring_chunk),
               TEST(time_budget_spreads_a_cold_view_over_frames), TEST(cache_respects_its_memory_limit),
               TEST(zoom_levels_draw_the_same_picture), TEST(markers_are_picked_at_their_drawn_size))
