/* core/formats' text form: exact numbers, exact round trips (the demo and
 * random projects from the property tests), stable bytes, one brush stroke
 * changing only its rows, where new ids start, refusals of bad input with
 * file and line, and the words of the diff. */
#include <float.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "random_edit.h"
#include "textform_util.h"
#include "tessera/textform.h"

/* ---- numbers ---- */

static void check_f32(float v, const char *want) {
  char buf[TESS_NUMBER_BUF];
  tess_format_f32(v, buf);
  if (want) CHECK_MSG(!strcmp(buf, want), "%.9g printed as %s, want %s", (double)v, buf, want);
  /* Through jansson as the loader reads it. */
  char doc[64];
  snprintf(doc, sizeof doc, "[%s]", buf);
  json_t *j = json_loads(doc, 0, NULL);
  CHECK_MSG(j && json_is_real(json_array_get(j, 0)), "%s does not read as a real", buf);
  float back = j ? (float)json_real_value(json_array_get(j, 0)) : NAN;
  CHECK_MSG(memcmp(&back, &v, sizeof v) == 0, "%s reads back as %.9g, not %.9g", buf, (double)back, (double)v);
  json_decref(j);
}

static void check_f64(double v, const char *want) {
  char buf[TESS_NUMBER_BUF];
  tess_format_f64(v, buf);
  if (want) CHECK_MSG(!strcmp(buf, want), "%.17g printed as %s, want %s", v, buf, want);
  char doc[64];
  snprintf(doc, sizeof doc, "[%s]", buf);
  json_t *j = json_loads(doc, 0, NULL);
  CHECK_MSG(j && json_is_real(json_array_get(j, 0)), "%s does not read as a real", buf);
  double back = j ? json_real_value(json_array_get(j, 0)) : NAN;
  CHECK_MSG(memcmp(&back, &v, sizeof v) == 0, "%s reads back as %.17g, not %.17g", buf, back, v);
  json_decref(j);
}

static void numbers_are_shortest_and_exact(void) {
  check_f32(0.1f, "0.1");
  check_f32(-0.0f, "-0.0");
  check_f32(0.0f, "0.0");
  check_f32(1.0f, "1.0");
  check_f32(20.0f, "20.0");
  check_f32(9.81f, "9.81");
  check_f32(1e-7f, "1e-07");
  check_f32(FLT_MAX, "3.4028235e+38");
  check_f32(FLT_MIN, "1.1754944e-38");
  check_f32(1.4e-45f, "1e-45"); /* the smallest subnormal */
  check_f32(-FLT_TRUE_MIN * 3, NULL);
  check_f32(16777217.0f, "16777216.0");
  check_f64(0.1, "0.1");
  check_f64(-0.0, "-0.0");
  check_f64(1e-7, "1e-07");
  check_f64(DBL_MAX, "1.7976931348623157e+308");
  check_f64(DBL_MIN, "2.2250738585072014e-308");
  check_f64(4.9406564584124654e-324, "5e-324");
  check_f64(1.0 / 3.0, "0.3333333333333333");
  check_f64(173780.66666666663, "173780.66666666663");
  /* Random bit patterns, every class of value. */
  TessTestRng rng = {0x5EEDull};
  for (int i = 0; i < 20000; i++) {
    uint64_t bits = tess_rng_next(&rng);
    uint32_t b32 = (uint32_t)bits;
    float f;
    double d;
    memcpy(&f, &b32, sizeof f);
    memcpy(&d, &bits, sizeof d);
    if (isfinite(f)) check_f32(f, NULL);
    if (isfinite(d)) check_f64(d, NULL);
  }
  /* Why we print numbers ourselves: jansson's printer is exact but not short. */
  json_t *j = json_real((double)0.1f);
  char *s = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
  CHECK_MSG(s && strcmp(s, "0.10000000149011612") == 0, "jansson printed %s", s ? s : "(null)");
  free(s);
  json_decref(j);
}

/* ---- round trips ---- */

