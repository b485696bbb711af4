/* The world's workers: TessWorldDef.worker_count - 1 threads that, with the
 * thread calling tess_world_step, run the step's parallel loops
 * (physics_parallel_for). A loop is cut into chunks of consecutive items
 * that the threads take in turn from one counter; every item's result
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
 * threads write (the door, the next chunk, the workers done) sit on cache
 * lines of their own, so taking a chunk does not steal the line another
 * thread is spinning on. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* pthread_setname_np */
#endif
#include <pthread.h>
#include <stdatomic.h>

#include "physics_private.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
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

struct TaskPool {
  /* the game's scheduler (TessWorldDef.enqueue_task), or NULL for the pool's own threads */
  TessEnqueueTaskFn *enqueue;
  TessFinishTaskFn *finish;
  void *user;
  uint32_t user_workers;
  uint32_t threads; /* workers besides the caller */
  pthread_t *tid;
  pthread_mutex_t lock; /* only to sleep and to wake sleepers */
  pthread_cond_t wake;
  char pad0[LINE];
  /* the job, read by a worker right after it enters through the door on the same line */
  _Atomic uint64_t door; /* see CLOSED */
  PhysicsTaskFn *fn;     /* written only while no worker is inside */
  void *ctx;
  uint32_t count, grain, chunks;
  PhysicsTaskStats stats; /* the caller's alone */
  char pad1[LINE];
  atomic_uint next; /* the next chunk to take */
  char pad2[LINE];
  atomic_uint left; /* workers that entered the job and are done with it */
  char pad3[LINE];
  atomic_uint sleepers; /* workers asleep or going to sleep (publish wakes them) */
  atomic_bool stepping; /* inside a step: spin between loops (physics_tasks_stepping) */
  atomic_bool quit;     /* published through a new job */
};

/* Runs chunks of the job until none is left; returns how many. */
static uint32_t run_chunks(TaskPool *p) {
  uint32_t c, ran = 0;
  while ((c = atomic_fetch_add_explicit(&p->next, 1u, memory_order_relaxed)) < p->chunks) {
    uint32_t begin = c * p->grain, end = begin + p->grain;
    p->fn(p->ctx, begin, end < p->count ? end : p->count);
    ran++;
  }
  return ran;
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
  TaskPool *p = arg;
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
    run_chunks(p);
    atomic_fetch_add_explicit(&p->left, 1u, memory_order_release);
  }
}

static void pool_destroy(TaskPool *p);

/* Opens a new job (its fields already written) and wakes the sleepers, if any. */
static void publish(TaskPool *p) {
  atomic_store_explicit(&p->left, 0u, memory_order_relaxed);
  atomic_store_explicit(&p->next, 0u, memory_order_relaxed);
  uint64_t job = job_of(atomic_load_explicit(&p->door, memory_order_relaxed)) + 1u;
  atomic_store(&p->door, job << 32);
  if (atomic_load(&p->sleepers) > 0) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
  }
}

void physics_tasks_stepping(TaskPool *p, bool stepping) {
  if (p && !p->enqueue) atomic_store_explicit(&p->stepping, stepping, memory_order_relaxed);
}

TaskPool *physics_tasks_create(uint32_t workers) {
  if (workers <= 1) return NULL;
  TaskPool *p = tess_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->tid = tess_calloc(workers - 1, sizeof(pthread_t));
  if (!p->tid || pthread_mutex_init(&p->lock, NULL) != 0) {
    tess_free(p->tid);
    tess_free(p);
    return NULL;
  }
  if (pthread_cond_init(&p->wake, NULL) != 0) {
    pthread_mutex_destroy(&p->lock);
    tess_free(p->tid);
    tess_free(p);
    return NULL;
  }
  atomic_init(&p->door, 0u);
  atomic_init(&p->next, 0u);
  atomic_init(&p->left, 0u);
  atomic_init(&p->sleepers, 0u);
  atomic_init(&p->stepping, false);
  atomic_init(&p->quit, false);
  for (uint32_t i = 0; i < workers - 1; i++) {
    if (pthread_create(&p->tid[i], NULL, worker_main, p) != 0) break;
#if defined(__GLIBC__)
    /* named, so a profiler, top -H and the tests tell the workers from the game's threads */
    pthread_setname_np(p->tid[i], "tess-physics");
#endif
    p->threads++;
  }
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
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->lock);
  tess_free(p->tid);
  tess_free(p);
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

static void pool_for(TaskPool *p, uint32_t count, uint32_t min_items, PhysicsTaskFn *fn, void *ctx);

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
    pool_for(p, count, min_items, fn, ctx);
  }
  if (sink && count >= 2u * min_items) *sink += physics_profile_now() - t0;
}

static void pool_for(TaskPool *p, uint32_t count, uint32_t min_items, PhysicsTaskFn *fn, void *ctx) {
  /* a few chunks per thread, so one thread slowed by the machine's other work holds up little */
  uint32_t threads = p->threads + 1u, grain = (count + 4u * threads - 1u) / (4u * threads);
  if (grain < min_items) grain = min_items;
  p->fn = fn;
  p->ctx = ctx;
  p->count = count;
  p->grain = grain;
  p->chunks = (count + grain - 1u) / grain;
  publish(p);
  uint32_t own = run_chunks(p);
  /* every chunk is taken: close the door, and wait for those inside (their writes are then
   * visible here) */
  uint32_t entered = (uint32_t)atomic_fetch_or_explicit(&p->door, CLOSED, memory_order_acq_rel) & ~CLOSED;
  PhysicsTaskStats *st = &p->stats;
  st->loops++;
  st->entries += entered;
  st->chunks += p->chunks;
  st->caller_chunks += own;
  if (atomic_load_explicit(&p->left, memory_order_acquire) < entered) {
    /* a worker is still inside: the clock is read only then */
    int64_t t0 = clock_ns();
    while (atomic_load_explicit(&p->left, memory_order_acquire) < entered) CPU_RELAX();
    st->waits++;
    st->wait_ns += (uint64_t)(clock_ns() - t0);
  }
}

PhysicsTaskStats physics_tasks_stats(const TaskPool *p) {
  PhysicsTaskStats none = {0};
  return p && !p->enqueue ? p->stats : none;
}
