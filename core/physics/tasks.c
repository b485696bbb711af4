/* The world's workers: TessWorldDef.worker_count - 1 threads that, with the
 * thread calling tess_world_step, run the step's parallel loops
 * (physics_parallel_for). A loop is cut into chunks of consecutive items,
 * shared out in parts, one per thread: each thread runs its own part's chunks
 * first, then takes any left in the others' (part_chunks); every item's result
 * depends only on the item, never on who computed it or when, so the world
 * steps to the same bits with any number of workers (no reduction here adds
 * floats in an order that depends on the schedule).
 *
 * A step runs about a hundred short loops (the solver's colours, sub-step by
 * sub-step; bench-tasks counts them), too many to wake sleeping threads for
 * each. The world says when a step begins and ends (physics_tasks_stepping):
 * inside a step the workers spin (yielding now and then) across the serial
 * parts between loops, for up to STEP_SPIN_NS after the last loop they saw;
 * outside one they spin only briefly, then sleep on a condition variable, so
 * a world between steps costs its game no CPU. A job's hand-over takes no
 * mutex: the publisher locks only when a worker is asleep.
 *
 * A worker enters a loop through its door, which the caller closes once
 * every chunk is taken; the caller then waits only for the workers that
 * entered. A worker the machine has not scheduled misses the loop and holds
 * up nothing, and none reads a job that is being rewritten. The counters the
 * threads write (the door, each part's next chunk, the workers done) sit on
 * cache lines of their own, and the caller's own bookkeeping off the door's
 * line, so neither taking a chunk nor counting a loop steals the line another
 * thread is spinning on.
 *
 * Handing a loop over costs a few microseconds and pays only when the second thread delivers,
 * so the pool decides, loop by loop and step by step, where each loop runs (the bits never
 * depend on it). A loop whose estimated work (its items x the cost per item measured at the same
 * loop site, the loop's function) is below HANDOVER_NS runs on the caller. And a governor
 * (physics_governor_*) times whole steps: now and then it runs two steps the other way (every
 * loop on the caller with the workers asleep, or handed over) and keeps the way that was faster,
 * so a worker whose vCPU the host does not run beside ours, or a third busy process on the
 * cores, costs at most the probes. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* pthread_setname_np */
#endif
#include <pthread.h>
#include <stdatomic.h>

#include "physics_private.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <x86intrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

#include <sched.h>
#include <time.h>

/* pauses between looks at the clock (and, inside a step, between yields) */
#define SPINS 2000
/* inside a step, how long a worker with no loop spins before it sleeps: longer than the
 * step's serial parts between loops at 20,000 bodies, short enough that a step stopped in a
 * game's callback does not burn a core */
#define STEP_SPIN_NS 2000000

/* door: the job's number in the high half; in the low half the workers that entered it, and
 * CLOSED once the caller has taken the last chunk */
#define CLOSED 0x80000000u

/* a cache line, between the counters that different threads write */
#define LINE 64

/* Least one-thread work (ns) worth handing over: bench-tasks measures a round trip to the
 * second thread at 0.1-2 us (more when the host runs our vCPUs apart), and a loop split in two
 * saves half its work, so below about twice the trip it loses. */
#define HANDOVER_NS 5000.0
/* Loop sites (loop functions) whose cost per item the pool remembers: a power of two above the
 * step's few dozen. */
#define SITES 256u
/* how long the caller spins for a worker still inside a loop before it sleeps until the worker is
 * done (a worker the host descheduled, or one sharing its processor with a third process). It
 * sleeps rather than yields: with a third process runnable a yield hands this processor to that
 * process for a whole time slice (ms) and comes back only after it, while a sleeping caller leaves
 * its processor idle, the kernel moves the waiting worker onto it, and the worker's last chunk
 * wakes the caller as soon as it is done. */
#define WAIT_SPIN_NS 20000

/* The next chunk of one thread's part of a loop, on a cache line of its own. */
typedef struct PartCounter {
  atomic_uint next;
  char pad[LINE - sizeof(atomic_uint)];
} PartCounter;

/* A worker thread and the part of each loop it takes first (1.. the workers). */
typedef struct Worker {
  struct TaskPool *pool;
  uint32_t part;
} Worker;

/* What one loop site costs per item on one thread (ticks), measured where it ran. */
typedef struct Site {
  PhysicsTaskFn *fn;
  float tick_per_item; /* 0: not measured yet */
  uint32_t calls, parallel;
} Site;

