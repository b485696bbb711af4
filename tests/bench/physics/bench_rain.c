/* "Rain on tiles": N circles fall onto a 256 x 256 map of 1 m tiles, side by
 * side with the peers in the same process: Chipmunk2D 7 (Debian's
 * libchipmunk, doubles; a static box per solid cell, spatial hash 0.5 m, 10
 * iterations, slop 0.01) and Box2D 2.4.1 (Debian's libbox2d, through the C
 * adapter box2d_peer.cpp; the solid cells' outlines as one-sided edge loops,
 * 8 velocity and 3 position iterations). Sleeping is off in all. Also a mixed
 * scene of 2000 convex polygons. For each engine: the median step's wall clock
 * and CPU time, the bodies that end inside a wall, the heap it holds. Prints a
 * table; asserts nothing about time.
 * Usage: bench-rain [N ...] [--steps S] [--warmup W] [--rounds R] [--no-peer] [--no-mixed] [--polygons]
 *                  [--phases] [--only ENGINE] [--hash]
 * --polygons runs the mixed polygon scene alone (no circle scenes), with --phases too.
 * --rounds R runs every scene R times, the engines interleaved (A B C A B C),
 * and prints each engine's median over the rounds: the machine is shared.
 * --phases prints instead where a step's time goes, phase by phase, on 1 worker (with the part
 * more workers cannot shorten) and on all of them.
 * --only ENGINE keeps the one engine of that name (for a profile or a
 * before/after comparison of one engine, e.g. --only Tessera). --hash prints
 * each Tessera world's hash at the end of its run: two builds that step the
 * same bits print the same hashes (the rows' order is the table's). */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tessera/physics.h"
#ifdef TESS_HAVE_CHIPMUNK
#include <chipmunk/chipmunk.h>
#endif
#ifdef TESS_HAVE_BOX2D
#include "box2d_peer.h"
#include "cell_outline.h"
#endif

#define MAP 256
#define RADIUS 0.25f
#define GRAVITY 10.0f
#define DT (1.0f / 60.0f)
/* Steps before the timing starts: 6 s. The circles start 2 m below the top and
 * reach the tiles of the lower half (y >= 128) after a fall of up to 126 m,
 * 5.0 s; before that every engine times a rain of free-falling bodies with few
 * contacts, and a median over steps from both phases lands on whichever
 * phase has the more steps. Tessera's 4-lane (SSE2) build against Chipmunk at
 * 20,000 circles, CPU time in blocks of 60 steps, one run: 4.0-4.3x over
 * steps 60-240 (the fall), 6.7x at 240-300, 7.0-7.6x from 300 to 1200 (the
 * pile); a 100-step run after 60 warm-up steps timed only the fall. --warmup W
 * changes it. */
#define WARMUP_DEFAULT 360
#define POLYGONS 2000
#define FRICTION 0.6f
/* Box2D 2.4 iterations. Tessera's step is 4 sub-steps, each one solve and one
 * relax pass over the contacts: 8 velocity passes per step, as Box2D's 8
 * velocity iterations (its documented default); its 3 position iterations
 * (also the default) do what Tessera's soft contacts do inside the sub-steps. */
#define BOX2D_VELOCITY_ITERATIONS 8
#define BOX2D_POSITION_ITERATIONS 3

static double seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
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

/* One body: where it starts, and its convex polygon (count 0: a circle). */
typedef struct Spawn {
  float x, y, vx, vy;
  TessVec2 v[8];
  uint32_t count;
} Spawn;

/* A random convex polygon of 3..8 vertices, about `size` across. */
static uint32_t random_polygon(TessVec2 *v, float size) {
  uint32_t n = 3 + (uint32_t)(rnd() * 6.0);
  if (n > 8) n = 8;
  float base = (float)(rnd() * 6.2831853);
  for (uint32_t i = 0; i < n; i++) {
    float a = base + 6.2831853f * ((float)i + 0.4f * (float)(rnd() - 0.5)) / (float)n;
    float r = size * (0.8f + 0.2f * (float)rnd());
    v[i] = tess_v2(r * cosf(a), r * sinf(a));
  }
  return n;
}

/* N positions on a jittered grid in the upper half, with small random velocities. */
static Spawn *make_spawns(uint32_t n, bool polygons) {
  Spawn *s = calloc(n, sizeof *s);
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
  rng_state = 99;
  for (uint32_t i = 0; polygons && i < n; i++) s[i].count = random_polygon(s[i].v, 0.3f);
  return s;
}

