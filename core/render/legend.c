/* The material legend: which materials a region's cells use, and a small
 * box of swatches and names to draw over the overlay. */
#include <string.h>

#include "render_private.h"

size_t tess_render_material_legend(const TessProject *p, const TessLevel *level, uint32_t x0, uint32_t y0, uint32_t x1,
                                   uint32_t y1, TessLegendEntry *out, size_t max) {
  if (x1 > level->settings.width) x1 = level->settings.width;
  if (y1 > level->settings.height) y1 = level->settings.height;
  uint64_t *counts = tess_calloc((size_t)TESS_MATERIAL_ID_MAX + 1, sizeof *counts);
  if (!counts) return 0;
  for (uint32_t cy = y0 / TESS_CHUNK_SIZE; cy * TESS_CHUNK_SIZE < y1; cy++) {
    for (uint32_t cx = x0 / TESS_CHUNK_SIZE; cx * TESS_CHUNK_SIZE < x1; cx++) {
      bool any = false;
      for (uint32_t i = 0; i < level->layer_count && !any; i++)
        any = level->layers[i]->props.kind != TESS_LAYER_OBJECTS && tess_layer_chunk(level->layers[i], cx, cy);
      if (!any) continue; /* no tile and no override: no material */
      uint32_t ya = cy * TESS_CHUNK_SIZE > y0 ? cy * TESS_CHUNK_SIZE : y0;
      uint32_t yb = (cy + 1) * TESS_CHUNK_SIZE < y1 ? (cy + 1) * TESS_CHUNK_SIZE : y1;
      uint32_t xa = cx * TESS_CHUNK_SIZE > x0 ? cx * TESS_CHUNK_SIZE : x0;
      uint32_t xb = (cx + 1) * TESS_CHUNK_SIZE < x1 ? (cx + 1) * TESS_CHUNK_SIZE : x1;
      for (uint32_t y = ya; y < yb; y++)
        for (uint32_t x = xa; x < xb; x++) {
          TessCellCollision cc;
          tess_level_cell_collision(p, level, x, y, &cc);
          if (cc.material) counts[cc.material & TESS_MATERIAL_ID_MAX]++;
        }
    }
  }
  size_t n = 0;
  for (uint32_t i = 0; i < p->material_count; i++) {
    const TessMaterial *m = &p->materials[i];
    uint64_t c = counts[m->id & TESS_MATERIAL_ID_MAX];
    if (!c) continue;
    if (n < max) {
      TessLegendEntry *e = &out[n];
      e->material = m->id;
      e->color = m->color;
      e->cells = c;
      memcpy(e->name, m->name, sizeof e->name);
      e->name[sizeof e->name - 1] = '\0';
    }
    n++;
  }
  tess_free(counts);
  return n;
}

void tess_render_draw_legend(cairo_t *cr, const TessLegendEntry *entries, size_t count, double x, double y,
                             double material_alpha, double *w, double *h) {
  const double pad = 6.0, swatch = 12.0, line = 18.0;
  cairo_save(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 12.0);
  double text_w = 0.0;
  for (size_t i = 0; i < count; i++) {
    cairo_text_extents_t ext;
    cairo_text_extents(cr, entries[i].name, &ext);
    if (ext.x_advance > text_w) text_w = ext.x_advance;
  }
  double bw = pad * 3 + swatch + text_w, bh = pad * 2 + line * (double)count;
  if (count) {
    cairo_rectangle(cr, x, y, bw, bh);
    cairo_set_source_rgba(cr, 0.08, 0.08, 0.1, 0.8);
    cairo_fill(cr);
    for (size_t i = 0; i < count; i++) {
      double ry = y + pad + line * (double)i;
      /* The swatch over a checker shows the overlay as it looks on the map. */
      cairo_rectangle(cr, x + pad, ry + 3, swatch, swatch);
      cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
      cairo_fill(cr);
      cairo_rectangle(cr, x + pad, ry + 3, swatch, swatch);
      render_set_rgba(cr, entries[i].color, material_alpha);
      cairo_fill_preserve(cr);
      render_set_rgba(cr, entries[i].color | 0xFF, 1.0);
      cairo_set_line_width(cr, 1.0);
      cairo_stroke(cr);
      cairo_move_to(cr, x + pad * 2 + swatch, ry + 13);
      cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
      cairo_show_text(cr, entries[i].name);
    }
  }
  cairo_restore(cr);
  if (w) *w = count ? bw : 0.0;
  if (h) *h = count ? bh : 0.0;
}
