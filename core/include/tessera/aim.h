/* Tessera core/play: aiming a projectile (the SLRBS projectile post).
 *
 * Which launch velocity makes a body thrown from `from` pass through a
 * target under constant gravity (no drag), the ballistic path
 *   p(t) = from + v t + g t^2 / 2.
 * Every function works for any gravity vector (y points down in Tessera, so
 * the usual gravity is (0, +9.81)); a zero gravity gives the straight line.
 *
 *  - tess_aim_static(): a target that stays put, at a given launch speed:
 *    0, 1 or 2 solutions, the low arc (shorter flight) first. Two when the
 *    speed exceeds the minimum, one at exactly the minimum (or without
 *    gravity), none below it (out of range).
 *  - tess_aim_min_speed(): the slowest launch that reaches a static target
 *    (with gravity |g|: speed^2 = |g| |d| - g.d for the offset d).
 *  - tess_aim_moving(): a target moving at constant velocity, at a given
 *    launch speed: the intercept times are the positive roots of
 *      |d + w t - g t^2 / 2|^2 = speed^2 t^2
 *    (d the offset now, w the target's velocity), a quartic in t; up to 4
 *    solutions, earliest intercept first.
 *
 * The velocity is computed from the intercept time as v = d/t + w - g t/2,
 * so the path passes through the target exactly whatever rounding the
 * time carries; only the speed |v| carries the time's error.
 *
 * A semi-implicit Euler world (tess_world_step, n sub-steps of h seconds)
 * lands g h t / 2 further along gravity than this closed form after t
 * seconds (0.04 m after 2 s at 10 m/s^2 and 240 sub-steps per second).
 *
 * Non-finite inputs or a negative speed are refused (TESS_ERR_INVALID);
 * "no solution" is not an error: the count is 0. Pure functions: no world,
 * no allocation. */
#ifndef TESSERA_AIM_H
#define TESSERA_AIM_H

#include "tessera/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESS_AIM_MAX_SOLUTIONS 4

typedef struct TessAimSolution {
  TessVec2 velocity; /* launch velocity, m/s */
  float time;        /* s from launch to the target (>= 0) */
} TessAimSolution;

/* Static target, launch speed `speed` (m/s, >= 0): writes *count (0..2)
 * solutions into out[0..], low arc first. */
TessResult tess_aim_static(TessVec2 from, TessVec2 target, TessVec2 gravity, float speed,
                           TessAimSolution out[2], uint32_t *count, TessError *err);

/* The minimum-speed launch to a static target (*found false without
 * gravity, where slower is always possible, unless the target is `from`). */
TessResult tess_aim_min_speed(TessVec2 from, TessVec2 target, TessVec2 gravity, TessAimSolution *out,
                              bool *found, TessError *err);

/* Target at `target` now, moving at `target_velocity`; launch speed
 * `speed`: writes *count (0..4) solutions, earliest intercept first. */
TessResult tess_aim_moving(TessVec2 from, TessVec2 target, TessVec2 target_velocity, TessVec2 gravity,
                           float speed, TessAimSolution out[TESS_AIM_MAX_SOLUTIONS], uint32_t *count,
                           TessError *err);

/* A launcher's shots at a static target (a level's launcher object, in a
 * game or in the editor's Play mode): at a fixed `speed` the 0..2 solutions
 * of tess_aim_static (low arc first); with speed 0 ("any speed") the one
 * slowest shot of tess_aim_min_speed (none without gravity, where any speed
 * along the line reaches it). *count 0: no shot to draw or fire. */
TessResult tess_aim_launcher(TessVec2 from, float speed, TessVec2 target, TessVec2 gravity,
                             TessAimSolution out[2], uint32_t *count, TessError *err);

/* Where the closed-form path is after t seconds: from + v t + g t^2 / 2
 * (drawing an arc). */
TessVec2 tess_aim_path_point(TessVec2 from, TessVec2 velocity, TessVec2 gravity, float t);

/* The launch velocity to give a body in a world that steps semi-implicit
 * Euler sub-steps of h seconds so that its centre is exactly on the closed
 * form's path at the end of every sub-step: v - g h / 2 (the world lands
 * g h t / 2 further along gravity otherwise). */
TessVec2 tess_aim_for_substeps(TessVec2 velocity, TessVec2 gravity, float h);

#ifdef __cplusplus
}
#endif
#endif
