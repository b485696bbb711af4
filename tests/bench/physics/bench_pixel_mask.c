/* Pixel-mask collision at scale: N circles (default 10,000, r = 0.25 m) rain
 * onto hilly terrain given as a 4096 x 4096 pixel mask (1/16 m pixels, a
 * 256 m square), side by side with the same terrain as its peer: a 256 x 256
 * tile map of 1 m cells whose cells on the surface are traced polygons (the
 * surface segment across the cell, clipped to it) and whose cells below are
 * full squares. Same bodies, same spawns, sleeping off in both. Prints per
 * step CPU time (median after landing, and mean over the run), the collider's
 * memory, and how many bodies end inside solid ground. Asserts nothing about
 * time; with TESS_PHYSICS_PROFILE=1 it adds the step's phases (the masks' share is in "finish").
 *
 * Two ratios, both printed. The whole step of the rain is the figure. But the two colliders
 * shape two different piles (the same bodies end metres apart, and the pixel pile carries more
 * body-to-body contacts), so that ratio also counts broad phase and solver work that is not the
 * colliders'. So each collider then also carries both end piles, the pixel scene's and the tiles',
 * from the same bodies' states: the loads are then alike by construction, and the ratio of the two
 * colliders' steps over the same piles compares the colliders.
 * Usage: bench-pixel-mask [N] [--steps S] [--only pixels|tiles] [--no-swap] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tessera/physics.h"

#define SIDE_M 256        /* metres */
#define PIXELS 4096       /* per side */
#define PX (1.0f / 16.0f) /* m per pixel */
#define RADIUS 0.25f
#define DT (1.0f / 60.0f)

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The ground's top (y down) at x metres, with 2 m walls at both ends. */
static double ground(double x) {
  if (x < 2.0 || x > SIDE_M - 2.0) return 0.0;
  return 170.0 + 30.0 * sin(x / 20.0) + 12.0 * sin(x / 7.3 + 1.0);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static TessWorld *new_world(void) {
  TessWorldDef def;
  tess_world_def_default(&def);
  def.gravity = tess_v2(0.0f, 10.0f);
  def.enable_sleep = false;
  TessWorld *w = NULL;
  TessError err;
  if (tess_world_create(&def, &w, &err) != TESS_OK) exit(1);
  return w;
}

static void add_mask(TessWorld *w) {
  size_t stride = PIXELS / 8;
  uint8_t *bits = calloc(stride * PIXELS, 1);
  for (uint32_t x = 0; x < PIXELS; x++) {
    double top = ground(((double)x + 0.5) * PX);
    for (uint32_t y = 0; y < PIXELS; y++)
      if (((double)y + 0.5) * PX > top) bits[y * stride + x / 8] |= (uint8_t)(1u << (x & 7));
  }
  TessPixelMaskDef d;
  tess_pixel_mask_def_default(&d);
  d.width = d.height = PIXELS;
  d.pixel_size = PX;
  d.bits = bits;
  TessError err;
  if (tess_world_add_pixel_mask(w, &d, NULL, &err) != TESS_OK) exit(1);
  free(bits);
}

/* The same ground as traced tiles: per 1 m cell, the polygon under the segment joining the
 * ground's heights at the cell's two sides, clipped to the cell. */
static void add_tiles(TessWorld *w) {
  uint32_t n = SIDE_M * SIDE_M;
  uint8_t *kinds = calloc(n, 1);
  uint32_t *start = calloc(n + 1, sizeof *start);
  TessPolygon *pieces = calloc(n, sizeof *pieces);
  uint32_t count = 0;
  for (uint32_t y = 0; y < SIDE_M; y++)
    for (uint32_t x = 0; x < SIDE_M; x++) {
      uint32_t i = y * SIDE_M + x;
      start[i] = count;
      double l = ground(x) - y, r = ground(x + 1.0) - y; /* the top's depth into the cell at each side */
      if (x < 2 || x >= SIDE_M - 2) l = r = 0.0;
      if (l <= 0.0 && r <= 0.0) {
        kinds[i] = TESS_MAP_FULL;
      } else if (l < 1.0 || r < 1.0) {
        TessPolygon *p = &pieces[count++];
        memset(p, 0, sizeof *p);
        float pts[4][2] = {{0.0f, (float)fmax(l, 0.0)}, {1.0f, (float)fmax(r, 0.0)}, {1.0f, 1.0f}, {0.0f, 1.0f}};
        uint32_t k = 0;
        for (int j = 0; j < 4; j++) {
          if (j == 1 && r >= 1.0) continue; /* the top meets the bottom at this side: a triangle */
          if (j == 0 && l >= 1.0) continue;
          p->v[k].x = pts[j][0];
          p->v[k].y = pts[j][1];
          k++;
        }
        p->count = k;
        kinds[i] = TESS_MAP_TRACED;
      }
    }
  start[n] = count;
  TessMapMaterial mat = {0.6f, 0.0f, 1.0f, 1000.0f, TESS_MAP_MATERIAL_SOLID};
  TessTileMapDef d;
  memset(&d, 0, sizeof d);
  d.width = d.height = SIDE_M;
  d.cell_w = d.cell_h = 1.0f;
  d.kinds = kinds;
  d.material_count = 1;
  d.material_list = &mat;
  d.piece_start = start;
  d.pieces = pieces;
  TessError err;
  if (tess_world_set_tile_map(w, &d, &err) != TESS_OK) {
    char buf[512];
    tess_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "tile map: %s\n", buf);
    exit(1);
  }
  free(kinds);
  free(start);
  free(pieces);
}

