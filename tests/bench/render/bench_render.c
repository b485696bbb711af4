/* Benchmark: a 1920 x 1080 view of a 4096 x 4096 map (16 px tiles, every
 * cell filled, flips included) at zoom 1, 1/4 and 1/16, and one brush dab
 * (model + database + redraw of the dirty region). Prints medians next to
 * the targets (8 ms a frame, 4 ms a dab); asserts nothing about time. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "render_fixture.h"
#include "tessera/render.h"
#include "tessera/store.h"

#define MAP 4096
#define VIEW_W 1920
#define VIEW_H 1080

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
/* Sorts v: v[0] is then the minimum (the cost without interference from
 * other processes on a shared machine), v[n/2] the median. */
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double draw_ms(TessRenderer *r, cairo_t *cr, const TessLevel *level, double ox, double oy, double zoom,
                      int w, int h, const TessRenderOptions *o) {
  TessRenderView v = {ox, oy, zoom, w, h};
  double t0 = tess_now_seconds();
  tess_renderer_draw(r, cr, level, &v, o, NULL);
  cairo_surface_flush(cairo_get_target(cr));
  return (tess_now_seconds() - t0) * 1e3;
}

static TessRenderer *listener_renderer;
static void forward_change(const TessChange *c, void *user) {
  (void)user;
  tess_renderer_invalidate(listener_renderer, c);
}

