// t/unit/derivative.c: the analytic Jacobians of lib/derivative.c against a clean central
// difference of mj_step computed here (a step per column: 1e-6 times max(1, |x_c|)), on a
// pendulum, a double pendulum, a ball joint, a floating chain with contacts disabled and an
// actuated model (filter, filterexact, integrator dynamics; affine gains and biases; a fixed
// tendon), under Euler, implicit and implicitfast; an exact case; refusals; the counter.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "derivative.h"
#include "util.h"

// a single hinge pendulum: point-like bob of mass 2 at l = 0.7 below the hinge
static const char* PENDULUM =
    "<mujoco><option timestep='0.002'/><worldbody><body pos='0 0 1'>"
    "<joint name='h' axis='0 1 0' damping='0.05'/>"
    "<inertial pos='0 0 -0.7' mass='2' diaginertia='0.01 0.02 0.03'/></body></worldbody>"
    "<actuator><motor joint='h' gear='1.5' ctrlrange='-1 1' ctrllimited='true'/></actuator>"
    "</mujoco>";

// two hinges about different axes, offset inertias
static const char* DOUBLE =
    "<mujoco><option timestep='0.005'/><worldbody><body pos='0 0 1'>"
    "<joint axis='0 1 0' damping='0.1' stiffness='0.5'/>"
    "<inertial pos='0.05 0 -0.4' quat='0.9 0.1 0.3 0' mass='1' diaginertia='0.02 0.03 0.04'/>"
    "<body pos='0 0.1 -0.8'><joint axis='1 0 0.3' pos='0 0 0.1' damping='0.2'/>"
    "<inertial pos='0 0.1 -0.3' mass='0.7' diaginertia='0.01 0.015 0.02'/>"
    "</body></body></worldbody></mujoco>";

// a ball joint with a spring, a hinge below it
static const char* BALL =
    "<mujoco><option timestep='0.004'/><worldbody><body pos='0 0 1'>"
    "<joint type='ball' pos='0 0 0.1' stiffness='2' damping='0.3'/>"
    "<inertial pos='0.1 0.05 -0.3' quat='0.8 0.2 0 0.3' mass='1.5' diaginertia='0.03 0.04 0.05'/>"
    "<body pos='0.1 0 -0.6'><joint axis='0 1 1'/>"
    "<inertial pos='0 0 -0.2' mass='0.5' diaginertia='0.01 0.01 0.005'/>"
    "</body></body></worldbody></mujoco>";

// a floating humanoid-like chain: free torso, two legs (hinge, hinge), an arm (ball, hinge)
static const char* FLOATING =
    "<mujoco><option timestep='0.002'><flag contact='disable'/></option><worldbody>"
    "<geom type='plane' size='5 5 0.1'/>"
    "<body pos='0 0 1.2'><freejoint/>"
    "<inertial pos='0.02 0 0.1' quat='0.9 0 0.2 0.1' mass='8' diaginertia='0.3 0.25 0.12'/>"
    "<geom type='capsule' size='0.1' fromto='0 0 0 0 0 0.3'/>"
    "<body pos='0 0.1 0'><joint axis='0 1 0' damping='0.5'/>"
    "<inertial pos='0 0 -0.2' mass='2' diaginertia='0.03 0.03 0.005'/>"
    "<body pos='0 0 -0.4'><joint axis='0 1 0' stiffness='3'/>"
    "<inertial pos='0 0 -0.2' mass='1.5' diaginertia='0.02 0.02 0.004'/></body></body>"
    "<body pos='0 -0.1 0'><joint axis='1 0 0'/>"
    "<inertial pos='0 0 -0.2' mass='2' diaginertia='0.03 0.03 0.005'/></body>"
    "<body pos='0 0.2 0.3'><joint type='ball' damping='0.1'/>"
    "<inertial pos='0 0.15 0' mass='1' diaginertia='0.01 0.003 0.01'/>"
    "<body pos='0 0.3 0'><joint axis='0 0 1'/>"
    "<inertial pos='0 0.1 0' mass='0.5' diaginertia='0.004 0.001 0.004'/></body></body>"
    "</body></worldbody></mujoco>";

