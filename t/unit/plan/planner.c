// t/unit/plan/planner.c: the cost and the planners (lib/plan/cost.c, ilqg.c, sampling.c) on a
// cart with a pole (slide and hinge, no contact).  Independent checks: the residual's
// Jacobians against central differences of the residual along the state and controls; the
// return's exact gradient along the actions (mjp_evaluate) against central differences of
// open-loop rollouts; iLQG's iterations never raising the return and reaching the goal; the
// same plan on one thread and on two; the exact Jacobians on the rollouts' kept knot data the
// same to the bit as with each knot's forward pass rerun; predictive sampling's splines
// reproducing straight lines, its iterations at a fixed start never raising the return (the
// shift is exact there), the same plan on one thread and two, the noise a function of the
// seed; a gait schedule's
// switching on a scripted speed against the filter's closed form and hand-derived choice
// steps, its phase continuous against a piecewise formula; bad cost files refused with their
// line.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mj.h"
#include "plan/plan.h"

#define PI 3.14159265358979323846

// a cart on a rail with a pole on a hinge, both actuated within [-1, 1]
static const char cartXML[] =
  "<mujoco><option timestep='0.01'/>"
  "<worldbody><body name='cart'><joint name='slide' type='slide' axis='1 0 0' damping='0.1'/>"
  "<geom type='box' size='0.2 0.1 0.05' mass='1'/>"
  "<body name='pole'><joint name='hinge' axis='0 1 0' damping='0.01'/>"
  "<geom type='capsule' fromto='0 0 0 0 0 0.6' size='0.03' mass='0.2'/>"
  "<site name='tip' pos='0 0 0.6'/></body></body>"
  "<body name='goal' mocap='true' pos='0.5 0 0.6'/></worldbody>"
  "<actuator><motor name='push' joint='slide' gear='5' ctrlrange='-1 1'/>"
  "<motor name='twist' joint='hinge' gear='0.5' ctrlrange='-1 1'/></actuator>"
  "<sensor><framepos name='tip_pos' objtype='site' objname='tip'/>"
  "<framelinvel name='tip_vel' objtype='site' objname='tip'/>"
  "<actuatorfrc name='mjplan_force_push' actuator='push'/></sensor>"
  "<keyframe><key name='home' qpos='0 0.3'/></keyframe></mujoco>";

// a cost of every kind of row: sensors, joints, controls, forces, mocap, a table, a mask
static const char cartCost[] =
  "# the tip over the goal, the pole up, small controls\n"
  "table ramp 0 0 0.5 1\n"
  "term Tip norm l2 weight 2 params 0.1\n"
  "  r tip_pos[0] - mocap(goal)[0]\n"
  "  r tip_pos[2] - 0.6*table(ramp)\n"
  "term Still norm smoothabs weight 0.5 params 0.2\n"
  "  r tip_vel[0]\n"
  "  r qvel[hinge] if table(ramp)\n"
  "term Effort norm quadratic weight 0.1\n"
  "  r ctrl[twist] + 0.2*force[push]\n"
  "  r qpos[slide] - key(home).qpos[slide]\n";

static mjModel* model;
static mjCost* cost;
static char costPath[64];   // per process: the tests may run in parallel processes

// the cart and its cost, bound
static void setup(void) {
  char err[512] = "";
  model = mj_parseXMLString(cartXML, "cart.xml", ".", err, sizeof(err));
  cr_assert(model, "%s", err);
  snprintf(costPath, sizeof(costPath), "cart-%ld.cost", (long)getpid());
  FILE* f = fopen(costPath, "w");
  fputs(cartCost, f);
  fclose(f);
  cost = mjp_parseCost(costPath, err, sizeof(err));
  cr_assert(cost, "%s", err);
  cr_assert(!mjp_bindCost(cost, model, err, sizeof(err)), "%s", err);
}

static void teardown(void) {
  mjp_deleteCost(cost);
  mj_deleteModel(model);
  remove(costPath);
}