struct TaskPool {
  /* the game's scheduler (TessWorldDef.enqueue_task), or NULL for the pool's own threads */
  TessEnqueueTaskFn *enqueue;
  TessFinishTaskFn *finish;
  void *user;
  uint32_t user_workers;
  uint32_t threads; /* workers besides the caller */
  pthread_t *tid;
  Worker *worker;
  pthread_mutex_t lock; /* only to sleep and to wake sleepers */
  pthread_cond_t wake;
  pthread_cond_t done; /* the caller asleep at a loop's end (caller_asleep) */
  char pad0[LINE];
  /* the job, read by a worker right after it enters through the door on the same line */
  _Atomic uint64_t door; /* see CLOSED */
  PhysicsTaskFn *fn;     /* written only while no worker is inside */
  void *ctx;
  uint32_t count, grain, chunks;
  uint32_t parts;         /* threads + 1: one part of each loop per thread */
  PartCounter *part;      /* per part, a cache line each: the next chunk of that part to take */
  char pad_job[LINE];     /* the caller's own fields below are written every loop: off the door's line */
  PhysicsTaskStats stats; /* the caller's alone */
  /* the caller's alone: the policy (see the top) */
  PhysicsGovernor gov;
  bool in_step, parallel_step; /* inside a step; and this step hands loops over */
  int64_t step_ns;             /* the step's start */
  int64_t born_ns;             /* the pool's creation, in ns and in ticks: */
  uint64_t born_ticks;         /* the loop clock's rate is measured against ns from there */
  double tick_per_ns;
  Site sites[SITES];
  void *part_raw; /* what p->part is in */
  char pad2[LINE];
  atomic_uint left;          /* workers that entered the job and are done with it */
  atomic_bool caller_asleep; /* the caller sleeps until left reaches the workers that entered */
  char pad3[LINE];
  atomic_uint sleepers; /* workers asleep or going to sleep (publish wakes them) */
  atomic_bool stepping; /* inside a step: spin between loops (physics_tasks_stepping) */
  atomic_bool quit;     /* published through a new job */
};

/* The chunks of part o of the job: [first, last). A loop's chunks are shared out in parts, one per
 * thread, in order (the caller's first): a thread runs its own part's chunks, then takes what is
 * left of the others'. A loop over the same items gives each thread the same items as the loop
 * before and the step before, so the items stay in the caches of the core that last wrote them;
 * chunks taken in turn from one counter moved about half of them between the cores in every loop,
 * and when the host runs the two vCPUs on cores that share no cache each such line costs a
 * transfer of hundreds of ns. */
static void part_chunks(const TaskPool *p, uint32_t o, uint32_t *first, uint32_t *last) {
  *first = (uint32_t)((uint64_t)p->chunks * o / p->parts);
  *last = (uint32_t)((uint64_t)p->chunks * (o + 1u) / p->parts);
}

/* Runs chunks of the job until none is left, its own part's (me) first; returns how many, and
 * adds their items to *items. */
static uint32_t run_chunks(TaskPool *p, uint32_t me, uint32_t *items) {
  uint32_t ran = 0;
  for (uint32_t r = 0; r < p->parts; r++) {
    uint32_t o = (me + r) % p->parts, first, last, c;
    part_chunks(p, o, &first, &last);
    while ((c = first + atomic_fetch_add_explicit(&p->part[o].next, 1u, memory_order_relaxed)) < last) {
      uint32_t begin = c * p->grain, end = begin + p->grain;
      if (end > p->count) end = p->count;
      p->fn(p->ctx, begin, end);
      *items += end - begin;
      ran++;
    }
  }
  return ran;
}

/* The loops' clock: the processor's time-stamp counter where there is one (a few ns to read,
 * against tens for clock_gettime; a hundred loops a step read it twice each), else ns. */
#if defined(__x86_64__) || defined(__i386__)
/* until the first step has measured the rate: a time-stamp counter of at most 4 GHz, so that a
 * loop looks smaller than it is and stays on the caller */
#define TICK_PER_NS_GUESS 4.0
#else
#define TICK_PER_NS_GUESS 1.0
#endif

static uint64_t ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static uint32_t job_of(uint64_t door) { return (uint32_t)(door >> 32); }

