/* The tests' task system: one loop at a time (the world waits for each before the next), cut
 * into ranges that the threads and the thread in finish_task take from a counter under a
 * mutex. Plain and slow on purpose: it is a scheduler the world did not write, not a fast one. */
#include "test_scheduler.h"

#include <pthread.h>
#include <stdlib.h>

#define MAX_THREADS 8

struct TestScheduler {
  uint32_t threads;
  pthread_t tid[MAX_THREADS];
  pthread_mutex_t lock;
  pthread_cond_t wake, done;
  bool quit;
  uint64_t generation; /* of the loop in the slot */
  TessTaskFn *task;
  void *task_context;
  uint32_t count, range, next, finished;
  uint64_t on_threads, loops;
};

/* Takes and runs ranges of the current loop until none is left; under the lock on entry and exit. */
static void run_ranges(TestScheduler *s, uint32_t worker, bool own_thread) {
  while (s->next < s->count) {
    uint32_t begin = s->next, end = begin + s->range < s->count ? begin + s->range : s->count;
    s->next = end;
    if (own_thread) s->on_threads++;
    TessTaskFn *task = s->task;
    void *ctx = s->task_context;
    pthread_mutex_unlock(&s->lock);
    task(begin, end, worker, ctx);
    pthread_mutex_lock(&s->lock);
    s->finished += end - begin;
    if (s->finished == s->count) pthread_cond_broadcast(&s->done);
  }
}

typedef struct ThreadArg {
  TestScheduler *s;
  uint32_t index;
} ThreadArg;

static void *thread_main(void *arg) {
  ThreadArg a = *(ThreadArg *)arg;
  free(arg);
  TestScheduler *s = a.s;
  uint64_t seen = 0;
  pthread_mutex_lock(&s->lock);
  for (;;) {
    while (!s->quit && s->generation == seen) pthread_cond_wait(&s->wake, &s->lock);
    if (s->quit) break;
    seen = s->generation;
    run_ranges(s, a.index, true);
  }
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

static void *enqueue(TessTaskFn *task, uint32_t item_count, uint32_t min_range, void *task_context,
                     void *user_context) {
  TestScheduler *s = user_context;
  if (s->threads == 0) { /* a game that runs loops where they are handed over */
    s->loops++;
    task(0, item_count, 0, task_context);
    return NULL;
  }
  pthread_mutex_lock(&s->lock);
  s->loops++;
  s->task = task;
  s->task_context = task_context;
  s->count = item_count;
  uint32_t parts = 4u * (s->threads + 1u);
  s->range = (item_count + parts - 1u) / parts;
  if (s->range < min_range) s->range = min_range;
  if (s->range == 0) s->range = 1;
  s->next = s->finished = 0;
  s->generation++;
  pthread_cond_broadcast(&s->wake);
  pthread_mutex_unlock(&s->lock);
  return s;
}

/* The stepping thread helps, then waits for the ranges still running elsewhere. */
static void finish(void *user_task, void *user_context) {
  TestScheduler *s = user_context;
  (void)user_task;
  pthread_mutex_lock(&s->lock);
  run_ranges(s, s->threads, false);
  while (s->finished < s->count) pthread_cond_wait(&s->done, &s->lock);
  pthread_mutex_unlock(&s->lock);
}

TestScheduler *test_scheduler_create(uint32_t threads) {
  TestScheduler *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->wake, NULL);
  pthread_cond_init(&s->done, NULL);
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  for (uint32_t i = 0; i < threads; i++) {
    ThreadArg *a = malloc(sizeof *a);
    if (!a) break;
    a->s = s;
    a->index = i;
    if (pthread_create(&s->tid[i], NULL, thread_main, a) != 0) {
      free(a);
      break;
    }
    s->threads++;
  }
  return s;
}

void test_scheduler_destroy(TestScheduler *s) {
  if (!s) return;
  pthread_mutex_lock(&s->lock);
  s->quit = true;
  pthread_cond_broadcast(&s->wake);
  pthread_mutex_unlock(&s->lock);
  for (uint32_t i = 0; i < s->threads; i++) pthread_join(s->tid[i], NULL);
  pthread_cond_destroy(&s->done);
  pthread_cond_destroy(&s->wake);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

void test_scheduler_attach(TestScheduler *s, TessWorldDef *def) {
  def->enqueue_task = enqueue;
  def->finish_task = finish;
  def->user_task_context = s;
  def->worker_count = s->threads + 1u;
}

uint64_t test_scheduler_ranges_on_threads(TestScheduler *s) {
  pthread_mutex_lock(&s->lock);
  uint64_t n = s->on_threads;
  pthread_mutex_unlock(&s->lock);
  return n;
}

uint64_t test_scheduler_loops(TestScheduler *s) {
  pthread_mutex_lock(&s->lock);
  uint64_t n = s->loops;
  pthread_mutex_unlock(&s->lock);
  return n;
}
