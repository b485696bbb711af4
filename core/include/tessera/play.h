/* Tessera core/play: what a running game needs beside physics.
 *
 *  - TessClock: the fixed-step clock (the Infiniworld game loop, seed 004).
 *    Physics runs at the level's fixed rate; the caller feeds the wall time
 *    that passed (times a speed) and is told how many whole steps to take,
 *    at most max_steps_per_frame per call, so a slow frame never starts a
 *    spiral of catch-up steps (the time it could not catch up is dropped).
 *    Drawing interpolates between the last two physics states with
 *    tess_clock_alpha(), never extrapolates.
 *  - TessFramePlayer: the sprite frame player (seed 000): frames advance by
 *    a fractional, possibly negative "differential", and the fraction
 *    accumulates, so 0.25 four times is one frame and -0.5 twice one back.
 *
 *  - TessPlayback: a TessWorld played at that clock with a bounded
 *    recording of snapshots (seek, play backwards, drag, spawn): the
 *    editor's Play mode, and a game's replay.
 *
 * The clock and the frame player are plain data with no allocation; the
 * playback owns its world and allocates its recording. Depends on base and
 * physics. The editor's preview and a game use the same code. */
#ifndef TESSERA_PLAY_H
#define TESSERA_PLAY_H

#include "tessera/base.h"
#include "tessera/physics.h" /* TessPlayback records a TessWorld */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The fixed-step clock ----------------------------------------------- */

typedef struct TessClockDef {
  double hz;                    /* physics steps per second (the level's rate); default 60 */
  uint32_t max_steps_per_frame; /* cap per tess_clock_advance() call; default 4 */
  double max_frame_seconds;     /* longer wall-time gaps count as this; default 0.25 */
} TessClockDef;

typedef struct TessClock {
  TessClockDef def;
  uint64_t step; /* whole steps taken so far (the newer state shown) */
  double time;   /* display time in steps: step - 1 <= time <= step once stepping */
} TessClock;

void tess_clock_def_default(TessClockDef *def);
/* Step 0, time 0. Refuses a rate outside (0, 10000], a zero cap or a
 * non-positive frame limit (TESS_ERR_INVALID). */
TessResult tess_clock_init(TessClock *clock, const TessClockDef *def, TessError *err);
/* Moves the display time forwards by min(wall_seconds, max_frame_seconds)
 * x speed x hz steps and returns how many whole physics steps the caller
 * must take now (0..max_steps_per_frame); past the cap, the display time
 * waits at the last step taken (the rest is dropped). Negative, zero or
 * non-finite wall time or speed take no step. */
uint32_t tess_clock_advance(TessClock *clock, double wall_seconds, double speed);
/* Interpolation weight of the newer of the last two states, 0..1: draw
 * each body at tess_body_interpolated_transform(world, body, alpha). */
double tess_clock_alpha(const TessClock *clock);
/* Seconds of simulated time: step / hz. */
double tess_clock_seconds(const TessClock *clock);

/* ---- Animated sprites --------------------------------------------------- */

typedef struct TessFramePlayer {
  uint32_t frame;
  double remainder; /* |remainder| < 1 */
} TessFramePlayer;

/* Advances by `differential` frames (frame rate x seconds; any sign, any
 * fraction) through `frame_count` frames, wrapping both ways; returns the
 * frame to show. A count of 0 shows frame 0; a non-finite differential
 * counts as 0. */
uint32_t tess_frame_player_advance(TessFramePlayer *fp, double differential, uint32_t frame_count);

/* ---- Draw order (the SLRBS z-sort) ------------------------------------- */

/* One sortable key for an object drawn from the `layer_rank`-th object
 * layer of its level (bottom first, 0..32767) at draw `depth` in it
 * (-32768..32767; out-of-range values are clamped). Objects draw by key,
 * lower first; then, among objects of a layer that sorts by y, the one
 * with the smaller y first (lower on screen drawn over); then in object
 * (body) order. The editor, `render`, libtessera-draw and a game reading a
 * .tlv's draw order (tlv_body_draw) all sort this way. */
static inline int32_t tess_depth_key(uint32_t layer_rank, int32_t depth) {
  if (layer_rank > 32767u) layer_rank = 32767u;
  if (depth < -32768) depth = -32768;
  if (depth > 32767) depth = 32767;
  return (int32_t)(layer_rank * 65536u + (uint32_t)(depth + 32768));
}

/* ---- Playback: the preview's clock and recording (core/play/playback.c) */