typedef struct Scene {
  const uint8_t *cells;
  uint32_t solid;
  const Spawn *spawns;
  uint32_t n;
} Scene;

/* An engine is four calls on an opaque world, so that every engine is timed,
 * checked and measured by the same code (run_engine). */
typedef struct Engine {
  const char *name;
  void *(*create)(const Scene *scene);
  void (*step)(void *world);
  void (*position)(void *world, uint32_t body, float *x, float *y);
  void (*destroy)(void *world);
} Engine;

/* ---- Tessera ---- */

typedef struct TesseraRun {
  TessWorld *w;
  TessBodyId *ids;
} TesseraRun;

static uint32_t all_workers = 1; /* the processors online: Tessera's second row */
static bool print_hash = false;  /* --hash */

static void *tessera_create_on(const Scene *sc, uint32_t workers) {
  TesseraRun *r = calloc(1, sizeof *r);
  TessWorldDef def;
  tess_world_def_default(&def);
  def.gravity = tess_v2(0.0f, GRAVITY);
  def.enable_sleep = false;
  def.worker_count = workers;
  tess_world_create(&def, &r->w, NULL);
  TessMapMaterial mat = {FRICTION, 0.0f, 1.0f, 1.0f, TESS_MAP_MATERIAL_SOLID};
  TessTileMapDef md;
  memset(&md, 0, sizeof md);
  md.width = md.height = MAP;
  md.cell_w = md.cell_h = 1.0f;
  md.kinds = sc->cells;
  md.material_count = 1;
  md.material_list = &mat;
  tess_world_set_tile_map(r->w, &md, NULL);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  sd.friction = FRICTION;
  r->ids = malloc(sc->n * sizeof *r->ids);
  for (uint32_t i = 0; i < sc->n; i++) {
    const Spawn *s = &sc->spawns[i];
    TessBodyDef bd;
    tess_body_def_default(&bd);
    bd.position = tess_v2(s->x, s->y);
    bd.linear_velocity = tess_v2(s->vx, s->vy);
    tess_body_create(r->w, &bd, &r->ids[i], NULL);
    if (s->count)
      tess_shape_create_polygon(r->w, r->ids[i], &sd, s->v, s->count, NULL, NULL);
    else
      tess_shape_create_circle(r->w, r->ids[i], &sd, tess_v2(0, 0), RADIUS, NULL, NULL);
  }
  return r;
}

static void *tessera_create(const Scene *sc) { return tessera_create_on(sc, 1); }
static void *tessera_create_all(const Scene *sc) { return tessera_create_on(sc, all_workers); }

static void tessera_step(void *world) { tess_world_step(((TesseraRun *)world)->w, DT, NULL); }

static void tessera_position(void *world, uint32_t body, float *x, float *y) {
  TesseraRun *r = world;
  TessVec2 p = tess_body_position(r->w, r->ids[body]);
  *x = p.x;
  *y = p.y;
}

static void tessera_destroy(void *world) {
  TesseraRun *r = world;
  if (print_hash) printf("  world hash %016llx\n", (unsigned long long)tess_world_hash(r->w));
  tess_world_destroy(r->w);
  free(r->ids);
  free(r);
}

/* ---- Chipmunk2D ---- */

#ifdef TESS_HAVE_CHIPMUNK
typedef struct ChipmunkRun {
  cpSpace *space;
  cpBody **bodies;
  uint32_t n;
} ChipmunkRun;

