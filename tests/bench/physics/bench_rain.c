/* "Rain on tiles": N circles fall onto a 256 x 256 map of 1 m tiles, side by
 * side with Chipmunk2D in the same process (Debian's libchipmunk, doubles),
 * with the settings the issue fixes: a static box per solid cell, spatial
 * hash of 0.5 m, 10 iterations, collision slop 0.01, sleeping off in both.
 * Also a mixed scene of 2000 convex polygons. Prints a table; asserts
 * nothing about time. Usage: bench-rain [N ...] [--steps S] [--no-peer] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tessera/physics.h"
#ifdef TESS_HAVE_CHIPMUNK
#include <chipmunk/chipmunk.h>
#endif

#define MAP 256
#define RADIUS 0.25f
#define GRAVITY 10.0f
#define DT (1.0f / 60.0f)
#define WARMUP 60

/* CPU time of this thread: the machine is shared, and wall time would count
 * the other processes' turns too. Both engines are timed the same way. */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state;
static double rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}

/* Solid border, about 20% solid cells in the lower half (a fixed hash pattern). */
static uint8_t *make_cells(uint32_t *solid_count) {
  uint8_t *k = calloc(MAP * MAP, 1);
  uint32_t n = 0;
  for (uint32_t y = 0; y < MAP; y++)
    for (uint32_t x = 0; x < MAP; x++) {
      bool border = x == 0 || y == 0 || x == MAP - 1 || y == MAP - 1;
      uint32_t h = (x * 73856093u) ^ (y * 19349663u);
      h ^= h >> 13;
      h *= 0x5bd1e995u;
      h ^= h >> 15;
      bool solid = border || (y >= MAP / 2 && h % 5 == 0);
      k[y * MAP + x] = solid ? 1 : 0;
      n += solid;
    }
  *solid_count = n;
  return k;
}

typedef struct Spawn {
  float x, y, vx, vy;
} Spawn;

/* N positions on a jittered grid in the upper half, with small random velocities. */
static Spawn *make_spawns(uint32_t n) {
  Spawn *s = malloc(n * sizeof *s);
  rng_state = 0x1234567887654321ull ^ n;
  uint32_t cols = 250, rows = (n + cols - 1) / cols;
  float dy = (float)(MAP / 2 - 4) / (float)(rows > 0 ? rows : 1);
  if (dy > 1.0f) dy = 1.0f;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t c = i % cols, r = i / cols;
    s[i].x = 3.0f + (float)c + 0.3f * (float)(rnd() - 0.5);
    s[i].y = 2.0f + (float)r * dy + 0.05f * (float)(rnd() - 0.5);
    s[i].vx = (float)(rnd() - 0.5);
    s[i].vy = (float)(rnd() - 0.5);
  }
  return s;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

typedef struct Result {
  double median_ms;
  uint32_t inside;
  double bytes_per_body;
} Result;

static bool inside_solid(const uint8_t *cells, float x, float y) {
  if (!(x >= 0.0f && y >= 0.0f && x < MAP && y < MAP)) return true; /* escaped the map */
  return cells[(uint32_t)y * MAP + (uint32_t)x] != 0;
}

/* A random convex polygon of 3..8 vertices, about `size` across. */
static int random_polygon(TessVec2 *v, float size) {
  int n = 3 + (int)(rnd() * 6.0);
  if (n > 8) n = 8;
  float base = (float)(rnd() * 6.2831853);
  for (int i = 0; i < n; i++) {
    float a = base + 6.2831853f * ((float)i + 0.4f * (float)(rnd() - 0.5)) / (float)n;
    float r = size * (0.8f + 0.2f * (float)rnd());
    v[i] = tess_v2(r * cosf(a), r * sinf(a));
  }
  return n;
}

