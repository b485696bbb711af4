/* The world's own workers (core/physics/tasks.c) wait the way they promise: between steps they
 * sleep and cost no CPU; inside a step they may fall asleep (a game's callback that takes long)
 * and the next loop wakes them, and the world still steps to the same bits as on one thread.
 * The workers are seen from outside, as the kernel sees them: the threads of this process in
 * /proc/self/task (named tess-physics), their run time (schedstat, ns) and their state (S: asleep).
 * The pool's policy too: a loop too small to hand over stays on the caller, and the governor
 * keeps whichever way of running steps its timings say is faster. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stdatomic.h>

#include "check.h"
#include "physics_private.h"
#include "tessera/physics.h"

#define MAX_THREADS 16

/* The world's workers: this process's threads named tess-physics (tasks.c names them). */
static uint32_t worker_tids(long *tids) {
  uint32_t n = 0;
  DIR *d = opendir("/proc/self/task");
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < MAX_THREADS) {
    long tid = atol(e->d_name);
    char path[64], name[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%ld/comm", tid);
    FILE *f = tid > 0 ? fopen(path, "r") : NULL;
    if (!f) continue;
    if (!fgets(name, sizeof name, f)) name[0] = '\0';
    fclose(f);
    if (!strcmp(name, "tess-physics\n")) tids[n++] = tid;
  }
  closedir(d);
  return n;
}

/* A thread's time on a processor (ns), or -1. */
static long long thread_run_ns(long tid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", tid);
  FILE *f = fopen(path, "r");
  long long ns = -1;
  if (f && fscanf(f, "%lld", &ns) != 1) ns = -1;
  if (f) fclose(f);
  return ns;
}

/* A thread's state letter (R running, S asleep, ...), or '?'. */
static char thread_state(long tid) {
  char path[64], buf[256];
  snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
  FILE *f = fopen(path, "r");
  size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  buf[got] = '\0';
  const char *close = strrchr(buf, ')'); /* the name may hold spaces and brackets */
  return close && close[1] == ' ' ? close[2] : '?';
}

static bool all_asleep(const long *tids, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (thread_state(tids[i]) != 'S') return false;
  return true;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

/* A pit of 1 m tiles 40 wide and 60 deep, a sensor across it at y 30..32 when asked, and n
 * circles on a grid above it: enough bodies that the step's loops are split among workers. */
static TessWorld *pit_world(uint32_t workers, uint32_t n, bool sensor, TessSensorBeginFn fn, void *user) {
  TessWorldDef def;
  tess_world_def_default(&def);
  def.gravity = tess_v2(0.0f, 10.0f);
  def.worker_count = workers;
  def.sensor_begin_fn = fn;
  def.callback_user = user;
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create(&def, &w, &err), &err);
  enum { W = 40,
         H = 60 };
  static uint8_t cells[W * H];
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) cells[y * W + x] = x == 0 || x == W - 1 || y == H - 1;
  TessMapMaterial mat = {0.5f, 0.0f, 1.0f, 1.0f, TESS_MAP_MATERIAL_SOLID};
  TessTileMapDef md;
  memset(&md, 0, sizeof md);
  md.width = W;
  md.height = H;
  md.cell_w = md.cell_h = 1.0f;
  md.kinds = cells;
  md.material_count = 1;
  md.material_list = &mat;
  CHECK_OK(tess_world_set_tile_map(w, &md, &err), &err);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  if (sensor) {
    TessBodyDef bd;
    tess_body_def_default(&bd);
    bd.type = TESS_BODY_STATIC;
    bd.position = tess_v2(20.0f, 31.0f);
    TessBodyId s;
    CHECK_OK(tess_body_create(w, &bd, &s, &err), &err);
    TessShapeDef ss = sd;
    ss.sensor = true;
    CHECK_OK(tess_shape_create_box(w, s, &ss, 19.0f, 1.0f, tess_v2(0.0f, 0.0f), 0.0f, NULL, &err), &err);
  }
  for (uint32_t i = 0; i < n; i++) {
    TessBodyDef bd;
    tess_body_def_default(&bd);
    bd.position = tess_v2(1.6f + 0.6f * (float)(i % 61) + 0.01f * (float)(i / 61 % 3), 28.0f - 0.55f * (float)(i / 61));
    TessBodyId b;
    CHECK_OK(tess_body_create(w, &bd, &b, &err), &err);
    CHECK_OK(tess_shape_create_circle(w, b, &sd, tess_v2(0.0f, 0.0f), 0.25f, NULL, &err), &err);
  }
  return w;
}