static int64_t clock_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Waits for a job other than `seen`: spinning (and inside a step yielding) while a job may come
 * soon, else asleep. The sleeper counts itself before it looks at the door a last time, and
 * publish stores the door before it reads the count (both sequentially consistent): either the
 * sleeper sees the new job or publish sees the sleeper and wakes it under the lock. */
static uint32_t wait_job(TaskPool *p, uint32_t seen) {
  int64_t since = clock_ns();
  for (;;) {
    for (int i = 0; i < SPINS; i++) {
      uint32_t g = job_of(atomic_load_explicit(&p->door, memory_order_acquire));
      if (g != seen) return g;
      CPU_RELAX();
    }
    if (atomic_load_explicit(&p->stepping, memory_order_relaxed) && clock_ns() - since < STEP_SPIN_NS) {
      sched_yield(); /* a machine with more threads than processors runs another meanwhile */
      continue;
    }
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->sleepers, 1u);
    uint32_t g;
    while ((g = job_of(atomic_load(&p->door))) == seen) pthread_cond_wait(&p->wake, &p->lock);
    atomic_fetch_sub(&p->sleepers, 1u);
    pthread_mutex_unlock(&p->lock);
    return g;
  }
}

static void *worker_main(void *arg) {
  const Worker *me = arg;
  TaskPool *p = me->pool;
  uint32_t seen = 0;
  for (;;) {
    seen = wait_job(p, seen);
    if (atomic_load_explicit(&p->quit, memory_order_acquire)) return NULL;
    /* enter, unless the job has moved on or its door is closed */
    uint64_t d = atomic_load_explicit(&p->door, memory_order_acquire);
    bool entered = false;
    while (job_of(d) == seen && !((uint32_t)d & CLOSED))
      if (atomic_compare_exchange_weak_explicit(&p->door, &d, d + 1u, memory_order_acq_rel, memory_order_acquire)) {
        entered = true;
        break;
      }
    if (!entered) continue;
    uint32_t items = 0;
    run_chunks(p, me->part, &items);
    /* sequentially consistent, as the caller's store of caller_asleep and its look at left after
     * it: either the caller sees this worker done or this worker sees the caller asleep */
    atomic_fetch_add(&p->left, 1u);
    if (atomic_load(&p->caller_asleep)) {
      pthread_mutex_lock(&p->lock);
      pthread_cond_broadcast(&p->done);
      pthread_mutex_unlock(&p->lock);
    }
  }
}

static void pool_destroy(TaskPool *p);

static void free_pool(TaskPool *p) {
  tess_free(p->part_raw);
  tess_free(p->worker);
  tess_free(p->tid);
  tess_free(p);
}

/* Opens a new job (its fields already written) and wakes the sleepers, if any. */
static void publish(TaskPool *p) {
  atomic_store_explicit(&p->left, 0u, memory_order_relaxed);
  for (uint32_t o = 0; o < p->parts; o++) atomic_store_explicit(&p->part[o].next, 0u, memory_order_relaxed);
  uint64_t job = job_of(atomic_load_explicit(&p->door, memory_order_relaxed)) + 1u;
  atomic_store(&p->door, job << 32);
  if (atomic_load(&p->sleepers) > 0) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
  }
}

/* ---- The governor: which way steps run -------------------------------- */

/* steps between probes: few after a switch (a wrong switch is undone soon), up to MAX_GAP while
 * the probes confirm the way steps run (a probe that loses costs 1/MAX_GAP of the difference) */
#define GOV_MIN_GAP 4u
#define GOV_MAX_GAP 64u
/* how much faster the other way must have been to switch */
#define GOV_MARGIN 0.03

void physics_governor_init(PhysicsGovernor *g) {
  *g = (PhysicsGovernor){.parallel = true, .gap = GOV_MIN_GAP, .countdown = 2u};
}

bool physics_governor_begin(PhysicsGovernor *g) {
  if (g->phase == 0 && g->countdown == 0) {
    g->phase = 1;
    g->probes++;
    return !g->parallel;
  }
  return g->phase == 2 ? !g->parallel : g->parallel;
}

/* Whether the last probes' ratios (a step handed over / one on the caller) say the other way is
 * faster: all of them while there are fewer than GOV_VOTES, else all but one. One probe (or its
 * neighbour) slowed by the machine's other work does not switch. */
static bool votes_for_other_way(const PhysicsGovernor *g, double r) {
  return g->parallel ? r > 1.0 / (1.0 - GOV_MARGIN) : r < 1.0 - GOV_MARGIN;
}