static Result run_tessera(const uint8_t *cells, const Spawn *sp, uint32_t n, int steps, bool polygons) {
  Result res = {0, 0, 0};
  TessWorldDef def;
  tess_world_def_default(&def);
  def.gravity = tess_v2(0.0f, GRAVITY);
  def.enable_sleep = false;
  TessWorld *w;
  tess_world_create(&def, &w, NULL);
  TessMapMaterial mat = {0.6f, 0.0f, 1.0f, 1.0f, TESS_MAP_MATERIAL_SOLID};
  TessTileMapDef md;
  memset(&md, 0, sizeof md);
  md.width = md.height = MAP;
  md.cell_w = md.cell_h = 1.0f;
  md.kinds = cells;
  md.material_count = 1;
  md.material_list = &mat;
  tess_world_set_tile_map(w, &md, NULL);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  sd.friction = 0.6f;
  TessBodyId *ids = malloc(n * sizeof *ids);
  rng_state = 99;
  for (uint32_t i = 0; i < n; i++) {
    TessBodyDef bd;
    tess_body_def_default(&bd);
    bd.position = tess_v2(sp[i].x, sp[i].y);
    bd.linear_velocity = tess_v2(sp[i].vx, sp[i].vy);
    tess_body_create(w, &bd, &ids[i], NULL);
    if (polygons) {
      TessVec2 v[8];
      int k = random_polygon(v, 0.3f);
      tess_shape_create_polygon(w, ids[i], &sd, v, (uint32_t)k, NULL, NULL);
    } else {
      tess_shape_create_circle(w, ids[i], &sd, tess_v2(0, 0), RADIUS, NULL, NULL);
    }
  }
  double *t = malloc((size_t)steps * sizeof *t);
  for (int s = 0; s < WARMUP + steps; s++) {
    double t0 = cpu_seconds();
    tess_world_step(w, DT, NULL);
    double t1 = cpu_seconds();
    if (s >= WARMUP) t[s - WARMUP] = (t1 - t0) * 1000.0;
  }
  res.median_ms = median(t, steps);
  for (uint32_t i = 0; i < n; i++) {
    TessVec2 p = tess_body_position(w, ids[i]);
    if (inside_solid(cells, p.x, p.y)) res.inside++;
  }
  res.bytes_per_body = (double)tess_world_memory_bytes(w) / (double)n;
  free(t);
  free(ids);
  tess_world_destroy(w);
  return res;
}

#ifdef TESS_HAVE_CHIPMUNK
static Result run_chipmunk(const uint8_t *cells, const Spawn *sp, uint32_t n, uint32_t solid, int steps, bool polygons) {
  Result res = {0, 0, 0};
  cpSpace *space = cpSpaceNew();
  cpSpaceSetGravity(space, cpv(0, GRAVITY));
  cpSpaceSetIterations(space, 10);
  cpSpaceSetCollisionSlop(space, 0.01);
  cpSpaceSetSleepTimeThreshold(space, INFINITY);
  cpSpaceUseSpatialHash(space, 0.5, (int)(n + solid) * 2);
  cpBody *ground = cpSpaceGetStaticBody(space);
  cpShape **statics = malloc(solid * sizeof *statics);
  uint32_t ns = 0;
  for (uint32_t y = 0; y < MAP; y++)
    for (uint32_t x = 0; x < MAP; x++)
      if (cells[y * MAP + x]) {
        cpShape *s = cpBoxShapeNew2(ground, cpBBNew(x, y, x + 1, y + 1), 0.0);
        cpShapeSetFriction(s, 0.6);
        cpSpaceAddShape(space, s);
        statics[ns++] = s;
      }
  cpBody **bodies = malloc(n * sizeof *bodies);
  cpShape **shapes = malloc(n * sizeof *shapes);
  rng_state = 99;
  for (uint32_t i = 0; i < n; i++) {
    cpBody *b;
    cpShape *s;
    if (polygons) {
      TessVec2 v[8];
      int k = random_polygon(v, 0.3f);
      cpVect cv[8];
      for (int j = 0; j < k; j++) cv[j] = cpv(v[j].x, v[j].y);
      double area = cpAreaForPoly(k, cv, 0.0);
      b = cpBodyNew(area, cpMomentForPoly(area, k, cv, cpvzero, 0.0));
      s = cpPolyShapeNew(b, k, cv, cpTransformIdentity, 0.0);
    } else {
      double m = 3.14159265358979 * RADIUS * RADIUS;
      b = cpBodyNew(m, cpMomentForCircle(m, 0, RADIUS, cpvzero));
      s = cpCircleShapeNew(b, RADIUS, cpvzero);
    }
    cpSpaceAddBody(space, b);
    cpBodySetPosition(b, cpv(sp[i].x, sp[i].y));
    cpBodySetVelocity(b, cpv(sp[i].vx, sp[i].vy));
    cpShapeSetFriction(s, 0.6);
    cpSpaceAddShape(space, s);
    bodies[i] = b;
    shapes[i] = s;
  }
  double *t = malloc((size_t)steps * sizeof *t);
  for (int s = 0; s < WARMUP + steps; s++) {
    double t0 = cpu_seconds();
    cpSpaceStep(space, DT);
    double t1 = cpu_seconds();
    if (s >= WARMUP) t[s - WARMUP] = (t1 - t0) * 1000.0;
  }
  res.median_ms = median(t, steps);
  for (uint32_t i = 0; i < n; i++) {
    cpVect p = cpBodyGetPosition(bodies[i]);
    if (inside_solid(cells, (float)p.x, (float)p.y)) res.inside++;
  }
  for (uint32_t i = 0; i < n; i++) {
    cpSpaceRemoveShape(space, shapes[i]);
    cpShapeFree(shapes[i]);
    cpSpaceRemoveBody(space, bodies[i]);
    cpBodyFree(bodies[i]);
  }
  for (uint32_t i = 0; i < ns; i++) {
    cpSpaceRemoveShape(space, statics[i]);
    cpShapeFree(statics[i]);
  }
  cpSpaceFree(space);
  free(statics);
  free(bodies);
  free(shapes);
  free(t);
  return res;
}
#endif

