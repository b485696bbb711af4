/* Aiming a projectile under constant gravity (see tessera/aim.h): the
 * launch velocity for a static target at a given speed (closed form), the
 * minimum-speed launch, and the intercept of a target moving at constant
 * velocity (positive roots of a quartic in the flight time). Works in
 * double and hands back floats, the physics world's precision. */
#include "tessera/aim.h"

#include <float.h>

typedef struct AimVec {
  double x, y;
} AimVec;

static double dot(AimVec a, AimVec b) { return a.x * b.x + a.y * b.y; }
static AimVec vec(TessVec2 v) {
  AimVec r = {v.x, v.y};
  return r;
}
static bool finite2(TessVec2 v) { return isfinite(v.x) && isfinite(v.y); }

/* One message per refused argument, naming it (the caller's error has no file). */
static TessResult check_inputs(TessVec2 from, TessVec2 target, const TessVec2 *target_velocity, TessVec2 gravity,
                               const float *speed, TessError *err) {
  if (!finite2(from)) return tess_error_set(err, TESS_ERR_INVALID, "aim", "launch point (%g, %g) is not finite", (double)from.x, (double)from.y);
  if (!finite2(target)) return tess_error_set(err, TESS_ERR_INVALID, "aim", "target (%g, %g) is not finite", (double)target.x, (double)target.y);
  if (target_velocity && !finite2(*target_velocity))
    return tess_error_set(err, TESS_ERR_INVALID, "aim", "target velocity (%g, %g) is not finite", (double)target_velocity->x,
                          (double)target_velocity->y);
  if (!finite2(gravity)) return tess_error_set(err, TESS_ERR_INVALID, "aim", "gravity (%g, %g) is not finite", (double)gravity.x, (double)gravity.y);
  if (speed && !(isfinite(*speed) && *speed >= 0.0f))
    return tess_error_set(err, TESS_ERR_INVALID, "aim", "launch speed %g must be finite and >= 0", (double)*speed);
  return TESS_OK;
}

/* The launch that is at d + w t after t seconds: v = d/t + w - g t/2. */
static TessAimSolution solution_at(AimVec d, AimVec w, AimVec g, double t) {
  TessAimSolution s;
  s.velocity.x = (float)(d.x / t + w.x - g.x * t * 0.5);
  s.velocity.y = (float)(d.y / t + w.y - g.y * t * 0.5);
  s.time = (float)t;
  return s;
}

TessResult tess_aim_static(TessVec2 from, TessVec2 target, TessVec2 gravity, float speed, TessAimSolution out[2],
                           uint32_t *count, TessError *err) {
  TessResult r = check_inputs(from, target, NULL, gravity, &speed, err);
  if (r != TESS_OK) return r;
  AimVec d = {(double)target.x - from.x, (double)target.y - from.y}, g = vec(gravity), zero = {0, 0};
  double dd = dot(d, d), gg = dot(g, g), s2 = (double)speed * speed;
  double times[2];
  uint32_t n = 0;
  if (gg == 0.0) {
    if (dd > 0.0 && s2 > 0.0) times[n++] = sqrt(dd / s2); /* the straight line */
  } else {
    /* |d/t - g t/2|^2 = s^2 is a quadratic in T = t^2:
     * (gg/4) T^2 - (s^2 + d.g) T + dd = 0. */
    double b = s2 + dot(d, g), disc = b * b - gg * dd;
    if (disc >= 0.0 && b > 0.0) {
      double root = sqrt(disc);
      double high = 2.0 * (b + root) / gg;
      /* The low arc from the product of the roots (4 dd / gg): no cancellation. */
      double low = 2.0 * dd / (b + root);
      if (low > 0.0 && disc > 0.0) times[n++] = sqrt(low);
      times[n++] = sqrt(high);
    }
  }
  for (uint32_t i = 0; i < n; i++) out[i] = solution_at(d, zero, g, times[i]);
  *count = n;
  return TESS_OK;
}

TessResult tess_aim_min_speed(TessVec2 from, TessVec2 target, TessVec2 gravity, TessAimSolution *out, bool *found,
                              TessError *err) {
  TessResult r = check_inputs(from, target, NULL, gravity, NULL, err);
  if (r != TESS_OK) return r;
  AimVec d = {(double)target.x - from.x, (double)target.y - from.y}, g = vec(gravity), zero = {0, 0};
  double dd = dot(d, d), gg = dot(g, g);
  if (dd == 0.0) { /* already there */
    out->velocity = tess_v2(0.0f, 0.0f);
    out->time = 0.0f;
    *found = true;
    return TESS_OK;
  }
  if (gg == 0.0) { /* slower and slower along the line: no minimum */
    *found = false;
    return TESS_OK;
  }
  /* s^2(t) = dd/t^2 - d.g + gg t^2/4 is least at t^4 = 4 dd / gg. */
  *out = solution_at(d, zero, g, sqrt(2.0 * sqrt(dd) / sqrt(gg)));
  *found = true;
  return TESS_OK;
}

/* ---- Real roots of a polynomial of degree <= 4 in (lo, hi] --------------- */

static double poly_eval(const double *c, int n, double t) {
  double v = c[n];
  for (int i = n - 1; i >= 0; i--) v = v * t + c[i];
  return v;
}

