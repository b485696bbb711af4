/* editor/preview's playback clock and recording, on a hand-built world:
 * whole steps from wall time, the catch-up cap, interpolation, Step, seek,
 * rewind + replay determinism, the memory bound, backwards play, and
 * interactions (spawn, remove, drag) kept in the recording. */
#include <string.h>

#include "check.h"
#include "death.h"
#include "tessera/play.h"
#include "tessera/physics.h"

#define HZ 60.0f

/* A 40 x 24 map of 0.5 m cells: a floor, two walls and a shelf; 24 circles
 * and 8 boxes dropped above it. The same calls give the same world. */
static TessWorld *build_world(void) {
  TessWorldDef wd;
  tess_world_def_default(&wd);
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create(&wd, &w, &err), &err);
  enum { MW = 40,
         MH = 24 };
  static uint8_t kinds[MW * MH];
  memset(kinds, 0, sizeof kinds);
  for (int x = 0; x < MW; x++) kinds[(MH - 1) * MW + x] = kinds[(MH - 2) * MW + x] = TESS_MAP_FULL;
  for (int y = 0; y < MH; y++) kinds[y * MW] = kinds[y * MW + MW - 1] = TESS_MAP_FULL;
  for (int x = 8; x < 16; x++) kinds[14 * MW + x] = TESS_MAP_FULL;
  TessMapMaterial mat = {0.6f, 0.3f, 1.0f, 2000.0f, TESS_MAP_MATERIAL_SOLID};
  TessTileMapDef md;
  memset(&md, 0, sizeof md);
  md.width = MW;
  md.height = MH;
  md.cell_w = md.cell_h = 0.5f;
  md.kinds = kinds;
  md.material_count = 1;
  md.material_list = &mat;
  CHECK_OK(tess_world_set_tile_map(w, &md, &err), &err);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  sd.restitution = 0.4f;
  for (int i = 0; i < 32; i++) {
    TessBodyDef bd;
    tess_body_def_default(&bd);
    bd.position = tess_v2(2.0f + (float)(i % 8) * 2.0f + 0.1f * (float)(i / 8), 1.5f + (float)(i / 8) * 1.2f);
    bd.angle = 0.1f * (float)i;
    bd.user_data = (uint64_t)i + 1;
    TessBodyId b;
    CHECK_OK(tess_body_create(w, &bd, &b, &err), &err);
    TessShapeId s;
    if (i % 4 == 3) CHECK_OK(tess_shape_create_box(w, b, &sd, 0.3f, 0.2f, tess_v2(0, 0), 0, &s, &err), &err);
    else CHECK_OK(tess_shape_create_circle(w, b, &sd, tess_v2(0, 0), 0.25f, &s, &err), &err);
  }
  return w;
}

/* Bodies are created in order, so slot i holds body i (generation from the world). */
static void register_all(TessPlayback *pb) {
  TessWorld *w = tess_playback_world(pb);
  uint32_t n = tess_world_body_count(w);
  for (uint32_t i = 0; i < n; i++) {
    TessBodyId id = {i + 1, 0};
    for (uint32_t g = 0; g < 4 && !tess_body_is_valid(w, id); g++) id.generation = g;
    CHECK(tess_body_is_valid(w, id));
    TessPlaybackBody b;
    memset(&b, 0, sizeof b);
    b.id = id;
    b.object = i + 1;
    b.type = TESS_BODY_DYNAMIC;
    b.shape_count = 1;
    TessPlaybackShape s;
    memset(&s, 0, sizeof s);
    s.kind = TESS_PLAYBACK_SHAPE_CIRCLE;
    s.radius = 0.25f;
    TessError err;
    CHECK_OK(tess_playback_register_body(pb, &b, &s, &err), &err);
  }
}

static TessPlayback *make_playback(const TessPlaybackDef *def) {
  TessPlayback *pb = NULL;
  TessError err;
  CHECK_OK(tess_playback_create(build_world(), def, &pb, &err), &err);
  if (pb) register_all(pb);
  return pb;
}

static uint64_t hash_after(uint64_t steps) {
  TessWorld *w = build_world();
  TessError err;
  for (uint64_t i = 0; i < steps; i++) CHECK_OK(tess_world_step(w, 1.0f / HZ, &err), &err);
  uint64_t h = tess_world_hash(w);
  tess_world_destroy(w);
  return h;
}

