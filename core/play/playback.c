/* The preview's fixed-rate clock, interpolation and bounded recording.
 * See tessera/play.h (Playback) for the model; the invariants kept here:
 *  - two captured states, lo and hi, with hi.step - lo.step in {0, 1}, and
 *    the display time t in [lo.step, hi.step];
 *  - the world holds the state of hi.step (forwards) or lo.step (after a
 *    backwards move);
 *  - keyframes are sorted by step; the newest is never newer than `last`;
 *    an interaction marks the world dirty and the state after it becomes a
 *    keyframe before the world moves on, so re-stepping from keyframes
 *    reproduces exactly what was shown. */
#include "tessera/play.h"

#include <string.h>
#include <time.h>

typedef struct Keyframe {
  uint64_t step;
  void *buf;
  size_t size, cap;
} Keyframe;

/* Buffers of dropped keyframes, reused for new ones: once the budget is
 * full every keyframe recycles the oldest one's memory instead of asking
 * the system for fresh pages. */
#define SPARE_MAX 2

typedef struct Capture {
  uint64_t step;
  TessTransform *xf;
  uint8_t *present;
} Capture;

struct TessPlayback {
  TessPlaybackDef def;
  TessWorld *world;
  uint64_t base; /* world step count at step 0 */
  void *initial;
  size_t initial_size;

  Keyframe *ring; /* circular, oldest at head */
  uint32_t ring_cap, ring_head, ring_count;
  size_t ring_bytes;
  void *spare[SPARE_MAX];
  size_t spare_cap[SPARE_MAX];
  uint64_t last; /* newest recorded step */
  bool dirty;    /* the world was changed by the user since its keyframe */

  TESS_ARRAY(TessPlaybackBody)
  bodies;
  TESS_ARRAY(TessPlaybackShape)
  shapes;
  size_t capture_cap;
  Capture lo, hi;
  double t;

  bool playing;
  double speed;

  TessJointId drag_joint;
  TessBodyId drag_body;
  TessVec2 drag_local; /* grabbed point in body coordinates */
  TessVec2 drag_target;
  TESS_ARRAY(TessJointId)
  mouse_joints; /* every spring made, to clear orphans after a seek */
  bool orphans_possible;

  double step_ms;
  bool step_ms_valid;

  /* Playing backwards through a keyframe interval re-steps it once and keeps
   * every state of it here, so each step back is one restore, not up to
   * interval - 1 steps. States block_first .. block_first + block_count - 1. */
  TESS_ARRAY(TessPlaybackImpact)
  impacts;          /* of live steps, until taken */
  uint64_t resteps; /* steps re-simulated by seeks (not shown live) */
  uint64_t block_first;
  uint32_t block_count, block_cap;
  void **block_buf;
  size_t *block_size, *block_buf_cap;
};

/* ---- small helpers ------------------------------------------------------ */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static uint64_t cur(const TessPlayback *pb) { return tess_world_step_count(pb->world) - pb->base; }

static Keyframe *ring_at(const TessPlayback *pb, uint32_t k) {
  return &pb->ring[(pb->ring_head + k) % pb->ring_cap];
}

void tess_playback_def_default(TessPlaybackDef *def) {
  memset(def, 0, sizeof *def);
  def->hz = 60.0f;
  def->max_steps_per_frame = 4;
  def->memory_budget = TESS_PLAYBACK_DEFAULT_BUDGET;
  def->keyframe_interval = 0;
  def->max_frame_seconds = 0.25;
}

static uint32_t keyframe_interval(const TessPlayback *pb) {
  if (pb->def.keyframe_interval) return pb->def.keyframe_interval;
  size_t snap = tess_world_snapshot_size(pb->world);
  double per_30s = (double)(snap + snap / 8) * pb->def.hz * 30.0; /* a keyframe holds 1/8 of room to grow */
  double k = per_30s / (double)pb->def.memory_budget;
  if (k <= 1.0) return 1;
  if (k >= 16.0) return 16;
  return (uint32_t)k + ((double)(uint32_t)k < k ? 1u : 0u);
}

/* ---- keyframes ---------------------------------------------------------- */

static void release_buffer(TessPlayback *pb, void *buf, size_t cap) {
  for (int i = 0; i < SPARE_MAX; i++)
    if (!pb->spare[i]) {
      pb->spare[i] = buf;
      pb->spare_cap[i] = cap;
      return;
    }
  tess_free(buf);
}