/* The rain's bodies, or (states not NULL) bodies in the given states. */
static void add_balls(TessWorld *w, uint32_t n, TessBodyId *ids, const TessBodyDef *states) {
  uint32_t cols = 240;
  for (uint32_t i = 0; i < n; i++) {
    TessBodyDef bd;
    tess_body_def_default(&bd);
    bd.position = tess_v2(8.0f + (float)(i % cols) * 1.0f + 0.1f * (float)((i * 7) % 5),
                          4.0f + (float)(i / cols) * 1.0f);
    if (states) bd = states[i];
    TessShapeDef sd;
    tess_shape_def_default(&sd);
    tess_body_create(w, &bd, &ids[i], NULL);
    tess_shape_create_circle(w, ids[i], &sd, tess_v2(0.0f, 0.0f), RADIUS, NULL, NULL);
  }
}

typedef struct Run {
  double median_ms, mean_ms;
  size_t collider_bytes;
  uint32_t inside;
  uint64_t hash; /* the world's state at the end: equal before and after a change that keeps the bits */
  /* Whether the two scenes are alike at the end, so that their step times compare the colliders and
   * not different piles: body-to-body contact points (the solver's and broad phase's load beyond the
   * ground), and where each body ended (ends[i], the same spawn in both scenes). */
  uint32_t body_points;
  double contacts; /* contacts with a point, map included, mean over the second half */
  TessVec2 *ends;
  TessBodyDef *states;    /* each body's at the end: the pile, for the other collider to carry */
  TessStepProfile phases; /* means over the second half (TESS_PHYSICS_PROFILE=1, else zeros) */
} Run;

#define PHASES(X) X(prepare) X(broad_phase) X(narrow_phase) X(islands) X(solver_setup) X(solve) X(finish) X(sleep)

static void add_phases(TessStepProfile *sum, const TessStepProfile *p, float k) {
#define ADD(f) sum->f.total += k * p->f.total;
  PHASES(ADD)
#undef ADD
}

