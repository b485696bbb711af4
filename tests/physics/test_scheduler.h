/* A game's own task system, as the tests' (TessWorldDef.enqueue_task / finish_task): a few
 * threads of its own that share each loop the world hands it, or none (every loop inline). */
#ifndef TESS_TEST_SCHEDULER_H
#define TESS_TEST_SCHEDULER_H

#include "tessera/physics.h"

typedef struct TestScheduler TestScheduler;

/* `threads` threads besides the one that steps; 0 runs each loop inline as it is enqueued. */
TestScheduler *test_scheduler_create(uint32_t threads);
void test_scheduler_destroy(TestScheduler *s);
/* Points the definition's task callbacks and worker_count at the scheduler. */
void test_scheduler_attach(TestScheduler *s, TessWorldDef *def);
/* Ranges run so far on the scheduler's own threads (not the stepping one), and loops enqueued. */
uint64_t test_scheduler_ranges_on_threads(TestScheduler *s);
uint64_t test_scheduler_loops(TestScheduler *s);

#endif
