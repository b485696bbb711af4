// The C interface of box2d_peer.h over Box2D 2.4's C++ API. Only what the
// rain benchmark needs; every setting not named here is Box2D's default, as
// its users run it.
#include "box2d_peer.h"

#include <box2d/box2d.h>

#include <vector>

struct Box2dPeer {
  b2World world;
  b2Body *ground;
  std::vector<b2Body *> bodies;
  int velocity_iterations, position_iterations;
  Box2dPeer(float gx, float gy) : world(b2Vec2(gx, gy)), ground(nullptr), velocity_iterations(8), position_iterations(3) {}
};

extern "C" Box2dPeer *box2d_peer_create(float gravity_x, float gravity_y, int velocity_iterations,
                                        int position_iterations) {
  Box2dPeer *p = new Box2dPeer(gravity_x, gravity_y);
  p->world.SetAllowSleeping(false);
  p->velocity_iterations = velocity_iterations;
  p->position_iterations = position_iterations;
  b2BodyDef gd;
  p->ground = p->world.CreateBody(&gd);
  return p;
}

extern "C" void box2d_peer_destroy(Box2dPeer *p) { delete p; }

extern "C" void box2d_peer_add_loop(Box2dPeer *p, const float *xy, uint32_t count, float friction) {
  std::vector<b2Vec2> v(count);
  for (uint32_t i = 0; i < count; i++) v[i].Set(xy[2 * i], xy[2 * i + 1]);
  b2ChainShape chain;
  chain.CreateLoop(v.data(), (int32)count);
  b2FixtureDef fd;
  fd.shape = &chain;
  fd.friction = friction;
  p->ground->CreateFixture(&fd);
}

static uint32_t add_body(Box2dPeer *p, float x, float y, float vx, float vy, const b2Shape *shape, float friction) {
  b2BodyDef bd;
  bd.type = b2_dynamicBody;
  bd.position.Set(x, y);
  bd.linearVelocity.Set(vx, vy);
  b2Body *b = p->world.CreateBody(&bd);
  b2FixtureDef fd;
  fd.shape = shape;
  fd.density = 1.0f;
  fd.friction = friction;
  b->CreateFixture(&fd);
  p->bodies.push_back(b);
  return (uint32_t)(p->bodies.size() - 1);
}

extern "C" uint32_t box2d_peer_add_circle(Box2dPeer *p, float x, float y, float vx, float vy, float radius,
                                          float friction) {
  b2CircleShape c;
  c.m_radius = radius;
  return add_body(p, x, y, vx, vy, &c, friction);
}

extern "C" uint32_t box2d_peer_add_polygon(Box2dPeer *p, float x, float y, float vx, float vy, const float *xy,
                                           uint32_t count, float friction) {
  b2Vec2 v[b2_maxPolygonVertices];
  if (count > b2_maxPolygonVertices) count = b2_maxPolygonVertices;
  for (uint32_t i = 0; i < count; i++) v[i].Set(xy[2 * i], xy[2 * i + 1]);
  b2PolygonShape poly;
  poly.Set(v, (int32)count); // takes the convex hull, as Tessera's shape creation does
  return add_body(p, x, y, vx, vy, &poly, friction);
}

extern "C" void box2d_peer_step(Box2dPeer *p, float dt) {
  p->world.Step(dt, p->velocity_iterations, p->position_iterations);
}

extern "C" void box2d_peer_position(const Box2dPeer *p, uint32_t body, float *x, float *y) {
  const b2Vec2 &q = p->bodies[body]->GetPosition();
  *x = q.x;
  *y = q.y;
}
