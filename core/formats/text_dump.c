/* tess_text_dump: the project as a directory of text files (layout in
 * TEXTFORM.md). Everything is written in a fixed order with fixed key
 * order and shortest round-trip numbers, and nothing that changes without
 * an edit (no time, no counters), so two dumps of one project are the same
 * bytes and an edit changes only the lines it touched. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats_text.h"

typedef struct Dump {
  const char *dir;
  TessError *err;
  TESS_ARRAY(char *)
  written; /* relative paths of this dump's files */
} Dump;

/* ---- files ---- */

static TessResult make_dirs(const char *path, TessError *err) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *s = buf + 1; *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
      return tess_error_set(err, TESS_ERR_IO, buf, "cannot create the directory: %s", strerror(errno));
    *s = '/';
  }
  if (mkdir(buf, 0777) != 0 && errno != EEXIST)
    return tess_error_set(err, TESS_ERR_IO, buf, "cannot create the directory: %s", strerror(errno));
  return TESS_OK;
}

/* True when the file at `path` holds exactly these bytes. */
static bool same_bytes(const char *path, const void *data, size_t size) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != size) return false;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return false;
  bool same = true;
  char buf[65536];
  size_t at = 0;
  while (same && at < size) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) {
      same = false;
      break;
    }
    same = at + (size_t)n <= size && memcmp(buf, (const char *)data + at, (size_t)n) == 0;
    at += (size_t)n;
  }
  close(fd);
  return same && at == size;
}

/* Writes rel (under the dump) unless it already holds these bytes; a new
 * file goes under a temporary name and is renamed, so a reader never sees
 * half of one. */
static TessResult put_file(Dump *d, const char *rel, const void *data, size_t size) {
  char *copy = tess_strdup(rel);
  if (!copy || !TESS_ARRAY_PUSH(&d->written, copy)) {
    tess_free(copy);
    return tess_error_set(d->err, TESS_ERR_NOMEM, d->dir, "out of memory");
  }
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/%s", d->dir, rel);
  if (same_bytes(path, data, size)) return TESS_OK;
  char *slash = strrchr(path, '/');
  *slash = '\0';
  TessResult r = make_dirs(path, d->err);
  *slash = '/';
  if (r) return r;
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) return tess_error_set(d->err, TESS_ERR_IO, path, "cannot write: %s", strerror(errno));
  bool ok = fwrite(data, 1, size, f) == size;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    int e = errno;
    unlink(tmp);
    return tess_error_set(d->err, TESS_ERR_IO, path, "cannot write: %s", strerror(e));
  }
  return TESS_OK;
}