// the residual at the state x (tangent perturbation dx of d's) and controls u, after a forward pass
static void residualAt(mjData* d, const mjtNum* q0, const mjtNum* dx, const mjtNum* u, mjtNum* r) {
  const mjModel* m = model;
  memcpy(d->qpos, q0, sizeof(mjtNum) * m->nq);
  mj_integratePos(m, d->qpos, dx, 1);
  memcpy(d->qvel, dx + m->nv, sizeof(mjtNum) * m->nv);
  memcpy(d->ctrl, u, sizeof(mjtNum) * m->nu);
  mj_forward(m, d);
  mjpPoint pt;
  mjp_pointData(&pt, d);
  mjp_residual(cost, m, &pt, r);
}

// Rx, Ru from the sensors' exact C and D against central differences of the residual
Test(cost, residualJacobian, .init = setup, .fini = teardown) {
  const mjModel* m = model;
  mjData* d = mj_makeData(m);
  int nx = 2 * m->nv, nu = m->nu, nr = mjp_costResiduals(cost), ns = m->nsensordata;
  cr_assert_eq(nr, 6);
  mjtNum q0[2] = {0.1, 0.4}, x[4] = {0, 0, 0.3, -0.7}, u[2] = {0.2, -0.3};
  mjtNum C[64], D[32], Rx[24], Ru[12], rp[6], rm[6], er[512];
  d->time = 0.3;
  memcpy(d->qpos, q0, sizeof(q0));
  memcpy(d->qvel, x + 2, 2 * sizeof(mjtNum));
  memcpy(d->ctrl, u, sizeof(u));
  cr_assert(!mjd_transitionSmooth(m, d, NULL, NULL, C, D, (char*)er, sizeof(er)));
  mjpPoint pt;
  mjp_pointData(&pt, d);
  mjp_residualJacobian(cost, m, &pt, C, D, Rx, Ru);
  (void)ns;
  const mjtNum h = 1e-6;
  for (int j = 0; j < nx + nu; j++) {
    mjtNum xp[4], xm[4], up[2], um[2];
    memcpy(xp, x, sizeof(x)), memcpy(xm, x, sizeof(x)), memcpy(up, u, sizeof(u)), memcpy(um, u, sizeof(u));
    if (j < nx) xp[j] += h, xm[j] -= h;
    else up[j - nx] += h, um[j - nx] -= h;
    residualAt(d, q0, xp, up, rp);
    residualAt(d, q0, xm, um, rm);
    for (int i = 0; i < nr; i++) {
      mjtNum fd = (rp[i] - rm[i]) / (2 * h), an = j < nx ? Rx[i * nx + j] : Ru[i * nu + j - nx];
      cr_assert(fabs(fd - an) < 1e-7, "row %d col %d: %.12g vs %.12g", i, j, an, fd);
    }
  }
  mj_deleteData(d);
}

// the return's gradient along the actions against central differences of rollouts, for the
// exact Jacobians and for finite differences
Test(planner, gradientMatchesRollouts, .init = setup, .fini = teardown) {
  char err[512];
  for (int fd = 0; fd < 2; fd++) {
    mjPlanner* p = mjp_makePlanner(model, cost, 30, 10, 1, fd, 1, 1e-6, err, sizeof(err));
    cr_assert(p, "%s", err);
    mjData* d = mj_makeData(model);
    mj_resetDataKeyframe(model, d, 0);
    mjp_setState(p, d);
    int n = 29 * model->nu;
    mjtNum u[58], g[58], J, Jp, Jm;
    for (int i = 0; i < n; i++) u[i] = 0.6 * sin(0.37 * i + 0.2);
    cr_assert(!mjp_evaluate(p, u, &J, g, err, sizeof(err)), "%s", err);
    mjtNum worst = 0, scale = 0;
    for (int i = 0; i < n; i++) {
      const mjtNum h = 1e-6;
      u[i] += h;
      mjp_evaluate(p, u, &Jp, NULL, err, sizeof(err));
      u[i] -= 2 * h;
      mjp_evaluate(p, u, &Jm, NULL, err, sizeof(err));
      u[i] += h;
      worst = fmax(worst, fabs((Jp - Jm) / (2 * h) - g[i]));
      scale = fmax(scale, fabs(g[i]));
    }
    cr_assert(worst < (fd ? 1e-6 : 1e-8) * scale, "%s: gradient error %g of %g", fd ? "fd" : "analytic",
              worst, scale);
    mj_deleteData(d);
    mjp_deletePlanner(p);
  }
}