/* TessPlayback: the clock and the recording behind the editor's live
 * physics preview. Plain C (no GTK), so it is tested without a display.
 *
 * Timing follows the Infiniworld game loop (seed 004): physics runs at the
 * level's fixed rate; the caller feeds elapsed wall time (times a speed from
 * -2x to +2x) and gets whole steps, at most max_steps_per_frame per call so
 * a slow frame never starts a spiral of catch-up steps; drawing interpolates
 * between the last two physics states (alpha), never extrapolates.
 *
 * The recording is a ring of world snapshots (keyframes) bounded in memory:
 * a seek restores the nearest keyframe at or before the target and re-steps
 * (deterministic, so the state is the one that was shown). What the user does
 * while playing (drag, spawn, remove) changes the world; the state right
 * after it is always kept as a keyframe, so re-stepping never needs to replay
 * input (seed 000's rewind-and-resimulate, with the input folded into the
 * state). Negative speed plays the recording backwards; stepping forwards
 * from an earlier moment, or acting on the world there, drops the later part
 * of the recording.
 *
 * Playing backwards through an interval between keyframes re-steps it once
 * and keeps its states (at most one interval of snapshots beyond the budget),
 * so each step back is a restore.
 *
 * Steps are counted from the moment the playback was created (step 0). */

typedef struct TessPlayback TessPlayback;

#define TESS_PLAYBACK_SPEED_MAX 2.0
#define TESS_PLAYBACK_DEFAULT_BUDGET ((size_t)256 * 1024 * 1024)

typedef struct TessPlaybackDef {
  float hz;                     /* physics steps per second (the level's rate); default 60 */
  uint32_t max_steps_per_frame; /* cap per advance() call; default 4 */
  size_t memory_budget;         /* bytes of keyframes kept; default 256 MiB */
  uint32_t keyframe_interval;   /* steps between keyframes; 0 = automatic (see below) */
  double max_frame_seconds;     /* longer wall-time gaps count as this; default 0.25 */
} TessPlaybackDef;

/* Automatic keyframe interval: 1 (a keyframe every step) while the budget
 * holds at least 30 s of history that way, else the smallest interval that
 * does, at most 16. Seeks re-step at most interval - 1 steps. */
void tess_playback_def_default(TessPlaybackDef *def);

/* ---- What the preview draws for each body ------------------------------ */

typedef enum TessPlaybackShapeKind {
  TESS_PLAYBACK_SHAPE_CIRCLE = 0,
  TESS_PLAYBACK_SHAPE_CAPSULE = 1,
  TESS_PLAYBACK_SHAPE_POLYGON = 2,
} TessPlaybackShapeKind;

/* A shape in body coordinates (metres). */
typedef struct TessPlaybackShape {
  uint8_t kind; /* TessPlaybackShapeKind */
  bool sensor;
  TessVec2 center; /* circle */
  TessVec2 p1, p2; /* capsule */
  float radius;    /* circle, capsule */
  uint32_t count;  /* polygon */
  TessVec2 v[TESS_POLY_MAX];
} TessPlaybackShape;

/* One body the preview knows about. Entries are never removed: a body that
 * does not exist in the state shown (removed, or spawned later) is simply
 * not present (tess_playback_body_transform says so). */
typedef struct TessPlaybackBody {
  TessBodyId id;
  TessId object;                     /* the level object it comes from; 0 = spawned in the preview */
  TessId sprite;                     /* drawn as this sprite (0 = from its shapes) */
  TessVec2 sprite_origin;            /* metres: where the sprite frame's top-left sits in body coordinates */
  uint32_t color;                    /* 0xRRGGBBAA: its material's colour */
  uint8_t type;                      /* TessBodyType */
  bool sensor;                       /* every shape is a sensor */
  uint32_t shape_first, shape_count; /* into tess_playback_shapes() */
} TessPlaybackBody;

/* A body to create while playing (a dropped ball or sprite), in metres. */
typedef struct TessPlaybackSpawn {
  TessBodyDef body;     /* type, position, velocity ... */
  TessShapeDef shape;   /* material values of every shape */
  uint32_t shape_count; /* 1..16 */
  TessPlaybackShape shapes[16];
  bool set_mass; /* use mass / local_center / inertia below (a sprite's pixel-exact values) */
  float mass, inertia;
  TessVec2 local_center;
  TessId sprite;
  TessVec2 sprite_origin;
  uint32_t color;
} TessPlaybackSpawn;

/* ---- Life cycle --------------------------------------------------------- */

/* Takes ownership of `world` (destroyed with the playback, even on failure)
 * and records its current state as step 0. Register the world's bodies with
 * tess_playback_register_body() before the first step. */
TessResult tess_playback_create(TessWorld *world, const TessPlaybackDef *def, TessPlayback **out, TessError *err);
void tess_playback_destroy(TessPlayback *pb);
TessWorld *tess_playback_world(TessPlayback *pb); /* borrowed; do not step or restore it directly */
const TessPlaybackDef *tess_playback_def(const TessPlayback *pb);

/* Adds a body of the world (and its shapes) to what the preview draws. */
TessResult tess_playback_register_body(TessPlayback *pb, const TessPlaybackBody *body,
                                       const TessPlaybackShape *shapes, TessError *err);