static void *acquire_buffer(TessPlayback *pb, size_t size, size_t *cap) {
  for (int i = 0; i < SPARE_MAX; i++)
    if (pb->spare[i] && pb->spare_cap[i] >= size) {
      void *b = pb->spare[i];
      *cap = pb->spare_cap[i];
      pb->spare[i] = NULL;
      return b;
    }
  *cap = size + size / 8; /* room for a few more contacts next time */
  return tess_alloc(*cap);
}

static void ring_pop_front(TessPlayback *pb) {
  Keyframe *k = ring_at(pb, 0);
  pb->ring_bytes -= k->cap;
  release_buffer(pb, k->buf, k->cap);
  k->buf = NULL;
  pb->ring_head = (pb->ring_head + 1) % pb->ring_cap;
  pb->ring_count--;
}

static void ring_pop_back(TessPlayback *pb) {
  Keyframe *k = ring_at(pb, pb->ring_count - 1);
  pb->ring_bytes -= k->cap;
  release_buffer(pb, k->buf, k->cap);
  k->buf = NULL;
  pb->ring_count--;
}

static bool ring_grow(TessPlayback *pb) {
  uint32_t cap = pb->ring_cap ? pb->ring_cap * 2 : 64;
  Keyframe *r = tess_calloc(cap, sizeof *r);
  if (!r) return false;
  for (uint32_t k = 0; k < pb->ring_count; k++) r[k] = *ring_at(pb, k);
  tess_free(pb->ring);
  pb->ring = r;
  pb->ring_cap = cap;
  pb->ring_head = 0;
  return true;
}

/* Records the world's state now as the keyframe of its step (replacing one
 * of the same step), then drops the oldest keyframes beyond the budget. */
static TessResult take_keyframe(TessPlayback *pb, TessError *err) {
  size_t size = tess_world_snapshot_size(pb->world);
  uint64_t step = cur(pb);
  while (pb->ring_count && ring_at(pb, pb->ring_count - 1)->step >= step) ring_pop_back(pb);
  /* Make room first, so the oldest keyframe's buffer can be reused. */
  while (pb->ring_count > 1 && pb->ring_bytes + size + size / 8 > pb->def.memory_budget) ring_pop_front(pb);
  size_t cap;
  void *buf = acquire_buffer(pb, size, &cap);
  if (!buf) return tess_error_set(err, TESS_ERR_NOMEM, "preview", "no memory for a snapshot of %zu bytes", size);
  TessResult r = tess_world_snapshot(pb->world, buf, size, err);
  if (r != TESS_OK) {
    release_buffer(pb, buf, cap);
    return r;
  }
  if (pb->ring_count == pb->ring_cap && !ring_grow(pb)) {
    release_buffer(pb, buf, cap);
    return tess_error_set(err, TESS_ERR_NOMEM, "preview", "no memory for the recording");
  }
  Keyframe *k = ring_at(pb, pb->ring_count++);
  k->step = step;
  k->buf = buf;
  k->size = size;
  k->cap = cap;
  pb->ring_bytes += cap; /* what is really held, margin included */
  while (pb->ring_count > 1 && pb->ring_bytes > pb->def.memory_budget) ring_pop_front(pb);
  pb->dirty = false;
  if (step > pb->last) pb->last = step;
  return TESS_OK;
}

/* Forgets everything recorded after `step`. */
static void block_clear(TessPlayback *pb);

static void truncate_after(TessPlayback *pb, uint64_t step) {
  block_clear(pb);
  while (pb->ring_count > 1 && ring_at(pb, pb->ring_count - 1)->step > step) ring_pop_back(pb);
  pb->last = step;
}

static TessResult flush(TessPlayback *pb, TessError *err) {
  return pb->dirty ? take_keyframe(pb, err) : TESS_OK;
}

static void block_clear(TessPlayback *pb) { pb->block_count = 0; }

static void block_free(TessPlayback *pb) {
  for (uint32_t i = 0; i < pb->block_cap; i++) tess_free(pb->block_buf[i]);
  tess_free(pb->block_buf);
  tess_free(pb->block_size);
  tess_free(pb->block_buf_cap);
  pb->block_buf = NULL;
  pb->block_size = pb->block_buf_cap = NULL;
  pb->block_cap = pb->block_count = 0;
}