// iterations from the keyframe: the return never rises, and the plan ends with the tip
// near the goal; two threads give the same plan bit for bit
Test(planner, convergesAndThreadsAgree, .init = setup, .fini = teardown) {
  char err[512];
  mjtNum Jt[2];
  const mjtNum* xt[2];
  mjPlanner* p[2];
  for (int k = 0; k < 2; k++) {
    p[k] = mjp_makePlanner(model, cost, 101, 10, k + 1, 0, 0, 1e-6, err, sizeof(err));
    cr_assert(p[k], "%s", err);
    mjData* d = mj_makeData(model);
    mj_resetDataKeyframe(model, d, 0);
    mjp_setState(p[k], d);
    mjtNum last = INFINITY;
    for (int it = 0; it < 40; it++) {
      cr_assert(!mjp_optimize(p[k], err, sizeof(err)), "%s", err);
      mjtNum J = mjp_stats(p[k])->cost;
      cr_assert(J <= last * (1 + 1e-12), "iteration %d: %.15g after %.15g", it, J, last);
      last = J;
    }
    Jt[k] = mjp_plan(p[k], NULL, &xt[k], NULL);
    mj_deleteData(d);
  }
  cr_assert_eq(Jt[0], Jt[1]);
  cr_assert(!memcmp(xt[0], xt[1], sizeof(mjtNum) * 101 * 4));
  // the tip at the end: x = slide + 0.6 sin(hinge) at the goal's 0.5
  const mjtNum* x = xt[0] + 100 * 4;
  cr_assert(fabs(x[0] + 0.6 * sin(x[1]) - 0.5) < 0.05, "tip x %g", x[0] + 0.6 * sin(x[1]));
  mjp_deletePlanner(p[0]);
  mjp_deletePlanner(p[1]);
}

// the exact Jacobians on the knots' data the policy's rollouts left (their forward passes
// reused) against the same planner rerunning each knot's forward pass (its knots freed): the
// same Jacobians, plans and returns bit for bit, under Euler (the cart's damping implicit)
// and implicitfast, on one thread and on two, and with the slide limited to +-0.2 (the goal
// at 0.5 presses it against the limit: constraint rows, the solver's warm start); finite
// differences and the sampling planner keep none
Test(planner, keptKnotsAgree, .init = setup, .fini = teardown) {
  char err[512];
  static const struct { int integ, nthread, limited; } cases[] = {
    {mjINT_EULER, 1, 0}, {mjINT_IMPLICITFAST, 1, 0}, {mjINT_EULER, 2, 1},
    {mjINT_IMPLICITFAST, 2, 1}};
  for (int c = 0; c < 4; c++) {
    model->opt.integrator = cases[c].integ;
    model->jnt_limited[0] = cases[c].limited;
    model->jnt_range[0] = -0.01, model->jnt_range[1] = 0.01;
    mjPlanner* p[2];
    for (int k = 0; k < 2; k++) {
      p[k] = mjp_makePlanner(model, cost, 51, 10, cases[c].nthread, 0, 0, 1e-6, err, sizeof(err));
      cr_assert(p[k], "%s", err);
      cr_assert(p[k]->keep);
      if (!k) mjp_freeKnots(p[k]);
      mjData* d = mj_makeData(model);
      mj_resetDataKeyframe(model, d, 0);
      mjp_setState(p[k], d);
      mj_deleteData(d);
    }
    int limited = 0;
    for (int it = 0; it < 8; it++) {
      for (int k = 0; k < 2; k++) cr_assert(!mjp_optimize(p[k], err, sizeof(err)), "%s", err);
      // thread 0's best policy rollout kept all its knots (the line search cleared the
      // nominal's alias to them)
      cr_assert_eq(p[1]->kvalid[0], 51, "case %d, iteration %d: %d knots kept", c, it,
                   p[1]->kvalid[0]);
      for (int t = 0; t < 51; t++) limited |= p[1]->kbest[0][t]->nefc > 0;
      cr_assert(!memcmp(p[0]->A, p[1]->A, sizeof(mjtNum) * 51 * 16), "case %d, %d: A", c, it);
      cr_assert(!memcmp(p[0]->B, p[1]->B, sizeof(mjtNum) * 51 * 8), "case %d, %d: B", c, it);
      cr_assert(!memcmp(p[0]->Rx, p[1]->Rx, sizeof(mjtNum) * 51 * p[0]->nr * 4), "case %d, %d", c, it);
      cr_assert_eq(mjp_stats(p[0])->cost, mjp_stats(p[1])->cost, "case %d, iteration %d", c, it);
    }
    cr_assert_eq(limited, cases[c].limited, "case %d: the limit's rows at some knot", c);
    mjp_deletePlanner(p[0]);
    mjp_deletePlanner(p[1]);
  }
  model->jnt_limited[0] = 0;

  // none kept with finite differences or for sampling
  mjPlanner* q = mjp_makePlanner(model, cost, 51, 10, 1, 1, 0, 1e-6, err, sizeof(err));
  cr_assert(q && !q->keep && !q->kwork[0], "%s", err);
  mjp_deletePlanner(q);
  q = mjp_makePlanner(model, cost, 51, 10, 1, 0, 0, 1e-6, err, sizeof(err));
  cr_assert(q && q->keep, "%s", err);
  cr_assert(!mjp_setSampling(q, 6, 1, 0.1, 0, err, sizeof(err)), "%s", err);
  cr_assert(!q->keep && !q->kwork[0]);
  mjp_deletePlanner(q);
}