int main(void) {
  double t0 = tess_now_seconds();
  TessProject *p = fixture_project();
  TessLevel *level = fixture_big_level(p, 2, MAP, MAP, 16);
  if (!level) return 1;
  printf("render benchmark: %d x %d cells of 16 px (%zu MiB of cells), view %d x %d; built in %.2f s\n", MAP, MAP,
         tess_level_memory_bytes(level) >> 20, VIEW_W, VIEW_H, tess_now_seconds() - t0);
  cairo_surface_t *target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, VIEW_W, VIEW_H);
  cairo_t *cr = cairo_create(target);
  TessRenderer *r = tess_renderer_create(p);
  TessRenderOptions o;
  tess_render_options_default(&o);
  o.flags |= TESS_RENDER_GRID;
  const double zooms[3] = {1.0, 0.25, 1.0 / 16};
  const char *names[3] = {"1", "1/4", "1/16"};
  printf("%-6s %12s %14s %10s %14s %10s %12s\n", "zoom", "cold ms", "static med ms", "min ms", "panning med ms", "target",
         "cache MiB");
  for (int z = 0; z < 3; z++) {
    double zoom = zooms[z];
    /* Centre of the map; at 1/16 the whole map is 4096 px, wider than the view. */
    double cx = MAP * 16 / 2.0, cy = MAP * 16 / 2.0;
    double ox = cx - VIEW_W / 2.0 / zoom, oy = cy - VIEW_H / 2.0 / zoom;
    double cold = draw_ms(r, cr, level, ox, oy, zoom, VIEW_W, VIEW_H, &o);
    double t[61];
    for (int i = 0; i < 61; i++) t[i] = draw_ms(r, cr, level, ox, oy, zoom, VIEW_W, VIEW_H, &o);
    double stat = median(t, 61), stat_min = t[0];
    /* Panning 6 device px a frame: new blocks come in at the edges. */
    for (int i = 0; i < 61; i++) t[i] = draw_ms(r, cr, level, ox + i * 6 / zoom, oy + i * 3 / zoom, zoom, VIEW_W, VIEW_H, &o);
    if (getenv("BENCH_VERBOSE"))
      for (int i = 0; i < 61; i++) printf("%.1f ", t[i]);
    double pan = median(t, 61);
    TessRenderStats st;
    tess_renderer_stats(r, &st);
    printf("%-6s %12.2f %14.2f %10.2f %14.2f %10s %12.1f\n", names[z], cold, stat, stat_min, pan, "< 8 ms",
           st.cache_bytes / 1048576.0);
  }
  /* The direct path at zoom 1 (no cache), for comparison. */
  {
    TessRenderOptions d = o;
    d.use_cache = false;
    double t[11];
    for (int i = 0; i < 11; i++) t[i] = draw_ms(r, cr, level, 30000, 30000, 1.0, VIEW_W, VIEW_H, &d);
    printf("uncached direct draw at zoom 1: %.2f ms median (what the chunk cache saves)\n", median(t, 11));
  }

  /* One brush dab: a 3 x 3 stamp painted, persisted and redrawn. */
  char path[1024];
  tess_test_path(path, sizeof path, "bench.tessera");
  TessStore *store = NULL;
  TessError err;
  tess_error_clear(&err);
  t0 = tess_now_seconds();
  if (tess_store_open(path, TESS_STORE_CREATE, &store, &err) != TESS_OK ||
      tess_store_save_all(store, p, &err) != TESS_OK) {
    printf("brush dab: store unavailable (%s): skipped\n", err.detail);
  } else {
    printf("project file written in %.2f s\n", tess_now_seconds() - t0);
    listener_renderer = r;
    tess_project_set_listener(p, forward_change, NULL);
    TessCell stamp[9];
    for (int i = 0; i < 9; i++) stamp[i] = TESS_CELL_MAKE(FIX_TILESET, 13, 0);
    const double dab_zooms[3] = {1.0, 0.25, 1.0 / 16};
    const char *dab_names[3] = {"1", "1/4", "1/16"};
    for (int z = 0; z < 3; z++) {
      double zoom = dab_zooms[z], ox = 30000, oy = 30000;
      draw_ms(r, cr, level, ox, oy, zoom, VIEW_W, VIEW_H, &o);
      double model[41], db[41], redraw[41], total[41];
      uint32_t merge = tess_project_new_merge_key(p);
      for (int i = 0; i < 41; i++) {
        int32_t x = (int32_t)(ox / 16) + 10 + i * 2, y = (int32_t)(oy / 16) + 20 + z * 4;
        double a = tess_now_seconds();
        TessResult pr = tess_edit_paint(p, level->id, 21, x, y, 3, 3, stamp, merge, NULL);
        if (pr != TESS_OK) printf("dab %d refused: %s\n", i, tess_result_string(pr));
        double b = tess_now_seconds();
        const TessChange *pending = NULL;
        size_t npending = tess_project_changes(p, &pending);
        TessError ferr;
        TessResult fr = tess_store_flush(store, p, &ferr);
        if (fr != TESS_OK || npending == 0)
          printf("dab %d: flush of %zu changes: %s %s\n", i, npending, tess_result_string(fr), fr ? ferr.detail : "");
        double c = tess_now_seconds();
        /* The dirty region on screen: the stamp's cells in device pixels (at
         * least one pixel), drawn as the map view's clipped redraw would. */
        double dx = floor((x * 16 - ox) * zoom), dy = floor((y * 16 - oy) * zoom);
        int side = (int)ceil(48 * zoom) + 1;
        cairo_save(cr);
        cairo_translate(cr, dx, dy);
        draw_ms(r, cr, level, ox + dx / zoom, oy + dy / zoom, zoom, side, side, &o);
        cairo_restore(cr);
        double d = tess_now_seconds();
        model[i] = (b - a) * 1e3;
        db[i] = (c - b) * 1e3;
        redraw[i] = (d - c) * 1e3;
        total[i] = (d - a) * 1e3;
      }
      printf(
          "brush dab (3 x 3 stamp) at zoom %-4s: model %.3f ms + database %.3f ms + redraw %.3f ms = %.3f ms "
          "median (target < 4 ms)\n",
          dab_names[z], median(model, 41), median(db, 41), median(redraw, 41), median(total, 41));
    }
    tess_project_set_listener(p, NULL, NULL);
    tess_store_close(store);
  }
  TessRenderStats st;
  tess_renderer_stats(r, &st);
  long rss_kb = 0;
  FILE *status = fopen("/proc/self/status", "r");
  if (status) {
    char line[256];
    while (fgets(line, sizeof line, status))
      if (sscanf(line, "VmRSS: %ld kB", &rss_kb) == 1) break;
    fclose(status);
  }
  printf(
      "memory: level cells %.1f MiB, chunk cache %.1f MiB (limit 256), process resident %.1f MiB "
      "(the editor adds GTK's own)\n",
      tess_level_memory_bytes(level) / 1048576.0, st.cache_bytes / 1048576.0, rss_kb / 1024.0);
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) > 0) printf("machine load average %.1f (2 cores shared): medians include waiting\n", load[0]);
  cairo_destroy(cr);
  cairo_surface_destroy(target);
  tess_renderer_destroy(r);
  tess_project_destroy(p);
  return 0;
}