static Run run(bool pixels, uint32_t n, uint32_t steps) {
  Run out;
  memset(&out, 0, sizeof out);
  TessWorld *w = new_world();
  size_t before = tess_world_memory_bytes(w);
  if (pixels)
    add_mask(w);
  else
    add_tiles(w);
  out.collider_bytes = tess_world_memory_bytes(w) - before;
  TessBodyId *ids = malloc(n * sizeof *ids);
  add_balls(w, n, ids, NULL);
  double *t = malloc(steps * sizeof *t), total = 0.0;
  for (uint32_t s = 0; s < steps; s++) {
    double t0 = cpu_seconds();
    tess_world_step(w, DT, NULL);
    t[s] = cpu_seconds() - t0;
    total += t[s];
    if (s >= steps / 2) {
      TessStepProfile p = tess_world_profile(w);
      add_phases(&out.phases, &p, 1.0f / (float)(steps - steps / 2));
      out.contacts += tess_world_contact_count(w) / (double)(steps - steps / 2);
    }
  }
  uint32_t from = steps / 2; /* the second half: landed, rolling into the valleys, piling */
  qsort(t + from, steps - from, sizeof *t, cmp_double);
  out.median_ms = 1e3 * t[from + (steps - from) / 2];
  out.mean_ms = 1e3 * total / steps;
  out.inside = 0;
  for (uint32_t i = 0; i < n; i++) {
    TessVec2 p = tess_body_position(w, ids[i]);
    if (p.y > ground(p.x) + 0.5 * RADIUS) out.inside++; /* centre half a radius under the ground */
  }
  out.hash = tess_world_hash(w);
  uint32_t points = tess_world_contact_points(w, NULL, 0);
  TessContactPoint *pts = malloc((points + 1) * sizeof *pts);
  tess_world_contact_points(w, pts, points);
  for (uint32_t i = 0; i < points; i++) out.body_points += !pts[i].with_map;
  free(pts);
  out.ends = malloc(n * sizeof *out.ends);
  out.states = malloc(n * sizeof *out.states);
  for (uint32_t i = 0; i < n; i++) {
    out.ends[i] = tess_body_position(w, ids[i]);
    TessBodyDef *bd = &out.states[i];
    tess_body_def_default(bd);
    bd->position = out.ends[i];
    bd->angle = tess_body_angle(w, ids[i]);
    bd->linear_velocity = tess_body_linear_velocity(w, ids[i]);
    bd->angular_velocity = tess_body_angular_velocity(w, ids[i]);
  }
  free(t);
  free(ids);
  tess_world_destroy(w);
  return out;
}

/* A pile carried: the bodies in `states` on one collider, SETTLE steps untimed (contacts start cold
 * in both colliders alike) then `steps` timed; the median step and the mean contact count. */
#define SETTLE 30
typedef struct Carry {
  double median_ms, contacts;
} Carry;

static Carry carry(bool pixels, const TessBodyDef *states, uint32_t n, uint32_t steps) {
  TessWorld *w = new_world();
  if (pixels)
    add_mask(w);
  else
    add_tiles(w);
  TessBodyId *ids = malloc(n * sizeof *ids);
  add_balls(w, n, ids, states);
  for (uint32_t s = 0; s < SETTLE; s++) tess_world_step(w, DT, NULL);
  double *t = malloc(steps * sizeof *t);
  Carry out = {0.0, 0.0};
  for (uint32_t s = 0; s < steps; s++) {
    double t0 = cpu_seconds();
    tess_world_step(w, DT, NULL);
    t[s] = cpu_seconds() - t0;
    out.contacts += tess_world_contact_count(w) / (double)steps;
  }
  qsort(t, steps, sizeof *t, cmp_double);
  out.median_ms = 1e3 * t[steps / 2];
  free(t);
  free(ids);
  tess_world_destroy(w);
  return out;
}

