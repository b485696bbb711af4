/* Surfaces: the one range check of friction, restitution and tangential
 * efficiency (materials, shapes and the tile map's materials all call it). */
#include "tessera/base.h"

typedef struct SurfaceField {
  const char *name;
  float lo, hi;
} SurfaceField;

static const SurfaceField FIELDS[3] = {
    {"friction", 0.0f, TESS_FRICTION_MAX},
    {"restitution", 0.0f, 1.0f},
    {"tangential", 0.0f, 1.0f},
};

static float field_value(TessSurface s, int i) {
  return i == 0 ? s.friction : i == 1 ? s.restitution
                                      : s.tangential;
}

/* Index of the first bad field, or -1. NaN fails every comparison, so the
 * test is written to let only in-range numbers through. */
static int bad_index(TessSurface s) {
  for (int i = 0; i < 3; i++) {
    float v = field_value(s, i);
    if (!(v >= FIELDS[i].lo && v <= FIELDS[i].hi)) return i;
  }
  return -1;
}

TessRange tess_surface_range(TessSurfaceField field) {
  int i = (unsigned)field < 3 ? (int)field : 0;
  TessRange r = {FIELDS[i].lo, FIELDS[i].hi, false};
  return r;
}

const char *tess_surface_bad_field(TessSurface s) {
  int i = bad_index(s);
  return i < 0 ? NULL : FIELDS[i].name;
}

TessResult tess_surface_check(TessSurface s, const char *what, const char *file, TessError *err) {
  int i = bad_index(s);
  if (i < 0) return TESS_OK;
  float v = field_value(s, i);
  if (isnan(v)) return tess_error_set(err, TESS_ERR_INVALID, file, "%s %s is NaN", what, FIELDS[i].name);
  if (isinf(v)) return tess_error_set(err, TESS_ERR_INVALID, file, "%s %s is infinite", what, FIELDS[i].name);
  return tess_error_set(err, TESS_ERR_INVALID, file, "%s %s %g is outside [%g, %g]", what, FIELDS[i].name, (double)v,
                        (double)FIELDS[i].lo, (double)FIELDS[i].hi);
}
