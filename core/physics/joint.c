/* Joints in the soft step: pin (revolute, with optional angle limits and motor),
 * distance (rigid rod or spring) and the mouse spring. Anchors are fixed
 * in world frame at the step's start and turned with each body's delta
 * rotation in the sub-steps, as the contacts are. */
#include "physics_private.h"

static const Body *jbody(const TessWorld *w, uint32_t i) { return i == TESS_NULL_INDEX ? NULL : &w->bodies[i]; }

static uint32_t jstate(const TessWorld *w, uint32_t i) {
  return (i != TESS_NULL_INDEX && physics_body_active(&w->bodies[i])) ? w->state_of[i] : 0;
}

void physics_joint_prepare(TessWorld *w, Joint *j, float h) {
  (void)h;
  const Body *a = jbody(w, j->body_a), *b = jbody(w, j->body_b);
  j->state_a = jstate(w, j->body_a);
  j->state_b = jstate(w, j->body_b);
  TessTransform xa = a ? a->xf : tess_transform_identity(), xb = b ? b->xf : tess_transform_identity();
  TessVec2 ca = a ? a->center : tess_v2(0, 0), cb = b ? b->center : tess_v2(0, 0);
  TessVec2 lca = a ? a->local_center : tess_v2(0, 0), lcb = b ? b->local_center : tess_v2(0, 0);
  j->ra = tess_rot_apply(xa.q, tess_v2_sub(j->local_a, lca));
  j->rb = tess_rot_apply(xb.q, tess_v2_sub(j->local_b, lcb));
  j->delta_center = tess_v2_sub(cb, ca);
  j->delta_angle = tess_rot_angle(xb.q) - tess_rot_angle(xa.q) - j->reference_angle;
  while (j->delta_angle > 3.14159265f) j->delta_angle -= 6.2831853f;
  while (j->delta_angle < -3.14159265f) j->delta_angle += 6.2831853f;
  float k = w->motions[j->state_a].inv_i + w->motions[j->state_b].inv_i;
  j->axial_mass = k > 0.0f ? 1.0f / k : 0.0f;
  if (j->type == TESS_JOINT_TYPE_DISTANCE) {
    TessVec2 d = tess_v2_add(j->delta_center, tess_v2_sub(j->rb, j->ra));
    TessVec2 u = tess_v2_normalize(d);
    float cra = tess_v2_cross(j->ra, u), crb = tess_v2_cross(j->rb, u);
    float km = w->motions[j->state_a].inv_m + w->motions[j->state_b].inv_m + w->motions[j->state_a].inv_i * cra * cra + w->motions[j->state_b].inv_i * crb * crb;
    j->axial_mass = km > 0.0f ? 1.0f / km : 0.0f;
  }
  if (j->type == TESS_JOINT_TYPE_MOUSE) {
    j->lower_impulse = j->upper_impulse = 0.0f;
  }
  if (!j->enable_limit) j->lower_impulse = j->upper_impulse = 0.0f;
  if (!j->enable_motor) j->motor_impulse = 0.0f;
}

static void apply(const TessWorld *w, const Joint *j, BodyState *sa, BodyState *sb, TessVec2 ra, TessVec2 rb, TessVec2 P) {
  sa->v = tess_v2_mul_add(sa->v, -w->motions[j->state_a].inv_m, P);
  sa->w -= w->motions[j->state_a].inv_i * tess_v2_cross(ra, P);
  sb->v = tess_v2_mul_add(sb->v, w->motions[j->state_b].inv_m, P);
  sb->w += w->motions[j->state_b].inv_i * tess_v2_cross(rb, P);
}

