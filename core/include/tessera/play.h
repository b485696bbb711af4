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
 * Plain data, no allocation; depends on base only. The editor's preview
 * and a game use the same two. */
#ifndef TESSERA_PLAY_H
#define TESSERA_PLAY_H

#include "tessera/base.h"

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
  uint64_t step;                /* whole steps taken so far (the newer state shown) */
  double time;                  /* display time in steps: step - 1 <= time <= step once stepping */
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
  double remainder;             /* |remainder| < 1 */
} TessFramePlayer;

/* Advances by `differential` frames (frame rate x seconds; any sign, any
 * fraction) through `frame_count` frames, wrapping both ways; returns the
 * frame to show. A count of 0 shows frame 0; a non-finite differential
 * counts as 0. */
uint32_t tess_frame_player_advance(TessFramePlayer *fp, double differential, uint32_t frame_count);

#ifdef __cplusplus
}
#endif
#endif