// a sampling planner of 101 knots and 8 rollouts on nthread threads at the keyframe, with
// actions linear in time from (-0.5, 0.2) to (0.5, -0.2)
static mjPlanner* samplingPlanner(int nthread, int interp, mjtNum explore, uint64_t seed) {
  char err[512] = "";
  mjPlanner* p = mjp_makePlanner(model, cost, 101, 8, nthread, 0, 0, 1e-6, err, sizeof(err));
  cr_assert(p, "%s", err);
  cr_assert(!mjp_setSampling(p, 6, interp, explore, seed, err, sizeof(err)), "%s", err);
  mjData* d = mj_makeData(model);
  mj_resetDataKeyframe(model, d, 0);
  mjp_setState(p, d);
  mj_deleteData(d);
  mjtNum u[101 * 2];
  for (int t = 0; t < 101; t++) u[2 * t] = -0.5 + t / 100.0, u[2 * t + 1] = 0.2 - 0.4 * t / 100.0;
  mjp_setActions(p, u);
  return p;
}

// without noise, the splines through points on a straight line are that line: the plan's
// actions are the ones set, for linear and cubic interpolation (zero-order holds steps), up
// to the fifth spline point for linear (knot 80: the last point is the policy's at the last
// knot, which repeats the action before it), the fourth for cubic (whose tangent at the fifth
// sees the last)
Test(sampling, splinesReproduceLines, .init = setup, .fini = teardown) {
  for (int interp = mjSPLINE_LINEAR; interp <= mjSPLINE_CUBIC; interp++) {
    mjPlanner* p = samplingPlanner(1, interp, 0, 0);
    mjp_sample(p);
    const mjtNum* u;
    mjp_plan(p, NULL, NULL, &u);
    for (int t = 0; t <= (interp == mjSPLINE_LINEAR ? 80 : 60); t++) {
      cr_assert_float_eq(u[2 * t], -0.5 + t / 100.0, 1e-12, "interp %d knot %d", interp, t);
      cr_assert_float_eq(u[2 * t + 1], 0.2 - 0.4 * t / 100.0, 1e-12, "interp %d knot %d", interp, t);
    }
    cr_assert_eq(mjp_stats(p)->improvement, 0);
    mjp_deletePlanner(p);
  }
}

// zero-order holds: the 6 points spaced by a sixth of the 100-knot horizon (MuJoCo MPC's
// span / n), point j valued by the line at knot 100 j / 6 and held to the next: knot t has
// point floor(6 t / 100)'s value (knots at a point's time, t = 50, skipped)
Test(sampling, zeroHoldsSixths, .init = setup, .fini = teardown) {
  mjPlanner* p = samplingPlanner(1, mjSPLINE_ZERO, 0, 0);
  mjp_sample(p);
  const mjtNum* u;
  mjp_plan(p, NULL, NULL, &u);
  for (int t = 0; t < 100; t++) {
    if (t == 50) continue;
    mjtNum j = floor(6.0 * t / 100);
    cr_assert_float_eq(u[2 * t], -0.5 + j / 6, 1e-12, "knot %d", t);
    cr_assert_float_eq(u[2 * t + 1], 0.2 - 0.4 * j / 6, 1e-12, "knot %d", t);
  }
  mjp_deletePlanner(p);
}

