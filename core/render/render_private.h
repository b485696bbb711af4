/* core/render internals: the renderer's caches and the painters they share. */
#ifndef TESS_RENDER_PRIVATE_H
#define TESS_RENDER_PRIVATE_H

#include "tessera/image.h"
#include "tessera/render.h"

/* Pre-rendered scales of the chunk cache: 1, 1/4 and 1/16 of level pixels. */
#define TESS_RENDER_LOD_COUNT 3
extern const double tess_render_lod_scale[TESS_RENDER_LOD_COUNT];

/* A block surface bigger than this (pixels per side) is not cached: huge
 * tiles seen up close are drawn directly, which is cheap there. */
#define TESS_RENDER_BLOCK_MAX_PX 2048
/* Blocks group up to 8 x 8 chunks (one bit per chunk in a 64-bit mask). */
#define TESS_RENDER_BLOCK_MAX_SPAN 8
#define TESS_RENDER_BLOCK_TARGET_PX 512

/* What a cached block has baked in (subset of TessRenderFlags). */
#define TESS_RENDER_BAKED (TESS_RENDER_TILES | TESS_RENDER_MATERIALS | TESS_RENDER_COLLISION | TESS_RENDER_WALLS)

typedef struct TessTileSurface {
  cairo_surface_t *surface; /* premultiplied ARGB32, the whole tileset image; NULL when it failed */
  cairo_pattern_t *pattern; /* on surface, filter NEAREST */
  uint32_t *average;        /* per tile: premultiplied ARGB32 average colour (far zoom) */
  uint32_t tile_count;
  TessResult failure; /* why surface is NULL */
  /* Box-filtered copies for the cache's reduced scales (index = LOD), tiles
   * repacked edge to edge; NULL when the tile size does not divide. */
  cairo_surface_t *mip[TESS_RENDER_LOD_COUNT];
  cairo_pattern_t *mip_pattern[TESS_RENDER_LOD_COUNT];
  bool mip_tried[TESS_RENDER_LOD_COUNT];
  char failure_detail[512];
} TessTileSurface;

typedef struct TessSpriteSurface {
  TessId id;
  cairo_surface_t *surface; /* NULL when the PNG failed to decode */
} TessSpriteSurface;

typedef struct TessBlock {
  TessId level;
  uint32_t bx, by; /* in blocks */
  uint8_t lod, content, span;
  int w, h; /* pixels */
  cairo_surface_t *surface;
  uint64_t dirty;         /* one bit per chunk of the block still to draw */
  uint64_t used;          /* frame of last use (LRU) */
  struct TessBlock *next; /* hash chain */
} TessBlock;

struct TessRenderer {
  const TessProject *project;
  TessTileSurface *tilesets[TESS_TILESET_ID_MAX + 1];
  TESS_ARRAY(TessSpriteSurface)
  sprites;
  TessBlock **buckets;
  size_t bucket_count, block_count;
  size_t cache_bytes, cache_limit;
  uint64_t frame;
  TessRenderStats stats;
  /* A tileset that failed to decode during the current draw (reported once per draw). */
  TessId failed_tileset;
  bool frame_incomplete;
  /* The options the cached blocks were drawn with (a change drops them). */
  double baked_material_alpha;
  uint32_t baked_collision_color;
  double frame_start; /* seconds (tess_now_seconds) */
};

/* ---- colours ---- */
static inline void render_set_rgba(cairo_t *cr, uint32_t rgba, double alpha_mul) {
  cairo_set_source_rgba(cr, ((rgba >> 24) & 0xFF) / 255.0, ((rgba >> 16) & 0xFF) / 255.0,
                        ((rgba >> 8) & 0xFF) / 255.0, (rgba & 0xFF) / 255.0 * alpha_mul);
}

