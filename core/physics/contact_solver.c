/* The contact constraints, one at a time: their masses and impact speeds
 * at the step's start, the soft-step passes for the constraints the wide
 * solver (wide_solver.c) could not colour, and restitution and tangential
 * efficiency at impacts, once per step, after the sub-steps. */
#include <math.h>

#include "physics_private.h"

/* The impulse P at the point: -P on body a, +P on body b. */
static inline void apply_impulse(const ContactPoint *p, TessVec2 P, float ma, float ia, float mb, float ib, TessVec2 *va,
                                 float *wa, TessVec2 *vb, float *wb) {
  *va = tess_v2_mul_add(*va, -ma, P);
  *wa -= ia * tess_v2_cross(p->ra, P);
  *vb = tess_v2_mul_add(*vb, mb, P);
  *wb += ib * tess_v2_cross(p->rb, P);
}

bool physics_contact_prepare_head(TessWorld *w, Constraint *k) {
  const BodyState *st = w->states;
  const BodyMotion *mo = w->motions;
  k->state_a = k->state_a == TESS_NULL_INDEX ? 0 : w->state_of[k->state_a];
  k->state_b = k->state_b == TESS_NULL_INDEX ? 0 : w->state_of[k->state_b];
  k->solve = st[k->state_a].dynamic || st[k->state_b].dynamic; /* the fixed state 0 is not dynamic */
  if (!k->solve) return false;
  k->ma = mo[k->state_a].inv_m;
  k->ia = mo[k->state_a].inv_i;
  k->mb = mo[k->state_b].inv_m;
  k->ib = mo[k->state_b].inv_i;
  return true;
}

bool physics_contact_prepare(TessWorld *w, Constraint *k) {
  if (!physics_contact_prepare_head(w, k)) return false;
  physics_contact_prepare_points(w, k);
  return true;
}

void physics_contact_prepare_points(const TessWorld *w, Constraint *k) {
  ContactPoint *pts = physics_constraint_points(k);
  for (uint32_t q = 0; q < k->point_count; q++) {
    ContactPoint *p = &pts[q];
    PointStart s = physics_contact_point_start(w, k, p);
    p->normal_mass = s.normal_mass;
    p->tangent_mass = s.tangent_mass;
    p->relative_velocity = s.relative_velocity;
    p->tangent_velocity = s.tangent_velocity;
    p->max_normal_impulse = 0.0f;
  }
}

void physics_contacts_warm_start(TessWorld *w, const uint32_t *offsets, uint32_t count) {
  BodyState *st = w->states;
  for (uint32_t ci = 0; ci < count; ci++) {
    Constraint *k = (Constraint *)(w->cbuf + offsets[ci]);
    if (!k->solve) continue;
    BodyState *sa = &st[k->state_a], *sb = &st[k->state_b];
    TessVec2 n = k->normal, t = tess_v2_cross_vs(n, 1.0f);
    ContactPoint *pts = physics_constraint_points(k);
    for (uint32_t q = 0; q < k->point_count; q++) {
      ContactPoint *p = &pts[q];
      TessVec2 P = tess_v2_add(tess_v2_scale(p->normal_impulse, n), tess_v2_scale(p->tangent_impulse, t));
      sa->w -= k->ia * tess_v2_cross(p->ra, P);
      sa->v = tess_v2_mul_add(sa->v, -k->ma, P);
      sb->w += k->ib * tess_v2_cross(p->rb, P);
      sb->v = tess_v2_mul_add(sb->v, k->mb, P);
    }
  }
  st[0].v = tess_v2(0, 0);
  st[0].w = 0.0f;
}

/* What point p's normal row asks now (the wide kernel's row, one lane). */
typedef struct Row {
  float s, bias, mass_scale, impulse_scale, vn, vt;
} Row;

static Row row(const BodyState *sa, const BodyState *sb, const Constraint *k, const ContactPoint *p, TessVec2 va, float wa,
               TessVec2 vb, float wb, float inv_h, bool use_bias, const Softness *ks, float max_push) {
  TessVec2 n = k->normal, t = tess_v2_cross_vs(n, 1.0f);
  TessVec2 prb = tess_rot_apply(sb->dq, p->sb), pra = tess_rot_apply(sa->dq, p->sa);
  TessVec2 d = tess_v2_add(tess_v2_sub(sb->dp, sa->dp), tess_v2_sub(prb, pra));
  Row r = {tess_v2_dot(d, n) + p->base_separation, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f};
  if (r.s > 0.0f) {
    r.bias = r.s * inv_h; /* speculative: may close the gap, no more */
  } else if (use_bias) {
    r.bias = ks->bias_rate * r.s;
    if (r.bias < -max_push) r.bias = -max_push;
    r.mass_scale = ks->mass_scale;
    r.impulse_scale = ks->impulse_scale;
  }
  TessVec2 dv = tess_v2_sub(tess_v2_add(vb, tess_v2_cross_sv(wb, p->rb)), tess_v2_add(va, tess_v2_cross_sv(wa, p->ra)));
  r.vn = tess_v2_dot(dv, n);
  r.vt = tess_v2_dot(dv, t);
  return r;
}