// at a fixed start the spline's shift is the identity, so the next nominal is the last
// winner: its return is the winner's, and the returns never rise; one thread and two give the
// same plan bit for bit, another seed another plan
Test(sampling, improvesAndThreadsAgree, .init = setup, .fini = teardown) {
  mjtNum J[3], first[3];
  const mjtNum* u[3];
  mjPlanner* p[3] = {samplingPlanner(1, mjSPLINE_CUBIC, 0.3, 7),
                     samplingPlanner(2, mjSPLINE_CUBIC, 0.3, 7),
                     samplingPlanner(1, mjSPLINE_CUBIC, 0.3, 8)};
  for (int k = 0; k < 3; k++) {
    mjtNum last = INFINITY;
    for (int it = 0; it < 30; it++) {
      mjp_sample(p[k]);
      const mjpStats* s = mjp_stats(p[k]);
      if (it) cr_assert_eq(s->cost_nominal, last, "iteration %d", it);
      else first[k] = s->cost_nominal;
      cr_assert(s->cost <= s->cost_nominal);
      last = s->cost;
    }
    J[k] = mjp_plan(p[k], NULL, NULL, &u[k]);
  }
  // the samples found better actions than the line: at least 10% less
  cr_assert(J[0] < 0.9 * first[0], "return %g from %g", J[0], first[0]);
  cr_assert_eq(J[0], J[1]);
  cr_assert(!memcmp(u[0], u[1], sizeof(mjtNum) * 101 * 2));
  cr_assert(memcmp(u[0], u[2], sizeof(mjtNum) * 101 * 2));
  for (int k = 0; k < 3; k++) mjp_deletePlanner(p[k]);
}

// bad settings: one-line messages
Test(sampling, settingErrors, .init = setup, .fini = teardown) {
  char err[512];
  mjPlanner* p = mjp_makePlanner(model, cost, 11, 4, 1, 0, 0, 1e-6, err, sizeof(err));
  cr_assert(p, "%s", err);
  cr_assert(mjp_setSampling(p, 12, mjSPLINE_CUBIC, 0.1, 0, err, sizeof(err)));
  cr_assert_str_eq(err, "spline points: between 1 and the 11 knots");
  cr_assert(mjp_setSampling(p, 3, 3, 0.1, 0, err, sizeof(err)));
  cr_assert_str_eq(err, "spline interpolation 3: 0 (zero), 1 (linear) or 2 (cubic)");
  cr_assert(mjp_setSampling(p, 3, mjSPLINE_ZERO, -1, 0, err, sizeof(err)));
  cr_assert_str_eq(err, "exploration -1: a number >= 0");
  mjp_deletePlanner(p);
}

// the cost file `text` at path fails with a one-line message starting with msg: when parsed,
// or with m when bound to m
static void expectError(const char* path, const char* text, const char* msg, const mjModel* m) {
  FILE* f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  char err[512] = "";
  mjCost* c = mjp_parseCost(path, err, sizeof(err));
  if (m) {
    cr_assert(c, "%s: %s", text, err);
    cr_assert(mjp_bindCost(c, m, err, sizeof(err)), "%s: bound", text);
  } else {
    cr_assert_null(c, "%s: parsed", text);
  }
  cr_assert(!strncmp(err, msg, strlen(msg)), "%s: '%s'", text, err);
  cr_assert(!strchr(err, '\n'));
  mjp_deleteCost(c);
  remove(path);
}

// a gait of one foot and a schedule of it, for the error cases
#define G1 "gait g phase 0 duty 0 cadence 1 amplitude 1\n"
#define S1 "schedule s gait g speed v filter 1 hold 1\n"
#define A1 "term A norm quadratic weight 1\n"