/* Keeps the world's current state as the next state of the block. */
static bool block_push(TessPlayback *pb) {
  if (pb->block_count == pb->block_cap) {
    uint32_t cap = pb->block_cap ? pb->block_cap * 2 : 16;
    void **b = tess_realloc(pb->block_buf, cap * sizeof *b);
    if (!b) return false;
    pb->block_buf = b;
    size_t *sz = tess_realloc(pb->block_size, cap * sizeof *sz);
    if (!sz) return false;
    pb->block_size = sz;
    size_t *bc = tess_realloc(pb->block_buf_cap, cap * sizeof *bc);
    if (!bc) return false;
    pb->block_buf_cap = bc;
    for (uint32_t i = pb->block_cap; i < cap; i++) {
      pb->block_buf[i] = NULL;
      pb->block_buf_cap[i] = 0;
    }
    pb->block_cap = cap;
  }
  uint32_t i = pb->block_count;
  size_t size = tess_world_snapshot_size(pb->world);
  if (pb->block_buf_cap[i] < size) {
    void *nb = tess_realloc(pb->block_buf[i], size);
    if (!nb) return false;
    pb->block_buf[i] = nb;
    pb->block_buf_cap[i] = size;
  }
  if (tess_world_snapshot(pb->world, pb->block_buf[i], size, NULL) != TESS_OK) return false;
  pb->block_size[i] = size;
  pb->block_count++;
  return true;
}

/* ---- captures ----------------------------------------------------------- */

static bool capture_reserve(TessPlayback *pb, size_t need) {
  if (need <= pb->capture_cap) return true;
  size_t cap = pb->capture_cap ? pb->capture_cap : 64;
  while (cap < need) cap *= 2;
  Capture *cs[2] = {&pb->lo, &pb->hi};
  for (int i = 0; i < 2; i++) {
    TessTransform *xf = tess_realloc(cs[i]->xf, cap * sizeof *xf);
    if (!xf) return false;
    cs[i]->xf = xf;
    uint8_t *pr = tess_realloc(cs[i]->present, cap);
    if (!pr) return false;
    memset(pr + pb->capture_cap, 0, cap - pb->capture_cap);
    cs[i]->present = pr;
  }
  pb->capture_cap = cap;
  return true;
}

static void capture(TessPlayback *pb, Capture *c) {
  c->step = cur(pb);
  for (size_t i = 0; i < pb->bodies.count; i++) {
    TessBodyId id = pb->bodies.data[i].id;
    bool ok = tess_body_is_valid(pb->world, id);
    c->present[i] = ok;
    if (ok) c->xf[i] = tess_body_transform(pb->world, id);
  }
}

static void copy_capture(TessPlayback *pb, Capture *dst, const Capture *src) {
  dst->step = src->step;
  memcpy(dst->xf, src->xf, pb->bodies.count * sizeof *dst->xf);
  memcpy(dst->present, src->present, pb->bodies.count);
}

/* Shows the world's state exactly (both captures equal). */
static void show_current(TessPlayback *pb) {
  capture(pb, &pb->hi);
  copy_capture(pb, &pb->lo, &pb->hi);
  pb->t = (double)pb->hi.step;
}

/* ---- moving the world --------------------------------------------------- */

static TessResult raw_step(TessPlayback *pb, bool measure, TessError *err) {
  double t0 = measure ? now_ms() : 0.0;
  TessResult r = tess_world_step(pb->world, 1.0f / pb->def.hz, err);
  if (measure && r == TESS_OK) {
    double ms = now_ms() - t0;
    pb->step_ms = pb->step_ms_valid ? pb->step_ms * 0.9 + ms * 0.1 : ms;
    pb->step_ms_valid = true;
  }
  return r;
}

uint64_t tess_playback_first_step(const TessPlayback *pb) { return ring_at(pb, 0)->step; }
uint64_t tess_playback_last_step(const TessPlayback *pb) { return pb->last; }

/* Puts the world in the recorded state of `step` (first <= step <= last):
 * restore the newest keyframe at or before it, then re-step. */
