/* What the step's task system costs (core/physics/tasks.c), beside its physical limit.
 *
 * 1. One parallel loop's round trip: physics_parallel_for on 1 worker (a plain call) and on the
 *    pool's 2 workers, with empty and with small bodies, beside a bare two-thread spin barrier
 *    (one store, one spin each way: no pool can hand a loop over and back faster). Wall and
 *    process CPU per loop (the median loop too: preemptions move the mean), the share of items the second thread ran, and the machine's steal
 *    time (/proc/stat) over the run: a VM whose vCPUs share one host CPU shows it there.
 * 2. Loops per step in rain scenes (circles and polygons piled in a tiled pit): the loops the
 *    step hands to a game's scheduler (TessWorldDef.enqueue_task, here one that counts and
 *    runs each loop where it is handed over, cut as for 2 workers), how much work each holds,
 *    and loops x round trip: the time one step spends handing loops over at best.
 * 3. With --steps: the scenes' step time on 1 and 2 workers (wall, CPU, steal). Two workers'
 *    scaling means something only on a quiet machine: the load average is printed beside it.
 *    Beside each, the pool's policy: loops per step it handed over and kept on the caller, the
 *    share of steps its governor ran on the caller alone. With --busy, each scene again with a
 *    third busy process (a spinning child) sharing the processors, and once more with the whole
 *    process on one processor: 2 workers should then lose little or nothing against 1, and the
 *    governor's first switch (the step it came at) shows how soon it noticed. Each row also
 *    measures the bare barrier's trip first: whether the host runs our vCPUs near or apart.
 * Asserts nothing about time.
 * Usage: bench-tasks [--rounds R] [--steps] [--busy] [--quick] */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_setaffinity */
#endif
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "physics_private.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PAUSE() _mm_pause()
#else
#define PAUSE() ((void)0)
#endif

static double now(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The machine's jiffies: all, and stolen by the host (the 8th field of /proc/stat's cpu line). */
typedef struct Jiffies {
  unsigned long long total, steal;
} Jiffies;

static Jiffies jiffies(void) {
  Jiffies j = {0, 0};
  FILE *f = fopen("/proc/stat", "r");
  unsigned long long v[8] = {0};
  if (f && fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                  &v[7]) == 8) {
    for (int i = 0; i < 8; i++) j.total += v[i];
    j.steal = v[7];
  }
  if (f) fclose(f);
  return j;
}

static double steal_percent(Jiffies a, Jiffies b) {
  return b.total > a.total ? 100.0 * (double)(b.steal - a.steal) / (double)(b.total - a.total) : 0.0;
}

