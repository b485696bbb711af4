/* spring-project OUT.tessera: writes a small project whose level "Springs" uses what the demo
 * does not: bodies on RK4 and spring zones (one bounded, one unbounded), beside Euler bodies, a
 * floor and walls painted with a solid material, so test-game.sh can hold the example game's world
 * hash against the editor preview's on a level that needs the integrator and the spring zone to
 * reach both (a game that ran the RK4 bodies on Euler, or a spring as anything else, would part
 * from the preview within a few steps). */
#include <stdio.h>

#include "tessera/level.h"
#include "tessera/store.h"

static TessResult add_body(TessProject *p, TessId level, TessId layer, TessId material, float x, float y,
                           TessBodyShape shape, uint8_t integrator, TessError *err) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "%s %s", integrator == TESS_INTEGRATOR_RK4 ? "RK4" : "Euler",
           shape == TESS_BODY_BOX ? "box" : "ball");
  o.pos = tess_v2(x, y);
  o.u.body.shape = (uint8_t)shape;
  o.u.body.radius = 8.0f;
  o.u.body.width = 20.0f;
  o.u.body.height = 12.0f;
  o.u.body.material = material;
  o.u.body.integrator = integrator;
  return tess_edit_object_add(p, level, layer, &o, NULL, err);
}

static TessResult add_spring(TessProject *p, TessId level, TessId layer, float x, float y, float strength, float radius,
                             TessError *err) {
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_ZONE);
  snprintf(o.name, sizeof o.name, "Spring");
  o.pos = tess_v2(x, y);
  o.u.zone.kind = TESS_ZONE_SPRING;
  o.u.zone.strength = strength;
  o.u.zone.radius = radius;
  return tess_edit_object_add(p, level, layer, &o, NULL, err);
}

static TessResult build(TessProject *p, TessError *err) {
  TessMaterial m;
  tess_material_default(&m);
  snprintf(m.name, sizeof m.name, "Rock");
  m.kind = TESS_MATERIAL_SOLID;
  m.restitution = 0.5f;
  TessId rock = 0, level = 0;
  TessResult r = tess_edit_material_add(p, &m, &rock, err);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "Springs");
  ls.width = 40;
  ls.height = 24;
  ls.tile_w = ls.tile_h = 16;
  ls.ppm = 16.0f;
  if (r == TESS_OK) r = tess_edit_level_add(p, &ls, &level, err);
  const TessLevel *lv = tess_project_level(p, level);
  TessId layer = lv ? lv->layers[2]->props.id : 0;
  /* a floor and two walls */
  if (r == TESS_OK) r = tess_edit_paint_material(p, level, 0, 23, 40, 1, rock, 0, err);
  if (r == TESS_OK) r = tess_edit_paint_material(p, level, 0, 0, 1, 24, rock, 0, err);
  if (r == TESS_OK) r = tess_edit_paint_material(p, level, 39, 0, 1, 24, rock, 0, err);
  /* a bounded well holding two swinging bodies against gravity, and an unbounded one on the right */
  if (r == TESS_OK) r = add_spring(p, level, layer, 160.0f, 160.0f, 39.4784176f, 120.0f, err);
  if (r == TESS_OK) r = add_spring(p, level, layer, 480.0f, 120.0f, 9.0f, 0.0f, err);
  if (r == TESS_OK) r = add_body(p, level, layer, rock, 220.0f, 150.0f, TESS_BODY_CIRCLE, TESS_INTEGRATOR_RK4, err);
  if (r == TESS_OK) r = add_body(p, level, layer, rock, 120.0f, 200.0f, TESS_BODY_BOX, TESS_INTEGRATOR_RK4, err);
  if (r == TESS_OK) r = add_body(p, level, layer, rock, 170.0f, 100.0f, TESS_BODY_CIRCLE, TESS_INTEGRATOR_EULER, err);
  if (r == TESS_OK) r = add_body(p, level, layer, rock, 560.0f, 60.0f, TESS_BODY_CIRCLE, TESS_INTEGRATOR_RK4, err);
  if (r == TESS_OK) r = add_body(p, level, layer, rock, 400.0f, 300.0f, TESS_BODY_BOX, TESS_INTEGRATOR_EULER, err);
  return r;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT.tessera\n", argv[0]);
    return 2;
  }
  TessError err;
  TessProject *p = tess_project_create();
  TessStore *store = NULL;
  remove(argv[1]);
  TessResult r = p ? build(p, &err) : TESS_ERR_NOMEM;
  if (r == TESS_OK) r = tess_store_open(argv[1], TESS_STORE_CREATE, &store, &err);
  if (r == TESS_OK) r = tess_store_flush(store, p, &err);
  if (store) tess_store_close(store);
  tess_project_destroy(p);
  if (r != TESS_OK) {
    char msg[1200];
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    return 1;
  }
  return 0;
}