static TessResult seek_world_block(TessPlayback *pb, uint64_t step, bool use_block, TessError *err) {
  TessResult r = flush(pb, err);
  if (r != TESS_OK) return r;
  if (cur(pb) == step) return TESS_OK;
  if (use_block && pb->block_count && step >= pb->block_first && step < pb->block_first + pb->block_count) {
    uint32_t i = (uint32_t)(step - pb->block_first);
    return tess_world_restore(pb->world, pb->block_buf[i], pb->block_size[i], err);
  }
  uint32_t lo = 0, hi = pb->ring_count; /* first keyframe with step > target */
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (ring_at(pb, mid)->step <= step) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return tess_error_set(err, TESS_ERR_NOT_FOUND, "preview", "step %llu is no longer recorded",
                                     (unsigned long long)step);
  const Keyframe *k = ring_at(pb, lo - 1);
  bool from_current = cur(pb) >= k->step && cur(pb) < step; /* re-stepping from here is cheaper */
  if (use_block) {                                          /* re-step the interval once, keeping each state */
    block_clear(pb);
    from_current = false;
  }
  if (!from_current) {
    r = tess_world_restore(pb->world, k->buf, k->size, err);
    if (r != TESS_OK) return r;
  }
  if (use_block) pb->block_first = cur(pb);
  while (cur(pb) < step) {
    if (use_block && !block_push(pb)) { /* no memory for it: plain re-stepping still works */
      block_clear(pb);
      use_block = false;
    }
    r = raw_step(pb, false, err);
    if (r != TESS_OK) return r;
    pb->resteps++;
  }
  return TESS_OK;
}

static TessResult seek_world(TessPlayback *pb, uint64_t step, TessError *err) {
  return seek_world_block(pb, step, false, err);
}

/* Springs left in a restored state by a drag that is no longer held. */
static void clear_orphan_springs(TessPlayback *pb) {
  if (!pb->orphans_possible) return;
  for (size_t i = 0; i < pb->mouse_joints.count; i++) {
    TessJointId j = pb->mouse_joints.data[i];
    if (j.index1 == pb->drag_joint.index1 && j.generation == pb->drag_joint.generation) continue;
    if (tess_joint_is_valid(pb->world, j) && tess_joint_type(pb->world, j) == TESS_JOINT_TYPE_MOUSE) {
      tess_joint_destroy(pb->world, j);
      pb->dirty = true;
    }
  }
  pb->mouse_joints.count = 0;
  if (!tess_joint_id_is_null(pb->drag_joint)) TESS_ARRAY_PUSH(&pb->mouse_joints, pb->drag_joint);
  pb->orphans_possible = false;
}

static void forget_drag(TessPlayback *pb) {
  if (!tess_joint_id_is_null(pb->drag_joint)) pb->orphans_possible = true;
  memset(&pb->drag_joint, 0, sizeof pb->drag_joint);
  memset(&pb->drag_body, 0, sizeof pb->drag_body);
}

/* One live step forwards from hi (the world must hold hi's state). Stepping
 * from an earlier moment drops the later recording. */
static TessResult record_step(TessPlayback *pb, TessError *err) {
  if (cur(pb) < pb->last) truncate_after(pb, cur(pb));
  clear_orphan_springs(pb);
  TessResult r = flush(pb, err);
  if (r != TESS_OK) return r;
  r = raw_step(pb, true, err);
  if (r != TESS_OK) return r;
  TessWorldEvents ev = tess_world_events(pb->world);
  if (pb->impacts.count > 4096) pb->impacts.count = 0; /* nobody is taking them */
  for (uint32_t i = 0; i < ev.contact_begin_count; i++) {
    TessPlaybackImpact im = {ev.contact_begin[i].point, ev.contact_begin[i].normal};
    if (!TESS_ARRAY_PUSH(&pb->impacts, im)) break;
  }
  Capture tmp = pb->lo;
  pb->lo = pb->hi;
  pb->hi = tmp;
  capture(pb, &pb->hi);
  pb->last = cur(pb);
  if (cur(pb) - ring_at(pb, pb->ring_count - 1)->step >= keyframe_interval(pb)) return take_keyframe(pb, err);
  return TESS_OK;
}

/* Moves the pair one step back: hi <- lo, lo <- the state before it. */
static TessResult back_one(TessPlayback *pb, TessError *err) {
  copy_capture(pb, &pb->hi, &pb->lo);
  TessResult r = seek_world_block(pb, pb->lo.step - 1, true, err);
  if (r != TESS_OK) return r;
  capture(pb, &pb->lo);
  return TESS_OK;
}

/* ---- life cycle --------------------------------------------------------- */