/* Plays (at speed 1, 60 frames a second) until the world reaches `step`. */
static void play_to(TessPlayback *pb, uint64_t step) {
  TessError err;
  tess_playback_set_playing(pb, true);
  int guard = 0;
  while (tess_playback_current_step(pb) < step && guard++ < 100000) {
    double need = (double)(step - tess_playback_current_step(pb)) / HZ;
    tess_playback_advance(pb, need < 1.0 / 60.0 ? need : 1.0 / 60.0, &err);
  }
  tess_playback_set_playing(pb, false);
  CHECK(tess_playback_current_step(pb) == step);
}

static void wall_time_becomes_whole_steps(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  /* Paused: time passes, nothing steps. */
  CHECK(tess_playback_advance(pb, 0.5, &err) == 0);
  CHECK(tess_playback_current_step(pb) == 0);
  tess_playback_set_playing(pb, true);
  /* 144 Hz display, 60 Hz physics: 1 s of frames is 60 steps. */
  uint32_t steps = 0;
  for (int f = 0; f < 144; f++) steps += tess_playback_advance(pb, 1.0 / 144.0, &err);
  CHECK_MSG(steps == 60 || steps == 61, "%u steps", steps);
  CHECK(tess_playback_current_step(pb) == steps);
  /* The display lags the newest state by less than one step. */
  double t = tess_playback_time(pb);
  CHECK(t <= (double)tess_playback_current_step(pb) && t > (double)tess_playback_current_step(pb) - 1.0);
  /* Half speed: 1 s of wall time is 30 steps. */
  tess_playback_set_speed(pb, 0.5);
  uint64_t before = tess_playback_current_step(pb);
  for (int f = 0; f < 60; f++) tess_playback_advance(pb, 1.0 / 60.0, &err);
  uint64_t moved = tess_playback_current_step(pb) - before;
  CHECK_MSG(moved >= 29 && moved <= 31, "%llu", (unsigned long long)moved);
  tess_playback_set_speed(pb, 7.0);
  CHECK(tess_playback_speed(pb) == 2.0);
  tess_playback_destroy(pb);
}

static void a_slow_frame_never_spirals(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  def.max_steps_per_frame = 4;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  tess_playback_set_playing(pb, true);
  /* A 0.2 s hitch wants 12 steps: 4 are taken, the rest is dropped, so the
   * next normal frame needs one step again, not nine. */
  CHECK(tess_playback_advance(pb, 0.2, &err) == 4);
  CHECK(tess_playback_current_step(pb) == 4);
  CHECK(tess_playback_time(pb) == 4.0);
  CHECK(tess_playback_advance(pb, 1.0 / 60.0, &err) == 1);
  /* A 10 s jump (a suspended laptop) is clamped too. */
  CHECK(tess_playback_advance(pb, 10.0, &err) == 4);
  tess_playback_destroy(pb);
}

static void interpolation_is_between_the_last_two_states(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  play_to(pb, 30);
  TessTransform prev[64], next[64];
  uint32_t n = tess_playback_body_count(pb);
  CHECK(n == 32);
  CHECK_OK(tess_playback_step(pb, &err), &err);
  for (uint32_t i = 0; i < n; i++) CHECK(tess_playback_body_transform(pb, i, &prev[i]));
  CHECK_OK(tess_playback_step(pb, &err), &err);
  for (uint32_t i = 0; i < n; i++) CHECK(tess_playback_body_transform(pb, i, &next[i]));
  /* Playing a quarter of a step further steps once and shows 1/4 of the way
   * from the state before to the newest one. */
  tess_playback_set_playing(pb, true);
  CHECK(tess_playback_advance(pb, 0.25 / HZ, &err) == 1);
  CHECK_NEAR(tess_playback_alpha(pb), 0.25, 1e-6);
  TessWorld *w = tess_playback_world(pb);
  for (uint32_t i = 0; i < n; i++) {
    TessTransform x;
    CHECK(tess_playback_body_transform(pb, i, &x));
    TessVec2 now = tess_body_position(w, tess_playback_body(pb, i)->id);
    CHECK_NEAR(x.p.x, next[i].p.x + 0.25 * (now.x - next[i].p.x), 1e-5);
    CHECK_NEAR(x.p.y, next[i].p.y + 0.25 * (now.y - next[i].p.y), 1e-5);
  }
  (void)prev;
  tess_playback_destroy(pb);
}