// actuators of every differentiated kind on three hinges and a slide, a fixed tendon
static const char* ACTUATED =
    "<mujoco><option timestep='0.005'/><worldbody><body pos='0 0 1'>"
    "<joint name='a' axis='0 1 0' damping='0.1'/>"
    "<inertial pos='0 0 -0.3' mass='1' diaginertia='0.02 0.02 0.01'/>"
    "<body pos='0 0 -0.6'><joint name='b' axis='1 0 0'/>"
    "<inertial pos='0 0.1 -0.2' mass='0.8' diaginertia='0.01 0.02 0.01'/>"
    "<body pos='0 0 -0.4'><joint name='c' type='slide' axis='0 0 1' damping='0.3'/>"
    "<inertial pos='0.05 0 0' mass='0.4' diaginertia='0.002 0.002 0.002'/></body></body>"
    "</body><body pos='1 0 1'><joint name='d' axis='0 0 1' damping='0.05'/>"
    "<inertial pos='0.2 0 0' mass='0.6' diaginertia='0.01 0.01 0.01'/></body></worldbody>"
    "<tendon><fixed name='t' stiffness='4' damping='0.2'><joint joint='a' coef='1'/>"
    "<joint joint='d' coef='-0.5'/></fixed></tendon>"
    "<actuator>"
    "<general joint='a' dyntype='filter' dynprm='0.05' gainprm='2' ctrlrange='-1 1'"
    " ctrllimited='true'/>"
    "<general joint='b' dyntype='filterexact' dynprm='0.03' gaintype='affine'"
    " gainprm='1 0.5 -0.4' biastype='affine' biasprm='0.1 -2 -0.3'/>"
    "<general joint='c' dyntype='integrator' gainprm='3' actlimited='true' actrange='-1 1'"
    " actearly='true'/>"
    "<position joint='d' kp='5'/><velocity joint='b' kv='0.7'/>"
    "<general tendon='t' gaintype='affine' gainprm='0.5 0 0.8' biastype='affine'"
    " biasprm='0 -1 -0.2' ctrlrange='-2 2' ctrllimited='true'/>"
    "</actuator></mujoco>";

// the model of an XML string with integrator `integ` (an mjtIntegrator)
static mjModel* load(const char* xml, int integ) {
  char err[300];
  mjModel* m = mj_parseXMLString(xml, "test.xml", "", err, sizeof(err));
  cr_assert_not_null(m, "%s", err);
  m->opt.integrator = integ;
  return m;
}

// a reproducible state: qpos moved along every dof by 0.4 sin(1.3 i + 0.2), qvel, act and ctrl
// from other phases
static void setState(const mjModel* m, mjData* d) {
  mjtNum e[m->nv];
  for (int i = 0; i < m->nv; i++) {
    mju_zero(e, m->nv);
    e[i] = 1;
    mj_integratePos(m, d->qpos, e, 0.4 * sin(1.3 * i + 0.2));
    d->qvel[i] = 1.1 * cos(0.7 * i + 0.5);
  }
  for (int i = 0; i < m->na; i++) d->act[i] = 0.3 * sin(2.1 * i + 1);
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.8 * cos(1.7 * i + 0.3);
}

// the next state of one mj_step from (qpos, qvel, act, ctrl) as given
static void step(const mjModel* m, mjData* d, const mjtNum* qpos, const mjtNum* qvel,
                 const mjtNum* act, const mjtNum* ctrl, mjtNum* qpos1, mjtNum* qvel1,
                 mjtNum* act1) {
  mju_copy(d->qpos, qpos, m->nq);
  mju_copy(d->qvel, qvel, m->nv);
  mju_copy(d->act, act, m->na);
  mju_copy(d->ctrl, ctrl, m->nu);
  d->time = 0;
  mj_step(m, d);
  mju_copy(qpos1, d->qpos, m->nq);
  mju_copy(qvel1, d->qvel, m->nv);
  mju_copy(act1, d->act, m->na);
}

