/* Round trips: what the edit API made, flushed and reopened, is the same
 * project (tess_project_hash), through every kind of edit, undo and redo. */
#include <float.h>

#include "store_tests.h"

static void check_same(const TessProject *a, const char *path, const char *when) {
  TessProject *b = load_file(path);
  CHECK(b != NULL);
  if (!b) return;
  CHECK_MSG(tess_project_hash(a) == tess_project_hash(b), "%s: reopened project differs", when);
  CHECK_MSG(a->level_count == b->level_count && a->material_count == b->material_count &&
                a->tileset_count == b->tileset_count && a->sprite_count == b->sprite_count,
            "%s: counts differ", when);
  for (int k = 0; k < TESS_ID_KIND_COUNT; k++)
    CHECK_MSG(a->next_id[k] == b->next_id[k], "%s: next_id[%d] %u != %u", when, k, a->next_id[k], b->next_id[k]);
  /* The hash is only as good as what it covers: compare a few things directly too. */
  for (uint32_t i = 0; i < a->level_count && i < b->level_count; i++) {
    const TessLevel *la = a->levels[i], *lb = b->levels[i];
    CHECK(la->id == lb->id && la->layer_count == lb->layer_count);
    for (uint32_t k = 0; k < la->layer_count && k < lb->layer_count; k++) {
      const TessLayer *x = la->layers[k], *y = lb->layers[k];
      CHECK(x->props.id == y->props.id && x->object_count == y->object_count);
      for (uint32_t o = 0; o < x->object_count && o < y->object_count; o++) CHECK(x->objects[o].id == y->objects[o].id);
      for (uint32_t cy = 0; cy < la->settings.height; cy += 7)
        for (uint32_t cx = 0; cx < la->settings.width; cx += 3)
          CHECK(tess_layer_cell(x, cx, cy) == tess_layer_cell(y, cx, cy));
    }
  }
  tess_project_destroy(b);
}

static TessStore *open_rw(const char *path) {
  TessStore *s = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &s, &err), &err);
  return s;
}

static void flush(TessStore *s, TessProject *p) {
  TessError err;
  CHECK_OK(tess_store_flush(s, p, &err), &err);
  const TessChange *c;
  CHECK(tess_project_changes(p, &c) == 0);
}

