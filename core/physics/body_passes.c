/* The step's passes over every body slot, on the workers: the margins and sweeps at the start,
 * and the solver states after the islands have woken who they wake. Each body's result is its
 * own; the one list the states pass makes (the awake bodies in slot order) comes from block
 * counts, so it is the same list however the blocks were shared. */
#include <stdatomic.h>
#include <string.h>

#include "physics_private.h"

/* Small enough that the pool's chunks get the same number of blocks at 5,000 bodies (at
 * 1024 the 5 blocks made 3 chunks, and one thread did two of them). */
#define BODY_BLOCK 128u

typedef struct PrepareJob {
  TessWorld *w;
  float dt, spec;
} PrepareJob;

/* Bodies [begin, end): centres, speculative margins and sweeps of this step; last step's stops
 * go into the paths (where round features are met) and are cleared. */
static void prepare_task(void *ctx, uint32_t begin, uint32_t end) {
  const PrepareJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t i = begin; i < end; i++) {
    Body *b = &w->bodies[i];
    w->moving[i] = !b->in_use || physics_body_active(b);
    w->centers[i] = b->center;
    if (!b->in_use) continue;
    b->xf_prev = b->xf;
    bool moving = b->type != TESS_BODY_STATIC && physics_body_active(b);
    w->margins[i] = b->type == TESS_BODY_STATIC ? 0.0f : j->spec + (moving ? fabsf(b->w) * b->max_extent * j->dt : 0.0f);
    w->sweeps[i] = moving ? tess_v2_scale(j->dt, b->v) : tess_v2(0.0f, 0.0f);
    w->paths[i] = moving ? tess_v2_scale(j->dt, tess_v2_add(b->v, b->stop_dv)) : tess_v2(0.0f, 0.0f);
    b->stop_dv = tess_v2(0.0f, 0.0f);
  }
}

void physics_bodies_prepare(TessWorld *w, float dt, float speculative) {
  PrepareJob job = {w, dt, speculative};
  /* at least 256 bodies a chunk: at 1,024 the 5,000 bodies made 5 chunks, and one thread's part
   * had 3 of them (the pool keeps a loop this small on the caller when it would not pay) */
  physics_parallel_for(w->tasks, w->body_count, 256, prepare_task, &job);
}

typedef struct StateJob {
  TessWorld *w;
  float h;
  bool write; /* the second pass */
  atomic_bool any_rk4;
  uint32_t first;                       /* the second pass's first block */
  uint32_t last_blocks;                 /* blocks with a count from last step */
  const uint32_t *last_count, *last_at; /* last step's count of each block, and its start */
} StateJob;

/* Solver state k (1..) of body b, awake and not static. */
static void init_state(TessWorld *w, const Body *b, uint32_t k, float h, atomic_bool *any_rk4) {
  BodyState *s = &w->states[k];
  BodyMotion *q = &w->motions[k];
  memset(s, 0, sizeof *s);
  memset(q, 0, sizeof *q);
  s->dq = tess_rot_identity();
  s->v = b->v;
  s->w = b->w;
  q->lin_f = q->ang_f = 1.0f;
  if (b->type != TESS_BODY_DYNAMIC) return;
  s->dynamic = 1;
  q->inv_m = b->inv_mass;
  q->inv_i = b->inv_inertia;
  q->acc = tess_v2_add(tess_v2_scale(b->inv_mass, b->force), tess_v2_scale(b->gravity_scale, w->def.gravity));
  q->ang_acc = b->inv_inertia * b->torque;
  q->lin_f = 1.0f / (1.0f + h * (b->linear_damping + b->extra_damping));
  q->ang_f = 1.0f / (1.0f + h * (b->angular_damping + b->extra_angular_damping));
  q->rk4 = b->integrator == TESS_INTEGRATOR_RK4;
  if (q->rk4) atomic_store_explicit(any_rk4, true, memory_order_relaxed);
}

/* Blocks [first + begin, first + end) of body slots. The first pass (guess) counts each block's
 * awake bodies into w->blocks and, as far as last step's count of the block goes, numbers them
 * and sets up their states from where last step's counts put the block: the places are right
 * when no block's count changed (a step where no body woke, slept, came or went), and no block
 * writes past its last count, so the blocks never write the same places. The second pass numbers
 * the bodies of the blocks from the first changed one on from their true starts. */
static void states_task(void *ctx, uint32_t begin, uint32_t end) {
  StateJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t blk = j->first + begin; blk < j->first + end; blk++) {
    uint32_t first = blk * BODY_BLOCK, last = first + BODY_BLOCK < w->body_count ? first + BODY_BLOCK : w->body_count;
    uint32_t k = j->write ? w->blocks[blk] : (blk < j->last_blocks ? j->last_at[blk] : 0);
    uint32_t room = j->write ? UINT32_MAX : (blk < j->last_blocks ? j->last_count[blk] : 0), n = 0;
    for (uint32_t i = first; i < last; i++) {
      const Body *b = &w->bodies[i];
      if (!physics_body_active(b)) {
        w->state_of[i] = 0;
        continue;
      }
      if (n++ >= room) continue;
      w->active[k] = i;
      w->state_of[i] = k + 1;
      init_state(w, b, k + 1, j->h, &j->any_rk4);
      k++;
    }
    if (!j->write) w->blocks[blk] = n;
  }
}

bool physics_bodies_states(TessWorld *w, float h, bool *any_rk4) {
  BodyState *st = w->states;
  memset(&st[0], 0, sizeof st[0]);
  memset(&w->motions[0], 0, sizeof w->motions[0]);
  st[0].dq = tess_rot_identity();
  uint32_t blocks = (w->body_count + BODY_BLOCK - 1) / BODY_BLOCK;
  if (!PHYS_GROW(w->active, &w->active_cap, w->body_count + 1) ||
      !PHYS_GROW(w->state_of, &w->state_of_cap, w->body_count + 1) ||
      !PHYS_GROW(w->blocks, &w->blocks_cap, blocks + 1) ||
      !PHYS_GROW(w->state_blocks, &w->state_blocks_cap, 2u * blocks + 2u))
    return false;
  /* last step's counts, and where they put each block (none past the states there are now) */
  uint32_t *last_count = w->state_blocks, *last_at = w->state_blocks + blocks + 1u;
  uint32_t last_blocks = w->state_block_count < blocks ? w->state_block_count : blocks, at = 0;
  for (uint32_t b = 0; b < last_blocks; b++) {
    last_at[b] = at;
    at += last_count[b];
  }
  if (at > w->body_count) last_blocks = 0;
  StateJob job = {w, h, false, false, 0, last_blocks, last_count, last_at};
  physics_parallel_for(w->tasks, blocks, 2, states_task, &job);
  /* the first block whose count changed, and every block's true start */
  uint32_t n = 0, changed = blocks;
  for (uint32_t b = 0; b < blocks; b++) {
    uint32_t c = w->blocks[b];
    if (changed == blocks && (b >= last_blocks || c != last_count[b])) changed = b;
    last_count[b] = c;
    w->blocks[b] = n;
    n += c;
  }
  w->state_block_count = blocks;
  if (changed < blocks) {
    job.write = true;
    job.first = changed;
    physics_parallel_for(w->tasks, blocks - changed, 2, states_task, &job);
  }
  w->active_count = n;
  *any_rk4 = atomic_load(&job.any_rk4);
  return true;
}