// A, B by central differences of mj_step: column c moves x_c (or u) by +-eps, eps = 1e-6
// max(1, |value|) (quaternion dofs 1e-6), and measures x' in the tangent space of the nominal
// next state
static void centralFD(const mjModel* m, mjData* d, mjtNum* A, mjtNum* B) {
  int nq = m->nq, nv = m->nv, na = m->na, nu = m->nu, ndx = 2 * nv + na;
  mjtNum q0[nq], v0[nv], a0[na + 1], u0[nu + 1], q[nq], v[nv], a[na + 1], u[nu + 1];
  mjtNum qn[nq], vn[nv], an[na + 1], qp[2][nq], vp[2][nv], ap[2][na + 1], dq[2][nv], e[nv];
  mju_copy(q0, d->qpos, nq);
  mju_copy(v0, d->qvel, nv);
  mju_copy(a0, d->act, na);
  mju_copy(u0, d->ctrl, nu);
  step(m, d, q0, v0, a0, u0, qn, vn, an);
  for (int c = 0; c < ndx + nu; c++) {
    for (int s = 0; s < 2; s++) {
      mjtNum sgn = s ? -1 : 1, eps = 1e-6;
      mju_copy(q, q0, nq);
      mju_copy(v, v0, nv);
      mju_copy(a, a0, na);
      mju_copy(u, u0, nu);
      if (c < nv) {
        int jt = m->jnt_type[m->dof_jntid[c]];
        if (jt == mjJNT_HINGE || jt == mjJNT_SLIDE)
          eps *= fmax(1, fabs(q0[m->jnt_qposadr[m->dof_jntid[c]]]));
        mju_zero(e, nv);
        e[c] = 1;
        mj_integratePos(m, q, e, sgn * eps);
      } else if (c < 2 * nv) {
        eps *= fmax(1, fabs(v0[c - nv]));
        v[c - nv] += sgn * eps;
      } else if (c < ndx) {
        eps *= fmax(1, fabs(a0[c - 2 * nv]));
        a[c - 2 * nv] += sgn * eps;
      } else {
        eps *= fmax(1, fabs(u0[c - ndx]));
        u[c - ndx] += sgn * eps;
      }
      step(m, d, q, v, a, u, qp[s], vp[s], ap[s]);
      mj_differentiatePos(m, dq[s], 1, qn, qp[s]);
      if (s) {
        mjtNum col[ndx];
        for (int i = 0; i < nv; i++) col[i] = (dq[0][i] - dq[1][i]) / (2 * eps);
        for (int i = 0; i < nv; i++) col[nv + i] = (vp[0][i] - vp[1][i]) / (2 * eps);
        for (int i = 0; i < na; i++) col[2 * nv + i] = (ap[0][i] - ap[1][i]) / (2 * eps);
        for (int r = 0; r < ndx; r++) {
          if (c < ndx) A[r * ndx + c] = col[r];
          else B[r * nu + c - ndx] = col[r];
        }
      }
    }
  }
  mju_copy(d->qpos, q0, nq);
  mju_copy(d->qvel, v0, nv);
  mju_copy(d->act, a0, na);
  mju_copy(d->ctrl, u0, nu);
}

// max |x - ref| / max(1, max |ref|) over n entries
static mjtNum relErr(const mjtNum* x, const mjtNum* ref, int n) {
  mjtNum err = 0, scale = 1;
  for (int i = 0; i < n; i++) scale = fmax(scale, fabs(ref[i]));
  for (int i = 0; i < n; i++) err = fmax(err, fabs(x[i] - ref[i]));
  return err / scale;
}

