/* Pin on overlap (the SLRBS car and ragdoll demos): bodies placed
 * overlapping, one of them with a pin mode, are joined by a pin at the
 * smaller body's centre of mass or at the centre of their overlap. The
 * overlap is exact for polygons (convex clipping); circles and capsule ends
 * are polygonised finely enough for a placement point. */
#include <string.h>

#include "scene_private.h"

#define OUT_MAX 64
#define PI_F 3.14159265358979f

typedef struct Outline {
  TessVec2 v[OUT_MAX];
  uint32_t n;
} Outline;

static void shape_outline(const TessSceneShape *sh, TessTransform xf, Outline *o) {
  o->n = 0;
  if (sh->type == TESS_SHAPE_CIRCLE) {
    for (uint32_t i = 0; i < 32; i++) {
      float a = 2.0f * PI_F * (float)i / 32.0f;
      o->v[o->n++] = tess_transform_point(xf, tess_v2(sh->v[0].x + sh->radius * cosf(a), sh->v[0].y + sh->radius * sinf(a)));
    }
  } else if (sh->type == TESS_SHAPE_CAPSULE) {
    TessVec2 axis = tess_v2_normalize(tess_v2_sub(sh->v[1], sh->v[0]));
    float base = atan2f(axis.y, axis.x);
    for (uint32_t e = 0; e < 2; e++)
      for (uint32_t i = 0; i <= 12; i++) {
        float a = base - 0.5f * PI_F + (float)e * PI_F + PI_F * (float)i / 12.0f;
        TessVec2 c = sh->v[e == 0 ? 1 : 0];
        o->v[o->n++] = tess_transform_point(xf, tess_v2(c.x + sh->radius * cosf(a), c.y + sh->radius * sinf(a)));
      }
  } else {
    for (uint32_t i = 0; i < sh->count && i < TESS_POLY_MAX; i++) o->v[o->n++] = tess_transform_point(xf, sh->v[i]);
  }
}

static double signed_area(const TessVec2 *v, uint32_t n) {
  double a = 0.0;
  for (uint32_t i = 0; i < n; i++) a += (double)v[i].x * v[(i + 1) % n].y - (double)v[(i + 1) % n].x * v[i].y;
  return 0.5 * a;
}

static double poly_area_centroid(const TessVec2 *v, uint32_t n, TessVec2 *c) {
  double a = 0.0, cx = 0.0, cy = 0.0;
  for (uint32_t i = 0; i < n; i++) {
    TessVec2 p = v[i], q = v[(i + 1) % n];
    double cr = (double)p.x * q.y - (double)q.x * p.y;
    a += cr;
    cx += (p.x + q.x) * cr;
    cy += (p.y + q.y) * cr;
  }
  a *= 0.5;
  if (a == 0.0) return 0.0;
  *c = tess_v2((float)(cx / (6.0 * a)), (float)(cy / (6.0 * a)));
  return a < 0.0 ? -a : a;
}

/* Convex subject clipped by a convex clip polygon. */
static uint32_t clip_convex(const Outline *subject, const Outline *clip, TessVec2 *out) {
  TessVec2 a[OUT_MAX * 2], b[OUT_MAX * 2];
  uint32_t n = subject->n;
  memcpy(a, subject->v, n * sizeof *a);
  double sign = signed_area(clip->v, clip->n) >= 0.0 ? 1.0 : -1.0;
  for (uint32_t e = 0; e < clip->n && n > 0; e++) {
    TessVec2 p = clip->v[e], q = clip->v[(e + 1) % clip->n];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k + 2 < OUT_MAX * 2; i++) {
      TessVec2 s = a[i], t = a[(i + 1) % n];
      double ds = sign * tess_v2_cross(tess_v2_sub(q, p), tess_v2_sub(s, p));
      double dt = sign * tess_v2_cross(tess_v2_sub(q, p), tess_v2_sub(t, p));
      if (ds >= 0.0) b[k++] = s;
      if ((ds >= 0.0) != (dt >= 0.0)) b[k++] = tess_v2_lerp(s, t, (float)(ds / (ds - dt)));
    }
    n = k;
    memcpy(a, b, n * sizeof *a);
  }
  memcpy(out, a, n * sizeof *out);
  return n;
}