static double load_average(void) {
  double l = -1.0;
  FILE *f = fopen("/proc/loadavg", "r");
  if (f && fscanf(f, "%lf", &l) != 1) l = -1.0;
  if (f) fclose(f);
  return l;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* ---- 1. Round trips ---------------------------------------------------- */

/* The bare barrier: the caller bumps `ping`, the other thread answers in `pong`. */
static _Alignas(64) atomic_uint ping;
static _Alignas(64) atomic_uint pong;

static void *barrier_peer(void *arg) {
  (void)arg;
  unsigned seen = 0, g;
  for (;;) {
    while ((g = atomic_load_explicit(&ping, memory_order_acquire)) == seen) PAUSE();
    if (g == UINT32_MAX) return NULL;
    seen = g;
    atomic_store_explicit(&pong, g, memory_order_release);
  }
}

/* The loops' bodies: nothing, or per item a chain of 16 dependent square roots (about 2 us for
 * 64 items): a short loop of the solver. Every item's chain starts afresh, so a loop costs the
 * same however it is cut, and the chains are kept off the vector lanes. Items the stepping
 * thread did not run are counted (the pool's second thread took part). */
#define SMALL_ITEMS 64u
static float small_out[SMALL_ITEMS];
static _Thread_local bool on_caller;
static atomic_uint items_elsewhere;

static void empty_task(void *ctx, uint32_t begin, uint32_t end) {
  (void)ctx;
  if (!on_caller) atomic_fetch_add_explicit(&items_elsewhere, end - begin, memory_order_relaxed);
}

#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-vectorize")))
#endif
static void
small_task(void *ctx, uint32_t begin, uint32_t end) {
  const float *k = ctx;
  for (uint32_t i = begin; i < end; i++) {
    float x = (float)i;
    for (int r = 0; r < 16; r++) x = sqrtf(x + k[1]);
    small_out[i] = x;
  }
  empty_task(NULL, begin, end);
}

typedef struct Trip {
  double wall_ns, median_ns, cpu_ns, elsewhere, steal;
} Trip;

/* Each loop's own wall time, the first SAMPLES of a run: their median is what a loop costs
 * when neither thread is preempted, which a loaded machine does to the mean. */
#define SAMPLES 65536
static double samples[SAMPLES];

/* kind 0: the bare barrier; else physics_parallel_for on `pool` (NULL: 1 worker) over
 * `count` items, grain 1, empty (kind 1) or small (kind 2) bodies. Runs for `seconds`. */
static Trip round_trip(int kind, TaskPool *pool, uint32_t count, double seconds) {
  static const float k[2] = {0.999f, 0.5f};
  pthread_t peer;
  if (kind == 0) {
    atomic_store(&ping, 0u);
    atomic_store(&pong, 0u);
    pthread_create(&peer, NULL, barrier_peer, NULL);
  }
  on_caller = true;
  atomic_store(&items_elsewhere, 0u);
  Jiffies j0 = jiffies();
  double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID), end = w0 + seconds;
  uint64_t loops = 0;
  for (;;) {
    for (int b = 0; b < 256; b++, loops++) {
      double t0 = now(CLOCK_MONOTONIC);
      if (kind == 0) {
        unsigned g = (unsigned)loops + 1u;
        atomic_store_explicit(&ping, g, memory_order_release);
        while (atomic_load_explicit(&pong, memory_order_acquire) != g) PAUSE();
      } else {
        physics_parallel_for(pool, count, 1, kind == 1 ? empty_task : small_task, (void *)k);
      }
      if (loops < SAMPLES) samples[loops] = now(CLOCK_MONOTONIC) - t0;
    }
    if (now(CLOCK_MONOTONIC) > end) break;
  }
  double wall = now(CLOCK_MONOTONIC) - w0, cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
  Jiffies j1 = jiffies();
  if (kind == 0) {
    atomic_store(&ping, UINT32_MAX);
    pthread_join(peer, NULL);
  }
  Trip t = {wall * 1e9 / (double)loops, median(samples, loops < SAMPLES ? (int)loops : SAMPLES) * 1e9,
            cpu * 1e9 / (double)loops, kind == 0 ? 0.0 : 100.0 * atomic_load(&items_elsewhere) / ((double)loops * count),
            steal_percent(j0, j1)};
  return t;
}

typedef struct TripRow {
  const char *name;
  int kind, workers;
  uint32_t count;
} TripRow;

static const TripRow trip_rows[] = {
    {"bare spin barrier, 2 threads", 0, 2, 0},
    {"parallel_for, empty, 64 items", 1, 1, 64},
    {"parallel_for, empty, 64 items", 1, 2, 64},
    {"parallel_for, small, 64 items", 2, 1, SMALL_ITEMS},
    {"parallel_for, small, 64 items", 2, 2, SMALL_ITEMS},
};
#define TRIP_ROWS (sizeof trip_rows / sizeof trip_rows[0])

