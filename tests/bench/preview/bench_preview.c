/* Benchmark of the live preview's frame: one physics step through the
 * playback (with its recording) + an interpolated offscreen draw of a
 * 1920 x 1080 view, over the first 1,200 steps of a level where N circles
 * and M sprite bodies (the demo's crate) fall onto a tile map. Prints the
 * median and 99th percentile next to the 16.7 ms a 60 Hz frame allows
 * (target: p99 < 16 ms), the snapshot size per step, and how many seconds of
 * history 256 MiB holds. Asserts nothing about time.
 *
 *   bench-preview [circles sprites [steps]]   (default: both 2000/200 and 5000/500) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tessera/render.h"
#include "tessera/store.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* CPU time of this thread: what the frame costs without the other processes
 * sharing the machine (the wall clock includes being preempted). */
static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double percentile(double *v, size_t n, double p) {
  qsort(v, n, sizeof *v, cmp_double);
  size_t i = (size_t)(p * (double)(n - 1) + 0.5);
  return v[i < n ? i : n - 1];
}

#define TRY(call)                                                        \
  do {                                                                   \
    TessResult r_ = (call);                                              \
    if (r_ != TESS_OK) {                                                 \
      char b_[1200];                                                     \
      tess_error_format(&err, b_, sizeof b_);                            \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, b_); \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

/* A level of the demo project's tiles: a rock floor with pillars and bumps,
 * `circles` balls in a grid above it and `sprites` crates above those. */
static TessLevel *make_level(TessProject *p, uint32_t circles, uint32_t sprites) {
  TessError err;
  const TessSprite *crate = NULL;
  for (uint32_t i = 0; i < p->sprite_count; i++)
    if (strstr(p->sprites[i]->name, "rate")) crate = p->sprites[i];
  TessId tileset = p->tileset_count ? p->tilesets[0]->id : 0;
  const TessMaterial *rubber = tess_project_material_by_name(p, "Rubber");
  const TessMaterial *wood = tess_project_material_by_name(p, "Wood");
  const TessMaterial *rock = tess_project_material_by_name(p, "Rock");
  if (!crate || !tileset || !rubber || !wood || !rock) {
    fprintf(stderr, "the demo project lacks the crate, the terrain or a material\n");
    exit(1);
  }
  /* Room for the grid: columns of 28 px, rows of 28 px for circles. */
  uint32_t cols = circles > 2000 ? 125 : 100;
  uint32_t rows = (circles + cols - 1) / cols;
  uint32_t crate_cols = cols / 2, crate_rows = (sprites + crate_cols - 1) / crate_cols;
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "Bench %u+%u", circles, sprites);
  s.tile_w = s.tile_h = 32;
  s.ppm = 32.0f;
  s.width = cols * 28 / 32 + 4;
  s.height = (rows * 28 + crate_rows * 56) / 32 + 24;
  TessId level_id;
  TRY(tess_edit_level_add(p, &s, &level_id, &err));
  TessLevel *level = tess_project_level(p, level_id);
  TessId ground = 0, objects = 0;
  for (uint32_t i = 0; i < level->layer_count; i++) {
    if (level->layers[i]->props.kind == TESS_LAYER_TILES && !ground) ground = level->layers[i]->props.id;
    if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) objects = level->layers[i]->props.id;
  }
  TessCell rock_cell = TESS_CELL_MAKE(tileset, 0, 0);
  TRY(tess_edit_fill_rect(p, level_id, ground, 0, (int32_t)s.height - 3, s.width, 3, rock_cell, 0, &err));
  TRY(tess_edit_fill_rect(p, level_id, ground, 0, 0, 1, s.height, rock_cell, 0, &err));
  TRY(tess_edit_fill_rect(p, level_id, ground, (int32_t)s.width - 1, 0, 1, s.height, rock_cell, 0, &err));
  for (uint32_t x = 6; x + 2 < s.width; x += 12) /* pillars and bumps break the pile up */
    TRY(tess_edit_fill_rect(p, level_id, ground, (int32_t)x, (int32_t)s.height - 3 - (x % 24 ? 2 : 6), 2,
                            x % 24 ? 2 : 6, rock_cell, 0, &err));
  TessLayer *layer = tess_level_layer(level, objects);
  for (uint32_t i = 0; i < circles; i++) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_BODY);
    o.u.body.shape = TESS_BODY_CIRCLE;
    o.u.body.radius = 6.0f + (float)(i % 5); /* 6..10 px */
    o.u.body.material = (i % 3) ? rock->id : rubber->id;
    o.pos = tess_v2(48.0f + 28.0f * (float)(i % cols) + (float)((i / cols) % 2) * 7.0f,
                    40.0f + crate_rows * 56.0f + 28.0f * (float)(i / cols));
    o.id = p->next_id[TESS_ID_OBJECT];
    TRY(tess_layer_insert_object(p, layer, &o, &err));
    tess_object_clear(&o);
  }
  for (uint32_t i = 0; i < sprites; i++) {
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_BODY);
    o.u.body.shape = TESS_BODY_SPRITE;
    o.u.body.sprite = crate->id;
    o.u.body.material = wood->id;
    o.pos = tess_v2(60.0f + 56.0f * (float)(i % crate_cols), 40.0f + 56.0f * (float)(i / crate_cols));
    o.angle = 0.1f * (float)(i % 7);
    o.id = p->next_id[TESS_ID_OBJECT];
    TRY(tess_layer_insert_object(p, layer, &o, &err));
    tess_object_clear(&o);
  }
  return level;
}