TessResult tess_playback_create(TessWorld *world, const TessPlaybackDef *def, TessPlayback **out, TessError *err) {
  TessPlaybackDef d;
  if (def) d = *def;
  else tess_playback_def_default(&d);
  if (!(d.hz > 0.0f && d.hz <= 10000.0f) || d.max_steps_per_frame == 0 || d.memory_budget == 0 ||
      !(d.max_frame_seconds > 0.0)) {
    tess_world_destroy(world);
    return tess_error_set(err, TESS_ERR_INVALID, "preview", "bad playback definition");
  }
  TessPlayback *pb = tess_calloc(1, sizeof *pb);
  if (!pb) {
    tess_world_destroy(world);
    return tess_error_set(err, TESS_ERR_NOMEM, "preview", "out of memory");
  }
  pb->def = d;
  pb->world = world;
  pb->base = tess_world_step_count(world);
  pb->speed = 1.0;
  pb->initial_size = tess_world_snapshot_size(world);
  pb->initial = tess_alloc(pb->initial_size);
  TessResult r = pb->initial ? tess_world_snapshot(world, pb->initial, pb->initial_size, err)
                             : tess_error_set(err, TESS_ERR_NOMEM, "preview", "out of memory");
  if (r == TESS_OK) r = take_keyframe(pb, err);
  if (r == TESS_OK && !capture_reserve(pb, 64)) r = tess_error_set(err, TESS_ERR_NOMEM, "preview", "out of memory");
  if (r != TESS_OK) {
    tess_playback_destroy(pb);
    return r;
  }
  *out = pb;
  return TESS_OK;
}

void tess_playback_destroy(TessPlayback *pb) {
  if (!pb) return;
  while (pb->ring_count) ring_pop_front(pb);
  for (int i = 0; i < SPARE_MAX; i++) tess_free(pb->spare[i]);
  tess_free(pb->ring);
  tess_free(pb->initial);
  block_free(pb);
  TESS_ARRAY_FREE(&pb->bodies);
  TESS_ARRAY_FREE(&pb->shapes);
  TESS_ARRAY_FREE(&pb->mouse_joints);
  TESS_ARRAY_FREE(&pb->impacts);
  tess_free(pb->lo.xf);
  tess_free(pb->lo.present);
  tess_free(pb->hi.xf);
  tess_free(pb->hi.present);
  tess_world_destroy(pb->world);
  tess_free(pb);
}

TessWorld *tess_playback_world(TessPlayback *pb) { return pb->world; }
const TessPlaybackDef *tess_playback_def(const TessPlayback *pb) { return &pb->def; }

/* ---- registry ----------------------------------------------------------- */

int64_t tess_playback_body_index(const TessPlayback *pb, TessBodyId id) {
  for (size_t i = 0; i < pb->bodies.count; i++)
    if (tess_body_id_equal(pb->bodies.data[i].id, id)) return (int64_t)i;
  return -1;
}

TessResult tess_playback_register_body(TessPlayback *pb, const TessPlaybackBody *body,
                                       const TessPlaybackShape *shapes, TessError *err) {
  if (!tess_body_is_valid(pb->world, body->id))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, "preview", "no such body in the world");
  TessPlaybackBody b = *body;
  b.shape_first = (uint32_t)pb->shapes.count;
  for (uint32_t i = 0; i < body->shape_count; i++)
    if (!TESS_ARRAY_PUSH(&pb->shapes, shapes[i])) return tess_error_set(err, TESS_ERR_NOMEM, "preview", "out of memory");
  /* A handle from a dropped branch of the recording can come back for a
   * different body: the newest registration wins. */
  int64_t at = tess_playback_body_index(pb, body->id);
  size_t index;
  if (at >= 0) {
    index = (size_t)at;
    pb->bodies.data[index] = b;
  } else {
    if (!capture_reserve(pb, pb->bodies.count + 1) || !TESS_ARRAY_PUSH(&pb->bodies, b))
      return tess_error_set(err, TESS_ERR_NOMEM, "preview", "out of memory");
    index = pb->bodies.count - 1;
  }
  TessTransform xf = tess_body_transform(pb->world, body->id);
  bool world_at_hi = cur(pb) == pb->hi.step;
  pb->hi.present[index] = world_at_hi;
  pb->hi.xf[index] = xf;
  pb->lo.present[index] = cur(pb) == pb->lo.step;
  pb->lo.xf[index] = xf;
  return TESS_OK;
}

uint32_t tess_playback_body_count(const TessPlayback *pb) { return (uint32_t)pb->bodies.count; }
const TessPlaybackBody *tess_playback_body(const TessPlayback *pb, uint32_t index) {
  TESS_ASSERT(index < pb->bodies.count && "tess_playback_body: index past tess_playback_body_count");
  return index < pb->bodies.count ? &pb->bodies.data[index] : NULL;
}
const TessPlaybackShape *tess_playback_shapes(const TessPlayback *pb) { return pb->shapes.data; }

/* ---- the clock ---------------------------------------------------------- */