int main(int argc, char **argv) {
  uint32_t ns[8];
  int count = 0, steps = 600;
  bool peer = true, mixed = true;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc)
      steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--no-peer"))
      peer = false;
    else if (!strcmp(argv[i], "--no-mixed"))
      mixed = false;
    else if (count < 8)
      ns[count++] = (uint32_t)atoi(argv[i]);
  }
  if (count == 0) {
    ns[0] = 1000;
    ns[1] = 5000;
    ns[2] = 20000;
    count = 3;
  }
  if (steps < 1) steps = 1;
#ifndef TESS_HAVE_CHIPMUNK
  peer = false;
#endif
#ifdef TESS_HAVE_CHIPMUNK
  if (peer) cpSpaceFree(cpSpaceNew()); /* Chipmunk prints its banner once: get it out of the table's way */
#endif
  uint32_t solid;
  uint8_t *cells = make_cells(&solid);
  printf("Rain on tiles: %dx%d map of 1 m tiles, %u solid cells, circles r = %.2f m, gravity %.0f, 60 Hz,\n", MAP, MAP,
         solid, RADIUS, GRAVITY);
  TessWorldDef probe_def;
  tess_world_def_default(&probe_def);
  TessWorld *probe = NULL;
  tess_world_create(&probe_def, &probe, NULL);
  uint32_t lanes = probe ? tess_world_solver_lanes(probe) : 0;
  tess_world_destroy(probe);
  printf(
      "median step (thread CPU time) over %d steps after %d warm-up, one thread, sleeping off.\n"
      "Tessera: 4 sub-steps, tile-map collider, contacts solved %u at a time (%s);\n",
      steps, WARMUP, lanes, lanes == 8 ? "AVX2" : "SSE2 or plain C; TESS_PHYSICS_SIMD=sse2 forces this");
  printf("Chipmunk2D 7 (doubles): a static box per solid cell, spatial hash 0.5 m, 10 iterations, slop 0.01.\n\n");
  printf("%-22s %7s | %12s %8s %9s | %12s %8s | %8s\n", "scene", "N", "Tessera ms", "inside", "B/body", "Chipmunk ms",
         "inside", "speed-up");
  double prev_ms = 0.0;
  uint32_t prev_n = 0;
  for (int k = 0; k < count + (mixed ? 1 : 0); k++) {
    bool poly = k == count;
    uint32_t n = poly ? 2000 : ns[k];
    Spawn *sp = make_spawns(n);
    Result a = run_tessera(cells, sp, n, steps, poly);
    printf("%-22s %7u | %12.3f %8u %9.0f |", poly ? "mixed: convex polygons" : "rain: circles", n, a.median_ms, a.inside,
           a.bytes_per_body);
    fflush(stdout);
#ifdef TESS_HAVE_CHIPMUNK
    if (peer) {
      Result b = run_chipmunk(cells, sp, n, solid, steps, poly);
      printf(" %12.3f %8u | %7.2fx", b.median_ms, b.inside, b.median_ms / a.median_ms);
    } else {
      printf(" %12s %8s | %8s", "-", "-", "-");
    }
#else
    printf(" %12s %8s | %8s", "n/a", "n/a", "-");
#endif
    if (!poly && prev_n > 0)
      printf("   (x%.2f time for x%.1f bodies)", a.median_ms / prev_ms, (double)n / prev_n);
    printf("\n");
    fflush(stdout);
    if (!poly) {
      prev_ms = a.median_ms;
      prev_n = n;
    }
    free(sp);
  }
  printf("\nTargets: >= 5x Chipmunk at N = 20000, >= 2x at N = 5000, 0 bodies inside walls.\n");
  free(cells);
  return 0;
}
