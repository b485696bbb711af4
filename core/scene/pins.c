/* Pin on overlap (the SLRBS car and ragdoll demos): bodies placed
 * overlapping, one of them with a pin mode, are joined by a pin at the
 * smaller body's centre of mass or at the centre of their overlap. The
 * overlap is exact for polygons (convex clipping); circles and capsule ends
 * are polygonised finely enough for a placement point.
 *
 * Only pairs that can pin are clipped: neither a sensor, at least one
 * dynamic, at least one with a pin mode, and bounding circles (with a
 * margin) that meet, found by a sweep along x. The margin makes skipping
 * exact: a clipped vertex always lies in the subject outline's box and
 * passes each clip edge's test only within rounding of that edge, so two
 * outlines this far apart clip to nothing in floating point as well. The
 * candidate pairs are then resolved in the all-pairs order (i < j), so the
 * joints come out as they always did. */
#include <stdlib.h>
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

/* Distance from the shape's origin (the body's position) that bounds every
 * outline vertex shape_outline makes, before rounding. */
static double shape_reach(const TessSceneShape *sh) {
  double reach = 0.0;
  uint32_t n = sh->type == TESS_SHAPE_CIRCLE ? 1 : sh->type == TESS_SHAPE_CAPSULE ? 2
                                                                                  : sh->count;
  if (n > TESS_POLY_MAX) n = TESS_POLY_MAX;
  for (uint32_t i = 0; i < n; i++) {
    double d = sqrt((double)sh->v[i].x * sh->v[i].x + (double)sh->v[i].y * sh->v[i].y);
    if (d > reach) reach = d;
  }
  return reach + fabs((double)sh->radius);
}

static uint32_t to_double(const TessVec2 *v, uint32_t n, TessDVec2 *out) {
  for (uint32_t i = 0; i < n; i++) out[i] = tess_d2(v[i].x, v[i].y);
  return n;
}

static double signed_area(const TessVec2 *v, uint32_t n) {
  TessDVec2 d[OUT_MAX * 2];
  return tess_poly_signed_area(d, to_double(v, n, d));
}