static void pause_then_step_is_one_step(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  tess_playback_set_playing(pb, true);
  for (int f = 0; f < 50; f++) tess_playback_advance(pb, 0.013, &err); /* uneven frames */
  tess_playback_set_playing(pb, false);
  uint64_t n = tess_playback_current_step(pb);
  CHECK(n > 30);
  CHECK(tess_playback_advance(pb, 1.0, &err) == 0); /* paused: nothing moves */
  CHECK_OK(tess_playback_step(pb, &err), &err);
  CHECK(tess_playback_current_step(pb) == n + 1);
  CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(n + 1));
  CHECK(tess_playback_alpha(pb) == 1.0);
  tess_playback_destroy(pb);
}

static void rewind_and_replay_is_deterministic(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  play_to(pb, 300);
  uint64_t h300 = tess_world_hash(tess_playback_world(pb));
  CHECK(h300 == hash_after(300));
  CHECK(tess_playback_last_step(pb) == 300);
  CHECK_OK(tess_playback_seek(pb, 100, &err), &err);
  CHECK(tess_playback_current_step(pb) == 100);
  CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(100));
  CHECK(tess_playback_last_step(pb) == 300); /* scrubbing keeps the recording */
  play_to(pb, 300);
  CHECK(tess_world_hash(tess_playback_world(pb)) == h300);
  CHECK(tess_playback_last_step(pb) == 300);
  /* Reset: step 0, paused, recording cleared. */
  CHECK_OK(tess_playback_reset(pb, &err), &err);
  CHECK(tess_playback_current_step(pb) == 0);
  CHECK(tess_playback_last_step(pb) == 0);
  CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(0));
  tess_playback_destroy(pb);
}

static void keyframe_interval_still_seeks_exactly(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  def.keyframe_interval = 7;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  play_to(pb, 200);
  TessPlaybackStats st;
  tess_playback_stats(pb, &st);
  CHECK(st.keyframe_interval == 7);
  CHECK_MSG(st.keyframes == 200 / 7 + 1, "%u", st.keyframes);
  const uint64_t probes[] = {3, 150, 13, 199, 200, 0, 71};
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
    CHECK_OK(tess_playback_seek(pb, probes[i], &err), &err);
    CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(probes[i]));
  }
  tess_playback_destroy(pb);
}

static void memory_bound_is_respected(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  def.keyframe_interval = 1;
  TessWorld *probe = build_world();
  size_t snap = tess_world_snapshot_size(probe);
  tess_world_destroy(probe);
  def.memory_budget = snap * 20 + snap / 2; /* room for fewer than 20 keyframes */
  TessPlayback *pb = make_playback(&def);
  TessError err;
  play_to(pb, 120);
  TessPlaybackStats st;
  tess_playback_stats(pb, &st);
  CHECK_MSG(st.recording_bytes <= def.memory_budget, "%zu > %zu", st.recording_bytes, def.memory_budget);
  /* Full: one more keyframe of today's size would not fit (sizes grow with contacts). */
  CHECK_MSG(st.keyframes >= 2 && st.keyframes <= 20, "%u keyframes", st.keyframes);
  /* (a keyframe buffer is its snapshot plus 1/8 of room to grow) */
  CHECK(st.recording_bytes + st.snapshot_bytes + st.snapshot_bytes / 8 > def.memory_budget);
  CHECK(tess_playback_first_step(pb) > 90);
  CHECK(tess_playback_last_step(pb) == 120);
  CHECK_NEAR(st.history_seconds,
             (double)def.memory_budget / (double)(st.snapshot_bytes + st.snapshot_bytes / 8) / HZ, 1e-9);
  /* Older steps are gone: a seek there lands on the oldest recorded one. */
  CHECK_OK(tess_playback_seek(pb, 5, &err), &err);
  uint64_t first = tess_playback_first_step(pb);
  CHECK(tess_playback_current_step(pb) == first);
  CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(first));
  /* Reset still reaches step 0 (the initial state is kept apart). */
  CHECK_OK(tess_playback_reset(pb, &err), &err);
  CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(0));
  /* The automatic interval keeps 30 s within the budget. */
  TessPlaybackDef autodef;
  tess_playback_def_default(&autodef);
  autodef.hz = HZ;
  autodef.memory_budget = (snap + snap / 8) * 60 * 30 / 5; /* 30 s need an interval of 5 */
  TessPlayback *pa = make_playback(&autodef);
  tess_playback_stats(pa, &st);
  CHECK_MSG(st.keyframe_interval == 5, "%u", st.keyframe_interval);
  CHECK(st.history_seconds >= 30.0 - 1e-6);
  tess_playback_destroy(pa);
  tess_playback_destroy(pb);
}