// malformed cost files: a one-line message naming the line
Test(cost, errors) {
  static const struct { const char* text; const char* msg; } cases[] = {
    {"term A norm quadratic weight 1\n  r qpos[0] * qvel[0]\n", "bad.cost:2: a product of two quantities"},
    {"term A norm nonsense weight 1\n  r qpos[0]\n", "bad.cost:1: term 'A': unknown norm 'nonsense'"},
    {"  r qpos[0]\n", "bad.cost:1: a row before any term"},
    {"term A norm quadratic weight 1\n", "bad.cost:1: term 'A' has no row"},
    {"term A norm quadratic weight 1\n  r qpos[0] + \n", "bad.cost:2: expected a quantity"},
    {"frobnicate\n", "bad.cost:1: unknown directive 'frobnicate'"},
    {"table t 1 0 0.5 1\n", "bad.cost:1: table 't': times must increase"},
    {"gait g phase 0,0.5 duty 0.5\n", "bad.cost:1: gait 'g': needs phase, duty, cadence and amplitude"},
    {"term A norm quadratic weight 1\n  r key(home)[0]\n", "bad.cost:2: key(home): expected key(home).qpos[k]"},
    {"term A norm quadratic weight 1\n  r qpos[0] if qvel[0]\n", "bad.cost:2: if: a mask is a value of time"},
    {"schedule s gait g speed v filter 0.2 hold 1\n",
     "bad.cost:1: schedule 's': gait: no gait named 'g' before it"},
    {G1 "schedule s gait g speed v hold 1\n",
     "bad.cost:2: schedule 's': needs gait, speed, filter and hold"},
    {G1 "schedule s gait g speed v filter 0 hold 1\n",
     "bad.cost:2: schedule 's': filter: expected a time > 0"},
    {G1 "schedule s gait g speed v filter 1 hold -1\n",
     "bad.cost:2: schedule 's': hold: expected a number >= 0"},
    {G1 "schedule s gait g speed v filter 1 hold 1 pace 2\n",
     "bad.cost:2: schedule 's': unknown setting 'pace'"},
    {G1 "schedule g gait g speed v filter 1 hold 1\n",
     "bad.cost:2: schedule 'g': the name is taken"},
    {G1 S1 "gait s phase 0 duty 0 cadence 1 amplitude 1\n",
     "bad.cost:3: gait 's': the name is taken"},
    {G1 G1, "bad.cost:2: gait 'g': the name is taken"},
    {G1 "switch s gait g above 0\n", "bad.cost:2: switch: no schedule named 's' before it"},
    {G1 S1 "switch s gait h above 0\n", "bad.cost:3: switch s: gait: no gait named 'h' before it"},
    {G1 S1 "gait h phase 0,0 duty 0 cadence 1 amplitude 1\nswitch s gait h above 0\n",
     "bad.cost:4: switch s: gait: 'h' has 2 feet, the schedule's 1"},
    {G1 S1 "switch s gait g upto 1\n", "bad.cost:3: switch s: needs gait and above"},
    {G1 S1 "switch s gait g above 1 upto 0.5\n",
     "bad.cost:3: switch s: upto: expected more than above 1"},
    {G1 S1 "switch s gait g above 0 upto 1\nswitch s gait g above 0.5\n",
     "bad.cost:4: switch s: above: the band (0.5, inf] overlaps line 3's"},
    {G1 S1 "switch s gait g above 0 weight A\n",
     "bad.cost:3: switch s: weight: expected a number >= 0"},
    {G1 S1 "switch s gait g above 0 weight 2\n",
     "bad.cost:3: switch s: weight: expected pairs 'TERM W'"},
    {G1 S1 "switch s gait g above 0 weight B 1\nterm A norm quadratic weight 1\n  r 1\n",
     "bad.cost:3: switch s: weight: no term named 'B'"},
  };
  for (int i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++)
    expectError("bad.cost", cases[i].text, cases[i].msg, NULL);
}

