/* The fixed-step clock (see tessera/play.h): whole steps at a fixed rate
 * from wall time, capped catch-up, interpolation weight for drawing. */
#include "tessera/play.h"

void tess_clock_def_default(TessClockDef *def) {
  def->hz = 60.0;
  def->max_steps_per_frame = 4;
  def->max_frame_seconds = 0.25;
}

TessResult tess_clock_init(TessClock *c, const TessClockDef *def, TessError *err) {
  TessClockDef d;
  if (def)
    d = *def;
  else
    tess_clock_def_default(&d);
  if (!(d.hz > 0.0 && d.hz <= 10000.0) || d.max_steps_per_frame == 0 || !(d.max_frame_seconds > 0.0))
    return tess_error_set(err, TESS_ERR_INVALID, "clock", "rate must be in (0, 10000] Hz, the step cap >= 1 and the frame limit > 0");
  c->def = d;
  c->step = 0;
  c->time = 0.0;
  return TESS_OK;
}

uint32_t tess_clock_advance(TessClock *c, double wall_seconds, double speed) {
  if (!(wall_seconds > 0.0) || !(speed > 0.0) || !isfinite(speed)) return 0;
  double dt = wall_seconds > c->def.max_frame_seconds ? c->def.max_frame_seconds : wall_seconds;
  double target = c->time + dt * speed * c->def.hz;
  uint32_t steps = 0;
  while ((double)c->step < target) {
    if (steps == c->def.max_steps_per_frame) {
      target = (double)c->step; /* too late: drop the rest rather than spiral */
      break;
    }
    c->step++;
    steps++;
  }
  c->time = target;
  return steps;
}

double tess_clock_alpha(const TessClock *c) {
  if (c->step == 0) return 1.0;
  double a = c->time - (double)(c->step - 1);
  return a < 0.0 ? 0.0 : a > 1.0 ? 1.0
                                 : a;
}

double tess_clock_seconds(const TessClock *c) { return (double)c->step / c->def.hz; }