void physics_joint_warm_start(TessWorld *w, Joint *j) {
  BodyState *sa = &w->states[j->state_a], *sb = &w->states[j->state_b];
  TessVec2 ra = tess_rot_apply(sa->dq, j->ra), rb = tess_rot_apply(sb->dq, j->rb);
  switch (j->type) {
    case TESS_JOINT_TYPE_REVOLUTE: {
      float axial = j->motor_impulse + j->lower_impulse - j->upper_impulse;
      apply(w, j, sa, sb, ra, rb, j->linear_impulse);
      sa->w -= w->motions[j->state_a].inv_i * axial;
      sb->w += w->motions[j->state_b].inv_i * axial;
      break;
    }
    case TESS_JOINT_TYPE_DISTANCE: {
      TessVec2 d = tess_v2_add(tess_v2_add(j->delta_center, tess_v2_sub(sb->dp, sa->dp)), tess_v2_sub(rb, ra));
      TessVec2 u = tess_v2_normalize(d);
      apply(w, j, sa, sb, ra, rb, tess_v2_scale(j->axial_impulse, u));
      break;
    }
    case TESS_JOINT_TYPE_MOUSE:
      sb->v = tess_v2_mul_add(sb->v, w->motions[j->state_b].inv_m, j->linear_impulse);
      sb->w += w->motions[j->state_b].inv_i * tess_v2_cross(rb, j->linear_impulse);
      break;
  }
  w->states[0].v = tess_v2(0, 0);
  w->states[0].w = 0.0f;
}

/* Solves K x = b for a 2x2 symmetric K. */
static TessVec2 solve22(float k11, float k12, float k22, TessVec2 b) {
  float det = k11 * k22 - k12 * k12;
  if (det != 0.0f) det = 1.0f / det;
  return tess_v2(det * (k22 * b.x - k12 * b.y), det * (k11 * b.y - k12 * b.x));
}