/* Point p's new accumulated normal impulse, with the impact bookkeeping: a new impact (the gap
 * was open at the step's start) takes as its speed the approach speed in the sub-step where the
 * contact first acts, not the one a sub-step before; in either pass (the relaxation's speculative
 * stop, a sub-step short of the surface, is an impact too: taken at the step's start speed,
 * bounces came out 3-9% low). */
static void store_normal(const TessWorld *w, const Constraint *k, uint32_t q, ContactPoint *p, const Row *r, float total,
                         float inv_h, bool use_bias) {
  if (total > p->normal_impulse && p->max_normal_impulse == 0.0f && k->gap_open[q] && r->vn < p->relative_velocity) {
    p->relative_velocity = -physics_meet_speed(-r->vn, r->s, physics_contact_closing(w, k), 1.0f / inv_h, use_bias);
    p->tangent_velocity = r->vt;
  }
  p->normal_impulse = total;
  if (total > p->max_normal_impulse) p->max_normal_impulse = total;
}

/* The new impulses x of two normal rows solved together: the 2x2 linear complementarity problem
 * w = (K + G) x + q, x >= 0, w >= 0, x w = 0, with q = vn + bias - K ni and G the softness as a
 * compliance (g = k is / ms), as the wide kernel's normal_pair does (it says why). */
static void pair_impulses(float k11, float k12, float k22, const Row *r1, const Row *r2, float n1, float n2, float *x1,
                          float *x2) {
  float a11 = k11 + k11 * r1->impulse_scale / r1->mass_scale, a22 = k22 + k22 * r2->impulse_scale / r2->mass_scale;
  float q1 = (r1->vn + r1->bias) - (k11 * n1 + k12 * n2);
  float q2 = (r2->vn + r2->bias) - (k12 * n1 + k22 * n2);
  float det = a11 * a22 - k12 * k12;
  float both1 = (k12 * q2 - a22 * q1) / det, both2 = (k12 * q1 - a11 * q2) / det;
  float only1 = (0.0f - q1) / a11, only2 = (0.0f - q2) / a22;
  if (1000.0f * det > a11 * a22 && both1 >= 0.0f && both2 >= 0.0f) {
    *x1 = both1, *x2 = both2;
  } else if (only1 >= 0.0f && k12 * only1 + q2 >= 0.0f) {
    *x1 = only1, *x2 = 0.0f;
  } else if (only2 >= 0.0f && k12 * only2 + q1 >= 0.0f) {
    *x1 = 0.0f, *x2 = only2;
  } else if (q1 >= 0.0f && q2 >= 0.0f) {
    *x1 = *x2 = 0.0f;
  } else { /* one row after the other */
    float s1 = (0.0f - (q1 + k12 * n2)) / a11;
    *x1 = s1 > 0.0f ? s1 : 0.0f;
    float s2 = (0.0f - (q2 + k12 * *x1)) / a22;
    *x2 = s2 > 0.0f ? s2 : 0.0f;
  }
}

/* The normal masses of a two-point constraint's rows: K = [k11 k12; k12 k22]. */
static void pair_mass(const Constraint *k, const ContactPoint *pts, float *k11, float *k12, float *k22) {
  TessVec2 n = k->normal;
  float rna1 = tess_v2_cross(pts[0].ra, n), rnb1 = tess_v2_cross(pts[0].rb, n);
  float rna2 = tess_v2_cross(pts[1].ra, n), rnb2 = tess_v2_cross(pts[1].rb, n);
  float m = k->ma + k->mb;
  *k11 = m + k->ia * rna1 * rna1 + k->ib * rnb1 * rnb1;
  *k22 = m + k->ia * rna2 * rna2 + k->ib * rnb2 * rnb2;
  *k12 = m + k->ia * rna1 * rna2 + k->ib * rnb1 * rnb2;
}