/* Between two consecutive roots of the derivative a polynomial is monotonic,
 * so each such interval holds at most one root, found by bisection to the
 * last bit: robust where the closed-form quartic loses digits. */
static int poly_roots(const double *coef, int n, double lo, double hi, double *roots) {
  double c[5];
  for (int i = 0; i <= n; i++) c[i] = coef[i];
  double scale = 0.0;
  for (int i = 0; i <= n; i++) scale = fmax(scale, fabs(c[i]));
  while (n > 0 && fabs(c[n]) <= scale * 1e-15) n--; /* the degree drops (no gravity, ...) */
  if (n == 0) return 0;
  if (n == 1) {
    double t = -c[0] / c[1];
    if (t > lo && t <= hi) {
      roots[0] = t;
      return 1;
    }
    return 0;
  }
  double dc[4], crit[4];
  for (int i = 1; i <= n; i++) dc[i - 1] = c[i] * i;
  int nc = poly_roots(dc, n - 1, lo, hi, crit);
  double pts[6];
  int np = 0;
  pts[np++] = lo;
  for (int i = 0; i < nc; i++) pts[np++] = crit[i];
  pts[np++] = hi;
  int nr = 0;
  for (int i = 0; i + 1 < np; i++) {
    double a = pts[i], b = pts[i + 1];
    double fa = poly_eval(c, n, a), fb = poly_eval(c, n, b);
    if (fb == 0.0) { /* a root on the boundary (a double root touches zero here) */
      if (b > lo && (nr == 0 || roots[nr - 1] != b)) roots[nr++] = b;
      continue;
    }
    if (fa == 0.0 || (fa < 0.0) == (fb < 0.0)) continue;
    for (int it = 0; it < 200; it++) {
      double m = 0.5 * (a + b);
      if (m <= a || m >= b) break;
      double fm = poly_eval(c, n, m);
      if (fm == 0.0) {
        a = b = m;
        break;
      }
      if ((fm < 0.0) == (fa < 0.0)) {
        a = m;
        fa = fm;
      } else b = m;
    }
    roots[nr++] = 0.5 * (a + b);
  }
  return nr;
}

TessResult tess_aim_moving(TessVec2 from, TessVec2 target, TessVec2 target_velocity, TessVec2 gravity, float speed,
                           TessAimSolution out[TESS_AIM_MAX_SOLUTIONS], uint32_t *count, TessError *err) {
  TessResult r = check_inputs(from, target, &target_velocity, gravity, &speed, err);
  if (r != TESS_OK) return r;
  AimVec d = {(double)target.x - from.x, (double)target.y - from.y}, w = vec(target_velocity), g = vec(gravity);
  double s2 = (double)speed * speed;
  /* |d + w t - g t^2/2|^2 - s^2 t^2 = 0, expanded in powers of t. */
  double c[5] = {
      dot(d, d),
      2.0 * dot(d, w),
      dot(w, w) - dot(d, g) - s2,
      -dot(w, g),
      0.25 * dot(g, g),
  };
  /* Every root lies within the Cauchy bound 1 + max |c_i / c_n| of the
   * highest non-zero coefficient. */
  int n = 4;
  double scale = 0.0;
  for (int i = 0; i <= 4; i++) scale = fmax(scale, fabs(c[i]));
  while (n > 0 && fabs(c[n]) <= scale * 1e-15) n--;
  uint32_t k = 0;
  if (n > 0) {
    double bound = 0.0;
    for (int i = 0; i < n; i++) bound = fmax(bound, fabs(c[i] / c[n]));
    bound += 1.0;
    double roots[4];
    int nr = poly_roots(c, n, 0.0, bound, roots);
    for (int i = 0; i < nr && k < TESS_AIM_MAX_SOLUTIONS; i++)
      if (roots[i] > 0.0 && roots[i] <= FLT_MAX) out[k++] = solution_at(d, w, g, roots[i]);
  }
  *count = k;
  return TESS_OK;
}

TessResult tess_aim_launcher(TessVec2 from, float speed, TessVec2 target, TessVec2 gravity, TessAimSolution out[2],
                             uint32_t *count, TessError *err) {
  if (speed > 0.0f || !isfinite(speed)) return tess_aim_static(from, target, gravity, speed, out, count, err);
  bool found = false;
  TessAimSolution best;
  TessResult r = tess_aim_min_speed(from, target, gravity, &best, &found, err);
  if (r != TESS_OK) return r;
  if (found) out[0] = best;
  *count = found ? 1u : 0u;
  return TESS_OK;
}

TessVec2 tess_aim_path_point(TessVec2 from, TessVec2 velocity, TessVec2 gravity, float t) {
  return tess_v2(from.x + velocity.x * t + 0.5f * gravity.x * t * t, from.y + velocity.y * t + 0.5f * gravity.y * t * t);
}

/* Semi-implicit Euler from v0: v_k = v0 + g h k, x_n = x0 + h sum v_k =
 * x0 + v0 t + g t^2 / 2 + g h t / 2 at t = n h. Starting from v0 - g h / 2
 * takes the last term away at every sub-step end. */
TessVec2 tess_aim_for_substeps(TessVec2 velocity, TessVec2 gravity, float h) {
  return tess_v2(velocity.x - 0.5f * gravity.x * h, velocity.y - 0.5f * gravity.y * h);
}
