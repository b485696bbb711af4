/* The sprite frame player (see tessera/play.h): fractional, possibly
 * negative frame differentials that accumulate exactly. */
#include "tessera/play.h"

uint32_t tess_frame_player_advance(TessFramePlayer *fp, double differential, uint32_t frame_count) {
  if (frame_count == 0) return 0;
  if (!isfinite(differential)) differential = 0.0;
  double whole = trunc(differential);
  fp->remainder += differential - whole;
  if (fabs(fp->remainder) >= 1.0) {
    double extra = trunc(fp->remainder);
    whole += extra;
    fp->remainder -= extra;
  }
  int64_t n = (int64_t)frame_count;
  int64_t delta = (int64_t)fmod(whole, (double)n);
  int64_t next = ((int64_t)fp->frame + delta) % n;
  if (next < 0) next += n;
  fp->frame = (uint32_t)next;
  return fp->frame;
}
