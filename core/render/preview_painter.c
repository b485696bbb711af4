/* The editor's Play view: libtessera-draw (core/draw, the painter a game
 * links) fed from the level model. This file adds only what the runtime's
 * data lacks: the tiles (core/render's cached renderer, drawn once per view
 * as the painter's background) and the sprites' images (decoded from the
 * project's PNGs when a body first shows them). */
#include "tessera/render.h"

#include <string.h>

#include "tessera/draw.h"
#include "tessera/image.h"

_Static_assert((int)TESS_PREVIEW_OVERLAY_CONTACTS == (int)TESS_DRAW_OVERLAY_CONTACTS &&
                   (int)TESS_PREVIEW_OVERLAY_PINS == (int)TESS_DRAW_OVERLAY_PINS &&
                   (int)TESS_PREVIEW_OVERLAY_ALL == (int)TESS_DRAW_OVERLAY_ALL,
               "the preview's overlay bits are the painter's");

struct TessPreviewPainter {
  const TessProject *project;
  TessRenderer *renderer;
  TessDraw *draw;
  const TessPreviewLevel *shown; /* the preview whose tiles and order the painter holds */
};

/* Decodes a project sprite the first time a body shows it. */
static void sprite_source(void *user, TessDraw *d, uint32_t key) {
  TessPreviewPainter *pp = user;
  const TessSprite *s = tess_project_sprite(pp->project, key);
  if (!s) return;
  TessImage img;
  TessError err;
  if (tess_png_decode(s->png, s->png_size, s->name, &img, &err) != TESS_OK) return; /* drawn as its shapes */
  (void)tess_draw_set_sprite(d, key, img.pixels, img.width, img.height, img.stride, s->frame_count ? s->frame_count : 1,
                             s->frame_rate, &err);
  tess_image_clear(&img);
}

/* The tiles under the bodies, as the map view draws them. */
static void tiles_background(void *user, cairo_t *cr, const TessDrawView *view) {
  TessPreviewPainter *pp = user;
  if (!pp->shown) return;
  TessRenderOptions opt;
  tess_render_options_default(&opt);
  opt.flags = TESS_RENDER_TILES | TESS_RENDER_WALLS | TESS_RENDER_BACKGROUND | TESS_RENDER_BOUNDS;
  TessRenderView rv = {view->origin_x, view->origin_y, view->zoom, view->width, view->height};
  tess_renderer_draw(pp->renderer, cr, pp->shown->level, &rv, &opt, NULL);
}

TessPreviewPainter *tess_preview_painter_create(const TessProject *project) {
  TessPreviewPainter *pp = tess_calloc(1, sizeof *pp);
  if (!pp) return NULL;
  pp->project = project;
  pp->renderer = tess_renderer_create(project);
  pp->draw = tess_draw_create();
  if (!pp->renderer || !pp->draw) {
    tess_preview_painter_destroy(pp);
    return NULL;
  }
  tess_draw_set_sprite_source(pp->draw, sprite_source, pp);
  tess_draw_set_background(pp->draw, tiles_background, pp);
  return pp;
}

void tess_preview_painter_destroy(TessPreviewPainter *pp) {
  if (!pp) return;
  tess_draw_destroy(pp->draw);
  tess_renderer_destroy(pp->renderer);
  tess_free(pp);
}

TessRenderer *tess_preview_painter_renderer(TessPreviewPainter *pp) { return pp->renderer; }

void tess_preview_painter_advance_animation(TessPreviewPainter *pp, double sim_seconds) {
  /* Every animated sprite keeps its phase, drawn or not. */
  for (uint32_t i = 0; i < pp->project->sprite_count; i++)
    if (pp->project->sprites[i]->frame_count > 1) tess_draw_want_sprite(pp->draw, pp->project->sprites[i]->id);
  tess_draw_advance_animation(pp->draw, sim_seconds);
}

uint32_t tess_preview_painter_sprite_frame(const TessPreviewPainter *pp, TessId sprite) {
  return tess_draw_sprite_frame(pp->draw, sprite);
}

void tess_preview_painter_collect_contacts(TessPreviewPainter *pp, const TessPreviewLevel *pl) {
  tess_draw_collect_playback_impacts(pp->draw, pl->playback);
}

void tess_preview_painter_clear_contacts(TessPreviewPainter *pp) { tess_draw_clear_impacts(pp->draw); }

/* The level's draw order for the playback's bodies (each from its object:
 * its layer's rank, its depth, its layer's y sorting), as the map view
 * orders the objects; bodies spawned while playing draw last. */
static void set_order(TessPreviewPainter *pp, const TessPreviewLevel *pl) {
  uint32_t n = tess_playback_body_count(pl->playback);
  int32_t *depth = tess_calloc(n ? n : 1, sizeof *depth);
  uint8_t *y_sort = tess_calloc(n ? n : 1, 1);
  if (depth && y_sort) {
    for (uint32_t i = 0; i < n; i++) {
      const TessPlaybackBody *b = tess_playback_body(pl->playback, i);
      TessLayer *layer = NULL;
      const TessObject *o = b->object ? tess_level_object(pl->level, b->object, &layer) : NULL;
      depth[i] = o ? tess_depth_key(tess_level_object_layer_rank(pl->level, layer), o->depth) : INT32_MAX;
      y_sort[i] = o && layer->props.y_sort;
    }
    (void)tess_draw_set_order(pp->draw, depth, y_sort, n, NULL); /* out of memory: body order */
  } else {
    (void)tess_draw_set_order(pp->draw, NULL, NULL, 0, NULL);
  }
  tess_free(depth);
  tess_free(y_sort);
}

/* A new preview: its tiles, and its bodies' depth order. */
static void show(TessPreviewPainter *pp, const TessPreviewLevel *pl) {
  pp->shown = pl;
  tess_draw_invalidate_background(pp->draw);
  set_order(pp, pl);
}

void tess_preview_painter_draw(TessPreviewPainter *pp, cairo_t *cr, const TessPreviewLevel *pl,
                               const TessRenderView *view, uint32_t overlays) {
  if (pp->shown != pl) show(pp, pl);
  TessDrawView dv = {view->origin_x, view->origin_y, view->zoom, view->width, view->height};
  tess_draw_playback(pp->draw, cr, pl->scene, pl->playback, &dv, overlays);
}

void tess_preview_painter_stats(const TessPreviewPainter *pp, TessPreviewPainterStats *out) {
  TessDrawStats st;
  tess_draw_stats(pp->draw, &st);
  out->circle_blits = st.circle_blits;
  out->sprite_blits = st.sprite_blits;
  out->paths = st.paths;
  out->surfaces_made = st.surfaces_made;
}