static TessTransform body_xf(const TessSceneBody *b) {
  TessTransform xf = {b->position, tess_rot(b->angle)};
  return xf;
}

/* Mass (area * density when not set) and world centre of mass. */
static double body_mass(const TessScene *s, const TessSceneBody *b, TessVec2 *center) {
  TessTransform xf = body_xf(b);
  if (b->has_mass) {
    *center = tess_transform_point(xf, b->local_center);
    return b->mass;
  }
  double area = 0.0, cx = 0.0, cy = 0.0;
  for (uint32_t k = 0; k < b->shape_count; k++) {
    Outline o;
    shape_outline(&s->shapes[b->first_shape + k], xf, &o);
    TessVec2 c = {0, 0};
    double a = poly_area_centroid(o.v, o.n, &c);
    area += a;
    cx += a * c.x;
    cy += a * c.y;
  }
  *center = area > 0.0 ? tess_v2((float)(cx / area), (float)(cy / area)) : b->position;
  return area * s->materials[b->material].density;
}

TessResult scene_resolve_pins(TessScene *s, TessError *err) {
  uint32_t cap = s->joint_count;
  for (uint32_t i = 0; i < s->body_count; i++)
    for (uint32_t j = i + 1; j < s->body_count; j++) {
      const TessSceneBody *a = &s->bodies[i], *b = &s->bodies[j];
      if (a->pin == TESS_PIN_NONE && b->pin == TESS_PIN_NONE) continue;
      if (a->type != TESS_BODY_DYNAMIC && b->type != TESS_BODY_DYNAMIC) continue;
      if (a->sensor || b->sensor) continue;
      double area = 0.0, cx = 0.0, cy = 0.0;
      for (uint32_t ka = 0; ka < a->shape_count; ka++) {
        Outline oa;
        shape_outline(&s->shapes[a->first_shape + ka], body_xf(a), &oa);
        for (uint32_t kb = 0; kb < b->shape_count; kb++) {
          Outline ob;
          shape_outline(&s->shapes[b->first_shape + kb], body_xf(b), &ob);
          TessVec2 clipped[OUT_MAX * 2];
          uint32_t n = clip_convex(&oa, &ob, clipped);
          if (n < 3) continue;
          TessVec2 c;
          double ar = poly_area_centroid(clipped, n, &c);
          area += ar;
          cx += ar * c.x;
          cy += ar * c.y;
        }
      }
      if (area <= 1e-8) continue;
      TessVec2 ca, cb;
      double ma = body_mass(s, a, &ca), mb = body_mass(s, b, &cb);
      /* the smaller body: a static or kinematic one is never the smaller */
      bool a_small = a->type == TESS_BODY_DYNAMIC && (b->type != TESS_BODY_DYNAMIC || ma <= mb);
      const TessSceneBody *small = a_small ? a : b;
      const TessSceneBody *large = a_small ? b : a;
      uint8_t mode = small->pin != TESS_PIN_NONE ? small->pin : large->pin;
      TessVec2 point = mode == TESS_PIN_AT_OVERLAP_CENTRE ? tess_v2((float)(cx / area), (float)(cy / area))
                                                          : (a_small ? ca : cb);
      if (s->joint_count + 1 > cap) {
        uint32_t nc = cap ? cap * 2 : 8;
        TessSceneJoint *nj = tess_realloc(s->joints, (size_t)nc * sizeof *nj);
        if (!nj) return tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
        s->joints = nj;
        cap = nc;
      }
      TessSceneJoint *jt = &s->joints[s->joint_count++];
      memset(jt, 0, sizeof *jt);
      jt->kind = TESS_JOINT_PIN;
      jt->from_overlap = 1;
      jt->body_a = (int32_t)(large - s->bodies);
      jt->body_b = (int32_t)(small - s->bodies);
      jt->anchor_a = point;
      jt->anchor_b = point;
    }
  return TESS_OK;
}