static void *chipmunk_create(const Scene *sc) {
  ChipmunkRun *r = calloc(1, sizeof *r);
  cpSpace *space = r->space = cpSpaceNew();
  cpSpaceSetGravity(space, cpv(0, GRAVITY));
  cpSpaceSetIterations(space, 10);
  cpSpaceSetCollisionSlop(space, 0.01);
  cpSpaceSetSleepTimeThreshold(space, INFINITY);
  cpSpaceUseSpatialHash(space, 0.5, (int)(sc->n + sc->solid) * 2);
  cpBody *ground = cpSpaceGetStaticBody(space);
  for (uint32_t y = 0; y < MAP; y++)
    for (uint32_t x = 0; x < MAP; x++)
      if (sc->cells[y * MAP + x]) {
        cpShape *s = cpSpaceAddShape(space, cpBoxShapeNew2(ground, cpBBNew(x, y, x + 1, y + 1), 0.0));
        cpShapeSetFriction(s, FRICTION);
      }
  r->n = sc->n;
  r->bodies = malloc(sc->n * sizeof *r->bodies);
  for (uint32_t i = 0; i < sc->n; i++) {
    const Spawn *sp = &sc->spawns[i];
    cpBody *b;
    cpShape *s;
    if (sp->count) {
      cpVect cv[8];
      for (uint32_t j = 0; j < sp->count; j++) cv[j] = cpv(sp->v[j].x, sp->v[j].y);
      double area = cpAreaForPoly((int)sp->count, cv, 0.0);
      b = cpBodyNew(area, cpMomentForPoly(area, (int)sp->count, cv, cpvzero, 0.0));
      s = cpPolyShapeNew(b, (int)sp->count, cv, cpTransformIdentity, 0.0);
    } else {
      double m = 3.14159265358979 * RADIUS * RADIUS;
      b = cpBodyNew(m, cpMomentForCircle(m, 0, RADIUS, cpvzero));
      s = cpCircleShapeNew(b, RADIUS, cpvzero);
    }
    cpSpaceAddBody(space, b);
    cpBodySetPosition(b, cpv(sp->x, sp->y));
    cpBodySetVelocity(b, cpv(sp->vx, sp->vy));
    cpShapeSetFriction(s, FRICTION);
    cpSpaceAddShape(space, s);
    r->bodies[i] = b;
  }
  return r;
}

static void chipmunk_step(void *world) { cpSpaceStep(((ChipmunkRun *)world)->space, DT); }

static void chipmunk_position(void *world, uint32_t body, float *x, float *y) {
  cpVect p = cpBodyGetPosition(((ChipmunkRun *)world)->bodies[body]);
  *x = (float)p.x;
  *y = (float)p.y;
}

static void free_shape(cpBody *body, cpShape *shape, void *space) {
  cpSpaceRemoveShape(space, shape);
  cpShapeFree(shape);
}

static void chipmunk_destroy(void *world) {
  ChipmunkRun *r = world;
  cpBodyEachShape(cpSpaceGetStaticBody(r->space), free_shape, r->space);
  for (uint32_t i = 0; i < r->n; i++) {
    cpBodyEachShape(r->bodies[i], free_shape, r->space);
    cpSpaceRemoveBody(r->space, r->bodies[i]);
    cpBodyFree(r->bodies[i]);
  }
  cpSpaceFree(r->space);
  free(r->bodies);
  free(r);
}
#endif

/* ---- Box2D 2.4 ---- */

#ifdef TESS_HAVE_BOX2D
static void *box2d_create(const Scene *sc) {
  Box2dPeer *p = box2d_peer_create(0.0f, GRAVITY, BOX2D_VELOCITY_ITERATIONS, BOX2D_POSITION_ITERATIONS);
  CellLoops loops;
  if (!cell_outline_loops(sc->cells, MAP, MAP, &loops)) {
    fprintf(stderr, "bench-rain: out of memory tracing the map's outlines\n");
    exit(1);
  }
  for (uint32_t i = 0; i < loops.count; i++)
    box2d_peer_add_loop(p, loops.xy + 2 * loops.start[i], loops.start[i + 1] - loops.start[i], FRICTION);
  cell_loops_free(&loops);
  for (uint32_t i = 0; i < sc->n; i++) {
    const Spawn *s = &sc->spawns[i];
    if (s->count)
      box2d_peer_add_polygon(p, s->x, s->y, s->vx, s->vy, &s->v[0].x, s->count, FRICTION);
    else
      box2d_peer_add_circle(p, s->x, s->y, s->vx, s->vy, RADIUS, FRICTION);
  }
  return p;
}

static void box2d_step(void *world) { box2d_peer_step(world, DT); }
static void box2d_position(void *world, uint32_t body, float *x, float *y) { box2d_peer_position(world, body, x, y); }
static void box2d_destroy(void *world) { box2d_peer_destroy(world); }
#endif

/* ---- timing ---- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

typedef struct Result {
  double wall_ms, cpu_ms; /* median step */
  uint32_t inside;
  double bytes_per_body;
} Result;

static bool inside_solid(const uint8_t *cells, float x, float y) {
  if (!(x >= 0.0f && y >= 0.0f && x < MAP && y < MAP)) return true; /* escaped the map */
  return cells[(uint32_t)y * MAP + (uint32_t)x] != 0;
}