void tess_playback_set_playing(TessPlayback *pb, bool playing) { pb->playing = playing; }
bool tess_playback_playing(const TessPlayback *pb) { return pb->playing; }

void tess_playback_set_speed(TessPlayback *pb, double speed) {
  if (!isfinite(speed)) speed = 1.0;
  if (speed > TESS_PLAYBACK_SPEED_MAX) speed = TESS_PLAYBACK_SPEED_MAX;
  if (speed < -TESS_PLAYBACK_SPEED_MAX) speed = -TESS_PLAYBACK_SPEED_MAX;
  pb->speed = speed;
}
double tess_playback_speed(const TessPlayback *pb) { return pb->speed; }

uint32_t tess_playback_advance(TessPlayback *pb, double wall_seconds, TessError *err) {
  if (!pb->playing || pb->speed == 0.0 || !(wall_seconds > 0.0)) return 0;
  uint32_t steps = 0;
  if (pb->speed > 0.0) {
    /* Forwards is core/play's fixed-step clock, from the display time. */
    if (cur(pb) != pb->hi.step && seek_world(pb, pb->hi.step, err) != TESS_OK) return 0;
    TessClock clock = {{pb->def.hz, pb->def.max_steps_per_frame, pb->def.max_frame_seconds}, pb->hi.step, pb->t};
    uint32_t due = tess_clock_advance(&clock, wall_seconds, pb->speed);
    for (; steps < due; steps++)
      if (record_step(pb, err) != TESS_OK) return steps;
    pb->t = clock.time;
  } else {
    /* Backwards walks the recording, with the clock's cap. */
    double dt = wall_seconds > pb->def.max_frame_seconds ? pb->def.max_frame_seconds : wall_seconds;
    double target = pb->t + dt * pb->speed * pb->def.hz;
    double first = (double)tess_playback_first_step(pb);
    if (target <= first) target = first;
    while ((double)pb->lo.step > target) {
      if (steps == pb->def.max_steps_per_frame) {
        target = (double)pb->lo.step;
        break;
      }
      if (back_one(pb, err) != TESS_OK) return steps;
      steps++;
    }
    pb->t = target < (double)pb->lo.step ? (double)pb->lo.step : target;
    if (pb->t <= first) pb->playing = false;
  }
  return steps;
}

TessResult tess_playback_step(TessPlayback *pb, TessError *err) {
  TessResult r = seek_world(pb, pb->hi.step, err);
  if (r != TESS_OK) return r;
  r = record_step(pb, err);
  pb->t = (double)pb->hi.step;
  return r;
}

TessResult tess_playback_seek(TessPlayback *pb, uint64_t step, TessError *err) {
  TessResult r = flush(pb, err);
  if (r != TESS_OK) return r;
  uint64_t first = tess_playback_first_step(pb);
  if (step < first) step = first;
  if (step > pb->last) step = pb->last;
  if (step != cur(pb)) forget_drag(pb);
  r = seek_world(pb, step, err);
  if (r != TESS_OK) return r;
  show_current(pb);
  return TESS_OK;
}

TessResult tess_playback_reset(TessPlayback *pb, TessError *err) {
  forget_drag(pb);
  TessResult r = tess_world_restore(pb->world, pb->initial, pb->initial_size, err);
  if (r != TESS_OK) return r;
  while (pb->ring_count) ring_pop_front(pb);
  block_clear(pb);
  pb->last = 0;
  pb->dirty = false;
  r = take_keyframe(pb, err);
  if (r != TESS_OK) return r;
  pb->playing = false;
  show_current(pb);
  return TESS_OK;
}

uint64_t tess_playback_current_step(const TessPlayback *pb) { return cur(pb); }
double tess_playback_time(const TessPlayback *pb) { return pb->t; }

double tess_playback_alpha(const TessPlayback *pb) {
  if (pb->hi.step == pb->lo.step) return 1.0;
  double a = pb->t - (double)pb->lo.step;
  return a < 0.0 ? 0.0 : (a > 1.0 ? 1.0 : a);
}

bool tess_playback_body_transform(const TessPlayback *pb, uint32_t index, TessTransform *out) {
  TESS_ASSERT(index < pb->bodies.count && "tess_playback_body_transform: index past tess_playback_body_count");
  if (index >= pb->bodies.count || !pb->hi.present[index]) return false;
  if (!pb->lo.present[index]) {
    *out = pb->hi.xf[index];
    return true;
  }
  float a = (float)tess_playback_alpha(pb);
  TessTransform x0 = pb->lo.xf[index], x1 = pb->hi.xf[index];
  out->p = tess_v2_lerp(x0.p, x1.p, a);
  out->q = tess_rot_nlerp(x0.q, x1.q, a);
  return true;
}