/* Returns the bare barrier's median trip (ns): the least a loop handed over can cost. */
static double round_trips(int rounds, double seconds) {
  TaskPool *pool = physics_tasks_create(2);
  double wall[TRIP_ROWS][16], mid[TRIP_ROWS][16], cpu[TRIP_ROWS][16], other[TRIP_ROWS][16], steal[TRIP_ROWS][16];
  for (int r = 0; r < rounds; r++) /* rows interleaved, round after round: the machine is shared */
    for (size_t i = 0; i < TRIP_ROWS; i++) {
      const TripRow *row = &trip_rows[i];
      Trip t = round_trip(row->kind, row->workers == 2 ? pool : NULL, row->count, seconds);
      wall[i][r] = t.wall_ns;
      mid[i][r] = t.median_ns;
      cpu[i][r] = t.cpu_ns;
      other[i][r] = t.elsewhere;
      steal[i][r] = t.steal;
    }
  printf("\n1. One loop's round trip (median of %d rounds of %.2f s; load average %.1f)\n", rounds, seconds,
         load_average());
  printf("%-32s %7s %9s %9s %9s %11s %7s\n", "loop", "workers", "median ns", "mean ns", "CPU ns", "2nd thread",
         "steal");
  double result = 0.0;
  for (size_t i = 0; i < TRIP_ROWS; i++) {
    const TripRow *row = &trip_rows[i];
    double w = median(wall[i], rounds), m = median(mid[i], rounds), c = median(cpu[i], rounds);
    double o = median(other[i], rounds), s = median(steal[i], rounds);
    if (row->kind == 0)
      printf("%-32s %7d %9.0f %9.0f %9.0f %11s %6.1f%%\n", row->name, row->workers, m, w, c, "-", s);
    else
      printf("%-32s %7d %9.0f %9.0f %9.0f %10.0f%% %6.1f%%\n", row->name, row->workers, m, w, c, o, s);
    if (row->kind == 0) result = m;
  }
  printf(
      "(median: of each loop's own time, clock reads included (~50 ns); mean: over the run, preemptions\n"
      " included; CPU: the process's per loop; 2nd thread: the share of items the pool's worker ran; steal:\n"
      " the host's share of the machine's time. A bare barrier far above a microsecond on a quiet machine means\n"
      " the two vCPUs are not running side by side)\n");
  physics_tasks_destroy(pool);
  return result;
}

/* ---- 2. Loops per step ------------------------------------------------- */

#define PIT 128

typedef struct LoopCount {
  uint64_t loops, items, under_2us;
  double work_s;
} LoopCount;

/* A game's scheduler that runs each loop where it is handed over, counting. */
static void *count_enqueue(TessTaskFn *task, uint32_t count, uint32_t min_range, void *task_context, void *user) {
  LoopCount *c = user;
  (void)min_range;
  double t0 = now(CLOCK_MONOTONIC);
  task(0, count, 0, task_context);
  double t = now(CLOCK_MONOTONIC) - t0;
  c->loops++;
  c->items += count;
  c->work_s += t;
  c->under_2us += t < 2e-6;
  return NULL;
}

static void count_finish(void *task, void *user) {
  (void)task;
  (void)user;
}

typedef struct SceneDef {
  const char *name;
  uint32_t n;
  bool polygons;
} SceneDef;

static const SceneDef scenes[] = {
    {"circles", 1000, false}, {"circles", 5000, false}, {"circles", 20000, false}, {"polygons", 2000, true}};
#define SCENES (sizeof scenes / sizeof scenes[0])

/* A pit of 1 m tiles (border, floor, a bump every 7 cells), N bodies on a grid above. */
static TessWorld *make_scene(const SceneDef *s, TessWorldDef *def) {
  TessWorld *w = NULL;
  def->gravity = tess_v2(0.0f, 10.0f);
  def->enable_sleep = false;
  if (tess_world_create(def, &w, NULL) != TESS_OK) return NULL;
  static uint8_t cells[PIT * PIT];
  for (uint32_t y = 0; y < PIT; y++)
    for (uint32_t x = 0; x < PIT; x++)
      cells[y * PIT + x] = x == 0 || x == PIT - 1 || y == PIT - 1 || (y == PIT - 2 && x % 7 == 3);
  TessMapMaterial mat = {0.6f, 0.0f, 1.0f, 1.0f, TESS_MAP_MATERIAL_SOLID};
  TessTileMapDef md;
  memset(&md, 0, sizeof md);
  md.width = md.height = PIT;
  md.cell_w = md.cell_h = 1.0f;
  md.kinds = cells;
  md.material_count = 1;
  md.material_list = &mat;
  tess_world_set_tile_map(w, &md, NULL);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  sd.friction = 0.6f;
  const float pitch = 0.6f;
  uint32_t cols = (uint32_t)((PIT - 4) / pitch);
  for (uint32_t i = 0; i < s->n; i++) {
    TessBodyDef bd;
    tess_body_def_default(&bd);
    uint32_t row = i / cols;
    bd.position = tess_v2(2.0f + pitch * (float)(i % cols) + 0.01f * (float)(row % 5), (float)PIT - 3.0f - pitch * (float)row);
    TessBodyId id;
    tess_body_create(w, &bd, &id, NULL);
    if (!s->polygons) {
      tess_shape_create_circle(w, id, &sd, tess_v2(0.0f, 0.0f), 0.25f, NULL, NULL);
    } else if (i % 2) {
      tess_shape_create_box(w, id, &sd, 0.25f, 0.2f, tess_v2(0.0f, 0.0f), 0.0f, NULL, NULL);
    } else {
      TessVec2 tri[3] = {tess_v2(-0.28f, 0.2f), tess_v2(0.28f, 0.2f), tess_v2(0.0f, -0.25f)};
      tess_shape_create_polygon(w, id, &sd, tri, 3, NULL, NULL);
    }
  }
  return w;
}