/* malloc's bytes in use: small blocks plus the large ones it maps apart */
static size_t heap_bytes(void) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

/* The process's CPU time is read over windows of this many steps, not around each step: Linux
 * adds the time of a thread running on another processor to the process's clock only at a
 * scheduler tick or when the thread stops, so a worker's time arrives in lumps of a tick (about
 * 5 ms here, more than a step). The median of per-step readings then counted the stepping
 * thread alone, and a 2-worker row's CPU time came out as its wall time. A window of 20 steps
 * holds the lumps of its own steps but for a tick at either end. */
#define CPU_WINDOW 20

/* Wall clock around each step, and the process's CPU time per step over windows of CPU_WINDOW
 * steps (CPU time: the VM is shared, and wall time counts the other processes' turns too; the
 * process's, not the thread's, so that an engine's worker threads count). Heap: what
 * malloc holds at the end over what it held before the engine's world, the
 * same measure for every engine whatever its own allocator reports. */
static int warmup = WARMUP_DEFAULT; /* --warmup */

static Result run_engine(const Engine *e, const Scene *sc, int steps) {
  Result res = {0, 0, 0, 0};
  int windows = steps / CPU_WINDOW > 0 ? steps / CPU_WINDOW : 1;
  double *wall = malloc((size_t)steps * sizeof *wall), *cpu = malloc((size_t)windows * sizeof *cpu);
  size_t heap0 = heap_bytes();
  void *world = e->create(sc);
  double window_cpu = 0.0;
  int window_steps = steps < CPU_WINDOW ? steps : CPU_WINDOW;
  for (int s = 0; s < warmup + steps; s++) {
    int m = s - warmup;
    if (m >= 0 && m % window_steps == 0) window_cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
    double w0 = seconds(CLOCK_MONOTONIC);
    e->step(world);
    double w1 = seconds(CLOCK_MONOTONIC);
    if (m >= 0) wall[m] = (w1 - w0) * 1000.0;
    if (m >= 0 && (m + 1) % window_steps == 0 && m / window_steps < windows)
      cpu[m / window_steps] = (seconds(CLOCK_PROCESS_CPUTIME_ID) - window_cpu) * 1000.0 / window_steps;
  }
  res.bytes_per_body = ((double)heap_bytes() - (double)heap0) / (double)sc->n;
  for (uint32_t i = 0; i < sc->n; i++) {
    float x, y;
    e->position(world, i, &x, &y);
    if (inside_solid(sc->cells, x, y)) res.inside++;
  }
  e->destroy(world);
  res.wall_ms = median(wall, steps);
  res.cpu_ms = median(cpu, windows);
  free(wall);
  free(cpu);
  return res;
}

/* Each engine's median over the rounds, the engines interleaved in each round. */
static void run_scene(const Engine *engines, int ne, const Scene *sc, int steps, int rounds, Result *out) {
  double *wall = malloc((size_t)(ne * rounds) * sizeof *wall), *cpu = malloc((size_t)(ne * rounds) * sizeof *cpu);
  for (int r = 0; r < rounds; r++)
    for (int e = 0; e < ne; e++) {
      Result one = run_engine(&engines[e], sc, steps);
      wall[e * rounds + r] = one.wall_ms;
      cpu[e * rounds + r] = one.cpu_ms;
      if (r == 0) out[e] = one;
      if (one.inside > out[e].inside) out[e].inside = one.inside; /* the worst round */
    }
  for (int e = 0; e < ne; e++) {
    out[e].wall_ms = median(wall + e * rounds, rounds);
    out[e].cpu_ms = median(cpu + e * rounds, rounds);
  }
  free(wall);
  free(cpu);
}

