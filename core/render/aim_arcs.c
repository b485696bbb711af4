/* The launchers and the aiming overlay of Play mode (tess_render_launchers,
 * tess_render_aim_arcs in tessera/render.h):
 * the arcs tessera/aim.h gives from a launcher to a target, sampled along
 * their closed-form path, the one a release fires solid and bright, the
 * other dashed; a target out of reach gets a red cross and a dashed line
 * from the launcher. Drawn in device pixels over the preview. */
#include "render_private.h"
#include "tessera/aim.h"

#define ARC_SEGMENTS 64

static void to_device(const TessRenderView *view, double ppm, TessVec2 p, double *x, double *y) {
  double tx, ty;
  tess_render_view_translation(view, &tx, &ty);
  *x = p.x * ppm * view->zoom + tx;
  *y = p.y * ppm * view->zoom + ty;
}

static void arc_path(cairo_t *cr, const TessRenderView *view, double ppm, TessVec2 from, TessVec2 gravity,
                     const TessAimSolution *s) {
  for (int i = 0; i <= ARC_SEGMENTS; i++) {
    float t = s->time * (float)i / ARC_SEGMENTS;
    double x, y;
    to_device(view, ppm, tess_aim_path_point(from, s->velocity, gravity, t), &x, &y);
    if (i == 0) cairo_move_to(cr, x, y);
    else cairo_line_to(cr, x, y);
  }
}

void tess_render_aim_arcs(cairo_t *cr, const TessRenderView *view, double ppm, TessVec2 from, TessVec2 target,
                          TessVec2 gravity, const TessAimSolution *solutions, uint32_t count, uint32_t chosen) {
  double fx, fy, gx, gy;
  to_device(view, ppm, from, &fx, &fy);
  to_device(view, ppm, target, &gx, &gy);
  cairo_save(cr);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  static const double dash[] = {6.0, 5.0};
  if (count == 0) {
    /* Out of reach: where the pointer is, crossed out, and the line that cannot be flown. */
    cairo_set_dash(cr, dash, 2, 0);
    cairo_set_line_width(cr, 1.5);
    cairo_set_source_rgba(cr, 0.95, 0.25, 0.2, 0.8);
    cairo_move_to(cr, fx, fy);
    cairo_line_to(cr, gx, gy);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_width(cr, 3.0);
    cairo_set_source_rgba(cr, 0.95, 0.2, 0.15, 1.0);
    cairo_move_to(cr, gx - 8, gy - 8);
    cairo_line_to(cr, gx + 8, gy + 8);
    cairo_move_to(cr, gx + 8, gy - 8);
    cairo_line_to(cr, gx - 8, gy + 8);
    cairo_stroke(cr);
    cairo_restore(cr);
    return;
  }
  for (uint32_t k = 0; k < count; k++) {
    bool fire = k == chosen;
    arc_path(cr, view, ppm, from, gravity, &solutions[k]);
    /* a dark outline first, so the arc reads over sky and rock alike */
    cairo_set_dash(cr, fire ? NULL : dash, fire ? 0 : 2, 0);
    cairo_set_line_width(cr, fire ? 4.5 : 3.5);
    cairo_set_source_rgba(cr, 0.1, 0.08, 0.05, 0.6);
    cairo_stroke_preserve(cr);
    cairo_set_line_width(cr, fire ? 2.5 : 1.5);
    if (fire) cairo_set_source_rgba(cr, 1.0, 0.75, 0.25, 1.0);
    else cairo_set_source_rgba(cr, 1.0, 0.9, 0.7, 0.85);
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, NULL, 0, 0);
  /* the target: a ring with a centre dot */
  cairo_set_line_width(cr, 2.0);
  cairo_set_source_rgba(cr, 1.0, 0.75, 0.25, 1.0);
  cairo_arc(cr, gx, gy, 7.0, 0, 2 * M_PI);
  cairo_stroke(cr);
  cairo_arc(cr, gx, gy, 2.0, 0, 2 * M_PI);
  cairo_fill(cr);
  cairo_restore(cr);
}

void tess_render_launchers(cairo_t *cr, const TessRenderView *view, const TessScene *scene) {
  cairo_save(cr);
  for (uint32_t i = 0; i < scene->launcher_count; i++) {
    double x, y;
    to_device(view, scene->ppm, scene->launchers[i].position, &x, &y);
    /* the editor's mortar (core/render/objects.c), barrel raised to the upper right */
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + 10.6, y - 10.6);
    cairo_set_line_width(cr, 6.0);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_source_rgba(cr, 0.15, 0.12, 0.1, 1.0);
    cairo_stroke(cr);
    cairo_arc(cr, x, y, 8.0, 0, 2 * M_PI);
    cairo_set_source_rgba(cr, 1.0, 0.56, 0.19, 0.9);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0.3, 0.15, 0.05, 1.0);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
  }
  cairo_restore(cr);
}
