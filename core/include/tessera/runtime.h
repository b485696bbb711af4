/* Tessera's runtime: what a game links (libtessera-runtime, pkg-config
 * `tessera-runtime`). One include gives all of it:
 *
 *   - tlv_reader.h: the packed level (.tlv) reader (tlv_open and the
 *     accessors; no allocation, views into the caller's buffer);
 *   - tessera/scene.h: the level resolved for simulation, made from a .tlv
 *     by tess_scene_from_pack() below, and the world made from the scene
 *     (tess_world_create_from_scene);
 *   - tessera/physics.h: the world: stepping, bodies, contacts, zones,
 *     joints and motors, queries, snapshots;
 *   - tessera/play.h: the fixed-step clock with interpolation and capped
 *     catch-up, and the sprite frame player;
 *   - tessera/aim.h: the launch velocity that hits a target (static or
 *     moving, under gravity);
 *   - tessera/geom.h, tessera/base.h: shapes, vectors, errors, the allocator.
 *
 * No SQLite, libpng, cairo or level model. core/runtime/README.md is the
 * guide: loading, stepping, drawing bodies, contact events, zones, joints. */
#ifndef TESSERA_RUNTIME_H
#define TESSERA_RUNTIME_H

#include "tessera/aim.h"
#include "tessera/base.h"
#include "tessera/geom.h"
#include "tessera/physics.h"
#include "tessera/play.h"
#include "tessera/scene.h"
#include "tlv_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The scene of a .tlv opened with tlv_open(): equal field for field to
 * the scene the editor's preview builds from the level it was written from
 * (tess_scene_from_level), so a game simulates what the designer saw. The
 * scene is the caller's (tess_scene_destroy); `lv` and its buffer may go
 * once this returns. */
TessResult tess_scene_from_pack(const TlvLevel *lv, TessScene **out, TessError *err);

/* The runtime's version, "MAJOR.MINOR.PATCH" (the soname carries MAJOR). */
const char *tess_runtime_version(void);

#ifdef __cplusplus
}
#endif
#endif