// analytic A, B against the central difference within 1e-6 at setState's state, changed by
// adjust (NULL: none)
static void checkAt(const char* name, const char* xml, int integ,
                    void (*adjust)(const mjModel*, mjData*)) {
  static const char* const iname[] = {"Euler", "RK4", "implicit", "implicitfast"};
  char err[300];
  mjModel* m = load(xml, integ);
  mjData* d = mj_makeData(m);
  setState(m, d);
  if (adjust) adjust(m, d);
  int ndx = 2 * m->nv + m->na, nu = m->nu;
  mjtNum A[ndx * ndx], B[ndx * nu + 1], Af[ndx * ndx], Bf[ndx * nu + 1];
  cr_assert_eq(mjd_transitionSmooth(m, d, A, B, err, sizeof(err)), 0, "%s", err);
  centralFD(m, d, Af, Bf);
  mjtNum ea = relErr(A, Af, ndx * ndx), eb = relErr(B, Bf, ndx * nu);
  fprintf(stderr, "derivative: %-9s %-12s nv %2d na %d nu %d  A %.2e  B %.2e\n", name,
          iname[integ], m->nv, m->na, nu, ea, eb);
  for (int r = 0; r < ndx && ea > 1e-6; r++)
    for (int c = 0; c < ndx; c++)
      if (fabs(A[r * ndx + c] - Af[r * ndx + c]) > 1e-7)
        fprintf(stderr, "  A(%d,%d) %.10g fd %.10g\n", r, c, A[r * ndx + c], Af[r * ndx + c]);
  for (int r = 0; r < ndx && eb > 1e-6; r++)
    for (int c = 0; c < nu; c++)
      if (fabs(B[r * nu + c] - Bf[r * nu + c]) > 1e-7)
        fprintf(stderr, "  B(%d,%d) %.10g fd %.10g\n", r, c, B[r * nu + c], Bf[r * nu + c]);
  cr_expect_leq(ea, 1e-6, "%s %s: A off by %g", name, iname[integ], ea);
  cr_expect_leq(eb, 1e-6, "%s %s: B off by %g", name, iname[integ], eb);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// the same at setState's state
static void check(const char* name, const char* xml, int integ) {
  checkAt(name, xml, integ, NULL);
}

Test(derivative, pendulum) {
  check("pendulum", PENDULUM, mjINT_EULER);
  check("pendulum", PENDULUM, mjINT_IMPLICIT);
  check("pendulum", PENDULUM, mjINT_IMPLICITFAST);
  check("pendulum", PENDULUM, mjINT_RK4);
}

Test(derivative, double_pendulum) {
  check("double", DOUBLE, mjINT_EULER);
  check("double", DOUBLE, mjINT_IMPLICIT);
  check("double", DOUBLE, mjINT_IMPLICITFAST);
  check("double", DOUBLE, mjINT_RK4);
}

Test(derivative, ball) {
  check("ball", BALL, mjINT_EULER);
  check("ball", BALL, mjINT_IMPLICIT);
  check("ball", BALL, mjINT_IMPLICITFAST);
  check("ball", BALL, mjINT_RK4);
}

Test(derivative, floating) {
  check("floating", FLOATING, mjINT_EULER);
  check("floating", FLOATING, mjINT_IMPLICIT);
  check("floating", FLOATING, mjINT_IMPLICITFAST);
  check("floating", FLOATING, mjINT_RK4);
}

Test(derivative, actuated) {
  check("actuated", ACTUATED, mjINT_EULER);
  check("actuated", ACTUATED, mjINT_IMPLICIT);
  check("actuated", ACTUATED, mjINT_IMPLICITFAST);
  check("actuated", ACTUATED, mjINT_RK4);
}

// controls and activations at their clamps: actuator 0's ctrl beyond its range (a zero
// column), actuator 2's integrator pushed past actrange (a zero row; actearly: no force slope)
static void clamp(const mjModel* m, mjData* d) {
  d->ctrl[0] = 1.5;
  d->ctrl[2] = 1;
  d->act[m->actuator_actadr[2]] = 0.999;
}

Test(derivative, actuated_clamped) {
  checkAt("clamped", ACTUATED, mjINT_EULER, clamp);
  checkAt("clamped", ACTUATED, mjINT_IMPLICIT, clamp);
  checkAt("clamped", ACTUATED, mjINT_RK4, clamp);
}

// a single hinge: a = -m g l sin(q) / I, so da/dq = -m g l cos(q) / I with I = Iyy + m l^2
Test(derivative, pendulum_exact) {
  char err[300];
  mjModel* m = load(PENDULUM, mjINT_EULER);
  mjData* d = mj_makeData(m);
  d->qpos[0] = 0.3;
  mj_forward(m, d);
  mjtNum dadq, dadv, dadu;
  cr_assert_eq(mjd_smoothAcc(m, d, &dadq, &dadv, NULL, &dadu, err, sizeof(err)), 0, "%s", err);
  mjtNum I = 0.02 + 2 * 0.7 * 0.7, g = 9.81;
  cr_expect(fabs(dadq - (-2 * g * 0.7 * cos(0.3) / I)) < 1e-13, "da/dq %.17g", dadq);
  cr_expect(fabs(dadv - (-0.05 / I)) < 1e-15, "da/dv %.17g", dadv);
  cr_expect(fabs(dadu - 1.5 / I) < 1e-15, "da/du %.17g", dadu);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// fluid forces and active constraint rows are refused with a message, nothing written
Test(derivative, refusals) {
  char err[300] = "";
  mjtNum A[4] = {7, 7, 7, 7};
  mjModel* m = load(PENDULUM, mjINT_EULER);
  mjData* d = mj_makeData(m);
  m->opt.density = 1.2;
  cr_assert_eq(mjd_transitionSmooth(m, d, A, NULL, err, sizeof(err)), -1);
  cr_expect(strstr(err, "fluid") != NULL, "%s", err);
  m->opt.density = 0;
  m->jnt_range[1] = 0.1;  // a limit the state violates: one constraint row
  m->jnt_range[0] = -0.1;
  m->jnt_limited[0] = 1;
  d->qpos[0] = 0.5;
  cr_assert_eq(mjd_transitionSmooth(m, d, A, NULL, err, sizeof(err)), -1);
  cr_expect(strstr(err, "constraint") != NULL, "%s", err);
  cr_expect(A[0] == 7 && A[3] == 7);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// a clock that only counts: the pipeline timers then count forward passes
static double ticks(void) { return 0; }

// no finite difference on the analytic path: the counter stays 0 and exactly one forward
// pass (the nominal one) runs inside mjd_transitionSmooth
Test(derivative, no_finite_differences) {
  char err[300];
  mjModel* m = load(FLOATING, mjINT_IMPLICIT);
  mjData* d = mj_makeData(m);
  setState(m, d);
  int ndx = 2 * m->nv + m->na;
  mjtNum A[ndx * ndx];
  mjcb_time = ticks;
  long before = d->timer[mjTIMER_FORWARD].number;
  cr_assert_eq(mjd_transitionSmooth(m, d, A, NULL, err, sizeof(err)), 0, "%s", err);
  long passes = d->timer[mjTIMER_FORWARD].number - before;
  mjcb_time = NULL;
  cr_expect_eq(passes, 1, "%ld forward passes", passes);
  cr_expect_eq(mjd_analyticFD, 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}