static void print_header(int steps, int rounds) {
  TessWorldDef probe_def;
  tess_world_def_default(&probe_def);
  TessWorld *probe = NULL;
  tess_world_create(&probe_def, &probe, NULL);
  uint32_t lanes = probe ? tess_world_solver_lanes(probe) : 0;
  tess_world_destroy(probe);
  printf("median step over %d steps after %d warm-up, %d round%s (median of the rounds), sleeping off.\n",
         steps, warmup, rounds, rounds == 1 ? "" : "s");
  printf("  (%.1f s of warm-up: %s)\n", warmup * DT,
         warmup >= WARMUP_DEFAULT ? "the rain has reached the tiles (a 126 m fall takes 5.0 s), the timed steps are the pile's"
                                  : "SHORT: the rain is still falling onto the tiles, the timed steps are mostly free fall");
  printf("Tessera: 4 sub-steps, tile-map collider, contacts solved %u at a time (%s);\n", lanes,
         lanes == 8 ? "AVX2" : "SSE2 or plain C; TESS_PHYSICS_SIMD=sse2 forces this");
  printf("  'Tessera' steps on one thread, 'Tessera xN' on N workers (TessWorldDef.worker_count, one per processor).\n");
  printf("Chipmunk2D 7 (doubles): a static box per solid cell, spatial hash 0.5 m, 10 iterations, slop 0.01.\n");
#ifdef TESS_HAVE_BOX2D
  printf(
      "Box2D %s (Debian's libbox2d): the solid cells' outlines as one-sided edge loops (collinear edges merged),\n"
      "  %d velocity / %d position iterations, continuous collision on (its defaults).\n",
      TESS_BOX2D_VERSION, BOX2D_VELOCITY_ITERATIONS, BOX2D_POSITION_ITERATIONS);
#endif
  printf(
      "wall and CPU: ms per step; inside: bodies ending inside a wall (worst round); heap: bytes per body;\n"
      "wall / T, CPU / T: the engine's time over Tessera's (CPU time is the steadier on a busy machine).\n\n");
  printf("%-22s %6s  %-14s %9s %9s %7s %8s %8s %8s\n", "scene", "N", "engine", "wall ms", "CPU ms", "inside", "heap B",
         "wall / T", "CPU / T");
}

/* --phases: where a step's time goes (TessStepProfile, TESS_PHYSICS_PROFILE=1), each phase's
 * thread CPU time on the stepping thread and the part of it outside the loops the workers share,
 * summed over the steps after the warm-up and printed per step; then, for 1 worker, Amdahl's bound
 * for 2 and 4. On N workers the stepping thread spins while it waits for the others at the end of
 * a loop, so its CPU time per phase is that phase's time on N workers: set beside the 1-worker
 * figures it shows which phases the second worker shortens and which it does not. */
static void print_phases(const Scene *sc, int steps, uint32_t workers) {
  setenv("TESS_PHYSICS_PROFILE", "1", 1);
  TesseraRun *r = tessera_create_on(sc, workers);
  unsetenv("TESS_PHYSICS_PROFILE");
  enum { PHASES = 9 };
  static const char *names[PHASES] = {"step", "prepare", "broad phase", "narrow phase", "islands",
                                      "solver setup", "solve", "finish", "sleep"};
  double total[PHASES] = {0}, serial[PHASES] = {0};
  for (int s = 0; s < warmup + steps; s++) {
    tessera_step(r);
    if (s < warmup) continue;
    TessStepProfile p = tess_world_profile(r->w);
    const TessStepPhase *ph[PHASES] = {&p.step, &p.prepare, &p.broad_phase, &p.narrow_phase, &p.islands,
                                       &p.solver_setup, &p.solve, &p.finish, &p.sleep};
    for (int k = 0; k < PHASES; k++) {
      total[k] += ph[k]->total;
      serial[k] += ph[k]->serial;
    }
  }
  tessera_destroy(r);
  printf("%u %s, %u worker%s, stepping thread's CPU ms per step (mean of %d): phase, total, outside the shared loops\n",
         sc->n, sc->spawns[0].count ? "polygons" : "circles", workers, workers == 1 ? "" : "s", steps);
  for (int k = 0; k < PHASES; k++)
    printf("  %-13s %8.3f %8.3f  (serial %4.1f%% of the step)\n", names[k], total[k] / steps, serial[k] / steps,
           100.0 * serial[k] / total[0]);
  double f = serial[0] / total[0];
  if (workers == 1)
    printf("  serial fraction %.3f: Amdahl's bound %.2fx on 2 workers, %.2fx on 4\n", f, 1.0 / (f + (1.0 - f) / 2.0),
           1.0 / (f + (1.0 - f) / 4.0));
  printf("\n");
}