static bool other_way_wins(const PhysicsGovernor *g) {
  uint32_t n = g->ratios < GOV_VOTES ? g->ratios : GOV_VOTES, votes = 0;
  for (uint32_t i = 0; i < n; i++) votes += votes_for_other_way(g, g->ratio[i]);
  return n > 0 && votes >= (n < GOV_VOTES ? n : n - 1u);
}

/* A probe is judged against the faster of the steady steps before and after it: the scene
 * changes little in three steps, and a steady step slowed by the machine's other work does not
 * make the probe look better than it was. Two steady steps in a row slower than the last probe
 * (the other way) bring the next probe forward: a third process that starts to share the
 * processors is noticed in a few steps, not at the end of a long gap. */
void physics_governor_end(PhysicsGovernor *g, double step_ns) {
  switch (g->phase) {
    case 1: /* the probe's first step pays for moving the working set into the other way's caches
             * (at 1,000 circles 50-100 us of a 0.3 ms step, far above the margin): not timed */
      g->phase = 2;
      return;
    case 2:
      g->probe = step_ns;
      g->phase = 3;
      return;
    case 3: {
      double ref = step_ns < g->before ? step_ns : g->before;
      if (ref > 0.0 && g->probe > 0.0) {
        g->ratio[g->ratios % GOV_VOTES] = g->parallel ? ref / g->probe : g->probe / ref;
        g->ratios++;
      }
      if (other_way_wins(g)) {
        g->parallel = !g->parallel;
        g->switches++;
        g->gap = GOV_MIN_GAP;
        g->probe = ref; /* now the other way's time */
      } else if (g->ratios > 0 && votes_for_other_way(g, g->ratio[(g->ratios - 1u) % GOV_VOTES])) {
        g->gap = GOV_MIN_GAP; /* this probe was for the other way: the next one decides soon */
      } else if (g->gap < GOV_MAX_GAP) {
        g->gap *= 2u;
      }
      g->countdown = g->gap;
      g->phase = 0;
      g->before = step_ns;
      g->slower = 0;
      return;
    }
    default:
      g->before = step_ns;
      g->slower = g->probe > 0.0 && step_ns > g->probe * (1.0 + GOV_MARGIN) ? g->slower + 1u : 0u;
      if (g->slower >= 2u) g->countdown = 0;
      if (g->countdown > 0) g->countdown--;
  }
}

bool physics_tasks_step_shared(const TaskPool *p) { return p && (p->enqueue || !p->in_step || p->parallel_step); }

void physics_tasks_stepping(TaskPool *p, bool stepping) {
  if (!p || p->enqueue) return;
  if (stepping) {
    p->parallel_step = physics_governor_begin(&p->gov);
    p->in_step = true;
    if (p->parallel_step) p->stats.parallel_steps++;
    else p->stats.inline_steps++;
    p->step_ns = clock_ns();
    /* between steps the workers sleep; in a step run on the caller alone they never wake */
    atomic_store_explicit(&p->stepping, p->parallel_step, memory_order_relaxed);
    return;
  }
  int64_t now = clock_ns();
  uint64_t t = ticks();
  physics_governor_end(&p->gov, (double)(now - p->step_ns));
  if (now - p->born_ns > 1000000) p->tick_per_ns = (double)(t - p->born_ticks) / (double)(now - p->born_ns);
  p->in_step = false;
  atomic_store_explicit(&p->stepping, false, memory_order_relaxed);
}