/* ---- tileset and sprite surfaces (surfaces.c) ---- */
TessTileSurface *render_tileset(TessRenderer *r, TessId id);
void render_drop_tileset(TessRenderer *r, TessId id);
/* The tileset's copy at a LOD (tiles of tile_w >> 2*lod, repacked in its columns), or NULL. */
cairo_pattern_t *render_tileset_mip(TessTileSurface *ts, const TessTileset *def, int lod);
cairo_surface_t *render_sprite(TessRenderer *r, TessId id);
void render_drop_sprite(TessRenderer *r, TessId id);
void render_drop_surfaces(TessRenderer *r);
/* RGBA8 straight -> new premultiplied ARGB32 surface (NULL on failure). */
cairo_surface_t *render_surface_from_image(const TessImage *img);

/* ---- painters shared by the cache and the direct path (cells.c) ---- */
/* The cr's user space is level pixels. Cells [x0,x1) x [y0,y1), clipped by the caller. */
/* lod >= 0: the cr's scale is exactly that LOD's, and the tileset's box-filtered
 * copy at that scale is used when it exists; lod < 0: any scale (smooth when below 1). */
/* Widens cells [x0, x1) x [y0, y1) to the cells whose tiles may be drawn
 * into them (tiles larger than the grid, or moved by an offset). */
void render_reach_cells(const TessRenderer *r, const TessLevel *level, uint32_t *x0, uint32_t *y0, uint32_t *x1,
                        uint32_t *y1);
void render_paint_tiles(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                        uint32_t y1, int lod, bool smooth);
void render_paint_tiles_average(TessRenderer *r, cairo_surface_t *target, int ox, int oy, int w, int h,
                                const TessLevel *level, uint32_t cx, uint32_t cy, double scale);
/* Tiles of chunk (cx, cy), its first nx x ny cells, blitted in C at a LOD
 * where tiles are whole pixels (render_soft_ok), into target at (ox, oy). */
bool render_soft_ok(TessRenderer *r, const TessLevel *level, int lod);
void render_paint_tiles_soft(TessRenderer *r, cairo_surface_t *target, int ox, int oy, const TessLevel *level,
                             uint32_t cx, uint32_t cy, uint32_t nx, uint32_t ny, int lod);
/* Cells that are walls by a solid material alone (no colliding tile),
 * hatched in the material's colour; drawn with the tiles. */
void render_paint_material_walls(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0,
                                 uint32_t x1, uint32_t y1);
void render_paint_materials(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1, double alpha);
/* line_width in user units. */
void render_paint_collision(TessRenderer *r, cairo_t *cr, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1, uint32_t color, double line_width);
/* A magenta check for tiles that cannot be drawn. */
void render_paint_missing_tile(cairo_t *cr, double x, double y, double w, double h);
/* Draws one tile of a decoded tileset with its flips into (x, y, w, h) of user space. */
void render_paint_tile(cairo_t *cr, const TessTileset *ts, TessTileSurface *surf, TessCell cell, double x, double y,
                       double w, double h);

/* ---- chunk block cache (cache.c) ---- */
TessBlock *render_cache_find(TessRenderer *r, TessId level, uint8_t lod, uint8_t content, uint32_t bx, uint32_t by);
TessBlock *render_cache_insert(TessRenderer *r, TessId level, uint8_t lod, uint8_t content, uint32_t bx, uint32_t by,
                               uint8_t span, int w, int h);
void render_cache_drop_level(TessRenderer *r, TessId level);
void render_cache_drop_content(TessRenderer *r, uint8_t content_mask); /* blocks whose content intersects */
void render_cache_drop_all(TessRenderer *r);
void render_cache_mark_chunk(TessRenderer *r, const TessLevel *level, uint32_t cx, uint32_t cy);
void render_cache_trim(TessRenderer *r); /* LRU down to the limit, sparing blocks used this frame */
uint8_t render_cache_span(const TessLevel *level, int lod);

/* ---- vector overlays (objects.c, grid.c) ---- */
void render_paint_objects(TessRenderer *r, cairo_t *cr, const TessLevel *level, double tx, double ty, double zoom,
                          double vx0, double vy0, double vx1, double vy1, const TessRenderOptions *o);
void render_paint_grid(cairo_t *cr, const TessLevel *level, double tx, double ty, double zoom, uint32_t x0, uint32_t y0,
                       uint32_t x1, uint32_t y1, uint32_t color);

#endif