/* Area and centroid of an outline or an overlap (geom's polygon mass). */
static double poly_area_centroid(const TessVec2 *v, uint32_t n, TessVec2 *c) {
  TessDVec2 d[OUT_MAX * 2];
  TessMassProps m = tess_poly_mass(d, to_double(v, n, d));
  if (m.area == 0.0) return 0.0;
  *c = tess_v2((float)m.cx, (float)m.cy);
  return m.area;
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

/* The world outlines of the bodies' shapes, made on first use. */
typedef struct Outlines {
  const TessScene *s;
  Outline *shape; /* one per scene shape */
  uint8_t *made;  /* per body */
} Outlines;

static const Outline *body_outlines(Outlines *o, uint32_t body) {
  const TessSceneBody *b = &o->s->bodies[body];
  if (!o->made[body]) {
    for (uint32_t k = 0; k < b->shape_count; k++)
      shape_outline(&o->s->shapes[b->first_shape + k], body_xf(b), &o->shape[b->first_shape + k]);
    o->made[body] = 1;
  }
  return &o->shape[b->first_shape];
}

/* Mass (area * density when not set) and world centre of mass. */
static double body_mass(const TessScene *s, const TessSceneBody *b, const Outline *outlines, TessVec2 *center) {
  TessTransform xf = body_xf(b);
  if (b->has_mass) {
    *center = tess_transform_point(xf, b->local_center);
    return b->mass;
  }
  double area = 0.0, cx = 0.0, cy = 0.0;
  for (uint32_t k = 0; k < b->shape_count; k++) {
    TessVec2 c = {0, 0};
    double a = poly_area_centroid(outlines[k].v, outlines[k].n, &c);
    area += a;
    cx += a * c.x;
    cy += a * c.y;
  }
  *center = area > 0.0 ? tess_v2((float)(cx / area), (float)(cy / area)) : b->position;
  return area * s->materials[b->material].density;
}

/* Adds the pin of bodies i < j when their outlines overlap. */
static TessResult resolve_pair(TessScene *s, Outlines *o, uint32_t i, uint32_t j, uint32_t *cap, TessError *err) {
  const TessSceneBody *a = &s->bodies[i], *b = &s->bodies[j];
  const Outline *oa = body_outlines(o, i), *ob = body_outlines(o, j);
  double area = 0.0, cx = 0.0, cy = 0.0;
  for (uint32_t ka = 0; ka < a->shape_count; ka++) {
    for (uint32_t kb = 0; kb < b->shape_count; kb++) {
      TessVec2 clipped[OUT_MAX * 2];
      uint32_t n = clip_convex(&oa[ka], &ob[kb], clipped);
      if (n < 3) continue;
      TessVec2 c;
      double ar = poly_area_centroid(clipped, n, &c);
      area += ar;
      cx += ar * c.x;
      cy += ar * c.y;
    }
  }
  if (area <= 1e-8) return TESS_OK;
  TessVec2 ca, cb;
  double ma = body_mass(s, a, oa, &ca), mb = body_mass(s, b, ob, &cb);
  /* the smaller body: a static or kinematic one is never the smaller */
  bool a_small = a->type == TESS_BODY_DYNAMIC && (b->type != TESS_BODY_DYNAMIC || ma <= mb);
  const TessSceneBody *small = a_small ? a : b;
  const TessSceneBody *large = a_small ? b : a;
  uint8_t mode = small->pin != TESS_PIN_NONE ? small->pin : large->pin;
  TessVec2 point = mode == TESS_PIN_AT_OVERLAP_CENTRE ? tess_v2((float)(cx / area), (float)(cy / area)) : (a_small ? ca : cb);
  if (s->joint_count + 1 > *cap) {
    uint32_t nc = *cap ? *cap * 2 : 8;
    TessSceneJoint *nj = tess_realloc(s->joints, (size_t)nc * sizeof *nj);
    if (!nj) return tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
    s->joints = nj;
    *cap = nc;
  }
  TessSceneJoint *jt = &s->joints[s->joint_count++];
  memset(jt, 0, sizeof *jt);
  jt->kind = TESS_JOINT_PIN;
  jt->from_overlap = 1;
  jt->body_a = (int32_t)(large - s->bodies);
  jt->body_b = (int32_t)(small - s->bodies);
  jt->anchor_a = point;
  jt->anchor_b = point;
  /* A pin at the overlap's centre is a ragdoll's joint: it bends, but not
   * all the way round (a forearm through the upper arm). A pin at the
   * smaller body's centre is an axle (the car's wheels): it turns freely. */
  if (mode == TESS_PIN_AT_OVERLAP_CENTRE) {
    jt->limit_enabled = 1;
    jt->lower = -TESS_PIN_OVERLAP_LIMIT;
    jt->upper = TESS_PIN_OVERLAP_LIMIT;
  }
  return TESS_OK;
}

static bool may_pin(const TessSceneBody *a, const TessSceneBody *b) {
  if (a->pin == TESS_PIN_NONE && b->pin == TESS_PIN_NONE) return false;
  if (a->type != TESS_BODY_DYNAMIC && b->type != TESS_BODY_DYNAMIC) return false;
  return !a->sensor && !b->sensor;
}

/* A body's bounding circle, widened by the margin that covers rounding in
 * the outlines and in the clipping (relative to the size and to the
 * distance from the origin, plus a millimetre). Non-finite numbers give an
 * unbounded circle: such a pair is clipped as before. */
typedef struct Bound {
  double x, y, r, lo, hi;
  uint32_t body;
} Bound;

static int bound_cmp(const void *pa, const void *pb) {
  const Bound *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return a->body < b->body ? -1 : a->body > b->body;
}

typedef struct Pair {
  uint32_t i, j;
} Pair;

static int pair_cmp(const void *pa, const void *pb) {
  const Pair *a = pa, *b = pb;
  if (a->i != b->i) return a->i < b->i ? -1 : 1;
  return a->j < b->j ? -1 : a->j > b->j;
}

static bool circles_meet(const Bound *a, const Bound *b) {
  if (!isfinite(a->hi) || !isfinite(b->hi) || !isfinite(a->lo) || !isfinite(b->lo)) return true;
  double dx = a->x - b->x, dy = a->y - b->y, r = a->r + b->r;
  return dx * dx + dy * dy <= r * r;
}

static TessResult resolve_pins(TessScene *s, bool all_pairs, TessError *err) {
  uint32_t cap = s->joint_count;
  TessResult r = TESS_OK;
  Bound *bounds = NULL;
  Pair *pairs = NULL;
  size_t pair_count = 0, pair_cap = 0;
  Outlines o = {s, NULL, NULL};
  uint32_t n = 0;
  bool any_pin = false;
  for (uint32_t i = 0; i < s->body_count; i++) any_pin |= s->bodies[i].pin != TESS_PIN_NONE;
  if (!any_pin) return TESS_OK;
  bounds = tess_alloc((size_t)s->body_count * sizeof *bounds);
  o.shape = tess_alloc((size_t)(s->shape_count ? s->shape_count : 1) * sizeof *o.shape);
  o.made = tess_calloc(s->body_count, 1);
  if (!bounds || !o.shape || !o.made) goto nomem;
  for (uint32_t i = 0; i < s->body_count; i++) {
    const TessSceneBody *b = &s->bodies[i];
    if (b->sensor) continue;
    double reach = 0.0;
    for (uint32_t k = 0; k < b->shape_count; k++) {
      double rk = shape_reach(&s->shapes[b->first_shape + k]);
      if (rk > reach || rk != rk) reach = rk;
    }
    Bound *bd = &bounds[n++];
    bd->body = i;
    bd->x = b->position.x;
    bd->y = b->position.y;
    bd->r = reach * 1.01 + 1e-3 + 1e-4 * (fabs(bd->x) + fabs(bd->y));
    bd->lo = bd->x - bd->r;
    bd->hi = bd->x + bd->r;
    if (!isfinite(bd->lo) || !isfinite(bd->hi)) {
      bd->lo = -INFINITY;
      bd->hi = INFINITY;
    }
  }
  /* Sweep along x: bodies in order of their left end; each meets the
   * following ones until their left end passes its right end. */
  qsort(bounds, n, sizeof *bounds, bound_cmp);
  for (uint32_t k = 0; k < n; k++) {
    for (uint32_t m = k + 1; m < n && (all_pairs || bounds[m].lo <= bounds[k].hi); m++) {
      uint32_t i = bounds[k].body, j = bounds[m].body;
      if (!may_pin(&s->bodies[i], &s->bodies[j])) continue;
      if (!all_pairs && !circles_meet(&bounds[k], &bounds[m])) continue;
      if (pair_count == pair_cap) {
        size_t nc = pair_cap ? pair_cap * 2 : 64;
        Pair *np = tess_realloc(pairs, nc * sizeof *np);
        if (!np) goto nomem;
        pairs = np;
        pair_cap = nc;
      }
      pairs[pair_count].i = i < j ? i : j;
      pairs[pair_count].j = i < j ? j : i;
      pair_count++;
    }
  }
  if (pair_count) qsort(pairs, pair_count, sizeof *pairs, pair_cmp);
  for (size_t k = 0; k < pair_count && r == TESS_OK; k++) r = resolve_pair(s, &o, pairs[k].i, pairs[k].j, &cap, err);
  goto done;
nomem:
  r = tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
done:
  tess_free(bounds);
  tess_free(pairs);
  tess_free(o.shape);
  tess_free(o.made);
  return r;
}

TessResult scene_resolve_pins(TessScene *s, TessError *err) { return resolve_pins(s, false, err); }

TessResult tess_scene_resolve_pins(TessScene *s, TessError *err) { return resolve_pins(s, false, err); }

TessResult scene_resolve_pins_all_pairs(TessScene *s, TessError *err) { return resolve_pins(s, true, err); }