/* After some steps on 2 and on 4 workers, the world idles 100 ms: each worker thread runs less
 * than 2 ms of it and is asleep. The workers exist and woke for the steps (they ran at all). */
static void idle_workers_sleep_between_steps(void) {
  for (uint32_t workers = 2; workers <= 4; workers += 2) {
    long tids[MAX_THREADS];
    TessWorld *w = pit_world(workers, 2500, false, NULL, NULL);
    uint32_t n = worker_tids(tids);
    CHECK_MSG(n == workers - 1, "%u worker threads for %u workers", n, workers);
    for (int i = 0; i < 40; i++) CHECK_OK(tess_world_step(w, 1.0f / 60.0f, NULL), NULL);
    long long ran = 0;
    for (uint32_t i = 0; i < n; i++) ran += thread_run_ns(tids[i]);
    CHECK_MSG(ran > 0, "the workers never ran during 40 steps of 2,500 bodies");
    sleep_ms(10); /* the last step's end reaches the workers */
    long long before[MAX_THREADS];
    for (uint32_t i = 0; i < n; i++) before[i] = thread_run_ns(tids[i]);
    sleep_ms(100);
    for (uint32_t i = 0; i < n; i++) {
      long long idle = thread_run_ns(tids[i]) - before[i];
      CHECK_MSG(before[i] >= 0 && idle < 2000000, "worker %u of %u ran %lld us of a 100 ms idle", i + 1, workers,
                idle / 1000);
    }
    CHECK_MSG(all_asleep(tids, n), "a worker of %u is not asleep after 100 ms between steps", workers);
    tess_world_destroy(w);
  }
}

/* The sensor callback of the first event in a step holds the step until every worker is asleep
 * (at most 1 s): the workers stop spinning inside a step that stalls, and the step's later loops
 * must wake them. */
typedef struct Stall {
  long tids[MAX_THREADS];
  uint32_t threads, events, stalls_left, seen_asleep;
  bool stalled_this_step;
} Stall;

static void stall_on_sensor(TessWorld *w, const TessSensorEvent *ev, void *user) {
  Stall *s = user;
  (void)w;
  (void)ev;
  s->events++;
  if (s->threads == 0 || s->stalled_this_step || s->stalls_left == 0) return;
  s->stalled_this_step = true;
  s->stalls_left--;
  for (int t = 0; t < 1000; t++) {
    if (all_asleep(s->tids, s->threads)) {
      s->seen_asleep++;
      return;
    }
    sleep_ms(1);
  }
}

static uint64_t stalled_run(uint32_t workers, Stall *s) {
  memset(s, 0, sizeof *s);
  s->stalls_left = 6;
  TessWorld *w = pit_world(workers, 3000, true, stall_on_sensor, s);
  s->threads = workers > 1 ? worker_tids(s->tids) : 0;
  for (int i = 0; i < 90; i++) {
    s->stalled_this_step = false;
    CHECK_OK(tess_world_step(w, 1.0f / 60.0f, NULL), NULL);
  }
  uint64_t h = tess_world_hash(w);
  tess_world_destroy(w);
  return h;
}

static void workers_asleep_inside_a_step_step_the_same_bits(void) {
  Stall one, two, four;
  uint64_t h1 = stalled_run(1, &one), h2 = stalled_run(2, &two), h4 = stalled_run(4, &four);
  CHECK_MSG(one.events > 100, "only %u sensor events: the stalls never happened", one.events);
  CHECK_MSG(two.events == one.events && four.events == one.events, "sensor events: %u, %u on 2, %u on 4", one.events,
            two.events, four.events);
  CHECK_MSG(h2 == h1, "2 workers, stalled: %016llx, one: %016llx", (unsigned long long)h2, (unsigned long long)h1);
  CHECK_MSG(h4 == h1, "4 workers, stalled: %016llx, one: %016llx", (unsigned long long)h4, (unsigned long long)h1);
  CHECK_MSG(two.seen_asleep > 0 && four.seen_asleep > 0, "workers seen asleep inside a step: %u of 6 on 2, %u on 4",
            two.seen_asleep, four.seen_asleep);
}

/* Loops that count the items run on a thread other than the caller's. */
static _Thread_local bool on_caller;
static atomic_uint items_elsewhere;
static volatile float tiny_out[64];

static void tiny_task(void *ctx, uint32_t begin, uint32_t end) {
  (void)ctx;
  for (uint32_t i = begin; i < end; i++) tiny_out[i] = (float)i * 0.5f;
  if (!on_caller) atomic_fetch_add(&items_elsewhere, end - begin);
}