/* ---- interaction -------------------------------------------------------- */

/* The user acts on the state shown: bring the world there, drop the future. */
static TessResult begin_interaction(TessPlayback *pb, TessError *err) {
  TessResult r = seek_world(pb, pb->hi.step, err);
  if (r != TESS_OK) return r;
  truncate_after(pb, cur(pb));
  clear_orphan_springs(pb);
  return TESS_OK;
}

static void end_interaction(TessPlayback *pb) {
  pb->dirty = true;
  show_current(pb);
}

TessResult tess_playback_drag_begin(TessPlayback *pb, TessBodyId body, TessVec2 grab, TessError *err) {
  if (!tess_body_is_valid(pb->world, body) || tess_body_type(pb->world, body) != TESS_BODY_DYNAMIC)
    return tess_error_set(err, TESS_ERR_INVALID, "preview", "only dynamic bodies can be dragged");
  if (!tess_joint_id_is_null(pb->drag_joint)) {
    TessResult r = tess_playback_drag_end(pb, false, tess_v2(0, 0), err);
    if (r != TESS_OK) return r;
  }
  TessResult r = begin_interaction(pb, err);
  if (r != TESS_OK) return r;
  TessMouseJointDef def;
  tess_mouse_joint_def_default(&def);
  def.body = body;
  def.target = grab;
  TessJointId j;
  r = tess_joint_create_mouse(pb->world, &def, &j, err);
  if (r != TESS_OK) return r;
  pb->drag_joint = j;
  pb->drag_body = body;
  pb->drag_local = tess_transform_point_inv(tess_body_transform(pb->world, body), grab);
  pb->drag_target = grab;
  TESS_ARRAY_PUSH(&pb->mouse_joints, j);
  end_interaction(pb);
  return TESS_OK;
}

static bool drag_alive(TessPlayback *pb) {
  if (tess_joint_id_is_null(pb->drag_joint)) return false;
  if (!tess_joint_is_valid(pb->world, pb->drag_joint)) { /* its body was removed */
    memset(&pb->drag_joint, 0, sizeof pb->drag_joint);
    memset(&pb->drag_body, 0, sizeof pb->drag_body);
    return false;
  }
  return true;
}

TessResult tess_playback_drag_move(TessPlayback *pb, TessVec2 target, TessError *err) {
  if (!drag_alive(pb)) return tess_error_set(err, TESS_ERR_NOT_FOUND, "preview", "nothing is being dragged");
  if (!tess_v2_is_finite(target)) return tess_error_set(err, TESS_ERR_INVALID, "preview", "target not finite");
  TessResult r = begin_interaction(pb, err);
  if (r != TESS_OK) return r;
  r = tess_mouse_joint_set_target(pb->world, pb->drag_joint, target);
  if (r != TESS_OK) return tess_error_set(err, r, "preview", "cannot move the spring");
  pb->drag_target = target;
  end_interaction(pb);
  return TESS_OK;
}

TessResult tess_playback_drag_end(TessPlayback *pb, bool throw_it, TessVec2 velocity, TessError *err) {
  if (!drag_alive(pb)) return TESS_OK;
  TessResult r = begin_interaction(pb, err);
  if (r != TESS_OK) return r;
  TessBodyId body = pb->drag_body;
  tess_joint_destroy(pb->world, pb->drag_joint);
  pb->mouse_joints.count = 0;
  memset(&pb->drag_joint, 0, sizeof pb->drag_joint);
  memset(&pb->drag_body, 0, sizeof pb->drag_body);
  if (throw_it && tess_v2_is_finite(velocity)) tess_body_set_linear_velocity(pb->world, body, velocity);
  end_interaction(pb);
  return TESS_OK;
}

bool tess_playback_drag_line(const TessPlayback *pb, TessVec2 *anchor, TessVec2 *target) {
  if (tess_joint_id_is_null(pb->drag_joint) || !tess_joint_is_valid(pb->world, pb->drag_joint)) return false;
  int64_t i = tess_playback_body_index(pb, pb->drag_body);
  TessTransform xf;
  if (i < 0 || !tess_playback_body_transform(pb, (uint32_t)i, &xf)) xf = tess_body_transform(pb->world, pb->drag_body);
  if (anchor) *anchor = tess_transform_point(xf, pb->drag_local);
  if (target) *target = pb->drag_target;
  return true;
}

