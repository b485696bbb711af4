/* The scene as plain data: made, emptied, compared and hashed (the rules
 * are in tessera/scene.h; level and pack fill it). */
#include <stdio.h>
#include <string.h>

#include "scene_private.h"

TessScene *tess_scene_create(void) { return tess_calloc(1, sizeof(TessScene)); }

void tess_scene_material_default(TessSceneMaterial *m) {
  TessSurface s = tess_surface_default();
  memset(m, 0, sizeof *m);
  m->friction = s.friction;
  m->restitution = s.restitution;
  m->tangential = s.tangential;
  m->density = 1.0f;
  m->kind = TESS_MATERIAL_FLOOR;
}

void tess_scene_destroy(TessScene *s) {
  if (!s) return;
  tess_free(s->cell_kind);
  tess_free(s->cell_one_way);
  tess_free(s->cell_material);
  tess_free(s->piece_start);
  tess_free(s->pieces);
  tess_free(s->materials);
  tess_free(s->shapes);
  tess_free(s->bodies);
  tess_free(s->joints);
  tess_free(s->zones);
  tess_free(s->spawns);
  tess_free(s->launchers);
  tess_free(s->pixel_masks);
  tess_free(s->pixel_bits);
  tess_free(s);
}

/* ---- Equality and hash ------------------------------------------------- */

/* Every field in a fixed order, floats by bit pattern: one walk feeds both
 * the hash and the comparison. */
typedef struct Feed {
  TessHasher h;
  uint8_t *buf; /* when not NULL, the bytes are kept too (for equality) */
  size_t len, cap;
  bool failed;
} Feed;

static void f_bytes(Feed *f, const void *p, size_t n) {
  tess_hasher_bytes(&f->h, p, n);
  if (!f->buf && f->cap == 0) return;
  if (f->len + n > f->cap) {
    size_t c = f->cap * 2 + n;
    uint8_t *nb = tess_realloc(f->buf, c);
    if (!nb) {
      f->failed = true;
      return;
    }
    f->buf = nb;
    f->cap = c;
  }
  if (n == 0) return; /* p may be NULL (an empty array) */
  memcpy(f->buf + f->len, p, n);
  f->len += n;
}
static void f_u32(Feed *f, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  f_bytes(f, b, 4);
}
static void f_f32(Feed *f, float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  f_u32(f, u);
}
static void f_v2(Feed *f, TessVec2 v) {
  f_f32(f, v.x);
  f_f32(f, v.y);
}
static void f_str(Feed *f, const char *s) {
  size_t n = strlen(s);
  f_u32(f, (uint32_t)n);
  f_bytes(f, s, n);
}