int main(int argc, char **argv) {
  uint32_t ns[8];
  int count = 0, steps = 600, rounds = 1;
  bool peer = true, mixed = true, phases = false, polygons_only = false;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc)
      steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--no-peer"))
      peer = false;
    else if (!strcmp(argv[i], "--no-mixed"))
      mixed = false;
    else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
      warmup = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--hash"))
      print_hash = true;
    else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--phases"))
      phases = true;
    else if (!strcmp(argv[i], "--polygons"))
      polygons_only = true;
    else if (count < 8)
      ns[count++] = (uint32_t)atoi(argv[i]);
  }
  if (polygons_only) {
    count = 0;
    mixed = true;
  } else if (count == 0) {
    ns[0] = 1000;
    ns[1] = 5000;
    ns[2] = 20000;
    count = 3;
  }
  if (steps < 1) steps = 1;
  if (warmup < 0) warmup = 0;
  if (rounds < 1) rounds = 1;
  Engine engines[5];
  int ne = 0;
  engines[ne++] = (Engine){"Tessera", tessera_create, tessera_step, tessera_position, tessera_destroy};
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  all_workers = cores > 1 ? (cores < 64 ? (uint32_t)cores : 64u) : 1u;
  char all_name[32];
  snprintf(all_name, sizeof all_name, "Tessera x%u", all_workers);
  engines[ne++] = (Engine){all_name, tessera_create_all, tessera_step, tessera_position, tessera_destroy};
#ifdef TESS_HAVE_CHIPMUNK
  if (peer) {
    cpSpaceFree(cpSpaceNew()); /* Chipmunk prints its banner once: get it out of the table's way */
    engines[ne++] = (Engine){"Chipmunk2D", chipmunk_create, chipmunk_step, chipmunk_position, chipmunk_destroy};
  }
#endif
#ifdef TESS_HAVE_BOX2D
  if (peer) engines[ne++] = (Engine){"Box2D 2.4", box2d_create, box2d_step, box2d_position, box2d_destroy};
#endif
  if (only) {
    int kept = 0;
    for (int e = 0; e < ne; e++)
      if (!strcmp(engines[e].name, only)) engines[kept++] = engines[e];
    if (kept == 0) {
      fprintf(stderr, "bench-rain: --only %s: no engine of that name\n", only);
      return 2;
    }
    ne = kept;
  }
  uint32_t solid;
  uint8_t *cells = make_cells(&solid);
  printf("Rain on tiles: %dx%d map of 1 m tiles, %u solid cells, circles r = %.2f m, gravity %.0f, 60 Hz,\n", MAP, MAP,
         solid, RADIUS, GRAVITY);
  if (phases) {
    for (int k = 0; k < count + (polygons_only ? 1 : 0); k++) {
      bool poly = k == count;
      Scene sc = {cells, solid, NULL, poly ? POLYGONS : ns[k]};
      Spawn *sp = make_spawns(sc.n, poly);
      sc.spawns = sp;
      print_phases(&sc, steps, 1);
      if (all_workers > 1) print_phases(&sc, steps, all_workers);
      free(sp);
    }
    free(cells);
    return 0;
  }
  print_header(steps, rounds);
  for (int k = 0; k < count + (mixed ? 1 : 0); k++) {
    bool poly = k == count;
    Scene sc = {cells, solid, NULL, poly ? POLYGONS : ns[k]};
    Spawn *sp = make_spawns(sc.n, poly);
    sc.spawns = sp;
    Result res[5];
    run_scene(engines, ne, &sc, steps, rounds, res);
    for (int e = 0; e < ne; e++) {
      const char *scene = e ? "" : poly ? "mixed: convex polygons"
                                        : "rain: circles";
      printf("%-22s %6u  %-14s %9.3f %9.3f %7u %8.0f %7.2fx %7.2fx\n", scene, sc.n, engines[e].name, res[e].wall_ms,
             res[e].cpu_ms, res[e].inside, res[e].bytes_per_body, res[e].wall_ms / res[0].wall_ms,
             res[e].cpu_ms / res[0].cpu_ms);
    }
    fflush(stdout);
    free(sp);
  }
#ifndef TESS_HAVE_CHIPMUNK
  printf("(Chipmunk2D not built: libchipmunk-dev missing)\n");
#endif
#ifndef TESS_HAVE_BOX2D
  printf("(Box2D not built: libbox2d-dev or a C++ compiler missing)\n");
#endif
  printf("\nTargets: >= 5x Chipmunk at N = 20000, >= 2x at N = 5000, 0 bodies inside walls.\n");
  free(cells);
  return 0;
}
