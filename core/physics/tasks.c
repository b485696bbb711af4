/* The world's workers: TessWorldDef.worker_count - 1 threads that, with the
 * thread calling tess_world_step, run the step's parallel loops
 * (physics_parallel_for). A loop is cut into chunks of consecutive items
 * that the threads take in turn from one counter; every item's result
 * depends only on the item, never on who computed it or when, so the world
 * steps to the same bits with any number of workers (no reduction here adds
 * floats in an order that depends on the schedule).
 *
 * A step runs a few hundred short loops (the solver's colours, sub-step by
 * sub-step), too many to wake sleeping threads for each: the workers spin
 * (then yield) on the job's door for a while after each loop, and sleep on a
 * condition variable only when none comes (between steps). A worker enters
 * a loop through its door, which the caller closes once every chunk is
 * taken; the caller then waits only for the workers that entered. A worker
 * the machine has not scheduled misses the loop and holds up nothing, and
 * none reads a job that is being rewritten. */
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

/* pauses (tens of nanoseconds each), then yields, before a worker sleeps */
#define SPINS 4000
#define YIELDS 400

/* door: the job's number in the high half; in the low half the workers that entered it, and
 * CLOSED once the caller has taken the last chunk */
#define CLOSED 0x80000000u

struct TaskPool {
  /* the game's scheduler (TessWorldDef.enqueue_task), or NULL for the pool's own threads */
  TessEnqueueTaskFn *enqueue;
  TessFinishTaskFn *finish;
  void *user;
  uint32_t user_workers;
  uint32_t threads; /* workers besides the caller */
  pthread_t *tid;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  bool quit;             /* under lock, and published through a new job */
  _Atomic uint64_t door; /* see CLOSED */
  atomic_uint next;      /* the next chunk to take */
  atomic_uint left;      /* workers that entered the job and are done with it */
  PhysicsTaskFn *fn;     /* the job: written only while no worker is inside */
  void *ctx;
  uint32_t count, grain, chunks;
};

static void run_chunks(TaskPool *p) {
  uint32_t c;
  while ((c = atomic_fetch_add_explicit(&p->next, 1u, memory_order_relaxed)) < p->chunks) {
    uint32_t begin = c * p->grain, end = begin + p->grain;
    p->fn(p->ctx, begin, end < p->count ? end : p->count);
  }
}

static uint32_t job_of(uint64_t door) { return (uint32_t)(door >> 32); }

/* Waits for a job other than `seen`: spinning, yielding, then asleep. */
static uint32_t wait_job(TaskPool *p, uint32_t seen) {
  for (int i = 0; i < SPINS + YIELDS; i++) {
    uint32_t g = job_of(atomic_load_explicit(&p->door, memory_order_acquire));
    if (g != seen) return g;
    if (i < SPINS)
      CPU_RELAX();
    else
      sched_yield();
  }
  pthread_mutex_lock(&p->lock);
  uint32_t g;
  while ((g = job_of(atomic_load_explicit(&p->door, memory_order_acquire))) == seen)
    pthread_cond_wait(&p->wake, &p->lock);
  pthread_mutex_unlock(&p->lock);
  return g;
}

static void *worker_main(void *arg) {
  TaskPool *p = arg;
  uint32_t seen = 0;
  for (;;) {
    seen = wait_job(p, seen);
    pthread_mutex_lock(&p->lock);
    bool quit = p->quit;
    pthread_mutex_unlock(&p->lock);
    if (quit) return NULL;
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

/* Opens a new job (its fields already written) and wakes the sleepers. */
static void publish(TaskPool *p) {
  atomic_store_explicit(&p->left, 0u, memory_order_relaxed);
  atomic_store_explicit(&p->next, 0u, memory_order_relaxed);
  pthread_mutex_lock(&p->lock);
  uint64_t job = job_of(atomic_load_explicit(&p->door, memory_order_relaxed)) + 1u;
  atomic_store_explicit(&p->door, job << 32, memory_order_release);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
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
  for (uint32_t i = 0; i < workers - 1; i++) {
    if (pthread_create(&p->tid[i], NULL, worker_main, p) != 0) break;
    p->threads++;
  }
  if (p->threads == 0) {
    pool_destroy(p);
    return NULL;
  }
  return p;
}

static void pool_destroy(TaskPool *p) {
  pthread_mutex_lock(&p->lock);
  p->quit = true;
  pthread_mutex_unlock(&p->lock);
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
  run_chunks(p);
  /* every chunk is taken: close the door, and wait for those inside (their writes are then
   * visible here) */
  uint32_t entered = (uint32_t)atomic_fetch_or_explicit(&p->door, CLOSED, memory_order_acq_rel) & ~CLOSED;
  while (atomic_load_explicit(&p->left, memory_order_acquire) < entered) CPU_RELAX();
}
