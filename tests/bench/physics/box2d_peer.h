/* A C interface to Box2D 2.4 (C++) for the rain benchmark: just enough to
 * build the same scene (static outline loops, dynamic circles and convex
 * polygons), step it and read positions back. Built only when meson finds
 * Debian's libbox2d-dev (TESS_HAVE_BOX2D). */
#ifndef TESS_BENCH_BOX2D_PEER_H
#define TESS_BENCH_BOX2D_PEER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct Box2dPeer Box2dPeer;

/* A world with sleeping off; each step runs the given velocity and position
 * iterations. Continuous collision stays on (Box2D's default). */
Box2dPeer *box2d_peer_create(float gravity_x, float gravity_y, int velocity_iterations, int position_iterations);
void box2d_peer_destroy(Box2dPeer *p);

/* One closed one-sided loop (b2ChainShape::CreateLoop) on the static ground
 * body: xy holds count (x, y) pairs, ordered so that each edge's right-hand
 * normal (e.y, -e.x) points out of the solid. */
void box2d_peer_add_loop(Box2dPeer *p, const float *xy, uint32_t count, float friction);

/* Dynamic bodies (density 1); the return value is the body's index. */
uint32_t box2d_peer_add_circle(Box2dPeer *p, float x, float y, float vx, float vy, float radius, float friction);
uint32_t box2d_peer_add_polygon(Box2dPeer *p, float x, float y, float vx, float vy, const float *xy, uint32_t count,
                                float friction);

void box2d_peer_step(Box2dPeer *p, float dt);
void box2d_peer_position(const Box2dPeer *p, uint32_t body, float *x, float *y);

#ifdef __cplusplus
}
#endif

#endif