#define WARMUP 180 /* 3 s: the bodies have landed and pile */
#define COUNTED 30

typedef struct Warm {
  void *snapshot;
  size_t size;
} Warm;

static Warm loops_per_step(const SceneDef *s, double trip_ns) {
  LoopCount c = {0};
  TessWorldDef def;
  tess_world_def_default(&def);
  def.worker_count = 2; /* cut as for 2 workers */
  def.enqueue_task = count_enqueue;
  def.finish_task = count_finish;
  def.user_task_context = &c;
  TessWorld *w = make_scene(s, &def);
  Warm warm = {NULL, 0};
  if (!w) return warm;
  for (int i = 0; i < WARMUP; i++) tess_world_step(w, 1.0f / 60.0f, NULL);
  memset(&c, 0, sizeof c);
  double t0 = now(CLOCK_MONOTONIC);
  for (int i = 0; i < COUNTED; i++) tess_world_step(w, 1.0f / 60.0f, NULL);
  double step_ms = (now(CLOCK_MONOTONIC) - t0) * 1e3 / COUNTED;
  double loops = (double)c.loops / COUNTED;
  printf("%-9s %6u %9.0f %9.0f %8.0f%% %8.2f %8.2f %10.3f\n", s->name, s->n, loops, (double)c.items / (double)c.loops,
         100.0 * (double)c.under_2us / (double)c.loops, step_ms, c.work_s * 1e3 / COUNTED, loops * trip_ns * 1e-6);
  warm.size = tess_world_snapshot_size(w);
  warm.snapshot = malloc(warm.size);
  if (warm.snapshot && tess_world_snapshot(w, warm.snapshot, warm.size, NULL) != TESS_OK) {
    free(warm.snapshot);
    warm.snapshot = NULL;
  }
  tess_world_destroy(w);
  return warm;
}

/* ---- 3. Steps on 1 and 2 workers --------------------------------------- */

typedef struct StepTime {
  double wall_ms, cpu_ms, steal;
  int first_switch; /* the step at which the governor first changed its way (-1: never) */
  uint64_t hash;
  PhysicsTaskStats stats; /* the pool's, over the timed steps */
} StepTime;