uint32_t tess_playback_body_count(const TessPlayback *pb);
const TessPlaybackBody *tess_playback_body(const TessPlayback *pb, uint32_t index);
const TessPlaybackShape *tess_playback_shapes(const TessPlayback *pb);
/* Registry index of a body handle, or -1. */
int64_t tess_playback_body_index(const TessPlayback *pb, TessBodyId id);

/* ---- The clock ---------------------------------------------------------- */

void tess_playback_set_playing(TessPlayback *pb, bool playing);
bool tess_playback_playing(const TessPlayback *pb);
/* Clamped to [-2, 2]. */
void tess_playback_set_speed(TessPlayback *pb, double speed);
double tess_playback_speed(const TessPlayback *pb);

/* Feeds `wall_seconds` of elapsed time while playing: moves the display
 * time by wall_seconds x speed x hz steps, stepping (or, backwards, seeking)
 * the world at most max_steps_per_frame times; the time it could not catch
 * up is dropped. Reaching the start of the recording backwards pauses.
 * Returns the number of steps taken (forwards or backwards). */
uint32_t tess_playback_advance(TessPlayback *pb, double wall_seconds, TessError *err);
/* Exactly one physics step forwards from the state shown (paused or not). */
TessResult tess_playback_step(TessPlayback *pb, TessError *err);
/* Shows recorded step `step` exactly (clamped to the recorded range). */
TessResult tess_playback_seek(TessPlayback *pb, uint64_t step, TessError *err);
/* Back to step 0, recording cleared, paused. */
TessResult tess_playback_reset(TessPlayback *pb, TessError *err);

/* The state the world holds now (a whole step). */
uint64_t tess_playback_current_step(const TessPlayback *pb);
/* Display time in steps (fractional between two states). */
double tess_playback_time(const TessPlayback *pb);
/* Recorded range: any step in [first, last] can be shown exactly. */
uint64_t tess_playback_first_step(const TessPlayback *pb);
uint64_t tess_playback_last_step(const TessPlayback *pb);

/* Interpolated transform of registry entry `index` at the display time;
 * false when the body does not exist in the state shown. */
bool tess_playback_body_transform(const TessPlayback *pb, uint32_t index, TessTransform *out);
/* Interpolation weight of the newer of the two states shown, 0..1. */
double tess_playback_alpha(const TessPlayback *pb);

/* ---- Interaction (part of the recording) */

/* Grabs `body` at world point `grab` with a mouse spring. Only dynamic bodies. */
TessResult tess_playback_drag_begin(TessPlayback *pb, TessBodyId body, TessVec2 grab, TessError *err);
TessResult tess_playback_drag_move(TessPlayback *pb, TessVec2 target, TessError *err);
/* Lets go. throw_it: the body leaves with `velocity` (the pointer's). */
TessResult tess_playback_drag_end(TessPlayback *pb, bool throw_it, TessVec2 velocity, TessError *err);
/* True while dragging: the grabbed point on the body (world, current state)
 * and the spring's target. */
bool tess_playback_drag_line(const TessPlayback *pb, TessVec2 *anchor, TessVec2 *target);
TessBodyId tess_playback_drag_body(const TessPlayback *pb);

TessResult tess_playback_spawn(TessPlayback *pb, const TessPlaybackSpawn *spawn, TessBodyId *out, TessError *err);
TessResult tess_playback_remove(TessPlayback *pb, TessBodyId body, TessError *err);

/* Impacts (contact-begin points and normals) of the live steps taken since
 * the last call, oldest first; at most `max` are copied (the newest), the
 * rest dropped. Returns how many were copied. */
typedef struct TessPlaybackImpact {
  TessVec2 point, normal;
} TessPlaybackImpact;
uint32_t tess_playback_take_impacts(TessPlayback *pb, TessPlaybackImpact *out, uint32_t max);

/* ---- Numbers ------------------------------------------------------------ */

typedef struct TessPlaybackStats {
  uint32_t bodies, awake, contacts;
  double step_ms;   /* mean physics time per step over the last steps */
  uint64_t resteps; /* steps re-simulated by seeks since creation */
  uint32_t keyframes;
  uint32_t keyframe_interval;
  size_t recording_bytes; /* keyframe memory held now, growth margin included (<= budget,
                             but at least one keyframe; plus up to 2 spare buffers) */
  size_t snapshot_bytes;  /* one snapshot of the current state */
  double history_seconds; /* how much the budget holds at this snapshot size */
} TessPlaybackStats;
void tess_playback_stats(const TessPlayback *pb, TessPlaybackStats *out);

/* Animated sprites: TessFramePlayer is core/play's (tessera/play.h). */

#ifdef __cplusplus
}
#endif
#endif