static void negative_speed_goes_back(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  play_to(pb, 120);
  tess_playback_set_speed(pb, -1.0);
  tess_playback_set_playing(pb, true);
  double t0 = tess_playback_time(pb);
  for (int f = 0; f < 30; f++) {
    double before = tess_playback_time(pb);
    tess_playback_advance(pb, 1.0 / 60.0, &err);
    CHECK(tess_playback_time(pb) < before);
  }
  CHECK_NEAR(tess_playback_time(pb), t0 - 30.0, 1e-6);
  /* The world shows a recorded state exactly, and the recording is kept. */
  uint64_t s = tess_playback_current_step(pb);
  CHECK(s == 90 || s == 91);
  CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(s));
  CHECK(tess_playback_last_step(pb) == 120);
  /* -2x to the start: it stops there, paused. */
  tess_playback_set_speed(pb, -2.0);
  for (int f = 0; f < 200 && tess_playback_playing(pb); f++) tess_playback_advance(pb, 1.0 / 60.0, &err);
  CHECK(!tess_playback_playing(pb));
  CHECK(tess_playback_time(pb) == 0.0);
  CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(0));
  /* Forwards again from the start: the same states as the first time. */
  tess_playback_set_speed(pb, 1.0);
  play_to(pb, 120);
  CHECK(tess_world_hash(tess_playback_world(pb)) == hash_after(120));
  tess_playback_destroy(pb);
}

static void backwards_through_keyframe_intervals_is_exact(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  def.keyframe_interval = 10;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  TessWorld *w = tess_playback_world(pb);
  uint64_t live[200] = {0};
  live[0] = tess_world_hash(w);
  for (int s = 1; s <= 130; s++) {
    if (s == 96) { /* the user drops a ball mid-interval: a keyframe of its own */
      TessPlaybackSpawn sp;
      memset(&sp, 0, sizeof sp);
      tess_body_def_default(&sp.body);
      sp.body.position = tess_v2(9.0f, 1.0f);
      tess_shape_def_default(&sp.shape);
      sp.shape_count = 1;
      sp.shapes[0].kind = TESS_PLAYBACK_SHAPE_CIRCLE;
      sp.shapes[0].radius = 0.3f;
      CHECK_OK(tess_playback_spawn(pb, &sp, NULL, &err), &err);
      live[95] = tess_world_hash(w); /* the state shown at 95 now includes the ball */
    }
    CHECK_OK(tess_playback_step(pb, &err), &err);
    live[s] = tess_world_hash(w);
  }
  /* Backwards at -1x, one frame per step: every state is the recorded one. */
  tess_playback_set_speed(pb, -1.0);
  tess_playback_set_playing(pb, true);
  int frames = 0;
  while (tess_playback_playing(pb) && frames++ < 400) {
    tess_playback_advance(pb, 1.0 / 60.0, &err);
    uint64_t s = tess_playback_current_step(pb);
    CHECK_MSG(tess_world_hash(w) == live[s], "step %llu", (unsigned long long)s);
  }
  CHECK(tess_playback_current_step(pb) == 0);
  CHECK(tess_playback_last_step(pb) == 130);
  /* Each interval was re-stepped once (at most 9 steps for each of 14), not
   * once per step back (about 4.5 x 130). */
  TessPlaybackStats st;
  tess_playback_stats(pb, &st);
  CHECK_MSG(st.resteps <= 14 * 9, "%llu steps re-simulated", (unsigned long long)st.resteps);
  tess_playback_destroy(pb);
}

static TessPlaybackSpawn ball_spawn(TessVec2 at) {
  TessPlaybackSpawn sp;
  memset(&sp, 0, sizeof sp);
  tess_body_def_default(&sp.body);
  sp.body.position = at;
  tess_shape_def_default(&sp.shape);
  sp.shape_count = 1;
  sp.shapes[0].kind = TESS_PLAYBACK_SHAPE_CIRCLE;
  sp.shapes[0].radius = 0.3f;
  sp.color = 0xff8800ffu;
  return sp;
}