static void feed_scene(Feed *f, const TessScene *s) {
  f_u32(f, s->width);
  f_u32(f, s->height);
  f_f32(f, s->cell_w);
  f_f32(f, s->cell_h);
  f_f32(f, s->ppm);
  f_v2(f, s->gravity);
  f_u32(f, s->view);
  f_f32(f, s->physics_hz);
  f_u32(f, s->substeps);
  f_f32(f, s->floor_drag);
  size_t n = (size_t)s->width * s->height;
  for (size_t i = 0; i < n; i++) {
    f_u32(f, s->cell_kind ? s->cell_kind[i] : 0);
    f_u32(f, s->cell_one_way ? s->cell_one_way[i] : 0);
    f_u32(f, s->cell_material ? s->cell_material[i] : 0);
    uint32_t a = s->piece_start ? s->piece_start[i] : 0, b = s->piece_start ? s->piece_start[i + 1] : 0;
    f_u32(f, b - a);
    for (uint32_t k = a; k < b && k < s->piece_count; k++) {
      f_u32(f, s->pieces[k].count);
      for (uint32_t j = 0; j < s->pieces[k].count && j < TESS_POLY_MAX; j++) f_v2(f, s->pieces[k].v[j]);
    }
  }
  f_u32(f, s->material_count);
  for (uint32_t i = 0; i < s->material_count; i++) {
    const TessSceneMaterial *m = &s->materials[i];
    f_u32(f, m->id);
    f_f32(f, m->friction);
    f_f32(f, m->restitution);
    f_f32(f, m->tangential);
    f_f32(f, m->density);
    f_u32(f, m->kind);
  }
  f_u32(f, s->shape_count);
  for (uint32_t i = 0; i < s->shape_count; i++) {
    const TessSceneShape *sh = &s->shapes[i];
    f_u32(f, sh->type);
    f_u32(f, sh->count);
    f_f32(f, sh->radius);
    for (uint32_t j = 0; j < sh->count && j < TESS_POLY_MAX; j++) f_v2(f, sh->v[j]);
  }
  f_u32(f, s->body_count);
  for (uint32_t i = 0; i < s->body_count; i++) {
    const TessSceneBody *b = &s->bodies[i];
    f_u32(f, b->object);
    f_u32(f, b->type);
    f_u32(f, b->sensor);
    f_u32(f, b->pin);
    f_u32(f, b->has_mass);
    f_u32(f, b->integrator);
    f_v2(f, b->position);
    f_f32(f, b->angle);
    f_u32(f, b->material);
    f_u32(f, b->category);
    f_u32(f, b->mask);
    f_u32(f, b->first_shape);
    f_u32(f, b->shape_count);
    f_f32(f, b->mass);
    f_v2(f, b->local_center);
    f_f32(f, b->inertia);
  }
  f_u32(f, s->joint_count);
  for (uint32_t i = 0; i < s->joint_count; i++) {
    const TessSceneJoint *j = &s->joints[i];
    f_u32(f, j->object);
    f_u32(f, j->kind);
    f_u32(f, j->limit_enabled);
    f_u32(f, j->from_overlap);
    f_u32(f, (uint32_t)j->body_a);
    f_u32(f, (uint32_t)j->body_b);
    f_v2(f, j->anchor_a);
    f_v2(f, j->anchor_b);
    f_f32(f, j->length);
    f_f32(f, j->lower);
    f_f32(f, j->upper);
    f_u32(f, j->motor_enabled);
    f_f32(f, j->motor_speed);
    f_f32(f, j->motor_torque);
  }
  f_u32(f, s->zone_count);
  for (uint32_t i = 0; i < s->zone_count; i++) {
    const TessSceneZone *z = &s->zones[i];
    f_u32(f, z->object);
    f_u32(f, z->kind);
    f_v2(f, z->center);
    f_f32(f, z->width);
    f_f32(f, z->height);
    f_f32(f, z->angle);
    f_v2(f, z->vector);
    f_f32(f, z->strength);
    f_f32(f, z->radius);
  }
  f_u32(f, s->spawn_count);
  for (uint32_t i = 0; i < s->spawn_count; i++) {
    f_u32(f, s->spawns[i].object);
    f_str(f, s->spawns[i].name);
    f_v2(f, s->spawns[i].position);
  }
  /* Only when there are some: a scene without launchers hashes as before they existed. */
  if (s->launcher_count) f_u32(f, s->launcher_count);
  for (uint32_t i = 0; i < s->launcher_count; i++) {
    const TessSceneLauncher *l = &s->launchers[i];
    f_u32(f, l->object);
    f_str(f, l->name);
    f_v2(f, l->position);
    f_f32(f, l->speed);
    f_f32(f, l->radius);
    f_u32(f, l->material);
    f_u32(f, l->sprite);
  }
  if (s->pixel_mask_count) f_u32(f, s->pixel_mask_count); /* scenes without masks hash as they always did */
  for (uint32_t i = 0; i < s->pixel_mask_count; i++) {
    const TessScenePixelMask *m = &s->pixel_masks[i];
    f_u32(f, m->layer);
    if (m->body) f_u32(f, 0x424F4459u ^ m->body); /* "BODY": layers' masks hash as before */
    f_u32(f, m->width);
    f_u32(f, m->height);
    f_f32(f, m->pixel_size);
    f_v2(f, m->origin);
    f_u32(f, m->material);
    uint64_t nb = tess_scene_pixel_mask_bytes(m);
    if (s->pixel_bits && m->bits_offset <= s->pixel_bits_size && nb <= s->pixel_bits_size - m->bits_offset)
      f_bytes(f, s->pixel_bits + m->bits_offset, (size_t)nb); /* the bits, not where they sit */
  }
}

uint64_t tess_scene_hash(const TessScene *s) {
  Feed f;
  memset(&f, 0, sizeof f);
  tess_hasher_init(&f.h);
  feed_scene(&f, s);
  return tess_hasher_finish(&f.h);
}

bool tess_scene_equal(const TessScene *a, const TessScene *b) {
  if (a == b) return true;
  if (!a || !b) return false;
  Feed fa, fb;
  memset(&fa, 0, sizeof fa);
  memset(&fb, 0, sizeof fb);
  fa.cap = fb.cap = 1; /* keep the bytes */
  tess_hasher_init(&fa.h);
  tess_hasher_init(&fb.h);
  feed_scene(&fa, a);
  feed_scene(&fb, b);
  bool eq = !fa.failed && !fb.failed && fa.len == fb.len && memcmp(fa.buf, fb.buf, fa.len) == 0;
  if (fa.failed || fb.failed) eq = tess_hasher_finish(&fa.h) == tess_hasher_finish(&fb.h); /* out of memory: the hash decides */
  tess_free(fa.buf);
  tess_free(fb.buf);
  return eq;
}