void physics_contacts_solve(TessWorld *w, const uint32_t *offsets, uint32_t count, float inv_h, bool use_bias, Softness soft,
                            Softness soft_static) {
  BodyState *st = w->states;
  float max_push = w->def.max_push_velocity;
  for (uint32_t ci = 0; ci < count; ci++) {
    Constraint *k = (Constraint *)(w->cbuf + offsets[ci]);
    if (!k->solve) continue;
    BodyState *sa = &st[k->state_a], *sb = &st[k->state_b];
    float ma = k->ma, ia = k->ia, mb = k->mb, ib = k->ib;
    const Softness *ks = (ma == 0.0f || mb == 0.0f) ? &soft_static : &soft;
    TessVec2 va = sa->v, vb = sb->v;
    float wa = sa->w, wb = sb->w;
    TessVec2 n = k->normal, t = tess_v2_cross_vs(n, 1.0f);
    ContactPoint *pts = physics_constraint_points(k);
    uint32_t points = k->point_count;
    if (points == 2) { /* both rows at once: one after the other, a box landing flat is turned */
      Row r1 = row(sa, sb, k, &pts[0], va, wa, vb, wb, inv_h, use_bias, ks, max_push);
      Row r2 = row(sa, sb, k, &pts[1], va, wa, vb, wb, inv_h, use_bias, ks, max_push);
      float k11, k12, k22, x1, x2, n1 = pts[0].normal_impulse, n2 = pts[1].normal_impulse;
      pair_mass(k, pts, &k11, &k12, &k22);
      pair_impulses(k11, k12, k22, &r1, &r2, n1, n2, &x1, &x2);
      store_normal(w, k, 0, &pts[0], &r1, x1, inv_h, use_bias);
      store_normal(w, k, 1, &pts[1], &r2, x2, inv_h, use_bias);
      apply_impulse(&pts[0], tess_v2_scale(x1 - n1, n), ma, ia, mb, ib, &va, &wa, &vb, &wb);
      apply_impulse(&pts[1], tess_v2_scale(x2 - n2, n), ma, ia, mb, ib, &va, &wa, &vb, &wb);
    } else {
      for (uint32_t q = 0; q < points; q++) {
        ContactPoint *p = &pts[q];
        Row r = row(sa, sb, k, p, va, wa, vb, wb, inv_h, use_bias, ks, max_push);
        float impulse = -p->normal_mass * r.mass_scale * (r.vn + r.bias) - r.impulse_scale * p->normal_impulse;
        float total = p->normal_impulse + impulse;
        if (total < 0.0f) total = 0.0f;
        impulse = total - p->normal_impulse;
        store_normal(w, k, q, p, &r, total, inv_h, use_bias);
        apply_impulse(p, tess_v2_scale(impulse, n), ma, ia, mb, ib, &va, &wa, &vb, &wb);
      }
    }
    float friction = k->friction;
    for (uint32_t q = 0; q < points; q++) {
      ContactPoint *p = &pts[q];
      TessVec2 dv = tess_v2_sub(tess_v2_add(vb, tess_v2_cross_sv(wb, p->rb)), tess_v2_add(va, tess_v2_cross_sv(wa, p->ra)));
      float vt = tess_v2_dot(dv, t);
      float impulse = -p->tangent_mass * vt;
      float max_f = friction * p->normal_impulse;
      float new_impulse = p->tangent_impulse + impulse;
      if (new_impulse < -max_f) new_impulse = -max_f;
      if (new_impulse > max_f) new_impulse = max_f;
      impulse = new_impulse - p->tangent_impulse;
      p->tangent_impulse = new_impulse;
      apply_impulse(p, tess_v2_scale(impulse, t), ma, ia, mb, ib, &va, &wa, &vb, &wb);
    }
    sa->v = va;
    sa->w = wa;
    sb->v = vb;
    sb->w = wb;
  }
  st[0].v = tess_v2(0, 0);
  st[0].w = 0.0f;
}

/* The speed to leave a surface at after an impact, so the rebound climbs e^2 of the drop:
 * e times the speed the bodies met at (physics_meet_speed), less what climbing the gap still left
 * costs (a speculative stop in the relaxation leaves them a sub-step short), plus the half
 * sub-step of acceleration the integrator's climb will lose (physics_meet_speed says why). */
static float rebound_speed(float e, float meet, float gap, float a, float h) {
  if (e <= 0.0f) return 0.0f;
  float leave2 = e * e * meet * meet - 2.0f * a * gap;
  return (leave2 > 0.0f ? sqrtf(leave2) : 0.0f) + 0.5f * a * h;
}