// binding errors against the cart: unknown names and components
Test(cost, bindErrors, .init = setup, .fini = teardown) {
  static const struct { const char* text; const char* msg; } cases[] = {
    {"term A norm quadratic weight 1\n  r nosuch[0]\n", "bind.cost:2: no sensor named 'nosuch'"},
    {"term A norm quadratic weight 1\n  r tip_pos\n", "bind.cost:2: sensor 'tip_pos' has 3 components: say which"},
    {"term A norm quadratic weight 1\n  r tip_pos[3]\n", "bind.cost:2: sensor 'tip_pos' has 3 components, not 4"},
    {"term A norm quadratic weight 1\n  r qpos[elbow]\n", "bind.cost:2: no joint named 'elbow'"},
    {"term A norm quadratic weight 1\n  r ctrl[7]\n", "bind.cost:2: ctrl[7]: no such actuator"},
    {"term A norm quadratic weight 1\n  r mocap(cart)[0]\n", "bind.cost:2: no mocap body named 'cart'"},
    {"term A norm quadratic\n  r qpos[0]\n", "bind.cost:1: term 'A': not a term of the task"},
    {"term A norm l2 weight 1\n  r qpos[0]\n", "bind.cost:1: term 'A': norm l2 needs 1 positive parameters"},
    {"term A norm quadratic weight 1\n  r gait(s)[0]\n",
     "bind.cost:2: no gait or schedule named 's'"},
    {G1 "schedule s gait g speed nosuch filter 1 hold 1\n" A1 "  r gait(s)[0]\n",
     "bind.cost:2: schedule 's': speed: no sensor named 'nosuch'"},
    {G1 "schedule s gait g speed mjplan_force_push filter 1 hold 1\n" A1 "  r 1\n",
     "bind.cost:2: schedule 's': speed: sensor 'mjplan_force_push' has 1 component, not 2 or "
     "more"},
    {G1 "schedule s gait g speed tip_vel filter 1 hold 1\n" A1 "  r gait(s)[1]\n",
     "bind.cost:4: gait(s)[1]: it has 1 feet"},
  };
  for (int i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++)
    expectError("bind.cost", cases[i].text, cases[i].msg, model);
}

// a schedule of three gaits of two feet over the cart's tip velocity (x, y), the weights of
// terms Lift (the step heights) and Spare (one constant row) set by the switches
static const char schedCost[] =
  "gait still phase 0,0.25 duty 1 cadence 1 amplitude 0\n"
  "gait trot phase 0,0.5 duty 0.45 cadence 2 amplitude 0.03\n"
  "gait canter phase 0,0.33 duty 0.4 cadence 4 amplitude 0.05\n"
  "schedule auto gait still speed tip_vel filter 0.2 hold 1 duty 0 cadence 2 amplitude 0.06\n"
  "switch auto gait still above 0 upto 0.02 weight Spare 0\n"
  "switch auto gait trot above 0.02 upto 0.6 weight Spare 0.2\n"
  "switch auto gait canter above 0.6 upto 2 weight Spare 0.03 Lift 0.5\n"
  "term Lift norm quadratic weight 1\n"
  "  r gait(auto)[0]\n"
  "  r gait(auto)[1]\n"
  "term Spare norm quadratic weight 0.7\n"
  "  r 1\n";

// the step height of a foot of offset off at phase phi (MuJoCo MPC's StepHeight, from its
// description in TASKS.md)
static mjtNum expectHeight(mjtNum phi, mjtNum off, mjtNum duty, mjtNum amp) {
  if (duty >= 1) return 0;
  mjtNum a = (fmod(phi + PI - 2 * PI * off, 2 * PI) - PI) * 0.5 / (1 - duty);
  mjtNum h = cos(fmax(-PI / 2, fmin(PI / 2, a)));
  return fabs(h) < 1e-6 ? 0 : amp * h;
}

