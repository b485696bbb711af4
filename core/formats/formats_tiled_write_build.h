/* Private: helpers that fill a TwMap (tiled_write_model.c). Each sets
 * m->failed when memory runs out, so a builder checks once at the end. */
#ifndef TESS_FORMATS_TILED_WRITE_BUILD_H
#define TESS_FORMATS_TILED_WRITE_BUILD_H

#include "formats_tiled_write.h"

const char *tiled_write_strdup(TwMap *m, const char *s);
const char *tiled_write_printf(TwMap *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tiled_write_prop_string(TwMap *m, TwProps *props, const char *name, const char *value);
void tiled_write_prop_file(TwMap *m, TwProps *props, const char *name, const char *value);
void tiled_write_prop_int(TwMap *m, TwProps *props, const char *name, int64_t value);
void tiled_write_prop_object(TwMap *m, TwProps *props, const char *name, uint32_t id);
void tiled_write_prop_float(TwMap *m, TwProps *props, const char *name, double value);
void tiled_write_prop_bool(TwMap *m, TwProps *props, const char *name, bool value);
void tiled_write_prop_color(TwMap *m, TwProps *props, const char *name, uint32_t rgba);
TwObject *tiled_write_object_add(TwMap *m, TwObjects *objs);
/* count points for a polygon or polyline, owned by the arena. */
TwPoint *tiled_write_points(TwMap *m, TwObject *o, uint32_t count);

/* The builder's parts (tiled_write_tilesets.c, tiled_write_objects.c). */
void tiled_write_build_tileset(TwMap *m, const TessProject *p, const TessTileset *ts, const char *stem, TwTileset *out);
void tiled_write_build_sprite(TwMap *m, const TessSprite *s, const char *stem, TwTileset *out);
TessResult tiled_write_build_materials(TwMap *m, const TessProject *p, uint32_t tile_w, uint32_t tile_h, const char *stem,
                                       TwTileset *out, TessError *err);
/* A body's mass as the physics world built from the level has it. */
typedef struct TwMass {
  TessId object;
  float mass, inertia; /* kg, kg m^2 about the centre of mass */
  TessVec2 center;     /* metres, body coordinates */
} TwMass;
/* sprite_firstgid: by sprite index in the project (0 = not in the map);
 * masses sorted by object id. */
void tiled_write_build_object(TwMap *m, const TessProject *p, const TwMass *masses, size_t mass_count, const TessObject *o,
                              const uint32_t *sprite_firstgid, TwObjects *out);

#endif