void physics_joint_solve(TessWorld *w, Joint *j, float h, bool use_bias) {
  BodyState *sa = &w->states[j->state_a], *sb = &w->states[j->state_b];
  float ma = w->motions[j->state_a].inv_m, mb = w->motions[j->state_b].inv_m, ia = w->motions[j->state_a].inv_i, ib = w->motions[j->state_b].inv_i;
  TessVec2 ra = tess_rot_apply(sa->dq, j->ra), rb = tess_rot_apply(sb->dq, j->rb);
  Softness soft = physics_softness(w->def.joint_hertz, w->def.joint_damping_ratio, h);
  float inv_h = 1.0f / h;
  switch (j->type) {
    case TESS_JOINT_TYPE_REVOLUTE: {
      if (j->enable_motor && (ia + ib) > 0.0f) {
        /* Box2D's motor: the relative spin towards motor_speed, the impulse within the torque
         * limit over the sub-step; solved before the limits, so a limit still holds */
        float impulse = -j->axial_mass * (sb->w - sa->w - j->motor_speed);
        float old = j->motor_impulse, max_impulse = h * j->max_motor_torque;
        float total = old + impulse;
        j->motor_impulse = total < -max_impulse ? -max_impulse : (total > max_impulse ? max_impulse : total);
        impulse = j->motor_impulse - old;
        sa->w -= ia * impulse;
        sb->w += ib * impulse;
      }
      if (j->enable_limit && (ia + ib) > 0.0f) {
        float angle = j->delta_angle + tess_rot_angle(sb->dq) - tess_rot_angle(sa->dq);
        {
          float C = angle - j->lower;
          float bias = 0.0f, ms = 1.0f, is = 0.0f;
          if (C > 0.0f) {
            bias = C * inv_h;
          } else if (use_bias) {
            bias = soft.bias_rate * C;
            ms = soft.mass_scale;
            is = soft.impulse_scale;
          }
          float cdot = sb->w - sa->w;
          float impulse = -j->axial_mass * ms * (cdot + bias) - is * j->lower_impulse;
          float ni = j->lower_impulse + impulse;
          if (ni < 0.0f) ni = 0.0f;
          impulse = ni - j->lower_impulse;
          j->lower_impulse = ni;
          sa->w -= ia * impulse;
          sb->w += ib * impulse;
        }
        {
          float C = j->upper - angle;
          float bias = 0.0f, ms = 1.0f, is = 0.0f;
          if (C > 0.0f) {
            bias = C * inv_h;
          } else if (use_bias) {
            bias = soft.bias_rate * C;
            ms = soft.mass_scale;
            is = soft.impulse_scale;
          }
          float cdot = sa->w - sb->w;
          float impulse = -j->axial_mass * ms * (cdot + bias) - is * j->upper_impulse;
          float ni = j->upper_impulse + impulse;
          if (ni < 0.0f) ni = 0.0f;
          impulse = ni - j->upper_impulse;
          j->upper_impulse = ni;
          sa->w += ia * impulse;
          sb->w -= ib * impulse;
        }
      }
      TessVec2 cdot = tess_v2_sub(tess_v2_add(sb->v, tess_v2_cross_sv(sb->w, rb)), tess_v2_add(sa->v, tess_v2_cross_sv(sa->w, ra)));
      TessVec2 bias = {0.0f, 0.0f};
      float ms = 1.0f, is = 0.0f;
      if (use_bias) {
        TessVec2 sep = tess_v2_add(tess_v2_add(j->delta_center, tess_v2_sub(sb->dp, sa->dp)), tess_v2_sub(rb, ra));
        bias = tess_v2_scale(soft.bias_rate, sep);
        ms = soft.mass_scale;
        is = soft.impulse_scale;
      }
      float k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
      float k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
      float k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
      TessVec2 b = solve22(k11, k12, k22, tess_v2_add(cdot, bias));
      TessVec2 impulse = tess_v2(-ms * b.x - is * j->linear_impulse.x, -ms * b.y - is * j->linear_impulse.y);
      j->linear_impulse = tess_v2_add(j->linear_impulse, impulse);
      apply(w, j, sa, sb, ra, rb, impulse);
      break;
    }
    case TESS_JOINT_TYPE_DISTANCE: {
      TessVec2 d = tess_v2_add(tess_v2_add(j->delta_center, tess_v2_sub(sb->dp, sa->dp)), tess_v2_sub(rb, ra));
      float len = tess_v2_length(d);
      TessVec2 u = tess_v2_normalize(d);
      float C = len - j->length;
      float bias = 0.0f, ms = 1.0f, is = 0.0f;
      if (j->hertz > 0.0f) {
        Softness sp = physics_softness(j->hertz, j->damping_ratio, h);
        bias = sp.bias_rate * C;
        ms = sp.mass_scale;
        is = sp.impulse_scale;
      } else if (use_bias) {
        bias = soft.bias_rate * C;
        ms = soft.mass_scale;
        is = soft.impulse_scale;
      }
      TessVec2 vr = tess_v2_sub(tess_v2_add(sb->v, tess_v2_cross_sv(sb->w, rb)), tess_v2_add(sa->v, tess_v2_cross_sv(sa->w, ra)));
      float cdot = tess_v2_dot(u, vr);
      float impulse = -ms * j->axial_mass * (cdot + bias) - is * j->axial_impulse;
      j->axial_impulse += impulse;
      apply(w, j, sa, sb, ra, rb, tess_v2_scale(impulse, u));
      break;
    }
    case TESS_JOINT_TYPE_MOUSE: {
      const Body *b = &w->bodies[j->body_b];
      Softness sp = physics_softness(j->hertz, j->damping_ratio, h);
      TessVec2 cdot = tess_v2_add(sb->v, tess_v2_cross_sv(sb->w, rb));
      TessVec2 C = tess_v2_sub(tess_v2_add(tess_v2_add(b->center, sb->dp), rb), j->target);
      TessVec2 bias = tess_v2_scale(sp.bias_rate, C);
      float k11 = mb + rb.y * rb.y * ib, k12 = -rb.y * rb.x * ib, k22 = mb + rb.x * rb.x * ib;
      TessVec2 x = solve22(k11, k12, k22, tess_v2_add(cdot, bias));
      TessVec2 impulse = tess_v2(-sp.mass_scale * x.x - sp.impulse_scale * j->linear_impulse.x,
                                 -sp.mass_scale * x.y - sp.impulse_scale * j->linear_impulse.y);
      TessVec2 old = j->linear_impulse;
      j->linear_impulse = tess_v2_add(j->linear_impulse, impulse);
      float max_impulse = j->max_force * h;
      float li = tess_v2_length(j->linear_impulse);
      if (li > max_impulse) j->linear_impulse = tess_v2_scale(max_impulse / li, j->linear_impulse);
      impulse = tess_v2_sub(j->linear_impulse, old);
      sb->v = tess_v2_mul_add(sb->v, mb, impulse);
      sb->w += ib * tess_v2_cross(rb, impulse);
      break;
    }
  }
  w->states[0].v = tess_v2(0, 0);
  w->states[0].w = 0.0f;
}