void roundtrip_edits_flush_reopen(void) {
  char path[512];
  tess_test_path(path, sizeof path, "roundtrip.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  check_same(p, path, "first flush");

  TessProject *q = load_file(path);
  if (q) {
    TessObject *spawn = tess_level_object(tess_project_level(q, s.level), s.spawn, NULL);
    CHECK(spawn && spawn->angle == 0.0f && signbit(spawn->angle));
    const TessProperty *hero = spawn ? tess_object_property(spawn, "hero") : NULL;
    CHECK(hero && hero->type == TESS_PROP_STRING && strcmp(hero->v.s, "h\xc3\xa9ros \xe2\x80\x94 UTF-8") == 0);
    TessObject *ball = tess_level_object(tess_project_level(q, s.level), s.body_circle, NULL);
    const TessProperty *big = ball ? tess_object_property(ball, "big") : NULL;
    CHECK(big && big->type == TESS_PROP_INT && big->v.i == INT64_MAX);
    const TessTileset *ts = tess_project_tileset(q, s.tileset);
    CHECK(ts && ts->tiles[2].piece_count == 2 && ts->tiles[2].pieces[1].count == 5 &&
          ts->tiles[2].pieces[1].v[3].x == 10.5f);
    const TessSprite *sp = tess_project_sprite(q, s.sprite);
    CHECK(sp && sp->mask.hull_count == 6 && sp->mask.uncovered_area == 1.0 / 3.0);
    tess_project_destroy(q);
  }

  /* More edits, each flushed as the editor does. */
  TessStore *store = open_rw(path);
  TessError err;
  if (store) {
    TessObject moved;
    CHECK_OK(tess_object_copy(&moved, tess_level_object(tess_project_level(p, s.level), s.body_circle, NULL)), &err);
    uint32_t drag = tess_project_new_merge_key(p);
    for (int i = 0; i < 5; i++) {
      moved.pos.x += 3.0f;
      moved.angle += 0.1f;
      CHECK_OK(tess_edit_object_set(p, s.level, &moved, drag, &err), &err);
      flush(store, p);
    }
    tess_object_clear(&moved);
    CHECK_OK(tess_edit_object_remove(p, s.level, s.joint_pin, &err), &err);
    flush(store, p);
    TessObject extra;
    tess_object_default(&extra, TESS_OBJECT_BODY);
    snprintf(extra.name, sizeof extra.name, "Late ball");
    extra.pos = tess_v2(10, 10);
    TessId extra_id = 0;
    CHECK_OK(tess_edit_object_add(p, s.level, s.objects, &extra, &extra_id, &err), &err);
    tess_object_clear(&extra);
    flush(store, p);
    TessMaterial ice = *tess_project_material(p, s.ice);
    ice.friction = 0.03f;
    snprintf(ice.name, sizeof ice.name, "Wet ice");
    CHECK_OK(tess_edit_material_set(p, &ice, 0, &err), &err);
    CHECK_OK(tess_edit_erase(p, s.level, s.ground, 0, 60, 50, 10, 0, &err), &err);
    CHECK_OK(tess_edit_paint_material(p, s.level, 0, 0, 3, 3, s.stone, 0, &err), &err);
    flush(store, p);
    tess_store_close(store);
  }
  check_same(p, path, "after more edits");
  tess_project_destroy(p);
}

void roundtrip_save_all(void) {
  char path[512];
  tess_test_path(path, sizeof path, "save_all.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  TessStore *store = NULL;
  TessError err;
  CHECK_OK(tess_store_open(path, TESS_STORE_CREATE, &store, &err), &err);
  if (store) {
    CHECK_OK(tess_store_save_all(store, p, &err), &err);
    const TessChange *c;
    CHECK(tess_project_changes(p, &c) == 0);
    check_same(p, path, "save_all");
    /* The editor's new project: save_all, then edits flushed into the same store. */
    CHECK_OK(tess_edit_object_remove(p, s.level, s.body_circle, &err), &err);
    CHECK_OK(tess_store_flush(store, p, &err), &err);
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_ZONE);
    TessId id;
    CHECK_OK(tess_edit_object_add(p, s.level, s.objects, &o, &id, &err), &err);
    tess_object_clear(&o);
    CHECK_OK(tess_edit_fill_rect(p, s.level, s.ground, 20, 20, 30, 3, TESS_CELL_MAKE(s.tileset, 4, 0), 0, &err), &err);
    CHECK_OK(tess_store_flush(store, p, &err), &err);
    tess_store_close(store);
  }
  check_same(p, path, "save_all, then flushes");

  /* save_all over a file that holds another project replaces it entirely. */
  TessProject *small = tess_project_create();
  TessMaterial m;
  tess_material_default(&m);
  TessId id;
  CHECK_OK(tess_edit_material_add(small, &m, &id, &err), &err);
  CHECK_OK(tess_store_open(path, TESS_STORE_READ_WRITE, &store, &err), &err);
  if (store) {
    CHECK_OK(tess_store_save_all(store, small, &err), &err);
    tess_store_close(store);
  }
  check_same(small, path, "save_all over another project");
  CHECK(sql_int(path, "SELECT count(*) FROM chunks") == 0);
  CHECK(sql_int(path, "SELECT count(*) FROM levels") == 0);
  tess_project_destroy(small);
  tess_project_destroy(p);
}

void roundtrip_undo_redo(void) {
  char path[512];
  tess_test_path(path, sizeof path, "undo.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  uint64_t built = tess_project_hash(p);
  TessStore *store = open_rw(path);
  if (!store) {
    tess_project_destroy(p);
    return;
  }
  TessError err;
  TessCell c = TESS_CELL_MAKE(s.tileset, 2, 0);
  CHECK_OK(tess_edit_fill_rect(p, s.level, s.ground, 5, 5, 70, 40, c, 0, &err), &err);
  flush(store, p);
  CHECK_OK(tess_edit_object_remove(p, s.level, s.body_sprite, &err), &err);
  flush(store, p);
  CHECK_OK(tess_edit_material_remove(p, s.water, s.stone, &err), &err);
  flush(store, p);
  uint64_t edited = tess_project_hash(p);

  for (int i = 0; i < 3; i++) {
    CHECK_OK(tess_project_undo(p, &err), &err);
    flush(store, p);
  }
  CHECK(tess_project_hash(p) == built);
  check_same(p, path, "after three undos");
  for (int i = 0; i < 3; i++) {
    CHECK_OK(tess_project_redo(p, &err), &err);
    flush(store, p);
  }
  CHECK(tess_project_hash(p) == edited);
  check_same(p, path, "after three redos");
  CHECK_OK(tess_project_undo(p, &err), &err);
  flush(store, p);
  tess_store_close(store);
  check_same(p, path, "after an undo and close");
  tess_project_destroy(p);
}

/* Structure: layers and levels added, moved, removed, resized; assets
 * removed with what uses them; then each undone, flushing every step. */
void roundtrip_structure_edits(void) {
  char path[512];
  tess_test_path(path, sizeof path, "structure.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  TessStore *store = open_rw(path);
  if (!store) {
    tess_project_destroy(p);
    return;
  }
  TessError err;
  int steps = 0;
#define STEP(call)              \
  do {                          \
    CHECK_OK((call), &err);     \
    flush(store, p);            \
    check_same(p, path, #call); \
    steps++;                    \
  } while (0)
  TessId top = 0, level3 = 0;
  STEP(tess_edit_layer_move(p, s.level, s.decor, 0, &err));
  STEP(tess_edit_layer_add(p, s.level, TESS_LAYER_OBJECTS, "More objects", 1, &top, &err));
  STEP(tess_edit_layer_remove(p, s.level, s.objects, &err));
  STEP(tess_edit_layer_remove(p, s.level, s.material_layer, &err));
  STEP(tess_edit_paint_material(p, s.level, 3, 4, 40, 5, s.water, 0, &err)); /* creates the material layer anew */
  TessLevelSettings ls = tess_project_level(p, s.level)->settings;
  ls.width = 150;
  ls.height = 50;
  snprintf(ls.name, sizeof ls.name, "Bigger cave");
  STEP(tess_edit_level_set(p, s.level, &ls, 2, 1, &err));
  STEP(tess_edit_level_remove(p, s.level2, &err));
  tess_level_settings_default(&ls);
  snprintf(ls.name, sizeof ls.name, "New level");
  STEP(tess_edit_level_add(p, &ls, &level3, &err));
  STEP(tess_edit_material_remove(p, s.ice, s.water, &err));
  STEP(tess_edit_sprite_remove(p, s.sprite, &err));
  STEP(tess_edit_tileset_remove(p, s.tileset, 0, &err));
  for (int i = 0; i < steps; i++) {
    CHECK_OK(tess_project_undo(p, &err), &err);
    flush(store, p);
    check_same(p, path, "undo of a structure edit");
  }
#undef STEP
  tess_store_close(store);
  check_same(p, path, "all structure edits undone");
  tess_project_destroy(p);
}

/* -0.0 and values at the edges of float and double come back bit for bit. */
void floats_keep_every_bit(void) {
  char path[512];
  tess_test_path(path, sizeof path, "floats.tessera");
  TessProject *p = tess_project_create();
  TessError err;
  TessMaterial m;
  tess_material_default(&m);
  m.friction = -0.0f;
  m.restitution = FLT_MIN;
  m.density = 1e6f; /* the largest density a material may have */
  TessId mid = 0;
  CHECK_OK(tess_edit_material_add(p, &m, &mid, &err), &err);
  TessLevelSettings ls;
  tess_level_settings_default(&ls);
  ls.gravity = tess_v2(-0.0f, 1e-38f);
  TessId level = 0;
  CHECK_OK(tess_edit_level_add(p, &ls, &level, &err), &err);
  TessLevel *lv = tess_project_level(p, level);
  TessId objects = 0;
  for (uint32_t i = 0; lv && i < lv->layer_count; i++)
    if (lv->layers[i]->props.kind == TESS_LAYER_OBJECTS) objects = lv->layers[i]->props.id;
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_SPAWN);
  TessProperty prop;
  const double values[] = {-0.0, DBL_MIN, DBL_MAX, -DBL_MAX, 4.9e-324, 0.1};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    memset(&prop, 0, sizeof prop);
    snprintf(prop.name, sizeof prop.name, "f%zu", i);
    prop.type = TESS_PROP_FLOAT;
    prop.v.f = values[i];
    CHECK(tess_object_set_property(&o, &prop) == TESS_OK);
  }
  TessId oid = 0;
  CHECK_OK(tess_edit_object_add(p, level, objects, &o, &oid, &err), &err);
  tess_object_clear(&o);
  create_and_flush(path, p);
  TessProject *q = load_file(path);
  if (q) {
    CHECK(tess_project_hash(q) == tess_project_hash(p));
    const TessMaterial *qm = tess_project_material(q, mid);
    CHECK(qm && signbit(qm->friction) && qm->restitution == FLT_MIN && qm->density == 1e6f);
    const TessLevel *ql = tess_project_level(q, level);
    CHECK(ql && signbit(ql->settings.gravity.x) && ql->settings.gravity.y == 1e-38f);
    const TessObject *qo = ql ? tess_level_object(ql, oid, NULL) : NULL;
    CHECK(qo && qo->prop_count == 6);
    for (uint32_t i = 0; qo && i < qo->prop_count; i++)
      CHECK(memcmp(&qo->props[i].v.f, &values[i], sizeof(double)) == 0);
    tess_project_destroy(q);
  }
  tess_project_destroy(p);
}

/* Random edits of every kind, with undo and redo mixed in, each flushed;
 * every 40 steps the file is reopened and must hold the same project. */
void random_edits_flush_reopen(void) {
  char path[512];
  tess_test_path(path, sizeof path, "random.tessera");
  TessProject *p = tess_project_create();
  Sample s;
  build_sample_project(p, &s);
  create_and_flush(path, p);
  TessStore *store = open_rw(path);
  if (!store) {
    tess_project_destroy(p);
    return;
  }
  TessTestRng rng = {0xABCDEF12345ull};
  TessError err;
  int failures_before = tess_test_failures, applied = 0, refused = 0;
  for (int step = 1; step <= 400 && tess_test_failures == failures_before; step++) {
    TessLevel *level = tess_project_level(p, s.level);
    TessLayer *objects = tess_level_layer(level, s.objects);
    uint32_t w = level->settings.width, h = level->settings.height;
    int32_t x = (int32_t)tess_rng_below(&rng, w), y = (int32_t)tess_rng_below(&rng, h);
    TessCell cell = TESS_CELL_MAKE(s.tileset, tess_rng_below(&rng, 8), tess_rng_below(&rng, 8) << 29);
    TessResult r = TESS_OK;
    switch (tess_rng_below(&rng, 10)) {
      case 0:
        r = tess_edit_fill_rect(p, s.level, tess_rng_below(&rng, 2) ? s.ground : s.decor, x, y,
                                1 + tess_rng_below(&rng, 40), 1 + tess_rng_below(&rng, 40), cell, 0, &err);
        break;
      case 1:
        r = tess_edit_erase(p, s.level, s.ground, x, y, 1 + tess_rng_below(&rng, 50), 1 + tess_rng_below(&rng, 50), 0,
                            &err);
        break;
      case 2:
        r = tess_edit_paint_material(p, s.level, x, y, 1 + tess_rng_below(&rng, 10), 1 + tess_rng_below(&rng, 10),
                                     tess_rng_below(&rng, 2) ? s.ice : 0, 0, &err);
        break;
      case 3: {
        TessObject o;
        tess_object_default(&o, (TessObjectKind)tess_rng_below(&rng, 4));
        snprintf(o.name, sizeof o.name, "r%d", step);
        o.pos = tess_v2((float)x, (float)y);
        TessId id;
        r = tess_edit_object_add(p, s.level, s.objects, &o, &id, &err);
        tess_object_clear(&o);
        break;
      }
      case 4:
        if (objects->object_count)
          r = tess_edit_object_remove(p, s.level, objects->objects[tess_rng_below(&rng, objects->object_count)].id,
                                      &err);
        break;
      case 5:
        if (objects->object_count) {
          TessObject o;
          CHECK_OK(tess_object_copy(&o, &objects->objects[tess_rng_below(&rng, objects->object_count)]), &err);
          o.pos.x += 1.5f;
          o.angle -= 0.25f;
          r = tess_edit_object_set(p, s.level, &o, 0, &err);
          tess_object_clear(&o);
        }
        break;
      case 6: {
        TessLayerProps props = tess_level_layer(level, s.decor)->props;
        props.opacity = (float)tess_rng_unit(&rng);
        props.visible = !props.visible;
        r = tess_edit_layer_set_props(p, s.level, &props, 0, &err);
        break;
      }
      case 7:
      case 8:
        if (tess_project_can_undo(p)) r = tess_project_undo(p, &err);
        break;
      default:
        if (tess_project_can_redo(p)) r = tess_project_redo(p, &err);
        break;
    }
    /* The model may refuse an edit (a joint whose body is gone): not the store's business, but it must not fail otherwise. */
    if (r != TESS_ERR_NOT_FOUND && r != TESS_ERR_INVALID) CHECK_OK(r, &err);
    if (r == TESS_OK) applied++;
    else refused++;
    flush(store, p);
    if (step % 40 == 0) check_same(p, path, "random edits");
  }
  tess_store_close(store);
  CHECK(applied > 300);
  printf("  random edits: %d applied, %d refused by the model\n", applied, refused);
  check_same(p, path, "random edits, closed");
  tess_project_destroy(p);
}
