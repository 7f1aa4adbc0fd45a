// sampling.c: predictive sampling (MuJoCo MPC's sampling planner) on the planner of ilqg.c.
// The policy is a spline over the horizon; an iteration shifts it to the start time, rolls out
// the nominal and N-1 noisy candidates of its values, and keeps the candidate of the lowest
// return.  The noise of candidate i at iteration k is a function of (seed, k, i): the results
// do not depend on the number of threads.
#include "plan/plan.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/util_file.h"

int mjp_setSampling(mjPlanner* p, int points, int interp, mjtNum exploration, uint64_t seed,
                    char* err, int errsz) {
  if (points < 1 || points > p->T) {
    mj_ioError(err, errsz, "spline points: between 1 and the %d knots", p->T);
    return -1;
  }
  if (interp < mjSPLINE_ZERO || interp > mjSPLINE_CUBIC) {
    mj_ioError(err, errsz, "spline interpolation %d: 0 (zero), 1 (linear) or 2 (cubic)", interp);
    return -1;
  }
  if (!(exploration >= 0)) {
    mj_ioError(err, errsz, "exploration %g: a number >= 0", exploration);
    return -1;
  }
  free(p->stimes), free(p->svals), free(p->sold), free(p->sparam), free(p->sact);
  int nu = p->nu;
  p->stimes = calloc((size_t)points, sizeof(mjtNum));
  p->svals = calloc((size_t)(points * nu), sizeof(mjtNum));
  p->sold = calloc((size_t)(points * (nu + 1)), sizeof(mjtNum));
  p->sparam = calloc((size_t)p->N * points * nu, sizeof(mjtNum));
  p->sact = calloc((size_t)p->N * p->T * nu, sizeof(mjtNum));
  if (!p->stimes || !p->svals || !p->sold || !p->sparam || !p->sact) {
    mj_ioError(err, errsz, "out of memory");
    return -1;
  }
  p->npoint = points, p->interp = interp, p->explore = exploration, p->seed = seed;
  mjp_freeKnots(p); // sampling rolls out candidates and never differentiates
  p->iter = 0, p->spline = 0;
  // the policy has no feedback
  mju_zero(p->K, p->T * nu * p->nx);
  return 0;
}

// the spline of n points (times s, values v: n x nu) at time t into u (nu), held beyond its
// ends; cubic: Hermite on [s_j, s_j+1] with tangents (v_j+1 - v_j-1) / (s_j+1 - s_j-1), one-
// sided at the ends
static void splineValue(const mjtNum* s, const mjtNum* v, int n, int nu, int interp, mjtNum t,
                        mjtNum* u) {
  if (n == 1 || t <= s[0] || t >= s[n - 1]) {
    mju_copy(u, v + (n == 1 || t <= s[0] ? 0 : (n - 1) * nu), nu);
    return;
  }
  int j = 0;
  while (j + 2 < n && s[j + 1] <= t) j++;
  mjtNum h = s[j + 1] - s[j], tau = (t - s[j]) / h;
  for (int i = 0; i < nu; i++) {
    mjtNum a = v[j * nu + i], b = v[(j + 1) * nu + i];
    if (interp == mjSPLINE_ZERO) {
      u[i] = a;
    } else if (interp == mjSPLINE_LINEAR) {
      u[i] = a + tau * (b - a);
    } else {
      int j0 = j > 0 ? j - 1 : j, j1 = j + 2 < n ? j + 2 : j + 1;
      mjtNum ma = (b - v[j0 * nu + i]) / (s[j + 1] - s[j0]);
      mjtNum mb = (v[j1 * nu + i] - a) / (s[j1] - s[j]);
      mjtNum t2 = tau * tau, t3 = t2 * tau;
      u[i] = (2 * t3 - 3 * t2 + 1) * a + (t3 - 2 * t2 + tau) * h * ma + (-2 * t3 + 3 * t2) * b +
             (t3 - t2) * h * mb;
    }
  }
}

// the nominal spline at the start time: its points spread evenly over the horizon, valued by
// the previous spline (or, the first time, the policy's actions) at their times; spacing
// h = span / (n - 1), the last point at the last knot, but for zero-order holds h = span / n,
// each point holding for one h (MuJoCo MPC's sampling planner)
static void shiftSpline(mjPlanner* p) {
  int n = p->npoint, nu = p->nu;
  mjtNum span = (p->T - 1) * p->m->opt.timestep, *oldt = p->sold, *old = p->sold + n;
  int gaps = p->interp == mjSPLINE_ZERO ? n : n - 1;
  mjtNum h = gaps > 0 ? span / gaps : 0;
  mjtNum* scratch = p->scratch[0];
  // the previous spline aside
  mju_copy(old, p->svals, n * nu);
  mju_copy(oldt, p->stimes, n);
  for (int j = 0; j < n; j++) {
    p->stimes[j] = p->time0 + h * j;
    if (p->spline) splineValue(oldt, old, n, nu, p->interp, p->stimes[j], p->svals + j * nu);
    else mjp_policyOpen(p, p->svals + j * nu, p->stimes[j], scratch);
  }
  p->spline = 1;
}

// candidate i's spline values: the nominal's, with noise for i > 0, clamped to ctrlrange; and
// its actions at the knots
static void candidate(mjPlanner* p, int i) {
  const mjModel* m = p->m;
  int n = p->npoint, nu = p->nu, T = p->T;
  mjtNum* v = p->sparam + (size_t)i * n * nu, *u = p->sact + (size_t)i * T * nu;
  uint64_t key = mj_randomKey(p->seed, (uint64_t)p->iter, (uint64_t)i);
  for (int j = 0; j < n; j++)
    for (int a = 0; a < nu; a++) {
      mjtNum x = p->svals[j * nu + a];
      const mjtNum* range = m->actuator_ctrlrange + 2 * a;
      int limited = m->actuator_ctrllimited[a];
      if (i > 0) {
        mjtNum sigma = p->explore * (limited ? 0.5 * (range[1] - range[0]) : 1);
        x += sigma * mj_randomNormal(key, (uint64_t)(j * nu + a));
      }
      v[j * nu + a] = limited ? mju_minc(mju_maxc(x, range[0]), range[1]) : x;
    }
  for (int t = 0; t < T; t++)
    splineValue(p->stimes, v, n, nu, p->interp, p->time0 + t * m->opt.timestep, u + t * nu);
}

void mjp_sample(mjPlanner* p) {
  mjpStats* st = &p->stats;
  memset(st, 0, sizeof(*st));
  double t0 = mjp_now();

  // the nominal at the start time, the candidates around it, their rollouts
  shiftSpline(p);
  for (int i = 0; i < p->N; i++) candidate(p, i);
  mjp_rollouts(p, mjROLL_SAMPLE);
  int best = mjp_bestRollout(p);
  p->iter++;

  // the winner: the spline and the policy (its actions at the knots)
  mju_copy(p->svals, p->sparam + (size_t)best * p->npoint * p->nu, p->npoint * p->nu);
  mjp_trajCopy(&p->plan, p->cand + best, p);
  st->t_nominal = mjp_now() - t0;
  st->cost_nominal = p->cand[0].J, st->cost = p->cand[best].J;
  st->improvement = p->cand[0].J - p->cand[best].J;
  st->mu = p->mu;
  st->t_total = st->t_nominal;
}