static TessResult put_buf(Dump *d, const char *rel, TextBuf *b) {
  if (b->failed) return tess_error_set(d->err, TESS_ERR_NOMEM, rel, "out of memory");
  return put_file(d, rel, b->data ? b->data : "", b->len);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool is_ours(const char *name) {
  size_t n = strlen(name);
  return (n > 5 && !strcmp(name + n - 5, ".json")) || (n > 4 && !strcmp(name + n - 4, ".png")) ||
         (n > 5 && !strcmp(name + n - 5, ".rows"));
}

/* Removes files of an earlier dump that this one did not write (a removed
 * level, object, sprite...), then the directories they leave empty. */
static void remove_stale(Dump *d, const char *rel) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", d->dir, rel);
  DIR *dh = opendir(path);
  if (!dh) return;
  struct dirent *e;
  while ((e = readdir(dh))) {
    if (e->d_name[0] == '.') continue;
    char child[4096], full[8192];
    snprintf(child, sizeof child, "%s/%s", rel, e->d_name);
    snprintf(full, sizeof full, "%s/%s", d->dir, child);
    struct stat st;
    if (lstat(full, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      remove_stale(d, child);
      rmdir(full); /* only when empty */
    } else if (is_ours(e->d_name)) {
      char *key = child;
      if (!bsearch(&key, d->written.data, d->written.count, sizeof(char *), cmp_str)) unlink(full);
    }
  }
  closedir(dh);
}

/* ---- JSON pieces ---- */

static void put_polygon(TextBuf *b, const TessPolygon *poly) {
  text_write_open(b, NULL, '[', true);
  uint32_t n = poly->count <= TESS_POLY_MAX ? poly->count : TESS_POLY_MAX;
  for (uint32_t i = 0; i < n; i++) {
    text_write_key_f32(b, NULL, poly->v[i].x);
    text_write_key_f32(b, NULL, poly->v[i].y);
  }
  text_write_close(b);
}

static void put_polygons(TextBuf *b, const char *key, const TessPolygon *polys, uint32_t count, bool flat) {
  text_write_open(b, key, '[', flat);
  for (uint32_t i = 0; polys && i < count; i++) put_polygon(b, &polys[i]);
  text_write_close(b);
}

static TessResult dump_material(Dump *d, const TessMaterial *m) {
  TextBuf b = {0};
  text_write_open(&b, NULL, '{', false);
  text_write_key_u32(&b, "id", m->id);
  text_write_key_str(&b, "name", m->name);
  text_write_key_str(&b, "kind", TEXT_WORD(TEXT_MATERIAL_KINDS, m->kind));
  text_write_key_color(&b, "color", m->color);
  text_write_key_f32(&b, "friction", m->friction);
  text_write_key_f32(&b, "restitution", m->restitution);
  text_write_key_f32(&b, "tangential", m->tangential);
  text_write_key_f32(&b, "density", m->density);
  text_write_close(&b);
  char rel[256];
  text_path_material(rel, sizeof rel, m->id);
  TessResult r = put_buf(d, rel, &b);
  text_write_free(&b);
  return r;
}

static TessResult dump_tileset(Dump *d, const TessTileset *ts) {
  char rel[256], png[64];
  snprintf(png, sizeof png, "%" PRIu32 ".png", ts->id);
  TextBuf b = {0};
  text_write_open(&b, NULL, '{', false);
  text_write_key_u32(&b, "id", ts->id);
  text_write_key_str(&b, "name", ts->name);
  text_write_key_str(&b, "source", ts->source_path);
  text_write_key_str(&b, "image", ts->png_size ? png : NULL);
  text_write_key_u32(&b, "image_w", ts->image_w);
  text_write_key_u32(&b, "image_h", ts->image_h);
  text_write_key_u32(&b, "tile_w", ts->tile_w);
  text_write_key_u32(&b, "tile_h", ts->tile_h);
  text_write_key_u32(&b, "margin", ts->margin);
  text_write_key_u32(&b, "spacing", ts->spacing);
  text_write_key_u32(&b, "columns", ts->columns);
  text_write_key_u32(&b, "tile_count", ts->tile_count);
  text_write_key_u32(&b, "alpha_threshold", ts->alpha_threshold);
  /* Where tiles are drawn, only when not the default (older dumps stay as they were). */
  if (ts->offset_x || ts->offset_y) text_write_key_vec(&b, "offset", tess_v2((float)ts->offset_x, (float)ts->offset_y));
  if (ts->fit_cell) text_write_key_bool(&b, "fit_cell", true);
  text_write_open(&b, "tiles", '[', false);
  for (uint32_t i = 0; ts->tiles && i < ts->tile_count; i++) {
    const TessTileInfo *t = &ts->tiles[i];
    text_write_open(&b, NULL, '{', true);
    text_write_key_u32(&b, "tile", i);
    text_write_key_u32(&b, "material", t->material);
    text_write_key_str(&b, "collision", TEXT_WORD(TEXT_TILE_COLLISIONS, t->collision));
    text_write_key_bool(&b, "one_way", t->one_way);
    put_polygons(&b, "pieces", t->pieces, t->piece_count, true);
    text_write_close(&b);
  }
  text_write_close(&b);
  text_dump_terrains(&b, ts);
  text_write_close(&b);
  text_path_tileset(rel, sizeof rel, ts->id, "json");
  TessResult r = put_buf(d, rel, &b);
  text_write_free(&b);
  if (r == TESS_OK && ts->png_size) {
    text_path_tileset(rel, sizeof rel, ts->id, "png");
    r = put_file(d, rel, ts->png, ts->png_size);
  }
  return r;
}

static void put_dvec(TextBuf *b, const char *key, double x, double y) {
  text_write_open(b, key, '[', true);
  text_write_key_f64(b, NULL, x);
  text_write_key_f64(b, NULL, y);
  text_write_close(b);
}

static TessResult dump_sprite(Dump *d, const TessSprite *s) {
  char rel[256], png[64];
  snprintf(png, sizeof png, "%" PRIu32 ".png", s->id);
  TextBuf b = {0};
  text_write_open(&b, NULL, '{', false);
  text_write_key_u32(&b, "id", s->id);
  text_write_key_str(&b, "name", s->name);
  text_write_key_str(&b, "source", s->source_path);
  text_write_key_str(&b, "image", s->png_size ? png : NULL);
  text_write_key_u32(&b, "image_w", s->image_w);
  text_write_key_u32(&b, "image_h", s->image_h);
  text_write_key_u32(&b, "frame_count", s->frame_count);
  text_write_key_f32(&b, "frame_rate", s->frame_rate);
  text_write_key_vec(&b, "anchor", s->anchor);
  const TessSpriteMask *m = &s->mask;
  text_write_open(&b, "mask", '{', false);
  text_write_key_u32(&b, "threshold", m->threshold);
  text_write_key_str(&b, "mode", TEXT_WORD(TEXT_MASK_MODES, m->mode));
  text_write_key_bool(&b, "manual", m->manual);
  text_write_key_bool(&b, "largest_island_only", m->largest_island_only);
  text_write_key_u32(&b, "max_vertices", m->max_vertices);
  text_write_key_f32(&b, "tolerance", m->tolerance);
  text_write_open(&b, "hull", '[', true);
  for (uint32_t i = 0; m->hull && i < m->hull_count; i++) {
    text_write_key_f32(&b, NULL, m->hull[i].x);
    text_write_key_f32(&b, NULL, m->hull[i].y);
  }
  text_write_close(&b);
  put_polygons(&b, "pieces", m->pieces, m->piece_count, false);
  text_write_key_vec(&b, "circle_center", m->circle_center);
  text_write_key_f32(&b, "circle_radius", m->circle_radius);
  text_write_key_f64(&b, "area", m->area);
  put_dvec(&b, "centroid", m->centroid_x, m->centroid_y);
  text_write_key_f64(&b, "inertia", m->inertia);
  text_write_key_f64(&b, "shape_area", m->shape_area);
  put_dvec(&b, "shape_centroid", m->shape_centroid_x, m->shape_centroid_y);
  text_write_key_f64(&b, "shape_inertia", m->shape_inertia);
  text_write_key_f64(&b, "added_area", m->added_area);
  text_write_key_f64(&b, "uncovered_area", m->uncovered_area);
  text_write_close(&b);
  text_write_close(&b);
  text_path_sprite(rel, sizeof rel, s->id, "json");
  TessResult r = put_buf(d, rel, &b);
  text_write_free(&b);
  if (r == TESS_OK && s->png_size) {
    text_path_sprite(rel, sizeof rel, s->id, "png");
    r = put_file(d, rel, s->png, s->png_size);
  }
  return r;
}

static void put_props(TextBuf *b, const TessObject *o) {
  text_write_open(b, "properties", '[', false);
  for (uint32_t i = 0; o->props && i < o->prop_count; i++) {
    const TessProperty *pr = &o->props[i];
    text_write_open(b, NULL, '{', true);
    text_write_key_str(b, "name", pr->name);
    text_write_key_str(b, "type", TEXT_WORD(TEXT_PROP_TYPES, pr->type));
    switch (pr->type) {
      case TESS_PROP_STRING: text_write_key_str(b, "value", pr->v.s ? pr->v.s : ""); break;
      case TESS_PROP_INT: text_write_key_int(b, "value", pr->v.i); break;
      case TESS_PROP_FLOAT: text_write_key_f64(b, "value", pr->v.f); break;
      case TESS_PROP_BOOL: text_write_key_bool(b, "value", pr->v.b); break;
      case TESS_PROP_COLOR: text_write_key_color(b, "value", pr->v.color); break;
      default: break;
    }
    text_write_close(b);
  }
  text_write_close(b);
}

static TessResult dump_object(Dump *d, const TessLevel *level, const TessLayer *layer, const TessObject *o) {
  TextBuf b = {0};
  text_write_open(&b, NULL, '{', false);
  text_write_key_u32(&b, "id", o->id);
  text_write_key_u32(&b, "layer", layer->props.id);
  text_write_key_str(&b, "kind", TEXT_WORD(TEXT_OBJECT_KINDS, o->kind));
  text_write_key_str(&b, "name", o->name);
  text_write_key_vec(&b, "pos", o->pos);
  text_write_key_f32(&b, "angle", o->angle);
  if (o->depth) text_write_key_int(&b, "depth", o->depth); /* only when set: older files stay as they were */
  if (o->kind == TESS_OBJECT_BODY) {
    const TessBodyObject *bo = &o->u.body;
    text_write_open(&b, "body", '{', false);
    text_write_key_str(&b, "shape", TEXT_WORD(TEXT_BODY_SHAPES, bo->shape));
    text_write_key_str(&b, "type", TEXT_WORD(TEXT_BODY_TYPES, bo->type));
    text_write_key_str(&b, "pin", TEXT_WORD(TEXT_PIN_MODES, bo->pin));
    text_write_key_bool(&b, "sensor", bo->sensor);
    text_write_key_u32(&b, "sprite", bo->sprite);
    text_write_key_u32(&b, "material", bo->material);
    text_write_key_f32(&b, "radius", bo->radius);
    text_write_key_f32(&b, "width", bo->width);
    text_write_key_f32(&b, "height", bo->height);
    text_write_key_u32(&b, "category", bo->category);
    text_write_key_u32(&b, "mask", bo->mask);
    /* written only when not the default, so dumps made before integrators stay byte for byte */
    if (bo->integrator != TESS_INTEGRATOR_EULER)
      text_write_key_str(&b, "integrator", TEXT_WORD(TEXT_INTEGRATORS, bo->integrator));
    if (bo->collide_pixels) text_write_key_bool(&b, "collide_pixels", true); /* likewise, only when set */
    text_write_close(&b);
  } else if (o->kind == TESS_OBJECT_JOINT) {
    const TessJointObject *j = &o->u.joint;
    text_write_open(&b, "joint", '{', false);
    text_write_key_str(&b, "kind", TEXT_WORD(TEXT_JOINT_KINDS, j->kind));
    text_write_key_u32(&b, "body_a", j->body_a);
    text_write_key_u32(&b, "body_b", j->body_b);
    text_write_key_vec(&b, "anchor_b", j->anchor_b);
    text_write_key_f32(&b, "length", j->length);
    text_write_key_bool(&b, "limit", j->limit_enabled);
    text_write_key_f32(&b, "lower", j->lower);
    text_write_key_f32(&b, "upper", j->upper);
    text_write_key_bool(&b, "motor", j->motor_enabled);
    text_write_key_f32(&b, "motor_speed", j->motor_speed);
    text_write_key_f32(&b, "motor_torque", j->motor_torque);
    text_write_close(&b);
  } else if (o->kind == TESS_OBJECT_ZONE) {
    const TessZoneObject *z = &o->u.zone;
    text_write_open(&b, "zone", '{', false);
    text_write_key_str(&b, "kind", TEXT_WORD(TEXT_ZONE_KINDS, z->kind));
    text_write_key_f32(&b, "width", z->width);
    text_write_key_f32(&b, "height", z->height);
    text_write_key_vec(&b, "vector", z->vector);
    text_write_key_f32(&b, "strength", z->strength);
    text_write_key_f32(&b, "radius", z->radius);
    text_write_close(&b);
  } else if (o->kind == TESS_OBJECT_LAUNCHER) {
    const TessLauncherObject *l = &o->u.launcher;
    text_write_open(&b, "launcher", '{', false);
    text_write_key_f32(&b, "speed", l->speed);
    text_write_key_f32(&b, "radius", l->radius);
    text_write_key_u32(&b, "material", l->material);
    text_write_key_u32(&b, "sprite", l->sprite);
    text_write_close(&b);
  }
  put_props(&b, o);
  text_write_close(&b);
  char rel[256];
  text_path_object(rel, sizeof rel, level->id, o->id);
  TessResult r = put_buf(d, rel, &b);
  text_write_free(&b);
  return r;
}

/* One line per row: tokens separated by spaces, a run of equal cells as
 * TOKEN*N. Cells are read a chunk row at a time. */
static TessResult dump_rows(Dump *d, const TessLevel *level, const TessLayer *layer) {
  const uint32_t w = level->settings.width, h = level->settings.height;
  bool material = layer->props.kind == TESS_LAYER_MATERIAL;
  TextBuf b = {0};
  uint32_t *row = tess_calloc((size_t)layer->chunks_x * TESS_CHUNK_SIZE + 1, sizeof *row);
  if (!row) return tess_error_set(d->err, TESS_ERR_NOMEM, d->dir, "out of memory");
  char line_small[64];
  for (uint32_t y = 0; y < h; y++) {
    uint32_t cy = y / TESS_CHUNK_SIZE, iy = y % TESS_CHUNK_SIZE;
    for (uint32_t cx = 0; cx < layer->chunks_x; cx++) {
      const TessChunk *c = layer->chunks ? layer->chunks[(size_t)cy * layer->chunks_x + cx] : NULL;
      if (c) memcpy(row + cx * TESS_CHUNK_SIZE, c->cells + iy * TESS_CHUNK_SIZE, TESS_CHUNK_SIZE * sizeof *row);
      else memset(row + cx * TESS_CHUNK_SIZE, 0, TESS_CHUNK_SIZE * sizeof *row);
    }
    uint32_t x = 0;
    while (x < w) {
      uint32_t run = 1;
      while (x + run < w && row[x + run] == row[x]) run++;
      int n = 0;
      if (x) line_small[n++] = ' ';
      n += text_cell_token(row[x], material, line_small + n);
      if (run > 1) n += snprintf(line_small + n, sizeof line_small - (size_t)n, "*%" PRIu32, run);
      text_write_raw(&b, line_small, (size_t)n);
      x += run;
    }
    text_write_raw(&b, "\n", 1);
  }
  tess_free(row);
  char rel[256];
  text_path_rows(rel, sizeof rel, level->id, layer->props.id);
  TessResult r = put_buf(d, rel, &b);
  text_write_free(&b);
  return r;
}

static bool objects_in_id_order(const TessLayer *layer) {
  for (uint32_t i = 1; i < layer->object_count; i++)
    if (layer->objects[i].id <= layer->objects[i - 1].id) return false;
  return true;
}

static TessResult dump_level(Dump *d, const TessLevel *level) {
  const TessLevelSettings *s = &level->settings;
  TextBuf b = {0};
  text_write_open(&b, NULL, '{', false);
  text_write_key_u32(&b, "id", level->id);
  text_write_key_str(&b, "name", s->name);
  text_write_key_u32(&b, "width", s->width);
  text_write_key_u32(&b, "height", s->height);
  text_write_key_u32(&b, "tile_w", s->tile_w);
  text_write_key_u32(&b, "tile_h", s->tile_h);
  text_write_key_f32(&b, "ppm", s->ppm);
  text_write_key_vec(&b, "gravity", s->gravity);
  text_write_key_str(&b, "view", TEXT_WORD(TEXT_VIEWS, s->view));
  text_write_key_f32(&b, "physics_hz", s->physics_hz);
  text_write_key_u32(&b, "substeps", s->substeps);
  text_write_key_f32(&b, "floor_drag", s->floor_drag);
  /* Bottom to top, one layer a line: a reorder moves lines. */
  text_write_open(&b, "layers", '[', false);
  for (uint32_t i = 0; i < level->layer_count; i++) {
    const TessLayer *layer = level->layers[i];
    const TessLayerProps *pr = &layer->props;
    text_write_open(&b, NULL, '{', true);
    text_write_key_u32(&b, "id", pr->id);
    text_write_key_str(&b, "name", pr->name);
    text_write_key_str(&b, "kind", TEXT_WORD(TEXT_LAYER_KINDS, pr->kind));
    text_write_key_bool(&b, "visible", pr->visible);
    text_write_key_bool(&b, "locked", pr->locked);
    text_write_key_bool(&b, "collides", pr->collides);
    if (pr->collide_pixels) text_write_key_bool(&b, "collide_pixels", true); /* optional: older files load as before */
    text_write_key_f32(&b, "opacity", pr->opacity);
    if (pr->y_sort) text_write_key_bool(&b, "sort_by_y", true); /* only when set */
    if (pr->kind != TESS_LAYER_OBJECTS) {
      char rows[64];
      snprintf(rows, sizeof rows, "layer-%" PRIu32 ".rows", pr->id);
      text_write_key_str(&b, "cells", rows);
    }
    /* Objects load in id order; only a layer whose order differs says so. */
    if (!objects_in_id_order(layer)) {
      text_write_open(&b, "object_order", '[', true);
      for (uint32_t k = 0; k < layer->object_count; k++) text_write_key_u32(&b, NULL, layer->objects[k].id);
      text_write_close(&b);
    }
    text_write_close(&b);
  }
  text_write_close(&b);
  text_write_close(&b);
  char rel[256];
  text_path_level(rel, sizeof rel, level->id);
  TessResult r = put_buf(d, rel, &b);
  text_write_free(&b);
  for (uint32_t i = 0; r == TESS_OK && i < level->layer_count; i++) {
    const TessLayer *layer = level->layers[i];
    if (layer->props.kind != TESS_LAYER_OBJECTS) r = dump_rows(d, level, layer);
    for (uint32_t k = 0; r == TESS_OK && k < layer->object_count; k++) r = dump_object(d, level, layer, &layer->objects[k]);
  }
  return r;
}

static TessResult dump_top(Dump *d, const TessProject *p) {
  bool ordered = true;
  for (uint32_t i = 1; i < p->level_count; i++) ordered = ordered && p->levels[i]->id > p->levels[i - 1]->id;
  TextBuf b = {0};
  text_write_open(&b, NULL, '{', false);
  text_write_key_str(&b, "format", "tessera-text");
  text_write_key_u32(&b, "version", TESS_TEXTFORM_VERSION);
  if (!ordered) {
    text_write_open(&b, "level_order", '[', true);
    for (uint32_t i = 0; i < p->level_count; i++) text_write_key_u32(&b, NULL, p->levels[i]->id);
    text_write_close(&b);
  }
  text_write_close(&b);
  TessResult r = put_buf(d, TESS_TEXTFORM_MARKER, &b);
  text_write_free(&b);
  return r;
}

/* A directory we may write into: missing, empty, or an earlier dump. */
static TessResult check_target(const char *dir, TessError *err) {
  DIR *dh = opendir(dir);
  if (!dh) return errno == ENOENT ? TESS_OK : tess_error_set(err, TESS_ERR_IO, dir, "cannot open: %s", strerror(errno));
  bool empty = true;
  struct dirent *e;
  while ((e = readdir(dh))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    empty = false;
  }
  closedir(dh);
  char marker[4200];
  snprintf(marker, sizeof marker, "%s/%s", dir, TESS_TEXTFORM_MARKER);
  if (!empty && access(marker, F_OK) != 0)
    return tess_error_set(err, TESS_ERR_INVALID, dir,
                          "the directory is not empty and holds no " TESS_TEXTFORM_MARKER ": not a dump to overwrite");
  return TESS_OK;
}

TessResult tess_text_dump(const TessProject *p, const char *dir, TessError *err) {
  TessResult r = check_target(dir, err);
  if (r == TESS_OK) r = make_dirs(dir, err);
  if (r) return r;
  TextLocale loc;
  text_locale_push(&loc);
  Dump d = {dir, err, {0}};
  r = dump_top(&d, p);
  for (uint32_t i = 0; r == TESS_OK && i < p->material_count; i++) r = dump_material(&d, &p->materials[i]);
  for (uint32_t i = 0; r == TESS_OK && i < p->tileset_count; i++) r = dump_tileset(&d, p->tilesets[i]);
  for (uint32_t i = 0; r == TESS_OK && i < p->sprite_count; i++) r = dump_sprite(&d, p->sprites[i]);
  for (uint32_t i = 0; r == TESS_OK && i < p->level_count; i++) r = dump_level(&d, p->levels[i]);
  if (r == TESS_OK) {
    qsort(d.written.data, d.written.count, sizeof(char *), cmp_str);
    static const char *const subdirs[] = {"materials", "tilesets", "sprites", "levels"};
    for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) remove_stale(&d, subdirs[i]);
  }
  for (size_t i = 0; i < d.written.count; i++) tess_free(d.written.data[i]);
  TESS_ARRAY_FREE(&d.written);
  text_locale_pop(&loc);
  return r;
}