static TessProject *dump_and_load(const TessProject *p, const char *dir, uint64_t salt) {
  TessError err;
  CHECK_OK(tess_text_dump(p, dir, &err), &err);
  TessTextLoadDef def;
  tess_text_load_def_default(&def);
  def.id_salt = salt;
  TessProject *back = NULL;
  CHECK_OK(tess_text_load(dir, &def, &back, &err), &err);
  return back;
}

static void demo_round_trips_exactly(void) {
  TessProject *p = tf_load_demo();
  if (!p) return;
  char a[1024], b[1024];
  tess_test_path(a, sizeof a, "demo-a");
  tess_test_path(b, sizeof b, "demo-b");
  TessProject *back = dump_and_load(p, a, 0);
  CHECK(back && tf_same_hashes(p, back));
  /* The loaded project dumps to the same bytes, and dumping again changes nothing. */
  TessError err;
  if (back) CHECK_OK(tess_text_dump(back, b, &err), &err);
  CHECK(tf_same_tree(a, b));
  struct stat before, after;
  char level[1200];
  snprintf(level, sizeof level, "%s/levels/1/level.json", a);
  stat(level, &before);
  CHECK_OK(tess_text_dump(p, a, &err), &err);
  stat(level, &after);
  CHECK(before.st_ino == after.st_ino && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
  CHECK(tf_same_tree(a, b));
  /* The PNG files hold the project's bytes. */
  char png[1200];
  snprintf(png, sizeof png, "%s/tilesets/%u.png", a, p->tilesets[0]->id);
  size_t n;
  char *bytes = tf_read(png, &n);
  CHECK(bytes && n == p->tilesets[0]->png_size && memcmp(bytes, p->tilesets[0]->png, n) == 0);
  tess_free(bytes);
  tess_project_destroy(back);
  tess_project_destroy(p);
}

static void random_projects_round_trip_exactly(void) {
  for (uint64_t seed = 1; seed <= 4; seed++) {
    Fixture f;
    TessError err;
    fixture_make(&f);
    TessTestRng rng = {seed * 0xD1B54A32D192ED03ull};
    uint32_t key = tess_project_new_merge_key(f.p);
    for (int i = 0; i < 700; i++) random_edit(f.p, &rng, &key, &err);
    /* Awkward values the edits do not make: subnormal, negative zero, long names, property kinds. */
    TessLevel *level = f.p->levels[0];
    TessObject o;
    tess_object_default(&o, TESS_OBJECT_ZONE);
    o.pos = tess_v2(-0.0f, 1e-40f);
    o.angle = 0.1f;
    snprintf(o.name, sizeof o.name, "\"quoted\" \\ tab\t été %llu", (unsigned long long)seed);
    TessProperty pr;
    memset(&pr, 0, sizeof pr);
    const uint8_t types[] = {TESS_PROP_FLOAT, TESS_PROP_BOOL, TESS_PROP_COLOR, TESS_PROP_INT};
    for (int k = 0; k < 4; k++) {
      snprintf(pr.name, sizeof pr.name, "p%d", k);
      pr.type = types[k];
      pr.v.f = 0;
      if (k == 0) pr.v.f = 1.0 / 3.0;
      if (k == 1) pr.v.b = true;
      if (k == 2) pr.v.color = 0xFF8000C0u;
      if (k == 3) pr.v.i = INT64_MIN;
      tess_object_set_property(&o, &pr);
    }
    TessId objects = 0;
    for (uint32_t i = 0; i < level->layer_count; i++)
      if (level->layers[i]->props.kind == TESS_LAYER_OBJECTS) objects = level->layers[i]->props.id;
    if (objects) CHECK_OK(tess_edit_object_add(f.p, level->id, objects, &o, NULL, &err), &err);
    tess_object_clear(&o);
    /* Where a tileset's tiles are drawn: an offset (Tiled's tileoffset) and, once, scaled into the cell. */
    if (seed % 2 == 0 && f.p->tileset_count) {
      TessTileset ts;
      memset(&ts, 0, sizeof ts);
      CHECK_OK(tess_tileset_copy(&ts, f.p->tilesets[0]) == TESS_OK ? TESS_OK : TESS_ERR_NOMEM, &err);
      ts.offset_x = -(int32_t)seed;
      ts.offset_y = 17;
      ts.fit_cell = seed == 4;
      CHECK_OK(tess_edit_tileset_set(f.p, &ts, 0, &err), &err);
      tess_tileset_clear(&ts);
    }
    /* Terrain sets: every kind, awkward names and probabilities (the dump must keep every bit). */
    if (seed % 2 == 1 && f.p->tileset_count) {
      TessTileset ts;
      CHECK_OK(tess_tileset_copy(&ts, f.p->tilesets[0]) == TESS_OK ? TESS_OK : TESS_ERR_NOMEM, &err);
      tess_terrain_sets_free(ts.terrains, ts.terrain_count);
      ts.terrain_count = 3;
      ts.terrains = tess_calloc(3, sizeof *ts.terrains);
      for (int k = 0; k < 3; k++) {
        TessTerrainSet *s = &ts.terrains[k];
        tess_terrain_set_init(s, k == 2 ? "\"Mixed\" été" : "Set", (TessTerrainKind)k);
        CHECK_OK(tess_terrain_set_add_color(s, "A", 0x11223344u, NULL, &err), &err);
        CHECK_OK(tess_terrain_set_add_color(s, "B\tb", 0xffeeddccu, NULL, &err), &err);
        s->colors[1].probability = 1.0f / 3.0f;
        s->colors[0].tile = k;
        s->tile = k == 1 ? -1 : 5;
        for (uint32_t t = 0; t < ts.tile_count; t += 1 + (uint32_t)k) {
          uint8_t wang[8];
          for (int q = 0; q < 8; q++) wang[q] = (uint8_t)((t + (uint32_t)q + (uint32_t)seed) % 3);
          wang[0] = 1;
          CHECK_OK(tess_terrain_set_label(s, t, wang, t % 3 ? 1.0f : 1e-7f * (float)(t + 1), &err), &err);
        }
      }
      CHECK_OK(tess_edit_tileset_set(f.p, &ts, 0, &err), &err);
      tess_tileset_clear(&ts);
    }
    char dir[1024], again[1100];
    snprintf(again, sizeof again, "random-%llu", (unsigned long long)seed);
    tess_test_path(dir, sizeof dir, again);
    TessProject *back = dump_and_load(f.p, dir, seed);
    CHECK_MSG(back && tf_same_hashes(f.p, back), "seed %llu: the loaded project differs", (unsigned long long)seed);
    /* And its dump is the same bytes. */
    snprintf(again, sizeof again, "%s-again", dir);
    if (back) CHECK_OK(tess_text_dump(back, again, &err), &err);
    CHECK(tf_same_tree(dir, again));
    tess_project_destroy(back);
    fixture_free(&f);
  }
}

static TessLayer *layer_named(TessLevel *level, const char *name) {
  for (uint32_t i = 0; i < level->layer_count; i++)
    if (!strcmp(level->layers[i]->props.name, name)) return level->layers[i];
  return NULL;
}

/* One brush stroke: only the rows it touched change, in one file. */
static void brush_stroke_changes_only_its_rows(void) {
  TessProject *p = tf_load_demo();
  if (!p) return;
  char a[1024], b[1024];
  tess_test_path(a, sizeof a, "stroke-a");
  tess_test_path(b, sizeof b, "stroke-b");
  TessError err;
  CHECK_OK(tess_text_dump(p, a, &err), &err);
  TessLevel *side = tess_project_level_by_name(p, "Side");
  TessLayer *ground = side ? layer_named(side, "Ground") : NULL;
  if (!ground) {
    CHECK(ground);
    tess_project_destroy(p);
    return;
  }
  TessCell stamp[6];
  for (int i = 0; i < 6; i++) stamp[i] = TESS_CELL_MAKE(p->tilesets[0]->id, 5 + i % 3, i == 4 ? TESS_CELL_FLIP_H : 0);
  CHECK_OK(tess_edit_paint(p, side->id, ground->props.id, 20, 9, 3, 2, stamp, 0, &err), &err);
  tf_copy_tree(a, b);
  CHECK_OK(tess_text_dump(p, b, &err), &err);
  char rows_a[1200], rows_b[1200];
  snprintf(rows_a, sizeof rows_a, "%s/levels/%u/layer-%u.rows", a, side->id, ground->props.id);
  snprintf(rows_b, sizeof rows_b, "%s/levels/%u/layer-%u.rows", b, side->id, ground->props.id);
  char *ta = tf_read(rows_a, NULL), *tb = tf_read(rows_b, NULL);
  uint32_t lines[8];
  size_t n = ta && tb ? tf_changed_lines(ta, tb, lines, 8) : 0;
  CHECK_MSG(n == 2 && lines[0] == 10 && lines[1] == 11, "%zu lines changed (first %u)", n, n ? lines[0] : 0);
  tess_free(ta);
  tess_free(tb);
  /* Every other file is untouched: put the old rows back and the trees match. */
  tess_test_system("cp '%s' '%s'", rows_a, rows_b);
  CHECK(tf_same_tree(a, b));
  tess_project_destroy(p);
}

/* ---- ids ---- */

static void copies_loaded_with_different_salts_hand_out_different_ids(void) {
  TessProject *p = tf_load_demo();
  if (!p) return;
  char dir[1024];
  tess_test_path(dir, sizeof dir, "ids");
  TessProject *a = dump_and_load(p, dir, 0x1111), *b = dump_and_load(p, dir, 0x2222), *c = dump_and_load(p, dir, 0);
  if (!a || !b || !c) goto done;
  for (int k = TESS_ID_SPRITE; k <= TESS_ID_OBJECT; k++) {
    /* Above every id in the dump, inside the window, and apart. */
    CHECK(a->next_id[k] >= p->next_id[k] || a->next_id[k] > c->next_id[k] - 1);
    CHECK(a->next_id[k] >= c->next_id[k] && a->next_id[k] < c->next_id[k] + TESS_TEXTFORM_ID_WINDOW);
    CHECK(b->next_id[k] >= c->next_id[k] && b->next_id[k] < c->next_id[k] + TESS_TEXTFORM_ID_WINDOW);
    CHECK(a->next_id[k] != b->next_id[k]);
  }
  /* Salt 0: right above the largest object id in the dump. */
  TessId max = 0;
  for (uint32_t i = 0; i < p->level_count; i++)
    for (uint32_t l = 0; l < p->levels[i]->layer_count; l++)
      for (uint32_t k = 0; k < p->levels[i]->layers[l]->object_count; k++)
        if (p->levels[i]->layers[l]->objects[k].id > max) max = p->levels[i]->layers[l]->objects[k].id;
  CHECK(c->next_id[TESS_ID_OBJECT] == max + 1);
  /* The same salt gives the same ids (a rebuilt project is reproducible). */
  TessProject *a2 = dump_and_load(p, dir, 0x1111);
  CHECK(a2 && a2->next_id[TESS_ID_OBJECT] == a->next_id[TESS_ID_OBJECT]);
  tess_project_destroy(a2);
done:
  tess_project_destroy(a);
  tess_project_destroy(b);
  tess_project_destroy(c);
  tess_project_destroy(p);
}

/* ---- bad input ---- */

typedef struct BadCase {
  const char *name;
  const char *file;   /* relative to the dump */
  const char *what;   /* replaced ... */
  const char *with;   /* ... by this; NULL what = delete the file; "COPY:rel" copies file to rel */
  unsigned line;      /* the line the error must name (0 = none) */
  const char *detail; /* a piece of the message */
} BadCase;

static void bad_dumps_are_refused_with_file_and_line(void) {
  TessProject *p = tf_load_demo();
  if (!p) return;
  char good[1024];
  tess_test_path(good, sizeof good, "good");
  TessError err;
  CHECK_OK(tess_text_dump(p, good, &err), &err);
  static const BadCase cases[] = {
      {"conflict in rows", "levels/1/layer-1.rows", "1:0 .*62 1:0\n1:0 .*62 1:0\n",
       "1:0 .*62 1:0\n<<<<<<< ours\n1:0 .*62 1:0\n=======\n1:1 .*62 1:0\n>>>>>>> theirs\n", 2, "conflict marker"},
      {"conflict in json", "levels/1/level.json", "  \"width\": 64,\n", "<<<<<<< HEAD\n  \"width\": 64,\n=======\n  \"width\": 65,\n>>>>>>> b\n",
       4, "conflict marker"},
      {"short row", "levels/1/layer-1.rows", "1:0 .*62 1:0\n", "1:0 .*61 1:0\n", 1, "has 63 cells; the level is 64 wide"},
      {"long row", "levels/1/layer-1.rows", "1:0 .*62 1:0\n", "1:0 .*62 1:0 1:0\n", 1, "more than 64 cells"},
      {"unknown tile", "levels/1/layer-1.rows", "1:0 .*62 1:0\n", "1:0 .*62 1:99\n", 1, "unknown tile 99"},
      {"unknown tileset", "levels/1/layer-1.rows", "1:0 .*62 1:0\n", "1:0 .*62 7:1\n", 1, "unknown tileset 7"},
      {"not a cell", "levels/1/layer-1.rows", "1:0 .*62 1:0\n", "1:0 .*62 stone\n", 1, "not a cell"},
      {"missing row", "levels/1/layer-1.rows", "1:0 .*62 1:0\n", "", 36, "ends at row 35"},
      {"unknown material", "levels/1/objects/3.json", "\"material\": 4,", "\"material\": 999,", 0, "material 999 does not exist"},
      {"duplicate id (copied object)", "levels/1/objects/3.json", "COPY:levels/1/objects/99999.json", NULL, 2,
       "named for 99999"},
      {"duplicate id (two levels)", "levels/1/objects/3.json", "COPY:levels/2/objects/3.json", NULL, 2, "used twice"},
      {"missing image", "tilesets/1.png", NULL, NULL, 5, "the image tilesets/1.png is missing"},
      {"NaN", "levels/1/level.json", "\"ppm\": 32.0", "\"ppm\": NaN", 8, "invalid token"},
      {"out of range", "materials/1.json", "\"friction\": ", "\"friction\": -", 0, "friction"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const BadCase *c = &cases[i];
    char dir[1024], path[1400];
    tess_test_path(dir, sizeof dir, "bad");
    tf_copy_tree(good, dir);
    snprintf(path, sizeof path, "%s/%s", dir, c->file);
    if (c->what && !strncmp(c->what, "COPY:", 5)) {
      tess_test_system("cp '%s' '%s/%s'", path, dir, c->what + 5);
    } else if (!c->what) {
      CHECK(unlink(path) == 0);
    } else if (!c->with[0] && !strcmp(c->name, "missing row")) {
      /* Drop the last line. */
      size_t n;
      char *t = tf_read(path, &n);
      if (t && n > 1) {
        char *last = t + n - 2;
        while (last > t && *last != '\n') last--;
        last[1] = '\0';
        tf_write(path, t);
      }
      tess_free(t);
    } else {
      CHECK_MSG(tf_replace_in_file(path, c->what, c->with), "%s: the text to break is not in %s", c->name, c->file);
    }
    TessProject *out = (TessProject *)(uintptr_t)0x1;
    tess_error_clear(&err);
    TessResult r = tess_text_load(dir, NULL, &out, &err);
    CHECK_MSG(r != TESS_OK, "%s: loaded", c->name);
    CHECK_MSG(out == (TessProject *)(uintptr_t)0x1, "%s: *out written", c->name);
    char msg[1400];
    tess_error_format(&err, msg, sizeof msg);
    if (c->line) CHECK_MSG(err.place_kind == TESS_PLACE_LINE && err.place == c->line, "%s: %s (want line %u)", c->name, msg, c->line);
    CHECK_MSG(strstr(msg, c->detail) != NULL, "%s: %s", c->name, msg);
    const char *named = !strncmp(c->name, "duplicate id (copied", 20) ? "99999.json"
                        : !strncmp(c->name, "duplicate id (two", 17)  ? "levels/2/objects/3.json"
                        : !strcmp(c->name, "missing image")           ? "tilesets/1.json"
                                                                      : c->file;
    CHECK_MSG(strstr(err.file, named) != NULL, "%s: the error names %s, not %s", c->name, err.file, named);
  }
  tess_project_destroy(p);
}

/* ---- diff ---- */

typedef struct Lines {
  char text[8192];
  size_t len;
} Lines;

static void collect(const char *line, void *user) {
  Lines *l = user;
  int n = snprintf(l->text + l->len, sizeof l->text - l->len, "%s\n", line);
  if (n > 0 && l->len + (size_t)n < sizeof l->text) l->len += (size_t)n;
}

static void diff_says_what_changed_in_words(void) {
  TessProject *a = tf_load_demo(), *b = tf_load_demo();
  if (!a || !b) goto done;
  TessError err;
  Lines none = {.len = 0};
  CHECK(tess_project_diff(a, b, collect, &none) == 0);
  TessLevel *side = tess_project_level_by_name(b, "Side");
  TessLayer *ground = layer_named(side, "Ground");
  TessCell stamp[6];
  for (int i = 0; i < 6; i++) stamp[i] = TESS_CELL_MAKE(b->tilesets[0]->id, 9, 0);
  CHECK_OK(tess_edit_paint(b, side->id, ground->props.id, 20, 9, 3, 2, stamp, 0, &err), &err);
  TessMaterial m = b->materials[0];
  m.friction = 0.25f;
  CHECK_OK(tess_edit_material_set(b, &m, 0, &err), &err);
  TessLayer *objs = layer_named(side, "Objects");
  TessObject o = objs->objects[0];
  TessObject moved;
  tess_object_copy(&moved, &o);
  moved.pos.x += 32;
  CHECK_OK(tess_edit_object_set(b, side->id, &moved, 0, &err), &err);
  tess_object_clear(&moved);
  TessLevelSettings s;
  tess_level_settings_default(&s);
  snprintf(s.name, sizeof s.name, "Cave");
  CHECK_OK(tess_edit_level_add(b, &s, NULL, &err), &err);
  Lines l = {.len = 0};
  size_t n = tess_project_diff(a, b, collect, &l);
  CHECK(n == 4);
  char want[512];
  CHECK_MSG(strstr(l.text, "level 'Side': layer 'Ground': 6 cells changed in x 20..22, y 9..10"), "%s", l.text);
  snprintf(want, sizeof want, "material '%s' (id %u) changed: friction ", m.name, m.id);
  CHECK_MSG(strstr(l.text, want) && strstr(l.text, "-> 0.25"), "%s", l.text);
  snprintf(want, sizeof want, "(id %u) changed: position (", o.id);
  CHECK_MSG(strstr(l.text, want), "%s", l.text);
  CHECK_MSG(strstr(l.text, "level 'Cave' (id "), "%s", l.text);
  CHECK_MSG(strstr(l.text, ") added: "), "%s", l.text);
done:
  tess_project_destroy(a);
  tess_project_destroy(b);
}

/* ---- integrators and spring zones ---- */

/* An RK4 body and a spring zone round trip through a dump; the body's file says "rk4", an Euler
 * body's file has no "integrator" key at all (so older dumps keep their bytes), a word the model
 * does not know is refused naming the file and its line, and diff says what changed in words. */
static void integrator_and_spring_zone_round_trip(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  snprintf(o.name, sizeof o.name, "Bob");
  o.pos = tess_v2(100.0f, 60.0f);
  o.u.body.integrator = TESS_INTEGRATOR_RK4;
  TessId rk4 = 0, euler = 0, spring = 0;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &rk4, &err), &err);
  o.u.body.integrator = TESS_INTEGRATOR_EULER;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &euler, &err), &err);
  tess_object_default(&o, TESS_OBJECT_ZONE);
  snprintf(o.name, sizeof o.name, "Well");
  o.pos = tess_v2(100.0f, 160.0f);
  o.u.zone.kind = TESS_ZONE_SPRING;
  o.u.zone.strength = 1.0f / 3.0f;
  o.u.zone.radius = 80.0f;
  CHECK_OK(tess_edit_object_add(f.p, f.level, f.objects, &o, &spring, &err), &err);
  char dir[1024], path[1400];
  tess_test_path(dir, sizeof dir, "integrators");
  TessProject *back = dump_and_load(f.p, dir, 0);
  CHECK(back && tf_same_hashes(f.p, back));
  TessLevel *bl = back ? tess_project_level(back, f.level) : NULL;
  const TessObject *bo = bl ? tess_level_object(bl, rk4, NULL) : NULL;
  const TessObject *zo = bl ? tess_level_object(bl, spring, NULL) : NULL;
  CHECK(bo && bo->u.body.integrator == TESS_INTEGRATOR_RK4);
  CHECK(zo && zo->u.zone.kind == TESS_ZONE_SPRING && zo->u.zone.strength == 1.0f / 3.0f);
  snprintf(path, sizeof path, "%s/levels/%u/objects/%u.json", dir, f.level, rk4);
  char *text = tf_read(path, NULL);
  CHECK_MSG(text && strstr(text, "\"integrator\": \"rk4\""), "%s", text ? text : "(missing)");
  tess_free(text);
  snprintf(path, sizeof path, "%s/levels/%u/objects/%u.json", dir, f.level, euler);
  text = tf_read(path, NULL);
  CHECK(text && !strstr(text, "integrator"));
  tess_free(text);
  snprintf(path, sizeof path, "%s/levels/%u/objects/%u.json", dir, f.level, spring);
  text = tf_read(path, NULL);
  CHECK(text && strstr(text, "\"kind\": \"spring\""));
  tess_free(text);
  /* diff names the change */
  if (back) {
    TessObject e;
    CHECK_OK(tess_object_copy(&e, bo), &err);
    e.u.body.integrator = TESS_INTEGRATOR_EULER;
    CHECK_OK(tess_edit_object_set(back, f.level, &e, 0, &err), &err);
    tess_object_clear(&e);
    Lines l = {.len = 0};
    CHECK(tess_project_diff(f.p, back, collect, &l) == 1);
    CHECK_MSG(strstr(l.text, "integrator rk4 -> euler"), "%s", l.text);
  }
  tess_project_destroy(back);
  /* a word it does not know: refused, naming the file and the line */
  snprintf(path, sizeof path, "%s/levels/%u/objects/%u.json", dir, f.level, rk4);
  CHECK(tf_replace_in_file(path, "\"rk4\"", "\"verlet\""));
  TessProject *out = NULL;
  CHECK(tess_text_load(dir, NULL, &out, &err) == TESS_ERR_INVALID && out == NULL);
  char msg[1400];
  tess_error_format(&err, msg, sizeof msg);
  CHECK_MSG(strstr(err.file, "objects/") && err.place_kind == TESS_PLACE_LINE && err.place > 1 &&
                strstr(msg, "\"integrator\" is \"verlet\", not one of euler, rk4"),
            "%s", msg);
  fixture_free(&f);
}

TESS_TEST_MAIN(TEST(numbers_are_shortest_and_exact), TEST(demo_round_trips_exactly),
               TEST(random_projects_round_trip_exactly), TEST(brush_stroke_changes_only_its_rows),
               TEST(copies_loaded_with_different_salts_hand_out_different_ids),
               TEST(bad_dumps_are_refused_with_file_and_line), TEST(diff_says_what_changed_in_words),
               TEST(integrator_and_spring_zone_round_trip))
