/* Private: helpers that fill a TwMap (tiled_write_model.c). Each sets
 * m->failed when memory runs out, so a builder checks once at the end. */
#ifndef TESS_FORMATS_TILED_WRITE_BUILD_H
#define TESS_FORMATS_TILED_WRITE_BUILD_H

#include "tiled_write.h"

const char *tw_strdup(TwMap *m, const char *s);
const char *tw_printf(TwMap *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tw_prop_string(TwMap *m, TwProps *props, const char *name, const char *value);
void tw_prop_file(TwMap *m, TwProps *props, const char *name, const char *value);
void tw_prop_int(TwMap *m, TwProps *props, const char *name, int64_t value);
void tw_prop_object(TwMap *m, TwProps *props, const char *name, uint32_t id);
void tw_prop_float(TwMap *m, TwProps *props, const char *name, double value);
void tw_prop_bool(TwMap *m, TwProps *props, const char *name, bool value);
void tw_prop_color(TwMap *m, TwProps *props, const char *name, uint32_t rgba);
TwObject *tw_object_add(TwMap *m, TwObjects *objs);
/* count points for a polygon or polyline, owned by the arena. */
TwPoint *tw_points(TwMap *m, TwObject *o, uint32_t count);

/* The builder's parts (tiled_write_tilesets.c, tiled_write_objects.c). */
void tw_build_tileset(TwMap *m, const TessProject *p, const TessTileset *ts, const char *stem, TwTileset *out);
void tw_build_sprite(TwMap *m, const TessSprite *s, const char *stem, TwTileset *out);
TessResult tw_build_materials(TwMap *m, const TessProject *p, uint32_t tile_w, uint32_t tile_h, const char *stem,
                              TwTileset *out, TessError *err);
/* A body's mass as the physics world built from the level has it. */
typedef struct TwMass {
  TessId object;
  float mass, inertia; /* kg, kg m^2 about the centre of mass */
  TessVec2 center;     /* metres, body coordinates */
} TwMass;
/* sprite_firstgid: by sprite index in the project (0 = not in the map);
 * masses sorted by object id. */
void tw_build_object(TwMap *m, const TessProject *p, const TwMass *masses, size_t mass_count, const TessObject *o,
                     const uint32_t *sprite_firstgid, TwObjects *out);

#endif
