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
    TessVec2 dp = tess_v2_sub(sb->dp, sa->dp);
    TessVec2 n = k->normal, t = tess_v2_cross_vs(n, 1.0f);
    ContactPoint *pts = physics_constraint_points(k);
    uint32_t points = k->point_count;
    for (uint32_t q = 0; q < points; q++) {
      ContactPoint *p = &pts[q];
      TessVec2 prb = tess_rot_apply(sb->dq, p->sb), pra = tess_rot_apply(sa->dq, p->sa);
      TessVec2 d = tess_v2_add(dp, tess_v2_sub(prb, pra));
      float s = tess_v2_dot(d, n) + p->base_separation;
      float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
      if (s > 0.0f) {
        bias = s * inv_h; /* speculative: may close the gap, no more */
      } else if (use_bias) {
        bias = ks->bias_rate * s;
        if (bias < -max_push) bias = -max_push;
        mass_scale = ks->mass_scale;
        impulse_scale = ks->impulse_scale;
      }
      TessVec2 dv = tess_v2_sub(tess_v2_add(vb, tess_v2_cross_sv(wb, p->rb)), tess_v2_add(va, tess_v2_cross_sv(wa, p->ra)));
      float vn = tess_v2_dot(dv, n);
      float impulse = -p->normal_mass * mass_scale * (vn + bias) - impulse_scale * p->normal_impulse;
      float new_impulse = p->normal_impulse + impulse;
      if (new_impulse < 0.0f) new_impulse = 0.0f;
      impulse = new_impulse - p->normal_impulse;
      if (impulse > 0.0f && p->max_normal_impulse == 0.0f && k->gap_open[q] && vn < p->relative_velocity) {
        /* a new impact (the gap was open at the step's start): its speed is the approach
         * speed in the sub-step where the contact first acts, not the one a sub-step before;
         * in either pass (the relaxation's speculative stop, a sub-step short of the surface,
         * is an impact too: taken at the step's start speed, bounces came out 3-9% low) */
        p->relative_velocity = -physics_meet_speed(-vn, s, physics_contact_closing(w, k), 1.0f / inv_h, use_bias);
        p->tangent_velocity = tess_v2_dot(dv, t);
      }
      p->normal_impulse = new_impulse;
      if (new_impulse > p->max_normal_impulse) p->max_normal_impulse = new_impulse;
      apply_impulse(p, tess_v2_scale(impulse, n), ma, ia, mb, ib, &va, &wa, &vb, &wb);
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
    for (uint32_t q = 0; q < k->point_count; q++) {
      ContactPoint *p = &pts[q];
      if (p->relative_velocity > -threshold || p->max_normal_impulse == 0.0f) continue;
      TessVec2 dv = tess_v2_sub(tess_v2_add(vb, tess_v2_cross_sv(wb, p->rb)), tess_v2_add(va, tess_v2_cross_sv(wa, p->ra)));
      float vn = tess_v2_dot(dv, n);
      TessVec2 d = tess_v2_add(dp, tess_v2_sub(tess_rot_apply(sb->dq, p->sb), tess_rot_apply(sa->dq, p->sa)));
      float gap = tess_v2_dot(d, n) + p->base_separation;
      float rebound = rebound_speed(k->restitution, -p->relative_velocity, gap > 0.0f ? gap : 0.0f, closing, h);
      float impulse = -p->normal_mass * (vn - rebound);
      float new_impulse = p->normal_impulse + impulse;
      if (new_impulse < 0.0f) new_impulse = 0.0f;
      impulse = new_impulse - p->normal_impulse;
      p->normal_impulse = new_impulse;
      if (new_impulse > p->max_normal_impulse) p->max_normal_impulse = new_impulse;
      apply_impulse(p, tess_v2_scale(impulse, n), ma, ia, mb, ib, &va, &wa, &vb, &wb);
      if (k->tangential < 1.0f) {
        /* the tangential relative velocity keeps only `tangential` of what it had at the impact */
        dv = tess_v2_sub(tess_v2_add(vb, tess_v2_cross_sv(wb, p->rb)), tess_v2_add(va, tess_v2_cross_sv(wa, p->ra)));
        float vt = tess_v2_dot(dv, t);
        float target = k->tangential * p->tangent_velocity;
        if (fabsf(vt) > fabsf(target) && vt * target >= 0.0f) {
          float j = -p->tangent_mass * (vt - target);
          p->tangent_impulse += j;
          apply_impulse(p, tess_v2_scale(j, t), ma, ia, mb, ib, &va, &wa, &vb, &wb);
        }
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