/* about 50 us per item on one thread */
static void heavy_task(void *ctx, uint32_t begin, uint32_t end) {
  (void)ctx;
  for (uint32_t i = begin; i < end; i++) {
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 50000L);
  }
  if (!on_caller) atomic_fetch_add(&items_elsewhere, end - begin);
}

/* A 64-item loop of a few ns per item, called 400 times on a pool of 2 workers (after 100 calls
 * that measure it), never reaches the worker: all its items run on the caller and none is
 * handed over. A loop of 64 x 50 us at another site is handed over from its second call on (its
 * first measures it). */
static void small_loops_stay_on_the_caller(void) {
  CHECK(physics_tasks_worth_handing_over(1e6) && !physics_tasks_worth_handing_over(100.0));
  TaskPool *p = physics_tasks_create(2);
  CHECK_MSG(p != NULL, "no pool of 2 workers");
  on_caller = true;
  for (int i = 0; i < 100; i++) physics_parallel_for(p, 64, 1, tiny_task, NULL);
  atomic_store(&items_elsewhere, 0u);
  PhysicsTaskStats s0 = physics_tasks_stats(p);
  for (int i = 0; i < 400; i++) physics_parallel_for(p, 64, 1, tiny_task, NULL);
  PhysicsTaskStats s1 = physics_tasks_stats(p);
  CHECK_MSG(atomic_load(&items_elsewhere) == 0u, "%u items of the small loop ran on the worker",
            atomic_load(&items_elsewhere));
  CHECK_MSG(s1.loops == s0.loops && s1.inline_loops - s0.inline_loops == 400,
            "small loop: %llu handed over, %llu on the caller of 400", (unsigned long long)(s1.loops - s0.loops),
            (unsigned long long)(s1.inline_loops - s0.inline_loops));
  for (int i = 0; i < 5; i++) physics_parallel_for(p, 64, 1, heavy_task, NULL);
  PhysicsTaskStats s2 = physics_tasks_stats(p);
  CHECK_MSG(s2.loops - s1.loops == 4 && s2.inline_loops == s1.inline_loops + 1,
            "heavy loop: %llu of 5 handed over, %llu on the caller", (unsigned long long)(s2.loops - s1.loops),
            (unsigned long long)(s2.inline_loops - s1.inline_loops));
  physics_tasks_destroy(p);
}

/* Which thread ran each item of part_loop, in the order each ran them. */
#define PART_ITEMS 16u
static uint32_t ran_by_caller[PART_ITEMS], ran_by_worker[PART_ITEMS];
static atomic_uint caller_ran, worker_ran;

/* about 50 us per item, long enough for the worker to enter the loop */
static void part_task(void *ctx, uint32_t begin, uint32_t end) {
  (void)ctx;
  for (uint32_t i = begin; i < end; i++) {
    heavy_task(NULL, i, i + 1u);
    if (on_caller)
      ran_by_caller[atomic_fetch_add(&caller_ran, 1u)] = i;
    else
      ran_by_worker[atomic_fetch_add(&worker_ran, 1u)] = i;
  }
}

/* Whether a thread ran all the items it took of its own half [own, own + half) before any of the
 * other half: it takes another thread's chunks only when its own part has none left. */
static bool own_half_first(const uint32_t *ran, uint32_t n, uint32_t own, uint32_t half) {
  bool left_own = false;
  for (uint32_t k = 0; k < n; k++) {
    bool mine = ran[k] >= own && ran[k] < own + half;
    if (mine && left_own) return false;
    left_own = left_own || !mine;
  }
  return true;
}

/* A loop's chunks are shared in parts, one per thread: on 2 workers the caller runs the first half
 * of the items and the worker the second, each taking the other's only once its own half has no
 * chunk left; so a loop run again over the same items gives each thread the same ones (they stay
 * in its core's caches). Whoever the machine runs when, every item runs once, and each thread's
 * own half comes first. (With chunks taken in turn from one counter the worker took items of the
 * first half as soon as it entered.) */