static void interactions_are_part_of_the_recording(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  def.keyframe_interval = 10; /* interactions must survive re-stepping between keyframes */
  TessPlayback *pb = make_playback(&def);
  TessError err;
  TessWorld *w = tess_playback_world(pb);
  play_to(pb, 50);
  TessPlaybackSpawn sp = ball_spawn(tess_v2(10.0f, 2.0f));
  TessBodyId ball;
  CHECK_OK(tess_playback_spawn(pb, &sp, &ball, &err), &err);
  uint32_t ball_index = tess_playback_body_count(pb) - 1;
  CHECK(tess_body_is_valid(w, ball));
  play_to(pb, 61);
  /* Drag body 5 to the right for 30 steps, one target per step. */
  TessBodyId dragged = tess_playback_body(pb, 5)->id;
  TessVec2 grab = tess_body_world_center(w, dragged);
  CHECK_OK(tess_playback_drag_begin(pb, dragged, grab, &err), &err);
  uint64_t live_hash[200] = {0};
  for (int i = 0; i < 30; i++) {
    CHECK_OK(tess_playback_drag_move(pb, tess_v2(grab.x + 0.1f * (float)i, grab.y - 1.0f), &err), &err);
    CHECK_OK(tess_playback_step(pb, &err), &err);
    live_hash[tess_playback_current_step(pb)] = tess_world_hash(w);
  }
  TessVec2 anchor, target;
  CHECK(tess_playback_drag_line(pb, &anchor, &target));
  CHECK_OK(tess_playback_drag_end(pb, true, tess_v2(3.0f, -2.0f), &err), &err);
  CHECK(!tess_playback_drag_line(pb, NULL, NULL));
  CHECK_NEAR(tess_body_linear_velocity(w, dragged).x, 3.0, 1e-6); /* thrown */
  /* Remove the spawned ball at 100. */
  play_to(pb, 100);
  CHECK_OK(tess_playback_remove(pb, ball, &err), &err);
  CHECK(!tess_body_is_valid(w, ball));
  play_to(pb, 150);
  uint64_t h150 = tess_world_hash(w);
  CHECK(h150 != hash_after(150)); /* the user's actions changed the outcome */
  /* Scrub: before the spawn the ball is absent, during it present, after the removal absent. */
  TessTransform x;
  CHECK_OK(tess_playback_seek(pb, 20, &err), &err);
  CHECK(tess_world_hash(w) == hash_after(20));
  CHECK(!tess_playback_body_transform(pb, ball_index, &x));
  CHECK_OK(tess_playback_seek(pb, 75, &err), &err);
  CHECK(tess_playback_body_transform(pb, ball_index, &x));
  CHECK(tess_world_hash(w) == live_hash[75]);
  CHECK_OK(tess_playback_seek(pb, 88, &err), &err);
  CHECK(tess_world_hash(w) == live_hash[88]);
  CHECK_OK(tess_playback_seek(pb, 120, &err), &err);
  CHECK(!tess_playback_body_transform(pb, ball_index, &x));
  CHECK_OK(tess_playback_seek(pb, 150, &err), &err);
  CHECK(tess_world_hash(w) == h150);
  /* Play from the middle of the drag: the spring left in that state is
   * cleared (nobody holds it), the later recording is dropped. */
  CHECK_OK(tess_playback_seek(pb, 80, &err), &err);
  play_to(pb, 82);
  CHECK(tess_playback_last_step(pb) == 82);
  /* Acting at an earlier moment drops the later recording at once. */
  CHECK_OK(tess_playback_seek(pb, 70, &err), &err);
  TessBodyId ball2;
  sp = ball_spawn(tess_v2(5.0f, 2.0f));
  CHECK_OK(tess_playback_spawn(pb, &sp, &ball2, &err), &err);
  CHECK(tess_playback_last_step(pb) == 70);
  tess_playback_destroy(pb);
}

static void drag_pulls_towards_the_pointer(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  TessWorld *w = tess_playback_world(pb);
  play_to(pb, 120); /* settled on the floor and shelf */
  TessBodyId b = tess_playback_body(pb, 0)->id;
  TessVec2 start = tess_body_world_center(w, b);
  TessVec2 pointer = tess_v2(start.x + 3.0f, start.y - 4.0f);
  CHECK_OK(tess_playback_drag_begin(pb, b, start, &err), &err);
  CHECK_OK(tess_playback_drag_move(pb, pointer, &err), &err);
  play_to(pb, 240);
  TessVec2 end = tess_body_world_center(w, b);
  CHECK_MSG(tess_v2_distance(end, pointer) < 0.5f * tess_v2_distance(start, pointer), "end %g,%g", end.x, end.y);
  /* Only dynamic bodies can be grabbed; a stale handle is refused. */
  TessBodyId stale = {999, 1};
  CHECK(tess_playback_drag_begin(pb, stale, start, &err) == TESS_ERR_INVALID);
  tess_playback_destroy(pb);
}