// transitions at steps n of 1/512 s (times exact in binary) with the tip's speed s (in the
// direction (0.6, 0.8)): 0.5 until step 1050, 1.5 until 1700, then 0.01.  By hand, with the
// filter's time constant 0.2 s (102.4 steps) and a choice at most once a second (512 steps,
// strictly more): trot at 513 (v = 0.4966); trot again at 1026, no change but the choice's
// time (so the canter band, reached near step 1061, waits); canter at 1539 (v = 1.498); trot
// at 2052 (v = 0.01 + 1.488 exp(-352/102.4) = 0.058); still at 2565 (v = 0.0103).  The
// phase 4 pi t until the step after the change to canter (MuJoCo MPC rebases at the next
// transition), then 8 pi per second from there, 4 pi after the step after 2052, 2 pi after
// the step after 2565; the step heights, at the steps and between them (inside a rollout),
// from the gait in force
Test(cost, scheduleSwitches, .init = setup, .fini = teardown) {
  char err[512] = "", path[64];
  snprintf(path, sizeof(path), "sched-%ld.cost", (long)getpid());
  FILE* f = fopen(path, "w");
  fputs(schedCost, f);
  fclose(f);
  mjCost* c = mjp_parseCost(path, err, sizeof(err));
  remove(path);
  cr_assert(c, "%s", err);
  cr_assert(!mjp_bindCost(c, model, err, sizeof(err)), "%s", err);
  mjtNum* sd = calloc((size_t)model->nsensordata, sizeof(mjtNum));
  int adr = model->sensor_adr[mj_name2id(model, mjOBJ_SENSOR, "tip_vel")];
  const mjtNum dt = 1.0 / 512, beta = exp(-dt / 0.2);
  static const struct { int step; const char* gait; mjtNum spare; } expect[] = {
    {513, "trot", 0.2}, {1539, "canter", 0.03}, {2052, "trot", 0.2}, {2565, "still", 0}};
  // the rebase steps and the cadences from them
  static const int rebase[] = {0, 1540, 2053, 2566};
  static const mjtNum cadence[] = {2, 4, 2, 1};
  int k = 0;
  mjtNum phi0 = 0, t0 = 0, r[3], terms[2];
  const char* gait, *name;
  for (int n = 0; n <= 2800; n++) {
    mjtNum t = n * dt, sp = n < 1050 ? 0.5 : n < 1700 ? 1.5 : 0.01, phase, speed;
    sd[adr] = 0.6 * sp, sd[adr + 1] = 0.8 * sp, sd[adr + 2] = 7;   // z is not read
    mjpPoint pt = {.time = t, .sensordata = sd};
    int changed = mjp_costTransition(c, &pt);
    int at = k < 4 && n == expect[k].step;
    cr_assert_eq(changed, at, "step %d: %d changes", n, changed);
    if (at) {
      name = mjp_costSchedule(c, 0, t, &gait, NULL, NULL);
      cr_assert_str_eq(name, "auto");
      cr_assert_str_eq(gait, expect[k].gait, "step %d", n);
      k++;
    }
    // the filter's closed form while the speed is constant from the start: 0.5 (1 - beta^n)
    mjp_costSchedule(c, 0, t, NULL, &phase, &speed);
    if (n == 513 || n == 1026)
      cr_assert_float_eq(speed, 0.5 * (1 - pow(beta, n)), 1e-12, "step %d", n);

    // the phase: continuous at the rebases, the piecewise line
    int j = 0;
    while (j < 3 && n >= rebase[j + 1]) j++;
    if (n == rebase[j] && j) phi0 += 2 * PI * cadence[j - 1] * (t - t0), t0 = t;
    cr_assert_float_eq(phase, phi0 + 2 * PI * cadence[j] * (t - t0), 1e-9, "step %d", n);

    // the step heights at the step and a third of a step later, of the gait in force
    mjp_costSchedule(c, 0, t, &gait, NULL, NULL);
    int g = !strcmp(gait, "still") ? 0 : !strcmp(gait, "trot") ? 1 : 2;
    static const mjtNum off[3][2] = {{0, 0.25}, {0, 0.5}, {0, 0.33}};
    mjtNum duty = n < 513 ? 0 : g == 0 ? 1 : g == 1 ? 0.45 : 0.4;
    mjtNum amp = n < 513 ? 0.06 : g == 0 ? 0 : g == 1 ? 0.03 : 0.05;
    for (int w = 0; w < 2; w++) {
      pt.time = t + w * dt / 3;
      mjp_residual(c, model, &pt, r);
      mjtNum ph = phi0 + 2 * PI * cadence[j] * (pt.time - t0);
      for (int foot = 0; foot < 2; foot++)
        cr_assert_float_eq(r[foot], expectHeight(ph, off[g][foot], duty, amp), 1e-9,
                           "step %d foot %d", n, foot);
    }

    // the weights: Spare 0.7 (the cost file's) until the first change, then its switch's;
    // Lift 1 until canter sets 0.5
    mjp_costTermValues(c, r, terms);
    mjtNum spare = k ? expect[k - 1].spare : 0.7, lift = n < 1539 ? 1 : 0.5;
    cr_assert_float_eq(terms[1], 0.5 * spare, 1e-15, "step %d", n);
    cr_assert_float_eq(terms[0], 0.5 * lift * (r[0] * r[0] + r[1] * r[1]), 1e-15, "step %d", n);
  }
  cr_assert_eq(k, 4);
  // no second schedule
  cr_assert_null(mjp_costSchedule(c, 1, 0, NULL, NULL, NULL));
  free(sd);
  mjp_deleteCost(c);
}