TaskPool *physics_tasks_create(uint32_t workers) {
  if (workers <= 1) return NULL;
  TaskPool *p = tess_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->tid = tess_calloc(workers - 1, sizeof(pthread_t));
  p->worker = tess_calloc(workers - 1, sizeof(Worker));
  p->part_raw = tess_calloc(workers + 1u, sizeof(PartCounter)); /* one more: room to align */
  if (!p->tid || !p->worker || !p->part_raw || pthread_mutex_init(&p->lock, NULL) != 0) {
    free_pool(p);
    return NULL;
  }
  if (pthread_cond_init(&p->wake, NULL) != 0) {
    pthread_mutex_destroy(&p->lock);
    free_pool(p);
    return NULL;
  }
  if (pthread_cond_init(&p->done, NULL) != 0) {
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free_pool(p);
    return NULL;
  }
  p->part = (PartCounter *)(((uintptr_t)p->part_raw + LINE - 1u) & ~(uintptr_t)(LINE - 1u));
  for (uint32_t o = 0; o < workers; o++) atomic_init(&p->part[o].next, 0u);
  atomic_init(&p->door, 0u);
  atomic_init(&p->left, 0u);
  atomic_init(&p->caller_asleep, false);
  atomic_init(&p->sleepers, 0u);
  atomic_init(&p->stepping, false);
  atomic_init(&p->quit, false);
  physics_governor_init(&p->gov);
  p->born_ns = clock_ns();
  p->born_ticks = ticks();
  p->tick_per_ns = TICK_PER_NS_GUESS;
  for (uint32_t i = 0; i < workers - 1; i++) {
    p->worker[i] = (Worker){p, i + 1u};
    if (pthread_create(&p->tid[i], NULL, worker_main, &p->worker[i]) != 0) break;
#if defined(__GLIBC__)
    /* named, so a profiler, top -H and the tests tell the workers from the game's threads */
    pthread_setname_np(p->tid[i], "tess-physics");
#endif
    p->threads++;
  }
  p->parts = p->threads + 1u; /* a worker reads it only in a job, published after this */
  if (p->threads == 0) {
    pool_destroy(p);
    return NULL;
  }
  return p;
}

static void pool_destroy(TaskPool *p) {
  atomic_store_explicit(&p->quit, true, memory_order_relaxed); /* the door's store publishes it */
  publish(p);
  for (uint32_t i = 0; i < p->threads; i++) pthread_join(p->tid[i], NULL);
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->lock);
  free_pool(p);
}

TaskPool *physics_tasks_create_user(TessEnqueueTaskFn *enqueue, TessFinishTaskFn *finish, void *user,
                                    uint32_t workers) {
  TaskPool *p = tess_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->enqueue = enqueue;
  p->finish = finish;
  p->user = user;
  p->user_workers = workers;
  return p;
}

void physics_tasks_destroy(TaskPool *p) {
  if (!p) return;
  if (p->enqueue) {
    tess_free(p);
    return;
  }
  pool_destroy(p);
}

uint32_t physics_tasks_threads(const TaskPool *p) {
  if (!p) return 1u;
  return p->enqueue ? p->user_workers : p->threads + 1u;
}

/* A loop handed to the game's scheduler: its ranges, whoever runs them, call the world's fn. */
typedef struct UserLoop {
  PhysicsTaskFn *fn;
  void *ctx;
} UserLoop;

static void run_user_range(uint32_t begin, uint32_t end, uint32_t worker, void *task_context) {
  const UserLoop *l = task_context;
  (void)worker;
  l->fn(l->ctx, begin, end);
}

static void pool_run(TaskPool *p, uint32_t count, uint32_t min_items, PhysicsTaskFn *fn, void *ctx);

_Thread_local double *physics_profile_parallel;

double physics_profile_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void physics_parallel_for(TaskPool *p, uint32_t count, uint32_t min_items, PhysicsTaskFn *fn, void *ctx) {
  if (count == 0) return;
  /* profiling: the loops two workers would split (TessStepProfile.parallel) */
  double *sink = physics_profile_parallel, t0 = 0.0;
  if (sink && count >= 2u * min_items) t0 = physics_profile_now();
  if (!p || count < 2u * min_items) {
    fn(ctx, 0, count);
  } else if (p->enqueue) {
    UserLoop loop = {fn, ctx};
    void *task = p->enqueue(run_user_range, count, min_items, &loop, p->user);
    if (task) p->finish(task, p->user);
  } else {
    pool_run(p, count, min_items, fn, ctx);
  }
  if (sink && count >= 2u * min_items) *sink += physics_profile_now() - t0;
}

/* The site of loop function fn (its cost per item), or NULL when the table is full. */
static Site *site_of(TaskPool *p, PhysicsTaskFn *fn) {
  uint32_t h = (uint32_t)(((uintptr_t)fn >> 4) * 2654435761u) & (SITES - 1u);
  for (uint32_t i = 0; i < SITES; i++) {
    Site *s = &p->sites[(h + i) & (SITES - 1u)];
    if (s->fn == fn) return s;
    if (!s->fn) {
      s->fn = fn;
      return s;
    }
  }
  return NULL;
}

/* A new measurement of a site's cost per item: a lower one is believed at once (the loop ran
 * undisturbed), a higher one only in part and at most twice the old (a preemption in the middle
 * of a loop says nothing about the loop). */