static void run(TessProject *p, uint32_t circles, uint32_t sprites, uint32_t steps) {
  TessError err;
  TessLevel *level = make_level(p, circles, sprites);
  TessPreviewLevel *pl = NULL;
  TRY(tess_preview_level_create(p, level, 0, &pl, &err));
  TessPreviewPainter *pp = tess_preview_painter_create(p);
  const int W = 1920, H = 1080;
  double lw = (double)level->settings.width * level->settings.tile_w;
  double lh = (double)level->settings.height * level->settings.tile_h;
  double zoom = W / lw < H / lh ? W / lw : H / lh;
  TessRenderView view = {0.0, 0.0, zoom, W, H};
  cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create(surf);
  double *frame = malloc(steps * sizeof *frame), *phys = malloc(steps * sizeof *phys), *draw = malloc(steps * sizeof *draw);
  size_t snap_sum = 0, snap_max = 0;
  TessPlayback *pb = pl->playback;
  tess_playback_set_playing(pb, true);
  double *kf = malloc(steps * sizeof *kf), *nkf = malloc(steps * sizeof *nkf), *cpu = malloc(steps * sizeof *cpu);
  size_t nk = 0, nn = 0;
  uint32_t slow_draw_early = 0;
  for (uint32_t s = 0; s < steps; s++) {
    TessPlaybackStats before;
    tess_playback_stats(pb, &before);
    double c0 = cpu_ms();
    double t0 = now_ms();
    uint32_t n = tess_playback_advance(pb, 1.0 / 60.0, &err); /* one step, recorded */
    double t1 = now_ms();
    tess_preview_painter_draw(pp, cr, pl, &view, 0);
    cairo_surface_flush(surf);
    double t2 = now_ms();
    cpu[s] = cpu_ms() - c0;
    if (n != 1) {
      fprintf(stderr, "step %u: advance took %u steps\n", s, n);
      exit(1);
    }
    phys[s] = t1 - t0;
    draw[s] = t2 - t1;
    TessPlaybackStats after;
    tess_playback_stats(pb, &after);
    /* Steps that also took a keyframe (a snapshot of the whole world) apart. */
    if (after.keyframes != before.keyframes || after.recording_bytes != before.recording_bytes) kf[nk++] = phys[s];
    else nkf[nn++] = phys[s];
    if (s < 60 && draw[s] > 16.0) slow_draw_early++;
    frame[s] = t2 - t0;
    size_t sz = tess_world_snapshot_size(tess_playback_world(pb));
    snap_sum += sz;
    if (sz > snap_max) snap_max = sz;
  }
  char shot[256];
  snprintf(shot, sizeof shot, "bench-preview-%u-%u.png", circles, sprites);
  cairo_surface_write_to_png(surf, shot);
  TessPlaybackStats st;
  tess_playback_stats(pb, &st);
  TessPreviewPainterStats ps;
  tess_preview_painter_stats(pp, &ps);
  double fm = percentile(frame, steps, 0.5), f99 = percentile(frame, steps, 0.99);
  double pm = percentile(phys, steps, 0.5), p99 = percentile(phys, steps, 0.99);
  double dm = percentile(draw, steps, 0.5), d99 = percentile(draw, steps, 0.99);
  double snap_avg = (double)snap_sum / steps;
  double budget = 256.0 * 1024 * 1024;
  printf("\n%u circles + %u sprite bodies, %u steps at 60 Hz, %dx%d view at zoom %.3f (%u bodies, %u awake at the end)\n",
         circles, sprites, steps, W, H, zoom, st.bodies, st.awake);
  printf("  frame (step + record + draw)  median %7.2f ms   p99 %7.2f ms   | 60 Hz frame budget 16.67 ms, target p99 < 16 ms: %s\n",
         fm, f99, f99 < 16.0 ? "met" : "MISSED");
  double cm = percentile(cpu, steps, 0.5), c99 = percentile(cpu, steps, 0.99);
  printf("    the same frame in thread CPU time (without preemption by other processes): median %.2f ms, p99 %.2f ms\n",
         cm, c99);
  printf("    physics step + recording    median %7.2f ms   p99 %7.2f ms\n", pm, p99);
  printf("    interpolated draw           median %7.2f ms   p99 %7.2f ms   (%llu circle blits, %llu sprite blits, %llu paths, %llu surfaces made)\n",
         dm, d99, (unsigned long long)ps.circle_blits, (unsigned long long)ps.sprite_blits,
         (unsigned long long)ps.paths, (unsigned long long)ps.surfaces_made);
  printf("    steps with a keyframe: %zu, median %.2f ms; steps without: median %.2f ms, p99 %.2f ms\n", nk,
         nk ? percentile(kf, nk, 0.5) : 0.0, nn ? percentile(nkf, nn, 0.5) : 0.0, nn ? percentile(nkf, nn, 0.99) : 0.0);
  printf("    draws over 16 ms in the first second (view cache and sprite turns being made): %u\n", slow_draw_early);
  printf("  snapshot per step: mean %.0f KiB, max %.0f KiB (%.0f bytes per body)\n", snap_avg / 1024,
         (double)snap_max / 1024, snap_avg / (circles + sprites));
  printf("  256 MiB of history: %.1f s with a snapshot every step; the automatic keyframe interval (%u) keeps %.1f s\n",
         budget / snap_avg / 60.0, st.keyframe_interval, st.history_seconds);
  printf("  recording now: %u keyframes, %.1f MiB (bound 256 MiB)\n", st.keyframes, st.recording_bytes / 1048576.0);
  fflush(stdout);
  free(kf);
  free(cpu);
  free(nkf);
  free(frame);
  free(phys);
  free(draw);
  cairo_destroy(cr);
  cairo_surface_destroy(surf);
  tess_preview_painter_destroy(pp);
  tess_preview_level_destroy(pl);
}

int main(int argc, char **argv) {
  const char *path = getenv("TESS_DEMO_PROJECT");
  if (!path) {
    fprintf(stderr, "TESS_DEMO_PROJECT not set\n");
    return 1;
  }
  TessError err;
  TessStore *store = NULL;
  TessProject *p = NULL;
  TRY(tess_store_open(path, TESS_STORE_READ_ONLY, &store, &err));
  TRY(tess_store_load(store, &p, &err));
  tess_store_close(store);
  uint32_t steps = argc > 3 ? (uint32_t)atoi(argv[3]) : 1200;
  if (argc > 2) {
    run(p, (uint32_t)atoi(argv[1]), (uint32_t)atoi(argv[2]), steps);
  } else {
    run(p, 2000, 200, steps);
    run(p, 5000, 500, steps);
  }
  tess_project_destroy(p);
  return 0;
}