static void each_thread_takes_its_own_part_first(void) {
  TaskPool *p = physics_tasks_create(2);
  CHECK_MSG(p != NULL, "no pool of 2 workers");
  on_caller = true;
  uint32_t worker_entered = 0;
  for (int round = 0; round < 20; round++) {
    atomic_store(&caller_ran, 0u);
    atomic_store(&worker_ran, 0u);
    physics_parallel_for(p, PART_ITEMS, 1, part_task, NULL);
    uint32_t nc = atomic_load(&caller_ran), nw = atomic_load(&worker_ran), seen[PART_ITEMS] = {0};
    for (uint32_t k = 0; k < nc; k++) seen[ran_by_caller[k]]++;
    for (uint32_t k = 0; k < nw; k++) seen[ran_by_worker[k]]++;
    for (uint32_t i = 0; i < PART_ITEMS; i++) CHECK_MSG(seen[i] == 1, "round %d: item %u ran %u times", round, i, seen[i]);
    CHECK_MSG(own_half_first(ran_by_caller, nc, 0, PART_ITEMS / 2),
              "round %d: the caller ran an item of the worker's half before its own", round);
    CHECK_MSG(own_half_first(ran_by_worker, nw, PART_ITEMS / 2, PART_ITEMS / 2),
              "round %d: the worker ran an item of the caller's half before its own", round);
    worker_entered += nw > 0;
  }
  printf("the worker took part in %u of 20 loops\n", worker_entered);
  physics_tasks_destroy(p);
}

/* A loop of 2 items on 2 workers: the caller's item waits until the worker has begun the other,
 * which takes 100 ms; the caller must then wait at the loop's end for it. */
static atomic_bool worker_began, long_armed;
static atomic_uint long_items_done;

static void long_worker_item(void *ctx, uint32_t begin, uint32_t end) {
  (void)ctx;
  for (uint32_t i = begin; i < end; i++) {
    if (!atomic_load(&long_armed)) { /* the site's first call, on the caller: 5 ms an item */
      sleep_ms(5);
    } else if (on_caller && i == 0) { /* until the worker has its item (10 s at most: then it runs both) */
      for (int k = 0; k < 10000 && !atomic_load(&worker_began); k++) sleep_ms(1);
    } else if (!on_caller) {
      atomic_store(&worker_began, true);
      sleep_ms(100);
    }
    atomic_fetch_add(&long_items_done, 1u);
  }
}

/* A caller waiting at a loop's end for a worker still inside (here one 100 ms item) sleeps
 * after a short spin and the worker's end wakes it: it neither burns its processor nor yields
 * it to a third process for whole time slices, and the loop is complete when it returns. */