static void site_learn(Site *s, double tick_per_item) {
  double old = s->tick_per_item;
  if (old <= 0.0 || tick_per_item < old) {
    s->tick_per_item = (float)(old <= 0.0 ? tick_per_item : 0.5 * (old + tick_per_item));
    return;
  }
  double capped = tick_per_item < 2.0 * old ? tick_per_item : 2.0 * old;
  s->tick_per_item = (float)(old + (capped - old) * 0.125);
}

bool physics_tasks_worth_handing_over(double work_ns) { return work_ns >= HANDOVER_NS; }

static void pool_for(TaskPool *p, uint32_t count, uint32_t min_items, PhysicsTaskFn *fn, void *ctx, Site *site);

/* The policy (see the top): in a step the governor runs on the caller, every loop there; else
 * a loop whose work, as measured at its site, is too small to pay for the hand-over. */
static void pool_run(TaskPool *p, uint32_t count, uint32_t min_items, PhysicsTaskFn *fn, void *ctx) {
  PhysicsTaskStats *st = &p->stats;
  if (p->in_step && !p->parallel_step) {
    fn(ctx, 0, count);
    st->inline_loops++;
    return;
  }
  Site *s = site_of(p, fn);
  if (s) s->calls++;
  if (s && !physics_tasks_worth_handing_over(s->tick_per_item * (double)count / p->tick_per_ns)) {
    uint64_t t0 = ticks();
    fn(ctx, 0, count);
    site_learn(s, (double)(ticks() - t0) / (double)count);
    st->inline_loops++;
    return;
  }
  if (s) s->parallel++;
  pool_for(p, count, min_items, fn, ctx, s);
}

static void pool_for(TaskPool *p, uint32_t count, uint32_t min_items, PhysicsTaskFn *fn, void *ctx, Site *site) {
  /* several chunks per thread, so one thread slowed by the machine's other work, or given the
   * costlier half, holds up little (PHYS_CHUNKS_PER_THREAD) */
  uint32_t threads = p->threads + 1u, chunks = PHYS_CHUNKS_PER_THREAD * threads;
  uint32_t grain = (count + chunks - 1u) / chunks;
  if (grain < min_items) grain = min_items;
  p->fn = fn;
  p->ctx = ctx;
  p->count = count;
  p->grain = grain;
  p->chunks = (count + grain - 1u) / grain;
  publish(p);
  /* the caller's own chunks measure the site's cost per item as it runs */
  uint32_t items = 0;
  uint64_t t0 = ticks();
  uint32_t own = run_chunks(p, 0, &items);
  if (site && items > 0) site_learn(site, (double)(ticks() - t0) / (double)items);
  /* every chunk is taken: close the door, and wait for those inside (their writes are then
   * visible here) */
  uint32_t entered = (uint32_t)atomic_fetch_or_explicit(&p->door, CLOSED, memory_order_acq_rel) & ~CLOSED;
  PhysicsTaskStats *st = &p->stats;
  st->loops++;
  st->entries += entered;
  st->chunks += p->chunks;
  st->caller_chunks += own;
  if (atomic_load_explicit(&p->left, memory_order_acquire) < entered) {
    /* a worker is still inside: the clock is read only then. Past WAIT_SPIN_NS the caller
     * sleeps until the last worker inside wakes it (see WAIT_SPIN_NS). */
    int64_t w0 = clock_ns();
    for (uint32_t spins = 1; atomic_load_explicit(&p->left, memory_order_acquire) < entered; spins++) {
      CPU_RELAX();
      if (spins % 256u == 0 && clock_ns() - w0 > WAIT_SPIN_NS) {
        pthread_mutex_lock(&p->lock);
        atomic_store(&p->caller_asleep, true);
        while (atomic_load(&p->left) < entered) pthread_cond_wait(&p->done, &p->lock);
        atomic_store(&p->caller_asleep, false);
        pthread_mutex_unlock(&p->lock);
        st->sleeps++;
      }
    }
    st->waits++;
    st->wait_ns += (uint64_t)(clock_ns() - w0);
  }
}

PhysicsTaskStats physics_tasks_stats(const TaskPool *p) {
  PhysicsTaskStats none = {0};
  if (!p || p->enqueue) return none;
  PhysicsTaskStats s = p->stats;
  s.probes = p->gov.probes;
  s.switches = p->gov.switches;
  return s;
}
