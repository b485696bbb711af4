/* The wide solver's parts (core/physics/wide_solver.c): on two threads each colour is cut into
 * two parts, one per thread, by the bodies of its constraints. A constraint between bodies of
 * both parts may go to either; the colouring sends it to the one with fewer of the colour's
 * constraints so far, so the parts come out even and neither thread takes the other's blocks
 * (bodies and all) for want of its own. Where a constraint is solved changes no result: the
 * world steps to the bits of one thread. Read from the world's private state after a step. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "physics_private.h"
#include "tessera/physics.h"
#include "test_scheduler.h"

#define BALLS 64
#define RADIUS 0.25f

/* A row of touching balls on a fixed floor, made in an order that puts every pair of neighbours
 * in different parts: the even places first (the first half of the solver states, part 0), then
 * the odd ones (part 1). Every ball-to-ball contact then joins the two parts. */
static TessWorld *row_world(TestScheduler *s) {
  TessWorldDef def;
  tess_world_def_default(&def);
  def.gravity = tess_v2(0.0f, 10.0f);
  if (s) test_scheduler_attach(s, &def);
  TessWorld *w = NULL;
  TessError err;
  CHECK_OK(tess_world_create(&def, &w, &err), &err);
  TessShapeDef sd;
  tess_shape_def_default(&sd);
  sd.friction = 0.6f;
  TessBodyDef bd;
  tess_body_def_default(&bd);
  bd.type = TESS_BODY_STATIC;
  bd.position = tess_v2(0.5f * BALLS * 2.0f * RADIUS, 10.5f);
  TessBodyId floor = {0, 0};
  CHECK_OK(tess_body_create(w, &bd, &floor, &err), &err);
  CHECK_OK(tess_shape_create_box(w, floor, &sd, BALLS * RADIUS + 1.0f, 0.5f, tess_v2(0, 0), 0.0f, NULL, &err), &err);
  for (int odd = 0; odd < 2; odd++)
    for (int i = odd; i < BALLS; i += 2) {
      tess_body_def_default(&bd);
      bd.type = TESS_BODY_DYNAMIC;
      /* a hair closer than touching, so every neighbour is in contact from the first step */
      bd.position = tess_v2(RADIUS + (float)i * (2.0f * RADIUS - 0.002f), 10.0f - RADIUS + 0.001f);
      TessBodyId b = {0, 0};
      CHECK_OK(tess_body_create(w, &bd, &b, &err), &err);
      CHECK_OK(tess_shape_create_circle(w, b, &sd, tess_v2(0, 0), RADIUS, NULL, &err), &err);
    }
  return w;
}

static void crossing_contacts_split_evenly_between_parts(void) {
  TestScheduler *s = test_scheduler_create(1); /* a game's scheduler: every step handed over, on 2 threads */
  TessWorld *w = row_world(s);
  TessWorld *one = row_world(NULL);
  TessError err;
  for (int i = 0; i < 60; i++) {
    CHECK_OK(tess_world_step(w, 1.0f / 60.0f, &err), &err);
    CHECK_OK(tess_world_step(one, 1.0f / 60.0f, &err), &err);
    CHECK_MSG(w->parts == 2, "step %d ran in %u parts", i, w->parts);
    /* each colour's constraints per part, from the parts' lists */
    uint32_t n[32][2] = {{0}}, crossing = 0;
    for (uint32_t o = 0; o < 2; o++)
      for (uint32_t k = 0; k < w->part_list_count[o]; k++) {
        uint32_t ci = w->part_list[o * w->part_list_stride + k];
        CHECK(w->constraint_color[ci] < 32);
        n[w->constraint_color[ci]][o]++;
        const ColorIn *in = &w->color_in[ci];
        uint32_t spare = w->active_count + 1;
        if (in->a != spare && in->b != spare && (in->a <= BALLS / 2) != (in->b <= BALLS / 2)) crossing++;
      }
    CHECK_MSG(crossing >= BALLS - 2, "step %d: %u ball-to-ball contacts join the parts (the row has %d)", i, crossing,
              BALLS - 1);
    for (uint32_t c = 0; c < 32; c++) {
      uint32_t d = n[c][0] > n[c][1] ? n[c][0] - n[c][1] : n[c][1] - n[c][0];
      CHECK_MSG(d <= 1, "step %d, colour %u: %u constraints in part 0, %u in part 1", i, c, n[c][0], n[c][1]);
    }
  }
  CHECK_MSG(tess_world_hash(w) == tess_world_hash(one), "2 parts %016llx, one thread %016llx",
            (unsigned long long)tess_world_hash(w), (unsigned long long)tess_world_hash(one));
  tess_world_destroy(one);
  tess_world_destroy(w);
  test_scheduler_destroy(s);
}

TESS_TEST_MAIN(TEST(crossing_contacts_split_evenly_between_parts))