static void caller_sleeps_through_a_long_wait(void) {
  TaskPool *p = physics_tasks_create(2);
  CHECK_MSG(p != NULL, "no pool of 2 workers");
  on_caller = true;
  physics_parallel_for(p, 2, 1, long_worker_item, NULL); /* the site's first call measures it */
  atomic_store(&long_items_done, 0u);
  atomic_store(&worker_began, false);
  atomic_store(&long_armed, true);
  PhysicsTaskStats s0 = physics_tasks_stats(p);
  struct timespec c0, c1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
  physics_parallel_for(p, 2, 1, long_worker_item, NULL);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
  PhysicsTaskStats s1 = physics_tasks_stats(p);
  double cpu_ms = (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-6;
  CHECK_MSG(atomic_load(&long_items_done) == 2u, "%u of 2 items done when the loop returned",
            atomic_load(&long_items_done));
  CHECK_MSG(atomic_load(&worker_began), "the worker never began its item");
  CHECK_MSG(s1.waits - s0.waits == 1 && s1.sleeps - s0.sleeps == 1,
            "%llu waits, %llu slept through, for a worker 100 ms inside", (unsigned long long)(s1.waits - s0.waits),
            (unsigned long long)(s1.sleeps - s0.sleeps));
  CHECK_MSG(cpu_ms < 50.0, "the caller burned %.1f ms of CPU waiting 100 ms for the worker", cpu_ms);
  physics_tasks_destroy(p);
}

/* Feeds the governor steps that take `parallel` ns when they hand loops over and `alone` when
 * they run on the caller; returns how many of `steps` handed over. */
static uint32_t govern(PhysicsGovernor *g, uint32_t steps, double parallel, double alone) {
  uint32_t handed = 0;
  for (uint32_t i = 0; i < steps; i++) {
    bool par = physics_governor_begin(g);
    handed += par;
    physics_governor_end(g, par ? parallel : alone);
  }
  return handed;
}

/* The governor on given step times (a pure state machine: no clock, no thread). */
static void governor_keeps_the_faster_way(void) {
  PhysicsGovernor g;
  physics_governor_init(&g);
  /* a second thread that delivers: parallel steps take 6 ms against 10; nearly all stay parallel,
   * and probes (two steps each) thin out to one in 64 steps or fewer: at most 20 in 1000 steps */
  uint32_t handed = govern(&g, 1000, 6e6, 10e6);
  CHECK_MSG(g.parallel && g.switches == 0 && handed >= 1000 - 2 * 20, "6 vs 10 ms: %u of 1000 parallel, %llu switches",
            handed, (unsigned long long)g.switches);
  /* one probe on the caller that looked faster (its neighbours slowed) does not switch */
  bool par = true;
  while (par) {
    par = physics_governor_begin(&g);
    physics_governor_end(&g, par ? 6e6 : 5e6);
  }
  CHECK(!physics_governor_begin(&g)); /* the probe's timed step */
  physics_governor_end(&g, 5e6);
  govern(&g, 1, 6e6, 10e6);
  CHECK_MSG(g.parallel && g.switches == 0, "one probe faster on the caller switched");
  handed = govern(&g, 1000, 6e6, 10e6);
  CHECK_MSG(g.parallel && g.switches == 0 && handed >= 1000 - 2 * 20, "6 vs 10 ms after a stray probe: %u parallel",
            handed);
  /* then a third busy process: parallel steps take 14 ms against 12; within a few steps all but
   * the probes run on the caller */
  handed = govern(&g, 100, 14e6, 12e6);
  CHECK_MSG(!g.parallel && g.switches == 1 && handed < 100 - 40, "14 vs 12 ms: %u of 100 still parallel", handed);
  handed = govern(&g, 1000, 14e6, 12e6);
  CHECK_MSG(!g.parallel && handed <= 30, "14 vs 12 ms: %u of the next 1000 parallel (probes)", handed);
  /* the busy process leaves: back to parallel within one probe gap (64 steps) and two probes */
  handed = govern(&g, 80, 6e6, 10e6);
  CHECK_MSG(g.parallel && g.switches == 2, "6 vs 10 ms again: still on the caller after 80 steps");
  /* within the margin (2%) nothing switches */
  uint64_t sw = g.switches;
  govern(&g, 500, 10e6, 9.8e6);
  CHECK_MSG(g.parallel && g.switches == sw, "a probe 2%% faster switched the way steps run");
  /* a steady step slowed by another process (50 ms) before a probe does not make the probe win */
  physics_governor_init(&g);
  par = true;
  while (par) { /* steady parallel steps of 4 ms up to the probe, the last one slowed */
    par = physics_governor_begin(&g);
    physics_governor_end(&g, par ? (g.countdown == 1 ? 50e6 : 4e6) : 5e6);
  }
  CHECK(!physics_governor_begin(&g)); /* the probe's timed step */
  physics_governor_end(&g, 5e6);
  CHECK(physics_governor_begin(&g)); /* the steady step after the probe */
  physics_governor_end(&g, 4e6);
  CHECK_MSG(g.parallel && g.switches == 0, "a slowed step before the probe switched to the caller");
}

/* The governor's first probe (the third step) runs on the caller while the steps around it hand
 * loops over: a world stepped both ways, on 2 and on 4 workers, ends on the bits of one worker. */
static void steps_on_the_caller_and_handed_over_give_the_same_bits(void) {
  uint64_t hash[3];
  for (uint32_t k = 0; k < 3; k++) {
    uint32_t workers = k == 0 ? 1u : 2u * k;
    TessWorld *w = pit_world(workers, 2500, false, NULL, NULL);
    for (int i = 0; i < 60; i++) CHECK_OK(tess_world_step(w, 1.0f / 60.0f, NULL), NULL);
    PhysicsTaskStats st = physics_tasks_stats(w->tasks);
    if (workers > 1)
      CHECK_MSG(st.inline_steps > 0 && st.parallel_steps > 0 && st.probes > 0,
                "%u workers: %llu steps on the caller, %llu handed over, %llu probes", workers,
                (unsigned long long)st.inline_steps, (unsigned long long)st.parallel_steps,
                (unsigned long long)st.probes);
    hash[k] = tess_world_hash(w);
    tess_world_destroy(w);
  }
  CHECK_MSG(hash[1] == hash[0] && hash[2] == hash[0], "hashes: 1 worker %016llx, 2: %016llx, 4: %016llx",
            (unsigned long long)hash[0], (unsigned long long)hash[1], (unsigned long long)hash[2]);
}

TESS_TEST_MAIN(TEST(idle_workers_sleep_between_steps), TEST(workers_asleep_inside_a_step_step_the_same_bits),
               TEST(small_loops_stay_on_the_caller), TEST(each_thread_takes_its_own_part_first),
               TEST(caller_sleeps_through_a_long_wait),
               TEST(governor_keeps_the_faster_way),
               TEST(steps_on_the_caller_and_handed_over_give_the_same_bits))