int main(int argc, char **argv) {
  uint32_t n = 10000, steps = 600;
  const char *only = NULL; /* "pixels" or "tiles": one side alone, for a profiler */
  bool swap = true;        /* each collider also carries the other's pile */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc)
      steps = (uint32_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--no-swap"))
      swap = false;
    else
      n = (uint32_t)atoi(argv[i]);
  }
  printf("pixel-mask rain: %u circles (r %.2f m) on hills, %u steps of 1/60 s, sleeping off, CPU time\n", n,
         (double)RADIUS, steps);
  printf("%-34s %12s %12s %14s %8s   %s\n", "collider", "median ms", "mean ms", "collider KiB", "inside", "world hash at the end");
  Run a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  if (!only || !strcmp(only, "pixels")) {
    a = run(true, n, steps);
    printf("%-34s %12.3f %12.3f %14.1f %8u   %016llx\n", "pixel mask 4096 x 4096 (1/16 m)", a.median_ms,
           a.mean_ms, a.collider_bytes / 1024.0, a.inside, (unsigned long long)a.hash);
  }
  if (!only || !strcmp(only, "tiles")) {
    b = run(false, n, steps);
    printf("%-34s %12.3f %12.3f %14.1f %8u   %016llx\n", "peer: traced tiles 256 x 256 (1 m)", b.median_ms,
           b.mean_ms, b.collider_bytes / 1024.0, b.inside, (unsigned long long)b.hash);
  }
  if (a.phases.finish.total > 0.0f || b.phases.finish.total > 0.0f) { /* TESS_PHYSICS_PROFILE=1 */
    printf("phases, mean ms over the second half (finish holds the pixel masks' step):\n%-14s %10s %10s\n", "phase",
           "pixels", "tiles");
#define ROW(f) printf("%-14s %10.3f %10.3f\n", #f, (double)a.phases.f.total, (double)b.phases.f.total);
    PHASES(ROW)
#undef ROW
  }
  if (only) return 0;
  double whole = a.median_ms / b.median_ms;
  printf("pixel mask / traced tiles: %.2fx the step time (median), %.2fx the memory\n", whole,
         (double)a.collider_bytes / (double)b.collider_bytes);
  double apart = 0.0;
  for (uint32_t i = 0; i < n; i++)
    apart += hypot((double)a.ends[i].x - (double)b.ends[i].x, (double)a.ends[i].y - (double)b.ends[i].y);
  printf(
      "alike? contacts (map included) %.0f (pixels) and %.0f (tiles), mean over the second half; at the end "
      "body-to-body contact points %u and %u, and the same body %.2f m apart in the two scenes on average\n",
      a.contacts, b.contacts, a.body_points, b.body_points, apart / n);
  if (swap) {
    uint32_t timed = steps / 4 > 30 ? steps / 4 : 30;
    printf(
        "\nthe same piles: each collider carries both end piles from the same bodies' states (%u steps to settle,\n"
        "then %u timed), so both carry the same load by construction\n"
        "%-26s %16s %16s   %s\n",
        SETTLE, timed, "pile", "pixel mask ms", "traced tiles ms", "contacts (map included): pixels / tiles");
    double sum_p = 0.0, sum_t = 0.0;
    for (int k = 0; k < 2; k++) {
      const TessBodyDef *pile = k ? b.states : a.states;
      Carry p = carry(true, pile, n, timed), t = carry(false, pile, n, timed);
      printf("%-26s %16.3f %16.3f   %.0f / %.0f\n", k ? "the tiles scene's" : "the pixel scene's", p.median_ms,
             t.median_ms, p.contacts, t.contacts);
      sum_p += p.median_ms;
      sum_t += t.median_ms;
    }
    printf("pixel mask / traced tiles over the same piles: %.2fx (the two piles' median steps summed)\n", sum_p / sum_t);
    printf(
        "\nratios, pixel mask step / traced tiles step (median CPU): whole rain %.2fx (the issue's figure: two\n"
        "different piles, broad phase and solver included); same piles %.2fx (the colliders compared)\n",
        whole, sum_p / sum_t);
  }
  for (int k = 0; k < 2; k++) free(k ? b.states : a.states);
  free(a.ends);
  free(b.ends);
  return 0;
}
