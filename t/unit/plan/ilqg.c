// t/unit/plan/ilqg.c: the cost and the planner (lib/plan/cost.c, lib/plan/ilqg.c) on a cart
// with a pole (slide and hinge, no contact).  Independent checks: the residual's Jacobians
// against central differences of the residual along the state and controls; the return's
// exact gradient along the actions (mjp_evaluate) against central differences of open-loop
// rollouts; iLQG's iterations never raising the return and reaching the goal; the same plan
// on one thread and on two; bad cost files refused with their line.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mj.h"

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
  };
  for (int i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++)
    expectError("bind.cost", cases[i].text, cases[i].msg, model);
}