/* Restitution and tangential efficiency, once, at impacts only; h is the sub-step. */
void physics_contacts_restitution(TessWorld *w, float h) {
  if (!w->any_impact_material) return; /* nothing would pass the test below: no walk through cbuf */
  BodyState *st = w->states;
  float threshold = w->def.restitution_threshold;
  for (uint32_t ci = 0; ci < w->coff_count; ci++) {
    Constraint *k = (Constraint *)(w->cbuf + w->coff[ci]);
    if (!k->solve) continue;
    if (k->restitution == 0.0f && k->tangential == 1.0f) continue;
    BodyState *sa = &st[k->state_a], *sb = &st[k->state_b];
    float ma = k->ma, ia = k->ia, mb = k->mb, ib = k->ib;
    TessVec2 va = sa->v, vb = sb->v;
    float wa = sa->w, wb = sb->w;
    TessVec2 n = k->normal, t = tess_v2_cross_vs(n, 1.0f);
    float closing = physics_contact_closing(w, k);
    TessVec2 dp = tess_v2_sub(sb->dp, sa->dp);
    ContactPoint *pts = physics_constraint_points(k);
    /* the impacts' rows: the velocity now and the one to leave at (the bias is minus it) */
    Row r[2];
    bool impact[2] = {false, false};
    for (uint32_t q = 0; q < k->point_count; q++) {
      ContactPoint *p = &pts[q];
      if (p->relative_velocity > -threshold || p->max_normal_impulse == 0.0f) continue;
      impact[q] = true;
      TessVec2 dv = tess_v2_sub(tess_v2_add(vb, tess_v2_cross_sv(wb, p->rb)), tess_v2_add(va, tess_v2_cross_sv(wa, p->ra)));
      TessVec2 d = tess_v2_add(dp, tess_v2_sub(tess_rot_apply(sb->dq, p->sb), tess_rot_apply(sa->dq, p->sa)));
      float gap = tess_v2_dot(d, n) + p->base_separation;
      float rebound = rebound_speed(k->restitution, -p->relative_velocity, gap > 0.0f ? gap : 0.0f, closing, h);
      r[q] = (Row){gap, -rebound, 1.0f, 0.0f, tess_v2_dot(dv, n), 0.0f};
    }
    if (impact[0] && k->point_count == 2 && impact[1]) {
      /* two impacts at once (a box landing flat): both rows together, or the first one's
       * impulse turns the body and the second overshoots (physics_contacts_solve) */
      float k11, k12, k22, x[2], n1 = pts[0].normal_impulse, n2 = pts[1].normal_impulse;
      pair_mass(k, pts, &k11, &k12, &k22);
      pair_impulses(k11, k12, k22, &r[0], &r[1], n1, n2, &x[0], &x[1]);
      for (uint32_t q = 0; q < 2; q++) {
        apply_impulse(&pts[q], tess_v2_scale(x[q] - pts[q].normal_impulse, n), ma, ia, mb, ib, &va, &wa, &vb, &wb);
        pts[q].normal_impulse = x[q];
        if (x[q] > pts[q].max_normal_impulse) pts[q].max_normal_impulse = x[q];
      }
    } else {
      for (uint32_t q = 0; q < k->point_count; q++) {
        ContactPoint *p = &pts[q];
        if (!impact[q]) continue;
        float impulse = -p->normal_mass * (r[q].vn + r[q].bias);
        float new_impulse = p->normal_impulse + impulse;
        if (new_impulse < 0.0f) new_impulse = 0.0f;
        impulse = new_impulse - p->normal_impulse;
        p->normal_impulse = new_impulse;
        if (new_impulse > p->max_normal_impulse) p->max_normal_impulse = new_impulse;
        apply_impulse(p, tess_v2_scale(impulse, n), ma, ia, mb, ib, &va, &wa, &vb, &wb);
      }
    }
    for (uint32_t q = 0; q < k->point_count && k->tangential < 1.0f; q++) {
      /* the tangential relative velocity keeps only `tangential` of what it had at the impact */
      ContactPoint *p = &pts[q];
      if (!impact[q]) continue;
      TessVec2 dv = tess_v2_sub(tess_v2_add(vb, tess_v2_cross_sv(wb, p->rb)), tess_v2_add(va, tess_v2_cross_sv(wa, p->ra)));
      float vt = tess_v2_dot(dv, t);
      float target = k->tangential * p->tangent_velocity;
      if (fabsf(vt) > fabsf(target) && vt * target >= 0.0f) {
        float j = -p->tangent_mass * (vt - target);
        p->tangent_impulse += j;
        apply_impulse(p, tess_v2_scale(j, t), ma, ia, mb, ib, &va, &wa, &vb, &wb);
      }
    }
    sa->v = va;
    sa->w = wa;
    sb->v = vb;
    sb->w = wb;
  }
  st[0].v = tess_v2(0, 0);
  st[0].w = 0.0f;
}
