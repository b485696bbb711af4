/* Materials: defaults and validation (every float finite and in range). */
#include <stdio.h>

#include "level_private.h"

void tess_material_default(TessMaterial *m) {
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", "Default");
  m->color = 0x808080FFu;
  TessSurface s = tess_surface_default();
  m->friction = s.friction;
  m->restitution = 0.2f; /* stone bounces a little */
  m->tangential = s.tangential;
  m->density = 2400.0f; /* kg/m^2 for a 1 m thick slab of stone */
  m->kind = TESS_MATERIAL_SOLID;
}

TessRange tess_material_density_range(void) {
  TessRange r = {0.0, 1e6, true};
  return r;
}

static TessResult check_range(float v, TessRange range, const char *field, TessError *err) {
  if (isnan(v)) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "material %s is NaN", field);
  if (isinf(v)) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "material %s is infinite", field);
  if (!tess_range_contains(range, v))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "material %s %g is outside %s%g, %g]", field,
                          (double)v, range.lo_open ? "(" : "[", range.lo, range.hi);
  return TESS_OK;
}

TessResult tess_material_validate(const TessMaterial *m, TessError *err) {
  TessResult r;
  if ((r = level_name_check(m->name, false, "material", err))) return r;
  TessSurface surface = {m->friction, m->restitution, m->tangential};
  if ((r = tess_surface_check(surface, "material", LEVEL_FILE, err))) return r;
  if ((r = check_range(m->density, tess_material_density_range(), "density", err))) return r;
  if ((unsigned)m->kind > TESS_MATERIAL_FLUID)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "material kind %u is unknown", (unsigned)m->kind);
  if (m->id > TESS_MATERIAL_ID_MAX)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "material id %u is above %u", m->id, TESS_MATERIAL_ID_MAX);
  return TESS_OK;
}