static StepTime time_steps(const SceneDef *s, const Warm *warm, uint32_t workers, int steps) {
  StepTime t = {0};
  TessWorldDef def;
  tess_world_def_default(&def);
  def.worker_count = workers;
  TessWorld *w = make_scene(s, &def);
  if (!w || tess_world_restore(w, warm->snapshot, warm->size, NULL) != TESS_OK) {
    fprintf(stderr, "bench-tasks: the warm %s scene did not restore\n", s->name);
    exit(1);
  }
  double wall[64], cpu[64];
  PhysicsTaskStats s0 = physics_tasks_stats(w->tasks);
  Jiffies j0 = jiffies();
  t.first_switch = -1;
  for (int i = 0; i < steps && i < 64; i++) {
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    tess_world_step(w, 1.0f / 60.0f, NULL);
    wall[i] = (now(CLOCK_MONOTONIC) - w0) * 1e3;
    cpu[i] = (now(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e3;
    if (t.first_switch < 0 && physics_tasks_stats(w->tasks).switches > s0.switches) t.first_switch = i;
  }
  t.steal = steal_percent(j0, jiffies());
  PhysicsTaskStats s1 = physics_tasks_stats(w->tasks);
  t.stats = (PhysicsTaskStats){s1.loops - s0.loops,
                               s1.entries - s0.entries,
                               s1.chunks - s0.chunks,
                               s1.caller_chunks - s0.caller_chunks,
                               s1.waits - s0.waits,
                               s1.wait_ns - s0.wait_ns,
                               s1.inline_loops - s0.inline_loops,
                               s1.parallel_steps - s0.parallel_steps,
                               s1.inline_steps - s0.inline_steps,
                               s1.probes - s0.probes,
                               s1.switches - s0.switches,
                               s1.sleeps - s0.sleeps};
  t.wall_ms = median(wall, steps);
  t.cpu_ms = median(cpu, steps);
  t.hash = tess_world_hash(w);
  tess_world_destroy(w);
  return t;
}

/* A third busy process: a child that spins until it is killed (0: none could start). */
static pid_t start_busy(void) {
  pid_t pid = fork();
  if (pid == 0) {
    volatile unsigned long spin = 0;
    for (;;) spin++;
  }
  return pid > 0 ? pid : 0;
}

static void stop_busy(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
}

/* The bare barrier's median trip now (ns): about 100 when the host runs our two vCPUs on cores
 * that share a cache, 350-500 when it runs them apart (then every cache line the threads pass
 * each other costs that much more). */
static double trip_now(void) {
  pthread_t peer;
  atomic_store(&ping, 0u);
  atomic_store(&pong, 0u);
  pthread_create(&peer, NULL, barrier_peer, NULL);
  enum { TRIPS = 4096 };
  for (unsigned i = 0; i < TRIPS; i++) {
    double t0 = now(CLOCK_MONOTONIC);
    atomic_store_explicit(&ping, i + 1u, memory_order_release);
    while (atomic_load_explicit(&pong, memory_order_acquire) != i + 1u) PAUSE();
    samples[i] = now(CLOCK_MONOTONIC) - t0;
  }
  atomic_store(&ping, UINT32_MAX);
  pthread_join(peer, NULL);
  return median(samples, TRIPS) * 1e9;
}

/* Puts this thread (and so the world's workers it starts) on one processor, or back on all:
 * a stand-in for a host that runs both vCPUs on one core. False where it cannot. */
static bool one_processor(bool one, cpu_set_t *all) {
#if defined(__linux__)
  if (one) {
    if (sched_getaffinity(0, sizeof *all, all) != 0) return false;
    cpu_set_t first;
    CPU_ZERO(&first);
    for (int c = 0; c < CPU_SETSIZE; c++)
      if (CPU_ISSET(c, all)) {
        CPU_SET(c, &first);
        break;
      }
    return sched_setaffinity(0, sizeof first, &first) == 0;
  }
  return sched_setaffinity(0, sizeof *all, all) == 0;
#else
  (void)one;
  (void)all;
  return false;
#endif
}

static void steps_on_workers(const Warm *warm, int rounds, bool busy) {
  printf(
      "\n3. Steps on 1 and 2 workers from the warm scenes (median step of 40, median of %d rounds, "
      "load average %.1f: below 3 the machine is quiet enough to judge scaling)\n",
      rounds, load_average());
  printf("%-15s %6s %5s %8s %8s %8s %8s %8s %6s %5s | %6s %6s %6s %7s %7s %8s %5s %7s\n", "scene", "N", "trip", "1w wall",
         "1w CPU", "2w wall", "2w CPU", "speed-up", "steal", "same", "loops", "caller", "alone", "entered", "2nd chk",
         "wait us", "naps", "switch");
  for (size_t row = 0; row < (busy ? 3u : 1u) * SCENES; row++) {
    size_t i = row % SCENES;
    if (!warm[i].snapshot) continue;
    double trip = trip_now(); /* before the process is put on one processor */
    cpu_set_t all;
    bool one = row >= 2u * SCENES && one_processor(true, &all);
    if (row >= 2u * SCENES && !one) continue;
    pid_t third = row >= SCENES && row < 2u * SCENES ? start_busy() : 0;
    char label[32];
    snprintf(label, sizeof label, "%s%s", scenes[i].name, third ? " +busy" : one ? " 1 CPU"
                                                                                 : "");
    double w1[16], c1[16], w2[16], c2[16], st[16], entered[16], share[16], wait[16], caller[16], alone[16], flip[16], naps[16];
    bool same = true;
    uint64_t loops = 0;
    for (int r = 0; r < rounds; r++) {
      StepTime a = time_steps(&scenes[i], &warm[i], 1, 40), b = time_steps(&scenes[i], &warm[i], 2, 40);
      w1[r] = a.wall_ms;
      c1[r] = a.cpu_ms;
      w2[r] = b.wall_ms;
      c2[r] = b.cpu_ms;
      st[r] = 0.5 * (a.steal + b.steal);
      same = same && a.hash == b.hash;
      const PhysicsTaskStats *p = &b.stats;
      loops = p->loops;
      entered[r] = p->loops ? 100.0 * (double)p->entries / (double)p->loops : 0.0;
      share[r] = p->chunks ? 100.0 * (double)(p->chunks - p->caller_chunks) / (double)p->chunks : 0.0;
      wait[r] = (double)p->wait_ns * 1e-3 / 40.0;
      naps[r] = (double)p->sleeps / 40.0;
      caller[r] = (double)p->inline_loops / 40.0;
      alone[r] = 100.0 * (double)p->inline_steps / (double)(p->inline_steps + p->parallel_steps);
      flip[r] = b.first_switch < 0 ? 1e9 : b.first_switch;
    }
    stop_busy(third);
    if (one) one_processor(false, &all);
    double a = median(w1, rounds), b = median(w2, rounds), f = median(flip, rounds);
    char flipped[16] = "-";
    if (f < 1e9) snprintf(flipped, sizeof flipped, "%.0f", f);
    printf("%-15s %6u %5.0f %8.3f %8.3f %8.3f %8.3f %7.2fx %5.1f%% %5s | %6.0f %6.0f %5.0f%% %6.0f%% %6.0f%% %8.1f %5.1f %7s\n",
           label, scenes[i].n, trip, a, median(c1, rounds), b, median(c2, rounds), a / b, median(st, rounds),
           same ? "yes" : "NO", (double)loops / 40.0, median(caller, rounds), median(alone, rounds),
           median(entered, rounds), median(share, rounds), median(wait, rounds), median(naps, rounds), flipped);
  }
  printf(
      "(ms per step; trip: the bare barrier's median trip (ns) before the row, about 100 when the host runs\n"
      " our vCPUs on cores that share a cache, 350-500 when apart; same: 1 and 2 workers end on the same world\n"
      " hash; +busy: a third process spins beside; 1 CPU: the process on one processor (a host running both\n"
      " vCPUs on one core); switch: the median step of 40 at which the governor first changed its way.\n"
      " Right of |, the 2-worker pool per step: loops handed over and kept on the caller (too little work,\n"
      " or a step the governor ran there), the share of steps the governor ran on the caller alone, the\n"
      " share of loops the worker entered, the share of chunks it ran, the stepping thread's time\n"
      " waiting at a loop's end for a worker still inside, and how many of those waits it slept through)\n");
}

int main(int argc, char **argv) {
  int rounds = 5;
  bool steps = false, quick = false, busy = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = atoi(argv[++i]);
      if (rounds < 1) rounds = 1;
      if (rounds > 16) rounds = 16;
    } else if (!strcmp(argv[i], "--steps")) {
      steps = true;
    } else if (!strcmp(argv[i], "--quick")) {
      quick = true;
    } else if (!strcmp(argv[i], "--busy")) {
      busy = true;
    } else {
      fprintf(stderr, "usage: bench-tasks [--rounds R] [--steps] [--busy] [--quick]\n");
      return 2;
    }
  }
  printf("bench-tasks: the step's parallel loops (core/physics/tasks.c)\n");
  double trip = round_trips(rounds, quick ? 0.05 : 0.25);
  printf("\n2. Loops per step (%d steps after %d; each loop run where it is handed over, cut as for 2 workers)\n",
         COUNTED, WARMUP);
  printf("%-9s %6s %9s %9s %9s %8s %8s %10s\n", "scene", "N", "loops", "items", "< 2 us", "step ms", "in loops",
         "sync ms");
  Warm warm[SCENES];
  for (size_t i = 0; i < SCENES; i++) warm[i] = loops_per_step(&scenes[i], trip);
  printf(
      "(loops: per step; items: per loop, mean; < 2 us: loops with less work than that on one thread; step ms and\n"
      " in loops: one thread's step and the part of it inside the loops; sync ms: loops x the bare barrier's\n"
      " median trip, the least one step can spend handing its loops over)\n");
  if (steps) steps_on_workers(warm, quick ? 1 : rounds, busy);
  for (size_t i = 0; i < SCENES; i++) free(warm[i].snapshot);
  return 0;
}