TessBodyId tess_playback_drag_body(const TessPlayback *pb) { return pb->drag_body; }

TessResult tess_playback_spawn(TessPlayback *pb, const TessPlaybackSpawn *spawn, TessBodyId *out, TessError *err) {
  if (spawn->shape_count == 0 || spawn->shape_count > 16)
    return tess_error_set(err, TESS_ERR_INVALID, "preview", "a spawned body needs 1..16 shapes");
  TessResult r = begin_interaction(pb, err);
  if (r != TESS_OK) return r;
  TessBodyId id;
  r = tess_body_create(pb->world, &spawn->body, &id, err);
  if (r != TESS_OK) return r;
  bool sensor = true;
  for (uint32_t i = 0; i < spawn->shape_count && r == TESS_OK; i++) {
    const TessPlaybackShape *s = &spawn->shapes[i];
    TessShapeDef sd = spawn->shape;
    sd.sensor = s->sensor;
    sensor = sensor && s->sensor;
    TessShapeId sid;
    if (s->kind == TESS_PLAYBACK_SHAPE_CIRCLE) r = tess_shape_create_circle(pb->world, id, &sd, s->center, s->radius, &sid, err);
    else if (s->kind == TESS_PLAYBACK_SHAPE_CAPSULE) r = tess_shape_create_capsule(pb->world, id, &sd, s->p1, s->p2, s->radius, &sid, err);
    else r = tess_shape_create_polygon(pb->world, id, &sd, s->v, s->count, &sid, err);
  }
  if (r == TESS_OK && spawn->set_mass)
    r = tess_body_set_mass_data(pb->world, id, spawn->mass, spawn->local_center, spawn->inertia, err);
  if (r != TESS_OK) {
    tess_body_destroy(pb->world, id);
    return r;
  }
  TessPlaybackBody info;
  memset(&info, 0, sizeof info);
  info.id = id;
  info.sprite = spawn->sprite;
  info.sprite_origin = spawn->sprite_origin;
  info.color = spawn->color;
  info.type = (uint8_t)spawn->body.type;
  info.sensor = sensor;
  info.shape_count = spawn->shape_count;
  r = tess_playback_register_body(pb, &info, spawn->shapes, err);
  if (r != TESS_OK) {
    tess_body_destroy(pb->world, id);
    return r;
  }
  end_interaction(pb);
  if (out) *out = id;
  return TESS_OK;
}

TessResult tess_playback_remove(TessPlayback *pb, TessBodyId body, TessError *err) {
  if (!tess_body_is_valid(pb->world, body))
    return tess_error_set(err, TESS_ERR_NOT_FOUND, "preview", "no such body in the state shown");
  TessResult r = begin_interaction(pb, err);
  if (r != TESS_OK) return r;
  if (tess_body_id_equal(body, pb->drag_body)) {
    memset(&pb->drag_joint, 0, sizeof pb->drag_joint);
    memset(&pb->drag_body, 0, sizeof pb->drag_body);
  }
  r = tess_body_destroy(pb->world, body);
  if (r != TESS_OK) return tess_error_set(err, r, "preview", "cannot remove the body");
  end_interaction(pb);
  return TESS_OK;
}

uint32_t tess_playback_take_impacts(TessPlayback *pb, TessPlaybackImpact *out, uint32_t max) {
  size_t n = pb->impacts.count, first = n > max ? n - max : 0;
  for (size_t i = first; i < n; i++) out[i - first] = pb->impacts.data[i];
  pb->impacts.count = 0;
  return (uint32_t)(n - first);
}

/* ---- numbers ------------------------------------------------------------ */

void tess_playback_stats(const TessPlayback *pb, TessPlaybackStats *out) {
  memset(out, 0, sizeof *out);
  out->bodies = tess_world_body_count(pb->world);
  out->awake = tess_world_awake_body_count(pb->world);
  out->contacts = tess_world_contact_count(pb->world);
  out->step_ms = pb->step_ms;
  out->resteps = pb->resteps;
  out->keyframes = pb->ring_count;
  out->keyframe_interval = keyframe_interval(pb);
  out->recording_bytes = pb->ring_bytes;
  out->snapshot_bytes = tess_world_snapshot_size(pb->world);
  if (out->snapshot_bytes)
    out->history_seconds = (double)pb->def.memory_budget / (double)(out->snapshot_bytes + out->snapshot_bytes / 8) *
                           out->keyframe_interval / pb->def.hz;
}