static void impacts_are_collected_for_the_overlay(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = HZ;
  TessPlayback *pb = make_playback(&def);
  TessError err;
  TessPlaybackImpact im[256];
  uint32_t total = 0, floor_hits = 0;
  tess_playback_set_playing(pb, true);
  for (int f = 0; f < 60; f++) {
    tess_playback_advance(pb, 2.0 / 60.0, &err); /* two steps a frame: both steps' impacts count */
    uint32_t n = tess_playback_take_impacts(pb, im, 256);
    for (uint32_t i = 0; i < n; i++) {
      CHECK(fabsf(tess_v2_length(im[i].normal) - 1.0f) < 1e-3f);
      /* On the floor (its top is at y = 11), along the vertical (either sign:
       * the overlay draws the normal as core reports it). */
      if (fabsf(im[i].normal.y) > 0.9f && im[i].point.y > 10.5f && im[i].point.y < 11.2f) floor_hits++;
    }
    total += n;
  }
  CHECK(total > 0);
  CHECK_MSG(floor_hits >= 8, "%u impacts on the floor", floor_hits);
  CHECK(tess_playback_take_impacts(pb, im, 256) == 0); /* taken */
  tess_playback_destroy(pb);
}

static void sprite_frames_follow_the_differential(void) {
  TessFramePlayer fp = {0, 0.0};
  for (int i = 0; i < 4; i++) tess_frame_player_advance(&fp, 0.25, 6);
  CHECK(fp.frame == 1);
  CHECK_NEAR(fp.remainder, 0.0, 1e-12);
  tess_frame_player_advance(&fp, 2.5, 6); /* 1 + 2, half a frame kept */
  CHECK(fp.frame == 3);
  tess_frame_player_advance(&fp, 0.5, 6);
  CHECK(fp.frame == 4);
  /* Backwards, wrapping below frame 0. */
  for (int i = 0; i < 10; i++) tess_frame_player_advance(&fp, -0.5, 6);
  CHECK(fp.frame == 5); /* 4 - 5 = -1 -> 5 */
  CHECK(fabs(fp.remainder) < 1.0);
  tess_frame_player_advance(&fp, -13.0, 6); /* 5 - 13 = -8 -> 4 */
  CHECK(fp.frame == 4);
  CHECK(tess_frame_player_advance(&fp, 1.0, 0) == 0);
}

static void bad_definition_is_refused(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  def.hz = 0.0f;
  TessPlayback *pb = NULL;
  TessError err;
  CHECK(tess_playback_create(build_world(), &def, &pb, &err) == TESS_ERR_INVALID);
  CHECK(pb == NULL);
}

/* An index one past the registry is a mistake: it asserts in debug builds;
 * with assertions off the documented answers are NULL and false. */
static bool body_past_the_end(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  TessPlayback *pb = make_playback(&def);
  if (!pb) return false;
  bool documented = tess_playback_body(pb, tess_playback_body_count(pb)) == NULL;
  tess_playback_destroy(pb);
  return documented;
}
static bool transform_past_the_end(void) {
  TessPlaybackDef def;
  tess_playback_def_default(&def);
  TessPlayback *pb = make_playback(&def);
  if (!pb) return false;
  TessTransform xf;
  bool documented = !tess_playback_body_transform(pb, tess_playback_body_count(pb), &xf);
  tess_playback_destroy(pb);
  return documented;
}
static void index_past_the_registry_asserts(void) {
  expect_assert(body_past_the_end, "tess_playback_body: index past tess_playback_body_count");
  expect_assert(transform_past_the_end, "tess_playback_body_transform: index past tess_playback_body_count");
}

TESS_TEST_MAIN(TEST(wall_time_becomes_whole_steps), TEST(a_slow_frame_never_spirals),
               TEST(interpolation_is_between_the_last_two_states), TEST(pause_then_step_is_one_step),
               TEST(rewind_and_replay_is_deterministic), TEST(keyframe_interval_still_seeks_exactly),
               TEST(memory_bound_is_respected), TEST(negative_speed_goes_back),
               TEST(backwards_through_keyframe_intervals_is_exact),
               TEST(interactions_are_part_of_the_recording), TEST(drag_pulls_towards_the_pointer),
               TEST(impacts_are_collected_for_the_overlay), TEST(sprite_frames_follow_the_differential),
               TEST(bad_definition_is_refused), TEST(index_past_the_registry_asserts))
